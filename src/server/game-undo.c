/*
 * Undo games: a move is provisional until "done" commits it as the turn's
 * move; "takeback" withdraws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"

/* The common checks of an undo-game command for ply: 409 (or a stale ply)
 * unless the game runs and it is color's turn at ply; 422 if not an undo
 * game. */
static bool undo_turn_or_fail(const struct game_view *v, int color, int64_t ply, struct game_outcome *out)
{
	if (!v->undo) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "not an undo game: moves are final");
		return false;
	}
	enum fold_may may = fold_may_move(v, color, NULL);
	if (may != FOLD_MAY_NOT_TURN && !game_may_move_or_fail(v, may, out))
		return false;
	return game_action_ply_or_stale(v, ply, out) && game_may_move_or_fail(v, may, out);
}

/* POST moves in an undo game: a human's move is provisional (a public
 * provisional-move event); the clock runs on. The same move re-sent while
 * it stands is a retry; a move already committed is answered as game_move_play()
 * answers it. */
void game_undo_provisional(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
			const char *text, struct game_outcome *out)
{
	struct game_view *v = &lg->view;
	if (v->started && ply < (int64_t)v->game.n_plies) {
		game_move_retry_or_stale(gs, lg, color, viewer, ply, text, out);
		return;
	}
	if (!undo_turn_or_fail(v, color, ply, out))
		return;
	move m;
	struct tchess_error terr;
	if (notation_parse_move(&v->game.pos, text, strlen(text), &m, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	if (takeback_pending(&v->turn)) {
		if (v->turn.pending == m && game_action_retried(v, color, "provisional-move", ply))
			game_action_already_done(out, v);
		else
			game_fail(out, PROTOCOL_ERR_CONFLICT, "a provisional move stands: take it back or press done");
		return;
	}
	int64_t t_ms = game_txn_instant(v);
	if (game_move_flagged_first(gs, lg, t_ms, out))
		return;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_PROVISIONAL);
	e.color = color;
	e.ply = ply;
	uci_write(&v->game.pos, m, e.uci);
	san_write(&v->game.pos, m, e.san);
	struct position p = v->game.pos;
	struct undo u;
	position_make(&p, m, &u);
	fen_write(&p, e.fen);
	game_action_commit(gs, lg, viewer, &e, NULL, out);
}

void game_undo_takeback(struct game_action_call *c)
{
	struct game_service *gs = c->gs;
	struct live_game *lg = c->lg;
	const struct game_view *v = c->v;
	const struct protocol_action_request *req = c->req;
	struct game_outcome *out = c->out;
	int64_t me = c->me;
	int color = c->color;
	if (!takeback_pending(&v->turn) && game_action_retried(v, color, "move-taken-back", req->ply) &&
	    req->ply == (int64_t)v->game.n_plies) {
		game_action_already_done(out, v);
		return;
	}
	if (!undo_turn_or_fail(v, color, req->ply, out))
		return;
	if (!takeback_pending(&v->turn)) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "you have no provisional move to take back");
		return;
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_TAKEN_BACK);
	e.color = color;
	e.ply = req->ply;
	uci_write(&v->game.pos, v->turn.pending, e.uci);
	game_action_commit(gs, lg, me, &e, NULL, out);
}

/* "done": the provisional move is committed as the turn's move (a public
 * move event whose think_ms is the whole turn), the clock pressed, and the
 * opponent's premoves resolved, all in one transaction, as game_move_play() does
 * for an ordinary move. */
void game_undo_done(struct game_action_call *c)
{
	struct game_service *gs = c->gs;
	struct live_game *lg = c->lg;
	const struct game_view *v = c->v;
	const struct protocol_action_request *req = c->req;
	struct game_outcome *out = c->out;
	int64_t me = c->me;
	int color = c->color;
	/* A retry: the move for that ply is committed, and it was ours. */
	if (v->undo && req->ply >= 0 && req->ply < (int64_t)v->game.n_plies) {
		struct position p;
		if (!game_position_at(&v->game, (size_t)req->ply, &p, NULL) && p.side == color) {
			game_action_already_done(out, v);
			return;
		}
	}
	if (!undo_turn_or_fail(v, color, req->ply, out))
		return;
	if (!takeback_pending(&v->turn)) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "you have no provisional move: make one first");
		return;
	}
	int64_t t_ms = game_txn_instant(v);
	if (game_move_flagged_first(gs, lg, t_ms, out))
		return;
	game_move_commit(gs, lg, color, me, v->turn.pending, t_ms, out);
}
