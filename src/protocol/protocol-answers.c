/*
 * The decoders of protocol-answers.h: the server's answers read member by
 * member with one rule for null and absent members (answer_json_*), and
 * the one message for an answer of the wrong shape.
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/protocol-answers.h"
#include "util/xalloc.h"

static void answer_json_err(char *err, size_t errsize, const char *what)
{
	if (err && errsize)
		snprintf(err, errsize, "unexpected answer from the server: %s", what);
}

static int answer_json_str(const cJSON *o, const char *name, char *buf, size_t size)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
	buf[0] = '\0';
	if (!m || cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsString(m))
		return -1;
	snprintf(buf, size, "%s", m->valuestring);
	return 0;
}

static int answer_json_int(const cJSON *o, const char *name, bool optional, int64_t dflt, int64_t *out)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
	if ((!m && optional) || cJSON_IsNull(m)) {
		*out = dflt;
		return 0;
	}
	if (!cJSON_IsNumber(m) || m->valuedouble != (double)(int64_t)m->valuedouble)
		return -1;
	*out = (int64_t)m->valuedouble;
	return 0;
}

static bool answer_json_bool(const cJSON *o, const char *name)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, name));
}

/* ---- tournaments ---- */

static int tourney_summary_from(const cJSON *o, struct protocol_tournament_summary *s)
{
	memset(s, 0, sizeof *s);
	if (!cJSON_IsObject(o) || answer_json_str(o, "id", s->id, sizeof s->id) || !s->id[0] ||
	    answer_json_str(o, "kind", s->kind, sizeof s->kind) ||
	    answer_json_int(o, "players", false, 0, &s->players) ||
	    answer_json_int(o, "registered", false, 0, &s->registered) ||
	    answer_json_str(o, "tc", s->tc, sizeof s->tc) ||
	    answer_json_str(o, "ruleset", s->ruleset, sizeof s->ruleset) ||
	    answer_json_str(o, "status", s->status, sizeof s->status) ||
	    answer_json_int(o, "stake", true, 0, &s->stake) || answer_json_int(o, "pot", true, 0, &s->pot) ||
	    answer_json_int(o, "payout_percent", true, 0, &s->payout_percent))
		return -1;
	const cJSON *p, *places = cJSON_GetObjectItemCaseSensitive(o, "places");
	cJSON_ArrayForEach(p, places)
	{
		if (s->n_places == PROTOCOL_TOURNAMENT_PLACES_MAX || !cJSON_IsNumber(p))
			return -1;
		s->places[s->n_places++] = (int64_t)p->valuedouble;
	}
	const cJSON *you = cJSON_GetObjectItemCaseSensitive(o, "you");
	if (cJSON_IsObject(you)) {
		s->has_you = true;
		s->you_registered = answer_json_bool(you, "registered");
		if (answer_json_int(you, "credits", true, -1, &s->you_credits))
			return -1;
	}
	return 0;
}

int protocol_tournament_list_decode(const char *json, size_t len, struct protocol_tournament_summary **out, size_t *n, char *err,
		       size_t errsize)
{
	*out = NULL;
	*n = 0;
	cJSON *root = cJSON_ParseWithLength(json, len);
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "tournaments");
	if (!cJSON_IsArray(ts)) {
		answer_json_err(err, errsize, "no tournaments list");
		cJSON_Delete(root);
		return -1;
	}
	size_t cap = (size_t)cJSON_GetArraySize(ts);
	*out = xcalloc(cap ? cap : 1, sizeof **out);
	const cJSON *o;
	cJSON_ArrayForEach(o, ts)
	{
		if (tourney_summary_from(o, &(*out)[*n])) {
			answer_json_err(err, errsize, "a tournament of the list");
			free(*out);
			*out = NULL;
			*n = 0;
			cJSON_Delete(root);
			return -1;
		}
		++*n;
	}
	cJSON_Delete(root);
	return 0;
}

static int tourney_standings_from(const cJSON *a, struct protocol_tournament_view *t)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, a)
	{
		if (t->n_standings == TOURNAMENT_PLAYERS_MAX)
			return -1;
		struct protocol_tournament_standing *s = &t->standings[t->n_standings];
		if (answer_json_str(o, "place", s->place, sizeof s->place) ||
		    answer_json_int(o, "player", false, 0, &s->player) ||
		    answer_json_str(o, "name", s->name, sizeof s->name) ||
		    answer_json_int(o, "half_points", false, 0, &s->half_points) ||
		    answer_json_int(o, "sb_quarters", false, 0, &s->sb_quarters) ||
		    answer_json_int(o, "played", true, 0, &s->played) ||
		    answer_json_int(o, "wins", true, 0, &s->wins) || answer_json_int(o, "draws", true, 0, &s->draws) ||
		    answer_json_int(o, "losses", true, 0, &s->losses) ||
		    answer_json_int(o, "prize", true, -1, &s->prize))
			return -1;
		t->n_standings++;
	}
	return 0;
}

static int tourney_crosstable_from(const cJSON *x, struct protocol_tournament_view *t)
{
	int64_t cycles;
	if (answer_json_int(x, "cycles", false, 0, &cycles) || cycles < 1 || cycles > 2)
		return -1;
	t->cycles = (int)cycles;
	const cJSON *o, *order = cJSON_GetObjectItemCaseSensitive(x, "order");
	cJSON_ArrayForEach(o, order)
	{
		if (t->n_order == TOURNAMENT_PLAYERS_MAX || !cJSON_IsNumber(o))
			return -1;
		t->order[t->n_order++] = (int64_t)o->valuedouble;
	}
	size_t r = 0;
	const cJSON *row;
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(x, "rows"))
	{
		if (r == t->n_order)
			return -1;
		size_t c = 0;
		const cJSON *col;
		cJSON_ArrayForEach(col, cJSON_GetObjectItemCaseSensitive(row, "cells"))
		{
			if (c == t->n_order || !cJSON_IsArray(col))
				return -1;
			int k = 0;
			const cJSON *cell;
			cJSON_ArrayForEach(cell, col)
			{
				if (k == 2)
					return -1;
				struct protocol_tournament_cell *tc = &t->cells[r][c][k++];
				memset(tc, 0, sizeof *tc);
				tc->score = -1;
				if (cJSON_IsNull(cell))
					continue;
				int64_t score;
				if (!cJSON_IsObject(cell) || answer_json_str(cell, "game", tc->id, sizeof tc->id) ||
				    answer_json_str(cell, "color", tc->color, sizeof tc->color) ||
				    answer_json_str(cell, "outcome", tc->outcome, sizeof tc->outcome) ||
				    answer_json_int(cell, "score", true, -1, &score))
					return -1;
				tc->game = true;
				tc->score = (int)score;
			}
			c++;
		}
		r++;
	}
	return 0;
}

static int tourney_games_from(const cJSON *a, struct protocol_tournament_view *t)
{
	size_t cap = (size_t)cJSON_GetArraySize(a);
	t->games = xcalloc(cap ? cap : 1, sizeof *t->games);
	const cJSON *o;
	cJSON_ArrayForEach(o, a)
	{
		struct protocol_tournament_game *g = &t->games[t->n_games];
		if (answer_json_int(o, "index", false, 0, &g->index) ||
		    answer_json_int(o, "round", false, 0, &g->round) ||
		    answer_json_int(o, "board", true, 0, &g->board) || answer_json_str(o, "id", g->id, sizeof g->id) ||
		    answer_json_int(o, "white", false, 0, &g->white) ||
		    answer_json_int(o, "black", false, 0, &g->black) ||
		    answer_json_str(o, "outcome", g->outcome, sizeof g->outcome))
			return -1;
		t->n_games++;
	}
	return 0;
}

int protocol_tournament_view_decode(const char *json, size_t len, struct protocol_tournament_view *t, char *err, size_t errsize)
{
	memset(t, 0, sizeof *t);
	cJSON *root = cJSON_ParseWithLength(json, len);
	const cJSON *o;
	int rc = -1;
	const char *what = "not a tournament";
	if (tourney_summary_from(root, &t->sum))
		goto out;
	what = "its entrants";
	cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(root, "entrants"))
	{
		if (t->n_entrants == TOURNAMENT_PLAYERS_MAX)
			goto out;
		struct protocol_tournament_entrant *e = &t->entrants[t->n_entrants];
		if (answer_json_int(o, "player", false, 0, &e->player) ||
		    answer_json_str(o, "name", e->name, sizeof e->name))
			goto out;
		t->n_entrants++;
	}
	what = "its standings";
	if (tourney_standings_from(cJSON_GetObjectItemCaseSensitive(root, "standings"), t))
		goto out;
	what = "its crosstable";
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "crosstable");
	if (x && !cJSON_IsNull(x) && tourney_crosstable_from(x, t))
		goto out;
	what = "its games";
	if (tourney_games_from(cJSON_GetObjectItemCaseSensitive(root, "games"), t))
		goto out;
	what = "its byes";
	cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(root, "byes"))
	{
		if (t->n_byes == sizeof t->byes / sizeof t->byes[0] ||
		    answer_json_int(o, "round", false, 0, &t->byes[t->n_byes].round) ||
		    answer_json_int(o, "player", false, 0, &t->byes[t->n_byes].player))
			goto out;
		t->n_byes++;
	}
	rc = 0;
out:
	if (rc) {
		answer_json_err(err, errsize, what);
		protocol_tournament_view_fini(t);
	}
	cJSON_Delete(root);
	return rc;
}

void protocol_tournament_view_fini(struct protocol_tournament_view *t)
{
	free(t->games);
	memset(t, 0, sizeof *t);
}

/* ---- my games ---- */

int protocol_my_games_decode(const char *json, size_t len, struct protocol_my_games *out, char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	cJSON *root = cJSON_ParseWithLength(json, len);
	const cJSON *games = cJSON_GetObjectItemCaseSensitive(root, "games");
	if (!root || !cJSON_IsArray(games) || answer_json_int(root, "now_ms", false, 0, &out->now_ms)) {
		answer_json_err(err, errsize, "no games list");
		cJSON_Delete(root);
		return -1;
	}
	size_t n = (size_t)cJSON_GetArraySize(games);
	out->games = xcalloc(n ? n : 1, sizeof *out->games);
	const cJSON *g;
	cJSON_ArrayForEach(g, games)
	{
		struct protocol_my_game *m = &out->games[out->n];
		const cJSON *opp = cJSON_GetObjectItemCaseSensitive(g, "opponent");
		if (answer_json_str(g, "id", m->id, sizeof m->id) || !m->id[0] ||
		    answer_json_str(g, "status", m->status, sizeof m->status) ||
		    answer_json_str(g, "tc", m->tc, sizeof m->tc) ||
		    answer_json_str(g, "color", m->color, sizeof m->color) ||
		    answer_json_int(g, "ply", false, 0, &m->ply) ||
		    answer_json_int(g, "deadline_ms", false, INT64_MAX, &m->deadline_ms) ||
		    answer_json_str(g, "tournament", m->tournament, sizeof m->tournament) ||
		    (cJSON_IsObject(opp) && (answer_json_str(opp, "name", m->opponent_name, sizeof m->opponent_name) ||
		      answer_json_int(opp, "player", true, 0, &m->opponent)))) {
			answer_json_err(err, errsize, "a game of /v1/me/games");
			cJSON_Delete(root);
			protocol_my_games_fini(out);
			return -1;
		}
		m->your_move = answer_json_bool(g, "your_move");
		out->n++;
	}
	cJSON_Delete(root);
	return 0;
}

void protocol_my_games_fini(struct protocol_my_games *g)
{
	free(g->games);
	memset(g, 0, sizeof *g);
}

/* ---- vacations ---- */

static int corr_vacation_from(const cJSON *o, struct protocol_vacation *v)
{
	memset(v, 0, sizeof *v);
	if (!cJSON_IsObject(o) || answer_json_int(o, "id", false, 0, &v->id) ||
	    answer_json_str(o, "start", v->start, sizeof v->start) || answer_json_int(o, "days", false, 0, &v->days) ||
	    answer_json_int(o, "start_ms", false, 0, &v->start_ms) ||
	    answer_json_int(o, "end_ms", false, 0, &v->end_ms))
		return -1;
	v->active = answer_json_bool(o, "active");
	v->cancellable = answer_json_bool(o, "cancellable");
	return 0;
}

int protocol_vacation_booking_decode(const char *json, size_t len, struct protocol_vacation *out, char *err, size_t errsize)
{
	cJSON *root = cJSON_ParseWithLength(json, len);
	int rc = corr_vacation_from(root, out);
	if (rc)
		answer_json_err(err, errsize, "not a vacation");
	cJSON_Delete(root);
	return rc;
}

int protocol_vacation_list_decode(const char *json, size_t len, struct protocol_vacation_list *out, char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	cJSON *root = cJSON_ParseWithLength(json, len);
	const cJSON *vs = cJSON_GetObjectItemCaseSensitive(root, "vacations");
	const cJSON *as = cJSON_GetObjectItemCaseSensitive(root, "allowance");
	int rc = -1;
	if (!root || !cJSON_IsArray(vs))
		goto out;
	const cJSON *o;
	cJSON_ArrayForEach(o, vs)
	{
		if (out->n == PROTOCOL_VACATIONS_MAX)
			break;
		if (corr_vacation_from(o, &out->v[out->n]))
			goto out;
		out->n++;
	}
	cJSON_ArrayForEach(o, as)
	{
		struct protocol_allowance *a = &out->allowance[out->n_allowance];
		if (out->n_allowance == PROTOCOL_ALLOWANCES_MAX)
			break;
		if (answer_json_int(o, "year", false, 0, &a->year) || answer_json_int(o, "days", false, 0, &a->days) ||
		    answer_json_int(o, "booked", false, 0, &a->booked) ||
		    answer_json_int(o, "left", false, 0, &a->left))
			goto out;
		out->n_allowance++;
	}
	out->on_vacation = answer_json_bool(root, "on_vacation");
	rc = 0;
out:
	if (rc) {
		answer_json_err(err, errsize, "not a list of vacations");
		memset(out, 0, sizeof *out);
	}
	cJSON_Delete(root);
	return rc;
}

int protocol_credits_decode(const char *json, size_t len, int64_t *credits, char *err, size_t errsize)
{
	cJSON *root = cJSON_ParseWithLength(json, len);
	int rc = answer_json_int(root, "credits", false, 0, credits);
	if (rc)
		answer_json_err(err, errsize, "no credits");
	cJSON_Delete(root);
	return rc;
}
