/*
 * Tests of the engine pool (src/server/engine.c). With Debian's stockfish:
 * the handshake, a legal move at every level, a mate in one, Chess960
 * castling, a threefold repetition that only the move history reveals, a
 * kill by pid mid-search, cancellation, and twenty concurrent requests. With
 * fake engines (shell scripts written here): the exact position command, no
 * inherited descriptors, a
 * crash once (restart and answer), crashes every time, a hung engine, nonsense
 * and illegal answers (explicit errors, never a made-up move), a program that
 * is no UCI engine, and closing with requests in flight. Every test ends by
 * checking that no child process is left, zombie or not.
 *
 * Callbacks are awaited on a condition variable with a deadline; nothing
 * sleeps. The stockfish cases are skipped with a message when it is missing.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "util/now.h"

/* ---- waiting for callbacks ---- */

struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
};

struct slot {
	struct waiter *w;
	int calls;
	char uci[UCI_MAX];
	char error[512];
	int64_t at_ms;
};

static void waiter_init(struct waiter *w)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	w->done = 0;
}

static void waiter_fini(struct waiter *w)
{
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
}

static void on_done(void *arg, const char *uci, const char *error)
{
	struct slot *s = arg;
	pthread_mutex_lock(&s->w->lock);
	s->calls++;
	ck_assert((uci == NULL) != (error == NULL));
	snprintf(s->uci, sizeof s->uci, "%s", uci ? uci : "");
	snprintf(s->error, sizeof s->error, "%s", error ? error : "");
	s->at_ms = now_mono_ms();
	s->w->done++;
	pthread_cond_broadcast(&s->w->cond);
	pthread_mutex_unlock(&s->w->lock);
}

/* Waits until n callbacks have run, at most ms; returns whether they did. */
static bool wait_done(struct waiter *w, int n, int64_t ms)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	int rc = 0;
	while (w->done < n && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->cond, &w->lock, &until);
	bool ok = w->done >= n;
	pthread_mutex_unlock(&w->lock);
	return ok;
}

/* ---- helpers ---- */

static char *stockfish;
static char dir[256];

static void assert_no_children(void)
{
	/* Every test runs in its own forked process (or alone under valgrind),
	 * so any child left here is an engine the pool did not reap. */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

static struct engine_pool *pool_open(const char *path, int n, int64_t margin_ms)
{
	struct engine_options o;
	engine_options_init(&o);
	o.path = path;
	o.max_engines = n;
	o.margin_ms = margin_ms;
	o.stop_grace_ms = 200;
	o.start_ms = 5000;
	char *err = NULL;
	struct engine_pool *pool = engine_pool_new(&o, &err);
	ck_assert_msg(pool != NULL, "engine_pool_new: %s", err ? err : "?");
	return pool;
}

/* Plays fen + moves + the answer with libtchess; fails unless the answer is
 * legal there. Returns the position after it. */
static struct position play(const char *fen, const char *const *moves, size_t n, const char *answer)
{
	struct position p;
	struct tchess_error e;
	ck_assert_int_eq(fen_parse(&p, fen ? fen : FEN_START, &e), TCHESS_OK);
	move m;
	struct undo u;
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(uci_parse(&p, moves[i], strlen(moves[i]), &m, &e), TCHESS_OK);
		position_make(&p, m, &u);
	}
	ck_assert_msg(uci_parse(&p, answer, strlen(answer), &m, &e) == TCHESS_OK, "\"%s\" is not legal: %s",
		      answer, e.message);
	position_make(&p, m, &u);
	return p;
}

/* Asks one question and waits for the answer (at most ms). */
static void ask(struct engine_pool *pool, const char *fen, const char *const *moves, size_t n, int level,
		bool c960, struct slot *s, int64_t ms)
{
	struct waiter w;
	waiter_init(&w);
	memset(s, 0, sizeof *s);
	s->w = &w;
	char *err = NULL;
	int id = engine_request(pool, fen, moves, n, level, c960, on_done, s, &err);
	ck_assert_msg(id > 0, "engine_request: %s", err ? err : "?");
	ck_assert_msg(wait_done(&w, 1, ms), "no answer within %lld ms", (long long)ms);
	ck_assert_int_eq(s->calls, 1);
	s->w = NULL;
	waiter_fini(&w);
}

static void need_stockfish(void)
{
	if (!stockfish)
		ck_abort_msg("stockfish test run without stockfish");
}

/* ---- fake engines ---- */

static void dir_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tchess-engine-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void dir_teardown(void)
{
	const char *names[] = { "fake", "position", "crashed" };
	char p[320];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* Writes a UCI engine in sh that does go_action on "go" and records the last
 * "position" command; returns its path (static). */
static const char *fake_engine(const char *go_action)
{
	static char path[320];
	snprintf(path, sizeof path, "%s/fake", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
		"#!/bin/sh\n"
		"D='%s'\n"
		"while read -r line; do\n"
		"\tcase \"$line\" in\n"
		"\tuci) echo 'id name fake'; echo uciok ;;\n"
		"\tisready) echo readyok ;;\n"
		"\tposition*) echo \"$line\" > \"$D/position\" ;;\n"
		"\tgo*) %s ;;\n"
		"\tquit) exit 0 ;;\n"
		"\tesac\n"
		"done\n",
		dir, go_action);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
	return path;
}

static void read_position(char *buf, size_t size)
{
	char p[320];
	snprintf(p, sizeof p, "%s/position", dir);
	FILE *f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, (int)size, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* ---- analysis ---- */

struct aslot {
	struct waiter *w;
	int calls;
	struct engine_analysis a;
	char error[256];
};

static void on_analysis(void *arg, const struct engine_analysis *a, const char *error)
{
	struct aslot *s = arg;
	pthread_mutex_lock(&s->w->lock);
	s->calls++;
	ck_assert((a == NULL) != (error == NULL));
	if (a)
		s->a = *a;
	snprintf(s->error, sizeof s->error, "%s", error ? error : "");
	s->w->done++;
	pthread_cond_broadcast(&s->w->cond);
	pthread_mutex_unlock(&s->w->lock);
}

static void analyse(struct engine_pool *pool, const char *fen, const char *const *moves, size_t n,
		    const struct engine_limits *lim, struct aslot *s)
{
	struct waiter w;
	waiter_init(&w);
	memset(s, 0, sizeof *s);
	s->w = &w;
	char *err = NULL;
	int id = engine_analyse(pool, fen, moves, n, false, lim, on_analysis, s, &err);
	ck_assert_msg(id > 0, "engine_analyse: %s", err ? err : "?");
	ck_assert(wait_done(&w, 1, 20000));
	ck_assert_int_eq(s->calls, 1);
	s->w = NULL;
	waiter_fini(&w);
}

START_TEST(test_info_parse)
{
	int k, depth = -1, score = 0;
	bool mate;
	const char *pv;
	ck_assert(engine_info_parse("info depth 12 seldepth 18 multipv 2 score cp -35 nodes 123 nps 4 pv e2e4 e7e5",
				    &k, &depth, &mate, &score, &pv));
	ck_assert_int_eq(k, 2);
	ck_assert_int_eq(depth, 12);
	ck_assert(!mate);
	ck_assert_int_eq(score, -35);
	ck_assert_str_eq(pv, "e2e4 e7e5");
	ck_assert(engine_info_parse("info depth 5 score mate -3 pv a1a8", &k, &depth, &mate, &score, &pv));
	ck_assert_int_eq(k, 1);
	ck_assert(mate);
	ck_assert_int_eq(score, -3);
	/* A bound, a line with no score, a string, junk: not lines. */
	ck_assert(!engine_info_parse("info depth 9 score cp 20 lowerbound pv e2e4", &k, &depth, &mate, &score, &pv));
	ck_assert(!engine_info_parse("info depth 9 currmove e2e4 currmovenumber 1", &k, &depth, &mate, &score, &pv));
	ck_assert(!engine_info_parse("info string NNUE evaluation enabled", &k, &depth, &mate, &score, &pv));
	ck_assert(!engine_info_parse("info depth x score cp 1", &k, &depth, &mate, &score, &pv));
	ck_assert(!engine_info_parse("bestmove e2e4", &k, &depth, &mate, &score, &pv));
}
END_TEST

/* A fake engine's lines: scores turned to White's point of view (Black to
 * move here), the second line's pv cut at its illegal move, a bound and a
 * line past the MultiPV asked for ignored, the last complete line kept. */
START_TEST(test_analysis_lines)
{
	const char *path = fake_engine(
		"echo 'info depth 1 multipv 1 score cp 10 pv e7e5'; "
		"echo 'info depth 2 multipv 1 score cp 25 pv e7e5 g1f3'; "
		"echo 'info depth 3 multipv 1 score cp 99 upperbound pv d7d5'; "
		"echo 'info depth 2 multipv 2 score mate -4 pv c7c5 e1e8 g1f3'; "
		"echo 'info depth 2 multipv 3 score cp 0 pv a7a6'; "
		"echo 'bestmove e7e5'");
	struct engine_pool *pool = pool_open(path, 1, 2000);
	const char *moves[] = { "e2e4" };
	struct engine_limits lim = { .depth = 2, .multipv = 2 };
	struct aslot s;
	analyse(pool, NULL, moves, 1, &lim, &s);
	ck_assert_str_eq(s.error, "");
	ck_assert_int_eq(s.a.n_lines, 2);
	ck_assert(!s.a.lines[0].mate);
	ck_assert_int_eq(s.a.lines[0].score, -25);
	ck_assert_int_eq(s.a.lines[0].depth, 2);
	ck_assert_int_eq(s.a.lines[0].n_pv, 2);
	ck_assert_str_eq(s.a.lines[0].pv[1], "g1f3");
	ck_assert(s.a.lines[1].mate);
	ck_assert_int_eq(s.a.lines[1].score, 4);
	ck_assert_int_eq(s.a.lines[1].n_pv, 1);
	/* The limits reach the engine as one "go". */
	lim.depth = 0;
	lim.multipv = 0;
	char *err = NULL;
	ck_assert_int_eq(engine_analyse(pool, NULL, NULL, 0, false, &lim, on_analysis, NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "1 to 3 lines"));
	free(err);
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

/* Stockfish at a fixed depth: the mate in one first, three lines. */
START_TEST(test_analysis_stockfish)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	struct engine_limits lim = { .depth = 8, .multipv = 3 };
	struct aslot s;
	analyse(pool, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", NULL, 0, &lim, &s);
	ck_assert_str_eq(s.error, "");
	ck_assert_int_eq(s.a.n_lines, 3);
	ck_assert(s.a.lines[0].mate);
	ck_assert_int_eq(s.a.lines[0].score, 1);
	ck_assert_str_eq(s.a.lines[0].pv[0], "a1a8");
	ck_assert(!s.a.lines[1].mate || s.a.lines[1].score > 1);
	/* And it plays on at its full strength for a move request. */
	struct slot m;
	ask(pool, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", NULL, 0, 8, false, &m, 10000);
	ck_assert_str_eq(m.uci, "a1a8");
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

/* ---- with stockfish ---- */

START_TEST(test_handshake)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	/* The first engine is started and through uciok/readyok before new returns. */
	ck_assert_uint_eq(st.spawned, 1);
	pid_t pid;
	ck_assert_int_eq(engine_pool_pids(pool, &pid, 1), 1);
	ck_assert_int_eq(kill(pid, 0), 0);
	engine_pool_free(pool);
	ck_assert_int_eq(kill(pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	assert_no_children();
}
END_TEST

START_TEST(test_every_level)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 2, 2000);
	struct waiter w;
	waiter_init(&w);
	struct slot s[ENGINE_LEVEL_MAX];
	memset(s, 0, sizeof s);
	for (int lv = ENGINE_LEVEL_MIN; lv <= ENGINE_LEVEL_MAX; lv++) {
		s[lv - 1].w = &w;
		ck_assert_int_gt(engine_request(pool, NULL, NULL, 0, lv, false, on_done, &s[lv - 1], NULL), 0);
	}
	ck_assert(wait_done(&w, ENGINE_LEVEL_MAX, 20000));
	for (int i = 0; i < ENGINE_LEVEL_MAX; i++) {
		ck_assert_msg(s[i].error[0] == '\0', "level %d: %s", i + 1, s[i].error);
		play(NULL, NULL, 0, s[i].uci);
	}
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.answered, ENGINE_LEVEL_MAX);
	ck_assert_uint_eq(st.restarts, 0);
	engine_pool_free(pool);
	waiter_fini(&w);
	assert_no_children();
}
END_TEST

START_TEST(test_level_table)
{
	/* "at levels 1–8 (skill + move time)": both grow with the level, from
	 * the weakest skill to the full engine. */
	ck_assert_ptr_null(engine_level(0));
	ck_assert_ptr_null(engine_level(9));
	ck_assert_int_eq(engine_level(1)->skill, 0);
	ck_assert_int_eq(engine_level(8)->skill, 20);
	for (int lv = 2; lv <= 8; lv++) {
		ck_assert_int_gt(engine_level(lv)->skill, engine_level(lv - 1)->skill);
		ck_assert_int_gt(engine_level(lv)->movetime_ms, engine_level(lv - 1)->movetime_ms);
	}
}
END_TEST

START_TEST(test_mate_in_one)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	const char *fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
	struct slot s;
	ask(pool, fen, NULL, 0, 8, false, &s, 10000);
	ck_assert_str_eq(s.error, "");
	ck_assert_str_eq(s.uci, "a1a8");
	struct position p = play(fen, NULL, 0, s.uci);
	ck_assert(movegen_is_checkmate(&p));
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_chess960_castling)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	/* King b1, rook a1: castling a-side puts the king on c1 and the rook on
	 * d1, which mates the king on d8 walled in by its own rooks and pawns.
	 * It is the only mate, and in Chess960 UCI it is written king-takes-rook. */
	const char *fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
	struct slot s;
	ask(pool, fen, NULL, 0, 8, true, &s, 10000);
	ck_assert_str_eq(s.error, "");
	ck_assert_str_eq(s.uci, "b1a1");
	struct position p = play(fen, NULL, 0, s.uci);
	ck_assert(movegen_is_checkmate(&p));
	ck_assert_int_eq(position_piece_on(&p, make_sq(2, 0)), W_KING);
	ck_assert_int_eq(position_piece_on(&p, make_sq(3, 0)), W_ROOK);
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_repetition_history)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	/* Black, a queen down, is to move with the position after ...Nb8
	 * having occurred twice: ...Nb8 repeats it a third time, a draw, which
	 * the engine can see only if it was given the moves, not a bare FEN. */
	const char *fen = "1n4k1/8/8/8/8/8/3Q4/7K w - - 0 1";
	const char *moves[] = { "d2d1", "b8c6", "d1d2", "c6b8", "d2d1", "b8c6", "d1d2" };
	struct slot s;
	ask(pool, fen, moves, 7, 8, false, &s, 10000);
	ck_assert_str_eq(s.error, "");
	ck_assert_str_eq(s.uci, "c6b8");
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_killed_mid_search)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	struct waiter w;
	waiter_init(&w);
	struct slot s = { .w = &w };
	pid_t pid;
	ck_assert_int_eq(engine_pool_pids(pool, &pid, 1), 1);
	ck_assert_int_gt(engine_request(pool, NULL, NULL, 0, 8, false, on_done, &s, NULL), 0);
	/* Whether the worker is mid-search or about to write to it, the engine
	 * is gone: it must be reaped, replaced, and the request answered. */
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert(wait_done(&w, 1, 10000));
	ck_assert_str_eq(s.error, "");
	play(NULL, NULL, 0, s.uci);
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.restarts, 1);
	ck_assert_uint_eq(st.spawned, 2);
	pid_t now_pid;
	ck_assert_int_eq(engine_pool_pids(pool, &now_pid, 1), 1);
	ck_assert_int_ne(now_pid, pid);
	engine_pool_free(pool);
	waiter_fini(&w);
	assert_no_children();
}
END_TEST

START_TEST(test_cancel)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 1, 2000);
	struct waiter w;
	waiter_init(&w);
	struct slot a = { .w = &w }, b = { .w = &w }, c = { .w = &w };
	int ida = engine_request(pool, NULL, NULL, 0, 8, false, on_done, &a, NULL);
	int idb = engine_request(pool, NULL, NULL, 0, 8, false, on_done, &b, NULL);
	ck_assert_int_gt(ida, 0);
	ck_assert_int_gt(idb, ida);
	ck_assert(engine_cancel(pool, idb)); /* queued behind a */
	ck_assert(engine_cancel(pool, ida)); /* queued or searching: a 1 s search */
	ck_assert(!engine_cancel(pool, ida));
	ck_assert(!engine_cancel(pool, 12345));
	int64_t t0 = now_mono_ms();
	ck_assert_int_gt(engine_request(pool, NULL, NULL, 0, 1, false, on_done, &c, NULL), 0);
	/* One engine, first come first served: c is answered only after a's
	 * search was stopped, well before its second would have ended. */
	ck_assert(wait_done(&w, 1, 10000));
	ck_assert_int_eq(c.calls, 1);
	ck_assert_str_eq(c.error, "");
	ck_assert_int_lt(c.at_ms - t0, 900);
	ck_assert_int_eq(a.calls, 0);
	ck_assert_int_eq(b.calls, 0);
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.cancelled, 2);
	ck_assert_uint_eq(st.answered, 1);
	ck_assert_uint_eq(st.restarts, 0);
	/* Too late once the answer was given. */
	ck_assert(!engine_cancel(pool, idb + 1));
	engine_pool_free(pool);
	ck_assert_int_eq(a.calls + b.calls, 0);
	waiter_fini(&w);
	assert_no_children();
}
END_TEST

#define CONC_THREADS 4
#define CONC_EACH 5

struct conc {
	struct engine_pool *pool;
	struct slot *slots;
	const char *const *moves;
	int first;
};

static void *conc_main(void *arg)
{
	struct conc *c = arg;
	for (int i = 0; i < CONC_EACH; i++) {
		int k = c->first + i;
		/* Different histories, so answers belong to different positions. */
		if (engine_request(c->pool, NULL, c->moves, (size_t)(k % 4), 1, false, on_done, &c->slots[k], NULL) <= 0)
			return "request refused";
	}
	return NULL;
}

START_TEST(test_concurrent)
{
	need_stockfish();
	struct engine_pool *pool = pool_open(stockfish, 2, 2000);
	const char *moves[] = { "e2e4", "e7e5", "g1f3", "b8c6" };
	struct waiter w;
	waiter_init(&w);
	struct slot s[CONC_THREADS * CONC_EACH];
	memset(s, 0, sizeof s);
	for (int i = 0; i < CONC_THREADS * CONC_EACH; i++)
		s[i].w = &w;
	pthread_t t[CONC_THREADS];
	struct conc c[CONC_THREADS];
	for (int i = 0; i < CONC_THREADS; i++) {
		c[i] = (struct conc){ pool, s, moves, i * CONC_EACH };
		ck_assert_int_eq(pthread_create(&t[i], NULL, conc_main, &c[i]), 0);
	}
	for (int i = 0; i < CONC_THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		ck_assert_ptr_null(r);
	}
	ck_assert(wait_done(&w, CONC_THREADS * CONC_EACH, 30000));
	for (int k = 0; k < CONC_THREADS * CONC_EACH; k++) {
		ck_assert_int_eq(s[k].calls, 1);
		ck_assert_msg(s[k].error[0] == '\0', "request %d: %s", k, s[k].error);
		play(NULL, moves, (size_t)(k % 4), s[k].uci);
	}
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.answered, CONC_THREADS * CONC_EACH);
	ck_assert_uint_le(st.spawned, 2);
	engine_pool_free(pool);
	waiter_fini(&w);
	assert_no_children();
}
END_TEST

/* ---- with fake engines ---- */

START_TEST(test_position_command)
{
	/* "so the engine sees repetitions": the history goes as moves after the
	 * start FEN, each rewritten by libtchess. */
	struct engine_pool *pool = pool_open(fake_engine("echo 'bestmove b8c6'"), 1, 2000);
	const char *moves[] = { "g1f3", "g8f6", "f3g1", "f6g8", "g1f3" };
	struct slot s;
	ask(pool, NULL, moves, 5, 3, false, &s, 5000);
	ck_assert_str_eq(s.uci, "b8c6");
	char line[512];
	read_position(line, sizeof line);
	ck_assert_str_eq(line, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
			       "moves g1f3 g8f6 f3g1 f6g8 g1f3");
	/* In Chess960 castling is sent king-takes-rook even when given as the
	 * king's two-square move (the FEN keeps KQkq, which in X-FEN name the
	 * outermost rooks, as here). */
	const char *castle[] = { "e1g1" };
	ask(pool, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", castle, 1, 3, true, &s, 5000);
	read_position(line, sizeof line);
	ck_assert_str_eq(line, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
	/* The fake answered b8c6, which is not a move there: an error. */
	ck_assert_str_eq(s.uci, "");
	ck_assert_ptr_nonnull(strstr(s.error, "illegal move b8c6"));
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_no_fd_leak)
{
	/* A descriptor the server left inheritable does not reach the engine
	 * (it would keep a socket open after tchessd is gone). */
	int fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 3);
	char action[200];
	snprintf(action, sizeof action,
		 "if [ -e /proc/$$/fd/%d ]; then echo 'bestmove a2a3'; else echo 'bestmove e2e4'; fi", fd);
	struct engine_pool *pool = pool_open(fake_engine(action), 1, 2000);
	struct slot s;
	ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
	ck_assert_str_eq(s.uci, "e2e4");
	engine_pool_free(pool);
	close(fd);
	assert_no_children();
}
END_TEST

START_TEST(test_crash_once)
{
	/* "Engine process crash during an engine game: the server notices,
	 * restarts or replaces it, the game goes on." */
	char action[400];
	snprintf(action, sizeof action,
		 "if [ -e \"$D/crashed\" ]; then echo 'bestmove e2e4'; else : > \"$D/crashed\"; kill -KILL $$; fi");
	struct engine_pool *pool = pool_open(fake_engine(action), 1, 2000);
	struct slot s;
	ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
	ck_assert_str_eq(s.error, "");
	ck_assert_str_eq(s.uci, "e2e4");
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.restarts, 1);
	ck_assert_uint_eq(st.spawned, 2);
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_crash_always)
{
	/* "the bundled engine seat never silently falls back to something
	 * else": a second failure is an explicit error, not a move. */
	struct engine_pool *pool = pool_open(fake_engine("exit 3"), 1, 2000);
	struct slot s;
	ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
	ck_assert_str_eq(s.uci, "");
	ck_assert_ptr_nonnull(strstr(s.error, "engine failed twice"));
	ck_assert_ptr_nonnull(strstr(s.error, "exited with status 3"));
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.restarts, 2);
	ck_assert_uint_eq(st.failed, 1);
	ck_assert_uint_eq(st.answered, 0);
	/* The pool still works: a later request starts a new engine (which
	 * fails the same way, again explicitly). */
	ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
	ck_assert_ptr_nonnull(strstr(s.error, "engine failed twice"));
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_hung_engine)
{
	/* Never answers "go", ignores "stop": killed after movetime + margin +
	 * grace, twice, then an error. */
	struct engine_pool *pool = pool_open(fake_engine(":"), 1, 200);
	int64_t t0 = now_mono_ms();
	struct slot s;
	ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
	int64_t took = s.at_ms - t0;
	ck_assert_str_eq(s.uci, "");
	ck_assert_ptr_nonnull(strstr(s.error, "timed out"));
	/* Each attempt waits movetime (50) + margin (200) + grace (200). */
	ck_assert_int_ge(took, 2 * (50 + 200 + 200));
	ck_assert_int_lt(took, 3000);
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_bad_answers)
{
	const char *actions[] = { "echo 'bestmove zz99'", "echo 'bestmove e2e5'", "echo 'bestmove (none)'" };
	const char *want[] = { "answered \"bestmove zz99\"", "illegal move e2e5", "answered \"bestmove (none)\"" };
	for (int i = 0; i < 3; i++) {
		struct engine_pool *pool = pool_open(fake_engine(actions[i]), 1, 2000);
		struct slot s;
		ask(pool, NULL, NULL, 0, 1, false, &s, 5000);
		ck_assert_str_eq(s.uci, "");
		ck_assert_msg(strstr(s.error, want[i]), "%s", s.error);
		ck_assert_ptr_nonnull(strstr(s.error, "engine failed twice"));
		engine_pool_free(pool);
	}
	assert_no_children();
}
END_TEST

START_TEST(test_not_an_engine)
{
	struct engine_options o;
	engine_options_init(&o);
	o.start_ms = 2000;
	char *err = NULL;
	o.path = "/bin/true";
	ck_assert_ptr_null(engine_pool_new(&o, &err));
	/* It may be gone before "uci" is even written. */
	ck_assert_msg(strstr(err, "closed its output before \"uciok\"") || strstr(err, "writing to the engine"), "%s",
		      err);
	ck_assert_msg(strstr(err, "exited with status 0"), "%s", err);
	free(err);
	err = NULL;
	o.path = "/nonexistent/stockfish";
	ck_assert_ptr_null(engine_pool_new(&o, &err));
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	free(err);
	err = NULL;
	o.path = "/bin/true";
	o.max_engines = 0;
	ck_assert_ptr_null(engine_pool_new(&o, &err));
	ck_assert_ptr_nonnull(err);
	free(err);
	assert_no_children();
}
END_TEST

START_TEST(test_bad_requests)
{
	struct engine_pool *pool = pool_open(fake_engine("echo 'bestmove e2e4'"), 1, 2000);
	struct slot s = { 0 };
	char *err = NULL;
	const char *bad_move[] = { "e2e4", "e2e4" };
	const char *junk[] = { "e2e4\nquit" };
	/* Level outside 1..8. */
	ck_assert_int_eq(engine_request(pool, NULL, NULL, 0, 0, false, on_done, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "level 0"));
	free(err);
	ck_assert_int_eq(engine_request(pool, NULL, NULL, 0, 9, false, on_done, &s, NULL), -1);
	/* A FEN that does not parse, or smuggles a command in. */
	ck_assert_int_eq(engine_request(pool, "not a fen", NULL, 0, 1, false, on_done, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "start position"));
	free(err);
	ck_assert_int_eq(engine_request(pool, FEN_START "\nquit", NULL, 0, 1, false, on_done, &s, &err), -1);
	free(err);
	/* A move not legal in turn (e2e4 twice), or with a command after it. */
	ck_assert_int_eq(engine_request(pool, NULL, bad_move, 2, 1, false, on_done, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "move 2"));
	free(err);
	ck_assert_int_eq(engine_request(pool, NULL, junk, 1, 1, false, on_done, &s, &err), -1);
	free(err);
	/* A mated position has no move to ask for. */
	ck_assert_int_eq(engine_request(pool, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", NULL, 0, 1, false, on_done, &s,
					&err),
			 -1);
	ck_assert_str_eq(err, "the position has no legal move");
	free(err);
	ck_assert_int_eq(s.calls, 0);
	struct engine_stats st;
	engine_pool_stats(pool, &st);
	ck_assert_uint_eq(st.requests, 0);
	engine_pool_free(pool);
	assert_no_children();
}
END_TEST

START_TEST(test_close_in_flight)
{
	/* Closing does not wait for a hung search's deadline (5 s here), and
	 * every request still gets its one callback. */
	struct engine_pool *pool = pool_open(fake_engine(":"), 1, 5000);
	struct waiter w;
	waiter_init(&w);
	struct slot a = { .w = &w }, b = { .w = &w };
	ck_assert_int_gt(engine_request(pool, NULL, NULL, 0, 1, false, on_done, &a, NULL), 0);
	ck_assert_int_gt(engine_request(pool, NULL, NULL, 0, 1, false, on_done, &b, NULL), 0);
	int64_t t0 = now_mono_ms();
	engine_pool_free(pool);
	ck_assert_int_lt(now_mono_ms() - t0, 3000);
	ck_assert(wait_done(&w, 2, 1000));
	ck_assert_int_eq(a.calls, 1);
	ck_assert_int_eq(b.calls, 1);
	ck_assert_str_eq(a.error, "engine pool closed");
	ck_assert_str_eq(b.error, "engine pool closed");
	waiter_fini(&w);
	assert_no_children();
}
END_TEST

int main(void)
{
	stockfish = engine_find_default();
	Suite *s = suite_create("engine");
	TCase *fake = tcase_create("fake");
	tcase_add_checked_fixture(fake, dir_setup, dir_teardown);
	tcase_set_timeout(fake, 30);
	tcase_add_test(fake, test_level_table);
	tcase_add_test(fake, test_position_command);
	tcase_add_test(fake, test_no_fd_leak);
	tcase_add_test(fake, test_crash_once);
	tcase_add_test(fake, test_crash_always);
	tcase_add_test(fake, test_hung_engine);
	tcase_add_test(fake, test_bad_answers);
	tcase_add_test(fake, test_not_an_engine);
	tcase_add_test(fake, test_bad_requests);
	tcase_add_test(fake, test_close_in_flight);
	tcase_add_test(fake, test_info_parse);
	tcase_add_test(fake, test_analysis_lines);
	suite_add_tcase(s, fake);
	if (stockfish) {
		TCase *sf = tcase_create("stockfish");
		tcase_set_timeout(sf, 60);
		tcase_add_test(sf, test_handshake);
		tcase_add_test(sf, test_every_level);
		tcase_add_test(sf, test_mate_in_one);
		tcase_add_test(sf, test_chess960_castling);
		tcase_add_test(sf, test_repetition_history);
		tcase_add_test(sf, test_killed_mid_search);
		tcase_add_test(sf, test_cancel);
		tcase_add_test(sf, test_concurrent);
		tcase_add_test(sf, test_analysis_stockfish);
		suite_add_tcase(s, sf);
	} else {
		fprintf(stderr, "test-engine: stockfish not installed (%s or on PATH): skipping its tests\n",
			ENGINE_DEFAULT_PATH);
	}
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(stockfish);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
