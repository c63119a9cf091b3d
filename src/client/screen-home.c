/*
 * The home screen's logic (screens.h): keys to home commands, the model's
 * requests sent through the loop (once each: a network error is shown,
 * not waited out) and their answers handed back; a game opened from here
 * is pushed as a play screen on top, the tournaments as their screen, and
 * when that closes this one is shown again, its lists refreshed.
 * ui/home.c draws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "home.h"
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
};

struct screen_home *screen_home_new(struct ui *ui, struct home *h, const struct screen_home_opts *opts)
{
	struct screen_home *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->h = h;
	p->draw = ui_home_new(ui, h);
	p->opts = *opts;
	return p;
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
	(void)l;
	ui_mouse(false);
	unsigned dirty = screen_home_resize(p);
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

static void screen_home_open_game(struct screen_home *p, struct loop *l, const struct home_req *r)
{
	struct session *s = xcalloc(1, sizeof *s);
	session_init(s, r->id, r->color);
	s->ascii = p->opts.ascii;
	s->bell = p->opts.bell;
	s->low_time_cfg_ms = p->opts.low_time_ms;
	if (r->note[0])
		snprintf(s->note, sizeof s->note, "%s", r->note);
	p->away = true;
	p->why[0] = '\0';
	loop_push(l, &screen_play_ops, screen_play_new(p->ui, s, screen_home_game_closed, p));
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
			screen_home_open_game(p, l, &r);
			continue;
		}
		if (r.kind == HOME_REQ_TOURNAMENTS) {
			screen_home_open_tournaments(p, l);
			continue;
		}
		if (r.kind == HOME_REQ_REVIEW) {
			screen_home_open_review(p, l, &r);
			continue;
		}
		const char *method;
		char path[256], *body;
		home_req_http(&r, &method, path, sizeof path, &body);
		loop_command(l, p, false, method, path, body, (int)r.kind, &r, sizeof r);
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
	ui_home_free(p->draw);
	free(p);
}

const struct screen_ops screen_home_ops = {
	.name = "home",
	.show = screen_home_show,
	.draw = screen_home_draw,
	.key = screen_home_key,
	.on_reply = screen_home_on_reply,
	.send = screen_home_send,
	.done = screen_home_done,
	.close = screen_home_close,
};
