/*
 * The store on SQLite: one connection in WAL mode, every statement prepared
 * once at open and bound per call (no SQL is ever built from input). This is
 * the only file that includes sqlite3.h.
 *
 * Durability (store.h): SQLite runs with synchronous=NORMAL, so a commit is
 * written to the WAL file (it survives a crash of tchessd) but not fsynced.
 * With sync_full the store keeps its own descriptor of the WAL file and
 * store_sync fdatasyncs it: one flush covers every commit written before
 * it, which is what lets tchessd group many commits under one fsync and do
 * it outside the server lock. The WAL is append-only between checkpoints
 * and a checkpoint syncs the WAL itself before copying it (SQLite's NORMAL
 * rules), so a commit is durable once a store_sync begun after it returns.
 * The connection holds the database in locking_mode=EXCLUSIVE: one tchessd
 * owns the file, so SQLite keeps the WAL index in its own memory and takes
 * no file locks per transaction.
 *
 * The schema carries its version in schema_version; store_open applies the
 * migrations the file lacks, each in its own transaction, and refuses a file
 * written by a newer tchessd.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-sqlite.h"
#include "store-tournaments.h"
#include "util/log.h"
#include "util/token.h"
#include "util/xalloc.h"

/* Migration i brings the schema from version i to i + 1. */
static const char *const migrations[] = {
	"CREATE TABLE players ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
	"  token_hash BLOB NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL);"
	"CREATE TABLE games ("
	"  id TEXT PRIMARY KEY,"
	"  created INTEGER NOT NULL,"
	"  status TEXT NOT NULL,"
	"  white INTEGER REFERENCES players(id),"
	"  black INTEGER REFERENCES players(id),"
	"  finished INTEGER NOT NULL DEFAULT 0,"
	"  params TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX games_created ON games(created);"
	"CREATE INDEX games_unfinished ON games(finished, created);"
	"CREATE TABLE events ("
	"  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  type TEXT NOT NULL,"
	"  payload TEXT NOT NULL,"
	"  visible_to INTEGER REFERENCES players(id),"
	"  created_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (game_id, seq)) WITHOUT ROWID;",
	/* 2: credits, tournaments and vacations (store-tournaments.c). */
	STORE_TOURNAMENTS_MIGRATION,
	/* 3: a player's games waiting for an opponent, counted at every
	 * create (open_games_per_player), without a scan of every game:
	 * one small index per seat, of the open games only. */
	("CREATE INDEX games_open_white ON games(white) WHERE finished = 0 AND status = 'open';"
	 "CREATE INDEX games_open_black ON games(black) WHERE finished = 0 AND status = 'open';"),
	/* 4: a finished game's summary (store_game), and a player's finished
	 * games newest first from one index per seat. Games finished before
	 * it have no summary and are not listed. */
	("ALTER TABLE games ADD COLUMN ended INTEGER;"
	 "ALTER TABLE games ADD COLUMN result TEXT;"
	 "ALTER TABLE games ADD COLUMN termination TEXT;"
	 "ALTER TABLE games ADD COLUMN plies INTEGER;"
	 "ALTER TABLE games ADD COLUMN tc TEXT;"
	 "ALTER TABLE games ADD COLUMN ruleset TEXT;"
	 "ALTER TABLE games ADD COLUMN white_level INTEGER;"
	 "ALTER TABLE games ADD COLUMN black_level INTEGER;"
	 "CREATE INDEX games_ended_white ON games(white, ended, id) WHERE ended IS NOT NULL;"
	 "CREATE INDEX games_ended_black ON games(black, ended, id) WHERE ended IS NOT NULL;"),
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

#define GAME_COLUMNS \
	"id, created, status, white, black, finished, params, " \
	"(SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = games.id)"
/* A listing's: instead of the last seq, how many events the viewer
 * (parameter v, 0 for anyone) may see -- its number of the last one. */
#define LIST_COLUMNS(v) \
	"id, created, status, white, black, finished, params, " \
	"(SELECT COUNT(*) FROM events WHERE game_id = games.id AND (visible_to IS NULL OR visible_to = " v "))"

enum stmt {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_PLAYER_INSERT,
	S_PLAYER_BY_HASH,
	S_PLAYER_SET_HASH,
	S_PLAYER_BY_ID,
	S_GAME_INSERT,
	S_GAME_GET,
	S_GAME_UPDATE,
	S_GAME_DELETE,
	S_GAME_LAST_SEQ,
	S_EVENT_INSERT,
	S_EVENTS_AFTER,
	S_GAMES_UNFINISHED,
	S_GAMES_RECENT,
	S_GAMES_PREFIX,
	S_GAMES_OPEN_OF,
	S_GAMES_FINISHED_OF,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_PLAYER_INSERT] = "INSERT INTO players(name, token_hash, created) VALUES (?1, ?2, ?3)",
	[S_PLAYER_BY_HASH] = "SELECT id, name, created, token_hash FROM players WHERE token_hash = ?1",
	[S_PLAYER_BY_ID] = "SELECT id, name, created FROM players WHERE id = ?1",
	[S_PLAYER_SET_HASH] = "UPDATE players SET token_hash = ?2 WHERE id = ?1",
	[S_GAME_INSERT] = "INSERT INTO games(id, created, status, white, black, finished, params) "
			  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_GAME_GET] = "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1",
	/* The summary is bound NULL while the game is not finished, and
	 * written once: the first update that has one keeps it. */
	[S_GAME_UPDATE] = "UPDATE games SET status = ?2, white = ?3, black = ?4, finished = ?5, "
			  "ended = COALESCE(ended, ?6), result = COALESCE(result, ?7), "
			  "termination = COALESCE(termination, ?8), plies = COALESCE(plies, ?9), "
			  "tc = COALESCE(tc, ?10), ruleset = COALESCE(ruleset, ?11), "
			  "white_level = COALESCE(white_level, ?12), black_level = COALESCE(black_level, ?13) "
			  "WHERE id = ?1",
	[S_GAME_DELETE] = "DELETE FROM games WHERE id = ?1",
	[S_GAME_LAST_SEQ] = "SELECT COALESCE(MAX(seq), 0), (SELECT COUNT(*) FROM games WHERE id = ?1) "
			    "FROM events WHERE game_id = ?1",
	/* At the seq the caller expects, and only if it is the next one. */
	[S_EVENT_INSERT] = "INSERT INTO events(game_id, seq, type, payload, visible_to, created_ms) "
			   "SELECT ?1, ?6, ?2, ?3, ?4, ?5 "
			   "WHERE ?6 = (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?1)",
	[S_EVENTS_AFTER] = "SELECT seq, type, payload, visible_to, created_ms FROM events "
			   "WHERE game_id = ?1 AND seq > ?2 AND (visible_to IS NULL OR visible_to = ?3 OR ?3 = -2) "
			   "ORDER BY seq LIMIT ?4",
	[S_GAMES_UNFINISHED] = "SELECT " GAME_COLUMNS " FROM games WHERE finished = 0 ORDER BY created, id",
	/* The public list: invite-only games (params holding the invite's
	 * hash, game-seat.c) are for whoever was given the code. */
	[S_GAMES_RECENT] = "SELECT " LIST_COLUMNS("?2") " FROM games WHERE params NOT LIKE '{\"invite_sha256\"%' "
			   "ORDER BY created DESC, id LIMIT ?1",
	/* A range of the primary key: '~' sorts after every id character. */
	[S_GAMES_PREFIX] = "SELECT " LIST_COLUMNS("?3") " FROM games WHERE id >= ?1 AND id < ?1 || '~' "
			   "ORDER BY id LIMIT ?2",
	/* A player's games waiting for an opponent (issue 12 item 4): one
	 * count per seat, each on its partial index (a player never holds
	 * both seats of a game). */
	[S_GAMES_OPEN_OF] = "SELECT (SELECT COUNT(*) FROM games WHERE finished = 0 AND status = 'open' AND white = ?1) + "
			    "(SELECT COUNT(*) FROM games WHERE finished = 0 AND status = 'open' AND black = ?1)",
	/* A page of each seat's index (a player never holds both seats of
	 * a game), merged: 2 * limit index rows at most. */
	[S_GAMES_FINISHED_OF] =
		"SELECT g.id, g.ended, g.result, g.termination, g.plies, g.tc, g.ruleset, g.white, g.black, "
		"COALESCE(w.name, ''), COALESCE(b.name, ''), g.white_level, g.black_level FROM ("
		"SELECT * FROM (SELECT id, ended FROM games WHERE white = ?1 AND ended IS NOT NULL "
		"AND (ended, id) < (?2, ?3) ORDER BY ended DESC, id DESC LIMIT ?4) UNION ALL "
		"SELECT * FROM (SELECT id, ended FROM games WHERE black = ?1 AND ended IS NOT NULL "
		"AND (ended, id) < (?2, ?3) ORDER BY ended DESC, id DESC LIMIT ?4)) s "
		"JOIN games g ON g.id = s.id LEFT JOIN players w ON w.id = g.white LEFT JOIN players b ON b.id = g.black "
		"ORDER BY s.ended DESC, s.id DESC LIMIT ?4",
};

/* Players by token hash, direct-mapped: every authenticated request looks
 * its player up, and players are never changed or deleted, so a hit needs
 * no SQL. Only rows read outside a transaction are kept (a row a
 * transaction inserts may yet be rolled back). */
#define STORE_PLAYER_CACHE 1024

struct player_cache_entry {
	uint8_t hash[STORE_HASH_SIZE];
	struct store_player p; /* p.id 0: empty */
};

struct sqlite_store {
	struct player_cache_entry players[STORE_PLAYER_CACHE];
	sqlite3 *db;
	sqlite3_stmt *stmt[S_COUNT];
	bool in_tx;
	int last_fail; /* primary result code of the last failure, 0 if none */
	uint64_t commits; /* successful commits since open */
	int wal_fd;       /* the WAL, for store_sync; -1 without sync_full */
};

static enum store_result fail(struct sqlite_store *st, const char *what, int rc)
{
	st->last_fail = rc & 0xff;
	log_error("store: %s: %s", what, st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
	return STORE_ERROR;
}

/* Resets a statement for its next use and clears its bindings. */
static sqlite3_stmt *stmt(struct sqlite_store *st, enum stmt s)
{
	sqlite3_stmt *q = st->stmt[s];
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	return q;
}

static void bind_id(sqlite3_stmt *q, int i, int64_t id)
{
	if (id)
		sqlite3_bind_int64(q, i, id);
	else
		sqlite3_bind_null(q, i);
}

static void copy_text(char *dst, size_t size, sqlite3_stmt *q, int col)
{
	const unsigned char *s = sqlite3_column_text(q, col);
	snprintf(dst, size, "%s", s ? (const char *)s : "");
}

static int exec(struct sqlite_store *st, const char *sql, char **errmsg)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		*errmsg = xasprintf("%s", msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int migrate(struct sqlite_store *st, bool read_only, char **errmsg)
{
	if (!read_only && exec(st, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", errmsg))
		return -1;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, "SELECT MAX(version) FROM schema_version", -1, &q, NULL) != SQLITE_OK) {
		*errmsg = xstrdup(sqlite3_errmsg(st->db));
		return -1;
	}
	int version = 0;
	if (sqlite3_step(q) == SQLITE_ROW)
		version = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	if (read_only && version != N_MIGRATIONS) {
		*errmsg = xasprintf("read-only database has schema version %d, this tchessd needs %d", version,
				    N_MIGRATIONS);
		return -1;
	}
	if (version > N_MIGRATIONS) {
		*errmsg = xasprintf("database schema version %d is newer than this tchessd's (%d)", version,
				    N_MIGRATIONS);
		return -1;
	}
	for (; version < N_MIGRATIONS; version++) {
		char *sql = xasprintf("BEGIN IMMEDIATE; %s DELETE FROM schema_version; "
				      "INSERT INTO schema_version VALUES (%d); COMMIT;",
				      migrations[version], version + 1);
		int rc = exec(st, sql, errmsg);
		free(sql);
		if (rc) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		log_info("store: schema migrated to version %d", version + 1);
	}
	return 0;
}

int sqlite_store_schema_version(void)
{
	return N_MIGRATIONS;
}

/* Opens the WAL for store_sync (creating it empty if SQLite has not yet:
 * SQLite takes an empty WAL as no WAL) and makes its directory entry
 * durable once, so a synced WAL cannot vanish with its directory. */
static int open_wal(struct sqlite_store *st, char **errmsg)
{
	const char *wal = sqlite3_filename_wal(sqlite3_db_filename(st->db, "main"));
	if (!wal || !*wal) {
		*errmsg = xstrdup("sync = full needs a database file (no WAL file name)");
		return -1;
	}
	st->wal_fd = open(wal, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (st->wal_fd < 0) {
		*errmsg = xasprintf("%s: %s", wal, strerror(errno));
		return -1;
	}
	char *dir = xstrdup(wal);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	int dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return sqlite_store_sync(st) ? (*errmsg = xasprintf("%s: fdatasync: %s", wal, strerror(errno)), -1) : 0;
}

/* Creates path empty with mode 0600 unless it exists; 0, or -1 with errno. */
static int create_private(const char *path)
{
	if (!path[0] || path[0] == ':')
		return 0; /* in memory, or SQLite's temporary file */
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST ? 0 : -1;
	close(fd);
	return 0;
}

struct sqlite_store *sqlite_store_open(const char *path, const struct store_options *opts, char **errmsg)
{
	struct sqlite_store *st = xcalloc(1, sizeof *st);
	st->wal_fd = -1;
	*errmsg = NULL;
	bool ro = opts && opts->read_only;
	/* Private notes, premoves and token hashes: the file is the owner's
	 * alone (SQLite gives its WAL the database's mode). */
	if (!ro && create_private(path)) {
		*errmsg = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	int rc = sqlite3_open_v2(path, &st->db,
				 (ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
					 SQLITE_OPEN_NOMUTEX,
				 NULL);
	if (rc != SQLITE_OK) {
		*errmsg = xasprintf("%s: %s", path, st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	/* Only at open: another process (an operator's sqlite3 shell) may
	 * hold the file briefly. Once open, locking_mode=EXCLUSIVE keeps
	 * every other process out while tchessd runs. */
	sqlite3_busy_timeout(st->db, 5000);
	/* EXCLUSIVE before WAL: the WAL index then lives in heap memory. A
	 * read-only store takes neither (it only reads what is there). */
	if ((!ro && exec(st, "PRAGMA locking_mode = EXCLUSIVE", errmsg)) ||
	    (!ro && exec(st, "PRAGMA journal_mode = WAL", errmsg)) || exec(st, "PRAGMA foreign_keys = ON", errmsg) ||
	    exec(st, "PRAGMA synchronous = NORMAL", errmsg))
		goto fail;
	if (migrate(st, ro, errmsg))
		goto fail;
	if (opts && opts->sync_full && !ro && open_wal(st, errmsg))
		goto fail;
	for (int i = 0; i < S_COUNT; i++) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i], NULL) !=
		    SQLITE_OK) {
			*errmsg = xasprintf("preparing \"%s\": %s", stmt_sql[i], sqlite3_errmsg(st->db));
			goto fail;
		}
	}
	return st;
fail:
	if (!*errmsg)
		*errmsg = xstrdup("cannot open the database");
	sqlite_store_close(st);
	return NULL;
}

void sqlite_store_close(struct sqlite_store *st)
{
	if (!st)
		return;
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	sqlite3_close(st->db);
	if (st->wal_fd >= 0)
		close(st->wal_fd);
	free(st);
}

/* Runs a statement that returns no rows. */
static enum store_result run(struct sqlite_store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	if (rc == SQLITE_DONE)
		return STORE_OK;
	if ((rc & 0xff) == SQLITE_CONSTRAINT) {
		log_debug("store: %s: %s", what, sqlite3_errmsg(st->db));
		return STORE_CONFLICT;
	}
	return fail(st, what, rc);
}

bool sqlite_store_failure_transient(const struct sqlite_store *st)
{
	switch (st->last_fail) {
	case SQLITE_FULL:
	case SQLITE_READONLY:
	case SQLITE_IOERR:
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_CANTOPEN:
		return true;
	default:
		return false;
	}
}

enum store_result sqlite_store_begin(struct sqlite_store *st)
{
	st->last_fail = 0;
	enum store_result r = run(st, stmt(st, S_BEGIN), "begin");
	st->in_tx = r == STORE_OK;
	return r;
}

enum store_result sqlite_store_commit(struct sqlite_store *st)
{
	enum store_result r = run(st, stmt(st, S_COMMIT), "commit");
	if (r == STORE_OK) {
		st->in_tx = false;
		st->commits++;
	} else
		sqlite_store_rollback(st);
	return r;
}

uint64_t sqlite_store_commits(const struct sqlite_store *st)
{
	return st->commits;
}

bool sqlite_store_syncs(const struct sqlite_store *st)
{
	return st->wal_fd >= 0;
}

int sqlite_store_sync(struct sqlite_store *st)
{
	if (st->wal_fd < 0)
		return 0;
	return fdatasync(st->wal_fd);
}

void sqlite_store_rollback(struct sqlite_store *st)
{
	/* SQLite rolls back by itself after some errors (an I/O error at
	 * commit): then there is nothing left to do. */
	if (sqlite3_get_autocommit(st->db)) {
		st->in_tx = false;
		return;
	}
	/* The failure that made the caller roll back is the one to report. */
	int why = st->last_fail;
	run(st, stmt(st, S_ROLLBACK), "rollback");
	if (why)
		st->last_fail = why;
	st->in_tx = false;
}

enum store_result sqlite_store_player_create(struct sqlite_store *st, const char *name,
					     const uint8_t hash[STORE_HASH_SIZE], int64_t created_ms, int64_t *id_out)
{
	sqlite3_stmt *q = stmt(st, S_PLAYER_INSERT);
	sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_blob(q, 2, hash, STORE_HASH_SIZE, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 3, created_ms);
	enum store_result r = run(st, q, "create player");
	if (r == STORE_OK)
		*id_out = sqlite3_last_insert_rowid(st->db);
	return r;
}

static enum store_result player_row(struct sqlite_store *st, sqlite3_stmt *q, struct store_player *out,
				    const char *what)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(q, 0);
		copy_text(out->name, sizeof out->name, q, 1);
		out->created_ms = sqlite3_column_int64(q, 2);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_reset(q);
		return fail(st, what, rc);
	}
	return rc == SQLITE_ROW ? STORE_OK : STORE_NOT_FOUND;
}

enum store_result sqlite_store_player_by_token_hash(struct sqlite_store *st, const uint8_t hash[STORE_HASH_SIZE],
						    struct store_player *out)
{
	/* The hash of a 256-bit secret: any of its bytes spread evenly. */
	struct player_cache_entry *c =
		&st->players[((unsigned)hash[0] | (unsigned)hash[1] << 8) % STORE_PLAYER_CACHE];
	if (c->p.id && token_equal(c->hash, hash, STORE_HASH_SIZE)) {
		*out = c->p;
		return STORE_OK;
	}
	sqlite3_stmt *q = stmt(st, S_PLAYER_BY_HASH);
	sqlite3_bind_blob(q, 1, hash, STORE_HASH_SIZE, SQLITE_TRANSIENT);
	enum store_result r = player_row(st, q, out, "player by token");
	/* The index lookup is on a hash of a 256-bit secret, which an attacker
	 * cannot steer; comparing the stored hash in constant time as well keeps
	 * the check independent of how SQLite compares blobs. */
	if (r == STORE_OK) {
		const void *stored = sqlite3_column_blob(q, 3);
		if (sqlite3_column_bytes(q, 3) != STORE_HASH_SIZE || !stored ||
		    !token_equal(stored, hash, STORE_HASH_SIZE))
			r = STORE_NOT_FOUND;
	}
	sqlite3_reset(q);
	if (r == STORE_OK && !st->in_tx && sqlite3_get_autocommit(st->db)) {
		memcpy(c->hash, hash, STORE_HASH_SIZE);
		c->p = *out;
	}
	return r;
}

enum store_result sqlite_store_player_set_token_hash(struct sqlite_store *st, int64_t id,
						     const uint8_t hash[STORE_HASH_SIZE])
{
	/* The old token must not live on in the cache (whether or not the
	 * transaction commits: the cache only saves a lookup). */
	for (size_t i = 0; i < STORE_PLAYER_CACHE; i++)
		if (st->players[i].p.id == id)
			memset(&st->players[i], 0, sizeof st->players[i]);
	sqlite3_stmt *q = stmt(st, S_PLAYER_SET_HASH);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_blob(q, 2, hash, STORE_HASH_SIZE, SQLITE_TRANSIENT);
	enum store_result r = run(st, q, "set token");
	if (r == STORE_OK && sqlite3_changes(st->db) == 0)
		r = STORE_NOT_FOUND;
	return r;
}

enum store_result sqlite_store_player_by_id(struct sqlite_store *st, int64_t id, struct store_player *out)
{
	sqlite3_stmt *q = stmt(st, S_PLAYER_BY_ID);
	sqlite3_bind_int64(q, 1, id);
	enum store_result r = player_row(st, q, out, "player by id");
	sqlite3_reset(q);
	return r;
}

enum store_result sqlite_store_game_create(struct sqlite_store *st, const struct store_game *g)
{
	sqlite3_stmt *q = stmt(st, S_GAME_INSERT);
	sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, g->created_ms);
	sqlite3_bind_text(q, 3, g->status, -1, SQLITE_TRANSIENT);
	bind_id(q, 4, g->white);
	bind_id(q, 5, g->black);
	sqlite3_bind_int(q, 6, g->finished);
	sqlite3_bind_text(q, 7, g->params ? g->params : "{}", -1, SQLITE_TRANSIENT);
	return run(st, q, "create game");
}

/* Reads a GAME_COLUMNS row; params points into the statement (valid until
 * the next step). */
static void game_row(sqlite3_stmt *q, struct store_game *g)
{
	copy_text(g->id, sizeof g->id, q, 0);
	g->created_ms = sqlite3_column_int64(q, 1);
	copy_text(g->status, sizeof g->status, q, 2);
	g->white = sqlite3_column_int64(q, 3);
	g->black = sqlite3_column_int64(q, 4);
	g->finished = sqlite3_column_int(q, 5) != 0;
	const unsigned char *p = sqlite3_column_text(q, 6);
	g->params = (char *)(p ? p : (const unsigned char *)"{}");
	g->last_seq = sqlite3_column_int64(q, 7);
}

enum store_result sqlite_store_game_get(struct sqlite_store *st, const char *id, struct store_game *out)
{
	sqlite3_stmt *q = stmt(st, S_GAME_GET);
	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q);
	enum store_result r = STORE_NOT_FOUND;
	out->params = NULL;
	if (rc == SQLITE_ROW) {
		game_row(q, out);
		out->params = xstrdup(out->params);
		r = STORE_OK;
	} else if (rc != SQLITE_DONE) {
		r = fail(st, "get game", rc);
	}
	sqlite3_reset(q);
	return r;
}

enum store_result sqlite_store_game_update(struct sqlite_store *st, const struct store_game *g)
{
	sqlite3_stmt *q = stmt(st, S_GAME_UPDATE);
	sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, g->status, -1, SQLITE_TRANSIENT);
	bind_id(q, 3, g->white);
	bind_id(q, 4, g->black);
	sqlite3_bind_int(q, 5, g->finished);
	if (g->finished) {
		sqlite3_bind_int64(q, 6, g->ended_ms);
		sqlite3_bind_text(q, 7, g->result, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 8, g->termination, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(q, 9, g->plies);
		sqlite3_bind_text(q, 10, g->tc, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 11, g->ruleset, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(q, 12, g->white_level);
		sqlite3_bind_int(q, 13, g->black_level);
	}
	enum store_result r = run(st, q, "update game");
	if (r == STORE_OK && sqlite3_changes(st->db) == 0)
		r = STORE_NOT_FOUND;
	return r;
}

enum store_result sqlite_store_game_delete(struct sqlite_store *st, const char *id)
{
	sqlite3_stmt *q = stmt(st, S_GAME_DELETE);
	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	enum store_result r = run(st, q, "delete game");
	if (r == STORE_OK && sqlite3_changes(st->db) == 0)
		r = STORE_NOT_FOUND;
	return r;
}

enum store_result sqlite_store_event_append(struct sqlite_store *st, const char *game_id, int64_t seq, const char *type,
					    const char *payload, int64_t visible_to, int64_t created_ms)
{
	sqlite3_stmt *q = stmt(st, S_EVENT_INSERT);
	sqlite3_bind_text(q, 1, game_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, payload ? payload : "{}", -1, SQLITE_TRANSIENT);
	bind_id(q, 4, visible_to);
	sqlite3_bind_int64(q, 5, created_ms);
	sqlite3_bind_int64(q, 6, seq);
	enum store_result r = run(st, q, "append event");
	if (r == STORE_OK && sqlite3_changes(st->db) == 0)
		r = STORE_CONFLICT; /* not the next seq */
	return r;
}

enum store_result sqlite_store_game_last_seq(struct sqlite_store *st, const char *game_id, int64_t *seq_out)
{
	sqlite3_stmt *q = stmt(st, S_GAME_LAST_SEQ);
	sqlite3_bind_text(q, 1, game_id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q);
	enum store_result r;
	if (rc == SQLITE_ROW) {
		*seq_out = sqlite3_column_int64(q, 0);
		r = sqlite3_column_int64(q, 1) ? STORE_OK : STORE_NOT_FOUND;
	} else {
		r = fail(st, "last seq", rc);
	}
	sqlite3_reset(q);
	return r;
}

enum store_result sqlite_store_events_after(struct sqlite_store *st, const char *game_id, int64_t after, int64_t viewer,
					    int limit, store_event_fn fn, void *arg)
{
	sqlite3_stmt *q = stmt(st, S_EVENTS_AFTER);
	sqlite3_bind_text(q, 1, game_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, after);
	/* Player ids are positive, so -1 matches no private event and -2
	 * (STORE_VIEWER_ALL) every one. */
	sqlite3_bind_int64(q, 3, viewer == STORE_VIEWER_ALL ? -2 : viewer ? viewer : -1);
	sqlite3_bind_int64(q, 4, limit > 0 ? limit : -1);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_event ev = {
			.game_id = game_id,
			.seq = sqlite3_column_int64(q, 0),
			.type = (const char *)sqlite3_column_text(q, 1),
			.payload = (const char *)sqlite3_column_text(q, 2),
			.visible_to = sqlite3_column_int64(q, 3),
			.created_ms = sqlite3_column_int64(q, 4),
		};
		if (fn(arg, &ev)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? STORE_OK : fail(st, "events after", rc);
}

static enum store_result walk_games(struct sqlite_store *st, sqlite3_stmt *q, store_game_fn fn, void *arg,
				    const char *what)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_game g;
		game_row(q, &g);
		if (fn(arg, &g)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? STORE_OK : fail(st, what, rc);
}

enum store_result sqlite_store_games_unfinished(struct sqlite_store *st, store_game_fn fn, void *arg)
{
	return walk_games(st, stmt(st, S_GAMES_UNFINISHED), fn, arg, "unfinished games");
}

enum store_result sqlite_store_games_recent(struct sqlite_store *st, int limit, int64_t viewer, store_game_fn fn,
					    void *arg)
{
	sqlite3_stmt *q = stmt(st, S_GAMES_RECENT);
	sqlite3_bind_int(q, 1, limit);
	sqlite3_bind_int64(q, 2, viewer);
	return walk_games(st, q, fn, arg, "recent games");
}

enum store_result sqlite_store_games_prefix(struct sqlite_store *st, const char *prefix, int limit, int64_t viewer,
					    store_game_fn fn, void *arg)
{
	sqlite3_stmt *q = stmt(st, S_GAMES_PREFIX);
	sqlite3_bind_text(q, 1, prefix, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, limit);
	sqlite3_bind_int64(q, 3, viewer);
	return walk_games(st, q, fn, arg, "games by id prefix");
}

enum store_result sqlite_store_games_open_of(struct sqlite_store *st, int64_t player, int64_t *n_out)
{
	sqlite3_stmt *q = stmt(st, S_GAMES_OPEN_OF);
	sqlite3_bind_int64(q, 1, player);
	int rc = sqlite3_step(q);
	enum store_result r = STORE_OK;
	if (rc == SQLITE_ROW)
		*n_out = sqlite3_column_int64(q, 0);
	else
		r = fail(st, "open games", rc);
	sqlite3_reset(q);
	return r;
}

enum store_result sqlite_store_games_finished_of(struct sqlite_store *st, int64_t player, int64_t before_ms,
						 const char *before_id, int limit, store_finished_fn fn, void *arg)
{
	sqlite3_stmt *q = stmt(st, S_GAMES_FINISHED_OF);
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, before_ms);
	sqlite3_bind_text(q, 3, before_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 4, limit);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		/* Only the text columns read as text (a number column read
		 * so would be converted). */
		static const int text_cols[] = { 0, 2, 3, 5, 6, 9, 10 };
		const char *text[11] = { 0 };
		for (size_t i = 0; i < sizeof text_cols / sizeof text_cols[0]; i++) {
			const unsigned char *t = sqlite3_column_text(q, text_cols[i]);
			text[text_cols[i]] = t ? (const char *)t : "";
		}
		struct store_finished_game g = {
			.id = text[0],
			.ended_ms = sqlite3_column_int64(q, 1),
			.result = text[2],
			.termination = text[3],
			.plies = sqlite3_column_int64(q, 4),
			.tc = text[5],
			.ruleset = text[6],
			.white = sqlite3_column_int64(q, 7),
			.black = sqlite3_column_int64(q, 8),
			.white_name = text[9],
			.black_name = text[10],
			.white_level = sqlite3_column_int(q, 11),
			.black_level = sqlite3_column_int(q, 12),
		};
		if (fn(arg, &g)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? STORE_OK : fail(st, "finished games", rc);
}

const char *sqlite_store_finished_of_sql(void)
{
	return stmt_sql[S_GAMES_FINISHED_OF];
}

const char *sqlite_store_open_of_sql(void)
{
	return stmt_sql[S_GAMES_OPEN_OF];
}

sqlite3 *store_sqlite_db(struct sqlite_store *st)
{
	return st->db;
}
