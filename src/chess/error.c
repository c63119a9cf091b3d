/*
 * Error messages of the rules core.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tchess/error.h"

static const char *const messages[] = {
#define TCHESS_ERR_MSG(code, msg) msg,
	TCHESS_ERRORS(TCHESS_ERR_MSG)
#undef TCHESS_ERR_MSG
};

const char *tchess_strerror(enum tchess_err code)
{
	if ((unsigned)code >= TCHESS_ERR_COUNT)
		return "unknown error";
	return messages[code];
}

enum tchess_err tchess_error_set(struct tchess_error *err, enum tchess_err code, size_t offset,
				 const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->code = code;
		err->offset = offset;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return code;
}
