/*
 * The node channel's thread: batches of what this node tells, and what
 * it hears handed to the game service (cluster.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "game-service.h"
#include "ratelimit.h"
#include "server.h"
#include "store.h"
#include "util/log.h"
#include "util/now.h"
#include "util/xalloc.h"

struct cluster {
	struct server *srv;
	struct store_channel *ch; /* used by the thread only */
	char node[STORE_NAME_MAX * 2 + 1];
	pthread_t thread;
	bool started;
	/* Under the server lock: */
	bool stop;
	char *out; /* entries queued since the last send, each followed by ' ' */
	size_t out_len, out_cap;
	int wake[2]; /* the thread's wake-up: written when out stops being empty */
	/* The nodes alive, in name order (under the server lock); none
	 * known yet: n_members 0. */
	char (*members)[STORE_NODE_MAX + 1];
	int n_members;
	/* Messages heard and entries applied, and the events folded from
	 * the messages and read from the store, for the log at the end. */
	uint64_t sent, heard, applied, from_message, from_store;
};

struct cluster *cluster_new(struct server *srv, char **errmsg)
{
	*errmsg = NULL;
	if (!store_shared(srv->store))
		return NULL;
	struct cluster *c = xcalloc(1, sizeof *c);
	c->srv = srv;
	snprintf(c->node, sizeof c->node, "%s", store_node(srv->store));
	if (pipe(c->wake)) {
		*errmsg = xasprintf("cluster: pipe: %s", strerror(errno));
		free(c);
		return NULL;
	}
	for (int i = 0; i < 2; i++)
		fcntl(c->wake[i], F_SETFL, fcntl(c->wake[i], F_GETFL) | O_NONBLOCK);
	c->ch = store_channel_open(srv->store, errmsg);
	if (!c->ch) {
		close(c->wake[0]);
		close(c->wake[1]);
		free(c);
		return NULL;
	}
	return c;
}

static void queue(struct cluster *c, const char *entry)
{
	if (!c || c->stop)
		return;
	size_t len = strlen(entry);
	if (c->out_len + len + 2 > c->out_cap) {
		c->out_cap = c->out_cap ? 2 * c->out_cap + len : 4096;
		c->out = xrealloc(c->out, c->out_cap);
	}
	bool was_empty = c->out_len == 0;
	memcpy(c->out + c->out_len, entry, len);
	c->out_len += len;
	c->out[c->out_len++] = ' ';
	c->out[c->out_len] = '\0';
	if (was_empty) {
		char b = 1;
		if (write(c->wake[1], &b, 1) < 0 && errno != EAGAIN)
			log_error("cluster: waking the channel's thread: %s", strerror(errno));
	}
}

void cluster_tell_events(struct cluster *c, const char *id, int64_t seq)
{
	char e[STORE_GAME_ID_MAX + 24];
	snprintf(e, sizeof e, "%s:%lld", id, (long long)seq);
	queue(c, e);
}

void cluster_tell_event(struct cluster *c, const struct store_event *ev)
{
	if (!c)
		return;
	size_t plen = strlen(ev->payload);
	char head[STORE_GAME_ID_MAX + 128];
	int hlen = snprintf(head, sizeof head, "%s=%lld,%lld,%lld,%s,%zu:", ev->game_id, (long long)ev->seq,
			    (long long)ev->visible_to, (long long)ev->created_ms, ev->type, plen);
	/* With the node's name and the entry that covers it, in one message. */
	if (hlen < 0 || (size_t)hlen >= sizeof head || (size_t)hlen + plen + STORE_NODE_MAX + 64 > STORE_CHANNEL_MAX)
		return;
	char *e = xmalloc((size_t)hlen + plen + 1);
	memcpy(e, head, (size_t)hlen);
	memcpy(e + hlen, ev->payload, plen + 1);
	queue(c, e);
	free(e);
}

void cluster_tell_seen(struct cluster *c, const char *id, int color)
{
	char e[STORE_GAME_ID_MAX + 4];
	snprintf(e, sizeof e, "%s+%c", id, color ? 'b' : 'w');
	queue(c, e);
}

void cluster_tell_erased(struct cluster *c, const char *id)
{
	char e[STORE_GAME_ID_MAX + 2];
	snprintf(e, sizeof e, "%s!", id);
	queue(c, e);
}

static bool id_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z');
}

/* The length of the entry at e (of len bytes): an event's runs to the end
 * of its payload, whose length it says; any other to the next space. */
static size_t entry_len(const char *e, size_t len)
{
	size_t k = 0;
	while (k < len && id_char(e[k]))
		k++;
	if (k < len && e[k] == '=') {
		const char *colon = memchr(e + k, ':', len - k);
		const char *comma = colon ? colon : NULL;
		while (comma && comma > e && comma[-1] != ',')
			comma--;
		if (colon && comma > e + k) {
			size_t plen = (size_t)strtoull(comma, NULL, 10), at = (size_t)(colon + 1 - e);
			return plen <= len - at ? at + plen : len;
		}
	}
	const char *sp = memchr(e, ' ', len);
	return sp ? (size_t)(sp - e) : len;
}

/* Sends entries (each followed by ' ') in messages of at most
 * STORE_CHANNEL_MAX bytes, cut between entries. */
static void send_entries(struct cluster *c, const char *entries, size_t len)
{
	char msg[STORE_CHANNEL_MAX + 1];
	size_t head = (size_t)snprintf(msg, sizeof msg, "%s|", c->node);
	size_t n = head;
	for (size_t at = 0; at < len;) {
		size_t elen = entry_len(entries + at, len - at);
		if (n > head && n + 1 + elen > STORE_CHANNEL_MAX) {
			msg[n] = '\0';
			if (store_channel_send(c->ch, msg) == 0)
				c->sent++;
			n = head;
		}
		if (n + 1 + elen <= STORE_CHANNEL_MAX) {
			if (n > head)
				msg[n++] = ' ';
			memcpy(msg + n, entries + at, elen);
			n += elen;
		}
		at += elen + 1;
	}
	if (n > head) {
		msg[n] = '\0';
		if (store_channel_send(c->ch, msg) == 0)
			c->sent++;
	}
}

/* What one message brings: its events (in the copy of its text, which
 * holds their strings) and the games' seqs. */
struct heard {
	char *buf;                /* the message's text, cut into strings */
	struct store_event *evs;  /* its events, in order */
	size_t n_evs, run;        /* run: the first event not yet covered by an "ID:SEQ" */
	struct game_told *told;
	size_t n_told;
};

/* The events since the last "ID:SEQ" of the message, if they are all
 * of game id (the entry that covers them). */
static void take_run(struct heard *h, struct game_told *t)
{
	t->events = NULL;
	t->n_events = 0;
	size_t n = h->n_evs - h->run;
	for (size_t i = h->run; i < h->n_evs; i++) {
		if (strcmp(h->evs[i].game_id, t->id))
			n = 0;
	}
	if (n) {
		t->events = &h->evs[h->run];
		t->n_events = n;
	}
	h->run = h->n_evs;
}

/* An event entry (at offset at of the message, len bytes):
 * "ID=SEQ,VISIBLE_TO,T_MS,TYPE,LEN:PAYLOAD". */
static bool heard_event(struct heard *h, size_t at, size_t len)
{
	char *e = h->buf + at, *end = e + len;
	char *eq = memchr(e, '=', len), *colon = eq ? memchr(eq, ':', (size_t)(end - eq)) : NULL;
	if (!eq || !colon || eq == e || eq - e > STORE_GAME_ID_MAX)
		return false;
	*eq = '\0';
	*colon = '\0';
	struct store_event ev = { .game_id = e };
	char *f = eq + 1, *type = NULL;
	for (int i = 0; i < 4; i++) {
		char *comma = strchr(f, ',');
		if (!comma)
			return false;
		*comma = '\0';
		if (i == 0)
			ev.seq = strtoll(f, NULL, 10);
		else if (i == 1)
			ev.visible_to = strtoll(f, NULL, 10);
		else if (i == 2)
			ev.created_ms = strtoll(f, NULL, 10);
		else
			type = f;
		f = comma + 1;
	}
	size_t plen = (size_t)strtoull(f, NULL, 10);
	if (ev.seq <= 0 || !type[0] || (size_t)(end - (colon + 1)) != plen)
		return false;
	ev.type = type;
	ev.payload = colon + 1;
	*end = '\0';
	h->evs[h->n_evs++] = ev;
	return true;
}

/* One entry heard from another node, with the lock held: a seat seen or
 * a game erased is applied at once, a game's seq (with its events in the
 * message) kept in h to be read with the others'. */
static void apply(struct cluster *c, const char *e, size_t len, size_t at, struct heard *h)
{
	char id[STORE_GAME_ID_MAX + 1];
	size_t idlen = 0;
	while (idlen < len && idlen < STORE_GAME_ID_MAX && id_char(e[idlen]))
		idlen++;
	if (idlen == 0 || idlen == len)
		return;
	memcpy(id, e, idlen);
	id[idlen] = '\0';
	struct game_service *gs = c->srv->games;
	const char *rest = e + idlen;
	size_t rlen = len - idlen;
	if (rest[0] == '=') {
		if (!heard_event(h, at, len))
			return;
	} else if (rest[0] == ':' && rlen > 1) {
		int64_t seq = strtoll(rest + 1, NULL, 10);
		if (seq <= 0)
			return;
		struct game_told *t = &h->told[h->n_told++];
		memcpy(t->id, id, idlen + 1);
		t->seq = seq;
		take_run(h, t);
	} else if (rest[0] == '+' && rlen == 2 && (rest[1] == 'w' || rest[1] == 'b')) {
		game_service_remote_seen(gs, id, rest[1] == 'b');
	} else if (rest[0] == '!' && rlen == 1) {
		game_service_remote_erased(gs, id);
	} else {
		return;
	}
	c->applied++;
}

static void on_message(void *arg, const char *text)
{
	struct cluster *c = arg;
	const char *bar = strchr(text, '|');
	if (!bar || ((size_t)(bar - text) == strlen(c->node) && !strncmp(text, c->node, (size_t)(bar - text))))
		return;
	c->heard++;
	const char *body = bar + 1;
	size_t len = strlen(body);
	/* At most one entry per two bytes of the message. */
	size_t cap = len / 2 + 1;
	struct heard h = { .buf = xmalloc(len + 1),
			   .evs = xmalloc(cap * sizeof *h.evs),
			   .told = xmalloc((cap + 1) * sizeof *h.told) };
	memcpy(h.buf, body, len + 1);
	pthread_mutex_lock(&c->srv->lock);
	for (size_t at = 0; at < len;) {
		size_t elen = entry_len(body + at, len - at);
		if (elen)
			apply(c, body + at, elen, at, &h);
		at += elen;
		while (at < len && body[at] == ' ')
			at++;
	}
	/* Events whose covering entry went in the next message (cut there):
	 * durable all the same. */
	if (h.run < h.n_evs) {
		struct game_told *t = &h.told[h.n_told];
		snprintf(t->id, sizeof t->id, "%s", h.evs[h.n_evs - 1].game_id);
		t->seq = h.evs[h.n_evs - 1].seq;
		take_run(&h, t);
		if (t->n_events)
			h.n_told++;
	}
	/* The games' events: one read for the whole message, of what it did
	 * not bring. */
	if (h.n_told)
		game_service_remote_events(c->srv->games, h.told, h.n_told, &c->from_message, &c->from_store);
	pthread_mutex_unlock(&c->srv->lock);
	free(h.buf);
	free(h.evs);
	free(h.told);
}

static void tell_parked(void *arg, const char *id, int color)
{
	cluster_tell_seen(arg, id, color);
}

bool cluster_owns(const struct cluster *c, const char *id)
{
	if (!c || c->n_members == 0)
		return true;
	int best = 0;
	uint64_t top = cluster_score(c->members[0], id);
	for (int i = 1; i < c->n_members; i++) {
		uint64_t v = cluster_score(c->members[i], id);
		if (v > top) {
			top = v;
			best = i;
		}
	}
	return !strcmp(c->members[best], c->node);
}

bool cluster_alone(const struct cluster *c)
{
	return !c || (c->n_members == 1 && !strcmp(c->members[0], c->node));
}

/* Reads who is alive; when that changed, the games' owners move (with
 * the lock: game_service_owners_changed). */
static void check_members(struct cluster *c)
{
	char (*m)[STORE_NODE_MAX + 1] = xcalloc(CLUSTER_NODES_MAX, sizeof *m);
	int n = store_channel_members(c->ch, CLUSTER_NODE_TTL_MS, m, CLUSTER_NODES_MAX);
	if (n < 0) {
		free(m);
		return;
	}
	pthread_mutex_lock(&c->srv->lock);
	bool same = n == c->n_members;
	for (int i = 0; same && i < n; i++)
		same = !strcmp(m[i], c->members[i]);
	if (!same) {
		free(c->members);
		c->members = m;
		m = NULL;
		c->n_members = n;
		log_info("cluster: %d nodes alive", n);
		/* A client's requests spread over the nodes: each node lets
		 * through its share of the per-address and per-token limits
		 * (tchessd(8), RATE LIMITS). */
		ratelimit_share(c->srv->rate_ip, (unsigned)n);
		ratelimit_share(c->srv->rate_token, (unsigned)n);
		game_service_owners_changed(c->srv->games);
	}
	pthread_mutex_unlock(&c->srv->lock);
	free(m);
}

static void *cluster_main(void *arg)
{
	struct cluster *c = arg;
	/* The first pass reads who is alive at once. */
	int64_t next_presence = now_mono_ms();
	bool resync = true;
	for (;;) {
		pthread_mutex_lock(&c->srv->lock);
		if (resync)
			game_service_remote_resync(c->srv->games);
		resync = false;
		bool tick = now_mono_ms() >= next_presence;
		if (tick) {
			game_service_parked_seats(c->srv->games, tell_parked, c);
			next_presence = now_mono_ms() + CLUSTER_PRESENCE_MS;
		}
		bool stop = c->stop;
		char *out = c->out;
		size_t len = c->out_len;
		c->out = NULL;
		c->out_len = c->out_cap = 0;
		pthread_mutex_unlock(&c->srv->lock);
		if (len)
			send_entries(c, out, len);
		free(out);
		if (stop)
			break;
		if (tick)
			check_members(c);
		int64_t wait = next_presence - now_mono_ms();
		int rc = store_channel_wait(c->ch, c->wake[0], wait < 0 ? 0 : (int)wait, on_message, c);
		char drain[64];
		while (read(c->wake[0], drain, sizeof drain) > 0)
			;
		if (rc == 1)
			resync = true;
	}
	return NULL;
}

int cluster_start(struct cluster *c)
{
	if (!c)
		return 0;
	/* Who is alive is known before the first request is served (the
	 * reads of a node alone keep their cache: game-registry.c). */
	check_members(c);
	if (pthread_create(&c->thread, NULL, cluster_main, c))
		return -1;
	c->started = true;
	log_info("cluster: node %s listening to the other nodes", c->node);
	return 0;
}

void cluster_free(struct cluster *c)
{
	if (!c)
		return;
	if (c->started) {
		pthread_mutex_lock(&c->srv->lock);
		c->stop = true;
		char b = 1;
		if (write(c->wake[1], &b, 1) < 0 && errno != EAGAIN)
			log_error("cluster: waking the channel's thread: %s", strerror(errno));
		pthread_mutex_unlock(&c->srv->lock);
		pthread_join(c->thread, NULL);
	}
	log_info("cluster: %llu messages sent, %llu heard, %llu entries applied; of the other nodes' events, %llu "
		 "folded from their messages, %llu read from the store",
		 (unsigned long long)c->sent, (unsigned long long)c->heard, (unsigned long long)c->applied,
		 (unsigned long long)c->from_message, (unsigned long long)c->from_store);
	store_channel_close(c->ch);
	close(c->wake[0]);
	close(c->wake[1]);
	free(c->out);
	free(c->members);
	free(c);
}
