/*
 * Leveled logging to stderr; see log.h.
 *
 * Messages carry bytes a client chose (a path libmicrohttpd decoded, a
 * method, a name), so log_msg escapes the whole message, wherever it came
 * from: a control byte could forge a line or drive an operator's
 * terminal. Printable ASCII passes; a backslash becomes "\\" and every
 * other byte (controls, DEL, anything past ASCII, UTF-8 included) "\xNN",
 * so a line is one line of plain ASCII and the escaping reads back
 * unambiguously.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/log.h"

static atomic_int log_level = LOG_INFO;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void log_set_level(enum log_level level)
{
	atomic_store_explicit(&log_level, (int)level, memory_order_relaxed);
}

enum log_level log_get_level(void)
{
	return (enum log_level)atomic_load_explicit(&log_level, memory_order_relaxed);
}

bool log_level_parse(const char *name, enum log_level *out)
{
	for (size_t i = 0; i < sizeof level_names / sizeof level_names[0]; i++) {
		if (!strcmp(name, level_names[i])) {
			*out = (enum log_level)i;
			return true;
		}
	}
	return false;
}

bool log_enabled(enum log_level level)
{
	return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	if (!log_enabled(level))
		return;
	char line[1024];
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	int n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %-5s ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000,
			 level_names[level]);
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof line)
		vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	/* Each byte becomes at most four. */
	char out[sizeof line * 4];
	size_t o = (size_t)n;
	memcpy(out, line, o);
	for (const unsigned char *p = (const unsigned char *)line + n; *p; p++) {
		if (*p == '\\') {
			out[o++] = '\\';
			out[o++] = '\\';
		} else if (*p >= 0x20 && *p < 0x7f) {
			out[o++] = (char)*p;
		} else {
			static const char hex[] = "0123456789abcdef";
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	out[o] = '\0';
	/* One call per line so lines from different threads do not interleave. */
	fprintf(stderr, "%s\n", out);
}
