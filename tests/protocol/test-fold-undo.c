/*
 * The fold's undo games and rematch series: every new event survives its
 * encoding and strict decoding, applies as the rules say (rule 14: a move
 * counts at "done"; rule 13: the series' next game) and is refused, with
 * the view unchanged, when it contradicts the state. Both tchessd and the
 * client run these events through this one fold.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fold.h"

#define G1 "0123456789abcdef0123456789abcdef"
#define G2 "fedcba9876543210fedcba9876543210"

/* Encodes e, decodes it back as its type and applies it at (seq, t_ms);
 * returns the fold's answer. */
static int apply(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		 struct protocol_error *err)
{
	struct fold_event back, c = *e;
	/* The readings are the server's to fill; the fold recomputes them. */
	c.has_clock = e->kind == FOLD_EV_STARTED || e->kind == FOLD_EV_MOVE || e->kind == FOLD_EV_ENDED;
	c.clock.running = CLOCK_NOBODY;
	if (e->kind == FOLD_EV_ENDED && !c.result[0])
		strcpy(c.result, "*");
	char *json = fold_event_encode(&c);
	int rc = fold_event_decode(fold_event_type(e->kind), json, &back, err);
	ck_assert_msg(rc == 0, "%s: %s does not decode: %s", fold_event_type(e->kind), json, err->message);
	free(json);
	/* The server fills an end's result from the fold: none here. */
	back.result[0] = '\0';
	return fold_apply_event(v, seq, t_ms, &back, err);
}

static void must(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e)
{
	struct protocol_error err;
	ck_assert_msg(apply(v, seq, t_ms, e, &err) == 0, "%s: %s", fold_event_type(e->kind), err.message);
}

static void refused(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e, const char *needle)
{
	struct protocol_error err;
	int64_t before = v->seq;
	ck_assert_int_ne(apply(v, seq, t_ms, e, &err), 0);
	ck_assert_msg(strstr(err.message, needle), "\"%s\" lacks \"%s\"", err.message, needle);
	ck_assert_int_eq(v->seq, before);
}

/* ann (white, player 1) against bob (black, 2), 5+0, started at 1000. */
static void new_game(struct game_view *v, bool undo, const struct fold_series *series)
{
	struct fold_event e;
	fold_view_init(v);
	fold_event_init(&e, FOLD_EV_CREATED);
	strcpy(e.tc, "5+0");
	strcpy(e.ruleset, "fide");
	strcpy(e.fen, FEN_START);
	strcpy(e.opponent, "open");
	e.undo = undo;
	if (series)
		e.series = *series;
	for (int c = WHITE; c <= BLACK; c++) {
		e.seats[c].kind = FOLD_SEAT_HUMAN;
		e.seats[c].player = c + 1;
		strcpy(e.seats[c].name, c == WHITE ? "ann" : "bob");
	}
	must(v, 1, 1000, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	must(v, 2, 1000, &e);
}

static void provisional(struct fold_event *e, enum fold_event_kind kind, int color, int64_t ply, const char *uci,
			const char *san, const char *fen)
{
	fold_event_init(e, kind);
	e->color = color;
	e->ply = ply;
	strcpy(e->uci, uci);
	if (san)
		strcpy(e->san, san);
	if (fen)
		strcpy(e->fen, fen);
}

START_TEST(test_undo_fold)
{
	/* Rule 14: "each player has to stop the clock after every move by
	 * clicking on the "done" button": the move is provisional until then
	 * and the clock runs on. */
	static const char *after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
	struct game_view v;
	struct fold_event e;
	new_game(&v, true, NULL);
	ck_assert(v.undo);
	/* A human's move straight away is refused in an undo game. */
	provisional(&e, FOLD_EV_MOVE, WHITE, 0, "e2e4", "e4", after_e4);
	refused(&v, 3, 2000, &e, "provisionally");
	provisional(&e, FOLD_EV_PROVISIONAL, WHITE, 0, "e2e4", "e4", after_e4);
	must(&v, 3, 2000, &e);
	ck_assert_uint_eq(v.game.n_plies, 0);
	struct position p;
	char fen[FEN_MAX];
	fold_board(&v, &p);
	fen_write(&p, fen);
	ck_assert_str_eq(fen, after_e4);
	/* Not a second one; not the opponent's take-back; not another move's. */
	provisional(&e, FOLD_EV_PROVISIONAL, WHITE, 0, "d2d4", "d4", after_e4);
	refused(&v, 4, 2100, &e, "take it back");
	provisional(&e, FOLD_EV_TAKEN_BACK, BLACK, 0, "e2e4", NULL, NULL);
	refused(&v, 4, 2100, &e, "no provisional move");
	provisional(&e, FOLD_EV_TAKEN_BACK, WHITE, 0, "d2d4", NULL, NULL);
	refused(&v, 4, 2100, &e, "not the provisional move");
	provisional(&e, FOLD_EV_TAKEN_BACK, WHITE, 0, "e2e4", NULL, NULL);
	must(&v, 4, 2500, &e);
	ck_assert(!takeback_pending(&v.turn));
	provisional(&e, FOLD_EV_PROVISIONAL, WHITE, 0, "d2d4", "d4",
		    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
	must(&v, 5, 3000, &e);
	/* "done" is the move event of the provisional move, and only it. */
	provisional(&e, FOLD_EV_MOVE, WHITE, 0, "e2e4", "e4", after_e4);
	refused(&v, 6, 4000, &e, "not the provisional move");
	provisional(&e, FOLD_EV_MOVE, WHITE, 0, "d2d4", "d4", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
	e.think_ms = 3000;
	must(&v, 6, 4000, &e);
	ck_assert_uint_eq(v.game.n_plies, 1);
	ck_assert(!takeback_pending(&v.turn));
	/* The clock ran from the start (1000) to "done" (4000). */
	struct fold_clock_reading r;
	fold_clock_read(&v, 4000, &r);
	ck_assert_int_eq(r.ms[WHITE], 300000 - 3000);
	ck_assert_int_eq(r.running, BLACK);
	/* The flag falls with a provisional move standing: it is dropped. */
	provisional(&e, FOLD_EV_PROVISIONAL, BLACK, 1, "d7d5", "d5", "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
	must(&v, 7, 5000, &e);
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.termination, "timeout");
	e.color = BLACK;
	must(&v, 8, 4000 + 300000, &e);
	ck_assert(!takeback_pending(&v.turn));
	ck_assert_str_eq(game_result_str(v.game.result), "1-0");
	provisional(&e, FOLD_EV_TAKEN_BACK, BLACK, 1, "d7d5", NULL, NULL);
	refused(&v, 9, 400000, &e, "not a running undo game");
	fold_view_fini(&v);

	/* Ordinary games have no provisional moves. */
	new_game(&v, false, NULL);
	provisional(&e, FOLD_EV_PROVISIONAL, WHITE, 0, "e2e4", "e4", after_e4);
	refused(&v, 3, 2000, &e, "not a running undo game");
	fold_view_fini(&v);
}
END_TEST

static void request(struct fold_event *e, int color, enum fold_request_action a, int64_t ply, const char *game)
{
	fold_event_init(e, FOLD_EV_REQUEST);
	e->color = color;
	e->what = FOLD_REQ_REMATCH;
	e->action = a;
	e->ply = ply;
	if (game)
		strcpy(e->game, game);
}

START_TEST(test_rematch_fold)
{
	/* Rule 13: a series game starts with the same initial time; the
	 * score is 1, 1/2 or 0 a game and the colours alternate. */
	struct game_view v;
	struct fold_event e;
	new_game(&v, false, NULL);
	request(&e, WHITE, FOLD_REQ_MADE, 0, NULL);
	refused(&v, 3, 2000, &e, "finished game");
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.termination, "resignation");
	e.color = WHITE;
	must(&v, 3, 2000, &e); /* 0-1 */
	request(&e, WHITE, FOLD_REQ_ACCEPTED, 0, G2);
	refused(&v, 4, 2100, &e, "no rematch offer");
	request(&e, WHITE, FOLD_REQ_MADE, 0, NULL);
	must(&v, 4, 2100, &e);
	ck_assert_int_eq(v.rematch_by, WHITE);
	refused(&v, 5, 2200, &e, "already stands");
	/* A player leaving ends the offer. */
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	must(&v, 5, 2200, &e);
	ck_assert_int_eq(v.rematch_by, -1);
	request(&e, WHITE, FOLD_REQ_MADE, 0, NULL);
	refused(&v, 6, 2300, &e, "has left");
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = true;
	must(&v, 6, 2300, &e);
	request(&e, BLACK, FOLD_REQ_MADE, 0, NULL);
	must(&v, 7, 2400, &e);
	request(&e, WHITE, FOLD_REQ_ACCEPTED, 0, "not an id!");
	refused(&v, 8, 2500, &e, "names no game");
	request(&e, WHITE, FOLD_REQ_ACCEPTED, 0, G2);
	must(&v, 8, 2500, &e);
	ck_assert_str_eq(v.next_game, G2);
	request(&e, BLACK, FOLD_REQ_MADE, 0, NULL);
	refused(&v, 9, 2600, &e, "accepted already");

	/* Game 1's series after it: bob (black) 1 point. */
	struct fold_series s, next;
	ck_assert(fold_series_after(&v, G1, &s));
	ck_assert_str_eq(s.id, G1);
	ck_assert_int_eq(s.game, 1);
	ck_assert_int_eq(s.score.half[BLACK], 2);
	ck_assert_int_eq(s.score.half[WHITE], 0);
	fold_series_next(&v, G1, &next);
	fold_view_fini(&v);
	ck_assert_int_eq(next.game, 2);
	ck_assert_str_eq(next.previous, G1);
	ck_assert_int_eq(next.score.half[WHITE], 2); /* bob, white now */

	/* Game 2 carries it in game-created (encoded, decoded) and starts
	 * with the full time. */
	new_game(&v, false, &next);
	ck_assert_str_eq(v.series.id, G1);
	ck_assert_int_eq(v.series.game, 2);
	ck_assert_int_eq(v.series.score.half[WHITE], 2);
	struct fold_clock_reading r;
	fold_clock_read(&v, 1000, &r);
	ck_assert_int_eq(r.ms[WHITE], 300000);
	ck_assert_int_eq(r.ms[BLACK], 300000);
	char *snap = fold_snapshot_encode(&v, G2, 1000, 0);
	ck_assert_msg(strstr(snap, "\"series\":{\"id\":\"" G1 "\",\"game\":2,\"previous\":\"" G1 "\",\"next\":null,"
				   "\"score\":{\"white\":1,\"black\":0}"),
		      "%s", snap);
	free(snap);
	fold_view_fini(&v);
	/* Inconsistent series members do not decode. */
	struct fold_event back;
	struct protocol_error err;
	const char *bad = "{\"tc\":\"5+0\",\"ruleset\":\"fide\",\"fen\":\"" FEN_START "\",\"opponent\":\"open\","
			  "\"white\":null,\"black\":null,\"series\":{\"id\":\"" G1 "\",\"game\":2,\"previous\":\"" G1
			  "\",\"white_half_points\":3,\"black_half_points\":0,\"scored\":1}}";
	ck_assert_int_ne(fold_event_decode("game-created", bad, &back, &err), 0);
	ck_assert_msg(strstr(err.message, "series"), "%s", err.message);
}
END_TEST

static Suite *fold_undo_suite(void)
{
	Suite *s = suite_create("fold-undo-series");
	TCase *tc = tcase_create("fold");
	tcase_add_test(tc, test_undo_fold);
	tcase_add_test(tc, test_rematch_fold);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fold_undo_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
