/*
 * The server's answers of protocol-answers.h, one codec table per wire
 * shape: the server's encoders (protocol-tournament.c fills the structs
 * from its own) and the client's decoders walk the same rows, so the two
 * sides cannot drift apart. Every table is an open answer (members it
 * does not name are skipped); what it names is read strictly. The
 * crosstable's arrays of arrays are walked in its hooks, each cell object
 * read and written by the cell table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-codec.h"
#include "tchess/protocol-answers.h"
#include "util/xalloc.h"

#define REQ PROTOCOL_CODEC_REQUIRED
#define EMPTY PROTOCOL_CODEC_EMPTY_OK
#define STRING PROTOCOL_CODEC_STRING
#define INT PROTOCOL_CODEC_INT

/* An int-or-null whose null is absent_. */
#define INT_OR_NULL_AS(name_, T, m, flags_, absent_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_INT_OR_NULL, .flags = (flags_), .offset = offsetof(T, m), \
	  .absent = (absent_) }

/* "unexpected answer from the server: WHAT: WHY". */
static int answer_failed(const struct protocol_error *e, char *err, size_t errsize)
{
	if (err && errsize)
		snprintf(err, errsize, "unexpected answer from the server: %s", e->message);
	return -1;
}

/* ---- tournaments ---- */

static const struct protocol_codec_member you_members[] = {
	INT(struct protocol_tournament_you, player, 0),
	{ .name = "credits", .kind = PROTOCOL_JSON_INT, .offset = offsetof(struct protocol_tournament_you, credits),
	  .absent = -1 },
	PROTOCOL_CODEC_BOOL(struct protocol_tournament_you, registered, 0),
};
static const struct protocol_codec_message you_msg = PROTOCOL_CODEC_ANSWER("you", you_members, NULL, NULL);

static cJSON *you_write(const void *p)
{
	const struct protocol_tournament_summary *s = p;
	return s->has_you ? protocol_codec_object(&you_msg, &s->you) : NULL;
}

static int you_read(const cJSON *v, void *p, struct protocol_error *err)
{
	struct protocol_tournament_summary *s = p;
	s->has_you = true;
	return protocol_codec_read(&you_msg, v, &s->you, err);
}

static const struct protocol_codec_nested you_hooks = { you_write, you_read };

#define SUMMARY struct protocol_tournament_summary
static const struct protocol_codec_member summary_members[] = {
	STRING(SUMMARY, id, REQ),
	STRING(SUMMARY, kind, EMPTY),
	INT(SUMMARY, players, REQ),
	INT(SUMMARY, registered, REQ),
	STRING(SUMMARY, tc, EMPTY),
	STRING(SUMMARY, ruleset, EMPTY),
	STRING(SUMMARY, status, EMPTY),
	INT(SUMMARY, stake, 0),
	INT(SUMMARY, pot, 0),
	INT(SUMMARY, payout_percent, 0),
	PROTOCOL_CODEC_LIST_AS("places", SUMMARY, places, n_places, 0, NULL),
	INT(SUMMARY, creator, 0),
	INT(SUMMARY, created_ms, 0),
	INT_OR_NULL_AS("started_ms", SUMMARY, started_ms, 0, 0),
	INT_OR_NULL_AS("finished_ms", SUMMARY, finished_ms, 0, 0),
	STRING(SUMMARY, seed, PROTOCOL_CODEC_NULL_EMPTY),
	PROTOCOL_CODEC_NESTED_AT("you", PROTOCOL_JSON_OBJECT, 0, 0, &you_hooks),
};
#undef SUMMARY
static const struct protocol_codec_message summary_msg =
	PROTOCOL_CODEC_ANSWER("tournament", summary_members, NULL, NULL);

static const struct protocol_codec_member entrant_members[] = {
	INT(struct protocol_tournament_entrant, player, REQ),
	STRING(struct protocol_tournament_entrant, name, REQ),
};
static const struct protocol_codec_message entrant_msg =
	PROTOCOL_CODEC_ANSWER("entrant", entrant_members, NULL, NULL);

/* "points" and "sb" are for people reading the JSON; the exact
 * half_points and sb_quarters are what is read. */
static cJSON *halves_write(const void *p)
{
	return cJSON_CreateNumber((double)*(const int64_t *)p / 2.0);
}

static cJSON *quarters_write(const void *p)
{
	return cJSON_CreateNumber((double)*(const int64_t *)p / 4.0);
}

static const struct protocol_codec_nested halves_hooks = { halves_write, NULL };
static const struct protocol_codec_nested quarters_hooks = { quarters_write, NULL };

#define STANDING struct protocol_tournament_standing
static const struct protocol_codec_member standing_members[] = {
	STRING(STANDING, place, EMPTY),
	INT(STANDING, place_first, 0),
	INT(STANDING, place_last, 0),
	INT(STANDING, player, REQ),
	STRING(STANDING, name, EMPTY),
	PROTOCOL_CODEC_NESTED_AT("points", PROTOCOL_JSON_NUMBER, 0, offsetof(STANDING, half_points), &halves_hooks),
	INT(STANDING, half_points, REQ),
	PROTOCOL_CODEC_NESTED_AT("sb", PROTOCOL_JSON_NUMBER, 0, offsetof(STANDING, sb_quarters), &quarters_hooks),
	INT(STANDING, sb_quarters, REQ),
	INT(STANDING, played, 0),
	INT(STANDING, wins, 0),
	INT(STANDING, draws, 0),
	INT(STANDING, losses, 0),
	INT_OR_NULL_AS("prize", STANDING, prize, 0, -1),
};
#undef STANDING
static const struct protocol_codec_message standing_msg =
	PROTOCOL_CODEC_ANSWER("standing", standing_members, NULL, NULL);

static const struct protocol_codec_member cell_members[] = {
	PROTOCOL_CODEC_STRING_AS("game", struct protocol_tournament_cell, id, EMPTY),
	STRING(struct protocol_tournament_cell, color, EMPTY),
	STRING(struct protocol_tournament_cell, outcome, EMPTY),
	INT_OR_NULL_AS("score", struct protocol_tournament_cell, score, 0, -1),
};
static const struct protocol_codec_message cell_msg = PROTOCOL_CODEC_ANSWER("crosstable cell", cell_members, NULL, NULL);

/* A row's own members; its cells are the crosstable's hooks'. */
struct row {
	int64_t player;
};
static const struct protocol_codec_member row_members[] = {
	INT(struct row, player, REQ),
	PROTOCOL_CODEC_HOOKED("cells", PROTOCOL_JSON_ARRAY, REQ),
};
static const struct protocol_codec_message row_msg = PROTOCOL_CODEC_ANSWER("crosstable row", row_members, NULL, NULL);

/* One column of row r: an array of at most cycles cells, each null or a
 * cell. */
static int cells_read(const cJSON *col, struct protocol_tournament_view *t, size_t r, size_t c,
		      struct protocol_error *err)
{
	if (!cJSON_IsArray(col))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "crosstable: a column must be an array");
	int64_t k = 0;
	for (const cJSON *v = col->child; v; v = v->next, k++) {
		if (k == t->cycles)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
						  "crosstable: more cells in a column than cycles");
		struct protocol_tournament_cell *cell = &t->cells[r][c][k];
		memset(cell, 0, sizeof *cell);
		cell->score = -1;
		if (cJSON_IsNull(v))
			continue;
		if (protocol_codec_read(&cell_msg, v, cell, err))
			return -1;
		cell->game = true;
	}
	return 0;
}

static int rows_read(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct protocol_tournament_view *t = dst;
	if (t->cycles != 1 && t->cycles != 2)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: cycles must be 1 or 2", what);
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(o, "rows");
	size_t r = 0;
	for (const cJSON *row = rows ? rows->child : NULL; row; row = row->next, r++) {
		struct row head;
		if (r == t->n_order)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: more rows than players", what);
		if (protocol_codec_read(&row_msg, row, &head, err))
			return -1;
		size_t c = 0;
		for (const cJSON *col = cJSON_GetObjectItemCaseSensitive(row, "cells")->child; col; col = col->next) {
			if (c == t->n_order)
				return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: more columns than players",
							  what);
			if (cells_read(col, t, r, c++, err))
				return -1;
		}
	}
	return 0;
}

static void add_to(cJSON *a, cJSON *item)
{
	if (!item || !cJSON_AddItemToArray(a, item))
		xalloc_die();
}

static cJSON *array(void)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	return a;
}

static void rows_write(cJSON *o, const void *src)
{
	const struct protocol_tournament_view *t = src;
	cJSON *rows = array();
	for (size_t r = 0; r < t->n_order; r++) {
		struct row head = { t->order[r] };
		cJSON *row = protocol_codec_object(&row_msg, &head);
		cJSON *cells = array();
		for (size_t c = 0; c < t->n_order; c++) {
			cJSON *col = array();
			for (int64_t k = 0; k < t->cycles; k++) {
				const struct protocol_tournament_cell *cell = &t->cells[r][c][k];
				add_to(col, cell->game ? protocol_codec_object(&cell_msg, cell) : cJSON_CreateNull());
			}
			add_to(cells, col);
		}
		protocol_json_add_item(row, "cells", cells);
		add_to(rows, row);
	}
	protocol_json_add_item(o, "rows", rows);
}

#define VIEW struct protocol_tournament_view
static const struct protocol_codec_member crosstable_members[] = {
	INT(VIEW, cycles, REQ),
	PROTOCOL_CODEC_LIST_AS("order", VIEW, order, n_order, 0, NULL),
	PROTOCOL_CODEC_HOOKED("rows", PROTOCOL_JSON_ARRAY, 0),
};
static const struct protocol_codec_message crosstable_msg =
	PROTOCOL_CODEC_ANSWER("crosstable", crosstable_members, rows_read, rows_write);

static cJSON *crosstable_write(const void *p)
{
	return protocol_codec_object(&crosstable_msg, p);
}

static int crosstable_read(const cJSON *v, void *p, struct protocol_error *err)
{
	return protocol_codec_read(&crosstable_msg, v, p, err);
}

static const struct protocol_codec_nested crosstable_hooks = { crosstable_write, crosstable_read };

static const struct protocol_codec_member game_members[] = {
	INT(struct protocol_tournament_game, index, REQ),
	INT(struct protocol_tournament_game, round, REQ),
	INT(struct protocol_tournament_game, board, 0),
	STRING(struct protocol_tournament_game, id, EMPTY),
	INT(struct protocol_tournament_game, white, REQ),
	INT(struct protocol_tournament_game, black, REQ),
	STRING(struct protocol_tournament_game, outcome, EMPTY),
};
static const struct protocol_codec_message game_msg = PROTOCOL_CODEC_ANSWER("tournament game", game_members, NULL, NULL);

static const struct protocol_codec_member bye_members[] = {
	INT(struct protocol_tournament_bye, round, REQ),
	INT(struct protocol_tournament_bye, player, REQ),
};
static const struct protocol_codec_message bye_msg = PROTOCOL_CODEC_ANSWER("bye", bye_members, NULL, NULL);

static const struct protocol_codec_member view_members[] = {
	PROTOCOL_CODEC_INLINE_AT(VIEW, sum, &summary_msg),
	PROTOCOL_CODEC_LIST_PART_AS("entrants", VIEW, entrants, n_entrants, 0, &entrant_msg,
				    PROTOCOL_TOURNAMENT_ENTRANTS),
	PROTOCOL_CODEC_LIST_PART_AS("standings", VIEW, standings, n_standings, 0, &standing_msg,
				    PROTOCOL_TOURNAMENT_STANDINGS),
	PROTOCOL_CODEC_NESTED_PART_AT("crosstable", PROTOCOL_JSON_OBJECT, 0, 0, &crosstable_hooks,
				      PROTOCOL_TOURNAMENT_CROSSTABLE),
	PROTOCOL_CODEC_ALLOC_LIST_PART_AS("games", VIEW, games, n_games, 0, &game_msg, PROTOCOL_TOURNAMENT_GAMES),
	PROTOCOL_CODEC_LIST_PART_AS("byes", VIEW, byes, n_byes, 0, &bye_msg, PROTOCOL_TOURNAMENT_GAMES),
};
static const struct protocol_codec_message view_msg =
	PROTOCOL_CODEC_ANSWER_PARTS("tournament", view_members, NULL, NULL, VIEW, parts);
#undef VIEW

struct summaries {
	struct protocol_tournament_summary *items;
	size_t n;
};
static const struct protocol_codec_member summaries_members[] = {
	PROTOCOL_CODEC_ALLOC_LIST_AS("tournaments", struct summaries, items, n, REQ, &summary_msg),
};
static const struct protocol_codec_message summaries_msg =
	PROTOCOL_CODEC_ANSWER("tournaments", summaries_members, NULL, NULL);

int protocol_tournament_list_decode(const char *json, size_t len, struct protocol_tournament_summary **out,
				    size_t *n, char *err, size_t errsize)
{
	struct summaries l = { 0 };
	struct protocol_error e;
	*out = NULL;
	*n = 0;
	if (protocol_codec_decode(&summaries_msg, json, len, &l, &e)) {
		free(l.items);
		return answer_failed(&e, err, errsize);
	}
	*out = l.items;
	*n = l.n;
	return 0;
}

char *protocol_tournament_summaries_encode(const struct protocol_tournament_summary *s, size_t n)
{
	struct summaries l = { (struct protocol_tournament_summary *)s, n };
	return protocol_codec_encode(&summaries_msg, &l);
}

int protocol_tournament_view_decode(const char *json, size_t len, struct protocol_tournament_view *t, char *err,
				    size_t errsize)
{
	struct protocol_error e;
	memset(t, 0, sizeof *t);
	if (protocol_codec_decode(&view_msg, json, len, t, &e)) {
		protocol_tournament_view_fini(t);
		return answer_failed(&e, err, errsize);
	}
	return 0;
}

char *protocol_tournament_view_encode(const struct protocol_tournament_view *t)
{
	return protocol_codec_encode(&view_msg, t);
}

void protocol_tournament_view_fini(struct protocol_tournament_view *t)
{
	free(t->games);
	memset(t, 0, sizeof *t);
}

/* ---- my games ---- */

/* The opponent object, flat in struct protocol_my_game. */
static const struct protocol_codec_member opponent_members[] = {
	INT(struct protocol_opponent, player, 0),
	STRING(struct protocol_opponent, name, EMPTY),
};
static const struct protocol_codec_message opponent_msg =
	PROTOCOL_CODEC_ANSWER("opponent", opponent_members, NULL, NULL);

/* null for an engine or a free seat. */
static cJSON *opponent_write(const void *p)
{
	const struct protocol_my_game *g = p;
	struct protocol_opponent o = { g->opponent, "" };
	if (!g->opponent)
		return cJSON_CreateNull();
	snprintf(o.name, sizeof o.name, "%s", g->opponent_name);
	return protocol_codec_object(&opponent_msg, &o);
}

static int opponent_read(const cJSON *v, void *p, struct protocol_error *err)
{
	struct protocol_my_game *g = p;
	struct protocol_opponent o = { 0, "" };
	if (!cJSON_IsNull(v) && protocol_codec_read(&opponent_msg, v, &o, err))
		return -1;
	g->opponent = o.player;
	snprintf(g->opponent_name, sizeof g->opponent_name, "%s", o.name);
	return 0;
}

static const struct protocol_codec_nested opponent_hooks = { opponent_write, opponent_read };

#define GAME struct protocol_my_game
static const struct protocol_codec_member my_game_members[] = {
	STRING(GAME, id, REQ),
	STRING(GAME, status, EMPTY),
	STRING(GAME, tc, EMPTY),
	STRING(GAME, color, EMPTY),
	PROTOCOL_CODEC_NESTED_AT("opponent", PROTOCOL_JSON_OBJECT_OR_NULL, 0, 0, &opponent_hooks),
	INT(GAME, ply, REQ),
	PROTOCOL_CODEC_BOOL(GAME, your_move, 0),
	INT_OR_NULL_AS("deadline_ms", GAME, deadline_ms, REQ, INT64_MAX),
	STRING(GAME, tournament, PROTOCOL_CODEC_NULL_EMPTY),
};
#undef GAME
static const struct protocol_codec_message my_game_msg = PROTOCOL_CODEC_ANSWER("game", my_game_members, NULL, NULL);

static const struct protocol_codec_member my_games_members[] = {
	PROTOCOL_CODEC_ALLOC_LIST_AS("games", struct protocol_my_games, games, n, REQ, &my_game_msg),
	INT(struct protocol_my_games, now_ms, REQ),
};
static const struct protocol_codec_message my_games_msg =
	PROTOCOL_CODEC_ANSWER("my games", my_games_members, NULL, NULL);

char *protocol_my_games_encode(const struct protocol_my_game *g, size_t n, int64_t now_ms)
{
	struct protocol_my_games m = { (struct protocol_my_game *)g, n, now_ms };
	return protocol_codec_encode(&my_games_msg, &m);
}

int protocol_my_games_decode(const char *json, size_t len, struct protocol_my_games *out, char *err, size_t errsize)
{
	struct protocol_error e;
	memset(out, 0, sizeof *out);
	if (protocol_codec_decode(&my_games_msg, json, len, out, &e)) {
		protocol_my_games_fini(out);
		return answer_failed(&e, err, errsize);
	}
	return 0;
}

void protocol_my_games_fini(struct protocol_my_games *g)
{
	free(g->games);
	memset(g, 0, sizeof *g);
}

/* ---- my finished games ---- */

/* The opponent of a finished game: null for an engine. */
static cJSON *finished_opponent_write(const void *p)
{
	const struct protocol_opponent *o = p;
	return o->player ? protocol_codec_object(&opponent_msg, o) : cJSON_CreateNull();
}

static int finished_opponent_read(const cJSON *v, void *p, struct protocol_error *err)
{
	struct protocol_opponent *o = p;
	memset(o, 0, sizeof *o);
	return cJSON_IsNull(v) ? 0 : protocol_codec_read(&opponent_msg, v, o, err);
}

static const struct protocol_codec_nested finished_opponent_hooks = { finished_opponent_write,
								      finished_opponent_read };

#define GAME struct protocol_finished_game
static const struct protocol_codec_member finished_game_members[] = {
	STRING(GAME, id, REQ),
	STRING(GAME, result, REQ),
	STRING(GAME, termination, REQ | EMPTY),
	STRING(GAME, color, REQ),
	PROTOCOL_CODEC_NESTED_AT("opponent", PROTOCOL_JSON_OBJECT_OR_NULL, REQ, offsetof(GAME, opponent),
				 &finished_opponent_hooks),
	INT_OR_NULL_AS("engine_level", GAME, engine_level, REQ, 0),
	STRING(GAME, tc, REQ | EMPTY),
	STRING(GAME, ruleset, REQ | EMPTY),
	INT(GAME, plies, REQ | PROTOCOL_CODEC_NON_NEGATIVE),
	INT(GAME, ended_ms, REQ),
};
#undef GAME
static const struct protocol_codec_message finished_game_msg =
	PROTOCOL_CODEC_ANSWER("finished game", finished_game_members, NULL, NULL);

static const struct protocol_codec_member finished_games_members[] = {
	PROTOCOL_CODEC_ALLOC_LIST_AS("games", struct protocol_finished_games, games, n, REQ, &finished_game_msg),
	STRING(struct protocol_finished_games, next, REQ | PROTOCOL_CODEC_NULL_EMPTY),
};
static const struct protocol_codec_message finished_games_msg =
	PROTOCOL_CODEC_ANSWER("finished games", finished_games_members, NULL, NULL);

char *protocol_finished_games_encode(const struct protocol_finished_games *g)
{
	return protocol_codec_encode(&finished_games_msg, g);
}

int protocol_finished_games_decode(const char *json, size_t len, struct protocol_finished_games *out, char *err,
				   size_t errsize)
{
	struct protocol_error e;
	memset(out, 0, sizeof *out);
	if (protocol_codec_decode(&finished_games_msg, json, len, out, &e)) {
		protocol_finished_games_fini(out);
		return answer_failed(&e, err, errsize);
	}
	return 0;
}

void protocol_finished_games_fini(struct protocol_finished_games *g)
{
	free(g->games);
	memset(g, 0, sizeof *g);
}

/* ---- vacations, credits ---- */

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
	PROTOCOL_CODEC_ANSWER("vacation", vacation_members, NULL, NULL);

static const struct protocol_codec_member allowance_members[] = {
	INT(struct protocol_allowance, year, REQ),
	INT(struct protocol_allowance, days, REQ),
	INT(struct protocol_allowance, booked, REQ),
	INT(struct protocol_allowance, left, REQ),
};
static const struct protocol_codec_message allowance_msg =
	PROTOCOL_CODEC_ANSWER("allowance", allowance_members, NULL, NULL);

static const struct protocol_codec_member vacations_members[] = {
	PROTOCOL_CODEC_LIST_AS("vacations", struct protocol_vacation_list, v, n, REQ, &vacation_msg),
	PROTOCOL_CODEC_LIST_AS("allowance", struct protocol_vacation_list, allowance, n_allowance, 0, &allowance_msg),
	PROTOCOL_CODEC_BOOL(struct protocol_vacation_list, on_vacation, 0),
};
static const struct protocol_codec_message vacations_msg =
	PROTOCOL_CODEC_ANSWER("vacations", vacations_members, NULL, NULL);

char *protocol_vacation_encode(const struct protocol_vacation *v)
{
	return protocol_codec_encode(&vacation_msg, v);
}

int protocol_vacation_booking_decode(const char *json, size_t len, struct protocol_vacation *out, char *err,
				     size_t errsize)
{
	struct protocol_error e;
	memset(out, 0, sizeof *out);
	return protocol_codec_decode(&vacation_msg, json, len, out, &e) ? answer_failed(&e, err, errsize) : 0;
}

char *protocol_vacations_encode(const struct protocol_vacation *v, size_t n, const struct protocol_allowance *a,
				size_t n_allowance, bool on_vacation)
{
	struct protocol_vacation_list *l = xcalloc(1, sizeof *l);
	/* More than a list holds would be refused by every client. */
	l->n = n < PROTOCOL_VACATIONS_MAX ? n : PROTOCOL_VACATIONS_MAX;
	memcpy(l->v, v, l->n * sizeof *v);
	l->n_allowance = n_allowance < PROTOCOL_ALLOWANCES_MAX ? n_allowance : PROTOCOL_ALLOWANCES_MAX;
	memcpy(l->allowance, a, l->n_allowance * sizeof *a);
	l->on_vacation = on_vacation;
	char *s = protocol_codec_encode(&vacations_msg, l);
	free(l);
	return s;
}

int protocol_vacation_list_decode(const char *json, size_t len, struct protocol_vacation_list *out, char *err,
				  size_t errsize)
{
	struct protocol_error e;
	memset(out, 0, sizeof *out);
	if (protocol_codec_decode(&vacations_msg, json, len, out, &e)) {
		memset(out, 0, sizeof *out);
		return answer_failed(&e, err, errsize);
	}
	return 0;
}

int protocol_credits_decode(const char *json, size_t len, int64_t *credits, char *err, size_t errsize)
{
	struct protocol_player p;
	struct protocol_error e;
	if (protocol_player_decode(json, len, &p, &e))
		return answer_failed(&e, err, errsize);
	*credits = p.credits;
	return 0;
}
