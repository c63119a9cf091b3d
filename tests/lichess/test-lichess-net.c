/*
 * The Lichess stream reader on the real network layer against the scripted
 * Lichess (fake-lichess.py) on loopback: a game stream refused with 429
 * and read on the next connection, cut into one-byte chunks among
 * keep-alives; a move POSTed while the stream is open answered by the next
 * gameState on it, and the opponent's reply after it; a stream that stalls
 * caught by the watchdog and reopened, its missed move read from the new
 * gameFull; a game that does not exist refused with Lichess's text; and
 * every request seen by the server with the token.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lichess-game.h"
#include "lichess-stream.h"
#include "net-stream.h"
#include "net.h"
#include "util/now.h"

#define TOKEN "lip_testtoken"

static pid_t server_pid;
static int server_port;
static char server_dir[256];
static char log_path[300];

static void server_start(const char *transcript)
{
	char port_file[300];
	snprintf(server_dir, sizeof server_dir, "/tmp/tchess-fake-lichess-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(server_dir));
	snprintf(port_file, sizeof port_file, "%s/port", server_dir);
	snprintf(log_path, sizeof log_path, "%s/requests.log", server_dir);
	server_pid = fork();
	ck_assert_int_ge(server_pid, 0);
	if (server_pid == 0) {
		execlp("python3", "python3", FAKE_LICHESS, "--transcript", transcript, "--log", log_path,
		       "--port-file", port_file, (char *)NULL);
		_exit(127);
	}
	int64_t deadline = now_mono_ms() + 10000;
	while (now_mono_ms() < deadline) {
		FILE *f = fopen(port_file, "r");
		if (f) {
			int ok = fscanf(f, "%d", &server_port);
			fclose(f);
			if (ok == 1)
				return;
		}
		int status;
		ck_assert_msg(waitpid(server_pid, &status, WNOHANG) == 0, "fake-lichess.py exited");
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	ck_abort_msg("fake-lichess.py did not start within 10 s");
}

static void server_stop(void)
{
	kill(server_pid, SIGTERM);
	waitpid(server_pid, NULL, 0);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", server_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Lines of the server's request log that contain every one of the words. */
static int log_count(const char *a, const char *b)
{
	FILE *f = fopen(log_path, "r");
	char line[4096];
	int n = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strstr(line, a) && (!b || strstr(line, b)))
			n++;
	fclose(f);
	return n;
}

/* One game stream read into a model, reopened by the rules. */
struct reader {
	struct net *n;
	struct net_stream *s;
	char path[128];
	struct lichess_lines lines;
	struct lichess_retry retry;
	struct lichess_game g;
	int applied, opened, ended, last_status;
	enum lichess_end last_end;
	bool stopped;
	char error[200];
};

static void reader_data(void *ctx, const char *bytes, size_t n);
static void reader_end(void *ctx, int status, const char *body, size_t len, const char *error);
static const struct net_stream_ops reader_ops = { reader_data, reader_end };

static void reader_open(struct reader *r)
{
	lichess_lines_reset(&r->lines);
	r->s = net_stream_open(r->n, "GET", r->path, NULL, &reader_ops, r);
	lichess_retry_opened(&r->retry, now_mono_ms());
	r->opened++;
}

static void reader_line(void *ctx, const char *line, size_t n)
{
	struct reader *r = ctx;
	struct lichess_msg m;
	char err[200];
	ck_assert_msg(lichess_msg_decode(line, n, &m, err, sizeof err) == 0, "%s: %s", err, line);
	int rc = lichess_game_apply(&r->g, &m, now_mono_ms(), err, sizeof err);
	ck_assert_msg(rc >= 0, "%s", err);
	lichess_msg_fini(&m);
	r->applied++;
}

static void reader_data(void *ctx, const char *bytes, size_t n)
{
	struct reader *r = ctx;
	int lines = lichess_lines_feed(&r->lines, bytes, n, reader_line, r);
	lichess_retry_bytes(&r->retry, now_mono_ms(), lines > 0);
}

static void reader_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct reader *r = ctx;
	r->s = NULL;
	r->ended++;
	r->last_status = status;
	if (status >= 400)
		lichess_error_text(body, len, r->error, sizeof r->error);
	else
		snprintf(r->error, sizeof r->error, "%s", error);
	r->last_end = lichess_retry_ended(&r->retry, status, lichess_game_over(&r->g), now_mono_ms());
	if (r->last_end >= LICHESS_END_FINAL)
		r->stopped = true;
}

/* One pass of a loop: the watchdog, a due reopen, the network. */
static void reader_pass(struct reader *r)
{
	int64_t now = now_mono_ms();
	if (r->s && lichess_retry_idle(&r->retry, now)) {
		net_stream_close(r->n, r->s);
		r->s = NULL;
		r->last_end = lichess_retry_ended(&r->retry, 0, false, now);
	}
	if (!r->s && !r->stopped && r->retry.reopen_at_ms && r->retry.reopen_at_ms <= now)
		reader_open(r);
	int64_t next = lichess_retry_next_ms(&r->retry, r->s != NULL, now);
	net_wait(r->n, next < 0 || next > 50 ? 50 : (int)next, NULL, 0, NULL);
	struct net_reply rep;
	while (net_next_reply(r->n, &rep))
		free(rep.body);
}

static void reader_init(struct reader *r, const char *game)
{
	char err[200], base[64];
	memset(r, 0, sizeof *r);
	snprintf(base, sizeof base, "http://127.0.0.1:%d", server_port);
	r->n = net_new(base, TOKEN, err, sizeof err);
	ck_assert_ptr_nonnull(r->n);
	snprintf(r->path, sizeof r->path, "/api/board/game/stream/%s", game);
	lichess_lines_init(&r->lines);
	lichess_retry_init(&r->retry, now_mono_ms(), 1);
	r->retry.rate_limit_ms = 300;
	r->retry.idle_ms = 800;
	lichess_game_init(&r->g, game, "alice");
	reader_open(r);
}

static void reader_fini(struct reader *r)
{
	net_stream_close(r->n, r->s);
	net_free(r->n);
	lichess_lines_fini(&r->lines);
	lichess_game_fini(&r->g);
}

#define UNTIL(r, cond)                                                                                           \
	do {                                                                                                     \
		int64_t until_ = now_mono_ms() + 10000;                                                         \
		while (!(cond) && now_mono_ms() < until_)                                                        \
			reader_pass(r);                                                                          \
		ck_assert_msg(cond, "timed out waiting for %s", #cond);                                          \
	} while (0)

START_TEST(test_chunks_429_and_move)
{
	struct reader r;
	reader_init(&r, "chnk0001");
	/* The first connection is refused 429: reopened after the wait. */
	UNTIL(&r, r.ended >= 1);
	ck_assert_int_eq(r.last_status, 429);
	ck_assert_int_eq(r.last_end, LICHESS_END_RATE_LIMITED);
	ck_assert_str_eq(r.error, "Too many requests. Try again later.");
	UNTIL(&r, r.g.n_chat == 1);
	ck_assert_int_eq(r.opened, 2);
	ck_assert_int_eq(r.lines.keepalives >= 5, 1);
	ck_assert(r.g.full);
	ck_assert_int_eq(r.g.me, WHITE);
	ck_assert_uint_eq(r.g.view.game.n_plies, 2);
	ck_assert_str_eq(r.g.chat[0].text, "hi");
	/* My move: the server's next gameState on the open stream, then
	 * the opponent's reply. */
	net_command(r.n, "POST", "/api/board/game/chnk0001/move/g1f3", NULL, 7, NULL, 0);
	UNTIL(&r, r.g.view.game.n_plies == 4);
	ck_assert_str_eq(r.g.moves, "e2e4 e7e5 g1f3 b8c6");
	ck_assert_int_eq(r.g.running, WHITE);
	ck_assert_int_eq(log_count("\"POST\"", "move/g1f3"), 1);
	ck_assert_int_eq(log_count("\"auth\": \"Bearer " TOKEN "\"", "stream/chnk0001"), 2);
	reader_fini(&r);
}
END_TEST

START_TEST(test_stall_reopen)
{
	struct reader r;
	reader_init(&r, "stal0001");
	UNTIL(&r, r.g.full);
	ck_assert_uint_eq(r.g.view.game.n_plies, 1);
	/* No byte for the watchdog's time: closed and opened again; the
	 * new connection's gameFull has the move the stall hid. */
	UNTIL(&r, r.opened == 2 && r.g.view.game.n_plies == 2);
	ck_assert_int_eq(r.last_end, LICHESS_END_REOPEN);
	ck_assert_int_eq(r.ended, 0);
	reader_fini(&r);
}
END_TEST

START_TEST(test_missing_game)
{
	struct reader r;
	reader_init(&r, "nosuchgm");
	UNTIL(&r, r.stopped);
	ck_assert_int_eq(r.last_status, 404);
	ck_assert_int_eq(r.last_end, LICHESS_END_REFUSED);
	ck_assert_str_eq(r.error, "No such game");
	ck_assert_int_eq(r.opened, 1);
	reader_fini(&r);
}
END_TEST

static void setup(void)
{
	server_start(TRANSCRIPTS "/stream.json");
}

int main(void)
{
	Suite *s = suite_create("lichess-net");
	TCase *tc = tcase_create("stream");
	tcase_add_checked_fixture(tc, setup, server_stop);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_chunks_429_and_move);
	tcase_add_test(tc, test_stall_reopen);
	tcase_add_test(tc, test_missing_game);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
