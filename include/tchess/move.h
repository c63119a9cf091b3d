/*
 * Moves packed in 16 bits, and the fixed-size move list the generator fills.
 *
 * Layout: bits 0-5 origin, 6-11 destination, 12-13 promotion piece
 * (knight, bishop, rook, queen), 14-15 kind. A castling move is encoded as
 * "king takes own rook": origin is the king's square, destination the
 * castling rook's square. That one encoding serves standard chess and
 * Chess960; notation turns it into e1g1 / O-O as the context requires.
 * MOVE_NONE (0) is never a legal move (a1 to a1).
 */
#ifndef TCHESS_MOVE_H
#define TCHESS_MOVE_H

#include <stdint.h>

#include "tchess/bitboard.h"

typedef uint16_t move;

enum move_kind {
	MOVE_NORMAL = 0,
	MOVE_PROMOTION = 1,
	MOVE_EN_PASSANT = 2,
	MOVE_CASTLING = 3
};

#define MOVE_NONE ((move)0)

/* Every legal position has at most 218 legal moves. */
#define MOVE_LIST_MAX 256

struct move_list {
	int count;
	move moves[MOVE_LIST_MAX];
};

static inline move move_make(int from, int to) { return (move)(from | (to << 6)); }
static inline move move_make_kind(int from, int to, enum move_kind kind)
{
	return (move)(from | (to << 6) | ((unsigned)kind << 14));
}
/* promo is KNIGHT, BISHOP, ROOK or QUEEN. */
static inline move move_make_promotion(int from, int to, enum piece_type promo)
{
	return (move)(from | (to << 6) | ((unsigned)(promo - KNIGHT) << 12) | ((unsigned)MOVE_PROMOTION << 14));
}

static inline int move_from(move m) { return m & 63; }
static inline int move_to(move m) { return (m >> 6) & 63; }
static inline enum move_kind move_kind(move m) { return (enum move_kind)(m >> 14); }
/* The promotion piece type of a MOVE_PROMOTION move. */
static inline enum piece_type move_promotion(move m) { return (enum piece_type)(((m >> 12) & 3) + KNIGHT); }

#endif
