/*
 * Review's engine analysis (review-engine.h): two pools of one engine each
 * (the pass and the shown position, so the lines of the position on the
 * screen never wait behind the pass), started on a thread of their own,
 * results stored under one lock by the pools' callbacks (each one wakes
 * the owner through its notify function), and the pass's cache file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "review-engine.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define REVIEW_ENGINE_CACHE_MAGIC "tchess-analysis 1"

/* What a callback needs to find its slot: a pass position, or the shown
 * position, of one generation (a newer pass or position makes it stale). */
struct review_engine_job {
	struct review_engine *re;
	unsigned gen;
	size_t index;   /* SIZE_MAX: the shown position */
};

enum review_engine_starting { REVIEW_ENGINE_STARTING, REVIEW_ENGINE_READY, REVIEW_ENGINE_FAILED };

struct review_engine {
	char *path;
	struct engine_limits lim;
	struct engine_pool *pass_pool, *show_pool;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long serial;
	char error[256];
	review_engine_notify_fn *notify;
	void *notify_arg;

	/* The start, on its own thread (the UCI handshakes may take up to
	 * the pool's start deadline). */
	enum review_engine_starting state;
	bool abandoned;                  /* freed while starting: the thread frees it */
	int64_t start_ms;                /* the handshake's deadline, 0: the pool's */
	char start_error[256];

	/* The pass. */
	unsigned pass_gen;
	size_t n;                        /* positions */
	size_t answered;                 /* done or failed */
	struct review_engine_eval *evals;
	int *ids;
	struct review_engine_job **jobs; /* NULL once its callback ran */
	char key[2 * SHA256_DIGEST_SIZE + 1];
	bool cached;                     /* read from or written to the cache */

	/* The shown position. */
	unsigned show_gen;
	int show_id;
	struct review_engine_job *show_job;
	char show_fen[FEN_MAX];
	bool shown_ok;
	struct engine_analysis shown;
};

/* Something new for the screen: the serial moves and the owner is woken.
 * Under the lock. */
static void review_engine_changed(struct review_engine *re)
{
	re->serial++;
	pthread_cond_broadcast(&re->cond);
	if (re->notify)
		re->notify(re->notify_arg);
}

static void review_engine_destroy(struct review_engine *re)
{
	pthread_mutex_destroy(&re->lock);
	pthread_cond_destroy(&re->cond);
	free(re->path);
	free(re);
}

/* The starting thread: both pools (each spawns its engine and waits for
 * the handshake), then READY or FAILED under the lock; when the owner
 * has gone meanwhile, the pools and re are freed here. */
static void *review_engine_starter(void *arg)
{
	struct review_engine *re = arg;
	struct engine_options o;
	engine_options_init(&o);
	o.path = re->path;
	o.max_engines = 1;
	if (re->start_ms > 0)
		o.start_ms = re->start_ms;
	char *err = NULL;
	struct engine_pool *a = engine_pool_new(&o, &err), *b = NULL;
	if (a && !(b = engine_pool_new(&o, &err))) {
		engine_pool_free(a);
		a = NULL;
	}
	pthread_mutex_lock(&re->lock);
	if (re->abandoned) {
		pthread_mutex_unlock(&re->lock);
		engine_pool_free(a);
		engine_pool_free(b);
		free(err);
		review_engine_destroy(re);
		return NULL;
	}
	re->pass_pool = a;
	re->show_pool = b;
	re->state = a ? REVIEW_ENGINE_READY : REVIEW_ENGINE_FAILED;
	if (!a)
		snprintf(re->start_error, sizeof re->start_error, "%s", err ? err : "the engine did not start");
	review_engine_changed(re);
	pthread_mutex_unlock(&re->lock);
	free(err);
	return NULL;
}

struct review_engine *review_engine_start(const char *path, const struct engine_limits *lim, int64_t start_ms,
					  review_engine_notify_fn *notify, void *arg)
{
	struct review_engine *re = xcalloc(1, sizeof *re);
	re->start_ms = start_ms;
	re->path = path ? xstrdup(path) : engine_find_default();
	if (!re->path)
		re->path = xstrdup("stockfish");
	re->lim = *lim;
	re->show_id = -1;
	re->notify = notify;
	re->notify_arg = arg;
	pthread_mutex_init(&re->lock, NULL);
	pthread_cond_init(&re->cond, NULL);
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&t, &attr, review_engine_starter, re);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		re->state = REVIEW_ENGINE_FAILED;
		snprintf(re->start_error, sizeof re->start_error, "cannot start a thread: %s", strerror(rc));
	}
	return re;
}

int review_engine_started(struct review_engine *re, char *buf, size_t size)
{
	pthread_mutex_lock(&re->lock);
	int rc = re->state == REVIEW_ENGINE_READY ? 1 : re->state == REVIEW_ENGINE_STARTING ? 0 : -1;
	if (buf && size)
		snprintf(buf, size, "%s", rc < 0 ? re->start_error : "");
	pthread_mutex_unlock(&re->lock);
	return rc;
}

struct review_engine *review_engine_new(const char *path, const struct engine_limits *lim, char **err)
{
	struct review_engine *re = review_engine_start(path, lim, 0, NULL, NULL);
	pthread_mutex_lock(&re->lock);
	while (re->state == REVIEW_ENGINE_STARTING)
		pthread_cond_wait(&re->cond, &re->lock);
	bool ok = re->state == REVIEW_ENGINE_READY;
	pthread_mutex_unlock(&re->lock);
	if (!ok) {
		*err = xstrdup(re->start_error);
		review_engine_free(re);
		return NULL;
	}
	return re;
}

/* Withdraws the pass's requests still queued or running. Called without
 * the lock (engine_cancel never waits, but a callback may be waiting for
 * the lock while holding nothing of the pool's). */
static void review_engine_drop_pass(struct review_engine *re)
{
	pthread_mutex_lock(&re->lock);
	re->pass_gen++;
	size_t n = re->n;
	int *ids = re->ids;
	struct review_engine_job **jobs = re->jobs;
	re->ids = NULL;
	re->jobs = NULL;
	free(re->evals);
	re->evals = NULL;
	re->n = re->answered = 0;
	re->cached = false;
	pthread_mutex_unlock(&re->lock);
	for (size_t i = 0; i < n; i++) {
		/* A job whose callback will never run is ours to free; one whose
		 * callback runs finds its generation stale and frees itself. */
		pthread_mutex_lock(&re->lock);
		struct review_engine_job *j = jobs[i];
		pthread_mutex_unlock(&re->lock);
		if (j && ids[i] > 0 && engine_cancel(re->pass_pool, ids[i]))
			free(j);
	}
	free(ids);
	free(jobs);
}

void review_engine_free(struct review_engine *re)
{
	if (!re)
		return;
	pthread_mutex_lock(&re->lock);
	if (re->state == REVIEW_ENGINE_STARTING) {
		/* Not waited for (a handshake may hang until its deadline):
		 * the starting thread frees it when it is done. */
		re->abandoned = true;
		pthread_mutex_unlock(&re->lock);
		return;
	}
	/* The owner is going: a callback still due wakes no one. */
	re->notify = NULL;
	pthread_mutex_unlock(&re->lock);
	if (re->state == REVIEW_ENGINE_READY) {
		review_engine_drop_pass(re);
		/* The pools run every callback still due (with "engine pool
		 * closed") before they return. */
		engine_pool_free(re->pass_pool);
		if (re->show_id > 0 && engine_cancel(re->show_pool, re->show_id))
			free(re->show_job);
		engine_pool_free(re->show_pool);
	}
	review_engine_destroy(re);
}

const char *review_engine_path(const struct review_engine *re)
{
	return re->path;
}

/* The UCI moves of the game, and its start FEN, into fen and *uci
 * (caller frees each and the array). -1 when a move is not legal. */
static int review_engine_moves(const struct position *start, const move *moves, size_t n, char *fen, char ***uci)
{
	struct position p = *start;
	char **out = xcalloc(n ? n : 1, sizeof *out);
	fen_write(start, fen);
	for (size_t i = 0; i < n; i++) {
		if (!movegen_is_legal(&p, moves[i])) {
			for (size_t k = 0; k < i; k++)
				free(out[k]);
			free(out);
			return -1;
		}
		out[i] = xmalloc(UCI_MAX);
		uci_write(&p, moves[i], out[i]);
		struct undo u;
		position_make(&p, moves[i], &u);
	}
	*uci = out;
	return 0;
}

/* The pass's cache file path into buf, or -1 when there is no cache
 * folder. */
static int review_engine_cache_path(const struct review_engine *re, char *buf, size_t size, bool create)
{
	char dir[1024], err[256];
	if (account_cache_dir(dir, sizeof dir) < 0)
		return -1;
	size_t len = strlen(dir);
	snprintf(dir + len, sizeof dir - len, "/analysis");
	if (create && account_mkdirs(dir, err, sizeof err) < 0)
		return -1;
	int n = snprintf(buf, size, "%s/%s", dir, re->key);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Reads the cache into re->evals (n positions); true when it holds them
 * all. Under the lock. */
static bool review_engine_cache_read(struct review_engine *re)
{
	char path[1200], line[256];
	if (review_engine_cache_path(re, path, sizeof path, false) < 0)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(line, sizeof line, f) && !strcmp(line, REVIEW_ENGINE_CACHE_MAGIC "\n");
	size_t got = 0;
	while (ok && got < re->n && fgets(line, sizeof line, f)) {
		size_t i;
		char kind[8], best[16];
		int score;
		if (sscanf(line, "%zu %7s %d %15s", &i, kind, &score, best) != 4 || i != got ||
		    (strcmp(kind, "cp") && strcmp(kind, "mate") && strcmp(kind, "none")) || strlen(best) >= UCI_MAX) {
			ok = false;
			break;
		}
		struct review_engine_eval *e = &re->evals[i];
		e->done = true;
		e->has_eval = strcmp(kind, "none") != 0;
		e->mate = !strcmp(kind, "mate");
		e->score = score;
		/* Its length was checked above. */
		if (strcmp(best, "-"))
			memcpy(e->best, best, strlen(best) + 1);
		else
			e->best[0] = '\0';
		got++;
	}
	fclose(f);
	if (!ok || got != re->n) {
		for (size_t i = 0; i < re->n; i++)
			memset(&re->evals[i], 0, sizeof re->evals[i]);
		return false;
	}
	return true;
}

/* Writes the finished pass to the cache (a temporary file renamed over
 * the name, so a reader never sees half of one). Under the lock. */
static void review_engine_cache_write(struct review_engine *re)
{
	char path[1200], tmp[1300];
	if (review_engine_cache_path(re, path, sizeof path, true) < 0)
		return;
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", REVIEW_ENGINE_CACHE_MAGIC);
	for (size_t i = 0; i < re->n; i++) {
		const struct review_engine_eval *e = &re->evals[i];
		fprintf(f, "%zu %s %d %s\n", i, !e->has_eval ? "none" : e->mate ? "mate" : "cp", e->score,
			e->best[0] ? e->best : "-");
	}
	if (fclose(f) == 0)
		rename(tmp, path);
	else
		remove(tmp);
}

/* Stores an analysis as position index's verdict. Under the lock. */
static void review_engine_store(struct review_engine_eval *e, const struct engine_analysis *a)
{
	e->done = true;
	e->has_eval = true;
	e->mate = a->lines[0].mate;
	e->score = a->lines[0].score;
	snprintf(e->best, sizeof e->best, "%s", a->lines[0].n_pv ? a->lines[0].pv[0] : "");
}

static void review_engine_answered(struct review_engine *re)
{
	re->answered++;
	if (re->answered == re->n && !re->error[0] && !re->cached) {
		review_engine_cache_write(re);
		re->cached = true;
	}
	review_engine_changed(re);
}

static void review_engine_on_pass(void *arg, const struct engine_analysis *a, const char *error)
{
	struct review_engine_job *j = arg;
	struct review_engine *re = j->re;
	pthread_mutex_lock(&re->lock);
	if (j->gen == re->pass_gen && j->index < re->n) {
		re->jobs[j->index] = NULL;
		if (a)
			review_engine_store(&re->evals[j->index], a);
		else
			snprintf(re->error, sizeof re->error, "%s", error);
		review_engine_answered(re);
	}
	pthread_mutex_unlock(&re->lock);
	free(j);
}

int review_engine_pass(struct review_engine *re, const struct position *start, const move *moves, size_t n,
		       char **err)
{
	char fen[FEN_MAX], **uci;
	if (review_engine_started(re, NULL, 0) != 1) {
		*err = xstrdup("the engine has not started");
		return -1;
	}
	if (review_engine_moves(start, moves, n, fen, &uci) < 0) {
		*err = xstrdup("a move of the game is not legal");
		return -1;
	}
	review_engine_drop_pass(re);

	/* The cache key: the engine, the limits and the game. */
	struct sha256 h;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char head[1400];
	snprintf(head, sizeof head, "%s\n%s\ndepth %d nodes %lld movetime %d\n%s", REVIEW_ENGINE_CACHE_MAGIC, re->path,
		 re->lim.depth, (long long)re->lim.nodes, re->lim.movetime_ms, fen);
	sha256_init(&h);
	sha256_update(&h, head, strlen(head));
	for (size_t i = 0; i < n; i++) {
		sha256_update(&h, " ", 1);
		sha256_update(&h, uci[i], strlen(uci[i]));
	}
	sha256_final(&h, digest);

	pthread_mutex_lock(&re->lock);
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(re->key + 2 * i, 3, "%02x", digest[i]);
	re->n = n + 1;
	re->answered = 0;
	re->error[0] = '\0';
	re->evals = xcalloc(re->n, sizeof *re->evals);
	re->ids = xcalloc(re->n, sizeof *re->ids);
	re->jobs = xcalloc(re->n, sizeof *re->jobs);
	unsigned gen = re->pass_gen;
	if (review_engine_cache_read(re)) {
		re->answered = re->n;
		re->cached = true;
		review_engine_changed(re);
		pthread_mutex_unlock(&re->lock);
		goto out;
	}
	pthread_mutex_unlock(&re->lock);

	struct position p = *start;
	for (size_t i = 0; i <= n; i++) {
		struct engine_limits lim = re->lim;
		lim.multipv = 1;
		if (!movegen_has_legal(&p)) {
			/* The game's end, no engine needed: stalemate is level;
			 * a mated position has no evaluation (as on Lichess, so
			 * the mating move is not judged against a "mate in 0"). */
			pthread_mutex_lock(&re->lock);
			struct review_engine_eval *e = &re->evals[i];
			e->done = true;
			e->has_eval = !position_in_check(&p);
			review_engine_answered(re);
			pthread_mutex_unlock(&re->lock);
		} else {
			struct review_engine_job *j = xmalloc(sizeof *j);
			j->re = re;
			j->gen = gen;
			j->index = i;
			pthread_mutex_lock(&re->lock);
			re->jobs[i] = j;
			pthread_mutex_unlock(&re->lock);
			char *why = NULL;
			int id = engine_analyse(re->pass_pool, fen, (const char *const *)uci, i, start->chess960, &lim,
						review_engine_on_pass, j, &why);
			pthread_mutex_lock(&re->lock);
			if (id < 0) {
				re->jobs[i] = NULL;
				free(j);
				snprintf(re->error, sizeof re->error, "%s", why ? why : "engine refused the position");
				review_engine_answered(re);
			} else if (re->jobs[i]) {
				re->ids[i] = id;
			}
			pthread_mutex_unlock(&re->lock);
			free(why);
		}
		if (i < n) {
			struct undo u;
			position_make(&p, moves[i], &u);
		}
	}
out:
	for (size_t i = 0; i < n; i++)
		free(uci[i]);
	free(uci);
	return 0;
}

void review_engine_progress(struct review_engine *re, size_t *done, size_t *total)
{
	pthread_mutex_lock(&re->lock);
	*done = re->answered;
	*total = re->n;
	pthread_mutex_unlock(&re->lock);
}

bool review_engine_eval_at(struct review_engine *re, size_t i, struct review_engine_eval *out)
{
	pthread_mutex_lock(&re->lock);
	bool ok = i < re->n && re->evals[i].done;
	if (ok)
		*out = re->evals[i];
	pthread_mutex_unlock(&re->lock);
	return ok;
}

static void review_engine_on_show(void *arg, const struct engine_analysis *a, const char *error)
{
	struct review_engine_job *j = arg;
	struct review_engine *re = j->re;
	pthread_mutex_lock(&re->lock);
	if (j->gen == re->show_gen) {
		re->show_job = NULL;
		re->show_id = -1;
		if (a) {
			re->shown = *a;
			re->shown_ok = true;
		} else {
			snprintf(re->error, sizeof re->error, "%s", error);
		}
		review_engine_changed(re);
	}
	pthread_mutex_unlock(&re->lock);
	free(j);
}

void review_engine_show(struct review_engine *re, const struct position *start, const move *moves, size_t n)
{
	char fen[FEN_MAX], **uci;
	if (review_engine_started(re, NULL, 0) != 1 || review_engine_moves(start, moves, n, fen, &uci) < 0)
		return;
	pthread_mutex_lock(&re->lock);
	int old = re->show_id;
	struct review_engine_job *old_job = re->show_job;
	re->show_gen++;
	re->show_id = -1;
	re->show_job = NULL;
	re->shown_ok = false;
	struct position p = *start;
	for (size_t i = 0; i < n; i++) {
		struct undo u;
		position_make(&p, moves[i], &u);
	}
	fen_write(&p, re->show_fen);
	unsigned gen = re->show_gen;
	pthread_mutex_unlock(&re->lock);
	if (old > 0 && engine_cancel(re->show_pool, old))
		free(old_job);

	if (movegen_has_legal(&p)) {
		struct review_engine_job *j = xmalloc(sizeof *j);
		j->re = re;
		j->gen = gen;
		j->index = SIZE_MAX;
		pthread_mutex_lock(&re->lock);
		re->show_job = j;
		pthread_mutex_unlock(&re->lock);
		int id = engine_analyse(re->show_pool, fen, (const char *const *)uci, n, start->chess960, &re->lim,
					review_engine_on_show, j, NULL);
		pthread_mutex_lock(&re->lock);
		if (id < 0) {
			if (re->show_job == j)
				re->show_job = NULL;
			free(j);
		} else if (re->show_job == j) {
			re->show_id = id;
		}
		pthread_mutex_unlock(&re->lock);
	}
	for (size_t i = 0; i < n; i++)
		free(uci[i]);
	free(uci);
}

bool review_engine_shown(struct review_engine *re, struct engine_analysis *out, char *fen)
{
	pthread_mutex_lock(&re->lock);
	bool ok = re->shown_ok;
	if (ok)
		*out = re->shown;
	memcpy(fen, re->show_fen, FEN_MAX);
	pthread_mutex_unlock(&re->lock);
	return ok;
}

unsigned long review_engine_serial(struct review_engine *re)
{
	pthread_mutex_lock(&re->lock);
	unsigned long s = re->serial;
	pthread_mutex_unlock(&re->lock);
	return s;
}

void review_engine_error(struct review_engine *re, char *buf, size_t size)
{
	pthread_mutex_lock(&re->lock);
	snprintf(buf, size, "%s", re->error);
	pthread_mutex_unlock(&re->lock);
}

int review_engine_wait(struct review_engine *re, char *buf, size_t size)
{
	pthread_mutex_lock(&re->lock);
	while (re->answered < re->n && !re->error[0])
		pthread_cond_wait(&re->cond, &re->lock);
	int rc = re->error[0] ? -1 : 0;
	snprintf(buf, size, "%s", re->error);
	pthread_mutex_unlock(&re->lock);
	return rc;
}
