/*
 * Engine analysis for review, through the engine pool (engine/engine.h),
 * in the background: the whole-game pass (every position of the main line
 * analysed within fixed limits, one engine, in order) and the shown
 * position's best lines (MultiPV, a second engine, the latest request
 * replacing the one before). The pool's callbacks run on its worker
 * threads and only store results under this module's lock; the screen
 * reads them on its own thread (review_engine_poll), so nothing here
 * touches the review model or the terminal.
 *
 * A finished pass is cached in $XDG_CACHE_HOME/tchess/analysis/ under the
 * SHA-256 of the engine, the limits and the game's moves, so reopening the
 * game is instant.
 */
#ifndef TCHESS_CLIENT_REVIEW_ENGINE_H
#define TCHESS_CLIENT_REVIEW_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"
#include "tchess/move.h"
#include "tchess/position.h"

struct review_engine;

/* The depth of tchess review's analyses unless told (--depth, --analyse=N):
 * quick enough for a whole game on one core in a few seconds, deep enough
 * to see the tactical blunders. */
#define REVIEW_ENGINE_DEPTH 12
#define REVIEW_ENGINE_DEPTH_MAX 60

/* The engine's verdict on one position of the pass. */
struct review_engine_eval {
	bool done;
	bool has_eval;                 /* false for a mated position */
	bool mate;
	int score;                     /* White's view: centipawns or moves to mate */
	char best[UCI_MAX];            /* its best move, "" when the position has none */
};

/* Told, on whatever thread, that something changed: the start finished,
 * a result or an error arrived. Called with this module's lock held: it
 * must only wake its owner (loop_wake), never call back in. */
typedef void review_engine_notify_fn(void *arg);

/* Starts the engine at path (NULL: stockfish, as tchessd finds it) for
 * analyses within lim (its multipv is the shown position's lines) without
 * waiting: the processes are spawned and put through the UCI handshake on
 * a thread of their own (each answer due within start_ms, 0: the pool's
 * default), which calls notify(arg) (NULL: none) when done, as do the
 * results after. Never NULL. */
struct review_engine *review_engine_start(const char *path, const struct engine_limits *lim, int64_t start_ms,
					  review_engine_notify_fn *notify, void *arg);
/* 1 once the engine is ready, 0 while it starts, -1 when it could not
 * start, with why in buf (size bytes; buf may be NULL). */
int review_engine_started(struct review_engine *re, char *buf, size_t size);

/* review_engine_start() waited for: returns NULL with *err (caller frees)
 * when the engine cannot start. For tchess review --plain. */
struct review_engine *review_engine_new(const char *path, const struct engine_limits *lim, char **err);
/* Stops the engines (a search is abandoned). One still starting is not
 * waited for: its thread frees it when the handshake ends (at the pool's
 * start deadline at worst), and never notifies again. NULL is a no-op. */
void review_engine_free(struct review_engine *re);

/* The path of the engine running. */
const char *review_engine_path(const struct review_engine *re);

/* Starts the pass over start + moves[0..n) (n + 1 positions), replacing
 * any pass before. Reads the cache first: when it holds the game, every
 * position is done at once and nothing is asked of the engine. Returns 0,
 * or -1 with *err when a move is not legal or the engine is not ready. */
int review_engine_pass(struct review_engine *re, const struct position *start, const move *moves, size_t n,
		       char **err);

/* How many positions of the pass are done, of how many (0 of 0 before a
 * pass). Once all are, the pass is written to the cache. */
void review_engine_progress(struct review_engine *re, size_t *done, size_t *total);

/* Position i of the pass into *out; false when there is none. */
bool review_engine_eval_at(struct review_engine *re, size_t i, struct review_engine_eval *out);

/* Asks for the best lines of the position start + moves[0..n) (MultiPV of
 * the limits), withdrawing the request for the one shown before. Nothing
 * until the engine is ready. */
void review_engine_show(struct review_engine *re, const struct position *start, const move *moves, size_t n);

/* The lines of the position last asked for with review_engine_show, with
 * its FEN (fen_write) in fen (FEN_MAX bytes): true once the engine has
 * answered. */
bool review_engine_shown(struct review_engine *re, struct engine_analysis *out, char *fen);

/* A counter that moves whenever a result arrives (or an error: see
 * review_engine_error), so the screen knows when to look again. */
unsigned long review_engine_serial(struct review_engine *re);

/* The last error the engine gave, or "" (copied into buf). */
void review_engine_error(struct review_engine *re, char *buf, size_t size);

/* Waits until the pass is done or the engine failed; for
 * tchess review --plain --analyse. Returns 0, or -1 with the error in
 * buf. */
int review_engine_wait(struct review_engine *re, char *buf, size_t size);

#endif
