/*
 * Integration tests of tournaments and correspondence play on a real
 * tchessd over loopback: whole round robins played through the API (a
 * 3-player single one with byes, a 4-player double one), their colours
 * against the Berger tables of the published seed, standings and
 * Sonneborn-Berger as tchess/tournament.h computes them (and as checked by
 * hand), shared places, credits debited, refunded and paid; then
 * correspondence deadlines and vacations, with time moved by the server's
 * test-only clock (config "test_clock = on"), never by sleeping.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>

#include "harness.h"
#include "tchess/calendar.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"
#include "tchess/tournament.h"

#define DAY_MS CALENDAR_DAY_MS
#define MINUTE_MS (60 * 1000LL)

struct player {
	char name[16];
	char token[PROTOCOL_TOKEN_MAX + 1];
	int64_t id;
};

static cJSON *get_json(struct tchessd *d, const char *path, const char *token)
{
	char *out;
	long status = http_call(d, "GET", path, token, NULL, 0, &out);
	ck_assert_msg(status == 200, "GET %s: %ld %s", path, status, out);
	cJSON *o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	free(out);
	return o;
}

/* METHOD path with body; expects want; returns the parsed answer. */
static cJSON *call_json(struct tchessd *d, const char *method, const char *path, const char *token, const char *body,
			long want)
{
	char *out;
	long status = http_call(d, method, path, token, body, body ? strlen(body) : 0, &out);
	ck_assert_msg(status == want, "%s %s %s: %ld, want %ld: %s", method, path, body ? body : "", status, want, out);
	cJSON *o = cJSON_Parse(out);
	ck_assert_msg(o != NULL, "%s %s: not JSON: %s", method, path, out);
	free(out);
	return o;
}

static const cJSON *member(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	ck_assert_msg(v != NULL, "no member %s", name);
	return v;
}

static int64_t credits(struct tchessd *d, const struct player *p)
{
	cJSON *me = get_json(d, "/v1/me", p->token);
	int64_t c = jint(me, "credits");
	cJSON_Delete(me);
	return c;
}

static int64_t server_now(struct tchessd *d)
{
	cJSON *h = get_json(d, "/v1/health", NULL);
	int64_t now = jint(h, "now_ms");
	cJSON_Delete(h);
	return now;
}

static void play_move(struct tchessd *d, const char *game, const struct player *p, int ply, const char *uci)
{
	char path[128], body[96];
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, uci);
	cJSON_Delete(call_json(d, "POST", path, p->token, body, 200));
}

/* Ends game with a win for winner: Black wins by fool's mate (1.f3 e5
 * 2.g4 Qh4#), White by Black's resignation. */
static void play_win(struct tchessd *d, const char *game, const struct player *white, const struct player *black,
		     bool white_wins)
{
	char path[128];
	if (white_wins) {
		snprintf(path, sizeof path, "/v1/games/%s/resign", game);
		cJSON_Delete(call_json(d, "POST", path, black->token, "{}", 200));
	} else {
		play_move(d, game, white, 0, "f2f3");
		play_move(d, game, black, 1, "e7e5");
		play_move(d, game, white, 2, "g2g4");
		play_move(d, game, black, 3, "d8h4");
	}
	snprintf(path, sizeof path, "/v1/games/%s", game);
	cJSON *s = get_json(d, path, NULL);
	ck_assert_str_eq(jstr(s, "result"), white_wins ? "1-0" : "0-1");
	ck_assert_str_eq(jstr(s, "termination"), white_wins ? "resignation" : "checkmate");
	cJSON_Delete(s);
}

static int index_of(const struct player *ps, int n, int64_t id)
{
	for (int i = 0; i < n; i++) {
		if (ps[i].id == id)
			return i;
	}
	ck_abort_msg("player %lld is not in the tournament", (long long)id);
	return -1;
}

/* The tournament's games against the Berger tables of its published seed:
 * same rounds, boards and colours, players by registration index. Fills the
 * expected core state into t. */
static void check_tables(const cJSON *tour, const struct player *ps, int n, enum tournament_kind kind,
			 const struct tournament_prizes *prizes, struct tournament *t)
{
	uint64_t seed = strtoull(jstr(tour, "seed"), NULL, 10);
	ck_assert_int_eq(tournament_init(t, n, kind, seed, prizes, NULL), TCHESS_OK);
	const cJSON *games = member(tour, "games");
	ck_assert_int_eq(cJSON_GetArraySize(games), t->n_games);
	int whites[TOURNAMENT_PLAYERS_MAX] = { 0 }, blacks[TOURNAMENT_PLAYERS_MAX] = { 0 };
	for (int i = 0; i < t->n_games; i++) {
		const cJSON *g = cJSON_GetArrayItem(games, i);
		ck_assert_int_eq(jint(g, "index"), i);
		ck_assert_int_eq(jint(g, "round"), t->games[i].round);
		ck_assert_int_eq(jint(g, "board"), t->games[i].board);
		int w = index_of(ps, n, jint(g, "white")), b = index_of(ps, n, jint(g, "black"));
		ck_assert_int_eq(w, t->games[i].white);
		ck_assert_int_eq(b, t->games[i].black);
		ck_assert_str_eq(jstr(g, "outcome"), "pending");
		whites[w]++;
		blacks[b]++;
	}
	/* "each player in the tournament as frequently as the white, the
	 * black stones": odd single RR (n-1)/2 each, double RR n-1 each. */
	for (int p = 0; p < n; p++) {
		int want = kind == TOURNAMENT_DOUBLE ? n - 1 : (n - 1) / 2;
		ck_assert_int_eq(whites[p], want);
		ck_assert_int_eq(blacks[p], want);
	}
}

/* The API's standings against tournament.h's for the same results. */
static void check_standings(struct tchessd *d, const char *tid, const struct player *ps, const struct tournament *t)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/tournaments/%s/standings", tid);
	cJSON *o = get_json(d, path, NULL);
	const cJSON *st = member(o, "standings");
	struct tournament_standing want[TOURNAMENT_PLAYERS_MAX];
	int64_t prize[TOURNAMENT_PLAYERS_MAX];
	tournament_standings(t, want);
	bool paid = tournament_payout(t, prize, NULL, NULL) == TCHESS_OK;
	ck_assert_int_eq(cJSON_GetArraySize(st), t->n_players);
	for (int i = 0; i < t->n_players; i++) {
		const cJSON *s = cJSON_GetArrayItem(st, i);
		ck_assert_int_eq(jint(s, "player"), ps[want[i].player].id);
		ck_assert_int_eq(jint(s, "half_points"), want[i].points);
		ck_assert_int_eq(jint(s, "sb_quarters"), want[i].sb);
		ck_assert_int_eq(jint(s, "place_first"), want[i].place_first);
		ck_assert_int_eq(jint(s, "place_last"), want[i].place_last);
		ck_assert_int_eq(jint(s, "played"), want[i].played);
		if (paid)
			ck_assert_int_eq(jint(s, "prize"), prize[want[i].player]);
		else
			ck_assert(cJSON_IsNull(member(s, "prize")));
	}
	cJSON_Delete(o);
}

/* A 3-player single round robin with a stake of 100: registration,
 * refusal on a low balance, withdrawal with refund, the start with byes,
 * every game played, a three-way shared first place and its prize split. */
START_TEST(test_round_robin_three)
{
	struct tchessd d;
	tchessd_start(&d, NULL);
	struct player ps[4] = { { .name = "ann" }, { .name = "ben" }, { .name = "cid" }, { .name = "dot" } };
	for (int i = 0; i < 4; i++)
		ps[i].id = register_player(&d, ps[i].name, ps[i].token);
	/* The documented starting balance. */
	ck_assert_int_eq(credits(&d, &ps[0]), 1000);

	cJSON *t = call_json(&d, "POST", "/v1/tournaments", ps[0].token,
			     "{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"5+3\",\"stake\":100}", 201);
	char tid[PROTOCOL_GAME_ID_MAX + 1], path[160];
	snprintf(tid, sizeof tid, "%s", jstr(t, "id"));
	ck_assert_str_eq(jstr(t, "status"), "open");
	ck_assert_int_eq(jint(t, "payout_percent"), 100);
	cJSON_Delete(t);
	snprintf(path, sizeof path, "/v1/tournaments/%s/register", tid);

	/* A stake above the balance is refused with 422. */
	cJSON *rich = call_json(&d, "POST", "/v1/tournaments", ps[3].token,
				"{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"5+3\",\"stake\":1001}", 201);
	char rpath[160];
	snprintf(rpath, sizeof rpath, "/v1/tournaments/%s/register", jstr(rich, "id"));
	cJSON_Delete(rich);
	cJSON_Delete(call_json(&d, "POST", rpath, ps[3].token, "{}", 422));
	ck_assert_int_eq(credits(&d, &ps[3]), 1000);

	/* The stake is debited at registration and refunded on withdrawal
	 * before the start. */
	cJSON_Delete(call_json(&d, "POST", path, ps[0].token, "{}", 200));
	ck_assert_int_eq(credits(&d, &ps[0]), 900);
	cJSON_Delete(call_json(&d, "POST", path, ps[0].token, "{}", 409));
	cJSON_Delete(call_json(&d, "POST", path, ps[1].token, "{}", 200));
	ck_assert_int_eq(credits(&d, &ps[1]), 900);
	snprintf(rpath, sizeof rpath, "/v1/tournaments/%s/withdraw", tid);
	cJSON_Delete(call_json(&d, "POST", rpath, ps[1].token, "{}", 200));
	ck_assert_int_eq(credits(&d, &ps[1]), 1000);
	cJSON_Delete(call_json(&d, "POST", rpath, ps[1].token, "{}", 409));
	cJSON_Delete(call_json(&d, "POST", path, ps[1].token, "{}", 200));
	/* The third registration starts it: all games at once. */
	t = call_json(&d, "POST", path, ps[2].token, "{}", 200);
	ck_assert_str_eq(jstr(t, "status"), "running");
	ck_assert_int_eq(jint(t, "pot"), 300);
	ck_assert_int_eq(jint(member(t, "you"), "credits"), 900);
	cJSON_Delete(call_json(&d, "POST", rpath, ps[0].token, "{}", 409));
	cJSON_Delete(call_json(&d, "POST", path, ps[3].token, "{}", 409));

	/* Registration order is ann, ben, cid. */
	struct tournament_prizes prizes = { .stake = 100, .payout_percent = 100, .n_places = 1, .place_percent = { 100 } };
	struct tournament *core = calloc(1, sizeof *core);
	check_tables(t, ps, 3, TOURNAMENT_SINGLE, &prizes, core);
	/* Three rounds, each with one game and one bye, everyone sits out once. */
	const cJSON *byes = member(t, "byes");
	ck_assert_int_eq(cJSON_GetArraySize(byes), 3);
	int sat_out[3] = { 0 };
	for (int i = 0; i < 3; i++)
		sat_out[index_of(ps, 3, jint(cJSON_GetArrayItem(byes, i), "player"))]++;
	ck_assert(sat_out[0] == 1 && sat_out[1] == 1 && sat_out[2] == 1);
	/* Every game exists and White is on the move. */
	const cJSON *games = member(t, "games");
	for (int i = 0; i < 3; i++) {
		char gpath[128];
		snprintf(gpath, sizeof gpath, "/v1/games/%s", jstr(cJSON_GetArrayItem(games, i), "id"));
		cJSON *s = get_json(&d, gpath, NULL);
		ck_assert_str_eq(jstr(s, "status"), "playing");
		ck_assert_str_eq(jstr(member(s, "clock"), "running"), "white");
		cJSON_Delete(s);
	}
	/* The player's games: two each. */
	snprintf(rpath, sizeof rpath, "/v1/tournaments/%s/games?mine=1", tid);
	cJSON *mine = get_json(&d, rpath, ps[0].token);
	ck_assert_int_eq(cJSON_GetArraySize(member(mine, "games")), 2);
	cJSON_Delete(mine);

	/* A cycle: each player beats one other, so all have 1 point and
	 * Sonneborn-Berger 1 (the beaten opponent's 1 point): "If this is also
	 * the same, the players occupy the same place" -- 1-3, and "Profits at
	 * the same ranked players ... divided equally": 300 / 3 each. */
	for (int i = 0; i < 3; i++) {
		const cJSON *g = cJSON_GetArrayItem(games, i);
		int w = index_of(ps, 3, jint(g, "white")), b = index_of(ps, 3, jint(g, "black"));
		/* ann beats ben, ben beats cid, cid beats ann. */
		int winner = (w + 1) % 3 == b ? w : b;
		play_win(&d, jstr(g, "id"), &ps[w], &ps[b], winner == w);
		ck_assert_int_eq(tournament_set_outcome(core, i, winner == w ? TOURNAMENT_WHITE_WINS
									  : TOURNAMENT_BLACK_WINS, NULL),
				 TCHESS_OK);
		if (i < 2)
			check_standings(&d, tid, ps, core);
	}
	cJSON_Delete(t);
	snprintf(rpath, sizeof rpath, "/v1/tournaments/%s", tid);
	t = get_json(&d, rpath, NULL);
	ck_assert_str_eq(jstr(t, "status"), "finished");
	check_standings(&d, tid, ps, core);
	const cJSON *st = member(t, "standings");
	for (int i = 0; i < 3; i++) {
		const cJSON *s = cJSON_GetArrayItem(st, i);
		ck_assert_str_eq(jstr(s, "place"), "1-3");
		ck_assert_int_eq(jint(s, "half_points"), 2);
		ck_assert_int_eq(jint(s, "sb_quarters"), 4);
		ck_assert_int_eq(jint(s, "prize"), 100);
	}
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(credits(&d, &ps[i]), 1000);
	/* The crosstable: ann's row has her win over ben as 2 half-points. */
	const cJSON *rows = member(member(t, "crosstable"), "rows");
	for (int r = 0; r < 3; r++) {
		const cJSON *row = cJSON_GetArrayItem(rows, r);
		if (jint(row, "player") != ps[0].id)
			continue;
		const cJSON *order = member(member(t, "crosstable"), "order");
		for (int c = 0; c < 3; c++) {
			const cJSON *cell = cJSON_GetArrayItem(cJSON_GetArrayItem(member(row, "cells"), c), 0);
			int64_t col = (int64_t)cJSON_GetArrayItem(order, c)->valuedouble;
			if (col == ps[0].id)
				ck_assert(cJSON_IsNull(cell));
			else
				ck_assert_int_eq(jint(cell, "score"), col == ps[1].id ? 2 : 0);
		}
	}
	cJSON_Delete(t);
	free(core);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* A 4-player double round robin, stake 50, prizes 60 % / 40 % of the pot
 * to places 1 and 2. Results (by registration index, both games of each
 * pairing): 0 beats 1 twice, 2 beats 0 twice, 0 and 3 each win with White,
 * 1 beats 2 and 3 twice, 3 beats 2 twice. By hand: points 1: 4, 0: 3,
 * 3: 3, 2: 2; Sonneborn-Berger 0: 2 x 4 + 3 = 11, 3: 3 + 2 x 2 = 7 (so 0
 * is second, 3 third), 1: 2 x 2 + 2 x 3 = 10, 2: 2 x 3 = 6. Pot 200: 120
 * and 80. */
static int drr_winner(int w, int b)
{
	int lo = w < b ? w : b, hi = w < b ? b : w;
	if (lo == 0 && hi == 1)
		return 0;
	if (lo == 0 && hi == 2)
		return 2;
	if (lo == 0 && hi == 3)
		return w;
	if (lo == 1)
		return 1;
	return 3; /* 2 against 3 */
}

START_TEST(test_double_round_robin_four)
{
	struct tchessd d;
	tchessd_start(&d, NULL);
	struct player ps[4] = { { .name = "eve" }, { .name = "fay" }, { .name = "gus" }, { .name = "hal" } };
	for (int i = 0; i < 4; i++)
		ps[i].id = register_player(&d, ps[i].name, ps[i].token);
	cJSON *t = call_json(&d, "POST", "/v1/tournaments", ps[0].token,
			     "{\"kind\":\"double-round-robin\",\"players\":4,\"tc\":\"10+5\",\"stake\":50,"
			     "\"places\":[60,40]}",
			     201);
	char tid[PROTOCOL_GAME_ID_MAX + 1], path[160];
	snprintf(tid, sizeof tid, "%s", jstr(t, "id"));
	cJSON_Delete(t);
	snprintf(path, sizeof path, "/v1/tournaments/%s/register", tid);
	for (int i = 0; i < 3; i++)
		cJSON_Delete(call_json(&d, "POST", path, ps[i].token, "{}", 200));
	t = call_json(&d, "POST", path, ps[3].token, "{}", 200);
	ck_assert_str_eq(jstr(t, "status"), "running");
	struct tournament_prizes prizes = { .stake = 50, .payout_percent = 100, .n_places = 2,
					    .place_percent = { 60, 40 } };
	struct tournament *core = calloc(1, sizeof *core);
	check_tables(t, ps, 4, TOURNAMENT_DOUBLE, &prizes, core);
	ck_assert_int_eq(cJSON_GetArraySize(member(t, "byes")), 0);
	/* "one with the white and black one with the stones" per pairing. */
	const cJSON *games = member(t, "games");
	int as_white[4][4] = { { 0 } };
	for (int i = 0; i < 12; i++) {
		const cJSON *g = cJSON_GetArrayItem(games, i);
		as_white[index_of(ps, 4, jint(g, "white"))][index_of(ps, 4, jint(g, "black"))]++;
	}
	for (int a = 0; a < 4; a++) {
		for (int b = 0; b < 4; b++)
			ck_assert_int_eq(as_white[a][b], a != b);
	}
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(credits(&d, &ps[i]), 950);

	for (int i = 0; i < 12; i++) {
		const cJSON *g = cJSON_GetArrayItem(games, i);
		int w = index_of(ps, 4, jint(g, "white")), b = index_of(ps, 4, jint(g, "black"));
		bool white_wins = drr_winner(w, b) == w;
		play_win(&d, jstr(g, "id"), &ps[w], &ps[b], white_wins);
		tournament_set_outcome(core, i, white_wins ? TOURNAMENT_WHITE_WINS : TOURNAMENT_BLACK_WINS, NULL);
		if (i == 5)
			check_standings(&d, tid, ps, core);
	}
	cJSON_Delete(t);
	check_standings(&d, tid, ps, core);
	char gpath[160];
	snprintf(gpath, sizeof gpath, "/v1/tournaments/%s", tid);
	t = get_json(&d, gpath, ps[1].token);
	ck_assert_str_eq(jstr(t, "status"), "finished");
	/* The hand-checked figures. */
	static const struct {
		int player;
		int half_points, sb_quarters;
		const char *place;
		int prize;
	} want[4] = { { 1, 8, 40, "1", 120 }, { 0, 6, 44, "2", 80 }, { 3, 6, 28, "3", 0 }, { 2, 4, 24, "4", 0 } };
	const cJSON *st = member(t, "standings");
	for (int i = 0; i < 4; i++) {
		const cJSON *s = cJSON_GetArrayItem(st, i);
		ck_assert_int_eq(jint(s, "player"), ps[want[i].player].id);
		ck_assert_int_eq(jint(s, "half_points"), want[i].half_points);
		ck_assert_int_eq(jint(s, "sb_quarters"), want[i].sb_quarters);
		ck_assert_str_eq(jstr(s, "place"), want[i].place);
		ck_assert_int_eq(jint(s, "prize"), want[i].prize);
	}
	ck_assert_int_eq(jint(member(t, "you"), "credits"), 1070);
	ck_assert_int_eq(credits(&d, &ps[0]), 1030);
	ck_assert_int_eq(credits(&d, &ps[2]), 950);
	ck_assert_int_eq(credits(&d, &ps[3]), 950);
	/* The crosstable has two cycles per pairing. */
	ck_assert_int_eq(jint(member(t, "crosstable"), "cycles"), 2);
	cJSON_Delete(t);
	free(core);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* Bad tournament requests never change anything. */
START_TEST(test_tournament_bad_input)
{
	struct tchessd d;
	tchessd_start(&d, NULL);
	struct player p = { .name = "ivy" };
	p.id = register_player(&d, p.name, p.token);
	static const char *const bad[] = {
		"{\"kind\":\"swiss\",\"players\":4,\"tc\":\"5+3\"}",
		"{\"kind\":\"round-robin\",\"players\":2,\"tc\":\"5+3\"}",
		"{\"kind\":\"round-robin\",\"players\":33,\"tc\":\"5+3\"}",
		"{\"kind\":\"round-robin\",\"players\":4,\"tc\":\"banana\"}",
		"{\"kind\":\"round-robin\",\"players\":4,\"tc\":\"5+3\",\"stake\":-1}",
		"{\"kind\":\"round-robin\",\"players\":4,\"tc\":\"5+3\",\"places\":[50,40]}",
		"{\"kind\":\"round-robin\",\"players\":4,\"tc\":\"5+3\",\"extra\":1}",
		"{\"kind\":\"round-robin\",\"players\":\"4\",\"tc\":\"5+3\"}",
		"[]",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cJSON_Delete(call_json(&d, "POST", "/v1/tournaments", p.token, bad[i], 400));
	cJSON_Delete(call_json(&d, "POST", "/v1/tournaments", NULL, "{}", 401));
	cJSON_Delete(call_json(&d, "GET", "/v1/tournaments/0123456789abcdef0123456789abcdef", NULL, NULL, 404));
	cJSON_Delete(call_json(&d, "POST", "/v1/tournaments/nope/register", p.token, "{}", 404));
	cJSON *l = get_json(&d, "/v1/tournaments", NULL);
	ck_assert_int_eq(cJSON_GetArraySize(member(l, "tournaments")), 0);
	cJSON_Delete(l);
	/* Without test_clock the test clock does not exist. */
	cJSON_Delete(call_json(&d, "POST", "/v1/test/clock", NULL, "{\"advance_ms\":1}", 404));
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* A running 3-player tournament of creator's with ruleset: its first
 * game's id and seats (white and black among ps). */
static void tournament_game(struct tchessd *d, struct player *ps, const char *ruleset, char *game, int *white,
			    int *black)
{
	char body[160], path[160], tid[PROTOCOL_GAME_ID_MAX + 1];
	snprintf(body, sizeof body,
		 "{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"5+3\",\"stake\":100,\"ruleset\":\"%s\"}", ruleset);
	cJSON *t = call_json(d, "POST", "/v1/tournaments", ps[0].token, body, 201);
	snprintf(tid, sizeof tid, "%s", jstr(t, "id"));
	cJSON_Delete(t);
	snprintf(path, sizeof path, "/v1/tournaments/%s/register", tid);
	for (int i = 0; i < 2; i++)
		cJSON_Delete(call_json(d, "POST", path, ps[i].token, "{}", 200));
	t = call_json(d, "POST", path, ps[2].token, "{}", 200);
	const cJSON *g = cJSON_GetArrayItem(member(t, "games"), 0);
	snprintf(game, PROTOCOL_GAME_ID_MAX + 1, "%s", jstr(g, "id"));
	*white = index_of(ps, 3, jint(g, "white"));
	*black = index_of(ps, 3, jint(g, "black"));
	cJSON_Delete(t);
}

static long game_status(struct tchessd *d, const char *game)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", game);
	return http_call(d, "GET", path, NULL, NULL, 0, NULL);
}

START_TEST(test_tournament_games_stay)
{
	/* Chessgamble 6.4: "A tournament ends when all the games of the
	 * tournament is finished"; 9.1: "Each lot is documented with all
	 * necessary additional data on the server." Chessgamble has no abort
	 * (its Article 5 ends games by the rules alone), and a tournament
	 * game is never erased, whatever its ruleset says of aborts. */
	struct tchessd d;
	tchessd_start(&d, "aborted_retention_ms = 300\n");
	struct player ps[3] = { { .name = "eve" }, { .name = "fay" }, { .name = "gus" } };
	for (int i = 0; i < 3; i++)
		ps[i].id = register_player(&d, ps[i].name, ps[i].token);
	char game[PROTOCOL_GAME_ID_MAX + 1], path[160];
	int w, b;
	tournament_game(&d, ps, "chessgamble", game, &w, &b);
	snprintf(path, sizeof path, "/v1/games/%s/abort", game);
	cJSON *e = call_json(&d, "POST", path, ps[w].token, "{\"ply\":0}", 422);
	ck_assert_ptr_nonnull(strstr(jstr(e, "message"), "the chessgamble rules have no abort"));
	cJSON_Delete(e);
	play_move(&d, game, &ps[w], 0, "e2e4");
	cJSON_Delete(call_json(&d, "POST", path, ps[b].token, "{\"ply\":1}", 422));
	cJSON_Delete(call_json(&d, "POST", path, ps[b].token, "{\"ply\":1,\"action\":\"accept\"}", 422));
	snprintf(path, sizeof path, "/v1/games/%s", game);
	cJSON *s = get_json(&d, path, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);

	/* A yourpot tournament: Black aborts alone at ply 1, as Yourpot
	 * allows, but the game stays, unscored in the table. */
	tournament_game(&d, ps, "yourpot", game, &w, &b);
	play_move(&d, game, &ps[w], 0, "e2e4");
	snprintf(path, sizeof path, "/v1/games/%s/abort", game);
	cJSON_Delete(call_json(&d, "POST", path, ps[b].token, "{\"ply\":1}", 200));
	/* A casual yourpot game aborted after it is erased ... */
	char casual[PROTOCOL_GAME_ID_MAX + 1];
	create_game_with(&d, ps[0].token, "{\"tc\":\"5+3\",\"color\":\"white\",\"ruleset\":\"yourpot\"}", casual);
	join_game(&d, casual, ps[1].token);
	snprintf(path, sizeof path, "/v1/games/%s/abort", casual);
	cJSON_Delete(call_json(&d, "POST", path, ps[0].token, "{\"ply\":0}", 200));
	int64_t deadline = mono_ms() + 10000;
	while (game_status(&d, casual) != 410)
		ck_assert_msg(mono_ms() < deadline, "the casual aborted game was not erased");
	/* ... the tournament's, aborted first, is still there. */
	ck_assert_int_eq(game_status(&d, game), 200);
	snprintf(path, sizeof path, "/v1/games/%s", game);
	s = get_json(&d, path, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "aborted");
	ck_assert_int_eq(cJSON_GetArraySize(member(s, "moves")), 1);
	cJSON_Delete(s);
	tchessd_stop(&d);
	tchessd_restart(&d);
	ck_assert_int_eq(game_status(&d, game), 200);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_chessgamble_time_controls)
{
	/* Chessgamble Article 7: "correspondence chess: X days for 10 moves
	 * (where X = 10, 20 or 30)" and "chess X minutes (where X = 5, 10, 20
	 * or 30) with or without time credit". "The thinking time system is
	 * selected from the tournament creation and applies to all games of
	 * the tournament." Other controls are refused, the list in the
	 * message, for games and tournaments alike. */
	struct tchessd d;
	tchessd_start(&d, NULL);
	struct player p = { .name = "hal" };
	p.id = register_player(&d, p.name, p.token);
	static const char *const list = "the chessgamble rules allow only corr:10d/10, corr:20d/10, corr:30d/10 and 5, "
					"10, 20 or 30 minutes with or without increment (5+0, 5+3)";
	static const char *const refused[] = { "corr:3d/10", "1+0", "5+d3", "15+10" };
	char body[160];
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		snprintf(body, sizeof body, "{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"%s\"}", refused[i]);
		cJSON *e = call_json(&d, "POST", "/v1/tournaments", p.token, body, 422);
		ck_assert_ptr_nonnull(strstr(jstr(e, "message"), list));
		cJSON_Delete(e);
		snprintf(body, sizeof body, "{\"tc\":\"%s\",\"ruleset\":\"chessgamble\"}", refused[i]);
		e = call_json(&d, "POST", "/v1/games", p.token, body, 422);
		ck_assert_ptr_nonnull(strstr(jstr(e, "message"), list));
		cJSON_Delete(e);
		/* Under fide the same control is fine. */
		snprintf(body, sizeof body, "{\"tc\":\"%s\",\"ruleset\":\"fide\"}", refused[i]);
		cJSON_Delete(call_json(&d, "POST", "/v1/games", p.token, body, 201));
	}
	static const char *const allowed[] = { "corr:20d/10", "30+0", "10+5" };
	for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
		snprintf(body, sizeof body, "{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"%s\"}", allowed[i]);
		cJSON_Delete(call_json(&d, "POST", "/v1/tournaments", p.token, body, 201));
		snprintf(body, sizeof body, "{\"tc\":\"%s\",\"ruleset\":\"chessgamble\"}", allowed[i]);
		cJSON_Delete(call_json(&d, "POST", "/v1/games", p.token, body, 201));
	}
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* ---- correspondence ---- */

/* The t_ms of the game's first event of type. */
static int64_t event_t(struct tchessd *d, const char *game, const char *type)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	cJSON *o = get_json(d, path, NULL);
	const cJSON *ev;
	int64_t t = -1;
	cJSON_ArrayForEach(ev, member(o, "events"))
	{
		if (t < 0 && !strcmp(jstr(ev, "type"), type))
			t = jint(ev, "t_ms");
	}
	cJSON_Delete(o);
	ck_assert_msg(t >= 0, "no %s event", type);
	return t;
}

static cJSON *snap(struct tchessd *d, const char *game)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", game);
	return get_json(d, path, NULL);
}

static char *date_body(int64_t day_ms, int days)
{
	static char body[64];
	char date[CALENDAR_DATE_TEXT_MAX];
	calendar_format_date(day_ms, date, sizeof date);
	snprintf(body, sizeof body, "{\"start\":\"%s\",\"days\":%d}", date, days);
	return body;
}

/* Issue 12 item 2: each booking or cancellation makes every correspondence
 * game of the player's in memory read the bookings again, so their churn is
 * limited (vacation_changes_per_day): past it, 429 saying so, and nothing
 * changes. */
START_TEST(test_vacation_churn_limited)
{
	struct tchessd d;
	tchessd_start(&d, "vacation_changes_per_day = 2");
	struct player a = { .name = "jon" }, b = { .name = "kim" };
	a.id = register_player(&d, a.name, a.token);
	b.id = register_player(&d, b.name, b.token);
	char game[PROTOCOL_GAME_ID_MAX + 1], path[160];
	create_game_with(&d, a.token, "{\"tc\":\"corr:10d/10\",\"color\":\"white\"}", game);
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	cJSON_Delete(call_json(&d, "POST", path, b.token, "{}", 200));
	int64_t tomorrow = (calendar_day_of(server_now(&d)) + 1) * DAY_MS;
	/* A refused booking is not a change and costs nothing. */
	cJSON_Delete(call_json(&d, "POST", "/v1/me/vacations", a.token, "{\"start\":\"2026-13-01\",\"days\":1}", 400));
	cJSON *v = call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(tomorrow, 1), 201);
	char cpath[96];
	snprintf(cpath, sizeof cpath, "/v1/me/vacations/%lld", (long long)jint(v, "id"));
	cJSON_Delete(v);
	cJSON_Delete(call_json(&d, "DELETE", cpath, a.token, NULL, 200));
	v = call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(tomorrow, 1), 429);
	ck_assert_str_eq(jstr(v, "error"), "rate_limited");
	ck_assert_msg(strstr(jstr(v, "message"), "vacation_changes_per_day"), "%s", jstr(v, "message"));
	cJSON_Delete(v);
	cJSON *list = get_json(&d, "/v1/me/vacations", a.token);
	ck_assert_int_eq(cJSON_GetArraySize(member(list, "vacations")), 0);
	cJSON_Delete(list);
	/* Another player's bookings are not charged to jon's. */
	cJSON_Delete(call_json(&d, "POST", "/v1/me/vacations", b.token, date_body(tomorrow, 1), 201));
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* "X days for 10 moves": the deadline is the flag instant; "Holidays are
 * the latest to enter the day before the scheduled start of holiday";
 * "While a player is on vacation, is not its reflection in all his
 * correspondence chess games"; "A player is allowed to perform during his
 * holiday moves"; "For quick chess games is not a vacation". */
START_TEST(test_correspondence_vacation)
{
	struct tchessd d;
	tchessd_start(&d, "test_clock = on");
	struct player a = { .name = "jon" }, b = { .name = "kim" };
	a.id = register_player(&d, a.name, a.token);
	b.id = register_player(&d, b.name, b.token);
	char game[PROTOCOL_GAME_ID_MAX + 1], quick[PROTOCOL_GAME_ID_MAX + 1], path[160];
	create_game_with(&d, a.token, "{\"tc\":\"corr:10d/10\",\"color\":\"white\"}", game);
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	cJSON_Delete(call_json(&d, "POST", path, b.token, "{}", 200));
	int64_t started = event_t(&d, game, "game-started");

	/* The deadline: the start plus 10 days, in the snapshot. */
	cJSON *s = snap(&d, game);
	ck_assert_str_eq(jstr(s, "tc"), "corr:10d/10");
	ck_assert_int_eq(jint(member(s, "clock"), "deadline_ms"), started + 10 * DAY_MS);
	ck_assert_int_eq(jint(member(s, "clock"), "white_ms"), 10 * DAY_MS);
	cJSON_Delete(s);
	/* My games: White's move for jon, not for kim. */
	cJSON *mg = get_json(&d, "/v1/me/games", a.token);
	const cJSON *g0 = cJSON_GetArrayItem(member(mg, "games"), 0);
	ck_assert(cJSON_IsTrue(member(g0, "your_move")));
	ck_assert_int_eq(jint(g0, "deadline_ms"), started + 10 * DAY_MS);
	cJSON_Delete(mg);
	mg = get_json(&d, "/v1/me/games", b.token);
	ck_assert(cJSON_IsFalse(member(cJSON_GetArrayItem(member(mg, "games"), 0), "your_move")));
	cJSON_Delete(mg);

	/* Booking: today is refused, tomorrow accepted, over the allowance
	 * refused (next year's is 60 days: 61 from January 2nd). */
	int64_t now = server_now(&d);
	int64_t today = calendar_day_of(now) * DAY_MS, tomorrow = today + DAY_MS;
	cJSON_Delete(call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(today, 1), 422));
	struct calendar_date next_year = { 0, 1, 2 };
	struct calendar_date td;
	calendar_date_of(now, &td);
	next_year.year = td.year + 1;
	cJSON_Delete(call_json(&d, "POST", "/v1/me/vacations", a.token,
			       date_body(calendar_ms_from_date(&next_year), 61), 422));
	cJSON_Delete(call_json(&d, "POST", "/v1/me/vacations", a.token, "{\"start\":\"2026-13-01\",\"days\":1}",
			       400));
	cJSON *v = call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(tomorrow, 2), 201);
	ck_assert_int_eq(jint(v, "start_ms"), tomorrow);
	ck_assert_int_eq(jint(v, "end_ms"), tomorrow + 2 * DAY_MS);
	cJSON_Delete(v);
	/* An extra booking is cancelled before it starts. */
	v = call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(tomorrow + 5 * DAY_MS, 1), 201);
	char cpath[96];
	snprintf(cpath, sizeof cpath, "/v1/me/vacations/%lld", (long long)jint(v, "id"));
	cJSON_Delete(v);
	cJSON_Delete(call_json(&d, "DELETE", cpath, a.token, NULL, 200));
	cJSON_Delete(call_json(&d, "DELETE", cpath, a.token, NULL, 404));
	cJSON *list = get_json(&d, "/v1/me/vacations", a.token);
	ck_assert_int_eq(cJSON_GetArraySize(member(list, "vacations")), 1);
	cJSON_Delete(list);

	/* The booked vacation moves the deadline two days on, in the snapshot
	 * and in the events answer, which carries jon's booking (the game
	 * holds no event of it: issue 12 item 2). */
	s = snap(&d, game);
	ck_assert_int_eq(jint(member(s, "clock"), "deadline_ms"), started + 12 * DAY_MS);
	const cJSON *sv = cJSON_GetArrayItem(member(member(s, "vacations"), "white"), 0);
	ck_assert_ptr_nonnull(sv);
	ck_assert_int_eq(jint(sv, "start_ms"), tomorrow);
	cJSON_Delete(s);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	cJSON *evs = get_json(&d, path, NULL);
	const cJSON *ev;
	cJSON_ArrayForEach(ev, member(evs, "events"))
		ck_assert_str_ne(jstr(ev, "type"), "vacation");
	const cJSON *ev_vac = member(member(evs, "vacations"), "white");
	ck_assert_int_eq(cJSON_GetArraySize(ev_vac), 1);
	ck_assert_int_eq(jint(cJSON_GetArrayItem(ev_vac, 0), "end_ms"), tomorrow + 2 * DAY_MS);
	ck_assert_int_eq(cJSON_GetArraySize(member(member(evs, "vacations"), "black")), 0);
	cJSON_Delete(evs);

	/* A quick game of jon's, his move, running into the vacation. */
	create_game_with(&d, a.token, "{\"tc\":\"5+3\",\"color\":\"white\"}", quick);
	snprintf(path, sizeof path, "/v1/games/%s/join", quick);
	cJSON_Delete(call_json(&d, "POST", path, b.token, "{}", 200));

	/* Into the vacation: one day in. jon's correspondence clock has
	 * charged only the time before the vacation, in whole minutes. */
	tchessd_advance(&d, tomorrow + DAY_MS - server_now(&d));
	s = snap(&d, game);
	int64_t before = tomorrow - started;
	ck_assert_int_eq(jint(member(s, "clock"), "white_ms"), 10 * DAY_MS - (before - before % MINUTE_MS));
	ck_assert_int_eq(jint(member(s, "clock"), "deadline_ms"), started + 12 * DAY_MS);
	cJSON_Delete(s);
	list = get_json(&d, "/v1/me/vacations", a.token);
	ck_assert(cJSON_IsTrue(member(list, "on_vacation")));
	/* Started: it cannot be cancelled any more. */
	const cJSON *booked = cJSON_GetArrayItem(member(list, "vacations"), 0);
	ck_assert(cJSON_IsFalse(member(booked, "cancellable")));
	snprintf(cpath, sizeof cpath, "/v1/me/vacations/%lld", (long long)jint(booked, "id"));
	cJSON_Delete(list);
	cJSON_Delete(call_json(&d, "DELETE", cpath, a.token, NULL, 409));
	/* The quick game's clock did not stop: it has run out. */
	s = snap(&d, quick);
	ck_assert_int_eq(jint(member(s, "clock"), "white_ms"), 0);
	cJSON_Delete(s);

	/* A move during the vacation is allowed and charges only the time
	 * before it; a client folding the log (with the answer's vacations)
	 * accepts the move's charge. */
	play_move(&d, game, &a, 0, "e2e4");
	s = snap(&d, game);
	const cJSON *m0 = cJSON_GetArrayItem(member(s, "moves"), 0);
	ck_assert_int_eq(jint(m0, "clock_ms"), 10 * DAY_MS - (before - before % MINUTE_MS));
	struct game_view folded;
	fold_game(&d, game, NULL, &folded);
	ck_assert_int_eq(folded.game.n_plies, 1);
	ck_assert_int_eq(folded.plies[0].charged_ms, before - before % MINUTE_MS);
	fold_view_fini(&folded);
	/* Now kim's clock runs; kim is not on vacation. */
	int64_t moved = jint(m0, "t_ms");
	ck_assert_int_eq(jint(member(s, "clock"), "deadline_ms"), moved + 10 * DAY_MS);
	cJSON_Delete(s);
	play_move(&d, game, &b, 1, "e7e5");

	/* After the vacation: jon's clock runs again from its end. */
	tchessd_advance(&d, tomorrow + 2 * DAY_MS + 3600 * 1000 - server_now(&d));
	s = snap(&d, game);
	int64_t kim_moved = jint(cJSON_GetArrayItem(member(s, "moves"), 1), "t_ms");
	int64_t left = 10 * DAY_MS - (before - before % MINUTE_MS);
	int64_t used = jint(s, "now_ms") - (tomorrow + 2 * DAY_MS);
	ck_assert_int_gt(kim_moved, tomorrow);
	ck_assert_int_eq(jint(member(s, "clock"), "white_ms"), left - (used - used % MINUTE_MS));
	ck_assert_int_eq(jint(member(s, "clock"), "deadline_ms"), tomorrow + 2 * DAY_MS + left);
	cJSON_Delete(s);

	/* The state survives a restart: the vacation is jon's row, and the
	 * replay charges the move with it as it was charged. */
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_restart(&d);
	cJSON_Delete(call_json(&d, "POST", "/v1/test/clock", NULL, "{\"advance_ms\":0}", 200));
	s = snap(&d, game);
	ck_assert_int_eq(jint(cJSON_GetArrayItem(member(s, "moves"), 0), "clock_ms"), left);
	cJSON_Delete(s);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

#define ONE_ROW_GAMES 8

/* Each game's seq and deadline into seq[] and deadline[]. */
static void games_read(struct tchessd *d, char games[][PROTOCOL_GAME_ID_MAX + 1], int64_t *seq, int64_t *deadline)
{
	for (int i = 0; i < ONE_ROW_GAMES; i++) {
		cJSON *s = snap(d, games[i]);
		seq[i] = jint(s, "seq");
		deadline[i] = jint(member(s, "clock"), "deadline_ms");
		cJSON_Delete(s);
	}
}

/* Issue 12 item 2: a booking is recorded once, not written into each of
 * the player's correspondence games (before: one "vacation" event per
 * game, 575-690 ms under the lock at 6,000 games). The games consult it:
 * the deadlines of those where jon is to move move on by the vacation,
 * the others' do not, and no game's log grows -- for a booking, after a
 * kill -9 and a restart, and for the cancellation. */
START_TEST(test_vacation_one_row)
{
	struct tchessd d;
	tchessd_start(&d, NULL);
	struct player a = { .name = "jon" }, b = { .name = "kim" };
	a.id = register_player(&d, a.name, a.token);
	b.id = register_player(&d, b.name, b.token);
	char games[ONE_ROW_GAMES][PROTOCOL_GAME_ID_MAX + 1], path[400];
	for (int i = 0; i < ONE_ROW_GAMES; i++) {
		/* Even games: jon is White, to move; odd ones: kim is. */
		bool jon_white = i % 2 == 0;
		create_game_with(&d, jon_white ? a.token : b.token, "{\"tc\":\"corr:10d/10\",\"color\":\"white\"}",
				 games[i]);
		snprintf(path, sizeof path, "/v1/games/%s/join", games[i]);
		cJSON_Delete(call_json(&d, "POST", path, jon_white ? b.token : a.token, "{}", 200));
	}
	int64_t seq0[ONE_ROW_GAMES], dl0[ONE_ROW_GAMES], seq[ONE_ROW_GAMES], dl[ONE_ROW_GAMES];
	games_read(&d, games, seq0, dl0);
	int64_t tomorrow = (calendar_day_of(server_now(&d)) + 1) * DAY_MS;
	cJSON *v = call_json(&d, "POST", "/v1/me/vacations", a.token, date_body(tomorrow, 3), 201);
	char cpath[96];
	snprintf(cpath, sizeof cpath, "/v1/me/vacations/%lld", (long long)jint(v, "id"));
	cJSON_Delete(v);
	for (int round = 0; round < 2; round++) {
		games_read(&d, games, seq, dl);
		for (int i = 0; i < ONE_ROW_GAMES; i++) {
			ck_assert_msg(seq[i] == seq0[i], "round %d game %d: seq %lld, was %lld: the booking was written "
				      "into it", round, i, (long long)seq[i], (long long)seq0[i]);
			ck_assert_int_eq(dl[i], dl0[i] + (i % 2 == 0 ? 3 * DAY_MS : 0));
		}
		if (round == 1)
			break;
		/* The booking must survive a crash: killed, not stopped. The
		 * restart resumes each running clock (one clock-resumed event
		 * per game, tchess-protocol(7)) and writes nothing else. */
		ck_assert_int_eq(kill(d.pid, SIGKILL), 0);
		int st;
		ck_assert_int_eq(waitpid(d.pid, &st, 0), d.pid);
		tchessd_restart(&d);
		for (int i = 0; i < ONE_ROW_GAMES; i++) {
			snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", games[i], (long long)seq0[i]);
			cJSON *evs = get_json(&d, path, NULL);
			const cJSON *ev;
			cJSON_ArrayForEach(ev, member(evs, "events"))
				ck_assert_str_eq(jstr(ev, "type"), "clock-resumed");
			seq0[i] = jint(evs, "seq");
			cJSON_Delete(evs);
			/* The downtime moved every deadline on: what the
			 * vacation adds is measured on a client's fold, with
			 * and without the vacations the answer carries. */
			struct game_view f;
			fold_game(&d, games[i], NULL, &f);
			int64_t without = clock_expiry(&f.clock, NULL);
			ck_assert_int_eq(fold_clock_expiry(&f) - without, i % 2 == 0 ? 3 * DAY_MS : 0);
			dl0[i] = without;
			fold_view_fini(&f);
		}
	}
	/* A client folding a game after the restart sees jon's vacation. */
	struct game_view folded;
	fold_game(&d, games[0], NULL, &folded);
	ck_assert_int_eq(folded.n_vacations[WHITE], 1);
	ck_assert_int_eq(folded.vacations[WHITE][0].start_ms, tomorrow);
	ck_assert_int_eq(folded.n_vacations[BLACK], 0);
	ck_assert_int_eq(fold_clock_expiry(&folded), dl0[0] + 3 * DAY_MS);
	fold_view_fini(&folded);
	cJSON_Delete(call_json(&d, "DELETE", cpath, a.token, NULL, 200));
	games_read(&d, games, seq, dl);
	for (int i = 0; i < ONE_ROW_GAMES; i++) {
		ck_assert_int_eq(seq[i], seq0[i]);
		ck_assert_int_eq(dl[i], dl0[i]);
	}
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

static Suite *tournaments_suite(void)
{
	Suite *s = suite_create("tournaments");
	TCase *tc = tcase_create("tournaments");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_robin_three);
	tcase_add_test(tc, test_double_round_robin_four);
	tcase_add_test(tc, test_tournament_bad_input);
	tcase_add_test(tc, test_tournament_games_stay);
	tcase_add_test(tc, test_chessgamble_time_controls);
	tcase_add_test(tc, test_correspondence_vacation);
	tcase_add_test(tc, test_vacation_churn_limited);
	tcase_add_test(tc, test_vacation_one_row);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(tournaments_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
