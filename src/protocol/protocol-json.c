/*
 * Strict JSON helpers on cJSON; see protocol-json.h. Error messages quote
 * member names with control characters replaced and long names cut, because
 * they come from untrusted input and end up in logs and terminals.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "protocol-json.h"
#include "util/xalloc.h"

#define MAX_SAFE_INT 9007199254740992.0 /* 2^53 */

static void safe_name(char *out, size_t size, const char *name)
{
	size_t i = 0;
	for (; name && name[i] && i + 4 < size && i < 40; i++) {
		unsigned char c = (unsigned char)name[i];
		out[i] = (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') ? '?' : (char)c;
	}
	if (name && name[i])
		out[i++] = '.', out[i++] = '.';
	out[i] = '\0';
}

cJSON *protocol_json_parse(const char *json, size_t len, const char *what, struct protocol_error *err)
{
	if (!json || !len) {
		protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: empty body, expected a JSON object", what);
		return NULL;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root) {
		size_t off = end && end >= json ? (size_t)(end - json) : 0;
		protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: malformed JSON at byte %zu", what, off);
		return NULL;
	}
	for (const char *p = end; p && p < json + len; p++) {
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			cJSON_Delete(root);
			protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: trailing data after the JSON value at byte %zu",
					   what, (size_t)(p - json));
			return NULL;
		}
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: expected a JSON object", what);
		return NULL;
	}
	return root;
}

bool protocol_json_is_int(const cJSON *v)
{
	if (!cJSON_IsNumber(v))
		return false;
	double d = v->valuedouble;
	/* NaN fails both comparisons; inf fails the range check. */
	if (!(d >= -MAX_SAFE_INT && d <= MAX_SAFE_INT))
		return false;
	return (double)(int64_t)d == d;
}

static const char *kind_name(enum protocol_json_kind kind)
{
	switch (kind) {
	case PROTOCOL_JSON_STRING:
		return "a string";
	case PROTOCOL_JSON_INT:
		return "an integer";
	case PROTOCOL_JSON_INT_OR_NULL:
		return "an integer or null";
	case PROTOCOL_JSON_OBJECT:
		return "an object";
	case PROTOCOL_JSON_ARRAY:
		return "an array";
	case PROTOCOL_JSON_BOOL:
		return "true or false";
	case PROTOCOL_JSON_STRING_OR_NULL:
		return "a string or null";
	case PROTOCOL_JSON_OBJECT_OR_NULL:
		return "an object or null";
	case PROTOCOL_JSON_NUMBER:
		return "a number";
	}
	return "?";
}

static bool kind_ok(const cJSON *v, enum protocol_json_kind kind)
{
	switch (kind) {
	case PROTOCOL_JSON_STRING:
		return cJSON_IsString(v) && v->valuestring;
	case PROTOCOL_JSON_INT:
		return protocol_json_is_int(v);
	case PROTOCOL_JSON_INT_OR_NULL:
		return cJSON_IsNull(v) || protocol_json_is_int(v);
	case PROTOCOL_JSON_OBJECT:
		return cJSON_IsObject(v);
	case PROTOCOL_JSON_ARRAY:
		return cJSON_IsArray(v);
	case PROTOCOL_JSON_BOOL:
		return cJSON_IsBool(v);
	case PROTOCOL_JSON_STRING_OR_NULL:
		return cJSON_IsNull(v) || (cJSON_IsString(v) && v->valuestring);
	case PROTOCOL_JSON_OBJECT_OR_NULL:
		return cJSON_IsNull(v) || cJSON_IsObject(v);
	case PROTOCOL_JSON_NUMBER:
		return cJSON_IsNumber(v) && isfinite(v->valuedouble);
	}
	return false;
}

int protocol_json_check(const cJSON *obj, const struct protocol_json_field *fields, size_t n, bool extra_ok,
			const char *what, struct protocol_error *err)
{
	char name[48];
	for (const cJSON *m = obj->child; m; m = m->next) {
		safe_name(name, sizeof name, m->string);
		for (const cJSON *o = obj->child; o != m; o = o->next) {
			if (o->string && m->string && !strcmp(o->string, m->string))
				return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" repeated",
							  what, name);
		}
		size_t i = 0;
		while (i < n && strcmp(fields[i].name, m->string ? m->string : ""))
			i++;
		if (i == n) {
			if (extra_ok)
				continue;
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: unknown member \"%s\"", what,
						  name);
		}
		if (!kind_ok(m, fields[i].kind))
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" must be %s", what,
						  name, kind_name(fields[i].kind));
	}
	for (size_t i = 0; i < n; i++) {
		if (fields[i].required && !cJSON_GetObjectItemCaseSensitive(obj, fields[i].name))
			return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" is missing", what,
						  fields[i].name);
	}
	return 0;
}

int64_t protocol_json_int(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	return protocol_json_is_int(v) ? (int64_t)v->valuedouble : 0;
}

int protocol_json_copy(char *dst, size_t size, const cJSON *obj, const char *name, bool empty_ok, const char *what,
		       struct protocol_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	const char *s = cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
	size_t len = strlen(s);
	if (len >= size)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" is longer than %zu bytes",
					  what, name, size - 1);
	if (!len && !empty_ok)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: member \"%s\" is empty", what, name);
	memcpy(dst, s, len + 1);
	return 0;
}

char *protocol_json_print(cJSON *obj)
{
	char *s = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	if (!s)
		xalloc_die();
	return s;
}

cJSON *protocol_json_object(void)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		xalloc_die();
	return o;
}

void protocol_json_add_item(cJSON *obj, const char *name, cJSON *item)
{
	if (!item || !cJSON_AddItemToObject(obj, name, item))
		xalloc_die();
}

void protocol_json_add_int(cJSON *obj, const char *name, int64_t v)
{
	/* A raw item printed as is: cJSON would print a number with "%1.15g",
	 * read it back with sscanf and maybe print it again with "%1.17g",
	 * which was a tenth of tchessd's time under load. Objects built here
	 * are only printed, never read back. */
	char text[24];
	snprintf(text, sizeof text, "%lld", (long long)v);
	protocol_json_add_item(obj, name, cJSON_CreateRaw(text));
}

void protocol_json_add_string(cJSON *obj, const char *name, const char *s)
{
	protocol_json_add_item(obj, name, cJSON_CreateString(s));
}
