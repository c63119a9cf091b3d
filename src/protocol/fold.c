/*
 * The game events' data on the wire and the fold that applies them to a
 * game's state; see tchess/fold.h. Each event type's data is described
 * once, by a table of the protocol codec (protocol-codec.h), which both
 * encodes and strictly decodes it, so the two cannot drift apart.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-json.h"
#include "protocol-codec.h"
#include "tchess/movegen.h"
#include "util/xalloc.h"

void fold_event_init(struct fold_event *e, enum fold_event_kind kind)
{
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->color = -1;
	e->clock.running = CLOCK_NOBODY;
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

/* ---- the fold ---- */

void fold_view_init(struct game_view *v)
{
	memset(v, 0, sizeof *v);
	premove_queue_init(&v->premoves[WHITE]);
	premove_queue_init(&v->premoves[BLACK]);
	v->adjourn_request_by = v->resume_request_by = -1;
	v->discard_day[WHITE] = v->discard_day[BLACK] = -1;
	v->last_cmd_ply[WHITE] = v->last_cmd_ply[BLACK] = -1;
	v->rematch_by = -1;
	v->end_color = -1;
	takeback_init(&v->turn);
}

void fold_view_fini(struct game_view *v)
{
	if (v->created)
		game_fini(&v->game);
	free(v->plies);
	memset(v, 0, sizeof *v);
}

void fold_view_copy(struct game_view *dst, const struct game_view *src)
{
	*dst = *src;
	dst->plies = NULL;
	dst->plies_cap = 0;
	if (src->created && game_copy(&dst->game, &src->game, NULL) != TCHESS_OK)
		xalloc_die(); /* game_copy fails only when memory runs out */
	if (src->game.n_plies) {
		dst->plies_cap = src->game.n_plies;
		dst->plies = xmalloc(dst->plies_cap * sizeof *dst->plies);
		memcpy(dst->plies, src->plies, src->game.n_plies * sizeof *dst->plies);
	}
}

/* An event that contradicts the state: bad_request with the message. */
__attribute__((format(printf, 2, 3))) static int bad(struct protocol_error *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->code = PROTOCOL_ERR_BAD_REQUEST;
		err->seq = 0;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return -1;
}

bool fold_running(const struct game_view *v)
{
	return v->created && v->started && !game_is_over(&v->game);
}

bool fold_adjourned(const struct game_view *v)
{
	return v->created && v->game.status == GAME_ADJOURNED;
}

int64_t fold_first_move_deadline(const struct game_view *v, int64_t limit_ms, int *side)
{
	*side = game_side_to_move(&v->game);
	if (!fold_running(v) || fold_adjourned(v) || limit_ms <= 0 || v->clock.tc.kind == TC_CORRESPONDENCE ||
	    !strcmp(v->opponent, "tournament"))
		return INT64_MAX;
	bool moved = v->game.n_plies >= 2 || (v->game.n_plies == 1 && v->game.start.side == *side);
	if (moved)
		return INT64_MAX;
	int64_t from = v->game.n_plies ? v->game.plies[0].at_ms : v->started_ms;
	return from + limit_ms;
}

const char *fold_status(const struct game_view *v)
{
	if (v->created && game_is_over(&v->game))
		return "over";
	if (fold_adjourned(v))
		return "adjourned";
	if (!v->created || v->seats[WHITE].kind == FOLD_SEAT_EMPTY || v->seats[BLACK].kind == FOLD_SEAT_EMPTY)
		return "open";
	return "playing";
}

enum fold_may fold_may_move(const struct game_view *v, int color, const char **why)
{
	static const char *const text[] = {
		[FOLD_MAY_MOVE] = "it is that side's move",
		[FOLD_MAY_OVER] = "the game is over",
		[FOLD_MAY_NOT_STARTED] = "the game has not started",
		[FOLD_MAY_ADJOURNED] = "the game is adjourned",
		[FOLD_MAY_NOT_TURN] = "it is not that side's move",
	};
	enum fold_may may = FOLD_MAY_MOVE;
	if (v->created && game_is_over(&v->game))
		may = FOLD_MAY_OVER;
	else if (!v->created || !v->started)
		may = FOLD_MAY_NOT_STARTED;
	else if (fold_adjourned(v))
		may = FOLD_MAY_ADJOURNED;
	else if (color != (int)game_side_to_move(&v->game))
		may = FOLD_MAY_NOT_TURN;
	if (why)
		*why = text[may];
	return may;
}

int fold_seat_of(const struct game_view *v, int64_t player)
{
	for (int c = WHITE; c <= BLACK; c++) {
		if (player && v->seats[c].kind == FOLD_SEAT_HUMAN && v->seats[c].player == player)
			return c;
	}
	return -1;
}

void fold_clock_read(const struct game_view *v, int64_t now_ms, struct fold_clock_reading *out)
{
	if (now_ms < v->last_t_ms)
		now_ms = v->last_t_ms;
	const struct clock *c = &v->clock;
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	out->ms[WHITE] = clock_remaining(c, WHITE, now_ms, &vac);
	out->ms[BLACK] = clock_remaining(c, BLACK, now_ms, &vac);
	out->running = c->running;
	/* Wall time, vacations included: what the turn has lasted so far. */
	out->turn_used_ms = c->turn_used_ms;
	if (c->running != CLOCK_NOBODY && !c->paused && now_ms > c->since_ms)
		out->turn_used_ms += now_ms - c->since_ms;
	out->deadline_ms = clock_expiry(c, &vac);
}

void fold_clock_vacations(const struct game_view *v, struct clock_vacations *out)
{
	for (int side = WHITE; side <= BLACK; side++) {
		out->list[side] = v->vacations[side];
		out->count[side] = v->n_vacations[side];
	}
}

int64_t fold_clock_expiry(const struct game_view *v)
{
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	return clock_expiry(&v->clock, &vac);
}

/* A vacation booked (added to the side's list) or cancelled (removed; only
 * one that has not started by t_ms, as tchess/vacation.h allows). */
static int apply_vacation(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	const struct vacation *nv = &e->vacation;
	if (e->color < 0 || nv->start_ms >= nv->end_ms || nv->start_ms < 0)
		return bad(err, "%s: bad interval", "vacation");
	struct vacation *list = v->vacations[e->color];
	size_t *n = &v->n_vacations[e->color];
	if (e->cancelled) {
		for (size_t k = 0; k < *n; k++) {
			if (list[k].start_ms != nv->start_ms || list[k].end_ms != nv->end_ms)
				continue;
			if (nv->start_ms <= t_ms)
				return bad(err, "%s: a vacation that has started cannot be cancelled", "vacation");
			list[k] = list[--*n];
			return 0;
		}
		return bad(err, "%s: no such vacation to cancel", "vacation");
	}
	if (*n == FOLD_VACATIONS_MAX) {
		/* Drop what ended before the running turn (or now) began. */
		int64_t keep_from = v->clock.running != CLOCK_NOBODY && v->clock.since_ms < t_ms ? v->clock.since_ms : t_ms;
		for (size_t k = 0; k < *n;) {
			if (list[k].end_ms <= keep_from)
				list[k] = list[--*n];
			else
				k++;
		}
		if (*n == FOLD_VACATIONS_MAX)
			return bad(err, "%s: too many vacations", "vacation");
	}
	list[(*n)++] = *nv;
	return 0;
}

static void queues_clear(struct game_view *v)
{
	premove_queue_clear(&v->premoves[WHITE]);
	premove_queue_clear(&v->premoves[BLACK]);
}

static int apply_created(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct ruleset rules;
	struct position start;
	struct tchess_error terr;
	if (v->created)
		return bad(err, "%s: the game exists already", "game-created");
	if (!ruleset_preset(&rules, e->ruleset))
		return bad(err, "game-created: unknown ruleset \"%s\"", e->ruleset);
	/* The game's own options over the preset's (absent in older logs). */
	if (e->premove_depth < 0 || e->premove_depth > PREMOVE_DEPTH_MAX)
		return bad(err, "game-created: premoves must be from 1 to %d", PREMOVE_DEPTH_MAX);
	if (e->premove_depth)
		rules.premove_depth = (int)e->premove_depth;
	if (e->first_move_ms < 0 || e->first_move_ms > FOLD_FIRST_MOVE_MS_MAX)
		return bad(err, "game-created: first_move_ms out of range");
	if (e->first_move_ms)
		rules.first_move_timeout_ms = e->first_move_ms;
	if (time_control_parse(&v->clock.tc, e->tc, &terr) != TCHESS_OK)
		return bad(err, "game-created: bad time control: %s", terr.message);
	if (fen_parse(&start, e->fen, &terr) != TCHESS_OK)
		return bad(err, "game-created: bad fen: %s", terr.message);
	if (strcmp(e->opponent, "open") && strcmp(e->opponent, "invite") && strcmp(e->opponent, "engine") &&
	    strcmp(e->opponent, "tournament"))
		return bad(err, "game-created: unknown opponent \"%s\"", e->opponent);
	if (game_init(&v->game, &start, &rules, &terr) != TCHESS_OK) {
		game_fini(&v->game);
		return bad(err, "game-created: %s", terr.message);
	}
	struct time_control tc = v->clock.tc;
	clock_init(&v->clock, &tc);
	snprintf(v->tc, sizeof v->tc, "%s", e->tc);
	snprintf(v->opponent, sizeof v->opponent, "%s", e->opponent);
	v->seats[WHITE] = e->seats[WHITE];
	v->seats[BLACK] = e->seats[BLACK];
	v->undo = e->undo;
	v->series = e->series;
	v->created = true;
	v->created_ms = t_ms;
	return 0;
}

void fold_plies_push(struct game_view *v, int64_t seq, const struct fold_event *e)
{
	if (v->game.n_plies > v->plies_cap) {
		v->plies_cap = v->plies_cap ? 2 * v->plies_cap : 64;
		if (v->plies_cap < v->game.n_plies)
			v->plies_cap = v->game.n_plies;
		v->plies = xrealloc(v->plies, v->plies_cap * sizeof *v->plies);
	}
	struct fold_ply *p = &v->plies[v->game.n_plies - 1];
	p->seq = seq;
	p->think_ms = e->think_ms;
	p->premove = e->premove;
}

static int apply_move(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		      struct protocol_error *err)
{
	struct tchess_error terr;
	const char *why;
	if (fold_may_move(v, e->color, &why) != FOLD_MAY_MOVE)
		return bad(err, "move: %s", why);
	if (e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: wrong ply", "move");
	/* The bound a snapshot's move is read with (fold-snapshot.c): what
	 * the fold accepts, its own snapshot must rebuild. */
	if (e->think_ms < 0)
		return bad(err, "%s: think_ms %lld is negative", "move", (long long)e->think_ms);
	move m;
	if (uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
		return bad(err, "move: %s", terr.message);
	char san[SAN_MAX];
	san_write(&v->game.pos, m, san);
	if (strcmp(san, e->san))
		return bad(err, "move: SAN %s does not match the move", e->san);
	/* Undo games: a human's move is the provisional move committed by
	 * "done"; premoves and engine seats commit at once. */
	bool done = v->undo && takeback_pending(&v->turn);
	if (done && (e->premove || v->turn.pending != m))
		return bad(err, "%s: not the provisional move", "move");
	if (v->undo && !done && !e->premove && v->seats[e->color].kind == FOLD_SEAT_HUMAN)
		return bad(err, "%s: an undo game's move is made provisionally and committed with done", "move");
	/* Press on a copy: a move the game refuses must leave the clock as it was. */
	struct clock c = v->clock;
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	bool flagged = false;
	if (clock_press(&c, (enum color)e->color, t_ms, &vac, &flagged) || flagged)
		return bad(err, "%s: the mover's time had run out", "move");
	enum tchess_err rc = done ? takeback_done(&v->turn, &v->game, (enum color)e->color, t_ms,
						  c.remaining_ms[e->color], &terr)
				  : game_play(&v->game, (enum color)e->color, m, t_ms, c.remaining_ms[e->color], &terr);
	if (rc != TCHESS_OK)
		return bad(err, "move: %s", terr.message);
	v->clock = c;
	fold_plies_push(v, seq, e);
	struct premove_queue *q = &v->premoves[e->color];
	if (e->premove && q->n > 0) {
		memmove(&q->items[0], &q->items[1], (size_t)(q->n - 1) * sizeof q->items[0]);
		q->n--;
	}
	if (game_is_over(&v->game)) {
		clock_stop(&v->clock, t_ms, &vac);
		queues_clear(v);
	}
	takeback_clear(&v->turn);
	return 0;
}

/* Undo games: the mover's provisional move (its SAN checked like a
 * move's), and its take-back. The clock runs on: neither presses it. */
static int apply_provisional(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v) || !v->undo)
		return bad(err, "%s: not a running undo game", fold_event_type(e->kind));
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", fold_event_type(e->kind));
	if (e->kind == FOLD_EV_TAKEN_BACK) {
		char uci[UCI_MAX] = "";
		if (takeback_pending(&v->turn))
			uci_write(&v->game.pos, v->turn.pending, uci);
		if (strcmp(uci, e->uci))
			return bad(err, "%s: %s is not the provisional move", "move-taken-back", e->uci);
		if (takeback_take_back(&v->turn, &v->game, (enum color)e->color, &terr) != TCHESS_OK)
			return bad(err, "%s", terr.message);
		return 0;
	}
	if (clock_expiry(&v->clock, NULL) <= t_ms)
		return bad(err, "%s: the mover's time had run out", "provisional-move");
	move m;
	if (uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
		return bad(err, "provisional-move: %s", terr.message);
	char san[SAN_MAX];
	san_write(&v->game.pos, m, san);
	if (strcmp(san, e->san))
		return bad(err, "provisional-move: SAN %s does not match the move", e->san);
	if (takeback_move(&v->turn, &v->game, (enum color)e->color, m, t_ms, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	return 0;
}

/* Rematch offers, once the game is over: made, declined, withdrawn, or
 * accepted with the new game's id. Only between two human seats, and not
 * after an abort (the aborted game is erased). */
static int apply_rematch(struct game_view *v, const struct fold_event *e, struct protocol_error *err)
{
	if (!game_is_over(&v->game) || v->game.termination == GAME_TERM_ABORTED)
		return bad(err, "%s: a rematch follows a finished game", "request");
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", "request");
	if (v->seats[WHITE].kind != FOLD_SEAT_HUMAN || v->seats[BLACK].kind != FOLD_SEAT_HUMAN)
		return bad(err, "a rematch is between two human players");
	int who = e->color;
	if (v->next_game[0])
		return bad(err, "the rematch was accepted already (game %s)", v->next_game);
	switch (e->action) {
	case FOLD_REQ_MADE:
		if (v->rematch_by == who)
			return bad(err, "your rematch offer already stands");
		if (v->rematch_by == !who)
			return bad(err, "%s's rematch offer stands: accept or decline it", fold_color_str(!who));
		if (v->absent[!who])
			return bad(err, "your opponent has left");
		v->rematch_by = who;
		break;
	case FOLD_REQ_DECLINED:
	case FOLD_REQ_ACCEPTED:
		if (v->rematch_by != !who)
			return bad(err, "there is no rematch offer to answer");
		if (e->action == FOLD_REQ_ACCEPTED) {
			if (!protocol_game_id_valid(e->game))
				return bad(err, "%s: the accepted rematch names no game", "request");
			snprintf(v->next_game, sizeof v->next_game, "%s", e->game);
		}
		v->rematch_by = -1;
		break;
	case FOLD_REQ_WITHDRAWN:
		if (v->rematch_by != who)
			return bad(err, "there is no rematch offer of yours to withdraw");
		v->rematch_by = -1;
		break;
	}
	return 0;
}

static int apply_premoves(struct game_view *v, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v))
		return bad(err, "%s: the game is not running", "premoves");
	if (e->ply != (int64_t)v->game.n_plies || e->color == (int)game_side_to_move(&v->game))
		return bad(err, "%s: not the opponent's move at that ply", "premoves");
	struct premove_queue q;
	premove_queue_init(&q);
	for (int i = 0; i < e->n_moves; i++) {
		struct premove pm;
		if (premove_parse_uci(e->moves[i], strlen(e->moves[i]), &pm, &terr) != TCHESS_OK ||
		    premove_queue_push(&q, &v->game.pos, (enum color)e->color, pm, &v->game.rules, &terr) !=
			    TCHESS_OK)
			return bad(err, "premoves: %s", terr.message);
	}
	v->premoves[e->color] = q;
	return 0;
}

/* Technical failures by reason: 1 the seat named by color forfeits, 0
 * unscored, -1 unknown. */
static int technical_reason(const char *reason)
{
	static const char *const unscored[] = { "disconnect", "max-duration" };
	/* An engine seat that could not move: unscored, the text says why. */
	if (!strncmp(reason, "engine failed", 13))
		return 0;
	static const char *const forfeit[] = { "abandoned", "invalid-commands", "discards" };
	for (size_t i = 0; i < N_FIELDS(unscored); i++) {
		if (!strcmp(reason, unscored[i]))
			return 0;
	}
	for (size_t i = 0; i < N_FIELDS(forfeit); i++) {
		if (!strcmp(reason, forfeit[i]))
			return 1;
	}
	return -1;
}

/* Draw offers (game.h), abort requests (game.h), and adjourn and resume
 * requests (here: game.h has the adjourned state, not its consent). */
static int apply_request(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	enum tchess_err rc = TCHESS_OK;
	if (e->what == FOLD_REQ_REMATCH)
		return apply_rematch(v, e, err);
	if (e->action == FOLD_REQ_ACCEPTED || e->game[0])
		return bad(err, "%s: only a rematch is accepted by this event", "request");
	if (!fold_running(v))
		return bad(err, "%s: the game is not running", "request");
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", "request");
	enum color who = (enum color)e->color;
	switch (e->what) {
	case FOLD_REQ_DRAW:
		if (e->action == FOLD_REQ_MADE)
			rc = game_offer_draw(&v->game, who, &terr);
		else if (e->action == FOLD_REQ_DECLINED)
			rc = game_decline_draw(&v->game, who, &terr);
		else
			rc = game_withdraw_draw(&v->game, who, &terr);
		break;
	case FOLD_REQ_ABORT:
		if (e->action == FOLD_REQ_MADE) {
			if (v->game.n_plies < (size_t)v->game.rules.abort_alone_max_plies)
				return bad(err, "%s: an abort needs no consent yet", "request");
			rc = game_request_abort(&v->game, who, &terr);
		} else if (e->action == FOLD_REQ_DECLINED) {
			rc = game_decline_abort(&v->game, who, &terr);
		} else {
			return bad(err, "an abort request cannot be withdrawn");
		}
		break;
	case FOLD_REQ_ADJOURN:
	case FOLD_REQ_RESUME: {
		bool resume = e->what == FOLD_REQ_RESUME;
		int *slot = resume ? &v->resume_request_by : &v->adjourn_request_by;
		if (!resume && fold_adjourned(v))
			return bad(err, "the game is adjourned already");
		if (resume && !fold_adjourned(v))
			return bad(err, "the game is not adjourned");
		if (e->action == FOLD_REQ_MADE) {
			if (*slot == (int)who)
				return bad(err, "your %s request already stands", fold_request_what_str(e->what));
			if (*slot == (int)!who)
				return bad(err, "%s's %s request stands: accept or decline it", fold_color_str(!who),
					   fold_request_what_str(e->what));
			*slot = who;
			if (resume)
				v->resume_since_ms = t_ms;
		} else if (e->action == FOLD_REQ_DECLINED) {
			if (*slot != (int)!who)
				return bad(err, "there is no %s request to answer", fold_request_what_str(e->what));
			*slot = -1;
			/* Yourpot: the partner discards resuming; the requester
			 * may claim it (apply_discard). */
			if (resume)
				v->resume_declined[!who] = true;
		} else {
			return bad(err, "a %s request cannot be withdrawn", fold_request_what_str(e->what));
		}
		break;
	}
	default:
		return bad(err, "%s: unknown request", "request");
	}
	if (rc != TCHESS_OK)
		return bad(err, "%s", terr.message);
	return 0;
}

static int apply_adjourned(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v) || fold_adjourned(v))
		return bad(err, "%s: the game is not running or adjourned already", "game-adjourned");
	if (e->color >= 0 && v->adjourn_request_by != !e->color)
		return bad(err, "there is no adjourn request to accept");
	if (e->color < 0 && !v->absent[WHITE] && !v->absent[BLACK])
		return bad(err, "%s: nobody is gone", "game-adjourned");
	if (game_adjourn(&v->game, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	clock_pause(&v->clock, t_ms, &vac);
	v->adjourn_request_by = v->resume_request_by = -1;
	v->resume_declined[WHITE] = v->resume_declined[BLACK] = false;
	return 0;
}

static int apply_resumed(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_adjourned(v))
		return bad(err, "the game is not adjourned");
	if (e->color < 0 || v->resume_request_by != !e->color)
		return bad(err, "there is no resume request to accept");
	if (v->absent[WHITE] || v->absent[BLACK])
		return bad(err, "both players must be present to resume");
	if (game_resume(&v->game, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	clock_resume(&v->clock, t_ms);
	v->resume_request_by = -1;
	v->resume_declined[WHITE] = v->resume_declined[BLACK] = false;
	return 0;
}

/* Yourpot: "If one of the partners discards to proceed the game, the
 * player can claim the partner discard, but there can be no more than one
 * discard per day." A discard is the partner's refusal, nothing else: they
 * declined the claimant's resume request, or left it unanswered for the
 * ruleset's resume_answer_ms while online (counted from the request, or
 * from their return after it). A partner who is gone has not refused: the
 * rule resumes "when both are online". Days are UTC days (t_ms / 1 day).
 * A claim uses up the refusal it names: a decline once, a silence from the
 * claim on. */
static int apply_discard(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	if (!fold_adjourned(v))
		return bad(err, "the game is not adjourned");
	if (e->color < 0)
		return bad(err, "%s: no color", "discard-claimed");
	int c = e->color;
	bool declined = v->resume_declined[c];
	if (!declined) {
		if (v->resume_request_by != c)
			return bad(err, "a discard is claimed after %s declined your resume request, or left it "
					"unanswered while online: make one first",
				   fold_color_str(!c));
		if (v->absent[!c])
			return bad(err, "%s is not online: a partner who is gone has not discarded resuming",
				   fold_color_str(!c));
		int64_t due = v->resume_since_ms + v->game.rules.resume_answer_ms;
		if (t_ms < due)
			return bad(err, "%s has not refused: your resume request stands unanswered for %lld s more "
					"(a discard is a decline, or %lld s without an answer while online)",
				   fold_color_str(!c), (long long)((due - t_ms + 999) / 1000),
				   (long long)(v->game.rules.resume_answer_ms / 1000));
	}
	int64_t day = t_ms / 86400000;
	if (day != v->discard_day[c]) {
		v->discard_day[c] = day;
		v->discard_day_claims[c] = 0;
	}
	if (v->discard_day_claims[c] >= v->game.rules.discard_claims_per_day)
		return bad(err, "at most %d discard claim(s) a day (UTC)", v->game.rules.discard_claims_per_day);
	v->discard_day_claims[c]++;
	v->discards[!c]++;
	if (e->count && e->count != v->discards[!c])
		return bad(err, "%s: count %lld, the fold has %d", "discard-claimed", (long long)e->count, v->discards[!c]);
	if (declined)
		v->resume_declined[c] = false;
	else
		v->resume_since_ms = t_ms;
	return 0;
}

static int apply_ended(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	enum game_termination term;
	if (!v->created)
		return bad(err, "%s: no game", "game-ended");
	if (!game_termination_parse(e->termination, &term))
		return bad(err, "game-ended: unknown termination \"%s\"", e->termination);
	if (!game_is_over(&v->game)) {
		enum tchess_err rc;
		struct clock c = v->clock;
		struct clock_vacations vac;
		fold_clock_vacations(v, &vac);
		switch (term) {
		case GAME_TERM_RESIGNATION:
			if (e->color < 0)
				return bad(err, "%s: who resigned?", "game-ended");
			rc = game_resign(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_TIMEOUT:
		case GAME_TERM_TIMEOUT_VS_INSUFFICIENT:
			if (e->color < 0 || c.running != e->color || clock_check_flag(&c, t_ms, &vac) != e->color)
				return bad(err, "%s: no flag has fallen", "game-ended");
			rc = game_flag(&v->game, (enum color)e->color, &terr);
			break;
		case GAME_TERM_AGREEMENT:
			if (e->color < 0)
				return bad(err, "%s: who accepted?", "game-ended");
			rc = game_accept_draw(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_THREEFOLD:
		case GAME_TERM_FIFTY_MOVES: {
			move m = MOVE_NONE;
			if (e->color < 0)
				return bad(err, "%s: who claimed?", "game-ended");
			if (e->uci[0] && uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
				return bad(err, "%s", terr.message);
			rc = game_claim(&v->game, (enum color)e->color,
					term == GAME_TERM_THREEFOLD ? GAME_CLAIM_THREEFOLD : GAME_CLAIM_FIFTY_MOVES, m, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		case GAME_TERM_ABORTED:
			if (e->color < 0)
				return bad(err, "%s: who aborted?", "game-ended");
			if (!strcmp(e->reason, "first-move-timeout"))
				rc = game_abort_first_move(&v->game, (enum color)e->color, &terr);
			else if (v->game.abort_request_by == !e->color)
				rc = game_accept_abort(&v->game, (enum color)e->color, &terr);
			else
				rc = game_abort(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_TABLEBASE: {
			/* The fold cannot probe tables: it takes the server's verdict,
			 * within what the rules allow. */
			enum game_result r;
			if (!game_result_parse(e->result, &r))
				return bad(err, "%s: a tablebase verdict needs its result", "game-ended");
			rc = game_adjudicate_tablebase(&v->game, r, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		case GAME_TERM_TECHNICAL_FAILURE: {
			int forfeit = technical_reason(e->reason);
			if (forfeit < 0)
				return bad(err, "game-ended: unknown technical failure \"%s\"", e->reason);
			if (forfeit && e->color < 0)
				return bad(err, "%s: who forfeits?", "game-ended");
			if (!strcmp(e->reason, "abandoned") && !v->absent[e->color])
				return bad(err, "game-ended: %s is present", fold_color_str(e->color));
			if (!strcmp(e->reason, "discards") && v->discards[e->color] < v->game.rules.discards_to_lose)
				return bad(err, "game-ended: %s has %d discards", fold_color_str(e->color),
					   v->discards[e->color]);
			rc = game_technical_failure(&v->game, forfeit, (enum color)(forfeit ? e->color : 0), &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		default:
			return bad(err, "game-ended: %s cannot end the game by itself", e->termination);
		}
		if (rc != TCHESS_OK)
			return bad(err, "%s", terr.message);
		v->clock = c;
		queues_clear(v);
		takeback_clear(&v->turn);
		v->adjourn_request_by = v->resume_request_by = -1;
		snprintf(v->end_reason, sizeof v->end_reason, "%s", e->reason);
	}
	v->end_color = e->color;
	/* The server fills result and termination from the fold itself; on the
	 * wire they are always there and must agree. */
	if (e->result[0] && (strcmp(game_result_str(v->game.result), e->result) ||
			     strcmp(game_termination_str(v->game.termination), e->termination)))
		return bad(err, "game-ended: the result is %s", game_result_str(v->game.result));
	return 0;
}

static int apply_event(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		       struct protocol_error *err, bool scratch)
{
	if (seq <= v->seq)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "event %lld: seq not after %lld",
					  (long long)seq, (long long)v->seq);
	if (e->kind != FOLD_EV_CREATED && e->kind != FOLD_EV_OTHER && !v->created)
		return bad(err, "%s: the game has not been created", fold_event_type(e->kind));
	/* The clock never runs backwards, even if the server's wall clock did. */
	if (t_ms < v->last_t_ms)
		t_ms = v->last_t_ms;
	/* Work on a copy so a refused event changes nothing; on a scratch
	 * view, on the view itself (w takes over its buffers; v's scalars
	 * stay as they were until the end, for the reads of v below). */
	struct game_view w;
	if (scratch)
		w = *v;
	else
		fold_view_copy(&w, v);
	int rc = 0;
	switch (e->kind) {
	case FOLD_EV_CREATED:
		rc = apply_created(&w, t_ms, e, err);
		break;
	case FOLD_EV_JOINED:
		if (e->color < 0 || w.seats[e->color].kind != FOLD_SEAT_EMPTY)
			rc = bad(err, "%s: that seat is taken", "player-joined");
		else
			w.seats[e->color] = e->seats[e->color];
		break;
	case FOLD_EV_STARTED:
		if (w.started || w.seats[WHITE].kind == FOLD_SEAT_EMPTY || w.seats[BLACK].kind == FOLD_SEAT_EMPTY) {
			rc = bad(err, "%s: seats are not filled or the game started already", "game-started");
		} else if (!game_is_over(&w.game) && clock_start(&w.clock, game_side_to_move(&w.game), t_ms)) {
			rc = bad(err, "%s: the clock cannot start", "game-started");
		} else {
			w.started = true;
			w.started_ms = t_ms;
		}
		break;
	case FOLD_EV_MOVE:
		rc = apply_move(&w, seq, t_ms, e, err);
		break;
	case FOLD_EV_PREMOVES:
		rc = apply_premoves(&w, e, err);
		break;
	case FOLD_EV_PREMOVE_DISCARDED:
		if (e->color < 0)
			rc = bad(err, "%s: no color", "premove-discarded");
		else
			premove_queue_clear(&w.premoves[e->color]);
		break;
	case FOLD_EV_ENDED:
		rc = apply_ended(&w, t_ms, e, err);
		break;
	case FOLD_EV_CLOCK_RESUMED:
		if (fold_adjourned(&w)) {
			rc = bad(err, "%s: the game is adjourned", "clock-resumed");
		} else if (e->paused_ms > t_ms || e->paused_ms < v->last_t_ms) {
			rc = bad(err, "%s: paused_ms out of order", "clock-resumed");
		} else {
			struct clock_vacations vac;
			fold_clock_vacations(&w, &vac);
			clock_pause(&w.clock, e->paused_ms, &vac);
			clock_resume(&w.clock, t_ms);
		}
		break;
	case FOLD_EV_VACATION:
		rc = apply_vacation(&w, t_ms, e, err);
		break;
	case FOLD_EV_REQUEST:
		rc = apply_request(&w, t_ms, e, err);
		break;
	case FOLD_EV_ADJOURNED:
		rc = apply_adjourned(&w, t_ms, e, err);
		break;
	case FOLD_EV_RESUMED:
		rc = apply_resumed(&w, t_ms, e, err);
		break;
	case FOLD_EV_DISCARD:
		rc = apply_discard(&w, t_ms, e, err);
		break;
	case FOLD_EV_PRESENCE:
		if (e->color < 0)
			rc = bad(err, "%s: no color", "presence");
		else
			w.absent[e->color] = !e->present;
		/* The partner's silence on a resume request counts while they
		 * are online: from their return. */
		if (!rc && e->present && w.resume_request_by == !e->color)
			w.resume_since_ms = t_ms;
		/* A rematch offer lapses when either player leaves. */
		if (!rc && !e->present)
			w.rematch_by = -1;
		break;
	case FOLD_EV_PROVISIONAL:
	case FOLD_EV_TAKEN_BACK:
		rc = apply_provisional(&w, t_ms, e, err);
		break;
	case FOLD_EV_TIME_ADDED:
		if (!fold_running(&w) || e->color < 0 || e->ms < 0 ||
		    clock_add_time(&w.clock, (enum color)e->color, e->ms))
			rc = bad(err, "%s: no time can be added", "time-added");
		break;
	case FOLD_EV_OTHER:
		break;
	}
	if (!rc) {
		/* The acting seat's last command (for retries); time-added is
		 * the other side's claim. */
		int actor = e->kind == FOLD_EV_TIME_ADDED && e->color >= 0 ? !e->color : e->color;
		bool command = e->kind == FOLD_EV_REQUEST || e->kind == FOLD_EV_ADJOURNED ||
			       e->kind == FOLD_EV_RESUMED || e->kind == FOLD_EV_DISCARD ||
			       e->kind == FOLD_EV_TIME_ADDED || e->kind == FOLD_EV_ENDED || e->kind == FOLD_EV_MOVE ||
			       e->kind == FOLD_EV_PROVISIONAL || e->kind == FOLD_EV_TAKEN_BACK;
		if (command && actor >= 0 && w.created) {
			fold_command_key(w.last_cmd[actor], sizeof w.last_cmd[actor], e);
			w.last_cmd_ply[actor] = (int64_t)v->game.n_plies;
		}
	}
	if (rc) {
		if (scratch)
			*v = w;
		else
			fold_view_fini(&w);
		return -1;
	}
	w.seq = seq;
	w.last_t_ms = t_ms;
	if (!scratch)
		fold_view_fini(v);
	*v = w;
	return 0;
}

int fold_apply_event(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		     struct protocol_error *err)
{
	return apply_event(v, seq, t_ms, e, err, false);
}

int fold_apply_event_scratch(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
			     struct protocol_error *err)
{
	return apply_event(v, seq, t_ms, e, err, true);
}

int fold_apply(struct game_view *v, const struct protocol_event *ev, struct protocol_error *err)
{
	struct fold_event e;
	if (fold_event_decode(ev->type, ev->data, &e, err))
		return -1;
	return fold_apply_event(v, ev->seq, ev->t_ms, &e, err);
}

/* ---- snapshot and PGN ---- */

/* The series after this game, whether or not it is in one yet. */
static void series_after(const struct game_view *v, const char *id, struct fold_series *out)
{
	*out = v->series;
	if (!out->id[0]) {
		/* The first game: its rematch made the series, named after it. */
		snprintf(out->id, sizeof out->id, "%s", id);
		out->game = 1;
		series_score_init(&out->score);
	}
	if (game_is_over(&v->game))
		series_score_add(&out->score, v->game.result);
}

bool fold_series_after(const struct game_view *v, const char *id, struct fold_series *out)
{
	memset(out, 0, sizeof *out);
	if (!v->created || (!v->series.id[0] && !v->next_game[0]))
		return false;
	series_after(v, id, out);
	return true;
}

void fold_series_next(const struct game_view *v, const char *id, struct fold_series *out)
{
	struct fold_series now;
	series_after(v, id, &now);
	memset(out, 0, sizeof *out);
	snprintf(out->id, sizeof out->id, "%s", now.id);
	out->game = now.game + 1;
	snprintf(out->previous, sizeof out->previous, "%s", id);
	series_score_next(&now.score, &out->score);
}

void fold_board(const struct game_view *v, struct position *out)
{
	takeback_position(&v->turn, &v->game, out);
}

static const char *seat_name(const struct fold_seat *s, char *buf, size_t size)
{
	switch (s->kind) {
	case FOLD_SEAT_HUMAN:
		return s->name;
	case FOLD_SEAT_ENGINE:
		snprintf(buf, size, "engine level %d", s->level);
		return buf;
	default:
		return "?";
	}
}

enum tchess_err fold_pgn_write(const struct game_view *v, const char *id, const struct fold_note *notes,
			       size_t n_notes, struct pgn_buf *out, struct tchess_error *err)
{
	struct pgn_game g;
	char buf[64];
	enum tchess_err rc = TCHESS_OK;
	pgn_game_init(&g);
	g.start = v->game.start;
	snprintf(g.result, sizeof g.result, "%s", game_result_str(v->game.result));
	rc = pgn_game_set_tag(&g, "Event", "tchess game");
	if (!rc)
		rc = pgn_game_set_tag(&g, "Site", "tchessd");
	if (!rc && v->created_ms > 0) {
		/* Days since the epoch to a civil date (proleptic Gregorian),
		 * without gmtime's locale and time-zone state. */
		int64_t z = v->created_ms / 86400000 + 719468;
		int64_t era = z / 146097, doe = z - era * 146097;
		int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
		int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
		int64_t y = yoe + era * 400 + (m <= 2);
		snprintf(buf, sizeof buf, "%04lld.%02lld.%02lld", (long long)y, (long long)m, (long long)d);
		rc = pgn_game_set_tag(&g, "Date", buf);
	}
	/* A series game's Round is its number in the series. */
	struct fold_series series;
	if (!rc && fold_series_after(v, id, &series)) {
		snprintf(buf, sizeof buf, "%d", series.game);
		rc = pgn_game_set_tag(&g, "Round", buf);
	} else if (!rc) {
		rc = pgn_game_set_tag(&g, "Round", "-");
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, "White", seat_name(&v->seats[WHITE], buf, sizeof buf));
	if (!rc)
		rc = pgn_game_set_tag(&g, "Black", seat_name(&v->seats[BLACK], buf, sizeof buf));
	if (!rc)
		rc = pgn_game_set_tag(&g, "Result", g.result);
	/* The standard's seconds form for other tools, tchess's own text
	 * beside it (the standard cannot say Bronstein or correspondence). */
	struct time_control tc;
	char tc_text[TIME_CONTROL_TEXT_MAX];
	if (!rc && time_control_parse(&tc, v->tc, NULL) == TCHESS_OK) {
		pgn_time_control_write(&tc, tc_text, sizeof tc_text);
		rc = pgn_game_set_tag(&g, "TimeControl", tc_text);
	} else if (!rc) {
		rc = pgn_game_set_tag(&g, "TimeControl", "?");
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, PGN_TAG_TCHESS_TIME_CONTROL, v->tc);
	if (!rc)
		rc = pgn_game_set_tag(&g, "Ruleset", v->game.rules.name);
	if (!rc) {
		snprintf(buf, sizeof buf, "tchess/%d", PROTOCOL_VERSION);
		rc = pgn_game_set_tag(&g, "Protocol", buf);
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, "GameId", id);
	if (!rc)
		rc = pgn_set_termination(&g, v->game.termination, v->game.result);
	for (size_t i = 0; !rc && i < v->game.n_plies; i++) {
		rc = pgn_game_add_move(&g, v->game.plies[i].m);
		int64_t ms = v->game.plies[i].clock_ms;
		if (!rc && ms >= 0 && ms != CLOCK_UNLIMITED)
			g.moves[i].clock_ms = ms;
	}
	/* Each note at the last move played before it ("{note by alice:
	 * ...}"), several at one move joined; one before any move opens the
	 * movetext. */
	for (size_t k = 0; !rc && k < n_notes; k++) {
		size_t at = 0;
		while (at < v->game.n_plies && v->plies[at].seq < notes[k].seq)
			at++;
		const char *who = NULL;
		for (int c = 0; c < 2; c++)
			if (notes[k].player > 0 && v->seats[c].kind == FOLD_SEAT_HUMAN &&
			    v->seats[c].player == notes[k].player)
				who = v->seats[c].name;
		char **slot = at ? &g.moves[at - 1].comment : &g.comment_start;
		char *c = xasprintf("%s%snote%s%s: %s", *slot ? *slot : "", *slot ? " " : "", who ? " by " : "",
				    who ? who : "", notes[k].text ? notes[k].text : "");
		free(*slot);
		*slot = c;
	}
	if (!rc)
		rc = pgn_write_game(&g, out, err);
	else
		tchess_error_set(err, rc, 0, "%s", tchess_strerror(rc));
	pgn_game_fini(&g);
	return rc;
}
