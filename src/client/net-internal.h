/*
 * What net.c shares with net-stream.c, the other file on its multi handle.
 */
#ifndef TCHESS_CLIENT_NET_INTERNAL_H
#define TCHESS_CLIENT_NET_INTERNAL_H

#include <curl/curl.h>

#include "net.h"

struct net_stream;

/* Every request's User-Agent: Lichess asks its API's clients to say who
 * they are. */
#define NET_USER_AGENT "tchess/" TCHESS_VERSION

CURLM *net_multi(struct net *n);
const char *net_base_url(const struct net *n);
/* "Authorization: Bearer ..." or NULL. */
const char *net_auth_header(const struct net *n);
/* The head of the net's list of open streams. */
struct net_stream **net_streams(struct net *n);
/* A finished transfer that is not net.c's own: a stream's. */
void net_stream_done(struct net *n, CURL *easy, CURLcode result);
/* Frees every stream still open (net_free). */
void net_stream_free_all(struct net *n);

#endif
