/*
 * The home screen's model on Lichess (tchess --lichess; home.h): a seek,
 * a game against the Lichess AI and a challenge to a user by name as
 * actions, then the user's ongoing games (GET /api/account/playing) and
 * the challenges to the user that the event stream announced, each
 * accepted with Enter or declined with d. A seek and a challenge sent are
 * held open by the screen (their connection is what keeps them; closing
 * it cancels them); their game arrives on the event stream as a
 * gameStart, and is opened on the play screen.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "home-internal.h"
#include "keys.h"
#include "tchess/lichess.h"
#include "util/xalloc.h"

static const char *const lx_action_text[HOME_LX_ACTION_NB] = {
	[HOME_LX_SEEK] = "Seek on Lichess",
	[HOME_LX_AI] = "Play the Lichess AI",
	[HOME_LX_CHALLENGE] = "Challenge a player",
	[HOME_LX_QUIT] = "Quit",
};

/* The Board API plays rapid and slower in seeks (estimated at 8 minutes
 * or more: the base plus 40 increments), blitz too against the AI and in
 * challenges. */
static const char *const lx_tcs[] = { "10+0", "10+5", "15+10", "30+0", "30+20", "5+3", "3+2" };
#define LX_SEEK_TCS 5 /* the first five are long enough for a seek */

const char *const *home_lx_time_controls(size_t *n)
{
	*n = sizeof lx_tcs / sizeof lx_tcs[0];
	return lx_tcs;
}

void home_init_lichess(struct home *h, const char *me_id)
{
	home_init(h, true);
	/* home_init queued tchessd's lists: not these. */
	h->n_out = 0;
	h->lichess = true;
	snprintf(h->lx.me_id, sizeof h->lx.me_id, "%s", me_id);
	h->lx.level = 1;
	home_lx_refresh(h);
}

void home_lx_refresh(struct home *h)
{
	struct home_req r = { .kind = HOME_REQ_LX_PLAYING, .color = -1 };
	home_queue(h, &r);
}

/* The rows: the actions, a blank, "Your Lichess games" and them, a blank,
 * "Challenges to you" and them. */
static int lx_n(size_t n)
{
	return n ? (int)n : 1;
}

int home_lx_rows(const struct home *h)
{
	return HOME_LX_ACTION_NB + 2 + lx_n(h->lx.n_games) + 2 + lx_n(h->lx.n_in);
}

enum home_row_kind home_lx_row(const struct home *h, int row, size_t *index)
{
	*index = 0;
	if (row < HOME_LX_ACTION_NB) {
		*index = (size_t)row;
		return HOME_ROW_ACTION;
	}
	row -= HOME_LX_ACTION_NB;
	if (row == 0)
		return HOME_ROW_BLANK;
	if (row == 1)
		return HOME_ROW_HEADING;
	row -= 2;
	if (row < lx_n(h->lx.n_games)) {
		*index = (size_t)row;
		return h->lx.n_games ? HOME_ROW_MINE : HOME_ROW_BLANK;
	}
	row -= lx_n(h->lx.n_games);
	if (row == 0)
		return HOME_ROW_BLANK;
	if (row == 1) {
		*index = 1;
		return HOME_ROW_HEADING;
	}
	row -= 2;
	if (row < (int)h->lx.n_in) {
		*index = (size_t)row;
		return HOME_ROW_LIVE;
	}
	return HOME_ROW_BLANK;
}

void home_lx_row_text(const struct home *h, int row, char *buf, size_t size)
{
	size_t i;
	const struct home_lichess *x = &h->lx;
	switch (home_lx_row(h, row, &i)) {
	case HOME_ROW_ACTION:
		if (i == HOME_LX_SEEK)
			snprintf(buf, size, "  1  %-20s %s casual, anyone on Lichess%s", lx_action_text[i],
				 lx_tcs[x->tc < LX_SEEK_TCS ? x->tc : 0], h->sel == (int)i ? "   (t)" : "");
		else if (i == HOME_LX_AI)
			snprintf(buf, size, "  2  %-20s level %d, %s%s", lx_action_text[i], x->level, lx_tcs[x->tc],
				 h->sel == (int)i ? "   (+ - t)" : "");
		else if (i == HOME_LX_CHALLENGE)
			snprintf(buf, size, "  3  %-20s by name, %s casual%s", lx_action_text[i], lx_tcs[x->tc],
				 h->sel == (int)i ? "   (t)" : "");
		else
			snprintf(buf, size, "  q  %s", lx_action_text[i]);
		break;
	case HOME_ROW_HEADING:
		if (i == 0)
			snprintf(buf, size, "%s", !x->have_games ? "Your Lichess games (loading...)"
						  : x->n_games   ? "Your Lichess games"
								 : "Your Lichess games: none now");
		else
			snprintf(buf, size, "%s", x->n_in ? "Challenges to you: Enter accepts, d declines"
							  : "Challenges to you: none now");
		break;
	case HOME_ROW_MINE: {
		const struct lichess_playing *g = &x->games[i];
		char who[LICHESS_NAME_MAX + 4];
		snprintf(who, sizeof who, "vs %s", g->opponent);
		snprintf(buf, size, "  %.8s  %-5s %-24.24s %-10.10s %s", g->id, g->color == WHITE ? "white" : "black",
			 who, g->speed[0] ? g->speed : "-", g->my_turn ? "* your move" : "their move");
		break;
	}
	case HOME_ROW_LIVE: {
		const struct home_lx_challenge *c = &x->in[i];
		snprintf(buf, size, "  %.8s  %-24.24s %-10.10s %s", c->id, c->from, c->tc[0] ? c->tc : "-",
			 c->rated ? "rated" : "casual");
		break;
	}
	default:
		buf[0] = '\0';
		break;
	}
}

void home_lx_status_text(const struct home *h, char *buf, size_t size)
{
	const struct home_lichess *x = &h->lx;
	size_t i;
	enum home_row_kind k = home_lx_row(h, h->sel, &i);
	if (h->typing)
		snprintf(buf, size, "challenge: %s_   Enter sends, Esc cancels", h->input);
	else if (x->seeking)
		snprintf(buf, size, "Lichess | seeking %s... Esc cancels the seek", lx_tcs[x->tc < LX_SEEK_TCS ? x->tc : 0]);
	else if (x->challenging)
		snprintf(buf, size, "Lichess | waiting for %s to answer... Esc cancels the challenge", x->waiting_for);
	else if (k == HOME_ROW_LIVE)
		snprintf(buf, size, "Lichess | Enter accepts  d declines  Up/Down select  r refresh  q quit");
	else
		snprintf(buf, size, "Lichess | Up/Down select  Enter open  1-3 start  r refresh  q quit");
}

struct home_cmd home_lx_key(const struct home *h, int key)
{
	struct home_cmd c = { HOME_CMD_NONE, 0, 0 };
	size_t i;
	enum home_row_kind k = home_lx_row(h, h->sel, &i);
	/* While a seek or a challenge stands, Esc (or q) takes it back. */
	if ((h->lx.seeking || h->lx.challenging) && (key == KEYS_ESC || key == 'q'))
		return (struct home_cmd){ HOME_CMD_CANCEL, 0, 0 };
	if (key >= '1' && key <= '9') {
		if (key - '1' < HOME_LX_QUIT)
			return (struct home_cmd){ HOME_CMD_SELECT, key - '1', 0 };
		return (struct home_cmd){ HOME_CMD_MOVE, 0, 0 };
	}
	if (key == 't' && k == HOME_ROW_ACTION && i != HOME_LX_QUIT)
		return (struct home_cmd){ HOME_CMD_ENGINE_TC, 0, 0 };
	if (k == HOME_ROW_ACTION && i == HOME_LX_AI && (key == '+' || key == '=' || key == '-'))
		return (struct home_cmd){ HOME_CMD_ENGINE_LEVEL, key == '-' ? -1 : 1, 0 };
	if (k == HOME_ROW_LIVE && key == 'd')
		return (struct home_cmd){ HOME_CMD_ENGINE_COLOR, 0, 0 }; /* decline: see home_lx_apply */
	return c;
}

/* 10+5 into seconds of base and of increment. */
static void lx_tc_split(const char *tc, int *limit_s, int *inc_s)
{
	int m = atoi(tc);
	const char *plus = strchr(tc, '+');
	*limit_s = m * 60;
	*inc_s = plus ? atoi(plus + 1) : 0;
}

static bool lx_busy(struct home *h)
{
	if (h->lx.seeking || h->lx.challenging) {
		home_say(h, true, h->lx.seeking ? "a seek stands: Esc cancels it first"
						: "a challenge waits for its answer: Esc cancels it first");
		return true;
	}
	return false;
}

/* The games on now, which a seek's or a challenge's gameStart is not. */
static void lx_note_before(struct home *h)
{
	struct home_lichess *x = &h->lx;
	x->n_before = x->n_games;
	for (size_t i = 0; i < x->n_games; i++)
		snprintf(x->before[i], sizeof x->before[i], "%s", x->games[i].id);
}

static void lx_seek(struct home *h)
{
	struct home_lichess *x = &h->lx;
	if (lx_busy(h))
		return;
	if (x->tc >= LX_SEEK_TCS) {
		char text[HOME_MESSAGE_MAX];
		snprintf(text, sizeof text,
			 "Lichess's Board API seeks only rapid or slower games (not %s): t picks another time control",
			 lx_tcs[x->tc]);
		home_say(h, true, text);
		return;
	}
	int limit, inc;
	lx_tc_split(lx_tcs[x->tc], &limit, &inc);
	struct home_req r = { .kind = HOME_REQ_LX_SEEK, .color = -1 };
	snprintf(r.note, sizeof r.note, "rated=false&time=%d&increment=%d&color=random", limit / 60, inc);
	lx_note_before(h);
	x->seeking = true;
	home_queue(h, &r);
	home_say(h, false, "seeking an opponent on Lichess...");
}

static void lx_ai(struct home *h)
{
	if (lx_busy(h))
		return;
	int limit, inc;
	lx_tc_split(lx_tcs[h->lx.tc], &limit, &inc);
	struct home_req r = { .kind = HOME_REQ_LX_AI, .color = -1 };
	snprintf(r.note, sizeof r.note, "level=%d&clock.limit=%d&clock.increment=%d&color=random", h->lx.level, limit,
		 inc);
	home_queue(h, &r);
	home_say(h, false, "starting a game against the Lichess AI...");
}

/* A Lichess user name: 2 to 30 letters, digits, '_' or '-'. */
static bool lx_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n < 2 || n > LICHESS_USERNAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static void lx_challenge(struct home *h)
{
	struct home_lichess *x = &h->lx;
	char name[HOME_INPUT_MAX + 1];
	const char *p = h->input;
	while (*p == ' ')
		p++;
	snprintf(name, sizeof name, "%s", p);
	for (size_t n = strlen(name); n && name[n - 1] == ' ';)
		name[--n] = '\0';
	h->typing = false;
	h->input[0] = '\0';
	if (!lx_name_ok(name)) {
		home_say(h, true, "a Lichess user name is 2 to 30 letters, digits, '_' or '-'");
		return;
	}
	char lower[LICHESS_NAME_MAX];
	snprintf(lower, sizeof lower, "%.30s", name);
	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (!strcmp(lower, x->me_id)) {
		home_say(h, true, "that is you: challenge someone else");
		return;
	}
	int limit, inc;
	lx_tc_split(lx_tcs[x->tc], &limit, &inc);
	struct home_req r = { .kind = HOME_REQ_LX_CHALLENGE, .color = -1 };
	snprintf(r.id, sizeof r.id, "%.30s", name);
	snprintf(r.note, sizeof r.note, "rated=false&clock.limit=%d&clock.increment=%d&color=random&keepAliveStream=true",
		 limit, inc);
	lx_note_before(h);
	x->challenging = true;
	x->waiting[0] = '\0';
	snprintf(x->waiting_for, sizeof x->waiting_for, "%.30s", name);
	home_queue(h, &r);
	char text[HOME_MESSAGE_MAX];
	snprintf(text, sizeof text, "challenging %s to a %s casual game...", name, lx_tcs[x->tc]);
	home_say(h, false, text);
}

static void lx_answer(struct home *h, size_t i, bool accept)
{
	struct home_req r = { .kind = accept ? HOME_REQ_LX_ACCEPT : HOME_REQ_LX_DECLINE, .color = -1 };
	snprintf(r.id, sizeof r.id, "%s", h->lx.in[i].id);
	snprintf(r.note, sizeof r.note, "%s", h->lx.in[i].from);
	home_queue(h, &r);
	char text[HOME_MESSAGE_MAX];
	snprintf(text, sizeof text, "%s %s's challenge...", accept ? "accepting" : "declining", h->lx.in[i].from);
	home_say(h, false, text);
}

unsigned home_lx_activate(struct home *h, int row)
{
	size_t i;
	switch (home_lx_row(h, row, &i)) {
	case HOME_ROW_ACTION:
		if (i == HOME_LX_SEEK) {
			lx_seek(h);
		} else if (i == HOME_LX_AI) {
			lx_ai(h);
		} else if (i == HOME_LX_CHALLENGE) {
			if (!lx_busy(h)) {
				h->typing = true;
				h->typing_file = false;
				h->input[0] = '\0';
				home_say(h, false, "type the Lichess user name to challenge, then Enter");
			}
		} else {
			h->quit = true;
		}
		break;
	case HOME_ROW_MINE:
		home_open(h, h->lx.games[i].id, h->lx.games[i].color, NULL);
		break;
	case HOME_ROW_LIVE:
		lx_answer(h, i, true);
		break;
	default:
		break;
	}
	return HOME_DIRTY_ALL;
}

int home_lx_apply(struct home *h, const struct home_cmd *c)
{
	struct home_lichess *x = &h->lx;
	size_t i;
	switch (c->kind) {
	case HOME_CMD_CANCEL:
		if (h->typing)
			return -1;
		if (x->seeking || x->challenging) {
			struct home_req r = { .kind = HOME_REQ_LX_STOP, .color = -1 };
			home_queue(h, &r);
			home_say(h, false, x->seeking ? "seek cancelled" : "challenge cancelled");
			x->seeking = x->challenging = false;
			x->waiting[0] = '\0';
			return HOME_DIRTY_ALL;
		}
		return -1;
	case HOME_CMD_SUBMIT:
		lx_challenge(h);
		return HOME_DIRTY_ALL;
	case HOME_CMD_ENGINE_TC: {
		size_t n = sizeof lx_tcs / sizeof lx_tcs[0];
		home_lx_row(h, h->sel, &i);
		/* The seek's row cycles through the seek's time controls only. */
		x->tc = (x->tc + 1) % (int)(i == HOME_LX_SEEK ? LX_SEEK_TCS : n);
		return HOME_DIRTY_BODY;
	}
	case HOME_CMD_ENGINE_LEVEL:
		x->level += c->arg;
		x->level = x->level < 1 ? 1 : x->level > 8 ? 8 : x->level;
		return HOME_DIRTY_BODY;
	case HOME_CMD_ENGINE_COLOR:
		if (home_lx_row(h, h->sel, &i) == HOME_ROW_LIVE)
			lx_answer(h, i, false);
		return HOME_DIRTY_ALL;
	default:
		return -1;
	}
}

void home_lx_req_http(const struct home_req *r, const char **method, char *path, size_t size, char **body)
{
	*body = NULL;
	*method = "POST";
	switch (r->kind) {
	case HOME_REQ_LX_PLAYING:
		*method = "GET";
		snprintf(path, size, "%s", LICHESS_PATH_PLAYING);
		break;
	case HOME_REQ_LX_SEEK:
		snprintf(path, size, "%s", LICHESS_PATH_SEEK);
		*body = xstrdup(r->note);
		break;
	case HOME_REQ_LX_CHALLENGE:
		snprintf(path, size, "%s%s", LICHESS_PATH_CHALLENGE, r->id);
		*body = xstrdup(r->note);
		break;
	case HOME_REQ_LX_AI:
		snprintf(path, size, "%s", LICHESS_PATH_CHALLENGE_AI);
		*body = xstrdup(r->note);
		break;
	case HOME_REQ_LX_ACCEPT:
	case HOME_REQ_LX_DECLINE:
		snprintf(path, size, "%s%s/%s", LICHESS_PATH_CHALLENGE, r->id,
			 r->kind == HOME_REQ_LX_ACCEPT ? "accept" : "decline");
		break;
	default:
		path[0] = '\0';
		break;
	}
}

/* Lichess's refusal, or the network's error, as the message. */
static unsigned lx_refused(struct home *h, const char *what, int status, const char *body, size_t len)
{
	char why[LICHESS_MESSAGE_MAX], text[HOME_MESSAGE_MAX];
	if (status < 0)
		snprintf(why, sizeof why, "Lichess could not be reached: %.120s", body ? body : "");
	else if (status == 401)
		snprintf(why, sizeof why, "Lichess refused the token: run 'tchess lichess login' again");
	else if (status == 403)
		snprintf(why, sizeof why, "the token needs the board:play scope");
	else if (status == 429)
		snprintf(why, sizeof why, "Lichess asks to wait a minute (429 too many requests)");
	else if (!lichess_error_text(body, len, why, sizeof why))
		snprintf(why, sizeof why, "HTTP %d", status);
	snprintf(text, sizeof text, "%s: %s", what, why);
	home_say(h, true, text);
	return HOME_DIRTY_MESSAGE;
}

static void lx_drop_challenge(struct home_lichess *x, const char *id)
{
	for (size_t i = 0; i < x->n_in; i++)
		if (!strcmp(x->in[i].id, id)) {
			memmove(x->in + i, x->in + i + 1, (x->n_in - i - 1) * sizeof x->in[0]);
			x->n_in--;
			return;
		}
}

unsigned home_lx_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len)
{
	struct home_lichess *x = &h->lx;
	char err[256], id[LICHESS_ID_MAX];
	switch (r->kind) {
	case HOME_REQ_LX_PLAYING: {
		if (status != 200)
			return lx_refused(h, "your Lichess games", status, body, len);
		size_t n = 0;
		if (lichess_playing_decode(body, len, x->games, HOME_LX_GAMES_MAX, &n, err, sizeof err) < 0) {
			x->n_games = 0;
			home_say(h, true, "your Lichess games: an answer that is not a list of games");
			return HOME_DIRTY_ALL;
		}
		x->n_games = n;
		x->have_games = true;
		return HOME_DIRTY_BODY;
	}
	case HOME_REQ_LX_AI:
		if (status != 200 && status != 201)
			return lx_refused(h, "the Lichess AI", status, body, len);
		if (lichess_game_id_decode(body, len, id, sizeof id, err, sizeof err) < 0)
			return lx_refused(h, "the Lichess AI", status, "{\"error\":\"an answer without a game\"}", 35);
		home_say(h, false, "");
		home_open(h, id, -1, NULL);
		return HOME_DIRTY_MESSAGE;
	case HOME_REQ_LX_ACCEPT:
		if (status != 200)
			return lx_refused(h, "accept", status, body, len);
		lx_drop_challenge(x, r->id);
		home_say(h, false, "");
		home_open(h, r->id, -1, NULL);
		return HOME_DIRTY_ALL;
	case HOME_REQ_LX_DECLINE: {
		if (status != 200)
			return lx_refused(h, "decline", status, body, len);
		lx_drop_challenge(x, r->id);
		char text[HOME_MESSAGE_MAX];
		snprintf(text, sizeof text, "%s's challenge declined", r->note);
		home_say(h, false, text);
		return HOME_DIRTY_ALL;
	}
	default:
		return 0;
	}
}

static bool lx_was_on(const struct home_lichess *x, const char *id)
{
	for (size_t i = 0; i < x->n_before; i++)
		if (!strcmp(x->before[i], id))
			return true;
	return false;
}

static bool lx_listed(const struct home_lichess *x, const char *id)
{
	for (size_t i = 0; i < x->n_games; i++)
		if (!strcmp(x->games[i].id, id))
			return true;
	return false;
}

unsigned home_lx_event(struct home *h, const struct lichess_msg *m)
{
	struct home_lichess *x = &h->lx;
	char text[HOME_MESSAGE_MAX];
	switch (m->kind) {
	case LICHESS_MSG_GAME_START: {
		bool mine = (x->challenging && !strcmp(x->waiting, m->id)) || (x->seeking && !lx_was_on(x, m->id));
		if (mine) {
			/* The seek or challenge found its game: its connection is
			 * closed (it has ended on Lichess's side anyway). */
			struct home_req stop = { .kind = HOME_REQ_LX_STOP, .color = -1 };
			home_queue(h, &stop);
			x->seeking = x->challenging = false;
			x->waiting[0] = '\0';
			home_say(h, false, "");
			home_open(h, m->id, m->color, NULL);
			return HOME_DIRTY_ALL;
		}
		/* Sent again for every game when the stream opens: a new one
		 * (started elsewhere) is listed. */
		if (!lx_listed(x, m->id))
			home_lx_refresh(h);
		return 0;
	}
	case LICHESS_MSG_GAME_FINISH:
		if (lx_listed(x, m->id))
			home_lx_refresh(h);
		return 0;
	case LICHESS_MSG_CHALLENGE: {
		/* The user's own challenges come on the stream too. */
		if (!strcmp(m->challenger_id, x->me_id) || (m->dest_id[0] && strcmp(m->dest_id, x->me_id)))
			return 0;
		for (size_t i = 0; i < x->n_in; i++)
			if (!strcmp(x->in[i].id, m->id))
				return 0;
		if (x->n_in == HOME_LX_CHALLENGES_MAX)
			return 0;
		struct home_lx_challenge *c = &x->in[x->n_in++];
		snprintf(c->id, sizeof c->id, "%s", m->id);
		snprintf(c->from, sizeof c->from, "%s", m->challenger[0] ? m->challenger : "someone");
		snprintf(c->tc, sizeof c->tc, "%s", m->tc_text);
		c->rated = m->rated;
		snprintf(text, sizeof text, "%s challenges you (%s %s)", c->from, c->tc[0] ? c->tc : "-",
			 c->rated ? "rated" : "casual");
		home_say(h, false, text);
		return HOME_DIRTY_ALL;
	}
	case LICHESS_MSG_CHALLENGE_CANCELED:
	case LICHESS_MSG_CHALLENGE_DECLINED:
		if (x->challenging && !strcmp(x->waiting, m->id)) {
			struct home_req stop = { .kind = HOME_REQ_LX_STOP, .color = -1 };
			home_queue(h, &stop);
			x->challenging = false;
			x->waiting[0] = '\0';
			snprintf(text, sizeof text, "%s %s the challenge", x->waiting_for,
				 m->kind == LICHESS_MSG_CHALLENGE_DECLINED ? "declined" : "cancelled");
			home_say(h, true, text);
			return HOME_DIRTY_ALL;
		}
		lx_drop_challenge(x, m->id);
		return HOME_DIRTY_ALL;
	default:
		return 0;
	}
}

unsigned home_lx_challenge_line(struct home *h, const char *id, const char *done)
{
	struct home_lichess *x = &h->lx;
	char text[HOME_MESSAGE_MAX];
	if (!x->challenging)
		return 0;
	if (id && id[0]) {
		snprintf(x->waiting, sizeof x->waiting, "%s", id);
		snprintf(text, sizeof text, "challenge %s sent to %s: waiting for the answer", id, x->waiting_for);
		home_say(h, false, text);
		return HOME_DIRTY_ALL;
	}
	if (done && strcmp(done, "accepted")) {
		x->challenging = false;
		snprintf(text, sizeof text, "%s %s the challenge", x->waiting_for,
			 !strcmp(done, "declined") ? "declined" : done);
		x->waiting[0] = '\0';
		home_say(h, true, text);
		return HOME_DIRTY_ALL;
	}
	return 0;
}

unsigned home_lx_stream_end(struct home *h, int status, const char *text)
{
	struct home_lichess *x = &h->lx;
	bool seek = x->seeking;
	if (!x->seeking && !x->challenging)
		return 0;
	/* A challenge accepted ends its stream before the gameStart comes:
	 * the game is still awaited on the event stream. */
	if (!seek && x->waiting[0] && status >= 200 && status < 300)
		return 0;
	x->seeking = x->challenging = false;
	x->waiting[0] = '\0';
	char msg[HOME_MESSAGE_MAX];
	const char *what = seek ? "the seek" : "the challenge";
	if (status == 429)
		snprintf(msg, sizeof msg, "Lichess refused %s: wait a minute (429 too many requests)", what);
	else if (status >= 300)
		snprintf(msg, sizeof msg, "Lichess refused %s: %.150s", what, text && *text ? text : "no reason given");
	else
		snprintf(msg, sizeof msg, "%s ended%s%.150s", what, text && *text ? ": " : "", text ? text : "");
	msg[0] = (char)toupper((unsigned char)msg[0]);
	home_say(h, true, msg);
	return HOME_DIRTY_ALL;
}

unsigned home_lx_say(struct home *h, bool error, const char *text)
{
	home_say(h, error, text);
	return HOME_DIRTY_MESSAGE;
}
