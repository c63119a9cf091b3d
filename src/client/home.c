/*
 * The home screen's model (home.h): the actions, the player's games and
 * the live ones as rows, the keys, the join prompt, and the requests and
 * their answers. The lists come from GET /v1/me/games and GET /v1/games
 * (the lobby's sections and the seek form are home-lobby.c's), fetched
 * again every HOME_REFRESH_MS while the screen shows; a typed id is
 * looked up with ?prefix= as "tchess join" does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "route.h"
#include "config.h"
#include "home-internal.h"
#include "keys.h"
#include "tchess/fold.h"
#include "util/xalloc.h"

static const char *const home_action_text[HOME_ACTION_NB][2] = {
	[HOME_ENGINE] = { "Play the engine", "level 3, 5+3, your colour drawn" },
	[HOME_SEEK] = { "Seek an opponent", "an open 5+3 game that anyone may join" },
	[HOME_INVITE] = { "Invite a friend", "a 5+3 game and a code to read aloud" },
	[HOME_JOIN] = { "Join a game", "by its invite line, code or id" },
	[HOME_TOURNAMENTS] = { "Tournaments", "register, withdraw, open their games" },
	[HOME_REVIEW] = { "Review a PGN file", "step through a file's games, offline" },
	[HOME_HOTSEAT] = { "Play a friend here", "two players on this terminal" },
	[HOME_SETTINGS] = { "Settings", "theme, pieces, sounds (saved to the config file)" },
	[HOME_QUIT] = { "Quit", "" },
};

void home_say(struct home *h, bool error, const char *text)
{
	snprintf(h->message, sizeof h->message, "%.*s", (int)sizeof h->message - 1, text);
	h->message_error = error;
}

void home_queue(struct home *h, const struct home_req *r)
{
	if (h->n_out < sizeof h->out / sizeof h->out[0])
		h->out[h->n_out++] = *r;
}

static void home_queue_kind(struct home *h, enum home_req_kind kind)
{
	struct home_req r = { .kind = kind, .color = -1 };
	home_queue(h, &r);
}

static void home_refresh(struct home *h)
{
	if (h->lichess) {
		home_lx_refresh(h);
		return;
	}
	if (h->have_account) {
		home_queue_kind(h, HOME_REQ_MY_GAMES);
		home_recent_refresh(h);
	}
	home_queue_kind(h, HOME_REQ_LIVE);
}

static const char *const home_tcs[] = { "1+0", "3+2", "5+3", "10+5", "15+10", "30+20", "unlimited" };

const char *const *home_time_controls(size_t *n)
{
	*n = sizeof home_tcs / sizeof home_tcs[0];
	return home_tcs;
}

void home_init(struct home *h, bool have_account)
{
	memset(h, 0, sizeof *h);
	h->have_account = have_account;
	h->engine_level = 3;
	h->engine_color = -1;
	h->engine_tc = 2; /* 5+3 */
	h->hotseat_tc = 2;
	home_form_defaults(h, NULL, NULL);
	home_refresh(h);
}

void home_fini(struct home *h)
{
	protocol_my_games_fini(&h->mine);
	protocol_finished_games_fini(&h->recent);
	free(h->live);
	h->live = NULL;
	h->n_live = 0;
}

/* The rows: the actions, a blank, "Your games" and them, the lobby (a
 * blank, "Open seeks" and them, a blank, "Live games" and them), then the
 * recent games (a blank, their heading, them). A heading that says
 * "none" has no row under it. The form, while it is open, instead. */
int home_rows(const struct home *h)
{
	if (h->lichess)
		return home_lx_rows(h);
	if (h->form.open)
		return home_form_rows(h);
	return HOME_ACTION_NB + 2 + (int)h->mine.n + home_lobby_rows(h, true) + home_lobby_rows(h, false) +
	       home_recent_rows(h);
}

enum home_row_kind home_row(const struct home *h, int row, size_t *index)
{
	*index = 0;
	if (h->lichess)
		return home_lx_row(h, row, index);
	if (h->form.open)
		return home_form_row(h, row, index);
	if (row < HOME_ACTION_NB) {
		*index = (size_t)row;
		return HOME_ROW_ACTION;
	}
	row -= HOME_ACTION_NB;
	if (row == 0)
		return HOME_ROW_BLANK;
	if (row == 1)
		return HOME_ROW_HEADING;
	row -= 2;
	int n_mine = (int)h->mine.n;
	if (row < n_mine) {
		*index = (size_t)row;
		return HOME_ROW_MINE;
	}
	row -= n_mine;
	if (row < home_lobby_rows(h, true))
		return home_lobby_row(h, row, true, index);
	row -= home_lobby_rows(h, true);
	if (row < home_lobby_rows(h, false))
		return home_lobby_row(h, row, false, index);
	row -= home_lobby_rows(h, false);
	if (row < home_recent_rows(h))
		return home_recent_row(h, row, index);
	return HOME_ROW_BLANK;
}

static bool home_selectable(const struct home *h, int row)
{
	size_t i;
	enum home_row_kind k = home_row(h, row, &i);
	return k == HOME_ROW_ACTION || k == HOME_ROW_MINE || k == HOME_ROW_LIVE || k == HOME_ROW_RECENT ||
	       k == HOME_ROW_SEEK || k == HOME_ROW_FIELD;
}

void home_row_text(const struct home *h, int row, char *buf, size_t size)
{
	size_t i;
	if (h->lichess) {
		home_lx_row_text(h, row, buf, size);
		return;
	}
	if (h->form.open) {
		home_form_row_text(h, row, buf, size);
		return;
	}
	switch (home_row(h, row, &i)) {
	case HOME_ROW_ACTION:
		if (i == HOME_ENGINE) {
			/* Its settings, as they will be asked for. */
			snprintf(buf, size, "  1  %-18s level %d, %s, %s%s", home_action_text[i][0], h->engine_level,
				 home_tcs[h->engine_tc],
				 h->engine_color == WHITE   ? "you play White"
				 : h->engine_color == BLACK ? "you play Black"
							    : "your colour drawn",
				 h->sel == HOME_ENGINE ? "   (+ - c t)" : "");
			break;
		}
		if (i == HOME_SEEK || i == HOME_INVITE) {
			/* The form's values, as the game will be made. */
			const struct home_form_values *v = &h->form.values;
			snprintf(buf, size, "  %c  %-18s %s %s, %s%s", (char)('1' + i), home_action_text[i][0], v->tc,
				 v->ruleset,
				 v->color == WHITE   ? "you play White"
				 : v->color == BLACK ? "you play Black"
						     : "colour drawn",
				 i == HOME_SEEK ? ": anyone may join" : ", and a code");
			break;
		}
		if (i == HOME_HOTSEAT) {
			snprintf(buf, size, "  %d  %-18s %s, %s%s", HOME_HOTSEAT + 1, home_action_text[i][0],
				 home_action_text[i][1], home_tcs[h->hotseat_tc], h->sel == HOME_HOTSEAT ? "   (t)" : "");
			break;
		}
		snprintf(buf, size, "  %c  %-18s %s", i == HOME_QUIT ? 'q' : (char)('1' + i), home_action_text[i][0],
			 home_action_text[i][1]);
		break;
	case HOME_ROW_HEADING:
		if (i == HOME_HEADING_RECENT)
			home_recent_heading(h, buf, size);
		else if (i == HOME_HEADING_MINE)
			snprintf(buf, size, "%s", !h->have_account ? "Your games (register first: tchess register NAME)"
						  : !h->have_mine     ? "Your games (loading...)"
						  : h->mine.n	      ? "Your games"
								      : "Your games: none yet");
		else
			home_lobby_heading(h, i == HOME_HEADING_SEEKS, buf, size);
		break;
	case HOME_ROW_MINE: {
		const struct protocol_my_game *g = &h->mine.games[i];
		char who[PROTOCOL_NAME_MAX + 8];
		if (!strcmp(g->status, "open"))
			snprintf(who, sizeof who, "(waiting)");
		else
			snprintf(who, sizeof who, "vs %s", g->opponent_name[0] ? g->opponent_name : "engine");
		snprintf(buf, size, "  %.8s  %-5s %-18.18s %-10.10s move %-4lld %s", g->id, g->color, who, g->tc,
			 (long long)(g->ply / 2 + 1),
			 !strcmp(g->status, "open") ? "waiting for an opponent"
			 : g->your_move		    ? "* your move"
						    : "their move");
		break;
	}
	case HOME_ROW_RECENT:
		home_recent_row_text(h, i, buf, size);
		break;
	case HOME_ROW_SEEK:
	case HOME_ROW_LIVE:
		home_lobby_row_text(h, (long)i, home_row(h, row, &i) == HOME_ROW_SEEK, buf, size);
		break;
	case HOME_ROW_COLUMNS:
		home_lobby_row_text(h, -1, i == 1, buf, size);
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

void home_status_text(const struct home *h, char *buf, size_t size)
{
	if (h->lichess) {
		home_lx_status_text(h, buf, size);
		return;
	}
	if (h->form.open)
		snprintf(buf, size, "tchess | Up/Down setting  Left/Right change  Enter create  Esc cancel");
	else if (h->typing && h->typing_file)
		snprintf(buf, size, "file: %s_   Enter opens, Esc cancels", h->input);
	else if (h->typing)
		snprintf(buf, size, "join: %s_   Enter joins, Esc cancels", h->input);
	else if (h->sel == HOME_ENGINE)
		snprintf(buf, size, "tchess | +/- level  c colour  t time control  Enter play  q quit");
	else if (h->sel == HOME_HOTSEAT)
		snprintf(buf, size, "tchess | t time control  Enter play  q quit");
	else if (home_row(h, h->sel, &(size_t){ 0 }) == HOME_ROW_SEEK)
		snprintf(buf, size, "tchess | Enter takes the seat  Up/Down select  r refresh  q quit");
	else if (home_row(h, h->sel, &(size_t){ 0 }) == HOME_ROW_LIVE)
		snprintf(buf, size, "tchess | Enter watches  Up/Down select  r refresh  q quit");
	else if (home_row(h, h->sel, &(size_t){ 0 }) == HOME_ROW_RECENT)
		snprintf(buf, size, "tchess | Enter review  e export the PGN  Up/Down select  r refresh  q quit");
	else
		snprintf(buf, size, "tchess | Up/Down select  Enter open  1-%d start  r refresh  q quit", HOME_QUIT);
}

struct home_cmd home_key(const struct home *h, int key)
{
	struct home_cmd c = { HOME_CMD_NONE, 0, 0 };
	if (h->typing) {
		if (key == KEYS_ENTER)
			c.kind = HOME_CMD_SUBMIT;
		else if (key == KEYS_ESC)
			c.kind = HOME_CMD_CANCEL;
		else if (key == KEYS_BACKSPACE)
			c.kind = HOME_CMD_ERASE;
		else if (key >= 0x20 && key < 0x7f)
			c = (struct home_cmd){ HOME_CMD_TYPE, key, 0 };
		return c;
	}
	if (h->lichess) {
		c = home_lx_key(h, key);
		if (c.kind != HOME_CMD_NONE)
			return c;
	}
	/* The form: its own keys, Up/Down and Enter as on the rows, no
	 * other. */
	if (h->form.open) {
		switch (key) {
		case KEYS_TAB:
			return (struct home_cmd){ HOME_CMD_MOVE, 1, 0 };
		case KEYS_LEFT:
		case 'h':
		case '-':
			return (struct home_cmd){ HOME_CMD_FIELD, -1, 0 };
		case KEYS_RIGHT:
		case 'l':
		case '+':
		case ' ':
			return (struct home_cmd){ HOME_CMD_FIELD, 1, 0 };
		case KEYS_ESC:
		case 'q':
			return (struct home_cmd){ HOME_CMD_CANCEL, 0, 0 };
		case KEYS_UP:
		case 'k':
		case KEYS_DOWN:
		case 'j':
		case KEYS_ENTER:
			break;
		default:
			return c;
		}
	}
	switch (key) {
	case KEYS_UP:
	case 'k':
		return (struct home_cmd){ HOME_CMD_MOVE, -1, 0 };
	case KEYS_DOWN:
	case 'j':
		return (struct home_cmd){ HOME_CMD_MOVE, 1, 0 };
	case KEYS_ENTER:
		return (struct home_cmd){ HOME_CMD_ACTIVATE, 0, 0 };
	case 'r':
		return (struct home_cmd){ HOME_CMD_REFRESH, 0, 0 };
	case 'q':
		return (struct home_cmd){ HOME_CMD_QUIT, 0, 0 };
	default:
		/* The engine game's settings, on its row. */
		if (h->sel == HOME_ENGINE && (key == '+' || key == '=' || key == '-'))
			return (struct home_cmd){ HOME_CMD_ENGINE_LEVEL, key == '-' ? -1 : 1, 0 };
		if (h->sel == HOME_ENGINE && key == 'c')
			return (struct home_cmd){ HOME_CMD_ENGINE_COLOR, 0, 0 };
		if (key == 'e' && home_row(h, h->sel, &(size_t){ 0 }) == HOME_ROW_RECENT)
			return (struct home_cmd){ HOME_CMD_EXPORT, 0, 0 };
		if ((h->sel == HOME_ENGINE || h->sel == HOME_HOTSEAT) && key == 't')
			return (struct home_cmd){ HOME_CMD_ENGINE_TC, 0, 0 };
		if (key >= '1' && key < '1' + HOME_QUIT)
			return (struct home_cmd){ HOME_CMD_SELECT, key - '1', 0 };
		return c;
	}
}

struct home_cmd home_mouse(const struct home *h, int x, int y)
{
	(void)x;
	struct home_cmd c = { HOME_CMD_NONE, 0, 0 };
	/* The rows start on the body's third line (ui/home.c), above the
	 * message and status lines. */
	int row = h->top + y - 2;
	if (h->typing || y < 2 || y >= h->h - 2 || row >= home_rows(h))
		return c;
	c.kind = HOME_CMD_CLICK;
	c.arg = row;
	return c;
}

/* The create request of a game against the engine (a seek's and an
 * invite's come from their form, home-lobby.c). */
static void home_create_engine(struct home *h)
{
	if (!h->have_account) {
		home_say(h, true, "no account on this server: tchess register NAME first");
		return;
	}
	struct home_req r = { .kind = HOME_REQ_CREATE, .action = HOME_ENGINE, .color = -1, .level = h->engine_level,
			      .want_color = h->engine_color };
	snprintf(r.tc, sizeof r.tc, "%s", home_tcs[h->engine_tc]);
	home_queue(h, &r);
	home_say(h, false, "starting a game against the engine...");
}

/* The game of a typed id that is the player's own, or NULL. */
static const struct protocol_my_game *home_mine_by_prefix(const struct home *h, const char *id)
{
	const struct protocol_my_game *found = NULL;
	for (size_t i = 0; i < h->mine.n; i++)
		if (!strncmp(h->mine.games[i].id, id, strlen(id))) {
			if (found)
				return NULL;
			found = &h->mine.games[i];
		}
	return found;
}

void home_open(struct home *h, const char *id, int color, const char *note)
{
	struct home_req r = { .kind = HOME_REQ_OPEN_GAME, .color = color };
	snprintf(r.id, sizeof r.id, "%s", id);
	if (note)
		snprintf(r.note, sizeof r.note, "%s", note);
	home_queue(h, &r);
}

static void home_open_mine(struct home *h, const struct protocol_my_game *g)
{
	int color = -1;
	fold_color_parse(g->color, &color);
	home_open(h, g->id, color, NULL);
}

/* What was typed at the join prompt: "ID", "ID:CODE", or the whole
 * invite line ("tchess join ID:CODE"). */
static void home_submit(struct home *h)
{
	char text[HOME_INPUT_MAX + 1];
	const char *p = h->input;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "tchess join ", 12))
		p += 12;
	while (*p == ' ')
		p++;
	snprintf(text, sizeof text, "%s", p);
	h->typing = false;
	h->input[0] = '\0';
	struct home_req r = { .kind = HOME_REQ_FIND, .color = -1 };
	char *colon = strchr(text, ':');
	if (colon) {
		*colon = '\0';
		snprintf(r.invite, sizeof r.invite, "%.*s", PROTOCOL_INVITE_MAX, colon + 1);
	}
	size_t hex = strspn(text, "0123456789abcdef");
	if (text[hex] || hex < 8 || hex > PROTOCOL_GAME_ID_MAX) {
		home_say(h, true, "a game is named by 8 or more hex digits of its id (as 'tchess join 208fe1f1:CODE')");
		return;
	}
	const struct protocol_my_game *g = home_mine_by_prefix(h, text);
	if (g) {
		home_open_mine(h, g);
		return;
	}
	snprintf(r.id, sizeof r.id, "%.*s", PROTOCOL_GAME_ID_MAX, text);
	home_queue(h, &r);
	home_say(h, false, "looking the game up...");
}

static unsigned home_activate(struct home *h, int row)
{
	size_t i;
	if (h->lichess)
		return home_lx_activate(h, row);
	switch (home_row(h, row, &i)) {
	case HOME_ROW_FIELD:
		if (i == HOME_FIELD_CANCEL) {
			home_form_close(h);
			home_say(h, false, "");
		} else {
			home_form_submit(h);
		}
		break;
	case HOME_ROW_ACTION:
		switch ((enum home_action)i) {
		case HOME_ENGINE:
			home_create_engine(h);
			break;
		case HOME_SEEK:
		case HOME_INVITE:
			if (!h->have_account)
				home_say(h, true, "no account on this server: tchess register NAME first");
			else
				home_form_open(h, (enum home_action)i);
			break;
		case HOME_JOIN:
			h->typing = true;
			h->typing_file = false;
			h->input[0] = '\0';
			home_say(h, false, "type the invite line, the code or the id, then Enter");
			break;
		case HOME_REVIEW:
			h->typing = true;
			h->typing_file = true;
			h->input[0] = '\0';
			home_say(h, false, "type the PGN file's path (~/ for your home folder), then Enter");
			break;
		case HOME_TOURNAMENTS:
			home_queue_kind(h, HOME_REQ_TOURNAMENTS);
			break;
		case HOME_SETTINGS:
			home_queue_kind(h, HOME_REQ_SETTINGS);
			break;
		case HOME_HOTSEAT: {
			struct home_req r = { .kind = HOME_REQ_HOTSEAT, .color = -1 };
			snprintf(r.tc, sizeof r.tc, "%s", home_tcs[h->hotseat_tc]);
			if (!h->have_account) {
				home_say(h, true, "no account on this server: tchess register NAME first");
				break;
			}
			home_queue(h, &r);
			home_say(h, false, "opening a game for two at this terminal...");
			break;
		}
		default:
			h->quit = true;
			break;
		}
		break;
	case HOME_ROW_MINE:
		home_open_mine(h, &h->mine.games[i]);
		break;
	case HOME_ROW_RECENT:
		return home_recent_open(h, i, true);
	case HOME_ROW_SEEK: {
		struct home_req r = { .kind = HOME_REQ_JOIN, .color = -1 };
		snprintf(r.id, sizeof r.id, "%s", h->live[i].id);
		if (!h->have_account) {
			home_say(h, true, "no account on this server: tchess register NAME first");
		} else {
			home_queue(h, &r);
			home_say(h, false, "taking the seat...");
		}
		break;
	}
	case HOME_ROW_LIVE:
		home_open(h, h->live[i].id, -1, NULL);
		break;
	default:
		break;
	}
	return HOME_DIRTY_ALL;
}

/* The id of the game on the selected row ("" for another row). */
static void home_sel_id(const struct home *h, char *id, size_t size)
{
	size_t i;
	id[0] = '\0';
	if (h->lichess || h->form.open)
		return;
	switch (home_row(h, h->sel, &i)) {
	case HOME_ROW_MINE:
		snprintf(id, size, "%s", h->mine.games[i].id);
		break;
	case HOME_ROW_SEEK:
	case HOME_ROW_LIVE:
		snprintf(id, size, "%s", h->live[i].id);
		break;
	default:
		break;
	}
}

/* After the lists changed: the selection on game id's row again if it is
 * still listed (a refresh must not slide another seek under the cursor),
 * else on a row that can be selected, at or above where it was. */
static void home_sel_keep(struct home *h, const char *id)
{
	int n = home_rows(h);
	if (id[0] && !h->form.open) {
		for (int row = 0; row < n; row++) {
			char at[PROTOCOL_GAME_ID_MAX + 1];
			int keep = h->sel;
			h->sel = row;
			home_sel_id(h, at, sizeof at);
			if (!strcmp(at, id))
				return;
			h->sel = keep;
		}
	}
	if (h->sel >= n)
		h->sel = n - 1;
	while (h->sel > 0 && !home_selectable(h, h->sel))
		h->sel--;
}

static void home_scroll(struct home *h)
{
	int rows = h->h - 4;
	if (rows < 1)
		rows = 1;
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + rows)
		h->top = h->sel - rows + 1;
	/* The actions stay in sight while the selection is on them. */
	if (h->form.open || h->sel < (h->lichess ? HOME_LX_ACTION_NB : HOME_ACTION_NB))
		h->top = 0;
}

unsigned home_apply(struct home *h, const struct home_cmd *c)
{
	if (h->lichess) {
		int lx = home_lx_apply(h, c);
		if (lx >= 0)
			return (unsigned)lx;
	}
	switch (c->kind) {
	case HOME_CMD_RESIZE:
		h->w = c->arg;
		h->h = c->arg2;
		home_scroll(h);
		return HOME_DIRTY_ALL;
	case HOME_CMD_MOVE: {
		int n = home_rows(h), row = h->sel;
		do
			row += c->arg;
		while (row >= 0 && row < n && !home_selectable(h, row));
		if (row >= 0 && row < n)
			h->sel = row;
		home_scroll(h);
		/* The status line names the selected row's keys. */
		return HOME_DIRTY_BODY | HOME_DIRTY_STATUS;
	}
	case HOME_CMD_SELECT:
		h->sel = c->arg;
		home_scroll(h);
		return home_activate(h, c->arg);
	case HOME_CMD_ACTIVATE:
		return home_activate(h, h->sel);
	case HOME_CMD_REFRESH:
		home_refresh(h);
		home_say(h, false, "refreshing...");
		return HOME_DIRTY_MESSAGE;
	case HOME_CMD_TYPE: {
		size_t n = strlen(h->input);
		if (n < HOME_INPUT_MAX) {
			h->input[n] = (char)c->arg;
			h->input[n + 1] = '\0';
		}
		return HOME_DIRTY_STATUS;
	}
	case HOME_CMD_ERASE: {
		size_t n = strlen(h->input);
		if (n)
			h->input[n - 1] = '\0';
		return HOME_DIRTY_STATUS;
	}
	case HOME_CMD_SUBMIT:
		if (h->typing_file) {
			struct home_req r = { .kind = HOME_REQ_REVIEW, .color = -1 };
			const char *home = getenv("HOME");
			if (!strncmp(h->input, "~/", 2) && home)
				snprintf(r.note, sizeof r.note, "%s/%s", home, h->input + 2);
			else
				snprintf(r.note, sizeof r.note, "%s", h->input);
			h->typing = h->typing_file = false;
			h->input[0] = '\0';
			if (!r.note[0]) {
				home_say(h, true, "no file named");
				return HOME_DIRTY_ALL;
			}
			/* Said here, on this screen, before anything opens. */
			if (access(r.note, R_OK) < 0) {
				char why[HOME_MESSAGE_MAX];
				snprintf(why, sizeof why, "cannot read %.160s: %s", r.note, strerror(errno));
				home_say(h, true, why);
				return HOME_DIRTY_ALL;
			}
			home_say(h, false, "");
			home_queue(h, &r);
			return HOME_DIRTY_ALL;
		}
		home_submit(h);
		return HOME_DIRTY_ALL;
	case HOME_CMD_CANCEL:
		if (h->form.open)
			home_form_close(h);
		h->typing = h->typing_file = false;
		home_say(h, false, "");
		return HOME_DIRTY_ALL;
	case HOME_CMD_FIELD:
		return h->form.open ? home_form_change(h, c->arg) : 0;
	case HOME_CMD_CLICK: {
		if (c->arg < 0 || c->arg >= home_rows(h) || !home_selectable(h, c->arg))
			return 0;
		size_t i;
		/* A click on the selected row is Enter there; on a setting
		 * of the form it is the setting's next value. */
		if (c->arg != h->sel) {
			h->sel = c->arg;
			home_scroll(h);
			return HOME_DIRTY_BODY | HOME_DIRTY_STATUS;
		}
		if (home_row(h, c->arg, &i) == HOME_ROW_FIELD && i < HOME_FIELD_CREATE)
			return home_form_change(h, 1);
		return home_activate(h, c->arg);
	}
	case HOME_CMD_TICK:
		/* Quietly, and not under the form. */
		if (!h->lichess) {
			if (h->have_account)
				home_queue_kind(h, HOME_REQ_MY_GAMES);
			home_queue_kind(h, HOME_REQ_LIVE);
		}
		return 0;
	case HOME_CMD_QUIT:
		h->quit = true;
		return 0;
	case HOME_CMD_ENGINE_LEVEL:
		h->engine_level += c->arg;
		if (h->engine_level < 1)
			h->engine_level = 1;
		if (h->engine_level > FOLD_ENGINE_LEVEL_MAX)
			h->engine_level = FOLD_ENGINE_LEVEL_MAX;
		return HOME_DIRTY_BODY;
	case HOME_CMD_ENGINE_COLOR:
		h->engine_color = h->engine_color == -1 ? WHITE : h->engine_color == WHITE ? BLACK : -1;
		return HOME_DIRTY_BODY;
	case HOME_CMD_EXPORT: {
		size_t i;
		if (home_row(h, h->sel, &i) != HOME_ROW_RECENT)
			return 0;
		return home_recent_open(h, i, false);
	}
	case HOME_CMD_ENGINE_TC: {
		int *tc = h->sel == HOME_HOTSEAT ? &h->hotseat_tc : &h->engine_tc;
		*tc = (*tc + 1) % (int)(sizeof home_tcs / sizeof home_tcs[0]);
		return HOME_DIRTY_BODY;
	}
	default:
		return 0;
	}
}

bool home_take_request(struct home *h, struct home_req *out)
{
	if (!h->n_out)
		return false;
	*out = h->out[0];
	memmove(h->out, h->out + 1, --h->n_out * sizeof h->out[0]);
	return true;
}

void home_req_http(const struct home_req *r, const char **method, char *path, size_t size, char **body)
{
	*body = NULL;
	*method = "GET";
	if (r->kind >= HOME_REQ_LX_PLAYING) {
		home_lx_req_http(r, method, path, size, body);
		return;
	}
	switch (r->kind) {
	case HOME_REQ_MY_GAMES:
		*method = route_request(path, size, ROUTE_ME_GAMES, NULL, NULL);
		break;
	case HOME_REQ_RECENT:
	case HOME_REQ_RECENT_REVIEW:
	case HOME_REQ_RECENT_EXPORT:
		home_recent_req_http(r, method, path, size);
		break;
	case HOME_REQ_LIVE:
		*method = route_request(path, size, ROUTE_GAMES_LIST, NULL, NULL);
		break;
	case HOME_REQ_FIND: {
		char q[sizeof r->id + 8];
		snprintf(q, sizeof q, "prefix=%s", r->id);
		*method = route_request(path, size, ROUTE_GAMES_LIST, NULL, q);
		break;
	}
	case HOME_REQ_JOIN: {
		struct protocol_join_request jr;
		memset(&jr, 0, sizeof jr);
		snprintf(jr.invite, sizeof jr.invite, "%s", r->invite);
		*method = route_request(path, size, ROUTE_GAME_JOIN, r->id, NULL);
		*body = protocol_join_request_encode(&jr);
		break;
	}
	case HOME_REQ_CREATE: {
		struct protocol_game_create_request req;
		memset(&req, 0, sizeof req);
		snprintf(req.tc, sizeof req.tc, "%s", r->tc[0] ? r->tc : "5+3");
		snprintf(req.opponent, sizeof req.opponent, "%s",
			 r->action == HOME_ENGINE ? "engine" : r->action == HOME_INVITE ? "invite" : "open");
		if (r->action == HOME_ENGINE)
			req.level = r->level ? r->level : 3;
		if (r->want_color == WHITE || r->want_color == BLACK)
			snprintf(req.color, sizeof req.color, "%s", r->want_color == WHITE ? "white" : "black");
		snprintf(req.ruleset, sizeof req.ruleset, "%s", r->ruleset);
		req.premoves = r->premoves ? r->premoves : CONFIG_PREMOVES_DEFAULT;
		*method = route_request(path, size, ROUTE_GAMES_CREATE, NULL, NULL);
		*body = protocol_game_create_request_encode(&req);
		break;
	}
	default:
		path[0] = '\0';
		break;
	}
}

/* The server's refusal, or the network's error, as the message. */
unsigned home_refused(struct home *h, const char *what, int status, const char *body, size_t len)
{
	struct protocol_error perr;
	char text[HOME_MESSAGE_MAX];
	if (status < 0)
		snprintf(text, sizeof text, "%s: %.*s", what, (int)(len > 160 ? 160 : len), body ? body : "");
	else if (body && protocol_error_decode(body, len, &perr, NULL) == 0)
		snprintf(text, sizeof text, "%s: %s", what, perr.message);
	else
		snprintf(text, sizeof text, "%s: unexpected answer (HTTP %d)", what, status);
	home_say(h, true, text);
	return HOME_DIRTY_MESSAGE;
}

unsigned home_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len)
{
	struct protocol_error perr;
	char err[256];
	if (r->kind >= HOME_REQ_LX_PLAYING)
		return home_lx_on_answer(h, r, status, body, len);
	switch (r->kind) {
	case HOME_REQ_MY_GAMES: {
		if (status != 200)
			return home_refused(h, "your games", status, body, len);
		struct protocol_my_games g = { 0 };
		if (protocol_my_games_decode(body, len, &g, err, sizeof err) < 0)
			return home_refused(h, "your games", status, NULL, 0);
		char sel[PROTOCOL_GAME_ID_MAX + 1];
		home_sel_id(h, sel, sizeof sel);
		protocol_my_games_fini(&h->mine);
		h->mine = g;
		h->have_mine = true;
		home_sel_keep(h, sel);
		home_scroll(h);
		return HOME_DIRTY_BODY | HOME_DIRTY_STATUS;
	}
	case HOME_REQ_RECENT:
	case HOME_REQ_RECENT_REVIEW:
	case HOME_REQ_RECENT_EXPORT:
		return home_recent_on_answer(h, r, status, body, len);
	case HOME_REQ_LIVE: {
		struct protocol_game_summary *games = NULL;
		size_t n = 0;
		if (status != 200 || protocol_game_list_decode(body, len, &games, &n, &perr) < 0)
			return home_refused(h, "live games", status, body, len);
		char sel[PROTOCOL_GAME_ID_MAX + 1];
		home_sel_id(h, sel, sizeof sel);
		free(h->live);
		h->live = games;
		h->n_live = n;
		h->have_live = true;
		home_sel_keep(h, sel);
		home_scroll(h);
		return HOME_DIRTY_BODY | HOME_DIRTY_STATUS;
	}
	case HOME_REQ_CREATE:
	case HOME_REQ_JOIN: {
		struct protocol_seat_response seat;
		int want = r->kind == HOME_REQ_CREATE ? 201 : 200;
		if (status != want || protocol_seat_response_decode(body, len, &seat, &perr) < 0)
			return home_refused(h, r->kind == HOME_REQ_CREATE ? "new game" : "join", status, body, len);
		int color = -1;
		fold_color_parse(seat.color, &color);
		char note[160] = "";
		if (seat.invite[0])
			snprintf(note, sizeof note, "invite: tchess join %.8s:%s", seat.id, seat.invite);
		else if (r->kind == HOME_REQ_CREATE && r->action == HOME_SEEK)
			snprintf(note, sizeof note, "others join with: tchess join %.8s", seat.id);
		home_say(h, false, "");
		home_open(h, seat.id, color, note[0] ? note : NULL);
		return HOME_DIRTY_MESSAGE;
	}
	case HOME_REQ_FIND: {
		struct protocol_game_summary *games = NULL;
		size_t n = 0, hits = 0, hit = 0;
		if (status != 200 || protocol_game_list_decode(body, len, &games, &n, &perr) < 0)
			return home_refused(h, "join", status, body, len);
		for (size_t i = 0; i < n; i++)
			if (!strncmp(games[i].id, r->id, strlen(r->id))) {
				hits++;
				hit = i;
			}
		if (hits != 1) {
			snprintf(err, sizeof err, hits ? "join: more than one game starts '%s': type more of the id"
						       : "join: no game with an id starting '%s'",
				 r->id);
			free(games);
			home_say(h, true, err);
			return HOME_DIRTY_MESSAGE;
		}
		struct home_req j = *r;
		j.kind = HOME_REQ_JOIN;
		snprintf(j.id, sizeof j.id, "%s", games[hit].id);
		free(games);
		home_queue(h, &j);
		return 0;
	}
	default:
		return 0;
	}
}

unsigned home_back(struct home *h, const char *failed)
{
	home_say(h, failed && *failed, failed ? failed : "");
	home_refresh(h);
	return HOME_DIRTY_ALL;
}
