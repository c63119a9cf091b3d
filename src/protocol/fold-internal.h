/*
 * What the fold's rooms share, private to src/protocol/. The fold
 * (tchess/fold.h) is five files, one concept each:
 *   fold-event.c     the events' data on the wire: kinds, types, codec tables
 *   fold.c           the state machine: one event applied to a view
 *   fold-view.c      the view's life cycle and the questions asked of it
 *   fold-snapshot.c  the snapshot of a view, and a view rebuilt from one
 *   fold-pgn.c       a view as PGN
 * A seat, a clock reading or a series reads and writes the same way in the
 * events and the snapshot through the JSON pieces below.
 */
#ifndef TCHESS_FOLD_INTERNAL_H
#define TCHESS_FOLD_INTERNAL_H

#include "protocol-codec.h"
#include "tchess/fold.h"

/* The largest integer a JSON number carries exactly: unlimited clocks. */
#define FOLD_JSON_INT_MAX PROTOCOL_CODEC_INT_MAX

/* A string, or null for NULL. */
cJSON *fold_json_nullable_string(const char *s);
/* ms, at most FOLD_JSON_INT_MAX. */
int64_t fold_json_clamp_ms(int64_t ms);
cJSON *fold_json_clock(const struct fold_clock_reading *c);
/* A seat object, or null for an empty seat. */
cJSON *fold_json_seat(const struct fold_seat *s);
/* A game-created event's series member. */
cJSON *fold_json_series(const struct fold_series *s);

/* Member name of o as a colour ("white"/"black", or null when null_ok:
 * -1); what names the object in the error. */
int fold_json_color_member(const cJSON *o, const char *name, bool null_ok, int *out, const char *what,
			   struct protocol_error *err);
int fold_json_seat_decode(const cJSON *v, struct fold_seat *out, struct protocol_error *err);
int fold_json_series_decode(const cJSON *o, struct fold_series *out, struct protocol_error *err);

/* Records the extras of the ply just played (game.n_plies - 1): the move
 * event's seq, thinking time and premove flag. */
void fold_plies_push(struct game_view *v, int64_t seq, const struct fold_event *e);

#endif
