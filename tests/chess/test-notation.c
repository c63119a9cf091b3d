/*
 * Notation tests: SAN and UCI written and read back for every legal move of
 * every suite position to depth 2; the lenient forms real PGN files and
 * people use; disambiguation by file, rank and both; and malformed,
 * ambiguous and illegal moves each rejected with the right error.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "testdata.h"

static const char *const suites[] = {
	"perft/positions.tsv",
	"perft/python-chess-tricky.perft",
	"perft/scalachess-tricky.perft",
};

static long checked;

static void round_trip_moves(struct position *p, int depth, const char *fen)
{
	struct move_list list;
	movegen_legal(p, &list);
	for (int i = 0; i < list.count; i++) {
		move m = list.moves[i], back;
		char san[SAN_MAX], uci[UCI_MAX];
		struct tchess_error err;
		size_t n = san_write(p, m, san);
		ck_assert_uint_lt(n, SAN_MAX);
		ck_assert_msg(san_parse(p, san, n, &back, &err) == TCHESS_OK, "%s: SAN %s: %s", fen, san, err.message);
		ck_assert_msg(back == m, "%s: SAN %s read as another move", fen, san);
		n = uci_write(p, m, uci);
		ck_assert_msg(uci_parse(p, uci, n, &back, &err) == TCHESS_OK, "%s: UCI %s: %s", fen, uci, err.message);
		ck_assert_msg(back == m, "%s: UCI %s read as another move", fen, uci);
		/* SANs of distinct moves are distinct. */
		for (int j = 0; j < i; j++) {
			char other[SAN_MAX];
			san_write(p, list.moves[j], other);
			ck_assert_msg(strcmp(san, other), "%s: two moves written %s", fen, san);
		}
		checked++;
		if (depth > 1) {
			struct undo u;
			position_make(p, m, &u);
			round_trip_moves(p, depth - 1, fen);
			position_unmake(p, m, &u);
		}
	}
}

START_TEST(test_round_trip_suites)
{
	struct perft_case *cases;
	size_t n = testdata_read_perft(suites[_i], &cases);
	checked = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && !strcmp(cases[i].fen, cases[i - 1].fen))
			continue;
		struct position p;
		ck_assert_int_eq(fen_parse(&p, cases[i].fen, NULL), TCHESS_OK);
		round_trip_moves(&p, testdata_light() ? 1 : 2, cases[i].fen);
	}
	free(cases);
	if (n)
		ck_assert_int_gt(checked, 100);
}
END_TEST

START_TEST(test_round_trip_start)
{
	struct position p;
	position_init_start(&p);
	checked = 0;
	round_trip_moves(&p, 2, "start");
	ck_assert_int_eq(checked, 20 + 400);
}
END_TEST

struct read_case {
	const char *fen;
	const char *text;
	const char *uci; /* expected move, or NULL for an error */
	enum tchess_err err;
	const char *phrase; /* in the error message */
};

#define START FEN_START
/* After 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6: White can castle. */
#define ITALIAN "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
/* White pawn e5, black pawn just played d7-d5: e.p. legal. */
#define EP "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
/* White pawn on e7 about to promote; knights on b1 and f1 (d2 by file);
 * rooks a1, a3 (a2 by rank). */
#define PROMO "3qk3/4P3/8/8/8/R7/8/RN2KN2 w - - 0 1"
/* Queens on a1, a3, c1, c3: Qa1-b2 needs file and rank. */
#define THREE_QUEENS "8/8/8/7k/8/Q1Q5/8/Q1Q4K w - - 0 1"

static const struct read_case read_cases[] = {
	{ START, "Nf3", "g1f3", TCHESS_OK, NULL },
	{ START, "Ng1f3", "g1f3", TCHESS_OK, NULL },
	{ START, "Ng1-f3", "g1f3", TCHESS_OK, NULL },
	{ START, "Ngf3", "g1f3", TCHESS_OK, NULL },
	{ START, "N1f3", "g1f3", TCHESS_OK, NULL },
	{ START, "Nf3!?", "g1f3", TCHESS_OK, NULL },
	{ START, "e4", "e2e4", TCHESS_OK, NULL },
	{ START, "Pe4", "e2e4", TCHESS_OK, NULL },
	{ START, "e2e4", "e2e4", TCHESS_OK, NULL },
	{ START, "e4!!", "e2e4", TCHESS_OK, NULL },
	{ START, "e4??", "e2e4", TCHESS_OK, NULL },
	{ START, "e4?!", "e2e4", TCHESS_OK, NULL },
	{ START, "  e4 ", "e2e4", TCHESS_OK, NULL },
	{ ITALIAN, "O-O", "e1h1", TCHESS_OK, NULL },
	{ ITALIAN, "0-0", "e1h1", TCHESS_OK, NULL },
	{ ITALIAN, "O-O+", "e1h1", TCHESS_OK, NULL },
	{ ITALIAN, "Bxf7+", "c4f7", TCHESS_OK, NULL },
	{ ITALIAN, "Bf7", "c4f7", TCHESS_OK, NULL },
	{ ITALIAN, "Ng5", "f3g5", TCHESS_OK, NULL },
	{ EP, "exd6", "e5d6", TCHESS_OK, NULL },
	{ EP, "exd6e.p.", "e5d6", TCHESS_OK, NULL },
	{ EP, "exd6 e.p.", "e5d6", TCHESS_OK, NULL },
	{ EP, "exd6ep", "e5d6", TCHESS_OK, NULL },
	{ EP, "ed6", "e5d6", TCHESS_OK, NULL },
	{ EP, "exf6", NULL, TCHESS_ERR_ILLEGAL, "no pawn" },
	{ PROMO, "e8=Q", NULL, TCHESS_ERR_ILLEGAL, "no pawn" },
	{ PROMO, "exd8=Q+", "e7d8q", TCHESS_OK, NULL },
	{ PROMO, "exd8Q", "e7d8q", TCHESS_OK, NULL },
	{ PROMO, "exd8=N", "e7d8n", TCHESS_OK, NULL },
	{ PROMO, "exd8=q", "e7d8q", TCHESS_OK, NULL },
	{ PROMO, "exd8=b", "e7d8b", TCHESS_OK, NULL },
	{ PROMO, "exd8", NULL, TCHESS_ERR_ILLEGAL, "must promote" },
	{ PROMO, "Nd2", NULL, TCHESS_ERR_AMBIGUOUS, "Nbd2, Nfd2" },
	{ PROMO, "Nbd2", "b1d2", TCHESS_OK, NULL },
	{ PROMO, "Nfd2", "f1d2", TCHESS_OK, NULL },
	{ PROMO, "Ra2", NULL, TCHESS_ERR_AMBIGUOUS, "R1a2, R3a2" },
	{ PROMO, "R1a2", "a1a2", TCHESS_OK, NULL },
	{ PROMO, "R3a2", "a3a2", TCHESS_OK, NULL },
	{ THREE_QUEENS, "Qb2", NULL, TCHESS_ERR_AMBIGUOUS, "ambiguous" },
	{ THREE_QUEENS, "Qa1b2", "a1b2", TCHESS_OK, NULL },
	{ THREE_QUEENS, "Qc3b2", "c3b2", TCHESS_OK, NULL },
	{ START, "Nf6", NULL, TCHESS_ERR_ILLEGAL, "no knight of White's can move to f6" },
	{ START, "e5", NULL, TCHESS_ERR_ILLEGAL, "no pawn" },
	{ START, "O-O", NULL, TCHESS_ERR_ILLEGAL, "castling kingside is not legal" },
	{ START, "O-O-O", NULL, TCHESS_ERR_ILLEGAL, "castling queenside is not legal" },
	{ START, "Nxf3", NULL, TCHESS_ERR_ILLEGAL, "captures nothing" },
	{ START, "", NULL, TCHESS_ERR_SAN_SYNTAX, "empty" },
	{ START, "xyz", NULL, TCHESS_ERR_SAN_SYNTAX, "not a move" },
	{ START, "Zf3", NULL, TCHESS_ERR_SAN_SYNTAX, "not a move" },
	{ START, "Nf9", NULL, TCHESS_ERR_SAN_SYNTAX, "not a move" },
	{ START, "N", NULL, TCHESS_ERR_SAN_SYNTAX, "not a move" },
	{ START, "e4e5e6e7e8e9e4e5e6e7e8e9x", NULL, TCHESS_ERR_SAN_SYNTAX, "too long" },
	{ START, "Kxe2", NULL, TCHESS_ERR_ILLEGAL, "no king" },
	{ START, "e4=Q", NULL, TCHESS_ERR_ILLEGAL, "only on the last rank" },
	{ START, "Nf3=Q", NULL, TCHESS_ERR_ILLEGAL, "only a pawn promotes" },
	{ START, "\xff\xfe", NULL, TCHESS_ERR_SAN_SYNTAX, "not a move" },
};

START_TEST(test_read_cases)
{
	const struct read_case *c = &read_cases[_i];
	struct position p;
	struct tchess_error err;
	move m = MOVE_NONE;
	ck_assert_int_eq(fen_parse(&p, c->fen, NULL), TCHESS_OK);
	enum tchess_err rc = san_parse(&p, c->text, strlen(c->text), &m, &err);
	if (c->uci) {
		char uci[UCI_MAX];
		ck_assert_msg(rc == TCHESS_OK, "'%s': %s", c->text, err.message);
		struct position std = p;
		std.chess960 = true; /* king-takes-rook form for comparison */
		uci_write(&std, m, uci);
		ck_assert_msg(!strcmp(uci, c->uci), "'%s' read as %s, want %s", c->text, uci, c->uci);
	} else {
		ck_assert_msg(rc == c->err, "'%s': got %s (%s), want %s", c->text, tchess_strerror(rc),
			      rc ? err.message : "ok", tchess_strerror(c->err));
		ck_assert_msg(strstr(err.message, c->phrase), "'%s': message '%s' lacks '%s'", c->text, err.message,
			      c->phrase);
	}
}
END_TEST

START_TEST(test_san_write_forms)
{
	static const struct {
		const char *fen, *uci, *san;
	} cases[] = {
		{ ITALIAN, "e1g1", "O-O" },
		{ ITALIAN, "c4f7", "Bxf7+" },
		{ EP, "e5d6", "exd6" },
		{ PROMO, "e7d8q", "exd8=Q+" },
		{ PROMO, "e7d8n", "exd8=N" },
		{ PROMO, "b1d2", "Nbd2" },
		{ PROMO, "a3a2", "R3a2" },
		{ THREE_QUEENS, "a1b2", "Qa1b2" },
		{ THREE_QUEENS, "a3b2", "Qa3b2" },
		{ THREE_QUEENS, "c1b1", "Qcb1" },
		{ THREE_QUEENS, "a3a2", "Q3a2" },
		{ "6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1", "d1d8", "Rd8#" },
		{ "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8c8", "O-O-O" },
		{ "r3k2r/8/8/8/8/8/8/3K4 b kq - 0 1", "e8c8", "O-O-O+" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct position p;
		move m;
		char san[SAN_MAX];
		ck_assert_int_eq(fen_parse(&p, cases[i].fen, NULL), TCHESS_OK);
		ck_assert_int_eq(uci_parse(&p, cases[i].uci, strlen(cases[i].uci), &m, NULL), TCHESS_OK);
		san_write(&p, m, san);
		ck_assert_msg(!strcmp(san, cases[i].san), "%s in %s written %s, want %s", cases[i].uci, cases[i].fen,
			      san, cases[i].san);
	}
}
END_TEST

START_TEST(test_uci)
{
	struct position p;
	move m;
	struct tchess_error err;
	char buf[UCI_MAX];
	ck_assert_int_eq(fen_parse(&p, ITALIAN, NULL), TCHESS_OK);
	/* Both castling forms read; standard chess writes the king's step. */
	ck_assert_int_eq(uci_parse(&p, "e1g1", 4, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(move_kind(m), MOVE_CASTLING);
	uci_write(&p, m, buf);
	ck_assert_str_eq(buf, "e1g1");
	ck_assert_int_eq(uci_parse(&p, "e1h1", 4, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(move_kind(m), MOVE_CASTLING);
	/* Chess960 writes king-takes-rook. */
	ck_assert_int_eq(fen_parse(&p, "r3k2r/pppppppp/8/8/8/8/1PPPPPPP/1R2K1RR w GBkq - 0 1", NULL), TCHESS_OK);
	ck_assert(p.chess960);
	ck_assert_int_eq(uci_parse(&p, "e1g1", 4, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(move_kind(m), MOVE_CASTLING);
	uci_write(&p, m, buf);
	ck_assert_str_eq(buf, "e1g1");
	ck_assert_int_eq(uci_parse(&p, "e1b1", 4, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(move_kind(m), MOVE_CASTLING);
	uci_write(&p, m, buf);
	ck_assert_str_eq(buf, "e1b1");

	ck_assert_int_eq(fen_parse(&p, PROMO, NULL), TCHESS_OK);
	ck_assert_int_eq(uci_parse(&p, "e7d8", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "must promote"));
	ck_assert_int_eq(uci_parse(&p, "e7d8k", 5, &m, &err), TCHESS_ERR_UCI_SYNTAX);
	ck_assert_int_eq(uci_parse(&p, "b1d2q", 5, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_int_eq(uci_parse(&p, "e2e", 3, &m, &err), TCHESS_ERR_UCI_SYNTAX);
	ck_assert_int_eq(uci_parse(&p, "i2e4", 4, &m, &err), TCHESS_ERR_UCI_SYNTAX);

	position_init_start(&p);
	ck_assert_int_eq(uci_parse(&p, "e2e5", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "the pawn on e2 cannot move to e5"));
	ck_assert_int_eq(uci_parse(&p, "e7e5", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "it is White's move"));
	ck_assert_int_eq(uci_parse(&p, "e3e4", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "no piece on e3"));
	ck_assert_int_eq(uci_parse(&p, "f1c4", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "blocked"));
	ck_assert_int_eq(uci_parse(&p, "g1g3", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "a knight cannot move from g1 to g3"));
	ck_assert_int_eq(uci_parse(&p, "d1d2", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "d2 holds your own pawn"));
	/* Pinned piece and king into check. */
	ck_assert_int_eq(fen_parse(&p, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", NULL), TCHESS_OK);
	ck_assert_int_eq(uci_parse(&p, "e2c3", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "pinned"));
	ck_assert_int_eq(fen_parse(&p, "4k3/3r4/8/8/8/8/8/4K3 w - - 0 1", NULL), TCHESS_OK);
	ck_assert_int_eq(uci_parse(&p, "e1d1", 4, &m, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(err.message, "king would be in check on d1"));
	/* notation_parse_move takes either form. */
	position_init_start(&p);
	ck_assert_int_eq(notation_parse_move(&p, "g1f3\n", 5, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(m, move_make(SQ_G1, 21));
	ck_assert_int_eq(notation_parse_move(&p, " Nf3 ", 5, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(m, move_make(SQ_G1, 21));
}
END_TEST

/* A board's pick and drop as a move: castling by the king's destination
 * or onto its rook, a promotion to choose when promo is 0. */
START_TEST(test_move_from_squares)
{
	struct position p;
	int n;
	ck_assert_int_eq(fen_parse(&p, "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1", NULL), TCHESS_OK);
	move m = notation_move_from_squares(&p, SQ_E1, SQ_G1, 0, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(move_kind(m), MOVE_CASTLING);
	ck_assert(notation_move_from_squares(&p, SQ_E1, SQ_H1, 0, &n) == m);
	ck_assert_int_eq(n, 1);
	notation_move_from_squares(&p, notation_parse_square("b7"), SQ_B8, 0, &n);
	ck_assert_int_eq(n, 4);
	m = notation_move_from_squares(&p, notation_parse_square("b7"), SQ_B8, KNIGHT, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(move_promotion(m), KNIGHT);
	ck_assert(notation_move_from_squares(&p, SQ_A1, notation_parse_square("b2"), 0, &n) == MOVE_NONE);
	ck_assert_int_eq(n, 0);
}
END_TEST

/* Issue 14 item 4: a move typed as people type it is read when exactly one
 * legal move answers, and "bc3" that a pawn and a bishop both make is
 * refused naming both. */
START_TEST(test_parse_typed)
{
	static const struct {
		const char *fen, *text, *uci; /* uci NULL: refused */
		const char *why;
	} cases[] = {
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "nf3", "g1f3", NULL },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "NF3", "g1f3", NULL },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "E2E4", "e2e4", NULL },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "E4", "e2e4", NULL },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "f4", "f2f4", NULL },
		{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "E1G1", "e1g1", NULL },
		{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "o-o-o", "e1c1", NULL },
		{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "ke2", "e1e2", NULL },
		{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "rb1", "a1b1", NULL },
		/* a pawn's and a bishop's: both named */
		{ "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bc3", NULL, "bc3 is ambiguous: bxc3 or Bxc3" },
		{ "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bxc3", NULL, "bxc3 is ambiguous: bxc3 or Bxc3" },
		{ "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "Bxc3", "d2c3", NULL },
		{ "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "b3", "b2b3", NULL },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "qd3", NULL, "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct position p;
		struct tchess_error err = { 0 };
		move m;
		char uci[UCI_MAX];
		ck_assert_int_eq(fen_parse(&p, cases[i].fen, NULL), TCHESS_OK);
		enum tchess_err rc = notation_parse_typed(&p, cases[i].text, strlen(cases[i].text), &m, &err);
		if (cases[i].uci) {
			ck_assert_msg(rc == TCHESS_OK, "%s: %s", cases[i].text, err.message);
			uci_write(&p, m, uci);
			ck_assert_str_eq(uci, cases[i].uci);
		} else {
			ck_assert_msg(rc != TCHESS_OK, "%s read", cases[i].text);
			if (cases[i].why[0])
				ck_assert_str_eq(err.message, cases[i].why);
		}
	}
}
END_TEST

static Suite *notation_suite(void)
{
	Suite *s = suite_create("notation");
	TCase *tc = tcase_create("round-trip");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_round_trip_start);
	tcase_add_loop_test(tc, test_round_trip_suites, 0, (int)(sizeof suites / sizeof suites[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("forms");
	tcase_add_loop_test(tc, test_read_cases, 0, (int)(sizeof read_cases / sizeof read_cases[0]));
	tcase_add_test(tc, test_san_write_forms);
	tcase_add_test(tc, test_uci);
	tcase_add_test(tc, test_move_from_squares);
	tcase_add_test(tc, test_parse_typed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(notation_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
