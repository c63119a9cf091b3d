/*
 * The tournament and correspondence models without a terminal or a
 * network: server answers (as tchess-protocol(7) words them) parsed into
 * the view, the standings / crosstable / game rows laid out, keys turned
 * into commands and requests, and deadlines as text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corr.h"
#include "keys.h"
#include "tchess/position.h"
#include "tourney.h"

#define MIN_MS (60 * 1000LL)
#define HOUR_MS (60 * MIN_MS)
#define DAY_MS (24 * HOUR_MS)
/* 2026-12-09 00:00 UTC. */
#define DEC9 INT64_C(1796774400000)

/* A 3-player round robin as the server answers it, with two places
 * sharing "2-3" and prizes; the figures are made up for the layout (the
 * client never computes them, it shows the server's). */
static const char finished_json[] =
	"{\"id\":\"f59252c8f4ffd76f10567d62f3c2d895\",\"kind\":\"round-robin\",\"players\":3,\"registered\":3,"
	"\"tc\":\"corr:10d/10\",\"ruleset\":\"chessgamble\",\"status\":\"finished\",\"stake\":10,\"pot\":30,"
	"\"payout_percent\":100,\"places\":[60,40],\"creator\":1,\"created_ms\":1,\"started_ms\":2,"
	"\"finished_ms\":3,\"seed\":\"99\",\"you\":{\"player\":1,\"credits\":1005,\"registered\":true},"
	"\"entrants\":[{\"player\":1,\"name\":\"ann\"},{\"player\":2,\"name\":\"bob\"},{\"player\":3,\"name\":\"cat\"}],"
	"\"standings\":["
	"{\"place\":\"1\",\"place_first\":1,\"place_last\":1,\"player\":3,\"name\":\"cat\",\"points\":1.5,"
	"\"half_points\":3,\"sb\":1.25,\"sb_quarters\":5,\"played\":2,\"wins\":1,\"draws\":1,\"losses\":0,\"prize\":18},"
	"{\"place\":\"2-3\",\"place_first\":2,\"place_last\":3,\"player\":1,\"name\":\"ann\",\"points\":1,"
	"\"half_points\":2,\"sb\":0.5,\"sb_quarters\":2,\"played\":2,\"wins\":1,\"draws\":0,\"losses\":1,\"prize\":6},"
	"{\"place\":\"2-3\",\"place_first\":2,\"place_last\":3,\"player\":2,\"name\":\"bob\",\"points\":0.5,"
	"\"half_points\":1,\"sb\":0.75,\"sb_quarters\":3,\"played\":2,\"wins\":0,\"draws\":1,\"losses\":1,\"prize\":6}],"
	"\"crosstable\":{\"cycles\":1,\"order\":[3,1,2],\"rows\":["
	"{\"player\":3,\"cells\":[[null],[{\"game\":\"b0000000000000000000000000000000\",\"color\":\"white\","
	"\"outcome\":\"1-0\",\"score\":2}],[{\"game\":\"c0000000000000000000000000000000\",\"color\":\"black\","
	"\"outcome\":\"1/2-1/2\",\"score\":1}]]},"
	"{\"player\":1,\"cells\":[[{\"game\":\"b0000000000000000000000000000000\",\"color\":\"black\","
	"\"outcome\":\"1-0\",\"score\":0}],[null],[{\"game\":\"a0000000000000000000000000000000\",\"color\":\"white\","
	"\"outcome\":\"1-0\",\"score\":2}]]},"
	"{\"player\":2,\"cells\":[[{\"game\":\"c0000000000000000000000000000000\",\"color\":\"white\","
	"\"outcome\":\"1/2-1/2\",\"score\":1}],[{\"game\":\"a0000000000000000000000000000000\",\"color\":\"black\","
	"\"outcome\":\"1-0\",\"score\":0}],[null]]}]},"
	"\"games\":["
	"{\"index\":0,\"round\":1,\"board\":1,\"id\":\"a0000000000000000000000000000000\",\"white\":1,\"black\":2,"
	"\"outcome\":\"1-0\"},"
	"{\"index\":1,\"round\":2,\"board\":1,\"id\":\"b0000000000000000000000000000000\",\"white\":3,\"black\":1,"
	"\"outcome\":\"1-0\"},"
	"{\"index\":2,\"round\":3,\"board\":1,\"id\":\"c0000000000000000000000000000000\",\"white\":2,\"black\":3,"
	"\"outcome\":\"pending\"}],"
	"\"byes\":[{\"round\":1,\"player\":3},{\"round\":2,\"player\":2},{\"round\":3,\"player\":1}]}";

static const char list_json[] =
	"{\"tournaments\":[{\"id\":\"11111111aaaaaaaaaaaaaaaaaaaaaaaa\",\"kind\":\"double-round-robin\",\"players\":4,"
	"\"registered\":1,\"tc\":\"5+3\",\"ruleset\":\"fide\",\"status\":\"open\",\"stake\":0,\"pot\":0,"
	"\"payout_percent\":0,\"places\":[],\"creator\":1,\"created_ms\":1,\"started_ms\":null,\"finished_ms\":null,"
	"\"seed\":null},"
	"{\"id\":\"22222222bbbbbbbbbbbbbbbbbbbbbbbb\",\"kind\":\"round-robin\",\"players\":3,\"registered\":3,"
	"\"tc\":\"corr:10d/10\",\"ruleset\":\"chessgamble\",\"status\":\"running\",\"stake\":10,\"pot\":30,"
	"\"payout_percent\":100,\"places\":[100],\"creator\":1,\"created_ms\":1,\"started_ms\":2,"
	"\"finished_ms\":null,\"seed\":null}]}";

static char *line_of(const struct tourney_line *lines, size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i].text, needle))
			return (char *)lines[i].text;
	return NULL;
}

START_TEST(test_parse_tournament)
{
	struct protocol_tournament_view t;
	char err[200];
	ck_assert_int_eq(protocol_tournament_view_decode(finished_json, strlen(finished_json), &t, err, sizeof err), 0);
	ck_assert_str_eq(t.sum.status, "finished");
	ck_assert_int_eq(t.sum.pot, 30);
	ck_assert_int_eq(t.sum.n_places, 2);
	ck_assert(t.sum.has_you && t.sum.you.registered);
	ck_assert_int_eq(t.sum.you.credits, 1005);
	ck_assert_uint_eq(t.n_standings, 3);
	ck_assert_str_eq(t.standings[1].place, "2-3");
	ck_assert_int_eq(t.standings[0].sb_quarters, 5);
	ck_assert_int_eq(t.standings[2].prize, 6);
	ck_assert_int_eq(t.cycles, 1);
	ck_assert_int_eq(t.order[0], 3);
	ck_assert(!t.cells[0][0][0].game);
	ck_assert_int_eq(t.cells[0][1][0].score, 2);
	ck_assert_uint_eq(t.n_games, 3);
	ck_assert_uint_eq(t.n_byes, 3);
	protocol_tournament_view_fini(&t);
}
END_TEST

START_TEST(test_parse_refuses_bad_answers)
{
	struct protocol_tournament_view t;
	char err[200];
	ck_assert_int_eq(protocol_tournament_view_decode("[]", 2, &t, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: tournament: expected a JSON object");
	const char *bad = "{\"id\":\"x1\",\"kind\":\"round-robin\",\"players\":\"3\",\"registered\":0,\"tc\":\"5+3\"}";
	ck_assert_int_eq(protocol_tournament_view_decode(bad, strlen(bad), &t, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: tournament: member \"players\" must be an integer");
	ck_assert_int_eq(protocol_tournament_view_decode("{", 1, &t, err, sizeof err), -1);
	/* Null only where tchess-protocol(7) allows it (seed, started_ms). */
	const char *null_id = "{\"id\":null,\"players\":3,\"registered\":0}";
	ck_assert_int_eq(protocol_tournament_view_decode(null_id, strlen(null_id), &t, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: tournament: member \"id\" must be a string");
	/* A part of the wrong shape is refused in its element's words, and
	 * leaves t empty. */
	const char *bad_game = "{\"id\":\"x1\",\"players\":3,\"registered\":0,\"games\":[{\"index\":0,\"round\":1,"
			       "\"white\":1,\"black\":\"2\"}]}";
	ck_assert_int_eq(protocol_tournament_view_decode(bad_game, strlen(bad_game), &t, err, sizeof err), -1);
	ck_assert_str_eq(err,
			 "unexpected answer from the server: tournament game: member \"black\" must be an integer");
	ck_assert_ptr_null(t.games);
	ck_assert_uint_eq(t.n_games, 0);
	struct protocol_tournament_summary *l;
	size_t n;
	ck_assert_int_eq(protocol_tournament_list_decode("{\"tournaments\":3}", 17, &l, &n, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: tournaments: member \"tournaments\" must be an array");
	ck_assert_ptr_null(l);
	/* A newer server's members are skipped, at every level. */
	const char *newer = "{\"tournaments\":[{\"id\":\"x1\",\"players\":3,\"registered\":1,\"arena\":true,"
			    "\"you\":{\"player\":1,\"credits\":5,\"registered\":true,\"badge\":\"gold\"}}],\"page\":1}";
	ck_assert_int_eq(protocol_tournament_list_decode(newer, strlen(newer), &l, &n, err, sizeof err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].id, "x1");
	ck_assert(l[0].has_you && l[0].you.registered);
	ck_assert_int_eq(l[0].you.credits, 5);
	free(l);
}
END_TEST

/* The client reads with the tables the server writes with: what it read
 * of a whole answer, written back, is the server's text member for
 * member (points and sb written from the exact figures). */
START_TEST(test_answers_written_back)
{
	struct protocol_tournament_view t;
	char err[200];
	ck_assert_int_eq(protocol_tournament_view_decode(finished_json, strlen(finished_json), &t, err, sizeof err), 0);
	ck_assert_uint_eq(t.parts, PROTOCOL_TOURNAMENT_ALL);
	char *s = protocol_tournament_view_encode(&t);
	ck_assert_str_eq(s, finished_json);
	free(s);
	/* The parts not in the answer are not written. */
	t.parts = PROTOCOL_TOURNAMENT_STANDINGS;
	s = protocol_tournament_view_encode(&t);
	ck_assert_ptr_null(strstr(s, "\"entrants\""));
	ck_assert_ptr_null(strstr(s, "\"crosstable\""));
	ck_assert_ptr_null(strstr(s, "\"byes\""));
	ck_assert_ptr_nonnull(strstr(s, "\"standings\":[{\"place\":\"1\""));
	free(s);
	protocol_tournament_view_fini(&t);
	struct protocol_tournament_summary *l;
	size_t n;
	ck_assert_int_eq(protocol_tournament_list_decode(list_json, strlen(list_json), &l, &n, err, sizeof err), 0);
	ck_assert_uint_eq(n, 2);
	s = protocol_tournament_summaries_encode(l, n);
	ck_assert_str_eq(s, list_json);
	free(s);
	free(l);
}
END_TEST

/* "Ordered by points, then Sonneborn-Berger; players equal on both share
 * the places they cover ("2-3")" (tchess-protocol(7)): the client shows
 * the server's places and figures as they come. */
START_TEST(test_standings_layout)
{
	struct protocol_tournament_view t;
	char err[200], buf[TOURNEY_LINE_MAX];
	ck_assert_int_eq(protocol_tournament_view_decode(finished_json, strlen(finished_json), &t, err, sizeof err), 0);
	tourney_standings_header(buf, sizeof buf);
	ck_assert_str_eq(buf, "Place  Player               Pts     SB   +   =   -  Prize");
	tourney_standing_line(&t, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "1      cat                  1.5   1.25   1   1   0  18");
	tourney_standing_line(&t, 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "2-3    ann                    1    0.5   1   0   1  6");
	tourney_standing_line(&t, 2, buf, sizeof buf);
	ck_assert_str_eq(buf, "2-3    bob                  0.5   0.75   0   1   1  6");
	protocol_tournament_view_fini(&t);
}
END_TEST

START_TEST(test_points_text)
{
	char buf[16];
	tourney_points_text(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "0");
	tourney_points_text(7, buf, sizeof buf);
	ck_assert_str_eq(buf, "3.5");
	tourney_sb_text(9, buf, sizeof buf);
	ck_assert_str_eq(buf, "2.25");
	tourney_sb_text(11, buf, sizeof buf);
	ck_assert_str_eq(buf, "2.75");
	tourney_sb_text(8, buf, sizeof buf);
	ck_assert_str_eq(buf, "2");
}
END_TEST

START_TEST(test_crosstable_layout)
{
	struct protocol_tournament_view t;
	char err[200], buf[TOURNEY_LINE_MAX];
	struct tourney_xt xt;
	ck_assert_int_eq(protocol_tournament_view_decode(finished_json, strlen(finished_json), &t, err, sizeof err), 0);
	/* Three players fit any screen: names of 16, every column. */
	tourney_crosstable_fit(&t, 80, 0, &xt);
	ck_assert_int_eq(xt.name_w, 16);
	ck_assert_uint_eq(xt.first, 0);
	ck_assert_uint_eq(xt.count, 3);
	tourney_crosstable_header(&t, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  #  Player            1  2  3");
	tourney_crosstable_line(&t, 0, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  1  cat               *  1  =");
	tourney_crosstable_line(&t, 1, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  2  ann               0  *  1");
	tourney_crosstable_line(&t, 2, false, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  3  bob               \u00bd  0  *");
	/* A pending game and an unscored one. */
	t.cells[0][2][0].score = -1;
	snprintf(t.cells[0][2][0].outcome, sizeof t.cells[0][2][0].outcome, "pending");
	t.cells[1][2][0].score = -1;
	snprintf(t.cells[1][2][0].outcome, sizeof t.cells[1][2][0].outcome, "unscored");
	tourney_crosstable_line(&t, 0, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  1  cat               *  1  .");
	tourney_crosstable_line(&t, 1, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  2  ann               0  *  x");
	/* Double round robin: two results per cell. */
	t.cycles = 2;
	t.cells[0][1][1] = t.cells[0][1][0];
	t.cells[0][1][1].score = 1;
	t.cells[0][2][1] = t.cells[0][2][0];
	tourney_crosstable_fit(&t, 0, 0, &xt);
	tourney_crosstable_header(&t, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  #  Player             1   2   3");
	tourney_crosstable_line(&t, 0, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  1  cat               **  1=  ..");
	protocol_tournament_view_fini(&t);
}
END_TEST


START_TEST(test_detail_lines)
{
	struct protocol_tournament_view t;
	struct tourney_line *lines;
	char err[200];
	ck_assert_int_eq(protocol_tournament_view_decode(finished_json, strlen(finished_json), &t, err, sizeof err), 0);
	size_t n = tourney_build_lines(&t, 1, 1005, false, true, 80, 0, &lines);
	ck_assert_str_eq(lines[0].text, "#f59252c8 round robin, 3/3 players, corr:10d/10, chessgamble, finished");
	ck_assert_str_eq(lines[1].text, "stake 10 credits, pot 30, prizes 100%: 1st 60% 2nd 40%   your credits: 1005");
	ck_assert_ptr_nonnull(line_of(lines, n, "Your games"));
	/* ann (1) plays games 0 and 1, not 2; her bye is in round 3. */
	int games = 0;
	for (size_t i = 0; i < n; i++)
		if (lines[i].kind == TOURNEY_LINE_GAME) {
			ck_assert(lines[i].game == 0 || lines[i].game == 1);
			games++;
		}
	ck_assert_int_eq(games, 2);
	ck_assert_ptr_nonnull(line_of(lines, n, " * R1  B1  ann              - bob              1-0      a0000000"));
	ck_assert_ptr_nonnull(line_of(lines, n, "   R3  bye: ann"));
	ck_assert_ptr_null(line_of(lines, n, "bye: bob"));
	free(lines);
	/* All games: three, the third still running. */
	n = tourney_build_lines(&t, 1, 1005, true, true, 80, 0, &lines);
	ck_assert_ptr_nonnull(line_of(lines, n, "   R3  B1  bob              - cat              running  c0000000"));
	free(lines);
	protocol_tournament_view_fini(&t);
}
END_TEST

static void answer(struct tourney_view *v, enum tourney_req_kind kind, int status, const char *body)
{
	struct tourney_req r;
	ck_assert(tourney_take_request(v, &r));
	ck_assert_int_eq(r.kind, kind);
	tourney_on_answer(v, &r, status, body, body ? strlen(body) : 0);
}

static void press(struct tourney_view *v, int key)
{
	struct tourney_cmd c = tourney_key(v, key);
	tourney_apply(v, &c);
}

START_TEST(test_list_screen)
{
	struct tourney_view v;
	struct tourney_req r;
	char path[128], *body;
	const char *method;
	tourney_view_init(&v, NULL, 1);
	struct tourney_cmd rs = { TOURNEY_CMD_RESIZE, 80, 24 };
	tourney_apply(&v, &rs);
	answer(&v, TOURNEY_REQ_ME, 200, "{\"player\":1,\"name\":\"ann\",\"credits\":990}");
	ck_assert_int_eq(v.credits, 990);
	answer(&v, TOURNEY_REQ_LIST, 200, list_json);
	ck_assert_uint_eq(v.n_list, 2);
	char buf[TOURNEY_LINE_MAX];
	tourney_list_line(&v.list[0], buf, sizeof buf);
	ck_assert_str_eq(buf, " 11111111  double round robin  1/4      5+3           0      open");
	/* Keys: j moves, r registers the selected one; keys change nothing
	 * by themselves. */
	struct tourney_cmd c = tourney_key(&v, 'j');
	ck_assert_int_eq(c.kind, TOURNEY_CMD_MOVE);
	ck_assert_uint_eq(v.list_sel, 0);
	tourney_apply(&v, &c);
	ck_assert_uint_eq(v.list_sel, 1);
	press(&v, 'j');
	ck_assert_uint_eq(v.list_sel, 1);
	press(&v, 'r');
	ck_assert(tourney_take_request(&v, &r));
	ck_assert_int_eq(r.kind, TOURNEY_REQ_REGISTER);
	tourney_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_str_eq(method, "POST");
	ck_assert_str_eq(path, "/v1/tournaments/22222222bbbbbbbbbbbbbbbbbbbbbbbb/register");
	free(body);
	/* The server's refusal is shown as it words it. */
	const char *refusal = "{\"error\":\"illegal\",\"message\":\"your balance (5) is below the stake (10)\"}";
	tourney_on_answer(&v, &r, 422, refusal, strlen(refusal));
	ck_assert(v.message_error);
	ck_assert_str_eq(v.message, "registration refused: your balance (5) is below the stake (10)");
	/* Enter opens it; the answer switches to the detail screen. */
	press(&v, KEYS_ENTER);
	answer(&v, TOURNEY_REQ_DETAIL, 200, finished_json);
	ck_assert_int_eq(v.screen, TOURNEY_SCREEN_DETAIL);
	ck_assert_int_eq(v.credits, 1005);
	/* Esc goes back to the list and reloads it. */
	press(&v, KEYS_ESC);
	ck_assert_int_eq(v.screen, TOURNEY_SCREEN_LIST);
	ck_assert(!v.quit);
	answer(&v, TOURNEY_REQ_LIST, 200, list_json);
	press(&v, 'q');
	ck_assert(v.quit);
	tourney_view_fini(&v);
}
END_TEST

START_TEST(test_detail_opens_games)
{
	struct tourney_view v;
	struct tourney_req r;
	tourney_view_init(&v, "f59252c8f4ffd76f10567d62f3c2d895", 2);
	struct tourney_cmd rs = { TOURNEY_CMD_RESIZE, 80, 24 };
	tourney_apply(&v, &rs);
	answer(&v, TOURNEY_REQ_ME, 200, "{\"player\":2,\"name\":\"bob\",\"credits\":990}");
	answer(&v, TOURNEY_REQ_DETAIL, 200, finished_json);
	/* bob's games: 0 (over, as Black) and 2 (running, as White). */
	ck_assert(v.sel_line >= 0);
	ck_assert_int_eq(v.lines[v.sel_line].game, 0);
	press(&v, KEYS_ENTER);
	ck_assert(tourney_take_request(&v, &r));
	ck_assert_int_eq(r.kind, TOURNEY_REQ_OPEN_GAME);
	ck_assert_str_eq(r.id, "a0000000000000000000000000000000");
	ck_assert_int_eq(r.color, -1); /* over: watched */
	press(&v, 'j');
	ck_assert_int_eq(v.lines[v.sel_line].game, 2);
	press(&v, KEYS_ENTER);
	ck_assert(tourney_take_request(&v, &r));
	ck_assert_str_eq(r.id, "c0000000000000000000000000000000");
	ck_assert_int_eq(r.color, WHITE); /* his own, running: played */
	/* Back from the game: the tournament and the balance are reloaded. */
	tourney_on_answer(&v, &r, 0, NULL, 0);
	answer(&v, TOURNEY_REQ_DETAIL, 200, finished_json);
	answer(&v, TOURNEY_REQ_ME, 200, "{\"player\":2,\"name\":\"bob\",\"credits\":996}");
	ck_assert_int_eq(v.credits, 996);
	ck_assert_str_eq(v.message, "");
	/* A game that cannot be shown: the screen closed at once, and back
	 * here the player is told why (and the reloads keep the message). */
	press(&v, KEYS_ENTER);
	ck_assert(tourney_take_request(&v, &r));
	ck_assert_int_eq(r.kind, TOURNEY_REQ_OPEN_GAME);
	const char *why = "this game was aborted and erased (nothing more will come)";
	tourney_on_answer(&v, &r, -1, why, strlen(why));
	ck_assert(v.message_error);
	ck_assert_str_eq(v.message, "cannot open game c0000000: this game was aborted and erased (nothing more will come)");
	answer(&v, TOURNEY_REQ_DETAIL, 200, finished_json);
	answer(&v, TOURNEY_REQ_ME, 200, "{\"player\":2,\"name\":\"bob\",\"credits\":996}");
	ck_assert_str_eq(v.message, "cannot open game c0000000: this game was aborted and erased (nothing more will come)");
	/* a: every game, the selection kept. */
	press(&v, 'a');
	ck_assert_int_eq(v.lines[v.sel_line].game, 2);
	press(&v, 'k');
	press(&v, 'k');
	ck_assert_int_eq(v.lines[v.sel_line].game, 0);
	/* Without a list, Esc quits. */
	press(&v, KEYS_ESC);
	ck_assert(v.quit);
	tourney_view_fini(&v);
}
END_TEST

/* A 32-player crosstable at 80 columns ("a crosstable wider than the
 * terminal is cut off"): names cut to 10, a window of 21 columns, h and l
 * move it by half a window, and every column can be reached. */
static void wide_tourney(struct protocol_tournament_view *t, int cycles)
{
	memset(t, 0, sizeof *t);
	snprintf(t->sum.id, sizeof t->sum.id, "0123456789abcdef0123456789abcdef");
	snprintf(t->sum.status, sizeof t->sum.status, "running");
	t->cycles = cycles;
	t->n_order = t->n_entrants = TOURNAMENT_PLAYERS_MAX;
	for (size_t k = 0; k < t->n_order; k++) {
		t->order[k] = (int64_t)k + 1;
		t->entrants[k].player = (int64_t)k + 1;
		snprintf(t->entrants[k].name, sizeof t->entrants[k].name, "grandmaster%02u", (unsigned)(k + 1) % 100u);
		for (size_t c = 0; c < t->n_order; c++)
			for (int cy = 0; cy < 2; cy++) {
				struct protocol_tournament_cell *cell = &t->cells[k][c][cy];
				cell->game = c != k;
				cell->score = c < k ? 2 : 0;
				snprintf(cell->outcome, sizeof cell->outcome, "1-0");
			}
	}
}

START_TEST(test_crosstable_wide)
{
	struct protocol_tournament_view t;
	struct tourney_xt xt;
	char buf[TOURNEY_LINE_MAX];
	wide_tourney(&t, 1);
	/* Unlimited: the old layout, 5 + 16 + 32 * 3 columns. */
	tourney_crosstable_fit(&t, 0, 0, &xt);
	tourney_crosstable_header(&t, &xt, buf, sizeof buf);
	ck_assert_int_eq((int)strlen(buf), 5 + 16 + 96);
	/* 80 columns: names of 10, 21 columns of 3. */
	tourney_crosstable_fit(&t, 80, 0, &xt);
	ck_assert_int_eq(xt.name_w, 10);
	ck_assert_uint_eq(xt.count, 21);
	tourney_crosstable_header(&t, &xt, buf, sizeof buf);
	ck_assert_int_le((int)strlen(buf), 80);
	ck_assert_str_eq(buf, "  #  Player      1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21");
	tourney_crosstable_line(&t, 1, true, &xt, buf, sizeof buf);
	ck_assert(!strncmp(buf, "  2  grand~er02  1  *  0", 24));
	/* A window past the end is moved back to end at the last column. */
	tourney_crosstable_fit(&t, 80, 30, &xt);
	ck_assert_uint_eq(xt.first, 11);
	tourney_crosstable_header(&t, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf, "  #  Player     12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32");
	tourney_crosstable_line(&t, 31, true, &xt, buf, sizeof buf);
	ck_assert_str_eq(buf + strlen(buf) - 6, "  1  *");
	/* Double round robin: 4 columns each, 16 of them. */
	wide_tourney(&t, 2);
	tourney_crosstable_fit(&t, 80, 0, &xt);
	ck_assert_uint_eq(xt.count, 16);
	tourney_crosstable_line(&t, 0, true, &xt, buf, sizeof buf);
	ck_assert_int_le((int)strlen(buf), 80);
	ck_assert(!strncmp(buf, "  1  grand~er01  **  00  00", 27));
}
END_TEST

START_TEST(test_crosstable_scroll_keys)
{
	struct tourney_view v;
	tourney_view_init(&v, "0123456789abcdef0123456789abcdef", 0);
	struct tourney_req r;
	ck_assert(tourney_take_request(&v, &r));
	wide_tourney(&v.t, 1);
	v.have_t = true;
	struct tourney_cmd rs = { TOURNEY_CMD_RESIZE, 80, 24 };
	tourney_apply(&v, &rs);
	struct tourney_xt xt;
	ck_assert(tourney_crosstable_clipped(&v, &xt));
	ck_assert_uint_eq(xt.first, 0);
	char *title = line_of(v.lines, v.n_lines, "Crosstable:");
	ck_assert_ptr_nonnull(title);
	ck_assert_str_eq(title, "Crosstable: opponents 1-21 of 32   l ->");
	/* The status line names the keys, whole, within the 80 columns. */
	char status[300];
	tourney_status_line(&v, 80, status, sizeof status);
	ck_assert_str_eq(status, "Enter open game  h/l columns  a all/yours  r register  ? help  q quit");
	tourney_status_line(&v, 50, status, sizeof status);
	ck_assert_str_eq(status, "Enter open game  h/l columns  ? help  q quit");
	/* l: half a window on; the key only asks, apply moves. */
	struct tourney_cmd c = tourney_key(&v, 'l');
	ck_assert_int_eq(c.kind, TOURNEY_CMD_COLUMNS);
	ck_assert_uint_eq(v.xt_first, 0);
	tourney_apply(&v, &c);
	ck_assert_uint_eq(v.xt_first, 10);
	press(&v, 'l');
	ck_assert_uint_eq(v.xt_first, 11);
	ck_assert_str_eq(line_of(v.lines, v.n_lines, "Crosstable:"), "Crosstable: opponents 12-32 of 32   h <-");
	ck_assert_ptr_nonnull(line_of(v.lines, v.n_lines, " 31 32"));
	press(&v, 'h');
	ck_assert_uint_eq(v.xt_first, 1);
	ck_assert_str_eq(line_of(v.lines, v.n_lines, "Crosstable:"),
			 "Crosstable: opponents 2-22 of 32   h <-  l ->");
	press(&v, 'h');
	ck_assert_uint_eq(v.xt_first, 0);
	/* Wide enough: no title, nothing to scroll. */
	struct tourney_cmd wide = { TOURNEY_CMD_RESIZE, 130, 40 };
	tourney_apply(&v, &wide);
	ck_assert(!tourney_crosstable_clipped(&v, NULL));
	ck_assert_ptr_null(line_of(v.lines, v.n_lines, "Crosstable:"));
	press(&v, 'l');
	ck_assert_str_eq(v.message, "the crosstable fits: nothing to scroll");
	tourney_view_fini(&v);
}
END_TEST

/* Correspondence: "absolute deadlines shown in the client" (issue 7);
 * correspondence time is charged "to the minute". */
START_TEST(test_deadline_text)
{
	char buf[96];
	int64_t deadline = DEC9 + 21 * HOUR_MS + 47 * MIN_MS + 59 * 1000;
	int64_t now = deadline - (2 * DAY_MS + 3 * HOUR_MS + 30 * MIN_MS);
	corr_deadline_text(deadline, now, 80, buf, sizeof buf);
	ck_assert_str_eq(buf, "due 2026-12-09 21:47 UTC (in 2d 3h)");
	corr_deadline_text(deadline, now, 31, buf, sizeof buf);
	ck_assert_str_eq(buf, "2026-12-09 21:47 UTC, in 2d 3h");
	corr_deadline_text(deadline, now, 25, buf, sizeof buf);
	ck_assert_str_eq(buf, "12-09 21:47 UTC in 2d 3h");
	corr_deadline_text(deadline, now, 10, buf, sizeof buf);
	ck_assert_str_eq(buf, "in 2d 3h");
	corr_deadline_text(deadline, deadline + 1, 80, buf, sizeof buf);
	ck_assert_str_eq(buf, "overdue since 2026-12-09 21:47 UTC");
	corr_deadline_text(deadline, deadline, 12, buf, sizeof buf);
	ck_assert_str_eq(buf, "overdue");
	corr_span_text(5 * HOUR_MS + 12 * MIN_MS + 59999, buf, sizeof buf);
	ck_assert_str_eq(buf, "5h 12m");
	corr_span_text(12 * MIN_MS, buf, sizeof buf);
	ck_assert_str_eq(buf, "12m");
	corr_span_text(59999, buf, sizeof buf);
	ck_assert_str_eq(buf, "<1m");
	corr_span_text(10 * DAY_MS, buf, sizeof buf);
	ck_assert_str_eq(buf, "10d 0h");
}
END_TEST

START_TEST(test_my_games)
{
	const char *json = "{\"games\":[{\"id\":\"05527d383faaedbabbf801662a508b2b\",\"status\":\"playing\","
			   "\"tc\":\"corr:10d/10\",\"color\":\"white\",\"opponent\":{\"player\":2,\"name\":\"bob\"},"
			   "\"ply\":0,\"your_move\":true,\"deadline_ms\":1796852935205,\"tournament\":\"f5\"},"
			   "{\"id\":\"764cb576fd06b243e78d7dbc1a54fab7\",\"status\":\"open\",\"tc\":\"5+3\","
			   "\"color\":\"black\",\"opponent\":null,\"ply\":0,\"your_move\":false,\"deadline_ms\":null,"
			   "\"tournament\":null}],\"now_ms\":1795988935605}";
	struct protocol_my_games g;
	char err[200];
	ck_assert_int_eq(protocol_my_games_decode(json, strlen(json), &g, err, sizeof err), 0);
	ck_assert_uint_eq(g.n, 2);
	ck_assert_int_eq(g.now_ms, 1795988935605);
	ck_assert(g.games[0].your_move);
	ck_assert_str_eq(g.games[0].opponent_name, "bob");
	ck_assert_int_eq(g.games[0].opponent, 2);
	ck_assert_int_eq(g.games[0].deadline_ms, 1796852935205);
	ck_assert(corr_tc_is_correspondence(g.games[0].tc));
	ck_assert(!g.games[1].your_move);
	ck_assert_int_eq(g.games[1].deadline_ms, INT64_MAX);
	ck_assert_str_eq(g.games[1].opponent_name, "");
	ck_assert(!corr_tc_is_correspondence(g.games[1].tc));
	ck_assert_ptr_eq(corr_my_games_find(&g, "764cb576fd06b243e78d7dbc1a54fab7"), &g.games[1]);
	ck_assert_ptr_null(corr_my_games_find(&g, "nope"));
	/* Written back with the server's encoder: the same text. */
	char *back = protocol_my_games_encode(g.games, g.n, g.now_ms);
	ck_assert_str_eq(back, json);
	free(back);
	protocol_my_games_fini(&g);
	ck_assert_int_eq(protocol_my_games_decode("{\"games\":[{\"id\":7}],\"now_ms\":1}", 31, &g, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: game: member \"id\" must be a string");
	ck_assert_uint_eq(g.n, 0);
	ck_assert_ptr_null(g.games);
	/* "tournament" may be null, "color" may not. */
	const char *null_color = "{\"games\":[{\"id\":\"a1\",\"color\":null,\"ply\":0,\"deadline_ms\":null}],"
				 "\"now_ms\":1}";
	ck_assert_int_eq(protocol_my_games_decode(null_color, strlen(null_color), &g, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: game: member \"color\" must be a string");
}
END_TEST

/* Vacations are "booked at least the day before it starts (days run
 * 00:00-24:00 UTC)" (issue 7): the client checks only the form and leaves
 * the rule to the server. */
START_TEST(test_vacations)
{
	char *body, err[200], line[160];
	ck_assert_int_eq(corr_vacation_request("2026-12-10", "2", &body, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(body, "\"start\":\"2026-12-10\""));
	ck_assert_ptr_nonnull(strstr(body, "\"days\":2"));
	free(body);
	ck_assert_int_eq(corr_vacation_request("2026-02-29", "1", &body, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "is not a date"));
	ck_assert_int_eq(corr_vacation_request("2026-1-10", "1", &body, err, sizeof err), -1);
	ck_assert_int_eq(corr_vacation_request("2026-12-10", "0", &body, err, sizeof err), -1);
	ck_assert_int_eq(corr_vacation_request("2026-12-10", "121", &body, err, sizeof err), -1);
	ck_assert_int_eq(corr_vacation_request("2026-12-10", "2x", &body, err, sizeof err), -1);
	const char *json = "{\"vacations\":[{\"id\":3,\"start\":\"2026-12-10\",\"days\":2,\"start_ms\":1796860800000,"
			   "\"end_ms\":1797033600000,\"active\":false,\"cancellable\":true}],"
			   "\"allowance\":[{\"year\":2026,\"days\":60,\"booked\":2,\"left\":58}],\"on_vacation\":false}";
	struct protocol_vacation_list vs;
	ck_assert_int_eq(protocol_vacation_list_decode(json, strlen(json), &vs, err, sizeof err), 0);
	ck_assert_uint_eq(vs.n, 1);
	ck_assert_uint_eq(vs.n_allowance, 1);
	ck_assert_int_eq(vs.allowance[0].left, 58);
	corr_vacation_line(&vs.v[0], line, sizeof line);
	ck_assert_str_eq(line, "#3    2026-12-10    2 days  (to 2026-12-11)  cancellable");
	char *back = protocol_vacations_encode(vs.v, vs.n, vs.allowance, vs.n_allowance, vs.on_vacation);
	ck_assert_str_eq(back, json);
	free(back);
	ck_assert_int_eq(protocol_vacation_list_decode("{}", 2, &vs, err, sizeof err), -1);
	ck_assert_str_eq(err, "unexpected answer from the server: vacations: member \"vacations\" is missing");
}
END_TEST

static Suite *tourney_suite(void)
{
	Suite *s = suite_create("tourney");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_parse_tournament);
	tcase_add_test(tc, test_parse_refuses_bad_answers);
	tcase_add_test(tc, test_answers_written_back);
	tcase_add_test(tc, test_standings_layout);
	tcase_add_test(tc, test_points_text);
	tcase_add_test(tc, test_crosstable_layout);
	tcase_add_test(tc, test_crosstable_wide);
	tcase_add_test(tc, test_crosstable_scroll_keys);
	tcase_add_test(tc, test_detail_lines);
	tcase_add_test(tc, test_list_screen);
	tcase_add_test(tc, test_detail_opens_games);
	tcase_add_test(tc, test_deadline_text);
	tcase_add_test(tc, test_my_games);
	tcase_add_test(tc, test_vacations);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tourney_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
