/*
 * The settings screen's model (settings.h): rows of choices, each cycled
 * with the arrows or Enter and written to the config file at once.
 */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "settings.h"

/* The shipped themes, offered in this order (and the one in use, if it
 * is another). */
static const char *const settings_shipped[] = { "default", "high-contrast", "256", "monochrome" };

static const char *const settings_pieces_text[SETTINGS_PIECES_NB] = {
	[SETTINGS_SOLID] = "solid glyphs",
	[SETTINGS_OUTLINE] = "outline glyphs",
	[SETTINGS_LETTERS] = "letters",
};

static const char *const settings_alert_text[] = {
	[CONFIG_ALERT_OFF] = "off",
	[CONFIG_ALERT_BELL] = "bell",
	[CONFIG_ALERT_FLASH] = "flash",
};

void settings_init(struct settings *st, const struct config *c, const char *theme_name, bool solid, bool ascii,
		   const char *path)
{
	memset(st, 0, sizeof *st);
	for (size_t i = 0; i < sizeof settings_shipped / sizeof settings_shipped[0]; i++)
		snprintf(st->themes[st->n_themes++], sizeof st->themes[0], "%s", settings_shipped[i]);
	st->theme = -1;
	for (int i = 0; i < st->n_themes; i++)
		if (!strcmp(st->themes[i], theme_name))
			st->theme = i;
	if (st->theme < 0) {
		snprintf(st->themes[st->n_themes], sizeof st->themes[0], "%s", theme_name);
		st->theme = st->n_themes++;
	}
	st->pieces = ascii ? SETTINGS_LETTERS : solid ? SETTINGS_SOLID : SETTINGS_OUTLINE;
	st->move_alert = (int)c->move_alert;
	st->bell = c->bell;
	snprintf(st->path, sizeof st->path, "%s", path);
	snprintf(st->message, sizeof st->message, "changes are saved to %s at once", path);
}

const char *settings_theme_name(const struct settings *st)
{
	return st->themes[st->theme];
}

void settings_row_text(const struct settings *st, int row, char *buf, size_t size)
{
	switch ((enum settings_row)row) {
	case SETTINGS_THEME:
		snprintf(buf, size, "  Theme                < %s >", st->themes[st->theme]);
		break;
	case SETTINGS_PIECES:
		snprintf(buf, size, "  Pieces               < %s >", settings_pieces_text[st->pieces]);
		break;
	case SETTINGS_MOVE_ALERT:
		snprintf(buf, size, "  Opponent's move      < %s >", settings_alert_text[st->move_alert]);
		break;
	case SETTINGS_BELL:
		snprintf(buf, size, "  Low-time bell        < %s >", st->bell ? "on" : "off");
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

struct settings_cmd settings_key(const struct settings *st, int key)
{
	(void)st;
	switch (key) {
	case KEYS_UP:
	case 'k':
		return (struct settings_cmd){ SETTINGS_CMD_MOVE, -1 };
	case KEYS_DOWN:
	case 'j':
		return (struct settings_cmd){ SETTINGS_CMD_MOVE, 1 };
	case KEYS_RIGHT:
	case KEYS_ENTER:
	case ' ':
	case 'l':
		return (struct settings_cmd){ SETTINGS_CMD_CHANGE, 1 };
	case KEYS_LEFT:
	case 'h':
		return (struct settings_cmd){ SETTINGS_CMD_CHANGE, -1 };
	case 'q':
	case KEYS_ESC:
		return (struct settings_cmd){ SETTINGS_CMD_QUIT, 0 };
	default:
		return (struct settings_cmd){ SETTINGS_CMD_NONE, 0 };
	}
}

/* i + d within 0..n-1, going round. */
static int settings_cycle(int i, int d, int n)
{
	return ((i + d) % n + n) % n;
}

/* Writes key = value; says so, or why not. Returns 0 or -1. */
static int settings_write(struct settings *st, const char *key, const char *value)
{
	char err[300];
	if (config_set(st->path, key, value, err, sizeof err) < 0) {
		snprintf(st->message, sizeof st->message, "not saved: %s", err);
		st->message_error = true;
		return -1;
	}
	snprintf(st->message, sizeof st->message, "saved: %s = %s", key, value);
	st->message_error = false;
	return 0;
}

static void settings_change(struct settings *st, int d)
{
	switch ((enum settings_row)st->sel) {
	case SETTINGS_THEME: {
		int t = settings_cycle(st->theme, d, st->n_themes);
		if (settings_write(st, "theme", st->themes[t]) == 0) {
			st->theme = t;
			st->changed = SETTINGS_CHANGED_THEME;
		}
		break;
	}
	case SETTINGS_PIECES: {
		int p = settings_cycle(st->pieces, d, SETTINGS_PIECES_NB);
		/* Letters are ascii = yes; the glyphs are ascii = no and their
		 * pieces. */
		int rc = settings_write(st, "ascii", p == SETTINGS_LETTERS ? "yes" : "no");
		if (rc == 0 && p != SETTINGS_LETTERS)
			rc = settings_write(st, "pieces", p == SETTINGS_SOLID ? "solid" : "outline");
		if (rc == 0) {
			st->pieces = p;
			st->changed = SETTINGS_CHANGED_THEME | SETTINGS_CHANGED_PLAY;
		}
		break;
	}
	case SETTINGS_MOVE_ALERT: {
		int a = settings_cycle(st->move_alert, d, 3);
		if (settings_write(st, "move_alert", settings_alert_text[a]) == 0) {
			st->move_alert = a;
			st->changed = SETTINGS_CHANGED_PLAY;
		}
		break;
	}
	case SETTINGS_BELL:
		if (settings_write(st, "bell", st->bell ? "no" : "yes") == 0) {
			st->bell = !st->bell;
			st->changed = SETTINGS_CHANGED_PLAY;
		}
		break;
	default:
		break;
	}
}

void settings_apply(struct settings *st, const struct settings_cmd *c)
{
	st->changed = 0;
	switch (c->kind) {
	case SETTINGS_CMD_MOVE:
		st->sel = settings_cycle(st->sel, c->arg, SETTINGS_ROW_NB);
		break;
	case SETTINGS_CMD_CHANGE:
		settings_change(st, c->arg);
		break;
	case SETTINGS_CMD_QUIT:
		st->quit = true;
		break;
	default:
		break;
	}
}
