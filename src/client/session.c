/*
 * The play model: the mirror of a game (the shared fold over the server's
 * events), local move checking before anything is sent, premoves shown
 * until the server's verdict, the game actions (draw offers, claims,
 * abort, adjournment, notes) checked by libtchess before they are sent,
 * undo games' provisional moves, rematches and the switch to the series'
 * next game, clocks counted down from the last reading with the low-time
 * warning, and the keyboard and mouse input states. See session.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "clock-text.h"
#include "keys.h"
#include "session.h"
#include "tchess/bitboard.h"
#include "tchess/movegen.h"
#include "util/xalloc.h"

/* An unlimited clock reads 2^53 - 1 on the wire; anything this large is
 * shown as no clock at all. */
#define SESSION_UNLIMITED_MS (INT64_C(1) << 52)

void session_init(struct session *s, const char *game_id, int me)
{
	memset(s, 0, sizeof *s);
	snprintf(s->game_id, sizeof s->game_id, "%s", game_id);
	s->me = me;
	fold_view_init(&s->view);
	premove_queue_init(&s->premoves);
	s->rtt_ms = -1;
	s->cursor = SQ_NONE;
	s->selected = SQ_NONE;
	s->flipped = me == BLACK;
	s->reading.running = CLOCK_NOBODY;
	s->low_time_cfg_ms = -1;
	s->low_state[WHITE] = s->low_state[BLACK] = -1;
	session_layout_compute(&s->layout, 80, 24);
}

static void session_notes_clear(struct session *s)
{
	for (size_t i = 0; i < s->n_notes; i++)
		free(s->notes[i].text);
	s->n_notes = 0;
	s->notes_revealed = false;
}

void session_fini(struct session *s)
{
	fold_view_fini(&s->view);
	free(s->san);
	s->san = NULL;
	session_notes_clear(s);
	free(s->notes);
	s->notes = NULL;
	s->notes_cap = 0;
}

void session_reset(struct session *s)
{
	fold_view_fini(&s->view);
	fold_view_init(&s->view);
	s->after = 0;
	s->pending = false;
	s->undo_sent = false;
	s->have_reading = false;
	s->resync = false;
	/* A new mirror is no crossing: the first reading sets the state. */
	s->low_state[WHITE] = s->low_state[BLACK] = -1;
	/* The note events come again with the rest of the log. */
	session_notes_clear(s);
}

static void session_say(struct session *s, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void session_say(struct session *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_error = error;
}

static bool session_req_is_premoves(const struct session_req *r)
{
	return r->kind == SESSION_REQ_PREMOVES || r->kind == SESSION_REQ_PREMOVES_CLEAR;
}

static void session_push(struct session *s, const struct session_req *r)
{
	if (s->n_out == SESSION_OUTBOX_MAX) {
		/* The loop drains the outbox every pass, so this only happens
		 * when keys arrive faster than a pass: drop the oldest. */
		if (session_req_is_premoves(&s->outbox[0]) && s->premoves_out > 0)
			s->premoves_out--;
		memmove(&s->outbox[0], &s->outbox[1], (SESSION_OUTBOX_MAX - 1) * sizeof s->outbox[0]);
		s->n_out--;
	}
	if (session_req_is_premoves(r))
		s->premoves_out++;
	s->outbox[s->n_out++] = *r;
}

/* The server's queue for my seat becomes the one shown, unless a request
 * of mine that will replace it is still out (session.h, premoves_out). */
static void session_take_server_premoves(struct session *s)
{
	if (s->me >= 0 && s->premoves_out == 0)
		s->premoves = s->view.premoves[s->me];
}

bool session_take_request(struct session *s, struct session_req *out)
{
	if (s->n_out == 0)
		return false;
	*out = s->outbox[0];
	memmove(&s->outbox[0], &s->outbox[1], (size_t)(s->n_out - 1) * sizeof s->outbox[0]);
	s->n_out--;
	return true;
}

void session_req_http(const struct session *s, const struct session_req *req, const char **method, char *path,
		      size_t size, char **body)
{
	*body = NULL;
	switch (req->kind) {
	case SESSION_REQ_MOVE: {
		struct protocol_move_request m = { .ply = req->ply };
		snprintf(m.move, sizeof m.move, "%s", req->moves[0]);
		*method = route_request(path, size, ROUTE_GAME_MOVE, s->game_id, NULL);
		*body = protocol_move_request_encode(&m);
		break;
	}
	case SESSION_REQ_PREMOVES: {
		struct protocol_premoves_request p = { .ply = req->ply, .n = req->n };
		for (int i = 0; i < req->n && i < PROTOCOL_PREMOVES_MAX; i++)
			snprintf(p.moves[i], sizeof p.moves[i], "%s", req->moves[i]);
		*method = route_request(path, size, ROUTE_GAME_PREMOVES_SET, s->game_id, NULL);
		*body = protocol_premoves_request_encode(&p);
		break;
	}
	case SESSION_REQ_PREMOVES_CLEAR:
		*method = route_request(path, size, ROUTE_GAME_PREMOVES_CLEAR, s->game_id, NULL);
		break;
	case SESSION_REQ_RESIGN:
		*method = route_request(path, size, ROUTE_GAME_RESIGN, s->game_id, NULL);
		*body = xstrdup("{}");
		break;
	case SESSION_REQ_PGN:
		*method = route_request(path, size, ROUTE_GAME_PGN, s->game_id, NULL);
		break;
	case SESSION_REQ_DRAW:
	case SESSION_REQ_ABORT:
	case SESSION_REQ_ADJOURN:
	case SESSION_REQ_RESUME:
	case SESSION_REQ_CLAIM:
	case SESSION_REQ_TAKEBACK:
	case SESSION_REQ_DONE:
	case SESSION_REQ_REMATCH: {
		static const enum route_id endpoint[] = {
			[SESSION_REQ_DRAW] = ROUTE_GAME_DRAW,         [SESSION_REQ_ABORT] = ROUTE_GAME_ABORT,
			[SESSION_REQ_ADJOURN] = ROUTE_GAME_ADJOURN,   [SESSION_REQ_RESUME] = ROUTE_GAME_RESUME,
			[SESSION_REQ_CLAIM] = ROUTE_GAME_CLAIM,       [SESSION_REQ_TAKEBACK] = ROUTE_GAME_TAKEBACK,
			[SESSION_REQ_DONE] = ROUTE_GAME_DONE,         [SESSION_REQ_REMATCH] = ROUTE_GAME_REMATCH,
		};
		struct protocol_action_request a = { .ply = req->ply };
		snprintf(a.action, sizeof a.action, "%s", req->action);
		snprintf(a.claim, sizeof a.claim, "%s", req->claim);
		snprintf(a.move, sizeof a.move, "%s", req->moves[0]);
		*method = route_request(path, size, endpoint[req->kind], s->game_id, NULL);
		*body = protocol_action_request_encode(&a);
		break;
	}
	case SESSION_REQ_NOTE: {
		struct protocol_note_request nr;
		snprintf(nr.text, sizeof nr.text, "%s", req->text);
		*method = route_request(path, size, ROUTE_GAME_NOTE, s->game_id, NULL);
		*body = protocol_note_request_encode(&nr);
		break;
	}
	}
}

/* ---- the mirror ---- */

bool session_over(const struct session *s)
{
	return s->view.created && game_is_over(&s->view.game);
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
static bool session_pending_commits(const struct session *s)
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
static void session_rules_position(const struct session *s, struct position *out)
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

static size_t session_plies(const struct session *s)
{
	return s->view.created ? s->view.game.n_plies : 0;
}

bool session_my_turn(const struct session *s)
{
	return s->me >= 0 && fold_may_move(&s->view, s->me, NULL) == FOLD_MAY_MOVE && !s->pending &&
	       !session_provisional_mine(s);
}

static void session_relayout_moves(struct session *s)
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
static void session_fix_selection(struct session *s)
{
	struct position p;
	session_position(s, &p);
	if (s->selected != SQ_NONE) {
		enum piece pc = (enum piece)p.board[s->selected];
		if (pc == NO_PIECE || (int)piece_color(pc) != s->me)
			s->selected = SQ_NONE;
	}
}

static const char *session_side(int c)
{
	return c == WHITE ? "White" : c == BLACK ? "Black" : "nobody";
}

/* "you" for me, else the side's name. */
static const char *session_who(const struct session *s, int c)
{
	return c == s->me ? "you" : session_side(c);
}

/* "your" for me, else the side's name with 's. */
static const char *session_whose(const struct session *s, int c)
{
	return c == s->me ? "your" : c == WHITE ? "White's" : c == BLACK ? "Black's" : "nobody's";
}

static void session_note_add(struct session *s, int64_t seq, int color, const char *text)
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
			    fe->color < 0 ? " (a player is gone)" : "", s->me >= 0 ? "; P asks to resume" : "");
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
				    s->me >= 0 ? ": r accepts, D declines" : "");
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
	if (side >= 0)
		session_say(s, false, "rematch accepted: the next game starts, you play %s", session_side(side));
	else
		session_say(s, false, "rematch accepted: following the next game");
	session_relayout_moves(s);
}

/* A resync answer (the client was far behind): the mirror starts again
 * from the snapshot, which stands for the events it skipped; the notes
 * among them come as events. */
static unsigned session_on_resync(struct session *s, const struct protocol_events *evs)
{
	struct protocol_error err;
	if (fold_view_from_snapshot(&s->view, evs->snapshot, strlen(evs->snapshot), s->game_id, &err) < 0) {
		/* Nothing to fold onto: say why; the next refused event
		 * starts the mirror again from the log. */
		session_say(s, true, "snapshot refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
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
	if (s->pending && (size_t)s->pending_ply < n)
		s->pending = false;
	for (size_t i = 0; i < evs->n; i++)
		session_on_note_event(s, &evs->events[i]);
	session_take_server_premoves(s);
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

unsigned session_on_events(struct session *s, const struct protocol_events *evs, int64_t mono_ms)
{
	unsigned dirty = evs->resync && evs->snapshot ? session_on_resync(s, evs) : 0;
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
			if (s->me >= 0 && s->view.series.id[0])
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
	if (s->view.created) {
		fold_clock_read(&s->view, evs->now_ms, &s->reading);
		s->reading_mono_ms = mono_ms;
		s->reading_server_ms = evs->now_ms;
		s->have_reading = true;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	if (session_over(s) && !s->over_seen) {
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
		dirty |= SESSION_DIRTY_STATUS | SESSION_DIRTY_INFO;
	}
	if (dirty & SESSION_DIRTY_MOVES) {
		session_fix_selection(s);
		session_relayout_moves(s);
	}
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
		session_say(s, true, "draw %s refused: %s", req->action, why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_ABORT:
	case SESSION_REQ_ADJOURN:
	case SESSION_REQ_RESUME: {
		static const char *const what[] = { [SESSION_REQ_ABORT] = "abort", [SESSION_REQ_ADJOURN] = "adjourn",
						    [SESSION_REQ_RESUME] = "resume" };
		session_say(s, true, "%s %s refused: %s", what[req->kind], req->action, why);
		return SESSION_DIRTY_STATUS;
	}
	case SESSION_REQ_CLAIM:
		session_say(s, true, "%s claim refused: %s", req->claim, why);
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
		session_say(s, true, "rematch %s refused: %s", req->action, why);
		return SESSION_DIRTY_STATUS;
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

unsigned session_on_pgn(struct session *s, const char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s%stchess-%.12s.pgn", s->save_dir, s->save_dir[0] ? "/" : "", s->game_id);
	FILE *f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len) {
		session_say(s, true, "cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return SESSION_DIRTY_STATUS;
	}
	if (fclose(f) != 0) {
		session_say(s, true, "cannot write %s: %s", path, strerror(errno));
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
		s->conn = c;
		dirty |= SESSION_DIRTY_STATUS;
	}
	if (rtt_ms >= 0 && rtt_ms != s->rtt_ms) {
		s->rtt_ms = rtt_ms;
		dirty |= SESSION_DIRTY_STATUS;
	}
	return dirty;
}

/* ---- clocks ---- */

/* A game no longer followed shows the clocks as they stood then. */
int64_t session_server_ms(const struct session *s, int64_t mono_ms)
{
	if (s->gone && mono_ms > s->gone_mono_ms)
		mono_ms = s->gone_mono_ms;
	if (mono_ms < s->reading_mono_ms)
		mono_ms = s->reading_mono_ms;
	return s->reading_server_ms + (mono_ms - s->reading_mono_ms);
}

int64_t session_clock_ms(const struct session *s, int c, int64_t mono_ms)
{
	if (!s->have_reading)
		return s->view.created ? s->view.clock.remaining_ms[c] : 0;
	if (s->reading.ms[c] >= SESSION_UNLIMITED_MS)
		return s->reading.ms[c];
	/* The fold reads the clock, so a US delay or a correspondence
	 * clock's whole minutes stand still here as they do on the server. */
	struct fold_clock_reading r;
	fold_clock_read(&s->view, session_server_ms(s, mono_ms), &r);
	return r.ms[c];
}

bool session_clock_running(const struct session *s, int c)
{
	return s->have_reading && s->reading.running == c && !session_over(s) && !s->gone;
}

int64_t session_first_move_ms(const struct session *s, int64_t mono_ms, int *side)
{
	int64_t at = fold_first_move_deadline(&s->view, s->view.game.rules.first_move_timeout_ms, side);
	if (at == INT64_MAX || !s->have_reading || s->gone)
		return -1;
	int64_t left = at - session_server_ms(s, mono_ms);
	return left > 0 ? left : 0;
}

int64_t session_next_tick(const struct session *s, int64_t mono_ms)
{
	int r = s->reading.running;
	if (!s->have_reading || r == CLOCK_NOBODY || session_over(s) || s->gone)
		return -1;
	/* The first-move countdown shows whole seconds: wake at its next. */
	int side;
	int64_t first = session_first_move_ms(s, mono_ms, &side);
	int64_t first_wake = first > 0 ? (first % 1000 ? first % 1000 : 1000) : -1;
	int64_t ms = session_clock_ms(s, r, mono_ms);
	/* At zero the text stops changing; the server decides the flag. */
	if (ms <= 0 || ms >= SESSION_UNLIMITED_MS)
		return -1;
	/* The reading at which the text next changes; a threshold that is
	 * no whole second (or tenth) falls between two changes: wake for it
	 * too. */
	int64_t target = ms - clock_text_next_change(ms);
	int64_t low = session_low_threshold_ms(s);
	if (low > 0 && ms >= low && low - 1 > target)
		target = low - 1;
	struct clock_vacations vac;
	fold_clock_vacations(&s->view, &vac);
	int64_t at = clock_reaching(&s->view.clock, target, &vac);
	if (at == INT64_MAX)
		return first_wake;
	int64_t now = session_server_ms(s, mono_ms);
	int64_t wake = at > now ? at - now : 1;
	return first_wake > 0 && first_wake < wake ? first_wake : wake;
}

int64_t session_low_threshold_ms(const struct session *s)
{
	if (s->low_time_cfg_ms >= 0)
		return s->low_time_cfg_ms;
	if (!s->view.created)
		return 0;
	const struct time_control *tc = &s->view.clock.tc;
	if (tc->kind == TC_UNLIMITED || tc->n_periods < 1)
		return 0;
	int64_t t = tc->periods[0].base_ms / 10;
	if (t < SESSION_LOW_TIME_MIN_MS)
		t = SESSION_LOW_TIME_MIN_MS;
	if (t > SESSION_LOW_TIME_MAX_MS)
		t = SESSION_LOW_TIME_MAX_MS;
	return t;
}

bool session_clock_low(const struct session *s, int c, int64_t mono_ms)
{
	int64_t low = session_low_threshold_ms(s);
	if (low <= 0 || !s->have_reading || !fold_running(&s->view) || s->gone)
		return false;
	int64_t ms = session_clock_ms(s, c, mono_ms);
	return ms < low && ms < SESSION_UNLIMITED_MS;
}

unsigned session_tick(struct session *s, int64_t mono_ms)
{
	unsigned dirty = 0;
	if (!s->have_reading)
		return 0;
	for (int c = WHITE; c <= BLACK; c++) {
		int low = session_clock_low(s, c, mono_ms) ? 1 : 0;
		if (low == s->low_state[c])
			continue;
		/* Only a crossing seen happening rings: not the state found in
		 * the first reading (joining, reconnecting), not an increment
		 * lifting the clock back over. */
		if (s->low_state[c] == 0 && low && c == s->me && s->bell && session_clock_running(s, c))
			dirty |= SESSION_DIRTY_BELL;
		s->low_state[c] = low;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	return dirty;
}

/* ---- moves and premoves ---- */

static bitboard session_destinations(const struct session *s, int from)
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
			if (move_kind(m) == MOVE_CASTLING && !p.chess960)
				to = position_castle_king_to(from, to);
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

static unsigned session_send_move(struct session *s, move m)
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

static unsigned session_send_premoves(struct session *s)
{
	struct session_req r = { .kind = SESSION_REQ_PREMOVES };
	r.ply = (int64_t)session_plies(s) + (session_pending_commits(s) ? 1 : 0);
	r.n = s->premoves.n;
	for (int i = 0; i < s->premoves.n && i < PROTOCOL_PREMOVES_MAX; i++)
		premove_write(&s->premoves.items[i], s->view.game.start.chess960, r.moves[i]);
	session_push(s, &r);
	return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
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

static unsigned session_try(struct session *s, int from, int to, int promo)
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
		session_say(s, true, "the game is adjourned: P asks to resume");
		return SESSION_DIRTY_STATUS;
	default:
		break;
	}
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
static unsigned session_pick(struct session *s, int sq)
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
static unsigned session_submit_text(struct session *s, const char *text)
{
	struct position p;
	struct tchess_error err = { 0 };
	size_t len = strlen(text);
	session_rules_position(s, &p);
	if (session_over(s) || !fold_running(&s->view) || fold_adjourned(&s->view) || session_my_turn(s) ||
	    session_provisional_mine(s)) {
		move m;
		if (!fold_running(&s->view) || fold_adjourned(&s->view) || session_provisional_mine(s))
			return session_try(s, 0, 0, 0);
		if (notation_parse_move(&p, text, len, &m, &err) != TCHESS_OK) {
			session_say(s, true, "illegal: %s", err.message);
			return SESSION_DIRTY_STATUS;
		}
		return session_send_move(s, m);
	}
	struct premove pm;
	if (premove_parse_uci(text, len, &pm, NULL) == TCHESS_OK)
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
	if (san_parse(&q, text, len, &m, &err) != TCHESS_OK) {
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
		if (!strncmp(san, s->prompt_text, plen))
			snprintf(cands[n++], SAN_MAX, "%s", san);
		else if (plen && !strncmp(uci, s->prompt_text, plen))
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
	if (common > plen) {
		memcpy(s->prompt_text, cands[0], common);
		s->prompt_text[common] = '\0';
	}
	size_t used = 0;
	for (int i = 0; i < n && used + SAN_MAX + 1 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", cands[i]);
	return n;
}

/* ---- game actions ---- */

/* The ply an action is meant for: after my move still on its way, the
 * next one (the outbox sends in order, so the move lands first). */
static int64_t session_action_ply(const struct session *s)
{
	return (int64_t)session_plies(s) + (session_pending_commits(s) ? 1 : 0);
}

/* Asks libtchess whether I may do fn now, on a copy of the mirror with my
 * pending move played: the same rules the server applies, with the same
 * words, and no request when they say no. */
static bool session_rules_allow(const struct session *s,
				enum tchess_err (*fn)(struct game *g, enum color who, struct tchess_error *err),
				struct tchess_error *err)
{
	struct game g;
	if (game_copy(&g, &s->view.game, err) != TCHESS_OK)
		return false;
	enum tchess_err e = TCHESS_OK;
	if (session_pending_commits(s))
		e = game_play(&g, (enum color)s->me, s->pending_move, 0, 0, err);
	if (e == TCHESS_OK)
		e = fn(&g, (enum color)s->me, err);
	game_fini(&g);
	return e == TCHESS_OK;
}

static void session_push_action(struct session *s, enum session_req_kind kind, const char *action)
{
	struct session_req r = { .kind = kind, .ply = session_action_ply(s) };
	snprintf(r.action, sizeof r.action, "%s", action);
	session_push(s, &r);
}

/* Refuses (true, with a message) when the game does not run. */
static bool session_not_running(struct session *s)
{
	if (session_over(s)) {
		session_say(s, true, "the game is over");
		return true;
	}
	if (!s->view.created || !s->view.started) {
		session_say(s, true, "the game has not started: waiting for an opponent");
		return true;
	}
	return false;
}

/* The first standing request (resume, adjourn, abort, then draw) made by
 * side by (-1: by either side); -1 if none. *who gets its maker. */
static int session_standing(const struct session *s, int by, int *who)
{
	const struct game_view *v = &s->view;
	int makers[FOLD_REQ_COUNT];
	static const int order[] = { FOLD_REQ_RESUME, FOLD_REQ_ADJOURN, FOLD_REQ_ABORT, FOLD_REQ_DRAW };
	if (!v->created || session_over(s))
		return -1;
	makers[FOLD_REQ_DRAW] = v->game.offer_by;
	makers[FOLD_REQ_ABORT] = v->game.abort_request_by;
	makers[FOLD_REQ_ADJOURN] = v->adjourn_request_by;
	makers[FOLD_REQ_RESUME] = v->resume_request_by;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		int m = makers[order[i]];
		if (m >= 0 && (by < 0 || m == by)) {
			*who = m;
			return order[i];
		}
	}
	return -1;
}

static const enum session_req_kind session_req_of_what[FOLD_REQ_COUNT] = {
	[FOLD_REQ_DRAW] = SESSION_REQ_DRAW,
	[FOLD_REQ_ABORT] = SESSION_REQ_ABORT,
	[FOLD_REQ_ADJOURN] = SESSION_REQ_ADJOURN,
	[FOLD_REQ_RESUME] = SESSION_REQ_RESUME,
};

/* A rematch request, for the finished game's last ply. */
static void session_push_rematch(struct session *s, const char *action)
{
	struct session_req r = { .kind = SESSION_REQ_REMATCH, .ply = (int64_t)session_plies(s) };
	snprintf(r.action, sizeof r.action, "%s", action);
	session_push(s, &r);
}

bool session_rematch_possible(const struct session *s, const char **why)
{
	const struct game_view *v = &s->view;
	*why = NULL;
	if (s->me < 0)
		*why = "spectating: only the players play a rematch";
	else if (!session_over(s))
		*why = "a rematch is offered after the game";
	else if (v->game.termination == GAME_TERM_ABORTED)
		*why = "no rematch after an aborted game";
	else if (v->seats[WHITE].kind != FOLD_SEAT_HUMAN || v->seats[BLACK].kind != FOLD_SEAT_HUMAN)
		*why = "a rematch is between two human players";
	else if (v->next_game[0])
		*why = "the rematch was accepted already";
	else if (v->absent[!s->me] && v->rematch_by != !s->me)
		*why = "your opponent has left";
	return *why == NULL;
}

/* r: offer a rematch, or accept the opponent's offer. */
static unsigned session_rematch(struct session *s)
{
	const char *why;
	if (!session_rematch_possible(s, &why)) {
		session_say(s, true, "no rematch: %s", why);
		return SESSION_DIRTY_STATUS;
	}
	if (s->view.rematch_by == s->me) {
		session_say(s, true, "your rematch offer stands: waiting for %s (W withdraws)", session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	bool accept = s->view.rematch_by == !s->me;
	session_push_rematch(s, accept ? "accept" : "offer");
	session_say(s, false, accept ? "accepting the rematch..." : "offering a rematch...");
	return SESSION_DIRTY_STATUS;
}

/* u and d in undo games: the take-back and the done of my provisional
 * move, for the turn's ply (the committed plies: the provisional move is
 * not one of them). A move still on its way goes first (the outbox sends
 * in order), so u or d right after a move act on it. */
static unsigned session_undo_action(struct session *s, bool done)
{
	char san[SAN_MAX + 2];
	if (!s->view.created || !s->view.undo) {
		session_say(s, true, "not an undo game: moves are final%s", done ? ", there is nothing to press" : "");
		return SESSION_DIRTY_STATUS;
	}
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	enum session_req_kind sent;
	if (session_undo_sent(s, &sent) && sent == SESSION_REQ_DONE) {
		session_say(s, true, "done is on its way: the turn has passed");
		return SESSION_DIRTY_STATUS;
	}
	if (!session_provisional_mine(s)) {
		session_say(s, true, done ? "nothing to commit: make a move first, then press d"
					  : "nothing to take back: you have no provisional move");
		return SESSION_DIRTY_STATUS;
	}
	/* libtchess decides, on copies, as the server will: my move on its
	 * way is made provisional first. */
	struct tchess_error err;
	struct takeback_turn t = s->view.turn;
	struct game g;
	if (game_copy(&g, &s->view.game, &err) != TCHESS_OK) {
		session_say(s, true, "%s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	enum tchess_err e = TCHESS_OK;
	if (s->pending)
		e = takeback_move(&t, &g, (enum color)s->me, s->pending_move, 0, &err);
	if (e == TCHESS_OK && done)
		e = takeback_done(&t, &g, (enum color)s->me, 0, s->reading.ms[s->me] > 0 ? s->reading.ms[s->me] : 1,
				  &err);
	else if (e == TCHESS_OK)
		e = takeback_take_back(&t, &g, (enum color)s->me, &err);
	game_fini(&g);
	if (e != TCHESS_OK) {
		session_say(s, true, "%s refused: %s", done ? "done" : "take-back", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_extra_move(s, san, sizeof san);
	struct session_req r = { .kind = done ? SESSION_REQ_DONE : SESSION_REQ_TAKEBACK,
				 .ply = (int64_t)session_plies(s) };
	session_push(s, &r);
	/* Drawn at once, like a move: the move gone, or played and the turn
	 * passed; the event confirms it (or the refusal undoes it). A move
	 * still on its way is taken back with it. */
	s->undo_sent = true;
	s->undo_kind = r.kind;
	s->undo_ply = r.ply;
	if (s->pending && !done)
		s->pending = false;
	s->selected = SQ_NONE;
	session_relayout_moves(s);
	if (done)
		session_say(s, false, "done: %s is played, the turn passes...", san);
	else
		session_say(s, false, "taking %s back...", san);
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

bool session_undo_text(const struct session *s, char *buf, size_t size)
{
	buf[0] = '\0';
	if (s->me < 0 || !s->view.created || !s->view.undo || !fold_running(&s->view))
		return false;
	enum session_req_kind sent;
	if (session_undo_sent(s, &sent) && sent == SESSION_REQ_DONE)
		return false;
	if (session_provisional_mine(s))
		snprintf(buf, size, "undo game: press d when done, u takes back");
	else if (session_my_turn(s))
		snprintf(buf, size, "undo game: move, then press d when done");
	else
		return false;
	return true;
}

/* Half-points as a score: "1½", "½", "0" ("1.5" in ASCII). */
static void session_points(int half, bool ascii, char *buf, size_t size)
{
	int whole = half / 2;
	bool h = half % 2 != 0;
	if (!h)
		snprintf(buf, size, "%d", whole);
	else if (ascii)
		snprintf(buf, size, "%d.5", whole);
	else if (whole)
		snprintf(buf, size, "%d\u00bd", whole);
	else
		snprintf(buf, size, "\u00bd");
}

bool session_series_text(const struct session *s, char *buf, size_t size)
{
	struct fold_series fs;
	char a[16], b[16];
	buf[0] = '\0';
	if (!fold_series_after(&s->view, s->game_id, &fs))
		return false;
	int first = s->me >= 0 ? s->me : WHITE;
	session_points(fs.score.half[first], s->ascii, a, sizeof a);
	session_points(fs.score.half[!first], s->ascii, b, sizeof b);
	snprintf(buf, size, "series game %d: %s %s%s%s %s", fs.game, s->me >= 0 ? "you" : s->view.seats[WHITE].name,
		 a, s->ascii ? "-" : "\u2013", b, s->view.seats[!first].name);
	return true;
}

static unsigned session_draw_offer(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (!session_rules_allow(s, game_offer_draw, &err)) {
		session_say(s, true, "no draw offer: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_DRAW, "offer");
	session_say(s, false, "offering a draw...");
	return SESSION_DIRTY_STATUS;
}

static unsigned session_draw_withdraw(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_over(s) && s->view.rematch_by == s->me) {
		session_push_rematch(s, "withdraw");
		session_say(s, false, "withdrawing the rematch offer...");
		return SESSION_DIRTY_STATUS;
	}
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (!session_rules_allow(s, game_withdraw_draw, &err)) {
		session_say(s, true, "nothing withdrawn: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_DRAW, "withdraw");
	session_say(s, false, "withdrawing the draw offer...");
	return SESSION_DIRTY_STATUS;
}

/* A and D: answer the opponent's standing offer or request. */
static unsigned session_answer(struct session *s, bool accept)
{
	int who, what;
	if (session_over(s) && s->view.rematch_by == !s->me) {
		session_push_rematch(s, accept ? "accept" : "decline");
		session_say(s, false, "%s the rematch...", accept ? "accepting" : "declining");
		return SESSION_DIRTY_STATUS;
	}
	if (session_over(s)) {
		session_say(s, true, "the game is over");
		return SESSION_DIRTY_STATUS;
	}
	what = session_standing(s, !s->me, &who);
	if (what < 0) {
		session_say(s, true, "nothing to %s: no offer or request from %s", accept ? "accept" : "decline",
			    session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	if (what == FOLD_REQ_DRAW) {
		struct tchess_error err = { 0 };
		if (!session_rules_allow(s, accept ? game_accept_draw : game_decline_draw, &err)) {
			session_say(s, true, "draw offer: %s", err.message);
			return SESSION_DIRTY_STATUS;
		}
	}
	session_push_action(s, session_req_of_what[what], accept ? "accept" : "decline");
	session_say(s, false, "%s the %s...", accept ? "accepting" : "declining",
		    what == FOLD_REQ_DRAW ? "draw offer" : fold_request_what_str((enum fold_request_what)what));
	return SESSION_DIRTY_STATUS;
}

/* C: threefold or fifty moves, whichever holds, with the move typed at the
 * prompt (text, may be "") as the intended move. */
static unsigned session_claim_draw(struct session *s, const char *text)
{
	struct tchess_error e3 = { 0 }, e50 = { 0 };
	move m = MOVE_NONE;
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (!session_my_turn(s)) {
		session_say(s, true, "claim refused: only the player to move may claim");
		return SESSION_DIRTY_STATUS;
	}
	if (text[0] && notation_parse_move(&s->view.game.pos, text, strlen(text), &m, &e3) != TCHESS_OK) {
		session_say(s, true, "claim refused: %s", e3.message);
		return SESSION_DIRTY_STATUS;
	}
	const char *claim = NULL;
	if (game_check_claim(&s->view.game, GAME_CLAIM_THREEFOLD, m, &e3) == TCHESS_OK)
		claim = "threefold";
	else if (game_check_claim(&s->view.game, GAME_CLAIM_FIFTY_MOVES, m, &e50) == TCHESS_OK)
		claim = "fifty-moves";
	if (!claim) {
		session_say(s, true, "claim refused: %s; %s", e3.message, e50.message);
		return SESSION_DIRTY_STATUS;
	}
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s) };
	snprintf(r.claim, sizeof r.claim, "%s", claim);
	if (m != MOVE_NONE)
		uci_write(&s->view.game.pos, m, r.moves[0]);
	session_push(s, &r);
	session_say(s, false, "claiming a draw (%s%s%s)...", claim, m != MOVE_NONE ? " with " : "", text);
	return SESSION_DIRTY_STATUS;
}

static unsigned session_claim_tablebase(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (game_check_tablebase_claim(&s->view.game, &err) != TCHESS_OK) {
		session_say(s, true, "tablebase claim refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s) };
	snprintf(r.claim, sizeof r.claim, "tablebase");
	session_push(s, &r);
	session_say(s, false, "claiming a tablebase draw...");
	return SESSION_DIRTY_STATUS;
}

/* X: alone (asks first, it ends the game), or a request by consent. */
static unsigned session_abort(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_over(s) || !s->view.created) {
		session_say(s, true, "the game is over");
		return SESSION_DIRTY_STATUS;
	}
	if (s->view.game.abort_request_by == s->me) {
		session_say(s, true, "you asked to abort already: waiting for %s", session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	if (session_action_ply(s) < s->view.game.rules.abort_alone_max_plies) {
		s->confirm = SESSION_CONFIRM_ABORT;
		session_say(s, false, "abort this game? it ends unscored (y/n)");
		return SESSION_DIRTY_STATUS;
	}
	if (!session_rules_allow(s, game_request_abort, &err)) {
		session_say(s, true, "no abort: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_ABORT, "request");
	session_say(s, false, "asking %s to agree to abort...", session_side(!s->me));
	return SESSION_DIRTY_STATUS;
}

/* P: ask to adjourn a running game, or to resume an adjourned one. */
static unsigned session_adjourn(struct session *s)
{
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	bool adjourned = fold_adjourned(&s->view);
	int by = adjourned ? s->view.resume_request_by : s->view.adjourn_request_by;
	const char *what = adjourned ? "resume" : "adjourn";
	if (by == s->me) {
		session_say(s, true, "you asked to %s already: waiting for %s", what, session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	if (by == !s->me) {
		session_say(s, true, "%s asks to %s: A accepts, D declines", session_side(by), what);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, adjourned ? SESSION_REQ_RESUME : SESSION_REQ_ADJOURN, "request");
	session_say(s, false, "asking %s to %s...", session_side(!s->me), what);
	return SESSION_DIRTY_STATUS;
}

/* What G claims now: "win", "discard" or NULL (why in *why). */
static const char *session_gone_claim(const struct session *s, const char **why)
{
	const struct game_view *v = &s->view;
	*why = "your opponent is present";
	if (!v->created || !v->started || session_over(s)) {
		*why = "the game is not running";
		return NULL;
	}
	if (fold_adjourned(v)) {
		if (v->game.rules.discard_claims_per_day <= 0) {
			*why = "these rules have no discard claims";
			return NULL;
		}
		/* A discard is the partner's refusal (fold.c, apply_discard):
		 * a decline, or silence while online, whose time the server
		 * judges. */
		if (v->resume_declined[s->me])
			return "discard";
		if (v->resume_request_by != s->me) {
			*why = "a discard is your opponent's refusal to resume: P asks to resume first";
			return NULL;
		}
		if (v->absent[!s->me]) {
			*why = "your opponent is not online: they have not refused";
			return NULL;
		}
		return "discard";
	}
	if (v->game.rules.disconnect != DISCONNECT_CLAIM_WIN) {
		*why = "these rules give no win for a disconnect";
		return NULL;
	}
	return v->absent[!s->me] ? "win" : NULL;
}

static unsigned session_gone(struct session *s)
{
	const char *why;
	const char *claim = session_gone_claim(s, &why);
	if (!claim) {
		session_say(s, true, "nothing to claim: %s", why);
		return SESSION_DIRTY_STATUS;
	}
	if (!strcmp(claim, "win")) {
		s->confirm = SESSION_CONFIRM_CLAIM_WIN;
		session_say(s, false, "%s is gone: claim the win? (y/n)", session_side(!s->me));
	} else {
		s->confirm = SESSION_CONFIRM_DISCARD;
		session_say(s, false, "claim that %s discards resuming? (y/n)", session_side(!s->me));
	}
	return SESSION_DIRTY_STATUS;
}

static void session_push_claim(struct session *s, const char *claim)
{
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s) };
	snprintf(r.claim, sizeof r.claim, "%s", claim);
	session_push(s, &r);
}

static unsigned session_note_submit(struct session *s)
{
	if (!s->note_text[0])
		return 0;
	struct session_req r = { .kind = SESSION_REQ_NOTE, .ply = session_action_ply(s) };
	snprintf(r.text, sizeof r.text, "%s", s->note_text);
	session_push(s, &r);
	s->note_text[0] = '\0';
	session_say(s, false, "note sent%s", session_over(s) ? "" : " (only you see it until the game ends)");
	return SESSION_DIRTY_STATUS | SESSION_DIRTY_NOTES;
}

/* Appends the character c (a code point) to the note as UTF-8. */
static void session_note_input(struct session *s, long c)
{
	char u[4];
	size_t n = 0, len = strlen(s->note_text);
	if (c < 0x80) {
		u[n++] = (char)c;
	} else if (c < 0x800) {
		u[n++] = (char)(0xC0 | (c >> 6));
		u[n++] = (char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		u[n++] = (char)(0xE0 | (c >> 12));
		u[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
		u[n++] = (char)(0x80 | (c & 0x3F));
	} else {
		u[n++] = (char)(0xF0 | (c >> 18));
		u[n++] = (char)(0x80 | ((c >> 12) & 0x3F));
		u[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
		u[n++] = (char)(0x80 | (c & 0x3F));
	}
	if (len + n < sizeof s->note_text) {
		memcpy(s->note_text + len, u, n);
		s->note_text[len + n] = '\0';
	}
}

static void session_note_erase(struct session *s)
{
	size_t len = strlen(s->note_text);
	/* A whole UTF-8 character. */
	while (len && (s->note_text[len - 1] & 0xC0) == 0x80)
		len--;
	if (len)
		len--;
	s->note_text[len] = '\0';
}

void session_end_text(const struct session *s, char *buf, size_t size)
{
	const struct game *g = &s->view.game;
	/* The viewer's own side is "you", as in every other message. */
	const char *by = session_who(s, s->view.end_color), *other = session_who(s, !s->view.end_color);
	const char *reason = s->view.end_reason;
	bool has_color = s->view.end_color == WHITE || s->view.end_color == BLACK;
	buf[0] = '\0';
	if (!session_over(s))
		return;
	switch (g->termination) {
	case GAME_TERM_RESIGNATION:
		snprintf(buf, size, "%s resigned", by);
		break;
	case GAME_TERM_AGREEMENT:
		snprintf(buf, size, "%s accepted %s draw offer", by, session_whose(s, !s->view.end_color));
		break;
	case GAME_TERM_TIMEOUT:
	case GAME_TERM_TIMEOUT_VS_INSUFFICIENT:
		snprintf(buf, size, "%s time ran out%s", has_color ? session_whose(s, s->view.end_color) : "a side's",
			 g->termination == GAME_TERM_TIMEOUT_VS_INSUFFICIENT ? "; the opponent cannot mate" : "");
		break;
	case GAME_TERM_ABORTED:
		if (!strcmp(reason, "first-move-timeout"))
			snprintf(buf, size, "%s did not make a first move in time", by);
		else if (has_color)
			snprintf(buf, size, "aborted by %s", by);
		else
			snprintf(buf, size, "aborted");
		break;
	case GAME_TERM_THREEFOLD:
	case GAME_TERM_FIFTY_MOVES:
		if (has_color && g->claim_move != MOVE_NONE) {
			/* The intended move is read in the position it was claimed in. */
			char san[SAN_MAX];
			san_write(&g->pos, g->claim_move, san);
			snprintf(buf, size, "claimed by %s with %s (not played)", by, san);
		} else if (has_color) {
			snprintf(buf, size, "claimed by %s", by);
		}
		break;
	case GAME_TERM_TABLEBASE:
		snprintf(buf, size, "claimed by %s: %s", by, reason[0] ? reason : "the tables say drawn");
		break;
	case GAME_TERM_TECHNICAL_FAILURE:
		if (!strcmp(reason, "disconnect"))
			snprintf(buf, size, "%s disconnected (unscored)", by);
		else if (!strcmp(reason, "abandoned"))
			snprintf(buf, size, "%s abandoned the game; %s claimed the win", by, other);
		else if (!strcmp(reason, "invalid-commands"))
			snprintf(buf, size, "%s sent too many invalid commands", by);
		else if (!strcmp(reason, "discards"))
			snprintf(buf, size, "%s discarded resuming too often", by);
		else if (!strcmp(reason, "max-duration"))
			snprintf(buf, size, "the game reached the server's time limit (unscored)");
		else
			snprintf(buf, size, "%s", reason);
		break;
	default:
		if (reason[0])
			snprintf(buf, size, "%s", reason);
		break;
	}
}

bool session_request_text(const struct session *s, char *buf, size_t size)
{
	static const char *const made[] = { "offers a draw", "asks to abort", "asks to adjourn", "asks to resume" };
	const char *dash = s->ascii ? "-" : "\u2014";
	const struct game_view *v = &s->view;
	int who, what;
	buf[0] = '\0';
	if (v->created && session_over(s) && v->rematch_by >= 0) {
		if (v->rematch_by == s->me)
			snprintf(buf, size, "you offered a rematch %s W withdraw", dash);
		else if (s->me >= 0)
			snprintf(buf, size, "%s offers a rematch %s r accept, D decline", session_side(v->rematch_by),
				 dash);
		else
			snprintf(buf, size, "%s offers a rematch", session_side(v->rematch_by));
		return true;
	}
	if (!v->created || session_over(s))
		return false;
	what = session_standing(s, -1, &who);
	if (what >= 0 && (who != s->me || s->me < 0)) {
		snprintf(buf, size, "%s %s", session_side(who), made[what]);
		if (s->me >= 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s A accept, D decline", dash);
		return true;
	}
	if (what >= 0) {
		static const char *const mine[] = { "you offered a draw", "you asked to abort", "you asked to adjourn",
						    "you asked to resume" };
		const char *why;
		snprintf(buf, size, "%s", mine[what]);
		if (what == FOLD_REQ_DRAW && v->game.rules.offer_lifetime == OFFER_UNTIL_WITHDRAWN)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s W withdraw", dash);
		else if (what == FOLD_REQ_RESUME && session_gone_claim(s, &why))
			snprintf(buf + strlen(buf), size - strlen(buf), " %s G claim %s discards", dash,
				 session_side(!s->me));
		return true;
	}
	for (int c = WHITE; c <= BLACK; c++) {
		if (!v->absent[c] || c == s->me)
			continue;
		const char *why;
		snprintf(buf, size, "%s is gone", session_side(c));
		if (s->me >= 0 && session_gone_claim(s, &why) && !strcmp(session_gone_claim(s, &why), "win"))
			snprintf(buf + strlen(buf), size - strlen(buf), " %s G claim the win", dash);
		return true;
	}
	if (fold_adjourned(v)) {
		snprintf(buf, size, "adjourned");
		if (s->me >= 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s P asks to resume", dash);
		return true;
	}
	return false;
}

/* ---- keys and commands ---- */

static struct session_cmd session_cmd(enum session_cmd_kind kind, long arg, long arg2)
{
	struct session_cmd c = { kind, arg, arg2 };
	return c;
}

static unsigned session_run_none(struct session *s, const struct session_cmd *c)
{
	(void)s;
	(void)c;
	unsigned dirty = 0;
	return dirty;
}

static unsigned session_run_quit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->me >= 0 && fold_running(&s->view) && !s->gone) {
		s->confirm = SESSION_CONFIRM_QUIT;
		session_say(s, false, "leave the game? your clock keeps running (y/n)");
		dirty |= SESSION_DIRTY_STATUS;
	} else {
		s->quit = true;
	}
	return dirty;
}

static unsigned session_run_cursor(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->cursor == SQ_NONE)
		s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
	else
		s->cursor = board_view_cursor_step(s->flipped, s->cursor, (int)c->arg, (int)c->arg2);
	dirty |= SESSION_DIRTY_BOARD;
	return dirty;
}

static unsigned session_run_pick(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->cursor == SQ_NONE) {
		s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
		dirty |= SESSION_DIRTY_BOARD;
		return dirty;
	}
	dirty |= session_pick(s, s->cursor);
	return dirty;
}

static unsigned session_run_click(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->me < 0) {
		session_say(s, true, "spectating: you cannot move in this game");
		dirty |= SESSION_DIRTY_STATUS;
		return dirty;
	}
	s->cursor = (int)c->arg;
	dirty |= SESSION_DIRTY_BOARD | session_pick(s, (int)c->arg);
	return dirty;
}

static unsigned session_run_cancel(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->promo || s->selected != SQ_NONE) {
		s->promo = false;
		s->selected = SQ_NONE;
		dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return dirty;
}

static unsigned session_run_flip(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->flipped = !s->flipped;
	dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_CLOCKS | SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_help(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->help = !s->help;
	dirty |= s->help ? SESSION_DIRTY_HELP : SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_prompt_open(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->prompt = true;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_input(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	size_t n = strlen(s->prompt_text);
	if (!s->prompt) {
		s->prompt = true;
		n = 0;
	}
	if (n + 1 < sizeof s->prompt_text) {
		s->prompt_text[n] = (char)c->arg;
		s->prompt_text[n + 1] = '\0';
	}
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_erase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	size_t n = strlen(s->prompt_text);
	if (n)
		s->prompt_text[n - 1] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_complete(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char cands[SESSION_MESSAGE_MAX];
	int n = session_complete(s, cands, sizeof cands);
	if (n == 0)
		session_say(s, true, session_my_turn(s) ? "no legal move starts with \"%s\""
							: "completion works on your move%s",
			    session_my_turn(s) ? s->prompt_text : "");
	else if (n > 1)
		session_say(s, false, "%s", cands);
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_submit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char text[SESSION_PROMPT_MAX];
	snprintf(text, sizeof text, "%s", s->prompt_text);
	s->prompt = false;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	if (text[0])
		dirty |= session_submit_text(s, text);
	return dirty;
}

static unsigned session_run_prompt_cancel(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->prompt = false;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_promote(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->promo) {
		s->promo = false;
		dirty |= SESSION_DIRTY_BOARD | session_try(s, s->promo_from, s->promo_to, (int)c->arg);
	}
	return dirty;
}

static unsigned session_run_premoves_clear(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->premoves.n || (s->me >= 0 && s->view.premoves[s->me].n)) {
		struct session_req r = { .kind = SESSION_REQ_PREMOVES_CLEAR };
		premove_queue_clear(&s->premoves);
		session_push(s, &r);
		session_say(s, false, "premoves cleared");
		dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return dirty;
}

static unsigned session_run_resign(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (!fold_running(&s->view)) {
		session_say(s, true, "the game is not running");
	} else {
		s->confirm = SESSION_CONFIRM_RESIGN;
		session_say(s, false, "resign this game? (y/n)");
	}
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_confirm_yes(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	enum session_confirm what = s->confirm;
	s->confirm = SESSION_CONFIRM_NONE;
	dirty |= SESSION_DIRTY_STATUS;
	if (what == SESSION_CONFIRM_RESIGN) {
		struct session_req r = { .kind = SESSION_REQ_RESIGN };
		session_push(s, &r);
		session_say(s, false, "resigning...");
	} else if (what == SESSION_CONFIRM_QUIT) {
		s->quit = true;
	} else if (what == SESSION_CONFIRM_ABORT) {
		session_push_action(s, SESSION_REQ_ABORT, "request");
		session_say(s, false, "aborting...");
	} else if (what == SESSION_CONFIRM_CLAIM_WIN || what == SESSION_CONFIRM_DISCARD) {
		session_push_claim(s, what == SESSION_CONFIRM_CLAIM_WIN ? "win" : "discard");
		session_say(s, false, "claiming...");
	}
	return dirty;
}

static unsigned session_run_draw_offer(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_draw_offer(s);
	return dirty;
}

static unsigned session_run_draw_withdraw(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_draw_withdraw(s);
	return dirty;
}

static unsigned session_run_accept(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	dirty |= session_answer(s, c->kind == SESSION_CMD_ACCEPT);
	return dirty;
}

static unsigned session_run_claim_draw(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char text[SESSION_PROMPT_MAX] = "";
	if (s->prompt) {
		snprintf(text, sizeof text, "%s", s->prompt_text);
		s->prompt = false;
		s->prompt_text[0] = '\0';
	}
	dirty |= SESSION_DIRTY_STATUS | session_claim_draw(s, text);
	return dirty;
}

static unsigned session_run_claim_tablebase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_claim_tablebase(s);
	return dirty;
}

static unsigned session_run_abort(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_abort(s);
	return dirty;
}

static unsigned session_run_adjourn(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_adjourn(s);
	return dirty;
}

static unsigned session_run_gone_claim(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_gone(s);
	return dirty;
}

static unsigned session_run_notes_open(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->me < 0 && !s->n_notes) {
		session_say(s, true, "spectating: the players' notes show after the game");
		dirty |= SESSION_DIRTY_STATUS;
		return dirty;
	}
	s->notes_open = !s->notes_open;
	dirty |= s->notes_open ? SESSION_DIRTY_NOTES | SESSION_DIRTY_STATUS : SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_notes_input(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	session_note_input(s, c->arg);
	dirty |= SESSION_DIRTY_NOTES;
	return dirty;
}

static unsigned session_run_notes_erase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	session_note_erase(s);
	dirty |= SESSION_DIRTY_NOTES;
	return dirty;
}

static unsigned session_run_notes_submit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_note_submit(s);
	return dirty;
}

static unsigned session_run_notes_close(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->notes_open = false;
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_confirm_no(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->confirm = SESSION_CONFIRM_NONE;
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_save_pgn(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (!session_over(s)) {
		session_say(s, true, "the PGN can be saved when the game is over");
	} else {
		struct session_req r = { .kind = SESSION_REQ_PGN };
		session_push(s, &r);
		session_say(s, false, "fetching the PGN...");
	}
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_scroll(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	int top = s->ml_top + (int)c->arg;
	int max = s->ml.rows - s->layout.moves_h;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	if (top != s->ml_top) {
		s->ml_top = top;
		dirty |= SESSION_DIRTY_MOVES;
	}
	return dirty;
}

static unsigned session_run_resize(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	session_layout_compute(&s->layout, (int)c->arg, (int)c->arg2);
	session_relayout_moves(s);
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_redraw(struct session *s, const struct session_cmd *c)
{
	(void)s;
	(void)c;
	unsigned dirty = 0;
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_spectating(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	session_say(s, true, "spectating: you cannot move in this game");
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_takeback(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	dirty |= session_undo_action(s, c->kind == SESSION_CMD_DONE);
	return dirty;
}

static unsigned session_run_rematch(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_rematch(s);
	return dirty;
}

/* The command table: one row per command, indexed by its kind. keys are
 * the board keys that give the command with no argument (the cursor, the
 * scroll keys, a typed move's first letter and d for done are read in
 * session_board_key); SEAT: only a seated player may give it (a spectator
 * is told so); GONE_OK: it still works once the game is gone (looking and
 * leaving; the rest would ask the server about a game it no longer serves
 * to us); KEEPS_MESSAGE: the message line stays (a message stays until the
 * next command that does something). A new command is one row here and
 * its run function. */
enum {
	SESSION_CMD_SEAT = 1 << 0,
	SESSION_CMD_GONE_OK = 1 << 1,
	SESSION_CMD_KEEPS_MESSAGE = 1 << 2
};

#define SESSION_CMD_KEYS_MAX 3

struct session_cmd_row {
	int keys[SESSION_CMD_KEYS_MAX]; /* 0 ends the list */
	unsigned flags;
	unsigned (*run)(struct session *s, const struct session_cmd *c);
};

static const struct session_cmd_row session_cmds[SESSION_CMD_NB] = {
	[SESSION_CMD_NONE] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_none },
	[SESSION_CMD_QUIT] = { { 'q' }, SESSION_CMD_GONE_OK, session_run_quit },
	[SESSION_CMD_CURSOR] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_cursor },
	[SESSION_CMD_PICK] = { { KEYS_ENTER, '\r', ' ' }, SESSION_CMD_SEAT, session_run_pick },
	[SESSION_CMD_CLICK] = { { 0 }, 0, session_run_click },
	[SESSION_CMD_CANCEL] = { { KEYS_ESC }, SESSION_CMD_GONE_OK, session_run_cancel },
	[SESSION_CMD_FLIP] = { { 'f' }, SESSION_CMD_GONE_OK, session_run_flip },
	[SESSION_CMD_HELP] = { { '?' }, SESSION_CMD_GONE_OK, session_run_help },
	[SESSION_CMD_PROMPT_OPEN] = { { '/', ':' }, SESSION_CMD_SEAT, session_run_prompt_open },
	[SESSION_CMD_PROMPT_INPUT] = { { 0 }, SESSION_CMD_SEAT, session_run_prompt_input },
	[SESSION_CMD_PROMPT_ERASE] = { { 0 }, 0, session_run_prompt_erase },
	[SESSION_CMD_PROMPT_COMPLETE] = { { 0 }, 0, session_run_prompt_complete },
	[SESSION_CMD_PROMPT_SUBMIT] = { { 0 }, 0, session_run_prompt_submit },
	[SESSION_CMD_PROMPT_CANCEL] = { { 0 }, 0, session_run_prompt_cancel },
	[SESSION_CMD_PROMOTE] = { { 0 }, 0, session_run_promote },
	[SESSION_CMD_PREMOVES_CLEAR] = { { 'x' }, SESSION_CMD_SEAT, session_run_premoves_clear },
	[SESSION_CMD_RESIGN] = { { 'R' }, SESSION_CMD_SEAT, session_run_resign },
	[SESSION_CMD_DRAW_OFFER] = { { '=' }, SESSION_CMD_SEAT, session_run_draw_offer },
	[SESSION_CMD_DRAW_WITHDRAW] = { { 'W' }, SESSION_CMD_SEAT, session_run_draw_withdraw },
	[SESSION_CMD_ACCEPT] = { { 'A' }, SESSION_CMD_SEAT, session_run_accept },
	[SESSION_CMD_DECLINE] = { { 'D' }, SESSION_CMD_SEAT, session_run_accept },
	[SESSION_CMD_CLAIM_DRAW] = { { 'C' }, SESSION_CMD_SEAT, session_run_claim_draw },
	[SESSION_CMD_CLAIM_TABLEBASE] = { { 'T' }, SESSION_CMD_SEAT, session_run_claim_tablebase },
	[SESSION_CMD_ABORT] = { { 'X' }, SESSION_CMD_SEAT, session_run_abort },
	[SESSION_CMD_ADJOURN] = { { 'P' }, SESSION_CMD_SEAT, session_run_adjourn },
	[SESSION_CMD_GONE_CLAIM] = { { 'G' }, SESSION_CMD_SEAT, session_run_gone_claim },
	[SESSION_CMD_NOTES_OPEN] = { { 'n' }, SESSION_CMD_GONE_OK, session_run_notes_open },
	[SESSION_CMD_NOTES_INPUT] = { { 0 }, 0, session_run_notes_input },
	[SESSION_CMD_NOTES_ERASE] = { { 0 }, 0, session_run_notes_erase },
	[SESSION_CMD_NOTES_SUBMIT] = { { 0 }, 0, session_run_notes_submit },
	[SESSION_CMD_NOTES_CLOSE] = { { 0 }, SESSION_CMD_GONE_OK, session_run_notes_close },
	[SESSION_CMD_CONFIRM_YES] = { { 0 }, SESSION_CMD_GONE_OK, session_run_confirm_yes },
	[SESSION_CMD_CONFIRM_NO] = { { 0 }, SESSION_CMD_GONE_OK, session_run_confirm_no },
	[SESSION_CMD_SAVE_PGN] = { { 's' }, 0, session_run_save_pgn },
	[SESSION_CMD_SCROLL] = { { 0 }, SESSION_CMD_GONE_OK, session_run_scroll },
	[SESSION_CMD_RESIZE] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_resize },
	[SESSION_CMD_REDRAW] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_redraw },
	[SESSION_CMD_SPECTATING] = { { 0 }, 0, session_run_spectating },
	[SESSION_CMD_TAKEBACK] = { { 'u' }, SESSION_CMD_SEAT, session_run_takeback },
	[SESSION_CMD_DONE] = { { 0 }, SESSION_CMD_SEAT, session_run_takeback },
	[SESSION_CMD_REMATCH] = { { 'r' }, SESSION_CMD_SEAT, session_run_rematch },
};

/* The board keys: what a key asks for, seated or not. */
static struct session_cmd session_board_key(const struct session *s, int key)
{
	/* d is a file letter that starts a typed move, except while my
	 * provisional move stands: no move can be typed then. */
	if (key == 'd' && s->me >= 0 && session_provisional_mine(s))
		return session_cmd(SESSION_CMD_DONE, 0, 0);
	switch (key) {
	case KEYS_LEFT:
	case 'h':
		return session_cmd(SESSION_CMD_CURSOR, -1, 0);
	case KEYS_RIGHT:
	case 'l':
		return session_cmd(SESSION_CMD_CURSOR, 1, 0);
	case KEYS_UP:
	case 'k':
		return session_cmd(SESSION_CMD_CURSOR, 0, -1);
	case KEYS_DOWN:
	case 'j':
		return session_cmd(SESSION_CMD_CURSOR, 0, 1);
	case KEYS_PGUP:
		return session_cmd(SESSION_CMD_SCROLL, -(s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1), 0);
	case KEYS_PGDN:
		return session_cmd(SESSION_CMD_SCROLL, s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1, 0);
	default:
		break;
	}
	for (int k = 0; k < SESSION_CMD_NB; k++)
		for (int i = 0; i < SESSION_CMD_KEYS_MAX && session_cmds[k].keys[i]; i++)
			if (session_cmds[k].keys[i] == key)
				return session_cmd((enum session_cmd_kind)k, 0, 0);
	/* A move typed straight away opens the prompt with it. */
	if ((key >= 'a' && key <= 'h') || (key && strchr("NBRQKO", key)))
		return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
	return session_cmd(SESSION_CMD_NONE, 0, 0);
}

struct session_cmd session_key(const struct session *s, int key)
{
	if (key == KEYS_CTRL_L)
		return session_cmd(SESSION_CMD_REDRAW, 0, 0);
	if (s->confirm != SESSION_CONFIRM_NONE) {
		if (key == 'y' || key == 'Y')
			return session_cmd(SESSION_CMD_CONFIRM_YES, 0, 0);
		return session_cmd(SESSION_CMD_CONFIRM_NO, 0, 0);
	}
	if (s->notes_open) {
		switch (key) {
		case KEYS_ENTER:
		case '\r':
			return session_cmd(SESSION_CMD_NOTES_SUBMIT, 0, 0);
		case KEYS_ESC:
			return session_cmd(SESSION_CMD_NOTES_CLOSE, 0, 0);
		case KEYS_BACKSPACE:
		case '\b':
			return session_cmd(SESSION_CMD_NOTES_ERASE, 0, 0);
		default:
			/* Spectators read the notes; only players write them. */
			if (s->me >= 0 && ((key >= ' ' && key < 127) || (key >= 0xA0 && key < 0x110000)))
				return session_cmd(SESSION_CMD_NOTES_INPUT, key, 0);
			return session_cmd(SESSION_CMD_NONE, 0, 0);
		}
	}
	if (s->prompt) {
		switch (key) {
		case KEYS_ENTER:
		case '\r':
			return session_cmd(SESSION_CMD_PROMPT_SUBMIT, 0, 0);
		case 'C':
			/* No SAN or UCI move has a C: claim with the typed move. */
			return session_cmd(SESSION_CMD_CLAIM_DRAW, 0, 0);
		case KEYS_ESC:
			return session_cmd(SESSION_CMD_PROMPT_CANCEL, 0, 0);
		case KEYS_BACKSPACE:
		case '\b':
			return session_cmd(SESSION_CMD_PROMPT_ERASE, 0, 0);
		case KEYS_TAB:
			return session_cmd(SESSION_CMD_PROMPT_COMPLETE, 0, 0);
		default:
			if (key > ' ' && key < 127)
				return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
			return session_cmd(SESSION_CMD_NONE, 0, 0);
		}
	}
	if (s->help)
		return session_cmd(key == KEYS_RESIZE || key == KEYS_MOUSE ? SESSION_CMD_NONE : SESSION_CMD_HELP, 0, 0);
	if (s->promo) {
		switch (key) {
		case 'q': case 'Q': return session_cmd(SESSION_CMD_PROMOTE, QUEEN, 0);
		case 'r': case 'R': return session_cmd(SESSION_CMD_PROMOTE, ROOK, 0);
		case 'b': case 'B': return session_cmd(SESSION_CMD_PROMOTE, BISHOP, 0);
		case 'n': case 'N': return session_cmd(SESSION_CMD_PROMOTE, KNIGHT, 0);
		default: return session_cmd(SESSION_CMD_CANCEL, 0, 0);
		}
	}
	struct session_cmd c = session_board_key(s, key);
	/* A spectator is told so for anything that needs a seat. */
	if (s->me < 0 && (session_cmds[c.kind].flags & SESSION_CMD_SEAT))
		c = session_cmd(SESSION_CMD_SPECTATING, 0, 0);
	return c;
}

unsigned session_apply(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (c->kind < 0 || c->kind >= SESSION_CMD_NB)
		return 0;
	const struct session_cmd_row *row = &session_cmds[c->kind];
	if (s->message[0] && !(row->flags & SESSION_CMD_KEEPS_MESSAGE)) {
		s->message[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
	}
	if (s->gone && !(row->flags & SESSION_CMD_GONE_OK)) {
		char head[120], hint[160];
		session_gone_text(s, head, sizeof head, hint, sizeof hint);
		session_say(s, true, "%s: q quits", head);
		return dirty | SESSION_DIRTY_STATUS;
	}
	return dirty | row->run(s, c);
}

/* ---- views ---- */

void session_board_view(const struct session *s, struct board_view *v)
{
	struct position p;
	board_view_init(v);
	v->flipped = s->flipped;
	v->ascii = s->ascii;
	session_position(s, &p);
	move last = MOVE_NONE;
	enum session_req_kind sent;
	bool taking_back = session_undo_sent(s, &sent) && sent == SESSION_REQ_TAKEBACK;
	if (s->pending)
		last = s->pending_move;
	else if (s->view.created && s->view.undo && takeback_pending(&s->view.turn) && !taking_back)
		last = s->view.turn.pending;
	else if (s->view.created && s->view.game.n_plies)
		last = s->view.game.plies[s->view.game.n_plies - 1].m;
	board_view_set(v, &p, last);
	v->cursor = s->cursor;
	v->selected = s->selected;
	if (s->selected != SQ_NONE && s->me >= 0)
		v->legal = session_destinations(s, s->selected);
	if (s->promo) {
		v->selected = s->promo_from;
		v->legal = sq_bb(s->promo_to);
	}
	for (int i = s->premoves.n - 1; i >= 0; i--) {
		const struct premove *pm = &s->premoves.items[i];
		int to = pm->to;
		if (pm->castling && !p.chess960)
			to = position_castle_king_to(pm->from, to);
		v->premove[pm->from] = (uint8_t)(i + 1);
		v->premove[to] = (uint8_t)(i + 1);
	}
}

void session_layout_compute(struct session_layout *l, int w, int h)
{
	memset(l, 0, sizeof *l);
	l->w = w;
	l->h = h;
	l->status_y = h - 1;
	l->message_y = h - 2;
	if (w < SESSION_MIN_WIDTH || h < SESSION_MIN_HEIGHT) {
		l->too_small = true;
		return;
	}
	if (board_view_geometry(w - 25, h - 2, &l->board) < 0) {
		l->too_small = true;
		return;
	}
	l->info_y = l->board.height;
	l->info_h = h - 2 - l->board.height;
	l->side_x = l->board.width + 1;
	l->side_w = w - l->side_x;
	l->clocks_h = 4;
	l->moves_y = l->clocks_h + 1;
	l->moves_h = h - 2 - l->moves_y;
}
