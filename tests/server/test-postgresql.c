/*
 * tchessd on PostgreSQL, what only PostgreSQL can show: another writer
 * appending to a game's log behind this tchessd's back (as another node
 * will). Several nodes: test-cluster.c. Run beside a throwaway cluster by
 * with-postgresql; skipped (77) without one.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pgtest.h"
#include "tchess/protocol.h"

/* Appends a public note to the game's log directly in the database, at
 * its next seq, as a writer other than this tchessd would. */
static void note_behind_its_back(struct table *t)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "WITH g AS (UPDATE games SET last_seq = last_seq + 1 WHERE id = '%s' RETURNING last_seq) "
		 "INSERT INTO events(game_id, seq, type, payload, visible_to, created_ms) "
		 "SELECT '%s', last_seq, 'note', '{\"text\":\"written elsewhere\"}', NULL, "
		 "(extract(epoch FROM now()) * 1000)::bigint FROM g",
		 t->game, t->game);
	ck_assert_int_eq(pgtest_sql(t->d.db, sql), 0);
}

static struct protocol_events all_events(struct table *t)
{
	char *body;
	ck_assert_int_eq(table_command(t, "GET", "events?after=0", t->alice, NULL, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(body, strlen(body), &evs, &err) == 0, "%s", err.message);
	free(body);
	return evs;
}

START_TEST(test_stale_game_catches_up)
{
	/* A move whose seq another writer took first: the store refuses it
	 * (the append names the seq its fold expects), tchessd reads what
	 * it missed, folds it and plays the move at the next seq; the log
	 * stays contiguous and holds each event once. */
	struct table t;
	table_open(&t, NULL, "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	struct protocol_events before = all_events(&t);
	note_behind_its_back(&t);
	char *body;
	ck_assert_int_eq(table_command(&t, "POST", "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}", &body), 200);
	struct protocol_events got;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(body, strlen(body), &got, &err) == 0, "%s", err.message);
	free(body);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_str_eq(got.events[0].type, "move");
	ck_assert_int_eq(got.events[0].seq, before.seq + 2);
	protocol_events_fini(&got);
	struct protocol_events after = all_events(&t);
	ck_assert_uint_eq(after.n, before.n + 2);
	for (size_t i = 0; i < after.n; i++)
		ck_assert_int_eq(after.events[i].seq, (int64_t)i + 1);
	ck_assert_str_eq(after.events[before.n].type, "note");
	ck_assert_str_eq(after.events[before.n + 1].type, "move");
	/* And the game goes on from there. */
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}"), 1);
	protocol_events_fini(&before);
	protocol_events_fini(&after);
	table_close(&t);
}
END_TEST

/* Ends every backend of tchessd's connections (as an operator's
 * pg_terminate_backend, or a restarted pooler, would). */
static void terminate_backends(struct table *t)
{
	ck_assert_int_eq(pgtest_sql(t->d.db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
					     "WHERE application_name = 'tchessd' AND pid <> pg_backend_pid()"),
			 0);
}

static void connection_reset(const char *config)
{
	/* Nothing was left unflushed (every move answered is durable), so
	 * tchessd opens its connections again and goes on: the next command
	 * and the next read succeed, and nothing acknowledged is missing. */
	struct table t;
	table_open(&t, config, "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	terminate_backends(&t);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	terminate_backends(&t);
	struct protocol_events evs = all_events(&t);
	ck_assert_str_eq(evs.events[evs.n - 1].type, "move");
	for (size_t i = 0; i < evs.n; i++)
		ck_assert_int_eq(evs.events[i].seq, (int64_t)i + 1);
	protocol_events_fini(&evs);
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}"), 1);
	table_close(&t);
}

START_TEST(test_refused_move_looks_again)
{
	/* A move runs first on the game as tchessd holds it, without
	 * reading the game's last seq: its append at the seq tchessd folded
	 * proves the game current. A move that the held game refuses
	 * appends nothing, so it is looked at again after that one read:
	 * here another writer played White's e4 behind tchessd's back (the
	 * event copied from a twin game), and Black's e5, a stale ply for
	 * the game held, is played on the game caught up. */
	struct table t;
	table_open(&t, NULL, "\"tc\":\"5+3\"");
	char twin[PROTOCOL_GAME_ID_MAX + 1];
	create_game_with(&t.d, t.alice, "{\"color\":\"white\",\"tc\":\"5+3\"}", twin);
	join_game(&t.d, twin, t.bob);
	char path[200], *body;
	snprintf(path, sizeof path, "/v1/games/%s/moves", twin);
	const char *e4 = "{\"ply\":0,\"move\":\"e4\"}";
	ck_assert_int_eq(http_call(&t.d, "POST", path, t.alice, e4, strlen(e4), &body), 200);
	free(body);
	struct protocol_events before = all_events(&t);
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "WITH g AS (UPDATE games SET last_seq = last_seq + 1 WHERE id = '%s' RETURNING last_seq) "
		 "INSERT INTO events(game_id, seq, type, payload, visible_to, created_ms) "
		 "SELECT '%s', g.last_seq, e.type, e.payload, e.visible_to, "
		 /* At the same time into the game as in the twin: the fold
		  * checks the time it charged. */
		 "e.created_ms - s1.created_ms + s2.created_ms FROM g, events e, events s1, events s2 "
		 "WHERE e.game_id = '%s' AND e.type = 'move' AND s1.game_id = e.game_id AND "
		 "s1.type = 'game-started' AND s2.game_id = '%s' AND s2.type = 'game-started'",
		 t.game, t.game, twin, t.game);
	ck_assert_int_eq(pgtest_sql(t.d.db, sql), 0);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	struct protocol_events after = all_events(&t);
	ck_assert_uint_eq(after.n, before.n + 2);
	for (size_t i = 0; i < after.n; i++)
		ck_assert_int_eq(after.events[i].seq, (int64_t)i + 1);
	ck_assert_str_eq(after.events[after.n - 2].type, "move");
	ck_assert_str_eq(after.events[after.n - 1].type, "move");
	/* Twice the same ply is a repeat, answered with the move played. */
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	protocol_events_fini(&before);
	protocol_events_fini(&after);
	table_close(&t);
}
END_TEST

START_TEST(test_connection_reset)
{
	connection_reset(NULL);
	connection_reset("sync = full");
}
END_TEST

START_TEST(test_node_name)
{
	/* node = NAME names this tchessd's row; with sync = full every group
	 * flush is one synchronous UPDATE of it. */
	struct table t;
	table_open(&t, "node = east-1\nsync = full", "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	ck_assert_int_eq(pgtest_sql(t.d.db,
				    "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM tchess_nodes WHERE node = "
				    "'east-1' AND syncs > 0) THEN RAISE EXCEPTION 'no synced row'; END IF; END $$"),
			 0);
	table_close(&t);
}
END_TEST

/* The store round trips of each logged "POST .../moves 200" line of d's
 * log into trips (at most max); returns how many lines there were. */
static int move_trips(const struct tchessd *d, const char *game, long *trips, int max)
{
	char path[300], head[200];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	snprintf(head, sizeof head, "POST /v1/games/%s/moves 200 ", game);
	char *log = file_slurp(path);
	int n = 0;
	for (char *p = log; (p = strstr(p, head)) && n < max; p++) {
		char *eol = strchr(p, '\n'), *tail = strstr(p, " store round trips");
		const char *comma = tail;
		while (comma && comma > p && comma[-1] != ' ')
			comma--;
		trips[n++] = tail && (!eol || tail < eol) ? strtol(comma, NULL, 10) : 0;
	}
	free(log);
	return n;
}

START_TEST(test_move_round_trips)
{
	/* A move costs two round trips to PostgreSQL, both with the server
	 * lock held: the token's player, and its transaction, whose BEGIN,
	 * append at the expected seq and COMMIT go out together (libpq's
	 * pipeline mode) and are answered together; the append proves the
	 * game current, so the game's last seq is not read first (another
	 * node may have appended: test_refused_move_looks_again). They were
	 * five, one at a time. */
	struct table t;
	table_open(&t, "sync = full", "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&t.d)), 0);
	t.d.log_file = true;
	snprintf(t.d.level, sizeof t.d.level, "info");
	tchessd_restart(&t.d);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":3,\"move\":\"Nc6\"}"), 1);
	long trips[8];
	int n = move_trips(&t.d, t.game, trips, 8);
	ck_assert_int_eq(n, 3);
	for (int i = 0; i < n; i++)
		ck_assert_msg(trips[i] >= 1 && trips[i] <= 2, "move %d: %ld round trips", i + 1, trips[i]);
	/* Every move is there, at its seq. */
	struct protocol_events evs = all_events(&t);
	ck_assert_str_eq(evs.events[evs.n - 1].type, "move");
	for (size_t i = 0; i < evs.n; i++)
		ck_assert_int_eq(evs.events[i].seq, (int64_t)i + 1);
	protocol_events_fini(&evs);
	table_close(&t);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_stale_game_catches_up,
		test_connection_reset,
		test_node_name,
		test_move_round_trips,
		test_refused_move_looks_again,
	};
	return harness_main_postgresql("postgresql", 60, tests, sizeof tests / sizeof tests[0]);
}
