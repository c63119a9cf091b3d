/*
 * libFuzzer target for the PGN reader: reads every game of the input; each
 * game read without error must be written and read back with the same
 * moves and result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const struct pgn_game *g)
{
	struct pgn_buf out;
	struct pgn_reader r;
	struct pgn_game back;
	pgn_buf_init(&out);
	if (pgn_write_game(g, &out, NULL) != TCHESS_OK)
		abort();
	pgn_reader_init(&r, out.data, out.len);
	if (pgn_read_game(&r, &back, NULL) != PGN_OK || back.n_moves != g->n_moves)
		abort();
	for (size_t i = 0; i < g->n_moves; i++)
		if (back.moves[i].m != g->moves[i].m)
			abort();
	pgn_game_fini(&back);
	pgn_buf_fini(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgn_reader r;
	struct pgn_game g;
	struct pgn_error err;
	enum pgn_status st;
	pgn_reader_init(&r, (const char *)data, size);
	while ((st = pgn_read_game(&r, &g, &err)) != PGN_END) {
		if (st == PGN_OK)
			round_trip(&g);
		pgn_game_fini(&g);
	}
	pgn_game_fini(&g);
	return 0;
}
