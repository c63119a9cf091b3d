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

/* An invite code: 10 characters of Crockford's base 32 (50 bits) in two
 * groups of five, "k7m4q-px9ca", short enough to read aloud and type. */
#define TOKEN_INVITE_CHARS 10
#define TOKEN_INVITE_LEN (TOKEN_INVITE_CHARS + 1)

/* Fills buf with len bytes from getrandom(); returns 0, or -1 if the kernel
 * refused (errno set), which callers treat as fatal. */
int token_random(void *buf, size_t len);
/* Writes len random bytes as 2*len lowercase hex digits plus a NUL into out
 * (which has room for 2*len+1); returns 0 or -1 as token_random. */
int token_random_hex(char *out, size_t len);
/* Writes a new random invite code and its NUL into out (TOKEN_INVITE_LEN
 * + 1 bytes); returns 0 or -1 as token_random. */
int token_invite_new(char *out);
/* The form of a typed invite code that is hashed and compared: lowercase,
 * dashes and blanks left out, o read as 0 and i, l as 1 (Crockford's
 * reading), so "K7M4Q PX9CA" is the code "k7m4q-px9ca"; older codes of
 * hex digits are their own form. Writes it into out (size bytes); returns
 * its length, or -1 (out "") for a character no code has, or one too long. */
int token_invite_normalize(const char *in, char *out, size_t size);
/* Hex encoding of len bytes into out (2*len+1 bytes). */
void token_hex(char *out, const void *data, size_t len);
/* Whether a and b (both len bytes) are equal, in time that depends on len
 * only. */
bool token_equal(const void *a, const void *b, size_t len);

#endif
