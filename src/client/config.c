/*
 * The config file: locating it by the XDG rules, parsing its few keys,
 * and setting one key in it (the settings screen). Unknown keys are
 * errors, so a typo is reported instead of silently ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "config.h"
#include "keyvalue.h"
#include "review-engine.h"
#include "tchess/clock.h"
#include "tchess/position.h"
#include "tchess/premove.h"
#include "tchess/ruleset.h"
#include "theme.h"
#include "util/buf.h"

#define CONFIG_FILE_MAX (64 * 1024)

void config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->ascii = -1;
	c->bell = false;
	c->pieces = -1;
	c->low_time_ms = -1;
	c->seek_color = -2;
}

int config_parse(struct config *c, const char *text, size_t len, char *err, size_t errsize)
{
	struct config tmp = *c;
	struct keyvalue_reader r;
	char buf[512], *key, *value;
	int rc;

	/* A '#' starts a comment only after a blank, so a URL's fragment
	 * or a path with '#' in it survives. */
	keyvalue_init(&r, text, len, buf, sizeof buf, true);
	while ((rc = keyvalue_next(&r, &key, &value, err, errsize)) > 0) {
		int line = r.line;
		bool b;
		if (!strcmp(key, "theme") || !strcmp(key, "server") || !strcmp(key, "engine")) {
			char *dst = key[0] == 't' ? tmp.theme : key[0] == 's' ? tmp.server : tmp.engine;
			if (*value == '\0') {
				snprintf(err, errsize, "line %d: %s has no value", line, key);
				return -1;
			}
			if (strlen(value) >= sizeof tmp.theme) {
				snprintf(err, errsize, "line %d: %s is too long", line, key);
				return -1;
			}
			strcpy(dst, value);
		} else if (!strcmp(key, "ascii") || !strcmp(key, "bell") || !strcmp(key, "mouse")) {
			if (keyvalue_bool(value, &b) < 0) {
				snprintf(err, errsize, "line %d: %s is 'yes' or 'no', not '%.60s'", line, key, value);
				return -1;
			}
			if (key[0] == 'a')
				tmp.ascii = b;
			else if (key[0] == 'b')
				tmp.bell = b;
			else
				tmp.mouse_off = !b;
		} else if (!strcmp(key, "seek_tc")) {
			struct time_control tc;
			struct tchess_error terr;
			if (strlen(value) >= sizeof tmp.seek_tc || time_control_parse(&tc, value, &terr) != TCHESS_OK) {
				snprintf(err, errsize, "line %d: seek_tc is a time control such as 5+3, not '%.60s'", line,
					 value);
				return -1;
			}
			strcpy(tmp.seek_tc, value);
		} else if (!strcmp(key, "seek_ruleset")) {
			struct ruleset rules;
			if (strlen(value) >= sizeof tmp.seek_ruleset || !ruleset_preset(&rules, value)) {
				snprintf(err, errsize, "line %d: seek_ruleset is fide, yourpot or chessgamble, not '%.60s'",
					 line, value);
				return -1;
			}
			strcpy(tmp.seek_ruleset, value);
		} else if (!strcmp(key, "seek_color")) {
			if (!strcmp(value, "random"))
				tmp.seek_color = -1;
			else if (!strcmp(value, "white") || !strcmp(value, "black"))
				tmp.seek_color = value[0] == 'w' ? WHITE : BLACK;
			else {
				snprintf(err, errsize, "line %d: seek_color is white, black or random, not '%.60s'", line,
					 value);
				return -1;
			}
		} else if (!strcmp(key, "seek_premoves")) {
			char *end;
			errno = 0;
			long n = strtol(value, &end, 10);
			if (end == value || *end || errno || n < 1 || n > PREMOVE_DEPTH_MAX) {
				snprintf(err, errsize, "line %d: seek_premoves is from 1 to %d, not '%.60s'", line,
					 PREMOVE_DEPTH_MAX, value);
				return -1;
			}
			tmp.seek_premoves = (int)n;
		} else if (!strcmp(key, "pieces")) {
			if (!strcmp(value, "solid") || !strcmp(value, "outline")) {
				tmp.pieces = value[0] == 's';
			} else {
				snprintf(err, errsize, "line %d: pieces is 'solid' or 'outline', not '%.60s'", line, value);
				return -1;
			}
		} else if (!strcmp(key, "move_alert")) {
			if (!strcmp(value, "off") || !strcmp(value, "no"))
				tmp.move_alert = CONFIG_ALERT_OFF;
			else if (!strcmp(value, "bell"))
				tmp.move_alert = CONFIG_ALERT_BELL;
			else if (!strcmp(value, "flash"))
				tmp.move_alert = CONFIG_ALERT_FLASH;
			else {
				snprintf(err, errsize, "line %d: move_alert is 'off', 'bell' or 'flash', not '%.60s'",
					 line, value);
				return -1;
			}
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
		} else if (!strcmp(key, "engine_depth")) {
			char *end;
			errno = 0;
			long d = strtol(value, &end, 10);
			if (end == value || *end || errno || d < 1 || d > REVIEW_ENGINE_DEPTH_MAX) {
				snprintf(err, errsize, "line %d: engine_depth is a depth from 1 to %d, not '%.60s'", line,
					 REVIEW_ENGINE_DEPTH_MAX, value);
				return -1;
			}
			tmp.engine_depth = (int)d;
		} else if (!strcmp(key, "engine_start_timeout")) {
			char *end;
			errno = 0;
			long t = strtol(value, &end, 10);
			if (end == value || *end || errno || t < 1 || t > 600) {
				snprintf(err, errsize,
					 "line %d: engine_start_timeout is seconds from 1 to 600, not '%.60s'", line, value);
				return -1;
			}
			tmp.engine_start_s = (int)t;
		} else if (!strcmp(key, "lichess_url")) {
			size_t n = strlen(value);
			if (strncmp(value, "http://", 7) && strncmp(value, "https://", 8)) {
				snprintf(err, errsize, "line %d: lichess_url is an http:// or https:// URL, not '%.60s'",
					 line, value);
				return -1;
			}
			while (n && value[n - 1] == '/')
				value[--n] = '\0';
			if (n >= sizeof tmp.lichess_url || strchr(value, ' ')) {
				snprintf(err, errsize, "line %d: lichess_url is %s", line,
					 n >= sizeof tmp.lichess_url ? "too long" : "one URL, without blanks");
				return -1;
			}
			memcpy(tmp.lichess_url, value, n + 1);
		} else {
			snprintf(err, errsize,
				 "line %d: unknown key '%.60s' (known: theme, ascii, pieces, server, bell, move_alert, low_time_ms, "
				 "lichess_url, engine, engine_depth, engine_start_timeout, mouse, seek_tc, seek_ruleset, seek_color, "
				 "seek_premoves)",
				 line, key);
			return -1;
		}
	}
	if (rc < 0)
		return -1;
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
	size_t len;
	char *buf = keyvalue_read_file(path, CONFIG_FILE_MAX, &len, err, errsize);
	if (!buf)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	int rc = -1;
	if (config_parse(c, buf, len, why, sizeof why) < 0)
		snprintf(err, errsize, "%s: %s", path, why);
	else
		rc = 0;
	free(buf);
	return rc;
}

void config_apply_theme(const struct config *c, struct theme *t)
{
	if (c->pieces >= 0)
		t->solid_pieces = c->pieces == 1;
}

/* Makes the folders above path, as mkdir -p would. */
static int config_mkdirs(const char *path, char *err, size_t errsize)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return account_mkdirs(dir, err, errsize);
}

/* Whether line (len bytes, no newline) sets key: "key = ..." after
 * blanks, not a comment. */
static bool config_line_sets(const char *line, size_t len, const char *key)
{
	size_t i = 0, k = strlen(key);
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (len - i < k || strncmp(line + i, key, k))
		return false;
	i += k;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i < len && line[i] == '=';
}

int config_set(const char *path, const char *key, const char *value, char *err, size_t errsize)
{
	size_t len = 0;
	char why[256];
	char *old = keyvalue_read_file(path, CONFIG_FILE_MAX, &len, why, sizeof why);
	if (!old && errno != ENOENT) {
		snprintf(err, errsize, "%s", why);
		return -1;
	}
	struct buf out;
	buf_init(&out);
	bool done = false;
	/* Each line of the old text, the key's first line replaced and any
	 * later one dropped (the last would win). */
	for (size_t pos = 0; old && pos < len;) {
		const char *nl = memchr(old + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - old) : len;
		if (config_line_sets(old + pos, end - pos, key)) {
			if (!done) {
				buf_printf(&out, "%s = %s\n", key, value);
				done = true;
			}
		} else {
			buf_append(&out, old + pos, end - pos);
			buf_append(&out, "\n", 1);
		}
		pos = nl ? end + 1 : len;
	}
	if (!done)
		buf_printf(&out, "%s = %s\n", key, value);
	free(old);
	struct config check;
	config_init(&check);
	int rc = -1;
	char tmp[1100];
	if (config_parse(&check, out.data, out.len, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s = %s: %s", key, value, why);
		goto out;
	}
	if (config_mkdirs(path, err, errsize) < 0)
		goto out;
	snprintf(tmp, sizeof tmp, "%s.new", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errsize, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	bool wrote = fwrite(out.data, 1, out.len, f) == out.len;
	if (fclose(f) != 0 || !wrote || rename(tmp, path) < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	buf_fini(&out);
	return rc;
}

bool config_want_ascii(int cli, const struct config *c, const char *codeset, const char *term, int glyph_cols)
{
	if (cli >= 0)
		return cli;
	if (c->ascii >= 0)
		return c->ascii;
	if (!codeset || (strcmp(codeset, "UTF-8") && strcmp(codeset, "utf8")))
		return true;
	if (term && !strcmp(term, "linux"))
		return true;
	/* Measured at start: a glyph that took other than one column would
	 * push the board's squares apart. */
	return glyph_cols > 1;
}

const char *config_lichess_url(const struct config *c)
{
	return c->lichess_url[0] ? c->lichess_url : CONFIG_LICHESS_URL;
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
