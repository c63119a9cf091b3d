/*
 * Status lines fitted to the width by dropping whole items (see
 * status-line.h). Lines are short and items few, so the line is simply
 * joined again after each item dropped.
 */
#include <stdbool.h>
#include <string.h>

#include "status-line.h"

#define STATUS_LINE_ITEMS_MAX 32

int status_line_width(const char *text)
{
	int cols = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p & 0xc0) != 0x80)
			cols++;
	return cols;
}

static bool status_line_present(const struct status_line_item *it)
{
	return it->text && it->text[0];
}

static size_t status_line_join(const struct status_line_item *items, const bool *gone, size_t n, char *buf,
			       size_t size)
{
	size_t len = 0;
	bool first = true, after_key = false;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (gone[i] || !status_line_present(&items[i]))
			continue;
		/* A key hint whose neighbour hint went follows a field. */
		bool key = items[i].sep && !strcmp(items[i].sep, STATUS_LINE_KEY);
		const char *sep = key && !after_key ? STATUS_LINE_FIELD : items[i].sep;
		const char *parts[2] = { first ? "" : sep, items[i].text };
		after_key = key;
		for (int k = 0; k < 2; k++) {
			size_t l = parts[k] ? strlen(parts[k]) : 0;
			if (len + l >= size)
				l = size - 1 - len;
			memcpy(buf + len, parts[k] ? parts[k] : "", l);
			len += l;
			buf[len] = '\0';
		}
		first = false;
	}
	return len;
}

size_t status_line_fit(const struct status_line_item *items, size_t n, int width, char *buf, size_t size)
{
	bool gone[STATUS_LINE_ITEMS_MAX] = { false };
	if (!size)
		return 0;
	if (n > STATUS_LINE_ITEMS_MAX)
		n = STATUS_LINE_ITEMS_MAX;
	size_t len = status_line_join(items, gone, n, buf, size);
	while (status_line_width(buf) > width) {
		size_t worst = n;
		for (size_t i = 0; i < n; i++)
			if (!gone[i] && status_line_present(&items[i]) && items[i].drop > 0 &&
			    (worst == n || items[i].drop >= items[worst].drop))
				worst = i;
		if (worst == n)
			break;
		gone[worst] = true;
		len = status_line_join(items, gone, n, buf, size);
	}
	return len;
}
