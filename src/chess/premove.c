/*
 * Premoves: entry validation under the ruleset's relaxations on the board
 * the player sees, the queue, and resolution against the real position once
 * the opponent has moved. The rules themselves are written out in
 * include/tchess/premove.h; this file follows them in the same order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/premove.h"

static const char *const piece_names[PIECE_TYPE_NB] = { "pawn", "knight", "bishop", "rook", "queen", "king" };
static const char *const side_names[2] = { "White", "Black" };
static const char promo_letters[PIECE_TYPE_NB] = { 0, 'n', 'b', 'r', 'q', 0 };

/* Printable copy of text for messages. */
static const char *quote(const char *text, size_t len, char buf[20])
{
	return notation_quote(text, len, buf, 17);
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

enum tchess_err premove_parse_uci(const char *text, size_t len, struct premove *out, struct tchess_error *err)
{
	char q[20];
	size_t start = 0;
	while (start < len && is_blank(text[start]))
		start++;
	while (len > start && is_blank(text[len - 1]))
		len--;
	const char *s = text + start;
	size_t n = len - start;
	if (n == 0)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, start, "empty premove");
	if (n < 4 || n > 5)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, start,
					"'%s' is not a premove like e2e4 or e7e8q", quote(s, n, q));
	int from = notation_parse_square(s), to = notation_parse_square(s + 2);
	if (from == SQ_NONE || to == SQ_NONE)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, start + (from == SQ_NONE ? 0 : 2),
					"'%s': %s square is not a square a1..h8", quote(s, n, q),
					from == SQ_NONE ? "the first" : "the second");
	if (from == to)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, start + 2,
					"'%s': a premove must go to another square", quote(s, n, q));
	int promo = PREMOVE_NO_PROMO;
	if (n == 5) {
		const char *hit = strchr("nbrq", s[4] | 0x20);
		if (s[4] == '\0' || !hit)
			return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, start + 4,
						"'%s': the fifth letter must be a promotion piece (q, r, b, n)",
						quote(s, n, q));
		promo = KNIGHT + (int)(hit - "nbrq");
	}
	out->from = (uint8_t)from;
	out->to = (uint8_t)to;
	out->promo = (uint8_t)promo;
	out->castling = false;
	return TCHESS_OK;
}

size_t premove_write(const struct premove *pm, bool chess960, char *buf)
{
	if (pm->from >= 64 || pm->to >= 64) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	int to = pm->to;
	if (pm->castling && !chess960)
		to = position_castle_king_to(pm->from, pm->to);
	notation_square(pm->from, buf);
	notation_square(to, buf + 2);
	if (pm->promo >= KNIGHT && pm->promo <= QUEEN) {
		buf[4] = promo_letters[pm->promo];
		buf[5] = '\0';
		return 5;
	}
	return 4;
}

/*
 * The virtual board. Only the placement and the castling rights are kept up
 * to date; the key, checkers and e.p. square are left as they were, which is
 * why such a board never reaches the move generator.
 */

static void board_remove(struct position *b, int sq)
{
	enum piece pc = position_piece_on(b, sq);
	if (pc == NO_PIECE)
		return;
	b->by_type[piece_type(pc)] &= ~sq_bb(sq);
	b->by_color[piece_color(pc)] &= ~sq_bb(sq);
	b->board[sq] = NO_PIECE;
}

static void board_put(struct position *b, enum piece pc, int sq)
{
	board_remove(b, sq);
	b->by_type[piece_type(pc)] |= sq_bb(sq);
	b->by_color[piece_color(pc)] |= sq_bb(sq);
	b->board[sq] = (uint8_t)pc;
}

/* A right goes with its rook when that rook moves or is taken. */
static void board_drop_rook_right(struct position *b, int sq)
{
	for (int i = 0; i < 4; i++)
		if ((b->castling & (1u << i)) && b->castle_rook[i] == sq)
			b->castling &= (uint8_t) ~(1u << i);
}

static void board_drop_rights(struct position *b, enum color c)
{
	b->castling &= (uint8_t) ~(c == WHITE ? (CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN)
					   : (CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN));
}

/* Applies pm geometrically; a premove whose origin holds no piece of 'who'
 * is skipped (see premove_validate()). */
static void board_apply(struct position *b, enum color who, const struct premove *pm)
{
	int from = pm->from, to = pm->to;
	if (from >= 64 || to >= 64)
		return;
	enum piece pc = position_piece_on(b, from);
	if (pc == NO_PIECE || piece_color(pc) != who)
		return;
	if (pm->castling) {
		enum piece rook = position_piece_on(b, to);
		int kto = position_castle_king_to(from, to), rto = position_castle_rook_to(from, to);
		board_remove(b, from);
		board_remove(b, to);
		board_put(b, pc, kto);
		if (rook == make_piece(who, ROOK))
			board_put(b, rook, rto);
		board_drop_rights(b, who);
		return;
	}
	if (pm->promo >= KNIGHT && pm->promo <= QUEEN && piece_type(pc) == PAWN)
		pc = make_piece(who, (enum piece_type)pm->promo);
	board_remove(b, from);
	board_put(b, pc, to);
	if (piece_type(pc) == KING)
		board_drop_rights(b, who);
	board_drop_rook_right(b, from);
	board_drop_rook_right(b, to);
}

void premove_board(const struct position *p, enum color who, const struct premove *queue, int n,
		   struct position *out)
{
	*out = *p;
	for (int i = 0; queue && i < n; i++)
		board_apply(out, who, &queue[i]);
}

/*
 * Entry validation of one premove on the virtual board.
 */

static enum tchess_err refuse(struct tchess_error *err, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum tchess_err refuse(struct tchess_error *err, const char *text, const char *fmt, ...)
{
	char why[140];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: %s", text, why);
}

/* "Black's rook on e8" */
static const char *describe(const struct position *b, int sq, char *buf, size_t size)
{
	char s[3];
	enum piece pc = position_piece_on(b, sq);
	snprintf(buf, size, "%s's %s on %s", side_names[piece_color(pc)], piece_names[piece_type(pc)],
		 notation_square(sq, s));
	return buf;
}

/* The castling right index (0..3) the king move from -> to names, or -1. */
static int castle_index(const struct position *b, enum color who, int from, int to)
{
	for (int i = 2 * (int)who; i < 2 * (int)who + 2; i++) {
		int rsq = b->castle_rook[i];
		if (!(b->castling & (1u << i)) || rsq >= 64 || position_piece_on(b, rsq) != make_piece(who, ROOK))
			continue;
		if (to == rsq)
			return i;
		/* The king's destination names castling unless it is an
		 * ordinary king step (Chess960 only). */
		int kto = position_castle_king_to(from, rsq);
		if (to == kto && !(attacks_king(from) & sq_bb(to)))
			return i;
	}
	return -1;
}

static enum tchess_err validate_castling(const struct position *b, enum color who, struct premove *pm, int ci,
					 unsigned relax, const char *text, struct tchess_error *err)
{
	enum color them = (enum color)!who;
	char d[48], s[3];
	int ksq = pm->from, rsq = b->castle_rook[ci];
	int kto = position_castle_king_to(ksq, rsq), rto = position_castle_rook_to(ksq, rsq);

	if (pm->promo != PREMOVE_NO_PROMO)
		return refuse(err, text, "castling names no promotion piece");

	bitboard movers = sq_bb(ksq) | sq_bb(rsq);
	bitboard path = (attacks_between(ksq, kto) | sq_bb(kto) | attacks_between(rsq, rto) | sq_bb(rto)) & ~movers;
	bitboard in_way = path & position_occupied(b);
	bitboard own = in_way & b->by_color[who];
	if (own)
		return refuse(err, text, "castling is blocked by your own %s on %s",
			      piece_names[piece_type(position_piece_on(b, bb_lsb(own)))], notation_square(bb_lsb(own), s));
	if (in_way) {
		int sq = bb_lsb(in_way);
		enum piece_type pt = piece_type(position_piece_on(b, sq));
		bool one_minor = !bb_many(in_way) && (pt == KNIGHT || pt == BISHOP);
		/* Yourpot: "Castling with one light opponent's piece (Knight
		 * or Bishop) between King and Rook allowed". */
		if (!one_minor)
			return refuse(err, text, "castling is blocked by %s%s", describe(b, sq, d, sizeof d),
				      (relax & PREMOVE_RELAX_CASTLE_PAST_MINOR)
					      ? " (only one knight or bishop may stand in the way)"
					      : "");
		if (!(relax & PREMOVE_RELAX_CASTLE_PAST_MINOR))
			return refuse(err, text, "castling is blocked by %s (castling past a piece is not allowed here)",
				      describe(b, sq, d, sizeof d));
	}

	if (!(relax & PREMOVE_RELAX_CASTLE_ATTACKED)) {
		bitboard occ = position_occupied(b) ^ movers;
		bitboard kpath = sq_bb(ksq) | attacks_between(ksq, kto) | sq_bb(kto);
		while (kpath) {
			int sq = bb_pop(&kpath);
			bitboard att = position_attackers_to(b, sq, occ) & b->by_color[them];
			if (att)
				return refuse(err, text, "the king may not castle %s check: %s is attacked by %s",
					      sq == ksq ? "out of" : sq == kto ? "into" : "through",
					      notation_square(sq, s), describe(b, bb_lsb(att), d, sizeof d));
		}
	}
	pm->to = (uint8_t)rsq;
	pm->castling = true;
	return TCHESS_OK;
}

/* Shape and blocking of a pawn premove (promotion is checked by the caller). */
static enum tchess_err validate_pawn(const struct position *b, enum color who, const struct premove *pm,
				     unsigned relax, const char *text, struct tchess_error *err)
{
	char d[48], fs[3], ts[3];
	int from = pm->from, to = pm->to, up = who == WHITE ? 8 : -8;
	enum piece target = position_piece_on(b, to);
	notation_square(from, fs);
	notation_square(to, ts);

	if (attacks_pawn(who, from) & sq_bb(to)) {
		/* Yourpot: "Pawn capture of the empty square allowed". */
		if (target == NO_PIECE && !(relax & PREMOVE_RELAX_PAWN_CAPTURE_EMPTY))
			return refuse(err, text, "a pawn moves diagonally only to capture, and %s is empty", ts);
		return TCHESS_OK;
	}
	bool single = to == from + up;
	bool dbl = to == from + 2 * up && sq_file(from) == sq_file(to);
	if (dbl && relative_rank(who, from) != 1)
		return refuse(err, text, "a pawn moves two squares only from its starting rank");
	if (!single && !dbl)
		return refuse(err, text, "a pawn cannot move from %s to %s", fs, ts);
	if (dbl && position_piece_on(b, from + up) != NO_PIECE) {
		int mid = from + up;
		if (piece_color(position_piece_on(b, mid)) == who)
			return refuse(err, text, "the pawn on %s cannot pass its own %s on %s", fs,
				      piece_names[piece_type(position_piece_on(b, mid))], notation_square(mid, d));
		/* Yourpot: "'Jumping over' the opponent's pieces allowed". */
		if (!(relax & PREMOVE_RELAX_JUMP))
			return refuse(err, text, "the pawn on %s is blocked by %s (jumping over pieces is not allowed here)",
				      fs, describe(b, mid, d, sizeof d));
	}
	/* Yourpot: "Pawn move on to the square occupied by the opponent's
	 * piece allowed". */
	if (target != NO_PIECE && !(relax & PREMOVE_RELAX_PAWN_PUSH_OCCUPIED))
		return refuse(err, text, "a pawn cannot capture straight ahead, and %s holds %s", ts,
			      describe(b, to, d, sizeof d));
	return TCHESS_OK;
}

static enum tchess_err validate_one(const struct position *b, enum color who, struct premove *pm, unsigned relax,
				    struct tchess_error *err)
{
	enum color them = (enum color)!who;
	char text[PREMOVE_TEXT_MAX], d[48], fs[3], ts[3];
	int from = pm->from, to = pm->to;

	if (from >= 64 || to >= 64)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "premove squares out of range (%d, %d)", from, to);
	if (pm->promo != PREMOVE_NO_PROMO && (pm->promo < KNIGHT || pm->promo > QUEEN))
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "premove promotion piece out of range (%d)",
					pm->promo);
	premove_write(pm, b->chess960, text);
	notation_square(from, fs);
	notation_square(to, ts);

	enum piece pc = position_piece_on(b, from);
	if (pc == NO_PIECE)
		return refuse(err, text, "there is no piece on %s", fs);
	if (piece_color(pc) != who)
		return refuse(err, text, "the %s on %s is %s's", piece_names[piece_type(pc)], fs, side_names[them]);
	if (from == to)
		return refuse(err, text, "the %s on %s must move to another square", piece_names[piece_type(pc)], fs);
	enum piece_type pt = piece_type(pc);

	if (pt == KING) {
		int ci = castle_index(b, who, from, to);
		if (ci >= 0)
			return validate_castling(b, who, pm, ci, relax, text, err);
		if (pm->castling || (sq_rank(from) == sq_rank(to) && (sq_file(from) - sq_file(to) == 2 ||
								      sq_file(to) - sq_file(from) == 2)))
			return refuse(err, text, "the king moves two squares only when castling, and %s has no "
					   "castling right that way", side_names[who]);
	}
	if (pm->castling)
		return refuse(err, text, "only the king castles");

	/* The piece's own geometry, never relaxed. */
	if (pt == PAWN) {
		enum tchess_err rc = validate_pawn(b, who, pm, relax, text, err);
		if (rc != TCHESS_OK)
			return rc;
	} else if (!(attacks_piece(pt, from, 0) & sq_bb(to))) {
		return refuse(err, text, "a %s cannot move from %s to %s", piece_names[pt], fs, ts);
	}

	bool last_rank = pt == PAWN && relative_rank(who, to) == 7;
	if (last_rank && pm->promo == PREMOVE_NO_PROMO)
		return refuse(err, text, "a pawn reaching the last rank must promote (add q, r, b or n)");
	if (!last_rank && pm->promo != PREMOVE_NO_PROMO)
		return refuse(err, text, "only a pawn reaching the last rank promotes");

	enum piece target = position_piece_on(b, to);
	if (target != NO_PIECE && piece_color(target) == who) {
		if (piece_type(target) == KING)
			return refuse(err, text, "a king is never captured, least of all your own");
		/* Yourpot: "Capturing of own piece allowed". */
		if (!(relax & PREMOVE_RELAX_OWN_CAPTURE))
			return refuse(err, text, "%s holds your own %s (capturing your own piece is not allowed here)",
				      ts, piece_names[piece_type(target)]);
	}

	if (pt == BISHOP || pt == ROOK || pt == QUEEN) {
		bitboard between = attacks_between(from, to) & position_occupied(b);
		bitboard own = between & b->by_color[who];
		if (own)
			return refuse(err, text, "the %s on %s cannot pass your own %s on %s", piece_names[pt], fs,
				      piece_names[piece_type(position_piece_on(b, bb_lsb(own)))],
				      notation_square(bb_lsb(own), d));
		/* Yourpot: "'Jumping over' the opponent's pieces allowed". */
		if (between && !(relax & PREMOVE_RELAX_JUMP))
			return refuse(err, text, "the %s on %s is blocked by %s (jumping over pieces is not allowed here)",
				      piece_names[pt], fs, describe(b, bb_lsb(between), d, sizeof d));
	}

	/* Yourpot: "Moves leaving the King under check allowed". */
	if (!(relax & PREMOVE_RELAX_LEAVE_IN_CHECK)) {
		struct position after = *b;
		board_apply(&after, who, pm);
		bitboard kings = position_pieces(&after, who, KING);
		if (kings) {
			int ksq = bb_lsb(kings);
			bitboard att = position_attackers_to(&after, ksq, position_occupied(&after)) &
				       after.by_color[them];
			if (att)
				return refuse(err, text, "your king on %s would be in check from %s",
					      notation_square(ksq, fs), describe(&after, bb_lsb(att), d, sizeof d));
		}
	}
	return TCHESS_OK;
}

enum tchess_err premove_validate(const struct position *p, enum color who, const struct premove *queue, int n_queued,
				 struct premove *pm, const struct ruleset *r, struct tchess_error *err)
{
	if (!r || r->premove_depth < 1 || r->premove_depth > PREMOVE_DEPTH_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "premove depth must be from 1 to %d",
					PREMOVE_DEPTH_MAX);
	if (who != WHITE && who != BLACK)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no such side (%d)", (int)who);
	if (n_queued < 0 || (n_queued > 0 && !queue))
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "bad premove queue length %d", n_queued);
	if (n_queued >= r->premove_depth)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "only %d premove%s may be queued", r->premove_depth,
					r->premove_depth == 1 ? "" : "s");
	if (p->side == who)
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "it is %s's move: play it rather than premove it",
					side_names[who]);

	struct position b;
	premove_board(p, who, queue, n_queued, &b);
	struct premove t = *pm;
	enum tchess_err rc = validate_one(&b, who, &t, r->premove_relax, err);
	if (rc == TCHESS_OK)
		*pm = t;
	return rc;
}

void premove_queue_init(struct premove_queue *q)
{
	memset(q, 0, sizeof *q);
}

void premove_queue_clear(struct premove_queue *q)
{
	premove_queue_init(q);
}

enum tchess_err premove_queue_push(struct premove_queue *q, const struct position *p, enum color who,
				   struct premove pm, const struct ruleset *r, struct tchess_error *err)
{
	if (q->n < 0 || q->n > PREMOVE_DEPTH_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "bad premove queue length %d", q->n);
	if (q->n > 0 && q->side != who)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "the queue holds %s's premoves, not %s's",
					side_names[q->side & 1], side_names[who & 1]);
	enum tchess_err rc = premove_validate(p, who, q->items, q->n, &pm, r, err);
	if (rc != TCHESS_OK)
		return rc;
	q->side = (uint8_t)who;
	q->items[q->n++] = pm;
	return TCHESS_OK;
}

/*
 * Resolution against the real position.
 */

static bool premove_matches(const struct premove *pm, move m)
{
	if (move_from(m) != pm->from || move_to(m) != pm->to)
		return false;
	if (pm->castling)
		return move_kind(m) == MOVE_CASTLING;
	if (move_kind(m) == MOVE_CASTLING)
		return false;
	if (move_kind(m) == MOVE_PROMOTION)
		return move_promotion(m) == (enum piece_type)pm->promo && pm->promo != PREMOVE_NO_PROMO;
	return pm->promo == PREMOVE_NO_PROMO;
}

/* Why castling pm is not legal in p (the side to move). */
static const char *explain_castling(const struct position *p, const struct premove *pm, char *buf, size_t size)
{
	enum color us = (enum color)p->side, them = (enum color)!us;
	char s[3];
	int ksq = pm->from, rsq = pm->to, ci = -1;
	for (int i = 2 * (int)us; i < 2 * (int)us + 2; i++)
		if ((p->castling & (1u << i)) && p->castle_rook[i] == rsq)
			ci = i;
	if (ci < 0 || position_piece_on(p, ksq) != make_piece(us, KING)) {
		snprintf(buf, size, "the castling right is lost");
		return buf;
	}
	int kto = position_castle_king_to(ksq, rsq), rto = position_castle_rook_to(ksq, rsq);
	bitboard movers = sq_bb(ksq) | sq_bb(rsq);
	bitboard path = (attacks_between(ksq, kto) | sq_bb(kto) | attacks_between(rsq, rto) | sq_bb(rto)) & ~movers;
	bitboard in_way = path & position_occupied(p);
	if (in_way) {
		snprintf(buf, size, "castling is blocked: %s is occupied", notation_square(bb_lsb(in_way), s));
		return buf;
	}
	if (p->checkers) {
		snprintf(buf, size, "the king may not castle out of check");
		return buf;
	}
	bitboard occ = position_occupied(p) ^ movers;
	bitboard kpath = attacks_between(ksq, kto) | sq_bb(kto);
	while (kpath) {
		int sq = bb_pop(&kpath);
		if (position_attackers_to(p, sq, occ) & p->by_color[them]) {
			snprintf(buf, size, "the king may not castle %s check: %s is attacked",
				 sq == kto ? "into" : "through", notation_square(sq, s));
			return buf;
		}
	}
	snprintf(buf, size, "castling is not legal here");
	return buf;
}

/* Why pm is not legal in p, which has legal moves. */
static const char *explain(const struct position *p, const struct premove *pm, char *buf, size_t size)
{
	char fs[3];
	enum piece pc = position_piece_on(p, pm->from);
	enum color us = (enum color)p->side;
	notation_square(pm->from, fs);
	if (pc == NO_PIECE) {
		snprintf(buf, size, "no piece of yours stands on %s any more", fs);
		return buf;
	}
	if (piece_color(pc) != us) {
		snprintf(buf, size, "your piece on %s was captured", fs);
		return buf;
	}
	if (pm->castling)
		return explain_castling(p, pm, buf, size);
	notation_explain_illegal(p, pm->from, pm->to, buf, size);
	if (!strcmp(buf, "the move is legal"))
		snprintf(buf, size, "the promotion piece does not fit the move");
	return buf;
}

enum premove_verdict premove_queue_resolve(struct premove_queue *q, const struct position *p, move *out, char *why,
					   size_t why_size)
{
	if (out)
		*out = MOVE_NONE;
	if (why && why_size)
		why[0] = '\0';
	if (q->n <= 0 || q->n > PREMOVE_DEPTH_MAX || p->side != q->side)
		return PREMOVE_NONE;

	struct premove pm = q->items[0];
	int rest = q->n - 1;
	memmove(q->items, q->items + 1, (size_t)rest * sizeof q->items[0]);
	q->n = rest;

	char text[PREMOVE_TEXT_MAX], reason[128];
	premove_write(&pm, p->chess960, text);
	struct move_list list;
	movegen_legal(p, &list);
	if (pm.from < 64 && pm.to < 64) {
		for (int i = 0; i < list.count; i++) {
			if (premove_matches(&pm, list.moves[i])) {
				if (out)
					*out = list.moves[i];
				return PREMOVE_PLAY;
			}
		}
	}

	if (pm.from >= 64 || pm.to >= 64)
		snprintf(reason, sizeof reason, "its squares are out of range");
	else if (list.count == 0)
		snprintf(reason, sizeof reason, "%s has no legal move", side_names[p->side & 1]);
	else
		explain(p, &pm, reason, sizeof reason);
	premove_queue_clear(q);
	if (why && why_size) {
		if (rest)
			snprintf(why, why_size, "premove %s discarded: %s; the %d premove%s queued after it went too",
				 text, reason, rest, rest == 1 ? "" : "s");
		else
			snprintf(why, why_size, "premove %s discarded: %s", text, reason);
	}
	return PREMOVE_DISCARD;
}

void premove_san(const struct position *base, enum color me, const struct premove *queue, int i, char *buf,
		 size_t size)
{
	static const char letter[PIECE_TYPE_NB] = { 'P', 'N', 'B', 'R', 'Q', 'K' };
	const struct premove *pm = &queue[i];
	struct position vb;
	char to[3] = { (char)('a' + sq_file(pm->to)), (char)('1' + sq_rank(pm->to)), '\0' };
	premove_board(base, me, queue, i, &vb);
	enum piece pc = (enum piece)vb.board[pm->from];
	if (pm->castling) {
		snprintf(buf, size, "%s", sq_file(pm->to) > sq_file(pm->from) ? "O-O" : "O-O-O");
		return;
	}
	if (pc == NO_PIECE || piece_color(pc) != me) {
		snprintf(buf, size, "%c%c-%s", 'a' + sq_file(pm->from), '1' + sq_rank(pm->from), to);
		return;
	}
	enum piece_type pt = piece_type(pc);
	bool takes = vb.board[pm->to] != NO_PIECE;
	if (pt == PAWN) {
		char promo[3] = "";
		if (pm->promo != PREMOVE_NO_PROMO)
			snprintf(promo, sizeof promo, "=%c", letter[pm->promo]);
		if (takes || sq_file(pm->to) != sq_file(pm->from))
			snprintf(buf, size, "%cx%s%s", 'a' + sq_file(pm->from), to, promo);
		else
			snprintf(buf, size, "%s%s", to, promo);
		return;
	}
	/* Another piece of the kind that reaches the square on this board
	 * too: name the file, else the rank, else both, as SAN does. */
	char from[3] = "";
	if (pt != KING) {
		bitboard occ = position_occupied(&vb);
		bitboard rivals = position_pieces(&vb, me, pt) & ~sq_bb(pm->from);
		bitboard reach = 0;
		for (int sq = 0; sq < 64; sq++)
			if ((rivals & sq_bb(sq)) && (attacks_piece(pt, sq, occ) & sq_bb(pm->to)))
				reach |= sq_bb(sq);
		bool same_file = false, same_rank = false;
		for (int sq = 0; sq < 64; sq++) {
			if (!(reach & sq_bb(sq)))
				continue;
			same_file |= sq_file(sq) == sq_file(pm->from);
			same_rank |= sq_rank(sq) == sq_rank(pm->from);
		}
		if (reach && !same_file)
			snprintf(from, sizeof from, "%c", 'a' + sq_file(pm->from));
		else if (reach && !same_rank)
			snprintf(from, sizeof from, "%c", '1' + sq_rank(pm->from));
		else if (reach)
			snprintf(from, sizeof from, "%c%c", 'a' + sq_file(pm->from), '1' + sq_rank(pm->from));
	}
	snprintf(buf, size, "%c%s%s%s", letter[pt], from, takes ? "x" : "", to);
}
