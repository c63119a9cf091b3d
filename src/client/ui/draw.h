/*
 * Drawing helpers the screens (play, review, tournaments) share: the
 * width-limited text writer, panes, rules and boxes that honour ASCII
 * mode, the status and message line looks, the help overlay and the
 * "terminal too small" page. One place each, so the screens look alike.
 */
#ifndef TCHESS_CLIENT_UI_DRAW_H
#define TCHESS_CLIENT_UI_DRAW_H

#include <stdbool.h>

#include "tcurses.h"

#include "ui.h"

/* A new window, or NULL when h or w is not positive (curses would take 0
 * as "to the edge of the screen"). */
WINDOW *ui_draw_newwin(int h, int w, int y, int x);

/* Deletes the n windows of pane (NULL ones skipped) and sets them NULL. */
void ui_draw_free_panes(WINDOW **pane, int n);

/* Writes at most width columns of UTF-8 text at (y, x); nothing when width
 * is not positive. Every text a screen draws goes through here: control and
 * bidirectional characters and bytes that are not UTF-8 are drawn as '?'
 * (text_sanitize), whoever sent them. */
void ui_draw_put(WINDOW *w, int y, int x, const char *text, int width);
/* text on row y from x in at most width columns, shortened at a word
 * boundary with an ellipsis ("..." in ASCII mode) instead of cut mid-word
 * (text_wrap_fit). */
void ui_draw_put_fit(WINDOW *w, int y, int x, const char *text, int width, bool ascii);
/* text wrapped at blanks over rows y.. (at most rows of them, the last
 * shortened as ui_draw_put_fit does); returns the rows used. */
int ui_draw_put_wrapped(WINDOW *w, int y, int x, const char *text, int width, int rows, bool ascii);
/* The columns UTF-8 text takes (every glyph tchess writes is one wide). */
int ui_draw_cols(const char *text);

/* A rule across row y of w: box-drawing line, or '-' in ASCII mode. The
 * wide-character call works in every UTF-8 terminal, where the ACS_
 * alternate character set is sometimes shown as letters. */
void ui_draw_hline(WINDOW *w, int y, int width, bool ascii);

/* A border round w: box-drawing lines, or '|', '-' and '+' in ASCII mode. */
void ui_draw_box(WINDOW *w, bool ascii);

/* Clears the one-row status window w in the status colours (reverse video
 * without colour) and leaves that attribute set for the text. */
void ui_draw_status_bar(struct ui *ui, WINDOW *w);

/* The attribute of the message line: the low-clock colour, bold, for an
 * error; plain text otherwise. */
int ui_draw_message_attr(struct ui *ui, bool error);

/* The attribute of a selected row: the current-move colours, bold (reverse
 * video without colour). */
int ui_draw_selected_attr(struct ui *ui);

/* The help overlay: the lines of text (up to a NULL) in a box at most
 * width columns wide, centred on a screen of screen_w x screen_h, over a
 * blank screen (the status line stays); footer (NULL: none) in its bottom
 * border when it fits whole. Draw it after the panes, in every pass that
 * draws one. */
void ui_draw_help(struct ui *ui, const char *const *text, const char *footer, int width, int screen_w, int screen_h,
		  bool ascii);

/* The page shown instead of a screen on a terminal of w x h that is
 * smaller than min_w x min_h; what names the screen ("tchess play"). */
void ui_draw_too_small(int w, int h, const char *what, int min_w, int min_h);

#endif
