/*
 * The game service's rooms (see src/server/README): what they share, and
 * nothing the rest of tchessd may use -- api/, server.c and the services
 * built on games see only game-service.h.
 *
 * The model. A live game (struct live_game) is the fold of its stored
 * events. A command is one transaction (game-txn.c) that works on a copy of
 * the game's view: each event is applied to the copy through the fold
 * first (so the event is exactly what the fold accepts, and its clock
 * reading and result are the fold's), then encoded and appended. Only
 * after the store commits does the copy replace the live view; on any
 * failure the copy is dropped and the store rolled back, so nothing
 * changes. The commit then publishes the events (group commit: shown to
 * polls once durable), pokes the timer (game-timer.c) and reconciles the
 * game's engine request (game-engine.c).
 *
 * Every function here runs with the server lock held (server.h).
 */
#ifndef TCHESS_SERVER_GAME_INTERNAL_H
#define TCHESS_SERVER_GAME_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commit.h"
#include "event-ring.h"
#include "game-service.h"
#include "store.h"
#include "tchess/fold.h"
#include "util/dheap.h"
#include "util/sha256.h"

struct engine_ask;

#define GS_BUCKETS 1024
/* Events one command may append: a move, the opponent's premove, a
 * discard, an end, with room to spare. */
#define TXN_EVENTS_MAX 16

/* The last event each audience may see (issue 12 item 16): everyone's, and
 * each seat's player's own private ones. A viewer is told the latest seq it
 * may see, never the log's, so another's private events (a premove queued,
 * a note) neither move its counter nor answer its poll. */
struct game_seen {
	int64_t all;
	int64_t seat[2];
};

/* A game's audiences (issue 12 item 16): everyone (spectators, anyone not
 * seated) and each seat's player, who sees its own private events too.
 * Each numbers the events it may see 1, 2, 3... with no gap, and every seq
 * a viewer is told or tells (events, answers, snapshots, after=) is its
 * audience's: what it observes does not depend on the others' private
 * events, not even their count. The log's own seqs stay inside tchessd
 * (the store, the fold, the other nodes). */
enum game_audience { AUD_PUBLIC, AUD_WHITE, AUD_BLACK, AUD_N };

/* The log seqs of the private events one audience may not see, in order:
 * an audience's number of log seq s is s less those before it. Built where
 * the ring takes each event (commit, replay, catch-up), so every node and
 * every restart numbers a game alike. */
struct seq_list {
	int64_t *seq;
	size_t n, cap;
};

struct live_game {
	char id[STORE_GAME_ID_MAX + 1];
	struct game_view view;
	char invite_hash[2 * SHA256_DIGEST_SIZE + 1]; /* "" for games without a code */
	int64_t created_ms;
	struct engine_ask *ask; /* the engine move asked for, or NULL (game-engine.c) */
	/* Presence (memory only; a restart counts as everyone seen now): the
	 * last request of each seat and its long-polls parked right now. */
	int64_t last_seen[2];
	int parked[2];
	/* Of parked[], the polls a seat left behind when it said it leaves
	 * (POST .../leave): they no longer count as presence, and their
	 * coming back is no request of the seat's. */
	int left_parked[2];
	int64_t told_seen[2]; /* when the other nodes last heard the seat was seen (cluster.h) */
	int invalid[2];  /* consecutive invalid commands of each seat */
	/* Events each seat wrote at churn_ply that did not end the game
	 * (game_presence_churn; memory only). */
	int churn[2];
	int64_t churn_ply[2];
	int64_t used_ms; /* wall clock of the last access or commit: idleness runs from it */
	/* Publishing (game-txn.c): events up to durable_seq may be shown. */
	struct event_ring ring;
	int64_t durable_seq;
	int64_t flight_seq; /* the seq the fsync under way covers */
	bool dirty;         /* on gs->dirty: committed past durable_seq */
	bool in_flight;     /* on gs->flight */
	/* What each audience may see: of the events committed, of those the
	 * fsync under way covers, and of the durable ones. */
	struct game_seen seen, seen_flight, seen_durable;
	/* Several nodes (cluster.h): the events this node committed that the
	 * others have not been told yet, which go with the message that
	 * follows their flush, so the others fold them without reading the
	 * store. */
	struct store_event *tell;
	size_t n_tell;
	struct seq_list hidden[AUD_N]; /* what each audience may not see */
	/* The game's notes, and each seat's private ones (written while the
	 * game ran): game_txn_ring_add counts them, at commit and on replay. */
	int notes, notes_by[2];
	/* On gs->timer_live, keyed by when the timer must look at it next. */
	struct dheap_node timer;
	/* While what is due cannot be done (a read-only store, a full disk):
	 * the wait before the next try, doubled each time; 0 otherwise. */
	int64_t timer_backoff_ms;
	/* The clock was running when tchessd last stopped and the restart's
	 * clock-resumed is not recorded yet (the store refused it): the
	 * clock stands still -- no flag, no command, no engine asked, no
	 * eviction -- until it is (game_clock_ready). */
	bool clock_held;
	struct live_game *next;
};

/* An evicted game (game-registry.c): what only memory knew of it, and when the
 * timer must bring it back. */
struct evicted_game {
	char id[STORE_GAME_ID_MAX + 1];
	bool unfinished;
	bool engine;        /* a seat is an engine's */
	int64_t players[2]; /* the human seats' players, 0 for another seat */
	int64_t last_seen[2];
	int invalid[2];
	int64_t seq; /* the game's seq when it left memory */
	/* On gs->timer_evicted, keyed by its next deadline (flag or chore);
	 * not on it if it has none. */
	struct dheap_node timer;
	struct evicted_game *next;
};

/* A game a batch changed: made live when the batch commits. */
struct batch_item {
	struct live_game *lg;
	struct game_view view;
	bool insert; /* a new game */
};

/* Aborted games erased lately, so their id answers 410 rather than 404. */
#define GS_TOMBSTONES 256

struct game_service {
	struct server *srv;
	struct game_service_hooks hooks;
	bool batch;        /* commands share the caller's transaction */
	bool batch_failed; /* a command in it rolled back */
	struct batch_item *pending;
	size_t n_pending;
	struct live_game *bucket[GS_BUCKETS];
	struct evicted_game *evicted[GS_BUCKETS];
	size_t n_live, n_evicted;
	pthread_t timer;
	bool timer_started;
	bool timer_stop;
	pthread_cond_t timer_cond; /* waited on with srv->lock; signalled after every commit */
	bool engines_stopped;      /* game_service_stop_engines ran: ask for nothing more */
	struct engine_ask *asks;   /* every game's current request (each a live game's lg->ask) */
	struct tablebase *tb;      /* NULL: no tablebase claims */
	char tombstones[GS_TOMBSTONES][STORE_GAME_ID_MAX + 1];
	unsigned n_tombstones;
	/* Group commit: games committed since the last fsync began, and the
	 * games the fsync under way covers. */
	struct live_game **dirty, **flight;
	size_t n_dirty, n_flight, cap_dirty, cap_flight;
	/* When the timer wakes next (wall ms; INT64_MAX: only when signalled):
	 * a commit signals it only for a deadline earlier than that. */
	int64_t timer_next;
	/* What the timer waits for: the games in memory, keyed by when each
	 * needs it next (timer_key), and the evicted ones with a deadline. */
	struct dheap timer_live, timer_evicted;
	/* Games read while out of memory (game_registry_read), replayed and
	 * kept here for the next reads, least recently read first: at most
	 * cfg.cold_games, on no timer, never changed. */
	struct live_game **cold;
	size_t n_cold;
	struct game_service_polls polls; /* game_service_set_polls */
	bool listening;                  /* on srv->commit's listeners */
};

struct game_txn {
	struct game_service *gs;
	struct live_game *lg;
	struct game_view work;
	struct protocol_event ev[TXN_EVENTS_MAX];
	int64_t visible_to[TXN_EVENTS_MAX];
	size_t n;
};

struct id_list {
	char (*ids)[STORE_GAME_ID_MAX + 1];
	size_t n;
};

#define LIVE_OF(node) ((struct live_game *)((char *)(node)-offsetof(struct live_game, timer)))
#define EVICTED_OF(node) ((struct evicted_game *)((char *)(node)-offsetof(struct evicted_game, timer)))

/* ---- outcomes (game-service.c) ---- */

/* Fills out as a failure with code and the formatted message. */
__attribute__((format(printf, 3, 4))) void game_fail(struct game_outcome *out, enum protocol_error_code code,
                                                     const char *fmt, ...);
/* Rolls the store back and fails with 500. */
void game_store_failed(struct game_service *gs, struct game_outcome *out);
/* 409 for a stale ply, with the game's seq. */
void game_fail_stale(struct game_outcome *out, const struct game_view *v, int64_t ply);
/* Records a held clock's resumption (lg->clock_held): true once lg's clock
 * is not held, false after failing (the store refused it again). */
bool game_clock_ready(struct game_service *gs, struct live_game *lg, struct game_outcome *out);

/* ---- registry and eviction (game-registry.c) ---- */

/* Puts a new or rebuilt game among the live ones (and on the timer). */
void game_registry_insert(struct game_service *gs, struct live_game *lg);
/* Frees a game that is in no list. */
void game_registry_live_free(struct live_game *lg);
/* The game from memory, or rebuilt from the store by replaying its events
 * (back from eviction too); NULL after filling out (404, 410 or 500). */
struct live_game *game_registry_lookup(struct game_service *gs, const char *id, struct game_outcome *out);
/* game_registry_lookup, and on a shared store (another node may have
 * appended) the game caught up with its log first: one read of its last
 * seq (game-remote.c). What commands and snapshots start with, so a
 * client answered by one node is served by the next as it was. */
struct live_game *game_registry_lookup_fresh(struct game_service *gs, const char *id, struct game_outcome *out);
/* For a command that started on the game as this node held it, without
 * that read (game_seat_enter_held): after its run, whether to run it
 * again. A run that appended proved the game current (its append was at
 * the seq the log had), as did an earlier check (*checked); otherwise the
 * last seq is read once: behind, the game catches up and out is emptied
 * for the next run (true); erased, out says 410 and *lg is NULL (it left
 * memory); current, out stays the answer. was: the game's seq before the
 * run. */
bool game_registry_fresh_after(struct game_service *gs, struct live_game **lg, int64_t was, bool *checked,
			       struct game_outcome *out);
/* Empties the cache of cold reads (the nodes alive changed: what it
 * holds may be behind the store). */
void game_registry_cold_clear(struct game_service *gs);
/* The game if it is in memory, else NULL; never reads the store. */
struct live_game *game_registry_find(struct game_service *gs, const char *id);
/* For a read (snapshot, events, PGN): the game from memory, else a replay
 * of it from the cache of cold reads (gs->cold), which no deadline,
 * eviction or presence sees: reading a game does not bring it back into
 * memory (issue 12 item 5). The result must not be changed. NULL after
 * filling out (404, 410 or 500). */
struct live_game *game_registry_read(struct game_service *gs, const char *id, struct game_outcome *out);
/* Whether game id is in memory, or has an eviction record with player in
 * a seat. */
bool game_registry_known(struct game_service *gs, const char *id, int64_t player);
/* Erases an aborted game: its row, its events, its memory (lg is freed). */
void game_registry_erase(struct game_service *gs, struct live_game *lg);
/* The memory part of that, for a game another node erased: a tombstone,
 * lg out of the lists and freed, its polls woken. */
void game_registry_forget_erased(struct game_service *gs, struct live_game *lg);
/* Whether lg may leave memory now, idle time aside. */
bool game_registry_evictable(struct game_service *gs, const struct live_game *lg);
/* Drops lg from memory, leaving its record (lg is freed). */
void game_registry_evict(struct game_service *gs, struct live_game *lg);
/* When the timer must look at lg next to evict it (INT64_MAX: never). */
int64_t game_registry_evict_due(struct game_service *gs, struct live_game *lg, int64_t now);
/* Folds the events another writer appended to lg's log since its seq
 * (read from the store), and publishes them; 0, or -1 if they cannot be
 * read or folded. */
int game_registry_catch_up(struct game_service *gs, struct live_game *lg);
/* The same without publishing: the caller says how far they may be shown
 * (game-remote.c: as far as the node that wrote them made them durable). */
int game_registry_fold_missed(struct game_service *gs, struct live_game *lg);
/* fold_missed in three steps, for events read elsewhere (game-remote.c
 * reads several games' in one go): begin (0, or -1 if the seats'
 * bookings cannot be read), then catch_event for each event in seq order
 * (nonzero once one does not follow the last or does not fold: the game
 * keeps what folded before it), then end. */
struct game_catch {
	struct game_service *gs;
	struct live_game *lg;
	int64_t seated[2];
	bool started;
	int rc;
};
int game_registry_catch_begin(struct game_service *gs, struct live_game *lg, struct game_catch *c);
int game_registry_catch_event(struct game_catch *c, const struct store_event *ev);
void game_registry_catch_end(struct game_catch *c);
/* Brings back the evicted games whose deadline has come by now. */
void game_registry_revive_due(struct game_service *gs, int64_t now);
/* Whether game id is out of memory here with a record (evicted); the
 * seq it left memory at in *seq when seq is not NULL. */
bool game_registry_evicted_here(struct game_service *gs, const char *id, int64_t *seq);
/* Several nodes: brings back the evicted unfinished games this node
 * times (cluster_owns) whose log went past the seq they left memory at,
 * so their deadlines are the log's, not those of their records (after
 * the channel missed messages). One read of the unfinished games; how
 * many came back. */
size_t game_registry_revive_moved(struct game_service *gs);
/* Brings back player's evicted unfinished games. */
void game_registry_revive_player(struct game_service *gs, int64_t player);
/* Makes the timer look at player's evicted unfinished games with a
 * deadline by at_ms at the latest (their deadline may have come earlier). */
void game_registry_deadline_by(struct game_service *gs, int64_t player, int64_t at_ms);
/* Frees every game and record (game_service_free). */
void game_registry_fini(struct game_service *gs);

/* ---- transactions, publishing, batches (game-txn.c) ---- */

/* The instant of a new event: the wall clock, never before the game's last
 * event. */
int64_t game_txn_instant(const struct game_view *v);
/* Keeps an event for the polls, encoded once (and counts it in lg->seen). */
void game_txn_ring_add(struct live_game *lg, const struct protocol_event *pe, int64_t visible_to);
/* The last seq of s that viewer (0: nobody) may see (the log's). */
int64_t game_txn_seen(const struct live_game *lg, const struct game_seen *s, int64_t viewer);
/* viewer's audience in lg (0: nobody). */
enum game_audience game_txn_audience(const struct live_game *lg, int64_t viewer);
/* aud's number of the log's seq s: how many events up to s it may see. */
int64_t game_txn_number(const struct live_game *lg, enum game_audience aud, int64_t s);
/* The log seq of aud's event number n (0 for 0); past the last one aud may
 * see, as far past the log's last seq. */
int64_t game_txn_log_seq(const struct live_game *lg, enum game_audience aud, int64_t n);
/* The seq and data of an event from the log (e.g. the store's), as aud
 * numbers them. */
void game_txn_event_for(const struct live_game *lg, enum game_audience aud, struct protocol_event *e);
/* An audience's numbering apart from its game (issue 12 item 1: an answer
 * is encoded after the server lock, from copies): dst (caller's storage,
 * freed with free(dst->seq)) becomes a copy of aud's hidden list; the two
 * below are game_txn_number and game_txn_event_for on such a list. */
void game_numbering_copy(struct seq_list *dst, const struct live_game *lg, enum game_audience aud);
int64_t game_numbering_number(const struct seq_list *hidden, int64_t s);
void game_numbering_event(const struct seq_list *hidden, struct protocol_event *e);
/* A command's answer as viewer gets it, once: its seq (and a 409's) is the
 * last committed one viewer may see, and every seq in it viewer's
 * audience's number. */
void game_txn_answer_for(const struct live_game *lg, int64_t viewer, struct game_outcome *out);
/* viewer's number of the last event it may see of s (game_txn_seen). */
int64_t game_txn_seen_number(const struct live_game *lg, const struct game_seen *s, int64_t viewer);
/* After a commit of lg's events: shown once durable. */
void game_txn_publish(struct game_service *gs, struct live_game *lg);
/* The service's listener of the group commit (commit.h). */
void game_txn_listener(struct game_service *gs, struct commit_listener *out);
/* Wakes game id's parked polls (game_service_set_polls). */
void game_txn_wake(struct game_service *gs, const char *id);
/* Takes lg off the group commit's lists (it is being freed). */
void game_txn_forget(struct game_service *gs, struct live_game *lg);
/* Starts a transaction on lg (a work copy of its view); -1 after failing. */
int game_txn_begin(struct game_txn *t, struct game_service *gs, struct live_game *lg, struct game_outcome *out);
/* Rolls back and drops the work copy and the events. */
void game_txn_abort(struct game_txn *t);
/* Applies e to the work copy, then appends it (payload: e's encoding, or
 * raw for an event the fold ignores); -1 after rolling back and failing. */
int game_txn_add_raw(struct game_txn *t, struct fold_event *e, const char *type, const char *raw, int64_t visible_to,
                     int64_t t_ms, struct game_outcome *out);
int game_txn_add(struct game_txn *t, struct fold_event *e, int64_t visible_to, int64_t t_ms, struct game_outcome *out);
/* How often a seat command runs again after finding its game changed by
 * another writer (out->stale: the game was caught up meanwhile). */
#define GAME_STALE_RETRIES 3
/* Whether to run the command again: out was stale and *tries (start at 0)
 * is within GAME_STALE_RETRIES; then out is emptied for the next run. */
bool game_retry(struct game_outcome *out, int *tries);
/* Forgets lg's events not yet told (lg->tell) up to seq. */
void game_txn_tell_drop(struct live_game *lg, int64_t seq);
/* The game row of lg in state v. */
void game_txn_row_of(const struct live_game *lg, const struct game_view *v, struct store_game *g);
/* Commits, makes the work copy live and gives viewer the events it may
 * see; -1 after rolling back and failing. */
int game_txn_commit(struct game_txn *t, int64_t viewer, struct game_outcome *out);
/* A server-made event (and then, if not NULL) in its own transaction. */
int game_txn_server_event(struct game_service *gs, struct live_game *lg, struct fold_event *e, struct fold_event *then);
/* Ends the game for a technical failure (reason as in tchess-protocol(7)). */
int game_txn_technical_failure(struct game_service *gs, struct live_game *lg, int color, const char *reason);

/* ---- moves, premoves, flag, resignation (game-move.c) ---- */

/* After a move: the game-ended event if the move ended the game. */
int game_move_end_if_over(struct game_txn *t, int64_t t_ms, struct game_outcome *out);
/* After a move: the side to move's premoves, played or discarded. */
int game_move_resolve_premoves(struct game_txn *t, int64_t t_ms, struct game_outcome *out);
/* Ends the game on time at t_ms. */
int game_move_flag(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out);
/* The mover's time ran out before this command: the game ends on time and
 * the command is refused (true). */
bool game_move_flagged_first(struct game_service *gs, struct live_game *lg, int64_t t_ms, struct game_outcome *out);
/* A retried move is answered with its original event; else 409. */
void game_move_retry_or_stale(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
                              const char *text, struct game_outcome *out);
/* Commits color's move m at t_ms (legal: the caller parsed it) with the
 * game's end and the opponent's premoves, in one transaction; its
 * thinking time is the running turn's. */
void game_move_commit(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, move m, int64_t t_ms,
		      struct game_outcome *out);
/* The server's answer to fold_may_move (the one rule of "may this side
 * move now?"): true for FOLD_MAY_MOVE, else false with a 409 saying why
 * to the player who asked. */
bool game_may_move_or_fail(const struct game_view *v, enum fold_may may, struct game_outcome *out);
/* The one move path: humans (through the API) and engine seats. */
void game_move_play(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
                    const char *text, struct game_outcome *out);

/* ---- seats (game-seat.c) ---- */

/* The caller's seat, or -1 after failing with 403. */
int game_seat_or_forbidden(struct live_game *lg, int64_t me, struct game_outcome *out);
/* The start of every seat's command: the game (404), the caller's seat
 * (403), and the caller present now. NULL after failing. */
struct live_game *game_seat_enter(struct game_service *gs, int64_t me, const char *id, int *color,
				  struct game_outcome *out);
/* The same without reading the game's last seq first, for a command that
 * checks afterwards (game_registry_fresh_after): on a shared store, the
 * game in memory with the caller seated and its clock running; NULL,
 * having done nothing, when it is not (game_seat_enter then). */
struct live_game *game_seat_enter_held(struct game_service *gs, int64_t me, const char *id, int *color);
/* When both seats are filled, the game starts (with the seats' vacations). */
int game_seat_start_if_full(struct game_txn *t, int64_t t_ms, struct game_outcome *out);
/* Fills a correspondence game's vacation lists in v from its seats'
 * bookings in the store, those that end after started_ms (the game's
 * start); nothing for other games. 0, or -1 if the store cannot read. */
int game_seat_vacations(struct game_service *gs, struct game_view *v, int64_t started_ms);

/* ---- game actions (game-action.c), shared with undo and rematch ---- */

/* Success without a second effect: the command was applied before. */
void game_action_already_done(struct game_outcome *out, const struct game_view *v);
bool game_action_retried(const struct game_view *v, int color, const char *key, int64_t ply);
bool game_action_request_retried(const struct game_view *v, int color, const struct fold_event *e, int64_t ply);
/* One transaction of one or two events (a fold refusal is a 422). */
void game_action_commit(struct game_service *gs, struct live_game *lg, int64_t me, struct fold_event *e,
                        struct fold_event *then, struct game_outcome *out);
bool game_action_running_or_conflict(const struct game_view *v, struct game_outcome *out);
bool game_action_ply_or_stale(const struct game_view *v, int64_t ply, struct game_outcome *out);
void game_action_request_event(struct fold_event *e, const struct game_view *v, int color, enum fold_request_what what,
                               enum fold_request_action action);
/* The request event's action for a request's action word (offer and
 * request: made). */
enum fold_request_action game_action_request_of(enum protocol_action a);
void game_action_ended_event(struct fold_event *e, int color, enum game_termination term, const char *reason);

/* The game action commands: one row each in game-action.c's table. */
enum game_action {
	GAME_ACTION_DRAW,
	GAME_ACTION_ABORT,
	GAME_ACTION_ADJOURN,
	GAME_ACTION_RESUME,
	GAME_ACTION_CLAIM,
	GAME_ACTION_TAKEBACK,
	GAME_ACTION_DONE,
	GAME_ACTION_REMATCH,
};

/* One call of a game action, as its row's handler sees it: the game, the
 * caller's seat (present now) and the row's word, one the row takes
 * (action for an action row, its default when absent; claim for the
 * claim row; _NONE otherwise). The handler fills out; the caller counts a
 * failure among the seat's invalid commands. */
struct game_action_call {
	struct game_service *gs;
	struct live_game *lg;
	const struct game_view *v;
	const struct protocol_action_request *req;
	int64_t me;
	int color;
	enum protocol_action action;
	enum protocol_claim claim;
	struct game_outcome *out;
};

/* The one frame of every action: the game (404), the seat (403),
 * presence, the word (400), the row's handler, the invalid count. */
void game_action_run(struct game_service *gs, enum game_action what, int64_t me, const char *id,
		     const struct protocol_action_request *req, struct game_outcome *out);

/* ---- undo games (game-undo.c) ---- */

/* The takeback and done rows of game-action.c's table. */
void game_undo_takeback(struct game_action_call *c);
void game_undo_done(struct game_action_call *c);
/* A move in an undo game: provisional. */
void game_undo_provisional(struct game_service *gs, struct live_game *lg, int color, int64_t viewer, int64_t ply,
                           const char *text, struct game_outcome *out);

/* ---- rematch series (game-rematch.c) ---- */

/* The rematch row of game-action.c's table. */
void game_rematch_run(struct game_action_call *c);

/* ---- presence and invalid commands (game-presence.c) ---- */

/* A request by the seat: it is present (back, if it was gone: an event). */
void game_presence_seen(struct game_service *gs, struct live_game *lg, int color);
/* The disconnect grace: the ruleset's, or the operator's override. */
int64_t game_presence_grace_ms(const struct game_service *gs, const struct game_view *v);
/* When a human seat that is here now is gone unless it makes a request or
 * parks a poll (its last request plus the grace); INT64_MAX while a poll
 * is parked, for a seat recorded gone already or another kind of seat. */
int64_t game_presence_gone_at(const struct game_service *gs, const struct live_game *lg, int color);
/* A seat quiet this long (no request, no parked poll) has left: a left
 * event tells the opponent when it will be recorded gone (at most half
 * the grace, so the countdown has time to run). */
#define GAME_LEFT_QUIET_MS 5000
/* When a human seat that is here now is said to have left (a left event)
 * unless it makes a request or parks a poll; INT64_MAX when it has a poll
 * parked, was recorded gone already, is another kind of seat, its
 * opponent has no poll parked to hear it (here, or on several nodes on
 * any node, as the other nodes tell), or its left event names the
 * instant it will be gone (0, now, if it names another). */
int64_t game_presence_left_at(const struct game_service *gs, const struct live_game *lg, int color);
/* Writes the left event of seat color: gone at its last request plus the
 * grace, and the instant the win may be claimed then (the ruleset's). */
void game_presence_left(struct game_service *gs, struct live_game *lg, int color);
/* Whether player made a request on, or has a poll parked in, any game of
 * theirs (in memory or evicted, except skip) within grace_ms before now:
 * active on the server. Scans the games: for rare commands (a win claim). */
bool game_presence_player_active(const struct game_service *gs, int64_t player, const struct live_game *skip,
				 int64_t grace_ms, int64_t now);
/* Counts out among the seat's invalid commands (or resets the count). */
void game_presence_account(struct game_service *gs, struct live_game *lg, int color, const struct game_outcome *out);
/* Counts one event the seat is about to write at the current ply; false
 * (429 in out) past the server's events_per_ply. */
bool game_presence_churn(struct game_service *gs, struct live_game *lg, int color, struct game_outcome *out);

/* ---- notes (game-note.c) ---- */

/* In the transaction that ends the game: one notes-revealed event. */
int game_note_reveal(struct game_txn *t, struct game_outcome *out);

/* The notes everyone may read, in seq order (for the PGN). */
struct game_note_list {
	struct fold_note *notes;   /* each text owned by the list */
	size_t n, cap;
};
/* Fills l (which it initialises) with the notes a notes-revealed event
 * lists and those written after the game ended. Returns 0, or -1 with out
 * set (l then empty). */
int game_note_public(struct game_service *gs, const char *id, struct game_note_list *l, struct game_outcome *out);
void game_note_list_fini(struct game_note_list *l);

/* ---- the timer (game-timer.c) ---- */

/* Puts node on heap h with key, or takes it off for INT64_MAX. */
void game_timer_set(struct dheap *h, struct dheap_node *node, int64_t key);
/* The earliest instant the timer must act on lg (its flag or a chore);
 * INT64_MAX for none. Pure: acts on nothing. */
int64_t game_timer_deadline(struct game_service *gs, const struct live_game *lg);
/* Acts on lg's chores due by now; true if that erased (freed) lg. */
bool game_timer_chores(struct game_service *gs, struct live_game *lg, int64_t now);
/* lg's deadline may have moved earlier: the timer hears of it. */
void game_timer_poke(struct game_service *gs, struct live_game *lg);
/* Starts and stops the timer thread (stop takes the lock itself). */
int game_timer_start(struct game_service *gs);
void game_timer_stop(struct game_service *gs);

/* ---- engine seats (game-engine.c) ---- */

/* After every commit: withdraws a stale engine request, asks for a move
 * when an engine seat is to move. */
void game_engine_sync(struct game_service *gs, struct live_game *lg);
/* Whether the game's engine request waits in the pool's queue: its seat's
 * clock is then not charged, so its flag cannot fall (game-timer.c). */
bool game_engine_queued(const struct live_game *lg);
/* Whether player may start one more engine game (engine_games_per_player,
 * engine_games); if not, false with out failed (429 or 503) saying which. */
bool game_engine_admit(struct game_service *gs, int64_t player, struct game_outcome *out);

#endif
