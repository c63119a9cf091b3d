/*
 * The tchessd backend (backend.h): the game's events long-polled after the
 * last seq seen, decoded (protocol) and folded by the session; a refusal
 * of the poll judged by the session (gone for good, or tried again after a
 * backoff); the session's outbox sent as session_req_http says, each
 * request's answer handed back to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "loop.h"
#include "net.h"
#include "route.h"
#include "session.h"
#include "tchess/protocol.h"
#include "util/now.h"

/* A request travels as the net layer's echoed data. */
_Static_assert(sizeof(struct session_req) <= NET_DATA_MAX, "a session request must fit in a net command's data");

static void tchessd_follow(struct game_backend *b, struct loop *l, struct session *s)
{
	loop_poll(l, b->owner, s->game_id, s->after);
}

static unsigned tchessd_on_reply(struct game_backend *b, struct loop *l, struct session *s,
				 const struct net_reply *r)
{
	unsigned dirty = 0;
	struct protocol_error err;
	memset(&err, 0, sizeof err);
	if (r->tag == NET_TAG_POLL) {
		if (r->status == 200) {
			struct protocol_events evs;
			if (protocol_events_decode(r->body, r->len, &evs, &err) < 0) {
				snprintf(s->message, sizeof s->message, "bad answer from the server: %s", err.message);
				s->message_error = true;
				loop_poll(l, b->owner, s->game_id, s->after);
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
		loop_poll(l, b->owner, s->game_id, s->after);
		return dirty;
	}
	struct session_req req;
	memcpy(&req, r->data, sizeof req);
	if (req.kind == SESSION_REQ_PGN && r->status == 200)
		return session_on_pgn(s, r->body, r->len);
	if (req.kind == SESSION_REQ_NEW_GAME && r->status == 201) {
		struct protocol_seat_response seat;
		int color = -1;
		if (protocol_seat_response_decode(r->body, r->len, &seat, &err) < 0 ||
		    !fold_color_parse(seat.color, &color) || color < 0)
			return session_on_answer(s, &req, 502, &err);
		dirty = session_on_new_game(s, seat.id, color);
		loop_poll(l, b->owner, s->game_id, s->after);
		return dirty;
	}
	if (r->status >= 300)
		protocol_error_decode(r->body, r->len, &err, NULL);
	return session_on_answer(s, &req, r->status, r->status >= 300 ? &err : NULL);
}

static void tchessd_send(struct game_backend *b, struct loop *l, struct session *s)
{
	struct session_req req;
	while (session_take_request(s, &req)) {
		const char *method;
		char path[256];
		char *body;
		session_req_http(s, &req, &method, path, sizeof path, &body);
		/* A hotseat game: each request as the seat it was made for. */
		if (s->hotseat && loop_net(l))
			net_act_as_second(loop_net(l), req.seat != s->hotseat_host);
		loop_command(l, b->owner, true, method, path, body, (int)req.kind, &req, sizeof req);
		if (s->hotseat && loop_net(l))
			net_act_as_second(loop_net(l), false);
		free(body);
	}
}

/* A quit is said to the server, so the opponent sees "left" at once
 * instead of after the poll parked now times out. A second at most: the
 * server that does not answer by then learns it from the silence. */
#define TCHESSD_LEAVE_MS 1000

/* A hotseat game's two players leave together: they adjourn it (one seat
 * asks, the other accepts), so that its clocks stop and it waits for them
 * (tchess join, or home's "Your games"; P resumes it), rather than each
 * seat being counted gone after the grace: ended unscored under fide, and
 * under chessgamble a win nobody is there to claim while the clock runs
 * on. Returns whether it is adjourned. */
static bool tchessd_hotseat_adjourn(struct net *n, struct session *s)
{
	struct session_req both[2];
	if (fold_adjourned(&s->view) || !session_hotseat_consent(s, both))
		return false;
	int status = 0;
	for (int i = 0; i < 2 && (i == 0 || status == 200); i++) {
		const char *method;
		char path[256], *body;
		session_req_http(s, &both[i], &method, path, sizeof path, &body);
		net_act_as_second(n, both[i].seat != s->hotseat_host);
		status = net_tell(n, method, path, body, TCHESSD_LEAVE_MS);
		net_act_as_second(n, false);
		free(body);
	}
	return status == 200;
}

static void tchessd_leave(struct game_backend *b, struct loop *l, struct session *s)
{
	(void)b;
	struct net *n = loop_net(l);
	char path[256];
	if (!n)
		return;
	if (s->hotseat && tchessd_hotseat_adjourn(n, s))
		return;
	const char *method = route_request(path, sizeof path, ROUTE_GAME_LEAVE, s->game_id, NULL);
	net_tell(n, method, path, "{}", TCHESSD_LEAVE_MS);
}

static void tchessd_close(struct game_backend *b)
{
	(void)b;
}

static const struct game_backend_ops tchessd_ops = {
	.name = "tchessd",
	.follow = tchessd_follow,
	.on_reply = tchessd_on_reply,
	.send = tchessd_send,
	.leave = tchessd_leave,
	.close = tchessd_close,
};

void backend_tchessd_init(struct game_backend *b, const void *owner)
{
	b->ops = &tchessd_ops;
	b->self = NULL;
	b->owner = owner;
}
