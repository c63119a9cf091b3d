/*
 * The protocol's error bodies, names and player and game messages; events
 * are in protocol-event.c. See tchess/protocol.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-codec.h"
#include "util/xalloc.h"

static const struct {
	const char *name;
	int status;
	const char *message;
} errors[] = {
#define PROTOCOL_ERR_ROW(code, name, status, msg) { name, status, msg },
	PROTOCOL_ERRORS(PROTOCOL_ERR_ROW)
#undef PROTOCOL_ERR_ROW
};

const char *protocol_error_name(enum protocol_error_code code)
{
	return (unsigned)code < PROTOCOL_ERR_COUNT ? errors[code].name : "internal";
}

int protocol_error_status(enum protocol_error_code code)
{
	return (unsigned)code < PROTOCOL_ERR_COUNT ? errors[code].status : 500;
}

const char *protocol_error_default_message(enum protocol_error_code code)
{
	return (unsigned)code < PROTOCOL_ERR_COUNT ? errors[code].message : "internal server error";
}

bool protocol_error_parse(const char *name, enum protocol_error_code *out)
{
	for (unsigned i = 0; i < PROTOCOL_ERR_COUNT; i++) {
		if (!strcmp(name, errors[i].name)) {
			*out = (enum protocol_error_code)i;
			return true;
		}
	}
	return false;
}

int protocol_error_set(struct protocol_error *err, enum protocol_error_code code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->code = code;
		err->seq = 0;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return -1;
}

char *protocol_error_encode(const struct protocol_error *e)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "error", protocol_error_name(e->code));
	protocol_json_add_string(o, "message", e->message[0] ? e->message : protocol_error_default_message(e->code));
	if (e->seq > 0)
		protocol_json_add_int(o, "seq", e->seq);
	return protocol_json_print(o);
}

int protocol_error_decode(const char *json, size_t len, struct protocol_error *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "error", PROTOCOL_JSON_STRING, true },
		{ "message", PROTOCOL_JSON_STRING, true },
		{ "seq", PROTOCOL_JSON_INT, false },
	};
	cJSON *o = protocol_json_parse(json, len, "error", err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, "error", err);
	if (!rc) {
		const char *name = cJSON_GetObjectItemCaseSensitive(o, "error")->valuestring;
		const char *msg = cJSON_GetObjectItemCaseSensitive(o, "message")->valuestring;
		if (!protocol_error_parse(name, &out->code))
			rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "error: unknown error code");
		else
			snprintf(out->message, sizeof out->message, "%s", msg);
		out->seq = protocol_json_int(o, "seq");
	}
	cJSON_Delete(o);
	return rc;
}

bool protocol_name_valid(const char *name, struct protocol_error *err)
{
	size_t len = strlen(name);
	if (len == 0 || len > PROTOCOL_NAME_MAX) {
		protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "name: must be 1 to %d characters long",
				   PROTOCOL_NAME_MAX);
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && (i == 0 || (c != '_' && c != '-'))) {
			protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
					   "name: character %zu not allowed (letters, digits, '_' and '-' only, "
					   "starting with a letter or digit)",
					   i + 1);
			return false;
		}
	}
	return true;
}

bool protocol_game_id_valid(const char *id)
{
	size_t len = strlen(id);
	if (len == 0 || len > PROTOCOL_GAME_ID_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z')))
			return false;
	}
	return true;
}

/* Every flat message below is a table of its members for the codec in
 * protocol-codec.c; the functions are its wrappers plus each message's own
 * checks. */
#define REQ PROTOCOL_CODEC_REQUIRED
#define EMPTY_OK PROTOCOL_CODEC_EMPTY_OK
#define OMIT PROTOCOL_CODEC_OMIT
#define NON_NEGATIVE PROTOCOL_CODEC_NON_NEGATIVE
#define STRING PROTOCOL_CODEC_STRING
#define INT PROTOCOL_CODEC_INT

/* The name is checked before it is copied, so a long one gets the name
 * rule's message rather than the buffer's. */
static const struct protocol_codec_member register_request_members[] = {
	{ .name = "name", .kind = PROTOCOL_JSON_STRING, .flags = REQ,
	  .offset = offsetof(struct protocol_register_request, name),
	  .size = sizeof(((struct protocol_register_request *)0)->name), .valid = protocol_name_valid },
};
static const struct protocol_codec_message register_request_msg =
	PROTOCOL_CODEC_MESSAGE("register", register_request_members, NULL, NULL);

char *protocol_register_request_encode(const struct protocol_register_request *req)
{
	return protocol_codec_encode(&register_request_msg, req);
}

int protocol_register_request_decode(const char *json, size_t len, struct protocol_register_request *out,
				     struct protocol_error *err)
{
	return protocol_codec_decode(&register_request_msg, json, len, out, err);
}

static const struct protocol_codec_member player_members[] = {
	INT(struct protocol_player, player, REQ),
	STRING(struct protocol_player, name, REQ),
	INT(struct protocol_player, credits, 0),
};
/* An answer (GET /v1/me), which the server never reads: open. */
static const struct protocol_codec_message player_msg = PROTOCOL_CODEC_ANSWER("player", player_members, NULL, NULL);

char *protocol_player_encode(const struct protocol_player *p)
{
	return protocol_codec_encode(&player_msg, p);
}

int protocol_player_decode(const char *json, size_t len, struct protocol_player *out, struct protocol_error *err)
{
	return protocol_codec_decode(&player_msg, json, len, out, err);
}

static const struct protocol_codec_member register_response_members[] = {
	INT(struct protocol_register_response, player, REQ),
	STRING(struct protocol_register_response, name, REQ),
	STRING(struct protocol_register_response, token, REQ),
};
static const struct protocol_codec_message register_response_msg =
	PROTOCOL_CODEC_MESSAGE("register response", register_response_members, NULL, NULL);

char *protocol_register_response_encode(const struct protocol_register_response *r)
{
	return protocol_codec_encode(&register_response_msg, r);
}

int protocol_register_response_decode(const char *json, size_t len, struct protocol_register_response *out,
				      struct protocol_error *err)
{
	return protocol_codec_decode(&register_response_msg, json, len, out, err);
}

static int summary_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	const struct protocol_game_summary *g = dst;
	if (!protocol_game_id_valid(g->id))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: malformed id", what);
	if (g->color[0] && strcmp(g->color, "white") && strcmp(g->color, "black"))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: color must be \"white\" or \"black\"", what);
	if (g->turn[0] && strcmp(g->turn, "white") && strcmp(g->turn, "black"))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: turn must be \"white\" or \"black\"", what);
	return 0;
}

static const struct protocol_codec_member summary_members[] = {
	STRING(struct protocol_game_summary, id, REQ),
	STRING(struct protocol_game_summary, status, REQ),
	PROTOCOL_CODEC_SEAT(struct protocol_game_summary, white, REQ),
	PROTOCOL_CODEC_SEAT(struct protocol_game_summary, black, REQ),
	INT(struct protocol_game_summary, created_ms, REQ),
	INT(struct protocol_game_summary, seq, REQ),
	/* The lobby's (issue 14 item 5): optional, so a client reads an
	 * older server's list, and left out where they do not apply. */
	INT(struct protocol_game_summary, age_ms, NON_NEGATIVE),
	STRING(struct protocol_game_summary, tc, OMIT),
	STRING(struct protocol_game_summary, ruleset, OMIT),
	STRING(struct protocol_game_summary, white_name, OMIT),
	STRING(struct protocol_game_summary, black_name, OMIT),
	INT(struct protocol_game_summary, white_level, OMIT | NON_NEGATIVE),
	INT(struct protocol_game_summary, black_level, OMIT | NON_NEGATIVE),
	STRING(struct protocol_game_summary, color, OMIT),
	INT(struct protocol_game_summary, ply, OMIT | NON_NEGATIVE),
	STRING(struct protocol_game_summary, turn, OMIT),
};
/* An answer's part: open, so a newer server may add members. */
static const struct protocol_codec_message summary_msg =
	PROTOCOL_CODEC_ANSWER("game", summary_members, summary_rest, NULL);

char *protocol_game_summary_encode(const struct protocol_game_summary *g)
{
	return protocol_codec_encode(&summary_msg, g);
}

int protocol_game_summary_decode(const char *json, size_t len, struct protocol_game_summary *out,
				 struct protocol_error *err)
{
	return protocol_codec_decode(&summary_msg, json, len, out, err);
}

char *protocol_game_list_encode(const struct protocol_game_summary *games, size_t n)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_item(o, "games", protocol_codec_array(&summary_msg, games, sizeof *games, n));
	return protocol_json_print(o);
}

int protocol_game_list_decode(const char *json, size_t len, struct protocol_game_summary **out, size_t *n,
			      struct protocol_error *err)
{
	void *list;
	int rc = protocol_codec_decode_list("games", "games", &summary_msg, sizeof **out, json, len, &list, n, err);
	*out = list;
	return rc;
}

static const struct protocol_codec_member note_request_members[] = {
	STRING(struct protocol_note_request, text, REQ),
};
static const struct protocol_codec_message note_request_msg =
	PROTOCOL_CODEC_MESSAGE("note", note_request_members, NULL, NULL);

char *protocol_note_request_encode(const struct protocol_note_request *req)
{
	return protocol_codec_encode(&note_request_msg, req);
}

int protocol_note_request_decode(const char *json, size_t len, struct protocol_note_request *out,
				 struct protocol_error *err)
{
	return protocol_codec_decode(&note_request_msg, json, len, out, err);
}

static const struct protocol_codec_member revealed_members[] = {
	INT(struct protocol_revealed_note, seq, REQ),
	INT(struct protocol_revealed_note, t_ms, REQ),
	INT(struct protocol_revealed_note, player, REQ),
	STRING(struct protocol_revealed_note, text, REQ),
};
static const struct protocol_codec_message revealed_msg =
	PROTOCOL_CODEC_MESSAGE("notes-revealed: note", revealed_members, NULL, NULL);

int protocol_notes_revealed_decode(const char *json, size_t len, struct protocol_revealed_note **out, size_t *n,
				   struct protocol_error *err)
{
	void *list;
	int rc = protocol_codec_decode_list("notes-revealed", "notes", &revealed_msg, sizeof **out, json, len, &list,
					    n, err);
	*out = list;
	return rc;
}

char *protocol_notes_revealed_encode(const struct protocol_revealed_note *notes, size_t n)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_item(o, "notes", protocol_codec_array(&revealed_msg, notes, sizeof *notes, n));
	return protocol_json_print(o);
}

static const struct protocol_codec_member game_params_members[] = {
	STRING(struct protocol_game_params, invite_sha256, EMPTY_OK | OMIT),
	STRING(struct protocol_game_params, tournament, EMPTY_OK | OMIT),
};
static const struct protocol_codec_message game_params_msg =
	PROTOCOL_CODEC_MESSAGE("game params", game_params_members, NULL, NULL);

char *protocol_game_params_encode(const struct protocol_game_params *p)
{
	return protocol_codec_encode(&game_params_msg, p);
}

int protocol_game_params_decode(const char *json, size_t len, struct protocol_game_params *out,
				struct protocol_error *err)
{
	return protocol_codec_decode(&game_params_msg, json, len, out, err);
}

/* Optional members are left out when "" (level 0, undo false). */
static const struct protocol_codec_member game_create_members[] = {
	STRING(struct protocol_game_create_request, tc, REQ),
	STRING(struct protocol_game_create_request, ruleset, EMPTY_OK | OMIT),
	STRING(struct protocol_game_create_request, color, EMPTY_OK | OMIT),
	STRING(struct protocol_game_create_request, opponent, EMPTY_OK | OMIT),
	INT(struct protocol_game_create_request, level, OMIT),
	STRING(struct protocol_game_create_request, fen, EMPTY_OK | OMIT),
	PROTOCOL_CODEC_BOOL(struct protocol_game_create_request, undo, OMIT),
	INT(struct protocol_game_create_request, premoves, OMIT),
};
static const struct protocol_codec_message game_create_msg =
	PROTOCOL_CODEC_MESSAGE("create game", game_create_members, NULL, NULL);

char *protocol_game_create_request_encode(const struct protocol_game_create_request *req)
{
	return protocol_codec_encode(&game_create_msg, req);
}

int protocol_game_create_request_decode(const char *json, size_t len, struct protocol_game_create_request *out,
					struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&game_create_msg, json, len, out, err);
}

static const struct protocol_codec_member seat_members[] = {
	STRING(struct protocol_seat_response, id, REQ),
	STRING(struct protocol_seat_response, color, REQ),
	INT(struct protocol_seat_response, seq, REQ),
	STRING(struct protocol_seat_response, invite, EMPTY_OK | OMIT),
};
static const struct protocol_codec_message seat_msg = PROTOCOL_CODEC_MESSAGE("seat", seat_members, NULL, NULL);

char *protocol_seat_response_encode(const struct protocol_seat_response *r)
{
	return protocol_codec_encode(&seat_msg, r);
}

int protocol_seat_response_decode(const char *json, size_t len, struct protocol_seat_response *out,
				  struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&seat_msg, json, len, out, err);
}

static const struct protocol_codec_member join_members[] = {
	STRING(struct protocol_join_request, invite, EMPTY_OK | OMIT),
};
static const struct protocol_codec_message join_msg = PROTOCOL_CODEC_MESSAGE("join", join_members, NULL, NULL);

char *protocol_join_request_encode(const struct protocol_join_request *req)
{
	return protocol_codec_encode(&join_msg, req);
}

/* Whether the body is absent or only blanks. */
static bool body_empty(const char *json, size_t len)
{
	for (size_t i = 0; json && i < len; i++) {
		if (json[i] != ' ' && json[i] != '\t' && json[i] != '\r' && json[i] != '\n')
			return false;
	}
	return true;
}

int protocol_join_request_decode(const char *json, size_t len, struct protocol_join_request *out,
				 struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	if (body_empty(json, len))
		return 0;
	return protocol_codec_decode(&join_msg, json, len, out, err);
}

int protocol_empty_request_decode(const char *json, size_t len, struct protocol_error *err)
{
	static const struct protocol_codec_message empty_msg = { "request", NULL, 0, NULL, NULL, false, false, 0 };
	if (body_empty(json, len))
		return 0;
	return protocol_codec_decode(&empty_msg, json, len, NULL, err);
}

static const struct protocol_codec_member move_members[] = {
	INT(struct protocol_move_request, ply, REQ | NON_NEGATIVE),
	STRING(struct protocol_move_request, move, REQ),
};
static const struct protocol_codec_message move_msg = PROTOCOL_CODEC_MESSAGE("move", move_members, NULL, NULL);

char *protocol_move_request_encode(const struct protocol_move_request *req)
{
	return protocol_codec_encode(&move_msg, req);
}

int protocol_move_request_decode(const char *json, size_t len, struct protocol_move_request *out,
				 struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&move_msg, json, len, out, err);
}

/* Optional members: absent is "", present must not be empty. */
static const struct protocol_codec_member action_members[] = {
	INT(struct protocol_action_request, ply, REQ | NON_NEGATIVE),
	STRING(struct protocol_action_request, action, OMIT),
	STRING(struct protocol_action_request, claim, OMIT),
	STRING(struct protocol_action_request, move, OMIT),
};
/* Indexed by enum protocol_action and enum protocol_claim. */
static const char *const action_words[] = { "", "offer", "accept", "decline", "withdraw", "request" };
static const char *const claim_words[] = { "", "threefold", "fifty-moves", "tablebase", "discard", "win" };
_Static_assert(N_FIELDS(action_words) == PROTOCOL_ACTION_UNKNOWN, "one word per action");
_Static_assert(N_FIELDS(claim_words) == PROTOCOL_CLAIM_UNKNOWN, "one word per claim");

const char *protocol_action_str(enum protocol_action a)
{
	return (unsigned)a < N_FIELDS(action_words) ? action_words[a] : "";
}

const char *protocol_claim_str(enum protocol_claim c)
{
	return (unsigned)c < N_FIELDS(claim_words) ? claim_words[c] : "";
}

/* The index of word in words[1..n), n (unknown) if none, 0 if word is "". */
static int word_index(const char *word, const char *const *words, int n)
{
	if (!word[0])
		return 0;
	for (int i = 1; i < n; i++) {
		if (!strcmp(word, words[i]))
			return i;
	}
	return n;
}

static int action_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct protocol_action_request *r = dst;
	(void)o;
	(void)what;
	(void)err;
	r->action_word = (enum protocol_action)word_index(r->action, action_words, (int)N_FIELDS(action_words));
	r->claim_word = (enum protocol_claim)word_index(r->claim, claim_words, (int)N_FIELDS(claim_words));
	return 0;
}

static const struct protocol_codec_message action_msg =
	PROTOCOL_CODEC_MESSAGE("request", action_members, action_rest, NULL);

char *protocol_action_request_encode(const struct protocol_action_request *req)
{
	/* The words of action_word and claim_word; a string is written as
	 * it is only when its word is _NONE (a test's unknown word). */
	struct protocol_action_request r = *req;
	if (r.action_word != PROTOCOL_ACTION_NONE)
		snprintf(r.action, sizeof r.action, "%s", protocol_action_str(r.action_word));
	if (r.claim_word != PROTOCOL_CLAIM_NONE)
		snprintf(r.claim, sizeof r.claim, "%s", protocol_claim_str(r.claim_word));
	return protocol_codec_encode(&action_msg, &r);
}

int protocol_action_request_decode(const char *json, size_t len, struct protocol_action_request *out,
				   struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&action_msg, json, len, out, err);
}

/* The moves array, then the ply: its check comes after the moves'. */
static int premoves_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct protocol_premoves_request *out = dst;
	switch (protocol_codec_read_strings(cJSON_GetObjectItemCaseSensitive(o, "moves"), out->moves[0],
					    sizeof out->moves[0], PROTOCOL_PREMOVES_MAX, &out->n)) {
	case PROTOCOL_CODEC_STRINGS_TOO_MANY:
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: more than %d moves", what,
					  PROTOCOL_PREMOVES_MAX);
	case PROTOCOL_CODEC_STRINGS_BAD:
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: moves must be short non-empty strings",
					  what);
	case PROTOCOL_CODEC_STRINGS_OK:
		break;
	}
	if (out->n == 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: no moves (DELETE clears the queue)",
					  what);
	if (out->ply < 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: ply must not be negative", what);
	return 0;
}

static void premoves_encode_rest(cJSON *o, const void *src)
{
	const struct protocol_premoves_request *req = src;
	protocol_json_add_item(o, "moves", protocol_codec_strings(req->moves[0], sizeof req->moves[0], req->n));
}

static const struct protocol_codec_member premoves_members[] = {
	INT(struct protocol_premoves_request, ply, REQ),
	PROTOCOL_CODEC_HOOKED("moves", PROTOCOL_JSON_ARRAY, REQ),
};
static const struct protocol_codec_message premoves_msg =
	PROTOCOL_CODEC_MESSAGE("premoves", premoves_members, premoves_rest, premoves_encode_rest);

char *protocol_premoves_request_encode(const struct protocol_premoves_request *req)
{
	return protocol_codec_encode(&premoves_msg, req);
}

int protocol_premoves_request_decode(const char *json, size_t len, struct protocol_premoves_request *out,
				     struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&premoves_msg, json, len, out, err);
}

static const struct protocol_codec_member health_members[] = {
	STRING(struct protocol_health, status, REQ),
	STRING(struct protocol_health, version, REQ | EMPTY_OK),
	INT(struct protocol_health, protocol, REQ),
	INT(struct protocol_health, parked, REQ),
	INT(struct protocol_health, now_ms, REQ),
	INT(struct protocol_health, games, 0),
	INT(struct protocol_health, evicted, 0),
};
static const struct protocol_codec_message health_msg = PROTOCOL_CODEC_MESSAGE("health", health_members, NULL, NULL);

char *protocol_health_encode(const struct protocol_health *h)
{
	return protocol_codec_encode(&health_msg, h);
}

int protocol_health_decode(const char *json, size_t len, struct protocol_health *out, struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&health_msg, json, len, out, err);
}
