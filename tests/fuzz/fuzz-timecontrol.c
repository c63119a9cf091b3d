/*
 * libFuzzer target for the time-control text and premove text readers.
 * Accepted time controls must format to a text that parses back equal.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/clock.h"
#include "tchess/premove.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[512];
	if (size >= sizeof text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	struct time_control tc, back;
	struct tchess_error err;
	if (time_control_parse(&tc, text, &err) == TCHESS_OK) {
		char out[TIME_CONTROL_TEXT_MAX];
		if (time_control_format(&tc, out, sizeof out) >= sizeof out)
			abort();
		if (time_control_parse(&back, out, NULL) != TCHESS_OK || !time_control_equal(&tc, &back))
			abort();
		if ((unsigned)time_control_speed(&tc) >= SPEED_CLASS_NB)
			abort();
	}

	struct premove pm;
	if (premove_parse_uci((const char *)data, size, &pm, &err) == TCHESS_OK) {
		char out[16];
		premove_write(&pm, false, out);
	}
	return 0;
}
