/*
 * The store's front (store.h): store_open picks the implementation from
 * the target it is given — a libpq connection URI selects PostgreSQL
 * (store-pg.c), anything else is a SQLite file (store-sqlite.c) — and
 * every other call is forwarded to the one picked. No SQL here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-backend.h"
#include "util/xalloc.h"

struct store {
	struct sqlite_store *sqlite;
	struct pg_store *pg; /* exactly one of the two is set */
};

#ifdef TCHESS_POSTGRESQL
#define BACKEND0(st, fn) ((st)->pg ? pg_store_##fn((st)->pg) : sqlite_store_##fn((st)->sqlite))
#define BACKEND(st, fn, ...)                                                                                           \
	((st)->pg ? pg_store_##fn((st)->pg, __VA_ARGS__) : sqlite_store_##fn((st)->sqlite, __VA_ARGS__))
#else
#define BACKEND0(st, fn) sqlite_store_##fn((st)->sqlite)
#define BACKEND(st, fn, ...) sqlite_store_##fn((st)->sqlite, __VA_ARGS__)
#endif

void store_places_format(const struct tournament_prizes *p, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < p->n_places && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "", p->place_percent[i]);
}

void store_places_parse(const char *s, struct tournament_prizes *p)
{
	p->n_places = 0;
	while (*s && p->n_places < TOURNAMENT_PRIZE_PLACES_MAX) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s)
			break;
		p->place_percent[p->n_places++] = (int)v;
		s = *end == ',' ? end + 1 : end;
	}
}

bool store_is_postgresql(const char *target)
{
	return !strncmp(target, "postgresql://", 13) || !strncmp(target, "postgres://", 11);
}

struct store *store_open(const char *target, const struct store_options *opts, char **errmsg)
{
	struct store *st = xcalloc(1, sizeof *st);
	if (store_is_postgresql(target)) {
#ifdef TCHESS_POSTGRESQL
		st->pg = pg_store_open(target, opts, errmsg);
#else
		*errmsg = xstrdup("this tchessd was built without PostgreSQL (libpq-dev missing at build time; "
				  "meson setup -Dpostgresql=enabled insists on it)");
#endif
	} else {
		st->sqlite = sqlite_store_open(target, opts, errmsg);
	}
	if (!st->sqlite && !st->pg) {
		free(st);
		return NULL;
	}
	return st;
}

void store_close(struct store *st)
{
	if (!st)
		return;
#ifdef TCHESS_POSTGRESQL
	pg_store_close(st->pg);
#endif
	if (st->sqlite)
		sqlite_store_close(st->sqlite);
	free(st);
}

int store_schema_version(const struct store *st)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_schema_version();
#endif
	return sqlite_store_schema_version();
}

const char *store_kind(const struct store *st)
{
	return st->pg ? "postgresql" : "sqlite";
}

bool store_failure_transient(const struct store *st)
{
	return BACKEND0(st, failure_transient);
}

bool store_race_lost(const struct store *st)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_race_lost(st->pg);
#endif
	return false; /* SQLite answers each append at once */
}

uint64_t store_round_trips(const struct store *st)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_round_trips(st->pg);
#endif
	return 0; /* SQLite runs in the process */
}

uint64_t store_commits(const struct store *st)
{
	return BACKEND0(st, commits);
}

bool store_syncs(const struct store *st)
{
	return BACKEND0(st, syncs);
}

void store_game_fini(struct store_game *g)
{
	free(g->params);
	g->params = NULL;
}

enum store_result store_begin(struct store *st)
{
	return BACKEND0(st, begin);
}

enum store_result store_commit(struct store *st)
{
	return BACKEND0(st, commit);
}

void store_rollback(struct store *st)
{
	BACKEND0(st, rollback);
}

int store_sync(struct store *st)
{
	return BACKEND0(st, sync);
}

/* Every call of STORE_CALLS, forwarded to the implementation picked. */
#define FORWARD(ret, name, params, args) \
	ret store_##name(struct store *st, STORE_UNPAREN params) \
	{ \
		return BACKEND(st, name, STORE_UNPAREN args); \
	}
STORE_CALLS(FORWARD)
#undef FORWARD

/* ---- several nodes (PostgreSQL only) ---- */

bool store_shared(const struct store *st)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_shared(st->pg);
#endif
	(void)st;
	return false;
}

const char *store_node(const struct store *st)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_node(st->pg);
#endif
	(void)st;
	return "";
}

enum store_result store_nodes_alive(struct store *st, int *n_out)
{
	*n_out = 0;
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_nodes_alive(st->pg, n_out);
#endif
	return STORE_OK;
}

enum store_result store_bucket_take(struct store *st, const char *kind, const char *key, int64_t tokens,
				    int64_t period_ms, int64_t burst, int64_t *wait_ms)
{
	*wait_ms = 0;
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_bucket_take(st->pg, kind, key, tokens, period_ms, burst, wait_ms);
#endif
	(void)st, (void)kind, (void)key, (void)tokens, (void)period_ms, (void)burst;
	return STORE_ERROR;
}

enum store_result store_seat_count(struct store *st, const char *game_id, int color, const char *kind, int64_t mark,
				   int64_t *n_out)
{
	*n_out = 0;
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_seat_count(st->pg, game_id, color, kind, mark, n_out);
#endif
	(void)st, (void)game_id, (void)color, (void)kind, (void)mark;
	return STORE_ERROR;
}

enum store_result store_seat_count_reset(struct store *st, const char *game_id, int color, const char *kind)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_seat_count_reset(st->pg, game_id, color, kind);
#endif
	(void)st, (void)game_id, (void)color, (void)kind;
	return STORE_ERROR;
}

struct range_call {
	const char *game_id;
	store_event_fn fn;
	void *arg;
	bool stopped;
};

static int range_event(void *arg, const struct store_event *ev)
{
	struct range_call *c = arg;
	struct store_event e = *ev;
	e.game_id = c->game_id;
	return (c->stopped = c->fn(c->arg, &e) != 0);
}

enum store_result store_events_ranges(struct store *st, const struct store_range *ranges, size_t n, store_event_fn fn,
				      void *arg)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_events_ranges(st->pg, ranges, n, fn, arg);
#endif
	for (size_t i = 0; i < n; i++) {
		if (ranges[i].upto <= ranges[i].after)
			continue;
		/* Each event carries the range's own id pointer. */
		struct range_call c = { .game_id = ranges[i].game_id, .fn = fn, .arg = arg };
		enum store_result r = store_events_after(st, ranges[i].game_id, ranges[i].after, STORE_VIEWER_ALL,
							 (int)(ranges[i].upto - ranges[i].after), range_event, &c);
		if (r != STORE_OK)
			return r;
		if (c.stopped)
			break;
	}
	return STORE_OK;
}

struct store_channel *store_channel_open(struct store *st, char **errmsg)
{
#ifdef TCHESS_POSTGRESQL
	if (st->pg)
		return pg_store_channel_open(st->pg, errmsg);
#endif
	(void)st;
	*errmsg = xstrdup("a SQLite store is served by one tchessd: it has no channel between nodes");
	return NULL;
}

void store_channel_close(struct store_channel *ch)
{
#ifdef TCHESS_POSTGRESQL
	pg_store_channel_close(ch);
#else
	(void)ch;
#endif
}

int store_channel_send(struct store_channel *ch, const char *text)
{
#ifdef TCHESS_POSTGRESQL
	return pg_store_channel_send(ch, text);
#else
	(void)ch;
	(void)text;
	return -1;
#endif
}

int store_channel_members(struct store_channel *ch, int64_t ttl_ms, char (*names)[STORE_NODE_MAX + 1], int max)
{
#ifdef TCHESS_POSTGRESQL
	return pg_store_channel_members(ch, ttl_ms, names, max);
#else
	(void)ch;
	(void)ttl_ms;
	(void)names;
	(void)max;
	return -1;
#endif
}

int store_channel_wait(struct store_channel *ch, int wake_fd, int timeout_ms, store_message_fn fn, void *arg)
{
#ifdef TCHESS_POSTGRESQL
	return pg_store_channel_wait(ch, wake_fd, timeout_ms, fn, arg);
#else
	(void)ch;
	(void)wake_fd;
	(void)timeout_ms;
	(void)fn;
	(void)arg;
	return -1;
#endif
}
