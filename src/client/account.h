/*
 * Who the player is on a server: the name and bearer token that
 * `tchess register` receives, kept with the server's URL in a file of
 * "key = value" lines, readable by the owner only (mode 0600):
 *
 *	$XDG_CONFIG_HOME/tchess/token       for a server of one's choosing
 *	$XDG_STATE_HOME/tchess/local-token  for the embedded server, whose
 *	                                    database sits beside it
 *	$XDG_CONFIG_HOME/tchess/lichess-token  a Lichess token, with the
 *	                                    account's name and the Lichess URL
 *	                                    (tchess lichess login)
 *
 * and the embedded server itself: one tchessd on a loopback port that the
 * user's tchess commands share, started by the first and stopped by the
 * last.
 */
#ifndef TCHESS_CLIENT_ACCOUNT_H
#define TCHESS_CLIENT_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tchess/protocol.h"

/* The file serves tchessd's accounts and Lichess's (lichess-token in the
 * config folder, written by tchess lichess login): a name as long as
 * either allows (Lichess user names are up to 30 characters, tchessd's
 * PROTOCOL_NAME_MAX), and a token as long as Lichess's may get (its
 * clients are told to handle 512 characters or more). */
#define ACCOUNT_NAME_MAX 30
#define ACCOUNT_TOKEN_MAX 1024
_Static_assert(PROTOCOL_NAME_MAX <= ACCOUNT_NAME_MAX, "a tchessd name fits the account file");
_Static_assert(PROTOCOL_TOKEN_MAX <= ACCOUNT_TOKEN_MAX, "a tchessd token fits the account file");

struct account {
	char server[256];
	char name[ACCOUNT_NAME_MAX + 1];
	char token[ACCOUNT_TOKEN_MAX + 1];
	int64_t player;                 /* tchessd's player id; 0 for Lichess */
};

/* $XDG_CONFIG_HOME/tchess (or ~/.config/tchess) and $XDG_STATE_HOME/tchess
 * (or ~/.local/state/tchess) into buf. Return 0, or -1 without HOME. */
int account_config_dir(char *buf, size_t size);
int account_state_dir(char *buf, size_t size);
/* Where finished games' PGN files are saved: $XDG_DATA_HOME/tchess/games
 * (or ~/.local/share/tchess/games). Returns 0, or -1 without HOME. */
int account_games_dir(char *buf, size_t size);
/* The file a tchessd game's PGN is saved to: DIR/tchess-ID12.pgn, DIR
 * being dir, or the games folder when dir is NULL or "". Returns 0, or -1
 * without HOME (or when it does not fit). */
int account_game_pgn_path(const char *dir, const char *game_id, char *buf, size_t size);
/* Writes the PGN text (len bytes) of game_id to its file (above), making
 * the folder first; path receives the file's name. Returns 0, or -1 with
 * a message in err. */
int account_save_game_pgn(const char *dir, const char *game_id, const char *text, size_t len, char *path,
			  size_t pathsize, char *err, size_t errsize);
/* $XDG_CACHE_HOME/tchess (else ~/.cache/tchess) into buf; -1 when neither
 * is set or it does not fit. */
int account_cache_dir(char *buf, size_t size);

/* Creates dir and its parents (mode 0700). Returns 0 or -1 with a message. */
int account_mkdirs(const char *dir, char *err, size_t errsize);

/* Reads the account file at path. Returns 0, 1 when there is none, or -1
 * with a message naming the line. */
int account_load(const char *path, struct account *a, char *err, size_t errsize);
/* Parses account text (the file's contents). Returns 0 or -1 with err
 * ("line 3: token is longer than 1024 characters"): a value too long for
 * its field is refused, never cut. */
int account_parse(struct account *a, const char *text, char *err, size_t errsize);
/* Writes the file, mode 0600, replacing it. Returns 0 or -1 with err. */
int account_save(const char *path, const struct account *a, char *err, size_t errsize);

/* A client's hold on the embedded tchessd, the one server that all the
 * tchess commands of a user share when none is configured. Its files sit
 * in the state folder beside the database:
 *
 *	tchess.db    the database
 *	tchessd.log  the server's log
 *	server       "pid = N" and "url = http://127.0.0.1:PORT" of the
 *	             running server, while one runs
 *	server.lock  held exclusively while a client starts, finds or stops it
 *	users.lock   held shared by each client for as long as it uses it
 */
struct embedded {
	char dir[512];
	int users_fd; /* -1 when not attached */
	pid_t pid;
	char url[64];
};

/* Finds tchessd: $TCHESS_TCHESSD, else beside this program in the build
 * tree (../server/tchessd), else in the install prefix's sbin. Writes the
 * path into buf; returns 0 or -1. */
int account_find_tchessd(char *buf, size_t size);
/* Attaches to the embedded server of state folder dir: the running one of
 * its record, or else tchessd (the path) started on 127.0.0.1 port 0 and
 * recorded. Returns 0 with e->url set, or -1 with a message. */
int account_embedded_attach(struct embedded *e, const char *dir, const char *tchessd, char *err, size_t errsize);
/* Lets go of it; the last client to leave stops the server (SIGTERM, and
 * waits for it, at most 10 s) and removes the record. Safe on a never
 * attached one. */
void account_embedded_leave(struct embedded *e);

#endif
