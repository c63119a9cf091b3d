/*
 * The client's requests built from the one route table (tchess/routes.h),
 * so no "/v1/..." path is spelled in the client.
 */
#ifndef TCHESS_CLIENT_ROUTE_H
#define TCHESS_CLIENT_ROUTE_H

#include <stddef.h>

#include "tchess/routes.h"

/* Writes route id's path into path (size bytes), its ':' segment param
 * (NULL for a route without one), then "?" query when query is not NULL.
 * path is "" when the parts do not fit the route or the buffer. Returns
 * the route's method. */
const char *route_request(char *path, size_t size, enum route_id id, const char *param, const char *query);

/* The method and the path of a route without a ':' segment. */
const char *route_method(enum route_id id);
const char *route_fixed(enum route_id id);

#endif
