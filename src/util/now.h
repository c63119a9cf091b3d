/*
 * Clocks in integer milliseconds: monotonic for deadlines and durations,
 * wall-clock for timestamps that are stored or sent to clients.
 */
#ifndef TCHESS_UTIL_NOW_H
#define TCHESS_UTIL_NOW_H

#include <stdint.h>

int64_t now_mono_ms(void);
/* The same clock in microseconds, for short spans (how long a lock was held). */
int64_t now_mono_us(void);
/* Milliseconds since the Unix epoch, plus the test offset below. */
int64_t now_wall_ms(void);
/* Test-only: moves now_wall_ms() forward by ms (> 0) for the whole process
 * and returns the total offset. Only tchessd's test clock calls it. */
int64_t now_wall_advance(int64_t ms);

#endif
