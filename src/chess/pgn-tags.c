/*
 * The tags whose values the PGN standard defines and the rules core knows
 * the meaning of: TimeControl (section 9.6.1 of the standard: seconds,
 * "moves/seconds" periods, "-", "?", "*sandclock") and Termination (9.8.1:
 * "normal", "time forfeit", ...). tchess's own forms (the clock grammar of
 * tchess/clock.h, the game_termination names) go in tags of their own
 * beside them, so nothing is lost and other tools read the standard ones.
 */
#include <stdio.h>
#include <string.h>

#include "tchess/game.h"
#include "tchess/pgn.h"

const char *pgn_termination_value(enum game_termination t, enum game_result r)
{
	switch (t) {
	case GAME_TERM_NONE:
	case GAME_TERM_ADJOURNED:
	case GAME_TERM_COUNT:
		return "unterminated";
	case GAME_TERM_TIMEOUT:
	case GAME_TERM_TIMEOUT_VS_INSUFFICIENT:
		return "time forfeit";
	case GAME_TERM_ABORTED:
		return "abandoned";
	case GAME_TERM_TABLEBASE:
		/* The server's tables decided, as an adjudicator would. */
		return "adjudication";
	case GAME_TERM_TECHNICAL_FAILURE:
		/* A player gone for good loses an abandoned game; with no
		 * winner it ended by circumstances. */
		return r == GAME_RESULT_WHITE_WINS || r == GAME_RESULT_BLACK_WINS ? "abandoned" : "emergency";
	case GAME_TERM_CHECKMATE:
	case GAME_TERM_RESIGNATION:
	case GAME_TERM_STALEMATE:
	case GAME_TERM_INSUFFICIENT_MATERIAL:
	case GAME_TERM_DEAD_POSITION:
	case GAME_TERM_THREEFOLD:
	case GAME_TERM_FIVEFOLD:
	case GAME_TERM_FIFTY_MOVES:
	case GAME_TERM_SEVENTYFIVE_MOVES:
	case GAME_TERM_AGREEMENT:
		break;
	}
	return "normal";
}

enum tchess_err pgn_set_termination(struct pgn_game *g, enum game_termination t, enum game_result r)
{
	enum tchess_err rc = pgn_game_set_tag(g, "Termination", pgn_termination_value(t, r));
	if (rc == TCHESS_OK && t != GAME_TERM_NONE)
		rc = pgn_game_set_tag(g, "TerminationDetail", game_termination_str(t));
	return rc;
}

/* Appends ms as seconds: whole, or with the digits a fraction needs. */
static size_t put_seconds(char *buf, size_t size, size_t n, int64_t ms)
{
	int len;
	if (ms % 1000 == 0)
		len = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, "%lld", (long long)(ms / 1000));
	else if (ms % 100 == 0)
		len = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, "%lld.%lld",
			       (long long)(ms / 1000), (long long)(ms % 1000 / 100));
	else
		len = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, "%lld.%03lld",
			       (long long)(ms / 1000), (long long)(ms % 1000));
	return n + (size_t)(len > 0 ? len : 0);
}

static size_t put_text(char *buf, size_t size, size_t n, const char *s)
{
	int len = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, "%s", s);
	return n + (size_t)(len > 0 ? len : 0);
}

size_t pgn_time_control_write(const struct time_control *tc, char *buf, size_t size)
{
	size_t n = 0;
	char num[24];
	if (size)
		buf[0] = '\0';
	if (tc->kind == TC_UNLIMITED || tc->n_periods <= 0)
		return put_text(buf, size, n, "-");
	for (int i = 0; i < tc->n_periods && i < TC_PERIODS_MAX; i++) {
		const struct tc_period *p = &tc->periods[i];
		if (i)
			n = put_text(buf, size, n, ":");
		if (p->moves > 0) {
			snprintf(num, sizeof num, "%d/", p->moves);
			n = put_text(buf, size, n, num);
		}
		n = put_seconds(buf, size, n, p->base_ms);
		/* The standard's "moves/seconds" field has no increment; an
		 * increment there is written the way python-chess and
		 * cutechess read it ("40/5400+30"). Sudden death always
		 * carries one ("300+0"), as Lichess writes it. */
		if (tc->kind == TC_CORRESPONDENCE || (p->moves > 0 && p->increment_ms == 0))
			continue;
		n = put_text(buf, size, n, "+");
		n = put_seconds(buf, size, n, p->increment_ms);
		/* No standard form for delays: python-chess reads "+3d" as one. */
		if (tc->kind == TC_BRONSTEIN || tc->kind == TC_US_DELAY)
			n = put_text(buf, size, n, "d");
	}
	return n;
}

/* Reads a decimal number of seconds (digits, optionally '.' and up to three
 * digits) at s into *ms; returns the bytes read, 0 if none. */
static size_t read_seconds(const char *s, int64_t *ms)
{
	size_t i = 0;
	int64_t v = 0;
	while (s[i] >= '0' && s[i] <= '9') {
		if (v > TC_CORR_MAX_MS)
			return 0;
		v = v * 10 + (s[i] - '0') * 1000;
		i++;
	}
	if (i == 0)
		return 0;
	if (s[i] == '.') {
		size_t j = i + 1;
		int64_t scale = 100;
		while (s[j] >= '0' && s[j] <= '9') {
			if (scale == 0)
				return 0;
			v += (s[j] - '0') * scale;
			scale /= 10;
			j++;
		}
		if (j == i + 1)
			return 0;
		i = j;
	}
	*ms = v;
	return i;
}

enum tchess_err pgn_time_control_parse(const char *text, struct time_control *out, struct tchess_error *err)
{
	struct time_control tc;
	const char *s = text ? text : "";
	size_t i = 0;
	bool delay = false;

	memset(&tc, 0, sizeof tc);
	while (s[i] == ' ')
		i++;
	if (s[i] == '?' || s[i] == '\0')
		return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "the time control is unknown ('?')");
	if (s[i] == '-' && s[i + 1 + strspn(s + i + 1, " ")] == '\0') {
		*out = tc; /* TC_UNLIMITED */
		return TCHESS_OK;
	}
	if (s[i] == '*')
		return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "sandclock time controls ('%s') are not supported",
					s + i);
	for (;;) {
		struct tc_period p = { 0, 0, 0 };
		int64_t v;
		size_t k;
		if (tc.n_periods == TC_PERIODS_MAX)
			return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "more than %d periods", TC_PERIODS_MAX);
		if (!(k = read_seconds(s + i, &v)))
			return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "expected seconds at '%s'", s + i);
		i += k;
		if (s[i] == '/') {
			if (v % 1000 || v <= 0 || v / 1000 > TC_MOVES_MAX)
				return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "bad move count before '/'");
			p.moves = (int)(v / 1000);
			i++;
			if (!(k = read_seconds(s + i, &v)))
				return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "expected seconds at '%s'",
							s + i);
			i += k;
		}
		p.base_ms = v;
		if (s[i] == '+') {
			i++;
			if (!(k = read_seconds(s + i, &p.increment_ms)))
				return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "expected seconds at '%s'",
							s + i);
			i += k;
			if (s[i] == 'd' || s[i] == 'D') {
				delay = true;
				i++;
			}
		}
		tc.periods[tc.n_periods++] = p;
		if (s[i] != ':')
			break;
		i++;
	}
	while (s[i] == ' ')
		i++;
	if (s[i] != '\0')
		return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, i, "unexpected '%s' in the time control", s + i);
	tc.kind = delay ? TC_US_DELAY : TC_FISCHER;
	/* The standard has no correspondence form: one repeating period longer
	 * than a day ("10/864000", ten days per ten moves) is one. */
	if (tc.n_periods == 1 && tc.periods[0].moves > 0 && tc.periods[0].increment_ms == 0 &&
	    tc.periods[0].base_ms > TC_TIME_MAX_MS)
		tc.kind = TC_CORRESPONDENCE;
	enum tchess_err rc = time_control_validate(&tc, err);
	if (rc != TCHESS_OK)
		return rc;
	*out = tc;
	return TCHESS_OK;
}

enum tchess_err pgn_game_time_control(const struct pgn_game *g, struct time_control *tc, struct tchess_error *err)
{
	const char *own = pgn_game_tag(g, PGN_TAG_TCHESS_TIME_CONTROL);
	const char *std = pgn_game_tag(g, "TimeControl");
	const char *proto = pgn_game_tag(g, "Protocol");
	if (own)
		return time_control_parse(tc, own, err);
	if (!std)
		return tchess_error_set(err, TCHESS_ERR_TIME_CONTROL, 0, "the game has no TimeControl tag");
	/* tchessd wrote its own minutes form ("5+3") there before it wrote
	 * the standard one beside its own tag. */
	if (proto && !strncmp(proto, "tchess/", 7))
		return time_control_parse(tc, std, err);
	return pgn_time_control_parse(std, tc, err);
}
