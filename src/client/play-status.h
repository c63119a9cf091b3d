/*
 * The play and watch screen's status line, from the session model: the
 * game, whose move it is (or the standing offer, or the undo game's
 * reminder), the connection, and the keys that matter now, fitted to the
 * width (status-line.h) so that "? help" and the turn survive a narrow
 * terminal and no key hint is cut in half. Free of curses for the tests.
 */
#ifndef TCHESS_CLIENT_PLAY_STATUS_H
#define TCHESS_CLIENT_PLAY_STATUS_H

#include <stddef.h>

#include "session.h"

/* Writes the status line of s for a width-column terminal into buf.
 * Returns its length. */
size_t play_status_line(const struct session *s, int width, char *buf, size_t size);

#endif
