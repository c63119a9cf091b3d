/*
 * Correspondence play on the client, free of curses and of curl: how an
 * absolute deadline reads ("2026-12-09 21:47 UTC, in 2d 3h"), the
 * player's own games of GET /v1/me/games (whose move, which deadline) and
 * the vacation bookings of GET/POST /v1/me/vacations, as
 * protocol-answers.h decodes them, in the lines the commands print.
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

#include "tchess/protocol-answers.h"
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

/* The entry for game id, or NULL. */
const struct protocol_my_game *corr_my_games_find(const struct protocol_my_games *g, const char *id);
/* Whether tc is a correspondence time control ("corr:..."). */
bool corr_tc_is_correspondence(const char *tc);

/* One line for a booking: "#3  2026-12-10  2 days  (until 2026-12-12)
 * cancellable". Returns the length. */
size_t corr_vacation_line(const struct protocol_vacation *v, char *buf, size_t size);

/* Checks the arguments of "tchess vacation book DATE DAYS": DATE a valid
 * YYYY-MM-DD, DAYS 1 to 120. Fills req's JSON body (malloc'd) into *body.
 * Returns 0, or -1 with a message. The rules beyond the form (the day
 * before, the allowance, overlaps) are the server's to judge. */
int corr_vacation_request(const char *date, const char *days, char **body, char *err, size_t errsize);

#endif
