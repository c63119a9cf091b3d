/*
 * Tournaments, credits and vacations on PostgreSQL (store-tournaments.h),
 * as store-tournaments.c is on SQLite. These commands are rare next to
 * moves: none is prepared, each statement is sent with its parameters
 * (stmt with S_COUNT and its SQL), always bound, never written into the
 * SQL. The connection, the transaction and the statement helper are
 * store-pg.c's (store-pg-internal.h).
 */
#include <libpq-fe.h>
#include <string.h>

#include "store-backend.h"
#include "store-pg-internal.h"
#include "store-tournaments.h"

/* ---- tournaments (store-tournaments.h) ---- */

static void tournament_row(const PGresult *r, int row, struct store_tournament *t)
{
	memset(t, 0, sizeof *t);
	pg_col_text(t->id, sizeof t->id, r, row, 0);
	t->created_ms = pg_col_int(r, row, 1);
	t->creator = pg_col_int(r, row, 2);
	t->kind = (enum tournament_kind)pg_col_int(r, row, 3);
	t->players = (int)pg_col_int(r, row, 4);
	pg_col_text(t->tc, sizeof t->tc, r, row, 5);
	pg_col_text(t->ruleset, sizeof t->ruleset, r, row, 6);
	t->prizes.stake = pg_col_int(r, row, 7);
	t->prizes.payout_percent = (int)pg_col_int(r, row, 8);
	store_places_parse(PQgetvalue(r, row, 9), &t->prizes);
	pg_col_text(t->status, sizeof t->status, r, row, 10);
	t->seed = (uint64_t)pg_col_int(r, row, 11);
	t->started_ms = pg_col_int(r, row, 12);
	t->finished_ms = pg_col_int(r, row, 13);
	t->registered = (int)pg_col_int(r, row, 14);
}

enum store_result pg_store_tournament_create(struct pg_store *st, const struct store_tournament *t)
{
	char places[TOURNAMENT_PRIZE_PLACES_MAX * 5 + 1];
	store_places_format(&t->prizes, places, sizeof places);
	struct params p = {0};
	pg_param_text(&p, t->id);
	pg_param_int(&p, t->created_ms);
	pg_param_int(&p, t->creator);
	pg_param_int(&p, (int)t->kind);
	pg_param_int(&p, t->players);
	pg_param_text(&p, t->tc);
	pg_param_text(&p, t->ruleset);
	pg_param_int(&p, t->prizes.stake);
	pg_param_int(&p, t->prizes.payout_percent);
	pg_param_text(&p, places);
	pg_param_text(&p, t->status);
	return pg_stmt(st, S_COUNT,
	               "INSERT INTO tournaments(id, created, creator, kind, players, tc, ruleset, stake, "
	               "payout_percent, places, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
	               "$11) ON CONFLICT DO NOTHING RETURNING 1",
	               &p, INSERT, "create tournament", NULL);
}

enum store_result pg_store_tournament_get(struct pg_store *st, const char *id, struct store_tournament *out)
{
	struct params p = {0};
	pg_param_text(&p, id);
	PGresult *r;
	/* In a transaction the read is for a change (a registration, a
	 * withdrawal, a game's end, the start): the row stays locked until
	 * the commit, so two nodes changing one tournament take turns, the
	 * second reading what the first committed (READ COMMITTED: each
	 * statement sees the commits before it). */
	enum store_result rc =
	    pg_stmt(st, S_COUNT,
	            pg_store_in_tx(st) ? "SELECT " STORE_TOURNAMENT_COLUMNS " FROM tournaments WHERE id = $1 "
	                                 "FOR UPDATE OF tournaments"
	                               : "SELECT " STORE_TOURNAMENT_COLUMNS " FROM tournaments WHERE id = $1",
	            &p, READ_ROW, "get tournament", &r);
	if (rc == STORE_OK)
		tournament_row(r, 0, out);
	PQclear(r);
	return rc;
}

enum store_result pg_store_tournament_update(struct pg_store *st, const struct store_tournament *t)
{
	struct params p = {0};
	pg_param_text(&p, t->id);
	pg_param_text(&p, t->status);
	pg_param_int(&p, (int64_t)t->seed);
	pg_param_int(&p, t->started_ms);
	pg_param_int(&p, t->finished_ms);
	return pg_stmt(st, S_COUNT,
	               "UPDATE tournaments SET status = $2, seed = $3, started = $4, finished = $5 WHERE id = $1", &p,
	               WRITE, "update tournament", NULL);
}

enum store_result pg_store_tournaments_recent(struct pg_store *st, int limit, store_tournament_fn fn, void *arg)
{
	struct params p = {0};
	pg_param_int(&p, limit);
	PGresult *r;
	enum store_result rc = pg_stmt(
	    st, S_COUNT, "SELECT " STORE_TOURNAMENT_COLUMNS " FROM tournaments ORDER BY created DESC, id LIMIT $1", &p,
	    READ_ROWS, "recent tournaments", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, n = PQntuples(r); i < n; i++) {
		struct store_tournament t;
		tournament_row(r, i, &t);
		if (fn(arg, &t))
			break;
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_entries(struct pg_store *st, const char *tournament, struct store_entry *out, int max,
                                   int *n)
{
	*n = 0;
	struct params p = {0};
	pg_param_text(&p, tournament);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_COUNT,
	                               "SELECT e.player, p.name, e.registered FROM tournament_entries e "
	                               "JOIN players p ON p.id = e.player WHERE e.tournament = $1 ORDER BY e.seq",
	                               &p, READ_ROWS, "entries", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, rows = PQntuples(r); i < rows && *n < max; i++) {
		struct store_entry *e = &out[(*n)++];
		e->player = pg_col_int(r, i, 0);
		pg_col_text(e->name, sizeof e->name, r, i, 1);
		e->registered_ms = pg_col_int(r, i, 2);
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_entry_add(struct pg_store *st, const char *tournament, int64_t player, int64_t ms)
{
	struct params p = {0};
	pg_param_text(&p, tournament);
	pg_param_int(&p, player);
	pg_param_int(&p, ms);
	return pg_stmt(st, S_COUNT,
	               "INSERT INTO tournament_entries(tournament, player, registered) VALUES ($1, $2, $3) "
	               "ON CONFLICT DO NOTHING RETURNING 1",
	               &p, INSERT, "add entry", NULL);
}

enum store_result pg_store_entry_remove(struct pg_store *st, const char *tournament, int64_t player)
{
	struct params p = {0};
	pg_param_text(&p, tournament);
	pg_param_int(&p, player);
	return pg_stmt(st, S_COUNT, "DELETE FROM tournament_entries WHERE tournament = $1 AND player = $2", &p, CHANGE,
	               "remove entry", NULL);
}

enum store_result pg_store_tournament_game_add(struct pg_store *st, const char *tournament, int idx,
                                               const char *game_id)
{
	struct params p = {0};
	pg_param_text(&p, tournament);
	pg_param_int(&p, idx);
	pg_param_text(&p, game_id);
	return pg_stmt(st, S_COUNT,
	               "INSERT INTO tournament_games(tournament, idx, game_id) VALUES ($1, $2, $3) "
	               "ON CONFLICT DO NOTHING RETURNING 1",
	               &p, INSERT, "add tournament game", NULL);
}

enum store_result pg_store_tournament_games(struct pg_store *st, const char *tournament,
                                            struct store_tournament_game *out, int max, int *n)
{
	*n = 0;
	struct params p = {0};
	pg_param_text(&p, tournament);
	PGresult *r;
	enum store_result rc = pg_stmt(
	    st, S_COUNT, "SELECT idx, game_id, outcome FROM tournament_games WHERE tournament = $1 ORDER BY idx", &p,
	    READ_ROWS, "tournament games", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, rows = PQntuples(r); i < rows; i++) {
		int64_t idx = pg_col_int(r, i, 0);
		if (idx < 0 || idx >= max)
			continue;
		pg_col_text(out[idx].game_id, sizeof out[idx].game_id, r, i, 1);
		out[idx].outcome = (enum tournament_outcome)pg_col_int(r, i, 2);
		if (idx + 1 > *n)
			*n = (int)idx + 1;
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_tournament_of_game(struct pg_store *st, const char *game_id,
                                              char tournament[STORE_GAME_ID_MAX + 1], int *idx)
{
	struct params p = {0};
	pg_param_text(&p, game_id);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_COUNT, "SELECT tournament, idx FROM tournament_games WHERE game_id = $1",
	                               &p, READ_ROW, "tournament of game", &r);
	if (rc == STORE_OK) {
		pg_col_text(tournament, STORE_GAME_ID_MAX + 1, r, 0, 0);
		*idx = (int)pg_col_int(r, 0, 1);
	}
	PQclear(r);
	return rc;
}

enum store_result pg_store_tournament_game_set_outcome(struct pg_store *st, const char *tournament, int idx,
                                                       enum tournament_outcome outcome)
{
	struct params p = {0};
	pg_param_text(&p, tournament);
	pg_param_int(&p, idx);
	pg_param_int(&p, (int)outcome);
	return pg_stmt(st, S_COUNT, "UPDATE tournament_games SET outcome = $3 WHERE tournament = $1 AND idx = $2", &p,
	               WRITE, "set outcome", NULL);
}

/* ---- credits ---- */

enum store_result pg_store_credits_get(struct pg_store *st, int64_t player, int64_t *out)
{
	struct params p = {0};
	pg_param_int(&p, player);
	PGresult *r;
	enum store_result rc =
	    pg_stmt(st, S_COUNT, "SELECT credits FROM players WHERE id = $1", &p, READ_ROW, "credits", &r);
	if (rc == STORE_OK)
		*out = pg_col_int(r, 0, 0);
	PQclear(r);
	return rc;
}

enum store_result pg_store_credits_add(struct pg_store *st, int64_t player, int64_t delta, const char *reason,
                                       const char *tournament, int64_t ms)
{
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, delta);
	enum store_result rc =
	    pg_stmt(st, S_COUNT, "UPDATE players SET credits = credits + $2 WHERE id = $1", &p, CHANGE, "credit", NULL);
	if (rc != STORE_OK)
		return rc;
	struct params q = {0};
	pg_param_int(&q, player);
	pg_param_int(&q, delta);
	pg_param_text(&q, reason);
	pg_param_text(&q, tournament);
	pg_param_int(&q, ms);
	return pg_stmt(st, S_COUNT,
	               "INSERT INTO credit_log(player, delta, reason, tournament, at) VALUES ($1, $2, $3, $4, $5)", &q,
	               WRITE, "credit log", NULL);
}

/* ---- vacations ---- */

enum store_result pg_store_vacations(struct pg_store *st, int64_t player, int64_t from_ms, struct store_vacation *out,
                                     int max, int *n)
{
	*n = 0;
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, from_ms);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_COUNT,
	                               "SELECT id, start_ms, end_ms FROM vacations WHERE player = $1 AND end_ms > $2 "
	                               "ORDER BY start_ms, id",
	                               &p, READ_ROWS, "vacations", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, rows = PQntuples(r); i < rows && *n < max; i++) {
		struct store_vacation *v = &out[(*n)++];
		v->id = pg_col_int(r, i, 0);
		v->v.start_ms = pg_col_int(r, i, 1);
		v->v.end_ms = pg_col_int(r, i, 2);
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_vacation_add(struct pg_store *st, int64_t player, const struct vacation *v, int64_t *id_out)
{
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, v->start_ms);
	pg_param_int(&p, v->end_ms);
	PGresult *r;
	enum store_result rc =
	    pg_stmt(st, S_COUNT, "INSERT INTO vacations(player, start_ms, end_ms) VALUES ($1, $2, $3) RETURNING id", &p,
	            WRITE, "add vacation", &r);
	if (rc == STORE_OK)
		*id_out = pg_col_int(r, 0, 0);
	PQclear(r);
	return rc;
}

enum store_result pg_store_vacation_get(struct pg_store *st, int64_t player, int64_t id, struct store_vacation *out)
{
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, id);
	PGresult *r;
	enum store_result rc =
	    pg_stmt(st, S_COUNT, "SELECT id, start_ms, end_ms FROM vacations WHERE player = $1 AND id = $2", &p,
	            READ_ROW, "get vacation", &r);
	if (rc == STORE_OK) {
		out->id = pg_col_int(r, 0, 0);
		out->v.start_ms = pg_col_int(r, 0, 1);
		out->v.end_ms = pg_col_int(r, 0, 2);
	}
	PQclear(r);
	return rc;
}

enum store_result pg_store_vacation_delete(struct pg_store *st, int64_t player, int64_t id)
{
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, id);
	return pg_stmt(st, S_COUNT, "DELETE FROM vacations WHERE player = $1 AND id = $2", &p, CHANGE,
	               "delete vacation", NULL);
}
