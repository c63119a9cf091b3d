/*
 * The settings screen's logic (screens.h): keys to settings commands; a
 * change of theme or pieces is loaded and applied to the terminal at
 * once, and the others go to the home screen's options for the games
 * opened from now on. ui/settings.c draws it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "keys.h"
#include "screens.h"
#include "settings.h"
#include "theme.h"
#include "ui/ui.h"
#include "util/xalloc.h"

struct screen_settings {
	struct ui *ui;
	struct settings st;
	struct screen_home_opts *opts;
};

struct screen_settings *screen_settings_new(struct ui *ui, const struct config *c, const char *theme_name,
					    const char *path, struct screen_home_opts *opts)
{
	struct screen_settings *p = xcalloc(1, sizeof *p);
	p->ui = ui;
	p->opts = opts;
	settings_init(&p->st, c, theme_name, ui->theme.solid_pieces, opts->ascii, path);
	return p;
}

static unsigned screen_settings_show(void *self, struct loop *l, bool resumed)
{
	struct screen_settings *p = self;
	(void)l;
	(void)resumed;
	ui_mouse(p->ui, false);
	return 1;
}

static void screen_settings_draw(void *self, unsigned dirty)
{
	struct screen_settings *p = self;
	(void)dirty;
	ui_settings_draw(p->ui, &p->st);
}

/* The theme and pieces chosen, on the terminal now. */
static void screen_settings_retheme(struct screen_settings *p)
{
	struct theme t;
	char err[300];
	if (theme_load(&t, settings_theme_name(&p->st), err, sizeof err) < 0) {
		snprintf(p->st.message, sizeof p->st.message, "saved, but: %s", err);
		p->st.message_error = true;
		return;
	}
	if (p->st.pieces != SETTINGS_LETTERS)
		t.solid_pieces = p->st.pieces == SETTINGS_SOLID;
	else
		t.solid_pieces = p->ui->theme.solid_pieces;
	ui_set_theme(p->ui, &t);
	ui_clear();
}

static unsigned screen_settings_key(void *self, struct loop *l, int key)
{
	struct screen_settings *p = self;
	(void)l;
	if (key == KEYS_RESIZE)
		return 1;
	struct settings_cmd c = settings_key(&p->st, key);
	settings_apply(&p->st, &c);
	if (p->st.changed & SETTINGS_CHANGED_THEME)
		screen_settings_retheme(p);
	if (p->st.changed & SETTINGS_CHANGED_PLAY) {
		p->opts->ascii = p->st.pieces == SETTINGS_LETTERS;
		p->opts->bell = p->st.bell;
		p->opts->move_alert = p->st.move_alert;
	}
	return 1;
}

static bool screen_settings_done(const void *self)
{
	const struct screen_settings *p = self;
	return p->st.quit;
}

static void screen_settings_close(void *self)
{
	free(self);
}

const struct screen_ops screen_settings_ops = {
	.name = "settings",
	.show = screen_settings_show,
	.draw = screen_settings_draw,
	.key = screen_settings_key,
	.done = screen_settings_done,
	.close = screen_settings_close,
};
