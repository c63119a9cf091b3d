/*
 * Undo games' provisional moves; see tchess/takeback.h. The committed game
 * is never touched until "done", so a take-back needs no unmake and a
 * refused "done" leaves everything as it was.
 */
#include <string.h>

#include "tchess/movegen.h"
#include "tchess/notation.h"
#include "tchess/takeback.h"

static const char *const side_names[2] = { "white", "black" };

void takeback_init(struct takeback_turn *t)
{
	memset(t, 0, sizeof *t);
	t->pending = MOVE_NONE;
	t->color = GAME_NOBODY;
}

void takeback_clear(struct takeback_turn *t)
{
	takeback_init(t);
}

enum tchess_err takeback_move(struct takeback_turn *t, const struct game *g, enum color who, move m, int64_t at_ms,
			      struct tchess_error *err)
{
	if ((unsigned)who > BLACK)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no such colour %d", (int)who);
	if (g->status == GAME_OVER)
		return tchess_error_set(err, TCHESS_ERR_GAME_OVER, 0, "the game is over");
	if (g->status == GAME_ADJOURNED)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the game is adjourned");
	if (g->pos.side != who)
		return tchess_error_set(err, TCHESS_ERR_WRONG_SIDE, 0, "it is %s's move, not %s's",
					side_names[g->pos.side], side_names[who]);
	if (takeback_pending(t))
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"a provisional move stands: take it back or press done");
	if (!movegen_is_legal(&g->pos, m)) {
		char why[120];
		notation_explain_illegal(&g->pos, move_from(m), move_to(m), why, sizeof why);
		if (!strcmp(why, "the move is legal"))
			strcpy(why, "that move is not encoded as a legal move here");
		return tchess_error_set(err, TCHESS_ERR_ILLEGAL, 0, "illegal move: %s", why);
	}
	t->pending = m;
	t->color = who;
	t->ply = g->n_plies;
	t->made_ms = at_ms;
	return TCHESS_OK;
}

/* The provisional move of who's, for this game's current turn. */
static enum tchess_err check_pending(const struct takeback_turn *t, const struct game *g, enum color who,
				     struct tchess_error *err)
{
	if (!takeback_pending(t) || t->color != (int)who || t->ply != g->n_plies)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s has no provisional move",
					(unsigned)who <= BLACK ? side_names[who] : "nobody");
	return TCHESS_OK;
}

enum tchess_err takeback_take_back(struct takeback_turn *t, const struct game *g, enum color who,
				   struct tchess_error *err)
{
	enum tchess_err e = check_pending(t, g, who, err);
	if (e)
		return e;
	if (g->status != GAME_ONGOING)
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "the game is not ongoing");
	t->pending = MOVE_NONE;
	t->color = GAME_NOBODY;
	t->takebacks++;
	return TCHESS_OK;
}

enum tchess_err takeback_done(struct takeback_turn *t, struct game *g, enum color who, int64_t at_ms,
			      int64_t clock_ms, struct tchess_error *err)
{
	enum tchess_err e = check_pending(t, g, who, err);
	if (e)
		return e;
	if ((e = game_play(g, who, t->pending, at_ms, clock_ms, err)))
		return e;
	takeback_clear(t);
	return TCHESS_OK;
}

void takeback_position(const struct takeback_turn *t, const struct game *g, struct position *out)
{
	*out = g->pos;
	if (takeback_pending(t) && t->ply == g->n_plies) {
		struct undo u;
		position_make(out, t->pending, &u);
	}
}
