/*
 * Attack tables: pawn, knight and king steps, between/line sets, and magic
 * bitboards for sliders. The magic multipliers are found at start-up by a
 * search driven by a fixed-seed generator, so the result is the same on every
 * run and no table is shipped in the source. The search takes a few
 * milliseconds; it runs once, guarded by pthread_once.
 */
#include <pthread.h>
#include <stddef.h>

#include "tchess/bitboard.h"

struct magic attacks_rook_magics[64];
struct magic attacks_bishop_magics[64];
bitboard attacks_pawn_table[2][64];
bitboard attacks_knight_table[64];
bitboard attacks_king_table[64];
bitboard attacks_between_table[64][64];
bitboard attacks_line_table[64][64];

/* Fancy magics: each square's slice is 2^(popcount(mask)) entries. */
static bitboard rook_table[102400];
static bitboard bishop_table[5248];

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* Slider attacks by walking rays; used only to build the tables. */
static bitboard ray_attacks(const int dirs[4][2], int sq, bitboard occ)
{
	bitboard att = 0;
	for (int d = 0; d < 4; d++) {
		int f = sq_file(sq) + dirs[d][0], r = sq_rank(sq) + dirs[d][1];
		while (on_board(f, r)) {
			att |= sq_bb(make_sq(f, r));
			if (occ & sq_bb(make_sq(f, r)))
				break;
			f += dirs[d][0];
			r += dirs[d][1];
		}
	}
	return att;
}

static bitboard step_attacks(const int steps[][2], int n, int sq)
{
	bitboard att = 0;
	for (int i = 0; i < n; i++) {
		int f = sq_file(sq) + steps[i][0], r = sq_rank(sq) + steps[i][1];
		if (on_board(f, r))
			att |= sq_bb(make_sq(f, r));
	}
	return att;
}

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void init_magics(struct magic magics[64], bitboard *table, const int dirs[4][2])
{
	static bitboard occupancy[4096], reference[4096];
	static int epoch[4096];
	int cur_epoch = 0;
	size_t offset = 0;

	for (int sq = 0; sq < 64; sq++) {
		struct magic *m = &magics[sq];
		bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(sq_rank(sq))) |
				 ((file_bb(0) | file_bb(7)) & ~file_bb(sq_file(sq)));
		m->mask = ray_attacks(dirs, sq, 0) & ~edges;
		m->shift = 64 - (unsigned)bb_count(m->mask);
		m->attacks = table + offset;

		/* Carry-rippler: enumerate every subset of the mask. */
		int size = 0;
		bitboard b = 0;
		do {
			occupancy[size] = b;
			reference[size] = ray_attacks(dirs, sq, b);
			size++;
			b = (b - m->mask) & m->mask;
		} while (b);

		uint64_t seed = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(sq + 1) * 0xD1B54A32D192ED03ULL);
		bitboard *slice = table + offset;
		for (;;) {
			do
				m->magic = rng_next(&seed) & rng_next(&seed) & rng_next(&seed);
			while (bb_count((m->mask * m->magic) >> 56) < 6);

			cur_epoch++;
			int i;
			for (i = 0; i < size; i++) {
				size_t idx = (size_t)(((occupancy[i] & m->mask) * m->magic) >> m->shift);
				if (epoch[idx] < cur_epoch) {
					epoch[idx] = cur_epoch;
					slice[idx] = reference[i];
				} else if (slice[idx] != reference[i]) {
					break;
				}
			}
			if (i == size)
				break;
		}
		offset += (size_t)size;
	}
}

static void init_tables(void)
{
	static const int knight_steps[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
						{ -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
	static const int king_steps[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
					      { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
	static const int white_pawn[2][2] = { { -1, 1 }, { 1, 1 } };
	static const int black_pawn[2][2] = { { -1, -1 }, { 1, -1 } };

	for (int sq = 0; sq < 64; sq++) {
		attacks_knight_table[sq] = step_attacks(knight_steps, 8, sq);
		attacks_king_table[sq] = step_attacks(king_steps, 8, sq);
		attacks_pawn_table[WHITE][sq] = step_attacks(white_pawn, 2, sq);
		attacks_pawn_table[BLACK][sq] = step_attacks(black_pawn, 2, sq);
	}

	init_magics(attacks_rook_magics, rook_table, rook_dirs);
	init_magics(attacks_bishop_magics, bishop_table, bishop_dirs);

	for (int a = 0; a < 64; a++) {
		for (int b = 0; b < 64; b++) {
			attacks_between_table[a][b] = 0;
			attacks_line_table[a][b] = 0;
			if (a == b)
				continue;
			if (ray_attacks(bishop_dirs, a, 0) & sq_bb(b)) {
				attacks_line_table[a][b] = (ray_attacks(bishop_dirs, a, 0) & ray_attacks(bishop_dirs, b, 0)) |
							   sq_bb(a) | sq_bb(b);
				attacks_between_table[a][b] = ray_attacks(bishop_dirs, a, sq_bb(b)) &
							      ray_attacks(bishop_dirs, b, sq_bb(a));
			} else if (ray_attacks(rook_dirs, a, 0) & sq_bb(b)) {
				attacks_line_table[a][b] = (ray_attacks(rook_dirs, a, 0) & ray_attacks(rook_dirs, b, 0)) |
							   sq_bb(a) | sq_bb(b);
				attacks_between_table[a][b] = ray_attacks(rook_dirs, a, sq_bb(b)) &
							      ray_attacks(rook_dirs, b, sq_bb(a));
			}
		}
	}
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

void attacks_init(void)
{
	pthread_once(&init_once, init_tables);
}

__attribute__((constructor)) static void attacks_init_at_start(void)
{
	attacks_init();
}

bitboard attacks_piece(enum piece_type pt, int sq, bitboard occ)
{
	switch (pt) {
	case KNIGHT:
		return attacks_knight(sq);
	case BISHOP:
		return attacks_bishop(sq, occ);
	case ROOK:
		return attacks_rook(sq, occ);
	case QUEEN:
		return attacks_queen(sq, occ);
	case KING:
		return attacks_king(sq);
	default:
		return 0;
	}
}
