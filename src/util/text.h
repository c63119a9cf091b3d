/*
 * User text: what a client may store on the server and what either side
 * may put on a terminal. One rule for both: valid UTF-8 (no overlong form,
 * no surrogate, nothing past U+10FFFF) with no control character (C0,
 * DEL, C1), no line or paragraph separator and no bidirectional embedding,
 * override or isolate (U+202A-U+202E, U+2066-U+2069), which would reorder
 * or break what a terminal shows around them.
 */
#ifndef TCHESS_UTIL_TEXT_H
#define TCHESS_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the UTF-8 sequence at s (n > 0 bytes left): its code point and
 * in *len its length, or -1 with *len 1 for a byte that starts no valid
 * sequence. */
int32_t text_utf8_next(const char *s, size_t n, size_t *len);
/* Whether code point cp may stand in user text. */
bool text_char_ok(int32_t cp);
/* NULL when s[0..len) is user text, else what is wrong with it ("invalid
 * UTF-8", "a control character", ...) and in *offset (if not NULL) the
 * byte where. */
const char *text_check(const char *s, size_t len, size_t *offset);
/* The same for every string literal (member names too) of the JSON text
 * json[0..len), escapes decoded: "\u0000", "\n" or "\u202e" fail as the
 * characters they stand for, an unpaired surrogate escape as invalid. A
 * malformed literal is left to the JSON parser (NULL). */
const char *text_check_json(const char *json, size_t len, size_t *offset);
/* Rewrites s in place into user text for a terminal: every character that
 * is not is replaced by '?', one per invalid byte. Never lengthens s. */
void text_sanitize(char *s);

#endif
