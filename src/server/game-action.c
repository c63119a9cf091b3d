/*
 * Game actions: draw offers, abort, adjournment and resumption by consent,
 * claims (threefold, fifty moves, tablebase, discard, win), and the undo
 * and rematch commands, as one table of rows (rows[], at the end): each row
 * says which word its request carries and which fields it takes, and names
 * its handler; game_action_run is the one frame around them (the game, the
 * seat, presence, the word, the invalid-command count). Also the helpers
 * for retries and refusals the handlers share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "tchess/tablebase.h"
#include "util/now.h"

/* Success without a second effect: the command was applied before. */
void game_action_already_done(struct game_outcome *out, const struct game_view *v)
{
	out->status = 200;
	out->events.seq = v->seq;
	out->events.now_ms = now_wall_ms();
}

bool game_action_retried(const struct game_view *v, int color, const char *key, int64_t ply)
{
	return v->last_cmd_ply[color] == ply && !strcmp(v->last_cmd[color], key);
}

/* The side whose request of kind what stands, or another value (nobody). */
static int request_by(const struct game_view *v, enum fold_request_what what)
{
	switch (what) {
	case FOLD_REQ_DRAW:
		return v->game.offer_by;
	case FOLD_REQ_ABORT:
		return v->game.abort_request_by;
	case FOLD_REQ_ADJOURN:
		return v->adjourn_request_by;
	case FOLD_REQ_REMATCH:
		return v->rematch_by;
	default:
		return v->resume_request_by;
	}
}

/* A retry is the same command repeated (same colour, command and ply)
 * while its effect still stands, nothing else: a request while it is still
 * pending, a decline while the request it declined has not been made anew,
 * a withdrawal while nothing was offered since, a consent while the game
 * is still adjourned (or resumed), a rematch accepted while its game
 * stands. Otherwise the same words at the same ply are a new command:
 * offer, decline, offer again, decline again declines twice. */
bool game_action_request_retried(const struct game_view *v, int color, const struct fold_event *e, int64_t ply)
{
	char key[FOLD_CMD_MAX];
	fold_command_key(key, sizeof key, e);
	if (!game_action_retried(v, color, key, ply))
		return false;
	if (e->kind == FOLD_EV_ADJOURNED)
		return fold_adjourned(v);
	if (e->kind == FOLD_EV_RESUMED)
		return !fold_adjourned(v);
	if (e->kind != FOLD_EV_REQUEST)
		return true;
	int by = request_by(v, e->what);
	switch (e->action) {
	case FOLD_REQ_MADE:
		return by == color;
	case FOLD_REQ_DECLINED:
		return by != !color;
	case FOLD_REQ_WITHDRAWN:
		return by != color;
	case FOLD_REQ_ACCEPTED:
		return e->what != FOLD_REQ_REMATCH || v->next_game[0];
	}
	return true;
}

/* One transaction of one or two events; a refusal by the fold is a refusal
 * by the rules (422 with libtchess's message). */
void game_action_commit(struct game_service *gs, struct live_game *lg, int64_t me, struct fold_event *e,
			  struct fold_event *then, struct game_outcome *out)
{
	struct game_txn t;
	int64_t t_ms = game_txn_instant(&lg->view);
	if (game_txn_begin(&t, gs, lg, out))
		return;
	if (game_txn_add(&t, e, 0, t_ms, out) || (then && game_txn_add(&t, then, 0, t_ms, out))) {
		if (out->err.code == PROTOCOL_ERR_BAD_REQUEST)
			out->err.code = PROTOCOL_ERR_ILLEGAL;
		return;
	}
	/* What ends the game is never held back; the rest is churn. */
	if (!game_is_over(&t.work.game) && !game_presence_churn(gs, lg, fold_seat_of(&lg->view, me), out)) {
		game_txn_abort(&t);
		return;
	}
	game_txn_commit(&t, me, out);
}

/* 409 unless the game runs (started, not over, not adjourned): unless
 * the side to move may move now. */
bool game_action_running_or_conflict(const struct game_view *v, struct game_outcome *out)
{
	return game_may_move_or_fail(v, fold_may_move(v, game_side_to_move(&v->game), NULL), out);
}

bool game_action_ply_or_stale(const struct game_view *v, int64_t ply, struct game_outcome *out)
{
	if (ply == (int64_t)v->game.n_plies)
		return true;
	game_fail_stale(out, v, ply);
	return false;
}

static bool ended_by(const struct game_view *v, int color, enum game_termination term, int64_t ply)
{
	char key[FOLD_CMD_MAX];
	snprintf(key, sizeof key, "end-%s", game_termination_str(term));
	return game_is_over(&v->game) && v->game.termination == term && game_action_retried(v, color, key, ply);
}

void game_action_request_event(struct fold_event *e, const struct game_view *v, int color, enum fold_request_what what,
			  enum fold_request_action action)
{
	fold_event_init(e, FOLD_EV_REQUEST);
	e->color = color;
	e->what = what;
	e->action = action;
	e->ply = (int64_t)v->game.n_plies;
}

enum fold_request_action game_action_request_of(enum protocol_action a)
{
	switch (a) {
	case PROTOCOL_ACTION_ACCEPT:
		return FOLD_REQ_ACCEPTED;
	case PROTOCOL_ACTION_DECLINE:
		return FOLD_REQ_DECLINED;
	case PROTOCOL_ACTION_WITHDRAW:
		return FOLD_REQ_WITHDRAWN;
	default:
		return FOLD_REQ_MADE;
	}
}

void game_action_ended_event(struct fold_event *e, int color, enum game_termination term, const char *reason)
{
	fold_event_init(e, FOLD_EV_ENDED);
	e->color = color;
	snprintf(e->termination, sizeof e->termination, "%s", game_termination_str(term));
	snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
}

static void draw_run(struct game_action_call *c)
{
	const struct game_view *v = c->v;
	bool accept = c->action == PROTOCOL_ACTION_ACCEPT;
	struct fold_event e;
	game_action_request_event(&e, v, c->color, FOLD_REQ_DRAW, game_action_request_of(c->action));
	if ((accept && ended_by(v, c->color, GAME_TERM_AGREEMENT, c->req->ply)) ||
	    (!accept && game_action_request_retried(v, c->color, &e, c->req->ply))) {
		game_action_already_done(c->out, v);
		return;
	}
	if (!game_action_running_or_conflict(v, c->out) || !game_action_ply_or_stale(v, c->req->ply, c->out))
		return;
	if (accept)
		game_action_ended_event(&e, c->color, GAME_TERM_AGREEMENT, NULL);
	game_action_commit(c->gs, c->lg, c->me, &e, NULL, c->out);
}

static void abort_run(struct game_action_call *c)
{
	const struct game_view *v = c->v;
	enum protocol_action a = c->action;
	struct fold_event e;
	game_action_request_event(&e, v, c->color, FOLD_REQ_ABORT, game_action_request_of(a));
	if (ended_by(v, c->color, GAME_TERM_ABORTED, c->req->ply) ||
	    (a != PROTOCOL_ACTION_ACCEPT && game_action_request_retried(v, c->color, &e, c->req->ply))) {
		game_action_already_done(c->out, v);
		return;
	}
	if (game_is_over(&v->game)) {
		game_fail(c->out, PROTOCOL_ERR_CONFLICT, "the game is over (%s)",
			  game_termination_str(v->game.termination));
		return;
	}
	if (!game_action_ply_or_stale(v, c->req->ply, c->out))
		return;
	/* Alone before the ruleset's plies (an open seek too); after that a
	 * request the opponent accepts. */
	bool alone = v->game.n_plies < (size_t)v->game.rules.abort_alone_max_plies;
	if (a == PROTOCOL_ACTION_ACCEPT || (a == PROTOCOL_ACTION_REQUEST && alone))
		game_action_ended_event(&e, c->color, GAME_TERM_ABORTED, NULL);
	else if (!game_action_running_or_conflict(v, c->out))
		return;
	game_action_commit(c->gs, c->lg, c->me, &e, NULL, c->out);
}

/* Adjourn and resume: both by consent (request, then the other accepts). */
static void consent(struct game_action_call *c, enum fold_request_what what)
{
	const struct game_view *v = c->v;
	struct fold_event e;
	if (c->action == PROTOCOL_ACTION_ACCEPT) {
		fold_event_init(&e, what == FOLD_REQ_ADJOURN ? FOLD_EV_ADJOURNED : FOLD_EV_RESUMED);
		e.color = c->color;
		snprintf(e.reason, sizeof e.reason, "agreement");
	} else {
		game_action_request_event(&e, v, c->color, what, game_action_request_of(c->action));
	}
	if (game_action_request_retried(v, c->color, &e, c->req->ply)) {
		game_action_already_done(c->out, v);
		return;
	}
	if (!v->started || game_is_over(&v->game)) {
		game_fail(c->out, PROTOCOL_ERR_CONFLICT, "the game is not running");
		return;
	}
	if ((what == FOLD_REQ_RESUME) != fold_adjourned(v)) {
		game_fail(c->out, PROTOCOL_ERR_CONFLICT, "the game is %s",
			  fold_adjourned(v) ? "adjourned" : "not adjourned");
		return;
	}
	if (!game_action_ply_or_stale(v, c->req->ply, c->out))
		return;
	game_action_commit(c->gs, c->lg, c->me, &e, NULL, c->out);
}

static void adjourn_run(struct game_action_call *c)
{
	consent(c, FOLD_REQ_ADJOURN);
}

static void resume_run(struct game_action_call *c)
{
	consent(c, FOLD_REQ_RESUME);
}

/* Tablebase claim: drawn ends the game; not drawn gives the opponent the
 * ruleset's penalty for the speed class; no table refuses the claim. */
static void claim_tablebase(struct game_service *gs, struct live_game *lg, int64_t me, int color,
			    struct game_outcome *out)
{
	const struct game_view *v = &lg->view;
	struct tchess_error terr;
	if (game_check_tablebase_claim(&v->game, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
		return;
	}
	if (!gs->tb) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "this server has no tablebases (tchessd --tablebases)");
		return;
	}
	bool drawn = false;
	char why[FOLD_REASON_MAX] = "";
	if (tablebase_judge_claim(gs->tb, &v->game.pos, v->game.rules.tablebase_fifty_moves, &drawn, why,
				  sizeof why) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "claim refused: %s", why[0] ? why : "the tables cannot judge it");
		return;
	}
	struct fold_event e;
	if (drawn) {
		game_action_ended_event(&e, color, GAME_TERM_TABLEBASE, why);
		snprintf(e.result, sizeof e.result, "%s", game_result_str(GAME_RESULT_DRAW));
	} else {
		fold_event_init(&e, FOLD_EV_TIME_ADDED);
		e.color = !color;
		e.ms = v->game.rules.tablebase_penalty_ms[time_control_speed(&v->clock.tc)];
		snprintf(e.reason, sizeof e.reason, "tablebase: %.*s", (int)sizeof e.reason - 12, why);
	}
	game_action_commit(gs, lg, me, &e, NULL, out);
}

static void claim_run(struct game_action_call *c)
{
	struct game_service *gs = c->gs;
	struct live_game *lg = c->lg;
	const struct game_view *v = c->v;
	const struct protocol_action_request *req = c->req;
	struct game_outcome *out = c->out;
	int64_t me = c->me;
	int color = c->color;
	enum protocol_claim a = c->claim;
	struct fold_event e, then;
	/* Retries. */
	int64_t today = game_txn_instant(v) / 86400000;
	if ((a == PROTOCOL_CLAIM_THREEFOLD && ended_by(v, color, GAME_TERM_THREEFOLD, req->ply)) ||
	    (a == PROTOCOL_CLAIM_FIFTY_MOVES && ended_by(v, color, GAME_TERM_FIFTY_MOVES, req->ply)) ||
	    (a == PROTOCOL_CLAIM_TABLEBASE && (ended_by(v, color, GAME_TERM_TABLEBASE, req->ply) ||
					       game_action_retried(v, color, "claim-tablebase", req->ply))) ||
	    (a == PROTOCOL_CLAIM_DISCARD && game_action_retried(v, color, "discard", req->ply) &&
	     v->discard_day[color] == today) ||
	    (a == PROTOCOL_CLAIM_WIN && game_is_over(&v->game) && v->game.termination == GAME_TERM_TECHNICAL_FAILURE &&
	     !strcmp(v->end_reason, "abandoned") &&
	     v->game.result == (color == WHITE ? GAME_RESULT_WHITE_WINS : GAME_RESULT_BLACK_WINS))) {
		game_action_already_done(out, v);
		return;
	}
	if (a == PROTOCOL_CLAIM_DISCARD) {
		if (!v->started || game_is_over(&v->game) || !fold_adjourned(v)) {
			game_fail(out, PROTOCOL_ERR_CONFLICT, "a discard is claimed in an adjourned game");
			return;
		}
	} else if (!game_action_running_or_conflict(v, out)) {
		return;
	}
	if (!game_action_ply_or_stale(v, req->ply, out))
		return;
	switch (a) {
	case PROTOCOL_CLAIM_THREEFOLD:
	case PROTOCOL_CLAIM_FIFTY_MOVES: {
		game_action_ended_event(&e, color,
					a == PROTOCOL_CLAIM_THREEFOLD ? GAME_TERM_THREEFOLD : GAME_TERM_FIFTY_MOVES, NULL);
		if (req->move[0]) {
			move m;
			struct tchess_error terr;
			if (color != (int)game_side_to_move(&v->game)) {
				game_fail(out, PROTOCOL_ERR_ILLEGAL, "only the player to move may claim");
				return;
			}
			if (notation_parse_move(&v->game.pos, req->move, strlen(req->move), &m, &terr) != TCHESS_OK) {
				game_fail(out, PROTOCOL_ERR_ILLEGAL, "%s", terr.message);
				return;
			}
			/* Parsed once: the fold takes the legal move as it is. */
			uci_write(&v->game.pos, m, e.uci);
			e.legal = m;
		}
		game_action_commit(gs, lg, me, &e, NULL, out);
		break;
	}
	case PROTOCOL_CLAIM_TABLEBASE:
		claim_tablebase(gs, lg, me, color, out);
		break;
	case PROTOCOL_CLAIM_DISCARD: {
		fold_event_init(&e, FOLD_EV_DISCARD);
		e.color = color;
		e.count = v->discards[!color] + 1;
		/* "If the player has discarded to resume the game three times,
		 * he will be scored a defeat." */
		bool lost = e.count >= v->game.rules.discards_to_lose;
		if (lost)
			game_action_ended_event(&then, !color, GAME_TERM_TECHNICAL_FAILURE, "discards");
		game_action_commit(gs, lg, me, &e, lost ? &then : NULL, out);
		break;
	}
	case PROTOCOL_CLAIM_WIN:
		if (v->game.rules.disconnect != DISCONNECT_CLAIM_WIN) {
			game_fail(out, PROTOCOL_ERR_ILLEGAL, "the %s rules give no win for a disconnect", v->game.rules.name);
			return;
		}
		if (!v->absent[!color]) {
			game_fail(out, PROTOCOL_ERR_ILLEGAL, "your opponent is present");
			return;
		}
		/* Chessgamble 11.2: "not active on the website anymore" is the
		 * player's activity, not one game's: gone here, playing on
		 * in another game is no ground for a win. */
		if (v->game.rules.activity_per_player &&
		    game_presence_player_active(gs, v->seats[!color].player, lg, game_presence_grace_ms(gs, v),
						now_wall_ms())) {
			game_fail(out, PROTOCOL_ERR_ILLEGAL,
				  "your opponent is active in another game: the %s rules give the win only against a "
				  "player no longer active on the server", v->game.rules.name);
			return;
		}
		game_action_ended_event(&e, !color, GAME_TERM_TECHNICAL_FAILURE, "abandoned");
		game_action_commit(gs, lg, me, &e, NULL, out);
		break;
	case PROTOCOL_CLAIM_NONE:
	case PROTOCOL_CLAIM_UNKNOWN:
		break; /* refused by the row's check */
	}
}

/* ---- the table ---- */

/* The words a row takes, each list ending with _NONE. */
static const enum protocol_action offer_words[] = { PROTOCOL_ACTION_OFFER, PROTOCOL_ACTION_ACCEPT,
						    PROTOCOL_ACTION_DECLINE, PROTOCOL_ACTION_WITHDRAW,
						    PROTOCOL_ACTION_NONE };
static const enum protocol_action consent_words[] = { PROTOCOL_ACTION_REQUEST, PROTOCOL_ACTION_ACCEPT,
						      PROTOCOL_ACTION_DECLINE, PROTOCOL_ACTION_NONE };
static const enum protocol_claim claim_words[] = { PROTOCOL_CLAIM_THREEFOLD, PROTOCOL_CLAIM_FIFTY_MOVES,
						   PROTOCOL_CLAIM_TABLEBASE, PROTOCOL_CLAIM_DISCARD, PROTOCOL_CLAIM_WIN,
						   PROTOCOL_CLAIM_NONE };

/* One row per game action command: what its request carries and what it
 * does. Its word is req->action (dflt when absent, _NONE: required) among
 * actions, or for a claim row req->claim among claims; a move is allowed
 * with the claims in move_claims (a bit per claim); a row without words
 * takes only ply. The words come decoded (protocol_action_request). */
struct action_row {
	const char *endpoint;
	const enum protocol_action *actions;
	enum protocol_action dflt;
	const enum protocol_claim *claims;
	unsigned move_claims;
	void (*run)(struct game_action_call *c);
};

#define CLAIM_BIT(c) (1u << (c))

static const struct action_row rows[] = {
	[GAME_ACTION_DRAW] = { "draw", offer_words, PROTOCOL_ACTION_NONE, NULL, 0, draw_run },
	[GAME_ACTION_ABORT] = { "abort", consent_words, PROTOCOL_ACTION_REQUEST, NULL, 0, abort_run },
	[GAME_ACTION_ADJOURN] = { "adjourn", consent_words, PROTOCOL_ACTION_REQUEST, NULL, 0, adjourn_run },
	[GAME_ACTION_RESUME] = { "resume", consent_words, PROTOCOL_ACTION_REQUEST, NULL, 0, resume_run },
	[GAME_ACTION_CLAIM] = { "claim", NULL, PROTOCOL_ACTION_NONE, claim_words,
				CLAIM_BIT(PROTOCOL_CLAIM_THREEFOLD) | CLAIM_BIT(PROTOCOL_CLAIM_FIFTY_MOVES), claim_run },
	[GAME_ACTION_TAKEBACK] = { "takeback", NULL, PROTOCOL_ACTION_NONE, NULL, 0, game_undo_takeback },
	[GAME_ACTION_DONE] = { "done", NULL, PROTOCOL_ACTION_NONE, NULL, 0, game_undo_done },
	[GAME_ACTION_REMATCH] = { "rematch", offer_words, PROTOCOL_ACTION_NONE, NULL, 0, game_rematch_run },
};

/* "a, b, c" (last: ", "), or "a, b or c" (last: " or "), of n words. */
static void word_list(char *buf, size_t size, const char *const *words, size_t n, const char *last)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i == 0 ? "" : i + 1 < n ? ", " : last,
			 words[i]);
}

/* Whether the row takes the words in req: false after a 400 (a word it
 * does not take, or a field the command does not take); else c->action
 * and c->claim are the row's words. */
static bool action_words(const struct action_row *row, const struct protocol_action_request *req,
			 struct game_action_call *c, struct game_outcome *out)
{
	const char *names[8];
	size_t n = 0;
	char list[128];
	if (!row->actions && !row->claims) {
		if (req->action[0] || req->claim[0] || req->move[0]) {
			game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: takes only ply", row->endpoint);
			return false;
		}
		return true;
	}
	if (row->claims) {
		bool known = false;
		for (; row->claims[n] != PROTOCOL_CLAIM_NONE; n++) {
			names[n] = protocol_claim_str(row->claims[n]);
			known = known || row->claims[n] == req->claim_word;
		}
		if (!known) {
			word_list(list, sizeof list, names, n, " or ");
			game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: expected claim %s", row->endpoint, list);
			return false;
		}
		if (req->action[0] || (req->move[0] && !(row->move_claims & CLAIM_BIT(req->claim_word)))) {
			game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: takes ply, claim and (threefold, fifty-moves) move",
				  row->endpoint);
			return false;
		}
		c->claim = req->claim_word;
		return true;
	}
	enum protocol_action a = req->action[0] ? req->action_word : row->dflt;
	bool known = false;
	for (; row->actions[n] != PROTOCOL_ACTION_NONE; n++) {
		names[n] = protocol_action_str(row->actions[n]);
		known = known || row->actions[n] == a;
	}
	if (!known) {
		word_list(list, sizeof list, names, n, ", ");
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: action: expected one of %s", row->endpoint, list);
		return false;
	}
	if (req->claim[0] || req->move[0]) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "%s: takes only ply and action", row->endpoint);
		return false;
	}
	c->action = a;
	return true;
}

void game_action_run(struct game_service *gs, enum game_action what, int64_t me, const char *id,
		     const struct protocol_action_request *req, struct game_outcome *out)
{
	const struct action_row *row = &rows[what];
	int color;
	struct live_game *lg = game_seat_enter(gs, me, id, &color, out);
	if (!lg)
		return;
	struct game_action_call c = { .gs = gs, .lg = lg, .v = &lg->view, .req = req, .me = me, .color = color,
				      .out = out };
	if (action_words(row, req, &c, out))
		row->run(&c);
	game_presence_account(gs, lg, color, out);
	game_txn_answer_for(lg, me, out);
}

void game_service_draw(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_DRAW, me, id, req, out);
}

void game_service_abort(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_ABORT, me, id, req, out);
}

void game_service_adjourn(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_ADJOURN, me, id, req, out);
}

void game_service_resume(struct game_service *gs, int64_t me, const char *id,
			 const struct protocol_action_request *req, struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_RESUME, me, id, req, out);
}

void game_service_claim(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_CLAIM, me, id, req, out);
}

void game_service_takeback(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_action_request *req, struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_TAKEBACK, me, id, req, out);
}

void game_service_done(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_DONE, me, id, req, out);
}

void game_service_rematch(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out)
{
	game_action_run(gs, GAME_ACTION_REMATCH, me, id, req, out);
}
