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

struct store_backup *store_backup_begin(struct store *st, const char *path, char *err, size_t errsize)
{
	return BACKEND(st, backup_begin, path, err, errsize);
}

bool store_failure_transient(const struct store *st)
{
	return BACKEND0(st, failure_transient);
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

enum store_result store_player_create(struct store *st, const char *name, const uint8_t hash[STORE_HASH_SIZE],
				      int64_t created_ms, int64_t *id_out)
{
	return BACKEND(st, player_create, name, hash, created_ms, id_out);
}

enum store_result store_player_by_token_hash(struct store *st, const uint8_t hash[STORE_HASH_SIZE],
					     struct store_player *out)
{
	return BACKEND(st, player_by_token_hash, hash, out);
}

enum store_result store_player_by_id(struct store *st, int64_t id, struct store_player *out)
{
	return BACKEND(st, player_by_id, id, out);
}

enum store_result store_player_set_token_hash(struct store *st, int64_t id, const uint8_t hash[STORE_HASH_SIZE])
{
	return BACKEND(st, player_set_token_hash, id, hash);
}

enum store_result store_game_create(struct store *st, const struct store_game *g)
{
	return BACKEND(st, game_create, g);
}

enum store_result store_game_get(struct store *st, const char *id, struct store_game *out)
{
	return BACKEND(st, game_get, id, out);
}

enum store_result store_game_update(struct store *st, const struct store_game *g)
{
	return BACKEND(st, game_update, g);
}

enum store_result store_game_delete(struct store *st, const char *id)
{
	return BACKEND(st, game_delete, id);
}

enum store_result store_event_append(struct store *st, const char *game_id, int64_t seq, const char *type,
				     const char *payload, int64_t visible_to, int64_t created_ms)
{
	return BACKEND(st, event_append, game_id, seq, type, payload, visible_to, created_ms);
}

enum store_result store_game_last_seq(struct store *st, const char *game_id, int64_t *seq_out)
{
	return BACKEND(st, game_last_seq, game_id, seq_out);
}

enum store_result store_events_after(struct store *st, const char *game_id, int64_t after, int64_t viewer, int limit,
				     store_event_fn fn, void *arg)
{
	return BACKEND(st, events_after, game_id, after, viewer, limit, fn, arg);
}

enum store_result store_games_unfinished(struct store *st, store_game_fn fn, void *arg)
{
	return BACKEND(st, games_unfinished, fn, arg);
}

enum store_result store_games_recent(struct store *st, int limit, store_game_fn fn, void *arg)
{
	return BACKEND(st, games_recent, limit, fn, arg);
}

enum store_result store_games_prefix(struct store *st, const char *prefix, int limit, store_game_fn fn, void *arg)
{
	return BACKEND(st, games_prefix, prefix, limit, fn, arg);
}

enum store_result store_tournament_create(struct store *st, const struct store_tournament *t)
{
	return BACKEND(st, tournament_create, t);
}

enum store_result store_tournament_get(struct store *st, const char *id, struct store_tournament *out)
{
	return BACKEND(st, tournament_get, id, out);
}

enum store_result store_tournament_update(struct store *st, const struct store_tournament *t)
{
	return BACKEND(st, tournament_update, t);
}

enum store_result store_tournaments_recent(struct store *st, int limit, store_tournament_fn fn, void *arg)
{
	return BACKEND(st, tournaments_recent, limit, fn, arg);
}

enum store_result store_entries(struct store *st, const char *tournament, struct store_entry *out, int max, int *n)
{
	return BACKEND(st, entries, tournament, out, max, n);
}

enum store_result store_entry_add(struct store *st, const char *tournament, int64_t player, int64_t ms)
{
	return BACKEND(st, entry_add, tournament, player, ms);
}

enum store_result store_entry_remove(struct store *st, const char *tournament, int64_t player)
{
	return BACKEND(st, entry_remove, tournament, player);
}

enum store_result store_tournament_game_add(struct store *st, const char *tournament, int idx, const char *game_id)
{
	return BACKEND(st, tournament_game_add, tournament, idx, game_id);
}

enum store_result store_tournament_games(struct store *st, const char *tournament, struct store_tournament_game *out,
					 int max, int *n)
{
	return BACKEND(st, tournament_games, tournament, out, max, n);
}

enum store_result store_tournament_of_game(struct store *st, const char *game_id,
					   char tournament[STORE_GAME_ID_MAX + 1], int *idx)
{
	return BACKEND(st, tournament_of_game, game_id, tournament, idx);
}

enum store_result store_tournament_game_set_outcome(struct store *st, const char *tournament, int idx,
						    enum tournament_outcome outcome)
{
	return BACKEND(st, tournament_game_set_outcome, tournament, idx, outcome);
}

enum store_result store_credits_get(struct store *st, int64_t player, int64_t *out)
{
	return BACKEND(st, credits_get, player, out);
}

enum store_result store_credits_add(struct store *st, int64_t player, int64_t delta, const char *reason,
				    const char *tournament, int64_t ms)
{
	return BACKEND(st, credits_add, player, delta, reason, tournament, ms);
}

enum store_result store_vacations(struct store *st, int64_t player, int64_t from_ms, struct store_vacation *out,
				  int max, int *n)
{
	return BACKEND(st, vacations, player, from_ms, out, max, n);
}

enum store_result store_vacation_add(struct store *st, int64_t player, const struct vacation *v, int64_t *id_out)
{
	return BACKEND(st, vacation_add, player, v, id_out);
}

enum store_result store_vacation_get(struct store *st, int64_t player, int64_t id, struct store_vacation *out)
{
	return BACKEND(st, vacation_get, player, id, out);
}

enum store_result store_vacation_delete(struct store *st, int64_t player, int64_t id)
{
	return BACKEND(st, vacation_delete, player, id);
}
