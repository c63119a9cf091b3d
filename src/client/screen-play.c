/*
 * The play and watch screen's logic (screens.h): keys and mouse to session
 * commands, the game followed and the session's requests sent through its
 * backend (backend.h: tchessd's long-poll, or Lichess's game stream), the
 * clocks' ticks and the bell. ui/play.c draws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "keys.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "tchess/protocol.h"
#include "ui/ui.h"
#include "util/xalloc.h"
#include "util/now.h"

struct screen_play {
	struct ui *ui;
	struct session *s;
	struct ui_play *draw;
	bool ticking;        /* a clock's text was due to change this pass */
	void (*closed)(void *ctx, struct session *s);
	void *ctx;
	struct game_backend backend;
};

struct screen_play *screen_play_new(struct ui *ui, struct session *s, void (*closed)(void *ctx, struct session *s),
				    void *ctx)
{
	struct screen_play *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->s = s;
	p->draw = ui_play_new(ui, s);
	p->closed = closed;
	p->ctx = ctx;
	backend_tchessd_init(&p->backend, p);
	return p;
}

struct game_backend *screen_play_backend(struct screen_play *p)
{
	return &p->backend;
}

bool screen_play_failure(const struct session *s, char *why, size_t size)
{
	char head[120], hint[160];
	if (s->view.created)
		return false;
	if (session_gone_text(s, head, sizeof head, hint, sizeof hint)) {
		snprintf(why, size, "%s (%s)", head, hint);
		return true;
	}
	if (s->message_error) {
		snprintf(why, size, "%s", s->message);
		return true;
	}
	return false;
}

static unsigned screen_play_resize(struct screen_play *p)
{
	int w, h;
	ui_size(&w, &h);
	struct session_cmd c = { SESSION_CMD_RESIZE, w, h };
	unsigned dirty = session_apply(p->s, &c);
	ui_play_layout(p->draw);
	return dirty;
}

static unsigned screen_play_show(void *self, struct loop *l, bool resumed)
{
	struct screen_play *p = self;
	ui_mouse(p->ui, true);
	if (!resumed)
		p->backend.ops->follow(&p->backend, l, p->s);
	return screen_play_resize(p) | SESSION_DIRTY_CLEAR;
}

static void screen_play_draw(void *self, unsigned dirty)
{
	struct screen_play *p = self;
	ui_play_draw(p->draw, dirty);
}

static unsigned screen_play_key(void *self, struct loop *l, int key)
{
	struct screen_play *p = self;
	if (key == KEYS_RESIZE)
		return screen_play_resize(p);
	struct session *s = p->s;
	bool running = s->me >= 0 && fold_running(&s->view) && !s->gone;
	bool waiting = session_waiting(s);
	struct session_cmd c = key == KEYS_MOUSE ? ui_play_mouse(p->draw) : session_key(s, key);
	unsigned dirty = session_apply(s, &c);
	/* Leaving a game that runs: the server hears it now (backend.h).
	 * Leaving a seek or invite nobody joined withdraws it. */
	if (s->quit && (running || waiting) && p->backend.ops->leave)
		p->backend.ops->leave(&p->backend, l, s);
	return dirty;
}

/* The bell or the flash the session asked for, rung once; the rest of
 * dirty returned. The opponent's move is noticed here, after whichever
 * backend folded it (backend.h), so tchessd and Lichess games ring
 * alike. */
static unsigned screen_play_alerts(struct session *s, unsigned dirty)
{
	dirty |= session_move_alert(s);
	if (dirty & SESSION_DIRTY_BELL)
		ui_beep();
	if (dirty & SESSION_DIRTY_FLASH)
		ui_flash();
	return dirty & ~(unsigned)(SESSION_DIRTY_BELL | SESSION_DIRTY_FLASH);
}

static unsigned screen_play_apply(void *self, struct loop *l, int64_t mono_ms)
{
	struct screen_play *p = self;
	struct session *s = p->s;
	struct net *n = loop_net(l);
	unsigned dirty = 0;
	/* A stream's lines first: they decide the connection's state too. */
	if (p->backend.ops->apply)
		dirty |= p->backend.ops->apply(&p->backend, l, s, mono_ms);
	if (p->backend.ops->conn) {
		dirty |= session_set_conn(s, p->backend.ops->conn(&p->backend, n), n ? net_rtt(n) : -1);
	} else if (n) {
		enum session_conn c = net_state(n) == NET_RECONNECTING ? SESSION_CONN_RECONNECTING
				      : net_state(n) == NET_ONLINE   ? SESSION_CONN_ONLINE
								       : SESSION_CONN_CONNECTING;
		dirty |= session_set_conn(s, c, net_rtt(n));
	}
	if (session_next_tick(s, mono_ms) >= 0 || p->ticking)
		dirty |= SESSION_DIRTY_CLOCKS;
	dirty |= session_tick(s, mono_ms);
	return screen_play_alerts(s, dirty);
}

static unsigned screen_play_on_reply(void *self, struct loop *l, const struct net_reply *r)
{
	struct screen_play *p = self;
	return screen_play_alerts(p->s, p->backend.ops->on_reply(&p->backend, l, p->s, r));
}

static int64_t screen_play_next_tick(void *self, int64_t mono_ms)
{
	struct screen_play *p = self;
	int64_t tick = session_next_tick(p->s, mono_ms);
	p->ticking = tick >= 0;
	if (p->backend.ops->next_tick) {
		int64_t b = p->backend.ops->next_tick(&p->backend, mono_ms);
		if (b >= 0 && (tick < 0 || b < tick))
			tick = b;
	}
	return tick;
}

static void screen_play_send(void *self, struct loop *l)
{
	struct screen_play *p = self;
	p->backend.ops->send(&p->backend, l, p->s);
}

static bool screen_play_done(const void *self)
{
	const struct screen_play *p = self;
	return p->s->quit;
}

static void screen_play_close(void *self)
{
	struct screen_play *p = self;
	ui_play_free(p->draw);
	p->backend.ops->close(&p->backend);
	if (p->closed)
		p->closed(p->ctx, p->s);
	free(p);
}

const struct screen_ops screen_play_ops = {
	.name = "play",
	.show = screen_play_show,
	.draw = screen_play_draw,
	.key = screen_play_key,
	.apply = screen_play_apply,
	.on_reply = screen_play_on_reply,
	.next_tick = screen_play_next_tick,
	.send = screen_play_send,
	.done = screen_play_done,
	.close = screen_play_close,
};
