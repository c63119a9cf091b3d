/*
 * Move list layout: rows, columns, numbers and scrolling.
 */
#include <stdio.h>

#include "movelist.h"

void movelist_init(struct movelist *ml, size_t n_plies, int first_number, enum color first, int width)
{
	ml->n_plies = n_plies;
	ml->first_number = first_number > 0 ? first_number : 1;
	ml->offset = first == BLACK;
	ml->rows = (int)((n_plies + (size_t)ml->offset + 1) / 2);
	int last = ml->first_number + (ml->rows ? ml->rows - 1 : 0);
	int digits = 1;
	for (int v = last; v >= 10; v /= 10)
		digits++;
	ml->num_w = digits < 3 ? 4 : digits + 1;
	/* SAN is at most 7 characters in practice (Qa1xb2+ / exd8=Q#). */
	int room = width - ml->num_w - 1;
	ml->san_w = room / 2 > 9 ? 9 : room / 2;
	if (ml->san_w < 1)
		ml->san_w = 1;
	ml->x_white = ml->num_w + 1;
	ml->x_black = ml->x_white + ml->san_w;
}

int movelist_row_of(const struct movelist *ml, size_t ply)
{
	return (int)((ply + (size_t)ml->offset) / 2);
}

int movelist_col_of(const struct movelist *ml, size_t ply)
{
	return (int)((ply + (size_t)ml->offset) % 2);
}

long movelist_ply_at(const struct movelist *ml, int row, int col)
{
	long ply = (long)row * 2 + col - ml->offset;
	if (row < 0 || col < 0 || col > 1 || ply < 0 || (size_t)ply >= ml->n_plies)
		return -1;
	return ply;
}

void movelist_number(const struct movelist *ml, int row, char buf[16])
{
	snprintf(buf, 16, "%*d.", ml->num_w - 1, ml->first_number + row);
}

int movelist_scroll(int top, int height, int target, int total)
{
	if (height <= 0)
		return 0;
	if (target < top)
		top = target;
	else if (target >= top + height)
		top = target - height + 1;
	if (top > total - height)
		top = total - height;
	if (top < 0)
		top = 0;
	return top;
}
