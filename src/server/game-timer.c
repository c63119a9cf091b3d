/*
 * The timer: one thread that sleeps until the earliest instant on its two
 * heaps (live games keyed by their next deadline or eviction, evicted
 * games by their next deadline) and acts on the games due, and only on
 * them. game_timer_deadline says when a game needs it (pure); the acting
 * game_timer_chores ends games on their other deadlines (the operator's
 * duration limit, the first-move timeout, disconnects, a rematch offer
 * lapsing) and erases aborted games.
 */
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"

/* The first retry of what the store refused, and the longest wait. */
#define GAME_TIMER_RETRY_MS 1000
#define GAME_TIMER_RETRY_MAX_MS 60000

/* Puts node on heap h with key, or takes it off for INT64_MAX (never). */
void game_timer_set(struct dheap *h, struct dheap_node *node, int64_t key)
{
	if (key == INT64_MAX)
		dheap_remove(h, node);
	else
		dheap_set(h, node, key);
}

static void earliest(int64_t *next, int64_t t)
{
	if (t < *next)
		*next = t;
}

/* The ruleset's first-move limit, or the operator's override (tchessd(8)). */
static int64_t first_move_ms(const struct game_service *gs, const struct game_view *v)
{
	return gs->srv->cfg.first_move_ms > 0 ? gs->srv->cfg.first_move_ms : v->game.rules.first_move_timeout_ms;
}

/* When a game's chores fall due (INT64_MAX: never): what the timer waits
 * for besides the flag. */
struct chores_due {
	int64_t erase;      /* an aborted game is erased */
	int64_t max_game;   /* the operator's limit on a game's wall-clock duration */
	int64_t first_move; /* the side to move's first move not made in time */
	/* A seat with no request and no parked poll for the grace is gone: a
	 * disconnect while the game runs, or a rematch offer lapsing after
	 * it (a presence event, which the fold makes end the offer; only
	 * while an offer stands, so a finished game gets no presence events
	 * otherwise). A correspondence player is not expected to stay
	 * connected, neither while the game runs nor for a rematch offer,
	 * which then stands until it is answered or withdrawn. */
	int64_t gone[2];
	/* Before that, while the game runs, a seat quiet for
	 * GAME_LEFT_QUIET_MS has left: a left event tells the opponent when
	 * it will be gone. */
	int64_t left[2];
	/* An open seek withdrawn (issue 12 item 4): its creator gone for
	 * seek_grace_ms or the seek seek_max_age_ms old. */
	int64_t seek;
	int seeker;
};

/* A game waiting for its opponent (a seek or an invite; a tournament's
 * start seated) lapses when the one seated has not been seen for
 * seek_grace_ms -- no request and no parked poll -- or at seek_max_age_ms,
 * so the public list shows no abandoned seeks. */
static void seek_due(const struct game_service *gs, const struct live_game *lg, struct chores_due *d)
{
	const struct game_view *v = &lg->view;
	const struct server_config *cfg = &gs->srv->cfg;
	for (int c = WHITE; c <= BLACK; c++) {
		if (v->seats[c].kind != FOLD_SEAT_HUMAN)
			continue;
		d->seeker = c;
		if (cfg->seek_max_age_ms > 0)
			earliest(&d->seek, lg->created_ms + cfg->seek_max_age_ms);
		/* Seen when it made the seek, at the latest. */
		int64_t seen = lg->last_seen[c] > lg->created_ms ? lg->last_seen[c] : lg->created_ms;
		if (cfg->seek_grace_ms > 0 && lg->parked[c] <= 0)
			earliest(&d->seek, seen + cfg->seek_grace_ms);
	}
}

static void chores_due(const struct game_service *gs, const struct live_game *lg, struct chores_due *d)
{
	const struct game_view *v = &lg->view;
	d->erase = d->max_game = d->first_move = d->gone[WHITE] = d->gone[BLACK] = d->seek = INT64_MAX;
	d->left[WHITE] = d->left[BLACK] = INT64_MAX;
	d->seeker = -1;
	if (!v->created)
		return;
	bool over = game_is_over(&v->game);
	/* Yourpot erases an aborted game; a tournament's game never
	 * disappears (chessgamble 9.1: "Each lot is documented with all
	 * necessary additional data on the server"): its table refers to it. */
	bool tournament = !strcmp(v->opponent, "tournament");
	if (over && v->game.termination == GAME_TERM_ABORTED && !tournament) {
		d->erase = v->last_t_ms + gs->srv->cfg.aborted_retention_ms;
		return;
	}
	if (over && v->game.termination == GAME_TERM_ABORTED)
		return;
	if (!over && !v->started) {
		seek_due(gs, lg, d);
		return;
	}
	bool corr = v->clock.tc.kind == TC_CORRESPONDENCE;
	if (!over) {
		if (gs->srv->cfg.max_game_ms > 0)
			d->max_game = v->started_ms + gs->srv->cfg.max_game_ms;
		/* Not in a correspondence game (days per move) nor a
		 * tournament's, whose games all start at once and are timed
		 * by their clocks alone: the fold's rule, which the clients
		 * count down with. */
		int side;
		d->first_move = fold_first_move_deadline(v, first_move_ms(gs, v), &side);
	}
	if (corr || (over && v->rematch_by < 0))
		return;
	for (int c = WHITE; c <= BLACK; c++) {
		d->gone[c] = game_presence_gone_at(gs, lg, c);
		if (!over && !fold_adjourned(v))
			d->left[c] = game_presence_left_at(gs, lg, c);
	}
}

/* The one owner of "when does this game need the timer", for live games
 * (game_timer_poke) and evicted ones alike: its flag or a chore. */
int64_t game_timer_deadline(struct game_service *gs, const struct live_game *lg)
{
	/* A held clock's resumption first, at once (then with the backoff). */
	if (lg->clock_held)
		return 0;
	/* An engine waiting in the pool's queue is not charged for it
	 * (game-engine.c): no flag until its search starts. */
	int64_t next = fold_running(&lg->view) && !game_engine_queued(lg) ? fold_clock_expiry(&lg->view) : INT64_MAX;
	struct chores_due d;
	chores_due(gs, lg, &d);
	earliest(&next, d.erase);
	earliest(&next, d.max_game);
	earliest(&next, d.first_move);
	earliest(&next, d.gone[WHITE]);
	earliest(&next, d.gone[BLACK]);
	earliest(&next, d.left[WHITE]);
	earliest(&next, d.left[BLACK]);
	earliest(&next, d.seek);
	return next;
}

/* A seat gone (d.gone): in a running game a presence event, with what the
 * ruleset's disconnect policy makes of it; after the end, the rematch
 * offer lapses. */
static void seat_gone(struct game_service *gs, struct live_game *lg, int c, bool over)
{
	const struct game_view *v = &lg->view;
	struct fold_event e, then;
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = c;
	e.present = false;
	if (over) {
		log_info("game %s: %s is gone; the rematch offer lapses", lg->id, fold_color_str(c));
		game_txn_server_event(gs, lg, &e, NULL);
		return;
	}
	bool act = !fold_adjourned(v) && v->game.rules.disconnect != DISCONNECT_CLAIM_WIN;
	if (act && v->game.rules.disconnect == DISCONNECT_ADJOURN) {
		fold_event_init(&then, FOLD_EV_ADJOURNED);
		snprintf(then.reason, sizeof then.reason, "disconnect");
	} else if (act) {
		game_action_ended_event(&then, c, GAME_TERM_TECHNICAL_FAILURE, "disconnect");
	}
	log_info("game %s: %s is gone", lg->id, fold_color_str(c));
	game_txn_server_event(gs, lg, &e, act ? &then : NULL);
}

/* Acts on the game's chores due by now (chores_due): an erasure frees lg
 * (true then); the duration limit and the first-move timeout end the game
 * and leave the rest to the next pass; each seat gone is told in turn. */
bool game_timer_chores(struct game_service *gs, struct live_game *lg, int64_t now)
{
	const struct game_view *v = &lg->view;
	struct chores_due d;
	chores_due(gs, lg, &d);
	if (d.erase <= now) {
		game_registry_erase(gs, lg);
		return true;
	}
	if (d.max_game <= now) {
		game_txn_technical_failure(gs, lg, -1, "max-duration");
		return false;
	}
	if (d.first_move <= now) {
		struct fold_event e;
		game_action_ended_event(&e, game_side_to_move(&v->game), GAME_TERM_ABORTED, "first-move-timeout");
		game_txn_server_event(gs, lg, &e, NULL);
		return false;
	}
	if (d.seek <= now) {
		struct fold_event e;
		log_info("game %s: the open seek lapses", lg->id);
		game_action_ended_event(&e, d.seeker, GAME_TERM_ABORTED, "seek-expired");
		game_txn_server_event(gs, lg, &e, NULL);
		return false;
	}
	bool over = game_is_over(&v->game);
	for (int c = WHITE; c <= BLACK; c++) {
		/* The first seat's event may have changed what is due. */
		if (c != WHITE)
			chores_due(gs, lg, &d);
		if (d.gone[c] > now) {
			if (d.left[c] <= now)
				game_presence_left(gs, lg, c);
			continue;
		}
		seat_gone(gs, lg, c, over);
		if (!over && game_is_over(&v->game))
			break;
	}
	return false;
}

/* When the timer must look at live game lg next: its deadlines and its
 * eviction; its key on gs->timer_live. */
static int64_t timer_key(struct game_service *gs, struct live_game *lg, int64_t now)
{
	int64_t next = game_timer_deadline(gs, lg);
	earliest(&next, game_registry_evict_due(gs, lg, now));
	return next;
}

/* Acts on the games in memory whose time has come: a flag fallen, a chore
 * due, an idle game to evict. Each then goes back on the heap at its next
 * instant. Returns how many it evicted. */
static size_t live_due(struct game_service *gs, int64_t now)
{
	size_t evicted = 0;
	struct dheap_node *top;
	while ((top = dheap_top(&gs->timer_live)) && top->key <= now) {
		struct live_game *lg = LIVE_OF(top);
		/* Another node times it (cluster.h): nothing is done here but
		 * eviction, and it is looked at again after the owner's turn. */
		bool mine = cluster_owns(gs->srv->cluster, lg->id);
		struct game_outcome ro = { 0 };
		bool held = mine && !game_clock_ready(gs, lg, &ro);
		game_outcome_fini(&ro);
		if (held)
			goto backoff; /* nothing runs before it */
		/* Stale: another node (their timers run too) ended it or
		 * moved first; caught up, the game says what is due, and a flag
		 * of the caught-up game (the other side's, on a move this node
		 * had not heard of) is looked at once more before the chores,
		 * which a flag due first must precede. */
		for (int tries = 0; tries < 2 && mine && fold_running(&lg->view) && !game_engine_queued(lg); tries++) {
			int64_t t = game_txn_instant(&lg->view);
			if (fold_clock_expiry(&lg->view) > t)
				break;
			struct game_outcome o = { 0 };
			bool stale = game_move_flag(gs, lg, t, &o) && o.stale;
			if (stale)
				log_info("game %s: changed by another writer before its flag; caught up", lg->id);
			else if (o.failed)
				log_error("game %s: cannot end on time: %s", lg->id, o.err.message);
			game_outcome_fini(&o);
			if (!stale)
				break;
		}
		if (mine && game_timer_chores(gs, lg, now))
			continue; /* erased */
		if (game_registry_evict_due(gs, lg, now) <= now) {
			game_registry_evict(gs, lg);
			evicted++;
			continue;
		}
		/* What is still due could not be done (a store that cannot
		 * write, a disk full): again in a second, then in two, four...
		 * up to a minute, not in a loop and not a log line a second
		 * for as long as the store stays read-only. */
	backoff:;
		int64_t key = timer_key(gs, lg, now);
		if (!mine && key <= now) {
			key = now + CLUSTER_PRESENCE_MS;
		} else if (key > now) {
			lg->timer_backoff_ms = 0;
		} else {
			lg->timer_backoff_ms = lg->timer_backoff_ms ? lg->timer_backoff_ms * 2 : GAME_TIMER_RETRY_MS;
			if (lg->timer_backoff_ms > GAME_TIMER_RETRY_MAX_MS)
				lg->timer_backoff_ms = GAME_TIMER_RETRY_MAX_MS;
			key = now + lg->timer_backoff_ms;
		}
		dheap_set(&gs->timer_live, &lg->timer, key);
	}
	return evicted;
}

static struct timespec mono_in(int64_t ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* Puts lg on the timer's heap at its next instant, and signals the timer
 * if that is before its next wake. Called wherever what timer_key reads
 * may have moved earlier: a commit, a game coming into memory, a poll
 * parked or back. Most commits (a move in a game without clocks, or one
 * that only moves deadlines later) leave the timer asleep. */
void game_timer_poke(struct game_service *gs, struct live_game *lg)
{
	int64_t next = timer_key(gs, lg, now_wall_ms());
	game_timer_set(&gs->timer_live, &lg->timer, next);
	if (next < gs->timer_next) {
		gs->timer_next = next;
		pthread_cond_signal(&gs->timer_cond);
	}
}

/* The timer: sleeps until the earliest instant on its heaps (or a poke),
 * then acts on the games due, and only on them. */
static void *timer_main(void *arg)
{
	struct game_service *gs = arg;
	struct server *srv = gs->srv;
	pthread_mutex_lock(&srv->lock);
	while (!gs->timer_stop) {
		int64_t now = now_wall_ms();
		game_registry_revive_due(gs, now);
		size_t evicted = live_due(gs, now);
#ifdef __GLIBC__
		/* glibc keeps freed pages; an operator watching RSS should see
		 * the evicted games go. One walk of the heap per pass that
		 * evicted. */
		if (evicted)
			malloc_trim(0);
#else
		(void)evicted;
#endif
		int64_t next = INT64_MAX;
		const struct dheap_node *top;
		if ((top = dheap_top(&gs->timer_live)))
			earliest(&next, top->key);
		if ((top = dheap_top(&gs->timer_evicted)))
			earliest(&next, top->key);
		gs->timer_next = next;
		if (next == INT64_MAX) {
			pthread_cond_wait(&gs->timer_cond, &srv->lock);
		} else {
			/* Wall-clock expiry, waited for on the monotonic clock;
			 * the loop re-reads the wall clock when it wakes. */
			int64_t wait = next - now_wall_ms();
			struct timespec ts = mono_in(wait > 0 ? wait : 0);
			pthread_cond_timedwait(&gs->timer_cond, &srv->lock, &ts);
		}
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

void game_service_clock_changed(struct game_service *gs)
{
	pthread_cond_signal(&gs->timer_cond);
}

int game_timer_start(struct game_service *gs)
{
	if (pthread_create(&gs->timer, NULL, timer_main, gs))
		return -1;
	gs->timer_started = true;
	return 0;
}

void game_timer_stop(struct game_service *gs)
{
	if (!gs->timer_started)
		return;
	pthread_mutex_lock(&gs->srv->lock);
	gs->timer_stop = true;
	pthread_cond_signal(&gs->timer_cond);
	pthread_mutex_unlock(&gs->srv->lock);
	pthread_join(gs->timer, NULL);
	gs->timer_started = false;
}
