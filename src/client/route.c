/*
 * route.h: a request's method and path from the route table.
 */
#include <stdio.h>
#include <string.h>

#include "route.h"

const char *route_request(char *path, size_t size, enum route_id id, const char *param, const char *query)
{
	const struct route *r = routes_get(id);
	const char *params[1] = { param };
	int n = routes_path(path, size, id, params, param ? 1 : 0);
	if (n >= 0 && query) {
		size_t used = (size_t)n;
		int q = snprintf(path + used, size - used, "?%s", query);
		if (q < 0 || (size_t)q >= size - used)
			path[0] = '\0';
	}
	return r ? r->method : "GET";
}

const char *route_method(enum route_id id)
{
	const struct route *r = routes_get(id);
	return r ? r->method : "GET";
}

const char *route_fixed(enum route_id id)
{
	const struct route *r = routes_get(id);
	return r && !strchr(r->pattern, ':') ? r->pattern : "";
}
