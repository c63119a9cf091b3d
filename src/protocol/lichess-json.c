/*
 * The Lichess Board API's stream lines and error bodies, decoded with
 * cJSON (see tchess/lichess.h). Lichess is not our server: members we do
 * not read are passed over, and a member we read must have its type or
 * the line is refused with the member's name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "tchess/lichess.h"
#include "tchess/position.h"
#include "util/xalloc.h"

#define LICHESS_LINE_MAX (1 << 20)

struct lj {
	char *err;
	size_t errsize;
	int failed;
};

/* The first failure of a line: "\"name\" what". */
static void lj_fail(struct lj *j, const char *what, const char *name)
{
	if (!j->failed)
		snprintf(j->err, j->errsize, "\"%s\" %s", name, what);
	j->failed = 1;
}

/* Copies string member name of o into out; absent (or null) leaves out as
 * it is; another type fails. */
static void lj_str(struct lj *j, const cJSON *o, const char *name, char *out, size_t size)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!v || cJSON_IsNull(v))
		return;
	if (!cJSON_IsString(v)) {
		lj_fail(j, "is not a string", name);
		return;
	}
	snprintf(out, size, "%s", v->valuestring);
}

static void lj_int(struct lj *j, const cJSON *o, const char *name, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!v || cJSON_IsNull(v))
		return;
	if (!cJSON_IsNumber(v) || v->valuedouble < -9007199254740992.0 || v->valuedouble > 9007199254740992.0 ||
	    v->valuedouble != (double)(int64_t)v->valuedouble) {
		lj_fail(j, "is not an integer", name);
		return;
	}
	*out = (int64_t)v->valuedouble;
}

static void lj_bool(struct lj *j, const cJSON *o, const char *name, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!v || cJSON_IsNull(v))
		return;
	if (!cJSON_IsBool(v)) {
		lj_fail(j, "is not a boolean", name);
		return;
	}
	*out = cJSON_IsTrue(v);
}

static const cJSON *lj_obj(struct lj *j, const cJSON *o, const char *name, bool required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if ((!v || cJSON_IsNull(v)) && !required)
		return NULL;
	if (!cJSON_IsObject(v)) {
		lj_fail(j, required && !v ? "is missing" : "is not an object", name);
		return NULL;
	}
	return v;
}

static void lj_require(struct lj *j, const cJSON *o, const char *name)
{
	if (!cJSON_GetObjectItemCaseSensitive(o, name))
		lj_fail(j, "is missing", name);
}

static int lj_color(struct lj *j, const cJSON *o, const char *name)
{
	char c[LICHESS_WORD_MAX] = "";
	lj_str(j, o, name, c, sizeof c);
	if (!c[0])
		return -1;
	if (!strcmp(c, "white"))
		return WHITE;
	if (!strcmp(c, "black"))
		return BLACK;
	lj_fail(j, "is not white or black", name);
	return -1;
}

/* What a seat's object holds beside the user: the rating, or the AI's
 * level; a user without a name is named by the id. */
static void lj_seat_rest(struct lj *j, const cJSON *v, struct lichess_player *p)
{
	int64_t n = 0;
	lj_int(j, v, "rating", &n);
	p->rating = n > 0 && n < 10000 ? (int)n : 0;
	n = 0;
	lj_int(j, v, "aiLevel", &n);
	if (n < 0 || n > 8)
		lj_fail(j, "is out of range", "aiLevel");
	p->ai_level = (int)n;
	if (!p->ai_level && !p->name[0])
		snprintf(p->name, sizeof p->name, "%s", p->id[0] ? p->id : "?");
}

static void lj_player(struct lj *j, const cJSON *o, const char *name, struct lichess_player *p)
{
	const cJSON *v = lj_obj(j, o, name, true);
	if (!v)
		return;
	lj_str(j, v, "id", p->id, sizeof p->id);
	lj_str(j, v, "name", p->name, sizeof p->name);
	lj_str(j, v, "title", p->title, sizeof p->title);
	lj_seat_rest(j, v, p);
}

static void lj_state(struct lj *j, const cJSON *o, struct lichess_state *s)
{
	const cJSON *mv = cJSON_GetObjectItemCaseSensitive(o, "moves");
	if (!cJSON_IsString(mv)) {
		lj_fail(j, mv ? "is not a string" : "is missing", "moves");
		return;
	}
	s->moves = xstrdup(mv->valuestring);
	static const char *const req[] = { "wtime", "btime", "status" };
	for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
		lj_require(j, o, req[i]);
	lj_int(j, o, "wtime", &s->wtime);
	lj_int(j, o, "btime", &s->btime);
	lj_int(j, o, "winc", &s->winc);
	lj_int(j, o, "binc", &s->binc);
	if (s->wtime < 0 || s->btime < 0 || s->winc < 0 || s->binc < 0)
		lj_fail(j, "is negative", "wtime/btime");
	lj_str(j, o, "status", s->status, sizeof s->status);
	s->winner = lj_color(j, o, "winner");
	lj_bool(j, o, "wdraw", &s->wdraw);
	lj_bool(j, o, "bdraw", &s->bdraw);
	lj_bool(j, o, "wtakeback", &s->wtakeback);
	lj_bool(j, o, "btakeback", &s->btakeback);
	const cJSON *ex = lj_obj(j, o, "expiration", false);
	if (ex) {
		s->has_expiration = true;
		lj_int(j, ex, "idleMillis", &s->idle_ms);
		lj_int(j, ex, "millisToMove", &s->ms_to_move);
	}
}

void lichess_msg_init(struct lichess_msg *m)
{
	memset(m, 0, sizeof *m);
	m->state.winner = -1;
	m->claim_win_s = -1;
	m->color = -1;
	snprintf(m->initial_fen, sizeof m->initial_fen, "startpos");
}

void lichess_msg_fini(struct lichess_msg *m)
{
	free(m->state.moves);
	m->state.moves = NULL;
}

static const struct {
	const char *type;
	enum lichess_msg_kind kind;
} lichess_kinds[] = {
	{ "gameFull", LICHESS_MSG_GAME_FULL },
	{ "gameState", LICHESS_MSG_GAME_STATE },
	{ "chatLine", LICHESS_MSG_CHAT },
	{ "opponentGone", LICHESS_MSG_OPPONENT_GONE },
	{ "gameStart", LICHESS_MSG_GAME_START },
	{ "gameFinish", LICHESS_MSG_GAME_FINISH },
	{ "challenge", LICHESS_MSG_CHALLENGE },
	{ "challengeCanceled", LICHESS_MSG_CHALLENGE_CANCELED },
	{ "challengeDeclined", LICHESS_MSG_CHALLENGE_DECLINED },
};

static void lj_decode(struct lj *j, const cJSON *o, struct lichess_msg *m)
{
	lj_str(j, o, "type", m->type, sizeof m->type);
	if (!m->type[0]) {
		lj_fail(j, "is missing", "type");
		return;
	}
	for (size_t i = 0; i < sizeof lichess_kinds / sizeof lichess_kinds[0]; i++)
		if (!strcmp(m->type, lichess_kinds[i].type))
			m->kind = lichess_kinds[i].kind;
	switch (m->kind) {
	case LICHESS_MSG_GAME_FULL: {
		lj_str(j, o, "id", m->id, sizeof m->id);
		if (!m->id[0])
			lj_fail(j, "is missing", "id");
		const cJSON *var = lj_obj(j, o, "variant", false);
		if (var)
			lj_str(j, var, "key", m->variant, sizeof m->variant);
		lj_str(j, o, "speed", m->speed, sizeof m->speed);
		lj_bool(j, o, "rated", &m->rated);
		lj_player(j, o, "white", &m->white);
		lj_player(j, o, "black", &m->black);
		lj_str(j, o, "initialFen", m->initial_fen, sizeof m->initial_fen);
		const cJSON *clk = lj_obj(j, o, "clock", false);
		if (clk) {
			m->has_clock = true;
			lj_require(j, clk, "initial");
			lj_int(j, clk, "initial", &m->clock_initial_ms);
			lj_int(j, clk, "increment", &m->clock_increment_ms);
			if (m->clock_initial_ms < 0 || m->clock_increment_ms < 0)
				lj_fail(j, "is negative", "clock");
		}
		int64_t days = 0;
		lj_int(j, o, "daysPerTurn", &days);
		if (days < 0 || days > 365)
			lj_fail(j, "is out of range", "daysPerTurn");
		m->days_per_turn = (int)days;
		const cJSON *st = lj_obj(j, o, "state", true);
		if (st)
			lj_state(j, st, &m->state);
		break;
	}
	case LICHESS_MSG_GAME_STATE:
		lj_state(j, o, &m->state);
		break;
	case LICHESS_MSG_CHAT:
		lj_str(j, o, "username", m->username, sizeof m->username);
		lj_str(j, o, "text", m->text, sizeof m->text);
		lj_str(j, o, "room", m->room, sizeof m->room);
		lj_require(j, o, "text");
		break;
	case LICHESS_MSG_OPPONENT_GONE:
		lj_require(j, o, "gone");
		lj_bool(j, o, "gone", &m->gone);
		lj_int(j, o, "claimWinInSeconds", &m->claim_win_s);
		break;
	case LICHESS_MSG_GAME_START:
	case LICHESS_MSG_GAME_FINISH: {
		const cJSON *g = lj_obj(j, o, "game", true);
		if (!g)
			break;
		lj_str(j, g, "gameId", m->id, sizeof m->id);
		if (!m->id[0])
			lj_fail(j, "is missing", "gameId");
		m->color = lj_color(j, g, "color");
		const cJSON *op = lj_obj(j, g, "opponent", false);
		if (op)
			lj_str(j, op, "username", m->challenger, sizeof m->challenger);
		break;
	}
	case LICHESS_MSG_CHALLENGE:
	case LICHESS_MSG_CHALLENGE_CANCELED:
	case LICHESS_MSG_CHALLENGE_DECLINED: {
		const cJSON *c = lj_obj(j, o, "challenge", true);
		if (!c)
			break;
		lj_str(j, c, "id", m->id, sizeof m->id);
		if (!m->id[0])
			lj_fail(j, "is missing", "id");
		lj_str(j, c, "speed", m->speed, sizeof m->speed);
		lj_bool(j, c, "rated", &m->rated);
		const cJSON *who = lj_obj(j, c, "challenger", false);
		if (who) {
			lj_str(j, who, "name", m->challenger, sizeof m->challenger);
			lj_str(j, who, "id", m->challenger_id, sizeof m->challenger_id);
		}
		const cJSON *dest = lj_obj(j, c, "destUser", false);
		if (dest)
			lj_str(j, dest, "id", m->dest_id, sizeof m->dest_id);
		const cJSON *tc = lj_obj(j, c, "timeControl", false);
		if (tc) {
			lj_str(j, tc, "show", m->tc_text, sizeof m->tc_text);
			char type[LICHESS_WORD_MAX] = "";
			lj_str(j, tc, "type", type, sizeof type);
			if (!m->tc_text[0] && !strcmp(type, "unlimited"))
				snprintf(m->tc_text, sizeof m->tc_text, "unlimited");
		}
		break;
	}
	case LICHESS_MSG_OTHER:
		break;
	}
}

int lichess_msg_decode(const char *line, size_t len, struct lichess_msg *m, char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	lichess_msg_init(m);
	if (len > LICHESS_LINE_MAX) {
		snprintf(err, errsize, "a line of %zu bytes is too long", len);
		return -1;
	}
	cJSON *o = cJSON_ParseWithLength(line, len);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errsize, "not a JSON object");
		cJSON_Delete(o);
		return -1;
	}
	lj_decode(&j, o, m);
	cJSON_Delete(o);
	if (j.failed) {
		lichess_msg_fini(m);
		return -1;
	}
	return 0;
}

/* An answer's body as a JSON object, or NULL with "not a JSON object". */
static cJSON *lj_parse_object(const char *body, size_t len, char *err, size_t errsize)
{
	cJSON *o = body && len <= LICHESS_LINE_MAX ? cJSON_ParseWithLength(body, len) : NULL;
	if (cJSON_IsObject(o))
		return o;
	snprintf(err, errsize, "not a JSON object");
	cJSON_Delete(o);
	return NULL;
}

int lichess_account_decode(const char *body, size_t len, struct lichess_player *p, char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	memset(p, 0, sizeof *p);
	cJSON *o = lj_parse_object(body, len, err, errsize);
	if (!o)
		return -1;
	lj_require(&j, o, "id");
	lj_require(&j, o, "username");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "username");
	size_t n = cJSON_IsString(u) ? strlen(u->valuestring) : 0;
	if (n > LICHESS_USERNAME_MAX || strspn(cJSON_IsString(u) ? u->valuestring : "",
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != n)
		lj_fail(&j, "is not a Lichess user name", "username");
	lj_str(&j, o, "id", p->id, sizeof p->id);
	lj_str(&j, o, "username", p->name, sizeof p->name);
	lj_str(&j, o, "title", p->title, sizeof p->title);
	cJSON_Delete(o);
	if (!j.failed && (!p->id[0] || !p->name[0]))
		lj_fail(&j, "is empty", p->id[0] ? "username" : "id");
	if (j.failed) {
		memset(p, 0, sizeof *p);
		return -1;
	}
	return 0;
}

static bool lj_game_id_ok(const char *id)
{
	size_t n = strlen(id);
	return n == 8 && strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == n;
}

int lichess_playing_decode(const char *body, size_t len, struct lichess_playing *out, size_t max, size_t *n,
			   char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	*n = 0;
	cJSON *o = body && len <= LICHESS_LINE_MAX ? cJSON_ParseWithLength(body, len) : NULL;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "nowPlaying");
	if (!cJSON_IsArray(list)) {
		snprintf(err, errsize, "%s", cJSON_IsObject(o) ? "\"nowPlaying\" is not a list" : "not a JSON object");
		cJSON_Delete(o);
		return -1;
	}
	size_t k = 0;
	const cJSON *g;
	cJSON_ArrayForEach(g, list)
	{
		if (k == max)
			break;
		struct lichess_playing *p = &out[k];
		memset(p, 0, sizeof *p);
		if (!cJSON_IsObject(g)) {
			lj_fail(&j, "holds a game that is not an object", "nowPlaying");
			break;
		}
		lj_str(&j, g, "gameId", p->id, sizeof p->id);
		if (!j.failed && !lj_game_id_ok(p->id))
			lj_fail(&j, "is not a game id", "gameId");
		p->color = lj_color(&j, g, "color");
		lj_bool(&j, g, "isMyTurn", &p->my_turn);
		lj_str(&j, g, "speed", p->speed, sizeof p->speed);
		const cJSON *op = lj_obj(&j, g, "opponent", false);
		int64_t ai = 0;
		if (op) {
			lj_str(&j, op, "username", p->opponent, sizeof p->opponent);
			lj_int(&j, op, "ai", &ai);
		}
		if (!p->opponent[0] && ai > 0)
			snprintf(p->opponent, sizeof p->opponent, "AI level %d", (int)(ai > 8 ? 8 : ai));
		if (!p->opponent[0])
			snprintf(p->opponent, sizeof p->opponent, "?");
		if (j.failed)
			break;
		k++;
	}
	cJSON_Delete(o);
	if (j.failed)
		return -1;
	*n = k;
	return 0;
}

int lichess_game_id_decode(const char *body, size_t len, char *id, size_t size, char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	char got[LICHESS_ID_MAX] = "";
	cJSON *o = lj_parse_object(body, len, err, errsize);
	if (!o)
		return -1;
	lj_require(&j, o, "id");
	lj_str(&j, o, "id", got, sizeof got);
	cJSON_Delete(o);
	if (!j.failed && !lj_game_id_ok(got))
		lj_fail(&j, "is not a game id", "id");
	if (j.failed)
		return -1;
	snprintf(id, size, "%s", got);
	return 0;
}

/* A seat of the public stream's description: {"user": {...}, "rating": N}
 * or {"aiLevel": N}. */
static void lj_watch_player(struct lj *j, const cJSON *players, const char *name, struct lichess_player *p)
{
	const cJSON *v = players ? lj_obj(j, players, name, false) : NULL;
	if (!v) {
		snprintf(p->name, sizeof p->name, "?");
		return;
	}
	const cJSON *u = lj_obj(j, v, "user", false);
	if (u) {
		lj_str(j, u, "id", p->id, sizeof p->id);
		lj_str(j, u, "name", p->name, sizeof p->name);
		lj_str(j, u, "title", p->title, sizeof p->title);
	}
	lj_seat_rest(j, v, p);
}

int lichess_watch_decode(const char *line, size_t len, struct lichess_watch_line *w, char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	memset(w, 0, sizeof *w);
	w->wc = w->bc = -1;
	w->winner = -1;
	if (len > LICHESS_LINE_MAX) {
		snprintf(err, errsize, "a line of %zu bytes is too long", len);
		return -1;
	}
	cJSON *o = lj_parse_object(line, len, err, errsize);
	if (!o)
		return -1;
	w->description = cJSON_GetObjectItemCaseSensitive(o, "id") != NULL;
	lj_str(&j, o, "fen", w->fen, sizeof w->fen);
	lj_str(&j, o, "lm", w->lm, sizeof w->lm);
	if (w->description) {
		lj_str(&j, o, "id", w->id, sizeof w->id);
		if (!j.failed && !lj_game_id_ok(w->id))
			lj_fail(&j, "is not a game id", "id");
		const cJSON *var = lj_obj(&j, o, "variant", false);
		if (var)
			lj_str(&j, var, "key", w->variant, sizeof w->variant);
		lj_str(&j, o, "speed", w->speed, sizeof w->speed);
		lj_bool(&j, o, "rated", &w->rated);
		const cJSON *players = lj_obj(&j, o, "players", false);
		lj_watch_player(&j, players, "white", &w->white);
		lj_watch_player(&j, players, "black", &w->black);
		const cJSON *clk = lj_obj(&j, o, "clock", false);
		if (clk) {
			w->has_clock = true;
			lj_require(&j, clk, "initial");
			lj_int(&j, clk, "initial", &w->clock_initial_s);
			lj_int(&j, clk, "increment", &w->clock_increment_s);
			if (w->clock_initial_s < 0 || w->clock_increment_s < 0)
				lj_fail(&j, "is negative", "clock");
		}
		const cJSON *st = lj_obj(&j, o, "status", false);
		if (st)
			lj_str(&j, st, "name", w->status, sizeof w->status);
		w->winner = lj_color(&j, o, "winner");
	} else {
		lj_require(&j, o, "fen");
		lj_int(&j, o, "wc", &w->wc);
		lj_int(&j, o, "bc", &w->bc);
		if (w->wc < -1 || w->bc < -1)
			lj_fail(&j, "is negative", "wc");
	}
	size_t ml = strlen(w->lm);
	if (!j.failed && ml && (ml < 4 || ml > 5 || strspn(w->lm, "abcdefgh12345678qrbn") != ml))
		lj_fail(&j, "is not a UCI move", "lm");
	cJSON_Delete(o);
	if (j.failed) {
		memset(w, 0, sizeof *w);
		return -1;
	}
	return 0;
}

int lichess_token_decode(const char *body, size_t len, char *out, size_t size, char *err, size_t errsize)
{
	struct lj j = { err, errsize, 0 };
	char type[LICHESS_WORD_MAX] = "", tok[1024] = "";
	cJSON *o = lj_parse_object(body, len, err, errsize);
	if (!o)
		return -1;
	lj_require(&j, o, "access_token");
	lj_str(&j, o, "access_token", tok, sizeof tok);
	lj_str(&j, o, "token_type", type, sizeof type);
	cJSON_Delete(o);
	size_t n = strlen(tok);
	if (!j.failed && type[0] && strcasecmp(type, "Bearer"))
		lj_fail(&j, "is not Bearer", "token_type");
	if (!j.failed && (n == 0 || n >= size ||
			  strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != n))
		lj_fail(&j, "is not a token", "access_token");
	if (!j.failed)
		memcpy(out, tok, n + 1);
	memset(tok, 0, sizeof tok);
	return j.failed ? -1 : 0;
}

bool lichess_done_decode(const char *line, size_t len, char *out, size_t size)
{
	out[0] = '\0';
	cJSON *o = line && len && len <= LICHESS_LINE_MAX ? cJSON_ParseWithLength(line, len) : NULL;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "done");
	bool ok = cJSON_IsObject(o) && cJSON_IsString(d) && d->valuestring[0];
	if (ok)
		snprintf(out, size, "%s", d->valuestring);
	cJSON_Delete(o);
	return ok;
}

bool lichess_error_text(const char *body, size_t len, char *out, size_t size)
{
	out[0] = '\0';
	cJSON *o = body && len ? cJSON_ParseWithLength(body, len) : NULL;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "error");
	if (cJSON_IsString(e)) {
		snprintf(out, size, "%s", e->valuestring);
	} else if (cJSON_IsObject(e)) {
		/* Form errors: {"error": {"field": ["message", ...]}} */
		const cJSON *f = e->child;
		const cJSON *first = f && cJSON_IsArray(f) ? cJSON_GetArrayItem(f, 0) : f;
		if (f && f->string && cJSON_IsString(first))
			snprintf(out, size, "%s: %s", f->string, first->valuestring);
	}
	cJSON_Delete(o);
	/* What a terminal shows: printable ASCII, the rest '?'. */
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out[0] != '\0';
}

bool lichess_status_final(const char *status)
{
	return strcmp(status, "created") && strcmp(status, "started");
}
