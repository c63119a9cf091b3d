/*
 * HTTP on libmicrohttpd; see http.h. The only file that includes
 * microhttpd.h.
 *
 * libmicrohttpd runs with its internal polling thread (epoll where
 * available) and suspend/resume. Limits: a connection count, a per-connection
 * memory pool (headers must fit in it), an idle timeout, a deadline for a
 * request's line and headers that trickling cannot move (the reaper thread
 * here shuts such a connection), and a request body limit answered with
 * 413. Framing is strict: a Host header on HTTP/1.1, no space or control
 * byte in the URL, one Content-Length and no Transfer-Encoding, a bounded
 * number of query arguments, each refused with a JSON error before any
 * body is read. These are the checks of libmicrohttpd's strict client mode
 * (MHD_OPTION_STRICT_FOR_CLIENT, the only one 0.9.75 has) and more, made
 * here because that mode's own refusal is an HTML page sent with its status
 * line twice. libmicrohttpd's own messages go through log_msg, which
 * escapes them. Parked polls, their deadlines and the watch for clients
 * that hang up while parked are http-park.c's (http-internal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http-internal.h"
#include "http.h"
#include "ratelimit.h"
#include "store.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Open connections of one client address (per_ip_connections), keyed by
 * ratelimit_addr_key. */
struct peer {
	struct peer *next;
	unsigned n;
	char addr[NI_MAXHOST];
};

/* More query arguments than this are refused (414) before libmicrohttpd
 * stores them: each costs a record in the connection's small memory
 * pool, and libmicrohttpd 0.9.75 never sends its own 431 when that runs
 * out. The API reads one or two. */
#define HTTP_MAX_QUERY_ARGS 16

/* One connection (MHD's socket context), from its opening to its close,
 * under count_lock. While a request's line and headers are still coming
 * it sits on the awaiting list with the deadline by which they must have
 * come (header_timeout_s). */
struct http_sock {
	struct http_sock *prev, *next; /* the awaiting list */
	bool awaiting;
	MHD_socket fd;
	int64_t deadline_ms;
	bool counted;                  /* counts towards its address's peer */
	char key[NI_MAXHOST];          /* ratelimit_addr_key of the client */
};

const char *http_request_header(const struct http_request *req, const char *name)
{
	return req->lookup ? req->lookup(req->lookup_ctx, HTTP_VALUE_HEADER, name) : NULL;
}

const char *http_request_query(const struct http_request *req, const char *name)
{
	return req->lookup ? req->lookup(req->lookup_ctx, HTTP_VALUE_QUERY, name) : NULL;
}

static const char *mhd_lookup(void *ctx, enum http_value_kind kind, const char *name)
{
	return MHD_lookup_connection_value(ctx, kind == HTTP_VALUE_HEADER ? MHD_HEADER_KIND : MHD_GET_ARGUMENT_KIND,
					   name);
}

void http_reply_json(struct http_reply *reply, int status, char *body)
{
	free(reply->body);
	reply->status = status;
	reply->body = body;
	reply->content_type = NULL;
}

void http_reply_later(struct http_reply *reply, char *(*encode)(void *ctx, int *status), void *ctx)
{
	http_reply_json(reply, 200, NULL);
	reply->encode = encode;
	reply->encode_ctx = ctx;
}

void http_reply_encode(struct http_reply *reply)
{
	if (!reply->encode)
		return;
	int status = 200;
	char *body = reply->encode(reply->encode_ctx, &status);
	reply->encode = NULL;
	reply->encode_ctx = NULL;
	http_reply_json(reply, status, body);
}

bool http_reply_parks(const struct http_reply *reply)
{
	return !reply->body && !reply->encode;
}

void http_reply_text(struct http_reply *reply, int status, const char *content_type, char *body)
{
	http_reply_json(reply, status, body);
	reply->content_type = content_type;
}

void http_reply_from_error(struct http_reply *reply, const struct protocol_error *err)
{
	http_reply_json(reply, protocol_error_status(err->code), protocol_error_encode(err));
}

void http_reply_error(struct http_reply *reply, enum protocol_error_code code, const char *fmt, ...)
{
	struct protocol_error err = { .code = code };
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err.message, sizeof err.message, fmt, ap);
	va_end(ap);
	http_reply_from_error(reply, &err);
}

void http_reply_park(struct http_reply *reply, const char *game_id, int64_t player)
{
	reply->park_player = player;
	free(reply->body);
	reply->body = NULL;
	reply->status = 0;
	snprintf(reply->park_game, sizeof reply->park_game, "%s", game_id);
}

static enum MHD_Result queue_typed(struct http_conn *c, int status, char *body, bool closing, const char *type,
				   int retry_after_s)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type ? type : "application/json");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (retry_after_s > 0) {
		char secs[24];
		snprintf(secs, sizeof secs, "%d", retry_after_s);
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, secs);
	}
	if (closing)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	enum MHD_Result ret = MHD_queue_response(c->conn, (unsigned)status, r);
	MHD_destroy_response(r);
	c->replied = true;
	/* Method, path and status only: tokens travel in a header that is
	 * never logged. Then how long it took, and how long of it its handler
	 * held the server lock (what every other request waited for). */
	if (c->trips)
		log_info("%s %s %d %lldms, lock %lldus, %llu store round trips", c->method, c->url, status,
			 (long long)(now_mono_ms() - c->start_ms), (long long)c->lock_us, (unsigned long long)c->trips);
	else
		log_info("%s %s %d %lldms, lock %lldus", c->method, c->url, status,
			 (long long)(now_mono_ms() - c->start_ms), (long long)c->lock_us);
	return ret;
}

static enum MHD_Result queue(struct http_conn *c, int status, char *body, bool closing)
{
	return queue_typed(c, status, body, closing, NULL, 0);
}

static enum MHD_Result queue_error(struct http_conn *c, enum protocol_error_code code, const char *msg)
{
	struct protocol_error err = { .code = code };
	snprintf(err.message, sizeof err.message, "%s", msg);
	return queue(c, protocol_error_status(code), protocol_error_encode(&err), code == PROTOCOL_ERR_TOO_LARGE);
}

/* A storage failure the operator can fix (disk full, database read-only,
 * I/O error, lock held elsewhere) is 503: the command did not happen and
 * the same request may succeed later. */
static void unavailable_if_storage(struct server *srv, struct http_reply *reply)
{
	if (reply->status != 500 || !srv->store || !store_failure_transient(srv->store))
		return;
	http_reply_error(reply, PROTOCOL_ERR_UNAVAILABLE, "storage unavailable (full or read-only); retry later");
	reply->retry_after_s = 5;
}

/* Whether peer is one of the space-separated addresses of list. */
static bool exempt(const char *list, const char *peer)
{
	size_t n = strlen(peer);
	for (const char *p = list ? list : ""; *p;) {
		size_t len = strcspn(p, " \t");
		if (len && len == n && !memcmp(p, peer, n))
			return true;
		p += len;
		p += strspn(p, " \t");
	}
	return false;
}

/* Charges the rate limits; false after replying 429. Every request costs
 * one token of its address's bucket; a command (any method but GET) that
 * carries a token also costs one of that token's bucket. A long-poll pays
 * once when it arrives, nothing while parked or when it runs again. */
static bool rate_ok(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	int64_t now = now_mono_ms();
	const char *peer = req->peer ? req->peer : "";
	char group[NI_MAXHOST];
	ratelimit_addr_key(peer, srv->cfg.ipv6_prefix, group, sizeof group);
	bool free_of = exempt(srv->cfg.rate_exempt, peer);
	int64_t wait = free_of ? 0 : ratelimit_take(srv->rate_ip, group, strlen(group), now);
	const char *what = "this address";
	/* A registration also costs one of the address's registrations
	 * (issue 12 item 4: a thousand free accounts from one address). */
	enum route_id route;
	if (!wait && !free_of && routes_match(req->method, req->path, req->params, &route) == ROUTES_MATCHED &&
	    route == ROUTE_PLAYERS_CREATE) {
		/* Counted for the whole cluster: one row of the database. */
		wait = server_limit_take(srv, srv->rate_register, "register", group, srv->cfg.register_per_hour,
					 3600 * 1000, srv->cfg.register_per_hour);
		what = "this address (registrations)";
	}
	if (!wait && strcmp(req->method, "GET")) {
		const char *auth = http_request_header(req, "Authorization");
		if (auth) {
			/* Keyed by the token's hash: the table holds no secret.
			 * A bearer token's hash is api_auth's too. */
			static const char bearer[] = "Bearer ";
			uint8_t key[SHA256_DIGEST_SIZE];
			if (!strncmp(auth, bearer, sizeof bearer - 1)) {
				sha256(auth + sizeof bearer - 1, strlen(auth + sizeof bearer - 1), req->token_hash);
				req->token_hashed = true;
				memcpy(key, req->token_hash, sizeof key);
			} else {
				sha256(auth, strlen(auth), key);
			}
			wait = ratelimit_take(srv->rate_token, key, sizeof key, now);
			what = "this token";
		}
	}
	if (!wait)
		return true;
	http_reply_error(reply, PROTOCOL_ERR_RATE_LIMITED, "too many requests from %s; retry in %lld ms", what,
			 (long long)wait);
	reply->retry_after_s = (int)((wait + 999) / 1000);
	log_debug("%s %s: rate limited (%s)", req->method, req->path, what);
	return false;
}

void http_dispatch(struct server *srv, const struct http_route *routes, struct http_request *req,
		   struct http_reply *reply)
{
	if (strlen(req->path) > srv->cfg.max_url) {
		http_reply_error(reply, PROTOCOL_ERR_URI_TOO_LONG, "the URL is longer than %zu bytes", srv->cfg.max_url);
		return;
	}
	if (req->wake == WAITER_NONE && !rate_ok(srv, req, reply))
		return;
	/* The one check of user text (util/text.h) for every handler: no
	 * string of a body may hold what a terminal or a strict JSON reader
	 * would trip on, nor a NUL that would cut it short. */
	if (req->body && req->body_len) {
		size_t at = 0;
		const char *why = memchr(req->body, '\0', req->body_len) ? "a NUL byte"
									: text_check_json(req->body, req->body_len, &at);
		if (why) {
			http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST,
					 "text must be UTF-8 without control or bidirectional characters: %s at byte %zu",
					 why, at);
			return;
		}
	}
	enum route_id id = ROUTE_COUNT;
	enum routes_match_result m = routes_match(req->method, req->path, req->params, &id);
	if (m == ROUTES_NO_METHOD) {
		http_reply_error(reply, PROTOCOL_ERR_METHOD_NOT_ALLOWED, "method not allowed on this path");
		return;
	}
	const struct http_route *route = NULL;
	for (const struct http_route *r = routes; m == ROUTES_MATCHED && r->handler && !route; r++)
		route = r->route == id ? r : NULL;
	if (!route) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such path");
		return;
	}
	route->handler(srv, req, reply);
	if (http_reply_parks(reply) && !reply->park_game[0]) {
		log_error("%s %s: handler gave no reply", req->method, req->path);
		http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "no reply");
	}
	unavailable_if_storage(srv, reply);
}

/* ---- connections per address ----
 *
 * Counted here rather than by the HTTP library's own per-address limit so
 * that rate_exempt addresses (loopback by default: a reverse proxy, which
 * limits per real client itself, or a local benchmark) are free of it. */

static struct peer **peer_slot(struct http *h, const char *addr)
{
	uint32_t hash = 2166136261u;
	for (const char *p = addr; *p; p++)
		hash = (hash ^ (uint8_t)*p) * 16777619u;
	struct peer **pp = &h->peers[hash % HTTP_PEER_BUCKETS];
	while (*pp && strcmp((*pp)->addr, addr))
		pp = &(*pp)->next;
	return pp;
}

static void sockaddr_text(const struct sockaddr *sa, char *out, size_t size)
{
	socklen_t len = sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	if (getnameinfo(sa, len, out, (socklen_t)size, NULL, 0, NI_NUMERICHOST))
		out[0] = '\0';
}

/* The accept policy: an address at its limit is refused (the socket is
 * closed before anything is read). */
static enum MHD_Result http_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct http *h = cls;
	unsigned limit = h->srv->cfg.per_ip_connections;
	char text[NI_MAXHOST], key[NI_MAXHOST];
	(void)addrlen;
	if (!limit)
		return MHD_YES;
	sockaddr_text(addr, text, sizeof text);
	if (exempt(h->srv->cfg.rate_exempt, text))
		return MHD_YES;
	ratelimit_addr_key(text, h->srv->cfg.ipv6_prefix, key, sizeof key);
	pthread_mutex_lock(&h->count_lock);
	struct peer *p = *peer_slot(h, key);
	bool full = p && p->n >= limit;
	pthread_mutex_unlock(&h->count_lock);
	if (full)
		log_debug("refused a connection from %s: %u open from %s (per_ip_connections)", text, limit, key);
	return full ? MHD_NO : MHD_YES;
}

/* Puts s on the awaiting list (or moves its deadline); under count_lock. */
static void await_headers(struct http *h, struct http_sock *s, int64_t deadline_ms)
{
	if (!h->srv->cfg.header_timeout_s)
		return;
	s->deadline_ms = deadline_ms;
	if (s->awaiting)
		return;
	s->awaiting = true;
	s->prev = NULL;
	s->next = h->awaiting;
	if (h->awaiting)
		h->awaiting->prev = s;
	h->awaiting = s;
}

/* Takes s off the awaiting list; under count_lock. */
static void headers_arrived(struct http *h, struct http_sock *s)
{
	if (!s->awaiting)
		return;
	if (s->prev)
		s->prev->next = s->next;
	else
		h->awaiting = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
	s->awaiting = false;
}

static struct http_sock *conn_sock(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

/* Connection opened and closed: its header deadline and the count of its
 * address. MHD reports the close before it closes the socket, so the
 * reaper, which holds count_lock too, never shuts a socket number that
 * another connection has been given since. */
static void http_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct http *h = cls;
	struct http_sock *s = *socket_context;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		s = xcalloc(1, sizeof *s);
		*socket_context = s;
		const union MHD_ConnectionInfo *fi = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		s->fd = fi ? fi->connect_fd : MHD_INVALID_SOCKET;
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		char text[NI_MAXHOST] = "";
		if (ci && ci->client_addr)
			sockaddr_text(ci->client_addr, text, sizeof text);
		ratelimit_addr_key(text, h->srv->cfg.ipv6_prefix, s->key, sizeof s->key);
		s->counted = h->srv->cfg.per_ip_connections && text[0];
		pthread_mutex_lock(&h->count_lock);
		await_headers(h, s, now_mono_ms() + (int64_t)h->srv->cfg.header_timeout_s * 1000);
		if (s->counted) {
			struct peer **pp = peer_slot(h, s->key);
			if (!*pp) {
				*pp = xcalloc(1, sizeof **pp);
				snprintf((*pp)->addr, sizeof (*pp)->addr, "%s", s->key);
			}
			(*pp)->n++;
		}
		pthread_mutex_unlock(&h->count_lock);
		return;
	}
	if (!s)
		return;
	pthread_mutex_lock(&h->count_lock);
	headers_arrived(h, s);
	struct peer **pp = s->counted ? peer_slot(h, s->key) : NULL;
	if (pp && *pp && --(*pp)->n == 0) {
		struct peer *gone = *pp;
		*pp = gone->next;
		free(gone);
	}
	pthread_mutex_unlock(&h->count_lock);
	free(s);
	*socket_context = NULL;
}

/* Shuts every connection whose request line and headers are late: MHD then
 * reads the end of the stream and closes it as usual. */
static void *http_reaper_main(void *arg)
{
	struct http *h = arg;
	pthread_mutex_lock(&h->count_lock);
	while (!h->reaper_stop) {
		int64_t now = now_mono_ms(), next = now + 1000;
		for (struct http_sock *s = h->awaiting, *n; s; s = n) {
			n = s->next;
			if (s->deadline_ms > now) {
				if (s->deadline_ms < next)
					next = s->deadline_ms;
				continue;
			}
			headers_arrived(h, s);
			if (s->fd != MHD_INVALID_SOCKET)
				shutdown(s->fd, SHUT_RDWR);
			log_debug("closed a connection from %s: no complete request within %us (header_timeout_s)",
				  s->key, h->srv->cfg.header_timeout_s);
		}
		struct timespec ts = { .tv_sec = (time_t)(next / 1000), .tv_nsec = (long)(next % 1000) * 1000000 };
		pthread_cond_timedwait(&h->reaper_cond, &h->count_lock, &ts);
	}
	pthread_mutex_unlock(&h->count_lock);
	return NULL;
}

static void peers_free(struct http *h)
{
	for (size_t i = 0; i < HTTP_PEER_BUCKETS; i++) {
		while (h->peers[i]) {
			struct peer *next = h->peers[i]->next;
			free(h->peers[i]);
			h->peers[i] = next;
		}
	}
}

static void conn_peer(struct MHD_Connection *conn, char *out, size_t size)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	out[0] = '\0';
	if (!ci || !ci->client_addr)
		return;
	socklen_t len = ci->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
							       : sizeof(struct sockaddr_in);
	if (getnameinfo(ci->client_addr, len, out, (socklen_t)size, NULL, 0, NI_NUMERICHOST))
		out[0] = '\0';
}

/* c's request as http_dispatch takes it; peer is the caller's buffer. */
static struct http_request request_of(struct http_conn *c, char *peer, size_t peer_size)
{
	conn_peer(c->conn, peer, peer_size);
	struct http_request req = {
		.method = c->method,
		.path = c->url,
		.body = c->body.data,
		.body_len = c->body.len,
		.wake = c->wake,
		.parked_by = c->wake != WAITER_NONE ? c->parked_by : 0,
		.peer = peer,
		.lookup = mhd_lookup,
		.lookup_ctx = c->conn,
	};
	return req;
}

/* A parked request whose client hung up (WAITER_GONE): its handler runs
 * once more for its accounting (http.h), and its answer is dropped. */
static void run_gone(struct http *h, struct http_conn *c)
{
	struct server *srv = h->srv;
	char peer[NI_MAXHOST];
	c->wake = WAITER_GONE;
	struct http_request req = request_of(c, peer, sizeof peer);
	struct http_reply reply = { 0 };
	pthread_mutex_lock(&srv->lock);
	c->rerun = false;
	http_dispatch(srv, h->routes, &req, &reply);
	pthread_mutex_unlock(&srv->lock);
	http_reply_encode(&reply);
	free(reply.body);
	log_debug("%s %s: the client hung up while it was parked", c->method, c->url);
}

static enum MHD_Result dispatch(struct http *h, struct http_conn *c)
{
	struct server *srv = h->srv;
	if (c->wake == WAITER_GONE) {
		/* Nobody reads an answer; one is queued all the same, with a
		 * close, so that MHD closes the connection quietly (a refusal
		 * would log an internal error): its send fails or goes
		 * nowhere. */
		run_gone(h, c);
		return queue_typed(c, 200, xstrdup("{}"), true, NULL, 0);
	}
	char peer[NI_MAXHOST];
	struct http_request req = request_of(c, peer, sizeof peer);
	struct http_reply reply = { 0 };
	pthread_mutex_lock(&srv->lock);
	int64_t locked_us = now_mono_us();
	c->rerun = false;
	uint64_t trips = srv->store ? store_round_trips(srv->store) : 0;
	http_dispatch(srv, h->routes, &req, &reply);
	c->trips += (srv->store ? store_round_trips(srv->store) : 0) - trips;
	bool closing = srv->draining;
	if (http_reply_parks(&reply)) {
		http_park_suspend(h, c, &reply);
		c->lock_us += now_mono_us() - locked_us;
		pthread_mutex_unlock(&srv->lock);
		log_debug("%s %s parked on %s", c->method, c->url, c->waiter.game_id);
		return MHD_YES;
	}
	uint64_t pending = !reply.durable ? commit_pending(&srv->commit) : 0;
	if (reply.encode) {
		/* Encoded without the lock (issue 12 item 1), from what the
		 * handler copied; a reply that must wait for a commit is held
		 * only if that commit is not durable by then. */
		c->lock_us += now_mono_us() - locked_us;
		pthread_mutex_unlock(&srv->lock);
		http_reply_encode(&reply);
		if (!pending)
			return queue_typed(c, reply.status, reply.body, closing, reply.content_type,
					   reply.retry_after_s);
		pthread_mutex_lock(&srv->lock);
		locked_us = now_mono_us();
		if (commit_durable(&srv->commit, pending))
			pending = 0;
	}
	if (pending) {
		c->held_for = pending;
		c->held_ready = false;
		c->held_status = reply.status ? reply.status : 200;
		c->held_retry_after = reply.retry_after_s;
		c->held_body = reply.body;
		c->held_type = reply.content_type;
		c->held_closing = closing;
		c->held_next = NULL;
		if (h->held_tail)
			h->held_tail->held_next = c;
		else
			h->held_head = c;
		h->held_tail = c;
		MHD_suspend_connection(c->conn);
		commit_committed(&srv->commit);
		c->lock_us += now_mono_us() - locked_us;
		pthread_mutex_unlock(&srv->lock);
		return MHD_YES;
	}
	c->lock_us += now_mono_us() - locked_us;
	pthread_mutex_unlock(&srv->lock);
	return queue_typed(c, reply.status ? reply.status : 200, reply.body, closing, reply.content_type,
			   reply.retry_after_s);
}

/* The group commit's listener (commit.h): every commit up to commit
 * number target is durable; sends the replies held for them. */
static void http_durable(void *ctx, uint64_t target)
{
	struct http *h = ctx;
	while (h->held_head && h->held_head->held_for <= target) {
		struct http_conn *c = h->held_head;
		h->held_head = c->held_next;
		if (!h->held_head)
			h->held_tail = NULL;
		c->held_next = NULL;
		c->held_ready = true;
		MHD_resume_connection(c->conn);
	}
}

/* A held reply whose commit is durable (or, at shutdown, an error in its
 * place): sent now that MHD runs the connection again. */
static enum MHD_Result send_held(struct http_conn *c)
{
	char *body = c->held_body;
	c->held_body = NULL;
	c->held_for = 0;
	if (!c->held_ready) {
		free(body);
		return queue_error(c, PROTOCOL_ERR_INTERNAL, "stopping before the commit was durable");
	}
	return queue_typed(c, c->held_status, body, c->held_closing, c->held_type, c->held_retry_after);
}

/* Called once a request line has come, before libmicrohttpd parses the
 * query: makes the request's state (which MHD hands back as con_cls) and
 * cuts a query with too many arguments short, in the request line MHD is
 * about to parse (it has found the '?' already and parses what follows
 * it), so that they never fill the connection's pool. The access call
 * then refuses the request. */
static void *http_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct http *h = cls;
	struct http_conn *c = xcalloc(1, sizeof *c);
	c->h = h;
	c->conn = conn;
	c->start_ms = now_mono_ms();
	buf_init(&c->body);
	const union MHD_ConnectionInfo *fi = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	c->fd = fi ? fi->connect_fd : MHD_INVALID_SOCKET;
	for (const unsigned char *p = (const unsigned char *)uri; *p; p++)
		c->bad_uri |= *p <= ' ' || *p == 0x7f || (p[0] == '%' && p[1] == '0' && p[2] == '0');
	char *q = strchr(uri, '?');
	size_t args = 0;
	for (const char *p = q; p && *p; p++)
		args += *p == '&' || *p == ';';
	if (q && (args >= HTTP_MAX_QUERY_ARGS || strlen(uri) > h->srv->cfg.max_url)) {
		c->too_many_args = true;
		q[1] = '\0';
	}
	struct http_sock *s = conn_sock(conn);
	if (s && h->srv->cfg.header_timeout_s) {
		int64_t by = now_mono_ms() + (int64_t)h->srv->cfg.header_timeout_s * 1000;
		pthread_mutex_lock(&h->count_lock);
		if (!s->awaiting || by < s->deadline_ms)
			await_headers(h, s, by);
		pthread_mutex_unlock(&h->count_lock);
	}
	return c;
}

/* Whether a header's or query argument's value holds a NUL (which every
 * lookup would silently cut it at). */
static enum MHD_Result find_nul(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
				const char *value, size_t value_size)
{
	bool *found = cls;
	(void)kind;
	if ((key && memchr(key, '\0', key_size)) || (value && memchr(value, '\0', value_size))) {
		*found = true;
		return MHD_NO;
	}
	return MHD_YES;
}

/* Counts the values of a header (libmicrohttpd keeps every repeat). */
struct header_count {
	const char *name;
	unsigned n;
};

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct header_count *hc = cls;
	(void)kind;
	(void)value;
	if (key && !strcasecmp(key, hc->name))
		hc->n++;
	return MHD_YES;
}

static unsigned header_times(struct MHD_Connection *conn, const char *name)
{
	struct header_count hc = { name, 0 };
	MHD_get_connection_values(conn, MHD_HEADER_KIND, count_header, &hc);
	return hc.n;
}

/* The checks of a request whose headers have all come, before any of its
 * body is read: NULL, or the refusal's message (and *code). A body comes
 * with one Content-Length: a second one could be read by something in
 * front of us as the length where we take the first, and
 * Transfer-Encoding (chunked, or a coding we do not know, whose body would
 * run until the connection closes) is refused rather than half-supported;
 * clients of a JSON API know their body's length. */
static const char *framing_error(struct http *h, struct http_conn *c, enum protocol_error_code *code)
{
	*code = PROTOCOL_ERR_BAD_REQUEST;
	if (c->bad_uri)
		return "a space, a control byte or %00 in the URL";
	if (c->version && !strcmp(c->version, MHD_HTTP_VERSION_1_1) && header_times(c->conn, MHD_HTTP_HEADER_HOST) != 1)
		return "an HTTP/1.1 request needs one Host header";
	bool nul = false;
	MHD_get_connection_values_n(c->conn, MHD_HEADER_KIND | MHD_GET_ARGUMENT_KIND, find_nul, &nul);
	/* libmicrohttpd 0.9.75 measures a header's value with strlen, so
	 * "Bearer TOKEN\0junk" reads as "Bearer TOKEN". It leaves the value
	 * in its read buffer, where it put two NULs in the place of the
	 * line's CRLF: a value followed by one NUL and more text was cut by
	 * the client's NUL (or ended by a bare LF, refused here as well). */
	const char *auth = MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (auth && auth[strlen(auth) + 1] != '\0')
		nul = true;
	if (nul)
		return "a NUL byte in a header or query argument";
	if (c->too_many_args) {
		*code = PROTOCOL_ERR_URI_TOO_LONG;
		return "too many query arguments or the URL is too long";
	}
	if (header_times(c->conn, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return "Transfer-Encoding is not accepted: send the body with a Content-Length";
	if (header_times(c->conn, MHD_HTTP_HEADER_CONTENT_LENGTH) > 1)
		return "more than one Content-Length header";
	const char *cl = MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl && strtoull(cl, NULL, 10) > h->srv->cfg.max_body) {
		c->too_large = true;
		*code = PROTOCOL_ERR_TOO_LARGE;
		return "request body too large";
	}
	return NULL;
}

static enum MHD_Result http_access(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				   const char *version, const char *upload_data, size_t *upload_data_size,
				   void **con_cls)
{
	struct http *h = cls;
	struct http_conn *c = *con_cls;
	if (!c) /* not through http_uri_seen: cannot happen, but be whole */
		*con_cls = c = http_uri_seen(h, "", conn);
	if (!c->begun) {
		c->begun = true;
		c->method = method;
		c->url = url;
		c->version = version;
		struct http_sock *s = conn_sock(conn);
		pthread_mutex_lock(&h->count_lock);
		if (s)
			headers_arrived(h, s);
		h->in_flight++;
		pthread_mutex_unlock(&h->count_lock);
		enum protocol_error_code code;
		const char *why = framing_error(h, c, &code);
		if (why) {
			struct protocol_error err = { .code = code };
			snprintf(err.message, sizeof err.message, "%s", why);
			return queue(c, protocol_error_status(code), protocol_error_encode(&err), true);
		}
		return MHD_YES;
	}
	if (c->replied) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (*upload_data_size) {
		if (!c->too_large && c->body.len + *upload_data_size > h->srv->cfg.max_body) {
			c->too_large = true;
			buf_fini(&c->body);
		}
		if (!c->too_large)
			buf_append(&c->body, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (c->too_large)
		return queue_error(c, PROTOCOL_ERR_TOO_LARGE, "request body too large");
	if (c->held_body)
		return send_held(c);
	return dispatch(h, c);
}

static void http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			   enum MHD_RequestTerminationCode toe)
{
	struct http *h = cls;
	struct http_conn *c = *con_cls;
	if (!c)
		return;
	if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
		log_debug("%s %s ended early (%d)", c->method ? c->method : "-", c->url ? c->url : "-", (int)toe);
	if (c->waiter.parked) {
		/* Only reachable if a parked connection is torn down, which
		 * http_drain prevents by waking every waiter first. */
		pthread_mutex_lock(&h->srv->lock);
		http_park_cancel(h, c);
		pthread_mutex_unlock(&h->srv->lock);
	}
	if (c->rerun) {
		/* Woken, but closed before its handler ran again (its client
		 * hung up and libmicrohttpd read that first): the handler
		 * still runs once, so that what it counted while parked (a
		 * seat's presence) is taken back. */
		run_gone(h, c);
	}
	buf_fini(&c->body);
	free(c->held_body);
	bool begun = c->begun;
	free(c);
	*con_cls = NULL;
	/* A kept-alive connection waits for its next request: idle up to
	 * connection_timeout_s, then header_timeout_s for that request. */
	struct http_sock *s = conn_sock(conn);
	pthread_mutex_lock(&h->count_lock);
	if (s && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		await_headers(h, s,
			      now_mono_ms() +
				      (int64_t)(h->srv->cfg.connection_timeout_s + h->srv->cfg.header_timeout_s) * 1000);
	if (begun) {
		h->in_flight--;
		pthread_cond_broadcast(&h->count_cond);
	}
	pthread_mutex_unlock(&h->count_lock);
}

struct timespec http_mono_deadline(int64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000 };
	return ts;
}

/* Binds "ADDR:PORT" ("[v6]:PORT" too); returns the socket or -1. */
static int listen_on(const char *spec, char *shown, size_t shown_size, char **errmsg)
{
	const char *colon = strrchr(spec, ':');
	if (!colon || colon == spec || !colon[1]) {
		*errmsg = xasprintf("--listen %s: expected ADDR:PORT", spec);
		return -1;
	}
	char *host = xstrndup(spec, (size_t)(colon - spec));
	char *h = host;
	size_t hl = strlen(h);
	if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
		h[hl - 1] = '\0';
		h++;
	}
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	int rc = getaddrinfo(h, colon + 1, &hints, &ai);
	free(host);
	if (rc) {
		*errmsg = xasprintf("--listen %s: %s", spec, gai_strerror(rc));
		return -1;
	}
	int fd = -1;
	int saved = 0;
	for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, SOMAXCONN)) {
			saved = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		*errmsg = xasprintf("--listen %s: %s", spec, strerror(saved));
		return -1;
	}
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char addr[NI_MAXHOST], port[NI_MAXSERV];
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) ||
	    getnameinfo((struct sockaddr *)&ss, sl, addr, sizeof addr, port, sizeof port,
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		*errmsg = xasprintf("--listen %s: cannot read the bound address", spec);
		close(fd);
		return -1;
	}
	snprintf(shown, shown_size, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", addr, port);
	return fd;
}

/* libmicrohttpd's own messages, as warnings through log_msg (one line,
 * escaped). */
__attribute__((format(printf, 2, 0))) static void http_mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
		msg[--n] = '\0';
	log_warn("http: %s", msg);
}

struct http *http_start(struct server *srv, const struct http_route *routes, char **errmsg)
{
	struct http *h = xcalloc(1, sizeof *h);
	h->srv = srv;
	h->routes = routes;
	http_park_init(h);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->timer_cond, &ca);
	pthread_cond_init(&h->count_cond, &ca);
	pthread_cond_init(&h->reaper_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&h->count_lock, NULL);

	char shown[NI_MAXHOST + NI_MAXSERV + 4];
	h->listen_fd = listen_on(srv->cfg.listen, shown, sizeof shown, errmsg);
	if (h->listen_fd < 0)
		goto fail;

	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
	if (MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES)
		flags |= MHD_USE_EPOLL;
	/* Before the first request, so no held reply misses its fsync. */
	struct commit_listener cl = { .ctx = h, .durable = http_durable };
	pthread_mutex_lock(&srv->lock);
	commit_listen(&srv->commit, &cl);
	pthread_mutex_unlock(&srv->lock);
	h->daemon = MHD_start_daemon(flags, 0, http_accept, h, http_access, h,
				     MHD_OPTION_EXTERNAL_LOGGER, http_mhd_log, h,
				     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->listen_fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)srv->cfg.max_connections,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)srv->cfg.connection_memory,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)srv->cfg.connection_timeout_s,
				     MHD_OPTION_NOTIFY_CONNECTION, http_notify, h,
				     MHD_OPTION_NOTIFY_COMPLETED, http_completed, h,
				     MHD_OPTION_URI_LOG_CALLBACK, http_uri_seen, h,
				     MHD_OPTION_END);
	if (!h->daemon) {
		*errmsg = xasprintf("cannot start the HTTP daemon on %s", shown);
		close(h->listen_fd);
		goto fail;
	}
	if (pthread_create(&h->timer, NULL, http_park_timer_main, h)) {
		*errmsg = xstrdup("cannot start the poll timer thread");
		MHD_stop_daemon(h->daemon);
		goto fail;
	}
	h->timer_started = true;
	if (pthread_create(&h->reaper, NULL, http_reaper_main, h)) {
		*errmsg = xstrdup("cannot start the header deadline thread");
		http_stop(h);
		return NULL;
	}
	h->reaper_started = true;
	log_info("listening on %s (%s, poll timeout %lld ms)", shown,
		 (flags & MHD_USE_EPOLL) ? "epoll" : "poll", (long long)srv->cfg.poll_timeout_ms);
	printf("listening on %s\n", shown);
	fflush(stdout);
	return h;
fail:
	pthread_mutex_lock(&srv->lock);
	commit_unlisten(&srv->commit, h);
	pthread_mutex_unlock(&srv->lock);
	pthread_cond_destroy(&h->timer_cond);
	pthread_cond_destroy(&h->count_cond);
	pthread_cond_destroy(&h->reaper_cond);
	pthread_mutex_destroy(&h->count_lock);
	http_park_fini(h);
	free(h);
	return NULL;
}

void http_drain(struct http *h)
{
	struct server *srv = h->srv;
	pthread_mutex_lock(&srv->lock);
	srv->draining = true;
	size_t n = http_park_wake_all(h, WAITER_DRAIN);
	pthread_mutex_unlock(&srv->lock);
	log_info("draining: answering %zu parked polls", n);
	if (MHD_quiesce_daemon(h->daemon) != MHD_INVALID_SOCKET)
		h->quiesced = true;

	int64_t deadline = now_mono_ms() + srv->cfg.drain_timeout_ms;
	struct timespec ts = http_mono_deadline(deadline);
	pthread_mutex_lock(&h->count_lock);
	while (h->in_flight && now_mono_ms() < deadline)
		pthread_cond_timedwait(&h->count_cond, &h->count_lock, &ts);
	unsigned left = h->in_flight;
	pthread_mutex_unlock(&h->count_lock);
	if (left)
		log_warn("draining: %u requests still in flight after %lld ms", left,
			 (long long)srv->cfg.drain_timeout_ms);
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	struct server *srv = h->srv;
	pthread_mutex_lock(&srv->lock);
	h->timer_stop = true;
	pthread_cond_signal(&h->timer_cond);
	/* MHD must not be stopped with suspended connections. Replies still
	 * held (drain timed out) are answered with an error, not a success
	 * that was never durable. */
	srv->draining = true;
	http_park_wake_all(h, WAITER_DRAIN);
	while (h->held_head) {
		struct http_conn *c = h->held_head;
		h->held_head = c->held_next;
		c->held_next = NULL;
		MHD_resume_connection(c->conn);
	}
	h->held_tail = NULL;
	/* The syncer outlives us (server_fini stops it): it must find no http. */
	commit_unlisten(&srv->commit, h);
	srv->http = NULL;
	pthread_mutex_unlock(&srv->lock);
	if (h->timer_started)
		pthread_join(h->timer, NULL);
	pthread_mutex_lock(&h->count_lock);
	h->reaper_stop = true;
	pthread_cond_signal(&h->reaper_cond);
	pthread_mutex_unlock(&h->count_lock);
	if (h->reaper_started)
		pthread_join(h->reaper, NULL);
	MHD_stop_daemon(h->daemon);
	/* A quiesced daemon hands its listening socket back to us. */
	if (h->quiesced)
		close(h->listen_fd);
	pthread_cond_destroy(&h->timer_cond);
	pthread_cond_destroy(&h->count_cond);
	pthread_cond_destroy(&h->reaper_cond);
	pthread_mutex_destroy(&h->count_lock);
	peers_free(h);
	http_park_fini(h);
	free(h);
}
