/* The deadline heap (dheap.h): a binary min-heap of pointers; each node
 * keeps its index so that moving or removing it needs no search. */
#include "util/dheap.h"

#include <stdlib.h>

#include "util/xalloc.h"

void dheap_init(struct dheap *h)
{
	h->a = NULL;
	h->n = h->cap = 0;
}

void dheap_fini(struct dheap *h)
{
	for (size_t i = 0; i < h->n; i++)
		h->a[i]->pos = 0;
	free(h->a);
	dheap_init(h);
}

static void place(struct dheap *h, size_t i, struct dheap_node *node)
{
	h->a[i] = node;
	node->pos = i + 1;
}

static void sift_up(struct dheap *h, size_t i)
{
	struct dheap_node *node = h->a[i];
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h->a[parent]->key <= node->key)
			break;
		place(h, i, h->a[parent]);
		i = parent;
	}
	place(h, i, node);
}

static void sift_down(struct dheap *h, size_t i)
{
	struct dheap_node *node = h->a[i];
	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= h->n)
			break;
		if (child + 1 < h->n && h->a[child + 1]->key < h->a[child]->key)
			child++;
		if (node->key <= h->a[child]->key)
			break;
		place(h, i, h->a[child]);
		i = child;
	}
	place(h, i, node);
}

void dheap_set(struct dheap *h, struct dheap_node *node, int64_t key)
{
	if (node->pos) {
		size_t i = node->pos - 1;
		int64_t was = node->key;
		node->key = key;
		if (key < was)
			sift_up(h, i);
		else if (key > was)
			sift_down(h, i);
		return;
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->a = xrealloc(h->a, h->cap * sizeof *h->a);
	}
	node->key = key;
	place(h, h->n++, node);
	sift_up(h, h->n - 1);
}

void dheap_remove(struct dheap *h, struct dheap_node *node)
{
	if (!node->pos)
		return;
	size_t i = node->pos - 1;
	node->pos = 0;
	struct dheap_node *last = h->a[--h->n];
	if (i == h->n)
		return;
	place(h, i, last);
	sift_up(h, i);
	sift_down(h, last->pos - 1);
}

struct dheap_node *dheap_top(const struct dheap *h)
{
	return h->n ? h->a[0] : NULL;
}
