/*
 * The board pane: draws a struct board_view into a curses window. Square
 * colours come from the theme; highlights are background colours, and
 * with "markers" (the monochrome look) also characters beside the piece,
 * so every highlight reads without colour. Below 256 colours the markers
 * are always shown: the palette's only mid-tones (magenta and red in 8
 * colours, a few more in 16) are what keeps pieces readable on a
 * highlight (the theme test's 3:1), so the highlights share the squares'
 * colours there:
 *
 *	[K]  cursor      <K>  selected   !K!  king in check
 *	*p*  legal capture  .  legal move   (P)  last move   1  premove number
 */
#include "tcurses.h"

#include "ui.h"
#include "board.h"

static int ui_board_square_bg(const struct board_view *v, int sq)
{
	if (sq == v->check)
		return THEME_CHECK;
	if (sq == v->cursor)
		return THEME_CURSOR;
	if (sq == v->selected)
		return THEME_SELECTED;
	if (v->premove[sq])
		return THEME_PREMOVE;
	if (v->last_move & sq_bb(sq))
		return THEME_LAST_MOVE;
	return (LIGHT_SQUARES_BB & sq_bb(sq)) ? THEME_LIGHT_SQUARE : THEME_DARK_SQUARE;
}

/* The characters either side of the piece, or 0 for none. */
static void ui_board_markers(const struct board_view *v, bool markers, int sq, char *left, char *right)
{
	*left = *right = 0;
	if (sq == v->cursor) {
		*left = '[';
		*right = ']';
	} else if (sq == v->selected) {
		*left = '<';
		*right = '>';
	} else if ((v->legal & sq_bb(sq)) && v->pos.board[sq] != NO_PIECE) {
		*left = *right = '*';
	} else if (markers && sq == v->check) {
		*left = *right = '!';
	} else if (markers && (v->last_move & sq_bb(sq))) {
		*left = '(';
		*right = ')';
	}
}

void ui_board_draw(struct ui *ui, WINDOW *w, const struct board_geometry *g, const struct board_view *v)
{
	const struct theme *t = &ui->theme;
	bool mono = ui->ncolors == 0;
	bool markers = t->markers || ui->ncolors < 256;
	int coord = ui_attr(ui, THEME_COORDINATES, -1);
	bool art = board_view_has_art(g);

	werase(w);
	for (int row = 0; row < 8; row++) {
		for (int col = 0; col < 8; col++) {
			int sq = board_view_square_at(v->flipped, col, row);
			int bg = ui_board_square_bg(v, sq);
			enum piece p = (enum piece)v->pos.board[sq];
			int x0 = g->board_x + col * g->sq_w, y0 = g->board_y + row * g->sq_h;
			int base = ui_attr(ui, THEME_TEXT, bg);
			if (mono && bg == THEME_DARK_SQUARE)
				base |= A_REVERSE;
			wattrset(w, base);
			for (int dy = 0; dy < g->sq_h; dy++)
				mvwhline(w, y0 + dy, x0, ' ', g->sq_w);

			int cx = x0 + g->sq_w / 2, cy = y0 + g->sq_h / 2;
			/* The markers stand either side of the piece: of its
			 * glyph, or of its art. */
			int reach = art ? BOARD_VIEW_ART_W / 2 + 1 : 1;
			char left, right;
			ui_board_markers(v, markers, sq, &left, &right);
			if (left && g->sq_w >= 3) {
				mvwaddch(w, cy, cx - reach, (chtype)left);
				mvwaddch(w, cy, cx + reach, (chtype)right);
			}
			if (v->premove[sq])
				mvwaddch(w, y0, x0, (chtype)('0' + v->premove[sq] % 10));
			if (p != NO_PIECE) {
				bool white = piece_color(p) == WHITE;
				int a = ui_attr(ui, white ? THEME_WHITE_PIECE : THEME_BLACK_PIECE, bg);
				if (mono && bg == THEME_DARK_SQUARE)
					a |= A_REVERSE;
				/* Bold brightens white on 8-colour terminals and
				 * tells the letters apart in monochrome. */
				if (white)
					a |= A_BOLD;
				wattrset(w, a);
				if (art) {
					/* Blocks need colour to tell the sides apart. */
					for (int r = 0; r < BOARD_VIEW_ART_H; r++)
						mvwaddstr(w, cy - 1 + r, cx - BOARD_VIEW_ART_W / 2,
							  board_view_art(p, v->ascii || mono, r));
				} else {
					mvwaddstr(w, cy, cx, board_view_glyph(p, v->ascii, t->solid_pieces && !mono));
				}
			} else if (v->legal & sq_bb(sq)) {
				wattrset(w, ui_attr(ui, THEME_LEGAL, bg) | (mono && bg == THEME_DARK_SQUARE ? A_REVERSE : 0));
				mvwaddstr(w, cy, cx, v->ascii ? "." : "\u00b7");
			}
		}
		wattrset(w, coord);
		mvwaddch(w, g->board_y + row * g->sq_h + g->sq_h / 2, 0, (chtype)board_view_rank_label(v->flipped, row));
	}
	wattrset(w, coord);
	for (int col = 0; col < 8; col++)
		mvwaddch(w, g->board_y + 8 * g->sq_h, g->board_x + col * g->sq_w + g->sq_w / 2,
			 (chtype)board_view_file_label(v->flipped, col));
	wattrset(w, A_NORMAL);
}
