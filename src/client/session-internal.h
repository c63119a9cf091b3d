/*
 * What the session's files share and nobody else sees (session.h is the
 * model's interface). The model is one concept in six rooms:
 *
 *   session.c          set-up and reset, the message line, the outbox of
 *                      requests and their HTTP form, the board view and
 *                      the pane layout;
 *   session-game.c     the mirror: the server's events folded, what the
 *                      position and the turn are with a move on its way,
 *                      answers and refusals, the rematch switch;
 *   session-clock.c    the clocks read at the estimated server time, the
 *                      first-move countdown, the low-time warning;
 *   session-move.c     moves and premoves: picked, clicked or typed,
 *                      checked with libtchess before anything is sent;
 *   session-action.c   the game actions (draw, claims, abort, adjourn,
 *                      undo, rematch, the opponent gone, notes) and the
 *                      texts that tell how they stand;
 *   session-command.c  keys to commands and the command table;
 *   session-lichess.c  a Lichess game: the model's view taken as the
 *                      mirror, premoves played here, Board API commands.
 */
#ifndef TCHESS_CLIENT_SESSION_INTERNAL_H
#define TCHESS_CLIENT_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"
#include "tchess/bitboard.h"

/* An unlimited clock reads 2^53 - 1 on the wire; anything this large is
 * shown as no clock at all. */
#define SESSION_UNLIMITED_MS (INT64_C(1) << 52)

/* session.c: the message line, names, the outbox. */
void session_say(struct session *s, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "White", "Black" or "nobody". */
const char *session_side(int c);
/* "you" for me, else the side's name. */
const char *session_who(const struct session *s, int c);
/* "your" for me, else the side's name with 's. */
const char *session_whose(const struct session *s, int c);
void session_notes_clear(struct session *s);
bool session_req_is_premoves(const struct session_req *r);
/* Appends r to the outbox (the oldest dropped when it is full), made for
 * my seat; session_push_as for seat (a hotseat game's other seat). */
void session_push(struct session *s, const struct session_req *r);
void session_push_as(struct session *s, const struct session_req *r, int seat);
/* The server's queue for my seat becomes the one shown, unless a request
 * of mine that will replace it is still out. */
void session_take_server_premoves(struct session *s);

/* session-game.c: the mirror. */
/* My move on its way will be a committed move. */
bool session_pending_commits(const struct session *s);
/* The position the rules judge my premoves in. */
void session_rules_position(const struct session *s, struct position *out);
/* The committed plies (0 before the game is created). */
size_t session_plies(const struct session *s);
/* The move list laid out again for the plies and the pane. */
void session_relayout_moves(struct session *s);
/* The SAN of every ply of the view written again (after the view was
 * replaced: a snapshot, a Lichess game's list). Returns the plies. */
size_t session_san_rebuild(struct session *s);
/* The selection and cursor kept meaningful after the position changed. */
void session_fix_selection(struct session *s);
/* Keeps a note (or a Lichess chat line) of color (-1 unknown). */
void session_note_add(struct session *s, int64_t seq, int color, const char *text);
/* The first time the game is seen over: the selection, questions and
 * premoves dropped, the stale message cleared. Returns dirty bits. */
unsigned session_over_check(struct session *s);

/* session-move.c: moves and premoves. */
/* Sends m (legal, my turn) and shows it at once as my move on its way. */
unsigned session_send_move(struct session *s, move m);
/* Sends the queue kept here, whole, at the ply the rules judge it in. */
unsigned session_send_premoves(struct session *s);
/* A premoves request refused for a stale ply (session.h, premoves_stale_seq)
 * is sent again with the queue kept here once the mirror has reached the
 * seq the refusal named. */
unsigned session_premoves_resend(struct session *s);
/* The squares the piece on from may go to now (a move or a premove). */
bitboard session_destinations(const struct session *s, int from);
/* Moves (or premoves) from→to, promoting to promo (0: ask). */
unsigned session_try(struct session *s, int from, int to, int promo);
/* Picks up, drops or re-picks at sq. */
unsigned session_pick(struct session *s, int sq);
/* A move typed at the prompt. */
unsigned session_submit_text(struct session *s, const char *text);

/* session-action.c: the game actions, each checked before it is sent. */
void session_push_action(struct session *s, enum session_req_kind kind, enum protocol_action action);
void session_push_claim(struct session *s, enum protocol_claim claim);
unsigned session_rematch(struct session *s);
/* n: a new game against the engine with the same settings and colour. */
unsigned session_new_game(struct session *s);
unsigned session_undo_action(struct session *s, bool done);
unsigned session_draw_offer(struct session *s);
unsigned session_draw_withdraw(struct session *s);
unsigned session_answer(struct session *s, bool accept);
unsigned session_claim_draw(struct session *s, const char *text);
unsigned session_claim_tablebase(struct session *s);
unsigned session_abort(struct session *s);
unsigned session_adjourn(struct session *s);
unsigned session_gone(struct session *s);
unsigned session_note_submit(struct session *s);
void session_note_input(struct session *s, long c);
void session_note_erase(struct session *s);

/* session-lichess.c: the actions of a Lichess game (s->lichess), which
 * the generic ones hand over to. */
unsigned session_lichess_draw_offer(struct session *s);
unsigned session_lichess_answer(struct session *s, bool accept);
unsigned session_lichess_takeback(struct session *s);
unsigned session_lichess_abort(struct session *s);
unsigned session_lichess_gone(struct session *s, int64_t mono_ms);
/* s: the finished game's PGN, written from the mirror into a file. */
unsigned session_lichess_save_pgn(struct session *s);
/* The take-back proposal, draw offer or absent opponent standing. */
bool session_lichess_request_text(const struct session *s, int64_t mono_ms, char *buf, size_t size);

#endif
