/*
 * libFuzzer target for the protocol codec (tchess/protocol.h) and the
 * event fold (tchess/fold.h). The first byte picks a message type, the
 * rest is its JSON text. Whatever a decoder accepts must encode, decode
 * again and encode to the same text; anything it refuses must come with a
 * bad_request error. The fold's targets decode an event's data (type, a
 * NUL, then the data) with the same round trip, or apply a whole events
 * batch to a scratch game (created, joined, started) and to an empty one,
 * then write both as a snapshot and as PGN: the fold must refuse what does
 * not fit and never crash on what it accepts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fold.h"
#include "tchess/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Aborts (a finding) if a decoder's refusal is not a bad request. */
static void refused(const struct protocol_error *err)
{
	if (err->code != PROTOCOL_ERR_BAD_REQUEST || !err->message[0])
		abort();
}

static void same(char *a, char *b)
{
	if (!a || !b || strcmp(a, b))
		abort();
	free(a);
	free(b);
}

/* decode -> encode -> decode -> encode must be a fixed point. */
#define ROUND_TRIP(type, name)                                                   \
	static void rt_##name(const char *json, size_t len)                      \
	{                                                                        \
		struct type a, b;                                                \
		struct protocol_error err;                                       \
		if (protocol_##name##_decode(json, len, &a, &err)) {             \
			refused(&err);                                           \
			return;                                                  \
		}                                                                \
		char *e1 = protocol_##name##_encode(&a);                         \
		if (protocol_##name##_decode(e1, strlen(e1), &b, &err))          \
			abort();                                                 \
		same(e1, protocol_##name##_encode(&b));                          \
	}

ROUND_TRIP(protocol_error, error)
ROUND_TRIP(protocol_register_request, register_request)
ROUND_TRIP(protocol_player, player)
ROUND_TRIP(protocol_register_response, register_response)
ROUND_TRIP(protocol_game_summary, game_summary)
ROUND_TRIP(protocol_note_request, note_request)
ROUND_TRIP(protocol_game_create_request, game_create_request)
ROUND_TRIP(protocol_seat_response, seat_response)
ROUND_TRIP(protocol_join_request, join_request)
ROUND_TRIP(protocol_move_request, move_request)
ROUND_TRIP(protocol_premoves_request, premoves_request)
ROUND_TRIP(protocol_health, health)

static void rt_event(const char *json, size_t len)
{
	struct protocol_event a, b;
	struct protocol_error err;
	if (protocol_event_decode(json, len, &a, &err)) {
		refused(&err);
		return;
	}
	char *e1 = protocol_event_encode(&a, &err);
	if (!e1 || protocol_event_decode(e1, strlen(e1), &b, &err))
		abort();
	char *e2 = protocol_event_encode(&b, &err);
	protocol_event_fini(&a);
	protocol_event_fini(&b);
	same(e1, e2);
}

static void rt_events(const char *json, size_t len)
{
	struct protocol_events a, b;
	struct protocol_error err;
	if (protocol_events_decode(json, len, &a, &err)) {
		refused(&err);
		return;
	}
	char *e1 = protocol_events_encode(&a, &err);
	if (!e1 || protocol_events_decode(e1, strlen(e1), &b, &err))
		abort();
	char *e2 = protocol_events_encode(&b, &err);
	protocol_events_fini(&a);
	protocol_events_fini(&b);
	same(e1, e2);
}

static void rt_game_list(const char *json, size_t len)
{
	struct protocol_game_summary *a, *b;
	size_t na, nb;
	struct protocol_error err;
	if (protocol_game_list_decode(json, len, &a, &na, &err)) {
		refused(&err);
		return;
	}
	char *e1 = protocol_game_list_encode(a, na);
	if (protocol_game_list_decode(e1, strlen(e1), &b, &nb, &err) || nb != na)
		abort();
	char *e2 = protocol_game_list_encode(b, nb);
	free(a);
	free(b);
	same(e1, e2);
}

static void rt_empty(const char *json, size_t len)
{
	struct protocol_error err;
	if (protocol_empty_request_decode(json, len, &err))
		refused(&err);
}

/* An event's data: "TYPE\0DATA". */
static void rt_fold_event(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	if (!nul)
		return;
	const char *type = text, *data = nul + 1;
	struct fold_event a, b;
	struct protocol_error err;
	if (fold_event_decode(type, data, &a, &err)) {
		refused(&err);
		return;
	}
	if (a.kind == FOLD_EV_OTHER)
		return;
	char *e1 = fold_event_encode(&a);
	if (fold_event_decode(type, e1, &b, &err) || b.kind != a.kind)
		abort();
	same(e1, fold_event_encode(&b));
}

static struct game_view scratch; /* a started 5+3 game, built once */

static void add(struct game_view *v, struct fold_event *e, int64_t t_ms)
{
	struct protocol_error err;
	if (fold_apply_event(v, v->seq + 1, t_ms, e, &err)) {
		fprintf(stderr, "scratch game: %s\n", err.message);
		abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	struct fold_event e;
	fold_view_init(&scratch);
	fold_event_init(&e, FOLD_EV_CREATED);
	strcpy(e.tc, "5+3");
	strcpy(e.ruleset, "fide");
	strcpy(e.fen, FEN_START);
	strcpy(e.opponent, "open");
	e.seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e.seats[WHITE].player = 1;
	strcpy(e.seats[WHITE].name, "alice");
	add(&scratch, &e, 1700000000000);
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = BLACK;
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = 2;
	strcpy(e.seats[BLACK].name, "bob");
	add(&scratch, &e, 1700000001000);
	fold_event_init(&e, FOLD_EV_STARTED);
	add(&scratch, &e, 1700000001000);
	return 0;
}

/* Applies every event of the batch it can; then reads the view every way
 * a server or client does. */
static void fold_batch(struct game_view *v, const struct protocol_events *evs)
{
	struct protocol_error err;
	for (size_t i = 0; i < evs->n; i++) {
		int64_t seq = v->seq;
		if (fold_apply(v, &evs->events[i], &err)) {
			refused(&err);
			if (v->seq != seq)
				abort(); /* a refused event changed the view */
		}
	}
	for (int64_t viewer = 0; viewer <= 2; viewer++) {
		/* Whatever the fold holds, its snapshot rebuilds it. */
		char *snap = fold_snapshot_encode(v, "0123456789abcdef0123456789abcdef", v->last_t_ms + 1000, viewer);
		if (v->created) {
			struct game_view r;
			fold_view_init(&r);
			if (fold_view_from_snapshot(&r, snap, strlen(snap), NULL, &err)) {
				fprintf(stderr, "own snapshot refused: %s\n%s\n", err.message, snap);
				abort();
			}
			same(fold_snapshot_encode(&r, "0123456789abcdef0123456789abcdef", v->last_t_ms + 1000, viewer),
			     fold_snapshot_encode(v, "0123456789abcdef0123456789abcdef", v->last_t_ms + 1000, viewer));
			fold_view_fini(&r);
		}
		free(snap);
	}
	struct fold_clock_reading r;
	fold_clock_read(v, v->last_t_ms + 500, &r);
	if (v->created) {
		struct pgn_buf b;
		pgn_buf_init(&b);
		fold_pgn_write(v, "0123456789abcdef0123456789abcdef", NULL, 0, &b, NULL);
		pgn_buf_fini(&b);
	}
}

static void fold_events(const char *json, size_t len)
{
	struct protocol_events evs;
	struct protocol_error err;
	if (protocol_events_decode(json, len, &evs, &err))
		return;
	struct game_view v;
	fold_view_copy(&v, &scratch);
	fold_batch(&v, &evs);
	fold_view_fini(&v);
	fold_view_init(&v);
	fold_batch(&v, &evs);
	fold_view_fini(&v);
	protocol_events_fini(&evs);
}

/* Any snapshot text: refused with a reason, or a view whose snapshot is
 * a fixed point. */
static void fold_snapshot(const char *json, size_t len)
{
	struct game_view v, r;
	struct protocol_error err;
	fold_view_init(&v);
	if (fold_view_from_snapshot(&v, json, len, NULL, &err)) {
		refused(&err);
		fold_view_fini(&v);
		return;
	}
	char *e1 = fold_snapshot_encode(&v, "0123456789abcdef0123456789abcdef", v.last_t_ms, 0);
	fold_view_init(&r);
	if (fold_view_from_snapshot(&r, e1, strlen(e1), NULL, &err)) {
		fprintf(stderr, "re-encoded snapshot refused: %s\n%s\n", err.message, e1);
		abort();
	}
	same(e1, fold_snapshot_encode(&r, "0123456789abcdef0123456789abcdef", v.last_t_ms, 0));
	fold_view_fini(&r);
	fold_view_fini(&v);
}

typedef void (*target_fn)(const char *json, size_t len);

static const target_fn targets[] = {
	rt_error,         rt_register_request, rt_player,        rt_register_response, rt_event,
	rt_events,        rt_game_summary,     rt_game_list,     rt_note_request,      rt_game_create_request,
	rt_seat_response, rt_join_request,     rt_move_request,  rt_premoves_request,  rt_empty,
	rt_health,        rt_fold_event,       fold_events,      fold_snapshot,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t n = sizeof targets / sizeof targets[0];
	/* A NUL-terminated copy: decoders take a length, the fold's event
	 * decoder a C string. */
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	targets[data[0] % n](text, size - 1);
	free(text);
	return 0;
}
