/*
 * The Lichess backend (backend.h): the Board API's game stream
 * (GET /api/board/game/stream/ID) read line by line as it arrives
 * (lichess-stream.h), each line applied to the Lichess game model
 * (lichess-game.h) and, on the next pass, handed to the session, which
 * takes the model's view as its mirror and plays its own premoves
 * (session_on_lichess); the stream reopened by lichess-stream.h's rules
 * (watchdog, backoff, 429's minute, never after the final status), a
 * refusal said; the session's requests sent as Board API commands
 * (session_lichess_req_http), their refusals handed back with Lichess's
 * text.
 *
 * A premove leaves in the pass in which the gameState that makes it
 * playable arrived: the time from the line's arrival to the command handed
 * to the network is written to the TCHESS_LATENCY_LOG file
 * ("premove us N").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "lichess-game.h"
#include "lichess-stream.h"
#include "lichess-watch.h"
#include "loop.h"
#include "net-stream.h"
#include "net.h"
#include "session.h"
#include "tchess/lichess.h"
#include "ui/latency.h"
#include "util/now.h"
#include "util/xalloc.h"

struct lichess_backend {
	struct lichess_game g;
	struct lichess_lines lines;
	struct lichess_retry retry;
	struct net *net;
	struct net_stream *stream;   /* NULL while closed */
	bool stopped;                /* never to be opened again */
	char path[128];
	unsigned changed;            /* LICHESS_CHANGED_ bits not yet handed over */
	int64_t line_us;             /* when the last game line arrived */
	char trouble[SESSION_MESSAGE_MAX];
	bool trouble_error;
	/* The stream's end, dealt with on the next pass. */
	bool ended;
	int end_status;
	char end_text[LICHESS_MESSAGE_MAX];
	FILE *latency;
	/* Spectating: the public stream's lines become Board API messages. */
	bool watch;
	struct lichess_watch w;
};

static void lb_open(struct lichess_backend *b);

static void lb_say(struct lichess_backend *b, bool error, const char *text)
{
	snprintf(b->trouble, sizeof b->trouble, "%s", text);
	b->trouble_error = error;
}

static void lb_line(void *ctx, const char *line, size_t n)
{
	struct lichess_backend *b = ctx;
	struct lichess_msg m;
	struct lichess_watch_line wl;
	char err[200], text[SESSION_MESSAGE_MAX];
	if (b->watch) {
		int got = lichess_watch_decode(line, n, &wl, err, sizeof err);
		if (got == 0)
			got = lichess_watch_msg(&b->w, &wl, &m, err, sizeof err);
		if (got == 0)
			return;
		if (got < 0) {
			snprintf(text, sizeof text, "a line from Lichess was not understood: %s", err);
			lb_say(b, true, text);
			return;
		}
	} else if (lichess_msg_decode(line, n, &m, err, sizeof err) < 0) {
		snprintf(text, sizeof text, "a line from Lichess was not understood: %s", err);
		lb_say(b, true, text);
		return;
	}
	int rc = lichess_game_apply(&b->g, &m, now_mono_ms(), err, sizeof err);
	lichess_msg_fini(&m);
	if (rc < 0) {
		snprintf(text, sizeof text, "a line from Lichess was refused: %s", err);
		lb_say(b, true, text);
		return;
	}
	if (rc > 0) {
		b->changed |= (unsigned)rc;
		b->line_us = ui_latency_now_us();
	}
}

static void lb_data(void *ctx, const char *bytes, size_t n)
{
	struct lichess_backend *b = ctx;
	int lines = lichess_lines_feed(&b->lines, bytes, n, lb_line, b);
	lichess_retry_bytes(&b->retry, now_mono_ms(), lines > 0);
}

static void lb_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct lichess_backend *b = ctx;
	b->stream = NULL;
	b->ended = true;
	b->end_status = status;
	b->end_text[0] = '\0';
	if (status >= 400)
		lichess_error_text(body, len, b->end_text, sizeof b->end_text);
	else if (error)
		snprintf(b->end_text, sizeof b->end_text, "%s", error);
}

static const struct net_stream_ops lb_stream_ops = { lb_data, lb_end };

static void lb_open(struct lichess_backend *b)
{
	lichess_lines_reset(&b->lines);
	b->stream = net_stream_open(b->net, "GET", b->path, NULL, &lb_stream_ops, b);
	lichess_retry_opened(&b->retry, now_mono_ms());
}

static void lichess_follow(struct game_backend *gb, struct loop *l, struct session *s)
{
	struct lichess_backend *b = gb->self;
	(void)s;
	b->net = loop_net(l);
	lb_open(b);
}

/* What a stream's refusal means for the player. */
static void lb_refused(struct lichess_backend *b, int status)
{
	char text[SESSION_MESSAGE_MAX];
	const char *why = b->end_text[0] ? b->end_text : "no reason given";
	if (status == 401)
		snprintf(text, sizeof text, "Lichess refused the token (%.120s): run 'tchess lichess login' again", why);
	else if (status == 403)
		snprintf(text, sizeof text, "Lichess refused (%.120s): the token needs the board:play scope", why);
	else if (status == 404)
		snprintf(text, sizeof text, "Lichess: %.120s (game %.12s)", why, b->g.id);
	else if (status == 400)
		snprintf(text, sizeof text, "Lichess will not play this game over the Board API: %.120s", why);
	else
		snprintf(text, sizeof text, "Lichess refused the game stream (HTTP %d: %.120s)", status, why);
	lb_say(b, true, text);
}

static unsigned lichess_apply(struct game_backend *gb, struct loop *l, struct session *s, int64_t mono_ms)
{
	struct lichess_backend *b = gb->self;
	unsigned dirty = 0;
	(void)l;
	if (b->changed) {
		dirty |= session_on_lichess(s, &b->g, b->changed, mono_ms);
		b->changed = 0;
	}
	if (b->ended) {
		b->ended = false;
		enum lichess_end e = lichess_retry_ended(&b->retry, b->end_status, lichess_game_over(&b->g), mono_ms);
		if (e == LICHESS_END_RATE_LIMITED) {
			char text[SESSION_MESSAGE_MAX];
			snprintf(text, sizeof text, "Lichess asks to wait (429 too many requests): reading the game again in %lld s",
				 (long long)((b->retry.reopen_at_ms - mono_ms + 999) / 1000));
			lb_say(b, true, text);
		} else if (e == LICHESS_END_REFUSED) {
			lb_refused(b, b->end_status);
			b->stopped = true;
		} else if (e == LICHESS_END_FINAL) {
			b->stopped = true;
		}
	}
	if (b->stream && lichess_retry_idle(&b->retry, mono_ms)) {
		net_stream_close(b->net, b->stream);
		b->stream = NULL;
		lichess_retry_ended(&b->retry, 0, lichess_game_over(&b->g), mono_ms);
		char text[SESSION_MESSAGE_MAX];
		snprintf(text, sizeof text, "nothing from Lichess for %lld s: reconnecting",
			 (long long)(b->retry.idle_ms / 1000));
		lb_say(b, true, text);
	}
	if (!b->stream && !b->stopped && b->retry.reopen_at_ms && b->retry.reopen_at_ms <= mono_ms) {
		lb_open(b);
		/* What was said of the wait is over once the stream opens again. */
	}
	if (b->trouble[0]) {
		dirty |= session_lichess_say(s, b->trouble, b->trouble_error);
		b->trouble[0] = '\0';
	}
	return dirty;
}

static int64_t lichess_next_tick(const struct game_backend *gb, int64_t mono_ms)
{
	const struct lichess_backend *b = gb->self;
	int64_t claim = b->g.opponent_gone && b->g.claim_at_ms != INT64_MAX && b->g.claim_at_ms > mono_ms
				? b->g.claim_at_ms - mono_ms
				: -1;
	int64_t next = b->stopped ? -1 : lichess_retry_next_ms(&b->retry, b->stream != NULL, mono_ms);
	return claim >= 0 && (next < 0 || claim < next) ? claim : next;
}

static enum session_conn lichess_conn(const struct game_backend *gb, const struct net *n)
{
	const struct lichess_backend *b = gb->self;
	if (!b->stream && !b->stopped)
		return b->retry.reopens > 0 ? SESSION_CONN_RECONNECTING : SESSION_CONN_CONNECTING;
	if (n && net_state(n) == NET_RECONNECTING)
		return SESSION_CONN_RECONNECTING;
	return b->g.full ? SESSION_CONN_ONLINE : SESSION_CONN_CONNECTING;
}

static void lichess_send(struct game_backend *gb, struct loop *l, struct session *s)
{
	struct lichess_backend *b = gb->self;
	struct session_req req;
	while (session_take_request(s, &req)) {
		const char *method;
		char path[256];
		char *form = NULL;
		if (!session_lichess_req_http(s, &req, &method, path, sizeof path, &form))
			continue;
		bool premove = req.kind == SESSION_REQ_MOVE && s->premove_fired;
		/* A command is sent once: a move retried after it got through
		 * would be refused, and one lost is the player's to play again. */
		loop_command_form(l, gb->owner, false, method, path, form, (int)req.kind, &req, sizeof req);
		free(form);
		if (premove) {
			s->premove_fired = false;
			if (b->latency) {
				fprintf(b->latency, "premove us %" PRId64 "\n", ui_latency_now_us() - b->line_us);
				fflush(b->latency);
			}
		}
	}
}

static unsigned lichess_on_reply(struct game_backend *gb, struct loop *l, struct session *s,
				 const struct net_reply *r)
{
	(void)gb;
	(void)l;
	struct session_req req;
	struct protocol_error err;
	memset(&err, 0, sizeof err);
	memcpy(&req, r->data, sizeof req);
	if (r->status >= 200 && r->status < 300)
		return session_on_answer(s, &req, r->status, NULL);
	if (r->status < 0)
		snprintf(err.message, sizeof err.message, "Lichess could not be reached: %.150s", r->body ? r->body : "");
	else if (!lichess_error_text(r->body, r->len, err.message, sizeof err.message))
		snprintf(err.message, sizeof err.message, "Lichess refused it (HTTP %d)", r->status);
	return session_on_answer(s, &req, r->status < 0 ? 503 : r->status, &err);
}

static void lichess_close(struct game_backend *gb)
{
	struct lichess_backend *b = gb->self;
	if (!b)
		return;
	if (b->stream)
		net_stream_close(b->net, b->stream);
	if (b->latency)
		fclose(b->latency);
	lichess_lines_fini(&b->lines);
	lichess_game_fini(&b->g);
	if (b->watch)
		lichess_watch_fini(&b->w);
	free(b);
	gb->self = NULL;
}

static const struct game_backend_ops lichess_ops = {
	.name = "lichess",
	.follow = lichess_follow,
	.on_reply = lichess_on_reply,
	.apply = lichess_apply,
	.next_tick = lichess_next_tick,
	.conn = lichess_conn,
	.send = lichess_send,
	.close = lichess_close,
};

/* A test's knob (TCHESS_LICHESS_IDLE_MS, TCHESS_LICHESS_RATE_LIMIT_MS):
 * milliseconds from 100 to an hour, else dflt. */
static int64_t lb_env_ms(const char *name, int64_t dflt)
{
	const char *v = getenv(name);
	char *end;
	long long ms = v && *v ? strtoll(v, &end, 10) : 0;
	return v && *v && !*end && ms >= 100 && ms <= 3600000 ? (int64_t)ms : dflt;
}

void backend_lichess_init(struct game_backend *gb, const void *owner, const char *game_id, const char *me_id)
{
	struct lichess_backend *b = xcalloc(1, sizeof *b);
	lichess_game_init(&b->g, game_id, me_id);
	lichess_lines_init(&b->lines);
	lichess_retry_init(&b->retry, now_mono_ms(), (uint64_t)now_mono_ms() ^ (uint64_t)getpid());
	b->retry.idle_ms = lb_env_ms("TCHESS_LICHESS_IDLE_MS", LICHESS_IDLE_MS);
	b->retry.rate_limit_ms = lb_env_ms("TCHESS_LICHESS_RATE_LIMIT_MS", LICHESS_RATE_LIMIT_MS);
	snprintf(b->path, sizeof b->path, LICHESS_PATH_GAME_STREAM "%s", game_id);
	b->latency = ui_latency_open();
	gb->ops = &lichess_ops;
	gb->self = b;
	gb->owner = owner;
}

void backend_lichess_watch_init(struct game_backend *gb, const void *owner, const char *game_id)
{
	backend_lichess_init(gb, owner, game_id, "");
	struct lichess_backend *b = gb->self;
	b->watch = true;
	lichess_watch_init(&b->w);
	snprintf(b->path, sizeof b->path, LICHESS_PATH_WATCH "%s", game_id);
}
