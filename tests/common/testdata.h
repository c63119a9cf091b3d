/*
 * Test helpers shared by the Check runners: where test data lives, and a
 * reader for the published perft tables.
 *
 * Data from outside the project sits in ../shared/data beside the checkout
 * (TCHESS_SHARED_DATA, set by meson); the project's own in tests/data
 * (TCHESS_TEST_DATA). A test that needs outside data, a tool or a table
 * set that is missing says so on stderr (testdata_skip) and checks nothing
 * more; the runner then exits with meson's SKIP status (testdata_status),
 * so a run without the data never reads as a pass. A shared folder that is
 * there but lacks a file the tests name fails instead.
 */
#ifndef TCHESS_TESTS_TESTDATA_H
#define TCHESS_TESTS_TESTDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* meson's exit status for a skipped test. */
#define TESTDATA_SKIP 77

/* Opens rel below the shared data folder, or returns NULL after
 * testdata_missing(rel). */
FILE *testdata_open_shared(const char *rel);
/* Opens rel below tests/data; aborts the test (fails) if it is missing. */
FILE *testdata_open_own(const char *rel);
/* Full path of rel below the shared data folder, in a static buffer. */
const char *testdata_shared_path(const char *rel);

/* True when the shared data folder exists. */
bool testdata_shared_present(void);
/* rel is missing below the shared folder: a skip when the whole folder is
 * missing, else a failure (aborts). */
void testdata_missing(const char *rel);
/* Prints "skipped: " and the message, and counts a skip for the runner. */
void testdata_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The runner's exit status: EXIT_FAILURE if any test failed, else
 * TESTDATA_SKIP if any test skipped something, else EXIT_SUCCESS. */
int testdata_status(int failed);

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
