/*
 * The terminal self-check at start: how many columns the terminal gives
 * a chess glyph, measured by writing one at the start of the line and
 * asking where the cursor went (a cursor position report, ESC [ 6 n,
 * answered ESC [ row ; col R). A terminal or font that draws the glyphs
 * two columns wide (some CJK setups, some fonts' fallbacks) breaks the
 * board's columns: the client then draws letters instead. A terminal
 * that does not answer within the deadline keeps the locale's choice.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "../util/now.h"
#include "ui.h"

/* Writes all of buf to fd; false on an error. */
static bool ui_probe_write(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		buf += w;
		n -= (size_t)w;
	}
	return true;
}

int ui_probe_parse(const char *buf, size_t len, int *col)
{
	/* The report is the last ESC [ digits ; digits R in what came back
	 * (a key typed meanwhile may precede it). */
	for (size_t i = len; i-- > 0;) {
		if (buf[i] != '\033' || i + 1 >= len || buf[i + 1] != '[')
			continue;
		size_t k = i + 2;
		long row = 0, c = 0;
		int digits = 0;
		while (k < len && buf[k] >= '0' && buf[k] <= '9' && digits < 6) {
			row = row * 10 + (buf[k++] - '0');
			digits++;
		}
		if (!digits || k >= len || buf[k++] != ';')
			continue;
		digits = 0;
		while (k < len && buf[k] >= '0' && buf[k] <= '9' && digits < 6) {
			c = c * 10 + (buf[k++] - '0');
			digits++;
		}
		if (!digits || k >= len || buf[k] != 'R' || row < 1 || c < 1)
			continue;
		*col = (int)c;
		return 0;
	}
	return -1;
}

int ui_probe_glyph_cols(int in, int out, int timeout_ms)
{
	struct termios old, raw;
	if (!isatty(in) || !isatty(out) || tcgetattr(in, &old) < 0)
		return 0;
	raw = old;
	raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(in, TCSANOW, &raw) < 0)
		return 0;
	/* Column 1, the black king, then the question. */
	static const char probe[] = "\r\u265a\033[6n";
	int cols = 0;
	char buf[64];
	size_t len = 0;
	if (ui_probe_write(out, probe, sizeof probe - 1)) {
		int64_t deadline = now_mono_ms() + timeout_ms;
		int col;
		while (len < sizeof buf) {
			int64_t left = deadline - now_mono_ms();
			if (left <= 0)
				break;
			struct pollfd p = { .fd = in, .events = POLLIN };
			int r = poll(&p, 1, (int)left);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			ssize_t n = read(in, buf + len, sizeof buf - len);
			if (n <= 0)
				break;
			len += (size_t)n;
			if (memchr(buf, 'R', len) && ui_probe_parse(buf, len, &col) == 0) {
				cols = col - 1;
				break;
			}
		}
	}
	/* The glyph is wiped whatever came back. */
	ui_probe_write(out, "\r\033[K", 4);
	tcsetattr(in, TCSANOW, &old);
	return cols;
}
