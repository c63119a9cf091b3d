/*
 * The review screens on the terminal: the game list, and the game with
 * its board, info, tags, move list, comment and status panes. Each pane
 * has its own window and is drawn only when review_apply() marked it
 * dirty; the loop (loop.c) flushes once per pass. The screen's logic
 * is screen-review.c; nothing changes in a review unless a key arrives,
 * so it asks for no tick and an idle review costs no CPU.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcurses.h"

#include "../clock-text.h"
#include "../keys.h"
#include "../eval-graph.h"
#include "../material.h"
#include "../text-wrap.h"
#include "tchess/movegen.h"
#include "board.h"
#include "draw.h"
#include "util/xalloc.h"
#include "ui.h"

enum ui_review_pane {
	PANE_BOARD,
	PANE_INFO,
	PANE_TAGS,
	PANE_MOVES,
	PANE_COMMENT,
	PANE_STATUS,
	PANE_LIST,
	PANE_BAR,
	PANE_NB
};

struct ui_review {
	struct ui *ui;
	struct review *r;
	WINDOW *pane[PANE_NB];
};

static void ui_review_make_panes(struct ui_review *s)
{
	const struct review_layout *l = &s->r->layout;
	ui_draw_free_panes(s->pane, PANE_NB);
	if (l->too_small)
		return;
	s->pane[PANE_BOARD] = ui_draw_newwin(l->board.height, l->board.width, 0, 0);
	s->pane[PANE_INFO] = ui_draw_newwin(l->info_h, l->board.width, l->info_y, 0);
	s->pane[PANE_TAGS] = ui_draw_newwin(l->tags_h + 1, l->side_w, l->tags_y, l->side_x);
	s->pane[PANE_MOVES] = ui_draw_newwin(l->moves_h, l->side_w, l->moves_y, l->side_x);
	s->pane[PANE_COMMENT] = ui_draw_newwin(l->comment_h, l->side_w, l->comment_y, l->side_x);
	s->pane[PANE_STATUS] = ui_draw_newwin(1, l->w, l->status_y, 0);
	s->pane[PANE_LIST] = ui_draw_newwin(l->h - 1, l->w, 0, 0);
	if (l->bar_h > 0 && l->bar_x < l->side_x)
		s->pane[PANE_BAR] = ui_draw_newwin(l->bar_h, 1, l->bar_y, l->bar_x);
}

static const char *ui_review_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static void ui_review_draw_tags(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	int width = getmaxx(w);
	char line[256], clk[CLOCK_TEXT_MAX];
	struct material m;

	werase(w);
	material_count(&r->positions[r->ply], &m);
	for (int row = 0; row < 2; row++) {
		/* Each name on the side of its pieces: Black's on top unless
		 * the board is flipped. */
		enum color c = review_header_color(r, row);
		char mat[160], player[128];
		int64_t ms = review_clock_of(r, c);
		const char *glyph = board_view_glyph(c == WHITE ? W_KING : B_KING, r->ascii, false);
		review_player_text(r, c, player, sizeof player);
		snprintf(line, sizeof line, "%s %s", glyph, player);
		wattrset(w, ui_attr(s->ui, THEME_HEADING, -1) | A_BOLD);
		ui_draw_put(w, row, 0, line, width);
		wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
		int right = width;
		if (ms >= 0) {
			clock_text_format(ms, clk);
			right -= (int)strlen(clk);
			if (right > 0)
				mvwaddstr(w, row, right, clk);
			right--;
		}
		/* The material keeps clear of the name. */
		int used = ui_draw_cols(line) + 1;
		if (used < 21)
			used = 21;
		int mat_w = material_text(&m, c, r->ascii, right - used, mat, sizeof mat);
		if (mat_w > 0)
			mvwaddstr(w, row, right - mat_w, mat);
	}
	review_event_text(ui_review_or(r->game.event, "?"), r->game.date, ui_review_or(r->game.result, "*"), width, r->ascii, line,
			  sizeof line);
	wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
	ui_draw_put(w, 2, 0, line, width);
	/* The opening, and the time control at the right. */
	char opening[160], tc[48] = "";
	int room = width;
	if (r->game.time_control && *r->game.time_control && strcmp(r->game.time_control, "?")) {
		snprintf(tc, sizeof tc, "%.40s", r->game.time_control);
		room -= (int)strlen(tc) + 2;
		if (room > 8)
			mvwaddstr(w, 3, width - (int)strlen(tc), tc);
		else
			room = width;
	}
	review_opening_text(r, opening, sizeof opening);
	if (opening[0] && room > 0) {
		text_wrap_fit(opening, room, r->ascii ? "..." : "\u2026", line, sizeof line);
		ui_draw_put(w, 3, 0, line, room);
	}
	wattrset(w, A_NORMAL);
}

static void ui_review_draw_moves(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	const struct review_moves *ml = &r->ml;
	const struct review_move *cur = r->ply ? review_move_at(r, r->ply - 1) : NULL;
	int height = getmaxy(w), width = getmaxx(w);

	werase(w);
	for (int y = 0; y < height; y++) {
		int row = r->ml_top + y;
		if (row >= ml->n_rows)
			break;
		const struct review_row *rw = &ml->rows[row];
		if (rw->num[0]) {
			wattrset(w, ui_attr(s->ui, THEME_COORDINATES, -1));
			mvwaddstr(w, y, 0, rw->num);
		}
		for (size_t k = 0; k < rw->n; k++) {
			const struct review_cell *c = &ml->cells[rw->first + k];
			/* Side lines in the comment colour, the current move
			 * selected and marked '>' so it shows without colour or
			 * reverse video (and in screen captures). */
			bool current = c->mv && c->mv == cur;
			int a = current ? ui_draw_selected_attr(s->ui)
				: ui_attr(s->ui, rw->own ? THEME_PREMOVE : rw->depth ? THEME_COMMENT : THEME_TEXT, -1);
			if (current)
				mvwaddch(w, y, c->x - 1, '>');
			wattrset(w, a);
			int room = width - c->x;
			if (rw->depth == 0 && k + 1 < rw->n)
				room = ml->cells[rw->first + k + 1].x - c->x - 1;
			ui_draw_put(w, y, c->x, c->text, room);
		}
	}
	if (ml->n_rows == 0) {
		wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
		mvwaddstr(w, 0, 0, "(no moves)");
	}
	wattrset(w, A_NORMAL);
}

static void ui_review_draw_comment(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	int width = getmaxx(w), height = getmaxy(w);
	char line[64], clk[CLOCK_TEXT_MAX];

	werase(w);
	wattrset(w, ui_attr(s->ui, THEME_HEADING, -1) | A_BOLD);
	ui_draw_hline(w, 0, width, r->ascii);
	const struct review_move *mv = r->ply ? review_move_at(r, r->ply - 1) : NULL;
	if (mv) {
		const struct position *before = &r->positions[r->ply - 1];
		char san[REVIEW_SAN_TEXT_MAX];
		review_san_text(mv, r->ascii, san, sizeof san);
		snprintf(line, sizeof line, " %d.%s%s ", before->fullmove, before->side == WHITE ? "" : "..", san);
		mvwaddstr(w, 0, 1, line);
		if (mv->clock_ms >= 0) {
			clock_text_format(mv->clock_ms, clk);
			snprintf(line, sizeof line, " clock %s ", clk);
			if (width - (int)strlen(line) - 1 > 16)
				mvwaddstr(w, 0, width - (int)strlen(line) - 1, line);
		}
	} else {
		mvwaddstr(w, 0, 1, " start ");
	}
	/* The engine's best lines for the position, then what it says of the
	 * move, the side line's own opening comment, the NAGs that are not
	 * move marks, then the move's comment. */
	int y = 1;
	if (r->tb_text[0]) {
		wattrset(w, ui_attr(s->ui, THEME_HEADING, -1) | (int)A_BOLD);
		y += ui_draw_put_wrapped(w, y, 0, r->tb_text, width, height - y > 2 ? 2 : height - y, r->ascii);
	}
	if (r->engine_on) {
		char lines[ENGINE_MULTIPV_MAX][160];
		int n = review_engine_lines(r, width, lines);
		wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
		for (int k = 0; k < n && y < height; k++)
			ui_draw_put(w, y++, 0, lines[k], width);
		if (n == 0 && y < height)
			ui_draw_put(w, y++, 0, r->engine_starting ? r->engine_note : "(the engine is thinking)", width);
	}
	char nags[256] = "", advice[96];
	if (mv)
		review_nag_text(mv, r->ascii, nags, sizeof nags);
	char ended[400];
	review_rules_end_text(r, ended, sizeof ended);
	if (!ended[0])
		review_read_error_text(r, ended, sizeof ended);
	if (ended[0] && y < height) {
		wattrset(w, ui_attr(s->ui, THEME_HEADING, -1) | (int)A_BOLD);
		y += ui_draw_put_wrapped(w, y, 0, ended, width, height - y, r->ascii);
	}
	review_engine_advice(r, advice, sizeof advice);
	if (advice[0] && y < height) {
		wattrset(w, ui_attr(s->ui, THEME_CLOCK_LOW, -1) | (int)A_BOLD);
		ui_draw_put(w, y++, 0, advice, width);
	}
	const char *texts[] = { review_line_comment(r), nags, review_comment(r) };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		const char *text = texts[i];
		wattrset(w, ui_attr(s->ui, i == 1 ? THEME_HEADING : THEME_COMMENT, -1));
		for (; text && *text && y < height; y++) {
			size_t next, n = review_wrap(text, width, &next);
			char buf[512];
			snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), text);
			ui_draw_put(w, y, 0, buf, width);
			text += next;
		}
	}
	wattrset(w, A_NORMAL);
}

/* The evaluation graph of the line followed, from the rows
 * r->layout.graph_y of the info pane w: the winning chances of each
 * position, the judged moves dotted and the current ply's column in
 * reverse video with '^' under it. */
static void ui_review_draw_graph(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	const struct review_layout *l = &r->layout;
	int width = getmaxx(w);
	static struct eval_graph g;
	if (l->graph_h < 1 || getmaxy(w) < l->graph_y + l->graph_h + 1)
		return;
	if (!review_has_evals(r)) {
		wattrset(w, ui_attr(s->ui, THEME_COMMENT, -1));
		ui_draw_put(w, l->graph_y, 0, "no evaluations in this game", width);
		return;
	}
	size_t n = r->n_line + 1;
	double *wc = xcalloc(n, sizeof *wc);
	enum analysis_judgement *judged = xcalloc(n, sizeof *judged);
	for (size_t i = 0; i < n; i++) {
		const struct pgn_eval *e = review_eval_at(r, i);
		wc[i] = e ? analysis_winning_chances(e) : NAN;
		judged[i] = review_judgement_at(r, i);
	}
	/* The start position counts as level when the game's evaluations
	 * begin after it. */
	if (isnan(wc[0]) && r->ply == 0)
		wc[0] = 0;
	eval_graph_render(&g, wc, judged, n, r->ply, width, l->graph_h, r->ascii);
	int text = ui_attr(s->ui, THEME_TEXT, -1), rev = (int)A_REVERSE, bold = (int)A_BOLD;
	for (int y = 0; y < g.height; y++)
		for (int x = 0; x < g.width; x++) {
			wattrset(w, x == g.current ? text | rev : text);
			mvwaddstr(w, l->graph_y + y, x, g.cells[y][x]);
		}
	for (int x = 0; x < g.width; x++) {
		enum analysis_judgement j = ANALYSIS_NONE;
		for (size_t i = 0; i < n; i++)
			if (eval_graph_column(i, n, width, r->ascii) == x && judged[i] > j)
				j = judged[i];
		int a = j == ANALYSIS_BLUNDER ? ui_attr(s->ui, THEME_CLOCK_LOW, -1) | bold
			: j ? ui_attr(s->ui, THEME_HEADING, -1) : text;
		wattrset(w, x == g.current ? a | rev : a);
		mvwaddstr(w, l->graph_y + g.height, x, g.marks[x]);
	}
	free(wc);
	free(judged);
}

/* The evaluation bar beside the board: White's share from White's side. */
static void ui_review_draw_bar(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	int rows = getmaxy(w);
	char cells[64][EVAL_CELL];
	werase(w);
	const struct pgn_eval *e = review_eval_at(r, r->ply);
	if (!e || rows > 64)
		return;
	eval_bar_render(analysis_winning_chances(e), rows, r->flipped, r->ascii, cells);
	wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
	for (int y = 0; y < rows; y++)
		mvwaddstr(w, y, 0, cells[y]);
	wattrset(w, A_NORMAL);
}

static void ui_review_draw_info(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	const struct position *p = &r->positions[r->ply];
	int width = getmaxx(w);
	char line[160];

	werase(w);
	wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
	if (r->ply)
		snprintf(line, sizeof line, "ply %zu/%zu, after %d.%s%s", r->ply, r->n_line,
			 r->positions[r->ply - 1].fullmove, r->positions[r->ply - 1].side == WHITE ? "" : "..",
			 review_move_at(r, r->ply - 1)->san);
	else
		snprintf(line, sizeof line, "ply 0/%zu, start position", r->n_line);
	ui_draw_put(w, 0, 0, line, width);
	const char *state = "";
	if (movegen_is_checkmate(p))
		state = ", checkmate";
	else if (movegen_is_stalemate(p))
		state = ", stalemate";
	else if (position_in_check(p))
		state = ", check";
	snprintf(line, sizeof line, "%s to move%s", p->side == WHITE ? "White" : "Black", state);
	ui_draw_put(w, 1, 0, line, width);
	/* The shown position's evaluation at the right of that row. */
	const struct pgn_eval *ev = review_eval_at(r, r->ply);
	if (ev) {
		char num[24];
		review_eval_text(ev, num, sizeof num);
		snprintf(line, sizeof line, "eval %s", num);
		int x = width - ui_draw_cols(line);
		if (x > ui_draw_cols(state) + 15)
			ui_draw_put(w, 1, x, line, width - x);
	}
	int y = 2;
	if (r->engine_on && r->engine_note[0] && getmaxy(w) > y) {
		/* The pass's progress, or the depth once done, at the right. */
		int x = width - ui_draw_cols(r->engine_note);
		wattrset(w, ui_attr(s->ui, THEME_COMMENT, -1));
		if (x > 0)
			ui_draw_put(w, y, x, r->engine_note, width - x);
		wattrset(w, ui_attr(s->ui, THEME_TEXT, -1));
	}
	if (r->depth > 0 && getmaxy(w) > y) {
		review_line_text(r, line, sizeof line);
		ui_draw_put(w, y++, 0, line, width);
	} else if (r->ply == r->n_line && r->game.result && getmaxy(w) > y) {
		snprintf(line, sizeof line, "end of game: %s", r->game.result);
		ui_draw_put(w, y++, 0, line, width);
	}
	ui_review_draw_graph(s, w);
	wattrset(w, A_NORMAL);
}

static void ui_review_draw_status(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	int width = getmaxx(w);
	char line[512];

	ui_draw_status_bar(s->ui, w);
	if (r->prompt && r->prompt_move)
		snprintf(line, sizeof line, "your move: %s_   (SAN or UCI; Enter play, Esc cancel)", r->prompt_text);
	else if (r->prompt)
		snprintf(line, sizeof line, "go to ply: %s_   (Enter go, Esc cancel)", r->prompt_text);
	else if (r->message[0])
		snprintf(line, sizeof line, "%s", r->message);
	else if (r->screen == REVIEW_SCREEN_LIST)
		snprintf(line, sizeof line, "%s: %zu games   Enter open  j/k move  ? help  q quit", r->file_name,
			 r->n_entries);
	else
		snprintf(line, sizeof line, "%s game %zu/%zu%s   <-/-> step  v/u side line  a engine  ? help",
			 r->file_name, r->game_index + 1, r->n_entries ? r->n_entries : 1,
			 r->flipped ? " (Black's view)" : "");
	ui_draw_put(w, 0, 0, line, width);
	wattrset(w, A_NORMAL);
}

static void ui_review_draw_list(struct ui_review *s, WINDOW *w)
{
	const struct review *r = s->r;
	int width = getmaxx(w), height = getmaxy(w);
	char line[512];

	werase(w);
	wattrset(w, ui_attr(s->ui, THEME_HEADING, -1) | A_BOLD);
	snprintf(line, sizeof line, "%-5s %-18s %-18s %-7s %-5s %s", "#", "White", "Black", "Result", "Plies",
		 "Event, Date");
	ui_draw_put(w, 0, 0, line, width);
	for (int y = 1; y < height; y++) {
		size_t i = (size_t)(r->list_top + y - 1);
		if (i >= r->n_entries)
			break;
		const struct review_entry *e = &r->entries[i];
		bool sel = i == r->list_sel;
		int a = sel ? ui_draw_selected_attr(s->ui) : ui_attr(s->ui, THEME_TEXT, -1);
		wattrset(w, a);
		if (e->error[0])
			snprintf(line, sizeof line, "%c%-4zu (unreadable: %s)", sel ? '>' : ' ', i + 1, e->error);
		else {
			/* The event column ends at the screen's edge on a
			 * word, not in one. */
			int n = snprintf(line, sizeof line, "%c%-4zu %-18.18s %-18.18s %-7s %-5zu ", sel ? '>' : ' ',
					 i + 1, e->white, e->black, e->result, e->plies);
			if (n > 0 && (size_t)n < sizeof line)
				review_event_text(e->event, e->date, NULL, width - ui_draw_cols(line), r->ascii,
						  line + n, sizeof line - (size_t)n);
		}
		mvwhline(w, y, 0, ' ', width);
		ui_draw_put(w, y, 0, line, width);
	}
	wattrset(w, A_NORMAL);
}

static const char *const ui_review_help_text[] = {
	"tchess review: keys",
	"",
	"  Right  l  Space   next ply",
	"  Left   h          previous ply",
	"  Down   j          next full move (2 plies)",
	"  Up     k          previous full move",
	"  PgDn   PgUp       a page of the move list",
	"  End    G          last position",
	"  Home   g          start position",
	"  :N Enter          go to ply N (0 = start)",
	"  v                 into the next move's side line",
	"  n                 the next side line in its place",
	"  u  Esc            out of the side line",
	"  m  MOVE Enter     play your own move (SAN or UCI)",
	"  s                 save the game, your line in it",
	"  a                 engine analysis on / off",
	"  f                 flip the board",
	"  Esc  <            back to the game list",
	"  Ctrl-L            redraw",
	"  ?                 this help (any key closes it)",
	"  q                 quit",
	"",
	"  Moves with a comment or a NAG are marked *.",
	NULL,
};

void ui_review_draw(struct ui_review *s, unsigned dirty)
{
	struct review *r = s->r;
	if (dirty & REVIEW_DIRTY_CLEAR) {
		erase();
		wnoutrefresh(stdscr);
	}
	if (r->layout.too_small) {
		ui_draw_too_small(r->layout.w, r->layout.h, "tchess review", REVIEW_MIN_WIDTH, REVIEW_MIN_HEIGHT);
		return;
	}
	if (r->screen == REVIEW_SCREEN_LIST || !r->has_game) {
		if ((dirty & (REVIEW_DIRTY_LIST | REVIEW_DIRTY_CLEAR)) && s->pane[PANE_LIST]) {
			ui_review_draw_list(s, s->pane[PANE_LIST]);
			wnoutrefresh(s->pane[PANE_LIST]);
		}
	} else {
		struct {
			unsigned bit;
			int pane;
			void (*draw)(struct ui_review *, WINDOW *);
		} panes[] = {
			{ REVIEW_DIRTY_INFO, PANE_INFO, ui_review_draw_info },
			{ REVIEW_DIRTY_TAGS, PANE_TAGS, ui_review_draw_tags },
			{ REVIEW_DIRTY_MOVES, PANE_MOVES, ui_review_draw_moves },
			{ REVIEW_DIRTY_COMMENT, PANE_COMMENT, ui_review_draw_comment },
		};
		if ((dirty & REVIEW_DIRTY_BOARD) && s->pane[PANE_BOARD]) {
			struct board_view v;
			review_board_view(r, &v);
			ui_board_draw(s->ui, s->pane[PANE_BOARD], &r->layout.board, &v);
			wnoutrefresh(s->pane[PANE_BOARD]);
		}
		if ((dirty & REVIEW_DIRTY_BOARD) && s->pane[PANE_BAR]) {
			ui_review_draw_bar(s, s->pane[PANE_BAR]);
			wnoutrefresh(s->pane[PANE_BAR]);
		}
		for (size_t i = 0; i < sizeof panes / sizeof panes[0]; i++) {
			WINDOW *w = s->pane[panes[i].pane];
			if ((dirty & panes[i].bit) && w) {
				panes[i].draw(s, w);
				wnoutrefresh(w);
			}
		}
	}
	if ((dirty & REVIEW_DIRTY_STATUS) && s->pane[PANE_STATUS]) {
		ui_review_draw_status(s, s->pane[PANE_STATUS]);
		wnoutrefresh(s->pane[PANE_STATUS]);
	}
	/* Drawn last whenever anything was, so no pane shows through. */
	if (r->help && dirty)
		ui_draw_help(s->ui, ui_review_help_text, NULL, 52, r->layout.w, r->layout.h, r->ascii);
}

struct ui_review *ui_review_new(struct ui *ui, struct review *r)
{
	struct ui_review *s = xcalloc(1, sizeof *s);
	s->ui = ui;
	s->r = r;
	return s;
}

void ui_review_free(struct ui_review *s)
{
	if (!s)
		return;
	ui_draw_free_panes(s->pane, PANE_NB);
	free(s);
}

void ui_review_layout(struct ui_review *s)
{
	ui_review_make_panes(s);
}
