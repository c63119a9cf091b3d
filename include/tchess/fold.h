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
 * Undo games (takeback.h) and rematch series (series.h) are folded too:
 * a provisional move and its take-back are events, "done" is the move
 * event of the provisional move, and a rematch is a request event whose
 * acceptance names the series' next game.
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
#include "tchess/series.h"
#include "tchess/takeback.h"

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
	FOLD_REQ_REMATCH, /* a new game after this one ended, colours swapped */
	FOLD_REQ_COUNT
};

enum fold_request_action {
	FOLD_REQ_MADE = 0, /* "made": offered or requested */
	FOLD_REQ_DECLINED, /* "declined" by the other side */
	FOLD_REQ_WITHDRAWN, /* "withdrawn" by its maker (draw and rematch offers) */
	FOLD_REQ_ACCEPTED   /* "accepted" (rematch offers: the event names the new game) */
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
	FOLD_EV_PROVISIONAL,       /* "provisional-move": an undo game's move before "done" */
	FOLD_EV_TAKEN_BACK,        /* "move-taken-back": the provisional move withdrawn */
	FOLD_EV_LEFT,              /* "left": a seat left; recorded gone at gone_ms unless back */
	FOLD_EV_OTHER              /* any other type (notes, later additions): ignored */
};

/* A game's place in a rematch series, as its game-created event says:
 * the series' id (its first game's id), the game's number in it (2, 3,
 * ...), the game before and the score before this game, seen with this
 * game's colours. The first game of a series has no series member: it
 * joins the series when its rematch is accepted (id then is its own id). */
struct fold_series {
	char id[PROTOCOL_GAME_ID_MAX + 1];       /* "" none */
	int game;
	char previous[PROTOCOL_GAME_ID_MAX + 1];
	struct series_score score;
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
	bool undo;                          /* created: an undo game (rule 14) */
	int64_t premove_depth;              /* created: premoves a seat may queue (0: the ruleset's) */
	int64_t first_move_ms;              /* created: the first-move limit (0: the ruleset's) */
	struct fold_series series;          /* created: its series, if any */
	char game[PROTOCOL_GAME_ID_MAX + 1]; /* request (rematch accepted): the new game */
	struct fold_seat seats[2];          /* created: both; joined: seats[color] */
	int color;                          /* joined, move, premoves, discarded, ended, request, adjourned,
					     * resumed, discard, presence, time-added */
	int64_t ply;                        /* move, premoves, discarded, provisional, taken back */
	char uci[UCI_MAX];                  /* move, provisional, taken back; discarded: the premove;
					     * ended: a claim's intended move ("" none) */
	char san[SAN_MAX];                  /* move, provisional */
	move legal;                         /* move: the legal move fold_move_event made it from, which the
					     * fold applies without parsing and checking it again; ended: a
					     * claim's intended move as the server parsed it; MOVE_NONE
					     * (never on the wire): uci is parsed and checked in full */
	int64_t think_ms;                   /* move: the time the move used */
	int64_t charged_ms;                 /* move: what it cost the clock (clock_move_cost); -1 absent */
	bool premove;                       /* move */
	char moves[PREMOVE_DEPTH_MAX][PREMOVE_TEXT_MAX]; /* premoves */
	int n_moves;
	char reason[FOLD_REASON_MAX];       /* discarded; ended, adjourned, time-added (may be "") */
	enum fold_request_what what;        /* request */
	enum fold_request_action action;    /* request */
	bool present;                       /* presence */
	int64_t gone_ms;                    /* left: when the seat is recorded gone unless back */
	int64_t claim_ms;                   /* left: from when the win may be claimed (0: never) */
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
/* The kind of a wire type; FOLD_EV_OTHER for one the fold passes over. */
enum fold_event_kind fold_event_kind_of(const char *type);
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
	int64_t think_ms;   /* the time the move used (the turn's wall time) */
	int64_t charged_ms; /* what it cost the mover's clock; -1 unknown (an old snapshot) */
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
	/* A left event said the seat left (0: it did not, or a presence
	 * event since): the instant it is recorded gone unless it comes
	 * back, and the instant from which the win may be claimed then (0
	 * when the ruleset gives no win for a disconnect). */
	int64_t left_gone_ms[2];
	int64_t left_claim_ms[2];
	int discards[2];           /* resume discards charged to each side */
	int64_t discard_day[2];    /* each side's last discard claim: days since the epoch, -1 none */
	int discard_day_claims[2]; /* claims on that day */
	/* Discards (Yourpot): the standing resume request's partner has been
	 * silent and online since resume_since_ms; resume_declined[c]: the
	 * partner declined c's resume request and c has not claimed it yet. */
	int64_t resume_since_ms;
	bool resume_declined[2];
	char end_reason[FOLD_REASON_MAX]; /* the game-ended event's reason */
	int end_color;             /* the game-ended event's color (who resigned, flagged, ...), or -1 */
	bool undo;                 /* an undo game: moves are provisional until "done" */
	struct takeback_turn turn; /* undo games: the mover's provisional move */
	int rematch_by;            /* over: the side whose rematch offer stands, or -1 */
	char next_game[PROTOCOL_GAME_ID_MAX + 1]; /* the rematch's game, once accepted ("" none) */
	struct fold_series series; /* from game-created */
	/* Each seat's last command, as a key ("draw-made", "end-agreement")
	 * and the ply it came at: a command repeated for the same ply is a
	 * retry, answered without a second effect. */
	char last_cmd[2][FOLD_CMD_MAX];
	int64_t last_cmd_ply[2];
	int64_t started_ms;        /* t_ms of game-started */
	int64_t seq;               /* the last event applied */
	int64_t created_ms;        /* t_ms of game-created */
	int64_t last_t_ms;         /* t_ms of the last event applied */
	/* Each side's vacations: they stop that side's correspondence clock
	 * (tchess/vacation.h). No event carries them any more (issue 12 item
	 * 2): the server fills them from its players' records, a client from
	 * the snapshot and the events answers (fold_view_vacations_decode);
	 * "vacation" events of older logs still fold. */
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
/* The same on a view the caller drops if it fails (a transaction's work
 * copy): applied in place, without a copy of the view, and on failure v
 * is left in some state that fold_view_fini still frees. */
int fold_apply_event_scratch(struct game_view *v, int64_t seq, int64_t t_ms, const struct fold_event *e,
			     struct protocol_error *err);

/* The move event of the side to move's move m in v, m known to be legal in
 * v's position (from notation_parse_move, movegen_legal or a resolved
 * premove): ply, colour, UCI, SAN and the position after written from m,
 * and m itself in legal, so that the fold applying the event need not
 * parse and check the move again: it is checked once, by the caller. */
void fold_move_event(struct fold_event *e, const struct game_view *v, move m, int64_t think_ms, bool premove);

/* The clock read at now_ms (never before the last event), with the seats'
 * vacations. */
void fold_clock_read(const struct game_view *v, int64_t now_ms, struct fold_clock_reading *out);
/* The seats' vacations as the clock functions take them (pointing into v). */
void fold_clock_vacations(const struct game_view *v, struct clock_vacations *out);
/* The instant the running side's flag falls (clock_expiry with the seats'
 * vacations): INT64_MAX when no clock runs. */
int64_t fold_clock_expiry(const struct game_view *v);
/* The first-move rule: the instant (server ms) by which the side to move
 * (into *side) must make its first move of the game, limit_ms after the
 * start (White, or whoever moves first) or after the other side's first
 * move, else the game is aborted. INT64_MAX when no such limit stands:
 * not running, adjourned, that side has moved, limit_ms <= 0, a
 * correspondence game or a tournament's (timed by its clocks alone). */
#define FOLD_FIRST_MOVE_MS_MAX 86400000
int64_t fold_first_move_deadline(const struct game_view *v, int64_t limit_ms, int *side);
/* Yourpot's discards: the instant from which the partner's silence on
 * color's standing resume request is a refusal color may claim
 * (resume_since_ms plus the ruleset's resume_answer_ms while the partner
 * is online, resume_absent_ms while they are gone); INT64_MAX when color
 * has no request standing. A declined request is claimable at once
 * (resume_declined), whatever this says. */
int64_t fold_discard_due(const struct game_view *v, int color);
/* "open" (a seat is free), "playing" (started, or full but not started),
 * "adjourned" or "over". */
const char *fold_status(const struct game_view *v);
/* Whether the game is running: started and not over. */
bool fold_running(const struct game_view *v);
/* "May this side move now?": the one rule of the fold, the server and the
 * client. In this order: FOLD_MAY_OVER (the game has ended),
 * FOLD_MAY_NOT_STARTED (no game yet, or a seat free), FOLD_MAY_ADJOURNED,
 * FOLD_MAY_NOT_TURN (the other side's move), else FOLD_MAY_MOVE. A side
 * that may not move may still premove while the game runs (not adjourned,
 * not its turn). *why (when not NULL) gets a sentence for the answer. */
enum fold_may {
	FOLD_MAY_MOVE = 0,
	FOLD_MAY_OVER,
	FOLD_MAY_NOT_STARTED,
	FOLD_MAY_ADJOURNED,
	FOLD_MAY_NOT_TURN
};
enum fold_may fold_may_move(const struct game_view *v, int color, const char **why);
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

/* The series the game with this id belongs to, as it stands after this
 * game (its result counted once it is over): false if it is in none (not a
 * rematch, and no rematch of it accepted). */
bool fold_series_after(const struct game_view *v, const char *id, struct fold_series *out);
/* The series member of the game-created event of this game's rematch:
 * the same series (this game's id if it starts one), the next number, this
 * game as the previous one and the score after it with colours swapped. */
void fold_series_next(const struct game_view *v, const char *id, struct fold_series *out);
/* The board to show: the position with an undo game's provisional move. */
void fold_board(const struct game_view *v, struct position *out);

/* The snapshot of GET /v1/games/ID (tchess-protocol(7)) at now_ms; viewer
 * is the asking player's id (0 for none): a seated viewer sees its own
 * premove queue, nobody sees another's. */
char *fold_snapshot_encode(const struct game_view *v, const char *id, int64_t now_ms, int64_t viewer);
/* The same as one viewer numbers the game's events (a server numbers the
 * events each viewer may see 1, 2, 3..., so that nothing it is told counts
 * others' private events): seq is the snapshot's seq (at most v's), and
 * seq_of(ctx, s), if seq_of is not NULL, gives each move's seq for the
 * log's seq s in v. */
char *fold_snapshot_encode_seq(const struct game_view *v, const char *id, int64_t now_ms, int64_t viewer, int64_t seq,
			       int64_t (*seq_of)(const void *ctx, int64_t s), const void *ctx);
/* Rebuilds a view from a snapshot text (fold_snapshot_encode's, as GET
 * /v1/games/ID and a resync answer carry it; id, if not NULL, must be the
 * snapshot's game), checking it as strictly as the events it stands for:
 * the moves are replayed with libtchess, and a snapshot whose position,
 * status or offers contradict them is refused. The view then folds the
 * events after the snapshot's seq as one built from the whole log would,
 * and encodes to the same snapshot, except that it holds no seat's last
 * command (retry keys, which only the server needs) and no premove queue
 * the snapshot did not show. Returns 0 (v replaced; v must be initialised)
 * or -1 with err (v unchanged). */
int fold_view_from_snapshot(struct game_view *v, const char *json, size_t len, const char *id,
			    struct protocol_error *err);

/* The seats' vacations as the snapshot's "vacations" member and an events
 * answer's carry them ({"white": [...], "black": [...]}; malloc'd). */
char *fold_vacations_encode(const struct game_view *v);
/* Replaces v's vacation lists with that text's (an events answer's
 * "vacations": the players' bookings, which no event carries). Returns 0,
 * or -1 with err and v unchanged. */
int fold_view_vacations_decode(struct game_view *v, const char *json, size_t len, struct protocol_error *err);

/* A note that everyone may read (revealed at the end of the game, or
 * written after it). */
struct fold_note {
	int64_t seq;       /* the note event's seq: it follows the moves committed before it */
	int64_t player;    /* its author's player id, 0 if not known */
	const char *text;
};

/* Appends the game as PGN (tags described in tchess-protocol(7)) to out,
 * with notes[0..n_notes) (in seq order; NULL, 0 for none) as comments at
 * the moves they follow. */
enum tchess_err fold_pgn_write(const struct game_view *v, const char *id, const struct fold_note *notes,
			       size_t n_notes, struct pgn_buf *out, struct tchess_error *err);

#endif
