/*
 * tchess review --plain FILE.pgn: a scriptable dump of every game in a PGN
 * file, replayed through the game rules. For each game:
 *
 *   game N
 *   PLY SAN UCI FEN-after-the-move [nags=$N,...] [eval=cp:N|mate:N] [clock=H:MM:SS] [eco=CODE]
 *   ( PLY                               (a variation replacing that ply, after it:
 *   PLY SAN UCI FEN ...                  its moves, variations nested alike)
 *   )
 *   opening CODE NAME                   (the main line's last position in the ECO table)
 *   ended PLY STATUS                    (after ply PLY, when the rules end the game there
 *                                        and the file plays on: its moves follow)
 *   warning MESSAGE                     (a bad move in a variation the reader passed over)
 *   end RESULT STATUS [claimable=threefold] [claimable=fifty]
 *
 * With --analyse[=DEPTH] (an engine, review-engine.h, at that fixed depth)
 * each main-line move also gets "engine=cp:N|mate:N" (the position after
 * it, White's view), "best=UCI" (the engine's move in the position before
 * it) and, when judged, "class=inaccuracy|mistake|blunder"; and after the
 * moves a line "accuracy white W black B" (percent, rounded).
 *
 * or, after the moves that could be read and replayed, "error LINE:COL
 * MESSAGE" when the rest cannot; the dump goes on with the next game and
 * the exit status is then 1. RESULT is the Result tag, or the termination
 * marker when the tag is missing or empty, or "*".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/eco.h"
#include "tchess/fen.h"
#include "tchess/game.h"
#include "tchess/notation.h"
#include "tchess/pgn.h"

#include "analysis.h"
#include "commands.h"
#include "review-engine.h"

/* The engine's verdicts on the main line being dumped, or NULL. */
struct dump_engine {
	struct review_engine *re;
	size_t n;                      /* positions with a verdict (0..n-1) */
	struct pgn_eval *evals;        /* White's view; PGN_EVAL_NONE when none */
	char (*best)[UCI_MAX];
};

/* Reads a whole file; returns a malloc'd buffer or NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			errno = ENOMEM;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

static const char *status_name(const struct game *g)
{
	if (!game_is_over(g))
		return "ongoing";
	switch (g->termination) {
	case GAME_TERM_CHECKMATE: return "checkmate";
	case GAME_TERM_STALEMATE: return "stalemate";
	case GAME_TERM_INSUFFICIENT_MATERIAL: return "insufficient-material";
	case GAME_TERM_DEAD_POSITION: return "dead-position";
	case GAME_TERM_FIVEFOLD: return "fivefold";
	case GAME_TERM_SEVENTYFIVE_MOVES: return "seventyfive";
	default: return game_termination_str(g->termination);
	}
}

/* Prints one move line: "PLY SAN UCI FEN-after" and the move's
 * annotations (and the engine's, for a main-line ply when de is not NULL),
 * and plays the move on p. */
static void dump_move(struct position *p, size_t ply, const struct pgn_move *pm, const struct dump_engine *de)
{
	enum color mover = (enum color)p->side;
	char san[SAN_MAX], uci[UCI_MAX], fen[FEN_MAX];
	if (pm->m == MOVE_NONE) {
		strcpy(san, "--");
		strcpy(uci, "0000");
		pgn_null_move(p);
	} else {
		struct undo u;
		san_write(p, pm->m, san);
		uci_write(p, pm->m, uci);
		position_make(p, pm->m, &u);
	}
	fen_write(p, fen);
	printf("%zu %s %s %s", ply, san, uci, fen);
	for (int k = 0; k < pm->n_nags; k++)
		printf("%s$%d", k ? "," : " nags=", pm->nags[k]);
	if (pm->eval.kind == PGN_EVAL_CP)
		printf(" eval=cp:%d", (int)pm->eval.value);
	else if (pm->eval.kind == PGN_EVAL_MATE)
		printf(" eval=mate:%d", (int)pm->eval.value);
	if (pm->clock_ms >= 0) {
		char clk[24];
		pgn_format_clock(pm->clock_ms, clk);
		printf(" clock=%s", clk);
	}
	const struct eco_entry *eco = eco_lookup(p);
	if (eco)
		printf(" eco=%s", eco->code);
	if (de && ply < de->n) {
		const struct pgn_eval *before = &de->evals[ply - 1], *after = &de->evals[ply];
		if (after->kind == PGN_EVAL_CP)
			printf(" engine=cp:%d", (int)after->value);
		else if (after->kind == PGN_EVAL_MATE)
			printf(" engine=mate:%d", (int)after->value);
		if (de->best[ply - 1][0])
			printf(" best=%s", de->best[ply - 1]);
		enum analysis_judgement j = analysis_judge(before, after, mover);
		if (j != ANALYSIS_NONE)
			printf(" class=%s", analysis_judgement_name(j));
	}
	printf("\n");
}

/* Prints moves[0..n) from *p (left after them), the first being ply
 * first; each move's variations follow it, each between a line "( PLY"
 * (the ply it replaces) and a line ")". The recursion is as deep as the
 * variations nest, which the reader bounds. */
static void dump_line(const struct pgn_move *moves, size_t n, struct position *p, size_t first,
		      const struct dump_engine *de)
{
	for (size_t i = 0; i < n; i++) {
		struct position before = *p;
		dump_move(p, first + i, &moves[i], de);
		for (size_t k = 0; k < moves[i].n_variations; k++) {
			const struct pgn_line *l = &moves[i].variations[k];
			struct position q = before;
			printf("( %zu\n", first + i);
			dump_line(l->moves, l->n_moves, &q, first + i, NULL);
			printf(")\n");
		}
	}
}

/* Runs the engine's pass over the first n moves of pg's main line and
 * fills de with its verdicts; -1 (with the reason on stderr and an
 * "engine-error" line) when the engine fails. */
static int dump_analyse(struct dump_engine *de, const struct pgn_game *pg, size_t n)
{
	move *moves = calloc(n ? n : 1, sizeof *moves);
	char *err = NULL, why[256];
	for (size_t i = 0; moves && i < n; i++)
		moves[i] = pg->moves[i].m;
	de->n = 0;
	if (!moves || review_engine_pass(de->re, &pg->start, moves, n, &err) < 0 ||
	    review_engine_wait(de->re, why, sizeof why) < 0) {
		printf("engine-error %s\n", err ? err : moves ? why : "out of memory");
		free(err);
		free(moves);
		return -1;
	}
	free(moves);
	free(de->evals);
	free(de->best);
	de->evals = calloc(n + 1, sizeof *de->evals);
	de->best = calloc(n + 1, sizeof *de->best);
	if (!de->evals || !de->best)
		return -1;
	for (size_t i = 0; i <= n; i++) {
		struct review_engine_eval e;
		if (!review_engine_eval_at(de->re, i, &e))
			return -1;
		if (e.has_eval) {
			de->evals[i].kind = e.mate ? PGN_EVAL_MATE : PGN_EVAL_CP;
			de->evals[i].value = e.score;
		}
		de->evals[i].depth = -1;
		memcpy(de->best[i], e.best, UCI_MAX);
	}
	de->n = n + 1;
	return 0;
}

/* Prints the first n moves of pg's main line with their variations,
 * stopping before a null move (the rules cannot replay one), with the
 * line "ended PLY STATUS" after ply ended when the rules end the game
 * there and the file plays on (status names the ending; SIZE_MAX: they
 * do not; 0: before the first move),
 * then the problems the reader passed over. */
static void dump_plies(const struct pgn_game *pg, size_t n, size_t ended, const char *status,
		       struct dump_engine *de)
{
	struct position p = pg->start;
	size_t k = 0;
	while (k < n && k < pg->n_moves && pg->moves[k].m != MOVE_NONE)
		k++;
	if (de && dump_analyse(de, pg, k) < 0)
		de = NULL;
	if (ended <= k) {
		dump_line(pg->moves, ended, &p, 1, de);
		printf("ended %zu %s\n", ended, status);
		dump_line(pg->moves + ended, k - ended, &p, ended + 1, de);
	} else {
		dump_line(pg->moves, k, &p, 1, de);
	}
	/* The opening: the last position of the main line in the ECO table. */
	const struct eco_entry *opening = NULL;
	p = pg->start;
	for (size_t i = 0; i < k; i++) {
		struct undo u;
		position_make(&p, pg->moves[i].m, &u);
		const struct eco_entry *e = eco_lookup(&p);
		opening = e ? e : opening;
	}
	if (opening)
		printf("opening %s %s\n", opening->code, opening->name);
	if (pg->n_warnings)
		printf("warning %s%s\n", pg->warning, pg->n_warnings > 1 ? " (and more like it)" : "");
	double white, black;
	if (de && de->n == k + 1 && analysis_game_accuracy(de->evals, k, (enum color)pg->start.side, &white, &black))
		printf("accuracy white %.0f black %.0f\n", white, black);
}

/* The result field of the end line: the Result tag, else the termination
 * marker, else "*"; never empty, so the line's fields stay in place. */
static const char *result_field(const struct pgn_game *pg)
{
	const char *tag = pgn_game_tag(pg, "Result");
	if (tag && *tag && !strchr(tag, ' '))
		return tag;
	return pg->result[0] ? pg->result : "*";
}

/* Prints one replayed game; returns 0, or 1 if it could not be replayed. */
static int dump_game(const struct pgn_game *pg, size_t index, struct dump_engine *de)
{
	struct game g;
	struct tchess_error err;
	size_t failed = 0;
	int rc = 0;

	printf("game %zu\n", index);
	enum tchess_err e = pgn_game_to_game(pg, NULL, &g, &failed, &err);
	/* A file that plays on past where the rules end the game is shown
	 * whole, the end marked; its end line has the rules' verdict. */
	size_t ended = 0;
	bool on = e == TCHESS_ERR_GAME_OVER && pgn_game_rules_end(pg, NULL, &ended, NULL);
	if (on)
		e = TCHESS_OK;
	dump_plies(pg, on ? pg->n_moves : e == TCHESS_OK ? g.n_plies : failed - (failed > 0), on ? ended : SIZE_MAX,
		   status_name(&g), de);
	if (e != TCHESS_OK) {
		printf("error %zu:%zu %s\n", pg->line, pg->col, err.message);
		rc = 1;
	} else {
		printf("end %s %s", result_field(pg), status_name(&g));
		if (!game_is_over(&g)) {
			if (game_can_claim(&g, GAME_CLAIM_THREEFOLD, MOVE_NONE))
				printf(" claimable=threefold");
			if (game_can_claim(&g, GAME_CLAIM_FIFTY_MOVES, MOVE_NONE))
				printf(" claimable=fifty");
		}
		printf("\n");
	}
	game_fini(&g);
	return rc;
}

int cmd_review_plain(const char *path, const char *engine, int depth)
{
	size_t len;
	char *buf = read_file(path, &len);
	if (!buf) {
		fprintf(stderr, "tchess review: %s: %s\n", path, strerror(errno));
		return 2;
	}
	struct pgn_reader r;
	struct pgn_game pg;
	struct pgn_error perr;
	enum pgn_status st;
	int status = 0;
	size_t index = 0;
	struct dump_engine de = { 0 };
	if (depth > 0) {
		struct engine_limits lim = { .depth = depth, .multipv = 1 };
		char *err = NULL;
		de.re = review_engine_new(engine, &lim, &err);
		if (!de.re) {
			fprintf(stderr, "tchess review: %s\n", err);
			free(err);
			free(buf);
			return 2;
		}
	}
	pgn_reader_init(&r, buf, len);
	while ((st = pgn_read_game(&r, &pg, &perr)) != PGN_END) {
		index++;
		if (st == PGN_OK) {
			status |= dump_game(&pg, index, de.re ? &de : NULL);
		} else {
			/* The reader's message starts "game N, line L, column C: ". */
			const char *msg = strstr(perr.message, ": ");
			msg = msg && !strncmp(perr.message, "game ", 5) ? msg + 2 : perr.message;
			/* The moves read before the error are legal: show them. */
			printf("game %zu\n", index);
			/* A move after mate (a file the rules ended): marked. */
			struct game g;
			struct tchess_error gerr;
			bool over = pgn_game_to_game(&pg, NULL, &g, NULL, &gerr) == TCHESS_OK && game_is_over(&g);
			dump_plies(&pg, pg.n_moves, over ? pg.n_moves : SIZE_MAX, over ? status_name(&g) : NULL, NULL);
			game_fini(&g);
			printf("error %zu:%zu %s\n", perr.line, perr.col, msg);
			status = 1;
		}
		pgn_game_fini(&pg);
	}
	pgn_game_fini(&pg);
	review_engine_free(de.re);
	free(de.evals);
	free(de.best);
	free(buf);
	return status;
}
