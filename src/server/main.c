/*
 * tchessd: the authoritative tchess server. Parses the command line and the
 * config file, opens the store, serves HTTP until SIGTERM or SIGINT, then
 * drains (parked polls answered, requests in flight finished) and exits 0.
 *
 * Signals are blocked in every thread and taken synchronously here with
 * sigwait, so no handler runs asynchronously and no flag is needed.
 */
#include <getopt.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "config.h"
#include "game-service.h"
#include "http.h"
#include "server.h"
#include "util/log.h"
#include "util/xalloc.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tchessd --listen ADDR:PORT --db PATH|postgresql://... [--node NAME] [--engine PATH]\n"
		   "               [--tablebases DIR] [--config FILE] [--log-level error|warn|info|debug]\n"
		   "See tchessd(8).\n");
}

/* Every connection, parked long-polls included, holds a descriptor: raise
 * the soft limit towards the hard one so that max_connections can be met,
 * and lower max_connections (with a warning) where it cannot. */
static void raise_fd_limit(struct server_config *cfg)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	rlim_t want = (rlim_t)cfg->max_connections + 256;
	if (rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < want) {
		unsigned fit = rl.rlim_cur > 512 ? (unsigned)(rl.rlim_cur - 256) : 256;
		log_warn("open-file limit %llu: max_connections lowered from %u to %u",
			 (unsigned long long)rl.rlim_cur, cfg->max_connections, fit);
		cfg->max_connections = fit;
	}
}

/* The game service's polls are the HTTP side's parked connections. */
static void polls_wake(void *ctx, const char *id)
{
	http_wake_game(ctx, id);
}

static bool polls_watched(void *ctx, const char *id)
{
	return http_watched(ctx, id);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"listen", required_argument, NULL, 'l'},     {"db", required_argument, NULL, 'd'},
		{"node", required_argument, NULL, 'n'},       {"engine", required_argument, NULL, 'e'},
		{"tablebases", required_argument, NULL, 't'}, {"config", required_argument, NULL, 'c'},
		{"log-level", required_argument, NULL, 'L'},  {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},          {NULL, 0, NULL, 0},
	};
	struct server_config cfg;
	config_init(&cfg);
	/* Command-line values win over the config file, so collect them first
	 * and apply them after reading it. */
	const char *cli[5][2] = {
		{"listen", NULL}, {"db", NULL}, {"engine", NULL}, {"tablebases", NULL}, {"node", NULL}};
	const char *config_file = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			cli[0][1] = optarg;
			break;
		case 'd':
			cli[1][1] = optarg;
			break;
		case 'e':
			cli[2][1] = optarg;
			break;
		case 't':
			cli[3][1] = optarg;
			break;
		case 'n':
			cli[4][1] = optarg;
			break;
		case 'c':
			config_file = optarg;
			break;
		case 'L': {
			enum log_level level;
			if (!log_level_parse(optarg, &level)) {
				fprintf(stderr, "tchessd: --log-level %s: expected error, warn, info or debug\n", optarg);
				return 2;
			}
			log_set_level(level);
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("tchessd %s (protocol %d)\n", TCHESS_VERSION, PROTOCOL_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	char *err = NULL;
	if (config_file && config_load(&cfg, config_file, &err)) {
		fprintf(stderr, "tchessd: %s\n", err);
		free(err);
		return 2;
	}
	for (int i = 0; i < 5; i++) {
		if (cli[i][1] && config_set(&cfg, cli[i][0], cli[i][1], &err)) {
			fprintf(stderr, "tchessd: --%s\n", err);
			free(err);
			config_fini(&cfg);
			return 2;
		}
	}
	if (!cfg.listen || !cfg.db) {
		fprintf(stderr, "tchessd: --listen and --db are required\n");
		usage(stderr);
		config_fini(&cfg);
		return 2;
	}

	raise_fd_limit(&cfg);

	/* Block the shutdown signals before any thread starts, so every thread
	 * inherits the mask and only sigwait below receives them. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGUSR1); /* a backup, not a stop */
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* A file size limit (ulimit -f) must fail the command that hits it
	 * (EFBIG, answered 503), not kill the server. */
	signal(SIGXFSZ, SIG_IGN);

	struct server srv;
	if (server_init(&srv, &cfg, &err)) {
		fprintf(stderr, "tchessd: %s\n", err);
		free(err);
		server_fini(&srv);
		return 1;
	}
	srv.http = http_start(&srv, api_routes, &err);
	if (!srv.http) {
		fprintf(stderr, "tchessd: %s\n", err);
		free(err);
		server_fini(&srv);
		return 1;
	}
	struct game_service_polls polls = { .ctx = srv.http, .wake = polls_wake, .watched = polls_watched };
	game_service_set_polls(srv.games, &polls);
	int sig = 0;
	while (!sigwait(&stop, &sig) && sig == SIGUSR1)
		server_backup(&srv);
	log_info("signal %d: shutting down", sig);
	http_drain(srv.http);
	/* Engine answers commit from pool threads and wake polls through
	 * srv.http: withdraw them before the HTTP side goes away. A game left
	 * with its engine to move is asked again at the next start. */
	game_service_stop_engines(srv.games);
	/* The flag timer and the syncer, still running, then find no HTTP
	 * side to wake (http_stop clears srv.http and leaves the syncer's
	 * listeners). */
	game_service_set_polls(srv.games, NULL);
	http_stop(srv.http);
	server_fini(&srv);
	log_info("stopped");
	return 0;
}
