/*
 * The play and watch screen's logic (screens.h): keys and mouse to session
 * commands, the game's long-poll and the session's requests through the
 * loop, the server's answers decoded and folded into the session, the
 * clocks' ticks and the bell. ui/play.c draws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "tchess/protocol.h"
#include "ui/ui.h"
#include "util/xalloc.h"
#include "util/now.h"

/* A request travels as the net layer's echoed data. */
_Static_assert(sizeof(struct session_req) <= NET_DATA_MAX, "a session request must fit in a net command's data");

struct screen_play {
	struct session *s;
	struct ui_play *draw;
	bool ticking;        /* a clock's text was due to change this pass */
	void (*closed)(void *ctx, struct session *s);
	void *ctx;
};

struct screen_play *screen_play_new(struct ui *ui, struct session *s, void (*closed)(void *ctx, struct session *s),
				    void *ctx)
{
	struct screen_play *p = xcalloc(1, sizeof *p);
	p->s = s;
	p->draw = ui_play_new(ui, s);
	p->closed = closed;
	p->ctx = ctx;
	return p;
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
	ui_mouse(true);
	if (!resumed)
		loop_poll(l, p, p->s->game_id, p->s->after);
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
	(void)l;
	if (key == KEYS_RESIZE)
		return screen_play_resize(p);
	struct session_cmd c = key == KEYS_MOUSE ? ui_play_mouse(p->draw) : session_key(p->s, key);
	return session_apply(p->s, &c);
}

static unsigned screen_play_apply(void *self, struct loop *l, int64_t mono_ms)
{
	struct screen_play *p = self;
	struct session *s = p->s;
	struct net *n = loop_net(l);
	unsigned dirty = 0;
	if (n) {
		enum session_conn c = net_state(n) == NET_RECONNECTING ? SESSION_CONN_RECONNECTING
				      : net_state(n) == NET_ONLINE   ? SESSION_CONN_ONLINE
								       : SESSION_CONN_CONNECTING;
		dirty |= session_set_conn(s, c, net_rtt(n));
	}
	if (session_next_tick(s, mono_ms) >= 0 || p->ticking)
		dirty |= SESSION_DIRTY_CLOCKS;
	dirty |= session_tick(s, mono_ms);
	if (dirty & SESSION_DIRTY_BELL) {
		ui_beep();
		dirty &= ~(unsigned)SESSION_DIRTY_BELL;
	}
	return dirty;
}

static unsigned screen_play_on_reply(void *self, struct loop *l, const struct net_reply *r)
{
	struct screen_play *p = self;
	struct session *s = p->s;
	unsigned dirty = 0;
	struct protocol_error err;
	memset(&err, 0, sizeof err);
	if (r->tag == NET_TAG_POLL) {
		if (r->status == 200) {
			struct protocol_events evs;
			if (protocol_events_decode(r->body, r->len, &evs, &err) < 0) {
				snprintf(s->message, sizeof s->message, "bad answer from the server: %s", err.message);
				s->message_error = true;
				loop_poll(l, p, s->game_id, s->after);
				return SESSION_DIRTY_STATUS;
			}
			dirty |= session_on_events(s, &evs, now_mono_ms());
			protocol_events_fini(&evs);
			/* A refused event: start the mirror again from the log. */
			if (s->resync)
				session_reset(s);
		} else {
			/* A game gone or an account unknown stops the polling
			 * (the screen says why and q leaves); anything else is
			 * shown and the poll tried again after a backoff. */
			bool retry = false;
			if (protocol_error_decode(r->body, r->len, &err, NULL) < 0)
				err.message[0] = '\0';
			dirty = session_on_poll_refused(s, r->status, &err, now_mono_ms(), &retry);
			if (retry && loop_net(l))
				net_poll_retry(loop_net(l));
			return dirty;
		}
		loop_poll(l, p, s->game_id, s->after);
		return dirty;
	}
	struct session_req req;
	memcpy(&req, r->data, sizeof req);
	if (req.kind == SESSION_REQ_PGN && r->status == 200)
		return session_on_pgn(s, r->body, r->len);
	if (r->status >= 300)
		protocol_error_decode(r->body, r->len, &err, NULL);
	return session_on_answer(s, &req, r->status, r->status >= 300 ? &err : NULL);
}

static int64_t screen_play_next_tick(void *self, int64_t mono_ms)
{
	struct screen_play *p = self;
	int64_t tick = session_next_tick(p->s, mono_ms);
	p->ticking = tick >= 0;
	return tick;
}

static void screen_play_send(void *self, struct loop *l)
{
	struct screen_play *p = self;
	struct session_req req;
	while (session_take_request(p->s, &req)) {
		const char *method;
		char path[256];
		char *body;
		session_req_http(p->s, &req, &method, path, sizeof path, &body);
		loop_command(l, p, true, method, path, body, (int)req.kind, &req, sizeof req);
		free(body);
	}
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
