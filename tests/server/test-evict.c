/*
 * Eviction of idle games (tchessd(8), evict_idle_s) against the real
 * tchessd: a game nobody touched for the idle time leaves memory and comes
 * back, by the replay of start-up, on the next access or when the timer
 * needs it; no client may tell. The idle time is a minute and the test
 * clock (test_clock = on) jumps past it, so nothing waits for real time
 * (and a slow run cannot evict a game behind the test's back):
 * every wait is for a count in GET /v1/health ("games" in memory,
 * "evicted" let go) or an event, with a deadline.
 *
 * Answers before and after an eviction are compared as JSON with what
 * depends on the instant of the answer taken out (now_ms, and a
 * snapshot's clock reading, which counts down); everything else, the
 * clock's inner state included, must be equal.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "harness.h"
#include "tchess/game.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"

#define EV_CONF "test_clock = on\nevict_idle_s = 60\npoll_timeout_ms = 20000\nrate_token_per_s = 0\n"
/* Three days per move: the jumps past the idle time cost nobody a flag. */
#define EV_CORR "\"tc\":\"corr:3d/1\""
#define EV_DAY_MS 86400000LL

static void health(struct tchessd *d, int64_t *games, int64_t *evicted)
{
	char *out;
	ck_assert_int_eq(http_call(d, "GET", "/v1/health", NULL, NULL, 0, &out), 200);
	cJSON *o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	*games = jint(o, "games");
	*evicted = jint(o, "evicted");
	cJSON_Delete(o);
	free(out);
}

/* Waits (10 s at most) until health shows games in memory and evicted
 * records. */
static void wait_counts(struct tchessd *d, int64_t games, int64_t evicted)
{
	int64_t deadline = mono_ms() + 10000;
	int64_t g, e;
	for (;;) {
		health(d, &g, &e);
		if (g == games && e == evicted)
			return;
		ck_assert_msg(mono_ms() < deadline, "health: %lld games, %lld evicted; want %lld and %lld",
			      (long long)g, (long long)e, (long long)games, (long long)evicted);
		struct timespec ts = { 0, 2 * 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* Jumps past the idle time (twice it: tchessd rounds the instant a game
 * goes up a little) and waits until the n games are out. */
static void evict_all(struct tchessd *d, int64_t n)
{
	tchessd_advance(d, 2 * 60000);
	wait_counts(d, 0, n);
}

/* Takes out what depends on the instant of the answer. */
static void strip_instant(cJSON *o)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, "now_ms");
	if (cJSON_GetObjectItemCaseSensitive(o, "moves"))
		cJSON_DeleteItemFromObjectCaseSensitive(o, "clock"); /* a snapshot's reading */
	cJSON *snap = cJSON_GetObjectItemCaseSensitive(o, "snapshot");
	if (cJSON_IsObject(snap))
		strip_instant(snap);
}

/* GET path as token: the status and the answer with the instant taken
 * out, printed (caller frees). */
static char *get_plain(struct tchessd *d, const char *path, const char *token, long want)
{
	char *out;
	long status = http_call(d, "GET", path, token, NULL, 0, &out);
	ck_assert_msg(status == want, "GET %s: %ld %s", path, status, out);
	cJSON *o = cJSON_Parse(out);
	ck_assert_msg(o != NULL, "GET %s: not JSON: %s", path, out);
	free(out);
	strip_instant(o);
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static char *post_plain(struct table *t, const char *what, const char *token, const char *body, long want)
{
	char *out;
	long status = table_command(t, "POST", what, token, body, &out);
	ck_assert_msg(status == want, "POST %s %s: %ld %s", what, body, status, out);
	cJSON *o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	free(out);
	strip_instant(o);
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static int64_t seq_of(const char *json)
{
	cJSON *o = cJSON_Parse(json);
	ck_assert_ptr_nonnull(o);
	int64_t seq = jint(o, "seq");
	cJSON_Delete(o);
	return seq;
}

START_TEST(test_evicted_game_same)
{
	/* A game evicted and then read or moved in answers exactly as it
	 * did in memory: the snapshots of both seats and a spectator, the
	 * events (private ones to their owner only), the next seq, a retried
	 * move and a stale one. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	table_ok(&t, "moves", t.alice, "{\"ply\":2,\"move\":\"Nf3\"}");
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.alice, "{\"text\":\"keep the bishop\"}", NULL), 201);
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":3,\"action\":\"offer\"}"), 1);

	char game_path[128], events0[160], events_late[160];
	snprintf(game_path, sizeof game_path, "/v1/games/%s", t.game);
	snprintf(events0, sizeof events0, "/v1/games/%s/events?after=0", t.game);
	char *snap_c = get_plain(&t.d, game_path, NULL, 200);
	int64_t seq = seq_of(snap_c);
	ck_assert_int_ge(seq, 6);
	snprintf(events_late, sizeof events_late, "/v1/games/%s/events?after=%lld", t.game, (long long)seq - 2);
	struct {
		const char *path, *token;
		char *before;
	} reads[] = {
		{ game_path, NULL, snap_c },
		{ game_path, t.alice, NULL },
		{ game_path, t.bob, NULL },
		{ events0, NULL, NULL },
		{ events0, t.alice, NULL },
		{ events0, t.bob, NULL },
		{ events_late, t.carol, NULL },
	};
	size_t n = sizeof reads / sizeof reads[0];
	for (size_t i = 1; i < n; i++)
		reads[i].before = get_plain(&t.d, reads[i].path, reads[i].token, 200);
	/* The note is alice's alone. */
	ck_assert_ptr_nonnull(strstr(reads[4].before, "keep the bishop"));
	ck_assert_ptr_null(strstr(reads[5].before, "keep the bishop"));

	for (size_t i = 0; i < n; i++) {
		evict_all(&t.d, 1);
		char *after = get_plain(&t.d, reads[i].path, reads[i].token, 200);
		ck_assert_str_eq(after, reads[i].before);
		/* A seat's read is its presence and brought the game back;
		 * anyone else's was served from a replay that stays out of
		 * memory (issue 12 item 5). */
		bool seat = reads[i].token == t.alice || reads[i].token == t.bob;
		wait_counts(&t.d, seat ? 1 : 0, seat ? 0 : 1);
		free(after);
		free(reads[i].before);
	}

	/* A move on an evicted game gets the next seq; its retry, on the
	 * game evicted again, is answered with the same event; a stale ply
	 * names the current seq. */
	evict_all(&t.d, 1);
	char *moved = post_plain(&t, "moves", t.bob, "{\"ply\":3,\"move\":\"Nc6\"}", 200);
	ck_assert_int_eq(seq_of(moved), seq + 1);
	ck_assert_ptr_nonnull(strstr(moved, "\"san\":\"Nc6\""));
	evict_all(&t.d, 1);
	char *retried = post_plain(&t, "moves", t.bob, "{\"ply\":3,\"move\":\"Nc6\"}", 200);
	ck_assert_str_eq(retried, moved);
	evict_all(&t.d, 1);
	char *stale = post_plain(&t, "moves", t.bob, "{\"ply\":3,\"move\":\"a6\"}", 409);
	ck_assert_int_eq(seq_of(stale), seq + 1);
	free(moved);
	free(retried);
	free(stale);

	/* GET /v1/me/games lists an evicted game as any other. */
	evict_all(&t.d, 1);
	char *out;
	ck_assert_int_eq(http_call(&t.d, "GET", "/v1/me/games", t.alice, NULL, 0, &out), 200);
	ck_assert_msg(strstr(out, t.game) != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\"your_move\":true"));
	free(out);
	table_close(&t);
}
END_TEST

START_TEST(test_parked_poll_keeps_game)
{
	/* A game someone's long-poll is parked on stays in memory however
	 * long it idles; a game nobody watches goes. The unwatched game's
	 * eviction shows the timer looked at both. The parked poll then
	 * gets the next move. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	char other[PROTOCOL_GAME_ID_MAX + 1];
	create_game_with(&t.d, t.carol, "{" EV_CORR ",\"color\":\"white\"}", other);
	join_game(&t.d, other, t.bob);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"d4\"}");
	cJSON *snap = table_snapshot(&t, NULL);
	int64_t seq = jint(snap, "seq");
	cJSON_Delete(snap);

	struct poll_req p;
	poll_start(&p, &t.d, t.game, seq, NULL);
	poll_wait_parked(&p, &t.d, 1);
	/* Touched after the park, so the pass that evicts it comes after the
	 * park too. */
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", other);
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, NULL), 200);
	tchessd_advance(&t.d, 2 * 60000);
	wait_counts(&t.d, 1, 1);
	ck_assert(!poll_run(&p, 0));
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"d5\"}");
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&p, 100))
		ck_assert_msg(mono_ms() < deadline, "the parked poll got no answer");
	ck_assert_int_eq(p.status, 200);
	ck_assert_msg(strstr(p.body.data, "\"san\":\"d5\"") != NULL, "%s", p.body.data);
	poll_fini(&p);
	table_close(&t);
}
END_TEST

START_TEST(test_flag_falls_evicted)
{
	/* "The server alone decides flag fall, by a timer that fires whether
	 * or not anyone is connected": black's three days run out while the
	 * game is out of memory and nobody asks about it. The timer brings
	 * it back by itself (health shows it in memory before anyone reads
	 * it) and ends it on time. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	cJSON *snap = table_snapshot(&t, NULL);
	int64_t deadline_ms = jint(jobj(snap, "clock"), "deadline_ms");
	cJSON_Delete(snap);
	evict_all(&t.d, 1);
	tchessd_advance(&t.d, 3 * EV_DAY_MS);
	wait_counts(&t.d, 1, 0);
	cJSON *end = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(end, "termination"), "timeout");
	ck_assert_str_eq(jstr(end, "result"), "1-0");
	ck_assert_int_ge(jint(end, "t_ms"), deadline_ms);
	cJSON_Delete(end);
	table_close(&t);
}
END_TEST

START_TEST(test_finished_game_no_record)
{
	/* A finished game needs nothing that only memory knows, so it
	 * leaves memory without a record (a long-running server does not
	 * keep one per game it ever served) and reads back the same from the
	 * store. While a rematch offer stands, its lapse is a deadline: the
	 * record stays until then (in a quick game: a correspondence offer
	 * stands until answered). */
	struct table t;
	table_open(&t, EV_CONF "disconnect_grace_ms = 600000\n", "\"tc\":\"10+0\"");
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	ck_assert_int_eq(table_ok(&t, "resign", t.alice, "{}"), 1);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", t.game);
	char *before = get_plain(&t.d, path, NULL, 200);
	evict_all(&t.d, 0);
	char *after = get_plain(&t.d, path, NULL, 200);
	ck_assert_str_eq(after, before);
	/* Read from a replay that stays out of memory (issue 12 item 5). */
	wait_counts(&t.d, 0, 0);
	free(before);
	free(after);

	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"offer\"}"), 1);
	evict_all(&t.d, 1);
	/* Both graces run out: the timer brings the game back, the offer
	 * lapses, and the game then goes without a record. */
	tchessd_advance(&t.d, 600000);
	cJSON *e = table_wait_event(&t, "presence");
	cJSON_Delete(e);
	evict_all(&t.d, 0);
	cJSON *snap = table_snapshot(&t, NULL);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(jobj(snap, "offers"), "rematch")));
	cJSON_Delete(snap);
	table_close(&t);
}
END_TEST

START_TEST(test_kill9_after_eviction)
{
	/* With sync = full a game leaves memory only once its events are
	 * durable: a move acknowledged on a game brought back, the game
	 * evicted again, then kill -9: after the restart the log holds every
	 * event that was shown, in order. */
	struct table t;
	table_open(&t, EV_CONF "sync = full\n", EV_CORR);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"c4\"}");
	evict_all(&t.d, 1);
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	evict_all(&t.d, 1);
	char path[160];
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t.game);
	char *before;
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, &before), 200);
	struct protocol_events a, b;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(before, strlen(before), &a, &err), 0);
	free(before);
	ck_assert_int_eq(kill(t.d.pid, SIGKILL), 0);
	waitpid(t.d.pid, NULL, 0);
	tchessd_restart(&t.d);
	char *after;
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, &after), 200);
	ck_assert_int_eq(protocol_events_decode(after, strlen(after), &b, &err), 0);
	free(after);
	/* The restart adds its clock-resumed event after them. */
	ck_assert_uint_ge(b.n, a.n);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_int_eq(a.events[i].seq, b.events[i].seq);
		ck_assert_str_eq(a.events[i].type, b.events[i].type);
		ck_assert_str_eq(a.events[i].data, b.events[i].data);
	}
	ck_assert_ptr_nonnull(strstr(a.events[a.n - 1].data, "\"uci\":\"e7e5\""));
	protocol_events_fini(&a);
	protocol_events_fini(&b);
	table_close(&t);
}
END_TEST

START_TEST(test_old_seq_after_eviction)
{
	/* Polls from an old seq on an evicted game: one far behind gets the
	 * resync answer (the snapshot and the caller's notes), one a little
	 * behind the events, exactly as before the eviction. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.bob, "{\"text\":\"trade queens\"}", NULL), 201);
	struct game g;
	ck_assert_int_eq(game_init(&g, NULL, NULL, NULL), TCHESS_OK);
	uint64_t rng = 88172645463325252ULL;
	for (int ply = 0; ply < 72; ply++) {
		struct move_list list;
		char uci[UCI_MAX], body[64];
		movegen_legal(&g.pos, &list);
		ck_assert_int_gt(list.count, 0);
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		move m = list.moves[rng % (uint64_t)list.count];
		uci_write(&g.pos, m, uci);
		snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, uci);
		table_ok(&t, "moves", ply % 2 ? t.bob : t.alice, body);
		ck_assert_int_eq(game_play(&g, (enum color)(ply % 2), m, ply, 0, NULL), TCHESS_OK);
		ck_assert(!game_is_over(&g));
	}
	game_fini(&g);
	cJSON *snap = table_snapshot(&t, NULL);
	int64_t seq = jint(snap, "seq");
	cJSON_Delete(snap);
	char far[160], near[160];
	snprintf(far, sizeof far, "/v1/games/%s/events?after=1", t.game);
	snprintf(near, sizeof near, "/v1/games/%s/events?after=%lld", t.game, (long long)seq - 5);
	const char *paths[] = { far, far, near };
	const char *tokens[] = { NULL, t.bob, t.alice };
	for (size_t i = 0; i < 3; i++) {
		char *before = get_plain(&t.d, paths[i], tokens[i], 200);
		evict_all(&t.d, 1);
		char *after = get_plain(&t.d, paths[i], tokens[i], 200);
		ck_assert_str_eq(after, before);
		if (paths[i] == far) {
			ck_assert_ptr_nonnull(strstr(after, "\"resync\":true"));
			/* bob's note is his while the game runs. */
			if (tokens[i])
				ck_assert_ptr_nonnull(strstr(after, "trade queens"));
			else
				ck_assert_ptr_null(strstr(after, "trade queens"));
		} else {
			ck_assert_ptr_null(strstr(after, "\"resync\""));
		}
		free(before);
		free(after);
	}
	table_close(&t);
}
END_TEST

START_TEST(test_invalid_count_survives)
{
	/* tchess-protocol(7): "a seat that sends more than the ruleset's
	 * limit (10 in every preset) forfeits, ending the game
	 * technical-failure with reason invalid-commands"; tchessd(8), IDLE
	 * GAMES: the record that stays keeps "each seat's last request and
	 * invalid-command count". Bob sends 7 (422s and a 400), the game
	 * leaves memory and comes back on his next one: 3 more (10 in all)
	 * leave it running, through a second eviction; the 11th forfeits. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	for (int i = 0; i < 6; i++)
		table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e2e4\"}", 422, NULL);
	table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":[]}", 400, NULL);
	evict_all(&t.d, 1);
	for (int i = 0; i < 3; i++) {
		table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e1e2\"}", 422, NULL);
		/* Each refusal brought it back (or found it in memory). */
		wait_counts(&t.d, 1, 0);
	}
	evict_all(&t.d, 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	evict_all(&t.d, 1);
	table_refused(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"nonsense\"}", 400, NULL);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "over");
	ck_assert_str_eq(jstr(s, "result"), "1-0");
	ck_assert_str_eq(jstr(s, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(s, "reason"), "invalid-commands");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_invalid_count_reset_survives)
{
	/* "A success resets the count" -- and the reset is what the record
	 * keeps: 9 invalid, a success, eviction, then 10 invalid leave the
	 * game running; the same 9 without the success would have ended it.
	 * White's own count is hers: her 10 refusals before the eviction
	 * and bob's 10 after it end nothing, her 11th does. */
	struct table t;
	table_open(&t, EV_CONF, EV_CORR);
	for (int i = 0; i < 9; i++)
		table_refused(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e5\"}", 422, NULL);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"d4\"}");
	for (int i = 0; i < 10; i++)
		table_refused(&t, "moves", t.alice, "{\"ply\":1,\"move\":[]}", 400, NULL);
	evict_all(&t.d, 1);
	for (int i = 0; i < 10; i++)
		table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"d4d5\"}", 422, NULL);
	evict_all(&t.d, 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	evict_all(&t.d, 1);
	table_refused(&t, "moves", t.alice, "{\"ply\":1,\"move\":[]}", 400, NULL);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "0-1");
	ck_assert_str_eq(jstr(s, "reason"), "invalid-commands");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

/* The server's wall clock (test clock included), by a spectator's
 * snapshot: it touches nobody's presence. */
static int64_t server_now(struct table *t)
{
	cJSON *s = table_snapshot(t, NULL);
	int64_t now = jint(s, "now_ms");
	cJSON_Delete(s);
	return now;
}

/* GET events?after=0 as token: an answer at once, the seat's presence. */
static void seat_poll(struct table *t, const char *token)
{
	char path[160];
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t->game);
	ck_assert_int_eq(http_call(&t->d, "GET", path, token, NULL, 0, NULL), 200);
}

START_TEST(test_grace_survives)
{
	/* tchessd(8): the disconnect grace runs from the seat's last
	 * request ("no request and no parked poll for the grace"), and the
	 * record of an evicted game keeps "each seat's last request"; the
	 * flag timer brings the game back for "the disconnect grace". Alice
	 * is silent after her move; bob's requests bring the game back
	 * twice, so only his last request moves. Alice's grace (400 s) then
	 * runs out while the game is out of memory: the timer brings it
	 * back and she is gone, adjourning the game (yourpot), at the first
	 * look after her last request + 400 s -- as without the evictions,
	 * not 400 s after a reload. */
	struct table t;
	table_open(&t, EV_CONF "disconnect_grace_ms = 400000\n", "\"tc\":\"60+0\",\"ruleset\":\"yourpot\"");
	/* mono0 before the server reads t0, so that the real time since
	 * mono0 is at least the time since t0 (to the millisecond each
	 * clock is read to: the 1 below). */
	int64_t mono0 = mono_ms();
	int64_t t0 = server_now(&t);
	table_ok(&t, "moves", t.alice, "{\"ply\":0,\"move\":\"e4\"}");
	table_ok(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}");
	/* t0 + 120 s, then + 240 s: out, and back by bob's request. */
	for (int i = 0; i < 2; i++) {
		evict_all(&t.d, 1);
		seat_poll(&t, t.bob);
		wait_counts(&t.d, 1, 0);
	}
	/* t0 + 360 s: out again, nobody gone yet. */
	evict_all(&t.d, 1);
	/* t0 + 410 s: past alice's deadline (t0 + 400 s at the latest, her
	 * move having come after t0), short of bob's (t0 + 640 s). */
	tchessd_advance(&t.d, 50000);
	wait_counts(&t.d, 1, 0);
	cJSON *e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "present")));
	int64_t gone_ms = jint(e, "t_ms");
	cJSON_Delete(e);
	ck_assert_int_ge(gone_ms, t0 + 400000);
	/* No later than the jump's instant plus the real time since t0. */
	ck_assert_int_le(gone_ms, t0 + 410000 + (mono_ms() - mono0) + 1);
	e = table_wait_event(&t, "game-adjourned");
	ck_assert_str_eq(jstr(e, "reason"), "disconnect");
	ck_assert_int_eq(jint(e, "t_ms"), gone_ms);
	cJSON_Delete(e);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "adjourned");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	Suite *s = suite_create("tchessd eviction");
	TCase *tc = tcase_create("evict");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_evicted_game_same);
	tcase_add_test(tc, test_parked_poll_keeps_game);
	tcase_add_test(tc, test_flag_falls_evicted);
	tcase_add_test(tc, test_finished_game_no_record);
	tcase_add_test(tc, test_kill9_after_eviction);
	tcase_add_test(tc, test_old_seq_after_eviction);
	tcase_add_test(tc, test_invalid_count_survives);
	tcase_add_test(tc, test_invalid_count_reset_survives);
	tcase_add_test(tc, test_grace_survives);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
