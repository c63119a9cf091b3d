/*
 * The network layer on libcurl's multi interface: the long-poll handle,
 * the command queue, the backoff timers and the one wait of the client's
 * loop. See net.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "net-internal.h"
#include "util/buf.h"
#include "util/now.h"
#include "util/xalloc.h"

#define NET_POLL_TIMEOUT_MS 35000   /* above the server's 25 s park */
#define NET_COMMAND_TIMEOUT_MS 10000
#define NET_CONNECT_TIMEOUT_MS 3000
#define NET_BACKOFF_MIN_MS 500
#define NET_BACKOFF_MAX_MS 8000
#define NET_REFUSED_MAX_MS 30000    /* a refused poll's backoff (net_poll_retry) */
#define NET_REPLIES_MAX 32

struct net_cmd {
	char method[8];
	char *path;
	char *body;
	int tag;
	bool once;                 /* net_ask: a network error is its answer */
	bool form;                 /* the body is a form, not JSON */
	bool second;               /* sent with the second seat's token */
	unsigned char data[NET_DATA_MAX];
	struct net_cmd *next;
};

/* One easy handle with what it collects. */
struct net_xfer {
	CURL *easy;
	struct curl_slist *headers;
	struct buf body;
	bool busy;                 /* added to the multi handle */
	int64_t started_ms;
	int64_t retry_at_ms;       /* > 0: add again at this instant */
	char error[CURL_ERROR_SIZE];
};

struct net {
	CURLM *multi;
	char *base;
	char *auth;                /* "Authorization: Bearer ..." or NULL */
	struct net_xfer poll;
	char poll_url[512];
	bool polling;
	struct net_xfer cmd;
	struct curl_slist *form_headers; /* a form command's, with auth */
	struct curl_slist *second_headers; /* a JSON command's as the second seat */
	bool as_second;            /* commands queued now go as the second seat */
	struct net_cmd *queue, *queue_tail;
	int n_queued;
	enum net_state state;
	int64_t backoff_ms;
	int64_t refused_ms;        /* the next net_poll_retry's delay */
	int64_t rtt_ms;
	long requests;
	uint64_t rng;
	struct net_reply replies[NET_REPLIES_MAX];
	int n_replies;
	struct net_stream *streams; /* net-stream.c's */
};

CURLM *net_multi(struct net *n)
{
	return n->multi;
}

const char *net_base_url(const struct net *n)
{
	return n->base;
}

const char *net_auth_header(const struct net *n)
{
	return n->auth;
}

struct net_stream **net_streams(struct net *n)
{
	return &n->streams;
}

static size_t net_write_cb(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct buf *b = ctx;
	buf_append(b, data, size * nmemb);
	return size * nmemb;
}

static void net_xfer_init(struct net *n, struct net_xfer *x)
{
	memset(x, 0, sizeof *x);
	buf_init(&x->body);
	x->easy = curl_easy_init();
	x->headers = curl_slist_append(NULL, "Content-Type: application/json");
	if (n->auth)
		x->headers = curl_slist_append(x->headers, n->auth);
}

static void net_xfer_fini(struct net *n, struct net_xfer *x)
{
	if (x->busy)
		curl_multi_remove_handle(n->multi, x->easy);
	curl_easy_cleanup(x->easy);
	curl_slist_free_all(x->headers);
	buf_fini(&x->body);
}

/* Sets up x for one request; the strings must live until it finishes
 * (curl copies URLs, and POSTFIELDS is copied with COPYPOSTFIELDS). */
static void net_xfer_setup(struct net *n, struct net_xfer *x, const char *method, const char *url, const char *body,
			   long timeout_ms)
{
	CURL *e = x->easy;
	curl_easy_reset(e);
	buf_reset(&x->body);
	x->error[0] = '\0';
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, x->headers);
	curl_easy_setopt(e, CURLOPT_USERAGENT, NET_USER_AGENT);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, net_write_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &x->body);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->error);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)NET_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(e, CURLOPT_TCP_KEEPIDLE, 20L);
	curl_easy_setopt(e, CURLOPT_PRIVATE, x);
	if (!strcmp(method, "GET")) {
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	} else {
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
		if (body) {
			curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
			curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, body);
		} else if (!strcmp(method, "POST") || !strcmp(method, "PUT")) {
			curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, 0L);
			curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, "");
		}
	}
	x->started_ms = now_mono_ms();
	n->requests++;
}

struct net *net_new(const char *base_url, const char *token, char *err, size_t errsize)
{
	static bool curl_ready;
	/* curl_global_init once per process; the client is single-threaded. */
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			snprintf(err, errsize, "cannot initialise libcurl");
			return NULL;
		}
		curl_ready = true;
	}
	struct net *n = xcalloc(1, sizeof *n);
	n->multi = curl_multi_init();
	if (!n->multi) {
		free(n);
		snprintf(err, errsize, "cannot initialise libcurl");
		return NULL;
	}
	curl_multi_setopt(n->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 2L);
	n->base = xstrdup(base_url);
	size_t bl = strlen(n->base);
	while (bl && n->base[bl - 1] == '/')
		n->base[--bl] = '\0';
	n->auth = token && *token ? xasprintf("Authorization: Bearer %s", token) : NULL;
	net_xfer_init(n, &n->poll);
	net_xfer_init(n, &n->cmd);
	n->form_headers = curl_slist_append(NULL, "Content-Type: application/x-www-form-urlencoded");
	if (n->auth)
		n->form_headers = curl_slist_append(n->form_headers, n->auth);
	n->backoff_ms = NET_BACKOFF_MIN_MS;
	n->refused_ms = NET_BACKOFF_MIN_MS;
	n->rtt_ms = -1;
	n->rng = (uint64_t)now_mono_ms() * 6364136223846793005ULL ^ (uint64_t)getpid();
	return n;
}

static void net_cmd_free(struct net_cmd *c)
{
	free(c->path);
	free(c->body);
	free(c);
}

void net_free(struct net *n)
{
	if (!n)
		return;
	net_stream_free_all(n);
	net_xfer_fini(n, &n->poll);
	net_xfer_fini(n, &n->cmd);
	curl_slist_free_all(n->form_headers);
	curl_slist_free_all(n->second_headers);
	while (n->queue) {
		struct net_cmd *c = n->queue;
		n->queue = c->next;
		net_cmd_free(c);
	}
	for (int i = 0; i < n->n_replies; i++)
		free(n->replies[i].body);
	curl_multi_cleanup(n->multi);
	free(n->base);
	free(n->auth);
	free(n);
}

static int net_request_as(struct net *n, bool form, const char *method, const char *path, const char *body, char **resp,
			  size_t *len, char *err, size_t errsize, int64_t timeout_ms)
{
	struct net_xfer x;
	char url[1024];
	net_xfer_init(n, &x);
	snprintf(url, sizeof url, "%s%s", n->base, path);
	net_xfer_setup(n, &x, method, url, body, (long)timeout_ms);
	if (form)
		curl_easy_setopt(x.easy, CURLOPT_HTTPHEADER, n->form_headers);
	else if (n->as_second && n->second_headers)
		curl_easy_setopt(x.easy, CURLOPT_HTTPHEADER, n->second_headers);
	CURLcode rc = curl_easy_perform(x.easy);
	int status = -1;
	if (rc != CURLE_OK) {
		snprintf(err, errsize, "%s: %s", n->base, x.error[0] ? x.error : curl_easy_strerror(rc));
	} else {
		long code = 0;
		curl_easy_getinfo(x.easy, CURLINFO_RESPONSE_CODE, &code);
		status = (int)code;
		n->rtt_ms = now_mono_ms() - x.started_ms;
		buf_append(&x.body, "", 1);
		*len = x.body.len - 1;
		*resp = buf_steal(&x.body);
	}
	net_xfer_fini(n, &x);
	return status;
}

int net_request(struct net *n, const char *method, const char *path, const char *body, char **resp, size_t *len,
		char *err, size_t errsize)
{
	return net_request_as(n, false, method, path, body, resp, len, err, errsize, NET_COMMAND_TIMEOUT_MS);
}

int net_tell(struct net *n, const char *method, const char *path, const char *body, int64_t timeout_ms)
{
	char *resp = NULL, err[256];
	size_t len;
	int status = net_request_as(n, false, method, path, body, &resp, &len, err, sizeof err, timeout_ms);
	free(resp);
	return status;
}

int net_request_form(struct net *n, const char *method, const char *path, const char *form, char **resp, size_t *len,
		     char *err, size_t errsize)
{
	return net_request_as(n, true, method, path, form, resp, len, err, errsize, NET_COMMAND_TIMEOUT_MS);
}

/* d with jitter of up to a quarter either way (xorshift64), so clients
 * that lost the same server do not all come back at the same instant. */
static int64_t net_jitter(struct net *n, int64_t d)
{
	n->rng ^= n->rng << 13;
	n->rng ^= n->rng >> 7;
	n->rng ^= n->rng << 17;
	return d + (int64_t)(n->rng % (uint64_t)(d / 2 + 1)) - d / 4;
}

static int64_t net_backoff(struct net *n)
{
	int64_t d = n->backoff_ms;
	n->backoff_ms = n->backoff_ms * 2 > NET_BACKOFF_MAX_MS ? NET_BACKOFF_MAX_MS : n->backoff_ms * 2;
	return net_jitter(n, d);
}

static void net_poll_add(struct net *n)
{
	net_xfer_setup(n, &n->poll, "GET", n->poll_url, NULL, NET_POLL_TIMEOUT_MS);
	n->poll.retry_at_ms = 0;
	n->poll.busy = true;
	curl_multi_add_handle(n->multi, n->poll.easy);
}

void net_poll(struct net *n, const char *path)
{
	if (n->poll.busy) {
		curl_multi_remove_handle(n->multi, n->poll.easy);
		n->poll.busy = false;
	}
	snprintf(n->poll_url, sizeof n->poll_url, "%s%s", n->base, path);
	n->polling = true;
	net_poll_add(n);
}

void net_poll_stop(struct net *n)
{
	if (n->poll.busy) {
		curl_multi_remove_handle(n->multi, n->poll.easy);
		n->poll.busy = false;
	}
	n->poll.retry_at_ms = 0;
	n->polling = false;
}

void net_poll_retry(struct net *n)
{
	if (!n->polling || n->poll.busy)
		return;
	/* Its own backoff: the refusal was an answer, which set the
	 * connection's backoff back to the minimum. */
	int64_t d = n->refused_ms;
	n->refused_ms = d * 2 > NET_REFUSED_MAX_MS ? NET_REFUSED_MAX_MS : d * 2;
	n->poll.retry_at_ms = now_mono_ms() + net_jitter(n, d);
}

static void net_cmd_add(struct net *n)
{
	struct net_cmd *c = n->queue;
	char url[1024];
	if (!c || n->cmd.busy)
		return;
	snprintf(url, sizeof url, "%s%s", n->base, c->path);
	net_xfer_setup(n, &n->cmd, c->method, url, c->body, NET_COMMAND_TIMEOUT_MS);
	if (c->form)
		curl_easy_setopt(n->cmd.easy, CURLOPT_HTTPHEADER, n->form_headers);
	else if (c->second)
		curl_easy_setopt(n->cmd.easy, CURLOPT_HTTPHEADER, n->second_headers);
	n->cmd.retry_at_ms = 0;
	n->cmd.busy = true;
	curl_multi_add_handle(n->multi, n->cmd.easy);
}

static void net_queue(struct net *n, const char *method, const char *path, const char *body, int tag,
		      const void *data, size_t data_size, bool once, bool form)
{
	struct net_cmd *c = xcalloc(1, sizeof *c);
	c->form = form;
	c->second = n->as_second && n->second_headers && !form;
	snprintf(c->method, sizeof c->method, "%s", method);
	c->path = xstrdup(path);
	c->body = body ? xstrdup(body) : NULL;
	c->tag = tag;
	c->once = once;
	if (data && data_size)
		memcpy(c->data, data, data_size < NET_DATA_MAX ? data_size : NET_DATA_MAX);
	if (n->queue_tail)
		n->queue_tail->next = c;
	else
		n->queue = c;
	n->queue_tail = c;
	n->n_queued++;
	if (!n->cmd.busy && n->cmd.retry_at_ms == 0)
		net_cmd_add(n);
}

void net_command(struct net *n, const char *method, const char *path, const char *body, int tag, const void *data,
		 size_t data_size)
{
	net_queue(n, method, path, body, tag, data, data_size, false, false);
}

void net_command_form(struct net *n, bool once, const char *method, const char *path, const char *form, int tag,
		      const void *data, size_t data_size)
{
	net_queue(n, method, path, form, tag, data, data_size, once, true);
}

void net_ask(struct net *n, const char *method, const char *path, const char *body, int tag, const void *data,
	     size_t data_size)
{
	net_queue(n, method, path, body, tag, data, data_size, true, false);
}

void net_set_second(struct net *n, const char *token)
{
	curl_slist_free_all(n->second_headers);
	n->second_headers = NULL;
	n->as_second = false;
	if (!token || !*token)
		return;
	char *auth = xasprintf("Authorization: Bearer %s", token);
	n->second_headers = curl_slist_append(curl_slist_append(NULL, "Content-Type: application/json"), auth);
	free(auth);
}

void net_act_as_second(struct net *n, bool second)
{
	n->as_second = second;
}

int net_pending(const struct net *n)
{
	return n->n_queued;
}

static void net_push_reply(struct net *n, int tag, int status, struct net_xfer *x, const unsigned char *data)
{
	if (n->n_replies == NET_REPLIES_MAX) {
		free(x->body.data ? buf_steal(&x->body) : NULL);
		return;
	}
	struct net_reply *r = &n->replies[n->n_replies++];
	memset(r, 0, sizeof *r);
	r->tag = tag;
	r->status = status;
	buf_append(&x->body, "", 1);
	r->len = x->body.len - 1;
	r->body = buf_steal(&x->body);
	r->rtt_ms = now_mono_ms() - x->started_ms;
	if (data)
		memcpy(r->data, data, NET_DATA_MAX);
}

static void net_went_offline(struct net *n)
{
	n->state = NET_RECONNECTING;
}

static void net_came_online(struct net *n)
{
	n->state = NET_ONLINE;
	n->backoff_ms = NET_BACKOFF_MIN_MS;
	/* A command waiting out its backoff goes now that the server answers. */
	if (n->cmd.retry_at_ms > 0)
		n->cmd.retry_at_ms = now_mono_ms();
}

/* The command at the head of the queue is answered with status and the
 * body collected: its reply, and the next command goes. */
static void net_cmd_answered(struct net *n, int status)
{
	struct net_cmd *c = n->queue;
	net_push_reply(n, c->tag, status, &n->cmd, c->data);
	n->queue = c->next;
	if (!n->queue)
		n->queue_tail = NULL;
	n->n_queued--;
	net_cmd_free(c);
	net_cmd_add(n);
}

static void net_done(struct net *n, CURL *easy, CURLcode result)
{
	struct net_xfer *x = NULL;
	long code = 0;
	curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
	if (x != &n->poll && x != &n->cmd) {
		net_stream_done(n, easy, result);
		return;
	}
	curl_multi_remove_handle(n->multi, easy);
	x->busy = false;
	if (result == CURLE_OK)
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
	/* A request asked once (net_ask) is answered by whatever happened:
	 * a network error as status -1 with its text. */
	if (x == &n->cmd && n->queue->once && (result != CURLE_OK || code == 0 || code >= 500)) {
		if (result != CURLE_OK || code == 0) {
			buf_reset(&x->body);
			char msg[CURL_ERROR_SIZE + 600];
			int len = snprintf(msg, sizeof msg, "%s: %s", n->base,
					   x->error[0] ? x->error : curl_easy_strerror(result));
			buf_append(&x->body, msg, len < 0 ? 0 : (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
			code = -1;
		}
		net_cmd_answered(n, (int)code);
		return;
	}
	/* Network errors and a server shutting down or failing: try again. */
	bool retry = result != CURLE_OK || code >= 500 || code == 0;
	if (retry) {
		net_went_offline(n);
		x->retry_at_ms = now_mono_ms() + net_backoff(n);
		return;
	}
	/* Too many requests: the same request again when the server says
	 * (Retry-After), still online; a command keeps its ply, so a retry
	 * plays it at most once. */
	if (code == 429) {
		curl_off_t after_s = 0;
		if (curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &after_s) != CURLE_OK || after_s < 0)
			after_s = 0;
		int64_t wait = after_s > 60 ? 60000 : (int64_t)after_s * 1000;
		int64_t backoff = net_backoff(n);
		x->retry_at_ms = now_mono_ms() + (wait > backoff ? wait : backoff);
		return;
	}
	net_came_online(n);
	if (x == &n->poll) {
		if (code == 200)
			n->refused_ms = NET_BACKOFF_MIN_MS;
		net_push_reply(n, NET_TAG_POLL, (int)code, x, NULL);
		return;
	}
	n->rtt_ms = now_mono_ms() - x->started_ms;
	net_cmd_answered(n, (int)code);
}

void net_wait(struct net *n, int timeout_ms, const int *fds, int nfds, bool *ready)
{
	struct curl_waitfd w[8];
	int64_t now = now_mono_ms();
	if (nfds > 8)
		nfds = 8;
	/* Backoff timers that are due start their request; the others cap the
	 * sleep. */
	struct net_xfer *xs[2] = { &n->poll, &n->cmd };
	for (int i = 0; i < 2; i++) {
		struct net_xfer *x = xs[i];
		if (x->retry_at_ms <= 0)
			continue;
		if (x->retry_at_ms <= now) {
			if (x == &n->poll)
				net_poll_add(n);
			else
				net_cmd_add(n);
		} else {
			int64_t left = x->retry_at_ms - now;
			if (timeout_ms < 0 || left < timeout_ms)
				timeout_ms = (int)left;
		}
	}
	for (int i = 0; i < nfds; i++) {
		w[i].fd = fds[i];
		w[i].events = CURL_WAIT_POLLIN;
		w[i].revents = 0;
		ready[i] = false;
	}
	int running = 0, numfds = 0;
	/* curl_multi_poll takes no "forever": a day is as good. */
	curl_multi_poll(n->multi, w, (unsigned)nfds, timeout_ms < 0 ? 86400000 : timeout_ms, &numfds);
	for (int i = 0; i < nfds; i++)
		ready[i] = (w[i].revents & (CURL_WAIT_POLLIN | CURL_WAIT_POLLPRI)) != 0;
	curl_multi_perform(n->multi, &running);
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(n->multi, &left)))
		if (msg->msg == CURLMSG_DONE)
			net_done(n, msg->easy_handle, msg->data.result);
}

bool net_next_reply(struct net *n, struct net_reply *out)
{
	if (n->n_replies == 0)
		return false;
	*out = n->replies[0];
	memmove(&n->replies[0], &n->replies[1], (size_t)(n->n_replies - 1) * sizeof n->replies[0]);
	n->n_replies--;
	return true;
}

enum net_state net_state(const struct net *n)
{
	return n->state;
}

int64_t net_rtt(const struct net *n)
{
	return n->rtt_ms;
}

long net_requests(const struct net *n)
{
	return n->requests;
}
