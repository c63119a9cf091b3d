/*
 * The review's move list as rows of cells (review-moves.h): the main
 * line in two columns, side lines run together under the move they
 * replace. The recursion is as deep as the side lines nest, which the PGN
 * reader bounds (PGN_RAV_DEPTH_MAX).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-moves.h"
#include "review.h"
#include "text-wrap.h"
#include "util/xalloc.h"

struct moves_build {
	struct review_moves *m;
	const struct review_moves_own *own;
	bool in_own;           /* laying out the player's line */
	int width;
	bool ascii;
	int first_number;      /* the start position's move number */
	int first_black;       /* 1 when Black moves first */
	int num_w;             /* the main line's number column */
	int x_white, x_black;
};

static void moves_new_row(struct moves_build *b, int depth)
{
	struct review_moves *m = b->m;
	if ((size_t)m->n_rows == m->cap_rows) {
		m->cap_rows = m->cap_rows ? m->cap_rows * 2 : 32;
		m->rows = xrealloc(m->rows, m->cap_rows * sizeof *m->rows);
	}
	struct review_row *r = &m->rows[m->n_rows++];
	memset(r, 0, sizeof *r);
	r->depth = depth;
	r->own = b->in_own;
	r->first = m->n_cells;
}

static void moves_add_cell(struct moves_build *b, const struct review_move *mv, int x, const char *text)
{
	struct review_moves *m = b->m;
	if (m->n_cells == m->cap_cells) {
		m->cap_cells = m->cap_cells ? m->cap_cells * 2 : 64;
		m->cells = xrealloc(m->cells, m->cap_cells * sizeof *m->cells);
	}
	struct review_cell *c = &m->cells[m->n_cells++];
	c->mv = mv;
	c->x = x;
	snprintf(c->text, sizeof c->text, "%s", text);
	c->width = text_wrap_cols(c->text);
	m->rows[m->n_rows - 1].n++;
}

/* The move number of ply (from 0, counted from the start) and whether it
 * is Black's. */
static int moves_number(const struct moves_build *b, size_t ply, bool *black)
{
	size_t k = ply + (size_t)b->first_black;
	*black = k % 2;
	return b->first_number + (int)(k / 2);
}

/* The text of mv as it shows in the list: SAN, move marks, '*' for a
 * comment or a NAG the comment pane shows. */
static void moves_cell_text(const struct moves_build *b, const struct review_move *mv, char *buf, size_t size)
{
	char san[REVIEW_SAN_TEXT_MAX];
	bool note = mv->comment != NULL;
	for (int k = 0; k < mv->n_nags; k++)
		note |= !review_nag_is_mark(mv->nags[k]);
	review_san_text(mv, b->ascii, san, sizeof san);
	snprintf(buf, size, "%s%s", san, note ? "*" : "");
}

static void moves_side_line(struct moves_build *b, const struct review_move *moves, size_t n, size_t ply0,
			    int depth);

/* The side lines of mv (ply ply) at depth, and the player's line when it
 * replaces mv. */
static void moves_variations(struct moves_build *b, const struct review_move *mv, size_t ply, int depth)
{
	for (size_t k = 0; k < mv->n_variations; k++) {
		const struct review_line *l = &mv->variations[k];
		moves_side_line(b, l->moves, l->n_moves, ply, depth);
	}
	if (b->own && b->own->owner == mv && b->own->line->n_moves) {
		b->in_own = true;
		moves_side_line(b, b->own->line->moves, b->own->line->n_moves, b->own->ply, depth);
		b->in_own = false;
	}
}

/* A side line (moves[0..n), its first at ply ply0) at depth, then its
 * own side lines under the moves they replace. */
static void moves_side_line(struct moves_build *b, const struct review_move *moves, size_t n, size_t ply0,
			    int depth)
{
	int indent = 2 * depth;
	if (indent > b->width / 2)
		indent = b->width / 2;
	bool open = false, numbered = true;
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		bool black;
		int number = moves_number(b, ply0 + i, &black);
		char text[REVIEW_SAN_TEXT_MAX + 2], cell[REVIEW_CELL_MAX];
		moves_cell_text(b, &moves[i], text, sizeof text);
		if (!black || numbered)
			snprintf(cell, sizeof cell, "%d%s%s", number, black ? "..." : ".", text);
		else
			snprintf(cell, sizeof cell, "%s", text);
		numbered = false;
		int w = text_wrap_cols(cell);
		if (!open || (x + w > b->width && x > indent + 1)) {
			moves_new_row(b, depth);
			open = true;
			x = indent + 1;
		}
		moves_add_cell(b, &moves[i], x, cell);
		x += w + 1;
		if (moves[i].n_variations || (b->own && b->own->owner == &moves[i])) {
			moves_variations(b, &moves[i], ply0 + i, depth + 1);
			open = false;
			numbered = true;
		}
	}
}

void review_moves_build(struct review_moves *m, const struct review_game *g, const struct review_moves_own *own,
			int width, bool ascii)
{
	struct moves_build b = { .m = m, .own = own, .width = width, .ascii = ascii };
	m->n_rows = 0;
	m->n_cells = 0;
	b.first_number = g->start.fullmove > 0 ? g->start.fullmove : 1;
	b.first_black = g->start.side == BLACK;
	bool black;
	int last = g->n_moves ? moves_number(&b, g->n_moves - 1, &black) : b.first_number;
	int digits = 1;
	for (int v = last; v >= 10; v /= 10)
		digits++;
	b.num_w = digits < 3 ? 4 : digits + 1;
	int room = width - b.num_w - 1;
	int san_w = room / 2 > 10 ? 10 : room / 2;
	if (san_w < 1)
		san_w = 1;
	b.x_white = b.num_w + 1;
	b.x_black = b.x_white + san_w;

	bool open = false;
	for (size_t i = 0; i < g->n_moves; i++) {
		const struct review_move *mv = &g->moves[i];
		int number = moves_number(&b, i, &black);
		char text[REVIEW_SAN_TEXT_MAX + 2];
		if (!open) {
			moves_new_row(&b, 0);
			snprintf(m->rows[m->n_rows - 1].num, sizeof m->rows[0].num, "%*d.", b.num_w - 1, number);
			open = true;
			if (black)
				moves_add_cell(&b, NULL, b.x_white, "...");
		}
		moves_cell_text(&b, mv, text, sizeof text);
		moves_add_cell(&b, mv, black ? b.x_black : b.x_white, text);
		if (black)
			open = false;
		if (mv->n_variations || (own && own->owner == mv)) {
			moves_variations(&b, mv, i, 1);
			open = false;
		}
	}
	/* The player's line past the end of the line it continues. */
	if (own && !own->owner && own->line->n_moves) {
		b.in_own = true;
		moves_side_line(&b, own->line->moves, own->line->n_moves, own->ply, 1);
	}
}

void review_moves_fini(struct review_moves *m)
{
	free(m->rows);
	free(m->cells);
	memset(m, 0, sizeof *m);
}

int review_moves_row_of(const struct review_moves *m, const struct review_move *mv)
{
	if (!mv)
		return -1;
	for (int r = 0; r < m->n_rows; r++)
		for (size_t k = 0; k < m->rows[r].n; k++)
			if (m->cells[m->rows[r].first + k].mv == mv)
				return r;
	return -1;
}
