/*
 * tchessd test harness; see harness.h. Besides starting and stopping the
 * binary and the HTTP calls, it holds the setup and the reading helpers
 * that the game tests (actions, games, series, security, tournaments)
 * share: the three-player table and the JSON member readers.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "pgtest.h"
#include "spawn.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"
#include "util/xalloc.h"

int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts tchessd on d's folder; fsize_limit (0: none) is the largest file
 * it may write (RLIMIT_FSIZE, inherited across the fork). */
static void spawn_limited(struct tchessd *d, rlim_t fsize_limit)
{
	const char *bin = getenv("TCHESSD");
	ck_assert_msg(bin != NULL, "TCHESSD is not set");
	const char *level = d->level[0] ? d->level : getenv("TCHESSD_LOG_LEVEL");
	char conf[300], log[300], err[600];
	snprintf(conf, sizeof conf, "%s/tchessd.conf", d->dir);
	snprintf(log, sizeof log, "%s/tchessd.log", d->dir);
	int port;
	struct rlimit mine;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &mine), 0);
	if (fsize_limit) {
		/* Until the child has it: no check call writes its messages
		 * (a file) meanwhile. */
		struct rlimit full = { fsize_limit, mine.rlim_max };
		if (setrlimit(RLIMIT_FSIZE, &full))
			abort();
	}
	int rc = spawn_tchessd(bin, d->db, conf, level ? level : "warn", d->log_file ? log : NULL, 10000, &d->pid,
			       &port, err, sizeof err);
	if (fsize_limit && setrlimit(RLIMIT_FSIZE, &mine))
		abort();
	ck_assert_msg(rc == 0, "%s", err);
	d->port = port;
	snprintf(d->base, sizeof d->base, "http://127.0.0.1:%d", port);
}

bool tchessd_postgresql(void)
{
	return pgtest_enabled();
}

int harness_main_postgresql(const char *name, int timeout, const TTest *const *tests, size_t n)
{
	if (!pgtest_enabled()) {
		fprintf(stderr, "SKIP: no test PostgreSQL cluster (run under tests/server/with-postgresql)\n");
		return 77;
	}
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, timeout);
	for (size_t i = 0; i < n; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

/* The database of this tchessd: a file in its folder, or a new database
 * of the test cluster. */
static void make_db(struct tchessd *d)
{
	char err[256];
	if (!pgtest_enabled())
		snprintf(d->db, sizeof d->db, "%s/t.db", d->dir);
	else
		ck_assert_msg(pgtest_create(d->db, sizeof d->db, err, sizeof err) == 0, "%s", err);
}

/* The folder and config file of a tchessd about to start; db is made
 * (NULL) or another's (a node joining its database). */
static void start_on(struct tchessd *d, const char *config, const char *level, bool log_file, const char *db)
{
	memset(d, 0, sizeof *d);
	snprintf(d->level, sizeof d->level, "%s", level ? level : "");
	d->log_file = log_file;
	const char *tmp = getenv("TMPDIR");
	snprintf(d->dir, sizeof d->dir, "%s/tchessd-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(d->dir));
	char conf[300];
	snprintf(conf, sizeof conf, "%s/tchessd.conf", d->dir);
	FILE *f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	/* Tests write to tmpfs or a scratch disk; fsync per commit only slows
	 * them. Engine seats are off unless config turns them on (a later line
	 * wins): a stockfish start-up at every tchessd start costs a tenth of
	 * a second, more on a loaded machine. */
	fprintf(f, "sync = normal\nengine_processes = 0\n%s\n", config ? config : "");
	fclose(f);
	if (db)
		snprintf(d->db, sizeof d->db, "%s", db);
	else
		make_db(d);
	spawn_limited(d, 0);
}

static void start(struct tchessd *d, const char *config, const char *level, bool log_file)
{
	start_on(d, config, level, log_file, NULL);
}

void tchessd_start_node(struct tchessd *d, const struct tchessd *first, const char *config)
{
	start_on(d, config, NULL, false, first->db);
}

void tchessd_start_node_logged(struct tchessd *d, const struct tchessd *first, const char *config, const char *level)
{
	start_on(d, config, level, true, first->db);
}

char *file_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	struct buf b;
	buf_init(&b);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	buf_append(&b, "", 1);
	return buf_steal(&b);
}

bool tchessd_log_has(const struct tchessd *d, const char *text)
{
	char path[300];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	if (access(path, R_OK))
		return false;
	char *log = file_slurp(path);
	bool found = strstr(log, text) != NULL;
	free(log);
	return found;
}

void tchessd_start(struct tchessd *d, const char *config)
{
	start(d, config, NULL, false);
}

void tchessd_start_logged(struct tchessd *d, const char *config, const char *level)
{
	start(d, config, level, true);
}

void tchessd_restart(struct tchessd *d)
{
	spawn_limited(d, 0);
}

void tchessd_restart_disk_full(struct tchessd *d)
{
	spawn_limited(d, 1);
}

int tchessd_stop(struct tchessd *d)
{
	ck_assert_int_eq(kill(d->pid, SIGTERM), 0);
	int64_t deadline = mono_ms() + 10000;
	int status = 0;
	for (;;) {
		pid_t r = waitpid(d->pid, &status, WNOHANG);
		if (r == d->pid)
			break;
		ck_assert_msg(mono_ms() < deadline, "tchessd did not exit within 10 s of SIGTERM");
		struct timespec ts = { 0, 5 * 1000000 };
		nanosleep(&ts, NULL);
	}
	d->pid = 0;
	return status;
}

void tchessd_cleanup(struct tchessd *d)
{
	const char *names[] = { "t.db", "t.db-wal", "t.db-shm", "tchessd.conf", "tchessd.log" };
	char path[300];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", d->dir, names[i]);
		unlink(path);
	}
	rmdir(d->dir);
	if (pgtest_enabled())
		pgtest_drop(d->db);
}

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

static long call(struct tchessd *d, const char *method, const char *path, struct curl_slist *headers,
		 const char *body, size_t body_len, char **out)
{
	CURL *e = curl_easy_init();
	ck_assert_ptr_nonnull(e);
	char url[512];
	snprintf(url, sizeof url, "%s%s", d->base, path);
	struct buf b;
	buf_init(&b);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 15000L);
	curl_easy_setopt(e, CURLOPT_PATH_AS_IS, 1L);
	if (body) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
	}
	/* A large body goes only after the server's 100 Continue, however
	 * long that takes: one the server refuses from its headers (413) is
	 * then answered before any of it is sent. Sent at once, the answer
	 * raced the upload, and a server that closed first failed the call
	 * ("Failed sending data to the peer") on a loaded machine. */
	if (body && body_len > 64 * 1024) {
		headers = curl_slist_append(headers, "Expect: 100-continue");
		curl_easy_setopt(e, CURLOPT_EXPECT_100_TIMEOUT_MS, 15000L);
	}
	headers = curl_slist_append(headers, "Content-Type: application/json");
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
	CURLcode rc = curl_easy_perform(e);
	ck_assert_msg(rc == CURLE_OK, "%s %s: %s", method, path, curl_easy_strerror(rc));
	long status = 0;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(e);
	curl_slist_free_all(headers);
	if (out)
		*out = buf_steal(&b);
	buf_fini(&b);
	return status;
}

long http_call(struct tchessd *d, const char *method, const char *path, const char *token, const char *body,
	       size_t body_len, char **out)
{
	struct curl_slist *h = NULL;
	if (token) {
		char line[256];
		snprintf(line, sizeof line, "Authorization: Bearer %s", token);
		h = curl_slist_append(h, line);
	}
	return call(d, method, path, h, body, body_len, out);
}

void tchessd_advance(struct tchessd *d, int64_t ms)
{
	char body[64];
	snprintf(body, sizeof body, "{\"advance_ms\":%lld}", (long long)ms);
	ck_assert_int_eq(http_call(d, "POST", "/v1/test/clock", NULL, body, strlen(body), NULL), 200);
}

long http_call_header(struct tchessd *d, const char *method, const char *path, const char *header, char **out)
{
	return call(d, method, path, curl_slist_append(NULL, header), NULL, 0, out);
}

int64_t register_player(struct tchessd *d, const char *name, char *token)
{
	char body[128], *out;
	snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
	ck_assert_int_eq(http_call(d, "POST", "/v1/players", NULL, body, strlen(body), &out), 201);
	struct protocol_register_response r;
	struct protocol_error err;
	ck_assert_msg(protocol_register_response_decode(out, strlen(out), &r, &err) == 0, "%s", err.message);
	free(out);
	ck_assert_str_eq(r.name, name);
	strcpy(token, r.token);
	return r.player;
}

void create_game(struct tchessd *d, const char *token, char *id)
{
	create_game_with(d, token, "{\"tc\":\"5+3\",\"color\":\"white\"}", id);
}

int64_t create_game_with(struct tchessd *d, const char *token, const char *request, char *id)
{
	char *out;
	long status = http_call(d, "POST", "/v1/games", token, request, strlen(request), &out);
	ck_assert_msg(status == 201, "create %s: %ld %s", request, status, out);
	struct protocol_seat_response g;
	struct protocol_error err;
	ck_assert_msg(protocol_seat_response_decode(out, strlen(out), &g, &err) == 0, "%s", err.message);
	free(out);
	strcpy(id, g.id);
	return g.seq;
}

void join_game(struct tchessd *d, const char *game, const char *token)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/join", game);
	ck_assert_int_eq(http_call(d, "POST", path, token, "{}", 2, NULL), 200);
}

void fold_game(struct tchessd *d, const char *game, const char *token, struct game_view *v)
{
	char path[160], *out;
	struct protocol_events evs;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	ck_assert_int_eq(http_call(d, "GET", path, token, NULL, 0, &out), 200);
	ck_assert_msg(protocol_events_decode(out, strlen(out), &evs, &err) == 0, "%s", err.message);
	free(out);
	fold_view_init(v);
	if (evs.resync)
		ck_assert_msg(fold_view_from_snapshot(v, evs.snapshot, strlen(evs.snapshot), game, &err) == 0, "%s",
			      err.message);
	/* A correspondence game's vacations come with the answer, as the
	 * client reads them. */
	if (evs.vacations)
		ck_assert_msg(fold_view_vacations_decode(v, evs.vacations, strlen(evs.vacations), &err) == 0, "%s",
			      err.message);
	for (size_t i = 0; i < evs.n; i++) {
		if (evs.events[i].seq > v->seq)
			ck_assert_msg(fold_apply(v, &evs.events[i], &err) == 0, "%s", err.message);
	}
	ck_assert_int_le(v->seq, evs.seq);
	protocol_events_fini(&evs);
}

int64_t parked_polls(struct tchessd *d)
{
	char *out;
	ck_assert_int_eq(http_call(d, "GET", "/v1/health", NULL, NULL, 0, &out), 200);
	struct protocol_health h;
	struct protocol_error err;
	ck_assert_msg(protocol_health_decode(out, strlen(out), &h, &err) == 0, "%s", err.message);
	free(out);
	return h.parked;
}

void poll_start(struct poll_req *p, struct tchessd *d, const char *game, int64_t after, const char *token)
{
	memset(p, 0, sizeof *p);
	buf_init(&p->body);
	p->multi = curl_multi_init();
	p->easy = curl_easy_init();
	char url[512];
	snprintf(url, sizeof url, "%s/v1/games/%s/events?after=%lld", d->base, game, (long long)after);
	curl_easy_setopt(p->easy, CURLOPT_URL, url);
	curl_easy_setopt(p->easy, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(p->easy, CURLOPT_WRITEDATA, &p->body);
	curl_easy_setopt(p->easy, CURLOPT_TIMEOUT_MS, 35000L);
	if (token) {
		char line[256];
		snprintf(line, sizeof line, "Authorization: Bearer %s", token);
		p->headers = curl_slist_append(NULL, line);
		curl_easy_setopt(p->easy, CURLOPT_HTTPHEADER, p->headers);
	}
	curl_multi_add_handle(p->multi, p->easy);
	p->started_ms = mono_ms();
}

bool poll_run(struct poll_req *p, int ms)
{
	int64_t deadline = mono_ms() + ms;
	while (!p->done) {
		int running = 0;
		curl_multi_perform(p->multi, &running);
		int queued;
		CURLMsg *m;
		while ((m = curl_multi_info_read(p->multi, &queued))) {
			if (m->msg == CURLMSG_DONE) {
				ck_assert_msg(m->data.result == CURLE_OK, "poll: %s",
					      curl_easy_strerror(m->data.result));
				curl_easy_getinfo(p->easy, CURLINFO_RESPONSE_CODE, &p->status);
				p->done = true;
				p->ended_ms = mono_ms();
			}
		}
		int left = (int)(deadline - mono_ms());
		if (p->done || left <= 0)
			break;
		curl_multi_poll(p->multi, NULL, 0, left < 20 ? left : 20, NULL);
	}
	return p->done;
}

void poll_wait_parked(struct poll_req *p, struct tchessd *d, int64_t n)
{
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		ck_assert_msg(!poll_run(p, 10), "poll answered before parking: %s", p->body.data);
		if (parked_polls(d) >= n)
			return;
		ck_assert_msg(mono_ms() < deadline, "poll not parked within 10 s");
	}
}

/* Sends the poll on a new socket; returns it. */
static int raw_poll_send(struct tchessd *d, const char *game, int64_t after, const char *token)
{
	char req[512];
	int n = snprintf(req, sizeof req,
			 "GET /v1/games/%s/events?after=%lld HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			 "Authorization: Bearer %s\r\n\r\n",
			 game, (long long)after, token);
	int fd = dial(d, NULL);
	send_all(fd, req, (size_t)n);
	return fd;
}

static void wait_parked_more(struct tchessd *d, int64_t before)
{
	int64_t deadline = mono_ms() + 10000;
	while (parked_polls(d) <= before) {
		ck_assert_msg(mono_ms() < deadline, "the raw poll was not parked within 10 s");
		struct timespec ts = { 0, 10 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

int raw_park(struct tchessd *d, const char *game, int64_t after, const char *token)
{
	int64_t before = parked_polls(d);
	int fd = raw_poll_send(d, game, after, token);
	wait_parked_more(d, before);
	return fd;
}

void raw_hang_up(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
	close(fd);
}

pid_t raw_park_child(struct tchessd *d, const char *game, int64_t after, const char *token)
{
	int64_t before = parked_polls(d);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		raw_poll_send(d, game, after, token);
		for (;;)
			pause();
	}
	wait_parked_more(d, before);
	return pid;
}

int64_t wait_parked_at_most(struct tchessd *d, int64_t n)
{
	int64_t start = mono_ms(), deadline = start + 10000;
	while (parked_polls(d) > n) {
		ck_assert_msg(mono_ms() < deadline, "more than %lld polls still parked after 10 s", (long long)n);
		struct timespec ts = { 0, 10 * 1000000L };
		nanosleep(&ts, NULL);
	}
	return mono_ms() - start;
}

void poll_fini(struct poll_req *p)
{
	curl_multi_remove_handle(p->multi, p->easy);
	curl_easy_cleanup(p->easy);
	curl_multi_cleanup(p->multi);
	curl_slist_free_all(p->headers);
	buf_fini(&p->body);
}

static const cJSON *member(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	ck_assert_msg(v != NULL, "no member %s", name);
	return v;
}

const char *jstr(const cJSON *o, const char *name)
{
	const cJSON *v = member(o, name);
	ck_assert_msg(cJSON_IsString(v), "member %s is not a string", name);
	return v->valuestring;
}

int64_t jint(const cJSON *o, const char *name)
{
	const cJSON *v = member(o, name);
	ck_assert_msg(cJSON_IsNumber(v), "member %s is not a number", name);
	return (int64_t)v->valuedouble;
}

double jnum(const cJSON *o, const char *name)
{
	const cJSON *v = member(o, name);
	ck_assert_msg(cJSON_IsNumber(v), "member %s is not a number", name);
	return v->valuedouble;
}

const cJSON *jobj(const cJSON *o, const char *name)
{
	const cJSON *v = member(o, name);
	ck_assert_msg(cJSON_IsObject(v), "member %s is not an object", name);
	return v;
}

void table_open(struct table *t, const char *config, const char *extra)
{
	memset(t, 0, sizeof *t);
	tchessd_start(&t->d, config);
	t->a = register_player(&t->d, "alice", t->alice);
	t->b = register_player(&t->d, "bob", t->bob);
	t->c = register_player(&t->d, "carol", t->carol);
	char req[512];
	snprintf(req, sizeof req, "{\"color\":\"white\"%s%s}", extra[0] ? "," : "", extra);
	create_game_with(&t->d, t->alice, req, t->game);
	join_game(&t->d, t->game, t->bob);
}

void table_close(struct table *t)
{
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&t->d)), 0);
	tchessd_cleanup(&t->d);
}

long table_command(struct table *t, const char *method, const char *what, const char *token, const char *body,
		   char **out)
{
	char path[160];
	snprintf(path, sizeof path, "/v1/games/%s/%s", t->game, what);
	return http_call(&t->d, method, path, token, body, body ? strlen(body) : 0, out);
}

size_t table_ok(struct table *t, const char *what, const char *token, const char *body)
{
	char *out;
	struct protocol_events evs;
	struct protocol_error err;
	long status = table_command(t, "POST", what, token, body, &out);
	ck_assert_msg(status == 200, "%s %s: %ld %s", what, body, status, out);
	ck_assert_msg(protocol_events_decode(out, strlen(out), &evs, &err) == 0, "%s", err.message);
	free(out);
	size_t n = evs.n;
	protocol_events_fini(&evs);
	return n;
}

void table_refused(struct table *t, const char *what, const char *token, const char *body, long want,
		   const char *needle)
{
	char *out;
	struct protocol_error e, err;
	long status = table_command(t, "POST", what, token, body, &out);
	ck_assert_msg(status == want, "%s %s: status %ld, want %ld (%s)", what, body, status, want, out);
	ck_assert_msg(protocol_error_decode(out, strlen(out), &e, &err) == 0, "%s", err.message);
	if (needle)
		ck_assert_msg(strstr(e.message, needle), "%s: \"%s\" lacks \"%s\"", what, e.message, needle);
	free(out);
}

cJSON *table_snapshot(struct table *t, const char *token)
{
	char path[128], *out;
	snprintf(path, sizeof path, "/v1/games/%s", t->game);
	ck_assert_int_eq(http_call(&t->d, "GET", path, token, NULL, 0, &out), 200);
	cJSON *o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	free(out);
	return o;
}

cJSON *table_wait_event(struct table *t, const char *type)
{
	int64_t deadline = mono_ms() + 10000;
	for (;;) {
		char path[160], *out;
		struct protocol_events evs;
		struct protocol_error err;
		snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", t->game, (long long)t->seq);
		long status = http_call(&t->d, "GET", path, NULL, NULL, 0, &out);
		ck_assert_msg(status == 200, "events: %ld %s", status, out);
		ck_assert_msg(protocol_events_decode(out, strlen(out), &evs, &err) == 0, "%s", err.message);
		free(out);
		for (size_t i = 0; i < evs.n; i++) {
			if (!strcmp(evs.events[i].type, type)) {
				cJSON *o = cJSON_Parse(evs.events[i].data);
				ck_assert_ptr_nonnull(o);
				cJSON_AddNumberToObject(o, "seq", (double)evs.events[i].seq);
				cJSON_AddNumberToObject(o, "t_ms", (double)evs.events[i].t_ms);
				t->seq = evs.events[i].seq;
				protocol_events_fini(&evs);
				return o;
			}
		}
		t->seq = evs.seq;
		protocol_events_fini(&evs);
		ck_assert_msg(mono_ms() < deadline, "no %s event within 10 s", type);
	}
}

/* ---- raw HTTP ---- */

/* A connected socket to the server, from local address from (NULL: any). */
int dial(struct tchessd *d, const char *from)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	if (from) {
		struct sockaddr_in l = { .sin_family = AF_INET };
		inet_pton(AF_INET, from, &l.sin_addr);
		ck_assert_int_eq(bind(fd, (struct sockaddr *)&l, sizeof l), 0);
	}
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)d->port) };
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	return fd;
}

void send_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
		if (n <= 0)
			return; /* the server may close on us; the answer says why */
		data += n;
		len -= (size_t)n;
	}
}

/* Reads until the server closes, needle (if not NULL) has arrived or ms
 * pass; returns the bytes (malloc'd) and sets *closed. */
char *read_until(int fd, int ms, const char *needle, bool *closed)
{
	struct buf b;
	buf_init(&b);
	int64_t deadline = mono_ms() + ms;
	*closed = false;
	for (;;) {
		int left = (int)(deadline - mono_ms());
		if (left <= 0)
			break;
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, left) <= 0)
			continue;
		char chunk[4096];
		ssize_t n = recv(fd, chunk, sizeof chunk, 0);
		if (n <= 0) {
			*closed = true;
			break;
		}
		buf_append(&b, chunk, (size_t)n);
		if (needle && strstr(b.data, needle))
			break;
	}
	return buf_steal(&b);
}

char *read_all(int fd, int ms, bool *closed)
{
	return read_until(fd, ms, NULL, closed);
}

/* Sends one raw request with "Connection: close" semantics and returns
 * the status (0 if the server closed without one), the response text in
 * *out if asked. */
int raw_request(struct tchessd *d, const char *from, const char *req, size_t len, char **out)
{
	int fd = dial(d, from);
	send_all(fd, req, len);
	bool closed;
	char *resp = read_all(fd, 5000, &closed);
	close(fd);
	int status = 0;
	sscanf(resp, "HTTP/1.%*d %d", &status);
	if (out)
		*out = resp;
	else
		free(resp);
	return status;
}
