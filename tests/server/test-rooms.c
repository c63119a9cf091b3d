/*
 * The game service's rooms in process: struct server up on an in-memory
 * SQLite store (":memory:"), and the game_service_* commands called the way
 * the HTTP handlers call them, with the server lock held, but without HTTP,
 * sockets or a tchessd process. Each case checks what a command answers
 * (status, error code and text, the events it committed) and what the game
 * then is (its snapshot, read back through the fold), so a room's rule can
 * be tested where it lives.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-service.h"
#include "server.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"
#include "util/log.h"

struct rooms {
	struct server srv;
	int64_t alice, bob, carol;
	char game[PROTOCOL_GAME_ID_MAX + 1];
};

static int64_t player(struct rooms *r, const char *name, uint8_t seed)
{
	uint8_t hash[STORE_HASH_SIZE];
	memset(hash, seed, sizeof hash);
	int64_t id = 0;
	ck_assert_int_eq(store_player_create(r->srv.store, name, hash, 1, &id), STORE_OK);
	return id;
}

static void rooms_up(struct rooms *r)
{
	memset(r, 0, sizeof *r);
	struct server_config cfg;
	char *err = NULL;
	config_init(&cfg);
	ck_assert_int_eq(config_set(&cfg, "db", ":memory:", &err), 0);
	ck_assert_int_eq(config_set(&cfg, "sync", "normal", &err), 0);
	ck_assert_int_eq(config_set(&cfg, "engine_processes", "0", &err), 0);
	ck_assert_msg(server_init(&r->srv, &cfg, &err) == 0, "server_init: %s", err ? err : "?");
	r->alice = player(r, "alice", 1);
	r->bob = player(r, "bob", 2);
	r->carol = player(r, "carol", 3);
}

static void rooms_down(struct rooms *r)
{
	server_fini(&r->srv);
}

/* Runs one command as a handler does: under the server lock. */
#define LOCKED(r, call)                                    \
	do {                                               \
		pthread_mutex_lock(&(r)->srv.lock);        \
		call;                                      \
		pthread_mutex_unlock(&(r)->srv.lock);      \
	} while (0)

static void ok(struct game_outcome *o, int status)
{
	ck_assert_msg(!o->failed, "failed: %d %s", o->err.code, o->err.message);
	ck_assert_int_eq(o->status, status);
}

static void refused(struct game_outcome *o, enum protocol_error_code code, const char *text)
{
	ck_assert_msg(o->failed, "succeeded (status %d)", o->status);
	ck_assert_int_eq(o->err.code, code);
	ck_assert_str_eq(o->err.message, text);
}

/* alice (White) creates a 5+3 game; bob joins unless alone. */
static void new_game(struct rooms *r, bool alone)
{
	struct protocol_game_create_request req = { .tc = "5+3", .color = "white" };
	struct game_outcome o = { 0 };
	LOCKED(r, game_service_create(r->srv.games, r->alice, "alice", &req, &o));
	ok(&o, 201);
	struct protocol_seat_response seat;
	struct protocol_error err;
	ck_assert_int_eq(protocol_seat_response_decode(o.body, strlen(o.body), &seat, &err), 0);
	ck_assert_str_eq(seat.color, "white");
	snprintf(r->game, sizeof r->game, "%s", seat.id);
	game_outcome_fini(&o);
	if (alone)
		return;
	struct protocol_join_request join = { .invite = "" };
	struct game_outcome j = { 0 };
	LOCKED(r, game_service_join(r->srv.games, r->bob, "bob", r->game, &join, &j));
	ok(&j, 200);
	game_outcome_fini(&j);
}

static void play(struct rooms *r, int64_t who, int64_t ply, const char *text, struct game_outcome *o)
{
	struct protocol_move_request req = { .ply = ply };
	snprintf(req.move, sizeof req.move, "%s", text);
	memset(o, 0, sizeof *o);
	LOCKED(r, game_service_move(r->srv.games, who, r->game, &req, o));
}

static void action(struct rooms *r, int64_t who, const char *endpoint, const char *word, int64_t ply,
		   struct game_outcome *o)
{
	struct protocol_action_request req = { .ply = ply };
	struct protocol_error err;
	char json[128];
	/* Through the codec, as the handler gets it: the words decoded. */
	if (!strcmp(endpoint, "claim"))
		snprintf(json, sizeof json, "{\"ply\":%lld,\"claim\":\"%s\"}", (long long)ply, word);
	else
		snprintf(json, sizeof json, "{\"ply\":%lld,\"action\":\"%s\"}", (long long)ply, word);
	ck_assert_int_eq(protocol_action_request_decode(json, strlen(json), &req, &err), 0);
	memset(o, 0, sizeof *o);
	if (!strcmp(endpoint, "draw"))
		LOCKED(r, game_service_draw(r->srv.games, who, r->game, &req, o));
	else if (!strcmp(endpoint, "claim"))
		LOCKED(r, game_service_claim(r->srv.games, who, r->game, &req, o));
	else
		ck_abort_msg("no endpoint %s", endpoint);
}

/* The game as its snapshot shows it to viewer, rebuilt by the fold. */
static void view_of(struct rooms *r, int64_t viewer, struct game_view *v)
{
	struct game_outcome o = { 0 };
	LOCKED(r, game_service_snapshot(r->srv.games, viewer, r->game, &o));
	ok(&o, 200);
	/* Encoded after the lock, as tchessd's HTTP side does. */
	ck_assert_ptr_nonnull(o.later);
	int status;
	char *body = game_answer_encode(o.later, &status);
	o.later = NULL;
	ck_assert_int_eq(status, 200);
	struct protocol_error err;
	fold_view_init(v);
	ck_assert_msg(fold_view_from_snapshot(v, body, strlen(body), r->game, &err) == 0, "%s", err.message);
	free(body);
	game_outcome_fini(&o);
}

/* A move answers with the events it committed: the move event, whose SAN
 * and position are the fold's, and the game moves on. */
START_TEST(test_moves)
{
	struct rooms r;
	rooms_up(&r);
	new_game(&r, false);
	struct game_outcome o;
	play(&r, r.alice, 0, "e4", &o);
	ok(&o, 200);
	ck_assert_uint_eq(o.events.n, 1);
	ck_assert_str_eq(o.events.events[0].type, "move");
	struct fold_event e;
	struct protocol_error err;
	ck_assert_int_eq(fold_event_decode("move", o.events.events[0].data, &e, &err), 0);
	ck_assert_str_eq(e.uci, "e2e4");
	ck_assert_str_eq(e.san, "e4");
	ck_assert_str_eq(e.fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	int64_t e4_seq = o.events.events[0].seq;
	game_outcome_fini(&o);
	play(&r, r.bob, 1, "c7c5", &o);
	ok(&o, 200);
	game_outcome_fini(&o);

	struct game_view v;
	view_of(&r, r.carol, &v);
	ck_assert_uint_eq(v.game.n_plies, 2);
	ck_assert_int_eq(v.plies[0].seq, e4_seq);
	ck_assert_int_eq(game_side_to_move(&v.game), WHITE);
	fold_view_fini(&v);
	rooms_down(&r);
}
END_TEST

/* "May this side move now?" is the fold's answer, worded by the server:
 * not started, not your move; a move for a ply already played is a retry,
 * answered with its original event and no second effect. */
START_TEST(test_may_move_and_retry)
{
	struct rooms r;
	rooms_up(&r);
	new_game(&r, true);
	struct game_outcome o;
	play(&r, r.alice, 0, "e4", &o);
	refused(&o, PROTOCOL_ERR_CONFLICT, "the game has not started: a seat is free");
	game_outcome_fini(&o);

	struct protocol_join_request join = { .invite = "" };
	memset(&o, 0, sizeof o);
	LOCKED(&r, game_service_join(r.srv.games, r.bob, "bob", r.game, &join, &o));
	ok(&o, 200);
	game_outcome_fini(&o);
	play(&r, r.bob, 0, "e5", &o);
	refused(&o, PROTOCOL_ERR_CONFLICT, "it is not your move");
	game_outcome_fini(&o);
	play(&r, r.alice, 0, "Ke2", &o);
	ck_assert(o.failed);
	ck_assert_int_eq(o.err.code, PROTOCOL_ERR_ILLEGAL);
	game_outcome_fini(&o);

	play(&r, r.alice, 0, "e4", &o);
	ok(&o, 200);
	int64_t seq = o.events.events[0].seq;
	game_outcome_fini(&o);
	play(&r, r.bob, 1, "e5", &o);
	ok(&o, 200);
	game_outcome_fini(&o);
	/* alice's e4 again, for ply 0: the same event, nothing new. */
	play(&r, r.alice, 0, "e2e4", &o);
	ok(&o, 200);
	ck_assert_uint_eq(o.events.n, 1);
	ck_assert_int_eq(o.events.events[0].seq, seq);
	game_outcome_fini(&o);
	struct game_view v;
	view_of(&r, r.alice, &v);
	ck_assert_uint_eq(v.game.n_plies, 2);
	fold_view_fini(&v);
	/* The same ply with another move is stale. */
	play(&r, r.alice, 0, "d4", &o);
	ck_assert(o.failed);
	ck_assert_int_eq(o.err.code, PROTOCOL_ERR_CONFLICT);
	game_outcome_fini(&o);
	rooms_down(&r);
}
END_TEST

/* The action table: a word the row does not take is a 400 naming the
 * words it takes; a draw offered and accepted ends the game by agreement,
 * and a move after that is refused because the game is over. */
START_TEST(test_actions)
{
	struct rooms r;
	rooms_up(&r);
	new_game(&r, false);
	struct game_outcome o;
	action(&r, r.alice, "draw", "request", 0, &o);
	refused(&o, PROTOCOL_ERR_BAD_REQUEST, "draw: action: expected one of offer, accept, decline, withdraw");
	game_outcome_fini(&o);
	action(&r, r.alice, "claim", "stalemate", 0, &o);
	refused(&o, PROTOCOL_ERR_BAD_REQUEST,
		"claim: expected claim threefold, fifty-moves, tablebase, discard or win");
	game_outcome_fini(&o);

	action(&r, r.alice, "draw", "offer", 0, &o);
	ok(&o, 200);
	ck_assert_str_eq(o.events.events[0].type, "request");
	game_outcome_fini(&o);
	action(&r, r.bob, "draw", "accept", 0, &o);
	ok(&o, 200);
	ck_assert_str_eq(o.events.events[o.events.n - 1].type, "game-ended");
	game_outcome_fini(&o);
	struct game_view v;
	view_of(&r, 0, &v);
	ck_assert(game_is_over(&v.game));
	ck_assert_str_eq(game_termination_str(v.game.termination), "agreement");
	fold_view_fini(&v);
	play(&r, r.alice, 0, "e4", &o);
	refused(&o, PROTOCOL_ERR_CONFLICT, "the game is over (agreement)");
	game_outcome_fini(&o);
	rooms_down(&r);
}
END_TEST

int main(void)
{
	log_set_level(LOG_ERROR);
	Suite *s = suite_create("rooms");
	TCase *tc = tcase_create("all");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_may_move_and_retry);
	tcase_add_test(tc, test_actions);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
