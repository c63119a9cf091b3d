/*
 * Error codes of the rules core, with their messages side by side in one
 * X-macro. Parsers report a code, the byte offset in the input where the
 * problem was found, and a message that names the field and the reason.
 */
#ifndef TCHESS_ERROR_H
#define TCHESS_ERROR_H

#include <stddef.h>

#define TCHESS_ERRORS(X)                                                     \
	X(TCHESS_OK, "no error")                                             \
	X(TCHESS_ERR_FEN_SYNTAX, "malformed FEN")                            \
	X(TCHESS_ERR_FEN_PLACEMENT, "bad piece placement in FEN")            \
	X(TCHESS_ERR_FEN_SIDE, "bad side to move in FEN")                    \
	X(TCHESS_ERR_FEN_CASTLING, "bad castling field in FEN")              \
	X(TCHESS_ERR_FEN_EP, "bad en-passant field in FEN")                  \
	X(TCHESS_ERR_FEN_COUNTER, "bad move counter in FEN")                 \
	X(TCHESS_ERR_POSITION, "impossible position")                       \
	X(TCHESS_ERR_UCI_SYNTAX, "malformed UCI move")                       \
	X(TCHESS_ERR_SAN_SYNTAX, "malformed SAN move")                       \
	X(TCHESS_ERR_ILLEGAL, "illegal move")                                \
	X(TCHESS_ERR_AMBIGUOUS, "ambiguous move")                            \
	X(TCHESS_ERR_NO_MEMORY, "out of memory")                             \
	X(TCHESS_ERR_PGN_SYNTAX, "malformed PGN")                            \
	X(TCHESS_ERR_RANGE, "value out of range")                            \
	X(TCHESS_ERR_TIME_CONTROL, "malformed time control")                 \
	X(TCHESS_ERR_GAME_OVER, "the game is over")                          \
	X(TCHESS_ERR_WRONG_SIDE, "not that side's turn or right")            \
	X(TCHESS_ERR_BAD_CLAIM, "the claim is not valid")                    \
	X(TCHESS_ERR_NOT_ALLOWED, "not allowed by the rules now")          \
	X(TCHESS_ERR_NO_TABLE, "no tablebase covers the position")

enum tchess_err {
#define TCHESS_ERR_ENUM(code, msg) code,
	TCHESS_ERRORS(TCHESS_ERR_ENUM)
#undef TCHESS_ERR_ENUM
	TCHESS_ERR_COUNT
};

/* Detail of a failed parse: which error, where, and why in words. */
struct tchess_error {
	enum tchess_err code;
	size_t offset;        /* byte offset into the input */
	char message[160];    /* e.g. "castling field: 'KQkx' has an unknown letter" */
};

/* The generic message for a code; never NULL. */
const char *tchess_strerror(enum tchess_err code);

/* Fills err (if not NULL) and returns code. The message is printf-style. */
enum tchess_err tchess_error_set(struct tchess_error *err, enum tchess_err code, size_t offset,
				 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
