/*
 * The screens the loop runs (loop.h): each pairs a model that knows
 * nothing of the terminal (session.h, review.h, tourney.h) with its
 * drawing in ui/, and is the only place where that screen talks to the
 * network and the protocol codec.
 *
 *   screen-play.c     a game played or watched: the session over the
 *                     game's long-poll and its command requests
 *   screen-review.c   a PGN file's games, offline
 *   screen-tourney.c  the tournament list and one tournament; opening a
 *                     game pushes a play screen on top
 *   screen-home.c     the home screen of plain `tchess`: games started,
 *                     joined, continued or watched from there, and the
 *                     tournaments, each pushed on top
 *
 * Each *_new returns the screen's state for loop_push with its ops.
 */
#ifndef TCHESS_CLIENT_SCREENS_H
#define TCHESS_CLIENT_SCREENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loop.h"

struct game_backend;
struct review;
struct session;
struct tourney_view;
struct ui;

extern const struct screen_ops screen_play_ops;
/* The play (or watch) screen of s on ui. s stays the caller's; when the
 * screen closes, closed (if not NULL) is called with ctx and s, after
 * which the screen no longer touches s. */
struct screen_play;
struct screen_play *screen_play_new(struct ui *ui, struct session *s, void (*closed)(void *ctx, struct session *s),
				    void *ctx);
/* The screen's backend (backend.h): tchessd's until the caller puts
 * another in its place before the screen is pushed (the owner stays the
 * screen). */
struct game_backend *screen_play_backend(struct screen_play *p);
/* Why the screen of s closed without showing the game (a refused poll, a
 * game gone, an account unknown): true with the text in why. */
bool screen_play_failure(const struct session *s, char *why, size_t size);

extern const struct screen_ops screen_review_ops;
struct tablebase;
/* The review screens of r (the caller's) on ui; engine analysis (key a)
 * with the UCI engine at engine (NULL: stockfish) to depth, given up when
 * it has not started within start_s seconds (0: the engine pool's 10); the
 * verdicts of tb (the caller's; NULL for none) on positions it has tables
 * for. */
struct screen_review *screen_review_new(struct ui *ui, struct review *r, const char *engine, int depth, int start_s,
				       struct tablebase *tb);

extern const struct screen_ops screen_tourney_ops;
/* The tournament screens of v (the caller's) on ui; its games open as
 * play screens drawn in ASCII when game_ascii. */
struct screen_tourney *screen_tourney_new(struct ui *ui, struct tourney_view *v, bool game_ascii);

extern const struct screen_ops screen_home_ops;
/* What the home screen gives the screens it opens. */
struct screen_home_opts {
	bool ascii;          /* games and tournaments drawn in ASCII */
	bool bell;           /* the config file's bell */
	int move_alert;      /* and its move_alert (session.h) */
	int64_t low_time_ms; /* and its low-time threshold (-1: by the time control) */
	int64_t player;      /* the player's id (0: none) */
	/* Makes a hotseat game with time control tc (NULL: none offered):
	 * 0 with its id and *host (the seat of the net's own token), or -1
	 * with why in err. */
	int (*hotseat)(void *ctx, const char *tc, char *id, size_t size, int *host, char *err, size_t errsize);
	/* Whether game id, opened from "my games", is a hotseat game of
	 * the player's (1, with *host: the seat of the net's own token, the
	 * guest's token set on the net) or not (0). Same ctx. */
	int (*hotseat_of)(void *ctx, const char *id, int *host);
	void *hotseat_ctx;
	/* For the settings screen: the config file read at start, and the
	 * theme in use. */
	const struct config *cfg;
	const char *theme_name;
};
struct config;
extern const struct screen_ops screen_settings_ops;
/* The settings screen (settings.h) over the config c and the theme in use,
 * writing to the config file at path; its changes go to opts (the home
 * screen's, the caller's) for the games opened from now on. */
struct screen_settings *screen_settings_new(struct ui *ui, const struct config *c, const char *theme_name,
					    const char *path, struct screen_home_opts *opts);

struct home;
/* The home screen of h (the caller's) on ui. */
struct screen_home *screen_home_new(struct ui *ui, struct home *h, const struct screen_home_opts *opts);

#endif
