/*
 * Attack tables: pawn, knight and king steps, between/line sets, and magic
 * bitboards for sliders. The magic multipliers below were found by the
 * fixed-seed search in init_magics() and are checked again at start-up while
 * the tables are filled: a multiplier that does not fit (an edited table) is
 * replaced by searching afresh, which is correct but takes much longer.
 * Filling the tables runs once, guarded by pthread_once.
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

static const uint64_t rook_magic_numbers[64] = {
	0x1280002480400010ULL, 0x1040100040002001ULL, 0x0280200010028008ULL,
	0x0480080010000480ULL, 0x820020ba00045008ULL, 0x4200020008108104ULL,
	0x8200020001480084ULL, 0x0200028500402412ULL, 0x0001800040008022ULL,
	0x0904400048201000ULL, 0x8006002012004480ULL, 0x0a10801000080083ULL,
	0x2001000700080010ULL, 0x0200800200800400ULL, 0x8982004401084200ULL,
	0x00130000850000c2ULL, 0x0040048002814120ULL, 0x0040008020008040ULL,
	0x0544410011002008ULL, 0x2300210008100104ULL, 0x2088004004004200ULL,
	0x8002008002040080ULL, 0x2400040002011008ULL, 0x000a120001005084ULL,
	0x0040002280004080ULL, 0x1020200240005001ULL, 0x2001001100200040ULL,
	0x0510040140180040ULL, 0x0000080080040080ULL, 0x0010040080020080ULL,
	0x1101000100020004ULL, 0x040110420000811cULL, 0x00c0108820800044ULL,
	0x00c0004484802002ULL, 0x1000204482001200ULL, 0x0028008008801000ULL,
	0x0030800800800400ULL, 0x0014040080800200ULL, 0x8008820804009001ULL,
	0x4004004102000084ULL, 0x8420208040008000ULL, 0x0010024060024000ULL,
	0x0010001020008080ULL, 0x0a20080010008080ULL, 0x0400040008008080ULL,
	0x0001000204010008ULL, 0x0000129108040010ULL, 0x0000408400420001ULL,
	0x0040008001c4a480ULL, 0x0061002040008100ULL, 0x1082802004100880ULL,
	0x02d0008008001080ULL, 0x0225001004080100ULL, 0x0cc0800200040080ULL,
	0x105c480201100400ULL, 0x0020410400804200ULL, 0x4400800102402615ULL,
	0x1001a24412008102ULL, 0x0106483082006042ULL, 0x1100042010010009ULL,
	0x0401000800021005ULL, 0x000100081a040005ULL, 0x8100020110008804ULL,
	0x8408032a41028402ULL,
};

static const uint64_t bishop_magic_numbers[64] = {
	0x0402880800808200ULL, 0x0050102081004000ULL, 0x00c4180200481200ULL,
	0x01120a02080c0000ULL, 0x2202021008000000ULL, 0x0006085228204000ULL,
	0x40c4010430262001ULL, 0x0046020210a40400ULL, 0x0010400208520090ULL,
	0x0120210808908081ULL, 0x0000100086024920ULL, 0x0008040400862080ULL,
	0x0108011040210008ULL, 0x0004421110080000ULL, 0x004b288090282070ULL,
	0x00000200840c7281ULL, 0x4a0600d090103900ULL, 0x0004040810008228ULL,
	0x0008401004404102ULL, 0x000828e404001021ULL, 0x0004000201210011ULL,
	0x100500a2004a4600ULL, 0x2400800044104880ULL, 0x00c0840200840100ULL,
	0x0010080c42880100ULL, 0x1701103060044100ULL, 0x031090042a040210ULL,
	0x6084080000220140ULL, 0x1003001023004000ULL, 0x0042008084100084ULL,
	0x010210a202081100ULL, 0x00004040120a2203ULL, 0x010450a4a0086000ULL,
	0x0001214850208800ULL, 0x5040208801900020ULL, 0x1000020080080080ULL,
	0x0001190400020020ULL, 0x0448100100602090ULL, 0x084400840140a401ULL,
	0x8022048100022400ULL, 0x700c02a010810404ULL, 0x0222025002430424ULL,
	0x000022002a003004ULL, 0x5000022011028800ULL, 0x0200081104020440ULL,
	0x0082820042000101ULL, 0x6190810200820400ULL, 0x921004484082004bULL,
	0x0000808808408000ULL, 0x2276010108820000ULL, 0x0000050241300308ULL,
	0x8000240a05040201ULL, 0x04d401180b040804ULL, 0x0000844408420000ULL,
	0x0304100248011288ULL, 0x4010044104222084ULL, 0x180e002a08042474ULL,
	0x0210004400b81808ULL, 0x4020101244340400ULL, 0x0004000081048800ULL,
	0x0801020111020204ULL, 0x0045002021020080ULL, 0x100042240c008208ULL,
	0x0020200102082040ULL,
};

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

/* Stores reference[i] for occupancy[i] at the magic index; false on a
 * collision between two different attack sets. */
static bool try_magic(const struct magic *m, bitboard *slice, const bitboard *occupancy, const bitboard *reference,
		      int size, int *epoch, int cur_epoch)
{
	for (int i = 0; i < size; i++) {
		size_t idx = (size_t)(((occupancy[i] & m->mask) * m->magic) >> m->shift);
		if (epoch[idx] < cur_epoch) {
			epoch[idx] = cur_epoch;
			slice[idx] = reference[i];
		} else if (slice[idx] != reference[i]) {
			return false;
		}
	}
	return true;
}

static void init_magics(struct magic magics[64], bitboard *table, const int dirs[4][2], const uint64_t known[64])
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

		bitboard *slice = table + offset;
		m->magic = known[sq];
		if (!try_magic(m, slice, occupancy, reference, size, epoch, ++cur_epoch)) {
			uint64_t seed = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(sq + 1) * 0xD1B54A32D192ED03ULL);
			do {
				do
					m->magic = rng_next(&seed) & rng_next(&seed) & rng_next(&seed);
				while (bb_count((m->mask * m->magic) >> 56) < 6);
			} while (!try_magic(m, slice, occupancy, reference, size, epoch, ++cur_epoch));
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

	init_magics(attacks_rook_magics, rook_table, rook_dirs, rook_magic_numbers);
	init_magics(attacks_bishop_magics, bishop_table, bishop_dirs, bishop_magic_numbers);

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
