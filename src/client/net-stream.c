/*
 * Streamed requests (net-stream.h) on net.c's multi handle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net-internal.h"
#include "net-stream.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define NET_STREAM_CONNECT_TIMEOUT_MS 5000L
/* The game and event streams, a seek and a command to one host at once. */
#define NET_STREAM_HOST_CONNECTIONS 6L

struct net_stream {
	struct net *n;
	CURL *easy;
	struct curl_slist *headers;
	const struct net_stream_ops *ops;
	void *ctx;
	struct buf body;           /* a refusal's body */
	long status;
	char error[CURL_ERROR_SIZE];
	struct net_stream *next;
};

static size_t net_stream_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct net_stream *s = ctx;
	size_t len = size * nmemb;
	if (!s->status)
		curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
	if (s->status >= 200 && s->status < 300)
		s->ops->data(s->ctx, data, len);
	else if (s->body.len < 65536)
		buf_append(&s->body, data, len);
	return len;
}

struct net_stream *net_stream_open(struct net *n, const char *method, const char *path, const char *form,
				   const struct net_stream_ops *ops, void *ctx)
{
	struct net_stream *s = xcalloc(1, sizeof *s);
	char url[1024];
	s->n = n;
	s->ops = ops;
	s->ctx = ctx;
	buf_init(&s->body);
	s->easy = curl_easy_init();
	s->headers = curl_slist_append(NULL, "Accept: application/x-ndjson");
	if (net_auth_header(n))
		s->headers = curl_slist_append(s->headers, net_auth_header(n));
	if (form)
		s->headers = curl_slist_append(s->headers, "Content-Type: application/x-www-form-urlencoded");
	snprintf(url, sizeof url, "%s%s", net_base_url(n), path);
	CURL *e = s->easy;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, s->headers);
	curl_easy_setopt(e, CURLOPT_USERAGENT, NET_USER_AGENT);
	curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, net_stream_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, s);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s->error);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, NET_STREAM_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(e, CURLOPT_PRIVATE, s);
	if (strcmp(method, "GET")) {
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, form ? (long)strlen(form) : 0L);
		curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, form ? form : "");
	}
	CURLM *m = net_multi(n);
	curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, NET_STREAM_HOST_CONNECTIONS);
	curl_multi_add_handle(m, e);
	struct net_stream **head = net_streams(n);
	s->next = *head;
	*head = s;
	return s;
}

static void net_stream_free(struct net_stream *s)
{
	curl_multi_remove_handle(net_multi(s->n), s->easy);
	curl_easy_cleanup(s->easy);
	curl_slist_free_all(s->headers);
	buf_fini(&s->body);
	free(s);
}

static void net_stream_unlink(struct net_stream *s)
{
	for (struct net_stream **p = net_streams(s->n); *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			return;
		}
}

void net_stream_close(struct net *n, struct net_stream *s)
{
	(void)n;
	if (!s)
		return;
	net_stream_unlink(s);
	net_stream_free(s);
}

void net_stream_done(struct net *n, CURL *easy, CURLcode result)
{
	struct net_stream *s = NULL;
	curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
	(void)n;
	if (!s)
		return;
	net_stream_unlink(s);
	long code = 0;
	if (result == CURLE_OK)
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
	buf_append(&s->body, "", 1);
	const char *error = result == CURLE_OK ? "" : s->error[0] ? s->error : curl_easy_strerror(result);
	s->ops->end(s->ctx, (int)code, s->body.data, s->body.len - 1, error);
	net_stream_free(s);
}

void net_stream_free_all(struct net *n)
{
	struct net_stream **head = net_streams(n);
	while (*head) {
		struct net_stream *s = *head;
		*head = s->next;
		net_stream_free(s);
	}
}
