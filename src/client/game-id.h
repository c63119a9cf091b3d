/*
 * Short game ids: the screens show a game's id by its first 8 characters,
 * so the commands that take an id (watch, join, export) take any prefix
 * of one, as git takes a short commit. The prefix is matched against the
 * ids the server lists (GET /v1/games, and the player's own games from
 * GET /v1/me/games); this file only matches, free of the network, so the
 * tests can try every case.
 */
#ifndef TCHESS_CLIENT_GAME_ID_H
#define TCHESS_CLIENT_GAME_ID_H

#include <stddef.h>

/* How many of the matching ids an ambiguous prefix's message names. */
#define GAME_ID_SHOWN 3

/* Finds the one id among ids[0..n) that starts with prefix (an id listed
 * twice counts once) and copies it into out (size bytes). Returns 0, or
 * -1 with a sentence for the user in err (err_size bytes): no id starts
 * with prefix, or several do (the first GAME_ID_SHOWN of them named). */
int game_id_match(const char *prefix, const char *const *ids, size_t n, char *out, size_t size, char *err,
		  size_t err_size);

#endif
