/*
 * A growable byte buffer: request bodies, JSON being built, log lines. The
 * data is always NUL-terminated (the terminator is not counted in len), so a
 * buffer of text can be handed to C string functions directly.
 */
#ifndef TCHESS_UTIL_BUF_H
#define TCHESS_UTIL_BUF_H

#include <stddef.h>

struct buf {
	char *data; /* NULL until the first append */
	size_t len;
	size_t cap;
};

void buf_init(struct buf *b);
void buf_fini(struct buf *b);
/* Ensures room for extra more bytes (plus the terminator). */
void buf_reserve(struct buf *b, size_t extra);
void buf_append(struct buf *b, const void *data, size_t len);
void buf_append_str(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_reset(struct buf *b);
/* Hands the data to the caller (who frees it; never NULL) and empties b. */
char *buf_steal(struct buf *b);

#endif
