/*
 * The user's configuration file, $XDG_CONFIG_HOME/tchess/config (or
 * ~/.config/tchess/config): "key = value" lines, '#' comments.
 *
 *	theme = high-contrast      # a theme name or a path to a .theme file
 *	ascii = no                 # yes: letters instead of chess glyphs
 *	server = http://host:port  # for the network commands
 *	bell = yes                 # ring once when my clock goes under low time
 *	move_alert = bell          # the opponent moved: off (default), bell, flash
 *	pieces = outline           # the glyphs, over the theme's: solid or outline
 *	low_time_ms = 30000        # the low-time threshold (0: no warning)
 *	lichess_url = https://lichess.org  # where tchess lichess plays
 *	engine = /usr/games/stockfish      # review's UCI engine (--engine)
 *	engine_depth = 16          # review's search depth, 1..60 (--depth)
 *	engine_start_timeout = 10  # seconds review's engine has to start, 1..600
 *	mouse = off                # no mouse reports (on by default)
 *	seek_tc = 10+5             # the home screen's seek and invite form,
 *	seek_ruleset = yourpot     #   saved there when a game is made:
 *	seek_color = white         #   white, black or random
 *	seek_premoves = 3          #   the premove queue, 1..8
 *
 * Command-line options override the file.
 */
#ifndef TCHESS_CLIENT_CONFIG_H
#define TCHESS_CLIENT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* The premove queue of a game this client creates (tchess play without
 * --premoves, the home screen): a casual game lets a player queue
 * several. */
#define CONFIG_PREMOVES_DEFAULT 3

enum config_alert { CONFIG_ALERT_OFF = 0, CONFIG_ALERT_BELL, CONFIG_ALERT_FLASH };

struct config {
	char theme[256];   /* "" when not set */
	int ascii;         /* -1 not set, 0 no, 1 yes */
	char server[256];  /* "" when not set */
	bool bell;
	enum config_alert move_alert; /* the opponent's move: CONFIG_ALERT_OFF unless set */
	int pieces;        /* -1 the theme's, 0 outline, 1 solid glyphs */
	long long low_time_ms; /* -1 not set: a tenth of the base time, 10 s to 60 s */
	char lichess_url[256]; /* "" when not set: CONFIG_LICHESS_URL */
	char engine[256];      /* review's engine; "" when not set */
	int engine_depth;      /* review's depth; 0 when not set */
	int engine_start_s;    /* review's engine start deadline; 0 when not set */
	bool mouse_off;        /* mouse = off */
	/* The seek and invite form's last values ("" / -2 / 0 when not set;
	 * seek_color -1 random, else the colour). */
	char seek_tc[16];
	char seek_ruleset[16];
	int seek_color;
	int seek_premoves;
};

/* Where tchess lichess plays unless lichess_url says otherwise (the tests
 * point it at their scripted Lichess on loopback). */
#define CONFIG_LICHESS_URL "https://lichess.org"


/* Sets every field to "not set". */
void config_init(struct config *c);

/* Parses config text (len bytes) over c. Returns 0, or -1 with a message
 * such as "line 2: unknown key 'colour'" in err (errsize bytes); c is left
 * unchanged on error. */
int config_parse(struct config *c, const char *text, size_t len, char *err, size_t errsize);

/* The path of the config file into buf (size bytes). Returns 0, or -1 when
 * neither XDG_CONFIG_HOME nor HOME is set. */
int config_path(char *buf, size_t size);

/* Reads the config file over c. A missing file is no error. Returns 0, or
 * -1 with a message naming the file and line in err. */
int config_load(struct config *c, char *err, size_t errsize);

/* Sets key to value in the config file at path (made, with its folders,
 * when missing): the key's line replaced where it is, other lines and
 * comments kept, else the line added at the end. The new text must parse
 * (config_parse), or nothing is written. Written to a temporary file and
 * renamed over the old one. Returns 0, or -1 with why in err. */
int config_set(const char *path, const char *key, const char *value, char *err, size_t errsize);

/* The config file's pieces over theme t's (solid or outline glyphs). */
struct theme;
void config_apply_theme(const struct config *c, struct theme *t);

/* Whether to draw letters instead of chess glyphs: the command line's
 * choice (-1 none, 0 no, 1 yes), else the config file's, else yes when the
 * locale's character set (codeset) is not UTF-8, the terminal is the
 * Linux console (whose fonts lack the glyphs), or the terminal gave a
 * chess glyph glyph_cols > 1 columns at start (ui_probe_glyph_cols; 0
 * when not measured). */
bool config_want_ascii(int cli, const struct config *c, const char *codeset, const char *term, int glyph_cols);

/* The theme to load: the command line's (NULL for none), else
 * "monochrome" when no_color (the NO_COLOR variable) is set and not empty,
 * else the config file's, else "default". */
/* The Lichess base URL: the config file's lichess_url without a trailing
 * '/', else CONFIG_LICHESS_URL. */
const char *config_lichess_url(const struct config *c);

const char *config_theme_name(const char *cli, const struct config *c, const char *no_color);

#endif
