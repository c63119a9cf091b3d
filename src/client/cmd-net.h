/*
 * What the network commands share (cmd-net.c, cmd-tourney.c): finding the
 * server and the account, the common options, and running the play or
 * watch screen on a game. Private to the tchess executable.
 */
#ifndef TCHESS_CLIENT_CMD_NET_H
#define TCHESS_CLIENT_CMD_NET_H

#include <stdbool.h>

#include "account.h"
#include "config.h"

struct ui;

struct client_conn {
	char server[256];
	bool embedded;
	struct embedded emb;
	bool have_account;
	struct account acct;
	char account_path[640];
	struct net *net;
	struct config cfg;
};

/* The options every network command takes: --server, --theme, --ascii,
 * --unicode. */
struct client_opts {
	const char *server, *theme;
	int ascii;
};

/* Connects: finds the server (the embedded one when none is configured:
 * attached to, or started) and the account. need_token: fail
 * without an account (for embedded, register one automatically). Returns
 * 0, or -1 after printing why. */
int client_connect(struct client_conn *c, const char *server_opt, bool need_token);
void client_disconnect(struct client_conn *c);
/* Takes --lichess (or --server lichess) out of argv (*argc shrinks):
 * whether it was there, the one flag that puts a command on Lichess. */
bool client_take_lichess(int *argc, char **argv);
/* Takes argv[*i] (and its value) if it is a common option: 1 taken, 0 not
 * one, -1 a missing value (printed). */
int client_common_opt(struct client_opts *o, int argc, char **argv, int *i);
/* Parses a command's arguments: the common options into o, and one
 * argument into *arg (required), or none when arg is NULL. Returns 0, or
 * -1 after printing why (usage, one line, for a wrong argument). */
int client_args(struct client_opts *o, int argc, char **argv, const char **arg, const char *usage);
/* Starts the terminal for a screen: the locale, the theme (theme_arg, the
 * config file's, or the default) and curses on ui. Returns 0, or the exit
 * status after printing why: 2 for a bad theme, 1 for no usable terminal. */
int client_ui_start(struct client_conn *c, struct ui *ui, const char *theme_arg);
/* Sends one request on c and checks that the answer's status is want.
 * Returns 0 with the answer in *resp (*len bytes), or -1 after printing
 * why: the network's error after prefix, or the server's refusal after
 * refused (prefix when NULL). The caller frees *resp either way. */
int client_call(struct client_conn *c, const char *method, const char *path, const char *body, int want,
                const char *prefix, const char *refused, char **resp, size_t *len);
/* The hotseat's second player (client_guest): its account on c's server
 * (named after the player, "alice-guest"), kept beside the player's
 * account file with "-guest" added and registered the first time.
 * Returns 0, or -1 with why in err. */
int client_guest(struct client_conn *c, struct account *guest, char *err, size_t errsize);
/* A hotseat game on c's server: an invite game for c's account, its other
 * seat taken by guest with the code, guest's token set as c->net's second
 * (net_set_second). want says the time control, ruleset, colour (of c's
 * account; White when unset) and premoves. Returns 0 with the game's id
 * and *host (c's seat), or -1 with why in err. */
struct protocol_game_create_request;
int client_hotseat_create(struct client_conn *c, const struct account *guest,
			  const struct protocol_game_create_request *want, char *id, size_t size, int *host, char *err,
			  size_t errsize);
/* Whether game id is a hotseat game of c's account: its seat *host is
 * c's and the other is held by c's guest account (client_guest's file;
 * none is registered here). Then the guest's token is set as c->net's
 * second (net_set_second) and 1 is returned; 0 otherwise (no guest, not
 * such a game, or the game not read). */
int client_hotseat_of(struct client_conn *c, const char *id, int *host);
/* Prints the server's refusal in an answer (or "HTTP N") after prefix. */
void client_print_refusal(const char *prefix, int status, const char *resp, size_t len);

#endif
