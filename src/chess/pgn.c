/*
 * PGN reading and writing (see tchess/pgn.h for what is accepted and the
 * decisions taken). The reader is a hand-written tokenizer plus a small
 * state machine over one game at a time; after an error it switches to a
 * lenient tokenizer that only looks for where the next game starts. Nothing
 * here recurses or rescans, so the work stays linear in the input whatever
 * bytes it holds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/pgn.h"

/* ---- growable strings ---- */

struct sbuf {
	char *p;
	size_t len, cap;
};

static bool sb_reserve(struct sbuf *s, size_t more)
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

static bool sb_put(struct sbuf *s, const char *d, size_t n)
{
	if (!sb_reserve(s, n))
		return false;
	memcpy(s->p + s->len, d, n);
	s->len += n;
	s->p[s->len] = '\0';
	return true;
}

static bool sb_putc(struct sbuf *s, char ch)
{
	return sb_put(s, &ch, 1);
}

static void sb_clear(struct sbuf *s)
{
	s->len = 0;
	if (s->p)
		s->p[0] = '\0';
}

static void sb_free(struct sbuf *s)
{
	free(s->p);
	s->p = NULL;
	s->len = s->cap = 0;
}

/* Moves the text out of s as a malloc'd string the caller owns. */
static char *sb_take(struct sbuf *s)
{
	char *p = s->p;
	if (!p)
		p = calloc(1, 1);
	s->p = NULL;
	s->len = s->cap = 0;
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
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

/* Appends a tag, taking ownership of name and value (freed on failure). */
static enum tchess_err add_tag(struct pgn_game *g, char *name, char *value)
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
			char *v = xstrdup(value);
			if (!v)
				return TCHESS_ERR_NO_MEMORY;
			free(g->tags[i].value);
			g->tags[i].value = v;
			return TCHESS_OK;
		}
	}
	return add_tag(g, xstrdup(name), xstrdup(value));
}

static struct pgn_move *push_move(struct pgn_game *g)
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
	struct pgn_move *pm = push_move(g);
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
	if (text && !(c = xstrdup(text)))
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

/* Takes every well-formed [%clk ...] out of text (edited in place); the
 * last one's value goes to *ms. */
static void extract_clock(char *text, int64_t *ms)
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

/* Collapses runs of blanks to one space and trims the ends, in place. */
static void squeeze(char *s)
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

/* ---- tokenizer ---- */

enum tok {
	T_EOF,
	T_LBRACKET,
	T_RBRACKET,
	T_STRING,
	T_BAD_STRING,
	T_COMMENT,
	T_BAD_COMMENT,
	T_LPAREN,
	T_RPAREN,
	T_NAG,
	T_SYMBOL,
	T_MOVENUM,
	T_STAR,
	T_BAD
};

struct token {
	enum tok type;
	size_t start, end;
	bool line_start;     /* nothing but blanks before it on its line */
	bool blank_before;   /* an empty line (or the input start) lies before it */
	bool too_long;
	int nag;             /* T_NAG: 0..255, or -1 when out of range */
};

#define SYMBOL_MAX 64

struct ctx {
	struct pgn_reader *r;
	struct pgn_game *g;
	struct pgn_error *err;
	struct position pos;
	struct sbuf text;     /* current token's unescaped text */
	struct sbuf comment;  /* comments of the last move (or the start) */
	bool setup_done;
	bool any;             /* something of this game was read */
	int depth;
	bool rav_moves[PGN_RAV_DEPTH_MAX + 1];
	size_t fen_off, variant_off;
	size_t game_start;
};

/* Length of a UTF-8 sequence that we read as a blank at p, or 0. */
static size_t utf8_blank(const unsigned char *p, size_t n)
{
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		return 3; /* byte order mark */
	if (n >= 2 && p[0] == 0xC2 && p[1] == 0xA0)
		return 2; /* no-break space */
	if (n >= 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x8B || p[2] == 0xAF))
		return 3; /* zero-width space, narrow no-break space */
	return 0;
}

/* Length of a UTF-8 dash at p that we read as '-', or 0. */
static size_t utf8_dash(const unsigned char *p, size_t n)
{
	if (n >= 3 && p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x90 && p[2] <= 0x95)
		return 3;
	if (n >= 3 && p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92)
		return 3; /* minus sign */
	return 0;
}

static bool is_delim(unsigned char ch)
{
	return ch <= ' ' || strchr("[]{}()\";$*<>%", ch) != NULL || ch == 0x7F;
}

static bool at_column_one(const struct ctx *c, size_t i)
{
	const unsigned char *b = (const unsigned char *)c->r->buf;
	if (i == 0)
		return true;
	if (i == 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
		return true;
	return b[i - 1] == '\n' || b[i - 1] == '\r';
}

/* Reads the next token from r->pos. lenient (used while skipping a bad
 * game) ends an unclosed tag value at its line end. */
static void next_token(struct ctx *c, struct token *t)
{
	struct pgn_reader *r = c->r;
	const unsigned char *b = (const unsigned char *)r->buf;
	size_t n = r->len, i = r->pos;
	int newlines = 0;
	bool blank = false;

	memset(t, 0, sizeof *t);
	sb_clear(&c->text);
	for (;;) {
		if (i >= n)
			break;
		unsigned char ch = b[i];
		size_t u;
		if (ch == '\n' || ch == '\r') {
			newlines++;
			i += (ch == '\r' && i + 1 < n && b[i + 1] == '\n') ? 2 : 1;
		} else if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\v') {
			i++;
		} else if ((u = utf8_blank(b + i, n - i)) > 0) {
			i += u;
		} else if (ch == '%' && at_column_one(c, i)) {
			/* An escape line is no empty line: count afresh after it. */
			blank = blank || newlines >= 2;
			newlines = 0;
			while (i < n && b[i] != '\n' && b[i] != '\r')
				i++;
		} else {
			break;
		}
	}
	t->start = i;
	t->line_start = newlines > 0 || r->pos == 0 || at_column_one(c, i);
	t->blank_before = blank || newlines >= 2 || r->pos == 0;
	if (i >= n) {
		t->type = T_EOF;
		t->end = r->pos = n;
		return;
	}

	unsigned char ch = b[i];
	switch (ch) {
	case '[': t->type = T_LBRACKET; i++; break;
	case ']': t->type = T_RBRACKET; i++; break;
	case '(': t->type = T_LPAREN; i++; break;
	case ')': t->type = T_RPAREN; i++; break;
	case '*': t->type = T_STAR; i++; break;
	case '"': {
		/* Find the closing quote on this line, skipping \" and \\. */
		size_t j = i + 1, close = 0;
		bool found = false;
		while (j < n && b[j] != '\n' && b[j] != '\r') {
			if (b[j] == '\\' && j + 1 < n && (b[j + 1] == '"' || b[j + 1] == '\\')) {
				j += 2;
				continue;
			}
			if (b[j] == '"') {
				found = true;
				close = j;
				break;
			}
			j++;
		}
		size_t vend;
		if (found) {
			vend = close;
			i = close + 1;
		} else {
			/* Unclosed: tolerate it when the line ends with ']'. */
			size_t k = j;
			while (k > i + 1 && (b[k - 1] == ' ' || b[k - 1] == '\t'))
				k--;
			if (k > i + 1 && b[k - 1] == ']') {
				vend = k - 1;
				i = k - 1;
				found = true;
			} else {
				vend = j;
				i = j;
			}
		}
		t->type = found ? T_STRING : T_BAD_STRING;
		if (vend - (t->start + 1) > PGN_TOKEN_MAX) {
			t->too_long = true;
			break;
		}
		for (size_t k = t->start + 1; k < vend; k++) {
			if (b[k] == '\\' && k + 1 < vend && (b[k + 1] == '"' || b[k + 1] == '\\'))
				k++;
			if (!sb_putc(&c->text, (char)b[k])) {
				t->too_long = true;
				break;
			}
		}
		break;
	}
	case '{': {
		size_t j = i + 1;
		while (j < n && b[j] != '}') {
			if (b[j] == '\\' && j + 1 < n && (b[j + 1] == '}' || b[j + 1] == '\\'))
				j++;
			j++;
		}
		if (j >= n) {
			t->type = T_BAD_COMMENT;
			i = n;
			break;
		}
		t->type = T_COMMENT;
		if (j - i - 1 > PGN_TOKEN_MAX) {
			t->too_long = true;
		} else {
			for (size_t k = i + 1; k < j; k++) {
				if (b[k] == '\\' && k + 1 < j && (b[k + 1] == '}' || b[k + 1] == '\\'))
					k++;
				if (!sb_putc(&c->text, (char)b[k])) {
					t->too_long = true;
					break;
				}
			}
		}
		i = j + 1;
		break;
	}
	case ';': {
		size_t j = i + 1;
		while (j < n && b[j] != '\n' && b[j] != '\r')
			j++;
		t->type = T_COMMENT;
		if (j - i - 1 > PGN_TOKEN_MAX)
			t->too_long = true;
		else if (!sb_put(&c->text, (const char *)b + i + 1, j - i - 1))
			t->too_long = true;
		i = j;
		break;
	}
	case '$': {
		size_t j = i + 1;
		long v = 0;
		while (j < n && b[j] >= '0' && b[j] <= '9') {
			if (v <= 255)
				v = v * 10 + (b[j] - '0');
			j++;
		}
		t->type = T_NAG;
		t->nag = (j == i + 1 || v > 255) ? -1 : (int)v;
		i = j;
		break;
	}
	default:
		if (ch == '.' || (ch >= '0' && ch <= '9')) {
			size_t j = i;
			while (j < n && b[j] >= '0' && b[j] <= '9')
				j++;
			if (j < n && b[j] == '.') {
				while (j < n && b[j] == '.')
					j++;
				t->type = T_MOVENUM;
				i = j;
				break;
			}
			if (j > i && (j >= n || is_delim(b[j]) || utf8_blank(b + j, n - j))) {
				t->type = T_MOVENUM;
				i = j;
				break;
			}
		}
		if (is_delim(ch)) {
			t->type = T_BAD;
			i++;
			break;
		}
		/* A symbol, with Unicode dashes read as '-' and ½ as 1/2. */
		t->type = T_SYMBOL;
		while (i < n && !is_delim(b[i]) && !utf8_blank(b + i, n - i)) {
			size_t u;
			if ((u = utf8_dash(b + i, n - i)) > 0) {
				i += u;
				ch = '-';
			} else if (i + 1 < n && b[i] == 0xC2 && b[i + 1] == 0xBD) {
				i += 2;
				if (c->text.len < SYMBOL_MAX)
					sb_put(&c->text, "1/2", 3);
				continue;
			} else {
				ch = b[i++];
			}
			if (c->text.len < SYMBOL_MAX)
				sb_putc(&c->text, (char)ch);
			else
				t->too_long = true;
		}
		break;
	}
	t->end = r->pos = i;
}

/* ---- locations and errors ---- */

static void locate(struct pgn_reader *r, size_t off, size_t *line, size_t *col)
{
	if (off > r->len)
		off = r->len;
	if (off < r->lc_off) {
		r->lc_off = 0;
		r->lc_line = 1;
		r->lc_col = 1;
	}
	const char *b = r->buf;
	for (size_t i = r->lc_off; i < off; i++) {
		if (b[i] == '\n') {
			if (i > 0 && b[i - 1] == '\r')
				continue; /* second half of CRLF */
			r->lc_line++;
			r->lc_col = 1;
		} else if (b[i] == '\r') {
			r->lc_line++;
			r->lc_col = 1;
		} else {
			r->lc_col++;
		}
	}
	r->lc_off = off;
	*line = r->lc_line;
	*col = r->lc_col;
}

static void set_error(struct ctx *c, size_t off, enum tchess_err code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set_error(struct ctx *c, size_t off, enum tchess_err code, const char *fmt, ...)
{
	size_t line, col;
	char why[200];
	va_list ap;

	if (!c->err)
		return;
	locate(c->r, off, &line, &col);
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	c->err->code = code;
	c->err->game = c->r->games;
	c->err->offset = off;
	c->err->line = line;
	c->err->col = col;
	snprintf(c->err->message, sizeof c->err->message, "game %zu, line %zu, column %zu: %s", c->r->games + 1,
		 line, col, why);
}

static bool is_result(const char *s)
{
	return !strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2");
}

/* Skips the rest of a bad game, starting at from: up to and including its
 * termination marker, or up to a tag pair that starts a line after an empty
 * line (or is an Event tag), which starts the next game. */
static void resync(struct ctx *c, size_t from)
{
	struct pgn_reader *r = c->r;
	struct token t;
	int depth = c->depth;
	r->pos = from;
	for (;;) {
		size_t before = r->pos;
		next_token(c, &t);
		if (t.type == T_EOF)
			break;
		if (t.type == T_LPAREN)
			depth++;
		if (t.type == T_RPAREN && depth > 0)
			depth--;
		if (depth == 0 && (t.type == T_STAR || (t.type == T_SYMBOL && is_result(c->text.p))))
			break;
		if (t.type == T_LBRACKET && t.line_start && t.start > c->game_start &&
		    (t.blank_before || (r->len - t.start >= 6 && !memcmp(r->buf + t.start, "[Event", 6)))) {
			r->pos = t.start;
			break;
		}
		if (t.type == T_BAD_STRING && r->pos == before)
			r->pos++;
	}
	if (r->pos <= c->game_start)
		r->pos = c->game_start + 1;
}

/* ---- reading ---- */

void pgn_reader_init(struct pgn_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	r->buf = buf;
	r->len = buf ? len : 0;
	r->lc_line = 1;
	r->lc_col = 1;
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

static int text_nag(const char *s)
{
	for (size_t i = 0; i < sizeof text_nags / sizeof text_nags[0]; i++)
		if (!strcmp(s, text_nags[i].text))
			return text_nags[i].nag;
	return -1;
}

static bool ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* Moves the collected comment into its owner: the last move, or the start. */
static bool flush_comment(struct ctx *c)
{
	struct pgn_game *g = c->g;
	if (c->comment.len == 0)
		return true;
	char **slot = g->n_moves ? &g->moves[g->n_moves - 1].comment : &g->comment_start;
	char *s = sb_take(&c->comment);
	squeeze(s);
	if (g->n_moves) {
		extract_clock(s, &g->moves[g->n_moves - 1].clock_ms);
		squeeze(s);
	}
	free(*slot);
	*slot = NULL;
	if (*s)
		*slot = s;
	else
		free(s);
	return true;
}

static bool add_comment(struct ctx *c, const char *text, size_t len)
{
	if (c->comment.len && !sb_putc(&c->comment, ' '))
		return false;
	return sb_put(&c->comment, text, len);
}

static void add_nag(struct pgn_move *m, int nag)
{
	if (m->n_nags < PGN_NAGS_MAX)
		m->nags[m->n_nags++] = (uint8_t)nag;
}

/* Whether castling right i (K, Q, k, q) of p is held with its king or rook
 * off the standard square. */
static bool off_standard(const struct position *p, int i)
{
	int back = i < 2 ? 0 : 7;
	return (p->castling & (1u << i)) && (position_king(p, i < 2 ? WHITE : BLACK) != make_sq(4, back) ||
					     p->castle_rook[i] != make_sq(i % 2 ? 0 : 7, back));
}

/* Applies the FEN and Variant tags; false (error set) if they are bad. */
static bool setup(struct ctx *c)
{
	struct pgn_game *g = c->g;
	const char *variant = pgn_game_tag(g, "Variant");
	const char *fen = pgn_game_tag(g, "FEN");
	bool c960 = false;
	struct tchess_error e;

	c->setup_done = true;
	char vbuf[64];
	if (variant) {
		size_t a = 0, z = strlen(variant);
		while (a < z && variant[a] == ' ')
			a++;
		while (z > a && variant[z - 1] == ' ')
			z--;
		snprintf(vbuf, sizeof vbuf, "%.*s", (int)(z - a < 63 ? z - a : 63), variant + a);
		variant = vbuf;
	}
	if (variant) {
		static const char *const standard[] = { "", "standard", "chess", "regular", "from position",
							"normal", "classical" };
		static const char *const fischer[] = { "chess960", "chess 960", "fischerandom", "fischer random",
						       "fischerrandom", "960", "chess-960" };
		bool known = false;
		for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++)
			known = known || ieq(variant, standard[i]);
		for (size_t i = 0; i < sizeof fischer / sizeof fischer[0]; i++)
			if (ieq(variant, fischer[i]))
				known = c960 = true;
		if (!known) {
			set_error(c, c->variant_off, TCHESS_ERR_PGN_SYNTAX, "unsupported variant \"%.60s\"", variant);
			return false;
		}
	}
	if (fen) {
		size_t a = 0, z = strlen(fen);
		while (a < z && fen[a] == ' ')
			a++;
		while (z > a && fen[z - 1] == ' ')
			z--;
		if (z > a) {
			if (fen_parse_n(&g->start, fen + a, z - a, &e) != TCHESS_OK) {
				set_error(c, c->fen_off, e.code, "FEN tag: %s", e.message);
				return false;
			}
		} else {
			fen = NULL;
		}
	}
	if (c960) {
		if (!fen) {
			set_error(c, c->variant_off, TCHESS_ERR_PGN_SYNTAX, "a Chess960 game needs a FEN tag");
			return false;
		}
		g->start.chess960 = true;
	} else if (g->start.chess960) {
		/* fen_parse() reads a right whose king or rook is off its
		 * standard square as Chess960 castling. Standard chess has no
		 * such right (Lichess studies carry stale ones, "KQq" with the
		 * black king on g8): it is dropped, so O-O there is illegal. */
		for (int i = 0; i < 4; i++) {
			if (off_standard(&g->start, i)) {
				g->start.castling &= (uint8_t)~(1u << i);
				g->start.castle_rook[i] = SQ_NONE;
			}
		}
		g->start.chess960 = false;
		position_refresh(&g->start, g->start.ep);
	}
	c->pos = g->start;
	return true;
}

static bool looks_uci(const char *s)
{
	size_t n = strlen(s);
	if (n != 4 && n != 5)
		return false;
	if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2] < 'a' || s[2] > 'h' || s[3] < '1' ||
	    s[3] > '8')
		return false;
	return n == 4 || strchr("qrbn", s[4]) != NULL;
}

/* Plays the SAN (or null move) in c->text; false (error set) if bad. */
static bool play_move(struct ctx *c, const struct token *t)
{
	struct pgn_game *g = c->g;
	char *s = c->text.p;
	size_t n = c->text.len;
	int suffix = -1;
	move m = MOVE_NONE;
	struct tchess_error e;
	char num[24];

	snprintf(num, sizeof num, "%u%s", c->pos.fullmove, c->pos.side == WHITE ? "." : "...");
	if (g->n_moves >= PGN_PLIES_MAX) {
		set_error(c, t->start, TCHESS_ERR_RANGE, "more than %d plies", PGN_PLIES_MAX);
		return false;
	}
	if (t->too_long) {
		set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX, "'%.20s...' is too long for a move", s);
		return false;
	}
	if (c->pos.halfmove == FEN_COUNTER_MAX || (c->pos.fullmove == FEN_COUNTER_MAX && c->pos.side == BLACK)) {
		set_error(c, t->start, TCHESS_ERR_RANGE, "%s %s: the move counters would pass %u", num, s,
			  FEN_COUNTER_MAX);
		return false;
	}
	/* Suffix annotations glued to the move become NAGs. */
	size_t k = n;
	while (k > 0 && (s[k - 1] == '!' || s[k - 1] == '?'))
		k--;
	if (k < n && k > 0) {
		suffix = text_nag(s + k);
		if (suffix < 0) {
			set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX, "'%s': unknown annotation '%s'", s, s + k);
			return false;
		}
		s[k] = '\0';
		n = k;
	}
	if (!strcmp(s, "--") || !strcmp(s, "Z0")) {
		if (position_in_check(&c->pos)) {
			set_error(c, t->start, TCHESS_ERR_ILLEGAL, "%s --: a null move is not allowed in check", num);
			return false;
		}
	} else if (looks_uci(s)) {
		set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX,
			  "%s %s: UCI notation in movetext; PGN movetext must be SAN", num, s);
		return false;
	} else if (san_parse(&c->pos, s, n, &m, &e) != TCHESS_OK) {
		set_error(c, t->start, e.code, "%s %s: %s", num, s, e.message);
		return false;
	}

	if (!flush_comment(c))
		return false;
	struct pgn_move *pm = push_move(g);
	if (!pm) {
		set_error(c, t->start, TCHESS_ERR_NO_MEMORY, "out of memory");
		return false;
	}
	pm->m = m;
	if (m == MOVE_NONE) {
		strcpy(pm->san, "--");
		pgn_null_move(&c->pos);
	} else {
		struct undo u;
		san_write(&c->pos, m, pm->san);
		position_make(&c->pos, m, &u);
	}
	if (suffix >= 0)
		add_nag(pm, suffix);
	return true;
}

/* Ends the game well: finishes the comment and sets the result. */
static enum pgn_status finish(struct ctx *c, const char *result)
{
	flush_comment(c);
	snprintf(c->g->result, sizeof c->g->result, "%s", result);
	c->r->games++;
	return PGN_OK;
}

static enum pgn_status fail(struct ctx *c, size_t resume, bool skip)
{
	if (skip) {
		resync(c, resume);
	} else {
		c->r->pos = resume;
		if (c->r->pos <= c->game_start)
			c->r->pos = c->game_start + 1;
	}
	c->r->games++;
	return PGN_ERROR;
}

/* A result token inside a variation: the end of that line when the
 * variation closes right after it, "(1. d4 1-0)", which some files write
 * (and python-chess reads); otherwise the game ended with the variation
 * open. Returns false (error set) then. */
static bool variation_result(struct ctx *c, const struct token *t)
{
	struct token next;
	size_t pos = c->r->pos;
	next_token(c, &next);
	c->r->pos = pos;
	if (next.type == T_RPAREN)
		return true;
	set_error(c, t->start, TCHESS_ERR_PGN_SYNTAX, "game ends inside a variation");
	return false;
}

/* The number of a move number token ("12." gives 12; over 65535 gives
 * 65535; "." alone gives 0). */
static unsigned movenum_value(const struct pgn_reader *r, const struct token *t)
{
	unsigned long v = 0;
	for (size_t i = t->start; i < t->end && r->buf[i] >= '0' && r->buf[i] <= '9'; i++)
		if ((v = v * 10 + (unsigned long)(r->buf[i] - '0')) > 65535)
			return 65535;
	return (unsigned)v;
}

static enum pgn_status read_game(struct ctx *c)
{
	struct pgn_reader *r = c->r;
	struct pgn_game *g = c->g;
	struct token t;
	bool movetext = false;

	for (;;) {
		next_token(c, &t);
		if (!c->any) {
			if (t.type == T_EOF)
				return PGN_END;
			/* Comments alone at the end of the input are no game. */
			if (t.type != T_COMMENT) {
				c->any = true;
				c->game_start = t.start;
				g->offset = t.start;
				locate(r, t.start, &g->line, &g->col);
			}
		}
		if (t.type == T_LBRACKET) {
			if (movetext && t.line_start) {
				/* The termination marker is missing; this tag starts the next game. */
				if (c->depth > 0) {
					set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "tag pair inside a variation");
					return fail(c, t.start, false);
				}
				r->pos = t.start;
				return finish(c, "");
			}
			if (movetext) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "tag pair inside movetext");
				return fail(c, t.end, true);
			}
			struct token name, value, close;
			next_token(c, &name);
			if (name.type != T_SYMBOL) {
				set_error(c, name.start, TCHESS_ERR_PGN_SYNTAX, "missing tag name after '['");
				return fail(c, name.start, true);
			}
			char *tag_name = xstrdup(c->text.p);
			next_token(c, &value);
			if (value.type != T_STRING || value.too_long) {
				free(tag_name);
				set_error(c, value.start, TCHESS_ERR_PGN_SYNTAX,
					  value.type == T_BAD_STRING ? "unterminated tag value"
					  : value.too_long	     ? "tag value too long"
								     : "missing tag value");
				return fail(c, value.type == T_BAD_STRING ? value.end : value.start, true);
			}
			char *tag_value = xstrdup(c->text.p ? c->text.p : "");
			next_token(c, &close);
			if (close.type != T_RBRACKET) {
				free(tag_name);
				free(tag_value);
				set_error(c, close.start, TCHESS_ERR_PGN_SYNTAX, "missing ']' after tag value");
				return fail(c, close.start, true);
			}
			if (g->n_tags >= PGN_TAGS_MAX) {
				free(tag_name);
				free(tag_value);
				set_error(c, t.start, TCHESS_ERR_RANGE, "more than %d tag pairs", PGN_TAGS_MAX);
				return fail(c, close.end, true);
			}
			if (tag_name && pgn_game_tag(g, tag_name) && t.line_start) {
				/* A repeated tag on a new line: a game of tags alone ended. */
				free(tag_name);
				free(tag_value);
				r->pos = t.start;
				if (!setup(c))
					return fail(c, t.start, false);
				return finish(c, "");
			}
			if (tag_name && !strcmp(tag_name, "FEN"))
				c->fen_off = value.start;
			if (tag_name && !strcmp(tag_name, "Variant"))
				c->variant_off = value.start;
			if (add_tag(g, tag_name, tag_value) != TCHESS_OK) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory");
				return fail(c, close.end, true);
			}
			continue;
		}
		if (t.type == T_EOF) {
			if (c->depth > 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "input ends inside a variation");
				return fail(c, t.start, false);
			}
			if (!c->setup_done && !setup(c))
				return fail(c, t.start, false);
			return finish(c, "");
		}

		/* An empty line then a move number that goes back (most often
		 * "1.") ends a game that has no termination marker: the number
		 * starts the next game, as python-chess reads it. Annotated files
		 * put empty lines inside movetext too, but go on with the number
		 * they stopped at. */
		if (movetext && t.blank_before && t.type == T_MOVENUM && c->depth == 0 && g->n_moves > 0 &&
		    movenum_value(r, &t) < c->pos.fullmove) {
			r->pos = t.start;
			return finish(c, "");
		}

		/* Everything else is movetext (a comment may sit among the tags). */
		if (t.type != T_COMMENT) {
			if (!c->setup_done && !setup(c))
				return fail(c, t.start, true);
			movetext = true;
		}

		switch (t.type) {
		case T_COMMENT:
			if (t.too_long) {
				set_error(c, t.start, TCHESS_ERR_RANGE, "comment longer than %u bytes", PGN_TOKEN_MAX);
				return fail(c, t.end, true);
			}
			if (c->depth == 0 && c->text.len &&
			    !add_comment(c, c->text.p, c->text.len)) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory");
				return fail(c, t.end, true);
			}
			break;
		case T_BAD_COMMENT:
			set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "unterminated comment");
			return fail(c, t.end, true);
		case T_MOVENUM:
			break;
		case T_NAG:
			if (t.nag < 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "bad NAG (must be $0 to $255)");
				return fail(c, t.start, true);
			}
			if (c->depth == 0 && g->n_moves)
				add_nag(&g->moves[g->n_moves - 1], t.nag);
			break;
		case T_LPAREN:
			if (c->depth == 0 ? g->n_moves == 0 : !c->rav_moves[c->depth]) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "variation before any move");
				return fail(c, t.start, true);
			}
			if (c->depth >= PGN_RAV_DEPTH_MAX) {
				set_error(c, t.start, TCHESS_ERR_RANGE, "variations nested deeper than %d",
					  PGN_RAV_DEPTH_MAX);
				return fail(c, t.start, true);
			}
			if (c->depth == 0) {
				flush_comment(c);
				struct pgn_move *pm = &g->moves[g->n_moves - 1];
				if (pm->n_variations < UINT16_MAX)
					pm->n_variations++;
			}
			g->n_variations++;
			c->rav_moves[++c->depth] = false;
			break;
		case T_RPAREN:
			if (c->depth == 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "')' without a variation to end");
				return fail(c, t.start, true);
			}
			c->depth--;
			break;
		case T_STAR:
			if (c->depth > 0) {
				if (!variation_result(c, &t))
					return fail(c, t.start, true);
				break;
			}
			return finish(c, "*");
		case T_SYMBOL: {
			const char *s = c->text.p;
			if (is_result(s)) {
				if (c->depth > 0) {
					if (!variation_result(c, &t))
						return fail(c, t.start, true);
					break;
				}
				char res[PGN_RESULT_MAX];
				snprintf(res, sizeof res, "%s", s);
				return finish(c, res);
			}
			int nag = text_nag(s);
			if (nag >= 0) {
				if (c->depth == 0 && g->n_moves)
					add_nag(&g->moves[g->n_moves - 1], nag);
				break;
			}
			if (!strcmp(s, "e.p.") || !strcmp(s, "ep"))
				break;
			if (c->depth > 0) {
				c->rav_moves[c->depth] = true;
				break;
			}
			if (!play_move(c, &t))
				return fail(c, t.start, true);
			break;
		}
		case T_RBRACKET:
		case T_STRING:
		case T_BAD_STRING:
		case T_BAD:
		default:
			set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "unexpected character '%c'",
				  r->buf[t.start] >= ' ' && r->buf[t.start] < 0x7F ? r->buf[t.start] : '?');
			return fail(c, t.start == t.end ? t.start + 1 : t.start, true);
		}
	}
}

enum pgn_status pgn_read_game(struct pgn_reader *r, struct pgn_game *g, struct pgn_error *err)
{
	struct ctx c;
	memset(&c, 0, sizeof c);
	c.r = r;
	c.g = g;
	c.err = err;
	pgn_game_init(g);
	if (err)
		memset(err, 0, sizeof *err);
	enum pgn_status st = read_game(&c);
	sb_free(&c.text);
	sb_free(&c.comment);
	return st;
}

/* ---- writing ---- */

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

/* Writes one movetext word, breaking the line before it if it would not fit. */
static void w_word(struct writer *w, const char *s, size_t n)
{
	if (w->col > 0 && w->col + 1 + n > PGN_LINE_MAX) {
		w_put(w, "\n", 1);
		w->col = 0;
		/* '%' in the first column would make the line an escape line. */
		if (n && s[0] == '%') {
			w_put(w, " ", 1);
			w->col++;
		}
	} else if (w->col > 0) {
		w_put(w, " ", 1);
		w->col++;
	}
	w_put(w, s, n);
	w->col += n;
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

/* Writes a comment as words: "{first", ..., "last}". */
static void w_comment(struct writer *w, int64_t clock_ms, const char *text)
{
	struct sbuf s = { 0 };
	char clk[48];
	char *clean = xstrdup(text ? text : "");
	if (!clean) {
		w->oom = true;
		return;
	}
	squeeze(clean);
	text = clean;
	bool ok = sb_putc(&s, '{');
	if (clock_ms >= 0) {
		char v[24];
		pgn_format_clock(clock_ms, v);
		snprintf(clk, sizeof clk, "[%%clk %s]", v);
		ok = ok && sb_put(&s, clk, strlen(clk));
		if (text && *text)
			ok = ok && sb_putc(&s, ' ');
	}
	for (const char *p = text ? text : ""; *p && ok; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch == '}')
			ch = ')';
		if (ch < ' ' || ch == 0x7F)
			ch = ' ';
		ok = sb_putc(&s, (char)ch);
	}
	/* A backslash just before '}' would escape it for readers like ours. */
	if (ok && s.len && s.p[s.len - 1] == '\\')
		ok = sb_putc(&s, ' ');
	ok = ok && sb_putc(&s, '}');
	free(clean);
	if (!ok) {
		w->oom = true;
		sb_free(&s);
		return;
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
	sb_free(&s);
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

static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

enum tchess_err pgn_write_game(const struct pgn_game *g, struct pgn_buf *out, struct tchess_error *err)
{
	struct writer w = { .out = out };
	size_t mark = out->len;
	const char *result = g->result[0] ? g->result : pgn_game_tag(g, "Result");
	if (!result || (!is_result(result) && strcmp(result, "*")))
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

	if (g->comment_start)
		w_comment(&w, -1, g->comment_start);
	struct position p = g->start;
	bool need_number = true;
	for (size_t i = 0; i < g->n_moves; i++) {
		const struct pgn_move *pm = &g->moves[i];
		char word[40], san[SAN_MAX];
		if (pm->m == MOVE_NONE) {
			if (position_in_check(&p)) {
				out->len = mark;
				if (out->data)
					out->data[mark] = '\0';
				return tchess_error_set(err, TCHESS_ERR_ILLEGAL, i, "move %zu: null move in check",
							i + 1);
			}
			strcpy(san, "--");
		} else if (!position_is_legal(&p, pm->m)) {
			out->len = mark;
			if (out->data)
				out->data[mark] = '\0';
			return tchess_error_set(err, TCHESS_ERR_ILLEGAL, i, "move %zu is not legal", i + 1);
		} else {
			san_write(&p, pm->m, san);
		}
		if (p.side == WHITE)
			snprintf(word, sizeof word, "%u.", p.fullmove);
		else if (need_number)
			snprintf(word, sizeof word, "%u...", p.fullmove);
		else
			word[0] = '\0';
		if (word[0]) {
			/* Keep the move number on the line of its move. */
			if (w.col > 0 && w.col + 1 + strlen(word) + 1 + strlen(san) > PGN_LINE_MAX) {
				w_put(&w, "\n", 1);
				w.col = 0;
			}
			w_word(&w, word, strlen(word));
		}
		w_word(&w, san, strlen(san));
		for (int k = 0; k < pm->n_nags; k++) {
			snprintf(word, sizeof word, "$%d", pm->nags[k]);
			w_word(&w, word, strlen(word));
		}
		need_number = false;
		if (pm->comment || pm->clock_ms >= 0) {
			w_comment(&w, pm->clock_ms, pm->comment);
			need_number = true;
		}
		if (pm->m == MOVE_NONE) {
			pgn_null_move(&p);
		} else {
			struct undo u;
			position_make(&p, pm->m, &u);
		}
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
