/*
 * The tablebase's verdict on the review's shown position (review-tablebase.h):
 * the result for each side, the distances the tables know, and the best move,
 * found by probing the position after every legal move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-tablebase.h"
#include "tchess/movegen.h"
#include "tchess/notation.h"

/* A move's worth to the side that plays it, from the probe of the position
 * after it (the opponent's view): higher is better. Wins sooner, losses
 * later; among draws none is better. */
static long review_tb_worth(const struct tablebase_probe *after)
{
	int wdl = -(int)after->wdl;
	long dist = after->has_dtm ? labs((long)after->dtm) : after->has_dtz ? labs((long)after->dtz) : 0;
	if (wdl > 0)
		return 1000000L * wdl - dist;
	if (wdl < 0)
		return 1000000L * wdl + dist;
	return 0;
}

int review_tablebase_verdict(struct tablebase *tb, const struct position *p, char *buf, size_t size)
{
	struct tablebase_probe pr;
	buf[0] = '\0';
	if (!tb || tablebase_probe(tb, p, &pr, NULL, 0) != TCHESS_OK)
		return -1;
	const char *mover = p->side == WHITE ? "White" : "Black", *other = p->side == WHITE ? "Black" : "White";
	char result[64], dist[64] = "";
	switch (pr.wdl) {
	case TABLEBASE_WIN: snprintf(result, sizeof result, "%s wins", mover); break;
	case TABLEBASE_LOSS: snprintf(result, sizeof result, "%s wins", other); break;
	case TABLEBASE_CURSED_WIN: snprintf(result, sizeof result, "draw (%s's win is too slow: 50 moves)", mover); break;
	case TABLEBASE_BLESSED_LOSS: snprintf(result, sizeof result, "draw (%s's win is too slow: 50 moves)", other); break;
	default: snprintf(result, sizeof result, "draw"); break;
	}
	if (pr.wdl != TABLEBASE_DRAW) {
		size_t n = 0;
		if (pr.has_dtm && pr.dtm)
			n += (size_t)snprintf(dist + n, sizeof dist - n, ", mate in %d plies", abs(pr.dtm));
		if (pr.has_dtz && pr.dtz && n < sizeof dist)
			snprintf(dist + n, sizeof dist - n, ", DTZ %d", abs(pr.dtz));
	}
	/* The best move: the one whose position is worst for the opponent. */
	struct move_list ml;
	movegen_legal(p, &ml);
	long best = 0;
	move best_move = MOVE_NONE;
	for (int i = 0; i < ml.count; i++) {
		struct position q = *p;
		struct undo u;
		struct tablebase_probe after;
		position_make(&q, ml.moves[i], &u);
		if (tablebase_probe(tb, &q, &after, NULL, 0) != TCHESS_OK)
			continue;
		long w = review_tb_worth(&after);
		/* A capture or promotion that leaves the tables' material
		 * unprobeable is skipped, not guessed. */
		if (best_move == MOVE_NONE || w > best) {
			best = w;
			best_move = ml.moves[i];
		}
	}
	char san[SAN_MAX] = "";
	if (best_move != MOVE_NONE)
		san_write(p, best_move, san);
	snprintf(buf, size, "tablebase: %s%s%s%s (%s)", result, dist, san[0] ? "; best " : "", san,
		 pr.sources == (TABLEBASE_GAVIOTA | TABLEBASE_SYZYGY) ? "Gaviota, Syzygy"
		 : pr.sources & TABLEBASE_SYZYGY                      ? "Syzygy"
								      : "Gaviota");
	return 0;
}
