/*
 * Forsyth-Edwards Notation: reading with precise errors, and writing.
 *
 * The reader accepts six-field FEN and four-field EPD-style positions
 * (counters default to 0 and 1), standard KQkq castling, X-FEN (KQkq mean the
 * outermost rook, a file letter names an inner one) and Shredder-FEN (file
 * letters only). It rejects positions the move generator cannot handle:
 * missing or extra kings, pawns on the first or last rank, the side not to
 * move in check, an inconsistent en-passant square, more pieces than
 * promotions can explain. An en-passant square with no legal capture is
 * accepted and dropped; the writer names one only when a capture is legal.
 */
#ifndef TCHESS_FEN_H
#define TCHESS_FEN_H

#include <stddef.h>

#include "tchess/error.h"
#include "tchess/position.h"

#define FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Longest FEN the writer produces, with its terminating NUL. */
#define FEN_MAX 96
/* The largest halfmove clock and fullmove number the reader accepts: what
 * struct position holds, so every position the rules reach from a FEN
 * (short of 65,535 moves) writes a FEN that reads back. */
#define FEN_COUNTER_MAX 65535

/* Parses the NUL-terminated fen into p. On error returns the code, fills err
 * (if not NULL) and leaves p unchanged. Accepts any byte string. */
enum tchess_err fen_parse(struct position *p, const char *fen, struct tchess_error *err);

/* Like fen_parse() for the first len bytes of fen, which need no NUL. */
enum tchess_err fen_parse_n(struct position *p, const char *fen, size_t len, struct tchess_error *err);

/* Writes p as FEN into buf (at least FEN_MAX bytes); returns the length. */
size_t fen_write(const struct position *p, char *buf);

#endif
