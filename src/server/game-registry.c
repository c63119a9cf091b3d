/*
 * The registry: which games are in memory (a hash of live games), how one
 * comes back (the replay of its stored events), and eviction.
 *
 * Eviction (evict_idle_s, tchessd(8)): a game nobody touched for the idle
 * time leaves memory, so days-per-move correspondence games do not hold
 * their fold and ring for days. Only a quiet game goes: no long-poll
 * parked on it, no engine request out, every event durable (durable_seq
 * is its seq and no fsync is under way for it), no batch open. What
 * memory alone knew stays behind in a small record (struct
 * evicted_game): each seat's presence and invalid-command count, the
 * human seats (a player's games find it by them) and the
 * instant of its next deadline, computed by the same function that tells
 * the timer about a live game's (game_timer_deadline). Any access goes
 * through game_registry_lookup(), which brings the game back by the replay
 * of start-up and puts the record's memory back; the timer brings back a
 * game whose deadline has come and then treats it as any live game. So
 * the store's log, not memory, is the game, as after a restart, and a
 * client cannot tell. Aborted games erased lately leave a tombstone, so
 * their id answers 410 rather than 404.
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

/* Drops game id's cold copy, if any (it is coming into memory). */
static void cold_drop(struct game_service *gs, const char *id)
{
	for (size_t i = 0; i < gs->n_cold; i++) {
		if (!strcmp(gs->cold[i]->id, id)) {
			game_registry_live_free(gs->cold[i]);
			memmove(&gs->cold[i], &gs->cold[i + 1], (gs->n_cold - i - 1) * sizeof *gs->cold);
			gs->n_cold--;
			return;
		}
	}
}

void game_registry_insert(struct game_service *gs, struct live_game *lg)
{
	cold_drop(gs, lg->id);
	unsigned b = bucket_of(lg->id);
	lg->next = gs->bucket[b];
	gs->bucket[b] = lg;
	lg->used_ms = now_wall_ms();
	gs->n_live++;
	game_timer_poke(gs, lg);
}

/* Takes lg out of the games in memory (the caller frees it). */
static void game_registry_unlink(struct game_service *gs, struct live_game *lg)
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
static struct evicted_game **game_registry_evicted_link(struct game_service *gs, const char *id)
{
	struct evicted_game **p = &gs->evicted[bucket_of(id)];
	while (*p && strcmp((*p)->id, id))
		p = &(*p)->next;
	return p;
}

static void game_registry_evicted_drop(struct game_service *gs, struct evicted_game **link)
{
	struct evicted_game *e = *link;
	*link = e->next;
	dheap_remove(&gs->timer_evicted, &e->timer);
	free(e);
	gs->n_evicted--;
}

void game_registry_live_free(struct live_game *lg)
{
	game_txn_tell_drop(lg, INT64_MAX);
	free(lg->tell);
	fold_view_fini(&lg->view);
	event_ring_fini(&lg->ring);
	for (int a = 0; a < AUD_N; a++)
		free(lg->hidden[a].seq);
	free(lg);
}

static int replay_event(void *arg, const struct store_event *ev)
{
	struct game_catch *r = arg;
	struct protocol_event pe = { .seq = ev->seq, .t_ms = ev->created_ms, .data = (char *)ev->payload };
	struct protocol_error err;
	snprintf(pe.type, sizeof pe.type, "%s", ev->type);
	/* A correspondence game's clock runs from its start: from then on
	 * its charges read its seats' bookings (game-seat.c). */
	if (fold_event_kind_of(ev->type) == FOLD_EV_STARTED && !r->lg->view.started &&
	    game_seat_vacations(r->gs, &r->lg->view, ev->created_ms)) {
		log_error("game %s: cannot read its players' vacations", r->lg->id);
		r->rc = -1;
		return 1;
	}
	if (fold_apply(&r->lg->view, &pe, &err)) {
		log_error("game %s: event %lld (%s) does not fold: %s", r->lg->id, (long long)ev->seq, ev->type,
			  err.message);
		r->rc = -1;
		return 1;
	}
	game_txn_ring_add(r->lg, &pe, ev->visible_to);
	return 0;
}

int game_registry_catch_up(struct game_service *gs, struct live_game *lg)
{
	int64_t was = lg->view.seq;
	if (game_registry_fold_missed(gs, lg))
		return -1;
	if (lg->view.seq != was)
		game_txn_publish(gs, lg);
	return 0;
}

int game_registry_fold_missed(struct game_service *gs, struct live_game *lg)
{
	struct game_catch c;
	if (game_registry_catch_begin(gs, lg, &c) ||
	    store_events_after(gs->srv->store, lg->id, lg->view.seq, STORE_VIEWER_ALL, 0, replay_event, &c) || c.rc)
		return -1;
	game_registry_catch_end(&c);
	return 0;
}

int game_registry_catch_begin(struct game_service *gs, struct live_game *lg, struct game_catch *c)
{
	*c = (struct game_catch){ .gs = gs, .lg = lg, .started = lg->view.started };
	c->seated[WHITE] = lg->view.seats[WHITE].player;
	c->seated[BLACK] = lg->view.seats[BLACK].player;
	/* The other writer charged with the bookings as they are now. */
	if (c->started && game_seat_vacations(gs, &lg->view, lg->view.started_ms))
		return c->rc = -1;
	return 0;
}

int game_registry_catch_event(struct game_catch *c, const struct store_event *ev)
{
	if (c->rc || ev->seq != c->lg->view.seq + 1)
		return c->rc = -1;
	return replay_event(c, ev);
}

void game_registry_catch_end(struct game_catch *c)
{
	struct live_game *lg = c->lg;
	/* A seat filled, or the game started, elsewhere (another node): as
	 * game_seat_start_if_full counts it, the seats were there just now. */
	for (int col = WHITE; col <= BLACK; col++) {
		if (lg->view.seats[col].player != c->seated[col] || lg->view.started != c->started)
			lg->last_seen[col] = now_wall_ms();
	}
}

/* A new live game (in no list) replayed from the store's log of game id;
 * NULL after filling out (404, 410 or 500). */
static struct live_game *replay_new(struct game_service *gs, const char *id, struct game_outcome *out)
{
	struct store_game g;
	struct evicted_game **link;
	switch (store_game_get(gs->srv->store, id, &g)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		/* Not by this server, which erases only live games; a record
		 * of a game that is no more would bring nothing back. */
		link = game_registry_evicted_link(gs, id);
		if (*link)
			game_registry_evicted_drop(gs, link);
		if (game_service_erased(gs, id))
			game_fail(out, PROTOCOL_ERR_GONE, "the game was aborted and erased");
		else
			game_fail(out, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return NULL;
	default:
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return NULL;
	}
	struct live_game *lg = xcalloc(1, sizeof *lg);
	lg->last_seen[WHITE] = lg->last_seen[BLACK] = now_wall_ms();
	snprintf(lg->id, sizeof lg->id, "%s", g.id);
	lg->created_ms = g.created_ms;
	fold_view_init(&lg->view);
	event_ring_init(&lg->ring);
	/* params is what game_service_create or a tournament wrote
	 * (protocol_game_params): the invite's hash, if any. */
	struct protocol_game_params gp;
	struct protocol_error perr;
	if (g.params && !protocol_game_params_decode(g.params, strlen(g.params), &gp, &perr))
		snprintf(lg->invite_hash, sizeof lg->invite_hash, "%s", gp.invite_sha256);
	store_game_fini(&g);
	struct game_catch r = { .gs = gs, .lg = lg };
	/* Once more at the end: a log from before bookings were rows carries
	 * "vacation" events, which the rows outrank. */
	if (store_events_after(gs->srv->store, id, 0, STORE_VIEWER_ALL, 0, replay_event, &r) || r.rc ||
	    !lg->view.created || (lg->view.started && game_seat_vacations(gs, &lg->view, lg->view.started_ms))) {
		game_registry_live_free(lg);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "the game's log cannot be replayed");
		return NULL;
	}
	/* What the store holds was written before this process's commits,
	 * or is a game none of them touched, or one evicted only once all
	 * its events were: durable -- unless other nodes write the store
	 * with sync = full: their last commits may wait for their flush
	 * (they commit without waiting for the WAL). Then nothing is shown
	 * before this node's next flush, which covers every commit before
	 * it (game_registry_lookup asks for one). At start-up the node
	 * channel is not open yet (cluster_alone) and the games read count
	 * as durable: the rebuild flushes once before serving them
	 * (game_service_new). */
	if (cluster_alone(gs->srv->cluster) || !store_syncs(gs->srv->store)) {
		lg->durable_seq = lg->view.seq;
		lg->seen_durable = lg->seen;
	}
	return lg;
}

static struct live_game *live_find(struct game_service *gs, const char *id)
{
	for (struct live_game *lg = gs->bucket[bucket_of(id)]; lg; lg = lg->next) {
		if (!strcmp(lg->id, id))
			return lg;
	}
	return NULL;
}

/* The first step of both lookups: true with *lg the game in memory (its
 * use noted), or NULL with out filled for an id that cannot be one; false
 * when the game must come from the store. */
static bool registry_hit(struct game_service *gs, const char *id, struct game_outcome *out, struct live_game **lg)
{
	if (!protocol_game_id_valid(id)) {
		game_fail(out, PROTOCOL_ERR_NOT_FOUND, "no such game");
		*lg = NULL;
		return true;
	}
	if ((*lg = live_find(gs, id)))
		(*lg)->used_ms = now_wall_ms();
	return *lg != NULL;
}

/* The game from memory, or rebuilt from the store by replaying its events;
 * NULL after filling out (404 or 500). */
struct live_game *game_registry_lookup(struct game_service *gs, const char *id, struct game_outcome *out)
{
	struct live_game *lg;
	if (registry_hit(gs, id, out, &lg))
		return lg;
	if (!(lg = replay_new(gs, id, out)))
		return NULL;
	/* Back from eviction: memory's part as it was when it left. */
	struct evicted_game **link = game_registry_evicted_link(gs, id);
	if (*link) {
		for (int c = WHITE; c <= BLACK; c++) {
			lg->last_seen[c] = (*link)->last_seen[c];
			lg->invalid[c] = (*link)->invalid[c];
		}
		game_registry_evicted_drop(gs, link);
		log_debug("game %s: back in memory (seq %lld)", lg->id, (long long)lg->view.seq);
	}
	game_registry_insert(gs, lg);
	if (lg->durable_seq < lg->view.seq)
		game_txn_publish(gs, lg);
	return lg;
}

struct live_game *game_registry_read(struct game_service *gs, const char *id, struct game_outcome *out)
{
	/* With other nodes on the store a replay kept aside would fall
	 * behind what they append, and no message would reach it: the game
	 * comes into memory, where their messages keep it current
	 * (cluster.h; the cache is emptied when the nodes alive change). */
	if (store_shared(gs->srv->store) && !cluster_alone(gs->srv->cluster))
		return game_registry_lookup(gs, id, out);
	struct live_game *lg;
	if (registry_hit(gs, id, out, &lg))
		return lg;
	for (size_t i = 0; i < gs->n_cold; i++) {
		if (!strcmp(gs->cold[i]->id, id)) {
			/* The most recently read last. */
			lg = gs->cold[i];
			memmove(&gs->cold[i], &gs->cold[i + 1], (gs->n_cold - i - 1) * sizeof *gs->cold);
			gs->cold[gs->n_cold - 1] = lg;
			return lg;
		}
	}
	if (!(lg = replay_new(gs, id, out)))
		return NULL;
	size_t max = (size_t)gs->srv->cfg.cold_games;
	if (!gs->cold)
		gs->cold = xcalloc(max, sizeof *gs->cold);
	if (gs->n_cold == max) {
		game_registry_live_free(gs->cold[0]);
		memmove(&gs->cold[0], &gs->cold[1], (max - 1) * sizeof *gs->cold);
		gs->n_cold--;
	}
	gs->cold[gs->n_cold++] = lg;
	return lg;
}

void game_registry_cold_clear(struct game_service *gs)
{
	for (size_t i = 0; i < gs->n_cold; i++)
		game_registry_live_free(gs->cold[i]);
	gs->n_cold = 0;
}

bool game_registry_known(struct game_service *gs, const char *id, int64_t player)
{
	if (live_find(gs, id))
		return true;
	const struct evicted_game *e = *game_registry_evicted_link(gs, id);
	return e && player && (e->players[WHITE] == player || e->players[BLACK] == player);
}

struct live_game *game_registry_find(struct game_service *gs, const char *id)
{
	for (struct live_game *lg = gs->bucket[bucket_of(id)]; lg; lg = lg->next) {
		if (!strcmp(lg->id, id))
			return lg;
	}
	return NULL;
}

bool game_service_erased(const struct game_service *gs, const char *id)
{
	unsigned n = gs->n_tombstones < GS_TOMBSTONES ? gs->n_tombstones : GS_TOMBSTONES;
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(gs->tombstones[i], id))
			return true;
	}
	return false;
}

/* Erases an aborted game: its row, its events and its memory. Parked polls
 * are woken to learn it is gone (410). */
void game_registry_erase(struct game_service *gs, struct live_game *lg)
{
	struct store *st = gs->srv->store;
	/* Not found: another node erased it first. */
	enum store_result r = store_begin(st);
	if (r == STORE_OK && (r = store_game_delete(st, lg->id)) == STORE_OK)
		r = store_commit(st);
	if (r != STORE_OK && r != STORE_NOT_FOUND) {
		store_rollback(st);
		log_error("game %s: cannot erase the aborted game", lg->id);
		return;
	}
	if (r == STORE_NOT_FOUND)
		store_rollback(st);
	log_info("game %s: aborted, erased", lg->id);
	cluster_tell_erased(gs->srv->cluster, lg->id);
	game_registry_forget_erased(gs, lg);
}

void game_registry_forget_erased(struct game_service *gs, struct live_game *lg)
{
	snprintf(gs->tombstones[gs->n_tombstones++ % GS_TOMBSTONES], STORE_GAME_ID_MAX + 1, "%s", lg->id);
	game_registry_unlink(gs, lg);
	char id[STORE_GAME_ID_MAX + 1];
	snprintf(id, sizeof id, "%s", lg->id);
	game_txn_forget(gs, lg);
	game_registry_live_free(lg);
	game_txn_wake(gs, id);
}

/* Whether lg may leave memory now, idle time aside: nothing but the store
 * would be lost, and nobody waits on it. */
bool game_registry_evictable(struct game_service *gs, const struct live_game *lg)
{
	return !gs->batch && !lg->ask && !lg->clock_held && lg->parked[WHITE] == 0 && lg->parked[BLACK] == 0 && !lg->dirty &&
	       !lg->in_flight && lg->durable_seq == lg->view.seq && lg->view.created &&
	       !(gs->polls.watched && gs->polls.watched(gs->polls.ctx, lg->id));
}

/* Drops lg from memory, leaving its record -- but none for a finished game
 * with no deadline left (no rematch offer to lapse, no erasure due):
 * nothing of it then lives in memory only, and a long-running server must
 * not keep a record per game it ever served. */
void game_registry_evict(struct game_service *gs, struct live_game *lg)
{
	const struct game_view *v = &lg->view;
	int64_t due = game_timer_deadline(gs, lg);
	if (game_is_over(&v->game) && due == INT64_MAX) {
		log_debug("game %s: finished, out of memory at seq %lld", lg->id, (long long)v->seq);
		game_registry_unlink(gs, lg);
		game_registry_live_free(lg);
		return;
	}
	struct evicted_game *e = xcalloc(1, sizeof *e);
	snprintf(e->id, sizeof e->id, "%s", lg->id);
	e->unfinished = !game_is_over(&v->game);
	e->engine = v->seats[WHITE].kind == FOLD_SEAT_ENGINE || v->seats[BLACK].kind == FOLD_SEAT_ENGINE;
	for (int c = WHITE; c <= BLACK; c++) {
		e->players[c] = v->seats[c].kind == FOLD_SEAT_HUMAN ? v->seats[c].player : 0;
		e->last_seen[c] = lg->last_seen[c];
		e->invalid[c] = lg->invalid[c];
	}
	e->seq = v->seq;
	game_registry_unlink(gs, lg);
	game_timer_set(&gs->timer_evicted, &e->timer, due);
	struct evicted_game **link = game_registry_evicted_link(gs, e->id);
	e->next = *link;
	*link = e;
	gs->n_evicted++;
	log_debug("game %s: evicted at seq %lld, idle", e->id, (long long)v->seq);
	game_registry_live_free(lg);
}

/* When the timer must look at lg next to evict it (INT64_MAX: never). A
 * game idle long enough but kept (watched, or not yet durable) is looked
 * at again an idle time later: what keeps it may end without a word to
 * the timer (a spectator's poll coming back). */
int64_t game_registry_evict_due(struct game_service *gs, struct live_game *lg, int64_t now)
{
	int64_t idle = gs->srv->cfg.evict_idle_ms;
	if (idle <= 0)
		return INT64_MAX;
	int64_t at = evict_at(gs, lg);
	return at > now ? at : game_registry_evictable(gs, lg) ? now : now + idle;
}

/* Brings back the evicted games whose deadline has come (the timer then
 * acts on them as on any live game). */
void game_registry_revive_due(struct game_service *gs, int64_t now)
{
	struct dheap_node *top;
	while ((top = dheap_top(&gs->timer_evicted)) && top->key <= now) {
		char id[STORE_GAME_ID_MAX + 1];
		snprintf(id, sizeof id, "%s", EVICTED_OF(top)->id);
		struct game_outcome o = { 0 };
		if (!game_registry_lookup(gs, id, &o))
			log_error("game %s: cannot bring it back for its deadline: %s", id, o.err.message);
		game_outcome_fini(&o);
		/* A store that cannot read now: try again in a second, not in
		 * a loop. */
		struct evicted_game *still = *game_registry_evicted_link(gs, id);
		if (still && dheap_contains(&still->timer) && still->timer.key <= now)
			dheap_set(&gs->timer_evicted, &still->timer, now + 1000);
	}
}

bool game_registry_evicted_here(struct game_service *gs, const char *id, int64_t *seq)
{
	const struct evicted_game *e = *game_registry_evicted_link(gs, id);
	if (e && seq)
		*seq = e->seq;
	return e != NULL;
}

struct moved {
	struct game_service *gs;
	struct id_list l;
};

static int collect_moved(void *arg, const struct store_game *g)
{
	struct moved *m = arg;
	const struct evicted_game *e = *game_registry_evicted_link(m->gs, g->id);
	if (e && g->last_seq > e->seq && cluster_owns(m->gs->srv->cluster, g->id)) {
		m->l.ids = xrealloc(m->l.ids, (m->l.n + 1) * sizeof *m->l.ids);
		snprintf(m->l.ids[m->l.n++], sizeof m->l.ids[0], "%s", g->id);
	}
	return 0;
}

size_t game_registry_revive_moved(struct game_service *gs)
{
	struct moved m = { .gs = gs };
	size_t back = 0;
	if (!gs->n_evicted)
		return 0;
	if (store_games_unfinished(gs->srv->store, collect_moved, &m))
		log_error("cluster: cannot read the unfinished games to check the evicted ones");
	for (size_t i = 0; i < m.l.n; i++) {
		struct game_outcome o = { 0 };
		struct live_game *lg = game_registry_lookup(gs, m.l.ids[i], &o);
		if (lg) {
			back++;
			game_timer_poke(gs, lg);
			game_engine_sync(gs, lg);
		}
		game_outcome_fini(&o);
	}
	free(m.l.ids);
	return back;
}

/* Brings back player's evicted unfinished games, for what goes through
 * every game of a player (their list, their vacations). */
void game_registry_revive_player(struct game_service *gs, int64_t player)
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
		if (!game_registry_lookup(gs, l.ids[i], &o))
			log_error("game %s: cannot bring it back: %s", l.ids[i], o.err.message);
		game_outcome_fini(&o);
	}
	free(l.ids);
}

void game_registry_deadline_by(struct game_service *gs, int64_t player, int64_t at_ms)
{
	for (unsigned b = 0; b < GS_BUCKETS && player; b++) {
		for (struct evicted_game *e = gs->evicted[b]; e; e = e->next) {
			if (e->unfinished && (e->players[WHITE] == player || e->players[BLACK] == player) &&
			    dheap_contains(&e->timer) && e->timer.key > at_ms)
				dheap_set(&gs->timer_evicted, &e->timer, at_ms);
		}
	}
}

void game_service_counts(struct game_service *gs, size_t *live, size_t *evicted)
{
	*live = gs->n_live;
	*evicted = gs->n_evicted;
}

void game_service_each(struct game_service *gs, int64_t player, game_service_each_fn fn, void *arg)
{
	game_registry_revive_player(gs, player);
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			if (fold_seat_of(&lg->view, player) >= 0 && fn(arg, lg->id, &lg->view))
				return;
		}
	}
}

void game_registry_fini(struct game_service *gs)
{
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		while (gs->bucket[b]) {
			struct live_game *lg = gs->bucket[b];
			gs->bucket[b] = lg->next;
			game_registry_live_free(lg);
		}
		while (gs->evicted[b])
			game_registry_evicted_drop(gs, &gs->evicted[b]);
	}
	for (size_t i = 0; i < gs->n_cold; i++)
		game_registry_live_free(gs->cold[i]);
	free(gs->cold);
}
