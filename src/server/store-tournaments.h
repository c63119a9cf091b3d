/*
 * The store's part for tournaments, credits and vacations (schema version
 * 2), beside store.h and under the same rules: the caller serialises all
 * use and wraps each command in store_begin/store_commit.
 *
 * Credits are virtual, never money. Every player starts with
 * STORE_CREDITS_START (the column default, so players registered before
 * this schema get them too); every change is written to a ledger with its
 * reason, so a balance can always be explained.
 */
#ifndef TCHESS_SERVER_STORE_TOURNAMENTS_H
#define TCHESS_SERVER_STORE_TOURNAMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tchess/clock.h"
#include "tchess/tournament.h"

#define STORE_CREDITS_START 1000

/* The migration that creates all of it, for store-sqlite.c's list. */
#define STORE_TOURNAMENTS_MIGRATION                                                                           \
	"ALTER TABLE players ADD COLUMN credits INTEGER NOT NULL DEFAULT 1000;"                                \
	"CREATE TABLE credit_log ("                                                                            \
	"  id INTEGER PRIMARY KEY,"                                                                            \
	"  player INTEGER NOT NULL REFERENCES players(id),"                                                    \
	"  delta INTEGER NOT NULL,"                                                                            \
	"  reason TEXT NOT NULL,"                                                                              \
	"  tournament TEXT,"                                                                                   \
	"  at INTEGER NOT NULL);"                                                                              \
	"CREATE TABLE tournaments ("                                                                           \
	"  id TEXT PRIMARY KEY,"                                                                               \
	"  created INTEGER NOT NULL,"                                                                          \
	"  creator INTEGER NOT NULL REFERENCES players(id),"                                                   \
	"  kind INTEGER NOT NULL,"                                                                             \
	"  players INTEGER NOT NULL,"                                                                          \
	"  tc TEXT NOT NULL,"                                                                                  \
	"  ruleset TEXT NOT NULL,"                                                                             \
	"  stake INTEGER NOT NULL,"                                                                            \
	"  payout_percent INTEGER NOT NULL,"                                                                   \
	"  places TEXT NOT NULL,"                                                                              \
	"  status TEXT NOT NULL,"                                                                              \
	"  seed INTEGER NOT NULL DEFAULT 0,"                                                                   \
	"  started INTEGER NOT NULL DEFAULT 0,"                                                                \
	"  finished INTEGER NOT NULL DEFAULT 0);"                                                              \
	"CREATE INDEX tournaments_created ON tournaments(created);"                                             \
	"CREATE TABLE tournament_entries ("                                                                    \
	"  seq INTEGER PRIMARY KEY,"                                                                           \
	"  tournament TEXT NOT NULL REFERENCES tournaments(id),"                                               \
	"  player INTEGER NOT NULL REFERENCES players(id),"                                                    \
	"  registered INTEGER NOT NULL,"                                                                       \
	"  UNIQUE (tournament, player));"                                                                      \
	"CREATE TABLE tournament_games ("                                                                      \
	"  tournament TEXT NOT NULL REFERENCES tournaments(id),"                                               \
	"  idx INTEGER NOT NULL,"                                                                              \
	"  game_id TEXT NOT NULL UNIQUE,"                                                                      \
	"  outcome INTEGER NOT NULL DEFAULT 0,"                                                                \
	"  PRIMARY KEY (tournament, idx)) WITHOUT ROWID;"                                                      \
	"CREATE TABLE vacations ("                                                                             \
	"  id INTEGER PRIMARY KEY,"                                                                            \
	"  player INTEGER NOT NULL REFERENCES players(id),"                                                    \
	"  start_ms INTEGER NOT NULL,"                                                                         \
	"  end_ms INTEGER NOT NULL);"                                                                          \
	"CREATE INDEX vacations_player ON vacations(player, start_ms);"

struct store_tournament {
	char id[STORE_GAME_ID_MAX + 1];
	int64_t created_ms;
	int64_t creator;
	enum tournament_kind kind;
	int players;                      /* announced number of players */
	char tc[STORE_TC_MAX];
	char ruleset[STORE_RULESET_MAX];
	struct tournament_prizes prizes;
	char status[STORE_STATUS_MAX + 1]; /* "open", "running", "finished" */
	uint64_t seed;                    /* drawn at the start */
	int64_t started_ms;               /* 0 until it starts */
	int64_t finished_ms;              /* 0 until it ends */
	int registered;                   /* filled by reads: entries so far */
};

struct store_entry {
	int64_t player;
	char name[STORE_NAME_MAX + 1];
	int64_t registered_ms;
};

struct store_tournament_game {
	char game_id[STORE_GAME_ID_MAX + 1];
	enum tournament_outcome outcome;
};

struct store_vacation {
	int64_t id;
	struct vacation v;
};

typedef int (*store_tournament_fn)(void *arg, const struct store_tournament *t);

enum store_result store_tournament_create(struct store *st, const struct store_tournament *t);
/* Inside a transaction, PostgreSQL also locks the row until the commit:
 * changes of one tournament from several nodes (registrations, its games'
 * ends) take turns. SQLite has one writer already. */
enum store_result store_tournament_get(struct store *st, const char *id, struct store_tournament *out);
/* Writes status, seed, started and finished. */
enum store_result store_tournament_update(struct store *st, const struct store_tournament *t);
/* The most recent tournaments, newest first, at most limit. */
enum store_result store_tournaments_recent(struct store *st, int limit, store_tournament_fn fn, void *arg);

/* The entries in registration order into out (room for max); *n is how many. */
enum store_result store_entries(struct store *st, const char *tournament, struct store_entry *out, int max,
				int *n);
/* STORE_CONFLICT if player is registered already. */
enum store_result store_entry_add(struct store *st, const char *tournament, int64_t player, int64_t ms);
/* STORE_NOT_FOUND if player is not registered. */
enum store_result store_entry_remove(struct store *st, const char *tournament, int64_t player);

enum store_result store_tournament_game_add(struct store *st, const char *tournament, int idx, const char *game_id);
/* The games by index into out (room for max); *n is how many. */
enum store_result store_tournament_games(struct store *st, const char *tournament, struct store_tournament_game *out,
					 int max, int *n);
/* The tournament and index of game_id; STORE_NOT_FOUND for a game outside tournaments. */
enum store_result store_tournament_of_game(struct store *st, const char *game_id, char tournament[STORE_GAME_ID_MAX + 1],
					   int *idx);
enum store_result store_tournament_game_set_outcome(struct store *st, const char *tournament, int idx,
						    enum tournament_outcome outcome);

enum store_result store_credits_get(struct store *st, int64_t player, int64_t *out);
/* Adds delta (may be negative) to player's balance and logs it with reason. */
enum store_result store_credits_add(struct store *st, int64_t player, int64_t delta, const char *reason,
				    const char *tournament, int64_t ms);

/* player's bookings that end after from_ms, by start, into out (room for
 * max); *n is how many. */
enum store_result store_vacations(struct store *st, int64_t player, int64_t from_ms, struct store_vacation *out,
				  int max, int *n);
enum store_result store_vacation_add(struct store *st, int64_t player, const struct vacation *v, int64_t *id_out);
/* Fills *out with booking id of player; STORE_NOT_FOUND if there is none. */
enum store_result store_vacation_get(struct store *st, int64_t player, int64_t id, struct store_vacation *out);
enum store_result store_vacation_delete(struct store *st, int64_t player, int64_t id);

#endif
