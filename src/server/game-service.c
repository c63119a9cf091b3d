/*
 * The game service (see game-service.h): live games in memory, each the
 * fold of its stored events; commands as transactions; the flag timer; the
 * rebuild after a restart.
 *
 * A transaction works on a copy of the game's view: each event is applied
 * to the copy through the fold first (so the event is exactly what the
 * fold accepts, and its clock reading and result are the fold's), then
 * encoded and appended. Only after the store commits does the copy replace
 * the live view; on any failure the copy is dropped and the store rolled
 * back, so nothing changes.
 *
 * Publishing (server.h, group commit): a commit puts the game on the dirty
 * list; the syncer's fsync then moves its durable seq up to the events it
 * covers and only then are the game's polls woken. Polls are answered from
 * the game's ring of recent events (event-ring.h), encoded once at commit,
 * and never past the durable seq. With sync = normal a commit is durable at
 * once and publishes straight away.
 *
 * Engine seats hang off the commit: every commit ends by reconciling the
 * game's engine request with the new state (engine_sync), so no command,
 * present or future, can leave an engine seat to move without a request or
 * let a request outlive its position.
 *
 * Eviction (evict_idle_s, tchessd(8)): a game nobody touched for the idle
 * time leaves memory, so days-per-move correspondence games do not hold
 * their fold and ring for days. Only a quiet game goes: no long-poll
 * parked on it, no engine request out, every event durable (durable_seq
 * is its seq and no fsync is under way for it), no batch open. What
 * memory alone knew stays behind in a small record (struct
 * evicted_game): each seat's presence and invalid-command count, the
 * human seats (a player's games and vacations find it by them) and the
 * instant of its next deadline, computed by the same function that tells
 * the timer about a live game's (deadline_of). Any access goes through
 * lookup(), which brings the game back by the replay of start-up and puts
 * the record's memory back; the timer brings back a game whose deadline
 * has come and then treats it as any live game. So the store's log, not
 * memory, is the game, as after a restart, and a client cannot tell.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "event-ring.h"
#include "game-service.h"
#include "server.h"
#include "store.h"
#include "tchess/movegen.h"
#include "tchess/tablebase.h"
#include "util/dheap.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/token.h"
#include "util/xalloc.h"

#define GS_BUCKETS 1024
/* Games rebuilt at start-up between two fsyncs (sync = full, eviction on). */
#define GS_REBUILD_SYNC 256
/* Events one command may append: a move, the opponent's premove, a
 * discard, an end, with room to spare; a correspondence game's start also
 * carries both seats' vacations. */
#define TXN_EVENTS_MAX (8 + 2 * FOLD_VACATIONS_MAX)

struct live_game {
	char id[STORE_GAME_ID_MAX + 1];
	struct game_view view;
	char invite_hash[2 * SHA256_DIGEST_SIZE + 1]; /* "" for games without a code */
	int64_t created_ms;
	struct engine_ask *ask; /* the engine move asked for, or NULL */
	/* Presence (memory only; a restart counts as everyone seen now): the
	 * last request of each seat and its long-polls parked right now. */
	int64_t last_seen[2];
	int parked[2];
	int invalid[2]; /* consecutive invalid commands of each seat */
	int64_t used_ms; /* wall clock of the last access or commit: idleness runs from it */
	/* Publishing (see the top): events up to durable_seq may be shown. */
	struct event_ring ring;
	int64_t durable_seq;
	int64_t flight_seq; /* the seq the fsync under way covers */
	bool dirty;         /* on gs->dirty: committed past durable_seq */
	bool in_flight;     /* on gs->flight */
	/* On gs->timer_live, keyed by when the timer must look at it next. */
	struct dheap_node timer;
	struct live_game *next;
};

/* An evicted game (see the top): what only memory knew of it, and when the
 * timer must bring it back. */
struct evicted_game {
	char id[STORE_GAME_ID_MAX + 1];
	bool unfinished;
	int64_t players[2];   /* the human seats' players, 0 for another seat */
	int64_t last_seen[2];
	int invalid[2];
	/* On gs->timer_evicted, keyed by its next deadline (flag or chore);
	 * not on it if it has none. */
	struct dheap_node timer;
	struct evicted_game *next;
};

/* A game a batch changed: made live when the batch commits. */
struct batch_item {
	struct live_game *lg;
	struct game_view view;
	bool insert; /* a new game */
};

/* An engine request in flight. Freed by whoever ends it: the callback, or
 * engine_sync when engine_cancel() says the callback will never run. */
struct engine_ask {
	struct game_service *gs;
	char id[STORE_GAME_ID_MAX + 1];
	int64_t ply; /* the position it was asked for */
	int side;
	int req;     /* the pool's request id */
};

/* Aborted games erased lately, so their id answers 410 rather than 404. */
#define GS_TOMBSTONES 256

struct game_service {
	struct server *srv;
	struct game_service_hooks hooks;
	bool batch;                  /* commands share the caller's transaction */
	bool batch_failed;           /* a command in it rolled back */
	struct batch_item *pending;
	size_t n_pending;
	struct live_game *bucket[GS_BUCKETS];
	struct evicted_game *evicted[GS_BUCKETS];
	size_t n_live, n_evicted;
	pthread_t timer;
	bool timer_started;
	bool timer_stop;
	pthread_cond_t timer_cond; /* waited on with srv->lock; signalled after every commit */
	bool engines_stopped;      /* game_service_stop_engines ran: ask for nothing more */
	struct tablebase *tb; /* NULL: no tablebase claims */
	char tombstones[GS_TOMBSTONES][STORE_GAME_ID_MAX + 1];
	unsigned n_tombstones;
	/* Group commit: games committed since the last fsync began, and the
	 * games the fsync under way covers. */
	struct live_game **dirty, **flight;
	size_t n_dirty, n_flight, cap_dirty, cap_flight;
	/* When the timer wakes next (wall ms; INT64_MAX: only when signalled):
	 * a commit signals it only for a deadline earlier than that. */
	int64_t timer_next;
	/* What the timer waits for: the games in memory, keyed by when each
	 * needs it next (timer_key), and the evicted ones with a deadline. */
	struct dheap timer_live, timer_evicted;
};

struct txn {
	struct game_service *gs;
	struct live_game *lg;
	struct game_view work;
	struct protocol_event ev[TXN_EVENTS_MAX];
	int64_t visible_to[TXN_EVENTS_MAX];
	size_t n;
};

void game_outcome_fini(struct game_outcome *o)
{
	protocol_events_fini(&o->events);
	free(o->body);
	o->body = NULL;
}

__attribute__((format(printf, 3, 4))) static void fail(struct game_outcome *out, enum protocol_error_code code,
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

static void store_failed(struct game_service *gs, struct game_outcome *out)
{
	store_rollback(gs->srv->store);
	fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
}

static unsigned bucket_of(const char *id)
{
	uint32_t h = 2166136261u;
	for (; *id; id++)
		h = (h ^ (uint8_t)*id) * 16777619u;
	return h % GS_BUCKETS;
}

/* When lg, idle since used_ms, may leave memory (INT64_MAX: never). The
 * instant is rounded up to a sixteenth of the idle time, so that games
 * used at scattered instants leave together, a few timer passes (and
 * malloc_trim calls) per idle period rather than one each: when exactly a
 * game goes, nobody sees. */
static int64_t evict_at(const struct game_service *gs, const struct live_game *lg)
{
	int64_t idle = gs->srv->cfg.evict_idle_ms;
	if (idle <= 0)
		return INT64_MAX;
	int64_t step = idle / 16 > 0 ? idle / 16 : 1;
	int64_t at = lg->used_ms + idle;
	return at % step ? at + step - at % step : at;
}

static void timer_poke(struct game_service *gs, struct live_game *lg);

/* Puts node on heap h with key, or takes it off for INT64_MAX (never). */
static void timer_set(struct dheap *h, struct dheap_node *node, int64_t key)
{
	if (key == INT64_MAX)
		dheap_remove(h, node);
	else
		dheap_set(h, node, key);
}

static void insert(struct game_service *gs, struct live_game *lg)
{
	unsigned b = bucket_of(lg->id);
	lg->next = gs->bucket[b];
	gs->bucket[b] = lg;
	lg->used_ms = now_wall_ms();
	gs->n_live++;
	timer_poke(gs, lg);
}

/* Takes lg out of the games in memory (the caller frees it). */
static void unlink_live(struct game_service *gs, struct live_game *lg)
{
	dheap_remove(&gs->timer_live, &lg->timer);
	for (struct live_game **p = &gs->bucket[bucket_of(lg->id)]; *p; p = &(*p)->next) {
		if (*p == lg) {
			*p = lg->next;
			gs->n_live--;
			return;
		}
	}
}

/* Where game id's eviction record is linked: *result is NULL if it has
 * none. */
static struct evicted_game **evicted_link(struct game_service *gs, const char *id)
{
	struct evicted_game **p = &gs->evicted[bucket_of(id)];
	while (*p && strcmp((*p)->id, id))
		p = &(*p)->next;
	return p;
}

static void evicted_drop(struct game_service *gs, struct evicted_game **link)
{
	struct evicted_game *e = *link;
	*link = e->next;
	dheap_remove(&gs->timer_evicted, &e->timer);
	free(e);
	gs->n_evicted--;
}

static void live_free(struct live_game *lg)
{
	fold_view_fini(&lg->view);
	event_ring_fini(&lg->ring);
	free(lg);
}

/* Keeps an event for the polls, encoded once here. */
static void ring_add(struct live_game *lg, const struct protocol_event *pe, int64_t visible_to)
{
	char *json = protocol_event_encode_own(pe);
	if (!json) {
		/* Only an event this server did not encode could get here; the
		 * polls then read the store. */
		log_error("game %s: event %lld does not encode; served from the store", lg->id, (long long)pe->seq);
		event_ring_fini(&lg->ring);
		return;
	}
	event_ring_push(&lg->ring, pe->seq, visible_to, json);
}

/* The instant of a new event: the wall clock, but never before the game's
 * last event (a wall clock stepped back must not run a game clock back). */
static int64_t instant(const struct game_view *v)
{
	int64_t t = now_wall_ms();
	return t < v->last_t_ms ? v->last_t_ms : t;
}

/* ---- loading ---- */

struct replay {
	struct live_game *lg;
	int rc;
};

static int replay_event(void *arg, const struct store_event *ev)
{
	struct replay *r = arg;
	struct protocol_event pe = { .seq = ev->seq, .t_ms = ev->created_ms, .data = (char *)ev->payload };
	struct protocol_error err;
	snprintf(pe.type, sizeof pe.type, "%s", ev->type);
	if (fold_apply(&r->lg->view, &pe, &err)) {
		log_error("game %s: event %lld (%s) does not fold: %s", r->lg->id, (long long)ev->seq, ev->type,
			  err.message);
		r->rc = -1;
		return 1;
	}
	ring_add(r->lg, &pe, ev->visible_to);
	return 0;
}

/* The game from memory, or rebuilt from the store by replaying its events;
 * NULL after filling out (404 or 500). */
static struct live_game *lookup(struct game_service *gs, const char *id, struct game_outcome *out)
{
	if (!protocol_game_id_valid(id)) {
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return NULL;
	}
	for (struct live_game *lg = gs->bucket[bucket_of(id)]; lg; lg = lg->next) {
		if (!strcmp(lg->id, id)) {
			lg->used_ms = now_wall_ms();
			return lg;
		}
	}
	struct store_game g;
	struct evicted_game **link;
	switch (store_game_get(gs->srv->store, id, &g)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		/* Not by this server, which erases only live games; a record
		 * of a game that is no more would bring nothing back. */
		link = evicted_link(gs, id);
		if (*link)
			evicted_drop(gs, link);
		if (game_service_erased(gs, id))
			fail(out, PROTOCOL_ERR_GONE, "the game was aborted and erased");
		else
			fail(out, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return NULL;
	default:
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return NULL;
	}
	struct live_game *lg = xcalloc(1, sizeof *lg);
	lg->last_seen[WHITE] = lg->last_seen[BLACK] = now_wall_ms();
	snprintf(lg->id, sizeof lg->id, "%s", g.id);
	lg->created_ms = g.created_ms;
	fold_view_init(&lg->view);
	event_ring_init(&lg->ring);
	/* params is what game_service_create wrote: {} or the invite's hash. */
	if (g.params && sscanf(g.params, "{\"invite_sha256\":\"%64[0-9a-f]\"}", lg->invite_hash) != 1)
		lg->invite_hash[0] = '\0';
	store_game_fini(&g);
	struct replay r = { .lg = lg };
	if (store_events_after(gs->srv->store, id, 0, STORE_VIEWER_ALL, 0, replay_event, &r) || r.rc ||
	    !lg->view.created) {
		live_free(lg);
		fail(out, PROTOCOL_ERR_INTERNAL, "the game's log cannot be replayed");
		return NULL;
	}
	/* What the store holds was written before this process's commits,
	 * or is a game none of them touched, or one evicted only once all
	 * its events were: durable. */
	lg->durable_seq = lg->view.seq;
	/* Back from eviction: memory's part as it was when it left. */
	link = evicted_link(gs, id);
	if (*link) {
		for (int c = WHITE; c <= BLACK; c++) {
			lg->last_seen[c] = (*link)->last_seen[c];
			lg->invalid[c] = (*link)->invalid[c];
		}
		evicted_drop(gs, link);
		log_debug("game %s: back in memory (seq %lld)", lg->id, (long long)lg->view.seq);
	}
	insert(gs, lg);
	return lg;
}

/* ---- publishing (group commit) ---- */

static void list_push(struct live_game ***list, size_t *n, size_t *cap, struct live_game *lg)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*list = xrealloc(*list, *cap * sizeof **list);
	}
	(*list)[(*n)++] = lg;
}

static void list_drop(struct live_game **list, size_t *n, struct live_game *lg)
{
	for (size_t i = 0; i < *n; i++) {
		if (list[i] == lg) {
			list[i] = list[--*n];
			return;
		}
	}
}

/* After a commit of lg's events: shown at once when commits are durable as
 * they return (sync = normal), else once the syncer's fsync covers them. */
static void publish(struct game_service *gs, struct live_game *lg)
{
	struct server *srv = gs->srv;
	if (!store_syncs(srv->store)) {
		lg->durable_seq = lg->view.seq;
		server_notify_game(srv, lg->id);
		return;
	}
	if (!lg->dirty) {
		lg->dirty = true;
		list_push(&gs->dirty, &gs->n_dirty, &gs->cap_dirty, lg);
	}
	server_committed(srv);
}

void game_service_sync_begin(struct game_service *gs)
{
	for (size_t i = 0; i < gs->n_dirty; i++) {
		struct live_game *lg = gs->dirty[i];
		lg->dirty = false;
		lg->flight_seq = lg->view.seq;
		if (!lg->in_flight) {
			lg->in_flight = true;
			list_push(&gs->flight, &gs->n_flight, &gs->cap_flight, lg);
		}
	}
	gs->n_dirty = 0;
}

void game_service_durable(struct game_service *gs)
{
	for (size_t i = 0; i < gs->n_flight; i++) {
		struct live_game *lg = gs->flight[i];
		lg->in_flight = false;
		if (lg->flight_seq > lg->durable_seq) {
			lg->durable_seq = lg->flight_seq;
			server_notify_game(gs->srv, lg->id);
		}
	}
	gs->n_flight = 0;
}

/* ---- transactions ---- */

static int txn_begin(struct txn *t, struct game_service *gs, struct live_game *lg, struct game_outcome *out)
{
	memset(t, 0, sizeof *t);
	t->gs = gs;
	t->lg = lg;
	if (gs->batch) {
		/* One change per game per batch: a second would not see the first. */
		for (size_t i = 0; i < gs->n_pending; i++) {
			if (gs->pending[i].lg == lg) {
				fail(out, PROTOCOL_ERR_INTERNAL, "game changed twice in one batch");
				return -1;
			}
		}
	}
	fold_view_copy(&t->work, &lg->view);
	if (!gs->batch && store_begin(gs->srv->store)) {
		fold_view_fini(&t->work);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	return 0;
}

static void txn_abort(struct txn *t)
{
	store_rollback(t->gs->srv->store);
	if (t->gs->batch)
		t->gs->batch_failed = true;
	fold_view_fini(&t->work);
	for (size_t i = 0; i < t->n; i++)
		protocol_event_fini(&t->ev[i]);
	t->n = 0;
}

/* Applies e to the work copy, then appends it (payload: e's encoding, or
 * raw for an event the fold ignores). Fails (rolling back) with the fold's
 * complaint as a bad request, or a storage failure. */
static int txn_add_raw(struct txn *t, struct fold_event *e, const char *type, const char *raw, int64_t visible_to,
		       int64_t t_ms, struct game_outcome *out)
{
	struct protocol_error err;
	int64_t seq = t->work.seq + 1;
	if (t->n == TXN_EVENTS_MAX || fold_apply_event(&t->work, seq, t_ms, e, &err)) {
		txn_abort(t);
		if (t->n == TXN_EVENTS_MAX)
			fail(out, PROTOCOL_ERR_INTERNAL, "too many events in one command");
		else
			fail(out, err.code, "%s", err.message);
		return -1;
	}
	/* The readings an event carries are the fold's, after the event. */
	if (e->kind == FOLD_EV_STARTED || e->kind == FOLD_EV_MOVE || e->kind == FOLD_EV_ENDED ||
	    e->kind == FOLD_EV_CLOCK_RESUMED || e->kind == FOLD_EV_ADJOURNED || e->kind == FOLD_EV_RESUMED ||
	    e->kind == FOLD_EV_TIME_ADDED || e->kind == FOLD_EV_VACATION) {
		e->has_clock = true;
		fold_clock_read(&t->work, t->work.last_t_ms, &e->clock);
	}
	if (e->kind == FOLD_EV_ENDED) {
		snprintf(e->result, sizeof e->result, "%s", game_result_str(t->work.game.result));
		snprintf(e->termination, sizeof e->termination, "%s",
			 game_termination_str(t->work.game.termination));
	}
	char *payload = raw ? xstrdup(raw) : fold_event_encode(e);
	int64_t got = 0;
	if (store_event_append(t->gs->srv->store, t->lg->id, type, payload, visible_to, t->work.last_t_ms, &got) ||
	    got != seq) {
		if (got && got != seq)
			log_error("game %s: store gave seq %lld, the fold expected %lld", t->lg->id, (long long)got,
				  (long long)seq);
		free(payload);
		txn_abort(t);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	struct protocol_event *pe = &t->ev[t->n];
	pe->seq = seq;
	pe->t_ms = t->work.last_t_ms;
	snprintf(pe->type, sizeof pe->type, "%s", type);
	pe->data = payload;
	t->visible_to[t->n++] = visible_to;
	log_info("game %s: event %lld %s%s", t->lg->id, (long long)seq, type, visible_to ? " (private)" : "");
	return 0;
}

static int txn_add(struct txn *t, struct fold_event *e, int64_t visible_to, int64_t t_ms, struct game_outcome *out)
{
	return txn_add_raw(t, e, fold_event_type(e->kind), NULL, visible_to, t_ms, out);
}

static void engine_sync(struct game_service *gs, struct live_game *lg);

static void row_of(const struct live_game *lg, const struct game_view *v, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", lg->id);
	snprintf(g->status, sizeof g->status, "%s", fold_status(v));
	g->created_ms = lg->created_ms;
	g->white = v->seats[WHITE].kind == FOLD_SEAT_HUMAN ? v->seats[WHITE].player : 0;
	g->black = v->seats[BLACK].kind == FOLD_SEAT_HUMAN ? v->seats[BLACK].player : 0;
	/* An aborted game stays "unfinished" in the store until the timer
	 * erases it, so a restart in between still finds and erases it. */
	g->finished = v->created && game_is_over(&v->game) && v->game.termination != GAME_TERM_ABORTED;
}

static int reveal_notes(struct txn *t, struct game_outcome *out);

/* Writes the game row, commits, makes the work copy live, wakes the polls
 * and the flag timer, and gives the caller (viewer) the events it may see. */
static int txn_commit(struct txn *t, int64_t viewer, struct game_outcome *out)
{
	struct game_service *gs = t->gs;
	struct server *srv = gs->srv;
	struct store_game row;
	if (t->work.created && game_is_over(&t->work.game) && !game_is_over(&t->lg->view.game) &&
	    reveal_notes(t, out))
		return -1;
	row_of(t->lg, &t->work, &row);
	bool ended = game_is_over(&t->work.game) && !(t->lg->view.created && game_is_over(&t->lg->view.game));
	/* Most commands (a move) leave the row as it was: no UPDATE then. */
	struct store_game was;
	row_of(t->lg, &t->lg->view, &was);
	bool same = t->lg->view.created && !strcmp(row.status, was.status) && row.white == was.white &&
		    row.black == was.black && row.finished == was.finished;
	if ((!same && store_game_update(srv->store, &row)) ||
	    (ended && gs->hooks.ended && gs->hooks.ended(gs->hooks.ctx, t->lg->id, &t->work)) ||
	    (!gs->batch && store_commit(srv->store))) {
		txn_abort(t);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (gs->batch) {
		/* Made live, encoded and published when the batch commits; the
		 * polls read these events from the store. */
		gs->pending = xrealloc(gs->pending, (gs->n_pending + 1) * sizeof *gs->pending);
		gs->pending[gs->n_pending++] = (struct batch_item){ .lg = t->lg, .view = t->work };
	} else {
		fold_view_fini(&t->lg->view);
		t->lg->view = t->work;
		t->lg->used_ms = now_wall_ms();
		for (size_t i = 0; i < t->n; i++)
			ring_add(t->lg, &t->ev[i], t->visible_to[i]);
	}
	out->status = 200;
	out->events.seq = t->lg->view.seq;
	out->events.now_ms = now_wall_ms();
	out->events.events = xcalloc(t->n ? t->n : 1, sizeof *out->events.events);
	for (size_t i = 0; i < t->n; i++) {
		if (t->visible_to[i] && t->visible_to[i] != viewer) {
			protocol_event_fini(&t->ev[i]);
			continue;
		}
		out->events.events[out->events.n++] = t->ev[i];
	}
	t->n = 0;
	if (!gs->batch) {
		publish(gs, t->lg);
		timer_poke(gs, t->lg);
		engine_sync(gs, t->lg);
	}
	return 0;
}

/* ---- building events ---- */

static void move_event(struct fold_event *e, const struct game_view *v, move m, int64_t think_ms, bool premove)
{
	fold_event_init(e, FOLD_EV_MOVE);
	e->color = game_side_to_move(&v->game);
	e->ply = (int64_t)v->game.n_plies;
	uci_write(&v->game.pos, m, e->uci);
	san_write(&v->game.pos, m, e->san);
	struct position p = v->game.pos;
	struct undo u;
	position_make(&p, m, &u);
	fen_write(&p, e->fen);
	e->think_ms = think_ms;
	e->premove = premove;
}

/* After a move: the game-ended event if the move ended the game. */
static int end_if_over(struct txn *t, int64_t t_ms, struct game_outcome *out)
{
	if (!game_is_over(&t->work.game))
		return 0;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(t->work.game.termination));
	return txn_add(t, &e, 0, t_ms, out);
}

/* After a move: the side to move's premove queue is resolved in the same
 * transaction: played with zero thinking time, or discarded with a private
 * event to its owner. Played premoves may end the game, or leave the next
 * one for the opponent's next move. */
static int resolve_premoves(struct txn *t, int64_t t_ms, struct game_outcome *out)
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
			move_event(&e, &t->work, m, 0, true);
			if (txn_add(t, &e, 0, t_ms, out) || end_if_over(t, t_ms, out))
				return -1;
			continue;
		}
		if (verdict == PREMOVE_DISCARD) {
			fold_event_init(&e, FOLD_EV_PREMOVE_DISCARDED);
			e.color = side;
			e.ply = (int64_t)t->work.game.n_plies;
			snprintf(e.uci, sizeof e.uci, "%s", first);
			snprintf(e.reason, sizeof e.reason, "%s", why);
			return txn_add(t, &e, t->work.seats[side].player, t_ms, out);
		}
		return 0;
	}
	return 0;
}

/* Ends the game on time at t_ms (the running side's flag has fallen). */
static int flag_game(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out)
{
	struct txn t;
	if (txn_begin(&t, gs, lg, out))
		return -1;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TIMEOUT));
	e.color = lg->view.clock.running;
	if (txn_add(&t, &e, 0, t_ms, out) || txn_commit(&t, 0, out))
		return -1;
	log_info("game %s: %s flag fell", lg->id, fold_color_str(e.color));
	return 0;
}

/* ---- commands ---- */

static void seen(struct game_service *gs, struct live_game *lg, int color);
static void account(struct game_service *gs, struct live_game *lg, int color, const struct game_outcome *out);

/* The caller's seat, or -1 after failing with 403. */
static int seat_or_forbidden(struct live_game *lg, int64_t me, struct game_outcome *out)
{
	int c = fold_seat_of(&lg->view, me);
	if (c < 0)
		fail(out, PROTOCOL_ERR_FORBIDDEN, "you have no seat in this game");
	return c;
}

static void stale(struct game_outcome *out, const struct game_view *v, int64_t ply)
{
	fail(out, PROTOCOL_ERR_CONFLICT, "stale ply %lld: the game is at ply %zu (seq %lld)", (long long)ply,
	     v->game.n_plies, (long long)v->seq);
	out->err.seq = v->seq;
}

struct one_event {
	struct protocol_events *evs;
};

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
static void retry_or_stale(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
			   const char *text, struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	struct position p;
	move m;
	if (ply < 0 || (size_t)ply >= v->game.n_plies || game_position_at(&v->game, (size_t)ply, &p, NULL) ||
	    p.side != color || notation_parse_move(&p, text, strlen(text), &m, NULL) ||
	    m != v->game.plies[ply].m) {
		stale(out, v, ply);
		return;
	}
	out->events.events = xcalloc(1, sizeof *out->events.events);
	if (store_events_after(gs->srv->store, lg->id, v->plies[ply].seq - 1, viewer, 1, keep_event, &out->events) ||
	    out->events.n != 1) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	out->events.seq = v->seq;
	out->events.now_ms = now_wall_ms();
	out->status = 200;
}

/* The one move path: humans (through the API) and engine seats. */
static void play(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
		 const char *text, struct game_outcome *out)
{
	struct game_view *v = &lg->view;
	if (!v->started) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game has not started: a seat is free");
		return;
	}
	if (ply != (int64_t)v->game.n_plies) {
		retry_or_stale(gs, lg, color, viewer, ply, text, out);
		return;
	}
	if (game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is over (%s)", game_termination_str(v->game.termination));
		return;
	}
	if (fold_adjourned(v)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is adjourned: resume it first");
		return;
	}
	if (color != (int)game_side_to_move(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "it is not your move");
		return;
	}
	int64_t t_ms = instant(v);
	if (fold_clock_expiry(v) <= t_ms) {
		/* The move came too late: the flag fell first. */
		if (flag_game(gs, lg, t_ms, out))
			return;
		protocol_events_fini(&out->events);
		fail(out, PROTOCOL_ERR_CONFLICT, "your time ran out: the game is over (%s)",
		     game_termination_str(lg->view.game.termination));
		return;
	}
	move m;
	struct tchess_error terr;
	if (notation_parse_move(&v->game.pos, text, strlen(text), &m, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	struct fold_clock_reading before;
	fold_clock_read(v, t_ms, &before);
	struct txn t;
	if (txn_begin(&t, gs, lg, out))
		return;
	struct fold_event e;
	move_event(&e, &t.work, m, before.running == color ? before.turn_used_ms : 0, false);
	if (txn_add(&t, &e, 0, t_ms, out) || end_if_over(&t, t_ms, out) || resolve_premoves(&t, t_ms, out))
		return;
	txn_commit(&t, viewer, out);
}

/* ---- engine seats ---- */

static struct live_game *find_live(struct game_service *gs, const char *id)
{
	for (struct live_game *lg = gs->bucket[bucket_of(id)]; lg; lg = lg->next) {
		if (!strcmp(lg->id, id))
			return lg;
	}
	return NULL;
}

/* Ends the game as an unscored technical failure because its engine seat
 * could not move; the event's reason says why, for the human and the log. */
static void engine_failed(struct game_service *gs, struct live_game *lg, int side, const char *why)
{
	struct game_outcome o = { 0 };
	struct txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TECHNICAL_FAILURE));
	snprintf(e.reason, sizeof e.reason, "engine failed (%s, level %d): %.160s", fold_color_str(side),
		 lg->view.seats[side].level, why);
	if (txn_begin(&t, gs, lg, &o) || txn_add(&t, &e, 0, instant(&lg->view), &o) || txn_commit(&t, 0, &o))
		log_error("game %s: cannot end the game after its engine failed: %s", lg->id, o.err.message);
	else
		log_warn("game %s: %s; the game ends unscored", lg->id, e.reason);
	game_outcome_fini(&o);
}

/* The pool's answer, on a pool thread. Played only if it is still the
 * game's current request (engine_sync withdraws or forgets a request the
 * game moved past, so a stale answer finds lg->ask changed). */
static void engine_done(void *arg, const char *uci, const char *error)
{
	struct engine_ask *a = arg;
	struct game_service *gs = a->gs;
	pthread_mutex_lock(&gs->srv->lock);
	struct live_game *lg = gs->engines_stopped ? NULL : find_live(gs, a->id);
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
		engine_sync(gs, lg);
		goto out;
	}
	if (error) {
		engine_failed(gs, lg, a->side, error);
		goto out;
	}
	struct game_outcome o = { 0 };
	play(gs, lg, a->side, 0, a->ply, uci, &o);
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
static void engine_sync(struct game_service *gs, struct live_game *lg)
{
	const struct game_view *v = &lg->view;
	int side = fold_running(v) ? (int)game_side_to_move(&v->game) : -1;
	bool wanted = side >= 0 && v->seats[side].kind == FOLD_SEAT_ENGINE && !gs->engines_stopped;
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

static void provisional(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
			const char *text, struct game_outcome *out);

void game_service_move(struct game_service *gs, int64_t me, const char *id, const struct protocol_move_request *req,
		       struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = seat_or_forbidden(lg, me, out);
	if (color < 0)
		return;
	seen(gs, lg, color);
	if (lg->view.undo)
		provisional(gs, lg, color, me, req->ply, req->move, out);
	else
		play(gs, lg, color, me, req->ply, req->move, out);
	account(gs, lg, color, out);
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
		if (!fold_running(v)) {
			fail(out, PROTOCOL_ERR_CONFLICT, "the game is not running");
			return;
		}
		if (req->ply != (int64_t)v->game.n_plies) {
			stale(out, v, req->ply);
			return;
		}
		if (color == (int)game_side_to_move(&v->game)) {
			fail(out, PROTOCOL_ERR_CONFLICT, "it is your move: play it instead");
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
				fail(out, PROTOCOL_ERR_ILLEGAL, "premove %d (%s): %s", i + 1, req->moves[i],
				     terr.message);
				return;
			}
		}
		for (int i = 0; i < q.n; i++)
			premove_write(&q.items[i], v->game.pos.chess960, e.moves[i]);
		e.n_moves = q.n;
	}
	struct txn t;
	if (txn_begin(&t, gs, lg, out) || txn_add(&t, &e, me, instant(v), out))
		return;
	txn_commit(&t, me, out);
}

void game_service_premoves(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_premoves_request *req, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = seat_or_forbidden(lg, me, out);
	if (color < 0)
		return;
	seen(gs, lg, color);
	premoves(gs, lg, color, me, req, out);
	account(gs, lg, color, out);
}

void game_service_resign(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = seat_or_forbidden(lg, me, out);
	if (color < 0)
		return;
	seen(gs, lg, color);
	if (!fold_running(&lg->view)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is not running");
		return;
	}
	struct txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_RESIGNATION));
	e.color = color;
	if (txn_begin(&t, gs, lg, out) || txn_add(&t, &e, 0, instant(&lg->view), out))
		return;
	txn_commit(&t, me, out);
}

void game_service_note(struct game_service *gs, int64_t me, const char *id, const char *payload,
		       struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	int color;
	if (!lg || (color = seat_or_forbidden(lg, me, out)) < 0)
		return;
	seen(gs, lg, color);
	/* Notes are private while the game runs and public once it is over
	 * (the notes-revealed event shows the earlier ones). */
	int64_t to = lg->view.created && game_is_over(&lg->view.game) ? 0 : me;
	struct txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	if (txn_begin(&t, gs, lg, out) || txn_add_raw(&t, &e, "note", payload, to, instant(&lg->view), out))
		return;
	if (!txn_commit(&t, me, out))
		out->status = 201;
}

static void seat_answer(struct game_outcome *out, int status, const char *id, int color, int64_t seq,
			const char *invite)
{
	struct protocol_seat_response r = { .seq = seq };
	snprintf(r.id, sizeof r.id, "%s", id);
	snprintf(r.color, sizeof r.color, "%s", fold_color_str(color));
	snprintf(r.invite, sizeof r.invite, "%s", invite ? invite : "");
	protocol_events_fini(&out->events);
	out->body = protocol_seat_response_encode(&r);
	out->status = status;
}

/* A correspondence game carries its seats' vacations as events, so every
 * fold stops the same clocks; those that ended already cannot matter. */
static int add_vacations(struct txn *t, int64_t t_ms, struct game_outcome *out)
{
	struct game_service *gs = t->gs;
	if (t->work.clock.tc.kind != TC_CORRESPONDENCE || !gs->hooks.vacations)
		return 0;
	for (int side = WHITE; side <= BLACK; side++) {
		if (t->work.seats[side].kind != FOLD_SEAT_HUMAN)
			continue;
		struct vacation vac[FOLD_VACATIONS_MAX];
		int n = gs->hooks.vacations(gs->hooks.ctx, t->work.seats[side].player, t_ms, vac, FOLD_VACATIONS_MAX);
		if (n < 0) {
			txn_abort(t);
			fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
			return -1;
		}
		for (int k = 0; k < n; k++) {
			struct fold_event e;
			fold_event_init(&e, FOLD_EV_VACATION);
			e.color = side;
			e.vacation = vac[k];
			if (txn_add(t, &e, 0, t_ms, out))
				return -1;
		}
	}
	return 0;
}

/* When both seats are filled, the game starts: the clock of the side to
 * move runs from this instant. */
static int start_if_full(struct txn *t, int64_t t_ms, struct game_outcome *out)
{
	if (t->work.seats[WHITE].kind == FOLD_SEAT_EMPTY || t->work.seats[BLACK].kind == FOLD_SEAT_EMPTY)
		return 0;
	if (add_vacations(t, t_ms, out))
		return -1;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_STARTED);
	t->lg->last_seen[WHITE] = t->lg->last_seen[BLACK] = t_ms;
	return txn_add(t, &e, 0, t_ms, out);
}

void game_service_create(struct game_service *gs, int64_t me, const char *me_name,
			 const struct protocol_game_create_request *req, struct game_outcome *out)
{
	struct time_control tc;
	struct tchess_error terr;
	struct ruleset rules;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CREATED);
	if (time_control_parse(&tc, req->tc, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "tc: %s", terr.message);
		return;
	}
	time_control_format(&tc, e.tc, sizeof e.tc);
	snprintf(e.ruleset, sizeof e.ruleset, "%s", req->ruleset[0] ? req->ruleset : "fide");
	if (!ruleset_preset(&rules, e.ruleset)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "ruleset: expected fide, yourpot or chessgamble");
		return;
	}
	const char *opponent = req->opponent[0] ? req->opponent : "open";
	bool engine = !strcmp(opponent, "engine");
	if (!engine && strcmp(opponent, "open") && strcmp(opponent, "invite")) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "opponent: expected open, invite or engine");
		return;
	}
	snprintf(e.opponent, sizeof e.opponent, "%.7s", opponent);
	if (engine && (req->level < 1 || req->level > FOLD_ENGINE_LEVEL_MAX)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "level: an engine game needs a level from 1 to %d",
		     FOLD_ENGINE_LEVEL_MAX);
		return;
	}
	if (!engine && req->level) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "level: only engine games have a level");
		return;
	}
	if (engine && (!gs->srv->engines || gs->engines_stopped)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST,
		     "opponent: this server has no engine (see tchessd --engine and engine_processes)");
		return;
	}
	int color;
	if (!req->color[0] || !strcmp(req->color, "random")) {
		uint8_t byte;
		if (token_random(&byte, 1)) {
			fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
			return;
		}
		color = byte & 1 ? BLACK : WHITE;
	} else if (!fold_color_parse(req->color, &color)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "color: expected white, black or random");
		return;
	}
	struct position start;
	if (req->fen[0]) {
		if (fen_parse(&start, req->fen, &terr) != TCHESS_OK) {
			fail(out, PROTOCOL_ERR_BAD_REQUEST, "fen: %s", terr.message);
			return;
		}
	} else {
		position_init_start(&start);
	}
	fen_write(&start, e.fen);
	e.undo = req->undo;
	e.seats[color].kind = FOLD_SEAT_HUMAN;
	e.seats[color].player = me;
	snprintf(e.seats[color].name, sizeof e.seats[color].name, "%s", me_name);
	if (engine) {
		e.seats[!color].kind = FOLD_SEAT_ENGINE;
		e.seats[!color].level = (int)req->level;
	}

	struct live_game *lg = xcalloc(1, sizeof *lg);
	fold_view_init(&lg->view);
	lg->created_ms = now_wall_ms();
	char invite[TOKEN_INVITE_LEN + 1] = "", typed[TOKEN_INVITE_LEN + 1] = "";
	if (token_random_hex(lg->id, TOKEN_ID_BYTES) ||
	    (!strcmp(e.opponent, "invite") && token_invite_new(invite))) {
		live_free(lg);
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	char params[128] = "{}";
	if (invite[0]) {
		uint8_t h[SHA256_DIGEST_SIZE];
		/* The hash is of the code's typed form (no dash), as a join's is. */
		token_invite_normalize(invite, typed, sizeof typed);
		sha256(typed, strlen(typed), h);
		token_hex(lg->invite_hash, h, sizeof h);
		snprintf(params, sizeof params, "{\"invite_sha256\":\"%s\"}", lg->invite_hash);
	}
	struct store_game row = { .created_ms = lg->created_ms, .params = params };
	snprintf(row.id, sizeof row.id, "%s", lg->id);
	snprintf(row.status, sizeof row.status, "open");
	struct txn t;
	if (txn_begin(&t, gs, lg, out)) {
		live_free(lg);
		return;
	}
	if (store_game_create(gs->srv->store, &row)) {
		txn_abort(&t);
		live_free(lg);
		store_failed(gs, out);
		return;
	}
	if (txn_add(&t, &e, 0, lg->created_ms, out) || start_if_full(&t, lg->created_ms, out) ||
	    txn_commit(&t, me, out)) {
		live_free(lg);
		return;
	}
	insert(gs, lg);
	seat_answer(out, 201, lg->id, color, lg->view.seq, invite);
}

void game_service_join(struct game_service *gs, int64_t me, const char *me_name, const char *id,
		       const struct protocol_join_request *req, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	struct game_view *v = &lg->view;
	if (fold_seat_of(v, me) >= 0) {
		fail(out, PROTOCOL_ERR_CONFLICT, "you are already seated in this game");
		return;
	}
	int color = v->seats[WHITE].kind == FOLD_SEAT_EMPTY ? WHITE : v->seats[BLACK].kind == FOLD_SEAT_EMPTY ? BLACK : -1;
	if (color < 0 || game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "no seat is free");
		return;
	}
	if (lg->invite_hash[0]) {
		uint8_t h[SHA256_DIGEST_SIZE];
		char hex[2 * SHA256_DIGEST_SIZE + 1];
		char typed[PROTOCOL_INVITE_MAX + 1];
		token_invite_normalize(req->invite, typed, sizeof typed);
		sha256(typed, strlen(typed), h);
		token_hex(hex, h, sizeof h);
		if (!token_equal(hex, lg->invite_hash, sizeof hex - 1)) {
			fail(out, PROTOCOL_ERR_FORBIDDEN,
			     req->invite[0] ? "wrong invite code for this game (check it against the inviter's screen)"
					    : "this game needs its invite code");
			return;
		}
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = color;
	e.seats[color].kind = FOLD_SEAT_HUMAN;
	e.seats[color].player = me;
	snprintf(e.seats[color].name, sizeof e.seats[color].name, "%s", me_name);
	struct txn t;
	int64_t t_ms = instant(v);
	if (txn_begin(&t, gs, lg, out) || txn_add(&t, &e, 0, t_ms, out) || start_if_full(&t, t_ms, out) ||
	    txn_commit(&t, me, out))
		return;
	seat_answer(out, 200, lg->id, color, lg->view.seq, NULL);
}

/* ---- game actions: offers, claims, abort, adjournment, presence ---- */

bool game_service_erased(const struct game_service *gs, const char *id)
{
	unsigned n = gs->n_tombstones < GS_TOMBSTONES ? gs->n_tombstones : GS_TOMBSTONES;
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(gs->tombstones[i], id))
			return true;
	}
	return false;
}

/* Every note of the game becomes public in the transaction that ends it:
 * one "notes-revealed" event listing them in order. */
static int collect_note(void *arg, const struct store_event *ev)
{
	cJSON *list = arg;
	if (strcmp(ev->type, "note"))
		return 0;
	cJSON *n = cJSON_Parse(ev->payload ? ev->payload : "{}");
	cJSON *text = n ? cJSON_GetObjectItemCaseSensitive(n, "text") : NULL;
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_IsString(text)) {
		cJSON_Delete(n);
		cJSON_Delete(o);
		return 0;
	}
	cJSON_AddNumberToObject(o, "seq", (double)ev->seq);
	cJSON_AddNumberToObject(o, "t_ms", (double)ev->created_ms);
	cJSON_AddNumberToObject(o, "player", (double)ev->visible_to);
	cJSON_AddStringToObject(o, "text", text->valuestring);
	cJSON_AddItemToArray(list, o);
	cJSON_Delete(n);
	return 0;
}

static int reveal_notes(struct txn *t, struct game_outcome *out)
{
	cJSON *list = cJSON_CreateArray();
	if (!list)
		xalloc_die();
	if (store_events_after(t->gs->srv->store, t->lg->id, 0, STORE_VIEWER_ALL, 0, collect_note, list)) {
		cJSON_Delete(list);
		txn_abort(t);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (!cJSON_GetArraySize(list)) {
		cJSON_Delete(list);
		return 0;
	}
	cJSON *o = cJSON_CreateObject();
	if (!o)
		xalloc_die();
	cJSON_AddItemToObject(o, "notes", list);
	char *payload = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!payload)
		xalloc_die();
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	int rc = txn_add_raw(t, &e, "notes-revealed", payload, 0, t->work.last_t_ms, out);
	free(payload);
	return rc;
}

/* The ruleset's timings, or the operator's overrides (tchessd(8)). */
static int64_t grace_ms(const struct game_service *gs, const struct game_view *v)
{
	return gs->srv->cfg.grace_ms > 0 ? gs->srv->cfg.grace_ms : v->game.rules.disconnect_grace_ms;
}

static int64_t first_move_ms(const struct game_service *gs, const struct game_view *v)
{
	return gs->srv->cfg.first_move_ms > 0 ? gs->srv->cfg.first_move_ms : v->game.rules.first_move_timeout_ms;
}

/* A server-made event in its own transaction (the timer's, or presence). */
static int server_event(struct game_service *gs, struct live_game *lg, struct fold_event *e, struct fold_event *then)
{
	struct game_outcome o = { 0 };
	struct txn t;
	int64_t t_ms = instant(&lg->view);
	int rc = txn_begin(&t, gs, lg, &o) || txn_add(&t, e, 0, t_ms, &o) ||
		 (then && txn_add(&t, then, 0, t_ms, &o)) || txn_commit(&t, 0, &o);
	if (rc)
		log_error("game %s: %s refused: %s", lg->id, fold_event_type(e->kind), o.err.message);
	game_outcome_fini(&o);
	return rc ? -1 : 0;
}

/* A request by the seat: it is present; if a presence event said it was
 * gone, it is back. */
static void seen(struct game_service *gs, struct live_game *lg, int color)
{
	lg->last_seen[color] = now_wall_ms();
	/* After the end too (a player back in time for a rematch), but not in
	 * an aborted game, which is about to be erased. */
	if (lg->view.absent[color] && lg->view.created &&
	    (!game_is_over(&lg->view.game) || lg->view.game.termination != GAME_TERM_ABORTED)) {
		struct fold_event e;
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = color;
		e.present = true;
		server_event(gs, lg, &e, NULL);
	}
}

/* Ends the game for a technical failure (reason as in tchess-protocol(7)). */
static int technical_failure(struct game_service *gs, struct live_game *lg, int color, const char *reason)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TECHNICAL_FAILURE));
	snprintf(e.reason, sizeof e.reason, "%s", reason);
	e.color = color;
	return server_event(gs, lg, &e, NULL);
}

/* Consecutive invalid commands: "a broken bot" forfeits after more than
 * the ruleset's limit. Stale plies (409 with seq) are ordinary races and
 * do not count; a success resets the count. */
static void account(struct game_service *gs, struct live_game *lg, int color, const struct game_outcome *out)
{
	if (!out->failed) {
		lg->invalid[color] = 0;
		return;
	}
	enum protocol_error_code c = out->err.code;
	if (!(c == PROTOCOL_ERR_ILLEGAL || c == PROTOCOL_ERR_BAD_REQUEST ||
	      (c == PROTOCOL_ERR_CONFLICT && out->err.seq == 0)))
		return;
	lg->invalid[color]++;
	if (lg->invalid[color] > lg->view.game.rules.invalid_command_limit && fold_running(&lg->view)) {
		log_warn("game %s: %s sent %d invalid commands in a row", lg->id, fold_color_str(color),
			 lg->invalid[color]);
		technical_failure(gs, lg, color, "invalid-commands");
	}
}

void game_service_invalid(struct game_service *gs, int64_t me, const char *id, const struct protocol_error *err)
{
	struct game_outcome o = { 0 };
	struct live_game *lg = lookup(gs, id, &o);
	int color = lg ? fold_seat_of(&lg->view, me) : -1;
	if (color >= 0) {
		o.failed = true;
		o.err = *err;
		seen(gs, lg, color);
		account(gs, lg, color, &o);
	}
	game_outcome_fini(&o);
}

void game_service_touch(struct game_service *gs, int64_t me, const char *id, int parked_delta)
{
	struct game_outcome o = { 0 };
	struct live_game *lg = lookup(gs, id, &o);
	int color = lg ? fold_seat_of(&lg->view, me) : -1;
	game_outcome_fini(&o);
	if (color < 0)
		return;
	lg->parked[color] += parked_delta;
	if (lg->parked[color] < 0)
		lg->parked[color] = 0;
	seen(gs, lg, color);
	/* The seat's deadline moved: the timer hears of it if it is now
	 * earlier than its next wake (a poll coming back starts the grace). */
	timer_poke(gs, lg);
}

/* Success without a second effect: the command was applied before. */
static void already_done(struct game_outcome *out, const struct game_view *v)
{
	out->status = 200;
	out->events.seq = v->seq;
	out->events.now_ms = now_wall_ms();
}

static bool retried(const struct game_view *v, int color, const char *key, int64_t ply)
{
	return v->last_cmd_ply[color] == ply && !strcmp(v->last_cmd[color], key);
}

/* A request is a retry only while it still stands: one declined since is
 * made anew by the same command. */
static bool request_retried(const struct game_view *v, int color, const struct fold_event *e, int64_t ply)
{
	char key[FOLD_CMD_MAX];
	fold_command_key(key, sizeof key, e);
	if (!retried(v, color, key, ply))
		return false;
	if (e->kind != FOLD_EV_REQUEST || e->action != FOLD_REQ_MADE)
		return true;
	switch (e->what) {
	case FOLD_REQ_DRAW:
		return v->game.offer_by == color;
	case FOLD_REQ_ABORT:
		return v->game.abort_request_by == color;
	case FOLD_REQ_ADJOURN:
		return v->adjourn_request_by == color;
	case FOLD_REQ_REMATCH:
		return v->rematch_by == color;
	default:
		return v->resume_request_by == color;
	}
}

/* The common start of an action: the game, the caller's seat (403), the
 * caller's presence. */
static struct live_game *action_begin(struct game_service *gs, int64_t me, const char *id, int *color,
				      struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return NULL;
	*color = seat_or_forbidden(lg, me, out);
	if (*color < 0)
		return NULL;
	seen(gs, lg, *color);
	return lg;
}

/* One transaction of one or two events; a refusal by the fold is a refusal
 * by the rules (422 with libtchess's message). */
static void action_commit(struct game_service *gs, struct live_game *lg, int64_t me, struct fold_event *e,
			  struct fold_event *then, struct game_outcome *out)
{
	struct txn t;
	int64_t t_ms = instant(&lg->view);
	if (txn_begin(&t, gs, lg, out))
		return;
	if (txn_add(&t, e, 0, t_ms, out) || (then && txn_add(&t, then, 0, t_ms, out))) {
		if (out->err.code == PROTOCOL_ERR_BAD_REQUEST)
			out->err.code = PROTOCOL_ERR_ILLEGAL;
		return;
	}
	txn_commit(&t, me, out);
}

/* 409 unless the game runs (started, not over, not adjourned). */
static bool running_or_conflict(const struct game_view *v, struct game_outcome *out)
{
	if (!v->started) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game has not started: a seat is free");
		return false;
	}
	if (game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is over (%s)", game_termination_str(v->game.termination));
		return false;
	}
	if (fold_adjourned(v)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is adjourned");
		return false;
	}
	return true;
}

static bool ply_or_stale(const struct game_view *v, int64_t ply, struct game_outcome *out)
{
	if (ply == (int64_t)v->game.n_plies)
		return true;
	stale(out, v, ply);
	return false;
}

static bool ended_by(const struct game_view *v, int color, enum game_termination term, int64_t ply)
{
	char key[FOLD_CMD_MAX];
	snprintf(key, sizeof key, "end-%s", game_termination_str(term));
	return game_is_over(&v->game) && v->game.termination == term && retried(v, color, key, ply);
}

static void request_event(struct fold_event *e, const struct game_view *v, int color, enum fold_request_what what,
			  enum fold_request_action action)
{
	fold_event_init(e, FOLD_EV_REQUEST);
	e->color = color;
	e->what = what;
	e->action = action;
	e->ply = (int64_t)v->game.n_plies;
}

static void ended_event(struct fold_event *e, int color, enum game_termination term, const char *reason)
{
	fold_event_init(e, FOLD_EV_ENDED);
	e->color = color;
	snprintf(e->termination, sizeof e->termination, "%s", game_termination_str(term));
	snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
}

/* Parses an action word against names; -1 after a 400. */
static int action_of(const char *word, const char *const *names, int n, const char *dflt, const char *endpoint,
		     struct game_outcome *out)
{
	const char *w = word[0] ? word : dflt;
	for (int i = 0; w && i < n; i++) {
		if (!strcmp(w, names[i]))
			return i;
	}
	char list[128] = "";
	for (int i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
	fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: action: expected one of %s", endpoint, list);
	return -1;
}

void game_service_draw(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out)
{
	static const char *const names[] = { "offer", "accept", "decline", "withdraw" };
	static const enum fold_request_action acts[] = { FOLD_REQ_MADE, FOLD_REQ_MADE, FOLD_REQ_DECLINED,
							 FOLD_REQ_WITHDRAWN };
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	int a = action_of(req->action, names, 4, NULL, "draw", out);
	if (a >= 0 && (req->claim[0] || req->move[0])) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "draw: takes only ply and action");
		a = -1;
	}
	if (a < 0)
		goto done;
	struct fold_event e;
	request_event(&e, v, color, FOLD_REQ_DRAW, acts[a]);
	if ((a == 1 && ended_by(v, color, GAME_TERM_AGREEMENT, req->ply)) ||
	    (a != 1 && request_retried(v, color, &e, req->ply))) {
		already_done(out, v);
		goto done;
	}
	if (!running_or_conflict(v, out) || !ply_or_stale(v, req->ply, out))
		goto done;
	if (a == 1)
		ended_event(&e, color, GAME_TERM_AGREEMENT, NULL);
	action_commit(gs, lg, me, &e, NULL, out);
done:
	account(gs, lg, color, out);
}

void game_service_abort(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out)
{
	static const char *const names[] = { "request", "accept", "decline" };
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	int a = action_of(req->action, names, 3, "request", "abort", out);
	if (a >= 0 && (req->claim[0] || req->move[0])) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "abort: takes only ply and action");
		a = -1;
	}
	if (a < 0)
		goto done;
	struct fold_event e;
	request_event(&e, v, color, FOLD_REQ_ABORT, a == 2 ? FOLD_REQ_DECLINED : FOLD_REQ_MADE);
	if (ended_by(v, color, GAME_TERM_ABORTED, req->ply) || (a != 1 && request_retried(v, color, &e, req->ply))) {
		already_done(out, v);
		goto done;
	}
	if (game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is over (%s)", game_termination_str(v->game.termination));
		goto done;
	}
	if (!ply_or_stale(v, req->ply, out))
		goto done;
	/* Alone before the ruleset's plies (an open seek too); after that a
	 * request the opponent accepts. */
	bool alone = v->game.n_plies < (size_t)v->game.rules.abort_alone_max_plies;
	if (a == 1 || (a == 0 && alone))
		ended_event(&e, color, GAME_TERM_ABORTED, NULL);
	else if (!running_or_conflict(v, out))
		goto done;
	action_commit(gs, lg, me, &e, NULL, out);
done:
	account(gs, lg, color, out);
}

/* Adjourn and resume: both by consent (request, then the other accepts). */
static void consent(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		    enum fold_request_what what, struct game_outcome *out)
{
	static const char *const names[] = { "request", "accept", "decline" };
	const char *endpoint = fold_request_what_str(what);
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	int a = action_of(req->action, names, 3, "request", endpoint, out);
	if (a >= 0 && (req->claim[0] || req->move[0])) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: takes only ply and action", endpoint);
		a = -1;
	}
	if (a < 0)
		goto done;
	struct fold_event e;
	if (a == 1) {
		fold_event_init(&e, what == FOLD_REQ_ADJOURN ? FOLD_EV_ADJOURNED : FOLD_EV_RESUMED);
		e.color = color;
		snprintf(e.reason, sizeof e.reason, "agreement");
	} else {
		request_event(&e, v, color, what, a == 2 ? FOLD_REQ_DECLINED : FOLD_REQ_MADE);
	}
	if (request_retried(v, color, &e, req->ply)) {
		already_done(out, v);
		goto done;
	}
	if (!v->started || game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is not running");
		goto done;
	}
	if ((what == FOLD_REQ_RESUME) != fold_adjourned(v)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is %s", fold_adjourned(v) ? "adjourned" : "not adjourned");
		goto done;
	}
	if (!ply_or_stale(v, req->ply, out))
		goto done;
	action_commit(gs, lg, me, &e, NULL, out);
done:
	account(gs, lg, color, out);
}

void game_service_adjourn(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out)
{
	consent(gs, me, id, req, FOLD_REQ_ADJOURN, out);
}

void game_service_resume(struct game_service *gs, int64_t me, const char *id,
			 const struct protocol_action_request *req, struct game_outcome *out)
{
	consent(gs, me, id, req, FOLD_REQ_RESUME, out);
}

/* Tablebase claim: drawn ends the game; not drawn gives the opponent the
 * ruleset's penalty for the speed class; no table refuses the claim. */
static void claim_tablebase(struct game_service *gs, struct live_game *lg, int64_t me, int color,
			    struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	struct tchess_error terr;
	if (game_check_tablebase_claim(&v->game, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	if (!gs->tb) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "this server has no tablebases (tchessd --tablebases)");
		return;
	}
	bool drawn = false;
	char why[FOLD_REASON_MAX] = "";
	if (tablebase_judge_claim(gs->tb, &v->game.pos, true, &drawn, why, sizeof why) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "claim refused: %s", why[0] ? why : "the tables cannot judge it");
		return;
	}
	struct fold_event e;
	if (drawn) {
		ended_event(&e, color, GAME_TERM_TABLEBASE, why);
		snprintf(e.result, sizeof e.result, "%s", game_result_str(GAME_RESULT_DRAW));
	} else {
		fold_event_init(&e, FOLD_EV_TIME_ADDED);
		e.color = !color;
		e.ms = v->game.rules.tablebase_penalty_ms[time_control_speed(&v->clock.tc)];
		snprintf(e.reason, sizeof e.reason, "tablebase: %.*s", (int)sizeof e.reason - 12, why);
	}
	action_commit(gs, lg, me, &e, NULL, out);
}

void game_service_claim(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out)
{
	static const char *const names[] = { "threefold", "fifty-moves", "tablebase", "discard", "win" };
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	struct fold_event e, then;
	int a = -1;
	for (int i = 0; i < 5; i++)
		a = strcmp(req->claim, names[i]) ? a : i;
	if (a < 0) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST,
		     "claim: expected claim threefold, fifty-moves, tablebase, discard or win");
		goto done;
	}
	if (req->action[0] || (req->move[0] && a > 1)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "claim: takes ply, claim and (threefold, fifty-moves) move");
		goto done;
	}
	/* Retries. */
	int64_t today = instant(v) / 86400000;
	if ((a == 0 && ended_by(v, color, GAME_TERM_THREEFOLD, req->ply)) ||
	    (a == 1 && ended_by(v, color, GAME_TERM_FIFTY_MOVES, req->ply)) ||
	    (a == 2 && (ended_by(v, color, GAME_TERM_TABLEBASE, req->ply) ||
			retried(v, color, "claim-tablebase", req->ply))) ||
	    (a == 3 && retried(v, color, "discard", req->ply) && v->discard_day[color] == today) ||
	    (a == 4 && game_is_over(&v->game) && v->game.termination == GAME_TERM_TECHNICAL_FAILURE &&
	     !strcmp(v->end_reason, "abandoned") &&
	     v->game.result == (color == WHITE ? GAME_RESULT_WHITE_WINS : GAME_RESULT_BLACK_WINS))) {
		already_done(out, v);
		goto done;
	}
	if (a == 3) {
		if (!v->started || game_is_over(&v->game) || !fold_adjourned(v)) {
			fail(out, PROTOCOL_ERR_CONFLICT, "a discard is claimed in an adjourned game");
			goto done;
		}
	} else if (!running_or_conflict(v, out)) {
		goto done;
	}
	if (!ply_or_stale(v, req->ply, out))
		goto done;
	switch (a) {
	case 0:
	case 1: {
		ended_event(&e, color, a == 0 ? GAME_TERM_THREEFOLD : GAME_TERM_FIFTY_MOVES, NULL);
		if (req->move[0]) {
			move m;
			struct tchess_error terr;
			if (color != (int)game_side_to_move(&v->game)) {
				fail(out, PROTOCOL_ERR_ILLEGAL, "only the player to move may claim");
				goto done;
			}
			if (notation_parse_move(&v->game.pos, req->move, strlen(req->move), &m, &terr) != TCHESS_OK) {
				fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
				goto done;
			}
			uci_write(&v->game.pos, m, e.uci);
		}
		action_commit(gs, lg, me, &e, NULL, out);
		break;
	}
	case 2:
		claim_tablebase(gs, lg, me, color, out);
		break;
	case 3: {
		fold_event_init(&e, FOLD_EV_DISCARD);
		e.color = color;
		e.count = v->discards[!color] + 1;
		/* "If the player has discarded to resume the game three times,
		 * he will be scored a defeat." */
		bool lost = e.count >= v->game.rules.discards_to_lose;
		if (lost)
			ended_event(&then, !color, GAME_TERM_TECHNICAL_FAILURE, "discards");
		action_commit(gs, lg, me, &e, lost ? &then : NULL, out);
		break;
	}
	case 4:
		if (v->game.rules.disconnect != DISCONNECT_CLAIM_WIN) {
			fail(out, PROTOCOL_ERR_ILLEGAL, "the %s rules give no win for a disconnect", v->game.rules.name);
			goto done;
		}
		if (!v->absent[!color]) {
			fail(out, PROTOCOL_ERR_ILLEGAL, "your opponent is present");
			goto done;
		}
		ended_event(&e, !color, GAME_TERM_TECHNICAL_FAILURE, "abandoned");
		action_commit(gs, lg, me, &e, NULL, out);
		break;
	}
done:
	account(gs, lg, color, out);
}

/* ---- undo games: provisional moves, take-backs, "done" ---- */

/* The common checks of an undo-game command for ply: 409 (or a stale ply)
 * unless the game runs and it is color's turn at ply; 422 if not an undo
 * game. */
static bool undo_turn_or_fail(const struct game_view *v, int color, int64_t ply, struct game_outcome *out)
{
	if (!v->undo) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "not an undo game: moves are final");
		return false;
	}
	if (!running_or_conflict(v, out) || !ply_or_stale(v, ply, out))
		return false;
	if (color != (int)game_side_to_move(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "it is not your move");
		return false;
	}
	return true;
}

/* The mover's time ran out before this command: the game ends on time
 * (as for a late move) and the command is refused. Returns true then. */
static bool flagged_first(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out)
{
	if (clock_expiry(&lg->view.clock, NULL) > t_ms)
		return false;
	if (flag_game(gs, lg, t_ms, out))
		return true;
	protocol_events_fini(&out->events);
	fail(out, PROTOCOL_ERR_CONFLICT, "your time ran out: the game is over (%s)",
	     game_termination_str(lg->view.game.termination));
	return true;
}

/* POST moves in an undo game: a human's move is provisional (a public
 * provisional-move event); the clock runs on. The same move re-sent while
 * it stands is a retry; a move already committed is answered as play()
 * answers it. */
static void provisional(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
			const char *text, struct game_outcome *out)
{
	struct game_view *v = &lg->view;
	if (v->started && ply < (int64_t)v->game.n_plies) {
		retry_or_stale(gs, lg, color, viewer, ply, text, out);
		return;
	}
	if (!undo_turn_or_fail(v, color, ply, out))
		return;
	move m;
	struct tchess_error terr;
	if (notation_parse_move(&v->game.pos, text, strlen(text), &m, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	if (takeback_pending(&v->turn)) {
		if (v->turn.pending == m && retried(v, color, "provisional-move", ply))
			already_done(out, v);
		else
			fail(out, PROTOCOL_ERR_CONFLICT, "a provisional move stands: take it back or press done");
		return;
	}
	int64_t t_ms = instant(v);
	if (flagged_first(gs, lg, t_ms, out))
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
	action_commit(gs, lg, viewer, &e, NULL, out);
}

/* Takes only ply: the undo-game commands and the like. */
static bool only_ply(const struct protocol_action_request *req, const char *endpoint, struct game_outcome *out)
{
	if (req->action[0] || req->claim[0] || req->move[0]) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: takes only ply", endpoint);
		return false;
	}
	return true;
}

void game_service_takeback(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_action_request *req, struct game_outcome *out)
{
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	if (!only_ply(req, "takeback", out))
		goto done;
	if (!takeback_pending(&v->turn) && retried(v, color, "move-taken-back", req->ply) &&
	    req->ply == (int64_t)v->game.n_plies) {
		already_done(out, v);
		goto done;
	}
	if (!undo_turn_or_fail(v, color, req->ply, out))
		goto done;
	if (!takeback_pending(&v->turn)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "you have no provisional move to take back");
		goto done;
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_TAKEN_BACK);
	e.color = color;
	e.ply = req->ply;
	uci_write(&v->game.pos, v->turn.pending, e.uci);
	action_commit(gs, lg, me, &e, NULL, out);
done:
	account(gs, lg, color, out);
}

/* "done": the provisional move is committed as the turn's move (a public
 * move event whose think_ms is the whole turn), the clock pressed, and the
 * opponent's premoves resolved, all in one transaction, as play() does
 * for an ordinary move. */
void game_service_done(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out)
{
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	if (!only_ply(req, "done", out))
		goto done;
	/* A retry: the move for that ply is committed, and it was ours. */
	if (v->undo && req->ply >= 0 && req->ply < (int64_t)v->game.n_plies) {
		struct position p;
		if (!game_position_at(&v->game, (size_t)req->ply, &p, NULL) && p.side == color) {
			already_done(out, v);
			goto done;
		}
	}
	if (!undo_turn_or_fail(v, color, req->ply, out))
		goto done;
	if (!takeback_pending(&v->turn)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "you have no provisional move: make one first");
		goto done;
	}
	int64_t t_ms = instant(v);
	if (flagged_first(gs, lg, t_ms, out))
		goto done;
	struct fold_clock_reading before;
	fold_clock_read(v, t_ms, &before);
	struct txn t;
	if (txn_begin(&t, gs, lg, out))
		goto done;
	struct fold_event e;
	move_event(&e, &t.work, v->turn.pending, before.running == color ? before.turn_used_ms : 0, false);
	if (txn_add(&t, &e, 0, t_ms, out) || end_if_over(&t, t_ms, out) || resolve_premoves(&t, t_ms, out))
		goto done;
	txn_commit(&t, me, out);
done:
	account(gs, lg, color, out);
}

/* ---- rematch series ---- */

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
		live_free(ng);
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	int64_t t_ms = instant(v);
	struct txn t, nt;
	if (txn_begin(&t, gs, lg, out)) {
		live_free(ng);
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
	request_event(&e, v, color, FOLD_REQ_REMATCH, FOLD_REQ_ACCEPTED);
	snprintf(e.game, sizeof e.game, "%s", ng->id);
	if (store_game_create(gs->srv->store, &row)) {
		store_failed(gs, out);
		goto fail;
	}
	if (txn_add(&nt, &c, 0, ng->created_ms, out) || start_if_full(&nt, ng->created_ms, out) ||
	    txn_add(&t, &e, 0, t_ms, out)) {
		if (out->err.code == PROTOCOL_ERR_BAD_REQUEST)
			out->err.code = PROTOCOL_ERR_ILLEGAL;
		goto fail;
	}
	row_of(ng, &nt.work, &row);
	row.params = "{}";
	if (store_game_update(gs->srv->store, &row)) {
		store_failed(gs, out);
		goto fail;
	}
	if (txn_commit(&t, me, out))
		goto fail;
	/* Committed: the new game goes live, its events in its ring, made
	 * visible to polls once durable like any commit's. */
	fold_view_fini(&ng->view);
	ng->view = nt.work;
	for (size_t i = 0; i < nt.n; i++) {
		ring_add(ng, &nt.ev[i], nt.visible_to[i]);
		protocol_event_fini(&nt.ev[i]);
	}
	insert(gs, ng);
	publish(gs, ng);
	timer_poke(gs, ng);
	log_info("game %s: rematch accepted: game %s (series %s, game %d)", lg->id, ng->id, c.series.id,
		 c.series.game);
	return;
fail:
	txn_abort(&nt);
	txn_abort(&t);
	live_free(ng);
}

void game_service_rematch(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out)
{
	static const char *const names[] = { "offer", "accept", "decline", "withdraw" };
	static const enum fold_request_action acts[] = { FOLD_REQ_MADE, FOLD_REQ_ACCEPTED, FOLD_REQ_DECLINED,
							 FOLD_REQ_WITHDRAWN };
	int color;
	struct live_game *lg = action_begin(gs, me, id, &color, out);
	if (!lg)
		return;
	const struct game_view *v = &lg->view;
	int a = action_of(req->action, names, 4, NULL, "rematch", out);
	if (a >= 0 && (req->claim[0] || req->move[0])) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "rematch: takes only ply and action");
		a = -1;
	}
	if (a < 0)
		goto done;
	struct fold_event e;
	request_event(&e, v, color, FOLD_REQ_REMATCH, acts[a]);
	if (request_retried(v, color, &e, req->ply)) {
		already_done(out, v);
		goto done;
	}
	if (!v->created || !game_is_over(&v->game)) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the game is not over: a rematch follows a finished game");
		goto done;
	}
	if (!ply_or_stale(v, req->ply, out))
		goto done;
	if (a == 1 && v->rematch_by == !color && !v->next_game[0])
		rematch_accept(gs, lg, me, color, out);
	else
		action_commit(gs, lg, me, &e, NULL, out);
done:
	account(gs, lg, color, out);
}

/* ---- the timer's chores besides flags ---- */

struct id_list {
	char (*ids)[STORE_GAME_ID_MAX + 1];
	size_t n;
};

/* Erases an aborted game: its row, its events and its memory. Parked polls
 * are woken to learn it is gone (410). */
static void erase_game(struct game_service *gs, struct live_game *lg)
{
	struct store *st = gs->srv->store;
	if (store_begin(st) || store_game_delete(st, lg->id) || store_commit(st)) {
		store_rollback(st);
		log_error("game %s: cannot erase the aborted game", lg->id);
		return;
	}
	log_info("game %s: aborted, erased", lg->id);
	snprintf(gs->tombstones[gs->n_tombstones++ % GS_TOMBSTONES], STORE_GAME_ID_MAX + 1, "%s", lg->id);
	unlink_live(gs, lg);
	char id[STORE_GAME_ID_MAX + 1];
	snprintf(id, sizeof id, "%s", lg->id);
	if (lg->dirty)
		list_drop(gs->dirty, &gs->n_dirty, lg);
	if (lg->in_flight)
		list_drop(gs->flight, &gs->n_flight, lg);
	live_free(lg);
	server_notify_game(gs->srv, id);
}

static void earliest(int64_t *next, int64_t t)
{
	if (t < *next)
		*next = t;
}

/* A rematch offer lapses when either player leaves: a seat with no
 * request and no parked poll for the grace is gone (a presence event,
 * which the fold makes end the offer). Only while an offer stands, so a
 * finished game gets no presence events otherwise. */
static void rematch_chores(struct game_service *gs, struct live_game *lg, int64_t now, int64_t *next)
{
	struct game_view *v = &lg->view;
	for (int c = WHITE; c <= BLACK && v->rematch_by >= 0; c++) {
		if (v->seats[c].kind != FOLD_SEAT_HUMAN || v->absent[c] || lg->parked[c] > 0)
			continue;
		int64_t at = lg->last_seen[c] + grace_ms(gs, v);
		if (at > now) {
			earliest(next, at);
			continue;
		}
		struct fold_event e;
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = c;
		e.present = false;
		log_info("game %s: %s is gone; the rematch offer lapses", lg->id, fold_color_str(c));
		server_event(gs, lg, &e, NULL);
	}
}

/* The game's deadlines other than its flag: acts on those past (which may
 * free lg: returns true then) and lowers *next to the earliest ahead. */
static bool chores(struct game_service *gs, struct live_game *lg, int64_t now, int64_t *next)
{
	struct game_view *v = &lg->view;
	if (!v->created)
		return false;
	if (game_is_over(&v->game)) {
		if (v->game.termination != GAME_TERM_ABORTED) {
			rematch_chores(gs, lg, now, next);
			return false;
		}
		int64_t at = v->last_t_ms + gs->srv->cfg.aborted_retention_ms;
		if (at <= now) {
			erase_game(gs, lg);
			return true;
		}
		earliest(next, at);
		return false;
	}
	if (!v->started)
		return false;
	/* The operator's limit on a game's wall-clock duration. */
	if (gs->srv->cfg.max_game_ms > 0) {
		int64_t at = v->started_ms + gs->srv->cfg.max_game_ms;
		if (at <= now) {
			technical_failure(gs, lg, -1, "max-duration");
			return false;
		}
		earliest(next, at);
	}
	/* A side's first move not made in time aborts the game -- not in a
	 * correspondence game (days per move) nor a tournament's, whose games
	 * all start at once and are timed by their clocks alone. */
	int side = game_side_to_move(&v->game);
	bool moved = v->game.n_plies >= 2 || (v->game.n_plies == 1 && v->game.start.side == side);
	bool corr = v->clock.tc.kind == TC_CORRESPONDENCE;
	if (!moved && !fold_adjourned(v) && !corr && strcmp(v->opponent, "tournament")) {
		int64_t from = v->game.n_plies ? v->game.plies[0].at_ms : v->started_ms;
		int64_t at = from + first_move_ms(gs, v);
		if (at <= now) {
			struct fold_event e;
			ended_event(&e, side, GAME_TERM_ABORTED, "first-move-timeout");
			server_event(gs, lg, &e, NULL);
			return false;
		}
		earliest(next, at);
	}
	/* Disconnects: no request and no parked poll for the grace. A
	 * correspondence player is not expected to stay connected. */
	for (int c = WHITE; c <= BLACK && !corr; c++) {
		if (v->seats[c].kind != FOLD_SEAT_HUMAN || v->absent[c] || lg->parked[c] > 0)
			continue;
		int64_t at = lg->last_seen[c] + grace_ms(gs, v);
		if (at > now) {
			earliest(next, at);
			continue;
		}
		struct fold_event e, then;
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = c;
		e.present = false;
		bool act = !fold_adjourned(v) && v->game.rules.disconnect != DISCONNECT_CLAIM_WIN;
		if (act && v->game.rules.disconnect == DISCONNECT_ADJOURN) {
			fold_event_init(&then, FOLD_EV_ADJOURNED);
			snprintf(then.reason, sizeof then.reason, "disconnect");
		} else if (act) {
			ended_event(&then, c, GAME_TERM_TECHNICAL_FAILURE, "disconnect");
		}
		log_info("game %s: %s is gone", lg->id, fold_color_str(c));
		server_event(gs, lg, &e, act ? &then : NULL);
		if (game_is_over(&v->game))
			break;
	}
	return false;
}

/* ---- eviction (see the top) ---- */

/* The earliest instant the timer must act on lg: its flag (as flag_due
 * sees it) or a chore. chores() with now = INT64_MIN acts on nothing and
 * only finds deadlines. The one owner of "when does this game need the
 * timer", for live games (timer_poke) and evicted ones alike. */
static int64_t deadline_of(struct game_service *gs, struct live_game *lg)
{
	int64_t next = fold_running(&lg->view) ? fold_clock_expiry(&lg->view) : INT64_MAX;
	chores(gs, lg, INT64_MIN, &next);
	return next;
}

/* Whether lg may leave memory now, idle time aside: nothing but the store
 * would be lost, and nobody waits on it. */
static bool evictable(struct game_service *gs, const struct live_game *lg)
{
	return !gs->batch && !lg->ask && lg->parked[WHITE] == 0 && lg->parked[BLACK] == 0 && !lg->dirty &&
	       !lg->in_flight && lg->durable_seq == lg->view.seq && lg->view.created &&
	       !server_game_watched(gs->srv, lg->id);
}

/* Drops lg from memory, leaving its record -- but none for a finished game
 * with no deadline left (no rematch offer to lapse, no erasure due):
 * nothing of it then lives in memory only, and a long-running server must
 * not keep a record per game it ever served. */
static void evict(struct game_service *gs, struct live_game *lg)
{
	const struct game_view *v = &lg->view;
	int64_t due = deadline_of(gs, lg);
	if (game_is_over(&v->game) && due == INT64_MAX) {
		log_debug("game %s: finished, out of memory at seq %lld", lg->id, (long long)v->seq);
		unlink_live(gs, lg);
		live_free(lg);
		return;
	}
	struct evicted_game *e = xcalloc(1, sizeof *e);
	snprintf(e->id, sizeof e->id, "%s", lg->id);
	e->unfinished = !game_is_over(&v->game);
	for (int c = WHITE; c <= BLACK; c++) {
		e->players[c] = v->seats[c].kind == FOLD_SEAT_HUMAN ? v->seats[c].player : 0;
		e->last_seen[c] = lg->last_seen[c];
		e->invalid[c] = lg->invalid[c];
	}
	unlink_live(gs, lg);
	timer_set(&gs->timer_evicted, &e->timer, due);
	struct evicted_game **link = evicted_link(gs, e->id);
	e->next = *link;
	*link = e;
	gs->n_evicted++;
	log_debug("game %s: evicted at seq %lld, idle", e->id, (long long)v->seq);
	live_free(lg);
}

/* When the timer must look at lg next to evict it (INT64_MAX: never). A
 * game idle long enough but kept (watched, or not yet durable) is looked
 * at again an idle time later: what keeps it may end without a word to
 * the timer (a spectator's poll coming back). */
static int64_t evict_due(struct game_service *gs, struct live_game *lg, int64_t now)
{
	int64_t idle = gs->srv->cfg.evict_idle_ms;
	if (idle <= 0)
		return INT64_MAX;
	int64_t at = evict_at(gs, lg);
	return at > now ? at : evictable(gs, lg) ? now : now + idle;
}

/* When the timer must look at live game lg next: its deadlines and its
 * eviction; its key on gs->timer_live. */
static int64_t timer_key(struct game_service *gs, struct live_game *lg, int64_t now)
{
	int64_t next = deadline_of(gs, lg);
	earliest(&next, evict_due(gs, lg, now));
	return next;
}

#define LIVE_OF(node) ((struct live_game *)((char *)(node) - offsetof(struct live_game, timer)))
#define EVICTED_OF(node) ((struct evicted_game *)((char *)(node) - offsetof(struct evicted_game, timer)))

/* Brings back the evicted games whose deadline has come (the timer then
 * acts on them as on any live game). */
static void revive_due(struct game_service *gs, int64_t now)
{
	struct dheap_node *top;
	while ((top = dheap_top(&gs->timer_evicted)) && top->key <= now) {
		char id[STORE_GAME_ID_MAX + 1];
		snprintf(id, sizeof id, "%s", EVICTED_OF(top)->id);
		struct game_outcome o = { 0 };
		if (!lookup(gs, id, &o))
			log_error("game %s: cannot bring it back for its deadline: %s", id, o.err.message);
		game_outcome_fini(&o);
		/* A store that cannot read now: try again in a second, not in
		 * a loop. */
		struct evicted_game *still = *evicted_link(gs, id);
		if (still && dheap_contains(&still->timer) && still->timer.key <= now)
			dheap_set(&gs->timer_evicted, &still->timer, now + 1000);
	}
}

/* Brings back player's evicted unfinished games, for what goes through
 * every game of a player (their list, their vacations). */
static void revive_player(struct game_service *gs, int64_t player)
{
	struct id_list l = { 0 };
	for (unsigned b = 0; b < GS_BUCKETS && player; b++) {
		for (struct evicted_game *e = gs->evicted[b]; e; e = e->next) {
			if (e->unfinished && (e->players[WHITE] == player || e->players[BLACK] == player)) {
				l.ids = xrealloc(l.ids, (l.n + 1) * sizeof *l.ids);
				snprintf(l.ids[l.n++], sizeof l.ids[0], "%s", e->id);
			}
		}
	}
	for (size_t i = 0; i < l.n; i++) {
		struct game_outcome o = { 0 };
		if (!lookup(gs, l.ids[i], &o))
			log_error("game %s: cannot bring it back: %s", l.ids[i], o.err.message);
		game_outcome_fini(&o);
	}
	free(l.ids);
}

void game_service_counts(struct game_service *gs, size_t *live, size_t *evicted)
{
	*live = gs->n_live;
	*evicted = gs->n_evicted;
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
		if (fold_running(&lg->view)) {
			int64_t t = instant(&lg->view);
			if (fold_clock_expiry(&lg->view) <= t) {
				struct game_outcome o = { 0 };
				if (flag_game(gs, lg, t, &o))
					log_error("game %s: cannot end on time: %s", lg->id, o.err.message);
				game_outcome_fini(&o);
			}
		}
		int64_t ignored = INT64_MAX;
		if (chores(gs, lg, now, &ignored))
			continue; /* erased */
		if (evict_due(gs, lg, now) <= now) {
			evict(gs, lg);
			evicted++;
			continue;
		}
		/* What is still due could not be done (a store that cannot
		 * write, a disk full): again in a second, not in a loop. */
		int64_t key = timer_key(gs, lg, now);
		dheap_set(&gs->timer_live, &lg->timer, key > now ? key : now + 1000);
	}
	return evicted;
}

/* --tablebases: "gaviota:DIR[:DIR],syzygy:DIR[:DIR]", a bare folder
 * (its kind told by its files), "none", or nothing (Debian's 3-piece
 * Gaviota set when installed). */
static int folder_kind(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int kind = -1;
	struct dirent *de;
	while (kind < 0 && (de = readdir(d))) {
		if (strstr(de->d_name, ".gtb."))
			kind = 0;
		else if (strstr(de->d_name, ".rtbw"))
			kind = 1;
	}
	closedir(d);
	return kind;
}

static void append_dirs(char **list, const char *dirs, size_t len)
{
	char *old = *list;
	*list = old ? xasprintf("%s:%.*s", old, (int)len, dirs) : xasprintf("%.*s", (int)len, dirs);
	free(old);
}

static int open_tablebases(struct game_service *gs, const char *spec, char **errmsg)
{
	char *lists[2] = { NULL, NULL };
	if (!spec) {
		DIR *d = opendir(TABLEBASE_DEBIAN_GAVIOTA_DIR);
		if (!d)
			return 0;
		closedir(d);
		spec = TABLEBASE_DEBIAN_GAVIOTA_DIR;
	}
	if (!strcmp(spec, "none") || !spec[0])
		return 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, ",");
		if (!strncmp(p, "gaviota:", 8) && len > 8) {
			append_dirs(&lists[0], p + 8, len - 8);
		} else if (!strncmp(p, "syzygy:", 7) && len > 7) {
			append_dirs(&lists[1], p + 7, len - 7);
		} else {
			char *dir = xasprintf("%.*s", (int)len, p);
			int kind = folder_kind(dir);
			if (kind < 0) {
				*errmsg = xasprintf("--tablebases: %s holds no Gaviota (.gtb.*) or Syzygy (.rtbw) "
						    "tables", dir);
				free(dir);
				free(lists[0]);
				free(lists[1]);
				return -1;
			}
			append_dirs(&lists[kind], dir, strlen(dir));
			free(dir);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	char *err = NULL;
	gs->tb = tablebase_open(lists[0], lists[1], &err);
	if (!gs->tb) {
		*errmsg = xasprintf("--tablebases: %s", err ? err : "cannot open");
		free(err);
	} else {
		log_info("tablebases: gaviota %s, syzygy %s, up to %d pieces", lists[0] ? lists[0] : "-",
			 lists[1] ? lists[1] : "-", tablebase_max_pieces(gs->tb));
	}
	free(lists[0]);
	free(lists[1]);
	return gs->tb ? 0 : -1;
}

/* ---- reads ---- */

void game_service_snapshot(struct game_service *gs, int64_t viewer, const char *id, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = fold_seat_of(&lg->view, viewer);
	if (color >= 0)
		seen(gs, lg, color);
	out->body = fold_snapshot_encode(&lg->view, lg->id, now_wall_ms(), viewer);
	out->status = 200;
}

/* At most this many events per long-poll answer from the store; the
 * client asks again. */
#define GS_EVENTS_PER_ANSWER 500
/* A client further behind than this, and older than the ring, gets the
 * game's snapshot instead of the events it missed (a resync answer). */
#define GS_RESYNC_BEHIND EVENT_RING_SIZE

struct event_batch {
	struct protocol_event *events;
	size_t n;
	int64_t upto;
};

static int batch_add(void *arg, const struct store_event *ev)
{
	struct event_batch *b = arg;
	if (ev->seq > b->upto)
		return 1;
	b->events = xrealloc(b->events, (b->n + 1) * sizeof *b->events);
	struct protocol_event *e = &b->events[b->n++];
	e->seq = ev->seq;
	snprintf(e->type, sizeof e->type, "%s", ev->type);
	e->t_ms = ev->created_ms;
	e->data = xstrdup(ev->payload ? ev->payload : "{}");
	return 0;
}

/* Keeps the events the fold passes over (notes): a snapshot does not hold
 * them. */
static int batch_add_other(void *arg, const struct store_event *ev)
{
	if (fold_event_kind_of(ev->type) != FOLD_EV_OTHER)
		return 0;
	return batch_add(arg, ev);
}

/* The resync answer: the snapshot at the game's seq (every event durable),
 * with the notes after `after` that viewer may see. */
static void resync_answer(struct game_service *gs, struct live_game *lg, int64_t viewer, int64_t after,
			  int64_t now, struct game_outcome *out)
{
	struct event_batch b = { .upto = lg->view.seq };
	struct protocol_events evs = { .seq = lg->view.seq, .now_ms = now, .resync = true };
	if (store_events_after(gs->srv->store, lg->id, after, viewer, 0, batch_add_other, &b)) {
		evs.events = b.events;
		evs.n = b.n;
		protocol_events_fini(&evs);
		store_failed(gs, out);
		return;
	}
	evs.events = b.events;
	evs.n = b.n;
	evs.snapshot = fold_snapshot_encode(&lg->view, lg->id, now, viewer);
	struct protocol_error err;
	out->body = protocol_events_encode(&evs, &err);
	if (!out->body) {
		log_error("game %s: resync answer does not encode: %s", lg->id, err.message);
		fail(out, PROTOCOL_ERR_INTERNAL, "resync answer does not encode");
	}
	protocol_events_fini(&evs);
	log_debug("game %s: resync from %lld to %lld", lg->id, (long long)after, (long long)lg->view.seq);
}

int game_service_events(struct game_service *gs, int64_t viewer, const char *id, int64_t after, bool must_answer,
			struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return 0;
	out->status = 200;
	int64_t upto = lg->durable_seq;
	/* after > upto: the client knows a future this server never had (a
	 * restored database); answering at once with seq lets it resync. */
	if (after == upto && !must_answer)
		return 1;
	int64_t now = now_wall_ms();
	if (after >= upto) {
		out->body = xasprintf("{\"events\":[],\"seq\":%lld,\"now_ms\":%lld}", (long long)upto,
				      (long long)now);
		return 0;
	}
	if (event_ring_covers(&lg->ring, after) && upto <= lg->ring.last) {
		out->body = event_ring_answer(&lg->ring, after, upto, viewer, now);
		return 0;
	}
	/* Far behind: the snapshot, once every event is durable (it shows
	 * them all); until then a page of events. */
	if (upto - after > GS_RESYNC_BEHIND && lg->view.seq == upto) {
		resync_answer(gs, lg, viewer, after, now, out);
		return 0;
	}
	struct event_batch b = { .upto = upto };
	struct protocol_events evs = { .seq = upto, .now_ms = now };
	enum store_result r = store_events_after(gs->srv->store, id, after, viewer, GS_EVENTS_PER_ANSWER, batch_add, &b);
	evs.events = b.events;
	evs.n = b.n;
	if (r) {
		store_failed(gs, out);
	} else {
		if (b.n == GS_EVENTS_PER_ANSWER)
			evs.seq = b.events[b.n - 1].seq;
		struct protocol_error err;
		out->body = protocol_events_encode(&evs, &err);
		if (!out->body) {
			log_error("game %s: stored event does not encode: %s", id, err.message);
			fail(out, PROTOCOL_ERR_INTERNAL, "stored event does not encode");
		}
	}
	protocol_events_fini(&evs);
	return 0;
}

void game_service_pgn(struct game_service *gs, const char *id, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	struct pgn_buf b;
	struct tchess_error terr;
	pgn_buf_init(&b);
	if (fold_pgn_write(&lg->view, lg->id, &b, &terr) != TCHESS_OK) {
		pgn_buf_fini(&b);
		fail(out, PROTOCOL_ERR_INTERNAL, "PGN: %s", terr.message);
		return;
	}
	out->body = b.data ? b.data : xstrdup("");
	out->status = 200;
}

/* ---- the flag timer ---- */

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
static void timer_poke(struct game_service *gs, struct live_game *lg)
{
	int64_t next = timer_key(gs, lg, now_wall_ms());
	timer_set(&gs->timer_live, &lg->timer, next);
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
		revive_due(gs, now);
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

/* ---- life cycle ---- */

static int collect_id(void *arg, const struct store_game *g)
{
	struct id_list *l = arg;
	l->ids = xrealloc(l->ids, (l->n + 1) * sizeof *l->ids);
	snprintf(l->ids[l->n++], sizeof l->ids[0], "%s", g->id);
	return 0;
}

/* Server downtime is not charged: a running clock is paused at the last
 * event's instant and resumed now, as an event so every fold agrees. */
static int resume_clock(struct game_service *gs, struct live_game *lg)
{
	if (!fold_running(&lg->view) || fold_adjourned(&lg->view) || lg->view.clock.running == CLOCK_NOBODY)
		return 0;
	struct game_outcome o = { 0 };
	struct txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CLOCK_RESUMED);
	e.paused_ms = lg->view.last_t_ms;
	int rc = txn_begin(&t, gs, lg, &o) || txn_add(&t, &e, 0, instant(&lg->view), &o) || txn_commit(&t, 0, &o);
	if (rc)
		log_error("game %s: cannot resume the clock: %s", lg->id, o.err.message);
	game_outcome_fini(&o);
	return rc ? -1 : 0;
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
	/* The lock keeps engine answers (pool threads) out until every game
	 * is in place. */
	pthread_mutex_lock(&srv->lock);
	for (size_t i = 0; i < l.n; i++) {
		struct game_outcome o = { 0 };
		struct live_game *lg = lookup(gs, l.ids[i], &o);
		if (!lg) {
			/* One broken game must not keep the others from being served. */
			log_error("game %s: not rebuilt: %s", l.ids[i], o.err.message);
			continue;
		}
		resume_clock(gs, lg);
		/* resume_clock's commit asks the engine already; a game whose
		 * clock is not running is asked here. */
		engine_sync(gs, lg);
		rebuilt++;
		/* Idle across the restart: a game that may leave memory at
		 * once does, so the start-up needs memory for the records, not
		 * for every fold. With sync = full a resumed clock's event must
		 * be durable first: every GS_REBUILD_SYNC games one fsync makes
		 * them so (as the syncer, which is not running yet, would). */
		if (srv->cfg.evict_idle_ms > 0 && evictable(gs, lg))
			evict(gs, lg);
		if (srv->cfg.evict_idle_ms > 0 && store_syncs(srv->store) &&
		    (i + 1 - synced >= GS_REBUILD_SYNC || i + 1 == l.n) && server_sync_now(srv, gs) == 0) {
			for (; synced <= i; synced++) {
				struct live_game *back = find_live(gs, l.ids[synced]);
				if (back && evictable(gs, back))
					evict(gs, back);
			}
		}
	}
	pthread_mutex_unlock(&srv->lock);
	free(l.ids);
#ifdef __GLIBC__
	if (gs->n_evicted)
		malloc_trim(0);
#endif
	log_info("game service: %zu unfinished games rebuilt, %zu of them evicted at once", rebuilt, gs->n_evicted);
	if (pthread_create(&gs->timer, NULL, timer_main, gs)) {
		*errmsg = xstrdup("cannot start the flag timer thread");
		game_service_free(gs);
		return NULL;
	}
	gs->timer_started = true;
	return gs;
}

void game_service_stop_engines(struct game_service *gs)
{
	if (!gs)
		return;
	pthread_mutex_lock(&gs->srv->lock);
	gs->engines_stopped = true;
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next)
			engine_sync(gs, lg);
	}
	pthread_mutex_unlock(&gs->srv->lock);
}

void game_service_free(struct game_service *gs)
{
	if (!gs)
		return;
	if (gs->timer_started) {
		pthread_mutex_lock(&gs->srv->lock);
		gs->timer_stop = true;
		pthread_cond_signal(&gs->timer_cond);
		pthread_mutex_unlock(&gs->srv->lock);
		pthread_join(gs->timer, NULL);
	}
	game_service_batch_abort(gs);
	pthread_cond_destroy(&gs->timer_cond);
	dheap_fini(&gs->timer_live);
	dheap_fini(&gs->timer_evicted);
	tablebase_free(gs->tb);
	free(gs->dirty);
	free(gs->flight);
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		while (gs->bucket[b]) {
			struct live_game *lg = gs->bucket[b];
			gs->bucket[b] = lg->next;
			live_free(lg);
		}
		while (gs->evicted[b])
			evicted_drop(gs, &gs->evicted[b]);
	}
	free(gs);
}

/* ---- hooks, batches and the services built on them ---- */

int game_service_batch_begin(struct game_service *gs)
{
	if (gs->batch || store_begin(gs->srv->store))
		return -1;
	gs->batch = true;
	gs->batch_failed = false;
	return 0;
}

static void batch_end(struct game_service *gs, bool keep)
{
	for (size_t i = 0; i < gs->n_pending; i++) {
		struct batch_item *b = &gs->pending[i];
		if (!keep) {
			fold_view_fini(&b->view);
			if (b->insert)
				live_free(b->lg);
			continue;
		}
		fold_view_fini(&b->lg->view);
		b->lg->view = b->view;
		b->lg->used_ms = now_wall_ms();
		if (b->insert)
			insert(gs, b->lg);
		publish(gs, b->lg);
		timer_poke(gs, b->lg);
	}
	free(gs->pending);
	gs->pending = NULL;
	gs->n_pending = 0;
	gs->batch = false;
}

int game_service_batch_commit(struct game_service *gs)
{
	if (!gs->batch)
		return -1;
	if (gs->batch_failed || store_commit(gs->srv->store)) {
		store_rollback(gs->srv->store);
		batch_end(gs, false);
		return -1;
	}
	batch_end(gs, true);
	return 0;
}

void game_service_batch_abort(struct game_service *gs)
{
	if (!gs->batch)
		return;
	store_rollback(gs->srv->store);
	batch_end(gs, false);
}

void game_service_create_seated(struct game_service *gs, const struct fold_seat seats[2], const char *tc,
				const char *ruleset, const char *params, char id_out[STORE_GAME_ID_MAX + 1],
				struct game_outcome *out)
{
	struct time_control parsed;
	struct tchess_error terr;
	struct ruleset rules;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CREATED);
	if (time_control_parse(&parsed, tc, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "tc: %s", terr.message);
		return;
	}
	time_control_format(&parsed, e.tc, sizeof e.tc);
	snprintf(e.ruleset, sizeof e.ruleset, "%s", ruleset);
	if (!ruleset_preset(&rules, e.ruleset)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "ruleset: expected fide, yourpot or chessgamble");
		return;
	}
	snprintf(e.opponent, sizeof e.opponent, "tournament");
	struct position start;
	position_init_start(&start);
	fen_write(&start, e.fen);
	e.seats[WHITE] = seats[WHITE];
	e.seats[BLACK] = seats[BLACK];

	struct live_game *lg = xcalloc(1, sizeof *lg);
	fold_view_init(&lg->view);
	lg->created_ms = now_wall_ms();
	if (token_random_hex(lg->id, TOKEN_ID_BYTES)) {
		live_free(lg);
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	struct store_game row = { .created_ms = lg->created_ms, .params = (char *)(params ? params : "{}") };
	snprintf(row.id, sizeof row.id, "%s", lg->id);
	snprintf(row.status, sizeof row.status, "open");
	struct txn t;
	if (txn_begin(&t, gs, lg, out)) {
		live_free(lg);
		return;
	}
	if (store_game_create(gs->srv->store, &row)) {
		txn_abort(&t);
		live_free(lg);
		store_failed(gs, out);
		return;
	}
	/* Both seats are taken: the game starts at once, White's clock runs
	 * ("the player with the white pieces are on the move"). */
	if (txn_add(&t, &e, 0, lg->created_ms, out) || start_if_full(&t, lg->created_ms, out) ||
	    txn_commit(&t, 0, out)) {
		live_free(lg);
		return;
	}
	if (gs->batch)
		gs->pending[gs->n_pending - 1].insert = true;
	else
		insert(gs, lg);
	snprintf(id_out, STORE_GAME_ID_MAX + 1, "%s", lg->id);
	protocol_events_fini(&out->events);
	out->status = 201;
}

static bool has_vacation(const struct game_view *v, int side, const struct vacation *vac)
{
	for (size_t k = 0; k < v->n_vacations[side]; k++) {
		if (v->vacations[side][k].start_ms == vac->start_ms && v->vacations[side][k].end_ms == vac->end_ms)
			return true;
	}
	return false;
}

int game_service_vacation(struct game_service *gs, int64_t player, const struct vacation *vac, bool cancelled,
			  struct game_outcome *out)
{
	revive_player(gs, player);
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			const struct game_view *v = &lg->view;
			int side = fold_seat_of(v, player);
			if (side < 0 || !v->created || game_is_over(&v->game) ||
			    v->clock.tc.kind != TC_CORRESPONDENCE || has_vacation(v, side, vac) == !cancelled)
				continue;
			struct txn t;
			struct fold_event e;
			fold_event_init(&e, FOLD_EV_VACATION);
			e.color = side;
			e.vacation = *vac;
			e.cancelled = cancelled;
			if (txn_begin(&t, gs, lg, out) || txn_add(&t, &e, 0, instant(v), out) ||
			    txn_commit(&t, 0, out))
				return -1;
			protocol_events_fini(&out->events);
			memset(&out->events, 0, sizeof out->events);
		}
	}
	return 0;
}

void game_service_each(struct game_service *gs, int64_t player, game_service_each_fn fn, void *arg)
{
	revive_player(gs, player);
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			if (fold_seat_of(&lg->view, player) >= 0 && fn(arg, lg->id, &lg->view))
				return;
		}
	}
}

void game_service_clock_changed(struct game_service *gs)
{
	pthread_cond_signal(&gs->timer_cond);
}
