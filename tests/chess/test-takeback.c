/*
 * Undo games' provisional moves (tchess/takeback.h): rule 14 of the
 * board-and-pieces document, "While playing under the "Enable undo" game,
 * each player has to stop the clock after every move by clicking on the
 * "done" button." A provisional move may be taken back until "done", which
 * alone commits it to the game; refused commands change nothing.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/notation.h"
#include "tchess/takeback.h"

static void new_game(struct game *g, const char *fen)
{
	struct position p;
	struct tchess_error err;
	ck_assert_msg(fen_parse(&p, fen ? fen : FEN_START, &err) == TCHESS_OK, "%s", err.message);
	ck_assert_msg(game_init(g, &p, NULL, &err) == TCHESS_OK, "%s", err.message);
}

static move mv(const struct game *g, const char *text)
{
	move m;
	struct tchess_error err;
	ck_assert_msg(notation_parse_move(&g->pos, text, strlen(text), &m, &err) == TCHESS_OK, "%s: %s", text,
		      err.message);
	return m;
}

static void shown(const struct takeback_turn *t, const struct game *g, const char *want)
{
	struct position p;
	char fen[FEN_MAX];
	takeback_position(t, g, &p);
	fen_write(&p, fen);
	ck_assert_str_eq(fen, want);
}

START_TEST(test_move_take_back_done)
{
	/* Rule 14: the mover's move counts only when the mover clicks "done";
	 * until then it may be taken back and another made. */
	struct game g;
	struct takeback_turn t;
	struct tchess_error err;
	new_game(&g, NULL);
	takeback_init(&t);
	ck_assert(!takeback_pending(&t));
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "e4"), 1000, &err), TCHESS_OK);
	ck_assert(takeback_pending(&t));
	/* Provisional: not in the game, but on the board shown. */
	ck_assert_uint_eq(g.n_plies, 0);
	shown(&t, &g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	ck_assert_int_eq(takeback_take_back(&t, &g, WHITE, &err), TCHESS_OK);
	ck_assert(!takeback_pending(&t));
	ck_assert_int_eq(t.takebacks, 1);
	shown(&t, &g, FEN_START);
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "d4"), 2000, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_done(&t, &g, WHITE, 3000, 299000, &err), TCHESS_OK);
	ck_assert_uint_eq(g.n_plies, 1);
	ck_assert_int_eq(g.plies[0].at_ms, 3000);
	ck_assert_int_eq(g.plies[0].clock_ms, 299000);
	ck_assert(!takeback_pending(&t));
	ck_assert_int_eq(t.takebacks, 0);
	ck_assert_int_eq(game_side_to_move(&g), BLACK);
	game_fini(&g);
}
END_TEST

START_TEST(test_refusals_change_nothing)
{
	struct game g;
	struct takeback_turn t, before;
	struct tchess_error err;
	new_game(&g, NULL);
	takeback_init(&t);
	/* Only the mover, only legal moves, one provisional move at a time. */
	ck_assert_int_eq(takeback_move(&t, &g, BLACK, MOVE_NONE, 0, &err), TCHESS_ERR_WRONG_SIDE);
	move illegal = move_make(12, 36) /* e2-e5 */;
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, illegal, 0, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_msg(strstr(err.message, "illegal move"), "%s", err.message);
	ck_assert(!takeback_pending(&t));
	ck_assert_int_eq(takeback_take_back(&t, &g, WHITE, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(takeback_done(&t, &g, WHITE, 0, 0, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "e4"), 10, &err), TCHESS_OK);
	before = t;
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "d4"), 20, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_msg(strstr(err.message, "take it back"), "%s", err.message);
	/* The opponent can neither take back nor press done for the mover. */
	ck_assert_int_eq(takeback_take_back(&t, &g, BLACK, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_eq(takeback_done(&t, &g, BLACK, 30, 0, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_mem_eq(&t, &before, sizeof t);
	ck_assert_uint_eq(g.n_plies, 0);
	/* A "done" the game refuses (a time before the last move's) keeps the
	 * provisional move. */
	ck_assert_int_eq(takeback_done(&t, &g, WHITE, 100, 0, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_move(&t, &g, BLACK, mv(&g, "e5"), 150, &err), TCHESS_OK);
	before = t;
	ck_assert_int_eq(takeback_done(&t, &g, BLACK, 50, 0, &err), TCHESS_ERR_RANGE);
	ck_assert_mem_eq(&t, &before, sizeof t);
	ck_assert_uint_eq(g.n_plies, 1);
	game_fini(&g);
}
END_TEST

START_TEST(test_mate_counts_at_done)
{
	/* A provisional mate does not end the game: only "done" commits a move
	 * ("each player has to stop the clock after every move by clicking on
	 * the done button"), so the mover may still take it back. */
	struct game g;
	struct takeback_turn t;
	struct tchess_error err;
	new_game(&g, "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
	takeback_init(&t);
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "Qh5#"), 0, &err), TCHESS_OK);
	ck_assert_int_eq(g.status, GAME_ONGOING);
	ck_assert_int_eq(takeback_take_back(&t, &g, WHITE, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "Qh5#"), 0, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_done(&t, &g, WHITE, 0, 0, &err), TCHESS_OK);
	ck_assert_int_eq(g.status, GAME_OVER);
	ck_assert_int_eq(g.termination, GAME_TERM_CHECKMATE);
	/* Over: no more provisional moves. */
	ck_assert_int_eq(takeback_move(&t, &g, BLACK, MOVE_NONE, 0, &err), TCHESS_ERR_GAME_OVER);
	game_fini(&g);
}
END_TEST

START_TEST(test_adjourned_and_cleared)
{
	/* An adjourned game takes no provisional move; a standing one can be
	 * neither taken back nor committed until the game resumes. */
	struct game g;
	struct takeback_turn t;
	struct tchess_error err;
	new_game(&g, NULL);
	takeback_init(&t);
	ck_assert_int_eq(takeback_move(&t, &g, WHITE, mv(&g, "Nf3"), 0, &err), TCHESS_OK);
	ck_assert_int_eq(game_adjourn(&g, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_take_back(&t, &g, WHITE, &err), TCHESS_ERR_NOT_ALLOWED);
	ck_assert_int_ne(takeback_done(&t, &g, WHITE, 0, 0, &err), TCHESS_OK);
	ck_assert(takeback_pending(&t));
	ck_assert_int_eq(game_resume(&g, &err), TCHESS_OK);
	ck_assert_int_eq(takeback_done(&t, &g, WHITE, 0, 0, &err), TCHESS_OK);
	ck_assert_uint_eq(g.n_plies, 1);
	/* A cleared turn (the game ended another way) holds nothing. */
	ck_assert_int_eq(takeback_move(&t, &g, BLACK, mv(&g, "Nf6"), 0, &err), TCHESS_OK);
	takeback_clear(&t);
	ck_assert(!takeback_pending(&t));
	shown(&t, &g, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
	game_fini(&g);
}
END_TEST

static Suite *takeback_suite(void)
{
	Suite *s = suite_create("takeback");
	TCase *tc = tcase_create("turn");
	tcase_add_test(tc, test_move_take_back_done);
	tcase_add_test(tc, test_refusals_change_nothing);
	tcase_add_test(tc, test_mate_counts_at_done);
	tcase_add_test(tc, test_adjourned_and_cleared);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(takeback_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
