/*
 * UCI engines (Debian's stockfish by default) run as child processes: asked
 * for moves, so a lone player of tchessd always has an opponent (engine
 * seats), and asked to analyse positions, for tchess review (evaluation,
 * best lines, the whole-game pass). The one driver of the UCI conversation
 * for the client and the server.
 *
 * An engine pool owns up to max_engines engine processes, each driven by its
 * own worker thread that takes requests from one shared FIFO queue. A thread
 * per engine was chosen over one poll loop for all of them because a UCI
 * conversation is a strict sequence (options, isready/readyok, position, go,
 * info lines, bestmove, and on trouble stop/kill/restart/retry); written as
 * straight-line code with a deadline per read it stays short and easy to
 * check, and the engines are few (bounded by the cores, which the searches
 * occupy anyway), so the threads cost nothing that matters.
 *
 * Levels 1..8 map to Stockfish's "Skill Level" and a fixed "go movetime":
 *
 *	level	skill	movetime
 *	1	0	50 ms
 *	2	3	100 ms
 *	3	6	150 ms
 *	4	9	200 ms
 *	5	12	300 ms
 *	6	15	400 ms
 *	7	18	600 ms
 *	8	20	1000 ms
 *
 * Reliability: an engine that exits, closes its pipe, answers nonsense or an
 * illegal move, or misses the deadline (movetime + margin, then "stop" and a
 * short grace) is killed, reaped and restarted, and the request is tried once
 * more on the fresh process. If that fails too, the callback gets an error:
 * the pool never makes up a move of its own, so a game's engine seat never
 * silently becomes something else. Every child is reaped (no zombies); on
 * free each engine is sent "quit" and killed if it does not go.
 *
 * Engines are spawned with an empty signal mask, default SIGPIPE/SIGINT/
 * SIGTERM handling, stderr on /dev/null and in their own process group (so a
 * terminal's ^C reaches tchessd, which then shuts them down in order). The
 * pool talks to each over one socketpair written with MSG_NOSIGNAL, so a dead
 * engine never raises SIGPIPE in the server whatever its signal setup.
 */
#ifndef TCHESS_ENGINE_ENGINE_H
#define TCHESS_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tchess/notation.h"

#define ENGINE_LEVEL_MIN 1
#define ENGINE_LEVEL_MAX 8
#define ENGINE_DEFAULT_PATH "/usr/games/stockfish"

struct engine_pool;

struct engine_level {
	int skill;       /* UCI "Skill Level", 0..20 */
	int movetime_ms; /* "go movetime" */
};

/* The table above; NULL if level is outside 1..8. */
const struct engine_level *engine_level(int level);

/* A move request leaves the queue for an engine: waited_ms is how long it
 * was queued. Runs on the worker thread with no pool lock held, before the
 * search. The request may have been withdrawn by then, or be withdrawn
 * while this runs, so it is given the id, not the request's arg (which
 * engine_cancel() lets the caller free). */
typedef void engine_start_fn(void *arg, int request_id, int64_t waited_ms);

struct engine_options {
	const char *path;      /* engine binary; NULL: engine_find_default() */
	int max_engines;       /* processes (and worker threads), 1..16; default 2 */
	int64_t margin_ms;     /* a search's deadline is movetime + margin; default 2000 */
	int64_t stop_grace_ms; /* after "stop", wait this long for bestmove, then kill; default 500 */
	int64_t start_ms;      /* deadline for uciok and each readyok; default 10000 */
	int nice;              /* added to each engine's nice value, 0..19; default 0 */
	engine_start_fn *on_start; /* NULL: none; told as each request starts */
	void *on_start_arg;
};

/* Fills o with the defaults. */
void engine_options_init(struct engine_options *o);

/* ENGINE_DEFAULT_PATH if it is executable, else "stockfish" found on PATH
 * (the full path is returned), else NULL. The caller frees the result. */
char *engine_find_default(void);

/* Starts a pool. One engine is spawned and put through the UCI handshake
 * right away, so a wrong --engine is reported at startup rather than at the
 * first engine game; the others start when the queue first needs them.
 * Returns NULL with *err set (caller frees) on failure. */
struct engine_pool *engine_pool_new(const struct engine_options *o, char **err);

/* Stops the pool. Requests still queued or searching get their callback
 * with the error "engine pool closed" (on this thread or a worker), so the
 * caller must not hold a lock its callbacks take. Engines are sent "quit",
 * killed if they do not exit within a second, and reaped. NULL is a no-op.
 * Never call it from a callback (it joins the worker threads). */
void engine_pool_free(struct engine_pool *pool);

/*
 * The callback of a request: exactly one of uci and error is non-NULL. uci is
 * the engine's move, checked legal in the requested position and written in
 * the UCI form of that position (king-takes-rook castling when chess960).
 * error says why there is no move ("engine timed out twice", "engine exited
 * with status 1 twice", "engine pool closed"). Both strings live only for the
 * call. It runs on a worker thread with no pool lock held, so it may take the
 * server lock and may call engine_request() or engine_cancel().
 */
typedef void engine_done_fn(void *arg, const char *uci, const char *error);

/*
 * Asks for a move, asynchronously. The position is start_fen (NULL: the
 * standard start) followed by moves, n_moves moves in UCI text (either
 * castling form), so the engine sees the whole history and knows about
 * repetitions. chess960 makes the engine play Fischer-random castling (a FEN
 * with Chess960 castling rights turns it on by itself).
 *
 * Returns the request id (> 0). done(arg, ...) then runs exactly once, unless
 * engine_cancel() returns true for the id, in which case it never runs.
 * Returns -1 with *err (if err is not NULL; caller frees) and never calls done
 * when the FEN does not parse, a move is not legal in turn, the final position
 * has no legal move, or the level is outside 1..8.
 */
int engine_request(struct engine_pool *pool, const char *start_fen, const char *const *moves, size_t n_moves,
		   int level, bool chess960, engine_done_fn *done, void *arg, char **err);

/*
 * Withdraws a request, e.g. because its game ended first. Returns true if the
 * callback will never run (the request was queued, or is being searched and
 * its answer will be thrown away: the engine is told to "stop"). Returns false
 * if the callback has already started or finished, or the id is unknown.
 * Never waits for the engine, so it may be called with the server lock held.
 */
bool engine_cancel(struct engine_pool *pool, int request_id);

/* ---- analysis ---- */

#define ENGINE_MULTIPV_MAX 3
#define ENGINE_PV_MAX 16          /* moves kept of a line */

/* How long an analysis searches: "go depth D" when depth > 0, else "go
 * nodes N" when nodes > 0, else "go movetime T". A fixed depth or node
 * count on one thread (the pool's engines run Threads 1) gives the same
 * answer every time. */
struct engine_limits {
	int depth;
	int64_t nodes;
	int movetime_ms;
	int multipv;                  /* lines, 1..ENGINE_MULTIPV_MAX */
	int64_t timeout_ms;           /* then "stop" and the lines so far; 0: 60 s */
};

/* One line of an analysis, from White's point of view. */
struct engine_line {
	bool mate;                    /* score is mate in that many moves (negative: Black mates) */
	int score;                    /* centipawns, or moves to mate */
	int depth;
	int n_pv;
	char pv[ENGINE_PV_MAX][UCI_MAX];   /* legal in turn from the position, UCI */
};

struct engine_analysis {
	int n_lines;                  /* best first; 0 when the position has no legal move */
	struct engine_line lines[ENGINE_MULTIPV_MAX];
};

/* Exactly one of a and error is non-NULL; both live only for the call,
 * which runs on a worker thread with no pool lock held. */
typedef void engine_analysis_fn(void *arg, const struct engine_analysis *a, const char *error);

/*
 * Asks for an analysis of the position start_fen + moves (as
 * engine_request()) at full strength within limits, asynchronously: done
 * runs once with the engine's last complete lines (an "info" with a
 * lowerbound or upperbound score does not count), unless engine_cancel()
 * withdraws it. Returns the request id, or -1 with *err as engine_request()
 * (a final position with no legal move is refused there too).
 */
int engine_analyse(struct engine_pool *pool, const char *start_fen, const char *const *moves, size_t n_moves,
		   bool chess960, const struct engine_limits *limits, engine_analysis_fn *done, void *arg, char **err);

/*
 * Reads one UCI "info" line: true, with *multipv (from 1), *depth, the score
 * (from the side to move's point of view: *mate, *score) and the pv's text
 * at *pv (NULL when none; up to the end of the line), when the line has a
 * depth and an exact score; false for any other line (a bound, a
 * currmove, a string). Pure: for tests.
 */
bool engine_info_parse(const char *line, int *multipv, int *depth, bool *mate, int *score, const char **pv);

struct engine_stats {
	uint64_t requests; /* accepted by engine_request() */
	uint64_t answered; /* callbacks given a move */
	uint64_t failed;   /* callbacks given an error */
	uint64_t cancelled;
	uint64_t spawned;  /* engine processes started */
	uint64_t restarts; /* processes lost or killed after a failure (replaced when next needed) */
};

void engine_pool_stats(struct engine_pool *pool, struct engine_stats *out);

/* The pids of the engines running now, at most max of them; returns how many.
 * For tests and diagnostics (a pid may be gone by the time it is used). */
int engine_pool_pids(struct engine_pool *pool, pid_t *out, int max);

#endif
