/*
 * The board pane's view model and geometry, free of curses: what to draw
 * (a position, its orientation and the highlight sets) and where each
 * square lands on screen. ui/board.c draws a struct board_view; the
 * mouse and the tests use the same square <-> cell mapping.
 *
 * Orientation follows the rules text: seen from White the files run A-H
 * left to right and the ranks 8-1 top to bottom; seen from Black the files
 * run H-A and the ranks 1-8.
 */
#ifndef TCHESS_CLIENT_BOARD_VIEW_H
#define TCHESS_CLIENT_BOARD_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "tchess/position.h"

struct board_view {
	struct position pos;
	bool flipped;              /* seen from Black */
	bool ascii;                /* letters instead of chess glyphs */
	bitboard last_move;        /* origin and destination of the last move */
	bitboard legal;            /* destinations of the selected piece */
	int check;                 /* square of a king in check, or SQ_NONE */
	int cursor;                /* keyboard cursor, or SQ_NONE */
	int selected;              /* picked-up piece, or SQ_NONE */
	uint8_t premove[64];       /* 0, or the number of a queued premove touching it */
};

/* Square sizes in cells, largest first; the pane takes the largest that fits. */
struct board_geometry {
	int sq_w, sq_h;            /* one square */
	int width, height;         /* the pane: board plus coordinates */
	int board_x, board_y;      /* where a1/h8's corner square row starts inside the pane */
};

/* The square that holds a piece's art (board_view_art), and the art. */
#define BOARD_VIEW_ART_SQ_W 11
#define BOARD_VIEW_ART_SQ_H 4
#define BOARD_VIEW_ART_W 7
#define BOARD_VIEW_ART_H 3

#define BOARD_VIEW_MIN_WIDTH 26
#define BOARD_VIEW_MIN_HEIGHT 9

/* Empties v: no position highlights, cursor or selection; the start position. */
void board_view_init(struct board_view *v);

/* Sets v's position and the highlights that follow from it (check), and
 * the last move (MOVE_NONE for none) played to reach it. */
void board_view_set(struct board_view *v, const struct position *p, move last);

/* Picks the largest board that fits in avail_w x avail_h cells into g.
 * Returns 0, or -1 if even the smallest does not fit. */
int board_view_geometry(int avail_w, int avail_h, struct board_geometry *g);

/* The square drawn in board column col and row row (0-7 from the top
 * left), given the orientation. */
int board_view_square_at(bool flipped, int col, int row);
/* The board column and row (0-7 from the top left) where sq is drawn. */
void board_view_cell_of(bool flipped, int sq, int *col, int *row);
/* The square under the cell (x, y) of the pane, or SQ_NONE. */
int board_view_square_at_cell(const struct board_geometry *g, bool flipped, int x, int y);

/* The label of board column col ('a'-'h') and row row ('1'-'8'). */
char board_view_file_label(bool flipped, int col);
char board_view_rank_label(bool flipped, int row);

/* The text of a piece: a UTF-8 chess glyph, or one ASCII letter (upper
 * case White, lower case Black) when ascii. solid draws both colours with
 * the filled glyphs (colour tells them apart). "" for NO_PIECE. */
const char *board_view_glyph(enum piece p, bool ascii, bool solid);

/* True when g's squares are large enough for the pieces' art. */
bool board_view_has_art(const struct board_geometry *g);
/* Row row (0 to BOARD_VIEW_ART_H - 1, top first) of a piece's art:
 * BOARD_VIEW_ART_W columns of UTF-8 block elements, solid, to be coloured
 * by side; or, when ascii (the terminal lacks the glyphs, or has no
 * colour to tell the sides apart), of ASCII with the piece's letter,
 * upper case White, lower case Black. "" for NO_PIECE. */
const char *board_view_art(enum piece p, bool ascii, int row);

/* Moves a keyboard cursor one step in screen direction (dx right, dy
 * down), so the arrows follow the picture whichever way the board is
 * turned. Stays put at the edge. */
int board_view_cursor_step(bool flipped, int sq, int dx, int dy);

#endif
