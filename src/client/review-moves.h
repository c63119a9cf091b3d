/*
 * The review's move list as a tree of rows, computed without curses:
 * the main line two moves to a row under move numbers, each side line
 * on rows of its own under the move it replaces, indented by its depth,
 * its moves run together with their numbers and wrapped at the pane's
 * width:
 *
 *	  5. exd5     Nxd5?!*
 *	     5... Na5* 6. Bb5+ c6
 *	  6. Nxf7!?   Kxf7
 *
 * A White move with side lines ends its row, and Black's reply starts the
 * next one as "6. ...". Every cell remembers the move it shows, so the
 * pane finds the current move by pointer wherever it sits in the tree.
 */
#ifndef TCHESS_CLIENT_REVIEW_MOVES_H
#define TCHESS_CLIENT_REVIEW_MOVES_H

#include <stdbool.h>
#include <stddef.h>

#include "tchess/notation.h"

struct review_game;
struct review_move;

/* SAN and move marks ("Qxh7+?!"); a cell adds "12345..." and '*'. */
#define REVIEW_SAN_TEXT_MAX (SAN_MAX + 8)
#define REVIEW_CELL_MAX (REVIEW_SAN_TEXT_MAX + 24)

struct review_cell {
	const struct review_move *mv;
	int x;                         /* its column; x - 1 is free for a '>' */
	int width;                     /* columns of text */
	char text[REVIEW_CELL_MAX];    /* "Nxd5?!*" (main line) or "5...Na5*" */
};

struct review_row {
	int depth;                     /* 0: the main line */
	bool own;                      /* the player's own line (explore) */
	char num[16];                  /* the main line's "  5." or "" */
	size_t first, n;               /* its cells */
};

struct review_moves {
	struct review_row *rows;
	int n_rows;
	struct review_cell *cells;
	size_t n_cells;
	size_t cap_rows, cap_cells;    /* private */
};

/* The player's own line, laid out with the game's: its moves, the move
 * they replace (NULL: they continue the main line past its end) and the
 * ply of its first move. */
struct review_moves_own {
	const struct review_line *line;
	const struct review_move *owner;
	size_t ply;
};

/* Lays out g's moves for a pane width columns wide (ascii: move marks in
 * ASCII), with own (NULL: none) under the move it replaces, after that
 * move's own side lines. Replaces what m held; m starts zeroed. */
void review_moves_build(struct review_moves *m, const struct review_game *g, const struct review_moves_own *own,
			int width, bool ascii);
void review_moves_fini(struct review_moves *m);

/* The row showing mv, or -1. */
int review_moves_row_of(const struct review_moves *m, const struct review_move *mv);

#endif
