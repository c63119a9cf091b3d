/*
 * The table-driven codec behind the protocol's flat messages, private to
 * the protocol library. A message is described once, as a static table of
 * its members (JSON name, kind, flags, where the value sits in the C
 * struct); one encoder and one strict decoder walk that table, so every
 * message means the same by "required", "optional", "may be empty" and
 * "left out when empty". The public protocol_*_encode/decode functions are
 * thin wrappers that name their table and add the checks that are theirs
 * alone (a hook at the end of either direction).
 */
#ifndef TCHESS_PROTOCOL_CODEC_H
#define TCHESS_PROTOCOL_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "protocol-json.h"

enum protocol_codec_flag {
	/* Decoding: the member must be present. */
	PROTOCOL_CODEC_REQUIRED = 1,
	/* Strings: "" is accepted when the member is present (an absent
	 * optional string is "" in any case). */
	PROTOCOL_CODEC_EMPTY_OK = 2,
	/* Encoding: left out when its value is what an absent member decodes
	 * to ("", the member's absent value, false). */
	PROTOCOL_CODEC_OMIT = 4,
	/* Integers: a negative value is refused with "WHAT: NAME must not be
	 * negative", after every member has been read. */
	PROTOCOL_CODEC_NON_NEGATIVE = 8,
};

/*
 * One member. Kinds and their C types: PROTOCOL_JSON_STRING is a char
 * array of size bytes; PROTOCOL_JSON_INT an int64_t (written as a raw
 * decimal); PROTOCOL_JSON_INT_OR_NULL an int64_t with 0 for null (written
 * as a number, 0 as null); PROTOCOL_JSON_BOOL a bool. Members of the other
 * kinds (arrays, objects) are only checked for kind and presence: their
 * message's hooks read and write them, so they stand last in the table.
 */
struct protocol_codec_member {
	const char *name;
	enum protocol_json_kind kind;
	unsigned flags;
	size_t offset;
	size_t size;
	/* Strings: checked before the copy (its error is the message's); NULL
	 * for none. */
	bool (*valid)(const char *s, struct protocol_error *err);
	/* Integers: the value of an absent member. */
	int64_t absent;
};

struct protocol_codec_message {
	const char *what; /* names the message in error messages */
	const struct protocol_codec_member *members;
	size_t n;
	/* Decoding, after the members: the message's own checks and members;
	 * what the table left to it. NULL for none. */
	int (*decode_rest)(const cJSON *o, void *dst, const char *what, struct protocol_error *err);
	/* Encoding, after the members. NULL for none. */
	void (*encode_rest)(cJSON *o, const void *src);
};

/* Table rows for a member whose JSON name is its C name, in struct T. */
#define PROTOCOL_CODEC_STRING(T, m, flags) \
	{ #m, PROTOCOL_JSON_STRING, (flags), offsetof(T, m), sizeof(((T *)0)->m), NULL, 0 }
#define PROTOCOL_CODEC_INT(T, m, flags) { #m, PROTOCOL_JSON_INT, (flags), offsetof(T, m), 0, NULL, 0 }
#define PROTOCOL_CODEC_SEAT(T, m, flags) { #m, PROTOCOL_JSON_INT_OR_NULL, (flags), offsetof(T, m), 0, NULL, 0 }
#define PROTOCOL_CODEC_BOOL(T, m, flags) { #m, PROTOCOL_JSON_BOOL, (flags), offsetof(T, m), 0, NULL, 0 }
/* A member the message's hooks handle (an array or an object). */
#define PROTOCOL_CODEC_HOOKED(name, kind, flags) { (name), (kind), (flags), 0, 0, NULL, 0 }

#define PROTOCOL_CODEC_MESSAGE(what, members, decode_rest, encode_rest) \
	{ (what), (members), sizeof(members) / sizeof((members)[0]), (decode_rest), (encode_rest) }

/* The message as a new object (for nesting); aborts on out-of-memory. */
cJSON *protocol_codec_object(const struct protocol_codec_message *msg, const void *src);
/* The message as JSON text the caller frees. */
char *protocol_codec_encode(const struct protocol_codec_message *msg, const void *src);
/* Reads the object o (anything else is "WHAT: expected an object") into
 * dst strictly: protocol_json_check, then each member in table order, then
 * the non-negative checks, then decode_rest. Returns 0 or -1 with err set;
 * on error dst may be partly written. */
int protocol_codec_read(const struct protocol_codec_message *msg, const cJSON *o, void *dst,
			struct protocol_error *err);
/* Parses json[0..len) as one object and reads it with protocol_codec_read. */
int protocol_codec_decode(const struct protocol_codec_message *msg, const char *json, size_t len, void *dst,
			  struct protocol_error *err);

/* An array of n elements of elem_size bytes each, encoded as elem. */
cJSON *protocol_codec_array(const struct protocol_codec_message *elem, const void *elems, size_t elem_size,
			    size_t n);
/* {NAME: [elem...]}: what names the whole message, name its one member.
 * *out is malloc'd (the caller frees it; NULL on error), *n its length. */
int protocol_codec_decode_list(const char *what, const char *name, const struct protocol_codec_message *elem,
			       size_t elem_size, const char *json, size_t len, void **out, size_t *n,
			       struct protocol_error *err);

#endif
