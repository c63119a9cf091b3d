/*
 * Correspondence play on the client: deadlines as text, the player's own
 * games and vacation bookings parsed from the server's answers (see
 * corr.h). The parsers are lenient about members they do not know (the
 * server may add some) and strict about the types of those they read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corr.h"
#include "tchess/calendar.h"
#include "tchess/protocol-tournament.h"
#include "util/xalloc.h"

#define CORR_MINUTE_MS ((int64_t)60 * 1000)
#define CORR_HOUR_MS (60 * CORR_MINUTE_MS)
#define CORR_DAY_MS (24 * CORR_HOUR_MS)

size_t corr_span_text(int64_t ms, char *buf, size_t size)
{
	int n;
	if (ms <= 0)
		n = snprintf(buf, size, "0m");
	else if (ms >= CORR_DAY_MS)
		n = snprintf(buf, size, "%" PRId64 "d %" PRId64 "h", ms / CORR_DAY_MS, ms % CORR_DAY_MS / CORR_HOUR_MS);
	else if (ms >= CORR_HOUR_MS)
		n = snprintf(buf, size, "%" PRId64 "h %" PRId64 "m", ms / CORR_HOUR_MS,
			     ms % CORR_HOUR_MS / CORR_MINUTE_MS);
	else if (ms >= CORR_MINUTE_MS)
		n = snprintf(buf, size, "%" PRId64 "m", ms / CORR_MINUTE_MS);
	else
		n = snprintf(buf, size, "<1m");
	return n < 0 ? 0 : (size_t)n;
}

/* "2026-12-09 21:47" (full) or "12-09 21:47". */
static void corr_stamp(int64_t ms, bool full, char *buf, size_t size)
{
	struct calendar_date d;
	calendar_date_of(ms, &d);
	int64_t in_day = ms - calendar_day_of(ms) * CORR_DAY_MS;
	int hh = (int)(in_day / CORR_HOUR_MS), mm = (int)(in_day % CORR_HOUR_MS / CORR_MINUTE_MS);
	if (full)
		snprintf(buf, size, "%04d-%02d-%02d %02d:%02d", d.year, d.month, d.day, hh, mm);
	else
		snprintf(buf, size, "%02d-%02d %02d:%02d", d.month, d.day, hh, mm);
}

size_t corr_deadline_text(int64_t deadline_ms, int64_t now_ms, int width, char *buf, size_t size)
{
	char full[24], part[16], span[24], cand[4][96];
	bool over = deadline_ms <= now_ms;
	corr_stamp(deadline_ms, true, full, sizeof full);
	corr_stamp(deadline_ms, false, part, sizeof part);
	corr_span_text(deadline_ms - now_ms, span, sizeof span);
	if (over) {
		snprintf(cand[0], sizeof cand[0], "overdue since %s UTC", full);
		snprintf(cand[1], sizeof cand[1], "overdue since %s UTC", part);
		snprintf(cand[2], sizeof cand[2], "overdue");
		snprintf(cand[3], sizeof cand[3], "overdue");
	} else {
		snprintf(cand[0], sizeof cand[0], "due %s UTC (in %s)", full, span);
		snprintf(cand[1], sizeof cand[1], "%s UTC, in %s", full, span);
		snprintf(cand[2], sizeof cand[2], "%s UTC in %s", part, span);
		snprintf(cand[3], sizeof cand[3], "in %s", span);
	}
	int pick = 3;
	for (int i = 0; i < 4; i++) {
		if ((int)strlen(cand[i]) <= width) {
			pick = i;
			break;
		}
	}
	int n = snprintf(buf, size, "%s", cand[pick]);
	return n < 0 ? 0 : (size_t)n;
}

bool corr_tc_is_correspondence(const char *tc)
{
	return !strncmp(tc, "corr:", 5);
}

const struct protocol_my_game *corr_my_games_find(const struct protocol_my_games *g, const char *id)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->games[i].id, id))
			return &g->games[i];
	return NULL;
}

/* ---- vacations ---- */

size_t corr_vacation_line(const struct protocol_vacation *v, char *buf, size_t size)
{
	char until[16];
	/* end_ms is exclusive: the last day is the one before it. */
	calendar_format_date(v->end_ms - CORR_DAY_MS, until, sizeof until);
	int n = snprintf(buf, size, "#%-4" PRId64 " %s  %3" PRId64 " day%s  (to %s)%s", v->id, v->start, v->days,
			 v->days == 1 ? " " : "s", until,
			 v->active ? "  on now" : v->cancellable ? "  cancellable" : "");
	return n < 0 ? 0 : (size_t)n;
}

int corr_vacation_request(const char *date, const char *days, char **body, char *err, size_t errsize)
{
	struct calendar_date d = { 0, 0, 0 };
	char tail;
	*body = NULL;
	if (strlen(date) != 10 || sscanf(date, "%4d-%2d-%2d%c", &d.year, &d.month, &d.day, &tail) != 3 ||
	    date[4] != '-' || date[7] != '-' || !calendar_date_valid(&d)) {
		snprintf(err, errsize, "'%s' is not a date: write YYYY-MM-DD (a day in UTC)", date);
		return -1;
	}
	char *end;
	long n = strtol(days, &end, 10);
	if (!*days || *end || n < 1 || n > 120) {
		snprintf(err, errsize, "'%s' is not a number of days from 1 to 120", days);
		return -1;
	}
	struct protocol_vacation_request req;
	memset(&req, 0, sizeof req);
	snprintf(req.start, sizeof req.start, "%s", date);
	req.days = n;
	*body = protocol_vacation_request_encode(&req);
	return 0;
}
