/*
 * Transactions (see game-internal.h for the model): begin on a work copy,
 * add events through the fold, commit (the game row, the ended hook, the
 * store commit), then make the copy live. Also what a commit hands on:
 * publishing under group commit and batches of commands in one store
 * transaction.
 *
 * Publishing (server.h, group commit): a commit puts the game on the dirty
 * list; the syncer's fsync then moves its durable seq up to the events it
 * covers and only then are the game's polls woken. Polls are answered from
 * the game's ring of recent events (event-ring.h), encoded once at commit,
 * and never past the durable seq. With sync = normal a commit is durable at
 * once and publishes straight away.
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

static void seq_list_push(struct seq_list *l, int64_t seq)
{
	if (l->n && l->seq[l->n - 1] >= seq)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->seq = xrealloc(l->seq, l->cap * sizeof *l->seq);
	}
	l->seq[l->n++] = seq;
}

/* Counts event seq for the audiences that see it (seen) and numbers it
 * out of those that do not (hidden). */
static void seen_add(struct live_game *lg, const char *type, int64_t seq, int64_t visible_to)
{
	bool note = !strcmp(type, "note");
	lg->notes += note;
	if (!visible_to) {
		lg->seen.all = seq;
		return;
	}
	seq_list_push(&lg->hidden[AUD_PUBLIC], seq);
	for (int c = WHITE; c <= BLACK; c++) {
		if (lg->view.seats[c].kind == FOLD_SEAT_HUMAN && lg->view.seats[c].player == visible_to) {
			lg->seen.seat[c] = seq;
			lg->notes_by[c] += note;
		} else {
			seq_list_push(&lg->hidden[AUD_WHITE + c], seq);
		}
	}
}

int64_t game_txn_seen(const struct live_game *lg, const struct game_seen *s, int64_t viewer)
{
	int64_t seq = s->all;
	for (int c = WHITE; c <= BLACK; c++) {
		if (viewer && lg->view.seats[c].kind == FOLD_SEAT_HUMAN && lg->view.seats[c].player == viewer &&
		    s->seat[c] > seq)
			seq = s->seat[c];
	}
	return seq;
}

enum game_audience game_txn_audience(const struct live_game *lg, int64_t viewer)
{
	for (int c = WHITE; viewer && c <= BLACK; c++) {
		if (lg->view.seats[c].kind == FOLD_SEAT_HUMAN && lg->view.seats[c].player == viewer)
			return (enum game_audience)(AUD_WHITE + c);
	}
	return AUD_PUBLIC;
}

/* How many of l's seqs are at most s. */
static size_t seq_list_upto(const struct seq_list *l, int64_t s)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->seq[mid] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t game_numbering_number(const struct seq_list *hidden, int64_t s)
{
	if (s <= 0)
		return 0;
	return s - (int64_t)seq_list_upto(hidden, s);
}

int64_t game_txn_number(const struct live_game *lg, enum game_audience aud, int64_t s)
{
	return game_numbering_number(&lg->hidden[aud], s);
}

void game_numbering_copy(struct seq_list *dst, const struct live_game *lg, enum game_audience aud)
{
	const struct seq_list *src = &lg->hidden[aud];
	dst->n = dst->cap = src->n;
	dst->seq = NULL;
	if (src->n) {
		dst->seq = xmalloc(src->n * sizeof *src->seq);
		memcpy(dst->seq, src->seq, src->n * sizeof *src->seq);
	}
}

int64_t game_txn_log_seq(const struct live_game *lg, enum game_audience aud, int64_t n)
{
	if (n <= 0)
		return 0;
	int64_t last = game_txn_number(lg, aud, lg->view.seq);
	if (n > last)
		return lg->view.seq + (n - last);
	/* The n-th seen event follows every hidden one with fewer than n seen
	 * events before it: hidden[i] has hidden[i] - 1 - i. */
	const struct seq_list *l = &lg->hidden[aud];
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->seq[mid] - 1 - (int64_t)mid < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n + (int64_t)lo;
}

/* The data of an event as the audience whose private list is hidden
 * numbers the seqs in it (a notes-revealed event's notes: a note the
 * audience did not see gets the number of the last event before it that it
 * saw); NULL when the data holds none. */
static char *data_for(const struct seq_list *hidden, const char *type, const char *data)
{
	if (strcmp(type, "notes-revealed") || !data)
		return NULL;
	struct protocol_revealed_note *notes = NULL;
	size_t n = 0;
	struct protocol_error err;
	if (protocol_notes_revealed_decode(data, strlen(data), &notes, &n, &err))
		return NULL;
	for (size_t i = 0; i < n; i++)
		notes[i].seq = game_numbering_number(hidden, notes[i].seq);
	char *out = protocol_notes_revealed_encode(notes, n);
	free(notes);
	return out;
}

void game_numbering_event(const struct seq_list *hidden, struct protocol_event *e)
{
	char *data = data_for(hidden, e->type, e->data);
	if (data) {
		free(e->data);
		e->data = data;
	}
	e->seq = game_numbering_number(hidden, e->seq);
}

void game_txn_event_for(const struct live_game *lg, enum game_audience aud, struct protocol_event *e)
{
	game_numbering_event(&lg->hidden[aud], e);
}

int64_t game_txn_seen_number(const struct live_game *lg, const struct game_seen *s, int64_t viewer)
{
	return game_txn_number(lg, game_txn_audience(lg, viewer), game_txn_seen(lg, s, viewer));
}

void game_txn_answer_for(const struct live_game *lg, int64_t viewer, struct game_outcome *out)
{
	enum game_audience aud = game_txn_audience(lg, viewer);
	int64_t seq = game_txn_seen(lg, &lg->seen, viewer);
	if (out->events.seq > seq)
		out->events.seq = seq;
	out->events.seq = game_txn_number(lg, aud, out->events.seq);
	if (out->err.seq > seq)
		out->err.seq = seq;
	if (out->err.seq > 0)
		out->err.seq = game_txn_number(lg, aud, out->err.seq);
	for (size_t i = 0; i < out->events.n; i++)
		game_txn_event_for(lg, aud, &out->events.events[i]);
}

/* An event object without its seq: what follows it (",\"type\":...}"),
 * in json's own memory. */
static char *tail_of(char *json)
{
	size_t k = strcspn(json, ",");
	memmove(json, json + k, strlen(json + k) + 1);
	return json;
}

/* Keeps an event for the polls, encoded once here (once per audience for
 * an event whose data holds seqs). */
void game_txn_ring_add(struct live_game *lg, const struct protocol_event *pe, int64_t visible_to)
{
	seen_add(lg, pe->type, pe->seq, visible_to);
	char *json = protocol_event_encode_own(pe);
	if (!json) {
		/* Only an event this server did not encode could get here; the
		 * polls then read the store. */
		log_error("game %s: event %lld does not encode; served from the store", lg->id, (long long)pe->seq);
		event_ring_fini(&lg->ring);
		return;
	}
	int64_t num[AUD_N];
	char *tail[AUD_N] = { 0 };
	for (int a = 0; a < AUD_N; a++) {
		num[a] = game_txn_number(lg, (enum game_audience)a, pe->seq);
		char *data = data_for(&lg->hidden[a], pe->type, pe->data);
		if (!data)
			continue;
		struct protocol_event own = *pe;
		own.data = data;
		char *j = protocol_event_encode_own(&own);
		free(data);
		if (j)
			tail[a] = tail_of(j);
		if (a && tail[a] && tail[0] && !strcmp(tail[a], tail[0])) {
			free(tail[a]);
			tail[a] = NULL;
		}
	}
	if (tail[0])
		free(json);
	else
		tail[0] = tail_of(json);
	event_ring_push(&lg->ring, pe->seq, visible_to, num, tail);
}

/* The instant of a new event: the wall clock, but never before the game's
 * last event (a wall clock stepped back must not run a game clock back). */
int64_t game_txn_instant(const struct game_view *v)
{
	int64_t t = now_wall_ms();
	return t < v->last_t_ms ? v->last_t_ms : t;
}

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

/* Events kept for the other nodes' message at most, per game: more
 * (a game far behind its flush) and they read them from the store. */
#define TELL_MAX 32

void game_txn_tell_drop(struct live_game *lg, int64_t seq)
{
	size_t k = 0;
	while (k < lg->n_tell && lg->tell[k].seq <= seq) {
		free((char *)lg->tell[k].type);
		free((char *)lg->tell[k].payload);
		k++;
	}
	if (k == 0)
		return; /* nothing to drop (lg->tell may not be there yet) */
	memmove(lg->tell, lg->tell + k, (lg->n_tell - k) * sizeof *lg->tell);
	lg->n_tell -= k;
}

/* Keeps a committed event for the other nodes (lg->tell). */
static void tell_keep(struct live_game *lg, const struct protocol_event *pe, int64_t visible_to)
{
	if (lg->n_tell && lg->tell[lg->n_tell - 1].seq != pe->seq - 1)
		game_txn_tell_drop(lg, INT64_MAX); /* not a run: they read the store */
	if (lg->n_tell == TELL_MAX)
		return;
	if (!lg->tell)
		lg->tell = xcalloc(TELL_MAX, sizeof *lg->tell);
	lg->tell[lg->n_tell++] = (struct store_event){ .game_id = lg->id,
						      .seq = pe->seq,
						      .type = xstrdup(pe->type),
						      .payload = xstrdup(pe->data ? pe->data : "{}"),
						      .visible_to = visible_to,
						      .created_ms = pe->t_ms };
}

/* Tells the other nodes lg's events up to seq are durable, with those of
 * them this node committed (the rest they read from the store). */
static void tell_durable(struct game_service *gs, struct live_game *lg, int64_t seq)
{
	struct cluster *c = gs->srv->cluster;
	for (size_t i = 0; c && i < lg->n_tell && lg->tell[i].seq <= seq; i++)
		cluster_tell_event(c, &lg->tell[i]);
	game_txn_tell_drop(lg, seq);
	cluster_tell_events(c, lg->id, seq);
}

/* After a commit of lg's events: shown at once when commits are durable as
 * they return (sync = normal), else once the syncer's fsync covers them. */
void game_txn_publish(struct game_service *gs, struct live_game *lg)
{
	struct server *srv = gs->srv;
	if (!store_syncs(srv->store)) {
		lg->durable_seq = lg->view.seq;
		lg->seen_durable = lg->seen;
		game_txn_wake(gs, lg->id);
		tell_durable(gs, lg, lg->durable_seq);
		return;
	}
	if (!lg->dirty) {
		lg->dirty = true;
		list_push(&gs->dirty, &gs->n_dirty, &gs->cap_dirty, lg);
	}
	commit_committed(&srv->commit);
}

void game_txn_forget(struct game_service *gs, struct live_game *lg)
{
	if (lg->dirty)
		list_drop(gs->dirty, &gs->n_dirty, lg);
	if (lg->in_flight)
		list_drop(gs->flight, &gs->n_flight, lg);
}

void game_txn_wake(struct game_service *gs, const char *id)
{
	if (gs->polls.wake)
		gs->polls.wake(gs->polls.ctx, id);
}

/* An fsync starts: it covers each dirty game's events so far. */
static void sync_begin(void *ctx)
{
	struct game_service *gs = ctx;
	for (size_t i = 0; i < gs->n_dirty; i++) {
		struct live_game *lg = gs->dirty[i];
		lg->dirty = false;
		lg->flight_seq = lg->view.seq;
		lg->seen_flight = lg->seen;
		if (!lg->in_flight) {
			lg->in_flight = true;
			list_push(&gs->flight, &gs->n_flight, &gs->cap_flight, lg);
		}
	}
	gs->n_dirty = 0;
}

/* That fsync is done: those events may be shown, and the polls woken. */
static void sync_durable(void *ctx, uint64_t target)
{
	struct game_service *gs = ctx;
	(void)target;
	for (size_t i = 0; i < gs->n_flight; i++) {
		struct live_game *lg = gs->flight[i];
		lg->in_flight = false;
		if (lg->flight_seq > lg->durable_seq) {
			lg->durable_seq = lg->flight_seq;
			lg->seen_durable = lg->seen_flight;
			game_txn_wake(gs, lg->id);
			/* After the flush, in the node's one batch of the round
			 * (cluster.h): never a NOTIFY per command. */
			tell_durable(gs, lg, lg->durable_seq);
		}
	}
	gs->n_flight = 0;
}

void game_txn_listener(struct game_service *gs, struct commit_listener *out)
{
	*out = (struct commit_listener){ .ctx = gs, .begin = sync_begin, .durable = sync_durable };
}

void game_service_set_polls(struct game_service *gs, const struct game_service_polls *polls)
{
	pthread_mutex_lock(&gs->srv->lock);
	if (polls)
		gs->polls = *polls;
	else
		memset(&gs->polls, 0, sizeof gs->polls);
	pthread_mutex_unlock(&gs->srv->lock);
}

int game_txn_begin(struct game_txn *t, struct game_service *gs, struct live_game *lg, struct game_outcome *out)
{
	/* Not a memset of the whole: ev[] alone is kilobytes, and only its
	 * first n entries are ever read. */
	t->gs = gs;
	t->lg = lg;
	t->n = 0;
	/* Nothing is recorded on a game before its clock's resumption. */
	if (!game_clock_ready(gs, lg, out))
		return -1;
	if (gs->batch) {
		/* One change per game per batch: a second would not see the first. */
		for (size_t i = 0; i < gs->n_pending; i++) {
			if (gs->pending[i].lg == lg) {
				game_fail(out, PROTOCOL_ERR_INTERNAL, "game changed twice in one batch");
				return -1;
			}
		}
	}
	fold_view_copy(&t->work, &lg->view);
	if (!gs->batch && store_begin(gs->srv->store)) {
		fold_view_fini(&t->work);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	/* Every charge reads the seats' bookings as the store has them now
	 * (another node may have taken one). */
	if (t->work.started && !game_is_over(&t->work.game) &&
	    game_seat_vacations(gs, &t->work, t->work.started_ms)) {
		game_txn_abort(t);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	return 0;
}

void game_txn_abort(struct game_txn *t)
{
	store_rollback(t->gs->srv->store);
	if (t->gs->batch)
		t->gs->batch_failed = true;
	fold_view_fini(&t->work);
	for (size_t i = 0; i < t->n; i++)
		protocol_event_fini(&t->ev[i]);
	t->n = 0;
}

/* The transaction lost the race for a seq (t is aborted): another
 * writer appended first and the game in memory is behind its log. Caught
 * up, the command runs again (game_retry); in a batch, or if the catch-up
 * fails, a storage failure. */
static void txn_race_lost(struct game_txn *t, int64_t seq, struct game_outcome *out)
{
	if (!t->gs->batch && !game_registry_catch_up(t->gs, t->lg)) {
		log_info("game %s: seq %lld taken by another writer; caught up to %lld", t->lg->id, (long long)seq,
			 (long long)t->lg->view.seq);
		game_fail(out, PROTOCOL_ERR_CONFLICT, "the game changed meanwhile; send the command again");
		out->stale = true;
	} else {
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
	}
}

/* Applies e to the work copy, then appends it (payload: e's encoding, or
 * raw for an event the fold ignores). Fails (rolling back) with the fold's
 * complaint as a bad request, or a storage failure. */
int game_txn_add_raw(struct game_txn *t, struct fold_event *e, const char *type, const char *raw, int64_t visible_to,
		       int64_t t_ms, struct game_outcome *out)
{
	struct protocol_error err;
	int64_t seq = t->work.seq + 1;
	if (t->n == TXN_EVENTS_MAX || fold_apply_event_scratch(&t->work, seq, t_ms, e, &err)) {
		game_txn_abort(t);
		if (t->n == TXN_EVENTS_MAX)
			game_fail(out, PROTOCOL_ERR_INTERNAL, "too many events in one command");
		else
			game_fail(out, err.code, "%s", err.message);
		return -1;
	}
	/* The readings an event carries are the fold's, after the event. */
	if (e->kind == FOLD_EV_STARTED || e->kind == FOLD_EV_MOVE || e->kind == FOLD_EV_ENDED ||
	    e->kind == FOLD_EV_CLOCK_RESUMED || e->kind == FOLD_EV_ADJOURNED || e->kind == FOLD_EV_RESUMED ||
	    e->kind == FOLD_EV_TIME_ADDED || e->kind == FOLD_EV_VACATION) {
		e->has_clock = true;
		fold_clock_read(&t->work, t->work.last_t_ms, &e->clock);
	}
	if (e->kind == FOLD_EV_MOVE)
		e->charged_ms = t->work.plies[t->work.game.n_plies - 1].charged_ms;
	if (e->kind == FOLD_EV_ENDED) {
		snprintf(e->result, sizeof e->result, "%s", game_result_str(t->work.game.result));
		snprintf(e->termination, sizeof e->termination, "%s",
			 game_termination_str(t->work.game.termination));
	}
	char *payload = raw ? xstrdup(raw) : fold_event_encode(e);
	enum store_result r =
		store_event_append(t->gs->srv->store, t->lg->id, seq, type, payload, visible_to, t->work.last_t_ms);
	if (r != STORE_OK) {
		free(payload);
		/* An earlier append's race, read only now, counts alike. */
		bool lost = r == STORE_CONFLICT || store_race_lost(t->gs->srv->store);
		game_txn_abort(t);
		if (lost)
			txn_race_lost(t, seq, out);
		else
			game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
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

int game_txn_add(struct game_txn *t, struct fold_event *e, int64_t visible_to, int64_t t_ms, struct game_outcome *out)
{
	return game_txn_add_raw(t, e, fold_event_type(e->kind), NULL, visible_to, t_ms, out);
}

void game_txn_row_of(const struct live_game *lg, const struct game_view *v, struct store_game *g)
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
	if (!g->finished)
		return;
	/* The summary the store keeps from the first update that has one:
	 * the commit that ends the game, so its last event is game-ended. */
	g->ended_ms = v->last_t_ms;
	snprintf(g->result, sizeof g->result, "%s", game_result_str(v->game.result));
	snprintf(g->termination, sizeof g->termination, "%s", game_termination_str(v->game.termination));
	g->plies = (int64_t)v->game.n_plies;
	snprintf(g->tc, sizeof g->tc, "%s", v->tc);
	snprintf(g->ruleset, sizeof g->ruleset, "%s", v->game.rules.name);
	g->white_level = v->seats[WHITE].kind == FOLD_SEAT_ENGINE ? v->seats[WHITE].level : 0;
	g->black_level = v->seats[BLACK].kind == FOLD_SEAT_ENGINE ? v->seats[BLACK].level : 0;
}

/* Writes the game row, commits, makes the work copy live, wakes the polls
 * and the flag timer, and gives the caller (viewer) the events it may see. */
bool game_retry(struct game_outcome *out, int *tries)
{
	if (!out->stale || ++*tries > GAME_STALE_RETRIES)
		return false;
	game_outcome_fini(out);
	*out = (struct game_outcome){0};
	return true;
}

int game_txn_commit(struct game_txn *t, int64_t viewer, struct game_outcome *out)
{
	struct game_service *gs = t->gs;
	struct server *srv = gs->srv;
	struct store_game row;
	if (t->work.created && game_is_over(&t->work.game) && !game_is_over(&t->lg->view.game) &&
	    game_note_reveal(t, out))
		return -1;
	game_txn_row_of(t->lg, &t->work, &row);
	bool ended = game_is_over(&t->work.game) && !(t->lg->view.created && game_is_over(&t->lg->view.game));
	/* Most commands (a move) leave the row as it was: no UPDATE then. */
	struct store_game was;
	game_txn_row_of(t->lg, &t->lg->view, &was);
	bool same = t->lg->view.created && !strcmp(row.status, was.status) && row.white == was.white &&
		    row.black == was.black && row.finished == was.finished;
	if ((!same && store_game_update(srv->store, &row)) ||
	    (ended && gs->hooks.ended && gs->hooks.ended(gs->hooks.ctx, t->lg->id, &t->work)) ||
	    (!gs->batch && store_commit(srv->store))) {
		/* The appends' answers may come only now (store_race_lost). */
		bool lost = store_race_lost(srv->store);
		int64_t seq = t->lg->view.seq + 1;
		game_txn_abort(t);
		if (lost)
			txn_race_lost(t, seq, out);
		else
			game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
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
		for (size_t i = 0; i < t->n; i++) {
			game_txn_ring_add(t->lg, &t->ev[i], t->visible_to[i]);
			if (srv->cluster)
				tell_keep(t->lg, &t->ev[i], t->visible_to[i]);
		}
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
		game_txn_publish(gs, t->lg);
		game_timer_poke(gs, t->lg);
		game_engine_sync(gs, t->lg);
	}
	return 0;
}

/* A server-made event in its own transaction (the timer's, or presence). */
int game_txn_server_event(struct game_service *gs, struct live_game *lg, struct fold_event *e, struct fold_event *then)
{
	struct game_outcome o = { 0 };
	struct game_txn t;
	int64_t t_ms = game_txn_instant(&lg->view);
	int rc = game_txn_begin(&t, gs, lg, &o) || game_txn_add(&t, e, 0, t_ms, &o) ||
		 (then && game_txn_add(&t, then, 0, t_ms, &o)) || game_txn_commit(&t, 0, &o);
	if (rc)
		log_error("game %s: %s refused: %s", lg->id, fold_event_type(e->kind), o.err.message);
	game_outcome_fini(&o);
	return rc ? -1 : 0;
}

/* Ends the game for a technical failure (reason as in tchess-protocol(7)). */
int game_txn_technical_failure(struct game_service *gs, struct live_game *lg, int color, const char *reason)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", game_termination_str(GAME_TERM_TECHNICAL_FAILURE));
	snprintf(e.reason, sizeof e.reason, "%s", reason);
	e.color = color;
	return game_txn_server_event(gs, lg, &e, NULL);
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
				game_registry_live_free(b->lg);
			continue;
		}
		fold_view_fini(&b->lg->view);
		b->lg->view = b->view;
		/* A batch's events (games created, vacations) are everyone's. */
		b->lg->seen.all = b->lg->view.seq;
		b->lg->used_ms = now_wall_ms();
		if (b->insert)
			game_registry_insert(gs, b->lg);
		game_txn_publish(gs, b->lg);
		game_timer_poke(gs, b->lg);
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
