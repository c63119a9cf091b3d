/*
 * Move notation: UCI long algebraic (e2e4, e7e8q) and Standard Algebraic
 * Notation (Nf3, exd6, O-O, e8=Q+), reading and writing.
 *
 * Writers take the position the move is played from and produce the exact
 * form; readers take the same position and resolve text to one legal move.
 * The SAN reader is lenient as real files and people are (Ng1f3, N1f3, 0-0,
 * e8Q, exd6e.p., trailing + # ! ?, 'x' left out) but never guesses: an
 * ambiguous or illegal move is an error naming why.
 */
#ifndef TCHESS_NOTATION_H
#define TCHESS_NOTATION_H

#include <stddef.h>

#include "tchess/error.h"
#include "tchess/move.h"
#include "tchess/position.h"

/* Buffer sizes, terminating NUL included. */
#define UCI_MAX 6
#define SAN_MAX 12

/* Writes m (legal in p) as UCI into buf (UCI_MAX bytes); returns the length.
 * Castling is written as the king's two-square move in standard chess and as
 * king-takes-rook in Chess960. MOVE_NONE is written "0000". */
size_t uci_write(const struct position *p, move m, char *buf);

/* Resolves UCI text (len bytes, no NUL needed) to a legal move of p. Both
 * castling forms are accepted. On error returns the code and fills err. */
enum tchess_err uci_parse(const struct position *p, const char *text, size_t len, move *out,
			  struct tchess_error *err);

/* Writes m (legal in p) as SAN into buf (SAN_MAX bytes); returns the length. */
size_t san_write(const struct position *p, move m, char *buf);

/* Resolves SAN text (len bytes, no NUL needed) to a legal move of p. */
enum tchess_err san_parse(const struct position *p, const char *text, size_t len, move *out,
			  struct tchess_error *err);

/* Reads a move typed by a person or sent by a peer: UCI if it has that
 * shape, SAN otherwise. */
enum tchess_err notation_parse_move(const struct position *p, const char *text, size_t len, move *out,
				    struct tchess_error *err);

/* Reads a move typed at a prompt: as notation_parse_move(), and failing
 * that, leniently, where exactly one legal move answers: any case for the
 * squares (E1G1, E4), a lowercase piece letter (nf3, qxd8), o for O in
 * castling (o-o). "bc4" that is both a pawn's and a bishop's move is
 * ambiguous, and the error names both. */
enum tchess_err notation_parse_typed(const struct position *p, const char *text, size_t len, move *out,
				     struct tchess_error *err);

/* Explains in words why moving the piece on 'from' to 'to' is not legal in
 * p ("the knight on g1 cannot reach g3"), writing at most size bytes into
 * buf. Returns buf. If the move is legal, says so. */
const char *notation_explain_illegal(const struct position *p, int from, int to, char *buf, size_t size);

/* The legal move of p from 'from' to 'to', as a board's pick and drop
 * gives it: castling by the king's destination or onto its own rook (the
 * rook only in Chess960), promotion promo (a piece type; 0 for any).
 * Counts the matches in *n (more than one: the promotion is to choose);
 * MOVE_NONE when there is none. */
move notation_move_from_squares(const struct position *p, int from, int to, int promo, int *n);

/* Square name ("e4") into buf (3 bytes); returns buf. */
const char *notation_square(int sq, char buf[3]);

/* The square named by the two bytes at s ("e4"), or SQ_NONE. */
int notation_parse_square(const char *s);

/* A printable copy of text (len bytes, any bytes) for an error message:
 * non-printable bytes become '?', and text longer than size - 1 bytes is
 * cut and ends in "..". size must be at least 4. Returns buf. */
const char *notation_quote(const char *text, size_t len, char *buf, size_t size);

#endif
