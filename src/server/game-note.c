/*
 * Notes: private while the game runs, public once it is over, when the
 * transaction that ends it reveals the earlier ones in one event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "util/xalloc.h"

void game_service_note(struct game_service *gs, int64_t me, const char *id, const char *payload,
		       struct game_outcome *out)
{
	int color;
	struct live_game *lg = game_seat_enter(gs, me, id, &color, out);
	if (!lg)
		return;
	/* Notes are private while the game runs and public once it is over
	 * (the notes-revealed event shows the earlier ones). */
	int64_t to = lg->view.created && game_is_over(&lg->view.game) ? 0 : me;
	/* Bounded (issue 12 item 1): the notes-revealed event lists them
	 * all, and every resync and PGN carries them. */
	const struct server_config *cfg = &gs->srv->cfg;
	if (lg->notes >= cfg->notes_per_game) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "this game holds its %d notes (notes_per_game)", cfg->notes_per_game);
		return;
	}
	if (to && lg->notes_by[color] >= cfg->notes_per_player) {
		game_fail(out, PROTOCOL_ERR_CONFLICT, "you wrote your %d notes of this game (notes_per_player)",
			  cfg->notes_per_player);
		return;
	}
	struct game_txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	if (game_txn_begin(&t, gs, lg, out) || game_txn_add_raw(&t, &e, "note", payload, to, game_txn_instant(&lg->view), out))
		return;
	if (!game_txn_commit(&t, me, out))
		out->status = 201;
	game_txn_answer_for(lg, me, out);
}

/* Every note of the game becomes public in the transaction that ends it:
 * one "notes-revealed" event listing them in order. */
struct revealed {
	struct protocol_revealed_note *notes;
	size_t n;
};

static int collect_note(void *arg, const struct store_event *ev)
{
	struct revealed *r = arg;
	struct protocol_note_request note;
	struct protocol_error err;
	const char *p = ev->payload ? ev->payload : "{}";
	if (strcmp(ev->type, "note") || protocol_note_request_decode(p, strlen(p), &note, &err))
		return 0;
	r->notes = xrealloc(r->notes, (r->n + 1) * sizeof *r->notes);
	struct protocol_revealed_note *n = &r->notes[r->n++];
	n->seq = ev->seq;
	n->t_ms = ev->created_ms;
	n->player = ev->visible_to;
	snprintf(n->text, sizeof n->text, "%s", note.text);
	return 0;
}

int game_note_reveal(struct game_txn *t, struct game_outcome *out)
{
	struct revealed r = { 0 };
	if (store_events_after(t->gs->srv->store, t->lg->id, 0, STORE_VIEWER_ALL, 0, collect_note, &r)) {
		free(r.notes);
		game_txn_abort(t);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (!r.n)
		return 0;
	char *payload = protocol_notes_revealed_encode(r.notes, r.n);
	free(r.notes);
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	int rc = game_txn_add_raw(t, &e, "notes-revealed", payload, 0, t->work.last_t_ms, out);
	free(payload);
	return rc;
}

static void note_list_add(struct game_note_list *l, int64_t seq, int64_t player, const char *text)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->notes = xrealloc(l->notes, l->cap * sizeof *l->notes);
	}
	l->notes[l->n++] = (struct fold_note){ .seq = seq, .player = player, .text = xstrdup(text) };
}

/* A public event: the notes a notes-revealed event lists, or a note
 * written after the end (public, its author not recorded). */
static int collect_public(void *arg, const struct store_event *ev)
{
	struct game_note_list *l = arg;
	struct protocol_error err;
	const char *p = ev->payload ? ev->payload : "{}";
	if (!strcmp(ev->type, "note")) {
		struct protocol_note_request note;
		if (!protocol_note_request_decode(p, strlen(p), &note, &err))
			note_list_add(l, ev->seq, 0, note.text);
		return 0;
	}
	if (strcmp(ev->type, "notes-revealed"))
		return 0;
	struct protocol_revealed_note *notes = NULL;
	size_t n = 0;
	if (!protocol_notes_revealed_decode(p, strlen(p), &notes, &n, &err)) {
		for (size_t k = 0; k < n; k++)
			note_list_add(l, notes[k].seq, notes[k].player, notes[k].text);
	}
	free(notes);
	return 0;
}

int game_note_public(struct game_service *gs, const char *id, struct game_note_list *l, struct game_outcome *out)
{
	memset(l, 0, sizeof *l);
	if (store_events_after(gs->srv->store, id, 0, 0, 0, collect_public, l)) {
		game_note_list_fini(l);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	return 0;
}

void game_note_list_fini(struct game_note_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->notes[i].text);
	free(l->notes);
	memset(l, 0, sizeof *l);
}
