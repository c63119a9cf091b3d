/*
 * Material on the board: what each side has more of than the other, as
 * shown beside the players' names (pieces by type, and the difference in
 * the usual 1-3-3-5-9 points).
 */
#ifndef TCHESS_CLIENT_MATERIAL_H
#define TCHESS_CLIENT_MATERIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "tchess/position.h"

struct material {
	/* extra[c][pt]: how many more pieces of type pt colour c has than
	 * the other side (never negative; the king is always 0). */
	int extra[2][PIECE_TYPE_NB];
	int points;    /* White's points minus Black's */
};

/* Fills m from the pieces of p. */
void material_count(const struct position *p, struct material *m);

/* Writes what colour c is ahead in, as chess sites show it: the pieces c
 * has taken more of, strongest first, drawn as the opponent's pieces
 * (glyphs, or letters when ascii: "♟♟ +2", "pp +2" for White two pawns
 * up; "♞" when c has a knight more but is not ahead in points), then the
 * points c is ahead by. At most max_cols columns: the pieces go first
 * when they do not fit, then everything. "" when c is not ahead. buf
 * holds size bytes. Returns the columns written (every glyph is one). */
int material_text(const struct material *m, enum color c, bool ascii, int max_cols, char *buf, size_t size);

#endif
