/*
 * The settings screen's model, opened from the home screen: the theme,
 * the pieces (solid glyphs, outline glyphs or letters), the alert on the
 * opponent's move and the low-time bell. Each change is written to the
 * config file at once (config_set), so the next tchess starts with it;
 * the screen applies it to the screens opened from now on. Free of
 * curses, like home.h: keys become commands in settings_key(), which
 * changes nothing; settings_apply() changes the model and the file.
 */
#ifndef TCHESS_CLIENT_SETTINGS_H
#define TCHESS_CLIENT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

enum settings_row { SETTINGS_THEME = 0, SETTINGS_PIECES, SETTINGS_MOVE_ALERT, SETTINGS_BELL, SETTINGS_ROW_NB };

enum settings_pieces { SETTINGS_SOLID = 0, SETTINGS_OUTLINE, SETTINGS_LETTERS, SETTINGS_PIECES_NB };

#define SETTINGS_THEMES_MAX 8
#define SETTINGS_MESSAGE_MAX 320

/* What changed with the last command, for the screen to apply. */
enum {
	SETTINGS_CHANGED_THEME = 1u << 0,  /* the theme or the pieces: reload and redraw */
	SETTINGS_CHANGED_PLAY = 1u << 1,   /* letters, the alert or the bell: for the games opened next */
};

struct settings {
	int sel;
	char themes[SETTINGS_THEMES_MAX][64];
	int n_themes, theme;
	int pieces;              /* enum settings_pieces */
	int move_alert;          /* enum config_alert */
	bool bell;
	char path[1024];         /* the config file */
	char message[SETTINGS_MESSAGE_MAX];
	bool message_error;
	bool quit;
	unsigned changed;        /* SETTINGS_CHANGED_* of the last command */
};

enum settings_cmd_kind { SETTINGS_CMD_NONE = 0, SETTINGS_CMD_MOVE, SETTINGS_CMD_CHANGE, SETTINGS_CMD_QUIT };

struct settings_cmd {
	enum settings_cmd_kind kind;
	int arg;                 /* MOVE: rows; CHANGE: +1 next value, -1 previous */
};

/* The settings as they stand: c (the config file's), the theme in use
 * (theme_name), whether its glyphs are solid, whether letters are drawn;
 * written to the config file at path. */
void settings_init(struct settings *st, const struct config *c, const char *theme_name, bool solid, bool ascii,
		   const char *path);

/* The label and the value of row, as the screen shows them. */
void settings_row_text(const struct settings *st, int row, char *buf, size_t size);
const char *settings_theme_name(const struct settings *st);

struct settings_cmd settings_key(const struct settings *st, int key);
/* Applies c: a change is written to the config file (said, or the error
 * said and the value left as it was). Sets st->changed. */
void settings_apply(struct settings *st, const struct settings_cmd *c);

#endif
