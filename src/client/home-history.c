/*
 * The home screen's recent games (issue 14 item 5): the player's finished
 * games from GET /v1/me/games/finished, newest first, as rows under "Your
 * games" (the result said from the player's side, the opponent, the time
 * control, the moves, the date), a few at 80x24 and more on a taller
 * terminal. Enter opens one in the review screen, e exports it: both from
 * its PGN file in the games folder, fetched (GET /v1/games/ID/pgn) and
 * saved there first when it is not there yet, so a game reviewed once
 * (or saved at its end) opens again offline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "home-internal.h"
#include "route.h"

/* As many as the tallest terminal shows. */
#define HOME_RECENT_FETCH 20
/* At 80x24. */
#define HOME_RECENT_SHOWN 5

void home_recent_refresh(struct home *h)
{
	struct home_req r = { .kind = HOME_REQ_RECENT, .color = -1 };
	home_queue(h, &r);
}

/* 5 rows at 24 lines, one more for each two lines beyond. */
static size_t home_recent_shown(const struct home *h)
{
	size_t room = HOME_RECENT_SHOWN + (size_t)(h->h > 24 ? (h->h - 24) / 2 : 0);
	return h->recent.n < room ? h->recent.n : room;
}

int home_recent_rows(const struct home *h)
{
	if (!h->have_account)
		return 0;
	return 2 + (int)home_recent_shown(h);
}

enum home_row_kind home_recent_row(const struct home *h, int row, size_t *index)
{
	if (row == 0)
		return HOME_ROW_BLANK;
	if (row == 1) {
		*index = HOME_HEADING_RECENT;
		return HOME_ROW_HEADING;
	}
	*index = (size_t)(row - 2);
	return *index < home_recent_shown(h) ? HOME_ROW_RECENT : HOME_ROW_BLANK;
}

const char *home_recent_outcome(const struct protocol_finished_game *g)
{
	if (!strcmp(g->result, "1/2-1/2"))
		return "drawn";
	bool white = !strcmp(g->color, "white");
	if (!strcmp(g->result, "1-0"))
		return white ? "won" : "lost";
	if (!strcmp(g->result, "0-1"))
		return white ? "lost" : "won";
	return "ended";
}

void home_recent_date(int64_t ms, int64_t now_ms, char *buf, size_t size)
{
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	time_t t = (time_t)(ms / 1000), now = (time_t)(now_ms / 1000);
	struct tm at, today;
	if (!localtime_r(&t, &at) || !localtime_r(&now, &today)) {
		snprintf(buf, size, "?");
		return;
	}
	if (at.tm_year == today.tm_year && at.tm_yday == today.tm_yday)
		snprintf(buf, size, "today %02d:%02d", at.tm_hour, at.tm_min);
	else if (at.tm_year == today.tm_year)
		snprintf(buf, size, "%d %s", at.tm_mday, months[at.tm_mon]);
	else
		snprintf(buf, size, "%d %s %d", at.tm_mday, months[at.tm_mon], at.tm_year + 1900);
}

void home_recent_heading(const struct home *h, char *buf, size_t size)
{
	snprintf(buf, size, "%s", !h->have_recent ? "Recent games (loading...)"
				  : h->recent.n   ? "Recent games: Enter reviews, e exports the PGN"
						  : "Recent games: none yet");
}

void home_recent_row_text(const struct home *h, size_t i, char *buf, size_t size)
{
	const struct protocol_finished_game *g = &h->recent.games[i];
	char who[PROTOCOL_NAME_MAX + 24], date[32];
	if (g->opponent.player)
		snprintf(who, sizeof who, "vs %s", g->opponent.name);
	else if (g->engine_level)
		snprintf(who, sizeof who, "vs engine level %lld", (long long)g->engine_level);
	else
		snprintf(who, sizeof who, "vs engine");
	home_recent_date(g->ended_ms, (int64_t)time(NULL) * 1000, date, sizeof date);
	long long moves = (long long)(g->plies + 1) / 2;
	snprintf(buf, size, "  %-5s %-24.24s %-9.9s %3lld move%s  %-12s %s", home_recent_outcome(g), who,
		 g->tc[0] ? g->tc : "-", moves, moves == 1 ? " " : "s", date, g->termination);
}

/* path with the home folder written "~/" (messages fit in 80 columns). */
static const char *home_recent_short_path(const char *path)
{
	static char buf[HOME_MESSAGE_MAX];
	const char *home = getenv("HOME");
	size_t n = home ? strlen(home) : 0;
	if (n > 1 && !strncmp(path, home, n) && path[n] == '/') {
		snprintf(buf, sizeof buf, "~%.200s", path + n);
		return buf;
	}
	return path;
}

/* Opens (review) or saves (export) game i: from its file when it is in
 * the games folder already, else fetched first. */
unsigned home_recent_open(struct home *h, size_t i, bool review)
{
	const struct protocol_finished_game *g = &h->recent.games[i];
	char path[sizeof ((struct home_req *)0)->note];
	if (account_game_pgn_path(NULL, g->id, path, sizeof path) == 0 && access(path, R_OK) == 0) {
		if (review) {
			struct home_req r = { .kind = HOME_REQ_REVIEW, .color = -1 };
			snprintf(r.note, sizeof r.note, "%s", path);
			home_say(h, false, "");
			home_queue(h, &r);
		} else {
			char text[HOME_MESSAGE_MAX];
			snprintf(text, sizeof text, "the PGN is in %.200s", home_recent_short_path(path));
			home_say(h, false, text);
		}
		return HOME_DIRTY_ALL;
	}
	struct home_req r = { .kind = review ? HOME_REQ_RECENT_REVIEW : HOME_REQ_RECENT_EXPORT, .color = -1 };
	snprintf(r.id, sizeof r.id, "%s", g->id);
	home_queue(h, &r);
	home_say(h, false, "fetching the PGN...");
	return HOME_DIRTY_MESSAGE;
}

void home_recent_req_http(const struct home_req *r, const char **method, char *path, size_t size)
{
	if (r->kind == HOME_REQ_RECENT) {
		char q[32];
		snprintf(q, sizeof q, "limit=%d", HOME_RECENT_FETCH);
		*method = route_request(path, size, ROUTE_ME_GAMES_FINISHED, NULL, q);
	} else {
		*method = route_request(path, size, ROUTE_GAME_PGN, r->id, NULL);
	}
}

unsigned home_recent_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len)
{
	char err[600];
	if (r->kind == HOME_REQ_RECENT) {
		struct protocol_finished_games g;
		if (status != 200)
			return home_refused(h, "recent games", status, body, len);
		if (protocol_finished_games_decode(body, len, &g, err, sizeof err) < 0) {
			home_say(h, true, err);
			return HOME_DIRTY_MESSAGE;
		}
		protocol_finished_games_fini(&h->recent);
		h->recent = g;
		h->have_recent = true;
		if (h->sel >= home_rows(h))
			h->sel = 0;
		return HOME_DIRTY_BODY;
	}
	if (status != 200)
		return home_refused(h, "the PGN", status, body, len);
	char path[sizeof r->note];
	if (account_save_game_pgn(NULL, r->id, body, len, path, sizeof path, err, sizeof err) < 0) {
		home_say(h, true, err);
		return HOME_DIRTY_MESSAGE;
	}
	if (r->kind == HOME_REQ_RECENT_REVIEW) {
		struct home_req open = { .kind = HOME_REQ_REVIEW, .color = -1 };
		snprintf(open.note, sizeof open.note, "%s", path);
		home_say(h, false, "");
		home_queue(h, &open);
		return HOME_DIRTY_MESSAGE;
	}
	char text[HOME_MESSAGE_MAX];
	snprintf(text, sizeof text, "saved the game to %.200s", home_recent_short_path(path));
	home_say(h, false, text);
	return HOME_DIRTY_MESSAGE;
}
