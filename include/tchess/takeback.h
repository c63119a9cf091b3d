/*
 * Undo games (board-and-pieces rule 14: "While playing under the "Enable
 * undo" game, each player has to stop the clock after every move by
 * clicking on the "done" button."): the mover's turn as a provisional move
 * that may be taken back, any number of times, until "done" commits it.
 *
 * A struct takeback_turn sits beside a struct game and holds the mover's
 * provisional move, if any. The game itself only ever holds committed
 * moves: a provisional move is not in the game's history, does not end the
 * game (a mate is a mate at "done"), does not count for repetition and does
 * not press the clock, which keeps running for the mover until "done". The
 * board to show is the game's position with the provisional move made
 * (takeback_position). Anything that ends or changes the committed game
 * (a flag fall, a resignation, an agreed draw, a claim) drops the
 * provisional move: the caller clears the turn then.
 *
 * Like game.h, each command checks its input and the state first, and on
 * error returns a code, fills err if given and changes nothing.
 */
#ifndef TCHESS_TAKEBACK_H
#define TCHESS_TAKEBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/error.h"
#include "tchess/game.h"
#include "tchess/move.h"
#include "tchess/position.h"

struct takeback_turn {
	move pending;       /* the provisional move, or MOVE_NONE */
	int color;          /* its mover, or GAME_NOBODY */
	size_t ply;         /* the ply it is meant for (the game's n_plies) */
	int64_t made_ms;    /* when it was made */
	int takebacks;      /* moves taken back in this turn so far */
};

/* No provisional move. */
void takeback_init(struct takeback_turn *t);
/* Drops the provisional move and the turn's count (the turn is over). */
void takeback_clear(struct takeback_turn *t);
static inline bool takeback_pending(const struct takeback_turn *t) { return t->pending != MOVE_NONE; }

/* who makes m provisionally at at_ms. Refused when the game is not ongoing
 * (over or adjourned), when it is not who's move, when who has a
 * provisional move already (take it back first), or when m is illegal (the
 * message says why). */
enum tchess_err takeback_move(struct takeback_turn *t, const struct game *g, enum color who, move m, int64_t at_ms,
			      struct tchess_error *err);
/* who takes the provisional move back; refused without one of who's. */
enum tchess_err takeback_take_back(struct takeback_turn *t, const struct game *g, enum color who,
				   struct tchess_error *err);
/* who presses "done": the provisional move is played with game_play() at
 * at_ms with the mover's clock reading clock_ms after it, and the turn is
 * cleared. Refused without a provisional move of who's, or when the game
 * refuses the move (the turn is then unchanged). */
enum tchess_err takeback_done(struct takeback_turn *t, struct game *g, enum color who, int64_t at_ms,
			      int64_t clock_ms, struct tchess_error *err);
/* The board to show: the game's position, with the provisional move made
 * if there is one. */
void takeback_position(const struct takeback_turn *t, const struct game *g, struct position *out);

#endif
