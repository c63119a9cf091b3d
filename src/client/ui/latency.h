/*
 * The key latency log the screens keep when TCHESS_LATENCY_LOG names a
 * file: per key, the microseconds from reading it to handing the screen
 * to the terminal, as "key K us N" lines (see tchess(1)).
 */
#ifndef TCHESS_CLIENT_UI_LATENCY_H
#define TCHESS_CLIENT_UI_LATENCY_H

#include <stdint.h>
#include <stdio.h>

/* The log named by TCHESS_LATENCY_LOG, opened for appending; NULL when it
 * is unset, empty or cannot be opened. The caller fcloses it. */
FILE *ui_latency_open(void);

/* The monotonic clock in microseconds, to time a key from. */
int64_t ui_latency_now_us(void);

/* Writes the line of key, read at t0 (ui_latency_now_us), and flushes it
 * so a test can read it while the screen runs. */
void ui_latency_write(FILE *log, int key, int64_t t0);

#endif
