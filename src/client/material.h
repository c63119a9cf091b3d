/*
 * Material on the board: what each side has more of than the other, as
 * shown beside the players' names (pieces by type, and the difference in
 * the usual 1-3-3-5-9 points).
 */
#ifndef TCHESS_CLIENT_MATERIAL_H
#define TCHESS_CLIENT_MATERIAL_H

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

/* Writes what colour c is ahead in, strongest piece first, as letters
 * ("QP+7", "P+1") or "" when c is not ahead, into buf of size bytes.
 * Returns the length. */
size_t material_text(const struct material *m, enum color c, char *buf, size_t size);

#endif
