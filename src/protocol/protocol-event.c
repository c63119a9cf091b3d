/*
 * Events on the wire: the envelope {seq, type, t_ms} with the event's own
 * data members beside it, and the long-poll answer that carries a batch of
 * them. See tchess/protocol.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-json.h"
#include "util/buf.h"
#include "util/xalloc.h"

static const char *const reserved[] = { "seq", "type", "t_ms" };

bool protocol_event_reserved_member(const char *name)
{
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
		if (!strcmp(name, reserved[i]))
			return true;
	}
	return false;
}

bool protocol_event_type_valid(const char *type)
{
	size_t len = strlen(type);
	if (len == 0 || len > PROTOCOL_TYPE_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = type[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
			return false;
	}
	return true;
}

/* Parses an event's data (NULL or "" is {}) and checks it may sit beside
 * the envelope. */
static cJSON *data_parse(const char *data, struct protocol_error *err)
{
	if (!data || !*data)
		return protocol_json_object();
	cJSON *o = protocol_json_parse(data, strlen(data), "event data", err);
	if (!o)
		return NULL;
	if (protocol_json_check(o, NULL, 0, true, "event data", err)) {
		cJSON_Delete(o);
		return NULL;
	}
	for (const cJSON *m = o->child; m; m = m->next) {
		if (protocol_event_reserved_member(m->string)) {
			protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "event data: member \"%s\" is reserved",
					   m->string);
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

int protocol_event_data_check(const char *data, struct protocol_error *err)
{
	cJSON *o = data_parse(data, err);
	if (!o)
		return -1;
	cJSON_Delete(o);
	return 0;
}

static cJSON *event_json(const struct protocol_event *ev, struct protocol_error *err)
{
	if (!protocol_event_type_valid(ev->type)) {
		protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "event: malformed type");
		return NULL;
	}
	cJSON *data = data_parse(ev->data, err);
	if (!data)
		return NULL;
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "seq", ev->seq);
	protocol_json_add_string(o, "type", ev->type);
	protocol_json_add_int(o, "t_ms", ev->t_ms);
	/* Move data's members over rather than copy them. */
	while (data->child) {
		cJSON *m = cJSON_DetachItemViaPointer(data, data->child);
		cJSON_AddItemToObject(o, m->string, m);
	}
	cJSON_Delete(data);
	return o;
}

char *protocol_event_encode(const struct protocol_event *ev, struct protocol_error *err)
{
	cJSON *o = event_json(ev, err);
	return o ? protocol_json_print(o) : NULL;
}

/* Appends a string literal at p and moves p past it. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

/* Writes v in decimal at p; returns the length. */
static size_t put_int(char *p, int64_t v)
{
	char tmp[24];
	size_t n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	size_t len = 0;
	if (v < 0)
		p[len++] = '-';
	while (n)
		p[len++] = tmp[--n];
	return len;
}

char *protocol_event_encode_own(const struct protocol_event *ev)
{
	const char *data = ev->data && *ev->data ? ev->data : "{}";
	size_t dlen = strlen(data);
	if (!protocol_event_type_valid(ev->type) || dlen < 2 || data[0] != '{' || data[dlen - 1] != '}')
		return NULL;
	/* type needs no escaping: protocol_event_type_valid allows [a-z0-9-].
	 * Built by hand: this runs for every event a server commits. */
	size_t tlen = strlen(ev->type);
	char *out = xmalloc(sizeof "{\"seq\":,\"type\":\"\",\"t_ms\":," + 2 * 21 + tlen + dlen);
	char *p = out;
	PUT_LIT(p, "{\"seq\":");
	p += put_int(p, ev->seq);
	PUT_LIT(p, ",\"type\":\"");
	memcpy(p, ev->type, tlen);
	p += tlen;
	PUT_LIT(p, "\",\"t_ms\":");
	p += put_int(p, ev->t_ms);
	if (dlen > 2)
		*p++ = ',';
	/* data's members and its closing brace. */
	memcpy(p, data + 1, dlen - 1);
	p[dlen - 1] = '\0';
	return out;
}

static int event_from_json(cJSON *o, struct protocol_event *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "seq", PROTOCOL_JSON_INT, true },
		{ "type", PROTOCOL_JSON_STRING, true },
		{ "t_ms", PROTOCOL_JSON_INT, true },
	};
	const char *what = "event";
	out->data = NULL;
	if (!cJSON_IsObject(o))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: expected an object", what);
	if (protocol_json_check(o, fields, sizeof fields / sizeof fields[0], true, what, err) ||
	    protocol_json_copy(out->type, sizeof out->type, o, "type", false, what, err))
		return -1;
	if (!protocol_event_type_valid(out->type))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: malformed type", what);
	out->seq = protocol_json_int(o, "seq");
	out->t_ms = protocol_json_int(o, "t_ms");
	if (out->seq < 1)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: seq must be positive", what);
	cJSON *data = protocol_json_object();
	for (const cJSON *m = o->child; m; m = m->next) {
		if (protocol_event_reserved_member(m->string))
			continue;
		cJSON *copy = cJSON_Duplicate(m, 1);
		if (!copy)
			xalloc_die();
		protocol_json_add_item(data, m->string, copy);
	}
	out->data = protocol_json_print(data);
	return 0;
}

int protocol_event_decode(const char *json, size_t len, struct protocol_event *out, struct protocol_error *err)
{
	cJSON *o = protocol_json_parse(json, len, "event", err);
	if (!o)
		return -1;
	int rc = event_from_json(o, out, err);
	cJSON_Delete(o);
	return rc;
}

void protocol_event_fini(struct protocol_event *ev)
{
	free(ev->data);
	ev->data = NULL;
}

char *protocol_events_encode(const struct protocol_events *evs, struct protocol_error *err)
{
	cJSON *o = protocol_json_object();
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	protocol_json_add_item(o, "events", a);
	for (size_t i = 0; i < evs->n; i++) {
		cJSON *e = event_json(&evs->events[i], err);
		if (!e) {
			cJSON_Delete(o);
			return NULL;
		}
		if (!cJSON_AddItemToArray(a, e))
			xalloc_die();
	}
	protocol_json_add_int(o, "seq", evs->seq);
	protocol_json_add_int(o, "now_ms", evs->now_ms);
	if (evs->resync) {
		cJSON *snap = evs->snapshot ? protocol_json_parse(evs->snapshot, strlen(evs->snapshot), "snapshot", err)
					    : NULL;
		if (!cJSON_IsObject(snap)) {
			cJSON_Delete(snap);
			cJSON_Delete(o);
			if (evs->snapshot)
				protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "snapshot: expected an object");
			else
				protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "resync: no snapshot");
			return NULL;
		}
		protocol_json_add_item(o, "resync", cJSON_CreateBool(true));
		protocol_json_add_item(o, "snapshot", snap);
	}
	if (evs->vacations) {
		cJSON *vacs = protocol_json_parse(evs->vacations, strlen(evs->vacations), "vacations", err);
		if (!cJSON_IsObject(vacs)) {
			cJSON_Delete(vacs);
			cJSON_Delete(o);
			protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "vacations: expected an object");
			return NULL;
		}
		protocol_json_add_item(o, "vacations", vacs);
	}
	return protocol_json_print(o);
}

void protocol_events_close(struct buf *b, int64_t seq, int64_t now_ms)
{
	char tail[80];
	char *p = tail;
	PUT_LIT(p, "],\"seq\":");
	p += put_int(p, seq);
	PUT_LIT(p, ",\"now_ms\":");
	p += put_int(p, now_ms);
	*p++ = '}';
	buf_append(b, tail, (size_t)(p - tail));
}

char *protocol_events_encode_own(const struct protocol_events *evs)
{
	struct buf b;
	buf_init(&b);
	buf_append_str(&b, "{\"events\":[");
	for (size_t i = 0; i < evs->n; i++) {
		char *e = protocol_event_encode_own(&evs->events[i]);
		if (!e) {
			buf_fini(&b);
			return NULL;
		}
		if (i)
			buf_append(&b, ",", 1);
		buf_append_str(&b, e);
		free(e);
	}
	protocol_events_close(&b, evs->seq, evs->now_ms);
	return buf_steal(&b);
}

int protocol_events_decode(const char *json, size_t len, struct protocol_events *out, struct protocol_error *err)
{
	static const struct protocol_json_field fields[] = {
		{ "events", PROTOCOL_JSON_ARRAY, true },
		{ "seq", PROTOCOL_JSON_INT, true },
		{ "now_ms", PROTOCOL_JSON_INT, true },
		{ "resync", PROTOCOL_JSON_BOOL, false },
		{ "snapshot", PROTOCOL_JSON_OBJECT, false },
		{ "vacations", PROTOCOL_JSON_OBJECT, false },
	};
	memset(out, 0, sizeof *out);
	cJSON *o = protocol_json_parse(json, len, "events", err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, sizeof fields / sizeof fields[0], false, "events", err);
	if (!rc) {
		cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "events");
		out->events = xcalloc((size_t)cJSON_GetArraySize(a), sizeof *out->events);
		out->seq = protocol_json_int(o, "seq");
		out->now_ms = protocol_json_int(o, "now_ms");
		/* A snapshot comes with "resync": true, and only then. */
		const cJSON *snap = cJSON_GetObjectItemCaseSensitive(o, "snapshot");
		out->resync = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "resync"));
		if (out->resync != (snap != NULL))
			rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
						"events: \"snapshot\" comes with \"resync\": true, and only then");
		else if (snap)
			out->snapshot = protocol_json_print(cJSON_Duplicate(snap, 1));
		const cJSON *vacs = cJSON_GetObjectItemCaseSensitive(o, "vacations");
		if (vacs)
			out->vacations = protocol_json_print(cJSON_Duplicate(vacs, 1));
		int64_t prev = 0;
		for (cJSON *e = a->child; e && !rc; e = e->next) {
			rc = event_from_json(e, &out->events[out->n], err);
			out->n++;
			/* A batch is in log order; anything else is a broken server. */
			if (!rc && (out->events[out->n - 1].seq <= prev || out->events[out->n - 1].seq > out->seq))
				rc = protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
							"events: seq out of order or past the game's seq");
			if (!rc)
				prev = out->events[out->n - 1].seq;
		}
		if (rc)
			protocol_events_fini(out);
	}
	cJSON_Delete(o);
	return rc;
}

void protocol_events_fini(struct protocol_events *evs)
{
	for (size_t i = 0; i < evs->n; i++)
		protocol_event_fini(&evs->events[i]);
	free(evs->events);
	evs->events = NULL;
	evs->n = 0;
	free(evs->snapshot);
	evs->snapshot = NULL;
	free(evs->vacations);
	evs->vacations = NULL;
	evs->resync = false;
}
