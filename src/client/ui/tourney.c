/*
 * The tournament screens on the terminal: the list of tournaments and one
 * tournament's standings, crosstable and games (tourney.h holds the model
 * and builds the lines; this file only draws them). The screen's logic,
 * its requests and the game it opens are screen-tourney.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcurses.h"

#include "../keys.h"
#include "../tourney.h"
#include "draw.h"
#include "ui.h"
#include "util/xalloc.h"

enum ui_tourney_pane { PANE_BODY, PANE_MESSAGE, PANE_STATUS, PANE_NB };

struct ui_tourney {
	struct ui *ui;
	struct tourney_view *v;
	WINDOW *pane[PANE_NB];
};

static void ui_tourney_make_panes(struct ui_tourney *p)
{
	const struct tourney_view *v = p->v;
	ui_draw_free_panes(p->pane, PANE_NB);
	if (v->w < TOURNEY_MIN_WIDTH || v->h < TOURNEY_MIN_HEIGHT)
		return;
	p->pane[PANE_BODY] = newwin(v->h - 2, v->w, 0, 0);
	p->pane[PANE_MESSAGE] = newwin(1, v->w, v->h - 2, 0);
	p->pane[PANE_STATUS] = newwin(1, v->w, v->h - 1, 0);
}

static void ui_tourney_draw_list(struct ui_tourney *p, WINDOW *w)
{
	const struct tourney_view *v = p->v;
	int width = getmaxx(w), height = getmaxy(w);
	char line[TOURNEY_LINE_MAX];
	werase(w);
	wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
	tourney_list_header(line, sizeof line);
	ui_draw_put(w, 0, 0, line, width);
	if (!v->n_list) {
		wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
		ui_draw_put(w, 2, 1, "No tournaments yet: tchess tournament create --players N --tc TC", width - 1);
	}
	for (int y = 1; y < height; y++) {
		size_t i = (size_t)(v->list_top + y - 1);
		if (i >= v->n_list)
			break;
		bool sel = i == v->list_sel;
		wattrset(w, sel ? ui_draw_selected_attr(p->ui) : ui_attr(p->ui, THEME_TEXT, -1));
		tourney_list_line(&v->list[i], line, sizeof line);
		line[0] = sel ? '>' : ' ';
		mvwhline(w, y, 0, ' ', width);
		ui_draw_put(w, y, 0, line, width);
	}
	wattrset(w, A_NORMAL);
}

static void ui_tourney_draw_detail(struct ui_tourney *p, WINDOW *w)
{
	const struct tourney_view *v = p->v;
	int width = getmaxx(w), height = getmaxy(w);
	werase(w);
	if (!v->have_t) {
		ui_draw_put(w, 0, 0, "loading the tournament...", width);
		return;
	}
	for (int y = 0; y < height; y++) {
		size_t i = (size_t)(v->top + y);
		if (i >= v->n_lines)
			break;
		const struct tourney_line *l = &v->lines[i];
		int a = ui_attr(p->ui, THEME_TEXT, -1);
		if (l->kind == TOURNEY_LINE_HEADING)
			a = ui_attr(p->ui, THEME_HEADING, -1) | (int)A_BOLD;
		if ((long)i == v->sel_line)
			a = ui_draw_selected_attr(p->ui);
		wattrset(w, a);
		if ((long)i == v->sel_line)
			mvwhline(w, y, 0, ' ', width);
		ui_draw_put(w, y, 0, l->text, width);
		if ((long)i == v->sel_line)
			mvwaddstr(w, y, 0, ">");
	}
	wattrset(w, A_NORMAL);
}

static void ui_tourney_draw_message(struct ui_tourney *p, WINDOW *w)
{
	const struct tourney_view *v = p->v;
	werase(w);
	wattrset(w, ui_draw_message_attr(p->ui, v->message_error));
	ui_draw_put(w, 0, 0, v->message, getmaxx(w));
	wattrset(w, A_NORMAL);
}

static void ui_tourney_draw_status(struct ui_tourney *p, WINDOW *w)
{
	const struct tourney_view *v = p->v;
	int width = getmaxx(w);
	char line[300];
	tourney_status_line(v, width, line, sizeof line);
	ui_draw_status_bar(p->ui, w);
	ui_draw_put(w, 0, 0, line, width);
	wattrset(w, A_NORMAL);
}

static const char *const ui_tourney_help_text[] = {
	"tchess tournaments: keys",
	"",
	"  Up Down  j k      move the selection",
	"  PgUp PgDn         a page",
	"  Enter  o          open the tournament / the game",
	"                    (your running game is played, others watched)",
	"  r                 register (the stake is debited)",
	"  w                 withdraw before the start (refunded)",
	"  a                 your games / all games",
	"  h  l              the crosstable's columns, when it is wider",
	"                    than the screen",
	"  u                 update from the server",
	"  Esc  <            back to the list",
	"  Ctrl-L            redraw",
	"  q                 quit",
	NULL,
};

void ui_tourney_draw(struct ui_tourney *p, unsigned dirty)
{
	const struct tourney_view *v = p->v;
	if (dirty & TOURNEY_DIRTY_CLEAR) {
		erase();
		wnoutrefresh(stdscr);
	}
	if (!p->pane[PANE_BODY]) {
		ui_draw_too_small(v->w, v->h, "tchess tournament", TOURNEY_MIN_WIDTH, TOURNEY_MIN_HEIGHT);
		return;
	}
	if (dirty & (TOURNEY_DIRTY_BODY | TOURNEY_DIRTY_CLEAR)) {
		if (v->screen == TOURNEY_SCREEN_LIST)
			ui_tourney_draw_list(p, p->pane[PANE_BODY]);
		else
			ui_tourney_draw_detail(p, p->pane[PANE_BODY]);
		wnoutrefresh(p->pane[PANE_BODY]);
	}
	if (dirty & (TOURNEY_DIRTY_STATUS | TOURNEY_DIRTY_CLEAR)) {
		ui_tourney_draw_message(p, p->pane[PANE_MESSAGE]);
		wnoutrefresh(p->pane[PANE_MESSAGE]);
		ui_tourney_draw_status(p, p->pane[PANE_STATUS]);
		wnoutrefresh(p->pane[PANE_STATUS]);
	}
	/* Drawn last whenever anything was, so no pane shows through. */
	if (v->help && dirty)
		ui_draw_help(p->ui, ui_tourney_help_text, NULL, 70, v->w, v->h, v->ascii);
}

struct ui_tourney *ui_tourney_new(struct ui *ui, struct tourney_view *v)
{
	struct ui_tourney *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->v = v;
	return p;
}

void ui_tourney_free(struct ui_tourney *p)
{
	if (!p)
		return;
	ui_draw_free_panes(p->pane, PANE_NB);
	free(p);
}

void ui_tourney_layout(struct ui_tourney *p)
{
	ui_tourney_make_panes(p);
}
