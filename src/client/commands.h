/*
 * The subcommands of the tchess executable. Each takes the arguments after
 * its own name and returns the process exit status.
 */
#ifndef TCHESS_CLIENT_COMMANDS_H
#define TCHESS_CLIENT_COMMANDS_H

int cmd_perft(int argc, char **argv);
int cmd_review(int argc, char **argv);

#endif
