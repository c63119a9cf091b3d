/*
 * Theme files: parsing "key = value" lines into colour choices, picking
 * the colour a terminal can show, and finding theme files on disk. No
 * curses here, so the parser is tested without a terminal.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyvalue.h"
#include "theme.h"

#ifndef TCHESS_THEMES_DIR
#define TCHESS_THEMES_DIR "/usr/local/share/tchess/themes"
#endif
#ifndef TCHESS_SOURCE_THEMES_DIR
#define TCHESS_SOURCE_THEMES_DIR ""
#endif

#define THEME_FILE_MAX (64 * 1024)

static const char *const theme_keys[THEME_SLOT_NB] = {
#define THEME_KEY(slot, key) key,
	THEME_X(THEME_KEY)
#undef THEME_KEY
};

static const char *const theme_color_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* Three choices: 256 colours, 16, 8. */
static void theme_set3(struct theme *t, enum theme_slot slot, short c256, short c16, short c8)
{
	t->color[slot].choice[0] = c256;
	t->color[slot].choice[1] = c16;
	t->color[slot].choice[2] = c8;
	t->color[slot].n = 3;
}

static void theme_set(struct theme *t, enum theme_slot slot, short best, short fallback)
{
	t->color[slot].choice[0] = best;
	t->color[slot].choice[1] = fallback;
	t->color[slot].n = best == fallback ? 1 : 2;
}

void theme_init_default(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default");
	t->use_color = true;
	t->markers = false;
	/* Solid glyphs coloured by side: an outline glyph in white on a
	 * light square is a thin line that barely shows. */
	t->solid_pieces = true;
	/* Mid-tone squares and highlights, so both white and black pieces
	 * keep 3:1 against each (THEME_BOARD_CONTRAST_MIN, the client's
	 * theme test). The second number is the 16-colour choice, where
	 * White is bright white; the last the 8-colour one, where only
	 * magenta and red are mid-tones (yellow under white pieces was
	 * 1.35:1), so highlights there are those two and the board adds
	 * markers (ui/board.c). */
	theme_set(t, THEME_LIGHT_SQUARE, 137, 5);
	theme_set(t, THEME_DARK_SQUARE, 94, 1);
	theme_set3(t, THEME_WHITE_PIECE, 231, 15, 7);
	theme_set(t, THEME_BLACK_PIECE, 16, 0);
	theme_set(t, THEME_COORDINATES, 244, THEME_DEFAULT_COLOR);
	theme_set3(t, THEME_LAST_MOVE, 100, 8, 5);
	theme_set3(t, THEME_CHECK, 167, 9, 1);
	theme_set3(t, THEME_CURSOR, 32, 12, 5);
	theme_set3(t, THEME_SELECTED, 29, 13, 1);
	theme_set3(t, THEME_PREMOVE, 97, 13, 5);
	/* The dot on an empty destination: black keeps 3:1 on every
	 * mid-tone it can sit on. */
	theme_set(t, THEME_LEGAL, 16, 0);
	theme_set(t, THEME_TEXT, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR);
	theme_set(t, THEME_HEADING, 110, 6);
	theme_set(t, THEME_COMMENT, 150, 2);
	theme_set(t, THEME_CURRENT_MOVE_FG, 16, 0);
	theme_set(t, THEME_CURRENT_MOVE_BG, 180, 3);
	theme_set(t, THEME_STATUS_FG, 252, 7);
	theme_set(t, THEME_STATUS_BG, 238, 4);
	theme_set(t, THEME_CLOCK_LOW, 203, 1);
}

void theme_init_monochrome(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "monochrome");
	t->use_color = false;
	t->markers = true;
	t->solid_pieces = false;
	for (int i = 0; i < THEME_SLOT_NB; i++)
		theme_set(t, (enum theme_slot)i, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR);
}

static int theme_error(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int theme_error(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;
	if (err && errsize) {
		va_start(ap, fmt);
		vsnprintf(err, errsize, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* One colour word: a name, bright-NAME, default, or a number 0-255. */
static int theme_parse_word(const char *w, short *out)
{
	if (!strcmp(w, "default")) {
		*out = THEME_DEFAULT_COLOR;
		return 0;
	}
	if (isdigit((unsigned char)w[0])) {
		char *end;
		errno = 0;
		long v = strtol(w, &end, 10);
		if (errno || *end || v > 255)
			return -1;
		*out = (short)v;
		return 0;
	}
	int bright = 0;
	if (!strncmp(w, "bright-", 7)) {
		bright = 8;
		w += 7;
	}
	for (int i = 0; i < 8; i++)
		if (!strcmp(w, theme_color_names[i])) {
			*out = (short)(i + bright);
			return 0;
		}
	return -1;
}

int theme_parse_color(const char *text, struct theme_color *c, char *err, size_t errsize)
{
	struct theme_color tmp = { .n = 0 };
	const char *s = text;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		char word[32];
		size_t n = strcspn(s, " \t");
		if (n >= sizeof word) {
			return theme_error(err, errsize, "'%.20s...' is not a colour", s);
		}
		memcpy(word, s, n);
		word[n] = '\0';
		s += n;
		if (tmp.n == THEME_CHOICES_MAX)
			return theme_error(err, errsize, "more than %d colours in '%s'", THEME_CHOICES_MAX, text);
		if (theme_parse_word(word, &tmp.choice[tmp.n]) < 0)
			return theme_error(err, errsize,
					   "'%s' is not a colour (a name such as red or bright-blue, "
					   "a number 0-255, or default)",
					   word);
		tmp.n++;
	}
	if (tmp.n == 0)
		return theme_error(err, errsize, "no colour given");
	*c = tmp;
	return 0;
}

void theme_rgb(int n, unsigned char rgb[3])
{
	/* xterm's system colours (its default resources). */
	static const unsigned char sys[16][3] = {
		{ 0, 0, 0 },     { 205, 0, 0 },     { 0, 205, 0 },   { 205, 205, 0 },
		{ 0, 0, 238 },   { 205, 0, 205 },   { 0, 205, 205 }, { 229, 229, 229 },
		{ 127, 127, 127 }, { 255, 0, 0 },   { 0, 255, 0 },   { 255, 255, 0 },
		{ 92, 92, 255 }, { 255, 0, 255 },   { 0, 255, 255 }, { 255, 255, 255 },
	};
	static const unsigned char cube[6] = { 0, 95, 135, 175, 215, 255 };
	if (n < 0 || n > 255)
		n = 0;
	if (n < 16) {
		memcpy(rgb, sys[n], 3);
	} else if (n < 232) {
		rgb[0] = cube[(n - 16) / 36];
		rgb[1] = cube[(n - 16) / 6 % 6];
		rgb[2] = cube[(n - 16) % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = (unsigned char)(8 + 10 * (n - 232));
	}
}

/* WCAG 2's relative luminance of an sRGB colour. */
static double theme_luminance(const unsigned char c[3])
{
	static const double weight[3] = { 0.2126, 0.7152, 0.0722 };
	double l = 0;
	for (int i = 0; i < 3; i++) {
		double v = c[i] / 255.0;
		v = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
		l += weight[i] * v;
	}
	return l;
}

double theme_contrast(const unsigned char a[3], const unsigned char b[3])
{
	double la = theme_luminance(a), lb = theme_luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

const char *theme_slot_key(int slot)
{
	return slot >= 0 && slot < THEME_SLOT_NB ? theme_keys[slot] : "?";
}

/* The contrast of slot fg drawn on slot bg at n (at most 256) colours:
 * 1.0 where either is the terminal's default colour. */
static double theme_pair_contrast(const struct theme *t, int n, int fg_slot, int bg_slot)
{
	int fg = theme_pick(&t->color[fg_slot], n), bg = theme_pick(&t->color[bg_slot], n);
	if (fg == THEME_DEFAULT_COLOR || bg == THEME_DEFAULT_COLOR)
		return 1.0;
	unsigned char a[3], b[3];
	theme_rgb(fg, a);
	theme_rgb(bg, b);
	return theme_contrast(a, b);
}

int theme_board_pairs(const struct theme *t, int ncolors, struct theme_pair pairs[THEME_BOARD_PAIRS])
{
	/* What ui/board.c draws on what: either side's piece on a plain
	 * square and on every highlight (ui_board_square_bg), and the
	 * legal-move dot on the squares an empty destination can have (a
	 * selected square holds the piece, a checked one the king). */
	static const int piece_bg[] = { THEME_LIGHT_SQUARE, THEME_DARK_SQUARE, THEME_LAST_MOVE, THEME_CHECK,
					THEME_CURSOR,       THEME_SELECTED,    THEME_PREMOVE };
	static const int dot_bg[] = { THEME_LIGHT_SQUARE, THEME_DARK_SQUARE, THEME_LAST_MOVE, THEME_CURSOR,
				      THEME_PREMOVE };
	struct {
		int fg;
		const int *bg;
		size_t nbg;
	} const draws[] = {
		{ THEME_WHITE_PIECE, piece_bg, sizeof piece_bg / sizeof piece_bg[0] },
		{ THEME_BLACK_PIECE, piece_bg, sizeof piece_bg / sizeof piece_bg[0] },
		{ THEME_LEGAL, dot_bg, sizeof dot_bg / sizeof dot_bg[0] },
	};
	/* A direct-colour terminal is sent the 256-colour choice's RGB. */
	int n = ncolors > 256 ? 256 : ncolors, np = 0;
	for (size_t i = 0; i < sizeof draws / sizeof draws[0]; i++) {
		for (size_t k = 0; k < draws[i].nbg; k++) {
			assert(np < THEME_BOARD_PAIRS);
			pairs[np].fg = draws[i].fg;
			pairs[np].bg = draws[i].bg[k];
			pairs[np].contrast = t->use_color ? theme_pair_contrast(t, n, draws[i].fg, draws[i].bg[k]) : 1.0;
			np++;
		}
	}
	return np;
}

double theme_board_contrast(const struct theme *t, int ncolors, int *fg, int *bg)
{
	struct theme_pair pairs[THEME_BOARD_PAIRS];
	int np = theme_board_pairs(t, ncolors, pairs), worst = 0;
	for (int i = 1; i < np; i++)
		if (pairs[i].contrast < pairs[worst].contrast)
			worst = i;
	*fg = pairs[worst].fg;
	*bg = pairs[worst].bg;
	return pairs[worst].contrast;
}

int theme_pick(const struct theme_color *c, int ncolors)
{
	for (int i = 0; i < c->n; i++)
		if (c->choice[i] < ncolors)
			return c->choice[i];
	if (c->n == 0)
		return THEME_DEFAULT_COLOR;
	int last = c->choice[c->n - 1];
	if (last >= 8 && last < 16 && ncolors >= 8)
		return last - 8;
	return THEME_DEFAULT_COLOR;
}

int theme_parse(struct theme *t, const char *text, size_t len, char *err, size_t errsize)
{
	struct theme tmp = *t;
	struct keyvalue_reader r;
	char buf[256], why[200], *key, *value;
	int rc;

	keyvalue_init(&r, text, len, buf, sizeof buf, false);
	while ((rc = keyvalue_next(&r, &key, &value, err, errsize)) > 0) {
		int line = r.line;
		if (*value == '\0') {
			snprintf(err, errsize, "line %d: '%.60s' has no value", line, key);
			return -1;
		}

		bool *flag = NULL;
		if (!strcmp(key, "name")) {
			snprintf(tmp.name, sizeof tmp.name, "%s", value);
			continue;
		} else if (!strcmp(key, "colors")) {
			flag = &tmp.use_color;
		} else if (!strcmp(key, "markers")) {
			flag = &tmp.markers;
		} else if (!strcmp(key, "pieces")) {
			if (!strcmp(value, "solid")) {
				tmp.solid_pieces = true;
			} else if (!strcmp(value, "outline")) {
				tmp.solid_pieces = false;
			} else {
				snprintf(err, errsize, "line %d: pieces is 'solid' or 'outline', not '%.60s'", line,
					 value);
				return -1;
			}
			continue;
		}
		if (flag) {
			if (keyvalue_bool(value, flag) < 0) {
				snprintf(err, errsize, "line %d: %s is 'yes' or 'no', not '%.60s'", line, key, value);
				return -1;
			}
			continue;
		}
		int slot = -1;
		for (int i = 0; i < THEME_SLOT_NB; i++)
			if (!strcmp(key, theme_keys[i]))
				slot = i;
		if (slot < 0) {
			snprintf(err, errsize, "line %d: unknown key '%.60s'", line, key);
			return -1;
		}
		if (theme_parse_color(value, &tmp.color[slot], why, sizeof why) < 0) {
			snprintf(err, errsize, "line %d: %s: %s", line, key, why);
			return -1;
		}
	}
	if (rc < 0)
		return -1;
	*t = tmp;
	return 0;
}

static int theme_readable(const char *path)
{
	return access(path, R_OK) == 0 ? 0 : -1;
}

int theme_find(const char *name, char *path, size_t size)
{
	size_t n = strlen(name);
	if (strchr(name, '/') || (n > 6 && !strcmp(name + n - 6, ".theme"))) {
		snprintf(path, size, "%s", name);
		return theme_readable(path);
	}
	if (n == 0 || name[0] == '.')
		return -1;

	const char *home = getenv("HOME");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *env = getenv("TCHESS_THEME_DIR");
	char dirs[4][512];
	int nd = 0;
	if (env && *env)
		snprintf(dirs[nd++], sizeof dirs[0], "%s", env);
	if (xdg && *xdg)
		snprintf(dirs[nd++], sizeof dirs[0], "%s/tchess/themes", xdg);
	else if (home && *home)
		snprintf(dirs[nd++], sizeof dirs[0], "%s/.local/share/tchess/themes", home);
	snprintf(dirs[nd++], sizeof dirs[0], "%s", TCHESS_THEMES_DIR);
	if (*TCHESS_SOURCE_THEMES_DIR)
		snprintf(dirs[nd++], sizeof dirs[0], "%s", TCHESS_SOURCE_THEMES_DIR);
	for (int i = 0; i < nd; i++) {
		int w = snprintf(path, size, "%s/%s.theme", dirs[i], name);
		if (w > 0 && (size_t)w < size && theme_readable(path) == 0)
			return 0;
	}
	return -1;
}

int theme_load(struct theme *t, const char *name, char *err, size_t errsize)
{
	char path[1024], why[256];
	struct theme tmp;

	theme_init_default(&tmp);
	if (theme_find(name, path, sizeof path) < 0) {
		if (!strcmp(name, "default") || !strcmp(name, "monochrome")) {
			if (!strcmp(name, "monochrome"))
				theme_init_monochrome(&tmp);
			*t = tmp;
			return 0;
		}
		snprintf(err, errsize, "theme '%s' not found (looked for %s.theme in $TCHESS_THEME_DIR, "
			 "$XDG_DATA_HOME/tchess/themes and %s)", name, name, TCHESS_THEMES_DIR);
		return -1;
	}
	size_t len;
	char *buf = keyvalue_read_file(path, THEME_FILE_MAX, &len, err, errsize);
	if (!buf)
		return -1;
	int rc = -1;
	/* A file that says "colors = no" starts from monochrome, so a
	 * colourless theme need not restate every slot. */
	struct theme probe;
	theme_init_default(&probe);
	if (theme_parse(&probe, buf, len, why, sizeof why) == 0 && !probe.use_color)
		theme_init_monochrome(&tmp);
	if (theme_parse(&tmp, buf, len, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s: %s", path, why);
		goto out;
	}
	*t = tmp;
	rc = 0;
out:
	free(buf);
	return rc;
}
