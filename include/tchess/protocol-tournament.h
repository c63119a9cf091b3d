/*
 * The wire form of tournaments, credits and vacations (tchess-protocol(7),
 * TOURNAMENTS and CORRESPONDENCE): strict decoders for the requests, and
 * the server's side of the answers: its tournament turned into the
 * struct protocol_tournament_view of tchess/protocol-answers.h, with
 * standings, crosstable and prizes read from tchess/tournament.h so
 * server and client show the same figures, and written by the tables the
 * client reads with (protocol-answers.c), as are the vacations and the
 * player's games. Conventions as in tchess/protocol.h.
 */
#ifndef TCHESS_PROTOCOL_TOURNAMENT_H
#define TCHESS_PROTOCOL_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/protocol.h"
#include "tchess/tournament.h"

#define PROTOCOL_KIND_MAX 24
#define PROTOCOL_DATE_MAX 16

/* POST /v1/tournaments: {"kind": "round-robin"|"double-round-robin",
 * "players": N, "tc": TC, "ruleset"?, "stake"?, "payout_percent"?,
 * "places"?: [PERCENT...]}. Absent: ruleset "", stake 0,
 * payout_percent -1, n_places 0 (the server fills the defaults). */
struct protocol_tournament_create_request {
	char kind[PROTOCOL_KIND_MAX];
	int64_t players;
	char tc[PROTOCOL_TC_MAX];
	char ruleset[PROTOCOL_WORD_MAX];
	int64_t stake;
	int64_t payout_percent;
	size_t n_places;
	int64_t places[TOURNAMENT_PRIZE_PLACES_MAX];
};
char *protocol_tournament_create_request_encode(const struct protocol_tournament_create_request *req);
int protocol_tournament_create_request_decode(const char *json, size_t len,
					      struct protocol_tournament_create_request *out,
					      struct protocol_error *err);
/* "round-robin" / "double-round-robin" and back; false if unknown. */
const char *protocol_tournament_kind_str(enum tournament_kind kind);
bool protocol_tournament_kind_parse(const char *s, enum tournament_kind *out);

/* POST /v1/me/vacations: {"start": "YYYY-MM-DD", "days": N}. */
struct protocol_vacation_request {
	char start[PROTOCOL_DATE_MAX];
	int64_t days;
};
char *protocol_vacation_request_encode(const struct protocol_vacation_request *req);
int protocol_vacation_request_decode(const char *json, size_t len, struct protocol_vacation_request *out,
				     struct protocol_error *err);

/* A tournament as the server shows it. */
struct protocol_tournament_entrant {
	int64_t player;
	char name[PROTOCOL_NAME_MAX + 1];
};

struct protocol_tournament {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	enum tournament_kind kind;
	int players;
	char tc[PROTOCOL_TC_MAX];
	char ruleset[2 * PROTOCOL_WORD_MAX];
	struct tournament_prizes prizes;
	char status[PROTOCOL_STATUS_MAX + 1]; /* "open", "running", "finished" */
	int64_t creator;
	int64_t created_ms, started_ms, finished_ms; /* 0: not yet */
	int n_entrants;                              /* registration order */
	struct protocol_tournament_entrant entrants[TOURNAMENT_PLAYERS_MAX];
	const struct tournament *t;                  /* NULL until it starts */
	uint64_t seed;                               /* the tables' seed, when t */
	const char (*game_ids)[PROTOCOL_GAME_ID_MAX + 1]; /* t->n_games of them, when t */
	int64_t viewer;                              /* the asking player, 0: none */
	int64_t viewer_credits;                      /* their balance, when viewer */
};

/* Which members protocol_tournament_encode writes besides the summary. */
enum {
	PROTOCOL_TOURNAMENT_ENTRANTS = 1,
	PROTOCOL_TOURNAMENT_STANDINGS = 2,
	PROTOCOL_TOURNAMENT_CROSSTABLE = 4,
	PROTOCOL_TOURNAMENT_GAMES = 8,
	PROTOCOL_TOURNAMENT_ALL = 15
};

/* The tournament's JSON with the parts asked for; games_of (a player id, 0
 * for all) limits "games" to that player's. */
char *protocol_tournament_encode(const struct protocol_tournament *t, unsigned parts, int64_t games_of);
/* GET /v1/tournaments: {"tournaments": [summary...]}. */
char *protocol_tournament_list_encode(const struct protocol_tournament *ts, size_t n);
/* The tournament as the client reads it (struct protocol_tournament_view
 * of protocol-answers.h, whose tables write it): the parts asked for,
 * games_of as for protocol_tournament_encode. */
struct protocol_tournament_view;
void protocol_tournament_view_of(const struct protocol_tournament *t, unsigned parts, int64_t games_of,
				 struct protocol_tournament_view *v);

/* A booking of GET/POST /v1/me/vacations. */
struct protocol_vacation {
	int64_t id;
	char start[PROTOCOL_DATE_MAX]; /* "YYYY-MM-DD" */
	int64_t days;
	int64_t start_ms, end_ms;      /* [start_ms, end_ms), 00:00 UTC each */
	bool active;                   /* running now */
	bool cancellable;              /* not started yet */
};
/* A calendar year's allowance: {"year", "days", "booked", "left"}. */
struct protocol_allowance {
	int64_t year, days, booked, left;
};
char *protocol_vacation_encode(const struct protocol_vacation *v);
/* {"vacations": [...], "allowance": [...], "on_vacation": BOOL}. */
char *protocol_vacations_encode(const struct protocol_vacation *v, size_t n, const struct protocol_allowance *a,
				size_t n_allowance, bool on_vacation);

/* One of the player's games in GET /v1/me/games. */
struct protocol_my_game {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char status[PROTOCOL_STATUS_MAX + 1];
	char tc[PROTOCOL_TC_MAX];
	char color[PROTOCOL_WORD_MAX];                 /* the player's */
	int64_t opponent;                              /* player id, 0 for an engine or a free seat */
	char opponent_name[PROTOCOL_NAME_MAX + 1];     /* "" when none */
	int64_t ply;
	bool your_move;
	int64_t deadline_ms;                           /* the running side's flag instant, INT64_MAX: none */
	char tournament[PROTOCOL_GAME_ID_MAX + 1];     /* "" outside tournaments */
};
/* {"games": [...], "now_ms": MS}. */
char *protocol_my_games_encode(const struct protocol_my_game *g, size_t n, int64_t now_ms);

/* Test-only POST /v1/test/clock: {"advance_ms": N}, N >= 0. */
int protocol_test_clock_request_decode(const char *json, size_t len, int64_t *advance_ms, struct protocol_error *err);

#endif
