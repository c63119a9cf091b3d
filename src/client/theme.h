/*
 * Themes: the colours of the board and the panes, read from small
 * "key = value" files (the .theme files in themes/, documented in tchess(1) and in
 * themes/default.theme itself).
 *
 * A colour value lists one or more colours, best first:
 *
 *	dark_square = 94 red
 *
 * Each is a name (default, black, red, green, yellow, blue, magenta, cyan,
 * white, or bright-NAME for 8-15) or a number 0-255. The screen uses the
 * first one the terminal can show, so one theme serves 256-colour and
 * 8-colour terminals alike. This file knows nothing of curses: it parses
 * and picks numbers; ui/ turns them into colour pairs.
 */
#ifndef TCHESS_CLIENT_THEME_H
#define TCHESS_CLIENT_THEME_H

#include <stdbool.h>
#include <stddef.h>

#define THEME_X(X)                                                     \
	X(THEME_LIGHT_SQUARE, "light_square")                          \
	X(THEME_DARK_SQUARE, "dark_square")                            \
	X(THEME_WHITE_PIECE, "white_piece")                            \
	X(THEME_BLACK_PIECE, "black_piece")                            \
	X(THEME_COORDINATES, "coordinates")                            \
	X(THEME_LAST_MOVE, "last_move")                                \
	X(THEME_CHECK, "check")                                        \
	X(THEME_CURSOR, "cursor")                                      \
	X(THEME_SELECTED, "selected")                                  \
	X(THEME_PREMOVE, "premove")                                    \
	X(THEME_LEGAL, "legal")                                        \
	X(THEME_TEXT, "text")                                          \
	X(THEME_HEADING, "heading")                                    \
	X(THEME_COMMENT, "comment")                                    \
	X(THEME_CURRENT_MOVE_FG, "current_move_fg")                    \
	X(THEME_CURRENT_MOVE_BG, "current_move_bg")                    \
	X(THEME_STATUS_FG, "status_fg")                                \
	X(THEME_STATUS_BG, "status_bg")                                \
	X(THEME_CLOCK_LOW, "clock_low")

enum theme_slot {
#define THEME_ENUM(slot, key) slot,
	THEME_X(THEME_ENUM)
#undef THEME_ENUM
	THEME_SLOT_NB
};

#define THEME_DEFAULT_COLOR (-1)   /* the terminal's own foreground/background */
#define THEME_CHOICES_MAX 4

struct theme_color {
	short choice[THEME_CHOICES_MAX];
	int n;
};

struct theme {
	char name[64];
	struct theme_color color[THEME_SLOT_NB];
	bool use_color;      /* "colors = no": attributes and text markers only */
	bool markers;        /* mark highlights with characters too, not only colour */
	bool solid_pieces;   /* filled glyphs for both sides (needs colour to tell them apart) */
};

/* The built-in default theme (the same as themes/default.theme), so the
 * client works with no theme files installed. */
void theme_init_default(struct theme *t);
/* The built-in monochrome theme: no colour, reverse-video dark squares
 * and text markers. NO_COLOR and colourless terminals get it. */
void theme_init_monochrome(struct theme *t);

/* Parses theme text (len bytes) over t, which should be initialised (keys
 * the text leaves out keep their values). Returns 0, or -1 with a message
 * such as "line 3: unknown key 'ligth_square'" in err (errsize bytes). */
int theme_parse(struct theme *t, const char *text, size_t len, char *err, size_t errsize);

/* Parses one colour list ("94 red") into c. Returns 0 or -1 with a message. */
int theme_parse_color(const char *text, struct theme_color *c, char *err, size_t errsize);

/* The colour of c to use on a terminal with ncolors colours: the first
 * choice below ncolors, else the last choice folded into 0-7 (bright
 * colours lose their brightness, others become THEME_DEFAULT_COLOR). */
int theme_pick(const struct theme_color *c, int ncolors);

/* The sRGB colour a terminal shows for palette colour n (0-255) with
 * xterm's default palette (the 16 system colours, the 6x6x6 cube, the
 * 24 greys): what the contrast check measures, and what a direct-colour
 * (truecolour) terminal is sent for n. */
void theme_rgb(int n, unsigned char rgb[3]);
/* The WCAG 2 contrast ratio of two sRGB colours: 1 (the same luminance)
 * to 21 (black on white). */
double theme_contrast(const unsigned char a[3], const unsigned char b[3]);

/* The floor every shipped theme keeps on its board: 3:1, WCAG 2.1's
 * minimum for graphical objects (success criterion 1.4.11). A solid
 * glyph is a shape with no outline, so its colour alone must stand off
 * the square, and a highlight is a square colour like any other. */
#define THEME_BOARD_CONTRAST_MIN 3.0

/* One colour drawn on another on the board: the foreground and
 * background slots and their contrast. */
struct theme_pair {
	int fg, bg;
	double contrast;
};
#define THEME_BOARD_PAIRS 19

/* Every pair t's board draws, as on a terminal of ncolors colours (8,
 * 16, 256, or more: direct colour, theme_rgb of the 256-colour choice):
 * either side's piece on the light and dark squares and on every
 * highlight (last_move, check, cursor, selected, premove), and the
 * legal-move dot on the squares an empty destination can have (light,
 * dark, last_move, cursor, premove). White pieces are counted without
 * the brightening bold gives on some terminals. A contrast is 1.0 where a
 * colour is the terminal's default (it cannot be known), and for a theme
 * without colour. Returns the number of pairs (THEME_BOARD_PAIRS). */
int theme_board_pairs(const struct theme *t, int ncolors, struct theme_pair pairs[THEME_BOARD_PAIRS]);

/* The lowest contrast of theme_board_pairs, with that pair's slots in
 * *fg and *bg. */
double theme_board_contrast(const struct theme *t, int ncolors, int *fg, int *bg);

/* The theme file key of slot ("light_square"), or "?". */
const char *theme_slot_key(int slot);

/* Finds the theme file for name into path (size bytes). A name containing
 * '/' or ending in ".theme" is a path and is used as is; otherwise
 * NAME.theme is searched in $TCHESS_THEME_DIR, $XDG_DATA_HOME/tchess/themes
 * (or ~/.local/share/tchess/themes), the install directory and the source
 * tree. Returns 0 if a readable file was found, else -1. */
int theme_find(const char *name, char *path, size_t size);

/* Loads theme name (see theme_find) over the built-in default. The
 * built-in themes "default" and "monochrome" need no file. Returns 0 or
 * -1 with a message naming the file and line in err. */
int theme_load(struct theme *t, const char *name, char *err, size_t errsize);

#endif
