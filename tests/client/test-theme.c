/*
 * Theme and config file tests: good files parse to the expected values,
 * every kind of bad line is refused with its line number and reason, the
 * shipped themes all load, and the option precedence (command line,
 * NO_COLOR, config file, locale) holds.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "theme.h"

static int parse(struct theme *t, const char *text, char *err)
{
	theme_init_default(t);
	return theme_parse(t, text, strlen(text), err, 256);
}

START_TEST(test_theme_good)
{
	struct theme t;
	char err[256];
	const char *text = "# a comment\n"
			   "name = Test\n"
			   "\n"
			   "light_square = 187 bright-yellow yellow   # trailing comment\r\n"
			   "dark_square=red\n"
			   "  white_piece =  default  \n"
			   "colors = yes\n"
			   "markers = yes\n"
			   "pieces = solid\n";
	ck_assert_int_eq(parse(&t, text, err), 0);
	ck_assert_str_eq(t.name, "Test");
	ck_assert_int_eq(t.color[THEME_LIGHT_SQUARE].n, 3);
	ck_assert_int_eq(t.color[THEME_LIGHT_SQUARE].choice[0], 187);
	ck_assert_int_eq(t.color[THEME_LIGHT_SQUARE].choice[1], 11);
	ck_assert_int_eq(t.color[THEME_LIGHT_SQUARE].choice[2], 3);
	ck_assert_int_eq(t.color[THEME_DARK_SQUARE].choice[0], 1);
	ck_assert_int_eq(t.color[THEME_WHITE_PIECE].choice[0], THEME_DEFAULT_COLOR);
	ck_assert(t.markers);
	ck_assert(t.solid_pieces);
	/* Keys left out keep the default theme's values. */
	ck_assert_int_eq(t.color[THEME_CHECK].choice[0], 167);
}
END_TEST

START_TEST(test_theme_pick)
{
	struct theme_color c;
	ck_assert_int_eq(theme_parse_color("187 bright-yellow yellow", &c, NULL, 0), 0);
	ck_assert_int_eq(theme_pick(&c, 256), 187);
	ck_assert_int_eq(theme_pick(&c, 16), 11);
	ck_assert_int_eq(theme_pick(&c, 8), 3);
	ck_assert_int_eq(theme_parse_color("137", &c, NULL, 0), 0);
	ck_assert_int_eq(theme_pick(&c, 8), THEME_DEFAULT_COLOR);
	ck_assert_int_eq(theme_parse_color("bright-red", &c, NULL, 0), 0);
	ck_assert_int_eq(theme_pick(&c, 8), 1);
}
END_TEST

static const struct {
	const char *text;
	const char *message;
} bad_themes[] = {
	{ "light_square = 180\nligth_square = 3\n", "line 2: unknown key 'ligth_square'" },
	{ "dark_square = blu\n", "line 1: dark_square: 'blu' is not a colour" },
	{ "dark_square = 256\n", "line 1: dark_square: '256' is not a colour" },
	{ "dark_square = -1\n", "line 1: dark_square: '-1' is not a colour" },
	{ "\n\njust words\n", "line 3: expected 'key = value'" },
	{ "check =\n", "line 1: 'check' has no value" },
	{ "check = # nothing\n", "line 1: 'check' has no value" },
	{ "markers = maybe\n", "line 1: markers is 'yes' or 'no'" },
	{ "pieces = hollow\n", "line 1: pieces is 'solid' or 'outline'" },
	{ "legal = 1 2 3 4 5\n", "line 1: legal: more than 4 colours" },
};

START_TEST(test_theme_bad)
{
	struct theme t, before;
	char err[256] = "";
	ck_assert_int_eq(parse(&t, bad_themes[_i].text, err), -1);
	ck_assert_msg(!strncmp(err, bad_themes[_i].message, strlen(bad_themes[_i].message)), "got '%s', want '%s'",
		      err, bad_themes[_i].message);
	/* A bad file changes nothing. */
	theme_init_default(&before);
	ck_assert(!memcmp(&t, &before, sizeof t));
}
END_TEST

START_TEST(test_theme_binary_garbage)
{
	struct theme t;
	char err[256];
	char junk[512];
	unsigned s = 12345;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof junk; i++) {
			s = s * 1103515245u + 12345u;
			junk[i] = (char)(s >> 16);
		}
		theme_init_default(&t);
		/* Must not crash; garbage is refused or happens to parse. */
		(void)theme_parse(&t, junk, sizeof junk, err, sizeof err);
	}
	theme_init_default(&t);
	ck_assert_int_eq(theme_parse(&t, "check = red\0green\n", 18, err, sizeof err), -1);
	ck_assert_str_eq(err, "line 1: contains a NUL byte");
}
END_TEST

/* Every theme in themes/ (and the built-in default) keeps its board at
 * THEME_BOARD_CONTRAST_MIN (3:1, WCAG 2.1's floor for graphical
 * objects): both sides' pieces against both squares and every highlight
 * (last move, check, cursor, selected, premove), and the legal-move dot
 * against the squares it can sit on, on 8-, 16-, 256-colour and
 * direct-colour terminals, measured with xterm's palette; and the measure
 * fails what the issue saw: white pieces on yellow squares in 8 colours. */
START_TEST(test_theme_contrast)
{
	static const int depths[] = { 8, 16, 256, 1 << 24 };
	const char *dir = getenv("TCHESS_SOURCE_THEMES");
	char err[512], path[1024];
	struct theme t;
	int fg, bg, checked = 0, failed = 0;
	ck_assert_ptr_nonnull(dir);
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 7 || strcmp(e->d_name + n - 6, ".theme"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		ck_assert_msg(theme_load(&t, path, err, sizeof err) == 0, "%s", err);
		if (!t.use_color)
			continue; /* monochrome: reverse video, no colours to measure */
		for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
			/* Every failing pair is printed, not only the first. */
			struct theme_pair pairs[THEME_BOARD_PAIRS];
			int np = theme_board_pairs(&t, depths[i], pairs);
			ck_assert_int_eq(np, THEME_BOARD_PAIRS);
			for (int k = 0; k < np; k++) {
				if (pairs[k].contrast >= THEME_BOARD_CONTRAST_MIN)
					continue;
				fprintf(stderr, "%s at %d colours: %s on %s is %.2f:1, under %.1f:1\n", e->d_name,
					depths[i], theme_slot_key(pairs[k].fg), theme_slot_key(pairs[k].bg),
					pairs[k].contrast, THEME_BOARD_CONTRAST_MIN);
				failed++;
			}
		}
		checked++;
	}
	closedir(d);
	ck_assert_int_ge(checked, 3);
	ck_assert_msg(failed == 0, "%d board colour pairs under %.1f:1 (listed above)", failed, THEME_BOARD_CONTRAST_MIN);
	theme_init_default(&t);
	for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
		ck_assert(theme_board_contrast(&t, depths[i], &fg, &bg) >= THEME_BOARD_CONTRAST_MIN);
	ck_assert(t.solid_pieces);

	/* The old default: 180 yellow light squares, white pieces 231 white. */
	ck_assert_int_eq(parse(&t, "light_square = 180 yellow\ndark_square = 137 green\n", err), 0);
	double c = theme_board_contrast(&t, 8, &fg, &bg);
	ck_assert_int_eq(fg, THEME_WHITE_PIECE);
	ck_assert_int_eq(bg, THEME_LIGHT_SQUARE);
	ck_assert_double_lt(c, 1.4);
	ck_assert_double_gt(c, 1.3);
	ck_assert_double_lt(theme_board_contrast(&t, 256, &fg, &bg), THEME_BOARD_CONTRAST_MIN);
	/* Highlights are squares too: a white cursor hides White's pieces,
	 * and a legal dot in the dark square's own colour vanishes. */
	ck_assert_int_eq(parse(&t, "cursor = 231 white\n", err), 0);
	ck_assert_double_lt(theme_board_contrast(&t, 256, &fg, &bg), 1.01);
	ck_assert_int_eq(fg, THEME_WHITE_PIECE);
	ck_assert_int_eq(bg, THEME_CURSOR);
	ck_assert_int_eq(parse(&t, "legal = 94 red\n", err), 0);
	ck_assert_double_lt(theme_board_contrast(&t, 8, &fg, &bg), 1.01);
	ck_assert_int_eq(fg, THEME_LEGAL);
	ck_assert_int_eq(bg, THEME_DARK_SQUARE);
	/* A square left to the terminal's own colour cannot be measured. */
	ck_assert_int_eq(parse(&t, "dark_square = default\n", err), 0);
	ck_assert_double_eq(theme_board_contrast(&t, 256, &fg, &bg), 1.0);
	ck_assert_int_eq(bg, THEME_DARK_SQUARE);

	/* The measure itself: black on white is 21:1, a colour on itself 1:1,
	 * and the palette is xterm's. */
	unsigned char black[3], white[3], c137[3], grey[3];
	theme_rgb(16, black);
	theme_rgb(231, white);
	theme_rgb(137, c137);
	theme_rgb(244, grey);
	ck_assert_double_eq_tol(theme_contrast(black, white), 21.0, 0.01);
	ck_assert_double_eq_tol(theme_contrast(c137, c137), 1.0, 0.0001);
	ck_assert_int_eq(c137[0], 0xaf);
	ck_assert_int_eq(c137[1], 0x87);
	ck_assert_int_eq(c137[2], 0x5f);
	ck_assert_int_eq(grey[0], 128);
}
END_TEST

/* Every theme that meson installs loads cleanly from the source tree. */
START_TEST(test_shipped_themes)
{
	static const char *const names[] = { "default", "high-contrast", "monochrome", "256" };
	char err[512], path[1024];
	struct theme t;
	ck_assert_int_eq(setenv("TCHESS_THEME_DIR", getenv("TCHESS_SOURCE_THEMES"), 1), 0);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		ck_assert_msg(theme_find(names[i], path, sizeof path) == 0, "%s not found", names[i]);
		ck_assert_msg(strstr(path, getenv("TCHESS_SOURCE_THEMES")) == path, "%s found at %s", names[i], path);
		ck_assert_msg(theme_load(&t, names[i], err, sizeof err) == 0, "%s", err);
	}
	ck_assert_int_eq(theme_load(&t, "monochrome", err, sizeof err), 0);
	ck_assert(!t.use_color);
	ck_assert(t.markers);
	/* default.theme says what the built-in default says. */
	struct theme builtin;
	theme_init_default(&builtin);
	ck_assert_int_eq(theme_load(&t, "default", err, sizeof err), 0);
	for (int i = 0; i < THEME_SLOT_NB; i++) {
		ck_assert_int_eq(t.color[i].n, builtin.color[i].n);
		for (int k = 0; k < t.color[i].n; k++)
			ck_assert_int_eq(t.color[i].choice[k], builtin.color[i].choice[k]);
	}
	ck_assert_int_eq(t.solid_pieces, builtin.solid_pieces);
	ck_assert_int_eq(theme_load(&t, "no-such-theme", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "theme 'no-such-theme' not found"), "%s", err);
	ck_assert_int_eq(theme_load(&t, "/nonexistent/x.theme", err, sizeof err), -1);
}
END_TEST

START_TEST(test_config_good)
{
	struct config c;
	char err[256];
	const char *text = "# tchess config\ntheme = high-contrast\nascii = yes\nserver = http://h:8080/#x  # c\nbell=on\n";
	config_init(&c);
	ck_assert_int_eq(config_parse(&c, text, strlen(text), err, sizeof err), 0);
	ck_assert_str_eq(c.theme, "high-contrast");
	ck_assert_int_eq(c.ascii, 1);
	ck_assert_str_eq(c.server, "http://h:8080/#x");
	ck_assert(c.bell);
	/* The opponent's move alert: off until set. */
	ck_assert_int_eq(c.move_alert, CONFIG_ALERT_OFF);
	const char *ma = "move_alert = flash\n";
	ck_assert_int_eq(config_parse(&c, ma, strlen(ma), err, sizeof err), 0);
	ck_assert_int_eq(c.move_alert, CONFIG_ALERT_FLASH);
	ma = "move_alert = bell\n";
	ck_assert_int_eq(config_parse(&c, ma, strlen(ma), err, sizeof err), 0);
	ck_assert_int_eq(c.move_alert, CONFIG_ALERT_BELL);
	/* The low-time threshold is unset (the default applies) until given. */
	ck_assert_int_eq(c.low_time_ms, -1);
	const char *lt = "low_time_ms = 12345\n";
	ck_assert_int_eq(config_parse(&c, lt, strlen(lt), err, sizeof err), 0);
	ck_assert_int_eq(c.low_time_ms, 12345);
	lt = "low_time_ms = 0\n";
	ck_assert_int_eq(config_parse(&c, lt, strlen(lt), err, sizeof err), 0);
	ck_assert_int_eq(c.low_time_ms, 0);
	/* Lichess: lichess.org until lichess_url names another (a trailing
	 * '/' dropped, so paths join it with one). */
	ck_assert_str_eq(config_lichess_url(&c), "https://lichess.org");
	const char *lu = "lichess_url = http://127.0.0.1:4567/\n";
	ck_assert_int_eq(config_parse(&c, lu, strlen(lu), err, sizeof err), 0);
	ck_assert_str_eq(config_lichess_url(&c), "http://127.0.0.1:4567");
	/* Review's engine and depth. */
	ck_assert_str_eq(c.engine, "");
	ck_assert_int_eq(c.engine_depth, 0);
	const char *en = "engine = /opt/my engine/uci # the path may hold blanks\nengine_depth = 18\n";
	ck_assert_int_eq(config_parse(&c, en, strlen(en), err, sizeof err), 0);
	ck_assert_str_eq(c.engine, "/opt/my engine/uci");
	ck_assert_int_eq(c.engine_depth, 18);
}
END_TEST

START_TEST(test_config_bad)
{
	static const struct {
		const char *text, *message;
	} bad[] = {
		{ "theme = x\ncolour = red\n", "line 2: unknown key 'colour'" },
		{ "ascii = perhaps\n", "line 1: ascii is 'yes' or 'no', not 'perhaps'" },
		{ "theme\n", "line 1: expected 'key = value', got 'theme'" },
		{ "theme =   \n", "line 1: theme has no value" },
		{ "low_time_ms = 10s\n", "line 1: low_time_ms is milliseconds from 0 to 86400000, not '10s'" },
		{ "low_time_ms = -1\n", "line 1: low_time_ms is milliseconds from 0 to 86400000, not '-1'" },
		{ "theme = x\nlichess_url = lichess.org\n",
		  "line 2: lichess_url is an http:// or https:// URL, not 'lichess.org'" },
		{ "theme = x\nlichess_url = http://a b\n", "line 2: lichess_url is one URL, without blanks" },
		{ "theme = x\nengine_depth = 0\n", "line 2: engine_depth is a depth from 1 to 60, not '0'" },
		{ "theme = x\nengine_depth = 61\n", "line 2: engine_depth is a depth from 1 to 60, not '61'" },
		{ "theme = x\nengine =\n", "line 2: engine has no value" },
		{ "move_alert = loud\n", "line 1: move_alert is 'off', 'bell' or 'flash', not 'loud'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct config c;
		char err[256] = "";
		config_init(&c);
		ck_assert_int_eq(config_parse(&c, bad[i].text, strlen(bad[i].text), err, sizeof err), -1);
		ck_assert_msg(!strncmp(err, bad[i].message, strlen(bad[i].message)), "got '%s'", err);
		ck_assert_str_eq(c.theme, "");
	}
}
END_TEST

START_TEST(test_config_file)
{
	char dir[] = "/tmp/tchess-config-XXXXXX", path[256], err[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(setenv("XDG_CONFIG_HOME", dir, 1), 0);
	struct config c;
	config_init(&c);
	/* No file is no error. */
	ck_assert_int_eq(config_load(&c, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/tchess", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/tchess/config", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("theme = 256\n\nbogus = 1\n", f);
	fclose(f);
	ck_assert_int_eq(config_load(&c, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "tchess/config: line 3: unknown key 'bogus'"), "%s", err);
	f = fopen(path, "w");
	fputs("theme = 256\n", f);
	fclose(f);
	ck_assert_int_eq(config_load(&c, err, sizeof err), 0);
	ck_assert_str_eq(c.theme, "256");
	unlink(path);
	snprintf(path, sizeof path, "%s/tchess", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_precedence)
{
	struct config c;
	config_init(&c);
	ck_assert_str_eq(config_theme_name(NULL, &c, NULL), "default");
	ck_assert_str_eq(config_theme_name(NULL, &c, ""), "default");
	ck_assert_str_eq(config_theme_name(NULL, &c, "1"), "monochrome");
	strcpy(c.theme, "256");
	ck_assert_str_eq(config_theme_name(NULL, &c, NULL), "256");
	ck_assert_str_eq(config_theme_name(NULL, &c, "1"), "monochrome");
	ck_assert_str_eq(config_theme_name("high-contrast", &c, "1"), "high-contrast");

	ck_assert(!config_want_ascii(-1, &c, "UTF-8", "xterm-256color", 0));
	ck_assert(config_want_ascii(-1, &c, "ANSI_X3.4-1968", "xterm", 0));
	ck_assert(config_want_ascii(-1, &c, "UTF-8", "linux", 0));
	ck_assert(config_want_ascii(1, &c, "UTF-8", "xterm", 0));
	ck_assert(!config_want_ascii(0, &c, "ANSI_X3.4-1968", "linux", 0));
	/* The glyphs measured at start: one column keeps them, two (or
	 * more) means letters, unless the command line says otherwise. */
	ck_assert(!config_want_ascii(-1, &c, "UTF-8", "xterm-256color", 1));
	ck_assert(config_want_ascii(-1, &c, "UTF-8", "xterm-256color", 2));
	ck_assert(!config_want_ascii(0, &c, "UTF-8", "xterm-256color", 2));
	c.ascii = 1;
	ck_assert(config_want_ascii(-1, &c, "UTF-8", "xterm", 0));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("theme");
	TCase *tc = tcase_create("theme");
	tcase_add_test(tc, test_theme_good);
	tcase_add_test(tc, test_theme_pick);
	tcase_add_test(tc, test_theme_contrast);
	tcase_add_loop_test(tc, test_theme_bad, 0, (int)(sizeof bad_themes / sizeof bad_themes[0]));
	tcase_add_test(tc, test_theme_binary_garbage);
	tcase_add_test(tc, test_shipped_themes);
	tcase_add_test(tc, test_config_good);
	tcase_add_test(tc, test_config_bad);
	tcase_add_test(tc, test_config_file);
	tcase_add_test(tc, test_precedence);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
