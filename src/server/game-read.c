/*
 * Reads: the snapshot, the events long-poll (from the ring, the store, or
 * a resync snapshot for a client far behind) and the PGN. A read changes
 * no game: presence is the caller's business (game_service_touch).
 *
 * A snapshot, a resync answer and a page of stored events are not encoded
 * here (issue 12 item 1): under the lock each becomes a struct game_answer
 * of copies -- the view, the events read, the viewer's numbering -- with
 * the seqs the viewer is told resolved, and the HTTP side encodes it once
 * the lock is released. An answer from the ring is its events' texts,
 * encoded once at commit, joined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

/* An answer to encode after the server lock (game-service.h): copies of
 * what it shows, with the viewer's numbering. */
struct game_answer {
	struct seq_list hidden; /* the viewer's audience's (game_numbering_copy) */
	bool events;            /* an events answer; else a snapshot alone */
	/* The events with the log's seqs (numbered at encode); evs.seq is the
	 * viewer's already. */
	struct protocol_events evs;
	/* With a snapshot (a GET, a resync): the view copied, its game, the
	 * viewer and the snapshot's seq (the viewer's number). */
	bool snapshot;
	struct game_view view;
	char id[STORE_GAME_ID_MAX + 1];
	int64_t viewer, snapshot_seq, now;
	char *vacations; /* a correspondence game's events answer: its "vacations" member's value */
	int64_t delay_ms; /* testing aid: test_answer_delay_ms */
};

static struct game_answer *answer_new(struct game_service *gs, const struct live_game *lg, int64_t viewer,
				      int64_t now)
{
	struct game_answer *a = xcalloc(1, sizeof *a);
	game_numbering_copy(&a->hidden, lg, game_txn_audience(lg, viewer));
	a->viewer = viewer;
	a->now = now;
	a->delay_ms = gs->srv->cfg.test_answer_delay_ms;
	snprintf(a->id, sizeof a->id, "%s", lg->id);
	return a;
}

/* a shows lg's snapshot at the log's seq upto (the last event the viewer
 * may see). */
static void answer_snapshot(struct game_answer *a, const struct live_game *lg, int64_t upto)
{
	fold_view_copy(&a->view, &lg->view);
	a->snapshot = true;
	a->snapshot_seq = game_txn_number(lg, game_txn_audience(lg, a->viewer), upto);
}

void game_answer_free(struct game_answer *a)
{
	if (!a)
		return;
	free(a->hidden.seq);
	protocol_events_fini(&a->evs);
	if (a->snapshot)
		fold_view_fini(&a->view);
	free(a->vacations);
	free(a);
}

static int64_t number_of(const void *ctx, int64_t seq)
{
	return game_numbering_number(ctx, seq);
}

/* Appends the member "vacations":vacs to the JSON object *body. */
static void body_with_vacations(char **body, const char *vacs)
{
	size_t len = strlen(*body);
	if (!len || (*body)[len - 1] != '}')
		return;
	(*body)[len - 1] = '\0';
	char *with = xasprintf("%s,\"vacations\":%s}", *body, vacs);
	free(*body);
	*body = with;
}

char *game_answer_encode(struct game_answer *a, int *status)
{
	if (a->delay_ms > 0) {
		struct timespec ts = { .tv_sec = (time_t)(a->delay_ms / 1000),
				       .tv_nsec = (long)(a->delay_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	*status = 200;
	char *snapshot = NULL;
	if (a->snapshot)
		snapshot = fold_snapshot_encode_seq(&a->view, a->id, a->now, a->viewer, a->snapshot_seq, number_of,
						    &a->hidden);
	char *body = snapshot;
	if (a->events) {
		for (size_t i = 0; i < a->evs.n; i++)
			game_numbering_event(&a->hidden, &a->evs.events[i]);
		a->evs.snapshot = snapshot;
		struct protocol_error err;
		body = protocol_events_encode(&a->evs, &err);
		if (!body) {
			log_error("game %s: %s answer does not encode: %s", a->id, a->evs.resync ? "resync" : "events",
				  err.message);
			struct protocol_error e = { .code = PROTOCOL_ERR_INTERNAL };
			snprintf(e.message, sizeof e.message, "%s", a->evs.resync ? "resync answer does not encode"
										: "stored event does not encode");
			*status = protocol_error_status(e.code);
			body = protocol_error_encode(&e);
		}
	}
	if (*status == 200 && a->vacations)
		body_with_vacations(&body, a->vacations);
	game_answer_free(a);
	return body;
}

void game_service_snapshot(struct game_service *gs, int64_t viewer, const char *id, struct game_outcome *out)
{
	/* A shared store's snapshot is fresh: another node may have appended. */
	struct live_game *lg = store_shared(gs->srv->store) && !cluster_alone(gs->srv->cluster)
				       ? game_registry_lookup_fresh(gs, id, out)
				       : game_registry_read(gs, id, out);
	if (!lg)
		return;
	out->later = answer_new(gs, lg, viewer, now_wall_ms());
	answer_snapshot(out->later, lg, game_txn_seen(lg, &lg->seen, viewer));
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

/* An answer of the events of b (their seqs the log's: the encode numbers
 * them) whose seq is upto_num, or when b stopped short (a page) the
 * viewer's number of the last one; b's events are taken. */
static struct game_answer *batch_answer(struct game_service *gs, const struct live_game *lg, int64_t viewer,
					struct event_batch *b, int64_t upto_num, bool page, int64_t now)
{
	struct game_answer *a = answer_new(gs, lg, viewer, now);
	a->events = true;
	a->evs.events = b->events;
	a->evs.n = b->n;
	a->evs.now_ms = now;
	a->evs.seq = page && b->n ? game_txn_number(lg, game_txn_audience(lg, viewer), b->events[b->n - 1].seq)
				  : upto_num;
	b->events = NULL;
	b->n = 0;
	return a;
}

static void batch_fini(struct event_batch *b)
{
	struct protocol_events evs = { .events = b->events, .n = b->n };
	protocol_events_fini(&evs);
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
	enum store_result r = store_events_after(gs->srv->store, lg->id, after, viewer, 0, batch_add_other, &b);
	if (r || b.cut) {
		batch_fini(&b);
		if (!r)
			return 0;
		game_store_failed(gs, out);
		return 1;
	}
	enum game_audience aud = game_txn_audience(lg, viewer);
	out->later = batch_answer(gs, lg, viewer, &b, game_txn_number(lg, aud, upto), false, now);
	out->later->evs.resync = true;
	answer_snapshot(out->later, lg, upto);
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
	enum store_result r = store_events_after(gs->srv->store, id, from, viewer, GS_EVENTS_PER_ANSWER, batch_add, &b);
	if (r)
		game_store_failed(gs, out);
	else
		out->later = batch_answer(gs, lg, viewer, &b, upto_num, b.n == GS_EVENTS_PER_ANSWER || b.cut, now);
	batch_fini(&b);
	return 0;
}

/* A correspondence game's answer carries its seats' vacations (the players'
 * bookings, which no event carries: game-seat.c), so that a client folds
 * the moves in it with the charges the server made. */
static void with_vacations(const struct live_game *lg, struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	if (out->failed || out->status != 200 || !v->created || v->clock.tc.kind != TC_CORRESPONDENCE)
		return;
	if (out->later) {
		out->later->vacations = fold_vacations_encode(v);
	} else if (out->body) {
		char *vacs = fold_vacations_encode(v);
		body_with_vacations(&out->body, vacs);
		free(vacs);
	}
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

void game_service_summary(struct game_service *gs, struct protocol_game_summary *s)
{
	struct game_outcome out;
	memset(&out, 0, sizeof out);
	struct live_game *lg = game_registry_read(gs, s->id, &out);
	game_outcome_fini(&out);
	if (!lg || !lg->view.created || game_is_over(&lg->view.game))
		return;
	const struct game_view *v = &lg->view;
	snprintf(s->tc, sizeof s->tc, "%s", v->tc);
	snprintf(s->ruleset, sizeof s->ruleset, "%s", v->game.rules.name);
	char *names[2] = { s->white_name, s->black_name };
	int64_t *levels[2] = { &s->white_level, &s->black_level };
	int free_seat = -1;
	for (int c = WHITE; c <= BLACK; c++) {
		const struct fold_seat *seat = &v->seats[c];
		if (seat->kind == FOLD_SEAT_HUMAN)
			snprintf(names[c], sizeof s->white_name, "%s", seat->name);
		else if (seat->kind == FOLD_SEAT_ENGINE)
			*levels[c] = seat->level;
		else
			free_seat = c;
	}
	if (!v->started && free_seat >= 0)
		snprintf(s->color, sizeof s->color, "%s", fold_color_str(free_seat));
	s->ply = (int64_t)v->game.n_plies;
	/* The side to move of a game under way (a FEN start may give Black
	 * the first move, so not the ply's parity). */
	if (v->started)
		snprintf(s->turn, sizeof s->turn, "%s", fold_color_str((int)game_side_to_move(&v->game)));
}
