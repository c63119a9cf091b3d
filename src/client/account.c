/*
 * The account file and the embedded server (account.h). Plain POSIX: the
 * file is written to a temporary name with mode 0600 and renamed, so a
 * crash never leaves half a token. The embedded server is one tchessd per
 * user, in a session of its own, whose first line of output says where it
 * listens; a record beside its database (the pid and the URL) lets every
 * tchess of the user find it, and two flocks count who uses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "keyvalue.h"
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

int account_cache_dir(char *buf, size_t size)
{
	return account_xdg_dir("XDG_CACHE_HOME", ".cache", buf, size);
}

int account_games_dir(char *buf, size_t size)
{
	char data[PATH_MAX];
	if (account_xdg_dir("XDG_DATA_HOME", ".local/share", data, sizeof data) < 0)
		return -1;
	int n = snprintf(buf, size, "%s/games", data);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int account_game_pgn_path(const char *dir, const char *game_id, char *buf, size_t size)
{
	char folder[PATH_MAX];
	if (dir && dir[0])
		snprintf(folder, sizeof folder, "%s", dir);
	else if (account_games_dir(folder, sizeof folder) < 0)
		return -1;
	int n = snprintf(buf, size, "%s/tchess-%.12s.pgn", folder, game_id);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int account_save_game_pgn(const char *dir, const char *game_id, const char *text, size_t len, char *path,
			  size_t pathsize, char *err, size_t errsize)
{
	if (account_game_pgn_path(dir, game_id, path, pathsize) < 0) {
		snprintf(err, errsize, "cannot save the PGN: neither XDG_DATA_HOME nor HOME is set");
		return -1;
	}
	char folder[PATH_MAX];
	snprintf(folder, sizeof folder, "%s", path);
	*strrchr(folder, '/') = '\0';
	if (account_mkdirs(folder, err, errsize) < 0)
		return -1;
	FILE *f = fopen(path, "w");
	bool ok = f && fwrite(text, 1, len, f) == len;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
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
	struct keyvalue_reader r;
	char line[ACCOUNT_TOKEN_MAX + 64], *key, *value;
	int rc;
	memset(&out, 0, sizeof out);
	keyvalue_init(&r, text, strlen(text), line, sizeof line, true);
	while ((rc = keyvalue_next(&r, &key, &value, err, errsize)) > 0) {
		char *dst = NULL;
		size_t size = 0;
		if (!strcmp(key, "server")) {
			dst = out.server;
			size = sizeof out.server;
		} else if (!strcmp(key, "name")) {
			dst = out.name;
			size = sizeof out.name;
		} else if (!strcmp(key, "token")) {
			dst = out.token;
			size = sizeof out.token;
		} else if (!strcmp(key, "player")) {
			out.player = strtoll(value, NULL, 10);
		} else {
			snprintf(err, errsize, "line %d: unknown key '%.40s'", r.line, key);
			return -1;
		}
		if (dst && strlen(value) >= size) {
			snprintf(err, errsize, "line %d: %s is longer than %zu characters", r.line, key, size - 1);
			return -1;
		}
		if (dst)
			memcpy(dst, value, strlen(value) + 1);
	}
	if (rc < 0)
		return -1;
	if (!out.token[0]) {
		snprintf(err, errsize, "no token in the file");
		return -1;
	}
	*a = out;
	return 0;
}

int account_load(const char *path, struct account *a, char *err, size_t errsize)
{
	char text[ACCOUNT_TOKEN_MAX + 2048], why[200];
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
	fprintf(f, "server = %s\nname = %s\n", a->server, a->name);
	if (a->player)
		fprintf(f, "player = %lld\n", (long long)a->player);
	fprintf(f, "token = %s\n", a->token);
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

/* Starts tchessd on 127.0.0.1 port 0 with its database db, logging to
 * log_path, in a session of its own (a terminal closing or a Ctrl-C
 * reaches the clients, never the server they share), and reads
 * "listening on 127.0.0.1:PORT" from its output into e->url. Returns 0 or
 * -1 with a message. */
static int account_embedded_spawn(struct embedded *e, const char *tchessd, const char *db, const char *log_path,
				  char *err, size_t errsize)
{
	int out[2];
	if (pipe(out) < 0) {
		snprintf(err, errsize, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errsize, "fork: %s", strerror(errno));
		close(out[0]);
		close(out[1]);
		return -1;
	}
	if (pid == 0) {
		int logfd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
		int devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		if (logfd >= 0)
			dup2(logfd, STDERR_FILENO);
		close(out[0]);
		setsid();
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
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
	if (strncmp(line, prefix, strlen(prefix)) != 0 || strlen(line) - strlen(prefix) + 8 > sizeof e->url) {
		int status;
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
		snprintf(err, errsize, "%s did not start (see %s)", tchessd, log_path);
		return -1;
	}
	e->pid = pid;
	memcpy(e->url, "http://", 7);
	str_copy(e->url + 7, line + strlen(prefix), sizeof e->url - 7);
	return 0;
}

/* Whether pid is a live tchessd serving db: a recorded pid may since have
 * died and been reused by another program. */
static bool account_embedded_alive(pid_t pid, const char *db)
{
	if (pid <= 0 || kill(pid, 0) < 0)
		return false;
	char path[64], cmd[4096];
	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, cmd, sizeof cmd - 1);
	close(fd);
	if (n <= 0)
		return false; /* a zombie has no command line */
	cmd[n] = '\0';
	/* argv: tchessd --listen ADDR --db DB ...: the words are NUL-separated. */
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(cmd + i) + 1)
		if (!strcmp(cmd + i, "--db") && i + 5 < n && !strcmp(cmd + i + 5, db))
			return true;
	return false;
}

/* Reads the record of the running server (dir/server: "pid = N" and
 * "url = http://127.0.0.1:PORT") into e. Returns 0, or -1 when there is
 * none or it does not read. */
static int account_embedded_read(struct embedded *e)
{
	char path[sizeof e->dir + 16], err[256], line[256], *key, *value;
	size_t len;
	snprintf(path, sizeof path, "%s/server", e->dir);
	char *text = keyvalue_read_file(path, 4096, &len, err, sizeof err);
	if (!text)
		return -1;
	struct keyvalue_reader r;
	keyvalue_init(&r, text, len, line, sizeof line, true);
	long pid = 0;
	e->url[0] = '\0';
	while (keyvalue_next(&r, &key, &value, err, sizeof err) == 1) {
		if (!strcmp(key, "pid"))
			pid = strtol(value, NULL, 10);
		else if (!strcmp(key, "url") && strlen(value) < sizeof e->url)
			snprintf(e->url, sizeof e->url, "%s", value);
	}
	free(text);
	e->pid = (pid_t)pid;
	return pid > 0 && !strncmp(e->url, "http://127.0.0.1:", 17) ? 0 : -1;
}

/* Writes e's record to dir/server (a temporary name renamed over it, so
 * a reader never sees half of it). Returns 0 or -1 with a message. */
static int account_embedded_write(const struct embedded *e, char *err, size_t errsize)
{
	char path[sizeof e->dir + 16], tmp[sizeof e->dir + 24];
	snprintf(path, sizeof path, "%s/server", e->dir);
	snprintf(tmp, sizeof tmp, "%s/server.tmp", e->dir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errsize, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "# the embedded tchessd that this user's tchess commands share\npid = %ld\nurl = %s\n",
		(long)e->pid, e->url);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Opens dir/name (created, mode 0600, closed on exec: tchessd must never
 * hold a client's lock) and takes the flock op on it. Returns the fd, or
 * -1 (errno set; EWOULDBLOCK for a LOCK_NB lock held elsewhere). */
static int account_embedded_lock(const char *dir, const char *name, int op)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (flock(fd, op) < 0) {
		if (errno == EINTR)
			continue;
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Waits until pid has exited, at most timeout_ms: our own child is
 * reaped; another's (a server started by a client that has gone) is
 * watched through a pidfd. */
static void account_embedded_wait_gone(pid_t pid, int timeout_ms)
{
	int status;
	pid_t r;
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (r == pid)
		return;
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR)
			;
		close(fd);
		return;
	}
#endif
	/* No pidfd (an old kernel): look again every 10 ms. */
	for (int waited = 0; waited < timeout_ms && kill(pid, 0) == 0; waited += 10)
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
}

int account_embedded_attach(struct embedded *e, const char *dir, const char *tchessd, char *err, size_t errsize)
{
	char db[sizeof e->dir + 16], logp[sizeof e->dir + 16];
	memset(e, 0, sizeof *e);
	e->users_fd = -1;
	if (strlen(dir) >= sizeof e->dir) {
		snprintf(err, errsize, "%s: path too long", dir);
		return -1;
	}
	snprintf(e->dir, sizeof e->dir, "%s", dir);
	snprintf(db, sizeof db, "%s/tchess.db", dir);
	snprintf(logp, sizeof logp, "%s/tchessd.log", dir);
	/* The door: one tchess at a time looks at, starts or stops the
	 * server, so two never start one each on the same database. */
	int door = account_embedded_lock(dir, "server.lock", LOCK_EX);
	if (door < 0) {
		snprintf(err, errsize, "cannot lock %s/server.lock: %s", dir, strerror(errno));
		return -1;
	}
	int rc = -1;
	/* Each client holds users.lock shared for as long as it uses the
	 * server; the one that leaves and finds nobody else holding it stops
	 * the server. */
	e->users_fd = account_embedded_lock(dir, "users.lock", LOCK_SH);
	if (e->users_fd < 0) {
		snprintf(err, errsize, "cannot lock %s/users.lock: %s", dir, strerror(errno));
		goto out;
	}
	if (account_embedded_read(e) == 0 && account_embedded_alive(e->pid, db)) {
		rc = 0;
		goto out;
	}
	if (account_embedded_spawn(e, tchessd, db, logp, err, errsize) < 0 ||
	    account_embedded_write(e, err, errsize) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0) {
		if (e->pid > 0 && e->url[0] && account_embedded_alive(e->pid, db)) {
			kill(e->pid, SIGTERM);
			account_embedded_wait_gone(e->pid, 10000);
		}
		if (e->users_fd >= 0)
			close(e->users_fd);
		e->users_fd = -1;
		e->pid = 0;
	}
	close(door);
	return rc;
}

void account_embedded_leave(struct embedded *e)
{
	if (e->users_fd < 0)
		return;
	char db[sizeof e->dir + 16], path[sizeof e->dir + 16];
	snprintf(db, sizeof db, "%s/tchess.db", e->dir);
	int door = account_embedded_lock(e->dir, "server.lock", LOCK_EX);
	close(e->users_fd);
	e->users_fd = -1;
	/* Behind the door no one can attach meanwhile: an exclusive lock
	 * taken at once means no other client uses the server. */
	int last = door < 0 ? -1 : account_embedded_lock(e->dir, "users.lock", LOCK_EX | LOCK_NB);
	if (last >= 0) {
		struct embedded rec = *e;
		if (account_embedded_read(&rec) == 0 && account_embedded_alive(rec.pid, db)) {
			kill(rec.pid, SIGTERM);
			account_embedded_wait_gone(rec.pid, 10000);
		}
		snprintf(path, sizeof path, "%s/server", e->dir);
		unlink(path);
		close(last);
	}
	if (door >= 0)
		close(door);
	e->pid = 0;
}
