/*
 * Server state: opening the store, what is loaded at start, and the
 * notification that links a committed event to the parked polls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "game-service.h"
#include "http.h"
#include "ratelimit.h"
#include "server.h"
#include "tournament-service.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

/* The engine pool for engine seats. Only an engine the operator named is
 * worth refusing to start over; without one, the server serves everything
 * but engine games and says so once. */
static int server_engines(struct server *srv, char **errmsg)
{
	if (srv->cfg.engine_processes == 0) {
		log_warn("engine_processes = 0: no engine seats; engine games are refused");
		return 0;
	}
	struct engine_options o;
	engine_options_init(&o);
	o.path = srv->cfg.engine;
	o.max_engines = srv->cfg.engine_processes;
	char *err = NULL;
	srv->engines = engine_pool_new(&o, &err);
	if (srv->engines)
		return 0;
	if (srv->cfg.engine) {
		*errmsg = xasprintf("--engine: %s", err);
		free(err);
		return -1;
	}
	log_warn("%s; engine games are refused", err);
	free(err);
	return 0;
}

/* The group commit loop of server.h. */
static void *server_syncer_main(void *arg)
{
	struct server *srv = arg;
	pthread_mutex_lock(&srv->lock);
	for (;;) {
		while (!srv->syncer_stop && store_commits(srv->store) == srv->durable)
			pthread_cond_wait(&srv->sync_cond, &srv->lock);
		if (store_commits(srv->store) == srv->durable)
			break;
		uint64_t target = store_commits(srv->store);
		game_service_sync_begin(srv->games);
		pthread_mutex_unlock(&srv->lock);
		if (srv->cfg.sync_delay_ms > 0) {
			/* A slow disk, for the tests that check nothing is shown
			 * or acknowledged before its fsync. */
			struct timespec ts = { .tv_sec = (time_t)(srv->cfg.sync_delay_ms / 1000),
					       .tv_nsec = (long)(srv->cfg.sync_delay_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
		int rc = store_sync(srv->store);
		int saved = errno;
		pthread_mutex_lock(&srv->lock);
		if (rc) {
			log_error("store: fdatasync of the WAL failed (%s): stopping, as nothing written since "
				  "can be acknowledged",
				  strerror(saved));
			abort();
		}
		srv->durable = target;
		srv->syncs++;
		game_service_durable(srv->games);
		if (srv->http)
			http_durable(srv->http, target);
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

int server_sync_now(struct server *srv, struct game_service *gs)
{
	if (srv->syncer_started || !store_syncs(srv->store) || store_commits(srv->store) == srv->durable)
		return 0;
	uint64_t target = store_commits(srv->store);
	game_service_sync_begin(gs);
	if (store_sync(srv->store)) {
		log_error("store: fdatasync of the WAL failed (%s)", strerror(errno));
		return -1;
	}
	srv->durable = target;
	srv->syncs++;
	game_service_durable(gs);
	return 0;
}

void server_committed(struct server *srv)
{
	if (srv->syncer_started)
		pthread_cond_signal(&srv->sync_cond);
	else if (!store_syncs(srv->store))
		srv->durable = store_commits(srv->store);
}

uint64_t server_pending_commit(const struct server *srv)
{
	if (!store_syncs(srv->store))
		return 0;
	uint64_t c = store_commits(srv->store);
	return c == srv->durable ? 0 : c;
}

int server_init(struct server *srv, struct server_config *cfg, char **errmsg)
{
	memset(srv, 0, sizeof *srv);
	srv->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	srv->started_ms = now_wall_ms();
	pthread_mutex_init(&srv->lock, NULL);
	/* 64k buckets of 32 bytes: 2 MiB each, whatever the number of clients. */
	srv->rate_ip = ratelimit_new(srv->cfg.rate_ip_per_s, srv->cfg.rate_ip_burst, 65536);
	srv->rate_token = ratelimit_new(srv->cfg.rate_token_per_s, srv->cfg.rate_token_burst, 65536);
	pthread_cond_init(&srv->sync_cond, NULL);
	struct store_options opts = { .sync_full = srv->cfg.sync_full, .read_only = srv->cfg.read_only };
	srv->store = store_open(srv->cfg.db, &opts, errmsg);
	if (!srv->store)
		return -1;
	log_info("store %s open (schema %d)", srv->cfg.db, store_schema_version());
	if (server_engines(srv, errmsg))
		return -1;
	/* The hooks go in before the timer starts, so no game can end
	 * unrecorded by its tournament. */
	struct game_service_hooks hooks;
	tournament_service_hooks(srv, &hooks);
	srv->games = game_service_new(srv, &hooks, errmsg);
	if (!srv->games)
		return -1;
	if (store_syncs(srv->store)) {
		if (pthread_create(&srv->syncer, NULL, server_syncer_main, srv)) {
			*errmsg = xstrdup("cannot start the syncer thread");
			return -1;
		}
		srv->syncer_started = true;
		/* The rebuild's commits (clocks resumed) await it too. */
		pthread_mutex_lock(&srv->lock);
		pthread_cond_signal(&srv->sync_cond);
		pthread_mutex_unlock(&srv->lock);
	}
	return 0;
}

/* Stops the syncer after a last sync of what is committed. */
static void server_stop_syncer(struct server *srv)
{
	if (!srv->syncer_started)
		return;
	pthread_mutex_lock(&srv->lock);
	srv->syncer_stop = true;
	pthread_cond_signal(&srv->sync_cond);
	pthread_mutex_unlock(&srv->lock);
	pthread_join(srv->syncer, NULL);
	srv->syncer_started = false;
	log_info("store: %llu commits, %llu group fsyncs", (unsigned long long)srv->durable,
		 (unsigned long long)srv->syncs);
}

void server_fini(struct server *srv)
{
	/* Withdraw the games' engine requests, then free the pool without the
	 * lock (answers already on their way take it, see that the service is
	 * stopping and drop themselves), then the games. */
	game_service_stop_engines(srv->games);
	if (srv->engines) {
		struct engine_stats st;
		engine_pool_stats(srv->engines, &st);
		log_info("engine: %llu requests, %llu answered, %llu failed, %llu withdrawn, %llu processes "
			 "started, %llu lost",
			 (unsigned long long)st.requests, (unsigned long long)st.answered,
			 (unsigned long long)st.failed, (unsigned long long)st.cancelled,
			 (unsigned long long)st.spawned, (unsigned long long)st.restarts);
	}
	engine_pool_free(srv->engines);
	srv->engines = NULL;
	server_stop_syncer(srv);
	game_service_free(srv->games);
	srv->games = NULL;
	store_close(srv->store);
	srv->store = NULL;
	ratelimit_free(srv->rate_ip);
	ratelimit_free(srv->rate_token);
	srv->rate_ip = srv->rate_token = NULL;
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->sync_cond);
	config_fini(&srv->cfg);
}

bool server_game_watched(const struct server *srv, const char *game_id)
{
	return http_watched(srv->http, game_id);
}

void server_notify_game(struct server *srv, const char *game_id)
{
	if (srv->http)
		http_wake_game(srv->http, game_id);
}

/* Pages copied per hold of the server lock: a few ms of copying, so a
 * backup of a large database delays no command by much. */
#define SERVER_BACKUP_PAGES 256

int server_backup(struct server *srv)
{
	char err[512] = "", *path, *tmp;
	if (srv->cfg.backup && *srv->cfg.backup)
		path = xstrdup(srv->cfg.backup);
	else
		path = xasprintf("%s.backup", srv->cfg.db);
	tmp = xasprintf("%s.tmp", path);
	int64_t t0 = now_mono_ms();
	unlink(tmp);
	pthread_mutex_lock(&srv->lock);
	struct store_backup *b = store_backup_begin(srv->store, tmp, err, sizeof err);
	pthread_mutex_unlock(&srv->lock);
	int rc = b ? 1 : -1;
	while (rc == 1) {
		pthread_mutex_lock(&srv->lock);
		rc = store_backup_step(b, SERVER_BACKUP_PAGES, err, sizeof err);
		pthread_mutex_unlock(&srv->lock);
	}
	if (b && store_backup_finish(b, rc == 0, err, sizeof err))
		rc = -1;
	if (rc == 0 && rename(tmp, path)) {
		snprintf(err, sizeof err, "rename to %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(tmp);
		log_error("backup: %s", err);
	} else {
		struct stat sb;
		long long kib = stat(path, &sb) ? -1 : (long long)(sb.st_size / 1024);
		log_info("backup: wrote %s (%lld KiB) in %lld ms", path, kib, (long long)(now_mono_ms() - t0));
	}
	free(tmp);
	free(path);
	return rc ? -1 : 0;
}
