/*
 * PGN tests: the reader on small inputs built here (each rule of the
 * standard it checks is quoted), on a corpus of malformed and random input
 * (errors, never crashes or hangs), on the real-world files of the shared
 * data (kokopu's databases compared game by game with their expected
 * parse or error, chess.js, python-chess, scalachess, pychess, pgn-extract's
 * ECO file); the writer's export format, round trips read -> write -> read,
 * and pgn-extract's verdict on everything we write.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/pgn.h"
#include "testdata.h"

/* ---- helpers ---- */

struct readall {
	size_t ok, errors;
	struct pgn_game games[64];   /* the first 64 games, OK or not */
	enum pgn_status status[64];
	struct pgn_error errs[64];
	size_t n;
};

/* Reads every game of buf; keeps the first 64 for inspection. */
static void read_all(const char *buf, size_t len, struct readall *ra)
{
	struct pgn_reader r;
	struct pgn_game g;
	struct pgn_error e;
	enum pgn_status st;
	size_t guard = 0;

	memset(ra, 0, sizeof *ra);
	pgn_reader_init(&r, buf, len);
	while ((st = pgn_read_game(&r, &g, &e)) != PGN_END) {
		ck_assert_msg(++guard <= len + 1, "reader does not progress");
		if (st == PGN_OK)
			ra->ok++;
		else
			ra->errors++;
		if (ra->n < 64) {
			ra->games[ra->n] = g;
			ra->status[ra->n] = st;
			ra->errs[ra->n] = e;
			ra->n++;
		} else {
			pgn_game_fini(&g);
		}
	}
	pgn_game_fini(&g);
}

static void readall_fini(struct readall *ra)
{
	for (size_t i = 0; i < ra->n; i++)
		pgn_game_fini(&ra->games[i]);
	ra->n = 0;
}

static void read_str(const char *s, struct readall *ra)
{
	read_all(s, strlen(s), ra);
}

/* The main line as "e4 e5 Nf3" into buf. */
static const char *sans(const struct pgn_game *g, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < g->n_moves && n + SAN_MAX + 1 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", g->moves[i].san);
	return buf;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static char *slurp_shared(const char *rel, size_t *len)
{
	char *b = slurp(testdata_shared_path(rel), len);
	if (!b)
		testdata_missing(rel);
	return b;
}

/* ---- the reader on small inputs ---- */

START_TEST(test_read_basic)
{
	/* "A PGN database file is a sequential collection of zero or more PGN
	 * games." Tags, movetext and the termination marker of two games. */
	struct readall ra;
	char buf[512];
	read_str("[Event \"A\"]\n[Site \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
		 "[Event \"Second\"]\n\n1. d4 d5 *\n",
		 &ra);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_uint_eq(ra.errors, 0);
	ck_assert_str_eq(pgn_game_tag(&ra.games[0], "Event"), "A");
	ck_assert_str_eq(pgn_game_tag(&ra.games[0], "Site"), "B");
	ck_assert_uint_eq(ra.games[0].n_tags, 3);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
	ck_assert_str_eq(ra.games[0].result, "1-0");
	ck_assert_uint_eq(ra.games[0].line, 1);
	ck_assert_str_eq(ra.games[1].result, "*");
	ck_assert_uint_eq(ra.games[1].line, 7);
	ck_assert_uint_eq(ra.games[1].col, 1);
	readall_fini(&ra);

	read_str("", &ra);
	ck_assert_uint_eq(ra.ok + ra.errors, 0);
	readall_fini(&ra);
	read_str(" \n\r\n\t  ", &ra);
	ck_assert_uint_eq(ra.ok + ra.errors, 0);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_real_file_quirks)
{
	struct readall ra;
	char buf[512];

	/* BOM, CRLF and lone-CR line ends, leading blanks, header and moves
	 * on one line, "1.e4" with no space, "1...", "½-½". */
	read_str("\xEF\xBB\xBF[Event \"x\"]\r\n\r\n1.e4 e5\r\n2.Nf3 *\r\n"
		 "[Event \"y\"]\r\r  1. d4 1... d5 2.c4 ½-½\r"
		 "   [Event \"z\"] 1.e4 1–0\n",
		 &ra);
	ck_assert_uint_eq(ra.ok, 3);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5 Nf3");
	ck_assert_str_eq(sans(&ra.games[1], buf, sizeof buf), "d4 d5 c4");
	ck_assert_str_eq(ra.games[1].result, "1/2-1/2");
	ck_assert_uint_eq(ra.games[1].line, 5);
	ck_assert_str_eq(ra.games[2].result, "1-0");
	ck_assert_uint_eq(ra.games[2].line, 8);
	ck_assert_uint_eq(ra.games[2].col, 4);
	readall_fini(&ra);

	/* "A quote inside a string is represented by the backslash immediately
	 * followed by a quote. A backslash inside a string is represented by
	 * two adjacent backslashes." */
	read_str("[White \"a \\\"b\\\" \\\\c\"]\n*", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_str_eq(pgn_game_tag(&ra.games[0], "White"), "a \"b\" \\c");
	readall_fini(&ra);

	/* "A percent sign character ("%") appearing in the first column of a
	 * line ... the remaining characters of that line are ignored." */
	read_str("%ignored [x \"y\"] {\n[Event \"e\"]\n1. e4\n% e5 junk\n e5 *", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5");
	readall_fini(&ra);

	/* Lenient SAN, as san_parse() accepts it. */
	read_str("1. Ng1f3 d5 2. g3 Nc6 3. Bg2 e5 4. 0-0 Be6 5. d3 Qd7 6. Nc3 0-0-0 *", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "Nf3 d5 g3 Nc6 Bg2 e5 O-O Be6 d3 Qd7 Nc3 O-O-O");
	readall_fini(&ra);

	/* A missing termination marker before the next game's tags or at the end. */
	read_str("[Event \"a\"]\n1. e4 e5\n\n[Event \"b\"]\n1. d4", &ra);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_str_eq(ra.games[0].result, "");
	ck_assert_uint_eq(ra.games[1].n_moves, 1);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_comments_nags_clocks)
{
	struct readall ra;
	/* "Brace comments do not nest"; "a NAG ... is formed from a dollar
	 * sign ("$") with a non-negative decimal integer suffix"; import format
	 * may have "!" and "?" suffixes. */
	read_str("{Before} 1. e4! {best [%clk 0:03:12.4]} $14 e5?! ; rest of line\n"
		 "2. Nf3 +- {a} {b} {[%clk 1:02:03]} Nc6 {[%eval 0.3] [%clk 0:00:09]} *",
		 &ra);
	ck_assert_uint_eq(ra.ok, 1);
	struct pgn_game *g = &ra.games[0];
	ck_assert_str_eq(g->comment_start, "Before");
	ck_assert_uint_eq(g->n_moves, 4);
	ck_assert_str_eq(g->moves[0].comment, "best");
	ck_assert_int_eq(g->moves[0].clock_ms, 192400);
	ck_assert_uint_eq(g->moves[0].n_nags, 2);
	ck_assert_uint_eq(g->moves[0].nags[0], 1);
	ck_assert_uint_eq(g->moves[0].nags[1], 14);
	ck_assert_uint_eq(g->moves[1].nags[0], 6);
	ck_assert_str_eq(g->moves[1].comment, "rest of line");
	ck_assert_uint_eq(g->moves[2].nags[0], 18);
	ck_assert_str_eq(g->moves[2].comment, "a b");
	ck_assert_int_eq(g->moves[2].clock_ms, 3723000);
	/* [%eval] is taken out of the comment like [%clk]. */
	ck_assert_ptr_null(g->moves[3].comment);
	ck_assert_int_eq(g->moves[3].eval.kind, PGN_EVAL_CP);
	ck_assert_int_eq(g->moves[3].eval.value, 30);
	ck_assert_int_eq(g->moves[3].clock_ms, 9000);
	ck_assert_int_eq(g->moves[2].eval.kind, PGN_EVAL_NONE);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_variations)
{
	/* "A RAV (Recursive Annotation Variation) is a sequence of movetext
	 * containing one or more moves enclosed in parentheses." Skipped, and
	 * counted on the move they replace. */
	struct readall ra;
	char buf[256];
	read_str("1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) (1... e6 {x}) 2. Nf3 {y} *", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5 Nf3");
	ck_assert_uint_eq(ra.games[0].moves[1].n_variations, 2);
	ck_assert_uint_eq(ra.games[0].n_variations, 3);
	ck_assert_ptr_null(ra.games[0].moves[1].comment);
	ck_assert_str_eq(ra.games[0].moves[2].comment, "y");
	readall_fini(&ra);

	/* Unbalanced: errors, and the next game is still read. An unclosed
	 * variation is skipped up to the next game's tags. */
	read_str("1. e4 ) e5 *\n\n1. e4 (e5 *\n\n[Event \"c\"]\n1. d4 *", &ra);
	ck_assert_uint_eq(ra.errors, 2);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_uint_eq(ra.games[2].n_moves, 1);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_setup_and_960)
{
	/* "SetUp ... FEN: this uses a string that gives the Forsyth-Edwards
	 * Notation for the first position." */
	struct readall ra;
	char buf[256];
	read_str("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *\n\n"
		 "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n"
		 "1. d4 d5 2. c3 Nb6 3. e4 dxe4 4. Bxe4 g6 5. g4 c6 6. Qf3 Ne6 7. Nb3 Qf6 8. Qxf6 exf6 9. h4 O-O *\n\n"
		 "[Variant \"Chess960\"]\n\n1. e4 *\n\n[Variant \"Crazyhouse\"]\n1. e4 *\n",
		 &ra);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "Kd7 e4");
	ck_assert_int_eq(ra.games[0].start.side, BLACK);
	ck_assert(ra.games[1].start.chess960);
	ck_assert_int_eq(move_kind(ra.games[1].moves[17].m), MOVE_CASTLING);
	ck_assert_str_eq(ra.games[1].moves[17].san, "O-O");
	ck_assert_int_eq(ra.status[2], PGN_ERROR);
	ck_assert_int_eq(ra.status[3], PGN_ERROR);
	ck_assert_ptr_nonnull(strstr(ra.errs[3].message, "Crazyhouse"));
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_null_and_uci)
{
	struct readall ra;
	char buf[256];
	/* Null moves are supported, except in check. */
	read_str("1. e4 -- 2. d4 Z0 *\n\n1. e4 e5 2. Qh5 d6 3. Qxf7+ -- *\n\n1. e2e4 e7e5 *\n\n1. e4 *", &ra);
	ck_assert_int_eq(ra.status[0], PGN_OK);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 -- d4 --");
	ck_assert_uint_eq(ra.games[0].moves[1].m, MOVE_NONE);
	ck_assert_int_eq(ra.status[1], PGN_ERROR);
	ck_assert_ptr_nonnull(strstr(ra.errs[1].message, "null move"));
	/* UCI movetext is an error for its game only. */
	ck_assert_int_eq(ra.status[2], PGN_ERROR);
	ck_assert_ptr_nonnull(strstr(ra.errs[2].message, "UCI"));
	ck_assert_int_eq(ra.status[3], PGN_OK);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_error_locations)
{
	/* Errors name the game, the line and the column, and the reader goes on. */
	struct readall ra;
	read_str("[Event \"ok\"]\n\n1. e4 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"next\"]\n1. d4 *\n",
		 &ra);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_uint_eq(ra.errors, 1);
	ck_assert_int_eq(ra.status[1], PGN_ERROR);
	ck_assert_uint_eq(ra.errs[1].game, 1);
	ck_assert_uint_eq(ra.errs[1].line, 7);
	ck_assert_uint_eq(ra.errs[1].col, 13);
	ck_assert_int_eq(ra.errs[1].code, TCHESS_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(ra.errs[1].message, "game 2, line 7, column 13"));
	ck_assert_str_eq(pgn_game_tag(&ra.games[2], "Event"), "next");
	readall_fini(&ra);
}
END_TEST

START_TEST(test_read_differential_bugs)
{
	/* Found by comparing readers (issue 15); each failed before its fix. */
	struct readall ra;
	char buf[256];

	/* Standard means standard: a castling right whose king is off e1 is
	 * no Chess960 right unless the Variant tag says Chess960. */
	read_str("[FEN \"4k3/8/8/8/8/8/8/5K1R w K - 0 1\"]\n\n1. O-O *\n\n"
		 "[Variant \"Standard\"]\n[FEN \"4k3/8/8/8/8/8/8/5K1R w K - 0 1\"]\n\n1. O-O *\n\n"
		 "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/5K1R w K - 0 1\"]\n\n1. O-O *\n\n"
		 "[FEN \"4k3/8/8/8/8/8/8/5K1R w K - 0 1\"]\n\n1. Kg2 *\n",
		 &ra);
	ck_assert_uint_eq(ra.n, 4);
	ck_assert_int_eq(ra.status[0], PGN_ERROR);
	ck_assert_int_eq(ra.status[1], PGN_ERROR);
	ck_assert_int_eq(ra.status[2], PGN_OK);
	ck_assert(ra.games[2].start.chess960);
	ck_assert_int_eq(move_kind(ra.games[2].moves[0].m), MOVE_CASTLING);
	ck_assert_int_eq(ra.status[3], PGN_OK);
	ck_assert(!ra.games[3].start.chess960);
	ck_assert_uint_eq(ra.games[3].start.castling, 0);
	fen_write(&ra.games[3].start, buf);
	ck_assert_str_eq(buf, "4k3/8/8/8/8/8/8/5K1R w - - 0 1");
	readall_fini(&ra);

	/* Reader and writer agree on the move counters: the position after
	 * 9999... Nf6 (fullmove 10000) writes a FEN that reads back, and the
	 * game writes a PGN that reads back. */
	read_str("[FEN \"4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 9999\"]\n\n9999. Nf3 Nf6 *\n", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	struct position p = ra.games[0].start, back;
	for (size_t i = 0; i < ra.games[0].n_moves; i++) {
		struct undo u;
		position_make(&p, ra.games[0].moves[i].m, &u);
	}
	fen_write(&p, buf);
	ck_assert_str_eq(buf, "4k3/8/5n2/8/8/5N2/8/4K3 w - - 2 10000");
	ck_assert_int_eq(fen_parse(&back, buf, NULL), TCHESS_OK);
	ck_assert_uint_eq(back.fullmove, 10000);
	struct pgn_buf out;
	pgn_buf_init(&out);
	ck_assert_int_eq(pgn_game_add_move(&ra.games[0], MOVE_NONE), TCHESS_OK);
	ck_assert_int_eq(pgn_write_game(&ra.games[0], &out, NULL), TCHESS_OK);
	readall_fini(&ra);
	read_str(out.data, &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_uint_eq(ra.games[0].n_moves, 3);
	readall_fini(&ra);
	pgn_buf_fini(&out);
	/* Past what a position holds the reader refuses, never wraps. */
	read_str("[FEN \"4k1n1/8/8/8/8/8/8/4K1N1 b - - 0 65535\"]\n\n65535... Nf6 *\n", &ra);
	ck_assert_int_eq(ra.status[0], PGN_ERROR);
	ck_assert_ptr_nonnull(strstr(ra.errs[0].message, "65535"));
	readall_fini(&ra);

	/* A result token closing a variation ends that line, not the game:
	 * no phantom game, and the game after keeps its number. */
	read_str("1. e4 (1. d4 1-0) e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n", &ra);
	ck_assert_uint_eq(ra.n, 2);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5 Nf3");
	ck_assert_str_eq(ra.games[0].result, "*");
	ck_assert_str_eq(pgn_game_tag(&ra.games[1], "Event"), "b");
	readall_fini(&ra);

	/* Two games without termination markers or tags, an empty line
	 * between them: two games (as python-chess reads them). An empty
	 * line inside one game's movetext, the numbering going on, is not. */
	read_str("1. e4 e5\n\n1. d4 d5\n", &ra);
	ck_assert_uint_eq(ra.ok, 2);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5");
	ck_assert_str_eq(ra.games[0].result, "");
	ck_assert_str_eq(sans(&ra.games[1], buf, sizeof buf), "d4 d5");
	readall_fini(&ra);
	read_str("1. e4 e5\n\n2. Nf3\n% escape\n\n2... Nc6 *\n", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "e4 e5 Nf3 Nc6");
	readall_fini(&ra);
}
END_TEST

/* ---- malformed input ---- */

static void read_bytes_survives(const char *buf, size_t len)
{
	struct readall ra;
	read_all(buf, len, &ra);
	readall_fini(&ra);
}

/* A move after mate (a malformed file, or a site's record played on):
 * the game keeps its moves up to the mate, the error says what the move
 * is, and the games after it are all read, whether they have tags, a
 * termination marker or neither. */
START_TEST(test_read_move_after_mate)
{
	struct readall ra;
	char buf[256];
	static const char *const inputs[] = {
		/* tags after it */
		"[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
		/* more moves and a marker, the next game on the next line */
		"1. f3 e5 2. g4 Qh4# 3. Kf2 Qxe1 4. a3 0-1\n[Event \"b\"]\n1. d4 d5 *\n",
		/* no tags anywhere, an empty line: the next game's own marker
		 * was once taken as the bad game's and the game lost */
		"1. f3 e5 2. g4 Qh4# 3. Kf2\n\n1. d4 d5 *\n\n1. c4 *\n",
		/* a variation and a comment after it */
		"1. f3 e5 2. g4 Qh4# 3. Kf2 ( 3. Ke2 ) { c } 3... Qxf2 0-1\n\n1. d4 d5 *\n",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		read_str(inputs[i], &ra);
		ck_assert_msg(ra.n >= 2 && ra.status[0] == PGN_ERROR, "input %zu: %zu games", i, ra.n);
		ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "f3 e5 g4 Qh4#");
		ck_assert_int_eq(ra.errs[0].code, TCHESS_ERR_ILLEGAL);
		ck_assert_msg(strstr(ra.errs[0].message, "3. Kf2: a move after checkmate (no move is legal there)"),
			      "%s", ra.errs[0].message);
		ck_assert_int_eq(ra.status[1], PGN_OK);
		ck_assert_str_eq(sans(&ra.games[1], buf, sizeof buf), "d4 d5");
		readall_fini(&ra);
	}
	read_str(inputs[2], &ra);
	ck_assert_uint_eq(ra.n, 3);
	ck_assert_str_eq(sans(&ra.games[2], buf, sizeof buf), "c4");
	readall_fini(&ra);

	/* After stalemate too; and in a variation it costs that line only. */
	read_str("[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1... Kh7 *\n", &ra);
	ck_assert_int_eq(ra.status[0], PGN_ERROR);
	ck_assert_ptr_nonnull(strstr(ra.errs[0].message, "1... Kh7: a move after stalemate"));
	readall_fini(&ra);
	read_str("1. f3 e5 2. Kf2 ( 2. g4 Qh4# 3. Kf2 ) 2... d5 *\n", &ra);
	ck_assert_int_eq(ra.status[0], PGN_OK);
	ck_assert_str_eq(sans(&ra.games[0], buf, sizeof buf), "f3 e5 Kf2 d5");
	ck_assert_uint_eq(ra.games[0].n_warnings, 1);
	ck_assert_msg(strstr(ra.games[0].warning, "in a variation, 3. Kf2: a move after checkmate"), "%s",
		      ra.games[0].warning);
	ck_assert_uint_eq(ra.games[0].moves[2].variations[0].n_moves, 2);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_malformed_corpus)
{
	static const char *const bad[] = {
		"[Event \"unterminated",
		"[Event",
		"[",
		"[Event \"x\"",
		"[\"x\"]",
		"[Event \"x\"]]]",
		"1. e4 {never closed",
		"1. e4 {a}}} *",
		"1. e4 $99999999999999999999 *",
		"1. e4 $ *",
		"99999999999999999999999. e4 *",
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 (((((",
		")))))",
		"1. e4 (((((((((e5))))))))) *",
		"[%~<|> \"x\"]",
		"<><><>",
		"1. e4 e5 1-0 1-0 1-0 ** * *",
		"\"\"\"\"\"\"",
		"[Event \"a\\\"]",
		"[Event \"a\\",
		"{\\",
		";",
		"%",
		"\xEF\xBB",
		"1. exd6e.p. e.p. ep *",
		"1. e8=Q *",
		"1. Qxf7# *",
		"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *",
		"[Variant \"Chess960\"][FEN \"garbage\"] *",
		"[SetUp \"1\"]\n[FEN \"\"]\n1. e4 *",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		read_bytes_survives(bad[i], strlen(bad[i]));

	/* Each of these is an error (and nothing else is read). */
	static const char *const errors[] = {
		"[Event \"unterminated", "[Event", "1. e4 {never closed", "1. e4 $99999999999999999999 *",
		"1. e4 (((((((((e5 *", ")", "<", "1. e9 *", "1. Qxf7 *", "[Variant \"Chess960\"][FEN \"garbage\"] *",
	};
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		struct readall ra;
		read_str(errors[i], &ra);
		ck_assert_msg(ra.errors == 1 && ra.ok == 0, "'%s': %zu ok, %zu errors", errors[i], ra.ok, ra.errors);
		readall_fini(&ra);
	}

	/* Deep nesting is bounded. */
	size_t n = 200000;
	char *deep = malloc(2 * n + 16);
	ck_assert_ptr_nonnull(deep);
	strcpy(deep, "1. e4 ");
	memset(deep + 6, '(', n);
	memcpy(deep + 6 + n, "e5 *", 5);
	struct readall ra;
	read_all(deep, strlen(deep), &ra);
	ck_assert_uint_eq(ra.ok, 0);
	ck_assert_uint_ge(ra.errors, 1);
	ck_assert_ptr_nonnull(strstr(ra.errs[0].message, "variation"));
	readall_fini(&ra);

	/* A very long comment and a very long tag value are read. */
	memset(deep, 'x', 2 * n);
	deep[0] = '{';
	memcpy(deep + 2 * n - 4, "} *", 4);
	read_all(deep, strlen(deep), &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_uint_eq(strlen(ra.games[0].comment_start), 2 * n - 5);
	readall_fini(&ra);
	free(deep);
}
END_TEST

START_TEST(test_random_bytes)
{
	/* Random bytes, random PGN-ish tokens, and every truncation of a real
	 * game: the reader returns, every time. */
	static const char *const pieces[] = { "[", "]", "\"", "{", "}", "(", ")", "1.", "e4", "e5", "Nf3", "$1",
					      "*", "1-0", " ", "\n", "\r", "%", ";", "\\", "O-O", "--", "x", "=Q" };
	unsigned long seed = 12345;
	char buf[4096];
	for (int round = 0; round < 3000; round++) {
		size_t len = 0;
		int mode = round % 2;
		while (len < sizeof buf - 8) {
			seed = seed * 6364136223846793005ul + 1442695040888963407ul;
			unsigned v = (unsigned)(seed >> 33);
			if (mode == 0) {
				buf[len++] = (char)(v & 0xFF);
			} else {
				const char *p = pieces[v % (sizeof pieces / sizeof pieces[0])];
				size_t k = strlen(p);
				memcpy(buf + len, p, k);
				len += k;
			}
			if ((v >> 8) % 200 == 0)
				break;
		}
		read_bytes_survives(buf, len);
	}
	const char *game = "[Event \"t\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n"
			   "{c} 1. O-O! $1 {[%clk 0:01:00]} O-O-O (1... Kd7) 2. Rab1 ; x\n Rd2 1/2-1/2\n";
	for (size_t k = 0; k <= strlen(game); k++)
		read_bytes_survives(game, k);
}
END_TEST

/* ---- the writer ---- */

static void check_line_lengths(const char *text)
{
	const char *line = text;
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		ck_assert_msg(line[0] == '[' || n < 80, "line of %zu columns: %.*s", n, (int)n, line);
		line += n + (nl ? 1 : 0);
	}
}

/* Plays a pseudo-random legal game of up to plies plies from p. */
static void random_game(struct pgn_game *g, unsigned long seed, int plies)
{
	struct position p = g->start;
	for (int i = 0; i < plies; i++) {
		struct move_list list;
		if (movegen_legal(&p, &list) == 0)
			break;
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		move m = list.moves[(seed >> 33) % (unsigned)list.count];
		struct undo u;
		ck_assert_int_eq(pgn_game_add_move(g, m), TCHESS_OK);
		position_make(&p, m, &u);
	}
}

/* Builds the games the writer tests use; returns how many. */
static size_t build_games(struct pgn_game *games, size_t max)
{
	size_t n = 0;
	struct pgn_game *g;
	struct position p;
	move m;

	/* Standard, with a comment before the moves, clocks, NAGs, a '}'. */
	g = &games[n++];
	pgn_game_init(g);
	pgn_game_set_tag(g, "White", "Anna \"the Rook\" Back\\slash");
	pgn_game_set_tag(g, "Black", "Bob");
	pgn_game_set_tag(g, "Annotator", "tchess");
	pgn_game_set_tag(g, "Termination", "normal");
	pgn_game_set_tag(g, "Event", "Writer test");
	const char *line[] = { "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Bc5", "d3", "O-O" };
	p = g->start;
	for (size_t i = 0; i < sizeof line / sizeof line[0]; i++) {
		struct undo u;
		ck_assert_int_eq(san_parse(&p, line[i], strlen(line[i]), &m, NULL), TCHESS_OK);
		pgn_game_add_move(g, m);
		position_make(&p, m, &u);
	}
	g->comment_start = strdup("An opening {with braces} and a 100% sure line");
	g->moves[0].clock_ms = 180000;
	g->moves[1].clock_ms = 179900;
	g->moves[2].clock_ms = 9400;
	g->moves[2].nags[0] = 1;
	g->moves[2].nags[1] = 14;
	g->moves[2].n_nags = 2;
	pgn_game_set_comment(g, 3, "A very long comment that goes on and on so that the writer has to wrap it over "
				   "several lines of movetext without ever going past the seventy-ninth column %clk");
	snprintf(g->result, sizeof g->result, "1/2-1/2");

	/* From a FEN, Black to move, promotions. */
	g = &games[n++];
	pgn_game_init(g);
	fen_parse(&g->start, "8/1P4k1/8/8/8/8/6Kp/8 b - - 0 60", NULL);
	p = g->start;
	const char *line2[] = { "h1=Q+", "Kxh1", "Kf7", "b8=N", "Ke6" };
	for (size_t i = 0; i < sizeof line2 / sizeof line2[0]; i++) {
		struct undo u;
		ck_assert_int_eq(san_parse(&p, line2[i], strlen(line2[i]), &m, NULL), TCHESS_OK);
		pgn_game_add_move(g, m);
		position_make(&p, m, &u);
	}
	snprintf(g->result, sizeof g->result, "*");

	/* Chess960 with castling. */
	g = &games[n++];
	pgn_game_init(g);
	fen_parse(&g->start, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", NULL);
	g->start.chess960 = true;
	p = g->start;
	const char *line3[] = { "d4", "d5", "c3", "Nb6", "e4", "dxe4", "Bxe4", "g6", "g4", "c6", "Qf3", "Ne6",
				"Nb3", "Qf6", "Qxf6", "exf6", "h4", "O-O", "Be3", "Nf4", "Nc5", "Rfe8", "Nd2", "Nbd5",
				"c4", "b6", "cxd5", "cxd5", "Bc2", "bxc5", "Nb3", "c4", "Nc5", "Bd6", "Ba4", "Re7",
				"Bc2", "h5", "gxh5", "Nxh5", "O-O-O" };
	for (size_t i = 0; i < sizeof line3 / sizeof line3[0]; i++) {
		struct undo u;
		ck_assert_int_eq(san_parse(&p, line3[i], strlen(line3[i]), &m, NULL), TCHESS_OK);
		pgn_game_add_move(g, m);
		position_make(&p, m, &u);
	}

	/* Long random games, one ending however it ends (mate gets its result). */
	for (unsigned long s = 1; s <= 6 && n < max; s++) {
		g = &games[n++];
		pgn_game_init(g);
		random_game(g, s, 600);
		for (size_t i = 0; i < g->n_moves; i += 7)
			g->moves[i].clock_ms = (int64_t)(s * 100003 * i % 7200000);
		pgn_game_set_tag(g, "Round", "7");
	}

	/* Empty game. */
	g = &games[n++];
	pgn_game_init(g);
	return n;
}

START_TEST(test_write_export_format)
{
	struct pgn_game games[16];
	size_t n = build_games(games, 16);
	struct pgn_buf out;
	struct tchess_error err;
	pgn_buf_init(&out);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(pgn_write_game(&games[i], &out, &err), TCHESS_OK);
	check_line_lengths(out.data);

	/* "The Seven Tag Roster ... Event, Site, Date, Round, White, Black, Result"
	 * in that order, before any other tag. */
	const char *want = "[Event \"Writer test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
			   "[White \"Anna \\\"the Rook\\\" Back\\\\slash\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n"
			   "[Annotator \"tchess\"]\n[Termination \"normal\"]\n\n"
			   "{An opening {with braces) and a 100% sure line} 1. e4 {[%clk 0:03:00]} 1... e5\n"
			   "{[%clk 0:02:59.9]} 2. Nf3 $1 $14 {[%clk 0:00:09.4]} 2... Nc6 {A very long\n";
	ck_assert_msg(!strncmp(out.data, want, strlen(want)), "got:\n%.600s", out.data);

	/* "SetUp" and "FEN" when the start is not the standard position, with
	 * a black move first numbered "60...". */
	ck_assert_ptr_nonnull(strstr(out.data, "[SetUp \"1\"]\n[FEN \"8/1P4k1/8/8/8/8/6Kp/8 b - - 0 60\"]\n\n"
					       "60... h1=Q+ 61. Kxh1 Kf7 62. b8=N Ke6 *\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
					       "[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]"
					       "\n\n1. d4 d5 2. c3 Nb6 3. e4 dxe4 4. Bxe4 g6 5. g4 c6 6. Qf3 Ne6 7. Nb3 Qf6 8. Qxf6\n"
					       "exf6 9. h4 O-O 10. Be3 Nf4"));
	ck_assert_ptr_nonnull(strstr(out.data, "21. O-O-O *\n"));
	/* An illegal move is refused and nothing is written. */
	size_t before = out.len;
	struct pgn_game bad;
	pgn_game_init(&bad);
	pgn_game_add_move(&bad, move_make(SQ_E1, SQ_E8));
	ck_assert_int_eq(pgn_write_game(&bad, &out, &err), TCHESS_ERR_ILLEGAL);
	ck_assert_uint_eq(out.len, before);
	pgn_game_fini(&bad);

	/* Clocks. */
	char clk[24];
	pgn_format_clock(3723000, clk);
	ck_assert_str_eq(clk, "1:02:03");
	pgn_format_clock(9499, clk);
	ck_assert_str_eq(clk, "0:00:09.4");

	pgn_buf_fini(&out);
	for (size_t i = 0; i < n; i++)
		pgn_game_fini(&games[i]);
}
END_TEST

static bool is_marker(const char *r)
{
	return !strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2");
}

/* Compares two games read from PGN: moves, tags given in a, comments,
 * NAGs and clocks. */
static void check_same_game(const struct pgn_game *a, const struct pgn_game *b, const char *what)
{
	char x[4096], y[4096];
	ck_assert_msg(a->n_moves == b->n_moves, "%s: %zu moves, then %zu", what, a->n_moves, b->n_moves);
	ck_assert_msg(!strcmp(sans(a, x, sizeof x), sans(b, y, sizeof y)), "%s: moves differ", what);
	ck_assert_msg(!strcmp(fen_write(&a->start, x) ? x : "", fen_write(&b->start, y) ? y : ""),
		      "%s: start %s, then %s", what, x, y);
	for (size_t i = 0; i < a->n_tags; i++) {
		const char *name = a->tags[i].name;
		if (!strcmp(name, "Result") || !strcmp(name, "SetUp") || !strcmp(name, "FEN") ||
		    !strcmp(name, "Variant") || pgn_game_tag(a, name) != a->tags[i].value)
			continue;
		const char *v = pgn_game_tag(b, name);
		bool printable = true;
		for (const char *p = a->tags[i].value; *p; p++)
			printable = printable && (unsigned char)*p >= ' ';
		if (!printable)
			continue;
		ck_assert_msg(v && !strcmp(v, a->tags[i].value), "%s: tag %s \"%s\" became \"%s\"", what, name,
			      a->tags[i].value, v ? v : "(none)");
	}
	for (size_t i = 0; i < a->n_moves; i++) {
		const struct pgn_move *p = &a->moves[i], *q = &b->moves[i];
		ck_assert_msg(p->clock_ms == q->clock_ms, "%s: move %zu clock", what, i);
		ck_assert_msg(p->n_nags == q->n_nags && !memcmp(p->nags, q->nags, p->n_nags), "%s: move %zu NAGs",
			      what, i);
		if (p->comment && !strchr(p->comment, '}') && !strchr(p->comment, '\\'))
			ck_assert_msg(q->comment && !strcmp(p->comment, q->comment), "%s: move %zu comment '%s' -> '%s'",
				      what, i, p->comment, q->comment ? q->comment : "(none)");
	}
	if (is_marker(a->result))
		ck_assert_msg(!strcmp(a->result, b->result), "%s: result %s became %s", what, a->result, b->result);
	ck_assert_msg(b->result[0] != '\0', "%s: no termination marker written", what);
}

/* Reads a file, writes its good games, reads them back and compares. */
static size_t round_trip_file(const char *rel, struct pgn_buf *all)
{
	size_t len, count = 0;
	char *buf = slurp_shared(rel, &len);
	if (!buf)
		return 0;
	struct pgn_reader r, r2;
	struct pgn_game g, g2;
	struct pgn_error e;
	enum pgn_status st;
	pgn_reader_init(&r, buf, len);
	while ((st = pgn_read_game(&r, &g, &e)) != PGN_END) {
		if (st == PGN_OK) {
			struct pgn_buf out;
			struct tchess_error err;
			pgn_buf_init(&out);
			ck_assert_msg(pgn_write_game(&g, &out, &err) == TCHESS_OK, "%s: %s", rel, err.message);
			check_line_lengths(out.data);
			pgn_reader_init(&r2, out.data, out.len);
			ck_assert_int_eq(pgn_read_game(&r2, &g2, &e), PGN_OK);
			char what[300];
			snprintf(what, sizeof what, "%s game at line %zu", rel, g.line);
			check_same_game(&g, &g2, what);
			pgn_game_fini(&g2);
			ck_assert_int_eq(pgn_read_game(&r2, &g2, &e), PGN_END);
			pgn_game_fini(&g2);
			if (all) {
				bool null = false;
				for (size_t i = 0; i < g.n_moves; i++)
					null = null || g.moves[i].m == MOVE_NONE;
				if (!null)
					pgn_write_game(&g, all, NULL);
			}
			pgn_buf_fini(&out);
			count++;
		}
		pgn_game_fini(&g);
	}
	pgn_game_fini(&g);
	free(buf);
	return count;
}

static const char *const round_trip_files[] = {
	"pgn/chess.js/benchmark.pgn",
	"pgn/kokopu/pgns/misc/database.pgn",
	"pgn/kokopu/pgns/chess960/database.pgn",
	"pgn/python-chess/kasparov-deep-blue-1997.pgn",
	"pgn/python-chess/cutechess-fischerrandom.pgn",
	"pgn/python-chess/legacy-immortal-games.pgn",
	"pgn/python-chess/stockfish-learning.pgn",
	"pgn/scalachess/uzchesscup.pgn",
	"pgn/scalachess/fixtures/allSortOfClocks.pgn",
	"pgn/scalachess/fixtures/fromTcecWithEngineOutput.pgn",
	"pgn/scalachess/fixtures/complete960.pgn",
	"pgn/debian-pychess/mate_in_2.pgn",
	"pgn/debian-pychess/lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn",
	"pgn/debian-pgn-extract/eco.pgn",
};

START_TEST(test_round_trip)
{
	size_t total = 0;
	for (size_t i = 0; i < sizeof round_trip_files / sizeof round_trip_files[0]; i++)
		total += round_trip_file(round_trip_files[i], NULL);
	if (total)
		ck_assert_uint_gt(total, 2400);
}
END_TEST

/* ---- pgn-extract ---- */

static const char *find_pgn_extract(void)
{
	static char path[4096];
	const char *env = getenv("PATH");
	char dirs[4096];
	snprintf(dirs, sizeof dirs, "%s:/usr/games:/usr/local/games", env ? env : "/usr/bin:/bin");
	for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
		snprintf(path, sizeof path, "%s/pgn-extract", d);
		if (access(path, X_OK) == 0)
			return path;
	}
	return NULL;
}

/* Runs pgn-extract on text; fails with its diagnostics if it has any. */
static void check_pgn_extract(const char *text, size_t len, bool nulls, const char *what)
{
	const char *tool = find_pgn_extract();
	if (!tool) {
		testdata_skip("pgn-extract is not installed (apt-get install pgn-extract)");
		return;
	}
	char dir[] = "/tmp/tchess-pgn-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char in[256], log[256], cmd[8800];
	snprintf(in, sizeof in, "%s/in.pgn", dir);
	snprintf(log, sizeof log, "%s/log.txt", dir);
	FILE *f = fopen(in, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	snprintf(cmd, sizeof cmd, "'%s' -s %s -l '%s' -o /dev/null '%s' >/dev/null 2>&1", tool,
		 nulls ? "--allownullmoves" : "", log, in);
	int rc = system(cmd);
	size_t loglen = 0;
	char *diag = slurp(log, &loglen);
	unlink(in);
	unlink(log);
	rmdir(dir);
	ck_assert_msg(rc == 0, "%s: pgn-extract exited with %d", what, rc);
	ck_assert_msg(diag && loglen == 0, "%s: pgn-extract says:\n%.2000s", what, diag ? diag : "(no log)");
	free(diag);
}

START_TEST(test_pgn_extract_accepts_our_games)
{
	struct pgn_game games[16];
	size_t n = build_games(games, 16);
	struct pgn_buf out;
	pgn_buf_init(&out);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(pgn_write_game(&games[i], &out, NULL), TCHESS_OK);
	check_pgn_extract(out.data, out.len, false, "built games");
	pgn_buf_fini(&out);
	for (size_t i = 0; i < n; i++)
		pgn_game_fini(&games[i]);

	/* Null moves: written "--", accepted with --allownullmoves. */
	struct readall ra;
	read_str("1. e4 -- 2. d4 d5 3. -- e5 *", &ra);
	pgn_buf_init(&out);
	ck_assert_int_eq(pgn_write_game(&ra.games[0], &out, NULL), TCHESS_OK);
	ck_assert_ptr_nonnull(strstr(out.data, "1. e4 -- 2. d4 d5 3. -- e5 *"));
	check_pgn_extract(out.data, out.len, true, "null moves");
	pgn_buf_fini(&out);
	readall_fini(&ra);

	/* Every game of the round-trip files, rewritten. */
	pgn_buf_init(&out);
	for (size_t i = 0; i < sizeof round_trip_files / sizeof round_trip_files[0]; i++)
		round_trip_file(round_trip_files[i], &out);
	if (out.len)
		check_pgn_extract(out.data, out.len, false, "rewritten files");
	pgn_buf_fini(&out);
}
END_TEST

/* Whether two lines are the same tree: moves, SAN, NAGs, comments, clocks,
 * evaluations and variations; why not in why. */
static bool same_line(const struct pgn_move *a, size_t na, const struct pgn_move *b, size_t nb, char *why,
		      size_t size)
{
	if (na != nb) {
		snprintf(why, size, "%zu moves against %zu", na, nb);
		return false;
	}
	for (size_t i = 0; i < na; i++) {
		const struct pgn_move *x = &a[i], *y = &b[i];
		if (x->m != y->m || strcmp(x->san, y->san) || x->n_nags != y->n_nags ||
		    memcmp(x->nags, y->nags, x->n_nags) || x->clock_ms != y->clock_ms ||
		    x->eval.kind != y->eval.kind || x->eval.value != y->eval.value || x->eval.depth != y->eval.depth ||
		    (x->comment == NULL) != (y->comment == NULL) || (x->comment && strcmp(x->comment, y->comment)) ||
		    x->n_variations != y->n_variations) {
			snprintf(why, size, "move %zu (%s) differs", i + 1, x->san);
			return false;
		}
		for (size_t k = 0; k < x->n_variations; k++) {
			const struct pgn_line *u = &x->variations[k], *v = &y->variations[k];
			if ((u->comment_start == NULL) != (v->comment_start == NULL) ||
			    (u->comment_start && strcmp(u->comment_start, v->comment_start))) {
				snprintf(why, size, "variation %zu of move %zu (%s): its first comment", k + 1, i + 1,
					 x->san);
				return false;
			}
			if (!same_line(u->moves, u->n_moves, v->moves, v->n_moves, why, size))
				return false;
		}
	}
	return true;
}

START_TEST(test_read_variation_tree)
{
	/* "A RAV ... is a sequence of movetext containing one or more moves
	 * enclosed in parentheses. A RAV is used to represent an alternative
	 * variation. The alternate move sequence given by an RAV is one that
	 * may be legally played by first unplaying the move that appears
	 * immediately prior to the RAV." Kept as a tree, with their NAGs,
	 * comments, clocks and evaluations. */
	struct readall ra;
	char buf[256];
	read_str("1. e4 e5 (1... c5 $1 {Sicilian [%eval 0.25,20]} 2. Nf3 (2. c3 {Alapin} d5 (2... Nf6)) d6) "
		 "({French} 1... e6?! 2. d4 d5) 2. Nf3 {y [%eval #-3]} *",
		 &ra);
	ck_assert_uint_eq(ra.ok, 1);
	struct pgn_game *g = &ra.games[0];
	ck_assert_str_eq(sans(g, buf, sizeof buf), "e4 e5 Nf3");
	ck_assert_uint_eq(g->n_variations, 4);
	const struct pgn_move *e5 = &g->moves[1];
	ck_assert_uint_eq(e5->n_variations, 2);
	const struct pgn_line *sic = &e5->variations[0], *fr = &e5->variations[1];
	ck_assert_uint_eq(sic->n_moves, 3);
	ck_assert_str_eq(sic->moves[0].san, "c5");
	ck_assert_uint_eq(sic->moves[0].n_nags, 1);
	ck_assert_uint_eq(sic->moves[0].nags[0], 1);
	ck_assert_str_eq(sic->moves[0].comment, "Sicilian");
	ck_assert_int_eq(sic->moves[0].eval.kind, PGN_EVAL_CP);
	ck_assert_int_eq(sic->moves[0].eval.value, 25);
	ck_assert_int_eq(sic->moves[0].eval.depth, 20);
	ck_assert_str_eq(sic->moves[1].san, "Nf3");
	ck_assert_str_eq(sic->moves[2].san, "d6");
	ck_assert_uint_eq(sic->moves[1].n_variations, 1);
	const struct pgn_line *alapin = &sic->moves[1].variations[0];
	ck_assert_uint_eq(alapin->n_moves, 2);
	ck_assert_str_eq(alapin->moves[0].comment, "Alapin");
	ck_assert_uint_eq(alapin->moves[1].n_variations, 1);
	ck_assert_str_eq(alapin->moves[1].variations[0].moves[0].san, "Nf6");
	ck_assert_str_eq(fr->comment_start, "French");
	ck_assert_uint_eq(fr->n_moves, 3);
	ck_assert_uint_eq(fr->moves[0].nags[0], 6);
	ck_assert_ptr_null(e5->comment);
	ck_assert_str_eq(g->moves[2].comment, "y");
	ck_assert_int_eq(g->moves[2].eval.kind, PGN_EVAL_MATE);
	ck_assert_int_eq(g->moves[2].eval.value, -3);
	ck_assert_uint_eq(g->n_warnings, 0);

	/* Written back: the same tree, and the same text once more. */
	struct pgn_buf out, again;
	pgn_buf_init(&out);
	pgn_buf_init(&again);
	ck_assert_int_eq(pgn_write_game(g, &out, NULL), TCHESS_OK);
	/* The movetext as one line. */
	char *flat = strdup(out.data);
	for (char *q = flat; *q; q++)
		if (*q == '\n' && q[1] && q[1] != '\n' && q > flat && q[-1] != '\n' && q[-1] != ']')
			*q = ' ';
	ck_assert_msg(strstr(flat, "1. e4 e5 (1... c5 $1 {[%eval 0.25,20] Sicilian} 2. Nf3 (2. c3 {Alapin} 2... d5 "
				       "(2... Nf6)) 2... d6) ({French} 1... e6 $6 2. d4 d5) 2. Nf3 {[%eval #-3] y} *") !=
			      NULL,
		      "%s", flat);
	free(flat);
	struct readall back;
	read_str(out.data, &back);
	ck_assert_uint_eq(back.ok, 1);
	char why[128];
	ck_assert_msg(same_line(g->moves, g->n_moves, back.games[0].moves, back.games[0].n_moves, why, sizeof why),
		      "%s", why);
	ck_assert_int_eq(pgn_write_game(&back.games[0], &again, NULL), TCHESS_OK);
	ck_assert_str_eq(again.data, out.data);
	readall_fini(&back);
	pgn_buf_fini(&out);
	pgn_buf_fini(&again);
	readall_fini(&ra);

	/* A bad move in a variation costs the rest of that variation, not
	 * the game, and the game says so. */
	read_str("1. e4 e5 (1... c5 2. Nf3 Qxh7 3. d4 (3. c3)) 2. Nf3 *", &ra);
	ck_assert_uint_eq(ra.ok, 1);
	g = &ra.games[0];
	ck_assert_str_eq(sans(g, buf, sizeof buf), "e4 e5 Nf3");
	ck_assert_uint_eq(g->moves[1].variations[0].n_moves, 2);
	ck_assert_uint_eq(g->n_warnings, 1);
	ck_assert_msg(strstr(g->warning, "line 1, column 26: in a variation, 2... Qxh7") != NULL, "%s", g->warning);
	readall_fini(&ra);

	/* Variations built through the API are written, an empty one not. */
	read_str("1. d4 d5 *", &ra);
	g = &ra.games[0];
	struct pgn_line *l = pgn_move_add_variation(&g->moves[1]);
	ck_assert_ptr_nonnull(l);
	struct position p = g->start;
	struct undo u;
	position_make(&p, g->moves[0].m, &u);
	move m;
	ck_assert_int_eq(san_parse(&p, "Nf6", 3, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(pgn_line_add_move(l, m), TCHESS_OK);
	ck_assert_ptr_nonnull(pgn_move_add_variation(&g->moves[1]));
	pgn_buf_init(&out);
	ck_assert_int_eq(pgn_write_game(g, &out, NULL), TCHESS_OK);
	ck_assert_ptr_nonnull(strstr(out.data, "1. d4 d5 (1... Nf6) *"));
	pgn_buf_fini(&out);
	ck_assert_int_eq(pgn_move_remove_variation(&g->moves[1], 0), TCHESS_OK);
	ck_assert_uint_eq(g->moves[1].n_variations, 1);
	ck_assert_int_eq(pgn_move_remove_variation(&g->moves[1], 1), TCHESS_ERR_RANGE);
	readall_fini(&ra);
}
END_TEST

START_TEST(test_eval_commands)
{
	/* Lichess's [%eval] values: pawns with two decimals, "#N" for a mate,
	 * optionally ",depth". */
	static const struct {
		const char *text;
		enum pgn_eval_kind kind;
		int value, depth;
		const char *written;
	} ok[] = {
		{ "0.17", PGN_EVAL_CP, 17, -1, "0.17" },     { "-0.3", PGN_EVAL_CP, -30, -1, "-0.30" },
		{ "+1", PGN_EVAL_CP, 100, -1, "1.00" },      { "-0.005", PGN_EVAL_CP, -1, -1, "-0.01" },
		{ "12.345", PGN_EVAL_CP, 1235, -1, "12.35" }, { "#3", PGN_EVAL_MATE, 3, -1, "#3" },
		{ "#-2", PGN_EVAL_MATE, -2, -1, "#-2" },      { "0.25,24", PGN_EVAL_CP, 25, 24, "0.25,24" },
		{ "0", PGN_EVAL_CP, 0, -1, "0.00" },
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct pgn_eval e;
		char buf[24];
		ck_assert_msg(pgn_eval_parse(ok[i].text, strlen(ok[i].text), &e), "%s", ok[i].text);
		ck_assert_int_eq(e.kind, ok[i].kind);
		ck_assert_int_eq(e.value, ok[i].value);
		ck_assert_int_eq(e.depth, ok[i].depth);
		pgn_eval_format(&e, buf);
		ck_assert_str_eq(buf, ok[i].written);
	}
	static const char *const bad[] = { "", "#", "-", "1.", "abc", "0.3x", "#1001", "1001", "0.3,", "1,99999",
					   "1 2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct pgn_eval e = { PGN_EVAL_NONE, 7, -1 };
		ck_assert_msg(!pgn_eval_parse(bad[i], strlen(bad[i]), &e), "'%s' was read", bad[i]);
		ck_assert_int_eq(e.value, 7);
	}
	/* A malformed command stays in the comment, commands inside it too,
	 * so that the text written back reads back the same. */
	struct readall ra;
	read_str("1. e4 {a [%eval x] b [%clk [%eval 0.1] 0:00:01] c [%clk 0:01:00]} *", &ra);
	ck_assert_str_eq(ra.games[0].moves[0].comment, "a [%eval x] b [%clk [%eval 0.1] 0:00:01] c");
	ck_assert_int_eq(ra.games[0].moves[0].clock_ms, 60000);
	ck_assert_int_eq(ra.games[0].moves[0].eval.kind, PGN_EVAL_NONE);
	readall_fini(&ra);
}
END_TEST

/* Every game of the shared files with variations: read, written, read
 * again as the same tree, and written again as the same text; the Lichess
 * study exports keep every variation. */
START_TEST(test_variations_round_trip)
{
	static const struct {
		const char *rel;
		size_t variations;
	} files[] = {
		{ "pgn/debian-pychess/lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn", 232 },
		{ "pgn/debian-pychess/lichess_study_beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn", 170 },
		{ "pgn/debian-pychess/lichess_study_beautiful-checkmate-puzzles_by_thijscom_2018.04.16.pgn", 61 },
		{ "pgn/scalachess/fixtures/commentsAndVariations.pgn", 12 },
		{ "pgn/scalachess/fixtures/fromCrafty.pgn", 40 },
		{ "pgn/kokopu/pgns/misc/database.pgn", 11 },
		{ "pgn/python-chess/legacy-variations-nags-and-comments.pgn", 4 },
	};
	struct pgn_buf all;
	pgn_buf_init(&all);
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		size_t len, vars = 0;
		char *buf = slurp_shared(files[f].rel, &len);
		if (!buf)
			continue;
		struct pgn_reader r;
		struct pgn_game g;
		struct pgn_error e;
		enum pgn_status st;
		pgn_reader_init(&r, buf, len);
		while ((st = pgn_read_game(&r, &g, &e)) != PGN_END) {
			vars += g.n_variations;
			if (st == PGN_OK) {
				struct pgn_buf out, again;
				struct readall back;
				char why[128];
				pgn_buf_init(&out);
				pgn_buf_init(&again);
				ck_assert_int_eq(pgn_write_game(&g, &out, NULL), TCHESS_OK);
				read_str(out.data, &back);
				ck_assert_uint_eq(back.ok, 1);
				ck_assert_uint_eq(back.games[0].n_variations, g.n_variations - 0);
				ck_assert_msg(same_line(g.moves, g.n_moves, back.games[0].moves, back.games[0].n_moves, why,
							sizeof why),
					      "%s game at line %zu: %s", files[f].rel, g.line, why);
				ck_assert_int_eq(pgn_write_game(&back.games[0], &again, NULL), TCHESS_OK);
				ck_assert_str_eq(again.data, out.data);
				ck_assert_int_eq(pgn_write_game(&g, &all, NULL), TCHESS_OK);
				readall_fini(&back);
				pgn_buf_fini(&out);
				pgn_buf_fini(&again);
			}
			pgn_game_fini(&g);
		}
		pgn_game_fini(&g);
		ck_assert_msg(vars == files[f].variations, "%s: %zu variations, expected %zu", files[f].rel, vars,
			      files[f].variations);
		free(buf);
	}
	/* And pgn-extract accepts what we write of them (kokopu's file has a
	 * null move in its main line). */
	if (all.len)
		check_pgn_extract(all.data, all.len, true, "variations");
	pgn_buf_fini(&all);
}
END_TEST

/* ---- real-world files ---- */

/* Calls fn on every .pgn file below the shared folder rel. */
static void walk_shared(const char *rel, void (*fn)(const char *path));

static void walk(const char *dir, void (*fn)(const char *path))
{
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(path, fn);
		else if (strstr(de->d_name, ".pgn"))
			fn(path);
	}
	closedir(d);
}

static void walk_shared(const char *rel, void (*fn)(const char *path))
{
	struct stat st;
	if (stat(testdata_shared_path(rel), &st) != 0) {
		testdata_missing(rel);
		return;
	}
	walk(testdata_shared_path(rel), fn);
}

static size_t files_read;

static void read_file_survives(const char *path)
{
	size_t len;
	char *buf = slurp(path, &len);
	ck_assert_ptr_nonnull(buf);
	struct readall ra;
	read_all(buf, len, &ra);
	readall_fini(&ra);
	free(buf);
	files_read++;
}

START_TEST(test_every_shared_file)
{
	files_read = 0;
	walk_shared("pgn", read_file_survives);
	if (testdata_shared_present())
		ck_assert_uint_gt(files_read, 100);
}
END_TEST

/* Counts OK and bad games of one shared file. */
static bool count_file(const char *rel, size_t *ok, size_t *bad)
{
	size_t len;
	char *buf = slurp_shared(rel, &len);
	if (!buf)
		return false;
	struct readall ra;
	read_all(buf, len, &ra);
	*ok = ra.ok;
	*bad = ra.errors;
	readall_fini(&ra);
	free(buf);
	return true;
}

START_TEST(test_chess_js_benchmark)
{
	size_t ok, bad;
	if (!count_file("pgn/chess.js/benchmark.pgn", &ok, &bad))
		return;
	ck_assert_uint_eq(ok, 100);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* Files with deliberate errors, and how many games of each are bad. */
static const struct {
	const char *file;
	size_t ok, bad;
	const char *why;
} expected_counts[] = {
	{ "pgn/chess.js/test-0.pgn", 0, 1, "HTML <br /> between the tags" },
	{ "pgn/chess.js/test-1.pgn", 1, 0, "" },
	{ "pgn/chess.js/test-2.pgn", 1, 0, "" },
	{ "pgn/chess.js/test-3.pgn", 1, 0, "" },
	{ "pgn/chessops/kasparov-deep-blue-1997.pgn", 6, 0, "" },
	{ "pgn/chessops/pathological-headers.pgn", 1, 0, "" },
	{ "pgn/chessops/headers-and-moves-on-the-same-line.pgn", 0, 3, "Antichess" },
	{ "pgn/chessops/leading-whitespace.pgn", 4, 0, "" },
	{ "pgn/python-chess/anastasian-lewis.pgn", 1, 0, "" },
	{ "pgn/python-chess/antichess-programfox.pgn", 0, 2, "Antichess" },
	{ "pgn/python-chess/chessbase-empty-line.pgn", 1, 0, "" },
	{ "pgn/python-chess/cutechess-fischerrandom.pgn", 4, 0, "" },
	{ "pgn/python-chess/kasparov-deep-blue-1997.pgn", 6, 0, "" },
	{ "pgn/python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 0, 1, "Crazyhouse" },
	{ "pgn/python-chess/legacy-immortal-games.pgn", 32, 4, "ambiguous moves (Nd7 for Nfd7)" },
	{ "pgn/python-chess/legacy-molinari-bordais-1979.pgn", 1, 0, "" },
	{ "pgn/python-chess/legacy-variations-nags-and-comments.pgn", 1, 0, "" },
	{ "pgn/python-chess/molinari-bordais-1979.pgn", 1, 0, "" },
	{ "pgn/python-chess/nepomniachtchi-liren-game1.pgn", 1, 0, "" },
	{ "pgn/python-chess/saturs-jannlee-zh-lichess.pgn", 0, 1, "Crazyhouse" },
	{ "pgn/python-chess/stockfish-learning.pgn", 1, 0, "" },
	{ "pgn/python-chess/uci-moves.pgn", 0, 1, "UCI movetext" },
	{ "pgn/python-chess/utf8-bom.pgn", 2, 0, "" },
	{ "pgn/scalachess/FWWRC.pgn", 605, 0, "games of tags alone" },
	{ "pgn/scalachess/uzchesscup.pgn", 45, 0, "" },
	{ "pgn/scalachess/fixtures/android.pgn", 0, 1, "UCI movetext" },
	{ "pgn/scalachess/fixtures/chessByPost.pgn", 0, 1, "UCI movetext" },
	{ "pgn/scalachess/fixtures/clonoNoExoticNotation.pgn", 0, 1, "UCI movetext" },
	{ "pgn/scalachess/fixtures/caissa.pgn", 0, 1, "FEN castling rights without rooks" },
	{ "pgn/scalachess/fixtures/festivalFigueira.pgn", 0, 1, "57... Re1 is illegal" },
	{ "pgn/scalachess/fixtures/overflow.pgn", 0, 1, "[pgn] tag without a value" },
	{ "pgn/scalachess/fixtures/withDelimiters.pgn", 0, 1, "[pgn] forum delimiters" },
	{ "pgn/scalachess/fixtures/withDelimitersOnNewLines.pgn", 0, 1, "[pgn] forum delimiters" },
	{ "pgn/scalachess/fixtures/unclosedQuote.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/weirdDashes.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/unicodeResultDraw.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/fromChessgamesWithEscapeChar.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/invisibleChar.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/complete960.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/stLouisFischerandom.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/completeTagsWithSpaces.pgn", 1, 0, "" },
	{ "pgn/scalachess/fixtures/blackAbsentResult.pgn", 1, 0, "" },
	{ "pgn/npm-misc/mliebelt-sampleGameThrow.pgn", 0, 1, "German SAN (Sf3)" },
	{ "pgn/npm-misc/mliebelt-sampleGames.pgn", 9, 0, "" },
	{ "pgn/npm-misc/cm-pgn-test_pgn_list.pgn", 5, 0, "" },
	{ "pgn/debian-pgn-extract/eco.pgn", 2014, 0, "" },
	{ "pgn/debian-pychess/mate_in_2.pgn", 166, 0, "" },
	{ "pgn/debian-pychess/mate_in_3.pgn", 373, 2, "damaged tags (\"\"Socrates Expert\"\")" },
	{ "pgn/debian-pychess/mate_in_4.pgn", 370, 3, "damaged tags" },
	{ "pgn/debian-pychess/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", 17, 1,
	  "1... Nxg5 with White to move in the FEN" },
};

START_TEST(test_fixture_counts)
{
	for (size_t i = 0; i < sizeof expected_counts / sizeof expected_counts[0]; i++) {
		size_t ok, bad;
		if (!count_file(expected_counts[i].file, &ok, &bad))
			continue;
		ck_assert_msg(ok == expected_counts[i].ok && bad == expected_counts[i].bad,
			      "%s: %zu read, %zu errors; expected %zu and %zu (%s)", expected_counts[i].file, ok, bad,
			      expected_counts[i].ok, expected_counts[i].bad, expected_counts[i].why);
	}
}
END_TEST

/* Every scalachess fixture not listed above reads without error. */
static void fixture_reads_fully(const char *path)
{
	for (size_t i = 0; i < sizeof expected_counts / sizeof expected_counts[0]; i++)
		if (strstr(path, expected_counts[i].file + 4) && expected_counts[i].bad)
			return;
	size_t len;
	char *buf = slurp(path, &len);
	struct readall ra;
	read_all(buf, len, &ra);
	ck_assert_msg(ra.errors == 0 && ra.ok > 0, "%s: %zu errors (%s)", path, ra.errors,
		      ra.errors ? ra.errs[0].message : "no game");
	readall_fini(&ra);
	free(buf);
}

START_TEST(test_fixtures_read_fully)
{
	walk_shared("pgn/scalachess/fixtures", fixture_reads_fully);
	walk_shared("pgn/debian-pychess", fixture_reads_fully);
}
END_TEST

/* ---- kokopu's databases with their expected parses ---- */

/* Games of kokopu's databases where we knowingly differ. */
static const struct {
	const char *db;
	size_t game;
	const char *why;
} kokopu_differences[] = {
	{ "syntactic-error-1", 1, "Pe4: our SAN reader accepts a pawn letter" },
	{ "syntactic-error-1", 7, "Pe4: our SAN reader accepts a pawn letter" },
	{ "syntactic-error-1", 9, "Pe5: our SAN reader accepts a pawn letter" },
	{ "syntactic-error-1", 10, "Pe4: our SAN reader accepts a pawn letter" },
	{ "syntactic-error-1", 15, "a tag pair on a new line in movetext starts the next game (as chessops)" },
};

static bool kokopu_differs(const char *db, size_t game)
{
	for (size_t i = 0; i < sizeof kokopu_differences / sizeof kokopu_differences[0]; i++)
		if (!strcmp(db, kokopu_differences[i].db) && kokopu_differences[i].game == game)
			return true;
	return false;
}

static void squeeze_copy(const char *s, char *out, size_t size)
{
	size_t n = 0;
	bool space = false;
	for (; *s && n + 2 < size; s++) {
		if (*s == ' ') {
			space = n > 0;
			continue;
		}
		if (space)
			out[n++] = ' ';
		space = false;
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* Compares our game with kokopu's expected N.txt. */
static void kokopu_compare_txt(const char *db, size_t idx, const struct pgn_game *g, FILE *f)
{
	char line[1024], want[8192] = "", have[8192];
	size_t nw = 0, plies = (size_t)-1;
	char result[32] = "", side = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		int num;
		char wb, close;
		if (sscanf(line, "[%d%c%c", &num, &wb, &close) == 3 && close == ']') {
			char *p = strchr(line, ')');
			ck_assert_ptr_nonnull(p);
			char san[32];
			ck_assert_int_eq(sscanf(p + 1, "%31s", san), 1);
			nw += (size_t)snprintf(want + nw, sizeof want - nw, "%s%s", nw ? " " : "", san);
		} else if ((line[0] == 'w' || line[0] == 'b') && line[1] == ' ') {
			side = line[0];
		} else if (line[0] == '{') {
			sscanf(line, "{%31[^}]}{%zu plies}", result, &plies);
		} else {
			const char *eq = strstr(line, " = {");
			static const char *const names[] = { "White", "Black", "Event", "Site", "Annotator" };
			for (size_t k = 0; eq && k < sizeof names / sizeof names[0]; k++) {
				if ((size_t)(eq - line) != strlen(names[k]) || strncmp(line, names[k], strlen(names[k])))
					continue;
				char exp[512], got[512];
				snprintf(exp, sizeof exp, "%s", eq + 4);
				exp[strlen(exp) - 1] = '\0';
				const char *v = pgn_game_tag(g, names[k]);
				ck_assert_msg(v != NULL, "kokopu %s game %zu: no %s tag", db, idx, names[k]);
				squeeze_copy(v, got, sizeof got);
				ck_assert_msg(!strcmp(exp, got), "kokopu %s game %zu: %s '%s', expected '%s'", db, idx,
					      names[k], got, exp);
			}
		}
	}
	ck_assert_msg(!strcmp(want, sans(g, have, sizeof have)), "kokopu %s game %zu: moves\n%s\nexpected\n%s", db,
		      idx, have, want);
	ck_assert_msg(plies == g->n_moves, "kokopu %s game %zu: %zu plies, expected %zu", db, idx, g->n_moves, plies);
	const char *r = !strcmp(result, "White wins")   ? "1-0"
			: !strcmp(result, "Black wins") ? "0-1"
			: !strcmp(result, "Draw")       ? "1/2-1/2"
							: "*";
	const char *ours = g->result[0] ? g->result : "*";
	ck_assert_msg(!strcmp(r, ours), "kokopu %s game %zu: result %s, expected %s", db, idx, ours, r);

	struct position p = g->start;
	for (size_t i = 0; i < g->n_moves; i++) {
		struct undo u;
		if (g->moves[i].m == MOVE_NONE)
			pgn_null_move(&p);
		else
			position_make(&p, g->moves[i].m, &u);
	}
	ck_assert_msg(side == (p.side == WHITE ? 'w' : 'b'), "kokopu %s game %zu: side to move", db, idx);
}

START_TEST(test_kokopu_databases)
{
	FILE *csv = testdata_open_shared("pgn/kokopu/pgns.csv");
	if (!csv)
		return;
	char line[256], db[128];
	size_t want_games, dbs = 0;
	static const char *const variants[] = { "antichess", "horde", "optional-kings" };
	while (fgets(line, sizeof line, csv)) {
		if (sscanf(line, "%127s %zu", db, &want_games) != 2)
			continue;
		char rel[512];
		size_t len;
		snprintf(rel, sizeof rel, "pgn/kokopu/pgns/%s/database.pgn", db);
		char *buf = slurp_shared(rel, &len);
		if (!buf)
			continue;
		bool variant = false;
		for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
			variant = variant || !strcmp(db, variants[k]);

		struct pgn_reader r;
		struct pgn_game g;
		struct pgn_error e;
		enum pgn_status st;
		size_t idx = 0, extra = 0;
		pgn_reader_init(&r, buf, len);
		while ((st = pgn_read_game(&r, &g, &e)) != PGN_END) {
			size_t k = idx - extra;
			char path[512];
			if (variant) {
				/* Variants other than Chess960 are errors for us. */
				ck_assert_msg(st == PGN_ERROR && strstr(e.message, "variant"),
					      "kokopu %s game %zu: read a variant game", db, k);
			} else if (kokopu_differs(db, k)) {
				if (!strcmp(db, "syntactic-error-1") && k == 15) {
					/* We read two games where kokopu sees one error. */
					pgn_game_fini(&g);
					st = pgn_read_game(&r, &g, &e);
					ck_assert_int_eq(st, PGN_OK);
					idx++;
					extra++;
				}
			} else {
				snprintf(path, sizeof path, "pgn/kokopu/pgns/%s/%zu.err", db, k);
				FILE *f = fopen(testdata_shared_path(path), "r");
				if (f) {
					size_t off, ln;
					ck_assert_int_eq(fscanf(f, "%zu %zu", &off, &ln), 2);
					ck_assert_msg(st == PGN_ERROR, "kokopu %s game %zu: read, expected an error", db, k);
					ck_assert_msg(e.line == ln, "kokopu %s game %zu: error on line %zu, expected %zu (%s)", db,
						      k, e.line, ln, e.message);
					fclose(f);
				} else {
					snprintf(path, sizeof path, "pgn/kokopu/pgns/%s/%zu.txt", db, k);
					f = fopen(testdata_shared_path(path), "r");
					ck_assert_msg(f != NULL, "kokopu %s: no expectation for game %zu", db, k);
					ck_assert_msg(st == PGN_OK, "kokopu %s game %zu: %s", db, k, e.message);
					kokopu_compare_txt(db, k, &g, f);
					fclose(f);
				}
			}
			pgn_game_fini(&g);
			idx++;
		}
		pgn_game_fini(&g);
		ck_assert_msg(idx - extra == want_games, "kokopu %s: %zu games, expected %zu", db, idx - extra,
			      want_games);
		free(buf);
		dbs++;
	}
	fclose(csv);
	ck_assert_uint_ge(dbs, 20);
}
END_TEST

START_TEST(test_write_repeated_tag_once)
{
	/* Found by fuzz-pgn: two Variant tags on one line read as one game, but
	 * written one per line the second started a new game (a repeated tag
	 * on a new line ends a game of tags alone). The writer keeps the first
	 * of each name, the one the reader uses. */
	struct readall ra, back;
	struct pgn_buf out;
	char buf[256];
	read_str("[Variant \"Standard\"] [Variant \"/Standard\"] [Annotator \"A\"] [Annotator \"B\"]\n"
		 "1. e4 e5 2. Nf3 *\n",
		 &ra);
	ck_assert_uint_eq(ra.ok, 1);
	ck_assert_uint_eq(ra.errors, 0);
	pgn_buf_init(&out);
	ck_assert_int_eq(pgn_write_game(&ra.games[0], &out, NULL), TCHESS_OK);
	ck_assert_ptr_nonnull(strstr(out.data, "[Variant \"Standard\"]\n"));
	ck_assert_ptr_null(strstr(out.data, "/Standard"));
	ck_assert_ptr_nonnull(strstr(out.data, "[Annotator \"A\"]\n"));
	ck_assert_ptr_null(strstr(out.data, "[Annotator \"B\"]"));
	read_str(out.data, &back);
	ck_assert_uint_eq(back.ok, 1);
	ck_assert_uint_eq(back.errors, 0);
	ck_assert_str_eq(sans(&back.games[0], buf, sizeof buf), "e4 e5 Nf3");
	readall_fini(&back);
	pgn_buf_fini(&out);
	readall_fini(&ra);
}
END_TEST

static Suite *pgn_suite(void)
{
	Suite *s = suite_create("pgn");
	TCase *tc = tcase_create("read");
	tcase_add_test(tc, test_read_basic);
	tcase_add_test(tc, test_read_real_file_quirks);
	tcase_add_test(tc, test_read_comments_nags_clocks);
	tcase_add_test(tc, test_read_variations);
	tcase_add_test(tc, test_read_setup_and_960);
	tcase_add_test(tc, test_read_null_and_uci);
	tcase_add_test(tc, test_read_error_locations);
	tcase_add_test(tc, test_read_differential_bugs);
	tcase_add_test(tc, test_read_variation_tree);
	tcase_add_test(tc, test_eval_commands);
	suite_add_tcase(s, tc);

	tc = tcase_create("malformed");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_read_move_after_mate);
	tcase_add_test(tc, test_malformed_corpus);
	tcase_add_test(tc, test_random_bytes);
	suite_add_tcase(s, tc);

	tc = tcase_create("write");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_write_export_format);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_write_repeated_tag_once);
	tcase_add_test(tc, test_pgn_extract_accepts_our_games);
	suite_add_tcase(s, tc);

	tc = tcase_create("files");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_every_shared_file);
	tcase_add_test(tc, test_chess_js_benchmark);
	tcase_add_test(tc, test_fixture_counts);
	tcase_add_test(tc, test_fixtures_read_fully);
	tcase_add_test(tc, test_kokopu_databases);
	tcase_add_test(tc, test_variations_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pgn_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
