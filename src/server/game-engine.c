/*
 * Engine seats hang off the commit: every commit ends by reconciling the
 * game's engine request with the new state (game_engine_sync), so no
 * command, present or future, can leave an engine seat to move without a
 * request or let a request outlive its position. The pool's answer comes
 * on a pool thread, takes the lock and is played through the human move
 * path; an engine that fails ends the game as an unscored technical
 * failure.
 *
 * The pool is shared and has a queue (issue 12 item 3): a request that
 * waits there is the server's delay, not the engine's thinking. While it
 * waits its seat's flag cannot fall, and when it leaves the queue after
 * ENGINE_WAIT_FREE_MS or more the wait is given back with a clock-resumed
 * event (paused when asked, resumed when the search starts), so every fold
 * charges the engine only from the start of its search. New engine games
 * are refused past engine_games_per_player (429) and engine_games (503).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "engine/engine.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

/* A shorter wait in the queue is charged: no event for the ordinary hand-off
 * to an idle engine. */
#define ENGINE_WAIT_FREE_MS 50

/* An engine request in flight. Freed by whoever ends it: the callback, or
 * game_engine_sync when engine_cancel() says the callback will never run. */
struct engine_ask {
	struct game_service *gs;
	char id[STORE_GAME_ID_MAX + 1];
	int64_t ply; /* the position it was asked for */
	int side;
	int req;     /* the pool's request id */
	int64_t asked_ms; /* wall clock when it was asked for */
	bool started;     /* it has left the pool's queue */
	struct engine_ask *next; /* on gs->asks */
};

/* gs->asks holds exactly the asks some lg->ask points at. */
static void ask_unlink(struct game_service *gs, struct engine_ask *a)
{
	for (struct engine_ask **pp = &gs->asks; *pp; pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			return;
		}
	}
}

/* Ends the game as an unscored technical failure because its engine seat
 * could not move; the event's reason says why, for the human and the log. */
static void engine_failed(struct game_service *gs, struct live_game *lg, int side, const char *why)
{
	struct game_outcome o = { 0 };
	struct game_txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TECHNICAL_FAILURE));
	snprintf(e.reason, sizeof e.reason, "engine failed (%s, level %d): %.160s", fold_color_str(side),
		 lg->view.seats[side].level, why);
	if (game_txn_begin(&t, gs, lg, &o) || game_txn_add(&t, &e, 0, game_txn_instant(&lg->view), &o) || game_txn_commit(&t, 0, &o))
		log_error("game %s: cannot end the game after its engine failed: %s", lg->id, o.err.message);
	else
		log_warn("game %s: %s; the game ends unscored", lg->id, e.reason);
	game_outcome_fini(&o);
}

/* The pool's answer, on a pool thread. Played only if it is still the
 * game's current request (game_engine_sync withdraws or forgets a request the
 * game moved past, so a stale answer finds lg->ask changed). */
static void engine_done(void *arg, const char *uci, const char *error)
{
	struct engine_ask *a = arg;
	struct game_service *gs = a->gs;
	pthread_mutex_lock(&gs->srv->lock);
	struct live_game *lg = gs->engines_stopped ? NULL : game_registry_find(gs, a->id);
	if (!lg || lg->ask != a) {
		log_debug("game %s: engine answer for ply %lld is stale: dropped", a->id, (long long)a->ply);
		goto out;
	}
	ask_unlink(gs, a);
	lg->ask = NULL;
	if (fold_may_move(&lg->view, a->side, NULL) != FOLD_MAY_MOVE || (int64_t)lg->view.game.n_plies != a->ply) {
		/* Cannot happen while every commit syncs; asking again is the
		 * safe answer if it ever does. */
		log_error("game %s: engine answer for ply %lld does not fit the game", a->id, (long long)a->ply);
		game_engine_sync(gs, lg);
		goto out;
	}
	if (error) {
		engine_failed(gs, lg, a->side, error);
		goto out;
	}
	struct game_outcome o = { 0 };
	game_move_play(gs, lg, a->side, 0, a->ply, uci, &o);
	/* A move refused because the engine's flag fell has ended the game
	 * on time; any other refusal is the engine seat's failure. */
	if (o.failed && fold_running(&lg->view)) {
		char why[FOLD_REASON_MAX];
		snprintf(why, sizeof why, "its move %s was refused: %.160s", uci, o.err.message);
		engine_failed(gs, lg, a->side, why);
	}
	game_outcome_fini(&o);
out:
	pthread_mutex_unlock(&gs->srv->lock);
	free(a);
}

/* After every commit: withdraws a request the game has moved past (a move,
 * the end), and asks the pool for a move when an engine seat is to move and
 * no request is out. Never waits for the engine. */
void game_engine_sync(struct game_service *gs, struct live_game *lg)
{
	const struct game_view *v = &lg->view;
	/* The side that may move now (fold_may_move), or -1. */
	int side = (int)game_side_to_move(&v->game);
	if (fold_may_move(v, side, NULL) != FOLD_MAY_MOVE)
		side = -1;
	/* Not while the clock is held: the engine's thinking would run it;
	 * and only on the node that owns the game (cluster.h). */
	bool wanted = side >= 0 && v->seats[side].kind == FOLD_SEAT_ENGINE && !gs->engines_stopped && !lg->clock_held &&
		      cluster_owns(gs->srv->cluster, lg->id);
	struct engine_ask *a = lg->ask;
	if (a && (!wanted || a->ply != (int64_t)v->game.n_plies || a->side != side)) {
		/* If the callback has started, it is waiting for the lock we
		 * hold; it finds lg->ask changed, drops its answer and frees a. */
		ask_unlink(gs, a);
		if (engine_cancel(gs->srv->engines, a->req))
			free(a);
		lg->ask = NULL;
	}
	if (!wanted || lg->ask)
		return;
	if (!gs->srv->engines) {
		log_warn("game %s: the engine seat is to move but this server has no engine: the game waits", lg->id);
		return;
	}
	/* The whole history, not just the position, so the engine knows the
	 * repetitions. */
	size_t n = v->game.n_plies;
	char(*text)[UCI_MAX] = xcalloc(n ? n : 1, sizeof *text);
	const char **moves = xcalloc(n ? n : 1, sizeof *moves);
	struct position p = v->game.start;
	for (size_t i = 0; i < n; i++) {
		struct undo u;
		uci_write(&p, v->game.plies[i].m, text[i]);
		moves[i] = text[i];
		position_make(&p, v->game.plies[i].m, &u);
	}
	char fen[FEN_MAX];
	fen_write(&v->game.start, fen);
	a = xcalloc(1, sizeof *a);
	a->gs = gs;
	snprintf(a->id, sizeof a->id, "%s", lg->id);
	a->ply = (int64_t)n;
	a->side = side;
	a->asked_ms = game_txn_instant(v);
	char *err = NULL;
	/* The callback needs the lock we hold, so it cannot run before
	 * a->req and lg->ask are set. */
	a->req = engine_request(gs->srv->engines, fen, moves, n, v->seats[side].level, v->game.start.chess960,
				engine_done, a, &err);
	free(text);
	free(moves);
	if (a->req < 0) {
		/* Only a position the engine cannot be asked about gets here
		 * (the fold has checked every move): say so and let the game
		 * wait rather than invent a move. */
		log_error("game %s: cannot ask the engine for ply %zu: %s", lg->id, n, err);
		free(err);
		free(a);
		return;
	}
	lg->ask = a;
	a->next = gs->asks;
	gs->asks = a;
	log_debug("game %s: engine request %d for ply %zu (level %d)", lg->id, a->req, n, v->seats[side].level);
}

bool game_engine_queued(const struct live_game *lg)
{
	return lg->ask && !lg->ask->started;
}

void game_service_engine_started(void *arg, int request_id, int64_t waited_ms)
{
	struct server *srv = arg;
	pthread_mutex_lock(&srv->lock);
	struct game_service *gs = srv->games;
	struct engine_ask *a = NULL;
	for (a = gs && !gs->engines_stopped ? gs->asks : NULL; a && a->req != request_id; a = a->next)
		;
	struct live_game *lg = a ? game_registry_find(gs, a->id) : NULL;
	if (!lg || lg->ask != a)
		goto out; /* withdrawn: the game moved on */
	a->started = true;
	const struct game_view *v = &lg->view;
	if (waited_ms < ENGINE_WAIT_FREE_MS || !fold_running(v) || fold_adjourned(v) || v->clock.running != a->side)
		goto poke;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CLOCK_RESUMED);
	e.paused_ms = a->asked_ms > v->last_t_ms ? a->asked_ms : v->last_t_ms;
	int64_t t = game_txn_instant(v);
	if (e.paused_ms > t)
		e.paused_ms = t;
	struct game_outcome o = { 0 };
	struct game_txn txn;
	if (game_txn_begin(&txn, gs, lg, &o) || game_txn_add(&txn, &e, 0, t, &o) || game_txn_commit(&txn, 0, &o))
		log_error("game %s: cannot give back the engine's %lld ms in the queue: %s", lg->id,
			  (long long)waited_ms, o.err.message);
	else
		log_info("game %s: the engine's request waited %lld ms in the queue; its clock is given it back",
			 lg->id, (long long)waited_ms);
	game_outcome_fini(&o);
poke:
	/* Its flag may fall from now on: the timer looks again. */
	game_timer_poke(gs, lg);
out:
	pthread_mutex_unlock(&srv->lock);
}

/* Unfinished engine games, all and player's, in memory and evicted. */
static void count_engine_games(struct game_service *gs, int64_t player, int *all, int *mine)
{
	*all = *mine = 0;
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			const struct game_view *v = &lg->view;
			if (game_is_over(&v->game) ||
			    (v->seats[WHITE].kind != FOLD_SEAT_ENGINE && v->seats[BLACK].kind != FOLD_SEAT_ENGINE))
				continue;
			(*all)++;
			for (int c = WHITE; c <= BLACK; c++) {
				if (v->seats[c].kind == FOLD_SEAT_HUMAN && v->seats[c].player == player) {
					(*mine)++;
					break;
				}
			}
		}
		for (struct evicted_game *e = gs->evicted[b]; e; e = e->next) {
			if (!e->unfinished || !e->engine)
				continue;
			(*all)++;
			if (e->players[WHITE] == player || e->players[BLACK] == player)
				(*mine)++;
		}
	}
}

bool game_engine_admit(struct game_service *gs, int64_t player, struct game_outcome *out)
{
	const struct server_config *cfg = &gs->srv->cfg;
	int all, mine;
	count_engine_games(gs, player, &all, &mine);
	if (mine >= cfg->engine_games_per_player) {
		game_fail(out, PROTOCOL_ERR_RATE_LIMITED,
			  "opponent: you have %d unfinished engine games, the most this server allows "
			  "(engine_games_per_player); finish one first",
			  mine);
		return false;
	}
	if (all >= config_engine_games(cfg)) {
		game_fail(out, PROTOCOL_ERR_UNAVAILABLE,
			  "opponent: the server's engines are busy (%d unfinished engine games, its limit "
			  "engine_games); try again later",
			  all);
		return false;
	}
	return true;
}

void game_service_stop_engines(struct game_service *gs)
{
	if (!gs)
		return;
	pthread_mutex_lock(&gs->srv->lock);
	gs->engines_stopped = true;
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next)
			game_engine_sync(gs, lg);
	}
	pthread_mutex_unlock(&gs->srv->lock);
}
