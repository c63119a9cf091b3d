/*
 * SHA-256 (FIPS 180-4), used to store bearer tokens hashed: the store holds
 * only SHA-256(token), so a leaked database does not let anyone act as a
 * player. Tokens carry at least 128 random bits, so a plain hash (no salt, no
 * key stretching) is enough: there is nothing to guess by dictionary.
 */
#ifndef TCHESS_UTIL_SHA256_H
#define TCHESS_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

struct sha256 {
	uint32_t h[8];
	uint64_t total;    /* bytes hashed so far */
	uint8_t block[64]; /* pending partial block */
	size_t used;       /* bytes in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST_SIZE]);
/* One-shot digest of data. */
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_SIZE]);

#endif
