/*
 * The Lichess game model and stream reader without a network: the
 * transcripts of tests/data/lichess fed through the line splitter in
 * chunks of every size down to one byte, decoded, and applied to the
 * model; the view must be the fold's (moves rebuilt on a take-back, both
 * castling forms), the clocks counted down from the last gameState, the
 * offers, chat, absence and end read as Lichess says; bad lines refused
 * with the model unchanged; the reopen rules (watchdog, backoff, 429,
 * final status).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "lichess-game.h"
#include "lichess-oauth.h"
#include "lichess-stream.h"
#include "lichess-watch.h"
#include "session.h"
#include "tchess/fen.h"
#include "testdata.h"

struct feed {
	struct lichess_game g;
	int64_t now;
	int applied, refused;
	unsigned changed_all;
	int changed[32];
	char err[200];
};

static void on_line(void *ctx, const char *line, size_t n)
{
	struct feed *f = ctx;
	struct lichess_msg m;
	char err[200];
	ck_assert_uint_eq(strlen(line), n);
	if (lichess_msg_decode(line, n, &m, err, sizeof err) < 0) {
		snprintf(f->err, sizeof f->err, "%s", err);
		f->refused++;
		return;
	}
	int rc = lichess_game_apply(&f->g, &m, f->now, f->err, sizeof f->err);
	lichess_msg_fini(&m);
	if (rc < 0) {
		f->refused++;
		return;
	}
	if (f->applied < 32)
		f->changed[f->applied] = rc;
	f->changed_all |= (unsigned)rc;
	f->applied++;
}

static char *slurp(const char *rel, size_t *len)
{
	FILE *fp = testdata_open_own(rel);
	ck_assert_msg(fp != NULL, "%s", rel);
	char *data = malloc(1 << 16);
	*len = fread(data, 1, (1 << 16) - 1, fp);
	data[*len] = '\0';
	fclose(fp);
	return data;
}

/* Feeds the transcript in chunks of size bytes (0: whole). */
static void feed_file(struct feed *f, const char *rel, size_t chunk, const char *me)
{
	size_t len;
	char *data = slurp(rel, &len);
	struct lichess_lines l;
	memset(f, 0, sizeof *f);
	lichess_game_init(&f->g, "", me);
	f->now = 1000;
	lichess_lines_init(&l);
	for (size_t i = 0; i < len;) {
		size_t n = chunk && chunk < len - i ? chunk : len - i;
		lichess_lines_feed(&l, data + i, n, on_line, f);
		i += n;
	}
	ck_assert_int_eq(l.keepalives, strstr(rel, "takeback") ? 1 : 0);
	lichess_lines_fini(&l);
	free(data);
}

START_TEST(test_takeback_every_chunk)
{
	static const size_t chunks[] = { 0, 1, 2, 3, 7, 64, 500 };
	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		struct feed f;
		feed_file(&f, "lichess/takeback.ndjson", chunks[i], "alice");
		ck_assert_int_eq(f.refused, 0);
		ck_assert_int_eq(f.applied, 7);
		ck_assert_int_eq(f.g.me, WHITE);
		/* The take-back shrank the list and rebuilt the view. */
		ck_assert(f.changed[4] & LICHESS_CHANGED_TAKEBACK);
		ck_assert(!(f.changed[3] & LICHESS_CHANGED_TAKEBACK));
		ck_assert(f.changed[3] & LICHESS_CHANGED_OFFERS);
		ck_assert_uint_eq(f.g.view.game.n_plies, 3);
		char fen[FEN_MAX];
		fen_write(&f.g.view.game.pos, fen);
		ck_assert_str_eq(fen, "rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
		ck_assert(lichess_game_over(&f.g));
		ck_assert(game_is_over(&f.g.view.game));
		ck_assert_int_eq(f.g.view.game.result, GAME_RESULT_DRAW);
		ck_assert_int_eq(f.g.view.game.termination, GAME_TERM_AGREEMENT);
		ck_assert_str_eq(f.g.view.seats[BLACK].name, "Bob");
		lichess_game_fini(&f.g);
	}
}
END_TEST

/* The states one by one: the flags and clocks at each. */
START_TEST(test_flags_and_clock)
{
	size_t len;
	char *data = slurp("lichess/takeback.ndjson", &len);
	struct feed f;
	memset(&f, 0, sizeof f);
	lichess_game_init(&f.g, "tkbk0001", "Alice");
	char *save = NULL;
	int n = 0;
	for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		f.now = 10000 * (n + 1);
		on_line(&f, line, strlen(line));
		ck_assert_msg(f.refused == 0, "line %d: %s", n, f.err);
		if (n == 0) {
			/* Not running before both sides moved. */
			ck_assert_int_eq(f.g.running, CLOCK_NOBODY);
			ck_assert_int_eq(lichess_game_clock_ms(&f.g, WHITE, f.now + 5000), 600000);
		}
		if (n == 2) {
			ck_assert_int_eq(f.g.running, WHITE);
			ck_assert_int_eq(lichess_game_clock_ms(&f.g, WHITE, f.now + 1500), 598500);
			ck_assert_int_eq(lichess_game_clock_ms(&f.g, BLACK, f.now + 1500), 598000);
			/* The fold's reading of the view counts down the same. */
			struct fold_clock_reading r;
			fold_clock_read(&f.g.view, f.now + 1500, &r);
			ck_assert_int_eq(r.ms[WHITE], 598500);
			ck_assert_int_eq(r.running, WHITE);
			ck_assert_int_eq(lichess_game_clock_ms(&f.g, WHITE, f.now + 700000), 0);
		}
		if (n == 3) {
			ck_assert(f.g.takeback[BLACK]);
			ck_assert(!f.g.takeback[WHITE]);
			ck_assert_int_eq(f.g.running, BLACK);
		}
		if (n == 4)
			ck_assert(!f.g.takeback[BLACK]);
		if (n == 5)
			ck_assert_int_eq(f.g.view.game.offer_by, WHITE);
		if (n == 6) {
			ck_assert_int_eq(f.g.view.game.offer_by, GAME_NOBODY);
			ck_assert_int_eq(f.g.running, CLOCK_NOBODY);
			char text[80];
			lichess_game_end_text(&f.g, text, sizeof text);
			ck_assert_str_eq(text, "draw");
		}
	}
	ck_assert_int_eq(n, 7);
	lichess_game_fini(&f.g);
	free(data);
}
END_TEST

START_TEST(test_castling_chat_gone_resign)
{
	struct feed f;
	feed_file(&f, "lichess/castle.ndjson", 1, "alice");
	ck_assert_int_eq(f.refused, 0);
	ck_assert_int_eq(f.applied, 5);
	ck_assert_int_eq(f.g.me, BLACK);
	ck_assert_int_eq(f.g.view.seats[WHITE].kind, FOLD_SEAT_ENGINE);
	ck_assert_int_eq(f.g.view.seats[WHITE].level, 3);
	/* e1h1 and then e1g1 for the same castling: one move, no rebuild. */
	ck_assert(!(f.changed[4] & LICHESS_CHANGED_MOVES));
	ck_assert_uint_eq(f.g.view.game.n_plies, 7);
	char fen[FEN_MAX];
	fen_write(&f.g.view.game.pos, fen);
	ck_assert_str_eq(fen, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
	/* The chat's escape sequence is not passed on. */
	ck_assert_int_eq(f.g.n_chat, 1);
	ck_assert_ptr_null(strchr(f.g.chat[0].text, 0x1b));
	ck_assert_str_eq(f.g.chat[0].user, "lichess");
	ck_assert(f.changed_all & LICHESS_CHANGED_GONE);
	/* Over: absence no longer counts. */
	ck_assert(!f.g.opponent_gone);
	ck_assert_int_eq(lichess_game_claim_in_ms(&f.g, f.now), -1);
	ck_assert_int_eq(f.g.view.game.result, GAME_RESULT_BLACK_WINS);
	ck_assert_int_eq(f.g.view.game.termination, GAME_TERM_RESIGNATION);
	char text[80];
	lichess_game_end_text(&f.g, text, sizeof text);
	ck_assert_str_eq(text, "Black wins: White resigned");
	lichess_game_fini(&f.g);
}
END_TEST

START_TEST(test_mate_correspondence)
{
	struct feed f;
	feed_file(&f, "lichess/mate.ndjson", 5, "bob");
	ck_assert_int_eq(f.refused, 0);
	ck_assert_int_eq(f.g.me, BLACK);
	ck_assert(game_is_over(&f.g.view.game));
	ck_assert_int_eq(f.g.view.game.termination, GAME_TERM_CHECKMATE);
	ck_assert_int_eq(f.g.view.game.result, GAME_RESULT_BLACK_WINS);
	ck_assert_int_eq(f.g.view.clock.tc.kind, TC_CORRESPONDENCE);
	lichess_game_fini(&f.g);
}
END_TEST

static int apply_text(struct lichess_game *g, const char *line, int64_t now, char *err, size_t size)
{
	struct lichess_msg m;
	if (lichess_msg_decode(line, strlen(line), &m, err, size) < 0)
		return -2;
	int rc = lichess_game_apply(g, &m, now, err, size);
	lichess_msg_fini(&m);
	return rc;
}

#define FULL                                                                                                     \
	"{\"type\":\"gameFull\",\"id\":\"abcd1234\",\"white\":{\"id\":\"alice\",\"name\":\"alice\"},"             \
	"\"black\":{\"id\":\"bob\",\"name\":\"bob\"},\"initialFen\":\"startpos\",\"clock\":{\"initial\":60000,"  \
	"\"increment\":0},\"state\":{\"type\":\"gameState\",\"moves\":\"e2e4 e7e5\",\"wtime\":60000,"           \
	"\"btime\":60000,\"winc\":0,\"binc\":0,\"status\":\"started\"}}"

START_TEST(test_bad_lines_change_nothing)
{
	struct lichess_game g;
	char err[200];
	lichess_game_init(&g, "abcd1234", "alice");
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"gameState\",\"moves\":\"\",\"wtime\":1,\"btime\":1,\"status\":"
					"\"started\"}",
				    1, err, sizeof err),
			 -1);
	ck_assert_str_eq(err, "a gameState before the gameFull");
	ck_assert_int_gt(apply_text(&g, FULL, 1, err, sizeof err), 0);
	ck_assert_uint_eq(g.view.game.n_plies, 2);
	/* An illegal move in the list: refused, the model as it was. */
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"gameState\",\"moves\":\"e2e4 e7e5 e1e3\",\"wtime\":1,"
					"\"btime\":1,\"status\":\"started\"}",
				    2, err, sizeof err),
			 -1);
	ck_assert_msg(strstr(err, "move 3 (e1e3)") != NULL, "%s", err);
	ck_assert_uint_eq(g.view.game.n_plies, 2);
	ck_assert_str_eq(g.moves, "e2e4 e7e5");
	ck_assert_int_eq(lichess_game_clock_ms(&g, WHITE, 1), 60000);
	/* Bad JSON, a wrong type, a missing member: refused by the decoder. */
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"gameState\",\"moves\":5}", 2, err, sizeof err), -2);
	ck_assert_str_eq(err, "\"moves\" is not a string");
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"gameState\",\"moves\":\"\"}", 2, err, sizeof err), -2);
	ck_assert_str_eq(err, "\"wtime\" is missing");
	ck_assert_int_eq(apply_text(&g, "[1,2]", 2, err, sizeof err), -2);
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"opponentGone\",\"gone\":\"yes\"}", 2, err, sizeof err), -2);
	/* A gameFull of another game. */
	char other[sizeof FULL];
	snprintf(other, sizeof other, "%s", FULL);
	memcpy(strstr(other, "abcd1234"), "zzzz9999", 8);
	ck_assert_int_eq(apply_text(&g, other, 2, err, sizeof err), -1);
	ck_assert_str_eq(g.id, "abcd1234");
	/* Unknown types pass; unknown members too. */
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"somethingNew\",\"x\":1}", 2, err, sizeof err), 0);
	ck_assert_uint_eq(g.view.game.n_plies, 2);
	lichess_game_fini(&g);
}
END_TEST

START_TEST(test_gone_countdown)
{
	struct lichess_game g;
	char err[200];
	lichess_game_init(&g, "abcd1234", "alice");
	ck_assert_int_gt(apply_text(&g, FULL, 1000, err, sizeof err), 0);
	ck_assert_int_eq(lichess_game_claim_in_ms(&g, 1000), -1);
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"opponentGone\",\"gone\":true,\"claimWinInSeconds\":8}", 2000, err,
				    sizeof err),
			 LICHESS_CHANGED_GONE);
	ck_assert_int_eq(lichess_game_claim_in_ms(&g, 2000), 8000);
	ck_assert_int_eq(lichess_game_claim_in_ms(&g, 9500), 500);
	ck_assert_int_eq(lichess_game_claim_in_ms(&g, 10000), 0);
	ck_assert_int_eq(apply_text(&g, "{\"type\":\"opponentGone\",\"gone\":false}", 3000, err, sizeof err),
			 LICHESS_CHANGED_GONE);
	ck_assert_int_eq(lichess_game_claim_in_ms(&g, 10000), -1);
	lichess_game_fini(&g);
}
END_TEST

START_TEST(test_statuses)
{
	static const struct {
		const char *status, *winner;
		enum game_termination term;
		enum game_result result;
		const char *text;
	} cases[] = {
		{ "outoftime", "black", GAME_TERM_TIMEOUT, GAME_RESULT_BLACK_WINS, "Black wins: White ran out of time" },
		{ "timeout", "white", GAME_TERM_TECHNICAL_FAILURE, GAME_RESULT_WHITE_WINS,
		  "White wins: Black left the game" },
		{ "aborted", NULL, GAME_TERM_ABORTED, GAME_RESULT_NONE, "the game was aborted" },
		{ "noStart", NULL, GAME_TERM_ABORTED, GAME_RESULT_NONE, "White did not move: aborted" },
		{ "stalemate", NULL, GAME_TERM_STALEMATE, GAME_RESULT_DRAW, "stalemate" },
		{ "draw", NULL, GAME_TERM_AGREEMENT, GAME_RESULT_DRAW, "draw" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lichess_game g;
		char err[200], line[300], text[80];
		lichess_game_init(&g, "abcd1234", "alice");
		ck_assert_int_gt(apply_text(&g, FULL, 1000, err, sizeof err), 0);
		snprintf(line, sizeof line,
			 "{\"type\":\"gameState\",\"moves\":\"e2e4 e7e5\",\"wtime\":1,\"btime\":2,\"status\":\"%s\"%s%s%s}",
			 cases[i].status, cases[i].winner ? ",\"winner\":\"" : "", cases[i].winner ? cases[i].winner : "",
			 cases[i].winner ? "\"" : "");
		int rc = apply_text(&g, line, 2000, err, sizeof err);
		ck_assert_msg(rc > 0 && (rc & LICHESS_CHANGED_OVER), "%s: %s", cases[i].status, err);
		ck_assert(game_is_over(&g.view.game));
		ck_assert_int_eq(g.view.game.termination, cases[i].term);
		ck_assert_int_eq(g.view.game.result, cases[i].result);
		lichess_game_end_text(&g, text, sizeof text);
		ck_assert_str_eq(text, cases[i].text);
		ck_assert_int_eq(lichess_game_clock_ms(&g, WHITE, 99999), 1);
		lichess_game_fini(&g);
	}
}
END_TEST

static void count_line(void *ctx, const char *line, size_t n)
{
	(void)line;
	(void)n;
	(*(int *)ctx)++;
}

START_TEST(test_lines_edge_cases)
{
	struct lichess_lines l;
	int n = 0;
	lichess_lines_init(&l);
	/* CRLF, keep-alives, a line cut in the middle, no trailing newline. */
	ck_assert_int_eq(lichess_lines_feed(&l, "{\"a\":1}\r\n\n\n{\"b\"", 16, count_line, &n), 1);
	ck_assert_int_eq(l.keepalives, 2);
	ck_assert_int_eq(lichess_lines_feed(&l, ":2}", 3, count_line, &n), 0);
	ck_assert_int_eq(lichess_lines_feed(&l, "\n", 1, count_line, &n), 1);
	ck_assert_int_eq(n, 2);
	/* A reopen forgets the partial line. */
	lichess_lines_feed(&l, "{\"c\"", 4, count_line, &n);
	lichess_lines_reset(&l);
	lichess_lines_feed(&l, "{}\n", 3, count_line, &n);
	ck_assert_int_eq(n, 3);
	/* An endless line is dropped, and the next one read. */
	char *big = malloc(LICHESS_LINE_MAX_BYTES + 10);
	memset(big, 'x', LICHESS_LINE_MAX_BYTES + 10);
	lichess_lines_feed(&l, big, LICHESS_LINE_MAX_BYTES + 10, count_line, &n);
	lichess_lines_feed(&l, "\n{}\n", 4, count_line, &n);
	ck_assert_int_eq(l.dropped, 1);
	ck_assert_int_eq(n, 4);
	free(big);
	lichess_lines_fini(&l);
}
END_TEST

START_TEST(test_retry_rules)
{
	struct lichess_retry r;
	lichess_retry_init(&r, 0, 42);
	ck_assert(!lichess_retry_idle(&r, LICHESS_IDLE_MS - 1));
	ck_assert(lichess_retry_idle(&r, LICHESS_IDLE_MS));
	ck_assert_int_eq(lichess_retry_next_ms(&r, true, 1000), LICHESS_IDLE_MS - 1000);
	lichess_retry_bytes(&r, 5000, false);
	ck_assert(!lichess_retry_idle(&r, LICHESS_IDLE_MS));
	/* Backoff doubles with jitter, up to the maximum, reset by a line. */
	int64_t prev = 0;
	for (int i = 0; i < 8; i++) {
		ck_assert_int_eq(lichess_retry_ended(&r, 0, false, 100000), LICHESS_END_REOPEN);
		int64_t d = r.reopen_at_ms - 100000;
		int64_t base = LICHESS_BACKOFF_MIN_MS << i;
		if (base > LICHESS_BACKOFF_MAX_MS)
			base = LICHESS_BACKOFF_MAX_MS;
		ck_assert_int_ge(d, base - base / 4);
		ck_assert_int_le(d, base + base / 4);
		prev = d;
	}
	ck_assert_int_le(prev, LICHESS_BACKOFF_MAX_MS * 5 / 4);
	lichess_retry_bytes(&r, 200000, true);
	ck_assert_int_eq(r.backoff_ms, LICHESS_BACKOFF_MIN_MS);
	/* 429: the minute, whatever the backoff. */
	ck_assert_int_eq(lichess_retry_ended(&r, 429, false, 300000), LICHESS_END_RATE_LIMITED);
	ck_assert_int_eq(r.reopen_at_ms, 300000 + LICHESS_RATE_LIMIT_MS);
	ck_assert_int_eq(lichess_retry_next_ms(&r, false, 310000), LICHESS_RATE_LIMIT_MS - 10000);
	r.rate_limit_ms = 1500;
	ck_assert_int_eq(lichess_retry_ended(&r, 429, false, 0), LICHESS_END_RATE_LIMITED);
	ck_assert_int_eq(r.reopen_at_ms, 1500);
	/* Refusals and the final status: never again. */
	ck_assert_int_eq(lichess_retry_ended(&r, 404, false, 0), LICHESS_END_REFUSED);
	ck_assert_int_eq(lichess_retry_ended(&r, 401, false, 0), LICHESS_END_REFUSED);
	ck_assert_int_eq(lichess_retry_ended(&r, 200, true, 0), LICHESS_END_FINAL);
	ck_assert_int_eq(lichess_retry_ended(&r, 0, true, 0), LICHESS_END_FINAL);
	ck_assert_int_eq(lichess_retry_next_ms(&r, false, 0), -1);
}
END_TEST

START_TEST(test_error_text)
{
	char out[100];
	const char *scope = "{\"error\":\"Missing scope: board:play\"}";
	ck_assert(lichess_error_text(scope, strlen(scope), out, sizeof out));
	ck_assert_str_eq(out, "Missing scope: board:play");
	const char *form = "{\"error\":{\"time\":[\"Invalid value\"]}}";
	ck_assert(lichess_error_text(form, strlen(form), out, sizeof out));
	ck_assert_str_eq(out, "time: Invalid value");
	ck_assert(!lichess_error_text("<html>", 6, out, sizeof out));
	ck_assert(!lichess_error_text(NULL, 0, out, sizeof out));
}
END_TEST

START_TEST(test_account)
{
	struct lichess_player p;
	char err[200];
	/* A 30-character name (Lichess's longest) read whole. */
	const char *ok = "{\"id\":\"abcdefghijklmnopqrstuvwxyz0123\",\"username\":\"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123\","
			 "\"title\":\"GM\",\"perfs\":{}}";
	ck_assert_int_eq(lichess_account_decode(ok, strlen(ok), &p, err, sizeof err), 0);
	ck_assert_str_eq(p.name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123");
	ck_assert_str_eq(p.title, "GM");
	static const struct {
		const char *body, *err;
	} bad[] = {
		{ "{\"id\":\"a\"}", "\"username\" is missing" },
		{ "{\"id\":\"a\",\"username\":\"a b\"}", "\"username\" is not a Lichess user name" },
		{ "{\"id\":\"a\",\"username\":\"ABCDEFGHIJKLMNOPQRSTUVWXYZ01234\"}",
		  "\"username\" is not a Lichess user name" },
		{ "{\"id\":\"\",\"username\":\"a\"}", "\"id\" is empty" },
		{ "null", "not a JSON object" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(lichess_account_decode(bad[i].body, strlen(bad[i].body), &p, err, sizeof err), -1);
		ck_assert_str_eq(err, bad[i].err);
		ck_assert_str_eq(p.name, "");
	}

	/* The account file keeps that name and a token of 1024 characters
	 * (the old file cut names at 24 and tokens at 128); one longer is
	 * refused, not cut. */
	struct account a, b;
	memset(&a, 0, sizeof a);
	snprintf(a.server, sizeof a.server, "http://127.0.0.1:1");
	snprintf(a.name, sizeof a.name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123");
	memset(a.token, 'x', ACCOUNT_TOKEN_MAX);
	memcpy(a.token, "lip_", 4);
	char dir[] = "/tmp/tchess-account-XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lichess-token", dir);
	ck_assert_int_eq(account_save(path, &a, err, sizeof err), 0);
	ck_assert_int_eq(account_load(path, &b, err, sizeof err), 0);
	ck_assert_str_eq(b.name, a.name);
	ck_assert_str_eq(b.token, a.token);
	ck_assert_int_eq(b.player, 0);
	char text[2200];
	snprintf(text, sizeof text, "name = x\ntoken = %sy\n", a.token);
	ck_assert_int_eq(account_parse(&b, text, err, sizeof err), -1);
	ck_assert_str_eq(err, "line 2: token is longer than 1024 characters");
	ck_assert_str_eq(b.name, a.name);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_playing_and_game_id)
{
	struct lichess_playing g[2];
	size_t n = 9;
	char err[200], id[LICHESS_ID_MAX];
	const char *ok = "{\"nowPlaying\":[{\"gameId\":\"abcd1234\",\"fullId\":\"abcd1234wxyz\",\"color\":\"black\","
			 "\"isMyTurn\":true,\"speed\":\"rapid\",\"opponent\":{\"id\":\"bob\",\"username\":\"Bob\"}},"
			 "{\"gameId\":\"efgh5678\",\"color\":\"white\",\"isMyTurn\":false,\"opponent\":{\"ai\":4}},"
			 "{\"gameId\":\"ijkl9012\",\"color\":\"white\"}]}";
	/* At most max kept. */
	ck_assert_int_eq(lichess_playing_decode(ok, strlen(ok), g, 2, &n, err, sizeof err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(g[0].id, "abcd1234");
	ck_assert_int_eq(g[0].color, BLACK);
	ck_assert(g[0].my_turn);
	ck_assert_str_eq(g[0].opponent, "Bob");
	ck_assert_str_eq(g[1].opponent, "AI level 4");
	const char *bad = "{\"nowPlaying\":[{\"gameId\":\"../../x\",\"color\":\"white\"}]}";
	ck_assert_int_eq(lichess_playing_decode(bad, strlen(bad), g, 2, &n, err, sizeof err), -1);
	ck_assert_str_eq(err, "\"gameId\" is not a game id");
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(lichess_playing_decode("[]", 2, g, 2, &n, err, sizeof err), -1);
	ck_assert_str_eq(err, "not a JSON object");
	const char *created = "{\"id\":\"q7ZvsdUF\",\"variant\":{\"key\":\"standard\"},\"status\":{\"name\":\"started\"}}";
	ck_assert_int_eq(lichess_game_id_decode(created, strlen(created), id, sizeof id, err, sizeof err), 0);
	ck_assert_str_eq(id, "q7ZvsdUF");
	ck_assert_int_eq(lichess_game_id_decode("{\"id\":\"a b\"}", 12, id, sizeof id, err, sizeof err), -1);
	ck_assert_str_eq(err, "\"id\" is not a game id");
	ck_assert_str_eq(id, "q7ZvsdUF");
}
END_TEST

/* ---- the session on a Lichess game (session-lichess.c) ---- */

/* One game-stream line applied to g and handed to s at t. */
static unsigned lichess_line(struct session *s, struct lichess_game *g, const char *line, int64_t t)
{
	struct lichess_msg m;
	char err[200];
	ck_assert_msg(lichess_msg_decode(line, strlen(line), &m, err, sizeof err) == 0, "%s", err);
	int rc = lichess_game_apply(g, &m, t, err, sizeof err);
	lichess_msg_fini(&m);
	ck_assert_msg(rc >= 0, "%s", err);
	return session_on_lichess(s, g, (unsigned)rc, t);
}

static void lichess_state(struct session *s, struct lichess_game *g, const char *moves, const char *extra, int64_t t)
{
	char line[512];
	snprintf(line, sizeof line,
		 "{\"type\":\"gameState\",\"moves\":\"%s\",\"wtime\":300000,\"btime\":300000,\"winc\":0,\"binc\":0%s%s}",
		 moves, strstr(extra, "status") ? "" : ",\"status\":\"started\"", extra);
	lichess_line(s, g, line, t);
}

static void lichess_start(struct session *s, struct lichess_game *g, const char *moves)
{
	char line[700];
	session_init(s, "abcd1234", -1);
	s->lichess = true;
	lichess_game_init(g, "abcd1234", "alice");
	snprintf(line, sizeof line,
		 "{\"type\":\"gameFull\",\"id\":\"abcd1234\",\"rated\":false,\"speed\":\"rapid\","
		 "\"variant\":{\"key\":\"standard\"},\"initialFen\":\"startpos\",\"clock\":{\"initial\":300000,"
		 "\"increment\":0},\"white\":{\"id\":\"alice\",\"name\":\"Alice\"},\"black\":{\"id\":\"bob\","
		 "\"name\":\"Bob\"},\"state\":{\"type\":\"gameState\",\"moves\":\"%s\",\"wtime\":300000,"
		 "\"btime\":300000,\"winc\":0,\"binc\":0,\"status\":\"started\"}}",
		 moves);
	lichess_line(s, g, line, 1000);
}

static void lichess_type(struct session *s, const char *text)
{
	for (const char *p = text; *p; p++) {
		struct session_cmd c = { SESSION_CMD_PROMPT_INPUT, *p, 0 };
		session_apply(s, &c);
	}
	struct session_cmd c = { SESSION_CMD_PROMPT_SUBMIT, 0, 0 };
	session_apply(s, &c);
}

/* The next request of the outbox as a Board API command. */
static void lichess_take(struct session *s, const char *path, const char *form)
{
	struct session_req r;
	const char *method;
	char got[256], *body;
	ck_assert_msg(session_take_request(s, &r), "no request for %s", path);
	ck_assert(session_lichess_req_http(s, &r, &method, got, sizeof got, &body));
	ck_assert_str_eq(method, "POST");
	ck_assert_str_eq(got, path);
	if (form)
		ck_assert_str_eq(body, form);
	else
		ck_assert_ptr_null(body);
	free(body);
}

START_TEST(test_session_premoves)
{
	struct session s;
	struct lichess_game g;
	struct session_req r;
	lichess_start(&s, &g, "");
	ck_assert_int_eq(s.me, WHITE);
	ck_assert(s.view.created);
	lichess_type(&s, "e4");
	lichess_take(&s, "/api/board/game/abcd1234/move/e2e4", NULL);
	ck_assert(s.pending);
	lichess_state(&s, &g, "e2e4", "", 1100);
	ck_assert(!s.pending);
	/* A premove stays here: Lichess has no premoves to send it to. */
	lichess_type(&s, "Nf3");
	ck_assert_int_eq(s.premoves.n, 1);
	ck_assert(!session_take_request(&s, &r));
	/* The reply gives the turn back: the premove leaves at once. */
	lichess_state(&s, &g, "e2e4 e7e5", "", 1200);
	ck_assert_str_eq(s.message, "premove played: Nf3");
	ck_assert(s.premove_fired);
	ck_assert_int_eq(s.premoves.n, 0);
	lichess_take(&s, "/api/board/game/abcd1234/move/g1f3", NULL);
	lichess_state(&s, &g, "e2e4 e7e5 g1f3", "", 1300);
	ck_assert(!s.pending);
	/* One the reply makes illegal is dropped with the reason. */
	lichess_type(&s, "d4");
	ck_assert_int_eq(s.premoves.n, 1);
	lichess_state(&s, &g, "e2e4 e7e5 g1f3 f8b4", "", 1400);
	ck_assert_int_eq(s.premoves.n, 0);
	ck_assert_msg(strstr(s.message, "premove d2d4 discarded: the pawn on d2 is pinned"), "%s", s.message);
	ck_assert(!session_take_request(&s, &r));
	/* A take-back shortens the list: the view is rebuilt. */
	lichess_state(&s, &g, "e2e4 e7e5", "", 1500);
	ck_assert_uint_eq(s.view.game.n_plies, 2);
	ck_assert_str_eq(s.message, "2 moves taken back");
	ck_assert_str_eq(s.san[1], "e5");
	lichess_game_fini(&g);
	session_fini(&s);
}
END_TEST

/* key pressed, and the request it sends (path, no body). */
static void lichess_press(struct session *s, int key, const char *path)
{
	struct session_cmd c = session_key(s, key);
	session_apply(s, &c);
	if (path)
		lichess_take(s, path, NULL);
}

/* The opponent's move alert on Lichess, noticed where tchessd's is
 * (session_move_alert after the stream's lines): the bell for Bob's
 * move, not for the moves of the gameFull, nor for my own; the flash
 * when move_alert says so. */
START_TEST(test_session_move_alert)
{
	struct session s;
	struct lichess_game g;
	lichess_start(&s, &g, "e2e4 e7e5");
	s.move_alert = 1;
	ck_assert_int_eq(session_move_alert(&s), 0);
	lichess_state(&s, &g, "e2e4 e7e5 g1f3", "", 1100);
	ck_assert_int_eq(session_move_alert(&s), 0);
	lichess_state(&s, &g, "e2e4 e7e5 g1f3 b8c6", "", 1200);
	ck_assert_int_eq(session_move_alert(&s), SESSION_DIRTY_BELL);
	ck_assert_int_eq(session_move_alert(&s), 0);
	s.move_alert = 2;
	lichess_state(&s, &g, "e2e4 e7e5 g1f3 b8c6 f1c4", "", 1300);
	lichess_state(&s, &g, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", "", 1400);
	ck_assert_int_eq(session_move_alert(&s), SESSION_DIRTY_FLASH);
	s.move_alert = 0;
	lichess_state(&s, &g, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5", "", 1500);
	ck_assert_int_eq(session_move_alert(&s), 0);
	lichess_game_fini(&g);
	session_fini(&s);

	/* The low-time bell: my clock (21 s, running) crossing 20 s rings
	 * once, counted on this client's clock from the line's arrival. */
	lichess_start(&s, &g, "e2e4 e7e5");
	s.bell = true;
	s.low_time_cfg_ms = 20000;
	lichess_line(&s, &g,
		     "{\"type\":\"gameState\",\"moves\":\"e2e4 e7e5\",\"wtime\":21000,\"btime\":300000,"
		     "\"winc\":0,\"binc\":0,\"status\":\"started\"}",
		     2000);
	ck_assert(session_clock_running(&s, WHITE));
	ck_assert_int_eq(session_tick(&s, 2000) & SESSION_DIRTY_BELL, 0);
	ck_assert_int_eq(session_tick(&s, 2900) & SESSION_DIRTY_BELL, 0);
	ck_assert_int_eq(session_tick(&s, 3100) & SESSION_DIRTY_BELL, SESSION_DIRTY_BELL);
	ck_assert_int_eq(session_tick(&s, 3200) & SESSION_DIRTY_BELL, 0);
	lichess_game_fini(&g);
	session_fini(&s);
}
END_TEST

START_TEST(test_session_commands)
{
	struct session s;
	struct lichess_game g;
	char buf[160];
	lichess_start(&s, &g, "e2e4 e7e5");
	/* The opponent's take-back proposal: shown, then accepted with +. */
	lichess_state(&s, &g, "e2e4 e7e5", ",\"btakeback\":true", 1100);
	ck_assert(session_request_text(&s, buf, sizeof buf));
	ck_assert_str_eq(buf, "Black proposes a take-back \u2014 + accept, - decline");
	lichess_press(&s, '+', "/api/board/game/abcd1234/takeback/yes");
	lichess_press(&s, '-', "/api/board/game/abcd1234/takeback/no");
	/* A draw offer answered; then mine. */
	lichess_state(&s, &g, "e2e4 e7e5", ",\"bdraw\":true", 1200);
	ck_assert(session_request_text(&s, buf, sizeof buf));
	ck_assert_str_eq(buf, "Black offers a draw \u2014 + accept, - decline");
	lichess_press(&s, '-', "/api/board/game/abcd1234/draw/no");
	lichess_state(&s, &g, "e2e4 e7e5", "", 1300);
	lichess_press(&s, '=', "/api/board/game/abcd1234/draw/yes");
	/* u proposes a take-back of mine; m r resigns after y. */
	lichess_press(&s, 'u', "/api/board/game/abcd1234/takeback/yes");
	lichess_press(&s, 'm', NULL);
	lichess_press(&s, 'r', NULL);
	lichess_press(&s, 'y', "/api/board/game/abcd1234/resign");
	/* Lichess has no adjournment: said, nothing sent. */
	struct session_req r;
	lichess_press(&s, 'P', NULL);
	ck_assert_str_eq(s.message, "Lichess has no adjournment");
	ck_assert(!session_take_request(&s, &r));
	/* The opponent gone: no claim before Lichess's countdown ends. */
	lichess_line(&s, &g, "{\"type\":\"opponentGone\",\"gone\":true,\"claimWinInSeconds\":5}", 2000);
	session_tick(&s, 3000);
	ck_assert(session_request_text(&s, buf, sizeof buf));
	ck_assert_str_eq(buf, "opponent left \u2014 claim victory in 4 s");
	lichess_press(&s, 'V', NULL);
	ck_assert(!session_take_request(&s, &r));
	ck_assert_str_eq(s.message, "your opponent left: you may claim victory in 4 s");
	ck_assert_uint_ne(session_tick(&s, 7000) & SESSION_DIRTY_STATUS, 0);
	lichess_press(&s, 'V', NULL);
	lichess_press(&s, 'y', "/api/board/game/abcd1234/claim-victory");
	/* A chat line (a note here) goes as the player room's form. */
	struct session_req note = { .kind = SESSION_REQ_NOTE };
	snprintf(note.text, sizeof note.text, "good game & thanks");
	const char *method;
	char path[128], *form;
	ck_assert(session_lichess_req_http(&s, &note, &method, path, sizeof path, &form));
	ck_assert_str_eq(path, "/api/board/game/abcd1234/chat");
	ck_assert_str_eq(form, "room=player&text=good%20game%20%26%20thanks");
	free(form);
	struct session_req pm = { .kind = SESSION_REQ_PREMOVES };
	ck_assert(!session_lichess_req_http(&s, &pm, &method, path, sizeof path, &form));
	/* The end in Lichess's words. */
	lichess_state(&s, &g, "e2e4 e7e5", ",\"status\":\"resign\",\"winner\":\"black\"", 8000);
	ck_assert(session_over(&s));
	session_end_text(&s, buf, sizeof buf);
	ck_assert_str_eq(buf, "Black wins: White resigned");
	lichess_game_fini(&g);
	session_fini(&s);
}
END_TEST

/* A challenge event: who sent it to whom, at what time control; a held
 * challenge's last line. */
START_TEST(test_challenge_event_and_done)
{
	struct lichess_msg m;
	char err[200], done[LICHESS_WORD_MAX];
	const char *line = "{\"type\":\"challenge\",\"challenge\":{\"id\":\"chal0001\",\"status\":\"created\","
			   "\"challenger\":{\"id\":\"dave\",\"name\":\"Dave\",\"rating\":1600},"
			   "\"destUser\":{\"id\":\"alice\",\"name\":\"Alice\"},\"rated\":true,\"speed\":\"rapid\","
			   "\"timeControl\":{\"type\":\"clock\",\"limit\":900,\"increment\":10,\"show\":\"15+10\"}}}";
	ck_assert_int_eq(lichess_msg_decode(line, strlen(line), &m, err, sizeof err), 0);
	ck_assert_int_eq(m.kind, LICHESS_MSG_CHALLENGE);
	ck_assert_str_eq(m.id, "chal0001");
	ck_assert_str_eq(m.challenger, "Dave");
	ck_assert_str_eq(m.challenger_id, "dave");
	ck_assert_str_eq(m.dest_id, "alice");
	ck_assert_str_eq(m.tc_text, "15+10");
	ck_assert(m.rated);
	lichess_msg_fini(&m);
	/* An open challenge (destUser null), unlimited. */
	const char *open = "{\"type\":\"challenge\",\"challenge\":{\"id\":\"chal0002\",\"destUser\":null,"
			   "\"timeControl\":{\"type\":\"unlimited\"}}}";
	ck_assert_int_eq(lichess_msg_decode(open, strlen(open), &m, err, sizeof err), 0);
	ck_assert_str_eq(m.dest_id, "");
	ck_assert_str_eq(m.tc_text, "unlimited");
	lichess_msg_fini(&m);
	const char *bad = "{\"type\":\"challenge\",\"challenge\":{\"id\":\"chal0003\",\"destUser\":{\"id\":7}}}";
	ck_assert_int_eq(lichess_msg_decode(bad, strlen(bad), &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "\"id\" is not a string");
	ck_assert(lichess_done_decode("{\"done\":\"declined\"}", 19, done, sizeof done));
	ck_assert_str_eq(done, "declined");
	ck_assert(!lichess_done_decode("{\"id\":\"chal0001\"}", 17, done, sizeof done));
	ck_assert_str_eq(done, "");
	ck_assert(!lichess_done_decode("{\"done\":1}", 10, done, sizeof done));
	ck_assert(!lichess_done_decode("[", 1, done, sizeof done));
}
END_TEST

/* PKCE's S256 (RFC 7636, appendix B), the URLs, the callback. */
START_TEST(test_oauth_pkce)
{
	char ch[LICHESS_OAUTH_CHALLENGE_LEN + 1], code[64], err[200], url[1024], form[1024];
	lichess_pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", ch);
	ck_assert_str_eq(ch, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
	struct lichess_pkce p, q;
	ck_assert_int_eq(lichess_pkce_new(&p), 0);
	ck_assert_int_eq(lichess_pkce_new(&q), 0);
	ck_assert_uint_eq(strlen(p.verifier), 64);
	ck_assert_uint_eq(strspn(p.verifier, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"), 64);
	ck_assert_uint_eq(strlen(p.state), 32);
	ck_assert_str_ne(p.verifier, q.verifier);
	ck_assert_str_ne(p.state, q.state);
	lichess_pkce_challenge(p.verifier, ch);
	ck_assert_str_eq(ch, p.challenge);
	snprintf(p.state, sizeof p.state, "S7ate");
	snprintf(p.challenge, sizeof p.challenge, "CH");
	ck_assert(lichess_oauth_url("http://127.0.0.1:9", "http://127.0.0.1:5000/callback", &p, url, sizeof url));
	ck_assert_str_eq(url, "http://127.0.0.1:9/oauth?response_type=code&client_id=tchess&redirect_uri="
			      "http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&code_challenge_method=S256&code_challenge=CH"
			      "&scope=board%3Aplay&state=S7ate");
	ck_assert(!lichess_oauth_url("http://127.0.0.1:9", "http://127.0.0.1:5000/callback", &p, url, 40));
	snprintf(p.verifier, sizeof p.verifier, "V");
	ck_assert(lichess_oauth_token_form("a b&c", "http://127.0.0.1:5000/callback", &p, form, sizeof form));
	ck_assert_str_eq(form, "grant_type=authorization_code&code=a%20b%26c&code_verifier=V&redirect_uri="
			       "http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&client_id=tchess");
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?code=li%5Fx&state=S7ate HTTP/1.1", "S7ate", code,
						sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_CODE);
	ck_assert_str_eq(code, "li_x");
	ck_assert_int_eq(lichess_oauth_callback("GET /favicon.ico HTTP/1.1", "S7ate", code, sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_OTHER);
	/* Another state, a state that only starts the same, none: refused. */
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?code=c&state=S7atf HTTP/1.1", "S7ate", code, sizeof code,
						err, sizeof err),
			 LICHESS_CALLBACK_BAD);
	ck_assert_str_eq(err, "the answer's state is not this login's: not logging in");
	ck_assert_str_eq(code, "");
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?code=c&state=S7ateX HTTP/1.1", "S7ate", code,
						sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_BAD);
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?code=c HTTP/1.1", "S7ate", code, sizeof code, err,
						sizeof err),
			 LICHESS_CALLBACK_BAD);
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?state=S7ate&error=access_denied&error_description=no+thanks "
						"HTTP/1.1",
						"S7ate", code, sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_REFUSED);
	ck_assert_str_eq(err, "Lichess says access_denied: no thanks");
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?state=S7ate HTTP/1.1", "S7ate", code, sizeof code, err,
						sizeof err),
			 LICHESS_CALLBACK_BAD);
	ck_assert_str_eq(err, "the answer has no code");
	ck_assert_int_eq(lichess_oauth_callback("GET /callback?code=%4&state=S7ate HTTP/1.1", "S7ate", code,
						sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_BAD);
	ck_assert_int_eq(lichess_oauth_callback("POST /callback HTTP/1.1", "S7ate", code, sizeof code, err, sizeof err),
			 LICHESS_CALLBACK_BAD);
	/* POST /api/token's answer. */
	char tok[64];
	const char *ok = "{\"token_type\":\"Bearer\",\"access_token\":\"lio_abc_123\",\"expires_in\":31536000}";
	ck_assert_int_eq(lichess_token_decode(ok, strlen(ok), tok, sizeof tok, err, sizeof err), 0);
	ck_assert_str_eq(tok, "lio_abc_123");
	const char *bad = "{\"token_type\":\"Bearer\",\"access_token\":\"lio_a b\"}";
	ck_assert_int_eq(lichess_token_decode(bad, strlen(bad), tok, sizeof tok, err, sizeof err), -1);
	ck_assert_str_eq(err, "\"access_token\" is not a token");
	ck_assert_str_eq(tok, "lio_abc_123");
	const char *mac = "{\"token_type\":\"mac\",\"access_token\":\"lio_x\"}";
	ck_assert_int_eq(lichess_token_decode(mac, strlen(mac), tok, sizeof tok, err, sizeof err), -1);
	ck_assert_int_eq(lichess_token_decode("{}", 2, tok, sizeof tok, err, sizeof err), -1);
	ck_assert_int_eq(lichess_token_decode(ok, strlen(ok), tok, 5, err, sizeof err), -1);
}
END_TEST

/* The public stream as Board API messages: the game from the position the
 * stream starts at, a position already shown, moves, the result; lines
 * that cannot be followed are refused and change nothing. */
START_TEST(test_watch_lines)
{
	struct lichess_watch w;
	struct lichess_watch_line l;
	struct lichess_msg m;
	char err[200];
	const char *desc = "{\"id\":\"watc0001\",\"variant\":{\"key\":\"standard\"},\"speed\":\"blitz\",\"rated\":true,"
			   "\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\","
			   "\"status\":{\"id\":20,\"name\":\"started\"},\"clock\":{\"initial\":300,\"increment\":3},"
			   "\"players\":{\"white\":{\"user\":{\"name\":\"Carol\",\"id\":\"carol\"},\"rating\":2100},"
			   "\"black\":{\"aiLevel\":5}}}";
	lichess_watch_init(&w);
	const char *early = "{\"fen\":\"8/8/8/8/8/8/8/8 w\",\"wc\":1,\"bc\":1}";
	ck_assert_int_eq(lichess_watch_decode(early, strlen(early), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "a position before the game's description");
	ck_assert_int_eq(lichess_watch_decode(desc, strlen(desc), &l, err, sizeof err), 0);
	ck_assert(l.description);
	ck_assert_str_eq(l.white.name, "Carol");
	ck_assert_int_eq(l.white.rating, 2100);
	ck_assert_int_eq(l.black.ai_level, 5);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), 1);
	ck_assert_int_eq(m.kind, LICHESS_MSG_GAME_FULL);
	ck_assert_str_eq(m.initial_fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
	ck_assert(m.has_clock);
	ck_assert_int_eq(m.clock_initial_ms, 300000);
	ck_assert_int_eq(m.clock_increment_ms, 3000);
	ck_assert_str_eq(m.state.moves, "");
	ck_assert_str_eq(m.state.status, "started");
	lichess_msg_fini(&m);
	/* The same position: the clocks only. */
	const char *same = "{\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w\",\"wc\":299,\"bc\":300}";
	ck_assert_int_eq(lichess_watch_decode(same, strlen(same), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), 1);
	ck_assert_str_eq(m.state.moves, "");
	ck_assert_int_eq(m.state.wtime, 299000);
	lichess_msg_fini(&m);
	const char *mv = "{\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b\",\"lm\":\"g1f3\",\"wc\":295,\"bc\":300}";
	ck_assert_int_eq(lichess_watch_decode(mv, strlen(mv), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), 1);
	ck_assert_int_eq(m.kind, LICHESS_MSG_GAME_STATE);
	ck_assert_str_eq(m.state.moves, "g1f3");
	ck_assert_int_eq(m.state.winc, 3000);
	lichess_msg_fini(&m);
	/* A new position without its move cannot be followed. */
	const char *jump = "{\"fen\":\"8/8/8/8/8/8/8/K6k w\",\"wc\":1,\"bc\":1}";
	ck_assert_int_eq(lichess_watch_decode(jump, strlen(jump), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "a position without the move that made it");
	const char *mv2 = "{\"fen\":\"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w\",\"lm\":\"b8c6\"}";
	ck_assert_int_eq(lichess_watch_decode(mv2, strlen(mv2), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), 1);
	ck_assert_str_eq(m.state.moves, "g1f3 b8c6");
	ck_assert_int_eq(m.state.btime, 300000);
	lichess_msg_fini(&m);
	const char *end = "{\"id\":\"watc0001\",\"status\":{\"name\":\"resign\"},\"winner\":\"white\"}";
	ck_assert_int_eq(lichess_watch_decode(end, strlen(end), &l, err, sizeof err), 0);
	ck_assert_int_eq(lichess_watch_msg(&w, &l, &m, err, sizeof err), 1);
	ck_assert_str_eq(m.state.status, "resign");
	ck_assert_int_eq(m.state.winner, WHITE);
	ck_assert_str_eq(m.state.moves, "g1f3 b8c6");
	lichess_msg_fini(&m);
	/* Bad lines. */
	const char *badlm = "{\"fen\":\"x\",\"lm\":\"e2e4; rm\"}";
	ck_assert_int_eq(lichess_watch_decode(badlm, strlen(badlm), &l, err, sizeof err), -1);
	ck_assert_str_eq(err, "\"lm\" is not a UCI move");
	ck_assert_int_eq(lichess_watch_decode("{\"wc\":1}", 8, &l, err, sizeof err), -1);
	const char *badid = "{\"id\":\"../etc\"}";
	ck_assert_int_eq(lichess_watch_decode(badid, strlen(badid), &l, err, sizeof err), -1);
	lichess_watch_fini(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lichess");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, test_takeback_every_chunk);
	tcase_add_test(tc, test_flags_and_clock);
	tcase_add_test(tc, test_castling_chat_gone_resign);
	tcase_add_test(tc, test_mate_correspondence);
	tcase_add_test(tc, test_bad_lines_change_nothing);
	tcase_add_test(tc, test_gone_countdown);
	tcase_add_test(tc, test_statuses);
	tcase_add_test(tc, test_lines_edge_cases);
	tcase_add_test(tc, test_retry_rules);
	tcase_add_test(tc, test_error_text);
	tcase_add_test(tc, test_account);
	tcase_add_test(tc, test_playing_and_game_id);
	tcase_add_test(tc, test_session_premoves);
	tcase_add_test(tc, test_session_move_alert);
	tcase_add_test(tc, test_session_commands);
	tcase_add_test(tc, test_challenge_event_and_done);
	tcase_add_test(tc, test_oauth_pkce);
	tcase_add_test(tc, test_watch_lines);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
