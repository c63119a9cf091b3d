/*
 * The tournament screens' model, free of curses and of curl: the list of
 * tournaments (GET /v1/tournaments) and one tournament (GET
 * /v1/tournaments/ID) with its standings, crosstable and games, as
 * protocol-answers.h decodes them; the player's credit balance; the screen lines
 * the UI draws, built here so the tests can read the layout.
 *
 * As in review.h and session.h, keys become commands in tourney_key(),
 * which reads the model and changes nothing, and tourney_apply() is the
 * only way the user changes it; what the model wants from the server it
 * queues as a request (tourney_take_request), and the loop reports the
 * answer with tourney_on_answer(). Opening a game is such a request too:
 * screen-tourney.c pushes the play (or watch) screen and is told when it
 * closes.
 */
#ifndef TCHESS_CLIENT_TOURNEY_H
#define TCHESS_CLIENT_TOURNEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/protocol-answers.h"
#include "tchess/protocol.h"
#include "tchess/tournament.h"

#define TOURNEY_LINE_MAX 512
#define TOURNEY_MESSAGE_MAX 240

/* The name of player, "#ID" when not an entrant. */
const char *tourney_name(const struct protocol_tournament_view *t, int64_t player, char *buf, size_t size);

/* Text pieces of the screen (and of the tests): */
/* "1.5" from 3 half-points; "2.25" from 9 quarters of Sonneborn-Berger. */
size_t tourney_points_text(int64_t half_points, char *buf, size_t size);
size_t tourney_sb_text(int64_t quarters, char *buf, size_t size);
/* "round robin, 3/3 players, corr:10d/10, chessgamble, running". */
size_t tourney_summary_text(const struct protocol_tournament_summary *s, char *buf, size_t size);
/* "stake 10, pot 30, prizes 100%: 1st 100%" or "no stake". */
size_t tourney_stakes_text(const struct protocol_tournament_summary *s, char *buf, size_t size);
/* A list row: id (8), kind, registered/players, tc, stake, status. */
size_t tourney_list_line(const struct protocol_tournament_summary *s, char *buf, size_t size);
size_t tourney_list_header(char *buf, size_t size);
/* The standings header and row k. */
size_t tourney_standings_header(char *buf, size_t size);
size_t tourney_standing_line(const struct protocol_tournament_view *t, size_t k, char *buf, size_t size);
/* How the crosstable fits a width: the names' width and the window of
 * opponent columns shown (first, count). */
struct tourney_xt {
	int name_w;
	size_t first, count;
};
/* The layout of t's crosstable for width columns (0: no limit), scrolled
 * to column first: names of 16, or as long as the longest, or cut to 10;
 * then as many columns as fit, first moved back so the window is full.
 * A cut name keeps its head and tail ("grand~er07"). */
void tourney_crosstable_fit(const struct protocol_tournament_view *t, int width, size_t first, struct tourney_xt *xt);
/* The crosstable header ("   #  Player           1  2  3") and row k
 * (in standings order) in the layout xt; cells "1", "=" (ascii) or "½",
 * "0", "." pending, "x" unscored, "*" the diagonal; a double round robin
 * has two per cell. */
size_t tourney_crosstable_header(const struct protocol_tournament_view *t, const struct tourney_xt *xt, char *buf, size_t size);
size_t tourney_crosstable_line(const struct protocol_tournament_view *t, size_t k, bool ascii, const struct tourney_xt *xt, char *buf,
			       size_t size);
/* Game row gi: "  R1  B1  ann - bob  1-0  05527d38"; the second column
 * is '*' for the player's own games (the first is the UI's cursor). */
size_t tourney_game_line(const struct protocol_tournament_view *t, size_t gi, int64_t me, char *buf, size_t size);

/* ---- the screens ---- */

enum tourney_screen { TOURNEY_SCREEN_LIST, TOURNEY_SCREEN_DETAIL };

enum tourney_line_kind { TOURNEY_LINE_TEXT, TOURNEY_LINE_HEADING, TOURNEY_LINE_GAME };

struct tourney_line {
	enum tourney_line_kind kind;
	long game;                  /* the game's index for GAME lines, else -1 */
	char text[TOURNEY_LINE_MAX];
};

enum tourney_req_kind {
	TOURNEY_REQ_ME,             /* GET /v1/me: the credit balance */
	TOURNEY_REQ_LIST,           /* GET /v1/tournaments */
	TOURNEY_REQ_DETAIL,         /* GET /v1/tournaments/ID */
	TOURNEY_REQ_REGISTER,       /* POST .../register */
	TOURNEY_REQ_WITHDRAW,       /* POST .../withdraw */
	TOURNEY_REQ_OPEN_GAME       /* not HTTP: run the play/watch screen */
};

struct tourney_req {
	enum tourney_req_kind kind;
	char id[PROTOCOL_TOURNAMENT_ID_MAX];    /* the tournament's, or the game's for OPEN_GAME */
	int color;                  /* OPEN_GAME: WHITE/BLACK to play, -1 to watch */
};

enum tourney_cmd_kind {
	TOURNEY_CMD_NONE,
	TOURNEY_CMD_QUIT,
	TOURNEY_CMD_BACK,           /* detail -> list, or quit without a list */
	TOURNEY_CMD_MOVE,           /* arg: rows, negative up */
	TOURNEY_CMD_OPEN,           /* the selected tournament or game */
	TOURNEY_CMD_REGISTER,
	TOURNEY_CMD_WITHDRAW,
	TOURNEY_CMD_RELOAD,
	TOURNEY_CMD_TOGGLE_GAMES,   /* the player's games / all games */
	TOURNEY_CMD_COLUMNS,        /* arg: -1 / 1, the crosstable's columns */
	TOURNEY_CMD_HELP,
	TOURNEY_CMD_RESIZE,         /* arg: width, arg2: height */
	TOURNEY_CMD_REDRAW
};

struct tourney_cmd {
	enum tourney_cmd_kind kind;
	long arg, arg2;
};

enum {
	TOURNEY_DIRTY_BODY = 1 << 0,
	TOURNEY_DIRTY_STATUS = 1 << 1, /* message and status lines */
	TOURNEY_DIRTY_HELP = 1 << 2,
	TOURNEY_DIRTY_CLEAR = 1 << 3,
	TOURNEY_DIRTY_ALL = (1 << 4) - 1
};

#define TOURNEY_REQS_MAX 8
#define TOURNEY_MIN_WIDTH 40
#define TOURNEY_MIN_HEIGHT 8

struct tourney_view {
	enum tourney_screen screen;
	bool has_list;              /* started on the list (Esc goes back to it) */
	int64_t me;                 /* the player's id, 0: none */
	int64_t credits;            /* -1: unknown */
	bool ascii;

	struct protocol_tournament_summary *list;
	size_t n_list;
	size_t list_sel;
	int list_top;

	struct protocol_tournament_view t;           /* the open tournament */
	bool have_t;
	bool all_games;             /* every game, not only the player's */
	struct tourney_line *lines; /* the detail screen, built from t */
	size_t n_lines;
	long sel_line;              /* a GAME line, or -1 */
	int top;
	size_t xt_first;            /* the crosstable's first column shown */

	bool help;
	char message[TOURNEY_MESSAGE_MAX];
	bool message_error;
	int w, h;
	bool quit;

	struct tourney_req reqs[TOURNEY_REQS_MAX];
	int n_reqs;
};

/* The list screen (id NULL) or the screen of tournament id, for player me
 * (0 when no account). Queues the first requests. */
void tourney_view_init(struct tourney_view *v, const char *id, int64_t me);
void tourney_view_fini(struct tourney_view *v);

struct tourney_cmd tourney_key(const struct tourney_view *v, int key);
unsigned tourney_apply(struct tourney_view *v, const struct tourney_cmd *c);

/* Whether the open tournament's crosstable is wider than the screen (h
 * and l scroll it); its layout into *xt when xt is not NULL. */
bool tourney_crosstable_clipped(const struct tourney_view *v, struct tourney_xt *xt);

/* The status line for a width-column screen: the count or the credits
 * and the keys, "h/l columns" when the crosstable is wider than the
 * screen, fitted by leaving out whole key hints (status-line.h). */
size_t tourney_status_line(const struct tourney_view *v, int width, char *buf, size_t size);

/* Takes the oldest request into *out; false when none. */
bool tourney_take_request(struct tourney_view *v, struct tourney_req *out);
/* Method, path and malloc'd body (or NULL) of an HTTP request. */
void tourney_req_http(const struct tourney_req *r, const char **method, char *path, size_t size, char **body);
/* The answer to r: HTTP status (or -1 with body the network error text),
 * body. For OPEN_GAME, status is 0 when the game screen has closed, -1
 * (body: why) when it closed without showing the game. */
unsigned tourney_on_answer(struct tourney_view *v, const struct tourney_req *r, int status, const char *body,
			   size_t len);

/* The lines of the detail screen for t as player me sees them: header,
 * stakes, standings, crosstable (laid out for width, 0: no limit,
 * scrolled to column xt_first), the games (all or the player's). The
 * caller frees *out. */
size_t tourney_build_lines(const struct protocol_tournament_view *t, int64_t me, int64_t credits, bool all_games, bool ascii,
			   int width, size_t xt_first, struct tourney_line **out);

#endif
