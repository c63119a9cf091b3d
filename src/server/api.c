/*
 * The route table, authentication and GET /v1/health.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "game-service.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/str.h"

const struct http_route api_routes[] = {
	{ "GET", "/v1/health", api_health },
	{ "POST", "/v1/players", api_players_create },
	{ "GET", "/v1/me", api_me },
	{ "POST", "/v1/me/token", api_me_token },
	{ "GET", "/v1/games", api_games_list },
	{ "POST", "/v1/games", api_games_create },
	{ "GET", "/v1/games/:", api_games_get },
	{ "POST", "/v1/games/:/join", api_games_join },
	{ "GET", "/v1/games/:/pgn", api_games_pgn },
	{ "POST", "/v1/games/:/moves", api_games_move },
	{ "PUT", "/v1/games/:/premoves", api_games_premoves_set },
	{ "DELETE", "/v1/games/:/premoves", api_games_premoves_clear },
	{ "POST", "/v1/games/:/resign", api_games_resign },
	{ "POST", "/v1/games/:/notes", api_games_note },
	{ "POST", "/v1/games/:/draw", api_games_draw },
	{ "POST", "/v1/games/:/abort", api_games_abort },
	{ "POST", "/v1/games/:/adjourn", api_games_adjourn },
	{ "POST", "/v1/games/:/resume", api_games_resume },
	{ "POST", "/v1/games/:/claim", api_games_claim },
	{ "POST", "/v1/games/:/takeback", api_games_takeback },
	{ "POST", "/v1/games/:/done", api_games_done },
	{ "POST", "/v1/games/:/rematch", api_games_rematch },
	{ "GET", "/v1/games/:/events", api_games_events },
	{ "GET", "/v1/me/games", api_me_games },
	{ "GET", "/v1/me/vacations", api_me_vacations_list },
	{ "POST", "/v1/me/vacations", api_me_vacations_book },
	{ "DELETE", "/v1/me/vacations/:", api_me_vacations_cancel },
	{ "GET", "/v1/tournaments", api_tournaments_list },
	{ "POST", "/v1/tournaments", api_tournaments_create },
	{ "GET", "/v1/tournaments/:", api_tournaments_get },
	{ "GET", "/v1/tournaments/:/standings", api_tournaments_standings },
	{ "GET", "/v1/tournaments/:/crosstable", api_tournaments_crosstable },
	{ "GET", "/v1/tournaments/:/games", api_tournaments_games },
	{ "POST", "/v1/tournaments/:/register", api_tournaments_register },
	{ "POST", "/v1/tournaments/:/withdraw", api_tournaments_withdraw },
	{ "POST", "/v1/test/clock", api_test_clock },
	{ NULL, NULL, NULL },
};

void api_store_failed(struct server *srv, struct http_reply *reply)
{
	store_rollback(srv->store);
	http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "storage failure");
}

int api_auth(struct server *srv, struct http_request *req, struct http_reply *reply, bool required,
	     struct store_player *out)
{
	memset(out, 0, sizeof *out);
	const char *h = http_request_header(req, "Authorization");
	if (!h) {
		if (!required)
			return 0;
		http_reply_error(reply, PROTOCOL_ERR_UNAUTHORIZED, "this needs \"Authorization: Bearer TOKEN\"");
		return -1;
	}
	static const char scheme[] = "Bearer ";
	size_t len = strlen(h);
	if (len <= sizeof scheme - 1 || strncmp(h, scheme, sizeof scheme - 1) ||
	    len - (sizeof scheme - 1) > PROTOCOL_TOKEN_MAX) {
		http_reply_error(reply, PROTOCOL_ERR_UNAUTHORIZED, "malformed Authorization header");
		return -1;
	}
	const char *token = h + sizeof scheme - 1;
	uint8_t hash[SHA256_DIGEST_SIZE];
	sha256(token, strlen(token), hash);
	switch (store_player_by_token_hash(srv->store, hash, out)) {
	case STORE_OK:
		return 1;
	case STORE_NOT_FOUND:
		http_reply_error(reply, PROTOCOL_ERR_UNAUTHORIZED, "unknown token");
		return -1;
	default:
		api_store_failed(srv, reply);
		return -1;
	}
}

int api_auth_empty(struct server *srv, struct http_request *req, struct http_reply *reply, struct store_player *out)
{
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, out) < 0)
		return -1;
	if (protocol_empty_request_decode(req->body, req->body_len, &err)) {
		http_reply_from_error(reply, &err);
		return -1;
	}
	return 1;
}

void api_health(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	(void)req;
	struct protocol_health h = {
		.protocol = PROTOCOL_VERSION,
		.parked = (int64_t)http_parked(srv->http),
		.now_ms = now_wall_ms(),
	};
	size_t live, evicted;
	game_service_counts(srv->games, &live, &evicted);
	h.games = (int64_t)live;
	h.evicted = (int64_t)evicted;
	strcpy(h.status, srv->draining ? "draining" : "ok");
	snprintf(h.version, sizeof h.version, "%s", TCHESS_VERSION);
	http_reply_json(reply, 200, protocol_health_encode(&h));
	/* No game state in it: never held for a pending fsync. */
	reply->durable = true;
}

void api_reply_outcome(struct http_reply *reply, struct game_outcome *o)
{
	if (o->failed) {
		http_reply_from_error(reply, &o->err);
	} else if (o->body) {
		http_reply_json(reply, o->status ? o->status : 200, o->body);
		o->body = NULL;
	} else {
		struct protocol_error err;
		char *json = protocol_events_encode_own(&o->events);
		if (!json)
			json = protocol_events_encode(&o->events, &err);
		if (json)
			http_reply_json(reply, o->status ? o->status : 200, json);
		else
			http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "event does not encode: %s", err.message);
	}
	game_outcome_fini(o);
}

bool api_query_number(const char *s, int64_t *out)
{
	if (!s || !*s || strlen(s) > 15 || strspn(s, "0123456789") != strlen(s))
		return false;
	*out = strtoll(s, NULL, 10);
	return true;
}
