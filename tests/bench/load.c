/*
 * tchess-load: a load generator for tchessd on loopback (issue 4,
 * "Benchmarks"). It starts a real tchessd on 127.0.0.1 port 0 with a
 * temporary SQLite file (or --nodes N of them on one PostgreSQL --db, or
 * uses the running --server URL..., one per node), registers two players per
 * game slot and plays G games at once with random legal moves picked by
 * libtchess, each game watched by S spectators parked on its events
 * long-poll. A finished game is followed by a new one in the same slot
 * until the time or move budget is spent. At the end it prints the moves
 * acknowledged per second (a 2xx answer comes only after the commit, so
 * these are durable moves), the time from a move's request to its answer,
 * the latency from a move's acknowledgement to its arrival at each
 * spectator, the parked polls held (counted here and read from GET
 * /v1/health), the server's RSS and CPU, and errors by kind.
 *
 * Everything runs on one thread with one curl multi handle driven through
 * its socket interface on epoll: curl_multi_perform walks every easy handle
 * on each call, which costs too much with ten thousand parked polls, while
 * the socket interface only touches the transfers whose sockets moved. Each
 * player and spectator owns one easy handle that is reused, so connections
 * are kept alive.
 *
 * Over several nodes (issue 17) game slot i's White plays on node i % N,
 * its Black on node (i + 1) % N and its spectators on the nodes after,
 * so every move's spectators wait on nodes other than the mover's.
 *
 * Time stamps are taken when a finished transfer is read off the multi
 * handle, one clock reading per transfer. A spectator can read a move before
 * the mover's answer is read (the server answers the mover and wakes the
 * polls at the same moment: at the commit with sync = normal, after the
 * group fsync with sync = full); such a delivery counts as latency 0 and is
 * also counted apart.
 *
 * With --premoves the black player queues a premove (a move legal as if it
 * were black's turn, accepted by the fide premove rules) before every white
 * move; the server must then play it in the same transaction as white's
 * move, which shows as a "move" event with premove true whose seq follows
 * white's move in white's answer and in every spectator's batch.
 */
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/position.h"
#include "tchess/premove.h"
#include "tchess/ruleset.h"
#include "util/buf.h"
#include "util/xalloc.h"

#include "spawn.h"

#define LOAD_SET_MAX 16
#define LOAD_ERR_KINDS 64
/* Latency samples kept; past this a reservoir keeps a uniform sample. */
#define LOAD_SAMPLES_MAX (8u << 20)
#define LOAD_HEALTH_EVERY_US 250000
#define LOAD_SETUP_TIMEOUT_US (120 * 1000000LL)
/* Easy handles per curl multi handle (see struct shard). */
#define LOAD_SHARD_HANDLES 256
/* Servers (nodes) of one run. */
#define LOAD_NODES_MAX 8

struct load_opts {
	const char *servers[LOAD_NODES_MAX]; /* base URLs of running servers (nodes) */
	int n_servers;
	long server_pids[LOAD_NODES_MAX]; /* for RSS/CPU of external servers */
	int n_server_pids;
	const char *tchessd;    /* binary to start when no server is given */
	int nodes;              /* tchessd nodes started here on --db (1 unless PostgreSQL) */
	int games;
	int spectators;
	int seconds;
	long max_moves;         /* 0: no limit */
	int think_ms;           /* pause before each move */
	bool premoves;
	bool tune;              /* size max_connections for the run */
	const char *tc;
	const char *sync;
	const char *sets[LOAD_SET_MAX];
	int n_sets;
	uint64_t seed;
	const char *db;         /* --db for the tchessd started here; NULL: a temporary SQLite file */
	bool keep_db;
	long db_pid;            /* --db-pid: the database server's first process, 0 if none */
};

enum req_kind {
	REQ_REGISTER,
	REQ_CREATE,
	REQ_JOIN,
	REQ_MOVE,
	REQ_PREMOVE,
	REQ_RESIGN,
	REQ_EVENTS,
	REQ_HEALTH,
	REQ_KIND_NB
};

static const char *const req_names[REQ_KIND_NB] = {
	"register", "create", "join", "move", "premove", "resign", "events", "health",
};

struct load;
struct slot;
struct spectator;

/*
 * A curl multi handle and its timer. One would do, but libcurl 7.88 walks
 * every connection in a multi handle's cache on each
 * curl_multi_remove_handle (to close connect-only ones) and every
 * connection to the same host when it starts a transfer: with ten thousand
 * connections in one cache this program, not the server, became the
 * bottleneck. Handles are therefore spread over multi handles of
 * LOAD_SHARD_HANDLES each, all driven from one epoll set in one thread.
 */
struct shard {
	struct load *ld;
	int index;
	CURLM *multi;
	int64_t deadline_us;     /* curl's timer; -1 none */
};

/* One reusable easy handle and what its current request is for. */
struct xfer {
	CURL *easy;
	struct curl_slist *headers;
	struct shard *shard;
	struct buf resp;
	char url[192];
	char body[160];
	enum req_kind kind;
	bool busy;
	int node;               /* which server (ld->base[node]) it talks to */
	struct slot *slot;
	struct spectator *spec;
	int side;               /* players: 0 white, 1 black */
};

struct player {
	char name[25];
	char token[80];
	struct xfer x;
};

/* Acknowledgement instants of one game's plies (0: not acknowledged yet). */
struct acks {
	int64_t *t;
	size_t n;
};

/* A spectator delivery that beat the mover's acknowledgement. */
struct early {
	uint32_t gen;
	int64_t ply;
};

enum slot_state {
	SLOT_SETUP,      /* registering its players */
	SLOT_IDLE,       /* needs a new game */
	SLOT_BUSY,       /* a request is in flight */
	SLOT_WAIT,       /* playing; next action at due_us */
	SLOT_STOPPED
};

struct slot {
	int index;
	struct player pl[2];
	enum slot_state state;
	int64_t due_us;
	char game[40];
	uint32_t gen;            /* games started in this slot; 0 none yet */
	struct position pos;
	int64_t ply;
	char last_uci[UCI_MAX];
	bool premove_queued;
	int64_t move_sent_us;    /* when the move in flight was sent */
	struct acks cur, prev;
	struct early *early;
	size_t n_early, cap_early;
	struct spectator *specs;
};

struct spectator {
	struct slot *slot;
	struct xfer x;
	uint32_t gen;            /* the game it watches; 0 none */
	char game[40];
	int64_t after;
	bool retry;              /* the last poll failed: again at the next tick */
};

/* Latency samples in us: all of them up to LOAD_SAMPLES_MAX, past that a
 * uniform sample of the n seen. */
struct reservoir {
	uint32_t *v;
	size_t n;
	uint64_t seen;
};

struct err_kind {
	char what[64];
	long n;
};

struct load {
	struct load_opts o;
	char base[LOAD_NODES_MAX][96];
	int n_base;
	pid_t pid[LOAD_NODES_MAX]; /* servers to measure (0: unknown) */
	int n_pid;
	bool own_server;
	char dir[256];
	struct shard *shards;
	int n_shards;
	int epfd;
	uint64_t rng;
	struct ruleset rules;
	struct slot *slots;
	struct xfer health;
	int64_t next_health_us;

	bool measuring, stopping;
	int registered, register_failed;
	int64_t setup_start_us;
	int64_t t0_us, t_end_us, deadline_us;
	/* figures */
	long moves_acked;            /* in the window */
	long moves_total;
	long games_started, games_finished, games_broken;
	long term_count[16];
	char term_name[16][40];
	int n_terms;
	struct reservoir deliveries; /* ack -> spectator, us */
	struct reservoir round_trips; /* a move's request -> its answer, us */
	long before_ack, unmatched;
	long polls_out, polls_out_peak;
	int64_t parked_peak, parked_last;
	long health_answers;
	long rss_peak_kb;
	long premoves_sent, premoves_none, premoves_played, premoves_discarded, premoves_dropped;
	long premove_pairs_ok, premove_pairs_bad, premove_charged, premove_vanished;
	long spec_premove_ok, spec_premove_split;
	long spec_resyncs; /* answers with a snapshot: the spectator had fallen far behind */
	struct err_kind errs[LOAD_ERR_KINDS];
	int n_errs;
	long err_total;
	double srv_cpu0, cli_cpu0, srv_cpu, cli_cpu;
	double db_cpu0, db_cpu; /* the database server's processes (--db-pid) */
	double box_busy0, box_all0, box_busy, box_all; /* whole machine, seconds */
};

static int64_t load_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* xorshift64*: reproducible from --seed, no global state. */
static uint64_t load_rand(struct load *ld)
{
	uint64_t x = ld->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	ld->rng = x;
	return x * 2685821657736338717ULL;
}

__attribute__((format(printf, 2, 3))) static void load_error(struct load *ld, const char *fmt, ...)
{
	char what[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	ld->err_total++;
	for (int i = 0; i < ld->n_errs; i++) {
		if (!strcmp(ld->errs[i].what, what)) {
			ld->errs[i].n++;
			return;
		}
	}
	if (ld->n_errs < LOAD_ERR_KINDS) {
		snprintf(ld->errs[ld->n_errs].what, sizeof ld->errs[0].what, "%s", what);
		ld->errs[ld->n_errs++].n = 1;
	}
}

static void load_sample(struct load *ld, struct reservoir *r, int64_t us)
{
	if (us < 0)
		us = 0;
	if (us > UINT32_MAX)
		us = UINT32_MAX;
	r->seen++;
	if (r->n < LOAD_SAMPLES_MAX) {
		r->v[r->n++] = (uint32_t)us;
		return;
	}
	uint64_t j = load_rand(ld) % r->seen;
	if (j < LOAD_SAMPLES_MAX)
		r->v[j] = (uint32_t)us;
}

/* ---- server process ---- */

static void load_raise_nofile(size_t need)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	rlim_t want = rl.rlim_max;
	if (rl.rlim_cur < want) {
		rl.rlim_cur = want;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < need)
		fprintf(stderr, "tchess-load: RLIMIT_NOFILE is %llu, below the %zu descriptors this run needs; "
				"expect connection errors\n",
			(unsigned long long)rl.rlim_cur, need);
}

static int load_write_config(struct load *ld, const char *path, unsigned max_conn, int node)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# written by tchess-load\nsync = %s\nnode = load-%d\n", ld->o.sync, node);
	if (ld->o.tune) {
		/* Every seat of the run plays with one token as fast as it can:
		 * the per-token command limit (tchessd(8)) would measure itself. */
		fprintf(f, "max_connections = %u\nrate_token_per_s = 0\n", max_conn);
	}
	for (int i = 0; i < ld->o.n_sets; i++) {
		const char *eq = strchr(ld->o.sets[i], '=');
		fprintf(f, "%.*s = %s\n", (int)(eq - ld->o.sets[i]), ld->o.sets[i], eq + 1);
	}
	return fclose(f);
}

/* Starts o.nodes tchessd on one store (node load-1, load-2, ...: more
 * than one needs a PostgreSQL --db). */
static int load_start_server(struct load *ld, unsigned max_conn)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(ld->dir, sizeof ld->dir, "%s/tchess-load-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ld->dir)) {
		fprintf(stderr, "tchess-load: mkdtemp %s: %s\n", ld->dir, strerror(errno));
		return -1;
	}
	ld->own_server = true;
	char conf[300], db[600], logf[300];
	snprintf(db, sizeof db, "%s", ld->o.db ? ld->o.db : "");
	if (!ld->o.db)
		snprintf(db, sizeof db, "%s/load.db", ld->dir);
	for (int i = 0; i < ld->o.nodes; i++) {
		snprintf(conf, sizeof conf, "%s/tchessd-%d.conf", ld->dir, i + 1);
		snprintf(logf, sizeof logf, "%s/tchessd-%d.log", ld->dir, i + 1);
		if (load_write_config(ld, conf, max_conn, i + 1)) {
			fprintf(stderr, "tchess-load: cannot write %s\n", conf);
			return -1;
		}
		char err[600];
		int port;
		if (spawn_tchessd(ld->o.tchessd, db, conf, "warn", logf, 10000, &ld->pid[i], &port, err, sizeof err)) {
			fprintf(stderr, "tchess-load: %s (see %s)\n", err, logf);
			return -1;
		}
		ld->n_pid = ld->n_base = i + 1;
		snprintf(ld->base[i], sizeof ld->base[i], "http://127.0.0.1:%d", port);
	}
	return 0;
}

/* SIGTERM, then up to 10 s for the drain, then SIGKILL. */
static void load_stop_server(struct load *ld)
{
	if (!ld->own_server)
		return;
	for (int i = 0; i < ld->n_pid; i++) {
		if (ld->pid[i] > 0)
			kill(ld->pid[i], SIGTERM);
	}
	int64_t deadline = load_now_us() + 10000000;
	for (int i = 0; i < ld->n_pid; i++) {
		int status;
		while (ld->pid[i] > 0 && waitpid(ld->pid[i], &status, WNOHANG) == 0) {
			if (load_now_us() > deadline) {
				fprintf(stderr, "tchess-load: tchessd did not exit within 10 s of SIGTERM; killing it\n");
				kill(ld->pid[i], SIGKILL);
				waitpid(ld->pid[i], &status, 0);
				break;
			}
			struct timespec ts = { 0, 10 * 1000000 };
			nanosleep(&ts, NULL);
		}
		ld->pid[i] = 0;
	}
}

/* Prints the server's own complaints (MHD's connection-limit messages
 * among them): they explain refused connections. */
static void load_show_server_log(struct load *ld)
{
	if (!ld->own_server)
		return;
	for (int i = 0; i < ld->o.nodes; i++) {
		char path[300], line[512];
		snprintf(path, sizeof path, "%s/tchessd-%d.log", ld->dir, i + 1);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		long n = 0;
		while (fgets(line, sizeof line, f)) {
			if (n < 5)
				printf("  tchessd %d log: %s", i + 1, line);
			n++;
		}
		fclose(f);
		if (n > 5)
			printf("  tchessd %d log: ... %ld lines in all\n", i + 1, n);
	}
}

static void load_cleanup_dir(struct load *ld)
{
	if (!ld->own_server || ld->o.keep_db || !ld->dir[0])
		return;
	const char *names[] = { "load.db", "load.db-wal", "load.db-shm" };
	char path[300];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", ld->dir, names[i]);
		unlink(path);
	}
	for (int i = 0; i < ld->o.nodes; i++) {
		snprintf(path, sizeof path, "%s/tchessd-%d.conf", ld->dir, i + 1);
		unlink(path);
		snprintf(path, sizeof path, "%s/tchessd-%d.log", ld->dir, i + 1);
		unlink(path);
	}
	rmdir(ld->dir);
}

/* Busy and total CPU seconds of the whole machine from /proc/stat: other
 * programs running beside the benchmark show up as busy time that is
 * neither the server's nor ours. */
static void load_box_cpu(double *busy, double *all)
{
	unsigned long long v[8] = { 0 };
	*busy = *all = 0;
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return;
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		       &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		return;
	double hz = (double)sysconf(_SC_CLK_TCK);
	unsigned long long total = 0;
	for (int i = 0; i < 8; i++)
		total += v[i];
	*all = (double)total / hz;
	*busy = (double)(total - v[3] - v[4]) / hz; /* minus idle and iowait */
}

static double load_self_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* ---- curl on epoll ---- */

static int load_socket_cb(CURL *e, curl_socket_t s, int what, void *userp, void *socketp)
{
	(void)e;
	(void)socketp;
	struct shard *sh = userp;
	struct load *ld = sh->ld;
	if (what == CURL_POLL_REMOVE) {
		epoll_ctl(ld->epfd, EPOLL_CTL_DEL, s, NULL);
		return 0;
	}
	/* The shard rides along with the socket in the event's data. */
	struct epoll_event ev = { .events = 0, .data.u64 = (uint64_t)sh->index << 32 | (uint32_t)s };
	if (what & CURL_POLL_IN)
		ev.events |= EPOLLIN;
	if (what & CURL_POLL_OUT)
		ev.events |= EPOLLOUT;
	if (epoll_ctl(ld->epfd, EPOLL_CTL_MOD, s, &ev) && errno == ENOENT)
		epoll_ctl(ld->epfd, EPOLL_CTL_ADD, s, &ev);
	return 0;
}

static int load_timer_cb(CURLM *m, long timeout_ms, void *userp)
{
	(void)m;
	struct shard *sh = userp;
	sh->deadline_us = timeout_ms < 0 ? -1 : load_now_us() + timeout_ms * 1000;
	return 0;
}

static size_t load_collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

static void xfer_init(struct load *ld, struct xfer *x, unsigned n)
{
	memset(x, 0, sizeof *x);
	x->easy = curl_easy_init();
	if (!x->easy) {
		fprintf(stderr, "tchess-load: curl_easy_init failed\n");
		exit(2);
	}
	buf_init(&x->resp);
	curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, load_collect);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, &x->resp);
	curl_easy_setopt(x->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(x->easy, CURLOPT_TCP_NODELAY, 1L);
	curl_easy_setopt(x->easy, CURLOPT_PROTOCOLS_STR, "http");
	x->headers = curl_slist_append(NULL, "Content-Type: application/json");
	x->headers = curl_slist_append(x->headers, "Expect:");
	curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->headers);
	x->shard = &ld->shards[n % (unsigned)ld->n_shards];
}

static void xfer_fini(struct load *ld, struct xfer *x)
{
	if (x->busy)
		curl_multi_remove_handle(x->shard->multi, x->easy);
	curl_easy_cleanup(x->easy);
	curl_slist_free_all(x->headers);
	buf_fini(&x->resp);
}

static void xfer_set_token(struct xfer *x, const char *token)
{
	char line[128];
	snprintf(line, sizeof line, "Authorization: Bearer %s", token);
	x->headers = curl_slist_append(x->headers, line);
	curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->headers);
}

/* Starts a request on x; body NULL sends none. The body is copied into x. */
static void xfer_start(struct load *ld, struct xfer *x, enum req_kind kind, const char *method, const char *path,
		       const char *body)
{
	snprintf(x->url, sizeof x->url, "%s%s", ld->base[x->node], path);
	curl_easy_setopt(x->easy, CURLOPT_URL, x->url);
	if (body) {
		snprintf(x->body, sizeof x->body, "%s", body);
		curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->body);
		curl_easy_setopt(x->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(x->body));
		curl_easy_setopt(x->easy, CURLOPT_CUSTOMREQUEST, strcmp(method, "POST") ? method : NULL);
	} else {
		curl_easy_setopt(x->easy, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(x->easy, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") ? method : NULL);
	}
	/* Polls park up to the server's 25 s; commands answer at once. */
	curl_easy_setopt(x->easy, CURLOPT_TIMEOUT_MS, kind == REQ_EVENTS ? 40000L : 30000L);
	buf_reset(&x->resp);
	x->kind = kind;
	x->busy = true;
	if (kind == REQ_EVENTS) {
		ld->polls_out++;
		if (ld->polls_out > ld->polls_out_peak)
			ld->polls_out_peak = ld->polls_out;
	}
	CURLMcode rc = curl_multi_add_handle(x->shard->multi, x->easy);
	if (rc != CURLM_OK) {
		fprintf(stderr, "tchess-load: curl_multi_add_handle: %s\n", curl_multi_strerror(rc));
		exit(2);
	}
}

/* ---- answers ---- */

/* The events of a COMMAND or long-poll answer, as far as this program needs
 * them: a move's ply and whether it was a premove, or a game's end. */
struct ev_lite {
	int64_t seq;
	bool is_move, is_end;
	int64_t ply;
	bool premove;
	int64_t think_ms;
	char uci[8];
	char termination[40];
};

struct answer {
	struct ev_lite *ev;
	size_t n;
	int64_t seq;
	bool resync; /* a snapshot stands for the events skipped */
	bool over;   /* resync: the snapshot's game is over */
};

static int64_t json_int(const cJSON *o, const char *name, int64_t dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : dflt;
}

static void json_str(const cJSON *o, const char *name, char *out, size_t size)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	snprintf(out, size, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* Decodes {"events": [...], "seq": N, ...}; -1 if it is not that shape. */
static int answer_parse(const struct buf *b, struct answer *a)
{
	memset(a, 0, sizeof *a);
	cJSON *root = cJSON_ParseWithLength(b->data ? b->data : "", b->len);
	if (!root)
		return -1;
	const cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "events");
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(root, "seq");
	if (!cJSON_IsArray(evs) || !cJSON_IsNumber(seq)) {
		cJSON_Delete(root);
		return -1;
	}
	a->seq = (int64_t)seq->valuedouble;
	a->resync = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "resync"));
	if (a->resync) {
		char status[16];
		json_str(cJSON_GetObjectItemCaseSensitive(root, "snapshot"), "status", status, sizeof status);
		a->over = !strcmp(status, "over");
	}
	int n = cJSON_GetArraySize(evs);
	a->ev = xcalloc((size_t)n + 1, sizeof *a->ev);
	const cJSON *e;
	cJSON_ArrayForEach(e, evs)
	{
		struct ev_lite *l = &a->ev[a->n++];
		char type[40];
		l->seq = json_int(e, "seq", -1);
		json_str(e, "type", type, sizeof type);
		if (!strcmp(type, "move")) {
			l->is_move = true;
			l->ply = json_int(e, "ply", -1);
			l->think_ms = json_int(e, "think_ms", -1);
			l->premove = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "premove"));
			json_str(e, "uci", l->uci, sizeof l->uci);
		} else if (!strcmp(type, "game-ended")) {
			l->is_end = true;
			json_str(e, "termination", l->termination, sizeof l->termination);
		}
	}
	cJSON_Delete(root);
	return 0;
}

static void answer_fini(struct answer *a)
{
	free(a->ev);
}

/* ---- games ---- */

static void acks_reset(struct acks *a)
{
	a->n = 0;
}

static void acks_set(struct acks *a, int64_t ply, int64_t t)
{
	size_t need = (size_t)ply + 1;
	if (need > a->n) {
		a->t = xrealloc(a->t, need * sizeof *a->t);
		memset(a->t + a->n, 0, (need - a->n) * sizeof *a->t);
		a->n = need;
	}
	a->t[ply] = t;
}

static void load_count_termination(struct load *ld, const char *term)
{
	for (int i = 0; i < ld->n_terms; i++) {
		if (!strcmp(ld->term_name[i], term)) {
			ld->term_count[i]++;
			return;
		}
	}
	if (ld->n_terms < 16) {
		snprintf(ld->term_name[ld->n_terms], sizeof ld->term_name[0], "%s", term[0] ? term : "?");
		ld->term_count[ld->n_terms++] = 1;
	}
}

static void spectator_watch(struct load *ld, struct spectator *sp);

/* A move of ply was acknowledged at t: settle spectators that were first. */
static void slot_ack(struct load *ld, struct slot *s, int64_t ply, int64_t t)
{
	acks_set(&s->cur, ply, t);
	if (ld->measuring && !ld->stopping)
		ld->moves_acked++;
	ld->moves_total++;
	for (size_t i = 0; i < s->n_early;) {
		if (s->early[i].gen == s->gen && s->early[i].ply == ply) {
			load_sample(ld, &ld->deliveries, 0);
			ld->before_ack++;
			s->early[i] = s->early[--s->n_early];
		} else {
			i++;
		}
	}
}

static void slot_schedule(struct load *ld, struct slot *s, int64_t delay_us)
{
	s->state = SLOT_WAIT;
	s->due_us = load_now_us() + delay_us;
	(void)ld;
}

static void slot_new_game(struct load *ld, struct slot *s)
{
	char body[160];
	snprintf(body, sizeof body, "{\"tc\":\"%s\",\"color\":\"white\",\"ruleset\":\"fide\"}", ld->o.tc);
	s->state = SLOT_BUSY;
	xfer_start(ld, &s->pl[0].x, REQ_CREATE, "POST", "/v1/games", body);
}

/* Something went wrong in this game: resign it (so its spectators are
 * answered) and start another. */
static void slot_abandon(struct load *ld, struct slot *s)
{
	char path[96];
	ld->games_broken++;
	snprintf(path, sizeof path, "/v1/games/%s/resign", s->game);
	s->state = SLOT_BUSY;
	xfer_start(ld, &s->pl[0].x, REQ_RESIGN, "POST", path, "{}");
}

/* The position with the other side to move, for the premover's view; false
 * if that position cannot exist (the side to move is in check). */
static bool load_flip(const struct position *p, struct position *out)
{
	char fen[FEN_MAX], flipped[2 * FEN_MAX];
	char board[FEN_MAX], side[4], castle[8], ep[4];
	int half, full;
	fen_write(p, fen);
	if (sscanf(fen, "%95s %3s %7s %3s %d %d", board, side, castle, ep, &half, &full) != 6)
		return false;
	snprintf(flipped, sizeof flipped, "%s %c %s - %d %d", board, side[0] == 'w' ? 'b' : 'w', castle, half,
		 full);
	struct tchess_error err;
	return fen_parse(out, flipped, &err) == TCHESS_OK;
}

/* A premove for black while white is to move: a move legal as if it were
 * black's turn, accepted by the ruleset's premove entry rules. */
static bool load_pick_premove(struct load *ld, const struct position *p, char *out)
{
	struct position q;
	struct move_list list;
	if (!load_flip(p, &q) || movegen_legal(&q, &list) <= 0)
		return false;
	for (int tries = 0; tries < 8; tries++) {
		move m = list.moves[load_rand(ld) % (uint64_t)list.count];
		char text[UCI_MAX];
		struct premove pm;
		uci_write(&q, m, text);
		if (premove_parse_uci(text, strlen(text), &pm, NULL) != TCHESS_OK)
			continue;
		if (premove_validate(p, BLACK, NULL, 0, &pm, &ld->rules, NULL) != TCHESS_OK)
			continue;
		premove_write(&pm, false, out);
		return true;
	}
	return false;
}

/* The slot's next act in a running game. */
static void slot_act(struct load *ld, struct slot *s)
{
	char path[96], body[160];
	if (ld->o.premoves && s->pos.side == WHITE && !s->premove_queued) {
		char pm[PREMOVE_TEXT_MAX];
		if (load_pick_premove(ld, &s->pos, pm)) {
			snprintf(path, sizeof path, "/v1/games/%s/premoves", s->game);
			snprintf(body, sizeof body, "{\"ply\":%" PRId64 ",\"moves\":[\"%s\"]}", s->ply, pm);
			s->state = SLOT_BUSY;
			ld->premoves_sent++;
			xfer_start(ld, &s->pl[1].x, REQ_PREMOVE, "PUT", path, body);
			return;
		}
		ld->premoves_none++;
	}
	struct move_list list;
	if (movegen_legal(&s->pos, &list) <= 0) {
		load_error(ld, "mirror: no legal move but the game goes on");
		slot_abandon(ld, s);
		return;
	}
	move m = list.moves[load_rand(ld) % (uint64_t)list.count];
	uci_write(&s->pos, m, s->last_uci);
	snprintf(path, sizeof path, "/v1/games/%s/moves", s->game);
	snprintf(body, sizeof body, "{\"ply\":%" PRId64 ",\"move\":\"%s\"}", s->ply, s->last_uci);
	s->state = SLOT_BUSY;
	s->move_sent_us = load_now_us();
	xfer_start(ld, &s->pl[s->pos.side].x, REQ_MOVE, "POST", path, body);
}

/* Plays uci on the mirror; false if the mirror refuses it. */
static bool slot_play(struct slot *s, const char *uci)
{
	move m;
	struct undo u;
	struct tchess_error err;
	if (uci_parse(&s->pos, uci, strlen(uci), &m, &err) != TCHESS_OK)
		return false;
	position_make(&s->pos, m, &u);
	s->ply++;
	return true;
}

static void slot_game_over(struct load *ld, struct slot *s, const char *termination)
{
	ld->games_finished++;
	load_count_termination(ld, termination);
	s->premove_queued = false;
	s->state = SLOT_IDLE;
	s->due_us = 0;
}

static void slot_on_move(struct load *ld, struct slot *s, const struct answer *a, int64_t t)
{
	size_t i = 0;
	while (i < a->n && !(a->ev[i].is_move && a->ev[i].ply == s->ply))
		i++;
	if (i == a->n || strcmp(a->ev[i].uci, s->last_uci) || !slot_play(s, a->ev[i].uci)) {
		load_error(ld, "move: answer lacks the move or disagrees");
		slot_abandon(ld, s);
		return;
	}
	slot_ack(ld, s, s->ply - 1, t);
	if (ld->measuring && !ld->stopping)
		load_sample(ld, &ld->round_trips, t - s->move_sent_us);
	int64_t move_seq = a->ev[i].seq;
	bool had_premove = s->premove_queued;
	bool played = false;
	s->premove_queued = false;
	if (i + 1 < a->n && a->ev[i + 1].is_move && a->ev[i + 1].premove) {
		const struct ev_lite *pm = &a->ev[i + 1];
		if (!had_premove)
			load_error(ld, "premove: played without one queued");
		if (pm->seq == move_seq + 1 && pm->ply == s->ply)
			ld->premove_pairs_ok++;
		else
			ld->premove_pairs_bad++;
		if (pm->think_ms != 0)
			ld->premove_charged++;
		if (!slot_play(s, pm->uci)) {
			load_error(ld, "premove: mirror refuses the played premove");
			slot_abandon(ld, s);
			return;
		}
		slot_ack(ld, s, s->ply - 1, t);
		ld->premoves_played++;
		played = true;
	}
	const struct ev_lite *end = NULL;
	for (size_t j = i; j < a->n && !end; j++)
		end = a->ev[j].is_end ? &a->ev[j] : NULL;
	if (had_premove && !played && end) {
		/* game-ended drops the queues without a discard event. */
		ld->premoves_dropped++;
	} else if (had_premove && !played) {
		/* The premove-discarded event is black's alone: white sees it
		 * only as a seq past the last event it was shown. */
		ld->premoves_discarded++;
		if (a->seq <= a->ev[a->n - 1].seq)
			ld->premove_vanished++;
	}
	if (end) {
		slot_game_over(ld, s, end->termination);
		return;
	}
	struct move_list list;
	if (movegen_legal(&s->pos, &list) == 0) {
		load_error(ld, "mirror: game over but the server goes on");
		slot_abandon(ld, s);
		return;
	}
	slot_schedule(ld, s, (int64_t)ld->o.think_ms * 1000);
}

static const char *answer_error_code(const struct buf *b, char *out, size_t size)
{
	out[0] = '\0';
	cJSON *root = cJSON_ParseWithLength(b->data ? b->data : "", b->len);
	if (root) {
		json_str(root, "error", out, size);
		cJSON_Delete(root);
	}
	return out[0] ? out : "?";
}

static void slot_done(struct load *ld, struct xfer *x, CURLcode cc, long status, int64_t t)
{
	struct slot *s = x->slot;
	struct answer a = { 0 };
	char code[40];
	bool ok = cc == CURLE_OK && status >= 200 && status < 300;
	if (cc != CURLE_OK)
		load_error(ld, "%s: %s", req_names[x->kind], curl_easy_strerror(cc));
	else if (!ok)
		load_error(ld, "%s: %ld %s", req_names[x->kind], status, answer_error_code(&x->resp, code, sizeof code));

	switch (x->kind) {
	case REQ_REGISTER: {
		cJSON *root = ok ? cJSON_ParseWithLength(x->resp.data, x->resp.len) : NULL;
		const cJSON *tok = cJSON_GetObjectItemCaseSensitive(root, "token");
		if (cJSON_IsString(tok)) {
			snprintf(s->pl[x->side].token, sizeof s->pl[0].token, "%s", tok->valuestring);
			xfer_set_token(x, tok->valuestring);
			ld->registered++;
			if (s->pl[0].token[0] && s->pl[1].token[0])
				s->state = SLOT_IDLE;
		} else if (ok) {
			load_error(ld, "register: no token in the answer");
		}
		if (!cJSON_IsString(tok)) {
			s->state = SLOT_STOPPED;
			ld->register_failed++;
		}
		cJSON_Delete(root);
		break;
	}
	case REQ_CREATE: {
		cJSON *root = ok ? cJSON_ParseWithLength(x->resp.data, x->resp.len) : NULL;
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
		if (cJSON_IsString(id) && strlen(id->valuestring) < sizeof s->game) {
			char path[96];
			snprintf(s->game, sizeof s->game, "%s", id->valuestring);
			s->gen++;
			struct acks tmp = s->prev;
			s->prev = s->cur;
			s->cur = tmp;
			acks_reset(&s->cur);
			s->n_early = 0;
			position_init_start(&s->pos);
			s->ply = 0;
			s->premove_queued = false;
			ld->games_started++;
			/* Spectators come in before the game starts, as they would. */
			for (int i = 0; i < ld->o.spectators; i++) {
				if (!s->specs[i].x.busy)
					spectator_watch(ld, &s->specs[i]);
			}
			snprintf(path, sizeof path, "/v1/games/%s/join", s->game);
			xfer_start(ld, &s->pl[1].x, REQ_JOIN, "POST", path, "{}");
		} else {
			if (ok)
				load_error(ld, "create: no id in the answer");
			s->state = SLOT_IDLE;
			s->due_us = load_now_us() + 100000;
		}
		cJSON_Delete(root);
		break;
	}
	case REQ_JOIN:
		if (ok)
			slot_schedule(ld, s, (int64_t)ld->o.think_ms * 1000);
		else
			slot_abandon(ld, s);
		break;
	case REQ_PREMOVE:
		if (ok) {
			s->premove_queued = true;
			slot_act(ld, s);
		} else {
			slot_abandon(ld, s);
		}
		break;
	case REQ_MOVE:
		if (!ok || answer_parse(&x->resp, &a)) {
			if (ok)
				load_error(ld, "move: answer does not parse");
			slot_abandon(ld, s);
			break;
		}
		slot_on_move(ld, s, &a, t);
		break;
	case REQ_RESIGN:
		s->state = SLOT_IDLE;
		s->due_us = load_now_us() + (ok ? 0 : 100000);
		break;
	default:
		break;
	}
	answer_fini(&a);
}

/* ---- spectators ---- */

static void spectator_poll(struct load *ld, struct spectator *sp)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%" PRId64, sp->game, sp->after);
	xfer_start(ld, &sp->x, REQ_EVENTS, "GET", path, NULL);
}

/* Moves sp to its slot's current game, if there is one. */
static void spectator_watch(struct load *ld, struct spectator *sp)
{
	struct slot *s = sp->slot;
	sp->retry = false;
	if (!s->gen || ld->stopping)
		return;
	sp->gen = s->gen;
	snprintf(sp->game, sizeof sp->game, "%s", s->game);
	sp->after = 0;
	spectator_poll(ld, sp);
}

static void spectator_deliver(struct load *ld, struct spectator *sp, const struct ev_lite *e, int64_t t)
{
	struct slot *s = sp->slot;
	const struct acks *acks = sp->gen == s->gen ? &s->cur : sp->gen + 1 == s->gen ? &s->prev : NULL;
	if (!acks) {
		ld->unmatched++;
		return;
	}
	if ((size_t)e->ply < acks->n && acks->t[e->ply]) {
		if (ld->measuring && !ld->stopping)
			load_sample(ld, &ld->deliveries, t - acks->t[e->ply]);
		return;
	}
	if (sp->gen != s->gen) {
		ld->unmatched++;
		return;
	}
	if (s->n_early == s->cap_early) {
		s->cap_early = s->cap_early ? 2 * s->cap_early : 16;
		s->early = xrealloc(s->early, s->cap_early * sizeof *s->early);
	}
	s->early[s->n_early++] = (struct early){ sp->gen, e->ply };
}

static void spectator_done(struct load *ld, struct xfer *x, CURLcode cc, long status, int64_t t)
{
	struct spectator *sp = x->spec;
	struct answer a;
	char code[40];
	ld->polls_out--;
	if (ld->stopping)
		return;
	if (cc != CURLE_OK || status != 200) {
		if (cc != CURLE_OK)
			load_error(ld, "events: %s", curl_easy_strerror(cc));
		else
			load_error(ld, "events: %ld %s", status, answer_error_code(&x->resp, code, sizeof code));
		sp->retry = true;
		return;
	}
	if (answer_parse(&x->resp, &a)) {
		load_error(ld, "events: answer does not parse");
		sp->retry = true;
		return;
	}
	bool ended = a.over;
	ld->spec_resyncs += a.resync;
	for (size_t i = 0; i < a.n; i++) {
		const struct ev_lite *e = &a.ev[i];
		if (e->is_end)
			ended = true;
		if (!e->is_move)
			continue;
		spectator_deliver(ld, sp, e, t);
		if (e->premove) {
			/* Played in the opponent's commit: the opponent's move is
			 * the event just before it, in this same answer. */
			if (i > 0 && a.ev[i - 1].is_move && a.ev[i - 1].seq + 1 == e->seq &&
			    a.ev[i - 1].ply + 1 == e->ply)
				ld->spec_premove_ok++;
			else
				ld->spec_premove_split++;
		}
	}
	sp->after = a.seq;
	answer_fini(&a);
	/* After the end, wait for the slot's next game (its creation starts
	 * the idle spectators) unless it is there already. */
	if (sp->gen != sp->slot->gen)
		spectator_watch(ld, sp);
	else if (!ended)
		spectator_poll(ld, sp);
}

/* ---- health ---- */

static void load_health_done(struct load *ld, CURLcode cc, long status)
{
	if (cc != CURLE_OK || status != 200) {
		load_error(ld, "health: %s", cc != CURLE_OK ? curl_easy_strerror(cc) : "not 200");
		return;
	}
	cJSON *root = cJSON_ParseWithLength(ld->health.resp.data, ld->health.resp.len);
	int64_t parked = json_int(root, "parked", -1);
	cJSON_Delete(root);
	if (parked < 0)
		return;
	ld->parked_last = parked;
	ld->health_answers++;
	if (parked > ld->parked_peak)
		ld->parked_peak = parked;
}

/* CPU seconds of a database server (PostgreSQL's postmaster, --db-pid):
 * its own, its children's that it reaped (backends that ended) and those
 * of its children alive now (the backends of tchessd's connections). */
static double db_cpu_s(pid_t pid)
{
	double t = proc_cpu_s(pid) + proc_reaped_cpu_s(pid);
	/* Its children: every process whose parent it is. */
	DIR *d = opendir("/proc");
	if (!d)
		return t;
	for (struct dirent *e; (e = readdir(d));) {
		char *end;
		long child = strtol(e->d_name, &end, 10);
		if (*end || child <= 0 || child == pid)
			continue;
		if (proc_parent((pid_t)child) == pid)
			t += proc_cpu_s((pid_t)child);
	}
	closedir(d);
	return t;
}

/* The servers' CPU seconds, and the sum of a /proc status figure. */
static double servers_cpu_s(struct load *ld)
{
	double t = 0;
	for (int i = 0; i < ld->n_pid; i++) {
		if (ld->pid[i] > 0)
			t += proc_cpu_s(ld->pid[i]);
	}
	return t;
}

static long servers_kb(struct load *ld, const char *key)
{
	long kb = 0;
	for (int i = 0; i < ld->n_pid; i++) {
		long v = ld->pid[i] > 0 ? proc_status_kb(ld->pid[i], key) : -1;
		if (v > 0)
			kb += v;
	}
	return kb;
}

static void load_tick(struct load *ld, int64_t now)
{
	if (now < ld->next_health_us)
		return;
	ld->next_health_us = now + LOAD_HEALTH_EVERY_US;
	if (!ld->health.busy)
		xfer_start(ld, &ld->health, REQ_HEALTH, "GET", "/v1/health", NULL);
	for (int i = 0; i < ld->o.games; i++) {
		struct slot *s = &ld->slots[i];
		for (int k = 0; k < ld->o.spectators; k++) {
			struct spectator *sp = &s->specs[k];
			if (!sp->retry)
				continue;
			if (sp->gen == s->gen) {
				sp->retry = false;
				spectator_poll(ld, sp);
			} else {
				spectator_watch(ld, sp);
			}
		}
	}
	if (ld->n_pid > 0) {
		long rss = servers_kb(ld, "VmRSS");
		if (rss > ld->rss_peak_kb)
			ld->rss_peak_kb = rss;
	}
}

/* ---- the loop ---- */

/* Hands the shard's finished transfers to their owners; returns how many
 * were a player's. */
static int load_drain_shard(struct load *ld, struct shard *sh)
{
	CURLMsg *msg;
	int left, slots = 0;
	while ((msg = curl_multi_info_read(sh->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		CURL *e = msg->easy_handle;
		CURLcode cc = msg->data.result;
		struct xfer *x = NULL;
		long status = 0;
		curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&x);
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
		curl_multi_remove_handle(sh->multi, e);
		x->busy = false;
		int64_t t = load_now_us();
		if (x->kind == REQ_EVENTS) {
			spectator_done(ld, x, cc, status, t);
		} else if (x->kind == REQ_HEALTH) {
			load_health_done(ld, cc, status);
		} else {
			slots++;
			slot_done(ld, x, cc, status, t);
		}
	}
	return slots;
}

/* Hands finished transfers to their owners; returns how many were a
 * player's. */
static int load_drain_messages(struct load *ld)
{
	int slots = 0;
	for (int k = 0; k < ld->n_shards; k++)
		slots += load_drain_shard(ld, &ld->shards[k]);
	return slots;
}

/* Starts what is due; returns the earliest later due instant (or -1). */
static int64_t load_run_slots(struct load *ld, int64_t now)
{
	int64_t next = -1;
	for (int i = 0; i < ld->o.games; i++) {
		struct slot *s = &ld->slots[i];
		if (s->state != SLOT_IDLE && s->state != SLOT_WAIT)
			continue;
		if (s->due_us > now) {
			if (next < 0 || s->due_us < next)
				next = s->due_us;
			continue;
		}
		if (s->state == SLOT_IDLE)
			slot_new_game(ld, s);
		else
			slot_act(ld, s);
	}
	return next;
}

static void load_loop(struct load *ld)
{
	struct epoll_event evs[512];
	int64_t next_slot = 0;
	for (;;) {
		int64_t now = load_now_us();
		if (!ld->measuring && ld->registered == 2 * ld->o.games) {
			ld->measuring = true;
			ld->t0_us = now;
			ld->deadline_us = now + (int64_t)ld->o.seconds * 1000000;
			ld->srv_cpu0 = servers_cpu_s(ld);
			ld->db_cpu0 = ld->o.db_pid ? db_cpu_s((pid_t)ld->o.db_pid) : 0;
			ld->cli_cpu0 = load_self_cpu();
			load_box_cpu(&ld->box_busy0, &ld->box_all0);
			next_slot = 0;
		}
		if (!ld->measuring && (ld->register_failed || now > LOAD_SETUP_TIMEOUT_US + ld->setup_start_us)) {
			fprintf(stderr, "tchess-load: only %d of %d players registered in %lld s\n", ld->registered,
				2 * ld->o.games, LOAD_SETUP_TIMEOUT_US / 1000000);
			return;
		}
		if (ld->measuring &&
		    (now >= ld->deadline_us || (ld->o.max_moves && ld->moves_acked >= ld->o.max_moves))) {
			ld->t_end_us = now;
			ld->srv_cpu = servers_cpu_s(ld) - ld->srv_cpu0;
			ld->db_cpu = ld->o.db_pid ? db_cpu_s((pid_t)ld->o.db_pid) - ld->db_cpu0 : 0;
			ld->cli_cpu = load_self_cpu() - ld->cli_cpu0;
			load_box_cpu(&ld->box_busy, &ld->box_all);
			ld->box_busy -= ld->box_busy0;
			ld->box_all -= ld->box_all0;
			return;
		}
		load_tick(ld, now);
		if (ld->measuring && next_slot >= 0 && next_slot <= now)
			next_slot = load_run_slots(ld, now);

		int64_t wake = ld->next_health_us;
		for (int k = 0; k < ld->n_shards; k++) {
			int64_t d = ld->shards[k].deadline_us;
			if (d >= 0 && d < wake)
				wake = d;
		}
		if (next_slot >= 0 && next_slot < wake)
			wake = next_slot;
		now = load_now_us();
		int timeout = wake <= now ? 0 : (int)((wake - now + 999) / 1000);
		int n = epoll_wait(ld->epfd, evs, (int)(sizeof evs / sizeof evs[0]), timeout);
		int running;
		for (int i = 0; i < n; i++) {
			int flags = 0;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				flags |= CURL_CSELECT_IN;
			if (evs[i].events & EPOLLOUT)
				flags |= CURL_CSELECT_OUT;
			if (evs[i].events & EPOLLERR)
				flags |= CURL_CSELECT_ERR;
			struct shard *sh = &ld->shards[evs[i].data.u64 >> 32];
			curl_multi_socket_action(sh->multi, (curl_socket_t)(uint32_t)evs[i].data.u64, flags, &running);
		}
		now = load_now_us();
		for (int k = 0; k < ld->n_shards; k++) {
			struct shard *sh = &ld->shards[k];
			if (sh->deadline_us >= 0 && now >= sh->deadline_us) {
				sh->deadline_us = -1;
				curl_multi_socket_action(sh->multi, CURL_SOCKET_TIMEOUT, 0, &running);
			}
		}
		/* An answer may have made a slot due: look at them all again. */
		if (load_drain_messages(ld))
			next_slot = 0;
	}
}

/* ---- report ---- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static double pct_ms(const uint32_t *v, size_t n, double p)
{
	if (!n)
		return 0;
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);
	return v[i] / 1000.0;
}

static void load_report(struct load *ld)
{
	double secs = (double)(ld->t_end_us - ld->t0_us) / 1e6;
	if (secs <= 0)
		secs = 1e-9;
	struct reservoir *d = &ld->deliveries, *rt = &ld->round_trips;
	qsort(d->v, d->n, sizeof *d->v, cmp_u32);
	qsort(rt->v, rt->n, sizeof *rt->v, cmp_u32);
	long hwm = ld->n_pid > 0 ? servers_kb(ld, "VmHWM") : -1;
	long rss_now = ld->n_pid > 0 ? servers_kb(ld, "VmRSS") : -1;
	if (rss_now > ld->rss_peak_kb)
		ld->rss_peak_kb = rss_now;

	printf("\ntchess-load: %d games x %d spectators, %.1f s measured, tc \"%s\", sync %s%s, think %d ms, seed %llu\n",
	       ld->o.games, ld->o.spectators, secs, ld->o.tc, ld->o.sync, ld->o.premoves ? ", premoves" : "",
	       ld->o.think_ms, (unsigned long long)ld->o.seed);
	for (int i = 0; i < ld->n_base; i++)
		printf("server: %s%s\n", ld->base[i], ld->own_server ? " (started here)" : "");
	printf("%-46s %s\n", "figure", "value");
	printf("%-46s %ld\n", "moves acknowledged (2xx, after commit)", ld->moves_acked);
	printf("%-46s %.0f\n", "durable moves/s acknowledged", (double)ld->moves_acked / secs);
	printf("%-46s %ld / %ld / %ld\n", "games started / finished / abandoned", ld->games_started,
	       ld->games_finished, ld->games_broken);
	printf("%-46s %.3f / %.3f / %.3f\n", "move request -> ack p50 / p99 / max ms", pct_ms(rt->v, rt->n, 0.50),
	       pct_ms(rt->v, rt->n, 0.99), pct_ms(rt->v, rt->n, 1.0));
	printf("%-46s %llu\n", "spectator move deliveries", (unsigned long long)d->seen);
	printf("%-46s %.0f\n", "spectator move deliveries/s", (double)d->seen / secs);
	printf("%-46s %.3f / %.3f / %.3f\n", "ack -> spectator latency p50 / p99 / max ms", pct_ms(d->v, d->n, 0.50),
	       pct_ms(d->v, d->n, 0.99), pct_ms(d->v, d->n, 1.0));
	printf("%-46s %ld\n", "deliveries read before the mover's ack (as 0)", ld->before_ack);
	printf("%-46s %lld (%ld health answers)\n",
	       ld->n_base > 1 ? "parked long-polls, peak (node 1's health)" : "parked long-polls, peak (GET /v1/health)",
	       (long long)ld->parked_peak, ld->health_answers);
	printf("%-46s %lld\n", "parked long-polls, last reading", (long long)ld->parked_last);
	printf("%-46s %ld (of %d spectators)\n", "spectator polls outstanding, peak (here)", ld->polls_out_peak,
	       ld->o.games * ld->o.spectators);
	if (ld->n_pid > 0) {
		printf("%-46s %.1f MiB (VmHWM %.1f MiB)\n", "server RSS, peak of samples", ld->rss_peak_kb / 1024.0,
		       hwm / 1024.0);
		printf("%-46s %.0f%%\n", "server CPU (of one core)", 100.0 * ld->srv_cpu / secs);
		if (ld->moves_acked) {
			double us = 1e6 * ld->srv_cpu / (double)ld->moves_acked;
			printf("%-46s %.0f us (%.0f moves/s per busy core)\n", "server CPU per acknowledged move", us,
			       1e6 / us);
		}
		if (ld->o.db_pid) {
			printf("%-46s %.0f%%\n", "database CPU (of one core)", 100.0 * ld->db_cpu / secs);
			if (ld->moves_acked)
				printf("%-46s %.0f us server + %.0f us database\n", "CPU per acknowledged move",
				       1e6 * ld->srv_cpu / (double)ld->moves_acked,
				       1e6 * ld->db_cpu / (double)ld->moves_acked);
		}
	} else {
		printf("%-46s %s\n", "server RSS", "n/a (give --server-pid)");
	}
	printf("%-46s %.0f%%\n", "load generator CPU (of one core)", 100.0 * ld->cli_cpu / secs);
	if (ld->box_all > 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		double other = ld->box_busy - ld->srv_cpu - ld->cli_cpu - ld->db_cpu;
		printf("%-46s %.0f%% of %ld cores, other programs %.0f%% of one core\n", "machine busy",
		       100.0 * ld->box_busy / ld->box_all, cores, other > 0 ? 100.0 * other / secs : 0.0);
	}
	if (ld->o.premoves) {
		printf("%-46s %ld / %ld / %ld / %ld\n", "premoves queued/played/discarded/at game end",
		       ld->premoves_sent, ld->premoves_played, ld->premoves_discarded, ld->premoves_dropped);
		printf("%-46s %ld\n", "white moves with no premove possible", ld->premoves_none);
		printf("%-46s %ld ok, %ld not\n", "premove right after the move in its answer", ld->premove_pairs_ok,
		       ld->premove_pairs_bad);
		printf("%-46s %ld ok, %ld split\n", "premove in the same spectator batch", ld->spec_premove_ok,
		       ld->spec_premove_split);
		printf("%-46s %ld\n", "premoves charged thinking time", ld->premove_charged);
		printf("%-46s %ld\n", "premoves gone without a discard event", ld->premove_vanished);
	}
	printf("%-46s %ld\n", "spectator resyncs (snapshot answers)", ld->spec_resyncs);
	printf("%-46s", "game terminations");
	for (int i = 0; i < ld->n_terms; i++)
		printf(" %s %ld", ld->term_name[i], ld->term_count[i]);
	printf("\n%-46s %ld\n", "errors", ld->err_total);
	for (int i = 0; i < ld->n_errs; i++)
		printf("  %-44s %ld\n", ld->errs[i].what, ld->errs[i].n);
	if (ld->unmatched)
		printf("  %-44s %ld\n", "(deliveries of games no longer tracked)", ld->unmatched);
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tchess-load [--tchessd PATH [--nodes N] | --server URL... [--server-pid PID...]]\n"
		"                   [--games G]\n"
		"                   [--spectators S] [--seconds N] [--moves N] [--think-ms MS] [--premoves]\n"
		"                   [--tc TC] [--sync full|normal] [--no-tune] [--set KEY=VALUE]...\n"
		"                   [--seed N] [--keep-db] [--db PATH|postgresql://...] [--db-pid PID]\n"
		"Plays G random games against tchessd on loopback, each watched by S parked\n"
		"spectators, and prints moves/s, ack-to-spectator latency, parked polls and RSS.\n"
		"Defaults: --games 100 --spectators 10 --seconds 20 --tc - --sync full.\n"
		"--db gives the tchessd started here its store (a PostgreSQL database, say;\n"
		"default: a temporary SQLite file); --nodes N starts N of them on it (PostgreSQL).\n"
		"--db-pid names the database server's first process (PostgreSQL's postmaster):\n"
		"its CPU and its children's (the backends) is counted as the database's.\n"
		"--server (repeated: one per node) uses running servers; game i's White plays on\n"
		"node i %% N, its Black on the next, its spectators on the ones after.\n"
		"--no-tune leaves the server's max_connections and per-token rate limit at their\n"
		"defaults; --set passes a\n"
		"tchessd config key (see tchessd(8)).\n");
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static int load_parse_args(struct load_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tchessd", required_argument, NULL, 'T' },   { "server", required_argument, NULL, 'U' },
		{ "server-pid", required_argument, NULL, 'P' }, { "games", required_argument, NULL, 'g' },
		{ "spectators", required_argument, NULL, 's' }, { "seconds", required_argument, NULL, 't' },
		{ "moves", required_argument, NULL, 'm' },      { "think-ms", required_argument, NULL, 'k' },
		{ "premoves", no_argument, NULL, 'p' },         { "tc", required_argument, NULL, 'c' },
		{ "sync", required_argument, NULL, 'y' },       { "no-tune", no_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 'S' },        { "seed", required_argument, NULL, 'r' },
		{ "keep-db", no_argument, NULL, 'K' },          { "help", no_argument, NULL, 'h' },
		{ "db", required_argument, NULL, 'D' },          { "nodes", required_argument, NULL, 'N' },
		{ "db-pid", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof *o);
	o->games = 100;
	o->spectators = 10;
	o->seconds = 20;
	o->tc = "-";
	o->sync = "full";
	o->tune = true;
	o->seed = 1;
	o->nodes = 1;
	int opt;
	long v;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'T':
			o->tchessd = optarg;
			break;
		case 'U':
			if (o->n_servers == LOAD_NODES_MAX)
				goto bad;
			o->servers[o->n_servers++] = optarg;
			break;
		case 'P':
			if (o->n_server_pids == LOAD_NODES_MAX ||
			    !parse_long(optarg, 1, 1L << 30, &o->server_pids[o->n_server_pids]))
				goto bad;
			o->n_server_pids++;
			break;
		case 'B':
			if (!parse_long(optarg, 1, 1L << 30, &o->db_pid))
				goto bad;
			break;
		case 'N':
			if (!parse_long(optarg, 1, LOAD_NODES_MAX, &v))
				goto bad;
			o->nodes = (int)v;
			break;
		case 'g':
			if (!parse_long(optarg, 1, 100000, &v))
				goto bad;
			o->games = (int)v;
			break;
		case 's':
			if (!parse_long(optarg, 0, 1000, &v))
				goto bad;
			o->spectators = (int)v;
			break;
		case 't':
			if (!parse_long(optarg, 1, 3600, &v))
				goto bad;
			o->seconds = (int)v;
			break;
		case 'm':
			if (!parse_long(optarg, 1, 1L << 40, &o->max_moves))
				goto bad;
			break;
		case 'k':
			if (!parse_long(optarg, 0, 60000, &v))
				goto bad;
			o->think_ms = (int)v;
			break;
		case 'p':
			o->premoves = true;
			break;
		case 'c':
			if (strlen(optarg) > 60 || strpbrk(optarg, "\"\\"))
				goto bad;
			o->tc = optarg;
			break;
		case 'y':
			if (strcmp(optarg, "full") && strcmp(optarg, "normal"))
				goto bad;
			o->sync = optarg;
			break;
		case 'n':
			o->tune = false;
			break;
		case 'S':
			if (!strchr(optarg, '=') || o->n_sets == LOAD_SET_MAX || strchr(optarg, '\n'))
				goto bad;
			o->sets[o->n_sets++] = optarg;
			break;
		case 'r':
			if (!parse_long(optarg, 1, 1L << 62, &v))
				goto bad;
			o->seed = (uint64_t)v;
			break;
		case 'K':
			o->keep_db = true;
			break;
		case 'D':
			o->db = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc || (!o->n_servers && !o->tchessd)) {
		usage(stderr);
		return -1;
	}
	if (o->nodes > 1 && (o->n_servers || !o->db || strncmp(o->db, "postgres", 8))) {
		fprintf(stderr, "tchess-load: --nodes needs the tchessd started here and a PostgreSQL --db\n");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "tchess-load: bad option value \"%s\"\n", optarg);
	return -1;
}

int main(int argc, char **argv)
{
	struct load *ld = xcalloc(1, sizeof *ld);
	if (load_parse_args(&ld->o, argc, argv))
		return 2;
	signal(SIGPIPE, SIG_IGN);
	ld->rng = ld->o.seed * 0x9E3779B97F4A7C15ULL | 1;
	ruleset_preset(&ld->rules, "fide");
	size_t handles = (size_t)ld->o.games * (size_t)(ld->o.spectators + 2) + 1;
	/* Both ends of every connection live on this machine: the server
	 * inherits the raised limit. */
	load_raise_nofile(handles + 256);
	unsigned max_conn = (unsigned)(handles + handles / 10 + 64);
	if (ld->o.n_servers) {
		for (int i = 0; i < ld->o.n_servers; i++) {
			snprintf(ld->base[i], sizeof ld->base[i], "%s", ld->o.servers[i]);
			size_t bl = strlen(ld->base[i]);
			if (bl && ld->base[i][bl - 1] == '/')
				ld->base[i][bl - 1] = '\0';
		}
		ld->n_base = ld->o.n_servers;
		for (int i = 0; i < ld->o.n_server_pids; i++)
			ld->pid[i] = (pid_t)ld->o.server_pids[i];
		ld->n_pid = ld->o.n_server_pids;
	} else if (load_start_server(ld, max_conn)) {
		load_stop_server(ld);
		load_show_server_log(ld);
		load_cleanup_dir(ld);
		return 2;
	}
	for (int i = 0; ld->own_server && i < ld->n_pid; i++) {
		if (ld->o.tune)
			printf("tchessd pid %d on %s; config: sync = %s, max_connections = %u\n", (int)ld->pid[i],
			       ld->base[i], ld->o.sync, max_conn);
		else
			printf("tchessd pid %d on %s; config: sync = %s, max_connections left at its default\n",
			       (int)ld->pid[i], ld->base[i], ld->o.sync);
	}
	fflush(stdout);

	curl_global_init(CURL_GLOBAL_DEFAULT);
	ld->epfd = epoll_create1(EPOLL_CLOEXEC);
	ld->n_shards = (int)((handles + LOAD_SHARD_HANDLES - 1) / LOAD_SHARD_HANDLES);
	ld->shards = xcalloc((size_t)ld->n_shards, sizeof *ld->shards);
	for (int k = 0; k < ld->n_shards; k++) {
		struct shard *sh = &ld->shards[k];
		sh->ld = ld;
		sh->index = k;
		sh->deadline_us = -1;
		sh->multi = curl_multi_init();
		curl_multi_setopt(sh->multi, CURLMOPT_SOCKETFUNCTION, load_socket_cb);
		curl_multi_setopt(sh->multi, CURLMOPT_SOCKETDATA, sh);
		curl_multi_setopt(sh->multi, CURLMOPT_TIMERFUNCTION, load_timer_cb);
		curl_multi_setopt(sh->multi, CURLMOPT_TIMERDATA, sh);
		/* One connection per parked poll and per player, all kept
		 * alive. */
		curl_multi_setopt(sh->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)LOAD_SHARD_HANDLES + 16);
		curl_multi_setopt(sh->multi, CURLMOPT_MAXCONNECTS, (long)LOAD_SHARD_HANDLES + 16);
	}
	ld->deliveries.v = xcalloc(LOAD_SAMPLES_MAX, sizeof *ld->deliveries.v);
	ld->round_trips.v = xcalloc(LOAD_SAMPLES_MAX, sizeof *ld->round_trips.v);

	ld->slots = xcalloc((size_t)ld->o.games, sizeof *ld->slots);
	uint32_t tag = (uint32_t)(load_now_us() ^ ((uint64_t)getpid() << 16));
	for (int i = 0; i < ld->o.games; i++) {
		struct slot *s = &ld->slots[i];
		s->index = i;
		s->state = SLOT_SETUP;
		s->specs = xcalloc((size_t)ld->o.spectators + 1, sizeof *s->specs);
		for (int side = 0; side < 2; side++) {
			struct player *p = &s->pl[side];
			char body[96];
			snprintf(p->name, sizeof p->name, "ld%08x%c%d", tag, side ? 'b' : 'w', i);
			xfer_init(ld, &p->x, (unsigned)(2 * i + side));
			p->x.node = (i + side) % ld->n_base;
			p->x.slot = s;
			p->x.side = side;
			snprintf(body, sizeof body, "{\"name\":\"%s\"}", p->name);
			xfer_start(ld, &p->x, REQ_REGISTER, "POST", "/v1/players", body);
		}
		for (int k = 0; k < ld->o.spectators; k++) {
			s->specs[k].slot = s;
			xfer_init(ld, &s->specs[k].x, (unsigned)(2 * ld->o.games + i * ld->o.spectators + k));
			s->specs[k].x.node = (i + 2 + k) % ld->n_base;
			s->specs[k].x.spec = &s->specs[k];
		}
	}
	xfer_init(ld, &ld->health, 0);
	ld->setup_start_us = load_now_us();
	load_loop(ld);
	ld->stopping = true;
	int rc = 0;
	if (!ld->measuring) {
		rc = 2;
	} else {
		load_report(ld);
		if (ld->err_total || ld->premove_pairs_bad || ld->spec_premove_split || ld->premove_charged ||
		    ld->premove_vanished || !ld->moves_acked)
			rc = 1;
	}
	fflush(stdout);

	for (int i = 0; i < ld->o.games; i++) {
		struct slot *s = &ld->slots[i];
		for (int side = 0; side < 2; side++)
			xfer_fini(ld, &s->pl[side].x);
		for (int k = 0; k < ld->o.spectators; k++)
			xfer_fini(ld, &s->specs[k].x);
		free(s->specs);
		free(s->cur.t);
		free(s->prev.t);
		free(s->early);
	}
	xfer_fini(ld, &ld->health);
	for (int k = 0; k < ld->n_shards; k++)
		curl_multi_cleanup(ld->shards[k].multi);
	free(ld->shards);
	curl_global_cleanup();
	close(ld->epfd);
	load_stop_server(ld);
	load_show_server_log(ld);
	load_cleanup_dir(ld);
	free(ld->slots);
	free(ld->deliveries.v);
	free(ld->round_trips.v);
	free(ld);
	return rc;
}
