/*
 * NDJSON lines out of arbitrary chunks, and when to reopen a stream
 * (lichess-stream.h).
 */
#include <string.h>

#include "lichess-stream.h"

void lichess_lines_init(struct lichess_lines *l)
{
	memset(l, 0, sizeof *l);
	buf_init(&l->part);
}

void lichess_lines_fini(struct lichess_lines *l)
{
	buf_fini(&l->part);
}

void lichess_lines_reset(struct lichess_lines *l)
{
	buf_reset(&l->part);
	l->skipping = false;
}

int lichess_lines_feed(struct lichess_lines *l, const char *data, size_t len,
		       void (*on_line)(void *ctx, const char *line, size_t n), void *ctx)
{
	int handed = 0;
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		if (!l->skipping) {
			if (l->part.len + n > LICHESS_LINE_MAX_BYTES) {
				l->skipping = true;
				buf_reset(&l->part);
			} else {
				buf_append(&l->part, data, n);
			}
		}
		if (!nl)
			break;
		data += n + 1;
		len -= n + 1;
		if (l->skipping) {
			l->skipping = false;
			l->dropped++;
			continue;
		}
		size_t m = l->part.len;
		if (m && l->part.data[m - 1] == '\r')
			m--;
		if (m == 0) {
			l->keepalives++;
		} else {
			buf_append(&l->part, "", 1);
			l->part.data[m] = '\0';
			l->lines++;
			handed++;
			on_line(ctx, l->part.data, m);
		}
		buf_reset(&l->part);
	}
	return handed;
}

void lichess_retry_init(struct lichess_retry *r, int64_t mono_ms, uint64_t seed)
{
	memset(r, 0, sizeof *r);
	r->last_byte_ms = mono_ms;
	r->backoff_ms = LICHESS_BACKOFF_MIN_MS;
	r->rate_limit_ms = LICHESS_RATE_LIMIT_MS;
	r->idle_ms = LICHESS_IDLE_MS;
	r->rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

void lichess_retry_opened(struct lichess_retry *r, int64_t mono_ms)
{
	r->last_byte_ms = mono_ms;
	r->reopen_at_ms = 0;
}

void lichess_retry_bytes(struct lichess_retry *r, int64_t mono_ms, bool line)
{
	r->last_byte_ms = mono_ms;
	if (line)
		r->backoff_ms = LICHESS_BACKOFF_MIN_MS;
}

bool lichess_retry_idle(const struct lichess_retry *r, int64_t mono_ms)
{
	return mono_ms - r->last_byte_ms >= r->idle_ms;
}

/* d with up to a quarter of jitter either way (xorshift64). */
static int64_t lichess_jitter(struct lichess_retry *r, int64_t d)
{
	r->rng ^= r->rng << 13;
	r->rng ^= r->rng >> 7;
	r->rng ^= r->rng << 17;
	return d + (int64_t)(r->rng % (uint64_t)(d / 2 + 1)) - d / 4;
}

enum lichess_end lichess_retry_ended(struct lichess_retry *r, int status, bool final, int64_t mono_ms)
{
	r->reopen_at_ms = 0;
	if (final)
		return LICHESS_END_FINAL;
	if (status == 429) {
		r->reopen_at_ms = mono_ms + r->rate_limit_ms;
		r->reopens++;
		return LICHESS_END_RATE_LIMITED;
	}
	if (status >= 400 && status < 500)
		return LICHESS_END_REFUSED;
	int64_t d = r->backoff_ms;
	r->backoff_ms = d * 2 > LICHESS_BACKOFF_MAX_MS ? LICHESS_BACKOFF_MAX_MS : d * 2;
	r->reopen_at_ms = mono_ms + lichess_jitter(r, d);
	r->reopens++;
	return LICHESS_END_REOPEN;
}

int64_t lichess_retry_next_ms(const struct lichess_retry *r, bool open, int64_t mono_ms)
{
	int64_t at = open ? r->last_byte_ms + r->idle_ms : r->reopen_at_ms;
	if (!open && !r->reopen_at_ms)
		return -1;
	return at > mono_ms ? at - mono_ms : 0;
}
