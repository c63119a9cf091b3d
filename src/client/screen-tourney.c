/*
 * The tournament screens' logic (screens.h): keys to tournament commands,
 * the model's requests sent through the loop (once each: a network error
 * is shown, not waited out) and their answers handed back, and the game
 * the player opens pushed as a play screen on top of this one; when that
 * closes this screen is shown again and told how it went. ui/tourney.c
 * draws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "tourney.h"
#include "ui/ui.h"
#include "util/xalloc.h"

/* A request travels as the net layer's echoed data. */
_Static_assert(sizeof(struct tourney_req) <= NET_DATA_MAX, "a tournament request must fit in a net command's data");

struct screen_tourney {
	struct ui *ui;
	struct tourney_view *v;
	struct ui_tourney *draw;
	bool game_ascii;
	/* The game opened, while its screen is on top, and how it closed. */
	bool in_game;
	struct tourney_req game;
	bool game_failed;
	char game_why[512];
};

struct screen_tourney *screen_tourney_new(struct ui *ui, struct tourney_view *v, bool game_ascii)
{
	struct screen_tourney *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->v = v;
	p->draw = ui_tourney_new(ui, v);
	p->game_ascii = game_ascii;
	return p;
}

static unsigned screen_tourney_resize(struct screen_tourney *p)
{
	int w, h;
	ui_size(&w, &h);
	struct tourney_cmd c = { TOURNEY_CMD_RESIZE, w, h };
	unsigned dirty = tourney_apply(p->v, &c);
	ui_tourney_layout(p->draw);
	return dirty;
}

static unsigned screen_tourney_show(void *self, struct loop *l, bool resumed)
{
	struct screen_tourney *p = self;
	(void)l;
	ui_mouse(p->ui, false);
	unsigned dirty = screen_tourney_resize(p);
	if (resumed && p->in_game) {
		p->in_game = false;
		const char *why = p->game_failed ? p->game_why : "";
		dirty |= tourney_on_answer(p->v, &p->game, p->game_failed ? -1 : 0, why, strlen(why));
		dirty |= TOURNEY_DIRTY_CLEAR;
	}
	return dirty;
}

static void screen_tourney_draw(void *self, unsigned dirty)
{
	struct screen_tourney *p = self;
	ui_tourney_draw(p->draw, dirty);
}

static unsigned screen_tourney_key(void *self, struct loop *l, int key)
{
	struct screen_tourney *p = self;
	(void)l;
	if (key == KEYS_RESIZE)
		return screen_tourney_resize(p);
	struct tourney_cmd c = tourney_key(p->v, key);
	return tourney_apply(p->v, &c);
}

static unsigned screen_tourney_on_reply(void *self, struct loop *l, const struct net_reply *r)
{
	struct screen_tourney *p = self;
	(void)l;
	if (r->tag == NET_TAG_POLL)
		return 0;
	struct tourney_req req;
	memcpy(&req, r->data, sizeof req);
	return tourney_on_answer(p->v, &req, r->status, r->body, r->len);
}

/* The game's screen closed: why, if it never showed the game. */
static void screen_tourney_game_closed(void *ctx, struct session *s)
{
	struct screen_tourney *p = ctx;
	p->game_failed = screen_play_failure(s, p->game_why, sizeof p->game_why);
	session_fini(s);
	free(s);
}

static void screen_tourney_open_game(struct screen_tourney *p, struct loop *l, const struct tourney_req *r)
{
	struct session *s = xcalloc(1, sizeof *s);
	session_init(s, r->id, r->color);
	s->ascii = p->game_ascii;
	p->in_game = true;
	p->game = *r;
	p->game_failed = false;
	p->game_why[0] = '\0';
	loop_push(l, &screen_play_ops, screen_play_new(p->ui, s, screen_tourney_game_closed, p));
}

static void screen_tourney_send(void *self, struct loop *l)
{
	struct screen_tourney *p = self;
	struct tourney_req r;
	/* Nothing more while a game opened from here is on the screen. */
	while (!p->in_game && tourney_take_request(p->v, &r)) {
		if (r.kind == TOURNEY_REQ_OPEN_GAME) {
			screen_tourney_open_game(p, l, &r);
			continue;
		}
		const char *method;
		char path[256], *body;
		tourney_req_http(&r, &method, path, sizeof path, &body);
		loop_command(l, p, false, method, path, body, (int)r.kind, &r, sizeof r);
		free(body);
	}
}

static bool screen_tourney_done(const void *self)
{
	const struct screen_tourney *p = self;
	return p->v->quit && !p->in_game;
}

static void screen_tourney_close(void *self)
{
	struct screen_tourney *p = self;
	ui_tourney_free(p->draw);
	free(p);
}

const struct screen_ops screen_tourney_ops = {
	.name = "tournaments",
	.show = screen_tourney_show,
	.draw = screen_tourney_draw,
	.key = screen_tourney_key,
	.on_reply = screen_tourney_on_reply,
	.send = screen_tourney_send,
	.done = screen_tourney_done,
	.close = screen_tourney_close,
};
