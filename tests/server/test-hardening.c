/*
 * tchessd under attack (issue 12): the attacks of an adversarial review,
 * each replayed against the real tchessd on loopback, each a test that
 * failed before its fix. Raw sockets send what libcurl would not: trickled
 * headers, conflicting framing, forged log lines.
 */
#define _GNU_SOURCE /* prlimit */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tchess/protocol.h"
#include "tchess/tablebase.h"

#define NO_RATE_LIMITS "rate_ip_per_s = 0\nrate_token_per_s = 0\n"

/* A raw response's status, and that its body is a JSON error of code
 * want. */
static void expect_json_error(const char *what, int status, const char *resp, int want_status,
			      enum protocol_error_code want)
{
	ck_assert_msg(status == want_status, "%s: status %d, want %d: %.400s", what, status, want_status, resp);
	const char *body = strstr(resp, "\r\n\r\n");
	ck_assert_msg(body, "%s: no body: %.400s", what, resp);
	body += 4;
	struct protocol_error e, err;
	ck_assert_msg(protocol_error_decode(body, strlen(body), &e, &err) == 0, "%s: not a JSON error: %.400s", what,
		      body);
	ck_assert_msg(e.code == want, "%s: code %s", what, protocol_error_name(e.code));
}

static bool healthy(struct tchessd *d)
{
	char *body;
	long s = http_call(d, "GET", "/v1/health", NULL, NULL, 0, &body);
	free(body);
	return s == 200;
}

/* ---- item 6: a deadline for a request's headers ---- */

START_TEST(test_header_deadline)
{
	/* Trickled headers reset an idle timeout with every byte; the
	 * header deadline does not move (tchessd(8), header_timeout_s). */
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "header_timeout_s = 2\nconnection_timeout_s = 60\n");
	int fd = dial(&d, NULL);
	send_all(fd, "GET /v1/health HTTP/1.1\r\nX-A: ", 31);
	int64_t start = mono_ms();
	bool closed = false;
	/* One byte every 200 ms for up to 10 s: never idle long. */
	while (!closed && mono_ms() - start < 10000) {
		free(read_until(fd, 200, NULL, &closed));
		if (!closed)
			send_all(fd, "a", 1);
	}
	int64_t took = mono_ms() - start;
	close(fd);
	ck_assert_msg(closed, "a trickling client still held its connection after %lld ms", (long long)took);
	ck_assert_msg(took >= 1500, "closed after %lld ms, before the 2 s deadline", (long long)took);
	/* A kept-alive connection serves its next request as usual. */
	fd = dial(&d, NULL);
	const char *get = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
	for (int i = 0; i < 2; i++) {
		send_all(fd, get, strlen(get));
		char *resp = read_until(fd, 5000, "\"status\":\"ok\"", &closed);
		ck_assert_msg(strstr(resp, "HTTP/1.1 200"), "request %d on a kept-alive connection: %.200s", i, resp);
		free(resp);
	}
	close(fd);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 9: client bytes in the log are escaped ---- */

START_TEST(test_log_escapes_client_bytes)
{
	struct tchessd d;
	tchessd_start_logged(&d, NO_RATE_LIMITS, "info");
	/* A decoded path forging a line and carrying ESC, and a method
	 * with ESC in it. */
	const char *forged = "GET /v1/%0a2026-01-01T00:00:00.000Z%20info%20%20forged%1b[31m HTTP/1.1\r\n"
			     "Host: x\r\nConnection: close\r\n\r\n";
	ck_assert_int_eq(raw_request(&d, NULL, forged, strlen(forged), NULL), 404);
	const char *method = "F\x1bOO /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	ck_assert_int_eq(raw_request(&d, NULL, method, strlen(method), NULL), 405);
	const char *latin = "GET /v1/%c2%9b%e2%80%ae HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	ck_assert_int_eq(raw_request(&d, NULL, latin, strlen(latin), NULL), 404);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	char path[300];
	snprintf(path, sizeof path, "%s/tchessd.log", d.dir);
	char *log = file_slurp(path);
	/* Every byte is printable ASCII but the line ends, and every line
	 * is one of tchessd's: it starts with its timestamp. */
	for (const unsigned char *p = (const unsigned char *)log; *p; p++)
		ck_assert_msg((*p >= 0x20 && *p < 0x7f) || *p == '\n', "byte 0x%02x in the log: %s", *p, log);
	for (const char *line = log; *line; line = strchr(line, '\n') + 1) {
		ck_assert_msg(!strncmp(line, "20", 2) && line[10] == 'T', "a line not written by tchessd: %.80s", line);
		if (!strchr(line, '\n'))
			break;
	}
	ck_assert_msg(strstr(log, "GET /v1/\\x0a2026-01-01T00:00:00.000Z info  forged\\x1b[31m 404"), "%s", log);
	ck_assert_msg(strstr(log, "F\\x1bOO /v1/health 405"), "%s", log);
	ck_assert_msg(strstr(log, "GET /v1/\\xc2\\x9b\\xe2\\x80\\xae 404"), "%s", log);
	free(log);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 10: strict HTTP framing, refused with JSON errors ---- */

START_TEST(test_strict_framing)
{
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS);
	char *resp;
	struct {
		const char *what, *req;
		int status;
		enum protocol_error_code code;
	} cases[] = {
		{ "two Content-Length headers",
		  "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\nContent-Length: 40\r\n\r\n"
		  "{\"name\":\"smug\"}POST /v1/players HTTP/1.1\r\nHost: x\r\n\r\n",
		  400, PROTOCOL_ERR_BAD_REQUEST },
		{ "Content-Length with chunked",
		  "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "0\r\n\r\n",
		  400, PROTOCOL_ERR_BAD_REQUEST },
		{ "an unknown transfer coding",
		  "POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400,
		  PROTOCOL_ERR_BAD_REQUEST },
		{ "no Host on HTTP/1.1", "GET /v1/health HTTP/1.1\r\n\r\n", 400, PROTOCOL_ERR_BAD_REQUEST },
		{ "a space in the URL", "GET /v1/hea lth HTTP/1.1\r\nHost: x\r\n\r\n", 400, PROTOCOL_ERR_BAD_REQUEST },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int s = raw_request(&d, NULL, cases[i].req, strlen(cases[i].req), &resp);
		expect_json_error(cases[i].what, s, resp, cases[i].status, cases[i].code);
		free(resp);
	}
	/* A 9,000-byte chunk extension: libmicrohttpd's own answer was an
	 * HTML 500. */
	struct buf b;
	buf_init(&b);
	buf_append_str(&b, "POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;");
	for (int i = 0; i < 9000; i++)
		buf_append(&b, "e", 1);
	buf_append_str(&b, "\r\nhello\r\n0\r\n\r\n");
	int s = raw_request(&d, NULL, b.data, b.len, &resp);
	expect_json_error("a long chunk extension", s, resp, 400, PROTOCOL_ERR_BAD_REQUEST);
	free(resp);
	buf_fini(&b);
	/* 300 query arguments: libmicrohttpd ran out of its pool and sent
	 * nothing, holding the connection until its idle timeout. */
	buf_init(&b);
	buf_append_str(&b, "GET /v1/health?");
	for (int i = 0; i < 300; i++) {
		char arg[16];
		snprintf(arg, sizeof arg, "%sa%d=b", i ? "&" : "", i);
		buf_append_str(&b, arg);
	}
	buf_append_str(&b, " HTTP/1.1\r\nHost: x\r\n\r\n");
	int64_t t0 = mono_ms();
	s = raw_request(&d, NULL, b.data, b.len, &resp);
	expect_json_error("300 query arguments", s, resp, 414, PROTOCOL_ERR_URI_TOO_LONG);
	ck_assert_int_lt(mono_ms() - t0, 4000);
	free(resp);
	buf_fini(&b);
	/* A few arguments, one Content-Length and HTTP/1.0 without Host
	 * still pass. */
	const char *ok = "GET /v1/games?limit=5&x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	ck_assert_int_eq(raw_request(&d, NULL, ok, strlen(ok), NULL), 200);
	const char *old = "GET /v1/health HTTP/1.0\r\n\r\n";
	ck_assert_int_eq(raw_request(&d, NULL, old, strlen(old), NULL), 200);
	const char *reg = "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\nConnection: close\r\n\r\n"
			  "{\"name\":\"fair\"}";
	ck_assert_int_eq(raw_request(&d, NULL, reg, strlen(reg), NULL), 201);
	/* The first case's first request never ran: its name is free. */
	char token[PROTOCOL_TOKEN_MAX + 1];
	register_player(&d, "smug", token);
	ck_assert(healthy(&d));
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- items 7 and 8: user text is UTF-8 without controls, NUL refused ---- */

START_TEST(test_user_text_refused)
{
	struct table t;
	table_open(&t, NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	/* JSON string bodies (escaped as a client sends them) that must not
	 * be stored. */
	static const char *const bad[] = {
		"x\\u001b[31mred",  /* ESC */
		"ding\\u0007",      /* BEL */
		"csi\\u009b2J",     /* C1 */
		"\\u202egnp.exe",   /* RIGHT-TO-LEFT OVERRIDE */
		"iso\\u2066late",   /* LEFT-TO-RIGHT ISOLATE */
		"two\\nlines",      /* a newline */
		"raw\x1b[2J",       /* a raw control byte */
		"\xff\xfe",         /* not UTF-8 */
		"\xc0\xaf",         /* an overlong '/' */
		"\xed\xa0\x80",     /* a surrogate */
		"\\ud800 alone",    /* an unpaired surrogate escape */
		"cut\\u0000here",   /* NUL, which cut the text short */
	};
	cJSON *before = table_snapshot(&t, NULL);
	int64_t seq = jint(before, "seq");
	cJSON_Delete(before);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char body[200];
		snprintf(body, sizeof body, "{\"text\":\"%s\"}", bad[i]);
		table_refused(&t, "notes", t.alice, body, 400, "text must be UTF-8");
	}
	/* Rulesets and names with a NUL: "fide\u0000" read as "fide". */
	char *out;
	const char *create = "{\"tc\":\"5+3\",\"ruleset\":\"fide\\u0000\"}";
	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/games", t.alice, create, strlen(create), &out), 400);
	free(out);
	const char *reg = "{\"name\":\"mallory\\u0000x\"}";
	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/players", NULL, reg, strlen(reg), &out), 400);
	free(out);
	const char *reg2 = "{\"name\":\"mallory\"}";
	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/players", NULL, reg2, strlen(reg2), &out), 201);
	free(out);
	/* A member name counts as text too, and a raw NUL in the body. */
	const char *key = "{\"te\\u001bxt\":\"x\"}";
	table_refused(&t, "notes", t.alice, key, 400, "text must be UTF-8");
	char path[160];
	snprintf(path, sizeof path, "/v1/games/%s/notes", t.game);
	ck_assert_int_eq(http_call(&t.d, "POST", path, t.alice, "{\"text\":\"a\0b\"}", 15, &out), 400);
	free(out);
	/* Nothing was stored; text beyond ASCII is still welcome. */
	cJSON *snap = table_snapshot(&t, t.alice);
	ck_assert_int_eq(jint(snap, "seq"), seq);
	cJSON_Delete(snap);
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.alice,
				       "{\"text\":\"na\xc3\xafve \xe2\x99\x9e \\u00e9 \\ud83d\\ude00\"}", &out),
			 201);
	ck_assert_msg(strstr(out, "na\xc3\xafve \xe2\x99\x9e \xc3\xa9 \xf0\x9f\x98\x80"), "%s", out);
	free(out);
	/* Authorization: Bearer TOKEN\0junk authenticated as TOKEN. */
	char req[512];
	int len = snprintf(req, sizeof req,
			   "GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s%cjunk\r\nConnection: close\r\n\r\n",
			   t.alice, '\0');
	char *resp;
	int s = raw_request(&t.d, NULL, req, (size_t)len, &resp);
	ck_assert_msg(s == 400 || s == 401, "a token followed by NUL and junk: %d %.300s", s, resp);
	free(resp);
	len = snprintf(req, sizeof req, "GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n",
		       t.alice);
	ck_assert_int_eq(raw_request(&t.d, NULL, req, (size_t)len, NULL), 200);
	/* A %00 in the path cut it short too. */
	snprintf(req, sizeof req, "GET /v1/games/%s%%00junk HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", t.game);
	ck_assert_int_eq(raw_request(&t.d, NULL, req, strlen(req), NULL), 400);
	table_close(&t);
}
END_TEST

/* ---- item 11: no game from a finished position ---- */

START_TEST(test_finished_start_refused)
{
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS);
	char tok[PROTOCOL_TOKEN_MAX + 1], *out;
	register_player(&d, "alice", tok);
	static const char *const finished[] = {
		"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", /* checkmate: was stored as 1-0 with no game-ended */
		"k7/8/1Q6/8/8/8/8/7K b - - 0 1",  /* stalemate */
		"k7/8/8/8/8/8/8/7K w - - 0 1",    /* K v K */
		"k7/8/8/8/8/8/8/6BK w - - 0 1",   /* K+B v K: dead */
	};
	for (size_t i = 0; i < sizeof finished / sizeof finished[0]; i++) {
		char req[200];
		snprintf(req, sizeof req, "{\"tc\":\"5+3\",\"fen\":\"%s\"}", finished[i]);
		long s = http_call(&d, "POST", "/v1/games", tok, req, strlen(req), &out);
		ck_assert_msg(s == 400 && strstr(out, "over before it began"), "%s: %ld %s", finished[i], s, out);
		free(out);
	}
	/* Nothing was stored. */
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me/games", tok, NULL, 0, &out), 200);
	ck_assert_msg(!strstr(out, "\"id\""), "%s", out);
	free(out);
	/* A position with play left is fine. */
	char id[PROTOCOL_GAME_ID_MAX + 1];
	create_game_with(&d, tok, "{\"tc\":\"5+3\",\"fen\":\"k7/8/1Q6/8/8/8/8/7K w - - 0 1\"}", id);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 17: private files, invite-only games unlisted ---- */

static void expect_private(const char *path)
{
	struct stat st;
	ck_assert_msg(stat(path, &st) == 0, "%s missing", path);
	ck_assert_msg((st.st_mode & 0777) == 0600, "%s has mode %o", path, (unsigned)(st.st_mode & 0777));
}

START_TEST(test_private_files)
{
	/* The files are SQLite's; a PostgreSQL store (the postgresql test
	 * setup) keeps its data in the cluster, whose files are its own. */
	if (getenv("TCHESS_TEST_PG_HOST")) {
		fprintf(stderr, "test_private_files: SQLite's files only; this run stores in PostgreSQL\n");
		return;
	}
	struct tchessd d;
	/* Under the usual umask (022) SQLite made them 0644. */
	mode_t old = umask(022);
	tchessd_start_logged(&d, NO_RATE_LIMITS, "info");
	umask(old);
	char tok[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1], path[300];
	register_player(&d, "alice", tok);
	create_game(&d, tok, game);
	snprintf(path, sizeof path, "%s/t.db", d.dir);
	expect_private(path);
	snprintf(path, sizeof path, "%s/t.db-wal", d.dir);
	expect_private(path);
	ck_assert_int_eq(kill(d.pid, SIGUSR1), 0);
	snprintf(path, sizeof path, "%s/tchessd.log", d.dir);
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		char *log = file_slurp(path);
		bool done = strstr(log, "backup: wrote") != NULL;
		free(log);
		if (done)
			break;
		ck_assert_msg(mono_ms() < deadline, "no backup within 10 s");
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	snprintf(path, sizeof path, "%s/t.db.backup", d.dir);
	expect_private(path);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_invite_games_unlisted)
{
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS);
	char tok[PROTOCOL_TOKEN_MAX + 1], open_id[PROTOCOL_GAME_ID_MAX + 1], invite_id[PROTOCOL_GAME_ID_MAX + 1];
	char *out;
	register_player(&d, "alice", tok);
	create_game(&d, tok, open_id);
	create_game_with(&d, tok, "{\"tc\":\"5+3\",\"opponent\":\"invite\"}", invite_id);
	ck_assert_int_eq(http_call(&d, "GET", "/v1/games", NULL, NULL, 0, &out), 200);
	ck_assert_msg(strstr(out, open_id), "the open game is listed: %s", out);
	ck_assert_msg(!strstr(out, invite_id), "the invite-only game is listed: %s", out);
	free(out);
	/* Its creator still finds it among their games. */
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me/games", tok, NULL, 0, &out), 200);
	ck_assert_msg(strstr(out, invite_id), "%s", out);
	free(out);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 12 (and issue 18 item 1): a retry is the same command while
 * its effect still stands ---- */

static const char *status_of(struct table *t, char *buf, size_t size)
{
	cJSON *s = table_snapshot(t, NULL);
	snprintf(buf, size, "%s", jstr(s, "status"));
	cJSON_Delete(s);
	return buf;
}

static bool draw_offered(struct table *t)
{
	cJSON *s = table_snapshot(t, NULL);
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "offers"), "draw");
	bool offered = cJSON_IsString(d);
	cJSON_Delete(s);
	return offered;
}

START_TEST(test_same_command_twice_in_a_ply)
{
	struct table t;
	char st[32];
	table_open(&t, NO_RATE_LIMITS, "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	/* Offer, decline, offer again, decline again: the second decline
	 * was answered {"events":[]} and the offer stood. */
	for (int round = 0; round < 2; round++) {
		ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":2,\"action\":\"offer\"}"), 1);
		ck_assert(draw_offered(&t));
		ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 1);
		ck_assert_msg(!draw_offered(&t), "round %d: the offer still stands after its decline", round);
		/* A true retry of the decline is still answered without effect. */
		ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 0);
	}
	/* The same for abort requests. */
	for (int round = 0; round < 2; round++) {
		ck_assert_uint_eq(table_ok(&t, "abort", t.alice, "{\"ply\":2,\"action\":\"request\"}"), 1);
		ck_assert_uint_eq(table_ok(&t, "abort", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 1);
	}
	ck_assert_str_eq(status_of(&t, st, sizeof st), "playing");
	table_close(&t);

	/* Adjourned by a disconnect, resumed by consent, adjourned again at
	 * the same ply (issue 18, item 1): Black's second accept was dropped
	 * as a retry of the first and the game stayed adjourned. */
	table_open(&t, NO_RATE_LIMITS "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1000\n",
		   "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	for (int round = 0; round < 2; round++) {
		/* Black stays (a parked poll); White says nothing. */
		struct poll_req p;
		cJSON *snap = table_snapshot(&t, NULL);
		poll_start(&p, &t.d, t.game, jint(snap, "seq"), t.bob);
		cJSON_Delete(snap);
		poll_wait_parked(&p, &t.d, 1);
		cJSON_Delete(table_wait_event(&t, "game-adjourned"));
		poll_fini(&p);
		ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":1}"), 1);
		ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":1,\"action\":\"accept\"}"), 1);
		ck_assert_msg(!strcmp(status_of(&t, st, sizeof st), "playing"), "round %d: %s", round, st);
		/* The same accept again is a retry while the game runs. */
		ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":1,\"action\":\"accept\"}"), 0);
	}
	table_close(&t);
}
END_TEST

/* ---- item 15: a read-only store's refusals are retried with backoff ---- */

static int count_in_log(struct tchessd *d, const char *needle)
{
	char path[300];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	char *log = file_slurp(path);
	int n = 0;
	for (const char *p = log; (p = strstr(p, needle)); p++)
		n++;
	free(log);
	return n;
}

START_TEST(test_read_only_timer_backs_off)
{
	struct tchessd d;
	tchessd_start_logged(&d, NO_RATE_LIMITS, "info");
	char ta[PROTOCOL_TOKEN_MAX + 1], tb[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1], path[300];
	register_player(&d, "alice", ta);
	register_player(&d, "bob", tb);
	create_game_with(&d, ta, "{\"tc\":\"3s+0\",\"color\":\"white\"}", game);
	join_game(&d, game, tb);
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	const char *mv0 = "{\"ply\":0,\"move\":\"e4\"}", *mv1 = "{\"ply\":1,\"move\":\"e5\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, ta, mv0, strlen(mv0), NULL), 200);
	ck_assert_int_eq(http_call(&d, "POST", path, tb, mv1, strlen(mv1), NULL), 200);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	/* White's clock cannot resume while the store refuses to record it
	 * (item 14: it stands still until then), and the timer tries again. */
	snprintf(path, sizeof path, "%s/tchessd.conf", d.dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "engine_processes = 0\n" NO_RATE_LIMITS "read_only = true\n");
	fclose(f);
	tchessd_restart(&d);
	int64_t deadline = mono_ms() + 15000;
	while (!count_in_log(&d, "cannot resume the clock")) {
		ck_assert_msg(mono_ms() < deadline, "the resumption was never tried");
		struct timespec ts = { 0, 50 * 1000000 };
		nanosleep(&ts, NULL);
	}
	/* 6.5 s from the first try: tries at 1, 3 (then 7) s with the
	 * backoff; one a second (seven) without, ~100 a second before the
	 * heap timer. */
	struct timespec window = { 6, 500 * 1000000 };
	nanosleep(&window, NULL);
	int tries = count_in_log(&d, "cannot resume the clock");
	ck_assert_msg(tries <= 4, "%d tries in 6.5 s", tries);
	ck_assert(healthy(&d));
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 14: no clock runs before what starts it is recorded ---- */

START_TEST(test_clock_held_until_resumed)
{
	if (tchessd_postgresql()) {
		fprintf(stderr, "test_clock_held_until_resumed: not on PostgreSQL (the disk is the cluster's)\n");
		return;
	}
	struct table t;
	/* Nobody is gone for the two minutes the test clock skips. */
	table_open(&t, "test_clock = on\ndisconnect_grace_ms = 3600000\n" NO_RATE_LIMITS, "\"tc\":\"1+0\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	ck_assert_int_eq(tchessd_stop(&t.d), 0);
	/* The restart cannot record its clock-resumed: the disk is full.
	 * White's minute passes twice meanwhile; a command is refused. */
	tchessd_restart_disk_full(&t.d);
	char body[64];
	snprintf(body, sizeof body, "{\"advance_ms\":%d}", 120000);
	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/test/clock", NULL, body, strlen(body), NULL), 200);
	table_refused(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}", 503, NULL);
	/* Space returns. White's clock stood still until its resumption was
	 * recorded: White moves (before, the flag fell: 409, 1-0 on time to
	 * Black, charged the two minutes of a full disk). */
	struct rlimit room = { RLIM_INFINITY, RLIM_INFINITY };
	ck_assert_int_eq(prlimit(t.d.pid, RLIMIT_FSIZE, &room, NULL), 0);
	char *out;
	long st = table_command(&t, "POST", "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}", &out);
	ck_assert_msg(st == 200, "Nf3: %ld %s", st, out);
	free(out);
	cJSON *snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "status"), "playing");
	int64_t white_ms = jint(jobj(snap, "clock"), "white_ms");
	ck_assert_msg(white_ms > 50000, "White was charged %lld ms", (long long)(60000 - white_ms));
	cJSON_Delete(snap);
	/* The log holds the resumption, after the last move before the stop. */
	cJSON_Delete(table_wait_event(&t, "clock-resumed"));
	table_close(&t);
}
END_TEST

/* ---- item 13: a poll parked under a token rotated meanwhile ---- */

START_TEST(test_rotated_token_poll_leaves)
{
	/* Chessgamble: a seat gone is a presence event, and the game goes on. */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1000\n" NO_RATE_LIMITS,
		   "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	cJSON *snap = table_snapshot(&t, NULL);
	t.seq = jint(snap, "seq");
	cJSON_Delete(snap);
	struct poll_req p;
	poll_start(&p, &t.d, t.game, t.seq, t.alice);
	poll_wait_parked(&p, &t.d, 1);
	/* Alice replaces her token while her poll is parked; Black's move
	 * wakes it, and the old token is unknown now. */
	char *out;
	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/me/token", t.alice, "{}", 2, &out), 200);
	free(out);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&p, 100))
		ck_assert_msg(mono_ms() < deadline, "the parked poll never came back");
	ck_assert_int_eq(p.status, 401);
	poll_fini(&p);
	/* Her poll came back: White is gone after the grace (before, the
	 * seat counted that poll as parked forever: never gone, and the game
	 * never left memory). */
	for (;;) {
		cJSON *e = table_wait_event(&t, "presence");
		bool white = !strcmp(jstr(e, "color"), "white");
		cJSON_Delete(e);
		if (white)
			break;
	}
	table_close(&t);
}
END_TEST

/* ---- item 16: what a viewer sees does not depend on others' private events ---- */

static int64_t snapshot_seq(struct table *t, const char *token)
{
	cJSON *s = table_snapshot(t, token);
	int64_t seq = jint(s, "seq");
	cJSON_Delete(s);
	return seq;
}

START_TEST(test_private_events_unseen)
{
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\n" NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	int64_t s = snapshot_seq(&t, NULL);
	struct poll_req p;
	poll_start(&p, &t.d, t.game, s, t.bob);
	poll_wait_parked(&p, &t.d, 1);
	/* White queues a premove (private to her). Black's counter and a
	 * spectator's stay where they were, and Black's parked poll is not
	 * answered for it (before: at once, {"events":[]} with seq s + 1). */
	char *out;
	ck_assert_int_eq(table_command(&t, "PUT", "premoves", t.alice, "{\"ply\":1,\"moves\":[\"g1f3\"]}", &out),
			 200);
	free(out);
	ck_assert_int_eq(snapshot_seq(&t, t.alice), s + 1);
	ck_assert_int_eq(snapshot_seq(&t, NULL), s);
	ck_assert_int_eq(snapshot_seq(&t, t.bob), s);
	/* Black's move answers his poll with it, and White's premove played
	 * after it; his command's own answer has no other counter either. */
	ck_assert_uint_ge(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&p, 100))
		ck_assert_msg(mono_ms() < deadline, "Black's poll never came back");
	ck_assert_int_eq(p.status, 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(p.body.data, p.body.len, &evs, &err), 0);
	ck_assert_msg(evs.n >= 1 && !strcmp(evs.events[0].type, "move"), "Black's poll: %.300s", p.body.data);
	protocol_events_fini(&evs);
	poll_fini(&p);
	/* Black and a spectator see the same events, so the same counter. */
	ck_assert_int_eq(snapshot_seq(&t, t.bob), snapshot_seq(&t, NULL));
	ck_assert_int_ge(snapshot_seq(&t, t.alice), snapshot_seq(&t, NULL));
	table_close(&t);
}
END_TEST

/* ---- item 1: notes bounded, and every events answer paged ---- */

/* A note of n bytes (the most is PROTOCOL_NOTE_MAX). */
static long post_note(struct table *t, const char *token, int i, size_t n)
{
	char text[PROTOCOL_NOTE_MAX + 1], body[PROTOCOL_NOTE_MAX + 32];
	memset(text, 'a' + i % 26, n);
	text[n] = '\0';
	snprintf(body, sizeof body, "{\"text\":\"%s\"}", text);
	return table_command(t, "POST", "notes", token, body, NULL);
}

START_TEST(test_notes_bounded)
{
	/* Small limits, the attack's shape: two players fill a game with
	 * notes, then anyone reads its log from 0. */
	struct table t;
	table_open(&t, NO_RATE_LIMITS "notes_per_game = 70\nnotes_per_player = 30\nanswer_bytes = 16384\n",
		   "\"tc\":\"5+3\"");
	for (int i = 0; i < 30; i++) {
		ck_assert_int_eq(post_note(&t, t.alice, i, PROTOCOL_NOTE_MAX), 201);
		ck_assert_int_eq(post_note(&t, t.bob, i, PROTOCOL_NOTE_MAX), 201);
	}
	/* A player's own notes while the game runs: notes_per_player. */
	table_refused(&t, "notes", t.alice, "{\"text\":\"one more\"}", 409, "notes_per_player");
	ck_assert_uint_eq(table_ok(&t, "resign", t.alice, "{}"), 2); /* game-ended, notes-revealed */
	/* After the end every note is public and the game's count holds. */
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(post_note(&t, t.bob, i, PROTOCOL_NOTE_MAX), 201);
	table_refused(&t, "notes", t.alice, "{\"text\":\"one more\"}", 409, "notes_per_game");
	/* A spectator reads the log from 0: every answer holds at most
	 * answer_bytes of events and one more (which alone may be larger: the
	 * notes-revealed one, 60 notes), never the whole log in one (before: one resync answer of the 10 public notes and the
	 * event listing the 60 others, 70 KB). Every note arrives. */
	int64_t after = 0, last = snapshot_seq(&t, NULL);
	int notes = 0, revealed = 0, answers = 0;
	while (after < last) {
		char path[160], *out;
		snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", t.game, (long long)after);
		ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, &out), 200);
		struct protocol_events evs;
		struct protocol_error err;
		ck_assert_int_eq(protocol_events_decode(out, strlen(out), &evs, &err), 0);
		size_t len = 0;
		for (size_t i = 0; i < evs.n; i++) {
			len = strlen(evs.events[i].data);
			notes += !strcmp(evs.events[i].type, "note");
			if (!strcmp(evs.events[i].type, "notes-revealed")) {
				struct protocol_revealed_note *list;
				size_t n;
				ck_assert_int_eq(protocol_notes_revealed_decode(evs.events[i].data, len, &list, &n, &err), 0);
				revealed += (int)n;
				free(list);
			}
		}
		/* The events before the last fit in the budget. */
		ck_assert_msg(strlen(out) - len <= 16384 + 2048, "an answer of %zu bytes (%zu events%s)", strlen(out),
			      evs.n, evs.resync ? ", resync" : "");
		free(out);
		answers++;
		ck_assert_int_gt(evs.seq, after);
		after = evs.seq;
		protocol_events_fini(&evs);
	}
	/* The 10 written after the end; the 60 of the game in the one
	 * notes-revealed event. */
	ck_assert_int_eq(notes, 10);
	ck_assert_int_eq(revealed, 60);
	ck_assert_int_ge(answers, 3);
	ck_assert(healthy(&t.d));
	table_close(&t);
}
END_TEST

/* The longest the server lock was held by one access-log line's request
 * (method and path: "GET /v1/games/ID/events"), and the shortest such
 * request took, from d's log; fails if none is there. */
static void lock_held(const struct tchessd *d, const char *request, int64_t *lock_us, int64_t *took_ms)
{
	char path[300], needle[200];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	snprintf(needle, sizeof needle, " %s 200 ", request);
	char *log = file_slurp(path);
	*lock_us = -1;
	*took_ms = INT64_MAX;
	for (const char *p = strstr(log, needle); p; p = strstr(p + 1, needle)) {
		long long ms, us;
		ck_assert_msg(sscanf(p + strlen(needle), "%lldms, lock %lldus", &ms, &us) == 2, "%.120s", p);
		*lock_us = us > *lock_us ? us : *lock_us;
		*took_ms = ms < *took_ms ? ms : *took_ms;
	}
	free(log);
	ck_assert_msg(*lock_us >= 0, "no %s in the log", request);
}

START_TEST(test_answers_encoded_unlocked)
{
	/* Encoding a read's answer takes 1.5 s here (a testing aid standing
	 * for a large one): a snapshot, a resync and a page of stored events,
	 * each as a viewer with a numbering of its own, since what reads the
	 * live game -- their numbering of the events -- is resolved under the
	 * lock. The server lock is held for none of those 1.5 s (before: all
	 * of them, with every other thread waiting). */
	struct table t;
	memset(&t, 0, sizeof t);
	tchessd_start_logged(&t.d, NO_RATE_LIMITS "test_answer_delay_ms = 1500\nnotes_per_player = 80\n", "info");
	t.a = register_player(&t.d, "alice", t.alice);
	t.b = register_player(&t.d, "bob", t.bob);
	create_game_with(&t.d, t.alice, "{\"color\":\"white\",\"tc\":\"5+3\"}", t.game);
	join_game(&t.d, t.game, t.bob);
	/* Alice's 70 private notes: she sees more than the ring holds, a
	 * spectator far fewer. */
	for (int i = 0; i < 70; i++)
		ck_assert_int_eq(post_note(&t, t.alice, i, 200), 201);
	ck_assert_uint_eq(table_ok(&t, "resign", t.bob, "{}"), 2);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(post_note(&t, t.bob, i, 200), 201);
	char path[160], *out;
	struct protocol_events evs;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t.game);
	/* Alice: a resync answer, her events numbered without a gap. */
	ck_assert_int_eq(http_call(&t.d, "GET", path, t.alice, NULL, 0, &out), 200);
	ck_assert_msg(protocol_events_decode(out, strlen(out), &evs, &err) == 0, "%s", err.message);
	ck_assert(evs.resync);
	ck_assert_uint_ge(evs.n, 75); /* her notes and bob's (the snapshot holds no note) */
	cJSON *snap = cJSON_Parse(evs.snapshot);
	ck_assert_int_eq(evs.seq, jint(snap, "seq"));
	cJSON_Delete(snap);
	int64_t alice_seq = evs.seq;
	protocol_events_fini(&evs);
	free(out);
	/* A spectator: a page of the stored events, numbered 1, 2, 3... */
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, &out), 200);
	ck_assert_msg(protocol_events_decode(out, strlen(out), &evs, &err) == 0, "%s", err.message);
	ck_assert(!evs.resync);
	ck_assert_uint_ge(evs.n, 8);
	for (size_t i = 0; i < evs.n; i++)
		ck_assert_int_eq(evs.events[i].seq, (int64_t)i + 1);
	ck_assert_int_eq(evs.seq, (int64_t)evs.n);
	ck_assert_int_lt(evs.seq, alice_seq - 60);
	protocol_events_fini(&evs);
	free(out);
	/* Alice's snapshot, at her seq. */
	ck_assert_int_eq(snapshot_seq(&t, t.alice), alice_seq);
	ck_assert_int_eq(tchessd_stop(&t.d), 0);
	for (int i = 0; i < 2; i++) {
		char request[160];
		snprintf(request, sizeof request, "GET /v1/games/%s%s", t.game, i ? "" : "/events");
		int64_t lock_us, took_ms;
		lock_held(&t.d, request, &lock_us, &took_ms);
		ck_assert_msg(took_ms >= 1500, "%s took %lld ms: its answer was not encoded", request, (long long)took_ms);
		ck_assert_msg(lock_us < 500 * 1000, "%s held the lock for %lld us", request, (long long)lock_us);
	}
	tchessd_cleanup(&t.d);
}
END_TEST

/* ---- item 5: reading a game out of memory does not bring it back ---- */

static int64_t live_games(struct tchessd *d)
{
	char *body;
	ck_assert_int_eq(http_call(d, "GET", "/v1/health", NULL, NULL, 0, &body), 200);
	cJSON *h = cJSON_Parse(body);
	free(body);
	int64_t n = jint(h, "games");
	cJSON_Delete(h);
	return n;
}

START_TEST(test_cold_reads_unpinned)
{
	struct table t;
	table_open(&t, NO_RATE_LIMITS "evict_idle_s = 1\ncold_games = 2\n", "\"tc\":\"5+3\"");
	ck_assert_uint_ge(table_ok(&t, "resign", t.alice, "{}"), 1);
	/* Finished, with nothing due: it leaves memory after a second idle. */
	int64_t deadline = mono_ms() + 10000;
	while (live_games(&t.d) != 0) {
		ck_assert_msg(mono_ms() < deadline, "the finished game never left memory");
		struct timespec ts = { 0, 50 * 1000000 };
		nanosleep(&ts, NULL);
	}
	/* Anyone reads it, and its players too: served, and not brought back
	 * into memory (before: replayed and kept for evict_idle_s, so a
	 * crawler of old games pinned them all). */
	char path[160], *out;
	const char *what[] = { "", "/events?after=0", "/pgn" };
	const char *who[] = { NULL, t.carol, t.alice };
	for (int w = 0; w < 3; w++) {
		for (int k = 0; k < 3; k++) {
			snprintf(path, sizeof path, "/v1/games/%s%s", t.game, what[k]);
			ck_assert_int_eq(http_call(&t.d, "GET", path, who[w], NULL, 0, &out), 200);
			if (k == 2)
				ck_assert_ptr_nonnull(strstr(out, "[Result \"0-1\"]"));
			free(out);
		}
	}
	ck_assert_int_eq(live_games(&t.d), 0);
	cJSON *snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "result"), "0-1");
	cJSON_Delete(snap);
	/* A command on it still brings it back (and its cold copy goes). */
	table_refused(&t, "resign", t.bob, "{}", 409, NULL);
	ck_assert_int_eq(live_games(&t.d), 1);
	table_close(&t);
}
END_TEST

/* ---- item 4: registrations per address ---- */

START_TEST(test_registrations_limited)
{
	/* Loopback is not exempt here: it stands for one Internet address. */
	struct tchessd d;
	tchessd_start(&d, "rate_exempt =\nregister_per_hour = 3\n");
	char tok[PROTOCOL_TOKEN_MAX + 1];
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof name, "free%d", i);
		register_player(&d, name, tok);
	}
	/* The fourth account from the address waits (before: 1,000 free
	 * accounts in seconds); what else it does is not charged. */
	char *out;
	const char *body = "{\"name\":\"free3\"}";
	ck_assert_int_eq(http_call(&d, "POST", "/v1/players", NULL, body, strlen(body), &out), 429);
	ck_assert_ptr_nonnull(strstr(out, "registrations"));
	free(out);
	ck_assert(healthy(&d));
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me", tok, NULL, 0, NULL), 200);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 4: open seeks lapse ---- */

/* Whether GET /v1/games lists id as open (a seek the home screen offers). */
static bool listed(struct tchessd *d, const char *id)
{
	char *out;
	ck_assert_int_eq(http_call(d, "GET", "/v1/games", NULL, NULL, 0, &out), 200);
	cJSON *l = cJSON_Parse(out);
	free(out);
	bool open = false;
	const cJSON *g;
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(l, "games"))
		open |= !strcmp(jstr(g, "id"), id) && !strcmp(jstr(g, "status"), "open");
	cJSON_Delete(l);
	return open;
}

/* Waits (10 s at most) for game id to end; returns its reason. */
static void wait_ended(struct tchessd *d, const char *id, const char *reason)
{
	char path[96], *out;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", id);
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		ck_assert_int_eq(http_call(d, "GET", path, NULL, NULL, 0, &out), 200);
		bool ended = strstr(out, "\"game-ended\"") != NULL;
		if (ended)
			ck_assert_msg(strstr(out, reason), "ended otherwise: %s", out);
		free(out);
		if (ended)
			return;
		ck_assert_msg(mono_ms() < deadline, "game %s never ended", id);
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
}

START_TEST(test_seeks_lapse)
{
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "test_clock = on\nseek_grace_ms = 60000\nseek_max_age_ms = 600000\n");
	char tok[PROTOCOL_TOKEN_MAX + 1], left[PROTOCOL_GAME_ID_MAX + 1], stays[PROTOCOL_GAME_ID_MAX + 1];
	char cg[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", tok);
	create_game(&d, tok, left);
	create_game(&d, tok, stays);
	/* chessgamble has no abort, but a seek nobody joined is no game. */
	create_game_with(&d, tok, "{\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"}", cg);
	char path[96];
	snprintf(path, sizeof path, "/v1/games/%s", stays);
	/* Within the grace both stand. */
	tchessd_advance(&d, 30000);
	ck_assert_int_eq(http_call(&d, "GET", path, tok, NULL, 0, NULL), 200);
	ck_assert(listed(&d, left) && listed(&d, stays));
	/* Its creator not seen past the grace: the first seek lapses (before:
	 * listed for ever), the one she keeps asking about stays. */
	tchessd_advance(&d, 40000);
	wait_ended(&d, left, "seek-expired");
	wait_ended(&d, cg, "seek-expired");
	ck_assert(!listed(&d, left));
	ck_assert(!listed(&d, cg));
	ck_assert(listed(&d, stays));
	/* Seen all along, it still lapses at its maximum age. */
	for (int i = 0; i < 11; i++) {
		ck_assert_int_eq(http_call(&d, "GET", path, tok, NULL, 0, NULL), 200);
		tchessd_advance(&d, 50000);
	}
	wait_ended(&d, stays, "seek-expired");
	ck_assert(!listed(&d, stays));
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_seek_creator_hung_up)
{
	/* A seek's creator whose tchess dies (kill -9, a network gone: its
	 * socket reset here) parks no poll any more from the moment tchessd
	 * sees the socket closed, within a second, so the seek lapses
	 * seek_grace_ms later (before: only once the poll timed out, 20 s
	 * here). The seek whose creator's poll stays parked stays. */
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "seek_grace_ms = 2000\npoll_timeout_ms = 20000\n");
	char tok[PROTOCOL_TOKEN_MAX + 1], left[PROTOCOL_GAME_ID_MAX + 1], stays[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", tok);
	create_game(&d, tok, left);
	create_game(&d, tok, stays);
	struct poll_req p;
	poll_start(&p, &d, stays, 1, tok);
	poll_wait_parked(&p, &d, 1);
	int fd = raw_park(&d, left, 1, tok);
	raw_hang_up(fd);
	int64_t hung_up = mono_ms();
	wait_ended(&d, left, "seek-expired");
	int64_t lapsed = mono_ms() - hung_up;
	ck_assert_msg(lapsed < 5000, "the seek lapsed %lld ms after its creator hung up", (long long)lapsed);
	ck_assert(!listed(&d, left));
	ck_assert(listed(&d, stays));
	ck_assert_int_eq(parked_polls(&d), 1);
	poll_fini(&p);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_open_games_bounded)
{
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "open_games_per_player = 3\n");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], id[PROTOCOL_GAME_ID_MAX + 1];
	char first[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&d, "alice", alice);
	register_player(&d, "bob", bob);
	create_game(&d, alice, first);
	create_game(&d, alice, id);
	create_game_with(&d, alice, "{\"tc\":\"5+3\",\"opponent\":\"invite\"}", id);
	/* A fourth waiting game is refused with the reason (before: 10,000
	 * open games from 1,000 accounts), and nothing is created. */
	char *out;
	const char *seek = "{\"tc\":\"5+3\"}";
	ck_assert_int_eq(http_call(&d, "POST", "/v1/games", alice, seek, strlen(seek), &out), 409);
	cJSON *e = cJSON_Parse(out);
	ck_assert_str_eq(jstr(e, "error"), "conflict");
	ck_assert_ptr_nonnull(strstr(jstr(e, "message"), "open_games_per_player"));
	cJSON_Delete(e);
	free(out);
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me/games", alice, NULL, 0, &out), 200);
	cJSON *l = cJSON_Parse(out);
	free(out);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(l, "games")), 3);
	cJSON_Delete(l);
	/* Another player is not charged; a seek taken frees a place. */
	create_game(&d, bob, id);
	join_game(&d, first, bob);
	create_game(&d, alice, id);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- item 4: per-game event churn ---- */

/* Alice sets her premove four times on Bob's move at ply, then once more:
 * refused (before: every replacement one more event, without end), as is
 * a draw offer. */
static void churn4(struct table *t, int ply, const char *a, const char *b)
{
	char body[96];
	for (int i = 0; i < 4; i++) {
		snprintf(body, sizeof body, "{\"ply\":%d,\"moves\":[\"%s\"]}", ply, i % 2 ? b : a);
		ck_assert_int_eq(table_command(t, "PUT", "premoves", t->alice, body, NULL), 200);
	}
	cJSON *snap = table_snapshot(t, t->alice);
	int64_t seq = jint(snap, "seq");
	cJSON_Delete(snap);
	char *out;
	ck_assert_int_eq(table_command(t, "PUT", "premoves", t->alice, body, &out), 429);
	ck_assert_ptr_nonnull(strstr(out, "events_per_ply"));
	free(out);
	snprintf(body, sizeof body, "{\"ply\":%d,\"action\":\"offer\"}", ply);
	table_refused(t, "draw", t->alice, body, 429, "events_per_ply");
	/* Nothing refused was written. */
	snap = table_snapshot(t, t->alice);
	ck_assert_int_eq(jint(snap, "seq"), seq);
	cJSON_Delete(snap);
}

START_TEST(test_event_churn_bounded)
{
	struct table t;
	table_open(&t, NO_RATE_LIMITS "events_per_ply = 4\n", "\"tc\":\"5+3\"");
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	churn4(&t, 1, "d2d4", "g1f3");
	/* A move is never held back (her premove g1f3 is played after it),
	 * and starts the count again. */
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	churn4(&t, 3, "d2d4", "f1c4");
	/* The other seat is not charged, and what ends the game never is. */
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":3,\"action\":\"offer\"}"), 1);
	table_ok(&t, "draw", t.alice, "{\"ply\":3,\"action\":\"accept\"}");
	cJSON *snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "result"), "1/2-1/2");
	cJSON_Delete(snap);
	table_close(&t);
}
END_TEST

/* The game's seq as token sees it (NULL: a spectator). */
static int64_t table_seq(struct table *t, const char *token)
{
	cJSON *snap = table_snapshot(t, token);
	int64_t seq = jint(snap, "seq");
	cJSON_Delete(snap);
	return seq;
}

START_TEST(test_offer_churn_bounded)
{
	/* Yourpot, where an offer is made on one's own move and stands until
	 * withdrawn: offer, withdraw, offer, withdraw is the limit of one ply;
	 * the fifth is refused (429, naming events_per_ply) and writes
	 * nothing, for a draw as for an adjournment. */
	struct table t;
	table_open(&t, NO_RATE_LIMITS "events_per_ply = 4\n", "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"offer\"}"), 1);
		ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"withdraw\"}"), 1);
	}
	int64_t seq = table_seq(&t, t.bob);
	table_refused(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"offer\"}", 429, "events_per_ply");
	table_refused(&t, "adjourn", t.bob, "{\"ply\":1,\"action\":\"request\"}", 429, "events_per_ply");
	ck_assert_int_eq(table_seq(&t, t.bob), seq);
	/* Her move starts his count again. */
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}");
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":3,\"action\":\"offer\"}"), 1);
	table_close(&t);
}
END_TEST

START_TEST(test_claim_churn_bounded)
{
	/* A failed tablebase claim writes an event (the opponent's time
	 * bonus; its retry in the ply is a no-op) and counts with the offers
	 * of the ply: claim, offer, withdraw, offer, and the next withdrawal
	 * is refused (429). Yourpot, KQvK claimed by the lone king. */
	if (access(TABLEBASE_DEBIAN_GAVIOTA_DIR "/kpk.gtb.cp4", R_OK)) {
		fprintf(stderr, "skipped: Debian's gaviotatb tables are not installed\n");
		return;
	}
	struct table t;
	table_open(&t, NO_RATE_LIMITS "events_per_ply = 4\ntablebases = gaviota:" TABLEBASE_DEBIAN_GAVIOTA_DIR "\n",
		   "\"tc\":\"5+0\",\"ruleset\":\"yourpot\",\"fen\":\"k7/8/8/8/8/8/8/KQ6 b - - 0 1\"");
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":0,\"claim\":\"tablebase\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":0,\"claim\":\"tablebase\"}"), 0);
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"withdraw\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	int64_t seq = table_seq(&t, t.bob);
	table_refused(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"withdraw\"}", 429, "events_per_ply");
	ck_assert_int_eq(table_seq(&t, t.bob), seq);
	table_close(&t);

	/* A claim the rules refuse writes nothing (422), however often: the
	 * seat's run of invalid commands bounds it instead -- past the
	 * ruleset's limit (10) the seat forfeits. */
	table_open(&t, NO_RATE_LIMITS "events_per_ply = 4\n", "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	seq = table_seq(&t, NULL);
	for (int i = 0; i < 10; i++)
		table_refused(&t, "claim", t.alice, "{\"ply\":0,\"claim\":\"threefold\"}", 422, "no threefold");
	ck_assert_int_eq(table_seq(&t, NULL), seq);
	table_refused(&t, "claim", t.alice, "{\"ply\":0,\"claim\":\"threefold\"}", 422, "no threefold");
	cJSON *snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(snap, "result"), "0-1");
	cJSON_Delete(snap);
	table_close(&t);
}
END_TEST

START_TEST(test_takeback_churn_bounded)
{
	/* An undo game: a provisional move and its take-back are two events;
	 * two such cycles are the limit of one ply, the next provisional move
	 * is refused (429) and writes nothing; "done" then plays a move and
	 * the count starts again. */
	struct table t;
	table_open(&t, NO_RATE_LIMITS "events_per_ply = 4\n", "\"tc\":\"5+3\",\"undo\":true");
	const char *moves[] = { "{\"ply\":0,\"move\":\"e4\"}", "{\"ply\":0,\"move\":\"d4\"}" };
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(table_ok(&t, "moves", t.alice, moves[i]), 1);
		ck_assert_uint_eq(table_ok(&t, "takeback", t.alice, "{\"ply\":0}"), 1);
	}
	int64_t seq = table_seq(&t, t.alice);
	table_refused(&t, "moves", t.alice, moves[0], 429, "events_per_ply");
	ck_assert_int_eq(table_seq(&t, t.alice), seq);
	table_close(&t);
}
END_TEST

/* token's events after `after` (NULL: a spectator), one answer, as "seq
 * type" lines into out: each numbered on from after with no gap, the
 * answer's seq the last one's (issue 12 item 16). Returns that seq. There
 * must be events after `after` (else the poll parks). */
static int64_t events_dense(struct table *t, const char *token, int64_t after, char *out, size_t cap)
{
	char path[160], *body;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", t->game, (long long)after);
	ck_assert_int_eq(http_call(&t->d, "GET", path, token, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(body, strlen(body), &evs, &err) == 0, "%s", err.message);
	ck_assert_msg(!evs.resync, "a resync answer: %.200s", body);
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < evs.n; i++) {
		ck_assert_msg(evs.events[i].seq == after + (int64_t)i + 1, "%s after %lld: a gap at event %zu: %.600s",
			      token ? "a player" : "a spectator", (long long)after, i, body);
		int n = snprintf(out + len, cap - len, "%lld %s\n", (long long)evs.events[i].seq, evs.events[i].type);
		ck_assert(n > 0 && (size_t)n < cap - len);
		len += (size_t)n;
	}
	ck_assert_msg(evs.seq == after + (int64_t)evs.n, "answer seq %lld after %zu events from %lld", (long long)evs.seq,
		      evs.n, (long long)after);
	int64_t seq = evs.seq;
	protocol_events_fini(&evs);
	free(body);
	return seq;
}

/* The seqs a notes-revealed event (the last one token sees) gives its
 * notes, into seqs (at most 8); returns how many. */
static size_t revealed_seqs(struct table *t, const char *token, int64_t after, int64_t *seqs)
{
	char path[160], *body;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", t->game, (long long)after);
	ck_assert_int_eq(http_call(&t->d, "GET", path, token, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(body, strlen(body), &evs, &err), 0);
	ck_assert_uint_ge(evs.n, 1);
	const struct protocol_event *e = &evs.events[evs.n - 1];
	ck_assert_str_eq(e->type, "notes-revealed");
	struct protocol_revealed_note *notes;
	size_t n;
	ck_assert_int_eq(protocol_notes_revealed_decode(e->data, strlen(e->data), &notes, &n, &err), 0);
	ck_assert_uint_le(n, 8);
	for (size_t i = 0; i < n; i++)
		seqs[i] = notes[i].seq;
	free(notes);
	protocol_events_fini(&evs);
	free(body);
	return n;
}

START_TEST(test_viewer_numbers_dense)
{
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\n" NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}"), 1);
	int64_t w0 = snapshot_seq(&t, t.alice), s0 = snapshot_seq(&t, NULL);
	ck_assert_int_eq(w0, 5); /* created, joined, started, e4, e5 */
	ck_assert_int_eq(s0, 5);
	/* White waits for Black's move; Black queues a premove, replaces it
	 * and writes two notes, all private to him. */
	struct poll_req p;
	poll_start(&p, &t.d, t.game, w0, t.alice);
	poll_wait_parked(&p, &t.d, 1);
	char *out;
	ck_assert_int_eq(table_command(&t, "PUT", "premoves", t.bob, "{\"ply\":2,\"moves\":[\"g8f6\"]}", &out), 200);
	free(out);
	ck_assert_int_eq(table_command(&t, "PUT", "premoves", t.bob, "{\"ply\":2,\"moves\":[\"b8c6\"]}", &out), 200);
	free(out);
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.bob, "{\"text\":\"she will play Nf3\"}", &out), 201);
	free(out);
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.bob, "{\"text\":\"then Nc6\"}", &out), 201);
	free(out);
	/* Nobody else's counter moved; Black's own counts his four. */
	ck_assert_int_eq(snapshot_seq(&t, t.alice), w0);
	ck_assert_int_eq(snapshot_seq(&t, NULL), s0);
	ck_assert_int_eq(snapshot_seq(&t, t.carol), s0);
	ck_assert_int_eq(snapshot_seq(&t, t.bob), s0 + 4);
	ck_assert_msg(!poll_run(&p, 300), "White's poll was answered by Black's private events: %.300s", p.body.data);
	/* White's move answers her poll with it and Black's premove played
	 * after it, numbered on from her 5: 6, 7 (before: the log's 10, 11). */
	ck_assert_uint_eq(table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}"), 2);
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&p, 100))
		ck_assert_msg(mono_ms() < deadline, "White's poll never came back");
	ck_assert_int_eq(p.status, 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(p.body.data, p.body.len, &evs, &err), 0);
	ck_assert_uint_eq(evs.n, 2);
	ck_assert_int_eq(evs.events[0].seq, w0 + 1);
	ck_assert_int_eq(evs.events[1].seq, w0 + 2);
	ck_assert_int_eq(evs.seq, w0 + 2);
	protocol_events_fini(&evs);
	poll_fini(&p);

	/* Each viewer's log from 0 is dense; White's and a spectator's are
	 * the same, so nothing in White's shows Black's private events. */
	static char white[2048], spect[2048], anon[2048], black[2048], more[2048], again[2048];
	int64_t wc = events_dense(&t, t.alice, 0, white, sizeof white);
	int64_t sc = events_dense(&t, t.carol, 0, spect, sizeof spect);
	ck_assert_int_eq(events_dense(&t, NULL, 0, anon, sizeof anon), sc);
	int64_t bc = events_dense(&t, t.bob, 0, black, sizeof black);
	ck_assert_str_eq(white, spect);
	ck_assert_str_eq(anon, spect);
	ck_assert_int_eq(wc, 7);
	ck_assert_int_eq(bc, 11);
	/* The listing's seq is the viewer's too. */
	char path[160], *body;
	struct protocol_game_summary *games;
	size_t n;
	snprintf(path, sizeof path, "/v1/games?prefix=%s", t.game);
	const char *who[] = { NULL, t.alice, t.bob };
	const int64_t want[] = { sc, wc, bc };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(http_call(&t.d, "GET", path, who[i], NULL, 0, &body), 200);
		ck_assert_int_eq(protocol_game_list_decode(body, strlen(body), &games, &n, &err), 0);
		ck_assert_uint_eq(n, 1);
		ck_assert_int_eq(games[0].seq, want[i]);
		free(games);
		free(body);
	}

	/* The end reveals the notes: each viewer resumes from its cursor and
	 * gets the end and the notes-revealed event, numbered on, nothing
	 * lost, nothing twice. */
	ck_assert_uint_eq(table_ok(&t, "resign", t.alice, "{}"), 2);
	const char *viewers[] = { t.alice, t.carol, t.bob };
	char *logs[] = { white, spect, black };
	int64_t cursors[] = { wc, sc, bc };
	for (int i = 0; i < 3; i++) {
		int64_t last = events_dense(&t, viewers[i], cursors[i], more, sizeof more);
		ck_assert_int_eq(last, cursors[i] + 2);
		ck_assert_ptr_nonnull(strstr(more, " game-ended\n"));
		ck_assert_ptr_nonnull(strstr(more, " notes-revealed\n"));
		ck_assert_int_eq(events_dense(&t, viewers[i], 0, again, sizeof again), last);
		ck_assert_uint_eq(strlen(again), strlen(logs[i]) + strlen(more));
		ck_assert(!strncmp(again, logs[i], strlen(logs[i])) && !strcmp(again + strlen(logs[i]), more));
		strcat(logs[i], more);
		cursors[i] = last;
	}
	/* The revealed notes' seqs are each viewer's too: to White and a
	 * spectator, the last event before them they saw (Black's e5, 5); to
	 * Black, his own notes' numbers (8 and 9, after his two premoves). */
	int64_t seqs[8];
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(revealed_seqs(&t, viewers[i], cursors[i] - 1, seqs), 2);
		ck_assert_int_eq(seqs[0], 5);
		ck_assert_int_eq(seqs[1], 5);
	}
	ck_assert_uint_eq(revealed_seqs(&t, t.bob, cursors[2] - 1, seqs), 2);
	ck_assert_int_eq(seqs[0], 8);
	ck_assert_int_eq(seqs[1], 9);

	/* A restart numbers every event as before: each log is the same, and
	 * a resume from one before the last gets the last. */
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&t.d)), 0);
	tchessd_restart(&t.d);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(events_dense(&t, viewers[i], 0, again, sizeof again), cursors[i]);
		ck_assert_str_eq(again, logs[i]);
		ck_assert_int_eq(events_dense(&t, viewers[i], cursors[i] - 1, again, sizeof again), cursors[i]);
		ck_assert_ptr_nonnull(strstr(again, " notes-revealed\n"));
	}
	table_close(&t);
}
END_TEST

static Suite *hardening_suite(void)
{
	Suite *s = suite_create("hardening");
	TCase *tc = tcase_create("hardening");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_header_deadline);
	tcase_add_test(tc, test_log_escapes_client_bytes);
	tcase_add_test(tc, test_strict_framing);
	tcase_add_test(tc, test_user_text_refused);
	tcase_add_test(tc, test_finished_start_refused);
	tcase_add_test(tc, test_private_files);
	tcase_add_test(tc, test_invite_games_unlisted);
	tcase_add_test(tc, test_same_command_twice_in_a_ply);
	tcase_add_test(tc, test_read_only_timer_backs_off);
	tcase_add_test(tc, test_clock_held_until_resumed);
	tcase_add_test(tc, test_rotated_token_poll_leaves);
	tcase_add_test(tc, test_private_events_unseen);
	tcase_add_test(tc, test_viewer_numbers_dense);
	tcase_add_test(tc, test_notes_bounded);
	tcase_add_test(tc, test_answers_encoded_unlocked);
	tcase_add_test(tc, test_cold_reads_unpinned);
	tcase_add_test(tc, test_registrations_limited);
	tcase_add_test(tc, test_seeks_lapse);
	tcase_add_test(tc, test_seek_creator_hung_up);
	tcase_add_test(tc, test_open_games_bounded);
	tcase_add_test(tc, test_event_churn_bounded);
	tcase_add_test(tc, test_offer_churn_bounded);
	tcase_add_test(tc, test_claim_churn_bounded);
	tcase_add_test(tc, test_takeback_churn_bounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hardening_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
