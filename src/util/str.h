/*
 * String helpers.
 */
#ifndef TCHESS_UTIL_STR_H
#define TCHESS_UTIL_STR_H

#include <stddef.h>

/* Copies src into dst (size bytes, size > 0), cutting it short if needed;
 * dst is always NUL-terminated. Returns strlen(src), so a result >= size
 * means the copy was cut. */
size_t str_copy(char *dst, const char *src, size_t size);

#endif
