/*
 * Clock tests: each time-control rule of the seed documents with exact
 * millisecond arithmetic (Fischer, periods, Bronstein and US delay,
 * correspondence with minute rounding and vacations, pause and resume), the
 * speed classes, the text form (round trips and rejected texts), and a
 * randomized run checking the invariants (never negative, never rising while
 * running, the flag falls exactly at the announced expiry).
 */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/clock.h"
#include "testdata.h"

#define S 1000LL
#define MIN (60 * S)
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)

static struct time_control tc_of(const char *text)
{
	struct time_control tc;
	struct tchess_error err;
	ck_assert_msg(time_control_parse(&tc, text, &err) == TCHESS_OK, "'%s': %s", text, err.message);
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_OK);
	return tc;
}

static void clock_of(struct clock *c, const char *text)
{
	struct time_control tc = tc_of(text);
	clock_init(c, &tc);
}

/* side moves think ms after *now; the move must not lose on time. */
static void play(struct clock *c, enum color side, int64_t *now, int64_t think, const struct clock_vacations *vac)
{
	bool flagged = true;
	*now += think;
	ck_assert_int_eq(clock_press(c, side, *now, vac, &flagged), 0);
	ck_assert_msg(!flagged, "side %d flagged at %" PRId64, side, *now);
}

/* ---- Fischer ---- */

/* Polychess: "Rapid games are 15+10: fifteen minutes per side, plus ten
 * seconds after each move. Clocks start when both players connect." */
START_TEST(test_fischer_15_10)
{
	struct clock c;
	int64_t now = 5000;
	clock_of(&c, "15+10");
	ck_assert_int_eq(c.tc.kind, TC_FISCHER);
	/* Not started: nothing runs however long the players take to connect. */
	ck_assert_int_eq(clock_remaining(&c, WHITE, 999999999, NULL), 900000);
	ck_assert(clock_expiry(&c, NULL) == INT64_MAX);

	ck_assert_int_eq(clock_start(&c, WHITE, now), 0);
	ck_assert_int_eq(clock_start(&c, BLACK, now), -1);
	ck_assert_int_eq(clock_expiry(&c, NULL), 905000);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now + 1234, NULL), 900000 - 1234);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now + 1234, NULL), 900000);

	play(&c, WHITE, &now, 12345, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 900000 - 12345 + 10000);
	ck_assert_int_eq(c.running, BLACK);
	/* Pressing out of turn is refused and changes nothing. */
	ck_assert_int_eq(clock_press(&c, WHITE, now + 1, NULL, NULL), -1);

	play(&c, BLACK, &now, 30000, NULL);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 880000);
	play(&c, WHITE, &now, 1, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 897655 - 1 + 10000);
	play(&c, BLACK, &now, 200000, NULL);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 880000 - 200000 + 10000);
	ck_assert_int_eq(c.moves[WHITE], 2);
	ck_assert_int_eq(c.moves[BLACK], 2);
	ck_assert_int_eq(clock_expiry(&c, NULL), now + 907654);
}
END_TEST

/* Polychess: "A move arriving at or after expiry loses on time." */
START_TEST(test_flag_at_expiry)
{
	struct clock c;
	bool flagged;

	/* 1 ms before expiry: still in time, and the increment is added. */
	clock_of(&c, "15+10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 899999, NULL), 1);
	ck_assert_int_eq(clock_check_flag(&c, 899999, NULL), CLOCK_NOBODY);
	ck_assert_int_eq(clock_press(&c, WHITE, 899999, NULL, &flagged), 0);
	ck_assert(!flagged);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 899999, NULL), 10001);

	/* At expiry: remaining exactly 0 is a fallen flag, nothing added. */
	clock_of(&c, "15+10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_expiry(&c, NULL), 900000);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 900000, NULL), 0);
	ck_assert_int_eq(clock_press(&c, WHITE, 900000, NULL, &flagged), 0);
	ck_assert(flagged);
	ck_assert_int_eq(c.flagged, WHITE);
	ck_assert_int_eq(c.running, CLOCK_NOBODY);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 2000000, NULL), 0);
	ck_assert_int_eq(clock_remaining(&c, BLACK, 2000000, NULL), 900000);
	ck_assert_int_eq(c.moves[WHITE], 0);
	/* The game is over for the clock. */
	ck_assert_int_eq(clock_press(&c, WHITE, 900001, NULL, NULL), -1);
	ck_assert_int_eq(clock_press(&c, BLACK, 900001, NULL, NULL), -1);
	ck_assert_int_eq(clock_start(&c, BLACK, 900001), -1);
	ck_assert(clock_expiry(&c, NULL) == INT64_MAX);

	/* After expiry, and the server's timer deciding by itself. */
	clock_of(&c, "15+10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_check_flag(&c, 900000, NULL), WHITE);
	ck_assert_int_eq(c.flagged, WHITE);
	clock_of(&c, "15+10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_press(&c, WHITE, 5000000, NULL, &flagged), 0);
	ck_assert(flagged);
}
END_TEST

/* Yourpot-style start: the clock starts on the first move, which is free
 * and still earns its increment ("The increment time is added to the
 * initial time after every move"). */
START_TEST(test_first_move_starts_clock)
{
	struct clock c;
	int64_t now = 100;
	clock_of(&c, "3+2");
	play(&c, WHITE, &now, 50000, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 182000);
	ck_assert_int_eq(c.running, BLACK);
	play(&c, BLACK, &now, 4000, NULL);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 178000);
}
END_TEST

/* ---- periods ---- */

/* FIDE classical "90 minutes for the first 40 moves followed by 30 minutes
 * for the rest of the game with 30 seconds per move from move one":
 * the period's time is added after move 40, unused time carries over. */
START_TEST(test_periods_40_90_30)
{
	struct clock c;
	int64_t now = 0;
	clock_of(&c, "40/90+30:30+30");
	clock_start(&c, WHITE, now);
	for (int k = 1; k <= 40; k++) {
		play(&c, WHITE, &now, 100 * S, NULL);
		int64_t want = 90 * MIN - k * 70 * S + (k == 40 ? 30 * MIN : 0);
		ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), want);
		play(&c, BLACK, &now, 1 * S, NULL);
	}
	ck_assert_int_eq(c.period[WHITE], 1);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 4400000);
	/* "the rest of the game": no more time after moves 80 or 120. */
	for (int k = 41; k <= 130; k++) {
		play(&c, WHITE, &now, 31 * S, NULL);
		play(&c, BLACK, &now, 1 * S, NULL);
	}
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 4400000 - 90 * S);
	/* Black ran 1 s a move plus 30 s increments, and got its 30 min. */
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 90 * MIN + 130 * 29 * S + 30 * MIN);
}
END_TEST

/* A last period with a move count repeats: "40/90" gives 90 minutes more
 * after moves 40, 80... And several periods: "40/120:20/60:30" adds 60
 * minutes after move 40, 30 after move 60, nothing later. */
START_TEST(test_periods_repeat_and_multi)
{
	struct clock c;
	int64_t now = 0;
	clock_of(&c, "40/90");
	clock_start(&c, WHITE, now);
	for (int k = 1; k <= 80; k++) {
		play(&c, WHITE, &now, MIN, NULL);
		if (k == 39)
			ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 51 * MIN);
		if (k == 40)
			ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 140 * MIN);
		play(&c, BLACK, &now, 0, NULL);
	}
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 190 * MIN);

	clock_of(&c, "40/120:20/60:30");
	now = 0;
	clock_start(&c, WHITE, now);
	for (int k = 1; k <= 100; k++) {
		play(&c, WHITE, &now, MIN, NULL);
		if (k == 40)
			ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 140 * MIN);
		if (k == 60)
			ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 150 * MIN);
		play(&c, BLACK, &now, 0, NULL);
	}
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 110 * MIN);
	ck_assert_int_eq(c.period[WHITE], 2);
}
END_TEST

/* "If a player does not complete the prescribed number of moves in the
 * allotted time, the player will loose the game." 40 moves in 5 minutes. */
START_TEST(test_periods_moves_in_time)
{
	struct clock c;
	int64_t now = 0;
	bool flagged;
	clock_of(&c, "40/5");
	clock_start(&c, WHITE, now);
	for (int k = 1; k <= 39; k++) {
		play(&c, WHITE, &now, 7 * S, NULL);
		play(&c, BLACK, &now, 0, NULL);
	}
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 27 * S);
	ck_assert_int_eq(clock_expiry(&c, NULL), now + 27 * S);
	ck_assert_int_eq(clock_press(&c, WHITE, now + 27 * S, NULL, &flagged), 0);
	ck_assert(flagged);
}
END_TEST

/* ---- delays ---- */

/* Bronstein: after the move the clock gives back what the move used, up to
 * the delay; the delay does not postpone the flag. */
START_TEST(test_bronstein)
{
	struct clock c;
	int64_t now = 0;
	bool flagged;
	clock_of(&c, "5+b3");
	ck_assert_int_eq(c.tc.kind, TC_BRONSTEIN);
	clock_start(&c, WHITE, now);
	play(&c, WHITE, &now, 2 * S, NULL); /* 2 s used, 2 s back */
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 300 * S);
	play(&c, BLACK, &now, 5 * S, NULL); /* 5 s used, 3 s back */
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 298 * S);
	/* During the turn the clock counts down from the first millisecond. */
	ck_assert_int_eq(clock_remaining(&c, WHITE, now + 1500, NULL), 298500);
	play(&c, WHITE, &now, 0, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 300 * S);
	ck_assert_int_eq(clock_expiry(&c, NULL), now + 298 * S);
	ck_assert_int_eq(clock_press(&c, BLACK, now + 298 * S, NULL, &flagged), 0);
	ck_assert(flagged);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now + 298 * S, NULL), 0);
}
END_TEST

/* US (simple) delay: the clock waits for the delay before counting down. */
START_TEST(test_us_delay)
{
	struct clock c;
	int64_t now = 0;
	bool flagged;
	clock_of(&c, "5+d3");
	ck_assert_int_eq(c.tc.kind, TC_US_DELAY);
	clock_start(&c, WHITE, now);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 2999, NULL), 300 * S);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 3000, NULL), 300 * S);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 3001, NULL), 300 * S - 1);
	play(&c, WHITE, &now, 2 * S, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 300 * S);
	play(&c, BLACK, &now, 5 * S, NULL);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 298 * S);
	/* The flag falls delay + remaining after the turn began. */
	ck_assert_int_eq(clock_expiry(&c, NULL), now + 303 * S);
	struct clock d = c;
	ck_assert_int_eq(clock_press(&d, WHITE, now + 303 * S - 1, NULL, &flagged), 0);
	ck_assert(!flagged);
	ck_assert_int_eq(clock_remaining(&d, WHITE, now + 303 * S, NULL), 1);
	ck_assert_int_eq(clock_press(&c, WHITE, now + 303 * S, NULL, &flagged), 0);
	ck_assert(flagged);
}
END_TEST

/* clock_reaching: when a display's text next changes, read from the
 * clock rather than counted down linearly. */
START_TEST(test_reaching)
{
	struct clock c;
	clock_of(&c, "5+d3");
	ck_assert(clock_reaching(&c, 299 * S, NULL) == INT64_MAX);
	clock_start(&c, WHITE, 1000);
	/* The delay holds 5:00 for 3 s; 4:59 is reached a second later. */
	ck_assert_int_eq(clock_reaching(&c, 299 * S, NULL), 1000 + 4 * S);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 1000 + 4 * S - 1, NULL), 299 * S + 1);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 1000 + 4 * S, NULL), 299 * S);
	ck_assert_int_eq(clock_reaching(&c, 0, NULL), clock_expiry(&c, NULL));
	/* A reading already reached: the turn's start. */
	ck_assert_int_eq(clock_reaching(&c, 301 * S, NULL), 1000);
	clock_pause(&c, 2000, NULL);
	ck_assert(clock_reaching(&c, 299 * S, NULL) == INT64_MAX);

	clock_of(&c, "5+3");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_reaching(&c, 298500, NULL), 1500);

	/* Correspondence readings move in whole minutes. */
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_reaching(&c, 10 * DAY - 1, NULL), MIN);
	ck_assert_int_eq(clock_reaching(&c, 10 * DAY - MIN, NULL), MIN);
}
END_TEST

/* chessgamble article 7, quick chess: "The reflection measurement is very
 * accurate at the time of the move." No rounding, unlike correspondence. */
START_TEST(test_quick_chess_exact)
{
	struct clock c;
	int64_t now = 0;
	clock_of(&c, "10+0");
	clock_start(&c, WHITE, now);
	play(&c, WHITE, &now, 59999, NULL);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 600000 - 59999);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now + 1, NULL), 599999);
}
END_TEST

/* chessgamble Article 7: "There are at chessgamble following thinking
 * time systems: correspondence chess: X days for 10 moves (where X = 10, 20
 * or 30); chess X minutes (where X = 5, 10, 20 or 30) with or without time
 * credit." The preset allows exactly those; the refusal lists them. */
START_TEST(test_chessgamble_time_controls)
{
	static const char *const allowed[] = { "corr:10d/10", "corr:20d/10", "corr:30d/10", "5",     "5+3",
						"10+0",        "10+5",        "20+0",        "30+30", "30m+1s" };
	static const char *const refused[] = { "corr:3d/10", "corr:10d/5", "corr:10d/20", "1+0", "3+2", "15+10",
					       "60",         "5+b3",       "5+d3",        "40/5", "-",   "40/90+30:30+30" };
	struct ruleset r, fide;
	struct time_control tc;
	struct tchess_error err;
	ck_assert(ruleset_preset(&r, "chessgamble"));
	ck_assert(ruleset_preset(&fide, "fide"));
	for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
		ck_assert_int_eq(time_control_parse(&tc, allowed[i], NULL), TCHESS_OK);
		ck_assert_msg(time_control_allowed(&tc, &r, NULL) == TCHESS_OK, "%s refused", allowed[i]);
	}
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		ck_assert_int_eq(time_control_parse(&tc, refused[i], NULL), TCHESS_OK);
		ck_assert_msg(time_control_allowed(&tc, &r, &err) == TCHESS_ERR_NOT_ALLOWED, "%s allowed", refused[i]);
		ck_assert_str_eq(err.message, "the chessgamble rules allow only corr:10d/10, corr:20d/10, corr:30d/10 "
					      "and 5, 10, 20 or 30 minutes with or without increment (5+0, 5+3)");
		/* Rules that list none allow any. */
		ck_assert_int_eq(time_control_allowed(&tc, &fide, NULL), TCHESS_OK);
	}
}
END_TEST

/* ---- correspondence ---- */

/* chessgamble article 7: "each player has X days for 10 moves. The
 * reflection is measured to the minute at the time of the move. After every
 * completed 10 moves the player has additional X number of days for the
 * next 10 moves. Not used thinking time from a previous 10-day period will
 * be credited." */
START_TEST(test_correspondence_carry_over)
{
	struct clock c;
	int64_t now = 0;
	clock_of(&c, "corr:10d/10");
	ck_assert_int_eq(c.tc.kind, TC_CORRESPONDENCE);
	clock_start(&c, WHITE, now);
	for (int k = 1; k <= 10; k++) {
		/* 12 h 30 min 30 s used, 12 h 30 min charged. */
		play(&c, WHITE, &now, 12 * HOUR + 30 * MIN + 30 * S, NULL);
		if (k == 9)
			ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 240 * HOUR - 9 * (12 * HOUR + 30 * MIN));
		play(&c, BLACK, &now, MIN + 59 * S, NULL); /* charged 1 min */
	}
	/* 240 h - 125 h unused carried into the next 240 h. */
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, NULL), 355 * HOUR);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, NULL), 20 * DAY - 10 * MIN);
	ck_assert_int_eq(c.period_moves[WHITE], 0);
}
END_TEST

/* "measured to the minute": the used time is truncated to whole minutes,
 * and "A player who exceeds the waiting period has lost the game
 * immediately." */
START_TEST(test_correspondence_minutes_and_deadline)
{
	struct clock c, d;
	bool flagged;
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, 0);
	/* Mid-turn readings move in whole minutes. */
	ck_assert_int_eq(clock_remaining(&c, WHITE, 59999, NULL), 10 * DAY);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 60000, NULL), 10 * DAY - MIN);
	ck_assert_int_eq(clock_expiry(&c, NULL), 10 * DAY);

	d = c;
	ck_assert_int_eq(clock_press(&d, WHITE, 10 * DAY - 1, NULL, &flagged), 0);
	ck_assert(!flagged);
	ck_assert_int_eq(clock_remaining(&d, WHITE, 10 * DAY, NULL), MIN);

	d = c;
	ck_assert_int_eq(clock_press(&d, WHITE, 10 * DAY, NULL, &flagged), 0);
	ck_assert(flagged);
	ck_assert_int_eq(clock_remaining(&d, WHITE, 10 * DAY, NULL), 0);

	/* With time that is not whole minutes (a penalty of 30 s) the flag
	 * falls at the next whole minute of use, where the reading reaches 0. */
	d = c;
	clock_add_time(&d, WHITE, 30 * S);
	ck_assert_int_eq(clock_expiry(&d, NULL), 10 * DAY + MIN);
	ck_assert_int_eq(clock_remaining(&d, WHITE, 10 * DAY + MIN - 1, NULL), 30 * S);
	ck_assert_int_eq(clock_check_flag(&d, 10 * DAY + MIN - 1, NULL), CLOCK_NOBODY);
	ck_assert_int_eq(clock_check_flag(&d, 10 * DAY + MIN, NULL), WHITE);
}
END_TEST

/* "While a player is on vacation, is not its reflection in all his
 * correspondence chess games. For quick chess games is not a vacation." */
START_TEST(test_vacation_correspondence)
{
	struct clock c;
	struct vacation white[] = { { 1 * HOUR, 3 * HOUR } };
	struct vacation black[] = { { 0, 1000 * DAY } };
	struct clock_vacations vac = { { white, black }, { 1, 1 } };
	int64_t now = 0;
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, now);
	/* Inside the vacation the reading stands still. */
	ck_assert_int_eq(clock_remaining(&c, WHITE, 2 * HOUR, &vac), 10 * DAY - HOUR);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 3 * HOUR, &vac), 10 * DAY - HOUR);
	play(&c, WHITE, &now, 5 * HOUR, &vac);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, &vac), 10 * DAY - 3 * HOUR);
	/* Black's vacation is black's alone: white's time was charged above,
	 * and black's clock does not run at all. */
	play(&c, BLACK, &now, 20 * DAY, &vac);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, &vac), 10 * DAY);
	/* "A player is allowed to perform during his holiday moves." */
	ck_assert_int_eq(c.moves[BLACK], 1);
}
END_TEST

/* A vacation that began before the turn and one that spans several moves;
 * overlapping vacations count once; the deadline moves by the vacation. */
START_TEST(test_vacation_spans_and_overlaps)
{
	struct clock c;
	struct vacation white[] = { { -HOUR, HOUR }, { 5 * HOUR, 100 * HOUR } };
	struct clock_vacations vac = { { white, NULL }, { 2, 0 } };
	int64_t now = 0;
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, now);
	/* "At the start ... the player with the white pieces begins (unless he
	 * has in correspondence chess holiday)": the first hour is free. */
	play(&c, WHITE, &now, 2 * HOUR, &vac);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, &vac), 10 * DAY - HOUR);
	play(&c, BLACK, &now, 48 * HOUR, &vac); /* black is at 50 h, inside white's vacation */
	ck_assert_int_eq(clock_remaining(&c, BLACK, now, &vac), 10 * DAY - 48 * HOUR);
	play(&c, WHITE, &now, 70 * HOUR, &vac); /* 50 h -> 120 h: 20 h charged */
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, &vac), 10 * DAY - 21 * HOUR);

	/* Overlapping vacations [1 h, 3 h) and [2 h, 4 h): 3 h off, once. */
	struct vacation overlap[] = { { 2 * HOUR, 4 * HOUR }, { 1 * HOUR, 3 * HOUR } };
	struct clock_vacations vac2 = { { overlap, NULL }, { 2, 0 } };
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 5 * HOUR, &vac2), 10 * DAY - 2 * HOUR);
	/* The deadline is pushed back by the 3 h, to the millisecond. */
	ck_assert_int_eq(clock_expiry(&c, &vac2), 10 * DAY + 3 * HOUR);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 10 * DAY + 3 * HOUR - 1, &vac2), MIN);
	/* A vacation declared later moves it again (the server re-arms). */
	struct vacation later[] = { { 2 * HOUR, 4 * HOUR }, { 1 * HOUR, 3 * HOUR }, { 6 * DAY, 8 * DAY } };
	struct clock_vacations vac3 = { { later, NULL }, { 3, 0 } };
	ck_assert_int_eq(clock_expiry(&c, &vac3), 12 * DAY + 3 * HOUR);
	bool flagged;
	ck_assert_int_eq(clock_press(&c, WHITE, 12 * DAY + 3 * HOUR, &vac3, &flagged), 0);
	ck_assert(flagged);

	/* Time running out exactly as a vacation begins: the flag has fallen
	 * at that instant; the vacation does not save it. */
	struct vacation edge[] = { { 10 * DAY, 20 * DAY } };
	struct clock_vacations vac4 = { { edge, NULL }, { 1, 0 } };
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_expiry(&c, &vac4), 10 * DAY);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 15 * DAY, &vac4), 0);
	ck_assert_int_eq(clock_check_flag(&c, 10 * DAY, &vac4), WHITE);
}
END_TEST

/* "In quick chess games, there is no vacation. I.e. even if a player during
 * a game of chess vacation, running his reflection when he is on the move." */
START_TEST(test_vacation_not_for_quick_games)
{
	struct clock c;
	struct vacation white[] = { { 0, 1000 * DAY } };
	struct clock_vacations vac = { { white, white }, { 1, 1 } };
	int64_t now = 0;
	clock_of(&c, "5+0");
	clock_start(&c, WHITE, now);
	ck_assert_int_eq(clock_expiry(&c, &vac), 300 * S);
	play(&c, WHITE, &now, 10 * S, &vac);
	ck_assert_int_eq(clock_remaining(&c, WHITE, now, &vac), 290 * S);
	ck_assert_int_eq(clock_remaining(&c, BLACK, now + 5 * S, &vac), 295 * S);
}
END_TEST

/* ---- pause, resume, stop, added time ---- */

/* Adjournment or server downtime: the paused time is charged to nobody; a
 * restart resumes "from the last committed reading". */
START_TEST(test_pause_resume)
{
	struct clock c;
	clock_of(&c, "15+10");
	clock_start(&c, WHITE, 0);
	clock_pause(&c, 10 * S, NULL);
	clock_pause(&c, 20 * S, NULL); /* already paused: no-op */
	ck_assert_int_eq(clock_remaining(&c, WHITE, 10 * HOUR, NULL), 890 * S);
	ck_assert(clock_expiry(&c, NULL) == INT64_MAX);
	ck_assert_int_eq(clock_check_flag(&c, 100 * HOUR, NULL), CLOCK_NOBODY);
	clock_resume(&c, HOUR);
	ck_assert_int_eq(clock_expiry(&c, NULL), HOUR + 890 * S);
	ck_assert_int_eq(clock_press(&c, WHITE, HOUR + 5 * S, NULL, NULL), 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, HOUR + 5 * S, NULL), 900 * S - 15 * S + 10 * S);

	/* A crash: the last committed event was at 7 s into black's turn...
	 * the server pauses at that instant and resumes at restart. */
	int64_t turn = HOUR + 5 * S;
	clock_pause(&c, turn + 7 * S, NULL);
	clock_resume(&c, turn + 3 * HOUR);
	ck_assert_int_eq(clock_remaining(&c, BLACK, turn + 3 * HOUR, NULL), 893 * S);

	/* A US delay is granted once per turn, not once per resume. */
	clock_of(&c, "5+d3");
	clock_start(&c, WHITE, 0);
	clock_pause(&c, 2 * S, NULL);
	clock_resume(&c, 100 * S);
	ck_assert_int_eq(clock_press(&c, WHITE, 102 * S, NULL, NULL), 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 102 * S, NULL), 299 * S);

	/* Correspondence time is rounded once per move, over the whole turn. */
	clock_of(&c, "corr:10d/10");
	clock_start(&c, WHITE, 0);
	clock_pause(&c, 30 * S, NULL);
	clock_resume(&c, DAY);
	ck_assert_int_eq(clock_press(&c, WHITE, DAY + 40 * S, NULL, NULL), 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, DAY + 40 * S, NULL), 10 * DAY - MIN);

	/* A move made while paused costs only the time before the pause. */
	clock_of(&c, "3+2");
	clock_start(&c, WHITE, 0);
	clock_pause(&c, 4 * S, NULL);
	ck_assert_int_eq(clock_press(&c, WHITE, 50 * S, NULL, NULL), 0);
	ck_assert(c.paused);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 60 * S, NULL), 178 * S);
	ck_assert_int_eq(clock_remaining(&c, BLACK, 60 * S, NULL), 180 * S);
	clock_resume(&c, 70 * S);
	ck_assert_int_eq(clock_remaining(&c, BLACK, 75 * S, NULL), 175 * S);
}
END_TEST

/* Yourpot: "If the position is not a draw, the following time represented
 * in the table is added to the opponent: Bullet 30 sec. Fast blitz, blitz
 * 1 min. Other 2 min." */
START_TEST(test_add_time_tablebase_penalty)
{
	struct clock c;
	struct ruleset r;
	ck_assert(ruleset_preset(&r, "yourpot"));
	clock_of(&c, "1+0");
	clock_start(&c, WHITE, 0);
	int64_t penalty = r.tablebase_penalty_ms[time_control_speed(&c.tc)];
	ck_assert_int_eq(penalty, 30 * S);
	ck_assert_int_eq(clock_add_time(&c, BLACK, penalty), 0);
	ck_assert_int_eq(clock_remaining(&c, BLACK, 10 * S, NULL), 90 * S);
	/* Added to the running side too, mid-turn. */
	ck_assert_int_eq(clock_add_time(&c, WHITE, penalty), 0);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 10 * S, NULL), 80 * S);
	ck_assert_int_eq(clock_expiry(&c, NULL), 90 * S);
	ck_assert_int_eq(clock_add_time(&c, WHITE, -1), -1);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 10 * S, NULL), 80 * S);
}
END_TEST

/* The game ends otherwise (mate, resignation): the clock stops with the
 * reading of that instant and nothing runs afterwards. */
START_TEST(test_stop)
{
	struct clock c;
	clock_of(&c, "5+5");
	clock_start(&c, WHITE, 0);
	ck_assert_int_eq(clock_stop(&c, 12 * S, NULL), CLOCK_NOBODY);
	ck_assert_int_eq(c.running, CLOCK_NOBODY);
	ck_assert_int_eq(clock_remaining(&c, WHITE, 100 * S, NULL), 288 * S);
	ck_assert(clock_expiry(&c, NULL) == INT64_MAX);
	/* Stopping after the flag fell records the flag. */
	clock_of(&c, "5+5");
	clock_start(&c, BLACK, 0);
	ck_assert_int_eq(clock_stop(&c, 300 * S, NULL), BLACK);
	ck_assert_int_eq(c.flagged, BLACK);
}
END_TEST

/* ---- unlimited ---- */

START_TEST(test_unlimited)
{
	struct clock c;
	int64_t now = 0;
	clock_of(&c, "-");
	ck_assert_int_eq(c.tc.kind, TC_UNLIMITED);
	clock_start(&c, WHITE, now);
	play(&c, WHITE, &now, 100 * DAY, NULL);
	ck_assert(clock_remaining(&c, WHITE, now, NULL) == CLOCK_UNLIMITED);
	ck_assert(clock_remaining(&c, BLACK, now + 1000 * DAY, NULL) == CLOCK_UNLIMITED);
	ck_assert(clock_expiry(&c, NULL) == INT64_MAX);
	ck_assert_int_eq(clock_check_flag(&c, INT64_MAX, NULL), CLOCK_NOBODY);
	ck_assert_int_eq(c.moves[WHITE], 1);
}
END_TEST

/* ---- speed classes ---- */

/* Yourpot: "Bullet – up to 90 sec. (1 min. 30 sec.) for 40 moves; Fast
 * blitz - up to 210 sec. (3 min. 30 sec.) for 40 moves; Blitz – up to 5
 * min. for 40 moves; Standard - over 5 min", increments counted 40 times. */
static const struct {
	const char *tc;
	enum speed_class want;
} speeds[] = {
	{ "1+0", SPEED_BULLET },          /* 60 s */
	{ "30s+1", SPEED_BULLET },        /* 30 + 40 = 70 s */
	{ "90s+0", SPEED_BULLET },        /* 90 s: "up to" includes it */
	{ "91s+0", SPEED_FAST_BLITZ },
	{ "1+1", SPEED_FAST_BLITZ },      /* 100 s */
	{ "2+1", SPEED_FAST_BLITZ },      /* 120 + 40 = 160 s */
	{ "3+0", SPEED_FAST_BLITZ },      /* 180 s */
	{ "210s+0", SPEED_FAST_BLITZ },
	{ "3+1", SPEED_BLITZ },           /* 220 s */
	{ "3+2", SPEED_BLITZ },           /* 260 s */
	{ "5+0", SPEED_BLITZ },           /* 300 s: "up to 5 min." */
	{ "4+1500ms", SPEED_BLITZ },      /* 240 + 60 = 300 s */
	{ "4+1501ms", SPEED_STANDARD },
	{ "5+3", SPEED_STANDARD },        /* 420 s */
	{ "15+10", SPEED_STANDARD },
	{ "5+b3", SPEED_STANDARD },       /* delays count as increments */
	{ "2+d1", SPEED_FAST_BLITZ },
	{ "20/1:2", SPEED_FAST_BLITZ },   /* 60 + 120 s added after move 20 */
	{ "40/4", SPEED_BLITZ },          /* the time after move 40 is not counted */
	{ "10/1", SPEED_BLITZ },          /* 4 x 60 s: added after moves 10, 20, 30 */
	{ "40/90+30:30+30", SPEED_STANDARD },
	{ "corr:10d/10", SPEED_CORRESPONDENCE },
	{ "-", SPEED_STANDARD },
};

START_TEST(test_speed_classes)
{
	struct time_control tc = tc_of(speeds[_i].tc);
	ck_assert_msg(time_control_speed(&tc) == speeds[_i].want, "%s: speed %d, want %d", speeds[_i].tc,
		      time_control_speed(&tc), speeds[_i].want);
}
END_TEST

/* ---- text form ---- */

static const struct {
	const char *text;
	const char *canonical;
} texts[] = {
	{ "5+3", "5+3" },
	{ "15+10", "15+10" },
	{ "90s+0", "90s+0" },
	{ "30s+1", "30s+1" },
	{ "1h+0", "60+0" },
	{ "5", "5+0" },
	{ "5+0", "5+0" },
	{ "2+500ms", "2+500ms" },
	{ "1500ms+0", "1500ms+0" },
	{ "3+1m", "3+60" },
	{ "5+b3", "5+b3" },
	{ "5+d3", "5+d3" },
	{ "40/90", "40/90+0" },
	{ "1/2+0", "1/2+0" }, /* one move in 2 minutes, not half a minute */
	{ "40/90+30", "40/90+30" },
	{ "40/90+30:30+30", "40/90+30:30+30" },
	{ "40/120:20/60:30", "40/120+0:20/60+0:30+0" },
	{ "40/90+b30:30", "40/90+b30:30+b0" },
	{ "40/100:20/50:15/30:10", "40/100+0:20/50+0:15/30+0:10+0" },
	{ "corr:10d/10", "corr:10d/10" },
	{ "corr:20/10", "corr:20d/10" },
	{ "corr:30d/10", "corr:30d/10" },
	{ "corr:36h/1", "corr:36h/1" },
	{ "corr:90m/1", "corr:90m/1" },
	{ "corr:48h/5", "corr:2d/5" },
	{ "-", "-" },
	{ "unlimited", "-" },
};

START_TEST(test_text_round_trip)
{
	struct time_control tc, again;
	struct tchess_error err;
	char buf[TIME_CONTROL_TEXT_MAX];
	tc = tc_of(texts[_i].text);
	size_t n = time_control_format(&tc, buf, sizeof buf);
	ck_assert_uint_eq(n, strlen(buf));
	ck_assert_str_eq(buf, texts[_i].canonical);
	ck_assert_msg(time_control_parse(&again, buf, &err) == TCHESS_OK, "%s: %s", buf, err.message);
	ck_assert(time_control_equal(&tc, &again));
	ck_assert(memcmp(&tc, &again, sizeof tc) == 0);
	/* Truncation reports the length needed and still terminates. */
	char small[3];
	ck_assert_uint_eq(time_control_format(&tc, small, sizeof small), n);
	ck_assert_uint_le(strlen(small), 2);
	ck_assert(strncmp(small, buf, strlen(small)) == 0);
}
END_TEST

/* A control built in code, not from text, formats to text that parses back. */
START_TEST(test_format_longest)
{
	struct time_control tc = { .kind = TC_BRONSTEIN, .n_periods = TC_PERIODS_MAX };
	struct time_control again;
	char buf[TIME_CONTROL_TEXT_MAX];
	for (int i = 0; i < TC_PERIODS_MAX; i++) {
		tc.periods[i].moves = TC_MOVES_MAX;
		tc.periods[i].base_ms = TC_TIME_MAX_MS - 1;
		tc.periods[i].increment_ms = TC_INCREMENT_MAX_MS - 1;
	}
	ck_assert_int_eq(time_control_validate(&tc, NULL), TCHESS_OK);
	size_t n = time_control_format(&tc, buf, sizeof buf);
	ck_assert_uint_lt(n, sizeof buf);
	ck_assert_int_eq(time_control_parse(&again, buf, NULL), TCHESS_OK);
	ck_assert(time_control_equal(&tc, &again));
}
END_TEST

static const struct {
	const char *text;
	enum tchess_err code;
	size_t offset;
} bad[] = {
	{ "", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "5+", TCHESS_ERR_TIME_CONTROL, 2 },
	{ "+3", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "abc", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "99999999999+0", TCHESS_ERR_RANGE, 0 },
	{ "5+99999999999", TCHESS_ERR_RANGE, 2 },
	{ "40/", TCHESS_ERR_TIME_CONTROL, 3 },
	/* "40/5:00" read as a clock time is a misreading: refused, not a
	 * second period that adds nothing. */
	{ "40/5:00", TCHESS_ERR_RANGE, 5 },
	{ "/90", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "corr:0d/10", TCHESS_ERR_RANGE, 5 },
	{ "corr:10d/0", TCHESS_ERR_RANGE, 9 },
	{ "corr:10d", TCHESS_ERR_TIME_CONTROL, 8 },
	{ "corr:10d/10+5", TCHESS_ERR_TIME_CONTROL, 11 },
	{ "corr:366d/10", TCHESS_ERR_RANGE, 5 },
	{ "corr:10s/10", TCHESS_ERR_TIME_CONTROL, 7 },
	{ "corr:", TCHESS_ERR_TIME_CONTROL, 5 },
	{ "0+0", TCHESS_ERR_RANGE, 0 },
	{ "0+5", TCHESS_ERR_RANGE, 0 },
	{ "5+3+2", TCHESS_ERR_TIME_CONTROL, 3 },
	{ "5 + 3", TCHESS_ERR_TIME_CONTROL, 1 },
	{ " 5+3", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "5+3 ", TCHESS_ERR_TIME_CONTROL, 3 },
	{ "-5+3", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "5.5+0", TCHESS_ERR_TIME_CONTROL, 1 },
	{ "5d+0", TCHESS_ERR_TIME_CONTROL, 1 },
	{ "25h+0", TCHESS_ERR_RANGE, 0 },
	{ "5+61m", TCHESS_ERR_RANGE, 2 },
	{ "0/90", TCHESS_ERR_RANGE, 0 },
	{ "1001/90", TCHESS_ERR_RANGE, 0 },
	{ "90:30", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "40/90:", TCHESS_ERR_TIME_CONTROL, 6 },
	{ "40/90+b30:30+d30", TCHESS_ERR_TIME_CONTROL, 10 },
	{ "40/90:20/30:10/5:5/5:5", TCHESS_ERR_RANGE, 21 },
	{ "5+x3", TCHESS_ERR_TIME_CONTROL, 2 },
	{ "5+b", TCHESS_ERR_TIME_CONTROL, 3 },
	{ "unlimited+0", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "--", TCHESS_ERR_TIME_CONTROL, 0 },
	{ "5,3", TCHESS_ERR_TIME_CONTROL, 1 },
};

START_TEST(test_text_rejected)
{
	struct time_control tc, before;
	struct tchess_error err;
	memset(&tc, 0x5a, sizeof tc);
	before = tc;
	memset(&err, 0, sizeof err);
	enum tchess_err e = time_control_parse(&tc, bad[_i].text, &err);
	ck_assert_msg(e == bad[_i].code, "'%s': code %d (%s), want %d", bad[_i].text, e, err.message,
		      bad[_i].code);
	ck_assert_msg(err.offset == bad[_i].offset, "'%s': offset %zu, want %zu (%s)", bad[_i].text, err.offset,
		      bad[_i].offset, err.message);
	ck_assert_msg(strncmp(err.message, "time control: ", 14) == 0 && strlen(err.message) > 20,
		      "'%s': message '%s'", bad[_i].text, err.message);
	ck_assert(memcmp(&tc, &before, sizeof tc) == 0);
}
END_TEST

/* Controls built in code are checked by the same limits as parsed ones. */
START_TEST(test_validate)
{
	struct time_control ok = tc_of("40/90+30:30+30"), tc;
	struct tchess_error err;
	tc = ok;
	tc.periods[0].moves = 0; /* only the last period may be "the rest" */
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	tc = ok;
	tc.periods[1].base_ms = -1;
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	tc = ok;
	tc.periods[0].increment_ms = TC_INCREMENT_MAX_MS + 1;
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	tc = ok;
	tc.n_periods = TC_PERIODS_MAX + 1;
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	tc = tc_of("corr:10d/10");
	tc.periods[0].increment_ms = 1000;
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	tc = tc_of("corr:10d/10");
	tc.periods[0].base_ms += 1; /* "measured to the minute" */
	ck_assert_int_eq(time_control_validate(&tc, &err), TCHESS_ERR_RANGE);
	ck_assert(strlen(err.message) > 14);

	/* An invalid control still gives readings that are never negative. */
	struct clock c;
	tc = ok;
	tc.periods[0].base_ms = -5000;
	clock_init(&c, &tc);
	ck_assert_int_eq(clock_remaining(&c, BLACK, 0, NULL), 0);
}
END_TEST

START_TEST(test_text_null)
{
	struct time_control tc;
	ck_assert_int_eq(time_control_parse(&tc, NULL, NULL), TCHESS_ERR_TIME_CONTROL);
}
END_TEST

/* ---- randomized consistency ---- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int64_t rng_below(int64_t n)
{
	return (int64_t)(rng() % (uint64_t)n);
}

static const char *const random_controls[] = {
	"1+0", "3+2", "15+10", "5+b3", "5+d3", "40/5+1", "20/1:10/1:2+1", "2+500ms", "corr:10d/10", "corr:90m/1",
};

/* Checks the readings of c at now: never negative, the flag exactly at the
 * expiry, the non-running side's time constant, the running side's never
 * rising as time passes. */
static void check_readings(const struct clock *c, int64_t now, const struct clock_vacations *vac)
{
	for (int side = WHITE; side <= BLACK; side++) {
		int64_t r0 = clock_remaining(c, side, now, vac);
		ck_assert_int_ge(r0, 0);
		int64_t prev = r0;
		for (int k = 1; k <= 4; k++) {
			int64_t r = clock_remaining(c, side, now + rng_below(k * 4 * HOUR), vac);
			ck_assert_int_ge(r, 0);
			if (side != c->running || c->paused)
				ck_assert_int_eq(r, r0);
		}
		for (int64_t t = now; t < now + 30 * DAY; t += 1 + rng_below(DAY)) {
			int64_t r = clock_remaining(c, side, t, vac);
			ck_assert_int_le(r, prev);
			prev = r;
		}
	}
	int64_t exp = clock_expiry(c, vac);
	if (c->running == CLOCK_NOBODY || c->paused) {
		ck_assert(exp == INT64_MAX);
		return;
	}
	ck_assert_int_ge(exp, c->since_ms);
	ck_assert_int_eq(clock_remaining(c, c->running, exp, vac), 0);
	if (exp > c->since_ms && exp - 1 >= now)
		ck_assert_int_gt(clock_remaining(c, c->running, exp - 1, vac), 0);
	struct clock d = *c;
	ck_assert_int_eq(clock_check_flag(&d, exp, vac), c->running);
}

START_TEST(test_random_consistency)
{
	int flags = 0, moves = 0;
	rng_state = 0x9e3779b97f4a7c15u ^ (uint64_t)_i;
	int games = testdata_light() ? 3 : 30;
	for (int game = 0; game < games; game++) {
		struct clock c, mirror;
		struct vacation vl[2][4];
		struct clock_vacations vac = { { vl[0], vl[1] }, { 0, 0 } };
		int64_t now = rng_below(1000000);
		for (int side = 0; side < 2; side++) {
			vac.count[side] = (size_t)rng_below(5);
			for (size_t k = 0; k < vac.count[side]; k++) {
				vl[side][k].start_ms = now + rng_below(60 * DAY) - DAY;
				vl[side][k].end_ms = vl[side][k].start_ms + rng_below(5 * DAY);
			}
		}
		const char *text = random_controls[rng_below(sizeof random_controls / sizeof random_controls[0])];
		clock_of(&c, text);
		bool corr = c.tc.kind == TC_CORRESPONDENCE;
		int64_t scale = corr ? 12 * HOUR : 20 * S;
		clock_start(&c, WHITE, now);
		mirror = c;
		for (int step = 0; step < 200 && c.flagged == CLOCK_NOBODY; step++) {
			check_readings(&c, now, &vac);
			int op = (int)rng_below(20);
			if (op == 0) {
				clock_pause(&c, now, &vac);
				clock_pause(&mirror, now, &vac);
			} else if (op == 1) {
				clock_resume(&c, now);
				clock_resume(&mirror, now);
			} else if (op == 2) {
				int64_t ms = rng_below(2 * MIN);
				enum color side = (enum color)rng_below(2);
				ck_assert_int_eq(clock_add_time(&c, side, ms), 0);
				clock_add_time(&mirror, side, ms);
			} else {
				int side = c.running;
				int64_t exp = clock_expiry(&c, &vac);
				bool flagged;
				now += rng_below(op == 3 ? 40 * scale : scale);
				ck_assert_int_eq(clock_press(&c, side, now, &vac, &flagged), 0);
				ck_assert_int_eq(flagged, now >= exp);
				flags += flagged;
				moves += !flagged;
				ck_assert_int_eq(clock_press(&mirror, side, now, &vac, NULL), 0);
				if (flagged)
					ck_assert_int_eq(clock_remaining(&c, side, now, &vac), 0);
				else
					ck_assert_int_gt(clock_remaining(&c, side, now, &vac), 0);
			}
			now += rng_below(S);
			/* The mirror that saw the same events reads the same. */
			ck_assert(memcmp(&c, &mirror, sizeof c) == 0);
		}
	}
	/* The run must have seen both outcomes to mean anything. */
	ck_assert_int_ge(flags, games / 3);
	ck_assert_int_ge(moves, games * 3);
}
END_TEST

/* Random texts over the grammar's alphabet: the parser never crashes,
 * every accepted text is valid, and its canonical form is a fixed point. */
START_TEST(test_text_random)
{
	static const char alphabet[] = "0123456789+/:bdmsh-corun ";
	int accepted = 0;
	rng_state = 0x2545f4914f6cdd1du;
	int n_texts = testdata_light() ? 5000 : 100000;
	for (int n = 0; n < n_texts; n++) {
		char text[24], buf[TIME_CONTROL_TEXT_MAX], buf2[TIME_CONTROL_TEXT_MAX];
		int len = (int)rng_below(sizeof text);
		for (int k = 0; k < len; k++)
			text[k] = alphabet[rng_below(sizeof alphabet - 1)];
		text[len] = '\0';
		if (n % 4 == 0 && len > 5)
			memcpy(text, "corr:", 5);
		struct time_control tc, again;
		struct tchess_error err;
		if (time_control_parse(&tc, text, &err) != TCHESS_OK) {
			ck_assert_uint_le(err.offset, (size_t)len);
			continue;
		}
		accepted++;
		ck_assert_msg(time_control_validate(&tc, &err) == TCHESS_OK, "'%s': %s", text, err.message);
		time_control_format(&tc, buf, sizeof buf);
		ck_assert_msg(time_control_parse(&again, buf, &err) == TCHESS_OK, "'%s' -> '%s': %s", text, buf,
			      err.message);
		ck_assert(time_control_equal(&tc, &again));
		time_control_format(&again, buf2, sizeof buf2);
		ck_assert_str_eq(buf, buf2);
	}
	ck_assert_int_gt(accepted, n_texts / 200);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_fischer_15_10);
	tcase_add_test(tc, test_flag_at_expiry);
	tcase_add_test(tc, test_first_move_starts_clock);
	tcase_add_test(tc, test_periods_40_90_30);
	tcase_add_test(tc, test_periods_repeat_and_multi);
	tcase_add_test(tc, test_periods_moves_in_time);
	tcase_add_test(tc, test_bronstein);
	tcase_add_test(tc, test_us_delay);
	tcase_add_test(tc, test_reaching);
	tcase_add_test(tc, test_quick_chess_exact);
	tcase_add_test(tc, test_correspondence_carry_over);
	tcase_add_test(tc, test_correspondence_minutes_and_deadline);
	tcase_add_test(tc, test_vacation_correspondence);
	tcase_add_test(tc, test_vacation_spans_and_overlaps);
	tcase_add_test(tc, test_vacation_not_for_quick_games);
	tcase_add_test(tc, test_pause_resume);
	tcase_add_test(tc, test_add_time_tablebase_penalty);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_unlimited);
	tcase_add_loop_test(tc, test_speed_classes, 0, (int)(sizeof speeds / sizeof speeds[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_loop_test(tc, test_text_round_trip, 0, (int)(sizeof texts / sizeof texts[0]));
	tcase_add_test(tc, test_format_longest);
	tcase_add_loop_test(tc, test_text_rejected, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_text_null);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_chessgamble_time_controls);
	tcase_add_test(tc, test_text_random);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_random_consistency, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(clock_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
