/*
 * Test helpers shared by the Check runners: where test data lives, and a
 * reader for the published perft tables.
 *
 * Data from outside the project sits in ../shared/data beside the checkout
 * (TCHESS_SHARED_DATA, set by meson); the project's own in tests/data
 * (TCHESS_TEST_DATA). A test that needs missing outside data says so on
 * stderr and passes without checking, as the data's README asks.
 */
#ifndef TCHESS_TESTS_TESTDATA_H
#define TCHESS_TESTS_TESTDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Opens rel below the shared data folder, or returns NULL after printing a
 * "skipped" message naming the missing file. */
FILE *testdata_open_shared(const char *rel);
/* Opens rel below tests/data; aborts the test (fails) if it is missing. */
FILE *testdata_open_own(const char *rel);
/* Full path of rel below the shared data folder, in a static buffer. */
const char *testdata_shared_path(const char *rel);

/* True when tests run under a slow harness (valgrind): loops that repeat
 * the same code on more inputs scale down; every check still runs once. */
bool testdata_light(void);

struct perft_case {
	char fen[128];
	int depth;
	uint64_t nodes;
	char source[64];
};

/* Reads every case of a "fen<TAB>depth<TAB>nodes" table or a
 * "id/epd/perft D N" file into a malloc'd array; returns the count (0 if the
 * file is missing). The caller frees *out. */
size_t testdata_read_perft(const char *rel, struct perft_case **out);

#endif
