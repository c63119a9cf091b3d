/*
 * Parked long-polls by game and by deadline; see waiters.h.
 */
#include <string.h>

#include "waiters.h"

/* FNV-1a: game ids are random already, any spread will do. */
static size_t bucket_of(const char *id)
{
	uint32_t h = 2166136261u;
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h % WAITERS_BUCKETS;
}

void waiters_init(struct waiters *ws)
{
	memset(ws, 0, sizeof *ws);
}

bool waiters_add(struct waiters *ws, struct waiter *w)
{
	size_t b = bucket_of(w->game_id);
	w->game_prev = NULL;
	w->game_next = ws->bucket[b];
	if (w->game_next)
		w->game_next->game_prev = w;
	ws->bucket[b] = w;

	/* Walk back from the tail to keep deadline order. */
	struct waiter *after = ws->time_tail;
	while (after && after->deadline_ms > w->deadline_ms)
		after = after->time_prev;
	w->time_prev = after;
	w->time_next = after ? after->time_next : ws->time_head;
	if (w->time_next)
		w->time_next->time_prev = w;
	else
		ws->time_tail = w;
	if (after)
		after->time_next = w;
	else
		ws->time_head = w;
	w->parked = true;
	ws->count++;
	return ws->time_head == w;
}

void waiters_remove(struct waiters *ws, struct waiter *w)
{
	if (!w->parked)
		return;
	if (w->game_prev)
		w->game_prev->game_next = w->game_next;
	else
		ws->bucket[bucket_of(w->game_id)] = w->game_next;
	if (w->game_next)
		w->game_next->game_prev = w->game_prev;
	if (w->time_prev)
		w->time_prev->time_next = w->time_next;
	else
		ws->time_head = w->time_next;
	if (w->time_next)
		w->time_next->time_prev = w->time_prev;
	else
		ws->time_tail = w->time_prev;
	w->game_prev = w->game_next = w->time_prev = w->time_next = NULL;
	w->parked = false;
	ws->count--;
}

size_t waiters_wake_game(struct waiters *ws, const char *game_id, waiter_wake_fn fn, void *arg)
{
	size_t n = 0;
	struct waiter *w = ws->bucket[bucket_of(game_id)];
	while (w) {
		struct waiter *next = w->game_next;
		if (!strcmp(w->game_id, game_id)) {
			waiters_remove(ws, w);
			fn(arg, w, WAITER_EVENT);
			n++;
		}
		w = next;
	}
	return n;
}

bool waiters_on_game(const struct waiters *ws, const char *game_id)
{
	for (const struct waiter *w = ws->bucket[bucket_of(game_id)]; w; w = w->game_next) {
		if (!strcmp(w->game_id, game_id))
			return true;
	}
	return false;
}

size_t waiters_expire(struct waiters *ws, int64_t now_ms, waiter_wake_fn fn, void *arg)
{
	size_t n = 0;
	while (ws->time_head && ws->time_head->deadline_ms <= now_ms) {
		struct waiter *w = ws->time_head;
		waiters_remove(ws, w);
		fn(arg, w, WAITER_TIMEOUT);
		n++;
	}
	return n;
}

size_t waiters_wake_all(struct waiters *ws, enum waiter_wake why, waiter_wake_fn fn, void *arg)
{
	size_t n = 0;
	while (ws->time_head) {
		struct waiter *w = ws->time_head;
		waiters_remove(ws, w);
		fn(arg, w, why);
		n++;
	}
	return n;
}

int64_t waiters_next_deadline(const struct waiters *ws)
{
	return ws->time_head ? ws->time_head->deadline_ms : -1;
}
