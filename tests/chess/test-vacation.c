/*
 * Vacation tests: the civil calendar in UTC (known instants, leap years, a
 * day-by-day walk over four centuries each way as an independent oracle,
 * instants before 1970), the yearly allowance for registration in
 * January, March, December and full years, the booking rules (the day
 * before, whole UTC days exact to the millisecond, allowance per calendar
 * year across New Year, overlaps, cancel) and the hand-off to the clock.
 * Each rule test quotes the chessgamble text it checks.
 */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/calendar.h"
#include "tchess/clock.h"
#include "tchess/vacation.h"

#define S 1000LL
#define MIN (60 * S)
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)

/* 00:00 UTC of a date. */
static int64_t at(int y, int m, int d)
{
	struct calendar_date cd = {y, m, d};
	ck_assert(calendar_date_valid(&cd));
	return calendar_ms_from_date(&cd);
}

/* ---- calendar ---- */

/* Instants from an independent source (Python's datetime in UTC). */
START_TEST(test_calendar_known)
{
	static const struct {
		int y, m, d;
		int64_t ms;
	} known[] = {
		{1970, 1, 1, 0},
		{2024, 1, 1, 1704067200000LL},
		{2000, 3, 1, 951868800000LL},
		{2024, 2, 29, 1709164800000LL},
		{2025, 3, 1, 1740787200000LL},
		{2025, 6, 10, 1749513600000LL},
		{2100, 3, 1, 4107542400000LL},
		{1900, 3, 1, -2203891200000LL},
		{1600, 1, 1, -11676096000000LL},
		{1, 1, 1, -62135596800000LL},
		{9999, 12, 31, 253402214400000LL},
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		struct calendar_date d;
		ck_assert_int_eq(at(known[i].y, known[i].m, known[i].d), known[i].ms);
		/* Every instant of that day maps back to the date. */
		for (int64_t off = 0; off < DAY; off += DAY / 4 - 1) {
			calendar_date_of(known[i].ms + off, &d);
			ck_assert_int_eq(d.year, known[i].y);
			ck_assert_int_eq(d.month, known[i].m);
			ck_assert_int_eq(d.day, known[i].d);
		}
		calendar_date_of(known[i].ms + DAY - 1, &d);
		ck_assert_int_eq(d.day, known[i].d);
	}
	/* The last millisecond before 1970 is 1969-12-31. */
	struct calendar_date d;
	calendar_date_of(-1, &d);
	ck_assert(d.year == 1969 && d.month == 12 && d.day == 31);
	ck_assert_int_eq(calendar_day_of(-1), -1);
	ck_assert_int_eq(calendar_day_of(-DAY), -1);
	ck_assert_int_eq(calendar_day_of(-DAY - 1), -2);
	ck_assert_int_eq(calendar_day_of(DAY - 1), 0);

	char buf[CALENDAR_DATE_TEXT_MAX];
	ck_assert_uint_eq(calendar_format_date(1749513600000LL + 13 * HOUR, buf, sizeof buf), 10);
	ck_assert_str_eq(buf, "2025-06-10");
}
END_TEST

/* Leap years: every fourth, not centuries, but every fourth century. */
START_TEST(test_calendar_leap)
{
	ck_assert(calendar_is_leap(2024));
	ck_assert(calendar_is_leap(2000));
	ck_assert(calendar_is_leap(1600));
	ck_assert(!calendar_is_leap(1900));
	ck_assert(!calendar_is_leap(2100));
	ck_assert(!calendar_is_leap(2025));
	ck_assert_int_eq(calendar_days_in_month(2024, 2), 29);
	ck_assert_int_eq(calendar_days_in_month(2100, 2), 28);
	ck_assert_int_eq(calendar_days_in_month(2025, 4), 30);
	ck_assert_int_eq(calendar_days_in_month(2025, 12), 31);
	ck_assert_int_eq(calendar_days_in_month(2025, 13), 0);
	ck_assert_int_eq(calendar_days_in_month(2025, 0), 0);
	struct calendar_date d = {1900, 2, 29};
	ck_assert(!calendar_date_valid(&d));
	d.year = 2000;
	ck_assert(calendar_date_valid(&d));
	/* Year lengths from the year starts. */
	ck_assert_int_eq(calendar_year_start(2025) - calendar_year_start(2024), 366 * DAY);
	ck_assert_int_eq(calendar_year_start(2101) - calendar_year_start(2100), 365 * DAY);
	ck_assert_int_eq(calendar_year_start(2001) - calendar_year_start(2000), 366 * DAY);
	ck_assert_int_eq(calendar_year_start(1901) - calendar_year_start(1900), 365 * DAY);
}
END_TEST

/* An independent oracle: walk day by day from 1970-01-01 forward and
 * backward over 400 years (a whole Gregorian cycle) with the month lengths,
 * and check both conversions on every day. */
START_TEST(test_calendar_walk)
{
	for (int dir = 1; dir >= -1; dir -= 2) {
		struct calendar_date w = {1970, 1, 1}, d;
		int64_t day = 0;
		for (int i = 0; i < 146097 + 400; i++) {
			calendar_date_from_days(day, &d);
			ck_assert_msg(d.year == w.year && d.month == w.month && d.day == w.day,
				      "day %" PRId64 ": %d-%d-%d, walked %d-%d-%d", day, d.year, d.month, d.day,
				      w.year, w.month, w.day);
			ck_assert_int_eq(calendar_days_from_date(&w), day);
			day += dir;
			if (dir > 0) {
				if (++w.day > calendar_days_in_month(w.year, w.month)) {
					w.day = 1;
					if (++w.month > 12) {
						w.month = 1;
						w.year++;
					}
				}
			} else if (--w.day < 1) {
				if (--w.month < 1) {
					w.month = 12;
					w.year--;
				}
				w.day = calendar_days_in_month(w.year, w.month);
			}
		}
	}
}
END_TEST

/* Any int64_t instant has a date and converting back gives its day start. */
START_TEST(test_calendar_extremes)
{
	static const int64_t ms[] = {INT64_MIN, INT64_MIN + 1, -1, 0, INT64_MAX - 1, INT64_MAX};
	for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
		struct calendar_date d;
		calendar_date_of(ms[i], &d);
		ck_assert(calendar_date_valid(&d));
		ck_assert_int_eq(calendar_days_from_date(&d), calendar_day_of(ms[i]));
	}
}
END_TEST

/* ---- allowance ---- */

/* "Each player can take a certain number of days leave per calendar year.
 * For a full year of membership, players at chessgamble to 60 days
 * holiday. In the year of registration with the chessgamble are not
 * registered players per month 5 days less": 60 - 5 per full month of
 * the year before the registration month. */
START_TEST(test_allowance)
{
	/* January: no month missed. */
	ck_assert_int_eq(vacation_allowance(at(2025, 1, 15) + 10 * HOUR, 2025), 60);
	ck_assert_int_eq(vacation_allowance(at(2025, 1, 1), 2025), 60);
	/* March: January and February missed, 60 - 2 x 5. */
	ck_assert_int_eq(vacation_allowance(at(2025, 3, 10), 2025), 50);
	ck_assert_int_eq(vacation_allowance(at(2025, 3, 1), 2025), 50);
	/* The last millisecond of February is still February. */
	ck_assert_int_eq(vacation_allowance(at(2025, 3, 1) - 1, 2025), 55);
	ck_assert_int_eq(vacation_allowance(at(2024, 2, 29) + 23 * HOUR, 2024), 55);
	/* December: 11 months missed. */
	ck_assert_int_eq(vacation_allowance(at(2025, 12, 31) + 23 * HOUR, 2025), 5);
	/* Full years after registration; none before. */
	ck_assert_int_eq(vacation_allowance(at(2025, 12, 31), 2026), 60);
	ck_assert_int_eq(vacation_allowance(at(2025, 3, 10), 2030), 60);
	ck_assert_int_eq(vacation_allowance(at(2025, 3, 10), 2024), 0);
	/* A UTC day: 2025-01-01 00:30 UTC is January even where it is still
	 * December 31st locally. */
	ck_assert_int_eq(vacation_allowance(at(2025, 1, 1) + 30 * MIN, 2025), 60);
	ck_assert_int_eq(vacation_allowance(at(2025, 1, 1) - 30 * MIN, 2025), 60);
	ck_assert_int_eq(vacation_allowance(at(2025, 1, 1) - 30 * MIN, 2024), 5);
}
END_TEST

/* ---- booking ---- */

/* "A day starts at 0:00 UTC clock and ends at 24:00": a booking is whole
 * days, [start 00:00, start + days x 24 h), exact to the millisecond. */
START_TEST(test_make_whole_days)
{
	struct vacation v = {1, 2};
	struct tchess_error err;
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10), 3, &err), TCHESS_OK);
	ck_assert_int_eq(v.start_ms, 1749513600000LL);
	ck_assert_int_eq(v.end_ms, 1749772800000LL); /* 2025-06-13 00:00:00.000 UTC */
	ck_assert_int_eq(v.end_ms, at(2025, 6, 13));

	/* Leap day inside: 2024-02-28 for 2 days ends 2024-03-01, 2025-02-28
	 * for 2 days ends 2025-03-02. */
	ck_assert_int_eq(vacation_make(&v, at(2024, 2, 28), 2, &err), TCHESS_OK);
	ck_assert_int_eq(v.end_ms, at(2024, 3, 1));
	ck_assert_int_eq(vacation_make(&v, at(2025, 2, 28), 2, &err), TCHESS_OK);
	ck_assert_int_eq(v.end_ms, at(2025, 3, 2));
	/* The last day of a leap year. */
	ck_assert_int_eq(vacation_make(&v, at(2024, 12, 31), 1, &err), TCHESS_OK);
	ck_assert_int_eq(v.end_ms, calendar_year_start(2025));

	struct vacation keep = v;
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10) + 1, 3, &err), TCHESS_ERR_RANGE);
	ck_assert_ptr_nonnull(strstr(err.message, "2025-06-10"));
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10) - 1, 3, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10) + HOUR, 3, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10), 0, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10), -1, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, at(2025, 6, 10), VACATION_DAYS_MAX + 1, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, INT64_MAX - INT64_MAX % DAY, 1, &err), TCHESS_ERR_RANGE);
	ck_assert_int_eq(vacation_make(&v, INT64_MIN + 1, 1, NULL), TCHESS_ERR_RANGE);
	ck_assert(v.start_ms == keep.start_ms && v.end_ms == keep.end_ms);
}
END_TEST

/* "Holidays are the latest to enter the day before the scheduled start of
 * holiday": for a vacation from 2025-06-10 00:00 UTC the last moment to book
 * is 2025-06-09 23:59:59.999 UTC; on the 10th itself it is too late. */
START_TEST(test_book_day_before)
{
	struct vacation v = {0, 0};
	struct tchess_error err;
	int64_t reg = at(2024, 5, 1), start = at(2025, 6, 10);

	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start - 1, &err), TCHESS_OK);
	ck_assert_int_eq(v.start_ms, start);
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start - DAY, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start - 30 * DAY, &err), TCHESS_OK);

	v.start_ms = v.end_ms = 0;
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.message, "day before"));
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start + 8 * HOUR, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, reg, start + 2 * DAY, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(v.start_ms, 0);

	/* Not a member yet. */
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, start - DAY, start - 2 * DAY, &err),
			 TCHESS_ERR_NOT_ALLOWED);
	/* Registered today, booking for tomorrow. */
	ck_assert_int_eq(vacation_book(&v, start, 3, NULL, 0, start - 10 * HOUR, start - 9 * HOUR, &err), TCHESS_OK);
}
END_TEST

/* "For a full year of membership, players at chessgamble to 60 days
 * holiday. In the year of registration ... per month 5 days less": a member
 * since March 2025 has 50 days in 2025, counting every booking of that
 * year, past ones included. */
START_TEST(test_book_allowance)
{
	struct vacation booked[8], v;
	struct tchess_error err;
	size_t n = 0;
	int64_t reg = at(2025, 3, 10) + 15 * HOUR;
	int64_t now = at(2025, 4, 1) + 12 * HOUR;

	ck_assert_int_eq(vacation_days_left(reg, booked, n, 2025), 50);
	ck_assert_int_eq(vacation_book(&booked[n], at(2025, 7, 1), 30, booked, n, reg, now, &err), TCHESS_OK);
	n++;
	ck_assert_int_eq(vacation_days_in_year(booked, n, 2025), 30);
	ck_assert_int_eq(vacation_days_left(reg, booked, n, 2025), 20);
	/* 21 more days is one too many. */
	ck_assert_int_eq(vacation_book(&v, at(2025, 9, 1), 21, booked, n, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.message, "20 of 50"));
	ck_assert_int_eq(vacation_book(&booked[n], at(2025, 9, 1), 20, booked, n, reg, now, &err), TCHESS_OK);
	n++;
	ck_assert_int_eq(vacation_days_left(reg, booked, n, 2025), 0);
	/* After both are over they still count for 2025. */
	now = at(2025, 11, 1);
	ck_assert_int_eq(vacation_book(&v, at(2025, 12, 1), 1, booked, n, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	/* 2026 is a full year: 60 days, all in one go is fine, 61 is not. */
	ck_assert_int_eq(vacation_book(&v, at(2026, 1, 1), 61, booked, n, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(vacation_book(&v, at(2026, 1, 1), 60, booked, n, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(v.end_ms, at(2026, 3, 2));
}
END_TEST

/* "Each player can take a certain number of days leave per calendar year":
 * a booking over New Year counts its days in each year. 2025-12-30 for 4
 * days is 2 days of 2025 (30, 31) and 2 of 2026 (1, 2). */
START_TEST(test_book_across_new_year)
{
	struct vacation booked[4], v;
	struct tchess_error err;
	int64_t reg = at(2025, 12, 5); /* December: 5 days in 2025 */
	int64_t now = at(2025, 12, 6);

	ck_assert_int_eq(vacation_allowance(reg, 2025), 5);
	ck_assert_int_eq(vacation_book(&booked[0], at(2025, 12, 10), 4, NULL, 0, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_days_left(reg, booked, 1, 2025), 1);
	/* 2 days in 2025 with 1 left: refused, naming the year. */
	ck_assert_int_eq(vacation_book(&v, at(2025, 12, 30), 4, booked, 1, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.message, "2025"));
	ck_assert_int_eq(vacation_book(&booked[1], at(2025, 12, 31), 4, booked, 1, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_days_in_year(booked, 2, 2025), 5);
	ck_assert_int_eq(vacation_days_in_year(booked, 2, 2026), 3);
	ck_assert_int_eq(vacation_days_left(reg, booked, 2, 2026), 57);
	ck_assert_int_eq(vacation_days_left(reg, booked, 2, 2025), 0);
	/* The leap year 2028 has 366 days; a vacation on its last day counts
	 * there, one a day later in 2029. */
	ck_assert_int_eq(vacation_book(&booked[2], at(2028, 12, 31), 2, booked, 2, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_days_in_year(&booked[2], 1, 2028), 1);
	ck_assert_int_eq(vacation_days_in_year(&booked[2], 1, 2029), 1);
	ck_assert_int_eq(vacation_days_in_year(&booked[2], 1, 2027), 0);
}
END_TEST

/* Overlapping bookings are refused, adjacent ones accepted. */
START_TEST(test_book_overlap)
{
	struct vacation booked[4], v;
	struct tchess_error err;
	int64_t reg = at(2020, 1, 1), now = at(2025, 1, 2);
	ck_assert_int_eq(vacation_book(&booked[0], at(2025, 5, 10), 5, NULL, 0, reg, now, &err), TCHESS_OK);
	/* 10..14 booked. */
	ck_assert_int_eq(vacation_book(&v, at(2025, 5, 14), 2, booked, 1, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.message, "overlaps"));
	ck_assert_ptr_nonnull(strstr(err.message, "2025-05-10"));
	ck_assert_int_eq(vacation_book(&v, at(2025, 5, 8), 3, booked, 1, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(vacation_book(&v, at(2025, 5, 1), 30, booked, 1, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(vacation_book(&v, at(2025, 5, 11), 1, booked, 1, reg, now, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(vacation_book(&booked[1], at(2025, 5, 15), 2, booked, 1, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_book(&booked[2], at(2025, 5, 8), 2, booked, 2, reg, now, &err), TCHESS_OK);
	ck_assert_int_eq(vacation_days_in_year(booked, 3, 2025), 9);
}
END_TEST

START_TEST(test_check_malformed)
{
	struct vacation v;
	struct tchess_error err;
	int64_t reg = 0, now = at(2025, 1, 1);
	v.start_ms = at(2025, 2, 1) + 1, v.end_ms = at(2025, 2, 2);
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_ERR_RANGE);
	v.start_ms = at(2025, 2, 2), v.end_ms = at(2025, 2, 1);
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_ERR_RANGE);
	v.end_ms = v.start_ms;
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_ERR_RANGE);
	/* Day-aligned ends so far apart that end - start overflows. */
	v.start_ms = INT64_MIN - INT64_MIN % DAY;
	v.end_ms = INT64_MAX - INT64_MAX % DAY;
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_ERR_RANGE);
	v.start_ms = at(2025, 2, 1), v.end_ms = v.start_ms + DAY + 1;
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_ERR_RANGE);
	v.end_ms = v.start_ms + DAY;
	ck_assert_int_eq(vacation_check(&v, NULL, 0, reg, now, &err), TCHESS_OK);
}
END_TEST

/* A booking can be cancelled until it starts; "active" covers exactly
 * [start, end). */
START_TEST(test_cancel_and_active)
{
	struct vacation v;
	ck_assert_int_eq(vacation_make(&v, at(2025, 8, 1), 2, NULL), TCHESS_OK);
	ck_assert(vacation_can_cancel(&v, at(2025, 7, 31) + DAY - 1));
	ck_assert(!vacation_can_cancel(&v, at(2025, 8, 1)));
	ck_assert(!vacation_can_cancel(&v, at(2025, 9, 1)));
	ck_assert(!vacation_active(&v, 1, at(2025, 8, 1) - 1));
	ck_assert(vacation_active(&v, 1, at(2025, 8, 1)));
	ck_assert(vacation_active(&v, 1, at(2025, 8, 3) - 1));
	ck_assert(!vacation_active(&v, 1, at(2025, 8, 3)));
	ck_assert(!vacation_active(NULL, 0, at(2025, 8, 1)));
}
END_TEST

/* "While a player is on vacation, is not its reflection in all his
 * correspondence chess games": a booked interval goes straight to the
 * clock. White, 10 days per 10 moves, books 2 days; 5 days after the game
 * started only 3 are charged. */
START_TEST(test_booking_stops_clock)
{
	struct time_control tc;
	struct clock c;
	struct vacation v;
	struct clock_vacations vac = {{NULL, NULL}, {0, 0}};
	int64_t reg = at(2024, 1, 1), start = at(2025, 6, 1) + 9 * HOUR;

	ck_assert_int_eq(time_control_parse(&tc, "corr:10d/10", NULL), TCHESS_OK);
	clock_init(&c, &tc);
	ck_assert_int_eq(clock_start(&c, WHITE, start), 0);
	ck_assert_int_eq(vacation_book(&v, at(2025, 6, 3), 2, NULL, 0, reg, start, NULL), TCHESS_OK);
	vac.list[WHITE] = &v;
	vac.count[WHITE] = 1;
	ck_assert_int_eq(clock_remaining(&c, WHITE, start + 5 * DAY, &vac), 7 * DAY);
	ck_assert_int_eq(clock_remaining(&c, WHITE, start + 5 * DAY, NULL), 5 * DAY);
	/* Exactly at 00:00 UTC on the 3rd the clock stops, at 00:00 on the
	 * 5th it runs again. */
	int64_t before = clock_remaining(&c, WHITE, at(2025, 6, 3), &vac);
	ck_assert_int_eq(clock_remaining(&c, WHITE, at(2025, 6, 5), &vac), before);
	ck_assert_int_eq(clock_remaining(&c, WHITE, at(2025, 6, 5) + MIN, &vac), before - MIN);
}
END_TEST

static Suite *vacation_suite(void)
{
	Suite *s = suite_create("vacation");
	TCase *tc = tcase_create("calendar");
	/* The walk takes ~0.4 s of CPU, 12 s of wall time on a loaded
	 * 2-core machine under valgrind or ASan: Check's 4 s default is a
	 * guess about the machine, not about the code. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_calendar_known);
	tcase_add_test(tc, test_calendar_leap);
	tcase_add_test(tc, test_calendar_walk);
	tcase_add_test(tc, test_calendar_extremes);
	suite_add_tcase(s, tc);

	tc = tcase_create("rules");
	tcase_add_test(tc, test_allowance);
	tcase_add_test(tc, test_make_whole_days);
	tcase_add_test(tc, test_book_day_before);
	tcase_add_test(tc, test_book_allowance);
	tcase_add_test(tc, test_book_across_new_year);
	tcase_add_test(tc, test_book_overlap);
	tcase_add_test(tc, test_check_malformed);
	tcase_add_test(tc, test_cancel_and_active);
	tcase_add_test(tc, test_booking_stops_clock);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vacation_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
