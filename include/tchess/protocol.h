/*
 * The tchess wire protocol (version 1): the one JSON codec that the client
 * and tchessd share, so both sides agree on every message by construction.
 * man/tchess-protocol.7 documents the messages; this header is their C form.
 *
 * Encoders return a malloc'd, NUL-terminated JSON text that the caller frees
 * (they abort on out-of-memory, like the rest of the client and server).
 * Decoders are strict: the text must be one JSON object, every required
 * member present with its type, no unknown or repeated member, integers
 * integral and within +-2^53. They return 0, or -1 with err filled in
 * (code PROTOCOL_ERR_BAD_REQUEST and a message naming the member and the
 * reason), and never crash on bad input.
 */
#ifndef TCHESS_PROTOCOL_H
#define TCHESS_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTOCOL_VERSION 1
#define PROTOCOL_PREFIX "/v1"

/* Error codes on the wire, their HTTP status and a generic message, side by
 * side. The body of every error response is {"error": NAME, "message": ...}. */
#define PROTOCOL_ERRORS(X)                                                                      \
	X(PROTOCOL_ERR_BAD_REQUEST, "bad_request", 400, "malformed request")                   \
	X(PROTOCOL_ERR_UNAUTHORIZED, "unauthorized", 401, "missing or unknown token")          \
	X(PROTOCOL_ERR_FORBIDDEN, "forbidden", 403, "not allowed for this player")             \
	X(PROTOCOL_ERR_NOT_FOUND, "not_found", 404, "no such resource")                        \
	X(PROTOCOL_ERR_METHOD_NOT_ALLOWED, "method_not_allowed", 405, "method not allowed")    \
	X(PROTOCOL_ERR_CONFLICT, "conflict", 409, "conflicts with the current state")          \
	X(PROTOCOL_ERR_GONE, "gone", 410, "erased (an aborted game)")                          \
	X(PROTOCOL_ERR_TOO_LARGE, "too_large", 413, "request body too large")                  \
	X(PROTOCOL_ERR_URI_TOO_LONG, "uri_too_long", 414, "request URL too long")              \
	X(PROTOCOL_ERR_ILLEGAL, "illegal", 422, "not allowed by the rules")                    \
	X(PROTOCOL_ERR_RATE_LIMITED, "rate_limited", 429, "too many requests")                 \
	X(PROTOCOL_ERR_INTERNAL, "internal", 500, "internal server error")                     \
	X(PROTOCOL_ERR_UNAVAILABLE, "unavailable", 503, "server unavailable (shutting down, storage full or read-only)")

enum protocol_error_code {
#define PROTOCOL_ERR_ENUM(code, name, status, msg) code,
	PROTOCOL_ERRORS(PROTOCOL_ERR_ENUM)
#undef PROTOCOL_ERR_ENUM
	PROTOCOL_ERR_COUNT
};

/* An error: what the server answers and what a decoder reports. */
struct protocol_error {
	enum protocol_error_code code;
	char message[200];
	int64_t seq; /* > 0: the game's current seq (a 409 for a stale ply); 0: none */
};

/* The wire name ("bad_request"), HTTP status (400) and generic message of a
 * code; an out-of-range code gives "internal", 500. */
const char *protocol_error_name(enum protocol_error_code code);
int protocol_error_status(enum protocol_error_code code);
const char *protocol_error_default_message(enum protocol_error_code code);
/* The code of a wire name; false if the name is unknown. */
bool protocol_error_parse(const char *name, enum protocol_error_code *out);
/* Fills err (if not NULL, seq cleared); returns -1 so callers can
 * "return protocol_error_set(...)". */
int protocol_error_set(struct protocol_error *err, enum protocol_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* {"error": NAME, "message": MESSAGE}, plus "seq": N when e->seq > 0. */
char *protocol_error_encode(const struct protocol_error *e);
/* Reads an error body (seq optional, 0 when absent); an unknown code name
 * is a decoding error. */
int protocol_error_decode(const char *json, size_t len, struct protocol_error *out, struct protocol_error *err);

/* Player names: 1..PROTOCOL_NAME_MAX characters of [A-Za-z0-9_-], starting
 * with a letter or digit (so names are safe in logs, PGN tags and terminal
 * cells). Unique on the server without regard to ASCII case. */
#define PROTOCOL_NAME_MAX 24
/* Whether name is valid; if not, err says why (code bad_request). */
bool protocol_name_valid(const char *name, struct protocol_error *err);

/* Bearer tokens are opaque to clients; this bounds what a decoder accepts. */
#define PROTOCOL_TOKEN_MAX 128
/* Game ids: opaque, at most this long, [0-9a-z] (the server uses 32 hex digits). */
#define PROTOCOL_GAME_ID_MAX 32
/* Whether id has the shape of a game id (used to reject garbage URLs early). */
bool protocol_game_id_valid(const char *id);

/* POST /v1/players request: {"name": NAME}. */
struct protocol_register_request {
	char name[PROTOCOL_NAME_MAX + 1];
};
char *protocol_register_request_encode(const struct protocol_register_request *req);
/* Also checks the name with protocol_name_valid. */
int protocol_register_request_decode(const char *json, size_t len, struct protocol_register_request *out,
				     struct protocol_error *err);

/* A player as others see it: GET /v1/me answers {"player": ID, "name": NAME,
 * "credits": N}; credits (the virtual credit balance, 0 when absent) is
 * optional on decoding. */
struct protocol_player {
	int64_t player;
	char name[PROTOCOL_NAME_MAX + 1];
	int64_t credits;
};
char *protocol_player_encode(const struct protocol_player *p);
int protocol_player_decode(const char *json, size_t len, struct protocol_player *out, struct protocol_error *err);

/* POST /v1/players response: {"player": ID, "name": NAME, "token": TOKEN}. */
struct protocol_register_response {
	int64_t player;
	char name[PROTOCOL_NAME_MAX + 1];
	char token[PROTOCOL_TOKEN_MAX + 1];
};
char *protocol_register_response_encode(const struct protocol_register_response *r);
int protocol_register_response_decode(const char *json, size_t len, struct protocol_register_response *out,
				      struct protocol_error *err);

/* Event types: 1..PROTOCOL_TYPE_MAX characters of [a-z0-9-] ("game-created"). */
#define PROTOCOL_TYPE_MAX 32
bool protocol_event_type_valid(const char *type);

/* One event of a game's log. On the wire its data's members sit beside the
 * envelope's: {"seq": N, "type": TYPE, "t_ms": MS, ...data}. t_ms is the
 * server's wall clock (ms since the epoch) when the event was committed. */
struct protocol_event {
	int64_t seq;
	char type[PROTOCOL_TYPE_MAX + 1];
	int64_t t_ms;
	char *data; /* the other members as a JSON object text; malloc'd */
};

/* Members of an event's envelope, which data may not use. */
bool protocol_event_reserved_member(const char *name);
/* Encodes one event; data is a JSON object text (NULL or "" means {}). Fails
 * (NULL, err set) if data is not an object or uses an envelope member. */
char *protocol_event_encode(const struct protocol_event *ev, struct protocol_error *err);
/* protocol_event_encode for data this program encoded itself (already a
 * JSON object text without envelope members): the envelope is spliced in
 * front of data's members, with no parse and no number formatting through
 * doubles. Same text as protocol_event_encode for such data. NULL if type
 * is malformed or data is not "{...}". */
char *protocol_event_encode_own(const struct protocol_event *ev);
/* Checks that data is a JSON object text whose members avoid the envelope's;
 * what servers call before storing an event's payload. */
int protocol_event_data_check(const char *data, struct protocol_error *err);
int protocol_event_decode(const char *json, size_t len, struct protocol_event *out, struct protocol_error *err);
void protocol_event_fini(struct protocol_event *ev);

/* GET /v1/games/{id}/events answer: {"events": [...], "seq": N, "now_ms": MS}.
 * seq is the last seq the caller may see (never moved by another's private
 * events), so the next poll passes after=seq; now_ms is the server's wall
 * clock.
 *
 * A resync answer, for a client far behind, adds "resync": true and
 * "snapshot": the game's snapshot at seq (tchess/fold.h), which stands for
 * the events the fold knows; events then holds only the skipped events of
 * the types the fold passes over (notes) that the client may see. */
struct protocol_events {
	struct protocol_event *events;
	size_t n;
	int64_t seq;
	int64_t now_ms;
	bool resync;
	char *snapshot; /* resync: the snapshot object's JSON text (malloc'd); else NULL */
	/* A correspondence game's answer: the seats' vacations object's JSON
	 * text (malloc'd; fold_view_vacations_decode reads it); else NULL. */
	char *vacations;
};
/* Fails (NULL, err set) if an event's data is bad, as protocol_event_encode. */
char *protocol_events_encode(const struct protocol_events *evs, struct protocol_error *err);
/* protocol_events_encode for events whose data this program encoded itself,
 * through protocol_event_encode_own; NULL if one of them does not splice. */
char *protocol_events_encode_own(const struct protocol_events *evs);
/* The tail of an events answer being built by hand after its events:
 * appends "],\"seq\":SEQ,\"now_ms\":MS}" to b. */
struct buf;
void protocol_events_close(struct buf *b, int64_t seq, int64_t now_ms);
int protocol_events_decode(const char *json, size_t len, struct protocol_events *out, struct protocol_error *err);
/* Frees the events, their data and the snapshot (not evs itself). */
void protocol_events_fini(struct protocol_events *evs);

/* A game in a listing: {"id", "status", "white", "black", "created_ms",
 * "seq", "age_ms"} and what the lobby shows of a game that is not over:
 * "tc", "ruleset", "white_name", "black_name", "white_level",
 * "black_level", "color", "ply", "turn", each left out when it does not apply
 * (tchess-protocol(7)). An empty seat is null on the wire and 0 here; a
 * member left out is "" or 0 here, as from a server that does not send it. */
#define PROTOCOL_STATUS_MAX 16
#define PROTOCOL_TC_MAX 128
#define PROTOCOL_WORD_MAX 16
struct protocol_game_summary {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char status[PROTOCOL_STATUS_MAX + 1];
	int64_t white;
	int64_t black;
	int64_t created_ms;
	int64_t seq;
	int64_t age_ms;                      /* since the game was created, at the server's answer */
	char tc[PROTOCOL_TC_MAX];            /* canonical, as the snapshot's */
	char ruleset[2 * PROTOCOL_WORD_MAX]; /* "fide", "yourpot", "chessgamble" */
	char white_name[PROTOCOL_NAME_MAX + 1]; /* a human seat's player */
	char black_name[PROTOCOL_NAME_MAX + 1];
	int64_t white_level, black_level;    /* an engine seat's level */
	char color[PROTOCOL_WORD_MAX];       /* an open game's free seat: the colour its joiner plays */
	int64_t ply;                         /* plies played */
	char turn[PROTOCOL_WORD_MAX];        /* a game being played: the side to move */
};
char *protocol_game_summary_encode(const struct protocol_game_summary *g);
int protocol_game_summary_decode(const char *json, size_t len, struct protocol_game_summary *out,
				 struct protocol_error *err);
/* GET /v1/games answer: {"games": [summary...]}. */
char *protocol_game_list_encode(const struct protocol_game_summary *games, size_t n);
/* *out is malloc'd (the caller frees it), *n its length. */
int protocol_game_list_decode(const char *json, size_t len, struct protocol_game_summary **out, size_t *n,
			      struct protocol_error *err);

/* POST /v1/games/{id}/notes request: {"text": TEXT}, 1..PROTOCOL_NOTE_MAX bytes. */
#define PROTOCOL_NOTE_MAX 1000
struct protocol_note_request {
	char text[PROTOCOL_NOTE_MAX + 1];
};
char *protocol_note_request_encode(const struct protocol_note_request *req);
int protocol_note_request_decode(const char *json, size_t len, struct protocol_note_request *out,
				 struct protocol_error *err);

/* The data of a "notes-revealed" event: {"notes": [{"seq", "t_ms",
 * "player", "text"}...]}, every note of a game, public once it is over.
 * *out is malloc'd (the caller frees it), *n its length. */
struct protocol_revealed_note {
	int64_t seq;
	int64_t t_ms;
	int64_t player;
	char text[PROTOCOL_NOTE_MAX + 1];
};
int protocol_notes_revealed_decode(const char *json, size_t len, struct protocol_revealed_note **out, size_t *n,
				   struct protocol_error *err);
char *protocol_notes_revealed_encode(const struct protocol_revealed_note *notes, size_t n);

/* A game's parameters as tchessd stores them with the game (not on the
 * wire): {"invite_sha256"?: HEX, "tournament"?: ID}, each left out when
 * "" (so a game with neither is {}). */
struct protocol_game_params {
	char invite_sha256[64 + 1]; /* the invite code's hash, hex; "" for none */
	char tournament[PROTOCOL_GAME_ID_MAX + 1];
};
char *protocol_game_params_encode(const struct protocol_game_params *p);
int protocol_game_params_decode(const char *json, size_t len, struct protocol_game_params *out,
				struct protocol_error *err);

/* POST /v1/games request: {"tc": TC, "ruleset"?, "color"?, "opponent"?,
 * "level"?, "fen"?, "undo"?}; absent members are "" (level 0). Values are checked
 * by the game service, shapes here. */
#define PROTOCOL_FEN_MAX 96
struct protocol_game_create_request {
	char tc[PROTOCOL_TC_MAX];
	char ruleset[PROTOCOL_WORD_MAX];
	char color[PROTOCOL_WORD_MAX];
	char opponent[PROTOCOL_WORD_MAX];
	int64_t level;
	char fen[PROTOCOL_FEN_MAX];
	bool undo; /* "undo": true makes an undo game (absent: false) */
	int64_t premoves; /* "premoves": the premove queue's depth, 1..8 (absent 0: the ruleset's) */
};
char *protocol_game_create_request_encode(const struct protocol_game_create_request *req);
int protocol_game_create_request_decode(const char *json, size_t len, struct protocol_game_create_request *out,
					struct protocol_error *err);

/* Answer of POST /v1/games (201) and /join (200): {"id", "color", "seq"}
 * plus "invite" (invite games, creation only; "" here when absent). */
#define PROTOCOL_INVITE_MAX 64
struct protocol_seat_response {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char color[PROTOCOL_WORD_MAX];
	int64_t seq;
	char invite[PROTOCOL_INVITE_MAX + 1];
};
char *protocol_seat_response_encode(const struct protocol_seat_response *r);
int protocol_seat_response_decode(const char *json, size_t len, struct protocol_seat_response *out,
				  struct protocol_error *err);

/* POST /v1/games/{id}/join request: {} or {"invite": CODE}. An empty body
 * counts as {}. */
struct protocol_join_request {
	char invite[PROTOCOL_INVITE_MAX + 1];
};
char *protocol_join_request_encode(const struct protocol_join_request *req);
int protocol_join_request_decode(const char *json, size_t len, struct protocol_join_request *out,
				 struct protocol_error *err);

/* POST /v1/games/{id}/moves request: {"ply": N, "move": TEXT}. */
#define PROTOCOL_MOVE_MAX 16
struct protocol_move_request {
	int64_t ply;
	char move[PROTOCOL_MOVE_MAX];
};
char *protocol_move_request_encode(const struct protocol_move_request *req);
int protocol_move_request_decode(const char *json, size_t len, struct protocol_move_request *out,
				 struct protocol_error *err);

/* PUT /v1/games/{id}/premoves request: {"ply": N, "moves": [UCI...]}, one
 * to PROTOCOL_PREMOVES_MAX moves. */
#define PROTOCOL_PREMOVES_MAX 8
struct protocol_premoves_request {
	int64_t ply;
	int n;
	char moves[PROTOCOL_PREMOVES_MAX][PROTOCOL_MOVE_MAX];
};
char *protocol_premoves_request_encode(const struct protocol_premoves_request *req);
int protocol_premoves_request_decode(const char *json, size_t len, struct protocol_premoves_request *out,
				     struct protocol_error *err);

/* The words of a game action request (below), decoded: its action and
 * its claim. _NONE: the member is absent; _UNKNOWN: a word of none. */
enum protocol_action {
	PROTOCOL_ACTION_NONE = 0,
	PROTOCOL_ACTION_OFFER,    /* "offer" */
	PROTOCOL_ACTION_ACCEPT,   /* "accept" */
	PROTOCOL_ACTION_DECLINE,  /* "decline" */
	PROTOCOL_ACTION_WITHDRAW, /* "withdraw" */
	PROTOCOL_ACTION_REQUEST,  /* "request" */
	PROTOCOL_ACTION_UNKNOWN
};
enum protocol_claim {
	PROTOCOL_CLAIM_NONE = 0,
	PROTOCOL_CLAIM_THREEFOLD,   /* "threefold" */
	PROTOCOL_CLAIM_FIFTY_MOVES, /* "fifty-moves" */
	PROTOCOL_CLAIM_TABLEBASE,   /* "tablebase" */
	PROTOCOL_CLAIM_DISCARD,     /* "discard" */
	PROTOCOL_CLAIM_WIN,         /* "win" */
	PROTOCOL_CLAIM_UNKNOWN
};
/* The wire word of an action or claim ("" for _NONE and _UNKNOWN). */
const char *protocol_action_str(enum protocol_action a);
const char *protocol_claim_str(enum protocol_claim c);

/* POST /v1/games/{id}/draw, /abort, /adjourn, /resume and /claim request:
 * {"ply": N, "action"?: WORD, "claim"?: WORD, "move"?: TEXT}; absent
 * members are "". ply is the ply the command is meant for (its retry
 * key). The encoder writes action_word's and claim_word's words (action
 * and claim as they are where the word is _NONE); the decoder also decodes
 * action and claim into action_word and claim_word. Which members and
 * words an endpoint takes is the game service's check. */
struct protocol_action_request {
	int64_t ply;
	char action[PROTOCOL_WORD_MAX];
	char claim[PROTOCOL_WORD_MAX];
	char move[PROTOCOL_MOVE_MAX];
	enum protocol_action action_word; /* decoded: action */
	enum protocol_claim claim_word;   /* decoded: claim */
};
char *protocol_action_request_encode(const struct protocol_action_request *req);
int protocol_action_request_decode(const char *json, size_t len, struct protocol_action_request *out,
				   struct protocol_error *err);

/* A body that must be absent, empty or {} (resign). */
int protocol_empty_request_decode(const char *json, size_t len, struct protocol_error *err);

/* GET /v1/health answer: {"status": "ok"|"draining", "version": VERSION,
 * "protocol": N, "parked": N, "now_ms": MS, "games": N, "evicted": N};
 * parked counts long-polls waiting right now, games the games in the
 * server's memory and evicted the idle ones it let go (0 when absent). */
struct protocol_health {
	char status[PROTOCOL_STATUS_MAX + 1];
	char version[32];
	int64_t protocol;
	int64_t parked;
	int64_t now_ms;
	int64_t games;
	int64_t evicted;
};
char *protocol_health_encode(const struct protocol_health *h);
int protocol_health_decode(const char *json, size_t len, struct protocol_health *out, struct protocol_error *err);

#endif
