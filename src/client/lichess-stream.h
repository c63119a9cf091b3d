/*
 * Reading a Lichess NDJSON stream (the game stream, the event stream, a
 * seek), free of curl so that the tests feed it by hand: the bytes of
 * arbitrary chunks cut into lines (a line may arrive one byte at a time, a
 * chunk may hold many lines), bare "\n" keep-alives counted apart, and the
 * rules for when to open the stream again.
 *
 * Lichess sends a keep-alive every ~7 s (~10 s on a seek); a stream silent
 * for LICHESS_IDLE_MS is taken for dead and reopened. A stream that ended
 * (closed, a network error, the watchdog) is reopened after a backoff of
 * 1 s doubling to 30 s, with jitter, the backoff set back once a line
 * arrives; never after the game's final status; a 429 waits
 * the rate limit's minute (configurable for the tests); a 4xx otherwise
 * is final (the caller says why: 401/403 the token or its scope, 404 no
 * such game, 400 not playable with the Board API).
 */
#ifndef TCHESS_CLIENT_LICHESS_STREAM_H
#define TCHESS_CLIENT_LICHESS_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

#define LICHESS_IDLE_MS 20000
#define LICHESS_BACKOFF_MIN_MS 1000
#define LICHESS_BACKOFF_MAX_MS 30000
#define LICHESS_RATE_LIMIT_MS 60000
/* A line longer than this is a broken stream: it is dropped, not kept. */
#define LICHESS_LINE_MAX_BYTES (1 << 20)

struct lichess_lines {
	struct buf part;             /* the line begun and not yet ended */
	bool skipping;               /* inside a line too long to keep */
	long lines, keepalives, dropped;
};

void lichess_lines_init(struct lichess_lines *l);
void lichess_lines_fini(struct lichess_lines *l);
/* Forgets a partial line (the stream was reopened). */
void lichess_lines_reset(struct lichess_lines *l);
/* Feeds len bytes of the stream; on_line(ctx, line, n) is called for each
 * complete non-empty line (without its "\n" or a "\r" before it; line is
 * NUL-terminated at n). Returns the number of lines handed over. */
int lichess_lines_feed(struct lichess_lines *l, const char *data, size_t len,
		       void (*on_line)(void *ctx, const char *line, size_t n), void *ctx);

enum lichess_end {
	LICHESS_END_REOPEN = 0,      /* open again at reopen_at_ms */
	LICHESS_END_RATE_LIMITED,    /* 429: open again at reopen_at_ms, a minute on */
	LICHESS_END_FINAL,           /* the game is over: do not reopen */
	LICHESS_END_REFUSED          /* a 4xx: do not reopen; the caller says why */
};

/* When to open a stream again. */
struct lichess_retry {
	int64_t last_byte_ms;        /* when the stream last gave a byte (or opened) */
	int64_t backoff_ms;          /* the next reopen's delay */
	int64_t reopen_at_ms;        /* 0: not waiting */
	int64_t rate_limit_ms;       /* a 429's wait (LICHESS_RATE_LIMIT_MS) */
	int64_t idle_ms;             /* the watchdog (LICHESS_IDLE_MS) */
	int reopens;
	uint64_t rng;
};

void lichess_retry_init(struct lichess_retry *r, int64_t mono_ms, uint64_t seed);
/* The stream was opened, or gave bytes (line true: a whole line, which
 * sets the backoff back), at mono_ms. */
void lichess_retry_opened(struct lichess_retry *r, int64_t mono_ms);
void lichess_retry_bytes(struct lichess_retry *r, int64_t mono_ms, bool line);
/* Whether the watchdog fires: no byte for idle_ms. */
bool lichess_retry_idle(const struct lichess_retry *r, int64_t mono_ms);
/* The stream ended at mono_ms with HTTP status (0: a network error or the
 * watchdog; 200: closed by the server); final: the game's final status was
 * seen. Returns what to do; for a reopen, reopen_at_ms is set. */
enum lichess_end lichess_retry_ended(struct lichess_retry *r, int status, bool final, int64_t mono_ms);
/* Milliseconds until the next thing to do (the reopen, or the watchdog),
 * from mono_ms; open says whether the stream is open now. */
int64_t lichess_retry_next_ms(const struct lichess_retry *r, bool open, int64_t mono_ms);

#endif
