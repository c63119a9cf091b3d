/*
 * The HTTP front of tchessd on libmicrohttpd (http.c and http-park.c, with
 * http-internal.h, are the only files that include microhttpd.h): listening, limits, body collection, routing of
 * /v1 paths to the api_* handlers, JSON replies, and parking long-polls.
 *
 * Handlers run with the server lock held (see server.h). A handler fills a
 * struct http_reply: a status and a JSON body, an answer to encode once the
 * lock is released (http_reply_later: a read's, which may be large), or
 * "park on game G". A parked
 * request is suspended until an event on G, its deadline
 * (cfg.poll_timeout_ms, counted from when it first parked), shutdown, or
 * its client hanging up (noticed within a second), and then its handler
 * runs again with req->wake saying which. It runs again in every case,
 * once: on WAITER_GONE only to take back what it counted while parked (a
 * seat's presence), since its answer goes nowhere.
 *
 * http_dispatch is the whole of request handling without sockets: limits,
 * rate limits, routing and the handler. The libmicrohttpd glue fills a
 * struct http_request from a connection and calls it; the request fuzzer
 * (tests/fuzz/fuzz-request.c) calls it with requests made from bytes.
 *
 * Under group commit (server.h) a reply made while some commit is not yet
 * durable is held: the connection is suspended with its reply and resumed
 * by http_durable once the fsync covering the latest commit at the time of
 * the reply is done. So a command is acknowledged only when durable, and no
 * read shows state that could vanish. A handler that shows only durable
 * state (the events poll) sets reply->durable and is answered at once.
 */
#ifndef TCHESS_SERVER_HTTP_H
#define TCHESS_SERVER_HTTP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "server.h"
#include "tchess/routes.h"
#include "util/sha256.h"
#include "tchess/protocol.h"
#include "waiters.h"

#define HTTP_MAX_PARAMS ROUTES_PARAMS_MAX

enum http_value_kind {
	HTTP_VALUE_HEADER,
	HTTP_VALUE_QUERY,
};

/* Looks up a request header (case-insensitively) or query argument; NULL
 * when absent. */
typedef const char *(*http_lookup_fn)(void *ctx, enum http_value_kind kind, const char *name);

struct http_request {
	const char *method;
	const char *path;
	/* Path segments matched by ":" in the route, NUL-terminated copies. */
	char params[HTTP_MAX_PARAMS][ROUTES_PARAM_LEN];
	const char *body; /* NUL-terminated; NULL when there is none */
	size_t body_len;
	enum waiter_wake wake; /* WAITER_NONE on the first run */
	/* On a woken run: the player the parked run authenticated (its
	 * http_reply_park), whatever the token says now; 0 for none. */
	int64_t parked_by;
	const char *peer;      /* the client's address (per-address limits); NULL: none */
	http_lookup_fn lookup; /* headers and query arguments; NULL: none */
	void *lookup_ctx;
	/* The SHA-256 of the bearer token (the Authorization header after
	 * "Bearer "), once the rate limiter has computed it: api_auth takes
	 * it from here rather than hashing the token again. */
	bool token_hashed;
	uint8_t token_hash[SHA256_DIGEST_SIZE];
};

struct http_reply {
	int status;
	char *body; /* JSON text, malloc'd; NULL with status 0 means "park" */
	const char *content_type; /* static; NULL: application/json */
	char park_game[STORE_GAME_ID_MAX + 1];
	int64_t park_player; /* who parks (0: nobody), for the woken run's parked_by */
	int retry_after_s; /* > 0: a Retry-After header (429, 503) */
	bool durable; /* the body shows only durable state: never held */
	/* An answer encoded after the server lock (http_reply_later): body is
	 * NULL until http_reply_encode. */
	char *(*encode)(void *ctx, int *status);
	void *encode_ctx;
};

typedef void (*http_handler_fn)(struct server *srv, struct http_request *req, struct http_reply *reply);

/* The handler of a route of the protocol's table (tchess/routes.h, which
 * has the method and path); a table of them ends with a NULL handler. */
struct http_route {
	enum route_id route;
	http_handler_fn handler;
};

/* A request header or query argument, or NULL. */
const char *http_request_header(const struct http_request *req, const char *name);
const char *http_request_query(const struct http_request *req, const char *name);

/* Sets the reply to status with body (taken over). */
void http_reply_json(struct http_reply *reply, int status, char *body);
/* Sets the reply to status with a body of another type (a static string
 * such as "text/plain; charset=utf-8"). */
void http_reply_text(struct http_reply *reply, int status, const char *content_type, char *body);
/* Sets the reply to the error code with a printf-style message. */
void http_reply_error(struct http_reply *reply, enum protocol_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void http_reply_from_error(struct http_reply *reply, const struct protocol_error *err);
/* Sets the reply to a JSON answer that encode(ctx, &status) makes after the
 * server lock is released (issue 12 item 1: a large answer is never built
 * under it), from what the handler copied under it; encode frees ctx, and
 * sets the status. */
void http_reply_later(struct http_reply *reply, char *(*encode)(void *ctx, int *status), void *ctx);
/* Without the server lock, after http_dispatch: runs a reply's encode, so
 * that it holds a status and body (a no-op for any other reply). */
void http_reply_encode(struct http_reply *reply);
/* Whether the reply parks the request (no body, none to encode). */
bool http_reply_parks(const struct http_reply *reply);
/* Parks the request on game_id (see above); player (0: none) is whom its
 * woken run's req->parked_by names. */
void http_reply_park(struct http_reply *reply, const char *game_id, int64_t player);

/* Handles req with the server lock held (the caller takes it, so that a
 * parking request can be suspended before anyone can wake it): checks the
 * URL length and the rate limits (only on the first run, not when a parked
 * request runs again), routes to a handler of routes (404, 405) and runs
 * it. reply starts zeroed; afterwards it holds a status and body, an
 * answer to encode (http_reply_encode, after the lock), or a park
 * (http_reply_parks: status 0, body NULL, park_game set). A storage failure caused by
 * a full or read-only disk becomes 503 with Retry-After. */
void http_dispatch(struct server *srv, const struct http_route *routes, struct http_request *req,
		   struct http_reply *reply);

/* Binds cfg.listen, starts the daemon and the poll timer, and prints
 * "listening on ADDR:PORT" to stdout. routes ends with a NULL method. */
struct http *http_start(struct server *srv, const struct http_route *routes, char **errmsg);
/* With the server lock held: wakes the parked polls of game_id. */
void http_wake_game(struct http *h, const char *game_id);
/* With the server lock held: whether a poll is parked on game_id (false
 * for NULL). */
bool http_watched(const struct http *h, const char *game_id);
/* Parked polls right now (with the server lock held); 0 for NULL. */
size_t http_parked(const struct http *h);
/* Shutdown, part one: stop accepting, answer every parked poll, and wait up
 * to cfg.drain_timeout_ms for requests in flight. Takes the lock itself. */
void http_drain(struct http *h);
/* Part two: stops the daemon and the timer and frees h (NULL is a no-op). */
void http_stop(struct http *h);

#endif
