/*
 * A Lichess game in the session (session.h, session_on_lichess): the
 * Lichess game model's view (lichess-game.h) becomes the mirror, the move
 * list and clocks follow it, the take-back proposals, the opponent's
 * absence and the chat are kept beside it, and the premoves are the
 * session's own: the Board API has none, so the first one queued is
 * played here the moment a gameState gives the turn back (still legal),
 * or the queue is dropped with the reason. The session's requests become
 * Board API commands (session_lichess_req_http).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lichess-game.h"
#include "session-internal.h"
#include "tchess/lichess.h"
#include "tchess/notation.h"
#include "tchess/pgn.h"
#include "tchess/premove.h"
#include "util/xalloc.h"

unsigned session_lichess_say(struct session *s, const char *text, bool error)
{
	session_say(s, error, "%s", text);
	return SESSION_DIRTY_STATUS;
}

/* The premove at the head of the queue, now that it is my turn. */
static unsigned session_lichess_premove(struct session *s)
{
	if (s->me < 0 || s->premoves.n == 0 || s->pending || session_over(s) ||
	    (int)game_side_to_move(&s->view.game) != s->me)
		return 0;
	move m;
	char why[160], san[SAN_MAX];
	enum premove_verdict v = premove_queue_resolve(&s->premoves, &s->view.game.pos, &m, why, sizeof why);
	if (v == PREMOVE_PLAY) {
		san_write(&s->view.game.pos, m, san);
		unsigned dirty = session_send_move(s, m);
		s->premove_fired = true;
		session_say(s, false, "premove played: %s", san);
		return dirty;
	}
	if (v == PREMOVE_DISCARD) {
		premove_queue_clear(&s->premoves);
		session_say(s, true, "%s", why);
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS | SESSION_DIRTY_INFO;
	}
	return 0;
}

unsigned session_on_lichess(struct session *s, const struct lichess_game *g, unsigned changed, int64_t mono_ms)
{
	if (!changed || !g->full)
		return 0;
	unsigned dirty = 0;
	if (changed & (LICHESS_CHANGED_GAME | LICHESS_CHANGED_MOVES | LICHESS_CHANGED_TAKEBACK |
		       LICHESS_CHANGED_OVER | LICHESS_CHANGED_OFFERS | LICHESS_CHANGED_CLOCK)) {
		size_t before = session_plies(s);
		bool first = !s->view.created;
		/* The copy takes a fresh view: the old one is let go first. */
		fold_view_fini(&s->view);
		fold_view_copy(&s->view, &g->view);
		s->after = s->view.seq;
		session_san_rebuild(s);
		size_t n = s->view.game.n_plies;
		/* My move on its way waits while the list stops short of it;
		 * it is seen (or a take-back went back past it) otherwise. */
		if (s->pending && (size_t)s->pending_ply != n)
			s->pending = false;
		if (first) {
			s->me = g->me;
			s->flipped = s->me == BLACK;
			if (s->me >= 0)
				session_say(s, false, "Lichess game %s: you play %s", g->id, s->me == WHITE ? "White" : "Black");
		} else if (changed & LICHESS_CHANGED_TAKEBACK) {
			session_say(s, false, "%zu move%s taken back", before - n, before - n == 1 ? "" : "s");
			premove_queue_clear(&s->premoves);
		}
		dirty |= SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
	}
	s->lichess_takeback[WHITE] = g->takeback[WHITE];
	s->lichess_takeback[BLACK] = g->takeback[BLACK];
	s->lichess_gone = g->opponent_gone && !lichess_game_over(g);
	s->lichess_claim_at_ms = g->claim_at_ms;
	s->lichess_first_move_by_ms = g->first_move_by_ms;
	lichess_game_end_text(g, s->lichess_end, sizeof s->lichess_end);
	snprintf(s->lichess_about, sizeof s->lichess_about, "Lichess %.20s %s", g->speed[0] ? g->speed : "game",
		 g->rated ? "rated" : "casual");
	if (changed & LICHESS_CHANGED_GONE)
		dirty |= SESSION_DIRTY_STATUS | SESSION_DIRTY_INFO;
	/* The chat: lines not yet seen, in the notes pane, which the game
	 * shows as its chat. */
	if (changed & LICHESS_CHANGED_CHAT) {
		long fresh = g->chat_total - s->lichess_chat_seen;
		if (fresh > g->n_chat)
			fresh = g->n_chat;
		for (int i = g->n_chat - (int)fresh; i < g->n_chat; i++) {
			char text[LICHESS_NAME_MAX + LICHESS_TEXT_MAX + 4];
			snprintf(text, sizeof text, "%s: %s", g->chat[i].user, g->chat[i].text);
			session_note_add(s, g->chat_total - g->n_chat + i + 1, -1, text);
		}
		s->lichess_chat_seen = g->chat_total;
		s->notes_revealed = true;
		dirty |= SESSION_DIRTY_NOTES | SESSION_DIRTY_STATUS;
		if (fresh > 0 && !s->notes_open)
			session_say(s, false, "chat: %s: %.120s   n reads", g->chat[g->n_chat - 1].user,
				    g->chat[g->n_chat - 1].text);
	}
	/* The clocks as Lichess gave them, counted down from the line's
	 * arrival: the model's instants are this client's monotonic ones. */
	if (s->view.created) {
		fold_clock_read(&s->view, mono_ms, &s->reading);
		s->reading_mono_ms = mono_ms;
		s->reading_server_ms = mono_ms;
		s->have_reading = true;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	dirty |= session_lichess_premove(s);
	dirty |= session_over_check(s);
	if (dirty & SESSION_DIRTY_MOVES) {
		session_fix_selection(s);
		session_relayout_moves(s);
	}
	return dirty;
}

/* ---- the actions, as Lichess has them ---- */

static bool session_lichess_running(struct session *s)
{
	if (!s->view.created || session_over(s)) {
		session_say(s, true, "%s", s->view.created ? "the game is over" : "the game has not arrived yet");
		return false;
	}
	return true;
}

static void session_lichess_push(struct session *s, enum session_req_kind kind, enum protocol_action action)
{
	struct session_req r = { .kind = kind, .ply = (int64_t)session_plies(s) };
	r.action = action;
	session_push(s, &r);
}

unsigned session_lichess_draw_offer(struct session *s)
{
	if (!session_lichess_running(s))
		return SESSION_DIRTY_STATUS;
	if (s->view.game.offer_by == s->me) {
		session_say(s, true, "you offered a draw already");
		return SESSION_DIRTY_STATUS;
	}
	session_lichess_push(s, SESSION_REQ_DRAW, PROTOCOL_ACTION_OFFER);
	session_say(s, false, "offering a draw...");
	return SESSION_DIRTY_STATUS;
}

/* A and D: the opponent's take-back proposal first, then a draw offer. */
unsigned session_lichess_answer(struct session *s, bool accept)
{
	if (!session_lichess_running(s))
		return SESSION_DIRTY_STATUS;
	int opp = !s->me;
	if (s->lichess_takeback[opp]) {
		session_lichess_push(s, SESSION_REQ_TAKEBACK, accept ? PROTOCOL_ACTION_ACCEPT : PROTOCOL_ACTION_DECLINE);
		session_say(s, false, "%s the take-back...", accept ? "accepting" : "declining");
	} else if (s->view.game.offer_by == opp) {
		session_lichess_push(s, SESSION_REQ_DRAW, accept ? PROTOCOL_ACTION_ACCEPT : PROTOCOL_ACTION_DECLINE);
		session_say(s, false, "%s the draw offer...", accept ? "accepting" : "declining");
	} else {
		session_say(s, true, "nothing to %s: no offer from %s", accept ? "accept" : "decline",
			    session_side(opp));
	}
	return SESSION_DIRTY_STATUS;
}

/* u: propose to take my last move back. */
unsigned session_lichess_takeback(struct session *s)
{
	if (!session_lichess_running(s))
		return SESSION_DIRTY_STATUS;
	if (s->lichess_takeback[s->me]) {
		session_say(s, true, "you proposed a take-back already: waiting for %s", session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	if (session_plies(s) == 0 || (session_plies(s) == 1 && s->me == BLACK)) {
		session_say(s, true, "no move of yours to take back");
		return SESSION_DIRTY_STATUS;
	}
	session_lichess_push(s, SESSION_REQ_TAKEBACK, PROTOCOL_ACTION_OFFER);
	session_say(s, false, "proposing a take-back...");
	return SESSION_DIRTY_STATUS;
}

/* X: Lichess aborts a game that has not gone far, and says so otherwise. */
unsigned session_lichess_abort(struct session *s)
{
	if (!session_lichess_running(s))
		return SESSION_DIRTY_STATUS;
	s->confirm = SESSION_CONFIRM_ABORT;
	session_say(s, false, "abort this game? (y/n; Lichess allows it before both sides moved)");
	return SESSION_DIRTY_STATUS;
}

/* G: the win, once the opponent has been gone long enough. */
unsigned session_lichess_gone(struct session *s, int64_t mono_ms)
{
	if (!session_lichess_running(s))
		return SESSION_DIRTY_STATUS;
	/* The countdown's refusals are the one view's (session_left_text). */
	if (!s->lichess_gone || s->lichess_claim_at_ms == INT64_MAX || mono_ms < s->lichess_claim_at_ms) {
		session_say(s, true, "nothing to claim: your opponent is here");
		return SESSION_DIRTY_STATUS;
	}
	s->confirm = SESSION_CONFIRM_CLAIM_WIN;
	session_say(s, false, "%s is gone: claim the win? (y/n)", session_side(!s->me));
	return SESSION_DIRTY_STATUS;
}

bool session_lichess_request_text(const struct session *s, int64_t mono_ms, char *buf, size_t size)
{
	const char *dash = s->ascii ? "-" : "\u2014";
	buf[0] = '\0';
	if (!s->view.created || session_over(s))
		return false;
	/* A take-back proposal first (it is what A and D answer first). */
	int takeback = s->lichess_takeback[WHITE] ? WHITE : s->lichess_takeback[BLACK] ? BLACK : -1;
	int by = takeback >= 0 ? takeback : s->view.game.offer_by;
	if (by == WHITE || by == BLACK) {
		const char *what = takeback >= 0 ? "a take-back" : "a draw";
		if (by == s->me)
			snprintf(buf, size, "you %s %s", takeback >= 0 ? "proposed" : "offered", what);
		else
			snprintf(buf, size, "%s %s %s%s%s%s", session_side(by), takeback >= 0 ? "proposes" : "offers",
				 what, s->me >= 0 ? " " : "", s->me >= 0 ? dash : "",
				 s->me >= 0 ? " + accept, - decline" : "");
		return true;
	}
	return session_left_text(s, mono_ms, buf, size);
}

unsigned session_lichess_save_pgn(struct session *s)
{
	struct pgn_buf b;
	struct tchess_error err = { 0 };
	pgn_buf_init(&b);
	unsigned dirty;
	if (fold_pgn_write(&s->view, s->game_id, NULL, 0, &b, &err) != TCHESS_OK || !b.data) {
		session_say(s, true, "no PGN: %s", err.message[0] ? err.message : "nothing to write");
		dirty = SESSION_DIRTY_STATUS;
	} else {
		dirty = session_on_pgn(s, b.data, b.len);
	}
	pgn_buf_fini(&b);
	return dirty;
}

/* "a b" as a form value: letters, digits and -._~ as they are, the rest
 * %XX. */
static void session_lichess_form_escape(const char *in, char *out, size_t size)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p && o + 4 < size; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
		    *p == '.' || *p == '_' || *p == '~') {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	out[o] = '\0';
}

bool session_lichess_req_http(const struct session *s, const struct session_req *req, const char **method,
			      char *path, size_t size, char **form)
{
	const char *what = NULL;
	char uci[96];
	*method = "POST";
	*form = NULL;
	switch (req->kind) {
	case SESSION_REQ_MOVE:
		snprintf(uci, sizeof uci, "move/%.8s", req->moves[0]);
		what = uci;
		break;
	case SESSION_REQ_RESIGN:
		what = "resign";
		break;
	case SESSION_REQ_ABORT:
		what = "abort";  /* the confirmed one: Lichess has no abort by consent */
		break;
	case SESSION_REQ_DRAW:
		/* Offer and accept are the same yes; withdraw and decline no. */
		what = req->action == PROTOCOL_ACTION_OFFER || req->action == PROTOCOL_ACTION_ACCEPT ? "draw/yes" : "draw/no";
		break;
	case SESSION_REQ_TAKEBACK:
		what = req->action == PROTOCOL_ACTION_DECLINE ? "takeback/no" : "takeback/yes";
		break;
	case SESSION_REQ_CLAIM:
		what = req->claim == PROTOCOL_CLAIM_WIN ? "claim-victory" : "claim-draw";
		break;
	case SESSION_REQ_NOTE: {
		char text[3 * SESSION_NOTE_MAX + 1];
		session_lichess_form_escape(req->text, text, sizeof text);
		*form = xasprintf("room=player&text=%s", text);
		what = "chat";
		break;
	}
	default:
		/* Premoves are kept here; Lichess has no adjournment, undo
		 * game or rematch command for the Board API. */
		return false;
	}
	snprintf(path, size, LICHESS_PATH_GAME "%s/%s", s->game_id, what);
	return true;
}
