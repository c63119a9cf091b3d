/*
 * The tournament service (see tournament-service.h): commands on the
 * store's tournament rows, the start that creates every game in one batch,
 * and the hooks the game service calls inside its transactions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-tournaments.h"
#include "tournament-service.h"
#include "util/log.h"
#include "util/now.h"
#include "util/token.h"
#include "util/xalloc.h"

#define TOURNAMENTS_LISTED 50

/* A tournament read back from the store, with its pure-core state once it
 * has started. Large (every game's id): allocated on the heap. */
struct loaded {
	struct store_tournament row;
	struct store_entry entries[TOURNAMENT_PLAYERS_MAX];
	int n_entries;
	bool started;
	struct tournament t;
	char ids[TOURNAMENT_GAMES_MAX][PROTOCOL_GAME_ID_MAX + 1];
};

__attribute__((format(printf, 3, 4))) static void fail(struct game_outcome *out, enum protocol_error_code code,
							const char *fmt, ...)
{
	va_list ap;
	out->failed = true;
	out->err.code = code;
	out->err.seq = 0;
	va_start(ap, fmt);
	vsnprintf(out->err.message, sizeof out->err.message, fmt, ap);
	va_end(ap);
}

/* Reads tournament id; after the start, rebuilds its tables from the
 * stored seed (the same seed always gives the same tables) and its
 * results from the stored outcomes. */
static enum store_result load(struct tournament_service *ts, const char *id, struct loaded *l)
{
	memset(l, 0, sizeof *l);
	enum store_result r = store_tournament_get(ts->store, id, &l->row);
	if (r)
		return r;
	r = store_entries(ts->store, id, l->entries, TOURNAMENT_PLAYERS_MAX, &l->n_entries);
	if (r || !strcmp(l->row.status, "open"))
		return r;
	struct tchess_error terr;
	if (l->n_entries != l->row.players ||
	    tournament_init(&l->t, l->row.players, l->row.kind, l->row.seed, &l->row.prizes, &terr) != TCHESS_OK) {
		log_error("tournament %s: cannot rebuild its tables", id);
		return STORE_ERROR;
	}
	struct store_tournament_game *games = xcalloc(TOURNAMENT_GAMES_MAX, sizeof *games);
	int n;
	r = store_tournament_games(ts->store, id, games, TOURNAMENT_GAMES_MAX, &n);
	if (!r && n != l->t.n_games) {
		log_error("tournament %s: %d games stored, %d expected", id, n, l->t.n_games);
		r = STORE_ERROR;
	}
	for (int i = 0; !r && i < n; i++) {
		snprintf(l->ids[i], sizeof l->ids[i], "%s", games[i].game_id);
		if (tournament_set_outcome(&l->t, i, games[i].outcome, &terr) != TCHESS_OK)
			r = STORE_ERROR;
	}
	free(games);
	l->started = r == STORE_OK;
	return r;
}

static void to_protocol(const struct loaded *l, int64_t viewer, int64_t credits, struct protocol_tournament *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->id, sizeof p->id, "%s", l->row.id);
	p->kind = l->row.kind;
	p->players = l->row.players;
	snprintf(p->tc, sizeof p->tc, "%s", l->row.tc);
	snprintf(p->ruleset, sizeof p->ruleset, "%s", l->row.ruleset);
	p->prizes = l->row.prizes;
	snprintf(p->status, sizeof p->status, "%s", l->row.status);
	p->creator = l->row.creator;
	p->created_ms = l->row.created_ms;
	p->started_ms = l->row.started_ms;
	p->finished_ms = l->row.finished_ms;
	p->n_entrants = l->n_entries;
	for (int i = 0; i < l->n_entries; i++) {
		p->entrants[i].player = l->entries[i].player;
		snprintf(p->entrants[i].name, sizeof p->entrants[i].name, "%.*s", (int)sizeof p->entrants[i].name - 1,
			 l->entries[i].name);
	}
	if (l->started) {
		p->t = &l->t;
		p->seed = l->row.seed;
		p->game_ids = (const char(*)[PROTOCOL_GAME_ID_MAX + 1])l->ids;
	}
	p->viewer = viewer;
	p->viewer_credits = credits;
}

/* Answers with the tournament as it is in the store now. */
static void answer(struct tournament_service *ts, int64_t viewer, const char *id, int status, unsigned parts, int64_t games_of,
		   struct game_outcome *out)
{
	struct loaded *l = xmalloc(sizeof *l);
	int64_t credits = 0;
	switch (load(ts, id, l)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such tournament");
		goto out;
	default:
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto out;
	}
	if (viewer && store_credits_get(ts->store, viewer, &credits)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto out;
	}
	struct protocol_tournament p;
	to_protocol(l, viewer, credits, &p);
	out->body = protocol_tournament_encode(&p, parts, games_of);
	out->status = status;
out:
	free(l);
}

static bool id_valid(const char *id)
{
	return protocol_game_id_valid(id);
}

/* ---- commands ---- */

void tournament_service_create(struct tournament_service *ts, int64_t me, const struct protocol_tournament_create_request *req,
			       struct game_outcome *out)
{
	struct store_tournament row = { .creator = me };
	struct tchess_error terr;
	struct time_control tc;
	struct ruleset rules;
	if (!protocol_tournament_kind_parse(req->kind, &row.kind)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "kind: expected round-robin or double-round-robin");
		return;
	}
	if (req->players < TOURNAMENT_PLAYERS_MIN || req->players > TOURNAMENT_PLAYERS_MAX) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "players: expected %d to %d", TOURNAMENT_PLAYERS_MIN,
		     TOURNAMENT_PLAYERS_MAX);
		return;
	}
	row.players = (int)req->players;
	if (time_control_parse(&tc, req->tc, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "tc: %s", terr.message);
		return;
	}
	time_control_format(&tc, row.tc, sizeof row.tc);
	snprintf(row.ruleset, sizeof row.ruleset, "%s", req->ruleset[0] ? req->ruleset : "chessgamble");
	if (!ruleset_preset(&rules, row.ruleset)) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "ruleset: expected fide, yourpot or chessgamble");
		return;
	}
	if (time_control_allowed(&tc, &rules, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "tc: %s", terr.message);
		return;
	}
	if (req->stake < 0 || req->stake > TOURNAMENT_STAKE_MAX) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "stake: expected 0 to %lld credits", TOURNAMENT_STAKE_MAX);
		return;
	}
	/* Defaults: with a stake, all of the pot to first place (the
	 * document's table); without one, no prizes. */
	row.prizes.stake = req->stake;
	row.prizes.n_places = (int)req->n_places;
	for (size_t i = 0; i < req->n_places; i++)
		row.prizes.place_percent[i] = (int)req->places[i];
	if (!req->n_places && (req->stake || req->payout_percent > 0)) {
		row.prizes.n_places = 1;
		row.prizes.place_percent[0] = 100;
	}
	if (req->payout_percent > 100) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "payout_percent: expected 0 to 100");
		return;
	}
	row.prizes.payout_percent = req->payout_percent >= 0 ? (int)req->payout_percent : row.prizes.n_places ? 100 : 0;
	if (tournament_prizes_validate(&row.prizes, row.players, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_BAD_REQUEST, "prizes: %s", terr.message);
		return;
	}
	snprintf(row.status, sizeof row.status, "open");
	row.created_ms = now_wall_ms();
	if (token_random_hex(row.id, TOKEN_ID_BYTES)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	if (store_begin(ts->store) || store_tournament_create(ts->store, &row) || store_commit(ts->store)) {
		store_rollback(ts->store);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	log_info("tournament %s created: %s, %d players, %s", row.id, req->kind, row.players, row.tc);
	answer(ts, me, row.id, 201, PROTOCOL_TOURNAMENT_ENTRANTS, 0, out);
}

struct list {
	struct protocol_tournament *items;
	size_t n;
	int64_t viewer, credits;
	bool failed;
};

static int list_add(void *arg, const struct store_tournament *t)
{
	struct list *l = arg;
	struct loaded *one = xmalloc(sizeof *one);
	memset(one, 0, sizeof *one);
	one->row = *t;
	l->items = xrealloc(l->items, (l->n + 1) * sizeof *l->items);
	to_protocol(one, l->viewer, l->credits, &l->items[l->n]);
	l->items[l->n++].n_entrants = t->registered;
	free(one);
	return 0;
}

void tournament_service_list(struct tournament_service *ts, int64_t viewer, struct game_outcome *out)
{
	struct list l = { .viewer = viewer };
	if ((viewer && store_credits_get(ts->store, viewer, &l.credits)) ||
	    store_tournaments_recent(ts->store, TOURNAMENTS_LISTED, list_add, &l)) {
		free(l.items);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	/* Entrant names are not listed; "you" says only credits here. */
	for (size_t i = 0; i < l.n; i++)
		l.items[i].viewer = 0;
	out->body = protocol_tournament_list_encode(l.items, l.n);
	out->status = 200;
	free(l.items);
}

void tournament_service_get(struct tournament_service *ts, int64_t viewer, const char *id, unsigned parts, int64_t games_of,
			    struct game_outcome *out)
{
	if (!id_valid(id)) {
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such tournament");
		return;
	}
	answer(ts, viewer, id, 200, parts, games_of, out);
}

/* Draws the seed, creates every game (White to move in each) and marks the
 * tournament running; inside the caller's batch. */
static int start(struct tournament_service *ts, struct loaded *l, struct game_outcome *out)
{
	struct tchess_error terr;
	uint64_t seed;
	if (token_random(&seed, sizeof seed)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return -1;
	}
	/* SQLite keeps signed 64-bit integers; the seed round-trips through
	 * int64_t unchanged. */
	if (tournament_init(&l->t, l->row.players, l->row.kind, seed, &l->row.prizes, &terr) != TCHESS_OK) {
		fail(out, PROTOCOL_ERR_INTERNAL, "tournament: %s", terr.message);
		return -1;
	}
	struct protocol_game_params gp = { 0 };
	snprintf(gp.tournament, sizeof gp.tournament, "%s", l->row.id);
	char *params = protocol_game_params_encode(&gp);
	int rc = 0;
	for (int i = 0; i < l->t.n_games && !rc; i++) {
		const struct tournament_game *g = &l->t.games[i];
		struct fold_seat seats[2] = { { 0 } };
		const struct store_entry *w = &l->entries[g->white], *b = &l->entries[g->black];
		seats[WHITE].kind = seats[BLACK].kind = FOLD_SEAT_HUMAN;
		seats[WHITE].player = w->player;
		seats[BLACK].player = b->player;
		snprintf(seats[WHITE].name, sizeof seats[WHITE].name, "%.*s", (int)sizeof seats[WHITE].name - 1, w->name);
		snprintf(seats[BLACK].name, sizeof seats[BLACK].name, "%.*s", (int)sizeof seats[BLACK].name - 1, b->name);
		game_service_create_seated(ts->games, seats, l->row.tc, l->row.ruleset, params, l->ids[i], out);
		if (out->failed) {
			rc = -1;
		} else if (store_tournament_game_add(ts->store, l->row.id, i, l->ids[i])) {
			fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
			rc = -1;
		}
	}
	free(params);
	if (rc)
		return -1;
	l->row.seed = seed;
	l->row.started_ms = now_wall_ms();
	snprintf(l->row.status, sizeof l->row.status, "running");
	if (store_tournament_update(ts->store, &l->row)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	l->started = true;
	log_info("tournament %s started: %d games", l->row.id, l->t.n_games);
	return 0;
}

void tournament_service_register(struct tournament_service *ts, int64_t me, const char *id, struct game_outcome *out)
{
	if (!id_valid(id)) {
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such tournament");
		return;
	}
	struct loaded *l = xmalloc(sizeof *l);
	int64_t credits;
	if (game_service_batch_begin(ts->games)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto out;
	}
	switch (load(ts, id, l)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such tournament");
		goto abort;
	default:
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto abort;
	}
	if (strcmp(l->row.status, "open")) {
		fail(out, PROTOCOL_ERR_CONFLICT, "the tournament has started: registration is closed");
		goto abort;
	}
	for (int i = 0; i < l->n_entries; i++) {
		if (l->entries[i].player == me) {
			fail(out, PROTOCOL_ERR_CONFLICT, "you are registered already");
			goto abort;
		}
	}
	if (store_credits_get(ts->store, me, &credits)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto abort;
	}
	if (credits < l->row.prizes.stake) {
		fail(out, PROTOCOL_ERR_ILLEGAL, "the stake is %lld credits and your balance is %lld",
		     (long long)l->row.prizes.stake, (long long)credits);
		goto abort;
	}
	int64_t now = now_wall_ms();
	if (store_entry_add(ts->store, id, me, now) ||
	    (l->row.prizes.stake && store_credits_add(ts->store, me, -l->row.prizes.stake, "stake", id, now))) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto abort;
	}
	/* Re-read the entries in registration order, then start if full:
	 * "A tournament starts as soon as the quantity specified in the call
	 * number of participants are registered". */
	if (store_entries(ts->store, id, l->entries, TOURNAMENT_PLAYERS_MAX, &l->n_entries)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto abort;
	}
	if (l->n_entries == l->row.players && start(ts, l, out))
		goto abort;
	if (game_service_batch_commit(ts->games)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		goto out;
	}
	log_info("tournament %s: player %lld registered (%d/%d)", id, (long long)me, l->n_entries, l->row.players);
	answer(ts, me, id, 200, PROTOCOL_TOURNAMENT_ALL, 0, out);
	goto out;
abort:
	game_service_batch_abort(ts->games);
out:
	free(l);
}

void tournament_service_withdraw(struct tournament_service *ts, int64_t me, const char *id, struct game_outcome *out)
{
	if (!id_valid(id)) {
		fail(out, PROTOCOL_ERR_NOT_FOUND, "no such tournament");
		return;
	}
	struct store_tournament row;
	if (store_begin(ts->store)) {
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	enum store_result r = store_tournament_get(ts->store, id, &row);
	if (r) {
		store_rollback(ts->store);
		fail(out, r == STORE_NOT_FOUND ? PROTOCOL_ERR_NOT_FOUND : PROTOCOL_ERR_INTERNAL,
		     r == STORE_NOT_FOUND ? "no such tournament" : "storage failure");
		return;
	}
	if (strcmp(row.status, "open")) {
		store_rollback(ts->store);
		fail(out, PROTOCOL_ERR_CONFLICT, "the tournament has started: withdrawal is closed");
		return;
	}
	r = store_entry_remove(ts->store, id, me);
	if (r == STORE_NOT_FOUND) {
		store_rollback(ts->store);
		fail(out, PROTOCOL_ERR_CONFLICT, "you are not registered");
		return;
	}
	if (r || (row.prizes.stake && store_credits_add(ts->store, me, row.prizes.stake, "refund", id,
							now_wall_ms())) ||
	    store_commit(ts->store)) {
		store_rollback(ts->store);
		fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return;
	}
	log_info("tournament %s: player %lld withdrew", id, (long long)me);
	answer(ts, me, id, 200, PROTOCOL_TOURNAMENT_ENTRANTS, 0, out);
}

/* ---- hooks ---- */

/* A game ended: if it is a tournament's, its result counts (tournament.h
 * says how aborted and technical-failure games do); the last one ends the
 * tournament and pays the prizes. In the game's transaction. */
static int game_ended(void *ctx, const char *game_id, const struct game_view *v)
{
	struct tournament_service *ts = ctx;
	char tid[STORE_GAME_ID_MAX + 1];
	int idx;
	enum store_result r = store_tournament_of_game(ts->store, game_id, tid, &idx);
	if (r == STORE_NOT_FOUND)
		return 0;
	if (r)
		return -1;
	struct loaded *l = xmalloc(sizeof *l);
	struct tchess_error terr;
	int rc = -1;
	if (load(ts, tid, l) || !l->started ||
	    tournament_record(&l->t, idx, v->game.result, v->game.termination, &terr) != TCHESS_OK ||
	    store_tournament_game_set_outcome(ts->store, tid, idx, l->t.games[idx].outcome))
		goto out;
	if (tournament_finished(&l->t) && strcmp(l->row.status, "finished")) {
		/* "With the completion of the tournament will be credited
		 * according to the tournament results" -- virtual credits. */
		int64_t prize[TOURNAMENT_PLAYERS_MAX], house;
		if (tournament_payout(&l->t, prize, &house, &terr) != TCHESS_OK)
			goto out;
		for (int i = 0; i < l->n_entries; i++) {
			if (prize[i] && store_credits_add(ts->store, l->entries[i].player, prize[i], "prize", tid,
							  v->last_t_ms))
				goto out;
		}
		l->row.finished_ms = v->last_t_ms;
		snprintf(l->row.status, sizeof l->row.status, "finished");
		if (store_tournament_update(ts->store, &l->row))
			goto out;
		log_info("tournament %s finished (house keeps %lld credits)", tid, (long long)house);
	}
	rc = 0;
out:
	if (rc)
		log_error("tournament %s: cannot record game %s", tid, game_id);
	free(l);
	return rc;
}

static int vacations(void *ctx, int64_t player, int64_t now_ms, struct vacation *out, size_t max)
{
	struct tournament_service *ts = ctx;
	struct store_vacation *all = xcalloc(max ? max : 1, sizeof *all);
	int n;
	if (store_vacations(ts->store, player, now_ms, all, (int)max, &n)) {
		free(all);
		return -1;
	}
	for (int i = 0; i < n; i++)
		out[i] = all[i].v;
	free(all);
	return n;
}

void tournament_service_hooks(struct tournament_service *ts, struct game_service_hooks *out)
{
	*out = (struct game_service_hooks){ .ctx = ts, .ended = game_ended, .vacations = vacations };
}
