/*
 * The client's one loop: the only place in tchess that waits. One pass
 * draws what the screen on top marked dirty and flushes the terminal once,
 * sleeps in net_wait() (curl_multi_poll on the network, the terminal and a
 * SIGWINCH pipe; plain poll() when there is no network) until something
 * happens or the screen's next_tick is due, hands each finished request to
 * the screen that sent it, lets the screen on top apply the time, turns
 * the keys that arrived into that screen's commands, and sends what the
 * screens queued. Another thread (an engine's worker) wakes the wait with
 * loop_wake() instead of the screen polling for its answers. With no tick due and nothing arriving the sleep has no
 * timeout: an idle screen costs no CPU.
 *
 * Screens (play, review, tournaments, the home screen) plug in through
 * struct screen_ops and stack: a screen opens another (the tournament list
 * opens a game) with loop_push() and is shown again, told by its resume
 * op, when that one is done. Only the top screen draws and reads keys;
 * replies reach the screen that sent the request wherever it is on the
 * stack, and are dropped once it has gone.
 *
 * The loop owns no model: each screen's self pointer is the screen's
 * state, freed by its close op.
 */
#ifndef TCHESS_CLIENT_LOOP_H
#define TCHESS_CLIENT_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loop;
struct net;
struct net_reply;
struct ui;

/* What a screen does for the loop. Dirty masks are the screen's own bits;
 * the loop only tests them for zero. Ops a screen has no use for may be
 * NULL. */
struct screen_ops {
	const char *name;
	/* Shown for the first time (resumed false) or again after the screen
	 * it opened is done (resumed true): lays out for the terminal's size
	 * and returns what to draw (everything). */
	unsigned (*show)(void *self, struct loop *l, bool resumed);
	/* Draws what dirty says into the terminal's buffers; the loop
	 * flushes. */
	void (*draw)(void *self, unsigned dirty);
	/* One key (keys.h; KEYS_RESIZE and KEYS_MOUSE included): turned into
	 * the screen's command and applied. Returns what to redraw. */
	unsigned (*key)(void *self, struct loop *l, int key);
	/* Applies the time (mono_ms) and the connection's state once a pass;
	 * returns what to redraw. */
	unsigned (*apply)(void *self, struct loop *l, int64_t mono_ms);
	/* A reply to one of the screen's requests (or its long-poll). */
	unsigned (*on_reply)(void *self, struct loop *l, const struct net_reply *r);
	/* Milliseconds until the screen's text changes by itself (a clock),
	 * or -1 for never. */
	int64_t (*next_tick)(void *self, int64_t mono_ms);
	/* Sends what the screen's model queued (loop_command, loop_poll). */
	void (*send)(void *self, struct loop *l);
	/* True once the screen is finished; the loop then pops it. */
	bool (*done)(const void *self);
	/* Frees self (after it was popped, or when the loop ends). */
	void (*close)(void *self);
};

/* A loop on ui's terminal over n (NULL: no network, as for review). Both
 * stay the caller's. */
struct loop *loop_new(struct ui *ui, struct net *n);
/* Closes every screen still on the stack. NULL is a no-op. */
void loop_free(struct loop *l);

/* Puts a screen on top of the stack; it is shown on the next pass. */
void loop_push(struct loop *l, const struct screen_ops *ops, void *self);

/* Runs until the stack is empty. Returns 0, or -1 when the terminal went
 * away (the screens left are closed by loop_free). */
int loop_run(struct loop *l);

/* Wakes the loop's wait from any thread (an engine's answer, on the
 * engine's worker): the next pass runs the top screen's apply, where the
 * screen picks up what the thread left for it. Safe to call until
 * loop_free() returns; wakes that come before the wait coalesce. */
void loop_wake(struct loop *l);

struct ui *loop_ui(const struct loop *l);
/* The network, or NULL. */
struct net *loop_net(const struct loop *l);

/* Sends a request for the screen self: net_command() (retried until the
 * server answers) when retry, else net_ask() (a network error comes back
 * as status -1). tag (0..LOOP_TAG_MAX) and data come back in the reply. */
#define LOOP_TAG_MAX 4095
void loop_command(struct loop *l, const void *self, bool retry, const char *method, const char *path,
		  const char *body, int tag, const void *data, size_t data_size);
/* The same with a form body (net_command_form): Lichess's commands. */
void loop_command_form(struct loop *l, const void *self, bool retry, const char *method, const char *path,
		       const char *form, int tag, const void *data, size_t data_size);
/* (Re)starts the long-poll of game_id for the screen self; its replies
 * (tag NET_TAG_POLL) go to self. */
void loop_poll(struct loop *l, const void *self, const char *game_id, int64_t after);
/* Stops the long-poll, when self holds it. */
void loop_poll_stop(struct loop *l, const void *self);

#endif
