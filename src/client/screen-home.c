/*
 * The home screen's logic (screens.h): keys to home commands, the model's
 * requests sent through the loop (once each: a network error is shown,
 * not waited out) and their answers handed back; a game opened from here
 * is pushed as a play screen on top, the tournaments as their screen, and
 * when that closes this one is shown again, its lists refreshed. While
 * it shows, the lists are fetched again every HOME_REFRESH_MS: two small
 * requests, the loop asleep in between. Clicks on its rows come as
 * home_mouse commands. ui/home.c draws it.
 *
 * On Lichess (tchess --lichess) the screen also holds the event stream
 * (GET /api/stream/event, reopened by lichess-stream.h's rules), whose
 * lines go to home_lx_event, and the connection of a seek or of a
 * challenge sent (POST /api/board/seek, POST /api/challenge/NAME with
 * keepAliveStream), which is what keeps them standing: closing it cancels
 * them. A game is opened with the Lichess backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "config.h"
#include "home.h"
#include "lichess-stream.h"
#include "loop.h"
#include "net-stream.h"
#include "tchess/lichess.h"
#include "util/now.h"
#include "review-pgn.h"
#include "review.h"
#include "keys.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "tourney.h"
#include "ui/ui.h"
#include "util/xalloc.h"

_Static_assert(sizeof(struct home_req) <= NET_DATA_MAX, "a home request must fit in a net command's data");

struct screen_home {
	struct ui *ui;
	struct home *h;
	struct ui_home *draw;
	struct screen_home_opts opts;
	/* A screen opened from here is on top; why a game failed. */
	bool away;
	struct tourney_view *tv;
	struct review *rv;        /* a review opened from here, and its file */
	struct review_pgn *rp;
	char review_file[160];    /* its path: the review borrows the name */
	char why[512];
	/* On Lichess: the event stream, and the seek's or challenge's. */
	struct loop *loop;
	struct net_stream *events, *held;
	struct lichess_lines ev_lines, held_lines;
	struct lichess_retry ev_retry;
	bool ev_stopped;          /* refused: not opened again */
	bool ev_ended;            /* ended, dealt with on the next pass */
	int ev_status;
	char ev_text[LICHESS_MESSAGE_MAX];
	unsigned lx_dirty;        /* what the streams' lines changed */
	int64_t refresh_at;       /* the lists' next fetch (mono ms) */
};

struct screen_home *screen_home_new(struct ui *ui, struct home *h, const struct screen_home_opts *opts)
{
	struct screen_home *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->h = h;
	p->draw = ui_home_new(ui, h);
	p->opts = *opts;
	lichess_lines_init(&p->ev_lines);
	lichess_lines_init(&p->held_lines);
	lichess_retry_init(&p->ev_retry, now_mono_ms(), (uint64_t)now_mono_ms() ^ (uint64_t)getpid());
	return p;
}

/* ---- Lichess's streams ---- */

static void screen_home_ev_line(void *ctx, const char *line, size_t n)
{
	struct screen_home *p = ctx;
	struct lichess_msg m;
	char err[200];
	if (lichess_msg_decode(line, n, &m, err, sizeof err) < 0)
		return; /* a line of a kind this client does not know */
	p->lx_dirty |= home_lx_event(p->h, &m);
	lichess_msg_fini(&m);
}

static void screen_home_ev_data(void *ctx, const char *bytes, size_t n)
{
	struct screen_home *p = ctx;
	int lines = lichess_lines_feed(&p->ev_lines, bytes, n, screen_home_ev_line, p);
	lichess_retry_bytes(&p->ev_retry, now_mono_ms(), lines > 0);
}

static void screen_home_ev_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct screen_home *p = ctx;
	p->events = NULL;
	p->ev_ended = true;
	p->ev_status = status;
	p->ev_text[0] = '\0';
	if (status >= 400)
		lichess_error_text(body, len, p->ev_text, sizeof p->ev_text);
	else if (error)
		snprintf(p->ev_text, sizeof p->ev_text, "%s", error);
}

static const struct net_stream_ops screen_home_ev_ops = { screen_home_ev_data, screen_home_ev_end };

static void screen_home_ev_open(struct screen_home *p)
{
	lichess_lines_reset(&p->ev_lines);
	p->events = net_stream_open(loop_net(p->loop), "GET", LICHESS_PATH_EVENTS, NULL, &screen_home_ev_ops, p);
	lichess_retry_opened(&p->ev_retry, now_mono_ms());
}

/* A line of the held challenge: the challenge itself, then {"done":...}. */
static void screen_home_held_line(void *ctx, const char *line, size_t n)
{
	struct screen_home *p = ctx;
	char id[LICHESS_ID_MAX], done[LICHESS_WORD_MAX], err[160];
	if (lichess_done_decode(line, n, done, sizeof done))
		p->lx_dirty |= home_lx_challenge_line(p->h, NULL, done);
	else if (lichess_game_id_decode(line, n, id, sizeof id, err, sizeof err) == 0)
		p->lx_dirty |= home_lx_challenge_line(p->h, id, NULL);
}

static void screen_home_held_data(void *ctx, const char *bytes, size_t n)
{
	struct screen_home *p = ctx;
	/* A seek's are blank lines: it stands while they come. */
	lichess_lines_feed(&p->held_lines, bytes, n, screen_home_held_line, p);
}

static void screen_home_held_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct screen_home *p = ctx;
	char text[LICHESS_MESSAGE_MAX] = "";
	p->held = NULL;
	if (status >= 400)
		lichess_error_text(body, len, text, sizeof text);
	else if (error)
		snprintf(text, sizeof text, "%s", error);
	p->lx_dirty |= home_lx_stream_end(p->h, status, text);
}

static const struct net_stream_ops screen_home_held_ops = { screen_home_held_data, screen_home_held_end };

static void screen_home_held_close(struct screen_home *p)
{
	if (p->held)
		net_stream_close(loop_net(p->loop), p->held);
	p->held = NULL;
}

static unsigned screen_home_apply(void *self, struct loop *l, int64_t mono_ms)
{
	struct screen_home *p = self;
	unsigned dirty = p->lx_dirty;
	p->lx_dirty = 0;
	if (!p->h->lichess) {
		if (p->refresh_at && mono_ms >= p->refresh_at) {
			struct home_cmd tick = { HOME_CMD_TICK, 0, 0 };
			dirty |= home_apply(p->h, &tick);
			p->refresh_at = mono_ms + HOME_REFRESH_MS;
		}
		return dirty;
	}
	if (p->ev_ended) {
		p->ev_ended = false;
		enum lichess_end e = lichess_retry_ended(&p->ev_retry, p->ev_status, false, mono_ms);
		char text[HOME_MESSAGE_MAX];
		if (e == LICHESS_END_RATE_LIMITED) {
			snprintf(text, sizeof text,
				 "Lichess asks to wait (429 too many requests): the event stream opens again in %lld s",
				 (long long)((p->ev_retry.reopen_at_ms - mono_ms + 999) / 1000));
			dirty |= home_lx_say(p->h, true, text);
		} else if (e == LICHESS_END_REFUSED) {
			p->ev_stopped = true;
			snprintf(text, sizeof text, "Lichess refused the event stream (%.120s): %s",
				 p->ev_text[0] ? p->ev_text : "no reason given",
				 p->ev_status == 401   ? "run 'tchess lichess login' again"
				 : p->ev_status == 403 ? "the token needs the board:play scope"
						       : "challenges and seeks will not be seen");
			dirty |= home_lx_say(p->h, true, text);
		}
	}
	if (p->events && lichess_retry_idle(&p->ev_retry, mono_ms)) {
		net_stream_close(l ? loop_net(l) : loop_net(p->loop), p->events);
		p->events = NULL;
		lichess_retry_ended(&p->ev_retry, 0, false, mono_ms);
	}
	if (!p->events && !p->ev_stopped && p->ev_retry.reopen_at_ms && p->ev_retry.reopen_at_ms <= mono_ms)
		screen_home_ev_open(p);
	return dirty;
}

static int64_t screen_home_next_tick(void *self, int64_t mono_ms)
{
	const struct screen_home *p = self;
	if (!p->h->lichess)
		return p->refresh_at ? (p->refresh_at > mono_ms ? p->refresh_at - mono_ms : 0) : -1;
	if (p->ev_stopped)
		return -1;
	return lichess_retry_next_ms(&p->ev_retry, p->events != NULL, mono_ms);
}

static void screen_home_review_free(struct screen_home *p)
{
	if (p->rv) {
		review_fini(p->rv);
		free(p->rv);
		p->rv = NULL;
	}
	if (p->rp) {
		review_pgn_fini(p->rp);
		free(p->rp);
		p->rp = NULL;
	}
}

static unsigned screen_home_resize(struct screen_home *p)
{
	int w, h;
	ui_size(&w, &h);
	struct home_cmd c = { HOME_CMD_RESIZE, w, h };
	unsigned dirty = home_apply(p->h, &c);
	ui_home_layout(p->draw);
	return dirty;
}

static unsigned screen_home_show(void *self, struct loop *l, bool resumed)
{
	struct screen_home *p = self;
	p->loop = l;
	ui_mouse(p->ui, true);
	/* The event stream first, before any seek or challenge. */
	if (p->h->lichess && !p->events && !p->ev_stopped && !p->ev_retry.reopen_at_ms)
		screen_home_ev_open(p);
	unsigned dirty = screen_home_resize(p);
	p->refresh_at = now_mono_ms() + HOME_REFRESH_MS;
	if (resumed && p->away) {
		p->away = false;
		if (p->tv) {
			tourney_view_fini(p->tv);
			free(p->tv);
			p->tv = NULL;
		}
		screen_home_review_free(p);
		dirty |= home_back(p->h, p->why);
		p->why[0] = '\0';
	}
	return dirty;
}

static void screen_home_draw(void *self, unsigned dirty)
{
	struct screen_home *p = self;
	ui_home_draw(p->draw, dirty);
}

static unsigned screen_home_key(void *self, struct loop *l, int key)
{
	struct screen_home *p = self;
	(void)l;
	if (key == KEYS_RESIZE)
		return screen_home_resize(p);
	struct home_cmd c = home_key(p->h, key);
	if (key == KEYS_MOUSE) {
		int x, y;
		c.kind = HOME_CMD_NONE;
		if (ui_mouse_click(&x, &y))
			c = home_mouse(p->h, x, y);
	}
	return home_apply(p->h, &c);
}

static unsigned screen_home_on_reply(void *self, struct loop *l, const struct net_reply *r)
{
	struct screen_home *p = self;
	(void)l;
	if (r->tag == NET_TAG_POLL)
		return 0;
	struct home_req req;
	memcpy(&req, r->data, sizeof req);
	return home_on_answer(p->h, &req, r->status, r->body, r->len);
}

/* The game's screen closed: why, if it never showed the game. */
static void screen_home_game_closed(void *ctx, struct session *s)
{
	struct screen_home *p = ctx;
	if (!screen_play_failure(s, p->why, sizeof p->why))
		p->why[0] = '\0';
	session_fini(s);
	free(s);
}

/* Opens game r->id; a hotseat game when host >= 0 (the seat of the net's
 * own token). */
static void screen_home_open_game(struct screen_home *p, struct loop *l, const struct home_req *r, int host)
{
	struct session *s = xcalloc(1, sizeof *s);
	session_init(s, r->id, r->color);
	if (host >= 0)
		session_hotseat(s, host, true);
	s->ascii = p->opts.ascii;
	s->bell = p->opts.bell;
	s->move_alert = p->opts.move_alert;
	s->low_time_cfg_ms = p->opts.low_time_ms;
	if (r->note[0])
		snprintf(s->note, sizeof s->note, "%s", r->note);
	p->away = true;
	p->why[0] = '\0';
	struct screen_play *play = screen_play_new(p->ui, s, screen_home_game_closed, p);
	if (p->h->lichess) {
		s->lichess = true;
		backend_lichess_init(screen_play_backend(play), play, r->id, p->h->lx.me_id);
	}
	loop_push(l, &screen_play_ops, play);
}

static void screen_home_open_tournaments(struct screen_home *p, struct loop *l)
{
	p->tv = xcalloc(1, sizeof *p->tv);
	tourney_view_init(p->tv, NULL, p->opts.player);
	p->tv->ascii = p->opts.ascii;
	p->away = true;
	p->why[0] = '\0';
	loop_push(l, &screen_tourney_ops, screen_tourney_new(p->ui, p->tv, p->opts.ascii));
}

/* A PGN file's review on top, as tchess review FILE shows it (the engine
 * analysis with stockfish, no tablebases). */
static void screen_home_open_review(struct screen_home *p, struct loop *l, const struct home_req *r)
{
	char err[300] = "";
	snprintf(p->review_file, sizeof p->review_file, "%s", r->note);
	p->rp = xcalloc(1, sizeof *p->rp);
	if (review_pgn_open(p->rp, p->review_file, err, sizeof err) < 0 || p->rp->n_games == 0) {
		if (p->rp->n_games == 0 && !err[0])
			snprintf(err, sizeof err, "%.100s: no games in the file", p->review_file);
		screen_home_review_free(p);
		home_back(p->h, err);
		return;
	}
	const char *base = strrchr(p->review_file, '/') ? strrchr(p->review_file, '/') + 1 : p->review_file;
	p->rv = xcalloc(1, sizeof *p->rv);
	review_init(p->rv, base, p->rp->entries, p->rp->n_games, review_pgn_load, p->rp);
	p->rv->ascii = p->opts.ascii;
	p->rv->save = review_pgn_save;
	p->rv->save_ctx = p->rp;
	if (p->rp->n_games == 1) {
		struct review_cmd open = { REVIEW_CMD_LIST_OPEN, 0, 0 };
		review_apply(p->rv, &open);
	}
	p->away = true;
	p->why[0] = '\0';
	loop_push(l, &screen_review_ops, screen_review_new(p->ui, p->rv, NULL, 0, 0, NULL));
}

static void screen_home_send(void *self, struct loop *l)
{
	struct screen_home *p = self;
	struct home_req r;
	while (!p->away && home_take_request(p->h, &r)) {
		if (r.kind == HOME_REQ_OPEN_GAME) {
			/* A hotseat game left earlier plays on as one. */
			int host = -1;
			if (!p->h->lichess && r.color >= 0 && p->opts.hotseat_of)
				p->opts.hotseat_of(p->opts.hotseat_ctx, r.id, &host);
			screen_home_open_game(p, l, &r, host);
			continue;
		}
		if (r.kind == HOME_REQ_HOTSEAT) {
			char err[300] = "no hotseat games here";
			int host = -1;
			/* Two requests to the player's own server, waited for:
			 * the game is made before its screen opens. */
			if (!p->opts.hotseat || p->opts.hotseat(p->opts.hotseat_ctx, r.tc, r.id, sizeof r.id, &host, err,
								 sizeof err) < 0)
				home_back(p->h, err);
			else
				screen_home_open_game(p, l, &r, host);
			continue;
		}
		if (r.kind == HOME_REQ_TOURNAMENTS) {
			screen_home_open_tournaments(p, l);
			continue;
		}
		if (r.kind == HOME_REQ_SETTINGS) {
			char path[1024];
			if (!p->opts.cfg || config_path(path, sizeof path) < 0) {
				home_back(p->h, "no config file: neither XDG_CONFIG_HOME nor HOME is set");
				continue;
			}
			p->away = true;
			p->why[0] = '\0';
			loop_push(l, &screen_settings_ops,
				  screen_settings_new(p->ui, p->opts.cfg, p->opts.theme_name, path, &p->opts));
			continue;
		}
		if (r.kind == HOME_REQ_REVIEW) {
			screen_home_open_review(p, l, &r);
			continue;
		}
		if (r.kind == HOME_REQ_LX_STOP) {
			screen_home_held_close(p);
			continue;
		}
		const char *method;
		char path[256], *body;
		home_req_http(&r, &method, path, sizeof path, &body);
		if (r.kind == HOME_REQ_LX_SEEK || r.kind == HOME_REQ_LX_CHALLENGE) {
			/* Held open: its connection is the seek (or challenge). */
			screen_home_held_close(p);
			lichess_lines_reset(&p->held_lines);
			p->held = net_stream_open(loop_net(l), method, path, body, &screen_home_held_ops, p);
		} else if (p->h->lichess) {
			loop_command_form(l, p, false, method, path, body, (int)r.kind, &r, sizeof r);
		} else {
			loop_command(l, p, false, method, path, body, (int)r.kind, &r, sizeof r);
		}
		free(body);
	}
}

static bool screen_home_done(const void *self)
{
	const struct screen_home *p = self;
	return p->h->quit && !p->away;
}

static void screen_home_close(void *self)
{
	struct screen_home *p = self;
	if (p->tv) {
		tourney_view_fini(p->tv);
		free(p->tv);
	}
	screen_home_review_free(p);
	if (p->loop && loop_net(p->loop)) {
		screen_home_held_close(p);
		if (p->events)
			net_stream_close(loop_net(p->loop), p->events);
	}
	lichess_lines_fini(&p->ev_lines);
	lichess_lines_fini(&p->held_lines);
	ui_home_free(p->draw);
	free(p);
}

const struct screen_ops screen_home_ops = {
	.name = "home",
	.show = screen_home_show,
	.draw = screen_home_draw,
	.key = screen_home_key,
	.apply = screen_home_apply,
	.on_reply = screen_home_on_reply,
	.next_tick = screen_home_next_tick,
	.send = screen_home_send,
	.done = screen_home_done,
	.close = screen_home_close,
};
