/*
 * Spectating a Lichess game: the lines of its public stream
 * (GET /api/stream/game/{id}: the game's description, then one position
 * a move with the move that made it and both clocks in seconds, then the
 * description again with the result) turned into the Board API's
 * messages (gameFull, then gameState with the whole move list), so that
 * the Lichess game model (lichess-game.h) and the play screen show a
 * watched game as they show a played one. The public stream gives no
 * moves before the position it starts from: the game is shown from
 * there (the description's FEN as its start), and each position that
 * follows adds its move.
 */
#ifndef TCHESS_CLIENT_LICHESS_WATCH_H
#define TCHESS_CLIENT_LICHESS_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "tchess/lichess.h"

struct lichess_watch {
	bool have_full;
	char *moves;                          /* UCI since start_fen, blank-separated */
	char start_fen[LICHESS_FEN_MAX];
	char placement[LICHESS_FEN_MAX];      /* the last position's board (a FEN's first field) */
	int64_t wtime_ms, btime_ms, inc_ms;
	char status[LICHESS_WORD_MAX];
	int winner;
};

void lichess_watch_init(struct lichess_watch *w);
void lichess_watch_fini(struct lichess_watch *w);

/* The message one decoded line makes, into m (lichess_msg_fini frees it).
 * Returns 1 with m, 0 for a line that changes nothing to hand over (a
 * position already shown), or -1 with a message (a position before the
 * description, or one that does not follow from the last with its move
 * missing). */
int lichess_watch_msg(struct lichess_watch *w, const struct lichess_watch_line *l, struct lichess_msg *m, char *err,
		      size_t errsize);

#endif
