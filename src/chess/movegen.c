/*
 * The legal move generator. It computes the checkers (kept in the position)
 * and the pinned pieces first, then generates only moves that respect them:
 * in double check only king moves; in single check only moves that capture
 * the checker or block its line; pinned pieces only along their pin line.
 * King moves are tested against the enemy's attacks with the king lifted off
 * the board; en passant, the one move that can uncover a check along a rank,
 * is tested exactly.
 */
#include "tchess/movegen.h"

struct gen {
	const struct position *p;
	enum color us, them;
	int ksq;
	bitboard occ, own, enemy;
	bitboard pinned;
	bitboard target; /* destination mask for non-king moves */
	move *out;
};

static inline bitboard shift_up(bitboard b, enum color c) { return c == WHITE ? b << 8 : b >> 8; }

static bitboard pinned_pieces(const struct position *p, enum color us, int ksq, bitboard occ)
{
	enum color them = (enum color)!us;
	bitboard snipers = ((attacks_rook(ksq, 0) & (p->by_type[ROOK] | p->by_type[QUEEN])) |
			    (attacks_bishop(ksq, 0) & (p->by_type[BISHOP] | p->by_type[QUEEN]))) &
			   p->by_color[them];
	bitboard pinned = 0;
	while (snipers) {
		bitboard b = attacks_between(ksq, bb_pop(&snipers)) & occ;
		if (b && !bb_many(b))
			pinned |= b & p->by_color[us];
	}
	return pinned;
}

static inline bool square_attacked(const struct position *p, int sq, enum color by, bitboard occ)
{
	return (position_attackers_to(p, sq, occ) & p->by_color[by]) != 0;
}

static inline move *emit_targets(move *out, int from, bitboard to)
{
	while (to)
		*out++ = move_make(from, bb_pop(&to));
	return out;
}

static inline move *emit_promotions(move *out, int from, int to)
{
	*out++ = move_make_promotion(from, to, QUEEN);
	*out++ = move_make_promotion(from, to, ROOK);
	*out++ = move_make_promotion(from, to, BISHOP);
	*out++ = move_make_promotion(from, to, KNIGHT);
	return out;
}

static void gen_pawns(struct gen *g)
{
	const struct position *p = g->p;
	enum color us = g->us;
	int up = us == WHITE ? 8 : -8;
	bitboard rank3 = rank_bb(us == WHITE ? 2 : 5);
	bitboard rank8 = rank_bb(us == WHITE ? 7 : 0);
	bitboard empty = ~g->occ;
	bitboard pawns = position_pieces(p, us, PAWN);
	bitboard free_pawns = pawns & ~g->pinned;
	move *out = g->out;

	/* Unpinned pawns, in bulk. */
	bitboard single = shift_up(free_pawns, us) & empty;
	bitboard dbl = shift_up(single & rank3, us) & empty & g->target;
	single &= g->target;
	bitboard cap_w = shift_up(free_pawns & ~file_bb(0), us) >> 1 ; /* towards the a-file */
	bitboard cap_e = shift_up(free_pawns & ~file_bb(7), us) << 1;  /* towards the h-file */
	cap_w &= g->enemy & g->target;
	cap_e &= g->enemy & g->target;

	bitboard b = single & ~rank8;
	while (b) {
		int to = bb_pop(&b);
		*out++ = move_make(to - up, to);
	}
	while (dbl) {
		int to = bb_pop(&dbl);
		*out++ = move_make(to - 2 * up, to);
	}
	b = cap_w & ~rank8;
	while (b) {
		int to = bb_pop(&b);
		*out++ = move_make(to - up + 1, to);
	}
	b = cap_e & ~rank8;
	while (b) {
		int to = bb_pop(&b);
		*out++ = move_make(to - up - 1, to);
	}
	b = single & rank8;
	while (b) {
		int to = bb_pop(&b);
		out = emit_promotions(out, to - up, to);
	}
	b = cap_w & rank8;
	while (b) {
		int to = bb_pop(&b);
		out = emit_promotions(out, to - up + 1, to);
	}
	b = cap_e & rank8;
	while (b) {
		int to = bb_pop(&b);
		out = emit_promotions(out, to - up - 1, to);
	}

	/* Pinned pawns move only along the pin line; never while in check. */
	bitboard pinned_pawns = pawns & g->pinned;
	if (pinned_pawns && !p->checkers) {
		while (pinned_pawns) {
			int from = bb_pop(&pinned_pawns);
			bitboard line = attacks_line(g->ksq, from);
			bitboard tos = attacks_pawn(us, from) & g->enemy & line;
			int one = from + up;
			if (!(g->occ & sq_bb(one)) && (line & sq_bb(one))) {
				tos |= sq_bb(one);
				if ((sq_bb(from) & rank_bb(us == WHITE ? 1 : 6)) && !(g->occ & sq_bb(one + up)))
					tos |= sq_bb(one + up);
			}
			while (tos) {
				int to = bb_pop(&tos);
				if (sq_bb(to) & rank8)
					out = emit_promotions(out, from, to);
				else
					*out++ = move_make(from, to);
			}
		}
	}

	/* En passant: the position keeps the square only if some capture is
	 * legal, but each capturer is tested on its own. */
	if (p->ep != SQ_NONE) {
		int ep = p->ep, victim = ep - up;
		/* In check, e.p. helps only by capturing the checker or blocking. */
		if (!p->checkers || (p->checkers & sq_bb(victim)) || (g->target & sq_bb(ep))) {
			bitboard cands = attacks_pawn(g->them, ep) & pawns;
			while (cands) {
				int from = bb_pop(&cands);
				bitboard occ = (g->occ ^ sq_bb(from) ^ sq_bb(victim)) | sq_bb(ep);
				bitboard att = position_attackers_to(p, g->ksq, occ) & g->enemy & ~sq_bb(victim);
				if (!att)
					*out++ = move_make_kind(from, ep, MOVE_EN_PASSANT);
			}
		}
	}
	g->out = out;
}

static void gen_pieces(struct gen *g)
{
	const struct position *p = g->p;
	move *out = g->out;
	bitboard b;

	b = position_pieces(p, g->us, KNIGHT) & ~g->pinned;
	while (b) {
		int from = bb_pop(&b);
		out = emit_targets(out, from, attacks_knight(from) & g->target);
	}
	bitboard bq = (p->by_type[BISHOP] | p->by_type[QUEEN]) & g->own;
	bitboard rq = (p->by_type[ROOK] | p->by_type[QUEEN]) & g->own;
	b = bq & ~g->pinned;
	while (b) {
		int from = bb_pop(&b);
		out = emit_targets(out, from, attacks_bishop(from, g->occ) & g->target);
	}
	b = rq & ~g->pinned;
	while (b) {
		int from = bb_pop(&b);
		out = emit_targets(out, from, attacks_rook(from, g->occ) & g->target);
	}
	if (g->pinned && !p->checkers) {
		b = bq & g->pinned;
		while (b) {
			int from = bb_pop(&b);
			out = emit_targets(out, from, attacks_bishop(from, g->occ) & g->target & attacks_line(g->ksq, from));
		}
		b = rq & g->pinned;
		while (b) {
			int from = bb_pop(&b);
			out = emit_targets(out, from, attacks_rook(from, g->occ) & g->target & attacks_line(g->ksq, from));
		}
	}
	g->out = out;
}

static void gen_king(struct gen *g)
{
	const struct position *p = g->p;
	bitboard occ = g->occ ^ sq_bb(g->ksq);
	bitboard tos = attacks_king(g->ksq) & ~g->own;
	move *out = g->out;
	while (tos) {
		int to = bb_pop(&tos);
		if (!square_attacked(p, to, g->them, occ))
			*out++ = move_make(g->ksq, to);
	}
	g->out = out;
}

static void gen_castling(struct gen *g)
{
	const struct position *p = g->p;
	unsigned rights = p->castling & (g->us == WHITE ? (CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN)
							: (CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN));
	while (rights) {
		int i = bb_lsb(rights);
		rights &= rights - 1;
		int ksq = g->ksq, rsq = p->castle_rook[i];
		int kto = position_castle_king_to(ksq, rsq), rto = position_castle_rook_to(ksq, rsq);
		bitboard movers = sq_bb(ksq) | sq_bb(rsq);
		bitboard path = attacks_between(ksq, kto) | sq_bb(kto) | attacks_between(rsq, rto) | sq_bb(rto);
		if (path & g->occ & ~movers)
			continue;
		bitboard occ = g->occ ^ movers;
		bitboard kpath = attacks_between(ksq, kto) | sq_bb(kto);
		bool safe = true;
		while (kpath && safe) {
			if (square_attacked(p, bb_pop(&kpath), g->them, occ))
				safe = false;
		}
		if (safe)
			*g->out++ = move_make_kind(ksq, rsq, MOVE_CASTLING);
	}
}

int movegen_legal(const struct position *p, struct move_list *list)
{
	struct gen g;
	g.p = p;
	g.us = (enum color)p->side;
	g.them = (enum color)!g.us;
	g.ksq = position_king(p, g.us);
	g.occ = position_occupied(p);
	g.own = p->by_color[g.us];
	g.enemy = p->by_color[g.them];
	g.out = list->moves;

	gen_king(&g);
	if (bb_many(p->checkers)) {
		list->count = (int)(g.out - list->moves);
		return list->count;
	}
	g.pinned = pinned_pieces(p, g.us, g.ksq, g.occ);
	if (p->checkers) {
		int checker = bb_lsb(p->checkers);
		g.target = attacks_between(g.ksq, checker) | p->checkers;
	} else {
		g.target = ~g.own;
	}
	gen_pawns(&g);
	gen_pieces(&g);
	if (!p->checkers && (p->castling))
		gen_castling(&g);
	list->count = (int)(g.out - list->moves);
	return list->count;
}

bool movegen_is_legal(const struct position *p, move m)
{
	struct move_list list;
	movegen_legal(p, &list);
	for (int i = 0; i < list.count; i++)
		if (list.moves[i] == m)
			return true;
	return false;
}

bool movegen_has_legal(const struct position *p)
{
	struct move_list list;
	return movegen_legal(p, &list) > 0;
}

bool movegen_is_checkmate(const struct position *p)
{
	return p->checkers && !movegen_has_legal(p);
}

bool movegen_is_stalemate(const struct position *p)
{
	return !p->checkers && !movegen_has_legal(p);
}

uint64_t movegen_perft(struct position *p, int depth)
{
	struct move_list list;
	if (depth <= 0)
		return 1;
	movegen_legal(p, &list);
	if (depth == 1)
		return (uint64_t)list.count;
	uint64_t nodes = 0;
	for (int i = 0; i < list.count; i++) {
		struct undo u;
		position_make(p, list.moves[i], &u);
		nodes += movegen_perft(p, depth - 1);
		position_unmake(p, list.moves[i], &u);
	}
	return nodes;
}
