/*
 * The /v1/tournaments handlers: authenticate, decode with the shared codec
 * (tchess/protocol-tournament.h) and hand over to the tournament service,
 * which owns every rule and transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "tournament-service.h"

/* Turns a service answer (always a body or an error) into the reply. */
/* An optional player id in a query argument: a positive decimal. */
static bool query_player(const char *s, int64_t *out)
{
	return api_query_number(s, out) && *out > 0;
}

void api_tournaments_list(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	struct game_outcome o = { 0 };
	tournament_service_list(&srv->tournaments, viewer.id, &o);
	api_reply_outcome(reply, &o);
}

void api_tournaments_create(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_tournament_create_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_tournament_create_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	struct game_outcome o = { 0 };
	tournament_service_create(&srv->tournaments, me.id, &in, &o);
	api_reply_outcome(reply, &o);
}

static void get_parts(struct server *srv, struct http_request *req, struct http_reply *reply, unsigned parts)
{
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	int64_t games_of = 0;
	if (parts & PROTOCOL_TOURNAMENT_GAMES) {
		const char *player = http_request_query(req, "player");
		const char *mine = http_request_query(req, "mine");
		if (player && !query_player(player, &games_of)) {
			http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "player: expected a player id");
			return;
		}
		if (mine && !strcmp(mine, "1")) {
			if (!viewer.id) {
				http_reply_error(reply, PROTOCOL_ERR_UNAUTHORIZED, "mine=1 needs a token");
				return;
			}
			games_of = viewer.id;
		}
	}
	struct game_outcome o = { 0 };
	tournament_service_get(&srv->tournaments, viewer.id, req->params[0], parts, games_of, &o);
	api_reply_outcome(reply, &o);
}

void api_tournaments_get(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	get_parts(srv, req, reply, PROTOCOL_TOURNAMENT_ALL);
}

void api_tournaments_standings(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	get_parts(srv, req, reply, PROTOCOL_TOURNAMENT_STANDINGS);
}

void api_tournaments_crosstable(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	get_parts(srv, req, reply, PROTOCOL_TOURNAMENT_CROSSTABLE);
}

void api_tournaments_games(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	get_parts(srv, req, reply, PROTOCOL_TOURNAMENT_GAMES);
}

void api_tournaments_register(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth_empty(srv, req, reply, &me) < 0)
		return;
	struct game_outcome o = { 0 };
	tournament_service_register(&srv->tournaments, me.id, req->params[0], &o);
	api_reply_outcome(reply, &o);
}

void api_tournaments_withdraw(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth_empty(srv, req, reply, &me) < 0)
		return;
	struct game_outcome o = { 0 };
	tournament_service_withdraw(&srv->tournaments, me.id, req->params[0], &o);
	api_reply_outcome(reply, &o);
}
