/*
 * The seam between the play screen and the server a game lives on: one
 * session and one play screen serve a tchessd game (the long-poll of its
 * events, backend-tchessd.c) and a Lichess game (the Board API's NDJSON
 * game stream, backend-lichess.c). The play screen holds one backend and
 * calls it where it used to speak tchessd's protocol itself: to start
 * following the game, for each reply to its requests, once a pass (a
 * stream's lines and timers), for the time until the backend's next timer,
 * and to send the session's outbox.
 *
 * A backend's requests go through the loop for the screen that owns it
 * (owner), so their replies come back to that screen wherever it is on
 * the stack; a stream's bytes arrive through net-stream.h's callbacks and
 * are folded into the session on the next pass.
 */
#ifndef TCHESS_CLIENT_BACKEND_H
#define TCHESS_CLIENT_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

struct loop;
struct net;
struct net_reply;
struct session;

struct game_backend;

struct game_backend_ops {
	const char *name;
	/* Starts following s's game (once, when the screen is first shown). */
	void (*follow)(struct game_backend *b, struct loop *l, struct session *s);
	/* A reply to one of the owner's requests (or its long-poll), folded
	 * into s. Returns the session's dirty bits. */
	unsigned (*on_reply)(struct game_backend *b, struct loop *l, struct session *s, const struct net_reply *r);
	/* Once a pass, at mono_ms: what arrived on a stream since, and the
	 * backend's timers (a watchdog, a reopen). May be NULL. Returns dirty
	 * bits. */
	unsigned (*apply)(struct game_backend *b, struct loop *l, struct session *s, int64_t mono_ms);
	/* Milliseconds until the next timer of the backend, -1 none. May be
	 * NULL. */
	int64_t (*next_tick)(const struct game_backend *b, int64_t mono_ms);
	/* The connection's state as the status line shows it (NULL: the
	 * command queue's, net_state). */
	enum session_conn (*conn)(const struct game_backend *b, const struct net *n);
	/* Sends what s's outbox holds. */
	void (*send)(struct game_backend *b, struct loop *l, struct session *s);
	/* The player quits the screen of a game they are seated in while it
	 * runs: tell the server at once (briefly; its answer is not waited
	 * for longer than that). May be NULL. */
	void (*leave)(struct game_backend *b, struct loop *l, struct session *s);
	/* Frees what the backend holds (its streams closed), not b itself's
	 * owner. */
	void (*close)(struct game_backend *b);
};

struct game_backend {
	const struct game_backend_ops *ops;
	void *self;                 /* the implementation's state */
	const void *owner;          /* the screen its requests are sent for */
};

/* tchessd: GET .../events?after=SEQ long-polled, protocol_events folded
 * by the session, the outbox sent as session_req_http says. */
void backend_tchessd_init(struct game_backend *b, const void *owner);

/* Lichess: game_id's Board API stream (GET /api/board/game/stream/ID)
 * read on the loop's net (which must be Lichess's, with the token), as
 * the user me_id (lower case; "" to watch); the commands as Board API
 * POSTs. */
void backend_lichess_init(struct game_backend *b, const void *owner, const char *game_id, const char *me_id);

/* Lichess, spectating: game_id's public stream (GET /api/stream/game/ID,
 * no token needed) read as lichess-watch.h says, on the same model. */
void backend_lichess_watch_init(struct game_backend *b, const void *owner, const char *game_id);

#endif
