/*
 * tchess-open-games: what counting a player's open games costs the store
 * (issue 12 item 4's open_games_per_player, asked at every create), with
 * the seats' partial indexes and without them (the schema before they
 * existed). It fills a temporary SQLite store with N games of P players,
 * a few of each player's still open, times the count for every player,
 * then drops the two indexes and times the statement used before them,
 * in CPU time per count. Not a pass/fail test.
 *
 *   tchess-open-games [--games N] [--players P]
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store-sqlite.h"
#include "store.h"

/* CPU time: the store runs in this process, and the machine may be
 * shared (wall time then says more about the neighbours). */
static double og_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Every player's count once through the store; the mean CPU time in
 * microseconds, -1 on a failure. */
static double og_time(struct store *st, const int64_t *players, int n_players, int64_t *total)
{
	*total = 0;
	double t0 = og_cpu_us();
	for (int i = 0; i < n_players; i++) {
		int64_t n;
		if (store_games_open_of(st, players[i], &n) != STORE_OK)
			return -1;
		*total += n;
	}
	return (og_cpu_us() - t0) / n_players;
}

/* The count as it was before the indexes (the statement of schema version
 * 2, kept here to measure it), on db without them: the mean CPU time over
 * the first n players. */
static double og_time_before(sqlite3 *db, const int64_t *players, int n, int64_t *total)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db,
			       "SELECT COUNT(*) FROM games WHERE finished = 0 AND status = 'open' "
			       "AND (white = ?1 OR black = ?1)",
			       -1, &q, NULL) != SQLITE_OK)
		return -1;
	*total = 0;
	double t0 = og_cpu_us();
	for (int i = 0; i < n; i++) {
		sqlite3_bind_int64(q, 1, players[i]);
		if (sqlite3_step(q) != SQLITE_ROW)
			return -1;
		*total += sqlite3_column_int64(q, 0);
		sqlite3_reset(q);
	}
	double us = (og_cpu_us() - t0) / n;
	sqlite3_finalize(q);
	return us;
}

int main(int argc, char **argv)
{
	int games = 200000, n_players = 1000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--games") && i + 1 < argc)
			games = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--players") && i + 1 < argc)
			n_players = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: tchess-open-games [--games N] [--players P]\n");
			return 2;
		}
	}
	if (games < 1 || n_players < 2) {
		fprintf(stderr, "usage: tchess-open-games [--games N] [--players P]\n");
		return 2;
	}
	const char *tmp = getenv("TMPDIR");
	char dir[256], path[300];
	snprintf(dir, sizeof dir, "%s/tchess-open-games-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/s.db", dir);
	struct store_options o = { .sync_full = false };
	char *err = NULL;
	struct store *st = store_open(path, &o, &err);
	if (!st) {
		fprintf(stderr, "tchess-open-games: %s\n", err ? err : "cannot open the store");
		return 1;
	}
	int64_t *players = calloc((size_t)n_players, sizeof *players);
	if (!players || store_begin(st))
		return 1;
	for (int i = 0; i < n_players; i++) {
		char name[32];
		uint8_t h[STORE_HASH_SIZE] = { 0 };
		memcpy(h, &i, sizeof i);
		snprintf(name, sizeof name, "p%d", i);
		if (store_player_create(st, name, h, 1, &players[i]))
			return 1;
	}
	/* Most games finished; one in 50 open (a seek), one in 20 playing. */
	for (int i = 0; i < games; i++) {
		struct store_game g = { .created_ms = i, .white = players[i % n_players],
					.black = players[(i / n_players + i + 1) % n_players], .params = "{}" };
		snprintf(g.id, sizeof g.id, "g%08d", i);
		const char *status = i % 50 == 0 ? "open" : i % 20 == 0 ? "playing" : "over";
		if (i % 50 == 0)
			g.black = 0;
		g.finished = !strcmp(status, "over");
		snprintf(g.status, sizeof g.status, "%s", status);
		if (store_game_create(st, &g))
			return 1;
	}
	if (store_commit(st))
		return 1;
	int64_t with_n, before_n = -1, with_some = 0;
	double with = og_time(st, players, n_players, &with_n);
	/* The scan is slow: the first players only, and the indexed count of
	 * the same ones to check both agree. */
	int some = n_players < 100 ? n_players : 100;
	og_time(st, players, some, &with_some);
	store_close(st);
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "DROP INDEX games_open_white; DROP INDEX games_open_black;", NULL, NULL, NULL) != SQLITE_OK)
		return 1;
	double before = og_time_before(db, players, some, &before_n);
	sqlite3_close(db);
	printf("open games of a player among %d games (%d players, %lld open in all), CPU per count: %.1f us with "
	       "the seats' indexes, %.1f us before them (%.0fx)\n",
	       games, n_players, (long long)with_n, with, before, with > 0 ? before / with : 0.0);
	int rc = with >= 0 && before >= 0 && before_n == with_some ? 0 : 1;
	const char *sfx[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		char p[320];
		snprintf(p, sizeof p, "%s%s", path, sfx[i]);
		unlink(p);
	}
	rmdir(dir);
	free(players);
	return rc;
}
