/*
 * The handlers of the protocol's routes (tchess/routes.h has their methods
 * and paths), authentication and GET /v1/health.
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
	{ ROUTE_HEALTH, api_health },
	{ ROUTE_PLAYERS_CREATE, api_players_create },
	{ ROUTE_ME, api_me },
	{ ROUTE_ME_TOKEN, api_me_token },
	{ ROUTE_GAMES_LIST, api_games_list },
	{ ROUTE_GAMES_CREATE, api_games_create },
	{ ROUTE_GAME, api_games_get },
	{ ROUTE_GAME_JOIN, api_games_join },
	{ ROUTE_GAME_PGN, api_games_pgn },
	{ ROUTE_GAME_MOVE, api_games_move },
	{ ROUTE_GAME_PREMOVES_SET, api_games_premoves_set },
	{ ROUTE_GAME_PREMOVES_CLEAR, api_games_premoves_clear },
	{ ROUTE_GAME_RESIGN, api_games_resign },
	{ ROUTE_GAME_NOTE, api_games_note },
	{ ROUTE_GAME_DRAW, api_games_draw },
	{ ROUTE_GAME_ABORT, api_games_abort },
	{ ROUTE_GAME_ADJOURN, api_games_adjourn },
	{ ROUTE_GAME_RESUME, api_games_resume },
	{ ROUTE_GAME_CLAIM, api_games_claim },
	{ ROUTE_GAME_TAKEBACK, api_games_takeback },
	{ ROUTE_GAME_DONE, api_games_done },
	{ ROUTE_GAME_REMATCH, api_games_rematch },
	{ ROUTE_GAME_LEAVE, api_games_leave },
	{ ROUTE_GAME_EVENTS, api_games_events },
	{ ROUTE_ME_GAMES, api_me_games },
	{ ROUTE_ME_GAMES_FINISHED, api_me_games_finished },
	{ ROUTE_ME_VACATIONS_LIST, api_me_vacations_list },
	{ ROUTE_ME_VACATIONS_BOOK, api_me_vacations_book },
	{ ROUTE_ME_VACATION_CANCEL, api_me_vacations_cancel },
	{ ROUTE_TOURNAMENTS_LIST, api_tournaments_list },
	{ ROUTE_TOURNAMENTS_CREATE, api_tournaments_create },
	{ ROUTE_TOURNAMENT, api_tournaments_get },
	{ ROUTE_TOURNAMENT_STANDINGS, api_tournaments_standings },
	{ ROUTE_TOURNAMENT_CROSSTABLE, api_tournaments_crosstable },
	{ ROUTE_TOURNAMENT_GAMES, api_tournaments_games },
	{ ROUTE_TOURNAMENT_REGISTER, api_tournaments_register },
	{ ROUTE_TOURNAMENT_WITHDRAW, api_tournaments_withdraw },
	{ ROUTE_TEST_CLOCK, api_test_clock },
	{ ROUTE_COUNT, NULL },
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
	if (req->token_hashed)
		memcpy(hash, req->token_hash, sizeof hash);
	else
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

static char *answer_encode(void *ctx, int *status)
{
	return game_answer_encode(ctx, status);
}

void api_reply_outcome(struct http_reply *reply, struct game_outcome *o)
{
	if (o->later && !o->failed) {
		http_reply_later(reply, answer_encode, o->later);
		o->later = NULL;
	} else if (o->failed) {
		http_reply_from_error(reply, &o->err);
		/* A game's churn limit (events_per_ply) lifts at the next move:
		 * a client's retry comes back after a few seconds. */
		if (o->err.code == PROTOCOL_ERR_RATE_LIMITED)
			reply->retry_after_s = 5;
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
