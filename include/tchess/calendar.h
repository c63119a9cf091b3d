/*
 * The proleptic Gregorian calendar in UTC, from integer milliseconds since
 * 1970-01-01 00:00 UTC. Vacations are booked in whole UTC days ("A day
 * starts at 0:00 UTC clock and ends at 24:00") and counted per calendar
 * year, and the client shows deadlines as dates, so the rules core needs
 * civil dates without time.h: gmtime() is not reentrant everywhere, its
 * time_t may be 32 bits, and localtime() would bring in the machine's zone.
 *
 * Every int64_t millisecond value has a date (years stay within an int);
 * instants before 1970 are negative and round down to their day, so day
 * 0 is 1970-01-01 and day -1 is 1969-12-31. Leap years: every fourth year,
 * except centuries not divisible by 400 (2000 is one, 1900 and 2100 are not).
 */
#ifndef TCHESS_CALENDAR_H
#define TCHESS_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CALENDAR_DAY_MS (24 * 3600 * 1000LL)
/* Room for "YYYY-MM-DD" (years 0..9999), with its NUL; wider years grow it. */
#define CALENDAR_DATE_TEXT_MAX 24

struct calendar_date {
	int year;
	int month;  /* 1..12 */
	int day;    /* 1..31 */
};

bool calendar_is_leap(int year);

/* 28..31; 0 for a month outside 1..12. */
int calendar_days_in_month(int year, int month);

/* True if d names a day that exists. */
bool calendar_date_valid(const struct calendar_date *d);

/* The day number of the instant: days since 1970-01-01, rounded down. */
int64_t calendar_day_of(int64_t ms);

/* The day number of a valid date; for an invalid one the result is that of
 * the day counted on from the month's start (2023-02-29 is 2023-03-01). */
int64_t calendar_days_from_date(const struct calendar_date *d);

/* The date of a day number. */
void calendar_date_from_days(int64_t days, struct calendar_date *d);

/* The date of the instant's UTC day. */
void calendar_date_of(int64_t ms, struct calendar_date *d);

/* 00:00 UTC of the date, in ms; saturates at INT64_MIN/INT64_MAX for dates
 * outside the int64_t range. */
int64_t calendar_ms_from_date(const struct calendar_date *d);

/* 00:00 UTC of January 1st of year, like calendar_ms_from_date(). */
int64_t calendar_year_start(int year);

/* Writes the instant's date as "YYYY-MM-DD" like snprintf. */
size_t calendar_format_date(int64_t ms, char *buf, size_t size);

#endif
