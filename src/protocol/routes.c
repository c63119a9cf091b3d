/*
 * The route table of the HTTP API (tchess/routes.h): the one place the
 * paths are spelled, the server's matcher and the client's path builder.
 */
#include <string.h>

#include "tchess/routes.h"

static const struct route table[ROUTE_COUNT] = {
#define ROUTES_ROW(name, method, pattern) [name] = { method, pattern },
	ROUTES(ROUTES_ROW)
#undef ROUTES_ROW
};

const struct route *routes_get(enum route_id id)
{
	return (unsigned)id < ROUTE_COUNT ? &table[id] : NULL;
}

static int pattern_match(const char *pattern, const char *path, char params[ROUTES_PARAMS_MAX][ROUTES_PARAM_LEN])
{
	int np = 0;
	while (*pattern && *path) {
		if (*pattern == ':') {
			const char *end = strchr(path, '/');
			size_t len = end ? (size_t)(end - path) : strlen(path);
			if (!len || len >= ROUTES_PARAM_LEN || np >= ROUTES_PARAMS_MAX)
				return 0;
			memcpy(params[np], path, len);
			params[np++][len] = '\0';
			pattern++;
			path += len;
		} else if (*pattern++ != *path++) {
			return 0;
		}
	}
	return !*pattern && !*path;
}

enum routes_match_result routes_match(const char *method, const char *path,
				      char params[ROUTES_PARAMS_MAX][ROUTES_PARAM_LEN], enum route_id *id)
{
	enum routes_match_result r = ROUTES_NO_PATH;
	for (int i = 0; i < ROUTE_COUNT; i++) {
		if (!pattern_match(table[i].pattern, path, params))
			continue;
		r = ROUTES_NO_METHOD;
		if (!strcmp(table[i].method, method)) {
			*id = (enum route_id)i;
			return ROUTES_MATCHED;
		}
	}
	return r;
}

int routes_path(char *buf, size_t size, enum route_id id, const char *const *params, size_t n)
{
	const struct route *r = routes_get(id);
	size_t len = 0, used = 0;
	if (!r || !size)
		return -1;
	for (const char *p = r->pattern; *p; p++) {
		const char *piece = p;
		size_t plen = 1;
		if (*p == ':') {
			if (used == n || !params[used] || !params[used][0] || strchr(params[used], '/'))
				goto fail;
			piece = params[used++];
			plen = strlen(piece);
		}
		if (len + plen >= size)
			goto fail;
		memcpy(buf + len, piece, plen);
		len += plen;
	}
	if (used != n)
		goto fail;
	buf[len] = '\0';
	return (int)len;
fail:
	buf[0] = '\0';
	return -1;
}
