/*
 * The home screen's model without a terminal or a network: the rows, the
 * keys, the join prompt read the way a player types or pastes it, and
 * the requests and answers that end in a game opened.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "home.h"
#include "settings.h"
#include "keys.h"

static void drain(struct home *h)
{
	struct home_req r;
	while (home_take_request(h, &r))
		;
}

static void press(struct home *h, int key)
{
	struct home_cmd c = home_key(h, key);
	home_apply(h, &c);
}

static void type(struct home *h, const char *text)
{
	for (const char *p = text; *p; p++)
		press(h, *p);
}

static const char my_games[] =
	"{\"now_ms\":1000,\"games\":[{\"id\":\"208fe1f1aaaabbbbccccddddeeeeffff\",\"status\":\"playing\","
	"\"tc\":\"5+3\",\"color\":\"black\",\"opponent\":{\"player\":2,\"name\":\"bob\"},\"ply\":23,\"your_move\":false,"
	"\"deadline_ms\":null,\"tournament\":null}]}";

START_TEST(test_rows_and_keys)
{
	struct home h;
	struct home_req r;
	home_init(&h, true);
	/* The lists are asked for at once. */
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_MY_GAMES);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_RECENT);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_LIVE);
	ck_assert(!home_take_request(&h, &r));
	struct home_cmd c = { HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	char line[HOME_LINE_MAX];
	home_row_text(&h, 0, line, sizeof line);
	ck_assert_msg(strstr(line, "1  Play the engine"), "%s", line);
	r.kind = HOME_REQ_MY_GAMES;
	home_on_answer(&h, &r, 200, my_games, strlen(my_games));
	/* The game's row: id, colour, opponent, time control, move
	 * number (ply 23: move 12), whose move. */
	int row = HOME_ACTION_NB + 2;
	size_t i;
	ck_assert_int_eq(home_row(&h, row, &i), HOME_ROW_MINE);
	home_row_text(&h, row, line, sizeof line);
	ck_assert_str_eq(line, "  208fe1f1  black vs bob             5+3        move 12   their move");
	/* Down from the last action skips the blank and the heading. */
	for (int k = 0; k < HOME_ACTION_NB; k++)
		press(&h, KEYS_DOWN);
	ck_assert_int_eq(h.sel, row);
	press(&h, KEYS_ENTER);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_OPEN_GAME);
	ck_assert_str_eq(r.id, "208fe1f1aaaabbbbccccddddeeeeffff");
	ck_assert_int_eq(r.color, 1);
	/* 1 asks for an engine game. */
	press(&h, '1');
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_CREATE);
	ck_assert_int_eq(r.action, HOME_ENGINE);
	const char *method;
	char path[256], *body;
	home_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_str_eq(method, "POST");
	ck_assert_str_eq(path, "/v1/games");
	ck_assert_msg(strstr(body, "\"opponent\":\"engine\"") && strstr(body, "\"level\":3") &&
			      strstr(body, "\"premoves\":3"),
		      "%s", body);
	free(body);
	press(&h, 'q');
	ck_assert(h.quit);
	home_fini(&h);
}
END_TEST

/* The recent (finished) games (issue 14 item 5): their rows under "Your
 * games", said from the player's side; five at 80x24 and more on a taller
 * terminal; Enter fetches the PGN into the games folder and opens its
 * review, e finds it there. */
START_TEST(test_recent_games)
{
	char dir[] = "/tmp/tchess-home-recent.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_DATA_HOME", dir, 1);
	struct home h;
	struct home_req r;
	home_init(&h, true);
	drain(&h);
	struct home_cmd c = { HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	/* Eight games: won as White, lost as Black against the engine,
	 * drawn, then five more. */
	char json[4096] = "{\"games\":[";
	for (int k = 0; k < 8; k++) {
		char g[400];
		snprintf(g, sizeof g,
			 "%s{\"id\":\"%08d000000000000000000000000\",\"result\":\"%s\",\"termination\":\"%s\","
			 "\"color\":\"%s\",\"opponent\":%s,\"engine_level\":%s,\"tc\":\"5+3\",\"ruleset\":\"fide\","
			 "\"plies\":%d,\"ended_ms\":%lld}",
			 k ? "," : "", k, k == 2 ? "1/2-1/2" : "1-0", k == 2 ? "agreement" : "resignation",
			 k == 1 ? "black" : "white", k == 1 ? "null" : "{\"player\":2,\"name\":\"bob\"}",
			 k == 1 ? "4" : "null", 20 + k, 1764633600000LL - k * 86400000LL);
		strcat(json, g);
	}
	strcat(json, "],\"next\":null}");
	r.kind = HOME_REQ_RECENT;
	home_on_answer(&h, &r, 200, json, strlen(json));
	char line[HOME_LINE_MAX];
	int first = -1, n = 0;
	for (int row = 0; row < home_rows(&h); row++) {
		size_t i;
		if (home_row(&h, row, &i) == HOME_ROW_RECENT) {
			if (first < 0)
				first = row;
			n++;
		}
	}
	ck_assert_int_eq(n, 5);
	home_row_text(&h, first - 1, line, sizeof line);
	ck_assert_str_eq(line, "Recent games: Enter reviews, e exports the PGN");
	home_row_text(&h, first, line, sizeof line);
	ck_assert_msg(!strncmp(line, "  won   vs bob                   5+3        10 moves  ", 54), "%s", line);
	ck_assert_msg(strstr(line, "resignation") && strlen(line) <= 80, "%s", line);
	home_row_text(&h, first + 1, line, sizeof line);
	ck_assert_msg(!strncmp(line, "  lost  vs engine level 4", 25), "%s", line);
	home_row_text(&h, first + 2, line, sizeof line);
	ck_assert_msg(!strncmp(line, "  drawn vs bob", 14), "%s", line);
	/* 120x40: eight lines more, four rows more (all eight here). */
	c = (struct home_cmd){ HOME_CMD_RESIZE, 120, 40 };
	home_apply(&h, &c);
	n = 0;
	for (int row = 0; row < home_rows(&h); row++) {
		size_t i;
		n += home_row(&h, row, &i) == HOME_ROW_RECENT;
	}
	ck_assert_int_eq(n, 8);
	/* Dates: today's by the time, others by the day. */
	char date[32];
	int64_t now = 1764633600000LL;
	home_recent_date(now, now, date, sizeof date);
	ck_assert_msg(!strncmp(date, "today ", 6), "%s", date);
	home_recent_date(now - 40LL * 86400000, now, date, sizeof date);
	ck_assert_msg(strstr(date, "Oct"), "%s", date);

	/* Enter on the first: its PGN is not in the folder, so it is fetched. */
	while (h.sel != first)
		press(&h, KEYS_DOWN);
	press(&h, KEYS_ENTER);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_RECENT_REVIEW);
	const char *method;
	char path[256], *body;
	home_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_str_eq(method, "GET");
	ck_assert_str_eq(path, "/v1/games/00000000000000000000000000000000/pgn");
	static const char pgn[] = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
	home_on_answer(&h, &r, 200, pgn, strlen(pgn));
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_REVIEW);
	char want[512];
	snprintf(want, sizeof want, "%s/tchess/games/tchess-000000000000.pgn", dir);
	ck_assert_str_eq(r.note, want);
	ck_assert_int_eq(access(want, R_OK), 0);
	/* e: it is there now, said without a request. */
	press(&h, 'e');
	ck_assert(!home_take_request(&h, &r));
	ck_assert_msg(strstr(h.message, "the PGN is in"), "%s", h.message);
	/* Elsewhere e is nothing. */
	press(&h, KEYS_UP);
	press(&h, 'e');
	ck_assert(!home_take_request(&h, &r));
	home_fini(&h);
	unlink(want);
	snprintf(want, sizeof want, "%s/tchess/games", dir);
	rmdir(want);
	snprintf(want, sizeof want, "%s/tchess", dir);
	rmdir(want);
	rmdir(dir);
	unsetenv("XDG_DATA_HOME");
}
END_TEST

START_TEST(test_join_prompt)
{
	struct home h;
	struct home_req r;
	home_init(&h, true);
	drain(&h);
	press(&h, '4');
	ck_assert(h.typing);
	/* Letters go to the prompt, not to the keys they would be. */
	type(&h, "tchess join 9a1b2c3d:K7M4Q PX9CA");
	ck_assert(!h.quit);
	press(&h, KEYS_ENTER);
	ck_assert(!h.typing);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_FIND);
	ck_assert_str_eq(r.id, "9a1b2c3d");
	ck_assert_str_eq(r.invite, "K7M4Q PX9CA");
	const char *method;
	char path[256], *body;
	home_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_str_eq(path, "/v1/games?prefix=9a1b2c3d");
	ck_assert_ptr_null(body);
	/* One game found: joined with the code. */
	static const char found[] = "{\"games\":[{\"id\":\"9a1b2c3d00000000000000000000000f\",\"status\":\"open\","
				    "\"white\":1,\"black\":null,\"created_ms\":1,\"seq\":1}]}";
	home_on_answer(&h, &r, 200, found, strlen(found));
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_JOIN);
	ck_assert_str_eq(r.id, "9a1b2c3d00000000000000000000000f");
	home_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_str_eq(path, "/v1/games/9a1b2c3d00000000000000000000000f/join");
	ck_assert_str_eq(body, "{\"invite\":\"K7M4Q PX9CA\"}");
	free(body);
	/* The seat: the game opens, as Black. */
	static const char seat[] = "{\"id\":\"9a1b2c3d00000000000000000000000f\",\"color\":\"black\",\"seq\":3}";
	home_on_answer(&h, &r, 200, seat, strlen(seat));
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_OPEN_GAME);
	ck_assert_int_eq(r.color, 1);
	/* A refusal is said; nothing opens. */
	static const char wrong[] = "{\"error\":\"forbidden\",\"message\":\"wrong invite code for this game\"}";
	r.kind = HOME_REQ_JOIN;
	home_on_answer(&h, &r, 403, wrong, strlen(wrong));
	ck_assert(h.message_error);
	ck_assert_str_eq(h.message, "join: wrong invite code for this game");
	ck_assert(!home_take_request(&h, &r));
	/* Text that names no game: said, nothing asked. */
	press(&h, '4');
	type(&h, "hello");
	press(&h, KEYS_ENTER);
	ck_assert(h.message_error);
	ck_assert(!home_take_request(&h, &r));
	/* Esc closes the prompt. */
	press(&h, '4');
	press(&h, KEYS_ESC);
	ck_assert(!h.typing);
	home_fini(&h);
}
END_TEST

/* Issue 14 item 5: the engine game's level, colour and time control are
 * chosen on its row and asked for; 6 opens the file prompt of a review. */
START_TEST(test_engine_choices)
{
	struct home h;
	struct home_req r;
	char line[HOME_LINE_MAX];
	home_init(&h, true);
	drain(&h);
	ck_assert_int_eq(h.sel, HOME_ENGINE);
	press(&h, '+');
	press(&h, '+');
	press(&h, 'c');
	press(&h, 'c');
	press(&h, 't');
	home_row_text(&h, HOME_ENGINE, line, sizeof line);
	ck_assert_str_eq(line, "  1  Play the engine    level 5, 10+5, you play Black   (+ - c t)");
	for (int k = 0; k < 20; k++)
		press(&h, '+');
	ck_assert_int_eq(h.engine_level, 8);
	press(&h, KEYS_ENTER);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_CREATE);
	const char *method;
	char path[256], *body;
	home_req_http(&r, &method, path, sizeof path, &body);
	ck_assert_msg(strstr(body, "\"level\":8") && strstr(body, "\"tc\":\"10+5\"") &&
			      strstr(body, "\"color\":\"black\""),
		      "%s", body);
	free(body);
	/* Elsewhere + and c are nothing. */
	press(&h, KEYS_DOWN);
	press(&h, '+');
	ck_assert_int_eq(h.engine_level, 8);
	/* 6: the review's file prompt; a file that cannot be read is said. */
	press(&h, '6');
	ck_assert(h.typing && h.typing_file);
	type(&h, "/nonexistent/x.pgn");
	press(&h, KEYS_ENTER);
	ck_assert(!h.typing);
	ck_assert(!home_take_request(&h, &r));
	ck_assert_str_eq(h.message, "cannot read /nonexistent/x.pgn: No such file or directory");
	home_fini(&h);
}
END_TEST

/* The settings screen's model: each change is written to the config
 * file at once (made with its folders), other lines kept; a bad file is
 * not made worse; 7 and 8 on the home screen ask for the hotseat game
 * and the settings. */
START_TEST(test_settings)
{
	char dir[] = "/tmp/tchess-settings.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256], text[1024];
	snprintf(path, sizeof path, "%s/cfg/tchess/config", dir);
	struct config c;
	config_init(&c);
	struct settings st;
	settings_init(&st, &c, "default", true, false, path);
	char line[160];
	settings_row_text(&st, SETTINGS_THEME, line, sizeof line);
	ck_assert_msg(strstr(line, "< default >"), "%s", line);
	settings_row_text(&st, SETTINGS_PIECES, line, sizeof line);
	ck_assert_msg(strstr(line, "< solid glyphs >"), "%s", line);
	/* Right on the theme: the next shipped one, saved. */
	struct settings_cmd k = settings_key(&st, KEYS_RIGHT);
	settings_apply(&st, &k);
	ck_assert_str_eq(settings_theme_name(&st), "high-contrast");
	ck_assert_int_eq(st.changed, SETTINGS_CHANGED_THEME);
	ck_assert_str_eq(st.message, "saved: theme = high-contrast");
	/* Down, Right: outline glyphs (ascii = no, pieces = outline). */
	k = settings_key(&st, KEYS_DOWN);
	settings_apply(&st, &k);
	k = settings_key(&st, KEYS_RIGHT);
	settings_apply(&st, &k);
	ck_assert_int_eq(st.pieces, SETTINGS_OUTLINE);
	/* Down, Left: the alert goes round to flash; Down, Enter: the bell on. */
	k = settings_key(&st, KEYS_DOWN);
	settings_apply(&st, &k);
	k = settings_key(&st, KEYS_LEFT);
	settings_apply(&st, &k);
	ck_assert_int_eq(st.move_alert, CONFIG_ALERT_FLASH);
	k = settings_key(&st, KEYS_DOWN);
	settings_apply(&st, &k);
	k = settings_key(&st, KEYS_ENTER);
	settings_apply(&st, &k);
	ck_assert(st.bell);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	ck_assert_str_eq(text, "theme = high-contrast\nascii = no\npieces = outline\nmove_alert = flash\nbell = yes\n");
	/* Read back, the file says what the screen showed. */
	config_init(&c);
	ck_assert_int_eq(config_parse(&c, text, n, line, sizeof line), 0);
	ck_assert_str_eq(c.theme, "high-contrast");
	ck_assert_int_eq(c.pieces, 0);
	ck_assert_int_eq(c.ascii, 0);
	ck_assert_int_eq(c.move_alert, CONFIG_ALERT_FLASH);
	ck_assert(c.bell);

	/* config_set keeps comments and other keys, replaces the key where
	 * it stands, and drops a later duplicate (the last would win). */
	f = fopen(path, "w");
	fputs("# mine\ntheme = 256\nserver = http://h:1  # remote\ntheme = default\n", f);
	fclose(f);
	ck_assert_int_eq(config_set(path, "theme", "monochrome", line, sizeof line), 0);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	ck_assert_str_eq(text, "# mine\ntheme = monochrome\nserver = http://h:1  # remote\n");
	/* A value the parser refuses: nothing written, the reason given. */
	ck_assert_int_eq(config_set(path, "bell", "loud", line, sizeof line), -1);
	ck_assert_msg(strstr(line, "bell is 'yes' or 'no'"), "%s", line);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	ck_assert_str_eq(text, "# mine\ntheme = monochrome\nserver = http://h:1  # remote\n");
	/* The screen says a failed save and keeps the old value. */
	settings_init(&st, &c, "default", true, false, "/proc/no/such/config");
	k = settings_key(&st, KEYS_RIGHT);
	settings_apply(&st, &k);
	ck_assert_str_eq(settings_theme_name(&st), "default");
	ck_assert(st.message_error);
	ck_assert_msg(strstr(st.message, "not saved"), "%s", st.message);
	ck_assert_int_eq(st.changed, 0);
	/* q leaves. */
	k = settings_key(&st, 'q');
	settings_apply(&st, &k);
	ck_assert(st.quit);
	unlink(path);
	snprintf(path, sizeof path, "%s/cfg/tchess", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/cfg", dir);
	rmdir(path);
	rmdir(dir);

	/* The home screen's 7 and 8. */
	struct home h;
	struct home_req r;
	home_init(&h, true);
	while (home_take_request(&h, &r))
		;
	struct home_cmd rc = { HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &rc);
	press(&h, '8');
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_SETTINGS);
	press(&h, '7');
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_HOTSEAT);
	ck_assert_str_eq(r.tc, "5+3");
	home_fini(&h);
}
END_TEST

/* The lobby (issue 14 item 5): GET /v1/games's open seeks and live games
 * of others as rows under their headings, fitted to the width by whole
 * columns (never a word cut), Enter taking a seek's seat or watching a
 * game, a refresh keeping the selection on its game, a click selecting
 * then activating a row. */
static const char lobby_list[] =
	"{\"games\":["
	"{\"id\":\"aaaa1111bbbb2222cccc3333dddd4444\",\"status\":\"open\",\"white\":3,\"black\":null,"
	"\"created_ms\":1,\"seq\":1,\"age_ms\":125000,\"tc\":\"3+2\",\"ruleset\":\"yourpot\","
	"\"white_name\":\"alice_the_long_named\",\"color\":\"black\"},"
	"{\"id\":\"eeee5555ffff6666aaaa7777bbbb8888\",\"status\":\"open\",\"white\":null,\"black\":4,"
	"\"created_ms\":2,\"seq\":1,\"age_ms\":4000,\"tc\":\"corr:3d/10\",\"ruleset\":\"chessgamble\","
	"\"black_name\":\"carol\",\"color\":\"white\"},"
	"{\"id\":\"1234567812345678123456781234567a\",\"status\":\"playing\",\"white\":5,\"black\":6,"
	"\"created_ms\":3,\"seq\":9,\"age_ms\":60000,\"tc\":\"10+5\",\"ruleset\":\"fide\","
	"\"white_name\":\"dave\",\"black_name\":\"erin\",\"ply\":22},"
	"{\"id\":\"9999999999999999999999999999999a\",\"status\":\"over\",\"white\":5,\"black\":6,"
	"\"created_ms\":0,\"seq\":40,\"age_ms\":900000}"
	"]}";

static int find_row(const struct home *h, enum home_row_kind kind, const char *id)
{
	for (int row = 0; row < home_rows(h); row++) {
		size_t i;
		if (home_row(h, row, &i) == kind && (!id || !strcmp(h->live[i].id, id)))
			return row;
	}
	return -1;
}

START_TEST(test_lobby)
{
	struct home h;
	struct home_req r = { .kind = HOME_REQ_LIVE };
	home_init(&h, true);
	drain(&h);
	struct home_cmd c = { HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	home_on_answer(&h, &r, 200, lobby_list, strlen(lobby_list));
	char line[HOME_LINE_MAX];
	size_t i;
	int seek = find_row(&h, HOME_ROW_SEEK, "aaaa1111bbbb2222cccc3333dddd4444");
	ck_assert_int_ge(seek, 0);
	home_row_text(&h, seek - 1, line, sizeof line);
	ck_assert_str_eq(line, "Open seeks (2): Enter takes the seat");
	/* At 80 columns: every column, the colour said in full. */
	home_row_text(&h, seek, line, sizeof line);
	ck_assert_msg(strstr(line, "alice_the_long_named") && strstr(line, "3+2") && strstr(line, "yourpot") &&
			      strstr(line, "you play Black") && strstr(line, "2m"),
		      "%s", line);
	ck_assert_int_le((int)strlen(line), 80);
	home_row_text(&h, seek + 1, line, sizeof line);
	ck_assert_msg(strstr(line, "carol") && strstr(line, "corr:3d/10") && strstr(line, "you play White") &&
			      strstr(line, "4s"),
		      "%s", line);
	int live = find_row(&h, HOME_ROW_LIVE, NULL);
	home_row_text(&h, live - 1, line, sizeof line);
	ck_assert_str_eq(line, "Live games (1): Enter watches");
	home_row_text(&h, live, line, sizeof line);
	ck_assert_msg(strstr(line, "dave vs erin") && strstr(line, "10+5") && strstr(line, "move 12"), "%s", line);
	/* The game that is over is in neither list. */
	ck_assert_int_eq(find_row(&h, HOME_ROW_LIVE, "9999999999999999999999999999999a"), -1);
	/* Narrower, whole columns give way; each width shows whole words
	 * only, the name and the time control always. */
	for (int w = 40; w <= 120; w++) {
		c = (struct home_cmd){ HOME_CMD_RESIZE, w, 24 };
		home_apply(&h, &c);
		home_row_text(&h, seek, line, sizeof line);
		ck_assert_msg((int)strlen(line) <= w, "%d: %s", w, line);
		ck_assert_msg(strstr(line, "alice_the_long_named  3+2"), "%d: %s", w, line);
		ck_assert_msg(!strstr(line, "..."), "%d: %s", w, line);
		ck_assert_msg(w < 80 || strstr(line, "you play Black"), "%d: %s", w, line);
		ck_assert_msg(w < 100 || strstr(line, "aaaa1111"), "%d: %s", w, line);
	}
	/* A tall terminal names the columns, above the rows. */
	c = (struct home_cmd){ HOME_CMD_RESIZE, 120, 40 };
	home_apply(&h, &c);
	ck_assert_int_eq(home_row(&h, seek, &i), HOME_ROW_COLUMNS);
	home_row_text(&h, seek, line, sizeof line);
	ck_assert_msg(!strncmp(line, "  player                time        rules        colour", 54), "%s", line);
	ck_assert_int_eq(home_row(&h, seek + 1, &i), HOME_ROW_SEEK);
	c = (struct home_cmd){ HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	/* Enter on a seek takes its seat; on a live game watches it. */
	h.sel = seek;
	press(&h, KEYS_ENTER);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_JOIN);
	ck_assert_str_eq(r.id, "aaaa1111bbbb2222cccc3333dddd4444");
	h.sel = live;
	press(&h, KEYS_ENTER);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_OPEN_GAME);
	ck_assert_int_eq(r.color, -1);
	/* The periodic refresh asks quietly; its answer without alice's seek
	 * keeps the selection on carol's, not on what slid under it. */
	h.sel = seek + 1;
	c = (struct home_cmd){ HOME_CMD_TICK, 0, 0 };
	h.message[0] = '\0';
	home_apply(&h, &c);
	ck_assert_str_eq(h.message, "");
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_MY_GAMES);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_LIVE);
	const char *later = strstr(lobby_list, "{\"id\":\"eeee");
	char fewer[sizeof lobby_list];
	snprintf(fewer, sizeof fewer, "{\"games\":[%s", later);
	home_on_answer(&h, &r, 200, fewer, strlen(fewer));
	ck_assert_int_eq(home_row(&h, h.sel, &i), HOME_ROW_SEEK);
	ck_assert_str_eq(h.live[i].id, "eeee5555ffff6666aaaa7777bbbb8888");
	/* A click selects a row; a second click on it activates it. Off the
	 * rows (the title, the status line) nothing. */
	c = (struct home_cmd){ HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	ck_assert_int_eq(home_mouse(&h, 5, 0).kind, HOME_CMD_NONE);
	ck_assert_int_eq(home_mouse(&h, 5, 23).kind, HOME_CMD_NONE);
	c = home_mouse(&h, 5, 2 + HOME_ENGINE - h.top);
	ck_assert_int_eq(c.kind, HOME_CMD_CLICK);
	home_apply(&h, &c);
	ck_assert_int_eq(h.sel, HOME_ENGINE);
	ck_assert(!home_take_request(&h, &r));
	home_apply(&h, &c);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_CREATE);
	ck_assert_int_eq(r.action, HOME_ENGINE);
	char age[8];
	home_lobby_age(59999, age, sizeof age);
	ck_assert_str_eq(age, "59s");
	home_lobby_age(3 * 3600000 + 1, age, sizeof age);
	ck_assert_str_eq(age, "3h");
	home_lobby_age(2 * 86400000LL, age, sizeof age);
	ck_assert_str_eq(age, "2d");
	home_fini(&h);
}
END_TEST

/* The seek and invite form: 2 opens it with the config file's values; Left
 * and Right change the selected setting (the time controls, the
 * rulesets, the colours, the premove depth); Enter asks for the game with
 * them and saves the ones changed to the config file; Esc goes back. */
START_TEST(test_seek_form)
{
	char dir[] = "/tmp/tchess-home-form-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256], text[512], err[256];
	snprintf(path, sizeof path, "%s/config", dir);
	struct config cfg;
	config_init(&cfg);
	const char saved[] = "seek_tc = 10+5\nseek_ruleset = yourpot\n";
	ck_assert_int_eq(config_parse(&cfg, saved, strlen(saved), err, sizeof err), 0);
	struct home h;
	struct home_req r;
	home_init(&h, true);
	home_form_defaults(&h, &cfg, path);
	drain(&h);
	struct home_cmd c = { HOME_CMD_RESIZE, 80, 24 };
	home_apply(&h, &c);
	char line[HOME_LINE_MAX];
	home_row_text(&h, HOME_SEEK, line, sizeof line);
	ck_assert_msg(strstr(line, "10+5 yourpot, colour drawn"), "%s", line);
	press(&h, '2');
	ck_assert(h.form.open);
	ck_assert(!home_take_request(&h, &r));
	home_row_text(&h, 0, line, sizeof line);
	ck_assert_str_eq(line, "Seek an opponent: a game anyone may join");
	home_row_text(&h, h.sel, line, sizeof line);
	ck_assert_msg(strstr(line, "Time control   10+5"), "%s", line);
	press(&h, KEYS_RIGHT);
	home_row_text(&h, h.sel, line, sizeof line);
	ck_assert_msg(strstr(line, "Time control   15+10"), "%s", line);
	press(&h, KEYS_DOWN);
	press(&h, KEYS_LEFT);
	home_row_text(&h, h.sel, line, sizeof line);
	ck_assert_msg(strstr(line, "Rules          fide"), "%s", line);
	press(&h, KEYS_DOWN);
	press(&h, KEYS_RIGHT);
	press(&h, KEYS_RIGHT);
	home_row_text(&h, h.sel, line, sizeof line);
	ck_assert_msg(strstr(line, "Your colour    Black"), "%s", line);
	press(&h, KEYS_DOWN);
	press(&h, KEYS_LEFT);
	home_row_text(&h, h.sel, line, sizeof line);
	ck_assert_msg(strstr(line, "Premoves       2 moves"), "%s", line);
	/* Esc: back, nothing asked for. */
	press(&h, KEYS_ESC);
	ck_assert(!h.form.open);
	ck_assert_int_eq(h.sel, HOME_SEEK);
	ck_assert(!home_take_request(&h, &r));
	/* Again, then Enter: the game as set (the values stay). */
	press(&h, '2');
	press(&h, KEYS_ENTER);
	ck_assert(!h.form.open);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.kind, HOME_REQ_CREATE);
	const char *method;
	char rpath[256], *body;
	home_req_http(&r, &method, rpath, sizeof rpath, &body);
	ck_assert_msg(strstr(body, "\"tc\":\"15+10\"") && strstr(body, "\"ruleset\":\"fide\"") &&
			      strstr(body, "\"color\":\"black\"") && strstr(body, "\"opponent\":\"open\"") &&
			      strstr(body, "\"premoves\":2"),
		      "%s", body);
	free(body);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	ck_assert_msg(strstr(text, "seek_tc = 15+10") && strstr(text, "seek_ruleset = fide") &&
			      strstr(text, "seek_color = black") && strstr(text, "seek_premoves = 2"),
		      "%s", text);
	/* What was saved reads back. */
	config_init(&cfg);
	ck_assert_int_eq(config_parse(&cfg, text, n, err, sizeof err), 0);
	ck_assert_str_eq(cfg.seek_tc, "15+10");
	ck_assert_int_eq(cfg.seek_color, 1);
	ck_assert_int_eq(cfg.seek_premoves, 2);
	/* The invite's form the same way, a click on its Create row. */
	press(&h, '3');
	ck_assert(h.form.open);
	c = home_mouse(&h, 4, 2 + HOME_FORM_FIRST + HOME_FIELD_CREATE);
	home_apply(&h, &c);
	home_apply(&h, &c);
	ck_assert(home_take_request(&h, &r));
	ck_assert_int_eq(r.action, HOME_INVITE);
	/* A bad value in the file is refused with its line. */
	const char bad[] = "seek_ruleset = chess960\n";
	ck_assert_int_eq(config_parse(&cfg, bad, strlen(bad), err, sizeof err), -1);
	ck_assert_msg(strstr(err, "line 1") && strstr(err, "seek_ruleset"), "%s", err);
	const char mouse[] = "mouse = off\n";
	ck_assert_int_eq(config_parse(&cfg, mouse, strlen(mouse), err, sizeof err), 0);
	ck_assert(cfg.mouse_off);
	home_fini(&h);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *home_suite(void)
{
	Suite *s = suite_create("home");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_rows_and_keys);
	tcase_add_test(tc, test_join_prompt);
	tcase_add_test(tc, test_recent_games);
	tcase_add_test(tc, test_engine_choices);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_lobby);
	tcase_add_test(tc, test_seek_form);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(home_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
