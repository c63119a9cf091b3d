/*
 * Tournaments, credits and vacations on SQLite (store-tournaments.h). These
 * commands are rare next to moves, so each statement is prepared when used
 * rather than kept prepared like store-sqlite.c's hot ones; the SQL is
 * still fixed text with bound values, never built from input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-backend.h"
#include "store-sqlite.h"
#include "store-tournaments.h"
#include "util/log.h"

static sqlite3_stmt *prep(struct sqlite_store *st, const char *sql)
{
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(store_sqlite_db(st), sql, -1, &q, NULL) != SQLITE_OK) {
		log_error("store: preparing \"%s\": %s", sql, sqlite3_errmsg(store_sqlite_db(st)));
		sqlite3_finalize(q);
		return NULL;
	}
	return q;
}

/* Steps a statement that returns no rows, then finalizes it. */
static enum store_result done(struct sqlite_store *st, sqlite3_stmt *q, const char *what)
{
	if (!q)
		return STORE_ERROR;
	int rc = sqlite3_step(q);
	enum store_result r = STORE_OK;
	if ((rc & 0xff) == SQLITE_CONSTRAINT) {
		log_debug("store: %s: %s", what, sqlite3_errmsg(store_sqlite_db(st)));
		r = STORE_CONFLICT;
	} else if (rc != SQLITE_DONE) {
		log_error("store: %s: %s", what, sqlite3_errmsg(store_sqlite_db(st)));
		r = STORE_ERROR;
	}
	sqlite3_finalize(q);
	return r;
}

/* After a row loop: SQLITE_DONE is fine, anything else is logged. */
static enum store_result finish(struct sqlite_store *st, sqlite3_stmt *q, int rc, const char *what)
{
	enum store_result r = STORE_OK;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		log_error("store: %s: %s", what, sqlite3_errmsg(store_sqlite_db(st)));
		r = STORE_ERROR;
	}
	sqlite3_finalize(q);
	return r;
}

static void text(char *dst, size_t size, sqlite3_stmt *q, int col)
{
	const unsigned char *s = sqlite3_column_text(q, col);
	snprintf(dst, size, "%s", s ? (const char *)s : "");
}

/* ---- tournaments ---- */

static void tournament_row(sqlite3_stmt *q, struct store_tournament *t)
{
	memset(t, 0, sizeof *t);
	text(t->id, sizeof t->id, q, 0);
	t->created_ms = sqlite3_column_int64(q, 1);
	t->creator = sqlite3_column_int64(q, 2);
	t->kind = (enum tournament_kind)sqlite3_column_int(q, 3);
	t->players = sqlite3_column_int(q, 4);
	text(t->tc, sizeof t->tc, q, 5);
	text(t->ruleset, sizeof t->ruleset, q, 6);
	t->prizes.stake = sqlite3_column_int64(q, 7);
	t->prizes.payout_percent = sqlite3_column_int(q, 8);
	store_places_parse((const char *)sqlite3_column_text(q, 9) ? (const char *)sqlite3_column_text(q, 9) : "",
		     &t->prizes);
	text(t->status, sizeof t->status, q, 10);
	t->seed = (uint64_t)sqlite3_column_int64(q, 11);
	t->started_ms = sqlite3_column_int64(q, 12);
	t->finished_ms = sqlite3_column_int64(q, 13);
	t->registered = sqlite3_column_int(q, 14);
}

enum store_result sqlite_store_tournament_create(struct sqlite_store *st, const struct store_tournament *t)
{
	char places[TOURNAMENT_PRIZE_PLACES_MAX * 5 + 1];
	store_places_format(&t->prizes, places, sizeof places);
	sqlite3_stmt *q = prep(st, "INSERT INTO tournaments(id, created, creator, kind, players, tc, ruleset, stake, "
				   "payout_percent, places, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, t->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, t->created_ms);
	sqlite3_bind_int64(q, 3, t->creator);
	sqlite3_bind_int(q, 4, (int)t->kind);
	sqlite3_bind_int(q, 5, t->players);
	sqlite3_bind_text(q, 6, t->tc, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 7, t->ruleset, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 8, t->prizes.stake);
	sqlite3_bind_int(q, 9, t->prizes.payout_percent);
	sqlite3_bind_text(q, 10, places, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 11, t->status, -1, SQLITE_TRANSIENT);
	return done(st, q, "create tournament");
}

enum store_result sqlite_store_tournament_get(struct sqlite_store *st, const char *id, struct store_tournament *out)
{
	sqlite3_stmt *q = prep(st, "SELECT " STORE_TOURNAMENT_COLUMNS " FROM tournaments WHERE id = ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		tournament_row(q, out);
	enum store_result r = finish(st, q, rc, "get tournament");
	return r == STORE_OK && rc != SQLITE_ROW ? STORE_NOT_FOUND : r;
}

enum store_result sqlite_store_tournament_update(struct sqlite_store *st, const struct store_tournament *t)
{
	sqlite3_stmt *q = prep(st, "UPDATE tournaments SET status = ?2, seed = ?3, started = ?4, finished = ?5 "
				   "WHERE id = ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, t->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, t->status, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 3, (int64_t)t->seed);
	sqlite3_bind_int64(q, 4, t->started_ms);
	sqlite3_bind_int64(q, 5, t->finished_ms);
	return done(st, q, "update tournament");
}

enum store_result sqlite_store_tournaments_recent(struct sqlite_store *st, int limit, store_tournament_fn fn, void *arg)
{
	sqlite3_stmt *q = prep(st, "SELECT " STORE_TOURNAMENT_COLUMNS " FROM tournaments ORDER BY created DESC, id LIMIT ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int(q, 1, limit);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_tournament t;
		tournament_row(q, &t);
		if (fn(arg, &t)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	return finish(st, q, rc, "recent tournaments");
}

/* ---- entries ---- */

enum store_result sqlite_store_entries(struct sqlite_store *st, const char *tournament, struct store_entry *out,
				       int max, int *n)
{
	sqlite3_stmt *q = prep(st, "SELECT e.player, p.name, e.registered FROM tournament_entries e "
				   "JOIN players p ON p.id = e.player WHERE e.tournament = ?1 ORDER BY e.seq");
	*n = 0;
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		struct store_entry *e = &out[(*n)++];
		e->player = sqlite3_column_int64(q, 0);
		text(e->name, sizeof e->name, q, 1);
		e->registered_ms = sqlite3_column_int64(q, 2);
	}
	return finish(st, q, rc, "entries");
}

enum store_result sqlite_store_entry_add(struct sqlite_store *st, const char *tournament, int64_t player, int64_t ms)
{
	sqlite3_stmt *q = prep(st, "INSERT INTO tournament_entries(tournament, player, registered) VALUES (?1, ?2, ?3)");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, player);
	sqlite3_bind_int64(q, 3, ms);
	return done(st, q, "add entry");
}

enum store_result sqlite_store_entry_remove(struct sqlite_store *st, const char *tournament, int64_t player)
{
	sqlite3_stmt *q = prep(st, "DELETE FROM tournament_entries WHERE tournament = ?1 AND player = ?2");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, player);
	enum store_result r = done(st, q, "remove entry");
	if (r == STORE_OK && sqlite3_changes(store_sqlite_db(st)) == 0)
		r = STORE_NOT_FOUND;
	return r;
}

/* ---- the games of a tournament ---- */

enum store_result sqlite_store_tournament_game_add(struct sqlite_store *st, const char *tournament, int idx,
						   const char *game_id)
{
	sqlite3_stmt *q = prep(st, "INSERT INTO tournament_games(tournament, idx, game_id) VALUES (?1, ?2, ?3)");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, idx);
	sqlite3_bind_text(q, 3, game_id, -1, SQLITE_TRANSIENT);
	return done(st, q, "add tournament game");
}

enum store_result sqlite_store_tournament_games(struct sqlite_store *st, const char *tournament,
						struct store_tournament_game *out, int max, int *n)
{
	sqlite3_stmt *q = prep(st, "SELECT idx, game_id, outcome FROM tournament_games WHERE tournament = ?1 "
				   "ORDER BY idx");
	*n = 0;
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int idx = sqlite3_column_int(q, 0);
		if (idx < 0 || idx >= max)
			continue;
		text(out[idx].game_id, sizeof out[idx].game_id, q, 1);
		out[idx].outcome = (enum tournament_outcome)sqlite3_column_int(q, 2);
		if (idx + 1 > *n)
			*n = idx + 1;
	}
	return finish(st, q, rc, "tournament games");
}

enum store_result sqlite_store_tournament_of_game(struct sqlite_store *st, const char *game_id,
						  char tournament[STORE_GAME_ID_MAX + 1], int *idx)
{
	sqlite3_stmt *q = prep(st, "SELECT tournament, idx FROM tournament_games WHERE game_id = ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, game_id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		text(tournament, STORE_GAME_ID_MAX + 1, q, 0);
		*idx = sqlite3_column_int(q, 1);
	}
	enum store_result r = finish(st, q, rc, "tournament of game");
	return r == STORE_OK && rc != SQLITE_ROW ? STORE_NOT_FOUND : r;
}

enum store_result sqlite_store_tournament_game_set_outcome(struct sqlite_store *st, const char *tournament, int idx,
							   enum tournament_outcome outcome)
{
	sqlite3_stmt *q = prep(st, "UPDATE tournament_games SET outcome = ?3 WHERE tournament = ?1 AND idx = ?2");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_text(q, 1, tournament, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, idx);
	sqlite3_bind_int(q, 3, (int)outcome);
	return done(st, q, "set outcome");
}

/* ---- credits ---- */

enum store_result sqlite_store_credits_get(struct sqlite_store *st, int64_t player, int64_t *out)
{
	sqlite3_stmt *q = prep(st, "SELECT credits FROM players WHERE id = ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(q, 0);
	enum store_result r = finish(st, q, rc, "credits");
	return r == STORE_OK && rc != SQLITE_ROW ? STORE_NOT_FOUND : r;
}

enum store_result sqlite_store_credits_add(struct sqlite_store *st, int64_t player, int64_t delta, const char *reason,
					   const char *tournament, int64_t ms)
{
	sqlite3_stmt *q = prep(st, "UPDATE players SET credits = credits + ?2 WHERE id = ?1");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, delta);
	enum store_result r = done(st, q, "credit");
	if (r == STORE_OK && sqlite3_changes(store_sqlite_db(st)) == 0)
		return STORE_NOT_FOUND;
	if (r != STORE_OK)
		return r;
	q = prep(st, "INSERT INTO credit_log(player, delta, reason, tournament, at) VALUES (?1, ?2, ?3, ?4, ?5)");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, delta);
	sqlite3_bind_text(q, 3, reason, -1, SQLITE_TRANSIENT);
	if (tournament)
		sqlite3_bind_text(q, 4, tournament, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 5, ms);
	return done(st, q, "credit log");
}

/* ---- vacations ---- */

enum store_result sqlite_store_vacations(struct sqlite_store *st, int64_t player, int64_t from_ms,
					 struct store_vacation *out, int max, int *n)
{
	sqlite3_stmt *q = prep(st, "SELECT id, start_ms, end_ms FROM vacations WHERE player = ?1 AND end_ms > ?2 "
				   "ORDER BY start_ms, id");
	*n = 0;
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, from_ms);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		struct store_vacation *v = &out[(*n)++];
		v->id = sqlite3_column_int64(q, 0);
		v->v.start_ms = sqlite3_column_int64(q, 1);
		v->v.end_ms = sqlite3_column_int64(q, 2);
	}
	return finish(st, q, rc, "vacations");
}

enum store_result sqlite_store_vacation_add(struct sqlite_store *st, int64_t player, const struct vacation *v,
					    int64_t *id_out)
{
	sqlite3_stmt *q = prep(st, "INSERT INTO vacations(player, start_ms, end_ms) VALUES (?1, ?2, ?3)");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, v->start_ms);
	sqlite3_bind_int64(q, 3, v->end_ms);
	enum store_result r = done(st, q, "add vacation");
	if (r == STORE_OK)
		*id_out = sqlite3_last_insert_rowid(store_sqlite_db(st));
	return r;
}

enum store_result sqlite_store_vacation_get(struct sqlite_store *st, int64_t player, int64_t id,
					    struct store_vacation *out)
{
	sqlite3_stmt *q = prep(st, "SELECT id, start_ms, end_ms FROM vacations WHERE player = ?1 AND id = ?2");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(q, 0);
		out->v.start_ms = sqlite3_column_int64(q, 1);
		out->v.end_ms = sqlite3_column_int64(q, 2);
	}
	enum store_result r = finish(st, q, rc, "get vacation");
	return r == STORE_OK && rc != SQLITE_ROW ? STORE_NOT_FOUND : r;
}

enum store_result sqlite_store_vacation_delete(struct sqlite_store *st, int64_t player, int64_t id)
{
	sqlite3_stmt *q = prep(st, "DELETE FROM vacations WHERE player = ?1 AND id = ?2");
	if (!q)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, player);
	sqlite3_bind_int64(q, 2, id);
	enum store_result r = done(st, q, "delete vacation");
	if (r == STORE_OK && sqlite3_changes(store_sqlite_db(st)) == 0)
		r = STORE_NOT_FOUND;
	return r;
}
