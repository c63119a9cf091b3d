/*
 * Tablebase tests: Debian's 3-piece Gaviota tables (gaviotatb), the shared
 * 3-4-piece Gaviota and Syzygy sets with python-chess's expected answers,
 * refusals (missing table, castling rights, bad folders) and the judging of
 * a Yourpot tablebase draw claim.
 *
 * Outside data that is missing is skipped with a message on stderr, as the
 * shared data's README asks; so is everything that needs a library this
 * build was made without; the runner then reports SKIP (testdata_status).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tchess/fen.h"
#include "tchess/game.h"
#include "tchess/ruleset.h"
#include "tchess/tablebase.h"
#include "testdata.h"

#define SHARED_GAVIOTA "tablebases/gaviota-3-4"
#define SHARED_SYZYGY "tablebases/syzygy-3-4"

static struct position pos_of(const char *fen)
{
	struct position p;
	struct tchess_error err;
	ck_assert_msg(fen_parse(&p, fen, &err) == TCHESS_OK, "%s: %s", fen, err.message);
	return p;
}

static bool dir_exists(const char *path)
{
	return access(path, R_OK | X_OK) == 0;
}

/* Debian's tables, or NULL after saying why the test is skipped. */
static struct tablebase *open_debian(void)
{
	if (!tablebase_has_gaviota()) {
		testdata_skip("no Gaviota support compiled in");
		return NULL;
	}
	if (!dir_exists(TABLEBASE_DEBIAN_GAVIOTA_DIR)) {
		testdata_skip("%s is missing (Debian package gaviotatb)", TABLEBASE_DEBIAN_GAVIOTA_DIR);
		return NULL;
	}
	char *err = NULL;
	struct tablebase *tb = tablebase_open(TABLEBASE_DEBIAN_GAVIOTA_DIR, NULL, &err);
	ck_assert_msg(tb != NULL, "%s", err ? err : "?");
	return tb;
}

/* The shared sets (either may be NULL for "not wanted"), or NULL when one
 * that is wanted is absent or unsupported. */
static struct tablebase *open_shared(bool gaviota, bool syzygy)
{
	char gdir[4096], sdir[4096];
	snprintf(gdir, sizeof(gdir), "%s", testdata_shared_path(SHARED_GAVIOTA));
	snprintf(sdir, sizeof(sdir), "%s", testdata_shared_path(SHARED_SYZYGY));
	if ((gaviota && !tablebase_has_gaviota()) || (syzygy && !tablebase_has_syzygy())) {
		testdata_skip("no %s support compiled in", gaviota ? "Gaviota" : "Syzygy");
		return NULL;
	}
	if ((gaviota && !dir_exists(gdir)) || (syzygy && !dir_exists(sdir))) {
		testdata_missing(gaviota ? SHARED_GAVIOTA : SHARED_SYZYGY);
		return NULL;
	}
	char *err = NULL;
	struct tablebase *tb = tablebase_open(gaviota ? gdir : NULL, syzygy ? sdir : NULL, &err);
	ck_assert_msg(tb != NULL, "%s", err ? err : "?");
	return tb;
}

static enum tablebase_wdl wdl_of(struct tablebase *tb, const char *fen)
{
	struct position p = pos_of(fen);
	enum tablebase_wdl w;
	char why[200] = "";
	ck_assert_msg(tablebase_probe_wdl(tb, &p, &w, why, sizeof(why)) == TCHESS_OK, "%s: %s", fen, why);
	return w;
}

START_TEST(test_material_name)
{
	char buf[TABLEBASE_MATERIAL_MAX];
	struct position p = pos_of("8/8/3k4/3r4/8/3KP3/3R4/8 w - - 0 1");
	ck_assert_uint_eq(tablebase_material_name(&p, buf, sizeof(buf)), 6);
	ck_assert_str_eq(buf, "KRPvKR");
	p = pos_of("kq6/8/8/8/8/8/8/K7 w - - 0 1");
	tablebase_material_name(&p, buf, sizeof(buf));
	ck_assert_str_eq(buf, "KvKQ");
	position_init_start(&p);
	tablebase_material_name(&p, buf, sizeof(buf));
	ck_assert_str_eq(buf, "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
	/* Cut short, the full length still returned. */
	char small[4];
	ck_assert_uint_eq(tablebase_material_name(&p, small, sizeof(small)), 33);
	ck_assert_str_eq(small, "KQR");
}
END_TEST

START_TEST(test_open_errors)
{
	char *err = NULL;
	ck_assert_ptr_null(tablebase_open(NULL, NULL, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err, "no tablebase folder given");
	free(err);

	err = NULL;
	ck_assert_ptr_null(tablebase_open("/nonexistent/tchess-tables", NULL, &err));
	ck_assert_ptr_nonnull(err);
	if (tablebase_has_gaviota())
		ck_assert_str_eq(err, "Gaviota folder /nonexistent/tchess-tables: No such file or directory");
	else
		ck_assert_ptr_nonnull(strstr(err, "no Gaviota support compiled in"));
	free(err);

	err = NULL;
	ck_assert_ptr_null(tablebase_open(NULL, "/nonexistent/syzygy", &err));
	ck_assert_ptr_nonnull(err);
	if (tablebase_has_syzygy())
		ck_assert_str_eq(err, "Syzygy folder /nonexistent/syzygy: No such file or directory");
	else
		ck_assert_ptr_nonnull(strstr(err, "no Syzygy support compiled in"));
	free(err);

	/* An existing folder without tables is an operator's mistake too. */
	char dir[] = "/tmp/tchess-tb-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	err = NULL;
	ck_assert_ptr_null(tablebase_open(dir, NULL, &err));
	if (tablebase_has_gaviota())
		ck_assert_ptr_nonnull(strstr(err, "holds no Gaviota tables"));
	free(err);
	err = NULL;
	ck_assert_ptr_null(tablebase_open(NULL, dir, &err));
	if (tablebase_has_syzygy())
		ck_assert_ptr_nonnull(strstr(err, "holds no Syzygy WDL tables"));
	free(err);
	rmdir(dir);
	tablebase_free(NULL);
}
END_TEST

/* Debian's gaviotatb: KQvK, KRvK, KPvK, KBvK, KNvK. */
START_TEST(test_debian_three_pieces)
{
	struct tablebase *tb = open_debian();
	if (!tb)
		return;
	ck_assert_int_eq(tablebase_max_pieces(tb), 3);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"), TABLEBASE_WIN);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/2k5/8/KQ6 b - - 0 1"), TABLEBASE_LOSS);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/2k5/8/KR6 w - - 0 1"), TABLEBASE_WIN);
	/* The black rook hangs to the white king: a draw. */
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/8/1r6/K3k3 w - - 0 1"), TABLEBASE_DRAW);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/3k4/8/8/8/KB6 w - - 0 1"), TABLEBASE_DRAW);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/3k4/8/8/8/KN6 b - - 0 1"), TABLEBASE_DRAW);
	/* KPvK: drawn when the pawn falls, won outside the square or with the
	 * king on the sixth in front of its pawn, drawn with the rook pawn. */
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/8/2kP4/7K b - - 0 1"), TABLEBASE_DRAW);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/8/P6k/K7 w - - 0 1"), TABLEBASE_WIN);
	ck_assert_int_eq(wdl_of(tb, "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), TABLEBASE_WIN);
	ck_assert_int_eq(wdl_of(tb, "k7/8/1K6/P7/8/8/8/8 w - - 0 1"), TABLEBASE_DRAW);
	/* Black's queen: the same table read with colours swapped. */
	ck_assert_int_eq(wdl_of(tb, "kq6/8/8/8/8/8/8/6K1 w - - 0 1"), TABLEBASE_LOSS);

	/* Mate in 10 moves (the shared DTM list's KQvK entry) is 19 plies. */
	struct position p = pos_of("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
	int dtm = 0;
	char why[200] = "";
	ck_assert_msg(tablebase_probe_dtm(tb, &p, &dtm, why, sizeof(why)) == TCHESS_OK, "%s", why);
	ck_assert_int_eq(dtm, 19);
	/* No DTZ without Syzygy tables. */
	ck_assert_int_eq(tablebase_probe_dtz(tb, &p, &dtm, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no Syzygy DTZ table for KQvK");
	tablebase_free(tb);
}
END_TEST

START_TEST(test_refusals)
{
	struct tablebase *tb = open_debian();
	if (!tb)
		return;
	char why[200] = "";
	enum tablebase_wdl w;
	bool drawn;

	struct position p = pos_of("8/8/3k4/3r4/8/3KP3/3R4/8 w - - 0 1");
	ck_assert_int_eq(tablebase_probe_wdl(tb, &p, &w, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no table for KRPvKR: the tables given stop at 3 pieces");
	ck_assert_int_eq(tablebase_judge_claim(tb, &p, true, &drawn, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no table for KRPvKR: the tables given stop at 3 pieces");
	ck_assert_uint_eq(tablebase_covers(tb, &p), 0);

	/* Three pieces but no table for them: KvKK cannot exist, KQvK can. */
	p = pos_of("8/8/8/3k4/8/8/8/K6q w - - 0 1");
	ck_assert_uint_eq(tablebase_covers(tb, &p), TABLEBASE_GAVIOTA);

	/* No table holds castling rights. */
	p = pos_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
	ck_assert_int_eq(tablebase_probe_wdl(tb, &p, &w, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no table holds positions with castling rights (KRvK)");
	ck_assert_int_eq(tablebase_judge_claim(tb, &p, true, &drawn, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	tablebase_free(tb);
}
END_TEST

/* A folder with only some tables: the missing one is named. */
START_TEST(test_missing_table_in_folder)
{
	if (!tablebase_has_gaviota() || !dir_exists(TABLEBASE_DEBIAN_GAVIOTA_DIR)) {
		testdata_skip("needs Gaviota support and %s", TABLEBASE_DEBIAN_GAVIOTA_DIR);
		return;
	}
	char dir[] = "/tmp/tchess-tb-XXXXXX", link[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/krk.gtb.cp4", dir);
	ck_assert_int_eq(symlink(TABLEBASE_DEBIAN_GAVIOTA_DIR "/krk.gtb.cp4", link), 0);
	char *err = NULL;
	struct tablebase *tb = tablebase_open(dir, NULL, &err);
	ck_assert_msg(tb != NULL, "%s", err ? err : "?");

	char why[200] = "";
	enum tablebase_wdl w;
	ck_assert_int_eq(wdl_of(tb, "8/8/8/8/8/2k5/8/KR6 w - - 0 1"), TABLEBASE_WIN);
	struct position p = pos_of("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
	ck_assert_int_eq(tablebase_probe_wdl(tb, &p, &w, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no table for KQvK");
	tablebase_free(tb);
	unlink(link);
	rmdir(dir);
}
END_TEST

/* Reads the FEN of an EPD line (its first four fields) into p and points
 * *ops at the operations. False for blank and comment lines. */
static bool epd_line(char *line, struct position *p, const char **ops)
{
	char fen[4 * 96 + 16];
	int used = 0;
	char f[4][96];
	if (line[0] == '#' || sscanf(line, "%95s %95s %95s %95s %n", f[0], f[1], f[2], f[3], &used) != 4)
		return false;
	snprintf(fen, sizeof(fen), "%s %s %s %s 0 1", f[0], f[1], f[2], f[3]);
	*p = pos_of(fen);
	*ops = line + used;
	return true;
}

static bool epd_int(const char *ops, const char *key, int *out)
{
	char pat[32];
	snprintf(pat, sizeof(pat), "%s ", key);
	for (const char *s = ops; (s = strstr(s, pat)); s++)
		if (s == ops || s[-1] == ' ')
			return sscanf(s + strlen(pat), "%d", out) == 1;
	return false;
}

/* python-chess's endgame.epd: "wdl" and "dtz" as Syzygy answers them.
 * (Its "wdl_table" is the raw table read before captures are resolved,
 * which Fathom does not expose; the resolved "wdl" is what counts.) */
START_TEST(test_syzygy_epd)
{
	struct tablebase *tb = open_shared(false, true);
	if (!tb)
		return;
	FILE *f = testdata_open_shared("tablebases/python-chess-endgame.epd");
	if (!f) {
		tablebase_free(tb);
		return;
	}
	ck_assert_int_eq(tablebase_max_pieces(tb), 4);
	char line[512], why[200];
	int checked = 0, n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct position p;
		const char *ops;
		int want_wdl, want_dtz;
		n++;
		if (!epd_line(line, &p, &ops))
			continue;
		if (bb_count(position_occupied(&p)) > 4)
			continue;
		ck_assert(epd_int(ops, "wdl", &want_wdl) && epd_int(ops, "dtz", &want_dtz));
		struct tablebase_probe r;
		ck_assert_msg(tablebase_probe(tb, &p, &r, why, sizeof(why)) == TCHESS_OK, "line %d: %s", n, why);
		ck_assert_msg((int)r.wdl == want_wdl, "line %d: wdl %d, want %d", n, (int)r.wdl, want_wdl);
		ck_assert_msg(r.has_dtz, "line %d: no dtz", n);
		ck_assert_msg(r.dtz == want_dtz, "line %d: dtz %d, want %d", n, r.dtz, want_dtz);
		checked++;
	}
	fclose(f);
	ck_assert_int_eq(checked, 200);
	tablebase_free(tb);
}
END_TEST

/* python-chess's Gaviota lists: "dm" is moves to mate for the side to move
 * (negative: mated), 0 a draw; in plies 2*dm - 1 for a win, 2*dm for a
 * loss. Positions of more than 4 pieces need tables we do not have. */
static void check_dm_file(struct tablebase *tb, const char *rel, int want_checked)
{
	FILE *f = testdata_open_shared(rel);
	if (!f)
		return;
	char line[512], why[200];
	int checked = 0, skipped = 0, n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct position p;
		const char *ops;
		int dm, dtm;
		n++;
		if (!epd_line(line, &p, &ops))
			continue;
		if (bb_count(position_occupied(&p)) > 4) {
			skipped++;
			continue;
		}
		ck_assert_msg(epd_int(ops, "dm", &dm), "%s line %d", rel, n);
		int want = dm > 0 ? 2 * dm - 1 : 2 * dm;
		ck_assert_msg(tablebase_probe_dtm(tb, &p, &dtm, why, sizeof(why)) == TCHESS_OK, "%s line %d: %s", rel,
			      n, why);
		ck_assert_msg(dtm == want, "%s line %d: dtm %d, want %d", rel, n, dtm, want);
		checked++;
	}
	fclose(f);
	if (skipped)
		fprintf(stderr, "%s: %d positions of 5 pieces skipped (no 5-piece tables)\n", rel, skipped);
	ck_assert_int_eq(checked, want_checked);
}

START_TEST(test_gaviota_epd)
{
	struct tablebase *tb = open_shared(true, false);
	if (!tb)
		return;
	ck_assert_int_eq(tablebase_max_pieces(tb), 4);
	check_dm_file(tb, "tablebases/python-chess-endgame-dm-4.epd", 48);
	check_dm_file(tb, "tablebases/python-chess-endgame-dm-5.epd", 0);
	tablebase_free(tb);
}
END_TEST

/* Both libraries in one process (they share a symbol name, see
 * meson.build), cross-checked on every Syzygy test position. */
START_TEST(test_both_agree)
{
	struct tablebase *tb = open_shared(true, true);
	if (!tb)
		return;
	FILE *f = testdata_open_shared("tablebases/python-chess-endgame.epd");
	if (!f) {
		tablebase_free(tb);
		return;
	}
	char line[512], why[200];
	int n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct position p;
		const char *ops;
		if (!epd_line(line, &p, &ops))
			continue;
		struct tablebase_probe r;
		ck_assert_msg(tablebase_probe(tb, &p, &r, why, sizeof(why)) == TCHESS_OK, "%s", why);
		if (r.sources == 0)
			continue; /* mate or stalemate on the board */
		ck_assert_uint_eq(r.sources, TABLEBASE_GAVIOTA | TABLEBASE_SYZYGY);
		ck_assert(r.has_dtm && r.has_dtz);
		n++;
	}
	fclose(f);
	ck_assert_int_gt(n, 190);
	tablebase_free(tb);
}
END_TEST

/* Probes from several threads at once through both libraries: the one
 * mutex must keep their global state whole. */
struct probe_job {
	struct tablebase *tb;
	const char *fen;
	int want_dtm;
	int bad;
};

static void *probe_thread(void *arg)
{
	struct probe_job *job = arg;
	struct position p;
	if (fen_parse(&p, job->fen, NULL) != TCHESS_OK) {
		job->bad = -1;
		return NULL;
	}
	int rounds = testdata_light() ? 20 : 300;
	for (int i = 0; i < rounds; i++) {
		struct tablebase_probe r;
		if (tablebase_probe(job->tb, &p, &r, NULL, 0) != TCHESS_OK || !r.has_dtm || r.dtm != job->want_dtm)
			job->bad++;
	}
	return NULL;
}

START_TEST(test_threads)
{
	struct tablebase *tb = open_shared(true, true);
	if (!tb)
		return;
	/* From the shared DTM list: KQvK mate in 10, KRvK mate in 16. */
	struct probe_job jobs[3] = {
		{ tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", 19, 0 },
		{ tb, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 31, 0 },
		{ tb, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 31, 0 },
	};
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, probe_thread, &jobs[i]), 0);
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(jobs[i].bad == 0, "thread %d: %d bad answers", i, jobs[i].bad);
	}
	tablebase_free(tb);
}
END_TEST

/* Two handles on different folders, used in turn: each reloads its own. */
START_TEST(test_two_handles)
{
	struct tablebase *deb = open_debian();
	struct tablebase *syz = open_shared(false, true);
	if (deb && syz) {
		for (int i = 0; i < 3; i++) {
			ck_assert_int_eq(wdl_of(deb, "8/8/8/8/8/2k5/8/KQ6 b - - 0 1"), TABLEBASE_LOSS);
			ck_assert_int_eq(wdl_of(syz, "8/8/8/8/8/2k5/8/KQ6 b - - 0 1"), TABLEBASE_LOSS);
			ck_assert_int_eq(wdl_of(syz, "3rk3/8/8/8/8/8/8/3RK3 w - - 0 1"), TABLEBASE_DRAW);
		}
	}
	tablebase_free(deb);
	tablebase_free(syz);
}
END_TEST

static enum tchess_err judge(struct tablebase *tb, const char *fen, bool fifty, bool *drawn, char *why)
{
	struct position p = pos_of(fen);
	return tablebase_judge_claim(tb, &p, fifty, drawn, why, 200);
}

/* A Syzygy folder with only KQvK's WDL table: WDL answers, DTZ and other
 * materials are refused by name, and a claim that needs DTZ is not judged.
 * Switching between it and the full set reloads Fathom each time (Debian's
 * Fathom then prints "munmap: Invalid argument"; see tablebase-syzygy.c). */
START_TEST(test_syzygy_partial_folder)
{
	struct tablebase *full = open_shared(false, true);
	if (!full)
		return;
	char dir[] = "/tmp/tchess-tb-XXXXXX", link[64], target[4096];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/KQvK.rtbw", dir);
	snprintf(target, sizeof(target), "%s/KQvK.rtbw", testdata_shared_path(SHARED_SYZYGY));
	ck_assert_int_eq(symlink(target, link), 0);
	char *err = NULL;
	struct tablebase *tb = tablebase_open(NULL, dir, &err);
	ck_assert_msg(tb != NULL, "%s", err ? err : "?");
	ck_assert_int_eq(tablebase_max_pieces(tb), 3);

	char why[200] = "";
	bool drawn = true;
	int dtz;
	ck_assert_int_eq(wdl_of(tb, "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1"), TABLEBASE_LOSS);
	struct position p = pos_of("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
	ck_assert_int_eq(tablebase_probe_dtz(tb, &p, &dtz, why, sizeof(why)), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no Syzygy DTZ table for KQvK");
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 10 40", true, &drawn, why), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "cannot judge KQvK with a halfmove clock of 10 without its Syzygy DTZ table (.rtbz)");
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1R6/K7 w - - 0 1", true, &drawn, why), TCHESS_ERR_NO_TABLE);
	ck_assert_str_eq(why, "no table for KRvK");

	/* Back to the full set, and once more to the partial one. */
	ck_assert_int_eq(wdl_of(full, "8/8/8/5k2/8/8/1R6/K7 w - - 0 1"), TABLEBASE_WIN);
	ck_assert_int_eq(wdl_of(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"), TABLEBASE_WIN);
	tablebase_free(tb);
	tablebase_free(full);
	unlink(link);
	rmdir(dir);
}
END_TEST

/* Yourpot: "The player can claim for a draw when there are no more than 6
 * pieces on the board (including pawns). ... If the adjourned position is
 * really a draw according to the ending tables of Nalimov, the game is
 * drawn." */
START_TEST(test_judge_gaviota)
{
	struct tablebase *tb = open_debian();
	if (!tb)
		return;
	char why[200];
	bool drawn = false;
	ck_assert_int_eq(judge(tb, "8/8/8/3k4/8/8/8/KB6 w - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(drawn);
	ck_assert_str_eq(why, "drawn: KBvK is a draw (Gaviota)");

	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);
	ck_assert_str_eq(why, "not drawn: the side to move wins, mate in 19 plies (Gaviota)");

	/* The same mate with 90 plies of the fifty-move count gone: Gaviota
	 * cannot tell whether the win survives, so the claim is not judged. */
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 90 60", true, &drawn, why), TCHESS_ERR_NO_TABLE);
	ck_assert_ptr_nonnull(strstr(why, "Syzygy DTZ tables are needed"));
	/* ... but a Nalimov-style judge (no fifty-move rule) calls it a win. */
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 90 60", false, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);

	/* The fifty-move count has run out: drawn whatever the tables say. */
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 100 80", true, &drawn, why), TCHESS_OK);
	ck_assert(drawn);

	/* On the board: stalemate is a draw, checkmate is not. */
	ck_assert_int_eq(judge(tb, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(drawn);
	ck_assert_int_eq(judge(tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);
	tablebase_free(tb);
}
END_TEST

START_TEST(test_judge_syzygy)
{
	struct tablebase *tb = open_shared(false, true);
	if (!tb)
		return;
	char why[200];
	bool drawn = false;
	ck_assert_int_eq(judge(tb, "3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(drawn);
	ck_assert_str_eq(why, "drawn: KRvKR is a draw (Syzygy)");
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", true, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);

	/* KQvK needs more than one ply to a capture or mate: with 99 plies of
	 * the count gone the fifty-move rule saves Black. */
	struct position p = pos_of("8/8/8/5k2/8/8/1Q6/K7 w - - 99 70");
	int dtz = 0;
	ck_assert_int_eq(tablebase_probe_dtz(tb, &p, &dtz, why, sizeof(why)), TCHESS_OK);
	ck_assert_int_gt(dtz, 1);
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 99 70", true, &drawn, why), TCHESS_OK);
	ck_assert(drawn);
	ck_assert_ptr_nonnull(strstr(why, "the fifty-move rule leaves 1"));
	ck_assert_int_eq(judge(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 99 70", false, &drawn, why), TCHESS_OK);
	ck_assert(!drawn);
	/* A capture at once (DTZ 1) beats the count. */
	ck_assert_int_eq(judge(tb, "8/8/8/8/8/2k5/8/KQ4r1 w - - 99 70", true, &drawn, why), TCHESS_OK);
	ck_assert_msg(!drawn, "%s", why);
	tablebase_free(tb);
}
END_TEST

/* Yourpot: "If the adjourned position is really a draw ..., the game is
 * drawn. If the position is not a draw, the following time represented in
 * the table is added to the opponent: Bullet 30 sec., Fast blitz, blitz
 * 1 min., Other 2 min." The game model and the judge together. */
START_TEST(test_yourpot_claim)
{
	struct tablebase *tb = open_debian();
	if (!tb)
		return;
	struct ruleset rules;
	ck_assert(ruleset_preset(&rules, "yourpot"));
	ck_assert_int_eq(rules.tablebase_max_pieces, 6);
	ck_assert_int_eq(rules.tablebase_penalty_ms[SPEED_BULLET], 30000);
	ck_assert_int_eq(rules.tablebase_penalty_ms[SPEED_BLITZ], 60000);
	ck_assert_int_eq(rules.tablebase_penalty_ms[SPEED_STANDARD], 120000);

	struct game g;
	struct tchess_error err;
	struct position start = pos_of("8/8/8/3k4/8/8/8/KN6 w - - 0 1");
	ck_assert_int_eq(game_init(&g, &start, &rules, &err), TCHESS_OK);
	/* KNvK is over at once by insufficient material; claims need a live game. */
	ck_assert(game_is_over(&g));
	ck_assert_int_ne(game_check_tablebase_claim(&g, &err), TCHESS_OK);
	game_fini(&g);

	start = pos_of("8/8/8/8/8/8/P6k/K7 w - - 0 1");
	ck_assert_int_eq(game_init(&g, &start, &rules, &err), TCHESS_OK);
	ck_assert_int_eq(game_check_tablebase_claim(&g, &err), TCHESS_OK);
	bool drawn = true;
	char why[200];
	ck_assert_int_eq(tablebase_judge_claim(tb, &g.pos, true, &drawn, why, sizeof(why)), TCHESS_OK);
	ck_assert_msg(!drawn, "%s", why); /* the pawn outside the king's square: White wins */
	ck_assert(!game_is_over(&g));
	game_fini(&g);

	start = pos_of("8/8/8/8/8/8/2kP4/7K b - - 0 1");
	ck_assert_int_eq(game_init(&g, &start, &rules, &err), TCHESS_OK);
	ck_assert_int_eq(tablebase_judge_claim(tb, &g.pos, true, &drawn, why, sizeof(why)), TCHESS_OK);
	ck_assert_msg(drawn, "%s", why);
	ck_assert_int_eq(game_adjudicate_tablebase(&g, GAME_RESULT_DRAW, &err), TCHESS_OK);
	ck_assert(game_is_over(&g));
	ck_assert_int_eq(g.result, GAME_RESULT_DRAW);
	ck_assert_int_eq(g.termination, GAME_TERM_TABLEBASE);
	game_fini(&g);
	tablebase_free(tb);
}
END_TEST

static Suite *tablebase_suite(void)
{
	Suite *s = suite_create("tablebase");
	TCase *tc = tcase_create("tables");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_material_name);
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_debian_three_pieces);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_missing_table_in_folder);
	tcase_add_test(tc, test_syzygy_epd);
	tcase_add_test(tc, test_gaviota_epd);
	tcase_add_test(tc, test_both_agree);
	tcase_add_test(tc, test_two_handles);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("claims");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_judge_gaviota);
	tcase_add_test(tc, test_judge_syzygy);
	tcase_add_test(tc, test_syzygy_partial_folder);
	tcase_add_test(tc, test_yourpot_claim);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tablebase_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return testdata_status(failed);
}
