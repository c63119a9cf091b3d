/*
 * Test harness for tchessd: starts the real binary (path in $TCHESSD) on
 * 127.0.0.1 port 0 with a temporary SQLite file and config, reads the port
 * it prints, and talks HTTP to it with libcurl. Waiting is always on an
 * event with a deadline, never a bare sleep.
 *
 * Under tests/server/with-postgresql (meson test --setup postgresql), the
 * store is instead a new database of that throwaway PostgreSQL cluster per
 * tchessd_start, dropped by tchessd_cleanup.
 */
#ifndef TCHESS_TESTS_SERVER_HARNESS_H
#define TCHESS_TESTS_SERVER_HARNESS_H

#include <check.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tchess/protocol.h"
#include "util/buf.h"

struct tchessd {
	pid_t pid;
	int port;
	char dir[256];   /* temporary folder holding the db and config */
	char db[512];    /* --db: DIR/t.db, or a PostgreSQL URI */
	char base[64];   /* "http://127.0.0.1:PORT" */
	char level[16];  /* --log-level; "" for $TCHESSD_LOG_LEVEL or warn */
	bool log_file;   /* stderr goes to DIR/tchessd.log (appended) */
};

/* Creates the temporary folder and writes config (may be NULL) as the
 * config file, after "engine_processes = 0" (so config must set it to have
 * engine seats); then starts tchessd. Fails the test if it does not come up
 * within 10 s. */
void tchessd_start(struct tchessd *d, const char *config);
/* The same at log level (e.g. "debug"), with tchessd's standard error
 * appended to DIR/tchessd.log for the test to read. */
void tchessd_start_logged(struct tchessd *d, const char *config, const char *level);
/* Another tchessd on first's database (PostgreSQL: a node beside it),
 * with a folder and config of its own; tchessd_cleanup of it must not drop
 * the database while first runs (clear its db). */
void tchessd_start_node(struct tchessd *d, const struct tchessd *first, const char *config);
/* The same at log level, standard error appended to DIR/tchessd.log. */
void tchessd_start_node_logged(struct tchessd *d, const struct tchessd *first, const char *config, const char *level);
/* The whole of a file that must be there (caller frees). */
char *file_slurp(const char *path);
/* Whether DIR/tchessd.log (a tchessd started logged) holds text now. */
bool tchessd_log_has(const struct tchessd *d, const char *text);
/* Starts tchessd again on the same folder (db and config). */
void tchessd_restart(struct tchessd *d);
/* The same on a full disk: no file of tchessd's may grow past its first
 * byte (RLIMIT_FSIZE, failing as ENOSPC does) until the test gives it room
 * (prlimit on d->pid). Not on PostgreSQL, whose files are the cluster's. */
void tchessd_restart_disk_full(struct tchessd *d);
/* Sends SIGTERM and returns the exit status (as waitpid's), failing the test
 * if it takes more than 10 s. */
int tchessd_stop(struct tchessd *d);
/* Removes the temporary folder (and drops the PostgreSQL database). */
void tchessd_cleanup(struct tchessd *d);
/* Moves the server's test clock (config "test_clock = on") forward by ms
 * (POST /v1/test/clock, expecting 200). */
void tchessd_advance(struct tchessd *d, int64_t ms);
/* Whether tchessd runs on PostgreSQL (TCHESS_TEST_PG_HOST is set): the
 * few cases about SQLite's file say so and return. */
bool tchessd_postgresql(void);
/* The main() of a test that runs only on the test PostgreSQL cluster:
 * without one, says so and returns 77 (skipped); else runs the n tests as
 * one case named name with timeout seconds each and returns 0 if all
 * passed, 1 if not. */
int harness_main_postgresql(const char *name, int timeout, const TTest *const *tests, size_t n);

/* One request; returns the status and fills *body (caller frees) if asked.
 * token may be NULL; body NULL means no request body. */
long http_call(struct tchessd *d, const char *method, const char *path, const char *token, const char *body,
	       size_t body_len, char **out);
/* The same with a raw header line instead of a token ("Authorization: ..."). */
long http_call_header(struct tchessd *d, const char *method, const char *path, const char *header, char **out);

/* Registers name; returns the player id and copies the token (65 bytes). */
int64_t register_player(struct tchessd *d, const char *name, char *token);
/* Creates an open 5+3 game with token's player as white; copies its id
 * (33 bytes). */
void create_game(struct tchessd *d, const char *token, char *id);
/* Creates a game with the given POST /v1/games request (expecting 201);
 * copies its id and returns the seq of the answer. */
int64_t create_game_with(struct tchessd *d, const char *token, const char *request, char *id);
/* token's player joins game (POST /v1/games/ID/join with "{}"), expecting
 * 200. */
void join_game(struct tchessd *d, const char *game, const char *token);
/* The game as a client folds it from nothing (v not initialised): GET
 * events?after=0 answers every event, or for a log longer than the
 * server's ring a resync snapshot (tchess-protocol(7)); either way v ends
 * at the game's seq, with the vacations the answer carries (a
 * correspondence game's). token may be NULL (a spectator). */
struct game_view;
void fold_game(struct tchessd *d, const char *game, const char *token, struct game_view *v);
/* The number of parked polls according to GET /v1/health. */
int64_t parked_polls(struct tchessd *d);

/* A long-poll running on a curl multi handle. */
struct poll_req {
	CURLM *multi;
	CURL *easy;
	struct curl_slist *headers;
	struct buf body;
	long status;
	bool done;
	int64_t started_ms;
	int64_t ended_ms;
};

void poll_start(struct poll_req *p, struct tchessd *d, const char *game, int64_t after, const char *token);
/* Drives the transfer for up to ms; returns whether it finished. */
bool poll_run(struct poll_req *p, int ms);
/* Waits until at least n polls are parked on the server (driving p), with a
 * deadline of 10 s; fails the test otherwise. */
void poll_wait_parked(struct poll_req *p, struct tchessd *d, int64_t n);
void poll_fini(struct poll_req *p);

int64_t mono_ms(void);

/* A long-poll of game after seq as token's player, on a raw socket, once
 * the server counts one more poll parked (10 s at most): for a client that
 * goes without a word. raw_park returns the socket, raw_hang_up resets
 * it (SO_LINGER 0: no goodbye but a RST). raw_park_child parks it in a
 * child process that then waits to be killed, as a tchess is by kill -9
 * (the kernel closes its socket); returns the child's pid. */
int raw_park(struct tchessd *d, const char *game, int64_t after, const char *token);
void raw_hang_up(int fd);
pid_t raw_park_child(struct tchessd *d, const char *game, int64_t after, const char *token);
/* Waits until the server counts at most n polls parked (10 s at most);
 * returns how long that took, in ms. */
int64_t wait_parked_at_most(struct tchessd *d, int64_t n);

/* Raw HTTP over a loopback socket, for requests libcurl would not send. */
/* A connected socket to the server, from local address from (NULL: any). */
int dial(struct tchessd *d, const char *from);
/* Sends all of data, stopping quietly if the server closes. */
void send_all(int fd, const char *data, size_t len);
/* Reads until the server closes, needle (if not NULL) has arrived or ms
 * pass; returns the bytes (malloc'd) and sets *closed. */
char *read_until(int fd, int ms, const char *needle, bool *closed);
char *read_all(int fd, int ms, bool *closed);
/* Sends one raw request on a new connection and reads until the server
 * closes or 5 s pass; returns the status (0 if none came), the response
 * text in *out if asked (caller frees). */
int raw_request(struct tchessd *d, const char *from, const char *req, size_t len, char **out);

/* Members of a parsed JSON answer; each fails the test when the member is
 * missing or of another type. */
const char *jstr(const cJSON *o, const char *name);
int64_t jint(const cJSON *o, const char *name);
double jnum(const cJSON *o, const char *name);
const cJSON *jobj(const cJSON *o, const char *name);

/* One game on its own tchessd, the setup of the game tests: alice created
 * it as white, bob joined as black, carol is registered and holds no seat
 * (a spectator). */
struct table {
	struct tchessd d;
	char alice[PROTOCOL_TOKEN_MAX + 1], bob[PROTOCOL_TOKEN_MAX + 1], carol[PROTOCOL_TOKEN_MAX + 1];
	int64_t a, b, c; /* their player ids */
	char game[PROTOCOL_GAME_ID_MAX + 1];
	int64_t seq;     /* where table_wait_event goes on from */
};

/* Starts tchessd with config (as tchessd_start), registers the three and
 * makes the game with extra, more members of the create request after
 * "color":"white" ("" for none). */
void table_open(struct table *t, const char *config, const char *extra);
/* Stops tchessd, expecting exit status 0, and removes its folder. */
void table_close(struct table *t);
/* METHOD /v1/games/ID/what with body (NULL for none) as token (NULL for
 * nobody); returns the status and the answer (caller frees). */
long table_command(struct table *t, const char *method, const char *what, const char *token, const char *body,
		   char **out);
/* A POST command expected to succeed (200, a list of events); returns how
 * many events it answered. */
size_t table_ok(struct table *t, const char *what, const char *token, const char *body);
/* A POST command expected to fail with status want and an error whose
 * message holds needle (NULL: any message). */
void table_refused(struct table *t, const char *what, const char *token, const char *body, long want,
		   const char *needle);
/* The game's snapshot as token sees it (NULL: a spectator); caller
 * deletes. */
cJSON *table_snapshot(struct table *t, const char *token);
/* Long-polls as a spectator (no token: a spectator is nobody's presence)
 * from t->seq until an event of type comes, within 10 s; returns its data
 * with "seq" and "t_ms" added (caller deletes) and moves t->seq past it. */
cJSON *table_wait_event(struct table *t, const char *type);

#endif
