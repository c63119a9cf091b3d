/*
 * The network commands: register, play, join, watch and export ("tchess
 * games" is cmd-games.c).
 * This file finds the server (--server, the config file, the account file,
 * or else an embedded tchessd of our own), finds who we are on it, makes
 * the one-shot requests and hands a game over to the play screen.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "route.h"
#include "account.h"
#include "cmd-net.h"
#include "commands.h"
#include "config.h"
#include "game-id.h"
#include "home.h"
#include "loop.h"
#include "net.h"
#include "screens.h"
#include "session.h"
#include "tchess/fold.h"
#include "theme.h"
#include "ui/ui.h"
#include "util/xalloc.h"

void client_disconnect(struct client_conn *c)
{
	net_free(c->net);
	c->net = NULL;
	account_embedded_leave(&c->emb);
}

/* Registers name on the connected server and saves the account at path
 * (into *out). Returns 0, 1 when the name is taken, or -1 with why in
 * err (the server's refusal, the network's or the file's error). */
static int client_register_at(struct client_conn *c, const char *name, const char *path, struct account *out,
			      char *err, size_t errsize)
{
	struct protocol_register_request req;
	struct protocol_register_response res;
	struct protocol_error perr;
	char *resp = NULL;
	size_t len = 0;
	snprintf(req.name, sizeof req.name, "%s", name);
	/* The folder first: a token the server gave and we could not keep
	 * would leave the name taken for nothing. */
	char dir[sizeof c->account_path];
	snprintf(dir, sizeof dir, "%s", path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	if (account_mkdirs(dir, err, errsize) < 0)
		return -1;
	char *body = protocol_register_request_encode(&req);
	int status = net_request(c->net, route_method(ROUTE_PLAYERS_CREATE), route_fixed(ROUTE_PLAYERS_CREATE), body, &resp, &len, err, errsize);
	free(body);
	if (status < 0)
		return -1;
	if (status != 201 || protocol_register_response_decode(resp, len, &res, &perr) < 0) {
		struct protocol_error e;
		if (protocol_error_decode(resp, len, &e, NULL) == 0)
			snprintf(err, errsize, "%s", e.message);
		else
			snprintf(err, errsize, "unexpected answer (HTTP %d)", status);
		free(resp);
		return status == 409 ? 1 : -1;
	}
	free(resp);
	struct account a;
	memset(&a, 0, sizeof a);
	snprintf(a.server, sizeof a.server, "%s", c->embedded ? "embedded" : c->server);
	snprintf(a.name, sizeof a.name, "%s", res.name);
	snprintf(a.token, sizeof a.token, "%s", res.token);
	a.player = res.player;
	if (account_save(path, &a, err, errsize) < 0)
		return -1;
	*out = a;
	return 0;
}

/* Registers name on the connected server as the player's own account.
 * Returns 0, 1 when the name is taken, or -1 after printing why (unless
 * quiet, for a refusal). */
static int client_register(struct client_conn *c, const char *name, bool quiet)
{
	char err[512];
	int rc = client_register_at(c, name, c->account_path, &c->acct, err, sizeof err);
	if (rc == 0)
		c->have_account = true;
	else if (rc < 0 || !quiet)
		fprintf(stderr, "tchess register: %s\n", err);
	return rc;
}

int client_guest(struct client_conn *c, struct account *guest, char *err, size_t errsize)
{
	char path[sizeof c->account_path + 8];
	snprintf(path, sizeof path, "%s-guest", c->account_path);
	int rc = account_load(path, guest, err, errsize);
	if (rc <= 0)
		return rc;
	/* Registered without the player's token: the guest is nobody's
	 * second account on the server's side. */
	struct net *own = c->net;
	c->net = net_new(c->server, NULL, err, errsize);
	if (!c->net) {
		c->net = own;
		return -1;
	}
	rc = 1;
	for (int i = 0; rc == 1 && i < 20; i++) {
		char tryname[PROTOCOL_NAME_MAX + 1];
		snprintf(tryname, sizeof tryname, i ? "%.16s-guest%d" : "%.16s-guest", c->acct.name, i + 1);
		rc = client_register_at(c, tryname, path, guest, err, errsize);
	}
	net_free(c->net);
	c->net = own;
	if (rc == 1)
		snprintf(err, errsize, "no free name for the hotseat's second player");
	return rc == 0 ? 0 : -1;
}

/* One request on n: 0 with the answer in *resp when its status is want,
 * else -1 with the network's error or the server's refusal in err. */
static int client_ask(struct net *n, const char *method, const char *path, const char *body, int want, char **resp,
		      size_t *len, char *err, size_t errsize)
{
	struct protocol_error perr;
	int status = net_request(n, method, path, body, resp, len, err, errsize);
	if (status < 0)
		return -1;
	if (status == want)
		return 0;
	if (protocol_error_decode(*resp, *len, &perr, NULL) < 0)
		snprintf(perr.message, sizeof perr.message, "unexpected answer (HTTP %d)", status);
	snprintf(err, errsize, "%s", perr.message);
	return -1;
}

int client_hotseat_create(struct client_conn *c, const struct account *guest,
			  const struct protocol_game_create_request *want, char *id, size_t size, int *host, char *err,
			  size_t errsize)
{
	struct protocol_game_create_request req = *want;
	char path[128], *resp = NULL;
	size_t len = 0;
	int rc = -1;
	/* An invite game for the player's seat, then the guest takes the
	 * other with the code: both seats are ours, the rules the server's. */
	snprintf(req.opponent, sizeof req.opponent, "invite");
	req.level = 0;
	if (!req.color[0])
		snprintf(req.color, sizeof req.color, "white");
	char *body = protocol_game_create_request_encode(&req);
	int r = client_ask(c->net, route_method(ROUTE_GAMES_CREATE), route_fixed(ROUTE_GAMES_CREATE), body, 201, &resp,
			   &len, err, errsize);
	free(body);
	struct protocol_seat_response seat, joined;
	struct protocol_error perr;
	if (r < 0)
		goto out;
	if (protocol_seat_response_decode(resp, len, &seat, &perr) < 0 || !fold_color_parse(seat.color, host) ||
	    *host < 0) {
		snprintf(err, errsize, "the server's answer: %s", perr.message);
		goto out;
	}
	free(resp);
	resp = NULL;
	struct protocol_join_request jr;
	memset(&jr, 0, sizeof jr);
	snprintf(jr.invite, sizeof jr.invite, "%s", seat.invite);
	body = protocol_join_request_encode(&jr);
	const char *method = route_request(path, sizeof path, ROUTE_GAME_JOIN, seat.id, NULL);
	struct net *as_guest = net_new(c->server, guest->token, err, errsize);
	if (!as_guest) {
		free(body);
		goto out;
	}
	r = client_ask(as_guest, method, path, body, 200, &resp, &len, err, errsize);
	free(body);
	net_free(as_guest);
	if (r < 0)
		goto out;
	if (protocol_seat_response_decode(resp, len, &joined, &perr) < 0) {
		snprintf(err, errsize, "the server's answer: %s", perr.message);
		goto out;
	}
	net_set_second(c->net, guest->token);
	snprintf(id, size, "%s", seat.id);
	rc = 0;
out:
	free(resp);
	return rc;
}

/* A name for the automatic local player: the login name, cleaned. */
static void client_local_name(char *buf, size_t size)
{
	const char *user = getenv("USER");
	size_t n = 0;
	for (const char *p = user ? user : ""; *p && n + 1 < size && n < 16; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		    *p == '-')
			buf[n++] = *p;
	buf[n] = '\0';
	if (n == 0 || buf[0] == '_' || buf[0] == '-')
		snprintf(buf, size, "player");
}

int client_connect(struct client_conn *c, const char *server_opt, bool need_token)
{
	char err[512], dir[512];
	memset(c, 0, sizeof *c);
	c->emb.users_fd = -1;
	config_init(&c->cfg);
	if (config_load(&c->cfg, err, sizeof err) < 0) {
		fprintf(stderr, "tchess: config: %s\n", err);
		return -1;
	}
	/* The account file of a chosen server. */
	struct account cfg_acct;
	bool have_cfg_acct = false;
	if (account_config_dir(dir, sizeof dir) == 0) {
		snprintf(c->account_path, sizeof c->account_path, "%s/token", dir);
		int rc = account_load(c->account_path, &cfg_acct, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "tchess: %s\n", err);
			return -1;
		}
		have_cfg_acct = rc == 0 && strcmp(cfg_acct.server, "embedded") != 0;
	}
	const char *server = server_opt && *server_opt ? server_opt
			     : getenv("TCHESS_SERVER") && *getenv("TCHESS_SERVER") ? getenv("TCHESS_SERVER")
			     : c->cfg.server[0] ? c->cfg.server
			     : have_cfg_acct ? cfg_acct.server
					     : NULL;
	if (server) {
		snprintf(c->server, sizeof c->server, "%s", server);
		if (have_cfg_acct && !strcmp(cfg_acct.server, server)) {
			c->acct = cfg_acct;
			c->have_account = true;
		}
		if (need_token && !c->have_account) {
			fprintf(stderr, "tchess: no account on %s: run 'tchess register NAME --server %s' first\n",
				server, server);
			return -1;
		}
	} else {
		char tchessd[1024];
		if (account_state_dir(dir, sizeof dir) < 0 || account_mkdirs(dir, err, sizeof err) < 0) {
			fprintf(stderr, "tchess: %s\n", dir[0] ? err : "neither XDG_STATE_HOME nor HOME is set");
			return -1;
		}
		if (account_find_tchessd(tchessd, sizeof tchessd) < 0) {
			fprintf(stderr, "tchess: no server configured and tchessd not found (set TCHESS_TCHESSD, "
					"or pass --server URL)\n");
			return -1;
		}
		/* The terminal closing must not kill us before we leave the
		 * shared server: every screen ends on its own when its terminal
		 * hangs up, and a command without one finishes. */
		signal(SIGHUP, SIG_IGN);
		if (account_embedded_attach(&c->emb, dir, tchessd, err, sizeof err) < 0) {
			fprintf(stderr, "tchess: %s\n", err);
			return -1;
		}
		c->embedded = true;
		snprintf(c->server, sizeof c->server, "%s", c->emb.url);
		snprintf(c->account_path, sizeof c->account_path, "%s/local-token", dir);
		int rc = account_load(c->account_path, &c->acct, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "tchess: %s\n", err);
			client_disconnect(c);
			return -1;
		}
		c->have_account = rc == 0;
	}
	c->net = net_new(c->server, c->have_account ? c->acct.token : NULL, err, sizeof err);
	if (!c->net) {
		fprintf(stderr, "tchess: %s\n", err);
		client_disconnect(c);
		return -1;
	}
	if (c->embedded && need_token && !c->have_account) {
		char name[PROTOCOL_NAME_MAX + 1];
		client_local_name(name, sizeof name);
		int rc = 1;
		for (int i = 0; rc == 1 && i < 20; i++) {
			char tryname[PROTOCOL_NAME_MAX + 1];
			snprintf(tryname, sizeof tryname, i ? "%.18s%d" : "%s", name, i + 1);
			rc = client_register(c, tryname, true);
		}
		if (rc != 0) {
			client_disconnect(c);
			return -1;
		}
		net_free(c->net);
		c->net = net_new(c->server, c->acct.token, err, sizeof err);
	}
	return 0;
}

int client_ui_start(struct client_conn *c, struct ui *ui, const char *theme_arg)
{
	char err[512];
	struct theme theme;
	setlocale(LC_ALL, "");
	const char *theme_name = config_theme_name(theme_arg, &c->cfg, getenv("NO_COLOR"));
	if (theme_load(&theme, theme_name, err, sizeof err) < 0) {
		fprintf(stderr, "tchess: %s\n", err);
		return 2;
	}
	config_apply_theme(&c->cfg, &theme);
	if (ui_start(ui, &theme, err, sizeof err) < 0) {
		fprintf(stderr, "tchess: %s\n", err);
		return 1;
	}
	ui->mouse_off = c->cfg.mouse_off;
	return 0;
}

int client_hotseat_of(struct client_conn *c, const char *id, int *host)
{
	char gpath[sizeof c->account_path + 8], path[128], err[256], *resp = NULL;
	size_t len = 0;
	struct account guest;
	*host = -1;
	snprintf(gpath, sizeof gpath, "%s-guest", c->account_path);
	if (!c->have_account || account_load(gpath, &guest, err, sizeof err) != 0 || guest.player <= 0 ||
	    strcmp(guest.server, c->embedded ? "embedded" : c->server) != 0)
		return 0;
	const char *method = route_request(path, sizeof path, ROUTE_GAME, id, NULL);
	int status = net_request(c->net, method, path, NULL, &resp, &len, err, sizeof err);
	struct protocol_error perr;
	struct game_view v;
	int rc = 0;
	fold_view_init(&v);
	if (status == 200 && fold_view_from_snapshot(&v, resp, len, id, &perr) == 0) {
		int mine = fold_seat_of(&v, c->acct.player), theirs = fold_seat_of(&v, guest.player);
		if (mine >= 0 && theirs == !mine) {
			net_set_second(c->net, guest.token);
			*host = mine;
			rc = 1;
		}
	}
	fold_view_fini(&v);
	free(resp);
	return rc;
}

/* Runs the play screen on game id as colour me (-1 watching). */
/* The play screen of game id, seated as me (-1 watching); a hotseat game
 * when hotseat_host >= 0 (the seat of c's own token; flip: the board
 * turns to each mover). */
static int client_screen(struct client_conn *c, const char *id, int me, const char *note, const char *theme_arg,
			 int ascii_arg, int hotseat_host, bool flip)
{
	struct ui ui;
	int rc = client_ui_start(c, &ui, theme_arg);
	if (rc)
		return rc;
	struct session s;
	session_init(&s, id, me);
	if (hotseat_host >= 0)
		session_hotseat(&s, hotseat_host, flip);
	s.ascii = config_want_ascii(ascii_arg, &c->cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	s.bell = c->cfg.bell;
	s.move_alert = (int)c->cfg.move_alert;
	s.low_time_cfg_ms = c->cfg.low_time_ms;
	if (note)
		snprintf(s.note, sizeof s.note, "%s", note);
	struct loop *l = loop_new(&ui, c->net);
	loop_push(l, &screen_play_ops, screen_play_new(&ui, &s, NULL, NULL));
	loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	char res[64];
	/* A rematch may have moved the screen on to the series' next game. */
	session_result_text(&s, res, sizeof res);
	char head[120], hint[160];
	if (session_gone_text(&s, head, sizeof head, hint, sizeof hint)) {
		/* Coming back would meet the same refusal: say why instead. */
		fprintf(stderr, "tchess: game %s: %s (%s)\n", s.game_id, head, hint);
		session_fini(&s);
		return 1;
	}
	if (!s.view.created && s.message_error) {
		fprintf(stderr, "tchess: game %s: %s\n", s.game_id, s.message);
		session_fini(&s);
		return 1;
	}
	if (session_over(&s))
		printf("game %s: %s\n", s.game_id, res);
	else if (s.hotseat)
		printf("left hotseat game %s: it stays open on the server, its clock running "
		       "(tchess join %s to come back)\n",
		       s.game_id, s.game_id);
	else
		printf("left game %s (tchess %s %s to come back)\n", s.game_id, s.me < 0 ? "watch" : "join",
		       s.game_id);
	session_fini(&s);
	return 0;
}

void client_print_refusal(const char *prefix, int status, const char *resp, size_t len)
{
	struct protocol_error perr;
	if (!resp || protocol_error_decode(resp, len, &perr, NULL) < 0)
		snprintf(perr.message, sizeof perr.message, "unexpected answer (HTTP %d)", status);
	fprintf(stderr, "%s: %s\n", prefix, perr.message);
}

int client_call(struct client_conn *c, const char *method, const char *path, const char *body, int want,
                const char *prefix, const char *refused, char **resp, size_t *len)
{
	char err[512];
	*resp = NULL;
	*len = 0;
	int status = net_request(c->net, method, path, body, resp, len, err, sizeof err);
	if (status < 0) {
		fprintf(stderr, "%s: %s\n", prefix, err);
		return -1;
	}
	if (status != want) {
		client_print_refusal(refused ? refused : prefix, status, *resp, *len);
		return -1;
	}
	return 0;
}

int client_common_opt(struct client_opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	if (!strcmp(a, "--server") || !strcmp(a, "--theme")) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "tchess: %s needs a value\n", a);
			return -1;
		}
		if (a[2] == 's')
			o->server = argv[++*i];
		else
			o->theme = argv[++*i];
		return 1;
	}
	if (!strcmp(a, "--ascii")) {
		o->ascii = 1;
		return 1;
	}
	if (!strcmp(a, "--unicode")) {
		o->ascii = 0;
		return 1;
	}
	return 0;
}

int client_args(struct client_opts *o, int argc, char **argv, const char **arg, const char *usage)
{
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(o, argc, argv, &i);
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (argv[i][0] == '-' || !arg || *arg) {
			fprintf(stderr, "%s\n", usage);
			return -1;
		}
		*arg = argv[i];
	}
	if (arg && !*arg) {
		fprintf(stderr, "%s\n", usage);
		return -1;
	}
	return 0;
}

int cmd_register(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	const char *name = NULL;
	if (client_args(&o, argc, argv, &name, "usage: tchess register NAME [--server URL]") < 0)
		return 2;
	struct protocol_error perr;
	if (!protocol_name_valid(name, &perr)) {
		fprintf(stderr, "tchess register: %s\n", perr.message);
		return 2;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, false) < 0)
		return 1;
	int rc = client_register(&c, name, false);
	if (rc == 1)
		fprintf(stderr, "tchess register: the name %s is taken\n", name);
	else if (rc == 0)
		printf("registered %s (player %lld) on %s; token saved in %s\n", c.acct.name,
		       (long long)c.acct.player, c.embedded ? "the local server" : c.server, c.account_path);
	client_disconnect(&c);
	return rc == 0 ? 0 : 1;
}

/* tchess token [rotate]: whose token this is and whether the server knows
 * it; rotate replaces it (POST /v1/me/token) and keeps the new one. */
int cmd_token(int argc, char **argv)
{
	static const char usage[] = "usage: tchess token [rotate] [--server URL]";
	struct client_opts o = { .ascii = -1 };
	bool rotate = false;
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(&o, argc, argv, &i);
		if (r < 0)
			return 2;
		if (r)
			continue;
		if (strcmp(argv[i], "rotate") || rotate) {
			fprintf(stderr, "%s\n", usage);
			return 2;
		}
		rotate = true;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, true) < 0)
		return 1;
	const char *where = c.embedded ? "the local server" : c.server;
	char *resp = NULL, err[512];
	size_t len = 0;
	int rc = 1;
	if (!rotate) {
		int status = net_request(c.net, route_method(ROUTE_ME), route_fixed(ROUTE_ME), NULL, &resp, &len, err, sizeof err);
		if (status < 0)
			fprintf(stderr, "tchess token: %s\n", err);
		else if (status == 401)
			fprintf(stderr,
				"tchess token: %s does not know the token in %s (replaced elsewhere, or a new "
				"database): run 'tchess register NAME' again\n",
				where, c.account_path);
		else if (status != 200)
			client_print_refusal("tchess token", status, resp, len);
		else
			rc = 0;
		if (rc == 0)
			printf("%s (player %lld) on %s; token kept in %s\n", c.acct.name, (long long)c.acct.player,
			       where, c.account_path);
		goto out;
	}
	/* The file must take the new token: a token the server gave and we
	 * could not keep would lock the player out. */
	if (account_save(c.account_path, &c.acct, err, sizeof err) < 0) {
		fprintf(stderr, "tchess token: %s\n", err);
		goto out;
	}
	struct protocol_register_response res;
	struct protocol_error perr;
	if (client_call(&c, route_method(ROUTE_ME_TOKEN), route_fixed(ROUTE_ME_TOKEN), "{}", 200, "tchess token", NULL, &resp, &len) < 0)
		goto out;
	if (protocol_register_response_decode(resp, len, &res, &perr) < 0) {
		fprintf(stderr, "tchess token: the server's answer: %s\n", perr.message);
		goto out;
	}
	snprintf(c.acct.token, sizeof c.acct.token, "%s", res.token);
	if (account_save(c.account_path, &c.acct, err, sizeof err) < 0) {
		fprintf(stderr, "tchess token: %s\nthe new token, which the file could not take: %s\n", err,
			res.token);
		goto out;
	}
	printf("new token for %s (player %lld) on %s, kept in %s; the old one no longer works\n", c.acct.name,
	       (long long)c.acct.player, where, c.account_path);
	rc = 0;
out:
	free(resp);
	client_disconnect(&c);
	return rc;
}

/* Takes --lichess (or --server lichess) out of argv; true if it was there. */
bool client_take_lichess(int *argc, char **argv)
{
	bool found = false;
	int n = 0;
	for (int i = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--lichess")) {
			found = true;
			continue;
		}
		if (!strcmp(argv[i], "--server") && i + 1 < *argc && !strcmp(argv[i + 1], "lichess")) {
			found = true;
			i++;
			continue;
		}
		argv[n++] = argv[i];
	}
	*argc = n;
	return found;
}

/* The home screen's hotseat game (screens.h): the guest found or
 * registered, the game made with time control tc. */
static int client_home_hotseat(void *ctx, const char *tc, char *id, size_t size, int *host, char *err,
			       size_t errsize)
{
	struct client_conn *c = ctx;
	struct protocol_game_create_request req;
	struct account guest;
	memset(&req, 0, sizeof req);
	snprintf(req.tc, sizeof req.tc, "%s", tc);
	req.premoves = CONFIG_PREMOVES_DEFAULT;
	if (client_guest(c, &guest, err, errsize) < 0)
		return -1;
	return client_hotseat_create(c, &guest, &req, id, size, host, err, errsize);
}

/* The home screen's check of a game opened from "my games" (screens.h). */
static int client_home_hotseat_of(void *ctx, const char *id, int *host)
{
	return client_hotseat_of(ctx, id, host);
}

/* tchess (or tchess home): the home screen, on the configured server or
 * the embedded one, with an account (registered automatically on the
 * embedded server). */
int cmd_home(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	if (client_take_lichess(&argc, argv))
		return cmd_lichess_home(argc, argv);
	if (client_args(&o, argc, argv, NULL,
			"usage: tchess [home] [--server URL|--lichess] [--theme NAME] [--ascii|--unicode]") <
	    0)
		return 2;
	struct client_conn c;
	if (client_connect(&c, o.server, true) < 0)
		return 1;
	struct ui ui;
	int rc = client_ui_start(&c, &ui, o.theme);
	if (rc) {
		client_disconnect(&c);
		return rc;
	}
	struct home h;
	char cfg_path[1024];
	home_init(&h, c.have_account);
	home_form_defaults(&h, &c.cfg, config_path(cfg_path, sizeof cfg_path) == 0 ? cfg_path : NULL);
	struct screen_home_opts opts = {
		.ascii = config_want_ascii(o.ascii, &c.cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols),
		.bell = c.cfg.bell,
		.move_alert = (int)c.cfg.move_alert,
		.low_time_ms = c.cfg.low_time_ms,
		.player = c.have_account ? c.acct.player : 0,
	};
	opts.hotseat = client_home_hotseat;
	opts.hotseat_of = client_home_hotseat_of;
	opts.hotseat_ctx = &c;
	opts.cfg = &c.cfg;
	opts.theme_name = config_theme_name(o.theme, &c.cfg, getenv("NO_COLOR"));
	struct loop *l = loop_new(&ui, c.net);
	loop_push(l, &screen_home_ops, screen_home_new(&ui, &h, &opts));
	rc = loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	home_fini(&h);
	client_disconnect(&c);
	return rc < 0 ? 1 : 0;
}

static int play_usage(void)
{
	fprintf(stderr, "usage: tchess play [--server URL] [--tc 5+3] [--ruleset NAME] [--color white|black|random]\n"
			"                   [--vs engine[:LEVEL]|open|invite] [--premoves N] [--undo] [--theme NAME]\n"
			"                   [--ascii|--unicode] [--hotseat [--board turn|fixed]]\n"
			"       tchess play --lichess [--vs engine[:1-8]|open] [--tc M+S] [--color C] [--rated]\n");
	return 2;
}

int cmd_play(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	if (client_take_lichess(&argc, argv))
		return cmd_lichess_play_new(argc, argv);
	struct protocol_game_create_request req;
	memset(&req, 0, sizeof req);
	snprintf(req.tc, sizeof req.tc, "5+3");
	snprintf(req.opponent, sizeof req.opponent, "engine");
	req.level = 3;
	/* A casual game lets a player queue several premoves. */
	req.premoves = CONFIG_PREMOVES_DEFAULT;
	bool hotseat = false, flip = true, board_set = false, vs_set = false;
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(&o, argc, argv, &i);
		if (r < 0)
			return play_usage();
		if (r)
			continue;
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			play_usage();
			return 0;
		}
		if (!strcmp(a, "--undo")) {
			/* Moves are provisional until done (rule 14). */
			req.undo = true;
			continue;
		}
		if (!strcmp(a, "--hotseat")) {
			hotseat = true;
			continue;
		}
		if (i + 1 >= argc || (strcmp(a, "--tc") && strcmp(a, "--ruleset") && strcmp(a, "--color") &&
				      strcmp(a, "--vs") && strcmp(a, "--premoves") && strcmp(a, "--board"))) {
			fprintf(stderr, "tchess play: unknown option or missing value: %s\n", a);
			return play_usage();
		}
		const char *v = argv[++i];
		if (!strcmp(a, "--board")) {
			if (strcmp(v, "turn") && strcmp(v, "fixed")) {
				fprintf(stderr, "tchess play: --board takes turn or fixed\n");
				return 2;
			}
			flip = !strcmp(v, "turn");
			board_set = true;
		} else if (!strcmp(a, "--premoves")) {
			char *end;
			long d = strtol(v, &end, 10);
			if (*end || end == v || d < 1 || d > PREMOVE_DEPTH_MAX) {
				fprintf(stderr, "tchess play: --premoves takes a number from 1 to %d\n", PREMOVE_DEPTH_MAX);
				return 2;
			}
			req.premoves = d;
		} else if (!strcmp(a, "--tc")) {
			snprintf(req.tc, sizeof req.tc, "%s", v);
		} else if (!strcmp(a, "--ruleset")) {
			snprintf(req.ruleset, sizeof req.ruleset, "%s", v);
		} else if (!strcmp(a, "--color")) {
			if (strcmp(v, "white") && strcmp(v, "black") && strcmp(v, "random")) {
				fprintf(stderr, "tchess play: --color takes white, black or random\n");
				return 2;
			}
			snprintf(req.color, sizeof req.color, "%s", v);
		} else {
			char kind[16];
			const char *colon = strchr(v, ':');
			snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - v) : (int)strlen(v), v);
			if (!strcmp(kind, "engine")) {
				req.level = colon ? strtol(colon + 1, NULL, 10) : 3;
			} else if (!strcmp(kind, "open") || !strcmp(kind, "invite")) {
				if (colon) {
					fprintf(stderr, "tchess play: only engine takes a level\n");
					return 2;
				}
				req.level = 0;
			} else {
				fprintf(stderr, "tchess play: --vs takes engine[:LEVEL], open or invite\n");
				return 2;
			}
			snprintf(req.opponent, sizeof req.opponent, "%s", kind);
			vs_set = true;
		}
	}
	if (hotseat && (vs_set || req.undo)) {
		fprintf(stderr, "tchess play: --hotseat is two players at this terminal: no --vs, no --undo\n");
		return 2;
	}
	if (board_set && !hotseat) {
		fprintf(stderr, "tchess play: --board is for --hotseat games (t turns the board in any game)\n");
		return 2;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, true) < 0)
		return 1;
	if (hotseat) {
		char id[PROTOCOL_GAME_ID_MAX + 1];
		int host;
		int hrc = 1;
		struct account guest;
		char err[512];
		if (client_guest(&c, &guest, err, sizeof err) < 0 ||
		    client_hotseat_create(&c, &guest, &req, id, sizeof id, &host, err, sizeof err) < 0)
			fprintf(stderr, "tchess play: %s\n", err);
		else
			hrc = client_screen(&c, id, host, NULL, o.theme, o.ascii, host, flip);
		client_disconnect(&c);
		return hrc;
	}
	char err[512], *resp = NULL;
	size_t len = 0;
	char *body = protocol_game_create_request_encode(&req);
	int status = net_request(c.net, route_method(ROUTE_GAMES_CREATE), route_fixed(ROUTE_GAMES_CREATE), body, &resp, &len, err, sizeof err);
	free(body);
	int rc = 1;
	struct protocol_seat_response seat;
	struct protocol_error perr;
	if (status < 0) {
		fprintf(stderr, "tchess play: %s\n", err);
		goto out;
	}
	if (status != 201 || protocol_seat_response_decode(resp, len, &seat, &perr) < 0) {
		if (protocol_error_decode(resp, len, &perr, NULL) < 0)
			snprintf(perr.message, sizeof perr.message, "HTTP %d", status);
		fprintf(stderr, "tchess play: %s\n", perr.message);
		goto out;
	}
	int me;
	fold_color_parse(seat.color, &me);
	char note[160];
	if (seat.invite[0])
		/* The id as the screens show it: the whole line fits at 80
		 * columns, to copy or read aloud. */
		snprintf(note, sizeof note, "invite: tchess join %.8s:%s", seat.id, seat.invite);
	else
		snprintf(note, sizeof note, "others join with: tchess join %s", seat.id);
	rc = client_screen(&c, seat.id, me, strcmp(req.opponent, "engine") ? note : NULL, o.theme, o.ascii, -1, false);
out:
	free(resp);
	client_disconnect(&c);
	return rc;
}

/* Turns what the user typed for a game (its whole id, or its start as the
 * screens show it: "208fe1f1") into the game's id, before any screen
 * opens. A prefix is matched against the server's recent games and the
 * player's own unfinished ones. Returns 0 with the id in id (size bytes),
 * 2 for text that is no id at all, or 1 after saying why on stderr,
 * prefixed with who ("tchess watch"). */
static int client_resolve_game(struct client_conn *c, const char *typed, char *id, size_t size, const char *who)
{
	char path[128], query[96] = "", err[512], *resp = NULL;
	size_t len = 0, n = 0, n_ids = 0;
	struct protocol_game_summary *games = NULL;
	struct protocol_error perr;
	struct protocol_my_games mine = { 0 };
	const char **ids = NULL;
	int rc = 1;
	if (!protocol_game_id_valid(typed)) {
		fprintf(stderr, "%s: '%s' is not a game id (letters a-z and digits, as tchess games lists them)\n",
			who, typed);
		return 2;
	}
	const char *method = route_request(path, sizeof path, ROUTE_GAME, typed, NULL);
	int status = net_request(c->net, method, path, NULL, &resp, &len, err, sizeof err);
	if (status < 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		goto out;
	}
	if (status == 200) {
		snprintf(id, size, "%s", typed);
		rc = 0;
		goto out;
	}
	if (status != 404) {
		client_print_refusal(who, status, resp, len);
		goto out;
	}
	free(resp);
	resp = NULL;
	/* Eight hex digits or more (what the screens show): the server looks
	 * the prefix up in all its games (an older server ignores the query
	 * and sends its recent list, which game_id_match filters the same
	 * way). Shorter: its recent list. */
	size_t hex = strspn(typed, "0123456789abcdef");
	if (!typed[hex] && hex >= 8)
		snprintf(query, sizeof query, "prefix=%s", typed);
	const char *list = route_request(path, sizeof path, ROUTE_GAMES_LIST, NULL, query[0] ? query : NULL);
	if (client_call(c, list, path, NULL, 200, who, NULL, &resp, &len) < 0)
		goto out;
	if (protocol_game_list_decode(resp, len, &games, &n, &perr) < 0) {
		fprintf(stderr, "%s: the server's game list: %s\n", who, perr.message);
		goto out;
	}
	free(resp);
	resp = NULL;
	/* Games too old for the public list can still be the player's own. */
	if (c->have_account && net_request(c->net, route_method(ROUTE_ME_GAMES), route_fixed(ROUTE_ME_GAMES), NULL, &resp, &len, err, sizeof err) == 200 &&
	    protocol_my_games_decode(resp, len, &mine, err, sizeof err) < 0)
		mine.n = 0;
	ids = xcalloc(n + mine.n + 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[n_ids++] = games[i].id;
	for (size_t i = 0; i < mine.n; i++)
		ids[n_ids++] = mine.games[i].id;
	if (game_id_match(typed, ids, n_ids, id, size, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		goto out;
	}
	rc = 0;
out:
	free(ids);
	protocol_my_games_fini(&mine);
	free(games);
	free(resp);
	return rc;
}

/* Finds which side player sits on in game id from its snapshot; -1 if
 * none. *turn gets the side to move, *running whether it runs. */
static int client_game_seat(struct net *n, const char *id, int64_t player, int *turn, bool *running)
{
	char path[128], err[256], *resp = NULL;
	size_t len;
	const char *method = route_request(path, sizeof path, ROUTE_GAME, id, NULL);
	int status = net_request(n, method, path, NULL, &resp, &len, err, sizeof err);
	int side = -1;
	struct protocol_error perr;
	struct game_view v;
	*turn = -1;
	*running = false;
	fold_view_init(&v);
	if (status == 200 && fold_view_from_snapshot(&v, resp, len, id, &perr) == 0) {
		side = fold_seat_of(&v, player);
		*turn = v.game.pos.side;
		*running = fold_running(&v);
	}
	fold_view_fini(&v);
	free(resp);
	return side;
}

int cmd_join(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	const char *target = NULL;
	if (client_args(&o, argc, argv, &target, "usage: tchess join GAME[:INVITE] [--server URL]") < 0)
		return 2;
	char typed[PROTOCOL_GAME_ID_MAX + 1], id[PROTOCOL_GAME_ID_MAX + 1];
	struct protocol_join_request jr;
	memset(&jr, 0, sizeof jr);
	const char *colon = strchr(target, ':');
	snprintf(typed, sizeof typed, "%.*s", colon ? (int)(colon - target) : (int)strlen(target), target);
	if (colon)
		snprintf(jr.invite, sizeof jr.invite, "%s", colon + 1);
	if (!protocol_game_id_valid(typed)) {
		fprintf(stderr, "tchess join: '%s' is not a game id\n", typed);
		return 2;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, true) < 0)
		return 1;
	char path[128], err[512], *resp = NULL;
	size_t len = 0;
	int rc, me;
	bool running;
	int turn;
	rc = client_resolve_game(&c, typed, id, sizeof id, "tchess join");
	if (rc)
		goto out;
	rc = 1;
	/* Already seated (coming back to a game): just show it. */
	me = client_game_seat(c.net, id, c.acct.player, &turn, &running);
	if (me < 0) {
		char *body = protocol_join_request_encode(&jr);
		const char *method = route_request(path, sizeof path, ROUTE_GAME_JOIN, id, NULL);
		int status = net_request(c.net, method, path, body, &resp, &len, err, sizeof err);
		free(body);
		struct protocol_seat_response seat;
		struct protocol_error perr;
		if (status < 0) {
			fprintf(stderr, "tchess join: %s\n", err);
			goto out;
		}
		if (status != 200 || protocol_seat_response_decode(resp, len, &seat, &perr) < 0) {
			if (protocol_error_decode(resp, len, &perr, NULL) < 0)
				snprintf(perr.message, sizeof perr.message, "HTTP %d", status);
			fprintf(stderr, "tchess join: %s\n", perr.message);
			goto out;
		}
		fold_color_parse(seat.color, &me);
	}
	/* A hotseat game left with q: both seats again, as it was played. */
	int host = -1;
	client_hotseat_of(&c, id, &host);
	rc = client_screen(&c, id, me, NULL, o.theme, o.ascii, host, true);
out:
	free(resp);
	client_disconnect(&c);
	return rc;
}

int cmd_watch(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	const char *typed = NULL;
	char id[PROTOCOL_GAME_ID_MAX + 1];
	/* A Lichess game: --lichess, or its URL. */
	bool lichess = client_take_lichess(&argc, argv);
	for (int i = 0; i < argc; i++) {
		/* The game given as a URL, not --server's (a tchessd's). */
		if (!strcmp(argv[i], "--server") || !strcmp(argv[i], "--theme")) {
			i++;
			continue;
		}
		lichess |= !strncmp(argv[i], "https://", 8) || !strncmp(argv[i], "http://", 7);
	}
	if (lichess)
		return cmd_lichess_watch(argc, argv);
	if (client_args(&o, argc, argv, &typed, "usage: tchess watch GAME [--server URL]  |  tchess watch --lichess GAME|URL") < 0)
		return 2;
	if (!protocol_game_id_valid(typed)) {
		fprintf(stderr, "tchess watch: '%s' is not a game id\n", typed);
		return 2;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, false) < 0)
		return 1;
	int rc = client_resolve_game(&c, typed, id, sizeof id, "tchess watch");
	if (rc == 0)
		rc = client_screen(&c, id, -1, NULL, o.theme, o.ascii, -1, false);
	client_disconnect(&c);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	const char *typed = NULL;
	char id[PROTOCOL_GAME_ID_MAX + 1];
	if (client_args(&o, argc, argv, &typed, "usage: tchess export GAME [--server URL]") < 0)
		return 2;
	if (!protocol_game_id_valid(typed)) {
		fprintf(stderr, "tchess export: '%s' is not a game id\n", typed);
		return 2;
	}
	struct client_conn c;
	if (client_connect(&c, o.server, false) < 0)
		return 1;
	char path[128], err[512], *resp = NULL;
	size_t len = 0;
	int rc = client_resolve_game(&c, typed, id, sizeof id, "tchess export");
	if (rc)
		goto out;
	rc = 1;
	const char *method = route_request(path, sizeof path, ROUTE_GAME_PGN, id, NULL);
	int status = net_request(c.net, method, path, NULL, &resp, &len, err, sizeof err);
	if (status < 0) {
		fprintf(stderr, "tchess export: %s\n", err);
	} else if (status != 200) {
		struct protocol_error perr;
		if (protocol_error_decode(resp, len, &perr, NULL) < 0)
			snprintf(perr.message, sizeof perr.message, "HTTP %d", status);
		fprintf(stderr, "tchess export: %s\n", perr.message);
	} else {
		fwrite(resp, 1, len, stdout);
		rc = 0;
	}
out:
	free(resp);
	client_disconnect(&c);
	return rc;
}
