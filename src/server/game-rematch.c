/*
 * Rematch series: offers after the end, and accepting one, which creates
 * and starts the next game in the same store transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/token.h"
#include "util/xalloc.h"

/* Accepting a rematch: the new game (colours swapped, the same time
 * control, ruleset, start position and undo option, a fresh clock: rule
 * 13) is created and started, and the old game's accepted event names it,
 * in one store transaction, so neither exists without the other. */
static void rematch_accept(struct game_service *gs, struct live_game *lg, int64_t me, int color,
			   struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	struct fold_event c, e;
	fold_event_init(&c, FOLD_EV_CREATED);
	snprintf(c.tc, sizeof c.tc, "%s", v->tc);
	snprintf(c.ruleset, sizeof c.ruleset, "%s", v->game.rules.name);
	fen_write(&v->game.start, c.fen);
	snprintf(c.opponent, sizeof c.opponent, "%s", v->opponent);
	c.undo = v->undo;
	c.seats[WHITE] = v->seats[BLACK];
	c.seats[BLACK] = v->seats[WHITE];
	fold_series_next(v, lg->id, &c.series);

	struct live_game *ng = xcalloc(1, sizeof *ng);
	fold_view_init(&ng->view);
	ng->created_ms = now_wall_ms();
	if (token_random_hex(ng->id, TOKEN_ID_BYTES)) {
		game_registry_live_free(ng);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	int64_t t_ms = game_txn_instant(v);
	struct game_txn t, nt;
	if (game_txn_begin(&t, gs, lg, out)) {
		game_registry_live_free(ng);
		return;
	}
	/* The new game's transaction rides on the old game's store
	 * transaction (no store_begin of its own). */
	memset(&nt, 0, sizeof nt);
	nt.gs = gs;
	nt.lg = ng;
	fold_view_copy(&nt.work, &ng->view);
	struct store_game row = { .created_ms = ng->created_ms, .params = "{}" };
	snprintf(row.id, sizeof row.id, "%s", ng->id);
	snprintf(row.status, sizeof row.status, "open");
	game_action_request_event(&e, v, color, FOLD_REQ_REMATCH, FOLD_REQ_ACCEPTED);
	snprintf(e.game, sizeof e.game, "%s", ng->id);
	if (store_game_create(gs->srv->store, &row)) {
		game_store_failed(gs, out);
		goto fail;
	}
	if (game_txn_add(&nt, &c, 0, ng->created_ms, out) || game_seat_start_if_full(&nt, ng->created_ms, out) ||
	    game_txn_add(&t, &e, 0, t_ms, out)) {
		if (out->err.code == PROTOCOL_ERR_BAD_REQUEST)
			out->err.code = PROTOCOL_ERR_ILLEGAL;
		goto fail;
	}
	game_txn_row_of(ng, &nt.work, &row);
	row.params = "{}";
	if (store_game_update(gs->srv->store, &row)) {
		game_store_failed(gs, out);
		goto fail;
	}
	if (game_txn_commit(&t, me, out))
		goto fail;
	/* Committed: the new game goes live, its events in its ring, made
	 * visible to polls once durable like any commit's. */
	fold_view_fini(&ng->view);
	ng->view = nt.work;
	for (size_t i = 0; i < nt.n; i++) {
		game_txn_ring_add(ng, &nt.ev[i], nt.visible_to[i]);
		protocol_event_fini(&nt.ev[i]);
	}
	game_registry_insert(gs, ng);
	game_txn_publish(gs, ng);
	game_timer_poke(gs, ng);
	log_info("game %s: rematch accepted: game %s (series %s, game %d)", lg->id, ng->id, c.series.id,
		 c.series.game);
	return;
fail:
	game_txn_abort(&nt);
	game_txn_abort(&t);
	game_registry_live_free(ng);
}

void game_rematch_run(struct game_action_call *c)
{
	const struct game_view *v = c->v;
	int color = c->color;
	struct fold_event e;
	game_action_request_event(&e, v, color, FOLD_REQ_REMATCH, game_action_request_of(c->action));
	if (game_action_request_retried(v, color, &e, c->req->ply)) {
		game_action_already_done(c->out, v);
		return;
	}
	if (!v->created || !game_is_over(&v->game)) {
		game_fail(c->out, PROTOCOL_ERR_CONFLICT, "the game is not over: a rematch follows a finished game");
		return;
	}
	if (!game_action_ply_or_stale(v, c->req->ply, c->out))
		return;
	/* An offer lapses when a player leaves, so one to an opponent who
	 * has left already (quiet for the grace, not yet recorded gone) is
	 * refused rather than made to lapse at once. Not in correspondence,
	 * where nobody is expected to stay connected: the offer stands until
	 * it is answered or withdrawn. */
	int64_t now = now_wall_ms();
	if (c->action == PROTOCOL_ACTION_OFFER && v->clock.tc.kind != TC_CORRESPONDENCE && v->rematch_by < 0 &&
	    !v->absent[!color] && game_presence_gone_at(c->gs, c->lg, !color) <= now) {
		game_fail(c->out, PROTOCOL_ERR_ILLEGAL, "your opponent has left (no request for %lld s)",
			  (long long)((now - c->lg->last_seen[!color]) / 1000));
		return;
	}
	if (c->action == PROTOCOL_ACTION_ACCEPT && v->rematch_by == !color && !v->next_game[0])
		rematch_accept(c->gs, c->lg, c->me, color, c->out);
	else
		game_action_commit(c->gs, c->lg, c->me, &e, NULL, c->out);
}
