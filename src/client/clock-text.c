/*
 * Clock text: the formatting of remaining time and the delay until the
 * text next changes, which is what lets the client sleep between repaints
 * instead of waking at a fixed rate.
 */
#include <stdio.h>

#include "clock-text.h"

#define TENTHS_BELOW_MS 10000

size_t clock_text_format(int64_t ms, char *buf)
{
	int n;
	if (ms < 0)
		ms = 0;
	if (ms < TENTHS_BELOW_MS) {
		n = snprintf(buf, CLOCK_TEXT_MAX, "0:%02d.%d", (int)(ms / 1000), (int)(ms % 1000 / 100));
	} else {
		int64_t s = ms / 1000;
		if (s >= 3600)
			n = snprintf(buf, CLOCK_TEXT_MAX, "%lld:%02d:%02d", (long long)(s / 3600), (int)(s / 60 % 60),
				     (int)(s % 60));
		else
			n = snprintf(buf, CLOCK_TEXT_MAX, "%d:%02d", (int)(s / 60), (int)(s % 60));
	}
	return n < 0 ? 0 : (size_t)n;
}

int64_t clock_text_next_change(int64_t ms)
{
	if (ms <= 0)
		return 1;
	/* The text shows the unit ms falls in; it changes on leaving it. Ten
	 * seconds exactly still reads "0:10", so 1 ms later it reads tenths. */
	int64_t unit = ms < TENTHS_BELOW_MS ? 100 : 1000;
	return ms % unit + 1;
}
