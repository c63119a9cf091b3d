/*
 * A Lichess game as the play screen reads it: the lines of the Board API's
 * game stream (gameFull, then gameState, chatLine, opponentGone; decoded
 * by tchess/lichess.h) turned into the same struct game_view the shared
 * fold gives for a tchessd game, so one play screen shows both.
 *
 * The view is built by folding game-created, game-started and one move
 * event per UCI move of the list (the moves checked by libtchess as any
 * fold's are). Every gameState carries the whole list: when it extends
 * the list seen, only the new moves are folded; otherwise (a take-back)
 * the view is rebuilt from the start. Castling arrives as e1g1 or as
 * king-takes-rook (e1h1): both are read. Lichess decides the clocks and
 * the result: the view's clock is set to wtime/btime as the line arrived,
 * the side to move's running from that instant once both sides moved, and
 * a final status ends the game in the view with its termination and
 * winner. Draw offers are the game's offer_by; take-back proposals, the
 * chat and the opponent's absence are kept beside the view.
 *
 * Times: the view's instants are the client's monotonic milliseconds
 * (mono_ms, passed in), so fold_clock_read(view, mono_ms) counts down.
 */
#ifndef TCHESS_CLIENT_LICHESS_GAME_H
#define TCHESS_CLIENT_LICHESS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/fold.h"
#include "tchess/lichess.h"

#define LICHESS_CHAT_MAX 64       /* chat lines kept; the oldest go */
#define LICHESS_PREMOVE_DEPTH 3   /* premoves queued here (Lichess keeps none) */

struct lichess_chat_line {
	char user[LICHESS_NAME_MAX];
	char text[LICHESS_TEXT_MAX];   /* printable: control characters are '?' */
};

/* What an applied line changed (bits). */
enum {
	LICHESS_CHANGED_GAME = 1 << 0,   /* gameFull: everything */
	LICHESS_CHANGED_MOVES = 1 << 1,  /* moves added */
	LICHESS_CHANGED_TAKEBACK = 1 << 2, /* the list got shorter: rebuilt */
	LICHESS_CHANGED_CLOCK = 1 << 3,
	LICHESS_CHANGED_OFFERS = 1 << 4, /* draw or take-back flags */
	LICHESS_CHANGED_CHAT = 1 << 5,
	LICHESS_CHANGED_GONE = 1 << 6,   /* the opponent left or came back */
	LICHESS_CHANGED_OVER = 1 << 7    /* a final status arrived */
};

struct lichess_game {
	char id[LICHESS_ID_MAX];
	char me_id[LICHESS_NAME_MAX];   /* my user id (lower case), "" unknown */
	int me;                         /* WHITE, BLACK, or -1 (watching, or not known yet) */
	bool full;                      /* a gameFull was applied */
	struct lichess_player players[2];
	char speed[LICHESS_WORD_MAX];
	bool rated;
	struct game_view view;
	char *moves;                    /* the list the view holds ("" none) */
	char status[LICHESS_WORD_MAX];
	int winner;                     /* -1 none */
	bool takeback[2];               /* each side's take-back proposal stands */
	/* The clock as the last gameState gave it, at anchor_ms. */
	bool timed;
	int64_t clock_ms[2];
	int64_t anchor_ms;
	int running;                    /* the side whose clock runs, CLOCK_NOBODY none */
	/* The first-move deadline (expiration), mono ms; INT64_MAX none. */
	int64_t first_move_by_ms;
	/* The opponent left: the win may be claimed from claim_at_ms
	 * (INT64_MAX: not yet told when). */
	bool opponent_gone;
	int64_t claim_at_ms;
	struct lichess_chat_line chat[LICHESS_CHAT_MAX];
	int n_chat;                     /* lines kept, oldest first */
	long chat_total;                /* lines received */
	int64_t seq;                    /* events folded into the view so far */
};

/* A game with id (may be "" until gameFull names it) played by the user
 * me_id (NULL or "" to watch). */
void lichess_game_init(struct lichess_game *g, const char *id, const char *me_id);
void lichess_game_fini(struct lichess_game *g);

/* Applies one decoded game-stream line that arrived at mono_ms. Returns
 * the LICHESS_CHANGED_ bits (0: nothing changed, or a type this model
 * passes over), or -1 with a message in err when the line contradicts the
 * game (a gameState before the gameFull, an illegal move in the list, a
 * gameFull of another game): the model is then unchanged. */
int lichess_game_apply(struct lichess_game *g, const struct lichess_msg *m, int64_t mono_ms, char *err,
		       size_t errsize);

/* c's remaining time at mono_ms (counted down from the last gameState;
 * CLOCK_UNLIMITED for a game without a clock). */
int64_t lichess_game_clock_ms(const struct lichess_game *g, int c, int64_t mono_ms);
/* Whether the game is over (a final status arrived). */
bool lichess_game_over(const struct lichess_game *g);
/* Milliseconds until the win may be claimed, 0 when it may be now, -1 when
 * the opponent is not gone (or the game is over). */
int64_t lichess_game_claim_in_ms(const struct lichess_game *g, int64_t mono_ms);
/* The status as a sentence for the screen ("Black resigned", "White ran
 * out of time", "the game was aborted"); "" while the game goes on. */
void lichess_game_end_text(const struct lichess_game *g, char *buf, size_t size);

#endif
