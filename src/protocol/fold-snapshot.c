/*
 * A game's snapshot (GET /v1/games/ID, and the "snapshot" of a resync
 * answer to a client far behind): the encoder, and the decoder that
 * rebuilds a view from it so the fold can go on from the snapshot's seq as
 * if it had folded the whole log (tchess/fold.h). Side by side so their
 * members cannot drift apart.
 *
 * The public members describe the game; "state" carries what the fold
 * keeps beyond them (the clock's inner state, offer bookkeeping, an undo
 * game's turn), so that a rebuilt view encodes to the very same snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-internal.h"
#include "util/xalloc.h"

/* ---- encoding ---- */

static cJSON *nullable_id(const char *id)
{
	return fold_json_nullable_string(id[0] ? id : NULL);
}

/* The snapshot's series member: the score after this game, by this game's
 * colours, in points (halves as .5). */
static cJSON *series_snapshot(const struct game_view *v, const char *id)
{
	struct fold_series s;
	if (!fold_series_after(v, id, &s)) {
		cJSON *n = cJSON_CreateNull();
		if (!n)
			xalloc_die();
		return n;
	}
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "id", s.id);
	protocol_json_add_int(o, "game", s.game);
	protocol_json_add_item(o, "previous", nullable_id(s.previous));
	protocol_json_add_item(o, "next", nullable_id(v->next_game));
	cJSON *score = protocol_json_object();
	if (!cJSON_AddNumberToObject(score, "white", s.score.half[WHITE] / 2.0) ||
	    !cJSON_AddNumberToObject(score, "black", s.score.half[BLACK] / 2.0))
		xalloc_die();
	protocol_json_add_item(o, "score", score);
	protocol_json_add_int(o, "games", s.score.games);
	protocol_json_add_int(o, "scored", s.score.scored);
	return o;
}

static cJSON *provisional_snapshot(const struct game_view *v)
{
	if (!takeback_pending(&v->turn)) {
		cJSON *n = cJSON_CreateNull();
		if (!n)
			xalloc_die();
		return n;
	}
	char uci[UCI_MAX], san[SAN_MAX], fen[FEN_MAX];
	struct position p;
	uci_write(&v->game.pos, v->turn.pending, uci);
	san_write(&v->game.pos, v->turn.pending, san);
	fold_board(v, &p);
	fen_write(&p, fen);
	cJSON *o = protocol_json_object();
	protocol_json_add_string(o, "color", fold_color_str(v->turn.color));
	protocol_json_add_string(o, "uci", uci);
	protocol_json_add_string(o, "san", san);
	protocol_json_add_string(o, "fen", fen);
	return o;
}

/* {"white": w, "black": b} */
static cJSON *pair_json(int64_t w, int64_t b)
{
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "white", w);
	protocol_json_add_int(o, "black", b);
	return o;
}

static cJSON *remaining_json(int64_t ms)
{
	if (ms == CLOCK_UNLIMITED)
		return fold_json_nullable_string(NULL);
	cJSON *n = cJSON_CreateNumber((double)fold_json_clamp_ms(ms));
	if (!n)
		xalloc_die();
	return n;
}

/* The clock's inner state, as struct clock has it (not a reading). */
static cJSON *clock_state_json(const struct clock *c)
{
	cJSON *o = protocol_json_object();
	cJSON *rem = protocol_json_object();
	protocol_json_add_item(rem, "white", remaining_json(c->remaining_ms[WHITE]));
	protocol_json_add_item(rem, "black", remaining_json(c->remaining_ms[BLACK]));
	protocol_json_add_item(o, "remaining_ms", rem);
	protocol_json_add_item(o, "moves", pair_json(c->moves[WHITE], c->moves[BLACK]));
	protocol_json_add_item(o, "period", pair_json(c->period[WHITE], c->period[BLACK]));
	protocol_json_add_item(o, "period_moves", pair_json(c->period_moves[WHITE], c->period_moves[BLACK]));
	protocol_json_add_item(o, "running", fold_json_nullable_string(fold_color_str(c->running)));
	protocol_json_add_item(o, "flagged", fold_json_nullable_string(fold_color_str(c->flagged)));
	protocol_json_add_item(o, "paused", cJSON_CreateBool(c->paused));
	protocol_json_add_int(o, "since_ms", c->since_ms);
	protocol_json_add_int(o, "turn_used_ms", c->turn_used_ms);
	return o;
}

/* The viewer's premove queue item by item, as struct premove has it: the
 * public texts do not say which king moves castle. */
static cJSON *premove_items_json(const struct game_view *v, int64_t viewer)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	int mine = fold_seat_of(v, viewer);
	for (int i = 0; mine >= 0 && i < v->premoves[mine].n; i++) {
		const struct premove *pm = &v->premoves[mine].items[i];
		cJSON *o = protocol_json_object();
		protocol_json_add_int(o, "from", pm->from);
		protocol_json_add_int(o, "to", pm->to);
		protocol_json_add_int(o, "promo", pm->promo);
		protocol_json_add_item(o, "castling", cJSON_CreateBool(pm->castling));
		if (!cJSON_AddItemToArray(a, o))
			xalloc_die();
	}
	return a;
}

static cJSON *state_json(const struct game_view *v, int64_t viewer)
{
	cJSON *o = protocol_json_object();
	char uci[UCI_MAX] = "";
	protocol_json_add_int(o, "created_ms", v->created_ms);
	if (v->started) {
		protocol_json_add_int(o, "started_ms", v->started_ms);
	} else {
		protocol_json_add_item(o, "started_ms", fold_json_nullable_string(NULL));
	}
	protocol_json_add_int(o, "last_t_ms", v->last_t_ms);
	protocol_json_add_item(o, "series", v->series.id[0] ? fold_json_series(&v->series)
							   : fold_json_nullable_string(NULL));
	protocol_json_add_item(o, "clock", clock_state_json(&v->clock));
	protocol_json_add_int(o, "offer_ply", (int64_t)v->game.offer_ply);
	protocol_json_add_item(o, "last_offer_ply", pair_json(v->game.last_offer_ply[WHITE],
							       v->game.last_offer_ply[BLACK]));
	if (v->game.claim_move != MOVE_NONE)
		uci_write(&v->game.pos, v->game.claim_move, uci);
	protocol_json_add_string(o, "claim_move", uci);
	protocol_json_add_item(o, "discard_day", pair_json(v->discard_day[WHITE], v->discard_day[BLACK]));
	protocol_json_add_item(o, "discard_day_claims",
			       pair_json(v->discard_day_claims[WHITE], v->discard_day_claims[BLACK]));
	protocol_json_add_int(o, "resume_since_ms", v->resume_since_ms);
	cJSON *declined = protocol_json_object();
	protocol_json_add_item(declined, "white", cJSON_CreateBool(v->resume_declined[WHITE]));
	protocol_json_add_item(declined, "black", cJSON_CreateBool(v->resume_declined[BLACK]));
	protocol_json_add_item(o, "resume_declined", declined);
	cJSON *turn = protocol_json_object();
	protocol_json_add_item(turn, "color", fold_json_nullable_string(fold_color_str(v->turn.color)));
	protocol_json_add_int(turn, "ply", (int64_t)v->turn.ply);
	protocol_json_add_int(turn, "made_ms", v->turn.made_ms);
	protocol_json_add_int(turn, "takebacks", v->turn.takebacks);
	protocol_json_add_item(o, "turn", turn);
	protocol_json_add_item(o, "premoves", premove_items_json(v, viewer));
	protocol_json_add_item(o, "end_color", fold_json_nullable_string(fold_color_str(v->end_color)));
	return o;
}

char *fold_snapshot_encode(const struct game_view *v, const char *id, int64_t now_ms, int64_t viewer)
{
	return fold_snapshot_encode_seq(v, id, now_ms, viewer, v->seq, NULL, NULL);
}

/* The seats' vacations: {"white": [{"start_ms", "end_ms"}...], "black": [...]}. */
static cJSON *vacations_json(const struct game_view *v)
{
	cJSON *vacs = protocol_json_object();
	for (int side = WHITE; side <= BLACK; side++) {
		cJSON *a = cJSON_CreateArray();
		if (!a)
			xalloc_die();
		for (size_t k = 0; k < v->n_vacations[side]; k++) {
			cJSON *iv = protocol_json_object();
			protocol_json_add_int(iv, "start_ms", v->vacations[side][k].start_ms);
			protocol_json_add_int(iv, "end_ms", v->vacations[side][k].end_ms);
			if (!cJSON_AddItemToArray(a, iv))
				xalloc_die();
		}
		protocol_json_add_item(vacs, fold_color_str(side), a);
	}
	return vacs;
}

char *fold_vacations_encode(const struct game_view *v)
{
	return protocol_json_print(vacations_json(v));
}

char *fold_snapshot_encode_seq(const struct game_view *v, const char *id, int64_t now_ms, int64_t viewer, int64_t seq,
			       int64_t (*seq_of)(const void *ctx, int64_t s), const void *ctx)
{
	cJSON *o = protocol_json_object();
	char fen[FEN_MAX];
	protocol_json_add_string(o, "id", id);
	protocol_json_add_int(o, "seq", seq < v->seq ? seq : v->seq);
	protocol_json_add_int(o, "now_ms", now_ms);
	protocol_json_add_string(o, "status", fold_status(v));
	protocol_json_add_string(o, "tc", v->tc);
	protocol_json_add_string(o, "ruleset", v->game.rules.name);
	protocol_json_add_string(o, "opponent", v->opponent);
	protocol_json_add_item(o, "white", fold_json_seat(&v->seats[WHITE]));
	protocol_json_add_item(o, "black", fold_json_seat(&v->seats[BLACK]));
	fen_write(&v->game.start, fen);
	protocol_json_add_string(o, "initial_fen", fen);
	fen_write(&v->game.pos, fen);
	protocol_json_add_string(o, "fen", fen);
	protocol_json_add_int(o, "ply", (int64_t)v->game.n_plies);
	protocol_json_add_string(o, "turn", fold_color_str(game_side_to_move(&v->game)));
	cJSON *moves = cJSON_CreateArray();
	if (!moves)
		xalloc_die();
	struct position p = v->game.start;
	for (size_t i = 0; i < v->game.n_plies; i++) {
		const struct game_ply *gp = &v->game.plies[i];
		char uci[UCI_MAX], san[SAN_MAX];
		uci_write(&p, gp->m, uci);
		san_write(&p, gp->m, san);
		cJSON *m = protocol_json_object();
		protocol_json_add_int(m, "ply", (int64_t)i);
		protocol_json_add_string(m, "color", fold_color_str(p.side));
		protocol_json_add_string(m, "uci", uci);
		protocol_json_add_string(m, "san", san);
		protocol_json_add_int(m, "t_ms", gp->at_ms);
		protocol_json_add_int(m, "think_ms", v->plies[i].think_ms);
		if (v->plies[i].charged_ms >= 0)
			protocol_json_add_int(m, "charged_ms", v->plies[i].charged_ms);
		protocol_json_add_int(m, "clock_ms", fold_json_clamp_ms(gp->clock_ms));
		protocol_json_add_item(m, "premove", cJSON_CreateBool(v->plies[i].premove));
		protocol_json_add_int(m, "seq", seq_of ? seq_of(ctx, v->plies[i].seq) : v->plies[i].seq);
		if (!cJSON_AddItemToArray(moves, m))
			xalloc_die();
		struct undo u;
		position_make(&p, gp->m, &u);
	}
	protocol_json_add_item(o, "moves", moves);
	struct fold_clock_reading c;
	fold_clock_read(v, now_ms, &c);
	protocol_json_add_item(o, "clock", fold_json_clock(&c));
	protocol_json_add_string(o, "result", game_result_str(v->game.result));
	protocol_json_add_string(o, "termination", game_termination_str(v->game.termination));
	protocol_json_add_item(o, "vacations", vacations_json(v));
	cJSON *offers = protocol_json_object();
	protocol_json_add_item(offers, "draw", fold_json_nullable_string(fold_color_str(v->game.offer_by)));
	protocol_json_add_item(offers, "abort", fold_json_nullable_string(fold_color_str(v->game.abort_request_by)));
	protocol_json_add_item(offers, "adjourn", fold_json_nullable_string(fold_color_str(v->adjourn_request_by)));
	protocol_json_add_item(offers, "resume", fold_json_nullable_string(fold_color_str(v->resume_request_by)));
	protocol_json_add_item(offers, "rematch", fold_json_nullable_string(fold_color_str(v->rematch_by)));
	protocol_json_add_item(o, "offers", offers);
	protocol_json_add_item(o, "undo", cJSON_CreateBool(v->undo));
	/* The game's options over its ruleset's presets. */
	protocol_json_add_int(o, "premove_depth", v->game.rules.premove_depth);
	protocol_json_add_int(o, "first_move_ms", v->game.rules.first_move_timeout_ms);
	protocol_json_add_item(o, "provisional", provisional_snapshot(v));
	protocol_json_add_item(o, "series", series_snapshot(v, id));
	protocol_json_add_string(o, "reason", v->end_reason);
	cJSON *absent = protocol_json_object();
	protocol_json_add_item(absent, "white", cJSON_CreateBool(v->absent[WHITE]));
	protocol_json_add_item(absent, "black", cJSON_CreateBool(v->absent[BLACK]));
	protocol_json_add_item(o, "absent", absent);
	cJSON *left = protocol_json_object();
	for (int side = WHITE; side <= BLACK; side++) {
		cJSON *l;
		if (v->left_gone_ms[side] > 0) {
			l = protocol_json_object();
			protocol_json_add_int(l, "gone_ms", v->left_gone_ms[side]);
			if (v->left_claim_ms[side] > 0)
				protocol_json_add_int(l, "claim_ms", v->left_claim_ms[side]);
			else
				protocol_json_add_item(l, "claim_ms", cJSON_CreateNull());
		} else if (!(l = cJSON_CreateNull())) {
			xalloc_die();
		}
		protocol_json_add_item(left, fold_color_str(side), l);
	}
	protocol_json_add_item(o, "left", left);
	cJSON *discards = protocol_json_object();
	protocol_json_add_int(discards, "white", v->discards[WHITE]);
	protocol_json_add_int(discards, "black", v->discards[BLACK]);
	protocol_json_add_item(o, "discards", discards);
	int mine = fold_seat_of(v, viewer);
	if (mine >= 0 && v->premoves[mine].n > 0) {
		cJSON *pm = protocol_json_object();
		cJSON *a = cJSON_CreateArray();
		if (!a)
			xalloc_die();
		protocol_json_add_string(pm, "color", fold_color_str(mine));
		for (int i = 0; i < v->premoves[mine].n; i++) {
			char buf[PREMOVE_TEXT_MAX];
			premove_write(&v->premoves[mine].items[i], v->game.pos.chess960, buf);
			cJSON *s = cJSON_CreateString(buf);
			if (!s || !cJSON_AddItemToArray(a, s))
				xalloc_die();
		}
		protocol_json_add_item(pm, "moves", a);
		protocol_json_add_item(o, "premoves", pm);
	}
	protocol_json_add_item(o, "state", state_json(v, viewer));
	return protocol_json_print(o);
}


/* ---- decoding ---- */

/* A refusal: bad_request with the message; returns -1. */
#define refuse(err, ...) protocol_error_set((err), PROTOCOL_ERR_BAD_REQUEST, __VA_ARGS__)

static const cJSON *member(const cJSON *o, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(o, name);
}

/* {"white": w, "black": b}, integers in [lo, hi]. */
static int pair_decode(const cJSON *o, const char *name, int64_t lo, int64_t hi, int64_t out[2], const char *what,
		       struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "white", PROTOCOL_JSON_INT, true },
		{ "black", PROTOCOL_JSON_INT, true },
	};
	const cJSON *p = member(o, name);
	if (!cJSON_IsObject(p))
		return refuse(err, "%s: member \"%s\" must be an object", what, name);
	if (protocol_json_check(p, fields, N_FIELDS(fields), false, name, err))
		return -1;
	out[WHITE] = protocol_json_int(p, "white");
	out[BLACK] = protocol_json_int(p, "black");
	if (out[WHITE] < lo || out[WHITE] > hi || out[BLACK] < lo || out[BLACK] > hi)
		return refuse(err, "%s: member \"%s\" out of range", what, name);
	return 0;
}

/* "left": {"white": LEFT|null, "black": LEFT|null}, LEFT {"gone_ms",
 * "claim_ms": MS|null}; absent from an older server's snapshot (nobody
 * left then). */
static int left_decode(const cJSON *o, struct game_view *w, const char *what, struct protocol_error *err)
{
	static const struct protocol_json_field sides[] = {
		{ "white", PROTOCOL_JSON_OBJECT_OR_NULL, true },
		{ "black", PROTOCOL_JSON_OBJECT_OR_NULL, true },
	};
	static const struct protocol_json_field fields[] = {
		{ "gone_ms", PROTOCOL_JSON_INT, true },
		{ "claim_ms", PROTOCOL_JSON_INT_OR_NULL, true },
	};
	const cJSON *p = member(o, "left");
	if (!p)
		return 0;
	if (protocol_json_check(p, sides, N_FIELDS(sides), false, "left", err))
		return -1;
	for (int side = WHITE; side <= BLACK; side++) {
		const cJSON *l = member(p, fold_color_str(side));
		if (cJSON_IsNull(l))
			continue;
		if (protocol_json_check(l, fields, N_FIELDS(fields), false, "left", err))
			return -1;
		const cJSON *claim = member(l, "claim_ms");
		w->left_gone_ms[side] = protocol_json_int(l, "gone_ms");
		w->left_claim_ms[side] = cJSON_IsNull(claim) ? 0 : protocol_json_int(l, "claim_ms");
		if (w->left_gone_ms[side] <= 0 || w->left_claim_ms[side] < 0)
			return refuse(err, "%s: member \"left\" out of range", what);
	}
	return 0;
}

/* {"white": bool, "black": bool} */
static int bool_pair_decode(const cJSON *o, const char *name, bool out[2], const char *what,
			    struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "white", PROTOCOL_JSON_BOOL, true },
		{ "black", PROTOCOL_JSON_BOOL, true },
	};
	const cJSON *p = member(o, name);
	if (!cJSON_IsObject(p))
		return refuse(err, "%s: member \"%s\" must be an object", what, name);
	if (protocol_json_check(p, fields, N_FIELDS(fields), false, name, err))
		return -1;
	out[WHITE] = cJSON_IsTrue(member(p, "white"));
	out[BLACK] = cJSON_IsTrue(member(p, "black"));
	return 0;
}

static int clock_state_decode(const cJSON *o, struct clock *c, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "remaining_ms", PROTOCOL_JSON_OBJECT, true }, { "moves", PROTOCOL_JSON_OBJECT, true },
		{ "period", PROTOCOL_JSON_OBJECT, true },       { "period_moves", PROTOCOL_JSON_OBJECT, true },
		{ "running", PROTOCOL_JSON_STRING_OR_NULL, true }, { "flagged", PROTOCOL_JSON_STRING_OR_NULL, true },
		{ "paused", PROTOCOL_JSON_BOOL, true },         { "since_ms", PROTOCOL_JSON_INT, true },
		{ "turn_used_ms", PROTOCOL_JSON_INT, true },
	};
	static const struct protocol_json_field remaining[] = {
		{ "white", PROTOCOL_JSON_INT_OR_NULL, true },
		{ "black", PROTOCOL_JSON_INT_OR_NULL, true },
	};
	const char *what = "state clock";
	int64_t moves[2], period[2], period_moves[2];
	int last_period = c->tc.n_periods > 0 ? c->tc.n_periods - 1 : 0;
	if (protocol_json_check(o, fields, N_FIELDS(fields), false, what, err) ||
	    protocol_json_check(member(o, "remaining_ms"), remaining, N_FIELDS(remaining), false, what, err) ||
	    pair_decode(o, "moves", 0, INT32_MAX, moves, what, err) ||
	    pair_decode(o, "period", 0, last_period, period, what, err) ||
	    pair_decode(o, "period_moves", 0, INT32_MAX, period_moves, what, err) ||
	    fold_json_color_member(o, "running", true, &c->running, what, err) ||
	    fold_json_color_member(o, "flagged", true, &c->flagged, what, err))
		return -1;
	for (int side = WHITE; side <= BLACK; side++) {
		const cJSON *r = member(member(o, "remaining_ms"), side == WHITE ? "white" : "black");
		c->remaining_ms[side] = cJSON_IsNull(r) ? CLOCK_UNLIMITED : (int64_t)r->valuedouble;
		if (c->remaining_ms[side] < 0)
			return refuse(err, "%s: negative time", what);
		c->moves[side] = (int)moves[side];
		c->period[side] = (int)period[side];
		c->period_moves[side] = (int)period_moves[side];
	}
	c->paused = cJSON_IsTrue(member(o, "paused"));
	c->since_ms = protocol_json_int(o, "since_ms");
	c->turn_used_ms = protocol_json_int(o, "turn_used_ms");
	if (c->since_ms < 0 || c->turn_used_ms < 0)
		return refuse(err, "%s: negative time", what);
	return 0;
}

static int vacations_decode(const cJSON *o, struct game_view *v, struct protocol_error *err)
{
	for (int side = WHITE; side <= BLACK; side++) {
		const cJSON *a = member(o, fold_color_str(side));
		if (!cJSON_IsArray(a))
			return refuse(err, "vacations: member \"%s\" must be an array", fold_color_str(side));
		v->n_vacations[side] = 0;
		for (const cJSON *iv = a->child; iv; iv = iv->next) {
			static const struct protocol_json_field fields[] = {
				{ "start_ms", PROTOCOL_JSON_INT, true },
				{ "end_ms", PROTOCOL_JSON_INT, true },
			};
			if (v->n_vacations[side] == FOLD_VACATIONS_MAX)
				return refuse(err, "vacations: too many");
			if (!cJSON_IsObject(iv) || protocol_json_check(iv, fields, N_FIELDS(fields), false, "vacation", err))
				return cJSON_IsObject(iv) ? -1 : refuse(err, "vacations: expected objects");
			struct vacation *nv = &v->vacations[side][v->n_vacations[side]++];
			nv->start_ms = protocol_json_int(iv, "start_ms");
			nv->end_ms = protocol_json_int(iv, "end_ms");
			if (nv->start_ms < 0 || nv->start_ms >= nv->end_ms)
				return refuse(err, "vacations: bad interval");
		}
	}
	if (cJSON_GetArraySize(o) != 2)
		return refuse(err, "vacations: expected the members white and black");
	return 0;
}

/* Replays the snapshot's moves on the created view w. */
static int moves_decode(const cJSON *a, struct game_view *w, int64_t seq, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "ply", PROTOCOL_JSON_INT, true },      { "color", PROTOCOL_JSON_STRING, true },
		{ "uci", PROTOCOL_JSON_STRING, true },   { "san", PROTOCOL_JSON_STRING, true },
		{ "t_ms", PROTOCOL_JSON_INT, true },     { "think_ms", PROTOCOL_JSON_INT, true },
		{ "clock_ms", PROTOCOL_JSON_INT, true }, { "premove", PROTOCOL_JSON_BOOL, true },
		{ "seq", PROTOCOL_JSON_INT, true },      { "charged_ms", PROTOCOL_JSON_INT, false },
	};
	const char *what = "snapshot move";
	int64_t prev_seq = 1;
	for (const cJSON *m = a->child; m; m = m->next) {
		struct tchess_error terr;
		struct fold_event e;
		int color;
		char uci[UCI_MAX], san[SAN_MAX];
		if (!cJSON_IsObject(m))
			return refuse(err, "%s: expected an object", what);
		if (protocol_json_check(m, fields, N_FIELDS(fields), false, what, err) ||
		    fold_json_color_member(m, "color", false, &color, what, err) ||
		    protocol_json_copy(uci, sizeof uci, m, "uci", false, what, err) ||
		    protocol_json_copy(san, sizeof san, m, "san", false, what, err))
			return -1;
		int64_t ply = protocol_json_int(m, "ply"), at = protocol_json_int(m, "t_ms");
		int64_t clock_ms = protocol_json_int(m, "clock_ms"), mseq = protocol_json_int(m, "seq");
		fold_event_init(&e, FOLD_EV_MOVE);
		e.think_ms = protocol_json_int(m, "think_ms");
		bool charged = member(m, "charged_ms") != NULL;
		if (charged)
			e.charged_ms = protocol_json_int(m, "charged_ms");
		e.premove = cJSON_IsTrue(member(m, "premove"));
		if (ply != (int64_t)w->game.n_plies || color != (int)game_side_to_move(&w->game))
			return refuse(err, "%s %lld: wrong ply or colour", what, (long long)ply);
		if (mseq <= prev_seq || mseq > seq || e.think_ms < 0 || (charged && e.charged_ms < 0) || clock_ms < 0)
			return refuse(err, "%s %lld: seq or times out of range", what, (long long)ply);
		move mv;
		if (uci_parse(&w->game.pos, uci, strlen(uci), &mv, &terr) != TCHESS_OK)
			return refuse(err, "%s %lld: %s", what, (long long)ply, terr.message);
		char want[SAN_MAX];
		san_write(&w->game.pos, mv, want);
		if (strcmp(want, san))
			return refuse(err, "%s %lld: SAN %s does not match the move", what, (long long)ply, san);
		if (clock_ms == FOLD_JSON_INT_MAX)
			clock_ms = CLOCK_UNLIMITED;
		if (game_play(&w->game, (enum color)color, mv, at, clock_ms, &terr) != TCHESS_OK)
			return refuse(err, "%s %lld: %s", what, (long long)ply, terr.message);
		fold_plies_push(w, mseq, &e);
		prev_seq = mseq;
	}
	return 0;
}

/* result/termination/status onto the replayed game. */
static int outcome_decode(const cJSON *o, struct game_view *w, struct protocol_error *err)
{
	enum game_result result;
	enum game_termination term = GAME_TERM_NONE;
	const char *status = member(o, "status")->valuestring;
	if (!game_result_parse(member(o, "result")->valuestring, &result) ||
	    (!game_termination_parse(member(o, "termination")->valuestring, &term) &&
	     member(o, "termination")->valuestring[0]))
		return refuse(err, "snapshot: unknown result or termination");
	bool over = !strcmp(status, "over");
	if (over && term == GAME_TERM_NONE)
		return refuse(err, "snapshot: over without a termination");
	if (game_is_over(&w->game)) {
		/* The moves ended it (mate, fivefold, ...): the same verdict. */
		if (!over || result != w->game.result || term != w->game.termination)
			return refuse(err, "snapshot: the moves end the game otherwise");
	} else if (over) {
		w->game.status = GAME_OVER;
		w->game.result = result;
		w->game.termination = term;
	} else if (!strcmp(status, "adjourned")) {
		w->game.status = GAME_ADJOURNED;
		w->game.termination = GAME_TERM_ADJOURNED;
	}
	if (strcmp(fold_status(w), status))
		return refuse(err, "snapshot: status \"%s\" contradicts the seats and moves", status);
	if (!over && (result != w->game.result || term != w->game.termination))
		return refuse(err, "snapshot: a result while the game is not over");
	return 0;
}

static int offers_decode(const cJSON *o, struct game_view *w, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "draw", PROTOCOL_JSON_STRING_OR_NULL, true },    { "abort", PROTOCOL_JSON_STRING_OR_NULL, true },
		{ "adjourn", PROTOCOL_JSON_STRING_OR_NULL, true }, { "resume", PROTOCOL_JSON_STRING_OR_NULL, true },
		{ "rematch", PROTOCOL_JSON_STRING_OR_NULL, true },
	};
	const char *what = "offers";
	const cJSON *p = member(o, what);
	if (protocol_json_check(p, fields, N_FIELDS(fields), false, what, err) ||
	    fold_json_color_member(p, "draw", true, &w->game.offer_by, what, err) ||
	    fold_json_color_member(p, "abort", true, &w->game.abort_request_by, what, err) ||
	    fold_json_color_member(p, "adjourn", true, &w->adjourn_request_by, what, err) ||
	    fold_json_color_member(p, "resume", true, &w->resume_request_by, what, err) ||
	    fold_json_color_member(p, "rematch", true, &w->rematch_by, what, err))
		return -1;
	return 0;
}

static int state_decode(const cJSON *s, struct game_view *w, struct protocol_error *err)
{
	static const struct protocol_json_field turn_fields[] = {
		{ "color", PROTOCOL_JSON_STRING_OR_NULL, true },
		{ "ply", PROTOCOL_JSON_INT, true },
		{ "made_ms", PROTOCOL_JSON_INT, true },
		{ "takebacks", PROTOCOL_JSON_INT, true },
	};
	struct tchess_error terr;
	const char *what = "state";
	int64_t last_offer[2], day[2], claims[2];
	char claim[UCI_MAX];
	size_t n = w->game.n_plies;
	if (clock_state_decode(member(s, "clock"), &w->clock, err) ||
	    pair_decode(s, "last_offer_ply", -1, (int64_t)n, last_offer, what, err) ||
	    pair_decode(s, "discard_day", -1, INT32_MAX, day, what, err) ||
	    pair_decode(s, "discard_day_claims", 0, INT32_MAX, claims, what, err) ||
	    protocol_json_copy(claim, sizeof claim, s, "claim_move", true, what, err))
		return -1;
	int64_t offer_ply = protocol_json_int(s, "offer_ply");
	if (offer_ply < 0 || offer_ply > (int64_t)n)
		return refuse(err, "%s: offer_ply out of range", what);
	w->game.offer_ply = (size_t)offer_ply;
	for (int side = WHITE; side <= BLACK; side++) {
		w->game.last_offer_ply[side] = (long)last_offer[side];
		w->discard_day[side] = day[side];
		w->discard_day_claims[side] = (int)claims[side];
	}
	/* Discard state; absent in snapshots of servers before it (none
	 * then: no refusal to claim). */
	if (member(s, "resume_since_ms")) {
		w->resume_since_ms = protocol_json_int(s, "resume_since_ms");
		if (w->resume_since_ms < 0)
			return refuse(err, "%s: resume_since_ms out of range", what);
	}
	if (member(s, "resume_declined") && bool_pair_decode(s, "resume_declined", w->resume_declined, what, err))
		return -1;
	w->game.claim_move = MOVE_NONE;
	if (claim[0] && uci_parse(&w->game.pos, claim, strlen(claim), &w->game.claim_move, &terr) != TCHESS_OK)
		return refuse(err, "%s: claim_move: %s", what, terr.message);
	const cJSON *t = member(s, "turn");
	int color;
	if (protocol_json_check(t, turn_fields, N_FIELDS(turn_fields), false, "state turn", err) ||
	    fold_json_color_member(t, "color", true, &color, "state turn", err))
		return -1;
	int64_t ply = protocol_json_int(t, "ply"), takebacks = protocol_json_int(t, "takebacks");
	if (ply < 0 || ply > (int64_t)n || takebacks < 0 || takebacks > INT32_MAX)
		return refuse(err, "%s: turn out of range", what);
	w->turn.color = color;
	w->turn.ply = (size_t)ply;
	w->turn.made_ms = protocol_json_int(t, "made_ms");
	w->turn.takebacks = (int)takebacks;
	return 0;
}

/* An undo game's provisional move, onto the turn state_decode set. */
static int provisional_decode(const cJSON *p, struct game_view *w, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "color", PROTOCOL_JSON_STRING, true },
		{ "uci", PROTOCOL_JSON_STRING, true },
		{ "san", PROTOCOL_JSON_STRING, true },
		{ "fen", PROTOCOL_JSON_STRING, true },
	};
	struct tchess_error terr;
	const char *what = "provisional";
	char uci[UCI_MAX], san[SAN_MAX], want[SAN_MAX];
	int color;
	if (cJSON_IsNull(p))
		return 0;
	if (protocol_json_check(p, fields, N_FIELDS(fields), false, what, err) ||
	    fold_json_color_member(p, "color", false, &color, what, err) ||
	    protocol_json_copy(uci, sizeof uci, p, "uci", false, what, err) ||
	    protocol_json_copy(san, sizeof san, p, "san", false, what, err))
		return -1;
	move m;
	if (!w->undo || color != w->turn.color || w->turn.ply != w->game.n_plies ||
	    color != (int)game_side_to_move(&w->game))
		return refuse(err, "%s: not this game's turn", what);
	if (uci_parse(&w->game.pos, uci, strlen(uci), &m, &terr) != TCHESS_OK)
		return refuse(err, "%s: %s", what, terr.message);
	san_write(&w->game.pos, m, want);
	if (strcmp(want, san))
		return refuse(err, "%s: SAN %s does not match the move", what, san);
	w->turn.pending = m;
	return 0;
}

/* The viewer's premove queue: the items from state, which the public
 * texts must match. */
static int premoves_decode(const cJSON *p, const cJSON *items, struct game_view *w, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "color", PROTOCOL_JSON_STRING, true },
		{ "moves", PROTOCOL_JSON_ARRAY, true },
	};
	static const struct protocol_json_field item_fields[] = {
		{ "from", PROTOCOL_JSON_INT, true },
		{ "to", PROTOCOL_JSON_INT, true },
		{ "promo", PROTOCOL_JSON_INT, true },
		{ "castling", PROTOCOL_JSON_BOOL, true },
	};
	const char *what = "premoves";
	int color, n = cJSON_GetArraySize(items);
	if (!p)
		return n ? refuse(err, "%s: state has premoves the snapshot does not show", what) : 0;
	if (!cJSON_IsObject(p))
		return refuse(err, "%s: expected an object", what);
	if (protocol_json_check(p, fields, N_FIELDS(fields), false, what, err) ||
	    fold_json_color_member(p, "color", false, &color, what, err))
		return -1;
	const cJSON *texts = member(p, "moves");
	if (n < 1 || n > PREMOVE_DEPTH_MAX || cJSON_GetArraySize(texts) != n)
		return refuse(err, "%s: the queue's length does not match", what);
	struct premove_queue *q = &w->premoves[color];
	premove_queue_clear(q);
	q->side = (uint8_t)color;
	const cJSON *t = texts->child;
	for (const cJSON *it = items->child; it; it = it->next, t = t->next) {
		if (!cJSON_IsObject(it) || protocol_json_check(it, item_fields, N_FIELDS(item_fields), false, what, err))
			return cJSON_IsObject(it) ? -1 : refuse(err, "%s: expected objects", what);
		int64_t from = protocol_json_int(it, "from"), to = protocol_json_int(it, "to");
		int64_t promo = protocol_json_int(it, "promo");
		if (from < 0 || from > 63 || to < 0 || to > 63 || from == to || promo < PREMOVE_NO_PROMO || promo > QUEEN)
			return refuse(err, "%s: an item out of range", what);
		struct premove *pm = &q->items[q->n++];
		pm->from = (uint8_t)from;
		pm->to = (uint8_t)to;
		pm->promo = (uint8_t)promo;
		pm->castling = cJSON_IsTrue(member(it, "castling"));
		char text[PREMOVE_TEXT_MAX];
		premove_write(pm, w->game.pos.chess960, text);
		if (!cJSON_IsString(t) || strcmp(t->valuestring, text))
			return refuse(err, "%s: the texts do not match the queue", what);
	}
	return 0;
}

/* The snapshot's series member names the rematch's game once accepted. */
static int next_game_decode(const cJSON *s, struct game_view *w, struct protocol_error *err)
{
	if (cJSON_IsNull(s))
		return 0;
	const cJSON *next = member(s, "next");
	if (!cJSON_IsObject(s) || !next)
		return refuse(err, "series: expected an object with next");
	if (cJSON_IsNull(next))
		return 0;
	if (!cJSON_IsString(next) || !protocol_game_id_valid(next->valuestring))
		return refuse(err, "series: bad next game id");
	snprintf(w->next_game, sizeof w->next_game, "%s", next->valuestring);
	return 0;
}

/* Creates the game from the snapshot's members, as its game-created event
 * did (seq 1, which every game's log starts with). */
static int created_decode(const cJSON *o, const cJSON *s, struct game_view *w, struct protocol_error *err)
{
	struct fold_event e;
	const char *what = "snapshot";
	fold_event_init(&e, FOLD_EV_CREATED);
	if (protocol_json_copy(e.tc, sizeof e.tc, o, "tc", false, what, err) ||
	    protocol_json_copy(e.ruleset, sizeof e.ruleset, o, "ruleset", false, what, err) ||
	    protocol_json_copy(e.fen, sizeof e.fen, o, "initial_fen", false, what, err) ||
	    protocol_json_copy(e.opponent, sizeof e.opponent, o, "opponent", false, what, err) ||
	    fold_json_seat_decode(member(o, "white"), &e.seats[WHITE], err) ||
	    fold_json_seat_decode(member(o, "black"), &e.seats[BLACK], err))
		return -1;
	const cJSON *series = member(s, "series");
	if (!cJSON_IsNull(series) && (!cJSON_IsObject(series) || fold_json_series_decode(series, &e.series, err)))
		return cJSON_IsObject(series) ? -1 : refuse(err, "state: series must be an object or null");
	e.undo = cJSON_IsTrue(member(o, "undo"));
	/* Absent from an older server's snapshot: the ruleset's. */
	if (member(o, "premove_depth"))
		e.premove_depth = protocol_json_int(o, "premove_depth");
	if (member(o, "first_move_ms"))
		e.first_move_ms = protocol_json_int(o, "first_move_ms");
	return fold_apply_event(w, 1, protocol_json_int(s, "created_ms"), &e, err);
}

static int snapshot_decode(const cJSON *o, const char *id, struct game_view *w, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "id", PROTOCOL_JSON_STRING, true },          { "seq", PROTOCOL_JSON_INT, true },
		{ "now_ms", PROTOCOL_JSON_INT, true },         { "status", PROTOCOL_JSON_STRING, true },
		{ "tc", PROTOCOL_JSON_STRING, true },          { "ruleset", PROTOCOL_JSON_STRING, true },
		{ "opponent", PROTOCOL_JSON_STRING, true },    { "white", PROTOCOL_JSON_OBJECT_OR_NULL, true },
		{ "black", PROTOCOL_JSON_OBJECT_OR_NULL, true }, { "initial_fen", PROTOCOL_JSON_STRING, true },
		{ "fen", PROTOCOL_JSON_STRING, true },         { "ply", PROTOCOL_JSON_INT, true },
		{ "turn", PROTOCOL_JSON_STRING, true },        { "moves", PROTOCOL_JSON_ARRAY, true },
		{ "clock", PROTOCOL_JSON_OBJECT, true },       { "result", PROTOCOL_JSON_STRING, true },
		{ "termination", PROTOCOL_JSON_STRING, true }, { "vacations", PROTOCOL_JSON_OBJECT, true },
		{ "offers", PROTOCOL_JSON_OBJECT, true },      { "undo", PROTOCOL_JSON_BOOL, true },
		{ "provisional", PROTOCOL_JSON_OBJECT_OR_NULL, true }, { "series", PROTOCOL_JSON_OBJECT_OR_NULL, true },
		{ "reason", PROTOCOL_JSON_STRING, true },      { "absent", PROTOCOL_JSON_OBJECT, true },
		{ "discards", PROTOCOL_JSON_OBJECT, true },    { "premoves", PROTOCOL_JSON_OBJECT, false },
		{ "left", PROTOCOL_JSON_OBJECT, false },
		{ "premove_depth", PROTOCOL_JSON_INT, false }, { "first_move_ms", PROTOCOL_JSON_INT, false },
		{ "state", PROTOCOL_JSON_OBJECT, true },
	};
	static const struct protocol_json_field state_fields[] = {
		{ "created_ms", PROTOCOL_JSON_INT, true },    { "started_ms", PROTOCOL_JSON_INT_OR_NULL, true },
		{ "last_t_ms", PROTOCOL_JSON_INT, true },     { "series", PROTOCOL_JSON_OBJECT_OR_NULL, true },
		{ "clock", PROTOCOL_JSON_OBJECT, true },      { "offer_ply", PROTOCOL_JSON_INT, true },
		{ "last_offer_ply", PROTOCOL_JSON_OBJECT, true }, { "claim_move", PROTOCOL_JSON_STRING, true },
		{ "discard_day", PROTOCOL_JSON_OBJECT, true }, { "discard_day_claims", PROTOCOL_JSON_OBJECT, true },
		{ "resume_since_ms", PROTOCOL_JSON_INT, false }, { "resume_declined", PROTOCOL_JSON_OBJECT, false },
		{ "turn", PROTOCOL_JSON_OBJECT, true },       { "premoves", PROTOCOL_JSON_ARRAY, true },
		{ "end_color", PROTOCOL_JSON_STRING_OR_NULL, true },
	};
	const char *what = "snapshot";
	char got_id[PROTOCOL_GAME_ID_MAX + 1], fen[FEN_MAX];
	if (protocol_json_check(o, fields, N_FIELDS(fields), false, what, err) ||
	    protocol_json_copy(got_id, sizeof got_id, o, "id", false, what, err))
		return -1;
	if (id && strcmp(id, got_id))
		return refuse(err, "snapshot: of game %s, not %s", got_id, id);
	const cJSON *s = member(o, "state");
	if (protocol_json_check(s, state_fields, N_FIELDS(state_fields), false, "state", err))
		return -1;
	int64_t seq = protocol_json_int(o, "seq"), last_t = protocol_json_int(s, "last_t_ms");
	if (seq < 1 || last_t < 0 || protocol_json_int(s, "created_ms") < 0)
		return refuse(err, "snapshot: seq or times out of range");
	if (created_decode(o, s, w, err) || moves_decode(member(o, "moves"), w, seq, err))
		return -1;
	fen_write(&w->game.pos, fen);
	if (strcmp(fen, member(o, "fen")->valuestring) || protocol_json_int(o, "ply") != (int64_t)w->game.n_plies ||
	    strcmp(fold_color_str(game_side_to_move(&w->game)), member(o, "turn")->valuestring))
		return refuse(err, "snapshot: fen, ply or turn contradicts the moves");
	const cJSON *started = member(s, "started_ms");
	w->started = !cJSON_IsNull(started);
	w->started_ms = w->started ? protocol_json_int(s, "started_ms") : 0;
	int64_t discards[2];
	if (fold_json_color_member(s, "end_color", true, &w->end_color, "state", err) || outcome_decode(o, w, err) || offers_decode(o, w, err) || state_decode(s, w, err) ||
	    vacations_decode(member(o, "vacations"), w, err) || bool_pair_decode(o, "absent", w->absent, what, err) ||
	    left_decode(o, w, what, err) ||
	    pair_decode(o, "discards", 0, INT32_MAX, discards, what, err) ||
	    provisional_decode(member(o, "provisional"), w, err) || premoves_decode(member(o, "premoves"), member(s, "premoves"), w, err) ||
	    next_game_decode(member(o, "series"), w, err) ||
	    protocol_json_copy(w->end_reason, sizeof w->end_reason, o, "reason", true, what, err))
		return -1;
	w->discards[WHITE] = (int)discards[WHITE];
	w->discards[BLACK] = (int)discards[BLACK];
	w->seq = seq;
	w->last_t_ms = last_t;
	return 0;
}

int fold_view_from_snapshot(struct game_view *v, const char *json, size_t len, const char *id,
			    struct protocol_error *err)
{
	cJSON *o = protocol_json_parse(json, len, "snapshot", err);
	if (!o)
		return -1;
	struct game_view w;
	fold_view_init(&w);
	int rc = snapshot_decode(o, id, &w, err);
	cJSON_Delete(o);
	if (rc) {
		fold_view_fini(&w);
		return -1;
	}
	fold_view_fini(v);
	*v = w;
	return 0;
}

int fold_view_vacations_decode(struct game_view *v, const char *json, size_t len, struct protocol_error *err)
{
	cJSON *o = protocol_json_parse(json, len, "vacations", err);
	if (!o)
		return -1;
	struct game_view w;
	int rc = cJSON_IsObject(o) ? vacations_decode(o, &w, err) : refuse(err, "vacations: expected an object");
	cJSON_Delete(o);
	if (rc)
		return -1;
	memcpy(v->vacations, w.vacations, sizeof v->vacations);
	memcpy(v->n_vacations, w.n_vacations, sizeof v->n_vacations);
	return 0;
}
