/*
 * The review screens' model, free of curses and of any file format: a
 * game to step through (struct review_game, filled from the PGN reader by
 * review-pgn.c) as a tree of lines, the line now followed (the main line,
 * or a side line entered from it, to any depth) with its positions, the
 * current ply, the orientation, the game list of a multi-game file, the
 * prompt and help overlays, and the layout of the panes for the
 * terminal's size.
 *
 * Keys become commands in review_key(), which reads the model and changes
 * nothing; review_apply() is the only way the model changes, and it
 * returns which panes need drawing again.
 */
#ifndef TCHESS_CLIENT_REVIEW_H
#define TCHESS_CLIENT_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "board-view.h"
#include "engine/engine.h"
#include "movelist.h"
#include "review-moves.h"
#include "tchess/fen.h"
#include "tchess/notation.h"
#include "tchess/pgn.h"
#include "tchess/position.h"

struct review_line;

struct review_move {
	move m;                 /* MOVE_NONE for a null move */
	char san[SAN_MAX];
	const char *comment;    /* or NULL */
	int64_t clock_ms;       /* from [%clk], or -1 */
	uint8_t nags[PGN_NAGS_MAX];
	uint8_t n_nags;
	struct pgn_eval eval;   /* from [%eval] (White's view); PGN_EVAL_NONE if none */
	/* Side lines: alternatives to this move, each from the position
	 * before it. */
	const struct review_line *variations;
	size_t n_variations;
};

struct review_line {
	const char *comment_start;     /* before its first move, or NULL */
	const struct review_move *moves;
	size_t n_moves;
};

/* One game: its main line and, hanging off its moves, the side lines; the
 * strings and moves belong to whoever filled it. */
struct review_game {
	struct position start;
	size_t n_moves;
	const struct review_move *moves;
	const char *white, *black, *event, *site, *date, *round, *result;
	const char *white_elo, *black_elo;   /* WhiteElo, BlackElo, or NULL */
	const char *eco, *opening;           /* ECO, Opening, or NULL */
	const char *time_control;            /* TimeControl, or NULL */
	const char *comment_start;
	bool rules_ended;                    /* our rules end the game before the file's last move
						(pgn_game_rules_end) */
	size_t rules_end;                    /* then the plies played when they end it */
	const char *rules_end_why;           /* and how they end it ("fivefold") */
	const char *read_error;              /* why the file's moves after the last one cannot be
						read ("3. Kf2: a move after checkmate (...) (line 9,
						column 24)"), or NULL */
};

/* One line of the game list. */
struct review_entry {
	char white[48], black[48], event[64], date[16], result[8];
	size_t plies;
	char error[160];        /* why the game cannot be read, or "" */
};

enum review_screen { REVIEW_SCREEN_LIST, REVIEW_SCREEN_GAME };

enum review_cmd_kind {
	REVIEW_CMD_NONE,
	REVIEW_CMD_QUIT,
	REVIEW_CMD_STEP,          /* arg: plies, negative backwards */
	REVIEW_CMD_FIRST,
	REVIEW_CMD_LAST,
	REVIEW_CMD_GOTO,          /* arg: ply */
	REVIEW_CMD_PAGE,          /* arg: +1 / -1 pages of the move list */
	REVIEW_CMD_FLIP,
	REVIEW_CMD_HELP,          /* toggles the help overlay */
	REVIEW_CMD_PROMPT_OPEN,
	REVIEW_CMD_PROMPT_INPUT,  /* arg: the character */
	REVIEW_CMD_PROMPT_ERASE,
	REVIEW_CMD_PROMPT_SUBMIT,
	REVIEW_CMD_PROMPT_CANCEL,
	REVIEW_CMD_LIST_MOVE,     /* arg: rows, negative up */
	REVIEW_CMD_LIST_OPEN,     /* opens the selected game */
	REVIEW_CMD_LIST_BACK,     /* back to the game list */
	REVIEW_CMD_RESIZE,        /* arg: width, arg2: height */
	REVIEW_CMD_LINE_ENTER,    /* into the next move's first side line */
	REVIEW_CMD_LINE_NEXT,     /* the next alternative in place of the side line followed */
	REVIEW_CMD_LINE_LEAVE,    /* back to the line a side line branched from */
	REVIEW_CMD_ENGINE,        /* engine analysis on or off */
	REVIEW_CMD_MOVE_OPEN,     /* the move prompt: SAN or UCI, played from the shown position */
	REVIEW_CMD_SAVE,          /* the game, with the player's line, to a PGN file (review_save_fn) */
	REVIEW_CMD_REDRAW
};

struct review_cmd {
	enum review_cmd_kind kind;
	long arg, arg2;
};

/* Panes, as dirty bits. */
enum {
	REVIEW_DIRTY_BOARD = 1 << 0,
	REVIEW_DIRTY_INFO = 1 << 1,
	REVIEW_DIRTY_TAGS = 1 << 2,
	REVIEW_DIRTY_MOVES = 1 << 3,
	REVIEW_DIRTY_COMMENT = 1 << 4,
	REVIEW_DIRTY_STATUS = 1 << 5,
	REVIEW_DIRTY_LIST = 1 << 6,
	REVIEW_DIRTY_HELP = 1 << 7,
	REVIEW_DIRTY_CLEAR = 1 << 8,   /* erase the whole screen first */
	REVIEW_DIRTY_ALL = (1 << 9) - 1
};

#define REVIEW_MIN_WIDTH 52
#define REVIEW_MIN_HEIGHT 12

struct review_layout {
	int w, h;
	bool too_small;
	struct board_geometry board;   /* the board pane at (0, 0) */
	int info_y, info_h;            /* below the board, board.width wide */
	int graph_y, graph_h;          /* the evaluation graph's rows inside the info pane
					  (its marker row after them); graph_h 0: no room */
	int bar_x, bar_y, bar_h;       /* the evaluation bar: one column beside the board */
	int side_x, side_w;            /* the column right of the board */
	int tags_y, tags_h;
	int moves_y, moves_h;
	int comment_y, comment_h;
	int status_y;                  /* the last row, full width */
};

/* Loads game index of the file into out; returns 0 or -1 with a message. */
typedef int (*review_load_fn)(void *ctx, size_t index, struct review_game *out, char *err, size_t errsize);

/* One level of the line followed: frame 0 is the main line; frame k > 0
 * is side line alt of move owner, which stands at ply base of the line
 * of frame k - 1 (so the side line's moves are plies base, base+1 ...). */
struct review_frame {
	const struct review_move *owner;   /* NULL for an explored line past its line's end */
	size_t alt;
	size_t base;
	bool explored;                     /* the model's own line of the player's moves */
};

#define REVIEW_DEPTH_MAX (PGN_RAV_DEPTH_MAX + 1)

/* The player's own moves (explore): one line at a time, owned by the
 * model, followed as a side line of the move it replaces. It is kept
 * (and saved with the game, key s) after it is left, until a new line
 * replaces it or another game is opened. */
struct review_explore {
	struct review_move *moves;
	size_t n, cap;
	struct review_line line;           /* points into moves */
	struct review_frame frames[REVIEW_DEPTH_MAX];   /* the frames it was played in */
	int depth;                         /* frames[depth] is its own; 0: no line */
};

/* Where the player's line hangs in the game's tree, for writing it: from
 * the main line (level 0), the side line alt[j] of move index[j] of level
 * j is level j + 1; the line replaces move at of level depth (at equal to
 * that line's length: it continues the line past its end). */
struct review_explore_at {
	int depth;
	size_t index[REVIEW_DEPTH_MAX], alt[REVIEW_DEPTH_MAX];
	size_t at;
	const struct review_line *line;    /* the player's moves */
};

/* Saves game index of the file, with the player's line at (NULL: none),
 * somewhere of the saver's choosing; says where (or why not) in msg.
 * Returns 0 or -1. */
typedef int (*review_save_fn)(void *ctx, size_t index, const struct review_explore_at *at, char *msg,
			      size_t msgsize);

struct review {
	enum review_screen screen;
	const char *file_name;
	const struct review_entry *entries;
	size_t n_entries;
	review_load_fn load;
	void *load_ctx;
	review_save_fn save;           /* NULL: s says saving is not possible */
	void *save_ctx;

	bool has_game;
	size_t game_index;
	struct review_game game;
	struct review_frame frames[REVIEW_DEPTH_MAX];
	int depth;                     /* frames in use past the main line */
	/* The line followed, from the start: the main line's moves, those of
	 * each side line entered in its place from its base. */
	const struct review_move **line;   /* n_line, owned */
	size_t n_line;
	struct position *positions;    /* n_line + 1, owned */
	size_t ply;                    /* plies played: 0 is the start position */
	bool flipped;
	bool ascii;

	struct review_moves ml;        /* the move list as a tree of rows */
	int ml_top;
	size_t list_sel;
	int list_top;

	bool help;
	bool prompt;
	bool prompt_move;              /* the prompt takes a move, not a ply */
	char prompt_text[16];
	struct review_explore explore;
	char message[200];

	/* Engine analysis, copied in by the screen (review_engine_set_*):
	 * the pass's verdicts on the main line's positions and the best
	 * lines of the position shown. */
	bool engine_on;                /* toggled by a */
	bool engine_starting;          /* on, its handshake not done yet */
	struct pgn_eval *engine_evals; /* n_moves + 1 (owned); kind NONE until known */
	char (*engine_best)[UCI_MAX];  /* the engine's move in each position, or "" */
	size_t engine_done, engine_total;
	bool shown_ok;
	char shown_fen[FEN_MAX];       /* the position the lines are for */
	struct engine_analysis shown;
	struct pgn_eval shown_eval;    /* its first line's score */
	char engine_note[160];         /* "analysing 12/61", "depth 12, cached", an error */
	char tb_text[200];             /* the tablebase's verdict on the position shown, or "" */

	struct review_layout layout;
	bool quit;
};

/* Sets r up for the games of a file (entries are borrowed). With one game
 * or a chosen one, call review_apply() with LIST_OPEN after setting
 * list_sel; otherwise the list screen shows. */
void review_init(struct review *r, const char *file_name, const struct review_entry *entries, size_t n_entries,
		 review_load_fn load, void *ctx);
void review_fini(struct review *r);

/* Shows game g (borrowed) at its start position. Returns 0, or -1 with a
 * message in r->message when a move is not legal where it stands. */
int review_set_game(struct review *r, const struct review_game *g);

/* The command for a key in the current state of r. Changes nothing. */
struct review_cmd review_key(const struct review *r, int key);

/* Applies c to r; returns the dirty bits of the panes to redraw. */
unsigned review_apply(struct review *r, const struct review_cmd *c);

/* Computes the pane layout for a w x h terminal into l. */
void review_layout_compute(struct review_layout *l, int w, int h);

/* The board pane's view model at the current ply. */
void review_board_view(const struct review *r, struct board_view *v);

/* Plays the move text (SAN or UCI) from the position shown: the next
 * move of the line when it is that move, else the side line that starts
 * with it, else the player's own line (explore), which replaces the one
 * explored before. Returns the dirty bits; a message says why a move is
 * refused (nothing changes then). */
unsigned review_play(struct review *r, const char *text);

/* Where the player's line hangs (struct review_explore_at), into *out:
 * false when there is none. */
bool review_explore_where(const struct review *r, struct review_explore_at *out);

/* The move of ply i (from 0) of the line followed; i < r->n_line. */
const struct review_move *review_move_at(const struct review *r, size_t i);

/* The engine's verdict on main-line position i (0..n_moves): its
 * evaluation (kind PGN_EVAL_NONE for none) and best move in UCI ("" for
 * none); sizes the arrays on the first call for a game. Returns the dirty
 * bits. */
unsigned review_engine_set_eval(struct review *r, size_t i, const struct pgn_eval *e, const char *best);
/* The lines of the position whose FEN is fen (dropped unless it is the
 * one shown). */
unsigned review_engine_set_shown(struct review *r, const char *fen, const struct engine_analysis *a);
/* Whether the engine is still starting ("starting the engine..." in the
 * info line and the comment pane); returns the dirty bits. */
unsigned review_engine_set_starting(struct review *r, bool starting);
/* The pass's progress and a note for the info line. */
unsigned review_engine_set_progress(struct review *r, size_t done, size_t total, const char *note);
/* Forgets the engine's results (a new game, or analysis off). */
void review_engine_clear(struct review *r);

/* The engine's best lines for the position shown, as text: "+0.32 e4 e5
 * Nf3" (SAN from the position, at most width columns each) into lines
 * (up to ENGINE_MULTIPV_MAX of size bytes); returns how many. */
int review_engine_lines(const struct review *r, int width, char lines[][160]);

/* What the engine says of the current move when it judged it: "Blunder.
 * Nf3 was best." (the engine's move in the position before, in SAN), or
 * "" into buf. */
void review_engine_advice(const struct review *r, char *buf, size_t size);

/* The evaluation of the position after ply plies of the line followed
 * (White's view), or NULL when there is none. */
const struct pgn_eval *review_eval_at(const struct review *r, size_t ply);

/* Whether any position of the line followed has an evaluation. */
bool review_has_evals(const struct review *r);

/* The class of ply ply's move (from 1): by the fall of the mover's
 * winning chances between the evaluations before and after it (Lichess's
 * thresholds, analysis.h) when both are known, else the move's own mark
 * ($6 ?! inaccuracy, $2 ? mistake, $4 ?? blunder). */
enum analysis_judgement review_judgement_at(const struct review *r, size_t ply);

/* The evaluation as text: "+0.90", "-1.50", "#3", "#-2", "0.00". */
void review_eval_text(const struct pgn_eval *e, char *buf, size_t size);

/* The last [%clk] reading of colour c at or before the current ply, or -1. */
int64_t review_clock_of(const struct review *r, enum color c);

/* The side whose name the tags pane shows on row row (0 or 1): the
 * side whose pieces are nearer that edge, so Black's name is on top
 * unless the board is flipped. */
enum color review_header_color(const struct review *r, int row);

/* The player line of colour c: "Name (Elo)" or "Name", "?" for no name. */
void review_player_text(const struct review *r, enum color c, char *buf, size_t size);

/* The opening line of the tags pane: the game's own ECO and Opening tags
 * when it has either, else the ECO code and name (eco_lookup()) of the
 * last position at or before the current ply that the table knows; ""
 * when neither. */
void review_opening_text(const struct review *r, char *buf, size_t size);

/* The comment of the current move (the game's opening comment at ply 0),
 * or NULL. */
const char *review_comment(const struct review *r);
/* Fills buf with where our rules ended the game, on the main line from
 * the ply they end it at on (the game played on past it), else "". */
void review_rules_end_text(const struct review *r, char *buf, size_t size);

/* At the last move of a game whose file goes on with moves that cannot be
 * read (a move after mate, an illegal one): why, and that the rest is not
 * shown, into buf; else "". */
void review_read_error_text(const struct review *r, char *buf, size_t size);

/* The comment before the current move's side line when the current move
 * is its first (a side line's comment_start), or NULL. */
const char *review_line_comment(const struct review *r);

/* Where the line followed stands: "main line", or "side line 2/3 of
 * 5...Nxd5" naming the move it replaces (depth > 1: " (depth 2)"). */
void review_line_text(const struct review *r, char *buf, size_t size);

/* The NAGs of mv that are not move marks ($1-$6, which follow the SAN):
 * their glyphs and meanings ("+/- White is clearly better"), "; " between
 * them, into buf; "" when none. */
void review_nag_text(const struct review_move *mv, bool ascii, char *buf, size_t size);

/* Whether NAG nag is a move mark ($1-$6: !, ?, !!, ??, !?, ?!). */
bool review_nag_is_mark(int nag);

/* The move's SAN with its move marks glued on ("Nxd5?!"), into buf. */
void review_san_text(const struct review_move *mv, bool ascii, char *buf, size_t size);

/* The event line of the tags pane ("Event, Date  Result") or the list's
 * last column ("Event, Date", result NULL), on one line of at most width
 * columns: a long event is shortened at a word boundary with an ellipsis
 * ("\u2026", "..." when ascii) instead of cut mid-word, the result always
 * stays, and the date goes when keeping it would leave the event fewer
 * than REVIEW_EVENT_MIN columns. event and date may be NULL or ""; an
 * unknown date ("????.??.??", "?") is left out. Returns
 * the columns taken. */
#define REVIEW_EVENT_MIN 12
int review_event_text(const char *event, const char *date, const char *result, int width, bool ascii, char *buf,
		      size_t size);

/* Breaks text into lines of at most width columns at blanks (a longer
 * word is cut). Returns the byte length of the first line, and in *next
 * the offset where the following line starts. UTF-8 aware (one column per
 * character). */
size_t review_wrap(const char *text, int width, size_t *next);

#endif
