/*
 * Attack table tests: slider attacks from the magic tables equal attacks
 * found by walking rays square by square, for every square and many
 * random occupancies; step attacks and between/line sets on known cases.
 */
#include <check.h>
#include <stdlib.h>

#include "tchess/bitboard.h"

static bitboard walk(int sq, bitboard occ, const int dirs[4][2])
{
	bitboard att = 0;
	for (int d = 0; d < 4; d++) {
		int f = sq_file(sq) + dirs[d][0], r = sq_rank(sq) + dirs[d][1];
		while (f >= 0 && f < 8 && r >= 0 && r < 8) {
			att |= sq_bb(make_sq(f, r));
			if (occ & sq_bb(make_sq(f, r)))
				break;
			f += dirs[d][0];
			r += dirs[d][1];
		}
	}
	return att;
}

static uint64_t rng = 0x243F6A8885A308D3ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

START_TEST(test_sliders_match_ray_walk)
{
	static const int rook[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
	static const int bishop[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
	for (int sq = 0; sq < 64; sq++) {
		for (int i = 0; i < 2000; i++) {
			/* Sparse and dense boards alike. */
			bitboard occ = next() & next() & (i % 2 ? next() : ~0ULL);
			ck_assert_msg(attacks_rook(sq, occ) == walk(sq, occ, rook), "rook on %d", sq);
			ck_assert_msg(attacks_bishop(sq, occ) == walk(sq, occ, bishop), "bishop on %d", sq);
			ck_assert(attacks_queen(sq, occ) == (walk(sq, occ, rook) | walk(sq, occ, bishop)));
		}
	}
}
END_TEST

START_TEST(test_steps_and_lines)
{
	ck_assert_int_eq(bb_count(attacks_knight(SQ_A1)), 2);
	ck_assert_int_eq(bb_count(attacks_knight(27)), 8); /* d4 */
	ck_assert_int_eq(bb_count(attacks_king(SQ_H8)), 3);
	ck_assert(attacks_pawn(WHITE, 12) == (sq_bb(19) | sq_bb(21))); /* e2 -> d3, f3 */
	ck_assert(attacks_pawn(BLACK, SQ_A8) == sq_bb(49));            /* a8 -> b7 */
	ck_assert(attacks_between(SQ_A1, SQ_H8) == (sq_bb(9) | sq_bb(18) | sq_bb(27) | sq_bb(36) | sq_bb(45) |
						    sq_bb(54)));
	ck_assert(attacks_between(SQ_A1, 17) == 0); /* not on a line */
	ck_assert(attacks_line(SQ_B1, SQ_D1) == rank_bb(0));
	ck_assert(attacks_line(SQ_A1, 17) == 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bitboard");
	TCase *tc = tcase_create("attacks");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sliders_match_ray_walk);
	tcase_add_test(tc, test_steps_and_lines);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
