/*
 * Streamed requests on net.c's multi handle, for the Lichess streams
 * (NDJSON that stays open: a game, the event stream, a seek): the bytes of
 * a 2xx answer are handed over as they arrive, in whatever chunks the
 * network gives, and the end (the server closed, a network error, or a
 * refusal with its body) is reported once. Streams use HTTP/1.1 (over
 * HTTP/2 the headers of a stream may wait for its first chunk) and have no
 * overall timeout: the caller's watchdog (lichess-stream.h) decides when a
 * silent stream is dead and closes it.
 */
#ifndef TCHESS_CLIENT_NET_STREAM_H
#define TCHESS_CLIENT_NET_STREAM_H

#include <stddef.h>

struct net;
struct net_stream;

struct net_stream_ops {
	/* Bytes of a 2xx answer (not NUL-terminated). */
	void (*data)(void *ctx, const char *bytes, size_t n);
	/* The end: status is the HTTP status, 0 for a network error (error
	 * says which); body holds a non-2xx answer's body (NUL-terminated).
	 * The stream is freed after this returns; the callback may open
	 * others. */
	void (*end)(void *ctx, int status, const char *body, size_t len, const char *error);
};

/* Opens method path (under the net's base URL, with its token) with the
 * form body (NULL for none, sent as application/x-www-form-urlencoded).
 * ops and ctx must outlive the stream. */
struct net_stream *net_stream_open(struct net *n, const char *method, const char *path, const char *form,
				   const struct net_stream_ops *ops, void *ctx);
/* Closes s at once, without its end callback (a seek cancelled, a screen
 * gone, the watchdog). NULL is a no-op. */
void net_stream_close(struct net *n, struct net_stream *s);

#endif
