/*
 * The client's network layer: the only code that includes curl. One
 * CURLM, one long-poll handle for a game's events and a queue of command
 * requests sent one at a time in order, all driven from the caller's one
 * loop through net_wait(), which sleeps in curl_multi_poll() on the
 * network, the caller's file descriptors (the terminal) and a timeout.
 *
 * Failures are handled here: a poll or command that meets a network error
 * (or a 5xx) is tried again after a backoff of 0.5 s doubling to 8 s, with
 * jitter, and the connection state says "reconnecting" until a request
 * gets through. A command is re-sent with the same body, so a move names
 * the same ply and the server plays it at most once.
 *
 * Blocking requests (net_request) serve the one-shot commands (register,
 * games, export) that have no screen; screens never block (loop.h).
 */
#ifndef TCHESS_CLIENT_NET_H
#define TCHESS_CLIENT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net;

enum net_state {
	NET_CONNECTING = 0,
	NET_ONLINE,
	NET_RECONNECTING
};

#define NET_TAG_POLL (-1)
#define NET_DATA_MAX 512

/* A finished request. status is the HTTP status (never 0: network errors
 * are retried, not reported; for net_ask, -1 with the error's text as
 * body). body is malloc'd (NUL-terminated). */
struct net_reply {
	int tag;                    /* NET_TAG_POLL or the command's tag */
	int status;
	char *body;
	size_t len;
	int64_t rtt_ms;             /* the request's round trip */
	unsigned char data[NET_DATA_MAX]; /* the command's data, echoed */
};

/* A connection to base_url ("http://127.0.0.1:8080") acting with token
 * (NULL or "" for none). Returns NULL with a message if curl cannot start. */
struct net *net_new(const char *base_url, const char *token, char *err, size_t errsize);
void net_free(struct net *n);

/* A blocking request: method, path (route.h), body (NULL for none).
 * Returns the HTTP status with *resp (malloc'd, NUL-terminated, the caller
 * frees) and *len, or -1 with a message on a network error. */
int net_request(struct net *n, const char *method, const char *path, const char *body, char **resp, size_t *len,
		char *err, size_t errsize);

/* A blocking request whose answer only matters as its status, given at
 * most timeout_ms (a player quitting does not wait for a server that is
 * away). Returns the HTTP status, or -1 on a network error. */
int net_tell(struct net *n, const char *method, const char *path, const char *body, int64_t timeout_ms);

/* The same with a form body (application/x-www-form-urlencoded; NULL for
 * none), as Lichess takes them. */
int net_request_form(struct net *n, const char *method, const char *path, const char *form, char **resp, size_t *len,
		     char *err, size_t errsize);

/* (Re)starts the long-poll GET path (a game's events after a seq). */
void net_poll(struct net *n, const char *path);
/* Stops the long-poll (a game screen closed); no-op when none runs. */
void net_poll_stop(struct net *n);
/* Sends the last poll again after a backoff that grows with each call
 * in a row (0.5 s doubling to 30 s, with jitter) until a poll is answered
 * 200: for a refusal the server may get over. */
void net_poll_retry(struct net *n);
/* Queues a command; body (may be NULL) is copied. data (at most
 * NET_DATA_MAX bytes) comes back in the reply. */
void net_command(struct net *n, const char *method, const char *path, const char *body, int tag, const void *data,
		 size_t data_size);
/* Queues a request like net_command that is sent once: a network error
 * (or a 5xx) is its answer instead of a retry, for a screen that says so
 * (the tournament screens) rather than waits. */
void net_ask(struct net *n, const char *method, const char *path, const char *body, int tag, const void *data,
	     size_t data_size);
/* Queues a command whose body is a form (application/x-www-form-urlencoded,
 * NULL for none), as Lichess's Board API takes them; once as net_ask. */
void net_command_form(struct net *n, bool once, const char *method, const char *path, const char *form, int tag,
		      const void *data, size_t data_size);
/* A hotseat game's second seat: token (NULL or "" forgets it) is the one
 * the commands queued (or told, net_tell) after net_act_as_second(n, true)
 * are sent with,
 * until net_act_as_second(n, false); the poll and everything else keep
 * the token net_new was given. */
void net_set_second(struct net *n, const char *token);
void net_act_as_second(struct net *n, bool second);
/* Commands queued or in flight. */
int net_pending(const struct net *n);

/* Waits until the network has work, one of fds is readable, or timeout_ms
 * passes (-1: no limit, apart from the backoff timers), then does the
 * network work. ready[i] tells whether fds[i] is readable. */
void net_wait(struct net *n, int timeout_ms, const int *fds, int nfds, bool *ready);
/* Takes the next finished request into *out (free out->body); false when none. */
bool net_next_reply(struct net *n, struct net_reply *out);

enum net_state net_state(const struct net *n);
/* The last measured round trip in ms, or -1. */
int64_t net_rtt(const struct net *n);
/* Requests sent so far (for the tests and the latency report). */
long net_requests(const struct net *n);

#endif
