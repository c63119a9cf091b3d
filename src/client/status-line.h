/*
 * The one-row status lines of the screens, fitted to the terminal's width
 * by leaving out whole items (a detail, a key hint) instead of letting the
 * edge of the screen cut a word in half ("? help  q qu"). The screens name
 * the items and how soon each may go; this file, free of curses, decides
 * what is left, so the tests can read the line at any width.
 */
#ifndef TCHESS_CLIENT_STATUS_LINE_H
#define TCHESS_CLIENT_STATUS_LINE_H

#include <stddef.h>

/* Separators: between fields, between key hints, before a detail. */
#define STATUS_LINE_FIELD " | "
#define STATUS_LINE_KEY "  "
#define STATUS_LINE_DETAIL ", "

struct status_line_item {
	const char *sep;    /* put before the text unless it comes first; a
			     * key hint (STATUS_LINE_KEY) after a field is
			     * set off as a field */
	const char *text;   /* NULL or "": no item */
	int drop;           /* 0: always kept; otherwise the highest goes first */
};

/* The columns text takes on the screen (UTF-8: one per character). */
int status_line_width(const char *text);

/* Joins the n items into buf (size bytes) and, while the line is wider
 * than width columns, leaves out the item with the highest drop rank (the
 * rightmost of equals). Items of rank 0 stay even if the line is then
 * still too wide (the screen cuts it). Returns the length of buf. */
size_t status_line_fit(const struct status_line_item *items, size_t n, int width, char *buf, size_t size);

#endif
