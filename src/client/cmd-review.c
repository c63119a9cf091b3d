/*
 * tchess review: steps through the games of a PGN file on the terminal,
 * offline. This file gathers the options (command line, config file,
 * NO_COLOR, locale), reads the file and hands over to the curses loop in
 * ui/.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "commands.h"
#include "config.h"
#include "loop.h"
#include "review-engine.h"
#include "review-pgn.h"
#include "review.h"
#include "screens.h"
#include "tchess/tablebase.h"
#include "theme.h"
#include "ui/ui.h"
#include "util/log.h"

static int review_usage(void)
{
	fprintf(stderr, "usage: tchess review [--plain [--analyse[=DEPTH]]] FILE.pgn [--game N] [--theme NAME|PATH]\n"
			"                     [--ascii|--unicode] [--flip] [--engine PATH] [--depth N] [--tablebases DIRS]\n");
	return 2;
}

int cmd_review(int argc, char **argv)
{
	const char *file = NULL, *theme_arg = NULL, *engine = NULL, *tb_spec = NULL;
	long game_no = 0, depth = REVIEW_ENGINE_DEPTH;
	bool analyse = false, depth_given = false;
	int ascii_arg = -1;
	bool flip = false, plain = false;
	char err[512];

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--analyse") || !strncmp(a, "--analyse=", 10) || !strcmp(a, "--depth")) {
			const char *v = a[9] == '=' ? a + 10 : NULL;
			if (a[2] == 'd') {
				if (i + 1 >= argc) {
					fprintf(stderr, "tchess review: --depth needs a value\n");
					return review_usage();
				}
				v = argv[++i];
			} else {
				analyse = true;
			}
			if (v) {
				char *end;
				errno = 0;
				depth_given = true;
				depth = strtol(v, &end, 10);
				if (errno || *end || end == v || depth < 1 || depth > REVIEW_ENGINE_DEPTH_MAX) {
					fprintf(stderr, "tchess review: a depth is 1 to %d, not '%s'\n",
						REVIEW_ENGINE_DEPTH_MAX, v);
					return 2;
				}
			}
		} else if (!strcmp(a, "--game") || !strcmp(a, "--theme") || !strcmp(a, "--engine") ||
			   !strcmp(a, "--tablebases")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tchess review: %s needs a value\n", a);
				return review_usage();
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--theme")) {
				theme_arg = v;
				continue;
			}
			if (a[2] == 'e') {
				engine = v;
				continue;
			}
			if (a[2] == 't' && a[3] == 'a') {
				tb_spec = v;
				continue;
			}
			char *end;
			errno = 0;
			game_no = strtol(v, &end, 10);
			if (errno || *end || end == v || game_no < 1) {
				fprintf(stderr, "tchess review: --game takes a game number from 1, not '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--ascii")) {
			ascii_arg = 1;
		} else if (!strcmp(a, "--unicode")) {
			ascii_arg = 0;
		} else if (!strcmp(a, "--flip")) {
			flip = true;
		} else if (!strcmp(a, "--plain")) {
			plain = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			review_usage();
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tchess review: unknown option '%s'\n", a);
			return review_usage();
		} else if (file) {
			fprintf(stderr, "tchess review: one file at a time ('%s' and '%s')\n", file, a);
			return review_usage();
		} else {
			file = a;
		}
	}
	if (!file)
		return review_usage();
	/* A game's id instead of a file: its PGN in the games folder, saved
	 * from a game here (tchess-ID.pgn) or imported from Lichess
	 * (lichess-ID.pgn). */
	static char by_id[700];
	size_t idl = strlen(file);
	if (access(file, F_OK) < 0 && idl >= 8 && idl <= 32 &&
	    strspn(file, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == idl) {
		char dir[400];
		if (account_games_dir(dir, sizeof dir) == 0) {
			snprintf(by_id, sizeof by_id, "%s/lichess-%s.pgn", dir, file);
			if (access(by_id, R_OK) < 0)
				snprintf(by_id, sizeof by_id, "%s/tchess-%.12s.pgn", dir, file);
			if (access(by_id, R_OK) == 0)
				file = by_id;
		}
	}
	if (analyse && !plain) {
		fprintf(stderr, "tchess review: --analyse goes with --plain (on the screen, press a)\n");
		return 2;
	}
	struct config cfg;
	config_init(&cfg);
	if (config_load(&cfg, err, sizeof err) < 0) {
		fprintf(stderr, "tchess: config: %s\n", err);
		return 2;
	}
	/* The engine and depth: the command line's, else the config's. */
	if (!engine && cfg.engine[0])
		engine = cfg.engine;
	if (!depth_given && cfg.engine_depth > 0)
		depth = cfg.engine_depth;
	/* The engine pool logs on stderr: only what goes wrong, and never
	 * over the screen's lines but as a message of its own. */
	log_set_level(LOG_ERROR);
	if (plain)
		return cmd_review_plain(file, engine, analyse ? (int)depth : 0);

	setlocale(LC_ALL, "");
	struct theme theme;
	const char *theme_name = config_theme_name(theme_arg, &cfg, getenv("NO_COLOR"));
	if (theme_load(&theme, theme_name, err, sizeof err) < 0) {
		fprintf(stderr, "tchess: %s\n", err);
		return 2;
	}
	config_apply_theme(&cfg, &theme);

	struct review_pgn rp;
	if (review_pgn_open(&rp, file, err, sizeof err) < 0) {
		fprintf(stderr, "tchess review: %s\n", err);
		return 1;
	}
	int rc = 1;
	if (rp.n_games == 0) {
		fprintf(stderr, "tchess review: %s: no games in the file\n", file);
		goto out_pgn;
	}
	if (game_no > 0 && (size_t)game_no > rp.n_games) {
		fprintf(stderr, "tchess review: %s has %zu game%s, there is no game %ld\n", file, rp.n_games,
			rp.n_games == 1 ? "" : "s", game_no);
		goto out_pgn;
	}

	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	struct review r;
	review_init(&r, base, rp.entries, rp.n_games, review_pgn_load, &rp);
	r.save = review_pgn_save;
	r.save_ctx = &rp;
	r.ascii = config_want_ascii(ascii_arg, &cfg, nl_langinfo(CODESET), getenv("TERM"), 0);
	r.flipped = flip;
	if (game_no > 0 || rp.n_games == 1) {
		r.list_sel = game_no > 0 ? (size_t)game_no - 1 : 0;
		struct review_cmd open = { REVIEW_CMD_LIST_OPEN, 0, 0 };
		review_apply(&r, &open);
		if (!r.has_game) {
			fprintf(stderr, "tchess review: %s\n", r.message);
			goto out_review;
		}
	}

	struct tablebase *tb = NULL;
	char *tb_err = NULL;
	if (tablebase_open_spec(tb_spec, &tb, &tb_err) < 0) {
		fprintf(stderr, "tchess review: --tablebases: %s\n", tb_err ? tb_err : "cannot open");
		free(tb_err);
		goto out_review;
	}
	struct ui ui;
	if (ui_start(&ui, &theme, err, sizeof err) < 0) {
		tablebase_free(tb);
		fprintf(stderr, "tchess review: %s\n", err);
		goto out_review;
	}
	/* Again with the glyphs' width the terminal showed at start. */
	r.ascii = config_want_ascii(ascii_arg, &cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	struct loop *l = loop_new(&ui, NULL);
	loop_push(l, &screen_review_ops, screen_review_new(&ui, &r, engine, (int)depth, cfg.engine_start_s, tb));
	loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	tablebase_free(tb);
	rc = 0;
out_review:
	review_fini(&r);
out_pgn:
	review_pgn_fini(&rp);
	return rc;
}
