/*
 * Moves and premoves: picked up and dropped, clicked or typed, checked with
 * libtchess before anything is sent; premoves shown until the server's
 * verdict; completion of a typed prefix.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "session-internal.h"
#include "tchess/movegen.h"

bitboard session_destinations(const struct session *s, int from)
{
	struct position p;
	bitboard bb = 0;
	session_rules_position(s, &p);
	if (session_my_turn(s)) {
		struct move_list ml;
		movegen_legal(&p, &ml);
		for (int i = 0; i < ml.count; i++) {
			move m = ml.moves[i];
			if (move_from(m) != from)
				continue;
			int to = move_to(m);
			/* The king castles onto its destination, or onto
			 * its own rook. */
			if (move_kind(m) == MOVE_CASTLING && !p.chess960)
				bb |= sq_bb(to) | sq_bb(position_castle_king_to(from, to));
			else
				bb |= sq_bb(to);
		}
		return bb;
	}
	/* Premove destinations: every square the premove rules accept. */
	for (int to = 0; to < 64; to++) {
		struct premove pm = { (uint8_t)from, (uint8_t)to, PREMOVE_NO_PROMO, false };
		enum piece pc = (enum piece)p.board[from];
		if (pc != NO_PIECE && piece_type(pc) == PAWN && (sq_rank(to) == 0 || sq_rank(to) == 7))
			pm.promo = QUEEN;
		if (premove_validate(&p, (enum color)s->me, s->premoves.items, s->premoves.n, &pm, &s->view.game.rules,
				     NULL) == TCHESS_OK)
			bb |= sq_bb(to);
	}
	return bb;
}

bool session_premoves_text(const struct session *s, char *buf, size_t size)
{
	struct position p;
	size_t used = 0;
	buf[0] = '\0';
	if (s->premoves.n == 0 || s->me < 0 || session_over(s))
		return false;
	session_rules_position(s, &p);
	used = (size_t)snprintf(buf, size, "premove%s:", s->premoves.n > 1 ? "s" : "");
	for (int i = 0; i < s->premoves.n && used < size; i++) {
		char t[SAN_MAX];
		premove_san(&p, (enum color)s->me, s->premoves.items, i, t, sizeof t);
		if (s->premoves.n > 1)
			used += (size_t)snprintf(buf + used, size - used, " %d. %s", i + 1, t);
		else
			used += (size_t)snprintf(buf + used, size - used, " %s", t);
	}
	if (used < size)
		snprintf(buf + used, size - used, "   x clears");
	return true;
}

unsigned session_send_move(struct session *s, move m)
{
	struct session_req r = { .kind = SESSION_REQ_MOVE };
	r.ply = (int64_t)s->view.game.n_plies;
	uci_write(&s->view.game.pos, m, r.moves[0]);
	s->pending = true;
	s->pending_move = m;
	s->pending_ply = r.ply;
	s->selected = SQ_NONE;
	s->promo = false;
	s->message[0] = '\0';
	session_push(s, &r);
	session_relayout_moves(s);
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

unsigned session_send_premoves(struct session *s)
{
	struct session_req r = { .kind = SESSION_REQ_PREMOVES };
	r.ply = (int64_t)session_plies(s) + (session_pending_commits(s) ? 1 : 0);
	r.n = s->premoves.n;
	for (int i = 0; i < s->premoves.n && i < PROTOCOL_PREMOVES_MAX; i++)
		premove_write(&s->premoves.items[i], s->view.game.start.chess960, r.moves[i]);
	session_push(s, &r);
	return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
}

unsigned session_premoves_resend(struct session *s)
{
	if (s->premoves_stale_seq <= 0 || s->view.seq < s->premoves_stale_seq)
		return 0;
	s->premoves_stale_seq = 0;
	if (s->premoves_out > 0)
		s->premoves_out--;
	/* Played out, the game over or my move now: nothing is left to
	 * queue, and the server's (empty) queue is the one shown. */
	if (s->premoves.n == 0 || session_over(s) || session_my_turn(s)) {
		if (s->premoves.n > 0 && !session_over(s))
			session_say(s, true, "premove too late: the move came first; your move");
		session_take_server_premoves(s);
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return session_send_premoves(s);
}

static unsigned session_add_premove(struct session *s, struct premove pm)
{
	struct position p;
	struct tchess_error err = { 0 };
	struct premove_queue q = s->premoves;
	char text[SAN_MAX];
	session_rules_position(s, &p);
	if (premove_queue_push(&q, &p, (enum color)s->me, pm, &s->view.game.rules, &err) != TCHESS_OK) {
		session_say(s, true, "premove refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	s->premoves = q;
	s->selected = SQ_NONE;
	s->promo = false;
	premove_san(&p, (enum color)s->me, q.items, q.n - 1, text, sizeof text);
	session_say(s, false, "premove %d queued: %s   x clears", q.n, text);
	return session_send_premoves(s);
}

/* Whether pawn from→to reaches the last rank. */
static bool session_is_promotion(const struct position *p, int from, int to)
{
	enum piece pc = (enum piece)p->board[from];
	return pc != NO_PIECE && piece_type(pc) == PAWN && (sq_rank(to) == 7 || sq_rank(to) == 0);
}

/* Both seats of a hotseat are here: a move made before the last one is
 * in is the other player's, not a premove. True (and said) then. */
static bool session_hotseat_busy(struct session *s)
{
	if (!s->hotseat || !s->pending)
		return false;
	s->selected = SQ_NONE;
	session_say(s, true, "the last move is on its way: a moment");
	return true;
}

unsigned session_try(struct session *s, int from, int to, int promo)
{
	struct position p;
	session_rules_position(s, &p);
	/* The fold's rule; not my turn is a premove. */
	switch (fold_may_move(&s->view, s->me, NULL)) {
	case FOLD_MAY_OVER:
		session_say(s, true, "the game is over");
		return SESSION_DIRTY_STATUS;
	case FOLD_MAY_NOT_STARTED:
		session_say(s, true, "the game has not started: waiting for an opponent");
		return SESSION_DIRTY_STATUS;
	case FOLD_MAY_ADJOURNED:
		session_say(s, true, "the game is adjourned: P %s", s->hotseat ? "resumes" : "asks to resume");
		return SESSION_DIRTY_STATUS;
	default:
		break;
	}
	if (session_hotseat_busy(s))
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	enum session_req_kind sent;
	if (session_undo_sent(s, &sent) && sent == SESSION_REQ_DONE) {
		s->selected = SQ_NONE;
		session_say(s, true, "done is on its way: premoves once the server has it");
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	}
	if (session_provisional_mine(s)) {
		/* One provisional move a turn (the server answers 409 to a
		 * second), and no premove before the turn is done. */
		s->selected = SQ_NONE;
		session_say(s, true, "your move is provisional: u takes it back, d when done");
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	}
	if (session_my_turn(s)) {
		int n;
		move m = notation_move_from_squares(&p, from, to, promo, &n);
		if (n > 1) {
			s->promo = true;
			s->promo_from = from;
			s->promo_to = to;
			session_say(s, false, "promote to: q queen, r rook, b bishop, n knight (Esc cancels)");
			return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
		}
		if (n == 0) {
			char why[160];
			notation_explain_illegal(&p, from, to, why, sizeof why);
			/* The piece goes back, as on a real board. */
			s->selected = SQ_NONE;
			session_say(s, true, "illegal: %s", why);
			return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
		}
		return session_send_move(s, m);
	}
	if (session_is_promotion(&p, from, to) && !promo) {
		s->promo = true;
		s->promo_from = from;
		s->promo_to = to;
		session_say(s, false, "premove promotes to: q queen, r rook, b bishop, n knight (Esc cancels)");
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	}
	struct premove pm = { (uint8_t)from, (uint8_t)to, (uint8_t)(promo ? promo : PREMOVE_NO_PROMO), false };
	return session_add_premove(s, pm);
}

/* Pick up, drop or re-pick at sq. */
unsigned session_pick(struct session *s, int sq)
{
	struct position p;
	if (sq == SQ_NONE || s->promo)
		return 0;
	session_position(s, &p);
	enum piece pc = (enum piece)p.board[sq];
	bool mine = pc != NO_PIECE && (int)piece_color(pc) == s->me;
	if (s->selected == sq) {
		s->selected = SQ_NONE;
		return SESSION_DIRTY_BOARD;
	}
	if (s->selected == SQ_NONE || (mine && !(session_destinations(s, s->selected) & sq_bb(sq)))) {
		if (!mine) {
			char name[3];
			session_say(s, true, "no piece of yours on %s", notation_square(sq, name));
			return SESSION_DIRTY_STATUS;
		}
		s->selected = sq;
		s->message[0] = '\0';
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return session_try(s, s->selected, sq, 0);
}

/* Reads a typed move: any legal move when it is my turn; a premove in UCI
 * form (or SAN read as if it were my move) otherwise. */
unsigned session_submit_text(struct session *s, const char *text)
{
	struct position p;
	struct tchess_error err = { 0 };
	size_t len = strlen(text);
	if (session_hotseat_busy(s))
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	session_rules_position(s, &p);
	if (session_over(s) || !fold_running(&s->view) || fold_adjourned(&s->view) || session_my_turn(s) ||
	    session_provisional_mine(s)) {
		move m;
		if (!fold_running(&s->view) || fold_adjourned(&s->view) || session_provisional_mine(s))
			return session_try(s, 0, 0, 0);
		if (notation_parse_typed(&p, text, len, &m, &err) != TCHESS_OK) {
			session_say(s, true, "illegal: %s", err.message);
			return SESSION_DIRTY_STATUS;
		}
		return session_send_move(s, m);
	}
	struct premove pm;
	char low[SESSION_PROMPT_MAX];
	snprintf(low, sizeof low, "%s", text);
	for (char *c = low; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	if (premove_parse_uci(text, len, &pm, NULL) == TCHESS_OK || premove_parse_uci(low, strlen(low), &pm, NULL) == TCHESS_OK)
		return session_try(s, pm.from, pm.to, pm.promo);
	/* SAN names a move of the side to move: read it on the board as if it
	 * were mine, then queue it as a premove. */
	struct position q = p;
	q.side = (uint8_t)s->me;
	q.ep = SQ_NONE;
	position_refresh(&q, SQ_NONE);
	move m;
	if (q.checkers & q.by_color[s->me]) {
		session_say(s, true, "premove refused: type it in UCI form (e2e4)");
		return SESSION_DIRTY_STATUS;
	}
	if (notation_parse_typed(&q, text, len, &m, &err) != TCHESS_OK) {
		session_say(s, true, "premove refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	int to = move_to(m);
	if (move_kind(m) == MOVE_CASTLING && !q.chess960)
		to = position_castle_king_to(move_from(m), to);
	return session_try(s, move_from(m), to, move_kind(m) == MOVE_PROMOTION ? (int)move_promotion(m) : 0);
}

int session_complete(struct session *s, char *buf, size_t size)
{
	struct position p;
	struct move_list ml;
	char cands[MOVE_LIST_MAX][SAN_MAX];
	int n = 0;
	size_t plen = strlen(s->prompt_text);
	buf[0] = '\0';
	if (!session_my_turn(s))
		return 0;
	session_position(s, &p);
	movegen_legal(&p, &ml);
	for (int i = 0; i < ml.count; i++) {
		char san[SAN_MAX], uci[UCI_MAX];
		san_write(&p, ml.moves[i], san);
		uci_write(&p, ml.moves[i], uci);
		/* Any case: "nf" completes to Nf3, "E1" to e1g1. */
		if (!strncasecmp(san, s->prompt_text, plen))
			snprintf(cands[n++], SAN_MAX, "%s", san);
		else if (plen && !strncasecmp(uci, s->prompt_text, plen))
			snprintf(cands[n++], SAN_MAX, "%s", uci);
	}
	if (n == 0)
		return 0;
	/* The longest common prefix of the candidates. */
	size_t common = strlen(cands[0]);
	for (int i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && cands[i][k] == cands[0][k])
			k++;
		common = k;
	}
	if (common >= sizeof s->prompt_text)
		common = sizeof s->prompt_text - 1;
	if (common >= plen && common > 0) {
		memcpy(s->prompt_text, cands[0], common);
		s->prompt_text[common] = '\0';
	}
	size_t used = 0;
	for (int i = 0; i < n && used + SAN_MAX + 1 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", cands[i]);
	return n;
}
