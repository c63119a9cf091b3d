/*
 * A game's PGN as tchessd serves it (GET /v1/games/ID/pgn): the tags of
 * tchess-protocol(7) from the view, its moves with their clocks, and the
 * public notes as comments at the moves they follow. The text itself is
 * libtchess's writer (tchess/pgn.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fold-internal.h"
#include "util/xalloc.h"

static const char *seat_name(const struct fold_seat *s, char *buf, size_t size)
{
	switch (s->kind) {
	case FOLD_SEAT_HUMAN:
		return s->name;
	case FOLD_SEAT_ENGINE:
		snprintf(buf, size, "engine level %d", s->level);
		return buf;
	default:
		return "?";
	}
}

enum tchess_err fold_pgn_write(const struct game_view *v, const char *id, const struct fold_note *notes,
			       size_t n_notes, struct pgn_buf *out, struct tchess_error *err)
{
	struct pgn_game g;
	char buf[64];
	enum tchess_err rc = TCHESS_OK;
	pgn_game_init(&g);
	g.start = v->game.start;
	snprintf(g.result, sizeof g.result, "%s", game_result_str(v->game.result));
	rc = pgn_game_set_tag(&g, "Event", "tchess game");
	if (!rc)
		rc = pgn_game_set_tag(&g, "Site", "tchessd");
	if (!rc && v->created_ms > 0) {
		/* Days since the epoch to a civil date (proleptic Gregorian),
		 * without gmtime's locale and time-zone state. */
		int64_t z = v->created_ms / 86400000 + 719468;
		int64_t era = z / 146097, doe = z - era * 146097;
		int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
		int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
		int64_t y = yoe + era * 400 + (m <= 2);
		snprintf(buf, sizeof buf, "%04lld.%02lld.%02lld", (long long)y, (long long)m, (long long)d);
		rc = pgn_game_set_tag(&g, "Date", buf);
	}
	/* A series game's Round is its number in the series. */
	struct fold_series series;
	if (!rc && fold_series_after(v, id, &series)) {
		snprintf(buf, sizeof buf, "%d", series.game);
		rc = pgn_game_set_tag(&g, "Round", buf);
	} else if (!rc) {
		rc = pgn_game_set_tag(&g, "Round", "-");
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, "White", seat_name(&v->seats[WHITE], buf, sizeof buf));
	if (!rc)
		rc = pgn_game_set_tag(&g, "Black", seat_name(&v->seats[BLACK], buf, sizeof buf));
	if (!rc)
		rc = pgn_game_set_tag(&g, "Result", g.result);
	/* The standard's seconds form for other tools, tchess's own text
	 * beside it (the standard cannot say Bronstein or correspondence). */
	struct time_control tc;
	char tc_text[TIME_CONTROL_TEXT_MAX];
	if (!rc && time_control_parse(&tc, v->tc, NULL) == TCHESS_OK) {
		pgn_time_control_write(&tc, tc_text, sizeof tc_text);
		rc = pgn_game_set_tag(&g, "TimeControl", tc_text);
	} else if (!rc) {
		rc = pgn_game_set_tag(&g, "TimeControl", "?");
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, PGN_TAG_TCHESS_TIME_CONTROL, v->tc);
	if (!rc)
		rc = pgn_game_set_tag(&g, "Ruleset", v->game.rules.name);
	if (!rc) {
		snprintf(buf, sizeof buf, "tchess/%d", PROTOCOL_VERSION);
		rc = pgn_game_set_tag(&g, "Protocol", buf);
	}
	if (!rc)
		rc = pgn_game_set_tag(&g, "GameId", id);
	if (!rc)
		rc = pgn_set_termination(&g, v->game.termination, v->game.result);
	for (size_t i = 0; !rc && i < v->game.n_plies; i++) {
		rc = pgn_game_add_move(&g, v->game.plies[i].m);
		int64_t ms = v->game.plies[i].clock_ms;
		if (!rc && ms >= 0 && ms != CLOCK_UNLIMITED)
			g.moves[i].clock_ms = ms;
	}
	/* Each note at the last move played before it ("{note by alice:
	 * ...}"), several at one move joined; one before any move opens the
	 * movetext. */
	for (size_t k = 0; !rc && k < n_notes; k++) {
		size_t at = 0;
		while (at < v->game.n_plies && v->plies[at].seq < notes[k].seq)
			at++;
		const char *who = NULL;
		for (int c = 0; c < 2; c++)
			if (notes[k].player > 0 && v->seats[c].kind == FOLD_SEAT_HUMAN &&
			    v->seats[c].player == notes[k].player)
				who = v->seats[c].name;
		char **slot = at ? &g.moves[at - 1].comment : &g.comment_start;
		char *c = xasprintf("%s%snote%s%s: %s", *slot ? *slot : "", *slot ? " " : "", who ? " by " : "",
				    who ? who : "", notes[k].text ? notes[k].text : "");
		free(*slot);
		*slot = c;
	}
	if (!rc)
		rc = pgn_write_game(&g, out, err);
	else
		tchess_error_set(err, rc, 0, "%s", tchess_strerror(rc));
	pgn_game_fini(&g);
	return rc;
}
