/*
 * The play and watch screen on the terminal: its panes (board, info,
 * clocks, moves, message, status line), the help and notes overlays, and
 * the mouse turned into a session command. It only draws what the session
 * holds; the screen's logic (keys, replies, requests) is screen-play.c and
 * the loop is loop.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcurses.h"

#include "../clock-text.h"
#include "../corr.h"
#include "../keys.h"
#include "../material.h"
#include "../play-status.h"
#include "../text-wrap.h"
#include "board.h"
#include "draw.h"
#include "tchess/movegen.h"
#include "ui.h"
#include "util/xalloc.h"
#include "util/now.h"

enum ui_play_pane {
	PANE_BOARD,
	PANE_INFO,
	PANE_CLOCKS,
	PANE_MOVES,
	PANE_MESSAGE,
	PANE_STATUS,
	PANE_NB
};

struct ui_play {
	struct ui *ui;
	struct session *s;
	WINDOW *pane[PANE_NB];
	int press_sq;        /* square of the last mouse press, for drags */
};

static void ui_play_make_panes(struct ui_play *p)
{
	const struct session_layout *l = &p->s->layout;
	ui_draw_free_panes(p->pane, PANE_NB);
	if (l->too_small)
		return;
	p->pane[PANE_BOARD] = ui_draw_newwin(l->board.height, l->board.width, 0, 0);
	p->pane[PANE_INFO] = ui_draw_newwin(l->info_h, l->board.width, l->info_y, 0);
	p->pane[PANE_CLOCKS] = ui_draw_newwin(l->clocks_h, l->side_w, 0, l->side_x);
	p->pane[PANE_MOVES] = ui_draw_newwin(l->moves_h + 1, l->side_w, l->moves_y - 1, l->side_x);
	p->pane[PANE_MESSAGE] = ui_draw_newwin(1, l->w, l->message_y, 0);
	p->pane[PANE_STATUS] = ui_draw_newwin(1, l->w, l->status_y, 0);
}

static const char *ui_play_name(const struct session *s, int c, char *buf, size_t size)
{
	const struct fold_seat *seat = &s->view.seats[c];
	switch (seat->kind) {
	case FOLD_SEAT_HUMAN:
		snprintf(buf, size, "%s", seat->name);
		break;
	case FOLD_SEAT_ENGINE:
		snprintf(buf, size, "engine level %d", seat->level);
		break;
	default:
		snprintf(buf, size, "(waiting)");
		break;
	}
	return buf;
}

static void ui_play_draw_clocks(struct ui_play *p, WINDOW *w)
{
	const struct session *s = p->s;
	int width = getmaxx(w);
	int64_t now = now_mono_ms();
	struct position pos;
	struct material m;
	char line[160], name[64], clk[CLOCK_TEXT_MAX], mat[160];

	werase(w);
	session_position(s, &pos);
	material_count(&pos, &m);
	/* The top row is the player at the top of the board. */
	int top = s->flipped ? WHITE : BLACK;
	for (int row = 0; row < 2; row++) {
		int c = row == 0 ? top : !top;
		int64_t ms = session_clock_ms(s, c, now);
		bool running = session_clock_running(s, c);
		if (ms >= (INT64_C(1) << 52))
			snprintf(clk, sizeof clk, "-:--");
		else
			clock_text_format(ms, clk);
		snprintf(line, sizeof line, "%s %s%s", board_view_glyph(c == WHITE ? W_KING : B_KING, s->ascii, false),
			 ui_play_name(s, c, name, sizeof name), c == s->me && !s->hotseat ? " (you)" : "");
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
		ui_draw_put(w, row, 0, line, width - 10);
		int right = width - (int)strlen(clk) - 2;
		/* The material between the name and the clock, a blank each
		 * side, or as much of it as fits there. */
		int name_end = ui_draw_cols(line) < width - 10 ? ui_draw_cols(line) : width - 10;
		int mat_w = material_text(&m, (enum color)c, s->ascii, right - 3 - name_end, mat, sizeof mat);
		wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
		/* A blank between it and the clock's '>' marker ("+1 >3:53"). */
		if (mat_w > 0)
			mvwaddstr(w, row, right - 2 - mat_w, mat);
		int a = ui_attr(p->ui, THEME_TEXT, -1);
		bool low = session_clock_low(s, c, now);
		if (low)
			a = ui_attr(p->ui, THEME_CLOCK_LOW, -1) | A_BOLD;
		if (running)
			a |= A_REVERSE;
		wattrset(w, a);
		/* A '>' marks the running clock without colour, too; a '!'
		 * low time, where the theme has no colour to show it. */
		mvwaddstr(w, row, right - 1, running ? ">" : low && !p->ui->ncolors ? "!" : " ");
		mvwaddstr(w, row, right, clk);
	}
	wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
	const char *rules = s->lichess ? s->lichess_about : s->view.game.rules.name;
	if (s->view.created && s->view.game.rules.premove_depth > 1)
		snprintf(line, sizeof line, "%.40s  %.24s  premoves %d", s->view.tc, rules,
			 s->view.game.rules.premove_depth);
	else if (s->view.created)
		snprintf(line, sizeof line, "%.100s  %.40s", s->view.tc, rules);
	else
		snprintf(line, sizeof line, "connecting...");
	ui_draw_put(w, 2, 0, line, width);
	/* A correspondence game's absolute deadline, on the server's clock. */
	if (s->view.created && s->have_reading && s->reading.deadline_ms != INT64_MAX &&
	    s->view.clock.tc.kind == TC_CORRESPONDENCE && !session_over(s)) {
		char due[CORR_TEXT_MAX];
		corr_deadline_text(s->reading.deadline_ms, session_server_ms(s, now), width,
				   due, sizeof due);
		ui_draw_put(w, 3, 0, due, width);
	}
	/* The first-move rule, counting down: the server aborts the game
	 * when it runs out. */
	int side;
	int64_t first = session_first_move_ms(s, now, &side);
	if (first >= 0) {
		long long secs = (first + 999) / 1000;
		/* The longest wording that fits the pane (29 columns beside
		 * the large pieces at 120 columns, 37 at 80). */
		const char *who = side == WHITE ? "White" : "Black";
		if (side == s->me) {
			snprintf(line, sizeof line, "first move within %lld s, or aborted", secs);
			if (ui_draw_cols(line) > width)
				snprintf(line, sizeof line, "first move in %lld s or aborted", secs);
			if (ui_draw_cols(line) > width)
				snprintf(line, sizeof line, "first move: %lld s", secs);
		} else {
			snprintf(line, sizeof line, "%s's first move: %lld s left", who, secs);
			if (ui_draw_cols(line) > width)
				snprintf(line, sizeof line, "%s's first move: %lld s", who, secs);
		}
		wattrset(w, ui_attr(p->ui, secs <= 10 ? THEME_CLOCK_LOW : THEME_TEXT, -1) | (side == s->me ? A_BOLD : 0));
		ui_draw_put(w, 3, 0, line, width);
	}
	wattrset(w, A_NORMAL);
}

static void ui_play_draw_moves(struct ui_play *p, WINDOW *w)
{
	const struct session *s = p->s;
	const struct movelist *ml = &s->ml;
	int height = getmaxy(w), width = getmaxx(w);
	size_t n = s->view.created ? s->view.game.n_plies : 0;
	char num[16], extra_san[SAN_MAX + 2];
	bool extra = session_extra_move(s, extra_san, sizeof extra_san);

	werase(w);
	wattrset(w, ui_attr(p->ui, THEME_HEADING, -1));
	ui_draw_hline(w, 0, width, s->ascii);
	for (int y = 1; y < height; y++) {
		int row = s->ml_top + y - 1;
		if (row >= ml->rows)
			break;
		wattrset(w, ui_attr(p->ui, THEME_COORDINATES, -1));
		movelist_number(ml, row, num);
		mvwaddstr(w, y, 0, num);
		for (int col = 0; col < 2; col++) {
			long ply = movelist_ply_at(ml, row, col);
			int x = col ? ml->x_black : ml->x_white;
			if (ply < 0) {
				if (row == 0 && col == 0 && ml->offset)
					mvwaddstr(w, y, x, "...");
				continue;
			}
			const char *san = (size_t)ply < n ? s->san[ply] : extra_san;
			bool last = (size_t)ply + 1 == n + (extra ? 1 : 0);
			int a = last ? ui_attr(p->ui, THEME_CURRENT_MOVE_FG, THEME_CURRENT_MOVE_BG) | (int)A_BOLD
				     : ui_attr(p->ui, THEME_TEXT, -1);
			wattrset(w, a);
			ui_draw_put(w, y, x, san, ml->san_w - 1);
		}
	}
	wattrset(w, A_NORMAL);
}

/* text wrapped at width from row y down to the pane's last row; returns
 * the row after it. */
static int ui_play_put_wrapped(WINDOW *w, int y, const char *text, int width)
{
	char line[200];
	const char *next;
	size_t len;
	while (y < getmaxy(w) && (len = text_wrap_line(text, width, &next)) > 0) {
		snprintf(line, sizeof line, "%.*s", (int)len, text);
		ui_draw_put(w, y++, 0, line, width);
		text = next;
	}
	return y;
}

static void ui_play_draw_info(struct ui_play *p, WINDOW *w)
{
	const struct session *s = p->s;
	int width = getmaxx(w);
	char line[200], res[64], series[160];
	struct position pos;
	bool in_series = session_series_text(s, series, sizeof series);

	werase(w);
	wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
	session_position(s, &pos);
	if (s->gone) {
		/* The game cannot be followed any more: why, what to do, and
		 * the way out. */
		char head[120], hint[160];
		session_gone_text(s, head, sizeof head, hint, sizeof hint);
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
		int y = ui_play_put_wrapped(w, 0, head, width);
		wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
		ui_play_put_wrapped(w, y, hint, width);
		wattrset(w, A_NORMAL);
		return;
	}
	if (!s->view.created) {
		snprintf(line, sizeof line, "connecting to the game...");
	} else if (session_over(s)) {
		/* The game-over panel: result, why, and what can be done now. */
		char why[160], outcome[64], head[140];
		session_result_text(s, res, sizeof res);
		session_end_text(s, why, sizeof why);
		/* Said plainly first: "You won: 1-0 checkmate". */
		session_outcome_text(s, outcome, sizeof outcome);
		snprintf(head, sizeof head, "%s: %s", outcome, res);
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
		ui_draw_put(w, 0, 0, head, width);
		wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
		ui_draw_put(w, 1, 0, why, width);
		const char *no_rematch;
		/* The same keys, in the same order, as the status line's. */
		char keys[96];
		snprintf(keys, sizeof keys, "%s%ss save PGN%s", session_rematch_possible(s, &no_rematch) ? "r rematch   " : "",
			 session_new_game_possible(s) ? "n new game   " : "", s->saved ? " (saved)" : "");
		snprintf(line, sizeof line, "%s   j notes   q quit", keys);
		/* On one row where it fits (not beside 80 columns' board):
		 * else the game's keys, then the notes' and quit, whole. */
		int row = 2;
		if (ui_draw_cols(line) <= width) {
			ui_draw_put(w, row++, 0, line, width);
		} else {
			ui_draw_put(w, row++, 0, keys, width);
			ui_draw_put(w, row++, 0, "j notes   q quit", width);
		}
		if (in_series)
			ui_draw_put(w, row, 0, series, width);
		wattrset(w, A_NORMAL);
		return;
	} else if (!s->view.started) {
		snprintf(line, sizeof line, "waiting for an opponent");
	} else if (s->me < 0) {
		snprintf(line, sizeof line, "spectating: %s to move%s", session_turn(s) == WHITE ? "White" : "Black",
			 position_in_check(&pos) ? ", check" : "");
	} else if (session_my_turn(s)) {
		if (s->hotseat)
			snprintf(line, sizeof line, "%s to move%s", s->me == WHITE ? "White" : "Black",
				 position_in_check(&pos) ? ", check!" : "");
		else
			snprintf(line, sizeof line, "your move%s", position_in_check(&pos) ? ", check!" : "");
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
	} else if (session_provisional_mine(s) && !session_undo_sent(s, NULL)) {
		snprintf(line, sizeof line, "your move (provisional): d when done, u takes back");
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
	} else {
		snprintf(line, sizeof line, "%s to move%s", session_turn(s) == WHITE ? "White" : "Black",
			 s->premoves.n ? "" : " (moves you make now are premoves)");
	}
	/* Wrapped, not cut, where the board is narrow: the premoves and the
	 * series move down a row. */
	int y = ui_draw_put_wrapped(w, 0, 0, line, width, getmaxy(w) > 3 ? 2 : 1, s->ascii);
	wattrset(w, ui_attr(p->ui, THEME_TEXT, -1));
	if (session_premoves_text(s, line, sizeof line))
		ui_draw_put_fit(w, y++, 0, line, width, s->ascii);
	if (in_series)
		ui_draw_put_fit(w, y, 0, series, width, s->ascii);
	wattrset(w, A_NORMAL);
}

static void ui_play_draw_message(struct ui_play *p, WINDOW *w)
{
	const struct session *s = p->s;
	int width = getmaxx(w);
	char line[400];
	werase(w);
	if (s->prompt) {
		wattrset(w, ui_attr(p->ui, THEME_HEADING, -1) | A_BOLD);
		/* What Tab listed (or why not) replaces the hint. */
		if (s->message[0])
			snprintf(line, sizeof line, "move: %s_   %s", s->prompt_text, s->message);
		else
			snprintf(line, sizeof line, "move: %s_   (Tab lists, Enter plays, * claims a draw with it, Esc cancels)",
				 s->prompt_text);
	} else {
		wattrset(w, ui_draw_message_attr(p->ui, s->message_error));
		snprintf(line, sizeof line, "%s", s->message[0] || s->view.started ? s->message : s->note);
	}
	/* Shortened at a word, not cut mid-word ("...no f"). */
	ui_draw_put_fit(w, 0, 0, line, width, s->ascii);
	wattrset(w, A_NORMAL);
}

static void ui_play_draw_status(struct ui_play *p, WINDOW *w)
{
	int width = getmaxx(w);
	char line[400];

	ui_draw_status_bar(p->ui, w);
	play_status_line(p->s, width, line, sizeof line);
	ui_draw_put(w, 0, 0, line, width);
	wattrset(w, A_NORMAL);
}

static const char *const ui_play_help_text[] = {
	"tchess play: keys (on the opponent's move, moves are premoves)",
	"  a-h K Q R B N O     a letter a move starts with types the move",
	"  / :                 the move prompt: SAN or UCI, any case (nf3, E1G1)",
	"  Tab  *              at the prompt: list the moves / claim a draw with it",
	"  arrows              move the cursor",
	"  Enter  Space        pick up / put down (the king on its rook castles)",
	"  m  Esc              the action menu: r resign, c claim a draw, q leave",
	"  q r b n  Esc        promotion piece / put the piece back",
	"  x                   clear your premoves",
	"  =  W                offer a draw / withdraw your offer",
	"  +  -                accept / decline the opponent's offer or request",
	"  T  X                claim a tablebase draw / abort (asks first)",
	"  P                   ask to adjourn / to resume",
	"  V                   opponent gone: claim the win / their discard",
	"  u  d                undo games: take back / done (commit the move)",
	"  j  t                notes (private until the end) / turn the board",
	"  PgUp PgDn  Ctrl-L   scroll the move list / redraw",
	"  after the game      r rematch  n new game  s save PGN  j notes  q quit",
	NULL,
};

/* The action menu: its rows, over the board. */
static void ui_play_draw_menu(struct ui_play *p)
{
	const struct session *s = p->s;
	size_t n;
	const struct session_menu_item *items = session_menu_items(&n);
	enum { MENU_ROWS = 24 };
	char rows[MENU_ROWS][80];
	const char *text[MENU_ROWS + 2];
	size_t k = 0;
	text[k++] = "actions: press a key (Esc closes)";
	for (size_t i = 0; i < n && k < MENU_ROWS; i++, k++) {
		snprintf(rows[i], sizeof rows[i], "  %c   %s", items[i].key, items[i].label);
		text[k] = rows[i];
	}
	text[k] = NULL;
	ui_draw_help(p->ui, text, NULL, 50, s->layout.w, s->layout.h, s->ascii);
}

/* The notes pane: the notes so far (mine while the game runs, everyone's
 * once revealed), newest at the bottom, and the editor line. */
static void ui_play_draw_notes(struct ui_play *p)
{
	const struct session *s = p->s;
	const struct session_layout *l = &s->layout;
	int w = l->w > 76 ? 76 : l->w, h = l->h - 4 > 6 ? l->h - 4 : l->h;
	char line[SESSION_NOTE_MAX + 64];
	WINDOW *win = newwin(h, w, (l->h - h) / 2, (l->w - w) / 2);
	if (!win)
		return;
	wattrset(win, ui_attr(p->ui, THEME_STATUS_FG, THEME_STATUS_BG));
	werase(win);
	ui_draw_box(win, s->ascii);
	if (s->lichess)
		snprintf(line, sizeof line, "chat (Lichess's player room: your opponent reads it)");
	else
		snprintf(line, sizeof line, "notes %s",
			 s->notes_revealed ? "(revealed: the game is over)"
			 : s->me < 0	   ? ""
					   : "(only you see them until the game ends)");
	ui_draw_put(win, 1, 2, line, w - 4);
	int rows = h - 5; /* border, title, blank, editor */
	size_t first = s->n_notes > (size_t)(rows > 0 ? rows : 0) ? s->n_notes - (size_t)rows : 0;
	for (size_t i = first; i < s->n_notes; i++) {
		const struct session_note *n = &s->notes[i];
		const char *who = n->color == s->me && s->me >= 0 ? "you"
				  : n->color == WHITE		  ? "White"
				  : n->color == BLACK		  ? "Black"
								  : "note";
		/* A chat line carries its writer's name. */
		if (s->lichess)
			snprintf(line, sizeof line, "%s", n->text);
		else
			snprintf(line, sizeof line, "%s: %s", who, n->text);
		ui_draw_put(win, 3 + (int)(i - first), 2, line, w - 4);
	}
	if (s->n_notes == 0)
		ui_draw_put(win, 3, 2, s->lichess ? "(nothing said yet)" : "(no notes yet)", w - 4);
	if (s->me >= 0) {
		/* The end of a long note stays in view while it is typed. */
		const char *shown = s->note_text;
		size_t room = (size_t)(w > 10 ? w - 8 : 2);
		if (strlen(shown) > room) {
			shown += strlen(shown) - room;
			while ((*shown & 0xC0) == 0x80)
				shown++;
		}
		snprintf(line, sizeof line, "> %s_", shown);
		wattrset(win, ui_attr(p->ui, THEME_STATUS_FG, THEME_STATUS_BG) | A_BOLD);
		ui_draw_put(win, h - 2, 2, line, w - 4);
	}
	wattrset(win, ui_attr(p->ui, THEME_STATUS_FG, THEME_STATUS_BG));
	snprintf(line, sizeof line, "%s", s->me >= 0 ? " Enter sends, Esc closes " : " Esc closes ");
	ui_draw_put(win, h - 1, w - 2 - (int)strlen(line), line, (int)strlen(line));
	wnoutrefresh(win);
	delwin(win);
}

void ui_play_draw(struct ui_play *p, unsigned dirty)
{
	struct session *s = p->s;
	const struct session_layout *l = &s->layout;
	if (dirty & SESSION_DIRTY_CLEAR) {
		erase();
		wnoutrefresh(stdscr);
	}
	if (l->too_small) {
		ui_draw_too_small(l->w, l->h, "tchess play", SESSION_MIN_WIDTH, SESSION_MIN_HEIGHT);
		return;
	}
	if ((dirty & SESSION_DIRTY_BOARD) && p->pane[PANE_BOARD]) {
		struct board_view v;
		session_board_view(s, &v);
		ui_board_draw(p->ui, p->pane[PANE_BOARD], &l->board, &v);
		wnoutrefresh(p->pane[PANE_BOARD]);
	}
	struct {
		unsigned bit;
		int pane;
		void (*draw)(struct ui_play *, WINDOW *);
	} panes[] = {
		{ SESSION_DIRTY_INFO, PANE_INFO, ui_play_draw_info },
		{ SESSION_DIRTY_CLOCKS, PANE_CLOCKS, ui_play_draw_clocks },
		{ SESSION_DIRTY_MOVES, PANE_MOVES, ui_play_draw_moves },
		{ SESSION_DIRTY_STATUS, PANE_MESSAGE, ui_play_draw_message },
		{ SESSION_DIRTY_STATUS, PANE_STATUS, ui_play_draw_status },
	};
	for (size_t i = 0; i < sizeof panes / sizeof panes[0]; i++) {
		WINDOW *w = p->pane[panes[i].pane];
		if ((dirty & panes[i].bit) && w) {
			panes[i].draw(p, w);
			wnoutrefresh(w);
		}
	}
	/* An overlay goes on top of whatever pane was drawn in this pass
	 * (the clocks every second too): drawn last, it stays whole. */
	if (s->help && dirty) {
		/* The whole id, which the status line shortens. */
		char footer[PROTOCOL_GAME_ID_MAX + 16];
		snprintf(footer, sizeof footer, " game %s ", s->game_id);
		ui_draw_help(p->ui, ui_play_help_text, footer, 74, l->w, l->h, s->ascii);
	}
	if (s->notes_open && dirty)
		ui_play_draw_notes(p);
	if (s->menu && dirty)
		ui_play_draw_menu(p);
}

/* A mouse event: a press picks or drops; a release on another square
 * finishes a drag. */
struct session_cmd ui_play_mouse(struct ui_play *p)
{
	MEVENT ev;
	const struct session *s = p->s;
	const struct session_layout *l = &s->layout;
	struct session_cmd none = { SESSION_CMD_NONE, 0, 0 };
	if (getmouse(&ev) != OK || l->too_small)
		return none;
	int sq = SQ_NONE;
	if (ev.y < l->board.height && ev.x < l->board.width)
		sq = board_view_square_at_cell(&l->board, s->flipped, ev.x, ev.y);
	if (sq == SQ_NONE)
		return none;
	struct session_cmd c = { SESSION_CMD_CLICK, sq, 0 };
	if (ev.bstate & BUTTON1_PRESSED) {
		p->press_sq = sq;
		return c;
	}
	if ((ev.bstate & BUTTON1_RELEASED) && sq != p->press_sq && s->selected != SQ_NONE) {
		p->press_sq = SQ_NONE;
		return c;
	}
	if (ev.bstate & BUTTON1_CLICKED)
		return c;
	return none;
}

struct ui_play *ui_play_new(struct ui *ui, struct session *s)
{
	struct ui_play *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->s = s;
	p->press_sq = SQ_NONE;
	return p;
}

void ui_play_free(struct ui_play *p)
{
	if (!p)
		return;
	ui_draw_free_panes(p->pane, PANE_NB);
	free(p);
}

void ui_play_layout(struct ui_play *p)
{
	ui_play_make_panes(p);
}
