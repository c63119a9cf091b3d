#!/bin/sh
# Issue 6: "SQL only through prepared statements". Fails if
#  - any file of src/ but the store's (src/server/store-*.c, store-sqlite.h)
#    mentions sqlite3 at all;
#  - another store file prepares SQL other than a literal through its prep();
#  - store-sqlite.c passes SQL that is not a literal, the prepared-statement
#    table (stmt_sql[i]) or exec()'s own parameter to sqlite3_exec or
#    sqlite3_prepare*;
#  - exec() is called with anything but a literal, a ternary of literals, or
#    the migration text (built only from the constant migrations[] and an
#    integer, never from input);
#  - store-sqlite.c builds a string with a %s that is not that migration.
# Usage: check-sql.sh SRC_DIR
set -eu
src=${1:-src}
status=0
others=$(grep -rlE 'sqlite3_[a-z_0-9]+\(|#include <sqlite3\.h>' "$src" --include='*.c' --include='*.h' |
	grep -vE '/server/store-[a-z]+\.c$|/server/store-sqlite\.h$' || true)
if [ -n "$others" ]; then
	echo "sqlite3 used outside the store: $others"
	status=1
fi
for g in "$src"/server/store-*.c; do
	[ "$g" = "$src/server/store-sqlite.c" ] && continue
	bad=$(grep -nE 'sqlite3_(exec|prepare[_a-z0-9]*)\(' "$g" | grep -vE 'sqlite3_prepare_v2\(store_sqlite_db\(st\), sql, ' || true)
	bad="$bad$(grep -nE '[^a-z_]prep\(st, ' "$g" | grep -vE 'prep\(st, "' || true)"
	if [ -n "$bad" ]; then
		echo "$g: SQL that is not a literal:"
		echo "$bad"
		status=1
	fi
done
f="$src/server/store-sqlite.c"
bad=$(grep -nE 'sqlite3_(exec|prepare[_a-z0-9]*)\(' "$f" |
	grep -vE 'sqlite3_(exec|prepare[_a-z0-9]*)\(st->db, ("|stmt_sql\[i\]|sql,)' || true)
if [ -n "$bad" ]; then
	echo "SQL that is not a literal or a prepared statement:"
	echo "$bad"
	status=1
fi
bad=$(grep -nE '[^_a-z]exec\(st, ' "$f" | grep -vE 'exec\(st, ("|opts && opts->sync_full \? "|sql, errmsg\))' || true)
if [ -n "$bad" ]; then
	echo "exec() with a built string:"
	echo "$bad"
	status=1
fi
bad=$(grep -nE '(asprintf|snprintf|strcat|strcpy)\(' "$f" | grep -F '%s' |
	grep -vF 'xasprintf("BEGIN IMMEDIATE; %s DELETE FROM schema_version; ' | grep -vE 'errmsg = |snprintf\(dst, size, "%s"' || true)
if [ -n "$bad" ]; then
	echo "strings built with %s in the store (SQL must not be):"
	echo "$bad"
	status=1
fi
n=$(grep -cE '^	\[S_[A-Z_]+\] = "' "$f")
echo "store-sqlite.c: $n prepared statements, no SQL built from input"
exit $status
