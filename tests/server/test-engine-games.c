/*
 * Integration tests of engine seats in tchessd: games against Debian's
 * stockfish through the HTTP API of the real binary. The engine answers
 * through the same path as a human move (events, clocks, the human's
 * premoves); it moves first when it has White; a game that ends withdraws
 * its request; a killed engine process is replaced and the game goes on; a
 * restarted tchessd asks again for the move it owed; a broken engine ends
 * the game as an unscored technical failure with the reason, never with a
 * made-up move; engine games are capped per player and in all; an engine
 * waiting in the pool's queue is not charged for the wait (a scripted UCI
 * engine holds the one engine process). Every wait is a long-poll for an
 * event with a deadline.
 *
 * The stockfish cases skip with a message when /usr/games/stockfish (or
 * stockfish on PATH) is missing; the broken engine is a shell script.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tchess/fold.h"
#include "tchess/movegen.h"
#include "tchess/protocol.h"

/* Long-polls come back after this long with nothing, so a test that waits
 * for "no more events" waits exactly one poll. */
#define POLL_MS 2500
/* Generous: a stockfish start-up on a loaded 2-core machine took 1.4 s. */
#define DEADLINE_MS 20000

struct eg {
	struct tchessd d;
	char token[PROTOCOL_TOKEN_MAX + 1];
	char game[PROTOCOL_GAME_ID_MAX + 1];
	int64_t seen; /* events after this seq not yet read */
};

/* Whether stockfish is there; says the test is skipped if not. */
static bool have_stockfish(const char *test)
{
	if (access("/usr/games/stockfish", X_OK) == 0 || system("command -v stockfish >/dev/null 2>&1") == 0)
		return true;
	fprintf(stderr, "skipped %s: stockfish is not installed\n", test);
	return false;
}

#define NEED_STOCKFISH()                    \
	do {                                \
		if (!have_stockfish(__func__)) \
			return;             \
	} while (0)

/* Starts tchessd with extra config lines and creates a game against the
 * engine: the human plays color, the engine level. */
static void eg_open(struct eg *g, const char *config, const char *color, int level)
{
	char conf[512], req[160];
	snprintf(conf, sizeof conf, "poll_timeout_ms = %d\nengine_processes = 1\n%s", POLL_MS, config);
	tchessd_start(&g->d, conf);
	register_player(&g->d, "ann", g->token);
	snprintf(req, sizeof req, "{\"tc\":\"5+0\",\"color\":\"%s\",\"opponent\":\"engine\",\"level\":%d}", color,
		 level);
	create_game_with(&g->d, g->token, req, g->game);
	g->seen = 0;
}

static void eg_close(struct eg *g)
{
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&g->d)), 0);
	tchessd_cleanup(&g->d);
}

/* One long-poll for the events after g->seen (empty after POLL_MS). */
static void poll_events(struct eg *g, struct protocol_events *evs)
{
	char path[160], *out;
	struct protocol_error err;
	snprintf(path, sizeof path, "/v1/games/%s/events?after=%lld", g->game, (long long)g->seen);
	long status = http_call(&g->d, "GET", path, g->token, NULL, 0, &out);
	ck_assert_msg(status == 200, "events: %ld %s", status, out);
	ck_assert_msg(protocol_events_decode(out, strlen(out), evs, &err) == 0, "%s", err.message);
	free(out);
}

static void decode(const struct protocol_event *ev, struct fold_event *fe)
{
	struct protocol_error err;
	ck_assert_msg(fold_event_decode(ev->type, ev->data, fe, &err) == 0, "%s: %s", ev->type, err.message);
}

/* Reads events until one of type arrives (for "move": the move of ply),
 * failing on a game-ended that was not asked for or at the deadline. */
static void wait_event(struct eg *g, const char *type, int64_t ply, struct fold_event *out)
{
	int64_t deadline = mono_ms() + DEADLINE_MS;
	for (;;) {
		ck_assert_msg(mono_ms() < deadline, "no %s (ply %lld) within %d ms", type, (long long)ply,
			      DEADLINE_MS);
		struct protocol_events evs;
		poll_events(g, &evs);
		for (size_t i = 0; i < evs.n; i++) {
			struct fold_event fe;
			decode(&evs.events[i], &fe);
			g->seen = evs.events[i].seq;
			bool match = !strcmp(evs.events[i].type, type) && (strcmp(type, "move") || fe.ply == ply);
			if (match) {
				*out = fe;
				protocol_events_fini(&evs);
				return;
			}
			ck_assert_msg(strcmp(evs.events[i].type, "game-ended"),
				      "the game ended (%s, %s: %s) while waiting for %s", fe.result, fe.termination,
				      fe.reason, type);
		}
		protocol_events_fini(&evs);
	}
}

static long move_cmd(struct eg *g, int64_t ply, const char *text)
{
	char path[160], body[96], *out;
	snprintf(path, sizeof path, "/v1/games/%s/moves", g->game);
	snprintf(body, sizeof body, "{\"ply\":%lld,\"move\":\"%s\"}", (long long)ply, text);
	long status = http_call(&g->d, "POST", path, g->token, body, strlen(body), &out);
	if (status != 200)
		fprintf(stderr, "move %s at ply %lld: %ld %s\n", text, (long long)ply, status, out);
	free(out);
	return status;
}

/* The game's position, as a client folds it. */
static void current(struct eg *g, struct game_view *v)
{
	fold_game(&g->d, g->game, g->token, v);
}

/* A sensible developing move for White if one is legal (so the engine has
 * no quick mate to find), else the first legal move. */
static void pick_move(const struct game_view *v, char *uci)
{
	static const char *const plan[] = { "e2e4", "d2d4", "g1f3", "b1c3", "f1e2", "e1g1", "c1e3", "h2h3" };
	struct move_list l;
	movegen_legal(&v->game.pos, &l);
	ck_assert_int_gt(l.count, 0);
	for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
		move m;
		if (uci_parse(&v->game.pos, plan[i], strlen(plan[i]), &m, NULL) == TCHESS_OK) {
			strcpy(uci, plan[i]);
			return;
		}
	}
	uci_write(&v->game.pos, l.moves[0], uci);
}

/* The pid of tchessd's stockfish child (engine_processes = 1), 0 if none:
 * a /proc scan for a process whose parent is tchessd. */
static pid_t engine_child(pid_t parent)
{
	DIR *dir = opendir("/proc");
	ck_assert_ptr_nonnull(dir);
	pid_t found = 0;
	struct dirent *de;
	while (!found && (de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char path[300], line[512];
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t n = fread(line, 1, sizeof line - 1, f);
		fclose(f);
		line[n] = '\0';
		/* "pid (comm) state ppid ...": comm may hold spaces. */
		char *close = strrchr(line, ')');
		char *open = strchr(line, '(');
		int ppid;
		char state;
		if (!open || !close || sscanf(close + 1, " %c %d", &state, &ppid) != 2)
			continue;
		*close = '\0';
		if (ppid == parent && strstr(open + 1, "stockfish") && state != 'Z')
			found = (pid_t)atoi(de->d_name);
	}
	closedir(dir);
	return found;
}

/* Field 19 of /proc/PID/stat: the process's nice value. */
static int nice_of(pid_t pid)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = '\0';
	char *p = strrchr(line, ')');
	ck_assert_ptr_nonnull(p);
	int field = 2, value = 0;
	for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " "))
		if (++field == 19)
			value = atoi(tok);
	return value;
}

START_TEST(test_engine_niced)
{
	/* The engines search below tchessd: on a busy machine the players'
	 * requests are answered before an engine's search runs (tchessd(8),
	 * engine_nice, 10 by default); engine_nice = 0 keeps tchessd's. */
	NEED_STOCKFISH();
	static const char *const conf[] = { "", "engine_nice = 0\n", "engine_nice = 3\n" };
	static const int added[] = { 10, 0, 3 };
	for (int i = 0; i < 3; i++) {
		struct eg g;
		eg_open(&g, conf[i], "white", 1);
		pid_t e = engine_child(g.d.pid);
		ck_assert_int_gt(e, 0);
		int want = nice_of(g.d.pid) + added[i];
		ck_assert_int_eq(nice_of(e), want > 19 ? 19 : want);
		eg_close(&g);
	}
}
END_TEST

START_TEST(test_engine_reply_five_moves)
{
	/* The issue: "a game can seat a UCI engine (Debian stockfish) as the
	 * opponent, at levels 1-8 ..., moving through the same path as a
	 * human". Five moves each way against level 1. */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "white", 1);
	for (int i = 0; i < 5; i++) {
		struct game_view v;
		char uci[UCI_MAX];
		current(&g, &v);
		ck_assert_uint_eq(v.game.n_plies, (size_t)2 * i);
		pick_move(&v, uci);
		fold_view_fini(&v);
		ck_assert_int_eq(move_cmd(&g, 2 * i, uci), 200);
		struct fold_event fe;
		wait_event(&g, "move", 2 * i + 1, &fe);
		ck_assert_int_eq(fe.color, BLACK);
		ck_assert(!fe.premove);
		ck_assert(fe.has_clock);
		ck_assert_int_eq(fe.clock.running, WHITE);
	}
	struct game_view v;
	current(&g, &v);
	ck_assert_uint_eq(v.game.n_plies, 10);
	ck_assert(fold_running(&v));
	ck_assert_int_eq(v.seats[BLACK].kind, FOLD_SEAT_ENGINE);
	ck_assert_int_eq(v.seats[BLACK].level, 1);
	fold_view_fini(&v);
	eg_close(&g);
}
END_TEST

START_TEST(test_engine_white_moves_first)
{
	/* The engine with White moves right after game-started, with no
	 * human move; its thinking time is charged to its own clock. */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "black", 2);
	struct fold_event fe;
	wait_event(&g, "move", 0, &fe);
	ck_assert_int_eq(fe.color, WHITE);
	ck_assert_int_gt(fe.think_ms, 0);
	/* 5+0: no increment, so White's clock lost exactly the think time. */
	ck_assert_int_eq(fe.clock.ms[WHITE], 300000 - fe.think_ms);
	ck_assert_int_eq(fe.clock.ms[BLACK], 300000);
	ck_assert_int_eq(fe.clock.running, BLACK);
	/* And the human's reply gets the engine's next move. */
	struct game_view v;
	current(&g, &v);
	struct move_list l;
	movegen_legal(&v.game.pos, &l);
	char uci[UCI_MAX];
	uci_write(&v.game.pos, l.moves[0], uci);
	fold_view_fini(&v);
	ck_assert_int_eq(move_cmd(&g, 1, uci), 200);
	wait_event(&g, "move", 2, &fe);
	ck_assert_int_eq(fe.color, WHITE);
	eg_close(&g);
}
END_TEST

START_TEST(test_premove_against_engine)
{
	/* DESIGN.md: a premove is "played in the same transaction with zero
	 * thinking time" when the opponent's move commits -- the engine's
	 * move included. Level 8 thinks a second, time to queue it. */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "white", 8);
	ck_assert_int_eq(move_cmd(&g, 0, "e2e4"), 200);
	char path[160], *out;
	const char *pm = "{\"ply\":1,\"moves\":[\"g1f3\"]}";
	snprintf(path, sizeof path, "/v1/games/%s/premoves", g.game);
	long status = http_call(&g.d, "PUT", path, g.token, pm, strlen(pm), &out);
	ck_assert_msg(status == 200, "premoves: %ld %s", status, out);
	free(out);
	struct fold_event fe;
	wait_event(&g, "move", 1, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	ck_assert(!fe.premove);
	wait_event(&g, "move", 2, &fe);
	ck_assert_str_eq(fe.uci, "g1f3");
	ck_assert(fe.premove);
	ck_assert_int_eq(fe.think_ms, 0);
	/* The engine is asked again after the premove. */
	wait_event(&g, "move", 3, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	eg_close(&g);
}
END_TEST

START_TEST(test_resign_withdraws_request)
{
	/* A game that ends while the engine thinks gets no engine move
	 * afterwards: the request is withdrawn. */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "white", 8);
	ck_assert_int_eq(move_cmd(&g, 0, "d2d4"), 200);
	char path[160], *out;
	snprintf(path, sizeof path, "/v1/games/%s/resign", g.game);
	long status = http_call(&g.d, "POST", path, g.token, "{}", 2, &out);
	ck_assert_msg(status == 200, "resign: %ld %s", status, out);
	free(out);
	struct fold_event fe;
	wait_event(&g, "game-ended", 0, &fe);
	ck_assert_str_eq(fe.termination, "resignation");
	ck_assert_str_eq(fe.result, "0-1");
	/* Level 8 searches 1000 ms; one empty poll (2500 ms) covers any
	 * answer that could still come. */
	struct protocol_events evs;
	poll_events(&g, &evs);
	ck_assert_msg(evs.n == 0, "event %s after the end", evs.n ? evs.events[0].type : "");
	protocol_events_fini(&evs);
	struct game_view v;
	current(&g, &v);
	ck_assert_uint_eq(v.game.n_plies, 1);
	fold_view_fini(&v);
	eg_close(&g);
}
END_TEST

START_TEST(test_engine_killed)
{
	/* The reliability issue: "Engine process crash during an engine game:
	 * the server notices, restarts or replaces it, the game goes on." */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "white", 8);
	pid_t first = engine_child(g.d.pid);
	ck_assert_msg(first > 0, "no stockfish child of tchessd %d", (int)g.d.pid);
	ck_assert_int_eq(move_cmd(&g, 0, "e2e4"), 200);
	/* Mid-search, most likely: level 8 thinks for a second. */
	ck_assert_int_eq(kill(first, SIGKILL), 0);
	struct fold_event fe;
	wait_event(&g, "move", 1, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	pid_t second = engine_child(g.d.pid);
	ck_assert_msg(second > 0 && second != first, "engine pid %d after killing %d", (int)second, (int)first);
	/* And the next move comes from the new process. */
	struct game_view v;
	char uci[UCI_MAX];
	current(&g, &v);
	pick_move(&v, uci);
	fold_view_fini(&v);
	ck_assert_int_eq(move_cmd(&g, 2, uci), 200);
	wait_event(&g, "move", 3, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	eg_close(&g);
}
END_TEST

START_TEST(test_restart_engine_to_move)
{
	/* tchessd killed (-9) while its engine thinks: after the restart the
	 * game is rebuilt and the engine is asked again (issue 4: "on start,
	 * every unfinished game is rebuilt from its stored events"). */
	NEED_STOCKFISH();
	struct eg g;
	eg_open(&g, "", "white", 8);
	ck_assert_int_eq(move_cmd(&g, 0, "e2e4"), 200);
	ck_assert_int_eq(kill(g.d.pid, SIGKILL), 0);
	int st;
	ck_assert_int_eq(waitpid(g.d.pid, &st, 0), g.d.pid);
	tchessd_restart(&g.d);
	struct fold_event fe;
	wait_event(&g, "move", 1, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	/* SIGTERM while the engine thinks: the request is withdrawn, the
	 * server exits 0, and the next start asks again. */
	struct game_view v;
	char uci[UCI_MAX];
	current(&g, &v);
	ck_assert_uint_eq(v.game.n_plies, 2);
	ck_assert(fold_running(&v));
	pick_move(&v, uci);
	fold_view_fini(&v);
	ck_assert_int_eq(move_cmd(&g, 2, uci), 200);
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&g.d)), 0);
	tchessd_restart(&g.d);
	wait_event(&g, "move", 3, &fe);
	ck_assert_int_eq(fe.color, BLACK);
	eg_close(&g);
}
END_TEST

START_TEST(test_broken_engine)
{
	/* Issue 4: "the bundled engine seat never silently falls back to
	 * something else". An engine that shakes hands and dies on "go"
	 * ends the game as an unscored technical failure, with the reason,
	 * and no move is played for it. */
	char dir[] = "/tmp/tchess-fake-engine-XXXXXX", script[96], conf[160];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(script, sizeof script, "%s/fake-uci", dir);
	FILE *f = fopen(script, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\n"
	      "while read -r line; do\n"
	      "  case \"$line\" in\n"
	      "    uci) echo 'id name fake'; echo uciok ;;\n"
	      "    isready) echo readyok ;;\n"
	      "    go*) exit 3 ;;\n"
	      "    quit) exit 0 ;;\n"
	      "  esac\n"
	      "done\n",
	      f);
	fclose(f);
	ck_assert_int_eq(chmod(script, 0755), 0);
	snprintf(conf, sizeof conf, "engine = %s", script);
	struct eg g;
	eg_open(&g, conf, "white", 4);
	ck_assert_int_eq(move_cmd(&g, 0, "e2e4"), 200);
	struct fold_event fe;
	wait_event(&g, "game-ended", 0, &fe);
	ck_assert_str_eq(fe.termination, "technical-failure");
	ck_assert_str_eq(fe.result, "*");
	ck_assert_int_eq(fe.color, -1);
	ck_assert_msg(strstr(fe.reason, "engine") && strstr(fe.reason, "status 3"), "reason: %s", fe.reason);
	struct game_view v;
	current(&g, &v);
	ck_assert_uint_eq(v.game.n_plies, 1);
	ck_assert_str_eq(fold_status(&v), "over");
	fold_view_fini(&v);
	/* The end is final: a late human move is refused. */
	ck_assert_int_eq(move_cmd(&g, 1, "e7e5"), 409);
	eg_close(&g);
	unlink(script);
	rmdir(dir);
}
END_TEST

/* A scripted UCI engine in dir: plays e2e4 (e7e5 after 1.e4), at once, except at Skill Level
 * 20 (level 8), where it holds its answer until the pool says "stop" (the
 * pool's deadline: movetime + margin), so the pool's one engine stays busy
 * for a known while. Fills script. */
static void scripted_engine(char *dir, char *script, size_t size)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(script, size, "%s/scripted-uci", dir);
	FILE *f = fopen(script, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\n"
	      "hold=0\n"
	      "while read -r line; do\n"
	      "  case \"$line\" in\n"
	      "    uci) echo 'id name scripted'; echo uciok ;;\n"
	      "    isready) echo readyok ;;\n"
	      "    'setoption name Skill Level value 20') hold=1 ;;\n"
	      "    'setoption name Skill Level value'*) hold=0 ;;\n"
	      "    'position '*' moves e2e4') mv=e7e5 ;;\n"
	      "    position*) mv=e2e4 ;;\n"
	      "    go*) if [ $hold = 1 ]; then read -r line; fi; echo \"bestmove $mv\" ;;\n"
	      "    quit) exit 0 ;;\n"
	      "  esac\n"
	      "done\n",
	      f);
	fclose(f);
	ck_assert_int_eq(chmod(script, 0755), 0);
}

static void scripted_engine_remove(char *dir, const char *script)
{
	unlink(script);
	rmdir(dir);
}

/* POST /v1/games against the engine: the status, and the error's name in
 * code (or the game's id in game for a 201). */
static long create_engine_game(struct eg *g, const char *color, int level, char *code, size_t size)
{
	char req[160], *out;
	snprintf(req, sizeof req, "{\"tc\":\"5+0\",\"color\":\"%s\",\"opponent\":\"engine\",\"level\":%d}", color, level);
	long status = http_call(&g->d, "POST", "/v1/games", g->token, req, strlen(req), &out);
	const char *key = status == 201 ? "\"id\":\"" : "\"error\":\"";
	const char *p = strstr(out, key);
	ck_assert_msg(p, "no %s in %s", key, out);
	p += strlen(key);
	snprintf(code, size, "%.*s", (int)strcspn(p, "\""), p);
	if (status != 201)
		fprintf(stderr, "create: %ld %s\n", status, out);
	free(out);
	return status;
}

START_TEST(test_engine_game_caps)
{
	/* Issue 12 item 3: engine games are capped per player (429) and in
	 * all (503), each answer saying which limit; a finished game frees
	 * its place. */
	char dir[] = "/tmp/tchess-scripted-engine-XXXXXX", script[96], conf[256], code[64];
	scripted_engine(dir, script, sizeof script);
	snprintf(conf, sizeof conf,
		 "poll_timeout_ms = %d\nengine_processes = 1\nengine = %s\nengine_games = 3\n"
		 "engine_games_per_player = 2\n",
		 POLL_MS, script);
	struct eg ann, bob;
	tchessd_start(&ann.d, conf);
	register_player(&ann.d, "ann", ann.token);
	bob.d = ann.d;
	register_player(&bob.d, "bob", bob.token);
	char first[PROTOCOL_GAME_ID_MAX + 1];
	ck_assert_int_eq(create_engine_game(&ann, "white", 1, first, sizeof first), 201);
	ck_assert_int_eq(create_engine_game(&ann, "white", 1, code, sizeof code), 201);
	ck_assert_int_eq(create_engine_game(&ann, "white", 1, code, sizeof code), 429);
	ck_assert_str_eq(code, "rate_limited");
	ck_assert_int_eq(create_engine_game(&bob, "white", 1, code, sizeof code), 201);
	ck_assert_int_eq(create_engine_game(&bob, "white", 1, code, sizeof code), 503);
	ck_assert_str_eq(code, "unavailable");
	/* The refusals created nothing: ann's first game ends, and one more
	 * fits again. */
	char path[160], *out;
	snprintf(path, sizeof path, "/v1/games/%s/resign", first);
	ck_assert_int_eq(http_call(&ann.d, "POST", path, ann.token, "{}", 2, &out), 200);
	free(out);
	ck_assert_int_eq(create_engine_game(&bob, "white", 1, code, sizeof code), 201);
	ck_assert_int_eq(create_engine_game(&ann, "white", 1, code, sizeof code), 503);
	eg_close(&ann);
	scripted_engine_remove(dir, script);
}
END_TEST

START_TEST(test_engine_games_default)
{
	/* Issue 12 item 3 at full scale: with 32 engine games on two engines
	 * a player's engine waited 15 s in the queue (tchess-engine-attack).
	 * By default the limit is 4 games per engine process, so no engine
	 * waits much more than 4 level-8 searches: here one process, so the
	 * fifth unfinished engine game is refused (503, naming engine_games). */
	char dir[] = "/tmp/tchess-scripted-engine-XXXXXX", script[96], conf[256], code[64];
	scripted_engine(dir, script, sizeof script);
	snprintf(conf, sizeof conf, "poll_timeout_ms = %d\nengine_processes = 1\nengine = %s\n", POLL_MS, script);
	struct eg ann, bob;
	tchessd_start(&ann.d, conf);
	register_player(&ann.d, "ann", ann.token);
	bob.d = ann.d;
	register_player(&bob.d, "bob", bob.token);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(create_engine_game(&ann, "white", 1, code, sizeof code), 201);
	ck_assert_int_eq(create_engine_game(&bob, "white", 1, code, sizeof code), 201);
	ck_assert_int_eq(create_engine_game(&bob, "white", 1, code, sizeof code), 503);
	ck_assert_str_eq(code, "unavailable");
	eg_close(&ann);
	scripted_engine_remove(dir, script);
}
END_TEST

START_TEST(test_engine_queue_not_charged)
{
	/* Issue 12 item 3: "another player's engine waited 10.5 s for its
	 * first move, charged to the engine's clock". One engine process; a
	 * level-8 game holds it for its whole deadline (3 s); a 1-second
	 * game's engine waits in the queue meanwhile. Its flag must not fall
	 * while it waits, and its move must be charged only the search. */
	char dir[] = "/tmp/tchess-scripted-engine-XXXXXX", script[96], conf[256];
	scripted_engine(dir, script, sizeof script);
	snprintf(conf, sizeof conf, "poll_timeout_ms = %d\nengine_processes = 1\nengine = %s\n", POLL_MS, script);
	struct eg a, b;
	tchessd_start(&a.d, conf);
	register_player(&a.d, "ann", a.token);
	b.d = a.d;
	register_player(&b.d, "bob", b.token);
	a.seen = b.seen = 0;
	create_game_with(&a.d, a.token, "{\"tc\":\"5+0\",\"color\":\"black\",\"opponent\":\"engine\",\"level\":8}", a.game);
	int64_t asked = mono_ms();
	create_game_with(&b.d, b.token, "{\"tc\":\"1s+0\",\"color\":\"white\",\"opponent\":\"engine\",\"level\":1}", b.game);
	/* Black's clock runs from White's first move: b's engine is asked,
	 * and waits behind a's (the queue is FIFO). */
	ck_assert_int_eq(move_cmd(&b, 0, "e2e4"), 200);
	struct fold_event fe;
	wait_event(&a, "move", 0, &fe);
	ck_assert_msg(mono_ms() - asked >= 2000, "the level-8 search was not held: %lld ms",
		      (long long)(mono_ms() - asked));
	wait_event(&b, "move", 1, &fe);
	ck_assert_str_eq(fe.uci, "e7e5");
	struct game_view v;
	current(&b, &v);
	ck_assert_str_ne(fold_status(&v), "over");
	/* Black (the engine) was charged its search, not the ~3 s queue. */
	ck_assert_msg(v.clock.remaining_ms[BLACK] > 500, "engine charged %lld ms of its 1000",
		      (long long)(1000 - v.clock.remaining_ms[BLACK]));
	fold_view_fini(&v);
	eg_close(&a);
	scripted_engine_remove(dir, script);
}
END_TEST

static Suite *engine_games_suite(void)
{
	Suite *s = suite_create("tchessd engine games");
	TCase *tc = tcase_create("engine games");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, test_engine_reply_five_moves);
	tcase_add_test(tc, test_engine_white_moves_first);
	tcase_add_test(tc, test_premove_against_engine);
	tcase_add_test(tc, test_resign_withdraws_request);
	tcase_add_test(tc, test_engine_killed);
	tcase_add_test(tc, test_restart_engine_to_move);
	tcase_add_test(tc, test_broken_engine);
	tcase_add_test(tc, test_engine_game_caps);
	tcase_add_test(tc, test_engine_games_default);
	tcase_add_test(tc, test_engine_queue_not_charged);
	tcase_add_test(tc, test_engine_niced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(engine_games_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
