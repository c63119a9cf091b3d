/*
 * Opening names: the ECO classification of a position, from the table
 * that scripts/gen-eco compiles out of pgn-extract's eco.pgn (2,014 lines,
 * A00 to E99). A position is found by its key (struct position's Zobrist
 * key: placement, side to move, castling rights, en-passant square; not
 * the move counters), so a transposition finds the same opening.
 *
 * The table is built once, on the first lookup (pthread_once), by playing
 * each line from the start; nothing else is kept or changed.
 */
#ifndef TCHESS_ECO_H
#define TCHESS_ECO_H

#include <stddef.h>

#include "tchess/position.h"

struct eco_entry {
	const char *code;     /* "B90" */
	const char *name;     /* "Sicilian: Najdorf" (opening, then ": " and the variation if any) */
	const char *moves;    /* from the start, SAN separated by spaces */
};

/* The entry whose line ends in position p, or NULL. When several lines
 * reach it, the first in the table (the file's order). */
const struct eco_entry *eco_lookup(const struct position *p);

/* The number of entries in the table, and entry i of it (NULL past the end). */
size_t eco_count(void);
const struct eco_entry *eco_entry_at(size_t i);

#endif
