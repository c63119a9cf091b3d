/*
 * Review's source of games: a PGN file read whole into memory, listed
 * game by game with the reader of libtchess (tchess/pgn.h), and one game
 * at a time turned into the review model's struct review_game.
 */
#ifndef TCHESS_CLIENT_REVIEW_PGN_H
#define TCHESS_CLIENT_REVIEW_PGN_H

#include <stddef.h>

#include "review.h"
#include "tchess/pgn.h"

#define REVIEW_PGN_FILE_MAX (256u << 20)

struct review_pgn {
	char *buf;
	size_t len;
	struct review_entry *entries;
	size_t *offsets;               /* where each game starts in buf */
	size_t n_games;
	struct pgn_game game;          /* the game now shown */
	struct review_move *moves;
	void **allocs;                 /* the side lines' arrays, freed with the game */
	size_t n_allocs, cap_allocs;
	char time_control[TIME_CONTROL_TEXT_MAX];   /* the game's, as players write it */
	char read_error[256];          /* the game shown stops at a move that cannot be read: why */
	char name[256];                /* the file's name without its folder (saves are named after it) */
};

/* Lists the games of buf (len bytes, copied). Returns 0 (even for a file
 * with no games: n_games is then 0), or -1 with a message. */
int review_pgn_init(struct review_pgn *rp, const char *buf, size_t len, char *err, size_t errsize);
/* Reads the file at path and lists its games. Returns 0 or -1 with a message. */
int review_pgn_open(struct review_pgn *rp, const char *path, char *err, size_t errsize);
void review_pgn_fini(struct review_pgn *rp);

/* A review_load_fn: ctx is a struct review_pgn. The game stays valid until
 * the next load or review_pgn_fini(). */
int review_pgn_load(void *ctx, size_t index, struct review_game *out, char *err, size_t errsize);

/* Game index of the file as read (comments, NAGs, clocks, evaluations and
 * side lines kept), with the player's line at (NULL: none) as one more
 * side line of the move it replaces, or appended to the line it continues
 * past its end, in export format appended to out. Returns 0 or -1 with a
 * message. */
int review_pgn_export(struct review_pgn *rp, size_t index, const struct review_explore_at *at, struct pgn_buf *out,
		      char *err, size_t errsize);

/* A review_save_fn (ctx: a struct review_pgn): review_pgn_export() written
 * to NAME-N.pgn in the games folder (account_games_dir(), made when
 * missing), NAME the file's name without .pgn and N the game's number,
 * replacing a file of that name. */
int review_pgn_save(void *ctx, size_t index, const struct review_explore_at *at, char *msg, size_t msgsize);

#endif
