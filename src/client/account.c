/*
 * The account file and the embedded server (account.h). Plain POSIX: the
 * file is written to a temporary name with mode 0600 and renamed, so a
 * crash never leaves half a token; the server is a child process whose
 * first line of output says where it listens.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "account.h"
#include "util/str.h"

static int account_xdg_dir(const char *var, const char *fallback, char *buf, size_t size)
{
	const char *base = getenv(var);
	const char *home = getenv("HOME");
	int n;
	if (base && *base)
		n = snprintf(buf, size, "%s/tchess", base);
	else if (home && *home)
		n = snprintf(buf, size, "%s/%s/tchess", home, fallback);
	else
		return -1;
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int account_config_dir(char *buf, size_t size)
{
	return account_xdg_dir("XDG_CONFIG_HOME", ".config", buf, size);
}

int account_state_dir(char *buf, size_t size)
{
	return account_xdg_dir("XDG_STATE_HOME", ".local/state", buf, size);
}

int account_mkdirs(const char *dir, char *err, size_t errsize)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			snprintf(err, errsize, "cannot create %s: %s", path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errsize, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int account_parse(struct account *a, const char *text, char *err, size_t errsize)
{
	struct account out;
	int line = 0;
	memset(&out, 0, sizeof out);
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char l[512], key[32], value[400];
		line++;
		if (len >= sizeof l) {
			snprintf(err, errsize, "line %d: too long", line);
			return -1;
		}
		memcpy(l, text, len);
		l[len] = '\0';
		text += len + (end ? 1 : 0);
		char *p = l;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		if (sscanf(p, "%31[a-z] = %399s", key, value) != 2) {
			snprintf(err, errsize, "line %d: expected 'key = value'", line);
			return -1;
		}
		if (!strcmp(key, "server"))
			str_copy(out.server, value, sizeof out.server);
		else if (!strcmp(key, "name"))
			str_copy(out.name, value, sizeof out.name);
		else if (!strcmp(key, "token"))
			str_copy(out.token, value, sizeof out.token);
		else if (!strcmp(key, "player"))
			out.player = strtoll(value, NULL, 10);
		else {
			snprintf(err, errsize, "line %d: unknown key '%s'", line, key);
			return -1;
		}
	}
	if (!out.token[0]) {
		snprintf(err, errsize, "no token in the file");
		return -1;
	}
	*a = out;
	return 0;
}

int account_load(const char *path, struct account *a, char *err, size_t errsize)
{
	char text[4096], why[200];
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	if (account_parse(a, text, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s: %s", path, why);
		return -1;
	}
	return 0;
}

int account_save(const char *path, const struct account *a, char *err, size_t errsize)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errsize, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	/* The umask may have taken bits away, never added them; be exact. */
	fchmod(fd, 0600);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		snprintf(err, errsize, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "# tchess account: the token acts for you, keep it private\n");
	fprintf(f, "server = %s\nname = %s\nplayer = %lld\ntoken = %s\n", a->server, a->name,
		(long long)a->player, a->token);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static bool account_executable(const char *path)
{
	return access(path, X_OK) == 0;
}

int account_find_tchessd(char *buf, size_t size)
{
	const char *env = getenv("TCHESS_TCHESSD");
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return account_executable(buf) ? 0 : -1;
	}
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			/* The build tree: build/src/client/tchess beside build/src/server/tchessd. */
			snprintf(buf, size, "%s/../server/tchessd", self);
			if (account_executable(buf))
				return 0;
			/* An install: bin/tchess and sbin/tchessd under one prefix. */
			snprintf(buf, size, "%s/../sbin/tchessd", self);
			if (account_executable(buf))
				return 0;
		}
	}
	snprintf(buf, size, "%s", TCHESS_SBINDIR "/tchessd");
	return account_executable(buf) ? 0 : -1;
}

int account_embedded_start(struct embedded *e, const char *tchessd, const char *db, const char *log_path,
			   char *err, size_t errsize)
{
	int out[2];
	memset(e, 0, sizeof *e);
	if (pipe(out) < 0) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errsize, "fork: %s", strerror(errno));
		close(out[0]);
		close(out[1]);
		return -1;
	}
	if (pid == 0) {
		int logfd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		if (logfd >= 0)
			dup2(logfd, STDERR_FILENO);
		close(out[0]);
		/* Its own process group: a Ctrl-C meant for the terminal
		 * reaches the client, which stops the server in order. */
		setpgid(0, 0);
		/* A client killed outright (its terminal closed: SIGHUP) takes
		 * its server along: SIGTERM, which drains and exits cleanly,
		 * rather than a stray tchessd holding the database. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(0);
		/* The engine for engine seats, when one is installed. */
		const char *engines[] = { "/usr/games/stockfish", "/usr/bin/stockfish", "/usr/local/bin/stockfish" };
		for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
			if (access(engines[i], X_OK) == 0)
				execl(tchessd, tchessd, "--listen", "127.0.0.1:0", "--db", db, "--engine", engines[i],
				      (char *)NULL);
		execl(tchessd, tchessd, "--listen", "127.0.0.1:0", "--db", db, (char *)NULL);
		fprintf(stderr, "tchess: cannot run %s: %s\n", tchessd, strerror(errno));
		_exit(127);
	}
	close(out[1]);
	/* Read its first line: "listening on 127.0.0.1:PORT". */
	char line[256];
	size_t n = 0;
	while (n + 1 < sizeof line) {
		ssize_t r = read(out[0], line + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || line[n] == '\n')
			break;
		n++;
	}
	line[n] = '\0';
	close(out[0]);
	const char *prefix = "listening on ";
	if (strncmp(line, prefix, strlen(prefix)) != 0) {
		int status;
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
		snprintf(err, errsize, "%s did not start (see %s)", tchessd, log_path);
		return -1;
	}
	e->pid = pid;
	if (strlen(line) - strlen(prefix) + 8 > sizeof e->url) {
		account_embedded_stop(e);
		snprintf(err, errsize, "%s: cannot read its address", tchessd);
		return -1;
	}
	memcpy(e->url, "http://", 7);
	str_copy(e->url + 7, line + strlen(prefix), sizeof e->url - 7);
	return 0;
}

void account_embedded_stop(struct embedded *e)
{
	if (e->pid <= 0)
		return;
	int status;
	kill(e->pid, SIGTERM);
	while (waitpid(e->pid, &status, 0) < 0 && errno == EINTR)
		;
	e->pid = 0;
}
