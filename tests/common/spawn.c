/* spawn_tchessd and the /proc readers (spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int spawn_tchessd(const char *bin, const char *db, const char *conf, const char *level, const char *log_path,
		  int timeout_ms, pid_t *pid_out, int *port_out, char *err, size_t errsize)
{
	int fds[2];
	if (pipe(fds)) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errsize, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* Die with the caller, even if it fails half-way. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		if (log_path) {
			int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(126);
			close(fd);
		}
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (conf)
			execl(bin, bin, "--listen", "127.0.0.1:0", "--db", db, "--config", conf, "--log-level", level,
			      (char *)NULL);
		else
			execl(bin, bin, "--listen", "127.0.0.1:0", "--db", db, "--log-level", level, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char line[256];
	size_t len = 0;
	int64_t deadline = now_ms() + timeout_ms;
	const char *why = NULL;
	while (!why && len < sizeof line - 1 && !memchr(line, '\n', len)) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		int left = (int)(deadline - now_ms());
		if (left <= 0) {
			why = "did not print its port in time";
			break;
		}
		if (poll(&pfd, 1, left) <= 0)
			continue;
		ssize_t n = read(fds[0], line + len, sizeof line - 1 - len);
		if (n <= 0)
			why = "exited before listening";
		else
			len += (size_t)n;
	}
	close(fds[0]);
	line[len] = '\0';
	int port = 0;
	if (!why && (sscanf(line, "listening on 127.0.0.1:%d", &port) != 1 || port <= 0))
		why = "printed something else than its port";
	if (why) {
		snprintf(err, errsize, "%s %s: %s", bin, why, line);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	*pid_out = pid;
	*port_out = port;
	return 0;
}

long proc_status_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* The fields of /proc/PID/stat after the command name (which may hold
 * spaces: they count from its ')') into text; NULL if unreadable. */
static const char *stat_fields(pid_t pid, char *text, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(text, 1, size - 1, f);
	fclose(f);
	text[n] = '\0';
	char *p = strrchr(text, ')');
	return p ? p + 2 : NULL;
}

/* utime + stime (fields 14 and 15), or with reaped cutime + cstime
 * (16 and 17), in seconds. */
static double stat_cpu_s(pid_t pid, bool reaped)
{
	char text[1024];
	const char *p = stat_fields(pid, text, sizeof text);
	unsigned long u = 0, t = 0;
	if (!p)
		return 0;
	int n = reaped ? sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %lu %lu", &u, &t)
		       : sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &u, &t);
	if (n != 2)
		return 0;
	return (double)(u + t) / (double)sysconf(_SC_CLK_TCK);
}

double proc_cpu_s(pid_t pid)
{
	return stat_cpu_s(pid, false);
}

pid_t proc_parent(pid_t pid)
{
	char text[1024];
	const char *p = stat_fields(pid, text, sizeof text);
	long ppid = 0;
	if (!p || sscanf(p, "%*c %ld", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

double proc_reaped_cpu_s(pid_t pid)
{
	return stat_cpu_s(pid, true);
}
