/*
 * The game service: tchessd's authoritative games. Each live game is a
 * struct game_view built by the shared fold (tchess/fold.h) from its event
 * log; every command is one transaction that validates against that state,
 * builds the events, appends them, commits, and only then applies them to
 * the in-memory game; the game's long-polls are woken once the events are
 * durable (at once with sync = normal, after the group fsync with sync =
 * full: commit.h). A server timer ends a
 * game whose running clock expires, whether or not anyone is connected.
 *
 * Everything here runs with the server lock held (server.h), including the
 * flag timer's thread when it acts.
 *
 * Engine seats (engine.h): whenever a commit leaves an engine seat to move
 * (a move, the start, a rebuild after a restart), the service asks the
 * server's engine pool for a move and returns at once; the answer comes on a
 * pool thread, takes the lock, and is played through the same path as a
 * human move if the game is still running at the same ply (a stale answer
 * is dropped). A commit that ends the game or moves it on withdraws the
 * request. An engine that fails (after the pool's own restart and retry)
 * ends the game as an unscored technical failure whose game-ended event
 * says why; no move is ever made up. The engine's clock runs while it
 * thinks, as a human's does, but not while its request waits in the pool's
 * queue (game_service_engine_started gives that wait back). Engine games
 * are capped in all and per player (engine_games, engine_games_per_player).
 */
#ifndef TCHESS_SERVER_GAME_SERVICE_H
#define TCHESS_SERVER_GAME_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "tchess/fold.h"
#include "tchess/protocol.h"
#include "store.h"

struct server;
struct game_service;
struct game_service_hooks;

/* What a command answers: an error, or the events it committed that the
 * caller may see (a COMMAND answer of tchess-protocol(7)). */
struct game_outcome {
	struct protocol_error err;  /* err.code meaningful only when failed */
	bool failed;
	struct protocol_events events;  /* owned; protocol_events_fini */
	char *body;                     /* other answers (create, join): JSON text */
	int status;                     /* HTTP status of a success */
	bool stale;                     /* failed because another writer changed the game first (game-txn.c) */
	/* A read's answer to encode after the server lock (game_answer_encode),
	 * in place of body; owned. */
	struct game_answer *later;
};

/* A read's answer (a snapshot, a page of stored events, a resync) as the
 * game service leaves it to be encoded without the server lock (issue 12
 * item 1): what reads live state -- the viewer's numbering of the events,
 * the seqs it is told -- was resolved under the lock, and the rest copied
 * (the events, the view, the viewer's numbering), so nothing it holds
 * changes with the game. */
struct game_answer;
/* Without the server lock: the answer's JSON text (malloc'd) and its
 * status in *status (200, or 500 with an error body if it does not
 * encode); frees a. */
char *game_answer_encode(struct game_answer *a, int *status);
/* NULL is a no-op. */
void game_answer_free(struct game_answer *a);

void game_outcome_fini(struct game_outcome *o);

/* Rebuilds every unfinished game from the store through the fold and
 * resumes their clocks (a clock-resumed event for each running clock), asks
 * srv->engines for the moves of engine seats to move, then starts the flag
 * timer. NULL with *errmsg set on failure. */
/* hooks (may be NULL; copied) are in place before any game can change. */
struct game_service *game_service_new(struct server *srv, const struct game_service_hooks *hooks, char **errmsg);
/* Stops the timer and frees the games (NULL is a no-op). Takes the lock
 * itself to stop the timer: call without it. */
void game_service_free(struct game_service *gs);
/* Withdraws every outstanding engine request and makes later commits ask
 * for none, so the engine pool can then be freed (without the lock; answers
 * already under way find the service stopping and are dropped). Takes the
 * lock itself; NULL is a no-op. */
void game_service_stop_engines(struct game_service *gs);

/* The engine pool's engine_start_fn (arg: the struct server): a request of
 * a game's engine seat leaves the queue; a long wait there is given back to
 * the seat's clock (game-engine.c). */
void game_service_engine_started(void *arg, int request_id, int64_t waited_ms);

/* The commands, for player me (0: no token) on game id. */
void game_service_create(struct game_service *gs, int64_t me, const char *me_name,
			 const struct protocol_game_create_request *req, struct game_outcome *out);
void game_service_join(struct game_service *gs, int64_t me, const char *me_name, const char *id,
		       const struct protocol_join_request *req, struct game_outcome *out);
void game_service_move(struct game_service *gs, int64_t me, const char *id, const struct protocol_move_request *req,
		       struct game_outcome *out);
/* req NULL clears the queue. */
void game_service_premoves(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_premoves_request *req, struct game_outcome *out);
void game_service_resign(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out);
/* POST .../leave: the seat says it leaves the game (game-presence.c). */
void game_service_leave(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out);
/* Appends an event the fold ignores (a note) through the same path. */
void game_service_note(struct game_service *gs, int64_t me, const char *id, const char *payload,
		       struct game_outcome *out);

/* The game actions of tchess-protocol(7): each names the ply it is meant
 * for; a retry of an applied command succeeds without a second effect.
 * draw: action offer, accept, decline, withdraw. abort, adjourn, resume:
 * action request (the default), accept, decline. claim: claim threefold or
 * fifty-moves (with an optional intended move), tablebase, discard, win. */
void game_service_draw(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out);
void game_service_abort(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out);
void game_service_adjourn(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out);
void game_service_resume(struct game_service *gs, int64_t me, const char *id,
			 const struct protocol_action_request *req, struct game_outcome *out);
void game_service_claim(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
			struct game_outcome *out);

/* Undo games (tchess-protocol(7)): in an undo game, game_service_move
 * makes the mover's move provisionally; takeback withdraws it and done
 * commits it as the turn's move. Both take only ply. */
void game_service_takeback(struct game_service *gs, int64_t me, const char *id,
			   const struct protocol_action_request *req, struct game_outcome *out);
void game_service_done(struct game_service *gs, int64_t me, const char *id, const struct protocol_action_request *req,
		       struct game_outcome *out);
/* Rematch offers after the end: action offer, accept, decline, withdraw.
 * Accepting creates the series' next game (its id in the accepted event). */
void game_service_rematch(struct game_service *gs, int64_t me, const char *id,
			  const struct protocol_action_request *req, struct game_outcome *out);

/* Presence: player me made a request on game id (a no-op unless seated);
 * parked_delta is +1 when a long-poll of theirs parks, -1 when one comes
 * back, else 0. A parked poll counts as presence. */
void game_service_touch(struct game_service *gs, int64_t me, const char *id, int parked_delta);
/* A request of me's for game id that failed before reaching the game
 * service (a malformed body): counted among the seat's invalid commands. */
void game_service_invalid(struct game_service *gs, int64_t me, const char *id, const struct protocol_error *err);
/* Whether id is an aborted game erased lately (answer 410, not 404). */
bool game_service_erased(const struct game_service *gs, const char *id);

/* The events long-poll of tchess-protocol(7) for viewer (0: spectator) on
 * game id after seq after: returns 1 when the poll should park (nothing
 * new and !must_answer), else 0 with the answer's JSON in out->body, or
 * with out->failed (404, 410, 500). Only durable events are shown (the
 * answer's seq is the game's durable seq, commit.h), from the game's ring
 * of encoded events when it reaches back to after, else from the store. */
int game_service_events(struct game_service *gs, int64_t viewer, const char *id, int64_t after, bool must_answer,
			struct game_outcome *out);
/* Where the games' parked long-polls are: wake(id) once new events of
 * game id are durable (or the game is erased), watched(id) whether a poll
 * is parked on it (a watched game stays in memory). The service listens
 * to the group commit itself (commit.h). Until set, and after NULL, no
 * poll is woken and no game is watched. Takes the lock itself. */
struct game_service_polls {
	void *ctx;
	void (*wake)(void *ctx, const char *id);
	bool (*watched)(void *ctx, const char *id);
};
void game_service_set_polls(struct game_service *gs, const struct game_service_polls *polls);

/* Reads: the snapshot (JSON) and the PGN (text) into out->body. */
void game_service_snapshot(struct game_service *gs, int64_t viewer, const char *id, struct game_outcome *out);
void game_service_pgn(struct game_service *gs, const char *id, struct game_outcome *out);
/* Fills what the public list shows of game s->id beyond the store's
 * columns (protocol.h's struct protocol_game_summary: time control,
 * ruleset, the seats' names or levels, the free seat's colour, the plies)
 * from the game in memory, or replayed as a read is; leaves them as they
 * are for a game that is over or cannot be read. */
void game_service_summary(struct game_service *gs, struct protocol_game_summary *s);

/* Hooks for the services built on games (tournaments, vacations), given to
 * game_service_new. They run
 * with the server lock held, inside the game's transaction before its
 * commit, and may read and write the store; returning -1 rolls the whole
 * command back. */
struct game_service_hooks {
	void *ctx;
	/* Game id has just ended: v is its state with the end applied. */
	int (*ended)(void *ctx, const char *id, const struct game_view *v);
	/* player's vacations that have not ended by now_ms into out (the
	 * first max by start); returns how many, or -1. Correspondence games
	 * consult them (game-seat.c); no event carries them. */
	int (*vacations)(void *ctx, int64_t player, int64_t now_ms, struct vacation *out, size_t max);
};

/* Batches: from begin to commit every command shares one store transaction
 * (the caller may write its own rows in it too), and the games it changed
 * become live only when it commits, all at once; if any command failed, or
 * on abort, nothing changes. A game may be changed once per batch. */
int game_service_batch_begin(struct game_service *gs);
int game_service_batch_commit(struct game_service *gs);
void game_service_batch_abort(struct game_service *gs);

/* Creates a game from the standard position with both seats taken (a
 * tournament's): it starts at once with White's clock running. params is
 * stored with the game row (NULL: "{}"). On success out->status is 201 and
 * id_out the new game's id. */
void game_service_create_seated(struct game_service *gs, const struct fold_seat seats[2], const char *tc,
				const char *ruleset, const char *params, char id_out[STORE_GAME_ID_MAX + 1],
				struct game_outcome *out);

/* After player's booking vac was stored (or, cancelled, deleted) and
 * committed: the games in memory read player's bookings again and the
 * timer looks at their deadlines. No game is written: a correspondence
 * game consults the bookings (the hooks' vacations) whenever it charges
 * time, so this is memory only, whatever the player's number of games. */
void game_service_vacations_changed(struct game_service *gs, int64_t player, const struct vacation *vac,
				    bool cancelled);

/* Calls fn for every game player holds a seat in that is in memory, after
 * bringing back player's evicted unfinished games (so every unfinished
 * game of player's is among them), until fn returns nonzero. */
typedef int (*game_service_each_fn)(void *arg, const char *id, const struct game_view *v);
void game_service_each(struct game_service *gs, int64_t player, game_service_each_fn fn, void *arg);

/* Games in memory and games evicted from it (their records), for
 * GET /v1/health. */
void game_service_counts(struct game_service *gs, size_t *live, size_t *evicted);

/* The wall clock jumped (the test clock): the flag timer looks again. */
void game_service_clock_changed(struct game_service *gs);


/* ---- several nodes on one database (cluster.h): what the node channel
 * hears, with the lock held ---- */

/* What another node told in one message: game id's events up to seq are
 * durable. */
struct game_told {
	char id[STORE_GAME_ID_MAX + 1];
	int64_t seq;
	/* Events up to seq that the message brought, in order (NULL, 0: none). */
	const struct store_event *events;
	size_t n_events;
};
/* For each of the n games told: a game in memory behind folds what it
 * missed up to that seq -- what the message brought when it follows on
 * what the game holds, the rest from the store (every game's in one
 * read) -- shows it and wakes its polls (and its timer and engine seat
 * hear of it). Adds to *from_message and *from_store the events folded
 * from each. */
void game_service_remote_events(struct game_service *gs, const struct game_told *told, size_t n,
				uint64_t *from_message, uint64_t *from_store);
/* Another node saw seat color of game id (a request or a parked poll). */
void game_service_remote_seen(struct game_service *gs, const char *id, int color);
/* Another node erased aborted game id: it leaves memory, a tombstone
 * stays. */
void game_service_remote_erased(struct game_service *gs, const char *id);
/* Messages may have been missed: every game in memory catches up with
 * its log. */
void game_service_remote_resync(struct game_service *gs);
/* The nodes alive changed (cluster_owns answers otherwise now): the
 * unfinished games this node now owns are loaded from the store, and
 * every game in memory has its timer and engine seat looked at again. */
void game_service_owners_changed(struct game_service *gs);
/* Calls fn for each seat of a game in memory with a poll parked here. */
void game_service_parked_seats(struct game_service *gs, void (*fn)(void *arg, const char *id, int color), void *arg);

#endif
