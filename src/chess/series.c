/*
 * Rematch series: the score and the next game's clock; see tchess/series.h.
 */
#include <string.h>

#include "tchess/series.h"

void series_score_init(struct series_score *s)
{
	memset(s, 0, sizeof *s);
}

int series_half_points(enum game_result r, enum color side)
{
	switch (r) {
	case GAME_RESULT_WHITE_WINS:
		return side == WHITE ? 2 : 0;
	case GAME_RESULT_BLACK_WINS:
		return side == BLACK ? 2 : 0;
	case GAME_RESULT_DRAW:
		return 1;
	default:
		return -1;
	}
}

void series_score_add(struct series_score *s, enum game_result r)
{
	s->games++;
	if (series_half_points(r, WHITE) < 0)
		return;
	s->scored++;
	s->half[WHITE] += series_half_points(r, WHITE);
	s->half[BLACK] += series_half_points(r, BLACK);
}

void series_score_next(const struct series_score *s, struct series_score *next)
{
	struct series_score n = *s;
	n.half[WHITE] = s->half[BLACK];
	n.half[BLACK] = s->half[WHITE];
	*next = n;
}

void series_next_clock(const struct clock *prev, struct clock *next)
{
	struct time_control tc = prev->tc;
	clock_init(next, &tc);
}
