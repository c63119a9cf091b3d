/*
 * The public stream of a Lichess game as Board API messages
 * (lichess-watch.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lichess-watch.h"
#include "tchess/fen.h"
#include "util/xalloc.h"

#define LW_NO_CLOCK 2147483647 /* what Lichess sends for an unlimited game */

void lichess_watch_init(struct lichess_watch *w)
{
	memset(w, 0, sizeof *w);
	w->moves = xstrdup("");
	w->winner = -1;
	w->wtime_ms = w->btime_ms = LW_NO_CLOCK;
	snprintf(w->status, sizeof w->status, "started");
}

void lichess_watch_fini(struct lichess_watch *w)
{
	free(w->moves);
	w->moves = NULL;
}

static void lw_placement(const char *fen, char *out, size_t size)
{
	snprintf(out, size, "%.*s", (int)strcspn(fen, " "), fen);
}

static void lw_state(const struct lichess_watch *w, struct lichess_state *s)
{
	s->moves = xstrdup(w->moves);
	s->wtime = w->wtime_ms;
	s->btime = w->btime_ms;
	s->winc = s->binc = w->inc_ms;
	snprintf(s->status, sizeof s->status, "%s", w->status);
	s->winner = w->winner;
}

int lichess_watch_msg(struct lichess_watch *w, const struct lichess_watch_line *l, struct lichess_msg *m, char *err,
		      size_t errsize)
{
	lichess_msg_init(m);
	if (l->description && !w->have_full) {
		/* The game from the position the stream starts at. */
		m->kind = LICHESS_MSG_GAME_FULL;
		snprintf(m->type, sizeof m->type, "gameFull");
		snprintf(m->id, sizeof m->id, "%s", l->id);
		snprintf(m->variant, sizeof m->variant, "%s", l->variant[0] ? l->variant : "standard");
		snprintf(m->speed, sizeof m->speed, "%s", l->speed);
		m->rated = l->rated;
		m->white = l->white;
		m->black = l->black;
		snprintf(w->start_fen, sizeof w->start_fen, "%s", l->fen[0] ? l->fen : "startpos");
		snprintf(m->initial_fen, sizeof m->initial_fen, "%s", w->start_fen);
		lw_placement(l->fen[0] ? l->fen : FEN_START, w->placement, sizeof w->placement);
		if (l->has_clock) {
			m->has_clock = true;
			m->clock_initial_ms = l->clock_initial_s * 1000;
			m->clock_increment_ms = l->clock_increment_s * 1000;
			w->wtime_ms = w->btime_ms = m->clock_initial_ms;
			w->inc_ms = m->clock_increment_ms;
		}
		if (l->status[0])
			snprintf(w->status, sizeof w->status, "%s", l->status);
		w->winner = l->winner;
		w->have_full = true;
		lw_state(w, &m->state);
		return 1;
	}
	if (!w->have_full) {
		snprintf(err, errsize, "a position before the game's description");
		return -1;
	}
	m->kind = LICHESS_MSG_GAME_STATE;
	snprintf(m->type, sizeof m->type, "gameState");
	if (l->description) {
		/* The end: the result. */
		if (l->status[0])
			snprintf(w->status, sizeof w->status, "%s", l->status);
		w->winner = l->winner;
		lw_state(w, &m->state);
		return 1;
	}
	char placement[LICHESS_FEN_MAX];
	lw_placement(l->fen, placement, sizeof placement);
	bool moved = strcmp(placement, w->placement) != 0;
	if (moved && !l->lm[0]) {
		snprintf(err, errsize, "a position without the move that made it");
		return -1;
	}
	if (l->wc >= 0)
		w->wtime_ms = l->wc * 1000;
	if (l->bc >= 0)
		w->btime_ms = l->bc * 1000;
	if (moved) {
		size_t n = strlen(w->moves);
		char *grown = xmalloc(n + strlen(l->lm) + 2);
		snprintf(grown, n + strlen(l->lm) + 2, "%s%s%s", w->moves, n ? " " : "", l->lm);
		free(w->moves);
		w->moves = grown;
		snprintf(w->placement, sizeof w->placement, "%s", placement);
	} else if (l->wc < 0 && l->bc < 0) {
		return 0;
	}
	lw_state(w, &m->state);
	return 1;
}
