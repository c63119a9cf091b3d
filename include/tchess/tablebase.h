/*
 * Endgame tablebases: probing Gaviota (DTM) and Syzygy (WDL + DTZ) tables
 * for positions with few pieces, and judging a tablebase draw claim.
 *
 * This lives outside the pure rules core, in libtchess_tb (src/tablebase/),
 * because it reads files and calls two external libraries: libgaviotatb
 * (Debian libgaviotatb-dev; the 3-piece tables are in the gaviotatb package
 * under /usr/share/gaviotatb/gtbN) and Fathom (Debian libfathom-dev) for
 * Syzygy. Either may be missing at build time; then opening a folder of its
 * tables fails with "no Gaviota support compiled in" (or Syzygy).
 *
 * Both libraries keep their tables in process-wide state. Every call below
 * that touches a library takes one process-wide mutex, so handles may be
 * used from any thread. A handle whose folders are not the ones a library
 * has loaded reloads them first, and tables stay loaded after
 * tablebase_free() until other folders are needed: a process should open
 * one handle and keep it (two handles with different folders work, but
 * every switch rereads the table indexes, and Debian's Fathom leaks the old
 * tables' memory mappings on each Syzygy switch).
 *
 * Values are from the side to move's point of view. Distances are in plies:
 * DTM (Gaviota) to mate, DTZ (Syzygy) to the next capture or pawn move of a
 * line that keeps the result; positive when the side to move wins.
 *
 * Judging a claim (tablebase_judge_claim): the position is "drawn" when the
 * tables say no side can force a win. With fifty_move_rule set, a win that
 * cannot be forced before the fifty-move rule ends the game (a Syzygy
 * "cursed win", or DTZ plus the halfmove clock beyond 100 plies) counts as
 * drawn too, because the defender would reach that draw; without it, only
 * true draws count (the literal "Nalimov" reading: DTM tables know no
 * fifty-move rule). The game's ruleset says which (struct ruleset's
 * tablebase_fifty_moves: the Yourpot preset names Nalimov's tables, so
 * false). Gaviota alone cannot see the
 * fifty-move rule: with fifty_move_rule set, a Gaviota win whose mate is
 * further away than the plies left on the fifty-move count cannot be
 * judged, and the claim is refused with that reason (TCHESS_ERR_NO_TABLE)
 * rather than judged against the claimant.
 */
#ifndef TCHESS_TABLEBASE_H
#define TCHESS_TABLEBASE_H

#include <stdbool.h>
#include <stddef.h>

#include "tchess/error.h"
#include "tchess/position.h"

/* Where Debian's gaviotatb package puts its (3-piece, cp4) tables. */
#define TABLEBASE_DEBIAN_GAVIOTA_DIR "/usr/share/gaviotatb/gtb4"

/* Room for any material name: 32 piece letters, 'v' and the NUL. */
#define TABLEBASE_MATERIAL_MAX 40

struct tablebase;

/* Win/draw/loss for the side to move. The "cursed win" and "blessed loss"
 * are wins and losses that the fifty-move rule turns into draws (Syzygy's
 * terms); Gaviota never reports them. */
enum tablebase_wdl {
	TABLEBASE_LOSS = -2,
	TABLEBASE_BLESSED_LOSS = -1,
	TABLEBASE_DRAW = 0,
	TABLEBASE_CURSED_WIN = 1,
	TABLEBASE_WIN = 2
};

/* Which library answered, as bits. */
enum tablebase_source {
	TABLEBASE_GAVIOTA = 1u << 0,
	TABLEBASE_SYZYGY = 1u << 1
};

/* Everything the opened tables know about one position. */
struct tablebase_probe {
	unsigned sources;          /* enum tablebase_source bits that answered */
	enum tablebase_wdl wdl;    /* with a fresh fifty-move count, as the tables store it */
	bool has_dtz;              /* Syzygy DTZ table present */
	int dtz;                   /* plies to a zeroing move, signed; 0 for a draw */
	bool has_dtm;              /* Gaviota answered */
	int dtm;                   /* plies to mate, signed; 0 for a draw (and for a mate on the board) */
};

/* Opens the tables in gaviota_dirs and syzygy_dirs (each NULL or "" for
 * none; several folders joined with ':'). Every folder must exist and hold
 * at least one table of its kind. Gaviota folders must share one
 * compression scheme (.gtb.cp4 etc.); the scheme most files use is taken.
 * Returns NULL with a malloc'd message in *err (the caller frees it) on
 * failure, e.g. "Syzygy folder /x: No such file or directory". */
struct tablebase *tablebase_open(const char *gaviota_dirs, const char *syzygy_dirs, char **err);
/* Opens the tables a folder list names, as tchessd's --tablebases and tchess
 * review --tablebases take it: "gaviota:DIR[:DIR],syzygy:DIR[:DIR]", bare
 * folders (each one's kind told by its files), "none" or "" (no tables), or
 * NULL (Debian's Gaviota set, TABLEBASE_DEBIAN_GAVIOTA_DIR, when installed,
 * else none). Returns 0 with *tb the handle (NULL for no tables), or -1 with
 * a malloc'd message in *err (a folder with no tables, or tablebase_open()'s
 * reason). */
int tablebase_open_spec(const char *spec, struct tablebase **tb, char **err);

/* Frees the handle; NULL is a no-op. The libraries keep the tables loaded
 * (see above). */
void tablebase_free(struct tablebase *tb);

/* The most pieces (kings included) of any material an opened table covers. */
int tablebase_max_pieces(const struct tablebase *tb);

/* Whether tables for the material of p are open: Gaviota, Syzygy (WDL) or
 * both, as enum tablebase_source bits; 0 if none. */
unsigned tablebase_covers(const struct tablebase *tb, const struct position *p);

/* Writes p's material, White first, in the order KQRBNP, e.g. "KRPvKR",
 * into buf (size bytes, TABLEBASE_MATERIAL_MAX is always enough; the name
 * is cut short if size is less). Returns the length of the full name. */
size_t tablebase_material_name(const struct position *p, char *buf, size_t size);

/* Probes p in every table that covers it. Refused, with TCHESS_ERR_NO_TABLE
 * and a message in why such as "no table for KRPvKR", when no open table
 * covers the material or when p has castling rights (no table holds
 * such positions); TCHESS_ERR_POSITION when a library rejects p or the two
 * libraries disagree. A checkmate or stalemate on the board is answered
 * without the tables. why may be NULL. */
enum tchess_err tablebase_probe(struct tablebase *tb, const struct position *p, struct tablebase_probe *out,
				char *why, size_t why_size);

/* tablebase_probe(), narrowed to one value. DTZ needs Syzygy tables with
 * their .rtbz files, DTM needs Gaviota tables; without them the answer is
 * TCHESS_ERR_NO_TABLE. */
enum tchess_err tablebase_probe_wdl(struct tablebase *tb, const struct position *p, enum tablebase_wdl *out,
				    char *why, size_t why_size);
enum tchess_err tablebase_probe_dtz(struct tablebase *tb, const struct position *p, int *out, char *why,
				    size_t why_size);
enum tchess_err tablebase_probe_dtm(struct tablebase *tb, const struct position *p, int *out, char *why,
				    size_t why_size);

/* Judges a tablebase draw claim in p (see the top of this file for what
 * "drawn" means and what fifty_move_rule changes). On TCHESS_OK, *drawn is
 * the verdict and why explains it ("drawn: KRvKR is a draw (Syzygy)",
 * "not drawn: the side to move wins, mate in 31 plies (Gaviota)"). On
 * TCHESS_ERR_NO_TABLE the claim cannot be judged (no table for the
 * material, castling rights, or the fifty-move case Gaviota cannot see) and
 * why says which; such a refusal should cost the claimant nothing. */
enum tchess_err tablebase_judge_claim(struct tablebase *tb, const struct position *p, bool fifty_move_rule,
				      bool *drawn, char *why, size_t why_size);

/* "loss", "blessed loss", "draw", "cursed win", "win". */
const char *tablebase_wdl_str(enum tablebase_wdl wdl);

/* Whether this build can read Gaviota / Syzygy tables at all. */
bool tablebase_has_gaviota(void);
bool tablebase_has_syzygy(void);

#endif
