/*
 * A game's state as the fold leaves it (struct game_view, tchess/fold.h):
 * its life cycle and the questions every reader asks of it: is it
 * running, whose first move is due, may this side move, the clock read at
 * an instant, the rematch series after it, the board to show. Nothing
 * here changes a view; the state machine that does is fold.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-internal.h"
#include "util/xalloc.h"

void fold_view_init(struct game_view *v)
{
	memset(v, 0, sizeof *v);
	premove_queue_init(&v->premoves[WHITE]);
	premove_queue_init(&v->premoves[BLACK]);
	v->adjourn_request_by = v->resume_request_by = -1;
	v->discard_day[WHITE] = v->discard_day[BLACK] = -1;
	v->last_cmd_ply[WHITE] = v->last_cmd_ply[BLACK] = -1;
	v->rematch_by = -1;
	v->end_color = -1;
	takeback_init(&v->turn);
}

void fold_view_fini(struct game_view *v)
{
	if (v->created)
		game_fini(&v->game);
	free(v->plies);
	memset(v, 0, sizeof *v);
}

void fold_view_copy(struct game_view *dst, const struct game_view *src)
{
	*dst = *src;
	dst->plies = NULL;
	dst->plies_cap = 0;
	if (src->created && game_copy(&dst->game, &src->game, NULL) != TCHESS_OK)
		xalloc_die(); /* game_copy fails only when memory runs out */
	if (src->game.n_plies) {
		dst->plies_cap = src->game.n_plies;
		dst->plies = xmalloc(dst->plies_cap * sizeof *dst->plies);
		memcpy(dst->plies, src->plies, src->game.n_plies * sizeof *dst->plies);
	}
}

bool fold_running(const struct game_view *v)
{
	return v->created && v->started && !game_is_over(&v->game);
}

bool fold_adjourned(const struct game_view *v)
{
	return v->created && v->game.status == GAME_ADJOURNED;
}

int64_t fold_first_move_deadline(const struct game_view *v, int64_t limit_ms, int *side)
{
	*side = game_side_to_move(&v->game);
	if (!fold_running(v) || fold_adjourned(v) || limit_ms <= 0 || v->clock.tc.kind == TC_CORRESPONDENCE ||
	    !strcmp(v->opponent, "tournament"))
		return INT64_MAX;
	bool moved = v->game.n_plies >= 2 || (v->game.n_plies == 1 && v->game.start.side == *side);
	if (moved)
		return INT64_MAX;
	int64_t from = v->game.n_plies ? v->game.plies[0].at_ms : v->started_ms;
	return from + limit_ms;
}

int64_t fold_discard_due(const struct game_view *v, int color)
{
	if (!fold_adjourned(v) || v->resume_request_by != color || color < 0)
		return INT64_MAX;
	const struct ruleset *r = &v->game.rules;
	return v->resume_since_ms + (v->absent[!color] ? r->resume_absent_ms : r->resume_answer_ms);
}

const char *fold_status(const struct game_view *v)
{
	if (v->created && game_is_over(&v->game))
		return "over";
	if (fold_adjourned(v))
		return "adjourned";
	if (!v->created || v->seats[WHITE].kind == FOLD_SEAT_EMPTY || v->seats[BLACK].kind == FOLD_SEAT_EMPTY)
		return "open";
	return "playing";
}

enum fold_may fold_may_move(const struct game_view *v, int color, const char **why)
{
	static const char *const text[] = {
		[FOLD_MAY_MOVE] = "it is that side's move",
		[FOLD_MAY_OVER] = "the game is over",
		[FOLD_MAY_NOT_STARTED] = "the game has not started",
		[FOLD_MAY_ADJOURNED] = "the game is adjourned",
		[FOLD_MAY_NOT_TURN] = "it is not that side's move",
	};
	enum fold_may may = FOLD_MAY_MOVE;
	if (v->created && game_is_over(&v->game))
		may = FOLD_MAY_OVER;
	else if (!v->created || !v->started)
		may = FOLD_MAY_NOT_STARTED;
	else if (fold_adjourned(v))
		may = FOLD_MAY_ADJOURNED;
	else if (color != (int)game_side_to_move(&v->game))
		may = FOLD_MAY_NOT_TURN;
	if (why)
		*why = text[may];
	return may;
}

int fold_seat_of(const struct game_view *v, int64_t player)
{
	for (int c = WHITE; c <= BLACK; c++) {
		if (player && v->seats[c].kind == FOLD_SEAT_HUMAN && v->seats[c].player == player)
			return c;
	}
	return -1;
}

void fold_clock_read(const struct game_view *v, int64_t now_ms, struct fold_clock_reading *out)
{
	if (now_ms < v->last_t_ms)
		now_ms = v->last_t_ms;
	const struct clock *c = &v->clock;
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	out->ms[WHITE] = clock_remaining(c, WHITE, now_ms, &vac);
	out->ms[BLACK] = clock_remaining(c, BLACK, now_ms, &vac);
	/* A paused clock (an adjourned game) runs for nobody: "running" is
	 * the side whose clock runs, and the turn's owner is in the state. */
	out->running = c->paused ? CLOCK_NOBODY : c->running;
	/* Wall time, vacations included: what the turn has lasted so far. */
	out->turn_used_ms = c->turn_used_ms;
	if (c->running != CLOCK_NOBODY && !c->paused && now_ms > c->since_ms)
		out->turn_used_ms += now_ms - c->since_ms;
	out->deadline_ms = clock_expiry(c, &vac);
}

void fold_clock_vacations(const struct game_view *v, struct clock_vacations *out)
{
	for (int side = WHITE; side <= BLACK; side++) {
		out->list[side] = v->vacations[side];
		out->count[side] = v->n_vacations[side];
	}
}

int64_t fold_clock_expiry(const struct game_view *v)
{
	struct clock_vacations vac;
	fold_clock_vacations(v, &vac);
	return clock_expiry(&v->clock, &vac);
}


/* The series after this game, whether or not it is in one yet. */
static void series_after(const struct game_view *v, const char *id, struct fold_series *out)
{
	*out = v->series;
	if (!out->id[0]) {
		/* The first game: its rematch made the series, named after it. */
		snprintf(out->id, sizeof out->id, "%s", id);
		out->game = 1;
		series_score_init(&out->score);
	}
	if (game_is_over(&v->game))
		series_score_add(&out->score, v->game.result);
}

bool fold_series_after(const struct game_view *v, const char *id, struct fold_series *out)
{
	memset(out, 0, sizeof *out);
	if (!v->created || (!v->series.id[0] && !v->next_game[0]))
		return false;
	series_after(v, id, out);
	return true;
}

void fold_series_next(const struct game_view *v, const char *id, struct fold_series *out)
{
	struct fold_series now;
	series_after(v, id, &now);
	memset(out, 0, sizeof *out);
	snprintf(out->id, sizeof out->id, "%s", now.id);
	out->game = now.game + 1;
	snprintf(out->previous, sizeof out->previous, "%s", id);
	series_score_next(&now.score, &out->score);
}

void fold_board(const struct game_view *v, struct position *out)
{
	takeback_position(&v->turn, &v->game, out);
}
