/*
 * The token buckets of ratelimit.c, with time passed in: burst, refill,
 * the wait it reports, separate keys, the off switch, and a table too
 * small for its keys (dropped buckets come back full, never refusing).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratelimit.h"

START_TEST(test_burst_then_refill)
{
	/* tchessd(8): "a bucket holds up to burst tokens and refills at
	 * per_s tokens a second". */
	struct ratelimit *rl = ratelimit_new(2, 5, 64);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1000), 0);
	/* Empty: one token comes back after 500 ms at 2/s. */
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1000), 500);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1499), 1);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1500), 0);
	ck_assert_int_gt(ratelimit_take(rl, "a", 1, 1500), 0);
	/* A long pause refills to the burst, not beyond. */
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1000000), 0);
	ck_assert_int_gt(ratelimit_take(rl, "a", 1, 1000000), 0);
	/* A clock that steps back refills nothing. */
	ck_assert_int_gt(ratelimit_take(rl, "a", 1, 5), 0);
	ratelimit_free(rl);
}
END_TEST

START_TEST(test_shared_by_nodes)
{
	/* One of three nodes (ratelimit_share): a third of the burst and of
	 * the rate; back to the whole with one. */
	struct ratelimit *rl = ratelimit_new(3, 30, 64);
	ratelimit_share(rl, 3);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1000), 0);
	/* 1 a second now: the next token in 1000 ms, not 333. */
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1000), 1000);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2000), 0);
	ratelimit_share(rl, 1);
	for (int i = 0; i < 30; i++)
		ck_assert_int_eq(ratelimit_take(rl, "b", 1, 1000), 0);
	ck_assert_int_eq(ratelimit_take(rl, "b", 1, 1000), 334);
	/* A bucket fuller than the new share is cut to it: 29 left of 30,
	 * then 10 of a third. */
	ck_assert_int_eq(ratelimit_take(rl, "c", 1, 1000), 0);
	ratelimit_share(rl, 3);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(ratelimit_take(rl, "c", 1, 1000), 0);
	ck_assert_int_gt(ratelimit_take(rl, "c", 1, 1000), 0);
	ratelimit_free(rl);
}
END_TEST

START_TEST(test_per_hour)
{
	/* register_per_hour (tchessd(8)): 3 an hour, refilled over it. */
	struct ratelimit *rl = ratelimit_new_per(3, 3600000, 3, 64);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(ratelimit_take(rl, "a", 1, 0), 0);
	/* Empty: one comes back after 20 minutes, and not before. */
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 0), 1200000);
	/* Refused a millisecond before, its wait counted in thousandths of
	 * a token (1.2 s each at 3 an hour). */
	int64_t wait = ratelimit_take(rl, "a", 1, 1199999);
	ck_assert_int_gt(wait, 0);
	ck_assert_int_le(wait, 1200);
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 1200000), 0);
	ck_assert_int_gt(ratelimit_take(rl, "a", 1, 1200000), 0);
	/* Many small steps add up as one long one. */
	for (int64_t t = 1200000; t < 2400000; t += 7)
		ratelimit_take(rl, "b", 1, t); /* another key: its own bucket */
	ck_assert_int_eq(ratelimit_take(rl, "a", 1, 2400000), 0);
	ratelimit_free(rl);
}
END_TEST

START_TEST(test_keys_are_separate)
{
	struct ratelimit *rl = ratelimit_new(1, 1, 64);
	ck_assert_int_eq(ratelimit_take(rl, "10.0.0.1", 8, 0), 0);
	ck_assert_int_eq(ratelimit_take(rl, "10.0.0.1", 8, 0), 1000);
	ck_assert_int_eq(ratelimit_take(rl, "10.0.0.2", 8, 0), 0);
	ratelimit_free(rl);
	/* per_s 0: no limit. */
	rl = ratelimit_new(0, 1, 64);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(ratelimit_take(rl, "x", 1, 0), 0);
	ratelimit_free(rl);
	ck_assert_int_eq(ratelimit_take(NULL, "x", 1, 0), 0);
	ratelimit_free(NULL);
}
END_TEST

START_TEST(test_small_table)
{
	/* 10000 keys through 16 slots: memory stays fixed; a key seen once
	 * is never refused (its bucket starts full), and a key hammered in a
	 * row is refused after its burst. */
	struct ratelimit *rl = ratelimit_new(1, 3, 16);
	char key[32];
	for (int i = 0; i < 10000; i++) {
		snprintf(key, sizeof key, "k%d", i);
		ck_assert_int_eq(ratelimit_take(rl, key, strlen(key), 0), 0);
	}
	int refused = 0;
	for (int i = 0; i < 10; i++)
		refused += ratelimit_take(rl, "hot", 3, 0) > 0;
	ck_assert_int_eq(refused, 7);
	ratelimit_free(rl);
}
END_TEST

START_TEST(test_addr_key_groups_ipv6)
{
	/* Issue 12, item 6: one /64 holds thousands of addresses, so the
	 * per-address limits count it as one (ipv6_prefix, tchessd(8)). */
	char a[64], b[64];
	ratelimit_addr_key("2001:db8:1:2:aaaa::1", 64, a, sizeof a);
	ratelimit_addr_key("2001:db8:1:2:ffff:eeee:dddd:cccc", 64, b, sizeof b);
	ck_assert_str_eq(a, "2001:db8:1:2::");
	ck_assert_str_eq(a, b);
	ratelimit_addr_key("2001:db8:1:3::1", 64, b, sizeof b);
	ck_assert_str_ne(a, b);
	/* Another prefix length, one not on a byte boundary, the full one. */
	ratelimit_addr_key("2001:db8:1:2:aaaa::1", 48, a, sizeof a);
	ck_assert_str_eq(a, "2001:db8:1::");
	ratelimit_addr_key("2001:db8:ffff::", 36, a, sizeof a);
	ck_assert_str_eq(a, "2001:db8:f000::");
	ratelimit_addr_key("2001:db8::7", 128, a, sizeof a);
	ck_assert_str_eq(a, "2001:db8::7");
	/* IPv4, plain or mapped, counts per address. */
	ratelimit_addr_key("192.0.2.7", 64, a, sizeof a);
	ck_assert_str_eq(a, "192.0.2.7");
	ratelimit_addr_key("::ffff:192.0.2.7", 64, a, sizeof a);
	ck_assert_str_eq(a, "192.0.2.7");
	ratelimit_addr_key("", 64, a, sizeof a);
	ck_assert_str_eq(a, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ratelimit");
	TCase *tc = tcase_create("ratelimit");
	tcase_add_test(tc, test_burst_then_refill);
	tcase_add_test(tc, test_per_hour);
	tcase_add_test(tc, test_shared_by_nodes);
	tcase_add_test(tc, test_keys_are_separate);
	tcase_add_test(tc, test_small_table);
	tcase_add_test(tc, test_addr_key_groups_ipv6);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
