/*
 * Server state: opening the store, the group commit, the engine pool and
 * the game service in order, closing them in reverse, and online backups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "engine/engine.h"
#include "game-service.h"
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
	o.nice = srv->cfg.engine_nice;
	o.on_start = game_service_engine_started;
	o.on_start_arg = srv;
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

int server_init(struct server *srv, struct server_config *cfg, char **errmsg)
{
	memset(srv, 0, sizeof *srv);
	srv->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	srv->started_ms = now_wall_ms();
	pthread_mutex_init(&srv->lock, NULL);
	commit_init(&srv->commit, NULL, &srv->lock, srv->cfg.sync_delay_ms);
	/* 64k buckets of 32 bytes: 2 MiB each, whatever the number of clients. */
	srv->rate_ip = ratelimit_new(srv->cfg.rate_ip_per_s, srv->cfg.rate_ip_burst, 65536);
	srv->rate_token = ratelimit_new(srv->cfg.rate_token_per_s, srv->cfg.rate_token_burst, 65536);
	srv->rate_register = ratelimit_new_per(srv->cfg.register_per_hour, 3600 * 1000, srv->cfg.register_per_hour, 65536);
	srv->rate_vacation = ratelimit_new_per(srv->cfg.vacation_changes_per_day, 86400000, srv->cfg.vacation_changes_per_day, 4096);
	struct store_options opts = {
		.sync_full = srv->cfg.sync_full, .read_only = srv->cfg.read_only, .node = srv->cfg.node};
	srv->store = store_open(srv->cfg.db, &opts, errmsg);
	if (!srv->store)
		return -1;
	srv->commit.store = srv->store;
	/* A connection URI may hold a password: only a file's path is shown. */
	log_info("store open: %s %s, schema %d", store_kind(srv->store),
		 store_is_postgresql(srv->cfg.db) ? "database" : srv->cfg.db, store_schema_version(srv->store));
	if (server_engines(srv, errmsg))
		return -1;
	/* The hooks go in before the timer starts, so no game can end
	 * unrecorded by its tournament. */
	struct game_service_hooks hooks;
	srv->tournaments.store = srv->store;
	tournament_service_hooks(&srv->tournaments, &hooks);
	srv->games = game_service_new(srv, &hooks, errmsg);
	if (!srv->games)
		return -1;
	srv->tournaments.games = srv->games;
	if (commit_start(&srv->commit)) {
		*errmsg = xstrdup("cannot start the syncer thread");
		return -1;
	}
	/* After the rebuild, which counted the other nodes before this one
	 * joined them; what they did meanwhile is caught up at its start. */
	srv->cluster = cluster_new(srv, errmsg);
	if (*errmsg)
		return -1;
	if (cluster_start(srv->cluster)) {
		*errmsg = xstrdup("cannot start the node channel's thread");
		return -1;
	}
	return 0;
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
	/* A last sync of what is committed, with the game service still
	 * there to hear of it. */
	commit_stop(&srv->commit);
	/* Then what that sync made durable is told, and nothing more heard. */
	cluster_free(srv->cluster);
	srv->cluster = NULL;
	game_service_free(srv->games);
	srv->games = NULL;
	store_close(srv->store);
	srv->store = NULL;
	ratelimit_free(srv->rate_ip);
	ratelimit_free(srv->rate_token);
	ratelimit_free(srv->rate_register);
	ratelimit_free(srv->rate_vacation);
	srv->rate_ip = srv->rate_token = srv->rate_register = srv->rate_vacation = NULL;
	commit_fini(&srv->commit);
	pthread_mutex_destroy(&srv->lock);
	config_fini(&srv->cfg);
}

int64_t server_limit_take(struct server *srv, struct ratelimit *local, const char *kind, const char *key,
			  int64_t tokens, int64_t period_ms, int64_t burst)
{
	int64_t wait;
	if (tokens > 0 && srv->cluster &&
	    store_bucket_take(srv->store, kind, key, tokens, period_ms, burst, &wait) == STORE_OK)
		return wait;
	return ratelimit_take(local, key, strlen(key), now_mono_ms());
}

/* Pages copied per hold of the server lock: a few ms of copying, so a
 * backup of a large database delays no command by much. */
#define SERVER_BACKUP_PAGES 256

int server_backup(struct server *srv)
{
	char err[512] = "", *path, *tmp;
	if (store_is_postgresql(srv->cfg.db)) {
		/* No file to write: the store says why. */
		store_backup_begin(srv->store, NULL, err, sizeof err);
		log_error("backup: %s", err);
		return -1;
	}
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
