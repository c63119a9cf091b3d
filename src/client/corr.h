/*
 * Correspondence play on the client, free of curses and of curl: how an
 * absolute deadline reads ("2026-12-09 21:47 UTC, in 2d 3h"), the
 * player's own games of GET /v1/me/games (whose move, which deadline) and
 * the vacation bookings of GET/POST /v1/me/vacations, parsed from the
 * server's JSON into plain structs the commands print.
 *
 * Times are integer milliseconds since the epoch, UTC; "now" is always
 * passed in (the server's now_ms, or a reading anchored to it), never read
 * here, so the tests need no clock.
 */
#ifndef TCHESS_CLIENT_CORR_H
#define TCHESS_CLIENT_CORR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/protocol.h"

#define CORR_TEXT_MAX 64
#define CORR_ERR_MAX 200

/* Writes "2d 3h" (a day or more), "5h 12m" (an hour or more), "12m" or
 * "<1m" for ms ahead; "0m" for none left (ms <= 0). Returns the length. */
size_t corr_span_text(int64_t ms, char *buf, size_t size);

/* Writes the deadline as the longest of these forms that fits in width
 * columns:
 *   "due 2026-12-09 21:47 UTC (in 2d 3h)"
 *   "2026-12-09 21:47 UTC, in 2d 3h"
 *   "12-09 21:47 UTC in 2d 3h"
 *   "in 2d 3h"
 * A deadline at or before now reads "overdue since ..." in the first two
 * forms, "overdue" in the others. Minutes are truncated, as the server
 * charges correspondence time in whole minutes. Returns the length. */
size_t corr_deadline_text(int64_t deadline_ms, int64_t now_ms, int width, char *buf, size_t size);

/* One of GET /v1/me/games. deadline_ms is INT64_MAX when no clock runs. */
struct corr_my_game {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char status[PROTOCOL_STATUS_MAX + 1];
	char tc[PROTOCOL_TC_MAX];
	char color[8];
	char opponent[PROTOCOL_NAME_MAX + 1]; /* "" for none or an engine */
	int64_t ply;
	bool your_move;
	int64_t deadline_ms;
	char tournament[PROTOCOL_GAME_ID_MAX + 1]; /* "" outside tournaments */
};

struct corr_my_games {
	struct corr_my_game *games; /* malloc'd */
	size_t n;
	int64_t now_ms;
};

/* Parses the answer of GET /v1/me/games. Returns 0, or -1 with a message
 * in err (out is then empty). corr_my_games_fini frees. */
int corr_my_games_parse(const char *json, size_t len, struct corr_my_games *out, char *err, size_t errsize);
void corr_my_games_fini(struct corr_my_games *g);
/* The entry for game id, or NULL. */
const struct corr_my_game *corr_my_games_find(const struct corr_my_games *g, const char *id);
/* Whether tc is a correspondence time control ("corr:..."). */
bool corr_tc_is_correspondence(const char *tc);

/* A booking of /v1/me/vacations. */
struct corr_vacation {
	int64_t id;
	char start[16]; /* "YYYY-MM-DD" */
	int64_t days;
	int64_t start_ms, end_ms;
	bool active, cancellable;
};

struct corr_allowance {
	int64_t year, days, booked, left;
};

#define CORR_VACATIONS_MAX 64
#define CORR_ALLOWANCES_MAX 4

struct corr_vacations {
	struct corr_vacation v[CORR_VACATIONS_MAX];
	size_t n;
	struct corr_allowance allowance[CORR_ALLOWANCES_MAX];
	size_t n_allowance;
	bool on_vacation;
};

/* Parses GET /v1/me/vacations. Returns 0 or -1 with a message. */
int corr_vacations_parse(const char *json, size_t len, struct corr_vacations *out, char *err, size_t errsize);
/* Parses one booking (the answer of POST /v1/me/vacations). */
int corr_vacation_parse(const char *json, size_t len, struct corr_vacation *out, char *err, size_t errsize);
/* One line for a booking: "#3  2026-12-10  2 days  (until 2026-12-12)
 * cancellable". Returns the length. */
size_t corr_vacation_line(const struct corr_vacation *v, char *buf, size_t size);

/* Checks the arguments of "tchess vacation book DATE DAYS": DATE a valid
 * YYYY-MM-DD, DAYS 1 to 120. Fills req's JSON body (malloc'd) into *body.
 * Returns 0, or -1 with a message. The rules beyond the form (the day
 * before, the allowance, overlaps) are the server's to judge. */
int corr_vacation_request(const char *date, const char *days, char **body, char *err, size_t errsize);

#endif
