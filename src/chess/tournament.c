/*
 * Round-robin tournaments: Berger pairings under a seeded permutation,
 * results, standings with Sonneborn-Berger, the crosstable and the prize
 * split (see tchess/tournament.h for the rules and the decisions).
 *
 * Everything is computed from the games[] array on demand; the struct holds
 * no derived totals, so a stored tournament cannot disagree with itself.
 */
#include <stdio.h>
#include <string.h>

#include "tchess/tournament.h"

uint64_t tournament_rng_next(uint64_t *state)
{
	/* splitmix64: a Weyl sequence through a bijective mixer, so every seed
	 * (zero included) gives a full-period, well-mixed stream. */
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform number in [0, bound) for bound >= 1: draws above the largest
 * multiple of bound are rejected so that no value is favoured. */
static uint64_t rng_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;
	do
		x = tournament_rng_next(state);
	while (x >= limit);
	return x % bound;
}

enum tchess_err tournament_prizes_validate(const struct tournament_prizes *p, int n_players,
					   struct tchess_error *err)
{
	if (p->stake < 0 || p->stake > TOURNAMENT_STAKE_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "stake %lld is outside 0..%lld",
					(long long)p->stake, TOURNAMENT_STAKE_MAX);
	if (p->payout_percent < 0 || p->payout_percent > 100)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "payout share %d%% is outside 0..100",
					p->payout_percent);
	if (p->n_places < 0 || p->n_places > TOURNAMENT_PRIZE_PLACES_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "%d prize places: at most %d", p->n_places,
					TOURNAMENT_PRIZE_PLACES_MAX);
	if (p->n_places > n_players)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "%d prize places for %d players", p->n_places,
					n_players);
	if (p->n_places == 0) {
		if (p->payout_percent != 0)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0,
						"a payout of %d%% needs at least one prize place", p->payout_percent);
		return TCHESS_OK;
	}
	int sum = 0;
	for (int i = 0; i < p->n_places; i++) {
		if (p->place_percent[i] < 0 || p->place_percent[i] > 100)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "place %d: %d%% is outside 0..100", i + 1,
						p->place_percent[i]);
		sum += p->place_percent[i];
	}
	if (sum != 100)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "the place shares sum to %d%%, not 100%%", sum);
	return TCHESS_OK;
}

/* Appends the games of one Berger round (1-based round r of a table of n)
 * as round number shown_round, colours swapped if swap. */
static void add_round(struct tournament *t, int r, int shown_round, bool swap)
{
	int n = t->n_tables;
	int a = ((r - 1) * (n / 2)) % (n - 1) + 1;
	int board = 0;

	t->bye[shown_round] = TOURNAMENT_NOBODY;
	for (int k = 0; k < n / 2; k++) {
		int w, b;
		if (k == 0) {
			w = r % 2 ? a : n;
			b = r % 2 ? n : a;
		} else {
			w = (a - 1 + k) % (n - 1) + 1;
			b = (a - 1 - k + (n - 1)) % (n - 1) + 1;
		}
		int pw = t->player_at[w], pb = t->player_at[b];
		if (pw == TOURNAMENT_NOBODY || pb == TOURNAMENT_NOBODY) {
			t->bye[shown_round] = pw == TOURNAMENT_NOBODY ? pb : pw;
			continue;
		}
		struct tournament_game *g = &t->games[t->n_games++];
		g->round = shown_round;
		g->board = ++board;
		g->white = swap ? pb : pw;
		g->black = swap ? pw : pb;
		g->outcome = TOURNAMENT_PENDING;
	}
}

enum tchess_err tournament_init(struct tournament *t, int n_players, enum tournament_kind kind, uint64_t seed,
				const struct tournament_prizes *prizes, struct tchess_error *err)
{
	static const struct tournament_prizes no_prizes;
	enum tchess_err rc;

	if (n_players < TOURNAMENT_PLAYERS_MIN || n_players > TOURNAMENT_PLAYERS_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "%d players: a round robin needs %d..%d",
					n_players, TOURNAMENT_PLAYERS_MIN, TOURNAMENT_PLAYERS_MAX);
	if (kind != TOURNAMENT_SINGLE && kind != TOURNAMENT_DOUBLE)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "unknown tournament kind %d", (int)kind);
	if (!prizes)
		prizes = &no_prizes;
	rc = tournament_prizes_validate(prizes, n_players, err);
	if (rc != TCHESS_OK)
		return rc;

	/* Nothing can fail from here on, so t is only written now. */
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->n_players = n_players;
	t->n_tables = n_players + (n_players & 1);
	t->seed = seed;
	t->prizes = *prizes;

	/* Fisher-Yates over the table numbers: perm[i] is player i's table.
	 * The dummy table, if any, is always the last one (n_tables), where
	 * it keeps every real player's colours balanced. */
	int perm[TOURNAMENT_PLAYERS_MAX];
	uint64_t state = seed;
	for (int i = 0; i < n_players; i++)
		perm[i] = i + 1;
	for (int i = n_players - 1; i > 0; i--) {
		int j = (int)rng_below(&state, (uint64_t)i + 1);
		int tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
	for (int i = 0; i <= t->n_tables; i++)
		t->player_at[i] = TOURNAMENT_NOBODY;
	for (int i = 0; i < n_players; i++) {
		t->table_of[i] = perm[i];
		t->player_at[perm[i]] = i;
	}

	int per_cycle = t->n_tables - 1;
	for (int i = 0; i <= TOURNAMENT_ROUNDS_MAX; i++)
		t->bye[i] = TOURNAMENT_NOBODY;
	for (int r = 1; r <= per_cycle; r++)
		add_round(t, r, r, false);
	if (kind == TOURNAMENT_DOUBLE)
		for (int r = 1; r <= per_cycle; r++)
			add_round(t, r, per_cycle + r, true);
	t->n_rounds = per_cycle * (int)kind;
	return TCHESS_OK;
}

enum tchess_err tournament_set_outcome(struct tournament *t, int game, enum tournament_outcome outcome,
				       struct tchess_error *err)
{
	if (game < 0 || game >= t->n_games)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no game %d in this tournament (0..%d)", game,
					t->n_games - 1);
	if ((unsigned)outcome > TOURNAMENT_UNSCORED)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "unknown outcome %d", (int)outcome);
	t->games[game].outcome = outcome;
	return TCHESS_OK;
}

enum tchess_err tournament_record(struct tournament *t, int game, enum game_result result,
				  enum game_termination termination, struct tchess_error *err)
{
	enum tournament_outcome o;

	if ((unsigned)termination >= GAME_TERM_COUNT)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "unknown termination %d", (int)termination);
	switch (result) {
	case GAME_RESULT_WHITE_WINS:
		o = TOURNAMENT_WHITE_WINS;
		break;
	case GAME_RESULT_BLACK_WINS:
		o = TOURNAMENT_BLACK_WINS;
		break;
	case GAME_RESULT_DRAW:
		o = TOURNAMENT_DRAW;
		break;
	case GAME_RESULT_NONE:
		o = termination == GAME_TERM_ABORTED || termination == GAME_TERM_TECHNICAL_FAILURE
			    ? TOURNAMENT_UNSCORED
			    : TOURNAMENT_PENDING;
		break;
	default:
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "unknown result %d", (int)result);
	}
	return tournament_set_outcome(t, game, o, err);
}

bool tournament_finished(const struct tournament *t)
{
	for (int i = 0; i < t->n_games; i++)
		if (t->games[i].outcome == TOURNAMENT_PENDING)
			return false;
	return true;
}

/* White's half-points in a scored game, or -1 if it does not count. */
static int white_score(enum tournament_outcome o)
{
	switch (o) {
	case TOURNAMENT_WHITE_WINS:
		return 2;
	case TOURNAMENT_DRAW:
		return 1;
	case TOURNAMENT_BLACK_WINS:
		return 0;
	default:
		return -1;
	}
}

/* Better first: points, then Sonneborn-Berger, then registration order
 * (which only orders the display of a shared place). */
static bool standing_before(const struct tournament_standing *a, const struct tournament_standing *b)
{
	if (a->points != b->points)
		return a->points > b->points;
	if (a->sb != b->sb)
		return a->sb > b->sb;
	return a->player < b->player;
}

void tournament_standings(const struct tournament *t, struct tournament_standing *out)
{
	struct tournament_standing s[TOURNAMENT_PLAYERS_MAX];
	int n = t->n_players;

	memset(s, 0, sizeof s);
	for (int p = 0; p < n; p++)
		s[p].player = p;
	for (int i = 0; i < t->n_games; i++) {
		const struct tournament_game *g = &t->games[i];
		int ws = white_score(g->outcome);
		if (ws < 0)
			continue;
		s[g->white].points += ws;
		s[g->black].points += 2 - ws;
		s[g->white].played++;
		s[g->black].played++;
		if (ws == 1) {
			s[g->white].draws++;
			s[g->black].draws++;
		} else {
			s[ws ? g->white : g->black].wins++;
			s[ws ? g->black : g->white].losses++;
		}
	}
	/* Sonneborn-Berger needs everyone's final points first. An opponent's
	 * P half-points are 2P quarter-points for a win, P for a draw. */
	for (int i = 0; i < t->n_games; i++) {
		const struct tournament_game *g = &t->games[i];
		int ws = white_score(g->outcome);
		if (ws < 0)
			continue;
		s[g->white].sb += ws * s[g->black].points;
		s[g->black].sb += (2 - ws) * s[g->white].points;
	}
	/* Insertion sort: at most 32 entries. */
	for (int i = 1; i < n; i++) {
		struct tournament_standing x = s[i];
		int j = i;
		while (j > 0 && standing_before(&x, &s[j - 1])) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = x;
	}
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && s[j + 1].points == s[i].points && s[j + 1].sb == s[i].sb)
			j++;
		for (int k = i; k <= j; k++) {
			s[k].place_first = i + 1;
			s[k].place_last = j + 1;
		}
		i = j + 1;
	}
	memcpy(out, s, (size_t)n * sizeof *s);
}

size_t tournament_place_format(const struct tournament_standing *s, char *buf, size_t size)
{
	int len;
	if (s->place_first == s->place_last)
		len = snprintf(buf, size, "%d", s->place_first);
	else
		len = snprintf(buf, size, "%d-%d", s->place_first, s->place_last);
	return len < 0 ? 0 : (size_t)len;
}

enum tchess_err tournament_crosstable(const struct tournament *t, int row, int col, int cycle,
				      struct tournament_cell *cell, struct tchess_error *err)
{
	if (row < 0 || row >= t->n_players || col < 0 || col >= t->n_players)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no player %d or %d in this tournament", row, col);
	if (cycle < 0 || cycle >= (int)t->kind)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no cycle %d in this tournament", cycle);
	cell->game = -1;
	cell->color = WHITE;
	cell->outcome = TOURNAMENT_PENDING;
	cell->score = -1;
	if (row == col)
		return TCHESS_OK;
	int per_cycle = t->n_tables - 1;
	for (int i = 0; i < t->n_games; i++) {
		const struct tournament_game *g = &t->games[i];
		if ((g->round - 1) / per_cycle != cycle)
			continue;
		if (!((g->white == row && g->black == col) || (g->white == col && g->black == row)))
			continue;
		int ws = white_score(g->outcome);
		cell->game = i;
		cell->color = g->white == row ? WHITE : BLACK;
		cell->outcome = g->outcome;
		cell->score = ws < 0 ? -1 : g->white == row ? ws : 2 - ws;
		return TCHESS_OK;
	}
	/* Every pair has a game in every cycle; reaching here is a corrupt
	 * struct, which is still reported rather than trusted. */
	return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "no game between players %d and %d", row, col);
}

size_t tournament_player_games(const struct tournament *t, int player, int *out, size_t max)
{
	size_t n = 0;
	if (player < 0 || player >= t->n_players)
		return 0;
	for (int i = 0; i < t->n_games; i++) {
		if (t->games[i].white != player && t->games[i].black != player)
			continue;
		if (n < max)
			out[n] = i;
		n++;
	}
	return n;
}

enum tchess_err tournament_prize_split(const struct tournament_prizes *p, int n_players,
				       const struct tournament_standing *st, int64_t *credits, int64_t *house,
				       struct tchess_error *err)
{
	if (n_players < 1 || n_players > TOURNAMENT_PLAYERS_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "%d players", n_players);
	enum tchess_err rc = tournament_prizes_validate(p, n_players, err);
	if (rc != TCHESS_OK)
		return rc;
	/* The standings must cover the places 1..n_players as disjoint
	 * groups: every place is claimed by exactly as many players as the
	 * group that shares it has places. That is what keeps the sum of the
	 * shares within the payout. */
	int cover[TOURNAMENT_PLAYERS_MAX + 1] = {0};
	bool seen[TOURNAMENT_PLAYERS_MAX] = {false};
	for (int i = 0; i < n_players; i++) {
		if (st[i].player < 0 || st[i].player >= n_players || seen[st[i].player] || st[i].place_first < 1 ||
		    st[i].place_last < st[i].place_first || st[i].place_last > n_players)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "standing %d is malformed", i);
		seen[st[i].player] = true;
		for (int k = st[i].place_first; k <= st[i].place_last; k++)
			cover[k]++;
	}
	for (int i = 0; i < n_players; i++)
		for (int k = st[i].place_first; k <= st[i].place_last; k++)
			if (cover[k] != st[i].place_last - st[i].place_first + 1)
				return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "the standings' places overlap at %d",
							k);

	int64_t pot = p->stake * n_players;
	int64_t payout = pot * p->payout_percent / 100;
	int64_t prize[TOURNAMENT_PLAYERS_MAX + 1] = {0}; /* by place, 1-based */
	for (int k = 0; k < p->n_places; k++)
		prize[k + 1] = payout * p->place_percent[k] / 100;

	int64_t paid = 0;
	for (int i = 0; i < n_players; i++)
		credits[i] = 0;
	for (int i = 0; i < n_players; i++) {
		int64_t share = 0;
		for (int k = st[i].place_first; k <= st[i].place_last; k++)
			share += prize[k];
		share /= st[i].place_last - st[i].place_first + 1;
		credits[st[i].player] = share;
		paid += share;
	}
	/* Shares round down, groups are disjoint and the place percentages
	 * sum to 100, so paid <= payout <= pot. */
	if (house)
		*house = pot - paid;
	return TCHESS_OK;
}

enum tchess_err tournament_payout(const struct tournament *t, int64_t *credits, int64_t *house,
				  struct tchess_error *err)
{
	struct tournament_standing st[TOURNAMENT_PLAYERS_MAX];

	if (!tournament_finished(t))
		return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0,
					"the tournament has games still pending; prizes are credited at its end");
	tournament_standings(t, st);
	return tournament_prize_split(&t->prizes, t->n_players, st, credits, house, err);
}
