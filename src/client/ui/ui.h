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

struct ui {
	struct theme theme;
	int ncolors;        /* colours the theme may use: 0 without colour */
	int term_colors;    /* the terminal's colours: 0 without colour */
	int npairs;
	int pair_fg[UI_PAIRS_MAX], pair_bg[UI_PAIRS_MAX];
	bool started;
	void *screen;       /* the curses SCREEN */
	/* The columns the terminal gave a chess glyph at start (1, 2...),
	 * 0 when not measured (no answer, or not a UTF-8 locale). */
	int glyph_cols;
	/* The config file's mouse = off: no mouse reports asked for. */
	bool mouse_off;
};

/* How long the self-check waits for the terminal's answer: a local
 * terminal answers in a millisecond or two, one over ssh in a round trip. */
#define UI_PROBE_TIMEOUT_MS 250

/* The terminal self-check (ui/probe.c): writes a chess glyph at the start
 * of the line on out and asks the terminal where the cursor went, waiting
 * up to timeout_ms for the answer on in (put in raw mode meanwhile, then
 * restored; the glyph is erased). Returns the columns the glyph took, or
 * 0 when in or out is no terminal or none answered in time. */
int ui_probe_glyph_cols(int in, int out, int timeout_ms);
/* The column of a cursor position report (ESC [ row ; col R) in buf, the
 * last one when several: 0 with *col, -1 when there is none. */
int ui_probe_parse(const char *buf, size_t len, int *col);

/* Starts curses on the terminal with theme t (copied). A theme that wants
 * colour on a terminal without it falls back to monochrome. Returns 0, or
 * -1 with a message when the terminal cannot be used. */
int ui_start(struct ui *ui, const struct theme *t, char *err, size_t errsize);
/* Restores the terminal. Safe to call twice. */
void ui_stop(struct ui *ui);
/* Draws with theme t (copied) from now on, monochrome when the terminal
 * has no colour; the screens then redraw everything. */
void ui_set_theme(struct ui *ui, const struct theme *t);

/* The curses attribute (colour pair included) for foreground slot fg on
 * background slot bg of the theme; slot -1 is the terminal's default. */
int ui_attr(struct ui *ui, int fg_slot, int bg_slot);

/* Reads one key if one is waiting (stdin in nodelay mode); KEYS_NONE
 * otherwise. */
int ui_poll_key(void);

/* The terminal's size in columns and lines. */
void ui_size(int *w, int *h);
/* Reads keys without waiting (the loop waits, loop.c). */
void ui_input_start(void);
/* Mouse reports on (the play screen's board, the home screen's rows) or
 * off; never on when ui->mouse_off. */
void ui_mouse(const struct ui *ui, bool on);
/* The mouse event waiting (after KEYS_MOUSE) as a click of the first
 * button at column *x, line *y: true for a press or a click, false for
 * anything else (a release, another button, no event). */
bool ui_mouse_click(int *x, int *y);
/* Hands what the screens drew to the terminal: one flush a pass. */
void ui_flush(void);
/* Rings the terminal's bell. */
void ui_beep(void);
/* Flashes the screen once (the terminal's visible bell). */
void ui_flash(void);
/* The screens drawn from a fresh terminal, after another screen had it. */
void ui_clear(void);

/* The play (or watch) screen's drawing state over s (both stay the
 * caller's: ui_play_free does not free s). */
struct ui_play;
struct ui_play *ui_play_new(struct ui *ui, struct session *s);
/* Frees p and its panes; NULL is a no-op. */
void ui_play_free(struct ui_play *p);
/* Makes the panes for s->layout (after a SESSION_CMD_RESIZE). */
void ui_play_layout(struct ui_play *p);
/* Draws what dirty (SESSION_DIRTY_*) says. */
void ui_play_draw(struct ui_play *p, unsigned dirty);
/* The mouse event waiting (after KEYS_MOUSE) as a session command,
 * SESSION_CMD_NONE for none: a press picks or drops, a release on another
 * square finishes a drag. */
struct session_cmd ui_play_mouse(struct ui_play *p);

/* The review screens' drawing state over r (the caller's). */
struct ui_review;
struct ui_review *ui_review_new(struct ui *ui, struct review *r);
void ui_review_free(struct ui_review *s);
/* Makes the panes for r->layout (after REVIEW_CMD_RESIZE). */
void ui_review_layout(struct ui_review *s);
/* Draws what dirty (REVIEW_DIRTY_*) says. */
void ui_review_draw(struct ui_review *s, unsigned dirty);

/* The tournament screens' drawing state over v (the caller's). */
struct tourney_view;
struct ui_tourney;
struct ui_tourney *ui_tourney_new(struct ui *ui, struct tourney_view *v);
void ui_tourney_free(struct ui_tourney *p);
/* Makes the panes for v's size (after TOURNEY_CMD_RESIZE). */
void ui_tourney_layout(struct ui_tourney *p);
/* Draws what dirty (TOURNEY_DIRTY_*) says. */
void ui_tourney_draw(struct ui_tourney *p, unsigned dirty);

/* The home screen's drawing state over h (the caller's). */
struct home;
struct ui_home;
struct ui_home *ui_home_new(struct ui *ui, struct home *h);
void ui_home_free(struct ui_home *p);
/* Makes the panes for h's size (after HOME_CMD_RESIZE). */
void ui_home_layout(struct ui_home *p);
/* Draws what dirty (HOME_DIRTY_*) says. */
void ui_home_draw(struct ui_home *p, unsigned dirty);

/* The settings screen (settings.h), drawn whole. */
struct settings;
void ui_settings_draw(struct ui *ui, const struct settings *st);

#endif
