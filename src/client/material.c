/*
 * Material count: piece differences by type and in points, and the short
 * text the player panes show.
 */
#include <stdio.h>

#include "material.h"

static const int material_value[PIECE_TYPE_NB] = { 1, 3, 3, 5, 9, 0 };

void material_count(const struct position *p, struct material *m)
{
	m->points = 0;
	for (int pt = PAWN; pt < PIECE_TYPE_NB; pt++) {
		int d = position_count(p, WHITE, pt) - position_count(p, BLACK, pt);
		m->extra[WHITE][pt] = d > 0 ? d : 0;
		m->extra[BLACK][pt] = d < 0 ? -d : 0;
		m->points += d * material_value[pt];
	}
}

size_t material_text(const struct material *m, enum color c, char *buf, size_t size)
{
	static const char letter[PIECE_TYPE_NB] = { 'P', 'N', 'B', 'R', 'Q', 'K' };
	size_t len = 0;
	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (int pt = QUEEN; pt >= PAWN; pt--)
		for (int k = 0; k < m->extra[c][pt] && len + 1 < size; k++) {
			buf[len++] = letter[pt];
			buf[len] = '\0';
		}
	int ahead = c == WHITE ? m->points : -m->points;
	if (ahead > 0 && len < size) {
		int n = snprintf(buf + len, size - len, "+%d", ahead);
		if (n > 0)
			len += (size_t)n < size - len ? (size_t)n : size - len - 1;
	}
	return len;
}
