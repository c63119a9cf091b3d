/*
 * libFuzzer target for the answers the client reads
 * (tchess/protocol-answers.h): the first byte picks the answer, the rest
 * is its JSON text. The server writes each of them with the table the
 * client reads it with, so whatever a decoder accepts must encode, decode
 * again and encode to the same text; anything it refuses must say so in
 * the one form, "unexpected answer from the server: WHAT: WHY".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/protocol-answers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX "unexpected answer from the server: "

static void refused(const char *err)
{
	if (strncmp(err, PREFIX, strlen(PREFIX)) || !err[strlen(PREFIX)])
		abort();
}

static void same(char *a, char *b)
{
	if (!a || !b || strcmp(a, b))
		abort();
	free(a);
	free(b);
}

static void view(const char *json, size_t len)
{
	static struct protocol_tournament_view a, b; /* large */
	char err[256];
	if (protocol_tournament_view_decode(json, len, &a, err, sizeof err)) {
		refused(err);
		return;
	}
	char *e1 = protocol_tournament_view_encode(&a);
	if (protocol_tournament_view_decode(e1, strlen(e1), &b, err, sizeof err) || b.parts != a.parts)
		abort();
	same(e1, protocol_tournament_view_encode(&b));
	protocol_tournament_view_fini(&a);
	protocol_tournament_view_fini(&b);
}

static void list(const char *json, size_t len)
{
	struct protocol_tournament_summary *a, *b;
	size_t na, nb;
	char err[256];
	if (protocol_tournament_list_decode(json, len, &a, &na, err, sizeof err)) {
		refused(err);
		if (a || na)
			abort();
		return;
	}
	char *e1 = protocol_tournament_summaries_encode(a, na);
	if (protocol_tournament_list_decode(e1, strlen(e1), &b, &nb, err, sizeof err) || nb != na)
		abort();
	same(e1, protocol_tournament_summaries_encode(b, nb));
	free(a);
	free(b);
}

static void my_games(const char *json, size_t len)
{
	struct protocol_my_games a, b;
	char err[256];
	if (protocol_my_games_decode(json, len, &a, err, sizeof err)) {
		refused(err);
		if (a.games || a.n)
			abort();
		return;
	}
	char *e1 = protocol_my_games_encode(a.games, a.n, a.now_ms);
	if (protocol_my_games_decode(e1, strlen(e1), &b, err, sizeof err) || b.n != a.n)
		abort();
	same(e1, protocol_my_games_encode(b.games, b.n, b.now_ms));
	protocol_my_games_fini(&a);
	protocol_my_games_fini(&b);
}

static void finished(const char *json, size_t len)
{
	struct protocol_finished_games a, b;
	char err[256];
	if (protocol_finished_games_decode(json, len, &a, err, sizeof err)) {
		refused(err);
		if (a.games || a.n)
			abort();
		return;
	}
	char *e1 = protocol_finished_games_encode(&a);
	if (protocol_finished_games_decode(e1, strlen(e1), &b, err, sizeof err) || b.n != a.n)
		abort();
	same(e1, protocol_finished_games_encode(&b));
	protocol_finished_games_fini(&a);
	protocol_finished_games_fini(&b);
}

static void vacations(const char *json, size_t len)
{
	static struct protocol_vacation_list a, b;
	char err[256];
	if (protocol_vacation_list_decode(json, len, &a, err, sizeof err)) {
		refused(err);
		return;
	}
	char *e1 = protocol_vacations_encode(a.v, a.n, a.allowance, a.n_allowance, a.on_vacation);
	if (protocol_vacation_list_decode(e1, strlen(e1), &b, err, sizeof err))
		abort();
	same(e1, protocol_vacations_encode(b.v, b.n, b.allowance, b.n_allowance, b.on_vacation));
}

static void booking(const char *json, size_t len)
{
	struct protocol_vacation a, b;
	char err[256];
	if (protocol_vacation_booking_decode(json, len, &a, err, sizeof err)) {
		refused(err);
		return;
	}
	char *e1 = protocol_vacation_encode(&a);
	if (protocol_vacation_booking_decode(e1, strlen(e1), &b, err, sizeof err))
		abort();
	same(e1, protocol_vacation_encode(&b));
}

/* GET /v1/me: the credits the client takes from it, and the player. */
static void credits(const char *json, size_t len)
{
	struct protocol_player a, b;
	struct protocol_error e;
	int64_t c;
	char err[256];
	int rc = protocol_credits_decode(json, len, &c, err, sizeof err);
	if (rc)
		refused(err);
	if (protocol_player_decode(json, len, &a, &e)) {
		if (!rc || e.code != PROTOCOL_ERR_BAD_REQUEST)
			abort();
		return;
	}
	if (rc || c != a.credits)
		abort();
	char *e1 = protocol_player_encode(&a);
	if (protocol_player_decode(e1, strlen(e1), &b, &e))
		abort();
	same(e1, protocol_player_encode(&b));
}

typedef void (*target_fn)(const char *json, size_t len);

static const target_fn targets[] = { view, list, my_games, vacations, booking, credits, finished };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	targets[data[0] % (sizeof targets / sizeof targets[0])](text, size - 1);
	free(text);
	return 0;
}
