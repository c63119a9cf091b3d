/*
 * Group commit (sync = full), and what happens once commits are durable.
 *
 * A transaction commits under the server lock without an fsync (store.h:
 * it then survives kill -9 but not a power loss), and whatever depends on
 * its durability waits for the syncer thread, which loops: take the lock,
 * note the store's commit count (the target) and let each listener note
 * what it has committed so far (begin), drop the lock, fdatasync the WAL
 * (store_sync), take the lock, and tell each listener, in the order they
 * were added, that everything up to the target is durable: the game
 * service then wakes the games' parked polls with the events now durable,
 * and the HTTP side sends the replies held for them. Every commit that
 * arrives during one fsync rides on the next, so at most two fsyncs stand
 * between a commit and its answer, the lock is never held across an
 * fsync, and the disk's rate of synchronous writes bounds the batches per
 * second, not the commands. The guarantees stay those of one fsync per
 * commit: a command is acknowledged only after an fsync begun after its
 * commit returned, and a poll never shows an event beyond the game's
 * durable seq, so no client ever sees what a crash could take back. A
 * failed fsync ends tchessd: the kernel may have dropped the dirty pages,
 * so nothing could be acknowledged truthfully afterwards.
 *
 * With sync = normal every commit counts as durable when it returns (it
 * survives kill -9), nothing waits and the syncer does not run.
 *
 * This file knows the store and the lock only: the game service and the
 * HTTP side are listeners, so neither calls the other through it.
 */
#ifndef TCHESS_SERVER_COMMIT_H
#define TCHESS_SERVER_COMMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct store;

/* What depends on durability, told with the lock held. begin (may be
 * NULL): an fsync starts, covering every commit so far. durable: every
 * commit up to commit number target is durable. */
struct commit_listener {
	void *ctx;
	void (*begin)(void *ctx);
	void (*durable)(void *ctx, uint64_t target);
};

#define COMMIT_LISTENERS_MAX 4

struct commit {
	struct store *store;
	pthread_mutex_t *lock; /* the server lock */
	int64_t sync_delay_ms; /* testing aid: a slow disk (config.h) */
	uint64_t durable;      /* store commits known durable */
	uint64_t syncs;        /* fsyncs done, for the log */
	pthread_t syncer;
	bool started;
	bool stop;
	/* A round is due though this node committed nothing new: events
	 * another node appended, folded here, await a flush that covers them
	 * (commit_committed after a catch-up). */
	bool wanted;
	pthread_cond_t cond; /* a commit awaits the syncer */
	struct commit_listener listeners[COMMIT_LISTENERS_MAX];
	int n_listeners;
};

/* store may be set later (c->store), before commit_start. */
void commit_init(struct commit *c, struct store *store, pthread_mutex_t *lock, int64_t sync_delay_ms);
/* Stops the syncer after a last sync of what is committed, and logs the
 * counts; without the lock. A no-op if it is not running. */
void commit_stop(struct commit *c);
void commit_fini(struct commit *c);
/* Starts the syncer when the store syncs (sync = full), and lets it cover
 * what is committed already. Without the lock; 0 or -1. */
int commit_start(struct commit *c);
/* With the lock held: adds a listener (at most COMMIT_LISTENERS_MAX), or
 * removes the one with ctx. */
void commit_listen(struct commit *c, const struct commit_listener *l);
void commit_unlisten(struct commit *c, void *ctx);
/* With the lock held, after a store_commit, or after folding events
 * another node committed (game_registry_catch_up): tells the syncer,
 * which then runs a round even if this node's commit count is the one it
 * flushed last. */
void commit_committed(struct commit *c);
/* With the lock held: the commit number a reply sent now must wait for
 * (the store's latest commit), or 0 when every commit is durable. */
uint64_t commit_pending(const struct commit *c);
/* With the lock held: whether commit number n (commit_pending's) is durable
 * by now. */
bool commit_durable(const struct commit *c, uint64_t n);
/* With the lock held, before the syncer runs (the game service's rebuild
 * at start-up): one round of the syncer's work, here. The fsync is made
 * with the lock held, the one place it is: no client is connected yet,
 * and engine answers must wait for the rebuild anyway. 0, or -1 if the
 * fsync failed (nothing is then marked durable; the syncer will fail on
 * it again and stop tchessd). */
int commit_sync_now(struct commit *c);

#endif
