/*
 * The tournament and correspondence commands: "tchess tournaments" and
 * "tchess tournament ID" (the screens of ui/tourney.c), "tchess tournament
 * create|register|withdraw" (one request each, for scripts), and "tchess
 * vacation" (list, book, cancel). The server judges every rule; these
 * commands check only the form of their arguments and print the server's
 * refusals as it words them.
 */
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "cmd-net.h"
#include "commands.h"
#include "corr.h"
#include "loop.h"
#include "net.h"
#include "screens.h"
#include "tchess/protocol-tournament.h"
#include "theme.h"
#include "tourney.h"
#include "ui/ui.h"

/* The screens: the list (id NULL) or one tournament. */
static int cmd_tourney_screen(struct client_conn *c, const struct client_opts *o, const char *id)
{
	struct ui ui;
	int rc = client_ui_start(c, &ui, o->theme);
	if (rc)
		return rc;
	struct tourney_view v;
	tourney_view_init(&v, id, c->have_account ? c->acct.player : 0);
	v.ascii = config_want_ascii(o->ascii, &c->cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	struct loop *l = loop_new(&ui, c->net);
	bool game_ascii = config_want_ascii(-1, &c->cfg, nl_langinfo(CODESET), getenv("TERM"), ui.glyph_cols);
	loop_push(l, &screen_tourney_ops, screen_tourney_new(&ui, &v, game_ascii));
	rc = loop_run(l);
	loop_free(l);
	ui_stop(&ui);
	tourney_view_fini(&v);
	return rc < 0 ? 1 : 0;
}

int cmd_tournaments(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	if (client_args(&o, argc, argv, NULL, "usage: tchess tournaments [--server URL]") < 0)
		return 2;
	struct client_conn c;
	if (client_connect(&c, o.server, false) < 0)
		return 1;
	int rc = cmd_tourney_screen(&c, &o, NULL);
	client_disconnect(&c);
	return rc;
}

static int cmd_tourney_usage(void)
{
	fprintf(stderr, "usage: tchess tournament ID [--server URL]\n"
			"       tchess tournament create --players N [--double] --tc TC [--ruleset NAME] [--stake N]\n"
			"       tchess tournament register|withdraw ID\n");
	return 2;
}

/* A positive number option's value, or -1 after a message. */
static int64_t cmd_tourney_number(const char *opt, const char *s, int64_t min, int64_t max)
{
	char *end;
	long long n = strtoll(s, &end, 10);
	if (!*s || *end || n < min || n > max) {
		fprintf(stderr, "tchess tournament: %s takes a number from %lld to %lld, not '%s'\n", opt,
			(long long)min, (long long)max, s);
		return -1;
	}
	return n;
}

static int cmd_tourney_create(struct client_conn *c, const struct protocol_tournament_create_request *req)
{
	char err[512], *resp;
	size_t len;
	char *body = protocol_tournament_create_request_encode(req);
	int called =
	    client_call(c, route_method(ROUTE_TOURNAMENTS_CREATE), route_fixed(ROUTE_TOURNAMENTS_CREATE), body, 201, "tchess tournament create", NULL, &resp, &len);
	free(body);
	int rc = 1;
	struct protocol_tournament_view t;
	if (called < 0) {
		/* client_call said why. */
	} else if (protocol_tournament_view_decode(resp, len, &t, err, sizeof err) < 0) {
		fprintf(stderr, "tchess tournament create: %s\n", err);
	} else {
		char sum[256], stakes[256];
		tourney_summary_text(&t.sum, sum, sizeof sum);
		tourney_stakes_text(&t.sum, stakes, sizeof stakes);
		/* The id alone on the first line, for scripts. */
		printf("%s\n%s\n%s\n", t.sum.id, sum, stakes);
		protocol_tournament_view_fini(&t);
		rc = 0;
	}
	free(resp);
	return rc;
}

static int cmd_tourney_action(struct client_conn *c, const char *what, const char *id)
{
	char path[128], err[512], *resp;
	size_t len;
	char prefix[64];
	const char *method = route_request(path, sizeof path,
					   strcmp(what, "register") ? ROUTE_TOURNAMENT_WITHDRAW : ROUTE_TOURNAMENT_REGISTER, id,
					   NULL);
	snprintf(prefix, sizeof prefix, "tchess tournament %s", what);
	int rc = 1;
	struct protocol_tournament_view t;
	if (client_call(c, method, path, "{}", 200, prefix, NULL, &resp, &len) < 0) {
		/* client_call said why. */
	} else if (protocol_tournament_view_decode(resp, len, &t, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", prefix, err);
	} else {
		printf("%s %s: %" PRId64 " of %" PRId64 " registered, %s", !strcmp(what, "register") ? "registered for"
													  : "withdrawn from",
		       t.sum.id, t.sum.registered, t.sum.players, t.sum.status);
		if (t.sum.has_you && t.sum.you.credits >= 0)
			printf("; your credits: %" PRId64, t.sum.you.credits);
		printf("\n");
		protocol_tournament_view_fini(&t);
		rc = 0;
	}
	free(resp);
	return rc;
}

int cmd_tournament(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	struct protocol_tournament_create_request req;
	memset(&req, 0, sizeof req);
	snprintf(req.kind, sizeof req.kind, "round-robin");
	req.payout_percent = -1;
	const char *verb = NULL, *id = NULL;
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(&o, argc, argv, &i);
		if (r < 0)
			return 2;
		if (r)
			continue;
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cmd_tourney_usage();
			return 0;
		}
		if (!strcmp(a, "--double")) {
			snprintf(req.kind, sizeof req.kind, "double-round-robin");
			continue;
		}
		if (!strcmp(a, "--players") || !strcmp(a, "--tc") || !strcmp(a, "--ruleset") || !strcmp(a, "--stake")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tchess tournament: %s needs a value\n", a);
				return 2;
			}
			const char *val = argv[++i];
			if (!strcmp(a, "--players") && (req.players = cmd_tourney_number(a, val, 3, 32)) < 0)
				return 2;
			if (!strcmp(a, "--stake") && (req.stake = cmd_tourney_number(a, val, 0, 1000000000)) < 0)
				return 2;
			if (!strcmp(a, "--tc"))
				snprintf(req.tc, sizeof req.tc, "%s", val);
			if (!strcmp(a, "--ruleset"))
				snprintf(req.ruleset, sizeof req.ruleset, "%s", val);
			continue;
		}
		if (a[0] == '-')
			return cmd_tourney_usage();
		if (!verb && (!strcmp(a, "create") || !strcmp(a, "register") || !strcmp(a, "withdraw")))
			verb = a;
		else if (!id)
			id = a;
		else
			return cmd_tourney_usage();
	}
	bool create = verb && !strcmp(verb, "create");
	if (create ? id || !req.players || !req.tc[0] : !id || !protocol_game_id_valid(id)) {
		if (create)
			fprintf(stderr, "tchess tournament create: --players and --tc are required\n");
		return cmd_tourney_usage();
	}
	if (!create && !verb && (req.players || req.tc[0] || req.stake || req.ruleset[0]))
		return cmd_tourney_usage();
	struct client_conn c;
	if (client_connect(&c, o.server, verb != NULL) < 0)
		return 1;
	int rc;
	if (create)
		rc = cmd_tourney_create(&c, &req);
	else if (verb)
		rc = cmd_tourney_action(&c, verb, id);
	else
		rc = cmd_tourney_screen(&c, &o, id);
	client_disconnect(&c);
	return rc;
}

/* ---- vacations ---- */

static int cmd_vacation_usage(void)
{
	fprintf(stderr, "usage: tchess vacation [list]\n"
			"       tchess vacation book YYYY-MM-DD DAYS\n"
			"       tchess vacation cancel ID\n");
	return 2;
}

static int cmd_vacation_list(struct client_conn *c)
{
	char err[512], *resp, line[160];
	size_t len;
	struct protocol_vacation_list vs;
	int rc = 1;
	if (client_call(c, route_method(ROUTE_ME_VACATIONS_LIST), route_fixed(ROUTE_ME_VACATIONS_LIST), NULL, 200, "tchess vacation", NULL, &resp, &len) < 0) {
		/* client_call said why. */
	} else if (protocol_vacation_list_decode(resp, len, &vs, err, sizeof err) < 0) {
		fprintf(stderr, "tchess vacation: %s\n", err);
	} else {
		if (!vs.n)
			printf("no vacations booked\n");
		for (size_t i = 0; i < vs.n; i++) {
			corr_vacation_line(&vs.v[i], line, sizeof line);
			printf("%s\n", line);
		}
		for (size_t i = 0; i < vs.n_allowance; i++)
			printf("%" PRId64 ": %" PRId64 " days allowed, %" PRId64 " booked, %" PRId64 " left\n",
			       vs.allowance[i].year, vs.allowance[i].days, vs.allowance[i].booked, vs.allowance[i].left);
		if (vs.on_vacation)
			printf("you are on vacation now: your correspondence clocks are stopped\n");
		rc = 0;
	}
	free(resp);
	return rc;
}

static int cmd_vacation_book(struct client_conn *c, const char *date, const char *days)
{
	char err[512], *resp = NULL, *body, line[160];
	size_t len = 0;
	if (corr_vacation_request(date, days, &body, err, sizeof err) < 0) {
		fprintf(stderr, "tchess vacation book: %s\n", err);
		return 2;
	}
	/* The rules' refusals (too late, overlapping, over the allowance)
	 * come as the server words them. */
	int called = client_call(c, route_method(ROUTE_ME_VACATIONS_BOOK), route_fixed(ROUTE_ME_VACATIONS_BOOK), body, 201, "tchess vacation book",
	                         "tchess vacation book: refused", &resp, &len);
	free(body);
	int rc = 1;
	struct protocol_vacation v;
	if (called < 0) {
		/* client_call said why. */
	} else if (protocol_vacation_booking_decode(resp, len, &v, err, sizeof err) < 0) {
		fprintf(stderr, "tchess vacation book: %s\n", err);
	} else {
		corr_vacation_line(&v, line, sizeof line);
		printf("booked %s\n", line);
		rc = 0;
	}
	free(resp);
	return rc;
}

static int cmd_vacation_cancel(struct client_conn *c, const char *id)
{
	char path[96], *resp = NULL;
	size_t len = 0;
	char *end;
	long long n = strtoll(id, &end, 10);
	if (*id == '#')
		n = strtoll(id + 1, &end, 10);
	if (*end || n <= 0) {
		fprintf(stderr, "tchess vacation cancel: '%s' is not a booking number (see tchess vacation list)\n", id);
		return 2;
	}
	char num[24];
	snprintf(num, sizeof num, "%lld", n);
	const char *method = route_request(path, sizeof path, ROUTE_ME_VACATION_CANCEL, num, NULL);
	int rc = 1;
	if (client_call(c, method, path, NULL, 200, "tchess vacation cancel", "tchess vacation cancel: refused",
	                &resp, &len) == 0) {
		printf("cancelled vacation #%lld\n", n);
		rc = 0;
	}
	free(resp);
	return rc;
}

int cmd_vacation(int argc, char **argv)
{
	struct client_opts o = { .ascii = -1 };
	const char *args[3] = { NULL, NULL, NULL };
	int n = 0;
	for (int i = 0; i < argc; i++) {
		int r = client_common_opt(&o, argc, argv, &i);
		if (r < 0)
			return 2;
		if (r)
			continue;
		if (argv[i][0] == '-' || n == 3)
			return cmd_vacation_usage();
		args[n++] = argv[i];
	}
	const char *verb = n ? args[0] : "list";
	if (!((!strcmp(verb, "list") && n <= 1) || (!strcmp(verb, "book") && n == 3) ||
	      (!strcmp(verb, "cancel") && n == 2)))
		return cmd_vacation_usage();
	struct client_conn c;
	if (client_connect(&c, o.server, true) < 0)
		return 1;
	int rc;
	if (!strcmp(verb, "book"))
		rc = cmd_vacation_book(&c, args[1], args[2]);
	else if (!strcmp(verb, "cancel"))
		rc = cmd_vacation_cancel(&c, args[1]);
	else
		rc = cmd_vacation_list(&c);
	client_disconnect(&c);
	return rc;
}
