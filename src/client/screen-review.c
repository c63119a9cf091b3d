/*
 * The review screens' logic (screens.h): keys to review commands, applied
 * to the review model; ui/review.c draws it. Offline: no requests. With
 * engine analysis on (key a) the screen owns the engine (review-engine.h),
 * starts it without waiting (the handshake runs on the engine module's
 * thread: the keys keep working and the screen says "starting the
 * engine"), asks it for the whole-game pass and for the shown position's
 * lines, and copies what it answered into the model when the engine wakes
 * the loop (loop_wake): no tick, so a review waiting on the engine costs
 * no CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "loop.h"
#include "review-engine.h"
#include "review-tablebase.h"
#include "review.h"
#include "screens.h"
#include "ui/ui.h"
#include "util/xalloc.h"

struct screen_review {
	struct ui *ui;
	struct review *r;
	struct ui_review *draw;
	char *engine_path;             /* NULL: stockfish */
	struct engine_limits lim;
	struct review_engine *re;
	bool ready;                    /* re has started */
	int64_t start_ms;              /* its start deadline, 0: the pool's */
	struct loop *loop;             /* woken by the engine */
	size_t pass_game;              /* the game the pass is for, SIZE_MAX for none */
	unsigned long serial;          /* the engine's, when last copied */
	char asked_fen[FEN_MAX];       /* the position last asked for, "" */
	struct tablebase *tb;          /* NULL: none */
	char tb_fen[FEN_MAX];          /* the position whose verdict the model holds */
};

struct screen_review *screen_review_new(struct ui *ui, struct review *r, const char *engine, int depth, int start_s,
				       struct tablebase *tb)
{
	struct screen_review *p = xcalloc(1, sizeof *p);
	p->start_ms = (int64_t)start_s * 1000;
	p->tb = tb;
	p->r = r;
	p->ui = ui;
	p->draw = ui_review_new(ui, r);
	p->engine_path = engine ? xstrdup(engine) : NULL;
	p->lim.depth = depth > 0 ? depth : REVIEW_ENGINE_DEPTH;
	p->lim.multipv = ENGINE_MULTIPV_MAX;
	p->pass_game = SIZE_MAX;
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

/* The tablebase's verdict on the position shown, when it changed. */
static unsigned screen_review_tablebase(struct screen_review *p)
{
	struct review *r = p->r;
	char fen[FEN_MAX];
	if (!p->tb || !r->has_game)
		return 0;
	fen_write(&r->positions[r->ply], fen);
	if (!strcmp(fen, p->tb_fen))
		return 0;
	snprintf(p->tb_fen, sizeof p->tb_fen, "%s", fen);
	review_tablebase_verdict(p->tb, &r->positions[r->ply], r->tb_text, sizeof r->tb_text);
	return REVIEW_DIRTY_COMMENT;
}

static unsigned screen_review_show(void *self, struct loop *l, bool resumed)
{
	struct screen_review *p = self;
	(void)resumed;
	p->loop = l;
	ui_mouse(p->ui, false);
	unsigned dirty = screen_review_resize(self);
	return dirty | screen_review_tablebase(self);
}

static void screen_review_draw(void *self, unsigned dirty)
{
	struct screen_review *p = self;
	ui_review_draw(p->draw, dirty);
}

/* The moves of the line followed up to ply n, for the engine. */
static move *screen_review_moves(const struct review *r, size_t n)
{
	move *m = xcalloc(n ? n : 1, sizeof *m);
	for (size_t i = 0; i < n; i++)
		m[i] = review_move_at(r, i)->m;
	return m;
}

/* Copies what the engine answered since the last look into the model. */
static unsigned screen_review_sync(struct screen_review *p)
{
	struct review *r = p->r;
	unsigned long serial = review_engine_serial(p->re);
	if (serial == p->serial)
		return 0;
	p->serial = serial;
	unsigned dirty = 0;
	size_t done, total;
	review_engine_progress(p->re, &done, &total);
	for (size_t i = 0; i < total; i++) {
		struct review_engine_eval e;
		if (!review_engine_eval_at(p->re, i, &e))
			continue;
		struct pgn_eval pe = { PGN_EVAL_NONE, 0, -1 };
		if (e.has_eval) {
			pe.kind = e.mate ? PGN_EVAL_MATE : PGN_EVAL_CP;
			pe.value = e.score;
			pe.depth = (int16_t)p->lim.depth;
		}
		dirty |= review_engine_set_eval(r, i, &pe, e.best);
	}
	struct engine_analysis a;
	char fen[FEN_MAX], note[160], err[160];
	if (review_engine_shown(p->re, &a, fen))
		dirty |= review_engine_set_shown(r, fen, &a);
	review_engine_error(p->re, err, sizeof err);
	if (err[0])
		snprintf(note, sizeof note, "engine: %.140s", err);
	else if (done < total)
		snprintf(note, sizeof note, "analysing %zu/%zu", done, total);
	else
		snprintf(note, sizeof note, "depth %d", p->lim.depth);
	dirty |= review_engine_set_progress(r, done, total, note);
	return dirty;
}

static void screen_review_wake(void *arg)
{
	loop_wake(arg);
}

/* Starts or stops the engine as the model asks, starts the pass for the
 * game shown and asks for the lines of the position shown. */
static unsigned screen_review_engine(struct screen_review *p)
{
	struct review *r = p->r;
	if (!r->engine_on || !r->has_game || r->screen != REVIEW_SCREEN_GAME) {
		if (!r->engine_on && p->re) {
			review_engine_free(p->re);
			p->re = NULL;
			p->pass_game = SIZE_MAX;
			p->asked_fen[0] = '\0';
		}
		return 0;
	}
	unsigned dirty = 0;
	if (!p->re) {
		p->re = review_engine_start(p->engine_path, &p->lim, p->start_ms, screen_review_wake, p->loop);
		p->ready = false;
		p->serial = 0;
		dirty |= review_engine_set_starting(r, true);
	}
	if (!p->ready) {
		char err[256];
		int st = review_engine_started(p->re, err, sizeof err);
		if (st == 0)
			return dirty;
		if (st < 0) {
			/* Said once: analysis goes off until a is pressed again. */
			review_engine_free(p->re);
			p->re = NULL;
			struct review_cmd off = { REVIEW_CMD_ENGINE, 0, 0 };
			review_apply(r, &off);
			snprintf(r->message, sizeof r->message, "no engine analysis: %.170s", err);
			return REVIEW_DIRTY_ALL;
		}
		p->ready = true;
		dirty |= review_engine_set_starting(r, false);
	}
	if (p->pass_game != r->game_index || !r->engine_evals) {
		char *err = NULL;
		move *moves = xcalloc(r->game.n_moves ? r->game.n_moves : 1, sizeof *moves);
		for (size_t i = 0; i < r->game.n_moves; i++)
			moves[i] = r->game.moves[i].m;
		if (review_engine_pass(p->re, &r->game.start, moves, r->game.n_moves, &err) < 0) {
			snprintf(r->message, sizeof r->message, "engine: %.180s", err);
			free(err);
			dirty |= REVIEW_DIRTY_STATUS;
		}
		free(moves);
		p->pass_game = r->game_index;
		p->serial = 0;
		p->asked_fen[0] = '\0';
	}
	char fen[FEN_MAX];
	fen_write(&r->positions[r->ply], fen);
	if (strcmp(fen, p->asked_fen)) {
		move *moves = screen_review_moves(r, r->ply);
		review_engine_show(p->re, &r->game.start, moves, r->ply);
		free(moves);
		snprintf(p->asked_fen, sizeof p->asked_fen, "%s", fen);
	}
	return dirty | screen_review_sync(p);
}

static unsigned screen_review_key(void *self, struct loop *l, int key)
{
	struct screen_review *p = self;
	(void)l;
	if (key == KEYS_RESIZE)
		return screen_review_resize(p);
	struct review_cmd c = review_key(p->r, key);
	unsigned dirty = review_apply(p->r, &c);
	dirty |= screen_review_tablebase(p);
	return dirty | screen_review_engine(p);
}

static unsigned screen_review_apply(void *self, struct loop *l, int64_t mono_ms)
{
	struct screen_review *p = self;
	(void)l;
	(void)mono_ms;
	if (!p->re)
		return 0;
	return p->ready ? screen_review_sync(p) : screen_review_engine(p);
}

static bool screen_review_done(const void *self)
{
	const struct screen_review *p = self;
	return p->r->quit;
}

static void screen_review_close(void *self)
{
	struct screen_review *p = self;
	review_engine_free(p->re);
	ui_review_free(p->draw);
	free(p->engine_path);
	free(p);
}

const struct screen_ops screen_review_ops = {
	.name = "review",
	.show = screen_review_show,
	.draw = screen_review_draw,
	.key = screen_review_key,
	.apply = screen_review_apply,
	.done = screen_review_done,
	.close = screen_review_close,
};
