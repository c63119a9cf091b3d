/*
 * The PGN game model (tchess/pgn.h): games, tags and moves, clocks in
 * comments, and the helpers the reader and the writer share
 * (pgn-internal.h). Reading is in pgn-read.c over the tokenizer of
 * pgn-lexer.c; writing in pgn-write.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn-internal.h"

/* ---- growable strings ---- */

bool pgn_sb_reserve(struct pgn_sbuf *s, size_t more)
{
	if (s->len + more + 1 <= s->cap)
		return true;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < s->len + more + 1)
		cap *= 2;
	char *p = realloc(s->p, cap);
	if (!p)
		return false;
	s->p = p;
	s->cap = cap;
	return true;
}

bool pgn_sb_put(struct pgn_sbuf *s, const char *d, size_t n)
{
	if (!pgn_sb_reserve(s, n))
		return false;
	memcpy(s->p + s->len, d, n);
	s->len += n;
	s->p[s->len] = '\0';
	return true;
}

bool pgn_sb_putc(struct pgn_sbuf *s, char ch)
{
	return pgn_sb_put(s, &ch, 1);
}

void pgn_sb_clear(struct pgn_sbuf *s)
{
	s->len = 0;
	if (s->p)
		s->p[0] = '\0';
}

void pgn_sb_free(struct pgn_sbuf *s)
{
	free(s->p);
	s->p = NULL;
	s->len = s->cap = 0;
}

char *pgn_sb_take(struct pgn_sbuf *s)
{
	char *p = s->p;
	if (!p)
		p = calloc(1, 1);
	s->p = NULL;
	s->len = s->cap = 0;
	return p;
}

char *pgn_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

bool pgn_is_result(const char *s)
{
	return !strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2");
}

static const struct {
	const char *text;
	uint8_t nag;
} text_nags[] = {
	{ "!", 1 }, { "?", 2 }, { "!!", 3 }, { "??", 4 }, { "!?", 5 }, { "?!", 6 },
	{ "=", 10 }, { "inf", 13 }, { "\xe2\x88\x9e", 13 }, { "+=", 14 }, { "+/=", 14 },
	{ "\xe2\xa9\xb2", 14 }, { "=+", 15 }, { "=/+", 15 }, { "\xe2\xa9\xb1", 15 }, { "+/-", 16 },
	{ "\xc2\xb1", 16 }, { "-/+", 17 }, { "\xe2\x88\x93", 17 }, { "+-", 18 }, { "-+", 19 },
	{ "+--", 20 }, { "--+", 21 },
	{ "=/inf", 44 }, { "RR", 145 }, { "N", 146 },
};

int pgn_text_nag(const char *s)
{
	for (size_t i = 0; i < sizeof text_nags / sizeof text_nags[0]; i++)
		if (!strcmp(s, text_nags[i].text))
			return text_nags[i].nag;
	return -1;
}

const char *pgn_nag_glyph(int nag, bool ascii)
{
	for (size_t i = 0; i < sizeof text_nags / sizeof text_nags[0]; i++) {
		const char *t = text_nags[i].text;
		/* The table lists the ASCII spelling first, so the first match
		 * is the ASCII one and a later one with a high byte the symbol. */
		if (text_nags[i].nag != nag || (ascii && (unsigned char)t[0] >= 0x80))
			continue;
		if (!ascii)
			for (size_t j = i + 1; j < sizeof text_nags / sizeof text_nags[0]; j++)
				if (text_nags[j].nag == nag && (unsigned char)text_nags[j].text[0] >= 0x80)
					return text_nags[j].text;
		return t;
	}
	return NULL;
}

/* ---- the game ---- */

void pgn_game_init(struct pgn_game *g)
{
	memset(g, 0, sizeof *g);
	position_init_start(&g->start);
}

void pgn_game_fini(struct pgn_game *g)
{
	for (size_t i = 0; i < g->n_tags; i++) {
		free(g->tags[i].name);
		free(g->tags[i].value);
	}
	free(g->tags);
	pgn_moves_free(g->moves, g->n_moves);
	free(g->comment_start);
	pgn_game_init(g);
}

/* Frees a line's content. The depth of the recursion is the nesting of
 * variations, which the reader bounds (PGN_RAV_DEPTH_MAX). */
static void line_fini(struct pgn_line *l)
{
	free(l->comment_start);
	pgn_moves_free(l->moves, l->n_moves);
	memset(l, 0, sizeof *l);
}

void pgn_moves_free(struct pgn_move *moves, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(moves[i].comment);
		for (size_t k = 0; k < moves[i].n_variations; k++)
			line_fini(&moves[i].variations[k]);
		free(moves[i].variations);
	}
	free(moves);
}

const char *pgn_game_tag(const struct pgn_game *g, const char *name)
{
	for (size_t i = 0; i < g->n_tags; i++)
		if (!strcmp(g->tags[i].name, name))
			return g->tags[i].value;
	return NULL;
}

enum tchess_err pgn_add_tag(struct pgn_game *g, char *name, char *value)
{
	if (!name || !value)
		goto fail;
	if (g->n_tags == g->cap_tags) {
		size_t cap = g->cap_tags ? g->cap_tags * 2 : 16;
		struct pgn_tag *t = realloc(g->tags, cap * sizeof *t);
		if (!t)
			goto fail;
		g->tags = t;
		g->cap_tags = cap;
	}
	g->tags[g->n_tags].name = name;
	g->tags[g->n_tags].value = value;
	g->n_tags++;
	return TCHESS_OK;
fail:
	free(name);
	free(value);
	return TCHESS_ERR_NO_MEMORY;
}

enum tchess_err pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value)
{
	for (size_t i = 0; i < g->n_tags; i++) {
		if (!strcmp(g->tags[i].name, name)) {
			char *v = pgn_strdup(value);
			if (!v)
				return TCHESS_ERR_NO_MEMORY;
			free(g->tags[i].value);
			g->tags[i].value = v;
			return TCHESS_OK;
		}
	}
	return pgn_add_tag(g, pgn_strdup(name), pgn_strdup(value));
}

struct pgn_move *pgn_moves_push(struct pgn_move **moves, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct pgn_move *m = realloc(*moves, ncap * sizeof *m);
		if (!m)
			return NULL;
		*moves = m;
		*cap = ncap;
	}
	struct pgn_move *pm = &(*moves)[(*n)++];
	memset(pm, 0, sizeof *pm);
	pm->clock_ms = -1;
	pm->eval.depth = -1;
	return pm;
}

struct pgn_move *pgn_push_move(struct pgn_game *g)
{
	return pgn_moves_push(&g->moves, &g->n_moves, &g->cap_moves);
}

struct pgn_line *pgn_move_add_variation(struct pgn_move *pm)
{
	if (pm->n_variations == UINT16_MAX)
		return NULL;
	if (pm->n_variations == pm->cap_variations) {
		size_t cap = pm->cap_variations ? (size_t)pm->cap_variations * 2 : 2;
		if (cap > UINT16_MAX)
			cap = UINT16_MAX;
		struct pgn_line *v = realloc(pm->variations, cap * sizeof *v);
		if (!v)
			return NULL;
		pm->variations = v;
		pm->cap_variations = (uint16_t)cap;
	}
	struct pgn_line *l = &pm->variations[pm->n_variations++];
	memset(l, 0, sizeof *l);
	return l;
}

enum tchess_err pgn_move_remove_variation(struct pgn_move *pm, size_t k)
{
	if (k >= pm->n_variations)
		return TCHESS_ERR_RANGE;
	line_fini(&pm->variations[k]);
	memmove(&pm->variations[k], &pm->variations[k + 1], (pm->n_variations - k - 1) * sizeof *pm->variations);
	pm->n_variations--;
	return TCHESS_OK;
}

enum tchess_err pgn_line_add_move(struct pgn_line *l, move m)
{
	struct pgn_move *pm = pgn_moves_push(&l->moves, &l->n_moves, &l->cap_moves);
	if (!pm)
		return TCHESS_ERR_NO_MEMORY;
	pm->m = m;
	return TCHESS_OK;
}

enum tchess_err pgn_game_add_move(struct pgn_game *g, move m)
{
	struct pgn_move *pm = pgn_push_move(g);
	if (!pm)
		return TCHESS_ERR_NO_MEMORY;
	pm->m = m;
	return TCHESS_OK;
}

enum tchess_err pgn_game_set_comment(struct pgn_game *g, size_t i, const char *text)
{
	if (i >= g->n_moves)
		return TCHESS_ERR_RANGE;
	char *c = NULL;
	if (text && !(c = pgn_strdup(text)))
		return TCHESS_ERR_NO_MEMORY;
	free(g->moves[i].comment);
	g->moves[i].comment = c;
	return TCHESS_OK;
}

void pgn_null_move(struct position *p)
{
	if (p->side == BLACK)
		p->fullmove++;
	if (p->halfmove < UINT16_MAX)
		p->halfmove++;
	p->side ^= 1;
	position_refresh(p, SQ_NONE);
}

/* ---- clocks ---- */

size_t pgn_format_clock(int64_t ms, char *buf)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	int tenths = (int)(ms % 1000 / 100);
	if (ms % 1000 == 0)
		return (size_t)sprintf(buf, "%lld:%02d:%02d", (long long)(s / 3600), (int)(s / 60 % 60),
				       (int)(s % 60));
	return (size_t)sprintf(buf, "%lld:%02d:%02d.%d", (long long)(s / 3600), (int)(s / 60 % 60), (int)(s % 60),
			       tenths);
}

/* Parses "h:mm:ss" or "h:mm:ss.f..." at s (n bytes); returns ms or -1. */
static int64_t parse_clock(const char *s, size_t n)
{
	int64_t part[3] = { 0, 0, 0 };
	int np = 0;
	size_t i = 0;
	while (np < 3) {
		size_t d = 0;
		int64_t v = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && d < 6) {
			v = v * 10 + (s[i] - '0');
			i++;
			d++;
		}
		if (d == 0 || (i < n && s[i] >= '0' && s[i] <= '9'))
			return -1;
		part[np++] = v;
		if (np < 3) {
			if (i >= n || s[i] != ':')
				break;
			i++;
		}
	}
	/* "m:ss" is accepted as well as "h:mm:ss". */
	int64_t h = 0, m, sec;
	if (np == 3) {
		h = part[0];
		m = part[1];
		sec = part[2];
	} else if (np == 2) {
		m = part[0];
		sec = part[1];
	} else {
		return -1;
	}
	if (m > 59 && np == 3)
		return -1;
	if (sec > 59)
		return -1;
	int64_t ms = ((h * 60 + m) * 60 + sec) * 1000;
	if (i < n && s[i] == '.') {
		i++;
		int64_t scale = 100;
		size_t d = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (d < 3)
				ms += (s[i] - '0') * scale;
			scale /= 10;
			i++;
			d++;
		}
		if (d == 0)
			return -1;
	}
	while (i < n && s[i] == ' ')
		i++;
	return i == n ? ms : -1;
}

/* ---- evaluations ---- */

bool pgn_eval_parse(const char *s, size_t n, struct pgn_eval *e)
{
	struct pgn_eval v = { PGN_EVAL_CP, 0, -1 };
	size_t i = 0;
	bool neg = false;
	if (i < n && s[i] == '#') {
		v.kind = PGN_EVAL_MATE;
		i++;
	}
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	size_t d = 0;
	int64_t x = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && d < 7) {
		x = x * 10 + (s[i++] - '0');
		d++;
	}
	if (d == 0 || (i < n && s[i] >= '0' && s[i] <= '9'))
		return false;
	if (v.kind == PGN_EVAL_MATE) {
		if (x > PGN_EVAL_MATE_MAX)
			return false;
	} else {
		/* Pawns to centipawns, the third decimal and on rounded off. */
		x *= 100;
		if (i < n && s[i] == '.') {
			i++;
			int scale = 10, digits = 0, rest = -1;
			while (i < n && s[i] >= '0' && s[i] <= '9') {
				if (digits < 2)
					x += (s[i] - '0') * scale;
				else if (digits == 2)
					rest = s[i] - '0';
				scale /= 10;
				digits++;
				i++;
			}
			if (digits == 0)
				return false;
			if (rest >= 5)
				x++;
		}
		if (x > PGN_EVAL_CP_MAX)
			return false;
	}
	v.value = (int32_t)(neg ? -x : x);
	if (i < n && s[i] == ',') {
		i++;
		size_t k = 0;
		int depth = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && k < 4) {
			depth = depth * 10 + (s[i++] - '0');
			k++;
		}
		if (k == 0 || (i < n && s[i] >= '0' && s[i] <= '9'))
			return false;
		v.depth = (int16_t)depth;
	}
	while (i < n && s[i] == ' ')
		i++;
	if (i != n)
		return false;
	*e = v;
	return true;
}

size_t pgn_eval_format(const struct pgn_eval *e, char *buf)
{
	int n = 0;
	if (e->kind == PGN_EVAL_MATE) {
		n = sprintf(buf, "#%d", (int)e->value);
	} else if (e->kind == PGN_EVAL_CP) {
		int32_t a = e->value < 0 ? -e->value : e->value;
		n = sprintf(buf, "%s%d.%02d", e->value < 0 ? "-" : "", (int)(a / 100), (int)(a % 100));
	} else {
		buf[0] = '\0';
		return 0;
	}
	if (e->depth >= 0)
		n += sprintf(buf + n, ",%d", (int)e->depth);
	return (size_t)n;
}

/* ---- commands in comments ---- */

void pgn_take_commands(char *text, int64_t *clock_ms, struct pgn_eval *eval)
{
	char *r = text, *w = text;
	bool closed = true; /* a ']' may still follow */
	while (*r) {
		bool clk = closed && !strncmp(r, "[%clk", 5) && (r[5] == ' ' || r[5] == ']');
		bool ev = closed && !strncmp(r, "[%eval", 6) && (r[6] == ' ' || r[6] == ']');
		char *end = clk || ev ? strchr(r, ']') : NULL;
		if ((clk || ev) && !end)
			closed = false; /* none later either: stop looking */
		if (end) {
			char *v = r + (clk ? 5 : 6);
			while (*v == ' ')
				v++;
			int64_t t;
			struct pgn_eval e;
			bool took = false;
			if (clk && (t = parse_clock(v, (size_t)(end - v))) >= 0) {
				*clock_ms = t;
				took = true;
			} else if (ev && pgn_eval_parse(v, (size_t)(end - v), &e)) {
				*eval = e;
				took = true;
			}
			/* A command taken leaves a blank, so that the text around
			 * it cannot join into another one; a malformed one is kept
			 * whole, commands inside it too, for the same reason: the
			 * text written back reads back the same. */
			if (took) {
				*w++ = ' ';
			} else {
				size_t k = (size_t)(end + 1 - r);
				memmove(w, r, k);
				w += k;
			}
			r = end + 1;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

void pgn_squeeze(char *s)
{
	char *w = s;
	bool space = false;
	for (char *r = s; *r; r++) {
		unsigned char ch = (unsigned char)*r;
		if (ch <= ' ' || ch == 0x7F) { /* control characters too */
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = *r;
	}
	*w = '\0';
}
