/*
 * The one encoder and the one strict decoder of the protocol's messages
 * and the fold's event data; see protocol-codec.h. Strictness itself (kinds, unknown and
 * repeated members, missing ones) is protocol_json_check's, so a table
 * message and a hand-written one refuse the same bodies the same way.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol-codec.h"
#include "tchess/bitboard.h"
#include "util/xalloc.h"

/* More than any message has with its inline ones; protocol_json_check
 * takes its own rows. */
#define MEMBERS_MAX 32
/* Room for a named member's text, more than any names list needs. */
#define NAME_TEXT_MAX 64

static const char *const color_names[] = { [WHITE] = "white", [BLACK] = "black", NULL };

static const char *name_of(const char *const *names, int v)
{
	for (int i = 0; names[i]; i++) {
		if (i == v)
			return names[i];
	}
	return "";
}

static int index_of(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++) {
		if (!strcmp(s, names[i]))
			return i;
	}
	return -1;
}

static int64_t clamped(const struct protocol_codec_member *m, int64_t v)
{
	return (m->flags & PROTOCOL_CODEC_CLAMP) && v > PROTOCOL_CODEC_INT_MAX ? PROTOCOL_CODEC_INT_MAX : v;
}

static bool is_absent_value(const struct protocol_codec_member *m, const char *p)
{
	if (m->form == PROTOCOL_CODEC_COLOR || m->form == PROTOCOL_CODEC_NAME)
		return *(const int *)p == m->absent;
	switch (m->kind) {
	case PROTOCOL_JSON_STRING:
		return !p[0];
	case PROTOCOL_JSON_INT:
	case PROTOCOL_JSON_INT_OR_NULL:
		return *(const int64_t *)p == m->absent;
	case PROTOCOL_JSON_BOOL:
		return !*(const bool *)p;
	default:
		return true;
	}
}

static unsigned parts_of(const struct protocol_codec_message *msg, const void *base)
{
	return msg->parts ? *(const unsigned *)((const char *)base + msg->parts_offset) : 0;
}

static void add_to_array(cJSON *a, cJSON *item)
{
	if (!item || !cJSON_AddItemToArray(a, item))
		xalloc_die();
}

static cJSON *list_value(const struct protocol_codec_member *m, const char *p, size_t count)
{
	const char *elems = m->size ? p : *(const char *const *)p;
	if (m->elem)
		return protocol_codec_array(m->elem, elems, m->elem_size, count);
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	for (size_t i = 0; i < count; i++) {
		char text[24];
		snprintf(text, sizeof text, "%lld", (long long)((const int64_t *)elems)[i]);
		add_to_array(a, cJSON_CreateRaw(text));
	}
	return a;
}

static void write_members(const struct protocol_codec_message *msg, cJSON *o, const void *src)
{
	unsigned parts = parts_of(msg, src);
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		const char *p = (const char *)src + m->offset;
		if (m->part && !(parts & m->part))
			continue;
		if (m->form == PROTOCOL_CODEC_INLINE) {
			write_members(m->elem, o, p);
			continue;
		}
		if (m->form == PROTOCOL_CODEC_LIST) {
			size_t count = *(const size_t *)((const char *)src + m->count_offset);
			if (count || !(m->flags & PROTOCOL_CODEC_OMIT))
				protocol_json_add_item(o, m->name, list_value(m, p, count));
			continue;
		}
		if (m->form == PROTOCOL_CODEC_NESTED) {
			cJSON *v = m->nested->write(p);
			if (v)
				protocol_json_add_item(o, m->name, v);
			continue;
		}
		if (m->form == PROTOCOL_CODEC_HOOK || ((m->flags & PROTOCOL_CODEC_OMIT) && is_absent_value(m, p)))
			continue;
		if (m->form == PROTOCOL_CODEC_COLOR) {
			int c = *(const int *)p;
			const char *s = c == WHITE || c == BLACK ? color_names[c] : NULL;
			/* Not a side and no null allowed: cJSON_CreateString(NULL)
			 * fails and the add aborts, a programmer's error. */
			protocol_json_add_item(o, m->name, !s && m->kind == PROTOCOL_JSON_STRING_OR_NULL
								   ? cJSON_CreateNull() : cJSON_CreateString(s));
			continue;
		}
		if (m->form == PROTOCOL_CODEC_NAME) {
			protocol_json_add_string(o, m->name, name_of(m->names, *(const int *)p));
			continue;
		}
		switch (m->kind) {
		case PROTOCOL_JSON_STRING:
			if (!p[0] && (m->flags & PROTOCOL_CODEC_NULL_EMPTY))
				protocol_json_add_item(o, m->name, cJSON_CreateNull());
			else
				protocol_json_add_string(o, m->name, p);
			break;
		case PROTOCOL_JSON_INT:
			protocol_json_add_int(o, m->name, clamped(m, *(const int64_t *)p));
			break;
		case PROTOCOL_JSON_INT_OR_NULL: {
			int64_t v = *(const int64_t *)p;
			if (v == m->absent)
				protocol_json_add_item(o, m->name, cJSON_CreateNull());
			else if (m->flags & PROTOCOL_CODEC_DOUBLE)
				protocol_json_add_item(o, m->name, cJSON_CreateNumber((double)clamped(m, v)));
			else
				protocol_json_add_int(o, m->name, clamped(m, v));
			break;
		}
		case PROTOCOL_JSON_BOOL:
			protocol_json_add_item(o, m->name, cJSON_CreateBool(*(const bool *)p));
			break;
		default:
			break; /* the encode_rest hook's */
		}
	}
	if (msg->encode_rest)
		msg->encode_rest(o, src);
}

cJSON *protocol_codec_object(const struct protocol_codec_message *msg, const void *src)
{
	cJSON *o = protocol_json_object();
	write_members(msg, o, src);
	return o;
}

char *protocol_codec_encode(const struct protocol_codec_message *msg, const void *src)
{
	return protocol_json_print(protocol_codec_object(msg, src));
}

static int read_color(const struct protocol_codec_member *m, const cJSON *o, int *p, const char *what,
		      struct protocol_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, m->name);
	bool null_ok = m->kind == PROTOCOL_JSON_STRING_OR_NULL;
	if (!v || (null_ok && cJSON_IsNull(v))) {
		*p = (int)m->absent;
		return 0;
	}
	*p = cJSON_IsString(v) ? index_of(color_names, v->valuestring) : -1;
	if (*p < 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST,
					  "%s: member \"%s\" must be \"white\" or \"black\"%s", what, m->name,
					  null_ok ? " or null" : "");
	return 0;
}

static int read_name(const struct protocol_codec_member *m, const cJSON *o, int *p, const char *what,
		     struct protocol_error *err)
{
	char text[NAME_TEXT_MAX];
	assert(m->size <= sizeof text);
	if (!cJSON_GetObjectItemCaseSensitive(o, m->name)) {
		*p = (int)m->absent;
		return 0;
	}
	if (protocol_json_copy(text, m->size, o, m->name, m->flags & PROTOCOL_CODEC_EMPTY_OK, what, err))
		return -1;
	*p = index_of(m->names, text);
	return 0;
}

static int read_member(const struct protocol_codec_member *m, const cJSON *o, char *p, const char *what,
		       struct protocol_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, m->name);
	switch (m->form) {
	case PROTOCOL_CODEC_NAME:
		return read_name(m, o, (int *)p, what, err);
	case PROTOCOL_CODEC_COLOR:
	case PROTOCOL_CODEC_NESTED:
	case PROTOCOL_CODEC_LIST:
	case PROTOCOL_CODEC_INLINE:
		return 0; /* a pass of their own */
	case PROTOCOL_CODEC_HOOK:
		return 0; /* the decode_rest hook's */
	case PROTOCOL_CODEC_PLAIN:
		break;
	}
	switch (m->kind) {
	case PROTOCOL_JSON_STRING:
		if (!v || cJSON_IsNull(v)) { /* null only where NULL_EMPTY let it through */
			p[0] = '\0';
			return 0;
		}
		if (m->valid && !m->valid(v->valuestring, err))
			return -1;
		return protocol_json_copy(p, m->size, o, m->name, m->flags & PROTOCOL_CODEC_EMPTY_OK, what, err);
	case PROTOCOL_JSON_INT:
	case PROTOCOL_JSON_INT_OR_NULL:
		*(int64_t *)p = !v || cJSON_IsNull(v) ? m->absent : protocol_json_int(o, m->name);
		return 0;
	case PROTOCOL_JSON_BOOL:
		*(bool *)p = cJSON_IsTrue(v);
		return 0;
	default:
		return 0; /* the decode_rest hook's */
	}
}

/* The array a into the list member m of dst. */
static int read_list(const struct protocol_codec_member *m, const cJSON *a, char *dst, const char *what,
		     struct protocol_error *err)
{
	size_t *count = (size_t *)(dst + m->count_offset);
	size_t n = (size_t)cJSON_GetArraySize(a);
	char *elems = dst + m->offset;
	*count = 0;
	if (m->size && n > m->size)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: at most %zu %s", what, m->size, m->name);
	if (!m->size) {
		/* Whatever the pointer held is the caller's (it starts NULL). */
		char *list = xcalloc(n ? n : 1, m->elem_size);
		*(char **)elems = list;
		elems = list;
	}
	for (const cJSON *x = a->child; x; x = x->next) {
		char *e = elems + *count * m->elem_size;
		if (m->elem) {
			if (protocol_codec_read(m->elem, x, e, err))
				return -1;
		} else if (protocol_json_is_int(x)) {
			*(int64_t *)e = (int64_t)x->valuedouble;
		} else {
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: %s must hold integers", what,
						  m->name);
		}
		++*count;
	}
	return 0;
}

/* The rows protocol_json_check holds o to: msg's own and its inline
 * messages', flattened. */
static void collect_fields(const struct protocol_codec_message *msg, struct protocol_json_field *fields, size_t *n)
{
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		if (m->form == PROTOCOL_CODEC_INLINE) {
			collect_fields(m->elem, fields, n);
			continue;
		}
		assert(*n < MEMBERS_MAX);
		fields[*n].name = m->name;
		fields[*n].kind = m->kind == PROTOCOL_JSON_STRING && (m->flags & PROTOCOL_CODEC_NULL_EMPTY)
					  ? PROTOCOL_JSON_STRING_OR_NULL : m->kind;
		fields[*n].required = m->flags & PROTOCOL_CODEC_REQUIRED;
		++*n;
	}
}

/* Every pass of protocol_codec_read after the check. */
static int read_passes(const struct protocol_codec_message *msg, const cJSON *o, char *dst,
		       struct protocol_error *err)
{
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		if (m->form == PROTOCOL_CODEC_COLOR && read_color(m, o, (int *)(dst + m->offset), msg->what, err))
			return -1;
	}
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		if (read_member(m, o, dst + m->offset, msg->what, err))
			return -1;
	}
	/* Bounds after every copy, so a bad string is reported before a bad
	 * number wherever they stand in the table. */
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		if ((m->flags & PROTOCOL_CODEC_NON_NEGATIVE) && *(const int64_t *)(dst + m->offset) < 0)
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: %s must not be negative",
						  msg->what, m->name);
	}
	unsigned *parts = msg->parts ? (unsigned *)(dst + msg->parts_offset) : NULL;
	if (parts)
		*parts = 0;
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		const cJSON *v = m->form == PROTOCOL_CODEC_INLINE ? NULL : cJSON_GetObjectItemCaseSensitive(o, m->name);
		if (v && m->part && parts)
			*parts |= m->part;
		if (m->form == PROTOCOL_CODEC_LIST) {
			if (v) {
				if (read_list(m, v, dst, msg->what, err))
					return -1;
			} else {
				*(size_t *)(dst + m->count_offset) = 0;
			}
		}
		if (m->form == PROTOCOL_CODEC_NESTED && v && m->nested->read &&
		    m->nested->read(v, dst + m->offset, err))
			return -1;
	}
	for (size_t i = 0; i < msg->n; i++) {
		const struct protocol_codec_member *m = &msg->members[i];
		if (m->form == PROTOCOL_CODEC_INLINE && read_passes(m->elem, o, dst + m->offset, err))
			return -1;
	}
	return msg->decode_rest ? msg->decode_rest(o, dst, msg->what, err) : 0;
}

int protocol_codec_read(const struct protocol_codec_message *msg, const cJSON *o, void *dst,
			struct protocol_error *err)
{
	struct protocol_json_field fields[MEMBERS_MAX];
	size_t n = 0;
	collect_fields(msg, fields, &n);
	if (!cJSON_IsObject(o))
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: expected an object", msg->what);
	if (protocol_json_check(o, fields, n, msg->open, msg->what, err))
		return -1;
	return read_passes(msg, o, dst, err);
}

int protocol_codec_decode(const struct protocol_codec_message *msg, const char *json, size_t len, void *dst,
			  struct protocol_error *err)
{
	cJSON *o = protocol_json_parse(json, len, msg->what, err);
	if (!o)
		return -1;
	int rc = protocol_codec_read(msg, o, dst, err);
	cJSON_Delete(o);
	return rc;
}

cJSON *protocol_codec_array(const struct protocol_codec_message *elem, const void *elems, size_t elem_size,
			    size_t n)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	for (size_t i = 0; i < n; i++) {
		if (!cJSON_AddItemToArray(a, protocol_codec_object(elem, (const char *)elems + i * elem_size)))
			xalloc_die();
	}
	return a;
}

int protocol_codec_decode_list(const char *what, const char *name, const struct protocol_codec_message *elem,
			       size_t elem_size, const char *json, size_t len, void **out, size_t *n,
			       struct protocol_error *err)
{
	const struct protocol_json_field fields[] = {
		{ name, PROTOCOL_JSON_ARRAY, true },
	};
	*out = NULL;
	*n = 0;
	cJSON *o = protocol_json_parse(json, len, what, err);
	if (!o)
		return -1;
	int rc = protocol_json_check(o, fields, 1, false, what, err);
	if (!rc) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name);
		char *list = xcalloc((size_t)cJSON_GetArraySize(a), elem_size);
		size_t count = 0;
		for (const cJSON *x = a->child; x && !rc; x = x->next)
			rc = protocol_codec_read(elem, x, list + count++ * elem_size, err);
		if (rc) {
			free(list);
		} else {
			*out = list;
			*n = count;
		}
	}
	cJSON_Delete(o);
	return rc;
}

cJSON *protocol_codec_strings(const char *first, size_t stride, int n)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		xalloc_die();
	for (int i = 0; i < n; i++) {
		cJSON *m = cJSON_CreateString(first + (size_t)i * stride);
		if (!m || !cJSON_AddItemToArray(a, m))
			xalloc_die();
	}
	return a;
}

enum protocol_codec_strings_status protocol_codec_read_strings(const cJSON *a, char *first, size_t stride, int max,
							       int *n)
{
	for (const cJSON *m = a->child; m; m = m->next) {
		if (*n == max)
			return PROTOCOL_CODEC_STRINGS_TOO_MANY;
		if (!cJSON_IsString(m) || !m->valuestring[0] || strlen(m->valuestring) >= stride)
			return PROTOCOL_CODEC_STRINGS_BAD;
		strcpy(first + (size_t)(*n)++ * stride, m->valuestring);
	}
	return PROTOCOL_CODEC_STRINGS_OK;
}
