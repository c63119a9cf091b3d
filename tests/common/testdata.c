/*
 * Test data access shared by the Check runners.
 */
#include <stdlib.h>
#include <string.h>

#include "testdata.h"

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

const char *testdata_shared_path(const char *rel)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/%s", env_or("TCHESS_SHARED_DATA", "../shared/data"), rel);
	return path;
}

bool testdata_light(void)
{
	const char *v = getenv("TCHESS_TEST_LIGHT");
	return v && *v && strcmp(v, "0");
}

FILE *testdata_open_shared(const char *rel)
{
	const char *path = testdata_shared_path(rel);
	FILE *f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "skipped: shared test data %s is missing\n", path);
	return f;
}

FILE *testdata_open_own(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", env_or("TCHESS_TEST_DATA", "tests/data"), rel);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "test data %s is missing\n", path);
		abort();
	}
	return f;
}

static void push(struct perft_case **v, size_t *n, size_t *cap, const char *fen, int depth, uint64_t nodes,
		 const char *source)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = realloc(*v, *cap * sizeof **v);
		if (!*v)
			abort();
	}
	struct perft_case *c = &(*v)[(*n)++];
	snprintf(c->fen, sizeof c->fen, "%s", fen);
	c->depth = depth;
	c->nodes = nodes;
	snprintf(c->source, sizeof c->source, "%s", source);
}

size_t testdata_read_perft(const char *rel, struct perft_case **out)
{
	FILE *f = testdata_open_shared(rel);
	size_t n = 0, cap = 0;
	char line[512], fen[256] = "", id[64] = "";
	*out = NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char *tab1 = strchr(line, '\t');
		if (tab1) {
			char *tab2 = strchr(tab1 + 1, '\t');
			if (!tab2 || !strncmp(line, "fen\t", 4))
				continue;
			*tab1 = *tab2 = '\0';
			push(out, &n, &cap, line, atoi(tab1 + 1), strtoull(tab2 + 1, NULL, 10), rel);
		} else if (!strncmp(line, "id ", 3)) {
			snprintf(id, sizeof id, "%.60s", line + 3);
		} else if (!strncmp(line, "epd ", 4)) {
			snprintf(fen, sizeof fen, "%.250s", line + 4);
		} else if (!strncmp(line, "perft ", 6)) {
			int d;
			unsigned long long nodes;
			if (sscanf(line + 6, "%d %llu", &d, &nodes) == 2)
				push(out, &n, &cap, fen, d, nodes, id);
		}
	}
	fclose(f);
	return n;
}
