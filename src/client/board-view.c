/*
 * Board geometry and glyphs: orientation maths, pane sizes, and the text
 * of each piece in Unicode or ASCII.
 */
#include <string.h>

#include "board-view.h"

/* Largest first: 11x4 squares (a 90x33 board, from about 115x35 on the
 * play screen) hold the pieces' art (board_view_art); the rest one
 * glyph each. */
static const int board_sizes[][2] = { { BOARD_VIEW_ART_SQ_W, BOARD_VIEW_ART_SQ_H }, { 7, 3 }, { 5, 2 }, { 3, 1 } };

void board_view_init(struct board_view *v)
{
	memset(v, 0, sizeof *v);
	position_init_start(&v->pos);
	v->check = SQ_NONE;
	v->cursor = SQ_NONE;
	v->selected = SQ_NONE;
}

void board_view_set(struct board_view *v, const struct position *p, move last)
{
	v->pos = *p;
	v->check = position_in_check(p) ? position_king(p, (enum color)p->side) : SQ_NONE;
	v->last_move = 0;
	if (last != MOVE_NONE) {
		int to = move_to(last);
		/* Castling is encoded king-takes-rook; show where the king went. */
		if (move_kind(last) == MOVE_CASTLING && !p->chess960)
			to = position_castle_king_to(move_from(last), to);
		v->last_move = sq_bb(move_from(last)) | sq_bb(to);
	}
}

int board_view_geometry(int avail_w, int avail_h, struct board_geometry *g)
{
	for (size_t i = 0; i < sizeof board_sizes / sizeof board_sizes[0]; i++) {
		int w = board_sizes[i][0], h = board_sizes[i][1];
		/* Rank labels take two columns on the left, file labels one row below. */
		int width = 2 + 8 * w, height = 8 * h + 1;
		if (width <= avail_w && height <= avail_h) {
			g->sq_w = w;
			g->sq_h = h;
			g->width = width;
			g->height = height;
			g->board_x = 2;
			g->board_y = 0;
			return 0;
		}
	}
	return -1;
}

int board_view_square_at(bool flipped, int col, int row)
{
	return flipped ? make_sq(7 - col, row) : make_sq(col, 7 - row);
}

void board_view_cell_of(bool flipped, int sq, int *col, int *row)
{
	*col = flipped ? 7 - sq_file(sq) : sq_file(sq);
	*row = flipped ? sq_rank(sq) : 7 - sq_rank(sq);
}

int board_view_square_at_cell(const struct board_geometry *g, bool flipped, int x, int y)
{
	x -= g->board_x;
	y -= g->board_y;
	if (x < 0 || y < 0 || x >= 8 * g->sq_w || y >= 8 * g->sq_h)
		return SQ_NONE;
	return board_view_square_at(flipped, x / g->sq_w, y / g->sq_h);
}

char board_view_file_label(bool flipped, int col)
{
	return (char)('a' + (flipped ? 7 - col : col));
}

char board_view_rank_label(bool flipped, int row)
{
	return (char)('1' + (flipped ? row : 7 - row));
}

const char *board_view_glyph(enum piece p, bool ascii, bool solid)
{
	/* Indexed by piece type: pawn, knight, bishop, rook, queen, king. */
	static const char *const white_glyph[PIECE_TYPE_NB] = { "\u2659", "\u2658", "\u2657",
								"\u2656", "\u2655", "\u2654" };
	static const char *const black_glyph[PIECE_TYPE_NB] = { "\u265f", "\u265e", "\u265d",
								"\u265c", "\u265b", "\u265a" };
	static const char *const white_letter[PIECE_TYPE_NB] = { "P", "N", "B", "R", "Q", "K" };
	static const char *const black_letter[PIECE_TYPE_NB] = { "p", "n", "b", "r", "q", "k" };

	if (p == NO_PIECE)
		return "";
	enum piece_type pt = piece_type(p);
	if (pt < PAWN || pt >= PIECE_TYPE_NB)
		return "?";
	bool white = piece_color(p) == WHITE;
	if (ascii)
		return white ? white_letter[pt] : black_letter[pt];
	return white && !solid ? white_glyph[pt] : black_glyph[pt];
}

bool board_view_has_art(const struct board_geometry *g)
{
	return g->sq_w >= BOARD_VIEW_ART_SQ_W && g->sq_h >= BOARD_VIEW_ART_SQ_H;
}

const char *board_view_art(enum piece p, bool ascii, int row)
{
	/* Indexed by piece type (pawn, knight, bishop, rook, queen, king),
	 * then row; every row BOARD_VIEW_ART_W columns. One base for the
	 * pieces, the pawn smaller and lower; the head tells them apart. */
	static const char *const blocks[PIECE_TYPE_NB][BOARD_VIEW_ART_H] = {
		{ "       ", "   \u2584   ", "  \u2590\u2588\u258c  " },
		{ "  \u2584\u2588\u2588\u2596 ", " \u259d\u2580\u2590\u2588\u258c ", " \u2590\u2588\u2588\u2588\u258c " },
		{ "  \u2597\u2588\u2596  ", "  \u259d\u2588\u2598  ", " \u2590\u2588\u2588\u2588\u258c " },
		{ " \u2590\u2584\u2588\u2584\u258c ", "  \u2590\u2588\u258c  ", " \u2590\u2588\u2588\u2588\u258c " },
		{ "  \u259a\u2588\u259e  ", "  \u2590\u2588\u258c  ", " \u2590\u2588\u2588\u2588\u258c " },
		{ "   \u254b   ", "  \u2590\u2588\u258c  ", " \u2590\u2588\u2588\u2588\u258c " },
	};
	/* The letter in the middle row, upper case White, lower case Black. */
	static const char *const letters[2][PIECE_TYPE_NB][BOARD_VIEW_ART_H] = {
		{ { "       ", "   o   ", "  (P)  " },
		  { "  _/|  ", "  \\N|  ", " /___\\ " },
		  { "   o   ", "  (B)  ", " /___\\ " },
		  { " |=|=| ", "  |R|  ", " /___\\ " },
		  { "  \\^/  ", "  |Q|  ", " /___\\ " },
		  { "   +   ", "  |K|  ", " /___\\ " } },
		{ { "       ", "   o   ", "  (p)  " },
		  { "  _/|  ", "  \\n|  ", " /___\\ " },
		  { "   o   ", "  (b)  ", " /___\\ " },
		  { " |=|=| ", "  |r|  ", " /___\\ " },
		  { "  \\^/  ", "  |q|  ", " /___\\ " },
		  { "   +   ", "  |k|  ", " /___\\ " } },
	};
	if (p == NO_PIECE || row < 0 || row >= BOARD_VIEW_ART_H)
		return "";
	enum piece_type pt = piece_type(p);
	if (pt < PAWN || pt >= PIECE_TYPE_NB)
		return "";
	return ascii ? letters[piece_color(p) == WHITE ? 0 : 1][pt][row] : blocks[pt][row];
}

int board_view_cursor_step(bool flipped, int sq, int dx, int dy)
{
	int col, row;
	if (sq < 0 || sq >= 64)
		return board_view_square_at(flipped, 4, 6);
	board_view_cell_of(flipped, sq, &col, &row);
	col += dx;
	row += dy;
	if (col < 0 || col > 7 || row < 0 || row > 7)
		return sq;
	return board_view_square_at(flipped, col, row);
}
