/*
 * The two implementations of store.h, for store.c, which picks one at
 * store_open and forwards every call to it: sqlite_store_* (store-sqlite.c,
 * store-tournaments.c, store-backup.c) and pg_store_* (store-pg.c, built
 * when libpq is found). Each function does what store.h and
 * store-tournaments.h say of the one without the prefix; and the few
 * pieces both implementations share. No database header here: only the
 * store-*.c files include theirs.
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
struct store_backup *sqlite_store_backup_begin(struct sqlite_store *st, const char *path, char *err, size_t errsize);
enum store_result sqlite_store_begin(struct sqlite_store *st);
enum store_result sqlite_store_commit(struct sqlite_store *st);
void sqlite_store_rollback(struct sqlite_store *st);
bool sqlite_store_failure_transient(const struct sqlite_store *st);
uint64_t sqlite_store_commits(const struct sqlite_store *st);
bool sqlite_store_syncs(const struct sqlite_store *st);
int sqlite_store_sync(struct sqlite_store *st);
enum store_result sqlite_store_player_create(struct sqlite_store *st, const char *name,
					     const uint8_t hash[STORE_HASH_SIZE], int64_t created_ms, int64_t *id_out);
enum store_result sqlite_store_player_by_token_hash(struct sqlite_store *st, const uint8_t hash[STORE_HASH_SIZE],
						    struct store_player *out);
enum store_result sqlite_store_player_by_id(struct sqlite_store *st, int64_t id, struct store_player *out);
enum store_result sqlite_store_player_set_token_hash(struct sqlite_store *st, int64_t id,
						     const uint8_t hash[STORE_HASH_SIZE]);
enum store_result sqlite_store_game_create(struct sqlite_store *st, const struct store_game *g);
enum store_result sqlite_store_game_get(struct sqlite_store *st, const char *id, struct store_game *out);
enum store_result sqlite_store_game_update(struct sqlite_store *st, const struct store_game *g);
enum store_result sqlite_store_game_delete(struct sqlite_store *st, const char *id);
enum store_result sqlite_store_event_append(struct sqlite_store *st, const char *game_id, int64_t seq, const char *type,
					    const char *payload, int64_t visible_to, int64_t created_ms);
enum store_result sqlite_store_game_last_seq(struct sqlite_store *st, const char *game_id, int64_t *seq_out);
enum store_result sqlite_store_events_after(struct sqlite_store *st, const char *game_id, int64_t after, int64_t viewer,
					    int limit, store_event_fn fn, void *arg);
enum store_result sqlite_store_games_unfinished(struct sqlite_store *st, store_game_fn fn, void *arg);
enum store_result sqlite_store_games_recent(struct sqlite_store *st, int limit, store_game_fn fn, void *arg);
enum store_result sqlite_store_games_prefix(struct sqlite_store *st, const char *prefix, int limit, store_game_fn fn,
					    void *arg);
enum store_result sqlite_store_tournament_create(struct sqlite_store *st, const struct store_tournament *t);
enum store_result sqlite_store_tournament_get(struct sqlite_store *st, const char *id, struct store_tournament *out);
enum store_result sqlite_store_tournament_update(struct sqlite_store *st, const struct store_tournament *t);
enum store_result sqlite_store_tournaments_recent(struct sqlite_store *st, int limit, store_tournament_fn fn,
						  void *arg);
enum store_result sqlite_store_entries(struct sqlite_store *st, const char *tournament, struct store_entry *out,
				       int max, int *n);
enum store_result sqlite_store_entry_add(struct sqlite_store *st, const char *tournament, int64_t player, int64_t ms);
enum store_result sqlite_store_entry_remove(struct sqlite_store *st, const char *tournament, int64_t player);
enum store_result sqlite_store_tournament_game_add(struct sqlite_store *st, const char *tournament, int idx,
						   const char *game_id);
enum store_result sqlite_store_tournament_games(struct sqlite_store *st, const char *tournament,
						struct store_tournament_game *out, int max, int *n);
enum store_result sqlite_store_tournament_of_game(struct sqlite_store *st, const char *game_id,
						  char tournament[STORE_GAME_ID_MAX + 1], int *idx);
enum store_result sqlite_store_tournament_game_set_outcome(struct sqlite_store *st, const char *tournament, int idx,
							   enum tournament_outcome outcome);
enum store_result sqlite_store_credits_get(struct sqlite_store *st, int64_t player, int64_t *out);
enum store_result sqlite_store_credits_add(struct sqlite_store *st, int64_t player, int64_t delta, const char *reason,
					   const char *tournament, int64_t ms);
enum store_result sqlite_store_vacations(struct sqlite_store *st, int64_t player, int64_t from_ms,
					 struct store_vacation *out, int max, int *n);
enum store_result sqlite_store_vacation_add(struct sqlite_store *st, int64_t player, const struct vacation *v,
					    int64_t *id_out);
enum store_result sqlite_store_vacation_get(struct sqlite_store *st, int64_t player, int64_t id,
					    struct store_vacation *out);
enum store_result sqlite_store_vacation_delete(struct sqlite_store *st, int64_t player, int64_t id);

#ifdef TCHESS_POSTGRESQL
/* PostgreSQL: target is a libpq connection string (store_is_postgresql). */
struct pg_store *pg_store_open(const char *target, const struct store_options *opts, char **errmsg);
void pg_store_close(struct pg_store *st);
int pg_store_schema_version(void);
struct store_backup *pg_store_backup_begin(struct pg_store *st, const char *path, char *err, size_t errsize);
enum store_result pg_store_begin(struct pg_store *st);
enum store_result pg_store_commit(struct pg_store *st);
void pg_store_rollback(struct pg_store *st);
bool pg_store_failure_transient(const struct pg_store *st);
uint64_t pg_store_commits(const struct pg_store *st);
bool pg_store_syncs(const struct pg_store *st);
int pg_store_sync(struct pg_store *st);
enum store_result pg_store_player_create(struct pg_store *st, const char *name, const uint8_t hash[STORE_HASH_SIZE],
					 int64_t created_ms, int64_t *id_out);
enum store_result pg_store_player_by_token_hash(struct pg_store *st, const uint8_t hash[STORE_HASH_SIZE],
						struct store_player *out);
enum store_result pg_store_player_by_id(struct pg_store *st, int64_t id, struct store_player *out);
enum store_result pg_store_player_set_token_hash(struct pg_store *st, int64_t id, const uint8_t hash[STORE_HASH_SIZE]);
enum store_result pg_store_game_create(struct pg_store *st, const struct store_game *g);
enum store_result pg_store_game_get(struct pg_store *st, const char *id, struct store_game *out);
enum store_result pg_store_game_update(struct pg_store *st, const struct store_game *g);
enum store_result pg_store_game_delete(struct pg_store *st, const char *id);
enum store_result pg_store_event_append(struct pg_store *st, const char *game_id, int64_t seq, const char *type,
					const char *payload, int64_t visible_to, int64_t created_ms);
enum store_result pg_store_game_last_seq(struct pg_store *st, const char *game_id, int64_t *seq_out);
enum store_result pg_store_events_after(struct pg_store *st, const char *game_id, int64_t after, int64_t viewer,
					int limit, store_event_fn fn, void *arg);
enum store_result pg_store_games_unfinished(struct pg_store *st, store_game_fn fn, void *arg);
enum store_result pg_store_games_recent(struct pg_store *st, int limit, store_game_fn fn, void *arg);
enum store_result pg_store_games_prefix(struct pg_store *st, const char *prefix, int limit, store_game_fn fn,
					void *arg);
enum store_result pg_store_tournament_create(struct pg_store *st, const struct store_tournament *t);
enum store_result pg_store_tournament_get(struct pg_store *st, const char *id, struct store_tournament *out);
enum store_result pg_store_tournament_update(struct pg_store *st, const struct store_tournament *t);
enum store_result pg_store_tournaments_recent(struct pg_store *st, int limit, store_tournament_fn fn, void *arg);
enum store_result pg_store_entries(struct pg_store *st, const char *tournament, struct store_entry *out, int max,
				   int *n);
enum store_result pg_store_entry_add(struct pg_store *st, const char *tournament, int64_t player, int64_t ms);
enum store_result pg_store_entry_remove(struct pg_store *st, const char *tournament, int64_t player);
enum store_result pg_store_tournament_game_add(struct pg_store *st, const char *tournament, int idx,
					       const char *game_id);
enum store_result pg_store_tournament_games(struct pg_store *st, const char *tournament,
					    struct store_tournament_game *out, int max, int *n);
enum store_result pg_store_tournament_of_game(struct pg_store *st, const char *game_id,
					      char tournament[STORE_GAME_ID_MAX + 1], int *idx);
enum store_result pg_store_tournament_game_set_outcome(struct pg_store *st, const char *tournament, int idx,
						       enum tournament_outcome outcome);
enum store_result pg_store_credits_get(struct pg_store *st, int64_t player, int64_t *out);
enum store_result pg_store_credits_add(struct pg_store *st, int64_t player, int64_t delta, const char *reason,
				       const char *tournament, int64_t ms);
enum store_result pg_store_vacations(struct pg_store *st, int64_t player, int64_t from_ms, struct store_vacation *out,
				     int max, int *n);
enum store_result pg_store_vacation_add(struct pg_store *st, int64_t player, const struct vacation *v, int64_t *id_out);
enum store_result pg_store_vacation_get(struct pg_store *st, int64_t player, int64_t id, struct store_vacation *out);
enum store_result pg_store_vacation_delete(struct pg_store *st, int64_t player, int64_t id);
#endif

#endif
