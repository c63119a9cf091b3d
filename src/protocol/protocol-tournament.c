/*
 * Tournaments and vacations on the wire; see tchess/protocol-tournament.h.
 * The requests' tables, and the server's tournament as the answer struct
 * protocol-answers.c writes: standings, crosstable and prizes computed
 * here from the pure tournament core, never by hand, so every side shows
 * the figures tournament.h defines.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-codec.h"
#include "tchess/protocol-answers.h"
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

/* ---- requests ---- */

/* Table rows as in protocol.c: see protocol-codec.h. */
#define REQ PROTOCOL_CODEC_REQUIRED
#define STRING PROTOCOL_CODEC_STRING
#define INT PROTOCOL_CODEC_INT

/* Whole percentages (the table reads the integers). */
static int create_decode_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	(void)o;
	const struct protocol_tournament_create_request *req = dst;
	for (size_t i = 0; i < req->n_places; i++) {
		if (req->places[i] < 0 || req->places[i] > 100)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
						  "%s: places must be whole percentages 0..100", what);
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
	PROTOCOL_CODEC_LIST_AS("places", struct protocol_tournament_create_request, places, n_places, PROTOCOL_CODEC_OMIT,
			       NULL),
};
static const struct protocol_codec_message create_msg =
	PROTOCOL_CODEC_MESSAGE("create tournament", create_members, create_decode_rest, NULL);

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

/* ---- answers: the server's tournament as protocol-answers.h's ---- */

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

static void summary_of(const struct protocol_tournament *t, struct protocol_tournament_summary *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->id, sizeof s->id, "%s", t->id);
	snprintf(s->kind, sizeof s->kind, "%s", protocol_tournament_kind_str(t->kind));
	s->players = t->players;
	s->registered = t->n_entrants;
	snprintf(s->tc, sizeof s->tc, "%s", t->tc);
	snprintf(s->ruleset, sizeof s->ruleset, "%s", t->ruleset);
	snprintf(s->status, sizeof s->status, "%s", t->status);
	s->stake = t->prizes.stake;
	s->pot = t->prizes.stake * t->n_entrants;
	s->payout_percent = t->prizes.payout_percent;
	for (int i = 0; i < t->prizes.n_places; i++)
		s->places[s->n_places++] = t->prizes.place_percent[i];
	s->creator = t->creator;
	s->created_ms = t->created_ms;
	s->started_ms = t->started_ms;
	s->finished_ms = t->finished_ms;
	/* Published once the tables are drawn, so anyone can check them with
	 * tournament_init(); a decimal string, as JSON numbers stop at 2^53. */
	if (t->t)
		snprintf(s->seed, sizeof s->seed, "%llu", (unsigned long long)t->seed);
	if (t->viewer) {
		s->has_you = true;
		s->you.player = t->viewer;
		s->you.credits = t->viewer_credits;
		for (int i = 0; i < t->n_entrants; i++)
			s->you.registered = s->you.registered || t->entrants[i].player == t->viewer;
	}
}

static void standings_of(const struct protocol_tournament *t, const struct tournament_standing *st,
			 struct protocol_tournament_view *v)
{
	int64_t prize[TOURNAMENT_PLAYERS_MAX];
	bool paid = t->t && tournament_payout(t->t, prize, NULL, NULL) == TCHESS_OK;
	for (int i = 0; t->t && i < t->t->n_players; i++) {
		const struct tournament_standing *s = &st[i];
		struct protocol_tournament_standing *o = &v->standings[v->n_standings++];
		tournament_place_format(s, o->place, sizeof o->place);
		o->place_first = s->place_first;
		o->place_last = s->place_last;
		o->player = player_id(t, s->player);
		snprintf(o->name, sizeof o->name, "%s", t->entrants[s->player].name);
		o->half_points = s->points;
		o->sb_quarters = s->sb;
		o->played = s->played;
		o->wins = s->wins;
		o->draws = s->draws;
		o->losses = s->losses;
		o->prize = paid ? prize[s->player] : -1;
	}
}

static void crosstable_of(const struct protocol_tournament *t, const struct tournament_standing *st,
			  struct protocol_tournament_view *v)
{
	v->cycles = t->kind == TOURNAMENT_DOUBLE ? 2 : 1;
	for (int r = 0; t->t && r < t->t->n_players; r++) {
		v->order[v->n_order++] = player_id(t, st[r].player);
		for (int c = 0; c < t->t->n_players; c++) {
			for (int cy = 0; cy < v->cycles; cy++) {
				struct protocol_tournament_cell *o = &v->cells[r][c][cy];
				struct tournament_cell cell;
				o->score = -1;
				if (tournament_crosstable(t->t, st[r].player, st[c].player, cy, &cell, NULL) ||
				    cell.game < 0)
					continue;
				o->game = true;
				snprintf(o->id, sizeof o->id, "%s", t->game_ids ? t->game_ids[cell.game] : "");
				snprintf(o->color, sizeof o->color, "%s", cell.color == WHITE ? "white" : "black");
				snprintf(o->outcome, sizeof o->outcome, "%s", outcome_str(cell.outcome));
				o->score = cell.score >= 0 ? cell.score : -1;
			}
		}
	}
}

static void games_of_player(const struct protocol_tournament *t, int64_t games_of,
			    struct protocol_tournament_view *v)
{
	v->games = xcalloc(t->t && t->t->n_games ? (size_t)t->t->n_games : 1, sizeof *v->games);
	for (int i = 0; t->t && i < t->t->n_games; i++) {
		const struct tournament_game *g = &t->t->games[i];
		if (games_of && player_id(t, g->white) != games_of && player_id(t, g->black) != games_of)
			continue;
		struct protocol_tournament_game *o = &v->games[v->n_games++];
		o->index = i;
		o->round = g->round;
		o->board = g->board;
		snprintf(o->id, sizeof o->id, "%s", t->game_ids ? t->game_ids[i] : "");
		o->white = player_id(t, g->white);
		o->black = player_id(t, g->black);
		snprintf(o->outcome, sizeof o->outcome, "%s", outcome_str(g->outcome));
	}
	for (int r = 1; t->t && r <= t->t->n_rounds; r++) {
		int p = t->t->bye[r];
		if (p == TOURNAMENT_NOBODY || (games_of && player_id(t, p) != games_of))
			continue;
		v->byes[v->n_byes++] = (struct protocol_tournament_bye){ r, player_id(t, p) };
	}
}

void protocol_tournament_view_of(const struct protocol_tournament *t, unsigned parts, int64_t games_of,
				 struct protocol_tournament_view *v)
{
	struct tournament_standing st[TOURNAMENT_PLAYERS_MAX];
	memset(v, 0, sizeof *v);
	if (t->t)
		tournament_standings(t->t, st);
	summary_of(t, &v->sum);
	v->parts = parts & PROTOCOL_TOURNAMENT_ALL;
	v->n_entrants = (size_t)t->n_entrants;
	memcpy(v->entrants, t->entrants, v->n_entrants * sizeof *v->entrants);
	if (parts & PROTOCOL_TOURNAMENT_STANDINGS)
		standings_of(t, st, v);
	if (parts & PROTOCOL_TOURNAMENT_CROSSTABLE)
		crosstable_of(t, st, v);
	if (parts & PROTOCOL_TOURNAMENT_GAMES)
		games_of_player(t, games_of, v);
}

char *protocol_tournament_encode(const struct protocol_tournament *t, unsigned parts, int64_t games_of)
{
	struct protocol_tournament_view *v = xmalloc(sizeof *v);
	protocol_tournament_view_of(t, parts, games_of, v);
	char *s = protocol_tournament_view_encode(v);
	protocol_tournament_view_fini(v);
	free(v);
	return s;
}

char *protocol_tournament_list_encode(const struct protocol_tournament *ts, size_t n)
{
	struct protocol_tournament_summary *s = xcalloc(n ? n : 1, sizeof *s);
	for (size_t i = 0; i < n; i++)
		summary_of(&ts[i], &s[i]);
	char *text = protocol_tournament_summaries_encode(s, n);
	free(s);
	return text;
}

int protocol_test_clock_request_decode(const char *json, size_t len, int64_t *advance_ms, struct protocol_error *err)
{
	static const struct protocol_codec_member members[] = {
		{ .name = "advance_ms", .kind = PROTOCOL_JSON_INT, .flags = REQ | PROTOCOL_CODEC_NON_NEGATIVE },
	};
	static const struct protocol_codec_message msg = PROTOCOL_CODEC_MESSAGE("test clock", members, NULL, NULL);
	return protocol_codec_decode(&msg, json, len, advance_ms, err);
}
