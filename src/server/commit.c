/*
 * Group commit: the syncer thread and the listeners told once commits are
 * durable (commit.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commit.h"
#include "store.h"
#include "util/log.h"

void commit_init(struct commit *c, struct store *store, pthread_mutex_t *lock, int64_t sync_delay_ms)
{
	memset(c, 0, sizeof *c);
	c->store = store;
	c->lock = lock;
	c->sync_delay_ms = sync_delay_ms;
	pthread_cond_init(&c->cond, NULL);
}

void commit_listen(struct commit *c, const struct commit_listener *l)
{
	if (c->n_listeners < COMMIT_LISTENERS_MAX)
		c->listeners[c->n_listeners++] = *l;
	else
		log_error("commit: too many listeners");
}

void commit_unlisten(struct commit *c, void *ctx)
{
	for (int i = 0; i < c->n_listeners; i++) {
		if (c->listeners[i].ctx == ctx) {
			memmove(&c->listeners[i], &c->listeners[i + 1],
				(size_t)(c->n_listeners - i - 1) * sizeof c->listeners[0]);
			c->n_listeners--;
			return;
		}
	}
}

static void begin_all(struct commit *c)
{
	for (int i = 0; i < c->n_listeners; i++) {
		if (c->listeners[i].begin)
			c->listeners[i].begin(c->listeners[i].ctx);
	}
}

static void durable_all(struct commit *c, uint64_t target)
{
	c->durable = target;
	c->syncs++;
	for (int i = 0; i < c->n_listeners; i++)
		c->listeners[i].durable(c->listeners[i].ctx, target);
}

/* The group commit loop of commit.h. */
static void *commit_syncer_main(void *arg)
{
	struct commit *c = arg;
	pthread_mutex_lock(c->lock);
	for (;;) {
		while (!c->stop && store_commits(c->store) == c->durable && !c->wanted)
			pthread_cond_wait(&c->cond, c->lock);
		if (store_commits(c->store) == c->durable && (c->stop || !c->wanted))
			break;
		c->wanted = false;
		uint64_t target = store_commits(c->store);
		begin_all(c);
		pthread_mutex_unlock(c->lock);
		if (c->sync_delay_ms > 0) {
			/* A slow disk, for the tests that check nothing is shown
			 * or acknowledged before its fsync. */
			struct timespec ts = { .tv_sec = (time_t)(c->sync_delay_ms / 1000),
					       .tv_nsec = (long)(c->sync_delay_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
		int rc = store_sync(c->store);
		int saved = errno;
		pthread_mutex_lock(c->lock);
		if (rc) {
			log_error("store: fdatasync of the WAL failed (%s): stopping, as nothing written since "
				  "can be acknowledged",
				  strerror(saved));
			abort();
		}
		durable_all(c, target);
	}
	pthread_mutex_unlock(c->lock);
	return NULL;
}

int commit_start(struct commit *c)
{
	if (!store_syncs(c->store))
		return 0;
	if (pthread_create(&c->syncer, NULL, commit_syncer_main, c))
		return -1;
	c->started = true;
	/* What is committed already (the rebuild's resumed clocks) awaits it
	 * too. */
	pthread_mutex_lock(c->lock);
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(c->lock);
	return 0;
}

void commit_stop(struct commit *c)
{
	if (!c->started)
		return;
	pthread_mutex_lock(c->lock);
	c->stop = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(c->lock);
	pthread_join(c->syncer, NULL);
	c->started = false;
	log_info("store: %llu commits, %llu group fsyncs", (unsigned long long)c->durable,
		 (unsigned long long)c->syncs);
}

void commit_fini(struct commit *c)
{
	commit_stop(c);
	pthread_cond_destroy(&c->cond);
}

int commit_sync_now(struct commit *c)
{
	if (c->started || !store_syncs(c->store) || store_commits(c->store) == c->durable)
		return 0;
	uint64_t target = store_commits(c->store);
	begin_all(c);
	if (store_sync(c->store)) {
		log_error("store: fdatasync of the WAL failed (%s)", strerror(errno));
		return -1;
	}
	durable_all(c, target);
	return 0;
}

void commit_committed(struct commit *c)
{
	if (c->started) {
		c->wanted = true;
		pthread_cond_signal(&c->cond);
	}
	else if (!store_syncs(c->store))
		c->durable = store_commits(c->store);
}

uint64_t commit_pending(const struct commit *c)
{
	if (!store_syncs(c->store))
		return 0;
	uint64_t n = store_commits(c->store);
	return n == c->durable ? 0 : n;
}

bool commit_durable(const struct commit *c, uint64_t n)
{
	return c->durable >= n;
}
