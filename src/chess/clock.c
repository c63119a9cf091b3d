/*
 * Time controls and the chess clock (see tchess/clock.h for the rules and
 * the text grammar).
 *
 * The running side's remaining time is kept as it was at the start of its
 * turn, together with the time used in the turn before the last resume
 * (turn_used_ms). Every reading is computed from the whole turn's use, so
 * the per-turn rules (a US delay once per turn, correspondence time rounded
 * once per move) do not depend on how often the clock was paused or read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tchess/clock.h"

#define MS_SECOND 1000LL
#define MS_MINUTE (60 * MS_SECOND)
#define MS_HOUR (60 * MS_MINUTE)
#define MS_DAY (24 * MS_HOUR)
/* Largest number the parser takes before its unit is applied. */
#define NUMBER_MAX 1000000000LL

/* a + b for b >= 0, saturating at INT64_MAX. */
static int64_t sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* to - from when to > from, else 0; saturating, so any two instants work. */
static int64_t span(int64_t from, int64_t to)
{
	if (to <= from)
		return 0;
	uint64_t d = (uint64_t)to - (uint64_t)from;
	return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

/* ---- text form ---- */

struct cursor {
	const char *s;
	size_t i;
	struct tchess_error *err;
};

static enum tchess_err syntax(struct cursor *c, const char *what)
{
	if (c->s[c->i])
		return tchess_error_set(c->err, TCHESS_ERR_TIME_CONTROL, c->i, "time control: %s at '%c'", what,
					c->s[c->i]);
	return tchess_error_set(c->err, TCHESS_ERR_TIME_CONTROL, c->i, "time control: %s at the end", what);
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static enum tchess_err parse_number(struct cursor *c, const char *what, int64_t *out)
{
	size_t start = c->i;
	int64_t v = 0;
	if (!is_digit(c->s[c->i])) {
		char msg[64];
		snprintf(msg, sizeof msg, "expected %s", what);
		return syntax(c, msg);
	}
	while (is_digit(c->s[c->i])) {
		v = v * 10 + (c->s[c->i] - '0');
		if (v > NUMBER_MAX)
			return tchess_error_set(c->err, TCHESS_ERR_RANGE, start, "time control: %s is too large",
						what);
		c->i++;
	}
	*out = v;
	return TCHESS_OK;
}

/* A number with an optional unit: "ms" if allow_ms, or one of the letters
 * in units ('s', 'm', 'h', 'd'); def_ms is a bare number's unit. */
static enum tchess_err parse_duration(struct cursor *c, const char *what, int64_t def_ms, bool allow_ms,
				      const char *units, int64_t *out)
{
	int64_t v = 0, unit = def_ms;
	enum tchess_err e = parse_number(c, what, &v);
	if (e)
		return e;
	const char *p = c->s + c->i;
	if (allow_ms && p[0] == 'm' && p[1] == 's') {
		unit = 1;
		c->i += 2;
	} else if (*p && strchr(units, *p)) {
		unit = *p == 's' ? MS_SECOND : *p == 'm' ? MS_MINUTE : *p == 'h' ? MS_HOUR : MS_DAY;
		c->i++;
	}
	*out = v * unit; /* at most 1e9 * 86400000: no overflow */
	return TCHESS_OK;
}

static enum tchess_err parse_corr(struct cursor *c, struct time_control *tc)
{
	int64_t base, moves;
	size_t at = c->i;
	enum tchess_err e = parse_duration(c, "correspondence time", MS_DAY, false, "dhm", &base);
	if (e)
		return e;
	if (c->s[c->i] != '/')
		return syntax(c, "expected '/' and a move count after the correspondence time");
	c->i++;
	size_t moves_at = c->i;
	if ((e = parse_number(c, "move count", &moves)))
		return e;
	if (c->s[c->i])
		return syntax(c, "unexpected text after the correspondence control");
	if (base < TC_CORR_MIN_MS || base > TC_CORR_MAX_MS || base % MS_MINUTE)
		return tchess_error_set(c->err, TCHESS_ERR_RANGE, at,
					"time control: correspondence time must be whole minutes from 1 min to 365 days");
	if (moves < 1 || moves > TC_MOVES_MAX)
		return tchess_error_set(c->err, TCHESS_ERR_RANGE, moves_at,
					"time control: move count must be 1 to %d", TC_MOVES_MAX);
	tc->kind = TC_CORRESPONDENCE;
	tc->n_periods = 1;
	tc->periods[0].moves = (int)moves;
	tc->periods[0].base_ms = base;
	return TCHESS_OK;
}

static enum tchess_err parse_period(struct cursor *c, struct tc_period *p, char *mark)
{
	enum tchess_err e;
	size_t at = c->i;
	int64_t moves = 0;

	/* A leading number is a move count only when a '/' follows it. */
	while (is_digit(c->s[c->i]))
		c->i++;
	if (c->s[c->i] == '/') {
		c->i = at;
		if ((e = parse_number(c, "move count", &moves)))
			return e;
		if (moves < 1 || moves > TC_MOVES_MAX)
			return tchess_error_set(c->err, TCHESS_ERR_RANGE, at,
						"time control: move count must be 1 to %d", TC_MOVES_MAX);
		c->i++;
	} else {
		c->i = at;
	}
	size_t time_at = c->i;
	if ((e = parse_duration(c, "a time", MS_MINUTE, true, "smh", &p->base_ms)))
		return e;
	if (p->base_ms > TC_TIME_MAX_MS)
		return tchess_error_set(c->err, TCHESS_ERR_RANGE, time_at, "time control: a period is at most 24 h");
	p->moves = (int)moves;
	p->increment_ms = 0;
	*mark = 0;
	if (c->s[c->i] == '+') {
		c->i++;
		if (c->s[c->i] == 'b' || c->s[c->i] == 'd')
			*mark = c->s[c->i++];
		size_t inc_at = c->i;
		if ((e = parse_duration(c, "an increment", MS_SECOND, true, "smh", &p->increment_ms)))
			return e;
		if (p->increment_ms > TC_INCREMENT_MAX_MS)
			return tchess_error_set(c->err, TCHESS_ERR_RANGE, inc_at,
						"time control: an increment or delay is at most 1 h");
	}
	return TCHESS_OK;
}

enum tchess_err time_control_parse(struct time_control *out, const char *text, struct tchess_error *err)
{
	struct time_control tc;
	struct cursor c = { text ? text : "", 0, err };
	enum tchess_err e;
	char kind_mark = 0;

	memset(&tc, 0, sizeof tc);
	if (!text || !*text)
		return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, 0, "time control: empty text");
	if (!strcmp(text, "-") || !strcmp(text, "unlimited")) {
		tc.kind = TC_UNLIMITED;
		*out = tc;
		return TCHESS_OK;
	}
	if (!strncmp(text, "corr:", 5)) {
		c.i = 5;
		if ((e = parse_corr(&c, &tc)))
			return e;
		*out = tc;
		return TCHESS_OK;
	}
	for (;;) {
		char mark = 0;
		size_t at = c.i;
		if (tc.n_periods == TC_PERIODS_MAX)
			return tchess_error_set(err, TCHESS_ERR_RANGE, at, "time control: at most %d periods",
						TC_PERIODS_MAX);
		struct tc_period *p = &tc.periods[tc.n_periods];
		if ((e = parse_period(&c, p, &mark)))
			return e;
		if (mark) {
			if (kind_mark && mark != kind_mark)
				return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, at,
							"time control: periods mix delay kinds");
			kind_mark = mark;
		}
		tc.n_periods++;
		if (tc.n_periods > 1 && p->base_ms == 0 && p->increment_ms == 0)
			return tchess_error_set(err, TCHESS_ERR_RANGE, at,
						"time control: period %d adds no time (':' separates periods; "
						"40 moves in 5 minutes is 40/5)", tc.n_periods);
		if (c.s[c.i] == ':') {
			if (!p->moves)
				return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, at,
							"time control: only the last period may lack a move count");
			c.i++;
			continue;
		}
		if (c.s[c.i])
			return syntax(&c, "expected '+', ':' or the end");
		break;
	}
	if (tc.periods[0].base_ms <= 0)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: the first period needs time");
	tc.kind = kind_mark == 'b' ? TC_BRONSTEIN : kind_mark == 'd' ? TC_US_DELAY : TC_FISCHER;
	*out = tc;
	return TCHESS_OK;
}

enum tchess_err time_control_validate(const struct time_control *tc, struct tchess_error *err)
{
	if (tc->kind == TC_UNLIMITED)
		return TCHESS_OK;
	if ((unsigned)tc->kind > TC_CORRESPONDENCE)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: unknown kind");
	if (tc->n_periods < 1 || tc->n_periods > TC_PERIODS_MAX)
		return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: 1 to %d periods", TC_PERIODS_MAX);
	if (tc->kind == TC_CORRESPONDENCE) {
		const struct tc_period *p = &tc->periods[0];
		if (tc->n_periods != 1 || p->increment_ms)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0,
						"time control: correspondence has one period and no increment");
		if (p->base_ms < TC_CORR_MIN_MS || p->base_ms > TC_CORR_MAX_MS || p->base_ms % MS_MINUTE)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0,
						"time control: correspondence time must be whole minutes from 1 min to 365 days");
		if (p->moves < 1 || p->moves > TC_MOVES_MAX)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: move count must be 1 to %d",
						TC_MOVES_MAX);
		return TCHESS_OK;
	}
	for (int i = 0; i < tc->n_periods; i++) {
		const struct tc_period *p = &tc->periods[i];
		if (p->moves < 0 || p->moves > TC_MOVES_MAX || (p->moves == 0 && i + 1 < tc->n_periods))
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: period %d: bad move count",
						i + 1);
		if (p->base_ms < 0 || p->base_ms > TC_TIME_MAX_MS || (i == 0 && p->base_ms == 0))
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: period %d: bad time", i + 1);
		/* A later period that adds nothing is a misreading, typically
		 * "40/5:00" meant as a clock time: ':' separates periods here. */
		if (i > 0 && p->base_ms == 0 && p->increment_ms == 0)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0,
						"time control: period %d adds no time (':' separates periods; "
						"40 moves in 5 minutes is 40/5)", i + 1);
		if (p->increment_ms < 0 || p->increment_ms > TC_INCREMENT_MAX_MS)
			return tchess_error_set(err, TCHESS_ERR_RANGE, 0, "time control: period %d: bad increment",
						i + 1);
	}
	return TCHESS_OK;
}

/* Appends text to buf as snprintf would, tracking the length needed. */
static void put_str(char *buf, size_t size, size_t *len, const char *text)
{
	for (; *text; text++, (*len)++)
		if (*len + 1 < size)
			buf[*len] = *text;
}

/* Appends v and then suffix. */
static void put_num(char *buf, size_t size, size_t *len, int64_t v, const char *suffix)
{
	char tmp[24];
	snprintf(tmp, sizeof tmp, "%" PRId64, v);
	put_str(buf, size, len, tmp);
	put_str(buf, size, len, suffix);
}

/* A duration in unit def (written bare) when whole, else in the smaller of
 * seconds and milliseconds that is whole. */
static void put_duration(char *buf, size_t size, size_t *len, int64_t ms, int64_t def)
{
	if (ms % def == 0)
		put_num(buf, size, len, ms / def, "");
	else if (ms % MS_SECOND == 0)
		put_num(buf, size, len, ms / MS_SECOND, "s");
	else
		put_num(buf, size, len, ms, "ms");
}

size_t time_control_format(const struct time_control *tc, char *buf, size_t size)
{
	size_t len = 0;
	if (tc->kind == TC_UNLIMITED || tc->n_periods < 1) {
		put_str(buf, size, &len, "-");
	} else if (tc->kind == TC_CORRESPONDENCE) {
		int64_t b = tc->periods[0].base_ms;
		put_str(buf, size, &len, "corr:");
		if (b % MS_DAY == 0)
			put_num(buf, size, &len, b / MS_DAY, "d/");
		else if (b % MS_HOUR == 0)
			put_num(buf, size, &len, b / MS_HOUR, "h/");
		else
			put_num(buf, size, &len, b / MS_MINUTE, "m/");
		put_num(buf, size, &len, tc->periods[0].moves, "");
	} else {
		const char *mark = tc->kind == TC_BRONSTEIN ? "+b" : tc->kind == TC_US_DELAY ? "+d" : "+";
		int n = tc->n_periods > TC_PERIODS_MAX ? TC_PERIODS_MAX : tc->n_periods;
		for (int i = 0; i < n; i++) {
			const struct tc_period *p = &tc->periods[i];
			if (i)
				put_str(buf, size, &len, ":");
			if (p->moves)
				put_num(buf, size, &len, p->moves, "/");
			put_duration(buf, size, &len, p->base_ms, MS_MINUTE);
			put_str(buf, size, &len, mark);
			put_duration(buf, size, &len, p->increment_ms, MS_SECOND);
		}
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}

bool time_control_equal(const struct time_control *a, const struct time_control *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == TC_UNLIMITED)
		return true;
	if (a->n_periods != b->n_periods || a->n_periods < 1 || a->n_periods > TC_PERIODS_MAX)
		return false;
	for (int i = 0; i < a->n_periods; i++) {
		const struct tc_period *p = &a->periods[i], *q = &b->periods[i];
		if (p->moves != q->moves || p->base_ms != q->base_ms || p->increment_ms != q->increment_ms)
			return false;
	}
	return true;
}

enum speed_class time_control_speed(const struct time_control *tc)
{
	if (tc->kind == TC_CORRESPONDENCE)
		return SPEED_CORRESPONDENCE;
	if (tc->kind == TC_UNLIMITED || tc->n_periods < 1 || tc->n_periods > TC_PERIODS_MAX)
		return SPEED_STANDARD;
	/* The time for 40 moves: the start, the periods begun after moves
	 * 1..39, and 40 increments. */
	int p = 0, in_period = 0;
	int64_t total = tc->periods[0].base_ms;
	for (int move = 1; move <= 40; move++) {
		total += tc->periods[p].increment_ms;
		in_period++;
		if (tc->periods[p].moves && in_period == tc->periods[p].moves) {
			if (p + 1 < tc->n_periods)
				p++;
			in_period = 0;
			if (move < 40)
				total += tc->periods[p].base_ms;
		}
	}
	if (total <= 90 * MS_SECOND)
		return SPEED_BULLET;
	if (total <= 210 * MS_SECOND)
		return SPEED_FAST_BLITZ;
	if (total <= 5 * MS_MINUTE)
		return SPEED_BLITZ;
	return SPEED_STANDARD;
}

/* ---- the clock ---- */

static bool has_vacations(const struct clock *c, int side, const struct clock_vacations *vac)
{
	return c->tc.kind == TC_CORRESPONDENCE && vac && vac->list[side] && vac->count[side];
}

/* The furthest end of the vacations containing t, or t if none does. */
static int64_t vacation_end(const struct clock_vacations *vac, int side, int64_t t)
{
	int64_t end = t;
	for (size_t k = 0; k < vac->count[side]; k++) {
		const struct vacation *v = &vac->list[side][k];
		if (v->start_ms <= t && t < v->end_ms && v->end_ms > end)
			end = v->end_ms;
	}
	return end;
}

/* The first vacation start after t, or INT64_MAX. */
static int64_t next_vacation(const struct clock_vacations *vac, int side, int64_t t)
{
	int64_t next = INT64_MAX;
	for (size_t k = 0; k < vac->count[side]; k++) {
		const struct vacation *v = &vac->list[side][k];
		if (v->start_ms > t && v->end_ms > v->start_ms && v->start_ms < next)
			next = v->start_ms;
	}
	return next;
}

/* The time in [from, to) charged to side: all of it, less side's vacations
 * on a correspondence clock. Overlapping vacations count once. */
static int64_t chargeable(const struct clock *c, int side, int64_t from, int64_t to,
			  const struct clock_vacations *vac)
{
	if (!has_vacations(c, side, vac))
		return span(from, to);
	int64_t t = from, total = 0;
	while (t < to) {
		int64_t end = vacation_end(vac, side, t);
		if (end > t) {
			t = end;
			continue;
		}
		int64_t next = next_vacation(vac, side, t);
		if (next > to)
			next = to;
		total = sat_add(total, span(t, next));
		t = next;
	}
	return total;
}

/* The first instant t >= from with chargeable(from, t) == need. */
static int64_t after_chargeable(const struct clock *c, int side, int64_t from, int64_t need,
				const struct clock_vacations *vac)
{
	if (need <= 0)
		return from;
	if (!has_vacations(c, side, vac))
		return sat_add(from, need);
	int64_t t = from;
	for (;;) {
		int64_t end = vacation_end(vac, side, t);
		if (end > t) {
			t = end;
			continue;
		}
		int64_t next = next_vacation(vac, side, t);
		int64_t gap = span(t, next);
		if (next == INT64_MAX || gap >= need)
			return sat_add(t, need);
		need -= gap;
		t = next;
	}
}

static const struct tc_period *current_period(const struct clock *c, int side)
{
	return &c->tc.periods[c->period[side]];
}

/* What a turn that used `used` costs the side on its clock. */
static int64_t turn_charge(const struct clock *c, int side, int64_t used)
{
	int64_t delay = current_period(c, side)->increment_ms;
	switch (c->tc.kind) {
	case TC_US_DELAY:
		return used > delay ? used - delay : 0;
	case TC_CORRESPONDENCE:
		return used - used % MS_MINUTE;
	case TC_UNLIMITED:
		return 0;
	default:
		return used;
	}
}

/* The running side's use of this turn up to now. */
static int64_t turn_used(const struct clock *c, int64_t now_ms, const struct clock_vacations *vac)
{
	if (c->paused)
		return c->turn_used_ms;
	return sat_add(c->turn_used_ms, chargeable(c, c->running, c->since_ms, now_ms, vac));
}

static bool timed(const struct clock *c)
{
	return c->tc.kind != TC_UNLIMITED && c->tc.n_periods > 0;
}

static void fall(struct clock *c, int side)
{
	c->remaining_ms[side] = 0;
	c->flagged = side;
	c->running = CLOCK_NOBODY;
	c->turn_used_ms = 0;
}

void clock_init(struct clock *c, const struct time_control *tc)
{
	memset(c, 0, sizeof *c);
	c->tc = *tc;
	if (c->tc.n_periods > TC_PERIODS_MAX)
		c->tc.n_periods = TC_PERIODS_MAX;
	if (timed(c))
		c->remaining_ms[WHITE] = c->remaining_ms[BLACK] = c->tc.periods[0].base_ms;
	c->running = CLOCK_NOBODY;
	c->flagged = CLOCK_NOBODY;
}

int clock_start(struct clock *c, enum color side, int64_t now_ms)
{
	if (c->flagged != CLOCK_NOBODY || (side != WHITE && side != BLACK))
		return -1;
	if (c->running == (int)side)
		return 0;
	if (c->running != CLOCK_NOBODY)
		return -1;
	c->running = side;
	c->since_ms = now_ms;
	c->turn_used_ms = 0;
	return 0;
}

static int press(struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac,
		 bool *flagged, bool earns)
{
	if (flagged)
		*flagged = false;
	if (c->flagged != CLOCK_NOBODY || (mover != WHITE && mover != BLACK))
		return -1;
	if (c->running != CLOCK_NOBODY && c->running != (int)mover)
		return -1;

	const struct tc_period *p = current_period(c, mover);
	if (c->running == (int)mover && timed(c)) {
		int64_t used = turn_used(c, now_ms, vac);
		int64_t charge = turn_charge(c, mover, used);
		if (charge >= c->remaining_ms[mover]) {
			fall(c, mover);
			if (flagged)
				*flagged = true;
			return 0;
		}
		c->remaining_ms[mover] -= charge;
		if (c->tc.kind == TC_FISCHER && earns)
			c->remaining_ms[mover] = sat_add(c->remaining_ms[mover], p->increment_ms);
		else if (c->tc.kind == TC_BRONSTEIN)
			c->remaining_ms[mover] += used < p->increment_ms ? used : p->increment_ms;
	} else if (c->tc.kind == TC_FISCHER && earns) {
		/* A move on a stopped clock still earns its increment. */
		c->remaining_ms[mover] = sat_add(c->remaining_ms[mover], p->increment_ms);
	}

	c->moves[mover]++;
	c->period_moves[mover]++;
	if (timed(c) && p->moves && c->period_moves[mover] >= p->moves) {
		/* The period is complete: the next one (or the last again) adds
		 * its time to what is left. */
		if (c->period[mover] + 1 < c->tc.n_periods)
			c->period[mover]++;
		c->period_moves[mover] = 0;
		c->remaining_ms[mover] = sat_add(c->remaining_ms[mover], current_period(c, mover)->base_ms);
	}

	c->running = !mover;
	c->since_ms = now_ms;
	c->turn_used_ms = 0;
	return 0;
}

int clock_press(struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac,
		bool *flagged)
{
	return press(c, mover, now_ms, vac, flagged, true);
}

int clock_press_no_increment(struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac,
			     bool *flagged)
{
	return press(c, mover, now_ms, vac, flagged, false);
}

int64_t clock_move_cost(const struct clock *c, enum color mover, int64_t now_ms, const struct clock_vacations *vac)
{
	if (!timed(c) || c->running != (int)mover)
		return 0;
	int64_t used = turn_used(c, now_ms, vac);
	int64_t charge = turn_charge(c, mover, used);
	int64_t delay = current_period(c, mover)->increment_ms;
	if (c->tc.kind == TC_BRONSTEIN)
		charge -= used < delay ? used : delay;
	return charge;
}

int64_t clock_remaining(const struct clock *c, enum color side, int64_t now_ms, const struct clock_vacations *vac)
{
	if (!timed(c))
		return CLOCK_UNLIMITED;
	if (side != WHITE && side != BLACK)
		return 0;
	int64_t left = c->remaining_ms[side];
	if (c->running == (int)side)
		left -= turn_charge(c, side, turn_used(c, now_ms, vac));
	return left > 0 ? left : 0;
}

int64_t clock_reaching(const struct clock *c, int64_t ms, const struct clock_vacations *vac)
{
	if (!timed(c) || c->paused || c->running == CLOCK_NOBODY)
		return INT64_MAX;
	int side = c->running;
	int64_t need = c->remaining_ms[side] - (ms > 0 ? ms : 0);
	if (need <= 0)
		return c->since_ms;
	/* The turn's use at which the charge reaches need. */
	int64_t threshold;
	switch (c->tc.kind) {
	case TC_US_DELAY:
		threshold = sat_add(need, current_period(c, side)->increment_ms);
		break;
	case TC_CORRESPONDENCE:
		threshold = need % MS_MINUTE ? sat_add(need - need % MS_MINUTE, MS_MINUTE) : need;
		break;
	default:
		threshold = need;
		break;
	}
	return after_chargeable(c, side, c->since_ms, threshold - c->turn_used_ms, vac);
}

int64_t clock_expiry(const struct clock *c, const struct clock_vacations *vac)
{
	return clock_reaching(c, 0, vac);
}

int clock_check_flag(struct clock *c, int64_t now_ms, const struct clock_vacations *vac)
{
	if (!timed(c) || c->running == CLOCK_NOBODY)
		return CLOCK_NOBODY;
	int side = c->running;
	if (clock_remaining(c, side, now_ms, vac) > 0)
		return CLOCK_NOBODY;
	fall(c, side);
	return side;
}

int clock_stop(struct clock *c, int64_t now_ms, const struct clock_vacations *vac)
{
	if (c->running == CLOCK_NOBODY)
		return CLOCK_NOBODY;
	int side = c->running;
	if (clock_check_flag(c, now_ms, vac) != CLOCK_NOBODY)
		return side;
	if (timed(c))
		c->remaining_ms[side] = clock_remaining(c, side, now_ms, vac);
	c->running = CLOCK_NOBODY;
	c->turn_used_ms = 0;
	return CLOCK_NOBODY;
}

void clock_pause(struct clock *c, int64_t now_ms, const struct clock_vacations *vac)
{
	if (c->paused)
		return;
	if (c->running != CLOCK_NOBODY)
		c->turn_used_ms = turn_used(c, now_ms, vac);
	c->paused = true;
}

void clock_resume(struct clock *c, int64_t now_ms)
{
	if (!c->paused)
		return;
	c->paused = false;
	c->since_ms = now_ms;
}

int clock_add_time(struct clock *c, enum color side, int64_t ms)
{
	if (ms < 0 || c->flagged != CLOCK_NOBODY || (side != WHITE && side != BLACK))
		return -1;
	c->remaining_ms[side] = sat_add(c->remaining_ms[side], ms);
	return 0;
}

static bool tc_fits(const struct time_control *tc, const struct ruleset_tc *a)
{
	const struct tc_period *p = &tc->periods[0];
	if (tc->n_periods != 1)
		return false;
	if (a->family == RULESET_TC_CORRESPONDENCE)
		return tc->kind == TC_CORRESPONDENCE && p->base_ms == a->base_ms && p->moves == a->moves;
	/* "with or without time credit": a Fischer increment, or none. */
	return tc->kind == TC_FISCHER && p->moves == 0 && p->base_ms == a->base_ms;
}

enum tchess_err time_control_allowed(const struct time_control *tc, const struct ruleset *r,
				     struct tchess_error *err)
{
	if (r->n_time_controls <= 0)
		return TCHESS_OK;
	for (int i = 0; i < r->n_time_controls && i < RULESET_TCS_MAX; i++) {
		if (tc_fits(tc, &r->time_controls[i]))
			return TCHESS_OK;
	}
	/* "the chessgamble rules allow only corr:10d/10, corr:20d/10 and 5,
	 * 10, 20 or 30 minutes with or without increment (5+0, 5+3)". */
	char msg[sizeof err->message], num[24];
	size_t len = 0;
	int n_quick = 0, seen = 0, first = 0;
	put_str(msg, sizeof msg, &len, "the ");
	put_str(msg, sizeof msg, &len, r->name);
	put_str(msg, sizeof msg, &len, " rules allow only ");
	for (int i = 0; i < r->n_time_controls && i < RULESET_TCS_MAX; i++)
		n_quick += r->time_controls[i].family == RULESET_TC_QUICK;
	for (int i = 0; i < r->n_time_controls && i < RULESET_TCS_MAX; i++) {
		const struct ruleset_tc *a = &r->time_controls[i];
		if (a->family != RULESET_TC_CORRESPONDENCE)
			continue;
		struct time_control c = { .kind = TC_CORRESPONDENCE, .n_periods = 1 };
		char text[TIME_CONTROL_TEXT_MAX];
		c.periods[0].base_ms = a->base_ms;
		c.periods[0].moves = a->moves;
		time_control_format(&c, text, sizeof text);
		put_str(msg, sizeof msg, &len, seen++ ? ", " : "");
		put_str(msg, sizeof msg, &len, text);
	}
	if (seen && n_quick)
		put_str(msg, sizeof msg, &len, " and ");
	seen = 0;
	for (int i = 0; i < r->n_time_controls && i < RULESET_TCS_MAX; i++) {
		const struct ruleset_tc *a = &r->time_controls[i];
		if (a->family != RULESET_TC_QUICK)
			continue;
		if (!seen)
			first = (int)(a->base_ms / MS_MINUTE);
		put_str(msg, sizeof msg, &len, !seen ? "" : seen + 1 == n_quick ? " or " : ", ");
		seen++;
		snprintf(num, sizeof num, "%lld", (long long)(a->base_ms / MS_MINUTE));
		put_str(msg, sizeof msg, &len, num);
	}
	if (n_quick) {
		snprintf(num, sizeof num, "%d+0, %d+3)", first, first);
		put_str(msg, sizeof msg, &len, " minutes with or without increment (");
		put_str(msg, sizeof msg, &len, num);
	}
	msg[len < sizeof msg ? len : sizeof msg - 1] = '\0'; /* put_str leaves the NUL to us */
	return tchess_error_set(err, TCHESS_ERR_NOT_ALLOWED, 0, "%s", msg);
}
