/*
 * Parked long-polls (http.h): the set of suspended requests by game
 * (waiters.h), the timer thread that resumes them at their deadline, and
 * the watch for their clients hanging up.
 *
 * libmicrohttpd's suspended connections never time out, nor does it
 * watch them, so every parked poll carries a deadline and the timer thread
 * here resumes it when that passes. Nor does it notice their clients hang up
 * (a tchess killed, a laptop shut): the timer thread looks once a second
 * for parked polls whose peer closed (an epoll set of their sockets, which
 * reports only those, whatever the number parked) and ends them, so the
 * seat's parked polls stop counting as presence within a second rather
 * than at the deadline.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef __linux__
#include <sys/epoll.h>
#endif
#include <unistd.h>

#include "http-internal.h"
#include "http.h"
#include "util/log.h"
#include "util/now.h"

void http_park_init(struct http *h)
{
	waiters_init(&h->waiters);
#ifdef __linux__
	h->hangup_fd = epoll_create1(EPOLL_CLOEXEC);
	if (h->hangup_fd < 0)
		log_warn("http: no epoll set for parked polls (%s): a client that hangs up is noticed at its "
		         "poll's timeout",
		         strerror(errno));
#else
	h->hangup_fd = -1;
#endif
}

void http_park_fini(struct http *h)
{
	if (h->hangup_fd >= 0)
		close(h->hangup_fd);
}

/* How often the parked polls' sockets are looked at for a hang-up. */
#define HTTP_HANGUP_CHECK_MS 1000

/* The hang-up watch of a parked poll's socket, with srv->lock held: only
 * the peer's close (EPOLLRDHUP; a reset or an error is reported anyway),
 * not data, so a request pipelined behind the poll is no hang-up. */
static void hangup_watch(struct http *h, struct http_conn *c)
{
#ifdef __linux__
	struct epoll_event ev = {.events = EPOLLRDHUP, .data.ptr = c};
	if (h->hangup_fd >= 0 && c->fd != MHD_INVALID_SOCKET && epoll_ctl(h->hangup_fd, EPOLL_CTL_ADD, c->fd, &ev) &&
	    errno != EEXIST)
		log_warn("http: cannot watch a parked poll's socket: %s", strerror(errno));
#else
	(void)h;
	(void)c;
#endif
}

static void hangup_unwatch(struct http *h, struct http_conn *c)
{
#ifdef __linux__
	if (h->hangup_fd >= 0 && c->fd != MHD_INVALID_SOCKET)
		epoll_ctl(h->hangup_fd, EPOLL_CTL_DEL, c->fd, NULL);
#else
	(void)h;
	(void)c;
#endif
}

/* The resume half of parking: called with srv->lock held by whoever wakes. */
static void wake_conn(void *arg, struct waiter *w, enum waiter_wake why)
{
	struct http *h = arg;
	struct http_conn *c = (struct http_conn *)w;
	hangup_unwatch(h, c);
	c->wake = why;
	c->rerun = true;
	MHD_resume_connection(c->conn);
}

/* With srv->lock held: ends the parked polls whose client hung up (their
 * handler runs once more with WAITER_GONE, for its accounting, and the
 * connection is closed). The epoll set reports only those, so the cost
 * does not grow with the number parked. Returns how many. */
static size_t hangups_end(struct http *h)
{
	size_t n = 0;
#ifdef __linux__
	struct epoll_event ev[64];
	int got;
	do {
		got = h->hangup_fd >= 0 ? epoll_wait(h->hangup_fd, ev, 64, 0) : 0;
		for (int i = 0; i < got; i++) {
			struct http_conn *c = ev[i].data.ptr;
			if (!c->waiter.parked) { /* cannot happen: unwatched when woken */
				hangup_unwatch(h, c);
				continue;
			}
			waiters_remove(&h->waiters, &c->waiter);
			wake_conn(h, &c->waiter, WAITER_GONE);
			n++;
		}
	} while (got == 64);
#else
	(void)h;
#endif
	return n;
}

void http_park_suspend(struct http *h, struct http_conn *c, const struct http_reply *reply)
{
	struct server *srv = h->srv;
	if (!c->deadline_set) {
		c->waiter.deadline_ms = now_mono_ms() + srv->cfg.poll_timeout_ms;
		c->deadline_set = true;
	}
	snprintf(c->waiter.game_id, sizeof c->waiter.game_id, "%s", reply->park_game);
	c->parked_by = reply->park_player;
	c->wake = WAITER_NONE;
	/* Suspend before anyone can resume: wakers need the lock we hold. */
	MHD_suspend_connection(c->conn);
	if (waiters_add(&h->waiters, &c->waiter))
		pthread_cond_signal(&h->timer_cond);
	hangup_watch(h, c);
}

void http_park_cancel(struct http *h, struct http_conn *c)
{
	waiters_remove(&h->waiters, &c->waiter);
	hangup_unwatch(h, c);
	c->rerun = true;
}

size_t http_park_wake_all(struct http *h, enum waiter_wake why)
{
	return waiters_wake_all(&h->waiters, why, wake_conn, h);
}

/* Resumes parked polls whose deadline passed. */
void *http_park_timer_main(void *arg)
{
	struct http *h = arg;
	struct server *srv = h->srv;
	pthread_mutex_lock(&srv->lock);
	while (!h->timer_stop) {
		int64_t next = waiters_next_deadline(&h->waiters);
		/* While a poll is parked, its client's hang-up is looked for
		 * once a second; with none parked the thread sleeps until one
		 * is. */
		if (next >= 0 && h->hangup_fd >= 0) {
			if (h->hangup_due <= 0)
				h->hangup_due = now_mono_ms() + HTTP_HANGUP_CHECK_MS;
			if (h->hangup_due < next)
				next = h->hangup_due;
		}
		if (next < 0) {
			pthread_cond_wait(&h->timer_cond, &srv->lock);
		} else if (next > now_mono_ms()) {
			struct timespec ts = http_mono_deadline(next);
			pthread_cond_timedwait(&h->timer_cond, &srv->lock, &ts);
		}
		int64_t now = now_mono_ms();
		size_t n = waiters_expire(&h->waiters, now, wake_conn, h);
		if (n)
			log_debug("poll timer: %zu polls timed out", n);
		if (h->hangup_due > 0 && h->hangup_due <= now) {
			h->hangup_due = h->waiters.count ? now + HTTP_HANGUP_CHECK_MS : 0;
			if ((n = hangups_end(h)))
				log_debug("poll timer: %zu parked polls' clients hung up", n);
		}
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

void http_wake_game(struct http *h, const char *game_id)
{
	size_t n = waiters_wake_game(&h->waiters, game_id, wake_conn, h);
	if (n)
		log_debug("game %s: woke %zu polls", game_id, n);
}

bool http_watched(const struct http *h, const char *game_id)
{
	return h && waiters_on_game(&h->waiters, game_id);
}

size_t http_parked(const struct http *h)
{
	return h ? h->waiters.count : 0;
}
