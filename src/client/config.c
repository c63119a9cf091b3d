/*
 * The config file: locating it by the XDG rules and parsing its few keys.
 * Unknown keys are errors, so a typo is reported instead of silently
 * ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define CONFIG_FILE_MAX (64 * 1024)

void config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->ascii = -1;
	c->bell = false;
	c->low_time_ms = -1;
}

static char *config_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static int config_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*out = false;
	else
		return -1;
	return 0;
}

int config_parse(struct config *c, const char *text, size_t len, char *err, size_t errsize)
{
	struct config tmp = *c;
	size_t pos = 0;
	int line = 0;
	char buf[512];

	while (pos < len) {
		size_t n = 0;
		while (pos + n < len && text[pos + n] != '\n')
			n++;
		line++;
		if (n >= sizeof buf) {
			snprintf(err, errsize, "line %d: longer than %zu bytes", line, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + 1;
		if (memchr(buf, '\0', n)) {
			snprintf(err, errsize, "line %d: contains a NUL byte", line);
			return -1;
		}
		char *s = config_trim(buf);
		if (*s == '\0' || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errsize, "line %d: expected 'key = value', got '%.60s'", line, s);
			return -1;
		}
		*eq = '\0';
		char *key = config_trim(s), *value = config_trim(eq + 1);
		/* A '#' starts a comment only after a blank, so a URL's
		 * fragment or a path with '#' in it survives. */
		for (char *h = value; (h = strchr(h, '#')) != NULL; h++)
			if (h > value && (h[-1] == ' ' || h[-1] == '\t')) {
				*h = '\0';
				value = config_trim(value);
				break;
			}
		bool b;
		if (!strcmp(key, "theme") || !strcmp(key, "server")) {
			char *dst = key[0] == 't' ? tmp.theme : tmp.server;
			if (*value == '\0') {
				snprintf(err, errsize, "line %d: %s has no value", line, key);
				return -1;
			}
			if (strlen(value) >= sizeof tmp.theme) {
				snprintf(err, errsize, "line %d: %s is too long", line, key);
				return -1;
			}
			strcpy(dst, value);
		} else if (!strcmp(key, "ascii") || !strcmp(key, "bell")) {
			if (config_bool(value, &b) < 0) {
				snprintf(err, errsize, "line %d: %s is 'yes' or 'no', not '%.60s'", line, key, value);
				return -1;
			}
			if (key[0] == 'a')
				tmp.ascii = b;
			else
				tmp.bell = b;
		} else if (!strcmp(key, "low_time_ms")) {
			char *end;
			errno = 0;
			long long ms = strtoll(value, &end, 10);
			/* A day is more warning than any clock needs. */
			if (end == value || *end || errno || ms < 0 || ms > 86400000LL) {
				snprintf(err, errsize, "line %d: low_time_ms is milliseconds from 0 to 86400000, not '%.60s'",
					 line, value);
				return -1;
			}
			tmp.low_time_ms = ms;
		} else {
			snprintf(err, errsize,
				 "line %d: unknown key '%.60s' (known: theme, ascii, server, bell, low_time_ms)", line, key);
			return -1;
		}
	}
	*c = tmp;
	return 0;
}

int config_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/tchess/config", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.config/tchess/config", home);
	else
		return -1;
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int config_load(struct config *c, char *err, size_t errsize)
{
	char path[1024], why[256];
	if (config_path(path, sizeof path) < 0)
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *buf = malloc(CONFIG_FILE_MAX);
	if (!buf) {
		fclose(f);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	size_t len = fread(buf, 1, CONFIG_FILE_MAX, f);
	fclose(f);
	int rc = -1;
	if (len == CONFIG_FILE_MAX)
		snprintf(err, errsize, "%s: larger than %d bytes", path, CONFIG_FILE_MAX);
	else if (config_parse(c, buf, len, why, sizeof why) < 0)
		snprintf(err, errsize, "%s: %s", path, why);
	else
		rc = 0;
	free(buf);
	return rc;
}

bool config_want_ascii(int cli, const struct config *c, const char *codeset, const char *term)
{
	if (cli >= 0)
		return cli;
	if (c->ascii >= 0)
		return c->ascii;
	if (!codeset || (strcmp(codeset, "UTF-8") && strcmp(codeset, "utf8")))
		return true;
	return term && !strcmp(term, "linux");
}

const char *config_theme_name(const char *cli, const struct config *c, const char *no_color)
{
	if (cli && *cli)
		return cli;
	/* NO_COLOR (no-color.org) outranks the config file: it is the
	 * user's current wish, the file an old one. */
	if (no_color && *no_color)
		return "monochrome";
	if (c->theme[0])
		return c->theme;
	return "default";
}
