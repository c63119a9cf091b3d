/*
 * Lichess's move judgements and accuracy (analysis.h). The numbers come
 * from lila, Lichess's server (github.com/lichess-org/lila):
 *
 *   - winning chances: modules/tree/src/main/WinPercent.scala,
 *     winningChances(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1, cp ceiled
 *     at +-1000 (Eval.Cp.CEILING);
 *   - judgements: modules/tree/src/main/Advice.scala, CpAdvice: a drop of
 *     the mover's winning chances of at least 0.3 is a blunder, 0.2 a
 *     mistake, 0.1 an inaccuracy; MateAdvice: a mate against the mover
 *     that was not there ("checkmate is now unavoidable") is an
 *     inaccuracy when the mover stood below -999 cp before, a mistake
 *     below -700, else a blunder; a mate of the mover's lost ("lost forced
 *     checkmate sequence") is an inaccuracy when the mover still stands
 *     above 999 cp, a mistake above 700, else a blunder;
 *   - accuracy: modules/analyse/src/main/AccuracyPercent.scala, a move's
 *     103.1668100711649 * exp(-0.04354415386753951 * drop) -
 *     3.166924740191411, plus 1 for the uncertainty of the analysis, held
 *     within 0..100, where drop is the fall of the mover's win percent
 *     (50 + 50 * winning chances); a side's, the mean of the
 *     volatility-weighted mean and the harmonic mean of its moves'
 *     accuracies, each move weighted by the standard deviation (held
 *     within 0.5..12) of the win percents in a window of n/10 plies (2..8)
 *     around it (population deviation, and an accuracy below 1 counted as
 *     1 in the harmonic mean: modules/common/src/main/Maths.scala).
 *     https://lichess.org/page/accuracy explains it.
 */
#include <math.h>

#include "analysis.h"

/* Centipawns held within the ceiling; a mate as the ceiling, signed. */
static double analysis_cp(const struct pgn_eval *e)
{
	if (e->kind == PGN_EVAL_MATE)
		return e->value >= 0 ? ANALYSIS_CP_CEILING : -ANALYSIS_CP_CEILING;
	double cp = e->value;
	if (cp > ANALYSIS_CP_CEILING)
		cp = ANALYSIS_CP_CEILING;
	if (cp < -ANALYSIS_CP_CEILING)
		cp = -ANALYSIS_CP_CEILING;
	return cp;
}

static double analysis_chances_cp(double cp)
{
	return 2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0;
}

double analysis_winning_chances(const struct pgn_eval *e)
{
	if (e->kind == PGN_EVAL_MATE)
		return e->value >= 0 ? 1.0 : -1.0;
	return analysis_chances_cp(analysis_cp(e));
}

/* The mover's judgement of a mate found or lost (Advice.scala's
 * MateAdvice); values from the mover's point of view. */
static enum analysis_judgement analysis_judge_mate(const struct pgn_eval *before, const struct pgn_eval *after,
						   int sign)
{
	bool mate_before = before->kind == PGN_EVAL_MATE, mate_after = after->kind == PGN_EVAL_MATE;
	long vb = sign * (long)before->value, va = sign * (long)after->value;
	/* A mate in 0 (the mover is mated) counts as against the mover. */
	bool for_before = mate_before && vb > 0, against_after = mate_after && va <= 0;
	if (!mate_before && against_after) {
		if (vb < -999)
			return ANALYSIS_INACCURACY;
		return vb < -700 ? ANALYSIS_MISTAKE : ANALYSIS_BLUNDER;
	}
	if (for_before && (!mate_after || against_after)) {
		long cp = mate_after ? 0 : va;
		if (cp > 999)
			return ANALYSIS_INACCURACY;
		return cp > 700 ? ANALYSIS_MISTAKE : ANALYSIS_BLUNDER;
	}
	return ANALYSIS_NONE;
}

enum analysis_judgement analysis_judge(const struct pgn_eval *before, const struct pgn_eval *after, enum color mover)
{
	if (before->kind == PGN_EVAL_NONE || after->kind == PGN_EVAL_NONE)
		return ANALYSIS_NONE;
	int sign = mover == WHITE ? 1 : -1;
	if (before->kind == PGN_EVAL_CP && after->kind == PGN_EVAL_CP) {
		double drop = sign * (analysis_winning_chances(before) - analysis_winning_chances(after));
		if (drop >= 0.3)
			return ANALYSIS_BLUNDER;
		if (drop >= 0.2)
			return ANALYSIS_MISTAKE;
		return drop >= 0.1 ? ANALYSIS_INACCURACY : ANALYSIS_NONE;
	}
	return analysis_judge_mate(before, after, sign);
}

const char *analysis_judgement_name(enum analysis_judgement j)
{
	switch (j) {
	case ANALYSIS_INACCURACY: return "inaccuracy";
	case ANALYSIS_MISTAKE: return "mistake";
	case ANALYSIS_BLUNDER: return "blunder";
	default: return "";
	}
}

int analysis_judgement_nag(enum analysis_judgement j)
{
	switch (j) {
	case ANALYSIS_INACCURACY: return 6;
	case ANALYSIS_MISTAKE: return 2;
	case ANALYSIS_BLUNDER: return 4;
	default: return 0;
	}
}

double analysis_move_accuracy(double before, double after)
{
	if (after >= before)
		return 100.0;
	double a = 103.1668100711649 * exp(-0.04354415386753951 * (before - after)) - 3.166924740191411 + 1.0;
	return a > 100.0 ? 100.0 : a < 0.0 ? 0.0 : a;
}

/* The population standard deviation of v[0..n). */
static double analysis_stddev(const double *v, size_t n)
{
	double mean = 0, var = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	return sqrt(var / (double)n);
}

bool analysis_game_accuracy(const struct pgn_eval *evals, size_t n, enum color first, double *white, double *black)
{
	if (n < 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (evals[i].kind == PGN_EVAL_NONE)
			return false;
	/* A mated position has no evaluation (as on Lichess): the mating
	 * move lost nothing, so it counts as the position before. */
	struct pgn_eval last = evals[n].kind == PGN_EVAL_NONE ? evals[n - 1] : evals[n];
	/* White's win percents, position by position. */
	size_t len = n + 1, ws = n / 10;
	ws = ws < 2 ? 2 : ws > 8 ? 8 : ws;
	if (ws > len)
		ws = len;
	double sum_w[2] = { 0, 0 }, sum_aw[2] = { 0, 0 }, sum_inv[2] = { 0, 0 };
	size_t moves[2] = { 0, 0 };
	for (size_t i = 0; i + 1 < len; i++) {
		/* The first ws - 2 moves share the first window, as in lila. */
		size_t start = i + 2 >= ws ? i + 2 - ws : 0;
		double win[8];
		for (size_t k = 0; k < ws; k++)
			win[k] = 50.0 + 50.0 * analysis_chances_cp(analysis_cp(start + k == n ? &last : &evals[start + k]));
		double weight = analysis_stddev(win, ws);
		weight = weight < 0.5 ? 0.5 : weight > 12 ? 12 : weight;
		double prev = 50.0 + 50.0 * analysis_chances_cp(analysis_cp(&evals[i]));
		double next = 50.0 + 50.0 * analysis_chances_cp(analysis_cp(i + 1 == n ? &last : &evals[i + 1]));
		int side = (int)((i + (first == BLACK)) % 2); /* 0 White, 1 Black */
		double acc = side == 0 ? analysis_move_accuracy(prev, next)
				       : analysis_move_accuracy(100.0 - prev, 100.0 - next);
		sum_w[side] += weight;
		sum_aw[side] += acc * weight;
		/* lila's harmonic mean counts an accuracy below 1 as 1. */
		sum_inv[side] += 1.0 / (acc < 1.0 ? 1.0 : acc);
		moves[side]++;
	}
	if (!moves[0] || !moves[1])
		return false;
	*white = (sum_aw[0] / sum_w[0] + (double)moves[0] / sum_inv[0]) / 2.0;
	*black = (sum_aw[1] / sum_w[1] + (double)moves[1] / sum_inv[1]) / 2.0;
	return true;
}
