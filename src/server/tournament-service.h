/*
 * The tournament service: round robins (chessgamble article 6) on top of
 * the game service. A tournament is rows in the store; its pairings,
 * results, standings and prizes are the pure core's (tchess/tournament.h),
 * rebuilt from those rows whenever they are needed, so nothing here is
 * kept in memory.
 *
 * Life cycle. Created "open"; players register (paying the stake in
 * virtual credits) or withdraw (getting it back) until the announced
 * number have registered. The registration that fills it starts it in the
 * same transaction: the seed of the tables is drawn, and every game is
 * created at once through the game service with White to move. When a
 * game ends, the game service's "ended" hook records its result in the
 * game's own transaction; the one that finishes the last game ends the
 * tournament and credits the prizes. Also the vacation hook: a starting
 * correspondence game learns its seats' vacations here.
 *
 * Everything runs with the server lock held.
 */
#ifndef TCHESS_SERVER_TOURNAMENT_SERVICE_H
#define TCHESS_SERVER_TOURNAMENT_SERVICE_H

#include <stdint.h>

#include "game-service.h"
#include "tchess/protocol-tournament.h"

/* What the service works on, and nothing else: the store its tournaments
 * live in, and the game service that plays their games (set once that
 * exists: its hooks, below, need only the store). */
struct tournament_service {
	struct store *store;
	struct game_service *games;
};

/* The game service hooks (for game_service_new); ts outlives them. */
void tournament_service_hooks(struct tournament_service *ts, struct game_service_hooks *out);

void tournament_service_create(struct tournament_service *ts, int64_t me, const struct protocol_tournament_create_request *req,
			       struct game_outcome *out);
void tournament_service_list(struct tournament_service *ts, int64_t viewer, struct game_outcome *out);
/* parts as for protocol_tournament_encode; games_of 0 for every game. */
void tournament_service_get(struct tournament_service *ts, int64_t viewer, const char *id, unsigned parts, int64_t games_of,
			    struct game_outcome *out);
void tournament_service_register(struct tournament_service *ts, int64_t me, const char *id, struct game_outcome *out);
void tournament_service_withdraw(struct tournament_service *ts, int64_t me, const char *id, struct game_outcome *out);

#endif
