/*
 * The /v1 API handlers (api-*.c) and what they share: the route table and
 * bearer-token authentication. Handlers run with the server lock held, read
 * and write through the store in one transaction per command, and reply
 * only after the commit; http.c then holds the reply until that commit is
 * durable (group commit, server.h).
 */
#ifndef TCHESS_SERVER_API_H
#define TCHESS_SERVER_API_H

#include "http.h"

/* Every route, ending with a NULL method. */
extern const struct http_route api_routes[];

/* Authenticates the request's "Authorization: Bearer TOKEN". Returns 1 with
 * *out filled, 0 if there is no Authorization header and !required (out->id
 * is then 0), or -1 after replying 401 (or 500). */
int api_auth(struct server *srv, struct http_request *req, struct http_reply *reply, bool required,
	     struct store_player *out);
/* api_auth (a token required) for a command whose request is {} (or no
 * body): returns 1, or -1 after answering 401 or 400. */
int api_auth_empty(struct server *srv, struct http_request *req, struct http_reply *reply, struct store_player *out);
/* Replies 500 for a store failure and rolls back any open transaction. */
void api_store_failed(struct server *srv, struct http_reply *reply);

struct game_outcome;
/* Replies with what a game or tournament service command answered: its
 * error, its JSON body, the events it committed (status 200 unless the
 * outcome names one), or a read's answer to encode after the lock
 * (http_reply_later). Releases the outcome. */
void api_reply_outcome(struct http_reply *reply, struct game_outcome *o);
/* Reads a query argument that must be a decimal integer from 0 to
 * 10^15 - 1 (below 2^53, as JSON carries it); false for anything else. */
bool api_query_number(const char *s, int64_t *out);

void api_health(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_players_create(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me_token(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_list(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_create(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_get(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_join(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_pgn(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_move(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_premoves_set(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_premoves_clear(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_resign(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_leave(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_note(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_draw(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_abort(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_adjourn(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_resume(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_claim(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_takeback(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_done(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_rematch(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_games_events(struct server *srv, struct http_request *req, struct http_reply *reply);
/* api-tournaments.c */
void api_tournaments_list(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_create(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_get(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_standings(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_crosstable(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_games(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_register(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_tournaments_withdraw(struct server *srv, struct http_request *req, struct http_reply *reply);
/* api-me.c */
void api_me_games(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me_games_finished(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me_vacations_list(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me_vacations_book(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_me_vacations_cancel(struct server *srv, struct http_request *req, struct http_reply *reply);
void api_test_clock(struct server *srv, struct http_request *req, struct http_reply *reply);
/* The player's credit balance into *out; -1 on a store failure. */
int api_me_credits(struct server *srv, int64_t me, int64_t *out);

#endif
