/*
 * A game's recent events, encoded; see event-ring.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event-ring.h"
#include "tchess/protocol.h"
#include "util/buf.h"

void event_ring_init(struct event_ring *r)
{
	memset(r, 0, sizeof *r);
}

void event_ring_fini(struct event_ring *r)
{
	for (int i = 0; i < EVENT_RING_SIZE; i++)
		free(r->e[i].json);
	memset(r, 0, sizeof *r);
}

void event_ring_push(struct event_ring *r, int64_t seq, int64_t visible_to, char *json)
{
	if (r->first && seq != r->last + 1)
		event_ring_fini(r);
	struct event_ring_entry *e = &r->e[seq % EVENT_RING_SIZE];
	free(e->json);
	e->seq = seq;
	e->visible_to = visible_to;
	e->json = json;
	e->len = strlen(json);
	if (!r->first)
		r->first = seq;
	else if (seq - r->first >= EVENT_RING_SIZE)
		r->first = seq - EVENT_RING_SIZE + 1;
	r->last = seq;
}

bool event_ring_covers(const struct event_ring *r, int64_t after)
{
	if (!r->first)
		return false;
	return after + 1 >= r->first && after <= r->last;
}

char *event_ring_answer(const struct event_ring *r, int64_t after, int64_t upto, int64_t viewer, int64_t now_ms,
			size_t budget)
{
	struct buf b;
	buf_init(&b);
	buf_reserve(&b, 64 + (size_t)(upto - after) * 256);
	buf_append_str(&b, "{\"events\":[");
	bool first = true;
	int64_t seq = upto, sent = after;
	for (int64_t s = after + 1; s <= upto; s++) {
		const struct event_ring_entry *e = &r->e[s % EVENT_RING_SIZE];
		if (e->visible_to && e->visible_to != viewer)
			continue;
		if (!first && b.len + e->len > budget) {
			seq = sent; /* the client asks again from the last one sent */
			break;
		}
		if (!first)
			buf_append(&b, ",", 1);
		buf_append(&b, e->json, e->len);
		first = false;
		sent = s;
	}
	protocol_events_close(&b, seq, now_ms);
	return buf_steal(&b);
}
