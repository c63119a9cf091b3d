/*
 * tchess lichess: playing on Lichess (or whatever lichess_url names).
 *
 *	tchess lichess login    reads a personal API token (typed without
 *	                        echo, or from standard input), checks it with
 *	                        GET /api/account and keeps it, mode 0600, in
 *	                        $XDG_CONFIG_HOME/tchess/lichess-token
 *	tchess lichess login --oauth
 *	                        (or Enter alone at the prompt) gets the token
 *	                        with OAuth's authorization code and PKCE through
 *	                        the browser and a loopback redirect
 *	                        (lichess-oauth.h), then the same
 *	tchess lichess logout   revokes it (DELETE /api/token) and forgets it
 *	tchess lichess play ID  plays (or resumes) Lichess game ID on the play
 *	                        screen, over the Board API (backend-lichess.c)
 *	tchess lichess games    the user's ongoing games (GET /api/account/playing)
 *	tchess lichess ai       a game against the Lichess AI (POST /api/challenge/ai)
 *	tchess lichess seek     a seek (POST /api/board/seek, held open; the game
 *	                        arrives on GET /api/stream/event; Ctrl-C closes
 *	                        the seek's connection, which cancels it)
 *	tchess lichess accept ID, decline ID
 *	                        answer a challenge (accepted: its game is played)
 *	tchess lichess import [USER] [--max N]
 *	                        a user's finished games (GET /api/games/user/USER,
 *	                        PGN) into the local history, one file a game
 *	                        (lichess-ID.pgn), for tchess review
 *
 * The token is never printed: not when it is refused, not when it is kept.
 */
#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
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
#include "home.h"
#include "screens.h"
#include "session.h"
#include "lichess-oauth.h"
#include "lichess-stream.h"
#include "net-stream.h"
#include "ui/ui.h"
#include "util/xalloc.h"
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
		/* Echo off before the prompt shows, and without flushing:
		 * what is typed (or pasted) as soon as it shows is kept. */
		if (tcgetattr(STDIN_FILENO, &saved) == 0) {
			quiet = saved;
			quiet.c_lflag &= ~(tcflag_t)ECHO;
			quiet.c_lflag |= ECHONL;
			tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
		} else {
			tty = false;
		}
		fprintf(stderr,
			"A personal API token with the board:play scope is made at\n  %s" LICHESS_TOKEN_PAGE "\n"
			"(or press Enter alone to log in through the browser instead)\n"
			"Paste it here (it is not shown): ",
			url);
		fflush(stderr);
	}
	bool got = fgets(buf, (int)size, stdin) != NULL;
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
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

/* Checks token (n characters) with GET /api/account on url and keeps it
 * in path. Returns the exit status, after printing how it went. */
static int lichess_keep_token(const char *cmd, const char *url, const char *path, const char *token, size_t n)
{
	char err[512];
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
		char dir[640];
		memset(&a, 0, sizeof a);
		snprintf(a.server, sizeof a.server, "%s", url);
		str_copy(a.name, me.name, sizeof a.name); /* at most LICHESS_USERNAME_MAX */
		memcpy(a.token, token, n + 1);
		snprintf(dir, sizeof dir, "%s", path);
		*strrchr(dir, '/') = '\0';
		if (account_mkdirs(dir, err, sizeof err) < 0 || account_save(path, &a, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", cmd, err);
		} else {
			printf("logged in on %s as %s%s%s; token kept in %s\n", url, me.title, me.title[0] ? " " : "",
			       me.name, path);
			rc = 0;
		}
		memset(&a, 0, sizeof a);
	}
	free(resp);
	net_free(net);
	return rc;
}

/* Starts the browser on url, without waiting for it: $BROWSER when set
 * (a command; the URL is its last argument), else xdg-open when there is
 * a display. Returns whether one was started. */
static bool lichess_start_browser(const char *url, pid_t *pid)
{
	const char *browser = getenv("BROWSER");
	bool display = (getenv("DISPLAY") && *getenv("DISPLAY")) || (getenv("WAYLAND_DISPLAY") && *getenv("WAYLAND_DISPLAY"));
	if (!(browser && *browser) && !display)
		return false;
	*pid = fork();
	if (*pid < 0)
		return false;
	if (*pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		if (browser && *browser)
			execl("/bin/sh", "sh", "-c", "$BROWSER \"$1\"", "sh", url, (char *)NULL);
		else
			execlp("xdg-open", "xdg-open", url, (char *)NULL);
		_exit(127);
	}
	return true;
}

/* The OAuth login (authorization code with PKCE): the token into token
 * (size bytes). Returns its length, or -1 after printing why. */
static long lichess_oauth_token(const char *cmd, const char *url, char *token, size_t size)
{
	struct lichess_pkce pk;
	char err[512], redirect[64], auth_url[1024], code[LICHESS_OAUTH_CODE_MAX];
	int port;
	if (lichess_pkce_new(&pk) < 0) {
		fprintf(stderr, "%s: no random bytes from the kernel\n", cmd);
		return -1;
	}
	int fd = lichess_oauth_listen(&port, err, sizeof err);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return -1;
	}
	snprintf(redirect, sizeof redirect, "http://127.0.0.1:%d/callback", port);
	if (!lichess_oauth_url(url, redirect, &pk, auth_url, sizeof auth_url)) {
		fprintf(stderr, "%s: lichess_url is too long\n", cmd);
		close(fd);
		return -1;
	}
	pid_t browser = -1;
	bool started = lichess_start_browser(auth_url, &browser);
	fprintf(stderr, "%s:\n  %s\nwaiting for Lichess's answer on %s ...\n",
		started ? "Log in on Lichess in the browser (opened for you)"
			: "Open this address in a browser to log in on Lichess",
		auth_url, redirect);
	fflush(stderr);
	const char *t = getenv("TCHESS_OAUTH_TIMEOUT_MS");
	int timeout_ms = t && atoi(t) >= 100 ? atoi(t) : 300000;
	enum lichess_callback k = lichess_oauth_wait(fd, pk.state, timeout_ms, code, sizeof code, err, sizeof err);
	close(fd);
	if (browser > 0)
		waitpid(browser, NULL, WNOHANG);
	if (k != LICHESS_CALLBACK_CODE) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return -1;
	}
	/* The code and the verifier for the token. */
	char form[2048], *resp = NULL;
	size_t len = 0;
	if (!lichess_oauth_token_form(code, redirect, &pk, form, sizeof form)) {
		fprintf(stderr, "%s: the code Lichess sent is too long\n", cmd);
		return -1;
	}
	struct net *net = net_new(url, NULL, err, sizeof err);
	if (!net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return -1;
	}
	int status = net_request_form(net, "POST", LICHESS_PATH_TOKEN, form, &resp, &len, err, sizeof err);
	net_free(net);
	memset(form, 0, sizeof form);
	long n = -1;
	char why[LICHESS_MESSAGE_MAX];
	if (status < 0)
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
	else if (status != 200)
		fprintf(stderr, "%s: Lichess would not give a token for the code: %s\n", cmd,
			lichess_error_text(resp, len, why, sizeof why) ? why : "no reason given");
	else if (lichess_token_decode(resp, len, token, size, why, sizeof why) < 0)
		fprintf(stderr, "%s: unexpected answer from %s" LICHESS_PATH_TOKEN ": %s\n", cmd, url, why);
	else
		n = (long)strlen(token);
	if (resp)
		memset(resp, 0, len);
	free(resp);
	return n;
}

static int lichess_login(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess login";
	struct config cfg;
	char path[640], token[ACCOUNT_TOKEN_MAX + 2];
	bool oauth = argc == 1 && !strcmp(argv[0], "--oauth");
	if (argc > 0 && !oauth) {
		fprintf(stderr, "usage: tchess lichess login [--oauth]   (a personal token is read from standard input)\n");
		return 2;
	}
	if (lichess_setup(cmd, &cfg, path, sizeof path) < 0)
		return 1;
	const char *url = config_lichess_url(&cfg);
	long n = oauth ? 0 : lichess_read_token(url, token, sizeof token);
	if (!oauth && (n < 0 || n > ACCOUNT_TOKEN_MAX)) {
		fprintf(stderr, "%s: %s\n", cmd,
			n < 0 && feof(stdin) ? "no token given" : "that is longer than any Lichess token");
		return 1;
	}
	/* Enter alone at the prompt: the browser instead. */
	if (n == 0 && (oauth || isatty(STDIN_FILENO))) {
		n = lichess_oauth_token(cmd, url, token, sizeof token);
		if (n < 0)
			return 1;
		if (n > ACCOUNT_TOKEN_MAX) {
			fprintf(stderr, "%s: Lichess gave a token longer than tchess keeps\n", cmd);
			memset(token, 0, sizeof token);
			return 1;
		}
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
	int rc = lichess_keep_token(cmd, url, path, token, (size_t)n);
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

/* A connection to Lichess as the user whose token is kept. */
struct lichess_conn {
	struct client_conn c;       /* its cfg and net */
	struct account a;
	char me_id[ACCOUNT_NAME_MAX + 1]; /* the user's id: the name in lower case */
	const char *url;
};

/* Returns 0, or -1 after printing why. */
static int lichess_connect(const char *cmd, struct lichess_conn *lc)
{
	char path[640], err[512];
	memset(lc, 0, sizeof *lc);
	if (lichess_setup(cmd, &lc->c.cfg, path, sizeof path) < 0 || lichess_account(cmd, &lc->c.cfg, path, &lc->a) < 0)
		return -1;
	lc->url = config_lichess_url(&lc->c.cfg);
	lc->c.net = net_new(lc->url, lc->a.token, err, sizeof err);
	if (!lc->c.net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return -1;
	}
	for (size_t i = 0; i < sizeof lc->me_id; i++)
		lc->me_id[i] = (char)tolower((unsigned char)lc->a.name[i]);
	return 0;
}

/* The terminal for a screen on lc (client_ui_start); on failure lc's net
 * is freed. Returns 0 or the exit status. */
static int lichess_ui_start(struct lichess_conn *lc, struct ui *ui, const char *theme)
{
	int rc = client_ui_start(&lc->c, ui, theme);
	if (rc)
		net_free(lc->c.net);
	return rc;
}

/* Lichess's refusal of a request as one line after prefix. */
static void lichess_print_refusal(const char *prefix, int status, const char *resp, size_t len)
{
	char why[LICHESS_MESSAGE_MAX];
	if (!lichess_error_text(resp, len, why, sizeof why))
		snprintf(why, sizeof why, "HTTP %d", status);
	if (status == 401)
		fprintf(stderr, "%s: Lichess refused the token (%s): run 'tchess lichess login' again\n", prefix, why);
	else if (status == 403)
		fprintf(stderr, "%s: Lichess refused (%s): the token needs the board:play scope\n", prefix, why);
	else if (status == 429)
		fprintf(stderr, "%s: Lichess asks to wait a minute (429 too many requests)\n", prefix);
	else
		fprintf(stderr, "%s: Lichess refused: %s\n", prefix, why);
}

/* The play screen on Lichess game id; the net is freed. Returns the exit
 * status. */
static int lichess_run_game(const char *cmd, struct lichess_conn *lc, const char *id, const struct client_opts *o)
{
	struct ui ui;
	int rc = lichess_ui_start(lc, &ui, o->theme);
	if (rc)
		return rc;
	struct session s;
	session_init(&s, id, -1);
	s.lichess = true;
	s.ascii = config_want_ascii(o->ascii, &lc->c.cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	s.bell = lc->c.cfg.bell;
	s.move_alert = (int)lc->c.cfg.move_alert;
	s.low_time_cfg_ms = lc->c.cfg.low_time_ms;
	struct loop *l = loop_new(&ui, lc->c.net);
	struct screen_play *p = screen_play_new(&ui, &s, NULL, NULL);
	backend_lichess_init(screen_play_backend(p), p, id, lc->me_id);
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
	net_free(lc->c.net);
	return rc;
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
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	return lichess_run_game(cmd, &lc, id, &o);
}

/* GET /api/account/playing into games (up to max); -1 after printing why. */
static int lichess_playing(const char *cmd, struct lichess_conn *lc, struct lichess_playing *games, size_t max,
			   size_t *n)
{
	char *resp = NULL, err[512];
	size_t len = 0;
	int status = net_request(lc->c.net, "GET", LICHESS_PATH_PLAYING, NULL, &resp, &len, err, sizeof err);
	int rc = -1;
	if (status < 0)
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
	else if (status != 200)
		lichess_print_refusal(cmd, status, resp, len);
	else if (lichess_playing_decode(resp, len, games, max, n, err, sizeof err) < 0)
		fprintf(stderr, "%s: unexpected answer from %s" LICHESS_PATH_PLAYING ": %s\n", cmd, lc->url, err);
	else
		rc = 0;
	free(resp);
	return rc;
}

#define LICHESS_PLAYING_MAX 64

static int lichess_games(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess games";
	struct client_opts o = { .ascii = -1 };
	if (client_args(&o, argc, argv, NULL, "usage: tchess lichess games") < 0)
		return 2;
	struct lichess_conn lc;
	struct lichess_playing games[LICHESS_PLAYING_MAX];
	size_t n = 0;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	int rc = lichess_playing(cmd, &lc, games, LICHESS_PLAYING_MAX, &n);
	net_free(lc.c.net);
	if (rc < 0)
		return 1;
	if (n == 0)
		printf("no ongoing Lichess games\n");
	for (size_t i = 0; i < n; i++)
		printf("%s  %s vs %s  %s%s\n", games[i].id, games[i].color == WHITE ? "white" : "black",
		       games[i].opponent, games[i].speed[0] ? games[i].speed : "-", games[i].my_turn ? "  * your move" : "");
	return 0;
}

/* --tc M+S into minutes and seconds of increment. */
static int lichess_tc(const char *cmd, const char *text, int *minutes, int *inc)
{
	char *end;
	long m = strtol(text, &end, 10), i = 0;
	if (end != text && *end == '+') {
		const char *p = end + 1;
		i = strtol(p, &end, 10);
		if (end == p)
			end = (char *)"x";
	}
	if (end == text || *end || m < 0 || m > 180 || i < 0 || i > 180 || (m == 0 && i == 0)) {
		fprintf(stderr, "%s: --tc is MINUTES+SECONDS (10+0, 15+10), not '%.40s'\n", cmd, text);
		return -1;
	}
	*minutes = (int)m;
	*inc = (int)i;
	return 0;
}

/* The options of ai and seek: --tc, --color, --level (ai), --rated (seek),
 * and the common ones. Returns 0, or -1 after printing why. */
struct lichess_new {
	struct client_opts o;
	int minutes, inc, level;
	const char *color;
	bool rated;
};

static int lichess_new_args(const char *cmd, bool ai, int argc, char **argv, struct lichess_new *nw)
{
	memset(nw, 0, sizeof *nw);
	nw->o.ascii = -1;
	nw->minutes = 10;
	nw->level = 1;
	nw->color = "random";
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(&nw->o, argc, argv, &i);
		if (r < 0)
			return -1;
		if (r)
			continue;
		const char *a = argv[i];
		bool valued = !strcmp(a, "--tc") || !strcmp(a, "--color") || (ai && !strcmp(a, "--level"));
		if (valued && i + 1 >= argc) {
			fprintf(stderr, "%s: %s needs a value\n", cmd, a);
			return -1;
		}
		if (!strcmp(a, "--tc")) {
			if (lichess_tc(cmd, argv[++i], &nw->minutes, &nw->inc) < 0)
				return -1;
		} else if (!strcmp(a, "--color")) {
			nw->color = argv[++i];
			if (strcmp(nw->color, "white") && strcmp(nw->color, "black") && strcmp(nw->color, "random")) {
				fprintf(stderr, "%s: --color is white, black or random, not '%.20s'\n", cmd, nw->color);
				return -1;
			}
		} else if (ai && !strcmp(a, "--level")) {
			char *end;
			long lv = strtol(argv[++i], &end, 10);
			if (*end || lv < 1 || lv > 8) {
				fprintf(stderr, "%s: --level is 1 to 8, not '%.20s'\n", cmd, argv[i]);
				return -1;
			}
			nw->level = (int)lv;
		} else if (!ai && !strcmp(a, "--rated")) {
			nw->rated = true;
		} else {
			fprintf(stderr, "usage: tchess lichess %s\n",
				ai ? "ai [--level 1-8] [--tc M+S] [--color white|black|random]"
				   : "seek [--tc M+S] [--rated] [--color white|black|random]");
			return -1;
		}
	}
	/* The Board API's limits (Lichess estimates a game as the base time
	 * plus 40 increments): never bullet; seeks rapid or slower. */
	long est = nw->minutes * 60L + 40L * nw->inc;
	if (est < 180 || (!ai && est < 480)) {
		fprintf(stderr,
			"%s: Lichess's Board API %s (estimated %ld s: the base time plus 40 increments); %s\n", cmd,
			ai ? "plays no bullet: at least 3 minutes estimated" : "seeks only rapid or slower games: at least 8 minutes estimated",
			est, ai ? "try --tc 5+0" : "try --tc 10+0");
		return -1;
	}
	return 0;
}

static int lichess_ai(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess ai";
	struct lichess_new nw;
	if (lichess_new_args(cmd, true, argc, argv, &nw) < 0)
		return 2;
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	char form[160], *resp = NULL, err[512], id[LICHESS_ID_MAX];
	size_t len = 0;
	snprintf(form, sizeof form, "level=%d&clock.limit=%d&clock.increment=%d&color=%s", nw.level, nw.minutes * 60,
		 nw.inc, nw.color);
	int status = net_request_form(lc.c.net, "POST", LICHESS_PATH_CHALLENGE_AI, form, &resp, &len, err, sizeof err);
	int ok = 0;
	if (status < 0)
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
	else if (status != 200 && status != 201)
		lichess_print_refusal(cmd, status, resp, len);
	else if (lichess_game_id_decode(resp, len, id, sizeof id, err, sizeof err) < 0)
		fprintf(stderr, "%s: unexpected answer from %s" LICHESS_PATH_CHALLENGE_AI ": %s\n", cmd, lc.url, err);
	else
		ok = 1;
	free(resp);
	if (!ok) {
		net_free(lc.c.net);
		return 1;
	}
	return lichess_run_game(cmd, &lc, id, &nw.o);
}

/* ---- seek: the event stream and the seek's stream, in the terminal ---- */

static volatile sig_atomic_t lichess_interrupted;

static void lichess_on_sigint(int sig)
{
	(void)sig;
	lichess_interrupted = 1;
}

struct lichess_seek {
	struct lichess_lines lines;
	struct lichess_playing before[LICHESS_PLAYING_MAX]; /* games that were on already */
	size_t n_before;
	char game[LICHESS_ID_MAX];                 /* the game the seek found */
	struct net_stream *events, *seek;
	bool failed;                               /* a stream refused or ended: said */
	char why[LICHESS_MESSAGE_MAX + 64];
};

static void lichess_seek_line(void *ctx, const char *line, size_t n)
{
	struct lichess_seek *k = ctx;
	struct lichess_msg m;
	char err[200];
	if (k->game[0] || lichess_msg_decode(line, n, &m, err, sizeof err) < 0)
		return;
	if (m.kind == LICHESS_MSG_GAME_START) {
		/* The event stream sends every ongoing game when it opens: a
		 * game that was on before the seek is not the seek's. */
		bool old = false;
		for (size_t i = 0; i < k->n_before; i++)
			old |= !strcmp(k->before[i].id, m.id);
		if (!old)
			snprintf(k->game, sizeof k->game, "%s", m.id);
	}
	lichess_msg_fini(&m);
}

static void lichess_seek_events_data(void *ctx, const char *bytes, size_t n)
{
	struct lichess_seek *k = ctx;
	lichess_lines_feed(&k->lines, bytes, n, lichess_seek_line, k);
}

static void lichess_seek_end(struct lichess_seek *k, const char *what, int status, const char *body, size_t len,
			     const char *error)
{
	char text[LICHESS_MESSAGE_MAX];
	k->failed = true;
	if (status >= 300 && lichess_error_text(body, len, text, sizeof text))
		snprintf(k->why, sizeof k->why, "Lichess refused the %s: %s", what, text);
	else if (status >= 300)
		snprintf(k->why, sizeof k->why, "Lichess refused the %s (HTTP %d)", what, status);
	else
		snprintf(k->why, sizeof k->why, "the %s ended%s%.150s", what, error && *error ? ": " : "",
			 error ? error : "");
}

static void lichess_seek_events_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct lichess_seek *k = ctx;
	k->events = NULL;
	if (!k->game[0])
		lichess_seek_end(k, "event stream", status, body, len, error);
}

static void lichess_seek_seek_data(void *ctx, const char *bytes, size_t n)
{
	/* Blank lines: the seek stands while they come. */
	(void)ctx;
	(void)bytes;
	(void)n;
}

static void lichess_seek_seek_end(void *ctx, int status, const char *body, size_t len, const char *error)
{
	struct lichess_seek *k = ctx;
	k->seek = NULL;
	/* A seek that found its game ends; the game comes on the event
	 * stream. Anything else is the seek's failure. */
	if (status < 200 || status >= 300)
		lichess_seek_end(k, "seek", status, body, len, error);
}

static const struct net_stream_ops lichess_events_ops = { lichess_seek_events_data, lichess_seek_events_end };
static const struct net_stream_ops lichess_seek_ops = { lichess_seek_seek_data, lichess_seek_seek_end };

static int lichess_seek(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess seek";
	struct lichess_new nw;
	if (lichess_new_args(cmd, false, argc, argv, &nw) < 0)
		return 2;
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	struct lichess_seek *k = xcalloc(1, sizeof *k);
	int rc = 1;
	lichess_lines_init(&k->lines);
	if (lichess_playing(cmd, &lc, k->before, LICHESS_PLAYING_MAX, &k->n_before) < 0)
		goto out;
	/* The event stream first: the game arrives there. */
	k->events = net_stream_open(lc.c.net, "GET", LICHESS_PATH_EVENTS, NULL, &lichess_events_ops, k);
	char form[160];
	snprintf(form, sizeof form, "rated=%s&time=%d&increment=%d&color=%s", nw.rated ? "true" : "false", nw.minutes,
		 nw.inc, nw.color);
	k->seek = net_stream_open(lc.c.net, "POST", LICHESS_PATH_SEEK, form, &lichess_seek_ops, k);
	struct sigaction sa, old_int;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = lichess_on_sigint;
	sigaction(SIGINT, &sa, &old_int);
	lichess_interrupted = 0;
	printf("seeking a %d+%d %s game on %s... (Ctrl-C cancels)\n", nw.minutes, nw.inc, nw.rated ? "rated" : "casual",
	       lc.url);
	fflush(stdout);
	while (!k->game[0] && !k->failed && !lichess_interrupted)
		net_wait(lc.c.net, 1000, NULL, 0, NULL);
	sigaction(SIGINT, &old_int, NULL);
	/* Closing the seek's connection is what cancels it. */
	net_stream_close(lc.c.net, k->seek);
	net_stream_close(lc.c.net, k->events);
	k->seek = k->events = NULL;
	if (k->game[0]) {
		char id[LICHESS_ID_MAX];
		snprintf(id, sizeof id, "%s", k->game);
		printf("found: Lichess game %s\n", id);
		lichess_lines_fini(&k->lines);
		free(k);
		return lichess_run_game(cmd, &lc, id, &nw.o);
	}
	if (lichess_interrupted) {
		printf("seek cancelled\n");
		rc = 0;
	} else {
		fprintf(stderr, "%s: %s\n", cmd, k->why);
	}
out:
	lichess_lines_fini(&k->lines);
	free(k);
	net_free(lc.c.net);
	return rc;
}

/* accept ID (then play it: a challenge's id is its game's) or decline ID. */
static int lichess_answer(int argc, char **argv, bool accept)
{
	const char *cmd = accept ? "tchess lichess accept" : "tchess lichess decline";
	struct client_opts o = { .ascii = -1 };
	const char *id = NULL;
	if (client_args(&o, argc, argv, &id,
			accept ? "usage: tchess lichess accept CHALLENGE" : "usage: tchess lichess decline CHALLENGE") < 0)
		return 2;
	if (strlen(id) != 8 || strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != 8) {
		fprintf(stderr, "%s: '%.40s' is not a Lichess challenge id (8 letters and digits)\n", cmd, id);
		return 2;
	}
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	char path[96], *resp = NULL, err[512];
	size_t len = 0;
	snprintf(path, sizeof path, LICHESS_PATH_CHALLENGE "%s/%s", id, accept ? "accept" : "decline");
	int status = net_request_form(lc.c.net, "POST", path, NULL, &resp, &len, err, sizeof err);
	int ok = status == 200;
	if (status < 0)
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
	else if (!ok)
		lichess_print_refusal(cmd, status, resp, len);
	free(resp);
	if (!ok || !accept) {
		if (ok)
			printf("challenge %s declined\n", id);
		net_free(lc.c.net);
		return ok ? 0 : 1;
	}
	return lichess_run_game(cmd, &lc, id, &o);
}

/* The id of a Lichess game's PGN (its GameId tag, else the last part of
 * its Site tag's URL) into id; false when it has neither. */
static bool lichess_pgn_id(const char *pgn, size_t len, char *id, size_t size)
{
	static const char *const tags[] = { "[GameId \"", "[Site \"" };
	for (size_t t = 0; t < 2; t++) {
		const char *p = pgn;
		size_t tl = strlen(tags[t]);
		while (p && p < pgn + len) {
			if ((p == pgn || p[-1] == '\n') && (size_t)(pgn + len - p) > tl && !strncmp(p, tags[t], tl)) {
				const char *v = p + tl;
				const char *q = memchr(v, '"', (size_t)(pgn + len - v));
				if (!q)
					break;
				const char *start = q;
				while (start > v && start[-1] != '/')
					start--;
				size_t n = (size_t)(q - start);
				if (n == 8 && strspn(start, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") >= 8 &&
				    n < size) {
					memcpy(id, start, n);
					id[n] = '\0';
					return true;
				}
				break;
			}
			p = memchr(p, '\n', (size_t)(pgn + len - p));
			if (p)
				p++;
		}
	}
	return false;
}

/* import [USER] [--max N]: the user's finished games, newest first, one
 * file a game in the games folder; a game already there is left as it is. */
static int lichess_import(int argc, char **argv)
{
	static const char cmd[] = "tchess lichess import";
	const char *user = NULL;
	long max = 20;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			char *end;
			max = strtol(argv[++i], &end, 10);
			if (*end || max < 1 || max > 300) {
				fprintf(stderr, "%s: --max is 1 to 300, not '%.20s'\n", cmd, argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-' && !user) {
			user = argv[i];
		} else {
			fprintf(stderr, "usage: tchess lichess import [USER] [--max N]\n");
			return 2;
		}
	}
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	if (!user)
		user = lc.a.name;
	size_t ul = strlen(user);
	if (ul < 2 || ul > LICHESS_USERNAME_MAX ||
	    strspn(user, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != ul) {
		fprintf(stderr, "%s: '%.40s' is not a Lichess user name\n", cmd, user);
		net_free(lc.c.net);
		return 2;
	}
	char dir[400], err[512], path[640], *resp = NULL;
	size_t len = 0;
	if (account_games_dir(dir, sizeof dir) < 0 || account_mkdirs(dir, err, sizeof err) < 0) {
		fprintf(stderr, "%s: no games folder: %s\n", cmd, account_games_dir(dir, sizeof dir) < 0
								  ? "neither XDG_DATA_HOME nor HOME is set"
								  : err);
		net_free(lc.c.net);
		return 1;
	}
	snprintf(path, sizeof path, "/api/games/user/%s?max=%ld&finished=true&ongoing=false&clocks=true&evals=true&opening=true",
		 user, max);
	int status = net_request(lc.c.net, "GET", path, NULL, &resp, &len, err, sizeof err);
	net_free(lc.c.net);
	int rc = 1;
	if (status < 0) {
		fprintf(stderr, "%s: cannot reach Lichess: %s\n", cmd, err);
		goto out;
	}
	if (status != 200) {
		lichess_print_refusal(cmd, status, resp, len);
		goto out;
	}
	/* One game from each "[Event " at the start of a line to the next. */
	int added = 0, kept = 0, bad = 0;
	const char *end = resp + len, *g = resp;
	while (g < end) {
		const char *next = g + 1;
		for (;;) {
			next = next < end ? memchr(next, '[', (size_t)(end - next)) : NULL;
			if (!next || (next[-1] == '\n' && (size_t)(end - next) > 7 && !strncmp(next, "[Event ", 7)))
				break;
			next++;
		}
		if (!next)
			next = end;
		size_t glen = (size_t)(next - g);
		char id[LICHESS_ID_MAX], file[700];
		if (strspn(g, " \t\r\n") >= glen) {
			g = next;
			continue;
		}
		if (!lichess_pgn_id(g, glen, id, sizeof id)) {
			bad++;
			g = next;
			continue;
		}
		snprintf(file, sizeof file, "%s/lichess-%s.pgn", dir, id);
		if (access(file, F_OK) == 0) {
			kept++;
		} else {
			FILE *f = fopen(file, "w");
			if (!f || fwrite(g, 1, glen, f) != glen || fclose(f) != 0) {
				fprintf(stderr, "%s: cannot write %s: %s\n", cmd, file, strerror(errno));
				goto out;
			}
			printf("  %s\n", file);
			added++;
		}
		g = next;
	}
	printf("imported %d finished Lichess game%s of %s into %s", added, added == 1 ? "" : "s", user, dir);
	if (kept)
		printf(" (%d already there)", kept);
	if (bad)
		printf(" (%d without a Lichess id passed over)", bad);
	printf("; tchess review ID opens one\n");
	rc = 0;
out:
	free(resp);
	return rc;
}

int cmd_lichess(int argc, char **argv)
{
	if (argc >= 1 && (!strcmp(argv[0], "accept") || !strcmp(argv[0], "decline")))
		return lichess_answer(argc - 1, argv + 1, argv[0][0] == 'a');
	if (argc >= 1 && !strcmp(argv[0], "play"))
		return lichess_play(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "games"))
		return lichess_games(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "ai"))
		return lichess_ai(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "seek"))
		return lichess_seek(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "login"))
		return lichess_login(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "import"))
		return lichess_import(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "logout"))
		return lichess_logout(argc - 1, argv + 1);
	fprintf(stderr, "usage: tchess lichess login | logout | games | play GAME | ai [...] | seek [...] | "
			"accept CHALLENGE | decline CHALLENGE | import [USER]\n");
	return 2;
}

/* tchess --lichess: the home screen on Lichess (home-lichess.c). */
int cmd_lichess_home(int argc, char **argv)
{
	static const char cmd[] = "tchess --lichess";
	struct client_opts o = { .ascii = -1 };
	if (client_args(&o, argc, argv, NULL, "usage: tchess --lichess [--theme NAME] [--ascii|--unicode]") < 0)
		return 2;
	if (o.server) {
		fprintf(stderr, "%s: --server names a tchessd; Lichess is the config's lichess_url\n", cmd);
		return 2;
	}
	struct lichess_conn lc;
	if (lichess_connect(cmd, &lc) < 0)
		return 1;
	struct ui ui;
	int rc = lichess_ui_start(&lc, &ui, o.theme);
	if (rc)
		return rc;
	struct home h;
	home_init_lichess(&h, lc.me_id);
	struct screen_home_opts opts = {
		.ascii = config_want_ascii(o.ascii, &lc.c.cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols),
		.bell = lc.c.cfg.bell,
		.low_time_ms = lc.c.cfg.low_time_ms,
	};
	struct loop *l = loop_new(&ui, lc.c.net);
	loop_push(l, &screen_home_ops, screen_home_new(&ui, &h, &opts));
	rc = loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	home_fini(&h);
	net_free(lc.c.net);
	return rc < 0 ? 1 : 0;
}

/* tchess play --lichess [--vs engine[:N]|open] [--tc] [--color] [--rated]:
 * the AI (lichess ai) or a seek (lichess seek), with the same options. */
int cmd_lichess_play_new(int argc, char **argv)
{
	char **args = xcalloc((size_t)argc + 4, sizeof *args);
	char level[16] = "";
	int n = 0;
	bool ai = false;
	args[n++] = (char *)"seek";
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--vs") && i + 1 < argc) {
			const char *v = argv[++i];
			if (!strncmp(v, "engine", 6) && (v[6] == '\0' || v[6] == ':')) {
				ai = true;
				if (v[6] == ':')
					snprintf(level, sizeof level, "%.8s", v + 7);
			} else if (strcmp(v, "open")) {
				fprintf(stderr, "tchess play --lichess: --vs takes engine[:1-8] (the Lichess AI) or open (a seek)\n");
				free(args);
				return 2;
			}
			continue;
		}
		if (!strcmp(argv[i], "--ruleset") || !strcmp(argv[i], "--premoves") || !strcmp(argv[i], "--undo")) {
			fprintf(stderr, "tchess play --lichess: %s is tchessd's, not Lichess's\n", argv[i]);
			free(args);
			return 2;
		}
		args[n++] = argv[i];
	}
	if (ai) {
		args[0] = (char *)"ai";
		if (level[0]) {
			args[n++] = (char *)"--level";
			args[n++] = level;
		}
	}
	int rc = ai ? lichess_ai(n - 1, args + 1) : lichess_seek(n - 1, args + 1);
	free(args);
	return rc;
}

/* tchess watch --lichess GAME (or a game's URL): the game's public stream
 * on the play screen, read-only. No token is needed: the kept one is sent
 * when there is one for this Lichess. */
int cmd_lichess_watch(int argc, char **argv)
{
	static const char cmd[] = "tchess watch";
	struct client_opts o = { .ascii = -1 };
	const char *arg = NULL;
	if (client_args(&o, argc, argv, &arg, "usage: tchess watch --lichess GAME|URL [--theme NAME] [--ascii]") < 0)
		return 2;
	/* https://lichess.org/ID[/black], any host: the path's first part. */
	const char *p = arg;
	const char *scheme = strstr(p, "://");
	if (scheme) {
		p = strchr(scheme + 3, '/');
		p = p ? p + 1 : "";
	}
	size_t n = strcspn(p, "/?#");
	char id[LICHESS_ID_MAX];
	if ((n != 8 && n != 12) || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") < n) {
		fprintf(stderr, "%s: '%.60s' is not a Lichess game (its 8-letter id or its URL)\n", cmd, arg);
		return 2;
	}
	snprintf(id, sizeof id, "%.8s", p);
	struct lichess_conn lc;
	char path[640], err[512];
	memset(&lc, 0, sizeof lc);
	if (lichess_setup(cmd, &lc.c.cfg, path, sizeof path) < 0)
		return 1;
	lc.url = config_lichess_url(&lc.c.cfg);
	bool token = account_load(path, &lc.a, err, sizeof err) == 0 && !strcmp(lc.a.server, lc.url);
	lc.c.net = net_new(lc.url, token ? lc.a.token : NULL, err, sizeof err);
	if (!lc.c.net) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return 1;
	}
	struct ui ui;
	int rc = lichess_ui_start(&lc, &ui, o.theme);
	if (rc)
		return rc;
	struct session s;
	session_init(&s, id, -1);
	s.lichess = true;
	s.ascii = config_want_ascii(o.ascii, &lc.c.cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	s.low_time_cfg_ms = lc.c.cfg.low_time_ms;
	struct loop *l = loop_new(&ui, lc.c.net);
	struct screen_play *sp = screen_play_new(&ui, &s, NULL, NULL);
	backend_lichess_watch_init(screen_play_backend(sp), sp, id);
	loop_push(l, &screen_play_ops, sp);
	loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	rc = 0;
	if (!s.view.created && s.message[0]) {
		fprintf(stderr, "%s: Lichess game %s: %s\n", cmd, id, s.message);
		rc = 1;
	} else if (session_over(&s)) {
		char res[64], why[160];
		session_result_text(&s, res, sizeof res);
		session_end_text(&s, why, sizeof why);
		printf("Lichess game %s: %s%s%s\n", id, res, why[0] ? ", " : "", why);
	}
	session_fini(&s);
	net_free(lc.c.net);
	memset(&lc.a, 0, sizeof lc.a);
	return rc;
}
