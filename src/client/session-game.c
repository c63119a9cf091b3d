/*
 * The mirror of a game: the server's events folded with the shared fold,
 * what the position and the turn are with a move on its way, undo games'
 * provisional moves, notes, rematches and the switch to the series' next
 * game, answers and refusals of the requests and of the poll.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "session-internal.h"
#include "util/xalloc.h"

bool session_over(const struct session *s)
{
	return s->view.created && game_is_over(&s->view.game);
}

bool session_waiting(const struct session *s)
{
	return s->me >= 0 && !s->lichess && !s->hotseat && s->view.created && !s->view.started && !session_over(s) &&
	       s->view.seats[!s->me].kind == FOLD_SEAT_EMPTY;
}

void session_result_text(const struct session *s, char *buf, size_t size)
{
	if (!session_over(s)) {
		snprintf(buf, size, "*");
		return;
	}
	snprintf(buf, size, "%s %s", game_result_str(s->view.game.result),
		 game_termination_str(s->view.game.termination));
}

/* My move on its way will be a committed move (in an undo game it will be
 * a provisional one, and the ply does not advance until done). */
bool session_pending_commits(const struct session *s)
{
	return s->pending && !s->view.undo;
}

void session_position(const struct session *s, struct position *out)
{
	if (!s->view.created) {
		position_init_start(out);
		return;
	}
	/* Undo games: the provisional move is on the board for everyone,
	 * except on mine while my take-back of it is on its way. */
	enum session_req_kind sent;
	if (session_undo_sent(s, &sent) && sent == SESSION_REQ_TAKEBACK)
		*out = s->view.game.pos;
	else
		fold_board(&s->view, out);
	if (s->pending) {
		struct undo u;
		position_make(out, s->pending_move, &u);
	}
}

/* The position the rules judge my premoves in: the committed one, with my
 * committed move on its way; never an opponent's provisional move, which
 * the server does not judge premoves by either. */
void session_rules_position(const struct session *s, struct position *out)
{
	if (!s->view.created) {
		position_init_start(out);
		return;
	}
	*out = s->view.game.pos;
	if (session_pending_commits(s)) {
		struct undo u;
		position_make(out, s->pending_move, &u);
	}
}

bool session_undo_sent(const struct session *s, enum session_req_kind *kind)
{
	/* Stale once the turn it was meant for is over, whatever ended it. */
	if (!s->undo_sent || !s->view.created || !s->view.undo || !fold_running(&s->view) ||
	    s->undo_ply != (int64_t)s->view.game.n_plies)
		return false;
	if (kind)
		*kind = s->undo_kind;
	return true;
}

int session_turn(const struct session *s)
{
	enum session_req_kind sent;
	if (!s->view.created)
		return WHITE;
	/* My done on its way passes the turn, as its event will. */
	if (session_pending_commits(s) || (session_undo_sent(s, &sent) && sent == SESSION_REQ_DONE))
		return !s->view.game.pos.side;
	return s->view.game.pos.side;
}

bool session_provisional_mine(const struct session *s)
{
	enum session_req_kind sent;
	if (s->me < 0 || !s->view.created || !s->view.undo)
		return false;
	if (s->pending)
		return true;
	if (session_undo_sent(s, &sent) && sent == SESSION_REQ_TAKEBACK)
		return false;
	return takeback_pending(&s->view.turn) && s->view.turn.color == s->me;
}

bool session_extra_move(const struct session *s, char *san, size_t size)
{
	char t[SAN_MAX];
	san[0] = '\0';
	if (!s->view.created)
		return false;
	enum session_req_kind sent = SESSION_REQ_MOVE;
	bool sending = session_undo_sent(s, &sent);
	if (s->pending) {
		san_write(&s->view.game.pos, s->pending_move, t);
		snprintf(san, size, s->view.undo && !(sending && sent == SESSION_REQ_DONE) ? "(%s)" : "%s", t);
		return true;
	}
	sending = sending && s->view.turn.color == s->me;
	if (s->view.undo && takeback_pending(&s->view.turn) && !(sending && sent == SESSION_REQ_TAKEBACK)) {
		san_write(&s->view.game.pos, s->view.turn.pending, t);
		/* Done on its way: shown as played, like a move on its way. */
		snprintf(san, size, sending && sent == SESSION_REQ_DONE ? "%s" : "(%s)", t);
		return true;
	}
	return false;
}

size_t session_plies(const struct session *s)
{
	return s->view.created ? s->view.game.n_plies : 0;
}

bool session_my_turn(const struct session *s)
{
	return s->me >= 0 && fold_may_move(&s->view, s->me, NULL) == FOLD_MAY_MOVE && !s->pending &&
	       !session_provisional_mine(s);
}

void session_relayout_moves(struct session *s)
{
	enum color first = s->view.created ? (enum color)s->view.game.start.side : WHITE;
	int number = s->view.created ? s->view.game.start.fullmove : 1;
	char extra[SAN_MAX + 2];
	size_t n = session_plies(s) + (session_extra_move(s, extra, sizeof extra) ? 1 : 0);
	movelist_init(&s->ml, n, number, first, s->layout.side_w);
	int target = n ? movelist_row_of(&s->ml, n - 1) : 0;
	s->ml_top = movelist_scroll(s->ml_top, s->layout.moves_h, target, s->ml.rows);
}

static void session_san_append(struct session *s, const char *san)
{
	size_t n = s->view.game.n_plies; /* already folded: the new ply is n - 1 */
	if (n > s->san_cap) {
		s->san_cap = n * 2 + 16;
		s->san = xrealloc(s->san, s->san_cap * sizeof *s->san);
	}
	snprintf(s->san[n - 1], SAN_MAX, "%s", san);
}

/* The selection and cursor stay meaningful after the position changes. */
void session_fix_selection(struct session *s)
{
	struct position p;
	session_position(s, &p);
	if (s->selected != SQ_NONE) {
		enum piece pc = (enum piece)p.board[s->selected];
		if (pc == NO_PIECE || (int)piece_color(pc) != s->me)
			s->selected = SQ_NONE;
	}
}

void session_note_add(struct session *s, int64_t seq, int color, const char *text)
{
	if (s->n_notes == s->notes_cap) {
		s->notes_cap = s->notes_cap * 2 + 8;
		s->notes = xrealloc(s->notes, s->notes_cap * sizeof *s->notes);
	}
	struct session_note *n = &s->notes[s->n_notes++];
	n->seq = seq;
	n->color = color;
	n->text = xstrdup(text);
}

/* The notes' events, which the fold passes over: a private "note" (mine
 * while the game runs; anyone's, without author, after it) and the
 * "notes-revealed" list that replaces them at the end. */
static void session_on_note_event(struct session *s, const struct protocol_event *ev)
{
	struct protocol_error err;
	const char *data = ev->data ? ev->data : "{}";
	if (!strcmp(ev->type, "note")) {
		struct protocol_note_request n;
		if (protocol_note_request_decode(data, strlen(data), &n, &err) == 0)
			session_note_add(s, ev->seq, s->notes_revealed || session_over(s) ? -1 : s->me, n.text);
	} else if (!strcmp(ev->type, "notes-revealed")) {
		struct protocol_revealed_note *list;
		size_t n;
		if (protocol_notes_revealed_decode(data, strlen(data), &list, &n, &err) < 0)
			return;
		session_notes_clear(s);
		for (size_t i = 0; i < n; i++)
			session_note_add(s, list[i].seq, fold_seat_of(&s->view, list[i].player), list[i].text);
		free(list);
		s->notes_revealed = true;
		if (n)
			session_say(s, false, "%zu note%s revealed: n shows them", n, n == 1 ? "" : "s");
	}
}

/* What the players see of the actions' events besides the status line. */
static void session_on_action_event(struct session *s, const struct fold_event *fe)
{
	static const char *const what[] = { "draw offer", "abort request", "adjourn request", "resume request" };
	bool mine = fe->color == s->me;
	switch (fe->kind) {
	case FOLD_EV_REQUEST:
		if (fe->action == FOLD_REQ_DECLINED)
			session_say(s, !mine, "%s declined %s %s", mine ? "you" : session_side(fe->color),
				    mine ? "the" : s->me >= 0 ? "your" : "the", what[fe->what]);
		else if (fe->action == FOLD_REQ_WITHDRAWN)
			session_say(s, false, "%s withdrew the draw offer", session_who(s, fe->color));
		else if (mine)
			session_say(s, false, "%s sent: waiting for %s", what[fe->what], session_side(!s->me));
		break;
	case FOLD_EV_ADJOURNED:
		session_say(s, false, "the game is adjourned%s: the clocks stop%s",
			    fe->color < 0 ? " (a player is gone)" : "",
			    s->me < 0 ? "" : s->hotseat ? "; P resumes" : "; P asks to resume");
		break;
	case FOLD_EV_RESUMED:
		session_say(s, false, "the game is resumed");
		break;
	case FOLD_EV_PRESENCE:
		if (fe->color != s->me)
			session_say(s, !fe->present, "%s is %s", session_side(fe->color), fe->present ? "back" : "gone");
		break;
	case FOLD_EV_TIME_ADDED:
		session_say(s, false, "%lld s added to %s's clock (%s)", (long long)(fe->ms / 1000),
			    session_side(fe->color), fe->reason);
		break;
	case FOLD_EV_DISCARD:
		session_say(s, false, "%s claimed that %s discards resuming (%lld charged)", session_who(s, fe->color),
			    session_side(!fe->color), (long long)fe->count);
		break;
	default:
		break;
	}
}

/* Undo games: a provisional move, its take-back, and the done that
 * commits it, as the players see them. */
static void session_on_undo_event(struct session *s, const struct fold_event *fe)
{
	bool mine = fe->color == s->me;
	/* My take-back or done is in the log now: the fold shows it. */
	if (mine && (fe->kind == FOLD_EV_TAKEN_BACK || fe->kind == FOLD_EV_MOVE))
		s->undo_sent = false;
	switch (fe->kind) {
	case FOLD_EV_PROVISIONAL:
		if (s->pending && fe->ply == s->pending_ply && mine)
			s->pending = false;
		/* Not news when my take-back of it is on its way already. */
		if (mine && s->undo_sent && s->undo_kind == SESSION_REQ_TAKEBACK)
			break;
		if (mine)
			session_say(s, false, "%s is provisional: d when done, u takes it back", fe->san);
		else
			session_say(s, false, "%s tries %s (not done yet)", session_side(fe->color), fe->san);
		break;
	case FOLD_EV_TAKEN_BACK:
		if (mine)
			session_say(s, false, "taken back: make another move");
		else
			session_say(s, false, "%s took a move back", session_side(fe->color));
		break;
	case FOLD_EV_MOVE:
		/* The take-backs' messages are stale now: the turn is over. */
		if (!fe->premove && s->view.seats[fe->color].kind == FOLD_SEAT_HUMAN)
			session_say(s, false, "%s pressed done: %s", mine ? "you" : session_side(fe->color), fe->san);
		break;
	default:
		break;
	}
}

/* Rematch offers and their answers. True when the accepted rematch names
 * the next game to follow. */
static bool session_on_rematch_event(struct session *s, const struct fold_event *fe)
{
	bool mine = fe->color == s->me;
	switch (fe->action) {
	case FOLD_REQ_MADE:
		if (mine)
			session_say(s, false, "rematch offered: waiting for %s   W withdraws", session_side(!s->me));
		else
			session_say(s, false, "%s offers a rematch%s", session_side(fe->color),
				    s->me >= 0 ? ": r accepts, - declines" : "");
		break;
	case FOLD_REQ_DECLINED:
		session_say(s, !mine, "%s declined the rematch", session_who(s, fe->color));
		break;
	case FOLD_REQ_WITHDRAWN:
		session_say(s, false, "%s withdrew the rematch offer", session_who(s, fe->color));
		break;
	case FOLD_REQ_ACCEPTED:
		return s->view.next_game[0] != '\0';
	}
	return false;
}

/* Follows the series to its next game: the same players with colours
 * swapped, so the board turns with them; its log is polled from seq 0. */
static void session_switch(struct session *s, const char *next)
{
	int side = s->me >= 0 ? !s->me : -1;
	snprintf(s->game_id, sizeof s->game_id, "%s", next);
	session_reset(s);
	s->alert_plies = 0;
	s->me = side;
	s->flipped = !s->flipped;
	s->over_seen = false;
	s->saved = false;
	s->selected = SQ_NONE;
	s->cursor = SQ_NONE;
	s->promo = false;
	s->prompt = false;
	s->prompt_text[0] = '\0';
	s->confirm = SESSION_CONFIRM_NONE;
	s->notes_open = false;
	s->note_text[0] = '\0';
	s->ml_top = 0;
	premove_queue_clear(&s->premoves);
	s->undo_sent = false;
	s->games_followed++;
	if (s->hotseat) {
		/* Both seats are still ours, colours swapped: the player's
		 * own account has the other colour now, and the board turns
		 * to the first mover (session_hotseat_follow). */
		s->hotseat_host = !s->hotseat_host;
		s->me = WHITE;
		if (s->hotseat_flip)
			s->flipped = false;
		session_say(s, false, "rematch: a new hotseat game, colours swapped");
	} else if (side >= 0)
		session_say(s, false, "rematch accepted: the next game starts, you play %s", session_side(side));
	else
		session_say(s, false, "rematch accepted: following the next game");
	session_relayout_moves(s);
}

/* A resync answer (the client was far behind): the mirror starts again
 * from the snapshot, which stands for the events it skipped; the notes
 * among them come as events. */
size_t session_san_rebuild(struct session *s)
{
	size_t n = s->view.game.n_plies;
	if (n > s->san_cap) {
		s->san_cap = n * 2 + 16;
		s->san = xrealloc(s->san, s->san_cap * sizeof *s->san);
	}
	struct position p = s->view.game.start;
	for (size_t i = 0; i < n; i++) {
		struct undo u;
		san_write(&p, s->view.game.plies[i].m, s->san[i]);
		position_make(&p, s->view.game.plies[i].m, &u);
	}
	return n;
}

static unsigned session_on_resync(struct session *s, const struct protocol_events *evs)
{
	struct protocol_error err;
	if (fold_view_from_snapshot(&s->view, evs->snapshot, strlen(evs->snapshot), s->game_id, &err) < 0) {
		/* Nothing to fold onto: say why; the next refused event
		 * starts the mirror again from the log. */
		session_say(s, true, "snapshot refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	size_t n = session_san_rebuild(s);
	if (s->pending && (size_t)s->pending_ply < n)
		s->pending = false;
	for (size_t i = 0; i < evs->n; i++)
		session_on_note_event(s, &evs->events[i]);
	session_take_server_premoves(s);
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

unsigned session_over_check(struct session *s)
{
	if (!session_over(s) || s->over_seen)
		return 0;
	s->over_seen = true;
	s->selected = SQ_NONE;
	s->promo = false;
	s->confirm = SESSION_CONFIRM_NONE;
	premove_queue_clear(&s->premoves);
	/* The end is told once, by the info pane's game-over panel
	 * (result, why, keys) and the status line's "game over";
	 * a message left from the game would only be stale now. */
	s->message[0] = '\0';
	s->message_error = false;
	return SESSION_DIRTY_STATUS | SESSION_DIRTY_INFO;
}

unsigned session_on_events(struct session *s, const struct protocol_events *evs, int64_t mono_ms)
{
	/* An answer below the seq this mirror polled after: the server does
	 * not hold the events folded here (its database restored, or seqs it
	 * gave before it numbered each viewer's events, issue 12 item 16):
	 * the mirror starts again from the log, not polling on from a seq the
	 * server has not reached. */
	if (!evs->resync && evs->seq < s->after) {
		session_say(s, true, "the server is at event %lld, this board at %lld: reloading the game",
			    (long long)evs->seq, (long long)s->after);
		s->resync = true;
		return SESSION_DIRTY_STATUS;
	}
	unsigned dirty = evs->resync && evs->snapshot ? session_on_resync(s, evs) : 0;
	/* A correspondence game's vacations are the players' bookings, sent
	 * with every answer rather than as events: the clock and the moves
	 * folded below are charged with them, as the server charged them. */
	if (evs->vacations) {
		struct protocol_error err;
		if (fold_view_vacations_decode(&s->view, evs->vacations, strlen(evs->vacations), &err) < 0)
			session_say(s, true, "vacations refused: %s", err.message);
		else
			dirty |= SESSION_DIRTY_CLOCKS;
	}
	for (size_t i = 0; i < evs->n; i++) {
		const struct protocol_event *ev = &evs->events[i];
		if (ev->seq <= s->view.seq)
			continue;
		struct fold_event fe;
		struct protocol_error err;
		if (fold_event_decode(ev->type, ev->data, &fe, &err) < 0 ||
		    fold_apply_event(&s->view, ev->seq, ev->t_ms, &fe, &err) < 0) {
			session_say(s, true, "event %lld refused: %s", (long long)ev->seq, err.message);
			s->resync = true;
			return dirty | SESSION_DIRTY_STATUS;
		}
		dirty |= SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
		switch (fe.kind) {
		case FOLD_EV_MOVE:
			session_san_append(s, fe.san);
			if (s->pending && fe.ply == s->pending_ply)
				s->pending = false;
			if (s->view.undo && s->me >= 0)
				session_on_undo_event(s, &fe);
			if (fe.premove && fe.color == s->me) {
				session_say(s, false, "premove played: %s", fe.san);
				/* The server played the queue's first: so does the
				 * queue kept here while a request is out. */
				if (s->premoves_out > 0 && s->premoves.n > 0) {
					memmove(&s->premoves.items[0], &s->premoves.items[1],
						(size_t)(s->premoves.n - 1) * sizeof s->premoves.items[0]);
					s->premoves.n--;
				}
			}
			break;
		case FOLD_EV_PROVISIONAL:
		case FOLD_EV_TAKEN_BACK:
			session_on_undo_event(s, &fe);
			break;
		case FOLD_EV_PREMOVE_DISCARDED:
			if (fe.color == s->me)
				session_say(s, true, "premove %.2s-%s discarded: %s", fe.uci,
					    strlen(fe.uci) >= 2 ? fe.uci + 2 : "", fe.reason);
			break;
		case FOLD_EV_STARTED: {
			int side;
			if (s->hotseat)
				session_say(s, false, "the game has started: White moves first%s",
					    s->hotseat_flip ? "; the board turns to each player" : "");
			else if (s->me >= 0 && s->view.series.id[0])
				session_say(s, false, "game %d of the series has started: you play %s",
					    s->view.series.game, session_side(s->me));
			else if (s->me >= 0 && s->view.game.rules.first_move_timeout_ms > 0 &&
				 fold_first_move_deadline(&s->view, s->view.game.rules.first_move_timeout_ms,
							  &side) != INT64_MAX)
				/* The clocks run from now: say so, and the limit. */
				session_say(s, false, "the game has started: you play %s; clocks run, first move within %lld s",
					    s->me == WHITE ? "White" : "Black",
					    (long long)(s->view.game.rules.first_move_timeout_ms / 1000));
			else if (s->me >= 0)
				session_say(s, false, "the game has started: you play %s",
					    s->me == WHITE ? "White" : "Black");
			break;
		}
		case FOLD_EV_ENDED:
			s->pending = false;
			break;
		case FOLD_EV_REQUEST:
			if (fe.what == FOLD_REQ_REMATCH) {
				if (session_on_rematch_event(s, &fe)) {
					/* What follows in this answer is the old
					 * game's; the new one is polled from 0. */
					char next[sizeof s->game_id];
					snprintf(next, sizeof next, "%s", s->view.next_game);
					session_switch(s, next);
					return SESSION_DIRTY_ALL;
				}
				break;
			}
			session_on_action_event(s, &fe);
			break;
		case FOLD_EV_ADJOURNED:
		case FOLD_EV_RESUMED:
		case FOLD_EV_PRESENCE:
		case FOLD_EV_TIME_ADDED:
		case FOLD_EV_DISCARD:
			session_on_action_event(s, &fe);
			break;
		case FOLD_EV_OTHER:
			session_on_note_event(s, ev);
			break;
		default:
			break;
		}
		session_take_server_premoves(s);
	}
	if (evs->seq > s->after)
		s->after = evs->seq;
	dirty |= session_premoves_resend(s);
	if (s->view.created) {
		fold_clock_read(&s->view, evs->now_ms, &s->reading);
		s->reading_mono_ms = mono_ms;
		s->reading_server_ms = evs->now_ms;
		s->have_reading = true;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	dirty |= session_over_check(s);
	dirty |= session_hotseat_follow(s);
	if (dirty & SESSION_DIRTY_MOVES) {
		session_fix_selection(s);
		session_relayout_moves(s);
	}
	return dirty;
}

unsigned session_move_alert(struct session *s)
{
	if (!s->view.created)
		return 0;
	int64_t n = (int64_t)s->view.game.n_plies;
	unsigned dirty = 0;
	/* Only past the most plies seen: a take-back's replay and a log
	 * refolded from 0 (over several answers) ring nothing. */
	if (s->alert_ready && n > s->alert_plies && s->move_alert && s->me >= 0 && !s->hotseat) {
		/* Two plies or more: the opponent moved among them (my premove
		 * answered at once). One: the side not to move made it. */
		bool theirs = n - s->alert_plies >= 2 || (int)game_side_to_move(&s->view.game) == s->me;
		if (theirs)
			dirty = s->move_alert == 2 ? SESSION_DIRTY_FLASH : SESSION_DIRTY_BELL;
	}
	s->alert_ready = true;
	if (n > s->alert_plies)
		s->alert_plies = n;
	return dirty;
}

unsigned session_on_answer(struct session *s, const struct session_req *req, int status,
			   const struct protocol_error *err)
{
	if (session_req_is_premoves(req) && s->premoves_out > 0)
		s->premoves_out--;
	if (status >= 200 && status < 300)
		return 0;
	const char *why = err && err->message[0] ? err->message : "the server refused it";
	switch (req->kind) {
	case SESSION_REQ_MOVE:
		if (s->pending && s->pending_ply == req->ply) {
			s->pending = false;
			session_relayout_moves(s);
		}
		session_say(s, true, "move %s refused: %s", req->moves[0], why);
		return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
	case SESSION_REQ_PREMOVES:
		if (status == 409 && err && err->code == PROTOCOL_ERR_CONFLICT && err->seq > 0) {
			/* Stale: the server played a premove (or the opponent
			 * moved) before this request arrived. The queue kept
			 * here has followed the played ones; it is sent again
			 * at the new ply once the events up to err->seq are
			 * folded in, instead of falling back to the server's
			 * shorter queue (a premove typed last was lost). */
			if (s->premoves_stale_seq == 0)
				s->premoves_out++;
			if (err->seq > s->premoves_stale_seq)
				s->premoves_stale_seq = err->seq;
			return session_premoves_resend(s);
		}
		/* fall through */
	case SESSION_REQ_PREMOVES_CLEAR:
		session_take_server_premoves(s);
		session_say(s, true, "premove refused: %s", why);
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	case SESSION_REQ_RESIGN:
		session_say(s, true, "resignation refused: %s", why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_PGN:
		session_say(s, true, "cannot fetch the PGN: %s", why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_DRAW:
		session_say(s, true, "draw %s refused: %s", protocol_action_str(req->action), why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_ABORT:
	case SESSION_REQ_ADJOURN:
	case SESSION_REQ_RESUME: {
		static const char *const what[] = { [SESSION_REQ_ABORT] = "abort", [SESSION_REQ_ADJOURN] = "adjourn",
						    [SESSION_REQ_RESUME] = "resume" };
		session_say(s, true, "%s %s refused: %s", what[req->kind], protocol_action_str(req->action), why);
		return SESSION_DIRTY_STATUS;
	}
	case SESSION_REQ_CLAIM:
		session_say(s, true, "%s claim refused: %s", protocol_claim_str(req->claim), why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_NOTE:
		session_say(s, true, "note refused: %s", why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_TAKEBACK:
	case SESSION_REQ_DONE:
		/* What was drawn at once goes back to the fold's. */
		if (s->undo_sent && s->undo_kind == req->kind && s->undo_ply == req->ply) {
			s->undo_sent = false;
			session_relayout_moves(s);
		}
		session_say(s, true, "%s refused: %s", req->kind == SESSION_REQ_DONE ? "done" : "take-back", why);
		return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
	case SESSION_REQ_REMATCH:
		session_say(s, true, "rematch %s refused: %s", protocol_action_str(req->action), why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_NEW_GAME:
		session_say(s, true, "no new game: %s", why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_PRESENCE:
		/* The next read tries again; the poll says what matters. */
		return 0;
	}
	return 0;
}

unsigned session_on_poll_refused(struct session *s, int status, const struct protocol_error *err, int64_t mono_ms,
				 bool *retry)
{
	char head[120], hint[160];
	/* The status decides, not the error's name: a proxy in front of the
	 * server answers with the status and a body of its own. */
	enum session_gone g = status == 410 ? SESSION_GONE_ERASED
			      : status == 404 ? SESSION_GONE_MISSING
			      : status == 401 ? SESSION_GONE_ACCOUNT
					      : SESSION_GONE_NOT;
	if (g == SESSION_GONE_NOT) {
		/* Unexpected (a 400, a 403 from something in between): it may
		 * pass, and a frozen board would only hide that it did. */
		*retry = true;
		session_say(s, true, "cannot follow the game: %s (HTTP %d); trying again",
			    err && err->message[0] ? err->message : "the server refused", status);
		return SESSION_DIRTY_STATUS;
	}
	*retry = false;
	s->gone = g;
	s->gone_mono_ms = mono_ms;
	session_gone_text(s, head, sizeof head, hint, sizeof hint);
	session_say(s, true, "%s", head);
	/* Nothing is coming that could answer a question or move a piece. */
	s->confirm = SESSION_CONFIRM_NONE;
	s->promo = false;
	s->prompt = false;
	s->prompt_text[0] = '\0';
	s->selected = SQ_NONE;
	s->pending = false;
	s->undo_sent = false;
	/* Nothing seen of the game yet: no screen to keep, and a start
	 * position would only pretend to be the game. The caller says why
	 * once the terminal is back. */
	if (!s->view.created)
		s->quit = true;
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

bool session_gone_text(const struct session *s, char *head, size_t hsize, char *hint, size_t isize)
{
	switch (s->gone) {
	case SESSION_GONE_ERASED:
		snprintf(head, hsize, "this game was aborted and erased");
		snprintf(hint, isize, "the server keeps an aborted game only a short while: nothing more will come");
		return true;
	case SESSION_GONE_MISSING:
		snprintf(head, hsize, "no such game on this server");
		if (s->view.created)
			snprintf(hint, isize, "the server no longer has it: nothing more will come");
		else
			snprintf(hint, isize, "check the id: tchess games lists yours");
		return true;
	case SESSION_GONE_ACCOUNT:
		snprintf(head, hsize, "this server does not know your account");
		snprintf(hint, isize, "its token was replaced (tchess token rotate) or is another server's: "
				      "tchess token tells");
		return true;
	case SESSION_GONE_NOT:
		break;
	}
	if (hsize)
		head[0] = '\0';
	if (isize)
		hint[0] = '\0';
	return false;
}

unsigned session_on_new_game(struct session *s, const char *id, int color)
{
	session_switch(s, id);
	s->me = color;
	s->flipped = color == BLACK;
	session_say(s, false, "a new game against the engine: you play %s", session_side(color));
	return SESSION_DIRTY_ALL;
}

unsigned session_on_pgn(struct session *s, const char *text, size_t len)
{
	char path[512], err[600];
	/* The games folder (tchess(1), FILES), made on the first save. */
	if (account_save_game_pgn(s->save_dir, s->game_id, text, len, path, sizeof path, err, sizeof err) < 0) {
		session_say(s, true, "%s", err);
		return SESSION_DIRTY_STATUS;
	}
	s->saved = true;
	session_say(s, false, "saved the game to %s", path);
	return SESSION_DIRTY_STATUS;
}

unsigned session_set_conn(struct session *s, enum session_conn c, int64_t rtt_ms)
{
	unsigned dirty = 0;
	if (c != s->conn) {
		if (c == SESSION_CONN_RECONNECTING) {
			s->reconnects++;
			/* What was said before the connection dropped ("the
			 * game has started") is stale by the time it is back;
			 * an error stays until something replaces it. */
			if (!s->message_error)
				s->message[0] = '\0';
			dirty |= SESSION_DIRTY_STATUS;
		}
		bool was_away = session_server_away(s);
		s->conn = c;
		/* The clocks stand while the server is away, and run again
		 * from its answer (session_server_away). */
		static const char away[] = "server unreachable: the clocks stand as at the last move";
		if (session_server_away(s) && !s->message_error)
			session_say(s, false, "%s", away);
		else if (was_away && !strcmp(s->message, away))
			s->message[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS | SESSION_DIRTY_CLOCKS;
	}
	if (rtt_ms >= 0 && rtt_ms != s->rtt_ms) {
		s->rtt_ms = rtt_ms;
		dirty |= SESSION_DIRTY_STATUS;
	}
	return dirty;
}
