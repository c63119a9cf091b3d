/*
 * Review model tests without a terminal: keys become the right commands
 * in each state and change nothing themselves; commands step, jump, flip
 * and scroll; clocks and comments of the current move; the PGN glue
 * lists a multi-game file and opens each game; layouts for small and
 * large terminals; comment wrapping.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "review-pgn.h"
#include "review-tablebase.h"
#include "review.h"
#include "tchess/fen.h"
#include "tchess/notation.h"

static struct review_pgn rp;
static struct review r;

static void open_file(const char *rel)
{
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/%s", getenv("TCHESS_TEST_DATA"), rel);
	ck_assert_msg(review_pgn_open(&rp, path, err, sizeof err) == 0, "%s", err);
	review_init(&r, "two-games.pgn", rp.entries, rp.n_games, review_pgn_load, &rp);
}

static void close_file(void)
{
	review_fini(&r);
	review_pgn_fini(&rp);
}

static unsigned key(int k)
{
	struct review before = r;
	struct review_cmd c = review_key(&r, k);
	/* The key handler only reads. */
	ck_assert(!memcmp(&before, &r, sizeof r));
	return review_apply(&r, &c);
}

START_TEST(test_list_and_open)
{
	open_file("review/two-games.pgn");
	ck_assert_uint_eq(rp.n_games, 2);
	ck_assert_str_eq(rp.entries[0].white, "Alpha, Anna");
	ck_assert_str_eq(rp.entries[0].black, "Beta, Bruno");
	ck_assert_str_eq(rp.entries[0].result, "1-0");
	ck_assert_uint_eq(rp.entries[0].plies, 13);
	ck_assert_str_eq(rp.entries[1].white, "Gamma");
	ck_assert_uint_eq(rp.entries[1].plies, 1);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_LIST);

	/* Down then Enter opens the second game. */
	key(KEYS_DOWN);
	ck_assert_uint_eq(r.list_sel, 1);
	key(KEYS_DOWN);
	ck_assert_uint_eq(r.list_sel, 1);
	ck_assert_uint_eq(key(KEYS_ENTER), REVIEW_DIRTY_ALL);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_GAME);
	ck_assert_uint_eq(r.game_index, 1);
	ck_assert_str_eq(r.game.white, "Gamma");
	/* The game starts from its FEN with Black to move. */
	ck_assert_int_eq(r.positions[0].side, BLACK);
	key(KEYS_RIGHT);
	ck_assert_uint_eq(r.ply, 1);
	ck_assert_str_eq(r.game.moves[0].san, "Qh4#");

	/* Esc goes back to the list; k and Enter open the first game. */
	key(KEYS_ESC);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_LIST);
	key('k');
	key(KEYS_ENTER);
	ck_assert_str_eq(r.game.white, "Alpha, Anna");
	ck_assert_uint_eq(r.ply, 0);
	close_file();
}
END_TEST

START_TEST(test_stepping)
{
	open_file("review/two-games.pgn");
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.game.n_moves, 13);
	/* Three steps forward: 1. e4 e5 2. Nf3; the knight is on f3. */
	key(KEYS_RIGHT);
	key('l');
	unsigned d = key(KEYS_RIGHT);
	ck_assert_uint_eq(r.ply, 3);
	ck_assert(d & REVIEW_DIRTY_BOARD);
	ck_assert(d & REVIEW_DIRTY_MOVES);
	ck_assert_int_eq(r.positions[r.ply].board[make_sq(5, 2)], W_KNIGHT);
	ck_assert_int_eq(r.positions[r.ply].board[make_sq(4, 3)], W_PAWN);
	ck_assert_int_eq(r.positions[r.ply].board[make_sq(4, 4)], B_PAWN);
	key(KEYS_LEFT);
	key('h');
	ck_assert_uint_eq(r.ply, 1);
	key('j');
	ck_assert_uint_eq(r.ply, 3);
	key(KEYS_UP);
	ck_assert_uint_eq(r.ply, 1);
	key(KEYS_END);
	ck_assert_uint_eq(r.ply, 13);
	/* Past the end nothing changes and nothing is redrawn. */
	ck_assert_uint_eq(key(KEYS_RIGHT), 0);
	ck_assert_uint_eq(r.ply, 13);
	key('g');
	ck_assert_uint_eq(r.ply, 0);
	ck_assert_uint_eq(key(KEYS_LEFT), 0);
	key('G');
	ck_assert_uint_eq(r.ply, 13);
	key(KEYS_HOME);
	ck_assert_uint_eq(r.ply, 0);
	close_file();
}
END_TEST

START_TEST(test_prompt)
{
	open_file("review/two-games.pgn");
	key(KEYS_ENTER);
	key(':');
	ck_assert(r.prompt);
	/* While the prompt is open, letters are not commands. */
	key('q');
	ck_assert(!r.quit);
	key('1');
	key('x');
	key('2');
	ck_assert_str_eq(r.prompt_text, "12");
	key(KEYS_BACKSPACE);
	key('0');
	ck_assert_str_eq(r.prompt_text, "10");
	key(KEYS_ENTER);
	ck_assert(!r.prompt);
	ck_assert_uint_eq(r.ply, 10);
	/* Out of range: a message, the ply stays. */
	key(':');
	key('9');
	key('9');
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.ply, 10);
	ck_assert_str_eq(r.message, "no ply 99: this game has plies 0 to 13");
	/* Esc cancels. */
	key(':');
	key('3');
	key(KEYS_ESC);
	ck_assert(!r.prompt);
	ck_assert_uint_eq(r.ply, 10);
	key(':');
	key('0');
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.ply, 0);
	close_file();
}
END_TEST

START_TEST(test_flip_help_quit)
{
	open_file("review/two-games.pgn");
	key(KEYS_ENTER);
	ck_assert(!r.flipped);
	ck_assert(key('f') & REVIEW_DIRTY_BOARD);
	ck_assert(r.flipped);
	struct board_view v;
	review_board_view(&r, &v);
	ck_assert(v.flipped);
	key('?');
	ck_assert(r.help);
	/* Any key closes help and does nothing else. */
	key(KEYS_RIGHT);
	ck_assert(!r.help);
	ck_assert_uint_eq(r.ply, 0);
	key('q');
	ck_assert(r.quit);
	close_file();
}
END_TEST

START_TEST(test_clock_and_comment)
{
	open_file("review/two-games.pgn");
	key(KEYS_ENTER);
	ck_assert_str_eq(review_comment(&r), "A short game for the review tests.");
	ck_assert_int_eq(review_clock_of(&r, WHITE), -1);
	key(KEYS_RIGHT);
	ck_assert_str_eq(review_comment(&r), "King's pawn.");
	ck_assert_int_eq(review_clock_of(&r, WHITE), 300000);
	ck_assert_int_eq(review_clock_of(&r, BLACK), -1);
	key(KEYS_RIGHT);
	ck_assert_ptr_null(review_comment(&r));
	ck_assert_int_eq(review_clock_of(&r, BLACK), 298000);
	struct review_cmd go = { REVIEW_CMD_GOTO, 12, 0 };
	review_apply(&r, &go);
	ck_assert_int_eq(review_clock_of(&r, BLACK), 9400);
	ck_assert_int_eq(review_clock_of(&r, WHITE), 280000);
	ck_assert_str_eq(review_comment(&r), "Under ten seconds.");
	/* The board view at ply 13 has Black's king in check on f7. */
	key(KEYS_END);
	struct board_view v;
	review_board_view(&r, &v);
	ck_assert_int_eq(v.check, make_sq(5, 6));
	ck_assert(v.last_move == (sq_bb(make_sq(3, 0)) | sq_bb(make_sq(5, 2))));
	close_file();
}
END_TEST

START_TEST(test_header)
{
	char buf[160];
	open_file("review/annotated.pgn");
	key(KEYS_ENTER);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_GAME);
	/* Black's name on top while White's pieces are at the bottom; a flip
	 * swaps them and redraws the tags pane. */
	ck_assert_int_eq(review_header_color(&r, 0), BLACK);
	ck_assert_int_eq(review_header_color(&r, 1), WHITE);
	ck_assert(key('f') & REVIEW_DIRTY_TAGS);
	ck_assert_int_eq(review_header_color(&r, 0), WHITE);
	ck_assert_int_eq(review_header_color(&r, 1), BLACK);
	review_player_text(&r, WHITE, buf, sizeof buf);
	ck_assert_str_eq(buf, "White Player (2105)");
	review_player_text(&r, BLACK, buf, sizeof buf);
	ck_assert_str_eq(buf, "Black Player (1987)");
	/* [TimeControl "300+3"] as players read it. */
	ck_assert_str_eq(r.game.time_control, "5+3");
	/* The game's own tags win over the table. */
	review_opening_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "C57 Two Knights: Fried Liver");
	close_file();

	/* No tags: the table's name of the last known position. */
	open_file("review/two-games.pgn");
	key(KEYS_ENTER);
	review_opening_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "");
	review_player_text(&r, WHITE, buf, sizeof buf);
	ck_assert_str_eq(buf, "Alpha, Anna");
	struct review_cmd c = { REVIEW_CMD_GOTO, 7, 0 };
	review_apply(&r, &c);
	review_opening_text(&r, buf, sizeof buf);
	ck_assert_msg(!strncmp(buf, "C57 ", 4), "%s", buf);
	/* Past the book the last known name stays. */
	c.arg = 13;
	review_apply(&r, &c);
	review_opening_text(&r, buf, sizeof buf);
	ck_assert_msg(!strncmp(buf, "C57 ", 4), "%s", buf);
	close_file();
}
END_TEST

START_TEST(test_layout)
{
	struct review_layout l;
	review_layout_compute(&l, 80, 24);
	ck_assert(!l.too_small);
	ck_assert_int_eq(l.board.sq_w, 5);
	/* The evaluation bar's column between the board and the side
	 * column, a blank either side. */
	ck_assert_int_eq(l.bar_x, l.board.width + 1);
	ck_assert_int_eq(l.side_x, 45);
	ck_assert_int_eq(l.side_w, 35);
	ck_assert_int_eq(l.bar_h, 16);
	/* Info: three rows of text, two of graph, one of markers. */
	ck_assert_int_eq(l.info_h, 6);
	ck_assert_int_eq(l.graph_y, 3);
	ck_assert_int_eq(l.graph_h, 2);
	ck_assert_int_eq(l.status_y, 23);
	ck_assert_int_eq(l.moves_y + l.moves_h, l.comment_y);
	ck_assert_int_eq(l.comment_y + l.comment_h, l.status_y);
	ck_assert_int_gt(l.moves_h, 5);
	review_layout_compute(&l, 200, 60);
	ck_assert_int_eq(l.board.sq_w, 11);
	review_layout_compute(&l, REVIEW_MIN_WIDTH, REVIEW_MIN_HEIGHT);
	ck_assert(!l.too_small);
	ck_assert_int_eq(l.board.sq_w, 3);
	/* The narrowest screen has no room for the bar. */
	ck_assert_int_eq(l.bar_h, 0);
	ck_assert_int_eq(l.side_x, l.board.width + 1);
	ck_assert_int_gt(l.moves_h, 0);
	review_layout_compute(&l, REVIEW_MIN_WIDTH - 1, 40);
	ck_assert(l.too_small);
	review_layout_compute(&l, 100, REVIEW_MIN_HEIGHT - 1);
	ck_assert(l.too_small);
}
END_TEST

START_TEST(test_scroll_follows)
{
	/* A 60-ply game in a short terminal: the current row stays visible. */
	static struct review_move moves[60];
	struct review_game g;
	struct position p;
	memset(&g, 0, sizeof g);
	position_init_start(&g.start);
	p = g.start;
	static const char *const shuffle[4][2] = { { "g1", "f3" }, { "g8", "f6" }, { "f3", "g1" }, { "f6", "g8" } };
	for (int i = 0; i < 60; i++) {
		const char *from = shuffle[i % 4][0], *to = shuffle[i % 4][1];
		move m = move_make(make_sq(from[0] - 'a', from[1] - '1'), make_sq(to[0] - 'a', to[1] - '1'));
		struct undo u;
		moves[i].m = m;
		moves[i].clock_ms = -1;
		san_write(&p, m, moves[i].san);
		position_make(&p, m, &u);
	}
	g.moves = moves;
	g.n_moves = 60;
	review_init(&r, "x.pgn", NULL, 0, NULL, NULL);
	struct review_cmd rs = { REVIEW_CMD_RESIZE, 60, 14 };
	review_apply(&r, &rs);
	ck_assert_int_eq(review_set_game(&r, &g), 0);
	ck_assert_int_eq(r.ml.n_rows, 30);
	for (int i = 0; i < 60; i++) {
		key(KEYS_RIGHT);
		int row = review_moves_row_of(&r.ml, review_move_at(&r, r.ply - 1));
		ck_assert_int_ge(row, r.ml_top);
		ck_assert_int_lt(row, r.ml_top + r.layout.moves_h);
	}
	key(KEYS_PGUP);
	ck_assert_uint_eq(r.ply, 60 - 2 * (size_t)(r.layout.moves_h - 1));
	key(KEYS_HOME);
	ck_assert_int_eq(r.ml_top, 0);
	/* Without a file there is no list to go back to. */
	ck_assert_int_eq(review_key(&r, KEYS_ESC).kind, REVIEW_CMD_NONE);
	review_fini(&r);
}
END_TEST

/* The text of row y of the move list: the number and the cells at their
 * columns. */
static void row_text(int y, char *buf, size_t size)
{
	const struct review_row *rw = &r.ml.rows[y];
	memset(buf, ' ', size - 1);
	buf[size - 1] = '\0';
	memcpy(buf, rw->num, strlen(rw->num));
	for (size_t k = 0; k < rw->n; k++) {
		const struct review_cell *c = &r.ml.cells[rw->first + k];
		ck_assert_uint_lt((size_t)c->x + strlen(c->text), size);
		memcpy(buf + c->x, c->text, strlen(c->text));
	}
	size_t n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

START_TEST(test_side_lines)
{
	char line[128];
	open_file("review/variations.pgn");
	ck_assert_uint_eq(rp.n_games, 1);
	struct review_cmd rs = { REVIEW_CMD_RESIZE, 80, 24 };
	review_apply(&r, &rs);
	key(KEYS_ENTER);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_GAME);
	/* The tree: the main line in two columns, each side line under the
	 * move it replaces, nested ones deeper; marks glued to the SAN, '*'
	 * for a comment or another NAG. */
	static const char *const want[] = {
		"  1. e4        e5!",
		"   1...c5 2.Nf3",
		"     2.c3 d5",
		"   2...d6",
		"   1...e6* 2.d4",
		"  2. Nf3*      Nc6",
		"  3. Bb5       a6",
	};
	ck_assert_int_eq(r.ml.n_rows, 7);
	for (int y = 0; y < 7; y++) {
		row_text(y, line, sizeof line);
		ck_assert_str_eq(line, want[y]);
	}
	ck_assert_int_eq(r.ml.rows[2].depth, 2);

	/* v with no side line at the next move says so and stays. */
	ck_assert_uint_eq(key('v') & REVIEW_DIRTY_STATUS, REVIEW_DIRTY_STATUS);
	ck_assert_str_eq(r.message, "no side line at the next move");
	ck_assert_int_eq(r.depth, 0);
	/* After 1. e4, v plays the first alternative to 1... e5. */
	key(KEYS_RIGHT);
	key('v');
	ck_assert_int_eq(r.depth, 1);
	ck_assert_uint_eq(r.ply, 2);
	ck_assert_str_eq(review_move_at(&r, 1)->san, "c5");
	ck_assert_uint_eq(r.n_line, 4);
	ck_assert_str_eq(review_line_comment(&r), "The Sicilian.");
	review_line_text(&r, line, sizeof line);
	ck_assert_str_eq(line, "side line 1/2 of 1...e5!");
	/* n: the next alternative in its place, from anywhere in it. */
	key(KEYS_RIGHT);
	key('n');
	ck_assert_uint_eq(r.ply, 2);
	ck_assert_str_eq(review_move_at(&r, 1)->san, "e6");
	ck_assert_uint_eq(r.n_line, 3);
	review_nag_text(review_move_at(&r, 1), true, line, sizeof line);
	ck_assert_str_eq(line, "N novelty");
	/* After the last, the first again. */
	key('n');
	ck_assert_str_eq(review_move_at(&r, 1)->san, "c5");
	key('n');
	/* No side line at the next move of this one. */
	key('v');
	ck_assert_str_eq(r.message, "no side line at the next move");
	ck_assert_str_eq(review_move_at(&r, 1)->san, "e6");
	/* Out, back to the position before 1... e5; Right plays it. */
	key('u');
	ck_assert_int_eq(r.depth, 0);
	ck_assert_uint_eq(r.ply, 1);
	key(KEYS_RIGHT);
	ck_assert_str_eq(review_move_at(&r, 1)->san, "e5");
	ck_assert_uint_eq(r.n_line, 6);
	/* Two deep: 1... c5 2. Nf3, then 2. c3 in place of 2. Nf3. */
	key(KEYS_LEFT);
	key('v');
	key(KEYS_RIGHT);
	key(KEYS_LEFT);
	key('v');
	ck_assert_int_eq(r.depth, 2);
	ck_assert_str_eq(review_move_at(&r, 2)->san, "c3");
	key(KEYS_END);
	ck_assert_uint_eq(r.ply, 4);
	ck_assert_str_eq(review_move_at(&r, 3)->san, "d5");
	review_line_text(&r, line, sizeof line);
	ck_assert_str_eq(line, "side line 1/1 of 2.Nf3 (depth 2)");
	/* The current move is found in the tree: row 2. */
	ck_assert_int_eq(review_moves_row_of(&r.ml, review_move_at(&r, r.ply - 1)), 2);
	/* Esc leaves one level at a time, and only then is the list (one
	 * game: nothing). */
	key(KEYS_ESC);
	ck_assert_int_eq(r.depth, 1);
	ck_assert_uint_eq(r.ply, 2);
	key(KEYS_ESC);
	ck_assert_int_eq(r.depth, 0);
	ck_assert_int_eq(review_key(&r, KEYS_ESC).kind, REVIEW_CMD_NONE);
	key('n');
	ck_assert_str_eq(r.message, "not in a side line (v enters one)");
	/* The jump prompt counts plies of the line followed. */
	key('v');
	ck_assert_int_eq(r.depth, 1);
	struct review_cmd go = { REVIEW_CMD_GOTO, 5, 0 };
	review_apply(&r, &go);
	ck_assert_str_eq(r.message, "no ply 5: this line has plies 0 to 4");
	close_file();
}
END_TEST

START_TEST(test_nag_text)
{
	struct review_move mv;
	char buf[128];
	memset(&mv, 0, sizeof mv);
	snprintf(mv.san, sizeof mv.san, "Nxd5");
	mv.nags[0] = 6;
	mv.nags[1] = 16;
	mv.nags[2] = 250;
	mv.n_nags = 3;
	review_san_text(&mv, false, buf, sizeof buf);
	ck_assert_str_eq(buf, "Nxd5?!");
	review_nag_text(&mv, false, buf, sizeof buf);
	ck_assert_str_eq(buf, "\xc2\xb1 White is clearly better; $250");
	review_nag_text(&mv, true, buf, sizeof buf);
	ck_assert_str_eq(buf, "+/- White is clearly better; $250");
	ck_assert(review_nag_is_mark(4));
	ck_assert(!review_nag_is_mark(7));
}
END_TEST

START_TEST(test_evals_from_pgn)
{
	char buf[32];
	open_file("review/blunder.pgn");
	key(KEYS_ENTER);
	ck_assert(review_has_evals(&r));
	ck_assert_ptr_null(review_eval_at(&r, 0));
	ck_assert_int_eq(review_eval_at(&r, 7)->value, -110);
	review_eval_text(review_eval_at(&r, 7), buf, sizeof buf);
	ck_assert_str_eq(buf, "-1.10");
	review_eval_text(review_eval_at(&r, 11), buf, sizeof buf);
	ck_assert_str_eq(buf, "#-2");
	/* Judged by the fall of the mover's winning chances between the
	 * file's own evaluations: 3...Nd4 (+0.30 to +1.00) an inaccuracy,
	 * 4. Nxe5 (+1.00 to -1.10) and 5. Nxf7 (-1.20 to -6.00) blunders,
	 * 6. Rf1 letting a mate in from -6.50 a blunder. */
	static const enum analysis_judgement want[15] = {
		[6] = ANALYSIS_INACCURACY, [7] = ANALYSIS_BLUNDER, [9] = ANALYSIS_BLUNDER, [11] = ANALYSIS_BLUNDER,
	};
	for (size_t ply = 0; ply <= 14; ply++)
		ck_assert_msg(review_judgement_at(&r, ply) == want[ply], "ply %zu", ply);
	close_file();
	/* No evaluations: the move marks judge (?! inaccuracy, ? mistake,
	 * ?? blunder). */
	open_file("review/marks.pgn");
	key(KEYS_ENTER);
	ck_assert(!review_has_evals(&r));
	ck_assert_int_eq(review_judgement_at(&r, 1), ANALYSIS_INACCURACY);
	ck_assert_int_eq(review_judgement_at(&r, 2), ANALYSIS_BLUNDER);
	ck_assert_int_eq(review_judgement_at(&r, 3), ANALYSIS_MISTAKE);
	ck_assert_int_eq(review_judgement_at(&r, 4), ANALYSIS_NONE);
	close_file();
	open_file("review/annotated.pgn");
	key(KEYS_ENTER);
	/* Its evaluations stand next to its marks: the evaluations win. */
	ck_assert_int_eq(review_judgement_at(&r, 10), ANALYSIS_NONE);
	close_file();
}
END_TEST

START_TEST(test_explore)
{
	char line[160];
	open_file("review/variations.pgn");
	key(KEYS_ENTER);
	/* The game's own next move, in UCI: a step on the main line. */
	ck_assert_uint_eq(review_play(&r, "e2e4") & REVIEW_DIRTY_BOARD, REVIEW_DIRTY_BOARD);
	ck_assert_int_eq(r.depth, 0);
	ck_assert_uint_eq(r.ply, 1);
	/* A move one of its side lines starts with: into that side line. */
	review_play(&r, "c5");
	ck_assert_int_eq(r.depth, 1);
	ck_assert(!r.frames[1].explored);
	ck_assert_str_eq(review_move_at(&r, 1)->san, "c5");
	ck_assert_uint_eq(r.n_line, 4);
	/* A move of the player's own: a line of its own in place of 2.Nf3. */
	review_play(&r, "d4");
	ck_assert_int_eq(r.depth, 2);
	ck_assert(r.frames[2].explored);
	ck_assert_uint_eq(r.ply, 3);
	ck_assert_uint_eq(r.n_line, 3);
	review_line_text(&r, line, sizeof line);
	ck_assert_str_eq(line, "your line, in place of 2.Nf3");
	review_play(&r, "cxd4");
	ck_assert_uint_eq(r.n_line, 4);
	ck_assert_str_eq(review_move_at(&r, 3)->san, "cxd4");
	/* In the move list, under 2. Nf3 of the side line it replaces,
	 * after that move's own side line, marked as the player's. */
	int row = review_moves_row_of(&r.ml, review_move_at(&r, 3));
	ck_assert_int_eq(row, 3);
	row_text(row, line, sizeof line);
	ck_assert_str_eq(line, "     2.d4 cxd4");
	ck_assert(r.ml.rows[row].own);
	ck_assert_int_eq(r.ml.rows[row].depth, 2);
	/* Back one and another move: the rest of the player's line goes. */
	key(KEYS_LEFT);
	review_play(&r, "Nc6");
	ck_assert_uint_eq(r.n_line, 4);
	ck_assert_str_eq(review_move_at(&r, 3)->san, "Nc6");
	/* An illegal move is refused and changes nothing. */
	struct review before = r;
	ck_assert_uint_eq(review_play(&r, "Ke3"), REVIEW_DIRTY_STATUS);
	ck_assert_ptr_nonnull(strstr(r.message, "Ke3"));
	ck_assert_uint_eq(r.ply, before.ply);
	ck_assert_uint_eq(r.n_line, before.n_line);
	/* u leaves the player's line for the side line it left. */
	key('u');
	ck_assert_int_eq(r.depth, 1);
	ck_assert_uint_eq(r.ply, 2);
	key('u');
	/* A new line replaces the old: from the start, 1. d4. */
	key(KEYS_HOME);
	review_play(&r, "d4");
	ck_assert_int_eq(r.depth, 1);
	ck_assert(r.frames[1].explored);
	ck_assert_uint_eq(r.explore.n, 1);
	/* Past the end of the game: a line that continues it. */
	key('u');
	key(KEYS_END);
	ck_assert_uint_eq(r.ply, 6);
	review_play(&r, "Ba4");
	ck_assert_uint_eq(r.ply, 7);
	review_line_text(&r, line, sizeof line);
	ck_assert_str_eq(line, "your line, after the end of the line");
	/* The move prompt: m, the move, Enter. */
	key('u');
	key(KEYS_HOME);
	key('m');
	ck_assert(r.prompt && r.prompt_move);
	key('N');
	key('f');
	key('3');
	key(KEYS_ENTER);
	ck_assert(!r.prompt);
	ck_assert_uint_eq(r.ply, 1);
	ck_assert_str_eq(review_move_at(&r, 0)->san, "Nf3");
	ck_assert(r.frames[r.depth].explored);
	close_file();
}
END_TEST

START_TEST(test_tablebase)
{
	const char *shared = getenv("TCHESS_SHARED_DATA");
	char spec[2048], buf[200];
	struct tablebase *tb = NULL;
	char *err = NULL;
	struct position start;
	position_init_start(&start);
	/* No tables asked for: none, and no error. */
	ck_assert_int_eq(tablebase_open_spec("none", &tb, &err), 0);
	ck_assert_ptr_null(tb);
	ck_assert_int_eq(review_tablebase_verdict(NULL, &start, buf, sizeof buf), -1);
	ck_assert_str_eq(buf, "");
	/* A folder with no tables is refused with its name. */
	ck_assert_int_eq(tablebase_open_spec("/", &tb, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "/ holds no Gaviota"));
	free(err);
	if (!tablebase_has_gaviota() || !tablebase_has_syzygy()) {
		fprintf(stderr, "test_tablebase: skipped, built without Gaviota or Syzygy\n");
		return;
	}
	snprintf(spec, sizeof spec, "gaviota:%s/tablebases/gaviota-3-4,%s/tablebases/syzygy-3-4", shared, shared);
	ck_assert_msg(tablebase_open_spec(spec, &tb, &err) == 0, "%s", err ? err : "");
	ck_assert_ptr_nonnull(tb);
	struct position p;
	struct tchess_error e;
	/* Mate in one (Qh8# or Qa8#). */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/4K3/8/8/8/8/7Q w - - 0 1", &e), TCHESS_OK);
	ck_assert_int_eq(review_tablebase_verdict(tb, &p, buf, sizeof buf), 0);
	ck_assert_msg(strstr(buf, "tablebase: White wins, mate in 1 plies") == buf, "%s", buf);
	ck_assert_msg(strstr(buf, ", DTZ 1; best Q") && strstr(buf, "8# (Gaviota, Syzygy)"), "%s", buf);
	/* The side to move losing: Black to move, White wins. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/4K3/8/8/8/8/7Q b - - 0 1", &e), TCHESS_OK);
	ck_assert_int_eq(review_tablebase_verdict(tb, &p, buf, sizeof buf), 0);
	ck_assert_msg(strstr(buf, "tablebase: White wins"), "%s", buf);
	/* A lone knight: drawn. */
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", &e), TCHESS_OK);
	ck_assert_int_eq(review_tablebase_verdict(tb, &p, buf, sizeof buf), 0);
	ck_assert_msg(strstr(buf, "tablebase: draw;"), "%s", buf);
	/* Too many pieces, or castling rights: no verdict. */
	ck_assert_int_eq(review_tablebase_verdict(tb, &start, buf, sizeof buf), -1);
	ck_assert_int_eq(fen_parse(&p, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &e), TCHESS_OK);
	ck_assert_int_eq(review_tablebase_verdict(tb, &p, buf, sizeof buf), -1);
	tablebase_free(tb);
}
END_TEST

/* A file that plays on past where our rules end the game (a fivefold at
 * ply 16, then 9. e4 e5): every move is there, and from ply 16 on the
 * main line says where the rules ended it. */
START_TEST(test_played_on)
{
	char text[128];
	open_file("review/played-on.pgn");
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.n_line, 18);
	struct review_cmd go = { REVIEW_CMD_GOTO, 15, 0 };
	review_apply(&r, &go);
	review_rules_end_text(&r, text, sizeof text);
	ck_assert_str_eq(text, "");
	key(KEYS_RIGHT);
	review_rules_end_text(&r, text, sizeof text);
	ck_assert_str_eq(text, "our rules end the game here (fivefold); the file plays on");
	key(KEYS_END);
	ck_assert_uint_eq(r.ply, 18);
	review_rules_end_text(&r, text, sizeof text);
	ck_assert_str_eq(text, "played on after our rules ended the game at move 8 (fivefold)");
	/* Game 3's start is already over (its only move leaves bare kings). */
	key(KEYS_ESC);
	key(KEYS_DOWN);
	key(KEYS_DOWN);
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.game_index, 2);
	ck_assert_uint_eq(r.n_line, 3);
	review_rules_end_text(&r, text, sizeof text);
	ck_assert_str_eq(text, "our rules end the game here (dead-position); the file plays on");
	key(KEYS_RIGHT);
	review_rules_end_text(&r, text, sizeof text);
	ck_assert_str_eq(text, "played on after our rules ended the game at the start (dead-position)");
	close_file();
}
END_TEST

/* The player's line saved (key s) as one more side line of the move it
 * replaces, the file's comments, NAGs, clocks, evaluations and side lines
 * kept: written, read back, the same tree (the expected one made by
 * hand with pgn_move_add_variation) and the same text again; a line past
 * the end of the main line is appended to it; the save writes NAME-N.pgn
 * in the games folder. */
START_TEST(test_save_own_line)
{
	const char *text = "[Event \"Saved\"]\n[Result \"*\"]\n\n{ Start. } 1. e4 { [%clk 0:05:00] [%eval 0.3] "
			   "Best by test. } 1... e5 $1 ( { The Sicilian. } 1... c5 2. Nf3 $14 { A comment. } "
			   "( 2. c3 d5 ) 2... d6 ) 2. Nf3 Nc6 *\n";
	char err[256];
	ck_assert_int_eq(review_pgn_init(&rp, text, strlen(text), err, sizeof err), 0);
	review_init(&r, "saved.pgn", rp.entries, rp.n_games, review_pgn_load, &rp);
	key(KEYS_ENTER);
	struct review_explore_at at;
	ck_assert(!review_explore_where(&r, &at));
	review_play(&r, "e4");
	review_play(&r, "c5");
	review_play(&r, "d4");
	review_play(&r, "cxd4");
	ck_assert(r.frames[2].explored);
	/* Left, it is still the line that is saved. */
	key('u');
	ck_assert(review_explore_where(&r, &at));
	ck_assert_int_eq(at.depth, 1);
	ck_assert_uint_eq(at.index[0], 1);
	ck_assert_uint_eq(at.alt[0], 0);
	ck_assert_uint_eq(at.at, 1);
	ck_assert_uint_eq(at.line->n_moves, 2);

	struct pgn_buf out, want, again;
	pgn_buf_init(&out);
	pgn_buf_init(&want);
	pgn_buf_init(&again);
	ck_assert_int_eq(review_pgn_export(&rp, 0, &at, &out, err, sizeof err), 0);

	/* The file's game with the line added by hand. */
	struct pgn_reader rd;
	struct pgn_game g, back;
	pgn_reader_init(&rd, text, strlen(text));
	ck_assert_int_eq(pgn_read_game(&rd, &g, NULL), PGN_OK);
	struct pgn_move *nf3 = &g.moves[1].variations[0].moves[1];
	ck_assert_str_eq(nf3->san, "Nf3");
	struct pgn_line *l = pgn_move_add_variation(nf3);
	struct position p = g.start;
	struct undo u;
	move m;
	ck_assert_int_eq(san_parse(&p, "e4", 2, &m, NULL), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(san_parse(&p, "c5", 2, &m, NULL), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(san_parse(&p, "d4", 2, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(pgn_line_add_move(l, m), TCHESS_OK);
	position_make(&p, m, &u);
	ck_assert_int_eq(san_parse(&p, "cxd4", 4, &m, NULL), TCHESS_OK);
	ck_assert_int_eq(pgn_line_add_move(l, m), TCHESS_OK);
	ck_assert_int_eq(pgn_write_game(&g, &want, NULL), TCHESS_OK);
	ck_assert_str_eq(out.data, want.data);
	ck_assert_ptr_nonnull(strstr(out.data, "2. Nf3 $14 {A comment.} (2. c3 d5) (2. d4 cxd4) 2... d6)"));
	ck_assert_ptr_nonnull(strstr(out.data, "{[%eval 0.30] [%clk 0:05:00] Best by test.}"));

	/* Read back: the same tree, written the same. */
	pgn_reader_init(&rd, out.data, out.len);
	ck_assert_int_eq(pgn_read_game(&rd, &back, NULL), PGN_OK);
	ck_assert_uint_eq(back.n_moves, 4);
	ck_assert_uint_eq(back.moves[1].n_nags, 1);
	ck_assert_uint_eq(back.moves[1].variations[0].moves[1].n_variations, 2);
	ck_assert_str_eq(back.moves[1].variations[0].moves[1].variations[1].moves[1].san, "cxd4");
	ck_assert_str_eq(back.moves[0].comment, "Best by test.");
	ck_assert_int_eq(back.moves[0].clock_ms, 300000);
	ck_assert_int_eq(back.moves[0].eval.value, 30);
	ck_assert_int_eq(pgn_write_game(&back, &again, NULL), TCHESS_OK);
	ck_assert_str_eq(again.data, out.data);
	pgn_game_fini(&back);
	pgn_game_fini(&g);

	/* Past the end of the main line: appended to it. */
	key(KEYS_ESC);
	key(KEYS_END);
	review_play(&r, "Bb5");
	ck_assert(review_explore_where(&r, &at));
	ck_assert_int_eq(at.depth, 0);
	ck_assert_uint_eq(at.at, 4);
	out.len = 0;
	ck_assert_int_eq(review_pgn_export(&rp, 0, &at, &out, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "2. Nf3 Nc6\n3. Bb5 *"));
	ck_assert_ptr_null(strstr(out.data, "cxd4"));

	/* s: the file in the games folder, named after the file. */
	char dir[] = "/tmp/tchess-save-XXXXXX", path[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_DATA_HOME", dir, 1);
	strcpy(rp.name, "saved.pgn");
	r.save = review_pgn_save;
	r.save_ctx = &rp;
	key('s');
	snprintf(path, sizeof path, "%s/tchess/games/saved-1.pgn", dir);
	char msg[400];
	snprintf(msg, sizeof msg, "saved with your line to %s", path);
	ck_assert_str_eq(r.message, msg);
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	char file[4096];
	size_t n = fread(file, 1, sizeof file - 1, f);
	file[n] = '\0';
	fclose(f);
	ck_assert_str_eq(file, out.data);
	remove(path);
	snprintf(path, sizeof path, "%s/tchess/games", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/tchess", dir);
	rmdir(path);
	rmdir(dir);
	pgn_buf_fini(&out);
	pgn_buf_fini(&want);
	pgn_buf_fini(&again);
	close_file();
}
END_TEST

START_TEST(test_illegal_game_refused)
{
	struct review_move mv = { .m = move_make(SQ_E1, SQ_E8 - 8 * 3), .san = "Ke5", .clock_ms = -1 };
	struct review_game g;
	memset(&g, 0, sizeof g);
	position_init_start(&g.start);
	g.moves = &mv;
	g.n_moves = 1;
	review_init(&r, "x.pgn", NULL, 0, NULL, NULL);
	ck_assert_int_eq(review_set_game(&r, &g), -1);
	ck_assert_str_eq(r.message, "move 1 (Ke5) is not legal");
	ck_assert(!r.has_game);
	review_fini(&r);
}
END_TEST

/* The header's time control as players read it, by time_control_format():
 * FIDE classical periods, a Lichess game, tchessd's own tag, and a value
 * that cannot be read shown as the file has it. */
START_TEST(test_time_control_text)
{
	const char *text = "[TimeControl \"40/5400+30:1800+30\"]\n\n1. e4 *\n\n"
			   "[TimeControl \"60+0\"]\n\n1. e4 *\n\n"
			   "[TimeControl \"300+3\"]\n[TchessTimeControl \"5+d3\"]\n\n1. e4 *\n\n"
			   "[TimeControl \"*180\"]\n\n1. e4 *\n";
	const char *want[] = { "40/90+30:30+30", "1+0", "5+d3", "*180" };
	char err[256];
	ck_assert_int_eq(review_pgn_init(&rp, text, strlen(text), err, sizeof err), 0);
	ck_assert_uint_eq(rp.n_games, 4);
	review_init(&r, "tc.pgn", rp.entries, rp.n_games, review_pgn_load, &rp);
	for (size_t i = 0; i < 4; i++) {
		struct review_cmd open = { REVIEW_CMD_NONE, 0, 0 };
		r.list_sel = i;
		open = review_key(&r, KEYS_ENTER);
		review_apply(&r, &open);
		ck_assert_uint_eq(r.game_index, i);
		ck_assert_str_eq(r.game.time_control, want[i]);
		key(KEYS_ESC);
	}
	close_file();
}
END_TEST

START_TEST(test_bad_game_in_list)
{
	const char *text_file;
	const char *text = "[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"B\"]\n\n1. d4 *\n";
	char err[256];
	ck_assert_int_eq(review_pgn_init(&rp, text, strlen(text), err, sizeof err), 0);
	ck_assert_uint_eq(rp.n_games, 2);
	ck_assert_str_ne(rp.entries[0].error, "");
	ck_assert_str_eq(rp.entries[1].error, "");
	review_init(&r, "bad.pgn", rp.entries, rp.n_games, review_pgn_load, &rp);
	/* Shown up to its last legal move, with why the rest is not. */
	key(KEYS_ENTER);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_GAME);
	ck_assert_uint_eq(r.n_line, 2);
	ck_assert_str_eq(r.message, "game 1 is shown up to ply 2: 2. Ke3: Ke3: no king of White's can move to e3 "
				    "(line 3, column 13)");
	char shown[400];
	review_read_error_text(&r, shown, sizeof shown);
	ck_assert_str_eq(shown, "");
	key(KEYS_END);
	review_read_error_text(&r, shown, sizeof shown);
	ck_assert_str_eq(shown, "not read: 2. Ke3: Ke3: no king of White's can move to e3 (line 3, column 13); "
			       "the rest of the game is not shown");
	key(KEYS_ESC);
	key('j');
	key(KEYS_ENTER);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_GAME);
	ck_assert_str_eq(r.game.white, "B");
	ck_assert_ptr_null(r.game.read_error);
	close_file();

	/* A move after mate; a game with no move read still cannot be shown. */
	text_file = "[White \"A\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 0-1\n\n[White \"B\"]\n[FEN \"x\"]\n\n1. d4 *\n";
	ck_assert_int_eq(review_pgn_init(&rp, text_file, strlen(text_file), err, sizeof err), 0);
	ck_assert_uint_eq(rp.n_games, 2);
	review_init(&r, "mate.pgn", rp.entries, rp.n_games, review_pgn_load, &rp);
	key(KEYS_ENTER);
	ck_assert_uint_eq(r.n_line, 4);
	ck_assert_ptr_nonnull(strstr(r.message, "3. Kf2: a move after checkmate (no move is legal there)"));
	key(KEYS_ESC);
	key('j');
	key(KEYS_ENTER);
	ck_assert_int_eq(r.screen, REVIEW_SCREEN_LIST);
	ck_assert_msg(!strncmp(r.message, "game 2 cannot be shown: ", 24), "%s", r.message);
	close_file();

	ck_assert_int_eq(review_pgn_open(&rp, "/nonexistent/x.pgn", err, sizeof err), -1);
	ck_assert_str_eq(err, "/nonexistent/x.pgn: No such file or directory");
	review_pgn_fini(&rp);
}
END_TEST

START_TEST(test_wrap)
{
	const char *t = "The Fried Liver allows it, and more words follow here";
	size_t next, n = review_wrap(t, 20, &next);
	ck_assert_int_eq((int)n, 15);
	ck_assert_str_eq(t + next, "allows it, and more words follow here");
	/* A word longer than the line is cut. */
	n = review_wrap("abcdefghij", 4, &next);
	ck_assert_int_eq((int)n, 4);
	ck_assert_int_eq((int)next, 4);
	/* UTF-8 counts characters, not bytes. */
	n = review_wrap("\u00e9\u00e9\u00e9 x", 3, &next);
	ck_assert_int_eq((int)n, 6);
	ck_assert_int_eq((int)next, 7);
	n = review_wrap("ab\ncd", 10, &next);
	ck_assert_int_eq((int)n, 2);
	ck_assert_int_eq((int)next, 3);
}
END_TEST

/* The tags pane's event line at 80 columns (37 of them beside the board)
 * ended "A valid game at the beginning of the": cut mid-sentence where the
 * edge fell, the result pushed off. Now whole words, an ellipsis, and the
 * result kept; the date goes first when the event would be left a stub. */
START_TEST(test_event_line)
{
	struct review_layout l;
	char line[256];
	const char *ev = "A valid game at the beginning of the file";
	review_layout_compute(&l, 80, 24);
	ck_assert_int_eq(review_event_text(ev, NULL, "1-0", l.side_w, false, line, sizeof line), 35);
	ck_assert_str_eq(line, "A valid game at the beginning\u2026  1-0");
	review_event_text(ev, NULL, "1-0", l.side_w, true, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at the...  1-0");
	review_event_text(ev, "2024.05.01", "1-0", l.side_w, false, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at\u2026, 2024.05.01  1-0");
	/* Too narrow for the date and a useful part of the event. */
	review_event_text(ev, "2024.05.01", "1-0", 25, false, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at the\u2026  1-0");
	/* What fits is left whole; the list's column has no result. */
	review_event_text("Casual game", "2024.05.01", "*", 37, false, line, sizeof line);
	ck_assert_str_eq(line, "Casual game, 2024.05.01  *");
	review_event_text(ev, "2024.05.01", NULL, 22, false, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at the\u2026");
	review_event_text("", "2024.05.01", NULL, 22, false, line, sizeof line);
	ck_assert_str_eq(line, ", 2024.05.01");
	/* An unknown date takes no room from the event. */
	review_event_text(ev, "????.??.??", "*", 37, false, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at the beginning of…  *");
	review_event_text(ev, "?", NULL, 22, false, line, sizeof line);
	ck_assert_str_eq(line, "A valid game at the…");
	/* One long word: cut, with the ellipsis, within the width. */
	ck_assert_int_eq(review_event_text("Weltmeisterschaftskampf", NULL, "1-0", 15, false, line, sizeof line), 15);
	ck_assert_str_eq(line, "Weltmeist\u2026  1-0");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("review");
	TCase *tc = tcase_create("review");
	tcase_add_test(tc, test_list_and_open);
	tcase_add_test(tc, test_stepping);
	tcase_add_test(tc, test_prompt);
	tcase_add_test(tc, test_flip_help_quit);
	tcase_add_test(tc, test_clock_and_comment);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_scroll_follows);
	tcase_add_test(tc, test_side_lines);
	tcase_add_test(tc, test_nag_text);
	tcase_add_test(tc, test_evals_from_pgn);
	tcase_add_test(tc, test_explore);
	tcase_add_test(tc, test_tablebase);
	tcase_add_test(tc, test_played_on);
	tcase_add_test(tc, test_save_own_line);
	tcase_add_test(tc, test_illegal_game_refused);
	tcase_add_test(tc, test_time_control_text);
	tcase_add_test(tc, test_bad_game_in_list);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_event_line);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
