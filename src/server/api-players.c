/*
 * Players: POST /v1/players registers a name and hands out a bearer token;
 * GET /v1/me says whose token it is; POST /v1/me/token replaces it (a
 * token that leaked). The token (256 random bits) is shown once and stored
 * only as its SHA-256.
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "util/log.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/str.h"
#include "util/token.h"
#include "util/xalloc.h"

/* A fresh token and its hash, or -1 with the error answered. */
static int new_token(char token[TOKEN_HEX_LEN + 1], uint8_t hash[SHA256_DIGEST_SIZE], struct http_reply *reply)
{
	if (token_random_hex(token, TOKEN_BYTES)) {
		log_error("getrandom failed");
		http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "no randomness");
		return -1;
	}
	sha256(token, strlen(token), hash);
	return 0;
}

void api_players_create(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct protocol_register_request in;
	struct protocol_error err;
	if (protocol_register_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	struct protocol_register_response out = { 0 };
	char token[TOKEN_HEX_LEN + 1];
	uint8_t hash[SHA256_DIGEST_SIZE];
	if (new_token(token, hash, reply))
		return;
	if (store_begin(srv->store)) {
		api_store_failed(srv, reply);
		return;
	}
	switch (store_player_create(srv->store, in.name, hash, now_wall_ms(), &out.player)) {
	case STORE_OK:
		break;
	case STORE_CONFLICT:
		store_rollback(srv->store);
		http_reply_error(reply, PROTOCOL_ERR_CONFLICT, "name \"%s\" is taken", in.name);
		return;
	default:
		api_store_failed(srv, reply);
		return;
	}
	if (store_commit(srv->store)) {
		api_store_failed(srv, reply);
		return;
	}
	log_info("player %lld registered as %s", (long long)out.player, in.name);
	memcpy(out.name, in.name, sizeof out.name);
	memcpy(out.token, token, sizeof token);
	http_reply_json(reply, 201, protocol_register_response_encode(&out));
}

void api_me(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	struct protocol_player p = { .player = me.id };
	str_copy(p.name, me.name, sizeof p.name);
	if (api_me_credits(srv, me.id, &p.credits)) {
		api_store_failed(srv, reply);
		return;
	}
	http_reply_json(reply, 200, protocol_player_encode(&p));
}

void api_me_token(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth_empty(srv, req, reply, &me) < 0)
		return;
	struct protocol_register_response out = { .player = me.id };
	char token[TOKEN_HEX_LEN + 1];
	uint8_t hash[SHA256_DIGEST_SIZE];
	if (new_token(token, hash, reply))
		return;
	if (store_begin(srv->store) || store_player_set_token_hash(srv->store, me.id, hash) ||
	    store_commit(srv->store)) {
		api_store_failed(srv, reply);
		return;
	}
	log_info("player %lld has a new token", (long long)me.id);
	str_copy(out.name, me.name, sizeof out.name);
	memcpy(out.token, token, sizeof token);
	http_reply_json(reply, 200, protocol_register_response_encode(&out));
}
