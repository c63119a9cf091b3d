/*
 * Word wrapping (see text-wrap.h).
 */
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
