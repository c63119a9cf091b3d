/*
 * What the SQLite store's other files (store-tournaments.c) need from
 * store-sqlite.c: the connection. Private to the store-*.c files, the only
 * ones that include sqlite3.h.
 */
#ifndef TCHESS_SERVER_STORE_SQLITE_H
#define TCHESS_SERVER_STORE_SQLITE_H

#include <sqlite3.h>

#include "store-backend.h"

sqlite3 *store_sqlite_db(struct sqlite_store *st);
/* The SQL of store_games_open_of, for a test of its query plan. */
const char *sqlite_store_open_of_sql(void);
/* The SQL of store_games_finished_of, for the same. */
const char *sqlite_store_finished_of_sql(void);

#endif
