/*
 * A Lichess game stream turned into the fold's view (lichess-game.h): the
 * moves folded as move events, the clock and the result set from what
 * Lichess says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lichess-game.h"
#include "tchess/movegen.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/xalloc.h"

void lichess_game_init(struct lichess_game *g, const char *id, const char *me_id)
{
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", id ? id : "");
	snprintf(g->me_id, sizeof g->me_id, "%s", me_id ? me_id : "");
	for (char *p = g->me_id; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	g->me = -1;
	g->winner = -1;
	g->running = CLOCK_NOBODY;
	g->first_move_by_ms = INT64_MAX;
	g->claim_at_ms = INT64_MAX;
	fold_view_init(&g->view);
	g->moves = xstrdup("");
}

void lichess_game_fini(struct lichess_game *g)
{
	fold_view_fini(&g->view);
	free(g->moves);
	g->moves = NULL;
}

static int lg_fail(char *err, size_t errsize, const char *what)
{
	snprintf(err, errsize, "%s", what);
	return -1;
}

static void lg_seat(struct fold_seat *s, const struct lichess_player *p)
{
	memset(s, 0, sizeof *s);
	if (p->ai_level) {
		s->kind = FOLD_SEAT_ENGINE;
		s->level = p->ai_level;
		return;
	}
	s->kind = FOLD_SEAT_HUMAN;
	snprintf(s->name, sizeof s->name, "%.*s", (int)sizeof s->name - 1, p->name);
	text_sanitize(s->name);
}

/* The time control of a gameFull as the fold takes it. */
static void lg_tc(const struct lichess_msg *m, char *buf, size_t size)
{
	if (m->has_clock && m->clock_initial_ms > 0 && m->clock_initial_ms % 60000 == 0 &&
	    m->clock_increment_ms % 1000 == 0)
		snprintf(buf, size, "%lld+%lld", (long long)(m->clock_initial_ms / 60000),
			 (long long)(m->clock_increment_ms / 1000));
	else if (m->has_clock && m->clock_initial_ms > 0)
		snprintf(buf, size, "%lldms+%lldms", (long long)m->clock_initial_ms,
			 (long long)m->clock_increment_ms);
	else if (m->has_clock) /* 0+1 and the like: the increment alone */
		snprintf(buf, size, "1ms+%lldms", (long long)m->clock_increment_ms);
	else if (m->days_per_turn > 0)
		snprintf(buf, size, "corr:%dd/1", m->days_per_turn);
	else
		snprintf(buf, size, "-");
}

/* A fresh view: created with the gameFull's seats, clock and start, and
 * started. */
static int lg_create(struct game_view *v, const struct lichess_msg *full, int64_t t, char *err, size_t errsize)
{
	struct fold_event e;
	struct protocol_error perr;
	fold_event_init(&e, FOLD_EV_CREATED);
	lg_tc(full, e.tc, sizeof e.tc);
	snprintf(e.ruleset, sizeof e.ruleset, "fide");
	/* Lichess has no premoves of its own: the client queues this many. */
	e.premove_depth = LICHESS_PREMOVE_DEPTH;
	snprintf(e.fen, sizeof e.fen, "%.*s", (int)sizeof e.fen - 1, strcmp(full->initial_fen, "startpos") ? full->initial_fen : FEN_START);
	snprintf(e.opponent, sizeof e.opponent, "%s",
		 full->white.ai_level || full->black.ai_level ? "engine" : "open");
	lg_seat(&e.seats[WHITE], &full->white);
	lg_seat(&e.seats[BLACK], &full->black);
	fold_view_init(v);
	if (fold_apply_event(v, 1, t, &e, &perr) < 0)
		return snprintf(err, errsize, "gameFull: %s", perr.message), -1;
	fold_event_init(&e, FOLD_EV_STARTED);
	if (fold_apply_event(v, 2, t, &e, &perr) < 0)
		return snprintf(err, errsize, "gameFull: %s", perr.message), -1;
	return 0;
}

/* Folds the blank-separated UCI moves of list into v as move events. */
static int lg_moves(struct game_view *v, const char *list, int64_t t, char *err, size_t errsize)
{
	const char *p = list;
	/* Lichess decides the clock: the fold's must not flag a move. */
	v->clock.running = CLOCK_NOBODY;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		struct fold_event e;
		struct protocol_error perr;
		struct tchess_error terr;
		move m;
		char text[16];
		snprintf(text, sizeof text, "%.*s", (int)(n < 15 ? n : 15), p);
		text_sanitize(text);
		if (n >= UCI_MAX || uci_parse(&v->game.pos, p, n, &m, &terr) != TCHESS_OK) {
			snprintf(err, errsize, "move %zu (%s) is not legal: %s", v->game.n_plies + 1, text,
				 n >= UCI_MAX ? "not a UCI move" : terr.message);
			return -1;
		}
		/* Parsed and legal: the fold takes it as it is. */
		fold_move_event(&e, v, m, 0, false);
		if (fold_apply_event(v, v->seq + 1, t, &e, &perr) < 0) {
			snprintf(err, errsize, "move %zu (%s): %s", v->game.n_plies + 1, text, perr.message);
			return -1;
		}
		p += n;
	}
	return 0;
}

static const struct {
	const char *status;
	enum game_termination term;
	bool names_loser;    /* the sentence starts with the loser */
	const char *words;
} lg_ends[] = {
	{ "mate", GAME_TERM_CHECKMATE, false, "checkmate" },
	{ "resign", GAME_TERM_RESIGNATION, true, "resigned" },
	{ "stalemate", GAME_TERM_STALEMATE, false, "stalemate" },
	{ "timeout", GAME_TERM_TECHNICAL_FAILURE, true, "left the game" },
	{ "draw", GAME_TERM_AGREEMENT, false, "draw" },
	{ "outoftime", GAME_TERM_TIMEOUT, true, "ran out of time" },
	{ "cheat", GAME_TERM_TECHNICAL_FAILURE, false, "cheat detected" },
	{ "noStart", GAME_TERM_ABORTED, true, "did not move: aborted" },
	{ "aborted", GAME_TERM_ABORTED, false, "the game was aborted" },
	{ "unknownFinish", GAME_TERM_TECHNICAL_FAILURE, false, "the game ended" },
	{ "insufficientMaterialClaim", GAME_TERM_INSUFFICIENT_MATERIAL, false, "draw: insufficient material" },
	{ "variantEnd", GAME_TERM_TECHNICAL_FAILURE, false, "the variant's end" },
};

static int lg_end_index(const char *status)
{
	for (size_t i = 0; i < sizeof lg_ends / sizeof lg_ends[0]; i++)
		if (!strcmp(status, lg_ends[i].status))
			return (int)i;
	return -1;
}

/* The final status into the view: over, with Lichess's result. */
static void lg_end(struct lichess_game *g, struct game_view *v)
{
	int i = lg_end_index(g->status);
	int loser = g->winner >= 0 ? !g->winner : -1;
	/* noStart: the side that did not move loses nothing but is named. */
	if (!strcmp(g->status, "noStart") && loser < 0)
		loser = (int)game_side_to_move(&v->game);
	v->clock.running = CLOCK_NOBODY;
	v->game.offer_by = GAME_NOBODY;
	v->end_color = loser;
	snprintf(v->end_reason, sizeof v->end_reason, "%s", g->status);
	if (game_is_over(&v->game) && v->game.termination != GAME_TERM_NONE && !strcmp(g->status, "mate"))
		return; /* the rules ended it already, as Lichess says */
	v->game.status = GAME_OVER;
	v->game.termination = i >= 0 ? lg_ends[i].term : GAME_TERM_TECHNICAL_FAILURE;
	v->game.result = g->winner == WHITE   ? GAME_RESULT_WHITE_WINS
			 : g->winner == BLACK ? GAME_RESULT_BLACK_WINS
			 : v->game.termination == GAME_TERM_ABORTED || v->game.termination == GAME_TERM_TECHNICAL_FAILURE
				 ? GAME_RESULT_NONE
				 : GAME_RESULT_DRAW;
}

/* The clock of a state at t: Lichess's times, the side to move's running
 * once both sides moved and while the game runs. */
static void lg_clock(struct lichess_game *g, struct game_view *v, const struct lichess_state *s, int64_t t)
{
	g->clock_ms[WHITE] = s->wtime;
	g->clock_ms[BLACK] = s->btime;
	g->anchor_ms = t;
	g->running = g->timed && !lichess_status_final(s->status) && v->game.n_plies >= 2
			     ? (int)game_side_to_move(&v->game)
			     : CLOCK_NOBODY;
	if (g->timed) {
		v->clock.remaining_ms[WHITE] = s->wtime;
		v->clock.remaining_ms[BLACK] = s->btime;
		v->clock.flagged = CLOCK_NOBODY;
		v->clock.paused = false;
		v->clock.since_ms = t;
		v->clock.turn_used_ms = 0;
		v->clock.running = g->running;
	}
	g->first_move_by_ms = s->has_expiration && !lichess_status_final(s->status)
				      ? t + s->ms_to_move - s->idle_ms
				      : INT64_MAX;
}

/* Whether list extends old by whole moves. Both are the canonical form
 * (lg_canonical). */
static bool lg_extends(const char *old, const char *list)
{
	size_t n = strlen(old);
	return !strncmp(old, list, n) && (n == 0 || list[n] == '\0' || list[n] == ' ');
}

/* The list as libtchess writes it from start (king-takes-rook castling
 * becomes e1g1 in standard chess), malloc'd; NULL with err for a move
 * that is not legal. The view is then folded from this form. */
static char *lg_canonical(const struct position *start, const char *list, char *err, size_t errsize)
{
	struct position pos = *start;
	struct buf out;
	buf_init(&out);
	buf_append(&out, "", 1);
	out.len = 0;
	size_t ply = 0;
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		struct tchess_error terr;
		move m;
		char text[16], uci[UCI_MAX];
		if (n >= UCI_MAX || uci_parse(&pos, p, n, &m, &terr) != TCHESS_OK) {
			snprintf(text, sizeof text, "%.*s", (int)(n < 15 ? n : 15), p);
			text_sanitize(text);
			snprintf(err, errsize, "move %zu (%s) is not legal: %s", ply + 1, text,
				 n >= UCI_MAX ? "not a UCI move" : terr.message);
			buf_fini(&out);
			return NULL;
		}
		uci_write(&pos, m, uci);
		buf_printf(&out, "%s%s", out.len ? " " : "", uci);
		struct undo u;
		position_make(&pos, m, &u);
		ply++;
		p += n;
	}
	return buf_steal(&out);
}

static int lg_state(struct lichess_game *g, const struct lichess_msg *full, const struct lichess_state *s,
		    int64_t t, bool fresh, char *err, size_t errsize)
{
	struct game_view w;
	int changed = 0;
	struct position start;
	struct tchess_error terr;
	if (fresh) {
		if (fen_parse(&start, strcmp(full->initial_fen, "startpos") ? full->initial_fen : FEN_START, &terr) !=
		    TCHESS_OK) {
			snprintf(err, errsize, "gameFull: bad initialFen: %s", terr.message);
			return -1;
		}
	} else {
		start = g->view.game.start;
	}
	char *list = lg_canonical(&start, s->moves, err, errsize);
	if (!list)
		return -1;
	const char *add = list;
	if (fresh || !lg_extends(g->moves, list)) {
		if (lg_create(&w, full, t, err, errsize) < 0) {
			fold_view_fini(&w);
			free(list);
			return -1;
		}
		if (!fresh)
			changed |= LICHESS_CHANGED_TAKEBACK | LICHESS_CHANGED_MOVES;
	} else {
		fold_view_copy(&w, &g->view);
		add = list + strlen(g->moves);
	}
	size_t before = w.game.n_plies;
	if (lg_moves(&w, add, t, err, errsize) < 0) {
		fold_view_fini(&w);
		free(list);
		return -1;
	}
	if (w.game.n_plies != before)
		changed |= LICHESS_CHANGED_MOVES;
	bool was_over = lichess_status_final(g->status);
	snprintf(g->status, sizeof g->status, "%s", s->status);
	text_sanitize(g->status);
	g->winner = s->winner;
	lg_clock(g, &w, s, t);
	bool offer[2] = { w.game.offer_by == WHITE, w.game.offer_by == BLACK };
	w.game.offer_by = s->wdraw ? WHITE : s->bdraw ? BLACK : GAME_NOBODY;
	if (w.game.offer_by != GAME_NOBODY)
		w.game.offer_ply = w.game.n_plies;
	if (offer[WHITE] != s->wdraw || offer[BLACK] != s->bdraw || g->takeback[WHITE] != s->wtakeback ||
	    g->takeback[BLACK] != s->btakeback)
		changed |= LICHESS_CHANGED_OFFERS;
	g->takeback[WHITE] = s->wtakeback;
	g->takeback[BLACK] = s->btakeback;
	if (lichess_status_final(s->status)) {
		lg_end(g, &w);
		g->opponent_gone = false;
		if (!was_over)
			changed |= LICHESS_CHANGED_OVER;
	}
	fold_view_fini(&g->view);
	g->view = w;
	free(g->moves);
	g->moves = list;
	return changed | LICHESS_CHANGED_CLOCK;
}

/* The gameFull the view is rebuilt from on a take-back: its seats, clock
 * and start (kept from the gameFull). */
static void lg_full_of(const struct lichess_game *g, struct lichess_msg *out)
{
	lichess_msg_init(out);
	out->kind = LICHESS_MSG_GAME_FULL;
	out->white = g->players[WHITE];
	out->black = g->players[BLACK];
	/* The start and the time control live in the view. */
	snprintf(out->initial_fen, sizeof out->initial_fen, "%s", "startpos");
	char fen[FEN_MAX];
	fen_write(&g->view.game.start, fen);
	if (strcmp(fen, FEN_START))
		snprintf(out->initial_fen, sizeof out->initial_fen, "%s", fen);
	if (g->view.clock.tc.kind == TC_CORRESPONDENCE) {
		out->days_per_turn = (int)(g->view.clock.tc.periods[0].base_ms / 86400000);
	} else if (g->view.clock.tc.kind != TC_UNLIMITED) {
		out->has_clock = true;
		out->clock_initial_ms = g->view.clock.tc.periods[0].base_ms;
		out->clock_increment_ms = g->view.clock.tc.periods[0].increment_ms;
	}
}

static int lg_full(struct lichess_game *g, const struct lichess_msg *m, int64_t t, char *err, size_t errsize)
{
	if (g->id[0] && strcmp(g->id, m->id))
		return lg_fail(err, errsize, "a gameFull of another game");
	/* lg_state replaces the view and the list only when it succeeds: the
	 * rest is put back on failure. */
	struct lichess_player players[2] = { g->players[WHITE], g->players[BLACK] };
	bool timed = g->timed;
	char status[LICHESS_WORD_MAX];
	snprintf(status, sizeof status, "%s", g->status);
	g->players[WHITE] = m->white;
	g->players[BLACK] = m->black;
	g->timed = m->has_clock;
	g->status[0] = '\0';
	int rc = lg_state(g, m, &m->state, t, true, err, errsize);
	if (rc < 0) {
		g->players[WHITE] = players[WHITE];
		g->players[BLACK] = players[BLACK];
		g->timed = timed;
		snprintf(g->status, sizeof g->status, "%s", status);
		return -1;
	}
	snprintf(g->id, sizeof g->id, "%s", m->id);
	text_sanitize(g->id);
	snprintf(g->speed, sizeof g->speed, "%s", m->speed);
	text_sanitize(g->speed);
	g->rated = m->rated;
	g->me = -1;
	for (int c = WHITE; c <= BLACK; c++) {
		char lower[LICHESS_NAME_MAX];
		snprintf(lower, sizeof lower, "%s", g->players[c].id);
		for (char *p = lower; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if (g->me_id[0] && !g->players[c].ai_level && !strcmp(lower, g->me_id))
			g->me = c;
	}
	g->full = true;
	return rc | LICHESS_CHANGED_GAME;
}

static int lg_chat(struct lichess_game *g, const struct lichess_msg *m)
{
	if (g->n_chat == LICHESS_CHAT_MAX) {
		memmove(&g->chat[0], &g->chat[1], (LICHESS_CHAT_MAX - 1) * sizeof g->chat[0]);
		g->n_chat--;
	}
	struct lichess_chat_line *l = &g->chat[g->n_chat++];
	snprintf(l->user, sizeof l->user, "%s", m->username[0] ? m->username : "?");
	snprintf(l->text, sizeof l->text, "%s", m->text);
	text_sanitize(l->user);
	text_sanitize(l->text);
	g->chat_total++;
	return LICHESS_CHANGED_CHAT;
}

int lichess_game_apply(struct lichess_game *g, const struct lichess_msg *m, int64_t mono_ms, char *err,
		       size_t errsize)
{
	switch (m->kind) {
	case LICHESS_MSG_GAME_FULL:
		return lg_full(g, m, mono_ms, err, errsize);
	case LICHESS_MSG_GAME_STATE: {
		if (!g->full)
			return lg_fail(err, errsize, "a gameState before the gameFull");
		struct lichess_msg full;
		lg_full_of(g, &full);
		int rc = lg_state(g, &full, &m->state, mono_ms, false, err, errsize);
		lichess_msg_fini(&full);
		return rc;
	}
	case LICHESS_MSG_CHAT:
		return lg_chat(g, m);
	case LICHESS_MSG_OPPONENT_GONE: {
		if (lichess_game_over(g))
			return 0;
		bool was = g->opponent_gone;
		int64_t at = g->claim_at_ms;
		g->opponent_gone = m->gone;
		g->claim_at_ms = m->gone && m->claim_win_s >= 0 ? mono_ms + m->claim_win_s * 1000 : INT64_MAX;
		return was != g->opponent_gone || at != g->claim_at_ms ? LICHESS_CHANGED_GONE : 0;
	}
	default:
		return 0;
	}
}

int64_t lichess_game_clock_ms(const struct lichess_game *g, int c, int64_t mono_ms)
{
	if (!g->timed)
		return CLOCK_UNLIMITED;
	int64_t ms = g->clock_ms[c];
	if (g->running == c && mono_ms > g->anchor_ms)
		ms -= mono_ms - g->anchor_ms;
	return ms < 0 ? 0 : ms;
}

bool lichess_game_over(const struct lichess_game *g)
{
	return g->full && lichess_status_final(g->status);
}

int64_t lichess_game_claim_in_ms(const struct lichess_game *g, int64_t mono_ms)
{
	if (!g->opponent_gone || lichess_game_over(g))
		return -1;
	if (g->claim_at_ms == INT64_MAX)
		return INT64_MAX;
	return g->claim_at_ms > mono_ms ? g->claim_at_ms - mono_ms : 0;
}

void lichess_game_end_text(const struct lichess_game *g, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!lichess_game_over(g))
		return;
	int i = lg_end_index(g->status);
	int loser = g->view.end_color;
	const char *who = loser == WHITE ? "White" : loser == BLACK ? "Black" : "a player";
	if (i < 0) {
		snprintf(buf, size, "the game ended (%s)", g->status);
		return;
	}
	char words[80];
	if (lg_ends[i].names_loser)
		snprintf(words, sizeof words, "%s %s", who, lg_ends[i].words);
	else
		snprintf(words, sizeof words, "%s", lg_ends[i].words);
	if (g->winner >= 0)
		snprintf(buf, size, "%s wins: %s", g->winner == WHITE ? "White" : "Black", words);
	else
		snprintf(buf, size, "%s", words);
}
