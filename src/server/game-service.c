/*
 * The game service's life cycle and outcomes (game-service.h): opening the
 * tablebases, rebuilding every unfinished game from the store at start-up
 * (clocks resumed, engines asked, idle games evicted at once), starting and
 * stopping the timer, freeing it all; and the failure helpers every room
 * fills its answers with.
 */
#include <stdarg.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "tchess/tablebase.h"
#include "util/log.h"
#include "util/xalloc.h"

/* Games rebuilt at start-up between two fsyncs (sync = full, eviction on). */
#define GS_REBUILD_SYNC 256

void game_outcome_fini(struct game_outcome *o)
{
	protocol_events_fini(&o->events);
	free(o->body);
	o->body = NULL;
	game_answer_free(o->later);
	o->later = NULL;
}

__attribute__((format(printf, 3, 4))) void game_fail(struct game_outcome *out, enum protocol_error_code code,
							const char *fmt, ...)
{
	va_list ap;
	out->failed = true;
	out->err.code = code;
	out->err.seq = 0;
	va_start(ap, fmt);
	vsnprintf(out->err.message, sizeof out->err.message, fmt, ap);
	va_end(ap);
}

void game_store_failed(struct game_service *gs, struct game_outcome *out)
{
	store_rollback(gs->srv->store);
	game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
}

void game_fail_stale(struct game_outcome *out, const struct game_view *v, int64_t ply)
{
	game_fail(out, PROTOCOL_ERR_CONFLICT, "stale ply %lld: the game is at ply %zu (seq %lld)", (long long)ply,
	     v->game.n_plies, (long long)v->seq);
	out->err.seq = v->seq;
}

/* --tablebases: the folder list of tablebase_open_spec(). */
static int open_tablebases(struct game_service *gs, const char *spec, char **errmsg)
{
	char *err = NULL;
	if (tablebase_open_spec(spec, &gs->tb, &err) < 0) {
		*errmsg = xasprintf("--tablebases: %s", err ? err : "cannot open");
		free(err);
		return -1;
	}
	if (gs->tb)
		log_info("tablebases: up to %d pieces", tablebase_max_pieces(gs->tb));
	return 0;
}

static int collect_id(void *arg, const struct store_game *g)
{
	struct id_list *l = arg;
	l->ids = xrealloc(l->ids, (l->n + 1) * sizeof *l->ids);
	snprintf(l->ids[l->n++], sizeof l->ids[0], "%s", g->id);
	return 0;
}

/* Server downtime is not charged: a running clock is paused at the last
 * event's instant and resumed once its clock-resumed event is recorded, as
 * an event so every fold agrees. Until then (a full disk at the restart)
 * the clock is held: nothing may run it, so nothing is charged for the
 * time the store refused to write. */
bool game_clock_ready(struct game_service *gs, struct live_game *lg, struct game_outcome *out)
{
	if (!lg->clock_held)
		return true;
	if (gs->batch) {
		/* Its own transaction, which a batch's would contain. */
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure: the game's clock is not resumed yet");
		return false;
	}
	struct game_txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CLOCK_RESUMED);
	e.paused_ms = lg->view.last_t_ms;
	lg->clock_held = false; /* for game_txn_begin */
	if (game_txn_begin(&t, gs, lg, out) || game_txn_add(&t, &e, 0, game_txn_instant(&lg->view), out) ||
	    game_txn_commit(&t, 0, out)) {
		lg->clock_held = true;
		log_error("game %s: cannot resume the clock: %s", lg->id, out->err.message);
		return false;
	}
	/* The events are the resumption's, not the caller's command's. */
	game_outcome_fini(out);
	*out = (struct game_outcome){ 0 };
	log_info("game %s: clock resumed (paused at %lld)", lg->id, (long long)e.paused_ms);
	return true;
}

struct game_service *game_service_new(struct server *srv, const struct game_service_hooks *hooks, char **errmsg)
{
	struct game_service *gs = xcalloc(1, sizeof *gs);
	gs->srv = srv;
	if (hooks)
		gs->hooks = *hooks;
	dheap_init(&gs->timer_live);
	dheap_init(&gs->timer_evicted);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&gs->timer_cond, &ca);
	pthread_condattr_destroy(&ca);

	if (open_tablebases(gs, srv->cfg.tablebases, errmsg)) {
		game_service_free(gs);
		return NULL;
	}
	struct id_list l = { 0 };
	if (store_games_unfinished(srv->store, collect_id, &l)) {
		free(l.ids);
		*errmsg = xstrdup("cannot read the unfinished games");
		game_service_free(gs);
		return NULL;
	}
	size_t rebuilt = 0, synced = 0;
	/* A node joining others that serve the database: their games' clocks
	 * ran on while this one was away, and nothing is resumed (only a
	 * cluster that was down as a whole charges no one for it). */
	int others = 0;
	if (store_shared(srv->store) && store_nodes_alive(srv->store, &others)) {
		free(l.ids);
		*errmsg = xstrdup("cannot count the other nodes on the database");
		game_service_free(gs);
		return NULL;
	}
	if (others)
		log_info("game service: %d other nodes serve this database: running clocks are not paused", others);
	/* The lock keeps engine answers (pool threads) out until every game
	 * is in place. */
	pthread_mutex_lock(&srv->lock);
	struct commit_listener cl;
	game_txn_listener(gs, &cl);
	commit_listen(&srv->commit, &cl);
	gs->listening = true;
	for (size_t i = 0; i < l.n; i++) {
		struct game_outcome o = { 0 };
		struct live_game *lg = game_registry_lookup(gs, l.ids[i], &o);
		if (!lg) {
			/* One broken game must not keep the others from being served. */
			log_error("game %s: not rebuilt: %s", l.ids[i], o.err.message);
			continue;
		}
		/* Not held when other nodes serve the database: their clocks
		 * ran on (tchessd(8), CLUSTER). */
		lg->clock_held = !others && fold_running(&lg->view) && !fold_adjourned(&lg->view) &&
				 lg->view.clock.running != CLOCK_NOBODY;
		struct game_outcome ro = { 0 };
		game_clock_ready(gs, lg, &ro);
		game_outcome_fini(&ro);
		/* The resumption's commit asks the engine already; a game whose
		 * clock is not running is asked here (a held one is not). */
		game_engine_sync(gs, lg);
		rebuilt++;
		/* Idle across the restart: a game that may leave memory at
		 * once does, so the start-up needs memory for the records, not
		 * for every fold. With sync = full a resumed clock's event must
		 * be durable first: every GS_REBUILD_SYNC games one fsync makes
		 * them so (as the syncer, which is not running yet, would). */
		if (srv->cfg.evict_idle_ms > 0 && game_registry_evictable(gs, lg))
			game_registry_evict(gs, lg);
		if (srv->cfg.evict_idle_ms > 0 && store_syncs(srv->store) &&
		    (i + 1 - synced >= GS_REBUILD_SYNC || i + 1 == l.n) && commit_sync_now(&srv->commit) == 0) {
			for (; synced <= i; synced++) {
				struct live_game *back = game_registry_find(gs, l.ids[synced]);
				if (back && game_registry_evictable(gs, back))
					game_registry_evict(gs, back);
			}
		}
	}
	/* What was read is durable only once PostgreSQL has flushed it: the
	 * other nodes (or one killed a moment ago) commit without waiting for
	 * the WAL, so their last events may be in the log but not yet on
	 * disk, and a crash of PostgreSQL would take them back. The games
	 * were read as durable (no node channel yet: game_registry_lookup),
	 * so before anything is served one synchronous write (store_sync),
	 * whose flush covers every commit before it, makes them so. */
	if (store_shared(srv->store) && store_syncs(srv->store) && l.n && store_sync(srv->store)) {
		pthread_mutex_unlock(&srv->lock);
		free(l.ids);
		*errmsg = xstrdup("cannot flush PostgreSQL's WAL over the games read at start");
		game_service_free(gs);
		return NULL;
	}
	pthread_mutex_unlock(&srv->lock);
	free(l.ids);
#ifdef __GLIBC__
	if (gs->n_evicted)
		malloc_trim(0);
#endif
	log_info("game service: %zu unfinished games rebuilt, %zu of them evicted at once", rebuilt, gs->n_evicted);
	if (game_timer_start(gs)) {
		*errmsg = xstrdup("cannot start the flag timer thread");
		game_service_free(gs);
		return NULL;
	}
	return gs;
}

void game_service_free(struct game_service *gs)
{
	if (!gs)
		return;
	game_timer_stop(gs);
	if (gs->listening) {
		pthread_mutex_lock(&gs->srv->lock);
		commit_unlisten(&gs->srv->commit, gs);
		pthread_mutex_unlock(&gs->srv->lock);
	}
	game_service_batch_abort(gs);
	pthread_cond_destroy(&gs->timer_cond);
	dheap_fini(&gs->timer_live);
	dheap_fini(&gs->timer_evicted);
	tablebase_free(gs->tb);
	free(gs->dirty);
	free(gs->flight);
	game_registry_fini(gs);
	free(gs);
}
