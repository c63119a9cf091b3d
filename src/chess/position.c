/*
 * Position bookkeeping: Zobrist keys, make/unmake, attack queries, and the
 * rule that the en-passant square exists only while an en-passant capture is
 * legal (so that keys compare positions the way the repetition rule does).
 */
#include <pthread.h>
#include <string.h>

#include "tchess/position.h"

static uint64_t zobrist_psq[PIECE_NB][64];
static uint64_t zobrist_castling[16];
static uint64_t zobrist_ep_file[8];
static uint64_t zobrist_side;

static void zobrist_fill(void)
{
	uint64_t s = 0x6A09E667F3BCC909ULL;
	for (int p = 0; p < PIECE_NB; p++)
		for (int sq = 0; sq < 64; sq++) {
			/* splitmix64 */
			uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
			z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
			z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
			zobrist_psq[p][sq] = (p == NO_PIECE) ? 0 : z ^ (z >> 31);
		}
	for (int i = 0; i < 16 + 8 + 1; i++) {
		uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		z ^= z >> 31;
		if (i < 16)
			zobrist_castling[i] = z;
		else if (i < 24)
			zobrist_ep_file[i - 16] = z;
		else
			zobrist_side = z;
	}
	zobrist_castling[0] = 0;
}

static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

__attribute__((constructor)) static void zobrist_init_at_start(void)
{
	pthread_once(&zobrist_once, zobrist_fill);
}

static inline void put_piece(struct position *p, enum piece pc, int sq)
{
	p->board[sq] = (uint8_t)pc;
	p->by_type[piece_type(pc)] |= sq_bb(sq);
	p->by_color[piece_color(pc)] |= sq_bb(sq);
}

static inline void remove_piece(struct position *p, int sq)
{
	enum piece pc = (enum piece)p->board[sq];
	p->by_type[piece_type(pc)] ^= sq_bb(sq);
	p->by_color[piece_color(pc)] ^= sq_bb(sq);
	p->board[sq] = NO_PIECE;
}

static inline void move_piece(struct position *p, int from, int to)
{
	enum piece pc = (enum piece)p->board[from];
	bitboard ft = sq_bb(from) | sq_bb(to);
	p->by_type[piece_type(pc)] ^= ft;
	p->by_color[piece_color(pc)] ^= ft;
	p->board[from] = NO_PIECE;
	p->board[to] = (uint8_t)pc;
}

bitboard position_attackers_to(const struct position *p, int sq, bitboard occ)
{
	bitboard bq = p->by_type[BISHOP] | p->by_type[QUEEN];
	bitboard rq = p->by_type[ROOK] | p->by_type[QUEEN];
	return (attacks_pawn(BLACK, sq) & position_pieces(p, WHITE, PAWN)) |
	       (attacks_pawn(WHITE, sq) & position_pieces(p, BLACK, PAWN)) |
	       (attacks_knight(sq) & p->by_type[KNIGHT]) |
	       (attacks_king(sq) & p->by_type[KING]) |
	       (attacks_bishop(sq, occ) & bq) |
	       (attacks_rook(sq, occ) & rq);
}

int position_castle_king_to(int king_sq, int rook_sq)
{
	return make_sq(rook_sq > king_sq ? 6 : 2, sq_rank(king_sq));
}

int position_castle_rook_to(int king_sq, int rook_sq)
{
	return make_sq(rook_sq > king_sq ? 5 : 3, sq_rank(king_sq));
}

/* True if the side to move can legally capture en passant on ep with the pawn
 * on from, the pawn that just moved standing one square behind ep. */
static bool ep_capture_legal(const struct position *p, int from, int ep)
{
	enum color us = (enum color)p->side, them = (enum color)!us;
	int victim = ep + (us == WHITE ? -8 : 8);
	int ksq = position_king(p, us);
	bitboard occ = (position_occupied(p) ^ sq_bb(from) ^ sq_bb(victim)) | sq_bb(ep);
	bitboard attackers = position_attackers_to(p, ksq, occ) & p->by_color[them] & ~sq_bb(victim);
	return attackers == 0;
}

/* The e.p. square to keep after a double push to 'to' (side to move = the
 * capturing side), or SQ_NONE if no en-passant capture is legal. */
static int legal_ep_square(const struct position *p, int to)
{
	enum color us = (enum color)p->side;
	int ep = to + (us == WHITE ? 8 : -8);
	bitboard capturers = attacks_pawn((enum color)!us, ep) & position_pieces(p, us, PAWN);
	while (capturers) {
		if (ep_capture_legal(p, bb_pop(&capturers), ep))
			return ep;
	}
	return SQ_NONE;
}

static bitboard compute_checkers(const struct position *p)
{
	enum color us = (enum color)p->side;
	return position_attackers_to(p, position_king(p, us), position_occupied(p)) & p->by_color[!us];
}

uint64_t position_compute_key(const struct position *p)
{
	uint64_t k = 0;
	for (int sq = 0; sq < 64; sq++)
		k ^= zobrist_psq[p->board[sq]][sq];
	k ^= zobrist_castling[p->castling];
	if (p->ep != SQ_NONE)
		k ^= zobrist_ep_file[sq_file(p->ep)];
	if (p->side == BLACK)
		k ^= zobrist_side;
	return k;
}

void position_refresh(struct position *p, int ep_candidate)
{
	p->checkers = compute_checkers(p);
	p->ep = SQ_NONE;
	if (ep_candidate != SQ_NONE) {
		int pushed = ep_candidate + (p->side == WHITE ? -8 : 8);
		p->ep = (uint8_t)legal_ep_square(p, pushed);
	}
	p->key = position_compute_key(p);
}

void position_init_start(struct position *p)
{
	static const enum piece_type back[8] = { ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK };
	memset(p, 0, sizeof *p);
	for (int f = 0; f < 8; f++) {
		put_piece(p, make_piece(WHITE, back[f]), make_sq(f, 0));
		put_piece(p, make_piece(WHITE, PAWN), make_sq(f, 1));
		put_piece(p, make_piece(BLACK, PAWN), make_sq(f, 6));
		put_piece(p, make_piece(BLACK, back[f]), make_sq(f, 7));
	}
	p->side = WHITE;
	p->castling = CASTLE_ALL;
	p->castle_rook[0] = SQ_H1;
	p->castle_rook[1] = SQ_A1;
	p->castle_rook[2] = SQ_H8;
	p->castle_rook[3] = SQ_A8;
	p->ep = SQ_NONE;
	p->halfmove = 0;
	p->fullmove = 1;
	p->chess960 = false;
	position_refresh(p, SQ_NONE);
}

/* Rights lost when a piece leaves or arrives on sq. */
static inline unsigned rights_touched(const struct position *p, int sq)
{
	unsigned lost = 0;
	for (int i = 0; i < 4; i++)
		if (p->castle_rook[i] == sq)
			lost |= 1u << i;
	return lost;
}

void position_make(struct position *p, move m, struct undo *u)
{
	enum color us = (enum color)p->side, them = (enum color)!us;
	int from = move_from(m), to = move_to(m);
	enum move_kind kind = move_kind(m);
	enum piece pc = (enum piece)p->board[from];
	uint64_t k = p->key ^ zobrist_side;

	u->key = p->key;
	u->checkers = p->checkers;
	u->halfmove = p->halfmove;
	u->castling = p->castling;
	u->ep = p->ep;
	u->captured = NO_PIECE;

	if (p->ep != SQ_NONE) {
		k ^= zobrist_ep_file[sq_file(p->ep)];
		p->ep = SQ_NONE;
	}
	p->halfmove++;
	if (us == BLACK)
		p->fullmove++;

	int double_push_to = SQ_NONE;
	if (kind == MOVE_CASTLING) {
		int kto = position_castle_king_to(from, to), rto = position_castle_rook_to(from, to);
		enum piece rook = (enum piece)p->board[to];
		remove_piece(p, from);
		remove_piece(p, to);
		put_piece(p, pc, kto);
		put_piece(p, rook, rto);
		k ^= zobrist_psq[pc][from] ^ zobrist_psq[pc][kto] ^ zobrist_psq[rook][to] ^ zobrist_psq[rook][rto];
	} else {
		int capsq = to;
		if (kind == MOVE_EN_PASSANT)
			capsq = to + (us == WHITE ? -8 : 8);
		enum piece captured = (enum piece)p->board[capsq];
		if (captured != NO_PIECE) {
			u->captured = (uint8_t)captured;
			remove_piece(p, capsq);
			k ^= zobrist_psq[captured][capsq];
			p->halfmove = 0;
		}
		move_piece(p, from, to);
		k ^= zobrist_psq[pc][from] ^ zobrist_psq[pc][to];
		if (piece_type(pc) == PAWN) {
			p->halfmove = 0;
			if (kind == MOVE_PROMOTION) {
				enum piece promo = make_piece(us, move_promotion(m));
				remove_piece(p, to);
				put_piece(p, promo, to);
				k ^= zobrist_psq[pc][to] ^ zobrist_psq[promo][to];
			} else if ((from ^ to) == 16) {
				double_push_to = to;
			}
		}
	}

	if (p->castling) {
		unsigned lost = rights_touched(p, from) | rights_touched(p, to);
		if (piece_type(pc) == KING)
			lost |= us == WHITE ? (CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN)
					    : (CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN);
		lost &= p->castling;
		if (lost) {
			k ^= zobrist_castling[p->castling];
			p->castling &= (uint8_t)~lost;
			k ^= zobrist_castling[p->castling];
		}
	}

	p->side = (uint8_t)them;
	p->checkers = compute_checkers(p);
	if (double_push_to != SQ_NONE &&
	    (attacks_pawn(us, double_push_to + (us == WHITE ? -8 : 8)) & position_pieces(p, them, PAWN))) {
		p->ep = (uint8_t)legal_ep_square(p, double_push_to);
		if (p->ep != SQ_NONE)
			k ^= zobrist_ep_file[sq_file(p->ep)];
	}
	p->key = k;
}

void position_unmake(struct position *p, move m, const struct undo *u)
{
	enum color them = (enum color)p->side, us = (enum color)!them;
	int from = move_from(m), to = move_to(m);
	enum move_kind kind = move_kind(m);

	p->side = (uint8_t)us;
	if (us == BLACK)
		p->fullmove--;

	if (kind == MOVE_CASTLING) {
		int kto = position_castle_king_to(from, to), rto = position_castle_rook_to(from, to);
		enum piece king = (enum piece)p->board[kto], rook = (enum piece)p->board[rto];
		remove_piece(p, kto);
		remove_piece(p, rto);
		put_piece(p, king, from);
		put_piece(p, rook, to);
	} else {
		if (kind == MOVE_PROMOTION) {
			remove_piece(p, to);
			put_piece(p, make_piece(us, PAWN), to);
		}
		move_piece(p, to, from);
		if (u->captured != NO_PIECE) {
			int capsq = kind == MOVE_EN_PASSANT ? to + (us == WHITE ? -8 : 8) : to;
			put_piece(p, (enum piece)u->captured, capsq);
		}
	}

	p->key = u->key;
	p->checkers = u->checkers;
	p->halfmove = u->halfmove;
	p->castling = u->castling;
	p->ep = u->ep;
}

bool position_gives_check(const struct position *p, move m)
{
	struct position q = *p;
	struct undo u;
	position_make(&q, m, &u);
	return q.checkers != 0;
}

bool position_same(const struct position *a, const struct position *b)
{
	if (a->side != b->side || a->castling != b->castling || a->ep != b->ep)
		return false;
	if (memcmp(a->board, b->board, sizeof a->board) != 0)
		return false;
	for (int i = 0; i < 4; i++)
		if ((a->castling >> i & 1) && a->castle_rook[i] != b->castle_rook[i])
			return false;
	return true;
}
