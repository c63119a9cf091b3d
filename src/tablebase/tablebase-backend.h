/*
 * The two table libraries behind tablebase.c, each wrapped in one file so
 * that only tablebase-gaviota.c includes gtb-probe.h and only
 * tablebase-syzygy.c includes tbprobe.h (the two headers clash: both
 * libraries name their set-up function tb_init).
 *
 * Both libraries keep process-wide state. Every function here must be
 * called with tablebase.c's mutex held; none of them locks anything.
 */
#ifndef TCHESS_TABLEBASE_BACKEND_H
#define TCHESS_TABLEBASE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "tchess/error.h"
#include "tchess/position.h"

/* Whether the library was found when this was built. */
bool tablebase_gaviota_compiled(void);
bool tablebase_syzygy_compiled(void);

/* Loads the Gaviota tables of the folders (n of them) written with the
 * given compression scheme (0: uncompressed .gtb, 1..4: .gtb.cpN),
 * replacing whatever was loaded. Returns false with a message in why. */
bool tablebase_gaviota_load(const char *const *dirs, size_t n, int scheme, char *why, size_t why_size);
/* Unloads the Gaviota tables and frees their caches. */
void tablebase_gaviota_unload(void);
/* Distance to mate in plies from the side to move's view, 0 for a draw.
 * TCHESS_ERR_POSITION with a message when the library cannot answer. */
enum tchess_err tablebase_gaviota_probe(const struct position *p, int *dtm, char *why, size_t why_size);

/* Loads the Syzygy tables of a ':'-separated folder list. */
bool tablebase_syzygy_load(const char *dirs, char *why, size_t why_size);
void tablebase_syzygy_unload(void);
/* WDL as -2..2 from the side to move's view, with a fresh fifty-move count. */
enum tchess_err tablebase_syzygy_probe_wdl(const struct position *p, int *wdl, char *why, size_t why_size);
/* Signed DTZ in plies (0 for a draw); needs the material's .rtbz file. */
enum tchess_err tablebase_syzygy_probe_dtz(const struct position *p, int *dtz, char *why, size_t why_size);

#endif
