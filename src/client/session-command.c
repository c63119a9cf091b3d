/*
 * Keys to commands, and the command table that runs them.
 */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "session-internal.h"

static struct session_cmd session_cmd(enum session_cmd_kind kind, long arg, long arg2)
{
	struct session_cmd c = { kind, arg, arg2 };
	return c;
}

static unsigned session_run_none(struct session *s, const struct session_cmd *c)
{
	(void)s;
	(void)c;
	unsigned dirty = 0;
	return dirty;
}

static unsigned session_run_quit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->me >= 0 && fold_running(&s->view) && !s->gone) {
		s->confirm = SESSION_CONFIRM_QUIT;
		if (s->hotseat && !s->lichess)
			session_say(s, false, "leave the game? it is adjourned: the clocks stop (y/n)");
		else
			session_say(s, false, "leave the game? your clock keeps running (y/n)");
		dirty |= SESSION_DIRTY_STATUS;
	} else {
		s->quit = true;
	}
	return dirty;
}

static unsigned session_run_cursor(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->cursor == SQ_NONE)
		s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
	else
		s->cursor = board_view_cursor_step(s->flipped, s->cursor, (int)c->arg, (int)c->arg2);
	dirty |= SESSION_DIRTY_BOARD;
	return dirty;
}

static unsigned session_run_pick(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->cursor == SQ_NONE) {
		s->cursor = s->me == BLACK ? SQ_E8 : SQ_E1;
		dirty |= SESSION_DIRTY_BOARD;
		return dirty;
	}
	dirty |= session_pick(s, s->cursor);
	return dirty;
}

static unsigned session_run_click(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->me < 0) {
		session_say(s, true, "spectating: you cannot move in this game");
		dirty |= SESSION_DIRTY_STATUS;
		return dirty;
	}
	s->cursor = (int)c->arg;
	dirty |= SESSION_DIRTY_BOARD | session_pick(s, (int)c->arg);
	return dirty;
}

static unsigned session_run_cancel(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->promo || s->selected != SQ_NONE) {
		s->promo = false;
		s->selected = SQ_NONE;
		dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	} else if (session_waiting(s) && !s->menu) {
		/* Waiting for an opponent: Esc goes back, as q does, and the
		 * seek is withdrawn (screen-play.c). */
		s->quit = true;
	} else {
		/* Nothing to put back: Esc opens the action menu. */
		s->menu = true;
		dirty |= SESSION_DIRTY_ALL;
	}
	return dirty;
}

static unsigned session_run_menu(struct session *s, const struct session_cmd *c)
{
	(void)c;
	s->menu = !s->menu;
	return SESSION_DIRTY_ALL;
}

static unsigned session_run_flip(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->hotseat) {
		/* At a hotseat the key switches between the board turning to
		 * each player and a board that stays as it is now. */
		s->hotseat_flip = !s->hotseat_flip;
		if (s->hotseat_flip)
			s->flipped = s->me == BLACK;
		session_say(s, false, "%s", s->hotseat_flip ? "the board turns to each player (t keeps it still)"
							    : "the board stays as it is (t turns it to each player)");
	} else {
		s->flipped = !s->flipped;
	}
	dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_CLOCKS | SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_help(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->help = !s->help;
	dirty |= s->help ? SESSION_DIRTY_HELP : SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_prompt_open(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->prompt = true;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_input(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
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
	return dirty;
}

static unsigned session_run_prompt_erase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	size_t n = strlen(s->prompt_text);
	if (n)
		s->prompt_text[n - 1] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_complete(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char cands[SESSION_MESSAGE_MAX];
	int n = session_complete(s, cands, sizeof cands);
	if (n == 0)
		session_say(s, true, session_my_turn(s) ? "no legal move starts with \"%s\""
							: "completion works on your move%s",
			    session_my_turn(s) ? s->prompt_text : "");
	else if (n > 1)
		session_say(s, false, "%s", cands);
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_prompt_submit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char text[SESSION_PROMPT_MAX];
	snprintf(text, sizeof text, "%s", s->prompt_text);
	s->prompt = false;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	if (text[0])
		dirty |= session_submit_text(s, text);
	return dirty;
}

static unsigned session_run_prompt_cancel(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->prompt = false;
	s->prompt_text[0] = '\0';
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_promote(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (s->promo) {
		s->promo = false;
		dirty |= SESSION_DIRTY_BOARD | session_try(s, s->promo_from, s->promo_to, (int)c->arg);
	}
	return dirty;
}

static unsigned session_run_premoves_clear(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->premoves.n || (s->me >= 0 && s->view.premoves[s->me].n)) {
		struct session_req r = { .kind = SESSION_REQ_PREMOVES_CLEAR };
		premove_queue_clear(&s->premoves);
		session_push(s, &r);
		session_say(s, false, "premoves cleared");
		dirty |= SESSION_DIRTY_BOARD | SESSION_DIRTY_STATUS;
	}
	return dirty;
}

static unsigned session_run_resign(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (!fold_running(&s->view)) {
		session_say(s, true, "the game is not running");
	} else {
		s->confirm = SESSION_CONFIRM_RESIGN;
		session_say(s, false, "resign this game? (y/n)");
	}
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_confirm_yes(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	enum session_confirm what = s->confirm;
	s->confirm = SESSION_CONFIRM_NONE;
	dirty |= SESSION_DIRTY_STATUS;
	if (what == SESSION_CONFIRM_RESIGN) {
		struct session_req r = { .kind = SESSION_REQ_RESIGN };
		session_push(s, &r);
		session_say(s, false, "resigning...");
	} else if (what == SESSION_CONFIRM_QUIT) {
		s->quit = true;
	} else if (what == SESSION_CONFIRM_ABORT) {
		session_push_action(s, SESSION_REQ_ABORT, PROTOCOL_ACTION_REQUEST);
		session_say(s, false, "aborting...");
	} else if (what == SESSION_CONFIRM_CLAIM_WIN || what == SESSION_CONFIRM_DISCARD) {
		session_push_claim(s, what == SESSION_CONFIRM_CLAIM_WIN ? PROTOCOL_CLAIM_WIN : PROTOCOL_CLAIM_DISCARD);
		session_say(s, false, "claiming...");
	}
	return dirty;
}

static unsigned session_run_draw_offer(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_draw_offer(s);
	return dirty;
}

static unsigned session_run_draw_withdraw(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_draw_withdraw(s);
	return dirty;
}

static unsigned session_run_accept(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	dirty |= session_answer(s, c->kind == SESSION_CMD_ACCEPT);
	return dirty;
}

static unsigned session_run_claim_draw(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	char text[SESSION_PROMPT_MAX] = "";
	if (s->prompt) {
		snprintf(text, sizeof text, "%s", s->prompt_text);
		s->prompt = false;
		s->prompt_text[0] = '\0';
	}
	dirty |= SESSION_DIRTY_STATUS | session_claim_draw(s, text);
	return dirty;
}

static unsigned session_run_claim_tablebase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_claim_tablebase(s);
	return dirty;
}

static unsigned session_run_abort(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_abort(s);
	return dirty;
}

static unsigned session_run_adjourn(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_adjourn(s);
	return dirty;
}

static unsigned session_run_gone_claim(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_gone(s);
	return dirty;
}

static unsigned session_run_notes_open(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (s->me < 0 && !s->n_notes) {
		session_say(s, true, "spectating: the players' notes show after the game");
		dirty |= SESSION_DIRTY_STATUS;
		return dirty;
	}
	s->notes_open = !s->notes_open;
	dirty |= s->notes_open ? SESSION_DIRTY_NOTES | SESSION_DIRTY_STATUS : SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_notes_input(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	session_note_input(s, c->arg);
	dirty |= SESSION_DIRTY_NOTES;
	return dirty;
}

static unsigned session_run_notes_erase(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	session_note_erase(s);
	dirty |= SESSION_DIRTY_NOTES;
	return dirty;
}

static unsigned session_run_notes_submit(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_note_submit(s);
	return dirty;
}

static unsigned session_run_notes_close(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->notes_open = false;
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_confirm_no(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	s->confirm = SESSION_CONFIRM_NONE;
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_save_pgn(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	if (!session_over(s)) {
		session_say(s, true, "the PGN can be saved when the game is over");
	} else if (s->lichess) {
		/* Written from the mirror: every move of the game is here. */
		dirty |= session_lichess_save_pgn(s);
	} else {
		struct session_req r = { .kind = SESSION_REQ_PGN };
		session_push(s, &r);
		session_say(s, false, "fetching the PGN...");
	}
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_scroll(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
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
	return dirty;
}

static unsigned session_run_resize(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	session_layout_compute(&s->layout, (int)c->arg, (int)c->arg2);
	session_relayout_moves(s);
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_redraw(struct session *s, const struct session_cmd *c)
{
	(void)s;
	(void)c;
	unsigned dirty = 0;
	dirty |= SESSION_DIRTY_ALL;
	return dirty;
}

static unsigned session_run_spectating(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	session_say(s, true, "spectating: you cannot move in this game");
	dirty |= SESSION_DIRTY_STATUS;
	return dirty;
}

static unsigned session_run_takeback(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	dirty |= session_undo_action(s, c->kind == SESSION_CMD_DONE);
	return dirty;
}

static unsigned session_run_new_game(struct session *s, const struct session_cmd *c)
{
	(void)c;
	return session_new_game(s);
}

static unsigned session_run_rematch(struct session *s, const struct session_cmd *c)
{
	(void)c;
	unsigned dirty = 0;
	dirty |= session_rematch(s);
	return dirty;
}

/* The command table: one row per command, indexed by its kind. keys are
 * the board keys that give the command with no argument (the cursor, the
 * scroll keys, a typed move's first letter and d for done are read in
 * session_board_key; while moves can be typed, a key that starts a move
 * goes to the prompt first, so the letters here are reached only when no
 * move can start: after the game, or watching); SEAT: only a seated player may give it (a spectator
 * is told so); GONE_OK: it still works once the game is gone (looking and
 * leaving; the rest would ask the server about a game it no longer serves
 * to us); KEEPS_MESSAGE: the message line stays (a message stays until the
 * next command that does something). A new command is one row here and
 * its run function. */
enum {
	SESSION_CMD_SEAT = 1 << 0,
	SESSION_CMD_GONE_OK = 1 << 1,
	SESSION_CMD_KEEPS_MESSAGE = 1 << 2
};

#define SESSION_CMD_KEYS_MAX 3

struct session_cmd_row {
	int keys[SESSION_CMD_KEYS_MAX]; /* 0 ends the list */
	unsigned flags;
	unsigned (*run)(struct session *s, const struct session_cmd *c);
};

static const struct session_cmd_row session_cmds[SESSION_CMD_NB] = {
	[SESSION_CMD_NONE] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_none },
	[SESSION_CMD_QUIT] = { { 'q' }, SESSION_CMD_GONE_OK, session_run_quit },
	[SESSION_CMD_MENU] = { { 'm' }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_menu },
	[SESSION_CMD_CURSOR] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_cursor },
	[SESSION_CMD_PICK] = { { KEYS_ENTER, '\r', ' ' }, SESSION_CMD_SEAT, session_run_pick },
	[SESSION_CMD_CLICK] = { { 0 }, 0, session_run_click },
	[SESSION_CMD_CANCEL] = { { KEYS_ESC }, SESSION_CMD_GONE_OK, session_run_cancel },
	[SESSION_CMD_FLIP] = { { 't', 'f' }, SESSION_CMD_GONE_OK, session_run_flip },
	[SESSION_CMD_HELP] = { { '?' }, SESSION_CMD_GONE_OK, session_run_help },
	[SESSION_CMD_PROMPT_OPEN] = { { '/', ':' }, SESSION_CMD_SEAT, session_run_prompt_open },
	[SESSION_CMD_PROMPT_INPUT] = { { 0 }, SESSION_CMD_SEAT, session_run_prompt_input },
	[SESSION_CMD_PROMPT_ERASE] = { { 0 }, 0, session_run_prompt_erase },
	[SESSION_CMD_PROMPT_COMPLETE] = { { 0 }, 0, session_run_prompt_complete },
	[SESSION_CMD_PROMPT_SUBMIT] = { { 0 }, 0, session_run_prompt_submit },
	[SESSION_CMD_PROMPT_CANCEL] = { { 0 }, 0, session_run_prompt_cancel },
	[SESSION_CMD_PROMOTE] = { { 0 }, 0, session_run_promote },
	[SESSION_CMD_PREMOVES_CLEAR] = { { 'x' }, SESSION_CMD_SEAT, session_run_premoves_clear },
	[SESSION_CMD_RESIGN] = { { 'R' }, SESSION_CMD_SEAT, session_run_resign },
	[SESSION_CMD_DRAW_OFFER] = { { '=' }, SESSION_CMD_SEAT, session_run_draw_offer },
	[SESSION_CMD_DRAW_WITHDRAW] = { { 'W' }, SESSION_CMD_SEAT, session_run_draw_withdraw },
	[SESSION_CMD_ACCEPT] = { { '+', 'A' }, SESSION_CMD_SEAT, session_run_accept },
	[SESSION_CMD_DECLINE] = { { '-', 'D' }, SESSION_CMD_SEAT, session_run_accept },
	[SESSION_CMD_CLAIM_DRAW] = { { 'C' }, SESSION_CMD_SEAT, session_run_claim_draw },
	[SESSION_CMD_CLAIM_TABLEBASE] = { { 'T' }, SESSION_CMD_SEAT, session_run_claim_tablebase },
	[SESSION_CMD_ABORT] = { { 'X' }, SESSION_CMD_SEAT, session_run_abort },
	[SESSION_CMD_ADJOURN] = { { 'P' }, SESSION_CMD_SEAT, session_run_adjourn },
	[SESSION_CMD_GONE_CLAIM] = { { 'V', 'G' }, SESSION_CMD_SEAT, session_run_gone_claim },
	[SESSION_CMD_NOTES_OPEN] = { { 'j' }, SESSION_CMD_GONE_OK, session_run_notes_open },
	[SESSION_CMD_NOTES_INPUT] = { { 0 }, 0, session_run_notes_input },
	[SESSION_CMD_NOTES_ERASE] = { { 0 }, 0, session_run_notes_erase },
	[SESSION_CMD_NOTES_SUBMIT] = { { 0 }, 0, session_run_notes_submit },
	[SESSION_CMD_NOTES_CLOSE] = { { 0 }, SESSION_CMD_GONE_OK, session_run_notes_close },
	[SESSION_CMD_CONFIRM_YES] = { { 0 }, SESSION_CMD_GONE_OK, session_run_confirm_yes },
	[SESSION_CMD_CONFIRM_NO] = { { 0 }, SESSION_CMD_GONE_OK, session_run_confirm_no },
	[SESSION_CMD_SAVE_PGN] = { { 's' }, 0, session_run_save_pgn },
	[SESSION_CMD_SCROLL] = { { 0 }, SESSION_CMD_GONE_OK, session_run_scroll },
	[SESSION_CMD_RESIZE] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_resize },
	[SESSION_CMD_REDRAW] = { { 0 }, SESSION_CMD_GONE_OK | SESSION_CMD_KEEPS_MESSAGE, session_run_redraw },
	[SESSION_CMD_SPECTATING] = { { 0 }, 0, session_run_spectating },
	[SESSION_CMD_TAKEBACK] = { { 'u' }, SESSION_CMD_SEAT, session_run_takeback },
	[SESSION_CMD_DONE] = { { 0 }, SESSION_CMD_SEAT, session_run_takeback },
	[SESSION_CMD_REMATCH] = { { 'r' }, SESSION_CMD_SEAT, session_run_rematch },
	[SESSION_CMD_NEW_GAME] = { { 'n' }, SESSION_CMD_SEAT, session_run_new_game },
};

bool session_typing_moves(const struct session *s)
{
	return s->me >= 0 && s->view.created && s->view.started && !session_over(s) && !s->gone;
}

/* Whether key can be the first character of a move as a player types it
 * (SAN, UCI, either in any case, a lowercase piece letter, castling). */
static bool session_starts_move(int key)
{
	return (key >= 'a' && key <= 'h') || (key >= 'A' && key <= 'H') || (key && key < 128 && strchr("KQRNkqrnOo0", key));
}

/* The action menu: the keys that work while it is open (the board's
 * action keys work there too). */
static const struct session_menu_item session_menu[] = {
	{ 'r', SESSION_CMD_RESIGN, "resign (asks first)" },
	{ '=', SESSION_CMD_DRAW_OFFER, "offer a draw" },
	{ 'W', SESSION_CMD_DRAW_WITHDRAW, "withdraw your draw or rematch offer" },
	{ '+', SESSION_CMD_ACCEPT, "accept the opponent's offer or request" },
	{ '-', SESSION_CMD_DECLINE, "decline it" },
	{ 'c', SESSION_CMD_CLAIM_DRAW, "claim a draw (threefold, fifty moves)" },
	{ 'T', SESSION_CMD_CLAIM_TABLEBASE, "claim a draw by the tablebases" },
	{ 'X', SESSION_CMD_ABORT, "abort (asks first; later: asks the opponent)" },
	{ 'P', SESSION_CMD_ADJOURN, "ask to adjourn / to resume" },
	{ 'V', SESSION_CMD_GONE_CLAIM, "opponent gone: claim the win / their discard" },
	{ 'u', SESSION_CMD_TAKEBACK, "undo games: take your move back" },
	{ 'j', SESSION_CMD_NOTES_OPEN, "notes: write (private until the end), read" },
	{ 't', SESSION_CMD_FLIP, "turn the board (hotseat: to each mover, or still)" },
	{ 's', SESSION_CMD_SAVE_PGN, "save the PGN (after the game)" },
	{ '?', SESSION_CMD_HELP, "help: every key" },
	{ 'q', SESSION_CMD_QUIT, "leave the game (asks first while it runs)" },
};

const struct session_menu_item *session_menu_items(size_t *n)
{
	*n = sizeof session_menu / sizeof session_menu[0];
	return session_menu;
}

/* The board keys: what a key asks for, seated or not. */
static struct session_cmd session_board_key(const struct session *s, int key)
{
	/* d is a file letter that starts a typed move, except while my
	 * provisional move stands: no move can be typed then. */
	if (key == 'd' && s->me >= 0 && session_provisional_mine(s))
		return session_cmd(SESSION_CMD_DONE, 0, 0);
	/* Letters are not stolen: what can start a move is the move. */
	if (session_typing_moves(s) && session_starts_move(key))
		return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
	switch (key) {
	case KEYS_LEFT:
		return session_cmd(SESSION_CMD_CURSOR, -1, 0);
	case KEYS_RIGHT:
		return session_cmd(SESSION_CMD_CURSOR, 1, 0);
	case KEYS_UP:
		return session_cmd(SESSION_CMD_CURSOR, 0, -1);
	case KEYS_DOWN:
		return session_cmd(SESSION_CMD_CURSOR, 0, 1);
	case KEYS_PGUP:
		return session_cmd(SESSION_CMD_SCROLL, -(s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1), 0);
	case KEYS_PGDN:
		return session_cmd(SESSION_CMD_SCROLL, s->layout.moves_h > 1 ? s->layout.moves_h - 1 : 1, 0);
	default:
		break;
	}
	for (int k = 0; k < SESSION_CMD_NB; k++)
		for (int i = 0; i < SESSION_CMD_KEYS_MAX && session_cmds[k].keys[i]; i++)
			if (session_cmds[k].keys[i] == key)
				return session_cmd((enum session_cmd_kind)k, 0, 0);
	/* No move can be typed now: say why at the prompt. */
	if (session_starts_move(key))
		return session_cmd(SESSION_CMD_PROMPT_INPUT, key, 0);
	return session_cmd(SESSION_CMD_NONE, 0, 0);
}

/* A key while the action menu is open: its row's command, or the board's
 * action key; anything else closes the menu. */
static struct session_cmd session_menu_key(const struct session *s, int key)
{
	if (key == KEYS_ESC)
		return session_cmd(SESSION_CMD_MENU, 0, 0);
	for (size_t i = 0; i < sizeof session_menu / sizeof session_menu[0]; i++)
		if (session_menu[i].key == key)
			return session_cmd(session_menu[i].cmd, 0, 0);
	for (int k = 0; k < SESSION_CMD_NB; k++)
		for (int i = 0; i < SESSION_CMD_KEYS_MAX && session_cmds[k].keys[i]; i++)
			if (session_cmds[k].keys[i] == key && k != SESSION_CMD_PICK)
				return session_cmd((enum session_cmd_kind)k, 0, 0);
	(void)s;
	return session_cmd(key == KEYS_RESIZE || key == KEYS_MOUSE ? SESSION_CMD_NONE : SESSION_CMD_MENU, 0, 0);
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
	if (s->notes_open) {
		switch (key) {
		case KEYS_ENTER:
		case '\r':
			return session_cmd(SESSION_CMD_NOTES_SUBMIT, 0, 0);
		case KEYS_ESC:
			return session_cmd(SESSION_CMD_NOTES_CLOSE, 0, 0);
		case KEYS_BACKSPACE:
		case '\b':
			return session_cmd(SESSION_CMD_NOTES_ERASE, 0, 0);
		default:
			/* Spectators read the notes; only players write them. */
			if (s->me >= 0 && ((key >= ' ' && key < 127) || (key >= 0xA0 && key < 0x110000)))
				return session_cmd(SESSION_CMD_NOTES_INPUT, key, 0);
			return session_cmd(SESSION_CMD_NONE, 0, 0);
		}
	}
	if (s->prompt) {
		switch (key) {
		case KEYS_ENTER:
		case '\r':
			return session_cmd(SESSION_CMD_PROMPT_SUBMIT, 0, 0);
		case '*':
			/* No move has a *: claim with the typed move. */
			return session_cmd(SESSION_CMD_CLAIM_DRAW, 0, 0);
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
	struct session_cmd c;
	if (s->menu) {
		c = session_menu_key(s, key);
		if (s->me < 0 && (session_cmds[c.kind].flags & SESSION_CMD_SEAT))
			c = session_cmd(SESSION_CMD_SPECTATING, 0, 0);
		return c;
	}
	if (s->promo) {
		switch (key) {
		case 'q': case 'Q': return session_cmd(SESSION_CMD_PROMOTE, QUEEN, 0);
		case 'r': case 'R': return session_cmd(SESSION_CMD_PROMOTE, ROOK, 0);
		case 'b': case 'B': return session_cmd(SESSION_CMD_PROMOTE, BISHOP, 0);
		case 'n': case 'N': return session_cmd(SESSION_CMD_PROMOTE, KNIGHT, 0);
		default: return session_cmd(SESSION_CMD_CANCEL, 0, 0);
		}
	}
	c = session_board_key(s, key);
	/* A spectator is told so for anything that needs a seat. */
	if (s->me < 0 && (session_cmds[c.kind].flags & SESSION_CMD_SEAT))
		c = session_cmd(SESSION_CMD_SPECTATING, 0, 0);
	return c;
}

unsigned session_apply(struct session *s, const struct session_cmd *c)
{
	unsigned dirty = 0;
	if (c->kind < 0 || c->kind >= SESSION_CMD_NB)
		return 0;
	const struct session_cmd_row *row = &session_cmds[c->kind];
	/* A command chosen in the menu closes it. */
	if (s->menu && c->kind != SESSION_CMD_MENU && c->kind != SESSION_CMD_NONE && c->kind != SESSION_CMD_RESIZE &&
	    c->kind != SESSION_CMD_REDRAW) {
		s->menu = false;
		dirty |= SESSION_DIRTY_ALL;
	}
	if (s->message[0] && !(row->flags & SESSION_CMD_KEEPS_MESSAGE)) {
		s->message[0] = '\0';
		dirty |= SESSION_DIRTY_STATUS;
	}
	if (s->gone && !(row->flags & SESSION_CMD_GONE_OK)) {
		char head[120], hint[160];
		session_gone_text(s, head, sizeof head, hint, sizeof hint);
		session_say(s, true, "%s: q quits", head);
		return dirty | SESSION_DIRTY_STATUS;
	}
	return dirty | row->run(s, c);
}
