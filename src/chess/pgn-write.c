/*
 * The PGN writer: one game in export format (tchess/pgn.h) appended to a
 * growing buffer, lines shorter than 80 columns, SAN recomputed from the
 * moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn-internal.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"

void pgn_buf_init(struct pgn_buf *b)
{
	memset(b, 0, sizeof *b);
}

void pgn_buf_fini(struct pgn_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

struct writer {
	struct pgn_buf *out;
	size_t col;
	bool oom;
	bool open_paren;     /* a '(' waits to be glued to the next word */
};

static void w_put(struct writer *w, const char *s, size_t n)
{
	struct pgn_buf *b = w->out;
	if (w->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->data, cap);
		if (!p) {
			w->oom = true;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void w_str(struct writer *w, const char *s)
{
	w_put(w, s, strlen(s));
}

/* Movetext line limit: fewer than 80 printing characters. */
#define PGN_LINE_MAX 79

/* Writes one movetext word, breaking the line before it if it would not
 * fit; a waiting '(' goes just before it. */
static void w_word(struct writer *w, const char *s, size_t n)
{
	size_t len = n + w->open_paren;
	if (w->col > 0 && w->col + 1 + len > PGN_LINE_MAX) {
		w_put(w, "\n", 1);
		w->col = 0;
		/* '%' in the first column would make the line an escape line. */
		if (!w->open_paren && n && s[0] == '%') {
			w_put(w, " ", 1);
			w->col++;
		}
	} else if (w->col > 0) {
		w_put(w, " ", 1);
		w->col++;
	}
	if (w->open_paren)
		w_put(w, "(", 1);
	w->open_paren = false;
	w_put(w, s, n);
	w->col += len;
}

/* Ends a variation: ')' glued to the last word. */
static void w_close_paren(struct writer *w)
{
	if (w->col + 1 > PGN_LINE_MAX) {
		w_put(w, "\n", 1);
		w->col = 0;
	}
	w_put(w, ")", 1);
	w->col++;
}

static void w_tag(struct writer *w, const char *name, const char *value)
{
	w_str(w, "[");
	w_str(w, name);
	w_str(w, " \"");
	for (const char *p = value; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch == '"' || ch == '\\')
			w_put(w, "\\", 1);
		if (ch < ' ' || ch == 0x7F)
			ch = ' ';
		w_put(w, (const char *)&ch, 1);
	}
	w_str(w, "\"]\n");
}

/* Writes a comment as words: "{first", ..., "last}", the evaluation and
 * the clock first (as Lichess writes them). */
static bool w_comment(struct writer *w, const struct pgn_eval *eval, int64_t clock_ms, const char *text)
{
	struct pgn_sbuf s = { 0 };
	char clk[48];
	char *clean = pgn_strdup(text ? text : "");
	if (!clean) {
		w->oom = true;
		return false;
	}
	/* Control characters become blanks before blanks are squeezed, so
	 * that the comment reads back the same. */
	for (char *q = clean; *q; q++)
		if ((unsigned char)*q < ' ' || *q == 0x7F)
			*q = ' ';
	pgn_squeeze(clean);
	text = clean;
	if (!*clean && clock_ms < 0 && (!eval || eval->kind == PGN_EVAL_NONE)) {
		free(clean); /* "{}" would read back as no comment */
		return false;
	}
	bool ok = pgn_sb_putc(&s, '{');
	if (eval && eval->kind != PGN_EVAL_NONE) {
		char v[24];
		pgn_eval_format(eval, v);
		snprintf(clk, sizeof clk, "[%%eval %s]", v);
		ok = ok && pgn_sb_put(&s, clk, strlen(clk));
		if (clock_ms >= 0 || (text && *text))
			ok = ok && pgn_sb_putc(&s, ' ');
	}
	if (clock_ms >= 0) {
		char v[24];
		pgn_format_clock(clock_ms, v);
		snprintf(clk, sizeof clk, "[%%clk %s]", v);
		ok = ok && pgn_sb_put(&s, clk, strlen(clk));
		if (text && *text)
			ok = ok && pgn_sb_putc(&s, ' ');
	}
	for (const char *p = text ? text : ""; *p && ok; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch == '}')
			ch = ')';
		/* Readers like ours take "\\" for a backslash and "\}" for a
		 * brace: a backslash before another or before the closing brace
		 * is written twice, so the comment reads back the same. */
		if (ch == '\\' && (p[1] == '\\' || p[1] == '\0'))
			ok = pgn_sb_putc(&s, '\\');
		ok = ok && pgn_sb_putc(&s, (char)ch);
	}
	ok = ok && pgn_sb_putc(&s, '}');
	free(clean);
	if (!ok) {
		w->oom = true;
		pgn_sb_free(&s);
		return false;
	}
	/* Split on spaces, dropping empty words. */
	size_t i = 0;
	while (i < s.len) {
		while (i < s.len && s.p[i] == ' ')
			i++;
		size_t j = i;
		while (j < s.len && s.p[j] != ' ')
			j++;
		if (j > i)
			w_word(w, s.p + i, j - i);
		i = j;
	}
	pgn_sb_free(&s);
	return true;
}

static bool valid_tag_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* The result the final position p imposes (mate, stalemate), else given. */
static const char *board_result(const struct position *p, const char *given)
{
	if (movegen_is_checkmate(p))
		return p->side == WHITE ? "0-1" : "1-0";
	if (movegen_is_stalemate(p))
		return "1/2-1/2";
	return given;
}

/* Writes moves[0..n) from *p (left after the last one), with their NAGs,
 * comments and variations; comment_start before the first. The recursion
 * goes as deep as the variations nest (PGN_RAV_DEPTH_MAX for what the
 * reader gives). Returns TCHESS_ERR_ILLEGAL (err set) for a move that is
 * not legal where it stands. */
static enum tchess_err w_line(struct writer *w, const struct pgn_move *moves, size_t n, const char *comment_start,
			      struct position *p, struct tchess_error *err)
{
	bool need_number = true;
	if (comment_start)
		w_comment(w, NULL, -1, comment_start);
	for (size_t i = 0; i < n; i++) {
		const struct pgn_move *pm = &moves[i];
		char word[40], san[SAN_MAX];
		if (pm->m == MOVE_NONE) {
			if (position_in_check(p))
				return tchess_error_set(err, TCHESS_ERR_ILLEGAL, i, "move %zu: null move in check", i + 1);
			strcpy(san, "--");
		} else if (!movegen_is_legal(p, pm->m)) {
			return tchess_error_set(err, TCHESS_ERR_ILLEGAL, i, "move %zu (%u%s) is not legal", i + 1,
						p->fullmove, p->side == WHITE ? "." : "...");
		} else {
			san_write(p, pm->m, san);
		}
		if (p->side == WHITE)
			snprintf(word, sizeof word, "%u.", p->fullmove);
		else if (need_number)
			snprintf(word, sizeof word, "%u...", p->fullmove);
		else
			word[0] = '\0';
		if (word[0]) {
			/* Keep the move number on the line of its move. */
			if (w->col > 0 && w->col + 1 + w->open_paren + strlen(word) + 1 + strlen(san) > PGN_LINE_MAX) {
				w_put(w, "\n", 1);
				w->col = 0;
			}
			w_word(w, word, strlen(word));
		}
		w_word(w, san, strlen(san));
		for (int k = 0; k < pm->n_nags; k++) {
			snprintf(word, sizeof word, "$%d", pm->nags[k]);
			w_word(w, word, strlen(word));
		}
		need_number = false;
		if ((pm->comment || pm->clock_ms >= 0 || pm->eval.kind != PGN_EVAL_NONE) &&
		    w_comment(w, &pm->eval, pm->clock_ms, pm->comment))
			need_number = true;
		struct position before = *p;
		for (size_t k = 0; k < pm->n_variations; k++) {
			const struct pgn_line *l = &pm->variations[k];
			if (l->n_moves == 0)
				continue; /* "()" is no PGN */
			struct position q = before;
			w->open_paren = true;
			enum tchess_err rc = w_line(w, l->moves, l->n_moves, l->comment_start, &q, err);
			if (rc != TCHESS_OK)
				return rc;
			w_close_paren(w);
			need_number = true;
		}
		if (pm->m == MOVE_NONE) {
			pgn_null_move(p);
		} else {
			struct undo u;
			position_make(p, pm->m, &u);
		}
	}
	return TCHESS_OK;
}

static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

enum tchess_err pgn_write_game(const struct pgn_game *g, struct pgn_buf *out, struct tchess_error *err)
{
	struct writer w = { .out = out };
	size_t mark = out->len;
	const char *result = g->result[0] ? g->result : pgn_game_tag(g, "Result");
	if (!result || (!pgn_is_result(result) && strcmp(result, "*")))
		result = "*";

	char fen[FEN_MAX], start_fen[FEN_MAX];
	struct position std;
	position_init_start(&std);
	fen_write(&g->start, fen);
	fen_write(&std, start_fen);
	bool setup_needed = strcmp(fen, start_fen) != 0 || g->start.chess960;

	bool result_fixed = false;
again:
	w.col = 0;
	for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
		const char *v = pgn_game_tag(g, roster[i]);
		if (i == 6)
			v = result;
		if (!v)
			v = i == 2 ? "????.??.??" : "?";
		w_tag(&w, roster[i], v);
	}
	if (setup_needed) {
		if (g->start.chess960)
			w_tag(&w, "Variant", "Chess960");
		w_tag(&w, "SetUp", "1");
		w_tag(&w, "FEN", fen);
	}
	for (size_t i = 0; i < g->n_tags; i++) {
		const char *name = g->tags[i].name;
		/* A name once: readers (ours too) take a repeated tag on a new
		 * line for the start of the next game, and the first is the one
		 * that counts. */
		bool skip = !valid_tag_name(name) || !strcmp(name, "SetUp") || !strcmp(name, "FEN") ||
			    (!strcmp(name, "Variant") && g->start.chess960) ||
			    pgn_game_tag(g, name) != g->tags[i].value;
		for (size_t k = 0; k < sizeof roster / sizeof roster[0]; k++)
			skip = skip || !strcmp(name, roster[k]);
		if (!skip)
			w_tag(&w, name, g->tags[i].value);
	}
	w_str(&w, "\n");

	struct position p = g->start;
	enum tchess_err rc = w_line(&w, g->moves, g->n_moves, g->comment_start, &p, err);
	if (rc != TCHESS_OK) {
		out->len = mark;
		if (out->data)
			out->data[mark] = '\0';
		return rc;
	}
	w_word(&w, result, strlen(result));
	w_str(&w, "\n\n");
	if (!result_fixed && strcmp(result, board_result(&p, result))) {
		/* The board decides: redo with the result of the mate or stalemate. */
		out->len = mark;
		if (out->data)
			out->data[mark] = '\0';
		result = board_result(&p, result);
		result_fixed = true;
		goto again;
	}
	if (w.oom) {
		out->len = mark;
		if (out->data)
			out->data[mark] = '\0';
		return tchess_error_set(err, TCHESS_ERR_NO_MEMORY, 0, "out of memory");
	}
	return TCHESS_OK;
}
