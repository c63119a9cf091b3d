/*
 * Tests of the protocol codec: error bodies and their HTTP statuses, the
 * register and player messages, events with their data beside the envelope,
 * and the strictness of every decoder (malformed JSON, wrong types, unknown
 * and repeated members, out-of-range integers); the fold's technical-failure
 * ending and its reason.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/fold.h"
#include "tchess/protocol.h"

#define DEC(fn, json, out, err) fn(json, strlen(json), out, err)

START_TEST(test_error_table)
{
	/* DESIGN.md: "400 bad input, 401/403 token, 404, 409 stale state,
	 * 413 too large, 422 illegal, 429 rate limit". */
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_BAD_REQUEST), 400);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_UNAUTHORIZED), 401);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_FORBIDDEN), 403);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_NOT_FOUND), 404);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_CONFLICT), 409);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_TOO_LARGE), 413);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_ILLEGAL), 422);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_RATE_LIMITED), 429);
	ck_assert_int_eq(protocol_error_status(PROTOCOL_ERR_INTERNAL), 500);
	ck_assert_str_eq(protocol_error_name(PROTOCOL_ERR_TOO_LARGE), "too_large");
	ck_assert_str_eq(protocol_error_name((enum protocol_error_code)999), "internal");
	for (unsigned i = 0; i < PROTOCOL_ERR_COUNT; i++) {
		enum protocol_error_code c;
		ck_assert(protocol_error_parse(protocol_error_name(i), &c));
		ck_assert_uint_eq(c, i);
	}
}
END_TEST

START_TEST(test_error_round_trip)
{
	struct protocol_error e, back, err;
	protocol_error_set(&e, PROTOCOL_ERR_CONFLICT, "name \"%s\" is taken", "alice");
	char *json = protocol_error_encode(&e);
	ck_assert_str_eq(json, "{\"error\":\"conflict\",\"message\":\"name \\\"alice\\\" is taken\"}");
	ck_assert_int_eq(DEC(protocol_error_decode, json, &back, &err), 0);
	ck_assert_int_eq(back.code, PROTOCOL_ERR_CONFLICT);
	ck_assert_str_eq(back.message, "name \"alice\" is taken");
	free(json);
	ck_assert_int_eq(DEC(protocol_error_decode, "{\"error\":\"nope\",\"message\":\"x\"}", &back, &err), -1);
	/* An empty message gets the code's generic one. */
	e.message[0] = '\0';
	json = protocol_error_encode(&e);
	ck_assert_ptr_nonnull(strstr(json, "conflicts with the current state"));
	free(json);
}
END_TEST

START_TEST(test_register_round_trip)
{
	struct protocol_register_request req = { "Alice_1" }, back;
	struct protocol_error err;
	char *json = protocol_register_request_encode(&req);
	ck_assert_str_eq(json, "{\"name\":\"Alice_1\"}");
	ck_assert_int_eq(DEC(protocol_register_request_decode, json, &back, &err), 0);
	ck_assert_str_eq(back.name, "Alice_1");
	free(json);

	struct protocol_register_response r = { 42, "bob", "00ff" }, rb;
	json = protocol_register_response_encode(&r);
	ck_assert_str_eq(json, "{\"player\":42,\"name\":\"bob\",\"token\":\"00ff\"}");
	ck_assert_int_eq(DEC(protocol_register_response_decode, json, &rb, &err), 0);
	ck_assert_int_eq(rb.player, 42);
	ck_assert_str_eq(rb.token, "00ff");
	free(json);

	struct protocol_player p = { 7, "carol", 0 }, pb;
	json = protocol_player_encode(&p);
	ck_assert_int_eq(DEC(protocol_player_decode, json, &pb, &err), 0);
	ck_assert_int_eq(pb.player, 7);
	ck_assert_str_eq(pb.name, "carol");
	free(json);
}
END_TEST

/* Bodies the register decoder must refuse, with a word the message must
 * contain. */
static const struct {
	const char *json;
	const char *why;
} bad_register[] = {
	{ "", "empty" },
	{ "{", "malformed" },
	{ "{\"name\":\"a\"} x", "trailing" },
	{ "[\"name\"]", "object" },
	{ "\"alice\"", "object" },
	{ "{}", "missing" },
	{ "{\"name\":5}", "must be a string" },
	{ "{\"name\":null}", "must be a string" },
	{ "{\"name\":[\"a\"]}", "must be a string" },
	{ "{\"name\":\"alice\",\"admin\":true}", "unknown member \"admin\"" },
	{ "{\"name\":\"alice\",\"name\":\"bob\"}", "repeated" },
	{ "{\"name\":\"\"}", "1 to" },
	{ "{\"name\":\"a b\"}", "not allowed" },
	{ "{\"name\":\"_lead\"}", "not allowed" },
	{ "{\"name\":\"abcdefghijklmnopqrstuvwxy\"}", "1 to 24" },
	{ "{\"name\":\"\\u00e9t\\u00e9\"}", "not allowed" },
};

START_TEST(test_register_strict)
{
	struct protocol_register_request out;
	struct protocol_error err = { 0 };
	const char *json = bad_register[_i].json;
	ck_assert_int_eq(DEC(protocol_register_request_decode, json, &out, &err), -1);
	ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
	ck_assert_msg(strstr(err.message, bad_register[_i].why), "%s: message \"%s\" lacks \"%s\"", json, err.message,
		      bad_register[_i].why);
}
END_TEST

START_TEST(test_register_garbage_with_nul)
{
	/* Decoders take a length, so a NUL inside the body is not the end. */
	struct protocol_register_request out;
	struct protocol_error err;
	const char body[] = "{\"name\":\"al\"}\0garbage";
	ck_assert_int_eq(protocol_register_request_decode(body, sizeof body - 1, &out, &err), -1);
}
END_TEST

START_TEST(test_integers_strict)
{
	struct protocol_player p;
	struct protocol_error err;
	ck_assert_int_eq(DEC(protocol_player_decode, "{\"player\":1.5,\"name\":\"a\"}", &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "integer"));
	ck_assert_int_eq(DEC(protocol_player_decode, "{\"player\":1e300,\"name\":\"a\"}", &p, &err), -1);
	ck_assert_int_eq(DEC(protocol_player_decode, "{\"player\":\"1\",\"name\":\"a\"}", &p, &err), -1);
	ck_assert_int_eq(DEC(protocol_player_decode, "{\"player\":9007199254740992,\"name\":\"a\"}", &p, &err), 0);
	ck_assert_int_eq(p.player, 9007199254740992LL);
	ck_assert_int_eq(DEC(protocol_player_decode, "{\"player\":-3,\"name\":\"a\"}", &p, &err), 0);
	ck_assert_int_eq(p.player, -3);
}
END_TEST

START_TEST(test_event_round_trip)
{
	struct protocol_error err;
	struct protocol_event ev = { 3, "game-created", 1700000000123, (char *)"{\"white\":1,\"fen\":\"x\"}" };
	char *json = protocol_event_encode(&ev, &err);
	ck_assert_ptr_nonnull(json);
	ck_assert_str_eq(json, "{\"seq\":3,\"type\":\"game-created\",\"t_ms\":1700000000123,\"white\":1,\"fen\":\"x\"}");
	struct protocol_event back;
	ck_assert_int_eq(DEC(protocol_event_decode, json, &back, &err), 0);
	ck_assert_int_eq(back.seq, 3);
	ck_assert_str_eq(back.type, "game-created");
	ck_assert_int_eq(back.t_ms, 1700000000123);
	ck_assert_str_eq(back.data, "{\"white\":1,\"fen\":\"x\"}");
	protocol_event_fini(&back);
	free(json);

	/* No data is an empty object. */
	struct protocol_event bare = { 1, "ping", 5, NULL };
	json = protocol_event_encode(&bare, &err);
	ck_assert_str_eq(json, "{\"seq\":1,\"type\":\"ping\",\"t_ms\":5}");
	free(json);
}
END_TEST

/* The server's fast path splices its own payloads; it must write exactly
 * what the cJSON encoder writes, large integers included. */
START_TEST(test_event_encode_own_same)
{
	struct protocol_error err;
	struct protocol_event evs[] = {
		{ 3, "move", 1700000000123, (char *)"{\"uci\":\"e2e4\",\"clock\":{\"white\":299000,\"black\":-5}}" },
		{ 9007199254740991LL, "ping", 0, NULL },
		{ 1, "note", 5, (char *)"{}" },
		/* Own data is cJSON's printing: UTF-8 as is, quotes escaped. */
		{ 2, "note", 6, (char *)"{\"text\":\"a \\\"q\\\" \xc3\xa9\"}" },
	};
	for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
		char *slow = protocol_event_encode(&evs[i], &err);
		char *fast = protocol_event_encode_own(&evs[i]);
		ck_assert_ptr_nonnull(slow);
		ck_assert_ptr_nonnull(fast);
		ck_assert_str_eq(fast, slow);
		free(slow);
		free(fast);
	}
	struct protocol_events batch = { .events = evs, .n = 3, .seq = 12, .now_ms = 1700000000999 };
	char *slow = protocol_events_encode(&batch, &err);
	char *fast = protocol_events_encode_own(&batch);
	ck_assert_str_eq(fast, slow);
	free(slow);
	free(fast);
	/* Not an object, or a malformed type: no splice. */
	struct protocol_event bad = { 1, "note", 0, (char *)"[1]" };
	ck_assert_ptr_null(protocol_event_encode_own(&bad));
	struct protocol_event badtype = { 1, "Bad Type", 0, NULL };
	ck_assert_ptr_null(protocol_event_encode_own(&badtype));
}
END_TEST

START_TEST(test_event_bad)
{
	struct protocol_error err;
	struct protocol_event ev = { 1, "note", 0, (char *)"{\"seq\":9}" };
	ck_assert_ptr_null(protocol_event_encode(&ev, &err));
	ck_assert_ptr_nonnull(strstr(err.message, "reserved"));
	ev.data = (char *)"[1]";
	ck_assert_ptr_null(protocol_event_encode(&ev, &err));
	ev.data = (char *)"{\"a\":1}";
	strcpy(ev.type, "Bad Type");
	ck_assert_ptr_null(protocol_event_encode(&ev, &err));
	ck_assert_int_eq(protocol_event_data_check("{\"a\":1,\"a\":2}", &err), -1);
	ck_assert_int_eq(protocol_event_data_check("{\"text\":\"hi\"}", &err), 0);

	struct protocol_event out;
	ck_assert_int_eq(DEC(protocol_event_decode, "{\"seq\":0,\"type\":\"x\",\"t_ms\":0}", &out, &err), -1);
	ck_assert_int_eq(DEC(protocol_event_decode, "{\"seq\":1,\"t_ms\":0}", &out, &err), -1);
	ck_assert_int_eq(DEC(protocol_event_decode, "{\"seq\":1,\"type\":7,\"t_ms\":0}", &out, &err), -1);
}
END_TEST

START_TEST(test_events_batch)
{
	struct protocol_error err;
	struct protocol_event evs[2] = {
		{ 4, "game-created", 10, (char *)"{\"white\":1}" },
		{ 6, "note", 11, (char *)"{\"text\":\"hi\"}" },
	};
	struct protocol_events batch = { .events = evs, .n = 2, .seq = 7, .now_ms = 99 };
	char *json = protocol_events_encode(&batch, &err);
	ck_assert_ptr_nonnull(json);
	struct protocol_events back;
	ck_assert_int_eq(DEC(protocol_events_decode, json, &back, &err), 0);
	ck_assert_uint_eq(back.n, 2);
	ck_assert_int_eq(back.seq, 7);
	ck_assert_int_eq(back.now_ms, 99);
	ck_assert_int_eq(back.events[1].seq, 6);
	ck_assert_str_eq(back.events[1].data, "{\"text\":\"hi\"}");
	protocol_events_fini(&back);
	free(json);

	struct protocol_events empty = { .seq = 3, .now_ms = 1 };
	json = protocol_events_encode(&empty, &err);
	ck_assert_str_eq(json, "{\"events\":[],\"seq\":3,\"now_ms\":1}");
	free(json);
	json = protocol_events_encode_own(&empty);
	ck_assert_str_eq(json, "{\"events\":[],\"seq\":3,\"now_ms\":1}");
	free(json);

	/* Out of order, past the game's seq, or an unknown member: refused. */
	const char *bad[] = {
		("{\"events\":[{\"seq\":2,\"type\":\"a\",\"t_ms\":0},{\"seq\":1,\"type\":\"a\",\"t_ms\":0}],\"seq\":2,"
		 "\"now_ms\":0}"),
		"{\"events\":[{\"seq\":5,\"type\":\"a\",\"t_ms\":0}],\"seq\":2,\"now_ms\":0}",
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"more\":1}",
		"{\"events\":{},\"seq\":2,\"now_ms\":0}",
		/* A snapshot comes with resync, and resync with a snapshot. */
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"resync\":true}",
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"snapshot\":{}}",
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"resync\":false,\"snapshot\":{}}",
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"resync\":true,\"snapshot\":[]}",
		"{\"events\":[],\"seq\":2,\"now_ms\":0,\"resync\":1,\"snapshot\":{}}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(DEC(protocol_events_decode, bad[i], &back, &err) == -1, "%s", bad[i]);
}
END_TEST

START_TEST(test_events_resync)
{
	/* A resync answer carries the snapshot object as it came, and the
	 * skipped notes as events. */
	struct protocol_error err;
	struct protocol_event note = { 6, "note", 11, (char *)"{\"text\":\"hi\"}" };
	struct protocol_events batch = { .events = &note, .n = 1, .seq = 9, .now_ms = 99, .resync = true,
					 .snapshot = (char *)"{\"id\":\"abc\",\"seq\":9}" };
	char *json = protocol_events_encode(&batch, &err);
	ck_assert_ptr_nonnull(json);
	ck_assert_str_eq(json, "{\"events\":[{\"seq\":6,\"type\":\"note\",\"t_ms\":11,\"text\":\"hi\"}],\"seq\":9,"
			       "\"now_ms\":99,\"resync\":true,\"snapshot\":{\"id\":\"abc\",\"seq\":9}}");
	struct protocol_events back;
	ck_assert_int_eq(DEC(protocol_events_decode, json, &back, &err), 0);
	ck_assert(back.resync);
	ck_assert_str_eq(back.snapshot, "{\"id\":\"abc\",\"seq\":9}");
	ck_assert_uint_eq(back.n, 1);
	protocol_events_fini(&back);
	ck_assert_ptr_null(back.snapshot);
	free(json);
	/* An encoder given no snapshot, or not an object, refuses. */
	batch.snapshot = NULL;
	ck_assert_ptr_null(protocol_events_encode(&batch, &err));
	batch.snapshot = (char *)"[1]";
	ck_assert_ptr_null(protocol_events_encode(&batch, &err));
	ck_assert_int_eq(err.code, PROTOCOL_ERR_BAD_REQUEST);
}
END_TEST

START_TEST(test_game_list)
{
	struct protocol_error err;
	struct protocol_game_summary g[2] = {
		{ .id = "0123456789abcdef0123456789abcdef", .status = "open", .white = 1, .created_ms = 1000, .seq = 1,
		  .age_ms = 120000, .tc = "5+3", .ruleset = "fide", .white_name = "alice", .color = "black" },
		{ .id = "ffff", .status = "playing", .white = 1, .black = 2, .created_ms = 2000, .seq = 5,
		  .tc = "10+5", .ruleset = "yourpot", .white_name = "alice", .black_level = 3, .ply = 7, .turn = "black" },
	};
	char *json = protocol_game_list_encode(g, 2);
	ck_assert_ptr_nonnull(strstr(json, "\"black\":null"));
	/* What does not apply is left out: no free seat, no engine, no ply. */
	ck_assert_ptr_nonnull(strstr(json, "\"color\":\"black\""));
	ck_assert_ptr_null(strstr(json, "\"black_name\""));
	ck_assert_ptr_null(strstr(json, "\"white_level\""));
	ck_assert_int_eq((int)(strstr(json, "\"ply\"") - json) > (int)(strstr(json, "ffff") - json), 1);
	struct protocol_game_summary *back;
	size_t n;
	ck_assert_int_eq(protocol_game_list_decode(json, strlen(json), &back, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(back[0].id, g[0].id);
	ck_assert_int_eq(back[0].black, 0);
	ck_assert_int_eq(back[1].black, 2);
	ck_assert_int_eq(back[0].age_ms, 120000);
	ck_assert_str_eq(back[0].tc, "5+3");
	ck_assert_str_eq(back[0].ruleset, "fide");
	ck_assert_str_eq(back[0].white_name, "alice");
	ck_assert_str_eq(back[0].black_name, "");
	ck_assert_str_eq(back[0].color, "black");
	ck_assert_int_eq(back[0].ply, 0);
	ck_assert_str_eq(back[1].ruleset, "yourpot");
	ck_assert_int_eq(back[1].black_level, 3);
	ck_assert_int_eq(back[1].ply, 7);
	ck_assert_str_eq(back[1].color, "");
	ck_assert_str_eq(back[0].turn, "");
	ck_assert_str_eq(back[1].turn, "black");
	free(back);
	free(json);
	/* An older server's list (no lobby members) reads, with them empty;
	 * a newer one's unknown member is skipped; a colour is one. */
	const char *old = "{\"games\":[{\"id\":\"ab\",\"status\":\"open\",\"white\":1,\"black\":null,"
			  "\"created_ms\":5,\"seq\":1,\"later\":true}]}";
	ck_assert_int_eq(protocol_game_list_decode(old, strlen(old), &back, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(back[0].tc, "");
	ck_assert_int_eq(back[0].age_ms, 0);
	free(back);
	const char *bad = "{\"games\":[{\"id\":\"ab\",\"status\":\"open\",\"white\":1,\"black\":null,"
			  "\"created_ms\":5,\"seq\":1,\"color\":\"green\"}]}";
	ck_assert_int_eq(protocol_game_list_decode(bad, strlen(bad), &back, &n, &err), -1);
	free(back);
	const char *bad_turn = "{\"games\":[{\"id\":\"ab\",\"status\":\"playing\",\"white\":1,\"black\":2,"
			       "\"created_ms\":5,\"seq\":4,\"turn\":\"both\"}]}";
	ck_assert_int_eq(protocol_game_list_decode(bad_turn, strlen(bad_turn), &back, &n, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "turn must be"));
	free(back);
	ck_assert(!protocol_game_id_valid("../etc"));
	ck_assert(!protocol_game_id_valid(""));
	ck_assert(!protocol_game_id_valid("0123456789abcdef0123456789abcdef0"));
}
END_TEST

/* "notes-revealed {"notes": [{"seq", "t_ms", "player", "text"}...]}: at
 * the end of the game, every note, now public." (tchess-protocol(7)) */
START_TEST(test_notes_revealed)
{
	struct protocol_error err;
	struct protocol_revealed_note *notes;
	size_t n;
	const char *ok = "{\"notes\":[{\"seq\":4,\"t_ms\":10,\"player\":1,\"text\":\"h7?\"},"
			 "{\"seq\":9,\"t_ms\":20,\"player\":2,\"text\":\"no\"}]}";
	ck_assert_int_eq(protocol_notes_revealed_decode(ok, strlen(ok), &notes, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(notes[1].seq, 9);
	ck_assert_int_eq(notes[1].player, 2);
	ck_assert_str_eq(notes[0].text, "h7?");
	free(notes);
	const char *empty = "{\"notes\":[]}";
	ck_assert_int_eq(protocol_notes_revealed_decode(empty, strlen(empty), &notes, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(notes);
	/* A note without its author, or a list that is not one, is refused. */
	const char *bad[] = {
		"{\"notes\":[{\"seq\":4,\"t_ms\":10,\"text\":\"x\"}]}",
		"{\"notes\":[3]}",
		"{\"notes\":{}}",
		"[]",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(protocol_notes_revealed_decode(bad[i], strlen(bad[i]), &notes, &n, &err), -1);
		ck_assert_ptr_null(notes);
		ck_assert_uint_eq(n, 0);
	}
}
END_TEST

START_TEST(test_note_and_create)
{
	struct protocol_error err;
	struct protocol_note_request note;
	ck_assert_int_eq(DEC(protocol_note_request_decode, "{\"text\":\"Nf3 next\"}", &note, &err), 0);
	ck_assert_str_eq(note.text, "Nf3 next");
	ck_assert_int_eq(DEC(protocol_note_request_decode, "{\"text\":\"\"}", &note, &err), -1);
	char big[1100 + 20];
	strcpy(big, "{\"text\":\"");
	memset(big + 9, 'a', 1001);
	strcpy(big + 9 + 1001, "\"}");
	ck_assert_int_eq(DEC(protocol_note_request_decode, big, &note, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "longer"));

	struct protocol_game_create_request cr;
	ck_assert_int_eq(DEC(protocol_game_create_request_decode, "{}", &cr, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "\"tc\" is missing"));
	ck_assert_int_eq(DEC(protocol_game_create_request_decode,
			     "{\"tc\":\"5+3\",\"opponent\":\"engine\",\"level\":3}", &cr, &err), 0);
	ck_assert_str_eq(cr.tc, "5+3");
	ck_assert_str_eq(cr.opponent, "engine");
	ck_assert_int_eq(cr.level, 3);
	ck_assert_str_eq(cr.ruleset, "");
	ck_assert_int_eq(DEC(protocol_game_create_request_decode, "{\"tc\":\"5+3\",\"params\":1}", &cr, &err), -1);
	ck_assert_int_eq(DEC(protocol_game_create_request_decode, "{\"tc\":5}", &cr, &err), -1);

	/* Moves and premoves name their ply; an empty premove list is refused
	 * (DELETE clears). */
	struct protocol_move_request mr;
	ck_assert_int_eq(DEC(protocol_move_request_decode, "{\"ply\":3,\"move\":\"Nf3\"}", &mr, &err), 0);
	ck_assert_int_eq(mr.ply, 3);
	ck_assert_str_eq(mr.move, "Nf3");
	ck_assert_int_eq(DEC(protocol_move_request_decode, "{\"ply\":-1,\"move\":\"Nf3\"}", &mr, &err), -1);
	ck_assert_int_eq(DEC(protocol_move_request_decode, "{\"ply\":1.5,\"move\":\"Nf3\"}", &mr, &err), -1);
	struct protocol_premoves_request pr;
	ck_assert_int_eq(DEC(protocol_premoves_request_decode, "{\"ply\":1,\"moves\":[\"g1f3\",\"e2e4\"]}", &pr, &err), 0);
	ck_assert_int_eq(pr.n, 2);
	ck_assert_str_eq(pr.moves[1], "e2e4");
	ck_assert_int_eq(DEC(protocol_premoves_request_decode, "{\"ply\":1,\"moves\":[]}", &pr, &err), -1);
	ck_assert_int_eq(DEC(protocol_premoves_request_decode, "{\"ply\":1,\"moves\":[7]}", &pr, &err), -1);
	struct protocol_join_request jr;
	ck_assert_int_eq(protocol_join_request_decode(NULL, 0, &jr, &err), 0);
	ck_assert_int_eq(DEC(protocol_join_request_decode, "{\"invite\":\"ab\"}", &jr, &err), 0);
	ck_assert_str_eq(jr.invite, "ab");
	ck_assert_int_eq(DEC(protocol_join_request_decode, "{\"code\":\"ab\"}", &jr, &err), -1);
	ck_assert_int_eq(protocol_empty_request_decode(" {} ", 4, &err), 0);
	ck_assert_int_eq(protocol_empty_request_decode("{\"x\":1}", 7, &err), -1);

	/* A stale-ply conflict carries the game's seq. */
	struct protocol_error stale = { .code = PROTOCOL_ERR_CONFLICT, .message = "stale", .seq = 7 }, back;
	char *json = protocol_error_encode(&stale);
	ck_assert_int_eq(protocol_error_decode(json, strlen(json), &back, &err), 0);
	ck_assert_int_eq(back.seq, 7);
	free(json);
}
END_TEST

/* A game human (white) against engine level 4, started and one move in,
 * through the fold at t = 1000, 1000, 3000. */
static void engine_game(struct game_view *v)
{
	struct protocol_error err;
	struct fold_event e;
	fold_view_init(v);
	fold_event_init(&e, FOLD_EV_CREATED);
	strcpy(e.tc, "5+0");
	strcpy(e.ruleset, "fide");
	strcpy(e.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	strcpy(e.opponent, "engine");
	e.seats[WHITE].kind = FOLD_SEAT_HUMAN;
	e.seats[WHITE].player = 1;
	strcpy(e.seats[WHITE].name, "ann");
	e.seats[BLACK].kind = FOLD_SEAT_ENGINE;
	e.seats[BLACK].level = 4;
	ck_assert_msg(fold_apply_event(v, 1, 1000, &e, &err) == 0, "%s", err.message);
	fold_event_init(&e, FOLD_EV_STARTED);
	ck_assert_msg(fold_apply_event(v, 2, 1000, &e, &err) == 0, "%s", err.message);
	fold_event_init(&e, FOLD_EV_MOVE);
	e.color = WHITE;
	e.ply = 0;
	strcpy(e.uci, "e2e4");
	strcpy(e.san, "e4");
	strcpy(e.fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	ck_assert_msg(fold_apply_event(v, 3, 3000, &e, &err) == 0, "%s", err.message);
}

/* The game actions' words are decoded here, not by the server: each word
 * to its enum, an absent member to _NONE, any other word to _UNKNOWN;
 * and the enums name the words the encoder writes. */
START_TEST(test_action_words)
{
	struct protocol_error err;
	struct protocol_action_request ar;
	ck_assert_int_eq(DEC(protocol_action_request_decode, "{\"ply\":2,\"action\":\"withdraw\"}", &ar, &err), 0);
	ck_assert_int_eq(ar.action_word, PROTOCOL_ACTION_WITHDRAW);
	ck_assert_int_eq(ar.claim_word, PROTOCOL_CLAIM_NONE);
	ck_assert_int_eq(DEC(protocol_action_request_decode, "{\"ply\":2}", &ar, &err), 0);
	ck_assert_int_eq(ar.action_word, PROTOCOL_ACTION_NONE);
	ck_assert_int_eq(DEC(protocol_action_request_decode, "{\"ply\":2,\"action\":\"Offer\"}", &ar, &err), 0);
	ck_assert_int_eq(ar.action_word, PROTOCOL_ACTION_UNKNOWN);
	ck_assert_int_eq(
		DEC(protocol_action_request_decode, "{\"ply\":0,\"claim\":\"fifty-moves\",\"move\":\"e4\"}", &ar, &err),
		0);
	ck_assert_int_eq(ar.claim_word, PROTOCOL_CLAIM_FIFTY_MOVES);
	ck_assert_int_eq(ar.action_word, PROTOCOL_ACTION_NONE);
	ck_assert_int_eq(DEC(protocol_action_request_decode, "{\"ply\":0,\"claim\":\"stalemate\"}", &ar, &err), 0);
	ck_assert_int_eq(ar.claim_word, PROTOCOL_CLAIM_UNKNOWN);
	for (int a = PROTOCOL_ACTION_OFFER; a < PROTOCOL_ACTION_UNKNOWN; a++) {
		/* The encoder writes the enum's word (the client sets only it). */
		struct protocol_action_request in = { .ply = 1, .action_word = (enum protocol_action)a };
		char *json = protocol_action_request_encode(&in);
		ck_assert_ptr_nonnull(strstr(json, protocol_action_str((enum protocol_action)a)));
		ck_assert_int_eq(DEC(protocol_action_request_decode, json, &ar, &err), 0);
		free(json);
		ck_assert_int_eq(ar.action_word, a);
	}
	for (int c = PROTOCOL_CLAIM_THREEFOLD; c < PROTOCOL_CLAIM_UNKNOWN; c++) {
		struct protocol_action_request in = { .ply = 1, .claim_word = (enum protocol_claim)c };
		char *json = protocol_action_request_encode(&in);
		ck_assert_int_eq(DEC(protocol_action_request_decode, json, &ar, &err), 0);
		free(json);
		ck_assert_int_eq(ar.claim_word, c);
	}
	ck_assert_str_eq(protocol_action_str(PROTOCOL_ACTION_UNKNOWN), "");
	ck_assert_str_eq(protocol_claim_str(PROTOCOL_CLAIM_WIN), "win");
}
END_TEST

/* fold_move_event: the event of a legal move carries the move, which the
 * fold applies without parsing it again; the same event read off the wire
 * carries none and is checked in full, and both give the same game. */
START_TEST(test_fold_move_event)
{
	struct protocol_error err;
	struct tchess_error terr;
	struct game_view v, w;
	engine_game(&v);
	fold_view_copy(&w, &v);
	move m;
	ck_assert_int_eq(uci_parse(&v.game.pos, "g8f6", 4, &m, &terr), TCHESS_OK);
	struct fold_event e, back;
	fold_move_event(&e, &v, m, 1500, false);
	ck_assert_int_eq(e.color, BLACK);
	ck_assert_int_eq(e.ply, 1);
	ck_assert_str_eq(e.uci, "g8f6");
	ck_assert_str_eq(e.san, "Nf6");
	ck_assert_str_eq(e.fen, "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
	ck_assert_int_eq(e.legal, m);
	e.has_clock = true;
	fold_clock_read(&v, 4500, &e.clock);
	char *json = fold_event_encode(&e);
	ck_assert_ptr_null(strstr(json, "legal"));
	ck_assert_msg(fold_event_decode("move", json, &back, &err) == 0, "%s", err.message);
	free(json);
	ck_assert_int_eq(back.legal, MOVE_NONE);
	ck_assert_msg(fold_apply_event(&v, 4, 4500, &e, &err) == 0, "%s", err.message);
	/* From the wire, a SAN that is not the move's is refused... */
	strcpy(back.san, "Nc6");
	ck_assert_int_eq(fold_apply_event(&w, 4, 4500, &back, &err), -1);
	ck_assert_str_eq(err.message, "move: SAN Nc6 does not match the move");
	ck_assert_int_eq(w.game.n_plies, 1);
	/* ... and the true one gives the game the trusted event gave. */
	strcpy(back.san, "Nf6");
	ck_assert_msg(fold_apply_event(&w, 4, 4500, &back, &err) == 0, "%s", err.message);
	ck_assert_int_eq(w.game.n_plies, 2);
	ck_assert(position_same(&w.game.pos, &v.game.pos));
	ck_assert_uint_eq(w.game.pos.key, v.game.pos.key);
	ck_assert_int_eq(w.clock.remaining_ms[BLACK], v.clock.remaining_ms[BLACK]);
	ck_assert_int_eq(w.plies[1].think_ms, 1500);
	fold_view_fini(&w);
	fold_view_fini(&v);
}
END_TEST

START_TEST(test_fold_technical_failure)
{
	/* The issue: a failing engine seat ends the game "as technical
	 * failure (unscored)", and "the bundled engine seat never silently
	 * falls back to something else": the end says why. */
	struct protocol_error err;
	struct game_view v;
	engine_game(&v);
	struct fold_event e, back;
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.result, "*");
	strcpy(e.termination, "technical-failure");
	strcpy(e.reason, "engine failed (black, level 4): engine failed twice");
	e.has_clock = true;
	e.clock = (struct fold_clock_reading){ .ms = { 300000, 298500 }, .running = CLOCK_NOBODY };
	char *json = fold_event_encode(&e);
	ck_assert_int_eq(fold_event_decode("game-ended", json, &back, &err), 0);
	free(json);
	ck_assert_str_eq(back.reason, e.reason);
	ck_assert_int_eq(back.color, -1);
	ck_assert_msg(fold_apply_event(&v, 4, 4500, &back, &err) == 0, "%s", err.message);
	ck_assert(game_is_over(&v.game));
	ck_assert_str_eq(game_result_str(v.game.result), "*");
	ck_assert_str_eq(game_termination_str(v.game.termination), "technical-failure");
	ck_assert_str_eq(fold_status(&v), "over");
	/* The engine's clock stopped at the end: 1500 ms of its turn used. */
	struct fold_clock_reading r;
	fold_clock_read(&v, 9000, &r);
	ck_assert_int_eq(r.running, CLOCK_NOBODY);
	ck_assert_int_eq(r.ms[BLACK], 300000 - 1500);
	fold_view_fini(&v);

	/* With a named loser it is a forfeit: the other side wins. */
	engine_game(&v);
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.termination, "technical-failure");
	strcpy(e.reason, "invalid-commands");
	e.color = BLACK;
	ck_assert_msg(fold_apply_event(&v, 4, 4500, &e, &err) == 0, "%s", err.message);
	ck_assert_str_eq(game_result_str(v.game.result), "1-0");
	fold_view_fini(&v);

	/* Without a reason the member is left out, and old events decode. */
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.result, "1-0");
	strcpy(e.termination, "resignation");
	e.color = BLACK;
	e.has_clock = true;
	json = fold_event_encode(&e);
	ck_assert_ptr_null(strstr(json, "reason"));
	ck_assert_int_eq(fold_event_decode("game-ended", json, &back, &err), 0);
	ck_assert_str_eq(back.reason, "");
	free(json);
	/* A reason must be text. */
	const char *bad = "{\"result\":\"*\",\"termination\":\"technical-failure\",\"color\":null,"
			  "\"clock\":{\"white_ms\":1,\"black_ms\":1,\"running\":null,\"turn_used_ms\":0},";
	char text[400];
	snprintf(text, sizeof text, "%s\"reason\":\"gone\"}", bad);
	ck_assert_msg(fold_event_decode("game-ended", text, &back, &err) == 0, "%s", err.message);
	snprintf(text, sizeof text, "%s\"reason\":7}", bad);
	ck_assert_int_ne(fold_event_decode("game-ended", text, &back, &err), 0);
	ck_assert_msg(strstr(err.message, "reason"), "%s", err.message);
}
END_TEST

/* fold_may_move: the one "may this side move now?" of the fold, the
 * server and the client, and the fold's move refused by it. */
START_TEST(test_fold_may_move)
{
	struct protocol_error err;
	struct game_view v;
	const char *why = NULL;
	fold_view_init(&v);
	ck_assert_int_eq(fold_may_move(&v, WHITE, &why), FOLD_MAY_NOT_STARTED);
	ck_assert_str_eq(why, "the game has not started");
	fold_view_fini(&v);
	engine_game(&v);
	ck_assert_int_eq(fold_may_move(&v, BLACK, NULL), FOLD_MAY_MOVE);
	ck_assert_int_eq(fold_may_move(&v, WHITE, &why), FOLD_MAY_NOT_TURN);
	ck_assert_str_eq(why, "it is not that side's move");
	/* White again: refused with the rule's words, nothing applied. */
	struct fold_event e;
	fold_event_init(&e, FOLD_EV_MOVE);
	e.color = WHITE;
	e.ply = 1;
	strcpy(e.uci, "d2d4");
	strcpy(e.san, "d4");
	ck_assert_int_ne(fold_apply_event(&v, 4, 4000, &e, &err), 0);
	ck_assert_str_eq(err.message, "move: it is not that side's move");
	ck_assert_int_eq((int)v.game.n_plies, 1);
	/* Adjourned: no side moves, and the fold refuses a move. */
	v.game.status = GAME_ADJOURNED;
	ck_assert_int_eq(fold_may_move(&v, BLACK, &why), FOLD_MAY_ADJOURNED);
	e.color = BLACK;
	strcpy(e.uci, "e7e5");
	strcpy(e.san, "e5");
	ck_assert_int_ne(fold_apply_event(&v, 4, 4000, &e, &err), 0);
	ck_assert_str_eq(err.message, "move: the game is adjourned");
	v.game.status = GAME_ONGOING;
	fold_event_init(&e, FOLD_EV_ENDED);
	strcpy(e.result, "0-1");
	strcpy(e.termination, "resignation");
	e.color = WHITE;
	ck_assert_msg(fold_apply_event(&v, 4, 4500, &e, &err) == 0, "%s", err.message);
	ck_assert_int_eq(fold_may_move(&v, BLACK, &why), FOLD_MAY_OVER);
	ck_assert_str_eq(why, "the game is over");
	fold_view_fini(&v);
}
END_TEST

static Suite *protocol_suite(void)
{
	Suite *s = suite_create("protocol");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, test_error_table);
	tcase_add_test(tc, test_error_round_trip);
	tcase_add_test(tc, test_register_round_trip);
	tcase_add_loop_test(tc, test_register_strict, 0, sizeof bad_register / sizeof bad_register[0]);
	tcase_add_test(tc, test_register_garbage_with_nul);
	tcase_add_test(tc, test_integers_strict);
	tcase_add_test(tc, test_event_round_trip);
	tcase_add_test(tc, test_event_encode_own_same);
	tcase_add_test(tc, test_event_bad);
	tcase_add_test(tc, test_events_batch);
	tcase_add_test(tc, test_events_resync);
	tcase_add_test(tc, test_game_list);
	tcase_add_test(tc, test_note_and_create);
	tcase_add_test(tc, test_notes_revealed);
	tcase_add_test(tc, test_fold_may_move);
	tcase_add_test(tc, test_action_words);
	tcase_add_test(tc, test_fold_move_event);
	tcase_add_test(tc, test_fold_technical_failure);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(protocol_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
