/*
 * The game: history, automatic endings, claims, offers, aborts and every
 * other way a game ends. Commands validate first and change state only on
 * success, so a log of accepted commands replays to the same game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/game.h"
#include "tchess/material.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"

static const char *const color_names[2] = { "White", "Black" };

/* Plies of the 50- and 75-move rules. */
#define FIFTY_PLIES 100
#define SEVENTYFIVE_PLIES 150

static void finish(struct game *g, enum game_result r, enum game_termination t)
{
	g->status = GAME_OVER;
	g->result = r;
	g->termination = t;
	g->offer_by = GAME_NOBODY;
	g->abort_request_by = GAME_NOBODY;
}

static enum game_result win_for(enum color c)
{
	return c == WHITE ? GAME_RESULT_WHITE_WINS : GAME_RESULT_BLACK_WINS;
}

/* Refuses commands on a finished game, and (unless allow_adjourned) on an
 * adjourned one. */
static enum tchess_err check_live(const struct game *g, bool allow_adjourned, struct tchess_error *err)
{
	if (g->status == GAME_OVER)
		return tchess_error_set(err, TCHESS_ERR_GAME_OVER, 0, "the game is over (%s, %s)",
					game_result_str(g->result), game_termination_str(g->termination));
	if (g->status == GAME_ADJOURNED && !allow_adjourned)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the game is adjourned");
	return TCHESS_OK;
}

static enum tchess_err check_color(int who, struct tchess_error *err)
{
	if (who != WHITE && who != BLACK)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "colour %d is neither White nor Black", who);
	return TCHESS_OK;
}

static uint64_t key_at(const struct game *g, size_t ply)
{
	return ply == 0 ? g->start.key : g->plies[ply - 1].key_after;
}

/* Occurrences of target, the position at index t of the game's position
 * sequence (t may be n_plies + 1 for a position not yet played, which then
 * is counted once itself), by key; when the key count reaches 3 each match
 * is confirmed with position_same() on the replayed position. */
static int count_occurrences(const struct game *g, const struct position *target, size_t t)
{
	size_t lo = target->halfmove >= t ? 0 : t - target->halfmove;
	size_t hi = t <= g->n_plies ? t : g->n_plies;
	int by_key = t > g->n_plies ? 1 : 0;
	for (size_t j = lo; j <= hi; j++)
		if (key_at(g, j) == target->key)
			by_key++;
	if (by_key < 3)
		return by_key;

	int exact = t > g->n_plies ? 1 : 0;
	struct position p = g->start;
	for (size_t j = 0; j <= hi; j++) {
		if (j > 0) {
			struct undo u;
			position_make(&p, g->plies[j - 1].m, &u);
		}
		if (j >= lo && p.key == target->key && position_same(&p, target))
			exact++;
	}
	return exact;
}

int game_repetition_count_at(const struct game *g, size_t ply)
{
	if (ply > g->n_plies)
		return 0;
	if (ply == g->n_plies)
		return count_occurrences(g, &g->pos, ply);
	struct position p;
	if (game_position_at(g, ply, &p, NULL) != TCHESS_OK)
		return 0;
	return count_occurrences(g, &p, ply);
}

int game_repetition_count(const struct game *g)
{
	return count_occurrences(g, &g->pos, g->n_plies);
}

/* The automatic endings, in order of precedence. */
static void evaluate(struct game *g)
{
	const struct position *p = &g->pos;
	if (!movegen_has_legal(p)) {
		if (position_in_check(p))
			finish(g, win_for((enum color)!p->side), GAME_TERM_CHECKMATE);
		else
			finish(g, GAME_RESULT_DRAW, GAME_TERM_STALEMATE);
		return;
	}
	if (material_insufficient_both(p)) {
		finish(g, GAME_RESULT_DRAW, GAME_TERM_INSUFFICIENT_MATERIAL);
		return;
	}
	if (material_is_dead(p) == MATERIAL_DEAD) {
		finish(g, GAME_RESULT_DRAW, GAME_TERM_DEAD_POSITION);
		return;
	}
	int rep = game_repetition_count(g);
	if (rep >= 5)
		finish(g, GAME_RESULT_DRAW, GAME_TERM_FIVEFOLD);
	else if (p->halfmove >= SEVENTYFIVE_PLIES)
		finish(g, GAME_RESULT_DRAW, GAME_TERM_SEVENTYFIVE_MOVES);
	else if (g->rules.threefold == DRAW_AUTOMATIC && rep >= 3)
		finish(g, GAME_RESULT_DRAW, GAME_TERM_THREEFOLD);
	else if (g->rules.fifty_moves == DRAW_AUTOMATIC && p->halfmove >= FIFTY_PLIES)
		finish(g, GAME_RESULT_DRAW, GAME_TERM_FIFTY_MOVES);
}

enum tchess_err game_init(struct game *g, const struct position *start, const struct ruleset *rules,
			  struct tchess_error *err)
{
	memset(g, 0, sizeof *g);
	g->offer_by = GAME_NOBODY;
	g->abort_request_by = GAME_NOBODY;
	g->last_offer_ply[WHITE] = g->last_offer_ply[BLACK] = -1;
	if (rules) {
		const char *why = NULL;
		if (!ruleset_validate(rules, &why))
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "ruleset '%.*s': %s", RULESET_NAME_MAX,
						rules->name, why);
		g->rules = *rules;
	} else {
		ruleset_preset(&g->rules, "fide");
	}
	if (start)
		g->start = *start;
	else
		position_init_start(&g->start);
	g->pos = g->start;
	g->status = GAME_ONGOING;
	evaluate(g);
	return TCHESS_OK;
}

void game_fini(struct game *g)
{
	free(g->plies);
	g->plies = NULL;
	g->n_plies = g->cap = 0;
}

enum tchess_err game_copy(struct game *dst, const struct game *src, struct tchess_error *err)
{
	*dst = *src;
	dst->plies = NULL;
	dst->cap = 0;
	if (src->n_plies) {
		dst->plies = malloc(src->n_plies * sizeof *dst->plies);
		if (!dst->plies) {
			dst->n_plies = 0;
			return tchess_error_set(err, TCHESS_ERR_NO_MEMORY, 0, "no memory for %zu plies", src->n_plies);
		}
		memcpy(dst->plies, src->plies, src->n_plies * sizeof *dst->plies);
		dst->cap = src->n_plies;
	}
	return TCHESS_OK;
}

/* Checks that it is who's move. */
static enum tchess_err check_side(const struct game *g, enum color who, struct tchess_error *err)
{
	if (g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_WRONG_SIDE, 0, "it is %s's move, not %s's",
					color_names[g->pos.side], color_names[who]);
	return TCHESS_OK;
}

/* Checks that m is legal now; explains why not. */
static enum tchess_err check_legal(const struct game *g, move m, struct tchess_error *err)
{
	if (!movegen_is_legal(&g->pos, m)) {
		char why[120];
		notation_explain_illegal(&g->pos, move_from(m), move_to(m), why, sizeof why);
		if (!strcmp(why, "the move is legal"))
			snprintf(why, sizeof why, "that move is not encoded as a legal move here");
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "illegal move: %s", why);
	}
	return TCHESS_OK;
}

static enum tchess_err play(struct game *g, enum color who, move m, int64_t at_ms, int64_t clock_ms, bool legal,
			    struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)) || (e = check_side(g, who, err)) ||
	    (!legal && (e = check_legal(g, m, err))))
		return e;
	if (g->n_plies && at_ms < g->plies[g->n_plies - 1].at_ms)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "move time %lld ms is before the previous move's %lld ms",
					(long long)at_ms, (long long)g->plies[g->n_plies - 1].at_ms);
	if (g->n_plies == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct game_ply *np = realloc(g->plies, cap * sizeof *np);
		if (!np)
			return tchess_error_set(err, TCHESS_ERR_NO_MEMORY, 0, "no memory for %zu plies", cap);
		g->plies = np;
		g->cap = cap;
	}
	struct undo u;
	position_make(&g->pos, m, &u);
	g->plies[g->n_plies++] = (struct game_ply){
		.m = m,
		.halfmove_after = g->pos.halfmove,
		.at_ms = at_ms,
		.clock_ms = clock_ms,
		.key_after = g->pos.key,
	};

	/* Offer lifetimes: the offerer's own move ends "until the turn ends",
	 * the opponent's move ends "until the opponent moves". */
	if (g->offer_by != GAME_NOBODY) {
		bool own = g->offer_by == (int)who;
		if ((g->rules.offer_lifetime == OFFER_UNTIL_TURN_ENDS && own) ||
		    (g->rules.offer_lifetime == OFFER_UNTIL_OPPONENT_MOVES && !own))
			g->offer_by = GAME_NOBODY;
	}
	g->abort_request_by = GAME_NOBODY;
	evaluate(g);
	return TCHESS_OK;
}

enum tchess_err game_play(struct game *g, enum color who, move m, int64_t at_ms, int64_t clock_ms,
			  struct tchess_error *err)
{
	return play(g, who, m, at_ms, clock_ms, false, err);
}

enum tchess_err game_play_legal(struct game *g, enum color who, move m, int64_t at_ms, int64_t clock_ms,
				struct tchess_error *err)
{
	return play(g, who, m, at_ms, clock_ms, true, err);
}

enum tchess_err game_play_text(struct game *g, enum color who, const char *text, size_t len, int64_t at_ms,
			       int64_t clock_ms, struct tchess_error *err)
{
	enum tchess_err e;
	move m;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)) || (e = check_side(g, who, err)) ||
	    (e = notation_parse_move(&g->pos, text, len, &m, err)))
		return e;
	return game_play_legal(g, who, m, at_ms, clock_ms, err);
}

enum tchess_err game_position_at(const struct game *g, size_t ply, struct position *out, struct tchess_error *err)
{
	if (ply > g->n_plies)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "ply %zu is beyond the %zu played", ply, g->n_plies);
	struct position p = g->start;
	for (size_t i = 0; i < ply; i++) {
		struct undo u;
		position_make(&p, g->plies[i].m, &u);
	}
	*out = p;
	return TCHESS_OK;
}

enum tchess_err game_check_claim(const struct game *g, enum game_claim claim, move intended,
				 struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)))
		return e;
	if (claim != GAME_CLAIM_THREEFOLD && claim != GAME_CLAIM_FIFTY_MOVES)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "unknown claim %d", (int)claim);
	struct position after = g->pos;
	size_t t = g->n_plies;
	char uci[UCI_MAX] = "";
	if (intended != MOVE_NONE) {
		if ((e = check_legal(g, intended, err)))
			return e;
		uci_write(&g->pos, intended, uci);
		struct undo u;
		position_make(&after, intended, &u);
		t++;
	}
	if (claim == GAME_CLAIM_THREEFOLD) {
		int n = count_occurrences(g, &after, t);
		if (n >= 3)
			return TCHESS_OK;
		if (intended != MOVE_NONE)
			return tchess_error_set(err, TCHESS_ERR_BAD_CLAIM, 0,
						"no threefold repetition: the position after %s would occur %d time%s",
						uci, n, n == 1 ? "" : "s");
		return tchess_error_set(err, TCHESS_ERR_BAD_CLAIM, 0,
					"no threefold repetition: this position has occurred %d time%s", n,
					n == 1 ? "" : "s");
	}
	if (after.halfmove >= FIFTY_PLIES)
		return TCHESS_OK;
	if (intended != MOVE_NONE && after.halfmove == 0)
		return tchess_error_set(err, TCHESS_ERR_BAD_CLAIM, 0,
					"no fifty-move draw: %s is a capture or a pawn move", uci);
	return tchess_error_set(err, TCHESS_ERR_BAD_CLAIM, 0,
				"no fifty-move draw: %u plies%s without a capture or pawn move, 100 needed",
				(unsigned)after.halfmove, intended != MOVE_NONE ? " (with the move)" : "");
}

enum tchess_err game_claim(struct game *g, enum color who, enum game_claim claim, move intended,
			   struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_WRONG_SIDE, 0, "only the player to move (%s) may claim",
					color_names[g->pos.side]);
	if ((e = game_check_claim(g, claim, intended, err)))
		return e;
	finish(g, GAME_RESULT_DRAW, claim == GAME_CLAIM_THREEFOLD ? GAME_TERM_THREEFOLD : GAME_TERM_FIFTY_MOVES);
	g->claim_move = intended;
	return TCHESS_OK;
}

enum tchess_err game_offer_draw(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->rules.offer_own_move_only && g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"%s may offer a draw only on their own move", color_names[who]);
	if (g->offer_by == (int)who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s's draw offer already stands",
					color_names[who]);
	if (g->offer_by != GAME_NOBODY)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s's draw offer stands: accept or decline it",
					color_names[g->offer_by]);
	long last = g->last_offer_ply[who], interval = g->rules.offer_min_interval_plies;
	if (last >= 0 && (long)g->n_plies - last < interval)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"%s offered a draw at ply %ld; the next offer is allowed from ply %ld",
					color_names[who], last, last + interval);
	g->offer_by = who;
	g->offer_ply = g->n_plies;
	g->last_offer_ply[who] = (long)g->n_plies;
	return TCHESS_OK;
}

/* The opponent's offer must stand for accept and decline. */
static enum tchess_err check_offer_to(const struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->offer_by != (int)!who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s has no draw offer to answer",
					color_names[who]);
	return TCHESS_OK;
}

enum tchess_err game_accept_draw(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e = check_offer_to(g, who, err);
	if (e)
		return e;
	finish(g, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT);
	return TCHESS_OK;
}

enum tchess_err game_decline_draw(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e = check_offer_to(g, who, err);
	if (e)
		return e;
	g->offer_by = GAME_NOBODY;
	return TCHESS_OK;
}

enum tchess_err game_withdraw_draw(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->offer_by != (int)who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s has no draw offer standing",
					color_names[who]);
	if (g->rules.offer_lifetime != OFFER_UNTIL_WITHDRAWN)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"under the %.*s rules a draw offer cannot be withdrawn", RULESET_NAME_MAX,
					g->rules.name);
	g->offer_by = GAME_NOBODY;
	return TCHESS_OK;
}

static bool may_abort_alone(const struct game *g)
{
	return g->n_plies < (size_t)g->rules.abort_alone_max_plies;
}

/* Rules with no abort at all (chessgamble): a game is played to its end. */
static bool no_abort(const struct game *g)
{
	return g->rules.abort_alone_max_plies == 0 && !g->rules.abort_by_consent;
}

static enum tchess_err no_abort_error(const struct game *g, struct tchess_error *err)
{
	return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
				"the %.*s rules have no abort: play on, resign or offer a draw",
				RULESET_NAME_MAX, g->rules.name);
}

enum tchess_err game_abort(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)) || (e = check_color(who, err)))
		return e;
	if (no_abort(g))
		return no_abort_error(g, err);
	if (!may_abort_alone(g))
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"after %zu plies the game can be aborted %s", g->n_plies,
					g->rules.abort_by_consent ? "only with the opponent's consent" : "no more");
	finish(g, GAME_RESULT_NONE, GAME_TERM_ABORTED);
	return TCHESS_OK;
}

enum tchess_err game_request_abort(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)) || (e = check_color(who, err)))
		return e;
	if (no_abort(g))
		return no_abort_error(g, err);
	if (may_abort_alone(g))
		return game_abort(g, who, err);
	if (!g->rules.abort_by_consent)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "after %zu plies the game can be aborted no more",
					g->n_plies);
	if (g->abort_request_by == (int)who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s's abort request already stands",
					color_names[who]);
	if (g->abort_request_by != GAME_NOBODY)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s's abort request stands: accept or decline it",
					color_names[g->abort_request_by]);
	g->abort_request_by = who;
	return TCHESS_OK;
}

static enum tchess_err check_abort_request_to(const struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)) || (e = check_color(who, err)))
		return e;
	if (g->abort_request_by != (int)!who)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s has no abort request to answer",
					color_names[who]);
	return TCHESS_OK;
}

enum tchess_err game_accept_abort(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e = check_abort_request_to(g, who, err);
	if (e)
		return e;
	finish(g, GAME_RESULT_NONE, GAME_TERM_ABORTED);
	return TCHESS_OK;
}

enum tchess_err game_decline_abort(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e = check_abort_request_to(g, who, err);
	if (e)
		return e;
	g->abort_request_by = GAME_NOBODY;
	return TCHESS_OK;
}

enum tchess_err game_abort_unplayed(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->n_plies)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the game has begun: %zu plies played",
					g->n_plies);
	finish(g, GAME_RESULT_NONE, GAME_TERM_ABORTED);
	return TCHESS_OK;
}

enum tchess_err game_abort_first_move(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_WRONG_SIDE, 0, "it is %s's move, not %s's",
					color_names[g->pos.side], color_names[who]);
	/* who has moved already if a ply was played from a position where who was to move. */
	bool moved = g->n_plies >= 2 || (g->n_plies == 1 && g->start.side == who);
	if (moved)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s has already made a first move",
					color_names[who]);
	finish(g, GAME_RESULT_NONE, GAME_TERM_ABORTED);
	return TCHESS_OK;
}

enum tchess_err game_resign(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)) || (e = check_color(who, err)))
		return e;
	finish(g, win_for((enum color)!who), GAME_TERM_RESIGNATION);
	return TCHESS_OK;
}

enum tchess_err game_flag(struct game *g, enum color who, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)) || (e = check_color(who, err)))
		return e;
	if (g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_WRONG_SIDE, 0, "%s's clock is not running: it is %s's move",
					color_names[who], color_names[g->pos.side]);
	if (material_can_mate(&g->pos, (enum color)!who))
		finish(g, win_for((enum color)!who), GAME_TERM_TIMEOUT);
	else
		finish(g, GAME_RESULT_DRAW, GAME_TERM_TIMEOUT_VS_INSUFFICIENT);
	return TCHESS_OK;
}

enum tchess_err game_check_tablebase_claim(const struct game *g, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)))
		return e;
	if (g->rules.tablebase_max_pieces <= 0)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the %.*s rules allow no tablebase claims",
					RULESET_NAME_MAX, g->rules.name);
	int n = bb_count(position_occupied(&g->pos));
	if (n > g->rules.tablebase_max_pieces)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"%d pieces on the board; tablebase claims need at most %d", n,
					g->rules.tablebase_max_pieces);
	return TCHESS_OK;
}

enum tchess_err game_adjudicate_tablebase(struct game *g, enum game_result r, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = game_check_tablebase_claim(g, err)))
		return e;
	if (r != GAME_RESULT_WHITE_WINS && r != GAME_RESULT_BLACK_WINS && r != GAME_RESULT_DRAW)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "an adjudication needs a result, not %d", (int)r);
	finish(g, r, GAME_TERM_TABLEBASE);
	return TCHESS_OK;
}

enum tchess_err game_technical_failure(struct game *g, bool forfeit, enum color loser, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)))
		return e;
	if (forfeit && (e = check_color(loser, err)))
		return e;
	finish(g, forfeit ? win_for((enum color)!loser) : GAME_RESULT_NONE, GAME_TERM_TECHNICAL_FAILURE);
	return TCHESS_OK;
}

enum tchess_err game_adjourn(struct game *g, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, false, err)))
		return e;
	g->status = GAME_ADJOURNED;
	g->termination = GAME_TERM_ADJOURNED;
	return TCHESS_OK;
}

enum tchess_err game_resume(struct game *g, struct tchess_error *err)
{
	enum tchess_err e;
	if ((e = check_live(g, true, err)))
		return e;
	if (g->status != GAME_ADJOURNED)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the game is not adjourned");
	g->status = GAME_ONGOING;
	g->termination = GAME_TERM_NONE;
	return TCHESS_OK;
}

static const char *const result_names[] = { "*", "1-0", "0-1", "1/2-1/2" };

static const char *const termination_names[GAME_TERM_COUNT] = {
	[GAME_TERM_NONE] = "",
	[GAME_TERM_CHECKMATE] = "checkmate",
	[GAME_TERM_RESIGNATION] = "resignation",
	[GAME_TERM_STALEMATE] = "stalemate",
	[GAME_TERM_TIMEOUT] = "timeout",
	[GAME_TERM_TIMEOUT_VS_INSUFFICIENT] = "timeout-vs-insufficient-material",
	[GAME_TERM_INSUFFICIENT_MATERIAL] = "insufficient-material",
	[GAME_TERM_DEAD_POSITION] = "dead-position",
	[GAME_TERM_THREEFOLD] = "threefold",
	[GAME_TERM_FIVEFOLD] = "fivefold",
	[GAME_TERM_FIFTY_MOVES] = "fifty-moves",
	[GAME_TERM_SEVENTYFIVE_MOVES] = "seventyfive-moves",
	[GAME_TERM_AGREEMENT] = "agreement",
	[GAME_TERM_ABORTED] = "aborted",
	[GAME_TERM_TABLEBASE] = "tablebase",
	[GAME_TERM_TECHNICAL_FAILURE] = "technical-failure",
	[GAME_TERM_ADJOURNED] = "adjourned",
};

const char *game_result_str(enum game_result r)
{
	return (unsigned)r < sizeof result_names / sizeof result_names[0] ? result_names[r] : "*";
}

const char *game_termination_str(enum game_termination t)
{
	return (unsigned)t < GAME_TERM_COUNT ? termination_names[t] : "";
}

bool game_result_parse(const char *s, enum game_result *out)
{
	for (unsigned i = 0; s && i < sizeof result_names / sizeof result_names[0]; i++)
		if (!strcmp(s, result_names[i])) {
			*out = (enum game_result)i;
			return true;
		}
	return false;
}

bool game_termination_parse(const char *s, enum game_termination *out)
{
	for (unsigned i = 1; s && i < GAME_TERM_COUNT; i++)
		if (!strcmp(s, termination_names[i])) {
			*out = (enum game_termination)i;
			return true;
		}
	return false;
}
