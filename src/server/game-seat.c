/*
 * Seats: creating a game (a seek, an invite, an engine game, a
 * tournament's), joining it, starting it when both seats are filled, and
 * the seats' vacations, read from the players' bookings into their
 * correspondence games.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/token.h"
#include "util/xalloc.h"

/* The caller's seat, or -1 after failing with 403. */
int game_seat_or_forbidden(struct live_game *lg, int64_t me, struct game_outcome *out)
{
	int c = fold_seat_of(&lg->view, me);
	if (c < 0)
		game_fail(out, PROTOCOL_ERR_FORBIDDEN, "you have no seat in this game");
	return c;
}

struct live_game *game_seat_enter(struct game_service *gs, int64_t me, const char *id, int *color,
				  struct game_outcome *out)
{
	struct live_game *lg = game_registry_lookup_fresh(gs, id, out);
	if (!lg || (*color = game_seat_or_forbidden(lg, me, out)) < 0)
		return NULL;
	/* Before anything reads the clock (a flag fallen?) or runs it. */
	if (!game_clock_ready(gs, lg, out))
		return NULL;
	game_presence_seen(gs, lg, *color);
	return lg;
}

struct live_game *game_seat_enter_held(struct game_service *gs, int64_t me, const char *id, int *color)
{
	if (!store_shared(gs->srv->store))
		return NULL;
	struct live_game *lg = game_registry_find(gs, id);
	if (!lg || lg->clock_held || (*color = fold_seat_of(&lg->view, me)) < 0)
		return NULL;
	lg->used_ms = now_wall_ms();
	game_presence_seen(gs, lg, *color);
	return lg;
}

static void seat_answer(struct game_outcome *out, int status, const char *id, int color, int64_t seq,
			const char *invite)
{
	struct protocol_seat_response r = { .seq = seq };
	snprintf(r.id, sizeof r.id, "%s", id);
	snprintf(r.color, sizeof r.color, "%s", fold_color_str(color));
	snprintf(r.invite, sizeof r.invite, "%s", invite ? invite : "");
	protocol_events_fini(&out->events);
	out->body = protocol_seat_response_encode(&r);
	out->status = status;
}

/* ---- vacations (issue 12 item 2) ----
 *
 * A booking is one row of the player's in the store (api-me.c), never an
 * event: a correspondence game consults the rows. Its view's vacation
 * lists (tchess/fold.h), which every charge and deadline reads, are filled
 * from them when the game starts, when it is replayed, at the start of
 * every transaction on it (so a booking made on another node counts too)
 * and, for the games in memory, when the player books or cancels. Folding
 * past events with today's rows is exact: a booking starts a day after it
 * is made and may be cancelled only before it starts, so no row that came
 * or went since an event overlaps the time that event charged. */

/* Bookings read at once: far more than one game's span can hold (60 days
 * a year, FOLD_VACATIONS_MAX pending). */
#define SEAT_VACATIONS_READ 512

static bool vacations_matter(const struct game_view *v)
{
	return v->created && v->clock.tc.kind == TC_CORRESPONDENCE;
}

/* Fills side's list in v from the player's bookings all[0..n) (by start):
 * those ending after the game started (at started_ms), or, if more than
 * the list holds, after the running turn began -- all that any charge from
 * now on reads. */
static void vacations_pick(struct game_view *v, int side, const struct vacation *all, int n, int64_t started_ms)
{
	int64_t from = started_ms;
	int fit = 0;
	for (int i = 0; i < n; i++)
		fit += all[i].end_ms > from;
	if (fit > FOLD_VACATIONS_MAX && v->clock.since_ms > from)
		from = v->clock.since_ms;
	size_t k = 0;
	for (int i = 0; i < n && k < FOLD_VACATIONS_MAX; i++) {
		if (all[i].end_ms > from)
			v->vacations[side][k++] = all[i];
	}
	v->n_vacations[side] = k;
}

int game_seat_vacations(struct game_service *gs, struct game_view *v, int64_t started_ms)
{
	if (!vacations_matter(v) || !gs->hooks.vacations)
		return 0;
	struct vacation all[SEAT_VACATIONS_READ];
	for (int side = WHITE; side <= BLACK; side++) {
		int n = 0;
		if (v->seats[side].kind == FOLD_SEAT_HUMAN &&
		    (n = gs->hooks.vacations(gs->hooks.ctx, v->seats[side].player, started_ms, all,
					     SEAT_VACATIONS_READ)) < 0)
			return -1;
		vacations_pick(v, side, all, n, started_ms);
	}
	return 0;
}

void game_service_vacations_changed(struct game_service *gs, int64_t player, const struct vacation *vac,
				    bool cancelled)
{
	/* Replays kept aside for reads hold the old rows. */
	game_registry_cold_clear(gs);
	int64_t from = INT64_MAX;
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			if (fold_seat_of(&lg->view, player) >= 0 && vacations_matter(&lg->view) && lg->view.started &&
			    lg->view.started_ms < from)
				from = lg->view.started_ms;
		}
	}
	int n = 0;
	struct vacation *all = NULL;
	if (from != INT64_MAX && gs->hooks.vacations) {
		all = xmalloc(SEAT_VACATIONS_READ * sizeof *all);
		n = gs->hooks.vacations(gs->hooks.ctx, player, from, all, SEAT_VACATIONS_READ);
	}
	if (n < 0) {
		/* Each game's next transaction reads them again. */
		log_error("player %lld: cannot read the vacations for the games in memory", (long long)player);
	} else if (all) {
		for (unsigned b = 0; b < GS_BUCKETS; b++) {
			for (struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
				int side = fold_seat_of(&lg->view, player);
				if (side < 0 || !vacations_matter(&lg->view) || !lg->view.started)
					continue;
				vacations_pick(&lg->view, side, all, n, lg->view.started_ms);
				game_timer_poke(gs, lg);
			}
		}
	}
	free(all);
	/* An evicted game's deadline may come earlier now; it cannot come
	 * before the cancelled vacation's start (until then both clocks are
	 * the same), where the timer brings the game back to look. A booking
	 * only moves deadlines later: an early look finds nothing due. */
	if (cancelled)
		game_registry_deadline_by(gs, player, vac->start_ms);
}

/* When both seats are filled, the game starts: the clock of the side to
 * move runs from this instant. */
int game_seat_start_if_full(struct game_txn *t, int64_t t_ms, struct game_outcome *out)
{
	if (t->work.seats[WHITE].kind == FOLD_SEAT_EMPTY || t->work.seats[BLACK].kind == FOLD_SEAT_EMPTY)
		return 0;
	/* Before the start, so that its clock reading counts them. */
	if (game_seat_vacations(t->gs, &t->work, t_ms)) {
		game_txn_abort(t);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_STARTED);
	t->lg->last_seen[WHITE] = t->lg->last_seen[BLACK] = t_ms;
	return game_txn_add(t, &e, 0, t_ms, out);
}

void game_service_create(struct game_service *gs, int64_t me, const char *me_name,
			 const struct protocol_game_create_request *req, struct game_outcome *out)
{
	struct time_control tc;
	struct tchess_error terr;
	struct ruleset rules;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CREATED);
	if (time_control_parse(&tc, req->tc, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "tc: %s", terr.message);
		return;
	}
	time_control_format(&tc, e.tc, sizeof e.tc);
	snprintf(e.ruleset, sizeof e.ruleset, "%s", req->ruleset[0] ? req->ruleset : "fide");
	if (!ruleset_preset(&rules, e.ruleset)) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "ruleset: expected fide, yourpot or chessgamble");
		return;
	}
	if (time_control_allowed(&tc, &rules, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "tc: %s", terr.message);
		return;
	}
	const char *opponent = req->opponent[0] ? req->opponent : "open";
	bool engine = !strcmp(opponent, "engine");
	if (!engine && strcmp(opponent, "open") && strcmp(opponent, "invite")) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "opponent: expected open, invite or engine");
		return;
	}
	snprintf(e.opponent, sizeof e.opponent, "%.7s", opponent);
	if (engine && (req->level < 1 || req->level > FOLD_ENGINE_LEVEL_MAX)) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "level: an engine game needs a level from 1 to %d",
		     FOLD_ENGINE_LEVEL_MAX);
		return;
	}
	if (!engine && req->level) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "level: only engine games have a level");
		return;
	}
	if (engine && (!gs->srv->engines || gs->engines_stopped)) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST,
		     "opponent: this server has no engine (see tchessd --engine and engine_processes)");
		return;
	}
	if (engine && !game_engine_admit(gs, me, out))
		return;
	int color;
	if (!req->color[0] || !strcmp(req->color, "random")) {
		uint8_t byte;
		if (token_random(&byte, 1)) {
			game_fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
			return;
		}
		color = byte & 1 ? BLACK : WHITE;
	} else if (!fold_color_parse(req->color, &color)) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "color: expected white, black or random");
		return;
	}
	struct position start;
	if (req->fen[0]) {
		if (fen_parse(&start, req->fen, &terr) != TCHESS_OK) {
			game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "fen: %s", terr.message);
			return;
		}
	} else {
		position_init_start(&start);
	}
	fen_write(&start, e.fen);
	e.undo = req->undo;
	if (req->premoves < 0 || req->premoves > PREMOVE_DEPTH_MAX) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "premoves: from 1 to %d", PREMOVE_DEPTH_MAX);
		return;
	}
	e.premove_depth = req->premoves;
	/* The operator's first-move limit goes into the game, so its clients
	 * count down to the instant this server aborts it. */
	e.first_move_ms = gs->srv->cfg.first_move_ms;
	e.seats[color].kind = FOLD_SEAT_HUMAN;
	e.seats[color].player = me;
	snprintf(e.seats[color].name, sizeof e.seats[color].name, "%s", me_name);
	if (engine) {
		e.seats[!color].kind = FOLD_SEAT_ENGINE;
		e.seats[!color].level = (int)req->level;
	}

	struct live_game *lg = xcalloc(1, sizeof *lg);
	fold_view_init(&lg->view);
	lg->created_ms = now_wall_ms();
	char invite[TOKEN_INVITE_LEN + 1] = "", typed[TOKEN_INVITE_LEN + 1] = "";
	if (token_random_hex(lg->id, TOKEN_ID_BYTES) ||
	    (!strcmp(e.opponent, "invite") && token_invite_new(invite))) {
		game_registry_live_free(lg);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	struct protocol_game_params gp = { 0 };
	if (invite[0]) {
		uint8_t h[SHA256_DIGEST_SIZE];
		/* The hash is of the code's typed form (no dash), as a join's is. */
		token_invite_normalize(invite, typed, sizeof typed);
		sha256(typed, strlen(typed), h);
		token_hex(lg->invite_hash, h, sizeof h);
		snprintf(gp.invite_sha256, sizeof gp.invite_sha256, "%s", lg->invite_hash);
	}
	char *params = protocol_game_params_encode(&gp);
	struct store_game row = { .created_ms = lg->created_ms, .params = params };
	snprintf(row.id, sizeof row.id, "%s", lg->id);
	snprintf(row.status, sizeof row.status, "open");
	struct game_txn t;
	if (game_txn_begin(&t, gs, lg, out)) {
		free(params);
		game_registry_live_free(lg);
		return;
	}
	/* A player's seeks and invites waiting at once are bounded (issue
	 * 12 item 4: 10,000 open games made the public list spam), counted
	 * in the transaction that adds one: on PostgreSQL the count takes
	 * the player's lock, so two nodes creating at once take turns. */
	int64_t waiting = 0;
	int cap = gs->srv->cfg.open_games_per_player;
	enum store_result counted = !engine && cap > 0 ? store_games_open_of(gs->srv->store, me, &waiting) : STORE_OK;
	if (counted || (!engine && cap > 0 && waiting >= cap)) {
		if (counted)
			game_store_failed(gs, out);
		else
			game_fail(out, PROTOCOL_ERR_CONFLICT,
				  "you have %lld games waiting for an opponent, the most this server allows "
				  "(open_games_per_player); abort one first",
				  (long long)waiting);
		free(params);
		game_txn_abort(&t);
		game_registry_live_free(lg);
		return;
	}
	enum store_result created = store_game_create(gs->srv->store, &row);
	free(params);
	if (created) {
		game_txn_abort(&t);
		game_registry_live_free(lg);
		game_store_failed(gs, out);
		return;
	}
	if (game_txn_add(&t, &e, 0, lg->created_ms, out) || game_seat_start_if_full(&t, lg->created_ms, out) ||
	    game_txn_commit(&t, me, out)) {
		game_registry_live_free(lg);
		return;
	}
	game_registry_insert(gs, lg);
	seat_answer(out, 201, lg->id, color, game_txn_seen_number(lg, &lg->seen, me), invite);
}

void game_service_join(struct game_service *gs, int64_t me, const char *me_name, const char *id,
		       const struct protocol_join_request *req, struct game_outcome *out)
{
	struct live_game *lg = game_registry_lookup_fresh(gs, id, out);
	if (!lg)
		return;
	struct game_view *v = &lg->view;
	if (fold_seat_of(v, me) >= 0) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "you are already seated in this game");
		return;
	}
	int color = v->seats[WHITE].kind == FOLD_SEAT_EMPTY ? WHITE : v->seats[BLACK].kind == FOLD_SEAT_EMPTY ? BLACK : -1;
	if (color < 0 || game_is_over(&v->game)) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "no seat is free");
		return;
	}
	if (lg->invite_hash[0]) {
		uint8_t h[SHA256_DIGEST_SIZE];
		char hex[2 * SHA256_DIGEST_SIZE + 1];
		char typed[PROTOCOL_INVITE_MAX + 1];
		token_invite_normalize(req->invite, typed, sizeof typed);
		sha256(typed, strlen(typed), h);
		token_hex(hex, h, sizeof h);
		if (!token_equal(hex, lg->invite_hash, sizeof hex - 1)) {
			game_fail(out, PROTOCOL_ERR_FORBIDDEN,
				  req->invite[0] ? "wrong invite code for this game (check it against the inviter's screen)"
						 : "this game needs its invite code");
			return;
		}
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = color;
	e.seats[color].kind = FOLD_SEAT_HUMAN;
	e.seats[color].player = me;
	snprintf(e.seats[color].name, sizeof e.seats[color].name, "%s", me_name);
	struct game_txn t;
	int64_t t_ms = game_txn_instant(v);
	if (game_txn_begin(&t, gs, lg, out) || game_txn_add(&t, &e, 0, t_ms, out) || game_seat_start_if_full(&t, t_ms, out) ||
	    game_txn_commit(&t, me, out))
		return;
	seat_answer(out, 200, lg->id, color, game_txn_seen_number(lg, &lg->seen, me), NULL);
}

void game_service_create_seated(struct game_service *gs, const struct fold_seat seats[2], const char *tc,
				const char *ruleset, const char *params, char id_out[STORE_GAME_ID_MAX + 1],
				struct game_outcome *out)
{
	struct time_control parsed;
	struct tchess_error terr;
	struct ruleset rules;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CREATED);
	if (time_control_parse(&parsed, tc, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "tc: %s", terr.message);
		return;
	}
	time_control_format(&parsed, e.tc, sizeof e.tc);
	snprintf(e.ruleset, sizeof e.ruleset, "%s", ruleset);
	if (!ruleset_preset(&rules, e.ruleset)) {
		game_fail(out, PROTOCOL_ERR_BAD_REQUEST, "ruleset: expected fide, yourpot or chessgamble");
		return;
	}
	if (time_control_allowed(&parsed, &rules, &terr) != TCHESS_OK) {
		game_fail(out, PROTOCOL_ERR_ILLEGAL, "tc: %s", terr.message);
		return;
	}
	snprintf(e.opponent, sizeof e.opponent, "tournament");
	struct position start;
	position_init_start(&start);
	fen_write(&start, e.fen);
	e.seats[WHITE] = seats[WHITE];
	e.seats[BLACK] = seats[BLACK];

	struct live_game *lg = xcalloc(1, sizeof *lg);
	fold_view_init(&lg->view);
	lg->created_ms = now_wall_ms();
	if (token_random_hex(lg->id, TOKEN_ID_BYTES)) {
		game_registry_live_free(lg);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	struct store_game row = { .created_ms = lg->created_ms, .params = (char *)(params ? params : "{}") };
	snprintf(row.id, sizeof row.id, "%s", lg->id);
	snprintf(row.status, sizeof row.status, "open");
	struct game_txn t;
	if (game_txn_begin(&t, gs, lg, out)) {
		game_registry_live_free(lg);
		return;
	}
	if (store_game_create(gs->srv->store, &row)) {
		game_txn_abort(&t);
		game_registry_live_free(lg);
		game_store_failed(gs, out);
		return;
	}
	/* Both seats are taken: the game starts at once, White's clock runs
	 * ("the player with the white pieces are on the move"). */
	if (game_txn_add(&t, &e, 0, lg->created_ms, out) || game_seat_start_if_full(&t, lg->created_ms, out) ||
	    game_txn_commit(&t, 0, out)) {
		game_registry_live_free(lg);
		return;
	}
	if (gs->batch)
		gs->pending[gs->n_pending - 1].insert = true;
	else
		game_registry_insert(gs, lg);
	snprintf(id_out, STORE_GAME_ID_MAX + 1, "%s", lg->id);
	protocol_events_fini(&out->events);
	out->status = 201;
}
