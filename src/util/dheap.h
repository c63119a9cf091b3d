/*
 * A deadline heap: items keyed by an instant, the earliest on top, each
 * item knowing its place so that its key can move or it can leave in
 * O(log n). The item is a struct dheap_node embedded in the caller's
 * object (container_of-style access is the caller's):
 *
 *	struct game { ...; struct dheap_node timer; };
 *	dheap_set(&h, &g->timer, due_ms);      // insert, or move its key
 *	struct dheap_node *top = dheap_top(&h); // NULL when empty
 *	dheap_remove(&h, &g->timer);           // no-op if not in the heap
 *
 * Not thread-safe: the caller's lock covers it.
 */
#ifndef TCHESS_UTIL_DHEAP_H
#define TCHESS_UTIL_DHEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dheap_node {
	int64_t key;
	size_t pos; /* 1 + its index in the heap; 0: not in it */
};

struct dheap {
	struct dheap_node **a;
	size_t n, cap;
};

void dheap_init(struct dheap *h);
void dheap_fini(struct dheap *h);
/* Puts node in the heap with key, or moves it there if it is in already. */
void dheap_set(struct dheap *h, struct dheap_node *node, int64_t key);
void dheap_remove(struct dheap *h, struct dheap_node *node);
/* The node with the smallest key, NULL if the heap is empty. */
struct dheap_node *dheap_top(const struct dheap *h);
static inline bool dheap_contains(const struct dheap_node *node)
{
	return node->pos != 0;
}

#endif
