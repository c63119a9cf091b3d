/*
 * The "key = value" text that the config file and theme files share:
 * reading it line by line (blank lines and '#' comments skipped, blanks
 * trimmed), the yes/no words, and reading such a file whole. The meaning
 * of each key stays with its owner (config.c, theme.c).
 */
#ifndef TCHESS_CLIENT_KEYVALUE_H
#define TCHESS_CLIENT_KEYVALUE_H

#include <stdbool.h>
#include <stddef.h>

struct keyvalue_reader {
	const char *text;
	size_t len;
	size_t pos;
	int line;               /* the number of the line last read, from 1 */
	char *buf;              /* the caller's line buffer */
	size_t bufsize;
	bool hash_after_blank;  /* '#' starts a comment in a value only after a blank */
};

/* Starts reading text (len bytes) with lines copied into buf (bufsize
 * bytes, so the longest line is bufsize - 1 bytes). With hash_after_blank,
 * "url = http://h/#x" keeps its '#'; without it any '#' in a value ends it. */
void keyvalue_init(struct keyvalue_reader *r, const char *text, size_t len, char *buf, size_t bufsize,
		   bool hash_after_blank);

/* The next "key = value" line: returns 1 with key and value pointing into
 * the reader's buffer (trimmed; value may be empty), 0 at the end, or -1
 * with a message starting "line N: " in err (errsize bytes). */
int keyvalue_next(struct keyvalue_reader *r, char **key, char **value, char *err, size_t errsize);

/* Parses yes/true/on/1 and no/false/off/0 into out. Returns 0, or -1 (out
 * unchanged) for any other word. */
int keyvalue_bool(const char *v, bool *out);

/* Reads the file at path whole, up to max - 1 bytes. Returns a buffer the
 * caller frees, with its length in len, or NULL with a message naming the
 * file in err and errno saying why (ENOENT for a missing file, ENOMEM,
 * EFBIG for a file of max bytes or more). */
char *keyvalue_read_file(const char *path, size_t max, size_t *len, char *err, size_t errsize);

#endif
