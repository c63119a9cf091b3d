/*
 * Tests of the small helpers: SHA-256 against the FIPS 180-4 / NIST example
 * vectors, random tokens, constant-time comparison, the byte buffer, the
 * log level parser and the deadline heap (against a plain array).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/dheap.h"
#include "util/log.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/token.h"
#include "util/xalloc.h"

static void hex_of_sha256(const void *data, size_t len, char out[65])
{
	uint8_t d[SHA256_DIGEST_SIZE];
	sha256(data, len, d);
	token_hex(out, d, sizeof d);
}

/* NIST "SHA256.pdf" example computations (one block, two blocks) and the
 * FIPS 180-2 long-message vectors. */
static const struct {
	const char *msg;
	const char *digest;
} vectors[] = {
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
};

START_TEST(test_sha256_vectors)
{
	char got[65];
	hex_of_sha256(vectors[_i].msg, strlen(vectors[_i].msg), got);
	ck_assert_str_eq(got, vectors[_i].digest);
}
END_TEST

START_TEST(test_sha256_million_a)
{
	/* FIPS 180-2 appendix B.3: one million repetitions of 'a', fed in
	 * uneven pieces so block boundaries fall mid-update. */
	struct sha256 s;
	uint8_t d[SHA256_DIGEST_SIZE];
	char got[65];
	char chunk[997];
	memset(chunk, 'a', sizeof chunk);
	sha256_init(&s);
	size_t left = 1000000;
	while (left) {
		size_t n = left < sizeof chunk ? left : sizeof chunk;
		sha256_update(&s, chunk, n);
		left -= n;
	}
	sha256_final(&s, d);
	token_hex(got, d, sizeof d);
	ck_assert_str_eq(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(test_sha256_padding_edges)
{
	/* Lengths around the 56-byte padding boundary hashed whole and byte by
	 * byte must agree. */
	char msg[130];
	memset(msg, 'x', sizeof msg);
	for (size_t len = 50; len < sizeof msg; len++) {
		uint8_t a[32], b[32];
		struct sha256 s;
		sha256(msg, len, a);
		sha256_init(&s);
		for (size_t i = 0; i < len; i++)
			sha256_update(&s, msg + i, 1);
		sha256_final(&s, b);
		ck_assert_msg(!memcmp(a, b, 32), "length %zu", len);
	}
}
END_TEST

START_TEST(test_token_random)
{
	char a[TOKEN_HEX_LEN + 1], b[TOKEN_HEX_LEN + 1];
	ck_assert_int_eq(token_random_hex(a, TOKEN_BYTES), 0);
	ck_assert_int_eq(token_random_hex(b, TOKEN_BYTES), 0);
	ck_assert_uint_eq(strlen(a), TOKEN_HEX_LEN);
	ck_assert_uint_eq(strspn(a, "0123456789abcdef"), TOKEN_HEX_LEN);
	/* 256 random bits twice alike would mean a broken generator. */
	ck_assert_str_ne(a, b);
	ck_assert_int_ge(TOKEN_BYTES * 8, 128);
	ck_assert_int_ge(TOKEN_ID_BYTES * 8, 128);
}
END_TEST

START_TEST(test_token_equal)
{
	ck_assert(token_equal("abcdef", "abcdef", 6));
	ck_assert(!token_equal("abcdef", "abcdeg", 6));
	ck_assert(!token_equal("xbcdef", "abcdef", 6));
	ck_assert(token_equal("", "", 0));
}
END_TEST

START_TEST(test_token_invite)
{
	char a[TOKEN_INVITE_LEN + 1], b[TOKEN_INVITE_LEN + 1], n[48];
	ck_assert_int_eq(token_invite_new(a), 0);
	ck_assert_int_eq(token_invite_new(b), 0);
	/* "k7m4q-px9ca": five, a dash, five, of Crockford's alphabet. */
	ck_assert_uint_eq(strlen(a), TOKEN_INVITE_LEN);
	ck_assert_int_eq(a[5], '-');
	ck_assert_uint_eq(strspn(a, "0123456789abcdefghjkmnpqrstvwxyz"), 5);
	ck_assert_uint_eq(strspn(a + 6, "0123456789abcdefghjkmnpqrstvwxyz"), 5);
	ck_assert_str_ne(a, b);
	/* What is typed: any case, blanks and dashes anywhere, o for 0 and
	 * i or l for 1. */
	ck_assert_int_eq(token_invite_normalize("k7m4q-px9ca", n, sizeof n), 10);
	ck_assert_str_eq(n, "k7m4qpx9ca");
	ck_assert_int_eq(token_invite_normalize(" K7M4Q PX9CA", n, sizeof n), 10);
	ck_assert_str_eq(n, "k7m4qpx9ca");
	ck_assert_int_eq(token_invite_normalize("O1IL-o", n, sizeof n), 5);
	ck_assert_str_eq(n, "01110");
	/* An older code of 32 hex digits is its own form. */
	ck_assert_int_eq(token_invite_normalize("0123456789abcdef0123456789abcdef", n, sizeof n), 32);
	ck_assert_str_eq(n, "0123456789abcdef0123456789abcdef");
	/* No code has a u, a slash or a colon; too long does not fit. */
	ck_assert_int_eq(token_invite_normalize("k7m4u", n, sizeof n), -1);
	ck_assert_str_eq(n, "");
	ck_assert_int_eq(token_invite_normalize("ab/cd", n, sizeof n), -1);
	ck_assert_int_eq(token_invite_normalize("abcdef", n, 4), -1);
	ck_assert_str_eq(n, "");
	ck_assert_int_eq(token_invite_normalize("", n, sizeof n), 0);
}
END_TEST

START_TEST(test_buf)
{
	struct buf b;
	buf_init(&b);
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%d,", i);
	ck_assert_uint_eq(b.len, strlen(b.data));
	ck_assert(!strncmp(b.data, "0,1,2,", 6));
	buf_append(&b, "\0z", 2);
	ck_assert_uint_eq(b.data[b.len], 0);
	char *s = buf_steal(&b);
	ck_assert_ptr_null(b.data);
	free(s);
	buf_fini(&b);
	s = buf_steal(&b);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_log_level)
{
	enum log_level l;
	ck_assert(log_level_parse("debug", &l) && l == LOG_DEBUG);
	ck_assert(log_level_parse("error", &l) && l == LOG_ERROR);
	ck_assert(!log_level_parse("loud", &l));
	log_set_level(LOG_WARN);
	ck_assert(log_enabled(LOG_ERROR));
	ck_assert(!log_enabled(LOG_INFO));
	char *p = xasprintf("%s-%d", "a", 7);
	ck_assert_str_eq(p, "a-7");
	free(p);
}
END_TEST

/* Random inserts, key moves (earlier and later) and removals, checked
 * after each step against the minimum of a plain array and against every
 * node's recorded position. */
START_TEST(test_text_rule)
{
	/* Issue 12, items 7 and 8: what user text may hold. */
	ck_assert_ptr_null(text_check("plain", 5, NULL));
	ck_assert_ptr_null(text_check("na\xc3\xafve \xe2\x99\x9e \xf0\x9f\x98\x80", 15, NULL));
	size_t at = 99;
	ck_assert_str_eq(text_check("ab\x1b[31m", 7, &at), "a control character");
	ck_assert_uint_eq(at, 2);
	ck_assert_str_eq(text_check("a\nb", 3, NULL), "a control character");
	ck_assert_str_eq(text_check("\x7f", 1, NULL), "a control character");
	ck_assert_str_eq(text_check("\xc2\x9b", 2, NULL), "a control character");
	ck_assert_str_eq(text_check("x\xe2\x80\xae", 4, &at), "a bidirectional control character");
	ck_assert_uint_eq(at, 1);
	ck_assert_str_eq(text_check("\xe2\x81\xa6", 3, NULL), "a bidirectional control character");
	ck_assert_str_eq(text_check("\xe2\x80\xa8", 3, NULL), "a line or paragraph separator");
	ck_assert_str_eq(text_check("\xff\xfe", 2, NULL), "invalid UTF-8");
	ck_assert_str_eq(text_check("\xc0\xaf", 2, NULL), "invalid UTF-8");     /* overlong */
	ck_assert_str_eq(text_check("\xed\xa0\x80", 3, NULL), "invalid UTF-8"); /* surrogate */
	ck_assert_str_eq(text_check("\xf4\x90\x80\x80", 4, NULL), "invalid UTF-8"); /* past U+10FFFF */
	ck_assert_str_eq(text_check("\xe2\x99", 2, NULL), "invalid UTF-8");     /* cut short */
	ck_assert_str_eq(text_check("a\0b", 3, NULL), "a NUL character");
	/* In JSON, escapes count as what they stand for. */
	const char *ok = "{\"text\":\"\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\u0000\"}";
	ck_assert_ptr_null(text_check_json(ok, strlen(ok), NULL));
	const char *nul = "{\"ruleset\":\"fide\\u0000\"}";
	ck_assert_str_eq(text_check_json(nul, strlen(nul), &at), "a NUL character");
	ck_assert_uint_eq(at, 16);
	const char *c1 = "{\"t\":\"\\u009B\"}";
	ck_assert_str_eq(text_check_json(c1, strlen(c1), NULL), "a control character");
	const char *nl = "{\"t\":\"a\\nb\"}";
	ck_assert_str_eq(text_check_json(nl, strlen(nl), NULL), "a control character");
	const char *rlo = "{\"t\":\"\\u202E\"}";
	ck_assert_str_eq(text_check_json(rlo, strlen(rlo), NULL), "a bidirectional control character");
	const char *lone = "{\"t\":\"\\udc00x\"}";
	ck_assert_str_eq(text_check_json(lone, strlen(lone), NULL), "invalid UTF-8");
	const char *key = "{\"\\u0007\":1}";
	ck_assert_str_eq(text_check_json(key, strlen(key), NULL), "a control character");
	/* Outside strings nothing is text. */
	const char *ws = "{\n\t\"a\" : 1\r\n}";
	ck_assert_ptr_null(text_check_json(ws, strlen(ws), NULL));
	/* The client's sanitiser: one '?' per bad character or byte. */
	char s[64];
	strcpy(s, "a\x1b[2Jb\ncd\xe2\x80\xae" "e\xff\xfe\xc3\xa9");
	text_sanitize(s);
	ck_assert_str_eq(s, "a?[2Jb?cd?e??\xc3\xa9");
	ck_assert_ptr_null(text_check(s, strlen(s), NULL));
}
END_TEST

START_TEST(test_dheap_random)
{
	enum { N = 200, STEPS = 10000 };
	static struct dheap_node nodes[N];
	struct dheap h;
	dheap_init(&h);
	memset(nodes, 0, sizeof nodes);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int step = 0; step < STEPS; step++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		struct dheap_node *n = &nodes[x % N];
		int64_t key = (int64_t)((x >> 20) % 1000) - 500;
		if ((x >> 40) % 4 == 0)
			dheap_remove(&h, n);
		else
			dheap_set(&h, n, key);
		size_t in = 0, misplaced = 0;
		int64_t min = INT64_MAX;
		for (int i = 0; i < N; i++) {
			if (!dheap_contains(&nodes[i]))
				continue;
			in++;
			if (nodes[i].key < min)
				min = nodes[i].key;
			misplaced += h.a[nodes[i].pos - 1] != &nodes[i];
		}
		ck_assert_uint_eq(misplaced, 0);
		ck_assert_uint_eq(in, h.n);
		if (in == 0)
			ck_assert_ptr_null(dheap_top(&h));
		else
			ck_assert_int_eq(dheap_top(&h)->key, min);
	}
	/* Draining by the top gives the keys in order. */
	int64_t last = INT64_MIN;
	struct dheap_node *top;
	while ((top = dheap_top(&h)) != NULL) {
		ck_assert_int_ge(top->key, last);
		last = top->key;
		dheap_remove(&h, top);
		ck_assert(!dheap_contains(top));
	}
	dheap_set(&h, &nodes[0], 1);
	dheap_fini(&h);
	ck_assert(!dheap_contains(&nodes[0]));
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("all");
	tcase_add_loop_test(tc, test_sha256_vectors, 0, sizeof vectors / sizeof vectors[0]);
	tcase_add_test(tc, test_sha256_million_a);
	tcase_add_test(tc, test_sha256_padding_edges);
	tcase_add_test(tc, test_token_random);
	tcase_add_test(tc, test_token_equal);
	tcase_add_test(tc, test_token_invite);
	tcase_add_test(tc, test_buf);
	tcase_add_test(tc, test_log_level);
	tcase_add_test(tc, test_dheap_random);
	tcase_add_test(tc, test_text_rule);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(util_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
