/*
 * The evaluation graph and bar as cells (eval-graph.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval-graph.h"

/* Dot columns of a graph width cells wide. */
static int eval_graph_dots(int width, bool ascii)
{
	return ascii ? width : 2 * width;
}

int eval_graph_column(size_t ply, size_t n_values, int width, bool ascii)
{
	if (width <= 0 || n_values == 0)
		return -1;
	int d = (int)((double)ply * eval_graph_dots(width, ascii) / (double)n_values);
	int c = ascii ? d : d / 2;
	return c < width ? c : width - 1;
}

/* A braille cell of dots bits (U+2800 + bits) into out. */
static void eval_graph_braille(unsigned bits, char out[EVAL_CELL])
{
	if (!bits) {
		strcpy(out, " ");
		return;
	}
	out[0] = (char)0xE2;
	out[1] = (char)(0xA0 | (bits >> 6));
	out[2] = (char)(0x80 | (bits & 0x3F));
	out[3] = '\0';
}

void eval_graph_render(struct eval_graph *g, const double *wc, const enum analysis_judgement *judged, size_t n,
		       size_t current, int width, int height, bool ascii)
{
	/* The bits of braille dot (x, y) of a cell: dots 1-2-3-7 down the
	 * left column, 4-5-6-8 down the right. */
	static const unsigned bit[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };
	static const char *const dots[2][4] = {
		{ " ", ".", "o", "@" },
		{ " ", "\u00b7", "\u2022", "\u25cf" },
	};
	unsigned char on[EVAL_GRAPH_H_MAX * 4][EVAL_GRAPH_W_MAX * 2];

	width = width > EVAL_GRAPH_W_MAX ? EVAL_GRAPH_W_MAX : width < 0 ? 0 : width;
	height = height > EVAL_GRAPH_H_MAX ? EVAL_GRAPH_H_MAX : height < 0 ? 0 : height;
	memset(g, 0, sizeof *g);
	memset(on, 0, sizeof on);
	g->width = width;
	g->height = height;
	g->current = -1;
	int cols = eval_graph_dots(width, ascii), rows = ascii ? height : 4 * height, half = rows / 2;

	for (int d = 0; d < cols && n > 0; d++) {
		size_t p = (size_t)((double)d * (double)n / cols);
		/* The last evaluation at or before p stands for it. */
		double v = NAN;
		for (size_t k = p + 1; k > 0 && isnan(v); k--)
			v = wc[k - 1];
		if (isnan(v))
			continue;
		v = v > 1 ? 1 : v < -1 ? -1 : v;
		int level = (int)lround(v * half);
		if (level == 0 && v != 0)
			level = v > 0 ? 1 : -1;
		if (level > 0)
			for (int y = half - level; y < half; y++)
				on[y][d] = 1;
		else
			for (int y = half; y < half - level && y < rows; y++)
				on[y][d] = 1;
	}
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			if (ascii) {
				strcpy(g->cells[y][x], on[y][x] ? "#" : " ");
				continue;
			}
			unsigned bits = 0;
			for (int dx = 0; dx < 2; dx++)
				for (int dy = 0; dy < 4; dy++)
					if (on[4 * y + dy][2 * x + dx])
						bits |= bit[dx][dy];
			eval_graph_braille(bits, g->cells[y][x]);
		}

	int worst[EVAL_GRAPH_W_MAX] = { 0 };
	for (int x = 0; x < width; x++)
		strcpy(g->marks[x], " ");
	for (size_t i = 0; judged && i < n; i++) {
		int c = eval_graph_column(i, n, width, ascii);
		if (c >= 0 && (int)judged[i] > worst[c]) {
			worst[c] = (int)judged[i];
			snprintf(g->marks[c], EVAL_CELL, "%s", dots[!ascii][judged[i]]);
		}
	}
	if (current < n) {
		g->current = eval_graph_column(current, n, width, ascii);
		if (g->current >= 0 && !worst[g->current])
			strcpy(g->marks[g->current], "^");
	}
}

void eval_bar_render(double wc, int rows, bool white_top, bool ascii, char (*out)[EVAL_CELL])
{
	static const char *const eighths[9] = {
		"\u2591", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	if (isnan(wc))
		wc = 0;
	double share = (wc > 1 ? 1 : wc < -1 ? -1 : wc) / 2 + 0.5;
	/* Parts of a cell: eighths from the bottom, halves from the top (the
	 * upper blocks have no eighths), whole cells in ASCII. */
	int parts = ascii ? 1 : white_top ? 2 : 8;
	long units = lround(share * rows * parts);
	for (int k = 0; k < rows; k++) {
		/* k counts from White's end of the bar. */
		long filled = units - (long)k * parts;
		filled = filled < 0 ? 0 : filled > parts ? parts : filled;
		int row = white_top ? k : rows - 1 - k;
		if (ascii)
			strcpy(out[row], filled ? "#" : ".");
		else if (white_top)
			strcpy(out[row], filled == 2 ? "\u2588" : filled == 1 ? "\u2580" : "\u2591");
		else
			strcpy(out[row], eighths[filled]);
	}
}
