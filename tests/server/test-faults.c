/*
 * Fault tests of tchessd (issue "Reliability and security", Faults):
 *
 * - kill -9 in the middle of 20 concurrent games, two client threads
 *   sending moves as fast as they can: after the restart on the same
 *   database every acknowledged move is there, an unacknowledged one is
 *   there at most once, a retried move for the same ply is answered as
 *   success without a second move, the clocks follow tchessd(8), RESTART
 *   (paused at the last event, resumed at the restart, nobody charged),
 *   and a client's long-poll after its last seq gets exactly what it
 *   missed. Three rounds.
 * - Disk full: the file size limit (RLIMIT_FSIZE, set on the running
 *   server with prlimit, so every write past the limit fails with EFBIG
 *   exactly as a full disk fails with ENOSPC) makes every command fail
 *   with 503 and a JSON error while reads go on; nothing is half-written;
 *   raising the limit again brings commands back without a restart.
 * - Read-only database (read_only = true): reads served, commands 503.
 */
#define _GNU_SOURCE
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tchess/fold.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/protocol.h"

#define GAMES 20
#define THREADS 2
/* A game's log must stay within the server's ring of recent events
 * (EVENT_RING_SIZE, 64): a poll further behind than that is answered with
 * the game's snapshot instead of its events, and verify_game reads every
 * event. Created, joined, started, three clock-resumed events and an
 * ending leave room for 56 plies. Before this bound a loaded machine,
 * where the kill comes late and the threads play on meanwhile, could
 * push a game past 64 events, and the test failed ("0 moves, 61 acked"). */
#define MAX_PLIES 56
/* Moves acknowledged in a round before the kill: 3 x 250 of the 20 x 56
 * the games hold. */
#define KILL_AFTER 250
#define CONFIG "rate_ip_per_s = 0\nrate_token_per_s = 0\npoll_timeout_ms = 1000\n"

struct fgame {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char token[2][PROTOCOL_TOKEN_MAX + 1];
	struct position pos;
	int plies;                  /* acknowledged */
	char uci[MAX_PLIES][UCI_MAX];
	int64_t last_seq;           /* the seq of the last answer */
	bool over;
	bool in_flight;             /* a move sent and not answered */
	char pending[UCI_MAX];
	uint32_t rng;
};

struct shared {
	struct tchessd *d;
	struct fgame *games;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int acked;
	int finished;               /* threads whose games are all full */
	bool stop;
	char error[256];            /* a protocol failure seen by a thread */
};

struct worker {
	struct shared *sh;
	int first, n;
};

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* Picks a legal move that does not end the game right away, so that
 * games run long; falls back to any legal move. */
static move pick(struct fgame *g)
{
	struct move_list l;
	movegen_legal(&g->pos, &l);
	g->rng = g->rng * 1103515245u + 12345u;
	return l.count ? l.moves[(g->rng >> 8) % (unsigned)l.count] : 0;
}

/* One move over the thread's connection: 1 acknowledged, 0 refused (a
 * protocol failure, recorded), -1 the request failed (server gone). */
static int send_move(struct shared *sh, CURL *e, struct fgame *g, const char *uci)
{
	char url[256], body[128], auth[256];
	snprintf(url, sizeof url, "%s/v1/games/%s/moves", sh->d->base, g->id);
	snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", g->plies, uci);
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", g->token[g->plies % 2]);
	struct curl_slist *h = curl_slist_append(NULL, auth);
	h = curl_slist_append(h, "Content-Type: application/json");
	struct buf b;
	buf_init(&b);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
	CURLcode rc = curl_easy_perform(e);
	curl_slist_free_all(h);
	long status = 0;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	int ret = -1;
	if (rc == CURLE_OK && status == 200) {
		struct protocol_events evs;
		struct protocol_error err;
		if (protocol_events_decode(b.data, b.len, &evs, &err) || evs.n < 1) {
			snprintf(sh->error, sizeof sh->error, "move answer: %s", b.data);
			ret = 0;
		} else {
			g->last_seq = evs.seq;
			for (size_t i = 0; i < evs.n; i++)
				if (!strcmp(evs.events[i].type, "game-ended"))
					g->over = true;
			protocol_events_fini(&evs);
			ret = 1;
		}
	} else if (rc == CURLE_OK) {
		snprintf(sh->error, sizeof sh->error, "move %s at ply %d: %ld %s", uci, g->plies, status, b.data);
		ret = 0;
	}
	buf_fini(&b);
	return ret;
}

static void play_locally(struct fgame *g, const char *uci)
{
	move m;
	if (uci_parse(&g->pos, uci, strlen(uci), &m, NULL) != TCHESS_OK)
		abort();
	struct undo u;
	position_make(&g->pos, m, &u);
	snprintf(g->uci[g->plies], UCI_MAX, "%s", uci);
	g->plies++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	CURL *e = curl_easy_init();
	bool gone = false;
	while (!gone) {
		bool any = false;
		for (int i = w->first; i < w->first + w->n && !gone; i++) {
			struct fgame *g = &sh->games[i];
			if (g->over || g->plies >= MAX_PLIES)
				continue;
			any = true;
			move m = pick(g);
			uci_write(&g->pos, m, g->pending);
			g->in_flight = true;
			int r = send_move(sh, e, g, g->pending);
			if (r < 0) {
				gone = true; /* killed: this move stays in flight */
				break;
			}
			g->in_flight = false;
			if (r == 0) {
				gone = true;
				break;
			}
			play_locally(g, g->pending);
			pthread_mutex_lock(&sh->lock);
			sh->acked++;
			pthread_cond_broadcast(&sh->cond);
			pthread_mutex_unlock(&sh->lock);
		}
		if (!any) {
			/* Every game of this thread is full: the kill need not
			 * wait for moves that cannot come. */
			pthread_mutex_lock(&sh->lock);
			sh->finished++;
			pthread_cond_broadcast(&sh->cond);
			pthread_mutex_unlock(&sh->lock);
			break;
		}
	}
	curl_easy_cleanup(e);
	return NULL;
}

/* The game's whole log as its white player sees it (no private events
 * in these games, so that is every event). */
static void full_log(struct tchessd *d, struct fgame *g, int64_t after, struct protocol_events *out)
{
	char path[160], *body;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", g->id, (long long)after);
	ck_assert_int_eq(http_call(d, "GET", path, g->token[0], NULL, 0, &body), 200);
	ck_assert_msg(protocol_events_decode(body, strlen(body), out, &err) == 0, "%s", err.message);
	free(body);
}

static void setup_games(struct tchessd *d, struct fgame *games, int n)
{
	for (int i = 0; i < n; i++) {
		struct fgame *g = &games[i];
		memset(g, 0, sizeof *g);
		char name[32], path[128], *body;
		snprintf(name, sizeof name, "w%d", i);
		register_player(d, name, g->token[0]);
		snprintf(name, sizeof name, "b%d", i);
		register_player(d, name, g->token[1]);
		/* An hour each: no flag falls during the test, so every clock
		 * reading is the documented rule's, not a timeout's. */
		create_game_with(d, g->token[0], "{\"tc\":\"60+0\",\"color\":\"white\"}", g->id);
		snprintf(path, sizeof path, "/v1/games/%s/join", g->id);
		ck_assert_int_eq(http_call(d, "POST", path, g->token[1], "{}", 2, &body), 200);
		free(body);
		position_init_start(&g->pos);
		g->rng = 2654435761u * (uint32_t)(i + 1);
		g->last_seq = 3;
	}
}

/* Checks one game after the restart and brings the client up to date. */
static void verify_game(struct tchessd *d, struct fgame *g, int *retried_inflight, int *inflight_committed)
{
	struct protocol_events all;
	full_log(d, g, 0, &all);
	/* Moves: plies 0, 1, 2... once each; every acknowledged one as sent. */
	int moves = 0;
	int64_t clock_prev_white = -1, clock_prev_black = -1, prev_t = 0;
	int prev_running = -2;
	bool resumed = false, ended = false;
	for (size_t i = 0; i < all.n; i++) {
		struct protocol_event *ev = &all.events[i];
		ck_assert_int_eq(ev->seq, (int64_t)i + 1); /* no gaps, no duplicates */
		struct fold_event fe;
		struct protocol_error err;
		ck_assert_msg(fold_event_decode(ev->type, ev->data, &fe, &err) == 0, "%s", err.message);
		if (fe.kind == FOLD_EV_MOVE) {
			ck_assert_int_eq(fe.ply, moves);
			if (moves < g->plies)
				ck_assert_str_eq(fe.uci, g->uci[moves]);
			else
				ck_assert_msg(g->in_flight && moves == g->plies && !strcmp(fe.uci, g->pending),
					      "game %s: move %s at ply %d was never sent", g->id, fe.uci, moves);
			moves++;
		}
		if (fe.kind == FOLD_EV_CLOCK_RESUMED) {
			/* tchessd(8), RESTART: "a clock that was running is
			 * paused at the instant of the game's last committed
			 * event and resumed at the restart". */
			ck_assert_int_eq(fe.paused_ms, prev_t);
			ck_assert_int_eq(fe.clock.ms[WHITE], clock_prev_white);
			ck_assert_int_eq(fe.clock.ms[BLACK], clock_prev_black);
			ck_assert_int_eq(fe.clock.running, prev_running);
			ck_assert_int_ge(ev->t_ms, prev_t);
			resumed = true;
		}
		ended |= fe.kind == FOLD_EV_ENDED;
		if (fe.has_clock) {
			clock_prev_white = fe.clock.ms[WHITE];
			clock_prev_black = fe.clock.ms[BLACK];
			prev_running = fe.clock.running;
		}
		prev_t = ev->t_ms;
	}
	ck_assert_msg(moves == g->plies || (g->in_flight && moves == g->plies + 1), "game %s: %d moves, %d acked",
		      g->id, moves, g->plies);
	g->over |= ended;
	ck_assert_msg(resumed || ended, "game %s: no clock-resumed event after the restart", g->id);

	/* The client resumes: a poll after its last seq gets exactly the
	 * events it has not seen. */
	struct protocol_events missed;
	full_log(d, g, g->last_seq, &missed);
	ck_assert_uint_eq(missed.n, all.n - (size_t)g->last_seq);
	for (size_t i = 0; i < missed.n; i++) {
		ck_assert_int_eq(missed.events[i].seq, all.events[g->last_seq + (int64_t)i].seq);
		ck_assert_str_eq(missed.events[i].data, all.events[g->last_seq + (int64_t)i].data);
	}
	ck_assert_int_eq(missed.seq, all.seq);
	protocol_events_fini(&missed);

	/* Retry what the client last sent, for the same ply: success, and
	 * still one move at that ply. */
	char path[160], body_text[128], *body;
	int ply = g->in_flight ? g->plies : g->plies - 1;
	const char *uci = g->in_flight ? g->pending : ply >= 0 ? g->uci[ply] : NULL;
	if (uci && !g->over) {
		snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
		snprintf(body_text, sizeof body_text, "{\"ply\":%d,\"move\":\"%s\"}", ply, uci);
		long s = http_call(d, "POST", path, g->token[ply % 2], body_text, strlen(body_text), &body);
		ck_assert_msg(s == 200, "retry of ply %d: %ld %s", ply, s, body);
		free(body);
		struct protocol_events again;
		full_log(d, g, 0, &again);
		int n = 0;
		for (size_t i = 0; i < again.n; i++)
			n += !strcmp(again.events[i].type, "move");
		ck_assert_int_eq(n, ply + 1);
		g->last_seq = again.seq;
		protocol_events_fini(&again);
		if (g->in_flight) {
			(*retried_inflight)++;
			*inflight_committed += moves == g->plies + 1;
			play_locally(g, g->pending);
			g->in_flight = false;
		}
	}
	protocol_events_fini(&all);
}

START_TEST(test_kill9_concurrent_games)
{
	struct tchessd d;
	tchessd_start(&d, CONFIG);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	struct fgame *games = calloc(GAMES, sizeof *games);
	setup_games(&d, games, GAMES);
	int total_acked = 0, total_inflight = 0, total_committed = 0;
	for (int round = 0; round < 3; round++) {
		struct shared sh = { .d = &d, .games = games };
		pthread_mutex_init(&sh.lock, NULL);
		pthread_cond_init(&sh.cond, NULL);
		pthread_t th[THREADS];
		struct worker w[THREADS];
		for (int t = 0; t < THREADS; t++) {
			w[t] = (struct worker){ &sh, t * (GAMES / THREADS), GAMES / THREADS };
			pthread_create(&th[t], NULL, worker_main, &w[t]);
		}
		/* Kill once enough moves are acknowledged, with both threads
		 * mid-request. */
		pthread_mutex_lock(&sh.lock);
		while (sh.acked < KILL_AFTER && sh.finished < THREADS)
			pthread_cond_wait(&sh.cond, &sh.lock);
		pthread_mutex_unlock(&sh.lock);
		ck_assert_int_eq(kill(d.pid, SIGKILL), 0);
		int status;
		ck_assert_int_eq(waitpid(d.pid, &status, 0), d.pid);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		for (int t = 0; t < THREADS; t++)
			pthread_join(th[t], NULL);
		ck_assert_msg(!sh.error[0], "%s", sh.error);
		total_acked += sh.acked;

		tchessd_restart(&d);
		int inflight = 0, committed = 0;
		for (int i = 0; i < GAMES; i++)
			verify_game(&d, &games[i], &inflight, &committed);
		total_inflight += inflight;
		total_committed += committed;
		pthread_mutex_destroy(&sh.lock);
		pthread_cond_destroy(&sh.cond);
	}
	fprintf(stderr,
		"faults: 3 kill -9 rounds x %d games: %d moves acknowledged, 0 lost; %d in flight at the kill "
		"(%d had committed), each retried once and played once\n",
		GAMES, total_acked, total_inflight, total_committed);
	free(games);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

/* Expects a 503 "unavailable" JSON error with Retry-After semantics. */
static void expect_unavailable(long status, char *body, const char *what)
{
	struct protocol_error e, err;
	ck_assert_msg(status == 503, "%s: %ld %s", what, status, body);
	ck_assert_msg(protocol_error_decode(body, strlen(body), &e, &err) == 0, "%s: %s", what, body);
	ck_assert_int_eq(e.code, PROTOCOL_ERR_UNAVAILABLE);
	free(body);
}

#define EXPECT_503(call, what)                        \
	do {                                          \
		long status_ = (call);                \
		expect_unavailable(status_, body, what); \
	} while (0)

struct two {
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1];
	char game[PROTOCOL_GAME_ID_MAX + 1];
	char path[160];
};

/* alice (white) and bob in a 60+0 game where 1. e4 is played. */
static void two_players(struct tchessd *d, struct two *t)
{
	char *body;
	register_player(d, "alice", t->alice);
	register_player(d, "bob", t->bob);
	create_game_with(d, t->alice, "{\"tc\":\"60+0\",\"color\":\"white\"}", t->game);
	snprintf(t->path, sizeof t->path, "/v1/games/%s/join", t->game);
	ck_assert_int_eq(http_call(d, "POST", t->path, t->bob, "{}", 2, &body), 200);
	free(body);
	snprintf(t->path, sizeof t->path, "/v1/games/%s/moves", t->game);
	ck_assert_int_eq(http_call(d, "POST", t->path, t->alice, "{\"ply\":0,\"move\":\"e4\"}", 21, &body), 200);
	free(body);
}

/* Every command fails with 503 and every read still works; the game's log
 * stays as it was. */
static void commands_fail_reads_work(struct tchessd *d, struct two *t, int64_t seq)
{
	char *body, path[160];
	EXPECT_503(http_call(d, "POST", t->path, t->bob, "{\"ply\":1,\"move\":\"e5\"}", 21, &body), "move");
	EXPECT_503(http_call(d, "POST", "/v1/players", NULL, "{\"name\":\"carol\"}", 16, &body), "register");
	const char *create = "{\"tc\":\"5+3\"}";
	EXPECT_503(http_call(d, "POST", "/v1/games", t->alice, create, strlen(create), &body), "create");
	snprintf(path, sizeof path, "/v1/games/%s/notes", t->game);
	EXPECT_503(http_call(d, "POST", path, t->bob, "{\"text\":\"n\"}", 12, &body), "note");
	snprintf(path, sizeof path, "/v1/games/%s/premoves", t->game);
	EXPECT_503(http_call(d, "PUT", path, t->alice, "{\"ply\":1,\"moves\":[\"d2d4\"]}", 26, &body), "premove");
	snprintf(path, sizeof path, "/v1/games/%s/resign", t->game);
	EXPECT_503(http_call(d, "POST", path, t->alice, "{}", 2, &body), "resign");

	const char *reads[] = { "/v1/games/%s", "/v1/games/%s/events?after=0", "/v1/games/%s/pgn", "/v1/games",
				"/v1/me", "/v1/health" };
	for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		if (strstr(reads[i], "%s"))
			snprintf(path, sizeof path, "/v1/games/%s%s", t->game, reads[i] + 12);
		else
			snprintf(path, sizeof path, "%s", reads[i]);
		long s = http_call(d, "GET", path, t->alice, NULL, 0, &body);
		ck_assert_msg(s == 200, "read %s: %ld %s", path, s, body);
		free(body);
	}
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t->game);
	ck_assert_int_eq(http_call(d, "GET", path, t->alice, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(body, strlen(body), &evs, &err), 0);
	free(body);
	ck_assert_int_eq(evs.seq, seq);
	protocol_events_fini(&evs);
}

/* The game's moves in order, as one string ("e2e4 e7e5"). */
static void moves_of(struct tchessd *d, struct two *t, char *out, size_t size)
{
	char path[160], *body;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t->game);
	ck_assert_int_eq(http_call(d, "GET", path, t->alice, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(body, strlen(body), &evs, &err), 0);
	free(body);
	out[0] = '\0';
	for (size_t i = 0; i < evs.n; i++) {
		ck_assert_int_eq(evs.events[i].seq, (int64_t)i + 1);
		struct fold_event fe;
		ck_assert_int_eq(fold_event_decode(evs.events[i].type, evs.events[i].data, &fe, &err), 0);
		if (fe.kind == FOLD_EV_MOVE)
			snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? " " : "", fe.uci);
	}
	protocol_events_fini(&evs);
}

static int64_t game_seq(struct tchessd *d, struct two *t)
{
	char path[160], *body;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t->game);
	ck_assert_int_eq(http_call(d, "GET", path, t->alice, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_int_eq(protocol_events_decode(body, strlen(body), &evs, &err), 0);
	free(body);
	int64_t seq = evs.seq;
	protocol_events_fini(&evs);
	return seq;
}

START_TEST(test_disk_full)
{
	/* Issue 6: "Disk full / read-only database: commands fail cleanly
	 * with an error; nothing is half-written." */
	if (tchessd_postgresql()) {
		/* The file size limit is tchessd's; PostgreSQL writes its own
		 * files. */
		fprintf(stderr, "test_disk_full: not on PostgreSQL (the disk is the database server's)\n");
		return;
	}
	struct tchessd d;
	tchessd_start(&d, CONFIG);
	struct two t;
	two_players(&d, &t);
	int64_t seq = game_seq(&d, &t);

	/* The disk is full: no write can go past the first byte of any file. */
	struct rlimit full = { 1, RLIM_INFINITY }, room = { RLIM_INFINITY, RLIM_INFINITY };
	ck_assert_int_eq(prlimit(d.pid, RLIMIT_FSIZE, &full, NULL), 0);
	for (int i = 0; i < 3; i++)
		commands_fail_reads_work(&d, &t, seq);

	/* Space returns: the same commands succeed, without a restart. */
	ck_assert_int_eq(prlimit(d.pid, RLIMIT_FSIZE, &room, NULL), 0);
	char *body;
	ck_assert_int_eq(http_call(&d, "POST", t.path, t.bob, "{\"ply\":1,\"move\":\"e5\"}", 21, &body), 200);
	free(body);
	char carol[PROTOCOL_TOKEN_MAX + 1];
	register_player(&d, "carol", carol);

	/* Nothing of the failed commands was half-written: after a crash the
	 * log holds exactly the two moves, one game, carol once. */
	kill(d.pid, SIGKILL);
	waitpid(d.pid, NULL, 0);
	tchessd_restart(&d);
	char moves[128];
	moves_of(&d, &t, moves, sizeof moves);
	ck_assert_str_eq(moves, "e2e4 e7e5");
	ck_assert_int_eq(http_call(&d, "GET", "/v1/games", NULL, NULL, 0, &body), 200);
	struct protocol_game_summary *list;
	size_t n;
	struct protocol_error err;
	ck_assert_int_eq(protocol_game_list_decode(body, strlen(body), &list, &n, &err), 0);
	free(body);
	ck_assert_uint_eq(n, 1);
	free(list);
	ck_assert_int_eq(http_call(&d, "POST", "/v1/players", NULL, "{\"name\":\"carol\"}", 16, &body), 409);
	free(body);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

static void write_config(struct tchessd *d, const char *text)
{
	char conf[300];
	snprintf(conf, sizeof conf, "%s/tchessd.conf", d->dir);
	FILE *f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "sync = normal\n%s", text);
	fclose(f);
}

START_TEST(test_read_only_database)
{
	/* tchessd(8): read_only = true opens the database read-only: reads
	 * work, commands are answered 503. */
	struct tchessd d;
	tchessd_start(&d, CONFIG);
	struct two t;
	two_players(&d, &t);
	ck_assert_int_eq(tchessd_stop(&d), 0);
	write_config(&d, CONFIG "read_only = true\n");
	tchessd_restart(&d);
	int64_t seq = game_seq(&d, &t);
	commands_fail_reads_work(&d, &t, seq);
	char moves[128];
	moves_of(&d, &t, moves, sizeof moves);
	ck_assert_str_eq(moves, "e2e4");
	ck_assert_int_eq(tchessd_stop(&d), 0);
	/* Writable again: play goes on where it stopped. */
	write_config(&d, CONFIG);
	tchessd_restart(&d);
	char *body;
	ck_assert_int_eq(http_call(&d, "POST", t.path, t.bob, "{\"ply\":1,\"move\":\"e5\"}", 21, &body), 200);
	free(body);
	moves_of(&d, &t, moves, sizeof moves);
	ck_assert_str_eq(moves, "e2e4 e7e5");
	ck_assert_int_eq(tchessd_stop(&d), 0);
	tchessd_cleanup(&d);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("faults");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_kill9_concurrent_games);
	tcase_add_test(tc, test_disk_full);
	tcase_add_test(tc, test_read_only_database);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(faults_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
