/*
 * Unit tests of the store and the waiter lists, without HTTP (the store on
 * SQLite, and on PostgreSQL under meson test --setup postgresql):
 * schema creation and reopening, name and token
 * uniqueness, gapless per-game seqs, event visibility, rollback, unfinished
 * games; waiters woken by game, by deadline in order, and all at once.
 */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgtest.h"
#include "store-sqlite.h"
#include "store.h"
#include "util/sha256.h"
#include "waiters.h"

static char dir[256];
static char path[512]; /* a file in dir, or a database of the test cluster */

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tchess-store-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char err[256];
	if (!pgtest_enabled())
		snprintf(path, sizeof path, "%s/s.db", dir);
	else
		ck_assert_msg(pgtest_create(path, sizeof path, err, sizeof err) == 0, "%s", err);
}

static void teardown(void)
{
	if (pgtest_enabled()) {
		pgtest_drop(path);
		rmdir(dir);
		return;
	}
	char p[sizeof path + 8];
	const char *sfx[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s%s", path, sfx[i]);
		unlink(p);
	}
	rmdir(dir);
}

static struct store *open_store(void)
{
	struct store_options o = { .sync_full = false };
	char *err = NULL;
	struct store *st = store_open(path, &o, &err);
	ck_assert_msg(st != NULL, "%s", err ? err : "?");
	return st;
}

struct seen {
	int n;
	int64_t seqs[16];
};

static int count_cb(void *arg, const struct store_event *ev)
{
	struct seen *s = arg;
	s->seqs[s->n++] = ev->seq;
	return 0;
}

START_TEST(test_players)
{
	struct store *st = open_store();
	uint8_t h1[32], h2[32];
	sha256("token-1", 7, h1);
	sha256("token-2", 7, h2);
	int64_t a, b;
	ck_assert_int_eq(store_player_create(st, "alice", h1, 1, &a), STORE_OK);
	ck_assert_int_eq(store_player_create(st, "Alice", h2, 2, &b), STORE_CONFLICT);
	ck_assert_int_eq(store_player_create(st, "bob", h1, 2, &b), STORE_CONFLICT);
	ck_assert_int_eq(store_player_create(st, "bob", h2, 2, &b), STORE_OK);
	struct store_player p;
	ck_assert_int_eq(store_player_by_token_hash(st, h2, &p), STORE_OK);
	ck_assert_int_eq(p.id, b);
	ck_assert_str_eq(p.name, "bob");
	uint8_t h3[32];
	sha256("token-3", 7, h3);
	ck_assert_int_eq(store_player_by_token_hash(st, h3, &p), STORE_NOT_FOUND);
	store_close(st);
}
END_TEST

START_TEST(test_events)
{
	struct store *st = open_store();
	uint8_t h[32];
	sha256("t", 1, h);
	int64_t a, b, seq;
	ck_assert_int_eq(store_player_create(st, "a", h, 1, &a), STORE_OK);
	sha256("u", 1, h);
	ck_assert_int_eq(store_player_create(st, "b", h, 1, &b), STORE_OK);
	struct store_game g = { .id = "g1", .created_ms = 5, .status = "open", .white = a };
	ck_assert_int_eq(store_game_create(st, &g), STORE_OK);
	ck_assert_int_eq(store_game_create(st, &g), STORE_CONFLICT);
	struct store_game g2 = { .id = "g2", .created_ms = 6, .status = "open", .white = b };
	ck_assert_int_eq(store_game_create(st, &g2), STORE_OK);

	/* Seqs are per game and gapless from 1: an append names the seq it
	 * expects, and only the next one is taken. */
	ck_assert_int_eq(store_event_append(st, "g1", 1, "x", "{}", 0, 10), STORE_OK);
	ck_assert_int_eq(store_event_append(st, "g2", 1, "x", "{}", 0, 10), STORE_OK);
	ck_assert_int_eq(store_event_append(st, "g1", 2, "note", "{}", a, 11), STORE_OK);
	/* A writer whose view is stale (seq taken), or ahead (a gap). */
	ck_assert_int_eq(store_event_append(st, "g1", 2, "y", "{}", 0, 12), STORE_CONFLICT);
	ck_assert_int_eq(store_event_append(st, "g1", 4, "y", "{}", 0, 12), STORE_CONFLICT);
	ck_assert_int_eq(store_event_append(st, "g1", 3, "y", "{}", 0, 12), STORE_OK);
	/* An event for an unknown game breaks the foreign key. */
	ck_assert_int_eq(store_event_append(st, "nope", 1, "y", "{}", 0, 12), STORE_CONFLICT);

	struct seen s = { 0 };
	ck_assert_int_eq(store_events_after(st, "g1", 0, 0, 0, count_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 2); /* public only */
	ck_assert_int_eq(s.seqs[1], 3);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_events_after(st, "g1", 0, a, 0, count_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 3); /* the owner sees the note */
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_events_after(st, "g1", 0, b, 0, count_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 2);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_events_after(st, "g1", 1, a, 1, count_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.seqs[0], 2);
	ck_assert_int_eq(store_game_last_seq(st, "g1", &seq), STORE_OK);
	ck_assert_int_eq(seq, 3);
	ck_assert_int_eq(store_game_last_seq(st, "zz", &seq), STORE_NOT_FOUND);

	/* A rolled-back transaction leaves nothing. */
	ck_assert_int_eq(store_begin(st), STORE_OK);
	ck_assert_int_eq(store_event_append(st, "g1", 4, "z", "{}", 0, 13), STORE_OK);
	store_rollback(st);
	ck_assert_int_eq(store_game_last_seq(st, "g1", &seq), STORE_OK);
	ck_assert_int_eq(seq, 3);

	/* In a transaction an append's answer may come only with a later
	 * call (PostgreSQL sends it with the next statement answered or with
	 * the commit): whenever it comes, an append whose seq is taken loses
	 * the whole transaction -- g2's append beside it is not kept -- and
	 * says so (STORE_CONFLICT, store_race_lost). */
	for (int read = 0; read < 2; read++) {
		ck_assert_int_eq(store_begin(st), STORE_OK);
		ck_assert_int_eq(store_event_append(st, "g2", 2, "z", "{}", 0, 13), STORE_OK);
		enum store_result r = store_event_append(st, "g1", 3, "z", "{}", 0, 13);
		if (r == STORE_OK) {
			/* A read in the transaction answers the append first;
			 * without one, the commit does, in the same round trip. */
			if (read) {
				ck_assert_int_eq(store_game_last_seq(st, "g2", &seq), STORE_CONFLICT);
				ck_assert(store_race_lost(st));
			}
			ck_assert_int_eq(store_commit(st), STORE_CONFLICT);
			ck_assert(store_race_lost(st));
		} else {
			ck_assert_int_eq(r, STORE_CONFLICT);
			store_rollback(st);
		}
		ck_assert_int_eq(store_game_last_seq(st, "g2", &seq), STORE_OK);
		ck_assert_int_eq(seq, 1);
	}
	enum store_result r;
	/* The same given up (a rollback with the append's answer unread):
	 * the store goes on. */
	ck_assert_int_eq(store_begin(st), STORE_OK);
	ck_assert_int_eq(store_event_append(st, "g2", 2, "z", "{}", 0, 13), STORE_OK);
	r = store_event_append(st, "g1", 2, "z", "{}", 0, 13);
	ck_assert(r == STORE_OK || r == STORE_CONFLICT);
	store_rollback(st);
	ck_assert_int_eq(store_begin(st), STORE_OK);
	ck_assert_int_eq(store_event_append(st, "g2", 2, "z", "{}", 0, 13), STORE_OK);
	ck_assert_int_eq(store_commit(st), STORE_OK);
	ck_assert_int_eq(store_game_last_seq(st, "g2", &seq), STORE_OK);
	ck_assert_int_eq(seq, 2);

	/* Finished games are not rebuilt; deleted games leave no events. */
	g2.finished = true;
	ck_assert_int_eq(store_game_update(st, &g2), STORE_OK);
	struct store_game got;
	ck_assert_int_eq(store_game_get(st, "g2", &got), STORE_OK);
	ck_assert(got.finished);
	ck_assert_str_eq(got.params, "{}");
	store_game_fini(&got);
	ck_assert_int_eq(store_game_delete(st, "g1"), STORE_OK);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_events_after(st, "g1", 0, a, 0, count_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 0);
	store_close(st);
}
END_TEST

struct ranged {
	const struct store_range *ranges;
	int n;
	int range[16];
	int64_t seqs[16];
};

static int ranged_cb(void *arg, const struct store_event *ev)
{
	struct ranged *s = arg;
	int i = 0;
	while (i < 3 && s->ranges[i].game_id != ev->game_id)
		i++;
	s->range[s->n] = i;
	s->seqs[s->n++] = ev->seq;
	return 0;
}

/* Several games' events in one read (another node's message): each range
 * after its after and up to its upto, private events too, range by range
 * in the order given, each event carrying its range's own id pointer. */
START_TEST(test_events_ranges)
{
	struct store *st = open_store();
	uint8_t h[32];
	sha256("t", 1, h);
	int64_t a;
	ck_assert_int_eq(store_player_create(st, "a", h, 1, &a), STORE_OK);
	const char *ids[] = { "g1", "g2", "g3" };
	for (int i = 0; i < 3; i++) {
		struct store_game g = { .created_ms = 5, .status = "open", .white = a };
		snprintf(g.id, sizeof g.id, "%s", ids[i]);
		ck_assert_int_eq(store_game_create(st, &g), STORE_OK);
		for (int64_t q = 1; q <= 5; q++)
			ck_assert_int_eq(store_event_append(st, ids[i], q, "x", "{}", q == 3 ? a : 0, 10), STORE_OK);
	}
	/* Copies: the events must carry these very pointers. */
	char id3[8] = "g3", id1[8] = "g1", id2[8] = "g2";
	struct store_range r[3] = { { id3, 1, 3 }, { id1, 4, 9 }, { id2, 5, 5 } };
	struct ranged s = { .ranges = r };
	ck_assert_int_eq(store_events_ranges(st, r, 3, ranged_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.range[0], 0);
	ck_assert_int_eq(s.seqs[0], 2);
	ck_assert_int_eq(s.range[1], 0);
	ck_assert_int_eq(s.seqs[1], 3); /* private: a node reads every event */
	ck_assert_int_eq(s.range[2], 1);
	ck_assert_int_eq(s.seqs[2], 5);
	ck_assert_int_eq(store_events_ranges(st, r, 0, ranged_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 3);
	store_close(st);
}
END_TEST

struct ids {
	int n;
	char id[16][40];
};

static int ids_cb(void *arg, const struct store_game *g)
{
	struct ids *s = arg;
	snprintf(s->id[s->n++], sizeof s->id[0], "%s", g->id);
	return 0;
}

/* GET /v1/games?prefix=: the games whose id starts with the prefix, in id
 * order, at most the limit; a neighbour that only sorts near it is not
 * one of them. */
START_TEST(test_games_prefix)
{
	struct store *st = open_store();
	static const char *const all[] = { "abcd0001", "abcd0002", "abcd0003", "abce0000", "abc", "0abcd000" };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		struct store_game g = { .created_ms = (int64_t)i, .status = "open" };
		snprintf(g.id, sizeof g.id, "%s", all[i]);
		ck_assert_int_eq(store_game_create(st, &g), STORE_OK);
	}
	struct ids s = { 0 };
	ck_assert_int_eq(store_games_prefix(st, "abcd", 10, 0, ids_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 3);
	ck_assert_str_eq(s.id[0], "abcd0001");
	ck_assert_str_eq(s.id[2], "abcd0003");
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_games_prefix(st, "abcd", 2, 0, ids_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 2);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_games_prefix(st, "abcd0002", 10, 0, ids_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.id[0], "abcd0002");
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_games_prefix(st, "abc", 10, 0, ids_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 5);
	ck_assert_str_eq(s.id[0], "abc");
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(store_games_prefix(st, "bcd0", 10, 0, ids_cb, &s), STORE_OK);
	ck_assert_int_eq(s.n, 0);
	store_close(st);
}
END_TEST

START_TEST(test_schema_version)
{
	struct store *st = open_store();
	store_close(st);
	/* Reopening is a no-op migration. */
	st = open_store();
	ck_assert_int_ge(store_schema_version(st), 1);
	store_close(st);
}
END_TEST

/* What SQLite's migration 4 (the finished games' summaries) added. */
#define UNDO_MIGRATION_4                                                                                    \
	"DROP INDEX games_ended_white; DROP INDEX games_ended_black; "                                    \
	"ALTER TABLE games DROP COLUMN ended; ALTER TABLE games DROP COLUMN result; "                       \
	"ALTER TABLE games DROP COLUMN termination; ALTER TABLE games DROP COLUMN plies; "                  \
	"ALTER TABLE games DROP COLUMN tc; ALTER TABLE games DROP COLUMN ruleset; "                         \
	"ALTER TABLE games DROP COLUMN white_level; ALTER TABLE games DROP COLUMN black_level; "

/* The query plan of the open-games count (issue 12 item 4's
 * open_games_per_player, at every create) on db: each seat's count
 * searches its partial index, no scan of the games. */
static void check_open_of_plan(sqlite3 *db)
{
	char *sql = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sqlite_store_open_of_sql());
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	sqlite3_free(sql);
	bool white = false, black = false;
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *detail = (const char *)sqlite3_column_text(q, 3);
		/* The outer SELECT of the two counts is one constant row. */
		ck_assert_msg(!strstr(detail, "SCAN") || !strcmp(detail, "SCAN CONSTANT ROW"), "the count scans: %s",
			      detail);
		white |= strstr(detail, "USING COVERING INDEX games_open_white") || strstr(detail, "USING INDEX games_open_white");
		black |= strstr(detail, "USING COVERING INDEX games_open_black") || strstr(detail, "USING INDEX games_open_black");
	}
	sqlite3_finalize(q);
	ck_assert_msg(white && black, "the count does not search both seats' indexes");
}

/* The open games are counted on an index, in a new database and in one
 * made before the index existed (schema version 2), which the store
 * migrates when it opens it; the count is the same either way. */
START_TEST(test_open_games_indexed)
{
	if (pgtest_enabled())
		return; /* SQLite's plan; PostgreSQL runs the same migration */
	struct store *st = open_store();
	int64_t ann;
	uint8_t h[STORE_HASH_SIZE] = { 7 };
	ck_assert_int_eq(store_player_create(st, "ann", h, 1, &ann), STORE_OK);
	const char *status[] = { "open", "open", "playing", "open" };
	for (int i = 0; i < 4; i++) {
		struct store_game g = { .created_ms = i, .white = i == 1 ? 0 : ann, .black = i == 1 ? ann : 0,
					.finished = i == 3, .params = "{}" };
		snprintf(g.id, sizeof g.id, "g%d", i);
		snprintf(g.status, sizeof g.status, "%s", status[i]);
		ck_assert_int_eq(store_game_create(st, &g), STORE_OK);
	}
	int64_t n = -1;
	ck_assert_int_eq(store_games_open_of(st, ann, &n), STORE_OK);
	ck_assert_int_eq(n, 2);
	store_close(st);

	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	check_open_of_plan(db);
	/* Back to version 2: no index. */
	ck_assert_int_eq(sqlite3_exec(db,
				      UNDO_MIGRATION_4 "DROP INDEX games_open_white; DROP INDEX games_open_black; "
				      "DELETE FROM schema_version; INSERT INTO schema_version VALUES (2);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	st = open_store();
	ck_assert_int_eq(store_games_open_of(st, ann, &n), STORE_OK);
	ck_assert_int_eq(n, 2);
	store_close(st);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	check_open_of_plan(db);
	sqlite3_close(db);
}
END_TEST

/* The plan of the finished-games page (issue 14 item 5) on db: each seat's
 * part searches its partial index; the games are never scanned, so a page
 * costs the same whatever the player's history. */
static void check_finished_plan(sqlite3 *db)
{
	char *sql = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sqlite_store_finished_of_sql());
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	sqlite3_free(sql);
	bool white = false, black = false;
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *detail = (const char *)sqlite3_column_text(q, 3);
		ck_assert_msg(!strstr(detail, "SCAN g") && !strstr(detail, "SCAN games"), "the page scans: %s", detail);
		white |= !!strstr(detail, "INDEX games_ended_white");
		black |= !!strstr(detail, "INDEX games_ended_black");
	}
	sqlite3_finalize(q);
	ck_assert_msg(white && black, "the page does not search both seats' indexes");
}

static int finished_collect(void *arg, const struct store_finished_game *g)
{
	char *ids = arg;
	strcat(ids, g->id);
	strcat(ids, g->white_level ? "E" : g->black_level ? "e" : "");
	strcat(ids, " ");
	return 0;
}

/* A finished game's summary is written once, by the update that finishes
 * it; a player's finished games page newest first by (ended, id) on one
 * index per seat, in a new database and in one of schema version 3, which
 * the store migrates (its games finished before have no summary). */
START_TEST(test_finished_games_indexed)
{
	struct store *st = open_store();
	int64_t ann, bo;
	uint8_t h1[STORE_HASH_SIZE] = { 7 }, h2[STORE_HASH_SIZE] = { 8 };
	ck_assert_int_eq(store_player_create(st, "ann", h1, 1, &ann), STORE_OK);
	ck_assert_int_eq(store_player_create(st, "bo", h2, 1, &bo), STORE_OK);
	/* g0..g4: ann white in g0, g2 (against the engine, level 3), black in
	 * g1, g3; g4 is not finished; g1 and g3 end at the same instant. */
	const int64_t ended[] = { 100, 300, 200, 300, 0 };
	for (int i = 0; i < 5; i++) {
		struct store_game g = { .created_ms = i, .params = "{}" };
		snprintf(g.id, sizeof g.id, "g%d", i);
		snprintf(g.status, sizeof g.status, "playing");
		ck_assert_int_eq(store_game_create(st, &g), STORE_OK);
		g.white = i % 2 ? bo : ann;
		g.black = i % 2 ? ann : i == 2 ? 0 : bo;
		g.black_level = i == 2 ? 3 : 0;
		g.finished = i < 4;
		g.ended_ms = ended[i];
		snprintf(g.status, sizeof g.status, "%s", g.finished ? "over" : "playing");
		snprintf(g.result, sizeof g.result, "1-0");
		snprintf(g.termination, sizeof g.termination, "resignation");
		ck_assert_int_eq(store_game_update(st, &g), STORE_OK);
		/* A later update (a rematch offer) keeps the summary. */
		g.ended_ms += 5000;
		ck_assert_int_eq(store_game_update(st, &g), STORE_OK);
	}
	char ids[128] = "";
	ck_assert_int_eq(store_games_finished_of(st, ann, INT64_MAX, "", 10, finished_collect, ids), STORE_OK);
	ck_assert_str_eq(ids, "g3 g1 g2e g0 ");
	ids[0] = '\0';
	ck_assert_int_eq(store_games_finished_of(st, ann, 300, "g3", 2, finished_collect, ids), STORE_OK);
	ck_assert_str_eq(ids, "g1 g2e ");
	ids[0] = '\0';
	ck_assert_int_eq(store_games_finished_of(st, bo, INT64_MAX, "", 10, finished_collect, ids), STORE_OK);
	ck_assert_str_eq(ids, "g3 g1 g0 ");
	store_close(st);
	if (pgtest_enabled())
		return; /* SQLite's plan; PostgreSQL runs the same migration */

	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	check_finished_plan(db);
	/* Back to version 3: no summary, no index. */
	ck_assert_int_eq(sqlite3_exec(db,
				      UNDO_MIGRATION_4 "DELETE FROM schema_version; INSERT INTO schema_version VALUES (3);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	st = open_store();
	ids[0] = '\0';
	ck_assert_int_eq(store_games_finished_of(st, ann, INT64_MAX, "", 10, finished_collect, ids), STORE_OK);
	ck_assert_str_eq(ids, "");
	store_close(st);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	check_finished_plan(db);
	sqlite3_close(db);
}
END_TEST

static int wake_log[8];
static int wake_n;

static void record(void *arg, struct waiter *w, enum waiter_wake why)
{
	struct waiter *base = arg;
	wake_log[wake_n++] = (int)(w - base) * 10 + (int)why;
}

START_TEST(test_waiters)
{
	struct waiters ws;
	struct waiter w[4] = { 0 };
	waiters_init(&ws);
	const char *games[] = { "a", "b", "a", "c" };
	int64_t deadlines[] = { 100, 50, 200, 150 };
	for (int i = 0; i < 4; i++) {
		strcpy(w[i].game_id, games[i]);
		w[i].deadline_ms = deadlines[i];
		waiters_add(&ws, &w[i]);
	}
	ck_assert_uint_eq(ws.count, 4);
	ck_assert_int_eq(waiters_next_deadline(&ws), 50);
	wake_n = 0;
	ck_assert_uint_eq(waiters_wake_game(&ws, "a", record, w), 2);
	ck_assert(!w[0].parked && !w[2].parked && w[1].parked);
	/* Expiry goes in deadline order. */
	wake_n = 0;
	ck_assert_uint_eq(waiters_expire(&ws, 149, record, w), 1);
	ck_assert_int_eq(wake_log[0], 10 + WAITER_TIMEOUT);
	ck_assert_int_eq(waiters_next_deadline(&ws), 150);
	wake_n = 0;
	ck_assert_uint_eq(waiters_wake_all(&ws, WAITER_DRAIN, record, w), 1);
	ck_assert_int_eq(wake_log[0], 30 + WAITER_DRAIN);
	ck_assert_uint_eq(ws.count, 0);
	ck_assert_int_eq(waiters_next_deadline(&ws), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("all");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_players);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_events_ranges);
	tcase_add_test(tc, test_games_prefix);
	tcase_add_test(tc, test_schema_version);
	tcase_add_test(tc, test_open_games_indexed);
	tcase_add_test(tc, test_finished_games_indexed);
	tcase_add_test(tc, test_waiters);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
