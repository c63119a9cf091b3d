/*
 * Rematch series (tchess/series.h): the score (1, 1/2 or 0 a game, unscored
 * games not counted, colours alternating) and rule 13 of the
 * board-and-pieces document: "During a series the time isn't saved from the
 * last game, each game have the same initial time."
 */
#include <check.h>
#include <stdlib.h>

#include "tchess/series.h"

START_TEST(test_points)
{
	ck_assert_int_eq(series_half_points(GAME_RESULT_WHITE_WINS, WHITE), 2);
	ck_assert_int_eq(series_half_points(GAME_RESULT_WHITE_WINS, BLACK), 0);
	ck_assert_int_eq(series_half_points(GAME_RESULT_BLACK_WINS, BLACK), 2);
	ck_assert_int_eq(series_half_points(GAME_RESULT_DRAW, WHITE), 1);
	ck_assert_int_eq(series_half_points(GAME_RESULT_DRAW, BLACK), 1);
	ck_assert_int_eq(series_half_points(GAME_RESULT_NONE, WHITE), -1);
}
END_TEST

START_TEST(test_score_alternates)
{
	/* A and B: game 1 A white wins, game 2 B white (colours swapped) draw,
	 * game 3 A white unscored, game 4 B white, A (black) wins. */
	struct series_score s;
	series_score_init(&s);
	series_score_add(&s, GAME_RESULT_WHITE_WINS);      /* A 1, B 0 */
	ck_assert_int_eq(s.half[WHITE], 2);
	series_score_next(&s, &s);                         /* game 2: B white */
	ck_assert_int_eq(s.half[WHITE], 0);
	ck_assert_int_eq(s.half[BLACK], 2);
	series_score_add(&s, GAME_RESULT_DRAW);            /* A 1.5, B 0.5 */
	series_score_next(&s, &s);                         /* game 3: A white */
	series_score_add(&s, GAME_RESULT_NONE);            /* not counted */
	ck_assert_int_eq(s.half[WHITE], 3);
	ck_assert_int_eq(s.half[BLACK], 1);
	series_score_next(&s, &s);                         /* game 4: B white */
	series_score_add(&s, GAME_RESULT_BLACK_WINS);      /* A 2.5, B 0.5 */
	ck_assert_int_eq(s.half[BLACK], 5);
	ck_assert_int_eq(s.half[WHITE], 1);
	ck_assert_int_eq(s.games, 4);
	ck_assert_int_eq(s.scored, 3);
}
END_TEST

START_TEST(test_same_initial_time)
{
	/* Rule 13: "During a series the time isn't saved from the last game,
	 * each game have the same initial time." */
	struct time_control tc;
	struct clock c, next;
	ck_assert_int_eq(time_control_parse(&tc, "5+3", NULL), TCHESS_OK);
	clock_init(&c, &tc);
	ck_assert_int_eq(clock_start(&c, WHITE, 0), 0);
	ck_assert_int_eq(clock_press(&c, WHITE, 100000, NULL, NULL), 0); /* white used 100 s, got 3 */
	ck_assert_int_eq(clock_press(&c, BLACK, 110000, NULL, NULL), 0); /* black used 10 s, got 3 */
	ck_assert_int_eq(clock_remaining(&c, WHITE, 110000, NULL), 203000);
	ck_assert_int_eq(clock_stop(&c, 150000, NULL), CLOCK_NOBODY);
	series_next_clock(&c, &next);
	ck_assert_int_eq(clock_remaining(&next, WHITE, 0, NULL), 300000);
	ck_assert_int_eq(clock_remaining(&next, BLACK, 0, NULL), 300000);
	ck_assert_int_eq(next.running, CLOCK_NOBODY);
	ck_assert_int_eq(next.moves[WHITE], 0);
	ck_assert(time_control_equal(&next.tc, &c.tc));
}
END_TEST

static Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("series");
	tcase_add_test(tc, test_points);
	tcase_add_test(tc, test_score_alternates);
	tcase_add_test(tc, test_same_initial_time);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(series_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
