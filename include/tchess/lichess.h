/*
 * The Lichess Board API's messages, decoded (src/protocol/lichess-json.c):
 * one line of a game stream (GET /api/board/game/stream/{id}: gameFull,
 * gameState, chatLine, opponentGone), one line of the event stream
 * (GET /api/stream/event: gameStart, gameFinish, challenge...), and the
 * error body of a refusal ({"error": ...}). The shapes are the published
 * API's (lichess-org/api, doc/specs/schemas); members this client does not
 * use are passed over, as Lichess adds members over time, but a member it
 * uses must have its type. The decoders never abort on bad input: they
 * return -1 with a message.
 */
#ifndef TCHESS_LICHESS_H
#define TCHESS_LICHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LICHESS_ID_MAX 32         /* game and challenge ids are 8 (12 with the colour) */
#define LICHESS_NAME_MAX 40       /* buffers; user names are at most LICHESS_USERNAME_MAX */
#define LICHESS_USERNAME_MAX 30
#define LICHESS_WORD_MAX 32       /* status, speed, variant, room */
#define LICHESS_FEN_MAX 100
#define LICHESS_TEXT_MAX 400      /* a chat line (Lichess cuts them at 140) */
#define LICHESS_MESSAGE_MAX 200   /* an error's text */

/* The paths this client uses, under the base URL (lichess_url). */
#define LICHESS_PATH_ACCOUNT "/api/account"
#define LICHESS_PATH_TOKEN "/api/token"
#define LICHESS_PATH_GAME_STREAM "/api/board/game/stream/"   /* + the game id */
#define LICHESS_PATH_GAME "/api/board/game/"                 /* + id + "/move/e2e4", "/resign" ... */
#define LICHESS_PATH_PLAYING "/api/account/playing"
#define LICHESS_PATH_CHALLENGE_AI "/api/challenge/ai"
#define LICHESS_PATH_CHALLENGE "/api/challenge/"             /* + id + "/accept", "/decline" */
#define LICHESS_PATH_SEEK "/api/board/seek"
#define LICHESS_PATH_EVENTS "/api/stream/event"
#define LICHESS_PATH_WATCH "/api/stream/game/"                /* + the game id: the public stream */

enum lichess_msg_kind {
	LICHESS_MSG_OTHER = 0,       /* a type this client passes over */
	LICHESS_MSG_GAME_FULL,
	LICHESS_MSG_GAME_STATE,
	LICHESS_MSG_CHAT,
	LICHESS_MSG_OPPONENT_GONE,
	LICHESS_MSG_GAME_START,      /* event stream */
	LICHESS_MSG_GAME_FINISH,     /* event stream */
	LICHESS_MSG_CHALLENGE,       /* event stream */
	LICHESS_MSG_CHALLENGE_CANCELED,
	LICHESS_MSG_CHALLENGE_DECLINED
};

/* A seat: a user (name, rating 0 if none) or the Lichess AI (ai_level 1-8). */
struct lichess_player {
	char id[LICHESS_NAME_MAX];
	char name[LICHESS_NAME_MAX];
	char title[8];
	int rating;
	int ai_level;                /* 0: a user */
};

/* gameState, alone or inside gameFull. moves is malloc'd (every move since
 * the start, UCI, blank-separated; "" none). Times in ms; wtime/btime are
 * the remaining times when the line was written. */
struct lichess_state {
	char *moves;
	int64_t wtime, btime, winc, binc;
	char status[LICHESS_WORD_MAX];
	int winner;                  /* WHITE, BLACK, or -1 */
	bool wdraw, bdraw, wtakeback, btakeback;
	bool has_expiration;
	int64_t idle_ms, ms_to_move; /* expiration: the first-move deadline */
};

struct lichess_msg {
	enum lichess_msg_kind kind;
	char type[LICHESS_WORD_MAX]; /* the wire type, as sent */
	/* gameFull; gameStart/gameFinish and challenges name a game id too. */
	char id[LICHESS_ID_MAX];
	char variant[LICHESS_WORD_MAX];
	char speed[LICHESS_WORD_MAX];
	bool rated;
	struct lichess_player white, black;
	char initial_fen[LICHESS_FEN_MAX];  /* "startpos" or a FEN */
	bool has_clock;
	int64_t clock_initial_ms, clock_increment_ms;
	int days_per_turn;           /* 0: not correspondence */
	/* gameFull's state, or a gameState. */
	struct lichess_state state;
	/* chatLine */
	char username[LICHESS_NAME_MAX];
	char text[LICHESS_TEXT_MAX];
	char room[LICHESS_WORD_MAX];
	/* opponentGone */
	bool gone;
	int64_t claim_win_s;         /* -1 when not given */
	/* gameStart: my colour (-1 unknown); challenge: the challenger */
	int color;
	char challenger[LICHESS_NAME_MAX];
	/* challenge: the challenger's and the challenged user's ids ("" for
	 * an open challenge), and the time control as Lichess shows it
	 * ("10+0", "3 days", "unlimited"; "" when not given) */
	char challenger_id[LICHESS_NAME_MAX];
	char dest_id[LICHESS_NAME_MAX];
	char tc_text[LICHESS_WORD_MAX];
};

void lichess_msg_init(struct lichess_msg *m);
/* Frees what m holds (the moves); m may be reused after lichess_msg_init. */
void lichess_msg_fini(struct lichess_msg *m);

/* Decodes one stream line (len bytes, no newline; not NUL-terminated) into
 * m (initialised by the call). Returns 0, or -1 with a message in err
 * (errsize bytes) and m holding nothing to free. */
int lichess_msg_decode(const char *line, size_t len, struct lichess_msg *m, char *err, size_t errsize);

/* The answer of GET /api/account (the token's owner): its id and
 * username into p (name; title when it has one). Returns 0, or -1 with a
 * message when the body is not an account or the username is not one
 * (1 to LICHESS_USERNAME_MAX letters, digits, '_' or '-'). */
int lichess_account_decode(const char *body, size_t len, struct lichess_player *p, char *err, size_t errsize);

/* One of the user's ongoing games (GET /api/account/playing). */
struct lichess_playing {
	char id[LICHESS_ID_MAX];       /* gameId */
	int color;                     /* WHITE, BLACK */
	bool my_turn;
	char opponent[LICHESS_NAME_MAX]; /* username, or "AI level N" */
	char speed[LICHESS_WORD_MAX];
};

/* The answer of GET /api/account/playing: up to max games into out, their
 * number in *n. Returns 0, or -1 with a message (nothing kept). */
int lichess_playing_decode(const char *body, size_t len, struct lichess_playing *out, size_t max, size_t *n,
			   char *err, size_t errsize);

/* The id of the game in an answer that is one (POST /api/challenge/ai's
 * 201): 8 letters and digits into id. Returns 0 or -1 with a message. */
int lichess_game_id_decode(const char *body, size_t len, char *id, size_t size, char *err, size_t errsize);

/* One line of the public stream of a game (GET /api/stream/game/{id}, for
 * spectators): the game's description (the first line, and the last once
 * the game is over: description true) or a position ({"fen", "lm", "wc",
 * "bc"}). */
struct lichess_watch_line {
	bool description;
	char id[LICHESS_ID_MAX];
	char variant[LICHESS_WORD_MAX];
	char speed[LICHESS_WORD_MAX];
	bool rated;
	struct lichess_player white, black;
	char fen[LICHESS_FEN_MAX];       /* the position now ("" none given) */
	char lm[8];                      /* the move that made it, UCI ("" none) */
	int64_t wc, bc;                  /* the clocks in seconds, -1 not given */
	bool has_clock;                  /* description: clock {initial, increment} */
	int64_t clock_initial_s, clock_increment_s;
	char status[LICHESS_WORD_MAX];   /* description: status.name ("" none) */
	int winner;                      /* WHITE, BLACK, -1 */
};

/* Decodes one line of the public game stream into w. Returns 0, or -1
 * with a message. */
int lichess_watch_decode(const char *line, size_t len, struct lichess_watch_line *w, char *err, size_t errsize);

/* The answer of POST /api/token (an OAuth code traded for a token):
 * {"token_type":"Bearer","access_token":"lio_...","expires_in":N}; the
 * token (letters, digits, '_', at most size - 1 of them) into out.
 * Returns 0, or -1 with a message. */
int lichess_token_decode(const char *body, size_t len, char *out, size_t size, char *err, size_t errsize);

/* A held challenge's last line ({"done": "accepted"|"declined"|...},
 * POST /api/challenge/{username} with keepAliveStream): the word into
 * out. False (out "") for any other line. */
bool lichess_done_decode(const char *line, size_t len, char *out, size_t size);

/* The text of a refusal's body ({"error": "..."} or {"error": {...}}),
 * into out; false (out "") when the body says nothing readable. */
bool lichess_error_text(const char *body, size_t len, char *out, size_t size);

/* Whether a gameState status ends the game (anything after "started"). */
bool lichess_status_final(const char *status);

#endif
