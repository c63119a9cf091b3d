/*
 * The game events' data on the wire (tchess/fold.h, tchess-protocol(7)
 * EVENTS): their kinds and wire types, the command keys they record, and
 * the codec tables that encode and strictly decode each type's data.
 * Each event type's data is described once, by a table of the protocol
 * codec (protocol-codec.h), which both encodes and strictly decodes it,
 * so the two cannot drift apart. The seat, clock and series pieces are
 * shared with the snapshot (fold-internal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-internal.h"
#include "protocol-codec.h"
#include "util/xalloc.h"

void fold_event_init(struct fold_event *e, enum fold_event_kind kind)
{
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->color = -1;
	e->charged_ms = -1;
	e->clock.running = CLOCK_NOBODY;
}

void fold_move_event(struct fold_event *e, const struct game_view *v, move m, int64_t think_ms, bool premove)
{
	fold_event_init(e, FOLD_EV_MOVE);
	e->color = game_side_to_move(&v->game);
	e->ply = (int64_t)v->game.n_plies;
	uci_write(&v->game.pos, m, e->uci);
	san_write(&v->game.pos, m, e->san);
	struct position p = v->game.pos;
	struct undo u;
	position_make(&p, m, &u);
	fen_write(&p, e->fen);
	e->think_ms = think_ms;
	e->premove = premove;
	e->legal = m;
}

/* NULL-terminated for the codec (PROTOCOL_CODEC_NAME). */
static const char *const what_names[FOLD_REQ_COUNT + 1] = { "draw", "abort", "adjourn", "resume", "rematch", NULL };
static const char *const action_names[] = { "made", "declined", "withdrawn", "accepted", NULL };

const char *fold_request_what_str(enum fold_request_what w)
{
	return (unsigned)w < FOLD_REQ_COUNT ? what_names[w] : "";
}

const char *fold_request_action_str(enum fold_request_action a)
{
	return (unsigned)a <= FOLD_REQ_ACCEPTED ? action_names[a] : "";
}

void fold_command_key(char *buf, size_t size, const struct fold_event *e)
{
	switch (e->kind) {
	case FOLD_EV_REQUEST:
		snprintf(buf, size, "%s-%s", fold_request_what_str(e->what), fold_request_action_str(e->action));
		break;
	case FOLD_EV_ADJOURNED:
		snprintf(buf, size, "adjourn-accepted");
		break;
	case FOLD_EV_RESUMED:
		snprintf(buf, size, "resume-accepted");
		break;
	case FOLD_EV_DISCARD:
		snprintf(buf, size, "discard");
		break;
	case FOLD_EV_TIME_ADDED:
		snprintf(buf, size, "claim-tablebase");
		break;
	case FOLD_EV_ENDED:
		snprintf(buf, size, "end-%s", e->termination);
		break;
	default:
		snprintf(buf, size, "%s", fold_event_type(e->kind));
		break;
	}
}

const char *fold_color_str(int color)
{
	return color == WHITE ? "white" : color == BLACK ? "black" : NULL;
}

bool fold_color_parse(const char *s, int *out)
{
	if (!strcmp(s, "white"))
		*out = WHITE;
	else if (!strcmp(s, "black"))
		*out = BLACK;
	else
		return false;
	return true;
}

/* ---- the event data codec ----
 *
 * Each event type's data is one table of protocol-codec.h: its encoder and
 * its strict decoder are the codec's, so they cannot drift apart. Events
 * are stored, so a table's member order is the order on the wire and in
 * the decoder's error messages; neither may change.
 */

#define REQ PROTOCOL_CODEC_REQUIRED
#define EMPTY_OK PROTOCOL_CODEC_EMPTY_OK
#define OMIT PROTOCOL_CODEC_OMIT

cJSON *fold_json_nullable_string(const char *s)
{
	cJSON *v = s ? cJSON_CreateString(s) : cJSON_CreateNull();
	if (!v)
		xalloc_die();
	return v;
}

int64_t fold_json_clamp_ms(int64_t ms)
{
	return ms > FOLD_JSON_INT_MAX ? FOLD_JSON_INT_MAX : ms;
}

static int clock_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	const struct fold_clock_reading *c = dst;
	(void)o;
	(void)what;
	if (c->ms[WHITE] < 0 || c->ms[BLACK] < 0 || c->turn_used_ms < 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "clock: negative time");
	return 0;
}

/* Times are clamped to what a JSON number carries (unlimited clocks);
 * deadline_ms is optional, as events stored before deadlines lack it. */
static const struct protocol_codec_member clock_members[] = {
	PROTOCOL_CODEC_INT_AS("white_ms", struct fold_clock_reading, ms[WHITE], REQ | PROTOCOL_CODEC_CLAMP),
	PROTOCOL_CODEC_INT_AS("black_ms", struct fold_clock_reading, ms[BLACK], REQ | PROTOCOL_CODEC_CLAMP),
	PROTOCOL_CODEC_COLOR_AS("running", struct fold_clock_reading, running, REQ, true, CLOCK_NOBODY),
	PROTOCOL_CODEC_INT(struct fold_clock_reading, turn_used_ms, REQ | PROTOCOL_CODEC_CLAMP),
	{ .name = "deadline_ms", .kind = PROTOCOL_JSON_INT_OR_NULL, .flags = PROTOCOL_CODEC_CLAMP,
	  .offset = offsetof(struct fold_clock_reading, deadline_ms), .absent = INT64_MAX },
};
static const struct protocol_codec_message clock_msg = PROTOCOL_CODEC_MESSAGE("clock", clock_members, clock_rest, NULL);

cJSON *fold_json_clock(const struct fold_clock_reading *c)
{
	return protocol_codec_object(&clock_msg, c);
}

cJSON *fold_json_seat(const struct fold_seat *s)
{
	cJSON *o;
	switch (s->kind) {
	case FOLD_SEAT_HUMAN:
		o = protocol_json_object();
		protocol_json_add_string(o, "kind", "human");
		protocol_json_add_int(o, "player", s->player);
		protocol_json_add_string(o, "name", s->name);
		return o;
	case FOLD_SEAT_ENGINE:
		o = protocol_json_object();
		protocol_json_add_string(o, "kind", "engine");
		protocol_json_add_int(o, "level", s->level);
		return o;
	default:
		o = cJSON_CreateNull();
		if (!o)
			xalloc_die();
		return o;
	}
}

int fold_json_seat_decode(const cJSON *v, struct fold_seat *out, struct protocol_error *err)
{
	static const struct protocol_json_field human[] = {
		{ "kind", PROTOCOL_JSON_STRING, true },
		{ "player", PROTOCOL_JSON_INT, true },
		{ "name", PROTOCOL_JSON_STRING, true },
	};
	static const struct protocol_json_field engine[] = {
		{ "kind", PROTOCOL_JSON_STRING, true },
		{ "level", PROTOCOL_JSON_INT, true },
	};
	const char *what = "seat";
	memset(out, 0, sizeof *out);
	if (cJSON_IsNull(v))
		return 0;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(v, "kind");
	if (!cJSON_IsString(kind))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "seat: member \"kind\" must be a string");
	if (!strcmp(kind->valuestring, "human")) {
		if (protocol_json_check(v, human, N_FIELDS(human), false, what, err) ||
		    protocol_json_copy(out->name, sizeof out->name, v, "name", false, what, err))
			return -1;
		out->kind = FOLD_SEAT_HUMAN;
		out->player = protocol_json_int(v, "player");
		if (out->player <= 0)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "seat: bad player id");
		return 0;
	}
	if (!strcmp(kind->valuestring, "engine")) {
		if (protocol_json_check(v, engine, N_FIELDS(engine), false, what, err))
			return -1;
		out->kind = FOLD_SEAT_ENGINE;
		int64_t level = protocol_json_int(v, "level");
		if (level < 1 || level > FOLD_ENGINE_LEVEL_MAX)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "seat: level out of range");
		out->level = (int)level;
		return 0;
	}
	return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "seat: unknown kind");
}

/* A series as it is on the wire: struct fold_series holds ints, and a
 * number out of their range must be refused, not cut. */
struct series_wire {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	int64_t game;
	char previous[PROTOCOL_GAME_ID_MAX + 1];
	int64_t half[2];
	int64_t scored;
};

/* Every game gives at most 2 half-points to its two players together. */
static int series_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	const struct series_wire *w = dst;
	(void)o;
	(void)what;
	if (!protocol_game_id_valid(w->id) || !protocol_game_id_valid(w->previous) || w->game < 2 ||
	    w->game > 1000000 || w->scored < 0 || w->scored >= w->game || w->half[WHITE] < 0 || w->half[BLACK] < 0 ||
	    w->half[WHITE] + w->half[BLACK] != 2 * w->scored)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "series: inconsistent members");
	return 0;
}

/* Half-points are integers. */
static const struct protocol_codec_member series_members[] = {
	PROTOCOL_CODEC_STRING(struct series_wire, id, REQ),
	PROTOCOL_CODEC_INT(struct series_wire, game, REQ),
	PROTOCOL_CODEC_STRING(struct series_wire, previous, REQ),
	PROTOCOL_CODEC_INT_AS("white_half_points", struct series_wire, half[WHITE], REQ),
	PROTOCOL_CODEC_INT_AS("black_half_points", struct series_wire, half[BLACK], REQ),
	PROTOCOL_CODEC_INT(struct series_wire, scored, REQ),
};
static const struct protocol_codec_message series_msg =
	PROTOCOL_CODEC_MESSAGE("series", series_members, series_rest, NULL);

cJSON *fold_json_series(const struct fold_series *s)
{
	struct series_wire w = { .game = s->game, .scored = s->score.scored };
	w.half[WHITE] = s->score.half[WHITE];
	w.half[BLACK] = s->score.half[BLACK];
	memcpy(w.id, s->id, sizeof w.id);
	memcpy(w.previous, s->previous, sizeof w.previous);
	return protocol_codec_object(&series_msg, &w);
}

int fold_json_series_decode(const cJSON *o, struct fold_series *out, struct protocol_error *err)
{
	struct series_wire w = { 0 };
	if (protocol_codec_read(&series_msg, o, &w, err))
		return -1;
	memcpy(out->id, w.id, sizeof out->id);
	memcpy(out->previous, w.previous, sizeof out->previous);
	out->game = (int)w.game;
	out->score.half[WHITE] = (int)w.half[WHITE];
	out->score.half[BLACK] = (int)w.half[BLACK];
	out->score.scored = (int)w.scored;
	out->score.games = (int)w.game - 1;
	return 0;
}

int fold_json_color_member(const cJSON *o, const char *name, bool null_ok, int *out, const char *what,
			   struct protocol_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (null_ok && cJSON_IsNull(v)) {
		*out = -1;
		return 0;
	}
	if (!cJSON_IsString(v) || !fold_color_parse(v->valuestring, out))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" must be \"white\" or "
					  "\"black\"%s", what, name, null_ok ? " or null" : "");
	return 0;
}

/* The nested members of the events: seats, the series, the clock. The
 * clock's hooks take the whole event, whose has_clock says whether it has
 * one. */
static cJSON *seat_write(const void *p)
{
	return fold_json_seat(p);
}

static int seat_read(const cJSON *v, void *p, struct protocol_error *err)
{
	return fold_json_seat_decode(v, p, err);
}

static cJSON *series_write(const void *p)
{
	const struct fold_series *s = p;
	return s->id[0] ? fold_json_series(s) : NULL;
}

static int series_read(const cJSON *v, void *p, struct protocol_error *err)
{
	return fold_json_series_decode(v, p, err);
}

static cJSON *event_clock_write(const void *p)
{
	const struct fold_event *e = p;
	return e->has_clock ? fold_json_clock(&e->clock) : NULL;
}

static int event_clock_read(const cJSON *v, void *p, struct protocol_error *err)
{
	struct fold_event *e = p;
	e->has_clock = true;
	return protocol_codec_read(&clock_msg, v, &e->clock, err);
}

static const struct protocol_codec_nested seat_nested = { seat_write, seat_read };
static const struct protocol_codec_nested series_nested = { series_write, series_read };
static const struct protocol_codec_nested clock_nested = { event_clock_write, event_clock_read };

/* player-joined: the player and name go to the seat of the joining colour. */
static int joined_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct fold_event *e = dst;
	struct fold_seat *s = &e->seats[e->color];
	s->kind = FOLD_SEAT_HUMAN;
	s->player = protocol_json_int(o, "player");
	if (s->player <= 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: bad player id", what);
	return protocol_json_copy(s->name, sizeof s->name, o, "name", false, what, err);
}

static void joined_encode_rest(cJSON *o, const void *src)
{
	const struct fold_event *e = src;
	protocol_json_add_int(o, "player", e->seats[e->color].player);
	protocol_json_add_string(o, "name", e->seats[e->color].name);
}

static int premoves_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct fold_event *e = dst;
	switch (protocol_codec_read_strings(cJSON_GetObjectItemCaseSensitive(o, "moves"), e->moves[0],
					    sizeof e->moves[0], PREMOVE_DEPTH_MAX, &e->n_moves)) {
	case PROTOCOL_CODEC_STRINGS_TOO_MANY:
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: too many moves", what);
	case PROTOCOL_CODEC_STRINGS_BAD:
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: moves must be UCI strings", what);
	case PROTOCOL_CODEC_STRINGS_OK:
		break;
	}
	return 0;
}

static void premoves_encode_rest(cJSON *o, const void *src)
{
	const struct fold_event *e = src;
	protocol_json_add_item(o, "moves", protocol_codec_strings(e->moves[0], sizeof e->moves[0], e->n_moves));
}

/* The names are read as ints (PROTOCOL_CODEC_NAME). */
_Static_assert(sizeof(enum fold_request_what) == sizeof(int), "request what is read as an int");
_Static_assert(sizeof(enum fold_request_action) == sizeof(int), "request action is read as an int");

/* request: an unknown what or action is refused only once both texts are
 * read, and the rematch's game after that. */
static int request_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct fold_event *e = dst;
	if ((unsigned)e->what >= FOLD_REQ_COUNT || (unsigned)e->action > FOLD_REQ_ACCEPTED)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: unknown what or action", what);
	return protocol_json_copy(e->game, sizeof e->game, o, "game", true, what, err);
}

static void request_encode_rest(cJSON *o, const void *src)
{
	const struct fold_event *e = src;
	if (e->game[0])
		protocol_json_add_string(o, "game", e->game);
}

#define EV struct fold_event
#define EV_STRING(m, flags) PROTOCOL_CODEC_STRING(EV, m, flags)
#define EV_INT(m) PROTOCOL_CODEC_INT(EV, m, REQ)
#define EV_BOOL(m, flags) PROTOCOL_CODEC_BOOL(EV, m, flags)
#define EV_COLOR PROTOCOL_CODEC_COLOR_AS("color", EV, color, REQ, false, -1)
#define EV_COLOR_OR_NULL PROTOCOL_CODEC_COLOR_AS("color", EV, color, REQ, true, -1)
#define EV_SEAT(name, side) \
	PROTOCOL_CODEC_NESTED_AT(name, PROTOCOL_JSON_OBJECT_OR_NULL, REQ, offsetof(EV, seats[side]), &seat_nested)
#define EV_CLOCK PROTOCOL_CODEC_NESTED_AT("clock", PROTOCOL_JSON_OBJECT, REQ, 0, &clock_nested)

/* undo and series are left out of ordinary games, so logs from before
 * undo games and series read as they were. */
static const struct protocol_codec_member created_members[] = {
	EV_STRING(tc, REQ),
	EV_STRING(ruleset, REQ),
	EV_STRING(fen, REQ),
	EV_STRING(opponent, REQ),
	EV_SEAT("white", WHITE),
	EV_SEAT("black", BLACK),
	EV_BOOL(undo, OMIT),
	PROTOCOL_CODEC_NESTED_AT("series", PROTOCOL_JSON_OBJECT, OMIT, offsetof(EV, series), &series_nested),
	PROTOCOL_CODEC_INT_AS("premoves", EV, premove_depth, OMIT | PROTOCOL_CODEC_NON_NEGATIVE),
	PROTOCOL_CODEC_INT_AS("first_move_ms", EV, first_move_ms, OMIT | PROTOCOL_CODEC_NON_NEGATIVE),
};
static const struct protocol_codec_member joined_members[] = {
	EV_COLOR,
	PROTOCOL_CODEC_HOOKED("player", PROTOCOL_JSON_INT, REQ),
	PROTOCOL_CODEC_HOOKED("name", PROTOCOL_JSON_STRING, REQ),
};
static const struct protocol_codec_member started_members[] = {
	EV_CLOCK,
};
static const struct protocol_codec_member move_members[] = {
	EV_INT(ply),
	EV_COLOR,
	EV_STRING(uci, REQ),
	EV_STRING(san, REQ),
	EV_STRING(fen, REQ),
	EV_INT(think_ms),
	/* Left out of events stored before it: the fold works it out. */
	{ .name = "charged_ms", .kind = PROTOCOL_JSON_INT, .flags = OMIT, .offset = offsetof(EV, charged_ms),
	  .absent = -1 },
	EV_BOOL(premove, REQ),
	EV_CLOCK,
};
static const struct protocol_codec_member premoves_members[] = {
	EV_INT(ply),
	EV_COLOR,
	PROTOCOL_CODEC_HOOKED("moves", PROTOCOL_JSON_ARRAY, REQ),
};
static const struct protocol_codec_member discarded_members[] = {
	EV_INT(ply),
	EV_COLOR,
	PROTOCOL_CODEC_STRING_AS("premove", EV, uci, REQ),
	EV_STRING(reason, REQ | EMPTY_OK),
};
/* A claim's reason and intended move are left out when there are none. */
static const struct protocol_codec_member ended_members[] = {
	EV_STRING(result, REQ),
	EV_STRING(termination, REQ),
	EV_COLOR_OR_NULL,
	EV_STRING(reason, EMPTY_OK | OMIT),
	PROTOCOL_CODEC_STRING_AS("move", EV, uci, EMPTY_OK | OMIT),
	EV_CLOCK,
};
static const struct protocol_codec_member clock_resumed_members[] = {
	EV_INT(paused_ms),
	EV_CLOCK,
};
static const struct protocol_codec_member vacation_members[] = {
	EV_COLOR,
	PROTOCOL_CODEC_INT_AS("start_ms", EV, vacation.start_ms, REQ),
	PROTOCOL_CODEC_INT_AS("end_ms", EV, vacation.end_ms, REQ),
	EV_BOOL(cancelled, REQ),
	EV_CLOCK,
};
/* game: the new game of an accepted rematch. */
static const struct protocol_codec_member request_members[] = {
	EV_COLOR,
	PROTOCOL_CODEC_NAME_AS("what", EV, what, REQ, what_names, FOLD_WORD_MAX),
	PROTOCOL_CODEC_NAME_AS("action", EV, action, REQ, action_names, FOLD_WORD_MAX),
	EV_INT(ply),
	PROTOCOL_CODEC_HOOKED("game", PROTOCOL_JSON_STRING, 0),
};
static const struct protocol_codec_member adjourned_members[] = {
	EV_COLOR_OR_NULL,
	EV_STRING(reason, REQ),
	EV_CLOCK,
};
static const struct protocol_codec_member resumed_members[] = {
	EV_COLOR,
	EV_CLOCK,
};
static const struct protocol_codec_member discard_members[] = {
	EV_COLOR,
	EV_INT(count),
};
static const struct protocol_codec_member presence_members[] = {
	EV_COLOR,
	EV_BOOL(present, REQ),
};
static const struct protocol_codec_member left_members[] = {
	EV_COLOR,
	EV_INT(gone_ms),
	{ .name = "claim_ms", .kind = PROTOCOL_JSON_INT_OR_NULL, .flags = REQ,
	  .offset = offsetof(struct fold_event, claim_ms), .absent = 0 },
};
static const struct protocol_codec_member time_added_members[] = {
	EV_COLOR,
	EV_INT(ms),
	EV_STRING(reason, REQ),
	EV_CLOCK,
};
static const struct protocol_codec_member provisional_members[] = {
	EV_INT(ply),
	EV_COLOR,
	EV_STRING(uci, REQ),
	EV_STRING(san, REQ),
	EV_STRING(fen, REQ),
};
static const struct protocol_codec_member taken_back_members[] = {
	EV_INT(ply),
	EV_COLOR,
	EV_STRING(uci, REQ),
};

/* Each message's what is its wire type, which names it in errors. */
static const struct protocol_codec_message event_msgs[] = {
	[FOLD_EV_CREATED] = PROTOCOL_CODEC_MESSAGE("game-created", created_members, NULL, NULL),
	[FOLD_EV_JOINED] = PROTOCOL_CODEC_MESSAGE("player-joined", joined_members, joined_rest, joined_encode_rest),
	[FOLD_EV_STARTED] = PROTOCOL_CODEC_MESSAGE("game-started", started_members, NULL, NULL),
	[FOLD_EV_MOVE] = PROTOCOL_CODEC_MESSAGE("move", move_members, NULL, NULL),
	[FOLD_EV_PREMOVES] =
		PROTOCOL_CODEC_MESSAGE("premoves", premoves_members, premoves_rest, premoves_encode_rest),
	[FOLD_EV_PREMOVE_DISCARDED] = PROTOCOL_CODEC_MESSAGE("premove-discarded", discarded_members, NULL, NULL),
	[FOLD_EV_ENDED] = PROTOCOL_CODEC_MESSAGE("game-ended", ended_members, NULL, NULL),
	[FOLD_EV_CLOCK_RESUMED] = PROTOCOL_CODEC_MESSAGE("clock-resumed", clock_resumed_members, NULL, NULL),
	[FOLD_EV_VACATION] = PROTOCOL_CODEC_MESSAGE("vacation", vacation_members, NULL, NULL),
	[FOLD_EV_REQUEST] = PROTOCOL_CODEC_MESSAGE("request", request_members, request_rest, request_encode_rest),
	[FOLD_EV_ADJOURNED] = PROTOCOL_CODEC_MESSAGE("game-adjourned", adjourned_members, NULL, NULL),
	[FOLD_EV_RESUMED] = PROTOCOL_CODEC_MESSAGE("game-resumed", resumed_members, NULL, NULL),
	[FOLD_EV_DISCARD] = PROTOCOL_CODEC_MESSAGE("discard-claimed", discard_members, NULL, NULL),
	[FOLD_EV_PRESENCE] = PROTOCOL_CODEC_MESSAGE("presence", presence_members, NULL, NULL),
	[FOLD_EV_TIME_ADDED] = PROTOCOL_CODEC_MESSAGE("time-added", time_added_members, NULL, NULL),
	[FOLD_EV_PROVISIONAL] = PROTOCOL_CODEC_MESSAGE("provisional-move", provisional_members, NULL, NULL),
	[FOLD_EV_TAKEN_BACK] = PROTOCOL_CODEC_MESSAGE("move-taken-back", taken_back_members, NULL, NULL),
	[FOLD_EV_LEFT] = PROTOCOL_CODEC_MESSAGE("left", left_members, NULL, NULL),
	[FOLD_EV_OTHER] = { .what = "" },
};

#undef EV
#undef EV_STRING
#undef EV_INT
#undef EV_BOOL
#undef EV_COLOR
#undef EV_COLOR_OR_NULL
#undef EV_SEAT
#undef EV_CLOCK

const char *fold_event_type(enum fold_event_kind kind)
{
	return (unsigned)kind <= FOLD_EV_OTHER ? event_msgs[kind].what : "";
}

enum fold_event_kind fold_event_kind_of(const char *type)
{
	for (int k = 0; k < FOLD_EV_OTHER; k++) {
		if (!strcmp(type, event_msgs[k].what))
			return (enum fold_event_kind)k;
	}
	return FOLD_EV_OTHER;
}

char *fold_event_encode(const struct fold_event *e)
{
	return protocol_codec_encode(&event_msgs[(unsigned)e->kind <= FOLD_EV_OTHER ? e->kind : FOLD_EV_OTHER], e);
}

int fold_event_decode(const char *type, const char *data, struct fold_event *out, struct protocol_error *err)
{
	enum fold_event_kind kind = fold_event_kind_of(type);
	fold_event_init(out, kind);
	if (kind == FOLD_EV_OTHER)
		return 0;
	return protocol_codec_decode(&event_msgs[kind], data ? data : "{}", data ? strlen(data) : 2, out, err);
}
