/*
 * String helpers; see str.h.
 */
#include <string.h>

#include "util/str.h"

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	size_t n = len < size ? len : size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return len;
}
