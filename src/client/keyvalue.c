/*
 * The line reader of the config and theme files (see keyvalue.h). Both
 * files report the same errors in the same words, so a user who knows
 * one knows the other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyvalue.h"

void keyvalue_init(struct keyvalue_reader *r, const char *text, size_t len, char *buf, size_t bufsize,
		   bool hash_after_blank)
{
	r->text = text;
	r->len = len;
	r->pos = 0;
	r->line = 0;
	r->buf = buf;
	r->bufsize = bufsize;
	r->hash_after_blank = hash_after_blank;
}

/* Trims blanks (and a CR from CRLF files) at both ends of s in place;
 * returns the start. */
static char *keyvalue_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Cuts the comment off value; returns the trimmed rest. */
static char *keyvalue_uncomment(char *value, bool after_blank)
{
	if (!after_blank) {
		char *hash = strchr(value, '#');
		if (hash) {
			*hash = '\0';
			value = keyvalue_trim(value);
		}
		return value;
	}
	for (char *h = value; (h = strchr(h, '#')) != NULL; h++)
		if (h > value && (h[-1] == ' ' || h[-1] == '\t')) {
			*h = '\0';
			return keyvalue_trim(value);
		}
	return value;
}

int keyvalue_next(struct keyvalue_reader *r, char **key, char **value, char *err, size_t errsize)
{
	while (r->pos < r->len) {
		const char *text = r->text;
		size_t n = 0;
		while (r->pos + n < r->len && text[r->pos + n] != '\n')
			n++;
		r->line++;
		if (n >= r->bufsize) {
			snprintf(err, errsize, "line %d: longer than %zu bytes", r->line, r->bufsize - 1);
			return -1;
		}
		memcpy(r->buf, text + r->pos, n);
		r->buf[n] = '\0';
		r->pos += n + 1;
		if (memchr(r->buf, '\0', n)) {
			snprintf(err, errsize, "line %d: contains a NUL byte", r->line);
			return -1;
		}
		char *s = keyvalue_trim(r->buf);
		if (*s == '\0' || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errsize, "line %d: expected 'key = value', got '%.60s'", r->line, s);
			return -1;
		}
		*eq = '\0';
		*key = keyvalue_trim(s);
		*value = keyvalue_uncomment(keyvalue_trim(eq + 1), r->hash_after_blank);
		return 1;
	}
	return 0;
}

int keyvalue_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*out = false;
	else
		return -1;
	return 0;
}

char *keyvalue_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		int saved = errno;
		snprintf(err, errsize, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	char *buf = malloc(max);
	if (!buf) {
		fclose(f);
		snprintf(err, errsize, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	*len = fread(buf, 1, max, f);
	fclose(f);
	/* A file that fills the buffer may go on: refuse it rather than
	 * act on part of it. */
	if (*len == max) {
		snprintf(err, errsize, "%s: larger than %zu bytes", path, max);
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	return buf;
}
