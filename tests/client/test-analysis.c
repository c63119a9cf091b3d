/*
 * Move judgements, accuracy, and the evaluation graph and bar rendered to
 * cells, without a terminal or an engine. The expected numbers were worked
 * out by hand from Lichess's formulas (analysis.c cites them).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "eval-graph.h"

static struct pgn_eval cp(int v)
{
	struct pgn_eval e = { PGN_EVAL_CP, v, -1 };
	return e;
}

static struct pgn_eval mate(int v)
{
	struct pgn_eval e = { PGN_EVAL_MATE, v, -1 };
	return e;
}

START_TEST(test_winning_chances)
{
	struct pgn_eval e = cp(0);
	ck_assert(fabs(analysis_winning_chances(&e)) < 1e-12);
	/* 2 / (1 + exp(-0.368208)) - 1 = 0.18205... */
	e = cp(100);
	ck_assert_double_eq_tol(analysis_winning_chances(&e), 0.182052, 1e-5);
	e = cp(-100);
	ck_assert_double_eq_tol(analysis_winning_chances(&e), -0.182052, 1e-5);
	/* Held at the ceiling. */
	struct pgn_eval big = cp(5000), ceil = cp(1000);
	ck_assert_double_eq(analysis_winning_chances(&big), analysis_winning_chances(&ceil));
	e = mate(3);
	ck_assert_double_eq(analysis_winning_chances(&e), 1.0);
	e = mate(-1);
	ck_assert_double_eq(analysis_winning_chances(&e), -1.0);
}
END_TEST

/* Lichess's thresholds: a drop of the mover's winning chances of 0.1,
 * 0.2, 0.3. From level, White dropping to -56 cp is 0.1025 (inaccuracy),
 * -54 is 0.0989 (nothing); -113 is 0.2050 (mistake), -110 0.1996; -173
 * 0.3065 (blunder), -168 0.2983. */
START_TEST(test_thresholds)
{
	struct pgn_eval level = cp(0);
	static const struct {
		int after;
		enum analysis_judgement j;
	} cases[] = {
		{ -54, ANALYSIS_NONE },       { -56, ANALYSIS_INACCURACY }, { -110, ANALYSIS_INACCURACY },
		{ -113, ANALYSIS_MISTAKE },   { -168, ANALYSIS_MISTAKE },   { -173, ANALYSIS_BLUNDER },
		{ 300, ANALYSIS_NONE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pgn_eval a = cp(cases[i].after);
		ck_assert_msg(analysis_judge(&level, &a, WHITE) == cases[i].j, "White to %d cp", cases[i].after);
		/* The same drop for Black is the mirror. */
		struct pgn_eval b = cp(-cases[i].after);
		ck_assert_msg(analysis_judge(&level, &b, BLACK) == cases[i].j, "Black to %d cp", -cases[i].after);
	}
	/* A good move for the mover is never judged. */
	struct pgn_eval a = cp(-500);
	ck_assert_int_eq(analysis_judge(&level, &a, BLACK), ANALYSIS_NONE);
	/* No evaluation, no judgement. */
	struct pgn_eval none = { PGN_EVAL_NONE, 0, -1 };
	ck_assert_int_eq(analysis_judge(&none, &a, WHITE), ANALYSIS_NONE);
	ck_assert_str_eq(analysis_judgement_name(ANALYSIS_MISTAKE), "mistake");
	ck_assert_int_eq(analysis_judgement_nag(ANALYSIS_BLUNDER), 4);
}
END_TEST

/* Mates (Advice.scala's MateAdvice), from the mover's point of view. */
START_TEST(test_mate_judgements)
{
	struct pgn_eval b, a;
	/* White lets a mate in: from +0.5 a blunder, from -8.00 a mistake,
	 * from -12.00 an inaccuracy. */
	b = cp(50), a = mate(-4);
	ck_assert_int_eq(analysis_judge(&b, &a, WHITE), ANALYSIS_BLUNDER);
	b = cp(-800);
	ck_assert_int_eq(analysis_judge(&b, &a, WHITE), ANALYSIS_MISTAKE);
	b = cp(-1200);
	ck_assert_int_eq(analysis_judge(&b, &a, WHITE), ANALYSIS_INACCURACY);
	/* Black had mate and lets it go to -3.00 (Black's +3.00): blunder;
	 * still Black's +12.00: inaccuracy. */
	b = mate(-3), a = cp(-300);
	ck_assert_int_eq(analysis_judge(&b, &a, BLACK), ANALYSIS_BLUNDER);
	a = cp(-1200);
	ck_assert_int_eq(analysis_judge(&b, &a, BLACK), ANALYSIS_INACCURACY);
	/* A slower mate is not judged; neither is the mated side's move. */
	a = mate(-6);
	ck_assert_int_eq(analysis_judge(&b, &a, BLACK), ANALYSIS_NONE);
	b = mate(-2), a = mate(-1);
	ck_assert_int_eq(analysis_judge(&b, &a, WHITE), ANALYSIS_NONE);
}
END_TEST

START_TEST(test_accuracy)
{
	/* No loss is 100; a 10-point fall is 103.1668 e^-0.43544 - 3.1669 + 1
	 * = 64.58. */
	ck_assert_double_eq(analysis_move_accuracy(60, 70), 100.0);
	ck_assert_double_eq_tol(analysis_move_accuracy(60, 50), 64.5798, 1e-3);
	ck_assert_double_eq(analysis_move_accuracy(100, 0), 0.0);
	/* A game where nobody loses anything: both 100. */
	struct pgn_eval flat[11];
	for (int i = 0; i < 11; i++)
		flat[i] = cp(20);
	double w, b;
	ck_assert(analysis_game_accuracy(flat, 10, WHITE, &w, &b));
	ck_assert_double_eq_tol(w, 100.0, 1e-9);
	ck_assert_double_eq_tol(b, 100.0, 1e-9);
	/* White blunders once at ply 5 (+0.20 to -3.00); Black never loses:
	 * Black stays 100, White falls well below. */
	struct pgn_eval g[11];
	for (int i = 0; i < 11; i++)
		g[i] = cp(i < 5 ? 20 : -300);
	ck_assert(analysis_game_accuracy(g, 10, WHITE, &w, &b));
	ck_assert_double_eq_tol(b, 100.0, 1e-9);
	ck_assert(w < 80.0 && w > 20.0);
	/* The last position may lack one (mate): as the one before. */
	g[10].kind = PGN_EVAL_NONE;
	double w2, b2;
	ck_assert(analysis_game_accuracy(g, 10, WHITE, &w2, &b2));
	ck_assert_double_eq_tol(w2, w, 1e-9);
	/* Any other missing evaluation: no accuracy. */
	g[3].kind = PGN_EVAL_NONE;
	ck_assert(!analysis_game_accuracy(g, 10, WHITE, &w, &b));
}
END_TEST

/* The graph's cells: braille, two dot columns a cell, White's advantage
 * above the middle and Black's below; the marker row. */
START_TEST(test_graph_braille)
{
	static struct eval_graph g;
	/* Four positions over 2 cells: 4 dot columns, one each. Level, then
	 * White winning (full up), Black winning (full down), unknown (the
	 * one before carries on). */
	double wc[4] = { 0.0, 1.0, -1.0, NAN };
	enum analysis_judgement j[4] = { ANALYSIS_NONE, ANALYSIS_NONE, ANALYSIS_BLUNDER, ANALYSIS_NONE };
	eval_graph_render(&g, wc, j, 4, 1, 2, 2, false);
	ck_assert_int_eq(g.width, 2);
	ck_assert_int_eq(g.height, 2);
	/* Top row, first cell: dot column 0 empty (level), column 1 full
	 * up: dots 4 5 6 8 = U+28B8. Bottom row, second cell: dot column 2
	 * full down, column 3 carrying it on: all eight dots, U+28FF. */
	ck_assert_str_eq(g.cells[0][0], "\u28b8");
	ck_assert_str_eq(g.cells[0][1], " ");
	ck_assert_str_eq(g.cells[1][0], " ");
	ck_assert_str_eq(g.cells[1][1], "\u28ff");
	/* Four rows: the upper two White's half, the lower two Black's. */
	eval_graph_render(&g, wc, j, 4, 1, 2, 4, false);
	ck_assert_str_eq(g.cells[0][0], "\u28b8");
	ck_assert_str_eq(g.cells[1][0], "\u28b8");
	ck_assert_str_eq(g.cells[2][0], " ");
	ck_assert_str_eq(g.cells[2][1], "\u28ff");
	ck_assert_str_eq(g.cells[3][1], "\u28ff");
	ck_assert_str_eq(g.cells[1][1], " ");
	/* The blunder's dot at ply 2's column, '^' at the current ply's. */
	ck_assert_str_eq(g.marks[1], "\u25cf");
	ck_assert_str_eq(g.marks[0], "^");
	ck_assert_int_eq(g.current, 0);
}
END_TEST

START_TEST(test_graph_ascii)
{
	static struct eval_graph g;
	/* Eight positions in 4 ASCII columns, two each; height 4 (2 up, 2
	 * down): +0.5 chances is one row up, a small edge still one. */
	double wc[8] = { 0.5, 0.5, 0.05, 0.05, -1, -1, NAN, NAN };
	eval_graph_render(&g, wc, NULL, 8, 7, 4, 4, true);
	static const char *const want[4] = {
		"    ",
		"##  ",
		"  ##",
		"  ##",
	};
	for (int y = 0; y < 4; y++) {
		char row[8] = "";
		for (int x = 0; x < 4; x++)
			strcat(row, g.cells[y][x]);
		ck_assert_str_eq(row, want[y]);
	}
	ck_assert_str_eq(g.marks[3], "^");
	ck_assert_int_eq(eval_graph_column(7, 8, 4, true), 3);
	ck_assert_int_eq(eval_graph_column(0, 8, 4, true), 0);
	/* A long game in a narrow graph: many plies a column, the last in
	 * the last. */
	ck_assert_int_eq(eval_graph_column(119, 120, 40, false), 39);
	ck_assert_int_eq(eval_graph_column(60, 120, 40, false), 20);
}
END_TEST

START_TEST(test_bar)
{
	char cells[8][EVAL_CELL];
	/* Level: the bottom half White's (full cells), the top Black's. */
	eval_bar_render(0.0, 8, false, false, cells);
	ck_assert_str_eq(cells[7], "\u2588");
	ck_assert_str_eq(cells[4], "\u2588");
	ck_assert_str_eq(cells[3], "\u2591");
	ck_assert_str_eq(cells[0], "\u2591");
	/* 0.5 + 0.1 / 2 = 0.55 of 64 eighths = 35: four full, three eighths. */
	eval_bar_render(0.1, 8, false, false, cells);
	ck_assert_str_eq(cells[4], "\u2588");
	ck_assert_str_eq(cells[3], "\u2583");
	ck_assert_str_eq(cells[2], "\u2591");
	/* Flipped: White's share from the top, in halves. */
	eval_bar_render(0.1, 8, true, false, cells);
	ck_assert_str_eq(cells[3], "\u2588");
	ck_assert_str_eq(cells[4], "\u2580");
	ck_assert_str_eq(cells[5], "\u2591");
	/* ASCII, Black winning: nothing of White's. */
	eval_bar_render(-1.0, 8, false, true, cells);
	for (int i = 0; i < 8; i++)
		ck_assert_str_eq(cells[i], ".");
	eval_bar_render(1.0, 8, false, true, cells);
	ck_assert_str_eq(cells[0], "#");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_winning_chances);
	tcase_add_test(tc, test_thresholds);
	tcase_add_test(tc, test_mate_judgements);
	tcase_add_test(tc, test_accuracy);
	tcase_add_test(tc, test_graph_braille);
	tcase_add_test(tc, test_graph_ascii);
	tcase_add_test(tc, test_bar);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
