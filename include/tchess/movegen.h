/*
 * Legal move generation. Pins and check evasions are handled while
 * generating, so every move the generator emits is legal; nothing is filtered
 * afterwards and nothing is allocated: the caller owns the move list.
 */
#ifndef TCHESS_MOVEGEN_H
#define TCHESS_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "tchess/move.h"
#include "tchess/position.h"

/* Fills list with every legal move in p; returns list->count. */
int movegen_legal(const struct position *p, struct move_list *list);

/* True if m is a legal move in p. Accepts any 16-bit value. */
bool movegen_is_legal(const struct position *p, move m);

/* True if the side to move has at least one legal move. */
bool movegen_has_legal(const struct position *p);

/* True if the side to move is checkmated / stalemated. */
bool movegen_is_checkmate(const struct position *p);
bool movegen_is_stalemate(const struct position *p);

/* Counts the leaf nodes of the legal move tree of the given depth (perft).
 * p is restored before returning. Depth 0 counts 1. */
uint64_t movegen_perft(struct position *p, int depth);

#endif
