/*
 * libFuzzer target for tchessd's request handling without sockets: the
 * input is one HTTP request in text form,
 *
 *	METHOD PATH[?QUERY]
 *	Name: value            (headers, until an empty line)
 *
 *	BODY
 *
 * handed to http_dispatch (the function the libmicrohttpd glue calls) with
 * the real route table, a real store on a temporary SQLite file and a real
 * game service. So that inputs reach past authentication, "$A" and "$B" in
 * the path, the query and header values stand for the tokens of two
 * registered players (the new one after a POST /v1/me/token) and "$G" for
 * the id of a game between them (started at start-up). A request that
 * parks is run again as if its poll timed out. Every answer must be a JSON
 * body (or the PGN text) and every error a well-formed error object whose
 * code matches the status.
 *
 * The server's state carries over between inputs, like a real server's;
 * every NEW_GAME_EVERY inputs "$G" becomes a new game, and every
 * RESET_EVERY inputs the server is thrown away and built again so that the
 * games created meanwhile do not pile up in memory.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api.h"
#include "config.h"
#include "http.h"
#include "ratelimit.h"
#include "server.h"
#include "util/log.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define RESET_EVERY 20000
#define NEW_GAME_EVERY 200
#define MAX_VALUES 32

static char dir[64];
static struct server srv;
static bool up;
static char tokens[2][PROTOCOL_TOKEN_MAX + 1];
static char game[PROTOCOL_GAME_ID_MAX + 1];
static unsigned runs;

struct values {
	enum http_value_kind kind[MAX_VALUES];
	char *name[MAX_VALUES];
	char *value[MAX_VALUES];
	int n;
};

static const char *lookup(void *ctx, enum http_value_kind kind, const char *name)
{
	struct values *v = ctx;
	for (int i = 0; i < v->n; i++) {
		if (v->kind[i] == kind &&
		    (kind == HTTP_VALUE_HEADER ? !strcasecmp(v->name[i], name) : !strcmp(v->name[i], name)))
			return v->value[i];
	}
	return NULL;
}

/* s[0..len) with $A, $B and $G replaced; malloc'd. */
static char *expand(const char *s, size_t len)
{
	size_t cap = len + 1;
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '$')
			cap += 2 * PROTOCOL_TOKEN_MAX;
	char *out = xmalloc(cap), *o = out;
	for (size_t i = 0; i < len; i++) {
		const char *sub = NULL;
		if (s[i] == '$' && i + 1 < len)
			sub = s[i + 1] == 'A' ? tokens[0] : s[i + 1] == 'B' ? tokens[1] : s[i + 1] == 'G' ? game : NULL;
		if (sub) {
			size_t n = strlen(sub);
			memcpy(o, sub, n);
			o += n;
			i++;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* Runs one request; aborts if the answer breaks the protocol's rules. */
static void run(const char *method, const char *path, struct values *vals, const char *body, size_t body_len,
		struct http_reply *reply)
{
	struct http_request req = {
		.method = method,
		.path = path,
		.body = body,
		.body_len = body_len,
		.peer = "192.0.2.1",
		.lookup = lookup,
		.lookup_ctx = vals,
	};
	memset(reply, 0, sizeof *reply);
	pthread_mutex_lock(&srv.lock);
	http_dispatch(&srv, api_routes, &req, reply);
	if (http_reply_parks(reply)) {
		if (!reply->park_game[0] || reply->status)
			abort();
		memset(reply, 0, sizeof *reply);
		req.wake = WAITER_TIMEOUT;
		http_dispatch(&srv, api_routes, &req, reply);
	}
	pthread_mutex_unlock(&srv.lock);
	http_reply_encode(reply);
	if (!reply->body)
		abort(); /* a poll that timed out must answer */
	int status = reply->status ? reply->status : 200;
	if (status < 200 || status > 599)
		abort();
	if (reply->content_type)
		return;
	cJSON *j = cJSON_Parse(reply->body);
	if (!j || !cJSON_IsObject(j))
		abort();
	cJSON_Delete(j);
	if (status >= 400) {
		struct protocol_error e, err;
		if (protocol_error_decode(reply->body, strlen(reply->body), &e, &err) ||
		    protocol_error_status(e.code) != status)
			abort();
	}
}

static void simple(const char *method, const char *path, const char *token, const char *body, int want,
		   struct http_reply *reply)
{
	struct values v = { .n = 0 };
	char auth[PROTOCOL_TOKEN_MAX + 16];
	if (token) {
		snprintf(auth, sizeof auth, "Bearer %s", token);
		v.kind[0] = HTTP_VALUE_HEADER;
		v.name[0] = (char *)"Authorization";
		v.value[0] = auth;
		v.n = 1;
	}
	run(method, path, &v, body, body ? strlen(body) : 0, reply);
	if (reply->status != want) {
		fprintf(stderr, "fuzz-request setup: %s %s: %d %s\n", method, path, reply->status, reply->body);
		abort();
	}
}

/* $G: a new game between the two, alice White. */
static void new_game(void)
{
	struct http_reply r;
	simple("POST", "/v1/games", tokens[0], "{\"tc\":\"5+3\",\"color\":\"white\"}", 201, &r);
	struct protocol_seat_response s;
	struct protocol_error perr;
	if (protocol_seat_response_decode(r.body, strlen(r.body), &s, &perr))
		abort();
	strcpy(game, s.id);
	free(r.body);
	char path[96];
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	simple("POST", path, tokens[1], "{}", 200, &r);
	free(r.body);
}

static void server_up(void)
{
	struct server_config cfg;
	config_init(&cfg);
	char *err = NULL;
	char db[96];
	snprintf(db, sizeof db, "%s/fuzz.db", dir);
	unlink(db);
	config_set(&cfg, "db", db, &err);
	config_set(&cfg, "sync", "normal", &err);
	/* The rate limits have their own tests; here they would only turn
	 * most inputs into 429s. */
	config_set(&cfg, "rate_ip_per_s", "0", &err);
	config_set(&cfg, "rate_token_per_s", "0", &err);
	if (server_init(&srv, &cfg, &err)) {
		fprintf(stderr, "fuzz-request: %s\n", err);
		abort();
	}
	struct http_reply r;
	const char *names[2] = { "{\"name\":\"alice\"}", "{\"name\":\"bob\"}" };
	for (int i = 0; i < 2; i++) {
		simple("POST", "/v1/players", NULL, names[i], 201, &r);
		struct protocol_register_response rr;
		struct protocol_error perr;
		if (protocol_register_response_decode(r.body, strlen(r.body), &rr, &perr))
			abort();
		strcpy(tokens[i], rr.token);
		free(r.body);
	}
	up = true;
	new_game();
}

static void server_down(void)
{
	if (!up)
		return;
	server_fini(&srv);
	up = false;
	const char *suffix[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		char p[128];
		snprintf(p, sizeof p, "%s/fuzz.db%s", dir, suffix[i]);
		unlink(p);
	}
}

static void cleanup(void)
{
	server_down();
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_set_level(LOG_ERROR);
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/fuzz-request-XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	server_up();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (++runs % RESET_EVERY == 0) {
		server_down();
		server_up();
	} else if (runs % NEW_GAME_EVERY == 0) {
		/* $G soon ends (a resignation, eleven invalid commands): a
		 * game still running now and then keeps the rules in reach. */
		new_game();
	}
	const char *s = (const char *)data, *end = s + size;
	/* Request line. */
	const char *nl = memchr(s, '\n', size);
	const char *line_end = nl ? nl : end;
	const char *sp = memchr(s, ' ', (size_t)(line_end - s));
	if (!sp)
		return 0;
	char *method = xstrndup(s, (size_t)(sp - s));
	char *target = expand(sp + 1, (size_t)(line_end - sp - 1));
	struct values v = { .n = 0 };
	char *q = strchr(target, '?');
	if (q) {
		*q++ = '\0';
		for (char *arg = strtok(q, "&"); arg && v.n < MAX_VALUES; arg = strtok(NULL, "&")) {
			char *eq = strchr(arg, '=');
			v.kind[v.n] = HTTP_VALUE_QUERY;
			v.name[v.n] = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
			v.value[v.n] = xstrdup(eq ? eq + 1 : "");
			v.n++;
		}
	}
	/* Headers, then the body after an empty line. */
	const char *p = nl ? nl + 1 : end;
	const char *body = NULL;
	size_t body_len = 0;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *le = e ? e : end;
		if (le == p) {
			body = p + 1 <= end ? p + 1 : end;
			body_len = (size_t)(end - body);
			break;
		}
		const char *colon = memchr(p, ':', (size_t)(le - p));
		if (colon && v.n < MAX_VALUES) {
			const char *val = colon + 1;
			while (val < le && *val == ' ')
				val++;
			v.kind[v.n] = HTTP_VALUE_HEADER;
			v.name[v.n] = xstrndup(p, (size_t)(colon - p));
			v.value[v.n] = expand(val, (size_t)(le - val));
			v.n++;
		}
		p = e ? e + 1 : end;
	}
	/* Bodies reach handlers NUL-terminated, as the glue's buffer is. */
	char *b = NULL;
	if (body) {
		b = xmalloc(body_len + 1);
		memcpy(b, body, body_len);
		b[body_len] = '\0';
	}
	struct http_reply reply;
	run(method, target, &v, b, body_len, &reply);
	/* A player's token replaced: $A or $B stands for the new one, so
	 * later inputs still reach past authentication. */
	struct protocol_register_response rr;
	struct protocol_error perr;
	if (reply.status == 200 && !strcmp(method, "POST") && !strcmp(target, "/v1/me/token")) {
		if (protocol_register_response_decode(reply.body, strlen(reply.body), &rr, &perr))
			abort();
		strcpy(tokens[strcmp(rr.name, "alice") ? 1 : 0], rr.token);
	}
	free(reply.body);
	free(b);
	for (int i = 0; i < v.n; i++) {
		free(v.name[i]);
		free(v.value[i]);
	}
	free(method);
	free(target);
	return 0;
}
