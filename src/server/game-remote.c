/*
 * What the other nodes on the database tell this one (cluster.h), applied
 * to the games in memory: events they made durable are folded from the
 * store and shown, seats they saw count as present here, games they
 * erased leave memory. A game not in memory needs nothing, unless this
 * node owns it (cluster_owns: it times it): the owner reads it in.
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

/* The other node made events up to seq durable before it told: when
 * that covers all this node has folded, they are shown at once, without
 * a flush here (what each audience sees is known only for the last seq
 * folded, game-txn.c). */
static void shown_up_to(struct game_service *gs, struct live_game *lg, int64_t seq)
{
	if (seq >= lg->view.seq && lg->view.seq > lg->durable_seq) {
		lg->durable_seq = lg->view.seq;
		lg->seen_durable = lg->seen;
		game_txn_wake(gs, lg->id);
	}
}

/* Catches lg (in memory) up with its log after one read of its last seq:
 * 0 if it was current, 1 if it caught up, -1 after filling out (410 if
 * another node erased it, which then left memory; 500). */
static int refresh(struct game_service *gs, struct live_game *lg, struct game_outcome *out)
{
	int64_t seq = 0;
	enum store_result r = store_game_last_seq(gs->srv->store, lg->id, &seq);
	if (r == STORE_NOT_FOUND) {
		/* Erased by another node (its message not yet here). */
		game_registry_forget_erased(gs, lg);
		game_fail(out, PROTOCOL_ERR_GONE, "the game was aborted and erased");
		return -1;
	}
	if (r != STORE_OK) {
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (seq <= lg->view.seq)
		return 0;
	if (game_registry_catch_up(gs, lg)) {
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	game_timer_poke(gs, lg);
	game_engine_sync(gs, lg);
	return 1;
}

struct live_game *game_registry_lookup_fresh(struct game_service *gs, const char *id, struct game_outcome *out)
{
	bool shared = store_shared(gs->srv->store);
	bool was_live = shared && game_registry_find(gs, id);
	struct live_game *lg = game_registry_lookup(gs, id, out);
	if (!lg || !was_live)
		return lg;
	return refresh(gs, lg, out) < 0 ? NULL : lg;
}

bool game_registry_fresh_after(struct game_service *gs, struct live_game **lg, int64_t was, bool *checked,
			       struct game_outcome *out)
{
	if (*checked || !*lg)
		return false;
	*checked = true;
	/* Its append found the log where this node had it. */
	if ((*lg)->view.seq != was)
		return false;
	struct game_outcome o = { 0 };
	int rc = refresh(gs, *lg, &o);
	if (rc == 0) {
		game_outcome_fini(&o);
		return false;
	}
	game_outcome_fini(out);
	*out = o;
	if (rc < 0) {
		/* Erased: gone from memory. */
		if (out->err.code == PROTOCOL_ERR_GONE)
			*lg = NULL;
		return false;
	}
	*out = (struct game_outcome){ 0 };
	return true;
}

/* A game of one message, and its read (store_events_ranges). */
struct told_game {
	struct live_game *lg;
	int64_t seq;  /* durable up to here, says the message */
	int64_t was;  /* lg's seq before */
	int64_t after; /* its seq before the read */
	bool read;    /* one of the ranges read */
	struct game_catch c;
	/* The events the message brought for it, in order. */
	const struct store_event **ev;
	size_t n_ev;
};

struct told_batch {
	struct told_game *g;
	size_t n, at;
};

static int told_event(void *arg, const struct store_event *ev)
{
	struct told_batch *b = arg;
	/* The ranges come in the games' order, each event with its game's
	 * id pointer (store.h). */
	while (b->at < b->n && !(b->g[b->at].read && b->g[b->at].lg->id == ev->game_id))
		b->at++;
	if (b->at < b->n)
		game_registry_catch_event(&b->g[b->at].c, ev);
	return 0;
}

/* The game told of, durable up to seq, in memory here (the owner brings
 * it in), or NULL. */
static struct live_game *told_game(struct game_service *gs, const char *id, int64_t seq)
{
	struct live_game *lg = game_registry_find(gs, id);
	int64_t left_at;
	if (!lg && game_registry_evicted_here(gs, id, &left_at) && left_at >= seq)
		return NULL; /* it left memory with all that, its record times it */
	if (!lg && cluster_owns(gs->srv->cluster, id)) {
		/* The owner keeps its games in memory, to time them (a game made
		 * on another node, or evicted here). */
		struct game_outcome o = { 0 };
		lg = game_registry_lookup(gs, id, &o);
		game_outcome_fini(&o);
		if (lg) {
			game_timer_poke(gs, lg);
			game_engine_sync(gs, lg);
		}
	}
	return lg;
}

void game_service_remote_events(struct game_service *gs, const struct game_told *told, size_t n,
				uint64_t *from_message, uint64_t *from_store)
{
	struct told_batch b = { .g = xcalloc(n ? n : 1, sizeof *b.g) };
	for (size_t i = 0; i < n; i++) {
		struct live_game *lg = told_game(gs, told[i].id, told[i].seq);
		if (!lg || told[i].seq <= lg->durable_seq)
			continue;
		/* A game told twice (two rounds in one message): the later. */
		size_t k = 0;
		while (k < b.n && b.g[k].lg != lg)
			k++;
		if (k == b.n)
			b.g[b.n++] = (struct told_game){ .lg = lg, .was = lg->view.seq };
		if (told[i].seq > b.g[k].seq)
			b.g[k].seq = told[i].seq;
		struct told_game *t = &b.g[k];
		if (told[i].n_events) {
			t->ev = xrealloc(t->ev, (t->n_ev + told[i].n_events) * sizeof *t->ev);
			for (size_t e = 0; e < told[i].n_events; e++)
				t->ev[t->n_ev++] = &told[i].events[e];
		}
	}
	/* Each game's missed events up to what the message covers, all in
	 * one read. Only that far: events appended since are not durable yet
	 * and their own message follows their flush (folded now, they would
	 * wait for a flush of this node's, a round run for nothing). */
	struct store_range *ranges = xcalloc(b.n ? b.n : 1, sizeof *ranges);
	size_t n_ranges = 0;
	for (size_t k = 0; k < b.n; k++) {
		struct told_game *t = &b.g[k];
		if (t->was >= t->seq)
			continue;
		if (game_registry_catch_begin(gs, t->lg, &t->c)) {
			log_warn("game %s: cannot read its players' vacations", t->lg->id);
			continue;
		}
		t->read = true;
		/* What the message brought, as far as it follows on. */
		for (size_t e = 0; e < t->n_ev && !t->c.rc; e++) {
			if (t->ev[e]->seq == t->lg->view.seq + 1 && t->ev[e]->seq <= t->seq &&
			    game_registry_catch_event(&t->c, t->ev[e]) == 0)
				(*from_message)++;
		}
		t->after = t->lg->view.seq;
		if (t->lg->view.seq < t->seq && !t->c.rc)
			ranges[n_ranges++] =
				(struct store_range){ .game_id = t->lg->id, .after = t->lg->view.seq, .upto = t->seq };
	}
	bool read_ok = store_events_ranges(gs->srv->store, ranges, n_ranges, told_event, &b) == STORE_OK;
	free(ranges);
	for (size_t k = 0; k < b.n; k++) {
		struct told_game *t = &b.g[k];
		struct live_game *lg = t->lg;
		if (t->read) {
			*from_store += (uint64_t)(lg->view.seq - t->after);
			game_registry_catch_end(&t->c);
			if (!read_ok || lg->view.seq < t->seq)
				log_warn("game %s: cannot fold what another node appended (seq %lld)", lg->id,
					 (long long)t->seq);
		} else if (t->was < t->seq) {
			continue; /* its bookings unread */
		}
		shown_up_to(gs, lg, t->seq);
		/* Folded past what the message covers (this node's own commit,
		 * or a command's catch-up here): shown after this node's next
		 * flush, which covers them. */
		if (lg->view.seq > lg->durable_seq)
			game_txn_publish(gs, lg);
		if (lg->view.seq != t->was) {
			/* Its clock, its end, its side to move may have changed. */
			game_timer_poke(gs, lg);
			game_engine_sync(gs, lg);
		}
	}
	for (size_t k = 0; k < b.n; k++)
		free(b.g[k].ev);
	free(b.g);
}

void game_service_remote_seen(struct game_service *gs, const char *id, int color)
{
	if (color < WHITE || color > BLACK)
		return;
	struct live_game *lg = game_registry_find(gs, id);
	if (!lg && cluster_owns(gs->srv->cluster, id) && game_registry_evicted_here(gs, id, NULL)) {
		/* Its record's disconnect deadlines are from the instants the
		 * seats were seen before it left memory: the owner, which
		 * times it, brings it back to time it by this one (a player
		 * parked on another node is not gone). */
		struct game_outcome o = { 0 };
		lg = game_registry_lookup(gs, id, &o);
		game_outcome_fini(&o);
	}
	if (!lg)
		return;
	lg->last_seen[color] = now_wall_ms();
	/* Told by this node too, in effect: the seat's news is fresh. */
	lg->told_seen[color] = now_mono_ms();
	game_timer_poke(gs, lg);
}

void game_service_remote_erased(struct game_service *gs, const char *id)
{
	struct live_game *lg = game_registry_find(gs, id);
	if (lg) {
		log_info("game %s: erased by another node", id);
		game_registry_forget_erased(gs, lg);
	} else if (!game_service_erased(gs, id)) {
		snprintf(gs->tombstones[gs->n_tombstones++ % GS_TOMBSTONES], STORE_GAME_ID_MAX + 1, "%s", id);
	}
}

void game_service_remote_resync(struct game_service *gs)
{
	size_t behind = 0;
	for (size_t b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b], *next; lg; lg = next) {
			next = lg->next;
			int64_t seq = 0;
			enum store_result r = store_game_last_seq(gs->srv->store, lg->id, &seq);
			if (r == STORE_NOT_FOUND) {
				/* Erased meanwhile (only aborted games are). */
				game_registry_forget_erased(gs, lg);
				continue;
			}
			if (r != STORE_OK || seq <= lg->view.seq)
				continue;
			if (game_registry_catch_up(gs, lg) == 0) {
				behind++;
				game_timer_poke(gs, lg);
				game_engine_sync(gs, lg);
			}
		}
	}
	/* The evicted games whose messages were missed: their records'
	 * deadlines are from before what they missed. */
	size_t back = game_registry_revive_moved(gs);
	if (behind || back)
		log_info("cluster: %zu games caught up with their logs, %zu evicted ones brought back", behind, back);
}

void game_service_parked_seats(struct game_service *gs, void (*fn)(void *arg, const char *id, int color), void *arg)
{
	int64_t now = now_mono_ms();
	for (size_t b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			for (int c = WHITE; c <= BLACK; c++) {
				if (lg->parked[c] - lg->left_parked[c] > 0) {
					lg->told_seen[c] = now;
					fn(arg, lg->id, c);
				}
			}
		}
	}
}

static int collect_unfinished(void *arg, const struct store_game *g)
{
	struct id_list *l = arg;
	l->ids = xrealloc(l->ids, (l->n + 1) * sizeof *l->ids);
	snprintf(l->ids[l->n++], sizeof l->ids[0], "%s", g->id);
	return 0;
}

void game_service_owners_changed(struct game_service *gs)
{
	struct cluster *c = gs->srv->cluster;
	struct id_list l = { 0 };
	size_t loaded = 0;
	/* A node that died may not have told its last events: what is in
	 * memory catches up with its log first, so the new owner times
	 * what the log says; the cold reads kept aside are dropped. */
	game_registry_cold_clear(gs);
	game_service_remote_resync(gs);
	/* A dead node's games: whoever owns them now brings them into memory
	 * (flagged at their instants by its timer if their time has run). */
	if (store_games_unfinished(gs->srv->store, collect_unfinished, &l)) {
		log_error("cluster: cannot read the unfinished games to take over");
	} else {
		for (size_t i = 0; i < l.n; i++) {
			if (game_registry_find(gs, l.ids[i]) || !cluster_owns(c, l.ids[i]))
				continue;
			struct game_outcome o = { 0 };
			if (game_registry_lookup(gs, l.ids[i], &o))
				loaded++;
			game_outcome_fini(&o);
		}
	}
	free(l.ids);
	for (size_t b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			game_timer_poke(gs, lg);
			game_engine_sync(gs, lg);
		}
	}
	if (loaded)
		log_info("cluster: %zu unfinished games taken over", loaded);
}
