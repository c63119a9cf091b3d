/*
 * The play model's set-up, its message line, the outbox of requests and
 * their HTTP form, and the views (the board pane, the layout). The rest of
 * the model is in the session-*.c files (session-internal.h lists them);
 * see session.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "session-internal.h"
#include "util/xalloc.h"

void session_init(struct session *s, const char *game_id, int me)
{
	memset(s, 0, sizeof *s);
	snprintf(s->game_id, sizeof s->game_id, "%s", game_id);
	s->me = me;
	fold_view_init(&s->view);
	premove_queue_init(&s->premoves);
	s->rtt_ms = -1;
	s->cursor = SQ_NONE;
	s->selected = SQ_NONE;
	s->flipped = me == BLACK;
	s->reading.running = CLOCK_NOBODY;
	s->low_time_cfg_ms = -1;
	s->low_state[WHITE] = s->low_state[BLACK] = -1;
	s->left_shown_s = -1;
	session_layout_compute(&s->layout, 80, 24);
}

void session_hotseat(struct session *s, int host, bool flip)
{
	s->hotseat = true;
	s->hotseat_host = host;
	s->hotseat_flip = flip;
	s->me = WHITE;
	s->flipped = false;
}

unsigned session_hotseat_follow(struct session *s)
{
	if (!s->hotseat)
		return 0;
	int side = s->view.created ? (int)s->view.game.pos.side : WHITE;
	bool flipped = s->hotseat_flip ? side == BLACK : s->flipped;
	if (side == s->me && flipped == s->flipped)
		return 0;
	s->me = side;
	s->flipped = flipped;
	/* Whatever the last player had picked up is not the next one's. */
	s->selected = SQ_NONE;
	return SESSION_DIRTY_ALL & ~SESSION_DIRTY_HELP;
}

void session_notes_clear(struct session *s)
{
	for (size_t i = 0; i < s->n_notes; i++)
		free(s->notes[i].text);
	s->n_notes = 0;
	s->notes_revealed = false;
}

void session_fini(struct session *s)
{
	fold_view_fini(&s->view);
	free(s->san);
	s->san = NULL;
	session_notes_clear(s);
	free(s->notes);
	s->notes = NULL;
	s->notes_cap = 0;
}

void session_reset(struct session *s)
{
	fold_view_fini(&s->view);
	fold_view_init(&s->view);
	s->after = 0;
	s->pending = false;
	s->undo_sent = false;
	s->have_reading = false;
	s->resync = false;
	/* A new mirror is no crossing: the first reading sets the state. */
	s->low_state[WHITE] = s->low_state[BLACK] = -1;
	/* The note events come again with the rest of the log. */
	session_notes_clear(s);
}

void session_say(struct session *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_error = error;
}

bool session_req_is_premoves(const struct session_req *r)
{
	return r->kind == SESSION_REQ_PREMOVES || r->kind == SESSION_REQ_PREMOVES_CLEAR;
}

void session_push(struct session *s, const struct session_req *r)
{
	session_push_as(s, r, s->me);
}

void session_push_as(struct session *s, const struct session_req *r, int seat)
{
	/* Lichess has no premoves on its side: the queue stays here. */
	if (s->lichess && session_req_is_premoves(r))
		return;
	if (s->n_out == SESSION_OUTBOX_MAX) {
		/* The loop drains the outbox every pass, so this only happens
		 * when keys arrive faster than a pass: drop the oldest. */
		if (session_req_is_premoves(&s->outbox[0]) && s->premoves_out > 0)
			s->premoves_out--;
		memmove(&s->outbox[0], &s->outbox[1], (SESSION_OUTBOX_MAX - 1) * sizeof s->outbox[0]);
		s->n_out--;
	}
	if (session_req_is_premoves(r))
		s->premoves_out++;
	s->outbox[s->n_out] = *r;
	s->outbox[s->n_out++].seat = seat;
}

/* The server's queue for my seat becomes the one shown, unless a request
 * of mine that will replace it is still out (session.h, premoves_out). */
void session_take_server_premoves(struct session *s)
{
	if (s->me >= 0 && s->premoves_out == 0)
		s->premoves = s->view.premoves[s->me];
}

bool session_take_request(struct session *s, struct session_req *out)
{
	if (s->n_out == 0)
		return false;
	*out = s->outbox[0];
	memmove(&s->outbox[0], &s->outbox[1], (size_t)(s->n_out - 1) * sizeof s->outbox[0]);
	s->n_out--;
	return true;
}

void session_req_http(const struct session *s, const struct session_req *req, const char **method, char *path,
		      size_t size, char **body)
{
	*body = NULL;
	switch (req->kind) {
	case SESSION_REQ_MOVE: {
		struct protocol_move_request m = { .ply = req->ply };
		snprintf(m.move, sizeof m.move, "%s", req->moves[0]);
		*method = route_request(path, size, ROUTE_GAME_MOVE, s->game_id, NULL);
		*body = protocol_move_request_encode(&m);
		break;
	}
	case SESSION_REQ_PREMOVES: {
		struct protocol_premoves_request p = { .ply = req->ply, .n = req->n };
		for (int i = 0; i < req->n && i < PROTOCOL_PREMOVES_MAX; i++)
			snprintf(p.moves[i], sizeof p.moves[i], "%s", req->moves[i]);
		*method = route_request(path, size, ROUTE_GAME_PREMOVES_SET, s->game_id, NULL);
		*body = protocol_premoves_request_encode(&p);
		break;
	}
	case SESSION_REQ_PREMOVES_CLEAR:
		*method = route_request(path, size, ROUTE_GAME_PREMOVES_CLEAR, s->game_id, NULL);
		break;
	case SESSION_REQ_RESIGN:
		*method = route_request(path, size, ROUTE_GAME_RESIGN, s->game_id, NULL);
		*body = xstrdup("{}");
		break;
	case SESSION_REQ_PGN:
		*method = route_request(path, size, ROUTE_GAME_PGN, s->game_id, NULL);
		break;
	case SESSION_REQ_DRAW:
	case SESSION_REQ_ABORT:
	case SESSION_REQ_ADJOURN:
	case SESSION_REQ_RESUME:
	case SESSION_REQ_CLAIM:
	case SESSION_REQ_TAKEBACK:
	case SESSION_REQ_DONE:
	case SESSION_REQ_REMATCH: {
		static const enum route_id endpoint[] = {
			[SESSION_REQ_DRAW] = ROUTE_GAME_DRAW,         [SESSION_REQ_ABORT] = ROUTE_GAME_ABORT,
			[SESSION_REQ_ADJOURN] = ROUTE_GAME_ADJOURN,   [SESSION_REQ_RESUME] = ROUTE_GAME_RESUME,
			[SESSION_REQ_CLAIM] = ROUTE_GAME_CLAIM,       [SESSION_REQ_TAKEBACK] = ROUTE_GAME_TAKEBACK,
			[SESSION_REQ_DONE] = ROUTE_GAME_DONE,         [SESSION_REQ_REMATCH] = ROUTE_GAME_REMATCH,
		};
		struct protocol_action_request a = { .ply = req->ply, .action_word = req->action,
						     .claim_word = req->claim };
		snprintf(a.move, sizeof a.move, "%s", req->moves[0]);
		*method = route_request(path, size, endpoint[req->kind], s->game_id, NULL);
		*body = protocol_action_request_encode(&a);
		break;
	}
	case SESSION_REQ_NEW_GAME: {
		/* The engine's level in n, the time control in text. */
		struct protocol_game_create_request c;
		memset(&c, 0, sizeof c);
		snprintf(c.tc, sizeof c.tc, "%.*s", (int)sizeof c.tc - 1, req->text);
		snprintf(c.ruleset, sizeof c.ruleset, "%s", req->ruleset);
		snprintf(c.color, sizeof c.color, "%s", req->color == WHITE ? "white" : "black");
		snprintf(c.opponent, sizeof c.opponent, "engine");
		c.level = req->n;
		c.premoves = s->view.game.rules.premove_depth;
		c.undo = s->view.undo;
		*method = route_request(path, size, ROUTE_GAMES_CREATE, NULL, NULL);
		*body = protocol_game_create_request_encode(&c);
		break;
	}
	case SESSION_REQ_PRESENCE:
		*method = route_request(path, size, ROUTE_GAME, s->game_id, NULL);
		break;
	case SESSION_REQ_NOTE: {
		struct protocol_note_request nr;
		snprintf(nr.text, sizeof nr.text, "%s", req->text);
		*method = route_request(path, size, ROUTE_GAME_NOTE, s->game_id, NULL);
		*body = protocol_note_request_encode(&nr);
		break;
	}
	}
}

const char *session_side(int c)
{
	return c == WHITE ? "White" : c == BLACK ? "Black" : "nobody";
}

/* "you" for me, else the side's name. */
const char *session_who(const struct session *s, int c)
{
	/* At a hotseat both players read the screen: sides by name. */
	return c == s->me && !s->hotseat ? "you" : session_side(c);
}

/* "your" for me, else the side's name with 's. */
const char *session_whose(const struct session *s, int c)
{
	return c == s->me && !s->hotseat ? "your" : c == WHITE ? "White's" : c == BLACK ? "Black's" : "nobody's";
}

/* ---- views ---- */

void session_board_view(const struct session *s, struct board_view *v)
{
	struct position p;
	board_view_init(v);
	v->flipped = s->flipped;
	v->ascii = s->ascii;
	session_position(s, &p);
	move last = MOVE_NONE;
	enum session_req_kind sent;
	bool taking_back = session_undo_sent(s, &sent) && sent == SESSION_REQ_TAKEBACK;
	if (s->pending)
		last = s->pending_move;
	else if (s->view.created && s->view.undo && takeback_pending(&s->view.turn) && !taking_back)
		last = s->view.turn.pending;
	else if (s->view.created && s->view.game.n_plies)
		last = s->view.game.plies[s->view.game.n_plies - 1].m;
	board_view_set(v, &p, last);
	v->cursor = s->cursor;
	v->selected = s->selected;
	if (s->selected != SQ_NONE && s->me >= 0)
		v->legal = session_destinations(s, s->selected);
	if (s->promo) {
		v->selected = s->promo_from;
		v->legal = sq_bb(s->promo_to);
	}
	for (int i = s->premoves.n - 1; i >= 0; i--) {
		const struct premove *pm = &s->premoves.items[i];
		int to = pm->to;
		if (pm->castling && !p.chess960)
			to = position_castle_king_to(pm->from, to);
		v->premove[pm->from] = (uint8_t)(i + 1);
		v->premove[to] = (uint8_t)(i + 1);
	}
}

void session_layout_compute(struct session_layout *l, int w, int h)
{
	memset(l, 0, sizeof *l);
	l->w = w;
	l->h = h;
	l->status_y = h - 1;
	l->message_y = h - 2;
	if (w < SESSION_MIN_WIDTH || h < SESSION_MIN_HEIGHT) {
		l->too_small = true;
		return;
	}
	if (board_view_geometry(w - 25, h - 2, &l->board) < 0) {
		l->too_small = true;
		return;
	}
	l->info_y = l->board.height;
	l->info_h = h - 2 - l->board.height;
	l->side_x = l->board.width + 1;
	l->side_w = w - l->side_x;
	l->clocks_h = 4;
	l->moves_y = l->clocks_h + 1;
	l->moves_h = h - 2 - l->moves_y;
}
