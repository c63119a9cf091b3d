/*
 * What http.c and http-park.c share: the server's HTTP state (struct http)
 * and a request's (struct http_conn), the parked polls' calls that http.c
 * makes (http-park.c) and http.c's monotonic deadline. Only these two
 * files include it, and with it microhttpd.h.
 */
#ifndef TCHESS_SERVER_HTTP_INTERNAL_H
#define TCHESS_SERVER_HTTP_INTERNAL_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "http.h"
#include "util/buf.h"
#include "waiters.h"

struct peer;
struct http_sock;

/* Open connections of one client address (per_ip_connections), keyed by
 * ratelimit_addr_key. */
#define HTTP_PEER_BUCKETS 256

struct http {
	struct server *srv;
	const struct http_route *routes;
	struct MHD_Daemon *daemon;
	int listen_fd;
	bool quiesced;
	struct waiters waiters; /* under srv->lock */
	pthread_t timer;
	bool timer_started;
	pthread_cond_t timer_cond; /* waited on with srv->lock */
	bool timer_stop;
	/* The sockets of the parked polls, watched for their peer's hang-up
	 * (-1: not on this system); looked at every HTTP_HANGUP_CHECK_MS
	 * while any poll is parked, next at hangup_due (monotonic). */
	int hangup_fd;
	int64_t hangup_due;
	/* Replies held for their commit's fsync, oldest (lowest commit)
	 * first, under srv->lock. */
	struct http_conn *held_head, *held_tail;
	pthread_mutex_t count_lock; /* guards in_flight and peers */
	pthread_cond_t count_cond;
	unsigned in_flight;                    /* requests begun and not yet completed */
	struct peer *peers[HTTP_PEER_BUCKETS]; /* open connections per address */
	struct http_sock *awaiting;            /* under count_lock: connections with a header deadline */
	pthread_t reaper;                      /* shuts connections past their header deadline */
	bool reaper_started;
	bool reaper_stop; /* under count_lock */
	pthread_cond_t reaper_cond;
};

/* One request's state, kept by MHD as its con_cls. */
struct http_conn {
	struct waiter waiter; /* first, so a waiter pointer is a conn pointer */
	struct http *h;
	struct MHD_Connection *conn;
	const char *method;
	const char *url;
	const char *version;
	struct buf body;
	bool begun;         /* the first access call happened */
	bool too_many_args; /* the query was cut short (HTTP_MAX_QUERY_ARGS) */
	bool bad_uri;       /* the raw URL holds a space or a control byte */
	bool too_large;
	bool replied;
	bool deadline_set;
	enum waiter_wake wake;
	bool rerun;        /* woken, and its handler has not run again yet */
	MHD_socket fd;     /* the connection's socket (the hang-up watch) */
	int64_t parked_by; /* the parked run's http_reply_park player */
	int64_t start_ms;
	int64_t lock_us; /* how long its handler runs held the server lock, for the log */
	uint64_t trips;  /* the store's round trips in its handler runs, for the log */
	/* A reply held for group commit (http.h). */
	uint64_t held_for; /* the commit it waits for; 0: none */
	bool held_ready;   /* durable: send it when MHD calls again */
	int held_status;
	int held_retry_after; /* Retry-After of the held reply, 0 for none */
	char *held_body;
	const char *held_type;
	bool held_closing;
	struct http_conn *held_next;
};

/* ---- http-park.c ---- */

/* Makes h's set of parked polls and the hang-up watch of their sockets
 * (none without epoll: a hang-up is then noticed at the poll's deadline). */
void http_park_init(struct http *h);
/* Frees what http_park_init made; no poll may be parked. */
void http_park_fini(struct http *h);
/* With srv->lock held: parks c on reply's game until an event, its
 * deadline (counted from its first park), shutdown or its client's
 * hang-up, with its connection suspended. */
void http_park_suspend(struct http *h, struct http_conn *c, const struct http_reply *reply);
/* With srv->lock held: takes parked c off the waiters and the hang-up
 * watch without resuming it (its connection is being torn down); its
 * handler is still to run once (rerun). */
void http_park_cancel(struct http *h, struct http_conn *c);
/* With srv->lock held: wakes every parked poll with why; returns how many. */
size_t http_park_wake_all(struct http *h, enum waiter_wake why);
/* The timer thread (h): resumes parked polls whose deadline passed and
 * ends those whose client hung up, until h->timer_stop. */
void *http_park_timer_main(void *arg);

/* ---- http.c ---- */

/* The CLOCK_MONOTONIC instant of now_mono_ms() value ms, for the
 * condition variables' timed waits. */
struct timespec http_mono_deadline(int64_t ms);

#endif
