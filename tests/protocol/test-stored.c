/*
 * What tchessd stores beside the wire messages, through the codec: a
 * game's parameters (read back from rows written by earlier versions
 * with snprintf) and the notes-revealed event (read back by the client's
 * decoder).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/protocol.h"

START_TEST(test_game_params)
{
	struct protocol_game_params p = { 0 }, back;
	struct protocol_error err;
	char *s = protocol_game_params_encode(&p);
	ck_assert_str_eq(s, "{}");
	free(s);
	/* The texts game_service_create and the tournament service wrote. */
	static const char hash[] = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
	snprintf(p.invite_sha256, sizeof p.invite_sha256, "%s", hash);
	s = protocol_game_params_encode(&p);
	ck_assert_str_eq(s, "{\"invite_sha256\":\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"}");
	ck_assert_int_eq(protocol_game_params_decode(s, strlen(s), &back, &err), 0);
	ck_assert_str_eq(back.invite_sha256, hash);
	ck_assert_str_eq(back.tournament, "");
	free(s);
	const char *t = "{\"tournament\":\"0123456789abcdef0123456789abcdef\"}";
	ck_assert_int_eq(protocol_game_params_decode(t, strlen(t), &back, &err), 0);
	ck_assert_str_eq(back.invite_sha256, "");
	ck_assert_str_eq(back.tournament, "0123456789abcdef0123456789abcdef");
	ck_assert_int_eq(protocol_game_params_decode("{\"x\":1}", 7, &back, &err), -1);
}
END_TEST

START_TEST(test_notes_revealed)
{
	struct protocol_revealed_note in[2] = { { .seq = 7, .t_ms = 1764614400000, .player = 3 },
						{ .seq = 12, .t_ms = 1764614401000, .player = 4 } };
	snprintf(in[0].text, sizeof in[0].text, "%s", "Nf3 was a \"trap\"");
	snprintf(in[1].text, sizeof in[1].text, "%s", "gg");
	char *s = protocol_notes_revealed_encode(in, 2);
	ck_assert_str_eq(s, "{\"notes\":[{\"seq\":7,\"t_ms\":1764614400000,\"player\":3,\"text\":\"Nf3 was a "
			    "\\\"trap\\\"\"},{\"seq\":12,\"t_ms\":1764614401000,\"player\":4,\"text\":\"gg\"}]}");
	struct protocol_revealed_note *out = NULL;
	size_t n = 0;
	struct protocol_error err;
	ck_assert_int_eq(protocol_notes_revealed_decode(s, strlen(s), &out, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(out[1].seq, 12);
	ck_assert_int_eq(out[0].player, 3);
	ck_assert_str_eq(out[0].text, in[0].text);
	free(out);
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stored");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_game_params);
	tcase_add_test(tc, test_notes_revealed);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
