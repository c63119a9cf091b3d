/*
 * The two implementations of store.h, for store.c, which picks one at
 * store_open and forwards every call to it: sqlite_store_* (store-sqlite.c,
 * store-tournaments.c, store-backup.c) and pg_store_* (store-pg.c,
 * store-pg-games.c, store-pg-tournaments.c and store-pg-channel.c, built
 * when libpq is found). Each function does what store.h and store-tournaments.h say of
 * the one without the prefix; and the few pieces both implementations
 * share. No database header here: only the store-*.c files include theirs
 * (and store-pg-internal.h, which only store-pg*.c include).
 */
#ifndef TCHESS_SERVER_STORE_BACKEND_H
#define TCHESS_SERVER_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store-tournaments.h"
#include "store.h"

struct sqlite_store;
struct pg_store;

/* The calls of store.h and store-tournaments.h that each implementation
 * provides, listed once: X(result, name, parameters after the store, their
 * names). They are declared below as sqlite_store_NAME and pg_store_NAME
 * (the store first), and store.c forwards store_NAME to one of them. The
 * calls without parameters are declared by hand. */
#define STORE_UNPAREN(...) __VA_ARGS__
#define STORE_CALLS(X)                                                                                                \
	X(struct store_backup *, backup_begin, (const char *path, char *err, size_t errsize), (path, err, errsize))   \
	X(enum store_result, player_create,                                                                           \
	  (const char *name, const uint8_t hash[STORE_HASH_SIZE], int64_t created_ms, int64_t *id_out),               \
	  (name, hash, created_ms, id_out))                                                                           \
	X(enum store_result, player_by_token_hash, (const uint8_t hash[STORE_HASH_SIZE], struct store_player *out),   \
	  (hash, out))                                                                                                \
	X(enum store_result, player_by_id, (int64_t id, struct store_player *out), (id, out))                         \
	X(enum store_result, player_set_token_hash, (int64_t id, const uint8_t hash[STORE_HASH_SIZE]), (id, hash))    \
	X(enum store_result, game_create, (const struct store_game *g), (g))                                          \
	X(enum store_result, game_get, (const char *id, struct store_game *out), (id, out))                           \
	X(enum store_result, game_update, (const struct store_game *g), (g))                                          \
	X(enum store_result, game_delete, (const char *id), (id))                                                     \
	X(enum store_result, event_append,                                                                            \
	  (const char *game_id, int64_t seq, const char *type, const char *payload, int64_t visible_to,               \
	   int64_t created_ms),                                                                                       \
	  (game_id, seq, type, payload, visible_to, created_ms))                                                      \
	X(enum store_result, game_last_seq, (const char *game_id, int64_t *seq_out), (game_id, seq_out))              \
	X(enum store_result, events_after,                                                                            \
	  (const char *game_id, int64_t after, int64_t viewer, int limit, store_event_fn fn, void *arg),              \
	  (game_id, after, viewer, limit, fn, arg))                                                                   \
	X(enum store_result, games_unfinished, (store_game_fn fn, void *arg), (fn, arg))                              \
	X(enum store_result, games_recent, (int limit, int64_t viewer, store_game_fn fn, void *arg),                  \
	  (limit, viewer, fn, arg))                                                                                   \
	X(enum store_result, games_prefix, (const char *prefix, int limit, int64_t viewer, store_game_fn fn, void *arg), \
	  (prefix, limit, viewer, fn, arg))                                                                           \
	X(enum store_result, games_open_of, (int64_t player, int64_t *n_out), (player, n_out))                        \
	X(enum store_result, games_finished_of,                                                                       \
	  (int64_t player, int64_t before_ms, const char *before_id, int limit, store_finished_fn fn, void *arg),      \
	  (player, before_ms, before_id, limit, fn, arg))                                                             \
	X(enum store_result, tournament_create, (const struct store_tournament *t), (t))                              \
	X(enum store_result, tournament_get, (const char *id, struct store_tournament *out), (id, out))               \
	X(enum store_result, tournament_update, (const struct store_tournament *t), (t))                              \
	X(enum store_result, tournaments_recent, (int limit, store_tournament_fn fn, void *arg), (limit, fn, arg))    \
	X(enum store_result, entries, (const char *tournament, struct store_entry *out, int max, int *n),             \
	  (tournament, out, max, n))                                                                                  \
	X(enum store_result, entry_add, (const char *tournament, int64_t player, int64_t ms),                         \
	  (tournament, player, ms))                                                                                   \
	X(enum store_result, entry_remove, (const char *tournament, int64_t player), (tournament, player))            \
	X(enum store_result, tournament_game_add, (const char *tournament, int idx, const char *game_id),             \
	  (tournament, idx, game_id))                                                                                 \
	X(enum store_result, tournament_games,                                                                        \
	  (const char *tournament, struct store_tournament_game *out, int max, int *n),                               \
	  (tournament, out, max, n))                                                                                  \
	X(enum store_result, tournament_of_game,                                                                      \
	  (const char *game_id, char tournament[STORE_GAME_ID_MAX + 1], int *idx),                                    \
	  (game_id, tournament, idx))                                                                                 \
	X(enum store_result, tournament_game_set_outcome,                                                             \
	  (const char *tournament, int idx, enum tournament_outcome outcome),                                         \
	  (tournament, idx, outcome))                                                                                 \
	X(enum store_result, credits_get, (int64_t player, int64_t *out), (player, out))                              \
	X(enum store_result, credits_add,                                                                             \
	  (int64_t player, int64_t delta, const char *reason, const char *tournament, int64_t ms),                    \
	  (player, delta, reason, tournament, ms))                                                                    \
	X(enum store_result, vacations,                                                                               \
	  (int64_t player, int64_t from_ms, struct store_vacation *out, int max, int *n),                             \
	  (player, from_ms, out, max, n))                                                                             \
	X(enum store_result, vacation_add, (int64_t player, const struct vacation *v, int64_t *id_out),               \
	  (player, v, id_out))                                                                                        \
	X(enum store_result, vacation_get, (int64_t player, int64_t id, struct store_vacation *out),                  \
	  (player, id, out))                                                                                          \
	X(enum store_result, vacation_delete, (int64_t player, int64_t id), (player, id))

/* The tournament columns both stores select, in the order their
 * tournament_row functions read them. */
#define STORE_TOURNAMENT_COLUMNS                                                                       \
	"id, created, creator, kind, players, tc, ruleset, stake, payout_percent, places, status, seed, " \
	"started, finished, (SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament = tournaments.id)"
/* A tournament's prize places as both stores keep them: "60,30,10"
 * (store.c). The text is cut short at size; parsing stops at the first
 * thing that is not a number, or at TOURNAMENT_PRIZE_PLACES_MAX places. */
void store_places_format(const struct tournament_prizes *p, char *buf, size_t size);
void store_places_parse(const char *s, struct tournament_prizes *p);

/* SQLite: target is a file path. */
struct sqlite_store *sqlite_store_open(const char *target, const struct store_options *opts, char **errmsg);
void sqlite_store_close(struct sqlite_store *st);
int sqlite_store_schema_version(void);
enum store_result sqlite_store_begin(struct sqlite_store *st);
enum store_result sqlite_store_commit(struct sqlite_store *st);
void sqlite_store_rollback(struct sqlite_store *st);
bool sqlite_store_failure_transient(const struct sqlite_store *st);
uint64_t sqlite_store_commits(const struct sqlite_store *st);
bool sqlite_store_syncs(const struct sqlite_store *st);
int sqlite_store_sync(struct sqlite_store *st);
#define STORE_DECLARE_SQLITE(ret, name, params, args) \
	ret sqlite_store_##name(struct sqlite_store *st, STORE_UNPAREN params);
STORE_CALLS(STORE_DECLARE_SQLITE)
#undef STORE_DECLARE_SQLITE

#ifdef TCHESS_POSTGRESQL
/* PostgreSQL: target is a libpq connection string (store_is_postgresql). */
struct pg_store *pg_store_open(const char *target, const struct store_options *opts, char **errmsg);
void pg_store_close(struct pg_store *st);
int pg_store_schema_version(void);
enum store_result pg_store_begin(struct pg_store *st);
enum store_result pg_store_commit(struct pg_store *st);
void pg_store_rollback(struct pg_store *st);
bool pg_store_failure_transient(const struct pg_store *st);
bool pg_store_race_lost(const struct pg_store *st);
uint64_t pg_store_round_trips(const struct pg_store *st);
uint64_t pg_store_commits(const struct pg_store *st);
bool pg_store_syncs(const struct pg_store *st);
int pg_store_sync(struct pg_store *st);
#define STORE_DECLARE_PG(ret, name, params, args) ret pg_store_##name(struct pg_store *st, STORE_UNPAREN params);
STORE_CALLS(STORE_DECLARE_PG)
#undef STORE_DECLARE_PG
/* PostgreSQL only: several nodes on one database (store.h). */
bool pg_store_shared(const struct pg_store *st);
const char *pg_store_node(const struct pg_store *st);
enum store_result pg_store_nodes_alive(struct pg_store *st, int *n_out);
enum store_result pg_store_bucket_take(struct pg_store *st, const char *kind, const char *key, int64_t tokens,
				       int64_t period_ms, int64_t burst, int64_t *wait_ms);
enum store_result pg_store_seat_count(struct pg_store *st, const char *game_id, int color, const char *kind,
				      int64_t mark, int64_t *n_out);
enum store_result pg_store_seat_count_reset(struct pg_store *st, const char *game_id, int color, const char *kind);
enum store_result pg_store_events_ranges(struct pg_store *st, const struct store_range *ranges, size_t n,
					 store_event_fn fn, void *arg);
/* The class of the shared advisory lock each node's channel holds
 * ("tchs"). */
#define PG_NODE_LOCK_CLASS "1952672883"
/* The class of the transaction's advisory lock on a player's open games
 * (store_games_open_of), keyed by the player's id. */
#define PG_OPEN_GAMES_LOCK_CLASS "1952672884"
/* The node channel (store-pg-channel.c), on a connection of its own to
 * the store's database. */
const char *pg_store_target(const struct pg_store *st);
struct store_channel *pg_store_channel_open(struct pg_store *st, char **errmsg);
void pg_store_channel_close(struct store_channel *ch);
int pg_store_channel_send(struct store_channel *ch, const char *text);
int pg_store_channel_members(struct store_channel *ch, int64_t ttl_ms, char (*names)[STORE_NODE_MAX + 1], int max);
int pg_store_channel_wait(struct store_channel *ch, int wake_fd, int timeout_ms, store_message_fn fn, void *arg);
#endif

#endif
