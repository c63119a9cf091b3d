/*
 * Word wrapping for the few messages a screen shows as a paragraph (the
 * "terminal too small" page): lines broken at blanks so that a narrow
 * terminal shows every word instead of cutting the sentence at its edge;
 * and one-line texts (a PGN's Event tag) shortened at a word boundary with
 * an ellipsis instead of ending mid-word.
 * Free of curses, so the tests can read the lines at any width.
 */
#ifndef TCHESS_CLIENT_TEXT_WRAP_H
#define TCHESS_CLIENT_TEXT_WRAP_H

#include <stddef.h>

/* The next line of UTF-8 text (one column per character) wrapped at width
 * columns: returns how many bytes of text it takes (trailing blanks not
 * counted) and sets *next to where the line after it starts (blanks
 * skipped). A word longer than width is cut at width. 0 with *next ==
 * text at the end of the text, or when width is not positive. */
size_t text_wrap_line(const char *text, int width, const char **next);

/* The columns of UTF-8 text (one per character). */
int text_wrap_cols(const char *text);

/* text on one line of at most width columns into buf (size bytes): the
 * whole of it when it fits, else as many whole words as fit before
 * ellipsis ("\u2026", or "..." on an ASCII terminal), a word cut only when
 * the first alone is too long. Leading blanks are skipped. Returns the
 * columns taken (0 for a width that is not positive). */
int text_wrap_fit(const char *text, int width, const char *ellipsis, char *buf, size_t size);

#endif
