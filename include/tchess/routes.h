/*
 * The routes of the tchess HTTP API (tchess-protocol(7)): one row per
 * endpoint, its method and its path under PROTOCOL_PREFIX, in one table
 * that tchessd dispatches with (routes_match) and a client builds its
 * requests from (routes_path), so no path is spelled twice. Names and
 * paths only: what each endpoint takes and answers is protocol.h's.
 *
 * A path pattern is literal but for ':', which stands for one non-empty
 * segment (a game, tournament or vacation id).
 */
#ifndef TCHESS_ROUTES_H
#define TCHESS_ROUTES_H

#include <stddef.h>

#include "tchess/protocol.h"

/* X(NAME, method, pattern), in the order a request is matched. */
#define ROUTES(X)                                                                                 \
	X(ROUTE_HEALTH, "GET", PROTOCOL_PREFIX "/health")                                                      \
	X(ROUTE_PLAYERS_CREATE, "POST", PROTOCOL_PREFIX "/players")                                            \
	X(ROUTE_ME, "GET", PROTOCOL_PREFIX "/me")                                                              \
	X(ROUTE_ME_TOKEN, "POST", PROTOCOL_PREFIX "/me/token")                                                 \
	X(ROUTE_GAMES_LIST, "GET", PROTOCOL_PREFIX "/games")                                                   \
	X(ROUTE_GAMES_CREATE, "POST", PROTOCOL_PREFIX "/games")                                                \
	X(ROUTE_GAME, "GET", PROTOCOL_PREFIX "/games/:")                                                       \
	X(ROUTE_GAME_JOIN, "POST", PROTOCOL_PREFIX "/games/:/join")                                            \
	X(ROUTE_GAME_PGN, "GET", PROTOCOL_PREFIX "/games/:/pgn")                                               \
	X(ROUTE_GAME_MOVE, "POST", PROTOCOL_PREFIX "/games/:/moves")                                           \
	X(ROUTE_GAME_PREMOVES_SET, "PUT", PROTOCOL_PREFIX "/games/:/premoves")                                 \
	X(ROUTE_GAME_PREMOVES_CLEAR, "DELETE", PROTOCOL_PREFIX "/games/:/premoves")                            \
	X(ROUTE_GAME_RESIGN, "POST", PROTOCOL_PREFIX "/games/:/resign")                                        \
	X(ROUTE_GAME_NOTE, "POST", PROTOCOL_PREFIX "/games/:/notes")                                           \
	X(ROUTE_GAME_DRAW, "POST", PROTOCOL_PREFIX "/games/:/draw")                                            \
	X(ROUTE_GAME_ABORT, "POST", PROTOCOL_PREFIX "/games/:/abort")                                          \
	X(ROUTE_GAME_ADJOURN, "POST", PROTOCOL_PREFIX "/games/:/adjourn")                                      \
	X(ROUTE_GAME_RESUME, "POST", PROTOCOL_PREFIX "/games/:/resume")                                        \
	X(ROUTE_GAME_CLAIM, "POST", PROTOCOL_PREFIX "/games/:/claim")                                          \
	X(ROUTE_GAME_TAKEBACK, "POST", PROTOCOL_PREFIX "/games/:/takeback")                                    \
	X(ROUTE_GAME_DONE, "POST", PROTOCOL_PREFIX "/games/:/done")                                            \
	X(ROUTE_GAME_REMATCH, "POST", PROTOCOL_PREFIX "/games/:/rematch")                                      \
	X(ROUTE_GAME_LEAVE, "POST", PROTOCOL_PREFIX "/games/:/leave")                                          \
	X(ROUTE_GAME_EVENTS, "GET", PROTOCOL_PREFIX "/games/:/events")                                         \
	X(ROUTE_ME_GAMES, "GET", PROTOCOL_PREFIX "/me/games")                                                  \
	X(ROUTE_ME_GAMES_FINISHED, "GET", PROTOCOL_PREFIX "/me/games/finished")                                \
	X(ROUTE_ME_VACATIONS_LIST, "GET", PROTOCOL_PREFIX "/me/vacations")                                     \
	X(ROUTE_ME_VACATIONS_BOOK, "POST", PROTOCOL_PREFIX "/me/vacations")                                    \
	X(ROUTE_ME_VACATION_CANCEL, "DELETE", PROTOCOL_PREFIX "/me/vacations/:")                               \
	X(ROUTE_TOURNAMENTS_LIST, "GET", PROTOCOL_PREFIX "/tournaments")                                       \
	X(ROUTE_TOURNAMENTS_CREATE, "POST", PROTOCOL_PREFIX "/tournaments")                                    \
	X(ROUTE_TOURNAMENT, "GET", PROTOCOL_PREFIX "/tournaments/:")                                           \
	X(ROUTE_TOURNAMENT_STANDINGS, "GET", PROTOCOL_PREFIX "/tournaments/:/standings")                       \
	X(ROUTE_TOURNAMENT_CROSSTABLE, "GET", PROTOCOL_PREFIX "/tournaments/:/crosstable")                     \
	X(ROUTE_TOURNAMENT_GAMES, "GET", PROTOCOL_PREFIX "/tournaments/:/games")                               \
	X(ROUTE_TOURNAMENT_REGISTER, "POST", PROTOCOL_PREFIX "/tournaments/:/register")                        \
	X(ROUTE_TOURNAMENT_WITHDRAW, "POST", PROTOCOL_PREFIX "/tournaments/:/withdraw")                        \
	X(ROUTE_TEST_CLOCK, "POST", PROTOCOL_PREFIX "/test/clock")

enum route_id {
#define ROUTES_ENUM(name, method, pattern) name,
	ROUTES(ROUTES_ENUM)
#undef ROUTES_ENUM
	ROUTE_COUNT
};

struct route {
	const char *method;
	const char *pattern;
};

/* The most ':' segments a pattern has, and the longest segment matched. */
#define ROUTES_PARAMS_MAX 2
#define ROUTES_PARAM_LEN 64

/* Route id's method and pattern; NULL for an id out of range. */
const struct route *routes_get(enum route_id id);

enum routes_match_result {
	ROUTES_MATCHED,   /* *id set, params filled */
	ROUTES_NO_METHOD, /* the path is known, not with this method (405) */
	ROUTES_NO_PATH,   /* no route has this path (404) */
};

/* Finds the route of method and path (no query). params receives the
 * segments matched by ':', NUL-terminated, in order (a segment longer
 * than ROUTES_PARAM_LEN - 1 matches nothing). */
enum routes_match_result routes_match(const char *method, const char *path,
				      char params[ROUTES_PARAMS_MAX][ROUTES_PARAM_LEN], enum route_id *id);

/* Writes route id's path into buf (size bytes), each ':' replaced by the
 * next of the n params (copied as they are: ids, which need no escaping).
 * Returns the path's length, or -1 (buf then "") when n is not the number
 * of ':' in the pattern, a param is empty or holds '/', or buf is too
 * small. A query, if any, is the caller's to append. */
int routes_path(char *buf, size_t size, enum route_id id, const char *const *params, size_t n);

#endif
