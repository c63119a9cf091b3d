/*
 * The tablebase's verdict on a position for review: who wins (or that it
 * is drawn, or a win the fifty-move rule spoils), the distances the tables
 * know (mate in plies from Gaviota, DTZ from Syzygy) and the best move, as
 * one line of text. Reads the tables (libtchess_tb); no curses.
 */
#ifndef TCHESS_CLIENT_REVIEW_TABLEBASE_H
#define TCHESS_CLIENT_REVIEW_TABLEBASE_H

#include <stddef.h>

#include "tchess/position.h"
#include "tchess/tablebase.h"

/* "tablebase: White wins, mate in 15 plies, DTZ 3; best Kd6 (Gaviota,
 * Syzygy)" into buf. Returns 0, or -1 ("" in buf) when tb is NULL or has no
 * table for p (its material, castling rights). */
int review_tablebase_verdict(struct tablebase *tb, const struct position *p, char *buf, size_t size);

#endif
