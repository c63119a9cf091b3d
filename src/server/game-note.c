/*
 * Notes: private while the game runs, public once it is over, when the
 * transaction that ends it reveals the earlier ones in one event.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"
#include "server.h"
#include "util/xalloc.h"

void game_service_note(struct game_service *gs, int64_t me, const char *id, const char *payload,
		       struct game_outcome *out)
{
	struct live_game *lg = game_registry_lookup(gs, id, out);
	int color;
	if (!lg || (color = game_seat_or_forbidden(lg, me, out)) < 0)
		return;
	game_presence_seen(gs, lg, color);
	/* Notes are private while the game runs and public once it is over
	 * (the notes-revealed event shows the earlier ones). */
	int64_t to = lg->view.created && game_is_over(&lg->view.game) ? 0 : me;
	struct game_txn t;
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_OTHER);
	if (game_txn_begin(&t, gs, lg, out) || game_txn_add_raw(&t, &e, "note", payload, to, game_txn_instant(&lg->view), out))
		return;
	if (!game_txn_commit(&t, me, out))
		out->status = 201;
}

/* Every note of the game becomes public in the transaction that ends it:
 * one "notes-revealed" event listing them in order. */
static int collect_note(void *arg, const struct store_event *ev)
{
	cJSON *list = arg;
	if (strcmp(ev->type, "note"))
		return 0;
	cJSON *n = cJSON_Parse(ev->payload ? ev->payload : "{}");
	cJSON *text = n ? cJSON_GetObjectItemCaseSensitive(n, "text") : NULL;
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_IsString(text)) {
		cJSON_Delete(n);
		cJSON_Delete(o);
		return 0;
	}
	cJSON_AddNumberToObject(o, "seq", (double)ev->seq);
	cJSON_AddNumberToObject(o, "t_ms", (double)ev->created_ms);
	cJSON_AddNumberToObject(o, "player", (double)ev->visible_to);
	cJSON_AddStringToObject(o, "text", text->valuestring);
	cJSON_AddItemToArray(list, o);
	cJSON_Delete(n);
	return 0;
}

int game_note_reveal(struct game_txn *t, struct game_outcome *out)
{
	cJSON *list = cJSON_CreateArray();
	if (!list)
		xalloc_die();
	if (store_events_after(t->gs->srv->store, t->lg->id, 0, STORE_VIEWER_ALL, 0, collect_note, list)) {
		cJSON_Delete(list);
		game_txn_abort(t);
		game_fail(out, PROTOCOL_ERR_INTERNAL, "storage failure");
		return -1;
	}
	if (!cJSON_GetArraySize(list)) {
		cJSON_Delete(list);
		return 0;
	}
	cJSON *o = cJSON_CreateObject();
	if (!o)
		xalloc_die();
	cJSON_AddItemToObject(o, "notes", list);
	char *payload = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!payload)
		xalloc_die();
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
	bool revealed = !strcmp(ev->type, "notes-revealed");
	if (!revealed && strcmp(ev->type, "note"))
		return 0;
	cJSON *o = cJSON_Parse(ev->payload ? ev->payload : "{}");
	if (!revealed) {
		cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
		if (cJSON_IsString(text))
			note_list_add(l, ev->seq, 0, text->valuestring);
	}
	cJSON *list = revealed ? cJSON_GetObjectItemCaseSensitive(o, "notes") : NULL;
	cJSON *n;
	cJSON_ArrayForEach(n, list)
	{
		cJSON *seq = cJSON_GetObjectItemCaseSensitive(n, "seq");
		cJSON *player = cJSON_GetObjectItemCaseSensitive(n, "player");
		cJSON *text = cJSON_GetObjectItemCaseSensitive(n, "text");
		if (cJSON_IsNumber(seq) && cJSON_IsString(text))
			note_list_add(l, (int64_t)seq->valuedouble,
				      cJSON_IsNumber(player) ? (int64_t)player->valuedouble : 0, text->valuestring);
	}
	cJSON_Delete(o);
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
