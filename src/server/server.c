/*
 * Server state: opening the store, what is loaded at start, and the
 * notification that links a committed event to the parked polls.
 */
#include <stdlib.h>
#include <string.h>

#include "game-service.h"
#include "http.h"
#include "server.h"
#include "tournament-service.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

int server_init(struct server *srv, struct server_config *cfg, char **errmsg)
{
	memset(srv, 0, sizeof *srv);
	srv->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	srv->started_ms = now_wall_ms();
	pthread_mutex_init(&srv->lock, NULL);
	struct store_options opts = { .sync_full = srv->cfg.sync_full };
	srv->store = store_open(srv->cfg.db, &opts, errmsg);
	if (!srv->store)
		return -1;
	log_info("store %s open (schema %d)", srv->cfg.db, store_schema_version());
	/* Under the lock, so the flag timer cannot end a game before the
	 * tournament hooks are in place. */
	pthread_mutex_lock(&srv->lock);
	srv->games = game_service_new(srv, errmsg);
	if (srv->games)
		tournament_service_attach(srv);
	pthread_mutex_unlock(&srv->lock);
	if (!srv->games)
		return -1;
	return 0;
}

void server_fini(struct server *srv)
{
	game_service_free(srv->games);
	srv->games = NULL;
	store_close(srv->store);
	srv->store = NULL;
	pthread_mutex_destroy(&srv->lock);
	config_fini(&srv->cfg);
}

void server_notify_game(struct server *srv, const char *game_id)
{
	if (srv->http)
		http_wake_game(srv->http, game_id);
}
