/*
 * Material count: piece differences by type and in points, and the short
 * text the player panes show.
 */
#include <stdio.h>
#include <string.h>

#include "board-view.h"
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

int material_text(const struct material *m, enum color c, bool ascii, int max_cols, char *buf, size_t size)
{
	char pieces[PIECE_TYPE_NB * 16 * 4 + 1] = "", points[16] = "";
	int n_pieces = 0;
	size_t len = 0;
	if (size == 0)
		return 0;
	buf[0] = '\0';
	/* What c is ahead in is what it has taken more of: drawn as the
	 * opponent's pieces, as chess sites draw captured material. */
	for (int pt = QUEEN; pt >= PAWN; pt--) {
		const char *g = board_view_glyph(make_piece((enum color)!c, (enum piece_type)pt), ascii, false);
		for (int k = 0; k < m->extra[c][pt] && len + strlen(g) < sizeof pieces; k++) {
			memcpy(pieces + len, g, strlen(g) + 1);
			len += strlen(g);
			n_pieces++;
		}
	}
	int ahead = c == WHITE ? m->points : -m->points;
	if (ahead > 0)
		snprintf(points, sizeof points, "+%d", ahead);
	int n_points = (int)strlen(points);
	/* Too narrow for the pieces: the points alone say the most. */
	if (n_pieces + (n_pieces && n_points ? 1 : 0) + n_points > max_cols)
		n_pieces = 0;
	if (n_points > max_cols)
		return 0;
	snprintf(buf, size, "%s%s%s", n_pieces ? pieces : "", n_pieces && n_points ? " " : "", points);
	return (n_pieces ? n_pieces + (n_points ? 1 : 0) : 0) + n_points;
}
