/*
 * Millisecond clocks; see now.h.
 */
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

int64_t now_wall_ms(void)
{
	return now_ms(CLOCK_REALTIME);
}
