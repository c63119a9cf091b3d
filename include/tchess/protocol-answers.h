/*
 * The server's answers the client reads, as plain structs: the
 * tournament list and one tournament (GET /v1/tournaments[/ID], and the
 * answers of register and withdraw), the player's games (GET
 * /v1/me/games), vacations (GET and POST /v1/me/vacations) and credits
 * (GET /v1/me). The wire shapes are in tchess-protocol(7). Each shape is
 * one codec table in protocol-answers.c that both the server's encoder
 * and the client's decoder walk. Decoding skips members it does not know
 * (an older client reads a newer server) and is strict about the ones it
 * reads (kind, length, count; null only where the manual allows it):
 * each decoder returns 0, or -1 with "unexpected answer from the server:
 * WHAT: WHY" in err.
 */
#ifndef TCHESS_PROTOCOL_ANSWERS_H
#define TCHESS_PROTOCOL_ANSWERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/protocol-tournament.h"
#include "tchess/protocol.h"
#include "tchess/tournament.h"

#define PROTOCOL_TOURNAMENT_ID_MAX (PROTOCOL_GAME_ID_MAX + 1)
#define PROTOCOL_TOURNAMENT_PLACES_MAX TOURNAMENT_PRIZE_PLACES_MAX


/* The asking player, in a SUMMARY. */
struct protocol_tournament_you {
	int64_t player;
	int64_t credits;            /* -1 when absent */
	bool registered;
};

/* A tournament as listed (SUMMARY of tchess-protocol(7)). */
struct protocol_tournament_summary {
	char id[PROTOCOL_TOURNAMENT_ID_MAX];
	char kind[24];              /* "round-robin", "double-round-robin" */
	int64_t players, registered;
	char tc[PROTOCOL_TC_MAX];
	char ruleset[2 * PROTOCOL_WORD_MAX];
	char status[PROTOCOL_STATUS_MAX + 1]; /* "open", "running", "finished" */
	int64_t stake, pot, payout_percent;
	size_t n_places;
	int64_t places[PROTOCOL_TOURNAMENT_PLACES_MAX];
	int64_t creator;
	int64_t created_ms, started_ms, finished_ms; /* 0 (null): not yet */
	char seed[24];              /* decimal; "" (null) until it starts */
	bool has_you;               /* "you" was in the answer */
	struct protocol_tournament_you you;
};

struct protocol_tournament_standing {
	char place[TOURNAMENT_PLACE_TEXT_MAX]; /* "1", "2-3" */
	int64_t place_first, place_last;
	int64_t player;
	char name[PROTOCOL_NAME_MAX + 1];
	int64_t half_points, sb_quarters; /* "points" and "sb" are written from these */
	int64_t played, wins, draws, losses;
	int64_t prize;              /* -1 (null): none (yet) */
};

/* A crosstable cell from the row player's side. */
struct protocol_tournament_cell {
	bool game;                  /* false (null) on the diagonal */
	char id[PROTOCOL_TOURNAMENT_ID_MAX];
	char color[8];
	char outcome[12];           /* "pending", "1-0", "0-1", "1/2-1/2", "unscored" */
	int64_t score;              /* 2, 1, 0 half-points; -1 (null) pending or unscored */
};

struct protocol_tournament_game {
	int64_t index, round, board;
	char id[PROTOCOL_TOURNAMENT_ID_MAX];
	int64_t white, black;
	char outcome[12];
};

struct protocol_tournament_bye {
	int64_t round, player;
};

/* A whole tournament: the summary and the parts in parts
 * (PROTOCOL_TOURNAMENT_ENTRANTS ...: what the answer held, what the
 * encoder writes; the games part is "games" and "byes"). */
struct protocol_tournament_view {
	struct protocol_tournament_summary sum;
	unsigned parts;
	size_t n_entrants;
	struct protocol_tournament_entrant entrants[TOURNAMENT_PLAYERS_MAX];
	size_t n_standings;
	struct protocol_tournament_standing standings[TOURNAMENT_PLAYERS_MAX];
	int64_t cycles;             /* 1 or 2; 0: no crosstable */
	size_t n_order;             /* players in rows and columns (standings order) */
	int64_t order[TOURNAMENT_PLAYERS_MAX];
	struct protocol_tournament_cell cells[TOURNAMENT_PLAYERS_MAX][TOURNAMENT_PLAYERS_MAX][2];
	size_t n_games;
	struct protocol_tournament_game *games; /* malloc'd */
	size_t n_byes;
	struct protocol_tournament_bye byes[2 * TOURNAMENT_PLAYERS_MAX];
};

/* Parses GET /v1/tournaments into *out (malloc'd, *n of them). Returns 0,
 * or -1 with a message. */
int protocol_tournament_list_decode(const char *json, size_t len, struct protocol_tournament_summary **out,
				    size_t *n, char *err, size_t errsize);
/* {"tournaments": [SUMMARY...]}. */
char *protocol_tournament_summaries_encode(const struct protocol_tournament_summary *s, size_t n);
/* Parses a TOURNAMENT (any parts) into t (protocol_tournament_view_fini
 * frees). Returns 0, or -1 with a message (t is then empty). */
int protocol_tournament_view_decode(const char *json, size_t len, struct protocol_tournament_view *t, char *err,
				    size_t errsize);
/* The summary and the parts in t->parts, as JSON the caller frees. */
char *protocol_tournament_view_encode(const struct protocol_tournament_view *t);
void protocol_tournament_view_fini(struct protocol_tournament_view *t);

/* GET /v1/me/games, into the server's own struct protocol_my_game
 * (protocol-tournament.h). */
struct protocol_my_games {
	struct protocol_my_game *games; /* malloc'd */
	size_t n;
	int64_t now_ms;
};
/* Parses the answer of GET /v1/me/games. Returns 0, or -1 with a message
 * in err (out is then empty). protocol_my_games_fini frees. */
int protocol_my_games_decode(const char *json, size_t len, struct protocol_my_games *out, char *err,
			     size_t errsize);
void protocol_my_games_fini(struct protocol_my_games *g);

/* GET /v1/me/games/finished: a page of the player's finished games,
 * newest first (tchess-protocol(7)). */
#define PROTOCOL_FINISHED_LIMIT_MAX 100
#define PROTOCOL_CURSOR_MAX 64
struct protocol_opponent {
	int64_t player; /* 0: none (an engine) */
	char name[PROTOCOL_NAME_MAX + 1];
};
struct protocol_finished_game {
	char id[PROTOCOL_GAME_ID_MAX + 1];
	char result[8];                      /* "1-0", "0-1", "1/2-1/2" */
	char termination[40];                /* "checkmate", "resignation" ... */
	char color[PROTOCOL_WORD_MAX];       /* the player's */
	struct protocol_opponent opponent;   /* null on the wire for an engine */
	int64_t engine_level;                /* the engine opponent's level; 0 (null) for a human */
	char tc[PROTOCOL_TC_MAX];
	char ruleset[PROTOCOL_WORD_MAX * 2];
	int64_t plies;
	int64_t ended_ms;
};
struct protocol_finished_games {
	struct protocol_finished_game *games; /* malloc'd */
	size_t n;
	char next[PROTOCOL_CURSOR_MAX]; /* the before= of the next page; "" (null) at the end */
};
char *protocol_finished_games_encode(const struct protocol_finished_games *g);
/* Returns 0, or -1 with a message in err (out is then empty).
 * protocol_finished_games_fini frees. */
int protocol_finished_games_decode(const char *json, size_t len, struct protocol_finished_games *out, char *err,
				   size_t errsize);
void protocol_finished_games_fini(struct protocol_finished_games *g);

/* GET /v1/me/vacations: the bookings and allowances, in the server's
 * structs protocol_vacation and protocol_allowance; the server lists at
 * most PROTOCOL_VACATIONS_MAX bookings. */
#define PROTOCOL_VACATIONS_MAX 256
#define PROTOCOL_ALLOWANCES_MAX 4

struct protocol_vacation_list {
	struct protocol_vacation v[PROTOCOL_VACATIONS_MAX];
	size_t n;
	struct protocol_allowance allowance[PROTOCOL_ALLOWANCES_MAX];
	size_t n_allowance;
	bool on_vacation;
};

/* Parses GET /v1/me/vacations. Returns 0 or -1 with a message. */
int protocol_vacation_list_decode(const char *json, size_t len, struct protocol_vacation_list *out, char *err,
				  size_t errsize);
/* Parses one booking (the answer of POST /v1/me/vacations). */
int protocol_vacation_booking_decode(const char *json, size_t len, struct protocol_vacation *out, char *err,
				     size_t errsize);
/* The "credits" of GET /v1/me (0 when absent). */
int protocol_credits_decode(const char *json, size_t len, int64_t *credits, char *err, size_t errsize);

#endif
