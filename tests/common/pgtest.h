/*
 * A database of the throwaway PostgreSQL cluster that
 * tests/server/with-postgresql runs beside a test (meson test --setup
 * postgresql): its socket folder is in TCHESS_TEST_PG_HOST. The server
 * tests and the store test make a new database per tchessd or store they
 * open, so no two cases (or parallel tests) share one.
 */
#ifndef TCHESS_TESTS_PGTEST_H
#define TCHESS_TESTS_PGTEST_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a test cluster is there (TCHESS_TEST_PG_HOST is set). */
bool pgtest_enabled(void);
/* Creates a new database and writes its libpq URI into uri. Returns 0, or
 * -1 with why in err. */
int pgtest_create(char *uri, size_t size, char *err, size_t errsize);
/* Runs sql on the database of uri with psql (as another node, or an
 * operator, would: behind tchessd's back). Returns 0, or psql's exit
 * status. */
int pgtest_sql(const char *uri, const char *sql);
/* Drops the database of a URI pgtest_create wrote (ignoring failures:
 * the cluster goes anyway at the end of the test). */
void pgtest_drop(const char *uri);

#endif
