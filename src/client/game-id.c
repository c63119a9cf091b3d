/*
 * Short game ids (see game-id.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "game-id.h"

int game_id_match(const char *prefix, const char *const *ids, size_t n, char *out, size_t size, char *err,
		  size_t err_size)
{
	size_t plen = strlen(prefix), found = 0, used = 0;
	const char *first = NULL;
	char names[200] = "";
	for (size_t i = 0; i < n; i++) {
		if (strncmp(ids[i], prefix, plen) != 0)
			continue;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(ids[k], ids[i]);
		if (seen)
			continue;
		if (!first)
			first = ids[i];
		if (found < GAME_ID_SHOWN && used < sizeof names)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", found ? ", " : "", ids[i]);
		found++;
	}
	if (found == 1) {
		snprintf(out, size, "%s", first);
		return 0;
	}
	if (found == 0)
		snprintf(err, err_size, "no game with an id starting '%s' (tchess games lists them)", prefix);
	else
		snprintf(err, err_size, "'%s' starts %zu game ids (%s%s): type more of it", prefix, found, names,
			 found > GAME_ID_SHOWN ? ", ..." : "");
	return -1;
}
