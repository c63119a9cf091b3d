/*
 * PGN files for review: one pass lists every game (players, result,
 * length, or why it cannot be read); opening a game reads it again from
 * its offset, so only the game on screen is held in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "review-pgn.h"
#include "util/xalloc.h"

static void review_pgn_copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src && *src ? src : "?");
}

int review_pgn_init(struct review_pgn *rp, const char *buf, size_t len, char *err, size_t errsize)
{
	struct pgn_reader rd;
	struct pgn_game g;
	struct pgn_error e;
	enum pgn_status st;
	size_t cap = 0;

	memset(rp, 0, sizeof *rp);
	pgn_game_init(&rp->game);
	rp->buf = malloc(len + 1);
	if (!rp->buf) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	memcpy(rp->buf, buf, len);
	rp->buf[len] = '\0';
	rp->len = len;

	pgn_reader_init(&rd, rp->buf, rp->len);
	while ((st = pgn_read_game(&rd, &g, &e)) != PGN_END) {
		if (rp->n_games == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct review_entry *ne = realloc(rp->entries, ncap * sizeof *ne);
			if (ne)
				rp->entries = ne;
			size_t *no = ne ? realloc(rp->offsets, ncap * sizeof *no) : NULL;
			if (!ne || !no) {
				pgn_game_fini(&g);
				snprintf(err, errsize, "out of memory");
				review_pgn_fini(rp);
				return -1;
			}
			rp->offsets = no;
			cap = ncap;
		}
		struct review_entry *en = &rp->entries[rp->n_games];
		memset(en, 0, sizeof *en);
		review_pgn_copy(en->white, sizeof en->white, pgn_game_tag(&g, "White"));
		review_pgn_copy(en->black, sizeof en->black, pgn_game_tag(&g, "Black"));
		review_pgn_copy(en->event, sizeof en->event, pgn_game_tag(&g, "Event"));
		review_pgn_copy(en->date, sizeof en->date, pgn_game_tag(&g, "Date"));
		review_pgn_copy(en->result, sizeof en->result, g.result[0] ? g.result : pgn_game_tag(&g, "Result"));
		en->plies = g.n_moves;
		if (st == PGN_ERROR)
			snprintf(en->error, sizeof en->error, "%.150s", e.message);
		rp->offsets[rp->n_games] = g.offset;
		rp->n_games++;
		pgn_game_fini(&g);
	}
	pgn_game_fini(&g);
	return 0;
}

int review_pgn_open(struct review_pgn *rp, const char *path, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	memset(rp, 0, sizeof *rp);
	pgn_game_init(&rp->game);
	if (!f) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int rc = -1;
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap) {
			if (ferror(f)) {
				snprintf(err, errsize, "%s: %s", path, strerror(errno));
				goto out;
			}
			break;
		}
		if (cap >= REVIEW_PGN_FILE_MAX) {
			snprintf(err, errsize, "%s: larger than %u MB", path, REVIEW_PGN_FILE_MAX >> 20);
			goto out;
		}
		char *nb = realloc(buf, cap * 2);
		if (!nb)
			break;
		buf = nb;
		cap *= 2;
	}
	if (!buf) {
		snprintf(err, errsize, "out of memory");
		goto out;
	}
	rc = review_pgn_init(rp, buf, len, err, errsize);
	if (rc == 0) {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		snprintf(rp->name, sizeof rp->name, "%s", base);
	}
out:
	free(buf);
	fclose(f);
	return rc;
}

/* Frees the game's moves and side lines. */
static void review_pgn_free_moves(struct review_pgn *rp)
{
	for (size_t i = 0; i < rp->n_allocs; i++)
		free(rp->allocs[i]);
	free(rp->allocs);
	rp->allocs = NULL;
	rp->n_allocs = rp->cap_allocs = 0;
	free(rp->moves);
	rp->moves = NULL;
}

static void *review_pgn_alloc(struct review_pgn *rp, size_t n, size_t size)
{
	if (rp->n_allocs == rp->cap_allocs) {
		rp->cap_allocs = rp->cap_allocs ? rp->cap_allocs * 2 : 16;
		rp->allocs = xrealloc(rp->allocs, rp->cap_allocs * sizeof *rp->allocs);
	}
	return rp->allocs[rp->n_allocs++] = xcalloc(n ? n : 1, size);
}

/* Copies the PGN moves pm[0..n) into out, side lines and all. The
 * recursion is as deep as the reader lets side lines nest. */
static void review_pgn_copy_moves(struct review_pgn *rp, const struct pgn_move *pm, size_t n,
				  struct review_move *out)
{
	for (size_t i = 0; i < n; i++) {
		struct review_move *mv = &out[i];
		mv->m = pm[i].m;
		memcpy(mv->san, pm[i].san, SAN_MAX);
		mv->comment = pm[i].comment;
		mv->clock_ms = pm[i].clock_ms;
		memcpy(mv->nags, pm[i].nags, sizeof mv->nags);
		mv->n_nags = pm[i].n_nags;
		mv->eval = pm[i].eval;
		mv->n_variations = pm[i].n_variations;
		if (!pm[i].n_variations)
			continue;
		struct review_line *lines = review_pgn_alloc(rp, pm[i].n_variations, sizeof *lines);
		for (size_t k = 0; k < pm[i].n_variations; k++) {
			const struct pgn_line *pl = &pm[i].variations[k];
			struct review_move *moves = review_pgn_alloc(rp, pl->n_moves, sizeof *moves);
			review_pgn_copy_moves(rp, pl->moves, pl->n_moves, moves);
			lines[k].comment_start = pl->comment_start;
			lines[k].moves = moves;
			lines[k].n_moves = pl->n_moves;
		}
		mv->variations = lines;
	}
}

void review_pgn_fini(struct review_pgn *rp)
{
	pgn_game_fini(&rp->game);
	review_pgn_free_moves(rp);
	free(rp->entries);
	free(rp->offsets);
	free(rp->buf);
	memset(rp, 0, sizeof *rp);
}

int review_pgn_load(void *ctx, size_t index, struct review_game *out, char *err, size_t errsize)
{
	struct review_pgn *rp = ctx;
	struct pgn_reader rd;
	struct pgn_error e;

	if (index >= rp->n_games) {
		snprintf(err, errsize, "there is no game %zu (the file has %zu)", index + 1, rp->n_games);
		return -1;
	}
	pgn_game_fini(&rp->game);
	review_pgn_free_moves(rp);
	pgn_reader_init(&rd, rp->buf + rp->offsets[index], rp->len - rp->offsets[index]);
	/* A game whose moves stop at one that cannot be read is shown up to
	 * it, with why. */
	rp->read_error[0] = '\0';
	if (pgn_read_game(&rd, &rp->game, &e) != PGN_OK) {
		if (!rp->game.n_moves) {
			snprintf(err, errsize, "%.150s", e.message);
			return -1;
		}
		/* "game 3, line 41, column 7: why" as "why (line 41, column 7)". */
		const char *why = strstr(e.message, ": ");
		snprintf(rp->read_error, sizeof rp->read_error, "%.200s (line %zu, column %zu)",
			 why ? why + 2 : e.message, e.line, e.col);
	}
	struct pgn_game *g = &rp->game;
	rp->moves = calloc(g->n_moves ? g->n_moves : 1, sizeof *rp->moves);
	if (!rp->moves) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	review_pgn_copy_moves(rp, g->moves, g->n_moves, rp->moves);
	memset(out, 0, sizeof *out);
	out->start = g->start;
	out->n_moves = g->n_moves;
	out->moves = rp->moves;
	out->white = pgn_game_tag(g, "White");
	out->black = pgn_game_tag(g, "Black");
	out->event = pgn_game_tag(g, "Event");
	out->site = pgn_game_tag(g, "Site");
	out->date = pgn_game_tag(g, "Date");
	out->round = pgn_game_tag(g, "Round");
	out->result = g->result[0] ? g->result : pgn_game_tag(g, "Result");
	out->white_elo = pgn_game_tag(g, "WhiteElo");
	out->black_elo = pgn_game_tag(g, "BlackElo");
	out->eco = pgn_game_tag(g, "ECO");
	out->opening = pgn_game_tag(g, "Opening");
	/* The time control as players read it ("5+3", not the tag's
	 * "300+3"), by tchess's one formatter; a tag it cannot read as is. */
	struct time_control tc;
	out->time_control = pgn_game_tag(g, "TimeControl");
	if (pgn_game_time_control(g, &tc, NULL) == TCHESS_OK) {
		time_control_format(&tc, rp->time_control, sizeof rp->time_control);
		out->time_control = rp->time_control;
	}
	out->comment_start = g->comment_start;
	enum game_termination why = GAME_TERM_NONE;
	out->rules_ended = pgn_game_rules_end(g, NULL, &out->rules_end, &why);
	out->rules_end_why = game_termination_str(why);
	out->read_error = rp->read_error[0] ? rp->read_error : NULL;
	return 0;
}

/* Puts the player's line (at) into g: one more side line of the move it
 * replaces, or the moves appended to the line it continues. -1 with a
 * message when at does not fit g's tree or a move does not fit. */
static int review_pgn_add_line(struct pgn_game *g, const struct review_explore_at *at, char *err, size_t errsize)
{
	struct pgn_move *moves = g->moves;
	size_t n = g->n_moves;
	struct pgn_line *line = NULL;   /* NULL: the main line */
	for (int j = 0; j < at->depth; j++) {
		if (at->index[j] >= n || at->alt[j] >= moves[at->index[j]].n_variations) {
			snprintf(err, errsize, "your line is not in this game's tree");
			return -1;
		}
		line = &moves[at->index[j]].variations[at->alt[j]];
		moves = line->moves;
		n = line->n_moves;
	}
	if (at->at > n) {
		snprintf(err, errsize, "your line is not in this game's tree");
		return -1;
	}
	if (at->at < n)
		line = pgn_move_add_variation(&moves[at->at]);
	if (at->at < n && !line) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < at->line->n_moves; i++) {
		enum tchess_err e = line ? pgn_line_add_move(line, at->line->moves[i].m)
					 : pgn_game_add_move(g, at->line->moves[i].m);
		if (e != TCHESS_OK) {
			snprintf(err, errsize, "%s", tchess_strerror(e));
			return -1;
		}
	}
	return 0;
}

int review_pgn_export(struct review_pgn *rp, size_t index, const struct review_explore_at *at, struct pgn_buf *out,
		      char *err, size_t errsize)
{
	struct pgn_reader rd;
	struct pgn_error e;
	struct pgn_game g;
	struct tchess_error terr;
	int rc = -1;
	if (index >= rp->n_games) {
		snprintf(err, errsize, "there is no game %zu (the file has %zu)", index + 1, rp->n_games);
		return -1;
	}
	/* A fresh copy of the game, so the one on the screen is untouched. */
	pgn_reader_init(&rd, rp->buf + rp->offsets[index], rp->len - rp->offsets[index]);
	if (pgn_read_game(&rd, &g, &e) == PGN_ERROR && !g.n_moves) {
		snprintf(err, errsize, "%.150s", e.message);
		goto out;
	}
	if (at && review_pgn_add_line(&g, at, err, errsize) < 0)
		goto out;
	if (pgn_write_game(&g, out, &terr) != TCHESS_OK) {
		snprintf(err, errsize, "%.150s", terr.message);
		goto out;
	}
	rc = 0;
out:
	pgn_game_fini(&g);
	return rc;
}

int review_pgn_save(void *ctx, size_t index, const struct review_explore_at *at, char *msg, size_t msgsize)
{
	struct review_pgn *rp = ctx;
	char dir[1024], path[1400], tmp[1500], err[256];
	struct pgn_buf b;
	pgn_buf_init(&b);
	int rc = -1;
	if (review_pgn_export(rp, index, at, &b, err, sizeof err) < 0) {
		snprintf(msg, msgsize, "not saved: %.150s", err);
		goto out;
	}
	if (account_games_dir(dir, sizeof dir) < 0 || account_mkdirs(dir, err, sizeof err) < 0) {
		snprintf(msg, msgsize, "not saved: no games folder (%.120s)", dir[0] ? err : "no HOME");
		goto out;
	}
	/* The file's name without .pgn, and the game's number. */
	const char *name = rp->name[0] ? rp->name : "review";
	size_t stem = strlen(name);
	if (stem > 4 && !strcmp(name + stem - 4, ".pgn"))
		stem -= 4;
	snprintf(path, sizeof path, "%s/%.*s-%zu.pgn", dir, (int)stem, name, index + 1);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(msg, msgsize, "not saved: %.40s: %.100s", path, strerror(errno));
		if (f)
			remove(tmp);
		goto out;
	}
	snprintf(msg, msgsize, "saved%s to %.160s", at ? " with your line" : "", path);
	rc = 0;
out:
	pgn_buf_fini(&b);
	return rc;
}
