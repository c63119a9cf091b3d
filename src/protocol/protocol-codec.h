/*
 * The table-driven codec behind the protocol's messages and the fold's
 * event data, private to the protocol library. A message is described
 * once, as a static table of its members (JSON name, kind, flags, where
 * the value sits in the C struct); one encoder and one strict decoder walk
 * that table, so every message means the same by "required", "optional",
 * "may be empty" and "left out when empty". The public encode/decode
 * functions are thin wrappers that name their table and add the checks
 * that are theirs alone (a hook at the end of either direction).
 *
 * Requests are read strictly. The server's answers, which the client
 * reads, are "open" messages: a member the table does not name is
 * skipped (a newer server may add members), while the members it names
 * are held to their kinds as strictly as a request's.
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
	 * to ("", the member's absent value, false, no elements). */
	PROTOCOL_CODEC_OMIT = 4,
	/* Integers: a negative value is refused with "WHAT: NAME must not be
	 * negative", after every member has been read. */
	PROTOCOL_CODEC_NON_NEGATIVE = 8,
	/* Integers: written as at most PROTOCOL_CODEC_INT_MAX (a clock with
	 * no limit holds more). */
	PROTOCOL_CODEC_CLAMP = 16,
	/* PROTOCOL_JSON_INT_OR_NULL: written the way cJSON prints a double,
	 * not as a raw decimal (seats have always been). */
	PROTOCOL_CODEC_DOUBLE = 32,
	/* Strings: null reads as "" and "" is written as null. Only where a
	 * row says so: elsewhere null is of the wrong kind. */
	PROTOCOL_CODEC_NULL_EMPTY = 64,
};

/* The largest integer a JSON number carries exactly. */
#define PROTOCOL_CODEC_INT_MAX 9007199254740991LL

/*
 * What a member's C value is, beyond its JSON kind. The decoder reads
 * colours first, then the plain and named members in table order, then
 * checks the non-negative ones, then reads the nested objects in table
 * order, then calls decode_rest: the order the fold's hand-written
 * decoders reported errors in, which stored events still rely on.
 */
enum protocol_codec_form {
	PROTOCOL_CODEC_PLAIN = 0, /* as the kind says (see struct protocol_codec_member) */
	/* An int: "white" is WHITE, "black" BLACK; with kind
	 * PROTOCOL_JSON_STRING_OR_NULL, null is the absent value (and that
	 * value is written as null). Anything else is refused with "WHAT:
	 * member "NAME" must be "white" or "black"[ or null]". */
	PROTOCOL_CODEC_COLOR,
	/* An int: the index of the string in names (NULL-terminated). The
	 * text is bounded by size like a string member's; an unknown one
	 * reads as -1, for decode_rest to refuse in the message's own words.
	 * A value outside names is written as "". */
	PROTOCOL_CODEC_NAME,
	/* A value of the member's kind (an object, or null, or a number)
	 * read and written by nested's hooks. */
	PROTOCOL_CODEC_NESTED,
	/* Only checked for kind and presence: the message's decode_rest and
	 * encode_rest read and write it, so it stands after the members the
	 * table writes. */
	PROTOCOL_CODEC_HOOK,
	/* An array (kind PROTOCOL_JSON_ARRAY) of elem's objects, or of
	 * integers (int64_t) when elem is NULL, elem_size bytes each, read
	 * with the nested objects. size is the C array's capacity in
	 * elements, stored at offset; size 0 means a malloc'd array whose
	 * pointer is at offset (set when the member is present, before the
	 * elements are read, so the message's own fini frees it after an
	 * error; the decoder never frees what it held). The size_t count is
	 * at count_offset. Beyond the capacity: "WHAT: at most N NAME"; an
	 * integer element that is not one: "WHAT: NAME must hold integers". */
	PROTOCOL_CODEC_LIST,
	/* elem's members, at offset, in this same object: a message that is
	 * also part of a bigger one (a summary inside the whole). No name;
	 * its members are checked with this message's and read after this
	 * message's nested objects, before decode_rest. */
	PROTOCOL_CODEC_INLINE,
};

/* A nested member's hooks, both on the member's storage (the struct plus
 * offset). */
struct protocol_codec_nested {
	/* The member's value (a new item), or NULL to leave it out. */
	cJSON *(*write)(const void *p);
	/* Called only when the member is present (of the right kind). */
	int (*read)(const cJSON *v, void *p, struct protocol_error *err);
};

/*
 * One member. Kinds and their C types: PROTOCOL_JSON_STRING is a char
 * array of size bytes; PROTOCOL_JSON_INT an int64_t (written as a raw
 * decimal); PROTOCOL_JSON_INT_OR_NULL an int64_t with 0 for null (written
 * by default as a raw decimal, the absent value as null); PROTOCOL_JSON_BOOL
 * a bool. A member whose form is not PROTOCOL_CODEC_PLAIN is read as its
 * form says; arrays and objects must have one.
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
	/* Integers and colours: the value of an absent member (and of null). */
	int64_t absent;
	enum protocol_codec_form form;
	const char *const *names;                    /* PROTOCOL_CODEC_NAME */
	const struct protocol_codec_nested *nested;  /* PROTOCOL_CODEC_NESTED */
	/* PROTOCOL_CODEC_LIST and _INLINE. */
	const struct protocol_codec_message *elem;
	size_t elem_size, count_offset;
	/* Non-zero: a bit of the message's parts mask. Written only when the
	 * mask has it; decoding sets it when the member is present. */
	unsigned part;
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
	/* Decoding: members the table does not name are skipped, not
	 * refused (still not repeated). For answers, never requests. */
	bool open;
	/* The members with a part bit: parts_offset is where the message's
	 * unsigned mask of them sits. */
	bool parts;
	size_t parts_offset;
};

/* Table rows for the member JSON name of struct T whose C name is m (the
 * _AS rows; m may name a nested member, "vacation.start_ms"), or for a
 * member whose JSON name is its C name. */
#define PROTOCOL_CODEC_STRING_AS(name_, T, m, flags_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_STRING, .flags = (flags_), .offset = offsetof(T, m), \
	  .size = sizeof(((T *)0)->m) }
#define PROTOCOL_CODEC_STRING(T, m, flags_) PROTOCOL_CODEC_STRING_AS(#m, T, m, flags_)
#define PROTOCOL_CODEC_INT_AS(name_, T, m, flags_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_INT, .flags = (flags_), .offset = offsetof(T, m) }
#define PROTOCOL_CODEC_INT(T, m, flags_) PROTOCOL_CODEC_INT_AS(#m, T, m, flags_)
#define PROTOCOL_CODEC_SEAT(T, m, flags_) \
	{ .name = #m, .kind = PROTOCOL_JSON_INT_OR_NULL, .flags = (flags_) | PROTOCOL_CODEC_DOUBLE, \
	  .offset = offsetof(T, m) }
#define PROTOCOL_CODEC_BOOL(T, m, flags_) \
	{ .name = #m, .kind = PROTOCOL_JSON_BOOL, .flags = (flags_), .offset = offsetof(T, m) }
/* A colour (an int); null_ok: null stands for the value absent. */
#define PROTOCOL_CODEC_COLOR_AS(name_, T, m, flags_, null_ok, absent_value) \
	{ .name = (name_), .kind = (null_ok) ? PROTOCOL_JSON_STRING_OR_NULL : PROTOCOL_JSON_STRING, \
	  .flags = (flags_), .offset = offsetof(T, m), .absent = (absent_value), .form = PROTOCOL_CODEC_COLOR }
/* One of names (an int), its text at most size - 1 bytes. */
#define PROTOCOL_CODEC_NAME_AS(name_, T, m, flags_, names_, size_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_STRING, .flags = (flags_), .offset = offsetof(T, m), \
	  .size = (size_), .form = PROTOCOL_CODEC_NAME, .names = (names_) }
/* A value of kind (PROTOCOL_JSON_OBJECT, _OBJECT_OR_NULL, _NUMBER) at
 * offset; the _PART row is a part of its message. */
#define PROTOCOL_CODEC_NESTED_PART_AT(name_, kind_, flags_, offset_, hooks, part_) \
	{ .name = (name_), .kind = (kind_), .flags = (flags_), .offset = (offset_), .form = PROTOCOL_CODEC_NESTED, \
	  .nested = (hooks), .part = (part_) }
#define PROTOCOL_CODEC_NESTED_AT(name_, kind_, flags_, offset_, hooks) \
	PROTOCOL_CODEC_NESTED_PART_AT(name_, kind_, flags_, offset_, hooks, 0)
/* A member the message's hooks handle. */
#define PROTOCOL_CODEC_HOOKED(name_, kind_, flags_) \
	{ .name = (name_), .kind = (kind_), .flags = (flags_), .form = PROTOCOL_CODEC_HOOK }

/* An array of elem's objects (elem NULL: of integers) in the C array m
 * of T, its count in the size_t member count of T; the _PART rows are
 * a part of their message (part_ its bit). */
#define PROTOCOL_CODEC_LIST_PART_AS(name_, T, m, count, flags_, elem_, part_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_ARRAY, .flags = (flags_), .offset = offsetof(T, m), \
	  .size = sizeof(((T *)0)->m) / sizeof(((T *)0)->m[0]), .elem_size = sizeof(((T *)0)->m[0]), \
	  .count_offset = offsetof(T, count), .form = PROTOCOL_CODEC_LIST, .elem = (elem_), .part = (part_) }
#define PROTOCOL_CODEC_LIST_AS(name_, T, m, count, flags_, elem_) \
	PROTOCOL_CODEC_LIST_PART_AS(name_, T, m, count, flags_, elem_, 0)
/* The same in a malloc'd array whose pointer is the member m of T. */
#define PROTOCOL_CODEC_ALLOC_LIST_PART_AS(name_, T, m, count, flags_, elem_, part_) \
	{ .name = (name_), .kind = PROTOCOL_JSON_ARRAY, .flags = (flags_), .offset = offsetof(T, m), \
	  .elem_size = sizeof(*((T *)0)->m), .count_offset = offsetof(T, count), .form = PROTOCOL_CODEC_LIST, \
	  .elem = (elem_), .part = (part_) }
#define PROTOCOL_CODEC_ALLOC_LIST_AS(name_, T, m, count, flags_, elem_) \
	PROTOCOL_CODEC_ALLOC_LIST_PART_AS(name_, T, m, count, flags_, elem_, 0)
/* elem's members, stored in the member m of T. */
#define PROTOCOL_CODEC_INLINE_AT(T, m, elem_) \
	{ .name = "", .offset = offsetof(T, m), .form = PROTOCOL_CODEC_INLINE, .elem = (elem_) }

#define PROTOCOL_CODEC_MESSAGE(what, members, decode_rest, encode_rest) \
	{ (what), (members), sizeof(members) / sizeof((members)[0]), (decode_rest), (encode_rest), false, false, 0 }
/* An answer: open (see struct protocol_codec_message). */
#define PROTOCOL_CODEC_ANSWER(what, members, decode_rest, encode_rest) \
	{ (what), (members), sizeof(members) / sizeof((members)[0]), (decode_rest), (encode_rest), true, false, 0 }
/* An open answer with parts, its mask the unsigned member m of T. */
#define PROTOCOL_CODEC_ANSWER_PARTS(what, members, decode_rest, encode_rest, T, m) \
	{ (what), (members), sizeof(members) / sizeof((members)[0]), (decode_rest), (encode_rest), true, true, \
	  offsetof(T, m) }

/* The message as a new object (for nesting); aborts on out-of-memory. */
cJSON *protocol_codec_object(const struct protocol_codec_message *msg, const void *src);
/* The message as JSON text the caller frees. */
char *protocol_codec_encode(const struct protocol_codec_message *msg, const void *src);
/* Reads the object o (anything else is "WHAT: expected an object") into
 * dst strictly (open messages: see struct protocol_codec_message):
 * protocol_json_check, then the colours, the other members in table
 * order, the non-negative checks, the nested objects and lists, the
 * inline messages and decode_rest. Returns 0 or -1 with err set; on error dst may be partly
 * written. */
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

/* Arrays of short strings, as rows of stride bytes from first (premove
 * lists): n of them as a new array; aborts on out-of-memory. */
cJSON *protocol_codec_strings(const char *first, size_t stride, int n);
enum protocol_codec_strings_status {
	PROTOCOL_CODEC_STRINGS_OK = 0,
	PROTOCOL_CODEC_STRINGS_TOO_MANY, /* more than max elements */
	PROTOCOL_CODEC_STRINGS_BAD,      /* an element not a non-empty string shorter than stride */
};
/* Reads the array a into rows of stride bytes from first, at most max of
 * them, counting them in *n (which the caller sets, usually to 0); the
 * caller words the error. */
enum protocol_codec_strings_status protocol_codec_read_strings(const cJSON *a, char *first, size_t stride, int max,
							       int *n);

#endif
