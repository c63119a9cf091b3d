/*
 * libFuzzer target for move notation. The first byte picks one of a few
 * positions; the rest is read as SAN, as UCI and as either. A move any
 * reader accepts must be legal and survive writing and reading back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const positions[] = {
	FEN_START,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
	"3qk3/4P3/8/8/8/R7/8/RN2KN2 w - - 0 1",
	"8/8/8/7k/8/Q1Q5/8/Q1Q4K w - - 0 1",
	"r3k2r/pppppppp/8/8/8/8/1PPPPPPP/1R2K1RR w GBkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
};

static void check(const struct position *p, move m)
{
	char san[SAN_MAX], uci[UCI_MAX];
	move back;
	if (!movegen_is_legal(p, m))
		abort();
	size_t n = san_write(p, m, san);
	if (san_parse(p, san, n, &back, NULL) != TCHESS_OK || back != m)
		abort();
	n = uci_write(p, m, uci);
	if (uci_parse(p, uci, n, &back, NULL) != TCHESS_OK || back != m)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct position p;
	if (fen_parse(&p, positions[data[0] % (sizeof positions / sizeof positions[0])], NULL) != TCHESS_OK)
		abort();
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	move m;
	struct tchess_error err;
	if (san_parse(&p, text, len, &m, &err) == TCHESS_OK)
		check(&p, m);
	if (uci_parse(&p, text, len, &m, &err) == TCHESS_OK)
		check(&p, m);
	if (notation_parse_move(&p, text, len, &m, &err) == TCHESS_OK)
		check(&p, m);
	char why[128];
	if (len >= 2)
		notation_explain_illegal(&p, data[1] & 63, data[len] & 63, why, sizeof why);
	return 0;
}
