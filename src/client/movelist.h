/*
 * Layout of a move list in SAN with move numbers, one full move per row:
 *
 *	  1. e4      e5
 *	  2. Nf3     Nc6
 *
 * A game that starts with Black to move begins "1. ..." (or its own move
 * number from the FEN). Plies are numbered from 0, the first move of the
 * game. No curses: the pane draws what this computes.
 */
#ifndef TCHESS_CLIENT_MOVELIST_H
#define TCHESS_CLIENT_MOVELIST_H

#include <stddef.h>

#include "tchess/bitboard.h"
#include "tchess/notation.h"

struct movelist {
	size_t n_plies;
	int first_number;     /* move number of row 0 */
	int offset;           /* 1 when the first ply is Black's */
	int rows;
	int num_w;            /* width of the "12." column */
	int san_w;            /* width of one SAN column */
	int x_white, x_black; /* where the two SAN columns start */
};

/* Lays out n_plies plies starting at move number first_number with side
 * to move first, in a pane width cells wide. */
void movelist_init(struct movelist *ml, size_t n_plies, int first_number, enum color first, int width);

/* The row of ply i. */
int movelist_row_of(const struct movelist *ml, size_t ply);
/* The SAN column of ply i: 0 White's, 1 Black's. */
int movelist_col_of(const struct movelist *ml, size_t ply);
/* The ply shown in row row, column col, or -1 for none (the "..." of a
 * game starting with Black, or past the end). */
long movelist_ply_at(const struct movelist *ml, int row, int col);

/* The number column of row row ("  1.") into buf (16 bytes). */
void movelist_number(const struct movelist *ml, int row, char buf[16]);

/* The first row to show so that row target is visible in a pane of height
 * rows, moving as little as possible from the current top. */
int movelist_scroll(int top, int height, int target, int total);

#endif
