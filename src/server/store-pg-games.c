/*
 * Players, games and their events on PostgreSQL (store.h): the calls of
 * every command, each one prepared statement of store-pg.c's table
 * (stmt_sql), run through pg_stmt, so inside a transaction it joins the
 * transaction's pipeline. The connection, the pipeline and the flush are
 * store-pg.c's (store-pg-internal.h).
 *
 * Unlike SQLite's store there is no cache of players by token: another
 * node may replace a token at any time, and a lookup by the unique index
 * costs one round trip.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-backend.h"
#include "store-pg-internal.h"
#include "util/token.h"
#include "util/xalloc.h"

/* ---- players ---- */

enum store_result pg_store_player_create(struct pg_store *st, const char *name, const uint8_t hash[STORE_HASH_SIZE],
                                         int64_t created_ms, int64_t *id_out)
{
	struct params p = {0};
	pg_param_text(&p, name);
	pg_param_hash(&p, hash);
	pg_param_int(&p, created_ms);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_PLAYER_INSERT, NULL, &p, INSERT, "create player", &r);
	if (rc == STORE_OK)
		*id_out = pg_col_int(r, 0, 0);
	PQclear(r);
	return rc;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

enum store_result pg_store_player_by_token_hash(struct pg_store *st, const uint8_t hash[STORE_HASH_SIZE],
                                                struct store_player *out)
{
	struct params p = {0};
	pg_param_hash(&p, hash);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_PLAYER_BY_HASH, NULL, &p, READ_ROW, "player by token", &r);
	if (rc == STORE_OK) {
		rc = STORE_NOT_FOUND;
		/* As in SQLite's store: the index found the row; the stored
		 * hash is compared in constant time as well. */
		const char *hex = PQgetvalue(r, 0, 3);
		uint8_t stored[STORE_HASH_SIZE];
		bool ok = strlen(hex) == 2 * STORE_HASH_SIZE;
		for (int i = 0; ok && i < STORE_HASH_SIZE; i++) {
			int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
			ok = hi >= 0 && lo >= 0;
			stored[i] = (uint8_t)(hi << 4 | lo);
		}
		if (ok && token_equal(stored, hash, STORE_HASH_SIZE)) {
			out->id = pg_col_int(r, 0, 0);
			pg_col_text(out->name, sizeof out->name, r, 0, 1);
			out->created_ms = pg_col_int(r, 0, 2);
			rc = STORE_OK;
		}
	}
	PQclear(r);
	return rc;
}

enum store_result pg_store_player_by_id(struct pg_store *st, int64_t id, struct store_player *out)
{
	struct params p = {0};
	pg_param_int(&p, id);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_PLAYER_BY_ID, NULL, &p, READ_ROW, "player by id", &r);
	if (rc == STORE_OK) {
		out->id = pg_col_int(r, 0, 0);
		pg_col_text(out->name, sizeof out->name, r, 0, 1);
		out->created_ms = pg_col_int(r, 0, 2);
	}
	PQclear(r);
	return rc;
}

enum store_result pg_store_player_set_token_hash(struct pg_store *st, int64_t id, const uint8_t hash[STORE_HASH_SIZE])
{
	struct params p = {0};
	pg_param_int(&p, id);
	pg_param_hash(&p, hash);
	enum store_result rc = pg_stmt(st, S_PLAYER_SET_HASH, NULL, &p, CHANGE, "set token", NULL);
	if (rc != STORE_NOT_FOUND)
		return rc;
	/* Nothing changed: no such player, or another has that token. */
	struct params q = {0};
	pg_param_int(&q, id);
	PGresult *r;
	rc = pg_stmt(st, S_PLAYER_EXISTS, NULL, &q, READ_ROWS, "set token", &r);
	if (rc == STORE_OK)
		rc = PQntuples(r) ? STORE_CONFLICT : STORE_NOT_FOUND;
	PQclear(r);
	return rc;
}

/* ---- games and events ---- */

enum store_result pg_store_game_create(struct pg_store *st, const struct store_game *g)
{
	struct params p = {0};
	pg_param_text(&p, g->id);
	pg_param_int(&p, g->created_ms);
	pg_param_text(&p, g->status);
	pg_param_id(&p, g->white);
	pg_param_id(&p, g->black);
	pg_param_text(&p, g->finished ? "true" : "false");
	pg_param_text(&p, g->params ? g->params : "{}");
	return pg_stmt(st, S_GAME_INSERT, NULL, &p, INSERT, "create game", NULL);
}

/* Reads a GAME_COLUMNS row; params points into r (valid until PQclear). */
static void game_row(const PGresult *r, int row, struct store_game *g)
{
	pg_col_text(g->id, sizeof g->id, r, row, 0);
	g->created_ms = pg_col_int(r, row, 1);
	pg_col_text(g->status, sizeof g->status, r, row, 2);
	g->white = pg_col_int(r, row, 3);
	g->black = pg_col_int(r, row, 4);
	g->finished = PQgetvalue(r, row, 5)[0] == 't';
	g->params = PQgetvalue(r, row, 6);
	g->last_seq = pg_col_int(r, row, 7);
}

enum store_result pg_store_game_get(struct pg_store *st, const char *id, struct store_game *out)
{
	out->params = NULL;
	struct params p = {0};
	pg_param_text(&p, id);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_GAME_GET, NULL, &p, READ_ROW, "get game", &r);
	if (rc == STORE_OK) {
		game_row(r, 0, out);
		out->params = xstrdup(out->params);
	}
	PQclear(r);
	return rc;
}

enum store_result pg_store_game_update(struct pg_store *st, const struct store_game *g)
{
	struct params p = {0};
	pg_param_text(&p, g->id);
	pg_param_text(&p, g->status);
	pg_param_id(&p, g->white);
	pg_param_id(&p, g->black);
	pg_param_text(&p, g->finished ? "true" : "false");
	if (g->finished) {
		pg_param_int(&p, g->ended_ms);
		pg_param_text(&p, g->result);
		pg_param_text(&p, g->termination);
		pg_param_int(&p, g->plies);
		pg_param_text(&p, g->tc);
		pg_param_text(&p, g->ruleset);
		pg_param_int(&p, g->white_level);
		pg_param_int(&p, g->black_level);
	} else {
		for (int i = 0; i < 8; i++)
			pg_param_text(&p, NULL);
	}
	return pg_stmt(st, S_GAME_UPDATE, NULL, &p, CHANGE, "update game", NULL);
}

enum store_result pg_store_game_delete(struct pg_store *st, const char *id)
{
	struct params p = {0};
	pg_param_text(&p, id);
	return pg_stmt(st, S_GAME_DELETE, NULL, &p, CHANGE, "delete game", NULL);
}

enum store_result pg_store_event_append(struct pg_store *st, const char *game_id, int64_t seq, const char *type,
                                        const char *payload, int64_t visible_to, int64_t created_ms)
{
	struct params p = {0};
	pg_param_text(&p, game_id);
	pg_param_text(&p, type);
	pg_param_text(&p, payload ? payload : "{}");
	pg_param_id(&p, visible_to);
	pg_param_int(&p, created_ms);
	pg_param_int(&p, seq);
	/* In a transaction, sent with what follows (its failure read then:
	 * pg_store_race_lost). */
	return pg_stmt(st, S_EVENT_INSERT, NULL, &p, APPEND, "append event", NULL);
}

enum store_result pg_store_game_last_seq(struct pg_store *st, const char *game_id, int64_t *seq_out)
{
	struct params p = {0};
	pg_param_text(&p, game_id);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_GAME_LAST_SEQ, NULL, &p, READ_ROW, "last seq", &r);
	if (rc != STORE_OK && rc != STORE_NOT_FOUND)
		return rc;
	*seq_out = rc == STORE_OK ? pg_col_int(r, 0, 0) : 0;
	PQclear(r);
	return rc;
}

enum store_result pg_store_events_after(struct pg_store *st, const char *game_id, int64_t after, int64_t viewer,
                                        int limit, store_event_fn fn, void *arg)
{
	struct params p = {0};
	pg_param_text(&p, game_id);
	pg_param_int(&p, after);
	pg_param_int(&p, viewer == STORE_VIEWER_ALL ? -2 : viewer ? viewer : -1);
	if (limit > 0)
		pg_param_int(&p, limit);
	else
		pg_param_text(&p, NULL); /* LIMIT NULL: all */
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_EVENTS_AFTER, NULL, &p, READ_ROWS, "events after", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, n = PQntuples(r); i < n; i++) {
		struct store_event ev = {
		    .game_id = game_id,
		    .seq = pg_col_int(r, i, 0),
		    .type = PQgetvalue(r, i, 1),
		    .payload = PQgetvalue(r, i, 2),
		    .visible_to = pg_col_int(r, i, 3),
		    .created_ms = pg_col_int(r, i, 4),
		};
		if (fn(arg, &ev))
			break;
	}
	PQclear(r);
	return STORE_OK;
}

/* An array literal of the ranges' ids (which 0), afters (1) or uptos (2):
 * ids are id characters only, numbers digits, so nothing needs quoting. */
static char *array_literal(size_t n, const struct store_range *ranges, int which)
{
	size_t cap = 2 + n * (STORE_GAME_ID_MAX + 24), len = 0;
	char *a = xmalloc(cap);
	a[len++] = '{';
	for (size_t i = 0; i < n; i++) {
		if (which == 0)
			len += (size_t)snprintf(a + len, cap - len, "%s%s", i ? "," : "", ranges[i].game_id);
		else
			len += (size_t)snprintf(a + len, cap - len, "%s%lld", i ? "," : "",
			                        (long long)(which == 1 ? ranges[i].after : ranges[i].upto));
	}
	a[len++] = '}';
	a[len] = '\0';
	return a;
}

enum store_result pg_store_events_ranges(struct pg_store *st, const struct store_range *ranges, size_t n,
                                         store_event_fn fn, void *arg)
{
	if (n == 0)
		return STORE_OK;
	char *ids = array_literal(n, ranges, 0), *afters = array_literal(n, ranges, 1),
	     *uptos = array_literal(n, ranges, 2);
	struct params p = {0};
	pg_param_text(&p, ids);
	pg_param_text(&p, afters);
	pg_param_text(&p, uptos);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_EVENTS_RANGES, NULL, &p, READ_ROWS, "events of several games", &r);
	free(ids);
	free(afters);
	free(uptos);
	if (rc != STORE_OK)
		return rc;
	for (int row = 0, rows = PQntuples(r); row < rows; row++) {
		int64_t i = pg_col_int(r, row, 0);
		if (i < 1 || (size_t)i > n)
			continue;
		struct store_event ev = {
		    .game_id = ranges[i - 1].game_id,
		    .seq = pg_col_int(r, row, 1),
		    .type = PQgetvalue(r, row, 2),
		    .payload = PQgetvalue(r, row, 3),
		    .visible_to = pg_col_int(r, row, 4),
		    .created_ms = pg_col_int(r, row, 5),
		};
		if (fn(arg, &ev))
			break;
	}
	PQclear(r);
	return STORE_OK;
}

static enum store_result walk_games(struct pg_store *st, enum stmt s, const struct params *p, store_game_fn fn,
                                    void *arg, const char *what)
{
	PGresult *r;
	enum store_result rc = pg_stmt(st, s, NULL, p, READ_ROWS, what, &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, n = PQntuples(r); i < n; i++) {
		struct store_game g;
		game_row(r, i, &g);
		if (fn(arg, &g))
			break;
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_games_unfinished(struct pg_store *st, store_game_fn fn, void *arg)
{
	return walk_games(st, S_GAMES_UNFINISHED, NULL, fn, arg, "unfinished games");
}

enum store_result pg_store_games_recent(struct pg_store *st, int limit, int64_t viewer, store_game_fn fn, void *arg)
{
	struct params p = {0};
	pg_param_int(&p, limit);
	pg_param_int(&p, viewer);
	return walk_games(st, S_GAMES_RECENT, &p, fn, arg, "recent games");
}

enum store_result pg_store_games_prefix(struct pg_store *st, const char *prefix, int limit, int64_t viewer,
                                        store_game_fn fn, void *arg)
{
	struct params p = {0};
	pg_param_text(&p, prefix);
	pg_param_int(&p, limit);
	pg_param_int(&p, viewer);
	return walk_games(st, S_GAMES_PREFIX, &p, fn, arg, "games by id prefix");
}

enum store_result pg_store_games_finished_of(struct pg_store *st, int64_t player, int64_t before_ms,
                                             const char *before_id, int limit, store_finished_fn fn, void *arg)
{
	struct params p = {0};
	pg_param_int(&p, player);
	pg_param_int(&p, before_ms);
	pg_param_text(&p, before_id);
	pg_param_int(&p, limit);
	PGresult *r;
	enum store_result rc = pg_stmt(st, S_GAMES_FINISHED_OF, NULL, &p, READ_ROWS, "finished games", &r);
	if (rc != STORE_OK)
		return rc;
	for (int i = 0, n = PQntuples(r); i < n; i++) {
		struct store_finished_game g = {
		    .id = PQgetvalue(r, i, 0),
		    .ended_ms = pg_col_int(r, i, 1),
		    .result = PQgetvalue(r, i, 2),
		    .termination = PQgetvalue(r, i, 3),
		    .plies = pg_col_int(r, i, 4),
		    .tc = PQgetvalue(r, i, 5),
		    .ruleset = PQgetvalue(r, i, 6),
		    .white = pg_col_int(r, i, 7),
		    .black = pg_col_int(r, i, 8),
		    .white_name = PQgetvalue(r, i, 9),
		    .black_name = PQgetvalue(r, i, 10),
		    .white_level = (int)pg_col_int(r, i, 11),
		    .black_level = (int)pg_col_int(r, i, 12),
		};
		if (fn(arg, &g))
			break;
	}
	PQclear(r);
	return STORE_OK;
}

enum store_result pg_store_games_open_of(struct pg_store *st, int64_t player, int64_t *n_out)
{
	struct params p = {0};
	pg_param_int(&p, player);
	PGresult *r;
	enum store_result rc = STORE_OK;
	if (pg_store_in_tx(st) &&
	    (rc = pg_stmt(st, S_PLAYER_LOCK_OPEN, NULL, &p, READ_ROW, "lock open games", &r)) == STORE_OK)
		PQclear(r);
	if (rc != STORE_OK)
		return rc;
	rc = pg_stmt(st, S_GAMES_OPEN_OF, NULL, &p, READ_ROW, "open games", &r);
	if (rc == STORE_OK)
		*n_out = pg_col_int(r, 0, 0);
	PQclear(r);
	return rc;
}
