/*
 * Databases of the test cluster (pgtest.h), made and dropped with
 * PostgreSQL's createdb and dropdb, so the tests need no libpq of their
 * own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgtest.h"

#define PGTEST_URI_PREFIX "postgresql://postgres@/"

bool pgtest_enabled(void)
{
	const char *host = getenv("TCHESS_TEST_PG_HOST");
	return host && *host;
}

/* Runs prog (createdb, dropdb) on the test cluster for database name;
 * returns its exit status, -1 if it could not run. */
static int client(const char *prog, const char *name)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp(prog, prog, "-h", getenv("TCHESS_TEST_PG_HOST"), "-U", "postgres", name, (char *)NULL);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int pgtest_create(char *uri, size_t size, char *err, size_t errsize)
{
	/* The process and a counter: unique among the tests of one cluster. */
	static int n;
	char name[64];
	snprintf(name, sizeof name, "tchess_%ld_%d", (long)getpid(), ++n);
	int rc = client("createdb", name);
	if (rc) {
		snprintf(err, errsize, "createdb %s: exit status %d", name, rc);
		return -1;
	}
	snprintf(uri, size, PGTEST_URI_PREFIX "%s?host=%s", name, getenv("TCHESS_TEST_PG_HOST"));
	return 0;
}

int pgtest_sql(const char *uri, const char *sql)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("psql", "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", sql, (char *)NULL);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void pgtest_drop(const char *uri)
{
	if (strncmp(uri, PGTEST_URI_PREFIX, strlen(PGTEST_URI_PREFIX)))
		return;
	const char *name = uri + strlen(PGTEST_URI_PREFIX);
	char db[64];
	snprintf(db, sizeof db, "%.*s", (int)strcspn(name, "?"), name);
	client("dropdb", db);
}
