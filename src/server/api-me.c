/*
 * The player's own resources for correspondence play: GET /v1/me/games
 * (which of my games wait for my move, and their deadlines), GET
 * /v1/me/games/finished (the games played, newest first, from the store's
 * summaries: nothing is replayed), the vacations
 * under /v1/me/vacations, and the test-only clock. Booking rules are
 * tchess/vacation.h's; a booking or cancellation is one row of the store,
 * written alone: the player's correspondence games consult the rows
 * whenever they charge time (game_service_vacations_changed tells the
 * ones in memory), none of them is written (issue 12 item 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "game-service.h"
#include "ratelimit.h"
#include "store-tournaments.h"
#include "tchess/calendar.h"
#include "tchess/protocol-answers.h"
#include "tchess/protocol-tournament.h"
#include "tchess/vacation.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

#define MY_GAMES_MAX 1000
/* As many as a client holds. */
#define VACATIONS_LISTED PROTOCOL_VACATIONS_MAX

/* ---- GET /v1/me/games ---- */

struct my_games {
	struct server *srv;
	int64_t me;
	int64_t now_ms;
	struct protocol_my_game *g;
	size_t n;
};

static int my_game(void *arg, const char *id, const struct game_view *v)
{
	struct my_games *m = arg;
	int side = fold_seat_of(v, m->me);
	if (side < 0 || !v->created || game_is_over(&v->game))
		return 0;
	m->g = xrealloc(m->g, (m->n + 1) * sizeof *m->g);
	struct protocol_my_game *g = &m->g[m->n++];
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", id);
	snprintf(g->status, sizeof g->status, "%s", fold_status(v));
	snprintf(g->tc, sizeof g->tc, "%s", v->tc);
	snprintf(g->color, sizeof g->color, "%s", fold_color_str(side));
	const struct fold_seat *op = &v->seats[!side];
	if (op->kind == FOLD_SEAT_HUMAN) {
		g->opponent = op->player;
		snprintf(g->opponent_name, sizeof g->opponent_name, "%s", op->name);
	}
	g->ply = (int64_t)v->game.n_plies;
	g->your_move = fold_running(v) && (int)game_side_to_move(&v->game) == side;
	struct fold_clock_reading c;
	fold_clock_read(v, m->now_ms, &c);
	g->deadline_ms = c.deadline_ms;
	int idx;
	if (store_tournament_of_game(m->srv->store, id, g->tournament, &idx) != STORE_OK)
		g->tournament[0] = '\0';
	return m->n == MY_GAMES_MAX;
}

void api_me_games(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	struct my_games m = { .srv = srv, .me = me.id, .now_ms = now_wall_ms() };
	game_service_each(srv->games, me.id, my_game, &m);
	http_reply_json(reply, 200, protocol_my_games_encode(m.g, m.n, m.now_ms));
	free(m.g);
}

/* ---- GET /v1/me/games/finished ---- */

/* A page when the request names none. */
#define FINISHED_LIMIT_DEFAULT 20

struct finished_page {
	int64_t me;
	struct protocol_finished_games out;
	size_t max; /* the page's size; one more row is read to know whether another page follows */
};

static int finished_add(void *arg, const struct store_finished_game *g)
{
	struct finished_page *p = arg;
	if (p->out.n == p->max) {
		const struct protocol_finished_game *last = &p->out.games[p->out.n - 1];
		snprintf(p->out.next, sizeof p->out.next, "%lld-%s", (long long)last->ended_ms, last->id);
		return 1;
	}
	p->out.games = xrealloc(p->out.games, (p->out.n + 1) * sizeof *p->out.games);
	struct protocol_finished_game *f = &p->out.games[p->out.n++];
	memset(f, 0, sizeof *f);
	int side = g->white == p->me ? WHITE : BLACK;
	snprintf(f->id, sizeof f->id, "%s", g->id);
	snprintf(f->result, sizeof f->result, "%s", g->result);
	snprintf(f->termination, sizeof f->termination, "%s", g->termination);
	snprintf(f->color, sizeof f->color, "%s", fold_color_str(side));
	f->opponent.player = side == WHITE ? g->black : g->white;
	snprintf(f->opponent.name, sizeof f->opponent.name, "%s", side == WHITE ? g->black_name : g->white_name);
	f->engine_level = side == WHITE ? g->black_level : g->white_level;
	snprintf(f->tc, sizeof f->tc, "%s", g->tc);
	snprintf(f->ruleset, sizeof f->ruleset, "%s", g->ruleset);
	f->plies = g->plies;
	f->ended_ms = g->ended_ms;
	return 0;
}

/* A cursor, "MS-ID" as the last page's next gave it. */
static bool parse_cursor(const char *s, int64_t *ms, char id[PROTOCOL_GAME_ID_MAX + 1])
{
	const char *dash = strchr(s, '-');
	if (!dash)
		return false;
	char num[16];
	size_t nlen = (size_t)(dash - s);
	if (nlen >= sizeof num)
		return false;
	memcpy(num, s, nlen);
	num[nlen] = '\0';
	const char *hex = dash + 1;
	size_t hlen = strspn(hex, "0123456789abcdef");
	if (!api_query_number(num, ms) || !hlen || hex[hlen] || hlen > PROTOCOL_GAME_ID_MAX)
		return false;
	memcpy(id, hex, hlen + 1);
	return true;
}

void api_me_games_finished(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	int64_t limit = FINISHED_LIMIT_DEFAULT, before_ms = INT64_MAX;
	char before_id[PROTOCOL_GAME_ID_MAX + 1] = "";
	const char *l = http_request_query(req, "limit");
	const char *b = http_request_query(req, "before");
	if (l && (!api_query_number(l, &limit) || limit < 1 || limit > PROTOCOL_FINISHED_LIMIT_MAX)) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "limit: expected 1 to %d", PROTOCOL_FINISHED_LIMIT_MAX);
		return;
	}
	if (b && !parse_cursor(b, &before_ms, before_id)) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "before: expected the \"next\" of the previous page");
		return;
	}
	struct finished_page p = { .me = me.id, .max = (size_t)limit };
	if (store_games_finished_of(srv->store, me.id, before_ms, before_id, (int)limit + 1, finished_add, &p)) {
		protocol_finished_games_fini(&p.out);
		api_store_failed(srv, reply);
		return;
	}
	http_reply_json(reply, 200, protocol_finished_games_encode(&p.out));
	protocol_finished_games_fini(&p.out);
}

/* ---- vacations ---- */

/* "YYYY-MM-DD", exactly, naming a day that exists; 00:00 UTC of it. */
static bool parse_date(const char *s, int64_t *ms)
{
	struct calendar_date d;
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' || strspn(s, "0123456789") != 4 ||
	    strspn(s + 5, "0123456789") != 2 || strspn(s + 8, "0123456789") != 2)
		return false;
	d.year = atoi(s);
	d.month = atoi(s + 5);
	d.day = atoi(s + 8);
	if (!calendar_date_valid(&d))
		return false;
	*ms = calendar_ms_from_date(&d);
	return true;
}

static void vacation_out(const struct store_vacation *sv, int64_t now, struct protocol_vacation *out)
{
	memset(out, 0, sizeof *out);
	out->id = sv->id;
	calendar_format_date(sv->v.start_ms, out->start, sizeof out->start);
	out->days = (sv->v.end_ms - sv->v.start_ms) / CALENDAR_DAY_MS;
	out->start_ms = sv->v.start_ms;
	out->end_ms = sv->v.end_ms;
	out->active = vacation_active(&sv->v, 1, now);
	out->cancellable = vacation_can_cancel(&sv->v, now);
}

/* Each booking or cancellation makes the player's games in memory read
 * the bookings again: vacation_changes_per_day bounds how often. false
 * after replying 429. */
static bool churn_ok(struct server *srv, int64_t me, struct http_reply *reply)
{
	char key[24];
	snprintf(key, sizeof key, "%lld", (long long)me);
	int64_t wait = server_limit_take(srv, srv->rate_vacation, "vacation", key, srv->cfg.vacation_changes_per_day,
					 86400000, srv->cfg.vacation_changes_per_day);
	if (!wait)
		return true;
	http_reply_error(reply, PROTOCOL_ERR_RATE_LIMITED,
			 "too many vacation bookings and cancellations (vacation_changes_per_day = %lld); retry in %lld s",
			 (long long)srv->cfg.vacation_changes_per_day, (long long)((wait + 999) / 1000));
	reply->retry_after_s = (int)((wait + 999) / 1000);
	return false;
}

/* The player's bookings as the vacation rules take them: those that reach
 * into this calendar year or later, the only ones that count against an
 * allowance a new booking (from tomorrow on) can use or overlap. */
static int bookings(struct server *srv, int64_t me, struct store_vacation *sv, struct vacation *v, int *n)
{
	struct calendar_date today;
	calendar_date_of(now_wall_ms(), &today);
	if (store_vacations(srv->store, me, calendar_year_start(today.year), sv, VACATIONS_LISTED, n))
		return -1;
	for (int i = 0; i < *n; i++)
		v[i] = sv[i].v;
	return 0;
}

void api_me_vacations_list(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	struct store_vacation sv[VACATIONS_LISTED];
	struct vacation v[VACATIONS_LISTED];
	int n;
	if (bookings(srv, me.id, sv, v, &n)) {
		api_store_failed(srv, reply);
		return;
	}
	int64_t now = now_wall_ms();
	struct protocol_vacation out[VACATIONS_LISTED];
	for (int i = 0; i < n; i++)
		vacation_out(&sv[i], now, &out[i]);
	/* This year's allowance and next year's, which bookings may reach. */
	struct calendar_date today;
	calendar_date_of(now, &today);
	struct protocol_allowance a[2];
	for (int i = 0; i < 2; i++) {
		int year = today.year + i;
		a[i].year = year;
		a[i].days = vacation_allowance(me.created_ms, year);
		a[i].booked = vacation_days_in_year(v, (size_t)n, year);
		a[i].left = vacation_days_left(me.created_ms, v, (size_t)n, year);
	}
	http_reply_json(reply, 200, protocol_vacations_encode(out, (size_t)n, a, 2, vacation_active(v, (size_t)n, now)));
}

void api_me_vacations_book(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_vacation_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_vacation_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	int64_t start_ms;
	if (!parse_date(in.start, &start_ms)) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "start: expected a date YYYY-MM-DD");
		return;
	}
	if (in.days < 1 || in.days > VACATION_DAYS_MAX) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "days: expected 1 to %d", VACATION_DAYS_MAX);
		return;
	}
	if (game_service_batch_begin(srv->games)) {
		api_store_failed(srv, reply);
		return;
	}
	struct store_vacation sv[VACATIONS_LISTED];
	struct vacation v[VACATIONS_LISTED];
	int n;
	if (bookings(srv, me.id, sv, v, &n)) {
		game_service_batch_abort(srv->games);
		api_store_failed(srv, reply);
		return;
	}
	int64_t now = now_wall_ms();
	/* Each game holds the bookings that have not ended (tchess/fold.h
	 * keeps FOLD_VACATIONS_MAX per side), so that many is the limit. */
	int pending = 0;
	for (int i = 0; i < n; i++)
		pending += v[i].end_ms > now;
	if (pending >= FOLD_VACATIONS_MAX) {
		game_service_batch_abort(srv->games);
		http_reply_error(reply, PROTOCOL_ERR_ILLEGAL, "at most %d bookings may be pending", FOLD_VACATIONS_MAX);
		return;
	}
	struct store_vacation booked = { 0 };
	struct tchess_error terr;
	enum tchess_err rc = vacation_book(&booked.v, start_ms, (int)in.days, v, (size_t)n, me.created_ms, now, &terr);
	if (rc != TCHESS_OK) {
		game_service_batch_abort(srv->games);
		http_reply_error(reply, rc == TCHESS_ERR_NOT_ALLOWED ? PROTOCOL_ERR_ILLEGAL : PROTOCOL_ERR_BAD_REQUEST,
				 "%s", terr.message);
		return;
	}
	if (!churn_ok(srv, me.id, reply)) {
		game_service_batch_abort(srv->games);
		return;
	}
	if (store_vacation_add(srv->store, me.id, &booked.v, &booked.id) || game_service_batch_commit(srv->games)) {
		game_service_batch_abort(srv->games);
		api_store_failed(srv, reply);
		return;
	}
	game_service_vacations_changed(srv->games, me.id, &booked.v, false);
	log_info("player %lld: vacation %s for %lld days", (long long)me.id, in.start, (long long)in.days);
	struct protocol_vacation out;
	vacation_out(&booked, now, &out);
	http_reply_json(reply, 201, protocol_vacation_encode(&out));
}

void api_me_vacations_cancel(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth_empty(srv, req, reply, &me) < 0)
		return;
	const char *p = req->params[0];
	if (!*p || strlen(p) > 15 || strspn(p, "0123456789") != strlen(p)) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such vacation");
		return;
	}
	int64_t id = strtoll(p, NULL, 10);
	if (game_service_batch_begin(srv->games)) {
		api_store_failed(srv, reply);
		return;
	}
	struct store_vacation sv;
	switch (store_vacation_get(srv->store, me.id, id, &sv)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		game_service_batch_abort(srv->games);
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such vacation");
		return;
	default:
		game_service_batch_abort(srv->games);
		api_store_failed(srv, reply);
		return;
	}
	if (!vacation_can_cancel(&sv.v, now_wall_ms())) {
		game_service_batch_abort(srv->games);
		http_reply_error(reply, PROTOCOL_ERR_CONFLICT, "this vacation has started: it cannot be cancelled");
		return;
	}
	if (!churn_ok(srv, me.id, reply)) {
		game_service_batch_abort(srv->games);
		return;
	}
	if (store_vacation_delete(srv->store, me.id, id) || game_service_batch_commit(srv->games)) {
		game_service_batch_abort(srv->games);
		api_store_failed(srv, reply);
		return;
	}
	game_service_vacations_changed(srv->games, me.id, &sv.v, true);
	http_reply_json(reply, 200, xstrdup("{}"));
}

/* ---- credits in GET /v1/me ---- */

int api_me_credits(struct server *srv, int64_t me, int64_t *out)
{
	return store_credits_get(srv->store, me, out) == STORE_OK ? 0 : -1;
}

/* ---- the test clock ---- */

void api_test_clock(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	if (!srv->cfg.test_clock) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such path");
		return;
	}
	int64_t advance;
	struct protocol_error err;
	if (protocol_test_clock_request_decode(req->body, req->body_len, &advance, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	int64_t offset = now_wall_advance(advance);
	log_warn("test clock: moved forward %lld ms (offset now %lld ms)", (long long)advance, (long long)offset);
	game_service_clock_changed(srv->games);
	http_reply_json(reply, 200,
			xasprintf("{\"now_ms\":%lld,\"offset_ms\":%lld}", (long long)now_wall_ms(), (long long)offset));
}
