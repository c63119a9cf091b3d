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
	for (size_t i = 0; i < g->n_moves; i++)
		free(g->moves[i].comment);
	free(g->moves);
	free(g->comment_start);
	pgn_game_init(g);
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

struct pgn_move *pgn_push_move(struct pgn_game *g)
{
	if (g->n_moves == g->cap_moves) {
		size_t cap = g->cap_moves ? g->cap_moves * 2 : 64;
		struct pgn_move *m = realloc(g->moves, cap * sizeof *m);
		if (!m)
			return NULL;
		g->moves = m;
		g->cap_moves = cap;
	}
	struct pgn_move *pm = &g->moves[g->n_moves++];
	memset(pm, 0, sizeof *pm);
	pm->clock_ms = -1;
	return pm;
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

void pgn_extract_clock(char *text, int64_t *ms)
{
	char *p = text;
	while ((p = strstr(p, "[%clk")) != NULL) {
		char *end = strchr(p, ']');
		if (!end)
			break;
		char *v = p + 5;
		while (*v == ' ')
			v++;
		int64_t t = parse_clock(v, (size_t)(end - v));
		if (t < 0) {
			p = end;
			continue;
		}
		*ms = t;
		memmove(p, end + 1, strlen(end + 1) + 1);
	}
}

void pgn_squeeze(char *s)
{
	char *w = s;
	bool space = false;
	for (char *r = s; *r; r++) {
		unsigned char ch = (unsigned char)*r;
		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
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
