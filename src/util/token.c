/*
 * Random tokens and constant-time comparison; see token.h.
 */
#include <errno.h>
#include <string.h>
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

/* Crockford's base 32: the digits and the letters less i, l, o and u. */
static const char token_b32[] = "0123456789abcdefghjkmnpqrstvwxyz";

int token_invite_new(char *out)
{
	unsigned char raw[TOKEN_INVITE_CHARS];
	if (token_random(raw, sizeof raw) < 0)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < TOKEN_INVITE_CHARS; i++) {
		if (i == TOKEN_INVITE_CHARS / 2)
			out[n++] = '-';
		/* 256 is a multiple of 32: the low five bits are uniform. */
		out[n++] = token_b32[raw[i] & 31];
	}
	out[n] = '\0';
	return 0;
}

int token_invite_normalize(const char *in, char *out, size_t size)
{
	size_t n = 0;
	for (const char *p = in; *p; p++) {
		char c = *p;
		if (c == '-' || c == ' ' || c == '\t')
			continue;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == 'o')
			c = '0';
		else if (c == 'i' || c == 'l')
			c = '1';
		if (!memchr(token_b32, c, sizeof token_b32 - 1) || c == '\0' || n + 1 >= size) {
			if (size)
				out[0] = '\0';
			return -1;
		}
		out[n++] = c;
	}
	if (size)
		out[n] = '\0';
	return (int)n;
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
