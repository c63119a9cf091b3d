/*
 * Strict JSON reading and small writing helpers on cJSON, private to the
 * protocol codec. Every decoder goes through protocol_json_parse and
 * protocol_json_check so "strict" means the same thing for every message.
 */
#ifndef TCHESS_PROTOCOL_JSON_H
#define TCHESS_PROTOCOL_JSON_H

#include <cjson/cJSON.h>

#include "tchess/protocol.h"

enum protocol_json_kind {
	PROTOCOL_JSON_STRING,
	PROTOCOL_JSON_INT,         /* integral, |n| <= 2^53 */
	PROTOCOL_JSON_INT_OR_NULL, /* the same, or null */
	PROTOCOL_JSON_OBJECT,
	PROTOCOL_JSON_ARRAY,
	PROTOCOL_JSON_BOOL,
	PROTOCOL_JSON_STRING_OR_NULL,
	PROTOCOL_JSON_OBJECT_OR_NULL,
	PROTOCOL_JSON_NUMBER,      /* any finite number (1.5) */
};

struct protocol_json_field {
	const char *name;
	enum protocol_json_kind kind;
	bool required;
};

/* The number of entries of an array of fields (or of any other array). */
#define N_FIELDS(a) (sizeof(a) / sizeof((a)[0]))

/* Parses json[0..len) as exactly one JSON object (whitespace may follow);
 * what names the message in error messages. Returns NULL with err set. */
cJSON *protocol_json_parse(const char *json, size_t len, const char *what, struct protocol_error *err);
/* Checks obj's members against fields: no unknown or repeated member, each
 * of the right kind, every required one present. If extra_ok, unknown
 * members are allowed (an event's data) but still must not repeat. */
int protocol_json_check(const cJSON *obj, const struct protocol_json_field *fields, size_t n, bool extra_ok,
			const char *what, struct protocol_error *err);
/* Whether v is an integer as PROTOCOL_JSON_INT means it. */
bool protocol_json_is_int(const cJSON *v);
/* Value of an integer member that protocol_json_check accepted (0 if null or
 * absent). */
int64_t protocol_json_int(const cJSON *obj, const char *name);
/* Copies a string member into dst (size bytes); fails if it does not fit
 * or is empty and !empty_ok. An absent member copies "". */
int protocol_json_copy(char *dst, size_t size, const cJSON *obj, const char *name, bool empty_ok, const char *what,
		       struct protocol_error *err);
/* Prints obj unformatted and deletes it; aborts on out-of-memory. */
char *protocol_json_print(cJSON *obj);
/* cJSON constructors that abort on out-of-memory instead of returning NULL. */
cJSON *protocol_json_object(void);
/* Adds an integer as a raw item (printed exactly, in decimal): for objects
 * that are built to be printed, not read back with protocol_json_int. */
void protocol_json_add_int(cJSON *obj, const char *name, int64_t v);
void protocol_json_add_string(cJSON *obj, const char *name, const char *s);
void protocol_json_add_item(cJSON *obj, const char *name, cJSON *item);

#endif
