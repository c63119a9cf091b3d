/*
 * The review model: stepping through a game's main line, the game list,
 * the jump prompt, and the pane layout. Every change goes through
 * review_apply(), which says which panes to redraw, so the screen loop
 * draws only what changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "review.h"
#include "text-wrap.h"
#include "tchess/eco.h"
#include "tchess/pgn.h"

#define REVIEW_DIRTY_GAME                                                                           \
	(REVIEW_DIRTY_BOARD | REVIEW_DIRTY_INFO | REVIEW_DIRTY_TAGS | REVIEW_DIRTY_MOVES |          \
	 REVIEW_DIRTY_COMMENT | REVIEW_DIRTY_STATUS)

void review_init(struct review *r, const char *file_name, const struct review_entry *entries, size_t n_entries,
		 review_load_fn load, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->screen = REVIEW_SCREEN_LIST;
	r->file_name = file_name;
	r->entries = entries;
	r->n_entries = n_entries;
	r->load = load;
	r->load_ctx = ctx;
	review_layout_compute(&r->layout, 80, 24);
}

void review_fini(struct review *r)
{
	free(r->positions);
	r->positions = NULL;
}

static void review_relayout_moves(struct review *r)
{
	if (!r->has_game)
		return;
	movelist_init(&r->ml, r->game.n_moves, r->game.start.fullmove, (enum color)r->game.start.side,
		      r->layout.side_w);
	int target = r->ply ? movelist_row_of(&r->ml, r->ply - 1) : 0;
	r->ml_top = movelist_scroll(r->ml_top, r->layout.moves_h, target, r->ml.rows);
}

int review_set_game(struct review *r, const struct review_game *g)
{
	struct position *pos = malloc((g->n_moves + 1) * sizeof *pos);
	if (!pos) {
		snprintf(r->message, sizeof r->message, "out of memory");
		return -1;
	}
	pos[0] = g->start;
	for (size_t i = 0; i < g->n_moves; i++) {
		struct undo u;
		pos[i + 1] = pos[i];
		move m = g->moves[i].m;
		if (m == MOVE_NONE && !position_in_check(&pos[i])) {
			pgn_null_move(&pos[i + 1]);
		} else if (position_is_legal(&pos[i], m)) {
			position_make(&pos[i + 1], m, &u);
		} else {
			snprintf(r->message, sizeof r->message, "move %zu (%s) is not legal", i + 1, g->moves[i].san);
			free(pos);
			return -1;
		}
	}
	free(r->positions);
	r->positions = pos;
	r->game = *g;
	r->has_game = true;
	r->ply = 0;
	r->ml_top = 0;
	r->screen = REVIEW_SCREEN_GAME;
	r->message[0] = '\0';
	review_relayout_moves(r);
	return 0;
}

static struct review_cmd review_cmd(enum review_cmd_kind kind, long arg)
{
	struct review_cmd c = { kind, arg, 0 };
	return c;
}

struct review_cmd review_key(const struct review *r, int key)
{
	if (key == 'q' && !r->prompt)
		return review_cmd(REVIEW_CMD_QUIT, 0);
	if (key == KEYS_CTRL_L)
		return review_cmd(REVIEW_CMD_REDRAW, 0);
	if (r->prompt) {
		if (key >= '0' && key <= '9')
			return review_cmd(REVIEW_CMD_PROMPT_INPUT, key);
		if (key == KEYS_BACKSPACE || key == '\b')
			return review_cmd(REVIEW_CMD_PROMPT_ERASE, 0);
		if (key == KEYS_ENTER || key == '\r')
			return review_cmd(REVIEW_CMD_PROMPT_SUBMIT, 0);
		if (key == KEYS_ESC)
			return review_cmd(REVIEW_CMD_PROMPT_CANCEL, 0);
		return review_cmd(REVIEW_CMD_NONE, 0);
	}
	if (r->help) {
		/* Any key closes help; it does nothing else. */
		if (key == KEYS_RESIZE || key == KEYS_MOUSE)
			return review_cmd(REVIEW_CMD_NONE, 0);
		return review_cmd(REVIEW_CMD_HELP, 0);
	}
	if (key == '?')
		return review_cmd(REVIEW_CMD_HELP, 0);

	if (r->screen == REVIEW_SCREEN_LIST) {
		switch (key) {
		case KEYS_UP:
		case 'k':
			return review_cmd(REVIEW_CMD_LIST_MOVE, -1);
		case KEYS_DOWN:
		case 'j':
			return review_cmd(REVIEW_CMD_LIST_MOVE, 1);
		case KEYS_PGUP:
			return review_cmd(REVIEW_CMD_LIST_MOVE, -(long)(r->layout.h > 4 ? r->layout.h - 4 : 1));
		case KEYS_PGDN:
			return review_cmd(REVIEW_CMD_LIST_MOVE, r->layout.h > 4 ? r->layout.h - 4 : 1);
		case KEYS_HOME:
		case 'g':
			return review_cmd(REVIEW_CMD_LIST_MOVE, -(long)r->n_entries);
		case KEYS_END:
		case 'G':
			return review_cmd(REVIEW_CMD_LIST_MOVE, (long)r->n_entries);
		case KEYS_ENTER:
		case '\r':
		case ' ':
		case KEYS_RIGHT:
		case 'l':
			return review_cmd(REVIEW_CMD_LIST_OPEN, 0);
		default:
			return review_cmd(REVIEW_CMD_NONE, 0);
		}
	}

	switch (key) {
	case KEYS_LEFT:
	case 'h':
		return review_cmd(REVIEW_CMD_STEP, -1);
	case KEYS_RIGHT:
	case 'l':
	case ' ':
		return review_cmd(REVIEW_CMD_STEP, 1);
	case KEYS_UP:
	case 'k':
		return review_cmd(REVIEW_CMD_STEP, -2);
	case KEYS_DOWN:
	case 'j':
		return review_cmd(REVIEW_CMD_STEP, 2);
	case KEYS_HOME:
	case 'g':
		return review_cmd(REVIEW_CMD_FIRST, 0);
	case KEYS_END:
	case 'G':
		return review_cmd(REVIEW_CMD_LAST, 0);
	case KEYS_PGUP:
		return review_cmd(REVIEW_CMD_PAGE, -1);
	case KEYS_PGDN:
		return review_cmd(REVIEW_CMD_PAGE, 1);
	case 'f':
		return review_cmd(REVIEW_CMD_FLIP, 0);
	case ':':
		return review_cmd(REVIEW_CMD_PROMPT_OPEN, 0);
	case KEYS_ESC:
	case KEYS_BACKSPACE:
	case '\b':
	case '<':
		return review_cmd(r->n_entries > 1 ? REVIEW_CMD_LIST_BACK : REVIEW_CMD_NONE, 0);
	default:
		return review_cmd(REVIEW_CMD_NONE, 0);
	}
}

static unsigned review_goto(struct review *r, long ply)
{
	if (!r->has_game)
		return 0;
	long n = (long)r->game.n_moves;
	if (ply < 0)
		ply = 0;
	if (ply > n)
		ply = n;
	if ((size_t)ply == r->ply)
		return 0;
	r->ply = (size_t)ply;
	int target = r->ply ? movelist_row_of(&r->ml, r->ply - 1) : 0;
	r->ml_top = movelist_scroll(r->ml_top, r->layout.moves_h, target, r->ml.rows);
	return REVIEW_DIRTY_GAME;
}

static unsigned review_open_selected(struct review *r)
{
	struct review_game g;
	char err[160];
	if (r->n_entries == 0)
		return 0;
	size_t i = r->list_sel;
	if (r->entries[i].error[0]) {
		snprintf(r->message, sizeof r->message, "game %zu cannot be shown: %s", i + 1, r->entries[i].error);
		return REVIEW_DIRTY_STATUS;
	}
	if (!r->load || r->load(r->load_ctx, i, &g, err, sizeof err) < 0) {
		snprintf(r->message, sizeof r->message, "game %zu: %s", i + 1, r->load ? err : "no loader");
		return REVIEW_DIRTY_STATUS;
	}
	if (review_set_game(r, &g) < 0)
		return REVIEW_DIRTY_STATUS;
	r->game_index = i;
	return REVIEW_DIRTY_ALL;
}

unsigned review_apply(struct review *r, const struct review_cmd *c)
{
	unsigned dirty = 0;
	/* A message stays until the next command. */
	if (r->message[0] && c->kind != REVIEW_CMD_NONE) {
		r->message[0] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
	}
	switch (c->kind) {
	case REVIEW_CMD_NONE:
		break;
	case REVIEW_CMD_QUIT:
		r->quit = true;
		break;
	case REVIEW_CMD_STEP:
		dirty |= review_goto(r, (long)r->ply + c->arg);
		break;
	case REVIEW_CMD_FIRST:
		dirty |= review_goto(r, 0);
		break;
	case REVIEW_CMD_LAST:
		dirty |= review_goto(r, r->has_game ? (long)r->game.n_moves : 0);
		break;
	case REVIEW_CMD_GOTO:
		if (r->has_game && (c->arg < 0 || (size_t)c->arg > r->game.n_moves)) {
			snprintf(r->message, sizeof r->message, "no ply %ld: this game has plies 0 to %zu", c->arg,
				 r->game.n_moves);
			dirty |= REVIEW_DIRTY_STATUS;
			break;
		}
		dirty |= review_goto(r, c->arg);
		break;
	case REVIEW_CMD_PAGE: {
		int page = r->layout.moves_h > 1 ? r->layout.moves_h - 1 : 1;
		dirty |= review_goto(r, (long)r->ply + c->arg * 2 * page);
		break;
	}
	case REVIEW_CMD_FLIP:
		r->flipped = !r->flipped;
		/* The names follow the pieces. */
		dirty |= REVIEW_DIRTY_BOARD | REVIEW_DIRTY_TAGS | REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_HELP:
		r->help = !r->help;
		dirty |= r->help ? REVIEW_DIRTY_HELP : REVIEW_DIRTY_ALL;
		break;
	case REVIEW_CMD_PROMPT_OPEN:
		r->prompt = true;
		r->prompt_text[0] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_PROMPT_INPUT: {
		size_t n = strlen(r->prompt_text);
		if (n + 1 < sizeof r->prompt_text && n < 6) {
			r->prompt_text[n] = (char)c->arg;
			r->prompt_text[n + 1] = '\0';
		}
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_PROMPT_ERASE: {
		size_t n = strlen(r->prompt_text);
		if (n)
			r->prompt_text[n - 1] = '\0';
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_PROMPT_SUBMIT: {
		r->prompt = false;
		dirty |= REVIEW_DIRTY_STATUS;
		if (r->prompt_text[0]) {
			struct review_cmd g = { REVIEW_CMD_GOTO, strtol(r->prompt_text, NULL, 10), 0 };
			dirty |= review_apply(r, &g);
		}
		break;
	}
	case REVIEW_CMD_PROMPT_CANCEL:
		r->prompt = false;
		dirty |= REVIEW_DIRTY_STATUS;
		break;
	case REVIEW_CMD_LIST_MOVE: {
		if (r->n_entries == 0)
			break;
		long sel = (long)r->list_sel + c->arg;
		if (sel < 0)
			sel = 0;
		if (sel >= (long)r->n_entries)
			sel = (long)r->n_entries - 1;
		r->list_sel = (size_t)sel;
		r->list_top = movelist_scroll(r->list_top, r->layout.h - 3, (int)sel, (int)r->n_entries);
		dirty |= REVIEW_DIRTY_LIST | REVIEW_DIRTY_STATUS;
		break;
	}
	case REVIEW_CMD_LIST_OPEN:
		dirty |= review_open_selected(r);
		break;
	case REVIEW_CMD_LIST_BACK:
		if (r->n_entries > 1) {
			r->screen = REVIEW_SCREEN_LIST;
			dirty |= REVIEW_DIRTY_ALL;
		}
		break;
	case REVIEW_CMD_RESIZE:
		review_layout_compute(&r->layout, (int)c->arg, (int)c->arg2);
		review_relayout_moves(r);
		r->list_top = movelist_scroll(r->list_top, r->layout.h - 3, (int)r->list_sel, (int)r->n_entries);
		dirty |= REVIEW_DIRTY_ALL;
		break;
	case REVIEW_CMD_REDRAW:
		dirty |= REVIEW_DIRTY_ALL;
		break;
	}
	return dirty;
}

void review_layout_compute(struct review_layout *l, int w, int h)
{
	memset(l, 0, sizeof *l);
	l->w = w;
	l->h = h;
	l->status_y = h - 1;
	if (w < REVIEW_MIN_WIDTH || h < REVIEW_MIN_HEIGHT) {
		l->too_small = true;
		return;
	}
	/* The board takes what the side column (at least 24 wide) and the
	 * status line leave; the rest of the left column is the info pane. */
	if (board_view_geometry(w - 25, h - 1, &l->board) < 0) {
		l->too_small = true;
		return;
	}
	l->info_y = l->board.height;
	l->info_h = h - 1 - l->board.height;
	l->side_x = l->board.width + 1;
	l->side_w = w - l->side_x;
	l->tags_y = 0;
	l->tags_h = 4;
	l->comment_h = (h - 1) / 4;
	if (l->comment_h < 3)
		l->comment_h = 3;
	if (l->comment_h > 7)
		l->comment_h = 7;
	l->moves_y = l->tags_h + 1;
	l->moves_h = h - 1 - l->moves_y - l->comment_h;
	l->comment_y = l->moves_y + l->moves_h;
}

void review_board_view(const struct review *r, struct board_view *v)
{
	board_view_init(v);
	v->flipped = r->flipped;
	v->ascii = r->ascii;
	if (!r->has_game)
		return;
	board_view_set(v, &r->positions[r->ply], r->ply ? r->game.moves[r->ply - 1].m : MOVE_NONE);
}

int64_t review_clock_of(const struct review *r, enum color c)
{
	if (!r->has_game)
		return -1;
	for (size_t i = r->ply; i > 0; i--)
		if (r->positions[i - 1].side == c && r->game.moves[i - 1].clock_ms >= 0)
			return r->game.moves[i - 1].clock_ms;
	return -1;
}

enum color review_header_color(const struct review *r, int row)
{
	enum color top = r->flipped ? WHITE : BLACK;
	return row == 0 ? top : (enum color)!top;
}

/* A tag's value worth showing: not NULL, "" or "?"/"-". */
static bool review_tag_known(const char *v)
{
	return v && *v && strcmp(v, "?") && strcmp(v, "-");
}

void review_player_text(const struct review *r, enum color c, char *buf, size_t size)
{
	const char *name = c == WHITE ? r->game.white : r->game.black;
	const char *elo = c == WHITE ? r->game.white_elo : r->game.black_elo;
	if (!review_tag_known(name))
		name = "?";
	if (review_tag_known(elo))
		snprintf(buf, size, "%s (%s)", name, elo);
	else
		snprintf(buf, size, "%s", name);
}

void review_opening_text(const struct review *r, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!r->has_game)
		return;
	bool eco = review_tag_known(r->game.eco), name = review_tag_known(r->game.opening);
	if (eco || name) {
		snprintf(buf, size, "%s%s%s", eco ? r->game.eco : "", eco && name ? " " : "",
			 name ? r->game.opening : "");
		return;
	}
	for (size_t i = r->ply + 1; i > 0; i--) {
		const struct eco_entry *e = eco_lookup(&r->positions[i - 1]);
		if (e) {
			snprintf(buf, size, "%s %s", e->code, e->name);
			return;
		}
	}
}

const char *review_comment(const struct review *r)
{
	if (!r->has_game)
		return NULL;
	return r->ply ? r->game.moves[r->ply - 1].comment : r->game.comment_start;
}

int review_event_text(const char *event, const char *date, const char *result, int width, bool ascii, char *buf,
		      size_t size)
{
	char tail[64], fitted[256];
	const char *dots = ascii ? "..." : "\u2026";
	if (!event)
		event = "";
	/* An unknown date ("?", "????.??.??") says nothing: no room for it. */
	if (date && !date[strspn(date, "?.")])
		date = NULL;
	for (int with_date = date && *date; with_date >= 0; with_date--) {
		snprintf(tail, sizeof tail, "%s%s%s%s", with_date ? ", " : "", with_date ? date : "",
			 result ? "  " : "", result ? result : "");
		int room = width - text_wrap_cols(tail);
		/* The date goes before the event shrinks to a stub; with no
		 * date left, the event takes what room there is. */
		if (with_date && room < REVIEW_EVENT_MIN && text_wrap_cols(event) > room)
			continue;
		text_wrap_fit(event, room, dots, fitted, sizeof fitted);
		snprintf(buf, size, "%s%s", fitted, tail);
		return text_wrap_cols(buf);
	}
	return 0;
}

size_t review_wrap(const char *text, int width, size_t *next)
{
	size_t i = 0, last_blank = 0, cols = 0;
	bool have_blank = false;
	if (width < 1)
		width = 1;
	while (text[i] && text[i] != '\n') {
		if ((text[i] & 0xC0) != 0x80) {
			if ((int)cols == width)
				break;
			cols++;
		}
		if (text[i] == ' ') {
			last_blank = i;
			have_blank = true;
		}
		i++;
	}
	size_t len = i, start = i;
	if (text[i] == '\n') {
		start = i + 1;
	} else if (text[i] == ' ') {
		start = i + 1;
	} else if (text[i] && have_blank && last_blank > 0) {
		len = last_blank;
		start = last_blank + 1;
	}
	/* Skip the blanks that would begin the next line. */
	while (text[start] == ' ')
		start++;
	*next = start;
	return len;
}
