/*
 * The state of one tchessd, passed explicitly to every part (there are no
 * mutable globals beyond the log level and signal handling).
 *
 * Concurrency: one server lock. libmicrohttpd runs every request handler on
 * its single internal polling thread, and the poll timer runs on a second
 * thread; both take server->lock before touching the store, the waiters or
 * anything a handler reads. So every command is serialised against every
 * other, which makes "one transaction per command" trivially consistent and
 * costs nothing while one thread does all the work. If handlers ever move to
 * a thread pool, this lock is where per-game locks would go.
 *
 * Engine seats add the engine pool's worker threads (engine.h): a game asks
 * for an engine move with the lock held, the engine thinks with no lock held,
 * and its answer takes the lock like any request before it is played. The
 * pool is therefore freed without the lock, after the game service has
 * withdrawn every request (server_fini).
 *
 * Group commit (sync = full): commit.h. The game service and the HTTP side
 * hear of durability as its listeners; the game service wakes polls through
 * its own hooks (game-service.h), which main.c points at the HTTP side. So
 * nothing calls back into this file: it opens and closes the parts in
 * order.
 */
#ifndef TCHESS_SERVER_SERVER_H
#define TCHESS_SERVER_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "commit.h"
#include "config.h"
#include "store.h"
#include "tournament-service.h"

struct http;
struct game_service;
struct engine_pool;
struct ratelimit;
struct cluster;

struct server {
	struct server_config cfg;
	struct store *store;
	struct http *http;
	struct game_service *games;
	struct tournament_service tournaments; /* on store and games */
	struct engine_pool *engines; /* NULL: engine games are refused */
	struct ratelimit *rate_ip;    /* per client address (http.c charges them) */
	struct ratelimit *rate_token; /* per bearer token, commands only */
	struct ratelimit *rate_register; /* registrations per address group (http.c) */
	struct ratelimit *rate_vacation; /* per player, vacation bookings and cancellations (api-me.c) */
	pthread_mutex_t lock;
	bool draining; /* set under lock when SIGTERM/SIGINT arrives */
	int64_t started_ms;
	struct commit commit; /* group commit (commit.h), under lock */
	struct cluster *cluster; /* the other nodes on the database (cluster.h); NULL: none can be */
};

/* Takes one token of a limit that must hold for the whole cluster, not
 * per node (tchessd(8), RATE LIMITS): with other nodes possible
 * (srv->cluster) the bucket (kind, key) that the store keeps for every
 * node, else local's (or local's when the store fails). Refills tokens
 * per period_ms, up to burst. 0 if the request may pass, else the ms
 * until a token is back. Under the lock. */
int64_t server_limit_take(struct server *srv, struct ratelimit *local, const char *kind, const char *key,
			  int64_t tokens, int64_t period_ms, int64_t burst);

/* Opens the store, starts the engine pool (a missing default engine is
 * logged and leaves engine games refused; an --engine that does not start
 * is an error) and starts the game service, which rebuilds the unfinished
 * games. cfg is moved into
 * the server (the caller's copy is cleared). Returns -1 with *errmsg set. */
int server_init(struct server *srv, struct server_config *cfg, char **errmsg);
void server_fini(struct server *srv);
/* Writes a copy of the whole database to the configured backup path
 * (tchessd(8), BACKUPS), through a new file renamed into place, a few
 * hundred pages per hold of the lock so commands go on meanwhile. Called
 * without the lock (main, on SIGUSR1). 0, or -1 after logging why. */
int server_backup(struct server *srv);
#endif
