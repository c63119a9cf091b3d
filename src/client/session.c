/*
 * The play model: the mirror of a game (the shared fold over the server's
 * events), local move checking before anything is sent, premoves shown
 * until the server's verdict, clocks counted down from the last reading,
 * and the keyboard and mouse input states. See session.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock-text.h"
#include "keys.h"
#include "session.h"
#include "tchess/movegen.h"
#include "util/xalloc.h"

/* An unlimited clock reads 2^53 - 1 on the wire; anything this large is
 * shown as no clock at all. */
#define SESSION_UNLIMITED_MS (INT64_C(1) << 52)

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
	session_layout_compute(&s->layout, 80, 24);
}

void session_fini(struct session *s)
{
	fold_view_fini(&s->view);
	free(s->san);
	s->san = NULL;
}

void session_reset(struct session *s)
{
	fold_view_fini(&s->view);
	fold_view_init(&s->view);
	s->after = 0;
	s->pending = false;
	s->have_reading = false;
	s->resync = false;
}

static void session_say(struct session *s, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void session_say(struct session *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_error = error;
}

static void session_push(struct session *s, const struct session_req *r)
{
	if (s->n_out == SESSION_OUTBOX_MAX) {
		/* The loop drains the outbox every pass, so this only happens
		 * when keys arrive faster than a pass: drop the oldest. */
		memmove(&s->outbox[0], &s->outbox[1], (SESSION_OUTBOX_MAX - 1) * sizeof s->outbox[0]);
		s->n_out--;
	}
	s->outbox[s->n_out++] = *r;
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
		*method = "POST";
		snprintf(path, size, "/v1/games/%s/moves", s->game_id);
		*body = protocol_move_request_encode(&m);
		break;
	}
	case SESSION_REQ_PREMOVES: {
		struct protocol_premoves_request p = { .ply = req->ply, .n = req->n };
		for (int i = 0; i < req->n && i < PROTOCOL_PREMOVES_MAX; i++)
			snprintf(p.moves[i], sizeof p.moves[i], "%s", req->moves[i]);
		*method = "PUT";
		snprintf(path, size, "/v1/games/%s/premoves", s->game_id);
		*body = protocol_premoves_request_encode(&p);
		break;
	}
	case SESSION_REQ_PREMOVES_CLEAR:
		*method = "DELETE";
		snprintf(path, size, "/v1/games/%s/premoves", s->game_id);
		break;
	case SESSION_REQ_RESIGN:
		*method = "POST";
		snprintf(path, size, "/v1/games/%s/resign", s->game_id);
		*body = xstrdup("{}");
		break;
	case SESSION_REQ_PGN:
		*method = "GET";
		snprintf(path, size, "/v1/games/%s/pgn", s->game_id);
		break;
	}
}

/* ---- the mirror ---- */

bool session_over(const struct session *s)
{
	return s->view.created && game_is_over(&s->view.game);
}

void session_result_text(const struct session *s, char *buf, size_t size)
{
	if (!session_over(s)) {
		snprintf(buf, size, "*");
		return;
	}
	snprintf(buf, size, "%s %s", game_result_str(s->view.game.result),
		 game_termination_str(s->view.game.termination));
}

void session_position(const struct session *s, struct position *out)
{
	if (!s->view.created) {
		position_init_start(out);
		return;
	}
	*out = s->view.game.pos;
	if (s->pending) {
		struct undo u;
		position_make(out, s->pending_move, &u);
	}
}

static size_t session_plies(const struct session *s)
{
	return s->view.created ? s->view.game.n_plies : 0;
}

bool session_my_turn(const struct session *s)
{
	return s->me >= 0 && fold_running(&s->view) && !s->pending && s->view.game.pos.side == s->me;
}

static void session_relayout_moves(struct session *s)
{
	enum color first = s->view.created ? (enum color)s->view.game.start.side : WHITE;
	int number = s->view.created ? s->view.game.start.fullmove : 1;
	size_t n = session_plies(s) + (s->pending ? 1 : 0);
	movelist_init(&s->ml, n, number, first, s->layout.side_w);
	int target = n ? movelist_row_of(&s->ml, n - 1) : 0;
	s->ml_top = movelist_scroll(s->ml_top, s->layout.moves_h, target, s->ml.rows);
}

static void session_san_append(struct session *s, const char *san)
{
	size_t n = s->view.game.n_plies; /* already folded: the new ply is n - 1 */
	if (n > s->san_cap) {
		s->san_cap = n * 2 + 16;
		s->san = xrealloc(s->san, s->san_cap * sizeof *s->san);
	}
	snprintf(s->san[n - 1], SAN_MAX, "%s", san);
}

/* The selection and cursor stay meaningful after the position changes. */
static void session_fix_selection(struct session *s)
{
	struct position p;
	session_position(s, &p);
	if (s->selected != SQ_NONE) {
		enum piece pc = (enum piece)p.board[s->selected];
		if (pc == NO_PIECE || (int)piece_color(pc) != s->me)
			s->selected = SQ_NONE;
	}
}

unsigned session_on_events(struct session *s, const struct protocol_events *evs, int64_t mono_ms)
{
	unsigned dirty = 0;
	for (size_t i = 0; i < evs->n; i++) {
		const struct protocol_event *ev = &evs->events[i];
		if (ev->seq <= s->view.seq)
			continue;
		struct fold_event fe;
		struct protocol_error err;
		if (fold_event_decode(ev->type, ev->data, &fe, &err) < 0 ||
		    fold_apply_event(&s->view, ev->seq, ev->t_ms, &fe, &err) < 0) {
			session_say(s, true, "event %lld refused: %s", (long long)ev->seq, err.message);
			s->resync = true;
			return dirty | SESSION_DIRTY_STATUS;
		}
		dirty |= SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
		switch (fe.kind) {
		case FOLD_EV_MOVE:
			session_san_append(s, fe.san);
			if (s->pending && fe.ply == s->pending_ply)
				s->pending = false;
			if (fe.premove && fe.color == s->me)
				session_say(s, false, "premove played: %s", fe.san);
			break;
		case FOLD_EV_PREMOVE_DISCARDED:
			if (fe.color == s->me)
				session_say(s, true, "premove %s discarded: %s", fe.uci, fe.reason);
			break;
		case FOLD_EV_STARTED:
			if (s->me >= 0)
				session_say(s, false, "the game has started: you play %s",
					    s->me == WHITE ? "White" : "Black");
			break;
		case FOLD_EV_ENDED:
			s->pending = false;
			break;
		default:
			break;
		}
		if (s->me >= 0)
			s->premoves = s->view.premoves[s->me];
	}
	if (evs->seq > s->after)
		s->after = evs->seq;
	if (s->view.created) {
		fold_clock_read(&s->view, evs->now_ms, &s->reading);
		s->reading_mono_ms = mono_ms;
		s->reading_server_ms = evs->now_ms;
		s->have_reading = true;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	if (session_over(s) && !s->over_seen) {
		char res[64];
		s->over_seen = true;
		s->selected = SQ_NONE;
		s->promo = false;
		s->confirm = SESSION_CONFIRM_NONE;
		premove_queue_clear(&s->premoves);
		session_result_text(s, res, sizeof res);
		session_say(s, false, "game over: %s   s save PGN, q quit", res);
		dirty |= SESSION_DIRTY_STATUS | SESSION_DIRTY_INFO;
	}
	if (dirty & SESSION_DIRTY_MOVES) {
		session_fix_selection(s);
		session_relayout_moves(s);
	}
	return dirty;
}

unsigned session_on_answer(struct session *s, const struct session_req *req, int status,
			   const struct protocol_error *err)
{
	if (status >= 200 && status < 300)
		return 0;
	const char *why = err && err->message[0] ? err->message : "the server refused it";
	switch (req->kind) {
	case SESSION_REQ_MOVE:
		if (s->pending && s->pending_ply == req->ply) {
			s->pending = false;
			session_relayout_moves(s);
		}
		session_say(s, true, "move %s refused: %s", req->moves[0], why);
		return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
	case SESSION_REQ_PREMOVES:
	case SESSION_REQ_PREMOVES_CLEAR:
		if (s->me >= 0)
			s->premoves = s->view.premoves[s->me];
		session_say(s, true, "premove refused: %s", why);
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	case SESSION_REQ_RESIGN:
		session_say(s, true, "resignation refused: %s", why);
		return SESSION_DIRTY_STATUS;
	case SESSION_REQ_PGN:
		session_say(s, true, "cannot fetch the PGN: %s", why);
		return SESSION_DIRTY_STATUS;
	}
	return 0;
}

unsigned session_on_pgn(struct session *s, const char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s%stchess-%.12s.pgn", s->save_dir, s->save_dir[0] ? "/" : "", s->game_id);
	FILE *f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len) {
		session_say(s, true, "cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return SESSION_DIRTY_STATUS;
	}
	if (fclose(f) != 0) {
		session_say(s, true, "cannot write %s: %s", path, strerror(errno));
		return SESSION_DIRTY_STATUS;
	}
	s->saved = true;
	session_say(s, false, "saved the game to %s", path);
	return SESSION_DIRTY_STATUS;
}

unsigned session_set_conn(struct session *s, enum session_conn c, int64_t rtt_ms)
{
	unsigned dirty = 0;
	if (c != s->conn) {
		if (c == SESSION_CONN_RECONNECTING)
			s->reconnects++;
		s->conn = c;
		dirty |= SESSION_DIRTY_STATUS;
	}
	if (rtt_ms >= 0 && rtt_ms != s->rtt_ms) {
		s->rtt_ms = rtt_ms;
		dirty |= SESSION_DIRTY_STATUS;
	}
	return dirty;
}

/* ---- clocks ---- */

int64_t session_clock_ms(const struct session *s, int c, int64_t mono_ms)
{
	if (!s->have_reading)
		return s->view.created ? s->view.clock.remaining_ms[c] : 0;
	int64_t ms = s->reading.ms[c];
	if (ms >= SESSION_UNLIMITED_MS)
		return ms;
	if (s->reading.running == c && mono_ms > s->reading_mono_ms)
		ms -= mono_ms - s->reading_mono_ms;
	return ms < 0 ? 0 : ms;
}

bool session_clock_running(const struct session *s, int c)
{
	return s->have_reading && s->reading.running == c && !session_over(s);
}

int64_t session_next_tick(const struct session *s, int64_t mono_ms)
{
	int r = s->reading.running;
	if (!s->have_reading || r == CLOCK_NOBODY || session_over(s))
		return -1;
	int64_t ms = session_clock_ms(s, r, mono_ms);
	/* At zero the text stops changing; the server decides the flag. */
	if (ms <= 0 || ms >= SESSION_UNLIMITED_MS)
		return -1;
	return clock_text_next_change(ms);
}

/* ---- moves and premoves ---- */

/* The legal move of p from 'from' to 'to' (castling: the king's square or
 * its own rook's) with promotion promo (0: any); counts matches in *n. */
static move session_find_move(const struct position *p, int from, int to, int promo, int *n)
{
	struct move_list ml;
	move found = MOVE_NONE;
	*n = 0;
	movegen_legal(p, &ml);
	for (int i = 0; i < ml.count; i++) {
		move m = ml.moves[i];
		if (move_from(m) != from)
			continue;
		int mto = move_to(m);
		bool hit = mto == to;
		if (move_kind(m) == MOVE_CASTLING && !p->chess960)
			hit = hit || position_castle_king_to(from, mto) == to;
		if (!hit)
			continue;
		if (move_kind(m) == MOVE_PROMOTION && promo && (int)move_promotion(m) != promo)
			continue;
		(*n)++;
		found = m;
	}
	return found;
}

static bitboard session_destinations(const struct session *s, int from)
{
	struct position p;
	bitboard bb = 0;
	session_position(s, &p);
	if (session_my_turn(s)) {
		struct move_list ml;
		movegen_legal(&p, &ml);
		for (int i = 0; i < ml.count; i++) {
			move m = ml.moves[i];
			if (move_from(m) != from)
				continue;
			int to = move_to(m);
			if (move_kind(m) == MOVE_CASTLING && !p.chess960)
				to = position_castle_king_to(from, to);
			bb |= sq_bb(to);
		}
		return bb;
	}
	/* Premove destinations: every square the premove rules accept. */
	for (int to = 0; to < 64; to++) {
		struct premove pm = { (uint8_t)from, (uint8_t)to, PREMOVE_NO_PROMO, false };
		enum piece pc = (enum piece)p.board[from];
		if (pc != NO_PIECE && piece_type(pc) == PAWN && (sq_rank(to) == 0 || sq_rank(to) == 7))
			pm.promo = QUEEN;
		if (premove_validate(&p, (enum color)s->me, s->premoves.items, s->premoves.n, &pm, &s->view.game.rules,
				     NULL) == TCHESS_OK)
			bb |= sq_bb(to);
	}
	return bb;
}

static unsigned session_send_move(struct session *s, move m)
{
	struct session_req r = { .kind = SESSION_REQ_MOVE };
	r.ply = (int64_t)s->view.game.n_plies;
	uci_write(&s->view.game.pos, m, r.moves[0]);
	s->pending = true;
	s->pending_move = m;
	s->pending_ply = r.ply;
	s->selected = SQ_NONE;
	s->promo = false;
	s->message[0] = '\0';
	session_push(s, &r);
	session_relayout_moves(s);
	return SESSION_DIRTY_ALL & ~(SESSION_DIRTY_CLEAR | SESSION_DIRTY_HELP);
}

static unsigned session_send_premoves(struct session *s)
{
	struct session_req r = { .kind = SESSION_REQ_PREMOVES };
	r.ply = (int64_t)session_plies(s) + (s->pending ? 1 : 0);
	r.n = s->premoves.n;
	for (int i = 0; i < s->premoves.n && i < PROTOCOL_PREMOVES_MAX; i++)
		premove_write(&s->premoves.items[i], s->view.game.start.chess960, r.moves[i]);
	session_push(s, &r);
	return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
}

static unsigned session_add_premove(struct session *s, struct premove pm)
{
	struct position p;
	struct tchess_error err = { 0 };
	struct premove_queue q = s->premoves;
	char text[PREMOVE_TEXT_MAX];
	session_position(s, &p);
	if (premove_queue_push(&q, &p, (enum color)s->me, pm, &s->view.game.rules, &err) != TCHESS_OK) {
		session_say(s, true, "premove refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	s->premoves = q;
	s->selected = SQ_NONE;
	s->promo = false;
	premove_write(&q.items[q.n - 1], p.chess960, text);
	session_say(s, false, "premove %d queued: %s   x clears", q.n, text);
	return session_send_premoves(s);
}

/* Whether pawn from→to reaches the last rank. */
static bool session_is_promotion(const struct position *p, int from, int to)
{
	enum piece pc = (enum piece)p->board[from];
	return pc != NO_PIECE && piece_type(pc) == PAWN && (sq_rank(to) == 7 || sq_rank(to) == 0);
}

static unsigned session_try(struct session *s, int from, int to, int promo)
{
	struct position p;
	session_position(s, &p);
	if (session_over(s)) {
		session_say(s, true, "the game is over");
		return SESSION_DIRTY_STATUS;
	}
	if (!fold_running(&s->view)) {
		session_say(s, true, "the game has not started: waiting for an opponent");
		return SESSION_DIRTY_STATUS;
	}
	if (session_my_turn(s)) {
		int n;
		move m = session_find_move(&p, from, to, promo, &n);
		if (n > 1) {
			s->promo = true;
			s->promo_from = from;
			s->promo_to = to;
			session_say(s, false, "promote to: q queen, r rook, b bishop, n knight (Esc cancels)");
			return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
		}
		if (n == 0) {
			char why[160];
			notation_explain_illegal(&p, from, to, why, sizeof why);
			/* The piece goes back, as on a real board. */
			s->selected = SQ_NONE;
			session_say(s, true, "illegal: %s", why);
			return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
		}
		return session_send_move(s, m);
	}
	if (session_is_promotion(&p, from, to) && !promo) {
		s->promo = true;
		s->promo_from = from;
		s->promo_to = to;
		session_say(s, false, "premove promotes to: q queen, r rook, b bishop, n knight (Esc cancels)");
		return SESSION_DIRTY_STATUS | SESSION_DIRTY_BOARD;
	}
	struct premove pm = { (uint8_t)from, (uint8_t)to, (uint8_t)(promo ? promo : PREMOVE_NO_PROMO), false };
	return session_add_premove(s, pm);
}

/* Pick up, drop or re-pick at sq. */
static unsigned session_pick(struct session *s, int sq)
{
	struct position p;
	if (sq == SQ_NONE || s->promo)
		return 0;
	session_position(s, &p);
	enum piece pc = (enum piece)p.board[sq];
	bool mine = pc != NO_PIECE && (int)piece_color(pc) == s->me;
	if (s->selected == sq) {
		s->selected = SQ_NONE;
		return SESSION_DIRTY_BOARD;
	}
	if (s->selected == SQ_NONE || (mine && !(session_destinations(s, s->selected) & sq_bb(sq)))) {
		if (!mine) {
			char name[3];
			session_say(s, true, "no piece of yours on %s", notation_square(sq, name));
			return SESSION_DIRTY_STATUS;
		}
		s->selected = sq;
		s->message[0] = '\0';
		return SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return session_try(s, s->selected, sq, 0);
}

/* Reads a typed move: any legal move when it is my turn; a premove in UCI
 * form (or SAN read as if it were my move) otherwise. */
static unsigned session_submit_text(struct session *s, const char *text)
{
	struct position p;
	struct tchess_error err = { 0 };
	size_t len = strlen(text);
	session_position(s, &p);
	if (session_over(s) || !fold_running(&s->view) || session_my_turn(s)) {
		move m;
		if (!fold_running(&s->view))
			return session_try(s, 0, 0, 0);
		if (notation_parse_move(&p, text, len, &m, &err) != TCHESS_OK) {
			session_say(s, true, "illegal: %s", err.message);
			return SESSION_DIRTY_STATUS;
		}
		return session_send_move(s, m);
	}
	struct premove pm;
	if (premove_parse_uci(text, len, &pm, NULL) == TCHESS_OK)
		return session_try(s, pm.from, pm.to, pm.promo);
	/* SAN names a move of the side to move: read it on the board as if it
	 * were mine, then queue it as a premove. */
	struct position q = p;
	q.side = (uint8_t)s->me;
	q.ep = SQ_NONE;
	position_refresh(&q, SQ_NONE);
	move m;
	if (q.checkers & q.by_color[s->me]) {
		session_say(s, true, "premove refused: type it in UCI form (e2e4)");
		return SESSION_DIRTY_STATUS;
	}
	if (san_parse(&q, text, len, &m, &err) != TCHESS_OK) {
		session_say(s, true, "premove refused: %s", err.message);
		return SESSION_DIRTY_STATUS;
	}
	int to = move_to(m);
	if (move_kind(m) == MOVE_CASTLING && !q.chess960)
		to = position_castle_king_to(move_from(m), to);
	return session_try(s, move_from(m), to, move_kind(m) == MOVE_PROMOTION ? (int)move_promotion(m) : 0);
}

int session_complete(struct session *s, char *buf, size_t size)
{
	struct position p;
	struct move_list ml;
	char cands[MOVE_LIST_MAX][SAN_MAX];
	int n = 0;
	size_t plen = strlen(s->prompt_text);
	buf[0] = '\0';
	if (!session_my_turn(s))
		return 0;
	session_position(s, &p);
	movegen_legal(&p, &ml);
	for (int i = 0; i < ml.count; i++) {
		char san[SAN_MAX], uci[UCI_MAX];
		san_write(&p, ml.moves[i], san);
		uci_write(&p, ml.moves[i], uci);
		if (!strncmp(san, s->prompt_text, plen))
			snprintf(cands[n++], SAN_MAX, "%s", san);
		else if (plen && !strncmp(uci, s->prompt_text, plen))
			snprintf(cands[n++], SAN_MAX, "%s", uci);
	}
	if (n == 0)
		return 0;
	/* The longest common prefix of the candidates. */
	size_t common = strlen(cands[0]);
	for (int i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && cands[i][k] == cands[0][k])
			k++;
		common = k;
	}
	if (common >= sizeof s->prompt_text)
		common = sizeof s->prompt_text - 1;
	if (common > plen) {
		memcpy(s->prompt_text, cands[0], common);
		s->prompt_text[common] = '\0';
	}
	size_t used = 0;
	for (int i = 0; i < n && used + SAN_MAX + 1 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", cands[i]);
	return n;
}

/* ---- keys and commands ---- */

static struct session_cmd session_cmd(enum session_cmd_kind kind, long arg, long arg2)
{
	struct session_cmd c = { kind, arg, arg2 };
	return c;
}

struct session_cmd session_key(const struct session *s, int key)
{
	if (key == KEYS_CTRL_L)
		return session_cmd(SESSION_CMD_REDRAW, 0, 0);
	if (s->confirm != SESSION_CONFIRM_NONE) {
		if (key == 'y' || key == 'Y')
			return session_cmd(SESSION_CMD_CONFIRM_YES, 0, 0);
		return session_cmd(SESSION_CMD_CONFIRM_NO, 0, 0);
	}
	if (s->prompt) {
		switch (key) {
		case KEYS_ENTER:
		case '\r':
			return session_cmd(SESSION_CMD_PROMPT_SUBMIT, 0, 0);
		case KEYS_ESC:
			return session_cmd(SESSION_CMD_PROMPT_CANCEL, 0, 0);
		case KEYS_BACKSPACE:
		case '\b':
			return session_cmd(SESSION_CMD_PROMPT_ERASE, 0, 0);
		case KEYS_TAB:
			return session_cmd(SESSION_CMD_PROMPT_COMPLETE, 0, 0);
		default:
			if (key > ' ' && key < 127)
				return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
			return session_cmd(SESSION_CMD_NONE, 0, 0);
		}
	}
	if (s->help)
		return session_cmd(key == KEYS_RESIZE || key == KEYS_MOUSE ? SESSION_CMD_NONE : SESSION_CMD_HELP, 0, 0);
	if (s->promo) {
		switch (key) {
		case 'q': case 'Q': return session_cmd(SESSION_CMD_PROMOTE, QUEEN, 0);
		case 'r': case 'R': return session_cmd(SESSION_CMD_PROMOTE, ROOK, 0);
		case 'b': case 'B': return session_cmd(SESSION_CMD_PROMOTE, BISHOP, 0);
		case 'n': case 'N': return session_cmd(SESSION_CMD_PROMOTE, KNIGHT, 0);
		default: return session_cmd(SESSION_CMD_CANCEL, 0, 0);
		}
	}
	bool watching = s->me < 0;
	switch (key) {
	case 'q':
		return session_cmd(SESSION_CMD_QUIT, 0, 0);
	case KEYS_LEFT:
	case 'h':
		return session_cmd(SESSION_CMD_CURSOR, -1, 0);
	case KEYS_RIGHT:
	case 'l':
		return session_cmd(SESSION_CMD_CURSOR, 1, 0);
	case KEYS_UP:
	case 'k':
		return session_cmd(SESSION_CMD_CURSOR, 0, -1);
	case KEYS_DOWN:
	case 'j':
		return session_cmd(SESSION_CMD_CURSOR, 0, 1);
	case KEYS_ENTER:
	case '\r':
	case ' ':
		return session_cmd(watching ? SESSION_CMD_SPECTATING : SESSION_CMD_PICK, 0, 0);
	case '/':
	case ':':
		return session_cmd(watching ? SESSION_CMD_SPECTATING : SESSION_CMD_PROMPT_OPEN, 0, 0);
	case KEYS_ESC:
		return session_cmd(SESSION_CMD_CANCEL, 0, 0);
	case 'f':
		return session_cmd(SESSION_CMD_FLIP, 0, 0);
	case 'x':
		return session_cmd(watching ? SESSION_CMD_SPECTATING : SESSION_CMD_PREMOVES_CLEAR, 0, 0);
	case 'R':
		return session_cmd(watching ? SESSION_CMD_SPECTATING : SESSION_CMD_RESIGN, 0, 0);
	case 's':
		return session_cmd(SESSION_CMD_SAVE_PGN, 0, 0);
	case KEYS_PGUP:
		return session_cmd(SESSION_CMD_SCROLL, -(s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1), 0);
	case KEYS_PGDN:
		return session_cmd(SESSION_CMD_SCROLL, s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1, 0);
	case '?':
		return session_cmd(SESSION_CMD_HELP, 0, 0);
	default:
		/* A move typed straight away opens the prompt with it. */
		if (!watching && ((key >= 'a' && key <= 'h') || strchr("NBRQKO", key)) && key)
			return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
		if (watching && ((key >= 'a' && key <= 'h') || (key && strchr("NBRQKO", key))))
			return session_cmd(SESSION_CMD_SPECTATING, 0, 0);
		return session_cmd(SESSION_CMD_NONE, 0, 0);
	}
}

unsigned session_apply(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	/* A message stays until the next command that does something. */
	if (s->message[0] && c->kind != SESSION_CMD_NONE && c->kind != SESSION_CMD_RESIZE &&
	    c->kind != SESSION_CMD_REDRAW && c->kind != SESSION_CMD_CURSOR) {
		s->message[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
	}
	switch (c->kind) {
	case SESSION_CMD_NONE:
		break;
	case SESSION_CMD_QUIT:
		if (s->me >= 0 && fold_running(&s->view)) {
			s->confirm = SESSION_CONFIRM_QUIT;
			session_say(s, false, "leave the game? your clock keeps running (y/n)");
			dirty |= SESSION_DIRTY_STATUS;
		} else {
			s->quit = true;
		}
		break;
	case SESSION_CMD_CURSOR:
		if (s->cursor == SQ_NONE)
			s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
		else
			s->cursor = board_view_cursor_step(s->flipped, s->cursor, (int)c->arg, (int)c->arg2);
		dirty |= SESSION_DIRTY_BOARD;
		break;
	case SESSION_CMD_PICK:
		if (s->cursor == SQ_NONE) {
			s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
			dirty |= SESSION_DIRTY_BOARD;
			break;
		}
		dirty |= session_pick(s, s->cursor);
		break;
	case SESSION_CMD_CLICK:
		if (s->me < 0) {
			session_say(s, true, "spectating: you cannot move in this game");
			dirty |= SESSION_DIRTY_STATUS;
			break;
		}
		s->cursor = (int)c->arg;
		dirty |= SESSION_DIRTY_BOARD | session_pick(s, (int)c->arg);
		break;
	case SESSION_CMD_CANCEL:
		if (s->promo || s->selected != SQ_NONE) {
			s->promo = false;
			s->selected = SQ_NONE;
			dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
		}
		break;
	case SESSION_CMD_FLIP:
		s->flipped = !s->flipped;
		dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_CLOCKS | SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_HELP:
		s->help = !s->help;
		dirty |= s->help ? SESSION_DIRTY_HELP : SESSION_DIRTY_ALL;
		break;
	case SESSION_CMD_PROMPT_OPEN:
		s->prompt = true;
		s->prompt_text[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_PROMPT_INPUT: {
		size_t n = strlen(s->prompt_text);
		if (!s->prompt) {
			s->prompt = true;
			n = 0;
		}
		if (n + 1 < sizeof s->prompt_text) {
			s->prompt_text[n] = (char)c->arg;
			s->prompt_text[n + 1] = '\0';
		}
		dirty |= SESSION_DIRTY_STATUS;
		break;
	}
	case SESSION_CMD_PROMPT_ERASE: {
		size_t n = strlen(s->prompt_text);
		if (n)
			s->prompt_text[n - 1] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
		break;
	}
	case SESSION_CMD_PROMPT_COMPLETE: {
		char cands[SESSION_MESSAGE_MAX];
		int n = session_complete(s, cands, sizeof cands);
		if (n == 0)
			session_say(s, true, session_my_turn(s) ? "no legal move starts with \"%s\""
								: "completion works on your move%s",
				    session_my_turn(s) ? s->prompt_text : "");
		else if (n > 1)
			session_say(s, false, "%s", cands);
		dirty |= SESSION_DIRTY_STATUS;
		break;
	}
	case SESSION_CMD_PROMPT_SUBMIT: {
		char text[SESSION_PROMPT_MAX];
		snprintf(text, sizeof text, "%s", s->prompt_text);
		s->prompt = false;
		s->prompt_text[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
		if (text[0])
			dirty |= session_submit_text(s, text);
		break;
	}
	case SESSION_CMD_PROMPT_CANCEL:
		s->prompt = false;
		s->prompt_text[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_PROMOTE:
		if (s->promo) {
			s->promo = false;
			dirty |= SESSION_DIRTY_BOARD | session_try(s, s->promo_from, s->promo_to, (int)c->arg);
		}
		break;
	case SESSION_CMD_PREMOVES_CLEAR:
		if (s->premoves.n || (s->me >= 0 && s->view.premoves[s->me].n)) {
			struct session_req r = { .kind = SESSION_REQ_PREMOVES_CLEAR };
			premove_queue_clear(&s->premoves);
			session_push(s, &r);
			session_say(s, false, "premoves cleared");
			dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
		}
		break;
	case SESSION_CMD_RESIGN:
		if (!fold_running(&s->view)) {
			session_say(s, true, "the game is not running");
		} else {
			s->confirm = SESSION_CONFIRM_RESIGN;
			session_say(s, false, "resign this game? (y/n)");
		}
		dirty |= SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_CONFIRM_YES: {
		enum session_confirm what = s->confirm;
		s->confirm = SESSION_CONFIRM_NONE;
		dirty |= SESSION_DIRTY_STATUS;
		if (what == SESSION_CONFIRM_RESIGN) {
			struct session_req r = { .kind = SESSION_REQ_RESIGN };
			session_push(s, &r);
			session_say(s, false, "resigning...");
		} else if (what == SESSION_CONFIRM_QUIT) {
			s->quit = true;
		}
		break;
	}
	case SESSION_CMD_CONFIRM_NO:
		s->confirm = SESSION_CONFIRM_NONE;
		dirty |= SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_SAVE_PGN:
		if (!session_over(s)) {
			session_say(s, true, "the PGN can be saved when the game is over");
		} else {
			struct session_req r = { .kind = SESSION_REQ_PGN };
			session_push(s, &r);
			session_say(s, false, "fetching the PGN...");
		}
		dirty |= SESSION_DIRTY_STATUS;
		break;
	case SESSION_CMD_SCROLL: {
		int top = s->ml_top + (int)c->arg;
		int max = s->ml.rows - s->layout.moves_h;
		if (top > max)
			top = max;
		if (top < 0)
			top = 0;
		if (top != s->ml_top) {
			s->ml_top = top;
			dirty |= SESSION_DIRTY_MOVES;
		}
		break;
	}
	case SESSION_CMD_RESIZE:
		session_layout_compute(&s->layout, (int)c->arg, (int)c->arg2);
		session_relayout_moves(s);
		dirty |= SESSION_DIRTY_ALL;
		break;
	case SESSION_CMD_REDRAW:
		dirty |= SESSION_DIRTY_ALL;
		break;
	case SESSION_CMD_SPECTATING:
		session_say(s, true, "spectating: you cannot move in this game");
		dirty |= SESSION_DIRTY_STATUS;
		break;
	}
	return dirty;
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
	if (s->pending)
		last = s->pending_move;
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
