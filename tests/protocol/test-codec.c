/*
 * Unit tests of the table-driven codec (src/protocol/protocol-codec.h) on
 * messages of the tests' own, so each member kind and flag is checked by
 * itself rather than through whichever real message happens to use it:
 * the exact text written (members in table order, hooked ones after),
 * what an absent member reads as, strict decoding with the exact error
 * messages, which of two faults is reported (the decode order the header
 * documents: the strictness check, colours, plain and named members in
 * table order, non-negative bounds, nested objects, decode_rest), the
 * list and string-array helpers, and encode -> decode -> encode fixed
 * points.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol-codec.h"
#include "tchess/bitboard.h"

/* ---- the test message "rec": one member of every kind and flag ---- */

struct inner {
	bool present; /* the nested member was there (read) or is written */
	bool is_null; /* ... as null */
	int64_t depth;
};

struct rec {
	char name[8];
	char note[6];
	int64_t n;
	int64_t big;
	int64_t seat;
	int64_t opt;
	bool flag;
	int kind;
	struct inner inner;
	int color;
	int side;
	int64_t extra;  /* the hooks' member */
	int rest_calls; /* how often decode_rest ran */
};

/* The valid hook of "name": its error is the message's own. */
static bool name_valid(const char *s, struct protocol_error *err)
{
	if (!strchr(s, '!'))
		return true;
	protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "name: no '!' allowed");
	return false;
}

static cJSON *inner_write(const void *p)
{
	const struct inner *in = p;
	if (!in->present)
		return NULL;
	if (in->is_null)
		return cJSON_CreateNull();
	cJSON *o = protocol_json_object();
	protocol_json_add_int(o, "depth", in->depth);
	return o;
}

static int inner_read(const cJSON *v, void *p, struct protocol_error *err)
{
	struct inner *in = p;
	in->present = true;
	in->is_null = cJSON_IsNull(v);
	if (in->is_null)
		return 0;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(v, "depth");
	if (!cJSON_IsNumber(d) || d->valuedouble < 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "inner: depth must be a non-negative number");
	in->depth = (int64_t)d->valuedouble;
	return 0;
}

static const struct protocol_codec_nested inner_hooks = { inner_write, inner_read };

static const char *const kind_names[] = { "human", "engine", "remote", NULL };

static int rec_rest(const cJSON *o, void *dst, const char *what, struct protocol_error *err)
{
	struct rec *r = dst;
	r->rest_calls++;
	r->extra = protocol_json_int(o, "extra");
	if (cJSON_GetObjectItemCaseSensitive(o, "kind") && r->kind < 0)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: unknown kind", what);
	if (r->extra == 13)
		return protocol_error_set(err, PROTOCOL_ERR_BAD_REQUEST, "%s: extra must not be 13", what);
	return 0;
}

static void rec_encode_rest(cJSON *o, const void *src)
{
	const struct rec *r = src;
	if (r->extra)
		protocol_json_add_int(o, "extra", r->extra);
}

/* Colours stand after the plain members in the table but are read before
 * them; the hooked member stands last, where encode_rest writes it. */
static const struct protocol_codec_member rec_members[] = {
	{ .name = "name", .kind = PROTOCOL_JSON_STRING, .flags = PROTOCOL_CODEC_REQUIRED,
	  .offset = offsetof(struct rec, name), .size = sizeof(((struct rec *)0)->name), .valid = name_valid },
	PROTOCOL_CODEC_STRING(struct rec, note, PROTOCOL_CODEC_EMPTY_OK | PROTOCOL_CODEC_OMIT),
	PROTOCOL_CODEC_INT(struct rec, n, PROTOCOL_CODEC_REQUIRED | PROTOCOL_CODEC_NON_NEGATIVE),
	{ .name = "big", .kind = PROTOCOL_JSON_INT, .flags = PROTOCOL_CODEC_CLAMP | PROTOCOL_CODEC_OMIT,
	  .offset = offsetof(struct rec, big), .absent = 7 },
	PROTOCOL_CODEC_SEAT(struct rec, seat, 0),
	{ .name = "opt", .kind = PROTOCOL_JSON_INT_OR_NULL, .flags = PROTOCOL_CODEC_CLAMP,
	  .offset = offsetof(struct rec, opt), .absent = -1 },
	PROTOCOL_CODEC_BOOL(struct rec, flag, PROTOCOL_CODEC_OMIT),
	{ .name = "kind", .kind = PROTOCOL_JSON_STRING, .flags = PROTOCOL_CODEC_OMIT,
	  .offset = offsetof(struct rec, kind), .size = 7, .absent = -1, .form = PROTOCOL_CODEC_NAME,
	  .names = kind_names },
	PROTOCOL_CODEC_NESTED_AT("inner", PROTOCOL_JSON_OBJECT_OR_NULL, 0, offsetof(struct rec, inner),
				 &inner_hooks),
	PROTOCOL_CODEC_COLOR_AS("color", struct rec, color, 0, false, WHITE),
	PROTOCOL_CODEC_COLOR_AS("side", struct rec, side, 0, true, -1),
	PROTOCOL_CODEC_HOOKED("extra", PROTOCOL_JSON_INT, 0),
};

static const struct protocol_codec_message rec_msg =
	PROTOCOL_CODEC_MESSAGE("rec", rec_members, rec_rest, rec_encode_rest);

/* A struct rec with every member the decoder must write set to garbage
 * (the nested one is written only when present, so it starts empty). */
static void rec_garbage(struct rec *r)
{
	memset(r, 0x5a, sizeof *r);
	r->name[sizeof r->name - 1] = r->note[sizeof r->note - 1] = '\0';
	r->flag = true;
	memset(&r->inner, 0, sizeof r->inner);
	r->rest_calls = 0;
}

/* Every member set, none to its absent value. */
static void rec_full(struct rec *r)
{
	memset(r, 0, sizeof *r);
	strcpy(r->name, "ann");
	strcpy(r->note, "hi");
	r->n = 5;
	r->big = 12;
	r->seat = 3;
	r->opt = 0; /* 0 is a value here: the absent one is -1 */
	r->flag = true;
	r->kind = 1;
	r->inner = (struct inner){ .present = true, .depth = 2 };
	r->color = BLACK;
	r->side = WHITE;
	r->extra = 4;
}

/* Every member at what an absent one reads as. */
static void rec_sparse(struct rec *r)
{
	memset(r, 0, sizeof *r);
	strcpy(r->name, "bo");
	r->big = 7;
	r->opt = -1;
	r->kind = -1;
	r->color = WHITE;
	r->side = -1;
}

static char *enc(const struct rec *r)
{
	return protocol_codec_encode(&rec_msg, r);
}

/* Decodes json into *r (garbage first); returns the codec's answer. */
static int dec(const char *json, struct rec *r, struct protocol_error *err)
{
	rec_garbage(r);
	memset(err, 0, sizeof *err);
	return protocol_codec_decode(&rec_msg, json, strlen(json), r, err);
}

/* json is refused with exactly message, and decode_rest did not run
 * unless the message is its own. */
static void refused(const char *json, const char *message)
{
	struct rec r;
	struct protocol_error err;
	ck_assert_msg(dec(json, &r, &err) == -1, "%s was accepted", json);
	ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
	ck_assert_msg(!strcmp(err.message, message), "%s: got \"%s\", want \"%s\"", json, err.message, message);
}

static void accepted(const char *json, struct rec *r)
{
	struct protocol_error err;
	ck_assert_msg(dec(json, r, &err) == 0, "%s: %s", json, err.message);
	ck_assert_int_eq(r->rest_calls, 1);
}

/* ---- encoding ---- */

START_TEST(test_encode_full)
{
	/* Header: members are written in table order; the hooked member is
	 * left to encode_rest, which runs after them; a colour is "white" or
	 * "black", a named member its name. */
	struct rec r;
	rec_full(&r);
	char *s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"ann\",\"note\":\"hi\",\"n\":5,\"big\":12,\"seat\":3,\"opt\":0,\"flag\":true,"
			    "\"kind\":\"engine\",\"inner\":{\"depth\":2},\"color\":\"black\",\"side\":\"white\","
			    "\"extra\":4}");
	free(s);
}
END_TEST

START_TEST(test_encode_omit_and_absent)
{
	/* PROTOCOL_CODEC_OMIT: "left out when its value is what an absent
	 * member decodes to ("", the member's absent value, false)"; an
	 * int-or-null's absent value is written as null, so is a colour's
	 * that allows null; a nested member whose write gives NULL is left
	 * out; members without OMIT are written whatever they hold (n = 0,
	 * color = white). */
	struct rec r;
	rec_sparse(&r);
	char *s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"bo\",\"n\":0,\"seat\":null,\"opt\":null,\"color\":\"white\",\"side\":null}");
	free(s);
	/* Not the absent value: written, 0 and false included where 0 is not
	 * absent. */
	r.big = 0;
	r.opt = 0;
	r.seat = -2;
	s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"bo\",\"n\":0,\"big\":0,\"seat\":-2,\"opt\":0,\"color\":\"white\",\"side\":null}");
	free(s);
	/* A nested member may write null. */
	r.inner = (struct inner){ .present = true, .is_null = true };
	r.kind = 0;
	s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"bo\",\"n\":0,\"big\":0,\"seat\":-2,\"opt\":0,\"kind\":\"human\",\"inner\":null,"
			    "\"color\":\"white\",\"side\":null}");
	free(s);
}
END_TEST

START_TEST(test_encode_clamp_and_names)
{
	/* PROTOCOL_CODEC_CLAMP: "written as at most PROTOCOL_CODEC_INT_MAX (a
	 * clock with no limit holds more)"; a plain int is written as it is,
	 * however large. PROTOCOL_CODEC_NAME: "A value outside names is
	 * written as """. */
	struct rec r;
	rec_sparse(&r);
	r.big = INT64_MAX;
	r.opt = PROTOCOL_CODEC_INT_MAX + 1;
	r.n = INT64_MAX;
	r.kind = 3;
	char *s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"bo\",\"n\":9223372036854775807,\"big\":9007199254740991,"
			    "\"seat\":null,\"opt\":9007199254740991,\"kind\":\"\",\"color\":\"white\",\"side\":null}");
	free(s);
	/* At the limit itself and below: unchanged. PROTOCOL_CODEC_DOUBLE
	 * (seat): "written the way cJSON prints a double, not as a raw
	 * decimal" -- which for a number this large is 15 significant
	 * digits (cJSON's round-trip check is relative), unlike the raw
	 * "big". Seats hold player ids, far below where this shows. */
	r.big = PROTOCOL_CODEC_INT_MAX;
	r.opt = -5;
	r.n = 0;
	r.kind = 2;
	r.seat = PROTOCOL_CODEC_INT_MAX;
	s = enc(&r);
	ck_assert_str_eq(s, "{\"name\":\"bo\",\"n\":0,\"big\":9007199254740991,\"seat\":9.00719925474099e+15,"
			    "\"opt\":-5,\"kind\":\"remote\",\"color\":\"white\",\"side\":null}");
	free(s);
}
END_TEST

/* ---- decoding: accepted ---- */

START_TEST(test_decode_absent_members)
{
	/* An absent optional string is "", an absent integer or colour its
	 * absent value, an absent bool false, an absent named member its
	 * absent value; a nested member's read is "called only when the
	 * member is present". */
	struct rec r;
	accepted("{\"name\":\"bo\",\"n\":0}", &r);
	ck_assert_str_eq(r.name, "bo");
	ck_assert_str_eq(r.note, "");
	ck_assert_int_eq(r.n, 0);
	ck_assert_int_eq(r.big, 7);
	ck_assert_int_eq(r.seat, 0);
	ck_assert_int_eq(r.opt, -1);
	ck_assert(!r.flag);
	ck_assert_int_eq(r.kind, -1);
	ck_assert(!r.inner.present);
	ck_assert_int_eq(r.color, WHITE);
	ck_assert_int_eq(r.side, -1);
	ck_assert_int_eq(r.extra, 0);
	/* null reads as the absent value too, where null is allowed. */
	accepted("{\"name\":\"bo\",\"n\":0,\"seat\":null,\"opt\":null,\"side\":null}", &r);
	ck_assert_int_eq(r.seat, 0);
	ck_assert_int_eq(r.opt, -1);
	ck_assert_int_eq(r.side, -1);
}
END_TEST

START_TEST(test_decode_values)
{
	struct rec r;
	accepted("{\"extra\":4,\"side\":\"black\",\"color\":\"black\",\"inner\":{\"depth\":9},\"kind\":\"remote\","
		 "\"flag\":true,\"opt\":-3,\"seat\":2,\"big\":0,\"n\":9007199254740992,\"note\":\"\",\"name\":\"abcdefg\"}",
		 &r);
	/* 7 bytes fit a char[8]; EMPTY_OK: "" accepted when present. */
	ck_assert_str_eq(r.name, "abcdefg");
	ck_assert_str_eq(r.note, "");
	/* protocol-json.h: integral, |n| <= 2^53. */
	ck_assert_int_eq(r.n, 9007199254740992LL);
	ck_assert_int_eq(r.big, 0);
	ck_assert_int_eq(r.seat, 2);
	ck_assert_int_eq(r.opt, -3);
	ck_assert(r.flag);
	ck_assert_int_eq(r.kind, 2);
	ck_assert(r.inner.present && !r.inner.is_null);
	ck_assert_int_eq(r.inner.depth, 9);
	ck_assert_int_eq(r.color, BLACK);
	ck_assert_int_eq(r.side, BLACK);
	ck_assert_int_eq(r.extra, 4);
	/* A nested null reaches the hook (it is of the member's kind). */
	accepted("{\"name\":\"a\",\"n\":-0,\"inner\":null,\"flag\":false,\"kind\":\"human\",\"note\":\"12345\"}", &r);
	ck_assert(r.inner.present && r.inner.is_null);
	ck_assert(!r.flag);
	ck_assert_int_eq(r.kind, 0);
	ck_assert_int_eq(r.n, 0);
	ck_assert_str_eq(r.note, "12345");
	/* "an unknown one reads as -1, for decode_rest to refuse in the
	 * message's own words" -- seen here through the rest hook. */
	refused("{\"name\":\"a\",\"n\":1,\"kind\":\"robot\"}", "rec: unknown kind");
}
END_TEST

START_TEST(test_decode_whitespace)
{
	/* "whitespace may follow" the object, nothing else. */
	struct rec r;
	accepted("{\"name\":\"a\",\"n\":1} \r\n\t", &r);
	refused("{\"name\":\"a\",\"n\":1} x", "rec: trailing data after the JSON value at byte 19");
	refused("", "rec: empty body, expected a JSON object");
	refused("[]", "rec: expected a JSON object");
	refused("{\"name\":", "rec: malformed JSON at byte 7");
	/* protocol_codec_read itself: "anything else is "WHAT: expected an
	 * object"". */
	cJSON *a = cJSON_CreateArray();
	struct protocol_error err;
	rec_garbage(&r);
	ck_assert_int_eq(protocol_codec_read(&rec_msg, a, &r, &err), -1);
	ck_assert_str_eq(err.message, "rec: expected an object");
	cJSON_Delete(a);
}
END_TEST

/* ---- decoding: refused, one fault ---- */

START_TEST(test_decode_strict)
{
	/* protocol_json_check's strictness: missing, unknown, repeated and
	 * wrong-kind members. */
	refused("{\"n\":1}", "rec: member \"name\" is missing");
	refused("{\"name\":\"a\"}", "rec: member \"n\" is missing");
	refused("{\"name\":\"a\",\"n\":1,\"zzz\":1}", "rec: unknown member \"zzz\"");
	refused("{\"name\":\"a\",\"n\":1,\"n\":2}", "rec: member \"n\" repeated");
	refused("{\"name\":\"a\",\"n\":1,\"Name\":\"b\"}", "rec: unknown member \"Name\"");
	refused("{\"name\":\"a\",\"n\":\"1\"}", "rec: member \"n\" must be an integer");
	refused("{\"name\":\"a\",\"n\":null}", "rec: member \"n\" must be an integer");
	refused("{\"name\":1,\"n\":1}", "rec: member \"name\" must be a string");
	refused("{\"name\":\"a\",\"n\":1,\"seat\":\"1\"}", "rec: member \"seat\" must be an integer or null");
	refused("{\"name\":\"a\",\"n\":1,\"flag\":1}", "rec: member \"flag\" must be true or false");
	refused("{\"name\":\"a\",\"n\":1,\"flag\":null}", "rec: member \"flag\" must be true or false");
	refused("{\"name\":\"a\",\"n\":1,\"inner\":[]}", "rec: member \"inner\" must be an object or null");
	refused("{\"name\":\"a\",\"n\":1,\"kind\":null}", "rec: member \"kind\" must be a string");
	/* A hooked member is still checked for kind and presence. */
	refused("{\"name\":\"a\",\"n\":1,\"extra\":\"4\"}", "rec: member \"extra\" must be an integer");
	/* A colour without null: null is of the wrong kind, not a colour. */
	refused("{\"name\":\"a\",\"n\":1,\"color\":null}", "rec: member \"color\" must be a string");
}
END_TEST

START_TEST(test_decode_numbers)
{
	/* PROTOCOL_JSON_INT: "integral, |n| <= 2^53". */
	refused("{\"name\":\"a\",\"n\":1.5}", "rec: member \"n\" must be an integer");
	refused("{\"name\":\"a\",\"n\":1e400}", "rec: member \"n\" must be an integer");
	refused("{\"name\":\"a\",\"n\":9007199254740994}", "rec: member \"n\" must be an integer");
	refused("{\"name\":\"a\",\"n\":1,\"opt\":-9007199254740994}", "rec: member \"opt\" must be an integer or null");
	refused("{\"name\":\"a\",\"n\":1,\"big\":0.25}", "rec: member \"big\" must be an integer");
	/* NON_NEGATIVE: "a negative value is refused with "WHAT: NAME must
	 * not be negative"". Other integers may be negative. */
	refused("{\"name\":\"a\",\"n\":-1}", "rec: n must not be negative");
	struct rec r;
	accepted("{\"name\":\"a\",\"n\":2.0,\"big\":-9007199254740992,\"seat\":-1}", &r);
	ck_assert_int_eq(r.n, 2);
	ck_assert_int_eq(r.big, -9007199254740992LL);
	ck_assert_int_eq(r.seat, -1);
}
END_TEST

START_TEST(test_decode_strings)
{
	/* A string of size bytes holds size - 1; "" only with EMPTY_OK. */
	refused("{\"name\":\"abcdefgh\",\"n\":1}", "rec: member \"name\" is longer than 7 bytes");
	refused("{\"name\":\"\",\"n\":1}", "rec: member \"name\" is empty");
	refused("{\"name\":\"a\",\"n\":1,\"note\":\"123456\"}", "rec: member \"note\" is longer than 5 bytes");
	/* The valid hook: "checked before the copy (its error is the
	 * message's)" -- so it wins over the length. */
	refused("{\"name\":\"a!\",\"n\":1}", "name: no '!' allowed");
	refused("{\"name\":\"a!cdefghijk\",\"n\":1}", "name: no '!' allowed");
	/* Named members: "The text is bounded by size like a string
	 * member's". */
	refused("{\"name\":\"a\",\"n\":1,\"kind\":\"engineer\"}", "rec: member \"kind\" is longer than 6 bytes");
	refused("{\"name\":\"a\",\"n\":1,\"kind\":\"\"}", "rec: member \"kind\" is empty");
}
END_TEST

START_TEST(test_decode_colors)
{
	refused("{\"name\":\"a\",\"n\":1,\"color\":\"red\"}", "rec: member \"color\" must be \"white\" or \"black\"");
	refused("{\"name\":\"a\",\"n\":1,\"color\":\"White\"}", "rec: member \"color\" must be \"white\" or \"black\"");
	refused("{\"name\":\"a\",\"n\":1,\"side\":\"\"}",
		"rec: member \"side\" must be \"white\" or \"black\" or null");
	refused("{\"name\":\"a\",\"n\":1,\"side\":0}", "rec: member \"side\" must be a string or null");
}
END_TEST

START_TEST(test_decode_nested_error)
{
	/* A nested member's error is its read hook's. */
	refused("{\"name\":\"a\",\"n\":1,\"inner\":{\"depth\":-1}}", "inner: depth must be a non-negative number");
	refused("{\"name\":\"a\",\"n\":1,\"extra\":13}", "rec: extra must not be 13");
}
END_TEST

/* ---- decoding: which of two faults is reported ---- */

START_TEST(test_decode_order)
{
	/* protocol_json_check walks the object's members in the object's
	 * order and reports missing members after them all. */
	refused("{\"n\":\"x\",\"zzz\":1}", "rec: member \"n\" must be an integer");
	refused("{\"zzz\":1,\"n\":\"x\"}", "rec: unknown member \"zzz\"");
	refused("{\"n\":\"x\"}", "rec: member \"n\" must be an integer");
	refused("{}", "rec: member \"name\" is missing");
	refused("{\"n\":1,\"n\":2}", "rec: member \"n\" repeated");
	/* The check comes before any member is read. */
	refused("{\"color\":\"red\",\"name\":\"\",\"n\":-1,\"zzz\":0}", "rec: unknown member \"zzz\"");
	/* "The decoder reads colours first": the colour stands last in the
	 * table and last in the object, yet its error wins over the empty
	 * name. */
	refused("{\"name\":\"\",\"n\":1,\"color\":\"red\"}", "rec: member \"color\" must be \"white\" or \"black\"");
	/* Colours among themselves in table order ("color" before "side"). */
	refused("{\"name\":\"a\",\"n\":1,\"side\":\"x\",\"color\":\"y\"}",
		"rec: member \"color\" must be \"white\" or \"black\"");
	/* "then the plain and named members in table order" -- not the
	 * object's order. */
	refused("{\"note\":\"toolong\",\"name\":\"\",\"n\":1}", "rec: member \"name\" is empty");
	refused("{\"kind\":\"\",\"note\":\"toolong\",\"name\":\"a\",\"n\":1}", "rec: member \"note\" is longer than 5 bytes");
	/* "then checks the non-negative ones": after every string, even one
	 * that stands after the number in the table (kind after n). */
	refused("{\"name\":\"a\",\"n\":-1,\"kind\":\"\"}", "rec: member \"kind\" is empty");
	/* "then reads the nested objects": after the bounds. */
	refused("{\"name\":\"a\",\"n\":-1,\"inner\":{\"depth\":-1}}", "rec: n must not be negative");
	/* "then calls decode_rest": last. */
	refused("{\"name\":\"a\",\"n\":1,\"inner\":{\"depth\":-1},\"kind\":\"robot\"}",
		"inner: depth must be a non-negative number");
	refused("{\"name\":\"a\",\"n\":-1,\"extra\":13}", "rec: n must not be negative");
	/* decode_rest does not run once a member is refused. */
	struct rec r;
	struct protocol_error err;
	ck_assert_int_eq(dec("{\"name\":\"a\",\"n\":-1}", &r, &err), -1);
	ck_assert_int_eq(r.rest_calls, 0);
}
END_TEST

/* ---- fixed points ---- */

static void fixed_point(const struct rec *r)
{
	char *a = enc(r);
	struct rec back;
	accepted(a, &back);
	char *b = enc(&back);
	ck_assert_str_eq(b, a);
	struct rec again;
	accepted(b, &again);
	ck_assert_str_eq(again.name, back.name);
	ck_assert_str_eq(again.note, back.note);
	ck_assert_int_eq(again.n, back.n);
	ck_assert_int_eq(again.big, back.big);
	ck_assert_int_eq(again.seat, back.seat);
	ck_assert_int_eq(again.opt, back.opt);
	ck_assert_int_eq(again.flag, back.flag);
	ck_assert_int_eq(again.kind, back.kind);
	ck_assert_int_eq(again.inner.present, back.inner.present);
	ck_assert_int_eq(again.inner.is_null, back.inner.is_null);
	ck_assert_int_eq(again.inner.depth, back.inner.depth);
	ck_assert_int_eq(again.color, back.color);
	ck_assert_int_eq(again.side, back.side);
	ck_assert_int_eq(again.extra, back.extra);
	free(a);
	free(b);
}

START_TEST(test_fixed_points)
{
	/* What is written reads back to the same struct, which writes the
	 * same text: every member set, every member absent, and a clamped
	 * value (which reads back as the limit). */
	struct rec r, back;
	struct protocol_error err;
	rec_full(&r);
	fixed_point(&r);
	char *s = enc(&r);
	ck_assert_int_eq(dec(s, &back, &err), 0);
	free(s);
	ck_assert_str_eq(back.name, r.name);
	ck_assert_str_eq(back.note, r.note);
	ck_assert_int_eq(back.n, r.n);
	ck_assert_int_eq(back.big, r.big);
	ck_assert_int_eq(back.seat, r.seat);
	ck_assert_int_eq(back.opt, r.opt);
	ck_assert(back.flag);
	ck_assert_int_eq(back.kind, r.kind);
	ck_assert(back.inner.present && !back.inner.is_null);
	ck_assert_int_eq(back.inner.depth, 2);
	ck_assert_int_eq(back.color, BLACK);
	ck_assert_int_eq(back.side, WHITE);
	ck_assert_int_eq(back.extra, 4);

	rec_sparse(&r);
	fixed_point(&r);
	s = enc(&r);
	ck_assert_int_eq(dec(s, &back, &err), 0);
	free(s);
	ck_assert_int_eq(back.big, 7);
	ck_assert_int_eq(back.opt, -1);
	ck_assert_int_eq(back.kind, -1);
	ck_assert_int_eq(back.side, -1);
	ck_assert(!back.inner.present);

	rec_sparse(&r);
	r.big = INT64_MAX;
	r.opt = INT64_MAX;
	r.inner = (struct inner){ .present = true, .is_null = true };
	fixed_point(&r);
	s = enc(&r);
	ck_assert_int_eq(dec(s, &back, &err), 0);
	free(s);
	ck_assert_int_eq(back.big, PROTOCOL_CODEC_INT_MAX);
	ck_assert_int_eq(back.opt, PROTOCOL_CODEC_INT_MAX);
	ck_assert(back.inner.present && back.inner.is_null);
}
END_TEST

/* ---- lists and string arrays ---- */

struct pt {
	int64_t x;
	char tag[4];
};

static const struct protocol_codec_member pt_members[] = {
	PROTOCOL_CODEC_INT(struct pt, x, PROTOCOL_CODEC_REQUIRED | PROTOCOL_CODEC_NON_NEGATIVE),
	PROTOCOL_CODEC_STRING(struct pt, tag, PROTOCOL_CODEC_OMIT),
};

static const struct protocol_codec_message pt_msg = PROTOCOL_CODEC_MESSAGE("pt", pt_members, NULL, NULL);

static int list(const char *json, struct pt **out, size_t *n, struct protocol_error *err)
{
	return protocol_codec_decode_list("pts", "items", &pt_msg, sizeof(struct pt), json, strlen(json),
					  (void **)out, n, err);
}

START_TEST(test_list)
{
	/* {NAME: [elem...]}: what names the whole message, the element's
	 * table its elements; on error *out is NULL. */
	struct pt *p;
	size_t n;
	struct protocol_error err;
	ck_assert_int_eq(list("{\"items\":[{\"x\":1,\"tag\":\"abc\"},{\"x\":2}]}", &p, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(p[0].x, 1);
	ck_assert_str_eq(p[0].tag, "abc");
	ck_assert_int_eq(p[1].x, 2);
	ck_assert_str_eq(p[1].tag, "");
	/* protocol_codec_array writes it back, element by element. */
	cJSON *o = protocol_json_object();
	protocol_json_add_item(o, "items", protocol_codec_array(&pt_msg, p, sizeof *p, n));
	char *s = protocol_json_print(o);
	ck_assert_str_eq(s, "{\"items\":[{\"x\":1,\"tag\":\"abc\"},{\"x\":2}]}");
	free(s);
	free(p);

	ck_assert_int_eq(list("{\"items\":[]}", &p, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(p);

	const struct {
		const char *json, *message;
	} bad[] = {
		{ "{\"items\":[{\"x\":1},{\"x\":-1}]}", "pt: x must not be negative" },
		{ "{\"items\":[{\"x\":1},3]}", "pt: expected an object" },
		{ "{\"items\":[{\"x\":1,\"tag\":\"abcd\"}]}", "pt: member \"tag\" is longer than 3 bytes" },
		{ "{\"items\":[{\"y\":1}]}", "pt: unknown member \"y\"" },
		{ "{}", "pts: member \"items\" is missing" },
		{ "{\"items\":{}}", "pts: member \"items\" must be an array" },
		{ "{\"items\":[],\"more\":1}", "pts: unknown member \"more\"" },
		{ "[]", "pts: expected a JSON object" },
	};
	struct pt dummy;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = &dummy; /* anything but NULL */
		n = 99;
		ck_assert_int_eq(list(bad[i].json, &p, &n, &err), -1);
		ck_assert_msg(!strcmp(err.message, bad[i].message), "%s: got \"%s\", want \"%s\"", bad[i].json,
			      err.message, bad[i].message);
		ck_assert_ptr_null(p);
		ck_assert_uint_eq(n, 0);
	}
	/* An element is read by the element's own table: an empty object
	 * misses x. */
	ck_assert_int_eq(list("{\"items\":[{}]}", &p, &n, &err), -1);
	ck_assert_str_eq(err.message, "pt: member \"x\" is missing");
}
END_TEST

START_TEST(test_strings)
{
	char rows[4][5];
	memset(rows, 0, sizeof rows);
	strcpy(rows[0], "e2e4");
	strcpy(rows[1], "e7e5");
	cJSON *o = protocol_json_object();
	protocol_json_add_item(o, "pre", protocol_codec_strings(rows[0], sizeof rows[0], 2));
	char *s = protocol_json_print(o);
	ck_assert_str_eq(s, "{\"pre\":[\"e2e4\",\"e7e5\"]}");
	free(s);

	/* Reading: at most max elements, each a non-empty string shorter
	 * than stride, counted on from the caller's *n. */
	struct {
		const char *json;
		int max, n0;
		enum protocol_codec_strings_status want;
		int n;
	} cases[] = {
		{ "[\"a\",\"bcde\"]", 3, 0, PROTOCOL_CODEC_STRINGS_OK, 2 },
		{ "[]", 3, 0, PROTOCOL_CODEC_STRINGS_OK, 0 },
		{ "[\"a\",\"b\",\"c\"]", 3, 0, PROTOCOL_CODEC_STRINGS_OK, 3 },
		{ "[\"a\",\"b\",\"c\",\"d\"]", 3, 0, PROTOCOL_CODEC_STRINGS_TOO_MANY, 3 },
		{ "[\"a\",\"b\"]", 2, 1, PROTOCOL_CODEC_STRINGS_TOO_MANY, 2 },
		{ "[\"a\",\"\"]", 3, 0, PROTOCOL_CODEC_STRINGS_BAD, 1 },
		{ "[\"abcde\"]", 3, 0, PROTOCOL_CODEC_STRINGS_BAD, 0 },
		{ "[1]", 3, 0, PROTOCOL_CODEC_STRINGS_BAD, 0 },
		{ "[null]", 3, 0, PROTOCOL_CODEC_STRINGS_BAD, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cJSON *a = cJSON_Parse(cases[i].json);
		ck_assert_ptr_nonnull(a);
		memset(rows, 'x', sizeof rows);
		int n = cases[i].n0;
		ck_assert_int_eq(protocol_codec_read_strings(a, rows[0], sizeof rows[0], cases[i].max, &n),
				 cases[i].want);
		ck_assert_msg(n == cases[i].n, "%s: n %d, want %d", cases[i].json, n, cases[i].n);
		cJSON_Delete(a);
	}
	/* Rows are written from *n on. */
	cJSON *a = cJSON_Parse("[\"g1f3\",\"b8c6\"]");
	memset(rows, 'x', sizeof rows);
	int n = 1;
	ck_assert_int_eq(protocol_codec_read_strings(a, rows[0], sizeof rows[0], 4, &n), PROTOCOL_CODEC_STRINGS_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(rows[0][0], 'x');
	ck_assert_str_eq(rows[1], "g1f3");
	ck_assert_str_eq(rows[2], "b8c6");
	cJSON_Delete(a);
}
END_TEST


/* ---- answers: open messages, null as "", lists, inline members, parts ---- */

struct item {
	int64_t v;
};

struct head {
	int64_t id;
};

struct bag {
	struct head head;
	char tag[6];
	char note[6];
	size_t n_items;
	struct item items[2];
	size_t n_nums;
	int64_t nums[3];
	size_t n_many;
	struct item *many;
	unsigned parts;
	double score; /* written by its hook, never read */
};

static const struct protocol_codec_member item_members[] = {
	PROTOCOL_CODEC_INT(struct item, v, PROTOCOL_CODEC_REQUIRED),
};
static const struct protocol_codec_message item_msg = PROTOCOL_CODEC_ANSWER("item", item_members, NULL, NULL);

static const struct protocol_codec_member head_members[] = {
	PROTOCOL_CODEC_INT(struct head, id, PROTOCOL_CODEC_REQUIRED),
};
static const struct protocol_codec_message head_msg = PROTOCOL_CODEC_ANSWER("head", head_members, NULL, NULL);

static cJSON *score_write(const void *p)
{
	return cJSON_CreateNumber(*(const double *)p);
}

static const struct protocol_codec_nested score_hooks = { score_write, NULL };

#define BAG_ITEMS 1
#define BAG_MANY 2
static const struct protocol_codec_member bag_members[] = {
	PROTOCOL_CODEC_INLINE_AT(struct bag, head, &head_msg),
	PROTOCOL_CODEC_STRING(struct bag, tag, PROTOCOL_CODEC_NULL_EMPTY),
	PROTOCOL_CODEC_STRING(struct bag, note, PROTOCOL_CODEC_EMPTY_OK),
	PROTOCOL_CODEC_LIST_PART_AS("items", struct bag, items, n_items, 0, &item_msg, BAG_ITEMS),
	PROTOCOL_CODEC_LIST_AS("nums", struct bag, nums, n_nums, PROTOCOL_CODEC_OMIT, NULL),
	PROTOCOL_CODEC_ALLOC_LIST_PART_AS("many", struct bag, many, n_many, 0, &item_msg, BAG_MANY),
	PROTOCOL_CODEC_NESTED_AT("score", PROTOCOL_JSON_NUMBER, 0, offsetof(struct bag, score), &score_hooks),
};
/* The same rows, open (an answer) and strict (as a request would be). */
static const struct protocol_codec_message bag_msg =
	PROTOCOL_CODEC_ANSWER_PARTS("bag", bag_members, NULL, NULL, struct bag, parts);
static const struct protocol_codec_message strict_bag_msg = {
	"bag", bag_members, sizeof bag_members / sizeof bag_members[0], NULL, NULL, false, true,
	offsetof(struct bag, parts)
};

static int bag_dec(const struct protocol_codec_message *msg, const char *json, struct bag *b,
		   struct protocol_error *err)
{
	memset(b, 0, sizeof *b);
	memset(err, 0, sizeof *err);
	return protocol_codec_decode(msg, json, strlen(json), b, err);
}

static void bag_refused(const struct protocol_codec_message *msg, const char *json, const char *message)
{
	struct bag b;
	struct protocol_error err;
	ck_assert_msg(bag_dec(msg, json, &b, &err) == -1, "%s was accepted", json);
	ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
	ck_assert_msg(!strcmp(err.message, message), "%s: got \"%s\", want \"%s\"", json, err.message, message);
	free(b.many);
}

START_TEST(test_open_messages)
{
	/* An open message skips members its table does not name, at its own
	 * level and (its elements being open too) inside; the strict one
	 * built on the same rows refuses them. */
	struct bag b;
	struct protocol_error err;
	const char *newer = "{\"id\":4,\"added\":[1,{}],\"items\":[{\"v\":1,\"later\":null}]}";
	ck_assert_int_eq(bag_dec(&bag_msg, newer, &b, &err), 0);
	ck_assert_int_eq(b.head.id, 4);
	ck_assert_uint_eq(b.n_items, 1);
	ck_assert_int_eq(b.items[0].v, 1);
	bag_refused(&strict_bag_msg, newer, "bag: unknown member \"added\"");
	ck_assert_int_eq(bag_dec(&strict_bag_msg, "{\"id\":4,\"items\":[{\"v\":1}]}", &b, &err), 0);
	/* What the table names is as strict as ever: kind, presence,
	 * length; an unknown member may still not repeat. */
	bag_refused(&bag_msg, "{\"id\":\"4\"}", "bag: member \"id\" must be an integer");
	bag_refused(&bag_msg, "{\"tag\":\"a\"}", "bag: member \"id\" is missing");
	bag_refused(&bag_msg, "{\"id\":1,\"note\":\"toolong\"}", "bag: member \"note\" is longer than 5 bytes");
	bag_refused(&bag_msg, "{\"id\":1,\"x\":1,\"x\":2}", "bag: member \"x\" repeated");
	bag_refused(&bag_msg, "{\"id\":1,\"items\":[{\"v\":1.5}]}", "item: member \"v\" must be an integer");
	bag_refused(&bag_msg, "{\"id\":1,\"score\":\"1\"}", "bag: member \"score\" must be a number");
	/* A member whose read hook is NULL is only checked for kind. */
	cJSON *o = cJSON_Parse("{\"id\":1,\"score\":2.5}");
	b.score = 7;
	ck_assert_int_eq(protocol_codec_read(&bag_msg, o, &b, &err), 0);
	ck_assert(b.score == 7);
	cJSON_Delete(o);
}
END_TEST

START_TEST(test_null_empty)
{
	/* PROTOCOL_CODEC_NULL_EMPTY: null reads as "", "" is written as null
	 * -- only on the row that says so. */
	struct bag b;
	struct protocol_error err;
	ck_assert_int_eq(bag_dec(&bag_msg, "{\"id\":1,\"tag\":null,\"note\":\"\"}", &b, &err), 0);
	ck_assert_str_eq(b.tag, "");
	ck_assert_int_eq(bag_dec(&bag_msg, "{\"id\":1,\"tag\":\"abc\"}", &b, &err), 0);
	ck_assert_str_eq(b.tag, "abc");
	bag_refused(&bag_msg, "{\"id\":1,\"note\":null}", "bag: member \"note\" must be a string");
	bag_refused(&bag_msg, "{\"id\":1,\"tag\":5}", "bag: member \"tag\" must be a string or null");
	bag_refused(&bag_msg, "{\"id\":1,\"tag\":\"\"}", "bag: member \"tag\" is empty");
	memset(&b, 0, sizeof b);
	b.head.id = 2;
	char *s = protocol_codec_encode(&bag_msg, &b);
	ck_assert_str_eq(s, "{\"id\":2,\"tag\":null,\"note\":\"\",\"score\":0}");
	free(s);
	strcpy(b.tag, "t");
	s = protocol_codec_encode(&bag_msg, &b);
	ck_assert_str_eq(s, "{\"id\":2,\"tag\":\"t\",\"note\":\"\",\"score\":0}");
	free(s);
}
END_TEST

START_TEST(test_lists_and_parts)
{
	struct bag b;
	struct protocol_error err;
	const char *full = "{\"id\":3,\"tag\":\"x\",\"note\":\"n\",\"items\":[{\"v\":1},{\"v\":2}],\"nums\":[5,-6,7],"
			   "\"many\":[{\"v\":8},{\"v\":9},{\"v\":10}],\"score\":1.5}";
	ck_assert_int_eq(bag_dec(&bag_msg, full, &b, &err), 0);
	ck_assert_uint_eq(b.n_items, 2);
	ck_assert_int_eq(b.items[1].v, 2);
	ck_assert_uint_eq(b.n_nums, 3);
	ck_assert_int_eq(b.nums[1], -6);
	ck_assert_uint_eq(b.n_many, 3);
	ck_assert_int_eq(b.many[2].v, 10);
	/* Decoding sets the bit of every part present. */
	ck_assert_uint_eq(b.parts, BAG_ITEMS | BAG_MANY);
	/* The inline message's members stand first, where its row is. */
	b.score = 1.5;
	char *s = protocol_codec_encode(&bag_msg, &b);
	ck_assert_str_eq(s, full);
	free(s);
	/* Encoding writes only the parts in the mask; an empty list is []
	 * unless OMIT leaves it out. */
	b.parts = BAG_MANY;
	b.n_nums = 0;
	s = protocol_codec_encode(&bag_msg, &b);
	ck_assert_str_eq(s, "{\"id\":3,\"tag\":\"x\",\"note\":\"n\",\"many\":[{\"v\":8},{\"v\":9},{\"v\":10}],\"score\":1.5}");
	free(s);
	b.parts = BAG_ITEMS;
	b.n_items = 0;
	s = protocol_codec_encode(&bag_msg, &b);
	ck_assert_str_eq(s, "{\"id\":3,\"tag\":\"x\",\"note\":\"n\",\"items\":[],\"score\":1.5}");
	free(s);
	free(b.many);
	/* Absent lists are empty and their parts unset. */
	ck_assert_int_eq(bag_dec(&bag_msg, "{\"id\":3}", &b, &err), 0);
	ck_assert_uint_eq(b.n_items + b.n_nums + b.n_many, 0);
	ck_assert_ptr_null(b.many);
	ck_assert_uint_eq(b.parts, 0);
	/* Beyond the capacity, and integer lists. */
	bag_refused(&bag_msg, "{\"id\":1,\"items\":[{\"v\":1},{\"v\":2},{\"v\":3}]}", "bag: at most 2 items");
	bag_refused(&bag_msg, "{\"id\":1,\"nums\":[1,2,3,4]}", "bag: at most 3 nums");
	bag_refused(&bag_msg, "{\"id\":1,\"nums\":[1,\"2\"]}", "bag: nums must hold integers");
	bag_refused(&bag_msg, "{\"id\":1,\"nums\":[1.5]}", "bag: nums must hold integers");
	bag_refused(&bag_msg, "{\"id\":1,\"nums\":{}}", "bag: member \"nums\" must be an array");
	/* A malloc'd list is the caller's even when an element fails
	 * (bag_refused frees it; valgrind and ASan see no leak). */
	bag_refused(&bag_msg, "{\"id\":1,\"many\":[{\"v\":1},{\"w\":2}]}", "item: member \"v\" is missing");
	/* An inline message's members are checked with the outer ones. */
	bag_refused(&strict_bag_msg, "{\"id\":1,\"id\":2}", "bag: member \"id\" repeated");
	bag_refused(&strict_bag_msg, "{}", "bag: member \"id\" is missing");
}
END_TEST

static Suite *codec_suite(void)
{
	Suite *s = suite_create("protocol codec");
	TCase *tc = tcase_create("codec");
	tcase_add_test(tc, test_encode_full);
	tcase_add_test(tc, test_encode_omit_and_absent);
	tcase_add_test(tc, test_encode_clamp_and_names);
	tcase_add_test(tc, test_decode_absent_members);
	tcase_add_test(tc, test_decode_values);
	tcase_add_test(tc, test_decode_whitespace);
	tcase_add_test(tc, test_decode_strict);
	tcase_add_test(tc, test_decode_numbers);
	tcase_add_test(tc, test_decode_strings);
	tcase_add_test(tc, test_decode_colors);
	tcase_add_test(tc, test_decode_nested_error);
	tcase_add_test(tc, test_decode_order);
	tcase_add_test(tc, test_fixed_points);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_open_messages);
	tcase_add_test(tc, test_null_empty);
	tcase_add_test(tc, test_lists_and_parts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(codec_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
