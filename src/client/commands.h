/*
 * The subcommands of the tchess executable. Each takes the arguments after
 * its own name and returns the process exit status.
 */
#ifndef TCHESS_CLIENT_COMMANDS_H
#define TCHESS_CLIENT_COMMANDS_H

int cmd_perft(int argc, char **argv);
int cmd_review(int argc, char **argv);
/* The network commands (cmd-net.c). */
int cmd_register(int argc, char **argv);
int cmd_token(int argc, char **argv);
int cmd_home(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_join(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_export(int argc, char **argv);
/* Tournaments and correspondence (cmd-tourney.c). */
int cmd_tournaments(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_vacation(int argc, char **argv);
/* Lichess (cmd-lichess.c). */
int cmd_lichess(int argc, char **argv);
/* tchess home --lichess: the home screen on Lichess. */
int cmd_lichess_home(int argc, char **argv);
/* tchess watch --lichess GAME, tchess watch URL: spectating on Lichess. */
int cmd_lichess_watch(int argc, char **argv);
/* tchess play --lichess: a seek, or the Lichess AI with --vs engine[:N]. */
int cmd_lichess_play_new(int argc, char **argv);
/* The non-interactive dump of review --plain (cmd-review-plain.c). */
/* tchess review --plain FILE; with depth > 0 (--analyse) the engine at
 * engine (NULL: stockfish) analyses each game's main line to that depth. */
int cmd_review_plain(const char *path, const char *engine, int depth);

#endif
