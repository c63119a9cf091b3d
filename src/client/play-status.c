/*
 * The play screen's status line (see play-status.h). What goes first when
 * the terminal is narrow: the round-trip time, then "q quit" (the help
 * lists it), then the game's id, then "online" (a connection in trouble
 * always stays), then the key hints from the right; the turn or the
 * standing offer and "? help" always stay, "m menu" goes last.
 */
#include <stdio.h>

#include "play-status.h"
#include "status-line.h"

enum {
	PLAY_STATUS_KEYS_MAX = 6
};

size_t play_status_line(const struct session *s, int width, char *buf, size_t size)
{
	static const char *const conn[] = { "connecting", "online", "reconnecting..." };
	char id[32], rtt[32] = "", req[160];
	const char *why;
	const char *keys[PLAY_STATUS_KEYS_MAX] = { NULL };
	struct status_line_item it[4 + PLAY_STATUS_KEYS_MAX];
	size_t n = 0;

	snprintf(id, sizeof id, "%s%.8s", s->me < 0 ? "watching " : "game ", s->game_id);
	if (s->rtt_ms >= 0)
		snprintf(rtt, sizeof rtt, "rtt %lld ms", (long long)s->rtt_ms);
	const char *turn = s->gone == SESSION_GONE_ACCOUNT ? "account unknown"
			   : s->gone		   ? "game gone"
			   : !s->view.started ? "not started"
			   : session_over(s) ? "game over"
			   : fold_adjourned(&s->view) ? "adjourned"
			   : session_my_turn(s) && !s->hotseat ? "your move"
			   : session_turn(s) == WHITE ? "White to move" : "Black to move";
	/* A standing offer or request takes the place of the key hints (it
	 * names its own keys); so does an undo game's reminder to press d. */
	bool asked = !s->gone && (session_request_text(s, req, sizeof req) || session_undo_text(s, req, sizeof req));
	if (!asked) {
		int k = 0;
		if (!s->gone && session_over(s) && session_rematch_possible(s, &why))
			keys[k++] = "r rematch";
		if (!s->gone && session_over(s) && session_new_game_possible(s))
			keys[k++] = "n new game";
		if (!s->gone && session_over(s)) {
			keys[k++] = "s save PGN";
			keys[k++] = "j notes";
		} else if (s->gone || s->me < 0 || !s->view.started) {
			/* Nothing to move, offer or resign yet, or ever again
			 * once the game is not followed. */
			keys[k++] = "f flip";
		} else {
			/* Every letter a move can start with is the move's:
			 * the rest is in the menu (resign, leave...). */
			keys[k++] = "m menu";
			keys[k++] = "= draw";
		}
		keys[k++] = "? help";
		if (!session_typing_moves(s))
			keys[k++] = "q quit";
	}
	it[n++] = (struct status_line_item){ STATUS_LINE_FIELD, id, 30 };
	it[n++] = (struct status_line_item){ STATUS_LINE_FIELD, asked ? req : turn, 0 };
	/* No connection to speak of once the polling has stopped. */
	if (!s->gone) {
		it[n++] = (struct status_line_item){ STATUS_LINE_FIELD, conn[s->conn],
						     s->conn == SESSION_CONN_ONLINE ? 20 : 0 };
		it[n++] = (struct status_line_item){ STATUS_LINE_DETAIL, rtt, 50 };
	}
	for (int k = 0; k < PLAY_STATUS_KEYS_MAX && keys[k]; k++) {
		bool help = keys[k][0] == '?', menu = keys[k][0] == 'm', quit = keys[k][0] == 'q';
		it[n++] = (struct status_line_item){ STATUS_LINE_KEY, keys[k],
						     help ? 0 : menu ? 1 : quit ? 40 : 10 - k };
	}
	return status_line_fit(it, n, width, buf, size);
}
