/*
 * The settings screen on the terminal: a title, one row per setting with
 * its value, the message line (what was saved, or why not) and the keys.
 * Drawn whole on stdscr; the logic is screen-settings.c.
 */
#include <stdio.h>

#include "tcurses.h"

#include "../settings.h"
#include "draw.h"
#include "ui.h"

void ui_settings_draw(struct ui *ui, const struct settings *st)
{
	int w, h;
	char line[160];
	getmaxyx(stdscr, h, w);
	werase(stdscr);
	if (w < 40 || h < 10) {
		ui_draw_too_small(w, h, "tchess settings", 40, 10);
		return;
	}
	wattrset(stdscr, ui_attr(ui, THEME_HEADING, -1) | A_BOLD);
	ui_draw_put(stdscr, 0, 0, "Settings", w);
	for (int r = 0; r < SETTINGS_ROW_NB; r++) {
		bool sel = r == st->sel;
		wattrset(stdscr, sel ? ui_draw_selected_attr(ui) : ui_attr(ui, THEME_TEXT, -1));
		settings_row_text(st, r, line, sizeof line);
		if (sel) {
			line[0] = '>';
			mvwhline(stdscr, 2 + r, 0, ' ', w);
		}
		ui_draw_put(stdscr, 2 + r, 0, line, w);
	}
	wattrset(stdscr, ui_draw_message_attr(ui, st->message_error));
	ui_draw_put_wrapped(stdscr, h - 3, 0, st->message, w, 2, false);
	wattrset(stdscr, ui_attr(ui, THEME_STATUS_FG, THEME_STATUS_BG) | (ui->ncolors ? 0 : (int)A_REVERSE));
	mvwhline(stdscr, h - 1, 0, ' ', w);
	ui_draw_put(stdscr, h - 1, 0, "settings | Up/Down select  Left/Right or Enter change  q back", w);
	wattrset(stdscr, A_NORMAL);
	wnoutrefresh(stdscr);
}
