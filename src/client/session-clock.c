/*
 * The clocks: read through the fold at the estimated server time, the
 * first-move countdown, the next instant a clock's text changes, and the
 * low-time threshold and its bell.
 */
#include "clock-text.h"
#include "session-internal.h"

bool session_server_away(const struct session *s)
{
	return !s->lichess && s->conn == SESSION_CONN_RECONNECTING && s->view.created && !s->gone;
}

/* A game no longer followed shows the clocks as they stood then; one
 * whose server is away, as its last event left them (session.h). */
int64_t session_server_ms(const struct session *s, int64_t mono_ms)
{
	if (s->gone && mono_ms > s->gone_mono_ms)
		mono_ms = s->gone_mono_ms;
	if (mono_ms < s->reading_mono_ms)
		mono_ms = s->reading_mono_ms;
	int64_t t = s->reading_server_ms + (mono_ms - s->reading_mono_ms);
	if (session_server_away(s) && t > s->view.last_t_ms)
		t = s->view.last_t_ms;
	return t;
}

int64_t session_clock_ms(const struct session *s, int c, int64_t mono_ms)
{
	if (!s->have_reading)
		return s->view.created ? s->view.clock.remaining_ms[c] : 0;
	if (s->reading.ms[c] >= SESSION_UNLIMITED_MS)
		return s->reading.ms[c];
	/* The fold reads the clock, so a US delay or a correspondence
	 * clock's whole minutes stand still here as they do on the server. */
	struct fold_clock_reading r;
	fold_clock_read(&s->view, session_server_ms(s, mono_ms), &r);
	return r.ms[c];
}

bool session_clock_running(const struct session *s, int c)
{
	return s->have_reading && s->reading.running == c && !session_over(s) && !s->gone && !session_server_away(s);
}

int64_t session_first_move_ms(const struct session *s, int64_t mono_ms, int *side)
{
	/* Lichess says when (a gameState's expiration), not the rules. */
	if (s->lichess) {
		if (s->lichess_first_move_by_ms == INT64_MAX || !s->view.created || session_over(s) || s->gone)
			return -1;
		*side = (int)game_side_to_move(&s->view.game);
		return s->lichess_first_move_by_ms > mono_ms ? s->lichess_first_move_by_ms - mono_ms : 0;
	}
	int64_t at = fold_first_move_deadline(&s->view, s->view.game.rules.first_move_timeout_ms, side);
	if (at == INT64_MAX || !s->have_reading || s->gone)
		return -1;
	int64_t left = at - session_server_ms(s, mono_ms);
	return left > 0 ? left : 0;
}

/* The opponent-left countdown shows whole seconds: ms until its next
 * change, -1 none. */
static int64_t left_tick(const struct session *s, int64_t mono_ms)
{
	struct session_left l;
	if (!session_opponent_left(s, &l) || l.at_mono == INT64_MAX || l.at_mono <= mono_ms)
		return -1;
	int64_t rest = (l.at_mono - mono_ms) % 1000;
	return rest ? rest : 1000;
}

/* How often a hotseat's second seat says it is here: well inside the
 * disconnect grace of the game's rules, and no more than 2 s apart (a
 * server may set a shorter grace than the rules'), no less than half a
 * second. */
static int64_t session_hotseat_every_ms(const struct session *s)
{
	int64_t every = s->view.game.rules.disconnect_grace_ms / 3;
	return every > 2000 ? 2000 : every < 500 ? 500 : every;
}

static bool session_hotseat_watching(const struct session *s)
{
	return s->hotseat && s->view.created && s->view.started && !session_over(s) && !s->gone;
}

/* The time until the hotseat's presence read, or -1. */
static int64_t session_hotseat_wake(const struct session *s, int64_t mono_ms)
{
	if (!session_hotseat_watching(s))
		return -1;
	return s->hotseat_seen_due_ms > mono_ms ? s->hotseat_seen_due_ms - mono_ms : 1;
}

/* The sooner of two wake-ups (-1: none). */
static int64_t sooner(int64_t a, int64_t b)
{
	return a < 0 ? b : b < 0 || a < b ? a : b;
}

static int64_t clock_tick(const struct session *s, int64_t mono_ms);

int64_t session_next_tick(const struct session *s, int64_t mono_ms)
{
	return sooner(sooner(clock_tick(s, mono_ms), left_tick(s, mono_ms)), session_hotseat_wake(s, mono_ms));
}

static int64_t clock_tick(const struct session *s, int64_t mono_ms)
{
	int r = s->reading.running;
	if (!s->have_reading || r == CLOCK_NOBODY || session_over(s) || s->gone || session_server_away(s))
		return -1;
	/* The first-move countdown shows whole seconds: wake at its next. */
	int side;
	int64_t first = session_first_move_ms(s, mono_ms, &side);
	int64_t first_wake = first > 0 ? (first % 1000 ? first % 1000 : 1000) : -1;
	int64_t ms = session_clock_ms(s, r, mono_ms);
	/* At zero the text stops changing; the server decides the flag. */
	if (ms <= 0 || ms >= SESSION_UNLIMITED_MS)
		return -1;
	/* The reading at which the text next changes; a threshold that is
	 * no whole second (or tenth) falls between two changes: wake for it
	 * too. */
	int64_t target = ms - clock_text_next_change(ms);
	int64_t low = session_low_threshold_ms(s);
	if (low > 0 && ms >= low && low - 1 > target)
		target = low - 1;
	struct clock_vacations vac;
	fold_clock_vacations(&s->view, &vac);
	int64_t at = clock_reaching(&s->view.clock, target, &vac);
	if (at == INT64_MAX)
		return first_wake;
	int64_t now = session_server_ms(s, mono_ms);
	int64_t wake = at > now ? at - now : 1;
	return first_wake > 0 && first_wake < wake ? first_wake : wake;
}

int64_t session_low_threshold_ms(const struct session *s)
{
	if (s->low_time_cfg_ms >= 0)
		return s->low_time_cfg_ms;
	if (!s->view.created)
		return 0;
	const struct time_control *tc = &s->view.clock.tc;
	if (tc->kind == TC_UNLIMITED || tc->n_periods < 1)
		return 0;
	int64_t t = tc->periods[0].base_ms / 10;
	if (t < SESSION_LOW_TIME_MIN_MS)
		t = SESSION_LOW_TIME_MIN_MS;
	if (t > SESSION_LOW_TIME_MAX_MS)
		t = SESSION_LOW_TIME_MAX_MS;
	return t;
}

bool session_clock_low(const struct session *s, int c, int64_t mono_ms)
{
	int64_t low = session_low_threshold_ms(s);
	if (low <= 0 || !s->have_reading || !fold_running(&s->view) || s->gone)
		return false;
	int64_t ms = session_clock_ms(s, c, mono_ms);
	return ms < low && ms < SESSION_UNLIMITED_MS;
}

unsigned session_tick(struct session *s, int64_t mono_ms)
{
	unsigned dirty = 0;
	/* The opponent-left countdown's next second, or its end (either
	 * backend), changes the status line. */
	struct session_left l;
	long shown = session_opponent_left(s, &l) ? session_left_seconds(&l, mono_ms) : -1;
	if (shown != s->left_shown_s) {
		s->left_shown_s = shown;
		dirty |= SESSION_DIRTY_STATUS;
	}
	s->mono_ms = mono_ms;
	if (session_hotseat_watching(s) && mono_ms >= s->hotseat_seen_due_ms) {
		struct session_req r = { .kind = SESSION_REQ_PRESENCE };
		session_push(s, &r);
		s->outbox[s->n_out - 1].seat = !s->hotseat_host;
		s->hotseat_seen_due_ms = mono_ms + session_hotseat_every_ms(s);
	}
	if (!s->have_reading)
		return 0;
	for (int c = WHITE; c <= BLACK; c++) {
		int low = session_clock_low(s, c, mono_ms) ? 1 : 0;
		if (low == s->low_state[c])
			continue;
		/* Only a crossing seen happening rings: not the state found in
		 * the first reading (joining, reconnecting), not an increment
		 * lifting the clock back over. */
		if (s->low_state[c] == 0 && low && c == s->me && s->bell && session_clock_running(s, c))
			dirty |= SESSION_DIRTY_BELL;
		s->low_state[c] = low;
		dirty |= SESSION_DIRTY_CLOCKS;
	}
	return dirty;
}
