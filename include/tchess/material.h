/*
 * Mating material and dead positions: can a side still checkmate by any
 * series of legal moves, with the opponent's help if need be?
 *
 * The rules (FIDE 5.2.2 / 6.9, the seeds' "dead position" and "timeout vs
 * insufficient material") ask about help-mates: the loser may cooperate. A
 * lone knight mates when the other side has a piece of its own to block a
 * flight square (pawn, knight, bishop or rook; a queen never can, it always
 * sees the knight's checking square), a set of same-coloured bishops mates
 * only when the other side has a pawn, a knight or a bishop of the other
 * colour.
 *
 * Beyond material, a bounded and sound analysis proves locked pawn walls
 * dead (every pawn blocked by a pawn, pieces that can never reach anything
 * to capture nor any square the enemy king can reach) and follows forced
 * lines of at most a few legal moves (a capture that leaves K v K, a forced
 * stalemate). Whatever it cannot prove is MATERIAL_UNKNOWN or
 * MATERIAL_MATE_POSSIBLE, never MATERIAL_DEAD.
 *
 * Everything here is pure and allocates nothing.
 */
#ifndef TCHESS_MATERIAL_H
#define TCHESS_MATERIAL_H

#include <stdbool.h>

#include "tchess/position.h"

enum material_verdict {
	/* Mating is possible: a mate was found by the bounded search, or the
	 * material suffices and the pawns are not locked. Not a constructed
	 * proof except in the first case. */
	MATERIAL_MATE_POSSIBLE = 0,
	/* Proven: no series of legal moves ends in checkmate. */
	MATERIAL_DEAD,
	/* The pawns are locked but the analysis could not prove the position
	 * dead (nor find a mate). Treat as alive. */
	MATERIAL_UNKNOWN
};

/* True if colour c lacks mating material by the material rules alone
 * (see above), whatever the placement: K, K+N against a lone king or
 * queens, K + same-coloured bishops against no pawn, knight or bishop of
 * the other colour. */
bool material_insufficient(const struct position *p, enum color c);

/* True if neither side has mating material by the material rules alone:
 * K v K, K+B v K, K+N v K, K + any bishops v K + any bishops all on one
 * colour, and so on. The "insufficient material" termination. */
bool material_insufficient_both(const struct position *p);

/* Whether colour c can still checkmate the other side's king by any series
 * of legal moves. MATERIAL_DEAD means proven impossible. A position that
 * is already checkmate counts as possible for the side that mated. */
enum material_verdict material_side_verdict(const struct position *p, enum color c);

/* Whether the position is dead: neither side can checkmate by any series
 * of legal moves. A stalemate on the board is judged by its material (the
 * game is over anyway); a stalemate that is forced later counts as dead. */
enum material_verdict material_is_dead(const struct position *p);

/* False only when it is proven that colour c cannot checkmate: the test for
 * "timeout vs insufficient material" (the flagging side's opponent). */
bool material_can_mate(const struct position *p, enum color c);

const char *material_verdict_str(enum material_verdict v);

#endif
