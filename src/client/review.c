/*
 * The review model: stepping through a game's lines (the main line, and
 * side lines entered and left), the game list, the jump prompt, and the
 * pane layout. Every change goes through
 * review_apply(), which says which panes to redraw, so the screen loop
 * draws only what changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "util/xalloc.h"
#include "review.h"
#include "text-wrap.h"
#include "tchess/eco.h"
#include "tchess/movegen.h"
#include "tchess/pgn.h"

#define REVIEW_DIRTY_GAME                                                                           \
	(REVIEW_DIRTY_BOARD | REVIEW_DIRTY_INFO | REVIEW_DIRTY_TAGS | REVIEW_DIRTY_MOVES |          \
	 REVIEW_DIRTY_COMMENT | REVIEW_DIRTY_STATUS)

void review_init(struct review *r, const char *file_name, const struct review_entry *entries, size_t n_entries,
		 review_load_fn load, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->screen = REVIEW_SCREEN_LIST;
	r->file_name = file_name;
	r->entries = entries;
	r->n_entries = n_entries;
	r->load = load;
	r->load_ctx = ctx;
	review_layout_compute(&r->layout, 80, 24);
}

void review_engine_clear(struct review *r)
{
	free(r->engine_evals);
	free(r->engine_best);
	r->engine_evals = NULL;
	r->engine_best = NULL;
	r->engine_done = r->engine_total = 0;
	r->shown_ok = false;
	r->engine_starting = false;
	r->engine_note[0] = '\0';
}

unsigned review_engine_set_starting(struct review *r, bool starting)
{
	if (starting == r->engine_starting)
		return 0;
	r->engine_starting = starting;
	snprintf(r->engine_note, sizeof r->engine_note, "%s",
		 !starting ? "" : r->ascii ? "starting the engine..." : "starting the engine\u2026");
	return REVIEW_DIRTY_INFO | REVIEW_DIRTY_COMMENT | REVIEW_DIRTY_STATUS;
}

unsigned review_engine_set_eval(struct review *r, size_t i, const struct pgn_eval *e, const char *best)
{
	if (!r->has_game || i > r->game.n_moves)
		return 0;
	if (!r->engine_evals) {
		r->engine_evals = xcalloc(r->game.n_moves + 1, sizeof *r->engine_evals);
		r->engine_best = xcalloc(r->game.n_moves + 1, sizeof *r->engine_best);
	}
	r->engine_evals[i] = *e;
	snprintf(r->engine_best[i], sizeof r->engine_best[i], "%s", best);
	return REVIEW_DIRTY_INFO | REVIEW_DIRTY_BOARD | REVIEW_DIRTY_COMMENT;
}

unsigned review_engine_set_shown(struct review *r, const char *fen, const struct engine_analysis *a)
{
	char now[FEN_MAX];
	if (!r->has_game)
		return 0;
	fen_write(&r->positions[r->ply], now);
	if (strcmp(now, fen))
		return 0;
	snprintf(r->shown_fen, sizeof r->shown_fen, "%s", fen);
	r->shown = *a;
	r->shown_ok = true;
	r->shown_eval.kind = a->n_lines ? (a->lines[0].mate ? PGN_EVAL_MATE : PGN_EVAL_CP) : PGN_EVAL_NONE;
	r->shown_eval.value = a->n_lines ? a->lines[0].score : 0;
	r->shown_eval.depth = (int16_t)(a->n_lines ? a->lines[0].depth : -1);
	return REVIEW_DIRTY_COMMENT | REVIEW_DIRTY_INFO | REVIEW_DIRTY_BOARD;
}

unsigned review_engine_set_progress(struct review *r, size_t done, size_t total, const char *note)
{
	if (done == r->engine_done && total == r->engine_total && !strcmp(note, r->engine_note))
		return 0;
	r->engine_done = done;
	r->engine_total = total;
	snprintf(r->engine_note, sizeof r->engine_note, "%s", note);
	return REVIEW_DIRTY_INFO | REVIEW_DIRTY_STATUS;
}

/* The lines of the engine for the position shown, when they are for it. */
static const struct engine_analysis *review_shown(const struct review *r)
{
	char now[FEN_MAX];
	if (!r->has_game || !r->shown_ok)
		return NULL;
	fen_write(&r->positions[r->ply], now);
	return strcmp(now, r->shown_fen) ? NULL : &r->shown;
}

int review_engine_lines(const struct review *r, int width, char lines[][160])
{
	const struct engine_analysis *a = review_shown(r);
	int n = 0;
	for (int k = 0; a && k < a->n_lines; k++) {
		const struct engine_line *l = &a->lines[k];
		struct pgn_eval e = { l->mate ? PGN_EVAL_MATE : PGN_EVAL_CP, l->score, -1 };
		char num[24];
		review_eval_text(&e, num, sizeof num);
		int len = snprintf(lines[n], 160, "%s", num);
		struct position p = r->positions[r->ply];
		for (int i = 0; i < l->n_pv && len < width; i++) {
			move m;
			struct tchess_error err;
			char san[SAN_MAX];
			if (uci_parse(&p, l->pv[i], strlen(l->pv[i]), &m, &err) != TCHESS_OK)
				break;
			san_write(&p, m, san);
			/* Move numbers before White's moves and the first. */
			char word[SAN_MAX + 16];
			if (p.side == WHITE)
				snprintf(word, sizeof word, " %d.%s", p.fullmove, san);
			else if (i == 0)
				snprintf(word, sizeof word, " %d...%s", p.fullmove, san);
			else
				snprintf(word, sizeof word, " %s", san);
			if (len + (int)strlen(word) > width)
				break;
			len += snprintf(lines[n] + len, (size_t)(160 - len), "%s", word);
			struct undo u;
			position_make(&p, m, &u);
		}
		n++;
	}
	return n;
}

void review_engine_advice(const struct review *r, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!r->has_game || r->ply == 0 || r->depth != 0 || !r->engine_evals || r->ply >= r->game.n_moves + 1)
		return;
	const struct pgn_eval *before = &r->engine_evals[r->ply - 1], *after = &r->engine_evals[r->ply];
	enum analysis_judgement j = analysis_judge(before, after, (enum color)r->positions[r->ply - 1].side);
	if (j == ANALYSIS_NONE)
		return;
	const char *name = analysis_judgement_name(j);
	char san[SAN_MAX] = "";
	move m;
	struct tchess_error err;
	const char *best = r->engine_best[r->ply - 1];
	if (best[0] && uci_parse(&r->positions[r->ply - 1], best, strlen(best), &m, &err) == TCHESS_OK)
		san_write(&r->positions[r->ply - 1], m, san);
	snprintf(buf, size, "%c%s.%s%s%s", name[0] - 'a' + 'A', name + 1, san[0] ? " " : "", san,
		 san[0] ? " was best." : "");
}

void review_fini(struct review *r)
{
	review_engine_clear(r);
	free(r->positions);
	free(r->line);
	free(r->explore.moves);
	memset(&r->explore, 0, sizeof r->explore);
	review_moves_fini(&r->ml);
	r->positions = NULL;
	r->line = NULL;
}

const struct review_move *review_move_at(const struct review *r, size_t i)
{
	return r->line[i];
}

/* The move list's top row, so that the current move shows. */
static void review_scroll_moves(struct review *r)
{
	int target = r->ply ? review_moves_row_of(&r->ml, r->line[r->ply - 1]) : 0;
	if (target < 0)
		target = 0;
	r->ml_top = movelist_scroll(r->ml_top, r->layout.moves_h, target, r->ml.n_rows);
}

static void review_relayout_moves(struct review *r)
{
	if (!r->has_game)
		return;
	/* The player's line, when one is followed. */
	struct review_moves_own own = { 0 }, *ownp = NULL;
	for (int k = 1; k <= r->depth; k++)
		if (r->frames[k].explored) {
			own.line = &r->explore.line;
			own.owner = r->frames[k].owner;
			own.ply = r->frames[k].base;
			ownp = &own;
		}
	review_moves_build(&r->ml, &r->game, ownp, r->layout.side_w, r->ascii);
	review_scroll_moves(r);
}

/* The side line frame f follows. */
static const struct review_line *review_frame_line(const struct review_frame *f, const struct review *r)
{
	return f->explored ? &r->explore.line : &f->owner->variations[f->alt];
}

/* Fills moves and positions with the line of frames[0..depth] of game g.
 * Returns the plies, or -1 with a message when the main line has a move
 * that is not legal where it stands (a side line is cut at one). */
static long review_build_line(const struct review *r, const struct review_game *g, const struct review_frame *frames,
			      int depth, const struct review_move ***moves_out, struct position **pos_out, char *msg,
			      size_t msgsize)
{
	size_t n = g->n_moves;
	for (int k = 1; k <= depth; k++) {
		size_t end = frames[k].base + review_frame_line(&frames[k], r)->n_moves;
		n = end > n ? end : n;
	}
	const struct review_move **moves = xcalloc(n + 1, sizeof *moves);
	struct position *pos = xcalloc(n + 1, sizeof *pos);
	size_t len = 0;
	for (size_t i = 0; i < g->n_moves; i++)
		moves[len++] = &g->moves[i];
	for (int k = 1; k <= depth; k++) {
		const struct review_line *l = review_frame_line(&frames[k], r);
		len = frames[k].base;
		for (size_t i = 0; i < l->n_moves; i++)
			moves[len++] = &l->moves[i];
	}
	pos[0] = g->start;
	for (size_t i = 0; i < len; i++) {
		struct undo u;
		pos[i + 1] = pos[i];
		move m = moves[i]->m;
		if (m == MOVE_NONE && !position_in_check(&pos[i])) {
			pgn_null_move(&pos[i + 1]);
		} else if (movegen_is_legal(&pos[i], m)) {
			position_make(&pos[i + 1], m, &u);
		} else if (depth == 0) {
			snprintf(msg, msgsize, "move %zu (%s) is not legal", i + 1, moves[i]->san);
			free(moves);
			free(pos);
			return -1;
		} else {
			len = i;
			break;
		}
	}
	*moves_out = moves;
	*pos_out = pos;
	return (long)len;
}

/* Follows the line of r->frames[0..depth]; the ply stays where it is when
 * the line is that long. */
static void review_follow(struct review *r, int depth, size_t ply)
{
	const struct review_move **moves;
	struct position *pos;
	char msg[sizeof r->message];
	long n = review_build_line(r, &r->game, r->frames, depth, &moves, &pos, msg, sizeof msg);
	if (n < 0)
		return;   /* the main line was checked when the game was set */
	free(r->line);
	free(r->positions);
	r->line = moves;
	r->positions = pos;
	r->n_line = (size_t)n;
	r->depth = depth;
	r->ply = ply > r->n_line ? r->n_line : ply;
	review_relayout_moves(r);
}

int review_set_game(struct review *r, const struct review_game *g)
{
	const struct review_move **moves;
	struct position *pos;
	long n = review_build_line(r, g, r->frames, 0, &moves, &pos, r->message, sizeof r->message);
	if (n < 0)
		return -1;
	free(r->line);
	free(r->positions);
	r->line = moves;
	r->positions = pos;
	r->n_line = (size_t)n;
	r->depth = 0;
	review_engine_clear(r);
	r->explore.n = 0;
	r->explore.depth = 0;
	r->explore.line.n_moves = 0;
	r->game = *g;
	r->has_game = true;
	r->ply = 0;
	r->ml_top = 0;
	r->screen = REVIEW_SCREEN_GAME;
	r->message[0] = '\0';
	review_relayout_moves(r);
	return 0;
}

/* The side line followed now replaced by the next alternative to the
 * same move (after the last, the first again), at its first move. */
static unsigned review_line_next(struct review *r)
{
	if (!r->has_game)
		return 0;
	struct review_frame *top = &r->frames[r->depth];
	if (r->depth == 0 || top->explored) {
		snprintf(r->message, sizeof r->message, "%s",
			 r->depth ? "your own line has no alternatives" : "not in a side line (v enters one)");
		return REVIEW_DIRTY_STATUS;
	}
	top->alt = (top->alt + 1) % top->owner->n_variations;
	review_follow(r, r->depth, top->base + 1);
	return REVIEW_DIRTY_GAME;
}

/* Into the first side line of the next move, at its first move. Returns
 * the dirty bits, or a message when there is none. */
static unsigned review_line_enter(struct review *r)
{
	if (!r->has_game)
		return 0;
	if (r->ply >= r->n_line || r->line[r->ply]->n_variations == 0) {
		snprintf(r->message, sizeof r->message, "no side line at the next move");
		return REVIEW_DIRTY_STATUS;
	}
	if (r->depth + 1 >= REVIEW_DEPTH_MAX)
		return 0;
	struct review_frame *f = &r->frames[r->depth + 1];
	memset(f, 0, sizeof *f);
	f->owner = r->line[r->ply];
	f->alt = 0;
	f->base = r->ply;
	review_follow(r, r->depth + 1, r->ply + 1);
	return REVIEW_DIRTY_GAME;
}

static unsigned review_goto(struct review *r, long ply);

/* Drops the frames from depth on that follow the player's line. */
static void review_explore_drop(struct review *r)
{
	for (int k = 1; k <= r->depth; k++)
		if (r->frames[k].explored) {
			review_follow(r, k - 1, r->frames[k].base);
			return;
		}
}

unsigned review_play(struct review *r, const char *text)
{
	if (!r->has_game)
		return 0;
	const struct position *p = &r->positions[r->ply];
	struct tchess_error err;
	move m;
	size_t len = strlen(text);
	while (len && text[len - 1] == ' ')
		len--;
	if (san_parse(p, text, len, &m, &err) != TCHESS_OK && uci_parse(p, text, len, &m, &err) != TCHESS_OK) {
		snprintf(r->message, sizeof r->message, "%.16s: %.160s", text, err.message);
		return REVIEW_DIRTY_STATUS;
	}
	/* The game's own next move, or a side line it already has. */
	if (r->ply < r->n_line) {
		const struct review_move *next = r->line[r->ply];
		if (next->m == m)
			return review_goto(r, (long)r->ply + 1);
		for (size_t k = 0; k < next->n_variations; k++) {
			const struct review_line *l = &next->variations[k];
			if (l->n_moves && l->moves[0].m == m && r->depth + 1 < REVIEW_DEPTH_MAX) {
				struct review_frame *f = &r->frames[r->depth + 1];
				memset(f, 0, sizeof *f);
				f->owner = next;
				f->alt = k;
				f->base = r->ply;
				review_follow(r, r->depth + 1, r->ply + 1);
				return REVIEW_DIRTY_GAME;
			}
		}
	}
	struct review_explore *x = &r->explore;
	struct review_move mv;
	memset(&mv, 0, sizeof mv);
	mv.m = m;
	mv.clock_ms = -1;
	san_write(p, m, mv.san);
	const struct review_frame *top = &r->frames[r->depth];
	if (r->depth > 0 && top->explored) {
		/* On in the player's line: its moves after the shown one go. */
		x->n = r->ply - top->base;
	} else {
		/* A new line of the player's, replacing the one before. */
		if (r->depth + 1 >= REVIEW_DEPTH_MAX)
			return 0;
		size_t ply = r->ply;
		review_explore_drop(r);
		r->ply = ply;
		struct review_frame *f = &r->frames[r->depth + 1];
		memset(f, 0, sizeof *f);
		f->owner = ply < r->n_line ? r->line[ply] : NULL;
		f->base = ply;
		f->explored = true;
		x->n = 0;
		r->depth++;
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->moves = xrealloc(x->moves, x->cap * sizeof *x->moves);
	}
	x->moves[x->n++] = mv;
	x->line.moves = x->moves;
	x->line.n_moves = x->n;
	x->line.comment_start = NULL;
	memcpy(x->frames, r->frames, (size_t)(r->depth + 1) * sizeof *x->frames);
	x->depth = r->depth;
	review_follow(r, r->depth, r->ply + 1);
	return REVIEW_DIRTY_GAME;
}

bool review_explore_where(const struct review *r, struct review_explore_at *out)
{
	const struct review_explore *x = &r->explore;
	if (!r->has_game || x->n == 0 || x->depth < 1)
		return false;
	memset(out, 0, sizeof *out);
	size_t start = 0;   /* the ply the line of the level stands at */
	for (int j = 1; j < x->depth; j++) {
		out->index[j - 1] = x->frames[j].base - start;
		out->alt[j - 1] = x->frames[j].alt;
		start = x->frames[j].base;
	}
	out->depth = x->depth - 1;
	out->at = x->frames[x->depth].base - start;
	out->line = &x->line;
	return true;
}

/* Back to the line the side line branched from, at the position before
 * the move it replaces. */
static unsigned review_line_leave(struct review *r)
{
	if (!r->has_game || r->depth == 0)
		return 0;
	size_t base = r->frames[r->depth].base;
	review_follow(r, r->depth - 1, base);
	return REVIEW_DIRTY_GAME;
}

static struct review_cmd review_cmd(enum review_cmd_kind kind, long arg)
{
	struct review_cmd c = { kind, arg, 0 };
	return c;
}

struct review_cmd review_key(const struct review *r, int key)
{
	if (key == 'q' && !r->prompt)
		return review_cmd(REVIEW_CMD_QUIT, 0);
	if (key == KEYS_CTRL_L)
		return review_cmd(REVIEW_CMD_REDRAW, 0);
	if (r->prompt) {
		if ((key >= '0' && key <= '9') ||
		    (r->prompt_move && key > ' ' && key < 127 && strchr("abcdefghKQRBNOxo=+#-", key)))
			return review_cmd(REVIEW_CMD_PROMPT_INPUT, key);
		if (key == KEYS_BACKSPACE || key == '\b')
			return review_cmd(REVIEW_CMD_PROMPT_ERASE, 0);
		if (key == KEYS_ENTER || key == '\r')
			return review_cmd(REVIEW_CMD_PROMPT_SUBMIT, 0);
		if (key == KEYS_ESC)
			return review_cmd(REVIEW_CMD_PROMPT_CANCEL, 0);
		return review_cmd(REVIEW_CMD_NONE, 0);
	}
	if (r->help) {
		/* Any key closes help; it does nothing else. */
		if (key == KEYS_RESIZE || key == KEYS_MOUSE)
			return review_cmd(REVIEW_CMD_NONE, 0);
		return review_cmd(REVIEW_CMD_HELP, 0);
	}
	if (key == '?')
		return review_cmd(REVIEW_CMD_HELP, 0);

	if (r->screen == REVIEW_SCREEN_LIST) {
		switch (key) {
		case KEYS_UP:
		case 'k':
			return review_cmd(REVIEW_CMD_LIST_MOVE, -1);
		case KEYS_DOWN:
		case 'j':
			return review_cmd(REVIEW_CMD_LIST_MOVE, 1);
		case KEYS_PGUP:
			return review_cmd(REVIEW_CMD_LIST_MOVE, -(long)(r->layout.h > 4 ? r->layout.h - 4 : 1));
		case KEYS_PGDN:
			return review_cmd(REVIEW_CMD_LIST_MOVE, r->layout.h > 4 ? r->layout.h - 4 : 1);
		case KEYS_HOME:
		case 'g':
			return review_cmd(REVIEW_CMD_LIST_MOVE, -(long)r->n_entries);
		case KEYS_END:
		case 'G':
			return review_cmd(REVIEW_CMD_LIST_MOVE, (long)r->n_entries);
		case KEYS_ENTER:
		case '\r':
		case ' ':
		case KEYS_RIGHT:
		case 'l':
			return review_cmd(REVIEW_CMD_LIST_OPEN, 0);
		default:
			return review_cmd(REVIEW_CMD_NONE, 0);
		}
	}

	switch (key) {
	case KEYS_LEFT:
	case 'h':
		return review_cmd(REVIEW_CMD_STEP, -1);
	case KEYS_RIGHT:
	case 'l':
	case ' ':
		return review_cmd(REVIEW_CMD_STEP, 1);
	case KEYS_UP:
	case 'k':
		return review_cmd(REVIEW_CMD_STEP, -2);
	case KEYS_DOWN:
	case 'j':
		return review_cmd(REVIEW_CMD_STEP, 2);
	case KEYS_HOME:
	case 'g':
		return review_cmd(REVIEW_CMD_FIRST, 0);
	case KEYS_END:
	case 'G':
		return review_cmd(REVIEW_CMD_LAST, 0);
	case KEYS_PGUP:
		return review_cmd(REVIEW_CMD_PAGE, -1);
	case KEYS_PGDN:
		return review_cmd(REVIEW_CMD_PAGE, 1);
	case 'f':
		return review_cmd(REVIEW_CMD_FLIP, 0);
	case ':':
		return review_cmd(REVIEW_CMD_PROMPT_OPEN, 0);
	case 'v':
		return review_cmd(REVIEW_CMD_LINE_ENTER, 0);
	case 'n':
		return review_cmd(REVIEW_CMD_LINE_NEXT, 0);
	case 'a':
		return review_cmd(REVIEW_CMD_ENGINE, 0);
	case 'm':
		return review_cmd(REVIEW_CMD_MOVE_OPEN, 0);
	case 's':
		return review_cmd(REVIEW_CMD_SAVE, 0);
	case 'u':
		return review_cmd(REVIEW_CMD_LINE_LEAVE, 0);
	case KEYS_ESC:
		/* Out of a side line first, then back to the list. */
		if (r->depth > 0)
			return review_cmd(REVIEW_CMD_LINE_LEAVE, 0);
		return review_cmd(r->n_entries > 1 ? REVIEW_CMD_LIST_BACK : REVIEW_CMD_NONE, 0);
	case KEYS_BACKSPACE:
	case '\b':
	case '<':
		return review_cmd(r->n_entries > 1 ? REVIEW_CMD_LIST_BACK : REVIEW_CMD_NONE, 0);
	default:
		return review_cmd(REVIEW_CMD_NONE, 0);
	}
}

static unsigned review_goto(struct review *r, long ply)
{
	if (!r->has_game)
		return 0;
	long n = (long)r->n_line;
	if (ply < 0)
		ply = 0;
	if (ply > n)
		ply = n;
	if ((size_t)ply == r->ply)
		return 0;
	r->ply = (size_t)ply;
	review_scroll_moves(r);
	return REVIEW_DIRTY_GAME;
}

static unsigned review_open_selected(struct review *r)
{
	struct review_game g;
	char err[160];
	if (r->n_entries == 0)
		return 0;
	size_t i = r->list_sel;
	/* A game read up to a bad move is shown up to it; one with no move
	 * read has nothing to show. */
	if (r->entries[i].error[0] && r->entries[i].plies == 0) {
		snprintf(r->message, sizeof r->message, "game %zu cannot be shown: %s", i + 1, r->entries[i].error);
		return REVIEW_DIRTY_STATUS;
	}
	if (!r->load || r->load(r->load_ctx, i, &g, err, sizeof err) < 0) {
		snprintf(r->message, sizeof r->message, "game %zu: %s", i + 1, r->load ? err : "no loader");
		return REVIEW_DIRTY_STATUS;
	}
	if (review_set_game(r, &g) < 0)
		return REVIEW_DIRTY_STATUS;
	r->game_index = i;
	if (g.read_error)
		snprintf(r->message, sizeof r->message, "game %zu is shown up to ply %zu: %.150s", i + 1, g.n_moves,
			 g.read_error);
	return REVIEW_DIRTY_ALL;
}

unsigned review_apply(struct review *r, const struct review_cmd *c)
{
	unsigned dirty = 0;
	/* A message stays until the next command. */
	if (r->message[0] && c->kind != REVIEW_CMD_NONE) {
		r->message[0] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
	}
	switch (c->kind) {
	case REVIEW_CMD_NONE:
		break;
	case REVIEW_CMD_QUIT:
		r->quit = true;
		break;
	case REVIEW_CMD_STEP:
		dirty |= review_goto(r, (long)r->ply + c->arg);
		break;
	case REVIEW_CMD_FIRST:
		dirty |= review_goto(r, 0);
		break;
	case REVIEW_CMD_LAST:
		dirty |= review_goto(r, r->has_game ? (long)r->n_line : 0);
		break;
	case REVIEW_CMD_GOTO:
		if (r->has_game && (c->arg < 0 || (size_t)c->arg > r->n_line)) {
			snprintf(r->message, sizeof r->message, "no ply %ld: this %s has plies 0 to %zu", c->arg,
				 r->depth ? "line" : "game", r->n_line);
			dirty |= REVIEW_DIRTY_STATUS;
			break;
		}
		dirty |= review_goto(r, c->arg);
		break;
	case REVIEW_CMD_PAGE: {
		int page = r->layout.moves_h > 1 ? r->layout.moves_h - 1 : 1;
		dirty |= review_goto(r, (long)r->ply + c->arg * 2 * page);
		break;
	}
	case REVIEW_CMD_FLIP:
		r->flipped = !r->flipped;
		/* The names follow the pieces. */
		dirty |= REVIEW_DIRTY_BOARD | REVIEW_DIRTY_TAGS | REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_HELP:
		r->help = !r->help;
		dirty |= r->help ? REVIEW_DIRTY_HELP : REVIEW_DIRTY_ALL;
		break;
	case REVIEW_CMD_PROMPT_OPEN:
	case REVIEW_CMD_MOVE_OPEN:
		r->prompt = true;
		r->prompt_move = c->kind == REVIEW_CMD_MOVE_OPEN;
		r->prompt_text[0] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_PROMPT_INPUT: {
		size_t n = strlen(r->prompt_text);
		if (n + 1 < sizeof r->prompt_text && n < (r->prompt_move ? 10u : 6u)) {
			r->prompt_text[n] = (char)c->arg;
			r->prompt_text[n + 1] = '\0';
		}
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_PROMPT_ERASE: {
		size_t n = strlen(r->prompt_text);
		if (n)
			r->prompt_text[n - 1] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_PROMPT_SUBMIT: {
		r->prompt = false;
		dirty |= REVIEW_DIRTY_STATUS;
		if (r->prompt_text[0] && r->prompt_move) {
			dirty |= review_play(r, r->prompt_text);
		} else if (r->prompt_text[0]) {
			struct review_cmd g = { REVIEW_CMD_GOTO, strtol(r->prompt_text, NULL, 10), 0 };
			dirty |= review_apply(r, &g);
		}
		break;
	}
	case REVIEW_CMD_PROMPT_CANCEL:
		r->prompt = false;
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_LIST_MOVE: {
		if (r->n_entries == 0)
			break;
		long sel = (long)r->list_sel + c->arg;
		if (sel < 0)
			sel = 0;
		if (sel >= (long)r->n_entries)
			sel = (long)r->n_entries - 1;
		r->list_sel = (size_t)sel;
		r->list_top = movelist_scroll(r->list_top, r->layout.h - 3, (int)sel, (int)r->n_entries);
		dirty |= REVIEW_DIRTY_LIST | REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_LIST_OPEN:
		dirty |= review_open_selected(r);
		break;
	case REVIEW_CMD_LIST_BACK:
		if (r->n_entries > 1) {
			r->screen = REVIEW_SCREEN_LIST;
			dirty |= REVIEW_DIRTY_ALL;
		}
		break;
	case REVIEW_CMD_RESIZE:
		review_layout_compute(&r->layout, (int)c->arg, (int)c->arg2);
		review_relayout_moves(r);
		r->list_top = movelist_scroll(r->list_top, r->layout.h - 3, (int)r->list_sel, (int)r->n_entries);
		dirty |= REVIEW_DIRTY_ALL;
		break;
	case REVIEW_CMD_REDRAW:
		dirty |= REVIEW_DIRTY_ALL;
		break;
	case REVIEW_CMD_LINE_ENTER:
		dirty |= review_line_enter(r);
		break;
	case REVIEW_CMD_ENGINE:
		r->engine_on = !r->engine_on;
		if (!r->engine_on)
			review_engine_clear(r);
		dirty |= REVIEW_DIRTY_GAME;
		break;
	case REVIEW_CMD_LINE_NEXT:
		dirty |= review_line_next(r);
		break;
	case REVIEW_CMD_SAVE: {
		struct review_explore_at at;
		bool own = review_explore_where(r, &at);
		if (!r->has_game)
			break;
		if (!r->save)
			snprintf(r->message, sizeof r->message, "saving is not possible here");
		else
			r->save(r->save_ctx, r->game_index, own ? &at : NULL, r->message, sizeof r->message);
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_LINE_LEAVE:
		dirty |= review_line_leave(r);
		break;
	}
	return dirty;
}

void review_layout_compute(struct review_layout *l, int w, int h)
{
	memset(l, 0, sizeof *l);
	l->w = w;
	l->h = h;
	l->status_y = h - 1;
	if (w < REVIEW_MIN_WIDTH || h < REVIEW_MIN_HEIGHT) {
		l->too_small = true;
		return;
	}
	/* The board takes what the side column (at least 24 wide), the
	 * evaluation bar's column with a blank either side and the status
	 * line leave; the rest of the left column is the info pane. */
	int bar = 2;
	if (board_view_geometry(w - 25 - bar, h - 1, &l->board) < 0) {
		/* The narrowest screens do without the bar. */
		bar = 0;
		if (board_view_geometry(w - 25, h - 1, &l->board) < 0) {
			l->too_small = true;
			return;
		}
	}
	l->info_y = l->board.height;
	l->info_h = h - 1 - l->board.height;
	/* Three text rows, then the graph (at most 8 rows) and its markers. */
	l->graph_h = l->info_h - 4;
	l->graph_h = l->graph_h > 8 ? 8 : l->graph_h < 0 ? 0 : l->graph_h;
	l->graph_y = 3;
	l->bar_x = l->board.width + 1;
	l->bar_y = l->board.board_y;
	l->bar_h = bar ? 8 * l->board.sq_h : 0;
	l->side_x = l->board.width + 1 + bar;
	l->side_w = w - l->side_x;
	l->tags_y = 0;
	l->tags_h = 4;
	l->comment_h = (h - 1) / 4;
	if (l->comment_h < 3)
		l->comment_h = 3;
	if (l->comment_h > 7)
		l->comment_h = 7;
	l->moves_y = l->tags_h + 1;
	l->moves_h = h - 1 - l->moves_y - l->comment_h;
	l->comment_y = l->moves_y + l->moves_h;
}

void review_board_view(const struct review *r, struct board_view *v)
{
	board_view_init(v);
	v->flipped = r->flipped;
	v->ascii = r->ascii;
	if (!r->has_game)
		return;
	board_view_set(v, &r->positions[r->ply], r->ply ? r->line[r->ply - 1]->m : MOVE_NONE);
}

int64_t review_clock_of(const struct review *r, enum color c)
{
	if (!r->has_game)
		return -1;
	for (size_t i = r->ply; i > 0; i--)
		if (r->positions[i - 1].side == c && r->line[i - 1]->clock_ms >= 0)
			return r->line[i - 1]->clock_ms;
	return -1;
}

const struct pgn_eval *review_eval_at(const struct review *r, size_t ply)
{
	if (!r->has_game || ply > r->n_line)
		return NULL;
	/* The engine's, on the main line, once it has analysed the position. */
	if (r->engine_on && r->depth == 0 && r->engine_evals && r->engine_evals[ply].kind != PGN_EVAL_NONE)
		return &r->engine_evals[ply];
	if (r->engine_on && r->depth > 0) {
		/* In a side line, the shown position's best line. */
		const struct engine_analysis *a = ply == r->ply ? review_shown(r) : NULL;
		if (a && a->n_lines)
			return &r->shown_eval;
	}
	if (ply == 0 || r->line[ply - 1]->eval.kind == PGN_EVAL_NONE)
		return NULL;
	return &r->line[ply - 1]->eval;
}

bool review_has_evals(const struct review *r)
{
	for (size_t i = 1; r->has_game && i <= r->n_line; i++)
		if (review_eval_at(r, i))
			return true;
	return false;
}

enum analysis_judgement review_judgement_at(const struct review *r, size_t ply)
{
	if (!r->has_game || ply == 0 || ply > r->n_line)
		return ANALYSIS_NONE;
	const struct pgn_eval *before = review_eval_at(r, ply - 1), *after = review_eval_at(r, ply);
	if (before && after)
		return analysis_judge(before, after, (enum color)r->positions[ply - 1].side);
	const struct review_move *mv = r->line[ply - 1];
	enum analysis_judgement j = ANALYSIS_NONE;
	for (int k = 0; k < mv->n_nags; k++) {
		if (mv->nags[k] == 4)
			j = ANALYSIS_BLUNDER;
		else if (mv->nags[k] == 2 && j < ANALYSIS_MISTAKE)
			j = ANALYSIS_MISTAKE;
		else if (mv->nags[k] == 6 && j < ANALYSIS_INACCURACY)
			j = ANALYSIS_INACCURACY;
	}
	return j;
}

void review_eval_text(const struct pgn_eval *e, char *buf, size_t size)
{
	if (e->kind == PGN_EVAL_MATE)
		snprintf(buf, size, "#%d", (int)e->value);
	else if (e->value == 0)
		snprintf(buf, size, "0.00");
	else
		snprintf(buf, size, "%c%d.%02d", e->value > 0 ? '+' : '-', abs((int)e->value) / 100,
			 abs((int)e->value) % 100);
}

enum color review_header_color(const struct review *r, int row)
{
	enum color top = r->flipped ? WHITE : BLACK;
	return row == 0 ? top : (enum color)!top;
}

/* A tag's value worth showing: not NULL, "" or "?"/"-". */
static bool review_tag_known(const char *v)
{
	return v && *v && strcmp(v, "?") && strcmp(v, "-");
}

void review_player_text(const struct review *r, enum color c, char *buf, size_t size)
{
	const char *name = c == WHITE ? r->game.white : r->game.black;
	const char *elo = c == WHITE ? r->game.white_elo : r->game.black_elo;
	if (!review_tag_known(name))
		name = "?";
	if (review_tag_known(elo))
		snprintf(buf, size, "%s (%s)", name, elo);
	else
		snprintf(buf, size, "%s", name);
}

void review_opening_text(const struct review *r, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!r->has_game)
		return;
	bool eco = review_tag_known(r->game.eco), name = review_tag_known(r->game.opening);
	if (eco || name) {
		snprintf(buf, size, "%s%s%s", eco ? r->game.eco : "", eco && name ? " " : "",
			 name ? r->game.opening : "");
		return;
	}
	for (size_t i = r->ply + 1; i > 0; i--) {
		const struct eco_entry *e = eco_lookup(&r->positions[i - 1]);
		if (e) {
			snprintf(buf, size, "%s %s", e->code, e->name);
			return;
		}
	}
}

const char *review_comment(const struct review *r)
{
	if (!r->has_game)
		return NULL;
	return r->ply ? r->line[r->ply - 1]->comment : r->game.comment_start;
}

void review_rules_end_text(const struct review *r, char *buf, size_t size)
{
	size_t end = r->game.rules_end;
	buf[0] = '\0';
	if (!r->has_game || !r->game.rules_ended || r->depth != 0 || r->ply < end)
		return;
	const struct position *p = &r->positions[end];
	int num = p->side == WHITE ? p->fullmove - 1 : p->fullmove;
	if (r->ply == end)
		snprintf(buf, size, "our rules end the game here (%s); the file plays on", r->game.rules_end_why);
	else if (end == 0)
		snprintf(buf, size, "played on after our rules ended the game at the start (%s)", r->game.rules_end_why);
	else
		snprintf(buf, size, "played on after our rules ended the game at move %d (%s)", num,
			 r->game.rules_end_why);
}

void review_read_error_text(const struct review *r, char *buf, size_t size)
{
	buf[0] = '\0';
	if (r->has_game && r->game.read_error && r->depth == 0 && r->ply == r->game.n_moves)
		snprintf(buf, size, "not read: %s; the rest of the game is not shown", r->game.read_error);
}

const char *review_line_comment(const struct review *r)
{
	if (!r->has_game || r->depth == 0 || r->ply != r->frames[r->depth].base + 1)
		return NULL;
	return review_frame_line(&r->frames[r->depth], r)->comment_start;
}

void review_line_text(const struct review *r, char *buf, size_t size)
{
	if (!r->has_game || r->depth == 0) {
		snprintf(buf, size, "main line");
		return;
	}
	const struct review_frame *f = &r->frames[r->depth];
	const struct position *before = &r->positions[f->base];
	char san[REVIEW_SAN_TEXT_MAX], depth[24] = "";
	if (f->explored) {
		if (f->owner) {
			review_san_text(f->owner, r->ascii, san, sizeof san);
			snprintf(buf, size, "your line, in place of %d.%s%s", before->fullmove,
				 before->side == WHITE ? "" : "..", san);
		} else {
			snprintf(buf, size, "your line, after the end of the line");
		}
		return;
	}
	review_san_text(f->owner, r->ascii, san, sizeof san);
	if (r->depth > 1)
		snprintf(depth, sizeof depth, " (depth %d)", r->depth);
	snprintf(buf, size, "side line %zu/%zu of %d.%s%s%s", f->alt + 1, f->owner->n_variations, before->fullmove,
		 before->side == WHITE ? "" : "..", san, depth);
}

bool review_nag_is_mark(int nag)
{
	return nag >= 1 && nag <= 6;
}

/* What the NAGs of the standard (section 10) and the common extensions
 * say, for the comment pane. */
static const struct {
	uint8_t nag;
	const char *meaning;
} review_nag_meanings[] = {
	{ 1, "good move" }, { 2, "mistake" }, { 3, "brilliant move" }, { 4, "blunder" },
	{ 5, "interesting move" }, { 6, "dubious move" }, { 7, "forced move" }, { 10, "equal position" },
	{ 13, "unclear position" }, { 14, "White is slightly better" }, { 15, "Black is slightly better" },
	{ 16, "White is clearly better" }, { 17, "Black is clearly better" }, { 18, "White is winning" },
	{ 19, "Black is winning" }, { 20, "White is crushing" }, { 21, "Black is crushing" },
	{ 22, "zugzwang" }, { 23, "zugzwang" }, { 32, "development advantage" }, { 33, "development advantage" },
	{ 36, "initiative" }, { 37, "initiative" }, { 40, "attack" }, { 41, "attack" },
	{ 44, "compensation" }, { 132, "counterplay" }, { 133, "counterplay" }, { 138, "time trouble" },
	{ 139, "time trouble" }, { 145, "editorial comment" }, { 146, "novelty" },
};

void review_nag_text(const struct review_move *mv, bool ascii, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < mv->n_nags; k++) {
		int nag = mv->nags[k];
		if (review_nag_is_mark(nag))
			continue;
		const char *glyph = pgn_nag_glyph(nag, ascii), *meaning = NULL;
		for (size_t i = 0; i < sizeof review_nag_meanings / sizeof review_nag_meanings[0]; i++)
			if (review_nag_meanings[i].nag == nag)
				meaning = review_nag_meanings[i].meaning;
		char g[16];
		if (!glyph) {
			snprintf(g, sizeof g, "$%d", nag);
			glyph = g;
		}
		int n = snprintf(buf + len, size - len, "%s%s%s%s", len ? "; " : "", glyph, meaning ? " " : "",
				 meaning ? meaning : "");
		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
}

void review_san_text(const struct review_move *mv, bool ascii, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s", mv->san);
	for (int k = 0; k < mv->n_nags && len < size; k++) {
		const char *glyph = review_nag_is_mark(mv->nags[k]) ? pgn_nag_glyph(mv->nags[k], ascii) : NULL;
		if (glyph) {
			int n = snprintf(buf + len, size - len, "%s", glyph);
			if (n < 0 || (size_t)n >= size - len)
				break;
			len += (size_t)n;
		}
	}
}

int review_event_text(const char *event, const char *date, const char *result, int width, bool ascii, char *buf,
		      size_t size)
{
	char tail[64], fitted[256];
	const char *dots = ascii ? "..." : "\u2026";
	if (!event)
		event = "";
	/* An unknown date ("?", "????.??.??") says nothing: no room for it. */
	if (date && !date[strspn(date, "?.")])
		date = NULL;
	for (int with_date = date && *date; with_date >= 0; with_date--) {
		snprintf(tail, sizeof tail, "%s%s%s%s", with_date ? ", " : "", with_date ? date : "",
			 result ? "  " : "", result ? result : "");
		int room = width - text_wrap_cols(tail);
		/* The date goes before the event shrinks to a stub; with no
		 * date left, the event takes what room there is. */
		if (with_date && room < REVIEW_EVENT_MIN && text_wrap_cols(event) > room)
			continue;
		text_wrap_fit(event, room, dots, fitted, sizeof fitted);
		snprintf(buf, size, "%s%s", fitted, tail);
		return text_wrap_cols(buf);
	}
	return 0;
}

size_t review_wrap(const char *text, int width, size_t *next)
{
	size_t i = 0, last_blank = 0, cols = 0;
	bool have_blank = false;
	if (width < 1)
		width = 1;
	while (text[i] && text[i] != '\n') {
		if ((text[i] & 0xC0) != 0x80) {
			if ((int)cols == width)
				break;
			cols++;
		}
		if (text[i] == ' ') {
			last_blank = i;
			have_blank = true;
		}
		i++;
	}
	size_t len = i, start = i;
	if (text[i] == '\n') {
		start = i + 1;
	} else if (text[i] == ' ') {
		start = i + 1;
	} else if (text[i] && have_blank && last_blank > 0) {
		len = last_blank;
		start = last_blank + 1;
	}
	/* Skip the blanks that would begin the next line. */
	while (text[start] == ' ')
		start++;
	*next = start;
	return len;
}
