/*
 * Several tchessd nodes on one PostgreSQL database (tchessd(8), CLUSTER):
 * three real tchessd on loopback ports sharing one database of the
 * throwaway cluster that with-postgresql runs; skipped (77) without one.
 * Every wait is on an event (an answer, a parked poll) with a deadline.
 */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "harness.h"
#include "pgtest.h"
#include "server/cluster.h"
#include "tchess/protocol.h"
#include "util/buf.h"

#define NODES 3

static const char *const node_names[NODES] = { "a", "b", "c" };

/* A node of a cluster: the first makes the database (as any tchessd of
 * the tests), the others join it. */
static void node_start(struct tchessd *n, const struct tchessd *first, const char *name, const char *config)
{
	char conf[1024];
	snprintf(conf, sizeof conf, "node = %s\nrate_token_per_s = 0\nrate_ip_per_s = 0\n%s", name,
		 config ? config : "");
	if (first)
		tchessd_start_node(n, first, conf);
	else
		tchessd_start(n, conf);
}

static void cluster_open(struct tchessd n[NODES], const char *config)
{
	for (int i = 0; i < NODES; i++)
		node_start(&n[i], i ? &n[0] : NULL, node_names[i], config);
}

/* The same with each node's standard error in its DIR/tchessd.log at
 * level (tchessd_log_has reads it). */
static void cluster_open_logged(struct tchessd n[NODES], const char *config, const char *level)
{
	for (int i = 0; i < NODES; i++) {
		char conf[1024];
		snprintf(conf, sizeof conf, "node = %s\nrate_token_per_s = 0\nrate_ip_per_s = 0\n%s", node_names[i],
			 config);
		if (i)
			tchessd_start_node_logged(&n[i], &n[0], conf, level);
		else
			tchessd_start_logged(&n[i], conf, level);
	}
}

/* Which node times game (cluster_owns: the highest rendezvous score). */
static int owner_of(const char *game)
{
	int o = 0;
	for (int i = 1; i < NODES; i++)
		o = cluster_score(node_names[i], game) > cluster_score(node_names[o], game) ? i : o;
	return o;
}

/* Stops every node still running (exit status 0 expected), then removes
 * their folders and the database. */
static void cluster_close(struct tchessd n[NODES])
{
	for (int i = 0; i < NODES; i++) {
		if (n[i].pid)
			ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&n[i])), 0);
	}
	/* The database is the first node's to drop. */
	for (int i = NODES - 1; i >= 0; i--) {
		if (i)
			n[i].db[0] = '\0';
		tchessd_cleanup(&n[i]);
	}
}

/* alice (registered on a) creates a game of tc as White, bob (registered
 * on node reg_b) joins it on node join_b. */
static void cluster_game(struct tchessd n[NODES], int reg_b, int join_b, const char *tc, char *alice, char *bob,
			 char *game)
{
	char req[128];
	snprintf(req, sizeof req, "{\"tc\":\"%s\",\"color\":\"white\"}", tc);
	register_player(&n[0], "alice", alice);
	register_player(&n[reg_b], "bob", bob);
	create_game_with(&n[0], alice, req, game);
	join_game(&n[join_b], game, bob);
}

/* GET path on d, 200 expected: its JSON (caller deletes). */
static cJSON *get_json(struct tchessd *d, const char *path)
{
	char *body;
	ck_assert_int_eq(http_call(d, "GET", path, NULL, NULL, 0, &body), 200);
	cJSON *j = cJSON_Parse(body);
	free(body);
	ck_assert_ptr_nonnull(j);
	return j;
}

static int64_t game_seq(struct tchessd *d, const char *game)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", game);
	cJSON *j = get_json(d, path);
	int64_t seq = jint(j, "seq");
	cJSON_Delete(j);
	return seq;
}

/* Waits (10 s at most) until sql succeeds on db (a query that divides
 * by zero until what it waits for is there); what says it on failure. */
static void wait_sql(const char *db, const char *sql, const char *what)
{
	int64_t until = mono_ms() + 10000;
	while (pgtest_sql(db, sql) != 0) {
		ck_assert_msg(mono_ms() < until, "not within 10 s: %s", what);
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

static long move_on(struct tchessd *d, const char *game, const char *token, int ply, const char *san, char **out)
{
	char path[128], body[128];
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, san);
	return http_call(d, "POST", path, token, body, strlen(body), out);
}

/* The whole log as a node serves it to token (NULL: a spectator, public
 * events), decoded, once it shows seq (0: at once). A poll from 0 answers
 * what the node has folded and made durable, which may lack the last
 * events another node made until their message arrives; the snapshot read
 * first catches the node up with the log. */
static struct protocol_events log_as(struct tchessd *d, const char *game, const char *token, int64_t seq)
{
	game_seq(d, game);
	/* With sync = full the events it caught up are shown after its own
	 * next flush: a poll from just before seq returns once they are. */
	if (seq > 0) {
		struct poll_req p;
		poll_start(&p, d, game, seq - 1, token);
		ck_assert_msg(poll_run(&p, 10000), "seq %lld not shown within 10 s", (long long)seq);
		poll_fini(&p);
	}
	char path[128], *body;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", game);
	ck_assert_int_eq(http_call(d, "GET", path, token, NULL, 0, &body), 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(body, strlen(body), &evs, &err) == 0, "%s", err.message);
	free(body);
	return evs;
}

static struct protocol_events log_on(struct tchessd *d, const char *game, int64_t seq)
{
	return log_as(d, game, NULL, seq);
}

/* The moves of a log, in order, as "e4 e5 ..." */
static void moves_of(const struct protocol_events *evs, char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < evs->n; i++) {
		if (strcmp(evs->events[i].type, "move"))
			continue;
		cJSON *d = cJSON_Parse(evs->events[i].data);
		ck_assert_ptr_nonnull(d);
		len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "", jstr(d, "san"));
		cJSON_Delete(d);
	}
}

static void check_contiguous(const struct protocol_events *evs)
{
	for (size_t i = 0; i < evs->n; i++)
		ck_assert_int_eq(evs->events[i].seq, (int64_t)i + 1);
	ck_assert_int_eq(evs->seq, (int64_t)evs->n);
}

/* A spectator's poll parked on d answers with an event of type within
 * 10 s; returns its data (with "seq" added; caller deletes). */
static cJSON *poll_answer(struct poll_req *p, const char *type)
{
	ck_assert_msg(poll_run(p, 10000), "the parked poll was not answered within 10 s");
	ck_assert_int_eq(p->status, 200);
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(p->body.data, p->body.len, &evs, &err) == 0, "%s", err.message);
	cJSON *found = NULL;
	for (size_t i = 0; i < evs.n && !found; i++) {
		if (strcmp(evs.events[i].type, type))
			continue;
		found = cJSON_Parse(evs.events[i].data);
		cJSON_AddNumberToObject(found, "seq", (double)evs.events[i].seq);
		cJSON_AddNumberToObject(found, "t_ms", (double)evs.events[i].t_ms);
	}
	ck_assert_msg(found != NULL, "no %s event in the answer: %.*s", type, (int)p->body.len, p->body.data);
	protocol_events_fini(&evs);
	return found;
}

/* How many of the other nodes' events node d folded from their messages,
 * and how many it read from the store, as its log's last line of the
 * cluster says (d stopped). */
static void folded_from(const struct tchessd *d, long *from_message, long *from_store)
{
	char path[300];
	snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
	char *log = file_slurp(path);
	const char *p = strstr(log, "folded from their messages");
	ck_assert_msg(p != NULL, "no count of the events folded in the log");
	const char *q = p;
	while (q > log && q[-1] != ' ')
		q--;
	while (q > log && q[-1] == ' ')
		q--;
	while (q > log && q[-1] != ' ')
		q--;
	*from_message = strtol(q, NULL, 10);
	*from_store = strtol(p + strlen("folded from their messages,"), NULL, 10);
	free(log);
}

static void alternate(const char *config)
{
	/* One game's moves sent alternately to nodes a and b (each player
	 * on both), a spectator parked on c before each move: c's poll is
	 * answered with exactly that move, though c never wrote to the
	 * game; every node then serves the same contiguous log. c held the
	 * game all along, so it folded each move from the message that told
	 * it (the writer's, after its flush), reading none from the store. */
	struct tchessd n[NODES];
	cluster_open_logged(n, config ? config : "", "info");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 1, 1, "5+3", alice, bob, game);
	static const char *moves[] = { "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7" };
	int64_t seq = game_seq(&n[2], game);
	for (int ply = 0; ply < 10; ply++) {
		struct tchessd *to = ply % 4 == 0 || ply % 4 == 3 ? &n[0] : &n[1];
		struct poll_req p;
		poll_start(&p, &n[2], game, seq, NULL);
		poll_wait_parked(&p, &n[2], 1);
		char *body;
		long st = move_on(to, game, ply % 2 ? bob : alice, ply, moves[ply], &body);
		ck_assert_msg(st == 200, "ply %d on node %c: %ld %s", ply, to == &n[0] ? 'a' : 'b', st, body);
		free(body);
		cJSON *mv = poll_answer(&p, "move");
		ck_assert_str_eq(jstr(mv, "san"), moves[ply]);
		seq = jint(mv, "seq");
		cJSON_Delete(mv);
		poll_fini(&p);
	}
	char want[256], got[256];
	snprintf(want, sizeof want, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7");
	for (int i = 0; i < NODES; i++) {
		struct protocol_events evs = log_on(&n[i], game, seq);
		check_contiguous(&evs);
		moves_of(&evs, got, sizeof got);
		ck_assert_str_eq(got, want);
		ck_assert_int_eq(evs.seq, seq);
		protocol_events_fini(&evs);
	}
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&n[2])), 0);
	long from_message, from_store;
	folded_from(&n[2], &from_message, &from_store);
	ck_assert_int_ge(from_message, 10);
	ck_assert_int_eq(from_store, 0);
	cluster_close(n);
}

START_TEST(test_moves_on_two_nodes_spectator_on_third)
{
	alternate(NULL);
	/* With group commit the message follows each node's flush. */
	alternate("sync = full");
}
END_TEST

static size_t keep(char *data, size_t size, size_t n, void *arg)
{
	buf_append(arg, data, size * n);
	return size * n;
}

/* Two POSTs of a move sent at once, to two nodes; their statuses. */
static void two_at_once(struct tchessd *d1, struct tchessd *d2, const char *game, const char *token, int ply,
			const char *san1, const char *san2, long status[2])
{
	CURLM *m = curl_multi_init();
	CURL *e[2];
	struct buf out[2];
	char url[2][256], body[2][128], auth[256];
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
	struct curl_slist *h = curl_slist_append(NULL, auth);
	h = curl_slist_append(h, "Content-Type: application/json");
	for (int i = 0; i < 2; i++) {
		buf_init(&out[i]);
		snprintf(url[i], sizeof url[i], "%s/v1/games/%s/moves", (i ? d2 : d1)->base, game);
		snprintf(body[i], sizeof body[i], "{\"ply\":%d,\"move\":\"%s\"}", ply, i ? san2 : san1);
		e[i] = curl_easy_init();
		curl_easy_setopt(e[i], CURLOPT_URL, url[i]);
		curl_easy_setopt(e[i], CURLOPT_POSTFIELDS, body[i]);
		curl_easy_setopt(e[i], CURLOPT_HTTPHEADER, h);
		curl_easy_setopt(e[i], CURLOPT_TIMEOUT_MS, 15000L);
		curl_easy_setopt(e[i], CURLOPT_WRITEFUNCTION, keep);
		curl_easy_setopt(e[i], CURLOPT_WRITEDATA, &out[i]);
		curl_multi_add_handle(m, e[i]);
	}
	int running = 2;
	int64_t deadline = mono_ms() + 15000;
	while (running && mono_ms() < deadline) {
		curl_multi_perform(m, &running);
		if (running)
			curl_multi_poll(m, NULL, 0, 100, NULL);
	}
	ck_assert_int_eq(running, 0);
	for (int i = 0; i < 2; i++) {
		curl_easy_getinfo(e[i], CURLINFO_RESPONSE_CODE, &status[i]);
		curl_multi_remove_handle(m, e[i]);
		curl_easy_cleanup(e[i]);
		buf_fini(&out[i]);
	}
	curl_slist_free_all(h);
	curl_multi_cleanup(m);
}

START_TEST(test_same_ply_on_two_nodes)
{
	/* The same ply sent to two nodes at once: different moves, one is
	 * played (200) and the other refused as stale (409); the same move
	 * twice (a client's retry on another node), both answer 200 and it
	 * is played once. Three rounds of each; every node ends with the
	 * same log, each ply once. */
	struct tchessd n[NODES];
	cluster_open(n, NULL);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "5+3", alice, bob, game);
	/* White's first moves race a knight move against a pawn move; Black
	 * answers each with the same move on both nodes. */
	static const char *white[][2] = { { "e4", "d4" }, { "Nf3", "Nc3" }, { "g3", "b3" } };
	static const char *black[] = { "e5", "Nc6", "Nf6" };
	char played[256] = "";
	size_t len = 0;
	for (int r = 0; r < 3; r++) {
		long st[2];
		two_at_once(&n[r % 2], &n[1 - r % 2], game, alice, 2 * r, white[r][0], white[r][1], st);
		ck_assert_msg((st[0] == 200 && st[1] == 409) || (st[0] == 409 && st[1] == 200),
			      "round %d: statuses %ld and %ld", r, st[0], st[1]);
		len += (size_t)snprintf(played + len, sizeof played - len, "%s ", white[r][st[0] == 200 ? 0 : 1]);
		two_at_once(&n[0], &n[1], game, bob, 2 * r + 1, black[r], black[r], st);
		ck_assert_int_eq(st[0], 200);
		ck_assert_int_eq(st[1], 200);
		len += (size_t)snprintf(played + len, sizeof played - len, "%s ", black[r]);
	}
	played[len - 1] = '\0';
	for (int i = 0; i < NODES; i++) {
		struct protocol_events evs = log_on(&n[i], game, 0);
		check_contiguous(&evs);
		char got[256];
		moves_of(&evs, got, sizeof got);
		ck_assert_str_eq(got, played);
		protocol_events_fini(&evs);
	}
	cluster_close(n);
}
END_TEST

/* The t_ms of the first event of type in a command's answer; its seq in
 * *seq when seq is not NULL. */
static int64_t answer_t(const char *body, const char *type, int64_t *seq)
{
	struct protocol_events evs;
	struct protocol_error err;
	ck_assert_msg(protocol_events_decode(body, strlen(body), &evs, &err) == 0, "%s", err.message);
	int64_t t = -1;
	for (size_t i = 0; i < evs.n && t < 0; i++) {
		if (!strcmp(evs.events[i].type, type)) {
			t = evs.events[i].t_ms;
			if (seq)
				*seq = evs.events[i].seq;
		}
	}
	protocol_events_fini(&evs);
	ck_assert_int_ge(t, 0);
	return t;
}

START_TEST(test_flag_after_kill)
{
	/* A 1+0 game played on node a alone (nobody looks at it elsewhere)
	 * and a killed (-9) while White's clock runs. The survivors see a
	 * leave at once, the game's owner among them reads it in, and when
	 * White's minute has passed on their test clocks it ends the game on
	 * time, at or after the instant it was due; spectators arriving on
	 * both survivors see the same timeout, and the log holds one end.
	 * Before the owners the game waited for someone to ask for it (the
	 * wait on the database below failed). */
	struct tchessd n[NODES];
	cluster_open(n, "test_clock = on\npoll_timeout_ms = 30000\n");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "1+0", alice, bob, game);
	char *body;
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &body), 200);
	free(body);
	ck_assert_int_eq(move_on(&n[0], game, bob, 1, "e5", &body), 200);
	/* White's clock runs from Black's move: 60 s of it. */
	int64_t deadline_ms = answer_t(body, "move", NULL) + 60000;
	free(body);
	int64_t seq = game_seq(&n[0], game);
	ck_assert_int_eq(kill(n[0].pid, SIGKILL), 0);
	int status;
	ck_assert_int_eq(waitpid(n[0].pid, &status, 0), n[0].pid);
	n[0].pid = 0;
	tchessd_advance(&n[1], 61000);
	tchessd_advance(&n[2], 61000);
	/* Nobody asks a survivor about the game until the database says it
	 * is over (a read would bring it into that node's memory). */
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 / finished::int FROM games WHERE id = '%s'", game);
	wait_sql(n[1].db, sql, "a survivor ending the game after a's death");
	struct poll_req p[2];
	for (int i = 0; i < 2; i++)
		poll_start(&p[i], &n[1 + i], game, seq, NULL);
	for (int i = 0; i < 2; i++) {
		cJSON *end = poll_answer(&p[i], "game-ended");
		ck_assert_str_eq(jstr(end, "termination"), "timeout");
		ck_assert_str_eq(jstr(end, "result"), "0-1");
		ck_assert_int_ge(jint(end, "t_ms"), deadline_ms);
		cJSON_Delete(end);
		poll_fini(&p[i]);
	}
	for (int i = 1; i < NODES; i++) {
		struct protocol_events evs = log_on(&n[i], game, 0);
		check_contiguous(&evs);
		size_t ends = 0;
		for (size_t k = 0; k < evs.n; k++)
			ends += !strcmp(evs.events[k].type, "game-ended");
		ck_assert_uint_eq(ends, 1);
		protocol_events_fini(&evs);
	}
	cluster_close(n);
}
END_TEST

/* Waits (30 s at most: a loaded machine, the sanitizer build) until d's
 * log holds text. */
static void wait_log(const struct tchessd *d, const char *text)
{
	int64_t until = mono_ms() + 30000;
	while (!tchessd_log_has(d, text)) {
		if (mono_ms() >= until) {
			/* What the node did say, for the one who reads the failure. */
			char path[300];
			snprintf(path, sizeof path, "%s/tchessd.log", d->dir);
			char *log = file_slurp(path);
			size_t len = strlen(log);
			fprintf(stderr, "--- the last of %s:\n%s\n---\n", path, log + (len > 6000 ? len - 6000 : 0));
			free(log);
			ck_abort_msg("not logged within 30 s: %s", text);
		}
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* Waits until every node's log says it sees all NODES alive. */
static void wait_all_alive(struct tchessd n[NODES])
{
	char line[64];
	snprintf(line, sizeof line, "cluster: %d nodes alive", NODES);
	for (int i = 0; i < NODES; i++)
		wait_log(&n[i], line);
}

static long seat_command(struct tchessd *d, const char *method, const char *game, const char *what,
			 const char *token, const char *body)
{
	char path[128], *out;
	snprintf(path, sizeof path, "/v1/games/%s/%s", game, what);
	long st = http_call(d, method, path, token, body, strlen(body), &out);
	free(out);
	return st;
}

START_TEST(test_limits_across_nodes)
{
	/* A client spreading its requests over the three nodes gets the
	 * limits of one server, not three times them (before: each node
	 * counted alone, and every step below passed where it is refused;
	 * each step was checked to fail with its own cluster-wide count
	 * taken out: the seat counts of the ply and of invalid commands in
	 * the database, and each node's share of the token's rate).
	 * Loopback is not exempt here: it stands for one address. */
	struct tchessd n[NODES];
	cluster_open_logged(n,
			    "rate_exempt =\nregister_per_hour = 4\nevents_per_ply = 3\nrate_token_per_s = 1\n"
			    "rate_token_burst = 30\n",
			    "info");
	/* Registrations per address (register_per_hour = 4): two here, one
	 * on c, one on a, and the fifth, on b, waits. */
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], carol[PROTOCOL_TOKEN_MAX + 1];
	char game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 1, 1, "5+3", alice, bob, game);
	register_player(&n[2], "carol", carol);
	char dave[PROTOCOL_TOKEN_MAX + 1];
	register_player(&n[0], "dave", dave);
	char *out;
	const char *reg = "{\"name\":\"erin\"}";
	ck_assert_int_eq(http_call(&n[1], "POST", "/v1/players", NULL, reg, strlen(reg), &out), 429);
	ck_assert_ptr_nonnull(strstr(out, "registrations"));
	free(out);

	/* Events in one ply (events_per_ply = 3): White's premoves set on
	 * a, b and c while Black thinks; a fourth on a is refused. */
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &out), 200);
	free(out);
	for (int i = 0; i < 3; i++) {
		const char *pm = i % 2 ? "{\"ply\":1,\"moves\":[\"g1f3\"]}" : "{\"ply\":1,\"moves\":[\"d2d4\"]}";
		ck_assert_int_eq(seat_command(&n[i], "PUT", game, "premoves", alice, pm), 200);
	}
	ck_assert_int_eq(seat_command(&n[0], "PUT", game, "premoves", alice, "{\"ply\":1,\"moves\":[\"g1f3\"]}"),
			 429);

	/* Invalid commands in a row (10 allowed by every preset): Black's
	 * illegal moves spread over the nodes; the eleventh ends the game. */
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(seat_command(&n[i % NODES], "POST", game, "moves", bob, "{\"ply\":1,\"move\":\"e2e4\"}"),
				 422);
	cJSON *snap;
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", game);
	snap = get_json(&n[2], path);
	ck_assert_str_eq(jstr(snap, "status"), "playing");
	cJSON_Delete(snap);
	ck_assert_int_eq(seat_command(&n[1], "POST", game, "moves", bob, "{\"ply\":1,\"move\":\"e2e4\"}"), 422);
	snap = get_json(&n[2], path);
	ck_assert_str_eq(jstr(snap, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(snap, "reason"), "invalid-commands");
	cJSON_Delete(snap);

	/* Commands per token (a burst of 30, 1 a second): each node of
	 * three lets through a third. 45 commands over the nodes: at most
	 * the burst and what the time taken refilled pass. */
	wait_all_alive(n);
	int64_t t0 = mono_ms();
	int passed = 0;
	for (int i = 0; i < 45; i++) {
		long st = http_call(&n[i % NODES], "POST", "/v1/no-such-thing", carol, "{}", 2, &out);
		free(out);
		passed += st != 429;
	}
	int64_t took = mono_ms() - t0;
	ck_assert_msg(passed < 45 && passed <= 30 + NODES + (int)(took / 1000), "%d of 45 passed in %lld ms", passed,
		      (long long)took);

	/* A token replaced on one node (POST /v1/me/token) is refused by
	 * the others at once: no node keeps tokens in memory, each request
	 * reads the token's hash from the database. */
	ck_assert_int_eq(http_call(&n[2], "POST", "/v1/me/token", dave, NULL, 0, &out), 200);
	cJSON *fresh = cJSON_Parse(out);
	free(out);
	char dave2[PROTOCOL_TOKEN_MAX + 1];
	snprintf(dave2, sizeof dave2, "%s", jstr(fresh, "token"));
	cJSON_Delete(fresh);
	for (int i = 0; i < NODES; i++) {
		ck_assert_int_eq(http_call(&n[i], "GET", "/v1/me", dave, NULL, 0, NULL), 401);
		ck_assert_int_eq(http_call(&n[i], "GET", "/v1/me", dave2, NULL, 0, NULL), 200);
	}
	cluster_close(n);
}
END_TEST

/* ---- two nodes changing one tournament at once ---- */

/* A command sent without waiting for its answer (async_status reads it). */
static int async_post(struct tchessd *d, const char *path, const char *token, const char *body)
{
	char req[1024];
	int len = snprintf(req, sizeof req,
			   "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
			   "Content-Type: application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
			   path, token, strlen(body), body);
	int fd = dial(d, NULL);
	send_all(fd, req, (size_t)len);
	return fd;
}

static int async_status(int fd)
{
	bool closed;
	char *resp = read_all(fd, 10000, &closed);
	close(fd);
	int status = 0;
	ck_assert_msg(sscanf(resp, "HTTP/1.1 %d", &status) == 1, "no answer: %s", resp);
	free(resp);
	return status;
}

/* Holds rows locked (sql: a SELECT ... FOR UPDATE) in a transaction of
 * the test's own, as a slow writer would. */
static PGconn *hold_rows(const char *db, const char *sql, int rows)
{
	PGconn *c = PQconnectdb(db);
	ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
	PGresult *r = PQexec(c, "BEGIN");
	PQclear(r);
	r = PQexec(c, sql);
	ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == rows, "%s", PQerrorMessage(c));
	PQclear(r);
	return c;
}

static void release_rows(PGconn *c)
{
	PQclear(PQexec(c, "COMMIT"));
	PQfinish(c);
}

/* Waits until n backends of db wait for a lock. */
static void wait_lock_waiters(const char *db, int n)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT 1 / (COUNT(*) = %d)::int FROM pg_stat_activity WHERE datname = current_database() "
		 "AND wait_event_type = 'Lock'",
		 n);
	wait_sql(db, sql, "the commands reaching their locks");
}

static cJSON *tournament_on(struct tchessd *d, const char *tid)
{
	char path[128];
	snprintf(path, sizeof path, "/v1/tournaments/%s", tid);
	return get_json(d, path);
}

START_TEST(test_tournament_on_two_nodes)
{
	/* A three-player round robin. Its last two registrations arrive on
	 * a and b at once, and later its last two games end on a and b at
	 * once. Each pair is held (a transaction of the test's own locks
	 * rows both commands write: the players' credits, then the games'
	 * outcomes) until both are under way; then both go on. The
	 * tournament row is locked by whichever read it first, so the other
	 * reads what the first committed: the tournament starts once (three
	 * games) and finishes once (prizes paid). Before, each command saw
	 * the tournament without the other's change: both registrations saw
	 * two entrants and it never started; both games saw the other still
	 * running and it never finished. */
	struct tchessd n[NODES];
	cluster_open(n, NULL);
	struct {
		char token[PROTOCOL_TOKEN_MAX + 1];
		int64_t id;
	} p[3];
	static const char *names[3] = { "ann", "ben", "cid" };
	for (int i = 0; i < 3; i++)
		p[i].id = register_player(&n[i], names[i], p[i].token);
	char *out, path[160], tid[PROTOCOL_GAME_ID_MAX + 1];
	const char *create = "{\"kind\":\"round-robin\",\"players\":3,\"tc\":\"5+3\",\"stake\":100}";
	ck_assert_int_eq(http_call(&n[0], "POST", "/v1/tournaments", p[0].token, create, strlen(create), &out), 201);
	cJSON *t = cJSON_Parse(out);
	free(out);
	snprintf(tid, sizeof tid, "%s", jstr(t, "id"));
	cJSON_Delete(t);
	snprintf(path, sizeof path, "/v1/tournaments/%s/register", tid);
	ck_assert_int_eq(http_call(&n[2], "POST", path, p[0].token, "{}", 2, &out), 200);
	free(out);

	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 FROM players WHERE id IN (%lld, %lld) FOR UPDATE", (long long)p[1].id,
		 (long long)p[2].id);
	PGconn *hold = hold_rows(n[0].db, sql, 2);
	int fd[2];
	for (int i = 0; i < 2; i++)
		fd[i] = async_post(&n[i], path, p[1 + i].token, "{}");
	wait_lock_waiters(n[0].db, 2);
	release_rows(hold);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(async_status(fd[i]), 200);
	t = tournament_on(&n[2], tid);
	ck_assert_str_eq(jstr(t, "status"), "running");
	const cJSON *games = cJSON_GetObjectItem(t, "games");
	ck_assert_int_eq(cJSON_GetArraySize(games), 3);
	char ids[3][PROTOCOL_GAME_ID_MAX + 1];
	const char *loser[3];
	for (int g = 0; g < 3; g++) {
		const cJSON *e = cJSON_GetArrayItem(games, g);
		snprintf(ids[g], sizeof ids[g], "%s", jstr(e, "id"));
		int64_t black = jint(e, "black");
		loser[g] = NULL;
		for (int i = 0; i < 3; i++)
			loser[g] = p[i].id == black ? p[i].token : loser[g];
		ck_assert_ptr_nonnull(loser[g]);
	}
	cJSON_Delete(t);

	/* Black resigns each game: the first alone, the last two at once. */
	snprintf(path, sizeof path, "/v1/games/%s/resign", ids[0]);
	ck_assert_int_eq(http_call(&n[2], "POST", path, loser[0], "{}", 2, &out), 200);
	free(out);
	snprintf(sql, sizeof sql, "SELECT 1 FROM tournament_games WHERE game_id IN ('%s', '%s') FOR UPDATE", ids[1],
		 ids[2]);
	hold = hold_rows(n[0].db, sql, 2);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "/v1/games/%s/resign", ids[1 + i]);
		fd[i] = async_post(&n[i], path, loser[1 + i], "{}");
	}
	wait_lock_waiters(n[0].db, 2);
	release_rows(hold);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(async_status(fd[i]), 200);
	t = tournament_on(&n[2], tid);
	ck_assert_str_eq(jstr(t, "status"), "finished");
	cJSON_Delete(t);
	/* The prizes were paid once: the stakes (300) went back out whole. */
	snprintf(sql, sizeof sql,
		 "SELECT 1 / (SUM(delta) = 0 AND COUNT(*) FILTER (WHERE reason = 'prize') > 0)::int FROM credit_log "
		 "WHERE tournament = '%s'",
		 tid);
	ck_assert_int_eq(pgtest_sql(n[0].db, sql), 0);
	cluster_close(n);
}
END_TEST

START_TEST(test_open_games_on_two_nodes)
{
	/* open_games_per_player = 2, and alice has one seek waiting: two
	 * more arrive on a and b at once. Each is held (a transaction of
	 * the test's own locks alice's row, which the new game's row
	 * references) until both are under way; then both go on. Before,
	 * each counted one open game, both passed and alice had three
	 * waiting. Now the count takes alice's lock in the creating
	 * transaction: the second counts once the first has committed, and
	 * is refused. */
	struct tchessd n[NODES];
	cluster_open(n, "open_games_per_player = 2\n");
	char alice[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	int64_t id = register_player(&n[2], "alice", alice);
	const char *seek = "{\"tc\":\"5+3\"}";
	create_game_with(&n[2], alice, seek, game);
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 FROM players WHERE id = %lld FOR UPDATE", (long long)id);
	PGconn *hold = hold_rows(n[0].db, sql, 1);
	int fd[2];
	for (int i = 0; i < 2; i++)
		fd[i] = async_post(&n[i], "/v1/games", alice, seek);
	wait_lock_waiters(n[0].db, 2);
	release_rows(hold);
	int st[2];
	for (int i = 0; i < 2; i++)
		st[i] = async_status(fd[i]);
	ck_assert_msg((st[0] == 201 && st[1] == 409) || (st[0] == 409 && st[1] == 201), "answered %d and %d", st[0],
		      st[1]);
	snprintf(sql, sizeof sql,
		 "SELECT 1 / (COUNT(*) = 2)::int FROM games WHERE NOT finished AND status = 'open' "
		 "AND %lld IN (white, black)",
		 (long long)id);
	ck_assert_int_eq(pgtest_sql(n[0].db, sql), 0);
	cluster_close(n);
}
END_TEST

START_TEST(test_shown_only_once_flushed)
{
	/* sync = full: a command commits without waiting for the WAL and is
	 * acknowledged, and shown, once a node's flush covers it. Every
	 * node's flush is held here (a transaction of the test's own locks
	 * their rows of tchess_nodes, which the flush writes) while Black
	 * moves on a; then a spectator polls on b, a node that never had
	 * the game in memory and reads its log with the move in it. The
	 * poll waits for the flush; before, a game read in on a node was
	 * counted durable whole, and the move was shown at once, though no
	 * node had flushed it (a crash of PostgreSQL would have lost it). */
	struct tchessd n[NODES];
	cluster_open_logged(n, "sync = full\n", "info");
	wait_all_alive(n);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "5+3", alice, bob, game);
	/* b: neither a nor the owner (which reads in the games it times). */
	int o = owner_of(game);
	struct tchessd *b = &n[o == 1 ? 2 : 1];
	char *body;
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &body), 200);
	free(body);
	int64_t seq = game_seq(&n[0], game);
	PGconn *hold = hold_rows(n[0].db, "SELECT 1 FROM tchess_nodes FOR UPDATE", NODES);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	int fd = async_post(&n[0], path, bob, "{\"ply\":1,\"move\":\"e5\"}");
	/* Committed (in the database, not flushed). */
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 / (last_seq > %lld)::int FROM games WHERE id = '%s'", (long long)seq, game);
	wait_sql(n[0].db, sql, "the move committed");
	struct poll_req p;
	poll_start(&p, b, game, seq, NULL);
	ck_assert_msg(!poll_run(&p, 500), "b showed a move no node had flushed: %.*s", (int)p.body.len, p.body.data);
	release_rows(hold);
	ck_assert_int_eq(async_status(fd), 200);
	cJSON *mv = poll_answer(&p, "move");
	ck_assert_str_eq(jstr(mv, "san"), "e5");
	cJSON_Delete(mv);
	poll_fini(&p);
	cluster_close(n);
}
END_TEST

START_TEST(test_start_flushes_what_it_read)
{
	/* sync = full: b stops; a's and c's flushes are held (the test
	 * locks their rows of tchess_nodes, which a flush writes) while
	 * Black moves on a: committed, not flushed, its reply held. Then b
	 * starts again and reads the game, the move in it. Before, b took
	 * what it read at start as durable and served it as it was; now b
	 * flushes once (its own row: its flush count rises) before it
	 * serves anything, so the move it shows is on disk even while a
	 * still waits for its own flush. */
	struct tchessd n[NODES];
	cluster_open_logged(n, "sync = full\n", "info");
	wait_all_alive(n);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "5+3", alice, bob, game);
	char *body;
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &body), 200);
	free(body);
	int64_t seq = game_seq(&n[0], game);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&n[1])), 0);
	PGconn *hold = hold_rows(n[0].db, "SELECT 1 FROM tchess_nodes WHERE node IN ('a', 'c') FOR UPDATE", 2);
	PGresult *r = PQexec(hold, "SELECT syncs FROM tchess_nodes WHERE node = 'b'");
	ck_assert_int_eq(PQntuples(r), 1);
	long long syncs = atoll(PQgetvalue(r, 0, 0));
	PQclear(r);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s/moves", game);
	int fd = async_post(&n[0], path, bob, "{\"ply\":1,\"move\":\"e5\"}");
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 / (last_seq > %lld)::int FROM games WHERE id = '%s'", (long long)seq, game);
	wait_sql(n[0].db, sql, "the move committed");
	tchessd_restart(&n[1]);
	/* Listening: b flushed before, after it read the move. */
	snprintf(sql, sizeof sql, "SELECT 1 / (syncs > %lld)::int FROM tchess_nodes WHERE node = 'b'", syncs);
	ck_assert_msg(pgtest_sql(n[0].db, sql) == 0, "b serves what it read at start without a flush");
	ck_assert_int_eq(game_seq(&n[1], game), seq + 1);
	release_rows(hold);
	ck_assert_int_eq(async_status(fd), 200);
	cluster_close(n);
}
END_TEST

/* The URI of the cluster's maintenance database: the ALTER DATABASE of
 * a test's own database runs from there. */
static void maintenance_uri(const char *db, char *out, size_t size)
{
	const char *q = strchr(db, '?');
	snprintf(out, size, "postgresql://postgres@/postgres%s", q ? q : "");
}

static void database_name(const char *db, char *out, size_t size)
{
	const char *at = strstr(db, "@/");
	ck_assert_ptr_nonnull(at);
	snprintf(out, size, "%.*s", (int)strcspn(at + 2, "?"), at + 2);
}

/* The one value sql answers on the database of uri (psql -t -A), into
 * out. */
static void sql_value(const char *uri, const char *sql, char *out, size_t size)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp("psql", "psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", sql, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	size_t got = 0;
	ssize_t n;
	while (got < size - 1 && (n = read(fds[0], out + got, size - 1 - got)) > 0)
		got += (size_t)n;
	close(fds[0]);
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "psql failed: %s", sql);
}

/* cut: every node's channel ended (pg_terminate_backend) while the
 * database takes no new connections, so what they tell meanwhile reaches
 * nobody; !cut: connections allowed again (the channels reopen).
 * first's channel is ended before the others (and gone before they
 * are): a node whose channel outlives another's sees that node leave and
 * takes over its games, reading their logs, which the cases must not
 * let happen on the node they watch. Each backend has exited before
 * this returns: a channel still alive, on a busy machine, would hear
 * the next move's message after all. */
static void channels_cut(const char *db, bool cut, const char *first)
{
	char admin[512], name[128], sql[512], pid[32] = "";
	maintenance_uri(db, admin, sizeof admin);
	database_name(db, name, sizeof name);
	if (cut) {
		snprintf(sql, sizeof sql, "SELECT channel_pid FROM tchess_nodes WHERE node = '%s'", first);
		sql_value(db, sql, pid, sizeof pid);
		ck_assert_msg(pid[0] >= '1' && pid[0] <= '9', "no channel for node %s: '%s'", first, pid);
	}
	snprintf(sql, sizeof sql, "ALTER DATABASE %s ALLOW_CONNECTIONS %s", name, cut ? "false" : "true");
	ck_assert_int_eq(pgtest_sql(admin, sql), 0);
	if (!cut)
		return;
	snprintf(sql, sizeof sql, "SELECT 1 / pg_terminate_backend(%s, 10000)::int", pid);
	ck_assert_int_eq(pgtest_sql(admin, sql), 0);
	snprintf(sql, sizeof sql,
		 "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '%s' AND "
		 "application_name = 'tchessd-channel'",
		 name);
	ck_assert_int_eq(pgtest_sql(admin, sql), 0);
	snprintf(sql, sizeof sql,
		 "SELECT 1 / (count(*) = 0)::int FROM pg_stat_activity WHERE datname = '%s' AND "
		 "application_name = 'tchessd-channel'",
		 name);
	ck_assert_int_eq(pgtest_sql(admin, sql), 0);
}

START_TEST(test_evicted_game_timed_by_its_log)
{
	/* A 10+0 game played on node x, which is not its owner o (the
	 * rendezvous hash of cluster.h), with idle games evicted after a
	 * minute of the test clock. o, which times the game, evicts it when
	 * nobody there looks at it; its record then holds the deadlines of
	 * that moment. Two things must still reach it:
	 * - Black parked on x: the seats x sees bring the game back on o
	 *   (before, o ignored them while the game was out of memory, and
	 *   timed its disconnects by the instants it had);
	 * - a move on x while every channel is down (its message lost):
	 *   when o's channel is back, o reads the evicted games whose log
	 *   moved and flags Black, who had a minute left, at the instant it
	 *   ran out (before, o's record said White's ten minutes); o's log
	 *   says it was o that brought it back, so a change of owners
	 *   while the channels reopen cannot stand in for that. */
	struct tchessd n[NODES];
	cluster_open_logged(n,
			    "test_clock = on\nevict_idle_s = 60\npoll_timeout_ms = 30000\n"
			    "disconnect_grace_ms = 3600000\n",
			    "debug");
	wait_all_alive(n);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "10+0", alice, bob, game);
	int o = owner_of(game);
	struct tchessd *x = &n[(o + 1) % NODES], *own = &n[o];
	static const char *moves[] = { "e4", "e5", "Nf3" };
	char *body;
	for (int ply = 0; ply < 3; ply++) {
		ck_assert_int_eq(move_on(x, game, ply % 2 ? bob : alice, ply, moves[ply], &body), 200);
		free(body);
	}
	/* Black thinks nine minutes, parked on x. */
	struct poll_req p;
	poll_start(&p, x, game, game_seq(x, game), bob);
	poll_wait_parked(&p, x, 1);
	for (int i = 0; i < NODES; i++)
		tchessd_advance(&n[i], 540000);
	char line[128];
	snprintf(line, sizeof line, "game %s: evicted at seq", game);
	wait_log(own, line);
	snprintf(line, sizeof line, "game %s: back in memory", game);
	wait_log(own, line);
	ck_assert_int_eq(move_on(x, game, bob, 3, "Nc6", &body), 200);
	free(body);
	ck_assert(poll_run(&p, 10000));
	poll_fini(&p);
	/* A minute of idleness: out of o's memory again, at this seq. */
	int64_t seq = game_seq(x, game);
	for (int i = 0; i < NODES; i++)
		tchessd_advance(&n[i], 61000);
	snprintf(line, sizeof line, "game %s: evicted at seq %lld,", game, (long long)seq);
	wait_log(own, line);
	/* White's move on x reaches nobody; Black has 60 s left. */
	channels_cut(n[0].db, true, node_names[o]);
	ck_assert_int_eq(move_on(x, game, alice, 4, "Bb5", &body), 200);
	int64_t moved;
	int64_t deadline_ms = answer_t(body, "move", &moved) + 60000;
	free(body);
	channels_cut(n[0].db, false, NULL);
	wait_log(own, "store: the node channel is open again");
	/* o itself brings the game back, from the log that moved past its
	 * record: not a node that took it over (or o reading in its games
	 * again) because the nodes alive looked different while the
	 * channels reopened, which would time it by its log anyway and let
	 * this pass without the fix. */
	wait_log(own, ", 1 evicted ones brought back");
	for (int i = 0; i < NODES; i++)
		tchessd_advance(&n[i], 61000);
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 / finished::int FROM games WHERE id = '%s'", game);
	wait_sql(n[0].db, sql, "Black's flag falling at its instant");
	/* After the move (presence events may have come between it and
	 * seq): the end, whenever x hears of it. */
	poll_start(&p, x, game, moved, NULL);
	cJSON *end = poll_answer(&p, "game-ended");
	poll_fini(&p);
	ck_assert_str_eq(jstr(end, "termination"), "timeout");
	ck_assert_str_eq(jstr(end, "result"), "1-0");
	/* Ended when o's clock had passed the instant: the jump overshoots it
	 * by a second. */
	ck_assert_int_ge(jint(end, "t_ms"), deadline_ms);
	ck_assert_int_lt(jint(end, "t_ms"), deadline_ms + 30000);
	cJSON_Delete(end);
	cluster_close(n);
}
END_TEST

START_TEST(test_channel_terminated)
{
	/* Every node's channel is ended (pg_terminate_backend) while the
	 * database takes no new connections, and a move is made meanwhile:
	 * its message reaches nobody. Once connections are allowed again,
	 * each node opens its channel and catches up its games with their
	 * logs, so the spectator parked on c all along gets the move. */
	struct tchessd n[NODES];
	cluster_open(n, NULL);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 0, 0, "5+3", alice, bob, game);
	int64_t seq = game_seq(&n[2], game);
	struct poll_req p;
	poll_start(&p, &n[2], game, seq, NULL);
	poll_wait_parked(&p, &n[2], 1);

	channels_cut(n[0].db, true, node_names[2]);
	char *body;
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &body), 200);
	free(body);
	/* Nothing told c: its poll stays parked. */
	ck_assert(!poll_run(&p, 300));
	channels_cut(n[0].db, false, NULL);
	cJSON *mv = poll_answer(&p, "move");
	ck_assert_str_eq(jstr(mv, "san"), "e4");
	cJSON_Delete(mv);
	poll_fini(&p);
	/* And the channel works again: the next move reaches c at once. */
	seq = game_seq(&n[2], game);
	poll_start(&p, &n[2], game, seq, NULL);
	poll_wait_parked(&p, &n[2], 1);
	ck_assert_int_eq(move_on(&n[1], game, bob, 1, "e5", &body), 200);
	free(body);
	mv = poll_answer(&p, "move");
	ck_assert_str_eq(jstr(mv, "san"), "e5");
	cJSON_Delete(mv);
	poll_fini(&p);
	cluster_close(n);
}
END_TEST

START_TEST(test_postgresql_crash)
{
	/* PostgreSQL crashes (pg_ctl stop -m immediate) and comes back in the
	 * middle of a game played on two nodes with sync = full. Every node
	 * is then stopped, whatever it made of it (one that finds commits it
	 * had not flushed stops by itself), and started again: every move
	 * any node acknowledged is in every node's log, the seqs have no
	 * hole, and the game goes on on all three. */
	const char *restart = getenv("TCHESS_TEST_PG_RESTART");
	if (!restart) {
		fprintf(stderr, "test_postgresql_crash: no TCHESS_TEST_PG_RESTART (a cluster not started by "
				"with-postgresql); not run\n");
		return;
	}
	struct tchessd n[NODES];
	cluster_open(n, "sync = full");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 1, 1, "5+3", alice, bob, game);
	static const char *moves[] = { "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7" };
	char *body;
	int ply = 0;
	for (; ply < 6; ply++) {
		ck_assert_int_eq(move_on(&n[ply % 2], game, ply % 2 ? bob : alice, ply, moves[ply], &body), 200);
		free(body);
	}
	ck_assert_int_eq(system(restart), 0);
	/* The next move, on c: acknowledged or not (its node may stop, and
	 * then answers nothing: a raw request, which may go unanswered). */
	char req[1024], mv[64];
	int mlen = snprintf(mv, sizeof mv, "{\"ply\":%d,\"move\":\"%s\"}", ply, moves[ply]);
	int rlen = snprintf(req, sizeof req,
			    "POST /v1/games/%s/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
			    "Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			    game, alice, mlen, mv);
	bool acked = raw_request(&n[2], NULL, req, (size_t)rlen, NULL) == 200;
	for (int i = 0; i < NODES; i++) {
		tchessd_stop(&n[i]);
		tchessd_restart(&n[i]);
	}
	/* A move not acknowledged may have been played or not: the retry
	 * (same ply, same move) settles it, on another node. */
	if (!acked) {
		ck_assert_int_eq(move_on(&n[1], game, alice, ply, moves[ply], &body), 200);
		free(body);
	}
	ply++;
	for (; ply < 10; ply++) {
		ck_assert_int_eq(move_on(&n[ply % NODES], game, ply % 2 ? bob : alice, ply, moves[ply], &body), 200);
		free(body);
	}
	int64_t seq = game_seq(&n[0], game);
	for (int i = 0; i < NODES; i++) {
		struct protocol_events evs = log_on(&n[i], game, seq);
		check_contiguous(&evs);
		char got[256];
		moves_of(&evs, got, sizeof got);
		ck_assert_str_eq(got, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7");
		protocol_events_fini(&evs);
	}
	cluster_close(n);
}
END_TEST

/* token's whole log as node d serves it (NULL: a spectator), once it
 * shows seq (as log_on), as "seq type" lines, checked dense: numbered 1,
 * 2, 3... with no gap (issue 12 item 16). */
static void viewer_log(struct tchessd *d, const char *game, const char *token, int64_t seq, char *out, size_t size)
{
	struct protocol_events evs = log_as(d, game, token, seq);
	check_contiguous(&evs);
	ck_assert_int_eq(evs.seq, seq);
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < evs.n; i++)
		len += (size_t)snprintf(out + len, size - len, "%lld %s\n", (long long)evs.events[i].seq,
					evs.events[i].type);
	protocol_events_fini(&evs);
}

START_TEST(test_viewer_numbers_on_nodes)
{
	/* Black queues a premove and writes a note on node b while a
	 * spectator waits on c: c's poll is not answered for them, and
	 * White's move on a answers it numbered on with no gap. Every node
	 * numbers each viewer's events alike. */
	struct tchessd n[NODES];
	cluster_open(n, "sync = full");
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	cluster_game(n, 1, 1, "5+3", alice, bob, game);
	char *body, path[128];
	ck_assert_int_eq(move_on(&n[0], game, alice, 0, "e4", &body), 200);
	free(body);
	ck_assert_int_eq(move_on(&n[1], game, bob, 1, "e5", &body), 200);
	free(body);
	int64_t seq = game_seq(&n[2], game);
	ck_assert_int_eq(seq, 5);
	struct poll_req p;
	poll_start(&p, &n[2], game, seq, NULL);
	poll_wait_parked(&p, &n[2], 1);
	snprintf(path, sizeof path, "/v1/games/%s/premoves", game);
	const char *pm = "{\"ply\":2,\"moves\":[\"b8c6\"]}";
	ck_assert_int_eq(http_call(&n[1], "PUT", path, bob, pm, strlen(pm), &body), 200);
	free(body);
	snprintf(path, sizeof path, "/v1/games/%s/notes", game);
	const char *note = "{\"text\":\"Nc6 next\"}";
	ck_assert_int_eq(http_call(&n[1], "POST", path, bob, note, strlen(note), &body), 201);
	free(body);
	for (int i = 0; i < NODES; i++)
		ck_assert_int_eq(game_seq(&n[i], game), seq);
	ck_assert_msg(!poll_run(&p, 300), "the spectator's poll was answered by Black's private events: %.*s",
		      (int)p.body.len, p.body.data);
	ck_assert_int_eq(move_on(&n[0], game, alice, 2, "Nf3", &body), 200);
	free(body);
	cJSON *mv = poll_answer(&p, "move");
	ck_assert_str_eq(jstr(mv, "san"), "Nf3");
	ck_assert_int_eq(jint(mv, "seq"), seq + 1);
	cJSON_Delete(mv);
	poll_fini(&p);
	/* Nf3 and Black's premove Nc6: 7 to everyone, 9 to Black. */
	static char want[3][1024], got[1024];
	const char *tokens[3] = { NULL, alice, bob };
	const int64_t last[3] = { 7, 7, 9 };
	for (int v = 0; v < 3; v++)
		viewer_log(&n[0], game, tokens[v], last[v], want[v], sizeof want[v]);
	ck_assert_str_eq(want[0], want[1]);
	for (int i = 1; i < NODES; i++) {
		for (int v = 0; v < 3; v++) {
			viewer_log(&n[i], game, tokens[v], last[v], got, sizeof got);
			ck_assert_str_eq(got, want[v]);
		}
	}
	cluster_close(n);
}
END_TEST

START_TEST(test_left_killed_on_other_node)
{
	/* Issue 14 item 8 on several nodes: alice's tchess, its poll parked
	 * on a node x that does not own the game, is killed (-9). x sees the
	 * socket closed within a second and stops telling the others she is
	 * seen (every 2 s while her poll is parked there); the owner tells
	 * bob, whose poll is parked on the third node y (told seen from
	 * there), that she left after the quiet (half the 6 s grace),
	 * records her gone at the grace, and bob claims the win. Before, her
	 * poll stayed parked on x until its timeout (20 s here), and x told
	 * the owner she was there all that time; and the owner wrote no left
	 * event for an opponent whose poll was parked on another node. */
	struct tchessd n[NODES];
	cluster_open_logged(n, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 6000\n", "info");
	wait_all_alive(n);
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], game[PROTOCOL_GAME_ID_MAX + 1];
	register_player(&n[0], "alice", alice);
	register_player(&n[1], "bob", bob);
	create_game_with(&n[0], alice, "{\"tc\":\"5+3\",\"color\":\"white\",\"ruleset\":\"chessgamble\"}", game);
	join_game(&n[1], game, bob);
	int o = owner_of(game), x = (o + 1) % NODES, y = (o + 2) % NODES;
	char *body;
	ck_assert_int_eq(move_on(&n[o], game, alice, 0, "e4", &body), 200);
	free(body);
	ck_assert_int_eq(move_on(&n[o], game, bob, 1, "e5", &body), 200);
	free(body);
	int64_t seq = game_seq(&n[o], game);
	pid_t child = raw_park_child(&n[x], game, seq, alice);
	struct poll_req pb;
	poll_start(&pb, &n[y], game, seq, bob);
	poll_wait_parked(&pb, &n[y], 1);
	ck_assert_int_eq(kill(child, SIGKILL), 0);
	ck_assert_int_eq(waitpid(child, NULL, 0), child);
	int64_t killed = mono_ms();
	int64_t ended = wait_parked_at_most(&n[x], 0);
	ck_assert_msg(ended < 2500, "her poll on node x ended %lld ms after the kill", (long long)ended);
	cJSON *left = poll_answer(&pb, "left");
	int64_t told = mono_ms() - killed;
	ck_assert_msg(told < 9000, "bob was told %lld ms after the kill", (long long)told);
	ck_assert_str_eq(jstr(left, "color"), "white");
	ck_assert_int_eq(jint(left, "claim_ms"), jint(left, "gone_ms"));
	seq = jint(left, "seq");
	cJSON_Delete(left);
	poll_fini(&pb);
	poll_start(&pb, &n[y], game, seq, bob);
	cJSON *gone = poll_answer(&pb, "presence");
	ck_assert_str_eq(jstr(gone, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(gone, "present")));
	cJSON_Delete(gone);
	poll_fini(&pb);
	ck_assert_int_eq(seat_command(&n[o], "POST", game, "claim", bob, "{\"ply\":2,\"claim\":\"win\"}"), 200);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", game);
	cJSON *snap = get_json(&n[x], path);
	ck_assert_str_eq(jstr(snap, "result"), "0-1");
	ck_assert_str_eq(jstr(snap, "reason"), "abandoned");
	cJSON_Delete(snap);
	cluster_close(n);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_moves_on_two_nodes_spectator_on_third,
		test_same_ply_on_two_nodes,
		test_flag_after_kill,
		test_channel_terminated,
		test_postgresql_crash,
		test_limits_across_nodes,
		test_tournament_on_two_nodes,
		test_open_games_on_two_nodes,
		test_evicted_game_timed_by_its_log,
		test_shown_only_once_flushed,
		test_start_flushes_what_it_read,
		test_viewer_numbers_on_nodes,
		test_left_killed_on_other_node,
	};
	return harness_main_postgresql("cluster", 90, tests, sizeof tests / sizeof tests[0]);
}
