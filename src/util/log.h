/*
 * Logging: one line per request or event on stderr, with a level and a
 * wall-clock timestamp. Callers must never pass a token or a token hash:
 * request lines name the method, path and status only, and the Authorization
 * header is never logged. Every byte of a message past printable ASCII is
 * written escaped (log.c), so a message may carry client bytes.
 *
 * The level is the one piece of mutable global state the house style allows;
 * it is set once at start and read with relaxed atomics, so logging is safe
 * from any thread (each line is written with one fprintf, which stdio locks).
 */
#ifndef TCHESS_UTIL_LOG_H
#define TCHESS_UTIL_LOG_H

#include <stdbool.h>

enum log_level {
	LOG_ERROR,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
};

void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Parses "error", "warn", "info" or "debug"; returns false for anything else. */
bool log_level_parse(const char *name, enum log_level *out);
bool log_enabled(enum log_level level);

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
