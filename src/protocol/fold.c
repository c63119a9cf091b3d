/*
 * The fold proper: the state machine that applies one game event to a
 * game's state (tchess/fold.h), checking it against the state and refusing
 * one that contradicts it, changing nothing. Every rule is libtchess's;
 * this file says which rule each event invokes and in which state it may
 * come. The events' data is fold-event.c's, the state's questions
 * fold-view.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-internal.h"
#include "util/xalloc.h"

/* An event that contradicts the state: bad_request with the message. */
__attribute__((format(printf, 2, 3))) static int bad(struct protocol_error *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->code = PROTOCOL_ERR_BAD_REQUEST;
		err->seq = 0;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A vacation booked (added to the side's list) or cancelled (removed; only
 * one that has not started by t_ms, as tchess/vacation.h allows). Logs
 * written before tchessd kept vacations as one record per player carry
 * these; the server now fills the lists from those records (and sends them
 * with every events answer), so a booking already listed is no change and
 * a cancellation of one not listed is none either. */
static int apply_vacation(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	const struct vacation *nv = &e->vacation;
	if (e->color < 0 || nv->start_ms >= nv->end_ms || nv->start_ms < 0)
		return bad(err, "%s: bad interval", "vacation");
	struct vacation *list = v->vacations[e->color];
	size_t *n = &v->n_vacations[e->color];
	if (e->cancelled) {
		for (size_t k = 0; k < *n; k++) {
			if (list[k].start_ms != nv->start_ms || list[k].end_ms != nv->end_ms)
				continue;
			if (nv->start_ms <= t_ms)
				return bad(err, "%s: a vacation that has started cannot be cancelled", "vacation");
			list[k] = list[--*n];
			return 0;
		}
		return 0;
	}
	for (size_t k = 0; k < *n; k++) {
		if (list[k].start_ms == nv->start_ms && list[k].end_ms == nv->end_ms)
			return 0;
	}
	if (*n == FOLD_VACATIONS_MAX) {
		/* Drop what ended before the running turn (or now) began. */
		int64_t keep_from = v->clock.running != CLOCK_NOBODY && v->clock.since_ms < t_ms ? v->clock.since_ms : t_ms;
		for (size_t k = 0; k < *n;) {
			if (list[k].end_ms <= keep_from)
				list[k] = list[--*n];
			else
				k++;
		}
		if (*n == FOLD_VACATIONS_MAX)
			return bad(err, "%s: too many vacations", "vacation");
	}
	list[(*n)++] = *nv;
	return 0;
}

static void queues_clear(struct game_view *v)
{
	premove_queue_clear(&v->premoves[WHITE]);
	premove_queue_clear(&v->premoves[BLACK]);
}

static int apply_created(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct ruleset rules;
	struct position start;
	struct tchess_error terr;
	if (v->created)
		return bad(err, "%s: the game exists already", "game-created");
	if (!ruleset_preset(&rules, e->ruleset))
		return bad(err, "game-created: unknown ruleset \"%s\"", e->ruleset);
	/* The game's own options over the preset's (absent in older logs). */
	if (e->premove_depth < 0 || e->premove_depth > PREMOVE_DEPTH_MAX)
		return bad(err, "game-created: premoves must be from 1 to %d", PREMOVE_DEPTH_MAX);
	if (e->premove_depth)
		rules.premove_depth = (int)e->premove_depth;
	if (e->first_move_ms < 0 || e->first_move_ms > FOLD_FIRST_MOVE_MS_MAX)
		return bad(err, "game-created: first_move_ms out of range");
	if (e->first_move_ms)
		rules.first_move_timeout_ms = e->first_move_ms;
	if (time_control_parse(&v->clock.tc, e->tc, &terr) != TCHESS_OK)
		return bad(err, "game-created: bad time control: %s", terr.message);
	if (fen_parse(&start, e->fen, &terr) != TCHESS_OK)
		return bad(err, "game-created: bad fen: %s", terr.message);
	if (strcmp(e->opponent, "open") && strcmp(e->opponent, "invite") && strcmp(e->opponent, "engine") &&
	    strcmp(e->opponent, "tournament"))
		return bad(err, "game-created: unknown opponent \"%s\"", e->opponent);
	if (game_init(&v->game, &start, &rules, &terr) != TCHESS_OK) {
		game_fini(&v->game);
		return bad(err, "game-created: %s", terr.message);
	}
	struct time_control tc = v->clock.tc;
	clock_init(&v->clock, &tc);
	snprintf(v->tc, sizeof v->tc, "%s", e->tc);
	snprintf(v->opponent, sizeof v->opponent, "%s", e->opponent);
	v->seats[WHITE] = e->seats[WHITE];
	v->seats[BLACK] = e->seats[BLACK];
	v->undo = e->undo;
	v->series = e->series;
	v->created = true;
	v->created_ms = t_ms;
	return 0;
}

void fold_plies_push(struct game_view *v, int64_t seq, const struct fold_event *e)
{
	if (v->game.n_plies > v->plies_cap) {
		v->plies_cap = v->plies_cap ? 2 * v->plies_cap : 64;
		if (v->plies_cap < v->game.n_plies)
			v->plies_cap = v->game.n_plies;
		v->plies = xrealloc(v->plies, v->plies_cap * sizeof *v->plies);
	}
	struct fold_ply *p = &v->plies[v->game.n_plies - 1];
	p->seq = seq;
	p->think_ms = e->think_ms;
	p->charged_ms = e->charged_ms;
	p->premove = e->premove;
}

static int apply_move(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		      struct protocol_error *err)
{
	struct tchess_error terr;
	const char *why;
	if (fold_may_move(v, e->color, &why) != FOLD_MAY_MOVE)
		return bad(err, "move: %s", why);
	if (e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: wrong ply", "move");
	/* The bound a snapshot's move is read with (fold-snapshot.c): what
	 * the fold accepts, its own snapshot must rebuild. */
	if (e->think_ms < 0)
		return bad(err, "%s: think_ms %lld is negative", "move", (long long)e->think_ms);
	/* A move from the wire is parsed (uci_parse gives only a legal
	 * move) and its SAN checked; one fold_move_event made is legal by
	 * construction. Either way it is checked once. */
	move m = e->legal;
	if (m == MOVE_NONE) {
		if (uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
			return bad(err, "move: %s", terr.message);
		char san[SAN_MAX];
		san_write(&v->game.pos, m, san);
		if (strcmp(san, e->san))
			return bad(err, "move: SAN %s does not match the move", e->san);
	}
	/* Undo games: a human's move is the provisional move committed by
	 * "done"; premoves and engine seats commit at once. */
	bool done = v->undo && takeback_pending(&v->turn);
	if (done && (e->premove || v->turn.pending != m))
		return bad(err, "%s: not the provisional move", "move");
	if (v->undo && !done && !e->premove && v->seats[e->color].kind == FOLD_SEAT_HUMAN)
		return bad(err, "%s: an undo game's move is made provisionally and committed with done", "move");
	/* Press on a copy: a move the game refuses must leave the clock as it was. */
	struct clock c = v->clock;
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	bool flagged = false;
	int64_t charged = clock_move_cost(&c, (enum color)e->color, t_ms, &vac);
	if (e->charged_ms != -1 && e->charged_ms != charged)
		return bad(err, "move: charged_ms %lld is not what the clock charged (%lld)", (long long)e->charged_ms,
			   (long long)charged);
	int pressed = e->premove && !v->game.rules.premove_increment
			      ? clock_press_no_increment(&c, (enum color)e->color, t_ms, &vac, &flagged)
			      : clock_press(&c, (enum color)e->color, t_ms, &vac, &flagged);
	if (pressed || flagged)
		return bad(err, "%s: the mover's time had run out", "move");
	enum tchess_err rc = done ? takeback_done(&v->turn, &v->game, (enum color)e->color, t_ms,
						  c.remaining_ms[e->color], &terr)
				  : game_play_legal(&v->game, (enum color)e->color, m, t_ms, c.remaining_ms[e->color], &terr);
	if (rc != TCHESS_OK)
		return bad(err, "move: %s", terr.message);
	v->clock = c;
	fold_plies_push(v, seq, e);
	v->plies[v->game.n_plies - 1].charged_ms = charged;
	struct premove_queue *q = &v->premoves[e->color];
	if (e->premove && q->n > 0) {
		memmove(&q->items[0], &q->items[1], (size_t)(q->n - 1) * sizeof q->items[0]);
		q->n--;
	}
	if (game_is_over(&v->game)) {
		clock_stop(&v->clock, t_ms, &vac);
		queues_clear(v);
	}
	takeback_clear(&v->turn);
	return 0;
}

/* Undo games: the mover's provisional move (its SAN checked like a
 * move's), and its take-back. The clock runs on: neither presses it. */
static int apply_provisional(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v) || !v->undo)
		return bad(err, "%s: not a running undo game", fold_event_type(e->kind));
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", fold_event_type(e->kind));
	if (e->kind == FOLD_EV_TAKEN_BACK) {
		char uci[UCI_MAX] = "";
		if (takeback_pending(&v->turn))
			uci_write(&v->game.pos, v->turn.pending, uci);
		if (strcmp(uci, e->uci))
			return bad(err, "%s: %s is not the provisional move", "move-taken-back", e->uci);
		if (takeback_take_back(&v->turn, &v->game, (enum color)e->color, &terr) != TCHESS_OK)
			return bad(err, "%s", terr.message);
		return 0;
	}
	if (clock_expiry(&v->clock, NULL) <= t_ms)
		return bad(err, "%s: the mover's time had run out", "provisional-move");
	move m;
	if (uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
		return bad(err, "provisional-move: %s", terr.message);
	char san[SAN_MAX];
	san_write(&v->game.pos, m, san);
	if (strcmp(san, e->san))
		return bad(err, "provisional-move: SAN %s does not match the move", e->san);
	if (takeback_move(&v->turn, &v->game, (enum color)e->color, m, t_ms, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	return 0;
}

/* Rematch offers, once the game is over: made, declined, withdrawn, or
 * accepted with the new game's id. Only between two human seats, and not
 * after an abort (the aborted game is erased). */
static int apply_rematch(struct game_view *v, const struct fold_event *e, struct protocol_error *err)
{
	if (!game_is_over(&v->game) || v->game.termination == GAME_TERM_ABORTED)
		return bad(err, "%s: a rematch follows a finished game", "request");
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", "request");
	if (v->seats[WHITE].kind != FOLD_SEAT_HUMAN || v->seats[BLACK].kind != FOLD_SEAT_HUMAN)
		return bad(err, "a rematch is between two human players");
	int who = e->color;
	if (v->next_game[0])
		return bad(err, "the rematch was accepted already (game %s)", v->next_game);
	switch (e->action) {
	case FOLD_REQ_MADE:
		if (v->rematch_by == who)
			return bad(err, "your rematch offer already stands");
		if (v->rematch_by == !who)
			return bad(err, "%s's rematch offer stands: accept or decline it", fold_color_str(!who));
		if (v->absent[!who])
			return bad(err, "your opponent has left");
		v->rematch_by = who;
		break;
	case FOLD_REQ_DECLINED:
	case FOLD_REQ_ACCEPTED:
		if (v->rematch_by != !who)
			return bad(err, "there is no rematch offer to answer");
		if (e->action == FOLD_REQ_ACCEPTED) {
			if (!protocol_game_id_valid(e->game))
				return bad(err, "%s: the accepted rematch names no game", "request");
			snprintf(v->next_game, sizeof v->next_game, "%s", e->game);
		}
		v->rematch_by = -1;
		break;
	case FOLD_REQ_WITHDRAWN:
		if (v->rematch_by != who)
			return bad(err, "there is no rematch offer of yours to withdraw");
		v->rematch_by = -1;
		break;
	}
	return 0;
}

static int apply_premoves(struct game_view *v, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v))
		return bad(err, "%s: the game is not running", "premoves");
	if (e->ply != (int64_t)v->game.n_plies || e->color == (int)game_side_to_move(&v->game))
		return bad(err, "%s: not the opponent's move at that ply", "premoves");
	struct premove_queue q;
	premove_queue_init(&q);
	for (int i = 0; i < e->n_moves; i++) {
		struct premove pm;
		if (premove_parse_uci(e->moves[i], strlen(e->moves[i]), &pm, &terr) != TCHESS_OK ||
		    premove_queue_push(&q, &v->game.pos, (enum color)e->color, pm, &v->game.rules, &terr) !=
			    TCHESS_OK)
			return bad(err, "premoves: %s", terr.message);
	}
	v->premoves[e->color] = q;
	return 0;
}

/* Technical failures by reason: 1 the seat named by color forfeits, 0
 * unscored, -1 unknown. */
static int technical_reason(const char *reason)
{
	static const char *const unscored[] = { "disconnect", "max-duration" };
	/* An engine seat that could not move: unscored, the text says why. */
	if (!strncmp(reason, "engine failed", 13))
		return 0;
	static const char *const forfeit[] = { "abandoned", "invalid-commands", "discards" };
	for (size_t i = 0; i < N_FIELDS(unscored); i++) {
		if (!strcmp(reason, unscored[i]))
			return 0;
	}
	for (size_t i = 0; i < N_FIELDS(forfeit); i++) {
		if (!strcmp(reason, forfeit[i]))
			return 1;
	}
	return -1;
}

/* Draw offers (game.h), abort requests (game.h), and adjourn and resume
 * requests (here: game.h has the adjourned state, not its consent). */
static int apply_request(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	enum tchess_err rc = TCHESS_OK;
	if (e->what == FOLD_REQ_REMATCH)
		return apply_rematch(v, e, err);
	if (e->action == FOLD_REQ_ACCEPTED || e->game[0])
		return bad(err, "%s: only a rematch is accepted by this event", "request");
	if (!fold_running(v))
		return bad(err, "%s: the game is not running", "request");
	if (e->color < 0 || e->ply != (int64_t)v->game.n_plies)
		return bad(err, "%s: no color or wrong ply", "request");
	enum color who = (enum color)e->color;
	switch (e->what) {
	case FOLD_REQ_DRAW:
		if (e->action == FOLD_REQ_MADE)
			rc = game_offer_draw(&v->game, who, &terr);
		else if (e->action == FOLD_REQ_DECLINED)
			rc = game_decline_draw(&v->game, who, &terr);
		else
			rc = game_withdraw_draw(&v->game, who, &terr);
		break;
	case FOLD_REQ_ABORT:
		if (e->action == FOLD_REQ_MADE) {
			if (v->game.n_plies < (size_t)v->game.rules.abort_alone_max_plies)
				return bad(err, "%s: an abort needs no consent yet", "request");
			rc = game_request_abort(&v->game, who, &terr);
		} else if (e->action == FOLD_REQ_DECLINED) {
			rc = game_decline_abort(&v->game, who, &terr);
		} else {
			return bad(err, "an abort request cannot be withdrawn");
		}
		break;
	case FOLD_REQ_ADJOURN:
	case FOLD_REQ_RESUME: {
		bool resume = e->what == FOLD_REQ_RESUME;
		int *slot = resume ? &v->resume_request_by : &v->adjourn_request_by;
		if (!resume && fold_adjourned(v))
			return bad(err, "the game is adjourned already");
		if (resume && !fold_adjourned(v))
			return bad(err, "the game is not adjourned");
		if (e->action == FOLD_REQ_MADE) {
			if (*slot == (int)who)
				return bad(err, "your %s request already stands", fold_request_what_str(e->what));
			if (*slot == (int)!who)
				return bad(err, "%s's %s request stands: accept or decline it", fold_color_str(!who),
					   fold_request_what_str(e->what));
			*slot = who;
			if (resume)
				v->resume_since_ms = t_ms;
		} else if (e->action == FOLD_REQ_DECLINED) {
			if (*slot != (int)!who)
				return bad(err, "there is no %s request to answer", fold_request_what_str(e->what));
			*slot = -1;
			/* Yourpot: the partner discards resuming; the requester
			 * may claim it (apply_discard). */
			if (resume)
				v->resume_declined[!who] = true;
		} else {
			return bad(err, "a %s request cannot be withdrawn", fold_request_what_str(e->what));
		}
		break;
	}
	default:
		return bad(err, "%s: unknown request", "request");
	}
	if (rc != TCHESS_OK)
		return bad(err, "%s", terr.message);
	return 0;
}

static int apply_adjourned(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_running(v) || fold_adjourned(v))
		return bad(err, "%s: the game is not running or adjourned already", "game-adjourned");
	if (e->color >= 0 && v->adjourn_request_by != !e->color)
		return bad(err, "there is no adjourn request to accept");
	if (e->color < 0 && !v->absent[WHITE] && !v->absent[BLACK])
		return bad(err, "%s: nobody is gone", "game-adjourned");
	if (game_adjourn(&v->game, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	clock_pause(&v->clock, t_ms, &vac);
	v->adjourn_request_by = v->resume_request_by = -1;
	v->resume_declined[WHITE] = v->resume_declined[BLACK] = false;
	return 0;
}

static int apply_resumed(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	if (!fold_adjourned(v))
		return bad(err, "the game is not adjourned");
	if (e->color < 0 || v->resume_request_by != !e->color)
		return bad(err, "there is no resume request to accept");
	if (v->absent[WHITE] || v->absent[BLACK])
		return bad(err, "both players must be present to resume");
	if (game_resume(&v->game, &terr) != TCHESS_OK)
		return bad(err, "%s", terr.message);
	clock_resume(&v->clock, t_ms);
	v->resume_request_by = -1;
	v->resume_declined[WHITE] = v->resume_declined[BLACK] = false;
	return 0;
}

/* Yourpot: "If one of the partners discards to proceed the game, the
 * player can claim the partner discard, but there can be no more than one
 * discard per day." A discard is the partner's refusal, nothing else: they
 * declined the claimant's resume request, or left it unanswered for the
 * ruleset's resume_answer_ms while online (counted from the request, or
 * from their return after it). A partner who stays gone refuses too, by
 * staying away: the rule resumes only "when both are online", and a
 * partner who never returns would hold the game for ever, so their absence
 * with the request standing counts after the longer resume_absent_ms (a
 * day in every preset; fold_discard_due). Days are UTC days (t_ms / 1
 * day). A claim uses up the refusal it names: a decline once, a silence or
 * an absence from the claim on. */
static int apply_discard(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	if (!fold_adjourned(v))
		return bad(err, "the game is not adjourned");
	if (e->color < 0)
		return bad(err, "%s: no color", "discard-claimed");
	int c = e->color;
	bool declined = v->resume_declined[c];
	if (!declined) {
		if (v->resume_request_by != c)
			return bad(err, "a discard is claimed after %s declined your resume request, or left it "
					"unanswered while online: make one first",
				   fold_color_str(!c));
		int64_t due = fold_discard_due(v, c);
		if (t_ms < due && v->absent[!c])
			return bad(err, "%s is not online and has not refused: their absence counts as a refusal "
					"after %lld h with your resume request standing, %lld min more",
				   fold_color_str(!c), (long long)(v->game.rules.resume_absent_ms / 3600000),
				   (long long)((due - t_ms + 59999) / 60000));
		if (t_ms < due)
			return bad(err, "%s has not refused: your resume request stands unanswered for %lld s more "
					"(a discard is a decline, or %lld s without an answer while online)",
				   fold_color_str(!c), (long long)((due - t_ms + 999) / 1000),
				   (long long)(v->game.rules.resume_answer_ms / 1000));
	}
	int64_t day = t_ms / 86400000;
	if (day != v->discard_day[c]) {
		v->discard_day[c] = day;
		v->discard_day_claims[c] = 0;
	}
	if (v->discard_day_claims[c] >= v->game.rules.discard_claims_per_day)
		return bad(err, "at most %d discard claim(s) a day (UTC)", v->game.rules.discard_claims_per_day);
	v->discard_day_claims[c]++;
	v->discards[!c]++;
	if (e->count && e->count != v->discards[!c])
		return bad(err, "%s: count %lld, the fold has %d", "discard-claimed", (long long)e->count, v->discards[!c]);
	if (declined)
		v->resume_declined[c] = false;
	else
		v->resume_since_ms = t_ms;
	return 0;
}

static int apply_ended(struct game_view *v, int64_t t_ms, const struct fold_event *e, struct protocol_error *err)
{
	struct tchess_error terr;
	enum game_termination term;
	if (!v->created)
		return bad(err, "%s: no game", "game-ended");
	if (!game_termination_parse(e->termination, &term))
		return bad(err, "game-ended: unknown termination \"%s\"", e->termination);
	if (!game_is_over(&v->game)) {
		enum tchess_err rc;
		struct clock c = v->clock;
		struct clock_vacations vac;
		fold_clock_vacations(v, &vac);
		switch (term) {
		case GAME_TERM_RESIGNATION:
			if (e->color < 0)
				return bad(err, "%s: who resigned?", "game-ended");
			rc = game_resign(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_TIMEOUT:
		case GAME_TERM_TIMEOUT_VS_INSUFFICIENT:
			if (e->color < 0 || c.running != e->color || clock_check_flag(&c, t_ms, &vac) != e->color)
				return bad(err, "%s: no flag has fallen", "game-ended");
			rc = game_flag(&v->game, (enum color)e->color, &terr);
			break;
		case GAME_TERM_AGREEMENT:
			if (e->color < 0)
				return bad(err, "%s: who accepted?", "game-ended");
			rc = game_accept_draw(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_THREEFOLD:
		case GAME_TERM_FIFTY_MOVES: {
			/* The intended move: as the server parsed it (legal),
			 * else parsed from the wire here. */
			move m = e->legal;
			if (e->color < 0)
				return bad(err, "%s: who claimed?", "game-ended");
			if (m == MOVE_NONE && e->uci[0] && uci_parse(&v->game.pos, e->uci, strlen(e->uci), &m, &terr) != TCHESS_OK)
				return bad(err, "%s", terr.message);
			rc = game_claim(&v->game, (enum color)e->color,
					term == GAME_TERM_THREEFOLD ? GAME_CLAIM_THREEFOLD : GAME_CLAIM_FIFTY_MOVES, m, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		case GAME_TERM_ABORTED:
			if (e->color < 0)
				return bad(err, "%s: who aborted?", "game-ended");
			if (!strcmp(e->reason, "first-move-timeout"))
				rc = game_abort_first_move(&v->game, (enum color)e->color, &terr);
			else if (!strcmp(e->reason, "seek-expired") || !strcmp(e->reason, "seek-withdrawn")) {
				/* A seek nobody joined: no game was played, so no
				 * ruleset's abort rule applies (chessgamble has none). */
				if (v->started)
					return bad(err, "game-ended: %s, but the game has started", e->reason);
				rc = game_abort_unplayed(&v->game, (enum color)e->color, &terr);
			}
			else if (v->game.abort_request_by == !e->color)
				rc = game_accept_abort(&v->game, (enum color)e->color, &terr);
			else
				rc = game_abort(&v->game, (enum color)e->color, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		case GAME_TERM_TABLEBASE: {
			/* The fold cannot probe tables: it takes the server's verdict,
			 * within what the rules allow. */
			enum game_result r;
			if (!game_result_parse(e->result, &r))
				return bad(err, "%s: a tablebase verdict needs its result", "game-ended");
			rc = game_adjudicate_tablebase(&v->game, r, &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		case GAME_TERM_TECHNICAL_FAILURE: {
			int forfeit = technical_reason(e->reason);
			if (forfeit < 0)
				return bad(err, "game-ended: unknown technical failure \"%s\"", e->reason);
			if (forfeit && e->color < 0)
				return bad(err, "%s: who forfeits?", "game-ended");
			if (!strcmp(e->reason, "abandoned") && !v->absent[e->color])
				return bad(err, "game-ended: %s is present", fold_color_str(e->color));
			if (!strcmp(e->reason, "discards") && v->discards[e->color] < v->game.rules.discards_to_lose)
				return bad(err, "game-ended: %s has %d discards", fold_color_str(e->color),
					   v->discards[e->color]);
			rc = game_technical_failure(&v->game, forfeit, (enum color)(forfeit ? e->color : 0), &terr);
			clock_stop(&c, t_ms, &vac);
			break;
		}
		default:
			return bad(err, "game-ended: %s cannot end the game by itself", e->termination);
		}
		if (rc != TCHESS_OK)
			return bad(err, "%s", terr.message);
		v->clock = c;
		queues_clear(v);
		takeback_clear(&v->turn);
		v->adjourn_request_by = v->resume_request_by = -1;
		snprintf(v->end_reason, sizeof v->end_reason, "%s", e->reason);
	}
	v->end_color = e->color;
	/* The server fills result and termination from the fold itself; on the
	 * wire they are always there and must agree. */
	if (e->result[0] && (strcmp(game_result_str(v->game.result), e->result) ||
			     strcmp(game_termination_str(v->game.termination), e->termination)))
		return bad(err, "game-ended: the result is %s", game_result_str(v->game.result));
	return 0;
}

static int apply_event(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		       struct protocol_error *err, bool scratch)
{
	if (seq <= v->seq)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "event %lld: seq not after %lld",
					  (long long)seq, (long long)v->seq);
	if (e->kind != FOLD_EV_CREATED && e->kind != FOLD_EV_OTHER && !v->created)
		return bad(err, "%s: the game has not been created", fold_event_type(e->kind));
	/* The clock never runs backwards, even if the server's wall clock did. */
	if (t_ms < v->last_t_ms)
		t_ms = v->last_t_ms;
	/* Work on a copy so a refused event changes nothing; on a scratch
	 * view, on the view itself (w takes over its buffers; v's scalars
	 * stay as they were until the end, for the reads of v below). */
	struct game_view w;
	if (scratch)
		w = *v;
	else
		fold_view_copy(&w, v);
	int rc = 0;
	switch (e->kind) {
	case FOLD_EV_CREATED:
		rc = apply_created(&w, t_ms, e, err);
		break;
	case FOLD_EV_JOINED:
		if (e->color < 0 || w.seats[e->color].kind != FOLD_SEAT_EMPTY)
			rc = bad(err, "%s: that seat is taken", "player-joined");
		else
			w.seats[e->color] = e->seats[e->color];
		break;
	case FOLD_EV_STARTED:
		if (w.started || w.seats[WHITE].kind == FOLD_SEAT_EMPTY || w.seats[BLACK].kind == FOLD_SEAT_EMPTY) {
			rc = bad(err, "%s: seats are not filled or the game started already", "game-started");
		} else if (!game_is_over(&w.game) && clock_start(&w.clock, game_side_to_move(&w.game), t_ms)) {
			rc = bad(err, "%s: the clock cannot start", "game-started");
		} else {
			w.started = true;
			w.started_ms = t_ms;
		}
		break;
	case FOLD_EV_MOVE:
		rc = apply_move(&w, seq, t_ms, e, err);
		break;
	case FOLD_EV_PREMOVES:
		rc = apply_premoves(&w, e, err);
		break;
	case FOLD_EV_PREMOVE_DISCARDED:
		if (e->color < 0)
			rc = bad(err, "%s: no color", "premove-discarded");
		else
			premove_queue_clear(&w.premoves[e->color]);
		break;
	case FOLD_EV_ENDED:
		rc = apply_ended(&w, t_ms, e, err);
		break;
	case FOLD_EV_CLOCK_RESUMED:
		if (fold_adjourned(&w)) {
			rc = bad(err, "%s: the game is adjourned", "clock-resumed");
		} else if (e->paused_ms > t_ms || e->paused_ms < v->last_t_ms) {
			rc = bad(err, "%s: paused_ms out of order", "clock-resumed");
		} else {
			struct clock_vacations vac;
			fold_clock_vacations(&w, &vac);
			clock_pause(&w.clock, e->paused_ms, &vac);
			clock_resume(&w.clock, t_ms);
		}
		break;
	case FOLD_EV_VACATION:
		rc = apply_vacation(&w, t_ms, e, err);
		break;
	case FOLD_EV_REQUEST:
		rc = apply_request(&w, t_ms, e, err);
		break;
	case FOLD_EV_ADJOURNED:
		rc = apply_adjourned(&w, t_ms, e, err);
		break;
	case FOLD_EV_RESUMED:
		rc = apply_resumed(&w, t_ms, e, err);
		break;
	case FOLD_EV_DISCARD:
		rc = apply_discard(&w, t_ms, e, err);
		break;
	case FOLD_EV_PRESENCE:
		if (e->color < 0)
			rc = bad(err, "%s: no color", "presence");
		else
			w.absent[e->color] = !e->present;
		/* Back, or gone now: the seat's leaving is over either way. */
		if (!rc)
			w.left_gone_ms[e->color] = w.left_claim_ms[e->color] = 0;
		/* The partner's silence on a resume request counts while they
		 * are online: from their return. */
		if (!rc && e->present && w.resume_request_by == !e->color)
			w.resume_since_ms = t_ms;
		/* A rematch offer lapses when either player leaves. */
		if (!rc && !e->present)
			w.rematch_by = -1;
		break;
	case FOLD_EV_LEFT:
		if (e->color < 0 || e->gone_ms <= 0 || e->claim_ms < 0)
			rc = bad(err, "%s: no color or no instant", "left");
		else {
			w.left_gone_ms[e->color] = e->gone_ms;
			w.left_claim_ms[e->color] = e->claim_ms;
		}
		break;
	case FOLD_EV_PROVISIONAL:
	case FOLD_EV_TAKEN_BACK:
		rc = apply_provisional(&w, t_ms, e, err);
		break;
	case FOLD_EV_TIME_ADDED:
		if (!fold_running(&w) || e->color < 0 || e->ms < 0 ||
		    clock_add_time(&w.clock, (enum color)e->color, e->ms))
			rc = bad(err, "%s: no time can be added", "time-added");
		break;
	case FOLD_EV_OTHER:
		break;
	}
	if (!rc) {
		/* The acting seat's last command (for retries); time-added is
		 * the other side's claim. */
		int actor = e->kind == FOLD_EV_TIME_ADDED && e->color >= 0 ? !e->color : e->color;
		bool command = e->kind == FOLD_EV_REQUEST || e->kind == FOLD_EV_ADJOURNED ||
			       e->kind == FOLD_EV_RESUMED || e->kind == FOLD_EV_DISCARD ||
			       e->kind == FOLD_EV_TIME_ADDED || e->kind == FOLD_EV_ENDED || e->kind == FOLD_EV_MOVE ||
			       e->kind == FOLD_EV_PROVISIONAL || e->kind == FOLD_EV_TAKEN_BACK;
		if (command && actor >= 0 && w.created) {
			fold_command_key(w.last_cmd[actor], sizeof w.last_cmd[actor], e);
			w.last_cmd_ply[actor] = (int64_t)v->game.n_plies;
		}
	}
	if (rc) {
		if (scratch)
			*v = w;
		else
			fold_view_fini(&w);
		return -1;
	}
	w.seq = seq;
	w.last_t_ms = t_ms;
	if (!scratch)
		fold_view_fini(v);
	*v = w;
	return 0;
}

int fold_apply_event(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		     struct protocol_error *err)
{
	return apply_event(v, seq, t_ms, e, err, false);
}

int fold_apply_event_scratch(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
			     struct protocol_error *err)
{
	return apply_event(v, seq, t_ms, e, err, true);
}

int fold_apply(struct game_view *v, const struct protocol_event *ev, struct protocol_error *err)
{
	struct fold_event e;
	if (fold_event_decode(ev->type, ev->data, &e, err))
		return -1;
	return fold_apply_event(v, ev->seq, ev->t_ms, &e, err);
}
