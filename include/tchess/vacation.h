/*
 * Vacations for correspondence chess (chessgamble article 7): the yearly
 * allowance and the booking rules. The result is the struct vacation
 * intervals of tchess/clock.h, which stop the player's correspondence
 * clocks in all their games; this file decides only which intervals may be
 * booked. Pure: the caller passes the player's registration instant, the
 * bookings it stores and the current instant, all in ms since 1970-01-01
 * 00:00 UTC.
 *
 * Days. "A day starts at 0:00 UTC clock and ends at 24:00": a vacation is
 * whole UTC days, [start 00:00, end 00:00) with end = start + days x 24 h,
 * exact to the millisecond.
 *
 * Allowance. "Each player can take a certain number of days leave per
 * calendar year. For a full year of membership, players at chessgamble to
 * 60 days holiday. In the year of registration with the chessgamble are not
 * registered players per month 5 days less." Interpretation: in the calendar
 * year of registration the allowance is 60 - 5 x (full calendar months of
 * that year before the registration month); the registration month counts
 * as a month of membership. Registered in January: 60; March: 60 - 2 x 5 =
 * 50; December: 5. Every later year: 60. Years before registration: 0.
 *
 * Counting. A booking's days count in the calendar year they fall in, so a
 * vacation from December 30 to January 2 takes 2 days of one year's
 * allowance and 2 of the next. Every booking counts, past, running or
 * future; a cancelled one (see below) no longer exists and gives its days
 * back.
 *
 * Booking. "Holidays are the latest to enter the day before the scheduled
 * start of holiday": the start must be 00:00 UTC of a day after the day of
 * booking (booking on the 9th for the 10th is fine, on the 10th for the 10th
 * is refused). A booking that overlaps an existing one is refused, not
 * merged: merging would count the shared days twice or silently change what
 * the player asked for; adjacent bookings are fine (the clock treats them as
 * one stretch). A booking may be cancelled while it has not started; a
 * running or past one has already stopped clocks and stays.
 */
#ifndef TCHESS_VACATION_H
#define TCHESS_VACATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/clock.h"
#include "tchess/error.h"

#define VACATION_DAYS_PER_YEAR 60
#define VACATION_DAYS_LESS_PER_MONTH 5
/* The longest single booking: a full year's allowance on each side of New
 * Year. Longer requests cannot fit in any allowance. */
#define VACATION_DAYS_MAX (2 * VACATION_DAYS_PER_YEAR)

/* The allowance in days for calendar year for a player registered at
 * registered_ms, by the interpretation above. */
int vacation_allowance(int64_t registered_ms, int year);

/* Days of the n bookings (n may be 0, booked NULL then) that fall in
 * calendar year; a partial day counts as a whole one. */
int vacation_days_in_year(const struct vacation *booked, size_t n, int year);

/* The days left in year: the allowance minus the booked days, never below 0. */
int vacation_days_left(int64_t registered_ms, const struct vacation *booked, size_t n, int year);

/* Builds the interval of days whole days (1..VACATION_DAYS_MAX) from
 * start_ms, which must be 00:00 UTC. Returns TCHESS_ERR_RANGE otherwise,
 * leaving *out unchanged. */
enum tchess_err vacation_make(struct vacation *out, int64_t start_ms, int days, struct tchess_error *err);

/* Whether request (as from vacation_make) may be booked at now_ms next to
 * the n existing bookings of a player registered at registered_ms: returns
 * TCHESS_OK, TCHESS_ERR_RANGE for a malformed request, or
 * TCHESS_ERR_NOT_ALLOWED with the rule it breaks in err's message (not yet
 * registered, too late, overlap, over the allowance of a year). */
enum tchess_err vacation_check(const struct vacation *request, const struct vacation *booked, size_t n,
			       int64_t registered_ms, int64_t now_ms, struct tchess_error *err);

/* vacation_make() then vacation_check(): on TCHESS_OK *out is the interval
 * to store and to hand to the clocks. */
enum tchess_err vacation_book(struct vacation *out, int64_t start_ms, int days, const struct vacation *booked,
			      size_t n, int64_t registered_ms, int64_t now_ms, struct tchess_error *err);

/* True if v may be cancelled at now_ms: it has not started yet. */
bool vacation_can_cancel(const struct vacation *v, int64_t now_ms);

/* True if now_ms falls in one of the n bookings: the player is on vacation. */
bool vacation_active(const struct vacation *booked, size_t n, int64_t now_ms);

#endif
