/*
 * Round-robin tournaments (chessgamble article 6): the pairing tables, the
 * results, the standings with Sonneborn-Berger, the crosstable and the
 * prizes in virtual credits. This is the pure core: no I/O, no clock, no
 * randomness of its own. The server stores a struct tournament (plain data,
 * copy it with '='), records each game's end with tournament_record() and
 * reads standings and prizes from it; the client draws the same data.
 *
 * Players
 *
 *   Players are numbered 0..n_players-1 in their order of registration.
 *   "From the order of registration for the tournament, no predictions can
 *   be made to the color distributions": tournament_init() maps them to the
 *   Berger table numbers 1..n_tables by a random permutation drawn from a
 *   caller-provided 64-bit seed with the generator below (splitmix64 and an
 *   unbiased Fisher-Yates shuffle). The server draws the seed when the
 *   tournament starts (from its own entropy source) and stores it; the same
 *   seed and player count always give the same tables, so tests and
 *   replays are reproducible. The generator is part of the stored format:
 *   changing it would re-pair stored tournaments.
 *
 * Pairings (Berger tables)
 *
 *   With n_tables = n_players rounded up to even, round r (1..n_tables-1)
 *   pairs table a = ((r-1) * n_tables/2) mod (n_tables-1) + 1 with table
 *   n_tables (a is White in odd rounds, Black in even ones) and, for board
 *   k = 1..n_tables/2-1, table (a-1+k) mod (n_tables-1) + 1 (White) with
 *   table (a-1-k) mod (n_tables-1) + 1 (Black): the FIDE Berger tables. With
 *   an odd number of players table n_tables is a dummy: whoever meets it
 *   sits out that round (a bye), one player per round.
 *
 *   "The games of a tournament ... start all at once": rounds are kept only
 *   for display and for the order of games[]; nothing waits for a round.
 *
 *   Colours. "The games are put together so that each player in the
 *   tournament as frequently as the white, the black stones leads."
 *     single RR, odd n_players:  every player has (n-1)/2 Whites and as
 *                                many Blacks (the dummy takes table n_tables,
 *                                the only table whose games are unbalanced).
 *     single RR, even n_players: every player has n-1 games, an odd number,
 *                                so |Whites - Blacks| = 1 exactly: the
 *                                players at tables 1..n/2 have n/2 Whites,
 *                                those at tables n/2+1..n have n/2 Blacks.
 *     double RR:                 the second cycle repeats the first with
 *                                colours swapped, so every pairing is played
 *                                once with each colour and every player has
 *                                exactly n-1 Whites and n-1 Blacks.
 *
 * Scoring (article 10) and what counts
 *
 *   A win is 1, a draw ½, a loss 0, kept as integer half-points (2/1/0).
 *   Only games with a result count. A game that ended unscored -- the game
 *   model's result "*" with termination "aborted" or "technical-failure"
 *   without forfeit -- counts as not played for both players: no points, no
 *   Sonneborn-Berger, not in "played". A technical failure with forfeit, or
 *   a game the operator declares lost or drawn (article 11), has a result
 *   and counts like any other. A bye is not a game: article 10 gives points
 *   only to "the winner of a match", every player meets every other anyway,
 *   and a bye point would inflate the opponents' scores in Sonneborn-Berger
 *   unevenly, so a bye gives no points and no Sonneborn-Berger.
 *
 *   The server may reset an unscored game to pending (TOURNAMENT_PENDING)
 *   to have it replayed; the tournament ends when no game is pending
 *   (article 6.4: "A tournament ends when all the games of the tournament
 *   is finished").
 *
 * Standings (article 6.2)
 *
 *   By points, then by Sonneborn-Berger: for each scored game, the
 *   opponent's final points if the player won, half of them if drawn,
 *   nothing if lost (per game, so in a double round robin an opponent beaten
 *   twice counts twice). Kept in quarter-points so it stays an integer.
 *   "If this is also the same, the players occupy the same place": such
 *   players share the places they cover ("2-3"), and are listed among
 *   themselves in registration order.
 *
 * Prizes (article 6.3), virtual credits only -- never money
 *
 *   Each player pays stake credits at registration; pot = stake x players.
 *   payout = pot x payout_percent / 100 is paid back, split over the first
 *   places by place_percent[] (which sums to 100; e.g. {100} or {60, 30,
 *   10}): place k's prize is payout x place_percent[k-1] / 100. Players who
 *   share places split the prizes of the places they share equally ("Profits
 *   at the same ranked players in a tournament to be divided equally among
 *   them"): two players sharing 2-3 each get (prize 2 + prize 3) / 2.
 *   Every division rounds down, and whatever the rounding leaves stays with
 *   the house, so the credits paid never exceed the pot and paid + house =
 *   pot exactly. A player with no prize "has lost his bet". The server
 *   credits the amounts when the tournament ends.
 */
#ifndef TCHESS_TOURNAMENT_H
#define TCHESS_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/error.h"
#include "tchess/game.h"

#define TOURNAMENT_PLAYERS_MIN 3
#define TOURNAMENT_PLAYERS_MAX 32
/* Tables: players rounded up to even. */
#define TOURNAMENT_TABLES_MAX (TOURNAMENT_PLAYERS_MAX + (TOURNAMENT_PLAYERS_MAX & 1))
#define TOURNAMENT_ROUNDS_MAX (2 * (TOURNAMENT_TABLES_MAX - 1))
#define TOURNAMENT_GAMES_MAX (TOURNAMENT_PLAYERS_MAX * (TOURNAMENT_PLAYERS_MAX - 1))
#define TOURNAMENT_PRIZE_PLACES_MAX 8
/* Keeps stake x players x 100 far inside int64_t. */
#define TOURNAMENT_STAKE_MAX 1000000000000LL
/* "No player": the bye of a round without one, the dummy table. */
#define TOURNAMENT_NOBODY (-1)
/* Room for a place as text, "31-32", with its NUL. */
#define TOURNAMENT_PLACE_TEXT_MAX 8

enum tournament_kind {
	TOURNAMENT_SINGLE = 1,  /* "einrundig": each pair plays once */
	TOURNAMENT_DOUBLE = 2   /* each pair plays twice, once with each colour */
};

enum tournament_outcome {
	TOURNAMENT_PENDING = 0,   /* not finished (or reset for a replay) */
	TOURNAMENT_WHITE_WINS,
	TOURNAMENT_BLACK_WINS,
	TOURNAMENT_DRAW,
	TOURNAMENT_UNSCORED       /* finished without a score: counts as not played */
};

struct tournament_game {
	int round;   /* 1-based; the second cycle continues the numbering */
	int board;   /* 1-based within the round */
	int white;   /* players, by registration index */
	int black;
	enum tournament_outcome outcome;
};

/* Optional stakes and the prize distribution; all zero means none. */
struct tournament_prizes {
	int64_t stake;                                    /* credits per player, 0..TOURNAMENT_STAKE_MAX */
	int payout_percent;                               /* share of the pot paid back, 0..100 */
	int n_places;                                     /* places with a prize, 0..TOURNAMENT_PRIZE_PLACES_MAX */
	int place_percent[TOURNAMENT_PRIZE_PLACES_MAX];   /* of the payout, each 0..100, summing to 100 */
};

struct tournament {
	enum tournament_kind kind;
	int n_players;
	int n_tables;                                   /* n_players rounded up to even */
	uint64_t seed;                                  /* the seed the tables were drawn with */
	int table_of[TOURNAMENT_PLAYERS_MAX];           /* player -> table number, 1-based */
	int player_at[TOURNAMENT_TABLES_MAX + 1];       /* table number -> player, or TOURNAMENT_NOBODY */
	int n_rounds;
	int bye[TOURNAMENT_ROUNDS_MAX + 1];             /* round -> player sitting out, or TOURNAMENT_NOBODY */
	int n_games;
	struct tournament_game games[TOURNAMENT_GAMES_MAX]; /* by round, then board */
	struct tournament_prizes prizes;
};

/* One line of the standings. */
struct tournament_standing {
	int player;        /* registration index */
	int points;        /* half-points */
	int sb;            /* Sonneborn-Berger in quarter-points */
	int played;        /* scored games */
	int wins, draws, losses;
	int place_first;   /* 1-based; equal to place_last unless the place is shared */
	int place_last;
};

/* One cell of the crosstable: the row player's game against the column
 * player in a cycle. */
struct tournament_cell {
	int game;                          /* index into games[], or -1 on the diagonal */
	enum color color;                  /* the row player's colour */
	enum tournament_outcome outcome;
	int score;                         /* the row player's half-points, or -1 if pending or unscored */
};

/* The deterministic generator of the tables: advances *state and returns
 * the next 64-bit number (splitmix64). Public so that tests and tools can
 * reproduce a draw. */
uint64_t tournament_rng_next(uint64_t *state);

/* Checks prizes (not NULL) against the limits above for n_players players:
 * n_places may not exceed n_players, and the place percentages must sum to
 * 100 when there are places (0 places needs payout_percent 0). */
enum tchess_err tournament_prizes_validate(const struct tournament_prizes *prizes, int n_players,
					   struct tchess_error *err);

/* Sets up a tournament of n_players (TOURNAMENT_PLAYERS_MIN..MAX) of the
 * given kind: draws the table numbers from seed and builds every game,
 * pending. prizes may be NULL (no stakes). On error returns
 * TCHESS_ERR_RANGE with a message and leaves t unchanged. */
enum tchess_err tournament_init(struct tournament *t, int n_players, enum tournament_kind kind, uint64_t seed,
				const struct tournament_prizes *prizes, struct tchess_error *err);

/* Records game's outcome from the game model: a result counts as such; "*"
 * with termination aborted or technical-failure is TOURNAMENT_UNSCORED;
 * any other "*" (ongoing, adjourned) is TOURNAMENT_PENDING. Returns
 * TCHESS_ERR_RANGE for a bad game index or enum. */
enum tchess_err tournament_record(struct tournament *t, int game, enum game_result result,
				  enum game_termination termination, struct tchess_error *err);

/* Sets game's outcome directly (an operator's decision, a reset to pending
 * for a replay). Returns TCHESS_ERR_RANGE for a bad game index or outcome. */
enum tchess_err tournament_set_outcome(struct tournament *t, int game, enum tournament_outcome outcome,
				       struct tchess_error *err);

/* True when no game is pending: the tournament has ended. */
bool tournament_finished(const struct tournament *t);

/* Fills out[0..n_players-1] with the standings, best first, from the games
 * finished so far (so they are provisional until the tournament ends). */
void tournament_standings(const struct tournament *t, struct tournament_standing *out);

/* Writes a standing's place ("1", "2-3") into buf like snprintf and returns
 * the length it needs. */
size_t tournament_place_format(const struct tournament_standing *s, char *buf, size_t size);

/* The game between row and col in cycle (0, or 1 in a double round robin)
 * into *cell; row == col gives the diagonal (game -1). Returns
 * TCHESS_ERR_RANGE for a bad player or cycle. */
enum tchess_err tournament_crosstable(const struct tournament *t, int row, int col, int cycle,
				      struct tournament_cell *cell, struct tchess_error *err);

/* The indexes of player's games in games[] order into out (room for max),
 * returning how many there are (n_players-1 or twice that), also when more
 * than max; 0 for a bad player. */
size_t tournament_player_games(const struct tournament *t, int player, int *out, size_t max);

/* The prize split for standings st (n_players entries as from
 * tournament_standings()) under prizes: credits[player] (n_players entries,
 * indexed by registration) and *house (may be NULL) get the amounts by the
 * rules above. Returns TCHESS_ERR_RANGE for invalid prizes. */
enum tchess_err tournament_prize_split(const struct tournament_prizes *prizes, int n_players,
				       const struct tournament_standing *st, int64_t *credits, int64_t *house,
				       struct tchess_error *err);

/* The prizes of the finished tournament t into credits[] (n_players) and
 * *house (may be NULL). Returns TCHESS_ERR_NOT_ALLOWED while a game is
 * pending: "With the completion of the tournament will be credited". */
enum tchess_err tournament_payout(const struct tournament *t, int64_t *credits, int64_t *house,
				  struct tchess_error *err);

#endif
