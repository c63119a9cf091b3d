/*
 * The /v1/games handlers: they authenticate, decode the request with the
 * shared codec and hand it to the game service (game-service.h), which owns
 * every rule and transaction, and answers the events long-poll from its
 * live games; the listing reads the store directly. No chess rule lives here:
 * where a request must be refused by one, libtchess says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "game-service.h"
#include "tchess/fen.h"
#include "tchess/game.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"
#include "util/token.h"
#include "util/xalloc.h"

static void summary_of(const struct store_game *g, struct protocol_game_summary *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->id, sizeof s->id, "%s", g->id);
	snprintf(s->status, sizeof s->status, "%s", g->status);
	s->white = g->white;
	s->black = g->black;
	s->created_ms = g->created_ms;
	s->seq = g->last_seq;
}

struct game_list {
	struct protocol_game_summary *games;
	size_t n;
};

static int list_add(void *arg, const struct store_game *g)
{
	struct game_list *l = arg;
	l->games = xrealloc(l->games, (l->n + 1) * sizeof *l->games);
	summary_of(g, &l->games[l->n++]);
	return 0;
}

/* GET /v1/games?prefix=HEX: at most this many games, enough for a client
 * to resolve a short id or name a few of the ids it would need. */
#define API_GAMES_PREFIX_LIMIT 10
/* Eight digits, as the client shows an id: game ids are unguessable (128
 * random bits; watching needs only the id), and a shorter prefix would let
 * anyone list every game in a few thousand queries. */
#define API_GAMES_PREFIX_MIN 8

/* Whether p is a prefix a client may ask for: 8 to 32 lowercase hex
 * digits. */
static bool api_games_prefix_valid(const char *p)
{
	size_t n = strspn(p, "0123456789abcdef");
	return !p[n] && n >= API_GAMES_PREFIX_MIN && n <= PROTOCOL_GAME_ID_MAX;
}

void api_games_list(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct game_list l = { 0 };
	const char *prefix = http_request_query(req, "prefix");
	enum store_result rc;
	/* No token needed; with one, each game's seq is its player's number
	 * (its own private events count), else everyone's. */
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	if (prefix) {
		if (!api_games_prefix_valid(prefix)) {
			http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST,
					 "prefix: expected 8 to 32 lowercase hex digits of a game id");
			return;
		}
		rc = store_games_prefix(srv->store, prefix, API_GAMES_PREFIX_LIMIT, viewer.id, list_add, &l);
	} else {
		rc = store_games_recent(srv->store, srv->cfg.list_limit, viewer.id, list_add, &l);
	}
	if (rc) {
		free(l.games);
		api_store_failed(srv, reply);
		return;
	}
	/* The lobby's details of the games not over, from the game service
	 * (a finished game is not replayed for a list that shows it as over). */
	int64_t now = now_wall_ms();
	for (size_t i = 0; i < l.n; i++) {
		struct protocol_game_summary *s = &l.games[i];
		s->age_ms = now > s->created_ms ? now - s->created_ms : 0;
		if (strcmp(s->status, "over"))
			game_service_summary(srv->games, s);
	}
	http_reply_json(reply, 200, protocol_game_list_encode(l.games, l.n));
	free(l.games);
}

/* Whether a game from the request's start position would be over before
 * its first move (checkmate, stalemate, a dead position, the 75-move
 * rule): such a game is refused (400) rather than stored as a finished game
 * nobody played. A FEN or ruleset that does not parse is left to the game
 * service, which names the error. */
static bool finished_start(const struct protocol_game_create_request *in, struct http_reply *reply)
{
	struct position start;
	struct ruleset rules;
	struct tchess_error terr;
	if (!in->fen[0] || fen_parse(&start, in->fen, &terr) != TCHESS_OK ||
	    !ruleset_preset(&rules, in->ruleset[0] ? in->ruleset : "fide"))
		return false;
	struct game g;
	bool over = game_init(&g, &start, &rules, &terr) == TCHESS_OK && game_is_over(&g);
	if (over)
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "fen: the game would be over before it began (%s)",
				 game_termination_str(g.termination));
	game_fini(&g);
	return over;
}

void api_games_create(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_game_create_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_game_create_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	if (finished_start(&in, reply))
		return;
	struct game_outcome o = { 0 };
	game_service_create(srv->games, me.id, me.name, &in, &o);
	api_reply_outcome(reply, &o);
}

void api_games_get(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	/* A seated player's read is presence (a read itself changes nothing). */
	if (viewer.id)
		game_service_touch(srv->games, viewer.id, req->params[0], 0);
	struct game_outcome o = { 0 };
	game_service_snapshot(srv->games, viewer.id, req->params[0], &o);
	api_reply_outcome(reply, &o);
}

void api_games_pgn(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct game_outcome o = { 0 };
	game_service_pgn(srv->games, req->params[0], &o);
	if (o.failed) {
		api_reply_outcome(reply, &o);
		return;
	}
	http_reply_text(reply, 200, "text/plain; charset=utf-8", o.body);
	o.body = NULL;
	game_outcome_fini(&o);
}

void api_games_join(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_join_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_join_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	struct game_outcome o = { 0 };
	game_service_join(srv->games, me.id, me.name, req->params[0], &in, &o);
	api_reply_outcome(reply, &o);
}

/* A seat command whose body cannot be decoded: refused, and counted
 * among the seat's invalid commands (a broken bot), like one the game
 * refuses. */
static void refuse_body(struct server *srv, struct http_request *req, struct http_reply *reply, int64_t me,
			const struct protocol_error *err)
{
	game_service_invalid(srv->games, me, req->params[0], err);
	http_reply_from_error(reply, err);
}

void api_games_move(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_move_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_move_request_decode(req->body, req->body_len, &in, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	struct game_outcome o = { 0 };
	game_service_move(srv->games, me.id, req->params[0], &in, &o);
	api_reply_outcome(reply, &o);
}

void api_games_premoves_set(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_premoves_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_premoves_request_decode(req->body, req->body_len, &in, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	struct game_outcome o = { 0 };
	game_service_premoves(srv->games, me.id, req->params[0], &in, &o);
	api_reply_outcome(reply, &o);
}

void api_games_premoves_clear(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_empty_request_decode(req->body, req->body_len, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	struct game_outcome o = { 0 };
	game_service_premoves(srv->games, me.id, req->params[0], NULL, &o);
	api_reply_outcome(reply, &o);
}

/* A seat's command with an empty body ({} or none) and nothing to say but
 * its outcome: resign, leave. */
static void seat_command(struct server *srv, struct http_request *req, struct http_reply *reply,
			 void (*command)(struct game_service *, int64_t, const char *, struct game_outcome *))
{
	struct store_player me;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_empty_request_decode(req->body, req->body_len, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	struct game_outcome o = { 0 };
	command(srv->games, me.id, req->params[0], &o);
	api_reply_outcome(reply, &o);
}

void api_games_resign(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	seat_command(srv, req, reply, game_service_resign);
}

/* The seat says it leaves (tchess quitting a game): its opponent hears of
 * it at once, with the instant it will be gone. */
void api_games_leave(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	seat_command(srv, req, reply, game_service_leave);
}

void api_games_note(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct protocol_note_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_note_request_decode(req->body, req->body_len, &in, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	/* The note is re-encoded, never stored as the client sent it. */
	char *payload = protocol_note_request_encode(&in);
	struct game_outcome o = { 0 };
	game_service_note(srv->games, me.id, req->params[0], payload, &o);
	free(payload);
	api_reply_outcome(reply, &o);
}

typedef void (*action_fn)(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out);

/* The game actions share one request shape; a malformed one counts among
 * the seat's invalid commands. */
static void game_action(struct server *srv, struct http_request *req, struct http_reply *reply, action_fn fn)
{
	struct store_player me;
	struct protocol_action_request in;
	struct protocol_error err;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	if (protocol_action_request_decode(req->body, req->body_len, &in, &err)) {
		refuse_body(srv, req, reply, me.id, &err);
		return;
	}
	struct game_outcome o = { 0 };
	fn(srv->games, me.id, req->params[0], &in, &o);
	api_reply_outcome(reply, &o);
}

void api_games_draw(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_draw);
}

void api_games_abort(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_abort);
}

void api_games_adjourn(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_adjourn);
}

void api_games_resume(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_resume);
}

void api_games_claim(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_claim);
}

void api_games_takeback(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_takeback);
}

void api_games_done(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_done);
}

void api_games_rematch(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	game_action(srv, req, reply, game_service_rematch);
}

void api_games_events(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	const char *id = req->params[0];
	/* A seated player's parked poll counted as presence until it comes
	 * back, now: the player who parked it, before anything can refuse
	 * this run (a token replaced meanwhile is 401 now, and the seat must
	 * not stay parked forever). */
	if (req->parked_by)
		game_service_touch(srv->games, req->parked_by, id, -1);
	/* Its client hung up while it was parked (http.c): no answer is
	 * read, and the seat's presence is now its other requests'. */
	if (req->wake == WAITER_GONE) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "the client hung up");
		return;
	}
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	if (!protocol_game_id_valid(id)) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return;
	}
	/* A seated player's poll is presence. */
	if (viewer.id && !req->parked_by)
		game_service_touch(srv->games, viewer.id, id, 0);
	int64_t after = 0;
	const char *a = http_request_query(req, "after");
	if (a && !api_query_number(a, &after)) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "after: expected a non-negative integer");
		return;
	}
	bool must_answer = req->wake == WAITER_TIMEOUT || req->wake == WAITER_DRAIN || srv->draining;
	struct game_outcome o = { 0 };
	if (game_service_events(srv->games, viewer.id, id, after, must_answer, &o) == 1) {
		if (viewer.id)
			game_service_touch(srv->games, viewer.id, id, +1);
		http_reply_park(reply, id, viewer.id);
		game_outcome_fini(&o);
		return;
	}
	/* Only durable events are in it: sent at once, even while some
	 * commit awaits its fsync (http.h). */
	reply->durable = true;
	api_reply_outcome(reply, &o);
}
