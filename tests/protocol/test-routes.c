/*
 * The route table (tchess/routes.h): every route's path, built by
 * routes_path, matches back to that route; the matcher tells 404 from 405;
 * the builder refuses what would make another path.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/routes.h"

START_TEST(test_every_route_round_trips)
{
	static const char *const ids[] = { "0123abcd", "9876fedc" };
	for (int i = 0; i < ROUTE_COUNT; i++) {
		const struct route *r = routes_get((enum route_id)i);
		ck_assert_ptr_nonnull(r);
		size_t n = 0;
		for (const char *p = r->pattern; *p; p++)
			n += *p == ':';
		char path[256], params[ROUTES_PARAMS_MAX][ROUTES_PARAM_LEN];
		ck_assert_int_gt(routes_path(path, sizeof path, (enum route_id)i, ids, n), 0);
		ck_assert_msg(!strncmp(path, PROTOCOL_PREFIX "/", strlen(PROTOCOL_PREFIX) + 1), "%s", path);
		enum route_id id = ROUTE_COUNT;
		ck_assert_int_eq(routes_match(r->method, path, params, &id), ROUTES_MATCHED);
		ck_assert_int_eq(id, i);
		for (size_t k = 0; k < n; k++)
			ck_assert_str_eq(params[k], ids[k]);
	}
	ck_assert_ptr_null(routes_get(ROUTE_COUNT));
}
END_TEST

START_TEST(test_paths)
{
	char path[64];
	const char *id[] = { "208fe1f1" };
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_GAME_EVENTS, id, 1), 25);
	ck_assert_str_eq(path, "/v1/games/208fe1f1/events");
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_HEALTH, NULL, 0), 10);
	ck_assert_str_eq(path, "/v1/health");
	/* Wrong number of params, an empty one, one with a '/', no room. */
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_GAME_EVENTS, NULL, 0), -1);
	ck_assert_str_eq(path, "");
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_HEALTH, id, 1), -1);
	const char *empty[] = { "" }, *slash[] = { "a/b" };
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_GAME, empty, 1), -1);
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_GAME, slash, 1), -1);
	ck_assert_int_eq(routes_path(path, 10, ROUTE_HEALTH, NULL, 0), -1);
	ck_assert_int_eq(routes_path(path, 11, ROUTE_HEALTH, NULL, 0), 10);
	ck_assert_int_eq(routes_path(path, sizeof path, ROUTE_COUNT, NULL, 0), -1);
}
END_TEST

START_TEST(test_match)
{
	char params[ROUTES_PARAMS_MAX][ROUTES_PARAM_LEN];
	enum route_id id = ROUTE_COUNT;
	ck_assert_int_eq(routes_match("PUT", "/v1/games/x/premoves", params, &id), ROUTES_MATCHED);
	ck_assert_int_eq(id, ROUTE_GAME_PREMOVES_SET);
	ck_assert_int_eq(routes_match("DELETE", "/v1/games/x/premoves", params, &id), ROUTES_MATCHED);
	ck_assert_int_eq(id, ROUTE_GAME_PREMOVES_CLEAR);
	ck_assert_int_eq(routes_match("GET", "/v1/games/x/premoves", params, &id), ROUTES_NO_METHOD);
	ck_assert_int_eq(routes_match("GET", "/v1/games/x/nothing", params, &id), ROUTES_NO_PATH);
	ck_assert_int_eq(routes_match("GET", "/v1/games//events", params, &id), ROUTES_NO_PATH);
	ck_assert_int_eq(routes_match("GET", "/v1/games/x/events/", params, &id), ROUTES_NO_PATH);
	char long_id[ROUTES_PARAM_LEN + 16];
	memset(long_id, 'a', sizeof long_id - 1);
	long_id[sizeof long_id - 1] = '\0';
	char path[256];
	snprintf(path, sizeof path, "/v1/games/%s", long_id);
	ck_assert_int_eq(routes_match("GET", path, params, &id), ROUTES_NO_PATH);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("routes");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_every_route_round_trips);
	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_match);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
