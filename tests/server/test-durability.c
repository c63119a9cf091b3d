/*
 * Durability under group commit (server.h): many games move at once, each
 * watched by a spectator's long-poll, and tchessd is killed with SIGKILL in
 * the middle of it, with moves in flight. After the restart every move that
 * was acknowledged (200) is in the game's log, and so is every move a
 * spectator was shown: a client never learns of a move a crash takes back.
 * Run with sync = full (commits grouped under one fsync, answers and polls
 * held until it) and sync = normal (every commit shown when it returns).
 *
 * A third test slows the fsync down (sync_delay_ms) and checks that
 * neither the mover's answer nor a parked spectator's comes before it.
 *
 * The players and spectators run on threads with their own curl handles
 * and record what they were told; only the main thread asserts.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "harness.h"
#include "tchess/fold.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/position.h"
#include "tchess/protocol.h"

#define DUR_GAMES 12
#define DUR_PLIES_MAX 300
/* Acknowledged moves, over all games, before the kill. */
#define DUR_KILL_AFTER 150

struct dgame {
	struct tchessd *d;
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char token[2][PROTOCOL_TOKEN_MAX + 1]; /* white, black */
	unsigned seed;
	/* What the mover was told: the moves acknowledged, in order. */
	char acked[DUR_PLIES_MAX][8];
	int n_acked;
	/* What the spectator was shown. */
	char seen[DUR_PLIES_MAX][8];
	int n_seen;
	char problem[256]; /* the first unexpected answer, "" if none */
};

static pthread_mutex_t dur_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dur_cond = PTHREAD_COND_INITIALIZER;
static int dur_total_acked;
static atomic_bool dur_stop;

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* One request on the thread's own handle; returns the status, 0 when the
 * server is gone (refused, reset, no answer). */
static long dcall(CURL *e, const struct tchessd *d, const char *method, const char *path, const char *token,
		  const char *body, struct buf *out)
{
	char url[512], auth[256];
	snprintf(url, sizeof url, "%s%s", d->base, path);
	buf_reset(out);
	curl_easy_reset(e);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	if (token) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
		h = curl_slist_append(h, auth);
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
	if (body)
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	long status = 0;
	if (curl_easy_perform(e) == CURLE_OK)
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(h);
	return status;
}

/* Records what went wrong first: "what: answer (status)". */
static void problem(struct dgame *g, const char *what, const char *answer, long status)
{
	pthread_mutex_lock(&dur_lock);
	if (!g->problem[0])
		snprintf(g->problem, sizeof g->problem, "%s: %s (%ld)", what, answer ? answer : "", status);
	pthread_mutex_unlock(&dur_lock);
}

/* Plays random legal moves for both seats until the game ends, the server
 * dies or the test stops. */
static void *mover_main(void *arg)
{
	struct dgame *g = arg;
	CURL *e = curl_easy_init();
	struct buf out;
	buf_init(&out);
	struct position pos;
	position_init_start(&pos);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
	for (int ply = 0; ply < DUR_PLIES_MAX && !atomic_load(&dur_stop); ply++) {
		struct move_list list;
		if (movegen_legal(&pos, &list) <= 0)
			break;
		move m = list.moves[rand_r(&g->seed) % (unsigned)list.count];
		char uci[8], body[64];
		uci_write(&pos, m, uci);
		snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, uci);
		long status = dcall(e, g->d, "POST", path, g->token[ply % 2], body, &out);
		if (status == 0)
			break; /* killed */
		if (status != 200) {
			/* 409: the server ended the game (a draw rule). */
			if (status != 409)
				problem(g, "move", out.data, status);
			break;
		}
		pthread_mutex_lock(&dur_lock);
		snprintf(g->acked[g->n_acked++], sizeof g->acked[0], "%s", uci);
		dur_total_acked++;
		pthread_cond_signal(&dur_cond);
		pthread_mutex_unlock(&dur_lock);
		struct undo u;
		position_make(&pos, m, &u);
	}
	buf_fini(&out);
	curl_easy_cleanup(e);
	return NULL;
}

/* Appends the move events of an events answer to moves; returns its seq,
 * or -1 if it does not decode. */
static int64_t move_events(const char *json, char (*moves)[8], int *n)
{
	struct protocol_events evs;
	struct protocol_error err;
	if (protocol_events_decode(json, strlen(json), &evs, &err))
		return -1;
	if (evs.resync) {
		/* Far behind: the snapshot holds every move from the start. */
		struct game_view v;
		fold_view_init(&v);
		if (fold_view_from_snapshot(&v, evs.snapshot, strlen(evs.snapshot), NULL, &err)) {
			fold_view_fini(&v);
			protocol_events_fini(&evs);
			return -1;
		}
		struct position p = v.game.start;
		for (*n = 0; (size_t)*n < v.game.n_plies && *n < DUR_PLIES_MAX; (*n)++) {
			struct undo u;
			uci_write(&p, v.game.plies[*n].m, moves[*n]);
			position_make(&p, v.game.plies[*n].m, &u);
		}
		fold_view_fini(&v);
	}
	for (size_t i = 0; i < evs.n; i++) {
		if (strcmp(evs.events[i].type, "move") || *n == DUR_PLIES_MAX)
			continue;
		cJSON *o = cJSON_Parse(evs.events[i].data);
		const cJSON *uci = cJSON_GetObjectItemCaseSensitive(o, "uci");
		snprintf(moves[(*n)++], sizeof moves[0], "%s", cJSON_IsString(uci) ? uci->valuestring : "?");
		cJSON_Delete(o);
	}
	int64_t seq = evs.seq;
	protocol_events_fini(&evs);
	return seq;
}

/* Long-polls the game's events as a spectator, recording every move shown. */
static void *spectator_main(void *arg)
{
	struct dgame *g = arg;
	CURL *e = curl_easy_init();
	struct buf out;
	buf_init(&out);
	int64_t after = 0;
	while (!atomic_load(&dur_stop)) {
		char path[160];
		snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", g->id, (long long)after);
		long status = dcall(e, g->d, "GET", path, NULL, NULL, &out);
		if (status == 0)
			break;
		if (status != 200) {
			problem(g, "events", out.data, status);
			break;
		}
		pthread_mutex_lock(&dur_lock);
		int64_t seq = move_events(out.data, g->seen, &g->n_seen);
		pthread_mutex_unlock(&dur_lock);
		if (seq < 0) {
			problem(g, "events do not decode", out.data, status);
			break;
		}
		after = seq;
	}
	buf_fini(&out);
	curl_easy_cleanup(e);
	return NULL;
}

static void run_kill9(const char *config)
{
	static struct dgame games[DUR_GAMES];
	struct tchessd d;
	memset(games, 0, sizeof games);
	dur_total_acked = 0;
	atomic_store(&dur_stop, false);
	tchessd_start(&d, config);
	for (int i = 0; i < DUR_GAMES; i++) {
		struct dgame *g = &games[i];
		char name[32], path[128];
		g->d = &d;
		g->seed = 1000u + (unsigned)i;
		snprintf(name, sizeof name, "white%d", i);
		register_player(&d, name, g->token[0]);
		snprintf(name, sizeof name, "black%d", i);
		register_player(&d, name, g->token[1]);
		create_game_with(&d, g->token[0], "{\"tc\":\"-\",\"color\":\"white\"}", g->id);
		snprintf(path, sizeof path, "/v1/games/%s/join", g->id);
		ck_assert_int_eq(http_call(&d, "POST", path, g->token[1], "{}", 2, NULL), 200);
	}
	pthread_t movers[DUR_GAMES], spectators[DUR_GAMES];
	for (int i = 0; i < DUR_GAMES; i++) {
		ck_assert_int_eq(pthread_create(&spectators[i], NULL, spectator_main, &games[i]), 0);
		ck_assert_int_eq(pthread_create(&movers[i], NULL, mover_main, &games[i]), 0);
	}

	/* Kill while the movers still move (moves in flight, polls parked). */
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 30;
	pthread_mutex_lock(&dur_lock);
	while (dur_total_acked < DUR_KILL_AFTER &&
	       pthread_cond_timedwait(&dur_cond, &dur_lock, &until) == 0)
		;
	int acked_at_kill = dur_total_acked;
	pthread_mutex_unlock(&dur_lock);
	ck_assert_msg(acked_at_kill >= DUR_KILL_AFTER, "only %d moves acknowledged in 30 s", acked_at_kill);
	ck_assert_int_eq(kill(d.pid, SIGKILL), 0);
	int st;
	ck_assert_int_eq(waitpid(d.pid, &st, 0), d.pid);
	atomic_store(&dur_stop, true);
	for (int i = 0; i < DUR_GAMES; i++) {
		pthread_join(movers[i], NULL);
		pthread_join(spectators[i], NULL);
	}

	tchessd_restart(&d);
	int total_seen = 0;
	for (int i = 0; i < DUR_GAMES; i++) {
		struct dgame *g = &games[i];
		ck_assert_msg(!g->problem[0], "game %d: %s", i, g->problem);
		char path[160], *out;
		snprintf(path, sizeof path, "/v1/games/%s/events?after=0", g->id);
		ck_assert_int_eq(http_call(&d, "GET", path, NULL, NULL, 0, &out), 200);
		static char logged[DUR_PLIES_MAX][8];
		int n = 0;
		ck_assert_int_ge(move_events(out, logged, &n), 1);
		free(out);
		/* "No acknowledged move lost on kill -9". */
		ck_assert_msg(n >= g->n_acked, "game %d: %d moves acknowledged, %d after the restart", i,
			      g->n_acked, n);
		for (int p = 0; p < g->n_acked; p++)
			ck_assert_str_eq(g->acked[p], logged[p]);
		/* A spectator never saw a move that the crash took back. */
		ck_assert_msg(n >= g->n_seen, "game %d: a spectator saw %d moves, %d after the restart", i,
			      g->n_seen, n);
		for (int p = 0; p < g->n_seen; p++)
			ck_assert_str_eq(g->seen[p], logged[p]);
		total_seen += g->n_seen;
	}
	/* The spectators did follow the games (not a vacuous pass). */
	ck_assert_int_gt(total_seen, DUR_KILL_AFTER / 2);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}

/* The spectator of the ordering test: one long-poll, and when it ended. */
struct watch {
	struct tchessd *d;
	char path[160];
	long status;
	struct buf body;
	int64_t done_ms;
};

static void *watch_main(void *arg)
{
	struct watch *w = arg;
	CURL *e = curl_easy_init();
	w->status = dcall(e, w->d, "GET", w->path, NULL, NULL, &w->body);
	w->done_ms = mono_ms();
	curl_easy_cleanup(e);
	return NULL;
}

START_TEST(test_nothing_shown_before_fsync)
{
	/* With a disk that takes 400 ms per fsync (sync_delay_ms), a move is
	 * acknowledged, and shown to a parked spectator, only after the fsync
	 * that covers it: never in the window where a power loss could still
	 * take it back. */
	struct tchessd d;
	tchessd_start(&d, "sync = full\nsync_delay_ms = 400\npoll_timeout_ms = 10000");
	char white[PROTOCOL_TOKEN_MAX + 1], black[PROTOCOL_TOKEN_MAX + 1], id[PROTOCOL_GAME_ID_MAX + 1];
	char path[160], *out;
	register_player(&d, "white", white);
	register_player(&d, "black", black);
	create_game_with(&d, white, "{\"tc\":\"-\",\"color\":\"white\"}", id);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	ck_assert_int_eq(http_call(&d, "POST", path, black, "{}", 2, NULL), 200);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", id);
	ck_assert_int_eq(http_call(&d, "GET", path, NULL, NULL, 0, &out), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(out, strlen(out), &evs, &err), 0);
	free(out);
	int64_t seq = evs.seq;
	protocol_events_fini(&evs);

	struct watch w = { .d = &d };
	buf_init(&w.body);
	snprintf(w.path, sizeof w.path, "/v1/games/%s/events?after=%lld", id, (long long)seq);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, watch_main, &w), 0);
	int64_t deadline = mono_ms() + 10000;
	while (parked_polls(&d) < 1)
		ck_assert_msg(mono_ms() < deadline, "the spectator's poll did not park");

	int64_t t0 = mono_ms();
	snprintf(path, sizeof path, "/v1/games/%s/moves", id);
	const char *mv = "{\"ply\":0,\"move\":\"e4\"}";
	ck_assert_int_eq(http_call(&d, "POST", path, white, mv, strlen(mv), NULL), 200);
	int64_t t1 = mono_ms();
	pthread_join(th, NULL);
	ck_assert_msg(t1 - t0 >= 400, "the move was acknowledged %lld ms after it was sent, before its fsync",
		      (long long)(t1 - t0));
	ck_assert_int_eq(w.status, 200);
	ck_assert_ptr_nonnull(strstr(w.body.data, "\"uci\":\"e2e4\""));
	ck_assert_msg(w.done_ms - t0 >= 400, "the spectator saw the move %lld ms after it was sent, before its fsync",
		      (long long)(w.done_ms - t0));
	buf_fini(&w.body);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&d)), 0);
	tchessd_cleanup(&d);
}
END_TEST

START_TEST(test_kill9_group_commit)
{
	run_kill9("poll_timeout_ms = 3000\nsync = full\nrate_token_per_s = 0");
}
END_TEST

START_TEST(test_kill9_sync_normal)
{
	run_kill9("poll_timeout_ms = 3000\nsync = normal\nrate_token_per_s = 0");
}
END_TEST

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	Suite *s = suite_create("durability");
	TCase *tc = tcase_create("kill9");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, test_nothing_shown_before_fsync);
	tcase_add_test(tc, test_kill9_group_commit);
	tcase_add_test(tc, test_kill9_sync_normal);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? 1 : 0;
}
