/*
 * Integration tests of the game actions of tchessd beyond moves: draw
 * offers under each preset's lifetime, claims (threefold and fifty-move
 * with an intended move, tablebase claims judged with Debian's 3-piece
 * Gaviota tables), abort alone and by consent, the first-move timeout,
 * aborted games erased, disconnects (adjourn with resume and discard
 * claims, technical failure, claim of the win), invalid-command forfeits,
 * the operator's duration limit and notes revealed at the end. Against the
 * real binary on loopback; waiting is always a long-poll with a deadline.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "testdata.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"
#include "tchess/tablebase.h"

static void play(struct table *t, const char *token, int ply, const char *text)
{
	char body[96];
	snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, text);
	table_ok(t, "moves", token, body);
}

/* Who holds the standing draw offer in the snapshot ("" for none). */
static const char *draw_offer(struct table *t, char *buf)
{
	cJSON *s = table_snapshot(t, NULL);
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "offers"), "draw");
	snprintf(buf, 8, "%s", cJSON_IsString(d) ? d->valuestring : "");
	cJSON_Delete(s);
	return buf;
}

static const char *FAST = "poll_timeout_ms = 1000\n";

/* Keeps a long-poll of token's parked: presence for that seat. */
static void park(struct table *t, struct poll_req *p, const char *token)
{
	cJSON *s = table_snapshot(t, NULL);
	int64_t seq = jint(s, "seq");
	cJSON_Delete(s);
	poll_start(p, &t->d, t->game, seq, token);
	poll_wait_parked(p, &t->d, 1);
}

/* How started_game leaves the game after 1.e4 e5. */
enum adjourned {
	PLAYING,
	BY_CONSENT, /* Alice asks at ply 2, Bob accepts */
	BY_ABSENCE, /* Bob's poll parked, Alice silent past the 15 s grace (test_clock) */
};

static void adjourn(struct table *t, enum adjourned how)
{
	if (how == BY_CONSENT) {
		ck_assert_uint_eq(table_ok(t, "adjourn", t->alice, "{\"ply\":2}"), 1);
		ck_assert_uint_eq(table_ok(t, "adjourn", t->bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	} else if (how == BY_ABSENCE) {
		struct poll_req p;
		park(t, &p, t->bob);
		tchessd_advance(&t->d, 16000);
		cJSON_Delete(table_wait_event(t, "game-adjourned"));
		poll_fini(&p);
	}
}

/* A table opened with conf and game (as table_open takes them) after
 * 1.e4 e5, adjourned as how says. */
static void started_game(struct table *t, const char *conf, const char *game, enum adjourned how)
{
	table_open(t, conf, game);
	play(t, t->alice, 0, "e4");
	play(t, t->bob, 1, "e5");
	adjourn(t, how);
}

START_TEST(test_draw_fide)
{
	/* fide (Polychess): an offer at any time, lapsing when the opponent
	 * moves instead of accepting; accepting ends the game by agreement. */
	struct table t;
	char who[8];
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	/* Not on one's own move: allowed under fide. */
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":1,\"action\":\"offer\"}"), 1);
	/* A retry of an applied command: success, no second event. */
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":1,\"action\":\"offer\"}"), 0);
	ck_assert_str_eq(draw_offer(&t, who), "white");
	table_refused(&t, "draw", t.carol, "{\"ply\":1,\"action\":\"accept\"}", 403, "seat");
	table_refused(&t, "draw", t.bob, "{\"ply\":0,\"action\":\"accept\"}", 409, "stale");
	table_refused(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"shrug\"}", 400, "action");
	table_refused(&t, "draw", t.alice, "{\"ply\":1,\"action\":\"withdraw\"}", 422, "cannot be withdrawn");
	play(&t, t.bob, 1, "e5");
	ck_assert_str_eq(draw_offer(&t, who), "");
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":2,\"action\":\"offer\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":2,\"action\":\"accept\"}"), 0);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "1/2-1/2");
	ck_assert_str_eq(jstr(s, "termination"), "agreement");
	cJSON_Delete(s);
	/* An offer is a retry only while it stands. */
	table_refused(&t, "draw", t.bob, "{\"ply\":2,\"action\":\"offer\"}", 409, "over");
	table_refused(&t, "draw", t.alice, "{\"ply\":2,\"action\":\"offer\"}", 409, "over");
	table_close(&t);
}
END_TEST

START_TEST(test_draw_yourpot)
{
	/* Yourpot 9.1 a): "The button can be only pressed during the own
	 * move. The offer remains valid until the player presses the
	 * corresponding button once again." */
	struct table t;
	char who[8];
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	play(&t, t.alice, 0, "e4");
	table_refused(&t, "draw", t.alice, "{\"ply\":1,\"action\":\"offer\"}", 422, "own move");
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":1,\"action\":\"offer\"}"), 1);
	play(&t, t.bob, 1, "e5");
	play(&t, t.alice, 2, "Nf3");
	ck_assert_str_eq(draw_offer(&t, who), "black");
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":3,\"action\":\"withdraw\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":3,\"action\":\"withdraw\"}"), 0);
	ck_assert_str_eq(draw_offer(&t, who), "");
	ck_assert_uint_eq(table_ok(&t, "draw", t.bob, "{\"ply\":3,\"action\":\"offer\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":3,\"action\":\"decline\"}"), 1);
	ck_assert_str_eq(draw_offer(&t, who), "");
	table_refused(&t, "draw", t.alice, "{\"ply\":3,\"action\":\"accept\"}", 422, "no draw offer");
	table_close(&t);
}
END_TEST

START_TEST(test_draw_chessgamble)
{
	/* Board rules: "A player wishes to offer a draw shall do so upon his
	 * or her turn. Such offer ... remains valid until either the opponent
	 * accepts it or the turn is over." Chessgamble 12.1: "permanent draw
	 * his offer" is harassment: repeated offers are refused (422). */
	struct table t;
	char who[8];
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	ck_assert_uint_eq(table_ok(&t, "draw", t.alice, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	play(&t, t.alice, 0, "e4");
	ck_assert_str_eq(draw_offer(&t, who), "");
	play(&t, t.bob, 1, "e5");
	table_refused(&t, "draw", t.alice, "{\"ply\":2,\"action\":\"offer\"}", 422, "next offer is allowed from ply 10");
	table_close(&t);
}
END_TEST

START_TEST(test_claims)
{
	/* Polychess: "A legal intended move establishes either claim ... The
	 * game ends without playing it." */
	struct table t;
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	const char *moves[] = { "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1" };
	for (int i = 0; i < 7; i++)
		play(&t, i % 2 ? t.bob : t.alice, i, moves[i]);
	table_refused(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"threefold\"}", 422, "no threefold repetition");
	table_refused(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"fifty-moves\"}", 422, "no fifty-move draw");
	table_refused(&t, "claim", t.alice, "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"Nf3\"}", 422, "player to move");
	table_refused(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"Ng9\"}", 422, NULL);
	table_refused(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"tablebase\"}", 422, "no tablebase claims");
	table_refused(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"win\"}", 422, "no win for a disconnect");
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"Ng8\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"Ng8\"}"), 0);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "threefold");
	ck_assert_str_eq(jstr(s, "result"), "1/2-1/2");
	ck_assert_int_eq(jint(s, "ply"), 7);
	cJSON_Delete(s);
	table_close(&t);

	/* The fifty-move rule by claim, with the move that completes it. */
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\",\"fen\":\"4k3/8/8/8/8/8/R7/4K3 w - - 99 80\"");
	ck_assert_uint_eq(table_ok(&t, "claim", t.alice, "{\"ply\":0,\"claim\":\"fifty-moves\",\"move\":\"Ra3\"}"), 1);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "fifty-moves");
	ck_assert_int_eq(jint(s, "ply"), 0);
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_tablebase_claims)
{
	/* Yourpot: "The player can claim for a draw when there are no more
	 * than 6 pieces on the board ... If the adjourned position is really
	 * a draw according to the ending tables ..., the game is drawn. If
	 * the position is not a draw, the following time ... is added to the
	 * opponent: ... Fast blitz, blitz: 1 min." (5+0 is blitz.) */
	if (access(TABLEBASE_DEBIAN_GAVIOTA_DIR "/kpk.gtb.cp4", R_OK)) {
		fprintf(stderr, "skipped: Debian's gaviotatb tables are not installed\n");
		return;
	}
	const char *conf = "poll_timeout_ms = 1000\ntablebases = gaviota:" TABLEBASE_DEBIAN_GAVIOTA_DIR "\n";
	struct table t;
	/* KPvK, rook's pawn, the defending king in the corner: drawn. (KBvK
	 * cannot be claimed: insufficient material ends it at once.) */
	table_open(&t, conf, "\"tc\":\"5+0\",\"ruleset\":\"yourpot\",\"fen\":\"k7/8/8/8/8/8/P7/K7 w - - 0 1\"");
	ck_assert_uint_eq(table_ok(&t, "claim", t.alice, "{\"ply\":0,\"claim\":\"tablebase\"}"), 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "tablebase");
	ck_assert_str_eq(jstr(s, "result"), "1/2-1/2");
	cJSON_Delete(s);
	table_close(&t);

	/* KQvK claimed by the lone king: not drawn, White gains a minute. */
	table_open(&t, conf, "\"tc\":\"5+0\",\"ruleset\":\"yourpot\",\"fen\":\"k7/8/8/8/8/8/8/KQ6 b - - 0 1\"");
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":0,\"claim\":\"tablebase\"}"), 1);
	cJSON *e = table_wait_event(&t, "time-added");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert_int_eq(jint(e, "ms"), 60000);
	ck_assert_int_eq(jint(cJSON_GetObjectItemCaseSensitive(e, "clock"), "white_ms"), 360000);
	cJSON_Delete(e);
	/* The retry adds nothing. */
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":0,\"claim\":\"tablebase\"}"), 0);
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jint(cJSON_GetObjectItemCaseSensitive(s, "clock"), "white_ms"), 360000);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	table_close(&t);

	/* KQvKR: no 4-piece table here: refused with the reason. */
	table_open(&t, conf, "\"tc\":\"5+0\",\"ruleset\":\"yourpot\",\"fen\":\"k7/1r6/8/8/8/8/8/KQ6 w - - 0 1\"");
	table_refused(&t, "claim", t.alice, "{\"ply\":0,\"claim\":\"tablebase\"}", 422, "KQvKR");
	table_close(&t);
}
END_TEST

START_TEST(test_tablebase_nalimov)
{
	/* Yourpot: "If the adjourned position is really a draw according to
	 * the ending tables of Nalimov, the game is drawn. If the position is
	 * not a draw, the following time ... is added to the opponent".
	 * Nalimov's are DTM tables that know no fifty-move rule (issue 18):
	 * KRvK, White to mate in 16 moves, with 90 plies of the count gone, is
	 * not a draw with either table set. Before, Syzygy called it drawn
	 * (the fifty-move rule would come first) and Gaviota refused it. */
	char syzygy[4200];
	snprintf(syzygy, sizeof syzygy, "syzygy:%s", testdata_shared_path("tablebases/syzygy-3-4"));
	const char *sets[] = { "gaviota:" TABLEBASE_DEBIAN_GAVIOTA_DIR, syzygy };
	const char *files[] = { TABLEBASE_DEBIAN_GAVIOTA_DIR "/krk.gtb.cp4", NULL };
	char krvk[4200];
	snprintf(krvk, sizeof krvk, "%s/KRvK.rtbw", testdata_shared_path("tablebases/syzygy-3-4"));
	files[1] = krvk;
	for (int i = 0; i < 2; i++) {
		if (access(files[i], R_OK)) {
			fprintf(stderr, "skipped: %s is not there\n", files[i]);
			continue;
		}
		char conf[4400];
		snprintf(conf, sizeof conf, "poll_timeout_ms = 1000\ntablebases = %s\n", sets[i]);
		struct table t;
		table_open(&t, conf, "\"tc\":\"5+0\",\"ruleset\":\"yourpot\",\"fen\":\"8/8/8/8/8/2k5/1R6/K7 w - - 90 60\"");
		ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":0,\"claim\":\"tablebase\"}"), 1);
		cJSON *e = table_wait_event(&t, "time-added");
		ck_assert_str_eq(jstr(e, "color"), "white");
		ck_assert_int_eq(jint(e, "ms"), 60000);
		ck_assert_msg(strstr(jstr(e, "reason"), "not drawn"), "%s", jstr(e, "reason"));
		cJSON_Delete(e);
		cJSON *s = table_snapshot(&t, NULL);
		ck_assert_str_eq(jstr(s, "status"), "playing");
		cJSON_Delete(s);
		table_close(&t);
	}
}
END_TEST

START_TEST(test_abort)
{
	/* Yourpot: "The game can be aborted without opponent's consent if less
	 * then 2 semi-moves are performed. If one complete move is performed
	 * the game can be aborted upon opponent's consent only." And: "When
	 * the game is aborted all information about the game including moves
	 * is removed." */
	struct table t;
	started_game(&t, "poll_timeout_ms = 20000\naborted_retention_ms = 300\n", "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"",
		     PLAYING);
	ck_assert_uint_eq(table_ok(&t, "abort", t.alice, "{\"ply\":2}"), 1);
	ck_assert_uint_eq(table_ok(&t, "abort", t.alice, "{\"ply\":2}"), 0);
	table_refused(&t, "abort", t.alice, "{\"ply\":2,\"action\":\"accept\"}", 422, "consent");
	ck_assert_uint_eq(table_ok(&t, "abort", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	ck_assert_uint_eq(table_ok(&t, "abort", t.alice, "{\"ply\":2,\"action\":\"request\"}"), 0 + 1);
	ck_assert_uint_eq(table_ok(&t, "abort", t.bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	/* A parked poll learns of the end first, then that the game is gone. */
	cJSON *e = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(e, "termination"), "aborted");
	ck_assert_str_eq(jstr(e, "result"), "*");
	cJSON_Delete(e);
	struct poll_req p;
	poll_start(&p, &t.d, t.game, t.seq, NULL);
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&p, 100))
		ck_assert_msg(mono_ms() < deadline, "the erasure woke no poll");
	ck_assert_int_eq(p.status, 410);
	poll_fini(&p);
	char path[128];
	snprintf(path, sizeof path, "/v1/games/%s", t.game);
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, NULL), 410);
	snprintf(path, sizeof path, "/v1/games/%s/pgn", t.game);
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, NULL), 410);
	/* After a restart nothing is left: 404. */
	ck_assert_int_eq(WEXITSTATUS(tchessd_stop(&t.d)), 0);
	tchessd_restart(&t.d);
	ck_assert_int_eq(http_call(&t.d, "GET", path, NULL, NULL, 0, NULL), 404);
	table_close(&t);

	/* Alone before the first move, and the first-move timeout. */
	table_open(&t, "poll_timeout_ms = 1000\nfirst_move_timeout_ms = 800\n", "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "d4");
	e = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(e, "termination"), "aborted");
	ck_assert_str_eq(jstr(e, "reason"), "first-move-timeout");
	ck_assert_str_eq(jstr(e, "color"), "black");
	cJSON_Delete(e);
	table_close(&t);
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	ck_assert_uint_eq(table_ok(&t, "abort", t.bob, "{\"ply\":0}"), 1);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "aborted");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_disconnect_adjourn)
{
	/* Yourpot: "When server connection is lost the game is automatically
	 * adjourned. The game can be resumed upon both partners consent when
	 * both are online. If one of the partners discards to proceed the
	 * game, the player can claim the partner discard, but there can be no
	 * more than one discard per day." */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1500\n", "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	play(&t, t.alice, 0, "e4");
	struct poll_req p;
	park(&t, &p, t.bob); /* Bob stays; Alice says nothing more. */
	cJSON *e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "present")));
	cJSON_Delete(e);
	e = table_wait_event(&t, "game-adjourned");
	ck_assert_str_eq(jstr(e, "reason"), "disconnect");
	int64_t black_ms = jint(cJSON_GetObjectItemCaseSensitive(e, "clock"), "black_ms");
	cJSON_Delete(e);
	poll_fini(&p);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "adjourned");
	cJSON_Delete(s);
	table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e5\"}", 409, "adjourned");
	table_refused(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"discard\"}", 422, "resume request");
	ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":1}"), 1);
	/* Alice is gone: she has not discarded resuming (not for a day). */
	table_refused(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"discard\"}", 422,
		      "white is not online and has not refused");
	s = table_snapshot(&t, NULL);
	ck_assert_int_eq(jint(cJSON_GetObjectItemCaseSensitive(s, "discards"), "white"), 0);
	cJSON_Delete(s);
	/* Alice is back (her request is presence) and agrees. */
	ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":1,\"action\":\"accept\"}"), 1);
	e = table_wait_event(&t, "presence");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "present")));
	cJSON_Delete(e);
	e = table_wait_event(&t, "game-resumed");
	/* "Clocks stop": nothing was charged while adjourned. */
	ck_assert_int_eq(jint(cJSON_GetObjectItemCaseSensitive(e, "clock"), "black_ms"), black_ms);
	cJSON_Delete(e);
	play(&t, t.bob, 1, "e5");
	/* Adjourning by consent too. */
	ck_assert_uint_eq(table_ok(&t, "adjourn", t.alice, "{\"ply\":2}"), 1);
	ck_assert_uint_eq(table_ok(&t, "adjourn", t.bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "adjourned");
	cJSON_Delete(s);
	/* Nor a premove while adjourned (fold_may_move, the rule of a move);
	 * it was queued before. */
	char *out = NULL;
	ck_assert_int_eq(table_command(&t, "PUT", "premoves", t.bob, "{\"ply\":2,\"moves\":[\"g8f6\"]}", &out), 409);
	ck_assert_ptr_nonnull(strstr(out, "adjourned"));
	free(out);
	s = table_snapshot(&t, t.bob);
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(s, "premoves"));
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST


static int64_t discards_of(struct table *t, const char *color)
{
	cJSON *s = table_snapshot(t, NULL);
	int64_t n = jint(cJSON_GetObjectItemCaseSensitive(s, "discards"), color);
	cJSON_Delete(s);
	return n;
}

START_TEST(test_discard_is_a_refusal)
{
	/* Yourpot: "The game can be resumed upon both partners consent when
	 * both are online. If one of the partners discards to proceed the
	 * game, the player can claim the partner discard, but there can be no
	 * more than one discard per day." A discard is the partner's refusal:
	 * a decline, or no answer for the ruleset's 60 s while online. */
	struct table t;
	started_game(&t, "poll_timeout_ms = 1000\ndisconnect_grace_ms = 3600000\ntest_clock = on\n",
		     "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"", BY_CONSENT);
	/* A request and a claim straight after it: Bob, online, refused
	 * nothing. */
	table_refused(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}", 422, "make one first");
	ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":2}"), 1);
	table_refused(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}", 422, "black has not refused");
	ck_assert_int_eq(discards_of(&t, "black"), 0);
	/* Bob declines: that is his discard. */
	ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":2,\"action\":\"decline\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}"), 1);
	ck_assert_int_eq(discards_of(&t, "black"), 1);
	/* The next UTC day (the grace is an hour, so both are online again
	 * by their next request): Alice asks again, Bob says nothing for
	 * 60 s. */
	tchessd_advance(&t.d, 86400000);
	cJSON_Delete(table_snapshot(&t, t.bob));
	ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":2}"), 1);
	table_refused(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}", 422, "60 s without an answer");
	tchessd_advance(&t.d, 59000);
	table_refused(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}", 422, "black has not refused");
	tchessd_advance(&t.d, 1000);
	ck_assert_uint_eq(table_ok(&t, "claim", t.alice, "{\"ply\":2,\"claim\":\"discard\"}"), 1);
	ck_assert_int_eq(discards_of(&t, "black"), 2);
	/* Bob, who accepts, is charged nothing more: the game resumes. */
	ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	ck_assert_int_eq(discards_of(&t, "black"), 2);
	table_close(&t);
}
END_TEST

START_TEST(test_discard_partner_gone)
{
	/* Yourpot: "The game can be resumed upon both partners consent when
	 * both are online. If one of the partners discards to proceed the
	 * game, the player can claim the partner discard, but there can be no
	 * more than one discard per day. If the player has discarded to
	 * resume the game three times, he will be scored a defeat." A partner
	 * who never returns refuses by staying away: a day gone with the
	 * resume request standing is a discard, so the game does not wait
	 * for ever (before, it waited for the operator's max_game_minutes,
	 * by default never). */
	struct table t;
	started_game(&t, "poll_timeout_ms = 20000\ntest_clock = on\n", "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"",
		     BY_ABSENCE);
	ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":2}"), 1);
	table_refused(&t, "claim", t.bob, "{\"ply\":2,\"claim\":\"discard\"}", 422,
		      "white is not online and has not refused: their absence counts as a refusal after 24 h");
	tchessd_advance(&t.d, 86400000 - 60000);
	table_refused(&t, "claim", t.bob, "{\"ply\":2,\"claim\":\"discard\"}", 422, "1 min more");
	for (int n = 1; n <= 3; n++) {
		tchessd_advance(&t.d, n == 1 ? 60000 : 86400000);
		ck_assert_uint_ge(table_ok(&t, "claim", t.bob, "{\"ply\":2,\"claim\":\"discard\"}"), 1);
		if (n < 3)
			ck_assert_int_eq(discards_of(&t, "white"), n);
	}
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "0-1");
	ck_assert_str_eq(jstr(s, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(s, "reason"), "discards");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_resume_twice_at_one_ply)
{
	/* Yourpot: "When server connection is lost the game is automatically
	 * adjourned. The game can be resumed upon both partners consent when
	 * both are online." A second consent at the same ply is a new
	 * consent, not a retry of the first (issue 18 item 1). */
	struct table t;
	started_game(&t, "poll_timeout_ms = 20000\ntest_clock = on\n", "\"tc\":\"10+0\",\"ruleset\":\"yourpot\"",
		     PLAYING);
	for (int round = 0; round < 2; round++) {
		adjourn(&t, BY_ABSENCE);
		ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":2}"), 1);
		ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
		cJSON *s = table_snapshot(&t, NULL);
		ck_assert_str_eq(jstr(s, "status"), "playing");
		cJSON_Delete(s);
	}
	table_close(&t);
}
END_TEST

START_TEST(test_adjourned_clock_stands)
{
	/* Yourpot: "When server connection is lost the game is automatically
	 * adjourned"; the protocol's CLOCK: running is "which side's clock
	 * runs". While adjourned none does (issue 18 item 6): running null,
	 * no deadline, the times frozen; resumed, the side to move's clock
	 * runs again. */
	struct table t;
	started_game(&t, "poll_timeout_ms = 1000\ntest_clock = on\n", "\"tc\":\"10+0\",\"ruleset\":\"yourpot\"",
		     BY_CONSENT);
	cJSON *e = table_wait_event(&t, "game-adjourned");
	const cJSON *c = jobj(e, "clock");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "running")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "deadline_ms")));
	int64_t white_ms = jint(c, "white_ms");
	cJSON_Delete(e);
	tchessd_advance(&t.d, 5000);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "adjourned");
	c = jobj(s, "clock");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "running")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "deadline_ms")));
	ck_assert_int_eq(jint(c, "white_ms"), white_ms);
	/* The inner state still knows whose turn the clock will time. */
	ck_assert_str_eq(jstr(jobj(jobj(s, "state"), "clock"), "running"), "white");
	cJSON_Delete(s);
	ck_assert_uint_eq(table_ok(&t, "resume", t.alice, "{\"ply\":2}"), 1);
	ck_assert_uint_eq(table_ok(&t, "resume", t.bob, "{\"ply\":2,\"action\":\"accept\"}"), 1);
	e = table_wait_event(&t, "game-resumed");
	c = jobj(e, "clock");
	ck_assert_str_eq(jstr(c, "running"), "white");
	ck_assert_int_eq(jint(c, "white_ms"), white_ms);
	ck_assert_int_eq(jint(c, "deadline_ms"), jint(e, "t_ms") + white_ms);
	cJSON_Delete(e);
	table_close(&t);
}
END_TEST

START_TEST(test_disconnect_fide)
{
	/* Polychess: "Invalid-action exhaustion, disconnects, and missing
	 * participants are technical failures ... excluded from ordinary chess
	 * scoring." */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1000\n", "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	struct poll_req p;
	park(&t, &p, t.bob);
	cJSON *e = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(e, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(e, "reason"), "disconnect");
	ck_assert_str_eq(jstr(e, "result"), "*");
	cJSON_Delete(e);
	poll_fini(&p);
	table_close(&t);
}
END_TEST

START_TEST(test_disconnect_claim_win)
{
	/* Chessgamble 11.2: "If chessgamble comes to the conclusion that a
	 * player is not active on the website anymore, the game can be
	 * declared as lost." The present player claims it. */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1000\n",
		   "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	play(&t, t.alice, 0, "e4");
	table_refused(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}", 422, "present");
	struct poll_req p;
	park(&t, &p, t.bob);
	cJSON *e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	cJSON_Delete(e);
	poll_fini(&p);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}"), 1);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}"), 0);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "0-1");
	ck_assert_str_eq(jstr(s, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(s, "reason"), "abandoned");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_claim_win_per_player)
{
	/* Chessgamble 11.2: "If chessgamble comes to the conclusion that a
	 * player is not active on the website anymore, the game can be
	 * declared as lost." Activity is the player's, not one game's (issue
	 * 18): alice, quiet in game B but with a poll parked in her game A,
	 * is active; bob's claim of B is refused until she is gone from both. */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 1000\ntest_clock = on\n",
		   "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	play(&t, t.alice, 0, "e4");
	/* Game A: alice v carol, both with a poll parked there. */
	struct table a = t;
	create_game_with(&t.d, t.alice, "{\"tc\":\"5+3\",\"color\":\"white\"}", a.game);
	join_game(&t.d, a.game, t.carol);
	struct poll_req pa, pc, pb;
	park(&a, &pa, t.alice);
	park(&a, &pc, t.carol);
	park(&t, &pb, t.bob);
	tchessd_advance(&t.d, 2000);
	cJSON *e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "present")));
	cJSON_Delete(e);
	table_refused(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}", 422, "active in another game");
	/* Carol's draw offer answers alice's poll in A; alice asks nothing
	 * more anywhere, and after the grace she is gone from both. */
	ck_assert_uint_eq(table_ok(&a, "draw", t.carol, "{\"ply\":0,\"action\":\"offer\"}"), 1);
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(&pa, 100))
		ck_assert_msg(mono_ms() < deadline, "alice's poll in A was not answered");
	poll_fini(&pa);
	tchessd_advance(&t.d, 2000);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}"), 1);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "0-1");
	ck_assert_str_eq(jstr(s, "reason"), "abandoned");
	cJSON_Delete(s);
	poll_fini(&pc);
	poll_fini(&pb);
	table_close(&t);
}
END_TEST

/* The seat's entry of the snapshot's "left" member (NULL when it is null). */
static const cJSON *left_of(const cJSON *snap, const char *color)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(jobj(snap, "left"), color);
	ck_assert_ptr_nonnull(l);
	return cJSON_IsNull(l) ? NULL : l;
}

/* Drives p until it is answered (10 s at most) and says whether its
 * events hold one of type. */
static bool poll_answer_has(struct poll_req *p, const char *type)
{
	int64_t deadline = mono_ms() + 10000;
	while (!poll_run(p, 100))
		ck_assert_msg(mono_ms() < deadline, "the parked poll was not answered");
	ck_assert_int_eq(p->status, 200);
	char want[64];
	snprintf(want, sizeof want, "\"type\":\"%s\"", type);
	return p->body.data && strstr(p->body.data, want);
}

START_TEST(test_left)
{
	/* Issue 14 item 8: the remaining player hears at once that the
	 * opponent left, with the instant the ruleset's consequence comes:
	 * chessgamble's win claim, yourpot's adjournment, fide's unscored
	 * end. A seat that says it leaves (POST leave, tchess quitting) is
	 * told at once, and the poll it left parked is no presence; one that
	 * just goes quiet is told after GAME_LEFT_QUIET_MS; its return clears
	 * it. The test clock stands in for the waits. */
	const char *conf = "poll_timeout_ms = 20000\ntest_clock = on\n";
	struct table t;
	struct poll_req pa, pb;

	/* chessgamble: leave, then the claim from gone_ms on. */
	table_open(&t, conf, "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	play(&t, t.alice, 0, "e4");
	park(&t, &pa, t.alice);
	park(&t, &pb, t.bob);
	ck_assert_uint_eq(table_ok(&t, "leave", t.alice, "{}"), 0);
	ck_assert(poll_answer_has(&pb, "left"));
	poll_fini(&pb);
	cJSON *e = table_wait_event(&t, "left");
	ck_assert_str_eq(jstr(e, "color"), "white");
	int64_t gone = jint(e, "gone_ms");
	/* The grace (15 s in every preset) from the leave, which is the
	 * event's instant or a moment before it. */
	ck_assert_msg(gone - jint(e, "t_ms") <= 15000 && gone - jint(e, "t_ms") > 14000, "gone %lld at %lld",
		      (long long)gone, (long long)jint(e, "t_ms"));
	ck_assert_int_eq(jint(e, "claim_ms"), gone);
	cJSON_Delete(e);
	cJSON *snap = table_snapshot(&t, t.bob);
	ck_assert_int_eq(jint(left_of(snap, "white"), "gone_ms"), gone);
	ck_assert_int_eq(jint(left_of(snap, "white"), "claim_ms"), gone);
	ck_assert_ptr_null(left_of(snap, "black"));
	cJSON_Delete(snap);
	/* Not before the instant: alice is not recorded gone yet. The poll
	 * she left parked comes back answered (the left event) and is no
	 * sign of her: no presence event says she is back. */
	table_refused(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}", 422, "present");
	ck_assert(poll_answer_has(&pa, "left"));
	poll_fini(&pa);
	park(&t, &pb, t.bob);
	tchessd_advance(&t.d, 15000);
	e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "present")));
	ck_assert_int_ge(jint(e, "t_ms"), gone);
	cJSON_Delete(e);
	poll_fini(&pb);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":1,\"claim\":\"win\"}"), 1);
	snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "result"), "0-1");
	ck_assert_str_eq(jstr(snap, "reason"), "abandoned");
	cJSON_Delete(snap);
	table_close(&t);

	/* yourpot: quiet, no poll parked: left after the quiet, gone at the
	 * last request plus the grace, no claim; back clears it. */
	table_open(&t, conf, "\"tc\":\"5+3\",\"ruleset\":\"yourpot\"");
	play(&t, t.alice, 0, "e4");
	snap = table_snapshot(&t, t.alice);
	int64_t seen = jint(snap, "now_ms");
	cJSON_Delete(snap);
	park(&t, &pb, t.bob);
	tchessd_advance(&t.d, 5000);
	e = table_wait_event(&t, "left");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(e, "claim_ms")));
	ck_assert_msg(jint(e, "gone_ms") >= seen + 15000 && jint(e, "gone_ms") < seen + 16000, "gone %lld, seen %lld",
		      (long long)jint(e, "gone_ms"), (long long)seen);
	cJSON_Delete(e);
	poll_fini(&pb);
	snap = table_snapshot(&t, t.alice); /* a request: she is back */
	cJSON_Delete(snap);
	e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "present")));
	cJSON_Delete(e);
	snap = table_snapshot(&t, NULL);
	ck_assert_ptr_null(left_of(snap, "white"));
	ck_assert_str_eq(jstr(snap, "status"), "playing");
	cJSON_Delete(snap);
	table_close(&t);

	/* fide: leave, and at gone_ms the game ends unscored. */
	table_open(&t, conf, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	ck_assert_uint_eq(table_ok(&t, "leave", t.bob, "{}"), 0);
	e = table_wait_event(&t, "left");
	ck_assert_str_eq(jstr(e, "color"), "black");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(e, "claim_ms")));
	cJSON_Delete(e);
	park(&t, &pa, t.alice);
	tchessd_advance(&t.d, 15000);
	e = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(e, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(e, "reason"), "disconnect");
	cJSON_Delete(e);
	poll_fini(&pa);
	/* Leaving is a seat's word: a spectator's is refused. */
	table_refused(&t, "leave", t.carol, "{}", 403, NULL);
	table_close(&t);
}
END_TEST

START_TEST(test_left_killed)
{
	/* Issue 14 item 8: a tchess killed (kill -9, a lost terminal, a
	 * laptop shut) says nothing; the poll it left parked is its seat's
	 * presence until tchessd sees the socket closed, within a second, not
	 * at the poll's timeout (20 s here; before, "left" came after it).
	 * Then the quiet (half the 4 s grace) and the left event, with the
	 * claim from gone_ms on, which the claim meets once it has passed. */
	struct table t;
	table_open(&t, "poll_timeout_ms = 20000\ndisconnect_grace_ms = 4000\n",
		   "\"tc\":\"5+3\",\"ruleset\":\"chessgamble\"");
	play(&t, t.alice, 0, "e4");
	play(&t, t.bob, 1, "e5");
	cJSON *snap = table_snapshot(&t, NULL);
	int64_t seq = jint(snap, "seq");
	cJSON_Delete(snap);
	pid_t alice = raw_park_child(&t.d, t.game, seq, t.alice);
	struct poll_req pb;
	park(&t, &pb, t.bob);
	ck_assert_int_eq(parked_polls(&t.d), 2);
	ck_assert_int_eq(kill(alice, SIGKILL), 0);
	ck_assert_int_eq(waitpid(alice, NULL, 0), alice);
	int64_t killed = mono_ms();
	/* Her poll ends within the second's look (and a margin). */
	int64_t ended = wait_parked_at_most(&t.d, 1);
	ck_assert_msg(ended < 2500, "her poll ended %lld ms after the kill", (long long)ended);
	ck_assert(poll_answer_has(&pb, "left"));
	int64_t told = mono_ms() - killed;
	ck_assert_msg(told < 5000, "bob was told %lld ms after the kill", (long long)told);
	poll_fini(&pb);
	cJSON *e = table_wait_event(&t, "left");
	ck_assert_str_eq(jstr(e, "color"), "white");
	int64_t gone = jint(e, "gone_ms");
	ck_assert_int_eq(jint(e, "claim_ms"), gone);
	ck_assert_msg(gone - jint(e, "t_ms") <= 2000 && gone - jint(e, "t_ms") > 1000, "gone %lld at %lld",
		      (long long)gone, (long long)jint(e, "t_ms"));
	cJSON_Delete(e);
	table_refused(&t, "claim", t.bob, "{\"ply\":2,\"claim\":\"win\"}", 422, "present");
	park(&t, &pb, t.bob);
	e = table_wait_event(&t, "presence");
	ck_assert_str_eq(jstr(e, "color"), "white");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "present")));
	cJSON_Delete(e);
	int64_t claimable = mono_ms() - killed;
	ck_assert_msg(claimable < 7000, "the claim came %lld ms after the kill", (long long)claimable);
	poll_fini(&pb);
	ck_assert_uint_eq(table_ok(&t, "claim", t.bob, "{\"ply\":2,\"claim\":\"win\"}"), 1);
	snap = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(snap, "result"), "0-1");
	ck_assert_str_eq(jstr(snap, "reason"), "abandoned");
	cJSON_Delete(snap);
	table_close(&t);
}
END_TEST

START_TEST(test_invalid_commands)
{
	/* The issue: "A seat that sends more than the ruleset's number of
	 * consecutive invalid commands (a broken bot) forfeits as a technical
	 * failure." The presets allow 10. */
	struct table t;
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	for (int i = 0; i < 10; i++)
		table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":\"e2e4\"}", 422, NULL);
	cJSON *s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	table_refused(&t, "moves", t.bob, "{\"ply\":1,\"move\":[]}", 400, NULL);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "result"), "1-0");
	ck_assert_str_eq(jstr(s, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(s, "reason"), "invalid-commands");
	cJSON_Delete(s);
	table_close(&t);

	/* Malformed bodies of every seat command count alike. */
	static const char *const bad[][3] = {
		{ "PUT", "premoves", "{\"ply\":1,\"moves\":5}" },
		{ "DELETE", "premoves", "{\"all\":true}" },
		{ "POST", "resign", "{\"why\":1}" },
		{ "POST", "notes", "[]" },
		{ "POST", "draw", "{\"ply\":\"one\"}" },
		{ "POST", "moves", "{\"ply\":1}" },
	};
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	for (int i = 0; i < 10; i++) {
		char *out;
		ck_assert_int_eq(table_command(&t, bad[i % 6][0], bad[i % 6][1], t.bob, bad[i % 6][2], &out), 400);
		free(out);
	}
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "status"), "playing");
	cJSON_Delete(s);
	table_refused(&t, "resign", t.bob, "{\"why\":1}", 400, NULL);
	s = table_snapshot(&t, NULL);
	ck_assert_str_eq(jstr(s, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(s, "reason"), "invalid-commands");
	cJSON_Delete(s);
	table_close(&t);
}
END_TEST

START_TEST(test_max_duration)
{
	/* Polychess: "Hosted games have a 100-minute infrastructure limit;
	 * exceeding it is a technical failure, not a chess timeout." */
	struct table t;
	table_open(&t, "poll_timeout_ms = 1000\nmax_game_ms = 1000\n", "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	play(&t, t.alice, 0, "e4");
	cJSON *e = table_wait_event(&t, "game-ended");
	ck_assert_str_eq(jstr(e, "termination"), "technical-failure");
	ck_assert_str_eq(jstr(e, "reason"), "max-duration");
	ck_assert_str_eq(jstr(e, "result"), "*");
	cJSON_Delete(e);
	table_close(&t);
}
END_TEST

START_TEST(test_notes_revealed)
{
	/* Polychess: "Player notes are hidden from the live opponent and
	 * revealed after completion." */
	struct table t;
	table_open(&t, FAST, "\"tc\":\"5+3\",\"ruleset\":\"fide\"");
	char *out, path[128];
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.alice, "{\"text\":\"trap on f7\"}", &out), 201);
	free(out);
	snprintf(path, sizeof path, "/v1/games/%s/events?after=0", t.game);
	const char *viewers[] = { t.bob, t.carol, NULL };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(http_call(&t.d, "GET", path, viewers[i], NULL, 0, &out), 200);
		ck_assert_ptr_null(strstr(out, "trap on f7"));
		free(out);
	}
	play(&t, t.alice, 0, "e4");
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.bob, "{\"text\":\"he} wants f7\"}", &out), 201);
	free(out);
	play(&t, t.bob, 1, "e5");
	ck_assert_int_eq(table_command(&t, "GET", "pgn", NULL, NULL, &out), 200);
	ck_assert_ptr_null(strstr(out, "note"));
	free(out);
	ck_assert_int_eq(table_command(&t, "POST", "resign", t.alice, "{}", &out), 200);
	free(out);
	cJSON *e = table_wait_event(&t, "notes-revealed");
	const cJSON *n = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "notes"), 0);
	ck_assert_str_eq(jstr(n, "text"), "trap on f7");
	cJSON_Delete(e);
	ck_assert_int_eq(table_command(&t, "POST", "notes", t.alice, "{\"text\":\"gg\"}", &out), 201);
	free(out);
	/* Issue 15: revealed notes go into the PGN as comments at their
	 * moves: before the first move, after 1. e4 (a '}' cannot be written
	 * in a comment), and one written after the end at the last move. */
	ck_assert_int_eq(table_command(&t, "GET", "pgn", NULL, NULL, &out), 200);
	const char *a = strstr(out, "{note by alice: trap on f7} 1. e4 {[%clk ");
	const char *b = strstr(out, "] note by bob: he) wants f7}");
	const char *c = strstr(out, "1... e5 {[%clk ");
	const char *d = strstr(out, "] note: gg} 0-1");
	ck_assert_msg(a && b && c && d && a < b && b < c && c < d, "%s", out);
	free(out);
	table_close(&t);
}
END_TEST

static Suite *actions_suite(void)
{
	Suite *s = suite_create("tchessd game actions");
	TCase *tc = tcase_create("actions");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_draw_fide);
	tcase_add_test(tc, test_draw_yourpot);
	tcase_add_test(tc, test_draw_chessgamble);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_tablebase_claims);
	tcase_add_test(tc, test_tablebase_nalimov);
	tcase_add_test(tc, test_abort);
	tcase_add_test(tc, test_disconnect_adjourn);
	tcase_add_test(tc, test_discard_is_a_refusal);
	tcase_add_test(tc, test_resume_twice_at_one_ply);
	tcase_add_test(tc, test_discard_partner_gone);
	tcase_add_test(tc, test_adjourned_clock_stands);
	tcase_add_test(tc, test_disconnect_fide);
	tcase_add_test(tc, test_disconnect_claim_win);
	tcase_add_test(tc, test_claim_win_per_player);
	tcase_add_test(tc, test_left);
	tcase_add_test(tc, test_left_killed);
	tcase_add_test(tc, test_invalid_commands);
	tcase_add_test(tc, test_max_duration);
	tcase_add_test(tc, test_notes_revealed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	SRunner *sr = srunner_create(actions_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
