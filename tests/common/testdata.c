/*
 * Test data access shared by the Check runners.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "testdata.h"

/* Check runs each test in a child process, so what a test skipped is
 * counted in a page shared with the runner's parent, mapped before main. */
static volatile int *skips;

__attribute__((constructor)) static void skips_map(void)
{
	void *p = mmap(NULL, sizeof *skips, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		abort();
	skips = p;
}

void testdata_skip(const char *fmt, ...)
{
	va_list ap;
	fputs("skipped: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	__atomic_add_fetch(skips, 1, __ATOMIC_SEQ_CST);
}

int testdata_status(int failed)
{
	if (failed)
		return EXIT_FAILURE;
	return *skips ? TESTDATA_SKIP : EXIT_SUCCESS;
}

bool testdata_shared_present(void)
{
	struct stat st;
	return stat(testdata_shared_path(""), &st) == 0 && S_ISDIR(st.st_mode);
}

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
		testdata_missing(rel);
	return f;
}

void testdata_missing(const char *rel)
{
	if (testdata_shared_present()) {
		/* The folder is there but not this file: the data is not what
		 * the tests were written for, which is a failure, not a skip. */
		fprintf(stderr, "shared test data %s is missing from %s\n", rel, testdata_shared_path(""));
		abort();
	}
	testdata_skip("shared test data %s is missing", testdata_shared_path(rel));
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
	/* A cut FEN would be another position, its published count wrong. */
	if (strlen(fen) >= sizeof c->fen || strlen(source) >= sizeof c->source) {
		fprintf(stderr, "perft data: entry too long: %s (%s)\n", fen, source);
		abort();
	}
	memcpy(c->fen, fen, strlen(fen) + 1);
	c->depth = depth;
	c->nodes = nodes;
	memcpy(c->source, source, strlen(source) + 1);
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
