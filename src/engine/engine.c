/*
 * UCI engine pool: engine child processes, the UCI conversation with each
 * (a move at a level, or an analysis within limits), and the recovery rules
 * (kill, reap, restart, retry once, then an explicit error). See engine.h
 * for the API, the level table and the threading model.
 *
 * Locking: pool->lock guards the queue, the closing flag, the stats, each
 * worker's current request pointer and its pid copy. A worker's engine
 * process (fd, read buffer, option state) belongs to that worker alone and is
 * used without the lock; other threads reach a busy worker only by setting a
 * flag under the lock and writing a byte to its wake socket.
 */
/* For posix_spawn_file_actions_addclosefrom_np (glibc 2.34). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/position.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

#define ENGINE_MAX_PROCS 16
#define ENGINE_QUIT_MS 1000
/* After an engine closed its output, how long to let it finish exiting
 * before killing it, so the log can say how it died. */
#define ENGINE_REAP_MS 200
#define ENGINE_LINE_MAX 8192

static const struct engine_level levels[ENGINE_LEVEL_MAX] = {
	{ 0, 50 }, { 3, 100 }, { 6, 150 }, { 9, 200 }, { 12, 300 }, { 15, 400 }, { 18, 600 }, { 20, 1000 },
};

struct engine_req {
	int id;
	int level;
	bool chess960;
	bool cancelled;     /* under pool->lock */
	int64_t queued_ms;  /* monotonic, when it was queued */
	struct position pos; /* the position the move is wanted for */
	char *cmd;          /* "position fen ... moves ...\n" */
	engine_done_fn *done;
	/* An analysis instead of a move: its limits, callback and the lines
	 * read so far (the worker's alone). */
	bool analyse;
	struct engine_limits lim;
	engine_analysis_fn *adone;
	struct engine_analysis result;
	void *arg;
	struct engine_req *next;
};

struct engine_proc {
	pid_t pid; /* 0: no process */
	int fd;    /* our end of the socketpair */
	int skill; /* Skill Level last set; -1 for not yet */
	int chess960;
	int multipv; /* MultiPV last set; -1 for not yet */
	size_t len;
	bool skipping; /* dropping the rest of an overlong line */
	bool eof;      /* its output closed: it is probably exiting by itself */
	char buf[ENGINE_LINE_MAX];
	char line[ENGINE_LINE_MAX];
};

struct engine_worker {
	struct engine_pool *pool;
	int index;
	pthread_t thread;
	bool thread_started;
	int wake[2]; /* [1] is written to interrupt the worker, which polls [0] */
	pid_t pid;   /* copy of proc.pid, under pool->lock */
	struct engine_req *cur; /* under pool->lock */
	struct engine_proc proc;
};

struct engine_pool {
	struct engine_options opt;
	char *path;
	pthread_mutex_t lock;
	pthread_cond_t work;
	struct engine_req *head, *tail;
	struct engine_worker *workers;
	int n_workers;
	int next_id;
	bool closing;
	struct engine_stats stats;
};

/* What a step of the conversation came to. */
enum engine_outcome {
	ENGINE_OK,
	ENGINE_FAIL,  /* the engine misbehaved: kill, restart, retry */
	ENGINE_ABORT, /* cancelled or closing: stop without an answer */
};

enum engine_read {
	READ_LINE,
	READ_TIMEOUT,
	READ_EOF,
	READ_ABORT,
};

const struct engine_level *engine_level(int level)
{
	if (level < ENGINE_LEVEL_MIN || level > ENGINE_LEVEL_MAX)
		return NULL;
	return &levels[level - 1];
}

void engine_options_init(struct engine_options *o)
{
	memset(o, 0, sizeof *o);
	o->max_engines = 2;
	o->margin_ms = 2000;
	o->stop_grace_ms = 500;
	o->start_ms = 10000;
}

char *engine_find_default(void)
{
	if (access(ENGINE_DEFAULT_PATH, X_OK) == 0)
		return xstrdup(ENGINE_DEFAULT_PATH);
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	while (*path) {
		size_t n = strcspn(path, ":");
		if (n) {
			char *cand = xasprintf("%.*s/stockfish", (int)n, path);
			if (access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return NULL;
}

static void set_pid(struct engine_worker *w, pid_t pid)
{
	w->proc.pid = pid;
	pthread_mutex_lock(&w->pool->lock);
	w->pid = pid;
	pthread_mutex_unlock(&w->pool->lock);
}

/* True if the worker's request was cancelled or the pool is closing. */
static bool worker_aborted(struct engine_worker *w, const struct engine_req *req)
{
	pthread_mutex_lock(&w->pool->lock);
	bool stop = w->pool->closing || (req && req->cancelled);
	pthread_mutex_unlock(&w->pool->lock);
	return stop;
}

static void wake_worker(struct engine_worker *w)
{
	char c = 1;
	/* Non-blocking: if the socket is full a wake is pending anyway. */
	if (send(w->wake[1], &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		log_warn("engine: waking worker %d: %s", w->index, strerror(errno));
}

static void drain_wake(struct engine_worker *w)
{
	char junk[64];
	while (recv(w->wake[0], junk, sizeof junk, MSG_DONTWAIT) > 0)
		;
}

/*
 * Reads one line from the engine into proc->line (without the newline or a
 * carriage return) by the monotonic deadline. With watch set, a wake that
 * finds the request cancelled or the pool closing returns READ_ABORT.
 */
static enum engine_read read_line(struct engine_worker *w, const struct engine_req *req, int64_t deadline,
				  bool watch)
{
	struct engine_proc *p = &w->proc;
	for (;;) {
		char *nl = memchr(p->buf, '\n', p->len);
		if (nl) {
			size_t n = (size_t)(nl - p->buf), used = n + 1;
			bool skip = p->skipping;
			if (!skip) {
				memcpy(p->line, p->buf, n);
				if (n && p->line[n - 1] == '\r')
					n--;
				p->line[n] = '\0';
			}
			p->skipping = false;
			p->len -= used;
			memmove(p->buf, p->buf + used, p->len);
			if (!skip)
				return READ_LINE;
			continue;
		}
		if (p->len == sizeof p->buf) {
			/* A line this long is nothing we need (a huge "info"). */
			p->skipping = true;
			p->len = 0;
		}
		int64_t left = deadline - now_mono_ms();
		if (left <= 0)
			return READ_TIMEOUT;
		struct pollfd fds[2] = {
			{ .fd = p->fd, .events = POLLIN },
			{ .fd = w->wake[0], .events = POLLIN },
		};
		int r = poll(fds, watch ? 2 : 1, left > 1000000 ? 1000000 : (int)left);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			log_error("engine: poll: %s", strerror(errno));
			return READ_EOF;
		}
		if (watch && (fds[1].revents & POLLIN)) {
			drain_wake(w);
			if (worker_aborted(w, req))
				return READ_ABORT;
		}
		if (fds[0].revents) {
			ssize_t got = read(p->fd, p->buf + p->len, sizeof p->buf - p->len);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				p->eof = true;
				return READ_EOF;
			}
			p->len += (size_t)got;
		}
	}
}

/* Writes text to the engine; -1 with *err set if it is gone. */
static int send_str(struct engine_proc *p, const char *text, char **err)
{
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = send(p->fd, text + off, len - off, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*err = xasprintf("writing to the engine: %s", strerror(errno));
			p->eof = true;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

/* send_str() for the short commands (options, go); never cut short. */
static int send_cmd(struct engine_proc *p, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int send_cmd(struct engine_proc *p, char **err, const char *fmt, ...)
{
	char line[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line) {
		/* A command longer than any we write: a bug here, so refuse it
		 * whole rather than send the engine half a line. */
		*err = xasprintf("engine command too long (%d bytes)", n);
		return -1;
	}
	return send_str(p, line, err);
}

static char *describe_status(int status)
{
	if (WIFEXITED(status))
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d", WTERMSIG(status));
	return xasprintf("stopped (status 0x%x)", (unsigned)status);
}

/* A fresh conversation on fd: nothing read, no option known to be set. */
static void proc_reset(struct engine_proc *p, int fd)
{
	p->fd = fd;
	p->len = 0;
	p->skipping = false;
	p->eof = false;
	p->skill = -1;
	p->chess960 = -1;
	p->multipv = -1;
}

/*
 * Ends the worker's engine process and reaps it. With grace_ms > 0 the
 * process gets that long to exit by itself (after "quit" or a crash) before
 * SIGKILL. Returns how it ended (caller frees), or NULL if there was none.
 */
static char *proc_end(struct engine_worker *w, int64_t grace_ms)
{
	struct engine_proc *p = &w->proc;
	if (!p->pid)
		return NULL;
	int status = 0;
	pid_t r = 0;
	int64_t deadline = now_mono_ms() + grace_ms;
	while (grace_ms > 0) {
		r = waitpid(p->pid, &status, WNOHANG);
		if (r != 0 || now_mono_ms() >= deadline)
			break;
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (r == 0) {
		kill(p->pid, SIGKILL);
		do
			r = waitpid(p->pid, &status, 0);
		while (r < 0 && errno == EINTR);
	}
	char *how = r == p->pid ? describe_status(status) : xasprintf("lost (%s)", strerror(errno));
	close(p->fd);
	proc_reset(p, -1);
	log_debug("engine %d: pid %d %s", w->index, (int)p->pid, how);
	set_pid(w, 0);
	return how;
}

/* Waits for a line equal to want, ignoring others. */
static enum engine_outcome expect(struct engine_worker *w, const struct engine_req *req, const char *want,
				  char **err)
{
	int64_t deadline = now_mono_ms() + w->pool->opt.start_ms;
	for (;;) {
		switch (read_line(w, req, deadline, true)) {
		case READ_LINE:
			if (!strcmp(w->proc.line, want))
				return ENGINE_OK;
			break;
		case READ_TIMEOUT:
			*err = xasprintf("no \"%s\" within %lld ms", want, (long long)w->pool->opt.start_ms);
			return ENGINE_FAIL;
		case READ_EOF:
			*err = xasprintf("closed its output before \"%s\"", want);
			return ENGINE_FAIL;
		case READ_ABORT:
			return ENGINE_ABORT;
		}
	}
}

/* Spawns the engine and goes through the UCI handshake. */
static enum engine_outcome proc_start(struct engine_worker *w, const struct engine_req *req, char **err)
{
	struct engine_pool *pool = w->pool;
	struct engine_proc *p = &w->proc;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		*err = xasprintf("socketpair: %s", strerror(errno));
		return ENGINE_FAIL;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* dup2 clears close-on-exec on the copies; both originals close. */
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	/* Anything the server opened without close-on-exec (a library's
	 * socket, say) must not leak into an engine and outlive tchessd. */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	sigset_t none, dfl;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	char *argv[] = { pool->path, NULL };
	pid_t pid;
	int rc = strchr(pool->path, '/') ? posix_spawn(&pid, pool->path, &fa, &at, argv, environ)
					 : posix_spawnp(&pid, pool->path, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		*err = xasprintf("cannot start %s: %s", pool->path, strerror(rc));
		return ENGINE_FAIL;
	}
	/* Below the process that asked, when it says so: a server's own
	 * answers come before its engines' searches. A failure costs only
	 * that (the engine plays at the server's priority). */
	if (pool->opt.nice > 0 && setpriority(PRIO_PROCESS, (id_t)pid, getpriority(PRIO_PROCESS, 0) + pool->opt.nice))
		log_warn("engine %d: cannot lower its priority: %s", w->index, strerror(errno));
	proc_reset(p, sv[0]);
	set_pid(w, pid);
	pthread_mutex_lock(&pool->lock);
	pool->stats.spawned++;
	pthread_mutex_unlock(&pool->lock);
	log_debug("engine %d: started %s as pid %d", w->index, pool->path, (int)pid);

	enum engine_outcome o = ENGINE_FAIL;
	if (send_cmd(p, err, "uci\n"))
		return ENGINE_FAIL;
	if ((o = expect(w, req, "uciok", err)) == ENGINE_OK) {
		if (send_cmd(p, err, "setoption name Threads value 1\nsetoption name Hash value 16\nisready\n"))
			return ENGINE_FAIL;
		o = expect(w, req, "readyok", err);
	}
	/* Half-started engines are not kept: the next request starts afresh. */
	if (o == ENGINE_ABORT)
		free(proc_end(w, 0));
	return o;
}

/* True if s has the shape of a UCI move: e2e4, e7e8q. */
static bool uci_shaped(const char *s, size_t n)
{
	if (n != 4 && n != 5)
		return false;
	for (int i = 0; i < 4; i += 2) {
		if (s[i] < 'a' || s[i] > 'h' || s[i + 1] < '1' || s[i + 1] > '8')
			return false;
	}
	return n == 4 || strchr("nbrq", s[4]) != NULL;
}

/* Handles "bestmove X ...": writes the move to out (UCI_MAX bytes). */
static enum engine_outcome take_bestmove(const struct engine_req *req, const char *line, char *out, char **err)
{
	const char *mv = line + strlen("bestmove");
	while (*mv == ' ')
		mv++;
	size_t n = strcspn(mv, " ");
	if (!uci_shaped(mv, n)) {
		*err = xasprintf("answered \"%.40s\"", line);
		return ENGINE_FAIL;
	}
	move m;
	struct tchess_error terr;
	if (uci_parse(&req->pos, mv, n, &m, &terr) != TCHESS_OK) {
		*err = xasprintf("answered the illegal move %.*s", (int)n, mv);
		return ENGINE_FAIL;
	}
	uci_write(&req->pos, m, out);
	return ENGINE_OK;
}

/* After a cancel during a search: "stop" and wait briefly for the bestmove
 * so the engine is idle for the next request; kill it if it does not come. */
static void abandon_search(struct engine_worker *w)
{
	char *err = NULL;
	int64_t deadline = now_mono_ms() + w->pool->opt.stop_grace_ms;
	if (!send_cmd(&w->proc, &err, "stop\n")) {
		for (;;) {
			enum engine_read r = read_line(w, NULL, deadline, false);
			if (r == READ_LINE && strncmp(w->proc.line, "bestmove", 8))
				continue;
			if (r == READ_LINE)
				return;
			break;
		}
	}
	free(err);
	free(proc_end(w, 0));
}

bool engine_info_parse(const char *line, int *multipv, int *depth, bool *mate, int *score, const char **pv)
{
	bool have_depth = false, have_score = false;
	if (strncmp(line, "info ", 5))
		return false;
	*multipv = 1;
	*pv = NULL;
	const char *s = line + 5;
	while (*s) {
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		if (!n)
			break;
		const char *next = s + n;
		while (*next == ' ')
			next++;
		char *end;
		if (n == 5 && !strncmp(s, "depth", 5)) {
			long v = strtol(next, &end, 10);
			if (end == next || v < 0 || v > 1000)
				return false;
			*depth = (int)v;
			have_depth = true;
			s = end;
		} else if (n == 7 && !strncmp(s, "multipv", 7)) {
			long v = strtol(next, &end, 10);
			if (end == next || v < 1 || v > 500)
				return false;
			*multipv = (int)v;
			s = end;
		} else if (n == 5 && !strncmp(s, "score", 5)) {
			bool is_mate = !strncmp(next, "mate ", 5);
			if (!is_mate && strncmp(next, "cp ", 3))
				return false;
			const char *num = next + (is_mate ? 5 : 3);
			long v = strtol(num, &end, 10);
			if (end == num || v < -100000 || v > 100000)
				return false;
			*mate = is_mate;
			*score = (int)v;
			have_score = true;
			s = end;
			while (*s == ' ')
				s++;
			/* A bound is no score. */
			if (!strncmp(s, "lowerbound", 10) || !strncmp(s, "upperbound", 10))
				return false;
		} else if (n == 2 && !strncmp(s, "pv", 2)) {
			*pv = next;
			break;
		} else if (n == 6 && !strncmp(s, "string", 6)) {
			return false;
		} else {
			s = next;
		}
	}
	return have_depth && have_score;
}

/* Takes a complete info line into req's lines: the pv checked move by move
 * from the position (and cut at the first move that is not legal), the
 * score turned to White's point of view. */
static void take_info(struct engine_req *req, const char *line)
{
	int k, depth = 0, score = 0;
	bool mate = false;
	const char *pv;
	if (!engine_info_parse(line, &k, &depth, &mate, &score, &pv) || k > req->lim.multipv || !pv)
		return;
	struct engine_line *l = &req->result.lines[k - 1];
	struct position p = req->pos;
	memset(l, 0, sizeof *l);
	l->mate = mate;
	l->score = p.side == WHITE ? score : -score;
	l->depth = depth;
	while (*pv && l->n_pv < ENGINE_PV_MAX) {
		size_t n = strcspn(pv, " ");
		move m;
		struct tchess_error terr;
		if (!uci_shaped(pv, n) || uci_parse(&p, pv, n, &m, &terr) != TCHESS_OK)
			break;
		uci_write(&p, m, l->pv[l->n_pv++]);
		struct undo u;
		position_make(&p, m, &u);
		pv += n;
		while (*pv == ' ')
			pv++;
	}
	if (l->n_pv == 0)
		return;
	if (k > req->result.n_lines)
		req->result.n_lines = k;
}

static enum engine_outcome search(struct engine_worker *w, struct engine_req *req, char *out, char **err)
{
	struct engine_pool *pool = w->pool;
	struct engine_proc *p = &w->proc;
	static const struct engine_level full = { 20, 0 };
	const struct engine_level *lv = req->analyse ? &full : engine_level(req->level);
	enum engine_outcome o;
	if (p->skill != lv->skill) {
		if (send_cmd(p, err, "setoption name Skill Level value %d\n", lv->skill))
			return ENGINE_FAIL;
		p->skill = lv->skill;
	}
	int multipv = req->analyse ? req->lim.multipv : 1;
	if (p->multipv != multipv) {
		if (send_cmd(p, err, "setoption name MultiPV value %d\n", multipv))
			return ENGINE_FAIL;
		p->multipv = multipv;
	}
	if (p->chess960 != (int)req->chess960) {
		if (send_cmd(p, err, "setoption name UCI_Chess960 value %s\n", req->chess960 ? "true" : "false"))
			return ENGINE_FAIL;
		p->chess960 = req->chess960;
	}
	/* Requests from different games interleave on one engine: start each
	 * afresh, and wait until the engine is idle so that nothing left over
	 * from an abandoned search can be taken for this answer. */
	if (send_cmd(p, err, "ucinewgame\nisready\n"))
		return ENGINE_FAIL;
	if ((o = expect(w, req, "readyok", err)) != ENGINE_OK)
		return o;
	if (send_str(p, req->cmd, err))
		return ENGINE_FAIL;
	int64_t budget = lv->movetime_ms;
	if (!req->analyse)
		o = send_cmd(p, err, "go movetime %d\n", lv->movetime_ms) ? ENGINE_FAIL : ENGINE_OK;
	else if (req->lim.depth > 0)
		o = send_cmd(p, err, "go depth %d\n", req->lim.depth) ? ENGINE_FAIL : ENGINE_OK;
	else if (req->lim.nodes > 0)
		o = send_cmd(p, err, "go nodes %lld\n", (long long)req->lim.nodes) ? ENGINE_FAIL : ENGINE_OK;
	else
		o = send_cmd(p, err, "go movetime %d\n", req->lim.movetime_ms) ? ENGINE_FAIL : ENGINE_OK;
	if (o != ENGINE_OK)
		return o;
	if (req->analyse) {
		budget = req->lim.timeout_ms > 0 ? req->lim.timeout_ms : 60000;
		memset(&req->result, 0, sizeof req->result);
	}
	int64_t deadline = now_mono_ms() + budget + pool->opt.margin_ms;
	bool stopped = false;
	for (;;) {
		switch (read_line(w, req, deadline, true)) {
		case READ_LINE:
			if (!strncmp(p->line, "bestmove", 8) && (p->line[8] == ' ' || !p->line[8])) {
				if (!req->analyse)
					return take_bestmove(req, p->line, out, err);
				if (req->result.n_lines == 0) {
					*err = xasprintf("answered \"%.40s\" with no line", p->line);
					return ENGINE_FAIL;
				}
				return ENGINE_OK;
			}
			if (req->analyse)
				take_info(req, p->line);
			break;
		case READ_TIMEOUT:
			if (stopped) {
				*err = xasprintf("timed out");
				return ENGINE_FAIL;
			}
			/* A late engine may still answer when told to stop. */
			if (send_cmd(p, err, "stop\n"))
				return ENGINE_FAIL;
			stopped = true;
			deadline = now_mono_ms() + pool->opt.stop_grace_ms;
			break;
		case READ_EOF:
			*err = xasprintf("closed its output while searching");
			return ENGINE_FAIL;
		case READ_ABORT:
			abandon_search(w);
			return ENGINE_ABORT;
		}
	}
}

static void stat_add(struct engine_pool *pool, uint64_t *field)
{
	pthread_mutex_lock(&pool->lock);
	(*field)++;
	pthread_mutex_unlock(&pool->lock);
}

static void run_request(struct engine_worker *w, struct engine_req *req)
{
	struct engine_pool *pool = w->pool;
	int64_t t0 = now_mono_ms();
	char mv[UCI_MAX] = "";
	char *errs[2] = { NULL, NULL };
	enum engine_outcome o = ENGINE_FAIL;
	int attempt;
	for (attempt = 0; attempt < 2; attempt++) {
		char *err = NULL;
		o = w->proc.pid ? ENGINE_OK : proc_start(w, req, &err);
		if (o == ENGINE_OK)
			o = search(w, req, mv, &err);
		if (o != ENGINE_FAIL)
			break;
		/* A hung or confused engine is killed at once; one that closed
		 * its pipe gets a moment to exit, so the log says how it died. */
		char *how = proc_end(w, w->proc.eof ? ENGINE_REAP_MS : 0);
		errs[attempt] = how ? xasprintf("%s (%s)", err, how) : xstrdup(err);
		free(how);
		free(err);
		stat_add(pool, &pool->stats.restarts);
		log_warn("engine %d: request %d: engine %s; %s", w->index, req->id, errs[attempt],
			 attempt ? "giving up" : "restarting it and trying again");
	}

	char *error = NULL;
	if (o == ENGINE_FAIL)
		error = xasprintf("engine failed twice: %s; %s", errs[0], errs[1]);
	else if (o == ENGINE_ABORT)
		error = xstrdup("engine pool closed");
	pthread_mutex_lock(&pool->lock);
	w->cur = NULL;
	bool deliver = !req->cancelled;
	if (deliver) {
		if (error)
			pool->stats.failed++;
		else
			pool->stats.answered++;
	}
	pthread_mutex_unlock(&pool->lock);
	log_debug("engine %d: request %d %s %d: %s in %lld ms", w->index, req->id,
		  req->analyse ? "analysis" : "level", req->analyse ? req->lim.multipv : req->level,
		  !deliver ? "cancelled" : error ? error : req->analyse ? "done" : mv,
		  (long long)(now_mono_ms() - t0));
	if (deliver && req->analyse)
		req->adone(req->arg, error ? NULL : &req->result, error);
	else if (deliver)
		req->done(req->arg, error ? NULL : mv, error);
	free(error);
	free(errs[0]);
	free(errs[1]);
	free(req->cmd);
	free(req);
}

static void *worker_main(void *arg)
{
	struct engine_worker *w = arg;
	struct engine_pool *pool = w->pool;
	for (;;) {
		pthread_mutex_lock(&pool->lock);
		while (!pool->head && !pool->closing)
			pthread_cond_wait(&pool->work, &pool->lock);
		if (pool->closing) {
			pthread_mutex_unlock(&pool->lock);
			break;
		}
		struct engine_req *req = pool->head;
		pool->head = req->next;
		if (!pool->head)
			pool->tail = NULL;
		w->cur = req;
		pthread_mutex_unlock(&pool->lock);
		if (pool->opt.on_start && !req->analyse)
			pool->opt.on_start(pool->opt.on_start_arg, req->id, now_mono_ms() - req->queued_ms);
		run_request(w, req);
	}
	if (w->proc.pid) {
		char *err = NULL;
		if (!send_cmd(&w->proc, &err, "quit\n")) {
			int64_t deadline = now_mono_ms() + ENGINE_QUIT_MS;
			while (read_line(w, NULL, deadline, false) == READ_LINE)
				;
		}
		free(err);
		free(proc_end(w, ENGINE_REAP_MS));
	}
	return NULL;
}

static void pool_destroy(struct engine_pool *pool)
{
	for (int i = 0; i < pool->n_workers; i++) {
		struct engine_worker *w = &pool->workers[i];
		if (w->thread_started)
			pthread_join(w->thread, NULL);
		free(proc_end(w, 0));
		if (w->wake[0] >= 0)
			close(w->wake[0]);
		if (w->wake[1] >= 0)
			close(w->wake[1]);
	}
	free(pool->workers);
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->work);
	free(pool->path);
	free(pool);
}

struct engine_pool *engine_pool_new(const struct engine_options *o, char **err)
{
	struct engine_options def;
	if (!o) {
		engine_options_init(&def);
		o = &def;
	}
	if (o->max_engines < 1 || o->max_engines > ENGINE_MAX_PROCS) {
		*err = xasprintf("engines: expected 1 to %d processes, got %d", ENGINE_MAX_PROCS, o->max_engines);
		return NULL;
	}
	if (o->margin_ms < 0 || o->stop_grace_ms < 0 || o->start_ms <= 0) {
		*err = xasprintf("engines: negative timeouts");
		return NULL;
	}
	char *path = o->path ? xstrdup(o->path) : engine_find_default();
	if (!path) {
		*err = xasprintf("no UCI engine found: install stockfish (looked for %s and stockfish on PATH) "
				 "or pass --engine PATH",
				 ENGINE_DEFAULT_PATH);
		return NULL;
	}
	if (strchr(path, '/') && access(path, X_OK) != 0) {
		*err = xasprintf("engine %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	struct engine_pool *pool = xcalloc(1, sizeof *pool);
	pool->opt = *o;
	pool->opt.path = NULL;
	pool->path = path;
	pool->next_id = 1;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pool->n_workers = o->max_engines;
	pool->workers = xcalloc((size_t)pool->n_workers, sizeof *pool->workers);
	for (int i = 0; i < pool->n_workers; i++) {
		struct engine_worker *w = &pool->workers[i];
		w->pool = pool;
		w->index = i;
		w->proc.fd = -1;
		w->wake[0] = w->wake[1] = -1;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, w->wake) < 0) {
			*err = xasprintf("socketpair: %s", strerror(errno));
			pool_destroy(pool);
			return NULL;
		}
	}
	char *why = NULL;
	if (proc_start(&pool->workers[0], NULL, &why) != ENGINE_OK) {
		char *how = proc_end(&pool->workers[0], ENGINE_REAP_MS);
		*err = xasprintf("engine %s: %s%s%s%s", path, why ? why : "failed", how ? " (" : "", how ? how : "",
				 how ? ")" : "");
		free(how);
		free(why);
		pool_destroy(pool);
		return NULL;
	}
	for (int i = 0; i < pool->n_workers; i++) {
		struct engine_worker *w = &pool->workers[i];
		int rc = pthread_create(&w->thread, NULL, worker_main, w);
		if (rc) {
			*err = xasprintf("pthread_create: %s", strerror(rc));
			engine_pool_free(pool);
			return NULL;
		}
		w->thread_started = true;
	}
	log_info("engine: %s, %d process%s at most", path, pool->n_workers, pool->n_workers == 1 ? "" : "es");
	return pool;
}

void engine_pool_free(struct engine_pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->closing = true;
	struct engine_req *queued = pool->head;
	pool->head = pool->tail = NULL;
	pthread_cond_broadcast(&pool->work);
	for (int i = 0; i < pool->n_workers; i++)
		wake_worker(&pool->workers[i]);
	pthread_mutex_unlock(&pool->lock);
	while (queued) {
		struct engine_req *next = queued->next;
		stat_add(pool, &pool->stats.failed);
		if (queued->analyse)
			queued->adone(queued->arg, NULL, "engine pool closed");
		else
			queued->done(queued->arg, NULL, "engine pool closed");
		free(queued->cmd);
		free(queued);
		queued = next;
	}
	pool_destroy(pool);
}

/* A request refused before it is queued: msg to *err (or freed when err
 * is NULL); returns -1. */
static int refuse(char **err, char *msg)
{
	if (err)
		*err = msg;
	else
		free(msg);
	return -1;
}

/* Builds a request for start_fen + moves and queues it; its kind and
 * callback set by the caller in req. Returns the id or -1 with *err. */
static int request_queue(struct engine_pool *pool, struct engine_req *req, const char *start_fen,
			 const char *const *moves, size_t n_moves, bool chess960, char **err)
{
	char *msg = NULL;
	struct buf cmd;
	buf_init(&cmd);
	struct tchess_error terr;
	if (fen_parse(&req->pos, start_fen ? start_fen : FEN_START, &terr) != TCHESS_OK) {
		msg = xasprintf("start position: %s", terr.message);
		goto out;
	}
	if (chess960)
		req->pos.chess960 = true;
	/* The FEN and moves are sent as libtchess writes them, never as given:
	 * nothing the caller passes reaches the engine unchecked, and castling
	 * takes the form the engine's UCI_Chess960 setting expects. */
	char fen[FEN_MAX];
	fen_write(&req->pos, fen);
	buf_printf(&cmd, "position fen %s", fen);
	if (n_moves)
		buf_append_str(&cmd, " moves");
	for (size_t i = 0; i < n_moves; i++) {
		move m;
		char u[UCI_MAX];
		const char *t = moves[i] ? moves[i] : "";
		if (uci_parse(&req->pos, t, strlen(t), &m, &terr) != TCHESS_OK) {
			msg = xasprintf("move %zu \"%.16s\": %s", i + 1, t, terr.message);
			goto out;
		}
		uci_write(&req->pos, m, u);
		buf_printf(&cmd, " %s", u);
		struct undo undo;
		position_make(&req->pos, m, &undo);
	}
	buf_append_str(&cmd, "\n");
	if (!movegen_has_legal(&req->pos)) {
		msg = xstrdup("the position has no legal move");
		goto out;
	}
	req->chess960 = req->pos.chess960;
	req->cmd = buf_steal(&cmd);

	pthread_mutex_lock(&pool->lock);
	if (pool->closing) {
		pthread_mutex_unlock(&pool->lock);
		msg = xstrdup("engine pool closed");
		goto out;
	}
	req->id = pool->next_id++;
	req->queued_ms = now_mono_ms();
	if (pool->next_id == INT32_MAX)
		pool->next_id = 1;
	if (pool->tail)
		pool->tail->next = req;
	else
		pool->head = req;
	pool->tail = req;
	pool->stats.requests++;
	int id = req->id;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	return id;
out:
	free(req->cmd);
	free(req);
	buf_fini(&cmd);
	return refuse(err, msg);
}

int engine_request(struct engine_pool *pool, const char *start_fen, const char *const *moves, size_t n_moves,
		   int level, bool chess960, engine_done_fn *done, void *arg, char **err)
{
	if (!engine_level(level)) {
		return refuse(err, xasprintf("engine level %d: expected %d to %d", level, ENGINE_LEVEL_MIN,
					     ENGINE_LEVEL_MAX));
	}
	struct engine_req *req = xcalloc(1, sizeof *req);
	req->level = level;
	req->done = done;
	req->arg = arg;
	return request_queue(pool, req, start_fen, moves, n_moves, chess960, err);
}

int engine_analyse(struct engine_pool *pool, const char *start_fen, const char *const *moves, size_t n_moves,
		   bool chess960, const struct engine_limits *limits, engine_analysis_fn *done, void *arg, char **err)
{
	if (limits->multipv < 1 || limits->multipv > ENGINE_MULTIPV_MAX || limits->depth < 0 || limits->nodes < 0 ||
	    limits->movetime_ms < 0 || (!limits->depth && !limits->nodes && !limits->movetime_ms)) {
		return refuse(err, xasprintf("analysis: expected a depth, node count or time and 1 to %d lines",
					     ENGINE_MULTIPV_MAX));
	}
	struct engine_req *req = xcalloc(1, sizeof *req);
	req->analyse = true;
	req->lim = *limits;
	req->adone = done;
	req->arg = arg;
	return request_queue(pool, req, start_fen, moves, n_moves, chess960, err);
}

bool engine_cancel(struct engine_pool *pool, int request_id)
{
	bool found = false;
	struct engine_req *gone = NULL;
	pthread_mutex_lock(&pool->lock);
	for (struct engine_req **pp = &pool->head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
		if ((*pp)->id != request_id)
			continue;
		gone = *pp;
		*pp = gone->next;
		if (pool->tail == gone)
			pool->tail = prev;
		found = true;
		break;
	}
	for (int i = 0; !found && i < pool->n_workers; i++) {
		struct engine_worker *w = &pool->workers[i];
		if (w->cur && w->cur->id == request_id && !w->cur->cancelled) {
			w->cur->cancelled = true;
			wake_worker(w);
			found = true;
		}
	}
	if (found)
		pool->stats.cancelled++;
	pthread_mutex_unlock(&pool->lock);
	if (gone) {
		free(gone->cmd);
		free(gone);
	}
	log_debug("engine: cancel request %d: %s", request_id, found ? "withdrawn" : "too late or unknown");
	return found;
}

void engine_pool_stats(struct engine_pool *pool, struct engine_stats *out)
{
	pthread_mutex_lock(&pool->lock);
	*out = pool->stats;
	pthread_mutex_unlock(&pool->lock);
}

int engine_pool_pids(struct engine_pool *pool, pid_t *out, int max)
{
	int n = 0;
	pthread_mutex_lock(&pool->lock);
	for (int i = 0; i < pool->n_workers && n < max; i++) {
		if (pool->workers[i].pid)
			out[n++] = pool->workers[i].pid;
	}
	pthread_mutex_unlock(&pool->lock);
	return n;
}
