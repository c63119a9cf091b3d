/*
 * tchess perft: counts the leaf nodes of the legal move tree from a position,
 * the standard check of a move generator. The last line is always
 * "nodes N ms T nps X" so scripts can read it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tchess/fen.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"

#include "commands.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: tchess perft [--divide] DEPTH [FEN]\n");
	return 2;
}

int cmd_perft(int argc, char **argv)
{
	int divide = 0, i = 0;
	if (i < argc && !strcmp(argv[i], "--divide")) {
		divide = 1;
		i++;
	}
	if (i >= argc)
		return usage();
	char *end;
	errno = 0;
	long depth = strtol(argv[i], &end, 10);
	if (errno || *end || end == argv[i] || depth < 0 || depth > 64) {
		fprintf(stderr, "tchess perft: depth '%s' is not a number from 0 to 64\n", argv[i]);
		return 2;
	}
	i++;

	/* The FEN may come as one argument or as its six words unquoted. */
	char fen[512] = FEN_START;
	if (i < argc) {
		size_t len = 0;
		fen[0] = '\0';
		for (; i < argc; i++) {
			size_t n = strlen(argv[i]);
			if (len + n + 2 > sizeof fen) {
				fprintf(stderr, "tchess perft: FEN too long\n");
				return 2;
			}
			if (len)
				fen[len++] = ' ';
			memcpy(fen + len, argv[i], n + 1);
			len += n;
		}
	}

	struct position pos;
	struct tchess_error err;
	if (fen_parse(&pos, fen, &err) != TCHESS_OK) {
		fprintf(stderr, "tchess perft: bad FEN at byte %zu: %s\n", err.offset, err.message);
		return 2;
	}

	uint64_t t0 = now_ns(), nodes = 0;
	if (divide && depth > 0) {
		struct move_list list;
		movegen_legal(&pos, &list);
		for (int k = 0; k < list.count; k++) {
			char uci[UCI_MAX];
			struct undo u;
			uci_write(&pos, list.moves[k], uci);
			position_make(&pos, list.moves[k], &u);
			uint64_t n = movegen_perft(&pos, (int)depth - 1);
			position_unmake(&pos, list.moves[k], &u);
			printf("%s: %" PRIu64 "\n", uci, n);
			nodes += n;
		}
	} else {
		nodes = movegen_perft(&pos, (int)depth);
	}
	uint64_t ns = now_ns() - t0;
	uint64_t ms = ns / 1000000u;
	uint64_t nps = ns ? (uint64_t)((double)nodes * 1e9 / (double)ns) : 0;
	printf("nodes %" PRIu64 " ms %" PRIu64 " nps %" PRIu64 "\n", nodes, ms, nps);
	return 0;
}
