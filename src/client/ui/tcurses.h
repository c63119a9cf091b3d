/*
 * The one way ui/ includes curses. Curses declares a function named
 * move(), and libtchess a type named move; renaming the curses one while
 * its header is read lets both live in one file. NCURSES_NOMACROS keeps
 * curses from defining move() again as a macro (the functions behind its
 * other macros exist, so nothing is lost).
 */
#ifndef TCHESS_CLIENT_UI_TCURSES_H
#define TCHESS_CLIENT_UI_TCURSES_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_NOMACROS 1
#define move curses_move
#include <curses.h>
#undef move

#endif
