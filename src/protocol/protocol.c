/*
 * The protocol's error bodies, names and player and game messages; events
 * are in protocol-event.c. See tchess/protocol.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-json.h"
#include "util/xalloc.h"

#define N_FIELDS(a) (sizeof(a) / sizeof((a)[0]))

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

char *protocol_register_request_encode(const struct protocol_register_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "name", req->name);
	return protocol_json_print(o);
}

int protocol_register_request_decode(const char *json, size_t len, struct protocol_register_request *out,
				     struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "name", PROTOCOL_JSON_STRING, true },
	};
	const char *what = "register";
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc) {
		const char *name = cJSON_GetObjectItemCaseSensitive(o, "name")->valuestring;
		if (!protocol_name_valid(name, err))
			rc = -1;
		else
			snprintf(out->name, sizeof out->name, "%s", name);
	}
	cJSON_Delete(o);
	return rc;
}

char *protocol_player_encode(const struct protocol_player *p)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "player", p->player);
	protocol_json_add_string(o, "name", p->name);
	protocol_json_add_int(o, "credits", p->credits);
	return protocol_json_print(o);
}

int protocol_player_decode(const char *json, size_t len, struct protocol_player *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "player", PROTOCOL_JSON_INT, true },
		{ "name", PROTOCOL_JSON_STRING, true },
		{ "credits", PROTOCOL_JSON_INT, false },
	};
	const char *what = "player";
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc) {
		out->player = protocol_json_int(o, "player");
		out->credits = protocol_json_int(o, "credits");
		rc = protocol_json_copy(out->name, sizeof out->name, o, "name", false, what, err);
	}
	cJSON_Delete(o);
	return rc;
}

char *protocol_register_response_encode(const struct protocol_register_response *r)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "player", r->player);
	protocol_json_add_string(o, "name", r->name);
	protocol_json_add_string(o, "token", r->token);
	return protocol_json_print(o);
}

int protocol_register_response_decode(const char *json, size_t len, struct protocol_register_response *out,
				      struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "player", PROTOCOL_JSON_INT, true },
		{ "name", PROTOCOL_JSON_STRING, true },
		{ "token", PROTOCOL_JSON_STRING, true },
	};
	const char *what = "register response";
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc) {
		out->player = protocol_json_int(o, "player");
		rc = protocol_json_copy(out->name, sizeof out->name, o, "name", false, what, err);
	}
	if (!rc)
		rc = protocol_json_copy(out->token, sizeof out->token, o, "token", false, what, err);
	cJSON_Delete(o);
	return rc;
}

static cJSON *seat(int64_t id)
{
	cJSON *v = id ? cJSON_CreateNumber((double)id) : cJSON_CreateNull();
	if (!v)
		xalloc_die();
	return v;
}

static cJSON *summary_json(const struct protocol_game_summary *g)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "id", g->id);
	protocol_json_add_string(o, "status", g->status);
	protocol_json_add_item(o, "white", seat(g->white));
	protocol_json_add_item(o, "black", seat(g->black));
	protocol_json_add_int(o, "created_ms", g->created_ms);
	protocol_json_add_int(o, "seq", g->seq);
	return o;
}

static int summary_from_json(const cJSON *o, struct protocol_game_summary *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "id", PROTOCOL_JSON_STRING, true },     { "status", PROTOCOL_JSON_STRING, true },
		{ "white", PROTOCOL_JSON_INT_OR_NULL, true }, { "black", PROTOCOL_JSON_INT_OR_NULL, true },
		{ "created_ms", PROTOCOL_JSON_INT, true }, { "seq", PROTOCOL_JSON_INT, true },
	};
	const char *what = "game";
	if (!cJSON_IsObject(o))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: expected an object", what);
	if (protocol_json_check(o, fields, N_FIELDS(fields), false, what, err) ||
	    protocol_json_copy(out->id, sizeof out->id, o, "id", false, what, err) ||
	    protocol_json_copy(out->status, sizeof out->status, o, "status", false, what, err))
		return -1;
	if (!protocol_game_id_valid(out->id))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: malformed id", what);
	out->white = protocol_json_int(o, "white");
	out->black = protocol_json_int(o, "black");
	out->created_ms = protocol_json_int(o, "created_ms");
	out->seq = protocol_json_int(o, "seq");
	return 0;
}

char *protocol_game_summary_encode(const struct protocol_game_summary *g)
{
	return protocol_json_print(summary_json(g));
}

int protocol_game_summary_decode(const char *json, size_t len, struct protocol_game_summary *out,
				 struct protocol_error *err)
{
	cJSON *o = protocol_json_parse(json, len, "game", err);
	if (!o)
		return -1;
	int rc = summary_from_json(o, out, err);
	cJSON_Delete(o);
	return rc;
}

char *protocol_game_list_encode(const struct protocol_game_summary *games, size_t n)
{
	cJSON *o = protocol_json_object();
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	protocol_json_add_item(o, "games", a);
	for (size_t i = 0; i < n; i++) {
		if (!cJSON_AddItemToArray(a, summary_json(&games[i])))
			xalloc_die();
	}
	return protocol_json_print(o);
}

int protocol_game_list_decode(const char *json, size_t len, struct protocol_game_summary **out, size_t *n,
			      struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "games", PROTOCOL_JSON_ARRAY, true },
	};
	*out = NULL;
	*n = 0;
	cJSON *o = protocol_json_parse(json, len, "games", err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, "games", err);
	if (!rc) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "games");
		size_t count = (size_t)cJSON_GetArraySize(a);
		*out = xcalloc(count, sizeof **out);
		for (const cJSON *g = a->child; g && !rc; g = g->next)
			rc = summary_from_json(g, &(*out)[(*n)++], err);
		if (rc) {
			free(*out);
			*out = NULL;
			*n = 0;
		}
	}
	cJSON_Delete(o);
	return rc;
}

char *protocol_note_request_encode(const struct protocol_note_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "text", req->text);
	return protocol_json_print(o);
}

int protocol_note_request_decode(const char *json, size_t len, struct protocol_note_request *out,
				 struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "text", PROTOCOL_JSON_STRING, true },
	};
	const char *what = "note";
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->text, sizeof out->text, o, "text", false, what, err);
	cJSON_Delete(o);
	return rc;
}

char *protocol_game_create_request_encode(const struct protocol_game_create_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "tc", req->tc);
	if (req->ruleset[0])
		protocol_json_add_string(o, "ruleset", req->ruleset);
	if (req->color[0])
		protocol_json_add_string(o, "color", req->color);
	if (req->opponent[0])
		protocol_json_add_string(o, "opponent", req->opponent);
	if (req->level)
		protocol_json_add_int(o, "level", req->level);
	if (req->fen[0])
		protocol_json_add_string(o, "fen", req->fen);
	return protocol_json_print(o);
}

int protocol_game_create_request_decode(const char *json, size_t len, struct protocol_game_create_request *out,
					struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "tc", PROTOCOL_JSON_STRING, true },        { "ruleset", PROTOCOL_JSON_STRING, false },
		{ "color", PROTOCOL_JSON_STRING, false },    { "opponent", PROTOCOL_JSON_STRING, false },
		{ "level", PROTOCOL_JSON_INT, false },       { "fen", PROTOCOL_JSON_STRING, false },
	};
	const char *what = "create game";
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->tc, sizeof out->tc, o, "tc", false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->ruleset, sizeof out->ruleset, o, "ruleset", true, what, err);
	if (!rc)
		rc = protocol_json_copy(out->color, sizeof out->color, o, "color", true, what, err);
	if (!rc)
		rc = protocol_json_copy(out->opponent, sizeof out->opponent, o, "opponent", true, what, err);
	if (!rc)
		rc = protocol_json_copy(out->fen, sizeof out->fen, o, "fen", true, what, err);
	out->level = protocol_json_int(o, "level");
	cJSON_Delete(o);
	return rc;
}

char *protocol_seat_response_encode(const struct protocol_seat_response *r)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "id", r->id);
	protocol_json_add_string(o, "color", r->color);
	protocol_json_add_int(o, "seq", r->seq);
	if (r->invite[0])
		protocol_json_add_string(o, "invite", r->invite);
	return protocol_json_print(o);
}

int protocol_seat_response_decode(const char *json, size_t len, struct protocol_seat_response *out,
				  struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "id", PROTOCOL_JSON_STRING, true },
		{ "color", PROTOCOL_JSON_STRING, true },
		{ "seq", PROTOCOL_JSON_INT, true },
		{ "invite", PROTOCOL_JSON_STRING, false },
	};
	const char *what = "seat";
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->id, sizeof out->id, o, "id", false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->color, sizeof out->color, o, "color", false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->invite, sizeof out->invite, o, "invite", true, what, err);
	out->seq = protocol_json_int(o, "seq");
	cJSON_Delete(o);
	return rc;
}

char *protocol_join_request_encode(const struct protocol_join_request *req)
{
	cJSON *o = protocol_json_object();
	if (req->invite[0])
		protocol_json_add_string(o, "invite", req->invite);
	return protocol_json_print(o);
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
	static const struct protocol_json_field fields[] = {
		{ "invite", PROTOCOL_JSON_STRING, false },
	};
	const char *what = "join";
	memset(out, 0, sizeof *out);
	if (body_empty(json, len))
		return 0;
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->invite, sizeof out->invite, o, "invite", true, what, err);
	cJSON_Delete(o);
	return rc;
}

int protocol_empty_request_decode(const char *json, size_t len, struct protocol_error *err)
{
	if (body_empty(json, len))
		return 0;
	cJSON *o = protocol_json_parse(json, len, "request", err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, NULL, 0, false, "request", err);
	cJSON_Delete(o);
	return rc;
}

char *protocol_move_request_encode(const struct protocol_move_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "ply", req->ply);
	protocol_json_add_string(o, "move", req->move);
	return protocol_json_print(o);
}

int protocol_move_request_decode(const char *json, size_t len, struct protocol_move_request *out,
				 struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "ply", PROTOCOL_JSON_INT, true },
		{ "move", PROTOCOL_JSON_STRING, true },
	};
	const char *what = "move";
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->move, sizeof out->move, o, "move", false, what, err);
	out->ply = protocol_json_int(o, "ply");
	if (!rc && out->ply < 0)
		rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: ply must not be negative", what);
	cJSON_Delete(o);
	return rc;
}

char *protocol_action_request_encode(const struct protocol_action_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "ply", req->ply);
	if (req->action[0])
		protocol_json_add_string(o, "action", req->action);
	if (req->claim[0])
		protocol_json_add_string(o, "claim", req->claim);
	if (req->move[0])
		protocol_json_add_string(o, "move", req->move);
	return protocol_json_print(o);
}

int protocol_action_request_decode(const char *json, size_t len, struct protocol_action_request *out,
				   struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "ply", PROTOCOL_JSON_INT, true },
		{ "action", PROTOCOL_JSON_STRING, false },
		{ "claim", PROTOCOL_JSON_STRING, false },
		{ "move", PROTOCOL_JSON_STRING, false },
	};
	const char *what = "request";
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	/* Optional members: absent is "", present must not be empty. */
	struct {
		char *dst;
		size_t size;
		const char *name;
	} opt[] = {
		{ out->action, sizeof out->action, "action" },
		{ out->claim, sizeof out->claim, "claim" },
		{ out->move, sizeof out->move, "move" },
	};
	for (size_t i = 0; !rc && i < N_FIELDS(opt); i++) {
		if (cJSON_GetObjectItemCaseSensitive(o, opt[i].name))
			rc = protocol_json_copy(opt[i].dst, opt[i].size, o, opt[i].name, false, what, err);
	}
	out->ply = protocol_json_int(o, "ply");
	if (!rc && out->ply < 0)
		rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: ply must not be negative", what);
	cJSON_Delete(o);
	return rc;
}

char *protocol_premoves_request_encode(const struct protocol_premoves_request *req)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "ply", req->ply);
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	for (int i = 0; i < req->n; i++) {
		cJSON *m = cJSON_CreateString(req->moves[i]);
		if (!m || !cJSON_AddItemToArray(a, m))
			xalloc_die();
	}
	protocol_json_add_item(o, "moves", a);
	return protocol_json_print(o);
}

int protocol_premoves_request_decode(const char *json, size_t len, struct protocol_premoves_request *out,
				     struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "ply", PROTOCOL_JSON_INT, true },
		{ "moves", PROTOCOL_JSON_ARRAY, true },
	};
	const char *what = "premoves";
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc) {
		out->ply = protocol_json_int(o, "ply");
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "moves");
		for (const cJSON *m = a->child; m && !rc; m = m->next) {
			if (out->n == PROTOCOL_PREMOVES_MAX)
				rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: more than %d moves",
							what, PROTOCOL_PREMOVES_MAX);
			else if (!cJSON_IsString(m) || !m->valuestring[0] ||
				 strlen(m->valuestring) >= PROTOCOL_MOVE_MAX)
				rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
							"%s: moves must be short non-empty strings", what);
			else
				strcpy(out->moves[out->n++], m->valuestring);
		}
		if (!rc && out->n == 0)
			rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
						"%s: no moves (DELETE clears the queue)", what);
		if (!rc && out->ply < 0)
			rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: ply must not be negative", what);
	}
	cJSON_Delete(o);
	return rc;
}

char *protocol_health_encode(const struct protocol_health *h)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "status", h->status);
	protocol_json_add_string(o, "version", h->version);
	protocol_json_add_int(o, "protocol", h->protocol);
	protocol_json_add_int(o, "parked", h->parked);
	protocol_json_add_int(o, "now_ms", h->now_ms);
	return protocol_json_print(o);
}

int protocol_health_decode(const char *json, size_t len, struct protocol_health *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "status", PROTOCOL_JSON_STRING, true },   { "version", PROTOCOL_JSON_STRING, true },
		{ "protocol", PROTOCOL_JSON_INT, true },    { "parked", PROTOCOL_JSON_INT, true },
		{ "now_ms", PROTOCOL_JSON_INT, true },
	};
	const char *what = "health";
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, N_FIELDS(fields), false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->status, sizeof out->status, o, "status", false, what, err);
	if (!rc)
		rc = protocol_json_copy(out->version, sizeof out->version, o, "version", true, what, err);
	if (!rc) {
		out->protocol = protocol_json_int(o, "protocol");
		out->parked = protocol_json_int(o, "parked");
		out->now_ms = protocol_json_int(o, "now_ms");
	}
	cJSON_Delete(o);
	return rc;
}
