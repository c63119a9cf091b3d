/*
 * A game as a fold over its event log (DESIGN.md, "A game is a log"): the
 * game events' data shapes on the wire, and the one function that applies
 * an event to a game's state. tchessd builds every live game with it (and
 * rebuilds unfinished games after a restart by replaying their stored
 * events); the client mirrors a game by feeding it the events it receives.
 * Both sides therefore agree on position, clocks, seats, premove queues and
 * result by construction.
 *
 * Time comes only from the events' t_ms, so the fold is deterministic: the
 * clock is started, pressed, stopped and paused at the instants the events
 * carry. Every rule is libtchess's (game.h, clock.h, premove.h); the fold
 * checks that each event is consistent with the state (the right side
 * moves, the move is legal, its SAN matches) and refuses one that is not,
 * changing nothing.
 *
 * A client sees only public events and its own private ones, so a view may
 * skip seq numbers; it holds the premove queue of a side only if it saw
 * that side's private premove events.
 */
#ifndef TCHESS_FOLD_H
#define TCHESS_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/clock.h"
#include "tchess/fen.h"
#include "tchess/game.h"
#include "tchess/notation.h"
#include "tchess/pgn.h"
#include "tchess/premove.h"
#include "tchess/protocol.h"
#include "tchess/ruleset.h"

#define FOLD_OPPONENT_MAX 12   /* "open", "invite", "engine", "tournament" */
#define FOLD_REASON_MAX 200
#define FOLD_TERM_MAX 40
#define FOLD_ENGINE_LEVEL_MAX 8
/* Vacations a view keeps per side. When full, those that ended before the
 * current turn began are dropped: they can no longer change a reading. */
#define FOLD_VACATIONS_MAX 64
#define FOLD_WORD_MAX 16
/* Room for a seat's last command key ("end-fifty-moves"). */
#define FOLD_CMD_MAX 48

/* What a "request" event is about, and what happened to it. */
enum fold_request_what {
	FOLD_REQ_DRAW = 0, /* a draw offer */
	FOLD_REQ_ABORT,
	FOLD_REQ_ADJOURN,
	FOLD_REQ_RESUME,
	FOLD_REQ_COUNT
};

enum fold_request_action {
	FOLD_REQ_MADE = 0, /* "made": offered or requested */
	FOLD_REQ_DECLINED, /* "declined" by the other side */
	FOLD_REQ_WITHDRAWN /* "withdrawn" by its maker (draw offers only) */
};

enum fold_seat_kind {
	FOLD_SEAT_EMPTY = 0,
	FOLD_SEAT_HUMAN,
	FOLD_SEAT_ENGINE
};

struct fold_seat {
	enum fold_seat_kind kind;
	int64_t player;                    /* human: the player id */
	char name[PROTOCOL_NAME_MAX + 1];  /* human: the player's name */
	int level;                         /* engine: 1..FOLD_ENGINE_LEVEL_MAX */
};

/* A clock reading at one instant, as every clock-changing event carries it:
 * both remaining times, the running side (CLOCK_NOBODY for none) and what
 * the running side used of its turn so far. */
struct fold_clock_reading {
	int64_t ms[2];
	int running;
	int64_t turn_used_ms;
	int64_t deadline_ms; /* the running side's flag instant (clock_expiry), INT64_MAX: none */
};

enum fold_event_kind {
	FOLD_EV_CREATED = 0,       /* "game-created" */
	FOLD_EV_JOINED,            /* "player-joined" */
	FOLD_EV_STARTED,           /* "game-started" */
	FOLD_EV_MOVE,              /* "move" */
	FOLD_EV_PREMOVES,          /* "premoves" (private) */
	FOLD_EV_PREMOVE_DISCARDED, /* "premove-discarded" (private) */
	FOLD_EV_ENDED,             /* "game-ended" */
	FOLD_EV_CLOCK_RESUMED,     /* "clock-resumed" */
	FOLD_EV_VACATION,          /* "vacation": a seat's vacation booked or cancelled */
	FOLD_EV_REQUEST,           /* "request": a draw offer, abort/adjourn/resume request, or its answer */
	FOLD_EV_ADJOURNED,         /* "game-adjourned" */
	FOLD_EV_RESUMED,           /* "game-resumed" */
	FOLD_EV_DISCARD,           /* "discard-claimed" */
	FOLD_EV_PRESENCE,          /* "presence": a seat gone or back */
	FOLD_EV_TIME_ADDED,        /* "time-added" */
	FOLD_EV_OTHER              /* any other type (notes, later additions): ignored */
};

/* The data of one game event, decoded; which members are meaningful
 * depends on kind (see tchess-protocol(7), EVENTS). color is a side or -1
 * for null. */
struct fold_event {
	enum fold_event_kind kind;
	char tc[TIME_CONTROL_TEXT_MAX];     /* created */
	char ruleset[RULESET_NAME_MAX];     /* created */
	char fen[FEN_MAX];                  /* created: the start; move: the position after */
	char opponent[FOLD_OPPONENT_MAX];   /* created */
	struct fold_seat seats[2];          /* created: both; joined: seats[color] */
	int color;                          /* joined, move, premoves, discarded, ended, request, adjourned,
					     * resumed, discard, presence, time-added */
	int64_t ply;                        /* move, premoves, discarded */
	char uci[UCI_MAX];                  /* move; discarded: the premove; ended: a claim's intended move ("" none) */
	char san[SAN_MAX];                  /* move */
	int64_t think_ms;                   /* move */
	bool premove;                       /* move */
	char moves[PREMOVE_DEPTH_MAX][PREMOVE_TEXT_MAX]; /* premoves */
	int n_moves;
	char reason[FOLD_REASON_MAX];       /* discarded; ended, adjourned, time-added (may be "") */
	enum fold_request_what what;        /* request */
	enum fold_request_action action;    /* request */
	bool present;                       /* presence */
	int64_t ms;                         /* time-added: the time given to color */
	int64_t count;                      /* discard-claimed: discards charged to the other side now */
	char result[8];                     /* ended */
	char termination[FOLD_TERM_MAX];    /* ended */
	int64_t paused_ms;                  /* clock-resumed */
	struct vacation vacation;           /* vacation: [start_ms, end_ms) */
	bool cancelled;                     /* vacation: removes that interval */
	bool has_clock;                     /* started, move, ended, clock-resumed, adjourned, resumed,
					     * time-added, vacation */
	struct fold_clock_reading clock;
};

/* The wire type of a kind ("move"); FOLD_EV_OTHER gives "". */
const char *fold_event_type(enum fold_event_kind kind);
/* Clears e and sets its kind (color -1, no clock). */
void fold_event_init(struct fold_event *e, enum fold_event_kind kind);
/* The event's data members as a JSON object text (malloc'd). */
char *fold_event_encode(const struct fold_event *e);
/* Decodes the data of an event of the given type, strictly (every member of
 * the type present with its type, no unknown one). An unknown type decodes
 * to FOLD_EV_OTHER without looking at data. Returns 0 or -1 with err. */
int fold_event_decode(const char *type, const char *data, struct fold_event *out, struct protocol_error *err);

/* Per-ply extras beyond struct game_ply. */
struct fold_ply {
	int64_t seq;        /* the move event */
	int64_t think_ms;
	bool premove;
};

/* A game's state: everything the fold of its events gives. */
struct game_view {
	bool created;              /* a game-created event was applied */
	bool started;              /* game-started: clocks run */
	struct game game;          /* valid once created */
	struct clock clock;        /* valid once created */
	char tc[TIME_CONTROL_TEXT_MAX];
	char opponent[FOLD_OPPONENT_MAX];
	struct fold_seat seats[2];
	struct premove_queue premoves[2];
	struct fold_ply *plies;    /* game.n_plies entries */
	size_t plies_cap;
	/* Requests standing (a side or -1); draw offers and abort requests
	 * live in game.offer_by and game.abort_request_by. */
	int adjourn_request_by;
	int resume_request_by;
	bool absent[2];            /* a presence event said the seat is gone */
	int discards[2];           /* resume discards charged to each side */
	int64_t discard_day[2];    /* each side's last discard claim: days since the epoch, -1 none */
	int discard_day_claims[2]; /* claims on that day */
	char end_reason[FOLD_REASON_MAX]; /* the game-ended event's reason */
	/* Each seat's last command, as a key ("draw-made", "end-agreement")
	 * and the ply it came at: a command repeated for the same ply is a
	 * retry, answered without a second effect. */
	char last_cmd[2][FOLD_CMD_MAX];
	int64_t last_cmd_ply[2];
	int64_t started_ms;        /* t_ms of game-started */
	int64_t seq;               /* the last event applied */
	int64_t created_ms;        /* t_ms of game-created */
	int64_t last_t_ms;         /* t_ms of the last event applied */
	/* Each side's vacations from "vacation" events: they stop that side's
	 * correspondence clock (tchess/vacation.h). */
	struct vacation vacations[2][FOLD_VACATIONS_MAX];
	size_t n_vacations[2];
};

void fold_view_init(struct game_view *v);
void fold_view_fini(struct game_view *v);
/* Makes dst (not initialised) an independent copy of src. */
void fold_view_copy(struct game_view *dst, const struct game_view *src);

/* Applies one event (its envelope and data). Refuses (returns -1 with err,
 * code bad_request, v unchanged) an event whose seq is not after the last
 * one or that contradicts the state. */
int fold_apply(struct game_view *v, const struct protocol_event *ev, struct protocol_error *err);
/* The same with the data already decoded. */
int fold_apply_event(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
		     struct protocol_error *err);

/* The clock read at now_ms (never before the last event), with the seats'
 * vacations. */
void fold_clock_read(const struct game_view *v, int64_t now_ms, struct fold_clock_reading *out);
/* The seats' vacations as the clock functions take them (pointing into v). */
void fold_clock_vacations(const struct game_view *v, struct clock_vacations *out);
/* The instant the running side's flag falls (clock_expiry with the seats'
 * vacations): INT64_MAX when no clock runs. */
int64_t fold_clock_expiry(const struct game_view *v);
/* "open" (a seat is free), "playing" (started, or full but not started),
 * "adjourned" or "over". */
const char *fold_status(const struct game_view *v);
/* Whether the game is running: started and not over. */
bool fold_running(const struct game_view *v);
/* The side whose seat holds player, or -1. */
int fold_seat_of(const struct game_view *v, int64_t player);
/* Whether the game is adjourned. */
bool fold_adjourned(const struct game_view *v);
/* The wire names of request whats ("draw", "abort", "adjourn", "resume")
 * and actions ("made", "declined", "withdrawn"). */
const char *fold_request_what_str(enum fold_request_what w);
const char *fold_request_action_str(enum fold_request_action a);
/* The command key a seat's event records in last_cmd (see game_view) for
 * an event of kind with what/action/termination as given; written to buf. */
void fold_command_key(char *buf, size_t size, const struct fold_event *e);
/* "white" / "black" / NULL for -1. */
const char *fold_color_str(int color);
/* Parses "white"/"black"; false otherwise. */
bool fold_color_parse(const char *s, int *out);

/* The snapshot of GET /v1/games/ID (tchess-protocol(7)) at now_ms; viewer
 * is the asking player's id (0 for none): a seated viewer sees its own
 * premove queue, nobody sees another's. */
char *fold_snapshot_encode(const struct game_view *v, const char *id, int64_t now_ms, int64_t viewer);

/* Appends the game as PGN (tags described in tchess-protocol(7)) to out. */
enum tchess_err fold_pgn_write(const struct game_view *v, const char *id, struct pgn_buf *out,
			       struct tchess_error *err);

#endif
