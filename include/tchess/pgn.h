/*
 * Portable Game Notation: reading games from a memory buffer and writing
 * them in export format.
 *
 * This module knows nothing of files, clocks or draw rules. A game here is
 * plain data (struct pgn_game): its tag pairs in file order, the start
 * position, the main line of moves with their comments, NAGs, clock
 * readings, evaluations and variations (a tree: each move holds the
 * variations that are alternatives to it, each a line of moves with
 * variations of their own), and the termination marker. The game model
 * converts to and from it; the tags whose values the standard defines
 * (TimeControl, Termination) have readers and writers below.
 *
 * Reading. The reader is an iterator over the games of one buffer:
 *
 *	struct pgn_reader r;
 *	struct pgn_game g;
 *	struct pgn_error e;
 *	enum pgn_status st;
 *
 *	pgn_reader_init(&r, buf, len);
 *	while ((st = pgn_read_game(&r, &g, &e)) != PGN_END) {
 *		if (st == PGN_OK)
 *			use(&g);
 *		else
 *			report(e.message);   // "game 3, line 41, column 7: ..."
 *		pgn_game_fini(&g);
 *	}
 *
 * One bad game does not stop the rest: after PGN_ERROR the reader skips to
 * the game's termination marker (or to where the next game plainly
 * starts: a tag pair, or an empty line then a move number lower than the
 * one the bad game stopped at) and carries on; the bad game keeps the
 * moves read before the error. The reader is safe on any bytes and any length
 * (this loop is the whole of a fuzz target); every call consumes input, so
 * the loop ends; nesting, numbers and sizes are bounded (PGN_*_MAX) and the
 * work is linear in the input.
 *
 * What it accepts, beyond the standard: a UTF-8 byte order mark; LF, CRLF
 * and lone CR line ends; "%" escape lines; tags and moves on one line;
 * "1.e4" and "1...e5"; the lenient SAN of san_parse() (Ng1f3, 0-0, e8Q,
 * Pe4, exd6e.p., a missing 'x'); suffix annotations glued to moves or
 * standing alone (!, ?, !!, ??, !?, ?!) and common text NAGs (+-, +/=, =,
 * inf, N, RR ...), stored as numeric NAGs; results written as ½-½, 1–0 or
 * with other Unicode dashes; \" and \\ escapes in tag values, and \} \\ in
 * brace comments; a tag value left unclosed when its line ends with ']';
 * a missing termination marker at the end of the input.
 *
 * Decisions:
 *   - Null moves ("--" or "Z0") are supported: stored as MOVE_NONE with SAN
 *     "--". One played while in check is an error.
 *   - Variations (RAVs) are read as a tree, moves checked in their own
 *     positions, with their comments, NAGs, clocks and evaluations: the
 *     move they follow holds them. A move that is not legal in a
 *     variation (Lichess exports carry engine lines computed for another
 *     position) costs the rest of that variation, not the game: the game
 *     counts it in n_warnings and says the first in warning. A result
 *     token that closes a variation, "(1. d4 1-0)", ends that line; one
 *     elsewhere inside a variation is an error (the game ended with the
 *     variation open).
 *   - An empty line then a move number lower than the game's (most often
 *     "1.") starts the next game when the one before has no termination
 *     marker.
 *   - A castling right whose king or rook is off its standard square is
 *     dropped unless the Variant tag says Chess960: standard chess has no
 *     such right (fen_parse() alone reads it as Chess960 castling).
 *   - UCI movetext (e2e4 g8f6) is an error for that game: PGN needs SAN.
 *   - A move where no move is legal (after checkmate or stalemate) is an
 *     error that says so ("3. Kf2: a move after checkmate"), not one
 *     about the piece that cannot move there.
 *   - The FEN tag sets the start whether or not SetUp is present. Variant
 *     may be absent, Standard, Chess, Regular, From Position (standard
 *     rules) or Chess960 / Fischerandom (then FEN is required); any other
 *     variant is an error for that game.
 *   - A tag pair that starts a line inside movetext starts the next game:
 *     the game before ends without a termination marker (result ""), as
 *     at the end of the input. Elsewhere in movetext it is an error. A tag
 *     repeated on a new line ends a game of tags alone the same way.
 *   - Comments after a move belong to it; several are joined with a space.
 *     Comments before the first move of the game or of a variation are its
 *     comment_start. A "[%clk h:mm:ss(.d)]" command is taken out of the
 *     comment into clock_ms, a "[%eval 0.35]" / "[%eval #-3]" one into
 *     eval; other commands ([%csl], [%cal] ...) stay in the text.
 *
 * Writing. pgn_write_game() appends one game in export format to a growing
 * buffer (struct pgn_buf) that the caller owns and may write to a file or
 * socket: the Seven Tag Roster in its order (missing ones as "?", Date as
 * "????.??.??", Result from the termination marker, or from the board when
 * the moves end in checkmate or stalemate), SetUp and FEN when the
 * start is not the standard position, Variant "Chess960" for Chess960, the
 * other tags in their order; movetext with SAN recomputed from the moves,
 * NAGs as $n, comments with [%eval] and [%clk] first, each variation
 * after the move it is an alternative to (an empty one is not written),
 * lines shorter than 80 columns
 * (a tag pair or a single word longer than that is kept whole), a blank
 * line after the game. Clocks are written h:mm:ss, with tenths (truncated)
 * when the time is not a whole second. A '}' in a comment cannot be written
 * in PGN and becomes ')'; control characters in tags and comments become
 * spaces; a backslash before another or at the comment's end is doubled.
 * What the reader gives, written, reads back as the same tree and writes
 * the same text again. Null moves are written "--", which pgn-extract accepts in the
 * main line only with --allownullmoves.
 */
#ifndef TCHESS_PGN_H
#define TCHESS_PGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/clock.h"
#include "tchess/error.h"
#include "tchess/game.h"
#include "tchess/move.h"
#include "tchess/notation.h"
#include "tchess/position.h"

#define PGN_NAGS_MAX 8            /* NAGs kept per move; more are dropped */
#define PGN_RAV_DEPTH_MAX 64      /* deeper variations are an error */
#define PGN_PLIES_MAX 20000       /* longer games are an error */
#define PGN_TAGS_MAX 1000         /* more tag pairs are an error */
#define PGN_TOKEN_MAX (1u << 20)  /* longest tag value or comment, bytes */
#define PGN_RESULT_MAX 8

struct pgn_tag {
	char *name;
	char *value;
};

/* An evaluation from a [%eval] command, from White's point of view. */
enum pgn_eval_kind {
	PGN_EVAL_NONE = 0,
	PGN_EVAL_CP,                  /* value: centipawns ("[%eval -0.35]" is -35) */
	PGN_EVAL_MATE                 /* value: mate in that many moves, negative when Black mates ("#-3") */
};

#define PGN_EVAL_CP_MAX 100000    /* |centipawns| read; beyond, the command stays in the comment */
#define PGN_EVAL_MATE_MAX 1000

struct pgn_eval {
	enum pgn_eval_kind kind;
	int32_t value;
	int16_t depth;                /* the search depth after a comma ("[%eval 0.2,24]"), or -1 */
};

struct pgn_line;

struct pgn_move {
	move m;                       /* MOVE_NONE for a null move */
	char san[SAN_MAX];            /* canonical SAN in the position before ("--" for null) */
	char *comment;                /* comments after the move, [%clk] and [%eval] taken out, or NULL */
	uint8_t nags[PGN_NAGS_MAX];
	uint8_t n_nags;
	int64_t clock_ms;             /* from [%clk], or -1 */
	struct pgn_eval eval;         /* from [%eval]; kind PGN_EVAL_NONE if none */
	struct pgn_line *variations;  /* RAVs: alternatives to this move, each from the position before it */
	uint16_t n_variations;
	uint16_t cap_variations;      /* private */
};

/* A variation: moves from the position before the move it is an
 * alternative to, each of which may have variations of its own. */
struct pgn_line {
	char *comment_start;          /* comments before its first move, or NULL */
	struct pgn_move *moves;
	size_t n_moves;
	size_t cap_moves;             /* private */
};

struct pgn_game {
	struct pgn_tag *tags;         /* in file order */
	size_t n_tags;
	struct position start;
	struct pgn_move *moves;       /* the main line */
	size_t n_moves;
	char result[PGN_RESULT_MAX];  /* "1-0", "0-1", "1/2-1/2", "*", or "" if missing */
	char *comment_start;          /* comments before the first move, or NULL */
	size_t n_variations;          /* RAVs in the whole game, nested ones included */
	size_t n_warnings;            /* problems the reader passed over (a bad move in a variation) */
	char warning[256];            /* the first: "line 16, column 9: in a variation, 35. h3: ...", or "" */
	size_t offset, line, col;     /* where the game starts (line, col from 1) */
	size_t cap_tags, cap_moves;   /* private */
};

/* Sets g to an empty game from the standard start. */
void pgn_game_init(struct pgn_game *g);
/* Frees what g owns and leaves it empty (as after pgn_game_init). */
void pgn_game_fini(struct pgn_game *g);

/* The value of the first tag named name (case-sensitive), or NULL. */
const char *pgn_game_tag(const struct pgn_game *g, const char *name);
/* Sets the first tag named name to value, or appends it. Copies both. */
enum tchess_err pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value);
/* Appends a move (MOVE_NONE for a null move) with no comment, NAG or
 * clock; m must be legal after the moves already there (the writer checks). */
enum tchess_err pgn_game_add_move(struct pgn_game *g, move m);
/* Replaces the comment of move i (NULL clears it). Copies text. */
enum tchess_err pgn_game_set_comment(struct pgn_game *g, size_t i, const char *text);

/* Adds an empty variation to pm (the last of its alternatives) and returns
 * it, or NULL when memory runs out or pm has UINT16_MAX already. The
 * pointer is valid until pm's variations change. */
struct pgn_line *pgn_move_add_variation(struct pgn_move *pm);
/* Removes pm's variation k (and everything in it); the later ones move up.
 * Returns TCHESS_ERR_RANGE if there is no variation k. */
enum tchess_err pgn_move_remove_variation(struct pgn_move *pm, size_t k);
/* Appends a move (MOVE_NONE for a null move) to line l with no comment,
 * NAG or clock; m must be legal where it stands (the writer checks). */
enum tchess_err pgn_line_add_move(struct pgn_line *l, move m);

/* Parses the value of a [%eval] command ("0.35", "-1.2", "#3", "#-2",
 * "0.35,24") at s (n bytes): true with *e set, false if malformed. */
bool pgn_eval_parse(const char *s, size_t n, struct pgn_eval *e);
/* Formats e as a [%eval] value ("0.35", "-1.20", "#-2", "0.35,24") into
 * buf (at least 24 bytes); returns the length (0 for PGN_EVAL_NONE). */
size_t pgn_eval_format(const struct pgn_eval *e, char *buf);

/* The glyph of NAG nag as the reader also reads it: "!", "?!", "+-"
 * and, unless ascii, the symbols where the standard's text has one
 * ("\u00b1" for $16, "\u221e" for $13); NULL for a NAG with no glyph
 * (show it as $N). */
const char *pgn_nag_glyph(int nag, bool ascii);

/* Plays a null move on p: the other side moves, no e.p. square. p must not
 * be in check. */
void pgn_null_move(struct position *p);

/* ---- reading ---- */

enum pgn_status {
	PGN_OK = 0,    /* a game was read */
	PGN_ERROR,     /* this game is bad (see the error); the next call goes on */
	PGN_END        /* no more games */
};

struct pgn_error {
	enum tchess_err code;
	size_t game;                  /* index of the game in the input, from 0 */
	size_t offset;                /* byte offset in the input */
	size_t line, col;             /* from 1 */
	char message[256];            /* "game 3, line 41, column 7: ..." */
};

struct pgn_reader {
	const char *buf;
	size_t len;
	size_t pos;
	size_t games;                 /* games returned so far */
	size_t lc_off, lc_line, lc_col; /* private: cursor for line/column */
};

/* Starts reading buf (len bytes; need not be NUL-terminated; must outlive
 * the reader). */
void pgn_reader_init(struct pgn_reader *r, const char *buf, size_t len);

/* Reads the next game into g, which it initialises (call pgn_game_fini()
 * after every call, whatever it returned). On PGN_ERROR, err (if not NULL)
 * says why and where, and g holds what was read before the error. */
enum pgn_status pgn_read_game(struct pgn_reader *r, struct pgn_game *g, struct pgn_error *err);

/* ---- writing ---- */

/* A growing output buffer; data is NUL-terminated once anything is written. */
struct pgn_buf {
	char *data;
	size_t len;
	size_t cap;
};

void pgn_buf_init(struct pgn_buf *b);
void pgn_buf_fini(struct pgn_buf *b);

/* Appends g in export format to out. Returns TCHESS_ERR_ILLEGAL (out
 * unchanged) if a move is not legal where it stands, TCHESS_ERR_NO_MEMORY
 * if memory runs out. err (if not NULL) names the move. */
enum tchess_err pgn_write_game(const struct pgn_game *g, struct pgn_buf *out, struct tchess_error *err);

/* ---- games ---- */

struct game;
struct ruleset;

/* Replays pg into g (which it initialises from pg's start position with the
 * given ruleset, NULL for fide) through the game rules; each move's clock
 * becomes the ply's clock reading. On error returns the code, fills err and
 * sets *failed_ply (if not NULL) to the ply, from 1, that could not be played
 * (a null move, a move after the game ended by rule); g then holds the game
 * up to that ply and must still be released with game_fini(). */
enum tchess_err pgn_game_to_game(const struct pgn_game *pg, const struct ruleset *rules, struct game *g,
				 size_t *failed_ply, struct tchess_error *err);

/* Whether the rules (NULL for fide) end pg's main line before its last
 * move although the file plays on (a fivefold, 75 moves, a dead position
 * a site did not stop at); if so sets *ply to the plies played when they
 * end it (0: the start position is already over) and *t (if not NULL)
 * to the ending. False when the file stops where the rules do, or a move
 * cannot be replayed for another reason (a null move). */
bool pgn_game_rules_end(const struct pgn_game *pg, const struct ruleset *rules, size_t *ply,
			enum game_termination *t);

/* Fills pg (which it initialises) from g: start, moves, clock readings,
 * Result and, when the game has ended, Termination. The caller adds the
 * other tags. On error pg is left empty. */
enum tchess_err pgn_game_from_game(const struct game *g, struct pgn_game *pg, struct tchess_error *err);

/* ---- tags with a meaning (pgn-tags.c) ---- */

/* tchess's own time control text (tchess/clock.h grammar) beside the
 * standard TimeControl tag, which cannot say every control exactly
 * (Bronstein delays, correspondence). */
#define PGN_TAG_TCHESS_TIME_CONTROL "TchessTimeControl"

/* The PGN standard's Termination value (section 9.8.1) for a game that
 * ended by t with result r: "normal" (mate, resignation, every draw rule,
 * agreement), "time forfeit" (a flag fell, also against insufficient
 * material), "abandoned" (aborted, or lost by a seat gone for good),
 * "adjudication" (decided by the server's tablebases), "emergency" (a
 * technical failure with no winner), "unterminated" (not over, or
 * adjourned). Never NULL. */
const char *pgn_termination_value(enum game_termination t, enum game_result r);

/* Sets Termination to the standard value and, when t is not
 * GAME_TERM_NONE, TerminationDetail to the precise reason
 * (game_termination_str(): "checkmate", "fifty-moves", ...). */
enum tchess_err pgn_set_termination(struct pgn_game *g, enum game_termination t, enum game_result r);

/* Writes tc as a TimeControl value of the PGN standard (section 9.6.1),
 * in seconds, into buf (NUL-terminated, truncated to size); returns the
 * length it needs, like snprintf. Fischer "5+3" is "300+3" and sudden
 * death keeps its increment ("60+0", as Lichess writes it); periods are
 * "moves/seconds" fields joined by ':' ("40/5400:1800+30"; the last field
 * repeats, as in tchess), with an increment written "40/5400+30" when a
 * period with a move count has one; Bronstein and US delays, which the
 * standard lacks, as "300+3d" (python-chess's form); correspondence as its
 * repeating period, "10/864000" for ten days per ten moves; unlimited
 * "-". Fractions of a second are written as decimals. */
size_t pgn_time_control_write(const struct time_control *tc, char *buf, size_t size);

/* Reads a TimeControl value of the standard's form (as written above;
 * "300" alone is 300 s sudden death, "+Nd" a US delay, one repeating
 * period over 24 hours correspondence). "?" (unknown), a sandclock
 * ("*180"), a malformed value or one outside the clock's limits
 * (tchess/clock.h; "0+1" has no starting time) are TCHESS_ERR_TIME_CONTROL
 * or TCHESS_ERR_RANGE with err set, tc unchanged. */
enum tchess_err pgn_time_control_parse(const char *text, struct time_control *tc, struct tchess_error *err);

/* The time control of g from its tags: the TchessTimeControl tag when
 * there is one; else TimeControl in tchess's own minutes form when the
 * game comes from tchessd (a Protocol tag "tchess/N": the form it wrote
 * before the standard one), else in the standard form. Errors as above, or
 * TCHESS_ERR_TIME_CONTROL when there is no TimeControl tag. */
enum tchess_err pgn_game_time_control(const struct pgn_game *g, struct time_control *tc, struct tchess_error *err);

/* Formats a clock as the standard [%clk] value ("1:05:02" or "0:00:09.4")
 * into buf (at least 24 bytes); returns the length. */
size_t pgn_format_clock(int64_t ms, char *buf);

#endif
