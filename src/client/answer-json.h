/*
 * Reading members of the server's JSON answers for the client's models
 * (corr.c, tourney.c): strings, whole numbers and flags, with null and
 * absent members handled one way everywhere, and the one message for an
 * answer that does not have the expected shape.
 */
#ifndef TCHESS_CLIENT_ANSWER_JSON_H
#define TCHESS_CLIENT_ANSWER_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "unexpected answer from the server: WHAT" into err (nothing when err is
 * NULL or errsize 0). */
void answer_json_err(char *err, size_t errsize, const char *what);

/* Copies string member name of o into buf (size bytes, cut to fit); a
 * missing or null member gives "". Returns 0, or -1 for another type. */
int answer_json_str(const cJSON *o, const char *name, char *buf, size_t size);

/* Whole-number member name of o into *out; null, or absent when optional,
 * gives dflt. Returns 0, or -1 when absent (not optional) or not a whole
 * number. */
int answer_json_int(const cJSON *o, const char *name, bool optional, int64_t dflt, int64_t *out);

/* Whether member name of o is true (absent or anything else: false). */
bool answer_json_bool(const cJSON *o, const char *name);

#endif
