/*
 * Allocation wrappers for the client and the server. Running out of memory
 * is not a condition these programs can report usefully, so every wrapper
 * prints a message and aborts instead of returning NULL; callers never check.
 * (The rules core does not use these: it allocates nothing on its hot paths
 * and reports errors instead.)
 */
#ifndef TCHESS_UTIL_XALLOC_H
#define TCHESS_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
/* Zeroed; aborts when nmemb * size overflows, like calloc should. */
void *xcalloc(size_t nmemb, size_t size);
/* xrealloc(NULL, n) is xmalloc(n). */
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A malloc'd printf; never NULL. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Aborts with "out of memory" for a library that reported OOM by NULL. */
_Noreturn void xalloc_die(void);

#endif
