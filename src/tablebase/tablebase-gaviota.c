/*
 * Gaviota tables through libgaviotatb: loading folders and probing one
 * position for its distance to mate.
 *
 * libgaviotatb and Fathom both export a function named tb_init, and each
 * calls its own internally, so the two cannot share a process as they are.
 * The build therefore links a copy of the static libgaviotatb.a whose
 * tb_init is renamed tchess_gtb_init (objcopy --redefine-sym, see
 * meson.build); the define below makes gtb-probe.h declare that name.
 *
 * Called with tablebase.c's mutex held: the library is one global state.
 */
#include <stdio.h>

#include "tablebase-backend.h"

#if TCHESS_HAVE_GAVIOTA

#define tb_init tchess_gtb_init
#include <gtb-probe.h>
#undef tb_init

/* Enough cache for a claim now and then; the library's default is larger. */
#define GAVIOTA_CACHE_BYTES (4u << 20)
#define GAVIOTA_WDL_FRACTION 50

static const char **gaviota_paths;

bool tablebase_gaviota_compiled(void)
{
	return true;
}

void tablebase_gaviota_unload(void)
{
	if (!gaviota_paths)
		return;
	tbcache_done();
	tb_done();
	gaviota_paths = tbpaths_done(gaviota_paths);
	gaviota_paths = NULL;
}

bool tablebase_gaviota_load(const char *const *dirs, size_t n, int scheme, char *why, size_t why_size)
{
	tablebase_gaviota_unload();
	const char **paths = tbpaths_init();
	for (size_t i = 0; paths && i < n; i++)
		paths = tbpaths_add(paths, dirs[i]);
	if (!paths) {
		snprintf(why, why_size, "Gaviota: out of memory");
		return false;
	}
	/* The returned text is the library's own report; nothing to free. */
	(void)tchess_gtb_init(0, scheme, paths);
	if (!tb_is_initialized() || tb_availability() == 0) {
		snprintf(why, why_size, "Gaviota: the library found no usable table in the folders given");
		tb_done();
		tbpaths_done(paths);
		return false;
	}
	tbcache_init(GAVIOTA_CACHE_BYTES, GAVIOTA_WDL_FRACTION);
	gaviota_paths = paths;
	return true;
}

/* Fills the library's square and piece lists for colour c (lists end with
 * tb_NOSQUARE / tb_NOPIECE; 16 pieces + the end mark fit). */
static void gaviota_lists(const struct position *p, enum color c, unsigned sq[17], unsigned char pc[17])
{
	static const unsigned char piece_of[PIECE_TYPE_NB] = {
		[PAWN] = tb_PAWN, [KNIGHT] = tb_KNIGHT, [BISHOP] = tb_BISHOP,
		[ROOK] = tb_ROOK, [QUEEN] = tb_QUEEN,   [KING] = tb_KING,
	};
	int n = 0;
	bitboard b = p->by_color[c];
	while (b && n < 16) {
		int s = bb_pop(&b);
		sq[n] = (unsigned)s; /* both number a1 = 0, b1 = 1 ... h8 = 63 */
		pc[n] = piece_of[piece_type(position_piece_on(p, s))];
		n++;
	}
	sq[n] = tb_NOSQUARE;
	pc[n] = tb_NOPIECE;
}

enum tchess_err tablebase_gaviota_probe(const struct position *p, int *dtm, char *why, size_t why_size)
{
	unsigned wsq[17], bsq[17], info = tb_UNKNOWN, plies = 0;
	unsigned char wpc[17], bpc[17];

	if (!gaviota_paths) {
		snprintf(why, why_size, "Gaviota tables are not loaded");
		return TCHESS_ERR_NO_TABLE;
	}
	gaviota_lists(p, WHITE, wsq, wpc);
	gaviota_lists(p, BLACK, bsq, bpc);
	unsigned stm = p->side == WHITE ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE;
	unsigned ep = p->ep == SQ_NONE ? tb_NOSQUARE : p->ep;
	int ok = tb_probe_hard(stm, ep, tb_NOCASTLE, wsq, bsq, wpc, bpc, &info, &plies);
	if (!ok || info == tb_UNKNOWN) {
		snprintf(why, why_size, "Gaviota could not read the table (missing or damaged file)");
		return TCHESS_ERR_NO_TABLE;
	}
	if (info == tb_FORBID) {
		snprintf(why, why_size, "Gaviota rejects the position as impossible");
		return TCHESS_ERR_POSITION;
	}
	if (info == tb_DRAW) {
		*dtm = 0;
		return TCHESS_OK;
	}
	bool white_mates = info == tb_WMATE;
	bool mover_mates = white_mates == (p->side == WHITE);
	*dtm = mover_mates ? (int)plies : -(int)plies;
	return TCHESS_OK;
}

#else /* !TCHESS_HAVE_GAVIOTA */

bool tablebase_gaviota_compiled(void)
{
	return false;
}

void tablebase_gaviota_unload(void)
{
}

bool tablebase_gaviota_load(const char *const *dirs, size_t n, int scheme, char *why, size_t why_size)
{
	snprintf(why, why_size, "no Gaviota support compiled in");
	return false;
}

enum tchess_err tablebase_gaviota_probe(const struct position *p, int *dtm, char *why, size_t why_size)
{
	snprintf(why, why_size, "no Gaviota support compiled in");
	return TCHESS_ERR_NO_TABLE;
}

#endif
