/*
 * Move generator tests: perft against published counts (the Chess
 * Programming Wiki positions, built in; the larger suites from the shared
 * data), make/unmake round trips with the incremental key checked against a
 * recomputed one, and mate/stalemate detection.
 *
 * TCHESS_PERFT_MAX_NODES bounds the cases run (default 1,000,000 nodes per
 * case); the "slow" suite raises it.
 */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "testdata.h"

static uint64_t max_nodes(void)
{
	const char *v = getenv("TCHESS_PERFT_MAX_NODES");
	return v ? strtoull(v, NULL, 10) : 1000000u;
}

static void check_perft(const char *fen, int depth, uint64_t want, const char *source)
{
	struct position p, before;
	struct tchess_error err;
	ck_assert_msg(fen_parse(&p, fen, &err) == TCHESS_OK, "%s: %s: %s", source, fen, err.message);
	before = p;
	uint64_t got = movegen_perft(&p, depth);
	ck_assert_msg(got == want, "%s: perft(%d) of %s = %" PRIu64 ", published %" PRIu64, source, depth, fen, got,
		      want);
	ck_assert_msg(memcmp(&p, &before, sizeof p) == 0, "%s: position not restored after perft", source);
}

/* Chess Programming Wiki, "Perft Results", positions 1-6. */
static const struct {
	const char *fen;
	int depth;
	uint64_t nodes;
} cpw[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609 },
	{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603 },
	{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624 },
	{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333 },
	{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487 },
	{ "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594 },
};

START_TEST(test_perft_cpw)
{
	check_perft(cpw[_i].fen, cpw[_i].depth, cpw[_i].nodes, "CPW");
}
END_TEST

static void run_suite(const char *rel)
{
	struct perft_case *cases;
	size_t n = testdata_read_perft(rel, &cases), run = 0;
	uint64_t limit = max_nodes();
	for (size_t i = 0; i < n; i++) {
		if (cases[i].nodes > limit)
			continue;
		check_perft(cases[i].fen, cases[i].depth, cases[i].nodes, cases[i].source);
		run++;
	}
	if (n)
		ck_assert_msg(run > 0, "%s: no case under the node limit", rel);
	free(cases);
}

START_TEST(test_perft_positions_tsv)
{
	run_suite("perft/positions.tsv");
}
END_TEST

START_TEST(test_perft_python_chess)
{
	run_suite("perft/python-chess-tricky.perft");
}
END_TEST

START_TEST(test_perft_scalachess)
{
	run_suite("perft/scalachess-tricky.perft");
}
END_TEST

/* Walks the tree checking that the incremental key equals a recomputed
 * one, that make/unmake restores the position byte for byte, and that every
 * generated move is accepted by movegen_is_legal. */
static void walk(struct position *p, int depth)
{
	struct move_list list;
	movegen_legal(p, &list);
	ck_assert_int_le(list.count, 218);
	if (depth == 0)
		return;
	for (int i = 0; i < list.count; i++) {
		struct position before = *p;
		struct undo u;
		ck_assert(movegen_is_legal(p, list.moves[i]));
		position_make(p, list.moves[i], &u);
		ck_assert_msg(p->key == position_compute_key(p), "key drift after %d", list.moves[i]);
		walk(p, depth - 1);
		position_unmake(p, list.moves[i], &u);
		ck_assert_msg(memcmp(p, &before, sizeof *p) == 0, "unmake did not restore the position");
	}
}

START_TEST(test_make_unmake_keys)
{
	for (size_t i = 0; i < sizeof cpw / sizeof cpw[0]; i++) {
		struct position p;
		ck_assert_int_eq(fen_parse(&p, cpw[i].fen, NULL), TCHESS_OK);
		walk(&p, 2);
	}
}
END_TEST

START_TEST(test_transposition_same_key)
{
	/* 1.Nf3 Nf6 2.Nc3 Nc6 and 1.Nc3 Nc6 2.Nf3 Nf6 reach the same position. */
	const char *a[] = { "g1f3", "g8f6", "b1c3", "b8c6" }, *b[] = { "b1c3", "b8c6", "g1f3", "g8f6" };
	struct position pa, pb;
	position_init_start(&pa);
	position_init_start(&pb);
	for (int i = 0; i < 4; i++) {
		move m;
		struct undo u;
		ck_assert_int_eq(uci_parse(&pa, a[i], 4, &m, NULL), TCHESS_OK);
		position_make(&pa, m, &u);
		ck_assert_int_eq(uci_parse(&pb, b[i], 4, &m, NULL), TCHESS_OK);
		position_make(&pb, m, &u);
	}
	ck_assert(pa.key == pb.key);
	ck_assert(position_same(&pa, &pb));
}
END_TEST

START_TEST(test_ep_only_when_legal)
{
	/* After 1.e4 no black pawn can take en passant: no e.p. square, so the
	 * position equals the same placement reached without a double push. */
	struct position p;
	move m;
	struct undo u;
	position_init_start(&p);
	ck_assert_int_eq(uci_parse(&p, "e2e4", 4, &m, NULL), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(p.ep, SQ_NONE);

	/* A black pawn on d4 can take: e3 is kept. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", NULL), TCHESS_OK);
	ck_assert_int_eq(uci_parse(&p, "e2e4", 4, &m, NULL), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(p.ep, 20); /* e3 */

	/* Pinned along the rank: the capture would expose the king, so no e.p. */
	ck_assert_int_eq(fen_parse(&p, "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", NULL), TCHESS_OK);
	ck_assert_int_eq(uci_parse(&p, "e2e4", 4, &m, NULL), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(p.ep, SQ_NONE);
}
END_TEST

START_TEST(test_mate_and_stalemate)
{
	struct position p;
	/* Fool's mate. */
	ck_assert_int_eq(fen_parse(&p, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", NULL),
			 TCHESS_OK);
	ck_assert(movegen_is_checkmate(&p));
	ck_assert(!movegen_is_stalemate(&p));
	/* Classic stalemate: black king a8, white queen b6, white king c8... */
	ck_assert_int_eq(fen_parse(&p, "k7/8/1Q6/8/8/8/8/2K5 b - - 0 1", NULL), TCHESS_OK);
	ck_assert(movegen_is_stalemate(&p));
	ck_assert(!movegen_is_checkmate(&p));
	/* Double check: only king moves. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/4r3/R3K2b w Q - 0 1", NULL), TCHESS_OK);
	struct move_list list;
	movegen_legal(&p, &list);
	for (int i = 0; i < list.count; i++)
		ck_assert_int_eq(move_from(list.moves[i]), SQ_E1);
}
END_TEST

static Suite *movegen_suite(void)
{
	Suite *s = suite_create("movegen");
	TCase *tc = tcase_create("perft");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_perft_cpw, 0, (int)(sizeof cpw / sizeof cpw[0]));
	tcase_add_test(tc, test_perft_positions_tsv);
	tcase_add_test(tc, test_perft_python_chess);
	tcase_add_test(tc, test_perft_scalachess);
	suite_add_tcase(s, tc);

	tc = tcase_create("position");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_make_unmake_keys);
	tcase_add_test(tc, test_transposition_same_key);
	tcase_add_test(tc, test_ep_only_when_legal);
	tcase_add_test(tc, test_mate_and_stalemate);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(movegen_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
