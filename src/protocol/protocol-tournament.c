/*
 * Tournaments, credits and vacations on the wire; see
 * tchess/protocol-tournament.h. Standings, crosstable and prizes are
 * computed here from the pure tournament core, never by hand, so every
 * side shows the figures tournament.h defines.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-codec.h"
#include "tchess/protocol-tournament.h"
#include "util/xalloc.h"

const char *protocol_tournament_kind_str(enum tournament_kind kind)
{
	return kind == TOURNAMENT_DOUBLE ? "double-round-robin" : "round-robin";
}

bool protocol_tournament_kind_parse(const char *s, enum tournament_kind *out)
{
	if (!strcmp(s, "round-robin"))
		*out = TOURNAMENT_SINGLE;
	else if (!strcmp(s, "double-round-robin"))
		*out = TOURNAMENT_DOUBLE;
	else
		return false;
	return true;
}

static cJSON *array(void)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	return a;
}

static void push(cJSON *a, cJSON *item)
{
	if (!item || !cJSON_AddItemToArray(a, item))
		xalloc_die();
}

static void add_null(cJSON *o, const char *name)
{
	cJSON *n = cJSON_CreateNull();
	if (!n)
		xalloc_die();
	protocol_json_add_item(o, name, n);
}

/* An instant, or null for 0 ("not yet"). */
static void add_ms(cJSON *o, const char *name, int64_t ms)
{
	if (ms)
		protocol_json_add_int(o, name, ms);
	else
		add_null(o, name);
}

static void add_number(cJSON *o, const char *name, double v)
{
	protocol_json_add_item(o, name, cJSON_CreateNumber(v));
}

/* ---- requests ---- */

/* Table rows as in protocol.c: see protocol-codec.h. */
#define REQ PROTOCOL_CODEC_REQUIRED
#define STRING PROTOCOL_CODEC_STRING
#define INT PROTOCOL_CODEC_INT

static void create_encode_rest(cJSON *o, const void *src)
{
	const struct protocol_tournament_create_request *req = src;
	if (!req->n_places)
		return;
	cJSON *a = array();
	for (int i = 0; i < req->n_places; i++)
		push(a, cJSON_CreateNumber((double)req->places[i]));
	protocol_json_add_item(o, "places", a);
}

static int create_decode_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct protocol_tournament_create_request *out = dst;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "places");
	for (const cJSON *p = a ? a->child : NULL; p; p = p->next) {
		if (out->n_places == TOURNAMENT_PRIZE_PLACES_MAX)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: at most %d places", what,
						  TOURNAMENT_PRIZE_PLACES_MAX);
		if (!cJSON_IsNumber(p) || p->valuedouble != (double)(int)p->valuedouble || p->valuedouble < 0 ||
		    p->valuedouble > 100)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
						  "%s: places must be whole percentages 0..100", what);
		out->places[out->n_places++] = (int64_t)p->valuedouble;
	}
	return 0;
}

/* An absent payout_percent is -1, the server's default. */
static const struct protocol_codec_member create_members[] = {
	STRING(struct protocol_tournament_create_request, kind, REQ),
	INT(struct protocol_tournament_create_request, players, REQ),
	STRING(struct protocol_tournament_create_request, tc, REQ),
	STRING(struct protocol_tournament_create_request, ruleset, PROTOCOL_CODEC_EMPTY_OK | PROTOCOL_CODEC_OMIT),
	INT(struct protocol_tournament_create_request, stake, PROTOCOL_CODEC_OMIT),
	{ .name = "payout_percent", .kind = PROTOCOL_JSON_INT, .flags = PROTOCOL_CODEC_OMIT,
	  .offset = offsetof(struct protocol_tournament_create_request, payout_percent), .absent = -1 },
	PROTOCOL_CODEC_HOOKED("places", PROTOCOL_JSON_ARRAY, 0),
};
static const struct protocol_codec_message create_msg =
	PROTOCOL_CODEC_MESSAGE("create tournament", create_members, create_decode_rest, create_encode_rest);

char *protocol_tournament_create_request_encode(const struct protocol_tournament_create_request *req)
{
	/* Every negative payout_percent means "the default" and is left out. */
	struct protocol_tournament_create_request r = *req;
	if (r.payout_percent < 0)
		r.payout_percent = -1;
	return protocol_codec_encode(&create_msg, &r);
}

int protocol_tournament_create_request_decode(const char *json, size_t len,
					      struct protocol_tournament_create_request *out,
					      struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	out->payout_percent = -1;
	return protocol_codec_decode(&create_msg, json, len, out, err);
}

static const struct protocol_codec_member vacation_request_members[] = {
	STRING(struct protocol_vacation_request, start, REQ),
	INT(struct protocol_vacation_request, days, REQ),
};
static const struct protocol_codec_message vacation_request_msg =
	PROTOCOL_CODEC_MESSAGE("vacation", vacation_request_members, NULL, NULL);

char *protocol_vacation_request_encode(const struct protocol_vacation_request *req)
{
	return protocol_codec_encode(&vacation_request_msg, req);
}

int protocol_vacation_request_decode(const char *json, size_t len, struct protocol_vacation_request *out,
				     struct protocol_error *err)
{
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&vacation_request_msg, json, len, out, err);
}

/* ---- answers ---- */

static const char *outcome_str(enum tournament_outcome o)
{
	switch (o) {
	case TOURNAMENT_WHITE_WINS:
		return "1-0";
	case TOURNAMENT_BLACK_WINS:
		return "0-1";
	case TOURNAMENT_DRAW:
		return "1/2-1/2";
	case TOURNAMENT_UNSCORED:
		return "unscored";
	default:
		return "pending";
	}
}

static int64_t player_id(const struct protocol_tournament *t, int index)
{
	return index >= 0 && index < t->n_entrants ? t->entrants[index].player : 0;
}

static void add_player(const struct protocol_tournament *t, cJSON *o, const char *name, int index)
{
	if (index >= 0 && index < t->n_entrants)
		protocol_json_add_int(o, name, t->entrants[index].player);
	else
		add_null(o, name);
}

static void summary(const struct protocol_tournament *t, cJSON *o)
{
	protocol_json_add_string(o, "id", t->id);
	protocol_json_add_string(o, "kind", protocol_tournament_kind_str(t->kind));
	protocol_json_add_int(o, "players", t->players);
	protocol_json_add_int(o, "registered", t->n_entrants);
	protocol_json_add_string(o, "tc", t->tc);
	protocol_json_add_string(o, "ruleset", t->ruleset);
	protocol_json_add_string(o, "status", t->status);
	protocol_json_add_int(o, "stake", t->prizes.stake);
	protocol_json_add_int(o, "pot", t->prizes.stake * t->n_entrants);
	protocol_json_add_int(o, "payout_percent", t->prizes.payout_percent);
	cJSON *places = array();
	for (int i = 0; i < t->prizes.n_places; i++)
		push(places, cJSON_CreateNumber(t->prizes.place_percent[i]));
	protocol_json_add_item(o, "places", places);
	protocol_json_add_int(o, "creator", t->creator);
	protocol_json_add_int(o, "created_ms", t->created_ms);
	add_ms(o, "started_ms", t->started_ms);
	add_ms(o, "finished_ms", t->finished_ms);
	/* Published once the tables are drawn, so anyone can check them with
	 * tournament_init(); a decimal string, as JSON numbers stop at 2^53. */
	if (t->t) {
		char seed[24];
		snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->seed);
		protocol_json_add_string(o, "seed", seed);
	} else {
		add_null(o, "seed");
	}
	if (t->viewer) {
		cJSON *you = protocol_json_object();
		bool in = false;
		for (int i = 0; i < t->n_entrants; i++)
			in = in || t->entrants[i].player == t->viewer;
		protocol_json_add_int(you, "player", t->viewer);
		protocol_json_add_int(you, "credits", t->viewer_credits);
		protocol_json_add_item(you, "registered", cJSON_CreateBool(in));
		protocol_json_add_item(o, "you", you);
	}
}

static const struct protocol_codec_member entrant_members[] = {
	INT(struct protocol_tournament_entrant, player, REQ),
	STRING(struct protocol_tournament_entrant, name, REQ),
};
static const struct protocol_codec_message entrant_msg =
	PROTOCOL_CODEC_MESSAGE("entrant", entrant_members, NULL, NULL);

static void entrants(const struct protocol_tournament *t, cJSON *o)
{
	protocol_json_add_item(o, "entrants",
			       protocol_codec_array(&entrant_msg, t->entrants, sizeof t->entrants[0],
						    (size_t)t->n_entrants));
}

static void standings(const struct protocol_tournament *t, const struct tournament_standing *st, cJSON *o)
{
	cJSON *a = array();
	int64_t prize[TOURNAMENT_PLAYERS_MAX];
	bool paid = t->t && tournament_payout(t->t, prize, NULL, NULL) == TCHESS_OK;
	for (int i = 0; t->t && i < t->t->n_players; i++) {
		const struct tournament_standing *s = &st[i];
		cJSON *e = protocol_json_object();
		char place[TOURNAMENT_PLACE_TEXT_MAX];
		tournament_place_format(s, place, sizeof place);
		protocol_json_add_string(e, "place", place);
		protocol_json_add_int(e, "place_first", s->place_first);
		protocol_json_add_int(e, "place_last", s->place_last);
		add_player(t, e, "player", s->player);
		protocol_json_add_string(e, "name", t->entrants[s->player].name);
		add_number(e, "points", s->points / 2.0);
		protocol_json_add_int(e, "half_points", s->points);
		add_number(e, "sb", s->sb / 4.0);
		protocol_json_add_int(e, "sb_quarters", s->sb);
		protocol_json_add_int(e, "played", s->played);
		protocol_json_add_int(e, "wins", s->wins);
		protocol_json_add_int(e, "draws", s->draws);
		protocol_json_add_int(e, "losses", s->losses);
		if (paid)
			protocol_json_add_int(e, "prize", prize[s->player]);
		else
			add_null(e, "prize");
		push(a, e);
	}
	protocol_json_add_item(o, "standings", a);
}

static void crosstable(const struct protocol_tournament *t, const struct tournament_standing *st, cJSON *o)
{
	cJSON *x = protocol_json_object();
	int cycles = t->kind == TOURNAMENT_DOUBLE ? 2 : 1;
	protocol_json_add_int(x, "cycles", cycles);
	cJSON *order = array();
	cJSON *rows = array();
	for (int r = 0; t->t && r < t->t->n_players; r++) {
		push(order, cJSON_CreateNumber((double)player_id(t, st[r].player)));
		cJSON *row = protocol_json_object();
		add_player(t, row, "player", st[r].player);
		cJSON *cells = array();
		for (int c = 0; c < t->t->n_players; c++) {
			cJSON *per = array();
			for (int cy = 0; cy < cycles; cy++) {
				struct tournament_cell cell;
				if (tournament_crosstable(t->t, st[r].player, st[c].player, cy, &cell, NULL) ||
				    cell.game < 0) {
					push(per, cJSON_CreateNull());
					continue;
				}
				cJSON *ce = protocol_json_object();
				protocol_json_add_string(ce, "game", t->game_ids ? t->game_ids[cell.game] : "");
				protocol_json_add_string(ce, "color", cell.color == WHITE ? "white" : "black");
				protocol_json_add_string(ce, "outcome", outcome_str(cell.outcome));
				if (cell.score >= 0)
					protocol_json_add_int(ce, "score", cell.score);
				else
					add_null(ce, "score");
				push(per, ce);
			}
			push(cells, per);
		}
		protocol_json_add_item(row, "cells", cells);
		push(rows, row);
	}
	protocol_json_add_item(x, "order", order);
	protocol_json_add_item(x, "rows", rows);
	protocol_json_add_item(o, "crosstable", x);
}

static void games(const struct protocol_tournament *t, int64_t games_of, cJSON *o)
{
	cJSON *a = array();
	cJSON *byes = array();
	for (int i = 0; t->t && i < t->t->n_games; i++) {
		const struct tournament_game *g = &t->t->games[i];
		if (games_of && player_id(t, g->white) != games_of && player_id(t, g->black) != games_of)
			continue;
		cJSON *e = protocol_json_object();
		protocol_json_add_int(e, "index", i);
		protocol_json_add_int(e, "round", g->round);
		protocol_json_add_int(e, "board", g->board);
		protocol_json_add_string(e, "id", t->game_ids ? t->game_ids[i] : "");
		add_player(t, e, "white", g->white);
		add_player(t, e, "black", g->black);
		protocol_json_add_string(e, "outcome", outcome_str(g->outcome));
		push(a, e);
	}
	for (int r = 1; t->t && r <= t->t->n_rounds; r++) {
		int p = t->t->bye[r];
		if (p == TOURNAMENT_NOBODY || (games_of && player_id(t, p) != games_of))
			continue;
		cJSON *e = protocol_json_object();
		protocol_json_add_int(e, "round", r);
		add_player(t, e, "player", p);
		push(byes, e);
	}
	protocol_json_add_item(o, "games", a);
	protocol_json_add_item(o, "byes", byes);
}

char *protocol_tournament_encode(const struct protocol_tournament *t, unsigned parts, int64_t games_of)
{
	cJSON *o = protocol_json_object();
	struct tournament_standing st[TOURNAMENT_PLAYERS_MAX];
	if (t->t)
		tournament_standings(t->t, st);
	summary(t, o);
	if (parts & PROTOCOL_TOURNAMENT_ENTRANTS)
		entrants(t, o);
	if (parts & PROTOCOL_TOURNAMENT_STANDINGS)
		standings(t, st, o);
	if (parts & PROTOCOL_TOURNAMENT_CROSSTABLE)
		crosstable(t, st, o);
	if (parts & PROTOCOL_TOURNAMENT_GAMES)
		games(t, games_of, o);
	return protocol_json_print(o);
}

char *protocol_tournament_list_encode(const struct protocol_tournament *ts, size_t n)
{
	cJSON *o = protocol_json_object();
	cJSON *a = array();
	for (size_t i = 0; i < n; i++) {
		cJSON *e = protocol_json_object();
		summary(&ts[i], e);
		push(a, e);
	}
	protocol_json_add_item(o, "tournaments", a);
	return protocol_json_print(o);
}

/* ---- vacations, the player's games, the test clock ---- */

static const struct protocol_codec_member vacation_members[] = {
	INT(struct protocol_vacation, id, REQ),
	STRING(struct protocol_vacation, start, REQ),
	INT(struct protocol_vacation, days, REQ),
	INT(struct protocol_vacation, start_ms, REQ),
	INT(struct protocol_vacation, end_ms, REQ),
	PROTOCOL_CODEC_BOOL(struct protocol_vacation, active, REQ),
	PROTOCOL_CODEC_BOOL(struct protocol_vacation, cancellable, REQ),
};
static const struct protocol_codec_message vacation_msg =
	PROTOCOL_CODEC_MESSAGE("vacation", vacation_members, NULL, NULL);

static const struct protocol_codec_member allowance_members[] = {
	INT(struct protocol_allowance, year, REQ),
	INT(struct protocol_allowance, days, REQ),
	INT(struct protocol_allowance, booked, REQ),
	INT(struct protocol_allowance, left, REQ),
};
static const struct protocol_codec_message allowance_msg =
	PROTOCOL_CODEC_MESSAGE("allowance", allowance_members, NULL, NULL);

char *protocol_vacation_encode(const struct protocol_vacation *v)
{
	return protocol_codec_encode(&vacation_msg, v);
}

char *protocol_vacations_encode(const struct protocol_vacation *v, size_t n, const struct protocol_allowance *a,
				size_t n_allowance, bool on_vacation)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_item(o, "vacations", protocol_codec_array(&vacation_msg, v, sizeof *v, n));
	protocol_json_add_item(o, "allowance", protocol_codec_array(&allowance_msg, a, sizeof *a, n_allowance));
	protocol_json_add_item(o, "on_vacation", cJSON_CreateBool(on_vacation));
	return protocol_json_print(o);
}

char *protocol_my_games_encode(const struct protocol_my_game *g, size_t n, int64_t now_ms)
{
	cJSON *o = protocol_json_object();
	cJSON *a = array();
	for (size_t i = 0; i < n; i++) {
		cJSON *e = protocol_json_object();
		protocol_json_add_string(e, "id", g[i].id);
		protocol_json_add_string(e, "status", g[i].status);
		protocol_json_add_string(e, "tc", g[i].tc);
		protocol_json_add_string(e, "color", g[i].color);
		if (g[i].opponent) {
			cJSON *op = protocol_json_object();
			protocol_json_add_int(op, "player", g[i].opponent);
			protocol_json_add_string(op, "name", g[i].opponent_name);
			protocol_json_add_item(e, "opponent", op);
		} else {
			add_null(e, "opponent");
		}
		protocol_json_add_int(e, "ply", g[i].ply);
		protocol_json_add_item(e, "your_move", cJSON_CreateBool(g[i].your_move));
		if (g[i].deadline_ms == INT64_MAX)
			add_null(e, "deadline_ms");
		else
			protocol_json_add_int(e, "deadline_ms", g[i].deadline_ms);
		if (g[i].tournament[0])
			protocol_json_add_string(e, "tournament", g[i].tournament);
		else
			add_null(e, "tournament");
		push(a, e);
	}
	protocol_json_add_item(o, "games", a);
	protocol_json_add_int(o, "now_ms", now_ms);
	return protocol_json_print(o);
}

int protocol_test_clock_request_decode(const char *json, size_t len, int64_t *advance_ms, struct protocol_error *err)
{
	static const struct protocol_codec_member members[] = {
		{ .name = "advance_ms", .kind = PROTOCOL_JSON_INT, .flags = REQ | PROTOCOL_CODEC_NON_NEGATIVE },
	};
	static const struct protocol_codec_message msg = PROTOCOL_CODEC_MESSAGE("test clock", members, NULL, NULL);
	return protocol_codec_decode(&msg, json, len, advance_ms, err);
}
