/*
 * The evaluation views of the review, drawn into cells without curses:
 * the graph of White's winning chances across a game (braille dots, two
 * columns and four rows of them per cell; '#' in ASCII, one per cell),
 * White's advantage above the middle line and Black's below, with a row
 * of markers under it (the judged moves' dots, the current ply's '^');
 * and the vertical evaluation bar beside the board, White's share from
 * White's side of the board.
 */
#ifndef TCHESS_CLIENT_EVAL_GRAPH_H
#define TCHESS_CLIENT_EVAL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

#define EVAL_GRAPH_W_MAX 160
#define EVAL_GRAPH_H_MAX 16
#define EVAL_CELL 4       /* one UTF-8 character and its NUL */

struct eval_graph {
	int width, height;                     /* of the graph, without the marker row */
	char cells[EVAL_GRAPH_H_MAX][EVAL_GRAPH_W_MAX][EVAL_CELL];
	char marks[EVAL_GRAPH_W_MAX][EVAL_CELL];   /* the marker row */
	int current;                           /* the current ply's column, or -1 */
};

/* The cell column of ply (0..n_values - 1) in a graph width cells wide
 * (two plies a cell in braille when there is room, fewer when not). */
int eval_graph_column(size_t ply, size_t n_values, int width, bool ascii);

/*
 * Renders the winning chances wc[0..n) (position 0 the start, then after
 * each ply; NAN where a position has no evaluation: the one before it
 * carries on, nothing before the first) into g, width x height cells (at
 * most the _MAX), the marker row holding judged[i]'s dot (ASCII '.', 'o',
 * '@'; else a middle dot, a bullet, a black circle for inaccuracy,
 * mistake, blunder; judged may be NULL) at ply i's column, and '^' at the
 * current ply's (current >= n: none).
 */
void eval_graph_render(struct eval_graph *g, const double *wc, const enum analysis_judgement *judged, size_t n,
		       size_t current, int width, int height, bool ascii);

/* The bar's rows (top first) for White's winning chances wc, rows tall,
 * White's share growing from the bottom (from the top when white_top):
 * full cells, a partial cell in eighths (halves from the top), and Black's
 * share as a light shade; ASCII '#' and '.'. out holds rows strings of
 * EVAL_CELL bytes. */
void eval_bar_render(double wc, int rows, bool white_top, bool ascii, char (*out)[EVAL_CELL]);

#endif
