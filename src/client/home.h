/*
 * The home screen's model, which plain `tchess` opens: what a player can
 * start from there (a game against the engine, a seek, an invite, joining
 * by code or id, the tournaments) above the player's own games (whose
 * move, opponent, time control, move number) and the live games of
 * others to watch. Free of curses and of curl, like session.h and
 * tourney.h: keys become commands in home_key(), which changes nothing;
 * home_apply() changes the model; what it wants from the server it queues
 * (home_take_request) and the loop hands back the answer
 * (home_on_answer). Opening a game is such a request too: the loop runs
 * the play (or watch) screen on top and comes back.
 */
#ifndef TCHESS_CLIENT_HOME_H
#define TCHESS_CLIENT_HOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "corr.h"
#include "tchess/lichess.h"
#include "tchess/protocol.h"
#include "tchess/protocol-answers.h"

#define HOME_LINE_MAX 256
#define HOME_MESSAGE_MAX 240
#define HOME_INPUT_MAX 80
#define HOME_MIN_WIDTH 40
#define HOME_MIN_HEIGHT 12

/* The actions at the top of the screen, in their order (keys 1..8, q). */
enum home_action {
	HOME_ENGINE = 0, /* a game against the engine */
	HOME_SEEK,       /* an open game anyone may join */
	HOME_INVITE,     /* a game for whoever is given its code */
	HOME_JOIN,       /* join by code or id: a prompt */
	HOME_TOURNAMENTS,
	HOME_REVIEW,     /* a PGN file's games, offline: a prompt for the file */
	HOME_HOTSEAT,    /* two players at this terminal */
	HOME_SETTINGS,   /* theme, pieces, sounds */
	HOME_QUIT,
	HOME_ACTION_NB
};

enum home_req_kind {
	HOME_REQ_MY_GAMES = 1, /* GET /v1/me/games */
	HOME_REQ_LIVE,         /* GET /v1/games */
	HOME_REQ_CREATE,       /* POST /v1/games */
	HOME_REQ_FIND,         /* GET /v1/games?prefix=ID: a typed id's game */
	HOME_REQ_JOIN,         /* POST /v1/games/ID/join */
	HOME_REQ_OPEN_GAME,    /* not HTTP: the loop opens the play screen */
	HOME_REQ_TOURNAMENTS,  /* not HTTP: the loop opens the tournaments */
	HOME_REQ_REVIEW,       /* not HTTP: the loop opens the review of the file in note */
	HOME_REQ_RECENT,        /* GET /v1/me/games/finished (home-history.c) */
	HOME_REQ_RECENT_REVIEW, /* GET /v1/games/ID/pgn: saved to the games folder, then reviewed */
	HOME_REQ_RECENT_EXPORT, /* ...: saved to the games folder */
	/* The home screen on Lichess (home-lichess.c). */
	HOME_REQ_LX_PLAYING,   /* GET /api/account/playing */
	HOME_REQ_LX_SEEK,      /* not a command: the screen holds POST /api/board/seek open (form in note) */
	HOME_REQ_LX_CHALLENGE, /* ...and POST /api/challenge/NAME (id) with keepAliveStream (form in note) */
	HOME_REQ_LX_STOP,      /* not HTTP: close the seek's or the challenge's connection (cancels it) */
	HOME_REQ_LX_AI,        /* POST /api/challenge/ai (form in note) */
	HOME_REQ_LX_ACCEPT,    /* POST /api/challenge/ID/accept */
	HOME_REQ_LX_DECLINE,   /* POST /api/challenge/ID/decline */
	HOME_REQ_HOTSEAT,      /* not HTTP: the loop makes a hotseat game (tc) and opens it */
	HOME_REQ_SETTINGS,     /* not HTTP: the loop opens the settings */
};

struct home_req {
	enum home_req_kind kind;
	enum home_action action;            /* create: engine, seek or invite */
	char id[PROTOCOL_GAME_ID_MAX + 1];  /* find (the prefix), join, open */
	char invite[PROTOCOL_INVITE_MAX + 1];
	int color;                          /* open: the seat, -1 watching */
	char note[160];                     /* open: a line for the play screen; review: the file */
	int level;                          /* create, engine: its level */
	int want_color;                     /* create, engine: -1 drawn, WHITE, BLACK */
	char tc[16];                        /* create, engine, hotseat: the time control */
	char ruleset[16];                   /* create, seek and invite: "" the server's default */
	int premoves;                       /* create, seek and invite: the queue's depth (0: the default) */
};

enum home_dirty {
	HOME_DIRTY_BODY = 1u << 0,
	HOME_DIRTY_MESSAGE = 1u << 1,
	HOME_DIRTY_STATUS = 1u << 2,
	HOME_DIRTY_ALL = (1u << 3) - 1
};

enum home_cmd_kind {
	HOME_CMD_NONE = 0,
	HOME_CMD_RESIZE,
	HOME_CMD_MOVE,      /* arg: rows to move the selection by */
	HOME_CMD_SELECT,    /* arg: the row to select and activate */
	HOME_CMD_ACTIVATE,  /* the selected row */
	HOME_CMD_REFRESH,
	HOME_CMD_TYPE,      /* arg: a character for the prompt */
	HOME_CMD_ERASE,
	HOME_CMD_SUBMIT,
	HOME_CMD_CANCEL,
	HOME_CMD_QUIT,
	HOME_CMD_ENGINE_LEVEL, /* arg: +1 or -1 */
	HOME_CMD_ENGINE_COLOR, /* drawn, White, Black, drawn... */
	HOME_CMD_ENGINE_TC,    /* the next time control (of the engine's or the hotseat's row) */
	HOME_CMD_EXPORT,       /* e on a recent game: its PGN to the games folder */
	HOME_CMD_CLICK,        /* arg: the row clicked: selected, or activated when it was */
	HOME_CMD_FIELD,        /* arg: +1 or -1, the form's selected setting to its next or previous value */
	HOME_CMD_TICK,         /* the lists' periodic refresh, said nowhere */
};

struct home_cmd {
	enum home_cmd_kind kind;
	int arg, arg2;
};

/* A row of the screen: an action, a heading, or one game (on Lichess: a
 * game of the player's, HOME_ROW_MINE, or a challenge to the player,
 * HOME_ROW_LIVE). */
enum home_row_kind {
	HOME_ROW_ACTION,
	HOME_ROW_HEADING,
	HOME_ROW_MINE,
	HOME_ROW_LIVE,   /* a game being played, to watch (index into live) */
	HOME_ROW_BLANK,
	HOME_ROW_RECENT,
	HOME_ROW_SEEK,   /* an open seek of another player's, to join (index into live) */
	HOME_ROW_FIELD,  /* a setting of the seek or invite form (index: enum home_field) */
	HOME_ROW_COLUMNS, /* a lobby section's column names, on a tall terminal (index: 1 seeks, 0 live) */
};
/* A heading row's index: which heading. */
enum { HOME_HEADING_MINE = 0, HOME_HEADING_LIVE = 1, HOME_HEADING_RECENT = 2, HOME_HEADING_SEEKS = 3,
       HOME_HEADING_FORM = 4 };

/* The rows of the seek and invite form, after its heading and a blank. */
enum home_field {
	HOME_FIELD_TC = 0,
	HOME_FIELD_RULESET,
	HOME_FIELD_COLOR,
	HOME_FIELD_PREMOVES,
	HOME_FIELD_CREATE,
	HOME_FIELD_CANCEL,
	HOME_FIELD_NB
};
#define HOME_FORM_FIRST 2

/* What the form makes a game with. */
struct home_form_values {
	char tc[16];
	char ruleset[16];
	int color;    /* -1 drawn by the server, WHITE or BLACK */
	int premoves; /* 1..PREMOVE_DEPTH_MAX */
};

/* The seek and invite form (home-lobby.c): open, it is the screen's rows. */
struct home_form {
	bool open;
	enum home_action action;          /* HOME_SEEK or HOME_INVITE */
	struct home_form_values values;
	struct home_form_values saved;    /* as the config file holds them */
	int back_sel, back_top;           /* the selection it came from */
};

/* The actions of the home screen on Lichess (tchess --lichess). */
enum home_lx_action { HOME_LX_SEEK = 0, HOME_LX_AI, HOME_LX_CHALLENGE, HOME_LX_QUIT, HOME_LX_ACTION_NB };

#define HOME_LX_GAMES_MAX 32
#define HOME_LX_CHALLENGES_MAX 16

/* A challenge to the player, from the event stream. */
struct home_lx_challenge {
	char id[LICHESS_ID_MAX];
	char from[LICHESS_NAME_MAX];
	char tc[LICHESS_WORD_MAX];
	bool rated;
};

/* What the home screen on Lichess holds. */
struct home_lichess {
	char me_id[LICHESS_NAME_MAX];  /* the user, lower case */
	struct lichess_playing games[HOME_LX_GAMES_MAX];
	size_t n_games;
	bool have_games;
	struct home_lx_challenge in[HOME_LX_CHALLENGES_MAX];
	size_t n_in;
	/* A seek (or a challenge sent, waiting[] its id once known) held
	 * open: the games that were on when it began are not its game. */
	bool seeking, challenging;
	char waiting[LICHESS_ID_MAX];
	char waiting_for[LICHESS_NAME_MAX];
	char before[HOME_LX_GAMES_MAX][LICHESS_ID_MAX];
	size_t n_before;
	int tc;                        /* index into home_lx_time_controls() */
	int level;                     /* the AI's, 1..8 */
};

struct home {
	int w, h;
	int sel;   /* the selected row (an action or a game) */
	int top;   /* the first row shown */
	struct protocol_my_games mine;
	struct protocol_finished_games recent; /* the finished ones (home-history.c) */
	bool have_recent;
	struct protocol_game_summary *live;
	size_t n_live;
	bool have_mine, have_live;
	bool have_account; /* the player has a token: games can be made */
	bool typing;       /* the join prompt is open */
	bool typing_file;  /* ... or the review's file prompt */
	char input[HOME_INPUT_MAX + 1];
	char message[HOME_MESSAGE_MAX];
	bool message_error;
	bool quit;
	/* The engine game's settings, changed on its row (+ - c t). */
	int engine_level;  /* 1..FOLD_ENGINE_LEVEL_MAX */
	int engine_color;  /* -1 drawn, WHITE or BLACK */
	int engine_tc;     /* index into home_time_controls() */
	int hotseat_tc;    /* the hotseat game's, the same way (t on its row) */
	struct home_req out[8];
	size_t n_out;
	bool lichess;      /* the home screen on Lichess: lx, not mine and live */
	struct home_lichess lx;
	struct home_form form;
	char config_path[1024]; /* where the form's values are saved ("" nowhere) */
};

/* A home screen; queues the first requests (the games). */
void home_init(struct home *h, bool have_account);
/* The seek and invite form's values from the config file cfg (NULL: the
 * defaults), saved to config_path (NULL: nowhere) when a game is made
 * with others. */
struct config;
void home_form_defaults(struct home *h, const struct config *cfg, const char *config_path);
/* The home screen on Lichess, as the user me_id (lower case); queues the
 * first request (the ongoing games). The screen opens the event stream
 * and hands its lines to home_lx_event. */
void home_init_lichess(struct home *h, const char *me_id);
void home_fini(struct home *h);

/* The rows: how many, and what each is (*index: the action, or the game's
 * index in mine or live). */
int home_rows(const struct home *h);
enum home_row_kind home_row(const struct home *h, int row, size_t *index);
/* The text of row (at most width columns of it matter). */
void home_row_text(const struct home *h, int row, char *buf, size_t size);
/* The time controls the engine game's row cycles through (*n of them). */
const char *const *home_time_controls(size_t *n);
/* The status line's text. */
void home_status_text(const struct home *h, char *buf, size_t size);

struct home_cmd home_key(const struct home *h, int key);
/* A click of the mouse at column x, line y of the screen: the row's
 * HOME_CMD_CLICK, or HOME_CMD_NONE off the rows. */
struct home_cmd home_mouse(const struct home *h, int x, int y);
/* How often the lists are fetched again while the screen shows. */
#define HOME_REFRESH_MS 10000
unsigned home_apply(struct home *h, const struct home_cmd *c);
bool home_take_request(struct home *h, struct home_req *out);
/* Method, path (size bytes) and malloc'd body (NULL for none) of an HTTP
 * request. */
void home_req_http(const struct home_req *r, const char **method, char *path, size_t size, char **body);
/* The answer to r: status (-1 a network error, body its message) and
 * body. Returns dirty bits. */
unsigned home_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len);
/* One line of the Lichess event stream: a game started (a seek's or a
 * challenge's game is opened), a challenge to the player listed, one
 * cancelled or declined taken off. Returns dirty bits. */
unsigned home_lx_event(struct home *h, const struct lichess_msg *m);
/* The held seek's or challenge's connection ended (status as net-stream
 * says; text: Lichess's refusal or the network's error, or ""): the seek
 * or challenge is over, said. Returns dirty bits. */
unsigned home_lx_stream_end(struct home *h, int status, const char *text);
/* The held challenge's id (its first line), or how it went ({"done":...}). */
unsigned home_lx_challenge_line(struct home *h, const char *id, const char *done);
/* The event stream's state, said on the message line (text "" for none). */
unsigned home_lx_say(struct home *h, bool error, const char *text);
/* The Lichess time controls (*n of them) of the seek, the AI and a
 * challenge. */
const char *const *home_lx_time_controls(size_t *n);

/* A finished game's outcome from the player's side: "won", "lost" or
 * "drawn" (home-history.c; tchess games --finished says it the same). */
const char *home_recent_outcome(const struct protocol_finished_game *g);
/* ms as "today 10:42", "3 Dec" or "3 Dec 2025", in local time, as seen
 * at now_ms. */
void home_recent_date(int64_t ms, int64_t now_ms, char *buf, size_t size);

/* A game's age as the lobby says it: "45s", "2m", "3h", "2d". */
void home_lobby_age(int64_t ms, char *buf, size_t size);

/* Back from a game (or the tournaments) opened from here: why it failed
 * ("" none); refreshes the lists. */
unsigned home_back(struct home *h, const char *failed);

#endif
