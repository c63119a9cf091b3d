/*
 * The play model without a terminal or a network: server events folded
 * into the mirror, moves refused locally before any request, premoves
 * shown and resolved, clocks read from the server's readings, keys turned
 * into commands, and the requests the model asks for.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock-text.h"
#include "keys.h"
#include "session.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"

#define ID "0123456789abcdef0123456789abcdef"
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

/* game-created, player-joined, game-started at T0 (5+3, fide, alice v bob). */
static void start_events(struct evbuf *b)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_CREATED);
	snprintf(e.tc, sizeof e.tc, "5+3");
	snprintf(e.ruleset, sizeof e.ruleset, "fide");
	snprintf(e.fen, sizeof e.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	snprintf(e.opponent, sizeof e.opponent, "open");
	e.seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e.seats[WHITE].player = 1;
	snprintf(e.seats[WHITE].name, sizeof e.seats[WHITE].name, "alice");
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

static void type(struct session *s, const char *text)
{
	apply(s, SESSION_CMD_PROMPT_OPEN, 0);
	for (const char *p = text; *p; p++)
		apply(s, SESSION_CMD_PROMPT_INPUT, *p);
	apply(s, SESSION_CMD_PROMPT_SUBMIT, 0);
}

/* A started game with s playing me. */
static void started(struct session *s, struct evbuf *b, int me)
{
	session_init(s, ID, me);
	evbuf_init(b, 0);
	start_events(b);
	evbuf_fold(b, s, 5000);
}

START_TEST(test_fold_mirror)
{
	struct session s;
	struct evbuf b;
	struct position p;
	started(&s, &b, WHITE);
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
	started(&s, &b, WHITE);
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
	struct fold_event e;
	session_init(&s, ID, WHITE);
	evbuf_init(&b, 0);
	fold_event_init(&e, FOLD_EV_CREATED);
	snprintf(e.tc, sizeof e.tc, "5+3");
	snprintf(e.ruleset, sizeof e.ruleset, "fide");
	snprintf(e.fen, sizeof e.fen, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
	snprintf(e.opponent, sizeof e.opponent, "open");
	e.seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e.seats[WHITE].player = 1;
	snprintf(e.seats[WHITE].name, sizeof e.seats[WHITE].name, "alice");
	e.seats[BLACK] = e.seats[WHITE];
	e.seats[BLACK].player = 2;
	snprintf(e.seats[BLACK].name, sizeof e.seats[BLACK].name, "bob");
	evbuf_add(&b, T0, &e);
	fold_event_init(&e, FOLD_EV_STARTED);
	clock_reading(&e, 300000, 300000, WHITE);
	evbuf_add(&b, T0, &e);
	evbuf_fold(&b, &s, 0);
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
	started(&s, &b, BLACK);
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
	ck_assert_ptr_nonnull(strstr(s.message, "premove 1 queued: e7e5"));
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
	ck_assert_ptr_nonnull(strstr(s.message, "discarded"));
	ck_assert_ptr_nonnull(strstr(s.message, "pinned"));
	/* My move now: what is typed is a move, not a premove. */
	s.n_out = 0;
	type(&s, "Qh4");
	ck_assert_int_eq(s.n_out, 1); /* my move now: a move, not a premove */
	ck_assert_int_eq(s.outbox[0].kind, SESSION_REQ_MOVE);
	session_fini(&s);
}
END_TEST

/* Clocks: counted down locally from the server's reading, anchored at
 * receipt, tenths under 10 s; only the running side moves. */
START_TEST(test_clocks)
{
	struct session s;
	struct evbuf b;
	started(&s, &b, WHITE);
	/* The answer said now_ms = T0: white's clock reads 5:00 at mono 5000. */
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 5000), 300000);
	ck_assert_int_eq(session_clock_ms(&s, WHITE, 6500), 298500);
	ck_assert_int_eq(session_clock_ms(&s, BLACK, 6500), 300000);
	ck_assert(session_clock_running(&s, WHITE));
	ck_assert(!session_clock_running(&s, BLACK));
	/* 298.5 s shows 4:58 and changes in 501 ms. */
	ck_assert_int_eq(session_next_tick(&s, 6500), 501);
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

START_TEST(test_keys)
{
	struct session s;
	struct evbuf b;
	started(&s, &b, WHITE);
	ck_assert_int_eq(session_key(&s, 'h').kind, SESSION_CMD_CURSOR);
	ck_assert_int_eq(session_key(&s, 'h').arg, -1);
	ck_assert_int_eq(session_key(&s, KEYS_DOWN).arg2, 1);
	ck_assert_int_eq(session_key(&s, ' ').kind, SESSION_CMD_PICK);
	ck_assert_int_eq(session_key(&s, KEYS_ENTER).kind, SESSION_CMD_PICK);
	ck_assert_int_eq(session_key(&s, '/').kind, SESSION_CMD_PROMPT_OPEN);
	ck_assert_int_eq(session_key(&s, 'N').kind, SESSION_CMD_PROMPT_INPUT);
	ck_assert_int_eq(session_key(&s, 'f').kind, SESSION_CMD_FLIP);
	ck_assert_int_eq(session_key(&s, 'x').kind, SESSION_CMD_PREMOVES_CLEAR);
	ck_assert_int_eq(session_key(&s, 'R').kind, SESSION_CMD_RESIGN);
	/* Keys change nothing by themselves. */
	ck_assert_int_eq(s.cursor, SQ_NONE);
	/* The cursor starts on the king's square and moves on screen. */
	apply(&s, SESSION_CMD_CURSOR, 1);
	ck_assert_int_eq(s.cursor, SQ_E1);
	struct session_cmd up = session_key(&s, 'k');
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
	/* Quit asks while the game runs. */
	struct session_cmd q = session_key(&s, 'q');
	session_apply(&s, &q);
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
	started(&s, &b, -1);
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
	started(&s, &b, WHITE);
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
	started(&s, &b, BLACK);
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
	ck_assert_ptr_nonnull(strstr(s.message, "game over: 0-1 checkmate"));
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

static Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_fold_mirror);
	tcase_add_test(tc, test_illegal_refused_locally);
	tcase_add_test(tc, test_promotion_chooser);
	tcase_add_test(tc, test_premoves);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_spectator);
	tcase_add_test(tc, test_completion);
	tcase_add_test(tc, test_game_over);
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
