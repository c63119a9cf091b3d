/*
 * Security tests of tchessd (issue "Reliability and security"): every
 * command walked with no token, bad tokens, the other seat's token and a
 * spectator's; private events kept from everyone but their owner; tokens,
 * game ids and invite codes long and distinct; request header, URL, body
 * and connection limits; per-address and per-token rate limits; slow-loris
 * connections; no secret in the log at debug level. Each test starts the
 * real tchessd on loopback; raw sockets are used where libcurl would
 * refuse to send the bad request.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "tchess/protocol.h"
#include "util/sha256.h"
#include "util/token.h"

/* No limits by default: the tests that are about them set them. */
#define NO_RATE_LIMITS "rate_ip_per_s = 0\nrate_token_per_s = 0\n"

static void expect_error(long status, char *body, long want_status, enum protocol_error_code want_code,
			 const char *what)
{
	struct protocol_error e, err;
	ck_assert_msg(status == want_status, "%s: status %ld, want %ld (%s)", what, status, want_status, body);
	ck_assert_msg(protocol_error_decode(body, strlen(body), &e, &err) == 0, "%s: error body: %s", what,
		      err.message);
	ck_assert_msg(e.code == want_code, "%s: code %s", what, protocol_error_name(e.code));
	free(body);
}

/* Evaluates the call before reading body (argument order is unspecified). */
#define EXPECT_ERR(call, ...)                              \
	do {                                                \
		long status_ = (call);                      \
		expect_error(status_, body, __VA_ARGS__);   \
	} while (0)

/* The game's seq and its whole event log as text, as its player sees it. */
static int64_t game_log(struct tchessd *d, const char *game, const char *token, char **log)
{
	char path[128], *body;
	struct protocol_events evs;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	ck_assert_int_eq(http_call(d, "GET", path, token, NULL, 0, &body), 200);
	ck_assert_msg(protocol_events_decode(body, strlen(body), &evs, &err) == 0, "%s", err.message);
	int64_t seq = evs.seq;
	protocol_events_fini(&evs);
	/* now_ms differs between reads; cut it off. */
	char *now = strstr(body, ",\"now_ms\"");
	if (now)
		*now = '\0';
	*log = body;
	return seq;
}

static bool healthy(struct tchessd *d)
{
	char *body;
	long s = http_call(d, "GET", "/v1/health", NULL, NULL, 0, &body);
	free(body);
	return s == 200;
}

/* ---- tokens on every command ---- */

struct endpoint {
	const char *method;
	const char *path; /* after /v1/games/ID; NULL: /v1/games itself */
	const char *body;
};

/* Every command a seat can send (all POST/PUT/DELETE but registration). */
static const struct endpoint commands[] = {
	{ "POST", NULL, "{\"tc\":\"5+3\"}" },
	{ "POST", "/join", "{}" },
	{ "POST", "/moves", "{\"ply\":0,\"move\":\"e4\"}" },
	{ "PUT", "/premoves", "{\"ply\":0,\"moves\":[\"e7e5\"]}" },
	{ "DELETE", "/premoves", NULL },
	{ "POST", "/resign", "{}" },
	{ "POST", "/notes", "{\"text\":\"x\"}" },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void endpoint_path(char *out, size_t size, const struct endpoint *e, const char *game)
{
	if (e->path)
		snprintf(out, size, "/v1/games/%s%s", game, e->path);
	else
		snprintf(out, size, "/v1/games");
}

static long send_command(struct tchessd *d, const struct endpoint *e, const char *game, const char *header,
			 char **out)
{
	char path[128];
	endpoint_path(path, sizeof path, e, game);
	if (!header)
		return http_call(d, e->method, path, NULL, e->body, e->body ? strlen(e->body) : 0, out);
	/* http_call_header sends no body; bodies do not matter before auth. */
	return http_call_header(d, e->method, path, header, out);
}

START_TEST(test_commands_need_the_right_token)
{
	/* Issue: "Tokens required and checked for every seat action";
	 * DESIGN.md: "Only a seat's token acts for that seat." */
	struct table t;
	table_open(&t, NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	/* Short names for the table's parts. */
	struct tchessd *d = &t.d;
	const char *alice = t.alice, *bob = t.bob, *carol = t.carol, *game = t.game;
	char path[128], *body;
	char *before;
	int64_t seq = game_log(d, game, alice, &before);

	/* A token that is one hex digit off alice's, and alice's hash. */
	char near[PROTOCOL_TOKEN_MAX + 1];
	strcpy(near, alice);
	near[0] = near[0] == 'a' ? 'b' : 'a';
	uint8_t h[SHA256_DIGEST_SIZE];
	char hash_hex[2 * SHA256_DIGEST_SIZE + 1];
	sha256(alice, strlen(alice), h);
	token_hex(hash_hex, h, sizeof h);
	char long_token[300];
	memset(long_token, 'a', sizeof long_token - 1);
	long_token[sizeof long_token - 1] = '\0';
	char bad_headers[8][400];
	snprintf(bad_headers[0], sizeof bad_headers[0], "Authorization: Bearer %s", near);
	snprintf(bad_headers[1], sizeof bad_headers[1], "Authorization: Bearer %s", hash_hex);
	snprintf(bad_headers[2], sizeof bad_headers[2], "Authorization: Bearer %s", long_token);
	snprintf(bad_headers[3], sizeof bad_headers[3], "Authorization: bearer %s", alice);
	snprintf(bad_headers[4], sizeof bad_headers[4], "Authorization: Basic %s", alice);
	snprintf(bad_headers[5], sizeof bad_headers[5], "Authorization: Bearer ");
	snprintf(bad_headers[6], sizeof bad_headers[6], "Authorization: Bearer %s x", alice);
	snprintf(bad_headers[7], sizeof bad_headers[7], "Authorization: Bearer %.32s", alice);

	int tried = 0;
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct endpoint *e = &commands[i];
		long s = send_command(d, e, game, NULL, &body);
		expect_error(s, body, 401, PROTOCOL_ERR_UNAUTHORIZED, e->method);
		tried++;
		for (size_t k = 0; k < 8; k++) {
			s = send_command(d, e, game, bad_headers[k], &body);
			expect_error(s, body, 401, PROTOCOL_ERR_UNAUTHORIZED, bad_headers[k]);
			tried++;
		}
		if (i == 0)
			continue; /* anyone with a token may create a game */
		/* carol has no seat: 403 for every seat action; joining a full
		 * game is a conflict. */
		endpoint_path(path, sizeof path, e, game);
		s = http_call(d, e->method, path, carol, e->body, e->body ? strlen(e->body) : 0, &body);
		if (i == 1)
			expect_error(s, body, 409, PROTOCOL_ERR_CONFLICT, "carol joins a full game");
		else
			expect_error(s, body, 403, PROTOCOL_ERR_FORBIDDEN, e->path ? e->path : "/v1/games");
		tried++;
	}
	/* bob's token cannot play white's move, nor queue white's premove. */
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	EXPECT_ERR(http_call(d, "POST", path, bob, "{\"ply\":0,\"move\":\"e4\"}", 21, &body), 409,
		     PROTOCOL_ERR_CONFLICT, "bob plays white's move");
	tried++;
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	EXPECT_ERR(http_call(d, "POST", path, alice, "{}", 2, &body), 409, PROTOCOL_ERR_CONFLICT,
		     "alice joins her own game");
	tried++;

	/* Nothing of all that changed the game. */
	char *after;
	ck_assert_int_eq(game_log(d, game, alice, &after), seq);
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
	fprintf(stderr, "security: %d bad-credential commands over %zu endpoints, none acted\n", tried, N_COMMANDS);
	tchessd_stop(d);
	tchessd_cleanup(d);
}
END_TEST

START_TEST(test_token_rotation)
{
	/* POST /v1/me/token (tchess-protocol(7)): a player whose token leaked
	 * gets a new one; the old one is unknown at once, though the server
	 * had just seen it (tchessd keeps recent tokens in memory), and after
	 * a restart. A malformed request changes nothing. */
	struct table t;
	table_open(&t, NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	char *out, *body;
	ck_assert_int_eq(http_call(&t.d, "GET", "/v1/me", t.alice, NULL, 0, &out), 200);
	free(out);
	EXPECT_ERR(http_call(&t.d, "POST", "/v1/me/token", NULL, "{}", 2, &body), 401, PROTOCOL_ERR_UNAUTHORIZED,
		   "no token");
	EXPECT_ERR(http_call(&t.d, "POST", "/v1/me/token", t.alice, "{\"x\":1}", 7, &body), 400,
		   PROTOCOL_ERR_BAD_REQUEST, "unknown member");
	ck_assert_int_eq(http_call(&t.d, "GET", "/v1/me", t.alice, NULL, 0, &out), 200);
	free(out);

	ck_assert_int_eq(http_call(&t.d, "POST", "/v1/me/token", t.alice, "{}", 2, &out), 200);
	cJSON *o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(jint(o, "player"), t.a);
	ck_assert_str_eq(jstr(o, "name"), "alice");
	char fresh[PROTOCOL_TOKEN_MAX + 1];
	snprintf(fresh, sizeof fresh, "%s", jstr(o, "token"));
	cJSON_Delete(o);
	free(out);
	ck_assert_uint_eq(strlen(fresh), 64);
	ck_assert_str_ne(fresh, t.alice);

	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/moves", t.game);
	EXPECT_ERR(http_call(&t.d, "GET", "/v1/me", t.alice, NULL, 0, &body), 401, PROTOCOL_ERR_UNAUTHORIZED,
		   "the old token");
	EXPECT_ERR(http_call(&t.d, "POST", path, t.alice, "{\"ply\":0,\"move\":\"e4\"}", 21, &body), 401,
		   PROTOCOL_ERR_UNAUTHORIZED, "a move with the old token");
	ck_assert_int_eq(http_call(&t.d, "POST", path, fresh, "{\"ply\":0,\"move\":\"e4\"}", 21, &out), 200);
	free(out);

	ck_assert_int_eq(tchessd_stop(&t.d), 0);
	tchessd_restart(&t.d);
	EXPECT_ERR(http_call(&t.d, "GET", "/v1/me", t.alice, NULL, 0, &body), 401, PROTOCOL_ERR_UNAUTHORIZED,
		   "the old token after a restart");
	ck_assert_int_eq(http_call(&t.d, "GET", "/v1/me", fresh, NULL, 0, &out), 200);
	ck_assert_ptr_nonnull(strstr(out, "\"alice\""));
	free(out);
	table_close(&t);
}
END_TEST

START_TEST(test_private_events_stay_private)
{
	/* Issue 4: "Private events (your premoves, your notes) reach only
	 * their owner"; "spectators never see premoves". */
	struct table t;
	table_open(&t, NO_RATE_LIMITS, "\"tc\":\"5+3\"");
	/* Short names for the table's parts. */
	struct tchessd *d = &t.d;
	const char *alice = t.alice, *bob = t.bob, *carol = t.carol, *game = t.game;
	char path[128], *body;
	/* bob queues a premove and writes a note while alice thinks. */
	snprintf(path, sizeof path, "/v1/games/%s/premoves", game);
	const char *pm = "{\"ply\":0,\"moves\":[\"c7c5\"]}";
	ck_assert_int_eq(http_call(d, "PUT", path, bob, pm, strlen(pm), &body), 200);
	free(body);
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"secret-plan-c5\"}";
	ck_assert_int_eq(http_call(d, "POST", path, bob, note, strlen(note), &body), 201);
	free(body);

	const char *viewers[] = { NULL, carol, alice };
	for (size_t i = 0; i < 3; i++) {
		char *log;
		game_log(d, game, viewers[i], &log);
		ck_assert_msg(!strstr(log, "\"premoves\"") && !strstr(log, "c7c5") && !strstr(log, "secret-plan"),
			      "viewer %zu sees bob's private events: %s", i, log);
		free(log);
		snprintf(path, sizeof path, "/v1/games/%s", game);
		ck_assert_int_eq(http_call(d, "GET", path, viewers[i], NULL, 0, &body), 200);
		ck_assert_msg(!strstr(body, "c7c5") && !strstr(body, "secret-plan"), "snapshot for %zu: %s", i, body);
		free(body);
	}
	char *log;
	game_log(d, game, bob, &log);
	ck_assert_ptr_nonnull(strstr(log, "c7c5"));
	ck_assert_ptr_nonnull(strstr(log, "secret-plan"));
	free(log);
	tchessd_stop(d);
	tchessd_cleanup(d);
}
END_TEST

static bool all_hex(const char *s)
{
	return *s && strspn(s, "0123456789abcdef") == strlen(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void expect_distinct(char **v, size_t n, const char *what)
{
	qsort(v, n, sizeof *v, cmp_str);
	for (size_t i = 1; i < n; i++)
		ck_assert_msg(strcmp(v[i - 1], v[i]), "two equal %s: %s", what, v[i]);
}

START_TEST(test_secrets_are_long_and_distinct)
{
	/* Issue 6: "no token or game id guessable (random >= 128 bits)". */
	enum { N = 1000 };
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS);
	char **tokens = calloc(N, sizeof *tokens), **games = calloc(N, sizeof *games);
	char **invites = calloc(N / 4, sizeof *invites);
	for (int i = 0; i < N; i++) {
		char name[32];
		tokens[i] = calloc(1, PROTOCOL_TOKEN_MAX + 1);
		snprintf(name, sizeof name, "p%d", i);
		register_player(&d, name, tokens[i]);
		/* 64 hex digits: 256 bits. */
		ck_assert_uint_eq(strlen(tokens[i]), 64);
		ck_assert(all_hex(tokens[i]));
	}
	for (int i = 0; i < N; i++) {
		games[i] = calloc(1, PROTOCOL_GAME_ID_MAX + 1);
		create_game(&d, tokens[i], games[i]);
		ck_assert_uint_eq(strlen(games[i]), 32); /* 128 bits */
		ck_assert(all_hex(games[i]));
	}
	for (int i = 0; i < N / 4; i++) {
		char *body;
		const char *req = "{\"tc\":\"5+3\",\"opponent\":\"invite\"}";
		ck_assert_int_eq(http_call(&d, "POST", "/v1/games", tokens[i], req, strlen(req), &body), 201);
		struct protocol_seat_response r;
		struct protocol_error err;
		ck_assert_int_eq(protocol_seat_response_decode(body, strlen(body), &r, &err), 0);
		free(body);
		invites[i] = strdup(r.invite);
		/* 50 bits ("k7m4q-px9ca"): short enough to read aloud, and
		 * with the rate limits (50/s an address) years to guess. */
		ck_assert_uint_eq(strlen(invites[i]), TOKEN_INVITE_LEN);
		ck_assert_uint_eq(strspn(invites[i], "0123456789abcdefghjkmnpqrstvwxyz-"), TOKEN_INVITE_LEN);
	}
	expect_distinct(tokens, N, "tokens");
	expect_distinct(games, N, "game ids");
	expect_distinct(invites, N / 4, "invite codes");
	for (int i = 0; i < N; i++) {
		free(tokens[i]);
		free(games[i]);
	}
	for (int i = 0; i < N / 4; i++)
		free(invites[i]);
	free(tokens);
	free(games);
	free(invites);
	tchessd_stop(&d);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_request_limits)
{
	/* Issue 6: "request body, header, URL and connection limits", "bad
	 * input never crashes it". */
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "max_url = 512\nconnection_memory = 8192\nmax_body = 1024\n");
	char *resp, *body;

	/* Headers that do not fit the connection's memory: 431 from the
	 * HTTP library (or 400), never a crash. */
	size_t n = 20000;
	char *big = malloc(n + 200);
	int len = snprintf(big, 200, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ");
	memset(big + len, 'a', n);
	memcpy(big + len + n, "\r\n\r\n", 4);
	int s = raw_request(&d, NULL, big, (size_t)len + n + 4, &resp);
	ck_assert_msg(s == 431 || s == 400, "oversized header: %d %.200s", s, resp);
	free(resp);
	/* Many headers, each small. */
	len = snprintf(big, 200, "GET /v1/health HTTP/1.1\r\nHost: x\r\n");
	size_t at = (size_t)len;
	for (int i = 0; at + 40 < n; i++)
		at += (size_t)snprintf(big + at, 40, "X-H%d: v\r\n", i);
	memcpy(big + at, "\r\n", 2);
	s = raw_request(&d, NULL, big, at + 2, &resp);
	ck_assert_msg(s == 431 || s == 400, "too many headers: %d %.200s", s, resp);
	free(resp);
	ck_assert(healthy(&d));

	/* A path over max_url: 414 with a JSON error. */
	len = snprintf(big, 200, "GET /v1/games/");
	memset(big + len, 'a', 600);
	len += 600;
	len += snprintf(big + len, 200, " HTTP/1.1\r\nHost: x\r\n\r\n");
	s = raw_request(&d, NULL, big, (size_t)len, &resp);
	ck_assert_msg(s == 414 && strstr(resp, "\"uri_too_long\""), "long URL: %d %.300s", s, resp);
	free(resp);
	/* A request line longer than the connection's memory: the library
	 * refuses it (414 or 400). */
	len = snprintf(big, 200, "GET /v1/");
	memset(big + len, 'b', n);
	memcpy(big + len + n, " HTTP/1.1\r\nHost: x\r\n\r\n", 22);
	s = raw_request(&d, NULL, big, (size_t)len + n + 22, &resp);
	ck_assert_msg(s == 414 || s == 400 || s == 431, "huge request line: %d %.200s", s, resp);
	free(resp);

	/* Bodies over max_body: 413; a chunked one is refused (400) before
	 * any of it is read (tchessd(8), LIMITS). */
	char *huge = malloc(5000);
	memset(huge, ' ', 5000);
	huge[0] = '{';
	huge[4999] = '}';
	EXPECT_ERR(http_call(&d, "POST", "/v1/players", NULL, huge, 5000, &body), 413,
		     PROTOCOL_ERR_TOO_LARGE, "big body");
	len = snprintf(big, 200, "POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
	at = (size_t)len;
	for (int i = 0; i < 5; i++) {
		at += (size_t)snprintf(big + at, 20, "200\r\n");
		memset(big + at, ' ', 0x200);
		at += 0x200;
		memcpy(big + at, "\r\n", 2);
		at += 2;
	}
	memcpy(big + at, "0\r\n\r\n", 5);
	s = raw_request(&d, NULL, big, at + 5, &resp);
	ck_assert_msg(s == 400 && strstr(resp, "Transfer-Encoding"), "chunked body: %d %.300s", s, resp);
	free(resp);
	/* Garbage that is not HTTP at all. */
	s = raw_request(&d, NULL, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n", 22, NULL);
	ck_assert_int_ne(s, 200);
	s = raw_request(&d, NULL, "GET /v1/health HTTP/9.9\r\n\r\n", 27, NULL);
	ck_assert_int_ne(s, 200);
	ck_assert(healthy(&d));
	free(big);
	free(huge);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_connection_limit)
{
	/* tchessd(8): "max_connections: connections served at once; more
	 * wait in the listen queue until one closes". 16 holders take every
	 * slot with half-sent requests; 8 more clients send whole requests
	 * and get no answer while the holders stay; when 8 holders leave,
	 * the 8 waiting are served. */
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "max_connections = 16\nconnection_timeout_s = 30\n");
	enum { HOLD = 16, MORE = 8 };
	int hold[HOLD], more[MORE];
	for (int i = 0; i < HOLD; i++) {
		hold[i] = dial(&d, NULL);
		send_all(hold[i], "GET /v1/health HTTP/1.1\r\n", 25);
	}
	/* The server has accepted every holder once one of them, completed,
	 * is answered: it reads in accept order. */
	send_all(hold[HOLD - 1], "Host: x\r\n\r\n", 11);
	bool closed;
	char *resp = read_until(hold[HOLD - 1], 5000, "\"status\"", &closed);
	ck_assert_msg(strstr(resp, " 200 "), "holder not served: %s", resp);
	free(resp);
	const char *req = "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	for (int i = 0; i < MORE; i++) {
		more[i] = dial(&d, NULL);
		send_all(more[i], req, strlen(req));
	}
	for (int i = 0; i < MORE; i++) {
		resp = read_all(more[i], i ? 50 : 1000, &closed);
		ck_assert_msg(!resp[0] && !closed, "connection %d over the limit was served: %s", i, resp);
		free(resp);
	}
	for (int i = 0; i < MORE; i++)
		close(hold[i]);
	for (int i = 0; i < MORE; i++) {
		resp = read_all(more[i], 5000, &closed);
		ck_assert_msg(strstr(resp, " 200 "), "waiting connection %d not served: %s", i, resp);
		free(resp);
		close(more[i]);
	}
	for (int i = MORE; i < HOLD; i++)
		close(hold[i]);
	ck_assert(healthy(&d));
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_slow_loris)
{
	/* Issue 6: "a slow-loris client cannot exhaust connections". One
	 * address holds half-open connections and trickles header bytes so
	 * the idle timeout never fires: per_ip_connections caps what it
	 * holds, so another client (127.0.0.2) is served at once; and
	 * connections that stall are closed by connection_timeout_s. */
	struct tchessd d;
	tchessd_start(&d, NO_RATE_LIMITS "max_connections = 96\nper_ip_connections = 16\nconnection_timeout_s = 1\n"
			  "rate_exempt = 127.0.0.3\n");
	enum { LORIS = 48 };
	int fds[LORIS];
	for (int i = 0; i < LORIS; i++) {
		fds[i] = dial(&d, "127.0.0.1");
		send_all(fds[i], "GET /v1/health HTTP/1.1\r\nX-A: ", 31);
	}
	/* Keep trickling for a while, then ask as another client. */
	int64_t until = mono_ms() + 1500;
	while (mono_ms() < until) {
		for (int i = 0; i < LORIS; i++)
			send_all(fds[i], "a", 1);
		struct pollfd p = { fds[0], POLLIN, 0 };
		poll(&p, 1, 200); /* paces the trickle; wakes early if closed */
	}
	char *resp;
	int s = raw_request(&d, "127.0.0.2", "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 56,
			    &resp);
	ck_assert_msg(s == 200, "normal client during slow-loris: %d %.200s", s, resp);
	free(resp);
	/* Connections that stop sending are closed by the idle timeout. */
	int closed_count = 0;
	for (int i = 0; i < LORIS; i++) {
		bool closed;
		free(read_all(fds[i], i < 16 ? 4000 : 100, &closed));
		closed_count += closed;
		close(fds[i]);
	}
	ck_assert_msg(closed_count == LORIS, "%d of %d stalled connections were closed", closed_count, LORIS);
	ck_assert(healthy(&d));
	/* An exempt address (a reverse proxy) holds more than the limit and
	 * is still served. */
	for (int i = 0; i < 24; i++) {
		fds[i] = dial(&d, "127.0.0.3");
		send_all(fds[i], "GET /v1/health HTTP/1.1\r\nX-A: ", 31);
	}
	s = raw_request(&d, "127.0.0.3", "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 56, &resp);
	ck_assert_msg(s == 200, "exempt address over the limit: %d %.200s", s, resp);
	free(resp);
	for (int i = 0; i < 24; i++)
		close(fds[i]);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_rate_limits)
{
	/* Issue 6: "per-IP and per-token rate limits"; tchessd(8), RATE
	 * LIMITS: a request costs one token of its address's bucket, a
	 * command also one of its bearer token's bucket; 429 with
	 * Retry-After. Refill rates are 1/s so the test's few milliseconds
	 * cannot refill a bucket. */
	struct tchessd d;
	tchessd_start(&d, "rate_exempt =\nrate_ip_per_s = 1\nrate_ip_burst = 40\n"
			  "rate_token_per_s = 1\nrate_token_burst = 3\n");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1];
	register_player(&d, "alice", alice); /* 1 */
	register_player(&d, "bob", bob);     /* 2 */
	char game[PROTOCOL_GAME_ID_MAX + 1], path[128], *body;
	create_game(&d, alice, game); /* 3; alice's token: 1 */
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"n\"}";
	for (int i = 0; i < 2; i++) { /* 4, 5; alice's token: 2, 3 */
		ck_assert_int_eq(http_call(&d, "POST", path, alice, note, strlen(note), &body), 201);
		free(body);
	}
	/* alice's token is spent: her next command is refused, with the
	 * request not acted on; reads with her token still pass. */
	char *before;
	int64_t seq = game_log(&d, game, alice, &before); /* 6 */
	char *resp;
	char req[512];
	int len = snprintf(req, sizeof req,
			   "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n"
			   "Connection: close\r\n\r\n%s",
			   path, alice, strlen(note), note);
	int s = raw_request(&d, NULL, req, (size_t)len, &resp); /* 7 */
	ck_assert_msg(s == 429, "spent token: %d %s", s, resp);
	ck_assert_msg(strstr(resp, "Retry-After: ") || strstr(resp, "retry-after: "), "no Retry-After: %s", resp);
	ck_assert_ptr_nonnull(strstr(resp, "\"rate_limited\""));
	free(resp);
	char *after;
	ck_assert_int_eq(game_log(&d, game, alice, &after), seq); /* 8 */
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
	/* bob's token has its own bucket. */
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	ck_assert_int_eq(http_call(&d, "POST", path, bob, "{}", 2, &body), 200); /* 9 */
	free(body);

	/* A long-poll pays once when it arrives, not while parked or when it
	 * is woken: park one (10), wake it with bob's move... bob is black,
	 * so wake it with bob's note (11). */
	struct poll_req p;
	/* bob's last event: alice's, with the join and the start, less her
	 * two notes, which bob does not see and so does not count (issue 12
	 * item 16). */
	poll_start(&p, &d, game, seq + 2 - 2, bob);
	poll_wait_parked(&p, &d, 1); /* health calls: 12.. (a few) */
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	ck_assert_int_eq(http_call(&d, "POST", path, bob, note, strlen(note), &body), 201);
	free(body);
	while (!poll_run(&p, 1000))
		;
	ck_assert_int_eq(p.status, 200);
	poll_fini(&p);

	/* Spend the address's bucket: at most 40 in all, so a burst of 40
	 * more must end in 429s with every earlier answer a success. */
	int ok = 0, limited = 0;
	for (int i = 0; i < 40; i++) {
		long st = http_call(&d, "GET", "/v1/health", NULL, NULL, 0, &body);
		if (st == 200) {
			ck_assert_int_eq(limited, 0);
			ok++;
		} else {
			expect_error(st, body, 429, PROTOCOL_ERR_RATE_LIMITED, "address limit");
			body = NULL;
			limited++;
		}
		free(body);
	}
	ck_assert_int_gt(limited, 0);
	ck_assert_int_gt(ok, 0);
	/* Another address is not affected. */
	s = raw_request(&d, "127.0.0.2", "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 56, NULL);
	ck_assert_int_eq(s, 200);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_no_secrets_in_logs)
{
	/* Issue 6: "no secrets in logs"; tchessd(8): "Tokens and token
	 * hashes are never logged". Everything at debug level: registration,
	 * an invite game joined with its code, moves, premoves, notes, bad
	 * tokens, a restart. */
	struct tchessd d;
	tchessd_start_logged(&d, NO_RATE_LIMITS, "debug");
	char tok[3][PROTOCOL_TOKEN_MAX + 1];
	register_player(&d, "alice", tok[0]);
	register_player(&d, "bob", tok[1]);
	register_player(&d, "carol", tok[2]);
	char *body, path[160];
	const char *req = "{\"tc\":\"5+3\",\"color\":\"white\",\"opponent\":\"invite\"}";
	ck_assert_int_eq(http_call(&d, "POST", "/v1/games", tok[0], req, strlen(req), &body), 201);
	struct protocol_seat_response r;
	struct protocol_error err;
	ck_assert_int_eq(protocol_seat_response_decode(body, strlen(body), &r, &err), 0);
	free(body);
	char join[128];
	snprintf(join, sizeof join, "{\"invite\":\"%s\"}", r.invite);
	snprintf(path, sizeof path, "/v1/games/%s/join", r.id);
	ck_assert_int_eq(http_call(&d, "POST", path, tok[1], join, strlen(join), &body), 200);
	free(body);
	snprintf(path, sizeof path, "/v1/games/%s/premoves", r.id);
	ck_assert_int_eq(http_call(&d, "PUT", path, tok[1], "{\"ply\":0,\"moves\":[\"e7e5\"]}", 26, &body), 200);
	free(body);
	/* A poll parked and woken by the move: debug lines of its own. */
	struct poll_req pr;
	poll_start(&pr, &d, r.id, 4, tok[1]);
	poll_wait_parked(&pr, &d, 1);
	snprintf(path, sizeof path, "/v1/games/%s/moves", r.id);
	ck_assert_int_eq(http_call(&d, "POST", path, tok[0], "{\"ply\":0,\"move\":\"e4\"}", 21, &body), 200);
	free(body);
	while (!poll_run(&pr, 1000))
		;
	poll_fini(&pr);
	snprintf(path, sizeof path, "/v1/games/%s/notes", r.id);
	ck_assert_int_eq(http_call(&d, "POST", path, tok[2], "{\"text\":\"x\"}", 12, &body), 403);
	free(body);
	char wrong[PROTOCOL_TOKEN_MAX + 1];
	strcpy(wrong, tok[0]);
	wrong[5] = wrong[5] == '0' ? '1' : '0';
	ck_assert_int_eq(http_call(&d, "GET", "/v1/me", wrong, NULL, 0, &body), 401);
	free(body);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", r.id);
	ck_assert_int_eq(http_call(&d, "GET", path, tok[1], NULL, 0, &body), 200);
	free(body);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_restart(&d);
	ck_assert_int_eq(tchessd_stop(&d), 0);

	char logpath[300];
	snprintf(logpath, sizeof logpath, "%s/tchessd.log", d.dir);
	char *log = file_slurp(logpath);
	/* The log did record the scenario at debug level... */
	ck_assert_ptr_nonnull(strstr(log, "POST /v1/players 201"));
	ck_assert_ptr_nonnull(strstr(log, "debug"));
	/* ...and no secret, nor its hash, nor a prefix long enough to help. */
	const char *secrets[5] = { tok[0], tok[1], tok[2], r.invite, wrong };
	for (int i = 0; i < 5; i++) {
		uint8_t h[SHA256_DIGEST_SIZE];
		char hex[2 * SHA256_DIGEST_SIZE + 1], prefix[17];
		sha256(secrets[i], strlen(secrets[i]), h);
		token_hex(hex, h, sizeof h);
		snprintf(prefix, sizeof prefix, "%s", secrets[i]);
		ck_assert_msg(!strstr(log, prefix), "secret %d in the log", i);
		ck_assert_msg(!strstr(log, hex), "hash of secret %d in the log", i);
	}
	ck_assert_ptr_null(strstr(log, "Bearer"));
	free(log);
	tchessd_cleanup(&d);
}
END_TEST

/* Two cases: "security" for the default suite, "security-slow" (a
 * thousand registrations, timeouts that must pass) for meson's slow suite;
 * the runner's argument picks one (none: both). */
static Suite *security_suite(void)
{
	Suite *s = suite_create("security");
	TCase *tc = tcase_create("security");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_commands_need_the_right_token);
	tcase_add_test(tc, test_token_rotation);
	tcase_add_test(tc, test_private_events_stay_private);
	tcase_add_test(tc, test_request_limits);
	tcase_add_test(tc, test_rate_limits);
	tcase_add_test(tc, test_no_secrets_in_logs);
	suite_add_tcase(s, tc);
	tc = tcase_create("security-slow");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_secrets_are_long_and_distinct);
	tcase_add_test(tc, test_connection_limit);
	tcase_add_test(tc, test_slow_loris);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(security_suite());
	srunner_run(sr, NULL, argc > 1 ? argv[1] : NULL, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
