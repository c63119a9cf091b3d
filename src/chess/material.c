/*
 * Dead positions and mating material: the material rules (help-mate aware),
 * a sound analysis of locked pawn walls, and a small search of forced lines.
 *
 * The wall analysis rests on one argument. If every pawn is blocked by a
 * pawn and no pawn can capture, the pawns stay where they are as long as no
 * piece ever lands on a square a pawn attacks and no pawn is ever captured.
 * Pieces that cannot move at all given the pawns (a bishop behind its own
 * pawns) are as permanent, provided nothing can take them. Under those
 * walls we over-approximate where every other piece can ever go (other
 * pieces treated as transparent, which only adds squares) and where each
 * king can ever stand (never on a square an enemy pawn attacks). If no
 * piece can reach anything that would break the walls, and no piece of one
 * side can ever attack a square the other king can reach, that side can
 * never give check, let alone mate. Any doubt returns "not proven".
 */
#include "tchess/material.h"
#include "tchess/movegen.h"

/* Forced-line search limits: lines are followed only through positions
 * with at most SEARCH_BRANCH legal moves, SEARCH_DEPTH plies deep, and at
 * most SEARCH_NODES positions in all, so the cost stays tiny when the
 * game checks every move. */
#define SEARCH_BRANCH 3
#define SEARCH_DEPTH 8
#define SEARCH_NODES 96

bool material_insufficient(const struct position *p, enum color c)
{
	bitboard us = p->by_color[c], them = p->by_color[!c];
	if (us & (p->by_type[PAWN] | p->by_type[ROOK] | p->by_type[QUEEN]))
		return false;
	if (us & p->by_type[KNIGHT]) {
		/* One knight and the king: it mates only against a piece that
		 * can block a flight square; queens never can. */
		return bb_count(us) <= 2 && !(them & ~p->by_type[KING] & ~p->by_type[QUEEN]);
	}
	if (us & p->by_type[BISHOP]) {
		/* Bishops only: all on one colour, and nothing on the board that
		 * could block on the other colour or promote to do so. */
		bitboard b = p->by_type[BISHOP];
		bool one_colour = !(b & DARK_SQUARES_BB) || !(b & LIGHT_SQUARES_BB);
		return one_colour && !p->by_type[PAWN] && !p->by_type[KNIGHT];
	}
	return true;
}

bool material_insufficient_both(const struct position *p)
{
	return material_insufficient(p, WHITE) && material_insufficient(p, BLACK);
}

enum wall_state {
	WALL_OPEN,      /* no pawns, or some pawn can still move or capture */
	WALL_UNPROVEN,  /* every pawn is locked, but the proof failed */
	WALL_PROVEN     /* the walls are permanent; cannot_mate[] is valid */
};

static bitboard pawn_attack_set(const struct position *p, enum color c)
{
	bitboard b = position_pieces(p, c, PAWN), a = 0;
	while (b)
		a |= attacks_pawn(c, bb_pop(&b));
	return a;
}

/* Squares a king may step to from the set 'from'. */
static bitboard king_steps(bitboard from)
{
	bitboard a = 0;
	while (from)
		a |= attacks_king(bb_pop(&from));
	return a;
}

static enum wall_state wall_analyze(const struct position *p, bool cannot_mate[2])
{
	bitboard pawns = p->by_type[PAWN];
	if (!pawns)
		return WALL_OPEN;
	for (int c = 0; c < 2; c++) {
		bitboard b = position_pieces(p, (enum color)c, PAWN);
		while (b) {
			int sq = bb_pop(&b);
			int ahead = c == WHITE ? sq + 8 : sq - 8;
			if (!(pawns & sq_bb(ahead)))
				return WALL_OPEN;
			if (attacks_pawn((enum color)c, sq) & p->by_color[!c] & pawns)
				return WALL_OPEN;
		}
	}
	/* Past this point every pawn is locked; what follows may still fail. */
	if (p->ep != SQ_NONE || p->checkers || p->castling)
		return WALL_UNPROVEN;

	bitboard pattacks[2] = { pawn_attack_set(p, WHITE), pawn_attack_set(p, BLACK) };
	bitboard walls = pawns, kings = p->by_type[KING];

	/* Frozen pieces, least fixpoint: each one added is blocked only by
	 * things already known to be permanent. */
	bool grew = true;
	while (grew) {
		grew = false;
		bitboard cand = position_occupied(p) & ~walls & ~kings;
		while (cand) {
			int sq = bb_pop(&cand);
			enum piece pc = position_piece_on(p, sq);
			enum color c = piece_color(pc);
			bitboard own_walls = walls & p->by_color[c];
			if (!(attacks_piece(piece_type(pc), sq, walls) & ~own_walls)) {
				walls |= sq_bb(sq);
				grew = true;
			}
		}
	}

	/* What frozen pieces could ever attack, per side. */
	bitboard frozen_att[2] = { 0, 0 };
	bitboard frozen = walls & ~pawns;
	while (frozen) {
		int sq = bb_pop(&frozen);
		enum piece pc = position_piece_on(p, sq);
		frozen_att[piece_color(pc)] |= attacks_piece(piece_type(pc), sq, walls);
	}
	for (int c = 0; c < 2; c++)
		if (walls & ~pawns & p->by_color[c] & pattacks[!c])
			return WALL_UNPROVEN; /* a pawn could take a frozen piece */

	/* Every mobile piece: where it can ever go and what it can ever hit. */
	bitboard reach_att[2] = { frozen_att[WHITE], frozen_att[BLACK] };
	bitboard mobile = position_occupied(p) & ~walls & ~kings;
	while (mobile) {
		int from = bb_pop(&mobile);
		enum piece pc = position_piece_on(p, from);
		enum color c = piece_color(pc);
		enum piece_type pt = piece_type(pc);
		bitboard own_walls = walls & p->by_color[c], enemy_walls = walls & p->by_color[!c];
		bitboard reach = sq_bb(from), todo = reach;
		while (todo) {
			int sq = bb_pop(&todo);
			bitboard att = attacks_piece(pt, sq, walls);
			if (att & enemy_walls)
				return WALL_UNPROVEN;
			reach_att[c] |= att;
			bitboard fresh = att & ~own_walls & ~reach;
			reach |= fresh;
			todo |= fresh;
		}
		if (reach & (pattacks[!c] | frozen_att[!c]))
			return WALL_UNPROVEN;
	}

	/* Where each king can ever stand. */
	bitboard region[2];
	for (int c = 0; c < 2; c++) {
		bitboard own_walls = walls & p->by_color[c], enemy_walls = walls & p->by_color[!c];
		bitboard reg = position_pieces(p, (enum color)c, KING);
		for (;;) {
			bitboard steps = king_steps(reg) & ~own_walls & ~pattacks[!c];
			if (steps & enemy_walls)
				return WALL_UNPROVEN;
			if (!(steps & ~reg))
				break;
			reg |= steps;
		}
		region[c] = reg;
	}

	for (int c = 0; c < 2; c++)
		cannot_mate[c] = !(reach_att[c] & region[!c]);
	return WALL_PROVEN;
}

/* The verdict for colour c from what can be seen without moving. */
static enum material_verdict static_verdict(const struct position *p, enum color c)
{
	bool cannot[2];
	if (material_insufficient(p, c))
		return MATERIAL_DEAD;
	switch (wall_analyze(p, cannot)) {
	case WALL_OPEN:
		return MATERIAL_MATE_POSSIBLE;
	case WALL_PROVEN:
		return cannot[c] ? MATERIAL_DEAD : MATERIAL_UNKNOWN;
	case WALL_UNPROVEN:
	default:
		return MATERIAL_UNKNOWN;
	}
}

/* Three-valued answer of the forced-line search for colour c. */
enum search_answer { ANSWER_CAN, ANSWER_CANNOT, ANSWER_OPEN };

static enum search_answer search(struct position *p, enum color c, int depth, int *nodes)
{
	struct move_list list;
	movegen_legal(p, &list);
	if (list.count == 0) {
		if (p->checkers)
			return p->side != c ? ANSWER_CAN : ANSWER_CANNOT;
		return ANSWER_CANNOT; /* stalemate ends the game */
	}
	if (static_verdict(p, c) == MATERIAL_DEAD)
		return ANSWER_CANNOT;
	if (depth == 0 || list.count > SEARCH_BRANCH || *nodes <= 0)
		return ANSWER_OPEN;
	bool all_cannot = true;
	for (int i = 0; i < list.count; i++) {
		struct undo u;
		(*nodes)--;
		position_make(p, list.moves[i], &u);
		enum search_answer a = search(p, c, depth - 1, nodes);
		position_unmake(p, list.moves[i], &u);
		if (a == ANSWER_CAN)
			return ANSWER_CAN;
		if (a == ANSWER_OPEN)
			all_cannot = false;
	}
	return all_cannot ? ANSWER_CANNOT : ANSWER_OPEN;
}

enum material_verdict material_side_verdict(const struct position *p, enum color c)
{
	if (!movegen_has_legal(p)) {
		if (p->checkers)
			return p->side != c ? MATERIAL_MATE_POSSIBLE : MATERIAL_DEAD;
		return static_verdict(p, c);
	}
	enum material_verdict v = static_verdict(p, c);
	if (v == MATERIAL_DEAD)
		return v;
	struct position work = *p;
	int nodes = SEARCH_NODES;
	switch (search(&work, c, SEARCH_DEPTH, &nodes)) {
	case ANSWER_CAN:
		return MATERIAL_MATE_POSSIBLE;
	case ANSWER_CANNOT:
		return MATERIAL_DEAD;
	case ANSWER_OPEN:
	default:
		return v;
	}
}

enum material_verdict material_is_dead(const struct position *p)
{
	enum material_verdict w = material_side_verdict(p, WHITE);
	if (w == MATERIAL_MATE_POSSIBLE)
		return w;
	enum material_verdict b = material_side_verdict(p, BLACK);
	if (w == MATERIAL_DEAD && b == MATERIAL_DEAD)
		return MATERIAL_DEAD;
	if (b == MATERIAL_MATE_POSSIBLE)
		return b;
	return MATERIAL_UNKNOWN;
}

bool material_can_mate(const struct position *p, enum color c)
{
	return material_side_verdict(p, c) != MATERIAL_DEAD;
}

const char *material_verdict_str(enum material_verdict v)
{
	switch (v) {
	case MATERIAL_MATE_POSSIBLE:
		return "mate-possible";
	case MATERIAL_DEAD:
		return "dead";
	case MATERIAL_UNKNOWN:
		return "unknown";
	}
	return "?";
}
