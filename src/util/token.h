/*
 * Secrets: random tokens and ids from the kernel's CSPRNG, hex encoding, and
 * a comparison whose time does not depend on where two secrets differ.
 */
#ifndef TCHESS_UTIL_TOKEN_H
#define TCHESS_UTIL_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Random bytes of a bearer token (256 bits) and of a game id (128 bits). */
#define TOKEN_BYTES 32
#define TOKEN_ID_BYTES 16
/* Lengths of their hex forms, without the terminator. */
#define TOKEN_HEX_LEN (2 * TOKEN_BYTES)
#define TOKEN_ID_HEX_LEN (2 * TOKEN_ID_BYTES)

/* Fills buf with len bytes from getrandom(); returns 0, or -1 if the kernel
 * refused (errno set), which callers treat as fatal. */
int token_random(void *buf, size_t len);
/* Writes len random bytes as 2*len lowercase hex digits plus a NUL into out
 * (which has room for 2*len+1); returns 0 or -1 as token_random. */
int token_random_hex(char *out, size_t len);
/* Hex encoding of len bytes into out (2*len+1 bytes). */
void token_hex(char *out, const void *data, size_t len);
/* Whether a and b (both len bytes) are equal, in time that depends on len
 * only. */
bool token_equal(const void *a, const void *b, size_t len);

#endif
