/*
 * Civil dates in UTC (see tchess/calendar.h).
 *
 * The conversions count in years that begin on March 1st, so that the leap
 * day is the last day of its year and the length of every month before it
 * is fixed; 400 Gregorian years are exactly 146097 days, so a date is an
 * era of 400 years plus a day within it, and negative day numbers only
 * need floor division to pick the era.
 */
#include <stdio.h>

#include "tchess/calendar.h"

#define DAYS_PER_ERA 146097
/* Day number of 0000-03-01, the start of the era the arithmetic counts from. */
#define EPOCH_SHIFT 719468

/* a / b and a mod b rounded towards minus infinity, for b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

bool calendar_is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int calendar_days_in_month(int year, int month)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (month < 1 || month > 12)
		return 0;
	return month == 2 && calendar_is_leap(year) ? 29 : days[month - 1];
}

bool calendar_date_valid(const struct calendar_date *d)
{
	return d->month >= 1 && d->month <= 12 && d->day >= 1 && d->day <= calendar_days_in_month(d->year, d->month);
}

int64_t calendar_day_of(int64_t ms)
{
	return floor_div(ms, CALENDAR_DAY_MS);
}

/* Days from March 1st to the first of month m (1..12) in a March-based
 * year: March 0, April 31, ... February 337. The month lengths from March
 * run 31 30 31 30 31 31 30 31 30 31 31 (29), which (153 m' + 2) / 5 with m'
 * = months since March reproduces. */
static int64_t days_before_month(int m)
{
	int shifted = m >= 3 ? m - 3 : m + 9;
	return (153 * shifted + 2) / 5;
}

int64_t calendar_days_from_date(const struct calendar_date *d)
{
	int64_t y = (int64_t)d->year - (d->month <= 2);
	int64_t era = floor_div(y, 400);
	int64_t year_of_era = y - era * 400;                       /* 0..399 */
	int64_t day_of_year = days_before_month(d->month) + d->day - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
	return era * DAYS_PER_ERA + day_of_era - EPOCH_SHIFT;
}

void calendar_date_from_days(int64_t days, struct calendar_date *d)
{
	int64_t z = days + EPOCH_SHIFT;
	int64_t era = floor_div(z, DAYS_PER_ERA);
	int64_t day_of_era = z - era * DAYS_PER_ERA;               /* 0..146096 */
	/* Take out the leap days before this day: one per 4 years (1460
	 * days), none per century (36524), one back per era (146096 is the
	 * era's last day, a leap day). */
	int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
	int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
	int64_t shifted = (5 * day_of_year + 2) / 153;            /* months since March */
	d->day = (int)(day_of_year - (153 * shifted + 2) / 5 + 1);
	d->month = (int)(shifted < 10 ? shifted + 3 : shifted - 9);
	d->year = (int)(year_of_era + era * 400 + (d->month <= 2));
}

void calendar_date_of(int64_t ms, struct calendar_date *d)
{
	calendar_date_from_days(calendar_day_of(ms), d);
}

int64_t calendar_ms_from_date(const struct calendar_date *d)
{
	int64_t days = calendar_days_from_date(d);
	if (days > INT64_MAX / CALENDAR_DAY_MS)
		return INT64_MAX;
	if (days < INT64_MIN / CALENDAR_DAY_MS)
		return INT64_MIN;
	return days * CALENDAR_DAY_MS;
}

int64_t calendar_year_start(int year)
{
	struct calendar_date d = {year, 1, 1};
	return calendar_ms_from_date(&d);
}

size_t calendar_format_date(int64_t ms, char *buf, size_t size)
{
	struct calendar_date d;
	calendar_date_of(ms, &d);
	int len = snprintf(buf, size, "%04d-%02d-%02d", d.year, d.month, d.day);
	return len < 0 ? 0 : (size_t)len;
}
