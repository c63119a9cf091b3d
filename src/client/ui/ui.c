/*
 * Curses start-up and shutdown, colour pairs allocated on demand from the
 * theme, and key translation.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcurses.h"

#include "../keys.h"
#include "ui.h"

/* Home and End have several encodings (xterm's, the VT220 ones tmux,
 * screen and rxvt send, the Linux console's); a terminal description may
 * know only one of them, and an unknown sequence would read as Esc. */
static void ui_define_keys(void)
{
	static const struct {
		const char *seq;
		int code;
	} extra[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME }, { "\033OH", KEY_HOME },
		{ "\033[4~", KEY_END },  { "\033[8~", KEY_END },  { "\033[F", KEY_END },  { "\033OF", KEY_END },
	};
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].code);
}

int ui_start(struct ui *ui, const struct theme *t, char *err, size_t errsize)
{
	memset(ui, 0, sizeof *ui);
	ui->theme = *t;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errsize, "standard input and output must be a terminal");
		return -1;
	}
	/* Arrow keys arrive as escape sequences; wait only briefly to tell
	 * them from a lone Esc. */
	set_escdelay(25);
	/* Before curses owns the terminal: the chess glyphs' width, where
	 * the locale would draw them (config_want_ascii reads it). */
	const char *cs = nl_langinfo(CODESET);
	if (cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8")) && !getenv("TCHESS_NO_PROBE"))
		ui->glyph_cols = ui_probe_glyph_cols(STDIN_FILENO, STDOUT_FILENO, UI_PROBE_TIMEOUT_MS);
	/* newterm, unlike initscr, reports failure instead of exiting. */
	ui->screen = newterm(NULL, stdout, stdin);
	if (!ui->screen) {
		const char *term = getenv("TERM");
		snprintf(err, errsize, "cannot start curses on TERM=%s", term ? term : "");
		return -1;
	}
	ui->started = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* Colour is started whatever the theme, so that the settings
	 * screen can switch to a coloured one. */
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		ui->term_colors = COLORS;
	}
	ui_set_theme(ui, &ui->theme);
	ui->npairs = 1;
	ui_define_keys();
	/* The first refresh of stdscr clears the terminal; do it now, so the
	 * first key read (which refreshes stdscr) does not wipe the panes. */
	refresh();
	return 0;
}

void ui_set_theme(struct ui *ui, const struct theme *t)
{
	ui->theme = *t;
	if (ui->theme.use_color && ui->term_colors > 0) {
		ui->ncolors = ui->term_colors;
	} else {
		/* No colour to be had: the monochrome look, with markers. */
		if (ui->theme.use_color)
			theme_init_monochrome(&ui->theme);
		ui->ncolors = 0;
	}
	/* The colour pairs are made again on demand for the new colours. */
	ui->npairs = 1;
}

void ui_stop(struct ui *ui)
{
	if (!ui->started)
		return;
	ui->started = false;
	curs_set(1);
	endwin();
	delscreen(ui->screen);
	ui->screen = NULL;
}

/* A direct-colour (truecolour) terminal takes colours as 0xRRGGBB past
 * the first eight: a theme's palette number is sent as its RGB
 * (theme_rgb), which the contrast check measured. */
static int ui_direct(int c)
{
	if (c < 8)
		return c;
	unsigned char rgb[3];
	theme_rgb(c, rgb);
	return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
}

static int ui_pair(struct ui *ui, int fg, int bg)
{
	for (int i = 1; i < ui->npairs; i++)
		if (ui->pair_fg[i] == fg && ui->pair_bg[i] == bg)
			return i;
	if (ui->npairs >= UI_PAIRS_MAX || ui->npairs >= COLOR_PAIRS)
		return 0;
	int n = ui->npairs++;
	if (ui->ncolors > 256)
		init_extended_pair(n, fg < 0 ? fg : ui_direct(fg), bg < 0 ? bg : ui_direct(bg));
	else
		init_pair((short)n, (short)fg, (short)bg);
	ui->pair_fg[n] = fg;
	ui->pair_bg[n] = bg;
	return n;
}

int ui_attr(struct ui *ui, int fg_slot, int bg_slot)
{
	if (ui->ncolors == 0)
		return A_NORMAL;
	/* Past 256 colours the 256-colour choice, sent as its RGB. */
	int n = ui->ncolors > 256 ? 256 : ui->ncolors;
	int fg = fg_slot < 0 ? -1 : theme_pick(&ui->theme.color[fg_slot], n);
	int bg = bg_slot < 0 ? -1 : theme_pick(&ui->theme.color[bg_slot], n);
	return (int)COLOR_PAIR(ui_pair(ui, fg, bg));
}

/* The keys.h code of what wget_wch() read, or KEYS_NONE for a key tchess
 * has no use for. */
static int ui_translate(int rc, wint_t ch)
{
	if (rc == KEY_CODE_YES) {
		switch (ch) {
		case KEY_UP: return KEYS_UP;
		case KEY_DOWN: return KEYS_DOWN;
		case KEY_LEFT: return KEYS_LEFT;
		case KEY_RIGHT: return KEYS_RIGHT;
		case KEY_HOME: return KEYS_HOME;
		case KEY_END: return KEYS_END;
		case KEY_PPAGE: return KEYS_PGUP;
		case KEY_NPAGE: return KEYS_PGDN;
		case KEY_RESIZE: return KEYS_RESIZE;
		case KEY_MOUSE: return KEYS_MOUSE;
		case KEY_BACKSPACE: return KEYS_BACKSPACE;
		case KEY_ENTER: return KEYS_ENTER;
		default: return KEYS_NONE;
		}
	}
	if (ch == '\r')
		return KEYS_ENTER;
	if (ch == 8)
		return KEYS_BACKSPACE;
	return (int)ch;
}

int ui_poll_key(void)
{
	for (;;) {
		wint_t ch;
		int rc = wget_wch(stdscr, &ch);
		if (rc == ERR)
			return KEYS_NONE;
		int key = ui_translate(rc, ch);
		if (key != KEYS_NONE)
			return key;
	}
}

void ui_size(int *w, int *h)
{
	*w = COLS;
	*h = LINES;
}

void ui_input_start(void)
{
	nodelay(stdscr, TRUE);
	mouseinterval(0);
}

void ui_mouse(const struct ui *ui, bool on)
{
	mousemask(on && !ui->mouse_off ? BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED : 0, NULL);
}

bool ui_mouse_click(int *x, int *y)
{
	MEVENT ev;
	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return false;
	*x = ev.x;
	*y = ev.y;
	return true;
}

void ui_flush(void)
{
	doupdate();
}

void ui_beep(void)
{
	beep();
}

void ui_flash(void)
{
	flash();
}

void ui_clear(void)
{
	erase();
	wnoutrefresh(stdscr);
}
