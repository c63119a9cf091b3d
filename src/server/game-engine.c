/*
 * Engine seats hang off the commit: every commit ends by reconciling the
 * game's engine request with the new state (game_engine_sync), so no
 * command, present or future, can leave an engine seat to move without a
 * request or let a request outlive its position. The pool's answer comes
 * on a pool thread, takes the lock and is played through the human move
 * path; an engine that fails ends the game as an unscored technical
 * failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/xalloc.h"

/* An engine request in flight. Freed by whoever ends it: the callback, or
 * game_engine_sync when engine_cancel() says the callback will never run. */
struct engine_ask {
	struct game_service *gs;
	char id[STORE_GAME_ID_MAX + 1];
	int64_t ply; /* the position it was asked for */
	int side;
	int req;     /* the pool's request id */
};

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
	lg->ask = NULL;
	if (!fold_running(&lg->view) || (int64_t)lg->view.game.n_plies != a->ply ||
	    (int)game_side_to_move(&lg->view.game) != a->side) {
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
	int side = fold_running(v) ? (int)game_side_to_move(&v->game) : -1;
	/* Not while the clock is held: the engine's thinking would run it. */
	bool wanted = side >= 0 && v->seats[side].kind == FOLD_SEAT_ENGINE && !gs->engines_stopped && !lg->clock_held;
	struct engine_ask *a = lg->ask;
	if (a && (!wanted || a->ply != (int64_t)v->game.n_plies || a->side != side)) {
		/* If the callback has started, it is waiting for the lock we
		 * hold; it finds lg->ask changed, drops its answer and frees a. */
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
	log_debug("game %s: engine request %d for ply %zu (level %d)", lg->id, a->req, n, v->seats[side].level);
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
