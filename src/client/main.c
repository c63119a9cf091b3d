/*
 * tchess: the entry point. Dispatches to a subcommand by its name.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	const char *args;
	const char *summary;
	int (*run)(int argc, char **argv);
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct command commands[] = {
	{ "help", "", "list the subcommands", cmd_help },
	{ "version", "", "print the version", cmd_version },
	{ "perft", "[--divide] DEPTH [FEN]", "count the leaf nodes of the legal move tree", cmd_perft },
	{ "review", "[--plain] FILE.pgn [--game N]", "step through the games of a PGN file (offline)", cmd_review },
	{ "register", "NAME [--server URL]", "register a player and keep its token", cmd_register },
	{ "token", "[rotate]", "whose token this is; rotate replaces it", cmd_token },
	{ "home", "", "the home screen (what plain tchess opens)", cmd_home },
	{ "play", "[--vs engine[:N]|open|invite] [--tc TC] ...", "start a game (own local server by default)", cmd_play },
	{ "join", "GAME[:INVITE]", "take the free seat of a game, or return to yours", cmd_join },
	{ "watch", "GAME", "follow a game live, read-only", cmd_watch },
	{ "games", "", "list the live games (* marks your move, deadlines)", cmd_games },
	{ "export", "GAME", "write a game's PGN to standard output", cmd_export },
	{ "tournaments", "", "browse the tournaments; register, withdraw, open", cmd_tournaments },
	{ "tournament", "ID | create --players N --tc TC ...", "a tournament's standings and games; create one",
	  cmd_tournament },
	{ "lichess", "login|logout|games|play GAME|ai|seek", "Lichess: your token, your games, play, find a game",
	  cmd_lichess },
	{ "vacation", "[list | book YYYY-MM-DD DAYS | cancel ID]", "correspondence vacations", cmd_vacation },
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("usage: tchess COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++) {
		char head[80];
		snprintf(head, sizeof head, "%s %s", commands[i].name, commands[i].args);
		printf("  %-46s %s\n", head, commands[i].summary);
	}
	printf("\nSee tchess(1).\n");
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("tchess %s\n", TCHESS_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	/* Plain tchess opens the home screen. */
	if (argc < 2)
		return cmd_home(0, NULL);
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	if (!strcmp(name, "--version"))
		name = "version";
	/* tchess --lichess, tchess --server URL ...: the home screen's options. */
	if (name[0] == '-' && strcmp(name, "help"))
		return cmd_home(argc - 1, argv + 1);
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "tchess: unknown command '%s' (try 'tchess help')\n", argv[1]);
	return 2;
}
