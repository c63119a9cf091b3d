/*
 * Games as far as they need no chess rules: listing, a summary, the event
 * log long-poll, and notes. Creating and joining a game here are
 * provisional: they only make the row, fill the seats and log an event, so
 * the long-poll can be exercised; the game service replaces their bodies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "util/log.h"
#include "util/now.h"
#include "util/str.h"
#include "util/token.h"
#include "util/xalloc.h"

/* At most this many events per long-poll answer; the client asks again. */
#define EVENTS_PER_ANSWER 500

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

void api_games_list(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	(void)req;
	struct game_list l = { 0 };
	if (store_games_recent(srv->store, srv->cfg.list_limit, list_add, &l)) {
		free(l.games);
		api_store_failed(srv, reply);
		return;
	}
	http_reply_json(reply, 200, protocol_game_list_encode(l.games, l.n));
	free(l.games);
}

/* Loads the game named in the path into g (released with store_game_fini);
 * false after replying 404/500. */
static bool load_game(struct server *srv, struct http_request *req, struct http_reply *reply, struct store_game *g)
{
	const char *id = req->params[0];
	g->params = NULL;
	if (!protocol_game_id_valid(id)) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return false;
	}
	switch (store_game_get(srv->store, id, g)) {
	case STORE_OK:
		return true;
	case STORE_NOT_FOUND:
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return false;
	default:
		api_store_failed(srv, reply);
		return false;
	}
}

/* Appends one event inside the caller's transaction; false after rolling
 * back and replying 500. */
static bool append(struct server *srv, struct http_reply *reply, const char *game_id, const char *type,
		   const char *payload, int64_t visible_to)
{
	int64_t seq;
	if (store_event_append(srv->store, game_id, type, payload, visible_to, now_wall_ms(), &seq)) {
		api_store_failed(srv, reply);
		return false;
	}
	log_info("game %s: event %lld %s%s", game_id, (long long)seq, type, visible_to ? " (private)" : "");
	return true;
}

/* Commits, wakes the game's polls and replies with the game's summary. */
static void commit_and_reply(struct server *srv, struct http_reply *reply, const char *game_id, int status)
{
	if (store_commit(srv->store)) {
		api_store_failed(srv, reply);
		return;
	}
	server_notify_game(srv, game_id);
	struct store_game g;
	if (store_game_get(srv->store, game_id, &g)) {
		api_store_failed(srv, reply);
		return;
	}
	struct protocol_game_summary s;
	summary_of(&g, &s);
	store_game_fini(&g);
	http_reply_json(reply, status, protocol_game_summary_encode(&s));
}

void api_games_create(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	if (api_auth(srv, req, reply, true, &me) < 0)
		return;
	struct protocol_game_create_request in;
	struct protocol_error err;
	if (protocol_game_create_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
		return;
	}
	struct store_game g = { .created_ms = now_wall_ms(), .white = me.id, .params = in.params };
	strcpy(g.status, "open");
	if (token_random_hex(g.id, TOKEN_ID_BYTES)) {
		protocol_game_create_request_fini(&in);
		http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "no randomness");
		return;
	}
	char *payload = xasprintf("{\"white\":%lld}", (long long)me.id);
	bool ok = !store_begin(srv->store);
	if (ok && store_game_create(srv->store, &g)) {
		ok = false;
		api_store_failed(srv, reply);
	} else if (!ok) {
		api_store_failed(srv, reply);
	}
	if (ok && append(srv, reply, g.id, "game-created", payload, 0))
		commit_and_reply(srv, reply, g.id, 201);
	free(payload);
	protocol_game_create_request_fini(&in);
}

void api_games_get(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_game g;
	if (!load_game(srv, req, reply, &g))
		return;
	struct protocol_game_summary s;
	summary_of(&g, &s);
	store_game_fini(&g);
	http_reply_json(reply, 200, protocol_game_summary_encode(&s));
}

void api_games_join(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct store_game g;
	if (api_auth(srv, req, reply, true, &me) < 0 || !load_game(srv, req, reply, &g))
		return;
	if (g.white == me.id || g.black == me.id) {
		http_reply_error(reply, PROTOCOL_ERR_CONFLICT, "you are already seated in this game");
	} else if (g.white && g.black) {
		http_reply_error(reply, PROTOCOL_ERR_CONFLICT, "both seats are taken");
	} else {
		const char *color = g.white ? "black" : "white";
		if (g.white)
			g.black = me.id;
		else
			g.white = me.id;
		strcpy(g.status, "ready");
		char *payload = xasprintf("{\"color\":\"%s\",\"player\":%lld}", color, (long long)me.id);
		if (store_begin(srv->store) || store_game_update(srv->store, &g))
			api_store_failed(srv, reply);
		else if (append(srv, reply, g.id, "player-joined", payload, 0))
			commit_and_reply(srv, reply, g.id, 200);
		free(payload);
	}
	store_game_fini(&g);
}

void api_games_note(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	struct store_player me;
	struct store_game g;
	if (api_auth(srv, req, reply, true, &me) < 0 || !load_game(srv, req, reply, &g))
		return;
	struct protocol_note_request in;
	struct protocol_error err;
	if (g.white != me.id && g.black != me.id) {
		http_reply_error(reply, PROTOCOL_ERR_FORBIDDEN, "only the game's players keep notes");
	} else if (protocol_note_request_decode(req->body, req->body_len, &in, &err)) {
		http_reply_from_error(reply, &err);
	} else {
		/* The note is re-encoded, never stored as the client sent it. */
		char *payload = protocol_note_request_encode(&in);
		if (store_begin(srv->store))
			api_store_failed(srv, reply);
		else if (append(srv, reply, g.id, "note", payload, me.id))
			commit_and_reply(srv, reply, g.id, 201);
		free(payload);
	}
	store_game_fini(&g);
}

struct event_batch {
	struct protocol_event *events;
	size_t n;
};

static int batch_add(void *arg, const struct store_event *ev)
{
	struct event_batch *b = arg;
	b->events = xrealloc(b->events, (b->n + 1) * sizeof *b->events);
	struct protocol_event *e = &b->events[b->n++];
	e->seq = ev->seq;
	snprintf(e->type, sizeof e->type, "%s", ev->type);
	e->t_ms = ev->created_ms;
	e->data = xstrdup(ev->payload ? ev->payload : "{}");
	return 0;
}

/* Parses ?after=N: a non-negative decimal integer below 2^53. */
static bool parse_after(const char *s, int64_t *out)
{
	if (!s || !*s || strlen(s) > 15 || strspn(s, "0123456789") != strlen(s))
		return false;
	*out = strtoll(s, NULL, 10);
	return true;
}

void api_games_events(struct server *srv, struct http_request *req, struct http_reply *reply)
{
	const char *id = req->params[0];
	struct store_player viewer;
	if (api_auth(srv, req, reply, false, &viewer) < 0)
		return;
	if (!protocol_game_id_valid(id)) {
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return;
	}
	int64_t after = 0;
	const char *a = http_request_query(req, "after");
	if (a && !parse_after(a, &after)) {
		http_reply_error(reply, PROTOCOL_ERR_BAD_REQUEST, "after: expected a non-negative integer");
		return;
	}
	int64_t last;
	switch (store_game_last_seq(srv->store, id, &last)) {
	case STORE_OK:
		break;
	case STORE_NOT_FOUND:
		http_reply_error(reply, PROTOCOL_ERR_NOT_FOUND, "no such game");
		return;
	default:
		api_store_failed(srv, reply);
		return;
	}
	bool must_answer = req->wake == WAITER_TIMEOUT || req->wake == WAITER_DRAIN || srv->draining;
	/* after > last: the client knows a future this server never had (a
	 * restored database); answering at once with seq lets it resync. */
	if (last == after && !must_answer) {
		http_reply_park(reply, id);
		return;
	}
	struct event_batch b = { 0 };
	struct protocol_events evs = { .seq = last, .now_ms = now_wall_ms() };
	if (last > after) {
		enum store_result r = store_events_after(srv->store, id, after, viewer.id, EVENTS_PER_ANSWER,
							 batch_add, &b);
		evs.events = b.events;
		evs.n = b.n;
		if (r) {
			api_store_failed(srv, reply);
			goto out;
		}
		if (b.n == EVENTS_PER_ANSWER)
			evs.seq = b.events[b.n - 1].seq;
	}
	struct protocol_error err;
	char *json = protocol_events_encode(&evs, &err);
	if (!json) {
		log_error("game %s: stored event does not encode: %s", id, err.message);
		http_reply_error(reply, PROTOCOL_ERR_INTERNAL, "stored event does not encode");
	} else {
		http_reply_json(reply, 200, json);
	}
out:
	protocol_events_fini(&evs);
}
