/*
 * The drawing helpers of draw.h. They draw into windows and leave the
 * flushing (wnoutrefresh, doupdate) to the screen's loop, except for the
 * help overlay, a window of its own that lives only while it is drawn.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../text-wrap.h"
#include "draw.h"
#include "util/text.h"
#include "util/xalloc.h"

WINDOW *ui_draw_newwin(int h, int w, int y, int x)
{
	if (h <= 0 || w <= 0)
		return NULL;
	return newwin(h, w, y, x);
}

void ui_draw_free_panes(WINDOW **pane, int n)
{
	for (int i = 0; i < n; i++) {
		if (pane[i])
			delwin(pane[i]);
		pane[i] = NULL;
	}
}

void ui_draw_put(WINDOW *w, int y, int x, const char *raw, int width)
{
	/* The one sanitiser for what the server (or anyone) sent: a control
	 * or bidirectional character, or a byte that is not UTF-8, becomes
	 * '?' before it reaches the terminal. */
	char *text = xstrdup(raw);
	text_sanitize(text);
	int cols = 0;
	size_t n = 0;
	/* Counts columns as UTF-8 lead bytes: every glyph tchess writes is
	 * one column wide. */
	while (text[n]) {
		if ((text[n] & 0xC0) != 0x80) {
			if (cols == width)
				break;
			cols++;
		}
		n++;
	}
	if (width > 0)
		mvwaddnstr(w, y, x, text, (int)n);
	free(text);
}

void ui_draw_put_fit(WINDOW *w, int y, int x, const char *text, int width, bool ascii)
{
	char buf[1024];
	if (width <= 0)
		return;
	text_wrap_fit(text, width, ascii ? "..." : "\u2026", buf, sizeof buf);
	ui_draw_put(w, y, x, buf, width);
}

int ui_draw_put_wrapped(WINDOW *w, int y, int x, const char *text, int width, int rows, bool ascii)
{
	char buf[1024];
	int used = 0;
	const char *p = text, *next;
	while (*p && used < rows) {
		if (used == rows - 1 || text_wrap_cols(p) <= width) {
			ui_draw_put_fit(w, y + used, x, p, width, ascii);
			return used + 1;
		}
		size_t n = text_wrap_line(p, width, &next);
		if (n == 0)
			break;
		snprintf(buf, sizeof buf, "%.*s", (int)n, p);
		ui_draw_put(w, y + used, x, buf, width);
		used++;
		p = next;
	}
	return used;
}

int ui_draw_cols(const char *text)
{
	int cols = 0;
	for (; *text; text++)
		cols += (*text & 0xC0) != 0x80;
	return cols;
}

void ui_draw_hline(WINDOW *w, int y, int width, bool ascii)
{
	if (ascii)
		mvwhline(w, y, 0, '-', width);
	else
		mvwhline_set(w, y, 0, WACS_HLINE, width);
}

void ui_draw_box(WINDOW *w, bool ascii)
{
	if (ascii)
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		box_set(w, WACS_VLINE, WACS_HLINE);
}

void ui_draw_status_bar(struct ui *ui, WINDOW *w)
{
	wattrset(w, ui_attr(ui, THEME_STATUS_FG, THEME_STATUS_BG) | (ui->ncolors ? 0 : (int)A_REVERSE));
	mvwhline(w, 0, 0, ' ', getmaxx(w));
}

int ui_draw_message_attr(struct ui *ui, bool error)
{
	return error ? ui_attr(ui, THEME_CLOCK_LOW, -1) | (int)A_BOLD : ui_attr(ui, THEME_TEXT, -1);
}

int ui_draw_selected_attr(struct ui *ui)
{
	if (ui->ncolors == 0)
		return (int)(A_REVERSE | A_BOLD);
	return ui_attr(ui, THEME_CURRENT_MOVE_FG, THEME_CURRENT_MOVE_BG) | (int)A_BOLD;
}

void ui_draw_help(struct ui *ui, const char *const *text, const char *footer, int width, int screen_w, int screen_h,
		  bool ascii)
{
	int n = 0;
	while (text[n])
		n++;
	int w = width, h = n + 2;
	/* Wide enough for its longest line ("... closes it)" lost its ')'
	 * in a box drawn to a fixed width). */
	for (int i = 0; i < n; i++)
		if (ui_draw_cols(text[i]) + 4 > w)
			w = ui_draw_cols(text[i]) + 4;
	if (w > screen_w)
		w = screen_w;
	if (h > screen_h)
		h = screen_h;
	/* The screen behind the box is blanked (all but the status line):
	 * a pane showing around its edges, cut off by it, reads as garbage
	 * ("5" of a clock's "4:55"). */
	WINDOW *bg = newwin(screen_h > 1 ? screen_h - 1 : 1, screen_w, 0, 0);
	if (bg) {
		wattrset(bg, ui_attr(ui, THEME_TEXT, -1));
		werase(bg);
		wnoutrefresh(bg);
		delwin(bg);
	}
	WINDOW *win = newwin(h, w, (screen_h - h) / 2, (screen_w - w) / 2);
	if (!win)
		return;
	wattrset(win, ui_attr(ui, THEME_STATUS_FG, THEME_STATUS_BG));
	werase(win);
	ui_draw_box(win, ascii);
	for (int i = 0; i < n && i + 1 < h - 1; i++)
		ui_draw_put_fit(win, i + 1, 2, text[i], w - 4, ascii);
	/* The footer sits in the bottom border, whole or not at all. */
	if (footer && ui_draw_cols(footer) + 2 <= w - 4)
		ui_draw_put(win, h - 1, 2, footer, w - 4);
	wnoutrefresh(win);
	delwin(win);
}

void ui_draw_too_small(int w, int h, const char *what, int min_w, int min_h)
{
	char text[320];
	const char *p, *next;
	int lines = 0, y;
	erase();
	/* Wrapped, not cut: the page is for terminals too narrow for it. */
	snprintf(text, sizeof text, "Terminal too small: %dx%d, %s needs at least %dx%d. Enlarge the window, or press q to quit.",
		 w, h, what, min_w, min_h);
	for (p = text; text_wrap_line(p, w, &next) > 0; p = next)
		lines++;
	y = lines < h ? (h - lines) / 2 : 0;
	for (p = text; y < h; p = next, y++) {
		size_t len = text_wrap_line(p, w, &next);
		if (len == 0)
			break;
		mvaddnstr(y, 0, p, (int)len);
	}
	wnoutrefresh(stdscr);
}
