/*
 * Several tchessd nodes on one PostgreSQL database (tchessd(8), CLUSTER):
 * what each node tells the others, and what it does with what it hears.
 *
 * Correctness needs no messages: every command appends at the seq its
 * fold expects, and a node behind its game's log is refused, catches up
 * and runs the command again (game-txn.c). The messages make it quick:
 * a node that made events durable tells the others (game id and seq) so
 * they fold them and wake their parked polls; it tells which seats it saw
 * (a request, or a poll parked on it), so another node does not count a
 * player gone who polls elsewhere; and which aborted games it erased.
 *
 * One thread per node owns the store's channel (store_channel_*): it
 * sends what the node queued since its last send as one batch (a few
 * messages of up to STORE_CHANNEL_MAX bytes), once per round: with
 * sync = full the group commit queues a game once its fsync is done, so
 * one message follows each flush, never one per command. It hands what
 * it hears to the game service under the server lock, the games of a
 * message together: their events, up to the seqs told, are one read. When the channel
 * breaks and is opened again, messages may have been lost: every game in
 * memory then catches up with its log, so a lost message delays an event
 * (at most until then) but never loses or reorders one; polls are by seq.
 *
 * Ownership for timers only (cluster_owns): each game has one owner
 * among the nodes alive, which runs its flag, chores and engine seat;
 * every 2 s each node writes its heartbeat and reads who is alive, and
 * when that changes the new owners load the unfinished games they now
 * own from the store, so a dead node's games are flagged at their
 * instants by another. Correctness never depends on it: two nodes that
 * both think they own a game (during a change) race on the seq guard.
 *
 * A message: "NODE|ENTRY ENTRY ...", each entry "ID:SEQ" (events up to
 * SEQ are durable), "ID+w" or "ID+b" (that seat was seen), "ID!" (the
 * game was erased) or "ID=SEQ,VISIBLE_TO,T_MS,TYPE,LEN:PAYLOAD", an event
 * this node committed (LEN bytes of payload, which may hold spaces), before
 * the "ID:SEQ" that covers it: a node holding the game just before SEQ
 * folds it from the message, one behind reads what it misses from the
 * store. A node ignores its own.
 */
#ifndef TCHESS_SERVER_CLUSTER_H
#define TCHESS_SERVER_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

struct server;
struct cluster;

/* How often a seat parked here is told again, and the least time between
 * two tellings of a seat seen (a disconnect grace shorter than twice this
 * is not kept across nodes). */
#define CLUSTER_PRESENCE_MS 2000

/* A node whose heartbeat is older than this counts as gone (a frozen
 * process; a killed one is gone at once). */
#define CLUSTER_NODE_TTL_MS 10000
#define CLUSTER_NODES_MAX 64

/* Opens the channel when the store is shared (store_shared): NULL without
 * *errmsg when it is not, NULL with it on failure. */
struct cluster *cluster_new(struct server *srv, char **errmsg);
/* Starts the thread (then every game in memory catches up once, for what
 * was committed before the channel opened). 0 or -1. Without the lock. */
int cluster_start(struct cluster *c);
/* Sends what is queued, stops the thread and closes the channel; NULL is
 * a no-op. Without the lock. */
void cluster_free(struct cluster *c);

/* FNV-1a over the node's name and the id: the rendezvous score
 * (cluster_owns; here so that tests can tell a game's owner). */
static inline uint64_t cluster_score(const char *node, const char *id)
{
	uint64_t h = 1469598103934665603ULL;
	for (const char *p = node; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h = (h ^ '|') * 1099511628211ULL;
	for (const char *p = id; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	/* A final mix, so ids that differ in their last character do not
	 * order the nodes alike. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/* Whether this node times game id (its flag and chores) and runs its
 * engine seats: the alive node with the highest hash of its name and the
 * id (rendezvous hashing), so every node agrees without asking and a
 * node's games spread over the others when it goes. True when c is NULL
 * or the nodes alive are not known (the channel down: every node then
 * times what it holds; the seq guard keeps each effect single). With the
 * server lock held. */
bool cluster_owns(const struct cluster *c, const char *id);
/* Whether this node knows it is the only one alive (or c is NULL): what
 * it reads of the store then cannot change behind its back. With the
 * server lock held. */
bool cluster_alone(const struct cluster *c);

/* With the server lock held; c may be NULL (one node: nothing to tell). */
void cluster_tell_events(struct cluster *c, const char *id, int64_t seq);
/* One event of those cluster_tell_events then says are durable, which
 * this node committed: the others fold it from the message instead of
 * reading it from the store (left out if it does not fit one message). */
struct store_event;
void cluster_tell_event(struct cluster *c, const struct store_event *ev);
void cluster_tell_seen(struct cluster *c, const char *id, int color);
void cluster_tell_erased(struct cluster *c, const char *id);

#endif
