/*
 * tchess-idle-games: what an unfinished game costs tchessd in memory, and
 * what eviction (tchessd(8), evict_idle_s) saves. It starts a real tchessd
 * on loopback with a temporary database, creates N correspondence games
 * through the API (two players, each game a 10-ply opening, so 13 events
 * and a running clock), and prints the server's RSS:
 *
 *   base      after the two players registered, no game
 *   live      with the N games created (all in memory: the idle time has
 *             not passed)
 *   evicted   after the test clock jumped past the idle time and health
 *             counts N games evicted (glibc may keep freed pages)
 *   restart   after a restart on the same database (every unfinished game
 *             rebuilt; with eviction on, each leaves memory at once)
 *
 * and the bytes per game of each against base. Run it twice, with
 * --evict-idle-s 0 (never: the old behaviour) and with the default, to
 * compare; --sync full (the default of tchessd; normal here, for speed)
 * shows the restart with group commit. Not a pass/fail test.
 *
 * --flag-storm measures the flag timer instead: the N games are 5+0
 * blitz games (10 plies each, White's clock running), created one after
 * another, so their flags are due at N instants spread over the creation
 * time. The test clock then jumps to just before the first, and the
 * flags fall in real time while nothing else happens; it prints the
 * server's CPU time over that window, per flag, and checks that every
 * game ended. (Eviction and the disconnect grace are off, so that the
 * flags are all the timer has to do.) Run it against two tchessd builds
 * to compare their timers.
 *
 * --vacations K times the vacation bookings of a player with the N games
 * (issue 12 item 2): K cycles of a booking (tomorrow, 1 day) and its
 * cancellation by White, with the games in memory, and again once they
 * are evicted (with eviction on); it prints each request's median and
 * worst time and what the database grew by. Before bookings were one row,
 * each wrote an event into every game.
 */
#include <curl/curl.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"

#include "spawn.h"

#define IG_PLIES 10

static const char *const ig_opening[IG_PLIES] = { "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7" };

struct ig {
	const char *tchessd;
	int games;
	int idle_s;
	const char *sync;
	bool storm;
	int vacations;
	char dir[256];
	char base[64];
	pid_t pid;
	CURL *easy;
	struct buf out;
};

static int64_t ig_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static size_t ig_collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* One request; the answer in ig->out (NUL-terminated); returns the status. */
static long ig_call(struct ig *g, const char *method, const char *path, const char *token, const char *body)
{
	char url[512], auth[160];
	snprintf(url, sizeof url, "%s%s", g->base, path);
	buf_reset(&g->out);
	curl_easy_setopt(g->easy, CURLOPT_URL, url);
	curl_easy_setopt(g->easy, CURLOPT_WRITEFUNCTION, ig_collect);
	curl_easy_setopt(g->easy, CURLOPT_WRITEDATA, &g->out);
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	if (token) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
		h = curl_slist_append(h, auth);
	}
	curl_easy_setopt(g->easy, CURLOPT_HTTPHEADER, h);
	if (body)
		curl_easy_setopt(g->easy, CURLOPT_POSTFIELDS, body);
	else
		curl_easy_setopt(g->easy, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(g->easy, CURLOPT_CUSTOMREQUEST, method);
	long status = 0;
	if (curl_easy_perform(g->easy) == CURLE_OK)
		curl_easy_getinfo(g->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(h);
	buf_append(&g->out, "", 1);
	return status;
}

/* The string member name of the last answer (a flat search: enough for
 * the answers read here). */
static bool ig_member(const struct ig *g, const char *name, char *out, size_t size)
{
	char key[64];
	snprintf(key, sizeof key, "\"%s\":\"", name);
	const char *p = g->out.data ? strstr(g->out.data, key) : NULL;
	if (!p)
		return false;
	p += strlen(key);
	size_t n = strcspn(p, "\"");
	if (n >= size)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static long ig_number(const struct ig *g, const char *name)
{
	char key[64];
	snprintf(key, sizeof key, "\"%s\":", name);
	const char *p = g->out.data ? strstr(g->out.data, key) : NULL;
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int ig_start(struct ig *g)
{
	char db[300], conf[300], err[600];
	snprintf(db, sizeof db, "%s/t.db", g->dir);
	snprintf(conf, sizeof conf, "%s/tchessd.conf", g->dir);
	int port;
	/* A restart rebuilds every game: minutes for many. */
	if (spawn_tchessd(g->tchessd, db, conf, "warn", NULL, 600000, &g->pid, &port, err, sizeof err)) {
		fprintf(stderr, "tchess-idle-games: %s\n", err);
		return -1;
	}
	snprintf(g->base, sizeof g->base, "http://127.0.0.1:%d", port);
	return 0;
}

static void ig_stop(struct ig *g)
{
	int st;
	kill(g->pid, SIGTERM);
	waitpid(g->pid, &st, 0);
	g->pid = 0;
}

/* Waits (60 s at most) until health counts want evicted games. */
static long ig_wait_evicted(struct ig *g, long want)
{
	int64_t deadline = ig_now_ms() + 60000;
	long got = -1;
	while (ig_now_ms() < deadline) {
		if (ig_call(g, "GET", "/v1/health", NULL, NULL) == 200 && (got = ig_number(g, "evicted")) == want)
			break;
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	return got;
}

/* --flag-storm, after the games are made (the first at first_ms, the last
 * at last_ms, the bench's clock): the flags fall in real time. */
static int ig_flag_storm(struct ig *g, const char *token, int64_t first_ms, int64_t last_ms)
{
	/* Each flag is due 300 s after its game's 10th ply. */
	int64_t lead = 500;
	int64_t jump = 300000 - (ig_now_ms() - first_ms) - lead;
	char body[64];
	snprintf(body, sizeof body, "{\"advance_ms\":%lld}", (long long)jump);
	double cpu0 = proc_cpu_s(g->pid);
	int64_t t0 = ig_now_ms();
	if (ig_call(g, "POST", "/v1/test/clock", NULL, body) != 200) {
		fprintf(stderr, "test clock: %s\n", g->out.data);
		return -1;
	}
	/* The window: from the jump until a second after the last flag. */
	int64_t end = t0 + lead + (last_ms - first_ms) + 1000;
	while (ig_now_ms() < end) {
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	long cpu = (long)((proc_cpu_s(g->pid) - cpu0) * 1000.0 + 0.5);
	double window = (double)(ig_now_ms() - t0) / 1000.0;
	if (ig_call(g, "GET", "/v1/me/games", token, NULL) != 200) {
		fprintf(stderr, "my games: %s\n", g->out.data);
		return -1;
	}
	int left = 0;
	for (const char *p = g->out.data; (p = strstr(p, "\"id\"")); p++)
		left++;
	printf("flag storm: %d flags due over %.1f s; server CPU %ld ms in the %.1f s window, %.0f us per flag; "
	       "%d games still running\n",
	       g->games, (double)(last_ms - first_ms) / 1000.0, cpu, window, cpu * 1000.0 / g->games, left);
	return left ? -1 : 0;
}

static int ig_cmp_ms(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The database's bytes on disk (with its write-ahead log). */
static long long ig_db_bytes(const struct ig *g)
{
	long long total = 0;
	const char *suffix[] = { "", "-wal" };
	for (int i = 0; i < 2; i++) {
		char path[320];
		struct stat st;
		snprintf(path, sizeof path, "%s/t.db%s", g->dir, suffix[i]);
		if (!stat(path, &st))
			total += (long long)st.st_size;
	}
	return total;
}

/* --vacations: g->vacations booking and cancellation cycles by token's
 * player, timed; what names the games' state (live, evicted). */
static int ig_vacations(struct ig *g, const char *token, const char *what)
{
	int k = g->vacations;
	int64_t *book = calloc((size_t)k, sizeof *book), *cancel = calloc((size_t)k, sizeof *cancel);
	if (!book || !cancel)
		return -1;
	long long db0 = ig_db_bytes(g);
	for (int i = 0; i < k; i++) {
		if (ig_call(g, "GET", "/v1/health", NULL, NULL) != 200)
			return -1;
		char num[32], body[96], path[96];
		const char *p = strstr(g->out.data, "\"now_ms\":");
		time_t tomorrow = (time_t)((p ? strtoll(p + 9, NULL, 10) : 0) / 1000 + 86400);
		struct tm tm;
		gmtime_r(&tomorrow, &tm);
		strftime(num, sizeof num, "%Y-%m-%d", &tm);
		snprintf(body, sizeof body, "{\"start\":\"%s\",\"days\":1}", num);
		int64_t t0 = ig_now_ms();
		if (ig_call(g, "POST", "/v1/me/vacations", token, body) != 201) {
			fprintf(stderr, "book: %s\n", g->out.data);
			return -1;
		}
		int64_t t1 = ig_now_ms();
		snprintf(path, sizeof path, "/v1/me/vacations/%ld", ig_number(g, "id"));
		if (ig_call(g, "DELETE", path, token, NULL) != 200) {
			fprintf(stderr, "cancel: %s\n", g->out.data);
			return -1;
		}
		book[i] = t1 - t0;
		cancel[i] = ig_now_ms() - t1;
	}
	long long grew = ig_db_bytes(g) - db0;
	qsort(book, (size_t)k, sizeof *book, ig_cmp_ms);
	qsort(cancel, (size_t)k, sizeof *cancel, ig_cmp_ms);
	printf("vacations (%s, %d games): %d cycles; book median %lld ms, worst %lld ms; cancel median %lld ms, "
	       "worst %lld ms; database grew %lld bytes\n",
	       what, g->games, k, (long long)book[k / 2], (long long)book[k - 1], (long long)cancel[k / 2],
	       (long long)cancel[k - 1], grew);
	free(book);
	free(cancel);
	return 0;
}

static void ig_report(const struct ig *g, const char *what, long kb, long base_kb)
{
	printf("%-8s RSS %8ld kB   %7.0f bytes/game\n", what, kb, (double)(kb - base_kb) * 1024.0 / g->games);
}

int main(int argc, char **argv)
{
	struct ig g = { .games = 2000, .idle_s = 600, .sync = "normal" };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tchessd") && i + 1 < argc)
			g.tchessd = argv[++i];
		else if (!strcmp(argv[i], "--games") && i + 1 < argc)
			g.games = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--evict-idle-s") && i + 1 < argc)
			g.idle_s = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--sync") && i + 1 < argc)
			g.sync = argv[++i];
		else if (!strcmp(argv[i], "--flag-storm"))
			g.storm = true;
		else if (!strcmp(argv[i], "--vacations") && i + 1 < argc)
			g.vacations = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: tchess-idle-games --tchessd PATH [--games N] [--evict-idle-s S] [--sync full|normal]\n"
				"                         [--flag-storm] [--vacations K]\n");
			return 2;
		}
	}
	if (!g.tchessd || g.games < 1) {
		fprintf(stderr, "usage: tchess-idle-games --tchessd PATH [--games N] [--evict-idle-s S] [--sync full|normal]\n"
				"                         [--flag-storm] [--vacations K]\n");
		return 2;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(g.dir, sizeof g.dir, "%s/tchess-idle-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(g.dir)) {
		perror("mkdtemp");
		return 1;
	}
	char conf[300];
	snprintf(conf, sizeof conf, "%s/tchessd.conf", g.dir);
	FILE *f = fopen(conf, "w");
	if (!f)
		return 1;
	if (g.storm)
		g.idle_s = 0;
	fprintf(f, "sync = %s\nengine_processes = 0\nrate_ip_per_s = 0\nrate_token_per_s = 0\n"
		   "test_clock = on\nevict_idle_s = %d\nvacation_changes_per_day = 1000\n%s",
		g.sync, g.idle_s, g.storm ? "disconnect_grace_ms = 3600000\n" : "");
	fclose(f);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	g.easy = curl_easy_init();
	buf_init(&g.out);
	if (ig_start(&g))
		return 1;

	char token[2][80];
	const char *names[2] = { "white", "black" };
	for (int i = 0; i < 2; i++) {
		char body[64];
		snprintf(body, sizeof body, "{\"name\":\"%s\"}", names[i]);
		if (ig_call(&g, "POST", "/v1/players", NULL, body) != 201 || !ig_member(&g, "token", token[i], 80)) {
			fprintf(stderr, "register: %s\n", g.out.data);
			return 1;
		}
	}
	long base_kb = proc_status_kb(g.pid, "VmRSS");
	int64_t t0 = ig_now_ms();
	for (int n = 0; n < g.games; n++) {
		char id[64], path[160], body[96];
		if (ig_call(&g, "POST", "/v1/games", token[0],
			    g.storm ? "{\"tc\":\"5+0\",\"color\":\"white\"}" : "{\"tc\":\"corr:3d/1\",\"color\":\"white\"}") != 201 ||
		    !ig_member(&g, "id", id, sizeof id)) {
			fprintf(stderr, "create: %s\n", g.out.data);
			return 1;
		}
		snprintf(path, sizeof path, "/v1/games/%s/join", id);
		if (ig_call(&g, "POST", path, token[1], "{}") != 200) {
			fprintf(stderr, "join: %s\n", g.out.data);
			return 1;
		}
		snprintf(path, sizeof path, "/v1/games/%s/moves", id);
		for (int ply = 0; ply < IG_PLIES; ply++) {
			snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, ig_opening[ply]);
			if (ig_call(&g, "POST", path, token[ply % 2], body) != 200) {
				fprintf(stderr, "move: %s\n", g.out.data);
				return 1;
			}
		}
	}
	int64_t t1 = ig_now_ms();
	printf("%d games created in %.1f s; evict_idle_s = %d, sync = %s\n", g.games, (double)(t1 - t0) / 1000.0,
	       g.idle_s, g.sync);
	int rc = 0;
	if (g.storm) {
		rc = ig_flag_storm(&g, token[0], t0, t1) ? 1 : 0;
		ig_stop(&g);
		goto done;
	}
	ig_report(&g, "base", base_kb, base_kb);
	ig_report(&g, "live", proc_status_kb(g.pid, "VmRSS"), base_kb);
	if (g.vacations > 0 && ig_vacations(&g, token[0], "in memory"))
		rc = 1;
	if (g.idle_s > 0) {
		char body[64];
		snprintf(body, sizeof body, "{\"advance_ms\":%lld}", 2000LL * g.idle_s);
		ig_call(&g, "POST", "/v1/test/clock", NULL, body);
		long got = ig_wait_evicted(&g, g.games);
		if (got != g.games)
			printf("only %ld games evicted\n", got);
		ig_report(&g, "evicted", proc_status_kb(g.pid, "VmRSS"), base_kb);
		if (g.vacations > 0 && ig_vacations(&g, token[0], "evicted"))
			rc = 1;
	}
	ig_stop(&g);
	if (ig_start(&g))
		return 1;
	if (g.idle_s > 0)
		ig_wait_evicted(&g, g.games);
	ig_call(&g, "GET", "/v1/health", NULL, NULL);
	printf("restart: %ld games in memory, %ld evicted\n", ig_number(&g, "games"), ig_number(&g, "evicted"));
	ig_report(&g, "restart", proc_status_kb(g.pid, "VmRSS"), base_kb);
	ig_stop(&g);
done:;
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g.dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", g.dir);
	buf_fini(&g.out);
	curl_easy_cleanup(g.easy);
	curl_global_cleanup();
	return rc;
}
