/*
 * A game of chess as data: the start position, the list of moves with the
 * time each was made and the clock reading after it, and every way a game
 * ends or pauses, decided by the one set of rules that the server folds its
 * event log through and the client mirrors.
 *
 * Each command (play, claim, offer, resign, flag, abort, ...) checks its
 * input and the state first; on error it returns a code, fills the
 * struct tchess_error if one is given, and changes nothing. After every
 * move the automatic endings are applied in this order: checkmate,
 * stalemate, insufficient material, dead position, fivefold repetition,
 * the 75-move rule, then threefold repetition and the fifty-move rule when
 * the ruleset makes them automatic. So a mate on the move that completes
 * the 75th stands, and a stalemate beats the 75-move rule.
 *
 * Repetition compares side to move, placement, castling rights and legally
 * available en-passant captures (struct position's key, confirmed with
 * position_same() before a game is ended or a claim granted), only since
 * the last capture or pawn move. Positions before the start position are
 * unknown: a FEN alone does not establish repetition history.
 *
 * Time enters as plain int64 milliseconds; the clock model is elsewhere.
 * The game owns its ply array (malloc'd); everything else is plain data.
 */
#ifndef TCHESS_GAME_H
#define TCHESS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/error.h"
#include "tchess/move.h"
#include "tchess/position.h"
#include "tchess/ruleset.h"

/* Results, written "1-0", "0-1", "1/2-1/2" and "*". */
enum game_result {
	GAME_RESULT_NONE = 0,  /* "*": ongoing, adjourned, aborted or unscored */
	GAME_RESULT_WHITE_WINS,
	GAME_RESULT_BLACK_WINS,
	GAME_RESULT_DRAW
};

/* Why a game ended (or paused: GAME_TERM_ADJOURNED). The names, for the
 * PGN Termination tag and the protocol, are in the comments. */
enum game_termination {
	GAME_TERM_NONE = 0,                   /* "" */
	GAME_TERM_CHECKMATE,                  /* "checkmate" */
	GAME_TERM_RESIGNATION,                /* "resignation" */
	GAME_TERM_STALEMATE,                  /* "stalemate" */
	GAME_TERM_TIMEOUT,                    /* "timeout" */
	GAME_TERM_TIMEOUT_VS_INSUFFICIENT,    /* "timeout-vs-insufficient-material" */
	GAME_TERM_INSUFFICIENT_MATERIAL,      /* "insufficient-material" */
	GAME_TERM_DEAD_POSITION,              /* "dead-position" */
	GAME_TERM_THREEFOLD,                  /* "threefold" */
	GAME_TERM_FIVEFOLD,                   /* "fivefold" */
	GAME_TERM_FIFTY_MOVES,                /* "fifty-moves" */
	GAME_TERM_SEVENTYFIVE_MOVES,          /* "seventyfive-moves" */
	GAME_TERM_AGREEMENT,                  /* "agreement" */
	GAME_TERM_ABORTED,                    /* "aborted" */
	GAME_TERM_TABLEBASE,                  /* "tablebase" */
	GAME_TERM_TECHNICAL_FAILURE,          /* "technical-failure" */
	GAME_TERM_ADJOURNED,                  /* "adjourned" */
	GAME_TERM_COUNT
};

enum game_status {
	GAME_ONGOING = 0,
	GAME_ADJOURNED,  /* suspended: no moves, offers or flags until resumed */
	GAME_OVER
};

/* Draws the player to move may claim. */
enum game_claim {
	GAME_CLAIM_THREEFOLD = 0,
	GAME_CLAIM_FIFTY_MOVES
};

/* "No colour" for the offer and abort-request fields. */
#define GAME_NOBODY (-1)

struct game_ply {
	move m;
	uint16_t halfmove_after;  /* the position's halfmove clock after m */
	int64_t at_ms;            /* when the move was made (caller's time base) */
	int64_t clock_ms;         /* the mover's clock reading after the move */
	uint64_t key_after;       /* repetition key of the position after m */
};

struct game {
	struct position start;     /* never changes after game_init() */
	struct position pos;       /* the current position */
	struct ruleset rules;
	struct game_ply *plies;    /* owned; n_plies valid entries */
	size_t n_plies, cap;
	enum game_status status;
	enum game_result result;
	enum game_termination termination;
	move claim_move;           /* intended move named by the claim that ended the game, or MOVE_NONE */
	int offer_by;              /* colour whose draw offer stands, or GAME_NOBODY */
	size_t offer_ply;          /* n_plies when it was made */
	long last_offer_ply[2];    /* n_plies at each side's latest offer, -1 if none yet */
	int abort_request_by;      /* colour asking the opponent to agree to abort, or GAME_NOBODY */
};

/* Sets up g from start (NULL: the standard position) under rules (NULL:
 * the "fide" preset), copying both. A start position that is already
 * finished (mate, stalemate, dead, halfmove clock at 150) makes a finished
 * game. Returns TCHESS_ERR_RANGE for an invalid ruleset. g needs
 * game_fini() afterwards even when nothing was allocated. */
enum tchess_err game_init(struct game *g, const struct position *start, const struct ruleset *rules,
			  struct tchess_error *err);
/* Frees the ply array; g may be reinitialised afterwards. */
void game_fini(struct game *g);
/* Makes dst an independent copy of src (dst must not be initialised). */
enum tchess_err game_copy(struct game *dst, const struct game *src, struct tchess_error *err);

static inline enum color game_side_to_move(const struct game *g) { return (enum color)g->pos.side; }
static inline bool game_is_over(const struct game *g) { return g->status == GAME_OVER; }

/* Plays m for colour 'who' at time at_ms with the mover's clock reading
 * clock_ms after the move. Refused when the game is over or adjourned, when
 * it is not who's move, when m is illegal (the message says why), or when
 * at_ms is earlier than the previous move's. Then applies the automatic
 * endings and the draw-offer lifetime. */
enum tchess_err game_play(struct game *g, enum color who, move m, int64_t at_ms, int64_t clock_ms,
			  struct tchess_error *err);
/* The same for a move the caller knows to be legal in g's position (from
 * movegen_legal, notation_parse_move or a resolved premove, in this very
 * position): everything but the legality check, which the caller made. */
enum tchess_err game_play_legal(struct game *g, enum color who, move m, int64_t at_ms, int64_t clock_ms,
				struct tchess_error *err);
/* Like game_play() for a move written in UCI or SAN (len bytes). */
enum tchess_err game_play_text(struct game *g, enum color who, const char *text, size_t len, int64_t at_ms,
			       int64_t clock_ms, struct tchess_error *err);

/* The position after 'ply' moves (0: the start) into out, by replaying. */
enum tchess_err game_position_at(const struct game *g, size_t ply, struct position *out,
				 struct tchess_error *err);

/* How many times the current position (or the one after 'ply' moves) has
 * occurred in the game, itself included, since the last irreversible move. */
int game_repetition_count(const struct game *g);
int game_repetition_count_at(const struct game *g, size_t ply);

/* Whether the player to move may claim the draw now: in the current
 * position, or, if intended is not MOVE_NONE, in the position that legal
 * move would make (the game then ends without playing it). TCHESS_OK if
 * valid; else TCHESS_ERR_BAD_CLAIM (or ILLEGAL, GAME_OVER) and a message
 * such as "no threefold repetition: this position has occurred 2 times". */
enum tchess_err game_check_claim(const struct game *g, enum game_claim claim, move intended,
				 struct tchess_error *err);
/* game_check_claim() as a yes/no, for menus and key hints. */
static inline bool game_can_claim(const struct game *g, enum game_claim claim, move intended)
{
	return game_check_claim(g, claim, intended, NULL) == TCHESS_OK;
}
/* Claims the draw for colour who, which must be the player to move. */
enum tchess_err game_claim(struct game *g, enum color who, enum game_claim claim, move intended,
			   struct tchess_error *err);

/* Draw offers under the ruleset's lifetime, own-move and rate-limit
 * options. Accepting ends the game by agreement. Withdrawing is allowed
 * only where an offer stands until withdrawn. */
enum tchess_err game_offer_draw(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_accept_draw(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_decline_draw(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_withdraw_draw(struct game *g, enum color who, struct tchess_error *err);

/* Aborting: alone while fewer than rules.abort_alone_max_plies plies were
 * played; after that, if the ruleset allows it, by request and the
 * opponent's acceptance. A request lapses when a move is played. An abort
 * leaves the result "*". game_request_abort() aborts at once when the
 * requester could abort alone. */
enum tchess_err game_abort(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_request_abort(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_accept_abort(struct game *g, enum color who, struct tchess_error *err);
enum tchess_err game_decline_abort(struct game *g, enum color who, struct tchess_error *err);
/* Aborts because who, to move, has not made a first move in time
 * (rules.first_move_timeout_ms is the caller's timer). Refused once who
 * has moved. */
enum tchess_err game_abort_first_move(struct game *g, enum color who, struct tchess_error *err);
/* Ends a game nobody has moved in as aborted, under any rules (chessgamble's
 * too, which have no abort): a seek or invite withdrawn, or lapsed, before
 * its opponent came -- no game was played. The caller knows the seat
 * stood empty. Refused once a ply was played. */
enum tchess_err game_abort_unplayed(struct game *g, enum color who, struct tchess_error *err);

/* who resigns: the opponent wins. Also while adjourned. */
enum tchess_err game_resign(struct game *g, enum color who, struct tchess_error *err);
/* who's time ran out (who must be the side to move, whose clock runs): a
 * loss, or a draw when the opponent cannot possibly checkmate. */
enum tchess_err game_flag(struct game *g, enum color who, struct tchess_error *err);

/* Whether a tablebase claim is allowed: the ruleset allows them and there
 * are at most rules.tablebase_max_pieces pieces (kings and pawns included)
 * on the board. */
enum tchess_err game_check_tablebase_claim(const struct game *g, struct tchess_error *err);
/* Ends the game with result r (not GAME_RESULT_NONE) by tablebase
 * adjudication; the caller has probed the tables. */
enum tchess_err game_adjudicate_tablebase(struct game *g, enum game_result r, struct tchess_error *err);

/* Ends the game for a technical failure (disconnect, infrastructure):
 * unscored ("*") unless forfeit, in which case loser loses. */
enum tchess_err game_technical_failure(struct game *g, bool forfeit, enum color loser, struct tchess_error *err);

/* Suspends an ongoing game (result "*", termination "adjourned") and
 * resumes it. */
enum tchess_err game_adjourn(struct game *g, struct tchess_error *err);
enum tchess_err game_resume(struct game *g, struct tchess_error *err);

/* Names: "1-0", "0-1", "1/2-1/2", "*"; "checkmate", "threefold", ...
 * Never NULL; "" for GAME_TERM_NONE. The parsers return false on an
 * unknown name (out untouched). */
const char *game_result_str(enum game_result r);
const char *game_termination_str(enum game_termination t);
bool game_result_parse(const char *s, enum game_result *out);
bool game_termination_parse(const char *s, enum game_termination *out);

#endif
