/*
 * Tablebase handles: which folders hold which tables, which material they
 * cover, probing a position in every table that covers it, and judging a
 * draw claim from the answers (see tchess/tablebase.h for the rules).
 *
 * Coverage is read from the file names when a handle is opened, so that a
 * missing table is reported by its material ("no table for KRPvKR") and
 * never confused with a damaged file or an impossible position. Gaviota
 * names files with lower-case letters and no separator ("krpkr.gtb.cp4"),
 * Syzygy with upper case and a 'v' ("KRPvKR.rtbw"); either names a
 * material by its stronger side first, so a position is looked up under
 * both orders. Both are kept here in the Syzygy form.
 *
 * The libraries' state is global, so one mutex (tablebase_lock) guards
 * every call into them, and gaviota_key / syzygy_key record which folders
 * each library holds; a probe through a handle with other folders reloads
 * them. Tables stay loaded when a handle is freed, so that reopening the
 * same folders costs nothing (and Fathom, which leaks a reload's old
 * mappings, is reloaded only when it must be).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/movegen.h"
#include "tchess/tablebase.h"

#include "tablebase-backend.h"

struct material_set {
	char **names; /* "KRPvKR", malloc'd */
	size_t n, cap;
};

struct tablebase {
	char **gaviota_dirs; /* malloc'd, n_gaviota of them */
	size_t n_gaviota;
	int gaviota_scheme;  /* 0: .gtb, N: .gtb.cpN */
	char *gaviota_key;   /* scheme and folders, to compare with gaviota_key */
	char *syzygy_dirs;   /* ':'-separated, or NULL */
	struct material_set gaviota, syzygy_wdl, syzygy_dtz;
	int max_pieces;
};

static pthread_mutex_t tablebase_lock = PTHREAD_MUTEX_INITIALIZER;
/* The folders each library holds (malloc'd), NULL for none. */
static char *gaviota_key, *syzygy_key;

static const char piece_letters[] = "KQRBNP";

static void why_set(char *why, size_t why_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void why_set(char *why, size_t why_size, const char *fmt, ...)
{
	if (!why || why_size == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
}

/* A malloc'd message for tablebase_open()'s *err; NULL if out of memory. */
static char *msg_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msg_new(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static char *str_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static void material_set_fini(struct material_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	s->names = NULL;
	s->n = s->cap = 0;
}

static bool material_set_has(const struct material_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return true;
	return false;
}

/* Adds name unless present; false only when out of memory. */
static bool material_set_add(struct material_set *s, const char *name)
{
	if (material_set_has(s, name))
		return true;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		char **names = realloc(s->names, cap * sizeof(*names));
		if (!names)
			return false;
		s->names = names;
		s->cap = cap;
	}
	if (!(s->names[s->n] = str_dup(name)))
		return false;
	s->n++;
	return true;
}

/* Pieces in a material name: its letters but the 'v'. */
static int material_pieces(const char *name)
{
	int n = 0;
	for (; *name; name++)
		n += *name != 'v';
	return n;
}

/* True if side is "K" and then piece letters in KQRBNP order (repeats
 * allowed), given in upper case. */
static bool material_side_valid(const char *side, size_t len)
{
	if (len == 0 || len > 16 || side[0] != 'K')
		return false;
	const char *last = piece_letters + 1;
	for (size_t i = 1; i < len; i++) {
		const char *at = side[i] ? strchr(piece_letters + 1, side[i]) : NULL;
		if (!at || at < last)
			return false;
		last = at;
	}
	return true;
}

/* Turns a Gaviota file stem ("krpkr") into "KRPvKR"; false if it is not a
 * material name. out has TABLEBASE_MATERIAL_MAX bytes. */
static bool material_from_gaviota(const char *stem, size_t len, char *out)
{
	if (len < 2 || len > 32 || stem[0] != 'k')
		return false;
	const char *second = memchr(stem + 1, 'k', len - 1);
	if (!second)
		return false;
	size_t w = (size_t)(second - stem), o = 0;
	for (size_t i = 0; i < len; i++) {
		if (i == w)
			out[o++] = 'v';
		char c = stem[i];
		if (c < 'a' || c > 'z')
			return false;
		out[o++] = (char)(c - 'a' + 'A');
	}
	out[o] = '\0';
	return material_side_valid(out, w) && material_side_valid(out + w + 1, len - w);
}

/* Checks a Syzygy file stem ("KRPvKR") and copies it to out. */
static bool material_from_syzygy(const char *stem, size_t len, char *out)
{
	if (len < 3 || len >= TABLEBASE_MATERIAL_MAX)
		return false;
	const char *v = memchr(stem, 'v', len);
	if (!v)
		return false;
	size_t w = (size_t)(v - stem);
	if (!material_side_valid(stem, w) || !material_side_valid(v + 1, len - w - 1))
		return false;
	memcpy(out, stem, len);
	out[len] = '\0';
	return true;
}

static bool ends_with(const char *s, size_t len, const char *suffix, size_t *stem_len)
{
	size_t n = strlen(suffix);
	if (len <= n || memcmp(s + len - n, suffix, n) != 0)
		return false;
	*stem_len = len - n;
	return true;
}

/* Gaviota's file suffixes by compression scheme. */
static const char *const gaviota_suffix[5] = { ".gtb", ".gtb.cp1", ".gtb.cp2", ".gtb.cp3", ".gtb.cp4" };

/* Reads the Gaviota tables in dir into per-scheme sets; returns how many
 * were found, or -1 with *err set. */
static int scan_gaviota(const char *dir, struct material_set sets[5], char **err)
{
	DIR *d = opendir(dir);
	if (!d) {
		*err = msg_new("Gaviota folder %s: %s", dir, strerror(errno));
		return -1;
	}
	int found = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), stem;
		char name[TABLEBASE_MATERIAL_MAX];
		for (int s = 0; s < 5; s++) {
			if (!ends_with(de->d_name, len, gaviota_suffix[s], &stem) ||
			    !material_from_gaviota(de->d_name, stem, name))
				continue;
			if (!material_set_add(&sets[s], name)) {
				closedir(d);
				*err = msg_new("out of memory");
				return -1;
			}
			found++;
		}
	}
	closedir(d);
	return found;
}

/* Reads the Syzygy tables in dir: WDL (.rtbw) and DTZ (.rtbz) files. */
static int scan_syzygy(const char *dir, struct tablebase *tb, char **err)
{
	DIR *d = opendir(dir);
	if (!d) {
		*err = msg_new("Syzygy folder %s: %s", dir, strerror(errno));
		return -1;
	}
	int found = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), stem;
		char name[TABLEBASE_MATERIAL_MAX];
		struct material_set *set = NULL;
		if (ends_with(de->d_name, len, ".rtbw", &stem))
			set = &tb->syzygy_wdl;
		else if (ends_with(de->d_name, len, ".rtbz", &stem))
			set = &tb->syzygy_dtz;
		if (!set || !material_from_syzygy(de->d_name, stem, name))
			continue;
		if (!material_set_add(set, name)) {
			closedir(d);
			*err = msg_new("out of memory");
			return -1;
		}
		found += set == &tb->syzygy_wdl;
	}
	closedir(d);
	return found;
}

/* Splits a ':'-separated folder list; empty parts are skipped. Returns the
 * number of folders (malloc'd array of malloc'd strings in *out) or -1. */
static int split_dirs(const char *list, char ***out)
{
	size_t n = 0, cap = 0;
	char **dirs = NULL;
	const char *s = list;
	while (*s) {
		const char *e = strchr(s, ':');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len) {
			if (n == cap) {
				cap = cap ? 2 * cap : 4;
				char **grown = realloc(dirs, cap * sizeof(*grown));
				if (!grown)
					goto fail;
				dirs = grown;
			}
			if (!(dirs[n] = malloc(len + 1)))
				goto fail;
			memcpy(dirs[n], s, len);
			dirs[n++][len] = '\0';
		}
		s += len + (e != NULL);
	}
	*out = dirs;
	return (int)n;
fail:
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return -1;
}

static void update_max(struct tablebase *tb, const struct material_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		int n = material_pieces(s->names[i]);
		if (n > tb->max_pieces)
			tb->max_pieces = n;
	}
}

/* Opens the Gaviota side of tb; NULL on success, else the message. */
static char *open_gaviota(struct tablebase *tb, const char *list)
{
	char *err = NULL;
	struct material_set sets[5] = { { 0 } };
	int n = split_dirs(list, &tb->gaviota_dirs);
	if (n < 0)
		return msg_new("out of memory");
	tb->n_gaviota = (size_t)n;
	if (!tablebase_gaviota_compiled()) {
		err = msg_new("Gaviota folder %s: no Gaviota support compiled in", list);
		goto out;
	}
	for (size_t i = 0; i < tb->n_gaviota; i++) {
		int found = scan_gaviota(tb->gaviota_dirs[i], sets, &err);
		if (found < 0)
			goto out;
		if (found == 0) {
			err = msg_new("Gaviota folder %s holds no Gaviota tables (*.gtb.cp4 and the like)",
				      tb->gaviota_dirs[i]);
			goto out;
		}
	}
	/* The library reads one compression scheme per set-up; take the one
	 * with the most tables, cp4 (its default) on a tie. */
	int best = 4;
	for (int s = 3; s >= 0; s--)
		if (sets[s].n > sets[best].n)
			best = s;
	tb->gaviota_scheme = best;
	if (!(tb->gaviota_key = msg_new("cp%d:%s", best, list))) {
		err = msg_new("out of memory");
		goto out;
	}
	tb->gaviota = sets[best];
	sets[best] = (struct material_set){ 0 };
	update_max(tb, &tb->gaviota);
out:
	for (int s = 0; s < 5; s++)
		material_set_fini(&sets[s]);
	return err;
}

static char *open_syzygy(struct tablebase *tb, const char *list)
{
	char **dirs;
	char *err = NULL;
	int n = split_dirs(list, &dirs);
	if (n < 0)
		return msg_new("out of memory");
	if (!tablebase_syzygy_compiled()) {
		err = msg_new("Syzygy folder %s: no Syzygy support compiled in", list);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		int found = scan_syzygy(dirs[i], tb, &err);
		if (found < 0)
			goto out;
		if (found == 0) {
			err = msg_new("Syzygy folder %s holds no Syzygy WDL tables (*.rtbw)", dirs[i]);
			goto out;
		}
	}
	if (!(tb->syzygy_dirs = str_dup(list)))
		err = msg_new("out of memory");
	update_max(tb, &tb->syzygy_wdl);
out:
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return err;
}

/* Makes the Gaviota library hold tb's tables. Lock held. */
static bool ensure_gaviota(const struct tablebase *tb, char *why, size_t why_size)
{
	if (gaviota_key && strcmp(gaviota_key, tb->gaviota_key) == 0)
		return true;
	free(gaviota_key);
	gaviota_key = NULL;
	if (!tablebase_gaviota_load((const char *const *)tb->gaviota_dirs, tb->n_gaviota, tb->gaviota_scheme, why,
				    why_size))
		return false;
	if (!(gaviota_key = str_dup(tb->gaviota_key))) {
		tablebase_gaviota_unload();
		why_set(why, why_size, "out of memory");
		return false;
	}
	return true;
}

static bool ensure_syzygy(const struct tablebase *tb, char *why, size_t why_size)
{
	if (syzygy_key && strcmp(syzygy_key, tb->syzygy_dirs) == 0)
		return true;
	free(syzygy_key);
	syzygy_key = NULL;
	if (!tablebase_syzygy_load(tb->syzygy_dirs, why, why_size))
		return false;
	if (!(syzygy_key = str_dup(tb->syzygy_dirs))) {
		tablebase_syzygy_unload();
		why_set(why, why_size, "out of memory");
		return false;
	}
	return true;
}

struct tablebase *tablebase_open(const char *gaviota_dirs, const char *syzygy_dirs, char **err)
{
	char why[256];
	char *msg = NULL;
	bool want_gaviota = gaviota_dirs && *gaviota_dirs, want_syzygy = syzygy_dirs && *syzygy_dirs;

	*err = NULL;
	if (!want_gaviota && !want_syzygy) {
		*err = msg_new("no tablebase folder given");
		return NULL;
	}
	struct tablebase *tb = calloc(1, sizeof(*tb));
	if (!tb) {
		*err = msg_new("out of memory");
		return NULL;
	}
	if (want_gaviota && (msg = open_gaviota(tb, gaviota_dirs)))
		goto fail;
	if (want_syzygy && (msg = open_syzygy(tb, syzygy_dirs)))
		goto fail;

	/* Load now so that a folder the libraries cannot use is reported at
	 * open, not at the first claim. */
	pthread_mutex_lock(&tablebase_lock);
	bool ok = (!want_gaviota || ensure_gaviota(tb, why, sizeof(why))) &&
		  (!want_syzygy || ensure_syzygy(tb, why, sizeof(why)));
	pthread_mutex_unlock(&tablebase_lock);
	if (!ok) {
		msg = msg_new("%s", why);
		goto fail;
	}
	return tb;
fail:
	*err = msg ? msg : msg_new("out of memory");
	tablebase_free(tb);
	return NULL;
}

void tablebase_free(struct tablebase *tb)
{
	if (!tb)
		return;
	for (size_t i = 0; i < tb->n_gaviota; i++)
		free(tb->gaviota_dirs[i]);
	free(tb->gaviota_dirs);
	free(tb->gaviota_key);
	free(tb->syzygy_dirs);
	material_set_fini(&tb->gaviota);
	material_set_fini(&tb->syzygy_wdl);
	material_set_fini(&tb->syzygy_dtz);
	free(tb);
}

int tablebase_max_pieces(const struct tablebase *tb)
{
	return tb->max_pieces;
}

/* Writes colour c's letters at out; returns how many. */
static size_t material_side(const struct position *p, enum color c, char *out)
{
	static const enum piece_type order[] = { KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN };
	size_t n = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		for (int k = position_count(p, c, order[i]); k > 0; k--)
			out[n++] = piece_letters[i];
	return n;
}

/* The name with colour first's pieces first, into a TABLEBASE_MATERIAL_MAX buffer. */
static void material_name_from(const struct position *p, enum color first, char *out)
{
	size_t n = material_side(p, first, out);
	out[n++] = 'v';
	n += material_side(p, (enum color)!first, out + n);
	out[n] = '\0';
}

size_t tablebase_material_name(const struct position *p, char *buf, size_t size)
{
	char name[TABLEBASE_MATERIAL_MAX];
	material_name_from(p, WHITE, name);
	size_t len = strlen(name);
	if (size) {
		size_t n = len < size ? len : size - 1;
		memcpy(buf, name, n);
		buf[n] = '\0';
	}
	return len;
}

static bool set_covers(const struct material_set *s, const struct position *p)
{
	char a[TABLEBASE_MATERIAL_MAX], b[TABLEBASE_MATERIAL_MAX];
	material_name_from(p, WHITE, a);
	material_name_from(p, BLACK, b);
	return material_set_has(s, a) || material_set_has(s, b);
}

unsigned tablebase_covers(const struct tablebase *tb, const struct position *p)
{
	unsigned cov = 0;
	if (position_count(p, WHITE, KING) != 1 || position_count(p, BLACK, KING) != 1 ||
	    bb_count(position_occupied(p)) > tb->max_pieces)
		return 0;
	if (set_covers(&tb->gaviota, p))
		cov |= TABLEBASE_GAVIOTA;
	if (set_covers(&tb->syzygy_wdl, p))
		cov |= TABLEBASE_SYZYGY;
	return cov;
}

static enum tablebase_wdl wdl_of_dtm(int dtm)
{
	return dtm > 0 ? TABLEBASE_WIN : dtm < 0 ? TABLEBASE_LOSS : TABLEBASE_DRAW;
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* The answer for a position that is already over. True if it is. */
static bool probe_terminal(const struct position *p, struct tablebase_probe *out)
{
	if (movegen_is_checkmate(p)) {
		out->wdl = TABLEBASE_LOSS;
	} else if (movegen_is_stalemate(p)) {
		out->wdl = TABLEBASE_DRAW;
	} else {
		return false;
	}
	out->has_dtm = out->has_dtz = true;
	out->dtm = out->dtz = 0;
	return true;
}

enum tchess_err tablebase_probe(struct tablebase *tb, const struct position *p, struct tablebase_probe *out,
				char *why, size_t why_size)
{
	char mat[TABLEBASE_MATERIAL_MAX], gwhy[160] = "", swhy[160] = "";
	enum tchess_err ge = TCHESS_ERR_NO_TABLE, se = TCHESS_ERR_NO_TABLE;
	int dtm = 0, wdl = 0, dtz = 0;

	memset(out, 0, sizeof(*out));
	tablebase_material_name(p, mat, sizeof(mat));
	if (p->castling) {
		why_set(why, why_size, "no table holds positions with castling rights (%s)", mat);
		return TCHESS_ERR_NO_TABLE;
	}
	if (probe_terminal(p, out))
		return TCHESS_OK;
	unsigned cov = tablebase_covers(tb, p);
	if (!cov) {
		int n = bb_count(position_occupied(p));
		if (n > tb->max_pieces)
			why_set(why, why_size, "no table for %s: the tables given stop at %d pieces", mat,
				tb->max_pieces);
		else
			why_set(why, why_size, "no table for %s", mat);
		return TCHESS_ERR_NO_TABLE;
	}

	pthread_mutex_lock(&tablebase_lock);
	if (cov & TABLEBASE_SYZYGY) {
		if (!ensure_syzygy(tb, swhy, sizeof(swhy)))
			se = TCHESS_ERR_NO_TABLE;
		else if (!(se = tablebase_syzygy_probe_wdl(p, &wdl, swhy, sizeof(swhy))) &&
			 set_covers(&tb->syzygy_dtz, p) && !tablebase_syzygy_probe_dtz(p, &dtz, swhy, sizeof(swhy)))
			out->has_dtz = true;
	}
	if (cov & TABLEBASE_GAVIOTA) {
		if (!ensure_gaviota(tb, gwhy, sizeof(gwhy)))
			ge = TCHESS_ERR_NO_TABLE;
		else
			ge = tablebase_gaviota_probe(p, &dtm, gwhy, sizeof(gwhy));
	}
	pthread_mutex_unlock(&tablebase_lock);

	if (se && ge) {
		if (cov & TABLEBASE_SYZYGY)
			why_set(why, why_size, "%s: %s", mat, swhy);
		else
			why_set(why, why_size, "%s: %s", mat, gwhy);
		return (cov & TABLEBASE_SYZYGY) ? se : ge;
	}
	if (!se) {
		out->sources |= TABLEBASE_SYZYGY;
		out->wdl = (enum tablebase_wdl)wdl;
		out->dtz = out->has_dtz ? dtz : 0;
	}
	if (!ge) {
		out->sources |= TABLEBASE_GAVIOTA;
		out->has_dtm = true;
		out->dtm = dtm;
		if (se)
			out->wdl = wdl_of_dtm(dtm);
	}
	/* Both answered: a damaged file shows as a disagreement, and a claim
	 * must not be judged on it. */
	if (!se && !ge && sign(wdl) != sign(dtm)) {
		why_set(why, why_size, "the Gaviota and Syzygy tables disagree on this %s position (%s vs %s)", mat,
			wdl_of_dtm(dtm) == TABLEBASE_WIN ? "win" : dtm ? "loss" : "draw",
			tablebase_wdl_str(out->wdl));
		return TCHESS_ERR_POSITION;
	}
	if (!se && out->has_dtz && sign(dtz) != sign(wdl)) {
		why_set(why, why_size, "the Syzygy WDL and DTZ tables disagree on this %s position", mat);
		return TCHESS_ERR_POSITION;
	}
	return TCHESS_OK;
}

enum tchess_err tablebase_probe_wdl(struct tablebase *tb, const struct position *p, enum tablebase_wdl *out,
				    char *why, size_t why_size)
{
	struct tablebase_probe r;
	enum tchess_err e = tablebase_probe(tb, p, &r, why, why_size);
	if (!e)
		*out = r.wdl;
	return e;
}

enum tchess_err tablebase_probe_dtz(struct tablebase *tb, const struct position *p, int *out, char *why,
				    size_t why_size)
{
	struct tablebase_probe r;
	enum tchess_err e = tablebase_probe(tb, p, &r, why, why_size);
	if (e)
		return e;
	if (!r.has_dtz) {
		char mat[TABLEBASE_MATERIAL_MAX];
		tablebase_material_name(p, mat, sizeof(mat));
		why_set(why, why_size, "no Syzygy DTZ table for %s", mat);
		return TCHESS_ERR_NO_TABLE;
	}
	*out = r.dtz;
	return TCHESS_OK;
}

enum tchess_err tablebase_probe_dtm(struct tablebase *tb, const struct position *p, int *out, char *why,
				    size_t why_size)
{
	struct tablebase_probe r;
	enum tchess_err e = tablebase_probe(tb, p, &r, why, why_size);
	if (e)
		return e;
	if (!r.has_dtm) {
		char mat[TABLEBASE_MATERIAL_MAX];
		tablebase_material_name(p, mat, sizeof(mat));
		why_set(why, why_size, "no Gaviota table for %s", mat);
		return TCHESS_ERR_NO_TABLE;
	}
	*out = r.dtm;
	return TCHESS_OK;
}

static const char *source_name(unsigned sources)
{
	if (sources == (TABLEBASE_GAVIOTA | TABLEBASE_SYZYGY))
		return "Gaviota and Syzygy";
	return sources == TABLEBASE_GAVIOTA ? "Gaviota" : sources == TABLEBASE_SYZYGY ? "Syzygy" : "the board";
}

static const char *winner_words(int v)
{
	return v > 0 ? "the side to move wins" : "the side to move loses";
}

enum tchess_err tablebase_judge_claim(struct tablebase *tb, const struct position *p, bool fifty_move_rule,
				      bool *drawn, char *why, size_t why_size)
{
	struct tablebase_probe r;
	char mat[TABLEBASE_MATERIAL_MAX];
	enum tchess_err e;

	tablebase_material_name(p, mat, sizeof(mat));
	/* Plies left before the fifty-move rule can end the game. */
	int left = 100 - (int)p->halfmove;
	if (fifty_move_rule && left <= 0 && !movegen_is_checkmate(p)) {
		*drawn = true;
		why_set(why, why_size, "drawn: the fifty-move count has run out");
		return TCHESS_OK;
	}
	if ((e = tablebase_probe(tb, p, &r, why, why_size)))
		return e;
	const char *src = source_name(r.sources);

	if (r.sources == 0) { /* mate or stalemate on the board */
		*drawn = r.wdl == TABLEBASE_DRAW;
		why_set(why, why_size, *drawn ? "drawn: stalemate" : "not drawn: checkmate");
		return TCHESS_OK;
	}
	if (r.wdl == TABLEBASE_DRAW) {
		*drawn = true;
		why_set(why, why_size, "drawn: %s is a draw (%s)", mat, src);
		return TCHESS_OK;
	}
	if (!fifty_move_rule) {
		/* The DTM reading: any win is a win, cursed or not. */
		*drawn = false;
		if (r.has_dtm)
			why_set(why, why_size, "not drawn: %s, mate in %d plies (%s)", winner_words(r.wdl),
				abs(r.dtm), src);
		else
			why_set(why, why_size, "not drawn: %s (%s, %s)", winner_words(r.wdl),
				tablebase_wdl_str(r.wdl), src);
		return TCHESS_OK;
	}
	if (r.wdl == TABLEBASE_CURSED_WIN || r.wdl == TABLEBASE_BLESSED_LOSS) {
		*drawn = true;
		why_set(why, why_size, "drawn: %s is a %s, drawn by the fifty-move rule (%s)", mat,
			tablebase_wdl_str(r.wdl), src);
		return TCHESS_OK;
	}
	/* A win or loss with a fresh count; the count already run decides. */
	if (r.has_dtz) {
		*drawn = abs(r.dtz) > left;
		if (*drawn)
			why_set(why, why_size,
				"drawn: the win needs %d plies to a capture or pawn move, the fifty-move rule "
				"leaves %d (%s)",
				abs(r.dtz), left, src);
		else
			why_set(why, why_size, "not drawn: %s within the fifty-move rule (%s)", winner_words(r.wdl),
				src);
		return TCHESS_OK;
	}
	if (r.has_dtm && abs(r.dtm) <= left) {
		/* Mate comes before the count runs out, whatever else happens. */
		*drawn = false;
		why_set(why, why_size, "not drawn: %s, mate in %d plies (%s)", winner_words(r.wdl), abs(r.dtm), src);
		return TCHESS_OK;
	}
	if (p->halfmove == 0 && (r.sources & TABLEBASE_SYZYGY)) {
		/* Syzygy's WDL is exact for a fresh count. */
		*drawn = false;
		why_set(why, why_size, "not drawn: %s (%s)", winner_words(r.wdl), src);
		return TCHESS_OK;
	}
	if (r.has_dtm)
		why_set(why, why_size,
			"cannot judge %s: mate is %d plies away and the fifty-move rule leaves %d; Gaviota tables "
			"do not see the fifty-move rule, Syzygy DTZ tables are needed",
			mat, abs(r.dtm), left);
	else
		why_set(why, why_size,
			"cannot judge %s with a halfmove clock of %u without its Syzygy DTZ table (.rtbz)", mat,
			(unsigned)p->halfmove);
	return TCHESS_ERR_NO_TABLE;
}

const char *tablebase_wdl_str(enum tablebase_wdl wdl)
{
	switch (wdl) {
	case TABLEBASE_LOSS:
		return "loss";
	case TABLEBASE_BLESSED_LOSS:
		return "blessed loss";
	case TABLEBASE_DRAW:
		return "draw";
	case TABLEBASE_CURSED_WIN:
		return "cursed win";
	case TABLEBASE_WIN:
		return "win";
	}
	return "?";
}

bool tablebase_has_gaviota(void)
{
	return tablebase_gaviota_compiled();
}

bool tablebase_has_syzygy(void)
{
	return tablebase_syzygy_compiled();
}

/* ---- a folder list as tchessd's --tablebases and tchess review take it ---- */

/* 0 for a folder of Gaviota tables, 1 for Syzygy, -1 for neither (or
 * no folder): told by its first table file. */
static int folder_kind(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int kind = -1;
	struct dirent *de;
	while (kind < 0 && (de = readdir(d))) {
		if (strstr(de->d_name, ".gtb."))
			kind = 0;
		else if (strstr(de->d_name, ".rtbw"))
			kind = 1;
	}
	closedir(d);
	return kind;
}

/* Appends dirs (len bytes) to the ':'-joined *list; false when out of
 * memory. */
static bool append_dirs(char **list, const char *dirs, size_t len)
{
	char *old = *list;
	*list = old ? msg_new("%s:%.*s", old, (int)len, dirs) : msg_new("%.*s", (int)len, dirs);
	free(old);
	return *list != NULL;
}

int tablebase_open_spec(const char *spec, struct tablebase **out, char **err)
{
	char *lists[2] = { NULL, NULL };
	int rc = -1;
	*out = NULL;
	*err = NULL;
	if (!spec) {
		DIR *d = opendir(TABLEBASE_DEBIAN_GAVIOTA_DIR);
		if (!d)
			return 0;
		closedir(d);
		spec = TABLEBASE_DEBIAN_GAVIOTA_DIR;
	}
	if (!strcmp(spec, "none") || !spec[0])
		return 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, ",");
		bool ok;
		if (!strncmp(p, "gaviota:", 8) && len > 8) {
			ok = append_dirs(&lists[0], p + 8, len - 8);
		} else if (!strncmp(p, "syzygy:", 7) && len > 7) {
			ok = append_dirs(&lists[1], p + 7, len - 7);
		} else {
			char *dir = msg_new("%.*s", (int)len, p);
			int kind = dir ? folder_kind(dir) : -1;
			if (kind < 0) {
				*err = msg_new("%s holds no Gaviota (.gtb.*) or Syzygy (.rtbw) tables", dir ? dir : "?");
				free(dir);
				goto out;
			}
			ok = append_dirs(&lists[kind], dir, strlen(dir));
			free(dir);
		}
		if (!ok) {
			*err = msg_new("out of memory");
			goto out;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	*out = tablebase_open(lists[0], lists[1], err);
	rc = *out ? 0 : -1;
out:
	free(lists[0]);
	free(lists[1]);
	return rc;
}
