/*
 * Judging moves from evaluations, as Lichess does: the winning chances
 * an evaluation stands for, the class of a move (inaccuracy, mistake,
 * blunder) by how much it lowered the mover's winning chances, and the
 * accuracy of a move and of each side over a game. Pure arithmetic on
 * struct pgn_eval (White's point of view, from a [%eval] comment or an
 * engine); no engine, no curses. The formulas and thresholds are Lichess's
 * (lila, cited in analysis.c), so a game judged here reads as on Lichess.
 */
#ifndef TCHESS_CLIENT_ANALYSIS_H
#define TCHESS_CLIENT_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "tchess/bitboard.h"
#include "tchess/pgn.h"

enum analysis_judgement {
	ANALYSIS_NONE = 0,
	ANALYSIS_INACCURACY,
	ANALYSIS_MISTAKE,
	ANALYSIS_BLUNDER
};

/* Centipawns beyond which an evaluation counts as this many (Lichess's
 * Cp ceiling); a mate counts as the ceiling for accuracy. */
#define ANALYSIS_CP_CEILING 1000

/* White's winning chances for e, from -1 (Black wins) to 1: 2 / (1 +
 * exp(-0.00368208 cp)) - 1 with cp held within the ceiling; a mate is 1 or
 * -1. e must not be PGN_EVAL_NONE. */
double analysis_winning_chances(const struct pgn_eval *e);

/* The class of the move by mover that went from the position evaluated
 * before to the one evaluated after. ANALYSIS_NONE when either is
 * PGN_EVAL_NONE or the move lost too little. */
enum analysis_judgement analysis_judge(const struct pgn_eval *before, const struct pgn_eval *after, enum color mover);

/* "inaccuracy", "mistake", "blunder", or "" for ANALYSIS_NONE. */
const char *analysis_judgement_name(enum analysis_judgement j);

/* The NAG Lichess writes for j ($6 ?!, $2 ?, $4 ??), or 0. */
int analysis_judgement_nag(enum analysis_judgement j);

/* The accuracy (0 to 100) of a move that took its player's win percent
 * (0 to 100) from before to after. */
double analysis_move_accuracy(double before, double after);

/* The accuracy of each side over a game of n plies whose positions
 * 0..n (the start, then after each ply) are evaluated in evals[0..n],
 * first being the side to move at the start; a mate counts as the
 * ceiling, and the last position may have none (a mated one: it counts as
 * the one before). Returns false (nothing set) when another position has
 * no evaluation or a side made no move. */
bool analysis_game_accuracy(const struct pgn_eval *evals, size_t n, enum color first, double *white, double *black);

#endif
