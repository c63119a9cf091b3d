/*
 * tchessd's settings: defaults, overridden by a --config file of
 * "key = value" lines, overridden by command-line options. The keys are
 * listed in tchessd(8).
 */
#ifndef TCHESS_SERVER_CONFIG_H
#define TCHESS_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server_config {
	char *listen;     /* "ADDR:PORT" */
	char *db;         /* SQLite file, or a PostgreSQL connection URI */
	char *node;       /* this node's name (--node); NULL: host name:pid */
	char *engine;     /* UCI engine binary; NULL: engine_find_default() */
	char *tablebases; /* tablebase folders ("gaviota:DIR,syzygy:DIR", "DIR", "none"); NULL: Debian's, if present */
	int engine_processes;       /* engine pool size; 0: no engine seats */
	int engine_nice;            /* added to the engines' nice value */
	int engine_games;           /* unfinished engine games at most, in all; 0: config_engine_games */
	int engine_games_per_player; /* and of one player */
	int64_t poll_timeout_ms;    /* how long a long-poll stays parked */
	unsigned max_connections;   /* MHD connection limit */
	size_t connection_memory;   /* MHD per-connection memory (headers) */
	unsigned connection_timeout_s; /* idle / slow-loris timeout */
	unsigned header_timeout_s;  /* a request's line and headers must all arrive within this; 0: none */
	unsigned ipv6_prefix;       /* per-address limits group IPv6 addresses by this prefix (bits) */
	size_t max_body;            /* request bodies past this get 413 */
	unsigned per_ip_connections; /* 0: no per-address limit; rate_exempt addresses are free of it */
	int64_t drain_timeout_ms;   /* how long SIGTERM waits for requests */
	bool sync_full;             /* no command acknowledged before an fsync covers it (group commit) */
	bool read_only;             /* open the database read-only: reads only */
	int64_t sync_delay_ms;      /* testing aid: the syncer waits this long before each fsync */
	int64_t test_answer_delay_ms; /* testing aid: encoding a read's answer takes at least this long */
	int list_limit;             /* games in GET /v1/games */
	/* Notes (issue 12 item 1): all of one game's, before and after its
	 * end, and one player's in a game while it runs. */
	int notes_per_game, notes_per_player;
	size_t answer_bytes;        /* an events answer stops before an event that would take it past this */
	int cold_games;             /* games read while out of memory, kept replayed for the next read */
	bool test_clock;            /* test-only: POST /v1/test/clock moves the wall clock */
	/* Game actions (tchessd(8)): */
	int64_t max_game_ms;          /* max_game_minutes: wall-clock limit of a game; 0 none */
	int64_t aborted_retention_ms; /* how long an aborted game stays before it is erased */
	int64_t seek_grace_ms;        /* an open seek goes this long after its creator was last seen; 0 never */
	int64_t seek_max_age_ms;      /* an open seek goes at this age; 0 never */
	int open_games_per_player;    /* a player's games waiting for an opponent; 0 no limit */
	int events_per_ply;           /* a seat's events in one ply that do not end the game; 0 no limit */
	int64_t grace_ms;             /* disconnect_grace_ms: overrides the ruleset's; 0 keeps it */
	int64_t first_move_ms;        /* first_move_timeout_ms: overrides the ruleset's; 0 keeps it */
	int64_t evict_idle_ms;        /* evict_idle_s: a game idle this long leaves memory; 0 never */
	size_t max_url;             /* longer request paths get 414 */
	int64_t rate_ip_per_s;      /* per-address token bucket; 0: no limit */
	int64_t rate_ip_burst;
	char *rate_exempt;          /* addresses (space-separated) free of the per-address limit */
	char *backup;               /* where SIGUSR1 writes a copy of the database; NULL: DB.backup */
	int64_t rate_token_per_s;   /* per-token bucket for commands; 0: no limit */
	int64_t rate_token_burst;
	int64_t register_per_hour;  /* registrations per address group an hour; 0: no limit */
	int64_t vacation_changes_per_day; /* bookings and cancellations of one player; 0: no limit */
};

/* Fills cfg with the defaults (strings NULL). */
/* The default of engine_games per engine process: a level-8 move takes an
 * engine a second, and every one of these games may ask at once (an
 * engine that moves first does), so a player's engine waits about this
 * many seconds at most in the queue (issue 12 item 3: with 32 games on two
 * engines the wait was 15 s). */
#define CONFIG_ENGINE_GAMES_PER_PROCESS 4

void config_init(struct server_config *cfg);
/* The engine_games limit in force: the setting, or by default
 * CONFIG_ENGINE_GAMES_PER_PROCESS per engine process. */
int config_engine_games(const struct server_config *cfg);
void config_fini(struct server_config *cfg);
/* Applies one "key" = "value" setting; -1 with *errmsg (caller frees) if the
 * key is unknown or the value out of range. */
int config_set(struct server_config *cfg, const char *key, const char *value, char **errmsg);
/* Reads a config file: "key = value" lines, '#' comments, blank lines. */
int config_load(struct server_config *cfg, const char *path, char **errmsg);

#endif
