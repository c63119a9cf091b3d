/*
 * tchess-soak: issue 12's attacks replayed together against a real tchessd
 * on loopback while a legitimate client plays, for a bounded time; prints
 * the legitimate client's request latency (p50, p99, max) and the server's
 * peak RSS. Each attacker has an address of its own in 127.0.0.0/8 and
 * loopback is not exempt from the limits here, so the server's
 * per-address limits apply as they would on the Internet; the client plays
 * from 127.0.0.1, the one exempt address.
 *
 *   tchess-soak --tchessd PATH [--seconds N] [--attackers N] [--attack-rate N] [--notes N]
 *               [--corr N] [--engine PATH]
 *
 * One attacker of each kind with the default --attackers 10.
 *
 * --attack-rate caps each attacker's requests a second (default 0: as
 * fast as it can; on a 2-core machine the attackers then take CPU from
 * the server, which real attackers on other machines would not).
 *
 * Attacks: trickled headers (slow-loris against the header deadline),
 * conflicting framing (two Content-Length, Content-Length with chunked,
 * xchunked, a 9,000-byte chunk extension, 300 query arguments), forged log
 * lines, text with control and bidirectional characters or NUL, a token
 * followed by NUL and junk, games from finished positions, a request
 * flood; stateful ones: accounts registered from one address, each
 * filling its open seeks (item 4), anonymous cold reads of a finished
 * game and of games that do not exist (item 5), draw offer/withdraw and
 * premove-replace churn in one yourpot game (item 4), vacation
 * bookings and cancellations by a player with --corr N correspondence
 * games (item 2, default 200), and with --engine PATH level-8 engine
 * games on 10s+0 from every account the attacker can make (item 3); and
 * with --notes N notes amplified (a finished game filled with up
 * to N 1,000-byte notes by two accounts, as many as the server takes --
 * the per-token limit off so that they go in fast -- then read from 0 by
 * slow readers: 30 connections per attacker that never read their
 * answers, each replaced every 2 s). The client registers two players and plays knight shuffles (each
 * game ends by fivefold repetition) at a person's pace (a move every
 * 60 ms, inside the per-token rate limit), reading the events after each,
 * and times every request. It stops by
 * itself after --seconds (default 20).
 */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"
#include "util/buf.h"

static int port;
static int64_t stop_at;
static atomic_long attacks_sent, attacks_refused;
static int attack_rate; /* requests a second per attacker; 0: as fast as it can */

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- raw attackers ---- */

static int dial_from(const char *from)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in l = {.sin_family = AF_INET};
	inet_pton(AF_INET, from, &l.sin_addr);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&l, sizeof l) || connect(fd, (struct sockaddr *)&a, sizeof a)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Sends req from address from and reads its answer into buf (size bytes,
 * NUL-terminated) within ms, up to the end of its headers when
 * headers_only; returns the status, 0 when none came, -1 when it could
 * not connect. Every attack request goes through here, counted. */
static int exchange(const char *from, const char *req, size_t len, char *buf, size_t size, int ms, bool headers_only)
{
	if (attack_rate) {
		struct timespec gap = {0, 1000000000L / attack_rate};
		nanosleep(&gap, NULL);
	}
	buf[0] = '\0';
	int fd = dial_from(from);
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < len;) {
		ssize_t n = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	size_t got = 0;
	int64_t deadline = mono_ms() + ms;
	while (got < size - 1 && mono_ms() < deadline) {
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, (int)(deadline - mono_ms())) <= 0)
			break;
		ssize_t n = recv(fd, buf + got, size - 1 - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
		buf[got] = '\0';
		if (headers_only && strstr(buf, "\r\n\r\n"))
			break;
	}
	buf[got] = '\0';
	close(fd);
	int status = 0;
	sscanf(buf, "HTTP/1.%*d %d", &status);
	atomic_fetch_add(&attacks_sent, 1);
	if (status >= 400 || status == 0)
		atomic_fetch_add(&attacks_refused, 1);
	return status;
}

/* Sends req and reads the answer's status (0: closed without one) within
 * ms. */
static int raw_once(const char *from, const char *req, size_t len, int ms)
{
	char buf[512];
	return exchange(from, req, len, buf, sizeof buf, ms, true);
}

/* A whole request from address from, its answer's body (up to size - 1
 * bytes) in out: the status as exchange's. */
static int raw_call(const char *from, const char *method, const char *path, const char *token, const char *body,
                    char *out, size_t size, int ms)
{
	char req[1024], auth[128] = "", buf[4096];
	if (token)
		snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
	int len = snprintf(req, sizeof req,
	                   "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%sContent-Length: %zu\r\n\r\n%s", method,
	                   path, auth, body ? strlen(body) : 0, body ? body : "");
	out[0] = '\0';
	if (len < 0 || (size_t)len >= sizeof req)
		return -1;
	int status = exchange(from, req, (size_t)len, buf, sizeof buf, ms, false);
	const char *b = strstr(buf, "\r\n\r\n");
	if (b)
		snprintf(out, size, "%s", b + 4);
	return status;
}

/* The string member name of a JSON text, into dst. */
static bool json_str(const char *json, const char *name, char *dst, size_t size);

struct attacker {
	pthread_t thread;
	char from[32];
	int kind;
	const char *token; /* a real token, for the NUL-junk attack */
	const char *game;  /* a real game, for the notes attacks */
	const char *noted; /* a finished game full of notes, for the slow readers */
	/* The stateful attacks' accounts and games, made before the clock
	 * starts (from 127.0.0.1, which is exempt: setting up is not the
	 * attack). */
	const char *churn_game, *churn_mover, *churn_waiter; /* a yourpot game in progress */
	const char *vacationer;                              /* a player with --corr games */
	bool engines;                                        /* engine games may be made */
};

enum {
	KIND_SLOW_LORIS,
	KIND_FRAMING,
	KIND_BAD_TEXT,
	KIND_FLOOD,
	KIND_ACCOUNTS,
	KIND_COLD_READS,
	KIND_CHURN,
	KIND_VACATIONS,
	KIND_ENGINES,
	KIND_SLOW_READERS,
	KINDS
};

static void *slow_loris(struct attacker *a)
{
	/* Holds up to 32 connections, trickling a byte each 500 ms; the
	 * header deadline closes them and they come back. */
	enum { N = 32 };
	int fds[N];
	for (int i = 0; i < N; i++)
		fds[i] = -1;
	while (mono_ms() < stop_at) {
		for (int i = 0; i < N; i++) {
			if (fds[i] < 0) {
				fds[i] = dial_from(a->from);
				if (fds[i] >= 0) {
					send(fds[i], "GET /v1/health HTTP/1.1\r\nX-A: ", 31, MSG_NOSIGNAL);
					atomic_fetch_add(&attacks_sent, 1);
				}
			} else if (send(fds[i], "a", 1, MSG_NOSIGNAL) <= 0) {
				close(fds[i]);
				fds[i] = -1;
				atomic_fetch_add(&attacks_refused, 1);
			} else {
				char c;
				if (recv(fds[i], &c, 1, MSG_DONTWAIT) == 0) {
					close(fds[i]);
					fds[i] = -1;
					atomic_fetch_add(&attacks_refused, 1);
				}
			}
		}
		struct timespec ts = {0, 500 * 1000000};
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < N; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

static void *framing(struct attacker *a)
{
	static const char *const reqs[] = {
	    /* One element: the second request rides in the first's body
	     * (the parentheses tell clang the concatenation is meant). */
	    ("POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\nContent-Length: 40\r\n\r\n"
	     "{\"name\":\"smug\"}POST /v1/players HTTP/1.1\r\nHost: x\r\n\r\n"),
	    "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
	    "POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
	    "GET /v1/%0a2026-01-01T00:00:00.000Z%20info%20%20forged%1b[31m HTTP/1.1\r\nHost: x\r\n\r\n",
	    "F\x1bOO /v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
	    "GET /v1/health HTTP/1.1\r\n\r\n",
	};
	struct buf ext, args;
	buf_init(&ext);
	buf_append_str(&ext, "POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;");
	for (int i = 0; i < 9000; i++)
		buf_append(&ext, "e", 1);
	buf_append_str(&ext, "\r\nhello\r\n0\r\n\r\n");
	buf_init(&args);
	buf_append_str(&args, "GET /v1/health?");
	for (int i = 0; i < 300; i++)
		buf_printf(&args, "%sa%d=b", i ? "&" : "", i);
	buf_append_str(&args, " HTTP/1.1\r\nHost: x\r\n\r\n");
	size_t n = sizeof reqs / sizeof reqs[0];
	for (size_t i = 0; mono_ms() < stop_at; i++) {
		size_t k = i % (n + 2);
		if (k < n)
			raw_once(a->from, reqs[k], strlen(reqs[k]), 2000);
		else if (k == n)
			raw_once(a->from, ext.data, ext.len, 2000);
		else
			raw_once(a->from, args.data, args.len, 2000);
	}
	buf_fini(&ext);
	buf_fini(&args);
	return NULL;
}

static void *bad_text(struct attacker *a)
{
	static const char *const texts[] = {
	    "x\\u001b[31mred", "ding\\u0007", "csi\\u009b2J", "\\u202egnp.exe",
	    "two\\nlines",     "\xff\xfe",    "\xc0\xaf",     "cut\\u0000here",
	};
	size_t n = sizeof texts / sizeof texts[0];
	for (size_t i = 0; mono_ms() < stop_at; i++) {
		char body[128], req[512];
		int len;
		switch (i % 4) {
		case 0:
			snprintf(body, sizeof body, "{\"text\":\"%s\"}", texts[i / 4 % n]);
			len = snprintf(req, sizeof req,
			               "POST /v1/games/%s/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
			               "Content-Length: %zu\r\n\r\n%s",
			               a->game, a->token, strlen(body), body);
			break;
		case 1:
			snprintf(body, sizeof body, "{\"name\":\"m%zu\\u0000x\"}", i);
			len = snprintf(req, sizeof req,
			               "POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: %zu\r\n\r\n%s",
			               strlen(body), body);
			break;
		case 2:
			len = snprintf(req, sizeof req,
			               "GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s%cjunk\r\n\r\n",
			               a->token, '\0');
			break;
		default:
			snprintf(body, sizeof body, "{\"tc\":\"5+3\",\"fen\":\"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1\"}");
			len = snprintf(req, sizeof req,
			               "POST /v1/games HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
			               "Content-Length: %zu\r\n\r\n%s",
			               a->token, strlen(body), body);
			break;
		}
		raw_once(a->from, req, (size_t)len, 2000);
	}
	return NULL;
}

static void *slow_readers(struct attacker *a)
{
	enum { N = 30 };
	int fds[N];
	int64_t opened[N];
	char req[256];
	int len = snprintf(req, sizeof req, "GET /v1/games/%s/events?after=0 HTTP/1.1\r\nHost: x\r\n\r\n", a->noted);
	for (int i = 0; i < N; i++)
		fds[i] = -1;
	while (mono_ms() < stop_at) {
		for (int i = 0; i < N; i++) {
			if (fds[i] >= 0 && mono_ms() - opened[i] < 2000)
				continue;
			if (fds[i] >= 0)
				close(fds[i]);
			if ((fds[i] = dial_from(a->from)) >= 0) {
				send(fds[i], req, (size_t)len, MSG_NOSIGNAL);
				opened[i] = mono_ms();
				atomic_fetch_add(&attacks_sent, 1);
			} else {
				atomic_fetch_add(&attacks_refused, 1);
			}
		}
		struct timespec ts = {0, 100 * 1000000};
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < N; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

static void *flood(struct attacker *a)
{
	const char *req = "GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n";
	while (mono_ms() < stop_at)
		raw_once(a->from, req, strlen(req), 2000);
	return NULL;
}

/* Item 4: accounts registered from one address as fast as the server
 * takes them, each filling its open seeks until refused. */
static void *accounts(struct attacker *a)
{
	char out[512], tok[80], body[64];
	for (long i = 0; mono_ms() < stop_at; i++) {
		snprintf(body, sizeof body, "{\"name\":\"spam%s%ld\"}", strrchr(a->from, '.') + 1, i);
		if (raw_call(a->from, "POST", "/v1/players", NULL, body, out, sizeof out, 2000) != 201 ||
		    !json_str(out, "token", tok, sizeof tok)) {
			/* Refused (429 past register_per_hour): the seeks of the
			 * shared attacker's account instead. */
			raw_call(a->from, "POST", "/v1/games", a->token, "{\"tc\":\"5+3\"}", out, sizeof out, 2000);
			continue;
		}
		for (int k = 0; k < 100 && mono_ms() < stop_at; k++)
			if (raw_call(a->from, "POST", "/v1/games", tok, "{\"tc\":\"5+3\"}", out, sizeof out, 2000) !=
			    201)
				break;
	}
	return NULL;
}

/* Item 5: anonymous reads of a finished game (and of games that do not
 * exist), which must not pin games in memory. */
static void *cold_reads(struct attacker *a)
{
	char path[160], out[256];
	for (long i = 0; mono_ms() < stop_at; i++) {
		if (i % 3 == 2)
			snprintf(path, sizeof path, "/v1/games/%032lx", (unsigned long)i * 2654435761u);
		else
			snprintf(path, sizeof path, "/v1/games/%s%s", a->noted[0] ? a->noted : a->game,
			         i % 3 ? "/pgn" : "");
		raw_call(a->from, "GET", path, NULL, NULL, out, sizeof out, 2000);
	}
	return NULL;
}

/* Item 4's per-game churn: in a yourpot game, the side to move offers
 * and withdraws draws, the other replaces its premove, cycle after
 * cycle (the server refuses past events_per_ply). */
static void *churn(struct attacker *a)
{
	char path[160], out[512];
	static const char *const pre[] = {"{\"ply\":1,\"moves\":[\"g1f3\"]}", "{\"ply\":1,\"moves\":[\"b1c3\"]}"};
	for (long i = 0; mono_ms() < stop_at; i++) {
		switch (i % 3) {
		case 0:
			snprintf(path, sizeof path, "/v1/games/%s/draw", a->churn_game);
			raw_call(a->from, "POST", path, a->churn_mover, "{\"ply\":1,\"action\":\"offer\"}", out,
			         sizeof out, 2000);
			break;
		case 1:
			snprintf(path, sizeof path, "/v1/games/%s/draw", a->churn_game);
			raw_call(a->from, "POST", path, a->churn_mover, "{\"ply\":1,\"action\":\"withdraw\"}", out,
			         sizeof out, 2000);
			break;
		default:
			snprintf(path, sizeof path, "/v1/games/%s/premoves", a->churn_game);
			raw_call(a->from, "PUT", path, a->churn_waiter, pre[i / 3 % 2], out, sizeof out, 2000);
			break;
		}
	}
	return NULL;
}

/* Item 2: a player with many correspondence games books and cancels a
 * vacation over and over (vacation_changes_per_day bounds it). */
static void *vacations(struct attacker *a)
{
	char out[512], id[64], path[160];
	time_t t = time(NULL) + 30 * 86400;
	struct tm tm;
	gmtime_r(&t, &tm);
	char body[64];
	strftime(body, sizeof body, "{\"start\":\"%Y-%m-%d\",\"days\":3}", &tm);
	while (mono_ms() < stop_at) {
		if (raw_call(a->from, "POST", "/v1/me/vacations", a->vacationer, body, out, sizeof out, 5000) == 201 &&
		    json_str(out, "id", id, sizeof id)) {
			snprintf(path, sizeof path, "/v1/me/vacations/%s", id);
			raw_call(a->from, "DELETE", path, a->vacationer, NULL, out, sizeof out, 5000);
		}
	}
	return NULL;
}

/* Item 3: engine games at the strongest level on a fast clock, from
 * accounts of this address, as many as the server lets them have. */
static void *engines(struct attacker *a)
{
	char out[512], tok[80], body[96];
	snprintf(body, sizeof body, "{\"name\":\"bot%s\"}", strrchr(a->from, '.') + 1);
	if (raw_call(a->from, "POST", "/v1/players", NULL, body, out, sizeof out, 2000) != 201 ||
	    !json_str(out, "token", tok, sizeof tok))
		return flood(a);
	while (mono_ms() < stop_at)
		raw_call(a->from, "POST", "/v1/games", tok,
		         "{\"tc\":\"10s+0\",\"color\":\"black\",\"opponent\":\"engine\",\"level\":8}", out, sizeof out,
		         2000);
	return NULL;
}

static void *attacker_main(void *arg)
{
	struct attacker *a = arg;
	switch (a->kind % KINDS) {
	case KIND_SLOW_LORIS:
		return slow_loris(a);
	case KIND_FRAMING:
		return framing(a);
	case KIND_BAD_TEXT:
		return bad_text(a);
	case KIND_ACCOUNTS:
		return accounts(a);
	case KIND_COLD_READS:
		return cold_reads(a);
	case KIND_CHURN:
		return a->churn_game[0] ? churn(a) : flood(a);
	case KIND_VACATIONS:
		return a->vacationer[0] ? vacations(a) : flood(a);
	case KIND_ENGINES:
		return a->engines ? engines(a) : flood(a);
	case KIND_SLOW_READERS:
		return a->noted[0] ? slow_readers(a) : flood(a);
	default:
		return flood(a);
	}
}

/* ---- the legitimate client ---- */

struct client {
	CURL *easy;
	char base[64];
	int64_t *lat_us;
	size_t n, cap;
	long errors;
};

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* One timed request; returns the status and the body (caller frees). */
static long call(struct client *c, const char *method, const char *path, const char *token, const char *body,
                 char **out)
{
	char url[256], auth[128];
	snprintf(url, sizeof url, "%s%s", c->base, path);
	struct buf b;
	buf_init(&b);
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	if (token) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
		h = curl_slist_append(h, auth);
	}
	curl_easy_setopt(c->easy, CURLOPT_URL, url);
	curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, h);
	if (body) {
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	} else {
		curl_easy_setopt(c->easy, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(c->easy, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c->easy, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(c->easy, CURLOPT_WRITEDATA, &b);
	int64_t t0 = mono_us();
	CURLcode rc = curl_easy_perform(c->easy);
	int64_t dt = mono_us() - t0;
	curl_slist_free_all(h);
	long status = 0;
	if (rc == CURLE_OK)
		curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &status);
	else
		c->errors++;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->lat_us = realloc(c->lat_us, c->cap * sizeof *c->lat_us);
	}
	c->lat_us[c->n++] = dt;
	if (out)
		*out = buf_steal(&b);
	buf_fini(&b);
	return status;
}

static bool json_str(const char *json, const char *name, char *dst, size_t size)
{
	cJSON *o = cJSON_Parse(json ? json : "");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	bool ok = cJSON_IsString(v) && strlen(v->valuestring) < size;
	if (ok)
		strcpy(dst, v->valuestring);
	cJSON_Delete(o);
	return ok;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* A setup request that answers a JSON object: its string member name
 * into dst ("" when the request failed). */
static void setup_call(struct client *c, const char *path, const char *token, const char *body, const char *name,
                       char *dst, size_t size)
{
	char *out = NULL;
	call(c, "POST", path, token, body, &out);
	if (!json_str(out, name, dst, size))
		dst[0] = '\0';
	free(out);
}

int main(int argc, char **argv)
{
	const char *bin = NULL, *engine = NULL;
	int seconds = 20, n_attackers = KINDS;
	long max_notes = 0, n_corr = 200;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tchessd") && i + 1 < argc)
			bin = argv[++i];
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--attackers") && i + 1 < argc)
			n_attackers = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--attack-rate") && i + 1 < argc)
			attack_rate = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--notes") && i + 1 < argc)
			max_notes = atol(argv[++i]);
		else if (!strcmp(argv[i], "--corr") && i + 1 < argc)
			n_corr = atol(argv[++i]);
		else if (!strcmp(argv[i], "--engine") && i + 1 < argc)
			engine = argv[++i];
		else {
			fprintf(stderr,
			        "usage: tchess-soak --tchessd PATH [--seconds N] [--attackers N] [--attack-rate N] "
			        "[--notes N] [--corr N] [--engine PATH]\n");
			return 2;
		}
	}
	if (!bin || seconds < 1 || seconds > 600 || n_attackers < 0 || n_attackers > 64 || attack_rate < 0 ||
	    attack_rate > 100000 || max_notes < 0 || max_notes > 100000 || n_corr < 0 || n_corr > 20000 ||
	    (engine && access(engine, X_OK))) {
		fprintf(stderr, "usage: tchess-soak --tchessd PATH [--seconds 1..600] [--attackers 0..64] "
		                "[--attack-rate 0..100000] [--notes 0..100000] [--corr 0..20000] [--engine PATH]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	char dir[] = "/tmp/tchess-soak-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char db[128], conf[128], log[128], err[256];
	snprintf(db, sizeof db, "%s/soak.db", dir);
	snprintf(conf, sizeof conf, "%s/tchessd.conf", dir);
	snprintf(log, sizeof log, "%s/tchessd.log", dir);
	FILE *f = fopen(conf, "w");
	/* The defaults but for engines and the exemption of loopback: only
	 * the client's 127.0.0.1 is exempt (it plays as fast as it can, to
	 * have many samples), the attackers' 127.0.x.y addresses are limited
	 * as Internet clients are. */
	if (engine)
		fprintf(f, "engine = %s\n", engine);
	else
		fprintf(f, "engine_processes = 0\n");
	fprintf(f, "rate_exempt = 127.0.0.1\n%s", max_notes ? "rate_token_per_s = 0\n" : "");
	fclose(f);
	pid_t pid;
	if (spawn_tchessd(bin, db, conf, "warn", log, 10000, &pid, &port, err, sizeof err)) {
		fprintf(stderr, "tchessd: %s\n", err);
		return 1;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	struct client c = {.easy = curl_easy_init()};
	snprintf(c.base, sizeof c.base, "http://127.0.0.1:%d", port);
	curl_easy_setopt(c.easy, CURLOPT_TIMEOUT_MS, 15000L);
	char ta[80] = "", tb[80] = "", game[64] = "", *out = NULL;
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-white\"}", "token", ta, sizeof ta);
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-black\"}", "token", tb, sizeof tb);
	call(&c, "POST", "/v1/games", ta, "{\"tc\":\"5+3\"}", &out);
	char target[64] = "", tm[80] = "";
	json_str(out, "id", target, sizeof target);
	free(out);
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-mallory\"}", "token", tm, sizeof tm);
	/* The notes attack's game: two accounts finish a game and fill it
	 * with notes until the server refuses one. */
	char tn[2][80] = {"", ""}, noted[64] = "", npath[160], note[1100];
	for (int k = 0; k < 2; k++) {
		snprintf(note, sizeof note, "{\"name\":\"soak-noter%d\"}", k);
		setup_call(&c, "/v1/players", NULL, note, "token", tn[k], sizeof tn[k]);
	}
	call(&c, "POST", "/v1/games", tn[0], "{\"tc\":\"5+3\",\"color\":\"white\"}", &out);
	json_str(out, "id", noted, sizeof noted);
	free(out);
	snprintf(npath, sizeof npath, "/v1/games/%s/join", noted);
	call(&c, "POST", npath, tn[1], "{}", NULL);
	snprintf(npath, sizeof npath, "/v1/games/%s/resign", noted);
	call(&c, "POST", npath, tn[0], "{}", NULL);
	snprintf(npath, sizeof npath, "/v1/games/%s/notes", noted);
	memcpy(note, "{\"text\":\"", 9);
	memset(note + 9, 'n', 1000);
	memcpy(note + 1009, "\"}", 3);
	long notes = 0;
	while (notes < max_notes && call(&c, "POST", npath, tn[notes % 2], note, NULL) == 201)
		notes++;
	if (max_notes)
		printf("notes attack: %ld notes of 1000 bytes taken in game %s\n", notes, noted);
	if (!ta[0] || !tb[0] || !tm[0] || !target[0] || !noted[0]) {
		fprintf(stderr, "setup failed\n");
		kill(pid, SIGKILL);
		return 1;
	}
	/* The churn attack's game: yourpot, after 1. e4, Black to move
	 * (offers on one's own move, withdrawn at will) and White waiting
	 * (premoves). */
	char tc1[80] = "", tc2[80] = "", churned[64] = "", vac[80] = "";
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-churn1\"}", "token", tc1, sizeof tc1);
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-churn2\"}", "token", tc2, sizeof tc2);
	setup_call(&c, "/v1/games", tc1, "{\"tc\":\"-\",\"ruleset\":\"yourpot\",\"color\":\"white\"}", "id", churned,
	           sizeof churned);
	snprintf(npath, sizeof npath, "/v1/games/%s/join", churned);
	call(&c, "POST", npath, tc2, "{}", NULL);
	snprintf(npath, sizeof npath, "/v1/games/%s/moves", churned);
	if (call(&c, "POST", npath, tc1, "{\"ply\":0,\"move\":\"e4\"}", NULL) != 200)
		churned[0] = '\0';
	/* The vacation attack's player: n_corr correspondence games, each
	 * with an opponent of its own side of the table. */
	char partner[80] = "";
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-traveller\"}", "token", vac, sizeof vac);
	setup_call(&c, "/v1/players", NULL, "{\"name\":\"soak-penpal\"}", "token", partner, sizeof partner);
	long corr = 0;
	for (long k = 0; k < n_corr && vac[0] && partner[0]; k++) {
		char id[64];
		call(&c, "POST", "/v1/games", vac, "{\"tc\":\"corr:3d/10\",\"color\":\"white\"}", &out);
		bool made = json_str(out, "id", id, sizeof id);
		free(out);
		if (!made)
			break;
		snprintf(npath, sizeof npath, "/v1/games/%s/join", id);
		corr += call(&c, "POST", npath, partner, "{}", NULL) == 200;
	}
	if (n_corr)
		printf("vacation attack: a player with %ld correspondence games\n", corr);
	c.n = 0; /* time the play only */

	stop_at = mono_ms() + (int64_t)seconds * 1000;
	struct attacker *att = calloc((size_t)n_attackers + 1, sizeof *att);
	for (int i = 0; i < n_attackers; i++) {
		snprintf(att[i].from, sizeof att[i].from, "127.0.%d.%d", 1 + i / 200, 2 + i % 200);
		att[i].kind = i;
		att[i].token = tm;
		att[i].game = target;
		att[i].noted = max_notes ? noted : "";
		att[i].churn_game = churned;
		att[i].churn_mover = tc2;
		att[i].churn_waiter = tc1;
		att[i].vacationer = corr ? vac : "";
		att[i].engines = engine != NULL;
		pthread_create(&att[i].thread, NULL, attacker_main, &att[i]);
	}
	static const char *const shuffle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
	long games = 0, moves = 0, peak_kb = 0;
	while (mono_ms() < stop_at) {
		call(&c, "POST", "/v1/games", ta, "{\"tc\":\"5+3\",\"color\":\"white\"}", &out);
		bool ok = json_str(out, "id", game, sizeof game);
		free(out);
		if (!ok)
			continue;
		char path[160], body[64];
		snprintf(path, sizeof path, "/v1/games/%s/join", game);
		call(&c, "POST", path, tb, "{}", NULL);
		games++;
		for (int ply = 0; mono_ms() < stop_at; ply++) {
			snprintf(path, sizeof path, "/v1/games/%s/moves", game);
			snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, shuffle[ply % 4]);
			long s = call(&c, "POST", path, ply % 2 ? tb : ta, body, &out);
			if (s != 200) {
				if (getenv("SOAK_DEBUG"))
					fprintf(stderr, "ply %d: %ld %s\n", ply, s, out);
				free(out);
				break; /* over by fivefold repetition */
			}
			free(out);
			moves++;
			/* A person's pace, well inside the per-token limit
			 * (rate_token_per_s = 10, each player's token moving
			 * every other command). */
			struct timespec pause = {0, 60 * 1000000};
			nanosleep(&pause, NULL);
			snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", game, ply);
			call(&c, "GET", path, ta, NULL, &out);
			free(out);
		}
		long kb = proc_status_kb(pid, "VmHWM");
		if (kb > peak_kb)
			peak_kb = kb;
	}
	for (int i = 0; i < n_attackers; i++)
		pthread_join(att[i].thread, NULL);
	long kb = proc_status_kb(pid, "VmHWM");
	if (kb > peak_kb)
		peak_kb = kb;
	/* What the stateful attacks managed to leave behind: the bounds. */
	size_t timed = c.n;
	char *listed = NULL;
	call(&c, "GET", "/v1/games", NULL, NULL, &listed);
	cJSON *l = cJSON_Parse(listed ? listed : "");
	int n_listed = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(l, "games"));
	cJSON_Delete(l);
	free(listed);
	long churn_seq = -1;
	if (churned[0]) {
		snprintf(npath, sizeof npath, "/v1/games/%s", churned);
		call(&c, "GET", npath, tc1, NULL, &out);
		cJSON *g = cJSON_Parse(out ? out : "");
		const cJSON *sq = cJSON_GetObjectItemCaseSensitive(g, "seq");
		churn_seq = cJSON_IsNumber(sq) ? (long)sq->valuedouble : -1;
		cJSON_Delete(g);
		free(out);
	}
	printf("left behind: %d games in the public list, the churned game at seq %ld\n", n_listed, churn_seq);
	c.n = timed;
	char *health = NULL;
	long hs = call(&c, "GET", "/v1/health", NULL, NULL, &health);
	free(health);
	qsort(c.lat_us, c.n, sizeof *c.lat_us, cmp64);
	double p50 = c.n ? (double)c.lat_us[c.n / 2] / 1000 : 0;
	double p99 = c.n ? (double)c.lat_us[c.n * 99 / 100] / 1000 : 0;
	double max = c.n ? (double)c.lat_us[c.n - 1] / 1000 : 0;
	printf("soak: %d s, %d attackers (%s), %ld attack requests (%ld refused or cut off)\n", seconds, n_attackers,
	       attack_rate ? "rate-capped" : "flat out", (long)atomic_load(&attacks_sent),
	       (long)atomic_load(&attacks_refused));
	printf("client: %zu requests, %ld games, %ld moves, %ld transport errors\n", c.n, games, moves, c.errors);
	printf("client latency ms: p50 %.2f p99 %.2f max %.2f\n", p50, p99, max);
	printf("server peak RSS: %.1f MB; health after: %ld\n", (double)peak_kb / 1024, hs);
	/* The machine is shared: what else ran says how to read the figures. */
	FILE *la = fopen("/proc/loadavg", "r");
	double load1 = 0;
	if (la && fscanf(la, "%lf", &load1) == 1)
		printf("machine load average (1 min) at the end: %.2f\n", load1);
	if (la)
		fclose(la);
	curl_easy_cleanup(c.easy);
	free(c.lat_us);
	free(att);
	kill(pid, SIGTERM);
	int st;
	waitpid(pid, &st, 0);
	unlink(db);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", db);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", db);
	unlink(wal);
	unlink(conf);
	unlink(log);
	rmdir(dir);
	return hs == 200 ? 0 : 1;
}
