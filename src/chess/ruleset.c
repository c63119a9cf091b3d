/*
 * The ruleset presets, one per rule document in the seeds.
 */
#include <stdio.h>
#include <string.h>

#include "tchess/ruleset.h"

const char *const ruleset_preset_names[] = { "fide", "yourpot", "chessgamble", NULL };

static void common(struct ruleset *r, const char *name)
{
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	r->abort_alone_max_plies = 2;
	r->abort_by_consent = true;
	r->disconnect_grace_ms = 15000;
	r->discard_claims_per_day = 1;
	r->discards_to_lose = 3;
	r->resume_answer_ms = 60000;
	r->resume_absent_ms = 86400000;
	r->premove_depth = 1;
	r->invalid_command_limit = 10;
	r->first_move_timeout_ms = 30000;
	r->premove_increment = true;
	r->tablebase_fifty_moves = true;
}

bool ruleset_preset(struct ruleset *r, const char *name)
{
	if (!name)
		return false;
	if (!strcmp(name, "fide")) {
		common(r, name);
		r->threefold = DRAW_BY_CLAIM;
		r->fifty_moves = DRAW_BY_CLAIM;
		r->offer_lifetime = OFFER_UNTIL_OPPONENT_MOVES;
		r->offer_own_move_only = false;
		r->disconnect = DISCONNECT_TECHNICAL_FAILURE;
		r->premove_relax = 0;
		return true;
	}
	if (!strcmp(name, "yourpot")) {
		common(r, name);
		r->threefold = DRAW_AUTOMATIC;
		r->fifty_moves = DRAW_AUTOMATIC;
		r->offer_lifetime = OFFER_UNTIL_WITHDRAWN;
		r->offer_own_move_only = true;
		r->disconnect = DISCONNECT_ADJOURN;
		r->tablebase_max_pieces = 6;
		r->tablebase_penalty_ms[SPEED_BULLET] = 30000;
		r->tablebase_penalty_ms[SPEED_FAST_BLITZ] = 60000;
		r->tablebase_penalty_ms[SPEED_BLITZ] = 60000;
		r->tablebase_penalty_ms[SPEED_STANDARD] = 120000;
		r->tablebase_penalty_ms[SPEED_CORRESPONDENCE] = 120000;
		/* "really a draw according to the ending tables of Nalimov" */
		r->tablebase_fifty_moves = false;
		r->premove_relax = PREMOVE_RELAX_ALL;
		/* "the move is performed without changing the overall timing
		 * of the player" */
		r->premove_increment = false;
		return true;
	}
	if (!strcmp(name, "chessgamble")) {
		common(r, name);
		r->threefold = DRAW_AUTOMATIC;
		r->fifty_moves = DRAW_AUTOMATIC;
		r->offer_lifetime = OFFER_UNTIL_TURN_ENDS;
		r->offer_own_move_only = true;
		r->offer_min_interval_plies = 10;
		/* No abort: the document ends games only by the rules of its
		 * Article 5, and "a tournament ends when all the games of the
		 * tournament is finished" (6.4). */
		r->abort_alone_max_plies = 0;
		r->abort_by_consent = false;
		r->disconnect = DISCONNECT_CLAIM_WIN;
		/* 11.2: "If chessgamble comes to the conclusion that a player
		 * is not active on the website anymore, the game can be
		 * declared as lost": the player's activity, in any game. */
		r->activity_per_player = true;
		r->premove_relax = 0;
		/* Article 7: "correspondence chess: X days for 10 moves (where
		 * X = 10, 20 or 30)" and "chess X minutes (where X = 5, 10, 20
		 * or 30) with or without time credit". */
		for (int i = 0; i < 3; i++)
			r->time_controls[r->n_time_controls++] = (struct ruleset_tc){
				RULESET_TC_CORRESPONDENCE, (i + 1) * 10 * 86400000LL, 10 };
		static const int minutes[] = { 5, 10, 20, 30 };
		for (int i = 0; i < 4; i++)
			r->time_controls[r->n_time_controls++] =
				(struct ruleset_tc){ RULESET_TC_QUICK, minutes[i] * 60000LL, 0 };
		return true;
	}
	return false;
}

bool ruleset_validate(const struct ruleset *r, const char **why)
{
	const char *msg = NULL;
	if (r->threefold != DRAW_BY_CLAIM && r->threefold != DRAW_AUTOMATIC)
		msg = "threefold must be 'claim' or 'automatic'";
	else if (r->fifty_moves != DRAW_BY_CLAIM && r->fifty_moves != DRAW_AUTOMATIC)
		msg = "fifty-move rule must be 'claim' or 'automatic'";
	else if ((unsigned)r->offer_lifetime > OFFER_UNTIL_OPPONENT_MOVES)
		msg = "unknown draw-offer lifetime";
	else if ((unsigned)r->disconnect > DISCONNECT_CLAIM_WIN)
		msg = "unknown disconnect policy";
	else if (r->disconnect_grace_ms < 1000 || r->disconnect_grace_ms > 3600000)
		msg = "disconnect grace must be from 1 s to 1 h";
	else if (r->resume_answer_ms < 1000 || r->resume_answer_ms > 86400000)
		msg = "resume answer time must be from 1 s to 1 day";
	else if (r->resume_absent_ms < 60000 || r->resume_absent_ms > 30 * 86400000LL)
		msg = "resume absence time must be from 1 min to 30 days";
	else if (r->premove_depth < 1 || r->premove_depth > PREMOVE_DEPTH_MAX)
		msg = "premove depth must be from 1 to 8";
	else if (r->premove_relax & ~(unsigned)PREMOVE_RELAX_ALL)
		msg = "unknown premove relaxation";
	else if (r->tablebase_max_pieces < 0 || r->tablebase_max_pieces > 7)
		msg = "tablebase piece limit must be from 0 to 7";
	else if (r->n_time_controls < 0 || r->n_time_controls > RULESET_TCS_MAX)
		msg = "at most 8 allowed time controls";
	else if (r->abort_alone_max_plies < 0 || r->offer_min_interval_plies < 0 || r->invalid_command_limit < 1)
		msg = "negative limit";
	if (msg && why)
		*why = msg;
	return msg == NULL;
}
