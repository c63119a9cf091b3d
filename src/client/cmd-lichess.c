/*
 * tchess lichess: playing on Lichess (or whatever lichess_url names).
 *
 *	tchess lichess login    reads a personal API token (typed without
 *	                        echo, or from standard input), checks it with
 *	                        GET /api/account and keeps it, mode 0600, in
 *	                        $XDG_CONFIG_HOME/tchess/lichess-token
 *	tchess lichess logout   revokes it (DELETE /api/token) and forgets it
 *	tchess lichess play ID  plays (or resumes) Lichess game ID on the play
 *	                        screen, over the Board API (backend-lichess.c)
 *
 * The token is never printed: not when it is refused, not when it is kept.
 */
#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "account.h"
#include "backend.h"
#include "cmd-net.h"
#include "commands.h"
#include "config.h"
#include "loop.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "ui/ui.h"
#include "tchess/lichess.h"
#include "util/str.h"

#define LICHESS_TOKEN_PAGE "/account/oauth/token/create?scopes[]=board:play&description=tchess"

/* The config (for lichess_url) and the path of the token file. Returns 0
 * or -1 after printing why. */
static int lichess_setup(const char *cmd, struct config *cfg, char *path, size_t size)
{
	char err[512], dir[512];
	config_init(cfg);
	if (config_load(cfg, err, sizeof err) < 0) {
		fprintf(stderr, "%s: config: %s\n", cmd, err);
		return -1;
	}
	if (account_config_dir(dir, sizeof dir) < 0) {
		fprintf(stderr, "%s: neither XDG_CONFIG_HOME nor HOME is set\n", cmd);
		return -1;
	}
	if ((size_t)snprintf(path, size, "%s/lichess-token", dir) >= size) {
		fprintf(stderr, "%s: %s: path too long\n", cmd, dir);
		return -1;
	}
	return 0;
}

/* Reads one line from standard input into buf, without echo when it is a
 * terminal (after telling where to get a token). Returns its length with
 * blanks trimmed, or -1 at the end of input or for a line that does not
 * fit. */
static long lichess_read_token(const char *url, char *buf, size_t size)
{
	bool tty = isatty(STDIN_FILENO);
	struct termios saved, quiet;
	if (tty) {
		fprintf(stderr,
			"A personal API token with the board:play scope is made at\n  %s" LICHESS_TOKEN_PAGE "\n"
			"Paste it here (it is not shown): ",
			url);
		fflush(stderr);
		if (tcgetattr(STDIN_FILENO, &saved) == 0) {
			quiet = saved;
			quiet.c_lflag &= ~(tcflag_t)ECHO;
			quiet.c_lflag |= ECHONL;
			tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
		} else {
			tty = false;
		}
	}
	bool got = fgets(buf, (int)size, stdin) != NULL;
	if (tty)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
	if (!got)
		return -1;
	size_t n = strlen(buf);
	bool whole = n && buf[n - 1] == '\n';
	if (!whole && !feof(stdin)) {
		/* Longer than any token: drop the rest of the line. */
		int ch;
		while ((ch = getchar()) != EOF && ch != '\n')
			;
		return -1;
	}
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	size_t lead = strspn(buf, " \t");
	memmove(buf, buf + lead, n - lead + 1);
	return (long)(n - lead);
}

static int lichess_login(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess login";
	struct config cfg;
	char path[640], err[512], token[ACCOUNT_TOKEN_MAX + 2];
	if (argc > 0) {
		fprintf(stderr, "usage: tchess lichess login   (the token is read from standard input)\n");
		return 2;
	}
	if (lichess_setup(cmd, &cfg, path, sizeof path) < 0)
		return 1;
	const char *url = config_lichess_url(&cfg);
	long n = lichess_read_token(url, token, sizeof token);
	if (n < 0 || n > ACCOUNT_TOKEN_MAX) {
		fprintf(stderr, "%s: %s\n", cmd,
			n < 0 && feof(stdin) ? "no token given" : "that is longer than any Lichess token");
		return 1;
	}
	if (n == 0) {
		fprintf(stderr, "%s: no token given\n", cmd);
		return 1;
	}
	size_t ok = strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	if (ok != (size_t)n) {
		/* Say where, never what: the rest may be the real token. */
		fprintf(stderr,
			"%s: a Lichess token is letters, digits and '_'; character %zu of what was given is not\n",
			cmd, ok + 1);
		return 1;
	}
	struct net *net = net_new(url, token, err, sizeof err);
	if (!net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 1;
	}
	char *resp = NULL;
	size_t len = 0;
	int rc = 1;
	int status = net_request(net, "GET", LICHESS_PATH_ACCOUNT, NULL, &resp, &len, err, sizeof err);
	struct lichess_player me;
	char why[LICHESS_MESSAGE_MAX];
	if (status < 0) {
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
	} else if (status == 401 || status == 403) {
		if (!lichess_error_text(resp, len, why, sizeof why))
			snprintf(why, sizeof why, "HTTP %d", status);
		fprintf(stderr,
			"%s: %s refused the token (%s): check that it was pasted whole, or make a new one "
			"with the board:play scope at\n  %s" LICHESS_TOKEN_PAGE "\n",
			cmd, url, why, url);
	} else if (status != 200) {
		if (!lichess_error_text(resp, len, why, sizeof why))
			why[0] = '\0';
		fprintf(stderr, "%s: unexpected answer from %s" LICHESS_PATH_ACCOUNT " (HTTP %d%s%s)\n", cmd, url,
			status, why[0] ? ": " : "", why);
	} else if (lichess_account_decode(resp, len, &me, why, sizeof why) < 0) {
		fprintf(stderr, "%s: unexpected answer from %s" LICHESS_PATH_ACCOUNT ": %s\n", cmd, url, why);
	} else {
		struct account a;
		char dir[sizeof path];
		memset(&a, 0, sizeof a);
		snprintf(a.server, sizeof a.server, "%s", url);
		str_copy(a.name, me.name, sizeof a.name); /* at most LICHESS_USERNAME_MAX */
		memcpy(a.token, token, (size_t)n + 1);
		snprintf(dir, sizeof dir, "%s", path);
		*strrchr(dir, '/') = '\0';
		if (account_mkdirs(dir, err, sizeof err) < 0 || account_save(path, &a, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", cmd, err);
		} else {
			printf("logged in on %s as %s%s%s; token kept in %s\n", url, me.title, me.title[0] ? " " : "",
			       me.name, path);
			rc = 0;
		}
	}
	free(resp);
	net_free(net);
	memset(token, 0, sizeof token);
	return rc;
}

static int lichess_logout(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess logout";
	struct config cfg;
	struct account a;
	char path[640], err[512];
	(void)argv;
	if (argc > 0) {
		fprintf(stderr, "usage: tchess lichess logout\n");
		return 2;
	}
	if (lichess_setup(cmd, &cfg, path, sizeof path) < 0)
		return 1;
	int loaded = account_load(path, &a, err, sizeof err);
	if (loaded != 0) {
		fprintf(stderr, "%s: %s\n", cmd, loaded > 0 ? "not logged in (no token kept)" : err);
		return 1;
	}
	/* Revoked where it was given, whatever lichess_url says now. */
	struct net *net = net_new(a.server, a.token, err, sizeof err);
	if (!net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 1;
	}
	char *resp = NULL;
	size_t len = 0;
	int status = net_request(net, "DELETE", LICHESS_PATH_TOKEN, NULL, &resp, &len, err, sizeof err);
	free(resp);
	net_free(net);
	/* 401: the token no longer works (revoked on the web page, or
	 * expired): forgetting it is all that is left to do. */
	if (status < 0 || (status != 204 && status != 200 && status != 401)) {
		if (status < 0)
			fprintf(stderr, "%s: cannot reach %s: %s; the token is still kept in %s\n", cmd, a.server, err,
				path);
		else
			fprintf(stderr, "%s: %s did not revoke the token (HTTP %d); it is still kept in %s\n", cmd,
				a.server, status, path);
		return 1;
	}
	if (unlink(path) < 0) {
		fprintf(stderr, "%s: the token is revoked but %s stays: %s\n", cmd, path, strerror(errno));
		return 1;
	}
	printf("logged out of %s: the token of %s is %s and %s is removed\n", a.server, a.name,
	       status == 401 ? "already void" : "revoked", path);
	return 0;
}

/* The kept token for the Lichess of cfg. Returns 0, or -1 after printing
 * why (none kept, or kept for another Lichess). */
static int lichess_account(const char *cmd, const struct config *cfg, const char *path, struct account *a)
{
	char err[512];
	int rc = account_load(path, a, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return -1;
	}
	const char *url = config_lichess_url(cfg);
	if (rc > 0 || strcmp(a->server, url)) {
		fprintf(stderr, "%s: no Lichess token for %s: run 'tchess lichess login' first\n", cmd, url);
		return -1;
	}
	return 0;
}

static int lichess_play(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess play";
	struct client_opts o = { .ascii = -1 };
	const char *id_arg = NULL;
	if (client_args(&o, argc, argv, &id_arg, "usage: tchess lichess play GAME [--theme NAME] [--ascii]") < 0)
		return 2;
	/* A game's id is 8 letters and digits; the 12 of a player's own URL
	 * add the seat's 4. */
	size_t n = strlen(id_arg);
	char id[LICHESS_ID_MAX];
	if ((n != 8 && n != 12) || strspn(id_arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != n) {
		fprintf(stderr, "%s: '%.40s' is not a Lichess game id (8 letters and digits)\n", cmd, id_arg);
		return 2;
	}
	snprintf(id, sizeof id, "%.8s", id_arg);
	struct client_conn c;
	struct account a;
	char path[640], err[512];
	memset(&c, 0, sizeof c);
	if (lichess_setup(cmd, &c.cfg, path, sizeof path) < 0 || lichess_account(cmd, &c.cfg, path, &a) < 0)
		return 1;
	const char *url = config_lichess_url(&c.cfg);
	c.net = net_new(url, a.token, err, sizeof err);
	if (!c.net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 1;
	}
	char me_id[ACCOUNT_NAME_MAX + 1];
	for (size_t i = 0; i < sizeof me_id; i++)
		me_id[i] = (char)tolower((unsigned char)a.name[i]);
	struct ui ui;
	int rc = client_ui_start(&c, &ui, o.theme);
	if (rc) {
		net_free(c.net);
		return rc;
	}
	struct session s;
	session_init(&s, id, -1);
	s.lichess = true;
	s.ascii = config_want_ascii(o.ascii, &c.cfg, nl_langinfo(CODESET), getenv("TERM"));
	s.bell = c.cfg.bell;
	s.low_time_cfg_ms = c.cfg.low_time_ms;
	struct loop *l = loop_new(&ui, c.net);
	struct screen_play *p = screen_play_new(&ui, &s, NULL, NULL);
	backend_lichess_init(screen_play_backend(p), p, id, me_id);
	loop_push(l, &screen_play_ops, p);
	loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	char res[64];
	session_result_text(&s, res, sizeof res);
	rc = 0;
	if (!s.view.created && s.message[0]) {
		fprintf(stderr, "%s: game %s: %s\n", cmd, id, s.message);
		rc = 1;
	} else if (session_over(&s)) {
		char why[160];
		session_end_text(&s, why, sizeof why);
		printf("Lichess game %s: %s%s%s\n", id, res, why[0] ? ", " : "", why);
	} else {
		printf("left Lichess game %s (tchess lichess play %s to come back)\n", id, id);
	}
	session_fini(&s);
	net_free(c.net);
	return rc;
}

int cmd_lichess(int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "play"))
		return lichess_play(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "login"))
		return lichess_login(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "logout"))
		return lichess_logout(argc - 1, argv + 1);
	fprintf(stderr, "usage: tchess lichess login | logout | play GAME\n");
	return 2;
}
