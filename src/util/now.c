/*
 * Millisecond (and one microsecond) clocks; see now.h.
 */
#include <stdatomic.h>
#include <time.h>

#include "util/now.h"

static int64_t now_ms(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t now_mono_ms(void)
{
	return now_ms(CLOCK_MONOTONIC);
}

int64_t now_mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Test-only (tchessd's test_clock setting): how far the wall clock has been
 * moved forward. Process-wide like the log level, because every timestamp
 * of the process must move together; it only ever grows, and it stays 0
 * unless a test asks. */
static _Atomic int64_t wall_offset_ms;

int64_t now_wall_ms(void)
{
	return now_ms(CLOCK_REALTIME) + atomic_load(&wall_offset_ms);
}

int64_t now_wall_advance(int64_t ms)
{
	if (ms > 0)
		atomic_fetch_add(&wall_offset_ms, ms);
	return atomic_load(&wall_offset_ms);
}
