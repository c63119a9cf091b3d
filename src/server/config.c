/*
 * tchessd settings and the --config file reader; see config.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util/xalloc.h"

void config_init(struct server_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->poll_timeout_ms = 25000; /* below the 60 s proxy_read_timeout of nginx */
	cfg->max_connections = 16384;
	cfg->connection_memory = 8 * 1024;
	cfg->connection_timeout_s = 30;
	/* Trickled headers reset the idle timeout with every byte; this one
	 * does not move. A client sends its headers in one go. */
	cfg->header_timeout_s = 10;
	/* One subscriber gets a /64 (or more), thousands of addresses. */
	cfg->ipv6_prefix = 64;
	cfg->max_body = 16 * 1024;
	cfg->per_ip_connections = 64;
	cfg->drain_timeout_ms = 5000;
	cfg->sync_full = true;
	cfg->list_limit = 50;
	cfg->engine_processes = 2;
	/* Engines search below the server's own priority: its answers to
	 * players come first on a busy machine. */
	cfg->engine_nice = 10;
	/* 0: CONFIG_ENGINE_GAMES_PER_PROCESS per engine process
	 * (config_engine_games). */
	cfg->engine_games = 0;
	cfg->engine_games_per_player = 4;
	cfg->aborted_retention_ms = 60000;
	/* An open seek whose creator's client has left (no request, no
	 * parked poll) is withdrawn after two minutes, any seek after a
	 * day; a player has at most ten open (waiting) games (issue 12
	 * item 4). */
	cfg->seek_grace_ms = 120000;
	cfg->seek_max_age_ms = 86400000;
	cfg->open_games_per_player = 10;
	/* Far past what a person does in one ply, a bound on the log. */
	cfg->events_per_ply = 20;
	/* Ten minutes: past a long-poll's timeout (so a watched game stays)
	 * and past every quick game's pauses, while a correspondence game
	 * waiting days for its move costs a small record, not its fold. */
	cfg->evict_idle_ms = 600000;
	cfg->max_url = 1024;
	/* A notes-revealed event lists every note of its game: at most
	 * notes_per_game of PROTOCOL_NOTE_MAX bytes (about 200 KB escaped). */
	cfg->notes_per_game = 100;
	cfg->notes_per_player = 50;
	cfg->answer_bytes = 512 * 1024;
	cfg->cold_games = 16;
	/* Generous for people and their clients (a few requests a second),
	 * tight enough that one address cannot flood the single request
	 * thread; tests and benchmarks raise or disable them. */
	cfg->rate_ip_per_s = 50;
	cfg->rate_ip_burst = 200;
	cfg->rate_token_per_s = 10;
	cfg->rate_token_burst = 30;
	/* A household or an office behind one address registers a few
	 * players; a script does not register thousands. */
	cfg->register_per_hour = 20;
	/* Each booking or cancellation reaches every correspondence game of
	 * the player in one transaction: a few a day is what a person needs. */
	cfg->vacation_changes_per_day = 10;
	/* Loopback is the reverse proxy (whose own limits apply per client)
	 * or a local benchmark. */
	cfg->rate_exempt = xstrdup("127.0.0.1 ::1");
}

int config_engine_games(const struct server_config *cfg)
{
	if (cfg->engine_games)
		return cfg->engine_games;
	return CONFIG_ENGINE_GAMES_PER_PROCESS * (cfg->engine_processes > 0 ? cfg->engine_processes : 1);
}

void config_fini(struct server_config *cfg)
{
	free(cfg->listen);
	free(cfg->db);
	free(cfg->node);
	free(cfg->engine);
	free(cfg->tablebases);
	free(cfg->rate_exempt);
	free(cfg->backup);
	memset(cfg, 0, sizeof *cfg);
}

static int parse_num(const char *key, const char *value, long long lo, long long hi, long long *out, char **errmsg)
{
	char *end;
	errno = 0;
	long long v = strtoll(value, &end, 10);
	if (errno || end == value || *end || v < lo || v > hi) {
		*errmsg = xasprintf("%s: expected an integer from %lld to %lld, got \"%s\"", key, lo, hi, value);
		return -1;
	}
	*out = v;
	return 0;
}

static void set_str(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

int config_set(struct server_config *cfg, const char *key, const char *value, char **errmsg)
{
	long long v;
	if (!strcmp(key, "listen"))
		set_str(&cfg->listen, value);
	else if (!strcmp(key, "db"))
		set_str(&cfg->db, value);
	else if (!strcmp(key, "node")) {
		/* It names a row and appears in logs: short, plain characters. */
		size_t n = strlen(value);
		if (n == 0 || n > 63 ||
		    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") != n) {
			*errmsg = xasprintf("node: expected 1 to 63 letters, digits, '.', '_', ':' or '-', got \"%s\"",
					    value);
			return -1;
		}
		set_str(&cfg->node, value);
	} else if (!strcmp(key, "engine"))
		set_str(&cfg->engine, value);
	else if (!strcmp(key, "tablebases"))
		set_str(&cfg->tablebases, value);
	else if (!strcmp(key, "poll_timeout_ms")) {
		if (parse_num(key, value, 10, 600000, &v, errmsg))
			return -1;
		cfg->poll_timeout_ms = v;
	} else if (!strcmp(key, "max_connections")) {
		if (parse_num(key, value, 1, 1000000, &v, errmsg))
			return -1;
		cfg->max_connections = (unsigned)v;
	} else if (!strcmp(key, "connection_memory")) {
		if (parse_num(key, value, 4096, 1 << 20, &v, errmsg))
			return -1;
		cfg->connection_memory = (size_t)v;
	} else if (!strcmp(key, "connection_timeout_s")) {
		if (parse_num(key, value, 1, 3600, &v, errmsg))
			return -1;
		cfg->connection_timeout_s = (unsigned)v;
	} else if (!strcmp(key, "header_timeout_s")) {
		if (parse_num(key, value, 0, 3600, &v, errmsg))
			return -1;
		cfg->header_timeout_s = (unsigned)v;
	} else if (!strcmp(key, "ipv6_prefix")) {
		if (parse_num(key, value, 16, 128, &v, errmsg))
			return -1;
		cfg->ipv6_prefix = (unsigned)v;
	} else if (!strcmp(key, "max_body")) {
		if (parse_num(key, value, 256, 16 << 20, &v, errmsg))
			return -1;
		cfg->max_body = (size_t)v;
	} else if (!strcmp(key, "per_ip_connections")) {
		if (parse_num(key, value, 0, 1000000, &v, errmsg))
			return -1;
		cfg->per_ip_connections = (unsigned)v;
	} else if (!strcmp(key, "drain_timeout_ms")) {
		if (parse_num(key, value, 0, 600000, &v, errmsg))
			return -1;
		cfg->drain_timeout_ms = v;
	} else if (!strcmp(key, "engine_processes")) {
		if (parse_num(key, value, 0, 16, &v, errmsg))
			return -1;
		cfg->engine_processes = (int)v;
	} else if (!strcmp(key, "engine_nice")) {
		if (parse_num(key, value, 0, 19, &v, errmsg))
			return -1;
		cfg->engine_nice = (int)v;
	} else if (!strcmp(key, "vacation_changes_per_day")) {
		if (parse_num(key, value, 0, 1000, &v, errmsg))
			return -1;
		cfg->vacation_changes_per_day = v;
	} else if (!strcmp(key, "engine_games")) {
		if (parse_num(key, value, 1, 100000, &v, errmsg))
			return -1;
		cfg->engine_games = (int)v;
	} else if (!strcmp(key, "engine_games_per_player")) {
		if (parse_num(key, value, 1, 1000, &v, errmsg))
			return -1;
		cfg->engine_games_per_player = (int)v;
	} else if (!strcmp(key, "notes_per_game")) {
		if (parse_num(key, value, 1, 1000, &v, errmsg))
			return -1;
		cfg->notes_per_game = (int)v;
	} else if (!strcmp(key, "notes_per_player")) {
		if (parse_num(key, value, 1, 1000, &v, errmsg))
			return -1;
		cfg->notes_per_player = (int)v;
	} else if (!strcmp(key, "answer_bytes")) {
		if (parse_num(key, value, 16384, 16 * 1024 * 1024, &v, errmsg))
			return -1;
		cfg->answer_bytes = (size_t)v;
	} else if (!strcmp(key, "cold_games")) {
		if (parse_num(key, value, 1, 1024, &v, errmsg))
			return -1;
		cfg->cold_games = (int)v;
	} else if (!strcmp(key, "list_limit")) {
		if (parse_num(key, value, 1, 1000, &v, errmsg))
			return -1;
		cfg->list_limit = (int)v;
	} else if (!strcmp(key, "test_clock")) {
		/* Test-only: enables POST /v1/test/clock, which moves the
		 * server's wall clock forward. Never on in production. */
		if (!strcmp(value, "on"))
			cfg->test_clock = true;
		else if (!strcmp(value, "off"))
			cfg->test_clock = false;
		else {
			*errmsg = xasprintf("test_clock: expected \"on\" or \"off\", got \"%s\"", value);
			return -1;
		}
	} else if (!strcmp(key, "max_game_minutes")) {
		if (parse_num(key, value, 0, 525600, &v, errmsg))
			return -1;
		cfg->max_game_ms = v * 60000;
	} else if (!strcmp(key, "max_game_ms")) {
		if (parse_num(key, value, 0, 525600LL * 60000, &v, errmsg))
			return -1;
		cfg->max_game_ms = v;
	} else if (!strcmp(key, "aborted_retention_ms")) {
		if (parse_num(key, value, 0, 86400000, &v, errmsg))
			return -1;
		cfg->aborted_retention_ms = v;
	} else if (!strcmp(key, "seek_grace_ms")) {
		if (parse_num(key, value, 0, 86400000, &v, errmsg))
			return -1;
		cfg->seek_grace_ms = v;
	} else if (!strcmp(key, "seek_max_age_ms")) {
		if (parse_num(key, value, 0, 31536000000LL, &v, errmsg))
			return -1;
		cfg->seek_max_age_ms = v;
	} else if (!strcmp(key, "events_per_ply")) {
		if (parse_num(key, value, 0, 100000, &v, errmsg))
			return -1;
		cfg->events_per_ply = (int)v;
	} else if (!strcmp(key, "open_games_per_player")) {
		if (parse_num(key, value, 0, 100000, &v, errmsg))
			return -1;
		cfg->open_games_per_player = (int)v;
	} else if (!strcmp(key, "disconnect_grace_ms")) {
		if (parse_num(key, value, 0, 3600000, &v, errmsg))
			return -1;
		cfg->grace_ms = v;
	} else if (!strcmp(key, "first_move_timeout_ms")) {
		if (parse_num(key, value, 0, 86400000, &v, errmsg))
			return -1;
		cfg->first_move_ms = v;
	} else if (!strcmp(key, "evict_idle_s")) {
		if (parse_num(key, value, 0, 31536000, &v, errmsg))
			return -1;
		cfg->evict_idle_ms = v * 1000;
	} else if (!strcmp(key, "max_url")) {
		if (parse_num(key, value, 64, 65536, &v, errmsg))
			return -1;
		cfg->max_url = (size_t)v;
	} else if (!strcmp(key, "rate_ip_per_s")) {
		if (parse_num(key, value, 0, 1000000, &v, errmsg))
			return -1;
		cfg->rate_ip_per_s = v;
	} else if (!strcmp(key, "rate_ip_burst")) {
		if (parse_num(key, value, 1, 1000000, &v, errmsg))
			return -1;
		cfg->rate_ip_burst = v;
	} else if (!strcmp(key, "rate_token_per_s")) {
		if (parse_num(key, value, 0, 1000000, &v, errmsg))
			return -1;
		cfg->rate_token_per_s = v;
	} else if (!strcmp(key, "rate_token_burst")) {
		if (parse_num(key, value, 1, 1000000, &v, errmsg))
			return -1;
		cfg->rate_token_burst = v;
	} else if (!strcmp(key, "register_per_hour")) {
		if (parse_num(key, value, 0, 1000000, &v, errmsg))
			return -1;
		cfg->register_per_hour = v;
	} else if (!strcmp(key, "backup")) {
		set_str(&cfg->backup, value);
	} else if (!strcmp(key, "rate_exempt")) {
		set_str(&cfg->rate_exempt, value);
	} else if (!strcmp(key, "read_only")) {
		if (!strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "1"))
			cfg->read_only = true;
		else if (!strcmp(value, "false") || !strcmp(value, "no") || !strcmp(value, "0"))
			cfg->read_only = false;
		else {
			*errmsg = xasprintf("read_only: expected true or false, got \"%s\"", value);
			return -1;
		}
	} else if (!strcmp(key, "sync_delay_ms")) {
		if (parse_num(key, value, 0, 10000, &v, errmsg))
			return -1;
		cfg->sync_delay_ms = v;
	} else if (!strcmp(key, "test_answer_delay_ms")) {
		if (parse_num(key, value, 0, 10000, &v, errmsg))
			return -1;
		cfg->test_answer_delay_ms = v;
	} else if (!strcmp(key, "sync")) {
		if (!strcmp(value, "full"))
			cfg->sync_full = true;
		else if (!strcmp(value, "normal"))
			cfg->sync_full = false;
		else {
			*errmsg = xasprintf("sync: expected \"full\" or \"normal\", got \"%s\"", value);
			return -1;
		}
	} else {
		*errmsg = xasprintf("unknown setting \"%s\"", key);
		return -1;
	}
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

int config_load(struct server_config *cfg, const char *path, char **errmsg)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		*errmsg = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	char line[1024];
	int lineno = 0, rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			*errmsg = xasprintf("%s:%d: expected \"key = value\"", path, lineno);
			rc = -1;
			break;
		}
		*eq = '\0';
		char *msg = NULL;
		if (config_set(cfg, trim(s), trim(eq + 1), &msg)) {
			*errmsg = xasprintf("%s:%d: %s", path, lineno, msg);
			free(msg);
			rc = -1;
		}
	}
	fclose(f);
	return rc;
}
