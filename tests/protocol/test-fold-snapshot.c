/*
 * A snapshot stands for the log it was folded from: random games (every
 * kind of event a game can have, under each ruleset and several time
 * controls, undo games included) are folded event by event, and after
 * every event the snapshot of each viewer (spectator, White, Black) must
 * rebuild a view (fold_view_from_snapshot) that encodes to the very same
 * snapshot, and that, fed the rest of the events this viewer may see, ends
 * where the whole log's fold ends. This is what lets tchessd answer a
 * client far behind with a snapshot instead of the events it missed.
 *
 * The games come from a seeded generator: it proposes random events and
 * keeps those the fold accepts, so every log is one the server could have
 * written. Hand-made bad snapshots must be refused with a reason.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fold.h"
#include "tchess/movegen.h"

#define ID "0123456789abcdef0123456789abcdef"
#define WHITE_PLAYER 11
#define BLACK_PLAYER 22
/* Random games per test: enough for every kind of event and ending. */
#define GAMES 24

/* The log of one generated game: events with the player each is visible
 * to (0: everyone). */
struct log_entry {
	int64_t seq, t_ms, visible_to;
	struct fold_event e;
};

struct gen {
	uint64_t rng;
	struct game_view v; /* the server's view: every event */
	struct log_entry *log;
	size_t n, cap;
	int64_t t;
};

static uint64_t rnd(struct gen *g)
{
	/* xorshift64*: deterministic across platforms. */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 2685821657736338717ULL;
}

static int pick(struct gen *g, int n)
{
	return (int)(rnd(g) % (uint64_t)n);
}

/* Offers e at the next seq after dt ms; keeps it if the fold accepts. */
static bool offer(struct gen *g, struct fold_event *e, int64_t dt, int64_t visible_to)
{
	struct protocol_error err;
	int64_t t = g->t + dt;
	if (fold_apply_event(&g->v, g->v.seq + 1, t, e, &err))
		return false;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		g->log = realloc(g->log, g->cap * sizeof *g->log);
		ck_assert_ptr_nonnull(g->log);
	}
	g->log[g->n++] = (struct log_entry){ g->v.seq, t, visible_to, *e };
	g->t = t;
	return true;
}

static int64_t player_of(int color)
{
	return color == WHITE ? WHITE_PLAYER : BLACK_PLAYER;
}

/* A game-created event: tc, ruleset, from the start position, an open
 * seek, ann (WHITE_PLAYER) White; the caller adds to it. */
static void created_event(struct fold_event *e, const char *tc, const char *ruleset)
{
	fold_event_init(e, FOLD_EV_CREATED);
	snprintf(e->tc, sizeof e->tc, "%s", tc);
	snprintf(e->ruleset, sizeof e->ruleset, "%s", ruleset);
	strcpy(e->fen, FEN_START);
	strcpy(e->opponent, "open");
	e->seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e->seats[WHITE].player = WHITE_PLAYER;
	strcpy(e->seats[WHITE].name, "ann");
}

static void move_event(struct gen *g, struct fold_event *e, enum fold_event_kind kind, move m)
{
	fold_event_init(e, kind);
	e->color = game_side_to_move(&g->v.game);
	e->ply = (int64_t)g->v.game.n_plies;
	uci_write(&g->v.game.pos, m, e->uci);
	san_write(&g->v.game.pos, m, e->san);
	struct position p = g->v.game.pos;
	struct undo u;
	position_make(&p, m, &u);
	fen_write(&p, e->fen);
}

static bool random_move(struct gen *g, move *out)
{
	struct move_list list;
	movegen_legal(&g->v.game.pos, &list);
	if (!list.count)
		return false;
	*out = list.moves[pick(g, list.count)];
	return true;
}

/* As tchessd does in the transaction of a move: the new mover's first
 * premove is played at once, or the queue discarded with a private event. */
static void resolve_premoves(struct gen *g)
{
	int who = game_side_to_move(&g->v.game);
	struct premove_queue q = g->v.premoves[who];
	struct fold_event e;
	move m;
	char why[FOLD_REASON_MAX];
	if (!fold_running(&g->v))
		return;
	switch (premove_queue_resolve(&q, &g->v.game.pos, &m, why, sizeof why)) {
	case PREMOVE_PLAY:
		move_event(g, &e, FOLD_EV_MOVE, m);
		e.premove = true;
		ck_assert(offer(g, &e, 0, 0));
		break;
	case PREMOVE_DISCARD:
		fold_event_init(&e, FOLD_EV_PREMOVE_DISCARDED);
		e.color = who;
		e.ply = (int64_t)g->v.game.n_plies;
		snprintf(e.reason, sizeof e.reason, "%s", why);
		ck_assert(offer(g, &e, 0, player_of(who)));
		break;
	case PREMOVE_NONE:
		break;
	}
}

/* A move by the side to move, through an undo game's provisional move and
 * take-backs when it is one. */
static void play_move(struct gen *g, int64_t dt)
{
	struct fold_event e;
	move m;
	if (!random_move(g, &m))
		return;
	if (g->v.undo) {
		move_event(g, &e, FOLD_EV_PROVISIONAL, m);
		if (!offer(g, &e, dt, 0))
			return;
		if (pick(g, 3) == 0) {
			fold_event_init(&e, FOLD_EV_TAKEN_BACK);
			e.color = game_side_to_move(&g->v.game);
			e.ply = (int64_t)g->v.game.n_plies;
			uci_write(&g->v.game.pos, m, e.uci);
			offer(g, &e, 300, 0);
			return;
		}
	}
	move_event(g, &e, FOLD_EV_MOVE, m);
	e.think_ms = dt;
	offer(g, &e, g->v.undo ? 200 : dt, 0);
	resolve_premoves(g);
}

/* Up to three premoves for the side not to move: random piece moves the
 * fold accepts or refuses as the ruleset says. */
static void set_premoves(struct gen *g)
{
	struct fold_event e;
	int who = !game_side_to_move(&g->v.game);
	fold_event_init(&e, FOLD_EV_PREMOVES);
	e.color = who;
	e.ply = (int64_t)g->v.game.n_plies;
	int want = 1 + pick(g, 3);
	for (int tries = 0; tries < 200 && e.n_moves < want; tries++) {
		int from = pick(g, 64), to = pick(g, 64);
		if (from == to || !(g->v.game.pos.by_color[who] & (1ULL << from)))
			continue;
		snprintf(e.moves[e.n_moves], sizeof e.moves[0], "%c%c%c%c", 'a' + from % 8, '1' + from / 8,
			 'a' + to % 8, '1' + to / 8);
		e.n_moves++;
		struct fold_event probe = e;
		struct game_view copy;
		struct protocol_error err;
		fold_view_copy(&copy, &g->v);
		if (fold_apply_event(&copy, copy.seq + 1, g->t, &probe, &err))
			e.n_moves--;
		fold_view_fini(&copy);
	}
	if (e.n_moves)
		offer(g, &e, 50, player_of(who));
}

static void request(struct gen *g, enum fold_request_what what, enum fold_request_action action, int color)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_REQUEST);
	e.what = what;
	e.action = action;
	e.color = color;
	e.ply = (int64_t)g->v.game.n_plies;
	offer(g, &e, 100 + pick(g, 900), 0);
}

static void end(struct gen *g, const char *termination, int color, const char *reason)
{
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_ENDED);
	snprintf(e.termination, sizeof e.termination, "%s", termination);
	snprintf(e.reason, sizeof e.reason, "%s", reason);
	e.color = color;
	offer(g, &e, 100, 0);
}

/* One random step of a running or finished game. */
static void step(struct gen *g)
{
	struct fold_event e;
	int mover = game_side_to_move(&g->v.game), c = pick(g, 2);
	switch (pick(g, 40)) {
	case 0:
		set_premoves(g);
		break;
	case 1:
		request(g, FOLD_REQ_DRAW, (enum fold_request_action)pick(g, 3), c);
		break;
	case 2:
		request(g, FOLD_REQ_ABORT, (enum fold_request_action)pick(g, 2), c);
		break;
	case 3:
		request(g, pick(g, 2) ? FOLD_REQ_ADJOURN : FOLD_REQ_RESUME, (enum fold_request_action)pick(g, 2), c);
		break;
	case 4:
		fold_event_init(&e, FOLD_EV_ADJOURNED);
		e.color = c;
		offer(g, &e, 100, 0);
		break;
	case 5:
		fold_event_init(&e, FOLD_EV_RESUMED);
		e.color = c;
		offer(g, &e, 5000, 0);
		break;
	case 6:
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = c;
		e.present = g->v.absent[c];
		offer(g, &e, 1000, 0);
		break;
	case 7:
		fold_event_init(&e, FOLD_EV_DISCARD);
		e.color = c;
		offer(g, &e, 3600000, 0);
		break;
	case 8:
		fold_event_init(&e, FOLD_EV_TIME_ADDED);
		e.color = c;
		e.ms = 15000;
		offer(g, &e, 100, 0);
		break;
	case 9:
		fold_event_init(&e, FOLD_EV_CLOCK_RESUMED);
		e.paused_ms = g->t + 10;
		offer(g, &e, 60000, 0);
		break;
	case 10:
		fold_event_init(&e, FOLD_EV_VACATION);
		e.color = c;
		e.vacation.start_ms = g->t + 1000 + pick(g, 100000);
		e.vacation.end_ms = e.vacation.start_ms + 86400000;
		offer(g, &e, 100, 0);
		break;
	case 11:
		if (g->v.n_vacations[c]) {
			fold_event_init(&e, FOLD_EV_VACATION);
			e.color = c;
			e.vacation = g->v.vacations[c][0];
			e.cancelled = true;
			offer(g, &e, 100, 0);
		}
		break;
	case 12:
		request(g, FOLD_REQ_REMATCH, (enum fold_request_action)pick(g, 3), c);
		break;
	case 13:
		fold_event_init(&e, FOLD_EV_OTHER); /* a note: the fold passes over it */
		offer(g, &e, 100, player_of(c));
		break;
	case 14:
		/* Left: gone in 15 s unless back, the win claimable then or
		 * never (the snapshot's "left" member). */
		fold_event_init(&e, FOLD_EV_LEFT);
		e.color = c;
		e.gone_ms = g->t + 15000;
		e.claim_ms = pick(g, 2) ? e.gone_ms : 0;
		offer(g, &e, 1000, 0);
		break;
	default:
		play_move(g, 200 + pick(g, 4000));
		break;
	}
	(void)mover;
}

/* Ends a game still running, one way or another. */
static void finish(struct gen *g)
{
	int c = pick(g, 2);
	switch (pick(g, 6)) {
	case 0:
		end(g, "resignation", c, "");
		break;
	case 1:
		end(g, "agreement", c, "");
		break;
	case 2:
		end(g, "aborted", c, "");
		break;
	case 3: {
		/* Let the mover's flag fall. */
		int64_t at = fold_clock_expiry(&g->v);
		if (at != INT64_MAX && at > g->t) {
			struct fold_event e;
			fold_event_init(&e, FOLD_EV_ENDED);
			strcpy(e.termination, "timeout");
			e.color = g->v.clock.running;
			offer(g, &e, at - g->t, 0);
		}
		break;
	}
	case 4:
		end(g, "technical-failure", -1, "disconnect");
		break;
	default:
		break; /* left running */
	}
}

static const char *const tcs[] = { "5+3", "3+2", "1+0", "40/90+30:30+30", "5+b3", "5+d3", "corr:3d/10", "-" };
static const char *const rulesets[] = { "fide", "yourpot", "chessgamble" };

static void generate(struct gen *g, uint64_t seed)
{
	struct fold_event e;
	memset(g, 0, sizeof *g);
	g->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	g->t = 1700000000000LL + (int64_t)(seed * 1000);
	fold_view_init(&g->v);
	/* The random stream in the order it always had: tc, ruleset, fen. */
	const char *tc = tcs[pick(g, 8)];
	created_event(&e, tc, rulesets[pick(g, 3)]);
	if (!pick(g, 4))
		strcpy(e.fen, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	e.undo = pick(g, 4) == 0;
	/* The game's own options, in some games (by seed: the random
	 * stream, and so every other game, stays as it was). */
	if (seed % 3 == 1)
		e.premove_depth = (int64_t)(1 + seed % PREMOVE_DEPTH_MAX);
	if (seed % 4 == 2)
		e.first_move_ms = 8000;
	if (seed % 5 == 3) {
		struct fold_series s = { .game = 2 };
		memcpy(s.id, "fedcba9876543210fedcba9876543210", sizeof s.id);
		memcpy(s.previous, s.id, sizeof s.id);
		s.score.half[WHITE] = 2;
		s.score.scored = 1;
		s.score.games = 1;
		e.series = s;
	}
	ck_assert(offer(g, &e, 0, 0));
	fold_event_init(&e, FOLD_EV_JOINED);
	e.color = BLACK;
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = BLACK_PLAYER;
	strcpy(e.seats[BLACK].name, "bob");
	ck_assert(offer(g, &e, 2000, 0));
	fold_event_init(&e, FOLD_EV_STARTED);
	ck_assert(offer(g, &e, 500, 0));
	int steps = 20 + pick(g, 120);
	for (int i = 0; i < steps && !game_is_over(&g->v.game); i++)
		step(g);
	finish(g);
	/* After the end: rematch offers, presence, notes. */
	for (int i = 0; i < 6; i++)
		step(g);
}

static void gen_fini(struct gen *g)
{
	fold_view_fini(&g->v);
	free(g->log);
}

static bool visible(const struct log_entry *le, int64_t viewer)
{
	return le->visible_to == 0 || le->visible_to == viewer;
}

/* The snapshot of the view after k events of g's log, as viewer sees it. */
static char *snapshot_after(const struct gen *g, size_t k, int64_t viewer, int64_t now, struct game_view *out)
{
	struct protocol_error err;
	fold_view_init(out);
	for (size_t i = 0; i < k; i++)
		ck_assert_int_eq(fold_apply_event(out, g->log[i].seq, g->log[i].t_ms, &g->log[i].e, &err), 0);
	return fold_snapshot_encode(out, ID, now, viewer);
}

static const int64_t viewers[] = { 0, WHITE_PLAYER, BLACK_PLAYER };

START_TEST(test_snapshot_rebuilds_view)
{
	/* Every prefix of every game, for every viewer: decode(encode(v))
	 * encodes to the same text. */
	size_t checked = 0;
	for (uint64_t seed = 1; seed <= GAMES; seed++) {
		struct gen g;
		generate(&g, seed);
		struct game_view v;
		struct protocol_error err;
		fold_view_init(&v);
		for (size_t i = 0; i < g.n; i++) {
			ck_assert_int_eq(fold_apply_event(&v, g.log[i].seq, g.log[i].t_ms, &g.log[i].e, &err), 0);
			if (!v.created)
				continue;
			for (size_t k = 0; k < 3; k++) {
				int64_t now = g.log[i].t_ms + 1234;
				char *snap = fold_snapshot_encode(&v, ID, now, viewers[k]);
				struct game_view r;
				fold_view_init(&r);
				ck_assert_msg(fold_view_from_snapshot(&r, snap, strlen(snap), ID, &err) == 0,
					      "seed %llu event %zu viewer %lld: %s\n%.3000s", (unsigned long long)seed, i,
					      (long long)viewers[k], err.message, snap);
				char *again = fold_snapshot_encode(&r, ID, now, viewers[k]);
				size_t d = 0;
				while (snap[d] && snap[d] == again[d])
					d++;
				ck_assert_msg(!strcmp(snap, again), "seed %llu event %zu:\n%.300s\n%.300s",
					      (unsigned long long)seed, i, snap + (d > 100 ? d - 100 : 0),
					      again + (d > 100 ? d - 100 : 0));
				free(again);
				free(snap);
				fold_view_fini(&r);
				checked++;
			}
		}
		fold_view_fini(&v);
		gen_fini(&g);
	}
	/* The generator makes real games, not just their openings. */
	ck_assert_uint_gt(checked, 2000);
}
END_TEST

START_TEST(test_snapshot_then_events)
{
	/* A client that resyncs from a snapshot and goes on with the events
	 * after it ends where the whole log's fold ends. */
	int overs = 0, undos = 0, premoved = 0, discarded = 0;
	for (uint64_t seed = 1; seed <= GAMES; seed++) {
		struct gen g;
		generate(&g, seed);
		overs += game_is_over(&g.v.game);
		undos += g.v.undo;
		for (size_t i = 0; i < g.n; i++) {
			premoved += g.log[i].e.kind == FOLD_EV_MOVE && g.log[i].e.premove;
			discarded += g.log[i].e.kind == FOLD_EV_PREMOVE_DISCARDED;
		}
		int64_t now = g.t + 777;
		for (size_t k = 3; k < g.n; k += 1 + g.n / 5) {
			for (size_t w = 0; w < 3; w++) {
				struct protocol_error err;
				struct game_view at, r;
				char *snap = snapshot_after(&g, k, viewers[w], g.log[k - 1].t_ms, &at);
				fold_view_init(&r);
				ck_assert_int_eq(fold_view_from_snapshot(&r, snap, strlen(snap), NULL, &err), 0);
				for (size_t i = k; i < g.n; i++) {
					if (!visible(&g.log[i], viewers[w]))
						continue;
					ck_assert_msg(fold_apply_event(&r, g.log[i].seq, g.log[i].t_ms, &g.log[i].e,
								       &err) == 0,
						      "seed %llu: event %zu after a snapshot at %zu: %s",
						      (unsigned long long)seed, i, k, err.message);
				}
				char *want = fold_snapshot_encode(&g.v, ID, now, viewers[w]);
				char *got = fold_snapshot_encode(&r, ID, now, viewers[w]);
				/* The log's last private events of others do not reach
				 * this viewer; the fold's seq is the last one it saw. */
				ck_assert_int_le(r.seq, g.v.seq);
				r.seq = g.v.seq;
				r.last_t_ms = g.v.last_t_ms;
				free(got);
				got = fold_snapshot_encode(&r, ID, now, viewers[w]);
				size_t d = 0;
				while (want[d] && want[d] == got[d])
					d++;
				ck_assert_msg(!strcmp(want, got), "seed %llu, snapshot at %zu, viewer %lld:\n%.300s\n%.300s",
					      (unsigned long long)seed, k, (long long)viewers[w], want + (d > 100 ? d - 100 : 0),
					      got + (d > 100 ? d - 100 : 0));
				free(want);
				free(got);
				free(snap);
				fold_view_fini(&r);
				fold_view_fini(&at);
			}
		}
		gen_fini(&g);
	}
	ck_assert_int_gt(overs, 8);
	ck_assert_int_gt(undos, 2);
	printf("%d games over, %d undo games, %d premoves played, %d discarded\n", overs, undos, premoved,
	       discarded);
	ck_assert_int_gt(premoved, 5);
	ck_assert_int_gt(discarded, 5);
}
END_TEST

/* Replaces the first occurrence of from in s (which must hold it). */
static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	ck_assert_msg(at, "\"%s\" not in %s", from, s);
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return out;
}

/* A started 5+3 game under ruleset, ann v bob, created and started at 1000
 * (seq 1, 2). */
static void started_view_rules(struct game_view *v, const char *ruleset)
{
	struct fold_event e;
	struct protocol_error err;
	fold_view_init(v);
	created_event(&e, "5+3", ruleset);
	e.seats[BLACK].kind = FOLD_SEAT_HUMAN;
	e.seats[BLACK].player = player_of(BLACK);
	strcpy(e.seats[BLACK].name, "bob");
	ck_assert_int_eq(fold_apply_event(v, 1, 1000, &e, &err), 0);
	fold_event_init(&e, FOLD_EV_STARTED);
	ck_assert_int_eq(fold_apply_event(v, 2, 1000, &e, &err), 0);
}

/* The same under fide. */
static void started_view(struct game_view *v)
{
	started_view_rules(v, "fide");
}

START_TEST(test_snapshot_bad)
{
	/* A snapshot that contradicts itself is refused, the view kept. */
	static const struct {
		const char *from, *to, *needle;
	} cases[] = {
		{ "\"uci\":\"e2e4\"", "\"uci\":\"e2e5\"", "cannot move" },
		{ "\"san\":\"e4\"", "\"san\":\"d4\"", "does not match" },
		{ "\"ply\":1,", "\"ply\":2,", "contradicts" },
		{ "\"status\":\"playing\"", "\"status\":\"over\"", "snapshot" },
		{ "\"result\":\"*\"", "\"result\":\"1-0\"", "result" },
		{ "\"draw\":null", "\"draw\":\"purple\"", "\"draw\"" },
		{ "\"tc\":\"5+3\"", "\"tc\":\"5+\"", "time control" },
		{ "\"seq\":4,\"now_ms\"", "\"seq\":3,\"now_ms\"", "out of range" },
		{ "\"state\":{", "\"extra\":1,\"state\":{", "extra" },
		{ "\"id\":\"" ID "\"", "\"id\":\"fedcba9876543210fedcba9876543210\"", "of game" },
		{ "\"period\":{\"white\":0", "\"period\":{\"white\":5", "out of range" },
	};
	struct game_view v, keep;
	struct protocol_error err;
	struct fold_event e;
	started_view(&v);
	fold_event_init(&e, FOLD_EV_MOVE);
	e.color = WHITE;
	strcpy(e.uci, "e2e4");
	strcpy(e.san, "e4");
	ck_assert_int_eq(fold_apply_event(&v, 4, 2000, &e, &err), 0);
	char *good = fold_snapshot_encode(&v, ID, 2500, 0);
	fold_view_init(&keep);
	ck_assert_int_eq(fold_view_from_snapshot(&keep, good, strlen(good), ID, &err), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *bad = replace(good, cases[i].from, cases[i].to);
		ck_assert_msg(fold_view_from_snapshot(&keep, bad, strlen(bad), ID, &err) == -1, "accepted: %s", bad);
		ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
		ck_assert_msg(strstr(err.message, cases[i].needle), "case %zu: \"%s\" lacks \"%s\"", i, err.message,
			      cases[i].needle);
		ck_assert_int_eq(keep.seq, 4);
		ck_assert_uint_eq(keep.game.n_plies, 1);
		free(bad);
	}
	/* Not JSON, not an object, truncated. */
	static const char *const junk[] = { "", "[]", "{\"id\":", "null", "{}" };
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
		ck_assert_int_eq(fold_view_from_snapshot(&keep, junk[i], strlen(junk[i]), NULL, &err), -1);
	for (size_t cut = 0; cut < strlen(good); cut += 7)
		ck_assert_int_eq(fold_view_from_snapshot(&keep, good, cut, NULL, &err), -1);
	ck_assert_int_eq(keep.seq, 4);
	free(good);
	fold_view_fini(&keep);
	fold_view_fini(&v);
}
END_TEST

/* The fold and the snapshot reader share one bound on a move's times: a
 * move the fold takes, its snapshot rebuilds; one it cannot rebuild (a
 * negative think_ms, found by fuzz-protocol) the fold refuses, unchanged. */
START_TEST(test_fold_refuses_negative_think)
{
	struct game_view v;
	struct protocol_error err;
	struct fold_event e;
	started_view(&v);
	fold_event_init(&e, FOLD_EV_MOVE);
	e.color = WHITE;
	strcpy(e.uci, "e2e4");
	strcpy(e.san, "e4");
	e.think_ms = -43;
	ck_assert_int_eq(fold_apply_event(&v, 3, 2000, &e, &err), -1);
	ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
	ck_assert_msg(strstr(err.message, "think_ms"), "%s", err.message);
	ck_assert_int_eq(v.seq, 2);
	ck_assert_uint_eq(v.game.n_plies, 0);
	e.think_ms = 1000;
	ck_assert_int_eq(fold_apply_event(&v, 3, 2000, &e, &err), 0);
	char *snap = fold_snapshot_encode(&v, ID, 2500, 0);
	struct game_view r;
	fold_view_init(&r);
	ck_assert_int_eq(fold_view_from_snapshot(&r, snap, strlen(snap), ID, &err), 0);
	free(snap);
	fold_view_fini(&r);
	fold_view_fini(&v);
}
END_TEST

/* A move event's charged_ms is the clock's (issue 18 item 4): 5+3 from
 * 1000 to 2000 charges 1000. Another value is refused, the view unchanged;
 * absent (an event stored before it) the fold works it out, and the
 * snapshot carries it. */
START_TEST(test_fold_checks_charged)
{
	struct game_view v;
	struct protocol_error err;
	struct fold_event e;
	started_view(&v);
	fold_event_init(&e, FOLD_EV_MOVE);
	e.color = WHITE;
	strcpy(e.uci, "e2e4");
	strcpy(e.san, "e4");
	e.think_ms = 1000;
	e.charged_ms = 999;
	ck_assert_int_eq(fold_apply_event(&v, 3, 2000, &e, &err), -1);
	ck_assert_msg(strstr(err.message, "charged_ms 999 is not what the clock charged (1000)"), "%s", err.message);
	ck_assert_uint_eq(v.game.n_plies, 0);
	e.charged_ms = -1;
	ck_assert_int_eq(fold_apply_event(&v, 3, 2000, &e, &err), 0);
	ck_assert_int_eq(v.plies[0].charged_ms, 1000);
	char *snap = fold_snapshot_encode(&v, ID, 2500, 0);
	ck_assert_msg(strstr(snap, "\"charged_ms\":1000"), "%s", snap);
	free(snap);
	fold_view_fini(&v);
}
END_TEST

/* Yourpot's discards against a partner who stays gone (issue 18): the
 * absence counts after the ruleset's day, from the request and then from
 * each claim (the server ends the game at the third, with its own event);
 * fold_discard_due says when, and a claim before it is refused, the view
 * unchanged. */
START_TEST(test_discard_absent_partner)
{
	const int64_t day = 86400000;
	struct game_view v;
	struct protocol_error err;
	struct fold_event e;
	int64_t seq = 2;
	started_view_rules(&v, "yourpot");
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = WHITE;
	e.present = false;
	ck_assert_int_eq(fold_apply_event(&v, ++seq, 20000, &e, &err), 0);
	fold_event_init(&e, FOLD_EV_ADJOURNED);
	strcpy(e.reason, "disconnect");
	ck_assert_int_eq(fold_apply_event(&v, ++seq, 20000, &e, &err), 0);
	ck_assert_int_eq(fold_discard_due(&v, BLACK), INT64_MAX);
	fold_event_init(&e, FOLD_EV_REQUEST);
	e.color = BLACK;
	e.what = FOLD_REQ_RESUME;
	e.action = FOLD_REQ_MADE;
	ck_assert_int_eq(fold_apply_event(&v, ++seq, 21000, &e, &err), 0);
	ck_assert_int_eq(fold_discard_due(&v, BLACK), 21000 + day);
	ck_assert_int_eq(fold_discard_due(&v, WHITE), INT64_MAX);
	int64_t at = 21000 + day;
	for (int n = 1; n <= 3; n++, at += day) {
		fold_event_init(&e, FOLD_EV_DISCARD);
		e.color = BLACK;
		ck_assert_int_eq(fold_apply_event(&v, seq + 1, at - 1, &e, &err), -1);
		ck_assert_msg(strstr(err.message, "white is not online and has not refused"), "%s", err.message);
		ck_assert_int_eq(v.discards[WHITE], n - 1);
		ck_assert_int_eq(fold_apply_event(&v, ++seq, at, &e, &err), 0);
		ck_assert_int_eq(v.discards[WHITE], n);
		ck_assert_int_eq(fold_discard_due(&v, BLACK), at + day);
	}
	/* Back online, white's silence is timed by the answer time again. */
	fold_event_init(&e, FOLD_EV_PRESENCE);
	e.color = WHITE;
	e.present = true;
	ck_assert_int_eq(fold_apply_event(&v, ++seq, at, &e, &err), 0);
	ck_assert_int_eq(fold_discard_due(&v, BLACK), at + 60000);
	fold_view_fini(&v);
}
END_TEST

/* A game's own premove depth and first-move limit (game-created's
 * "premoves" and "first_move_ms") over its ruleset's, kept by the
 * snapshot; out of range refused. */
START_TEST(test_game_options)
{
	struct game_view v, r;
	struct protocol_error err;
	struct fold_event e;
	created_event(&e, "5+3", "fide");
	const int64_t bad[][2] = { { PREMOVE_DEPTH_MAX + 1, 0 }, { -1, 0 }, { 0, FOLD_FIRST_MOVE_MS_MAX + 1 } };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fold_view_init(&v);
		e.premove_depth = bad[i][0];
		e.first_move_ms = bad[i][1];
		ck_assert_int_eq(fold_apply_event(&v, 1, 1000, &e, &err), -1);
		ck_assert(!v.created);
		fold_view_fini(&v);
	}
	fold_view_init(&v);
	e.premove_depth = 4;
	e.first_move_ms = 8000;
	ck_assert_int_eq(fold_apply_event(&v, 1, 1000, &e, &err), 0);
	ck_assert_int_eq(v.game.rules.premove_depth, 4);
	ck_assert_int_eq(v.game.rules.first_move_timeout_ms, 8000);
	/* The encoded event carries them; an ordinary game's leaves them out. */
	char *json = fold_event_encode(&e);
	ck_assert_msg(strstr(json, "\"premoves\":4") && strstr(json, "\"first_move_ms\":8000"), "%s", json);
	free(json);
	char *snap = fold_snapshot_encode(&v, ID, 2500, 0);
	fold_view_init(&r);
	ck_assert_int_eq(fold_view_from_snapshot(&r, snap, strlen(snap), ID, &err), 0);
	ck_assert_int_eq(r.game.rules.premove_depth, 4);
	ck_assert_int_eq(r.game.rules.first_move_timeout_ms, 8000);
	free(snap);
	fold_view_fini(&r);
	fold_view_fini(&v);
	e.premove_depth = 0;
	e.first_move_ms = 0;
	json = fold_event_encode(&e);
	ck_assert_msg(!strstr(json, "premoves") && !strstr(json, "first_move_ms"), "%s", json);
	free(json);
}
END_TEST

static Suite *snapshot_suite(void)
{
	Suite *s = suite_create("fold-snapshot");
	TCase *tc = tcase_create("snapshot");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_snapshot_rebuilds_view);
	tcase_add_test(tc, test_snapshot_then_events);
	tcase_add_test(tc, test_snapshot_bad);
	tcase_add_test(tc, test_fold_refuses_negative_think);
	tcase_add_test(tc, test_fold_checks_charged);
	tcase_add_test(tc, test_discard_absent_partner);
	tcase_add_test(tc, test_game_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(snapshot_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
