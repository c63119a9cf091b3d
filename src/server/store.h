/*
 * The store: everything tchessd keeps across restarts, behind one interface
 * with two implementations: SQLite (store-sqlite.c, the embedded default,
 * the only file that includes sqlite3.h) and PostgreSQL (store-pg.c,
 * store-pg-games.c, store-pg-tournaments.c and its node channel
 * store-pg-channel.c, the only ones that include libpq-fe.h), picked by
 * store_open from its target (store.c).
 *
 * A game is a row plus its append-only event log, numbered 1, 2, 3... per
 * game. Every command runs in one transaction (store_begin, then the
 * changes, then store_commit or store_rollback) and is acknowledged to the
 * client only after store_commit returned STORE_OK.
 *
 * A store is not thread-safe: its caller serialises all use (tchessd holds
 * its server lock around every call), except store_sync, which may run on
 * another thread at the same time as any other call.
 *
 * Durability: store_commit makes a transaction survive a crash of the
 * process (kill -9) at once. Surviving a power loss or an OS crash (or,
 * for PostgreSQL, a crash of the database server) needs store_sync, which
 * is separate so that one flush can cover a group of commits and run
 * outside the caller's lock (group commit, see server.h).
 */
#ifndef TCHESS_SERVER_STORE_H
#define TCHESS_SERVER_STORE_H

#include <stdbool.h>
#include <stdint.h>

#define STORE_NAME_MAX 64
#define STORE_GAME_ID_MAX 32
#define STORE_STATUS_MAX 16
#define STORE_TYPE_MAX 32
#define STORE_HASH_SIZE 32 /* SHA-256 of a token */
#define STORE_RESULT_MAX 7   /* "1/2-1/2" */
#define STORE_TC_MAX 128 /* a time control's text, with its NUL */
#define STORE_RULESET_MAX 32

enum store_result {
	STORE_OK = 0,
	STORE_NOT_FOUND, /* no such row */
	STORE_CONFLICT,  /* a uniqueness rule would break (name taken, seq taken) */
	STORE_ERROR,     /* anything else; already logged with the database's message */
};

struct store;

struct store_options {
	/* Keep what store_sync needs: the caller then acknowledges a command
	 * only after a store_sync begun after its commit returned, and it
	 * survives power loss, not only a crash of tchessd. Without it
	 * store_sync does nothing. */
	bool sync_full;
	/* Open the file read-only (an archive, or a disk that is): reads
	 * work, every write fails with STORE_ERROR and store_failure_transient
	 * says so. The schema must already be current. */
	bool read_only;
	/* PostgreSQL: this node's name, its row in tchess_nodes (NULL: the
	 * host name and process id). SQLite ignores it. */
	const char *node;
};

struct store_player {
	int64_t id;
	char name[STORE_NAME_MAX + 1];
	int64_t created_ms;
};

struct store_game {
	char id[STORE_GAME_ID_MAX + 1];
	int64_t created_ms;
	char status[STORE_STATUS_MAX + 1];
	int64_t white; /* player id, 0 when the seat is empty */
	int64_t black;
	bool finished;
	char *params;     /* JSON object text; owned by the struct when filled by the store */
	int64_t last_seq; /* filled by reads: the game's last event seq, 0 if none */
	/* A finished game's summary, for the list of a player's finished
	 * games (store_games_finished_of) without replaying them: written by
	 * the store_game_update that first sets finished, kept as it was by
	 * every later one; ignored while finished is false. Not filled by
	 * reads. */
	int64_t ended_ms;                          /* the game-ended event's instant */
	char result[STORE_RESULT_MAX + 1];         /* "1-0", "0-1", "1/2-1/2" */
	char termination[STORE_TYPE_MAX + 1];      /* "checkmate", "resignation" ... */
	int64_t plies;
	char tc[STORE_TC_MAX];
	char ruleset[STORE_RULESET_MAX];
	int white_level, black_level;              /* an engine seat's level; 0: a human's or none */
};

/* One of a player's finished games, as store_games_finished_of lists it;
 * the strings are valid only during the call. */
struct store_finished_game {
	const char *id;
	int64_t ended_ms;
	const char *result, *termination, *tc, *ruleset;
	int64_t plies;
	int64_t white, black;               /* player ids, 0 for an engine seat */
	const char *white_name, *black_name; /* "" for an engine seat */
	int white_level, black_level;       /* engine seats' levels, else 0 */
};
typedef int (*store_finished_fn)(void *arg, const struct store_finished_game *g);

struct store_event {
	const char *game_id;
	int64_t seq;
	const char *type;
	const char *payload;  /* JSON object text */
	int64_t visible_to;   /* 0: everyone; else only this player */
	int64_t created_ms;   /* wall clock at commit, ms since the epoch */
};

/* Called for each row; returning nonzero stops the walk (and the walk then
 * returns STORE_OK). The pointers are valid only during the call. */
typedef int (*store_event_fn)(void *arg, const struct store_event *ev);
typedef int (*store_game_fn)(void *arg, const struct store_game *g);

/* Whether target names a PostgreSQL database: a libpq connection URI
 * (postgresql://... or postgres://...). */
bool store_is_postgresql(const char *target);
/* Opens the store target names: a PostgreSQL database (store_is_postgresql;
 * it must exist) or else the SQLite file at that path (created if needed,
 * in WAL mode); creates or migrates its schema. Returns NULL with *errmsg
 * set (the caller frees it) on failure. */
struct store *store_open(const char *target, const struct store_options *opts, char **errmsg);
/* store_close(NULL) is a no-op. */
void store_close(struct store *st);

/* An online copy of the whole database (players, games, events,
 * tournaments) into a new file, for backups: no other process can open a
 * SQLite database while tchessd holds it. (A PostgreSQL store refuses:
 * pg_dump and pg_basebackup copy a live PostgreSQL database.) Begun, then stepped some pages at a
 * time, each step with no transaction open (under the server lock,
 * between commands; commands may run between steps and the copy includes
 * what they commit), then finished. */
struct store_backup;
/* Creates path (it must not exist); NULL with err on failure. A
 * PostgreSQL store always refuses (path may then be NULL). */
struct store_backup *store_backup_begin(struct store *st, const char *path, char *err, size_t errsize);
/* Copies up to pages more pages: 1 if more remain, 0 when the copy is
 * complete, -1 on failure (err). */
int store_backup_step(struct store_backup *b, int pages, char *err, size_t errsize);
/* Closes the copy; after a complete one (done), flushes it to disk.
 * Returns 0, or -1 with err (then the file is incomplete: remove it). */
int store_backup_finish(struct store_backup *b, bool done, char *err, size_t errsize);
/* The schema version this build creates for st's kind of database (and
 * the open database now has). */
int store_schema_version(const struct store *st);
/* "sqlite" or "postgresql". */
const char *store_kind(const struct store *st);

enum store_result store_begin(struct store *st);
enum store_result store_commit(struct store *st);
/* Safe to call when no transaction is open. */
void store_rollback(struct store *st);
/* Whether the last STORE_ERROR came from a condition outside tchessd that
 * may pass (disk full, database read-only, I/O error, a lock held by
 * another process) rather than from a bug or a corrupt file. Cleared by
 * store_begin. */
bool store_failure_transient(const struct store *st);
/* Whether the transaction (open, or just failed) lost the race for an
 * append's seq when the append's answer came only with a later call: a
 * store may send an append with the next statement that must be answered
 * or with the commit (PostgreSQL: one round trip for a move), and that
 * call then fails (store_commit with STORE_CONFLICT, nothing committed).
 * The caller's view is stale, as after STORE_CONFLICT from the append
 * itself. Cleared by store_begin. */
bool store_race_lost(const struct store *st);
/* How many times the caller has waited for a database server since
 * store_open (PostgreSQL: round trips on the command connection, which
 * the server lock is held across); 0 for SQLite, which runs in-process.
 * For the request log. */
uint64_t store_round_trips(const struct store *st);
/* Successful commits since store_open: a commit's number is the count
 * right after its store_commit returned. */
uint64_t store_commits(const struct store *st);
/* Whether store_sync does anything (the store was opened with sync_full). */
bool store_syncs(const struct store *st);
/* Flushes every commit that returned before the call to stable storage
 * (SQLite: fdatasync of the WAL; PostgreSQL: one synchronous commit on a
 * connection of its own, which flushes the server's WAL up to it and so
 * every asynchronous commit before it). Thread-safe against every other store call, so
 * it runs without the caller's lock. Returns 0, or -1 with errno. */
int store_sync(struct store *st);

/* Inserts a player; STORE_CONFLICT if the name is taken (ignoring ASCII case)
 * or the token hash already exists. */
enum store_result store_player_create(struct store *st, const char *name, const uint8_t hash[STORE_HASH_SIZE],
				      int64_t created_ms, int64_t *id_out);
/* The player whose token hashes to hash. */
enum store_result store_player_by_token_hash(struct store *st, const uint8_t hash[STORE_HASH_SIZE],
					     struct store_player *out);
enum store_result store_player_by_id(struct store *st, int64_t id, struct store_player *out);
/* Gives player id the token that hashes to hash (STORE_NOT_FOUND if there
 * is no such player, STORE_CONFLICT if another player has it); the old
 * token is unknown from then on. */
enum store_result store_player_set_token_hash(struct store *st, int64_t id, const uint8_t hash[STORE_HASH_SIZE]);

/* Inserts g (params NULL means "{}"); STORE_CONFLICT if the id exists. */
enum store_result store_game_create(struct store *st, const struct store_game *g);
/* Fills out; the caller releases it with store_game_fini. */
enum store_result store_game_get(struct store *st, const char *id, struct store_game *out);
/* Writes g's status, seats and finished flag (not params). */
enum store_result store_game_update(struct store *st, const struct store_game *g);
/* Erases a game and its events (aborted games leave no trace). */
enum store_result store_game_delete(struct store *st, const char *id);
void store_game_fini(struct store_game *g);

/* Appends an event at seq, which must be the game's next (its last seq +
 * 1): the seq the caller's fold expects. STORE_CONFLICT if it is not
 * (another writer appended first: the caller's view of the game is stale)
 * or there is no such game -- in a transaction possibly only from a later
 * call, the commit at the latest (store_race_lost). */
enum store_result store_event_append(struct store *st, const char *game_id, int64_t seq, const char *type,
				     const char *payload, int64_t visible_to, int64_t created_ms);
/* The game's last seq (0 if it has no events). */
enum store_result store_game_last_seq(struct store *st, const char *game_id, int64_t *seq_out);
/* Every event, private ones included: the game service's replay. */
#define STORE_VIEWER_ALL (-1)
/* Calls fn for each event of the game with seq > after that viewer may see
 * (public ones, and viewer's own private ones; viewer 0 sees public only,
 * STORE_VIEWER_ALL sees everything),
 * in seq order, at most limit of them (0: no limit). */
enum store_result store_events_after(struct store *st, const char *game_id, int64_t after, int64_t viewer,
				     int limit, store_event_fn fn, void *arg);
/* One game's events after seq after, up to seq upto: store_events_ranges. */
struct store_range {
	const char *game_id;
	int64_t after, upto;
};
/* Calls fn for every event of every range (all of them, private ones
 * included), range by range in the order given, each in seq order; an
 * event's game_id is its range's game_id pointer itself, so the caller
 * can tell the ranges apart. On PostgreSQL one round trip for them all
 * (another node's message names many games, game-remote.c); elsewhere one
 * store_events_after each. */
enum store_result store_events_ranges(struct store *st, const struct store_range *ranges, size_t n, store_event_fn fn,
				      void *arg);
/* Calls fn for every game not finished, oldest first (to rebuild them on start). */
enum store_result store_games_unfinished(struct store *st, store_game_fn fn, void *arg);
/* Calls fn for the most recent games, newest first, at most limit. In a
 * listing, a game's last_seq is how many of its events viewer (0: anyone)
 * may see: viewer's number of its last one (issue 12 item 16). */
enum store_result store_games_recent(struct store *st, int limit, int64_t viewer, store_game_fn fn, void *arg);
/* Calls fn for the games whose id starts with prefix (id characters
 * only), in id order, at most limit; last_seq as above. */
enum store_result store_games_prefix(struct store *st, const char *prefix, int limit, int64_t viewer, store_game_fn fn,
				     void *arg);
/* Calls fn for player's finished games (those whose summary was written,
 * store_game), newest first by (ended_ms, id), starting after the cursor:
 * only those that sort before (before_ms, before_id) (INT64_MAX and "" for
 * the newest), at most limit (1 or more). Each seat has an index
 * (games_ended_white, games_ended_black): a page reads limit rows of each,
 * whatever the player's history. */
enum store_result store_games_finished_of(struct store *st, int64_t player, int64_t before_ms, const char *before_id,
					  int limit, store_finished_fn fn, void *arg);
/* How many of player's games wait for an opponent (status "open", not
 * finished). In a transaction on PostgreSQL it first takes a lock of the
 * player's, held until the transaction ends, so two nodes creating games
 * for one player take turns: the second counts once the first has
 * committed its game (open_games_per_player holds across the nodes). */
enum store_result store_games_open_of(struct store *st, int64_t player, int64_t *n_out);

/* ---- several tchessd nodes on one database (PostgreSQL; tchessd(8),
 * CLUSTER) ---- */

/* Whether other tchessd nodes may write the same database (PostgreSQL,
 * not read-only): a game in memory may then be behind its log. */
bool store_shared(const struct store *st);
/* This node's name (store_options.node, or host:pid); "" for SQLite. */
const char *store_node(const struct store *st);
/* How many nodes have their channel open (store_channel_open) right now,
 * this one's included once it has: 0 for SQLite. A node killed leaves
 * the count at once. STORE_OK or STORE_ERROR. */
enum store_result store_nodes_alive(struct store *st, int *n_out);

/* Limits that hold across the nodes (tchessd(8), CLUSTER), kept in the
 * database; SQLite has none (STORE_ERROR: one node keeps them in memory,
 * ratelimit.h and game-presence.c).
 *
 * Takes one token of the bucket (kind, key): burst tokens, refilled at
 * tokens per period_ms by PostgreSQL's clock, one row for every node.
 * *wait_ms is 0 if the request may pass, else the ms (at least 1) until
 * a token is back. */
enum store_result store_bucket_take(struct store *st, const char *kind, const char *key, int64_t tokens,
				    int64_t period_ms, int64_t burst, int64_t *wait_ms);
/* Counts one more of a seat's run (kind, e.g. "invalid") in game_id:
 * the run goes on while mark is the one the last count gave, and starts
 * again at 1 when it differs. *n_out is the run's length with this one. */
enum store_result store_seat_count(struct store *st, const char *game_id, int color, const char *kind, int64_t mark,
				   int64_t *n_out);
/* Ends the seat's run of kind. */
enum store_result store_seat_count_reset(struct store *st, const char *game_id, int color, const char *kind);

/* A channel between the nodes: a connection of its own (never in a
 * transaction, never pooled) on which every node's messages arrive,
 * PostgreSQL's LISTEN/NOTIFY. One thread uses it; it is independent of
 * the store's lock. SQLite has none (store_channel_open returns NULL with
 * *errmsg). */
struct store_channel;
typedef void (*store_message_fn)(void *arg, const char *text);
struct store_channel *store_channel_open(struct store *st, char **errmsg);
void store_channel_close(struct store_channel *ch);
/* The longest message text. */
#define STORE_CHANNEL_MAX 7900
/* Sends text (at most STORE_CHANNEL_MAX bytes) to every node's channel,
 * this one's too, committed without waiting for a WAL flush. 0, or -1 (the channel is reopened by the next
 * wait). */
int store_channel_send(struct store_channel *ch, const char *text);
/* The longest node name (store_options.node; config.c allows 63). */
#define STORE_NODE_MAX 127
/* Writes this node's heartbeat and lists the nodes alive now, in name
 * order, this one among them: those whose channel connection PostgreSQL
 * still holds and whose heartbeat is younger than ttl_ms (a node killed
 * leaves at once, a frozen one after ttl_ms). Returns how many (at most
 * max), or -1 (the channel is reopened by the next wait). */
int store_channel_members(struct store_channel *ch, int64_t ttl_ms, char (*names)[STORE_NODE_MAX + 1], int max);
/* Waits up to timeout_ms for messages (fn is called for each, in the
 * order sent) or for wake_fd (-1: none) to become readable. Returns 0; 1
 * when the channel was opened again, so messages may have been missed
 * meanwhile (the caller re-reads what it watches); -1 when it is broken
 * and could not be reopened (tried again on the next call). */
int store_channel_wait(struct store_channel *ch, int wake_fd, int timeout_ms, store_message_fn fn, void *arg);

#endif
