/*
 * The tournament screens' model (see tourney.h): the server's tournament
 * JSON parsed into plain structs, the text of the standings, crosstable
 * and game rows, and the key -> command -> apply cycle of the list and
 * detail screens. The figures (places, points, Sonneborn-Berger, prizes)
 * are the server's, never recomputed here, so the client cannot disagree
 * with it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "keys.h"
#include "movelist.h"
#include "status-line.h"
#include "tchess/position.h"
#include "tourney.h"
#include "util/xalloc.h"

const char *tourney_name(const struct protocol_tournament_view *t, int64_t player, char *buf, size_t size)
{
	for (size_t i = 0; i < t->n_entrants; i++)
		if (t->entrants[i].player == player)
			return t->entrants[i].name;
	for (size_t i = 0; i < t->n_standings; i++)
		if (t->standings[i].player == player)
			return t->standings[i].name;
	snprintf(buf, size, "#%" PRId64, player);
	return buf;
}

/* ---- text ---- */

static size_t tourney_len(int n)
{
	return n < 0 ? 0 : (size_t)n;
}

size_t tourney_points_text(int64_t half_points, char *buf, size_t size)
{
	return tourney_len(snprintf(buf, size, "%" PRId64 "%s", half_points / 2, half_points % 2 ? ".5" : ""));
}

size_t tourney_sb_text(int64_t quarters, char *buf, size_t size)
{
	static const char *const frac[] = { "", ".25", ".5", ".75" };
	return tourney_len(snprintf(buf, size, "%" PRId64 "%s", quarters / 4, frac[quarters % 4]));
}

static const char *tourney_kind_text(const char *kind)
{
	if (!strcmp(kind, "round-robin"))
		return "round robin";
	if (!strcmp(kind, "double-round-robin"))
		return "double round robin";
	return kind;
}

size_t tourney_summary_text(const struct protocol_tournament_summary *s, char *buf, size_t size)
{
	return tourney_len(snprintf(buf, size, "%s, %" PRId64 "/%" PRId64 " players, %s, %s, %s",
				    tourney_kind_text(s->kind), s->registered, s->players, s->tc, s->ruleset, s->status));
}

size_t tourney_stakes_text(const struct protocol_tournament_summary *s, char *buf, size_t size)
{
	if (s->stake == 0 && s->n_places == 0)
		return tourney_len(snprintf(buf, size, "no stake, no prizes"));
	size_t n = tourney_len(snprintf(buf, size, "stake %" PRId64 " credits, pot %" PRId64 ", prizes %" PRId64 "%%:",
					s->stake, s->pot, s->payout_percent));
	for (size_t i = 0; i < s->n_places && n < size; i++) {
		static const char *const th[] = { "st", "nd", "rd" };
		n += tourney_len(snprintf(buf + n, size - n, " %zu%s %" PRId64 "%%", i + 1, i < 3 ? th[i] : "th",
					  s->places[i]));
	}
	return n < size ? n : size - 1;
}

size_t tourney_list_header(char *buf, size_t size)
{
	return tourney_len(snprintf(buf, size, " %-8s  %-18s  %-7s  %-12s  %-5s  %s", "ID", "KIND", "PLAYERS", "TC",
				    "STAKE", "STATUS"));
}

size_t tourney_list_line(const struct protocol_tournament_summary *s, char *buf, size_t size)
{
	char players[24];
	snprintf(players, sizeof players, "%" PRId64 "/%" PRId64, s->registered, s->players);
	return tourney_len(snprintf(buf, size, " %-8.8s  %-18s  %-7s  %-12s  %-5" PRId64 "  %s%s", s->id,
				    tourney_kind_text(s->kind), players, s->tc, s->stake, s->status,
				    s->has_you && s->you.registered ? " (registered)" : ""));
}

size_t tourney_standings_header(char *buf, size_t size)
{
	return tourney_len(snprintf(buf, size, "%-6s %-18s %5s %6s %3s %3s %3s  %s", "Place", "Player", "Pts", "SB",
				    "+", "=", "-", "Prize"));
}

size_t tourney_standing_line(const struct protocol_tournament_view *t, size_t k, char *buf, size_t size)
{
	const struct protocol_tournament_standing *s = &t->standings[k];
	char pts[24], sb[24], prize[24] = "";
	tourney_points_text(s->half_points, pts, sizeof pts);
	tourney_sb_text(s->sb_quarters, sb, sizeof sb);
	if (s->prize >= 0)
		snprintf(prize, sizeof prize, "%" PRId64, s->prize);
	return tourney_len(snprintf(buf, size, "%-6s %-18s %5s %6s %3" PRId64 " %3" PRId64 " %3" PRId64 "  %s",
				    s->place, s->name, pts, sb, s->wins, s->draws, s->losses, prize));
}

/* Columns of one opponent: " 1" or, two results a cell, " 1=" (and one
 * more for the two-digit numbers, which the header needs). */
static int tourney_cell_cols(const struct protocol_tournament_view *t)
{
	return t->cycles == 2 ? 4 : 3;
}

void tourney_crosstable_fit(const struct protocol_tournament_view *t, int width, size_t first, struct tourney_xt *xt)
{
	size_t longest = 6; /* "Player" */
	for (size_t k = 0; k < t->n_order; k++) {
		char tmp[32];
		size_t l = strlen(tourney_name(t, t->order[k], tmp, sizeof tmp));
		longest = l > longest ? l : longest;
	}
	int cw = tourney_cell_cols(t), all = (int)t->n_order * cw;
	xt->name_w = 16;
	xt->first = 0;
	xt->count = t->n_order;
	if (width <= 0 || 5 + 16 + all <= width)
		return;
	/* Too wide: names only as long as the longest, then cut to 10 (the
	 * standings above have them whole), then a window of columns. */
	xt->name_w = longest < 16 ? (int)longest : 16;
	if (5 + xt->name_w + all <= width)
		return;
	xt->name_w = xt->name_w < 10 ? xt->name_w : 10;
	int fit = (width - 5 - xt->name_w) / cw;
	xt->count = fit < 1 ? 1 : (size_t)fit;
	if (xt->count >= t->n_order) {
		xt->count = t->n_order;
		return;
	}
	xt->first = first + xt->count > t->n_order ? t->n_order - xt->count : first;
}

size_t tourney_crosstable_header(const struct protocol_tournament_view *t, const struct tourney_xt *xt, char *buf, size_t size)
{
	int cw = tourney_cell_cols(t) - 1;
	size_t n = tourney_len(snprintf(buf, size, "%3s  %-*s", "#", xt->name_w, "Player"));
	for (size_t c = xt->first; c < xt->first + xt->count && c < t->n_order && n + 4 < size; c++)
		n += tourney_len(snprintf(buf + n, size - n, " %*zu", cw, c + 1));
	return n < size ? n : size - 1;
}

/* A cell's text: its score, or what stands for "no score". */
static const char *tourney_cell_text(const struct protocol_tournament_cell *c, bool ascii)
{
	if (!c->game)
		return "*";
	switch (c->score) {
	case 2:
		return "1";
	case 1:
		return ascii ? "=" : "\u00bd";
	case 0:
		return "0";
	default:
		return !strcmp(c->outcome, "pending") ? "." : "x";
	}
}

size_t tourney_crosstable_line(const struct protocol_tournament_view *t, size_t k, bool ascii, const struct tourney_xt *xt, char *buf,
			       size_t size)
{
	char tmp[32], cut[32];
	int64_t player = k < t->n_order ? t->order[k] : 0;
	const char *name = tourney_name(t, player, tmp, sizeof tmp);
	size_t len = strlen(name), w = (size_t)xt->name_w;
	if (len > w && w >= 6 && w < sizeof cut) {
		/* Head and tail: names often differ only at the end. */
		size_t tail = w / 2 - 1, head = w - 1 - tail;
		snprintf(cut, sizeof cut, "%.*s~%s", (int)head, name, name + len - tail);
		name = cut;
	}
	size_t n = tourney_len(snprintf(buf, size, "%3zu  %-*.*s", k + 1, xt->name_w, xt->name_w, name));
	for (size_t c = xt->first; c < xt->first + xt->count && c < t->n_order && n + 8 < size; c++) {
		/* Padded by hand: "½" is two bytes in one column. */
		int cols = 0;
		char cell[16] = "";
		for (int cy = 0; cy < t->cycles; cy++) {
			size_t l = strlen(cell);
			snprintf(cell + l, sizeof cell - l, "%s", tourney_cell_text(&t->cells[k][c][cy], ascii));
			cols++;
		}
		int cw = t->cycles == 2 ? 3 : 2;
		n += tourney_len(snprintf(buf + n, size - n, "%*s%s", 1 + cw - cols, "", cell));
	}
	return n < size ? n : size - 1;
}

static const char *tourney_outcome_text(const char *outcome)
{
	if (!strcmp(outcome, "pending"))
		return "running";
	if (!strcmp(outcome, "1/2-1/2"))
		return "1/2";
	return outcome;
}

size_t tourney_game_line(const struct protocol_tournament_view *t, size_t gi, int64_t me, char *buf, size_t size)
{
	const struct protocol_tournament_game *g = &t->games[gi];
	char a[32], b[32];
	bool mine = me && (g->white == me || g->black == me);
	return tourney_len(snprintf(buf, size, " %c R%-2" PRId64 " B%-2" PRId64 " %-16.16s - %-16.16s %-8s %.8s",
				    mine ? '*' : ' ', g->round, g->board, tourney_name(t, g->white, a, sizeof a),
				    tourney_name(t, g->black, b, sizeof b), tourney_outcome_text(g->outcome), g->id));
}

/* ---- the detail screen's lines ---- */

struct tourney_lines {
	struct tourney_line *v;
	size_t n, cap;
};

static struct tourney_line *tourney_add(struct tourney_lines *l, enum tourney_line_kind kind, long game)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	struct tourney_line *line = &l->v[l->n++];
	line->kind = kind;
	line->game = game;
	line->text[0] = '\0';
	return line;
}

size_t tourney_build_lines(const struct protocol_tournament_view *t, int64_t me, int64_t credits, bool all_games, bool ascii,
			   int width, size_t xt_first, struct tourney_line **out)
{
	struct tourney_lines l = { 0 };
	struct tourney_line *x;
	const struct protocol_tournament_summary *s = &t->sum;
	char tmp[32];

	x = tourney_add(&l, TOURNEY_LINE_HEADING, -1);
	snprintf(x->text, sizeof x->text, "#%.8s ", s->id);
	tourney_summary_text(s, x->text + strlen(x->text), sizeof x->text - strlen(x->text));
	x = tourney_add(&l, TOURNEY_LINE_TEXT, -1);
	tourney_stakes_text(s, x->text, sizeof x->text);
	if (credits >= 0) {
		size_t n = strlen(x->text);
		snprintf(x->text + n, sizeof x->text - n, "   your credits: %" PRId64, credits);
	}
	tourney_add(&l, TOURNEY_LINE_TEXT, -1);

	if (t->n_standings) {
		x = tourney_add(&l, TOURNEY_LINE_HEADING, -1);
		tourney_standings_header(x->text, sizeof x->text);
		for (size_t k = 0; k < t->n_standings; k++)
			tourney_standing_line(t, k, tourney_add(&l, TOURNEY_LINE_TEXT, -1)->text, TOURNEY_LINE_MAX);
		tourney_add(&l, TOURNEY_LINE_TEXT, -1);
	} else {
		x = tourney_add(&l, TOURNEY_LINE_HEADING, -1);
		snprintf(x->text, sizeof x->text, "Registered (%zu of %" PRId64 ")", t->n_entrants, s->players);
		for (size_t k = 0; k < t->n_entrants; k++)
			snprintf(tourney_add(&l, TOURNEY_LINE_TEXT, -1)->text, TOURNEY_LINE_MAX, "  %s",
				 t->entrants[k].name);
		tourney_add(&l, TOURNEY_LINE_TEXT, -1);
	}
	if (t->cycles && t->n_order) {
		struct tourney_xt xt;
		tourney_crosstable_fit(t, width, xt_first, &xt);
		if (xt.count < t->n_order) {
			/* Which columns these are, and the keys for the rest. */
			x = tourney_add(&l, TOURNEY_LINE_TEXT, -1);
			snprintf(x->text, sizeof x->text, "Crosstable: opponents %zu-%zu of %zu   %s%s%s",
				 xt.first + 1, xt.first + xt.count, t->n_order, xt.first ? "h <-" : "",
				 xt.first && xt.first + xt.count < t->n_order ? "  " : "",
				 xt.first + xt.count < t->n_order ? "l ->" : "");
		}
		x = tourney_add(&l, TOURNEY_LINE_HEADING, -1);
		tourney_crosstable_header(t, &xt, x->text, sizeof x->text);
		for (size_t k = 0; k < t->n_order; k++)
			tourney_crosstable_line(t, k, ascii, &xt, tourney_add(&l, TOURNEY_LINE_TEXT, -1)->text,
						TOURNEY_LINE_MAX);
		tourney_add(&l, TOURNEY_LINE_TEXT, -1);
	}
	if (t->n_games) {
		bool mine_only = !all_games && me && s->has_you && s->you.registered;
		x = tourney_add(&l, TOURNEY_LINE_HEADING, -1);
		snprintf(x->text, sizeof x->text, "%s (Enter opens; a: %s)", mine_only ? "Your games" : "Games",
			 mine_only ? "all games" : "your games");
		for (size_t g = 0; g < t->n_games; g++) {
			const struct protocol_tournament_game *tg = &t->games[g];
			if (mine_only && tg->white != me && tg->black != me)
				continue;
			tourney_game_line(t, g, me, tourney_add(&l, TOURNEY_LINE_GAME, (long)g)->text,
					  TOURNEY_LINE_MAX);
		}
		for (size_t b = 0; b < t->n_byes; b++) {
			if (mine_only && t->byes[b].player != me)
				continue;
			snprintf(tourney_add(&l, TOURNEY_LINE_TEXT, -1)->text, TOURNEY_LINE_MAX,
				 "   R%-2" PRId64 " bye: %s", t->byes[b].round,
				 tourney_name(t, t->byes[b].player, tmp, sizeof tmp));
		}
	}
	*out = l.v;
	return l.n;
}

/* ---- the screens ---- */

static void tourney_request(struct tourney_view *v, enum tourney_req_kind kind, const char *id, int color)
{
	if (v->n_reqs == TOURNEY_REQS_MAX)
		return;
	struct tourney_req *r = &v->reqs[v->n_reqs++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	snprintf(r->id, sizeof r->id, "%s", id ? id : "");
	r->color = color;
}

void tourney_view_init(struct tourney_view *v, const char *id, int64_t me)
{
	memset(v, 0, sizeof *v);
	v->me = me;
	v->credits = -1;
	v->sel_line = -1;
	if (me)
		tourney_request(v, TOURNEY_REQ_ME, NULL, -1);
	if (id) {
		v->screen = TOURNEY_SCREEN_DETAIL;
		tourney_request(v, TOURNEY_REQ_DETAIL, id, -1);
	} else {
		v->screen = TOURNEY_SCREEN_LIST;
		v->has_list = true;
		tourney_request(v, TOURNEY_REQ_LIST, NULL, -1);
	}
}

void tourney_view_fini(struct tourney_view *v)
{
	free(v->list);
	free(v->lines);
	protocol_tournament_view_fini(&v->t);
	memset(v, 0, sizeof *v);
}

static struct tourney_cmd tourney_cmd(enum tourney_cmd_kind kind, long arg)
{
	struct tourney_cmd c = { kind, arg, 0 };
	return c;
}

struct tourney_cmd tourney_key(const struct tourney_view *v, int key)
{
	if (key == KEYS_RESIZE || key == KEYS_MOUSE || key == KEYS_NONE)
		return tourney_cmd(TOURNEY_CMD_NONE, 0);
	if (v->help)
		return tourney_cmd(TOURNEY_CMD_HELP, 0);
	long page = v->h > 4 ? v->h - 4 : 1;
	switch (key) {
	case 'q':
		return tourney_cmd(TOURNEY_CMD_QUIT, 0);
	case KEYS_ESC:
	case '<':
	case KEYS_LEFT:
		return tourney_cmd(TOURNEY_CMD_BACK, 0);
	case KEYS_UP:
	case 'k':
		return tourney_cmd(TOURNEY_CMD_MOVE, -1);
	case KEYS_DOWN:
	case 'j':
		return tourney_cmd(TOURNEY_CMD_MOVE, 1);
	case KEYS_PGUP:
		return tourney_cmd(TOURNEY_CMD_MOVE, -page);
	case KEYS_PGDN:
		return tourney_cmd(TOURNEY_CMD_MOVE, page);
	case KEYS_ENTER:
	case '\r':
	case KEYS_RIGHT:
	case 'o':
		return tourney_cmd(TOURNEY_CMD_OPEN, 0);
	case 'r':
		return tourney_cmd(TOURNEY_CMD_REGISTER, 0);
	case 'w':
		return tourney_cmd(TOURNEY_CMD_WITHDRAW, 0);
	case 'u':
		return tourney_cmd(TOURNEY_CMD_RELOAD, 0);
	case 'a':
		if (v->screen == TOURNEY_SCREEN_DETAIL)
			return tourney_cmd(TOURNEY_CMD_TOGGLE_GAMES, 0);
		break;
	case 'h':
	case 'l':
		if (v->screen == TOURNEY_SCREEN_DETAIL)
			return tourney_cmd(TOURNEY_CMD_COLUMNS, key == 'h' ? -1 : 1);
		break;
	case '?':
		return tourney_cmd(TOURNEY_CMD_HELP, 0);
	case KEYS_CTRL_L:
		return tourney_cmd(TOURNEY_CMD_REDRAW, 0);
	default:
		break;
	}
	return tourney_cmd(TOURNEY_CMD_NONE, 0);
}

static void tourney_say(struct tourney_view *v, bool error, const char *text)
{
	/* Cut to the line's size on purpose: the status line is one row. */
	size_t n = strlen(text);
	if (n >= sizeof v->message)
		n = sizeof v->message - 1;
	memcpy(v->message, text, n);
	v->message[n] = '\0';
	v->message_error = error;
}

/* Rows of the body: the screen less the message and status lines. */
static int tourney_body_rows(const struct tourney_view *v)
{
	return v->h > 3 ? v->h - 2 : 1;
}

/* Keeps the selected line (or the list's selection) in view. */
static void tourney_scroll(struct tourney_view *v)
{
	int rows = tourney_body_rows(v);
	if (v->screen == TOURNEY_SCREEN_LIST) {
		v->list_top = movelist_scroll(v->list_top, rows - 1, (int)v->list_sel, (int)v->n_list);
		return;
	}
	if (v->sel_line >= 0)
		v->top = movelist_scroll(v->top, rows, (int)v->sel_line, (int)v->n_lines);
	if (v->top > 0 && v->top > (int)v->n_lines - rows)
		v->top = (int)v->n_lines - rows > 0 ? (int)v->n_lines - rows : 0;
}

/* Rebuilds the detail lines from t, keeping the selected game if it is
 * still shown. */
static void tourney_rebuild(struct tourney_view *v)
{
	long game = v->sel_line >= 0 && (size_t)v->sel_line < v->n_lines ? v->lines[v->sel_line].game : -1;
	free(v->lines);
	v->lines = NULL;
	v->n_lines = 0;
	if (v->have_t)
		v->n_lines = tourney_build_lines(&v->t, v->me, v->credits, v->all_games, v->ascii, v->w, v->xt_first,
						 &v->lines);
	v->sel_line = -1;
	for (size_t i = 0; i < v->n_lines; i++) {
		if (v->lines[i].kind != TOURNEY_LINE_GAME)
			continue;
		if (v->sel_line < 0 || v->lines[i].game == game)
			v->sel_line = (long)i;
		if (v->lines[i].game == game)
			break;
	}
	tourney_scroll(v);
}

/* The tournament the keys act on: the open one, or the list's selection. */
static const char *tourney_target(const struct tourney_view *v)
{
	if (v->screen == TOURNEY_SCREEN_DETAIL)
		return v->have_t ? v->t.sum.id : NULL;
	return v->list_sel < v->n_list ? v->list[v->list_sel].id : NULL;
}

static unsigned tourney_move(struct tourney_view *v, long by)
{
	if (v->screen == TOURNEY_SCREEN_LIST) {
		if (!v->n_list)
			return 0;
		long sel = (long)v->list_sel + by;
		sel = sel < 0 ? 0 : sel >= (long)v->n_list ? (long)v->n_list - 1 : sel;
		v->list_sel = (size_t)sel;
		tourney_scroll(v);
		return TOURNEY_DIRTY_BODY;
	}
	/* Among the game lines; with none, the whole screen scrolls. */
	long step = by < 0 ? -1 : 1, moved = 0, sel = v->sel_line;
	for (long i = sel + step; sel >= 0 && i >= 0 && i < (long)v->n_lines && moved != by; i += step) {
		if (v->lines[i].kind == TOURNEY_LINE_GAME) {
			sel = i;
			moved += step;
		}
	}
	if (sel < 0 || sel == v->sel_line) {
		int top = v->top + (int)by;
		int max = (int)v->n_lines - tourney_body_rows(v);
		v->top = top < 0 ? 0 : top > max ? (max > 0 ? max : 0) : top;
		return TOURNEY_DIRTY_BODY;
	}
	v->sel_line = sel;
	tourney_scroll(v);
	return TOURNEY_DIRTY_BODY;
}

bool tourney_crosstable_clipped(const struct tourney_view *v, struct tourney_xt *xt)
{
	struct tourney_xt tmp;
	if (!xt)
		xt = &tmp;
	memset(xt, 0, sizeof *xt);
	if (v->screen != TOURNEY_SCREEN_DETAIL || !v->have_t || !v->t.cycles || !v->t.n_order)
		return false;
	tourney_crosstable_fit(&v->t, v->w, v->xt_first, xt);
	return xt->count < v->t.n_order;
}

/* h and l: the crosstable's window of columns, half a window a step. */
static unsigned tourney_columns(struct tourney_view *v, long dir)
{
	struct tourney_xt xt;
	if (!tourney_crosstable_clipped(v, &xt)) {
		tourney_say(v, false, "the crosstable fits: nothing to scroll");
		return TOURNEY_DIRTY_STATUS;
	}
	size_t step = xt.count > 1 ? xt.count / 2 : 1;
	size_t first = xt.first;
	if (dir < 0)
		first = first > step ? first - step : 0;
	else
		first = first + step + xt.count > v->t.n_order ? v->t.n_order - xt.count : first + step;
	if (first == xt.first)
		return 0;
	v->xt_first = first;
	tourney_rebuild(v);
	return TOURNEY_DIRTY_BODY | TOURNEY_DIRTY_STATUS;
}

static unsigned tourney_open(struct tourney_view *v)
{
	if (v->screen == TOURNEY_SCREEN_LIST) {
		const char *id = tourney_target(v);
		if (!id)
			return 0;
		tourney_request(v, TOURNEY_REQ_DETAIL, id, -1);
		tourney_say(v, false, "loading...");
		return TOURNEY_DIRTY_STATUS;
	}
	if (v->sel_line < 0) {
		tourney_say(v, true, "no game to open");
		return TOURNEY_DIRTY_STATUS;
	}
	const struct protocol_tournament_game *g = &v->t.games[v->lines[v->sel_line].game];
	/* One's own running game is played; any other is watched. */
	int color = -1;
	if (!strcmp(g->outcome, "pending") && v->me) {
		if (g->white == v->me)
			color = WHITE;
		else if (g->black == v->me)
			color = BLACK;
	}
	tourney_request(v, TOURNEY_REQ_OPEN_GAME, g->id, color);
	return 0;
}

unsigned tourney_apply(struct tourney_view *v, const struct tourney_cmd *c)
{
	const char *id;
	switch (c->kind) {
	case TOURNEY_CMD_NONE:
		return 0;
	case TOURNEY_CMD_QUIT:
		v->quit = true;
		return 0;
	case TOURNEY_CMD_BACK:
		if (v->screen == TOURNEY_SCREEN_DETAIL && v->has_list) {
			v->screen = TOURNEY_SCREEN_LIST;
			v->message[0] = '\0';
			tourney_request(v, TOURNEY_REQ_LIST, NULL, -1);
			return TOURNEY_DIRTY_ALL;
		}
		v->quit = true;
		return 0;
	case TOURNEY_CMD_MOVE:
		return tourney_move(v, c->arg);
	case TOURNEY_CMD_OPEN:
		return tourney_open(v);
	case TOURNEY_CMD_REGISTER:
	case TOURNEY_CMD_WITHDRAW:
		id = tourney_target(v);
		if (!v->me) {
			tourney_say(v, true, "no account: run 'tchess register NAME --server URL' first");
			return TOURNEY_DIRTY_STATUS;
		}
		if (!id)
			return 0;
		tourney_request(v, c->kind == TOURNEY_CMD_REGISTER ? TOURNEY_REQ_REGISTER : TOURNEY_REQ_WITHDRAW, id,
				-1);
		return 0;
	case TOURNEY_CMD_RELOAD:
		if (v->me)
			tourney_request(v, TOURNEY_REQ_ME, NULL, -1);
		if (v->screen == TOURNEY_SCREEN_LIST)
			tourney_request(v, TOURNEY_REQ_LIST, NULL, -1);
		else if (v->have_t)
			tourney_request(v, TOURNEY_REQ_DETAIL, v->t.sum.id, -1);
		return 0;
	case TOURNEY_CMD_TOGGLE_GAMES:
		v->all_games = !v->all_games;
		tourney_rebuild(v);
		return TOURNEY_DIRTY_BODY;
	case TOURNEY_CMD_COLUMNS:
		return tourney_columns(v, c->arg);
	case TOURNEY_CMD_HELP:
		v->help = !v->help;
		return v->help ? TOURNEY_DIRTY_HELP : TOURNEY_DIRTY_ALL;
	case TOURNEY_CMD_RESIZE:
		v->w = (int)c->arg;
		v->h = (int)c->arg2;
		/* The crosstable is laid out for the width. */
		tourney_rebuild(v);
		return TOURNEY_DIRTY_ALL;
	case TOURNEY_CMD_REDRAW:
		return TOURNEY_DIRTY_ALL;
	}
	return 0;
}

size_t tourney_status_line(const struct tourney_view *v, int width, char *buf, size_t size)
{
	char count[48] = "", credits[48] = "";
	struct status_line_item it[12];
	size_t n = 0;
	if (v->screen == TOURNEY_SCREEN_LIST)
		snprintf(count, sizeof count, "tournaments: %zu", v->n_list);
	if (v->credits >= 0)
		snprintf(credits, sizeof credits, "credits %" PRId64, v->credits);
	it[n++] = (struct status_line_item){ STATUS_LINE_FIELD, count, 0 };
	it[n++] = (struct status_line_item){ STATUS_LINE_FIELD, credits, 0 };
	/* Rank: the higher, the sooner left out on a narrow screen. */
	if (v->screen == TOURNEY_SCREEN_LIST) {
		it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "Enter open", 5 };
	} else {
		it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "Enter open game", 5 };
		if (tourney_crosstable_clipped(v, NULL))
			it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "h/l columns", 4 };
		it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "a all/yours", 8 };
	}
	it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "r register", 9 };
	it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "w withdraw", 10 };
	it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "u update", 11 };
	if (v->screen == TOURNEY_SCREEN_DETAIL && v->has_list)
		it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "Esc list", 3 };
	it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "? help", 0 };
	it[n++] = (struct status_line_item){ STATUS_LINE_KEY, "q quit", 2 };
	return status_line_fit(it, n, width, buf, size);
}

bool tourney_take_request(struct tourney_view *v, struct tourney_req *out)
{
	if (!v->n_reqs)
		return false;
	*out = v->reqs[0];
	memmove(v->reqs, v->reqs + 1, (size_t)(v->n_reqs - 1) * sizeof v->reqs[0]);
	v->n_reqs--;
	return true;
}

void tourney_req_http(const struct tourney_req *r, const char **method, char *path, size_t size, char **body)
{
	*body = NULL;
	*method = "GET";
	switch (r->kind) {
	case TOURNEY_REQ_ME:
		*method = route_request(path, size, ROUTE_ME, NULL, NULL);
		break;
	case TOURNEY_REQ_LIST:
		*method = route_request(path, size, ROUTE_TOURNAMENTS_LIST, NULL, NULL);
		break;
	case TOURNEY_REQ_DETAIL:
		*method = route_request(path, size, ROUTE_TOURNAMENT, r->id, NULL);
		break;
	case TOURNEY_REQ_REGISTER:
	case TOURNEY_REQ_WITHDRAW:
		*body = xstrdup("{}");
		*method = route_request(path, size,
					r->kind == TOURNEY_REQ_REGISTER ? ROUTE_TOURNAMENT_REGISTER : ROUTE_TOURNAMENT_WITHDRAW,
					r->id, NULL);
		break;
	case TOURNEY_REQ_OPEN_GAME:
		path[0] = '\0';
		break;
	}
}

/* The server's error message of a refusal, or "HTTP N". */
static void tourney_refusal(const char *body, size_t len, int status, char *buf, size_t size)
{
	struct protocol_error e;
	if (status < 0)
		snprintf(buf, size, "%.*s", (int)len, body ? body : "network error");
	else if (body && protocol_error_decode(body, len, &e, NULL) == 0)
		snprintf(buf, size, "%s", e.message);
	else
		snprintf(buf, size, "HTTP %d", status);
}

/* Takes a tournament answer (detail, register, withdraw) as the open one. */
static int tourney_take(struct tourney_view *v, const char *body, size_t len, char *err, size_t errsize)
{
	struct protocol_tournament_view t;
	if (protocol_tournament_view_decode(body, len, &t, err, errsize))
		return -1;
	protocol_tournament_view_fini(&v->t);
	v->t = t;
	v->have_t = true;
	if (t.sum.has_you && t.sum.you.credits >= 0)
		v->credits = t.sum.you.credits;
	/* The list's copy learns the news too. */
	for (size_t i = 0; i < v->n_list; i++)
		if (!strcmp(v->list[i].id, t.sum.id))
			v->list[i] = t.sum;
	tourney_rebuild(v);
	return 0;
}

unsigned tourney_on_answer(struct tourney_view *v, const struct tourney_req *r, int status, const char *body,
			   size_t len)
{
	char err[TOURNEY_MESSAGE_MAX], msg[TOURNEY_MESSAGE_MAX + 64];
	switch (r->kind) {
	case TOURNEY_REQ_ME:
		if (status == 200) {
			int64_t credits;
			if (!protocol_credits_decode(body, len, &credits, NULL, 0))
				v->credits = credits;
			if (v->have_t)
				tourney_rebuild(v);
			return TOURNEY_DIRTY_BODY | TOURNEY_DIRTY_STATUS;
		}
		return 0;
	case TOURNEY_REQ_LIST:
		if (status != 200) {
			tourney_refusal(body, len, status, err, sizeof err);
			snprintf(msg, sizeof msg, "cannot list the tournaments: %s", err);
			tourney_say(v, true, msg);
			return TOURNEY_DIRTY_STATUS;
		}
		struct protocol_tournament_summary *list;
		size_t n;
		if (protocol_tournament_list_decode(body, len, &list, &n, err, sizeof err)) {
			tourney_say(v, true, err);
			return TOURNEY_DIRTY_STATUS;
		}
		/* Keep what the detail answers told about "you". */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < v->n_list && !list[i].has_you; j++)
				if (!strcmp(v->list[j].id, list[i].id) && v->list[j].has_you) {
					list[i].has_you = true;
					list[i].you.registered = v->list[j].you.registered;
				}
		free(v->list);
		v->list = list;
		v->n_list = n;
		if (v->list_sel >= n)
			v->list_sel = n ? n - 1 : 0;
		tourney_scroll(v);
		return TOURNEY_DIRTY_BODY | TOURNEY_DIRTY_STATUS;
	case TOURNEY_REQ_DETAIL:
		if (status != 200) {
			tourney_refusal(body, len, status, err, sizeof err);
			snprintf(msg, sizeof msg, "cannot show tournament %.8s: %s", r->id, err);
			tourney_say(v, true, msg);
			return TOURNEY_DIRTY_STATUS;
		}
		if (tourney_take(v, body, len, err, sizeof err)) {
			tourney_say(v, true, err);
			return TOURNEY_DIRTY_STATUS;
		}
		if (v->screen != TOURNEY_SCREEN_DETAIL) {
			v->screen = TOURNEY_SCREEN_DETAIL;
			v->top = 0;
		}
		if (!v->message_error)
			v->message[0] = '\0';
		return TOURNEY_DIRTY_ALL;
	case TOURNEY_REQ_REGISTER:
	case TOURNEY_REQ_WITHDRAW: {
		bool reg = r->kind == TOURNEY_REQ_REGISTER;
		if (status != 200) {
			tourney_refusal(body, len, status, err, sizeof err);
			snprintf(msg, sizeof msg, "%s refused: %s", reg ? "registration" : "withdrawal", err);
			tourney_say(v, true, msg);
			return TOURNEY_DIRTY_STATUS;
		}
		if (tourney_take(v, body, len, err, sizeof err)) {
			tourney_say(v, true, err);
			return TOURNEY_DIRTY_STATUS;
		}
		if (reg && !strcmp(v->t.sum.status, "running"))
			snprintf(msg, sizeof msg, "registered for %.8s: the tournament has started", r->id);
		else
			snprintf(msg, sizeof msg, "%s %.8s (%" PRId64 "/%" PRId64 " registered)",
				 reg ? "registered for" : "withdrawn from", r->id, v->t.sum.registered,
				 v->t.sum.players);
		tourney_say(v, false, msg);
		if (v->me)
			tourney_request(v, TOURNEY_REQ_ME, NULL, -1);
		return TOURNEY_DIRTY_ALL;
	}
	case TOURNEY_REQ_OPEN_GAME:
		/* The game screen closed without showing the game: say why
		 * here, or the player only sees the screen come back. */
		if (status < 0) {
			tourney_refusal(body, len, status, err, sizeof err);
			snprintf(msg, sizeof msg, "cannot open game %.8s: %s", r->id, err);
			tourney_say(v, true, msg);
		}
		/* Back from the game screen: everything may have changed. */
		if (v->have_t)
			tourney_request(v, TOURNEY_REQ_DETAIL, v->t.sum.id, -1);
		if (v->me)
			tourney_request(v, TOURNEY_REQ_ME, NULL, -1);
		return TOURNEY_DIRTY_ALL;
	}
	return 0;
}
