/*
 * A series of games between the same two players (a rematch series): the
 * colours alternate, every game starts with the time control's full time
 * (board-and-pieces rule 13: "During a series the time isn't saved from the
 * last game, each game have the same initial time.") and the score is kept
 * as 1, 1/2 or 0 points a game; unscored games (aborted, technical
 * failures without a forfeit: result "*") count as played but give no
 * points.
 *
 * A struct series_score is seen from one game of the series: half-points
 * indexed by that game's colours. Points are kept in halves so they stay
 * integers.
 */
#ifndef TCHESS_SERIES_H
#define TCHESS_SERIES_H

#include "tchess/clock.h"
#include "tchess/game.h"

struct series_score {
	int half[2];  /* half-points of the players of this game, by this game's colour */
	int games;    /* games of the series counted (this one included once added) */
	int scored;   /* of those, games with a result */
};

/* No games yet. */
void series_score_init(struct series_score *s);
/* The half-points side gets for result r: 2, 1 or 0; -1 for "*" (unscored). */
int series_half_points(enum game_result r, enum color side);
/* Adds a game's result, seen with this game's colours. */
void series_score_add(struct series_score *s, enum game_result r);
/* The score as the next game of the series sees it: the same points, the
 * players' colours swapped. */
void series_score_next(const struct series_score *s, struct series_score *next);
/* The clock of the series' next game: prev's time control from its start,
 * with nothing of prev's remaining time carried over (rule 13). */
void series_next_clock(const struct clock *prev, struct clock *next);

#endif
