/*
 * Server state: opening the store, what is loaded at start, and the
 * notification that links a committed event to the parked polls.
 */
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

static int count_game(void *arg, const struct store_game *g)
{
	int64_t *n = arg;
	(*n)++;
	log_debug("unfinished game %s (%s, last seq %lld)", g->id, g->status, (long long)g->last_seq);
	return 0;
}

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
	/* The game service will rebuild each of these from its events; until
	 * it exists, they are only counted. */
	if (store_games_unfinished(srv->store, count_game, &srv->unfinished_games)) {
		*errmsg = xstrdup("cannot read the unfinished games");
		return -1;
	}
	log_info("store %s open (schema %d), %lld unfinished games", srv->cfg.db, store_schema_version(),
		 (long long)srv->unfinished_games);
	return 0;
}

void server_fini(struct server *srv)
{
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
