/*
 * Integration tests of tchessd over loopback: the real binary, a temporary
 * SQLite file, HTTP through libcurl, answers read with the shared protocol
 * codec. Covers registration and tokens, bad input (malformed JSON, wrong
 * types, unknown members, huge bodies, unknown paths), the events long-poll
 * (immediate, parked then woken, timed out), private events, persistence
 * across a restart, draining on SIGTERM and the slow-loris timeout.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"

static void expect_error(long status, char *body, long want_status, enum protocol_error_code want_code,
			 const char *what)
{
	struct protocol_error e, err;
	ck_assert_msg(status == want_status, "%s: status %ld, want %ld (%s)", what, status, want_status, body);
	ck_assert_msg(protocol_error_decode(body, strlen(body), &e, &err) == 0, "%s: error body: %s", what,
		      err.message);
	ck_assert_msg(e.code == want_code, "%s: code %s", what, protocol_error_name(e.code));
	ck_assert_msg(e.message[0], "%s: empty message", what);
	free(body);
}

/* Evaluates the call before reading body (argument order is unspecified). */
#define EXPECT_ERR(call, ...)                              \
	do {                                                \
		long status_ = (call);                      \
		expect_error(status_, body, __VA_ARGS__);   \
	} while (0)

static void get_events(struct tchessd *d, const char *game, int64_t after, const char *token,
		       struct protocol_events *out)
{
	char path[128], *body;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", game, (long long)after);
	ck_assert_int_eq(http_call(d, "GET", path, token, NULL, 0, &body), 200);
	ck_assert_msg(protocol_events_decode(body, strlen(body), out, &err) == 0, "%s", err.message);
	free(body);
}

static void poll_events(struct poll_req *p, struct protocol_events *out)
{
	struct protocol_error err;
	ck_assert_int_eq(p->status, 200);
	ck_assert_msg(protocol_events_decode(p->body.data, p->body.len, out, &err) == 0, "%s", err.message);
}

START_TEST(test_register_and_me)
{
	/* DESIGN.md: "a player registers a name and gets a bearer token
	 * (random, >=128 bits, stored only as a hash server-side)". */
	struct tchessd d;
	tchessd_start(&d, NULL);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1];
	int64_t a = register_player(&d, "alice", alice);
	int64_t b = register_player(&d, "bob", bob);
	ck_assert_int_ne(a, b);
	ck_assert_uint_ge(strlen(alice) * 4, 128);
	ck_assert_str_ne(alice, bob);

	char *body;
	struct protocol_player me;
	struct protocol_error err;
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me", alice, NULL, 0, &body), 200);
	ck_assert_int_eq(protocol_player_decode(body, strlen(body), &me, &err), 0);
	ck_assert_int_eq(me.player, a);
	ck_assert_str_eq(me.name, "alice");
	free(body);

	EXPECT_ERR(http_call(&d, "GET", "/v1/me", NULL, NULL, 0, &body), 401, PROTOCOL_ERR_UNAUTHORIZED,
		     "no token");
	char wrong[PROTOCOL_TOKEN_MAX + 1];
	strcpy(wrong, alice);
	wrong[0] = wrong[0] == '0' ? '1' : '0';
	EXPECT_ERR(http_call(&d, "GET", "/v1/me", wrong, NULL, 0, &body), 401, PROTOCOL_ERR_UNAUTHORIZED,
		     "wrong token");
	EXPECT_ERR(http_call_header(&d, "GET", "/v1/me", "Authorization: Basic YWxpY2U6eA==", &body), 401,
		     PROTOCOL_ERR_UNAUTHORIZED, "basic auth");
	/* Names are unique without regard to case. */
	const char *dup = "{\"name\":\"ALICE\"}";
	EXPECT_ERR(http_call(&d, "POST", "/v1/players", NULL, dup, strlen(dup), &body), 409,
		     PROTOCOL_ERR_CONFLICT, "name taken");
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

static const struct {
	const char *body;
	const char *what;
} bad_bodies[] = {
	{ "{\"name\":", "malformed JSON" },
	{ "not json", "not JSON" },
	{ "{\"name\":5}", "wrong type" },
	{ "{\"name\":[]}", "wrong type (array)" },
	{ "{\"name\":\"eve\",\"admin\":true}", "unknown member" },
	{ "{}", "missing member" },
	{ "{\"name\":\"e v e\"}", "bad name" },
	{ "", "empty body" },
};

START_TEST(test_bad_input)
{
	struct tchessd d;
	tchessd_start(&d, "max_body = 4096");
	char *body;
	for (size_t i = 0; i < sizeof bad_bodies / sizeof bad_bodies[0]; i++)
		EXPECT_ERR(http_call(&d, "POST", "/v1/players", NULL, bad_bodies[i].body,
				       strlen(bad_bodies[i].body), &body), 400, PROTOCOL_ERR_BAD_REQUEST, bad_bodies[i].what);

	/* Past max_body: 413 without the body being read. */
	size_t n = 1 << 20;
	char *huge = malloc(n);
	memset(huge, ' ', n);
	memcpy(huge, "{\"name\":\"x\"", 11);
	huge[n - 1] = '}';
	EXPECT_ERR(http_call(&d, "POST", "/v1/players", NULL, huge, n, &body), 413, PROTOCOL_ERR_TOO_LARGE,
		     "huge body");
	free(huge);

	EXPECT_ERR(http_call(&d, "GET", "/v1/nothing", NULL, NULL, 0, &body), 404, PROTOCOL_ERR_NOT_FOUND,
		     "unknown path");
	EXPECT_ERR(http_call(&d, "GET", "/v2/me", NULL, NULL, 0, &body), 404, PROTOCOL_ERR_NOT_FOUND,
		     "unknown version");
	EXPECT_ERR(http_call(&d, "GET", "/v1/games/../../etc/passwd/events", NULL, NULL, 0, &body), 404,
		     PROTOCOL_ERR_NOT_FOUND, "garbage URL");
	EXPECT_ERR(http_call(&d, "GET", "/v1/games//events", NULL, NULL, 0, &body), 404,
		     PROTOCOL_ERR_NOT_FOUND, "empty game id");
	EXPECT_ERR(http_call(&d, "GET", "/v1/games/0123456789abcdef0123456789abcdef/events", NULL, NULL, 0, &body), 404, PROTOCOL_ERR_NOT_FOUND, "unknown game");
	EXPECT_ERR(http_call(&d, "DELETE", "/v1/players", NULL, NULL, 0, &body), 405,
		     PROTOCOL_ERR_METHOD_NOT_ALLOWED, "wrong method");

	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1], path[128];
	register_player(&d, "eve", tok);
	create_game(&d, tok, game);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=-1", game);
	EXPECT_ERR(http_call(&d, "GET", path, NULL, NULL, 0, &body), 400, PROTOCOL_ERR_BAD_REQUEST,
		     "negative after");
	snprintf(path, sizeof path, "/v1/games/%s/events?after=1x", game);
	EXPECT_ERR(http_call(&d, "GET", path, NULL, NULL, 0, &body), 400, PROTOCOL_ERR_BAD_REQUEST,
		     "garbage after");
	const char *params = "{\"params\":7}";
	EXPECT_ERR(http_call(&d, "POST", "/v1/games", tok, params, strlen(params), &body), 400,
		     PROTOCOL_ERR_BAD_REQUEST, "params of the wrong type");

	/* Still alive and serving after all that. */
	ck_assert_int_eq(parked_polls(&d), 0);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_poll_immediate)
{
	/* DESIGN.md: "GET .../events?after=SEQ answers at once with every
	 * visible event after SEQ". */
	struct tchessd d;
	tchessd_start(&d, "poll_timeout_ms = 20000");
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	int64_t a = register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	int64_t t0 = mono_ms();
	struct protocol_events evs;
	get_events(&d, game, 0, NULL, &evs);
	ck_assert_int_lt(mono_ms() - t0, 5000);
	ck_assert_uint_eq(evs.n, 1);
	ck_assert_int_eq(evs.seq, 1);
	ck_assert_int_eq(evs.events[0].seq, 1);
	ck_assert_str_eq(evs.events[0].type, "game-created");
	struct fold_event fe;
	struct protocol_error err;
	ck_assert_msg(fold_event_decode(evs.events[0].type, evs.events[0].data, &fe, &err) == 0, "%s", err.message);
	ck_assert_int_eq(fe.seats[WHITE].kind, FOLD_SEAT_HUMAN);
	ck_assert_int_eq(fe.seats[WHITE].player, a);
	ck_assert_int_eq(fe.seats[BLACK].kind, FOLD_SEAT_EMPTY);
	ck_assert_str_eq(fe.tc, "5+3");
	ck_assert_int_gt(evs.now_ms, 0);
	protocol_events_fini(&evs);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_poll_wakes_on_event)
{
	/* A parked poll answers as soon as its game gets an event, long
	 * before its 20 s timeout. */
	struct tchessd d;
	tchessd_start(&d, "poll_timeout_ms = 20000");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", alice);
	int64_t b = register_player(&d, "bob", bob);
	create_game(&d, alice, game);

	struct poll_req p;
	poll_start(&p, &d, game, 1, NULL);
	poll_wait_parked(&p, &d, 1);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	ck_assert_int_eq(http_call(&d, "POST", path, bob, "", 0, NULL), 200);
	int64_t joined = mono_ms();
	ck_assert_msg(poll_run(&p, 10000), "parked poll not woken by the event");
	ck_assert_int_lt(p.ended_ms - joined, 5000);
	struct protocol_events evs;
	poll_events(&p, &evs);
	/* The join fills the last seat, so the game starts in the same
	 * transaction. */
	ck_assert_uint_eq(evs.n, 2);
	ck_assert_int_eq(evs.events[0].seq, 2);
	ck_assert_str_eq(evs.events[0].type, "player-joined");
	char want[80];
	snprintf(want, sizeof want, "{\"color\":\"black\",\"player\":%lld,\"name\":\"bob\"}", (long long)b);
	ck_assert_str_eq(evs.events[0].data, want);
	ck_assert_str_eq(evs.events[1].type, "game-started");
	protocol_events_fini(&evs);
	poll_fini(&p);
	ck_assert_int_eq(parked_polls(&d), 0);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_poll_timeout)
{
	/* DESIGN.md: "or parks up to ~25 s and answers empty" (here the
	 * configured 300 ms). */
	struct tchessd d;
	tchessd_start(&d, "poll_timeout_ms = 300");
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	struct poll_req p;
	poll_start(&p, &d, game, 1, tok);
	ck_assert_msg(poll_run(&p, 10000), "parked poll never timed out");
	int64_t took = p.ended_ms - p.started_ms;
	ck_assert_msg(took >= 250 && took < 5000, "answered after %lld ms", (long long)took);
	struct protocol_events evs;
	poll_events(&p, &evs);
	ck_assert_uint_eq(evs.n, 0);
	ck_assert_int_eq(evs.seq, 1);
	protocol_events_fini(&evs);
	poll_fini(&p);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

static bool has_note(const struct protocol_events *evs)
{
	for (size_t i = 0; i < evs->n; i++) {
		if (!strcmp(evs->events[i].type, "note"))
			return true;
	}
	return false;
}

START_TEST(test_private_events)
{
	/* DESIGN.md: "Private events (your premove, your notes) reach only
	 * their owner." */
	struct tchessd d;
	tchessd_start(&d, "poll_timeout_ms = 20000");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], carol[PROTOCOL_TOKEN_MAX + 1];
	char game[PROTOCOL_GAME_ID_MAX + 1], path[128], *body;
	register_player(&d, "alice", alice);
	register_player(&d, "bob", bob);
	register_player(&d, "carol", carol);
	create_game(&d, alice, game);
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	ck_assert_int_eq(http_call(&d, "POST", path, bob, "", 0, NULL), 200);

	/* A spectator parked at seq 3 (created, joined, started) is not woken
	 * by the private note (issue 12 item 16: before, it got nothing but
	 * the new seq); white's move answers it, its number 4 to all but
	 * white (the note is the log's 4th event, and white's). */
	struct poll_req p;
	poll_start(&p, &d, game, 3, carol);
	poll_wait_parked(&p, &d, 1);
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"push the h-pawn\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, alice, note, strlen(note), NULL), 201);
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	const char *e4 = "{\"ply\":0,\"move\":\"e4\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, alice, e4, strlen(e4), NULL), 200);
	ck_assert(poll_run(&p, 10000));
	struct protocol_events evs;
	poll_events(&p, &evs);
	ck_assert_uint_eq(evs.n, 1);
	ck_assert_str_eq(evs.events[0].type, "move");
	ck_assert_int_eq(evs.events[0].seq, 4);
	ck_assert_int_eq(evs.seq, 4);
	protocol_events_fini(&evs);
	poll_fini(&p);

	get_events(&d, game, 0, alice, &evs);
	ck_assert_uint_eq(evs.n, 5);
	ck_assert_int_eq(evs.seq, 5);
	ck_assert(has_note(&evs));
	ck_assert_str_eq(evs.events[3].data, "{\"text\":\"push the h-pawn\"}");
	protocol_events_fini(&evs);
	const char *others[] = { bob, carol, NULL };
	for (size_t i = 0; i < 3; i++) {
		get_events(&d, game, 0, others[i], &evs);
		ck_assert_uint_eq(evs.n, 4);
		ck_assert_int_eq(evs.seq, 4);
		for (size_t k = 0; k < evs.n; k++)
			ck_assert_int_eq(evs.events[k].seq, (int64_t)k + 1);
		ck_assert(!has_note(&evs));
		protocol_events_fini(&evs);
	}
	/* Only the game's players keep notes. */
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	EXPECT_ERR(http_call(&d, "POST", path, carol, note, strlen(note), &body), 403,
		     PROTOCOL_ERR_FORBIDDEN, "spectator's note");
	EXPECT_ERR(http_call(&d, "POST", path, NULL, note, strlen(note), &body), 401,
		     PROTOCOL_ERR_UNAUTHORIZED, "anonymous note");
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_restart_keeps_data)
{
	/* A command is acknowledged only after commit, so all of it is there
	 * after a restart on the same file. */
	struct tchessd d;
	tchessd_start(&d, NULL);
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1], path[128], *body;
	int64_t a = register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"kept\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, tok, note, strlen(note), NULL), 201);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);

	tchessd_restart(&d);
	struct protocol_player me;
	struct protocol_error err;
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me", tok, NULL, 0, &body), 200);
	ck_assert_int_eq(protocol_player_decode(body, strlen(body), &me, &err), 0);
	ck_assert_int_eq(me.player, a);
	free(body);
	struct protocol_events evs;
	get_events(&d, game, 0, tok, &evs);
	ck_assert_uint_eq(evs.n, 2);
	ck_assert_str_eq(evs.events[1].data, "{\"text\":\"kept\"}");
	protocol_events_fini(&evs);
	const char *dup = "{\"name\":\"alice\"}";
	EXPECT_ERR(http_call(&d, "POST", "/v1/players", NULL, dup, strlen(dup), &body), 409,
		     PROTOCOL_ERR_CONFLICT, "name taken after restart");
	ck_assert_int_eq(http_call(&d, "GET", "/v1/games", NULL, NULL, 0, &body), 200);
	struct protocol_game_summary *games;
	size_t n;
	ck_assert_int_eq(protocol_game_list_decode(body, strlen(body), &games, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(games[0].id, game);
	/* Everyone's number of the last event: the note is alice's alone
	 * (issue 12 item 16); with her token, hers. */
	ck_assert_int_eq(games[0].seq, 1);
	free(games);
	free(body);
	ck_assert_int_eq(http_call(&d, "GET", "/v1/games", tok, NULL, 0, &body), 200);
	ck_assert_int_eq(protocol_game_list_decode(body, strlen(body), &games, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(games[0].seq, 2);
	free(games);
	free(body);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* Waits (deadline 10 s) until tchessd's log holds needle; fails if not. */
static void wait_log(struct tchessd *d, const char *needle)
{
	char path[300];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		FILE *f = fopen(path, "r");
		char line[1024];
		bool found = false;
		while (f && !found && fgets(line, sizeof line, f))
			found = strstr(line, needle) != NULL;
		if (f)
			fclose(f);
		if (found)
			return;
		ck_assert_msg(mono_ms() < deadline, "no \"%s\" in tchessd's log within 10 s", needle);
		poll(NULL, 0, 10);
	}
}

START_TEST(test_backup_on_sigusr1)
{
	/* tchessd holds its database exclusively, so an operator backs it up
	 * through tchessd: SIGUSR1 writes DB.backup while it keeps serving.
	 * A second tchessd started on that copy serves the same players,
	 * games, moves and private notes. */
	struct tchessd d, copy;
	tchessd_start_logged(&d, NULL, "info");
	if (tchessd_postgresql()) {
		/* PostgreSQL has its own tools; SIGUSR1 says so and harms nothing. */
		ck_assert_int_eq(kill(d.pid, SIGUSR1), 0);
		wait_log(&d, "backup: a PostgreSQL store is backed up with PostgreSQL's own tools");
		ck_assert_int_eq(http_call(&d, "GET", "/v1/health", NULL, NULL, 0, NULL), 200);
		ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
		tchessd_cleanup(&d);
		return;
	}
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1], path[300], *body, *want;
	register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"backed up\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, tok, note, strlen(note), NULL), 201);
	ck_assert_int_eq(kill(d.pid, SIGUSR1), 0);
	wait_log(&d, "backup: wrote");
	/* Still serving; a second backup replaces the first. */
	ck_assert_int_eq(http_call(&d, "POST", path, tok, note, strlen(note), NULL), 201);
	ck_assert_int_eq(kill(d.pid, SIGUSR1), 0);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		/* The second "wrote" line: count them. */
		char log[300], line[1024];
		int n = 0;
		snprintf(log, sizeof log, "%s/tchessd.log", d.dir);
		FILE *f = fopen(log, "r");
		while (f && fgets(line, sizeof line, f))
			n += strstr(line, "backup: wrote") != NULL;
		if (f)
			fclose(f);
		if (n == 2)
			break;
		ck_assert_msg(mono_ms() < deadline, "no second backup within 10 s");
		poll(NULL, 0, 10);
	}
	ck_assert_int_eq(http_call(&d, "GET", path, tok, NULL, 0, &want), 200);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);

	/* A fresh tchessd folder whose database is the backup. */
	tchessd_start(&copy, NULL);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&copy)), 0);
	char from[300], to[300];
	snprintf(from, sizeof from, "%s/t.db.backup", d.dir);
	snprintf(to, sizeof to, "%s/t.db", copy.dir);
	ck_assert_int_eq(rename(from, to), 0);
	snprintf(to, sizeof to, "%s/t.db-wal", copy.dir);
	unlink(to);
	snprintf(to, sizeof to, "%s/t.db-shm", copy.dir);
	unlink(to);
	tchessd_restart(&copy);
	/* The same player (the token works), the same game and both notes,
	 * which only their owner sees. */
	ck_assert_int_eq(http_call(&copy, "GET", path, tok, NULL, 0, &body), 200);
	struct protocol_events a, b;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(want, strlen(want), &a, &err), 0);
	ck_assert_int_eq(protocol_events_decode(body, strlen(body), &b, &err), 0);
	ck_assert_uint_eq(a.n, 3);
	ck_assert_uint_eq(b.n, a.n);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_int_eq(b.events[i].seq, a.events[i].seq);
		ck_assert_str_eq(b.events[i].type, a.events[i].type);
		ck_assert_str_eq(b.events[i].data, a.events[i].data);
	}
	protocol_events_fini(&a);
	protocol_events_fini(&b);
	free(body);
	free(want);
	ck_assert_int_eq(http_call(&copy, "GET", path, NULL, NULL, 0, &body), 200);
	ck_assert_ptr_null(strstr(body, "backed up"));
	free(body);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&copy)), 0);
	tchessd_cleanup(&copy);
	tchessd_cleanup(&d);

	/* A backup that cannot be written is logged; tchessd goes on. */
	tchessd_start_logged(&d, "backup = /nonexistent-dir/t.backup", "info");
	ck_assert_int_eq(kill(d.pid, SIGUSR1), 0);
	wait_log(&d, "backup: /nonexistent-dir/t.backup.tmp");
	ck_assert_int_eq(http_call(&d, "GET", "/v1/health", NULL, NULL, 0, NULL), 200);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_sigterm_drains)
{
	/* SIGTERM answers parked polls (empty) and exits 0. */
	struct tchessd d;
	tchessd_start(&d, "poll_timeout_ms = 20000");
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	struct poll_req p[2];
	poll_start(&p[0], &d, game, 1, NULL);
	poll_start(&p[1], &d, game, 1, tok);
	poll_wait_parked(&p[0], &d, 1);
	poll_wait_parked(&p[1], &d, 2);
	int64_t t0 = mono_ms();
	ck_assert_int_eq(kill(d.pid, SIGTERM), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_msg(poll_run(&p[i], 10000), "parked poll %d not answered on SIGTERM", i);
		ck_assert_int_lt(p[i].ended_ms - t0, 5000);
		struct protocol_events evs;
		poll_events(&p[i], &evs);
		ck_assert_uint_eq(evs.n, 0);
		ck_assert_int_eq(evs.seq, 1);
		protocol_events_fini(&evs);
		poll_fini(&p[i]);
	}
	int status = tchessd_stop(&d);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_slow_loris)
{
	/* A client that sends half a request is cut off after the connection
	 * timeout (1 s here), not held forever. */
	struct tchessd d;
	tchessd_start(&d, "connection_timeout_s = 1");
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)d.port) };
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	const char *half = "GET /v1/health HTTP/1.1\r\nHost: x\r\n";
	ck_assert_int_eq(write(fd, half, strlen(half)), (ssize_t)strlen(half));
	int64_t t0 = mono_ms();
	struct pollfd pfd = { fd, POLLIN, 0 };
	ck_assert_int_eq(poll(&pfd, 1, 10000), 1);
	char c;
	ck_assert_int_le(read(fd, &c, 1), 0);
	int64_t took = mono_ms() - t0;
	ck_assert_msg(took >= 500 && took < 5000, "closed after %lld ms", (long long)took);
	close(fd);
	ck_assert_int_eq(parked_polls(&d), 0);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

static Suite *server_suite(void)
{
	Suite *s = suite_create("server");
	TCase *tc = tcase_create("tchessd");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_register_and_me);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_poll_immediate);
	tcase_add_test(tc, test_poll_wakes_on_event);
	tcase_add_test(tc, test_poll_timeout);
	tcase_add_test(tc, test_private_events);
	tcase_add_test(tc, test_restart_keeps_data);
	tcase_add_test(tc, test_backup_on_sigusr1);
	tcase_add_test(tc, test_sigterm_drains);
	tcase_add_test(tc, test_slow_loris);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_ALL);
	SRunner *sr = srunner_create(server_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
