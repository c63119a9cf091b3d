/*
 * Opening names: every line of the compiled ECO table plays from the start
 * and is found again at its end; known openings by name and code; a
 * transposition and other move counters find the same entry.
 */
#include <check.h>
#include <string.h>

#include "tchess/eco.h"
#include "tchess/fen.h"
#include "tchess/notation.h"

/* Plays the SAN moves of line from the start into p; false if one fails. */
static bool play(const char *line, struct position *p)
{
	position_init_start(p);
	while (*line) {
		size_t n = strcspn(line, " ");
		move m;
		struct undo u;
		if (san_parse(p, line, n, &m, NULL) != TCHESS_OK)
			return false;
		position_make(p, m, &u);
		line += n;
		line += strspn(line, " ");
	}
	return true;
}

START_TEST(test_every_line_found)
{
	/* pgn-extract's file has 2,014 lines, A00 to E99. */
	ck_assert_uint_eq(eco_count(), 2014);
	ck_assert_str_eq(eco_entry_at(0)->code, "A00");
	ck_assert_str_eq(eco_entry_at(eco_count() - 1)->code, "E99");
	ck_assert_ptr_null(eco_entry_at(eco_count()));
	for (size_t i = 0; i < eco_count(); i++) {
		const struct eco_entry *e = eco_entry_at(i);
		struct position p, q;
		ck_assert_msg(play(e->moves, &p), "%s %s: %s does not play", e->code, e->name, e->moves);
		const struct eco_entry *f = eco_lookup(&p);
		ck_assert_msg(f != NULL, "%s %s not found", e->code, e->name);
		/* Another line may reach the same position first. */
		ck_assert(play(f->moves, &q));
		ck_assert_uint_eq(q.key, p.key);
	}
}
END_TEST

START_TEST(test_known_openings)
{
	struct position p, q;
	ck_assert(play("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", &p));
	const struct eco_entry *e = eco_lookup(&p);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->code, "B90");
	ck_assert_str_eq(e->name, "Sicilian: Najdorf");
	/* A transposition: 1. Nf3 d5 2. d4 is 1. d4 d5 2. Nf3. */
	ck_assert(play("Nf3 d5 d4", &q));
	e = eco_lookup(&q);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->code, "D02");
	/* The move counters do not count. */
	ck_assert_int_eq(fen_parse(&q, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 30", NULL), TCHESS_OK);
	e = eco_lookup(&q);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->code, "B00");
	/* The start and a position out of book have none. */
	position_init_start(&p);
	ck_assert_ptr_null(eco_lookup(&p));
	ck_assert(play("a3 a6 h3 h6 b3", &p));
	ck_assert_ptr_null(eco_lookup(&p));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eco");
	TCase *tc = tcase_create("eco");
	tcase_add_test(tc, test_every_line_found);
	tcase_add_test(tc, test_known_openings);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
