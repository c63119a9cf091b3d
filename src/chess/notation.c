/*
 * UCI and SAN notation. Reading always resolves text against the legal move
 * list of the position, so a move that parses is a move that can be played.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tchess/movegen.h"
#include "tchess/notation.h"

static const char piece_letters[PIECE_TYPE_NB] = { 'P', 'N', 'B', 'R', 'Q', 'K' };
static const char *const piece_names[PIECE_TYPE_NB] = { "pawn", "knight", "bishop", "rook", "queen", "king" };

const char *notation_square(int sq, char buf[3])
{
	buf[0] = (char)('a' + sq_file(sq));
	buf[1] = (char)('1' + sq_rank(sq));
	buf[2] = '\0';
	return buf;
}

const char *notation_quote(const char *text, size_t len, char *buf, size_t size)
{
	size_t max = size - 1, n = 0;
	for (size_t i = 0; i < len && n < max; i++) {
		unsigned char ch = (unsigned char)text[i];
		buf[n++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
	}
	if (len > max) {
		buf[n - 1] = '.';
		buf[n - 2] = '.';
	}
	buf[n] = '\0';
	return buf;
}

/* Printable copy of text for messages. */
static const char *quote(const char *text, size_t len, char buf[28])
{
	return notation_quote(text, len, buf, 25);
}

size_t uci_write(const struct position *p, move m, char *buf)
{
	if (m == MOVE_NONE) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	int from = move_from(m), to = move_to(m);
	if (move_kind(m) == MOVE_CASTLING && !p->chess960)
		to = position_castle_king_to(from, to);
	notation_square(from, buf);
	notation_square(to, buf + 2);
	if (move_kind(m) == MOVE_PROMOTION) {
		buf[4] = (char)(piece_letters[move_promotion(m)] - 'A' + 'a');
		buf[5] = '\0';
		return 5;
	}
	return 4;
}

int notation_parse_square(const char *s)
{
	if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
		return SQ_NONE;
	return make_sq(s[0] - 'a', s[1] - '1');
}

static int promo_from_char(char ch)
{
	switch (ch) {
	case 'q': case 'Q': return QUEEN;
	case 'r': case 'R': return ROOK;
	case 'b': case 'B': return BISHOP;
	case 'n': case 'N': return KNIGHT;
	default: return -1;
	}
}

enum tchess_err uci_parse(const struct position *p, const char *text, size_t len, move *out,
			  struct tchess_error *err)
{
	char q[28], why[96];
	if (len < 4 || len > 5)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, 0, "'%s' is not a UCI move like e2e4 or e7e8q",
					quote(text, len, q));
	int from = notation_parse_square(text), to = notation_parse_square(text + 2), promo = -1;
	if (from == SQ_NONE || to == SQ_NONE)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, from == SQ_NONE ? 0 : 2,
					"'%s' is not a UCI move like e2e4 or e7e8q", quote(text, len, q));
	if (len == 5 && (promo = promo_from_char(text[4])) < 0)
		return tchess_error_set(err, TCHESS_ERR_UCI_SYNTAX, 4, "'%s': '%c' is not a promotion piece (q, r, b, n)",
					quote(text, len, q), (text[4] >= 0x20 && text[4] < 0x7f) ? text[4] : '?');

	struct move_list list;
	movegen_legal(p, &list);
	for (int i = 0; i < list.count; i++) {
		move m = list.moves[i];
		if (move_from(m) != from)
			continue;
		if (move_kind(m) == MOVE_CASTLING) {
			/* King-takes-rook always names castling; the king's own
			 * destination does too unless a plain king move has the same
			 * squares (only possible in Chess960; the generator emits plain
			 * king moves first, so those have matched already). */
			int kto = position_castle_king_to(from, move_to(m));
			if (promo < 0 && (to == move_to(m) || (to == kto && kto != from))) {
				*out = m;
				return TCHESS_OK;
			}
			continue;
		}
		if (move_to(m) != to)
			continue;
		if (move_kind(m) == MOVE_PROMOTION) {
			if (promo < 0)
				return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 4,
							"'%s': a pawn reaching the last rank must promote (add q, r, b or n)",
							quote(text, len, q));
			if ((int)move_promotion(m) != promo)
				continue;
		} else if (promo >= 0) {
			return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 4, "'%s': only a pawn reaching the last rank promotes",
						quote(text, len, q));
		}
		*out = m;
		return TCHESS_OK;
	}
	return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: %s", quote(text, len, q),
				notation_explain_illegal(p, from, to, why, sizeof why));
}

/* Disambiguation a SAN needs: 0 none, 1 file, 2 rank, 3 both. */
static int san_disambiguation(const struct position *p, move m, const struct move_list *list)
{
	int from = move_from(m), to = move_to(m);
	enum piece pc = position_piece_on(p, from);
	bool others = false, same_file = false, same_rank = false;
	for (int i = 0; i < list->count; i++) {
		move o = list->moves[i];
		int of = move_from(o);
		if (of == from || move_to(o) != to || move_kind(o) == MOVE_CASTLING || position_piece_on(p, of) != pc)
			continue;
		others = true;
		if (sq_file(of) == sq_file(from))
			same_file = true;
		if (sq_rank(of) == sq_rank(from))
			same_rank = true;
	}
	if (!others)
		return 0;
	if (!same_file)
		return 1;
	if (!same_rank)
		return 2;
	return 3;
}

size_t san_write(const struct position *p, move m, char *buf)
{
	char *o = buf;
	int from = move_from(m), to = move_to(m);
	enum piece_type pt = piece_type(position_piece_on(p, from));
	struct move_list list;

	if (move_kind(m) == MOVE_CASTLING) {
		o += sprintf(o, to > from ? "O-O" : "O-O-O");
	} else {
		if (pt == PAWN) {
			if (position_is_capture(p, m)) {
				*o++ = (char)('a' + sq_file(from));
				*o++ = 'x';
			}
		} else {
			*o++ = piece_letters[pt];
			if (pt != KING) {
				movegen_legal(p, &list);
				int d = san_disambiguation(p, m, &list);
				if (d & 1)
					*o++ = (char)('a' + sq_file(from));
				if (d & 2)
					*o++ = (char)('1' + sq_rank(from));
			}
			if (position_is_capture(p, m))
				*o++ = 'x';
		}
		notation_square(to, o);
		o += 2;
		if (move_kind(m) == MOVE_PROMOTION) {
			*o++ = '=';
			*o++ = piece_letters[move_promotion(m)];
		}
	}

	struct position q = *p;
	struct undo u;
	position_make(&q, m, &u);
	if (q.checkers)
		*o++ = movegen_has_legal(&q) ? '+' : '#';
	*o = '\0';
	return (size_t)(o - buf);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

enum tchess_err san_parse(const struct position *p, const char *text, size_t len, move *out,
			  struct tchess_error *err)
{
	char q[28], s[24];
	size_t n = len;

	/* Trim surrounding blanks, then trailing check marks, annotations and e.p. */
	size_t start = 0;
	while (start < n && (text[start] == ' ' || text[start] == '\t'))
		start++;
	while (n > start && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	if (n - start == 0)
		return tchess_error_set(err, TCHESS_ERR_SAN_SYNTAX, 0, "empty move");
	if (n - start >= sizeof s)
		return tchess_error_set(err, TCHESS_ERR_SAN_SYNTAX, 0, "'%s' is too long for a move",
					quote(text, len, q));
	memcpy(s, text + start, n - start);
	n -= start;
	s[n] = '\0';
	for (;;) {
		if (n && strchr("+#!?", s[n - 1])) {
			n--;
		} else if (ends_with(s, n, "e.p.")) {
			n -= 4;
		} else if (ends_with(s, n, "ep") && n > 2 && s[n - 3] >= '1' && s[n - 3] <= '8') {
			n -= 2;
		} else {
			break;
		}
		while (n && s[n - 1] == ' ')
			n--;
	}
	s[n] = '\0';

	struct move_list list;
	movegen_legal(p, &list);

	/* Castling. */
	if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o") || !strcmp(s, "O-O-O") ||
	    !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o")) {
		bool king_side = n == 3;
		for (int i = 0; i < list.count; i++) {
			move m = list.moves[i];
			if (move_kind(m) == MOVE_CASTLING && (move_to(m) > move_from(m)) == king_side) {
				*out = m;
				return TCHESS_OK;
			}
		}
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: castling %s is not legal here",
					quote(text, len, q), king_side ? "kingside" : "queenside");
	}

	size_t i = 0;
	enum piece_type pt = PAWN;
	if (n && strchr("NBRQK", s[0]) && s[0]) {
		pt = (enum piece_type)(strchr("PNBRQK", s[0]) - "PNBRQK");
		i = 1;
	} else if (n && s[0] == 'P') {
		i = 1;
	}

	/* Promotion suffix: =Q, Q, =q, q (a lower-case b only after '='). */
	int promo = -1;
	if (n >= 2) {
		char last = s[n - 1];
		bool eq = s[n - 2] == '=';
		bool after_rank = s[n - 2] >= '1' && s[n - 2] <= '8';
		if ((eq || after_rank) && promo_from_char(last) >= 0 && (last != 'b' || eq)) {
			promo = promo_from_char(last);
			n -= eq ? 2 : 1;
		}
	}

	/* Destination: the last two characters. */
	if (n < i + 2 || notation_parse_square(s + n - 2) == SQ_NONE)
		return tchess_error_set(err, TCHESS_ERR_SAN_SYNTAX, 0, "'%s' is not a move in SAN", quote(text, len, q));
	int to = notation_parse_square(s + n - 2);
	size_t mid_end = n - 2;
	bool capture = false;
	if (mid_end > i && (s[mid_end - 1] == 'x' || s[mid_end - 1] == ':' || s[mid_end - 1] == '-')) {
		capture = s[mid_end - 1] != '-';
		mid_end--;
	}
	int from_file = -1, from_rank = -1;
	for (size_t k = i; k < mid_end; k++) {
		if (s[k] >= 'a' && s[k] <= 'h' && from_file < 0 && from_rank < 0)
			from_file = s[k] - 'a';
		else if (s[k] >= '1' && s[k] <= '8' && from_rank < 0)
			from_rank = s[k] - '1';
		else
			return tchess_error_set(err, TCHESS_ERR_SAN_SYNTAX, start + k, "'%s' is not a move in SAN",
						quote(text, len, q));
	}
	if (pt == PAWN && promo < 0 && (sq_rank(to) == 0 || sq_rank(to) == 7) && from_rank < 0) {
		/* Pawn to the last rank without a piece: say so rather than "illegal". */
		for (int k = 0; k < list.count; k++)
			if (move_kind(list.moves[k]) == MOVE_PROMOTION && move_to(list.moves[k]) == to)
				return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0,
							"%s: a pawn reaching the last rank must promote (add =Q, =R, =B or =N)",
							quote(text, len, q));
	}

	move found = MOVE_NONE;
	int matches = 0;
	char alt[2][SAN_MAX];
	for (int k = 0; k < list.count; k++) {
		move m = list.moves[k];
		int from = move_from(m);
		if (move_kind(m) == MOVE_CASTLING || move_to(m) != to)
			continue;
		if (piece_type(position_piece_on(p, from)) != pt)
			continue;
		if (from_file >= 0 && sq_file(from) != from_file)
			continue;
		if (from_rank >= 0 && sq_rank(from) != from_rank)
			continue;
		if (move_kind(m) == MOVE_PROMOTION ? (int)move_promotion(m) != promo : promo >= 0)
			continue;
		if (matches < 2)
			san_write(p, m, alt[matches]);
		matches++;
		found = m;
	}
	if (matches == 1) {
		if (capture && !position_is_capture(p, found))
			return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: marked as a capture but %s captures nothing",
						quote(text, len, q), alt[0]);
		*out = found;
		return TCHESS_OK;
	}
	if (matches > 1)
		return tchess_error_set(err, TCHESS_ERR_AMBIGUOUS, 0, "%s is ambiguous: %s, %s%s", quote(text, len, q),
					alt[0], alt[1], matches > 2 ? " and more" : "");
	char sqname[3];
	if (promo >= 0 && pt != PAWN)
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: only a pawn promotes", quote(text, len, q));
	if (promo >= 0 && sq_rank(to) != 0 && sq_rank(to) != 7)
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: a pawn promotes only on the last rank",
					quote(text, len, q));
	return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "%s: no %s of %s can move to %s", quote(text, len, q),
				piece_names[pt], p->side == WHITE ? "White's" : "Black's", notation_square(to, sqname));
}

static bool looks_like_uci(const char *s, size_t len)
{
	if (len != 4 && len != 5)
		return false;
	if (notation_parse_square(s) == SQ_NONE || notation_parse_square(s + 2) == SQ_NONE)
		return false;
	return len == 4 || promo_from_char(s[4]) >= 0;
}

enum tchess_err notation_parse_move(const struct position *p, const char *text, size_t len, move *out,
				    struct tchess_error *err)
{
	while (len && (text[0] == ' ' || text[0] == '\t')) {
		text++;
		len--;
	}
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (looks_like_uci(text, len))
		return uci_parse(p, text, len, out, err);
	return san_parse(p, text, len, out, err);
}

static char notation_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

enum tchess_err notation_parse_typed(const struct position *p, const char *text, size_t len, move *out,
				     struct tchess_error *err)
{
	/* The readings: as typed; the squares in lowercase (E1G1, EXD5,
	 * NF3; a leading B stays the bishop, a promotion piece stays); a
	 * lowercase piece letter as the piece (nf3, and bc4 both ways);
	 * castling with o for O; "bc3" as the b-pawn's capture too, since a
	 * bishop's reading of it must not hide one. Each that is legal counts
	 * once. */
	enum { READINGS = 5, TYPED_MAX = 16 };
	char r[READINGS][TYPED_MAX];
	move found[READINGS];
	char san[READINGS][SAN_MAX];
	int n = 0;
	while (len && (text[0] == ' ' || text[0] == '\t')) {
		text++;
		len--;
	}
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len == 0 || len + 1 >= TYPED_MAX)
		return notation_parse_move(p, text, len, out, err);
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		r[0][i] = c;
		r[1][i] = (i == 0 && strchr("KQRBN", c)) || (i > 0 && text[i - 1] == '=') ? c : notation_lower(c);
		r[2][i] = i == 0 && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : notation_lower(c);
		r[3][i] = c == 'o' ? 'O' : c;
	}
	for (int k = 0; k < 4; k++)
		r[k][len] = '\0';
	r[4][0] = '\0';
	if (text[0] == 'b' && len >= 3 && text[1] >= 'a' && text[1] <= 'h')
		snprintf(r[4], sizeof r[4], "bx%.*s", (int)(len - 1), text + 1);
	if (len >= 4) {
		char low[TYPED_MAX];
		for (size_t i = 0; i <= len; i++)
			low[i] = notation_lower(r[0][i]);
		if (looks_like_uci(low, len))
			memcpy(r[1], low, len + 1);
	}
	/* A lowercase first letter names a piece only where it is one. */
	if (!strchr("kqrbn", text[0]))
		r[2][0] = '\0';
	enum tchess_err first = TCHESS_OK;
	for (int k = 0; k < READINGS; k++) {
		move m;
		struct tchess_error e;
		enum tchess_err rc = r[k][0] ? notation_parse_move(p, r[k], strlen(r[k]), &m, k ? &e : err)
					     : TCHESS_ERR_SAN_SYNTAX;
		if (k == 0)
			first = rc;
		if (rc != TCHESS_OK)
			continue;
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen = seen || found[i] == m;
		if (!seen) {
			san_write(p, m, san[n]);
			found[n++] = m;
		}
	}
	if (n == 1) {
		*out = found[0];
		return TCHESS_OK;
	}
	if (n > 1) {
		char q[28];
		return tchess_error_set(err, TCHESS_ERR_AMBIGUOUS, 0, "%s is ambiguous: %s or %s%s",
					quote(text, len, q), san[0], san[1], n > 2 ? " or more" : "");
	}
	return first;
}

const char *notation_explain_illegal(const struct position *p, int from, int to, char *buf, size_t size)
{
	static const char *const side_names[2] = { "White", "Black" };
	char fs[3], ts[3];
	enum piece pc = position_piece_on(p, from);
	enum color us = (enum color)p->side;
	notation_square(from, fs);
	notation_square(to, ts);

	if (pc == NO_PIECE) {
		snprintf(buf, size, "there is no piece on %s", fs);
		return buf;
	}
	enum piece_type pt = piece_type(pc);
	if (piece_color(pc) != us) {
		snprintf(buf, size, "it is %s's move and the %s on %s is %s's", side_names[us], piece_names[pt], fs,
			 side_names[!us]);
		return buf;
	}
	struct move_list list;
	movegen_legal(p, &list);
	for (int i = 0; i < list.count; i++) {
		move m = list.moves[i];
		if (move_from(m) == from && (move_to(m) == to ||
		    (move_kind(m) == MOVE_CASTLING && position_castle_king_to(from, move_to(m)) == to))) {
			snprintf(buf, size, "the move is legal");
			return buf;
		}
	}
	if (from == to) {
		snprintf(buf, size, "the %s on %s must move to another square", piece_names[pt], fs);
		return buf;
	}
	enum piece target = position_piece_on(p, to);
	if (target != NO_PIECE && piece_color(target) == us &&
	    !(pt == KING && piece_type(target) == ROOK)) {
		snprintf(buf, size, "%s holds your own %s", ts, piece_names[piece_type(target)]);
		return buf;
	}

	/* Is the move geometrically a move of this piece? */
	bitboard occ = position_occupied(p);
	bool shape = false;
	if (pt == PAWN) {
		int up = us == WHITE ? 8 : -8;
		if (to == from + up)
			shape = target == NO_PIECE;
		else if (to == from + 2 * up && relative_rank(us, from) == 1)
			shape = target == NO_PIECE && position_piece_on(p, from + up) == NO_PIECE;
		else if (attacks_pawn(us, from) & sq_bb(to))
			shape = target != NO_PIECE || to == p->ep;
		if (!shape) {
			if ((to == from + up || to == from + 2 * up) && target != NO_PIECE)
				snprintf(buf, size, "a pawn cannot capture straight ahead (%s is occupied)", ts);
			else if ((attacks_pawn(us, from) & sq_bb(to)) && target == NO_PIECE)
				snprintf(buf, size, "a pawn moves diagonally only to capture, and %s is empty", ts);
			else
				snprintf(buf, size, "the pawn on %s cannot move to %s", fs, ts);
			return buf;
		}
	} else if (pt == KING && (sq_rank(from) == sq_rank(to)) && (from - to > 1 || to - from > 1)) {
		snprintf(buf, size, "castling is not possible here (rights lost, squares occupied or attacked, or in check)");
		return buf;
	} else {
		bitboard reach = attacks_piece(pt, from, occ);
		shape = (reach & sq_bb(to)) != 0;
		if (!shape) {
			bitboard empty_reach = attacks_piece(pt, from, 0);
			if (empty_reach & sq_bb(to))
				snprintf(buf, size, "the %s on %s is blocked on its way to %s", piece_names[pt], fs, ts);
			else
				snprintf(buf, size, "a %s cannot move from %s to %s", piece_names[pt], fs, ts);
			return buf;
		}
	}
	if (p->checkers)
		snprintf(buf, size, "%s is in check and this move does not answer it", side_names[us]);
	else if (pt == KING)
		snprintf(buf, size, "the king would be in check on %s", ts);
	else
		snprintf(buf, size, "the %s on %s is pinned: moving it would expose the king", piece_names[pt], fs);
	return buf;
}

move notation_move_from_squares(const struct position *p, int from, int to, int promo, int *n)
{
	struct move_list ml;
	move found = MOVE_NONE;
	*n = 0;
	movegen_legal(p, &ml);
	for (int i = 0; i < ml.count; i++) {
		move m = ml.moves[i];
		if (move_from(m) != from)
			continue;
		int mto = move_to(m);
		bool hit = mto == to;
		if (move_kind(m) == MOVE_CASTLING && !p->chess960)
			hit = hit || position_castle_king_to(from, mto) == to;
		if (!hit)
			continue;
		if (move_kind(m) == MOVE_PROMOTION && promo && (int)move_promotion(m) != promo)
			continue;
		(*n)++;
		found = m;
	}
	return found;
}
