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
#  - store-sqlite.c builds a string with a %s that is not that migration;
#  - any file but the PostgreSQL store's (src/server/store-pg*.c,
#    store-pg-internal.h) includes libpq-fe.h or calls libpq (PQ...);
#  - those hand libpq SQL that is not a literal, store-pg.c's
#    prepared-statement table (stmt_sql[i]), a migration, or the parameter
#    of their own helpers (exec_simple, run_sql, simple), whose every call
#    passes a literal or a migration.
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

others=$(grep -rlE '#include <libpq-fe\.h>|[^a-zA-Z_]PQ[a-z]+[a-zA-Z]*\(' "$src" --include='*.c' --include='*.h' |
	grep -vE '/server/store-pg(-[a-z]+)?\.c$|/server/store-pg-internal\.h$' || true)
if [ -n "$others" ]; then
	echo "libpq used outside store-pg*.c: $others"
	status=1
fi
for g in "$src"/server/store-pg*.c; do
	[ -f "$g" ] || continue
	# Calls span lines: look at the whole file, the SQL argument of each.
	bad=$(perl -0777 -ne '
		my %helper;
		while (/\b(PQexec|PQexecParams|PQprepare|PQsendQuery|PQsendQueryParams|exec_simple|run_sql|run_sql_done|simple)\(\s*([^,]+),\s*((?:[^,"]|"(?:[^"\\]|\\.)*")+?)\s*[,)]/g) {
			my ($fn, $arg) = ($1, $3);
			next if $arg =~ /^"/ || $arg =~ /^const char \*sql$/;
			next if $fn eq "PQprepare" && $arg eq "name";
			next if $fn eq "exec_simple" && $arg eq "migrations[version]";
			# Each helper passes its own parameter on, once.
			next if $arg eq "sql" && !$helper{$fn}++;
			print "$fn($arg)\n";
		}
		while (/\bPQprepare\(\s*[^,]+,\s*name,\s*([^,]+),/g) {
			print "PQprepare(.., $1)\n" unless $1 eq "stmt_sql[i]";
		}' "$g")
	if [ -n "$bad" ]; then
		echo "$g: SQL that is not a literal or a prepared statement:"
		echo "$bad"
		status=1
	fi
	n=$(grep -cE '^	\[S_[A-Z_]+\] =' "$g" || true)
	echo "$(basename "$g"): $n prepared statements, no SQL built from input"
done
exit $status
