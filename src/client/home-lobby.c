/*
 * The home screen's lobby (issue 14 item 5): the open seeks of others
 * (player, time control, ruleset, the colour the joiner plays, age) and
 * the games being played (players, time control, move number), both from
 * GET /v1/games, as rows under "Open seeks" and "Live games"; and the
 * form a seek or an invite is made with (time control, ruleset, colour,
 * premoves), whose values are kept in the config file for next time.
 *
 * A row's columns are as wide as the section's widest entry; where the
 * terminal is too narrow for them all, whole columns give way (the long
 * colour words, then the ruleset, the age...), so a name or a time control
 * is never cut in the middle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "corr.h"
#include "home-internal.h"
#include "tchess/premove.h"
#include "tchess/ruleset.h"
#include "text-wrap.h"

/* ---- the lists ---- */

static bool home_lobby_mine(const struct home *h, const struct protocol_game_summary *g)
{
	return corr_my_games_find(&h->mine, g->id) != NULL;
}

bool home_lobby_shown(const struct home *h, size_t i, bool seeks)
{
	const struct protocol_game_summary *g = &h->live[i];
	if (!strcmp(g->status, "over") || home_lobby_mine(h, g))
		return false;
	bool open = strcmp(g->status, "open") == 0;
	return open == seeks;
}

size_t home_lobby_count(const struct home *h, bool seeks)
{
	size_t n = 0;
	for (size_t i = 0; i < h->n_live; i++)
		n += home_lobby_shown(h, i, seeks);
	return n;
}

/* The i-th shown game of the section (an index into h->live), or -1. */
static long home_lobby_nth(const struct home *h, size_t nth, bool seeks)
{
	for (size_t i = 0; i < h->n_live; i++)
		if (home_lobby_shown(h, i, seeks) && nth-- == 0)
			return (long)i;
	return -1;
}

/* A terminal this tall names a listed section's columns under its
 * heading. */
#define HOME_COLUMNS_MIN_HEIGHT 30

static int home_lobby_columns_row(const struct home *h, bool seeks)
{
	return h->h >= HOME_COLUMNS_MIN_HEIGHT && home_lobby_count(h, seeks) ? 1 : 0;
}

int home_lobby_rows(const struct home *h, bool seeks)
{
	return 2 + home_lobby_columns_row(h, seeks) + (int)home_lobby_count(h, seeks);
}

enum home_row_kind home_lobby_row(const struct home *h, int row, bool seeks, size_t *index)
{
	if (row == 0)
		return HOME_ROW_BLANK;
	if (row == 1) {
		*index = seeks ? HOME_HEADING_SEEKS : HOME_HEADING_LIVE;
		return HOME_ROW_HEADING;
	}
	row -= 2;
	if (row < home_lobby_columns_row(h, seeks)) {
		*index = seeks;
		return HOME_ROW_COLUMNS;
	}
	row -= home_lobby_columns_row(h, seeks);
	long i = home_lobby_nth(h, (size_t)row, seeks);
	if (i < 0)
		return HOME_ROW_BLANK;
	*index = (size_t)i;
	return seeks ? HOME_ROW_SEEK : HOME_ROW_LIVE;
}

void home_lobby_heading(const struct home *h, bool seeks, char *buf, size_t size)
{
	size_t n = home_lobby_count(h, seeks);
	if (!h->have_live)
		snprintf(buf, size, "%s (loading...)", seeks ? "Open seeks" : "Live games");
	else if (!n)
		snprintf(buf, size, "%s: none now", seeks ? "Open seeks" : "Live games");
	else if (seeks)
		snprintf(buf, size, "Open seeks (%zu): Enter takes the seat", n);
	else
		snprintf(buf, size, "Live games (%zu): Enter watches", n);
}

void home_lobby_age(int64_t ms, char *buf, size_t size)
{
	int64_t s = ms / 1000;
	if (s < 60)
		snprintf(buf, size, "%llds", (long long)(s < 0 ? 0 : s));
	else if (s < 3600)
		snprintf(buf, size, "%lldm", (long long)(s / 60));
	else if (s < 86400)
		snprintf(buf, size, "%lldh", (long long)(s / 3600));
	else
		snprintf(buf, size, "%lldd", (long long)(s / 86400));
}

/* ---- columns ---- */

#define HOME_COLS 6
#define HOME_CELL 64

/* A row's cells in their order; "" for a column the layout drops. */
struct home_cells {
	char cell[HOME_COLS][HOME_CELL];
};

/* The layouts a section tries, widest first: which columns each keeps,
 * and whether the colour is said in full. */
struct home_layout {
	bool keep[HOME_COLS];
	bool long_words;
};

static const struct home_layout home_layouts[] = {
	{ { true, true, true, true, true, true }, true },
	{ { true, true, true, true, true, false }, true },
	{ { true, true, true, true, true, false }, false },
	{ { true, true, false, true, true, false }, false },
	{ { true, true, false, true, false, false }, false },
	{ { true, true, false, false, false, false }, false },
	{ { true, false, false, false, false, false }, false },
};
#define HOME_LAYOUTS (sizeof home_layouts / sizeof home_layouts[0])

static const char *home_color_word(int color, bool long_words)
{
	if (color == WHITE)
		return long_words ? "you play White" : "White";
	if (color == BLACK)
		return long_words ? "you play Black" : "Black";
	return "";
}

static void home_seat_name(const struct protocol_game_summary *g, int color, char *buf, size_t size)
{
	const char *name = color == WHITE ? g->white_name : g->black_name;
	int64_t level = color == WHITE ? g->white_level : g->black_level;
	if (name[0])
		snprintf(buf, size, "%s", name);
	else if (level)
		snprintf(buf, size, "engine %lld", (long long)level);
	else
		snprintf(buf, size, "?");
}

/* Game g's cells: seek (player, time control, ruleset, colour, age, id)
 * or live game (players, time control, ruleset, move, -, id). */
static void home_cells_of(const struct protocol_game_summary *g, bool seek, bool long_words, struct home_cells *c)
{
	memset(c, 0, sizeof *c);
	if (seek) {
		bool white_free = !strcmp(g->color, "white");
		char who[HOME_CELL];
		home_seat_name(g, white_free ? BLACK : WHITE, who, sizeof who);
		snprintf(c->cell[0], HOME_CELL, "%s", who);
		int color = !strcmp(g->color, "white") ? WHITE : !strcmp(g->color, "black") ? BLACK : -1;
		snprintf(c->cell[3], HOME_CELL, "%s", home_color_word(color, long_words));
		home_lobby_age(g->age_ms, c->cell[4], HOME_CELL);
	} else {
		char w[HOME_CELL], b[HOME_CELL];
		home_seat_name(g, WHITE, w, sizeof w);
		home_seat_name(g, BLACK, b, sizeof b);
		snprintf(c->cell[0], HOME_CELL, "%.28s vs %.28s", w, b);
		snprintf(c->cell[3], HOME_CELL, "move %lld", (long long)(g->ply / 2 + 1));
	}
	snprintf(c->cell[1], HOME_CELL, "%.60s", g->tc[0] ? g->tc : "?");
	snprintf(c->cell[2], HOME_CELL, "%s", g->ruleset);
	snprintf(c->cell[5], HOME_CELL, "%.8s", g->id);
}

/* The column names of a section, for its HOME_ROW_COLUMNS row. */
static void home_cells_names(bool seek, struct home_cells *c)
{
	static const char *const names[2][HOME_COLS] = {
		{ "players", "time", "rules", "move", "", "game" },
		{ "player", "time", "rules", "colour", "age", "game" },
	};
	memset(c, 0, sizeof *c);
	for (int k = 0; k < HOME_COLS; k++)
		snprintf(c->cell[k], HOME_CELL, "%s", names[seek][k]);
}

/* The columns' widths in the section under layout l (the column names
 * counted where they are shown); returns the line's width ("  " and two
 * blanks between columns). */
static int home_section_widths(const struct home *h, bool seeks, const struct home_layout *l, int widths[HOME_COLS])
{
	struct home_cells c;
	memset(widths, 0, HOME_COLS * sizeof *widths);
	for (size_t i = 0; i <= h->n_live; i++) {
		if (i == h->n_live) {
			if (!home_lobby_columns_row(h, seeks))
				break;
			home_cells_names(seeks, &c);
		} else if (!home_lobby_shown(h, i, seeks)) {
			continue;
		} else {
			home_cells_of(&h->live[i], seeks, l->long_words, &c);
		}
		for (int k = 0; k < HOME_COLS; k++) {
			int w = text_wrap_cols(c.cell[k]);
			if (l->keep[k] && w > widths[k])
				widths[k] = w;
		}
	}
	int total = 2, cols = 0;
	for (int k = 0; k < HOME_COLS; k++) {
		if (widths[k]) {
			total += widths[k] + (cols ? 2 : 0);
			cols++;
		}
	}
	return total;
}

void home_lobby_row_text(const struct home *h, long i, bool seek, char *buf, size_t size)
{
	int widths[HOME_COLS], width = h->w > 0 ? h->w : 80;
	size_t k = 0;
	/* The widest layout that fits, the narrowest at worst. */
	while (k + 1 < HOME_LAYOUTS && home_section_widths(h, seek, &home_layouts[k], widths) > width)
		k++;
	home_section_widths(h, seek, &home_layouts[k], widths);
	struct home_cells c;
	if (i < 0)
		home_cells_names(seek, &c);
	else
		home_cells_of(&h->live[i], seek, home_layouts[k].long_words, &c);
	char line[HOME_LINE_MAX], fitted[HOME_LINE_MAX];
	size_t n = 0;
	line[0] = '\0';
	for (int col = 0; col < HOME_COLS && n < sizeof line; col++) {
		if (!widths[col])
			continue;
		int pad = widths[col] - text_wrap_cols(c.cell[col]);
		n += (size_t)snprintf(line + n, sizeof line - n, "%s%s%*s", n ? "  " : "", c.cell[col],
				      pad > 0 ? pad : 0, "");
	}
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	/* Narrower than even the last layout: whole words, then "...". */
	text_wrap_fit(line, width - 2, "...", fitted, sizeof fitted);
	snprintf(buf, size, "  %s", fitted);
}

/* ---- the seek and invite form ---- */

static const char *const home_field_label[HOME_FIELD_NB] = {
	[HOME_FIELD_TC] = "Time control",
	[HOME_FIELD_RULESET] = "Rules",
	[HOME_FIELD_COLOR] = "Your colour",
	[HOME_FIELD_PREMOVES] = "Premoves",
};

void home_form_defaults(struct home *h, const struct config *cfg, const char *config_path)
{
	struct home_form_values *v = &h->form.values;
	snprintf(v->tc, sizeof v->tc, "%s", cfg && cfg->seek_tc[0] ? cfg->seek_tc : "5+3");
	snprintf(v->ruleset, sizeof v->ruleset, "%s", cfg && cfg->seek_ruleset[0] ? cfg->seek_ruleset : "fide");
	v->color = cfg && cfg->seek_color >= -1 ? cfg->seek_color : -1;
	v->premoves = cfg && cfg->seek_premoves ? cfg->seek_premoves : CONFIG_PREMOVES_DEFAULT;
	h->form.saved = *v;
	snprintf(h->config_path, sizeof h->config_path, "%s", config_path ? config_path : "");
}

void home_form_open(struct home *h, enum home_action a)
{
	h->form.open = true;
	h->form.action = a;
	h->form.back_sel = h->sel;
	h->form.back_top = h->top;
	h->sel = HOME_FORM_FIRST + HOME_FIELD_TC;
	h->top = 0;
	home_say(h, false, a == HOME_SEEK ? "a seek anyone may join: Left/Right change a setting, Enter creates it"
					 : "an invite: Left/Right change a setting, Enter creates it");
}

void home_form_close(struct home *h)
{
	h->form.open = false;
	h->sel = h->form.back_sel;
	h->top = h->form.back_top;
}

int home_form_rows(const struct home *h)
{
	(void)h;
	return HOME_FORM_FIRST + HOME_FIELD_NB;
}

enum home_row_kind home_form_row(const struct home *h, int row, size_t *index)
{
	(void)h;
	if (row == 0) {
		*index = HOME_HEADING_FORM;
		return HOME_ROW_HEADING;
	}
	if (row < HOME_FORM_FIRST || row >= HOME_FORM_FIRST + HOME_FIELD_NB)
		return HOME_ROW_BLANK;
	*index = (size_t)(row - HOME_FORM_FIRST);
	return HOME_ROW_FIELD;
}

void home_form_row_text(const struct home *h, int row, char *buf, size_t size)
{
	const struct home_form_values *v = &h->form.values;
	size_t f;
	if (home_form_row(h, row, &f) == HOME_ROW_HEADING) {
		snprintf(buf, size, "%s", h->form.action == HOME_SEEK ? "Seek an opponent: a game anyone may join"
								   : "Invite a friend: a game and a code to read aloud");
		return;
	}
	if (home_form_row(h, row, &f) != HOME_ROW_FIELD) {
		buf[0] = '\0';
		return;
	}
	bool sel = row == h->sel;
	switch ((enum home_field)f) {
	case HOME_FIELD_TC:
		snprintf(buf, size, "  %-14s %s%s", home_field_label[f], v->tc, sel ? "   (Left/Right)" : "");
		break;
	case HOME_FIELD_RULESET:
		snprintf(buf, size, "  %-14s %s%s", home_field_label[f], v->ruleset, sel ? "   (Left/Right)" : "");
		break;
	case HOME_FIELD_COLOR:
		snprintf(buf, size, "  %-14s %s%s", home_field_label[f],
			 v->color == WHITE ? "White" : v->color == BLACK ? "Black" : "drawn by the server",
			 sel ? "   (Left/Right)" : "");
		break;
	case HOME_FIELD_PREMOVES:
		snprintf(buf, size, "  %-14s %d %s%s", home_field_label[f], v->premoves,
			 v->premoves == 1 ? "move queued ahead" : "moves queued ahead", sel ? "   (Left/Right)" : "");
		break;
	case HOME_FIELD_CREATE:
		snprintf(buf, size, "  [ %s ]", h->form.action == HOME_SEEK ? "Create the seek" : "Create the invite");
		break;
	default:
		snprintf(buf, size, "  [ Cancel ]");
		break;
	}
}

/* The next (step +1) or previous (-1) of n entries after cur (-1: not
 * among them). */
static int home_cycle(int cur, int n, int step)
{
	if (cur < 0)
		return step > 0 ? 0 : n - 1;
	return ((cur + step) % n + n) % n;
}

unsigned home_form_change(struct home *h, int step)
{
	struct home_form_values *v = &h->form.values;
	size_t f;
	if (home_form_row(h, h->sel, &f) != HOME_ROW_FIELD)
		return 0;
	switch ((enum home_field)f) {
	case HOME_FIELD_TC: {
		size_t n;
		const char *const *tcs = home_time_controls(&n);
		int cur = -1;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(tcs[i], v->tc))
				cur = (int)i;
		snprintf(v->tc, sizeof v->tc, "%s", tcs[home_cycle(cur, (int)n, step)]);
		break;
	}
	case HOME_FIELD_RULESET: {
		int n = 0, cur = -1;
		for (; ruleset_preset_names[n]; n++)
			if (!strcmp(ruleset_preset_names[n], v->ruleset))
				cur = n;
		snprintf(v->ruleset, sizeof v->ruleset, "%s", ruleset_preset_names[home_cycle(cur, n, step)]);
		break;
	}
	case HOME_FIELD_COLOR:
		/* drawn, White, Black */
		v->color = home_cycle(v->color + 1, 3, step) - 1;
		break;
	case HOME_FIELD_PREMOVES:
		v->premoves = home_cycle(v->premoves - 1, PREMOVE_DEPTH_MAX, step) + 1;
		break;
	default:
		return 0;
	}
	return HOME_DIRTY_BODY;
}

/* The values that changed since they were saved, written to the config
 * file; what went wrong said. */
static void home_form_save(struct home *h)
{
	struct home_form_values *v = &h->form.values, *old = &h->form.saved;
	char err[256], num[8];
	const char *keys[4] = { NULL }, *values[4];
	int n = 0;
	if (strcmp(v->tc, old->tc)) {
		keys[n] = "seek_tc";
		values[n++] = v->tc;
	}
	if (strcmp(v->ruleset, old->ruleset)) {
		keys[n] = "seek_ruleset";
		values[n++] = v->ruleset;
	}
	if (v->color != old->color) {
		keys[n] = "seek_color";
		values[n++] = v->color == WHITE ? "white" : v->color == BLACK ? "black" : "random";
	}
	if (v->premoves != old->premoves) {
		snprintf(num, sizeof num, "%d", v->premoves);
		keys[n] = "seek_premoves";
		values[n++] = num;
	}
	if (!n || !h->config_path[0])
		return;
	for (int i = 0; i < n; i++) {
		if (config_set(h->config_path, keys[i], values[i], err, sizeof err) < 0) {
			char text[HOME_MESSAGE_MAX];
			snprintf(text, sizeof text, "settings not saved: %.200s", err);
			home_say(h, true, text);
			return;
		}
	}
	*old = *v;
}

void home_form_submit(struct home *h)
{
	const struct home_form_values *v = &h->form.values;
	enum home_action a = h->form.action;
	home_form_close(h);
	if (!h->have_account) {
		home_say(h, true, "no account on this server: tchess register NAME first");
		return;
	}
	struct home_req r = { .kind = HOME_REQ_CREATE, .action = a, .color = -1, .want_color = v->color,
			      .premoves = v->premoves };
	snprintf(r.tc, sizeof r.tc, "%s", v->tc);
	snprintf(r.ruleset, sizeof r.ruleset, "%s", v->ruleset);
	home_queue(h, &r);
	home_say(h, false, a == HOME_SEEK ? "opening the seek..." : "opening the invite...");
	home_form_save(h);
}
