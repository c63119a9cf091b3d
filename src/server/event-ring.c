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

static void entry_free(struct event_ring_entry *e)
{
	for (int a = 0; a < EVENT_RING_AUDIENCES; a++) {
		free(e->tail[a]);
		e->tail[a] = NULL;
	}
}

void event_ring_fini(struct event_ring *r)
{
	for (int i = 0; i < EVENT_RING_SIZE; i++)
		entry_free(&r->e[i]);
	memset(r, 0, sizeof *r);
}

void event_ring_push(struct event_ring *r, int64_t seq, int64_t visible_to, const int64_t num[EVENT_RING_AUDIENCES],
		     char *tail[EVENT_RING_AUDIENCES])
{
	if (r->first && seq != r->last + 1)
		event_ring_fini(r);
	struct event_ring_entry *e = &r->e[seq % EVENT_RING_SIZE];
	entry_free(e);
	e->seq = seq;
	e->visible_to = visible_to;
	for (int a = 0; a < EVENT_RING_AUDIENCES; a++) {
		e->num[a] = num[a];
		e->tail[a] = tail[a];
		e->len[a] = tail[a] ? strlen(tail[a]) : 0;
	}
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

char *event_ring_answer(const struct event_ring *r, int64_t after, int64_t upto, int64_t viewer, int aud,
			int64_t upto_num, int64_t now_ms, size_t budget)
{
	struct buf b;
	buf_init(&b);
	buf_reserve(&b, 64 + (size_t)(upto - after) * 256);
	buf_append_str(&b, "{\"events\":[");
	bool first = true;
	int64_t seq = upto_num, sent = 0;
	for (int64_t s = after + 1; s <= upto; s++) {
		const struct event_ring_entry *e = &r->e[s % EVENT_RING_SIZE];
		if (e->visible_to && e->visible_to != viewer)
			continue;
		int t = e->tail[aud] ? aud : 0;
		if (!first && b.len + e->len[t] > budget) {
			seq = sent; /* the client asks again from the last one sent */
			break;
		}
		char head[40];
		int n = snprintf(head, sizeof head, "%s{\"seq\":%lld", first ? "" : ",", (long long)e->num[aud]);
		buf_append(&b, head, (size_t)n);
		buf_append(&b, e->tail[t], e->len[t]);
		first = false;
		sent = e->num[aud];
	}
	protocol_events_close(&b, seq, now_ms);
	return buf_steal(&b);
}
