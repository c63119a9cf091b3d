/*
 * tchess-engine-attack: issue 12 item 3's attack on the engine queue,
 * replayed at full scale against a real tchessd on loopback with real
 * engines. A player starts an engine game; then A accounts create G
 * engine games between them (level L, time control TC, the engine White
 * so that every one asks for a move at once) from as many threads, all
 * within about a second, and never move; then the player moves. It
 * prints the answers to the G creations (201, 429 per player, 503 in
 * all), how long the player's engine took to answer its first move and
 * what its clock was charged, and, once every attack game is over, how
 * many of them the engine lost on time (its flag fell while it waited)
 * and how many the idle accounts lost on time. Not a pass/fail test.
 *
 *   tchess-engine-attack --tchessd PATH [--engine PATH] [--accounts A] [--games G]
 *                        [--level L] [--tc TC] [--engine-processes N] [--engine-games N]
 *
 * The defaults are the review's: 8 accounts, 40 level-8 games on 10s+0,
 * /usr/games/stockfish, and the server's own engine settings (its
 * engine_processes, engine_games and engine_games_per_player defaults)
 * unless --engine-processes or --engine-games is given. Loopback is exempt from the rate
 * limits, so what refuses a creation is the engine caps alone.
 */
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"
#include "util/buf.h"

#define EA_MAX_GAMES 400
#define EA_MAX_ACCOUNTS 64

static char base[64];
static const char *tc = "10s+0";
static int level = 8;

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* One request on easy; the answer parsed into *out (NULL if it is not
 * JSON; caller deletes); returns the status (0: no answer). */
static long call(CURL *easy, const char *method, const char *path, const char *token, const char *body, cJSON **out)
{
	char url[256], auth[128];
	snprintf(url, sizeof url, "%s%s", base, path);
	struct buf b;
	buf_init(&b);
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	if (token) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
		h = curl_slist_append(h, auth);
	}
	curl_easy_setopt(easy, CURLOPT_URL, url);
	curl_easy_setopt(easy, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 60000L);
	if (body) {
		curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	} else {
		curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(easy, CURLOPT_WRITEDATA, &b);
	long status = 0;
	if (curl_easy_perform(easy) == CURLE_OK)
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(h);
	buf_append(&b, "", 1);
	if (out)
		*out = cJSON_Parse(b.data);
	buf_fini(&b);
	return status;
}

static const char *str_of(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static int64_t num_of(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

/* Registers name; its token into token (80 bytes). */
static bool register_as(CURL *easy, const char *name, char *token)
{
	char body[96];
	cJSON *o;
	snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
	long s = call(easy, "POST", "/v1/players", NULL, body, &o);
	snprintf(token, 80, "%s", str_of(o, "token"));
	cJSON_Delete(o);
	return s == 201 && token[0];
}

struct account {
	pthread_t thread;
	char token[80];
	int games;    /* creations to send */
	long status[EA_MAX_GAMES];
	char id[EA_MAX_GAMES][40];
	char why[160]; /* the first refusal's message */
};

static void *account_main(void *arg)
{
	struct account *a = arg;
	CURL *easy = curl_easy_init();
	char body[160];
	snprintf(body, sizeof body, "{\"tc\":\"%s\",\"color\":\"black\",\"opponent\":\"engine\",\"level\":%d}", tc, level);
	for (int i = 0; i < a->games; i++) {
		cJSON *o;
		a->status[i] = call(easy, "POST", "/v1/games", a->token, body, &o);
		snprintf(a->id[i], sizeof a->id[i], "%s", a->status[i] == 201 ? str_of(o, "id") : "");
		if (a->status[i] != 201 && !a->why[0])
			snprintf(a->why, sizeof a->why, "%s", str_of(o, "message"));
		cJSON_Delete(o);
	}
	curl_easy_cleanup(easy);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *bin = NULL, *engine = "/usr/games/stockfish";
	int n_accounts = 8, n_games = 40, processes = 0, engine_games = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tchessd") && i + 1 < argc)
			bin = argv[++i];
		else if (!strcmp(argv[i], "--engine") && i + 1 < argc)
			engine = argv[++i];
		else if (!strcmp(argv[i], "--accounts") && i + 1 < argc)
			n_accounts = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--games") && i + 1 < argc)
			n_games = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--level") && i + 1 < argc)
			level = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--tc") && i + 1 < argc)
			tc = argv[++i];
		else if (!strcmp(argv[i], "--engine-processes") && i + 1 < argc)
			processes = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--engine-games") && i + 1 < argc)
			engine_games = atoi(argv[++i]);
		else
			bin = NULL, i = argc;
	}
	if (!bin || n_accounts < 1 || n_accounts > EA_MAX_ACCOUNTS || n_games < 1 || n_games > EA_MAX_GAMES ||
	    level < 1 || level > 8 || processes < 0 || processes > 16 || engine_games < 0 || strlen(tc) > 16 ||
	    strspn(tc, "0123456789s+") != strlen(tc)) {
		fprintf(stderr, "usage: tchess-engine-attack --tchessd PATH [--engine PATH] [--accounts 1..64] "
				"[--games 1..400] [--level 1..8] [--tc TC] [--engine-processes 1..16] "
				"[--engine-games N]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	char dir[] = "/tmp/tchess-engine-attack-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char db[128], conf[128], log[128], err[256];
	snprintf(db, sizeof db, "%s/ea.db", dir);
	snprintf(conf, sizeof conf, "%s/tchessd.conf", dir);
	snprintf(log, sizeof log, "%s/tchessd.log", dir);
	FILE *f = fopen(conf, "w");
	fprintf(f, "engine = %s\nrate_exempt = 127.0.0.1\n", engine);
	if (processes)
		fprintf(f, "engine_processes = %d\n", processes);
	if (engine_games)
		fprintf(f, "engine_games = %d\n", engine_games);
	fclose(f);
	pid_t pid;
	int port;
	if (spawn_tchessd(bin, db, conf, "warn", log, 20000, &pid, &port, err, sizeof err)) {
		fprintf(stderr, "tchessd: %s\n", err);
		return 1;
	}
	snprintf(base, sizeof base, "http://127.0.0.1:%d", port);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	CURL *easy = curl_easy_init();
	int rc = 1;

	/* The player's game: 5+0 against a level-1 engine, the player White. */
	char me[80], game[40], path[160];
	cJSON *o;
	if (!register_as(easy, "ea-player", me)) {
		fprintf(stderr, "cannot register\n");
		goto out;
	}
	long s = call(easy, "POST", "/v1/games", me, "{\"tc\":\"5+0\",\"color\":\"white\",\"opponent\":\"engine\",\"level\":1}",
		      &o);
	snprintf(game, sizeof game, "%s", str_of(o, "id"));
	cJSON_Delete(o);
	if (s != 201) {
		fprintf(stderr, "the player's game: %ld\n", s);
		goto out;
	}

	/* The attack. */
	struct account *acc = calloc((size_t)n_accounts, sizeof *acc);
	for (int k = 0; k < n_accounts; k++) {
		char name[32];
		snprintf(name, sizeof name, "ea-attacker%d", k);
		if (!register_as(easy, name, acc[k].token)) {
			fprintf(stderr, "cannot register %s\n", name);
			goto out;
		}
		acc[k].games = n_games / n_accounts + (k < n_games % n_accounts);
	}
	int64_t t0 = mono_ms();
	for (int k = 0; k < n_accounts; k++)
		pthread_create(&acc[k].thread, NULL, account_main, &acc[k]);
	for (int k = 0; k < n_accounts; k++)
		pthread_join(acc[k].thread, NULL);
	int64_t burst_ms = mono_ms() - t0;
	int n201 = 0, n429 = 0, n503 = 0, other = 0;
	const char *why429 = "", *why503 = "";
	for (int k = 0; k < n_accounts; k++) {
		for (int i = 0; i < acc[k].games; i++) {
			long st = acc[k].status[i];
			n201 += st == 201;
			n429 += st == 429;
			n503 += st == 503;
			other += st != 201 && st != 429 && st != 503;
		}
	}
	/* The refusals' reasons: one 429 and one 503 message, as sent. */
	for (int k = 0; k < n_accounts; k++) {
		if (strstr(acc[k].why, "per_player") && !why429[0])
			why429 = acc[k].why;
		else if (acc[k].why[0] && !strstr(acc[k].why, "per_player") && !why503[0])
			why503 = acc[k].why;
	}

	/* The player moves now, and waits for the engine's answer. */
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	int64_t moved = mono_ms();
	s = call(easy, "POST", path, me, "{\"ply\":0,\"move\":\"e4\"}", NULL);
	if (s != 200) {
		fprintf(stderr, "the player's move: %ld\n", s);
		goto out;
	}
	int64_t waited = -1, charged = -1;
	snprintf(path, sizeof path, "/v1/games/%s", game);
	while (mono_ms() - moved < 120000) {
		call(easy, "GET", path, me, NULL, &o);
		int64_t ply = num_of(o, "ply");
		if (ply >= 2) {
			waited = mono_ms() - moved;
			const cJSON *clock = cJSON_GetObjectItemCaseSensitive(o, "clock");
			charged = 300000 - num_of(clock, "black_ms");
		}
		bool over = !strcmp(str_of(o, "status"), "over");
		cJSON_Delete(o);
		if (ply >= 2 || over)
			break;
		usleep(20 * 1000);
	}

	/* Every attack game to its end: the engine White moved or lost on
	 * time; the idle account Black then lost on time. */
	int engine_flagged = 0, idle_flagged = 0, ended_otherwise = 0, unfinished = 0;
	char other_end[160] = "";
	int64_t deadline = mono_ms() + 180000;
	for (int k = 0; k < n_accounts; k++) {
		for (int i = 0; i < acc[k].games; i++) {
			if (acc[k].status[i] != 201)
				continue;
			snprintf(path, sizeof path, "/v1/games/%s", acc[k].id[i]);
			for (;;) {
				call(easy, "GET", path, NULL, NULL, &o);
				bool over = !strcmp(str_of(o, "status"), "over");
				if (over) {
					bool flag = !strcmp(str_of(o, "termination"), "timeout");
					const char *result = str_of(o, "result");
					engine_flagged += flag && !strcmp(result, "0-1");
					idle_flagged += flag && !strcmp(result, "1-0");
					ended_otherwise += !flag;
					if (!flag && !other_end[0])
						snprintf(other_end, sizeof other_end, "%s %s (%s)", result,
							 str_of(o, "termination"), str_of(o, "reason"));
				}
				cJSON_Delete(o);
				if (over)
					break;
				if (mono_ms() > deadline) {
					unfinished++;
					break;
				}
				usleep(200 * 1000);
			}
		}
	}
	printf("engine attack: %d accounts, %d level-%d engine games on %s, sent in %lld ms\n", n_accounts, n_games,
	       level, tc, (long long)burst_ms);
	printf("answers: %d created (201), %d refused per player (429), %d refused in all (503), %d other\n", n201,
	       n429, n503, other);
	if (why429[0])
		printf("  429: %s\n", why429);
	if (why503[0])
		printf("  503: %s\n", why503);
	printf("the other player's engine (level 1, 5+0): first move after %lld ms, its clock charged %lld ms\n",
	       (long long)waited, (long long)charged);
	printf("attack games: %d lost on time by the engine, %d by the idle account, %d ended otherwise, %d not over\n",
	       engine_flagged, idle_flagged, ended_otherwise, unfinished);
	if (other_end[0])
		printf("  the first that ended otherwise: %s\n", other_end);
	rc = waited < 0 || unfinished;
out:
	curl_easy_cleanup(easy);
	curl_global_cleanup();
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (rc)
		fprintf(stderr, "tchessd's log kept in %s\n", log);
	else if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return rc;
}
