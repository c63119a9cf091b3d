/*
 * Play: moves (the one move path, for humans and engine seats), the
 * premoves resolved in the same transaction, the premove queue command,
 * the flag falling on a late move, and resignation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "tchess/movegen.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

/* After a move: the game-ended event if the move ended the game. */
int game_move_end_if_over(struct game_txn *t, int64_t t_ms, struct game_outcome *out)
{
	if (!game_is_over(&t->work.game))
		return 0;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(t->work.game.termination));
	return game_txn_add(t, &e, 0, t_ms, out);
}

/* After a move: the side to move's premove queue is resolved in the same
 * transaction: played with zero thinking time, or discarded with a private
 * event to its owner. Played premoves may end the game, or leave the next
 * one for the opponent's next move. */
int game_move_resolve_premoves(struct game_txn *t, int64_t t_ms, struct game_outcome *out)
{
	while (fold_running(&t->work)) {
		int side = game_side_to_move(&t->work.game);
		struct premove_queue q = t->work.premoves[side];
		if (q.n == 0)
			return 0;
		char first[PREMOVE_TEXT_MAX];
		char why[FOLD_REASON_MAX];
		move m;
		premove_write(&q.items[0], t->work.game.pos.chess960, first);
		enum premove_verdict verdict = premove_queue_resolve(&q, &t->work.game.pos, &m, why, sizeof why);
		struct fold_event e;
		if (verdict == PREMOVE_PLAY) {
			fold_move_event(&e, &t->work, m, 0, true);
			if (game_txn_add(t, &e, 0, t_ms, out) || game_move_end_if_over(t, t_ms, out))
				return -1;
			continue;
		}
		if (verdict == PREMOVE_DISCARD) {
			fold_event_init(&e, FOLD_EV_PREMOVE_DISCARDED);
			e.color = side;
			e.ply = (int64_t)t->work.game.n_plies;
			snprintf(e.uci, sizeof e.uci, "%s", first);
			snprintf(e.reason, sizeof e.reason, "%s", why);
			return game_txn_add(t, &e, t->work.seats[side].player, t_ms, out);
		}
		return 0;
	}
	return 0;
}

/* Ends the game on time at t_ms (the running side's flag has fallen). */
int game_move_flag(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out)
{
	struct game_txn t;
	if (game_txn_begin(&t, gs, lg, out))
		return -1;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TIMEOUT));
	e.color = lg->view.clock.running;
	if (game_txn_add(&t, &e, 0, t_ms, out) || game_txn_commit(&t, 0, out))
		return -1;
	log_info("game %s: %s flag fell", lg->id, fold_color_str(e.color));
	return 0;
}

/* The mover's time ran out before this command: the game ends on time
 * (as for a late move) and the command is refused. Returns true then. */
bool game_move_flagged_first(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out)
{
	if (clock_expiry(&lg->view.clock, NULL) > t_ms)
		return false;
	if (game_move_flag(gs, lg, t_ms, out))
		return true;
	protocol_events_fini(&out->events);
	game_fail(out, PROTOCOL_ERR_CONFLICT, "your time ran out: the game is over (%s)",
	     game_termination_str(lg->view.game.termination));
	return true;
}

static int keep_event(void *arg, const struct store_event *ev)
{
	struct protocol_events *evs = arg;
	struct protocol_event *e = &evs->events[evs->n++];
	e->seq = ev->seq;
	e->t_ms = ev->created_ms;
	snprintf(e->type, sizeof e->type, "%s", ev->type);
	e->data = xstrdup(ev->payload ? ev->payload : "{}");
	return 1;
}

/* A retried move: the same move by the same side for a ply already played
 * is answered with its original event; anything else is stale. */
void game_move_retry_or_stale(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
			   const char *text, struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	struct position p;
	move m;
	if (ply < 0 || (size_t)ply >= v->game.n_plies || game_position_at(&v->game, (size_t)ply, &p, NULL) ||
	    p.side != color || notation_parse_move(&p, text, strlen(text), &m, NULL) ||
	    m != v->game.plies[ply].m) {
		game_fail_stale(out, v, ply);
		return;
	}
	out->events.events = xcalloc(1, sizeof *out->events.events);
	if (store_events_after(gs->srv->store, lg->id, v->plies[ply].seq - 1, viewer, 1, keep_event, &out->events) ||
	    out->events.n != 1) {
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	out->events.seq = v->seq;
	out->events.now_ms = now_wall_ms();
	out->status = 200;
}

bool game_may_move_or_fail(const struct game_view *v, enum fold_may may, struct game_outcome *out)
{
	switch (may) {
	case FOLD_MAY_MOVE:
		return true;
	case FOLD_MAY_OVER:
		game_fail(out, PROTOCOL_ERR_CONFLICT, "the game is over (%s)", game_termination_str(v->game.termination));
		break;
	case FOLD_MAY_NOT_STARTED:
		game_fail(out, PROTOCOL_ERR_CONFLICT, "the game has not started: a seat is free");
		break;
	case FOLD_MAY_ADJOURNED:
		game_fail(out, PROTOCOL_ERR_CONFLICT, "the game is adjourned: resume it first");
		break;
	case FOLD_MAY_NOT_TURN:
		game_fail(out, PROTOCOL_ERR_CONFLICT, "it is not your move");
		break;
	}
	return false;
}

/* The one move path: humans (through the API) and engine seats. */
void game_move_play(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
		 const char *text, struct game_outcome *out)
{
	struct game_view *v = &lg->view;
	enum fold_may may = fold_may_move(v, color, NULL);
	/* A move for a ply already played is a retry, answered even once
	 * the game is over; a seat still free refuses every move first. */
	if (may == FOLD_MAY_NOT_STARTED) {
		game_may_move_or_fail(v, may, out);
		return;
	}
	if (ply != (int64_t)v->game.n_plies) {
		game_move_retry_or_stale(gs, lg, color, viewer, ply, text, out);
		return;
	}
	if (!game_may_move_or_fail(v, may, out))
		return;
	int64_t t_ms = game_txn_instant(v);
	if (fold_clock_expiry(v) <= t_ms) {
		/* The move came too late: the flag fell first. */
		if (game_move_flag(gs, lg, t_ms, out))
			return;
		protocol_events_fini(&out->events);
		game_fail(out, PROTOCOL_ERR_CONFLICT, "your time ran out: the game is over (%s)",
		     game_termination_str(lg->view.game.termination));
		return;
	}
	move m;
	struct tchess_error terr;
	if (notation_parse_move(&v->game.pos, text, strlen(text), &m, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	game_move_commit(gs, lg, color, viewer, m, t_ms, out);
}

void game_move_commit(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, move m, int64_t t_ms,
		      struct game_outcome *out)
{
	struct fold_clock_reading before;
	fold_clock_read(&lg->view, t_ms, &before);
	struct game_txn t;
	if (game_txn_begin(&t, gs, lg, out))
		return;
	struct fold_event e;
	fold_move_event(&e, &t.work, m, before.running == color ? before.turn_used_ms : 0, false);
	if (game_txn_add(&t, &e, 0, t_ms, out) || game_move_end_if_over(&t, t_ms, out) ||
	    game_move_resolve_premoves(&t, t_ms, out))
		return;
	game_txn_commit(&t, viewer, out);
}

void game_service_move(struct game_service *gs, int64_t me, const char *id, const struct protocol_move_request *req,
		       struct game_outcome *out)
{
	int color;
	/* On a shared store the move runs first on the game as this node
	 * has it: its append, at the seq this node folded, proves that
	 * current (a node behind is refused, catches up and runs it again),
	 * so the read of the last seq that a command starts with is made
	 * only when the move appended nothing (refused, or a ply already
	 * played): one round trip less for nearly every move. */
	struct live_game *lg = game_seat_enter_held(gs, me, id, &color);
	bool checked = lg == NULL;
	if (!lg && !(lg = game_seat_enter(gs, me, id, &color, out)))
		return;
	int tries = 0;
	int64_t was;
	do {
		was = lg->view.seq;
		if (lg->view.undo)
			game_undo_provisional(gs, lg, color, me, req->ply, req->move, out);
		else
			game_move_play(gs, lg, color, me, req->ply, req->move, out);
	} while (game_retry(out, &tries) || game_registry_fresh_after(gs, &lg, was, &checked, out));
	if (!lg)
		return;
	game_presence_account(gs, lg, color, out);
	game_txn_answer_for(lg, me, out);
}

static void premoves(struct game_service *gs, struct live_game *lg, int color, int64_t me,
		     const struct protocol_premoves_request *req, struct game_outcome *out)
{
	struct game_view *v = &lg->view;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.color = color;
	e.ply = (int64_t)v->game.n_plies;
	if (!req) {
		if (v->premoves[color].n == 0) {
			out->status = 200;
			out->events.seq = v->seq;
			out->events.now_ms = now_wall_ms();
			return;
		}
	} else {
		/* The one rule (fold_may_move): a side premoves while the game
		 * runs, not adjourned, and it is the other side's move. */
		enum fold_may may = fold_may_move(v, color, NULL);
		if (may != FOLD_MAY_MOVE && may != FOLD_MAY_NOT_TURN) {
			game_may_move_or_fail(v, may, out);
			return;
		}
		if (req->ply != (int64_t)v->game.n_plies) {
			game_fail_stale(out, v, req->ply);
			return;
		}
		if (may == FOLD_MAY_MOVE) {
			game_fail(out, PROTOCOL_ERR_CONFLICT, "it is your move: play it instead");
			return;
		}
		struct premove_queue q;
		premove_queue_init(&q);
		for (int i = 0; i < req->n; i++) {
			struct premove pm;
			struct tchess_error terr;
			if (premove_parse_uci(req->moves[i], strlen(req->moves[i]), &pm, &terr) != TCHESS_OK ||
			    premove_queue_push(&q, &v->game.pos, (enum color)color, pm, &v->game.rules, &terr) !=
				    TCHESS_OK) {
				game_fail(out, PROTOCOL_ERR_ILLEGAL, "premove %d (%s): %s", i + 1, req->moves[i],
				     terr.message);
				return;
			}
		}
		for (int i = 0; i < q.n; i++)
			premove_write(&q.items[i], v->game.pos.chess960, e.moves[i]);
		e.n_moves = q.n;
	}
	struct game_txn t;
	if (game_txn_begin(&t, gs, lg, out))
		return;
	/* In the transaction: a count kept by the store (several nodes)
	 * goes with what the commit writes. */
	if (!game_presence_churn(gs, lg, color, out)) {
		game_txn_abort(&t);
		return;
	}
	if (game_txn_add(&t, &e, me, game_txn_instant(v), out))
		return;
	game_txn_commit(&t, me, out);
}

void game_service_premoves(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_premoves_request *req, struct game_outcome *out)
{
	int color;
	struct live_game *lg = game_seat_enter(gs, me, id, &color, out);
	if (!lg)
		return;
	int tries = 0;
	do
		premoves(gs, lg, color, me, req, out);
	while (game_retry(out, &tries));
	game_presence_account(gs, lg, color, out);
	game_txn_answer_for(lg, me, out);
}

static void resign(struct game_service *gs, struct live_game *lg, int color, int64_t me, struct game_outcome *out)
{
	if (!fold_running(&lg->view)) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "the game is not running");
		return;
	}
	struct game_txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_RESIGNATION));
	e.color = color;
	if (game_txn_begin(&t, gs, lg, out) || game_txn_add(&t, &e, 0, game_txn_instant(&lg->view), out))
		return;
	game_txn_commit(&t, me, out);
}

void game_service_resign(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out)
{
	int color;
	struct live_game *lg = game_seat_enter(gs, me, id, &color, out);
	if (!lg)
		return;
	int tries = 0;
	do
		resign(gs, lg, color, me, out);
	while (game_retry(out, &tries));
	game_txn_answer_for(lg, me, out);
}
