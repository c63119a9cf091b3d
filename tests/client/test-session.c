/*
 * The play model without a terminal or a network: server events folded
 * into the mirror, moves refused locally before any request, premoves
 * shown and resolved, clocks read from the server's readings, keys turned
 * into commands, and the requests the model asks for; the game actions
 * (offers, claims, abort, adjournment, absence, notes) with their local
 * refusals that send nothing; undo games' take-back and done, rematches
 * and the switch to the series' next game, the series score, and the
 * low-time warning at exact milliseconds.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock-text.h"
#include "keys.h"
#include "play-status.h"
#include "session.h"
#include "text-wrap.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"

#define ID "0123456789abcdef0123456789abcdef"
#define ID2 "fedcba9876543210fedcba9876543210"
#define T0 INT64_C(1700000000000)

struct evbuf {
	struct protocol_events evs;
	int64_t seq;
};

static void evbuf_init(struct evbuf *b, int64_t seq)
{
	memset(b, 0, sizeof *b);
	b->seq = seq;
}

static void evbuf_add(struct evbuf *b, int64_t t_ms, const struct fold_event *fe)
{
	b->evs.events = realloc(b->evs.events, (b->evs.n + 1) * sizeof *b->evs.events);
	struct protocol_event *ev = &b->evs.events[b->evs.n++];
	memset(ev, 0, sizeof *ev);
	ev->seq = ++b->seq;
	snprintf(ev->type, sizeof ev->type, "%s", fold_event_type(fe->kind));
	ev->t_ms = t_ms;
	ev->data = fold_event_encode(fe);
	b->evs.seq = b->seq;
	b->evs.now_ms = t_ms;
}

static void clock_reading(struct fold_event *e, int64_t w, int64_t bl, int running)
{
	e->has_clock = true;
	e->clock.ms[WHITE] = w;
	e->clock.ms[BLACK] = bl;
	e->clock.running = running;
	e->clock.turn_used_ms = 0;
}

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* A game-created event: 5+3, fide, an open seek from fen, alice (player
 * 1) White; the caller adds to it. */
static void created_event(struct fold_event *e, const char *fen)
{
	fold_event_init(e, FOLD_EV_CREATED);
	snprintf(e->tc, sizeof e->tc, "5+3");
	snprintf(e->ruleset, sizeof e->ruleset, "fide");
	snprintf(e->fen, sizeof e->fen, "%s", fen);
	snprintf(e->opponent, sizeof e->opponent, "open");
	e->seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e->seats[WHITE].player = 1;
	snprintf(e->seats[WHITE].name, sizeof e->seats[WHITE].name, "alice");
}

/* How a started game differs from 5+3 fide from the start position
 * without undo (NULL, or a member NULL or false: as that). */
struct game_setup {
	const char *fen, *ruleset, *tc;
	bool undo;
};

/* game-created (from setup, alice White), player-joined (bob Black) and
 * game-started at T0. */
static void start_events(struct evbuf *b, const struct game_setup *g)
{
	struct fold_event e;
	created_event(&e, g && g->fen ? g->fen : START_FEN);
	if (g && g->ruleset)
		snprintf(e.ruleset, sizeof e.ruleset, "%s", g->ruleset);
	if (g && g->tc)
		snprintf(e.tc, sizeof e.tc, "%s", g->tc);
	e.undo = g && g->undo;
	evbuf_add(b, T0, &e);
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = BLACK;
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(b, T0, &e);
}

/* A move event for uci in the position of s's mirror. */
static void move_event(struct evbuf *b, const struct session *s, const struct position *p, int64_t ply,
		       const char *uci, int64_t t_ms, bool premove)
{
	struct fold_event e;
	move m;
	ck_assert_int_eq(uci_parse(p, uci, strlen(uci), &m, NULL), TCHESS_OK);
	fold_event_init(&e, FOLD_EV_MOVE);
	e.ply = ply;
	e.color = p->side;
	snprintf(e.uci, sizeof e.uci, "%s", uci);
	san_write(p, m, e.san);
	struct position after = *p;
	struct undo u;
	position_make(&after, m, &u);
	fen_write(&after, e.fen);
	e.premove = premove;
	clock_reading(&e, 300000, 300000, after.side);
	(void)s;
	evbuf_add(b, t_ms, &e);
}

static void evbuf_fold(struct evbuf *b, struct session *s, int64_t mono)
{
	session_on_events(s, &b->evs, mono);
	protocol_events_fini(&b->evs);
	memset(&b->evs, 0, sizeof b->evs);
}

static void apply(struct session *s, enum session_cmd_kind k, long arg)
{
	struct session_cmd c = { k, arg, 0 };
	session_apply(s, &c);
}

static void press(struct session *s, int key)
{
	struct session_cmd c = session_key(s, key);
	session_apply(s, &c);
}

static void type(struct session *s, const char *text)
{
	apply(s, SESSION_CMD_PROMPT_OPEN, 0);
	for (const char *p = text; *p; p++)
		apply(s, SESSION_CMD_PROMPT_INPUT, *p);
	apply(s, SESSION_CMD_PROMPT_SUBMIT, 0);
}

/* A started game with s playing me. */
/* A game started as setup says (NULL: the default), folded into s
 * playing me (-1: watching). */
static void started_game(struct session *s, struct evbuf *b, int me, const struct game_setup *g)
{
	session_init(s, ID, me);
	evbuf_init(b, 0);
	start_events(b, g);
	evbuf_fold(b, s, 5000);
	ck_assert_str_eq(s->view.game.rules.name, g && g->ruleset ? g->ruleset : "fide");
	ck_assert(s->view.undo == (g && g->undo));
}

START_TEST(test_fold_mirror)
{
	struct session s;
	struct evbuf b;
	struct position p;
	started_game(&s, &b, WHITE, NULL);
	ck_assert(s.view.started);
	ck_assert_int_eq(s.after, 3);
	ck_assert_str_eq(s.view.seats[BLACK].name, "bob");
	ck_assert(session_my_turn(&s));
	session_position(&s, &p);
	move_event(&b, &s, &p, 0, "f2f3", T0 + 1000, false);
	evbuf_fold(&b, &s, 6000);
	ck_assert_int_eq((int)s.view.game.n_plies, 1);
	ck_assert_str_eq(s.san[0], "f3");
	ck_assert(!session_my_turn(&s));
	ck_assert_int_eq(s.ml.rows, 1);
	/* The same answer again (a retried poll) changes nothing. */
	session_position(&s, &p);
	evbuf_init(&b, 3);
	{
		struct position start;
		position_init_start(&start);
		move_event(&b, &s, &start, 0, "f2f3", T0 + 1000, false);
	}
	evbuf_fold(&b, &s, 6100);
	ck_assert_int_eq((int)s.view.game.n_plies, 1);
	ck_assert_int_eq(s.view.seq, 4);
	/* An event the rules refuse (White again) asks for a refold. */
	evbuf_init(&b, 4);
	move_event(&b, &s, &p, 1, "e7e5", T0 + 2000, false);
	b.evs.events[0].data[0] = '{';
	{
		/* Make it claim the wrong ply. */
		struct fold_event e;
		fold_event_init(&e, FOLD_EV_MOVE);
		e.ply = 7;
		e.color = BLACK;
		snprintf(e.uci, sizeof e.uci, "e7e5");
		snprintf(e.san, sizeof e.san, "e5");
		snprintf(e.fen, sizeof e.fen, "8/8/8/8/8/8/8/8 w - - 0 1");
		clock_reading(&e, 1, 1, WHITE);
		free(b.evs.events[0].data);
		b.evs.events[0].data = fold_event_encode(&e);
	}
	evbuf_fold(&b, &s, 6200);
	ck_assert(s.resync);
	ck_assert_int_eq((int)s.view.game.n_plies, 1);
	ck_assert_ptr_nonnull(strstr(s.message, "refused"));
	session_fini(&s);
}
END_TEST

/* "An illegal move is refused instantly, locally, with the reason — no
 * round trip." */
START_TEST(test_illegal_refused_locally)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	type(&s, "e5");
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "illegal"));
	/* By picking up and dropping: the reason comes from the rules. */
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 1));
	ck_assert_int_eq(s.selected, make_sq(4, 1));
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 4));
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "illegal: "));
	ck_assert_ptr_nonnull(strstr(s.message, "e2"));
	/* A legal one is queued with its ply and shown at once. */
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 1));
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 3));
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_MOVE);
	ck_assert_int_eq(s.outbox[0].ply, 0);
	ck_assert_str_eq(s.outbox[0].moves[0], "e2e4");
	ck_assert(s.pending);
	struct board_view v;
	session_board_view(&s, &v);
	ck_assert_int_eq(v.pos.board[make_sq(4, 3)], W_PAWN);
	ck_assert(v.last_move & sq_bb(make_sq(4, 3)));
	/* The request it becomes. */
	struct session_req r;
	const char *method;
	char path[128], *body;
	ck_assert(session_take_request(&s, &r));
	session_req_http(&s, &r, &method, path, sizeof path, &body);
	ck_assert_str_eq(method, "POST");
	ck_assert_str_eq(path, "/v1/games/" ID "/moves");
	ck_assert_ptr_nonnull(strstr(body, "\"ply\":0"));
	ck_assert_ptr_nonnull(strstr(body, "\"move\":\"e2e4\""));
	free(body);
	/* A refusal by the server takes the move back. */
	struct protocol_error err = { .code = PROTOCOL_ERR_CONFLICT };
	snprintf(err.message, sizeof err.message, "stale ply");
	session_on_answer(&s, &r, 409, &err);
	ck_assert(!s.pending);
	ck_assert_ptr_nonnull(strstr(s.message, "stale ply"));
	session_fini(&s);
}
END_TEST

START_TEST(test_promotion_chooser)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, &(struct game_setup){ .fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1" });
	ck_assert(s.view.started);
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 6));
	apply(&s, SESSION_CMD_CLICK, SQ_E8);
	ck_assert(s.promo);
	ck_assert_int_eq(s.n_out, 0);
	struct session_cmd c = session_key(&s, 'n');
	ck_assert_int_eq(c.kind, SESSION_CMD_PROMOTE);
	ck_assert_int_eq(c.arg, KNIGHT);
	session_apply(&s, &c);
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_str_eq(s.outbox[0].moves[0], "e7e8n");
	session_fini(&s);
}
END_TEST

/* Premoves during the opponent's turn: validated by the premove rules,
 * sent as the whole queue, shown numbered, then played or discarded. */
START_TEST(test_premoves)
{
	struct session s;
	struct evbuf b;
	struct position p;
	started_game(&s, &b, BLACK, NULL);
	ck_assert(s.flipped);
	ck_assert(!session_my_turn(&s));
	/* A premove of the wrong shape is refused locally. */
	apply(&s, SESSION_CMD_CLICK, SQ_G8);
	apply(&s, SESSION_CMD_CLICK, make_sq(6, 4));
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "premove refused"));
	apply(&s, SESSION_CMD_CANCEL, 0);
	/* e7e5 then d8h4: two premoves (fide allows a queue of its depth). */
	type(&s, "e7e5");
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_PREMOVES);
	ck_assert_int_eq(s.outbox[0].ply, 0);
	ck_assert_int_eq(s.outbox[0].n, 1);
	ck_assert_str_eq(s.outbox[0].moves[0], "e7e5");
	ck_assert_int_eq(s.premoves.n, 1);
	/* Shown as a player reads it, not in UCI. */
	ck_assert_str_eq(s.message, "premove 1 queued: e5   x clears");
	char pt[120];
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: e5   x clears");
	struct board_view v;
	session_board_view(&s, &v);
	ck_assert_int_eq(v.premove[make_sq(4, 6)], 1);
	ck_assert_int_eq(v.premove[make_sq(4, 4)], 1);
	ck_assert_int_eq(v.pos.board[make_sq(4, 6)], B_PAWN); /* the piece stays until played */
	/* The server echoes the queue (private event), White moves and the
	 * server plays the premove in the same transaction. */
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.ply = 0;
	e.color = BLACK;
	e.n_moves = 1;
	snprintf(e.moves[0], sizeof e.moves[0], "e7e5");
	evbuf_add(&b, T0 + 500, &e);
	evbuf_fold(&b, &s, 5500);
	ck_assert_int_eq(s.premoves.n, 1);
	struct session_req sent = s.outbox[0];
	session_on_answer(&s, &sent, 200, NULL);
	session_position(&s, &p);
	move_event(&b, &s, &p, 0, "f2f3", T0 + 1000, false);
	{
		struct position q = p;
		move m;
		struct undo u;
		uci_parse(&q, "f2f3", 4, &m, NULL);
		position_make(&q, m, &u);
		move_event(&b, &s, &q, 1, "e7e5", T0 + 1000, true);
	}
	evbuf_fold(&b, &s, 6000);
	ck_assert_int_eq((int)s.view.game.n_plies, 2);
	ck_assert_int_eq(s.premoves.n, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "premove played: e5"));
	session_board_view(&s, &v);
	ck_assert_int_eq(v.premove[make_sq(4, 6)], 0);
	/* A discarded premove is reported with the reason. */
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.ply = 2;
	e.color = BLACK;
	e.n_moves = 1;
	snprintf(e.moves[0], sizeof e.moves[0], "d8h4");
	evbuf_add(&b, T0 + 1500, &e);
	evbuf_fold(&b, &s, 6500);
	ck_assert_int_eq(s.premoves.n, 1);
	fold_event_init(&e, FOLD_EV_PREMOVE_DISCARDED);
	e.ply = 3;
	e.color = BLACK;
	snprintf(e.uci, sizeof e.uci, "d8h4");
	snprintf(e.reason, sizeof e.reason, "the queen on d8 is pinned");
	session_position(&s, &p);
	move_event(&b, &s, &p, 2, "e2e4", T0 + 2000, false);
	evbuf_add(&b, T0 + 2000, &e);
	evbuf_fold(&b, &s, 7000);
	ck_assert_int_eq(s.premoves.n, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "premove d8-h4 discarded"));
	ck_assert(!session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "");
	ck_assert_ptr_nonnull(strstr(s.message, "pinned"));
	/* My move now: what is typed is a move, not a premove. */
	s.n_out = 0;
	type(&s, "Qh4");
	ck_assert_int_eq(s.n_out, 1); /* my move now: a move, not a premove */
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_MOVE);
	session_fini(&s);
}
END_TEST

/* A premove typed while the previous one's request is on its way stays
 * queued when the server's echo of the earlier queue arrives: the next
 * request sends the whole queue, so losing it here would lose it on the
 * server too (seen as a premove that vanished in a tmux test). */
START_TEST(test_premove_typed_in_flight)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	session_init(&s, ID, BLACK);
	evbuf_init(&b, 0);
	created_event(&e, START_FEN);
	e.premove_depth = 3; /* tchess play --premoves 3 */
	e.seats[BLACK] = e.seats[WHITE];
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(&b, T0, &e);
	evbuf_fold(&b, &s, 5000);
	type(&s, "e7e5");
	type(&s, "g8f6");
	ck_assert_int_eq(s.n_out, 2);
	struct session_req first = s.outbox[0], second = s.outbox[1];
	ck_assert_int_eq(second.n, 2);
	ck_assert_int_eq(s.premoves.n, 2);
	/* The server's event for the first request: only e5 queued yet. */
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.ply = 0;
	e.color = BLACK;
	e.n_moves = 1;
	snprintf(e.moves[0], sizeof e.moves[0], "e7e5");
	evbuf_add(&b, T0 + 500, &e);
	evbuf_fold(&b, &s, 5500);
	ck_assert_int_eq(s.premoves.n, 2);
	session_on_answer(&s, &first, 200, NULL);
	evbuf_fold(&b, &s, 5600);
	ck_assert_int_eq(s.premoves.n, 2);
	/* Both answered: the server's queue is the one shown again. */
	session_on_answer(&s, &second, 200, NULL);
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.ply = 0;
	e.color = BLACK;
	e.n_moves = 1;
	snprintf(e.moves[0], sizeof e.moves[0], "e7e5");
	evbuf_add(&b, T0 + 600, &e);
	evbuf_fold(&b, &s, 5700);
	ck_assert_int_eq(s.premoves.n, 1);
	session_fini(&s);
}
END_TEST

/* Three premoves typed at once; the server plays the first when White
 * moves before the third request arrives, and refuses that request for a
 * stale ply. The queue kept here (Nf6, Nc6) is sent again at the new ply
 * once the mirror has the events the refusal named, whichever comes first;
 * it used to fall back to the server's queue, losing Nc6 (seen once as
 * "premove refused: stale ply 0" in client-firstmove-tmux under load). */
static void premove_race_game(struct session *s, struct evbuf *b, struct session_req sent[3])
{
	struct fold_event e;
	session_init(s, ID, BLACK);
	evbuf_init(b, 0);
	created_event(&e, START_FEN);
	e.premove_depth = 3;
	e.seats[BLACK] = e.seats[WHITE];
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(b, T0, &e);
	evbuf_fold(b, s, 5000);
	type(s, "e7e5");
	type(s, "g8f6");
	type(s, "b8c6");
	ck_assert_int_eq(s->premoves.n, 3);
	for (int i = 0; i < 3; i++)
		ck_assert(session_take_request(s, &sent[i]));
	ck_assert_int_eq(sent[2].ply, 0);
	session_on_answer(s, &sent[0], 200, NULL);
	session_on_answer(s, &sent[1], 200, NULL);
	/* The server's log: the queue e5 Nf6, then d4 and the premove e5. */
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.ply = 0;
	e.color = BLACK;
	e.n_moves = 2;
	snprintf(e.moves[0], sizeof e.moves[0], "e7e5");
	snprintf(e.moves[1], sizeof e.moves[1], "g8f6");
	evbuf_add(b, T0 + 100, &e);
	struct position p;
	ck_assert_int_eq(fen_parse(&p, START_FEN, NULL), TCHESS_OK);
	move_event(b, s, &p, 0, "d2d4", T0 + 200, false);
	ck_assert_int_eq(fen_parse(&p, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", NULL), TCHESS_OK);
	move_event(b, s, &p, 1, "e7e5", T0 + 200, true);
}

static void assert_premoves_resent(struct session *s)
{
	struct session_req r;
	ck_assert_int_eq(s->n_out, 1);
	ck_assert(session_take_request(s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_PREMOVES);
	ck_assert_int_eq(r.ply, 2);
	ck_assert_int_eq(r.n, 2);
	ck_assert_str_eq(r.moves[0], "g8f6");
	ck_assert_str_eq(r.moves[1], "b8c6");
	ck_assert_int_eq(s->premoves.n, 2);
	ck_assert_ptr_null(strstr(s->message, "refused"));
	session_on_answer(s, &r, 200, NULL);
	ck_assert_int_eq(s->premoves_out, 0);
}

START_TEST(test_premove_stale_resent)
{
	struct session s;
	struct evbuf b;
	struct session_req sent[3];
	struct protocol_error err = { PROTOCOL_ERR_CONFLICT, "stale ply 0: the game is at ply 2", 0 };
	/* The events first, then the refusal. */
	premove_race_game(&s, &b, sent);
	err.seq = b.seq;
	evbuf_fold(&b, &s, 5200);
	ck_assert_int_eq(s.premoves.n, 2);
	session_on_answer(&s, &sent[2], 409, &err);
	assert_premoves_resent(&s);
	session_fini(&s);
	/* The refusal first: nothing is sent until the mirror has its seq. */
	premove_race_game(&s, &b, sent);
	err.seq = b.seq;
	session_on_answer(&s, &sent[2], 409, &err);
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_int_eq(s.premoves.n, 3);
	evbuf_fold(&b, &s, 5200);
	assert_premoves_resent(&s);
	session_fini(&s);
}
END_TEST

/* Premoves read like SAN on the board the player sees: a second knight
 * that reaches the square names the origin file, a pawn capture its
 * file, castling O-O; a premove whose piece is gone reads "b8-d7". */
START_TEST(test_premove_text)
{
	struct session s;
	struct evbuf b;
	char pt[120];
	started_game(&s, &b, BLACK, &(struct game_setup){ .fen = "rn2k2r/8/8/2p5/3N4/8/3P4/4K3 w kq - 0 1" });
	ck_assert(!session_my_turn(&s));
	type(&s, "b8d7");
	ck_assert_int_eq(s.premoves.n, 1);
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: Nd7   x clears");
	apply(&s, SESSION_CMD_PREMOVES_CLEAR, 0);
	ck_assert_int_eq(s.premoves.n, 0);
	type(&s, "e8g8");
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: O-O   x clears");
	apply(&s, SESSION_CMD_PREMOVES_CLEAR, 0);
	type(&s, "c5d4");
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: cxd4   x clears");
	session_fini(&s);

	started_game(&s, &b, BLACK, &(struct game_setup){ .fen = "1n2kn2/8/8/8/8/8/3P4/4K3 w - - 0 1" });
	type(&s, "f8d7");
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: Nfd7   x clears");
	/* The piece gone from its square (as after a capture the server
	 * has not judged yet): the squares, not a guess. */
	s.premoves.items[0].from = SQ_A8;
	ck_assert(session_premoves_text(&s, pt, sizeof pt));
	ck_assert_str_eq(pt, "premove: a8-d7   x clears");
	session_fini(&s);
}
END_TEST

/* Clocks: counted down locally from the server's reading, anchored at
 * receipt, tenths under 10 s; only the running side moves. */
START_TEST(test_clocks)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	/* The answer said now_ms = T0: white's clock reads 5:00 at mono 5000. */
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 5000), 300000);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 6500), 298500);
	ck_assert_int_eq(session_clock_ms(&s, BLACK, 6500), 300000);
	ck_assert(session_clock_running(&s, WHITE));
	ck_assert(!session_clock_running(&s, BLACK));
	/* 298.5 s shows 4:58 and changes in 501 ms; the first-move
	 * countdown (28.5 s left) changes sooner, in 500. */
	ck_assert_int_eq(session_next_tick(&s, 6500), 500);
	/* An answer read later (now_ms past the event) already counts the gap. */
	struct protocol_events empty = { .seq = 3, .now_ms = T0 + 291000 };
	session_on_events(&s, &empty, 9000);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 9000), 9000);
	char text[CLOCK_TEXT_MAX];
	clock_text_format(session_clock_ms(&s, WHITE, 9450), text);
	ck_assert_str_eq(text, "0:08.5");
	ck_assert_int_eq(session_next_tick(&s, 9450), 51);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 30000), 0);
	ck_assert_int_eq(session_next_tick(&s, 30000), -1);
	session_fini(&s);
	/* Nothing runs before the game starts: no timeout at all. */
	session_init(&s, ID, WHITE);
	ck_assert_int_eq(session_next_tick(&s, 0), -1);
	session_fini(&s);
}
END_TEST

/* A poll answered below the seq it was sent after (a server that lost
 * its future, or one that gave the log's seqs before it numbered each
 * viewer's events): the mirror starts again from the log instead of
 * polling on from a seq the server has not reached. */
START_TEST(test_server_behind)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	ck_assert_int_eq(s.after, 3);
	struct protocol_events same = { .seq = 3, .now_ms = T0 + 100 };
	session_on_events(&s, &same, 5100);
	ck_assert(!s.resync);
	struct protocol_events behind = { .seq = 2, .now_ms = T0 + 200 };
	session_on_events(&s, &behind, 5200);
	ck_assert(s.resync);
	ck_assert_ptr_nonnull(strstr(s.message, "reloading"));
	session_fini(&s);
}
END_TEST

/* A connection that drops clears what was said before it (stale by the
 * time it is back: "the game has started"), saying why the clocks stand
 * instead, and that goes when it is back; an error stays. */
START_TEST(test_reconnect_clears_stale_message)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	ck_assert_msg(strstr(s.message, "the game has started"), "%s", s.message);
	session_set_conn(&s, SESSION_CONN_ONLINE, 10);
	ck_assert(strstr(s.message, "the game has started"));
	ck_assert(session_set_conn(&s, SESSION_CONN_RECONNECTING, -1) & SESSION_DIRTY_STATUS);
	ck_assert_str_eq(s.message, "server unreachable: the clocks stand as at the last move");
	session_set_conn(&s, SESSION_CONN_ONLINE, 10);
	ck_assert_str_eq(s.message, "");
	snprintf(s.message, sizeof s.message, "illegal: no piece there");
	s.message_error = true;
	session_set_conn(&s, SESSION_CONN_RECONNECTING, -1);
	ck_assert_str_eq(s.message, "illegal: no piece there");
	session_fini(&s);
}
END_TEST

/* The first-move rule counted down from the start for White, from
 * White's move for Black, as the server counts it; a game's own limit
 * (the operator's, carried by game-created) over the ruleset's 30 s. */
START_TEST(test_first_move_countdown)
{
	struct session s;
	struct evbuf b;
	struct position p;
	int side;
	started_game(&s, &b, BLACK, NULL);
	ck_assert_int_eq(session_first_move_ms(&s, 5000, &side), 30000);
	ck_assert_int_eq(side, WHITE);
	ck_assert_int_eq(session_first_move_ms(&s, 15500, &side), 19500);
	ck_assert_int_eq(session_first_move_ms(&s, 99000, &side), 0);
	session_position(&s, &p);
	move_event(&b, &s, &p, 0, "e2e4", T0 + 2000, false);
	evbuf_fold(&b, &s, 7000);
	ck_assert_int_eq(session_first_move_ms(&s, 7000, &side), 30000);
	ck_assert_int_eq(side, BLACK);
	ck_assert_int_eq(session_next_tick(&s, 7300), 700);
	session_position(&s, &p);
	move_event(&b, &s, &p, 1, "e7e5", T0 + 3000, false);
	evbuf_fold(&b, &s, 8000);
	ck_assert_int_eq(session_first_move_ms(&s, 8000, &side), -1);
	session_fini(&s);

	struct fold_event e;
	session_init(&s, ID, WHITE);
	evbuf_init(&b, 0);
	created_event(&e, START_FEN);
	e.first_move_ms = 8000;
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(&b, T0, &e);
	evbuf_fold(&b, &s, 5000);
	ck_assert_int_eq(session_first_move_ms(&s, 6000, &side), 7000);
	session_fini(&s);
}
END_TEST

/* Every command has its row in the command table: each applies, to a
 * game and to a watched one, and a command kind out of range changes
 * nothing. */
START_TEST(test_command_table)
{
	struct session s;
	struct evbuf b;
	for (int me = -1; me <= WHITE; me++) {
		started_game(&s, &b, me < 0 ? -1 : me, NULL);
		apply(&s, SESSION_CMD_RESIZE, 80);
		for (int k = 0; k < SESSION_CMD_NB; k++) {
			struct session_cmd c = { (enum session_cmd_kind)k, k == SESSION_CMD_RESIZE ? 80 : 0,
						 k == SESSION_CMD_RESIZE ? 24 : 0 };
			session_apply(&s, &c);
		}
		struct session_cmd bad = { SESSION_CMD_NB, 0, 0 };
		ck_assert_uint_eq(session_apply(&s, &bad), 0);
		session_fini(&s);
	}
}
END_TEST

/* A US delay (5+d3) stands still on the screen as the fold reads it, not
 * counted down from the reading: 5:00 for three seconds, then 4:59 one
 * second later; the wake-up waits for that change. */
START_TEST(test_clock_us_delay)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	session_init(&s, ID, WHITE);
	evbuf_init(&b, 0);
	created_event(&e, START_FEN);
	snprintf(e.tc, sizeof e.tc, "5+d3");
	/* A tournament's game: no first-move countdown wakes the loop. */
	snprintf(e.opponent, sizeof e.opponent, "tournament");
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = BLACK;
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(&b, T0, &e);
	evbuf_fold(&b, &s, 5000);
	ck_assert_int_eq(s.view.clock.tc.kind, TC_US_DELAY);
	for (int64_t t = 1000; t <= 3000; t += 1000)
		ck_assert_int_eq(session_clock_ms(&s, WHITE, 5000 + t), 300000);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 5000 + 4000), 299000);
	ck_assert_int_eq(session_next_tick(&s, 5000), 3001);
	ck_assert_int_eq(session_next_tick(&s, 6000), 2001);
	ck_assert_int_eq(session_next_tick(&s, 8500), 501);
	session_fini(&s);
}
END_TEST

START_TEST(test_keys)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	ck_assert_int_eq(session_key(&s, KEYS_LEFT).kind, SESSION_CMD_CURSOR);
	ck_assert_int_eq(session_key(&s, KEYS_LEFT).arg, -1);
	ck_assert_int_eq(session_key(&s, KEYS_DOWN).arg2, 1);
	ck_assert_int_eq(session_key(&s, ' ').kind, SESSION_CMD_PICK);
	ck_assert_int_eq(session_key(&s, KEYS_ENTER).kind, SESSION_CMD_PICK);
	ck_assert_int_eq(session_key(&s, '/').kind, SESSION_CMD_PROMPT_OPEN);
	ck_assert_int_eq(session_key(&s, 'N').kind, SESSION_CMD_PROMPT_INPUT);
	ck_assert_int_eq(session_key(&s, 't').kind, SESSION_CMD_FLIP);
	ck_assert_int_eq(session_key(&s, 'x').kind, SESSION_CMD_PREMOVES_CLEAR);
	ck_assert_int_eq(session_key(&s, 'm').kind, SESSION_CMD_MENU);
	/* Keys change nothing by themselves. */
	ck_assert_int_eq(s.cursor, SQ_NONE);
	/* The cursor starts on the king's square and moves on screen. */
	apply(&s, SESSION_CMD_CURSOR, 1);
	ck_assert_int_eq(s.cursor, SQ_E1);
	struct session_cmd up = session_key(&s, KEYS_UP);
	session_apply(&s, &up);
	ck_assert_int_eq(s.cursor, make_sq(4, 1));
	struct session_cmd pick = session_key(&s, ' ');
	session_apply(&s, &pick);
	ck_assert_int_eq(s.selected, make_sq(4, 1));
	struct board_view v;
	session_board_view(&s, &v);
	ck_assert(v.legal == (sq_bb(make_sq(4, 2)) | sq_bb(make_sq(4, 3))));
	/* Resign asks first; 'n' cancels, 'y' sends. */
	apply(&s, SESSION_CMD_RESIGN, 0);
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_RESIGN);
	ck_assert_int_eq(session_key(&s, 'n').kind, SESSION_CMD_CONFIRM_NO);
	ck_assert_int_eq(s.n_out, 0);
	struct session_cmd yes = session_key(&s, 'y');
	session_apply(&s, &yes);
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_RESIGN);
	/* Quit, in the menu, asks while the game runs. */
	press(&s, 'm');
	ck_assert(s.menu);
	struct session_cmd q = session_key(&s, 'q');
	ck_assert_int_eq(q.kind, SESSION_CMD_QUIT);
	session_apply(&s, &q);
	ck_assert(!s.menu);
	ck_assert(!s.quit);
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_QUIT);
	yes = session_key(&s, 'y');
	session_apply(&s, &yes);
	ck_assert(s.quit);
	session_fini(&s);
}
END_TEST

/* "any move input gets a clear 'spectating' message" */
START_TEST(test_spectator)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, -1, NULL);
	ck_assert(!s.flipped);
	int inputs[] = { ' ', KEYS_ENTER, '/', ':', 'e', 'N', 'x', 'R' };
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		struct session_cmd c = session_key(&s, inputs[i]);
		ck_assert_int_eq(c.kind, SESSION_CMD_SPECTATING);
		session_apply(&s, &c);
		ck_assert_ptr_nonnull(strstr(s.message, "spectating"));
	}
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 1));
	ck_assert_ptr_nonnull(strstr(s.message, "spectating"));
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_int_eq(s.selected, SQ_NONE);
	/* Flip and quit still work, without asking. */
	ck_assert_int_eq(session_key(&s, 'f').kind, SESSION_CMD_FLIP);
	apply(&s, SESSION_CMD_QUIT, 0);
	ck_assert(s.quit);
	session_fini(&s);
}
END_TEST

START_TEST(test_completion)
{
	struct session s;
	struct evbuf b;
	char cands[256];
	started_game(&s, &b, WHITE, NULL);
	apply(&s, SESSION_CMD_PROMPT_INPUT, 'N');
	ck_assert_int_eq(session_complete(&s, cands, sizeof cands), 4);
	ck_assert_str_eq(cands, "Na3 Nc3 Nf3 Nh3");
	apply(&s, SESSION_CMD_PROMPT_INPUT, 'f');
	ck_assert_int_eq(session_complete(&s, cands, sizeof cands), 1);
	ck_assert_str_eq(s.prompt_text, "Nf3");
	/* UCI prefixes complete too. */
	apply(&s, SESSION_CMD_PROMPT_CANCEL, 0);
	apply(&s, SESSION_CMD_PROMPT_INPUT, 'g');
	apply(&s, SESSION_CMD_PROMPT_INPUT, '1');
	ck_assert_int_eq(session_complete(&s, cands, sizeof cands), 2);
	apply(&s, SESSION_CMD_PROMPT_SUBMIT, 0);
	ck_assert_int_eq(s.n_out, 0);
	session_fini(&s);
}
END_TEST

START_TEST(test_game_over)
{
	struct session s;
	struct evbuf b;
	struct position p;
	started_game(&s, &b, BLACK, NULL);
	const char *moves[] = { "f2f3", "e7e5", "g2g4", "d8h4" };
	for (int i = 0; i < 4; i++) {
		session_position(&s, &p);
		move_event(&b, &s, &p, i, moves[i], T0 + 1000 * (i + 1), false);
		evbuf_fold(&b, &s, 6000 + i);
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.result, sizeof e.result, "0-1");
	snprintf(e.termination, sizeof e.termination, "checkmate");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 4000, &e);
	evbuf_fold(&b, &s, 7000);
	ck_assert(session_over(&s));
	char res[64];
	session_result_text(&s, res, sizeof res);
	ck_assert_str_eq(res, "0-1 checkmate");
	/* The end is told once, by the info pane and the status line: no
	 * third "game over" on the message line. */
	ck_assert_str_eq(s.message, "");
	char st[200];
	play_status_line(&s, 80, st, sizeof st);
	ck_assert_ptr_nonnull(strstr(st, "game over"));
	/* The notes key is j after the game as during it: one key. */
	ck_assert_ptr_nonnull(strstr(st, "j notes"));
	ck_assert_ptr_null(strstr(st, "n notes"));
	ck_assert_int_eq(session_key(&s, 'j').kind, SESSION_CMD_NOTES_OPEN);
	ck_assert_int_ne(session_key(&s, 'n').kind, SESSION_CMD_NOTES_OPEN);
	ck_assert_str_eq(s.san[3], "Qh4#");
	ck_assert_int_eq(session_next_tick(&s, 8000), -1);
	apply(&s, SESSION_CMD_SAVE_PGN, 0);
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_PGN);
	apply(&s, SESSION_CMD_QUIT, 0);
	ck_assert(s.quit);
	session_fini(&s);
}
END_TEST

/* The status line at any width keeps the turn and "? help" and never
 * cuts a key hint in half ("? help  q qu" at 80 columns after the game):
 * whole items go, the round-trip time first. */
START_TEST(test_status_line_fits)
{
	struct session s;
	struct evbuf b;
	char line[400];
	started_game(&s, &b, WHITE, NULL);
	session_set_conn(&s, SESSION_CONN_ONLINE, 3);
	play_status_line(&s, 200, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | your move | online, rtt 3 ms | m menu  = draw  ? help");
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | your move | online, rtt 3 ms | m menu  = draw  ? help");
	play_status_line(&s, 60, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | your move | online | m menu  = draw  ? help");
	play_status_line(&s, 40, line, sizeof line);
	ck_assert_str_eq(line, "your move | m menu  = draw  ? help");
	play_status_line(&s, 20, line, sizeof line);
	ck_assert_str_eq(line, "your move | ? help");
	/* A connection in trouble is never left out. */
	session_set_conn(&s, SESSION_CONN_RECONNECTING, -1);
	play_status_line(&s, 50, line, sizeof line);
	ck_assert_str_eq(line, "your move | reconnecting... | m menu  ? help");
	/* After the game, at 80 columns: the keys whole. */
	session_set_conn(&s, SESSION_CONN_ONLINE, 3);
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = BLACK;
	snprintf(e.result, sizeof e.result, "1-0");
	snprintf(e.termination, sizeof e.termination, "resignation");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 4000, &e);
	evbuf_fold(&b, &s, 7000);
	ck_assert(session_over(&s));
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | game over | online | r rematch  s save PGN  j notes  ? help");
	session_fini(&s);
	/* Before the start: no move, draw or resign hints for a game that
	 * has not begun. */
	session_init(&s, ID, WHITE);
	evbuf_init(&b, 0);
	{
		struct fold_event c;
		created_event(&c, START_FEN);
		evbuf_add(&b, T0, &c);
	}
	evbuf_fold(&b, &s, 5000);
	ck_assert(s.view.created && !s.view.started);
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | not started | connecting | f flip  ? help  q quit");
	session_fini(&s);
	/* A spectator's. */
	started_game(&s, &b, -1, NULL);
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "watching 01234567 | White to move | connecting | f flip  ? help  q quit");
	session_fini(&s);
}
END_TEST

/* ---- game actions ---- */

static void request_event(struct evbuf *b, int color, enum fold_request_what what, enum fold_request_action action,
			  int64_t ply)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_REQUEST);
	e.color = color;
	e.what = what;
	e.action = action;
	e.ply = ply;
	evbuf_add(b, T0 + 500, &e);
}

/* Plays the moves (UCI) as events from ply 0. */
static void play_moves(struct session *s, struct evbuf *b, const char *const *moves, int n)
{
	for (int i = 0; i < n; i++) {
		struct position p;
		session_position(s, &p);
		move_event(b, s, &p, (int64_t)s->view.game.n_plies, moves[i], T0 + 1000 * (i + 1), false);
		evbuf_fold(b, s, 6000 + i);
	}
}

/* The request at the head of the outbox as method, path and body. */
static void take_http(struct session *s, const char *method, const char *path, const char *body)
{
	struct session_req r;
	const char *m;
	char p[160], *bd;
	ck_assert(session_take_request(s, &r));
	session_req_http(s, &r, &m, p, sizeof p, &bd);
	ck_assert_str_eq(m, method);
	ck_assert_str_eq(p, path);
	ck_assert_str_eq(bd, body);
	free(bd);
}

START_TEST(test_draw_offer_and_answer)
{
	struct session w, bl;
	struct evbuf b, b2;
	started_game(&w, &b, WHITE, NULL);
	/* The keys name the commands; the keys themselves change nothing. */
	ck_assert_int_eq(session_key(&w, '=').kind, SESSION_CMD_DRAW_OFFER);
	ck_assert_int_eq(session_key(&w, '+').kind, SESSION_CMD_ACCEPT);
	ck_assert_int_eq(session_key(&w, '-').kind, SESSION_CMD_DECLINE);
	ck_assert_int_eq(session_key(&w, 'W').kind, SESSION_CMD_DRAW_WITHDRAW);
	ck_assert_int_eq(session_key(&w, 'T').kind, SESSION_CMD_CLAIM_TABLEBASE);
	ck_assert_int_eq(session_key(&w, 'X').kind, SESSION_CMD_ABORT);
	ck_assert_int_eq(session_key(&w, 'P').kind, SESSION_CMD_ADJOURN);
	ck_assert_int_eq(session_key(&w, 'V').kind, SESSION_CMD_GONE_CLAIM);
	ck_assert_int_eq(session_key(&w, 'j').kind, SESSION_CMD_NOTES_OPEN);
	ck_assert_int_eq(w.n_out, 0);
	press(&w, '=');
	ck_assert_int_eq(w.n_out, 1);
	take_http(&w, "POST", "/v1/games/" ID "/draw", "{\"ply\":0,\"action\":\"offer\"}");
	/* Nothing to answer yet: refused here, no request. */
	press(&w, '+');
	ck_assert_int_eq(w.n_out, 0);
	ck_assert_str_eq(w.message, "nothing to accept: no offer or request from Black");

	/* Black sees White's offer in the status line and accepts it. */
	started_game(&bl, &b2, BLACK, NULL);
	request_event(&b2, WHITE, FOLD_REQ_DRAW, FOLD_REQ_MADE, 0);
	evbuf_fold(&b2, &bl, 6000);
	char text[160];
	ck_assert(session_request_text(&bl, text, sizeof text));
	ck_assert_str_eq(text, "White offers a draw \u2014 + accept, - decline");
	bl.ascii = true;
	session_request_text(&bl, text, sizeof text);
	ck_assert_str_eq(text, "White offers a draw - + accept, - decline");
	press(&bl, '+');
	take_http(&bl, "POST", "/v1/games/" ID "/draw", "{\"ply\":0,\"action\":\"accept\"}");
	press(&bl, '-');
	take_http(&bl, "POST", "/v1/games/" ID "/draw", "{\"ply\":0,\"action\":\"decline\"}");
	/* fide offers lapse, they cannot be withdrawn: refused locally. */
	request_event(&b, WHITE, FOLD_REQ_DRAW, FOLD_REQ_MADE, 0);
	evbuf_fold(&b, &w, 6000);
	session_request_text(&w, text, sizeof text);
	ck_assert_str_eq(text, "you offered a draw");
	press(&w, 'W');
	ck_assert_int_eq(w.n_out, 0);
	ck_assert_str_eq(w.message, "nothing withdrawn: under the fide rules a draw offer cannot be withdrawn");
	/* A second offer while one stands: libtchess's words. */
	press(&w, '=');
	ck_assert_int_eq(w.n_out, 0);
	ck_assert_str_eq(w.message, "no draw offer: White's draw offer already stands");

	/* The accept ends the game: result and reason. */
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = BLACK;
	snprintf(e.result, sizeof e.result, "1/2-1/2");
	snprintf(e.termination, sizeof e.termination, "agreement");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b2, T0 + 2000, &e);
	evbuf_fold(&b2, &bl, 7000);
	ck_assert(session_over(&bl));
	session_result_text(&bl, text, sizeof text);
	ck_assert_str_eq(text, "1/2-1/2 agreement");
	session_end_text(&bl, text, sizeof text);
	ck_assert_str_eq(text, "you accepted White's draw offer");
	/* The same end as White and as a spectator read it. */
	bl.me = WHITE;
	session_end_text(&bl, text, sizeof text);
	ck_assert_str_eq(text, "Black accepted your draw offer");
	bl.me = -1;
	session_end_text(&bl, text, sizeof text);
	ck_assert_str_eq(text, "Black accepted White's draw offer");
	bl.me = BLACK;
	ck_assert(!session_request_text(&bl, text, sizeof text));
	/* After the end every action is refused without a request. */
	int keys[] = { '=', 'A', 'D', 'C', 'X', 'P', 'G', 'T' };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		press(&bl, keys[i]);
	ck_assert_int_eq(bl.n_out, 0);
	session_fini(&w);
	session_fini(&bl);
}
END_TEST

/* yourpot: "draw offers only on one's own move" (ruleset.h, from the
 * Yourpot document), and its offers stand until withdrawn. */
START_TEST(test_offer_rules_by_ruleset)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, BLACK, &(struct game_setup){ .ruleset = "yourpot" });
	press(&s, '=');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "no draw offer: Black may offer a draw only on their own move");
	static const char *const m[] = { "e2e4" };
	play_moves(&s, &b, m, 1);
	press(&s, '=');
	take_http(&s, "POST", "/v1/games/" ID "/draw", "{\"ply\":1,\"action\":\"offer\"}");
	request_event(&b, BLACK, FOLD_REQ_DRAW, FOLD_REQ_MADE, 1);
	evbuf_fold(&b, &s, 7000);
	char text[160];
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "you offered a draw \u2014 W withdraw");
	press(&s, 'W');
	take_http(&s, "POST", "/v1/games/" ID "/draw", "{\"ply\":1,\"action\":\"withdraw\"}");
	session_fini(&s);

	/* fide: offers at any time, even right after my own move still on
	 * its way: then it is meant for the next ply. */
	started_game(&s, &b, WHITE, NULL);
	press(&s, 'e');
	press(&s, '4');
	press(&s, KEYS_ENTER);
	ck_assert(s.pending);
	press(&s, '=');
	ck_assert_int_eq(s.n_out, 2);
	take_http(&s, "POST", "/v1/games/" ID "/moves", "{\"ply\":0,\"move\":\"e2e4\"}");
	take_http(&s, "POST", "/v1/games/" ID "/draw", "{\"ply\":1,\"action\":\"offer\"}");
	session_fini(&s);
}
END_TEST

/* fide: "threefold and fifty-move by claim" (ruleset.h); the claim may
 * name the move that would make the repetition. */
START_TEST(test_claims)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, BLACK, NULL);
	/* Not my move: refused here. */
	press(&s, 'm');
	press(&s, 'c');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "claim refused: only the player to move may claim");
	static const char *const shuffle[] = { "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1" };
	play_moves(&s, &b, shuffle, 1);
	/* Black to move, no repetition. */
	press(&s, 'm');
	press(&s, 'c');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "no draw to claim: position seen 1 of 3 times, fifty-move count 1 of 100 plies");
	play_moves(&s, &b, shuffle + 1, 6);
	/* After 7 plies the position has occurred twice: still no claim... */
	press(&s, 'm');
	press(&s, 'c');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "position seen 2 of 3 times"));
	/* ...but Ng8, typed at the prompt, makes the start position's third
	 * occurrence: C there claims with it, and the move is not played. */
	press(&s, 'N');
	press(&s, 'g');
	press(&s, '8');
	ck_assert_int_eq(session_key(&s, '*').kind, SESSION_CMD_CLAIM_DRAW);
	press(&s, '*');
	ck_assert(!s.prompt);
	ck_assert(!s.pending);
	take_http(&s, "POST", "/v1/games/" ID "/claim", "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"f6g8\"}");
	/* A typed move that makes no draw is refused, for both rules. */
	press(&s, 'N');
	press(&s, 'e');
	press(&s, '4');
	press(&s, '*');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "no draw to claim with Ne4: no threefold repetition, no fifty moves");
	/* A server refusal is shown with its message. */
	struct session_req r = { .kind = SESSION_REQ_CLAIM, .ply = 7 };
	r.claim = PROTOCOL_CLAIM_THREEFOLD;
	struct protocol_error err = { .code = PROTOCOL_ERR_ILLEGAL };
	snprintf(err.message, sizeof err.message, "no threefold repetition");
	session_on_answer(&s, &r, 422, &err);
	ck_assert_str_eq(s.message, "threefold claim refused: no threefold repetition");
	/* Tablebase claims: none under fide, refused here. */
	press(&s, 'T');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "tablebase claim refused: the fide rules allow no tablebase claims");
	session_fini(&s);
}
END_TEST

/* "abort alone before 2 plies and by consent after" (ruleset.h). */
START_TEST(test_abort)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	press(&s, 'X');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_ABORT);
	ck_assert_int_eq(s.n_out, 0);
	press(&s, 'n');
	ck_assert_int_eq(s.n_out, 0);
	press(&s, 'X');
	press(&s, 'y');
	take_http(&s, "POST", "/v1/games/" ID "/abort", "{\"ply\":0,\"action\":\"request\"}");
	static const char *const m[] = { "e2e4", "e7e5" };
	play_moves(&s, &b, m, 2);
	/* After two plies it is a request, without asking. */
	press(&s, 'X');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_NONE);
	take_http(&s, "POST", "/v1/games/" ID "/abort", "{\"ply\":2,\"action\":\"request\"}");
	request_event(&b, WHITE, FOLD_REQ_ABORT, FOLD_REQ_MADE, 2);
	evbuf_fold(&b, &s, 8000);
	press(&s, 'X');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "you asked to abort already: waiting for Black");
	char text[160];
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "you asked to abort");
	/* Black declines: said so. */
	request_event(&b, BLACK, FOLD_REQ_ABORT, FOLD_REQ_DECLINED, 2);
	evbuf_fold(&b, &s, 8100);
	ck_assert_str_eq(s.message, "Black declined your abort request");
	/* Black asks; A accepts it. */
	request_event(&b, BLACK, FOLD_REQ_ABORT, FOLD_REQ_MADE, 2);
	evbuf_fold(&b, &s, 8200);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "Black asks to abort \u2014 + accept, - decline");
	press(&s, '+');
	take_http(&s, "POST", "/v1/games/" ID "/abort", "{\"ply\":2,\"action\":\"accept\"}");
	session_fini(&s);
}
END_TEST

/* A poll refused for good. An aborted game is erased after the server's
 * retention: the next poll gets 410, and the watcher is told so plainly
 * instead of a frozen board with a one-line error; q leaves. */
START_TEST(test_poll_gone_erased)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	char head[120], hint[160], line[400];
	started_game(&s, &b, -1, NULL);
	/* White aborts before the first move. */
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = WHITE;
	snprintf(e.result, sizeof e.result, "*");
	snprintf(e.termination, sizeof e.termination, "aborted");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 4000, &e);
	evbuf_fold(&b, &s, 7000);
	ck_assert(session_over(&s));
	ck_assert(!session_gone_text(&s, head, sizeof head, hint, sizeof hint));
	ck_assert_str_eq(head, "");

	struct protocol_error err = { .code = PROTOCOL_ERR_GONE };
	snprintf(err.message, sizeof err.message, "the game was aborted and erased");
	bool retry = true;
	unsigned dirty = session_on_poll_refused(&s, 410, &err, 9000, &retry);
	ck_assert(!retry);
	ck_assert(dirty & SESSION_DIRTY_INFO);
	ck_assert(dirty & SESSION_DIRTY_STATUS);
	ck_assert_int_eq(s.gone, SESSION_GONE_ERASED);
	ck_assert(!s.quit);
	ck_assert(s.message_error);
	ck_assert_str_eq(s.message, "this game was aborted and erased");
	ck_assert(session_gone_text(&s, head, sizeof head, hint, sizeof hint));
	ck_assert_str_eq(head, "this game was aborted and erased");
	ck_assert_str_eq(hint, "the server keeps an aborted game only a short while: nothing more will come");
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "watching 01234567 | game gone | f flip  ? help  q quit");
	/* Nothing that asks the server works now; flipping and quitting do. */
	press(&s, 's');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "this game was aborted and erased: q quits");
	bool flipped = s.flipped;
	press(&s, 'f');
	ck_assert(s.flipped != flipped);
	press(&s, 'q');
	ck_assert(s.quit);
	session_fini(&s);
}
END_TEST

/* 401 while playing: the token is not (or no longer) known to this server.
 * The player learns that and the fix, the clocks stop where they stood,
 * moves are not sent, and q leaves without the "your clock keeps running"
 * question (it will not come back to this game with that account). */
START_TEST(test_poll_gone_account)
{
	struct session s;
	struct evbuf b;
	char head[120], hint[160], line[400];
	started_game(&s, &b, WHITE, NULL);
	ck_assert(session_clock_running(&s, WHITE));
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 6000), 299000);
	bool retry = true;
	struct protocol_error err = { .code = PROTOCOL_ERR_UNAUTHORIZED };
	snprintf(err.message, sizeof err.message, "unknown token");
	session_on_poll_refused(&s, 401, &err, 7000, &retry);
	ck_assert(!retry);
	ck_assert_int_eq(s.gone, SESSION_GONE_ACCOUNT);
	ck_assert(session_gone_text(&s, head, sizeof head, hint, sizeof hint));
	ck_assert_str_eq(head, "this server does not know your account");
	ck_assert_ptr_nonnull(strstr(hint, "tchess token rotate"));
	ck_assert(!session_clock_running(&s, WHITE));
	ck_assert_int_eq(session_next_tick(&s, 8000), -1);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 60000), 298000);
	play_status_line(&s, 80, line, sizeof line);
	ck_assert_str_eq(line, "game 01234567 | account unknown | f flip  ? help  q quit");
	press(&s, 'e');
	press(&s, KEYS_ENTER);
	apply(&s, SESSION_CMD_CLICK, make_sq(4, 1));
	apply(&s, SESSION_CMD_RESIGN, 0);
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_NONE);
	ck_assert(!s.prompt);
	press(&s, 'q');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_NONE);
	ck_assert(s.quit);
	session_fini(&s);
}
END_TEST

/* 404 before anything of the game arrived: nothing to show, the screen
 * closes and the caller prints why. Any other refusal (here a 400) is
 * shown and the poll tried again: it is not the end of the game. */
START_TEST(test_poll_refused_other)
{
	struct session s;
	struct evbuf b;
	bool retry = true;
	session_init(&s, ID, -1);
	session_on_poll_refused(&s, 404, NULL, 1000, &retry);
	ck_assert(!retry);
	ck_assert(s.quit);
	ck_assert_int_eq(s.gone, SESSION_GONE_MISSING);
	ck_assert_str_eq(s.message, "no such game on this server");
	session_fini(&s);

	started_game(&s, &b, BLACK, NULL);
	struct protocol_error err = { .code = PROTOCOL_ERR_BAD_REQUEST };
	snprintf(err.message, sizeof err.message, "after: expected a non-negative integer");
	retry = false;
	session_on_poll_refused(&s, 400, &err, 7000, &retry);
	ck_assert(retry);
	ck_assert(!s.quit);
	ck_assert_int_eq(s.gone, SESSION_GONE_NOT);
	ck_assert_str_eq(s.message, "cannot follow the game: after: expected a non-negative integer (HTTP 400); trying again");
	ck_assert(session_clock_running(&s, WHITE));
	/* Without a body of the server's own (a proxy's page). */
	session_on_poll_refused(&s, 403, NULL, 7000, &retry);
	ck_assert(retry);
	ck_assert_str_eq(s.message, "cannot follow the game: the server refused (HTTP 403); trying again");
	session_fini(&s);
}
END_TEST

START_TEST(test_adjourn_and_absence)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	char text[160];
	started_game(&s, &b, WHITE, &(struct game_setup){ .ruleset = "yourpot" });
	press(&s, 'P');
	take_http(&s, "POST", "/v1/games/" ID "/adjourn", "{\"ply\":0,\"action\":\"request\"}");
	/* Black is gone: yourpot adjourns. */
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = false;
	evbuf_add(&b, T0 + 20000, &e);
	fold_event_init(&e, FOLD_EV_ADJOURNED);
	e.color = -1;
	snprintf(e.reason, sizeof e.reason, "disconnect");
	clock_reading(&e, 280000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 20000, &e);
	evbuf_fold(&b, &s, 30000);
	ck_assert(fold_adjourned(&s.view));
	ck_assert(session_request_text(&s, text, sizeof text));
	ck_assert_str_eq(text, "Black is gone");
	/* Moves wait for the resumption. */
	press(&s, 'e');
	press(&s, '4');
	press(&s, KEYS_ENTER);
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "the game is adjourned: P asks to resume");
	/* Yourpot: "If one of the partners discards to proceed the game,
	 * the player can claim the partner discard": a discard is the
	 * partner's refusal, so first a resume request ... */
	press(&s, 'V');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "nothing to claim: a discard is a refusal to resume: P asks to resume first");
	press(&s, 'P');
	take_http(&s, "POST", "/v1/games/" ID "/resume", "{\"ply\":0,\"action\":\"request\"}");
	request_event(&b, WHITE, FOLD_REQ_RESUME, FOLD_REQ_MADE, 0);
	evbuf_fold(&b, &s, 31000);
	/* ... that a partner who is gone has not refused until a day has
	 * passed ... */
	press(&s, 'V');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "nothing to claim: your opponent is offline: that counts as a refusal a day "
				    "after your request");
	/* ... one online can (their silence the server times). */
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = true;
	evbuf_add(&b, T0 + 32000, &e);
	evbuf_fold(&b, &s, 32000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "you asked to resume \u2014 V claim Black discards");
	press(&s, 'V');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_DISCARD);
	press(&s, 'y');
	take_http(&s, "POST", "/v1/games/" ID "/claim", "{\"ply\":0,\"claim\":\"discard\"}");
	session_fini(&s);

	/* chessgamble: "the present player may claim the win" (ruleset.h). */
	started_game(&s, &b, WHITE, &(struct game_setup){ .ruleset = "chessgamble" });
	press(&s, 'V');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "nothing to claim: your opponent is present");
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = false;
	evbuf_add(&b, T0 + 20000, &e);
	evbuf_fold(&b, &s, 30000);
	ck_assert_str_eq(s.message, "Black is gone");
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 press V to claim victory");
	press(&s, 'V');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_CLAIM_WIN);
	press(&s, 'y');
	take_http(&s, "POST", "/v1/games/" ID "/claim", "{\"ply\":0,\"claim\":\"win\"}");
	session_fini(&s);

	/* fide: a disconnect ends the game, nothing to claim. */
	started_game(&s, &b, WHITE, NULL);
	press(&s, 'V');
	ck_assert_str_eq(s.message, "nothing to claim: these rules give no win for a disconnect");
	ck_assert_int_eq(s.n_out, 0);
	session_fini(&s);
}
END_TEST

static void left_event(struct evbuf *b, int64_t t_ms, int color, int64_t gone_ms, int64_t claim_ms);

/* The states the fit test presses keys in (test_messages_fit_80). */
enum fit_state {
	FIT_MY_MOVE,     /* fide, White to move, me White */
	FIT_THEIR_MOVE,  /* fide, White to move, me Black: premoves */
	FIT_ADJOURNED,   /* yourpot, adjourned, Black gone */
	FIT_LEFT,        /* chessgamble, Black left */
	FIT_OVER,        /* fide, Black resigned */
	FIT_WATCHING,    /* a spectator */
	FIT_AWAY,        /* the server unreachable */
	FIT_STATES
};

static void fit_state(struct session *s, struct evbuf *b, enum fit_state st)
{
	struct fold_event e;
	static const char *const rules[FIT_STATES] = { "fide", "fide", "yourpot", "chessgamble", "fide", "fide", "fide" };
	int me = st == FIT_THEIR_MOVE ? BLACK : st == FIT_WATCHING ? -1 : WHITE;
	started_game(s, b, me, &(struct game_setup){ .ruleset = rules[st] });
	switch (st) {
	case FIT_ADJOURNED:
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = BLACK;
		evbuf_add(b, T0 + 20000, &e);
		fold_event_init(&e, FOLD_EV_ADJOURNED);
		snprintf(e.reason, sizeof e.reason, "disconnect");
		clock_reading(&e, 280000, 300000, CLOCK_NOBODY);
		evbuf_add(b, T0 + 20000, &e);
		break;
	case FIT_LEFT:
		left_event(b, T0 + 20000, BLACK, T0 + 35000, T0 + 35000);
		break;
	case FIT_OVER:
		fold_event_init(&e, FOLD_EV_ENDED);
		snprintf(e.termination, sizeof e.termination, "resignation");
		e.color = BLACK;
		clock_reading(&e, 280000, 300000, CLOCK_NOBODY);
		evbuf_add(b, T0 + 20000, &e);
		break;
	default:
		break;
	}
	if (b->evs.n)
		evbuf_fold(b, s, 30000);
	session_set_conn(s, st == FIT_AWAY ? SESSION_CONN_RECONNECTING : SESSION_CONN_ONLINE, 1);
	session_tick(s, 33000);
}

/* Issue 14 item 11, text that fits: every message the play screen's keys
 * make, in every state above, and what the status line's request part
 * says, fits 80 columns whole (the message line is the terminal's
 * width), so nothing has to be shortened at 80x24. Keys are pressed
 * alone and then followed by y (the confirmations) and by each other
 * key (the menu's). Messages quoting the server's own text are the
 * server's to keep short (test-left-tmux and the server tests). */
START_TEST(test_messages_fit_80)
{
	static const char keys_[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=*/:?!#$%&.,;<>[]{}()";
	char text[400];
	int worst = 0, too_long = 0;
	char worst_text[400] = "";
	for (int st = 0; st < FIT_STATES; st++) {
		for (const char *k = keys_; *k; k++) {
			for (const char *then = " y" ; *then; then++) {
				struct session s;
				struct evbuf b;
				fit_state(&s, &b, (enum fit_state)st);
				press(&s, *k);
				if (*then != ' ')
					press(&s, *then);
				int cols = text_wrap_cols(s.message);
				if (cols > worst) {
					worst = cols;
					snprintf(worst_text, sizeof worst_text, "%s", s.message);
				}
				if (cols > 80) {
					fprintf(stderr, "state %d, key %c then %c: %d columns: %s\n", st, *k, *then, cols,
						s.message);
					too_long++;
				}
				if (session_request_text(&s, text, sizeof text) && text_wrap_cols(text) > 80) {
					fprintf(stderr, "state %d, key %c: the status line's %s\n", st, *k, text);
					too_long++;
				}
				session_fini(&s);
			}
		}
	}
	/* The menu's keys (m, then each). */
	for (int st = 0; st < FIT_STATES; st++) {
		for (const char *k = keys_; *k; k++) {
			struct session s;
			struct evbuf b;
			fit_state(&s, &b, (enum fit_state)st);
			press(&s, 'm');
			press(&s, *k);
			press(&s, 'y');
			if (text_wrap_cols(s.message) > 80) {
				fprintf(stderr, "state %d, m %c y: %s\n", st, *k, s.message);
				too_long++;
			}
			session_fini(&s);
		}
	}
	fprintf(stderr, "longest message: %d columns: %s\n", worst, worst_text);
	ck_assert_msg(too_long == 0, "%d messages over 80 columns (listed above)", too_long);
}
END_TEST

/* Issue 14 item 11: while tchessd is away the clocks stand as its last
 * event left them, which is what it charges after a restart
 * (clock-resumed from that instant): the mover's clock neither runs on
 * during the outage nor jumps back when the server returns. The message
 * said meanwhile goes with the outage. */
START_TEST(test_server_away_clocks)
{
	struct session s;
	struct evbuf b;
	struct position p;
	struct fold_event e;
	started_game(&s, &b, WHITE, NULL);
	session_position(&s, &p);
	move_event(&b, &s, &p, 0, "e2e4", T0 + 1000, false);
	evbuf_fold(&b, &s, 6000);
	session_position(&s, &p);
	move_event(&b, &s, &p, 1, "e7e5", T0 + 2000, false);
	evbuf_fold(&b, &s, 7000); /* server T0+2000 is mono 7000 */
	session_set_conn(&s, SESSION_CONN_ONLINE, 1);
	int64_t at_move = session_clock_ms(&s, WHITE, 7000);
	ck_assert(session_clock_running(&s, WHITE));
	/* White thinks 3 s. */
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 10000), at_move - 3000);
	/* The server goes away: White's clock as Black's move left it,
	 * standing, and said. */
	ck_assert_uint_ne(session_set_conn(&s, SESSION_CONN_RECONNECTING, -1) & SESSION_DIRTY_CLOCKS, 0);
	ck_assert(session_server_away(&s));
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 10000), at_move);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 30000), at_move);
	ck_assert(!session_clock_running(&s, WHITE));
	ck_assert_int_eq(session_next_tick(&s, 30000), -1);
	ck_assert_str_eq(s.message, "server unreachable: the clocks stand as at the last move");
	/* Back after a restart: tchessd resumes from the last event's
	 * instant (paused_ms), here 25 s later on its clock. */
	fold_event_init(&e, FOLD_EV_CLOCK_RESUMED);
	e.paused_ms = T0 + 2000;
	clock_reading(&e, at_move, 300000, WHITE);
	evbuf_add(&b, T0 + 27000, &e);
	evbuf_fold(&b, &s, 32000);
	session_set_conn(&s, SESSION_CONN_ONLINE, 1);
	ck_assert(!session_server_away(&s));
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 32000), at_move);
	ck_assert(session_clock_running(&s, WHITE));
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 33000), at_move - 1000);
	ck_assert_str_eq(s.message, "");
	/* An error said during the outage is not the outage's: it stays. */
	session_set_conn(&s, SESSION_CONN_RECONNECTING, -1);
	snprintf(s.message, sizeof s.message, "move refused");
	s.message_error = true;
	session_set_conn(&s, SESSION_CONN_ONLINE, 1);
	ck_assert_str_eq(s.message, "move refused");
	session_fini(&s);
}
END_TEST

/* A left event: color left, gone at gone_ms, the win claimable from
 * claim_ms (0: never). */
static void left_event(struct evbuf *b, int64_t t_ms, int color, int64_t gone_ms, int64_t claim_ms)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_LEFT);
	e.color = color;
	e.gone_ms = gone_ms;
	e.claim_ms = claim_ms;
	evbuf_add(b, t_ms, &e);
}

/* Issue 14 item 8: the opponent left. The countdown runs from the
 * server's instant (the left event's), read at the estimated server
 * time, whole seconds, each change a redraw; V waits for it; the return
 * clears it; the rules that give no win count down to what they do. */
START_TEST(test_opponent_left)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	char text[160];
	started_game(&s, &b, WHITE, &(struct game_setup){ .ruleset = "chessgamble" });
	/* Left at server T0+20000 (mono 30000 here), gone at T0+35000: the
	 * win at mono 45000, whatever this client's own guess would be. */
	left_event(&b, T0 + 20000, BLACK, T0 + 35000, T0 + 35000);
	evbuf_fold(&b, &s, 30000);
	session_tick(&s, 33500);
	ck_assert(session_request_text(&s, text, sizeof text));
	ck_assert_str_eq(text, "opponent left \u2014 claim victory in 12 s");
	/* The next second is a wake and a redraw, not before. */
	ck_assert_int_eq(session_next_tick(&s, 33500), 500);
	ck_assert_uint_eq(session_tick(&s, 33900) & SESSION_DIRTY_STATUS, 0);
	ck_assert_uint_ne(session_tick(&s, 34000) & SESSION_DIRTY_STATUS, 0);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 claim victory in 11 s");
	press(&s, 'V');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "your opponent left: you may claim victory in 11 s");
	/* The instant passes before the gone event: the claim is offered. */
	ck_assert_uint_ne(session_tick(&s, 45000) & SESSION_DIRTY_STATUS, 0);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 press V to claim victory");
	/* Back: the countdown is gone, and so is the claim. */
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = true;
	evbuf_add(&b, T0 + 34000, &e);
	evbuf_fold(&b, &s, 45000);
	ck_assert_str_eq(s.message, "Black is back");
	ck_assert(!session_request_text(&s, text, sizeof text) || !strstr(text, "left"));
	press(&s, 'V');
	ck_assert_str_eq(s.message, "nothing to claim: your opponent is present");
	/* Left again and recorded gone: the claim, as before. */
	left_event(&b, T0 + 36000, BLACK, T0 + 51000, T0 + 51000);
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = BLACK;
	e.present = false;
	evbuf_add(&b, T0 + 51000, &e);
	evbuf_fold(&b, &s, 62000);
	session_tick(&s, 62000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 press V to claim victory");
	press(&s, 'V');
	ck_assert_int_eq(s.confirm, SESSION_CONFIRM_CLAIM_WIN);
	session_fini(&s);

	/* yourpot adjourns, fide ends the game unscored: the countdown says
	 * so, and V claims nothing. */
	started_game(&s, &b, WHITE, &(struct game_setup){ .ruleset = "yourpot" });
	left_event(&b, T0 + 20000, BLACK, T0 + 35000, 0);
	evbuf_fold(&b, &s, 30000);
	session_tick(&s, 30000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 the game adjourns in 15 s");
	press(&s, 'V');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_str_eq(s.message, "your opponent left: these rules give no win for it; the game adjourns in 15 s");
	session_fini(&s);
	started_game(&s, &b, BLACK, NULL);
	left_event(&b, T0 + 20000, WHITE, T0 + 35000, 0);
	evbuf_fold(&b, &s, 30000);
	session_tick(&s, 31000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "opponent left \u2014 the game ends unscored in 14 s");
	session_fini(&s);
	/* A spectator hears who left and who may claim. */
	started_game(&s, &b, -1, &(struct game_setup){ .ruleset = "chessgamble" });
	left_event(&b, T0 + 20000, WHITE, T0 + 35000, T0 + 35000);
	evbuf_fold(&b, &s, 30000);
	session_tick(&s, 30000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "White left \u2014 Black may claim victory in 15 s");
	session_fini(&s);
}
END_TEST

static void raw_event(struct evbuf *b, const char *type, const char *data)
{
	b->evs.events = realloc(b->evs.events, (b->evs.n + 1) * sizeof *b->evs.events);
	struct protocol_event *ev = &b->evs.events[b->evs.n++];
	memset(ev, 0, sizeof *ev);
	ev->seq = ++b->seq;
	snprintf(ev->type, sizeof ev->type, "%s", type);
	ev->t_ms = T0 + 3000;
	ev->data = strdup(data);
	b->evs.seq = b->seq;
	b->evs.now_ms = T0 + 3000;
}

/* Notes: "edited during play, revealed after". */
START_TEST(test_notes)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	press(&s, 'j');
	ck_assert(s.notes_open);
	/* In the editor, letters are text, not moves or actions. */
	ck_assert_int_eq(session_key(&s, 'e').kind, SESSION_CMD_NOTES_INPUT);
	ck_assert_int_eq(session_key(&s, 'R').kind, SESSION_CMD_NOTES_INPUT);
	const char *t = "sac on h7?";
	for (const char *p = t; *p; p++)
		press(&s, *p);
	press(&s, 'x');
	press(&s, KEYS_BACKSPACE);
	ck_assert_str_eq(s.note_text, t);
	press(&s, KEYS_ENTER);
	ck_assert_str_eq(s.note_text, "");
	take_http(&s, "POST", "/v1/games/" ID "/notes", "{\"text\":\"sac on h7?\"}");
	/* The private note event comes back: mine. */
	raw_event(&b, "note", "{\"text\":\"sac on h7?\"}");
	evbuf_fold(&b, &s, 9000);
	ck_assert_int_eq((int)s.n_notes, 1);
	ck_assert_int_eq(s.notes[0].color, WHITE);
	ck_assert_str_eq(s.notes[0].text, "sac on h7?");
	press(&s, KEYS_ESC);
	ck_assert(!s.notes_open);
	/* The end reveals both players' notes. */
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = WHITE;
	snprintf(e.result, sizeof e.result, "0-1");
	snprintf(e.termination, sizeof e.termination, "resignation");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 3000, &e);
	raw_event(&b, "notes-revealed",
		  "{\"notes\":[{\"seq\":4,\"t_ms\":1,\"player\":1,\"text\":\"sac on h7?\"},"
		  "{\"seq\":5,\"t_ms\":2,\"player\":2,\"text\":\"he won't dare\"}]}");
	evbuf_fold(&b, &s, 9500);
	ck_assert(s.notes_revealed);
	ck_assert_int_eq((int)s.n_notes, 2);
	ck_assert_int_eq(s.notes[1].color, BLACK);
	ck_assert_str_eq(s.notes[1].text, "he won't dare");
	ck_assert_str_eq(s.message, "");
	/* The resigning player reads "you resigned", as every other
	 * message names the viewer's own side "you". */
	char text[160];
	session_end_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "you resigned");
	session_fini(&s);

	/* A spectator reads the notes only once they are revealed. */
	started_game(&s, &b, -1, NULL);
	press(&s, 'j');
	ck_assert(!s.notes_open);
	ck_assert_str_eq(s.message, "spectating: the players' notes show after the game");
	ck_assert_int_eq(session_key(&s, '=').kind, SESSION_CMD_SPECTATING);
	ck_assert_int_eq(session_key(&s, 'A').kind, SESSION_CMD_SPECTATING);
	request_event(&b, WHITE, FOLD_REQ_DRAW, FOLD_REQ_MADE, 0);
	evbuf_fold(&b, &s, 6000);
	session_request_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "White offers a draw");
	session_fini(&s);
}
END_TEST


/* A client far behind gets a resync answer: the snapshot, and the notes
 * it skipped. Its mirror, move list, notes and end text come out as those
 * of a client that folded every event. */
START_TEST(test_resync)
{
	static const char *const moves[] = { "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6" };
	struct session x, y;
	struct evbuf b;
	struct position p;
	started_game(&x, &b, WHITE, NULL);
	raw_event(&b, "note", "{\"text\":\"Ruy Lopez today\"}");
	evbuf_fold(&b, &x, 6000);
	for (int i = 0; i < 8; i++) {
		session_position(&x, &p);
		move_event(&b, &x, &p, i, moves[i], T0 + 1000 * (i + 1), false);
		evbuf_fold(&b, &x, 6000 + i);
	}
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = BLACK;
	snprintf(e.result, sizeof e.result, "1-0");
	snprintf(e.termination, sizeof e.termination, "resignation");
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(&b, T0 + 9500, &e);
	evbuf_fold(&b, &x, 7000);
	ck_assert_msg(session_over(&x), "%s", x.message);

	session_init(&y, ID, WHITE);
	struct protocol_event note = { 4, "note", T0 + 3000, (char *)"{\"text\":\"Ruy Lopez today\"}" };
	struct protocol_events rs = { .events = &note, .n = 1, .seq = x.view.seq, .now_ms = T0 + 9600, .resync = true };
	rs.snapshot = fold_snapshot_encode(&x.view, ID, T0 + 9600, 1);
	session_on_events(&y, &rs, 7000);
	ck_assert_int_eq(y.after, x.view.seq);
	char *sx = fold_snapshot_encode(&x.view, ID, T0 + 9600, 1), *sy = fold_snapshot_encode(&y.view, ID, T0 + 9600, 1);
	ck_assert_str_eq(sx, sy);
	for (int i = 0; i < 8; i++)
		ck_assert_str_eq(y.san[i], x.san[i]);
	ck_assert_str_eq(y.san[4], "Bb5");
	ck_assert_int_eq(y.ml.rows, x.ml.rows);
	ck_assert_int_eq((int)y.n_notes, 1);
	ck_assert_str_eq(y.notes[0].text, "Ruy Lopez today");
	char tx[160], ty[160];
	session_end_text(&x, tx, sizeof tx);
	session_end_text(&y, ty, sizeof ty);
	ck_assert_str_eq(ty, "Black resigned");
	ck_assert_str_eq(tx, ty);
	ck_assert_str_eq(y.message, x.message);
	/* A snapshot of another game is refused, the mirror kept. */
	free(rs.snapshot);
	rs.snapshot = fold_snapshot_encode(&x.view, ID2, T0 + 9600, 1);
	rs.n = 0;
	session_on_events(&y, &rs, 7100);
	ck_assert_ptr_nonnull(strstr(y.message, "snapshot refused"));
	ck_assert_uint_eq(y.view.game.n_plies, 8);
	free(rs.snapshot);
	free(sx);
	free(sy);
	session_fini(&x);
	session_fini(&y);
}
END_TEST

/* ---- undo games, rematch series, low time ---- */


/* A provisional-move (or, with back, move-taken-back) event of color's
 * uci in the committed position of s. */
static void provisional_event(struct evbuf *b, const struct session *s, int color, const char *uci, bool back)
{
	struct fold_event e;
	const struct position *p = &s->view.game.pos;
	move m;
	ck_assert_int_eq(uci_parse(p, uci, strlen(uci), &m, NULL), TCHESS_OK);
	fold_event_init(&e, back ? FOLD_EV_TAKEN_BACK : FOLD_EV_PROVISIONAL);
	e.ply = (int64_t)s->view.game.n_plies;
	e.color = color;
	snprintf(e.uci, sizeof e.uci, "%s", uci);
	if (!back) {
		struct position after = *p;
		struct undo u;
		san_write(p, m, e.san);
		position_make(&after, m, &u);
		fen_write(&after, e.fen);
	}
	evbuf_add(b, T0 + 2000, &e);
}

/* Folds the same events into two sessions (the players' screens). */
static void fold_both(struct evbuf *b, struct session *x, struct session *y, int64_t mono)
{
	struct evbuf copy = *b;
	copy.evs.events = malloc(b->evs.n * sizeof *b->evs.events);
	for (size_t i = 0; i < b->evs.n; i++) {
		copy.evs.events[i] = b->evs.events[i];
		copy.evs.events[i].data = strdup(b->evs.events[i].data);
	}
	evbuf_fold(b, x, mono);
	evbuf_fold(&copy, y, mono);
}

/* Rule 14: "While playing under the "Enable undo" game, each player has to
 * stop the clock after every move by clicking on the "done" button." */
START_TEST(test_undo_game)
{
	struct session w, bl;
	struct evbuf b, b2;
	char text[160];
	started_game(&w, &b, WHITE, &(struct game_setup){ .undo = true });
	started_game(&bl, &b2, BLACK, &(struct game_setup){ .undo = true });
	protocol_events_fini(&b2.evs);
	ck_assert_int_eq(session_key(&w, 'u').kind, SESSION_CMD_TAKEBACK);
	/* d starts a typed move (d4) until a provisional move stands. */
	ck_assert_int_eq(session_key(&w, 'd').kind, SESSION_CMD_PROMPT_INPUT);
	ck_assert(session_undo_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "undo game: move, then press d when done");
	ck_assert(!session_undo_text(&bl, text, sizeof text));
	/* Nothing to take back or commit: refused here, nothing sent. */
	press(&w, 'u');
	ck_assert_str_eq(w.message, "nothing to take back: you have no provisional move");
	apply(&w, SESSION_CMD_DONE, 0);
	ck_assert_str_eq(w.message, "nothing to commit: make a move first, then press d");
	ck_assert_int_eq(w.n_out, 0);

	/* e4, provisionally: the request is an ordinary move for ply 0. */
	type(&w, "e4");
	take_http(&w, "POST", "/v1/games/" ID "/moves", "{\"ply\":0,\"move\":\"e2e4\"}");
	ck_assert(session_provisional_mine(&w));
	ck_assert_int_eq(session_key(&w, 'd').kind, SESSION_CMD_DONE);
	provisional_event(&b, &w, WHITE, "e2e4", false);
	fold_both(&b, &w, &bl, 6000);
	ck_assert(!w.pending);
	ck_assert(session_provisional_mine(&w));
	ck_assert(!session_my_turn(&w));
	ck_assert_str_eq(w.message, "e4 is provisional: d when done, u takes it back");
	ck_assert(session_undo_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "undo game: press d when done, u takes back");
	/* Both boards show it; the turn has not passed; no ply is committed. */
	struct position p;
	session_position(&bl, &p);
	ck_assert_int_eq(p.board[make_sq(4, 3)], W_PAWN);
	ck_assert_int_eq(session_turn(&bl), WHITE);
	ck_assert_int_eq(session_turn(&w), WHITE);
	ck_assert_int_eq((int)bl.view.game.n_plies, 0);
	ck_assert(session_extra_move(&bl, text, sizeof text));
	ck_assert_str_eq(text, "(e4)");
	ck_assert_str_eq(bl.message, "White tries e4 (not done yet)");
	ck_assert(!session_my_turn(&bl));
	/* A second move while it stands is refused locally. */
	type(&w, "d4");
	ck_assert_str_eq(w.message, "your move is provisional: u takes it back, d when done");
	ck_assert_int_eq(w.n_out, 0);

	/* u takes it back, for the turn's ply; shown at once, like a move:
	 * the pawn is home, the move list has no "(e4)", it is my move. */
	press(&w, 'u');
	ck_assert_str_eq(w.message, "taking (e4) back...");
	enum session_req_kind sent;
	ck_assert(session_undo_sent(&w, &sent));
	ck_assert_int_eq(sent, SESSION_REQ_TAKEBACK);
	session_position(&w, &p);
	ck_assert_int_eq(p.board[make_sq(4, 1)], W_PAWN);
	ck_assert_int_eq(p.board[make_sq(4, 3)], NO_PIECE);
	ck_assert(!session_extra_move(&w, text, sizeof text));
	ck_assert(session_my_turn(&w));
	ck_assert(!session_provisional_mine(&w));
	struct board_view bv;
	session_board_view(&w, &bv);
	ck_assert(!bv.last_move);
	/* The mirror is the server's: still provisional there until the
	 * event, and a second u is nothing to take back. */
	ck_assert(takeback_pending(&w.view.turn));
	press(&w, 'u');
	ck_assert_str_eq(w.message, "nothing to take back: you have no provisional move");
	/* Refused by the server: the provisional move is back. */
	struct session_req tb;
	ck_assert(session_take_request(&w, &tb));
	ck_assert_int_eq(tb.kind, SESSION_REQ_TAKEBACK);
	struct protocol_error perr = { 0 };
	snprintf(perr.message, sizeof perr.message, "no provisional move of yours");
	session_on_answer(&w, &tb, 409, &perr);
	ck_assert_str_eq(w.message, "take-back refused: no provisional move of yours");
	ck_assert(!session_undo_sent(&w, NULL));
	ck_assert(session_extra_move(&w, text, sizeof text));
	ck_assert_str_eq(text, "(e4)");
	session_position(&w, &p);
	ck_assert_int_eq(p.board[make_sq(4, 3)], W_PAWN);
	/* u right after a move still on its way takes it back with it
	 * (libtchess judges the pair; both requests go, in order). */
	struct session u2;
	struct evbuf b3;
	started_game(&u2, &b3, WHITE, &(struct game_setup){ .undo = true });
	type(&u2, "Nf3");
	ck_assert(u2.pending);
	press(&u2, 'u');
	ck_assert_str_eq(u2.message, "taking (Nf3) back...");
	ck_assert(!u2.pending);
	ck_assert(session_my_turn(&u2));
	take_http(&u2, "POST", "/v1/games/" ID "/moves", "{\"ply\":0,\"move\":\"g1f3\"}");
	take_http(&u2, "POST", "/v1/games/" ID "/takeback", "{\"ply\":0}");
	provisional_event(&b3, &u2, WHITE, "g1f3", false);
	evbuf_fold(&b3, &u2, 6000);
	ck_assert(!session_extra_move(&u2, text, sizeof text));
	ck_assert_str_eq(u2.message, "taking (Nf3) back...");
	provisional_event(&b3, &u2, WHITE, "g1f3", true);
	evbuf_fold(&b3, &u2, 6100);
	ck_assert(!session_undo_sent(&u2, NULL));
	ck_assert(session_my_turn(&u2));
	session_fini(&u2);

	/* Again, and this time the event confirms it. */
	press(&w, 'u');
	take_http(&w, "POST", "/v1/games/" ID "/takeback", "{\"ply\":0}");
	provisional_event(&b, &w, WHITE, "e2e4", true);
	fold_both(&b, &w, &bl, 6500);
	ck_assert(session_my_turn(&w));
	ck_assert(!session_extra_move(&bl, text, sizeof text));
	ck_assert_str_eq(bl.message, "White took a move back");
	session_position(&bl, &p);
	ck_assert_int_eq(p.board[make_sq(4, 1)], W_PAWN);

	/* d4, then done: only then is the move played and the turn passed. */
	type(&w, "d4");
	take_http(&w, "POST", "/v1/games/" ID "/moves", "{\"ply\":0,\"move\":\"d2d4\"}");
	provisional_event(&b, &w, WHITE, "d2d4", false);
	fold_both(&b, &w, &bl, 7000);
	press(&w, 'd');
	ck_assert_str_eq(w.message, "done: (d4) is played, the turn passes...");
	/* At once: d4 as played, Black to move, no reminder to press d. */
	ck_assert(session_undo_sent(&w, &sent));
	ck_assert_int_eq(sent, SESSION_REQ_DONE);
	ck_assert_int_eq(session_turn(&w), BLACK);
	ck_assert(!session_my_turn(&w));
	ck_assert(session_extra_move(&w, text, sizeof text));
	ck_assert_str_eq(text, "d4");
	ck_assert(!session_undo_text(&w, text, sizeof text));
	press(&w, 'd');
	ck_assert_str_eq(w.message, "done is on its way: the turn has passed");
	ck_assert_int_eq((int)w.view.game.n_plies, 0); /* the fold waits for the server */
	take_http(&w, "POST", "/v1/games/" ID "/done", "{\"ply\":0}");
	move_event(&b, &w, &w.view.game.pos, 0, "d2d4", T0 + 3000, false);
	fold_both(&b, &w, &bl, 8000);
	ck_assert_int_eq((int)bl.view.game.n_plies, 1);
	ck_assert_str_eq(bl.san[0], "d4");
	ck_assert(!session_extra_move(&bl, text, sizeof text));
	ck_assert_str_eq(bl.message, "White pressed done: d4");
	ck_assert_str_eq(w.message, "you pressed done: d4");
	ck_assert(session_my_turn(&bl));
	ck_assert_int_eq(session_turn(&w), BLACK);
	ck_assert(!session_undo_sent(&w, NULL));
	ck_assert(!session_extra_move(&w, text, sizeof text));
	session_fini(&w);
	session_fini(&bl);

	/* Not an undo game: u is refused, d types a move. */
	started_game(&w, &b, WHITE, NULL);
	press(&w, 'u');
	ck_assert_str_eq(w.message, "not an undo game: moves are final");
	ck_assert_int_eq(session_key(&w, 'd').kind, SESSION_CMD_PROMPT_INPUT);
	ck_assert_int_eq(w.n_out, 0);
	session_fini(&w);
	/* Spectators press nothing. */
	started_game(&w, &b, -1, &(struct game_setup){ .undo = true });
	ck_assert_int_eq(session_key(&w, 'u').kind, SESSION_CMD_SPECTATING);
	ck_assert_int_eq(session_key(&w, 'r').kind, SESSION_CMD_SPECTATING);
	session_fini(&w);
}
END_TEST

/* A game-ended event: color is the side that acted (resigned, accepted). */
static void ended_event(struct evbuf *b, int color, const char *result, const char *term)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	e.color = color;
	snprintf(e.result, sizeof e.result, "%s", result);
	snprintf(e.termination, sizeof e.termination, "%s", term);
	clock_reading(&e, 300000, 300000, CLOCK_NOBODY);
	evbuf_add(b, T0 + 3000, &e);
}

/* The series' second game: alice (player 1) now Black, bob White, with the
 * score before it (half-points by this game's colours). */
static void series_game_events(struct evbuf *b, int white_half, int black_half)
{
	struct fold_event e;
	created_event(&e, START_FEN);
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[WHITE].player = 2;
	snprintf(e.seats[WHITE].name, sizeof e.seats[WHITE].name, "bob");
	e.seats[BLACK].player = 1;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "alice");
	snprintf(e.series.id, sizeof e.series.id, "%s", ID);
	e.series.game = 2;
	snprintf(e.series.previous, sizeof e.series.previous, "%s", ID);
	e.series.score.half[WHITE] = white_half;
	e.series.score.half[BLACK] = black_half;
	e.series.score.games = 1;
	e.series.score.scored = 1;
	evbuf_add(b, T0 + 4000, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(b, T0 + 4000, &e);
}

/* Rule 13: "During a series the time isn't saved from the last game, each
 * game have the same initial time." The client follows the series to the
 * next game the accepted rematch names, with the colours swapped. */
START_TEST(test_rematch_series)
{
	struct session w, bl, sp;
	struct evbuf b, b2, b3;
	char text[160];
	started_game(&w, &b, WHITE, NULL);
	started_game(&bl, &b2, BLACK, NULL);
	started_game(&sp, &b3, -1, NULL);
	protocol_events_fini(&b2.evs);
	protocol_events_fini(&b3.evs);
	/* r is a rook's move while the game runs; the rematch key after it. */
	ck_assert_int_eq(session_key(&w, 'r').kind, SESSION_CMD_PROMPT_INPUT);
	apply(&w, SESSION_CMD_REMATCH, 0);
	ck_assert_str_eq(w.message, "no rematch: a rematch is offered after the game");
	ck_assert_int_eq(w.n_out, 0);
	ck_assert(!session_series_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "");

	ended_event(&b, BLACK, "1-0", "resignation");
	fold_both(&b, &w, &bl, 6000);
	press(&w, 'r');
	ck_assert_str_eq(w.message, "offering a rematch...");
	take_http(&w, "POST", "/v1/games/" ID "/rematch", "{\"ply\":0,\"action\":\"offer\"}");
	request_event(&b, WHITE, FOLD_REQ_REMATCH, FOLD_REQ_MADE, 0);
	fold_both(&b, &w, &bl, 6500);
	ck_assert(session_request_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "you offered a rematch \u2014 W withdraw");
	ck_assert(session_request_text(&bl, text, sizeof text));
	ck_assert_str_eq(text, "White offers a rematch \u2014 r accept, - decline");
	/* Offering twice is refused here. */
	press(&w, 'r');
	ck_assert_str_eq(w.message, "your rematch offer stands: waiting for Black (W withdraws)");
	ck_assert_int_eq(w.n_out, 0);
	press(&w, 'W');
	take_http(&w, "POST", "/v1/games/" ID "/rematch", "{\"ply\":0,\"action\":\"withdraw\"}");
	/* Black answers: D declines, r (or A) accepts. */
	press(&bl, 'D');
	take_http(&bl, "POST", "/v1/games/" ID "/rematch", "{\"ply\":0,\"action\":\"decline\"}");
	press(&bl, 'A');
	take_http(&bl, "POST", "/v1/games/" ID "/rematch", "{\"ply\":0,\"action\":\"accept\"}");
	press(&bl, 'r');
	ck_assert_str_eq(bl.message, "accepting the rematch...");
	take_http(&bl, "POST", "/v1/games/" ID "/rematch", "{\"ply\":0,\"action\":\"accept\"}");

	/* The accepted event names the next game: both switch to it, with
	 * the colours swapped and the board turned; what followed the event
	 * in the same answer is the old game's and is not folded. */
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_REQUEST);
	e.color = BLACK;
	e.what = FOLD_REQ_REMATCH;
	e.action = FOLD_REQ_ACCEPTED;
	e.ply = 0;
	snprintf(e.game, sizeof e.game, "%s", ID2);
	evbuf_add(&b, T0 + 3500, &e);
	raw_event(&b, "note", "{\"text\":\"old game\"}");
	fold_both(&b, &w, &bl, 7000);
	ck_assert_str_eq(w.game_id, ID2);
	ck_assert_int_eq(w.me, BLACK);
	ck_assert(w.flipped);
	ck_assert_int_eq(bl.me, WHITE);
	ck_assert(!bl.flipped);
	ck_assert_int_eq((int)w.after, 0);
	ck_assert(!w.view.created);
	ck_assert_int_eq((int)w.n_notes, 0);
	ck_assert_str_eq(w.message, "rematch accepted: the next game starts, you play Black");

	/* The new game's log, from seq 0. alice won game 1: 1-0 for her. */
	evbuf_init(&b, 0);
	series_game_events(&b, 0, 2);
	struct evbuf b4;
	session_fini(&sp);
	session_init(&sp, ID2, -1);
	evbuf_init(&b4, 0);
	series_game_events(&b4, 0, 2);
	evbuf_fold(&b4, &sp, 8000);
	fold_both(&b, &w, &bl, 8000);
	ck_assert_str_eq(w.message, "game 2 of the series has started: you play Black");
	ck_assert(session_my_turn(&bl));
	/* Every clock at the time control's initial time (rule 13). */
	ck_assert_int_eq(session_clock_ms(&w, WHITE, 8000), 300000);
	ck_assert_int_eq(session_clock_ms(&w, BLACK, 8000), 300000);
	ck_assert(session_series_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "series game 2: you 1\u20130 bob");
	ck_assert(session_series_text(&bl, text, sizeof text));
	ck_assert_str_eq(text, "series game 2: you 0\u20131 alice");
	/* The spectator follows this game's order (White first). */
	ck_assert(session_series_text(&sp, text, sizeof text));
	ck_assert_str_eq(text, "series game 2: bob 0\u20131 alice");
	/* A draw: each gets a half. */
	request_event(&b, WHITE, FOLD_REQ_DRAW, FOLD_REQ_MADE, 0);
	ended_event(&b, BLACK, "1/2-1/2", "agreement");
	fold_both(&b, &w, &bl, 9000);
	ck_assert(session_over(&w));
	ck_assert(session_series_text(&w, text, sizeof text));
	ck_assert_str_eq(text, "series game 2: you 1\u00bd\u2013\u00bd bob");
	bl.ascii = true;
	ck_assert(session_series_text(&bl, text, sizeof text));
	ck_assert_str_eq(text, "series game 2: you 0.5-1.5 alice");
	session_fini(&w);
	session_fini(&bl);
	session_fini(&sp);

	/* No rematch after an abort (against the engine r is a new game:
	 * client-aftergame-tmux). */
	started_game(&w, &b, WHITE, NULL);
	ended_event(&b, WHITE, "*", "aborted");
	evbuf_fold(&b, &w, 6000);
	press(&w, 'r');
	ck_assert_str_eq(w.message, "no rematch: no rematch after an aborted game");
	ck_assert_int_eq(w.n_out, 0);
	session_fini(&w);
}
END_TEST

/* After a game against the engine (issue 14 item 6), n is a new game with
 * the same settings (level, time control, rules, colour) and r one with the
 * colours swapped; both are named on the status line. After a game
 * between players n says what it is for and sends nothing. */
START_TEST(test_new_game_after_engine)
{
	struct session s;
	struct evbuf b;
	struct fold_event e;
	struct session_req r;
	session_init(&s, ID, BLACK);
	evbuf_init(&b, 0);
	created_event(&e, START_FEN);
	snprintf(e.tc, sizeof e.tc, "3+2");
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = 1;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "alice");
	e.seats[WHITE].kind = FOLD_SEAT_ENGINE;
	e.seats[WHITE].level = 2;
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 180000, 180000, WHITE);
	evbuf_add(&b, T0, &e);
	ended_event(&b, BLACK, "1-0", "resignation");
	evbuf_fold(&b, &s, 6000);
	ck_assert(session_new_game_possible(&s));
	char line[200];
	play_status_line(&s, 200, line, sizeof line);
	ck_assert_msg(strstr(line, "r rematch  n new game  s save PGN"), "%s", line);
	ck_assert_int_eq(session_key(&s, 'n').kind, SESSION_CMD_NEW_GAME);
	press(&s, 'n');
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_NEW_GAME);
	ck_assert_int_eq(r.color, BLACK);
	ck_assert_int_eq(r.n, 2);
	ck_assert_str_eq(r.text, "3+2");
	press(&s, 'r');
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_NEW_GAME);
	ck_assert_int_eq(r.color, WHITE);
	session_fini(&s);

	started_game(&s, &b, WHITE, NULL);
	ended_event(&b, BLACK, "1-0", "resignation");
	evbuf_fold(&b, &s, 6000);
	ck_assert(!session_new_game_possible(&s));
	press(&s, 'n');
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_msg(strstr(s.message, "new game against the engine"), "%s", s.message);
	session_fini(&s);
}
END_TEST

/* The low-time warning: a clock under the threshold (by default a tenth of
 * the base time, 10 s to 60 s) is low; the bell rings once, for my own
 * running clock, when it goes under. */
START_TEST(test_low_time)
{
	struct session s, o;
	struct evbuf b;
	/* 5+3: the start events read 300000 for White, running, at mono 5000. */
	started_game(&s, &b, WHITE, NULL);
	s.bell = true;
	ck_assert_int_eq(session_low_threshold_ms(&s), 30000);
	int64_t at30001 = 5000 + 300000 - 30001;
	ck_assert_int_eq(session_clock_ms(&s, WHITE, at30001), 30001);
	/* The first tick learns the state: no bell. */
	ck_assert_int_eq(session_tick(&s, at30001), SESSION_DIRTY_CLOCKS);
	ck_assert(!session_clock_low(&s, WHITE, at30001));
	ck_assert_int_eq(session_next_tick(&s, at30001), 2);
	/* 30000 is not under 30000. */
	ck_assert_int_eq(session_tick(&s, at30001 + 1), 0);
	ck_assert(!session_clock_low(&s, WHITE, at30001 + 1));
	/* 29999 is: the colour changes and the bell rings, once. */
	ck_assert(session_clock_low(&s, WHITE, at30001 + 2));
	ck_assert_int_eq(session_tick(&s, at30001 + 2), SESSION_DIRTY_CLOCKS | SESSION_DIRTY_BELL);
	ck_assert_int_eq(session_tick(&s, at30001 + 3), 0);
	ck_assert_int_eq(session_tick(&s, at30001 + 5000), 0);
	ck_assert(!session_clock_low(&s, BLACK, at30001 + 5000));
	/* A threshold off the second: the loop wakes for the crossing. */
	s.low_time_cfg_ms = 12345;
	int64_t at12400 = 5000 + 300000 - 12400;
	ck_assert_int_eq(session_next_tick(&s, at12400), 56);
	ck_assert_int_eq(session_tick(&s, at12400), SESSION_DIRTY_CLOCKS);
	ck_assert_int_eq(session_tick(&s, at12400 + 55), 0);
	ck_assert_int_eq(session_tick(&s, at12400 + 56), SESSION_DIRTY_CLOCKS | SESSION_DIRTY_BELL);
	/* 0: no warning at all. */
	s.low_time_cfg_ms = 0;
	ck_assert(!session_clock_low(&s, WHITE, 5000 + 299000));
	session_fini(&s);

	/* The opponent's clock colours but never rings; nor does mine with
	 * the bell off. */
	started_game(&o, &b, BLACK, NULL);
	o.bell = true;
	ck_assert_int_eq(session_tick(&o, at30001), SESSION_DIRTY_CLOCKS);
	ck_assert_int_eq(session_tick(&o, at30001 + 2), SESSION_DIRTY_CLOCKS);
	session_fini(&o);
	started_game(&s, &b, WHITE, NULL);
	ck_assert_int_eq(session_tick(&s, at30001), SESSION_DIRTY_CLOCKS);
	ck_assert_int_eq(session_tick(&s, at30001 + 2), SESSION_DIRTY_CLOCKS);
	session_fini(&s);

	/* The default's bounds: 1+0 warns at 10 s, 90+30 at a minute. */
	started_game(&s, &b, WHITE, &(struct game_setup){ .tc = "1+0" });
	ck_assert_int_eq(session_low_threshold_ms(&s), 10000);
	session_fini(&s);
	started_game(&s, &b, WHITE, &(struct game_setup){ .tc = "90+30" });
	ck_assert_int_eq(session_low_threshold_ms(&s), 60000);
	session_fini(&s);

	/* Joining with the clock already low: no crossing seen, no bell. */
	session_init(&s, ID, WHITE);
	s.bell = true;
	evbuf_init(&b, 0);
	start_events(&b, NULL);
	/* The answer comes 295 s into White's first move. */
	b.evs.now_ms = T0 + 295000;
	evbuf_fold(&b, &s, 100);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 100), 5000);
	ck_assert(session_clock_low(&s, WHITE, 100));
	ck_assert_int_eq(session_tick(&s, 100), SESSION_DIRTY_CLOCKS);
	session_fini(&s);
}
END_TEST

/* Issue 14 item 4: "letters are stolen". While a move can be typed, every
 * key a move can start with goes to the prompt; the actions are on other
 * keys and in the menu; nf3 is read as Nf3. */
START_TEST(test_letters_are_moves)
{
	struct session s;
	struct evbuf b;
	started_game(&s, &b, WHITE, NULL);
	for (const char *k = "abcdefghABCDEFGHKQRBNkqrbnOo0"; *k; k++)
		ck_assert_msg(session_key(&s, *k).kind == SESSION_CMD_PROMPT_INPUT, "%c is not the move's", *k);
	ck_assert_int_eq(session_key(&s, '+').kind, SESSION_CMD_ACCEPT);
	ck_assert_int_eq(session_key(&s, '-').kind, SESSION_CMD_DECLINE);
	ck_assert_int_eq(session_key(&s, 'V').kind, SESSION_CMD_GONE_CLAIM);
	/* The menu: its own letters, Esc closes it. */
	press(&s, 'm');
	ck_assert(s.menu);
	ck_assert_int_eq(session_key(&s, 'r').kind, SESSION_CMD_RESIGN);
	ck_assert_int_eq(session_key(&s, 'c').kind, SESSION_CMD_CLAIM_DRAW);
	ck_assert_int_eq(session_key(&s, 'q').kind, SESSION_CMD_QUIT);
	press(&s, KEYS_ESC);
	ck_assert(!s.menu);
	/* Esc with nothing to put back opens it too. */
	press(&s, KEYS_ESC);
	ck_assert(s.menu);
	press(&s, 'm');
	ck_assert(!s.menu);
	/* nf3 typed straight at the board is the knight's move. */
	press(&s, 'n');
	press(&s, 'f');
	press(&s, '3');
	press(&s, KEYS_ENTER);
	ck_assert_int_eq(s.n_out, 1);
	ck_assert_str_eq(s.outbox[0].moves[0], "g1f3");
	session_fini(&s);
	/* After the game no move can start: q quits, f flips, r rematches. */
	started_game(&s, &b, WHITE, NULL);
	ended_event(&b, BLACK, "1-0", "resignation");
	evbuf_fold(&b, &s, 6000);
	ck_assert_int_eq(session_key(&s, 'q').kind, SESSION_CMD_QUIT);
	ck_assert_int_eq(session_key(&s, 'f').kind, SESSION_CMD_FLIP);
	ck_assert_int_eq(session_key(&s, 'r').kind, SESSION_CMD_REMATCH);
	session_fini(&s);
}
END_TEST

/* A hotseat game: me follows the side to move, the board turns to it (or
 * stays once t fixes it), each request names the seat it is made for, a
 * move typed while the last is on its way is refused (not queued as a
 * premove), the end names the side, the rematch is offered by one seat
 * and accepted by the other, and the second seat's presence read falls
 * due while the game runs. */
START_TEST(test_hotseat)
{
	struct session s;
	struct evbuf b;
	struct session_req r;
	session_init(&s, ID, WHITE);
	session_hotseat(&s, WHITE, true);
	evbuf_init(&b, 0);
	start_events(&b, NULL);
	evbuf_fold(&b, &s, 5000);
	ck_assert_int_eq(s.me, WHITE);
	ck_assert(!s.flipped);
	type(&s, "f3");
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_MOVE);
	ck_assert_int_eq(r.seat, WHITE);
	/* Black's move before White's is in: refused, nothing queued. */
	type(&s, "e5");
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_int_eq(s.premoves.n, 0);
	ck_assert_ptr_nonnull(strstr(s.message, "on its way"));
	/* The server's event for it (from the mirror's position: the
	 * move shown as sent is not in it yet). */
	move_event(&b, &s, &s.view.game.pos, 0, "f2f3", T0 + 1000, false);
	evbuf_fold(&b, &s, 6000);
	ck_assert(!s.pending);
	ck_assert_int_eq(s.me, BLACK);
	ck_assert(s.flipped);
	type(&s, "e5");
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_MOVE);
	ck_assert_int_eq(r.seat, BLACK);
	move_event(&b, &s, &s.view.game.pos, 1, "e7e5", T0 + 2000, false);
	evbuf_fold(&b, &s, 6001);
	const char *const more[] = { "g2g4" };
	play_moves(&s, &b, more, 1);
	ck_assert_int_eq(s.me, BLACK);
	/* t: the board stays still from now on. */
	press(&s, 't');
	ck_assert(!s.hotseat_flip);
	ck_assert(s.flipped);
	const char *const mate[] = { "d8h4" };
	play_moves(&s, &b, mate, 1);
	ck_assert(s.flipped);
	ck_assert(session_over(&s));
	char out[64];
	session_outcome_text(&s, out, sizeof out);
	ck_assert_str_eq(out, "Black won");
	/* The rematch: both seats are here, so the guest's seat (Black)
	 * offers and the player's (White) accepts, in that order. */
	const char *why;
	ck_assert(session_rematch_possible(&s, &why));
	while (session_take_request(&s, &r))
		;
	press(&s, 'r');
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_REMATCH);
	ck_assert_int_eq(r.action, PROTOCOL_ACTION_OFFER);
	ck_assert_int_eq(r.seat, BLACK);
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_REMATCH);
	ck_assert_int_eq(r.action, PROTOCOL_ACTION_ACCEPT);
	ck_assert_int_eq(r.seat, WHITE);
	ck_assert(!session_take_request(&s, &r));
	session_fini(&s);

	/* The presence read: due at once in a running game, then every 2 s,
	 * as the guest's seat. */
	session_init(&s, ID, WHITE);
	session_hotseat(&s, WHITE, false);
	evbuf_init(&b, 0);
	start_events(&b, NULL);
	evbuf_fold(&b, &s, 5000);
	session_tick(&s, 5000);
	ck_assert(session_take_request(&s, &r));
	ck_assert_int_eq(r.kind, SESSION_REQ_PRESENCE);
	ck_assert_int_eq(r.seat, BLACK);
	const char *m;
	char path[160], *body;
	session_req_http(&s, &r, &m, path, sizeof path, &body);
	ck_assert_str_eq(m, "GET");
	ck_assert_str_eq(path, "/v1/games/" ID);
	ck_assert_ptr_null(body);
	session_tick(&s, 6000);
	ck_assert_int_eq(s.n_out, 0);
	ck_assert_int_le(session_next_tick(&s, 6000), 1000);
	session_tick(&s, 7000);
	ck_assert_int_eq(s.n_out, 1);
	session_fini(&s);
}
END_TEST

/* The opponent's move alert (move_alert, session_move_alert after each
 * answer, as screen-play.c calls it): the bell (or the flash) for a
 * move the opponent makes while the game is followed; not for my own,
 * not for the moves of the first answer (joining a running game), not
 * when the mirror is refolded from 0, and never when it is off. */
START_TEST(test_move_alert)
{
	struct session s;
	struct evbuf b;
	struct position p;
	session_init(&s, ID, BLACK);
	s.move_alert = 1;
	evbuf_init(&b, 0);
	start_events(&b, NULL);
	/* The first answer: the start. */
	evbuf_fold(&b, &s, 5000);
	ck_assert_int_eq(session_move_alert(&s), 0);
	session_position(&s, &p);
	move_event(&b, &s, &p, 0, "e2e4", T0 + 1000, false);
	unsigned d = session_on_events(&s, &b.evs, 6000) | session_move_alert(&s);
	protocol_events_fini(&b.evs);
	memset(&b.evs, 0, sizeof b.evs);
	ck_assert(d & SESSION_DIRTY_BELL);
	ck_assert(!(d & SESSION_DIRTY_FLASH));
	/* My own move: no bell. */
	session_position(&s, &p);
	move_event(&b, &s, &p, 1, "e7e5", T0 + 2000, false);
	d = session_on_events(&s, &b.evs, 7000) | session_move_alert(&s);
	protocol_events_fini(&b.evs);
	memset(&b.evs, 0, sizeof b.evs);
	ck_assert(!(d & SESSION_DIRTY_BELL));
	/* The flash instead. */
	s.move_alert = 2;
	session_position(&s, &p);
	move_event(&b, &s, &p, 2, "g1f3", T0 + 3000, false);
	d = session_on_events(&s, &b.evs, 8000) | session_move_alert(&s);
	protocol_events_fini(&b.evs);
	memset(&b.evs, 0, sizeof b.evs);
	ck_assert(d & SESSION_DIRTY_FLASH);
	ck_assert(!(d & SESSION_DIRTY_BELL));
	session_fini(&s);

	/* Joining: the first answer holds the opponent's moves, silently. */
	session_init(&s, ID, BLACK);
	s.move_alert = 1;
	evbuf_init(&b, 0);
	start_events(&b, NULL);
	struct position start;
	ck_assert_int_eq(fen_parse(&start, START_FEN, NULL), TCHESS_OK);
	move_event(&b, &s, &start, 0, "e2e4", T0 + 1000, false);
	d = session_on_events(&s, &b.evs, 5000) | session_move_alert(&s);
	ck_assert(!(d & SESSION_DIRTY_BELL));
	ck_assert_int_eq(s.view.game.n_plies, 1);
	/* A refold from 0 (the same events again): silent too. */
	session_reset(&s);
	d = session_on_events(&s, &b.evs, 5100) | session_move_alert(&s);
	ck_assert(!(d & SESSION_DIRTY_BELL));
	protocol_events_fini(&b.evs);
	session_fini(&s);
}
END_TEST

static Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_fold_mirror);
	tcase_add_test(tc, test_illegal_refused_locally);
	tcase_add_test(tc, test_promotion_chooser);
	tcase_add_test(tc, test_premoves);
	tcase_add_test(tc, test_premove_stale_resent);
	tcase_add_test(tc, test_premove_typed_in_flight);
	tcase_add_test(tc, test_premove_text);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_first_move_countdown);
	tcase_add_test(tc, test_reconnect_clears_stale_message);
	tcase_add_test(tc, test_clock_us_delay);
	tcase_add_test(tc, test_command_table);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_letters_are_moves);
	tcase_add_test(tc, test_spectator);
	tcase_add_test(tc, test_completion);
	tcase_add_test(tc, test_game_over);
	tcase_add_test(tc, test_status_line_fits);
	suite_add_tcase(s, tc);
	tc = tcase_create("actions");
	tcase_add_test(tc, test_draw_offer_and_answer);
	tcase_add_test(tc, test_offer_rules_by_ruleset);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_abort);
	tcase_add_test(tc, test_poll_gone_erased);
	tcase_add_test(tc, test_poll_gone_account);
	tcase_add_test(tc, test_poll_refused_other);
	tcase_add_test(tc, test_adjourn_and_absence);
	tcase_add_test(tc, test_opponent_left);
	tcase_add_test(tc, test_server_away_clocks);
	tcase_add_test(tc, test_messages_fit_80);
	tcase_add_test(tc, test_notes);
	tcase_add_test(tc, test_resync);
	tcase_add_test(tc, test_server_behind);
	suite_add_tcase(s, tc);
	tc = tcase_create("undo-series");
	tcase_add_test(tc, test_undo_game);
	tcase_add_test(tc, test_rematch_series);
	tcase_add_test(tc, test_new_game_after_engine);
	tcase_add_test(tc, test_low_time);
	tcase_add_test(tc, test_hotseat);
	tcase_add_test(tc, test_move_alert);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(session_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
