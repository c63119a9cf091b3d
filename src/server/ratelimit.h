/*
 * Token buckets for tchessd's per-address and per-token rate limits (the
 * HTTP layer charges them; see tchessd(8), RATE LIMITS). A bucket holds up
 * to burst tokens and refills at per_s tokens a second; a request takes
 * one or is refused with the time until one is back.
 *
 * The buckets sit in a fixed table, so memory does not grow with the
 * number of clients: a key hashes (with a per-process random seed, so
 * clients cannot aim at one slot) to a short probe window, and when that
 * window is full the least recently used bucket is dropped. A dropped
 * bucket comes back full, which only ever lets a client through, never
 * refuses one that should pass.
 *
 * Time is passed in (monotonic ms), so tests need no sleeping. Not
 * thread-safe: the caller holds the server lock.
 */
#ifndef TCHESS_SERVER_RATELIMIT_H
#define TCHESS_SERVER_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>

struct ratelimit;

/* A table of slots buckets; per_s 0 turns the limit off (every take
 * passes). burst below 1 counts as 1. */
struct ratelimit *ratelimit_new(int64_t per_s, int64_t burst, size_t slots);
/* The same refilling at tokens per period_ms (ratelimit_new's is 1000). */
struct ratelimit *ratelimit_new_per(int64_t tokens, int64_t period_ms, int64_t burst, size_t slots);
/* ratelimit_free(NULL) is a no-op. */
void ratelimit_free(struct ratelimit *rl);
/* Takes one token from key's bucket at now_ms: 0 if the request may pass,
 * else the ms (at least 1) until the bucket holds a token again. */
int64_t ratelimit_take(struct ratelimit *rl, const void *key, size_t key_len, int64_t now_ms);

/* Makes the table one of shares equal parts of its limit (nodes of a
 * cluster, each seeing part of a client's requests): the rate and the
 * burst divided by shares, the burst at least 1. 1 gives the whole
 * limit back. Buckets keep their tokens, cut to the new burst. */
void ratelimit_share(struct ratelimit *rl, unsigned shares);

/* The key under which per-address limits count addr (numeric text, as
 * getnameinfo writes it): an IPv4 address (plain or IPv4-mapped) as
 * itself, an IPv6 address cut to its first v6_prefix bits ("2001:db8::"
 * for every address of 2001:db8::/64 at 64), anything else unchanged.
 * Writes at most size bytes (NUL included) to out. */
void ratelimit_addr_key(const char *addr, unsigned v6_prefix, char *out, size_t size);

#endif
