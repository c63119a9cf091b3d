/*
 * The home screen on the terminal: a title, the rows home.h builds (the
 * actions, the player's games, the live ones), the message line and the
 * status line (the join prompt while it is open). The screen's logic and
 * requests are screen-home.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcurses.h"

#include "../home.h"
#include "draw.h"
#include "ui.h"
#include "util/xalloc.h"

enum ui_home_pane { PANE_BODY, PANE_MESSAGE, PANE_STATUS, PANE_NB };

struct ui_home {
	struct ui *ui;
	struct home *h;
	WINDOW *pane[PANE_NB];
};

struct ui_home *ui_home_new(struct ui *ui, struct home *h)
{
	struct ui_home *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->h = h;
	return p;
}

void ui_home_free(struct ui_home *p)
{
	if (!p)
		return;
	ui_draw_free_panes(p->pane, PANE_NB);
	free(p);
}

void ui_home_layout(struct ui_home *p)
{
	const struct home *h = p->h;
	ui_draw_free_panes(p->pane, PANE_NB);
	if (h->w < HOME_MIN_WIDTH || h->h < HOME_MIN_HEIGHT)
		return;
	p->pane[PANE_BODY] = ui_draw_newwin(h->h - 2, h->w, 0, 0);
	p->pane[PANE_MESSAGE] = ui_draw_newwin(1, h->w, h->h - 2, 0);
	p->pane[PANE_STATUS] = ui_draw_newwin(1, h->w, h->h - 1, 0);
}

static void ui_home_draw_body(struct ui_home *p, WINDOW *w)
{
	const struct home *h = p->h;
	int width = getmaxx(w), height = getmaxy(w);
	char line[HOME_LINE_MAX];
	werase(w);
	wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
	ui_draw_put(w, 0, 0, "tchess: terminal chess", width);
	for (int y = 2; y < height; y++) {
		int row = h->top + y - 2;
		if (row >= home_rows(h))
			break;
		size_t i;
		enum home_row_kind k = home_row(h, row, &i);
		bool sel = row == h->sel && !h->typing;
		int a = ui_attr(p->ui, THEME_TEXT, -1);
		if (k == HOME_ROW_HEADING)
			a = ui_attr(p->ui, THEME_HEADING, -1) | (int)A_BOLD;
		else if (k == HOME_ROW_COLUMNS)
			a = ui_attr(p->ui, THEME_HEADING, -1);
		else if (sel)
			a = ui_draw_selected_attr(p->ui);
		wattrset(w, a);
		home_row_text(h, row, line, sizeof line);
		if (sel)
			line[0] = '>';
		if (sel)
			mvwhline(w, y, 0, ' ', width);
		ui_draw_put(w, y, 0, line, width);
	}
	wattrset(w, A_NORMAL);
}

void ui_home_draw(struct ui_home *p, unsigned dirty)
{
	const struct home *h = p->h;
	char line[HOME_LINE_MAX];
	if (!p->pane[PANE_BODY]) {
		ui_draw_too_small(h->w, h->h, "tchess", HOME_MIN_WIDTH, HOME_MIN_HEIGHT);
		return;
	}
	if (dirty & HOME_DIRTY_BODY) {
		ui_home_draw_body(p, p->pane[PANE_BODY]);
		wnoutrefresh(p->pane[PANE_BODY]);
	}
	if (dirty & HOME_DIRTY_MESSAGE) {
		WINDOW *w = p->pane[PANE_MESSAGE];
		werase(w);
		wattrset(w, ui_draw_message_attr(p->ui, h->message_error));
		ui_draw_put(w, 0, 0, h->message, getmaxx(w));
		wattrset(w, A_NORMAL);
		wnoutrefresh(w);
	}
	if (dirty & HOME_DIRTY_STATUS) {
		WINDOW *w = p->pane[PANE_STATUS];
		ui_draw_status_bar(p->ui, w);
		home_status_text(h, line, sizeof line);
		ui_draw_put(w, 0, 0, line, getmaxx(w));
		wattrset(w, A_NORMAL);
		wnoutrefresh(w);
	}
}
