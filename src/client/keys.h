/*
 * Keys as the screens' key handlers see them: printable characters as
 * themselves, everything else as one of the KEYS_* codes below. The curses
 * layer (ui/input.c) translates its own codes into these, so the key
 * handlers and their tests never include curses.
 */
#ifndef TCHESS_CLIENT_KEYS_H
#define TCHESS_CLIENT_KEYS_H

enum keys_code {
	KEYS_NONE = -1,
	KEYS_ESC = 27,
	KEYS_ENTER = '\n',
	KEYS_TAB = '\t',
	KEYS_BACKSPACE = 127,
	KEYS_CTRL_L = 12,
	/* Above the Unicode range, so they never clash with a character. */
	KEYS_UP = 0x110000,
	KEYS_DOWN,
	KEYS_LEFT,
	KEYS_RIGHT,
	KEYS_HOME,
	KEYS_END,
	KEYS_PGUP,
	KEYS_PGDN,
	KEYS_RESIZE,
	KEYS_MOUSE
};

#endif
