/*
 * What the files of the PostgreSQL store share (store-pg.c owns it all;
 * store-pg-games.c and store-pg-tournaments.c use it): the prepared
 * statements' names, a statement's parameters and how its answer reads,
 * the one statement helper and the readers of a result's columns. Only store-pg*.c include
 * this header, as only they include libpq-fe.h.
 */
#ifndef TCHESS_SERVER_STORE_PG_INTERNAL_H
#define TCHESS_SERVER_STORE_PG_INTERNAL_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store-backend.h"

/* The statements prepared on each command connection (their SQL is
 * store-pg.c's stmt_sql). S_COUNT names none: with stmt's sql, a statement
 * sent with its parameters each time. */
enum stmt {
	S_PLAYER_INSERT,
	S_PLAYER_BY_HASH,
	S_PLAYER_BY_ID,
	S_PLAYER_SET_HASH,
	S_PLAYER_EXISTS,
	S_GAME_INSERT,
	S_GAME_GET,
	S_GAME_UPDATE,
	S_GAME_DELETE,
	S_GAME_LAST_SEQ,
	S_EVENT_INSERT,
	S_EVENTS_AFTER,
	S_EVENTS_RANGES,
	S_GAMES_UNFINISHED,
	S_GAMES_RECENT,
	S_GAMES_PREFIX,
	S_GAMES_OPEN_OF,
	S_GAMES_FINISHED_OF,
	S_PLAYER_LOCK_OPEN,
	S_COUNT
};

/* Parameters of one statement: text, except the token hashes (bytea,
 * binary). */
#define MAX_PARAMS 16

struct params {
	int n;
	const char *v[MAX_PARAMS];
	int len[MAX_PARAMS];
	int fmt[MAX_PARAMS];
	char num[MAX_PARAMS][24];
};

/* Appends a text parameter; s (NULL: SQL NULL) must live until the
 * statement has run. */
void pg_param_text(struct params *p, const char *s);
/* Appends an integer parameter, written into p itself. */
void pg_param_int(struct params *p, int64_t v);
/* Appends a player id; 0 (none) is SQL NULL. */
void pg_param_id(struct params *p, int64_t id);
/* Appends a token hash as a binary parameter (bytea). */
void pg_param_hash(struct params *p, const uint8_t hash[STORE_HASH_SIZE]);

/* Column col of row as an integer, 0 if NULL. */
int64_t pg_col_int(const PGresult *r, int row, int col);
/* Copies column col of row into dst (size bytes), cut to fit. */
void pg_col_text(char *dst, size_t size, const PGresult *r, int row, int col);

/* What a statement is for, which says how its answer reads. */
enum use {
	READ_ROW,  /* a lookup of one row: STORE_NOT_FOUND unless exactly one */
	READ_ROWS, /* rows for the caller, none as good as some */
	INSERT,    /* INSERT ... ON CONFLICT DO NOTHING RETURNING: STORE_CONFLICT without a row */
	CHANGE,    /* an UPDATE or DELETE of rows that must be there: STORE_NOT_FOUND if none changed */
	WRITE,     /* any other write */
	APPEND     /* an append, which fails (an error) if its seq is taken: in a transaction,
	            * sent with the next statement answered or with the COMMIT */
};

/* Runs the prepared statement s, or sql when not NULL, with p bound (NULL:
 * none), in or out of the transaction; its answer read as use says. *res,
 * when res is not NULL, is the result to PQclear if STORE_OK, else NULL.
 * The whole contract is at its definition in store-pg.c. */
enum store_result pg_stmt(struct pg_store *st, enum stmt s, const char *sql, const struct params *p, enum use use,
                          const char *what, PGresult **res);

/* Whether a transaction is open (store_begin called, no commit or rollback
 * since). */
bool pg_store_in_tx(const struct pg_store *st);

#endif
