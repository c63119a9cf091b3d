/*
 * How a chess clock reads on screen. Times are integer milliseconds; the
 * display is truncated, never rounded up, so it reaches 0:00.0 exactly when
 * the flag falls. Under ten seconds it shows tenths.
 */
#ifndef TCHESS_CLIENT_CLOCK_TEXT_H
#define TCHESS_CLIENT_CLOCK_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define CLOCK_TEXT_MAX 24

/* Writes ms as "1:05:02" (an hour or more), "4:59" (ten seconds or more)
 * or "0:09.4" (under ten seconds) into buf (CLOCK_TEXT_MAX bytes). A
 * negative time reads as "0:00.0". Returns the length. */
size_t clock_text_format(int64_t ms, char *buf);

/* Milliseconds a clock showing ms must run down before its text changes:
 * the loop's timeout while that clock runs. At least 1. */
int64_t clock_text_next_change(int64_t ms);

#endif
