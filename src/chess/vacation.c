/*
 * Vacation allowance and booking rules for correspondence chess (see
 * tchess/vacation.h for the rules and their interpretation).
 */
#include <limits.h>

#include "tchess/calendar.h"
#include "tchess/vacation.h"

int vacation_allowance(int64_t registered_ms, int year)
{
	struct calendar_date reg;
	calendar_date_of(registered_ms, &reg);
	if (year < reg.year)
		return 0;
	if (year > reg.year)
		return VACATION_DAYS_PER_YEAR;
	return VACATION_DAYS_PER_YEAR - VACATION_DAYS_LESS_PER_MONTH * (reg.month - 1);
}

/* The overlap of [a, b) and [c, d) in ms, 0 if none; computed without
 * overflow for any instants. */
static int64_t overlap_ms(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t lo = a > c ? a : c;
	int64_t hi = b < d ? b : d;
	if (hi <= lo)
		return 0;
	uint64_t len = (uint64_t)hi - (uint64_t)lo;
	return len > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)len;
}

/* Whole days of [start, end) in year, partial days rounded up. */
static int64_t days_in_year(int64_t start, int64_t end, int year)
{
	int64_t from = calendar_year_start(year);
	int64_t to = year == INT_MAX ? INT64_MAX : calendar_year_start(year + 1);
	int64_t ms = overlap_ms(start, end, from, to);
	return ms / CALENDAR_DAY_MS + (ms % CALENDAR_DAY_MS != 0);
}

int vacation_days_in_year(const struct vacation *booked, size_t n, int year)
{
	int64_t days = 0;
	for (size_t i = 0; i < n; i++)
		days += days_in_year(booked[i].start_ms, booked[i].end_ms, year);
	/* A year has at most 366 days, but overlapping bookings from a bad
	 * store could add up past that; keep the sum an int. */
	return days > 100000 ? 100000 : (int)days;
}

int vacation_days_left(int64_t registered_ms, const struct vacation *booked, size_t n, int year)
{
	int left = vacation_allowance(registered_ms, year) - vacation_days_in_year(booked, n, year);
	return left > 0 ? left : 0;
}

enum tchess_err vacation_make(struct vacation *out, int64_t start_ms, int days, struct tchess_error *err)
{
	char date[CALENDAR_DATE_TEXT_MAX];

	int64_t into_day = start_ms % CALENDAR_DAY_MS;
	if (into_day != 0) {
		calendar_format_date(start_ms, date, sizeof date);
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0,
					"a vacation starts at 00:00 UTC; this start is %lld ms into %s",
					(long long)(into_day < 0 ? into_day + CALENDAR_DAY_MS : into_day), date);
	}
	if (days < 1 || days > VACATION_DAYS_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "%d days: a vacation is 1..%d whole days", days,
					VACATION_DAYS_MAX);
	if (start_ms > INT64_MAX - (int64_t)days * CALENDAR_DAY_MS)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "the vacation ends beyond the calendar");
	out->start_ms = start_ms;
	out->end_ms = start_ms + (int64_t)days * CALENDAR_DAY_MS;
	return TCHESS_OK;
}

enum tchess_err vacation_check(const struct vacation *req, const struct vacation *booked, size_t n,
			       int64_t registered_ms, int64_t now_ms, struct tchess_error *err)
{
	char date[CALENDAR_DATE_TEXT_MAX], other[CALENDAR_DATE_TEXT_MAX];

	if (req->start_ms % CALENDAR_DAY_MS != 0 || req->end_ms % CALENDAR_DAY_MS != 0 ||
	    overlap_ms(req->start_ms, req->end_ms, req->start_ms, req->end_ms) / CALENDAR_DAY_MS < 1 ||
	    overlap_ms(req->start_ms, req->end_ms, req->start_ms, req->end_ms) / CALENDAR_DAY_MS > VACATION_DAYS_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "a vacation is 1..%d whole UTC days",
					VACATION_DAYS_MAX);
	calendar_format_date(req->start_ms, date, sizeof date);
	if (now_ms < registered_ms)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "not registered yet");
	if (calendar_day_of(req->start_ms) <= calendar_day_of(now_ms)) {
		calendar_format_date(now_ms, other, sizeof other);
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"a vacation from %s must be booked by the day before; it is %s", date, other);
	}
	for (size_t i = 0; i < n; i++) {
		if (overlap_ms(req->start_ms, req->end_ms, booked[i].start_ms, booked[i].end_ms) == 0)
			continue;
		calendar_format_date(booked[i].start_ms, other, sizeof other);
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"a vacation from %s overlaps the one booked from %s", date, other);
	}
	struct calendar_date first, last;
	calendar_date_of(req->start_ms, &first);
	calendar_date_of(req->end_ms - 1, &last);
	for (int year = first.year; year <= last.year; year++) {
		int64_t want = days_in_year(req->start_ms, req->end_ms, year);
		int used = vacation_days_in_year(booked, n, year);
		int allowed = vacation_allowance(registered_ms, year);
		if (used + want > allowed)
			return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
						"%lld days in %d would exceed the allowance: %d of %d days left",
						(long long)want, year, allowed > used ? allowed - used : 0, allowed);
	}
	return TCHESS_OK;
}

enum tchess_err vacation_book(struct vacation *out, int64_t start_ms, int days, const struct vacation *booked,
			      size_t n, int64_t registered_ms, int64_t now_ms, struct tchess_error *err)
{
	struct vacation v;
	enum tchess_err rc = vacation_make(&v, start_ms, days, err);
	if (rc != TCHESS_OK)
		return rc;
	rc = vacation_check(&v, booked, n, registered_ms, now_ms, err);
	if (rc != TCHESS_OK)
		return rc;
	*out = v;
	return TCHESS_OK;
}

bool vacation_can_cancel(const struct vacation *v, int64_t now_ms)
{
	return now_ms < v->start_ms;
}

bool vacation_active(const struct vacation *booked, size_t n, int64_t now_ms)
{
	for (size_t i = 0; i < n; i++)
		if (booked[i].start_ms <= now_ms && now_ms < booked[i].end_ms)
			return true;
	return false;
}
