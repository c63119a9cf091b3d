/*
 * Reads: the snapshot, the events long-poll (from the ring, the store, or
 * a resync snapshot for a client far behind) and the PGN. A read changes
 * no game: presence is the caller's business (game_service_touch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

/* The numbering of one audience, for the snapshot's moves. */
struct numbering {
	const struct live_game *lg;
	enum game_audience aud;
};

static int64_t number_of(const void *ctx, int64_t seq)
{
	const struct numbering *n = ctx;
	return game_txn_number(n->lg, n->aud, seq);
}

/* lg's snapshot as viewer sees it at the log's seq upto (the last event
 * viewer may see), every seq in it viewer's audience's number. */
static char *game_read_snapshot_for(const struct live_game *lg, int64_t viewer, int64_t upto, int64_t now)
{
	struct numbering n = { .lg = lg, .aud = game_txn_audience(lg, viewer) };
	return fold_snapshot_encode_seq(&lg->view, lg->id, now, viewer, game_txn_number(lg, n.aud, upto), number_of,
					&n);
}

void game_service_snapshot(struct game_service *gs, int64_t viewer, const char *id, struct game_outcome *out)
{
	/* A shared store's snapshot is fresh: another node may have appended. */
	struct live_game *lg = store_shared(gs->srv->store) && !cluster_alone(gs->srv->cluster)
				       ? game_registry_lookup_fresh(gs, id, out)
				       : game_registry_read(gs, id, out);
	if (!lg)
		return;
	out->body = game_read_snapshot_for(lg, viewer, game_txn_seen(lg, &lg->seen, viewer), now_wall_ms());
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
	/* The events' bytes so far, and the answer's budget (answer_bytes):
	 * the walk stops before the event that would pass it (cut), the
	 * first always in. */
	size_t bytes, budget;
	bool cut;
};

static int batch_add(void *arg, const struct store_event *ev)
{
	struct event_batch *b = arg;
	if (ev->seq > b->upto)
		return 1;
	/* Its envelope is a few dozen bytes besides type and data. */
	size_t len = 64 + strlen(ev->type) + (ev->payload ? strlen(ev->payload) : 2);
	if (b->n && b->bytes + len > b->budget) {
		b->cut = true;
		return 1;
	}
	b->bytes += len;
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

/* The events of b as aud numbers them, and the answer's seq: upto_num,
 * or the last one's when b stopped short (a page). */
static void batch_for(const struct live_game *lg, enum game_audience aud, struct event_batch *b, int64_t upto_num,
		      bool page, struct protocol_events *evs)
{
	for (size_t i = 0; i < b->n; i++)
		game_txn_event_for(lg, aud, &b->events[i]);
	evs->events = b->events;
	evs->n = b->n;
	evs->seq = page && b->n ? b->events[b->n - 1].seq : upto_num;
}

/* The resync answer: the snapshot at the game's seq (every event durable),
 * as viewer sees it up to upto (the log's), with the notes after `after`
 * (the log's) that viewer may see -- if they fit in one answer
 * (answer_bytes): 0 if they do not, and out is untouched; 1 once out is
 * filled. */
static int resync_answer(struct game_service *gs, struct live_game *lg, int64_t viewer, int64_t after,
			 int64_t upto, int64_t now, struct game_outcome *out)
{
	struct event_batch b = { .upto = upto, .budget = gs->srv->cfg.answer_bytes };
	struct protocol_events evs = { .now_ms = now, .resync = true };
	enum store_result r = store_events_after(gs->srv->store, lg->id, after, viewer, 0, batch_add_other, &b);
	enum game_audience aud = game_txn_audience(lg, viewer);
	batch_for(lg, aud, &b, game_txn_number(lg, aud, upto), false, &evs);
	if (r || b.cut) {
		protocol_events_fini(&evs);
		if (!r)
			return 0;
		game_store_failed(gs, out);
		return 1;
	}
	evs.snapshot = game_read_snapshot_for(lg, viewer, upto, now);
	struct protocol_error err;
	out->body = protocol_events_encode(&evs, &err);
	if (!out->body) {
		log_error("game %s: resync answer does not encode: %s", lg->id, err.message);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "resync answer does not encode");
	}
	protocol_events_fini(&evs);
	log_debug("game %s: resync from %lld to %lld", lg->id, (long long)after, (long long)lg->view.seq);
	return 1;
}

/* game_service_events on lg: 1 to park the poll, else 0 with out filled. */
static int events_answer(struct game_service *gs, struct live_game *lg, int64_t viewer, int64_t after,
			 bool must_answer, struct game_outcome *out)
{
	const char *id = lg->id;
	out->status = 200;
	/* after is the viewer's number (issue 12 item 16): the log's seq of
	 * that event is where its poll resumes. */
	enum game_audience aud = game_txn_audience(lg, viewer);
	int64_t from = game_txn_log_seq(lg, aud, after);
	/* after beyond what this node shows on a shared store: the client
	 * saw events another node made durable and this one has not folded
	 * yet (their message is on its way): it catches up now; if the
	 * client knew them all, they are durable (it saw them), else this
	 * node's next flush shows them. */
	if (from > game_txn_seen(lg, &lg->seen_durable, viewer) && store_shared(gs->srv->store)) {
		if (from > game_txn_seen(lg, &lg->seen, viewer) && game_registry_catch_up(gs, lg))
			log_warn("game %s: cannot catch up with its log", lg->id);
		from = game_txn_log_seq(lg, aud, after);
		if (from >= lg->view.seq && lg->view.seq > lg->durable_seq) {
			lg->durable_seq = lg->view.seq;
			lg->seen_durable = lg->seen;
		}
	}
	/* The last durable event viewer may see: another's private event
	 * (an opponent's premove) neither answers the poll nor moves its seq. */
	int64_t upto = game_txn_seen(lg, &lg->seen_durable, viewer);
	/* after > upto: the client knows a future this server never had (a
	 * restored database); answering at once with seq lets it resync --
	 * unless, on a shared store, this node has folded that far and only
	 * waits for its flush to show it: the poll parks until then. */
	if (!must_answer && (from == upto || (from > upto && store_shared(gs->srv->store) &&
					       from <= game_txn_seen(lg, &lg->seen, viewer))))
		return 1;
	int64_t now = now_wall_ms();
	int64_t upto_num = game_txn_number(lg, aud, upto);
	if (from >= upto) {
		/* Nothing new; a seq this node folded, its flush still under
		 * way, is no lost future: the answer stays at it (a lower seq
		 * tells a client to start again from 0). */
		int64_t seq = from > upto && from <= game_txn_seen(lg, &lg->seen, viewer) ? after : upto_num;
		out->body = xasprintf("{\"events\":[],\"seq\":%lld,\"now_ms\":%lld}", (long long)seq, (long long)now);
		return 0;
	}
	if (event_ring_covers(&lg->ring, from) && upto <= lg->ring.last) {
		out->body = event_ring_answer(&lg->ring, from, upto, viewer, aud, upto_num, now,
					      gs->srv->cfg.answer_bytes);
		return 0;
	}
	/* Far behind: the snapshot, once every event is durable (it shows
	 * them all) and if the notes it carries fit in one answer; else a
	 * page of events. */
	if (upto_num - after > GS_RESYNC_BEHIND && lg->view.seq == lg->durable_seq &&
	    resync_answer(gs, lg, viewer, from, upto, now, out))
		return 0;
	struct event_batch b = { .upto = upto, .budget = gs->srv->cfg.answer_bytes };
	struct protocol_events evs = { .now_ms = now };
	enum store_result r = store_events_after(gs->srv->store, id, from, viewer, GS_EVENTS_PER_ANSWER, batch_add, &b);
	batch_for(lg, aud, &b, upto_num, b.n == GS_EVENTS_PER_ANSWER || b.cut, &evs);
	if (r) {
		game_store_failed(gs, out);
	} else {
		struct protocol_error err;
		out->body = protocol_events_encode(&evs, &err);
		if (!out->body) {
			log_error("game %s: stored event does not encode: %s", id, err.message);
			game_fail(out, PROTOCOL_ERR_INTERNAL, "stored event does not encode");
		}
	}
	protocol_events_fini(&evs);
	return 0;
}

/* A correspondence game's answer carries its seats' vacations (the players'
 * bookings, which no event carries: game-seat.c), so that a client folds
 * the moves in it with the charges the server made. */
static void with_vacations(const struct live_game *lg, struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	size_t len = out->body ? strlen(out->body) : 0;
	if (out->failed || out->status != 200 || !len || out->body[len - 1] != '}' || !v->created ||
	    v->clock.tc.kind != TC_CORRESPONDENCE)
		return;
	char *vacs = fold_vacations_encode(v);
	out->body[len - 1] = '\0';
	char *body = xasprintf("%s,\"vacations\":%s}", out->body, vacs);
	free(vacs);
	free(out->body);
	out->body = body;
}

int game_service_events(struct game_service *gs, int64_t viewer, const char *id, int64_t after, bool must_answer,
			struct game_outcome *out)
{
	struct live_game *lg = game_registry_read(gs, id, out);
	if (!lg)
		return 0;
	if (events_answer(gs, lg, viewer, after, must_answer, out))
		return 1;
	with_vacations(lg, out);
	return 0;
}

void game_service_pgn(struct game_service *gs, const char *id, struct game_outcome *out)
{
	struct live_game *lg = game_registry_read(gs, id, out);
	if (!lg)
		return;
	struct pgn_buf b;
	struct tchess_error terr;
	struct game_note_list notes;
	if (game_note_public(gs, lg->id, &notes, out))
		return;
	pgn_buf_init(&b);
	enum tchess_err rc = fold_pgn_write(&lg->view, lg->id, notes.notes, notes.n, &b, &terr);
	game_note_list_fini(&notes);
	if (rc != TCHESS_OK) {
		pgn_buf_fini(&b);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "PGN: %s", terr.message);
		return;
	}
	out->body = b.data ? b.data : xstrdup("");
	out->status = 200;
}
