/*
 * What home.c (the home screen's model) shares with home-lichess.c (its
 * rows, keys and requests on Lichess, tchess --lichess).
 */
#ifndef TCHESS_CLIENT_HOME_INTERNAL_H
#define TCHESS_CLIENT_HOME_INTERNAL_H

#include "home.h"

void home_say(struct home *h, bool error, const char *text);
void home_queue(struct home *h, const struct home_req *r);
void home_open(struct home *h, const char *id, int color, const char *note);
/* The server's refusal of what (or the network's error), said. */
unsigned home_refused(struct home *h, const char *what, int status, const char *body, size_t len);

/* home-history.c: the recent (finished) games' rows after "Your games",
 * their requests and answers. */
void home_recent_refresh(struct home *h);
int home_recent_rows(const struct home *h);
enum home_row_kind home_recent_row(const struct home *h, int row, size_t *index);
void home_recent_heading(const struct home *h, char *buf, size_t size);
void home_recent_row_text(const struct home *h, size_t i, char *buf, size_t size);
/* Enter (review) or e (export) on recent game i. */
unsigned home_recent_open(struct home *h, size_t i, bool review);
void home_recent_req_http(const struct home_req *r, const char **method, char *path, size_t size);
unsigned home_recent_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len);

/* home-lobby.c: the open seeks (seeks true) and the live games of
 * others, as rows: a blank, a heading, the games. */
bool home_lobby_shown(const struct home *h, size_t i, bool seeks);
size_t home_lobby_count(const struct home *h, bool seeks);
int home_lobby_rows(const struct home *h, bool seeks);
enum home_row_kind home_lobby_row(const struct home *h, int row, bool seeks, size_t *index);
void home_lobby_heading(const struct home *h, bool seeks, char *buf, size_t size);
/* Game i's row (i -1: the column names), its columns fitted to the
 * screen's width. */
void home_lobby_row_text(const struct home *h, long i, bool seek, char *buf, size_t size);
/* The seek and invite form: opened for action a, closed, its rows, the
 * selected setting changed, and the game asked for (its values saved). */
void home_form_open(struct home *h, enum home_action a);
void home_form_close(struct home *h);
int home_form_rows(const struct home *h);
enum home_row_kind home_form_row(const struct home *h, int row, size_t *index);
void home_form_row_text(const struct home *h, int row, char *buf, size_t size);
unsigned home_form_change(struct home *h, int step);
void home_form_submit(struct home *h);

/* home-lichess.c: the same calls as home.h's, for h->lichess. */
int home_lx_rows(const struct home *h);
enum home_row_kind home_lx_row(const struct home *h, int row, size_t *index);
void home_lx_row_text(const struct home *h, int row, char *buf, size_t size);
void home_lx_status_text(const struct home *h, char *buf, size_t size);
struct home_cmd home_lx_key(const struct home *h, int key);
unsigned home_lx_activate(struct home *h, int row);
/* A command home_apply leaves to Lichess (its cancel, submit, settings),
 * or -1 when it is home_apply's own. */
int home_lx_apply(struct home *h, const struct home_cmd *c);
void home_lx_refresh(struct home *h);
void home_lx_req_http(const struct home_req *r, const char **method, char *path, size_t size, char **body);
unsigned home_lx_on_answer(struct home *h, const struct home_req *r, int status, const char *body, size_t len);

#endif
