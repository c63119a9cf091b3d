/*
 * The channel between tchessd nodes on one PostgreSQL database
 * (store.h, store_channel_*): LISTEN/NOTIFY on a connection of its own,
 * never in a transaction (notifications arrive only between
 * transactions), and never through a transaction pooler. Its sends commit
 * with synchronous_commit = off: a NOTIFY in a synchronous commit holds
 * PostgreSQL's notification queue lock across the WAL flush, which caps
 * the whole cluster near one commit per flush (../shared/CLUSTER-NOTES.md);
 * each node sends one batch per round instead (cluster.c).
 *
 * The connection also holds the shared advisory lock by which the nodes
 * count and name each other (pg_store_nodes_alive, members): it goes when
 * the process does; its backend's pid is in the node's row.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-backend.h"
#include "util/log.h"
#include "util/xalloc.h"

#define CHANNEL "tchess_nodes"

struct store_channel {
	struct pg_store *st;
	PGconn *conn; /* NULL while broken */
};

static void channel_notice(void *arg, const char *msg)
{
	(void)arg;
	log_debug("store: postgresql channel: %s", msg);
}

static int simple(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
	PQclear(r);
	return ok ? 0 : -1;
}

/* This node's row: alive now, by this backend. 0 or -1. */
static int heartbeat(PGconn *c, const char *node)
{
	const char *v[1] = { node };
	PGresult *r = PQexecParams(c,
				   "UPDATE tchess_nodes SET channel_pid = pg_backend_pid(), heartbeat_ms = "
				   "(extract(epoch FROM clock_timestamp()) * 1000)::bigint WHERE node = $1",
				   1, NULL, v, NULL, NULL, 0);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	return ok ? 0 : -1;
}

/* The send of every round, prepared once: no parse and no plan each. */
static int prepare_send(PGconn *c)
{
	PGresult *r = PQprepare(c, "send", "SELECT pg_notify('" CHANNEL "', $1)", 1, NULL);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	return ok ? 0 : -1;
}

/* A new connection, listening; NULL with *errmsg. */
static PGconn *channel_connect(struct pg_store *st, char **errmsg)
{
	const char *keys[] = { "dbname", "fallback_application_name", NULL };
	const char *vals[] = { pg_store_target(st), "tchessd-channel", NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	if (PQstatus(c) == CONNECTION_OK) {
		PQsetNoticeProcessor(c, channel_notice, NULL);
		if (!simple(c, "SET synchronous_commit = off") &&
		    !simple(c, "SELECT pg_advisory_lock_shared(" PG_NODE_LOCK_CLASS ", 0)") &&
		    !simple(c, "LISTEN " CHANNEL) && !heartbeat(c, pg_store_node(st)) && !prepare_send(c))
			return c;
	}
	const char *msg = c ? PQerrorMessage(c) : "out of memory";
	int len = (int)strlen(msg);
	*errmsg = xasprintf("postgresql channel: %.*s", len && msg[len - 1] == '\n' ? len - 1 : len, msg);
	PQfinish(c);
	return NULL;
}

struct store_channel *pg_store_channel_open(struct pg_store *st, char **errmsg)
{
	*errmsg = NULL;
	PGconn *c = channel_connect(st, errmsg);
	if (!c)
		return NULL;
	struct store_channel *ch = xcalloc(1, sizeof *ch);
	ch->st = st;
	ch->conn = c;
	return ch;
}

void pg_store_channel_close(struct store_channel *ch)
{
	if (!ch)
		return;
	PQfinish(ch->conn);
	free(ch);
}

static void broken(struct store_channel *ch, const char *what)
{
	const char *msg = ch->conn ? PQerrorMessage(ch->conn) : "";
	int len = (int)strlen(msg);
	log_warn("store: the node channel broke (%s): %.*s", what, len && msg[len - 1] == '\n' ? len - 1 : len, msg);
	PQfinish(ch->conn);
	ch->conn = NULL;
}

int pg_store_channel_send(struct store_channel *ch, const char *text)
{
	if (!ch->conn)
		return -1;
	const char *v[1] = { text };
	PGresult *r = PQexecPrepared(ch->conn, "send", 1, v, NULL, NULL, 0);
	int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
	PQclear(r);
	if (!ok) {
		if (PQstatus(ch->conn) != CONNECTION_OK)
			broken(ch, "send");
		else
			log_error("store: node channel: %s", PQerrorMessage(ch->conn));
		return -1;
	}
	return 0;
}

int pg_store_channel_members(struct store_channel *ch, int64_t ttl_ms, char (*names)[STORE_NODE_MAX + 1], int max)
{
	if (!ch->conn)
		return -1;
	const char *node = pg_store_node(ch->st);
	if (heartbeat(ch->conn, node)) {
		if (PQstatus(ch->conn) != CONNECTION_OK)
			broken(ch, "heartbeat");
		return -1;
	}
	char ttl[24];
	snprintf(ttl, sizeof ttl, "%lld", (long long)ttl_ms);
	const char *v[2] = { node, ttl };
	/* Alive: the channel's backend holds the nodes' shared lock, and
	 * the heartbeat is recent (PostgreSQL's clock, so the nodes' own
	 * need not agree). */
	PGresult *r = PQexecParams(ch->conn,
				   "SELECT n.node FROM tchess_nodes n JOIN pg_locks l ON l.pid = n.channel_pid "
				   "AND l.locktype = 'advisory' AND l.granted AND l.classid = " PG_NODE_LOCK_CLASS
				   " AND l.objid = 0 AND l.objsubid = 2 AND l.database = (SELECT oid FROM "
				   "pg_database WHERE datname = current_database()) WHERE n.node = $1 OR "
				   "n.heartbeat_ms > (extract(epoch FROM clock_timestamp()) * 1000)::bigint - "
				   "$2::bigint ORDER BY n.node COLLATE \"C\"",
				   2, NULL, v, NULL, NULL, 0);
	int n = -1;
	if (PQresultStatus(r) == PGRES_TUPLES_OK) {
		n = 0;
		for (int i = 0; i < PQntuples(r) && n < max; i++)
			snprintf(names[n++], STORE_NODE_MAX + 1, "%s", PQgetvalue(r, i, 0));
	} else if (PQstatus(ch->conn) != CONNECTION_OK) {
		broken(ch, "members");
	} else {
		log_error("store: node channel: members: %s", PQerrorMessage(ch->conn));
	}
	PQclear(r);
	return n;
}

/* Hands over the notifications libpq has read. */
static void deliver(struct store_channel *ch, store_message_fn fn, void *arg)
{
	PGnotify *n;
	while ((n = PQnotifies(ch->conn))) {
		fn(arg, n->extra);
		PQfreemem(n);
	}
}

int pg_store_channel_wait(struct store_channel *ch, int wake_fd, int timeout_ms, store_message_fn fn, void *arg)
{
	if (!ch->conn) {
		char *err = NULL;
		ch->conn = channel_connect(ch->st, &err);
		if (!ch->conn) {
			log_warn("store: reopening the node channel: %s", err);
			free(err);
			/* Not at once again: the caller's wait is the backoff. */
			struct pollfd w = { .fd = wake_fd, .events = POLLIN };
			poll(&w, wake_fd >= 0 ? 1 : 0, timeout_ms);
			return -1;
		}
		log_warn("store: the node channel is open again");
		return 1;
	}
	/* What a send's answer brought along first. */
	deliver(ch, fn, arg);
	struct pollfd fds[2] = { { .fd = PQsocket(ch->conn), .events = POLLIN }, { .fd = wake_fd, .events = POLLIN } };
	int n = poll(fds, wake_fd >= 0 ? 2 : 1, timeout_ms);
	if (n < 0 && errno != EINTR) {
		log_error("store: node channel: poll: %s", strerror(errno));
		return 0;
	}
	if (n > 0 && fds[0].revents) {
		if (!PQconsumeInput(ch->conn) || PQstatus(ch->conn) != CONNECTION_OK) {
			broken(ch, "listen");
			return -1;
		}
		deliver(ch, fn, arg);
	}
	return 0;
}
