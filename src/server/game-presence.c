/*
 * Presence and invalid commands: a seat's requests and parked polls say
 * it is there (the timer's disconnect deadlines read them), and a seat's
 * run of invalid commands ends the game past the ruleset's limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "game-internal.h"
#include "server.h"
#include "util/log.h"
#include "util/now.h"

/* A request by the seat: it is present; if a presence event said it was
 * gone, it is back. */
void game_presence_seen(struct game_service *gs, struct live_game *lg, int color)
{
	lg->last_seen[color] = now_wall_ms();
	/* The other nodes hear of it (at most every half CLUSTER_PRESENCE_MS),
	 * so none counts the seat gone while it plays here. */
	if (gs->srv->cluster && now_mono_ms() - lg->told_seen[color] >= CLUSTER_PRESENCE_MS / 2) {
		lg->told_seen[color] = now_mono_ms();
		cluster_tell_seen(gs->srv->cluster, lg->id, color);
	}
	/* After the end too (a player back in time for a rematch), but not in
	 * an aborted game, which is about to be erased. */
	if ((lg->view.absent[color] || lg->view.left_gone_ms[color] > 0) && lg->view.created &&
	    (!game_is_over(&lg->view.game) || lg->view.game.termination != GAME_TERM_ABORTED)) {
		struct fold_event e;
		fold_event_init(&e, FOLD_EV_PRESENCE);
		e.color = color;
		e.present = true;
		game_txn_server_event(gs, lg, &e, NULL);
	}
}

int64_t game_presence_grace_ms(const struct game_service *gs, const struct game_view *v)
{
	return gs->srv->cfg.grace_ms > 0 ? gs->srv->cfg.grace_ms : v->game.rules.disconnect_grace_ms;
}

/* The seat's parked polls that count as presence. */
static int parked_here(const struct live_game *lg, int color)
{
	return lg->parked[color] - lg->left_parked[color];
}

int64_t game_presence_gone_at(const struct game_service *gs, const struct live_game *lg, int color)
{
	const struct game_view *v = &lg->view;
	if (v->seats[color].kind != FOLD_SEAT_HUMAN || v->absent[color] || parked_here(lg, color) > 0)
		return INT64_MAX;
	return lg->last_seen[color] + game_presence_grace_ms(gs, v);
}

/* Whether the seat follows the game, to hear a left event: a poll of its
 * parked here, or on several nodes one parked on another node, which
 * tells the seat seen every CLUSTER_PRESENCE_MS (a round missed
 * allowed). */
static bool follows(const struct game_service *gs, const struct live_game *lg, int color)
{
	return parked_here(lg, color) > 0 ||
	       (gs->srv->cluster && lg->last_seen[color] + 2 * CLUSTER_PRESENCE_MS > now_wall_ms());
}

int64_t game_presence_left_at(const struct game_service *gs, const struct live_game *lg, int color)
{
	const struct game_view *v = &lg->view;
	int64_t gone = game_presence_gone_at(gs, lg, color);
	/* Told to an opponent who is here to hear it (a game nobody
	 * follows, evicted or not, writes nothing). */
	if (gone == INT64_MAX || v->left_gone_ms[color] == gone || !follows(gs, lg, !color))
		return INT64_MAX;
	/* Told already, with another instant (a restart counts everyone
	 * seen then): told again, now. */
	if (v->left_gone_ms[color] > 0)
		return 0;
	int64_t grace = game_presence_grace_ms(gs, v);
	return lg->last_seen[color] + (grace / 2 < GAME_LEFT_QUIET_MS ? grace / 2 : GAME_LEFT_QUIET_MS);
}

void game_presence_left(struct game_service *gs, struct live_game *lg, int color)
{
	const struct game_view *v = &lg->view;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_LEFT);
	e.color = color;
	e.gone_ms = lg->last_seen[color] + game_presence_grace_ms(gs, v);
	/* The win may be claimed once the seat is recorded gone, under the
	 * rules that give one (chessgamble 11.2); the others adjourn or end
	 * the game then. */
	e.claim_ms = v->game.rules.disconnect == DISCONNECT_CLAIM_WIN ? e.gone_ms : 0;
	log_info("game %s: %s left; gone at %lld unless back", lg->id, fold_color_str(color), (long long)e.gone_ms);
	game_txn_server_event(gs, lg, &e, NULL);
}

/* The seat says it leaves: its polls parked now stop counting, it was last
 * seen now, and in a running game its opponent is told at once (a left
 * event) rather than after the quiet. A seek or an invite nobody has
 * joined yet is withdrawn (issue 14 item 5): the lobby lists no seek whose
 * player has gone, under every ruleset (no game was played, so this is no
 * abort). */
static void leave(struct game_service *gs, struct live_game *lg, int color)
{
	const struct game_view *v = &lg->view;
	lg->left_parked[color] = lg->parked[color];
	lg->last_seen[color] = now_wall_ms();
	if (fold_running(v) && v->clock.tc.kind != TC_CORRESPONDENCE && !v->absent[color] &&
	    v->left_gone_ms[color] == 0)
		game_presence_left(gs, lg, color);
	if (v->created && !v->started && !game_is_over(&v->game) && v->seats[!color].kind == FOLD_SEAT_EMPTY &&
	    strcmp(v->opponent, "tournament")) {
		struct fold_event e;
		log_info("game %s: the seek is withdrawn", lg->id);
		game_action_ended_event(&e, color, GAME_TERM_ABORTED, "seek-withdrawn");
		game_txn_server_event(gs, lg, &e, NULL);
	}
	game_timer_poke(gs, lg);
}

void game_service_leave(struct game_service *gs, int64_t me, const char *id, struct game_outcome *out)
{
	struct live_game *lg = game_registry_lookup_fresh(gs, id, out);
	int color;
	if (!lg || (color = game_seat_or_forbidden(lg, me, out)) < 0)
		return;
	if (!game_clock_ready(gs, lg, out))
		return;
	leave(gs, lg, color);
	game_txn_answer_for(lg, me, out);
}

bool game_presence_player_active(const struct game_service *gs, int64_t player, const struct live_game *skip,
				 int64_t grace_ms, int64_t now)
{
	for (unsigned b = 0; b < GS_BUCKETS; b++) {
		for (const struct live_game *lg = gs->bucket[b]; lg; lg = lg->next) {
			int c = lg == skip ? -1 : fold_seat_of(&lg->view, player);
			if (c >= 0 && (parked_here(lg, c) > 0 || lg->last_seen[c] + grace_ms > now))
				return true;
		}
		for (const struct evicted_game *eg = gs->evicted[b]; eg; eg = eg->next) {
			for (int c = WHITE; c <= BLACK; c++) {
				if (eg->players[c] == player && eg->last_seen[c] + grace_ms > now)
					return true;
			}
		}
	}
	return false;
}

/* Per-game event churn (issue 12 item 4): offers and their withdrawals,
 * declines, premove replacements, take-back requests and claims each write
 * an event, so a seat could grow its game's log without end in one ply.
 * Each seat may write events_per_ply such events while the ply stands;
 * a move (either side's) starts the count again, and what ends the game is
 * never counted. */
bool game_presence_churn(struct game_service *gs, struct live_game *lg, int color, struct game_outcome *out)
{
	int cap = gs->srv->cfg.events_per_ply;
	int64_t ply = (int64_t)lg->view.game.n_plies;
	if (color < 0 || cap <= 0)
		return true;
	if (lg->churn_ply[color] != ply) {
		lg->churn_ply[color] = ply;
		lg->churn[color] = 0;
	}
	/* Across the nodes, the count is the database's (a refused one
	 * counts too, which refuses nothing more: the next ply starts
	 * again); in the command's transaction, so what is not written is
	 * not counted. */
	int64_t shared;
	if (gs->srv->cluster && store_seat_count(gs->srv->store, lg->id, color, "churn", ply, &shared) == STORE_OK)
		lg->churn[color] = (int)(shared - 1 < cap ? shared - 1 : cap);
	if (lg->churn[color] >= cap) {
		game_fail(out, PROTOCOL_ERR_RATE_LIMITED,
			  "%d offers, replies and premoves in this ply already, the most this server allows "
			  "(events_per_ply): move, or wait for the opponent's",
			  cap);
		return false;
	}
	lg->churn[color]++;
	return true;
}

/* Consecutive invalid commands: "a broken bot" forfeits after more than
 * the ruleset's limit. Stale plies (409 with seq) are ordinary races and
 * do not count; a success resets the count. */
void game_presence_account(struct game_service *gs, struct live_game *lg, int color, const struct game_outcome *out)
{
	struct store *st = gs->srv->store;
	if (!out->failed) {
		/* Across the nodes, any event of the game ends the run (the
		 * count's mark is the game's seq); a success that wrote none
		 * ends it here, where it was counted. */
		if (lg->invalid[color] && gs->srv->cluster)
			store_seat_count_reset(st, lg->id, color, "invalid");
		lg->invalid[color] = 0;
		return;
	}
	enum protocol_error_code c = out->err.code;
	if (!(c == PROTOCOL_ERR_ILLEGAL || c == PROTOCOL_ERR_BAD_REQUEST ||
	      (c == PROTOCOL_ERR_CONFLICT && out->err.seq == 0)))
		return;
	int64_t shared;
	if (gs->srv->cluster && store_seat_count(st, lg->id, color, "invalid", lg->view.seq, &shared) == STORE_OK)
		lg->invalid[color] = (int)shared;
	else
		lg->invalid[color]++;
	if (lg->invalid[color] > lg->view.game.rules.invalid_command_limit && fold_running(&lg->view)) {
		log_warn("game %s: %s sent %d invalid commands in a row", lg->id, fold_color_str(color),
			 lg->invalid[color]);
		game_txn_technical_failure(gs, lg, color, "invalid-commands");
	}
}

void game_service_invalid(struct game_service *gs, int64_t me, const char *id, const struct protocol_error *err)
{
	struct game_outcome o = { 0 };
	struct live_game *lg = game_registry_lookup(gs, id, &o);
	int color = lg ? fold_seat_of(&lg->view, me) : -1;
	if (color >= 0) {
		o.failed = true;
		o.err = *err;
		game_presence_seen(gs, lg, color);
		game_presence_account(gs, lg, color, &o);
	}
	game_outcome_fini(&o);
}

void game_service_touch(struct game_service *gs, int64_t me, const char *id, int parked_delta)
{
	/* Only a seat's presence is noted: a game out of memory comes back
	 * for one of its players while it has a record (something is due),
	 * not for anyone else's read, nor for a finished game with nothing
	 * due (issue 12 item 5). */
	if (!protocol_game_id_valid(id) || !game_registry_known(gs, id, me))
		return;
	struct game_outcome o = { 0 };
	struct live_game *lg = game_registry_lookup(gs, id, &o);
	int color = lg ? fold_seat_of(&lg->view, me) : -1;
	game_outcome_fini(&o);
	if (color < 0)
		return;
	lg->parked[color] += parked_delta;
	if (lg->parked[color] < 0)
		lg->parked[color] = 0;
	/* A poll the seat left behind comes back: no sign of the seat. */
	if (parked_delta < 0 && lg->left_parked[color] > 0) {
		lg->left_parked[color]--;
		game_timer_poke(gs, lg);
		return;
	}
	game_presence_seen(gs, lg, color);
	/* The seat's deadline moved: the timer hears of it if it is now
	 * earlier than its next wake (a poll coming back starts the grace). */
	game_timer_poke(gs, lg);
}
