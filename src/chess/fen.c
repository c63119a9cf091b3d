/*
 * FEN reader and writer. The reader walks the input once with a byte cursor
 * so that every error can name its offset; the position is built in a local
 * copy and handed back only when it has passed every check.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/notation.h"

static const char piece_chars[] = " PNBRQK  pnbrqk";

struct cursor {
	const char *s;
	size_t len, pos;
	struct tchess_error *err;
};

static int peek(const struct cursor *c) { return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1; }

static void skip_spaces(struct cursor *c)
{
	while (peek(c) == ' ' || peek(c) == '\t')
		c->pos++;
}

/* Extent of the next whitespace-delimited field. */
static size_t field_end(const struct cursor *c)
{
	size_t e = c->pos;
	while (e < c->len && c->s[e] != ' ' && c->s[e] != '\t' && c->s[e] != '\n' && c->s[e] != '\r')
		e++;
	return e;
}

/* A field, printable and shortened, for quoting in messages. */
static const char *quote(const struct cursor *c, size_t start, size_t end, char buf[24])
{
	return notation_quote(c->s + start, end - start, buf, 21);
}

static enum tchess_err parse_placement(struct cursor *c, struct position *p)
{
	int rank = 7, file = 0;
	size_t start = c->pos;
	for (;;) {
		int ch = peek(c);
		if (ch == -1 || ch == ' ' || ch == '\t') {
			if (rank != 0 || file != 8)
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: %d rank%s described, 8 needed",
							8 - rank - (file < 8), (8 - rank - (file < 8)) == 1 ? "" : "s");
			return TCHESS_OK;
		}
		if (ch == '/') {
			if (file != 8)
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: rank %d has %d square%s, 8 needed", rank + 1,
							file, file == 1 ? "" : "s");
			if (rank == 0)
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: more than 8 ranks");
			rank--;
			file = 0;
		} else if (ch >= '1' && ch <= '8') {
			file += ch - '0';
			if (file > 8)
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: rank %d has more than 8 squares", rank + 1);
		} else {
			const char *hit = ch > 0 ? strchr(piece_chars, ch) : NULL;
			if (!hit || ch == ' ')
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: unexpected character '%c'",
							(ch >= 0x20 && ch < 0x7f) ? ch : '?');
			if (file >= 8)
				return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos,
							"placement field: rank %d has more than 8 squares", rank + 1);
			enum piece pc = (enum piece)(hit - piece_chars);
			int sq = make_sq(file, rank);
			p->board[sq] = (uint8_t)pc;
			p->by_type[piece_type(pc)] |= sq_bb(sq);
			p->by_color[piece_color(pc)] |= sq_bb(sq);
			file++;
		}
		c->pos++;
		if (c->pos - start > 100)
			return tchess_error_set(c->err, TCHESS_ERR_FEN_PLACEMENT, c->pos, "placement field: too long");
	}
}

static enum tchess_err parse_side(struct cursor *c, struct position *p)
{
	size_t end = field_end(c);
	char q[24];
	if (end - c->pos == 1 && (c->s[c->pos] == 'w' || c->s[c->pos] == 'b')) {
		p->side = c->s[c->pos] == 'w' ? WHITE : BLACK;
		c->pos = end;
		return TCHESS_OK;
	}
	if (end == c->pos)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_SIDE, c->pos, "side-to-move field: missing");
	return tchess_error_set(c->err, TCHESS_ERR_FEN_SIDE, c->pos,
				"side-to-move field: '%s' is not 'w' or 'b'", quote(c, c->pos, end, q));
}

/* Finds the outermost rook of colour col on the given side of its king on
 * the back rank; SQ_NONE if there is none. */
static int outer_rook(const struct position *p, enum color col, bool king_side)
{
	int back = col == WHITE ? 0 : 7;
	bitboard kings = position_pieces(p, col, KING) & rank_bb(back);
	if (!kings || bb_many(kings))
		return SQ_NONE;
	int kf = sq_file(bb_lsb(kings));
	if (king_side) {
		for (int f = 7; f > kf; f--)
			if (p->board[make_sq(f, back)] == make_piece(col, ROOK))
				return make_sq(f, back);
	} else {
		for (int f = 0; f < kf; f++)
			if (p->board[make_sq(f, back)] == make_piece(col, ROOK))
				return make_sq(f, back);
	}
	return SQ_NONE;
}

static enum tchess_err parse_castling(struct cursor *c, struct position *p)
{
	size_t start = c->pos, end = field_end(c);
	char q[24];
	for (int i = 0; i < 4; i++)
		p->castle_rook[i] = SQ_NONE;
	p->castling = 0;
	if (end == start)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, c->pos, "castling field: missing");
	if (end - start == 1 && c->s[start] == '-') {
		c->pos = end;
		return TCHESS_OK;
	}
	if (end - start > 4)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, start,
					"castling field: '%s' has more than four rights", quote(c, start, end, q));
	for (size_t i = start; i < end; i++) {
		char ch = c->s[i];
		enum color col;
		int rook = SQ_NONE;
		bool king_side;
		if (ch == 'K' || ch == 'Q' || ch == 'k' || ch == 'q') {
			col = (ch == 'K' || ch == 'Q') ? WHITE : BLACK;
			king_side = ch == 'K' || ch == 'k';
			rook = outer_rook(p, col, king_side);
		} else if ((ch >= 'A' && ch <= 'H') || (ch >= 'a' && ch <= 'h')) {
			col = ch <= 'H' ? WHITE : BLACK;
			int back = col == WHITE ? 0 : 7;
			int f = col == WHITE ? ch - 'A' : ch - 'a';
			bitboard kings = position_pieces(p, col, KING) & rank_bb(back);
			if (!kings || bb_many(kings))
				return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, i,
							"castling field: '%s' gives %s a right but its king is not on its first rank",
							quote(c, start, end, q), col == WHITE ? "White" : "Black");
			king_side = f > sq_file(bb_lsb(kings));
			if (p->board[make_sq(f, back)] == make_piece(col, ROOK) && f != sq_file(bb_lsb(kings)))
				rook = make_sq(f, back);
		} else {
			return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, i,
						"castling field: '%s' has an unknown letter", quote(c, start, end, q));
		}
		if (rook == SQ_NONE)
			return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, i,
						"castling field: '%s' names a right with no %s rook and king on %s first rank",
						quote(c, start, end, q), col == WHITE ? "white" : "black",
						col == WHITE ? "White's" : "Black's");
		int idx = (col == WHITE ? 0 : 2) + (king_side ? 0 : 1);
		if (p->castling & (1u << idx))
			return tchess_error_set(c->err, TCHESS_ERR_FEN_CASTLING, i,
						"castling field: '%s' repeats a right", quote(c, start, end, q));
		p->castling |= (uint8_t)(1u << idx);
		p->castle_rook[idx] = (uint8_t)rook;
	}
	/* Standard chess has its kings on e1/e8 and castling rooks on the corners. */
	for (int i = 0; i < 4; i++) {
		if (!(p->castling & (1u << i)))
			continue;
		enum color col = i < 2 ? WHITE : BLACK;
		int back = col == WHITE ? 0 : 7;
		if (position_king(p, col) != make_sq(4, back) ||
		    p->castle_rook[i] != make_sq(i % 2 == 0 ? 7 : 0, back))
			p->chess960 = true;
	}
	c->pos = end;
	return TCHESS_OK;
}

static enum tchess_err parse_ep(struct cursor *c, struct position *p, int *ep)
{
	size_t start = c->pos, end = field_end(c);
	char q[24];
	*ep = SQ_NONE;
	if (end - start == 1 && c->s[start] == '-') {
		c->pos = end;
		return TCHESS_OK;
	}
	if (end - start != 2 || c->s[start] < 'a' || c->s[start] > 'h' || c->s[start + 1] < '1' ||
	    c->s[start + 1] > '8')
		return tchess_error_set(c->err, TCHESS_ERR_FEN_EP, start,
					"en-passant field: '%s' is not a square or '-'", quote(c, start, end, q));
	int sq = make_sq(c->s[start] - 'a', c->s[start + 1] - '1');
	enum color us = (enum color)p->side, them = (enum color)!us;
	int want_rank = us == WHITE ? 5 : 2;
	if (sq_rank(sq) != want_rank)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_EP, start,
					"en-passant field: '%s' is not on rank %d with %s to move",
					quote(c, start, end, q), want_rank + 1, us == WHITE ? "White" : "Black");
	int pushed = sq + (us == WHITE ? -8 : 8), origin = sq + (us == WHITE ? 8 : -8);
	if (p->board[pushed] != make_piece(them, PAWN) || p->board[sq] != NO_PIECE || p->board[origin] != NO_PIECE)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_EP, start,
					"en-passant field: '%s' is inconsistent: no %s pawn can have just moved two squares past it",
					quote(c, start, end, q), them == WHITE ? "white" : "black");
	*ep = sq;
	c->pos = end;
	return TCHESS_OK;
}

static enum tchess_err parse_counter(struct cursor *c, const char *name, unsigned max, unsigned *out)
{
	size_t start = c->pos, end = field_end(c);
	char q[24];
	unsigned long v = 0;
	if (end == start || end - start > 6)
		goto bad;
	for (size_t i = start; i < end; i++) {
		if (c->s[i] < '0' || c->s[i] > '9')
			goto bad;
		v = v * 10 + (unsigned long)(c->s[i] - '0');
	}
	if (v > max)
		return tchess_error_set(c->err, TCHESS_ERR_FEN_COUNTER, start, "%s field: %lu is larger than %u",
					name, v, max);
	*out = (unsigned)v;
	c->pos = end;
	return TCHESS_OK;
bad:
	return tchess_error_set(c->err, TCHESS_ERR_FEN_COUNTER, start, "%s field: '%s' is not a number", name,
				quote(c, start, end, q));
}

/* Checks what the move generator relies on. */
static enum tchess_err validate(const struct position *p, struct tchess_error *err, size_t end)
{
	static const char *const names[2] = { "White", "Black" };
	for (int col = 0; col < 2; col++) {
		int kings = position_count(p, (enum color)col, KING);
		if (kings != 1)
			return tchess_error_set(err, TCHESS_ERR_POSITION, 0, "placement field: %s has %d kings, 1 needed",
						names[col], kings);
		int pawns = position_count(p, (enum color)col, PAWN);
		int extra = 0;
		static const int start_count[PIECE_TYPE_NB] = { 8, 2, 2, 2, 1, 1 };
		for (int pt = KNIGHT; pt <= QUEEN; pt++) {
			int n = position_count(p, (enum color)col, (enum piece_type)pt);
			if (n > start_count[pt])
				extra += n - start_count[pt];
		}
		if (pawns > 8 || pawns + extra > 8)
			return tchess_error_set(err, TCHESS_ERR_POSITION, 0,
						"placement field: %s has more pieces than promotions can explain",
						names[col]);
	}
	if (p->by_type[PAWN] & (rank_bb(0) | rank_bb(7)))
		return tchess_error_set(err, TCHESS_ERR_POSITION, 0, "placement field: a pawn stands on rank 1 or 8");
	enum color them = (enum color)!p->side;
	if (position_attackers_to(p, position_king(p, them), position_occupied(p)) & p->by_color[p->side])
		return tchess_error_set(err, TCHESS_ERR_POSITION, end, "%s is in check but it is %s's move",
					names[them], names[p->side]);
	return TCHESS_OK;
}

enum tchess_err fen_parse_n(struct position *out, const char *fen, size_t len, struct tchess_error *err)
{
	struct position p;
	struct cursor c = { fen, len, 0, err };
	enum tchess_err rc;
	int ep = SQ_NONE;
	unsigned half = 0, full = 1;

	if (!fen)
		return tchess_error_set(err, TCHESS_ERR_FEN_SYNTAX, 0, "no FEN given");
	memset(&p, 0, sizeof p);
	p.ep = SQ_NONE;

	skip_spaces(&c);
	if (peek(&c) == -1)
		return tchess_error_set(err, TCHESS_ERR_FEN_SYNTAX, c.pos, "empty FEN");
	if ((rc = parse_placement(&c, &p)) != TCHESS_OK)
		return rc;
	skip_spaces(&c);
	if ((rc = parse_side(&c, &p)) != TCHESS_OK)
		return rc;
	skip_spaces(&c);
	/* Kings must be known before castling letters can be resolved. */
	if ((rc = validate(&p, err, c.pos)) != TCHESS_OK)
		return rc;
	if ((rc = parse_castling(&c, &p)) != TCHESS_OK)
		return rc;
	skip_spaces(&c);
	if (peek(&c) == -1)
		return tchess_error_set(err, TCHESS_ERR_FEN_EP, c.pos, "en-passant field: missing");
	if ((rc = parse_ep(&c, &p, &ep)) != TCHESS_OK)
		return rc;
	skip_spaces(&c);
	if (peek(&c) != -1 && peek(&c) != '\n' && peek(&c) != '\r') {
		if ((rc = parse_counter(&c, "halfmove clock", FEN_COUNTER_MAX, &half)) != TCHESS_OK)
			return rc;
		skip_spaces(&c);
		if ((rc = parse_counter(&c, "fullmove number", FEN_COUNTER_MAX, &full)) != TCHESS_OK)
			return rc;
		if (full == 0)
			full = 1;
		skip_spaces(&c);
	}
	while (peek(&c) == '\n' || peek(&c) == '\r' || peek(&c) == ' ' || peek(&c) == '\t')
		c.pos++;
	if (peek(&c) != -1)
		return tchess_error_set(err, TCHESS_ERR_FEN_SYNTAX, c.pos, "unexpected text after the last field");

	p.halfmove = (uint16_t)half;
	p.fullmove = (uint16_t)full;
	position_refresh(&p, ep);
	if (bb_count(p.checkers) > 2)
		return tchess_error_set(err, TCHESS_ERR_POSITION, 0, "%s is in check from %d pieces at once",
					p.side == WHITE ? "White" : "Black", bb_count(p.checkers));
	*out = p;
	return TCHESS_OK;
}

enum tchess_err fen_parse(struct position *p, const char *fen, struct tchess_error *err)
{
	if (!fen)
		return tchess_error_set(err, TCHESS_ERR_FEN_SYNTAX, 0, "no FEN given");
	return fen_parse_n(p, fen, strlen(fen), err);
}

size_t fen_write(const struct position *p, char *buf)
{
	char *o = buf;
	for (int rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (int file = 0; file < 8; file++) {
			enum piece pc = position_piece_on(p, make_sq(file, rank));
			if (pc == NO_PIECE) {
				empty++;
				continue;
			}
			if (empty)
				*o++ = (char)('0' + empty);
			empty = 0;
			*o++ = piece_chars[pc];
		}
		if (empty)
			*o++ = (char)('0' + empty);
		if (rank)
			*o++ = '/';
	}
	*o++ = ' ';
	*o++ = p->side == WHITE ? 'w' : 'b';
	*o++ = ' ';
	if (!p->castling) {
		*o++ = '-';
	} else {
		for (int i = 0; i < 4; i++) {
			if (!(p->castling & (1u << i)))
				continue;
			enum color col = i < 2 ? WHITE : BLACK;
			bool king_side = i % 2 == 0;
			char letter = king_side ? 'K' : 'Q';
			/* X-FEN: a file letter only when K/Q would name another rook. */
			if (p->chess960 && outer_rook(p, col, king_side) != p->castle_rook[i])
				letter = (char)('A' + sq_file(p->castle_rook[i]));
			*o++ = col == WHITE ? letter : (char)(letter - 'A' + 'a');
		}
	}
	*o++ = ' ';
	if (p->ep == SQ_NONE) {
		*o++ = '-';
	} else {
		*o++ = (char)('a' + sq_file(p->ep));
		*o++ = (char)('1' + sq_rank(p->ep));
	}
	o += sprintf(o, " %u %u", (unsigned)p->halfmove, (unsigned)p->fullmove);
	return (size_t)(o - buf);
}
