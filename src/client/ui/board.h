/*
 * The board pane, drawn from its view model (board-view.h).
 */
#ifndef TCHESS_CLIENT_UI_BOARD_H
#define TCHESS_CLIENT_UI_BOARD_H

#include "tcurses.h"

#include "ui.h"

/* Draws v into w (at least g->width x g->height) with the ui's theme. */
void ui_board_draw(struct ui *ui, WINDOW *w, const struct board_geometry *g, const struct board_view *v);

#endif
