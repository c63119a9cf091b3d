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
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game-service.h"
#include "server.h"
#include "store.h"
#include "tchess/movegen.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/token.h"
#include "util/xalloc.h"

#define GS_BUCKETS 1024
/* Events one command may append: a move, the opponent's premove, a
 * discard, an end, with room to spare; a correspondence game's start also
 * carries both seats' vacations. */
#define TXN_EVENTS_MAX (8 + 2 * FOLD_VACATIONS_MAX)

struct live_game {
	char id[STORE_GAME_ID_MAX + 1];
	struct game_view view;
	char invite_hash[2 * SHA256_DIGEST_SIZE + 1]; /* "" for games without a code */
	int64_t created_ms;
	struct live_game *next;
};

/* A game a batch changed: made live when the batch commits. */
struct batch_item {
	struct live_game *lg;
	struct game_view view;
	bool insert; /* a new game */
};

struct game_service {
	struct server *srv;
	struct game_service_hooks hooks;
	bool batch;                  /* commands share the caller's transaction */
	bool batch_failed;           /* a command in it rolled back */
	struct batch_item *pending;
	size_t n_pending;
	struct live_game *bucket[GS_BUCKETS];
	pthread_t timer;
	bool timer_started;
	bool timer_stop;
	pthread_cond_t timer_cond; /* waited on with srv->lock; signalled after every commit */
	game_service_engine_fn engine;
	void *engine_ctx;
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

static void insert(struct game_service *gs, struct live_game *lg)
{
	unsigned b = bucket_of(lg->id);
	lg->next = gs->bucket[b];
	gs->bucket[b] = lg;
}

static void live_free(struct live_game *lg)
{
	fold_view_fini(&lg->view);
	free(lg);
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
		if (!strcmp(lg->id, id))
			return lg;
	}
	struct store_game g;
	switch (store_game_get(gs->srv->store, id, &g)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return NULL;
	default:
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return NULL;
	}
	struct live_game *lg = xcalloc(1, sizeof *lg);
	snprintf(lg->id, sizeof lg->id, "%s", g.id);
	lg->created_ms = g.created_ms;
	fold_view_init(&lg->view);
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
	insert(gs, lg);
	return lg;
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
	    e->kind == FOLD_EV_CLOCK_RESUMED || e->kind == FOLD_EV_VACATION) {
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

static void row_of(const struct live_game *lg, const struct game_view *v, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", lg->id);
	snprintf(g->status, sizeof g->status, "%s", fold_status(v));
	g->created_ms = lg->created_ms;
	g->white = v->seats[WHITE].kind == FOLD_SEAT_HUMAN ? v->seats[WHITE].player : 0;
	g->black = v->seats[BLACK].kind == FOLD_SEAT_HUMAN ? v->seats[BLACK].player : 0;
	g->finished = v->created && game_is_over(&v->game);
}

/* Writes the game row, commits, makes the work copy live, wakes the polls
 * and the flag timer, and gives the caller (viewer) the events it may see. */
static int txn_commit(struct txn *t, int64_t viewer, struct game_outcome *out)
{
	struct game_service *gs = t->gs;
	struct server *srv = gs->srv;
	struct store_game row;
	row_of(t->lg, &t->work, &row);
	bool ended = game_is_over(&t->work.game) && !(t->lg->view.created && game_is_over(&t->lg->view.game));
	if (store_game_update(srv->store, &row) ||
	    (ended && gs->hooks.ended && gs->hooks.ended(gs->hooks.ctx, t->lg->id, &t->work)) ||
	    (!gs->batch && store_commit(srv->store))) {
		txn_abort(t);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (gs->batch) {
		gs->pending = xrealloc(gs->pending, (gs->n_pending + 1) * sizeof *gs->pending);
		gs->pending[gs->n_pending++] = (struct batch_item){ .lg = t->lg, .view = t->work };
	} else {
		fold_view_fini(&t->lg->view);
		t->lg->view = t->work;
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
		server_notify_game(srv, t->lg->id);
		pthread_cond_signal(&gs->timer_cond);
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

static void engine_turns(struct game_service *gs, struct live_game *lg);

/* ---- commands ---- */

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
	if (txn_add(&t, &e, 0, t_ms, out) || end_if_over(&t, t_ms, out) || resolve_premoves(&t, t_ms, out) ||
	    txn_commit(&t, viewer, out))
		return;
	engine_turns(gs, lg);
}

/* While an engine seat is to move, asks the hook and plays its answer
 * through the same path as a human move. */
static void engine_turns(struct game_service *gs, struct live_game *lg)
{
	for (int guard = 0; guard < 2 && fold_running(&lg->view); guard++) {
		int side = game_side_to_move(&lg->view.game);
		const struct fold_seat *s = &lg->view.seats[side];
		if (s->kind != FOLD_SEAT_ENGINE || !gs->engine)
			return;
		char uci[UCI_MAX];
		if (gs->engine(gs->engine_ctx, &lg->view, s->level, uci)) {
			log_warn("game %s: the engine gave no move", lg->id);
			return;
		}
		struct game_outcome o = { 0 };
		play(gs, lg, side, 0, (int64_t)lg->view.game.n_plies, uci, &o);
		if (o.failed)
			log_error("game %s: engine move %s refused: %s", lg->id, uci, o.err.message);
		game_outcome_fini(&o);
		return; /* play() calls engine_turns again after its commit */
	}
}

void game_service_move(struct game_service *gs, int64_t me, const char *id, const struct protocol_move_request *req,
		       struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = seat_or_forbidden(lg, me, out);
	if (color < 0)
		return;
	play(gs, lg, color, me, req->ply, req->move, out);
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

void game_service_resign(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	int color = seat_or_forbidden(lg, me, out);
	if (color < 0)
		return;
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
	if (!lg || seat_or_forbidden(lg, me, out) < 0)
		return;
	struct txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	if (txn_begin(&t, gs, lg, out) || txn_add_raw(&t, &e, "note", payload, me, instant(&lg->view), out))
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
	if (engine && !gs->engine) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "opponent: this server has no engine (tchessd --engine)");
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
	char invite[TOKEN_ID_HEX_LEN + 1] = "";
	if (token_random_hex(lg->id, TOKEN_ID_BYTES) ||
	    (!strcmp(e.opponent, "invite") && token_random_hex(invite, TOKEN_ID_BYTES))) {
		live_free(lg);
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	char params[128] = "{}";
	if (invite[0]) {
		uint8_t h[SHA256_DIGEST_SIZE];
		sha256(invite, strlen(invite), h);
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
	engine_turns(gs, lg);
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
		sha256(req->invite, strlen(req->invite), h);
		token_hex(hex, h, sizeof h);
		if (!token_equal(hex, lg->invite_hash, sizeof hex - 1)) {
			fail(out, PROTOCOL_ERR_FORBIDDEN, "this game needs its invite code");
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
	engine_turns(gs, lg);
}

/* ---- reads ---- */

void game_service_snapshot(struct game_service *gs, int64_t viewer, const char *id, struct game_outcome *out)
{
	struct live_game *lg = lookup(gs, id, out);
	if (!lg)
		return;
	out->body = fold_snapshot_encode(&lg->view, lg->id, now_wall_ms(), viewer);
	out->status = 200;
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

/* Ends every game whose running clock has expired; returns the earliest
 * expiry still ahead (INT64_MAX if none). A scan of the games in memory:
 * cheap at this server's scale; a heap keyed by expiry would replace it. */
static int64_t flag_due(struct game_service *gs)
{
	int64_t next = INT64_MAX;
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			if (!fold_running(&lg->view))
				continue;
			int64_t expiry = fold_clock_expiry(&lg->view);
			if (expiry == INT64_MAX)
				continue;
			int64_t t = instant(&lg->view);
			if (expiry <= t) {
				struct game_outcome o = { 0 };
				if (flag_game(gs, lg, t, &o))
					log_error("game %s: cannot end on time: %s", lg->id, o.err.message);
				game_outcome_fini(&o);
			} else if (expiry < next) {
				next = expiry;
			}
		}
	}
	return next;
}

static void *timer_main(void *arg)
{
	struct game_service *gs = arg;
	struct server *srv = gs->srv;
	pthread_mutex_lock(&srv->lock);
	while (!gs->timer_stop) {
		int64_t next = flag_due(gs);
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

struct id_list {
	char (*ids)[STORE_GAME_ID_MAX + 1];
	size_t n;
};

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
	if (!fold_running(&lg->view) || lg->view.clock.running == CLOCK_NOBODY)
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

struct game_service *game_service_new(struct server *srv, char **errmsg)
{
	struct game_service *gs = xcalloc(1, sizeof *gs);
	gs->srv = srv;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&gs->timer_cond, &ca);
	pthread_condattr_destroy(&ca);

	struct id_list l = { 0 };
	if (store_games_unfinished(srv->store, collect_id, &l)) {
		free(l.ids);
		*errmsg = xstrdup("cannot read the unfinished games");
		game_service_free(gs);
		return NULL;
	}
	size_t rebuilt = 0;
	for (size_t i = 0; i < l.n; i++) {
		struct game_outcome o = { 0 };
		struct live_game *lg = lookup(gs, l.ids[i], &o);
		if (!lg) {
			/* One broken game must not keep the others from being served. */
			log_error("game %s: not rebuilt: %s", l.ids[i], o.err.message);
			continue;
		}
		resume_clock(gs, lg);
		rebuilt++;
	}
	free(l.ids);
	log_info("game service: %zu unfinished games rebuilt", rebuilt);
	if (pthread_create(&gs->timer, NULL, timer_main, gs)) {
		*errmsg = xstrdup("cannot start the flag timer thread");
		game_service_free(gs);
		return NULL;
	}
	gs->timer_started = true;
	return gs;
}

void game_service_set_engine(struct game_service *gs, game_service_engine_fn fn, void *ctx)
{
	gs->engine = fn;
	gs->engine_ctx = ctx;
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
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		while (gs->bucket[b]) {
			struct live_game *lg = gs->bucket[b];
			gs->bucket[b] = lg->next;
			live_free(lg);
		}
	}
	free(gs);
}

/* ---- hooks, batches and the services built on them ---- */

void game_service_set_hooks(struct game_service *gs, const struct game_service_hooks *hooks)
{
	gs->hooks = *hooks;
}

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
		if (b->insert)
			insert(gs, b->lg);
		server_notify_game(gs->srv, b->lg->id);
	}
	free(gs->pending);
	gs->pending = NULL;
	gs->n_pending = 0;
	gs->batch = false;
	if (keep)
		pthread_cond_signal(&gs->timer_cond);
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

void game_service_each(struct game_service *gs, game_service_each_fn fn, void *arg)
{
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			if (fn(arg, lg->id, &lg->view))
				return;
		}
	}
}

void game_service_clock_changed(struct game_service *gs)
{
	pthread_cond_signal(&gs->timer_cond);
}
