/*
 * Who the player is on a server: the name and bearer token that
 * `tchess register` receives, kept with the server's URL in a file of
 * "key = value" lines, readable by the owner only (mode 0600):
 *
 *	$XDG_CONFIG_HOME/tchess/token       for a server of one's choosing
 *	$XDG_STATE_HOME/tchess/local-token  for the embedded server, whose
 *	                                    database sits beside it
 *
 * and the embedded server itself: tchessd started on a loopback port for
 * the length of one command.
 */
#ifndef TCHESS_CLIENT_ACCOUNT_H
#define TCHESS_CLIENT_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tchess/protocol.h"

struct account {
	char server[256];
	char name[PROTOCOL_NAME_MAX + 1];
	char token[PROTOCOL_TOKEN_MAX + 1];
	int64_t player;
};

/* $XDG_CONFIG_HOME/tchess (or ~/.config/tchess) and $XDG_STATE_HOME/tchess
 * (or ~/.local/state/tchess) into buf. Return 0, or -1 without HOME. */
int account_config_dir(char *buf, size_t size);
int account_state_dir(char *buf, size_t size);
/* Creates dir and its parents (mode 0700). Returns 0 or -1 with a message. */
int account_mkdirs(const char *dir, char *err, size_t errsize);

/* Reads the account file at path. Returns 0, 1 when there is none, or -1
 * with a message naming the line. */
int account_load(const char *path, struct account *a, char *err, size_t errsize);
/* Parses account text (the file's contents). Returns 0 or -1 with err. */
int account_parse(struct account *a, const char *text, char *err, size_t errsize);
/* Writes the file, mode 0600, replacing it. Returns 0 or -1 with err. */
int account_save(const char *path, const struct account *a, char *err, size_t errsize);

/* A running embedded tchessd. */
struct embedded {
	pid_t pid;
	char url[64];
};

/* Finds tchessd: $TCHESS_TCHESSD, else beside this program in the build
 * tree (../server/tchessd), else in the install prefix's sbin. Writes the
 * path into buf; returns 0 or -1. */
int account_find_tchessd(char *buf, size_t size);
/* Starts tchessd on 127.0.0.1 port 0 with its database db, logging to
 * log_path, and reads "listening on 127.0.0.1:PORT" from its output.
 * Returns 0 or -1 with a message. */
int account_embedded_start(struct embedded *e, const char *tchessd, const char *db, const char *log_path,
			   char *err, size_t errsize);
/* Stops it (SIGTERM, then waits). Safe on a never-started one. */
void account_embedded_stop(struct embedded *e);

#endif
