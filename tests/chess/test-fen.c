/*
 * FEN tests: a round trip through the writer for every position of the
 * published suites, the project's corpus of bad FENs each rejected with its
 * own error, offset and reason, and random bytes that must never crash the
 * reader or be accepted as something the writer cannot reproduce.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "testdata.h"

static const char *const suites[] = {
	"perft/positions.tsv",
	"perft/python-chess-tricky.perft",
	"perft/scalachess-tricky.perft",
};

/* Round trip: parse, write, parse again gives the same position, and
 * writing is idempotent. Where the input is already in the writer's form
 * (six fields, KQkq-style letters, an e.p. square only when a capture is
 * legal) the output equals the input byte for byte. */
static void round_trip(const char *fen, const char *source)
{
	struct position a, b;
	struct tchess_error err;
	char out[FEN_MAX], again[FEN_MAX];

	ck_assert_msg(fen_parse(&a, fen, &err) == TCHESS_OK, "%s: %s: %s", source, fen, err.message);
	size_t n = fen_write(&a, out);
	ck_assert_uint_lt(n, FEN_MAX);
	ck_assert_uint_eq(n, strlen(out));
	ck_assert_msg(fen_parse(&b, out, &err) == TCHESS_OK, "%s: rewritten %s: %s", source, out, err.message);
	ck_assert_msg(position_same(&a, &b), "%s: %s -> %s is another position", source, fen, out);
	ck_assert_int_eq(a.halfmove, b.halfmove);
	ck_assert_int_eq(a.fullmove, b.fullmove);
	ck_assert(a.key == b.key);
	fen_write(&b, again);
	ck_assert_str_eq(out, again);

	int fields = 0;
	for (const char *s = fen; *s; s++)
		if (*s != ' ' && (s == fen || s[-1] == ' '))
			fields++;
	const char *castling = strchr(strchr(fen, ' ') + 1, ' ') + 1;
	bool letters_kq = strspn(castling, "KQkq-") == (size_t)(strchr(castling, ' ') - castling);
	const char *ep = strchr(castling, ' ') + 1;
	bool ep_ok = ep[0] == '-' || a.ep != SQ_NONE;
	if (fields == 6 && letters_kq && ep_ok)
		ck_assert_msg(!strcmp(fen, out), "%s: %s written as %s", source, fen, out);
}

START_TEST(test_round_trip_suites)
{
	struct perft_case *cases;
	size_t n = testdata_read_perft(suites[_i], &cases);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(cases[i].fen, cases[i - 1].fen))
			round_trip(cases[i].fen, suites[_i]);
	free(cases);
}
END_TEST

START_TEST(test_round_trip_start)
{
	struct position p, s;
	char out[FEN_MAX];
	round_trip(FEN_START, "start");
	ck_assert_int_eq(fen_parse(&p, FEN_START, NULL), TCHESS_OK);
	position_init_start(&s);
	ck_assert(position_same(&p, &s));
	ck_assert(!memcmp(&p, &s, sizeof p));
	fen_write(&s, out);
	ck_assert_str_eq(out, FEN_START);
}
END_TEST

START_TEST(test_lenient_inputs)
{
	struct position p;
	char out[FEN_MAX];
	/* Four fields (EPD): counters default to 0 and 1. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/8/4K3 w - -", NULL), TCHESS_OK);
	fen_write(&p, out);
	ck_assert_str_eq(out, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
	/* Extra blanks and a trailing newline. */
	ck_assert_int_eq(fen_parse(&p, "  4k3/8/8/8/8/8/8/4K3   b  -  -  3  40 \n", NULL), TCHESS_OK);
	fen_write(&p, out);
	ck_assert_str_eq(out, "4k3/8/8/8/8/8/8/4K3 b - - 3 40");
	/* An e.p. square after every double push (as the PGN standard writes
	 * it) is accepted and dropped when no capture is legal. */
	ck_assert_int_eq(fen_parse(&p, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", NULL),
			 TCHESS_OK);
	ck_assert_int_eq(p.ep, SQ_NONE);
	/* Shredder-FEN letters in a standard position mean standard castling. */
	ck_assert_int_eq(fen_parse(&p, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", NULL), TCHESS_OK);
	ck_assert(!p.chess960);
	fen_write(&p, out);
	ck_assert_str_eq(out, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	/* Chess960: X-FEN names an inner rook by its file. */
	ck_assert_int_eq(fen_parse(&p, "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1", NULL), TCHESS_OK);
	ck_assert(p.chess960);
	ck_assert_int_eq(p.castle_rook[0], SQ_G1);
	ck_assert_int_eq(p.castle_rook[1], SQ_B1);
	fen_write(&p, out);
	ck_assert_str_eq(out, "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GQgq - 0 1");
}
END_TEST

static enum tchess_err code_by_name(const char *name)
{
#define TCHESS_ERR_NAME(code, msg) if (!strcmp(name, #code)) return code;
	TCHESS_ERRORS(TCHESS_ERR_NAME)
#undef TCHESS_ERR_NAME
	ck_abort_msg("unknown error code %s in bad-fens.tsv", name);
	return TCHESS_OK;
}

START_TEST(test_bad_fens)
{
	FILE *f = testdata_open_own("bad-fens.tsv");
	char line[512];
	int rows = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		char *fen = line, *code = strchr(fen, '\t');
		ck_assert_ptr_nonnull(code);
		*code++ = '\0';
		char *offset = strchr(code, '\t');
		ck_assert_ptr_nonnull(offset);
		*offset++ = '\0';
		char *phrase = strchr(offset, '\t');
		ck_assert_ptr_nonnull(phrase);
		*phrase++ = '\0';
		if (!strcmp(fen, "<empty>"))
			fen[0] = '\0';

		struct position p, before;
		struct tchess_error err;
		position_init_start(&p);
		before = p;
		enum tchess_err rc = fen_parse(&p, fen, &err);
		ck_assert_msg(rc == code_by_name(code), "'%s': got %s (%s), want %s", fen, tchess_strerror(rc),
			      rc ? err.message : "", code);
		ck_assert_msg(err.offset == strtoul(offset, NULL, 10), "'%s': offset %zu, want %s (%s)", fen,
			      err.offset, offset, err.message);
		ck_assert_msg(strstr(err.message, phrase), "'%s': message '%s' lacks '%s'", fen, err.message, phrase);
		ck_assert_msg(!memcmp(&p, &before, sizeof p), "'%s': a failed parse changed the position", fen);
		rows++;
	}
	fclose(f);
	ck_assert_int_ge(rows, 40);
}
END_TEST

static uint64_t rng_state = 0x853C49E6748FEA9BULL;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Mutated FENs and random bytes: the reader must never crash, and anything
 * it accepts must survive a round trip and have a sane number of moves. */
START_TEST(test_random_inputs)
{
	static const char *const seeds[] = {
		FEN_START,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1",
	};
	static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0123456789\t\n";
	char buf[128];
	int accepted = 0;
	int iterations = testdata_light() ? 4000 : 200000;
	for (int iter = 0; iter < iterations; iter++) {
		size_t len;
		if (iter % 4 == 0) {
			len = rnd() % 100;
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)(rnd() & 0xff);
		} else {
			const char *s = seeds[rnd() % 4];
			len = strlen(s);
			memcpy(buf, s, len);
			int edits = 1 + (int)(rnd() % 3);
			for (int e = 0; e < edits && len > 0; e++) {
				size_t at = rnd() % len;
				switch (rnd() % 3) {
				case 0:
					buf[at] = alphabet[rnd() % (sizeof alphabet - 1)];
					break;
				case 1:
					memmove(buf + at, buf + at + 1, len - at - 1);
					len--;
					break;
				default:
					if (len < sizeof buf - 1) {
						memmove(buf + at + 1, buf + at, len - at);
						buf[at] = alphabet[rnd() % (sizeof alphabet - 1)];
						len++;
					}
				}
			}
		}
		struct position p;
		struct tchess_error err;
		if (fen_parse_n(&p, buf, len, &err) == TCHESS_OK) {
			char out[FEN_MAX];
			struct position q;
			struct move_list list;
			accepted++;
			fen_write(&p, out);
			ck_assert_msg(fen_parse(&q, out, &err) == TCHESS_OK, "%s: %s", out, err.message);
			ck_assert(position_same(&p, &q));
			ck_assert_int_le(movegen_legal(&p, &list), 218);
		} else {
			ck_assert_uint_le(err.offset, len);
			ck_assert_uint_gt(strlen(err.message), 0);
		}
	}
	ck_assert_int_gt(accepted, iterations / 2000);
}
END_TEST

static Suite *fen_suite(void)
{
	Suite *s = suite_create("fen");
	TCase *tc = tcase_create("round-trip");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_round_trip_start);
	tcase_add_loop_test(tc, test_round_trip_suites, 0, (int)(sizeof suites / sizeof suites[0]));
	tcase_add_test(tc, test_lenient_inputs);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad-input");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_bad_fens);
	tcase_add_test(tc, test_random_inputs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fen_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
