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
 * Group commit (sync = full). A transaction commits under the lock without
 * an fsync (store.h: it then survives kill -9 but not a power loss), and
 * whatever depends on its durability waits for the syncer thread, which
 * loops: take the lock, note the store's commit count (the target) and let
 * the game service note which games have events up to it, drop the lock,
 * fdatasync the WAL (store_sync), take the lock, mark everything up to the
 * target durable: replies held for it are sent (http.c) and the games'
 * parked polls are woken with the events now durable (game-txn.c).
 * Every commit that arrives during one fsync rides on the next, so at most
 * two fsyncs stand between a commit and its answer, the lock is never held
 * across an fsync, and the disk's rate of synchronous writes bounds the
 * batches per second, not the commands. The guarantees stay those of one
 * fsync per commit: a command is acknowledged only after an fsync begun
 * after its commit returned, and a poll never shows an event beyond the
 * game's durable seq, so no client ever sees what a crash could take back.
 * A failed fsync ends tchessd: the kernel may have dropped the dirty pages,
 * so nothing could be acknowledged truthfully afterwards.
 *
 * With sync = normal every commit counts as durable when it returns (it
 * survives kill -9), nothing waits and the syncer does not run.
 */
#ifndef TCHESS_SERVER_SERVER_H
#define TCHESS_SERVER_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "store.h"

struct http;
struct game_service;
struct engine_pool;
struct ratelimit;

struct server {
	struct server_config cfg;
	struct store *store;
	struct http *http;
	struct game_service *games;
	struct engine_pool *engines; /* NULL: engine games are refused */
	struct ratelimit *rate_ip;    /* per client address (http.c charges them) */
	struct ratelimit *rate_token; /* per bearer token, commands only */
	pthread_mutex_t lock;
	bool draining; /* set under lock when SIGTERM/SIGINT arrives */
	int64_t started_ms;
	/* Group commit (above), all under lock. */
	uint64_t durable;        /* store commits known durable */
	pthread_t syncer;
	bool syncer_started;
	bool syncer_stop;
	pthread_cond_t sync_cond; /* a commit awaits the syncer */
	uint64_t syncs;           /* fsyncs done, for the log */
};

/* Opens the store, starts the engine pool (a missing default engine is
 * logged and leaves engine games refused; an --engine that does not start
 * is an error) and starts the game service, which rebuilds the unfinished
 * games. cfg is moved into
 * the server (the caller's copy is cleared). Returns -1 with *errmsg set. */
int server_init(struct server *srv, struct server_config *cfg, char **errmsg);
void server_fini(struct server *srv);
/* Called with the lock held once events of game_id are durable: wakes the
 * game's parked polls. */
void server_notify_game(struct server *srv, const char *game_id);
/* With the lock held: whether a long-poll is parked on game_id (a game
 * someone watches stays in memory, game-registry.c). */
bool server_game_watched(const struct server *srv, const char *game_id);
/* With the lock held, before the syncer runs (the game service's rebuild
 * at start-up, gs not yet in srv->games): one round of the syncer's work,
 * here. The fsync is made with the lock held, the one place it is: no
 * client is connected yet, and engine answers must wait for the rebuild
 * anyway. 0, or -1 if the fsync failed (nothing is then marked durable;
 * the syncer will fail on it again and stop tchessd). */
int server_sync_now(struct server *srv, struct game_service *gs);
/* Writes a copy of the whole database to the configured backup path
 * (tchessd(8), BACKUPS), through a new file renamed into place, a few
 * hundred pages per hold of the lock so commands go on meanwhile. Called
 * without the lock (main, on SIGUSR1). 0, or -1 after logging why. */
int server_backup(struct server *srv);
/* With the lock held, after a store_commit: tells the syncer. */
void server_committed(struct server *srv);
/* With the lock held: the commit number a reply sent now must wait for
 * (the store's latest commit), or 0 when every commit is durable. */
uint64_t server_pending_commit(const struct server *srv);

#endif
