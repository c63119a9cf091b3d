/*
 * The game actions: draw offers and answers, claims, abort, adjournment,
 * undo games' take-back and done, rematches, the opponent gone, notes;
 * each checked by libtchess where it can decide before a request is sent;
 * and the texts that say how they stand.
 */
#include <stdio.h>
#include <string.h>

#include "session-internal.h"

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

void session_push_action(struct session *s, enum session_req_kind kind, enum protocol_action action)
{
	struct session_req r = { .kind = kind, .ply = session_action_ply(s), .action = action };
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
static void session_push_rematch(struct session *s, enum protocol_action action)
{
	struct session_req r = { .kind = SESSION_REQ_REMATCH, .ply = (int64_t)session_plies(s), .action = action };
	session_push(s, &r);
}

bool session_rematch_possible(const struct session *s, const char **why)
{
	const struct game_view *v = &s->view;
	*why = NULL;
	if (s->lichess)
		*why = "a Lichess rematch is not offered from tchess";
	else if (s->me < 0)
		*why = "spectating: only the players play a rematch";
	else if (!session_over(s))
		*why = "a rematch is offered after the game";
	else if (v->game.termination == GAME_TERM_ABORTED)
		*why = "no rematch after an aborted game";
	else if (v->seats[s->me].kind != FOLD_SEAT_HUMAN ||
		 (v->seats[!s->me].kind != FOLD_SEAT_HUMAN && v->seats[!s->me].kind != FOLD_SEAT_ENGINE))
		*why = "a rematch is between two players, or against the engine";
	else if (v->seats[!s->me].kind == FOLD_SEAT_ENGINE)
		*why = NULL; /* a new game against the engine, whatever it is doing */
	else if (v->next_game[0])
		*why = "the rematch was accepted already";
	else if (v->absent[!s->me] && v->rematch_by != !s->me && !s->hotseat)
		*why = "your opponent has left";
	return *why == NULL;
}

/* A new game against the engine: the same level, time control and rules,
 * me playing color. */
static unsigned session_engine_again(struct session *s, int color)
{
	struct session_req r = { .kind = SESSION_REQ_NEW_GAME, .n = (int)s->view.seats[!s->me].level };
	r.color = color;
	snprintf(r.ruleset, sizeof r.ruleset, "%.*s", (int)sizeof r.ruleset - 1, s->view.game.rules.name);
	snprintf(r.text, sizeof r.text, "%s", s->view.tc);
	session_push(s, &r);
	session_say(s, false, "starting a new game against the engine...");
	return SESSION_DIRTY_STATUS;
}

bool session_new_game_possible(const struct session *s)
{
	const char *why;
	return session_rematch_possible(s, &why) && s->view.seats[!s->me].kind == FOLD_SEAT_ENGINE;
}

unsigned session_new_game(struct session *s)
{
	if (!session_new_game_possible(s)) {
		session_say(s, true, "n is a new game against the engine, after one: go home (q) for another");
		return SESSION_DIRTY_STATUS;
	}
	return session_engine_again(s, s->me);
}

/* r: offer a rematch, or accept the opponent's offer. */
unsigned session_rematch(struct session *s)
{
	const char *why;
	if (!session_rematch_possible(s, &why)) {
		session_say(s, true, "no rematch: %s", why);
		return SESSION_DIRTY_STATUS;
	}
	if (s->view.seats[!s->me].kind == FOLD_SEAT_ENGINE)
		/* The engine does not answer offers: a new game against it,
		 * colours swapped. */
		return session_engine_again(s, s->me == WHITE ? BLACK : WHITE);
	if (s->hotseat) {
		/* Both seats at this terminal: the guest's seat offers (the
		 * server checks that the other seat, the one that long-polls,
		 * is here) and the player's own accepts, in that order (the
		 * outbox sends one at a time). */
		if (s->view.rematch_by < 0) {
			session_push_rematch(s, PROTOCOL_ACTION_OFFER);
			s->outbox[s->n_out - 1].seat = !s->hotseat_host;
		}
		session_push_rematch(s, PROTOCOL_ACTION_ACCEPT);
		s->outbox[s->n_out - 1].seat = s->view.rematch_by == s->hotseat_host ? !s->hotseat_host
											: s->hotseat_host;
		session_say(s, false, "starting the rematch, colours swapped...");
		return SESSION_DIRTY_STATUS;
	}
	if (s->view.rematch_by == s->me) {
		session_say(s, true, "your rematch offer stands: waiting for %s (W withdraws)", session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	bool accept = s->view.rematch_by == !s->me;
	session_push_rematch(s, accept ? PROTOCOL_ACTION_ACCEPT : PROTOCOL_ACTION_OFFER);
	session_say(s, false, accept ? "accepting the rematch..." : "offering a rematch...");
	return SESSION_DIRTY_STATUS;
}

/* u and d in undo games: the take-back and the done of my provisional
 * move, for the turn's ply (the committed plies: the provisional move is
 * not one of them). A move still on its way goes first (the outbox sends
 * in order), so u or d right after a move act on it. */
unsigned session_undo_action(struct session *s, bool done)
{
	if (s->lichess && !done)
		return session_lichess_takeback(s);
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

unsigned session_draw_offer(struct session *s)
{
	if (s->lichess)
		return session_lichess_draw_offer(s);
	struct tchess_error err = { 0 };
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (!session_rules_allow(s, game_offer_draw, &err)) {
		session_say(s, true, "no draw offer: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_DRAW, PROTOCOL_ACTION_OFFER);
	session_say(s, false, "offering a draw...");
	return SESSION_DIRTY_STATUS;
}

unsigned session_draw_withdraw(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_over(s) && s->view.rematch_by == s->me) {
		session_push_rematch(s, PROTOCOL_ACTION_WITHDRAW);
		session_say(s, false, "withdrawing the rematch offer...");
		return SESSION_DIRTY_STATUS;
	}
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (!session_rules_allow(s, game_withdraw_draw, &err)) {
		session_say(s, true, "nothing withdrawn: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_DRAW, PROTOCOL_ACTION_WITHDRAW);
	session_say(s, false, "withdrawing the draw offer...");
	return SESSION_DIRTY_STATUS;
}

/* A and D: answer the opponent's standing offer or request. */
unsigned session_answer(struct session *s, bool accept)
{
	if (s->lichess)
		return session_lichess_answer(s, accept);
	int who, what;
	if (session_over(s) && s->view.rematch_by == !s->me) {
		session_push_rematch(s, accept ? PROTOCOL_ACTION_ACCEPT : PROTOCOL_ACTION_DECLINE);
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
	session_push_action(s, session_req_of_what[what], accept ? PROTOCOL_ACTION_ACCEPT : PROTOCOL_ACTION_DECLINE);
	session_say(s, false, "%s the %s...", accept ? "accepting" : "declining",
		    what == FOLD_REQ_DRAW ? "draw offer" : fold_request_what_str((enum fold_request_what)what));
	return SESSION_DIRTY_STATUS;
}

/* C: threefold or fifty moves, whichever holds, with the move typed at the
 * prompt (text, may be "") as the intended move. */
unsigned session_claim_draw(struct session *s, const char *text)
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
	enum protocol_claim claim = PROTOCOL_CLAIM_NONE;
	if (game_check_claim(&s->view.game, GAME_CLAIM_THREEFOLD, m, &e3) == TCHESS_OK)
		claim = PROTOCOL_CLAIM_THREEFOLD;
	else if (game_check_claim(&s->view.game, GAME_CLAIM_FIFTY_MOVES, m, &e50) == TCHESS_OK)
		claim = PROTOCOL_CLAIM_FIFTY_MOVES;
	if (claim == PROTOCOL_CLAIM_NONE) {
		/* Both rules' reasons, short enough for one line at 80
		 * columns (libtchess's two sentences are 140). */
		if (m == MOVE_NONE)
			session_say(s, true, "no draw to claim: position seen %d of 3 times, fifty-move count %u of 100 plies",
				    game_repetition_count(&s->view.game), (unsigned)s->view.game.pos.halfmove);
		else
			session_say(s, true, "no draw to claim with %s: no threefold repetition, no fifty moves", text);
		return SESSION_DIRTY_STATUS;
	}
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s), .claim = claim };
	if (m != MOVE_NONE)
		uci_write(&s->view.game.pos, m, r.moves[0]);
	session_push(s, &r);
	session_say(s, false, "claiming a draw (%s%s%s)...", protocol_claim_str(claim), m != MOVE_NONE ? " with " : "", text);
	return SESSION_DIRTY_STATUS;
}

unsigned session_claim_tablebase(struct session *s)
{
	struct tchess_error err = { 0 };
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	if (game_check_tablebase_claim(&s->view.game, &err) != TCHESS_OK) {
		session_say(s, true, "tablebase claim refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s),
				 .claim = PROTOCOL_CLAIM_TABLEBASE };
	session_push(s, &r);
	session_say(s, false, "claiming a tablebase draw...");
	return SESSION_DIRTY_STATUS;
}

/* X: alone (asks first, it ends the game), or a request by consent. */
unsigned session_abort(struct session *s)
{
	if (s->lichess)
		return session_lichess_abort(s);
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
		session_say(s, true, "%s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, SESSION_REQ_ABORT, PROTOCOL_ACTION_REQUEST);
	session_say(s, false, "asking %s to agree to abort...", session_side(!s->me));
	return SESSION_DIRTY_STATUS;
}

bool session_hotseat_consent(const struct session *s, struct session_req out[2])
{
	if (!s->hotseat || s->lichess || s->me < 0 || !fold_running(&s->view))
		return false;
	enum session_req_kind k = fold_adjourned(&s->view) ? SESSION_REQ_RESUME : SESSION_REQ_ADJOURN;
	int64_t ply = session_action_ply(s);
	out[0] = (struct session_req){ .kind = k, .ply = ply, .action = PROTOCOL_ACTION_REQUEST, .seat = s->me };
	out[1] = (struct session_req){ .kind = k, .ply = ply, .action = PROTOCOL_ACTION_ACCEPT, .seat = !s->me };
	return true;
}

/* P: ask to adjourn a running game, or to resume an adjourned one; at a
 * hotseat, adjourn or resume it (both seats consent). */
unsigned session_adjourn(struct session *s)
{
	if (s->lichess) {
		session_say(s, true, "Lichess has no adjournment");
		return SESSION_DIRTY_STATUS;
	}
	if (session_not_running(s))
		return SESSION_DIRTY_STATUS;
	bool adjourned = fold_adjourned(&s->view);
	struct session_req both[2];
	if (session_hotseat_consent(s, both)) {
		for (int i = 0; i < 2; i++)
			session_push_as(s, &both[i], both[i].seat);
		session_say(s, false, "%s the game...", adjourned ? "resuming" : "adjourning");
		return SESSION_DIRTY_STATUS;
	}
	int by = adjourned ? s->view.resume_request_by : s->view.adjourn_request_by;
	const char *what = adjourned ? "resume" : "adjourn";
	if (by == s->me) {
		session_say(s, true, "you asked to %s already: waiting for %s", what, session_side(!s->me));
		return SESSION_DIRTY_STATUS;
	}
	if (by == !s->me) {
		session_say(s, true, "%s asks to %s: + accepts, - declines", session_side(by), what);
		return SESSION_DIRTY_STATUS;
	}
	session_push_action(s, adjourned ? SESSION_REQ_RESUME : SESSION_REQ_ADJOURN, PROTOCOL_ACTION_REQUEST);
	session_say(s, false, "asking %s to %s...", session_side(!s->me), what);
	return SESSION_DIRTY_STATUS;
}

bool session_opponent_left(const struct session *s, struct session_left *out)
{
	const struct game_view *v = &s->view;
	if (!v->created || !v->started || session_over(s) || s->gone)
		return false;
	if (s->lichess) {
		if (!s->lichess_gone || s->me < 0)
			return false;
		*out = (struct session_left){ !s->me, SESSION_LEFT_CLAIM, s->lichess_claim_at_ms };
		return true;
	}
	if (fold_adjourned(v))
		return false;
	for (int c = WHITE; c <= BLACK; c++) {
		if (c == s->me || (v->left_gone_ms[c] == 0 && !v->absent[c]))
			continue;
		out->color = c;
		out->then = v->game.rules.disconnect == DISCONNECT_CLAIM_WIN ? SESSION_LEFT_CLAIM
			    : v->game.rules.disconnect == DISCONNECT_ADJOURN ? SESSION_LEFT_ADJOURN
									     : SESSION_LEFT_END;
		/* Gone already: the win is there to claim. Else the server's
		 * instant, on this client's clock. */
		int64_t at = v->absent[c] ? 0 : out->then == SESSION_LEFT_CLAIM ? v->left_claim_ms[c] : v->left_gone_ms[c];
		out->at_mono = at <= 0 ? 0
			       : s->have_reading ? s->reading_mono_ms + (at - s->reading_server_ms)
						 : INT64_MAX;
		return true;
	}
	return false;
}

long session_left_seconds(const struct session_left *l, int64_t mono_ms)
{
	if (l->at_mono == INT64_MAX)
		return -1;
	return l->at_mono > mono_ms ? (long)((l->at_mono - mono_ms + 999) / 1000) : 0;
}

bool session_left_text(const struct session *s, int64_t mono_ms, char *buf, size_t size)
{
	struct session_left l;
	if (!session_opponent_left(s, &l))
		return false;
	const char *dash = s->ascii ? "-" : "\u2014";
	long n = session_left_seconds(&l, mono_ms);
	char who[32];
	if (s->me >= 0)
		snprintf(who, sizeof who, "opponent");
	else
		snprintf(who, sizeof who, "%s", session_side(l.color));
	if (n < 0) {
		snprintf(buf, size, "%s left", who);
	} else if (l.then == SESSION_LEFT_CLAIM && n == 0) {
		if (s->me >= 0)
			snprintf(buf, size, "%s left %s press V to claim victory", who, dash);
		else
			snprintf(buf, size, "%s left %s %s may claim victory", who, dash, session_side(!l.color));
	} else if (l.then == SESSION_LEFT_CLAIM) {
		if (s->me >= 0)
			snprintf(buf, size, "%s left %s claim victory in %ld s", who, dash, n);
		else
			snprintf(buf, size, "%s left %s %s may claim victory in %ld s", who, dash,
				 session_side(!l.color), n);
	} else {
		snprintf(buf, size, "%s left %s the game %s in %ld s", who, dash,
			 l.then == SESSION_LEFT_ADJOURN ? "adjourns" : "ends unscored", n);
	}
	return true;
}

/* V while the opponent's leaving is counted down: when the win comes
 * (true), or what happens instead. */
static bool session_left_refusal(struct session *s)
{
	struct session_left l;
	if (!session_opponent_left(s, &l))
		return false;
	long n = session_left_seconds(&l, s->mono_ms);
	if (l.then == SESSION_LEFT_CLAIM && n == 0)
		return false;
	if (l.then != SESSION_LEFT_CLAIM)
		session_say(s, true, "your opponent left: these rules give no win for it; the game %s in %ld s",
			    l.then == SESSION_LEFT_ADJOURN ? "adjourns" : "ends unscored", n);
	else if (n < 0)
		session_say(s, true, "your opponent left: the server has not said yet when you may claim victory");
	else
		session_say(s, true, "your opponent left: you may claim victory in %ld s", n);
	return true;
}

/* What G claims now: PROTOCOL_CLAIM_WIN, _DISCARD or _NONE (why in *why). */
static enum protocol_claim session_gone_claim(const struct session *s, const char **why)
{
	const struct game_view *v = &s->view;
	*why = "your opponent is present";
	if (!v->created || !v->started || session_over(s)) {
		*why = "the game is not running";
		return PROTOCOL_CLAIM_NONE;
	}
	if (fold_adjourned(v)) {
		if (v->game.rules.discard_claims_per_day <= 0) {
			*why = "these rules have no discard claims";
			return PROTOCOL_CLAIM_NONE;
		}
		/* A discard is the partner's refusal (fold.c, apply_discard):
		 * a decline, silence while online, whose time the server
		 * judges, or a day gone with the request standing (timed here
		 * by the last answer's server instant: polls come back within
		 * one poll timeout). */
		if (v->resume_declined[s->me])
			return PROTOCOL_CLAIM_DISCARD;
		if (v->resume_request_by != s->me) {
			*why = "a discard is a refusal to resume: P asks to resume first";
			return PROTOCOL_CLAIM_NONE;
		}
		if (v->absent[!s->me] && session_server_ms(s, s->reading_mono_ms) < fold_discard_due(v, s->me)) {
			*why = "your opponent is offline: that counts as a refusal a day after your request";
			return PROTOCOL_CLAIM_NONE;
		}
		return PROTOCOL_CLAIM_DISCARD;
	}
	if (v->game.rules.disconnect != DISCONNECT_CLAIM_WIN) {
		*why = "these rules give no win for a disconnect";
		return PROTOCOL_CLAIM_NONE;
	}
	return v->absent[!s->me] ? PROTOCOL_CLAIM_WIN : PROTOCOL_CLAIM_NONE;
}

unsigned session_gone(struct session *s)
{
	if (session_left_refusal(s))
		return SESSION_DIRTY_STATUS;
	if (s->lichess)
		return session_lichess_gone(s, s->mono_ms);
	const char *why;
	enum protocol_claim claim = session_gone_claim(s, &why);
	if (claim == PROTOCOL_CLAIM_NONE) {
		session_say(s, true, "nothing to claim: %s", why);
		return SESSION_DIRTY_STATUS;
	}
	if (claim == PROTOCOL_CLAIM_WIN) {
		s->confirm = SESSION_CONFIRM_CLAIM_WIN;
		session_say(s, false, "%s is gone: claim the win? (y/n)", session_side(!s->me));
	} else {
		s->confirm = SESSION_CONFIRM_DISCARD;
		session_say(s, false, "claim that %s discards resuming? (y/n)", session_side(!s->me));
	}
	return SESSION_DIRTY_STATUS;
}

void session_push_claim(struct session *s, enum protocol_claim claim)
{
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = session_action_ply(s), .claim = claim };
	session_push(s, &r);
}

unsigned session_note_submit(struct session *s)
{
	if (!s->note_text[0])
		return 0;
	struct session_req r = { .kind = SESSION_REQ_NOTE, .ply = session_action_ply(s) };
	snprintf(r.text, sizeof r.text, "%s", s->note_text);
	session_push(s, &r);
	s->note_text[0] = '\0';
	if (s->lichess)
		session_say(s, false, "said in the chat");
	else
		session_say(s, false, "note sent%s", session_over(s) ? "" : " (only you see it until the game ends)");
	return SESSION_DIRTY_STATUS | SESSION_DIRTY_NOTES;
}

/* Appends the character c (a code point) to the note as UTF-8. */
void session_note_input(struct session *s, long c)
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

void session_note_erase(struct session *s)
{
	size_t len = strlen(s->note_text);
	/* A whole UTF-8 character. */
	while (len && (s->note_text[len - 1] & 0xC0) == 0x80)
		len--;
	if (len)
		len--;
	s->note_text[len] = '\0';
}

void session_outcome_text(const struct session *s, char *buf, size_t size)
{
	const struct game *g = &s->view.game;
	buf[0] = '\0';
	if (!session_over(s))
		return;
	int winner = g->result == GAME_RESULT_WHITE_WINS ? WHITE : g->result == GAME_RESULT_BLACK_WINS ? BLACK : -1;
	if (g->termination == GAME_TERM_ABORTED || g->result == GAME_RESULT_NONE)
		snprintf(buf, size, "%s", g->termination == GAME_TERM_ABORTED ? "Aborted, unscored" : "Unscored");
	else if (winner < 0)
		snprintf(buf, size, "Draw");
	else if (s->me < 0 || s->hotseat)
		snprintf(buf, size, "%s won", session_side(winner));
	else
		snprintf(buf, size, "%s", winner == s->me ? "You won" : "You lost");
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
	/* Lichess's status in its own words ("Black resigned"). */
	if (s->lichess && s->lichess_end[0]) {
		snprintf(buf, size, "%s", s->lichess_end);
		return;
	}
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
		else if (!strcmp(reason, "seek-expired"))
			snprintf(buf, size, "the seek lapsed: nobody joined while it waited");
		else if (!strcmp(reason, "seek-withdrawn"))
			snprintf(buf, size, "the seek was withdrawn before anyone joined");
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
	if (s->lichess)
		return session_lichess_request_text(s, s->mono_ms, buf, size);
	static const char *const made[] = { "offers a draw", "asks to abort", "asks to adjourn", "asks to resume" };
	const char *dash = s->ascii ? "-" : "\u2014";
	const struct game_view *v = &s->view;
	int who, what;
	buf[0] = '\0';
	if (v->created && session_over(s) && v->rematch_by >= 0) {
		if (v->rematch_by == s->me)
			snprintf(buf, size, "you offered a rematch %s W withdraw", dash);
		else if (s->me >= 0)
			snprintf(buf, size, "%s offers a rematch %s r accept, - decline", session_side(v->rematch_by),
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
			snprintf(buf + strlen(buf), size - strlen(buf), " %s + accept, - decline", dash);
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
			snprintf(buf + strlen(buf), size - strlen(buf), " %s V claim %s discards", dash,
				 session_side(!s->me));
		return true;
	}
	if (session_left_text(s, s->mono_ms, buf, size))
		return true;
	/* Gone from an adjourned game (yourpot). */
	for (int c = WHITE; c <= BLACK; c++) {
		if (v->absent[c] && c != s->me) {
			snprintf(buf, size, "%s is gone", session_side(c));
			return true;
		}
	}
	if (fold_adjourned(v)) {
		snprintf(buf, size, "adjourned");
		if (s->me >= 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s P %s", dash,
				 s->hotseat ? "resumes" : "asks to resume");
		return true;
	}
	return false;
}
