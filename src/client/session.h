/*
 * The play and watch screens' model, free of curses and of curl: a game
 * mirrored by folding the server's events with the shared fold
 * (tchess/fold.h), the clocks counted down locally from the last server
 * reading, the connection state, and everything the player is doing at the
 * keyboard (cursor, picked-up piece, typed move, promotion chooser,
 * confirmation, queued premoves).
 *
 * As in review.h, keys become commands in session_key(), which reads the
 * model and changes nothing, and session_apply() is the only way the user
 * changes the model; session_on_events() is the only way the server does.
 * Both return the dirty bits of the panes to redraw.
 *
 * The model never talks to the network. What it wants sent (a move, the
 * premove queue, a resignation, a draw offer or answer, a claim, an abort,
 * adjourn or resume request, a note) it appends to its outbox; the loop hands
 * the outbox to net.c and reports the answers back with
 * session_on_answer(). Every move is checked against the rules here first:
 * an illegal one is refused with the reason and nothing is queued. The
 * game actions are checked the same way where libtchess can decide (a
 * claim with no repetition, an offer off one's move where the ruleset
 * forbids it): refused at once, with libtchess's reason, and no request.
 * Every action names the ply it is meant for, so a retry after a dropped
 * connection has no second effect on the server.
 *
 * Undo games (takeback.h): the mover's move is provisional and shown on
 * every board until "done" commits it; u takes it back, d commits it.
 * Rematch series (series.h): after the game r offers a rematch or accepts
 * the opponent's; when the accepted event names the next game, the model
 * switches to it (colours swapped, board turned) and polls it from seq 0.
 *
 * The passing of time is the third source of change: session_tick()
 * follows each clock across the low-time threshold and asks for the bell
 * (SESSION_DIRTY_BELL) when the player's own clock crosses it.
 *
 * Times: mono_ms is the client's monotonic clock in milliseconds, passed in
 * by the caller, so the tests need no sleeping.
 */
#ifndef TCHESS_CLIENT_SESSION_H
#define TCHESS_CLIENT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board-view.h"
#include "movelist.h"
#include "tchess/fold.h"
#include "tchess/protocol.h"

enum session_conn {
	SESSION_CONN_CONNECTING = 0,
	SESSION_CONN_ONLINE,
	SESSION_CONN_RECONNECTING
};

/* What the model wants sent; session_req_http() turns it into a request. */
enum session_req_kind {
	SESSION_REQ_MOVE,          /* POST moves {ply, move} */
	SESSION_REQ_PREMOVES,      /* PUT premoves {ply, moves} */
	SESSION_REQ_PREMOVES_CLEAR,/* DELETE premoves */
	SESSION_REQ_RESIGN,        /* POST resign */
	SESSION_REQ_PGN,           /* GET pgn (to save it) */
	SESSION_REQ_DRAW,          /* POST draw {ply, action} */
	SESSION_REQ_ABORT,         /* POST abort {ply, action} */
	SESSION_REQ_ADJOURN,       /* POST adjourn {ply, action} */
	SESSION_REQ_RESUME,        /* POST resume {ply, action} */
	SESSION_REQ_CLAIM,         /* POST claim {ply, claim, move?} */
	SESSION_REQ_NOTE,          /* POST notes {text} */
	SESSION_REQ_TAKEBACK,      /* POST takeback {ply} (undo games) */
	SESSION_REQ_DONE,          /* POST done {ply} (undo games) */
	SESSION_REQ_REMATCH,       /* POST rematch {ply, action} (after the game) */
	SESSION_REQ_NEW_GAME,      /* POST games: the engine again, colours swapped (after an engine game) */
	SESSION_REQ_PRESENCE       /* GET the game: a hotseat's second seat is still here */
};

/* A note's text as the editor takes it (the server takes up to
 * PROTOCOL_NOTE_MAX bytes; a request must fit in net.h's NET_DATA_MAX). */
#define SESSION_NOTE_MAX 200

struct session_req {
	enum session_req_kind kind;
	int64_t ply;
	int n;                                              /* premoves */
	char moves[PROTOCOL_PREMOVES_MAX][PROTOCOL_MOVE_MAX]; /* move, a claim's move: [0] */
	enum protocol_action action;                        /* draw, abort, adjourn, resume, rematch */
	enum protocol_claim claim;                          /* claim */
	char text[SESSION_NOTE_MAX];                        /* note; a new game's time control */
	int color;                                          /* a new game's colour: WHITE or BLACK */
	char ruleset[PROTOCOL_WORD_MAX];                    /* a new game's ruleset */
	int seat;                                           /* hotseat: the side it is sent for */
};

#define SESSION_OUTBOX_MAX 16
/* The low-time threshold when the config sets none: a tenth of the first
 * period's base time, but no less than LOW_MIN and no more than LOW_MAX
 * (a minute is warning enough in a long game). */
#define SESSION_LOW_TIME_MIN_MS 10000
#define SESSION_LOW_TIME_MAX_MS 60000
#define SESSION_PROMPT_MAX 16
#define SESSION_MESSAGE_MAX 240

enum session_cmd_kind {
	SESSION_CMD_NONE,
	SESSION_CMD_QUIT,           /* asks first while the game runs */
	SESSION_CMD_CURSOR,         /* arg: dx, arg2: dy on screen */
	SESSION_CMD_PICK,           /* pick up or drop at the cursor */
	SESSION_CMD_CLICK,          /* arg: square clicked (or dragged onto) */
	SESSION_CMD_CANCEL,         /* drop the selection, close a question */
	SESSION_CMD_FLIP,
	SESSION_CMD_HELP,
	SESSION_CMD_PROMPT_OPEN,
	SESSION_CMD_PROMPT_INPUT,   /* arg: the character */
	SESSION_CMD_PROMPT_ERASE,
	SESSION_CMD_PROMPT_COMPLETE,/* Tab */
	SESSION_CMD_PROMPT_SUBMIT,
	SESSION_CMD_PROMPT_CANCEL,
	SESSION_CMD_PROMOTE,        /* arg: KNIGHT..QUEEN */
	SESSION_CMD_PREMOVES_CLEAR,
	SESSION_CMD_RESIGN,         /* asks first */
	SESSION_CMD_DRAW_OFFER,
	SESSION_CMD_DRAW_WITHDRAW,
	SESSION_CMD_ACCEPT,         /* the opponent's standing offer or request */
	SESSION_CMD_DECLINE,
	SESSION_CMD_CLAIM_DRAW,     /* threefold or fifty; at the prompt with the typed move */
	SESSION_CMD_CLAIM_TABLEBASE,
	SESSION_CMD_ABORT,          /* asks first when it aborts at once */
	SESSION_CMD_ADJOURN,        /* adjourn, or resume an adjourned game */
	SESSION_CMD_GONE_CLAIM,     /* the opponent is gone: what the ruleset gives (asks first) */
	SESSION_CMD_NOTES_OPEN,     /* the notes pane (toggles) */
	SESSION_CMD_NOTES_INPUT,    /* arg: the character */
	SESSION_CMD_NOTES_ERASE,
	SESSION_CMD_NOTES_SUBMIT,
	SESSION_CMD_NOTES_CLOSE,
	SESSION_CMD_CONFIRM_YES,
	SESSION_CMD_CONFIRM_NO,
	SESSION_CMD_SAVE_PGN,       /* after the game */
	SESSION_CMD_SCROLL,         /* arg: rows of the move list */
	SESSION_CMD_RESIZE,         /* arg: width, arg2: height */
	SESSION_CMD_REDRAW,
	SESSION_CMD_SPECTATING,     /* a move input while watching */
	SESSION_CMD_TAKEBACK,       /* undo games: take the provisional move back */
	SESSION_CMD_DONE,           /* undo games: commit the provisional move */
	SESSION_CMD_REMATCH,        /* after the game: offer, or accept the offer */
	SESSION_CMD_NEW_GAME,       /* after an engine game: the same game again, same colour */
	SESSION_CMD_MENU,           /* the action menu (toggles) */
	SESSION_CMD_NB
};

struct session_cmd {
	enum session_cmd_kind kind;
	long arg, arg2;
};

enum session_confirm {
	SESSION_CONFIRM_NONE = 0,
	SESSION_CONFIRM_RESIGN,
	SESSION_CONFIRM_QUIT,
	SESSION_CONFIRM_ABORT,      /* an abort that ends the game at once */
	SESSION_CONFIRM_CLAIM_WIN,
	SESSION_CONFIRM_DISCARD
};

/* A note of the game: mine while it runs (private), everyone's once the
 * notes-revealed event made them public. color is the author's side, -1
 * when unknown (a note written after the end reaches everyone without its
 * author). */
struct session_note {
	int64_t seq;
	int color;
	char *text;                /* malloc'd */
};

/* Panes, as dirty bits. */
enum {
	SESSION_DIRTY_BOARD = 1 << 0,
	SESSION_DIRTY_CLOCKS = 1 << 1,  /* the players, clocks and material */
	SESSION_DIRTY_MOVES = 1 << 2,
	SESSION_DIRTY_INFO = 1 << 3,    /* below the board: turn, result */
	SESSION_DIRTY_STATUS = 1 << 4,  /* message/prompt line and status line */
	SESSION_DIRTY_HELP = 1 << 5,
	SESSION_DIRTY_CLEAR = 1 << 6,
	SESSION_DIRTY_NOTES = 1 << 7,   /* the notes pane */
	SESSION_DIRTY_ALL = (1 << 8) - 1,
	/* Not a pane: ring the terminal bell once (outside ALL on purpose,
	 * so a full redraw never rings). */
	SESSION_DIRTY_BELL = 1 << 8,
	/* Nor this: flash the screen once (the opponent moved). */
	SESSION_DIRTY_FLASH = 1 << 9
};

#define SESSION_MIN_WIDTH 60
#define SESSION_MIN_HEIGHT 14

/* Why the game can no longer be followed: the server refused the poll for
 * good. */
enum session_gone {
	SESSION_GONE_NOT = 0,
	SESSION_GONE_ERASED,        /* 410: aborted, and erased after the retention */
	SESSION_GONE_MISSING,       /* 404: no such game (any more) on this server */
	SESSION_GONE_ACCOUNT        /* 401: the token is not known to this server */
};

struct session_layout {
	int w, h;
	bool too_small;
	struct board_geometry board;
	int info_y, info_h;
	int side_x, side_w;
	int clocks_h;       /* top of the side column */
	int moves_y, moves_h;
	int message_y, status_y;
};

struct session {
	char game_id[PROTOCOL_GAME_ID_MAX + 1];
	int me;                    /* WHITE or BLACK; -1 when watching */
	struct game_view view;     /* the fold of the events seen so far */
	int64_t after;             /* the seq to poll after */
	bool resync;               /* an event was refused: refold from 0 */
	char (*san)[SAN_MAX];      /* view.game.n_plies entries */
	size_t san_cap;

	/* The clock reading at the last answer, and when it arrived here. */
	struct fold_clock_reading reading;
	int64_t reading_mono_ms;
	int64_t reading_server_ms; /* the server's now_ms of that answer */
	bool have_reading;

	/* A move sent and not yet seen in the log: drawn at once. */
	bool pending;
	move pending_move;
	int64_t pending_ply;

	/* Undo games: my take-back or done sent and not yet seen in the log,
	 * drawn at once as the fold will show it (SESSION_REQ_TAKEBACK or
	 * SESSION_REQ_DONE, for the turn of ply undo_ply); the event, or the
	 * server's refusal, ends it. */
	bool undo_sent;
	enum session_req_kind undo_kind;
	int64_t undo_ply;

	/* The premove queue as entered here (the server's, once it answers). */
	struct premove_queue premoves;
	/* Premove requests sent (or in the outbox) and not yet answered.
	 * While any is out, the queue entered here is newer than what the
	 * server's events show, and each request sends the whole queue: an
	 * event must not overwrite it, or a premove typed while the previous
	 * one's request was on its way would vanish and the next request
	 * would tell the server to forget it too. */
	int premoves_out;
	/* > 0: a premoves request was refused for a stale ply (the server
	 * had played a premove of its queue meanwhile) at this seq of the
	 * game; it still counts in premoves_out, and the queue kept here
	 * (shifted as its premoves were played) is sent again at the new
	 * ply once the mirror reaches this seq. */
	int64_t premoves_stale_seq;

	enum session_conn conn;
	int64_t rtt_ms;            /* -1 unknown */
	int reconnects;

	/* Input state. */
	bool flipped;
	bool ascii;
	int cursor, selected;
	bool promo;                /* the promotion chooser is open */
	int promo_from, promo_to;
	bool prompt;
	char prompt_text[SESSION_PROMPT_MAX];
	enum session_confirm confirm;
	bool help;
	bool menu;                 /* the action menu is open */
	char message[SESSION_MESSAGE_MAX];
	bool message_error;
	int ml_top;
	struct movelist ml;
	bool over_seen;            /* the game-over message was given */
	struct session_note *notes;
	size_t n_notes, notes_cap;
	bool notes_revealed;       /* the notes are everyone's (after the game) */
	bool notes_open;           /* the notes pane and its editor */
	char note_text[SESSION_NOTE_MAX];
	bool saved;
	char save_dir[256];        /* where s saves the PGN ("": account_games_dir) */
	char note[160];            /* shown while waiting ("tchess join ...") */

	/* Low time: the config's threshold (-1: the default, 0: never), the
	 * bell, and each clock's last state (-1 not known yet: no bell). */
	int64_t low_time_cfg_ms;
	bool bell;
	int low_state[2];
	/* The opponent's move (CONFIG_ALERT_*: 0 none, 1 the bell, 2 a
	 * flash): only for moves made while the screen follows the game,
	 * not those of the first answer or of a refold from 0 (alert_plies:
	 * the most plies seen so far; session_move_alert). */
	int move_alert;
	bool alert_ready;
	int64_t alert_plies;
	int games_followed;        /* rematches switched to */

	struct session_req outbox[SESSION_OUTBOX_MAX];
	int n_out;

	/* Set when a poll was refused for good: no more polling, the clocks
	 * stand still, the keys that would ask the server something only
	 * say why, and q leaves without asking. */
	enum session_gone gone;
	int64_t gone_mono_ms;

	/* A hotseat game: two players at one terminal hold both seats. me
	 * follows the side to move (session_hotseat_follow), the board turns
	 * to the mover when hotseat_flip, and each request carries the seat
	 * it is made for (session_req.seat), which the backend sends with
	 * that seat's token; hotseat_host is the seat of the token the net
	 * was opened with. */
	bool hotseat;
	bool hotseat_flip;
	int hotseat_host;
	/* The server counts a seat gone when it sends nothing for the
	 * disconnect grace; only the host's token polls, so the other seat
	 * reads the game (SESSION_REQ_PRESENCE) at this mono instant. */
	int64_t hotseat_seen_due_ms;

	struct session_layout layout;
	bool quit;
	int64_t mono_ms;           /* the instant of the last session_tick */
	long left_shown_s;         /* the opponent-left countdown's seconds last shown, -1 none */

	/* A Lichess game (session_on_lichess): the premoves are kept and
	 * played here, not by the server; premove_fired says that the move
	 * in the outbox is one (for the latency log). Beside the view: the
	 * take-back proposals standing, the opponent gone (the win claimable
	 * from lichess_claim_at_ms, mono ms), the chat lines taken into the
	 * notes pane. */
	bool lichess;
	bool premove_fired;
	bool lichess_takeback[2];
	bool lichess_gone;
	int64_t lichess_claim_at_ms;
	long lichess_chat_seen;
	int64_t lichess_first_move_by_ms;   /* mono ms; INT64_MAX none */
	char lichess_about[64];             /* "Lichess rapid rated" for the header */
	char lichess_end[96];               /* how it ended, in Lichess's terms */
};

struct lichess_game;

/* Sets s up for game id, played as me (WHITE/BLACK) or watched (-1). */
void session_init(struct session *s, const char *game_id, int me);
void session_fini(struct session *s);
/* Makes s a hotseat game (session.h, hotseat): host is the seat of the
 * net's own token, flip whether the board turns to each mover. */
void session_hotseat(struct session *s, int host, bool flip);
/* A hotseat game: me becomes the side to move, and the board turns to it
 * when the game flips per move. Returns dirty bits (0: nothing changed,
 * or not a hotseat game). */
unsigned session_hotseat_follow(struct session *s);

/* Folds the events of one long-poll answer (in seq order; ones already
 * applied are skipped) and anchors the clocks to the answer's now_ms,
 * received at mono_ms. Sets the next poll's seq. Returns dirty bits; on an
 * event the fold refuses, returns them too with a message, and the caller
 * should poll again from 0 after session_reset(). */
unsigned session_on_events(struct session *s, const struct protocol_events *evs, int64_t mono_ms);

/* A Lichess game (session-lichess.c): the model's lines applied since
 * the last call (changed: its LICHESS_CHANGED_ bits) at mono_ms, its view
 * taken as the mirror; the first premove played when the turn comes back.
 * Returns dirty bits. */
unsigned session_on_lichess(struct session *s, const struct lichess_game *g, unsigned changed, int64_t mono_ms);
/* What the Lichess backend has to say (a stream refused, a wait). */
unsigned session_lichess_say(struct session *s, const char *text, bool error);
/* req as a Board API command: method, path (size bytes) and a malloc'd
 * form body (NULL for none). False for a request Lichess has no command
 * for (premoves, kept here; adjourn, undo, rematch). */
bool session_lichess_req_http(const struct session *s, const struct session_req *req, const char **method,
			      char *path, size_t size, char **form);

/* Forgets the mirror (to refold from seq 0 after a refused event). */
void session_reset(struct session *s);

/* An answer to an outbox request: status is the HTTP status (0: network
 * error, which the caller retries), err the decoded error body or NULL. */
unsigned session_on_answer(struct session *s, const struct session_req *req, int status,
			   const struct protocol_error *err);
/* The engine game asked for after an engine game (SESSION_REQ_NEW_GAME)
 * was created as id, with me playing color: the screen follows it from
 * seq 0, the board turned to the new colour. */
unsigned session_on_new_game(struct session *s, const char *id, int color);
/* The PGN text arrived for a save; writes it to a file. */
unsigned session_on_pgn(struct session *s, const char *text, size_t len);

/* A poll the server refused: status is its HTTP status (4xx; net.c waits
 * out a 429 and retries 5xx itself), err the decoded body or NULL. 404,
 * 410 and 401 end the following for good (s->gone says why, and with
 * nothing of the game seen yet s->quit is set so that the caller can say
 * it on the terminal); *retry is then false. Any other refusal is shown
 * and *retry is true: the caller polls again after a backoff. Returns the
 * dirty bits. mono_ms is when the refusal arrived: the clocks stop there. */
unsigned session_on_poll_refused(struct session *s, int status, const struct protocol_error *err, int64_t mono_ms,
				 bool *retry);
/* What s->gone means for the player: a headline ("this game was aborted
 * and erased") into head and what to do about it into hint. False (both
 * "") while the game is followed. */
bool session_gone_text(const struct session *s, char *head, size_t hsize, char *hint, size_t isize);

/* Connection state changes (from the loop). */
unsigned session_set_conn(struct session *s, enum session_conn c, int64_t rtt_ms);

/* The command for a key in the current state of s. Changes nothing. */
struct session_cmd session_key(const struct session *s, int key);
/* Whether a letter typed at the board starts a move: a seated player's
 * game that has started and is not over. Then every key that can start a move (a-h, A-H,
 * K Q R B N, k q r b n, O o 0) opens the move prompt with it, and the
 * actions are on keys no move starts with and in the action menu. */
bool session_typing_moves(const struct session *s);

/* The action menu's rows: the key that gives the command while the menu
 * is open, and what it does. */
struct session_menu_item {
	int key;
	enum session_cmd_kind cmd;
	const char *label;
};
/* The rows (*n of them), in the order shown. */
const struct session_menu_item *session_menu_items(size_t *n);

/* Applies c; returns dirty bits. */
unsigned session_apply(struct session *s, const struct session_cmd *c);

/* Takes the oldest outbox request into *out; false when empty. */
bool session_take_request(struct session *s, struct session_req *out);
/* Method, path (size bytes) and malloc'd JSON body (NULL for none) of req. */
void session_req_http(const struct session *s, const struct session_req *req, const char **method, char *path,
		      size_t size, char **body);

/* The server instant shown at mono_ms: the last answer's now_ms plus the
 * time since it arrived (frozen once the game is gone). */
int64_t session_server_ms(const struct session *s, int64_t mono_ms);
/* Whether tchessd is away (the connection is reconnecting): its clocks
 * then stand as its last event left them, since after a restart it
 * resumes them from that instant (clock-resumed) and charges nobody for
 * the time since. What is shown is what it will charge; a server that
 * stayed up behind a broken link charged on, and its next answer says
 * so. */
bool session_server_away(const struct session *s);
/* The remaining time of colour c at mono_ms: the fold's reading of the
 * clock at session_server_ms. */
int64_t session_clock_ms(const struct session *s, int c, int64_t mono_ms);
/* Whether c's clock is running. */
bool session_clock_running(const struct session *s, int c);
/* The first-move rule's countdown at mono_ms: the milliseconds left to
 * *side (the side to move) for its first move before the server aborts
 * the game (at least 0), or -1 when no such limit stands. */
int64_t session_first_move_ms(const struct session *s, int64_t mono_ms, int *side);
/* Milliseconds until a clock's text changes, or -1 when none runs. */
int64_t session_next_tick(const struct session *s, int64_t mono_ms);

/* The opponent's move, for either backend: called after each answer or
 * stream pass has been folded into the mirror (screen-play.c), it
 * returns SESSION_DIRTY_BELL or SESSION_DIRTY_FLASH (move_alert) when
 * the mirror holds more plies than ever before and the opponent made one
 * of them; 0 for the mirror's first plies, for my own moves, in hotseat
 * and when watching. */
unsigned session_move_alert(struct session *s);

/* The passing of time at mono_ms: CLOCKS when a clock crossed the
 * low-time threshold either way, with BELL when it was my own clock going
 * under it, running, and the bell is on. */
unsigned session_tick(struct session *s, int64_t mono_ms);
/* The low-time threshold in milliseconds (0: none). */
int64_t session_low_threshold_ms(const struct session *s);
/* Whether c's clock is under the threshold at mono_ms in a running game. */
bool session_clock_low(const struct session *s, int c, int64_t mono_ms);

/* Undo games: whether my provisional move stands (or my move is on its
 * way, which the server will make provisional), and is not being taken
 * back. */
bool session_provisional_mine(const struct session *s);
/* Undo games: my take-back (SESSION_REQ_TAKEBACK) or done
 * (SESSION_REQ_DONE) on its way and still meant for this turn; shown at
 * once (the move gone, or played and the turn passed) until its event
 * arrives. False when none. */
bool session_undo_sent(const struct session *s, enum session_req_kind *kind);
/* The move shown after the committed ones: my move on its way, or the
 * provisional move of an undo game ("(Nf3)"). False (san "") if none. */
bool session_extra_move(const struct session *s, char *san, size_t size);
/* The undo game's hint for the status line ("undo game: press d when
 * done, u takes back"); false (buf "") when there is none to give. */
bool session_undo_text(const struct session *s, char *buf, size_t size);
/* The series score for the info pane ("series: you 1½–½ bob, game 2");
 * players see their own points first, spectators White's game's order.
 * False (buf "") when the game is in no series. */
bool session_series_text(const struct session *s, char *buf, size_t size);
/* My queued premoves for the info pane, SAN-like on the board the queue
 * leaves ("premove: d6   x clears", "premoves: 1. d6 2. Nf6   x clears";
 * "d7-d6" when a premove's piece is gone). False (buf "") when none, for a
 * spectator, or once the game is over. */
bool session_premoves_text(const struct session *s, char *buf, size_t size);
/* Whether r may offer (or accept) a rematch now; *why when not. */
bool session_rematch_possible(const struct session *s, const char **why);
/* Whether n starts a new game: after a game against the engine (not
 * aborted), for its player. */
bool session_new_game_possible(const struct session *s);

/* The end for the viewer, said plainly: "You won", "You lost", "Draw",
 * "Aborted, unscored", "Unscored"; a spectator's "White won". "" while it runs. */
void session_outcome_text(const struct session *s, char *buf, size_t size);
/* Whether the game is over; the "1-0 checkmate" line into buf. */
bool session_over(const struct session *s);
/* Whether the player waits, seated, for an opponent who has not joined
 * (a seek or an invite): leaving then withdraws it. */
bool session_waiting(const struct session *s);
void session_result_text(const struct session *s, char *buf, size_t size);
/* Why the game ended, in words ("White resigned", "Black accepted White's
 * draw offer", "claimed by White with Nf3"), with the game-ended event's
 * reason where it has one; "" while the game goes on. */
void session_end_text(const struct session *s, char *buf, size_t size);
/* The standing offer or request, or the absent opponent, as the status line
 * shows it ("Black offers a draw - A accept, D decline"), with the keys
 * that answer it when they are mine to press. False (buf "") if none. */
bool session_request_text(const struct session *s, char *buf, size_t size);

/* A seat that left a running game, as both backends know it: tchessd's
 * left event (its instants read at the estimated server time) and
 * Lichess's opponentGone (claimWinInSeconds from its arrival). */
enum session_left_then {
	SESSION_LEFT_CLAIM = 0, /* the win may be claimed from at_mono */
	SESSION_LEFT_ADJOURN,   /* the game adjourns at at_mono (yourpot) */
	SESSION_LEFT_END        /* the game ends unscored at at_mono (fide) */
};
struct session_left {
	int color;                   /* the seat that left */
	enum session_left_then then;
	int64_t at_mono;             /* mono ms; INT64_MAX not said yet */
};
/* Whether a seat other than mine has left the running game (*out then). */
bool session_opponent_left(const struct session *s, struct session_left *out);
/* A hotseat game's adjournment, or its resumption once adjourned: both
 * players are at the keyboard, so the seat to move asks (out[0]) and the
 * other accepts (out[1], its seat in seat). False (out untouched) unless
 * s is a hotseat game that runs. */
bool session_hotseat_consent(const struct session *s, struct session_req out[2]);
/* Whole seconds until l->at_mono at mono_ms (0 once reached, -1 not said). */
long session_left_seconds(const struct session_left *l, int64_t mono_ms);
/* "opponent left — claim victory in 8 s", "... press V to claim victory";
 * false when nobody left. */
bool session_left_text(const struct session *s, int64_t mono_ms, char *buf, size_t size);
/* The position shown: the mirror's, with a pending move made. */
void session_position(const struct session *s, struct position *out);
/* The side whose turn it is: the shown position's, except that an undo
 * game's provisional move does not pass the turn (done does). */
int session_turn(const struct session *s);
/* The board pane's view model. */
void session_board_view(const struct session *s, struct board_view *v);
/* The side to move in the shown position may be moved by me now. */
bool session_my_turn(const struct session *s);

/* Computes the pane layout for a w x h terminal. */
void session_layout_compute(struct session_layout *l, int w, int h);

/* Completes the typed prefix to the legal moves (SAN) that start with it;
 * writes the common completion into s->prompt_text and the candidates,
 * blank-separated, into buf. Returns their number. */
int session_complete(struct session *s, char *buf, size_t size);

#endif
