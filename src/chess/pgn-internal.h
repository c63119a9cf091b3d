/*
 * What the PGN files of libtchess share and nothing else sees: growable
 * strings, the comment helpers, the text NAG table, and the tokenizer
 * (pgn-lexer.c) that the reader (pgn-read.c) drives.
 */
#ifndef TCHESS_PGN_INTERNAL_H
#define TCHESS_PGN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/pgn.h"

/* ---- growable strings (pgn.c); every function returns false (s
 * unchanged) when memory runs out ---- */

struct pgn_sbuf {
	char *p;
	size_t len, cap;
};

bool pgn_sb_reserve(struct pgn_sbuf *s, size_t more);
bool pgn_sb_put(struct pgn_sbuf *s, const char *d, size_t n);
bool pgn_sb_putc(struct pgn_sbuf *s, char ch);
void pgn_sb_clear(struct pgn_sbuf *s);
void pgn_sb_free(struct pgn_sbuf *s);
/* Moves the text out of s as a malloc'd string the caller owns (NULL when
 * memory runs out); s is left empty. */
char *pgn_sb_take(struct pgn_sbuf *s);

/* A malloc'd copy of s, or NULL when memory runs out (libtchess does not
 * abort: its callers get TCHESS_ERR_NO_MEMORY). */
char *pgn_strdup(const char *s);

/* ---- the game (pgn.c) ---- */

/* Appends a tag, taking ownership of name and value (freed on failure;
 * either NULL is TCHESS_ERR_NO_MEMORY). */
enum tchess_err pgn_add_tag(struct pgn_game *g, char *name, char *value);
/* Appends an empty move (no comment, NAG, clock or evaluation) to the
 * array moves (*n used, *cap allocated), or NULL when memory runs out. */
struct pgn_move *pgn_moves_push(struct pgn_move **moves, size_t *n, size_t *cap);
/* The same on g's main line. */
struct pgn_move *pgn_push_move(struct pgn_game *g);
/* Frees moves[0..n), their comments and variations, and the array. */
void pgn_moves_free(struct pgn_move *moves, size_t n);

/* ---- comments and annotations (pgn.c) ---- */

/* Collapses runs of blanks and control characters to one space and trims
 * the ends, in place. */
void pgn_squeeze(char *s);
/* Takes every well-formed [%clk ...] and [%eval ...] out of text (edited
 * in place, in one pass); the last one's value of each goes to *clock_ms
 * and *eval. A malformed one stays in the text. */
void pgn_take_commands(char *text, int64_t *clock_ms, struct pgn_eval *eval);
/* The NAG a text annotation ("!", "+-", "N", ...) stands for, or -1. */
int pgn_text_nag(const char *s);
/* Whether s is "1-0", "0-1" or "1/2-1/2". */
bool pgn_is_result(const char *s);

/* ---- the tokenizer (pgn-lexer.c) ---- */

enum pgn_tok {
	PGN_T_EOF,
	PGN_T_LBRACKET,
	PGN_T_RBRACKET,
	PGN_T_STRING,
	PGN_T_BAD_STRING,
	PGN_T_COMMENT,
	PGN_T_BAD_COMMENT,
	PGN_T_LPAREN,
	PGN_T_RPAREN,
	PGN_T_NAG,
	PGN_T_SYMBOL,
	PGN_T_MOVENUM,
	PGN_T_STAR,
	PGN_T_BAD
};

struct pgn_token {
	enum pgn_tok type;
	size_t start, end;
	bool line_start;     /* nothing but blanks before it on its line */
	bool blank_before;   /* an empty line (or the input start) lies before it */
	bool too_long;
	int nag;             /* PGN_T_NAG: 0..255, or -1 when out of range */
};

/* Longest symbol kept; longer ones are marked too_long. */
#define PGN_SYMBOL_MAX 64

struct pgn_lexer {
	struct pgn_reader *r;   /* the input, and the position read from */
	struct pgn_sbuf text;   /* the last token's unescaped text */
};

/* Reads the next token from lx->r->pos and moves past it; at the end of
 * the input it gives PGN_T_EOF (again at every call). */
void pgn_lexer_next(struct pgn_lexer *lx, struct pgn_token *t);

#endif
