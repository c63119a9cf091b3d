/*
 * A chess position: piece placement as bitboards and a mailbox, side to move,
 * castling rights (by rook origin square, so Chess960 fits), the en-passant
 * square, move counters and an incrementally kept Zobrist key.
 *
 * The en-passant square is kept only when an en-passant capture is legally
 * available. Two positions are the same position for repetition exactly when
 * their keys are equal (barring hash collisions, which callers that need
 * certainty settle with position_same()).
 *
 * A struct position is plain data: copy it with '='. It allocates nothing.
 */
#ifndef TCHESS_POSITION_H
#define TCHESS_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "tchess/bitboard.h"
#include "tchess/move.h"

/* A coloured piece: colour in bit 3, type + 1 in bits 0-2; 0 is no piece. */
enum piece {
	NO_PIECE = 0,
	W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
	B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
	PIECE_NB = 16
};

static inline enum piece make_piece(enum color c, enum piece_type pt) { return (enum piece)((c << 3) | (pt + 1)); }
static inline enum piece_type piece_type(enum piece p) { return (enum piece_type)((p & 7) - 1); }
static inline enum color piece_color(enum piece p) { return (enum color)(p >> 3); }

/* Castling rights; the index of a right (0..3) selects its rook square. */
enum castling_right {
	CASTLE_WHITE_KING = 1,
	CASTLE_WHITE_QUEEN = 2,
	CASTLE_BLACK_KING = 4,
	CASTLE_BLACK_QUEEN = 8,
	CASTLE_ALL = 15
};

struct position {
	bitboard by_type[PIECE_TYPE_NB];
	bitboard by_color[2];
	bitboard checkers;         /* pieces giving check to the side to move */
	uint64_t key;              /* Zobrist key of everything below that repetition counts */
	uint8_t board[64];         /* enum piece per square */
	uint8_t side;              /* enum color to move */
	uint8_t castling;          /* enum castling_right bits */
	uint8_t castle_rook[4];    /* rook origin per right index, SQ_NONE without the right */
	uint8_t ep;                /* en-passant target square if a legal e.p. capture exists, else SQ_NONE */
	bool chess960;             /* write castling as king-takes-rook in UCI, Shredder letters in FEN */
	uint16_t halfmove;         /* plies since the last capture or pawn move */
	uint16_t fullmove;         /* starts at 1, grows after Black's move */
};

/* What position_make() changes that position_unmake() cannot recompute. */
struct undo {
	uint64_t key;
	bitboard checkers;
	uint16_t halfmove;
	uint8_t castling;
	uint8_t ep;
	uint8_t captured;
};

/* Sets p to the standard starting position. */
void position_init_start(struct position *p);

/* Plays a legal move m (as produced by the move generator) on p, filling u.
 * Behaviour is undefined for a move that is not legal in p. */
void position_make(struct position *p, move m, struct undo *u);
/* Takes back m, which must be the last move made on p with undo record u. */
void position_unmake(struct position *p, move m, const struct undo *u);

static inline enum piece position_piece_on(const struct position *p, int sq) { return (enum piece)p->board[sq]; }
static inline bitboard position_occupied(const struct position *p) { return p->by_color[WHITE] | p->by_color[BLACK]; }
static inline bitboard position_pieces(const struct position *p, enum color c, enum piece_type pt)
{
	return p->by_color[c] & p->by_type[pt];
}
static inline int position_count(const struct position *p, enum color c, enum piece_type pt)
{
	return bb_count(position_pieces(p, c, pt));
}
static inline int position_king(const struct position *p, enum color c)
{
	return bb_lsb(position_pieces(p, c, KING));
}
static inline bool position_in_check(const struct position *p) { return p->checkers != 0; }

/* All pieces of either colour that attack sq, given occupancy occ. */
bitboard position_attackers_to(const struct position *p, int sq, bitboard occ);

/* True if m captures something (en passant included; castling never does). */
static inline bool position_is_capture(const struct position *p, move m)
{
	return move_kind(m) == MOVE_EN_PASSANT ||
	       (move_kind(m) != MOVE_CASTLING && p->board[move_to(m)] != NO_PIECE);
}

/* True if the move m, legal in p, gives check. */
bool position_gives_check(const struct position *p, move m);

/* Recomputes the Zobrist key from scratch (for validation and tests). */
uint64_t position_compute_key(const struct position *p);

/* True if a and b are the same position for repetition: placement, side to
 * move, castling rights and legally available en-passant capture. */
bool position_same(const struct position *a, const struct position *b);

/* Recomputes checkers and the legal en-passant square after the fields of p
 * were set by hand (the FEN reader uses it). ep_candidate is the square a
 * FEN names, or SQ_NONE. */
void position_refresh(struct position *p, int ep_candidate);

/* The square the king lands on when castling with the rook on rook_sq. */
int position_castle_king_to(int king_sq, int rook_sq);
/* The square the rook lands on when castling with the rook on rook_sq. */
int position_castle_rook_to(int king_sq, int rook_sq);

#endif
