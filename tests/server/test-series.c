/*
 * Integration tests of undo games and rematch series against the real
 * tchessd on loopback: provisional moves, take-backs and "done" (rule 14 of
 * the board-and-pieces document), the clock running until "done", premoves
 * resolved at "done", flag fall with a provisional move standing; rematch
 * offers (made, declined, withdrawn, accepted, lapsing when a player
 * leaves) and the series they make: colours swapped, the same initial time
 * (rule 13) and the score in every game's snapshot. Waiting is always a
 * long-poll with a deadline.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"
#include "tchess/protocol.h"

/* Another game of the same server becomes the table's game. */
static void table_switch(struct table *t, const char *game)
{
	snprintf(t->game, sizeof t->game, "%s", game);
	t->seq = 0;
}

/* A command expected to succeed: its answer's events as a cJSON array
 * (caller deletes). */
static cJSON *ok_events(struct table *t, const char *what, const char *token, const char *body)
{
	char *out;
	long status = table_command(t, "POST", what, token, body, &out);
	ck_assert_msg(status == 200, "%s %s: %ld %s", what, body, status, out);
	cJSON *o = cJSON_Parse(out);
	free(out);
	ck_assert_ptr_nonnull(o);
	cJSON *evs = cJSON_DetachItemFromObjectCaseSensitive(o, "events");
	cJSON_Delete(o);
	ck_assert(cJSON_IsArray(evs));
	return evs;
}

static bool jnull(const cJSON *o, const char *name)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, name));
}

static const char *FAST = "poll_timeout_ms = 1000\n";

static void move_body(char *buf, size_t size, int ply, const char *text)
{
	snprintf(buf, size, "{\"ply\":%d,\"move\":\"%s\"}", ply, text);
}

START_TEST(test_undo_turn)
{
	/* Rule 14: "While playing under the "Enable undo" game, each player
	 * has to stop the clock after every move by clicking on the "done"
	 * button." */
	struct table t;
	char body[96];
	table_open(&t, FAST, "\"tc\":\"5+3\",\"undo\":true");
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "undo")));
	ck_assert(jnull(s, "provisional"));
	cJSON_Delete(s);
	cJSON *started = table_wait_event(&t, "game-started");

	/* The move is provisional: an event everyone sees, no ply played. */
	move_body(body, sizeof body, 0, "e4");
	cJSON *evs = ok_events(&t, "moves", t.alice, body);
	ck_assert_int_eq(cJSON_GetArraySize(evs), 1);
	ck_assert_str_eq(jstr(cJSON_GetArrayItem(evs, 0), "type"), "provisional-move");
	ck_assert_str_eq(jstr(cJSON_GetArrayItem(evs, 0), "san"), "e4");
	cJSON_Delete(evs);
	cJSON *pm = table_wait_event(&t, "provisional-move");
	ck_assert_str_eq(jstr(pm, "uci"), "e2e4");
	ck_assert_str_eq(jstr(pm, "color"), "white");
	cJSON_Delete(pm);
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jnum(s, "ply"), 0);
	ck_assert_str_eq(jstr(jobj(s, "provisional"), "san"), "e4");
	ck_assert_str_eq(jstr(jobj(s, "provisional"), "fen"),
			 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	ck_assert_str_eq(jstr(jobj(s, "clock"), "running"), "white");
	cJSON_Delete(s);
	/* A retry is answered without a second event; another move must wait
	 * for the take-back; only the mover acts on the turn. */
	ck_assert_int_eq(table_ok(&t, "moves", t.alice, body), 0);
	move_body(body, sizeof body, 0, "d4");
	table_refused(&t, "moves", t.alice, body, 409, "take it back or press done");
	table_refused(&t, "done", t.bob, "{\"ply\":0}", 409, "not your move");
	table_refused(&t, "takeback", t.bob, "{\"ply\":0}", 409, "not your move");
	table_refused(&t, "takeback", t.carol, "{\"ply\":0}", 403, "seat");
	table_refused(&t, "takeback", t.alice, "{\"ply\":0,\"action\":\"x\"}", 400, "only ply");
	table_refused(&t, "done", t.alice, "{\"ply\":1}", 409, "stale");

	/* Taken back, then another move, then done. */
	ck_assert_int_eq(table_ok(&t, "takeback", t.alice, "{\"ply\":0}"), 1);
	ck_assert_int_eq(table_ok(&t, "takeback", t.alice, "{\"ply\":0}"), 0);
	cJSON *tb = table_wait_event(&t, "move-taken-back");
	ck_assert_str_eq(jstr(tb, "uci"), "e2e4");
	cJSON_Delete(tb);
	table_refused(&t, "done", t.alice, "{\"ply\":0}", 409, "no provisional move");
	ck_assert_int_eq(table_ok(&t, "moves", t.alice, body), 1);
	ck_assert_int_eq(table_ok(&t, "done", t.alice, "{\"ply\":0}"), 1);
	ck_assert_int_eq(table_ok(&t, "done", t.alice, "{\"ply\":0}"), 0);
	/* The clock ran until "done": the move's thinking time is the whole
	 * turn, from the start to "done". */
	cJSON *mv = table_wait_event(&t, "move");
	ck_assert_str_eq(jstr(mv, "san"), "d4");
	ck_assert_int_eq(jnum(mv, "think_ms"), jnum(mv, "t_ms") - jnum(started, "t_ms"));
	ck_assert_int_eq(jnum(jobj(mv, "clock"), "white_ms"), 300000 - jnum(mv, "think_ms") + 3000);
	cJSON_Delete(mv);
	cJSON_Delete(started);
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jnum(s, "ply"), 1);
	ck_assert(jnull(s, "provisional"));
	ck_assert_str_eq(jstr(jobj(s, "clock"), "running"), "black");
	cJSON_Delete(s);

	/* The opponent's premoves resolve at "done", not at the provisional
	 * move. */
	char *out;
	ck_assert_int_eq(table_command(&t, "PUT", "premoves", t.alice, "{\"ply\":1,\"moves\":[\"g1f3\"]}", &out), 200);
	free(out);
	move_body(body, sizeof body, 1, "d5");
	ck_assert_int_eq(table_ok(&t, "moves", t.bob, body), 1);
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jnum(s, "ply"), 1);
	cJSON_Delete(s);
	evs = ok_events(&t, "done", t.bob, "{\"ply\":1}");
	ck_assert_int_eq(cJSON_GetArraySize(evs), 2);
	ck_assert_str_eq(jstr(cJSON_GetArrayItem(evs, 1), "san"), "Nf3");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(evs, 1), "premove")));
	cJSON_Delete(evs);
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jnum(s, "ply"), 3);
	cJSON_Delete(s);
	/* Illegal moves are refused with the reason. */
	move_body(body, sizeof body, 3, "Ke3");
	table_refused(&t, "moves", t.bob, body, 422, NULL);
	table_close(&t);

	/* In an ordinary game moves are final. */
	table_open(&t, FAST, "\"tc\":\"5+3\"");
	move_body(body, sizeof body, 0, "e4");
	ck_assert_int_eq(table_ok(&t, "moves", t.alice, body), 1);
	table_refused(&t, "takeback", t.bob, "{\"ply\":1}", 422, "not an undo game");
	table_refused(&t, "done", t.bob, "{\"ply\":1}", 422, "not an undo game");
	table_close(&t);
}
END_TEST

START_TEST(test_undo_flag)
{
	/* Rule 11: "If a player does not complete the prescribed number of
	 * moves in the allotted time, the player will loose the game." A
	 * provisional move is not a completed move: the flag falls with it
	 * standing, and it is dropped. */
	struct table t;
	char body[96];
	table_open(&t, FAST, "\"tc\":\"3s+0\",\"undo\":true");
	move_body(body, sizeof body, 0, "e4");
	ck_assert_int_eq(table_ok(&t, "moves", t.alice, body), 1);
	ck_assert_int_eq(table_ok(&t, "done", t.alice, "{\"ply\":0}"), 1);
	move_body(body, sizeof body, 1, "e5");
	ck_assert_int_eq(table_ok(&t, "moves", t.bob, body), 1);
	cJSON *end = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(end, "termination"), "timeout");
	ck_assert_str_eq(jstr(end, "result"), "1-0");
	ck_assert_str_eq(jstr(end, "color"), "black");
	cJSON_Delete(end);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jnum(s, "ply"), 1);
	ck_assert(jnull(s, "provisional"));
	cJSON_Delete(s);
	table_refused(&t, "done", t.bob, "{\"ply\":1}", 409, "over");
	table_close(&t);
}
END_TEST

/* The series member of the table game's snapshot (caller deletes s). */
static const cJSON *series_of(struct table *t, cJSON **s)
{
	*s = table_snapshot(t, NULL);
	return jobj(*s, "series");
}

START_TEST(test_rematch_series)
{
	/* Rule 13: "During a series the time isn't saved from the last game,
	 * each game have the same initial time." Colours alternate and the
	 * score is kept: 1, 1/2 or 0 a game, unscored games not counted. */
	struct table t;
	char body[96], g1[PROTOCOL_GAME_ID_MAX + 1], g2[PROTOCOL_GAME_ID_MAX + 1];
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	snprintf(g1, sizeof g1, "%s", t.game);
	table_refused(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}", 409, "not over");
	move_body(body, sizeof body, 0, "e4");
	ck_assert_int_eq(table_ok(&t, "moves", t.alice, body), 1);
	move_body(body, sizeof body, 1, "e5");
	ck_assert_int_eq(table_ok(&t, "moves", t.bob, body), 1);
	ck_assert_int_eq(table_ok(&t, "resign", t.alice, "{}"), 1); /* 0-1 */
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert(jnull(s, "series"));
	ck_assert(jnull(jobj(s, "offers"), "rematch"));
	cJSON_Delete(s);

	table_refused(&t, "rematch", t.carol, "{\"ply\":2,\"action\":\"offer\"}", 403, "seat");
	table_refused(&t, "rematch", t.alice, "{\"ply\":1,\"action\":\"offer\"}", 409, "stale");
	table_refused(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"again\"}", 400, "action");
	table_refused(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"accept\"}", 422, "no rematch offer");
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"offer\"}"), 1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"offer\"}"), 0);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(jobj(s, "offers"), "rematch"), "white");
	cJSON_Delete(s);
	table_refused(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"offer\"}", 422, "accept or decline");
	/* Declined: the offer is gone. */
	ck_assert_int_eq(table_ok(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 1);
	table_refused(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"accept\"}", 422, "no rematch offer");
	/* Made anew, withdrawn, made by the other side and accepted. */
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"offer\"}"), 1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"withdraw\"}"), 1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"offer\"}"), 1);
	cJSON *evs = ok_events(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"accept\"}");
	ck_assert_int_eq(cJSON_GetArraySize(evs), 1);
	const cJSON *acc = cJSON_GetArrayItem(evs, 0);
	ck_assert_str_eq(jstr(acc, "type"), "request");
	ck_assert_str_eq(jstr(acc, "what"), "rematch");
	ck_assert_str_eq(jstr(acc, "action"), "accepted");
	snprintf(g2, sizeof g2, "%s", jstr(acc, "game"));
	cJSON_Delete(evs);
	ck_assert_str_ne(g2, g1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":2,\"action\":\"accept\"}"), 0);
	table_refused(&t, "rematch", t.bob, "{\"ply\":2,\"action\":\"offer\"}", 422, "accepted already");
	/* The first game is the series' game 1, bob (black) 1 point up. */
	const cJSON *se = series_of(&t, &s);
	ck_assert_str_eq(jstr(se, "id"), g1);
	ck_assert_int_eq(jnum(se, "game"), 1);
	ck_assert(jnull(se, "previous"));
	ck_assert_str_eq(jstr(se, "next"), g2);
	ck_assert_double_eq(jnum(jobj(se, "score"), "white"), 0);
	ck_assert_double_eq(jnum(jobj(se, "score"), "black"), 1);
	cJSON_Delete(s);

	/* Game 2: colours swapped, running, full time again. */
	table_switch(&t, g2);
	se = series_of(&t, &s);
	ck_assert_str_eq(jstr(jobj(s, "white"), "name"), "bob");
	ck_assert_str_eq(jstr(jobj(s, "black"), "name"), "alice");
	ck_assert_str_eq(jstr(s, "status"), "playing");
	ck_assert_str_eq(jstr(s, "tc"), "5+3");
	ck_assert_str_eq(jstr(s, "ruleset"), "fide");
	ck_assert_int_eq(jnum(jobj(s, "clock"), "black_ms"), 300000);
	ck_assert_str_eq(jstr(jobj(s, "clock"), "running"), "white");
	ck_assert_str_eq(jstr(se, "id"), g1);
	ck_assert_int_eq(jnum(se, "game"), 2);
	ck_assert_str_eq(jstr(se, "previous"), g1);
	ck_assert(jnull(se, "next"));
	ck_assert_double_eq(jnum(jobj(se, "score"), "white"), 1); /* bob */
	ck_assert_double_eq(jnum(jobj(se, "score"), "black"), 0);
	ck_assert_int_eq(jnum(se, "games"), 1);
	cJSON_Delete(s);
	char path[128], *pgn;
	snprintf(path, sizeof path, "/v1/games/%s/pgn", g2);
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, &pgn), 200);
	ck_assert_msg(strstr(pgn, "[Round \"2\"]") && strstr(pgn, "[White \"bob\"]"), "%s", pgn);
	free(pgn);
	/* A draw: bob 1.5, alice 0.5. */
	ck_assert_int_eq(table_ok(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	ck_assert_int_eq(table_ok(&t, "draw", t.alice, "{\"ply\":0,\"action\":\"accept\"}"), 1);
	se = series_of(&t, &s);
	ck_assert_double_eq(jnum(jobj(se, "score"), "white"), 1.5);
	ck_assert_double_eq(jnum(jobj(se, "score"), "black"), 0.5);
	ck_assert_int_eq(jnum(se, "scored"), 2);
	cJSON_Delete(s);

	/* Game 3: alice white again; aborted, so not scored, and no rematch
	 * of an aborted game. */
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	evs = ok_events(&t, "rematch", t.bob, "{\"ply\":0,\"action\":\"accept\"}");
	table_switch(&t, jstr(cJSON_GetArrayItem(evs, 0), "game"));
	cJSON_Delete(evs);
	se = series_of(&t, &s);
	ck_assert_str_eq(jstr(jobj(s, "white"), "name"), "alice");
	ck_assert_int_eq(jnum(se, "game"), 3);
	ck_assert_str_eq(jstr(se, "previous"), g2);
	ck_assert_double_eq(jnum(jobj(se, "score"), "white"), 0.5);
	ck_assert_double_eq(jnum(jobj(se, "score"), "black"), 1.5);
	cJSON_Delete(s);
	ck_assert_int_eq(table_ok(&t, "abort", t.alice, "{\"ply\":0}"), 1);
	se = series_of(&t, &s);
	ck_assert_int_eq(jnum(se, "games"), 3);
	ck_assert_int_eq(jnum(se, "scored"), 2);
	cJSON_Delete(s);
	table_refused(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}", 422, "finished game");
	table_close(&t);
}
END_TEST

START_TEST(test_rematch_lapses)
{
	/* A rematch offer expires when either player leaves: no request for
	 * the grace. */
	struct table t;
	table_open(&t, "poll_timeout_ms = 1000\ndisconnect_grace_ms = 1500\n", "\"tc\":\"5+3\"");
	ck_assert_int_eq(table_ok(&t, "resign", t.bob, "{}"), 1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	/* Alice stays: a parked long-poll of hers is presence. */
	cJSON *s = table_snapshot(&t, NULL);
	struct poll_req pr;
	poll_start(&pr, &t.d, t.game, (int64_t)jnum(s, "seq"), t.alice);
	cJSON_Delete(s);
	poll_wait_parked(&pr, &t.d, 1);
	cJSON *p = table_wait_event(&t, "presence");
	ck_assert(poll_run(&pr, 10000));
	poll_fini(&pr);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(p, "present")));
	s = table_snapshot(&t, NULL);
	ck_assert(jnull(jobj(s, "offers"), "rematch"));
	cJSON_Delete(s);
	/* Bob, idle since his resignation, left first: alice finds no offer
	 * to accept and cannot offer to a player who is gone; bob's next
	 * request brings him back (a presence event), and his offer stands. */
	ck_assert_str_eq(jstr(p, "color"), "black");
	table_refused(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"accept\"}", 422, "no rematch offer");
	table_refused(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}", 422, "has left");
	ck_assert_int_eq(table_ok(&t, "rematch", t.bob, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	cJSON_Delete(p);
	p = table_wait_event(&t, "presence");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "present")));
	ck_assert_str_eq(jstr(p, "color"), "black");
	cJSON_Delete(p);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(jobj(s, "offers"), "rematch"), "black");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_rematch_quiet_opponent)
{
	/* tchess-protocol(7): "An offer to a player who is gone is refused
	 * (422)"; issue 18 item 5: to an opponent quiet for longer than the
	 * grace (not yet recorded gone: no offer stood to lapse) the offer
	 * answered 200 and lapsed at once, and the accept was 422. Now it is
	 * refused; once the opponent is back it is made and accepted. */
	const char *conf = "poll_timeout_ms = 1000\ntest_clock = on\n";
	struct table t;
	table_open(&t, conf, "\"tc\":\"5+3\"");
	ck_assert_int_eq(table_ok(&t, "resign", t.bob, "{}"), 1);
	tchessd_advance(&t.d, 16000); /* the presets' grace is 15 s */
	table_refused(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}", 422, "your opponent has left");
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert(jnull(jobj(s, "offers"), "rematch"));
	cJSON_Delete(s);
	cJSON_Delete(table_snapshot(&t, t.bob)); /* bob is back */
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	ck_assert_int_eq(table_ok(&t, "rematch", t.bob, "{\"ply\":0,\"action\":\"accept\"}"), 1);
	table_close(&t);

	/* Correspondence: "presence for a correspondence game cannot mean
	 * polled in the last 15 s". An offer to a player who has not been
	 * here for an hour stands, a day later too, and is accepted. */
	table_open(&t, conf, "\"tc\":\"corr:10d/10\"");
	ck_assert_int_eq(table_ok(&t, "resign", t.bob, "{}"), 1);
	tchessd_advance(&t.d, 3600000);
	ck_assert_int_eq(table_ok(&t, "rematch", t.alice, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	tchessd_advance(&t.d, 86400000);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(jobj(s, "offers"), "rematch"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(jobj(s, "absent"), "black")));
	cJSON_Delete(s);
	cJSON *evs = ok_events(&t, "rematch", t.bob, "{\"ply\":0,\"action\":\"accept\"}");
	ck_assert_int_eq(cJSON_GetArraySize(evs), 1);
	const cJSON *acc = cJSON_GetArrayItem(evs, 0);
	ck_assert_str_eq(jstr(acc, "action"), "accepted");
	cJSON_Delete(evs);
	table_close(&t);
}
END_TEST

static Suite *series_suite(void)
{
	Suite *s = suite_create("undo-and-series");
	TCase *tc = tcase_create("undo");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_undo_turn);
	tcase_add_test(tc, test_undo_flag);
	suite_add_tcase(s, tc);
	tc = tcase_create("series");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rematch_series);
	tcase_add_test(tc, test_rematch_lapses);
	tcase_add_test(tc, test_rematch_quiet_opponent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(series_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
