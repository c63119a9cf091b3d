/*
 * The user text rule; see text.h. tchessd refuses a request body that
 * breaks it (http_dispatch), and the client passes every server-provided
 * string through text_sanitize before drawing it.
 */
#include <string.h>

#include "util/text.h"

int32_t text_utf8_next(const char *s, size_t n, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	size_t need;
	int32_t cp, min;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 2, cp = p[0] & 0x1f, min = 0x80;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 3, cp = p[0] & 0x0f, min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 4, cp = p[0] & 0x07, min = 0x10000;
	} else {
		return -1;
	}
	if (n < need)
		return -1;
	for (size_t i = 1; i < need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = need;
	return cp;
}

bool text_char_ok(int32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return false;
	if (cp == 0x2028 || cp == 0x2029)
		return false;
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return false;
	return cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
}

static const char *why_not(int32_t cp)
{
	if (cp < 0)
		return "invalid UTF-8";
	if (cp == 0)
		return "a NUL character";
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return "a control character";
	if (cp == 0x2028 || cp == 0x2029)
		return "a line or paragraph separator";
	return "a bidirectional control character";
}

const char *text_check(const char *s, size_t len, size_t *offset)
{
	for (size_t i = 0, n; i < len; i += n) {
		int32_t cp = text_utf8_next(s + i, len - i, &n);
		if (cp < 0 || !text_char_ok(cp)) {
			if (offset)
				*offset = i;
			return why_not(cp);
		}
	}
	return NULL;
}

static int hex4(const char *s, size_t n)
{
	if (n < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

const char *text_check_json(const char *json, size_t len, size_t *offset)
{
	bool in_string = false;
	for (size_t i = 0, n; i < len; i += n) {
		n = 1;
		char c = json[i];
		if (!in_string) {
			in_string = c == '"';
			continue;
		}
		int32_t cp;
		if (c == '"') {
			in_string = false;
			continue;
		} else if (c == '\\') {
			if (i + 1 >= len)
				return NULL;
			char e = json[i + 1];
			n = 2;
			if (e == 'u') {
				int v = hex4(json + i + 2, len - i - 2);
				if (v < 0)
					return NULL; /* the parser's to refuse */
				n = 6;
				cp = v;
				if (v >= 0xd800 && v <= 0xdbff && i + 12 <= len && json[i + 6] == '\\' && json[i + 7] == 'u') {
					int lo = hex4(json + i + 8, len - i - 8);
					if (lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
						n = 12;
					}
				}
				if (cp >= 0xd800 && cp <= 0xdfff)
					cp = -1; /* unpaired */
			} else {
				cp = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
			}
		} else {
			cp = text_utf8_next(json + i, len - i, &n);
		}
		if (cp < 0 || !text_char_ok(cp)) {
			if (offset)
				*offset = i;
			return why_not(cp);
		}
	}
	return NULL;
}

void text_sanitize(char *s)
{
	size_t len = strlen(s), out = 0;
	for (size_t i = 0, n; i < len; i += n) {
		int32_t cp = text_utf8_next(s + i, len - i, &n);
		if (cp < 0 || !text_char_ok(cp)) {
			s[out++] = '?';
			continue;
		}
		memmove(s + out, s + i, n);
		out += n;
	}
	s[out] = '\0';
}
