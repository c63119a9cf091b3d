/*
 * Conversion between a PGN game (the file format's view: tags, SAN, comments,
 * clocks) and a game (the rules' view: history, status, result). Reading a
 * PGN into a game replays every move through the game rules, so the result
 * is what the rules say, not what the file claims.
 */
#include <stdio.h>

#include "tchess/game.h"
#include "tchess/pgn.h"

enum tchess_err pgn_game_to_game(const struct pgn_game *pg, const struct ruleset *rules, struct game *g,
				 size_t *failed_ply, struct tchess_error *err)
{
	enum tchess_err rc = game_init(g, &pg->start, rules, err);
	if (failed_ply)
		*failed_ply = 0;
	if (rc != TCHESS_OK)
		return rc;
	for (size_t i = 0; i < pg->n_moves; i++) {
		const struct pgn_move *pm = &pg->moves[i];
		char san[SAN_MAX];
		if (failed_ply)
			*failed_ply = i + 1;
		if (pm->m == MOVE_NONE)
			return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
						"ply %zu is a null move, which a game cannot replay", i + 1);
		if (game_is_over(g)) {
			snprintf(san, sizeof san, "%s", pm->san);
			return tchess_error_set(err, TCHESS_ERR_GAME_OVER, 0,
						"ply %zu (%s) comes after the game ended by %s", i + 1, san,
						game_termination_str(g->termination));
		}
		rc = game_play(g, game_side_to_move(g), pm->m, 0, pm->clock_ms, err);
		if (rc != TCHESS_OK)
			return rc;
	}
	if (failed_ply)
		*failed_ply = 0;
	return TCHESS_OK;
}

bool pgn_game_rules_end(const struct pgn_game *pg, const struct ruleset *rules, size_t *ply,
			enum game_termination *t)
{
	struct game g;
	struct tchess_error err;
	size_t failed = 0;
	bool ended = pgn_game_to_game(pg, rules, &g, &failed, &err) == TCHESS_ERR_GAME_OVER && failed > 0;
	if (ended) {
		*ply = failed - 1;
		if (t)
			*t = g.termination;
	}
	game_fini(&g);
	return ended;
}

enum tchess_err pgn_game_from_game(const struct game *g, struct pgn_game *pg, struct tchess_error *err)
{
	enum tchess_err rc;
	pgn_game_init(pg);
	pg->start = g->start;
	for (size_t i = 0; i < g->n_plies; i++) {
		if ((rc = pgn_game_add_move(pg, g->plies[i].m)) != TCHESS_OK)
			goto fail;
		pg->moves[i].clock_ms = g->plies[i].clock_ms >= 0 ? g->plies[i].clock_ms : -1;
	}
	snprintf(pg->result, sizeof pg->result, "%s", game_result_str(g->result));
	if ((rc = pgn_game_set_tag(pg, "Result", pg->result)) != TCHESS_OK)
		goto fail;
	if (g->termination != GAME_TERM_NONE && (rc = pgn_set_termination(pg, g->termination, g->result)) != TCHESS_OK)
		goto fail;
	return TCHESS_OK;
fail:
	pgn_game_fini(pg);
	return tchess_error_set(err, rc, 0, "cannot convert the game to PGN: %s", tchess_strerror(rc));
}
