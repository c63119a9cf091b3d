/*
 * Parked long-polls: who waits on which game, and until when. A waiter sits
 * on two lists at once: its game's bucket (so a new event wakes every waiter
 * of that game) and one list in deadline order (so the timer expires the
 * oldest first without a scan). All polls share one timeout, so a new waiter
 * almost always goes at the tail and adding is O(1).
 *
 * Not thread-safe: the caller holds the server lock. Waking removes the
 * waiter from both lists and calls a function the caller gives (http.c
 * resumes the suspended connection there), so no MHD type appears here.
 */
#ifndef TCHESS_SERVER_WAITERS_H
#define TCHESS_SERVER_WAITERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Why a parked request runs again. */
enum waiter_wake {
	WAITER_NONE,    /* not woken (first run) */
	WAITER_EVENT,   /* its game has a new event */
	WAITER_TIMEOUT, /* its deadline passed */
	WAITER_DRAIN,   /* the server is shutting down */
	WAITER_GONE,    /* its client hung up (nobody reads the answer) */
};

#define WAITERS_BUCKETS 4096

struct waiter {
	char game_id[STORE_GAME_ID_MAX + 1];
	int64_t deadline_ms; /* monotonic */
	bool parked;         /* on the lists */
	struct waiter *game_prev, *game_next;
	struct waiter *time_prev, *time_next;
};

struct waiters {
	struct waiter *bucket[WAITERS_BUCKETS];
	struct waiter *time_head, *time_tail;
	size_t count;
};

typedef void (*waiter_wake_fn)(void *arg, struct waiter *w, enum waiter_wake why);

void waiters_init(struct waiters *ws);
/* Parks w (game_id and deadline_ms filled in by the caller). Returns true if
 * w is now the earliest deadline, so the timer must be told. */
bool waiters_add(struct waiters *ws, struct waiter *w);
/* Unparks w without waking it; a no-op if it is not parked. */
void waiters_remove(struct waiters *ws, struct waiter *w);
/* Unparks every waiter of game and calls fn for each; returns how many. */
size_t waiters_wake_game(struct waiters *ws, const char *game_id, waiter_wake_fn fn, void *arg);
/* Whether any waiter is parked on game_id. */
bool waiters_on_game(const struct waiters *ws, const char *game_id);
/* Unparks every waiter whose deadline is <= now and calls fn (WAITER_TIMEOUT). */
size_t waiters_expire(struct waiters *ws, int64_t now_ms, waiter_wake_fn fn, void *arg);
/* Unparks every waiter with reason why. */
size_t waiters_wake_all(struct waiters *ws, enum waiter_wake why, waiter_wake_fn fn, void *arg);
/* The earliest deadline, or -1 if nobody waits. */
int64_t waiters_next_deadline(const struct waiters *ws);

#endif
