/*
 * Syzygy tables through Fathom (Debian libfathom): loading folders and
 * probing one position for WDL and DTZ.
 *
 * Fathom numbers squares a1 = 0, b1 = 1 ... h8 = 63 like struct position,
 * so our bitboards pass unchanged; "no en-passant square" is 0 to it (a1
 * can never be one). Its probes refuse castling rights, which tablebase.c
 * has refused before calling here.
 *
 * Called with tablebase.c's mutex held: Fathom's tables, TB_LARGEST and
 * its root probe are process-wide state.
 *
 * Debian's Fathom (1.0+git.20190811) must never be given tb_free(): it
 * frees its entry arrays without forgetting them, so the next tb_init()
 * writes into freed memory and a second tb_free() frees them twice. We
 * unload with tb_init(""), which that version handles. Its unmapping of old
 * tables fails ("munmap: Invalid argument" on stderr) and leaks the
 * mappings, which is why tablebase.c reloads only when the folders change.
 */
#include <stdio.h>

#include "tablebase-backend.h"

#if TCHESS_HAVE_FATHOM

#include <tbprobe.h>

static bool syzygy_loaded;

bool tablebase_syzygy_compiled(void)
{
	return true;
}

void tablebase_syzygy_unload(void)
{
	if (!syzygy_loaded)
		return;
	tb_init("");
	syzygy_loaded = false;
}

bool tablebase_syzygy_load(const char *dirs, char *why, size_t why_size)
{
	tablebase_syzygy_unload();
	if (!tb_init(dirs)) {
		snprintf(why, why_size, "Syzygy: the library failed to set up the tables");
		return false;
	}
	if (TB_LARGEST == 0) {
		snprintf(why, why_size, "Syzygy: the library found no usable table in the folders given");
		tb_init("");
		return false;
	}
	syzygy_loaded = true;
	return true;
}

static enum tchess_err syzygy_check(const struct position *p, char *why, size_t why_size)
{
	if (!syzygy_loaded) {
		snprintf(why, why_size, "Syzygy tables are not loaded");
		return TCHESS_ERR_NO_TABLE;
	}
	if ((unsigned)bb_count(position_occupied(p)) > TB_LARGEST) {
		snprintf(why, why_size, "the Syzygy tables given stop at %u pieces", TB_LARGEST);
		return TCHESS_ERR_NO_TABLE;
	}
	return TCHESS_OK;
}

enum tchess_err tablebase_syzygy_probe_wdl(const struct position *p, int *wdl, char *why, size_t why_size)
{
	enum tchess_err e;
	if ((e = syzygy_check(p, why, why_size)))
		return e;
	unsigned r = tb_probe_wdl(p->by_color[WHITE], p->by_color[BLACK], p->by_type[KING], p->by_type[QUEEN],
				  p->by_type[ROOK], p->by_type[BISHOP], p->by_type[KNIGHT], p->by_type[PAWN], 0, 0,
				  p->ep == SQ_NONE ? 0 : p->ep, p->side == WHITE);
	if (r == TB_RESULT_FAILED) {
		snprintf(why, why_size,
			 "the Syzygy probe failed (a table for this material or one reached by a capture "
			 "or promotion is missing or damaged)");
		return TCHESS_ERR_NO_TABLE;
	}
	*wdl = (int)r - 2; /* TB_LOSS is 0 ... TB_WIN is 4 */
	return TCHESS_OK;
}

enum tchess_err tablebase_syzygy_probe_dtz(const struct position *p, int *dtz, char *why, size_t why_size)
{
	enum tchess_err e;
	if ((e = syzygy_check(p, why, why_size)))
		return e;
	/* A fresh fifty-move count: the value is the table's, and the caller
	 * adds the position's halfmove clock where it matters. */
	unsigned r = tb_probe_root(p->by_color[WHITE], p->by_color[BLACK], p->by_type[KING], p->by_type[QUEEN],
				   p->by_type[ROOK], p->by_type[BISHOP], p->by_type[KNIGHT], p->by_type[PAWN], 0, 0,
				   p->ep == SQ_NONE ? 0 : p->ep, p->side == WHITE, NULL);
	if (r == TB_RESULT_FAILED) {
		snprintf(why, why_size,
			 "the Syzygy DTZ probe failed (a .rtbz table is missing or damaged, or one reached "
			 "by a capture or promotion is missing)");
		return TCHESS_ERR_NO_TABLE;
	}
	/* Mates and stalemates on the board are settled by the caller before
	 * probing, so r is a real result here. */
	int mag = (int)TB_GET_DTZ(r);
	switch (TB_GET_WDL(r)) {
	case TB_WIN:
	case TB_CURSED_WIN:
		*dtz = mag;
		break;
	case TB_LOSS:
	case TB_BLESSED_LOSS:
		*dtz = -mag;
		break;
	default:
		*dtz = 0;
		break;
	}
	return TCHESS_OK;
}

#else /* !TCHESS_HAVE_FATHOM */

bool tablebase_syzygy_compiled(void)
{
	return false;
}

void tablebase_syzygy_unload(void)
{
}

bool tablebase_syzygy_load(const char *dirs, char *why, size_t why_size)
{
	snprintf(why, why_size, "no Syzygy support compiled in");
	return false;
}

enum tchess_err tablebase_syzygy_probe_wdl(const struct position *p, int *wdl, char *why, size_t why_size)
{
	snprintf(why, why_size, "no Syzygy support compiled in");
	return TCHESS_ERR_NO_TABLE;
}

enum tchess_err tablebase_syzygy_probe_dtz(const struct position *p, int *dtz, char *why, size_t why_size)
{
	snprintf(why, why_size, "no Syzygy support compiled in");
	return TCHESS_ERR_NO_TABLE;
}

#endif
