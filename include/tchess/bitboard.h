/*
 * Bitboards and attack tables: the squares, files and ranks of the board as
 * 64-bit sets, and the attack sets of every piece type.
 *
 * Square numbering is little-endian rank-file: a1 = 0, b1 = 1, ... h8 = 63.
 * Slider attacks use magic bitboards; the tables are filled once at start-up
 * (attacks_init(), run automatically before main()) and are read-only after
 * that, so every function here is safe to call from any thread.
 */
#ifndef TCHESS_BITBOARD_H
#define TCHESS_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t bitboard;

enum color { WHITE = 0, BLACK = 1 };

enum piece_type { PAWN = 0, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

enum {
	SQ_A1 = 0, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
	SQ_A8 = 56, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
	SQ_NONE = 64
};

#define FILE_A_BB 0x0101010101010101ULL
#define RANK_1_BB 0x00000000000000FFULL
#define LIGHT_SQUARES_BB 0x55AA55AA55AA55AAULL
#define DARK_SQUARES_BB 0xAA55AA55AA55AA55ULL

static inline int sq_file(int sq) { return sq & 7; }
static inline int sq_rank(int sq) { return sq >> 3; }
static inline int make_sq(int file, int rank) { return rank * 8 + file; }
static inline bitboard sq_bb(int sq) { return 1ULL << sq; }
static inline bitboard file_bb(int file) { return FILE_A_BB << file; }
static inline bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

static inline int bb_count(bitboard b) { return __builtin_popcountll(b); }
/* Lowest set square of a non-empty set. */
static inline int bb_lsb(bitboard b) { return __builtin_ctzll(b); }
/* Removes and returns the lowest set square of a non-empty set. */
static inline int bb_pop(bitboard *b)
{
	int sq = __builtin_ctzll(*b);
	*b &= *b - 1;
	return sq;
}
static inline bool bb_many(bitboard b) { return (b & (b - 1)) != 0; }

/* Relative rank: rank counted from the given colour's side (0..7). */
static inline int relative_rank(enum color c, int sq) { return c == WHITE ? sq_rank(sq) : 7 - sq_rank(sq); }

/* Tables; read through the inline functions below. */
struct magic {
	bitboard mask;
	bitboard magic;
	const bitboard *attacks;
	unsigned shift;
};

extern struct magic attacks_rook_magics[64];
extern struct magic attacks_bishop_magics[64];
extern bitboard attacks_pawn_table[2][64];
extern bitboard attacks_knight_table[64];
extern bitboard attacks_king_table[64];
extern bitboard attacks_between_table[64][64];
extern bitboard attacks_line_table[64][64];

/* Fills the tables. Idempotent and thread-safe; called before main() by a
 * constructor, so callers need not call it. */
void attacks_init(void);

static inline bitboard attacks_magic(const struct magic *m, bitboard occ)
{
	return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

static inline bitboard attacks_pawn(enum color c, int sq) { return attacks_pawn_table[c][sq]; }
static inline bitboard attacks_knight(int sq) { return attacks_knight_table[sq]; }
static inline bitboard attacks_king(int sq) { return attacks_king_table[sq]; }
static inline bitboard attacks_bishop(int sq, bitboard occ) { return attacks_magic(&attacks_bishop_magics[sq], occ); }
static inline bitboard attacks_rook(int sq, bitboard occ) { return attacks_magic(&attacks_rook_magics[sq], occ); }
static inline bitboard attacks_queen(int sq, bitboard occ)
{
	return attacks_bishop(sq, occ) | attacks_rook(sq, occ);
}

/* Attacks of a non-pawn piece type from sq with the given occupancy. */
bitboard attacks_piece(enum piece_type pt, int sq, bitboard occ);

/* Squares strictly between a and b if they share a line, else the empty set. */
static inline bitboard attacks_between(int a, int b) { return attacks_between_table[a][b]; }
/* The whole line (rank, file or diagonal) through a and b, edge to edge, or
 * the empty set if they share none. */
static inline bitboard attacks_line(int a, int b) { return attacks_line_table[a][b]; }

#endif
