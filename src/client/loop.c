/*
 * The client's one loop (loop.h): the stack of screens, the one wait, and
 * the routing of replies to the screen that asked. Nothing here knows a
 * screen's model or draws; the terminal is reached through ui.h (keys,
 * flush) and the network through net.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "keys.h"
#include "loop.h"
#include "net.h"
#include "route.h"
#include "ui/latency.h"
#include "ui/ui.h"
#include "util/xalloc.h"
#include "util/now.h"

#define LOOP_DEPTH_MAX 8
/* Net tags carry the screen's serial above its own tag. */
#define LOOP_TAG_SPAN (LOOP_TAG_MAX + 1)

struct loop_screen {
	const struct screen_ops *ops;
	void *self;
	int serial;
	bool shown;         /* show() has run since it came on top */
	bool resumed;       /* it is on top again after a screen above it */
};

struct loop {
	struct ui *ui;
	struct net *net;
	struct loop_screen stack[LOOP_DEPTH_MAX];
	int depth;
	int next_serial;
	int poll_serial;    /* the screen that holds the long-poll, 0 none */
	int wake_fd;        /* an eventfd loop_wake() writes from any thread, or -1 */
};

/* The SIGWINCH pipe: curses's own handler still runs (it makes the next
 * read return KEY_RESIZE); this one only wakes the wait. */
static int loop_winch_fd = -1;
static struct sigaction loop_old_winch;

static void loop_on_winch(int sig)
{
	int saved = errno;
	if (loop_winch_fd >= 0) {
		ssize_t r = write(loop_winch_fd, "w", 1);
		(void)r;
	}
	if (loop_old_winch.sa_handler != SIG_DFL && loop_old_winch.sa_handler != SIG_IGN &&
	    loop_old_winch.sa_handler)
		loop_old_winch.sa_handler(sig);
	errno = saved;
}

struct loop *loop_new(struct ui *ui, struct net *n)
{
	struct loop *l = xcalloc(1, sizeof *l);
	l->ui = ui;
	l->net = n;
	l->next_serial = 1;
	/* Without it (no eventfd) a wake is lost and a screen that waits on
	 * another thread must tick; every screen here has one. */
	l->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return l;
}

void loop_wake(struct loop *l)
{
	uint64_t one = 1;
	if (l->wake_fd >= 0) {
		/* A full counter (EAGAIN) is a wake already due. */
		ssize_t r = write(l->wake_fd, &one, sizeof one);
		(void)r;
	}
}

static void loop_pop(struct loop *l)
{
	struct loop_screen *top = &l->stack[--l->depth];
	if (l->poll_serial == top->serial) {
		if (l->net)
			net_poll_stop(l->net);
		l->poll_serial = 0;
	}
	if (top->ops->close)
		top->ops->close(top->self);
	if (l->depth > 0) {
		l->stack[l->depth - 1].shown = false;
		l->stack[l->depth - 1].resumed = true;
	}
}

void loop_free(struct loop *l)
{
	if (!l)
		return;
	while (l->depth > 0)
		loop_pop(l);
	/* After the screens: their close may still wake the loop. */
	if (l->wake_fd >= 0)
		close(l->wake_fd);
	free(l);
}

void loop_push(struct loop *l, const struct screen_ops *ops, void *self)
{
	if (l->depth == LOOP_DEPTH_MAX) {
		/* Screens open screens only a few deep; past that it is a
		 * bug, and the new one is refused rather than leaked. */
		if (ops->close)
			ops->close(self);
		return;
	}
	struct loop_screen *s = &l->stack[l->depth++];
	memset(s, 0, sizeof *s);
	s->ops = ops;
	s->self = self;
	s->serial = l->next_serial++;
	if (l->next_serial > INT32_MAX / LOOP_TAG_SPAN - 1)
		l->next_serial = 1;
}

struct ui *loop_ui(const struct loop *l)
{
	return l->ui;
}

struct net *loop_net(const struct loop *l)
{
	return l->net;
}

static struct loop_screen *loop_find(struct loop *l, const void *self)
{
	for (int i = l->depth - 1; i >= 0; i--)
		if (l->stack[i].self == self)
			return &l->stack[i];
	return NULL;
}

static struct loop_screen *loop_find_serial(struct loop *l, int serial)
{
	for (int i = l->depth - 1; i >= 0; i--)
		if (l->stack[i].serial == serial)
			return &l->stack[i];
	return NULL;
}

void loop_command(struct loop *l, const void *self, bool retry, const char *method, const char *path,
		  const char *body, int tag, const void *data, size_t data_size)
{
	struct loop_screen *s = loop_find(l, self);
	if (!s || !l->net || tag < 0 || tag > LOOP_TAG_MAX)
		return;
	int t = s->serial * LOOP_TAG_SPAN + tag;
	if (retry)
		net_command(l->net, method, path, body, t, data, data_size);
	else
		net_ask(l->net, method, path, body, t, data, data_size);
}

void loop_command_form(struct loop *l, const void *self, bool retry, const char *method, const char *path,
		       const char *form, int tag, const void *data, size_t data_size)
{
	struct loop_screen *s = loop_find(l, self);
	if (!s || !l->net || tag < 0 || tag > LOOP_TAG_MAX)
		return;
	net_command_form(l->net, !retry, method, path, form, s->serial * LOOP_TAG_SPAN + tag, data, data_size);
}

void loop_poll(struct loop *l, const void *self, const char *game_id, int64_t after)
{
	struct loop_screen *s = loop_find(l, self);
	if (!s || !l->net)
		return;
	char path[256], query[32];
	snprintf(query, sizeof query, "after=%lld", (long long)after);
	route_request(path, sizeof path, ROUTE_GAME_EVENTS, game_id, query);
	l->poll_serial = s->serial;
	net_poll(l->net, path);
}

void loop_poll_stop(struct loop *l, const void *self)
{
	struct loop_screen *s = loop_find(l, self);
	if (s && l->net && l->poll_serial == s->serial) {
		net_poll_stop(l->net);
		l->poll_serial = 0;
	}
}

/* Every finished request to the screen that sent it; a reply whose screen
 * has gone is dropped. Returns what the top screen must redraw. */
static unsigned loop_replies(struct loop *l)
{
	unsigned dirty = 0;
	struct net_reply r;
	while (l->net && net_next_reply(l->net, &r)) {
		struct loop_screen *s;
		if (r.tag == NET_TAG_POLL) {
			s = loop_find_serial(l, l->poll_serial);
		} else {
			s = loop_find_serial(l, r.tag / LOOP_TAG_SPAN);
			r.tag %= LOOP_TAG_SPAN;
		}
		if (s && s->ops->on_reply) {
			unsigned d = s->ops->on_reply(s->self, l, &r);
			if (s == &l->stack[l->depth - 1])
				dirty |= d;
		}
		free(r.body);
	}
	return dirty;
}

/* Waits for the network, the terminal, the SIGWINCH pipe, a wake from
 * another thread or timeout_ms (-1: none); *tty tells whether the
 * terminal was readable. */
static void loop_wait(struct loop *l, int winch, int64_t timeout_ms, bool *tty)
{
	int fds[3], nfds = 0, at_winch = -1, at_wake = -1;
	bool ready[3] = { false, false, false };
	fds[nfds++] = STDIN_FILENO;
	if (winch >= 0) {
		at_winch = nfds;
		fds[nfds++] = winch;
	}
	if (l->wake_fd >= 0) {
		at_wake = nfds;
		fds[nfds++] = l->wake_fd;
	}
	int t = timeout_ms < 0 ? -1 : timeout_ms > 86400000 ? 86400000 : (int)timeout_ms;
	if (l->net) {
		net_wait(l->net, t, fds, nfds, ready);
	} else {
		struct pollfd pf[3];
		for (int i = 0; i < nfds; i++)
			pf[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		if (poll(pf, (nfds_t)nfds, t) > 0)
			for (int i = 0; i < nfds; i++)
				ready[i] = pf[i].revents != 0;
	}
	if (at_winch >= 0 && ready[at_winch]) {
		char buf[16];
		while (read(winch, buf, sizeof buf) > 0)
			;
	}
	if (at_wake >= 0 && ready[at_wake]) {
		uint64_t n;
		ssize_t r = read(l->wake_fd, &n, sizeof n);
		(void)r;
	}
	*tty = ready[0];
}

int loop_run(struct loop *l)
{
	int pipefd[2] = { -1, -1 }, rc = 0;
	FILE *log = ui_latency_open();
	if (pipe(pipefd) == 0) {
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		fcntl(pipefd[1], F_SETFL, O_NONBLOCK);
		loop_winch_fd = pipefd[1];
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = loop_on_winch;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(SIGWINCH, &sa, &loop_old_winch);
	}
	ui_input_start();

	unsigned dirty = 0;
	int idle_reads = 0;
	while (l->depth > 0) {
		struct loop_screen *top = &l->stack[l->depth - 1];
		if (top->ops->done && top->ops->done(top->self)) {
			loop_pop(l);
			continue;
		}
		if (!top->shown) {
			top->shown = true;
			dirty = top->ops->show ? top->ops->show(top->self, l, top->resumed) : 0;
			top->resumed = false;
			if (top->ops->send)
				top->ops->send(top->self, l);
			continue;
		}
		int64_t now = now_mono_ms();
		if (dirty) {
			top->ops->draw(top->self, dirty);
			ui_flush();
			dirty = 0;
		}
		int64_t tick = top->ops->next_tick ? top->ops->next_tick(top->self, now) : -1;
		bool tty;
		loop_wait(l, pipefd[0], tick, &tty);
		dirty |= loop_replies(l);
		/* A reply may have opened or closed a screen. */
		if (top != &l->stack[l->depth - 1] || l->stack[l->depth - 1].self != top->self || !top->shown)
			continue;
		if (top->ops->apply)
			dirty |= top->ops->apply(top->self, l, now_mono_ms());

		int keys = 0;
		for (;;) {
			int key = ui_poll_key();
			if (key == KEYS_NONE)
				break;
			int64_t t0 = log ? ui_latency_now_us() : 0;
			keys++;
			dirty |= top->ops->key(top->self, l, key);
			if (log && dirty) {
				top->ops->draw(top->self, dirty);
				ui_flush();
				dirty = 0;
				ui_latency_write(log, key, t0);
			}
			/* The key may have finished the screen or opened another. */
			if ((top->ops->done && top->ops->done(top->self)) || top != &l->stack[l->depth - 1] ||
			    l->depth == 0)
				break;
		}
		/* A terminal that has gone away reads as ready forever with no
		 * key: stop instead of spinning. */
		if (tty && keys == 0) {
			struct pollfd pf = { .fd = STDIN_FILENO, .events = POLLIN };
			if (++idle_reads > 50 && poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR | POLLNVAL))) {
				rc = -1;
				break;
			}
		} else {
			idle_reads = 0;
		}
		for (int i = 0; i < l->depth; i++)
			if (l->stack[i].ops->send && l->stack[i].shown)
				l->stack[i].ops->send(l->stack[i].self, l);
	}
	if (log)
		fclose(log);
	if (pipefd[0] >= 0) {
		sigaction(SIGWINCH, &loop_old_winch, NULL);
		loop_winch_fd = -1;
		close(pipefd[0]);
		close(pipefd[1]);
	}
	return rc;
}
