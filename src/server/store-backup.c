/*
 * Online backups of the store (store.h, store_backup_*): SQLite's backup
 * API copying the live database page by page into a new file, through the
 * store's own connection, so the copy includes what commits between steps.
 * Its own file beside store-sqlite.c: no SQL here at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-sqlite.h"
#include "util/xalloc.h"

struct store_backup {
	sqlite3 *dest;
	sqlite3_backup *copy;
	char *path;
};

struct store_backup *sqlite_store_backup_begin(struct sqlite_store *st, const char *path, char *err, size_t errsize)
{
	struct store_backup *b = xcalloc(1, sizeof *b);
	/* The copy must be a new file: an old one would be overwritten page by
	 * page and could be left half one, half the other. */
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			snprintf(err, errsize, "%s exists already", path);
		else
			snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(b);
		return NULL;
	}
	close(fd);
	if (sqlite3_open_v2(path, &b->dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, errsize, "%s: %s", path, b->dest ? sqlite3_errmsg(b->dest) : "cannot open");
		sqlite3_close(b->dest);
		free(b);
		return NULL;
	}
	b->copy = sqlite3_backup_init(b->dest, "main", store_sqlite_db(st), "main");
	if (!b->copy) {
		snprintf(err, errsize, "%s: %s", path, sqlite3_errmsg(b->dest));
		sqlite3_close(b->dest);
		unlink(path);
		free(b);
		return NULL;
	}
	b->path = xstrdup(path);
	return b;
}

int store_backup_step(struct store_backup *b, int pages, char *err, size_t errsize)
{
	int rc = sqlite3_backup_step(b->copy, pages);
	if (rc == SQLITE_DONE)
		return 0;
	/* Busy or locked: try again at the next step. */
	if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return 1;
	snprintf(err, errsize, "%s: %s", b->path, sqlite3_errstr(rc));
	return -1;
}

int store_backup_finish(struct store_backup *b, bool done, char *err, size_t errsize)
{
	int rc = sqlite3_backup_finish(b->copy);
	int ok = done && rc == SQLITE_OK;
	if (done && rc != SQLITE_OK)
		snprintf(err, errsize, "%s: %s", b->path, sqlite3_errstr(rc));
	/* Closing the last connection folds a copy in WAL mode into its one
	 * file; then flush that file before it counts as a backup. */
	if (sqlite3_close(b->dest) != SQLITE_OK && ok) {
		snprintf(err, errsize, "%s: cannot close", b->path);
		ok = 0;
	}
	if (ok) {
		int fd = open(b->path, O_RDONLY);
		if (fd < 0 || fsync(fd)) {
			snprintf(err, errsize, "%s: %s", b->path, strerror(errno));
			ok = 0;
		}
		if (fd >= 0)
			close(fd);
	}
	free(b->path);
	free(b);
	return ok ? 0 : -1;
}
