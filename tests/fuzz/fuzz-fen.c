/*
 * libFuzzer target for the FEN reader. Anything accepted must be written
 * back, read again as the same position, and support move generation and
 * make/unmake without drifting keys.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct position p, q;
	struct tchess_error err;
	if (fen_parse_n(&p, (const char *)data, size, &err) != TCHESS_OK) {
		if (err.offset > size || err.message[0] == '\0')
			abort();
		return 0;
	}
	char out[FEN_MAX];
	fen_write(&p, out);
	if (fen_parse(&q, out, &err) != TCHESS_OK || !position_same(&p, &q))
		abort();

	struct move_list list;
	if (movegen_legal(&p, &list) > 218)
		abort();
	for (int i = 0; i < list.count; i++) {
		struct position before = p;
		struct undo u;
		position_make(&p, list.moves[i], &u);
		if (p.key != position_compute_key(&p))
			abort();
		struct move_list reply;
		movegen_legal(&p, &reply);
		position_unmake(&p, list.moves[i], &u);
		if (memcmp(&p, &before, sizeof p))
			abort();
	}
	return 0;
}
