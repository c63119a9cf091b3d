/*
 * Word wrapping (see text-wrap.h).
 */
#include <stdio.h>
#include <string.h>

#include "text-wrap.h"

size_t text_wrap_line(const char *text, int width, const char **next)
{
	size_t n = 0, brk = 0;
	int cols = 0;
	*next = text;
	if (width <= 0)
		return 0;
	while (text[n] == ' ')
		n++;
	text += n;
	n = 0;
	if (!*text) {
		*next = text;
		return 0;
	}
	while (text[n]) {
		if ((text[n] & 0xC0) != 0x80) {
			if (cols == width)
				break;
			cols++;
		}
		if (text[n] == ' ' && n > 0 && text[n - 1] != ' ')
			brk = n;
		n++;
	}
	/* Everything fits, or a blank ends the line just there. */
	if (!text[n] || text[n] == ' ' || brk == 0)
		brk = n;
	size_t len = brk;
	while (len > 0 && text[len - 1] == ' ')
		len--;
	const char *p = text + brk;
	while (*p == ' ')
		p++;
	*next = p;
	return len;
}

int text_wrap_cols(const char *text)
{
	int cols = 0;
	for (; *text; text++)
		if ((*text & 0xC0) != 0x80)
			cols++;
	return cols;
}

int text_wrap_fit(const char *text, int width, const char *ellipsis, char *buf, size_t size)
{
	const char *next;
	if (size)
		buf[0] = '\0';
	if (width <= 0 || size == 0)
		return 0;
	while (*text == ' ')
		text++;
	int cols = text_wrap_cols(text);
	if (cols <= width) {
		snprintf(buf, size, "%s", text);
		return cols;
	}
	int room = width - text_wrap_cols(ellipsis);
	if (room <= 0) {
		/* No room for a word: the dots alone, as many as fit. */
		size_t n = text_wrap_line(ellipsis, width, &next);
		snprintf(buf, size, "%.*s", (int)n, ellipsis);
		return text_wrap_cols(buf);
	}
	/* The first line of the text wrapped at the room left: whole words,
	 * or the first word cut when it alone is wider. */
	size_t len = text_wrap_line(text, room, &next);
	/* A comma or the like before the dots reads as a typo. */
	while (len > 0 && strchr(",;:-", text[len - 1]))
		len--;
	while (len > 0 && text[len - 1] == ' ')
		len--;
	snprintf(buf, size, "%.*s%s", (int)len, text, ellipsis);
	return text_wrap_cols(buf);
}
