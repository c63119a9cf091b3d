/*
 * The chess clock: time controls, their text form and speed class, and the
 * one clock model of the project. The server decides flag fall with it and
 * the client mirrors it, so it is a deterministic state machine driven by
 * timestamped events: every function that needs the time takes now_ms, an
 * integer server instant in milliseconds. Nothing here reads a clock, sleeps
 * or uses floating point, and a struct clock is plain data (copy it with '=',
 * store it, send it), so replaying the same events gives the same readings.
 *
 * Time controls
 *
 *   Fischer       each period's increment is added after every move made in
 *                 it ("The increment time is added to the initial time after
 *                 every move"). 15+10 is fifteen minutes plus ten seconds.
 *   Bronstein     after a move the clock gives back what the move used, up to
 *                 the period's delay: min(used, delay).
 *   US delay      the clock waits for the period's delay at the start of
 *                 every turn before it starts counting down.
 *   Periods       "N moves in T": after the N-th move of a period the next
 *                 period's time is added; unused time carries over. When the
 *                 last period has a move count it repeats, so 40/90 gives 90
 *                 more minutes after moves 40, 80, 120...
 *   Correspondence X per N moves (chessgamble: X days for 10 moves), a
 *                 repeating period with no increment. The time a move used is
 *                 charged truncated to whole minutes ("measured to the
 *                 minute"): a move after 2 h 59.9 min costs 2 h 59 min. Only
 *                 correspondence clocks stop for vacations.
 *   Unlimited     no clock; it never flags.
 *
 * Text form (for the man page and the protocol)
 *
 *   tc       := "-" | "unlimited" | "corr:" corr | period (":" period){0,3}
 *   period   := [moves "/"] time ["+" [mark] inc]
 *   mark     := "b" (Bronstein delay) | "d" (US delay); none is Fischer
 *   time     := number [unit]       unit defaults to minutes
 *   inc      := number [unit]       unit defaults to seconds
 *   unit     := "ms" | "s" | "m" | "h"
 *   corr     := number ["d" | "h" | "m"] "/" moves      unit defaults to days
 *
 * Numbers are decimal digits without sign, fraction or spaces (write half a
 * minute as "30s"; "1/2" is one move in 2 minutes). moves is 1..1000, and
 * every period but the last needs one; a missing increment is 0. All
 * periods share one mark. Limits: the first period's time is over 0, and
 * a later period adds time or an increment ("40/5:00" is refused rather
 * than read as a second period adding nothing); a
 * period's time is at most 24 h, an increment or delay at most 1 h;
 * correspondence time is whole minutes from 1 min to 365 days, with no
 * increment. Examples:
 *
 *   "5+3"            5 min + 3 s Fischer      "15+10"  polychess rapid
 *   "90s+0"          90 s, no increment       "5+b3"   5 min, Bronstein 3 s
 *   "5+d3"           5 min, US delay 3 s      "40/90"  90 min per 40 moves
 *   "40/90+30:30+30" 90 min for 40 moves, then 30 min for the rest of the
 *                    game, 30 s increment from move one (FIDE classical)
 *   "corr:10d/10"    10 days per 10 moves (chessgamble)     "-"  unlimited
 *
 * time_control_format() writes the canonical form: a time in minutes when
 * whole, else in seconds ("s") when whole, else "ms"; an increment in
 * seconds when whole, else "ms"; "+inc" always written for timed periods;
 * correspondence in days, else hours, else minutes, with the unit.
 *
 * Speed class (Yourpot's definitions, from the time for 40 moves): bullet up
 * to 90 s, fast blitz up to 210 s, blitz up to 5 min, standard above.
 * Increments count as in the usual "estimated game duration": the time for
 * 40 moves is the starting time, plus every period's time that is added
 * after moves 1..39, plus 40 increments (Bronstein and US delays count as
 * increments). So 2+1 is 120 + 40 x 1 = 160 s, fast blitz; 5+0 is blitz and
 * 5+3 (420 s) is standard. Unlimited is standard; correspondence is
 * SPEED_CORRESPONDENCE.
 *
 * The clock
 *
 * One side's clock runs at a time. A flag falls when the running side's
 * charged time reaches its remaining time: a move arriving at or after that
 * instant (clock_expiry()) loses on time, and a reading of exactly 0 is a
 * fallen flag. Remaining times are never negative. Instants earlier than the
 * last reading count as that reading: the clock never runs backwards.
 *
 * Pausing (adjournment, server downtime) charges the running side up to the
 * pause and nothing while paused. After a crash the server pauses the clock
 * at the instant of the last committed event and resumes it at restart, so
 * play resumes from the last committed reading.
 */
#ifndef TCHESS_CLOCK_H
#define TCHESS_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/bitboard.h"
#include "tchess/error.h"
#include "tchess/ruleset.h"

#define TC_PERIODS_MAX 4
#define TC_MOVES_MAX 1000
#define TC_TIME_MAX_MS (24 * 3600 * 1000LL)
#define TC_INCREMENT_MAX_MS (3600 * 1000LL)
#define TC_CORR_MIN_MS (60 * 1000LL)
#define TC_CORR_MAX_MS (365 * 24 * 3600 * 1000LL)
/* Room for the longest canonical text, with its NUL. */
#define TIME_CONTROL_TEXT_MAX 128

/* A reading for a clock that has no limit. */
#define CLOCK_UNLIMITED INT64_MAX
/* "No side": no clock running, no flag fallen. */
#define CLOCK_NOBODY (-1)

enum tc_kind {
	TC_UNLIMITED = 0,
	TC_FISCHER,        /* increment_ms is added after each move */
	TC_BRONSTEIN,      /* increment_ms is the delay: min(used, delay) given back */
	TC_US_DELAY,       /* increment_ms is the delay before the clock counts */
	TC_CORRESPONDENCE  /* charged in whole minutes, stopped by vacations */
};

struct tc_period {
	int moves;            /* moves in the period; 0 = the rest of the game */
	int64_t base_ms;      /* added when the period begins */
	int64_t increment_ms; /* increment or delay per move, as the kind says */
};

struct time_control {
	enum tc_kind kind;
	int n_periods;        /* 0 for TC_UNLIMITED, else 1..TC_PERIODS_MAX */
	struct tc_period periods[TC_PERIODS_MAX];
};

/* A player's vacation: time in [start_ms, end_ms) is not charged to that
 * player's correspondence clocks. */
struct vacation {
	int64_t start_ms;
	int64_t end_ms;
};

/* Each player's vacations, in caller-owned arrays, in any order (they may
 * overlap). Functions that charge time take a pointer to one of these, or
 * NULL for no vacations; quick games ignore it. */
struct clock_vacations {
	const struct vacation *list[2]; /* indexed by enum color */
	size_t count[2];
};

/* Parses the NUL-terminated text (grammar above) into tc. On error returns
 * TCHESS_ERR_TIME_CONTROL or TCHESS_ERR_RANGE, fills err (if not NULL) with
 * the byte offset and a message, and leaves tc unchanged. text may be NULL. */
enum tchess_err time_control_parse(struct time_control *tc, const char *text, struct tchess_error *err);

/* Checks tc against the limits above; the message names the problem. */
enum tchess_err time_control_validate(const struct time_control *tc, struct tchess_error *err);

/* Whether the ruleset allows tc (struct ruleset's time_controls; none
 * listed allows any): TCHESS_OK, or TCHESS_ERR_NOT_ALLOWED with a message
 * listing the controls it allows ("the chessgamble rules allow only
 * corr:10d/10, ..."). */
enum tchess_err time_control_allowed(const struct time_control *tc, const struct ruleset *r,
				     struct tchess_error *err);

/* Writes tc's canonical text into buf (NUL-terminated, truncated to size)
 * and returns the length it needs, like snprintf. A valid tc's text parses
 * back to an equal tc. */
size_t time_control_format(const struct time_control *tc, char *buf, size_t size);

/* True if a and b mean the same control (unused periods are ignored). */
bool time_control_equal(const struct time_control *a, const struct time_control *b);

/* The speed class by the rule above. */
enum speed_class time_control_speed(const struct time_control *tc);

/* The clock. Read it through the functions; the fields are public so that it
 * stays plain data. */
struct clock {
	struct time_control tc;
	int64_t remaining_ms[2]; /* the running side's: at the start of its turn */
	int moves[2];            /* moves completed by each side */
	int period[2];           /* each side's current period */
	int period_moves[2];     /* moves completed in that period */
	int running;             /* side whose turn is timed, or CLOCK_NOBODY */
	int flagged;             /* side whose flag fell, or CLOCK_NOBODY */
	bool paused;
	int64_t since_ms;        /* running and not paused: charged from here */
	int64_t turn_used_ms;    /* time the running side used this turn before since_ms */
};

/* A stopped clock with each side's first-period time. tc should be valid. */
void clock_init(struct clock *c, const struct time_control *tc);

/* Starts side's clock at now_ms (both players connected, game start). Returns
 * 0, also when side's clock already runs; -1 if the other side's clock runs
 * or a flag has fallen. On a paused clock, side's clock runs from the resume. */
int clock_start(struct clock *c, enum color side, int64_t now_ms);

/* mover completed a move at now_ms. If mover's clock ran out by then, the
 * flag falls: remaining 0, nothing added, the clock stops, *flagged (if not
 * NULL) is set. Otherwise the time is charged, the increment or period time
 * added and the opponent's clock started. A move while no clock runs (the
 * first move of a game that starts on it) is charged nothing; a move while
 * paused only what the turn used before the pause, and the clock stays
 * paused. Returns 0, or -1 (nothing changed) if the opponent's clock runs or
 * a flag has already fallen. */
int clock_press(struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac,
		bool *flagged);

/* clock_press for a move that earns no Fischer increment: Yourpot's
 * premove, "performed without changing the overall timing of the player"
 * (struct ruleset's premove_increment false). It is charged what its turn
 * used, as any move (nothing, for a premove played at once), and counts
 * among its period's moves: a period's time still comes after its N-th
 * move. */
int clock_press_no_increment(struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac,
			     bool *flagged);

/* What mover's move at now_ms costs its clock: the time taken off it, a
 * Bronstein delay's give-back netted in (so it costs what the same move
 * would under a US delay, the used time beyond the delay), before a
 * Fischer increment or a new period's time is added; a correspondence
 * move's used time truncated to whole minutes; the paused time not. 0 when
 * mover's clock does not run (a premove's turn has used nothing either) or
 * has no limit. Pressed at now_ms, the clock ends with mover's remaining
 * time less this, plus what the control adds. */
int64_t clock_move_cost(const struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac);

/* side's remaining time at now_ms: never negative, CLOCK_UNLIMITED for an
 * unlimited control. */
int64_t clock_remaining(const struct clock *c, enum color side, int64_t now_ms, const struct clock_vacations *vac);

/* The instant at which the running side's flag falls if it does not move
 * (the server arms its timer here); INT64_MAX when no clock runs, the clock
 * is paused or unlimited. Changing vacations changes it. */
int64_t clock_expiry(const struct clock *c, const struct clock_vacations *vac);

/* The first instant at which the running side's remaining time is ms or
 * less (0 and below: clock_expiry()), so a display knows when its text next
 * changes without counting down itself: a US delay or a correspondence
 * clock's whole minutes hold the reading still. When it is so already the
 * answer is since_ms (no later than now); INT64_MAX as for clock_expiry(). */
int64_t clock_reaching(const struct clock *c, int64_t ms, const struct clock_vacations *vac);

/* If the running side's flag has fallen by now_ms, records it (remaining 0,
 * clock stopped) and returns that side; otherwise CLOCK_NOBODY. */
int clock_check_flag(struct clock *c, int64_t now_ms, const struct clock_vacations *vac);

/* Stops the clock at now_ms (the game ended otherwise): the running side is
 * charged, no increment added, no clock runs afterwards. A flag that fell by
 * then is recorded; the return is as for clock_check_flag(). */
int clock_stop(struct clock *c, int64_t now_ms, const struct clock_vacations *vac);

/* Pauses at now_ms, charging the running side up to then; no-op if paused. */
void clock_pause(struct clock *c, int64_t now_ms, const struct clock_vacations *vac);

/* Resumes at now_ms; the paused interval is charged to nobody. */
void clock_resume(struct clock *c, int64_t now_ms);

/* Adds ms (>= 0) to side's time, e.g. Yourpot's tablebase-claim penalty.
 * Returns -1 (nothing changed) for a negative ms or after a flag fell. */
int clock_add_time(struct clock *c, enum color side, int64_t ms);

#endif
