/*
 * OAuth 2 with PKCE for tchess lichess login (lichess-oauth.h): the
 * verifier and its challenge, the URLs and form, and the loopback listener
 * that takes the browser's callback.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lichess-oauth.h"
#include "util/now.h"
#include "util/sha256.h"
#include "util/token.h"

static const char lo_unreserved[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

/* len characters drawn from the unreserved ones (66 of them: 64 used, so
 * each byte picks one without bias). */
static int lo_random_text(char *out, size_t len)
{
	uint8_t bytes[128];
	if (len > sizeof bytes || token_random(bytes, len) < 0)
		return -1;
	for (size_t i = 0; i < len; i++)
		out[i] = lo_unreserved[bytes[i] & 63];
	out[len] = '\0';
	memset(bytes, 0, sizeof bytes);
	return 0;
}

void lichess_pkce_challenge(const char *verifier, char out[LICHESS_OAUTH_CHALLENGE_LEN + 1])
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t d[SHA256_DIGEST_SIZE];
	sha256(verifier, strlen(verifier), d);
	size_t o = 0;
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16;
		size_t left = SHA256_DIGEST_SIZE - i;
		if (left > 1)
			v |= (uint32_t)d[i + 1] << 8;
		if (left > 2)
			v |= d[i + 2];
		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		if (left > 1)
			out[o++] = b64[(v >> 6) & 63];
		if (left > 2)
			out[o++] = b64[v & 63];
	}
	out[o] = '\0';
}

int lichess_pkce_new(struct lichess_pkce *p)
{
	if (lo_random_text(p->verifier, LICHESS_OAUTH_VERIFIER_LEN) < 0 ||
	    lo_random_text(p->state, LICHESS_OAUTH_STATE_LEN) < 0)
		return -1;
	lichess_pkce_challenge(p->verifier, p->challenge);
	return 0;
}

bool lichess_url_encode(const char *text, char *out, size_t size)
{
	size_t o = 0;
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (strchr(lo_unreserved, *c)) {
			if (o + 1 >= size)
				return false;
			out[o++] = (char)*c;
		} else {
			if (o + 3 >= size)
				return false;
			snprintf(out + o, 4, "%%%02X", *c);
			o += 3;
		}
	}
	if (o >= size)
		return false;
	out[o] = '\0';
	return true;
}

bool lichess_oauth_url(const char *base, const char *redirect_uri, const struct lichess_pkce *p, char *out,
		       size_t size)
{
	char redirect[512];
	if (!lichess_url_encode(redirect_uri, redirect, sizeof redirect))
		return false;
	int n = snprintf(out, size,
			 "%s/oauth?response_type=code&client_id=" LICHESS_OAUTH_CLIENT_ID
			 "&redirect_uri=%s&code_challenge_method=S256&code_challenge=%s&scope=board%%3Aplay&state=%s",
			 base, redirect, p->challenge, p->state);
	return n > 0 && (size_t)n < size;
}

bool lichess_oauth_token_form(const char *code, const char *redirect_uri, const struct lichess_pkce *p,
			      char *out, size_t size)
{
	char c[3 * LICHESS_OAUTH_CODE_MAX + 1], redirect[512];
	if (!lichess_url_encode(code, c, sizeof c) || !lichess_url_encode(redirect_uri, redirect, sizeof redirect))
		return false;
	int n = snprintf(out, size,
			 "grant_type=authorization_code&code=%s&code_verifier=%s&redirect_uri=%s&client_id="
			 LICHESS_OAUTH_CLIENT_ID,
			 c, p->verifier, redirect);
	return n > 0 && (size_t)n < size;
}

static int lo_hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The value of name in the query q (up to its end, ' ' or '#'),
 * percent-decoded into out. Returns false when absent, bad, or too long. */
static bool lo_query_get(const char *q, const char *name, char *out, size_t size)
{
	size_t nl = strlen(name);
	const char *p = q;
	while (*p && *p != ' ' && *p != '#') {
		const char *end = p + strcspn(p, "& #");
		if ((size_t)(end - p) > nl && !strncmp(p, name, nl) && p[nl] == '=') {
			size_t o = 0;
			for (const char *v = p + nl + 1; v < end; v++) {
				int ch = (unsigned char)*v;
				if (ch == '%') {
					int hi = end - v >= 3 ? lo_hex(v[1]) : -1;
					int lo = hi >= 0 ? lo_hex(v[2]) : -1;
					if (hi < 0 || lo < 0)
						return false;
					ch = hi * 16 + lo;
					v += 2;
				} else if (ch == '+') {
					ch = ' ';
				}
				if (ch < 0x20 || o + 1 >= size)
					return false;
				out[o++] = (char)ch;
			}
			out[o] = '\0';
			return true;
		}
		p = *end == '&' ? end + 1 : end;
	}
	return false;
}

enum lichess_callback lichess_oauth_callback(const char *line, const char *state, char *code, size_t code_size,
					     char *err, size_t errsize)
{
	char got[LICHESS_OAUTH_STATE_LEN + 2], error[128], desc[200];
	code[0] = '\0';
	err[0] = '\0';
	if (strncmp(line, "GET ", 4)) {
		snprintf(err, errsize, "the browser's answer is not a GET request");
		return LICHESS_CALLBACK_BAD;
	}
	const char *path = line + 4;
	size_t plen = strcspn(path, "? ");
	if (plen != 9 || strncmp(path, "/callback", 9))
		return LICHESS_CALLBACK_OTHER;
	const char *q = path[plen] == '?' ? path + plen + 1 : "";
	/* The state first: an answer that is not to this login is no answer,
	 * whatever else it says. */
	if (!lo_query_get(q, "state", got, sizeof got) || strlen(got) != strlen(state) ||
	    !token_equal(got, state, strlen(state))) {
		snprintf(err, errsize, "the answer's state is not this login's: not logging in");
		return LICHESS_CALLBACK_BAD;
	}
	if (lo_query_get(q, "error", error, sizeof error)) {
		if (!lo_query_get(q, "error_description", desc, sizeof desc))
			desc[0] = '\0';
		snprintf(err, errsize, "Lichess says %s%s%s", error, desc[0] ? ": " : "", desc);
		return LICHESS_CALLBACK_REFUSED;
	}
	if (!lo_query_get(q, "code", code, code_size) || !code[0]) {
		code[0] = '\0';
		snprintf(err, errsize, "the answer has no code");
		return LICHESS_CALLBACK_BAD;
	}
	return LICHESS_CALLBACK_CODE;
}

int lichess_oauth_listen(int *port, char *err, size_t errsize)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a;
	socklen_t alen = sizeof a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 4) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &alen) < 0) {
		snprintf(err, errsize, "cannot listen on 127.0.0.1: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

static void lo_answer(int c, int status, const char *text)
{
	char body[512], buf[1024];
	int bl = snprintf(body, sizeof body, "<!doctype html><title>tchess</title><p>%s</p>\n", text);
	int n = snprintf(buf, sizeof buf,
			 "HTTP/1.1 %d %s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n"
			 "Connection: close\r\n\r\n%s",
			 status, status == 200 ? "OK" : status == 404 ? "Not Found" : "Bad Request", bl, body);
	if (n > 0 && (size_t)n < sizeof buf) {
		ssize_t w = write(c, buf, (size_t)n);
		(void)w;
	}
}

/* Reads a request's head from c (2 s at most) into buf; its first line
 * ends at the first CR or LF. */
static bool lo_read_head(int c, char *buf, size_t size)
{
	size_t n = 0;
	int64_t deadline = now_mono_ms() + 2000;
	while (n + 1 < size) {
		struct pollfd p = { c, POLLIN, 0 };
		int64_t left = deadline - now_mono_ms();
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		ssize_t r = read(c, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		buf[n] = '\0';
		if (strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n"))
			break;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return n > 0;
}

enum lichess_callback lichess_oauth_wait(int fd, const char *state, int timeout_ms, char *code, size_t code_size,
					 char *err, size_t errsize)
{
	int64_t deadline = now_mono_ms() + timeout_ms;
	for (;;) {
		int64_t left = deadline - now_mono_ms();
		struct pollfd p = { fd, POLLIN, 0 };
		int r = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR) {
			snprintf(err, errsize, "interrupted");
			return LICHESS_CALLBACK_BAD;
		}
		if (r <= 0) {
			snprintf(err, errsize, "no answer from the browser in %d s", timeout_ms / 1000);
			return LICHESS_CALLBACK_BAD;
		}
		int c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		char head[4096];
		if (!lo_read_head(c, head, sizeof head)) {
			close(c);
			continue;
		}
		enum lichess_callback k = lichess_oauth_callback(head, state, code, code_size, err, errsize);
		if (k == LICHESS_CALLBACK_OTHER) {
			lo_answer(c, 404, "Not here.");
			close(c);
			continue;
		}
		lo_answer(c, k == LICHESS_CALLBACK_CODE ? 200 : 400,
			  k == LICHESS_CALLBACK_CODE ? "tchess has the answer: you can close this tab and go back to the terminal."
						     : "tchess did not log in: see the terminal.");
		close(c);
		return k;
	}
}
