/*
 * The recent events of one live game, kept encoded as the JSON objects the
 * events long-poll sends (lila-ws keeps a game's recent moves in memory the
 * same way). Each event is encoded once, when its transaction commits, and
 * a poll answer is then only these texts joined: no store read, no JSON
 * parse or print per poll. Older events than the ring holds come from the
 * store, as before.
 *
 * Not thread-safe: the game service uses it under the server lock.
 */
#ifndef TCHESS_SERVER_EVENT_RING_H
#define TCHESS_SERVER_EVENT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Events kept per game: a long-poll that is at most this far behind is
 * answered from memory. */
#define EVENT_RING_SIZE 64
/* The audiences of a game: everyone, and each seat's player. */
#define EVENT_RING_AUDIENCES 3

struct event_ring_entry {
	int64_t seq;        /* the game log's */
	int64_t visible_to; /* 0: everyone; else only this player */
	int64_t num[EVENT_RING_AUDIENCES]; /* the seq each audience that sees it is told */
	/* The event object after its seq (",\"type\":...}"), malloc'd; an
	 * audience's own (an event whose data holds seqs), or NULL for
	 * tail[0]'s. */
	char *tail[EVENT_RING_AUDIENCES];
	size_t len[EVENT_RING_AUDIENCES];
};

struct event_ring {
	struct event_ring_entry e[EVENT_RING_SIZE]; /* seq s sits at s % EVENT_RING_SIZE */
	int64_t first;                              /* lowest seq held; 0 when empty */
	int64_t last;                               /* highest seq held */
};

void event_ring_init(struct event_ring *r);
void event_ring_fini(struct event_ring *r);
/* Adds the event seq, numbered num[a] by each audience a, taking the
 * tails (tail[0] required, the others NULL for the same). seq must follow
 * the last one held; otherwise (a gap) the ring restarts from seq. */
void event_ring_push(struct event_ring *r, int64_t seq, int64_t visible_to, const int64_t num[EVENT_RING_AUDIENCES],
		     char *tail[EVENT_RING_AUDIENCES]);
/* Whether the events after seq after (up to the last held) are all here. */
bool event_ring_covers(const struct event_ring *r, int64_t after);
/* The long-poll answer {"events":[...],"seq":upto_num,"now_ms":now_ms}
 * with the events after < seq <= upto (the log's seqs) that viewer, of
 * audience aud, may see (public ones and viewer's own private ones), each
 * with aud's number, stopping before one that would take the events past
 * budget bytes (the first always goes in): seq is then the last one's.
 * upto_num is aud's number of upto. The caller checked
 * event_ring_covers(r, after) and upto <= r->last. Returns malloc'd
 * text. */
char *event_ring_answer(const struct event_ring *r, int64_t after, int64_t upto, int64_t viewer, int aud,
			int64_t upto_num, int64_t now_ms, size_t budget);

#endif
