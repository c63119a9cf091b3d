/*
 * Logging in to Lichess with OAuth 2's authorization code and PKCE
 * (RFC 7636, S256), the flow Lichess offers to an application that keeps
 * no secret: tchess listens on a loopback port, the browser is sent to
 * LICHESS/oauth with the challenge (the verifier's SHA-256, base64url) and
 * a random state, Lichess sends the browser back to
 * http://127.0.0.1:PORT/callback?code=...&state=..., and tchess trades the
 * code and the verifier for a token (POST /api/token). No curses, no curl
 * here: the verifier, the URL, the callback's request and the answer to
 * the browser; cmd-lichess.c makes the requests.
 */
#ifndef TCHESS_CLIENT_LICHESS_OAUTH_H
#define TCHESS_CLIENT_LICHESS_OAUTH_H

#include <stdbool.h>
#include <stddef.h>

#define LICHESS_OAUTH_CLIENT_ID "tchess"
#define LICHESS_OAUTH_VERIFIER_LEN 64  /* RFC 7636: 43 to 128 */
#define LICHESS_OAUTH_STATE_LEN 32
#define LICHESS_OAUTH_CHALLENGE_LEN 43 /* 32 bytes in base64url, no padding */
#define LICHESS_OAUTH_CODE_MAX 256

struct lichess_pkce {
	char verifier[LICHESS_OAUTH_VERIFIER_LEN + 1];
	char challenge[LICHESS_OAUTH_CHALLENGE_LEN + 1];
	char state[LICHESS_OAUTH_STATE_LEN + 1];
};

/* A new verifier (unreserved characters from the kernel's CSPRNG), its S256
 * challenge and a state. Returns 0, or -1 when no random bytes came. */
int lichess_pkce_new(struct lichess_pkce *p);
/* The S256 challenge of verifier: base64url(SHA-256(verifier)), no '='. */
void lichess_pkce_challenge(const char *verifier, char out[LICHESS_OAUTH_CHALLENGE_LEN + 1]);

/* Percent-encodes text (all but the unreserved characters) into out.
 * Returns false when it does not fit. */
bool lichess_url_encode(const char *text, char *out, size_t size);

/* The authorization URL for base (lichess_url) and redirect_uri. Returns
 * false when it does not fit. */
bool lichess_oauth_url(const char *base, const char *redirect_uri, const struct lichess_pkce *p, char *out,
		       size_t size);

/* The form of POST /api/token trading code for a token. */
bool lichess_oauth_token_form(const char *code, const char *redirect_uri, const struct lichess_pkce *p,
			      char *out, size_t size);

enum lichess_callback {
	LICHESS_CALLBACK_CODE = 0,   /* the code, its state checked */
	LICHESS_CALLBACK_OTHER,      /* another path (a favicon): answered 404, waited on */
	LICHESS_CALLBACK_REFUSED,    /* ?error=...: the user said no (err says what) */
	LICHESS_CALLBACK_BAD         /* a wrong or missing state, no code, a bad request */
};

/* The request line of a request to the loopback listener ("GET
 * /callback?code=..&state=.. HTTP/1.1"), checked against state: the code
 * (percent-decoded) into code, or what is wrong in err. */
enum lichess_callback lichess_oauth_callback(const char *request_line, const char *state, char *code,
					     size_t code_size, char *err, size_t errsize);

/* Listens on 127.0.0.1, a port the kernel picks. Returns the socket and
 * sets *port, or -1 with err. */
int lichess_oauth_listen(int *port, char *err, size_t errsize);
/* Waits (timeout_ms at most) for the browser's callback on the listener
 * fd, answers it with a page saying how it went, and returns the
 * callback's kind with the code or err. Requests to other paths are
 * answered 404 and waited past. A timeout is LICHESS_CALLBACK_BAD with
 * "no answer from the browser in N s". */
enum lichess_callback lichess_oauth_wait(int fd, const char *state, int timeout_ms, char *code, size_t code_size,
					 char *err, size_t errsize);

#endif
