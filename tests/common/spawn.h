/*
 * Starting a real tchessd for the server tests (harness.c) and the
 * benchmarks (tests/bench): one place that forks it on 127.0.0.1 port 0,
 * ties its life to the caller's and reads the port it prints; and what it
 * costs, read from /proc.
 */
#ifndef TCHESS_TESTS_SPAWN_H
#define TCHESS_TESTS_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Starts bin --listen 127.0.0.1:0 --db db [--config conf] --log-level
 * level; its standard error is appended to log_path (NULL: inherited). It
 * gets SIGKILL if the caller dies. Waits up to timeout_ms for "listening
 * on 127.0.0.1:PORT". Returns 0 with *pid and *port, or -1 with why in
 * err (the child, if any, killed and reaped). */
int spawn_tchessd(const char *bin, const char *db, const char *conf, const char *level, const char *log_path,
		  int timeout_ms, pid_t *pid, int *port, char *err, size_t errsize);

/* A "Key: N kB" line of /proc/PID/status (VmRSS, VmHWM), -1 if unknown. */
long proc_status_kb(pid_t pid, const char *key);
/* User + system CPU seconds of pid so far, from /proc/PID/stat; 0 if
 * unknown. */
double proc_cpu_s(pid_t pid);
/* CPU seconds of the children pid has reaped (utime + stime of those). */
double proc_reaped_cpu_s(pid_t pid);
/* pid's parent, 0 if unknown. */
pid_t proc_parent(pid_t pid);

#endif
