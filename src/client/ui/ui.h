/*
 * The terminal layer: the only part of tchess that includes curses (with
 * the rest of ui/). It starts and stops curses, turns theme colours into
 * colour pairs, and turns curses key codes into the keys of keys.h.
 *
 * A struct ui hangs off the caller; there is no global UI state beyond
 * what curses itself keeps.
 */
#ifndef TCHESS_CLIENT_UI_H
#define TCHESS_CLIENT_UI_H

#include <stdbool.h>

#include "../board-view.h"
#include "../review.h"
#include "../session.h"
#include "../theme.h"

#define UI_PAIRS_MAX 256

struct net;

struct ui {
	struct theme theme;
	int ncolors;        /* colours the theme may use: 0 without colour */
	int npairs;
	short pair_fg[UI_PAIRS_MAX], pair_bg[UI_PAIRS_MAX];
	bool started;
	void *screen;       /* the curses SCREEN */
};

/* Starts curses on the terminal with theme t (copied). A theme that wants
 * colour on a terminal without it falls back to monochrome. Returns 0, or
 * -1 with a message when the terminal cannot be used. */
int ui_start(struct ui *ui, const struct theme *t, char *err, size_t errsize);
/* Restores the terminal. Safe to call twice. */
void ui_stop(struct ui *ui);

/* The curses attribute (colour pair included) for foreground slot fg on
 * background slot bg of the theme; slot -1 is the terminal's default. */
int ui_attr(struct ui *ui, int fg_slot, int bg_slot);

/* Reads one key, blocking until there is one (no timeout: idle costs no
 * CPU). Returns a keys.h code, KEYS_RESIZE after a resize, or KEYS_NONE
 * when the terminal has gone away. */
int ui_read_key(void);

/* Reads one key if one is waiting (stdin in nodelay mode); KEYS_NONE
 * otherwise. */
int ui_poll_key(void);

/* Runs the play (or watch) screen of s over n until the user quits.
 * Returns 0, or -1 when the terminal went away. */
int ui_play_run(struct ui *ui, struct session *s, struct net *n);

/* Runs the review screens on r until the user quits. */
void ui_review_run(struct ui *ui, struct review *r);

struct tourney_view;
/* Runs the play (color WHITE/BLACK) or watch (-1) screen of game id on ui
 * and returns 0 when the user leaves it, or -1 with why in err (errsize
 * bytes) when the game could not be shown. */
typedef int (*ui_tourney_open_fn)(void *ctx, struct ui *ui, const char *id, int color, char *err, size_t errsize);
/* Runs the tournament screens of v over n until the user quits; games open
 * through open_game. Returns 0, or -1 when the terminal went away. */
int ui_tourney_run(struct ui *ui, struct tourney_view *v, struct net *n, ui_tourney_open_fn open_game, void *ctx);

#endif
