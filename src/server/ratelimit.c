/*
 * Token buckets in a fixed table; see ratelimit.h. Tokens are counted in
 * thousandths so refilling needs no floating point: per_s tokens a second
 * is per_s thousandths a millisecond.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratelimit.h"
#include "util/token.h"
#include "util/xalloc.h"

#define PROBE 8
#define MILLI 1000

struct bucket {
	uint64_t key;
	int64_t milli;   /* tokens x 1000 at last_ms */
	int64_t last_ms;
	bool used;
};

struct ratelimit {
	int64_t per_s;     /* tokens a period */
	int64_t period_ms;
	int64_t cap;     /* burst x 1000 */
	/* As made, before ratelimit_share divided them. */
	int64_t whole_period_ms, whole_cap;
	uint64_t seed;
	size_t n;
	struct bucket *slots;
};

struct ratelimit *ratelimit_new(int64_t per_s, int64_t burst, size_t slots)
{
	return ratelimit_new_per(per_s, 1000, burst, slots);
}

struct ratelimit *ratelimit_new_per(int64_t tokens, int64_t period_ms, int64_t burst, size_t slots)
{
	struct ratelimit *rl = xcalloc(1, sizeof *rl);
	rl->per_s = tokens > 0 ? tokens : 0;
	rl->period_ms = period_ms > 0 ? period_ms : 1000;
	rl->cap = (burst > 1 ? burst : 1) * MILLI;
	rl->whole_period_ms = rl->period_ms;
	rl->whole_cap = rl->cap;
	rl->n = slots > PROBE ? slots : PROBE;
	rl->slots = xcalloc(rl->n, sizeof *rl->slots);
	/* Without randomness the seed is fixed, which costs only the
	 * resistance to aimed collisions. */
	if (token_random(&rl->seed, sizeof rl->seed))
		rl->seed = 0x9e3779b97f4a7c15u;
	return rl;
}

void ratelimit_share(struct ratelimit *rl, unsigned shares)
{
	if (!rl)
		return;
	int64_t n = shares > 1 ? shares : 1;
	/* The same tokens a period n times as long: a rate divided by n
	 * without losing what an integer division of per_s would. */
	rl->period_ms = rl->whole_period_ms * n;
	rl->cap = rl->whole_cap / n >= MILLI ? rl->whole_cap / n / MILLI * MILLI : MILLI;
	for (size_t i = 0; i < rl->n; i++) {
		if (rl->slots[i].milli > rl->cap)
			rl->slots[i].milli = rl->cap;
	}
}

void ratelimit_free(struct ratelimit *rl)
{
	if (!rl)
		return;
	free(rl->slots);
	free(rl);
}

/* FNV-1a over the seed and the key, then a final mix so that nearby keys
 * spread over the table. */
static uint64_t hash_key(uint64_t seed, const void *key, size_t len)
{
	uint64_t h = 14695981039346656037u ^ seed;
	const unsigned char *p = key;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211u;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	return h;
}

int64_t ratelimit_take(struct ratelimit *rl, const void *key, size_t key_len, int64_t now_ms)
{
	if (!rl || !rl->per_s)
		return 0;
	uint64_t h = hash_key(rl->seed, key, key_len);
	size_t start = (size_t)(h % rl->n);
	struct bucket *b = NULL, *victim = NULL;
	for (size_t i = 0; i < PROBE; i++) {
		struct bucket *s = &rl->slots[(start + i) % rl->n];
		if (s->used && s->key == h) {
			b = s;
			break;
		}
		if (!victim || !s->used || (victim->used && s->last_ms < victim->last_ms))
			victim = s;
	}
	if (!b) {
		b = victim;
		b->used = true;
		b->key = h;
		b->milli = rl->cap;
		b->last_ms = now_ms;
	}
	if (now_ms > b->last_ms) {
		/* Milli-tokens: per_s per period_ms, so elapsed x per_s x
		 * 1000 / period_ms (a full bucket past a day, whatever the
		 * rate: the product stays in range). */
		int64_t dt = now_ms - b->last_ms;
		int64_t gained = dt > 86400000 ? rl->cap : dt * rl->per_s * MILLI / rl->period_ms;
		/* Guard the cap. */
		b->milli = gained >= rl->cap - b->milli ? rl->cap : b->milli + gained;
		/* What the division dropped is kept for the next take. */
		b->last_ms = gained >= rl->cap ? now_ms : b->last_ms + gained * rl->period_ms / (rl->per_s * MILLI);
	}
	if (b->milli >= MILLI) {
		b->milli -= MILLI;
		return 0;
	}
	int64_t rate = rl->per_s * MILLI; /* milli-tokens a period */
	return ((MILLI - b->milli) * rl->period_ms + rate - 1) / rate;
}

void ratelimit_addr_key(const char *addr, unsigned v6_prefix, char *out, size_t size)
{
	unsigned char a[16];
	static const unsigned char v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (inet_pton(AF_INET6, addr, a) != 1) {
		snprintf(out, size, "%s", addr);
		return;
	}
	if (!memcmp(a, v4_mapped, sizeof v4_mapped)) {
		if (!inet_ntop(AF_INET, a + 12, out, (socklen_t)size))
			snprintf(out, size, "%s", addr);
		return;
	}
	unsigned bits = v6_prefix < 128 ? v6_prefix : 128;
	for (unsigned i = 0; i < 16; i++) {
		unsigned keep = bits >= 8 * (i + 1) ? 8 : bits > 8 * i ? bits - 8 * i : 0;
		a[i] &= (unsigned char)(0xff00u >> keep);
	}
	if (!inet_ntop(AF_INET6, a, out, (socklen_t)size))
		snprintf(out, size, "%s", addr);
}
