/*
 * The PGN tokenizer: one token at a time from a reader's position, with the
 * import-format leniencies of tchess/pgn.h (BOM, CR line ends, escape
 * lines, Unicode dashes and blanks, 1/2 as a symbol). Every call consumes
 * input or reports the end, and no byte is looked at more than a fixed
 * number of times, so the reader over it stays linear.
 */
#include <string.h>

#include "pgn-internal.h"

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

static bool at_column_one(const struct pgn_lexer *lx, size_t i)
{
	const unsigned char *b = (const unsigned char *)lx->r->buf;
	if (i == 0)
		return true;
	if (i == 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
		return true;
	return b[i - 1] == '\n' || b[i - 1] == '\r';
}

void pgn_lexer_next(struct pgn_lexer *lx, struct pgn_token *t)
{
	struct pgn_reader *r = lx->r;
	const unsigned char *b = (const unsigned char *)r->buf;
	size_t n = r->len, i = r->pos;
	int newlines = 0;
	bool blank = false;

	memset(t, 0, sizeof *t);
	pgn_sb_clear(&lx->text);
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
		} else if (ch == '%' && at_column_one(lx, i)) {
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
	t->line_start = newlines > 0 || r->pos == 0 || at_column_one(lx, i);
	t->blank_before = blank || newlines >= 2 || r->pos == 0;
	if (i >= n) {
		t->type = PGN_T_EOF;
		t->end = r->pos = n;
		return;
	}

	unsigned char ch = b[i];
	switch (ch) {
	case '[': t->type = PGN_T_LBRACKET; i++; break;
	case ']': t->type = PGN_T_RBRACKET; i++; break;
	case '(': t->type = PGN_T_LPAREN; i++; break;
	case ')': t->type = PGN_T_RPAREN; i++; break;
	case '*': t->type = PGN_T_STAR; i++; break;
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
		t->type = found ? PGN_T_STRING : PGN_T_BAD_STRING;
		if (vend - (t->start + 1) > PGN_TOKEN_MAX) {
			t->too_long = true;
			break;
		}
		for (size_t k = t->start + 1; k < vend; k++) {
			if (b[k] == '\\' && k + 1 < vend && (b[k + 1] == '"' || b[k + 1] == '\\'))
				k++;
			if (!pgn_sb_putc(&lx->text, (char)b[k])) {
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
			t->type = PGN_T_BAD_COMMENT;
			i = n;
			break;
		}
		t->type = PGN_T_COMMENT;
		if (j - i - 1 > PGN_TOKEN_MAX) {
			t->too_long = true;
		} else {
			for (size_t k = i + 1; k < j; k++) {
				if (b[k] == '\\' && k + 1 < j && (b[k + 1] == '}' || b[k + 1] == '\\'))
					k++;
				if (!pgn_sb_putc(&lx->text, (char)b[k])) {
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
		t->type = PGN_T_COMMENT;
		if (j - i - 1 > PGN_TOKEN_MAX)
			t->too_long = true;
		else if (!pgn_sb_put(&lx->text, (const char *)b + i + 1, j - i - 1))
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
		t->type = PGN_T_NAG;
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
				t->type = PGN_T_MOVENUM;
				i = j;
				break;
			}
			if (j > i && (j >= n || is_delim(b[j]) || utf8_blank(b + j, n - j))) {
				t->type = PGN_T_MOVENUM;
				i = j;
				break;
			}
		}
		if (is_delim(ch)) {
			t->type = PGN_T_BAD;
			i++;
			break;
		}
		/* A symbol, with Unicode dashes read as '-' and ½ as 1/2. */
		t->type = PGN_T_SYMBOL;
		while (i < n && !is_delim(b[i]) && !utf8_blank(b + i, n - i)) {
			size_t u;
			if ((u = utf8_dash(b + i, n - i)) > 0) {
				i += u;
				ch = '-';
			} else if (i + 1 < n && b[i] == 0xC2 && b[i + 1] == 0xBD) {
				i += 2;
				if (lx->text.len < PGN_SYMBOL_MAX)
					pgn_sb_put(&lx->text, "1/2", 3);
				continue;
			} else {
				ch = b[i++];
			}
			if (lx->text.len < PGN_SYMBOL_MAX)
				pgn_sb_putc(&lx->text, (char)ch);
			else
				t->too_long = true;
		}
		break;
	}
	t->end = r->pos = i;
}
