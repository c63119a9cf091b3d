/*
 * Mating material and dead positions: the seeds' insufficient-material
 * list, help-mate semantics per side (for timeout vs insufficient
 * material), locked pawn walls, forced lines, and kokopu's dead flags for
 * its 157 positions (never DEAD where kokopu says alive; every kokopu dead
 * position found dead).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/material.h"
#include "tchess/movegen.h"
#include "testdata.h"

static struct position parse(const char *fen)
{
	struct position p;
	struct tchess_error err;
	ck_assert_msg(fen_parse(&p, fen, &err) == TCHESS_OK, "%s: %s", fen, err.message);
	return p;
}

static void expect_dead(const char *fen, enum material_verdict want)
{
	struct position p = parse(fen);
	enum material_verdict got = material_is_dead(&p);
	ck_assert_msg(got == want, "%s: %s, expected %s", fen, material_verdict_str(got), material_verdict_str(want));
}

static void expect_side(const char *fen, enum color c, bool can)
{
	struct position p = parse(fen);
	ck_assert_msg(material_can_mate(&p, c) == can, "%s: %s %s mate", fen, c == WHITE ? "White" : "Black",
		      can ? "should be able to" : "should not be able to");
}

/* board-and-pieces: "In a position where neither player can checkmate the
 * opponent's king, the game ends in a "dead position": king versus king;
 * king and bishop versus king; king and knight versus king; king and bishop
 * versus king and bishop with the bishops on the same color". */
START_TEST(test_seed_dead_list)
{
	expect_dead("k7/2K5/8/8/8/8/8/8 b - - 0 1", MATERIAL_DEAD);        /* K v K */
	expect_dead("7K/8/6k1/8/8/5b2/8/8 w - - 0 1", MATERIAL_DEAD);      /* K+B v K */
	expect_dead("7K/8/6k1/8/8/8/8/N7 w - - 0 1", MATERIAL_DEAD);       /* K+N v K */
	expect_dead("8/8/8/8/8/5B1b/5K2/7k b - - 0 1", MATERIAL_DEAD);     /* K+B v K+B, same colour */
	/* ... and the contrary case: opposite-coloured bishops can mate (with help). */
	expect_dead("8/8/8/8/8/4k2b/8/4BK2 w - - 0 1", MATERIAL_MATE_POSSIBLE);
	struct position p = parse("8/8/8/8/8/5B1b/5K2/7k b - - 0 1");
	ck_assert(material_insufficient_both(&p));
}
END_TEST

/* The task: "any number of same-coloured bishops" is dead. */
START_TEST(test_same_coloured_bishops)
{
	expect_dead("K4b1k/b7/1b5b/B1b5/1B1b4/B1B1b3/1B1B1b2/B1B1B1b1 w - - 0 1", MATERIAL_DEAD);
	expect_dead("8/8/8/7b/8/5bk1/8/7K w - - 0 1", MATERIAL_DEAD);        /* K+2B same colour v K */
	expect_dead("2b5/8/3b1k2/8/7K/8/8/8 w - - 0 1", MATERIAL_MATE_POSSIBLE); /* opposite colours */
}
END_TEST

/* chessgamble 7: "the game is drawn, if the position is such that the
 * opponent cannot checkmate the player's king by any possible series of
 * legal moves" -- help-mates count, so the answer depends on what the
 * other side has to block its own king with. */
START_TEST(test_helpmate_semantics)
{
	/* A lone king never mates. */
	expect_side("8/8/8/8/K7/1qk5/8/8 w - - 0 1", WHITE, false);
	expect_side("8/8/8/8/K7/1qk5/8/8 w - - 0 1", BLACK, true);
	/* K+N v K: no; K+N v K+P: the pawn can block (or promote): yes. */
	expect_side("7K/8/6k1/8/8/8/8/N7 w - - 0 1", WHITE, false);
	expect_side("7K/8/6k1/8/8/8/6p1/N7 w - - 0 1", WHITE, true);
	/* K+N v K+N and K+B v K+N: mate possible for both (kokopu: not dead). */
	expect_side("K7/3n4/1k6/8/8/8/8/7N w - - 0 1", WHITE, true);
	expect_side("K7/3n4/1k6/8/8/8/8/7N w - - 0 1", BLACK, true);
	expect_side("8/8/8/8/8/8/3n4/kBK5 b - - 0 1", WHITE, true);
	/* K+N v K+Q: the queen sees every square the knight could check
	 * from beside a cornered king, so the knight cannot mate; the queen
	 * can. */
	expect_side("7K/8/6k1/3q4/8/8/8/N7 w - - 0 1", WHITE, false);
	expect_side("7K/8/6k1/3q4/8/8/8/N7 w - - 0 1", BLACK, true);
	/* K+B v K+R: the rook always interposes; K+B v K+P can mate. */
	expect_side("7K/8/6k1/3r4/8/8/8/B7 w - - 0 1", WHITE, false);
	expect_side("7K/8/6k1/8/3p4/8/8/B7 w - - 0 1", WHITE, true);
	/* Two knights can mate a lone king with help (kokopu: not dead). */
	expect_side("8/8/8/2K5/8/1NN5/8/k7 b - - 0 1", WHITE, true);
	/* The tricky-positions mat-04: K+R v K+2B (same colour). */
	struct position p = parse("3b4/8/8/6b1/8/8/R7/K1k5 w - - 0 1");
	ck_assert(!material_insufficient(&p, WHITE));
	ck_assert(material_insufficient(&p, BLACK));
	ck_assert(!material_insufficient_both(&p));
}
END_TEST

/* chessgamble 5.6: "The game is drawn when a position has arisen in which
 * neither player can checkmate the opponent's king with any series of legal
 * moves." -- locked pawn walls with nothing else able to get through. */
START_TEST(test_pawn_walls)
{
	expect_dead("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 50", MATERIAL_DEAD);
	expect_dead("4k3/5p1p/4pPpP/1p1pP1P1/pPpP4/P1P5/8/4K3 w - - 0 50", MATERIAL_DEAD);
	expect_dead("2b5/6k1/p1p1p3/P1P1Pp1p/5P1P/2B5/6K1/8 b - - 0 50", MATERIAL_DEAD);
	expect_dead("4k3/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/4K3 b - - 0 50", MATERIAL_DEAD);
	/* Kings shut in corners, the bishops frozen behind their own pawns. */
	expect_dead("k1b5/1p1p4/1P1P4/2p5/2P5/1p1p4/1P1P4/K1B5 w - - 0 37", MATERIAL_DEAD);
}
END_TEST

/* Soundness: the same walls with a way through are never called dead. */
START_TEST(test_pawn_walls_alive)
{
	struct position p;
	/* e.p. capture bxa3 is available: the wall opens. */
	p = parse("4k3/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/4K3 b - a3 0 50");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* The black king is already through the wall. */
	p = parse("8/8/8/p1p1p1p1/P1P1P1P1/8/1k6/4K3 w - - 0 50");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* A rook behind the wall can reach squares the pawns attack. */
	p = parse("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/R3K3 w - - 0 50");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* A pawn that can still move. */
	p = parse("4k3/8/8/p1p1p1p1/P1P1P1P1/8/7P/4K3 w - - 0 50");
	ck_assert_int_eq(material_is_dead(&p), MATERIAL_MATE_POSSIBLE);
	/* Norgaard-Buchanan 2002, the living version (clean-chess). */
	p = parse("Bb2kb2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 b - - 2 46");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* Two open files for the kings: alive. */
	p = parse("4k3/8/8/p1p1p3/P1P1P3/8/8/4K3 w - - 0 50");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
}
END_TEST

/* Forced lines: "a position where a checkmate cannot occur by any possible
 * series of moves" includes ones whose every continuation is dead. */
START_TEST(test_forced_dead)
{
	/* Only move Kxa8 leaves K v K. */
	expect_dead("r7/K7/2k5/8/8/8/8/8 w - - 11 43", MATERIAL_DEAD);
	/* Only move Kxg7 stalemates White. */
	expect_dead("1r4k1/6Q1/8/8/8/q7/P7/K7 b - - 4 36", MATERIAL_DEAD);
	/* A mate found by the search proves mate possible. */
	struct position p = parse("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
	ck_assert_int_eq(material_side_verdict(&p, WHITE), MATERIAL_MATE_POSSIBLE);
}
END_TEST

/* A position that is already mate or stalemate. */
START_TEST(test_terminal_positions)
{
	struct position p = parse("8/8/8/8/8/6k1/8/r5K1 w - - 0 1"); /* White mated */
	ck_assert_int_eq(material_side_verdict(&p, BLACK), MATERIAL_MATE_POSSIBLE);
	ck_assert_int_eq(material_side_verdict(&p, WHITE), MATERIAL_DEAD);
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* Stalemate with a pawn on the board: judged by its material. */
	p = parse("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1");
	ck_assert_int_ne(material_is_dead(&p), MATERIAL_DEAD);
	/* Stalemate with K+B v K: dead by material. */
	p = parse("8/8/8/2B5/8/6K1/8/7k b - - 0 1");
	ck_assert_int_eq(material_is_dead(&p), MATERIAL_DEAD);
}
END_TEST

/* kokopu 4.13.4 positions.csv: columns VARIANT, FEN, LEGAL, DEAD. */
START_TEST(test_kokopu_positions)
{
	FILE *f = testdata_open_shared("pgn/kokopu/positions.csv");
	if (!f)
		return;
	static char line[65536];
	int checked = 0, dead = 0;
	ck_assert(fgets(line, sizeof line, f)); /* header */
	while (fgets(line, sizeof line, f)) {
		char *cols[16] = { 0 };
		int n = 0;
		for (char *s = line; n < 16;) {
			cols[n++] = s;
			char *tab = strchr(s, '\t');
			if (!tab)
				break;
			*tab = '\0';
			s = tab + 1;
		}
		if (n < 15 || strcmp(cols[5], "true") != 0)
			continue;
		if (strcmp(cols[2], "regular") != 0 && strcmp(cols[2], "chess960") != 0)
			continue;
		struct position p;
		if (fen_parse(&p, cols[3], NULL) != TCHESS_OK)
			continue;
		bool k_dead = !strcmp(cols[13], "true");
		enum material_verdict v = material_is_dead(&p);
		if (k_dead) {
			ck_assert_msg(v == MATERIAL_DEAD, "%s (%s): kokopu says dead, got %s", cols[0], cols[3],
				      material_verdict_str(v));
			dead++;
		} else {
			ck_assert_msg(v != MATERIAL_DEAD, "%s (%s): kokopu says not dead", cols[0], cols[3]);
		}
		ck_assert_msg(movegen_is_checkmate(&p) == !strcmp(cols[11], "true"), "%s: checkmate flag", cols[0]);
		ck_assert_msg(movegen_is_stalemate(&p) == !strcmp(cols[12], "true"), "%s: stalemate flag", cols[0]);
		checked++;
	}
	fclose(f);
	ck_assert_int_ge(checked, 70);
	ck_assert_int_ge(dead, 8);
}
END_TEST

START_TEST(test_verdict_names)
{
	ck_assert_str_eq(material_verdict_str(MATERIAL_DEAD), "dead");
	ck_assert_str_eq(material_verdict_str(MATERIAL_UNKNOWN), "unknown");
	ck_assert_str_eq(material_verdict_str(MATERIAL_MATE_POSSIBLE), "mate-possible");
}
END_TEST

static Suite *material_suite(void)
{
	Suite *s = suite_create("material");
	TCase *tc = tcase_create("material");
	tcase_add_test(tc, test_seed_dead_list);
	tcase_add_test(tc, test_same_coloured_bishops);
	tcase_add_test(tc, test_helpmate_semantics);
	tcase_add_test(tc, test_pawn_walls);
	tcase_add_test(tc, test_pawn_walls_alive);
	tcase_add_test(tc, test_forced_dead);
	tcase_add_test(tc, test_terminal_positions);
	tcase_add_test(tc, test_kokopu_positions);
	tcase_add_test(tc, test_verdict_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(material_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
