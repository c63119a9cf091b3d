/*
 * The review screens' logic (screens.h): keys to review commands, applied
 * to the review model; ui/review.c draws it. Offline: no requests, no
 * tick.
 */
#include <stdlib.h>

#include "keys.h"
#include "review.h"
#include "screens.h"
#include "ui/ui.h"
#include "util/xalloc.h"

struct screen_review {
	struct review *r;
	struct ui_review *draw;
};

struct screen_review *screen_review_new(struct ui *ui, struct review *r)
{
	struct screen_review *p = xcalloc(1, sizeof *p);
	p->r = r;
	p->draw = ui_review_new(ui, r);
	return p;
}

static unsigned screen_review_resize(struct screen_review *p)
{
	int w, h;
	ui_size(&w, &h);
	struct review_cmd c = { REVIEW_CMD_RESIZE, w, h };
	unsigned dirty = review_apply(p->r, &c);
	ui_review_layout(p->draw);
	return dirty;
}

static unsigned screen_review_show(void *self, struct loop *l, bool resumed)
{
	(void)l;
	(void)resumed;
	ui_mouse(false);
	return screen_review_resize(self);
}

static void screen_review_draw(void *self, unsigned dirty)
{
	struct screen_review *p = self;
	ui_review_draw(p->draw, dirty);
}

static unsigned screen_review_key(void *self, struct loop *l, int key)
{
	struct screen_review *p = self;
	(void)l;
	if (key == KEYS_RESIZE)
		return screen_review_resize(p);
	struct review_cmd c = review_key(p->r, key);
	return review_apply(p->r, &c);
}

static bool screen_review_done(const void *self)
{
	const struct screen_review *p = self;
	return p->r->quit;
}

static void screen_review_close(void *self)
{
	struct screen_review *p = self;
	ui_review_free(p->draw);
	free(p);
}

const struct screen_ops screen_review_ops = {
	.name = "review",
	.show = screen_review_show,
	.draw = screen_review_draw,
	.key = screen_review_key,
	.done = screen_review_done,
	.close = screen_review_close,
};
