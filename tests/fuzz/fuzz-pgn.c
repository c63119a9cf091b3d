/*
 * libFuzzer target for the PGN reader: reads every game of the input; each
 * game read without error must be written and read back with the same
 * moves, and the game read back must write the same text (the tree of
 * variations, NAGs, comments, clocks and evaluations survive).  A failure prints the game as written and why it did
 * not read back, then aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const struct pgn_buf *out, const char *why)
{
	fprintf(stderr, "fuzz-pgn: round trip failed: %s\n--- written ---\n%s--- end ---\n", why,
		out->data ? out->data : "");
	abort();
}

static void round_trip(const struct pgn_game *g)
{
	struct pgn_buf out;
	struct pgn_reader r;
	struct pgn_game back;
	struct pgn_error err;
	char why[320];
	pgn_buf_init(&out);
	if (pgn_write_game(g, &out, NULL) != TCHESS_OK)
		fail(&out, "a game read without error could not be written");
	pgn_reader_init(&r, out.data, out.len);
	if (pgn_read_game(&r, &back, &err) != PGN_OK) {
		snprintf(why, sizeof why, "read back: %s", err.message);
		fail(&out, why);
	}
	if (back.n_moves != g->n_moves) {
		snprintf(why, sizeof why, "%zu moves read, %zu read back", g->n_moves, back.n_moves);
		fail(&out, why);
	}
	for (size_t i = 0; i < g->n_moves; i++)
		if (back.moves[i].m != g->moves[i].m) {
			snprintf(why, sizeof why, "move %zu differs", i + 1);
			fail(&out, why);
		}
	/* Lossless: the game read back writes the same text, variations,
	 * NAGs, comments, clocks and evaluations included. */
	struct pgn_buf again;
	pgn_buf_init(&again);
	if (pgn_write_game(&back, &again, NULL) != TCHESS_OK)
		fail(&out, "the game read back could not be written");
	if (again.len != out.len || memcmp(again.data, out.data, out.len)) {
		fprintf(stderr, "--- written again ---\n%s", again.data ? again.data : "");
		fail(&out, "the game read back writes another text");
	}
	pgn_buf_fini(&again);
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
