/*
 * "tchess games": the live games, the player's own marked with whose move
 * it is and a correspondence game's deadline, and with --finished the
 * player's finished games, newest first. One-shot requests on the server
 * cmd-net.c finds (client_connect).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "route.h"
#include "cmd-net.h"
#include "commands.h"
#include "corr.h"
#include "home.h"
#include "net.h"
#include "tchess/protocol-answers.h"
#include "tchess/protocol.h"
#include "util/xalloc.h"

/* The mark of one of the player's games in "tchess games": its players
 * and time control, whose move, and the deadline of a correspondence
 * game. */
static void cmd_games_mark(const struct protocol_my_game *g, int64_t now_ms, char *buf, size_t size)
{
	char due[CORR_TEXT_MAX] = "";
	if (g->deadline_ms != INT64_MAX && corr_tc_is_correspondence(g->tc))
		corr_deadline_text(g->deadline_ms, now_ms, 40, due, sizeof due);
	snprintf(buf, size, "%-5.8s vs %-16.24s %-9.40s %s%s%s", g->color,
	         g->opponent_name[0]          ? g->opponent_name
	         : !strcmp(g->status, "open") ? "(waiting)"
	                                      : "engine",
	         g->tc, g->your_move ? "* your move" : "(yours)", due[0] ? "  " : "", due);
}

/* tchess games --finished: the player's finished games, newest first,
 * one page of them (GET /v1/me/games/finished). */
#define GAMES_FINISHED_LISTED 50
static int cmd_games_finished(struct client_conn *c)
{
	if (!c->have_account) {
		fprintf(stderr, "tchess games: no account on this server: tchess register NAME first\n");
		return 1;
	}
	char path[128], q[32], *resp = NULL, err[512];
	size_t len = 0;
	snprintf(q, sizeof q, "limit=%d", GAMES_FINISHED_LISTED);
	const char *method = route_request(path, sizeof path, ROUTE_ME_GAMES_FINISHED, NULL, q);
	if (client_call(c, method, path, NULL, 200, "tchess games", NULL, &resp, &len) < 0)
		return 1;
	struct protocol_finished_games f;
	if (protocol_finished_games_decode(resp, len, &f, err, sizeof err) < 0) {
		fprintf(stderr, "tchess games: %s\n", err);
		free(resp);
		return 1;
	}
	free(resp);
	int64_t now = (int64_t)time(NULL) * 1000;
	printf("%-32s  %-12s  %-6s  %-5s  %-24s  %-9s  %-5s  %s\n", "GAME", "ENDED", "RESULT", "YOU", "OPPONENT",
	       "TIME", "MOVES", "HOW");
	for (size_t i = 0; i < f.n; i++) {
		const struct protocol_finished_game *g = &f.games[i];
		char date[32], who[PROTOCOL_NAME_MAX + 24];
		home_recent_date(g->ended_ms, now, date, sizeof date);
		if (g->opponent.player)
			snprintf(who, sizeof who, "%s", g->opponent.name);
		else
			snprintf(who, sizeof who, "engine level %lld", (long long)g->engine_level);
		printf("%-32s  %-12s  %-6s  %-5s  %-24s  %-9s  %-5lld  %s %s\n", g->id, date, home_recent_outcome(g),
		       g->color, who, g->tc[0] ? g->tc : "-", (long long)(g->plies + 1) / 2, g->result, g->termination);
	}
	if (f.next[0])
		printf("(the %d most recent; older ones are not listed here)\n", GAMES_FINISHED_LISTED);
	protocol_finished_games_fini(&f);
	return 0;
}

int cmd_games(int argc, char **argv)
{
	struct client_opts o = {.ascii = -1};
	bool finished = false;
	/* --finished is this command's own; the rest are every command's. */
	char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
	int nrest = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--finished"))
			finished = true;
		else
			rest[nrest++] = argv[i];
	}
	int args = client_args(&o, nrest, rest, NULL, "usage: tchess games [--finished] [--server URL]");
	free(rest);
	if (args < 0)
		return 2;
	struct client_conn c;
	if (client_connect(&c, o.server, false) < 0)
		return 1;
	if (finished) {
		int frc = cmd_games_finished(&c);
		client_disconnect(&c);
		return frc;
	}
	char err[512], *resp = NULL, mark[320];
	size_t len = 0, n = 0;
	struct protocol_game_summary *games = NULL;
	struct protocol_error perr;
	struct protocol_my_games mine = {0};
	int rc = 1;
	/* The player's own games, with whose move it is and the deadlines,
	 * in one request (GET /v1/me/games) rather than a fold per game. */
	if (c.have_account) {
		if (client_call(&c, route_method(ROUTE_ME_GAMES), route_fixed(ROUTE_ME_GAMES), NULL, 200,
		                "tchess games", NULL, &resp, &len) < 0)
			goto out;
		if (protocol_my_games_decode(resp, len, &mine, err, sizeof err) < 0) {
			client_print_refusal("tchess games", 200, resp, len);
			goto out;
		}
		free(resp);
		resp = NULL;
	}
	int status = net_request(c.net, route_method(ROUTE_GAMES_LIST), route_fixed(ROUTE_GAMES_LIST), NULL, &resp,
	                         &len, err, sizeof err);
	if (status < 0) {
		fprintf(stderr, "tchess games: %s\n", err);
		goto out;
	}
	if (status != 200 || protocol_game_list_decode(resp, len, &games, &n, &perr) < 0) {
		fprintf(stderr, "tchess games: unexpected answer (HTTP %d)\n", status);
		goto out;
	}
	printf("%-32s  %-8s  %-6s  %s\n", "GAME", "STATUS", "MOVE",
	       "YOURS: COLOUR, OPPONENT, TIME CONTROL, WHOSE MOVE; OTHERS: PLAYERS, TIME CONTROL, RULES, WHOSE MOVE");
	for (size_t i = 0; i < n; i++) {
		const struct protocol_game_summary *g = &games[i];
		if (!strcmp(g->status, "over"))
			continue;
		const struct protocol_my_game *m = corr_my_games_find(&mine, g->id);
		char moveno[24] = "-";
		mark[0] = '\0';
		if (m) {
			cmd_games_mark(m, mine.now_ms, mark, sizeof mark);
			snprintf(moveno, sizeof moveno, "%lld", (long long)(m->ply / 2 + 1));
		} else if (g->tc[0]) {
			/* Another's game, as the lobby shows it (a server that
			 * sends no tc leaves it blank). */
			snprintf(moveno, sizeof moveno, "%lld", (long long)(g->ply / 2 + 1));
			snprintf(mark, sizeof mark, "%s vs %s  %s %s%s%s", g->white_name[0] ? g->white_name : "-",
			         g->black_name[0] ? g->black_name : "-", g->tc, g->ruleset,
			         !strcmp(g->turn, "white") ? "  White to move" : "",
			         !strcmp(g->turn, "black") ? "  Black to move" : "");
		}
		printf("%-32s  %-8s  %-6s  %s\n", g->id, g->status, moveno, mark);
	}
	/* The player's games too old for the public list. */
	for (size_t i = 0; i < mine.n; i++) {
		bool listed = false;
		for (size_t k = 0; k < n && !listed; k++)
			listed = !strcmp(games[k].id, mine.games[i].id);
		if (listed)
			continue;
		cmd_games_mark(&mine.games[i], mine.now_ms, mark, sizeof mark);
		printf("%-32s  %-8s  %-6lld  %s\n", mine.games[i].id, mine.games[i].status,
		       (long long)(mine.games[i].ply / 2 + 1), mark);
	}
	rc = 0;
out:
	protocol_my_games_fini(&mine);
	free(games);
	free(resp);
	client_disconnect(&c);
	return rc;
}
