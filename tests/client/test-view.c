/*
 * View-model tests without a terminal: board orientation and geometry,
 * glyphs, the move list layout, clock text, material difference, word
 * wrapping and short game ids.
 */
#define _XOPEN_SOURCE 700 /* wcswidth */
#include <check.h>
#include <locale.h>
#include <stdlib.h>
#include <wchar.h>
#include <stdio.h>
#include <string.h>

#include "board-view.h"
#include "clock-text.h"
#include "game-id.h"
#include "material.h"
#include "movelist.h"
#include "tchess/fen.h"
#include "text-wrap.h"

/* "If you play the white pieces, the letters (files) are sorted by
 * alphabetical order: A - H. [...] they are counted upwards: 1 - 8."
 * Seen from White, the top-left cell is a8 and the bottom-right h1. */
START_TEST(test_orientation_white)
{
	ck_assert_int_eq(board_view_square_at(false, 0, 0), SQ_A8);
	ck_assert_int_eq(board_view_square_at(false, 7, 7), SQ_H1);
	ck_assert_int_eq(board_view_square_at(false, 4, 4), make_sq(4, 3)); /* e4 */
	for (int col = 0; col < 8; col++)
		ck_assert_int_eq(board_view_file_label(false, col), 'a' + col);
	for (int row = 0; row < 8; row++)
		ck_assert_int_eq(board_view_rank_label(false, row), '8' - row);
}
END_TEST

/* "If you play the black pieces, the letters are sorted in reverse
 * alphabetical order: H - A. [...] If you play the black pieces, they are
 * counted downwards: 8 - 1." Seen from Black, the top-left cell is h1 and
 * the bottom-right a8: files h..a left to right, ranks 1..8 top to bottom. */
START_TEST(test_orientation_black)
{
	ck_assert_int_eq(board_view_square_at(true, 0, 0), SQ_H1);
	ck_assert_int_eq(board_view_square_at(true, 7, 7), SQ_A8);
	ck_assert_int_eq(board_view_square_at(true, 3, 3), make_sq(4, 3)); /* e4 */
	for (int col = 0; col < 8; col++)
		ck_assert_int_eq(board_view_file_label(true, col), 'h' - col);
	for (int row = 0; row < 8; row++)
		ck_assert_int_eq(board_view_rank_label(true, row), '1' + row);
}
END_TEST

START_TEST(test_cell_round_trip)
{
	for (int flipped = 0; flipped < 2; flipped++)
		for (int sq = 0; sq < 64; sq++) {
			int col, row;
			board_view_cell_of(flipped, sq, &col, &row);
			ck_assert_int_eq(board_view_square_at(flipped, col, row), sq);
		}
}
END_TEST

/* The pieces' art: every row of every piece is BOARD_VIEW_ART_W columns
 * (block elements count one column each, as wcwidth says in a UTF-8
 * locale), the kinds differ, and the ASCII art names the piece by its
 * letter in the side's case. */
START_TEST(test_piece_art)
{
	static const enum piece all[] = { W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
					  B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING };
	ck_assert_ptr_nonnull(setlocale(LC_CTYPE, "C.UTF-8"));
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		for (int ascii = 0; ascii < 2; ascii++) {
			char joined[200] = "";
			for (int r = 0; r < BOARD_VIEW_ART_H; r++) {
				const char *row = board_view_art(all[i], ascii, r);
				wchar_t wide[32];
				size_t n = mbstowcs(wide, row, 32);
				ck_assert_msg(n != (size_t)-1, "piece %d row %d is not UTF-8", (int)all[i], r);
				ck_assert_msg(wcswidth(wide, n) == BOARD_VIEW_ART_W, "piece %d row %d ('%s') is %d wide",
					      (int)all[i], r, row, wcswidth(wide, n));
				strcat(joined, row);
			}
			if (ascii) {
				char letter = board_view_glyph(all[i], true, false)[0];
				ck_assert_msg(strchr(joined, letter), "'%s' lacks %c", joined, letter);
			}
		}
		/* Each kind's art is its own. */
		for (size_t k = 0; i < 6 && k < i; k++) {
			bool same = true;
			for (int r = 0; r < BOARD_VIEW_ART_H; r++)
				same = same && !strcmp(board_view_art(all[i], false, r), board_view_art(all[k], false, r));
			ck_assert_msg(!same, "pieces %d and %d share their art", (int)all[i], (int)all[k]);
		}
	}
	ck_assert_str_eq(board_view_art(NO_PIECE, false, 0), "");
	ck_assert_str_eq(board_view_art(W_KING, false, BOARD_VIEW_ART_H), "");
}
END_TEST

START_TEST(test_geometry)
{
	struct board_geometry g;
	/* 80x24 with the side column: 5x2 squares. */
	ck_assert_int_eq(board_view_geometry(55, 23, &g), 0);
	ck_assert_int_eq(g.sq_w, 5);
	ck_assert_int_eq(g.sq_h, 2);
	ck_assert_int_eq(g.width, 42);
	ck_assert_int_eq(g.height, 17);
	ck_assert_int_eq(board_view_geometry(200, 60, &g), 0);
	ck_assert_int_eq(g.sq_w, 11);
	ck_assert(board_view_has_art(&g));
	/* 120x40 with the side column (95x38): 11x4 squares, a 90x33 board
	 * holding the pieces' art; one column or row less, 7x3 and glyphs. */
	ck_assert_int_eq(board_view_geometry(95, 38, &g), 0);
	ck_assert_int_eq(g.sq_w, 11);
	ck_assert_int_eq(g.sq_h, 4);
	ck_assert_int_eq(g.width, 90);
	ck_assert_int_eq(g.height, 33);
	ck_assert_int_eq(board_view_geometry(89, 38, &g), 0);
	ck_assert_int_eq(g.sq_w, 7);
	ck_assert(!board_view_has_art(&g));
	ck_assert_int_eq(board_view_geometry(95, 32, &g), 0);
	ck_assert_int_eq(g.sq_h, 3);
	ck_assert_int_eq(board_view_geometry(120, 60, &g), 0);
	ck_assert_int_eq(board_view_geometry(26, 9, &g), 0);
	ck_assert_int_eq(g.sq_w, 3);
	ck_assert_int_eq(board_view_geometry(25, 9, &g), -1);
	ck_assert_int_eq(board_view_geometry(26, 8, &g), -1);

	/* Mouse cells: the middle of the top-left square is a8 for White,
	 * h1 for Black; the coordinates are no square. */
	board_view_geometry(55, 23, &g);
	ck_assert_int_eq(board_view_square_at_cell(&g, false, 4, 1), SQ_A8);
	ck_assert_int_eq(board_view_square_at_cell(&g, true, 4, 1), SQ_H1);
	ck_assert_int_eq(board_view_square_at_cell(&g, false, 41, 15), SQ_H1);
	ck_assert_int_eq(board_view_square_at_cell(&g, false, 0, 1), SQ_NONE);
	ck_assert_int_eq(board_view_square_at_cell(&g, false, 10, 16), SQ_NONE);
}
END_TEST

START_TEST(test_glyphs)
{
	ck_assert_str_eq(board_view_glyph(W_KING, false, false), "\u2654");
	ck_assert_str_eq(board_view_glyph(W_KING, false, true), "\u265a");
	ck_assert_str_eq(board_view_glyph(B_PAWN, false, false), "\u265f");
	ck_assert_str_eq(board_view_glyph(W_KNIGHT, true, false), "N");
	ck_assert_str_eq(board_view_glyph(B_QUEEN, true, true), "q");
	ck_assert_str_eq(board_view_glyph(NO_PIECE, true, false), "");
}
END_TEST

START_TEST(test_cursor_follows_screen)
{
	/* Right on screen is towards h for White, towards a for Black. */
	ck_assert_int_eq(board_view_cursor_step(false, make_sq(4, 3), 1, 0), make_sq(5, 3));
	ck_assert_int_eq(board_view_cursor_step(true, make_sq(4, 3), 1, 0), make_sq(3, 3));
	/* Up on screen is towards rank 8 for White, rank 1 for Black. */
	ck_assert_int_eq(board_view_cursor_step(false, make_sq(4, 3), 0, -1), make_sq(4, 4));
	ck_assert_int_eq(board_view_cursor_step(true, make_sq(4, 3), 0, -1), make_sq(4, 2));
	ck_assert_int_eq(board_view_cursor_step(false, SQ_H8, 1, 0), SQ_H8);
}
END_TEST

START_TEST(test_view_highlights)
{
	struct board_view v;
	struct position p;
	board_view_init(&v);
	ck_assert_int_eq(fen_parse(&p, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", NULL),
			 TCHESS_OK);
	board_view_set(&v, &p, move_make(make_sq(3, 7), make_sq(7, 3)));
	ck_assert_int_eq(v.check, SQ_E1 + 0);
	ck_assert(v.last_move == (sq_bb(make_sq(3, 7)) | sq_bb(make_sq(7, 3))));

	/* Castling is stored king-takes-rook; the last move shows g1. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/8/4K2R b K - 0 1", NULL), TCHESS_OK);
	board_view_set(&v, &p, move_make_kind(SQ_E1, SQ_H1, MOVE_CASTLING));
	ck_assert(v.last_move == (sq_bb(SQ_E1) | sq_bb(SQ_G1)));
	ck_assert_int_eq(v.check, SQ_NONE);
}
END_TEST

START_TEST(test_movelist_white_first)
{
	struct movelist ml;
	char num[16];
	movelist_init(&ml, 5, 1, WHITE, 30);
	ck_assert_int_eq(ml.rows, 3);
	ck_assert_int_eq(movelist_row_of(&ml, 0), 0);
	ck_assert_int_eq(movelist_col_of(&ml, 0), 0);
	ck_assert_int_eq(movelist_row_of(&ml, 3), 1);
	ck_assert_int_eq(movelist_col_of(&ml, 3), 1);
	ck_assert_int_eq(movelist_ply_at(&ml, 2, 0), 4);
	ck_assert_int_eq(movelist_ply_at(&ml, 2, 1), -1);
	movelist_number(&ml, 0, num);
	ck_assert_str_eq(num, "  1.");
	movelist_number(&ml, 2, num);
	ck_assert_str_eq(num, "  3.");
	ck_assert_int_eq(ml.x_white, 5);
	ck_assert_int_eq(ml.x_black, 5 + ml.san_w);
}
END_TEST

START_TEST(test_movelist_black_first)
{
	struct movelist ml;
	char num[16];
	/* From a FEN with Black to move at move 23: "23. ... Qh4" first. */
	movelist_init(&ml, 4, 23, BLACK, 30);
	ck_assert_int_eq(ml.rows, 3);
	ck_assert_int_eq(movelist_ply_at(&ml, 0, 0), -1);
	ck_assert_int_eq(movelist_ply_at(&ml, 0, 1), 0);
	ck_assert_int_eq(movelist_ply_at(&ml, 1, 0), 1);
	ck_assert_int_eq(movelist_row_of(&ml, 3), 2);
	ck_assert_int_eq(movelist_col_of(&ml, 3), 0);
	movelist_number(&ml, 2, num);
	ck_assert_str_eq(num, " 25.");
	/* Four-digit move numbers widen the number column. */
	movelist_init(&ml, 2, 1000, WHITE, 30);
	movelist_number(&ml, 0, num);
	ck_assert_str_eq(num, "1000.");
}
END_TEST

START_TEST(test_movelist_scroll)
{
	ck_assert_int_eq(movelist_scroll(0, 10, 5, 40), 0);
	ck_assert_int_eq(movelist_scroll(0, 10, 10, 40), 1);
	ck_assert_int_eq(movelist_scroll(20, 10, 5, 40), 5);
	ck_assert_int_eq(movelist_scroll(35, 10, 39, 40), 30);
	ck_assert_int_eq(movelist_scroll(3, 10, 2, 4), 0);
}
END_TEST

START_TEST(test_clock_text)
{
	char b[CLOCK_TEXT_MAX];
	clock_text_format(300000, b);
	ck_assert_str_eq(b, "5:00");
	clock_text_format(299999, b);
	ck_assert_str_eq(b, "4:59");
	clock_text_format(3902000, b);
	ck_assert_str_eq(b, "1:05:02");
	clock_text_format(10000, b);
	ck_assert_str_eq(b, "0:10");
	/* Tenths under ten seconds, truncated, never rounded up. */
	clock_text_format(9999, b);
	ck_assert_str_eq(b, "0:09.9");
	clock_text_format(9400, b);
	ck_assert_str_eq(b, "0:09.4");
	clock_text_format(99, b);
	ck_assert_str_eq(b, "0:00.0");
	clock_text_format(-5, b);
	ck_assert_str_eq(b, "0:00.0");

	ck_assert_int_eq(clock_text_next_change(9450), 51);
	ck_assert_int_eq(clock_text_next_change(9400), 1);
	ck_assert_int_eq(clock_text_next_change(65500), 501);
	ck_assert_int_eq(clock_text_next_change(10000), 1);
	ck_assert_int_eq(clock_text_next_change(0), 1);
}
END_TEST

START_TEST(test_material)
{
	struct position p;
	struct material m;
	char b[64];
	/* White has a queen for a rook and a pawn more: +10, shown as the
	 * black pieces White has taken more of, as chess sites show it. */
	ck_assert_int_eq(fen_parse(&p, "4k3/pp6/8/8/8/8/PPP5/3QK3 w - - 0 1", NULL), TCHESS_OK);
	material_count(&p, &m);
	ck_assert_int_eq(m.points, 10);
	ck_assert_int_eq(material_text(&m, WHITE, true, 40, b, sizeof b), 6);
	ck_assert_str_eq(b, "qp +10");
	ck_assert_int_eq(material_text(&m, WHITE, false, 40, b, sizeof b), 6);
	ck_assert_str_eq(b, "\u265b\u265f +10");
	ck_assert_int_eq(material_text(&m, BLACK, false, 40, b, sizeof b), 0);
	ck_assert_str_eq(b, "");
	/* Too narrow for the pieces: the points alone; then nothing. */
	ck_assert_int_eq(material_text(&m, WHITE, false, 5, b, sizeof b), 3);
	ck_assert_str_eq(b, "+10");
	ck_assert_int_eq(material_text(&m, WHITE, false, 2, b, sizeof b), 0);
	ck_assert_str_eq(b, "");
	/* Black has a rook, White a bishop: Black has taken a (white) rook
	 * more, +2; White a (black) bishop more, and no points. */
	ck_assert_int_eq(fen_parse(&p, "3rk3/8/8/8/8/8/8/3BK3 w - - 0 1", NULL), TCHESS_OK);
	material_count(&p, &m);
	ck_assert_int_eq(m.points, -2);
	material_text(&m, BLACK, true, 40, b, sizeof b);
	ck_assert_str_eq(b, "R +2");
	material_text(&m, BLACK, false, 40, b, sizeof b);
	ck_assert_str_eq(b, "\u2656 +2");
	material_text(&m, WHITE, true, 40, b, sizeof b);
	ck_assert_str_eq(b, "b");
	/* Two pawns up. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", NULL), TCHESS_OK);
	material_count(&p, &m);
	ck_assert_int_eq(material_text(&m, WHITE, false, 40, b, sizeof b), 5);
	ck_assert_str_eq(b, "\u265f\u265f +2");
	position_init_start(&p);
	material_count(&p, &m);
	ck_assert_int_eq(m.points, 0);
	ck_assert_int_eq(material_text(&m, WHITE, false, 40, b, sizeof b), 0);
	ck_assert_str_eq(b, "");
}
END_TEST

/* Wrapping at blanks: every word of the text shows on a narrow screen;
 * a word longer than the width is cut. */
START_TEST(test_text_wrap)
{
	const char *text = "Terminal too small: 40x20, tchess play needs at least 60x14.", *p = text, *next;
	char lines[8][64];
	int n = 0;
	size_t len;
	while ((len = text_wrap_line(p, 20, &next)) > 0 && n < 8) {
		ck_assert_int_le((int)len, 20);
		snprintf(lines[n++], sizeof lines[0], "%.*s", (int)len, p);
		p = next;
	}
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(lines[0], "Terminal too small:");
	ck_assert_str_eq(lines[1], "40x20, tchess play");
	ck_assert_str_eq(lines[2], "needs at least");
	ck_assert_str_eq(lines[3], "60x14.");
	/* It all fits: one line. */
	ck_assert_int_eq((int)text_wrap_line("a b", 3, &next), 3);
	ck_assert_str_eq(next, "");
	/* A long word is cut at the width; UTF-8 counts as one column. */
	ck_assert_int_eq((int)text_wrap_line("abcdefgh ij", 4, &next), 4);
	ck_assert_str_eq(next, "efgh ij");
	ck_assert_int_eq((int)text_wrap_line("\u265f\u265f\u265f x", 3, &next), 9);
	ck_assert_str_eq(next, "x");
	ck_assert_int_eq((int)text_wrap_line("abc", 0, &next), 0);
	ck_assert_int_eq((int)text_wrap_line("   ", 5, &next), 0);
}
END_TEST

/* One line fitted with an ellipsis at a word boundary. */
START_TEST(test_text_fit)
{
	char buf[64];
	ck_assert_int_eq(text_wrap_fit("Spring open, round three", 16, "\u2026", buf, sizeof buf), 12);
	/* The comma before the dots goes too. */
	ck_assert_str_eq(buf, "Spring open\u2026");
	ck_assert_int_eq(text_wrap_fit("  fits", 4, "...", buf, sizeof buf), 4);
	ck_assert_str_eq(buf, "fits");
	ck_assert_int_eq(text_wrap_fit("abcdefgh", 5, "...", buf, sizeof buf), 5);
	ck_assert_str_eq(buf, "ab...");
	ck_assert_int_eq(text_wrap_fit("abcdefgh", 2, "...", buf, sizeof buf), 2);
	ck_assert_str_eq(buf, "..");
	ck_assert_int_eq(text_wrap_fit("abc", 0, "...", buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(text_wrap_cols("\u00e9t\u00e9"), 3);
}
END_TEST

/* A short game id, as the screens show it, names the one game whose id
 * starts with it; none or several is an error that says which. */
START_TEST(test_game_id_match)
{
	const char *ids[] = { "208fe1f1c0ffee00aa11bb22cc33dd44", "208fe1f2000000000000000000000000",
			      "9a0000000000000000000000000000ff", "208fe1f1c0ffee00aa11bb22cc33dd44" };
	char out[40], err[300];
	ck_assert_int_eq(game_id_match("208fe1f1", ids, 4, out, sizeof out, err, sizeof err), 0);
	ck_assert_str_eq(out, "208fe1f1c0ffee00aa11bb22cc33dd44");
	ck_assert_int_eq(game_id_match("9a", ids, 4, out, sizeof out, err, sizeof err), 0);
	ck_assert_str_eq(out, "9a0000000000000000000000000000ff");
	ck_assert_int_eq(game_id_match("208fe1f", ids, 4, out, sizeof out, err, sizeof err), -1);
	ck_assert_str_eq(err, "'208fe1f' starts 2 game ids (208fe1f1c0ffee00aa11bb22cc33dd44, "
			      "208fe1f2000000000000000000000000): type more of it");
	ck_assert_int_eq(game_id_match("77", ids, 4, out, sizeof out, err, sizeof err), -1);
	ck_assert_str_eq(err, "no game with an id starting '77' (tchess games lists them)");
	ck_assert_int_eq(game_id_match("1", ids, 0, out, sizeof out, err, sizeof err), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_add_test(tc, test_orientation_white);
	tcase_add_test(tc, test_orientation_black);
	tcase_add_test(tc, test_cell_round_trip);
	tcase_add_test(tc, test_geometry);
	tcase_add_test(tc, test_piece_art);
	tcase_add_test(tc, test_glyphs);
	tcase_add_test(tc, test_cursor_follows_screen);
	tcase_add_test(tc, test_view_highlights);
	tcase_add_test(tc, test_movelist_white_first);
	tcase_add_test(tc, test_movelist_black_first);
	tcase_add_test(tc, test_movelist_scroll);
	tcase_add_test(tc, test_clock_text);
	tcase_add_test(tc, test_material);
	tcase_add_test(tc, test_text_wrap);
	tcase_add_test(tc, test_text_fit);
	tcase_add_test(tc, test_game_id_match);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
