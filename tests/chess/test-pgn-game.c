/*
 * Conversion between PGN games and games: a replay decides the result by
 * the rules, clocks carry over, and a game written back to PGN reads again
 * as the same game with its Result and Termination tags.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/game.h"
#include "tchess/pgn.h"

static void read_one(const char *text, struct pgn_game *pg)
{
	struct pgn_reader r;
	struct pgn_error err;
	pgn_reader_init(&r, text, strlen(text));
	ck_assert_msg(pgn_read_game(&r, pg, &err) == PGN_OK, "%s", err.message);
}

START_TEST(test_mate_and_clocks_round_trip)
{
	struct pgn_game pg, out_pg, back;
	struct game g, g2;
	struct pgn_buf buf;
	read_one("1. f3 {[%clk 0:04:59]} e5 {[%clk 0:04:58]} 2. g4 {[%clk 0:04:50.5]} Qh4# *\n", &pg);
	ck_assert_int_eq(pgn_game_to_game(&pg, NULL, &g, NULL, NULL), TCHESS_OK);
	/* The file said "*", the rules say mate. */
	ck_assert_int_eq(g.result, GAME_RESULT_BLACK_WINS);
	ck_assert_int_eq(g.termination, GAME_TERM_CHECKMATE);
	ck_assert_uint_eq(g.n_plies, 4);
	ck_assert_int_eq(g.plies[2].clock_ms, 290500);
	ck_assert_int_eq(g.plies[3].clock_ms, -1);

	ck_assert_int_eq(pgn_game_from_game(&g, &out_pg, NULL), TCHESS_OK);
	ck_assert_str_eq(pgn_game_tag(&out_pg, "Result"), "0-1");
	ck_assert_str_eq(pgn_game_tag(&out_pg, "Termination"), "normal");
	ck_assert_str_eq(pgn_game_tag(&out_pg, "TerminationDetail"), "checkmate");
	pgn_buf_init(&buf);
	ck_assert_int_eq(pgn_write_game(&out_pg, &buf, NULL), TCHESS_OK);
	ck_assert_ptr_nonnull(strstr(buf.data, "[%clk 0:04:50.5]"));
	read_one(buf.data, &back);
	ck_assert_int_eq(pgn_game_to_game(&back, NULL, &g2, NULL, NULL), TCHESS_OK);
	ck_assert_uint_eq(g2.n_plies, g.n_plies);
	for (size_t i = 0; i < g.n_plies; i++) {
		ck_assert_int_eq(g2.plies[i].m, g.plies[i].m);
		ck_assert_int_eq(g2.plies[i].clock_ms, g.plies[i].clock_ms);
	}
	ck_assert_int_eq(g2.termination, GAME_TERM_CHECKMATE);
	game_fini(&g);
	game_fini(&g2);
	pgn_game_fini(&pg);
	pgn_game_fini(&out_pg);
	pgn_game_fini(&back);
	pgn_buf_fini(&buf);
}
END_TEST

START_TEST(test_moves_after_the_end)
{
	struct pgn_game pg;
	struct game g;
	struct tchess_error err;
	size_t failed = 99;
	/* K+R v K, the king takes the rook: dead, so a further move cannot be
	 * replayed even though the PGN reader (which knows no draw rules)
	 * accepts it. */
	read_one("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/k1r5/2K5 w - - 0 1\"]\n\n1. Kxc2 Ka3 *\n", &pg);
	ck_assert_int_eq(pgn_game_to_game(&pg, NULL, &g, &failed, &err), TCHESS_ERR_GAME_OVER);
	ck_assert_uint_eq(failed, 2);
	ck_assert_ptr_nonnull(strstr(err.message, "after the game ended by insufficient-material"));
	ck_assert_uint_eq(g.n_plies, 1);
	game_fini(&g);
	/* Where the rules end it: after ply 1, by insufficient material. */
	size_t ply = 99;
	enum game_termination t = GAME_TERM_NONE;
	ck_assert(pgn_game_rules_end(&pg, NULL, &ply, &t));
	ck_assert_uint_eq(ply, 1);
	ck_assert_int_eq(t, GAME_TERM_INSUFFICIENT_MATERIAL);
	pgn_game_fini(&pg);
	/* A game that stops where the rules do, or goes on: not ended early. */
	read_one("1. f3 e5 2. g4 Qh4# 0-1\n", &pg);
	ply = 99;
	ck_assert(!pgn_game_rules_end(&pg, NULL, &ply, &t));
	ck_assert_uint_eq(ply, 99);
	pgn_game_fini(&pg);
	read_one("1. e4 e5 *\n", &pg);
	ck_assert(!pgn_game_rules_end(&pg, NULL, &ply, NULL));
	pgn_game_fini(&pg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pgn-game");
	TCase *tc = tcase_create("convert");
	tcase_add_test(tc, test_mate_and_clocks_round_trip);
	tcase_add_test(tc, test_moves_after_the_end);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
