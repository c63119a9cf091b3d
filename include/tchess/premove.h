/*
 * Premoves: moves entered while it is the opponent's turn, stored, and played
 * the moment the opponent's move is made if they are legal then. This is the
 * one place the premove rules live; the server (which stores and plays them)
 * and the client (which shows them) both call it.
 *
 * A premove is not a legal move yet, so it is not a 'move' of the generator:
 * it is (from, to, promotion piece) plus a castling flag set when it is
 * normalised.
 *
 * Entry validation (premove_validate) judges a premove on the board the
 * player sees: the current position with the premover NOT to move, with any
 * premoves already queued applied geometrically. It is always a move of the
 * piece's shape; these never bend:
 *   - the piece exists and is the premover's; it moves to another square;
 *   - knight, bishop, rook, queen and king move along their own lines (a
 *     bishop never moves like a rook, a king never moves two squares unless it
 *     is castling with a right that still exists);
 *   - a pawn moves forward one square, two from its start rank only, or one
 *     square diagonally forward; never backwards or sideways;
 *   - a pawn reaching the last rank names its promotion piece, and nothing
 *     else names one;
 *   - one's own king is never captured, and nothing is jumped over or castled
 *     past when it is one's own piece: the opponent's single reply can never
 *     clear a square one's own piece stands on, so such a premove could never
 *     be played (the Yourpot text relaxes jumping over "the opponent's"
 *     pieces only).
 * Strict entry (ruleset.premove_relax == 0) adds the rules of a legal move as
 * if it were the premover's turn now: the target is empty or holds an enemy
 * piece, sliders and double pushes are not blocked, a pawn push goes to an
 * empty square, a pawn capture goes onto an enemy piece (so en passant cannot
 * be premoved strictly: no double push has been made yet), castling has an
 * empty path and the king does not start in, pass through or land on an
 * attacked square, and no move leaves the premover's king attacked. Each
 * PREMOVE_RELAX_* bit lifts one of these:
 *   OWN_CAPTURE          the target may hold one's own piece (not the king);
 *                        a pawn pushing onto its own piece needs this and
 *                        PAWN_PUSH_OCCUPIED.
 *   JUMP                 a slider, or a pawn's double push, may pass over
 *                        enemy pieces.
 *   CASTLE_ATTACKED      castling out of, through or into attacked squares.
 *   LEAVE_IN_CHECK       a non-castling move may leave the king attacked.
 *   CASTLE_PAST_MINOR    exactly one enemy knight or bishop may stand on the
 *                        squares castling needs empty (never a pawn, rook,
 *                        queen or king, never two pieces, never one's own).
 *   PAWN_PUSH_OCCUPIED   a pawn push onto an occupied square.
 *   PAWN_CAPTURE_EMPTY   a pawn capture onto an empty square (the en-passant
 *                        premove).
 *
 * Castling is entered as the king's two-square move (e1g1), or as the king
 * onto its own rook (e1h1, the Chess960 form) when the right exists, and is
 * normalised to king-onto-rook with the castling flag set. In Chess960 a king
 * step to an adjacent square stays a plain king move, as in UCI.
 *
 * A queue holds up to ruleset.premove_depth premoves. Each one is validated on
 * the board with the earlier ones applied geometrically: the piece moves (a
 * pawn becomes its promotion piece, castling moves king and rook), whatever
 * stood on the target is removed, and castling rights go with a king or rook
 * that moves or is removed. The opponent's pieces stay where they are.
 *
 * Execution (premove_queue_resolve), after the opponent's move: the first
 * premove is matched against the legal moves of the real position. Legal: it
 * is removed from the queue and returned for the caller to play with zero
 * thinking time; the next one waits for the opponent's next move. Illegal: it
 * and every premove after it are discarded, with the reason in words.
 *
 * Everything here is plain data in the caller's storage; nothing allocates.
 */
#ifndef TCHESS_PREMOVE_H
#define TCHESS_PREMOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tchess/error.h"
#include "tchess/move.h"
#include "tchess/position.h"
#include "tchess/ruleset.h"

/* No promotion: PAWN (0), which nothing promotes to. */
#define PREMOVE_NO_PROMO 0
/* Text of one premove, terminating NUL included ("e7e8q"). */
#define PREMOVE_TEXT_MAX 6

struct premove {
	uint8_t from;     /* square 0..63 */
	uint8_t to;       /* square 0..63; the rook's square when castling */
	uint8_t promo;    /* KNIGHT..QUEEN, or PREMOVE_NO_PROMO */
	bool castling;    /* set by validation: king onto its own castling rook */
};

/* A side's queued premoves, oldest first. Plain data: copy with '='. */
struct premove_queue {
	int n;
	uint8_t side;     /* enum color of the premover; meaningful while n > 0 */
	struct premove items[PREMOVE_DEPTH_MAX];
};

enum premove_verdict {
	PREMOVE_NONE = 0, /* queue empty, or not the premover's turn: nothing to do */
	PREMOVE_PLAY,     /* *out is legal: play it now, with zero thinking time */
	PREMOVE_DISCARD   /* the first premove was illegal; the queue is now empty */
};

/* Reads UCI-shaped text (len bytes, no NUL needed; surrounding blanks
 * ignored): "e2e4", "e7e8q", "e1g1", "e1h1". Only the text is checked, not
 * the position; premove_validate() does that and sets the castling flag. On
 * error returns TCHESS_ERR_UCI_SYNTAX, fills err (if not NULL) and leaves
 * *out unchanged. Accepts any byte string. */
enum tchess_err premove_parse_uci(const char *text, size_t len, struct premove *out, struct tchess_error *err);

/* Writes pm into buf (PREMOVE_TEXT_MAX bytes) and returns the length.
 * Castling is written as the king's two-square move, or king onto rook when
 * chess960 is true. Squares out of range are written "0000". */
size_t premove_write(const struct premove *pm, bool chess960, char *buf);

/* Entry validation. p is the current position, in which it must be the
 * opponent of 'who' to move; queue[0..n_queued) are premoves already queued
 * by 'who' (applied geometrically first; an entry whose origin no longer holds
 * a piece of 'who' is skipped: it will be discarded when its turn comes). On
 * success normalises *pm (castling flag and king-onto-rook form) and returns
 * TCHESS_OK. Otherwise returns TCHESS_ERR_ILLEGAL (the rules), or
 * TCHESS_ERR_RANGE (queue full, bad ruleset or out-of-range fields), fills err
 * (if not NULL) with a sentence saying why and leaves *pm unchanged. */
enum tchess_err premove_validate(const struct position *p, enum color who, const struct premove *queue, int n_queued,
				 struct premove *pm, const struct ruleset *r, struct tchess_error *err);

/* Fills *out with p's placement after queue[0..n) of 'who' have been applied
 * geometrically, as the player sees it. Only board, by_type, by_color and
 * castling rights are meaningful in *out: it is for display and validation,
 * never for the move generator. */
void premove_board(const struct position *p, enum color who, const struct premove *queue, int n,
		   struct position *out);

/* Premove i of queue (by who = me, queued on base) as a player reads it,
 * SAN-like on the board the premoves before it leave (premove_board):
 * "Nf3", "exd5", "Rae1", "e8=Q", "O-O"; "d7-d6" when its origin holds
 * none of me's pieces there. A premove is no legal move yet, so there are
 * no check marks and no move generator. Writes at most size bytes
 * (SAN_MAX is enough). */
void premove_san(const struct position *base, enum color me, const struct premove *queue, int i, char *buf,
		 size_t size);

/* Empties q. premove_queue_clear() is the same; both names read well. */
void premove_queue_init(struct premove_queue *q);
void premove_queue_clear(struct premove_queue *q);

/* Validates pm for 'who' against p and the premoves already in q and, if
 * valid, appends it normalised. A queue holds one side's premoves only.
 * Errors as premove_validate(); q is unchanged on error. */
enum tchess_err premove_queue_push(struct premove_queue *q, const struct position *p, enum color who,
				   struct premove pm, const struct ruleset *r, struct tchess_error *err);

/* Call when the opponent's move has been made; p is the position after it.
 * If q is empty or it is not q's side to move in p, returns PREMOVE_NONE and
 * changes nothing. Otherwise removes the first premove and either returns
 * PREMOVE_PLAY with the legal move in *out (the rest of q waits for the
 * opponent's next move), or PREMOVE_DISCARD with q emptied and, if why is not
 * NULL, a sentence in why (at most why_size bytes) naming the premove and the
 * reason. *out is MOVE_NONE unless the verdict is PREMOVE_PLAY. */
enum premove_verdict premove_queue_resolve(struct premove_queue *q, const struct position *p, move *out, char *why,
					   size_t why_size);

#endif
