/*
 * Random tokens and constant-time comparison; see token.h.
 */
#include <errno.h>
#include <sys/random.h>

#include "util/token.h"

int token_random(void *buf, size_t len)
{
	unsigned char *p = buf;
	while (len) {
		/* getrandom() may return fewer bytes than asked past 256, or
		 * fail with EINTR; loop until the request is met. */
		ssize_t n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void token_hex(char *out, const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

int token_random_hex(char *out, size_t len)
{
	unsigned char raw[64];
	while (len) {
		size_t n = len > sizeof raw ? sizeof raw : len;
		if (token_random(raw, n) < 0)
			return -1;
		token_hex(out, raw, n);
		out += 2 * n;
		len -= n;
	}
	*out = '\0';
	return 0;
}

bool token_equal(const void *a, const void *b, size_t len)
{
	/* volatile keeps the compiler from turning the loop into an early-exit
	 * memcmp. */
	const volatile unsigned char *x = a, *y = b;
	unsigned char diff = 0;
	for (size_t i = 0; i < len; i++)
		diff |= (unsigned char)(x[i] ^ y[i]);
	return diff == 0;
}
