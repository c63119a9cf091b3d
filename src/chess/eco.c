/*
 * The ECO table (tchess/eco.h): the generated lines of eco-data.h played
 * once from the start into a sorted array of (key, entry), searched by
 * bisection.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tchess/eco.h"
#include "tchess/notation.h"

#include "eco-data.h"

#define ECO_N (sizeof eco_sources / sizeof eco_sources[0])

struct eco_key {
	uint64_t key;
	uint16_t index;
};

static struct eco_key eco_keys[ECO_N];
static size_t eco_n_keys;
static pthread_once_t eco_once = PTHREAD_ONCE_INIT;

static int eco_key_cmp(const void *a, const void *b)
{
	const struct eco_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Plays every line; a line whose move does not parse (none today: the
 * test checks) is left out. */
static void eco_build(void)
{
	for (size_t i = 0; i < ECO_N; i++) {
		struct position p;
		position_init_start(&p);
		const char *s = eco_sources[i].moves;
		bool ok = true;
		while (*s && ok) {
			size_t n = strcspn(s, " ");
			move m;
			struct undo u;
			ok = san_parse(&p, s, n, &m, NULL) == TCHESS_OK;
			if (ok)
				position_make(&p, m, &u);
			s += n;
			s += strspn(s, " ");
		}
		if (ok)
			eco_keys[eco_n_keys++] = (struct eco_key){ p.key, (uint16_t)i };
	}
	qsort(eco_keys, eco_n_keys, sizeof eco_keys[0], eco_key_cmp);
}

const struct eco_entry *eco_lookup(const struct position *p)
{
	pthread_once(&eco_once, eco_build);
	size_t lo = 0, hi = eco_n_keys;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (eco_keys[mid].key < p->key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < eco_n_keys && eco_keys[lo].key == p->key)
		return &eco_sources[eco_keys[lo].index];
	return NULL;
}

size_t eco_count(void)
{
	return ECO_N;
}

const struct eco_entry *eco_entry_at(size_t i)
{
	return i < ECO_N ? &eco_sources[i] : NULL;
}
