/*
 * Clocks in integer milliseconds: monotonic for deadlines and durations,
 * wall-clock for timestamps that are stored or sent to clients.
 */
#ifndef TCHESS_UTIL_NOW_H
#define TCHESS_UTIL_NOW_H

#include <stdint.h>

int64_t now_mono_ms(void);
/* Milliseconds since the Unix epoch. */
int64_t now_wall_ms(void);

#endif
