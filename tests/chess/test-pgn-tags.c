/*
 * The tags with a meaning: TimeControl written in the PGN standard's
 * seconds form (section 9.6.1) and read in it, tchess's own form read from
 * its tag or from an older tchessd export, and the standard Termination
 * values (9.8.1) with the precise reason beside them.
 */
#include <check.h>
#include <string.h>

#include "tchess/clock.h"
#include "tchess/game.h"
#include "tchess/pgn.h"

/* Writes tchess's text in the standard form. */
static const char *standard(const char *ours, char *buf, size_t size)
{
	struct time_control tc;
	struct tchess_error e;
	ck_assert_msg(time_control_parse(&tc, ours, &e) == TCHESS_OK, "%s: %s", ours, e.message);
	pgn_time_control_write(&tc, buf, size);
	return buf;
}

START_TEST(test_time_control_written_in_seconds)
{
	/* "an incremental time control of 90 minutes plus one extra minute per
	 * move would be given by "4500+60""; "40 moves in 2 1/2 hours would be
	 * represented as "40/9000""; "no time control ... a single hyphen". */
	static const char *const cases[][2] = {
		{ "5+3", "300+3" },
		{ "1+0", "60+0" },
		{ "75+60", "4500+60" },
		{ "90s+0", "90+0" },
		{ "40/150", "40/9000" },
		{ "40/90:30+30", "40/5400:1800+30" },
		{ "40/90+30:30+30", "40/5400+30:1800+30" },
		{ "40/120:20/60:30", "40/7200:20/3600:1800+0" },
		{ "2+500ms", "120+0.5" },
		{ "5+d3", "300+3d" },
		{ "5+b3", "300+3d" },
		{ "corr:10d/10", "10/864000" },
		{ "corr:3d/1", "1/259200" },
		{ "-", "-" },
	};
	char buf[TIME_CONTROL_TEXT_MAX];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_str_eq(standard(cases[i][0], buf, sizeof buf), cases[i][1]);
	/* Truncated like snprintf, the length it needs returned. */
	struct time_control tc;
	ck_assert_int_eq(time_control_parse(&tc, "40/90+30:30+30", NULL), TCHESS_OK);
	ck_assert_uint_eq(pgn_time_control_write(&tc, buf, 5), strlen("40/5400+30:1800+30"));
	ck_assert_str_eq(buf, "40/5");
}
END_TEST

START_TEST(test_time_control_read_standard)
{
	struct time_control tc, want;
	struct tchess_error e;
	/* Both directions agree for everything the writer produces but the
	 * Bronstein delay, which the standard cannot name. */
	static const char *const ours[] = { "5+3", "1+0", "40/90+30:30+30", "40/120:20/60:30", "2+500ms",
					    "5+d3", "corr:10d/10", "-" };
	char buf[TIME_CONTROL_TEXT_MAX];
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++) {
		ck_assert_int_eq(time_control_parse(&want, ours[i], NULL), TCHESS_OK);
		pgn_time_control_write(&want, buf, sizeof buf);
		ck_assert_msg(pgn_time_control_parse(buf, &tc, &e) == TCHESS_OK, "%s: %s", buf, e.message);
		ck_assert_msg(time_control_equal(&tc, &want), "%s reads back as another control", buf);
	}
	/* "300" is sudden death: 5 minutes, no increment. */
	ck_assert_int_eq(pgn_time_control_parse("300", &tc, NULL), TCHESS_OK);
	ck_assert_int_eq(time_control_parse(&want, "5+0", NULL), TCHESS_OK);
	ck_assert(time_control_equal(&tc, &want));
	ck_assert_int_eq(tc.kind, TC_FISCHER);
	ck_assert_int_eq(pgn_time_control_parse("10/864000", &tc, NULL), TCHESS_OK);
	ck_assert_int_eq(tc.kind, TC_CORRESPONDENCE);
	/* What cannot be read says why and leaves tc alone. */
	static const char *const bad[] = { "?", "", "*180", "5+", "+3", "40/", "0+1", "300+3x", "1.2.3",
					   "40/5400:1800:600:300:60", "99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(time_control_parse(&tc, "7+7", NULL), TCHESS_OK);
		want = tc;
		ck_assert_msg(pgn_time_control_parse(bad[i], &tc, &e) != TCHESS_OK, "'%s' was read", bad[i]);
		ck_assert(time_control_equal(&tc, &want));
		ck_assert(e.message[0] != '\0');
	}
}
END_TEST

START_TEST(test_game_time_control_from_tags)
{
	struct pgn_game g;
	struct time_control tc, want;
	/* Another tool's file: seconds. */
	pgn_game_init(&g);
	ck_assert_int_eq(pgn_game_set_tag(&g, "TimeControl", "180+2"), TCHESS_OK);
	ck_assert_int_eq(pgn_game_time_control(&g, &tc, NULL), TCHESS_OK);
	ck_assert_int_eq(time_control_parse(&want, "3+2", NULL), TCHESS_OK);
	ck_assert(time_control_equal(&tc, &want));
	/* An older tchessd export: its own minutes form in TimeControl. */
	ck_assert_int_eq(pgn_game_set_tag(&g, "TimeControl", "5+3"), TCHESS_OK);
	ck_assert_int_eq(pgn_game_set_tag(&g, "Protocol", "tchess/1"), TCHESS_OK);
	ck_assert_int_eq(pgn_game_time_control(&g, &tc, NULL), TCHESS_OK);
	ck_assert_int_eq(time_control_parse(&want, "5+3", NULL), TCHESS_OK);
	ck_assert(time_control_equal(&tc, &want));
	/* Today's: the standard form, and ours beside it, which wins. */
	ck_assert_int_eq(pgn_game_set_tag(&g, "TimeControl", "300+3d"), TCHESS_OK);
	ck_assert_int_eq(pgn_game_set_tag(&g, PGN_TAG_TCHESS_TIME_CONTROL, "5+b3"), TCHESS_OK);
	ck_assert_int_eq(pgn_game_time_control(&g, &tc, NULL), TCHESS_OK);
	ck_assert_int_eq(tc.kind, TC_BRONSTEIN);
	pgn_game_fini(&g);
	ck_assert_int_eq(pgn_game_time_control(&g, &tc, NULL), TCHESS_ERR_TIME_CONTROL);
}
END_TEST

START_TEST(test_termination_values)
{
	/* Strings that may appear as Termination tag values: "abandoned",
	 * "adjudication", "death", "emergency", "normal", "rules infraction",
	 * "time forfeit", "unterminated". */
	static const char *const standard[] = { "abandoned", "adjudication", "death", "emergency", "normal",
						"rules infraction", "time forfeit", "unterminated" };
	for (int t = 0; t < GAME_TERM_COUNT; t++) {
		for (int r = GAME_RESULT_NONE; r <= GAME_RESULT_DRAW; r++) {
			const char *v = pgn_termination_value((enum game_termination)t, (enum game_result)r);
			bool ok = false;
			for (size_t k = 0; k < sizeof standard / sizeof standard[0]; k++)
				ok = ok || !strcmp(v, standard[k]);
			ck_assert_msg(ok, "termination %d gives '%s'", t, v);
		}
	}
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_CHECKMATE, GAME_RESULT_WHITE_WINS), "normal");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_AGREEMENT, GAME_RESULT_DRAW), "normal");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_TIMEOUT, GAME_RESULT_BLACK_WINS), "time forfeit");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_TIMEOUT_VS_INSUFFICIENT, GAME_RESULT_DRAW), "time forfeit");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_ABORTED, GAME_RESULT_NONE), "abandoned");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_TABLEBASE, GAME_RESULT_WHITE_WINS), "adjudication");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_TECHNICAL_FAILURE, GAME_RESULT_BLACK_WINS), "abandoned");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_TECHNICAL_FAILURE, GAME_RESULT_NONE), "emergency");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_NONE, GAME_RESULT_NONE), "unterminated");
	ck_assert_str_eq(pgn_termination_value(GAME_TERM_ADJOURNED, GAME_RESULT_NONE), "unterminated");

	struct pgn_game g;
	pgn_game_init(&g);
	ck_assert_int_eq(pgn_set_termination(&g, GAME_TERM_FIFTY_MOVES, GAME_RESULT_DRAW), TCHESS_OK);
	ck_assert_str_eq(pgn_game_tag(&g, "Termination"), "normal");
	ck_assert_str_eq(pgn_game_tag(&g, "TerminationDetail"), "fifty-moves");
	pgn_game_fini(&g);
	ck_assert_int_eq(pgn_set_termination(&g, GAME_TERM_NONE, GAME_RESULT_NONE), TCHESS_OK);
	ck_assert_str_eq(pgn_game_tag(&g, "Termination"), "unterminated");
	ck_assert_ptr_null(pgn_game_tag(&g, "TerminationDetail"));
	pgn_game_fini(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pgn-tags");
	TCase *tc = tcase_create("tags");
	tcase_add_test(tc, test_time_control_written_in_seconds);
	tcase_add_test(tc, test_time_control_read_standard);
	tcase_add_test(tc, test_game_time_control_from_tags);
	tcase_add_test(tc, test_termination_values);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
