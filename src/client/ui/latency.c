/*
 * The key latency log (latency.h): the play and review screens time their
 * keys the same way, so their numbers compare.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "latency.h"

FILE *ui_latency_open(void)
{
	const char *path = getenv("TCHESS_LATENCY_LOG");
	return path && *path ? fopen(path, "a") : NULL;
}

int64_t ui_latency_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void ui_latency_write(FILE *log, int key, int64_t t0)
{
	fprintf(log, "key %d us %" PRId64 "\n", key, ui_latency_now_us() - t0);
	fflush(log);
}
