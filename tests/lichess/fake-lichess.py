#!/usr/bin/env python3
"""A scripted Lichess Board API server on loopback, for the tests.

It speaks HTTP/1.1 with chunked NDJSON streams as lichess.org does, follows
the published API's shapes (lichess-org/api, doc/specs), keeps each game's
state (moves, clocks, offers, status) and answers the Board API's commands
by changing it and sending the next gameState to every open stream of the
game. A transcript (JSON) scripts what cannot be derived: the games, how
each stream connection goes (lines, keep-alives, delays, chunks cut down to
one byte, stalls, closes, a refusal), the opponent's answers to moves and
offers, and refusals of any request (429, 400, 401, 403, 404). Every request
and every stream closed by the client is recorded, one JSON object a line,
for the tests' assertions.

    fake-lichess.py --transcript FILE --log FILE --port-file FILE [--port N]

Transcript:
  {"token": "lip_x", "user": "alice",         the one token it accepts
   "keepalive_ms": 7000,                        between keep-alives
   "games": {"ID": {"full": {gameFull without state},
                    "state": {gameState members}, "me": "white",
                    "on_move": {"e2e4": [STEP...]},    after my move
                    "on_draw": [STEP...], "on_takeback": [STEP...],
                    "listed": true}},                  in /api/account/playing
   "streams": {"GET /api/board/game/stream/ID": [CONNECTION...]},
   "refuse": [{"method": "POST", "path": "/api/...", "status": 429,
               "body": {...}, "times": 1}],
   "events": [STEP...]}                         the event stream's lines
A CONNECTION is {"status": 200, "body": {...}, "steps": [STEP...],
"follow": true}; the last one is used again for later connections.
STEP is one of {"full": true} (the game's gameFull now), {"line": {...}},
{"raw": "text"}, {"keepalive": N}, {"sleep_ms": N}, {"chunk": N} (cut what
follows into N-byte chunks), {"close": true}, {"wait": "POST /api/..."}
(until such a request arrived), {"state": {...}} (change the game and send
the gameState; "move": "e7e5" plays a move, "takeback": N takes N back),
{"gone": {...}}, {"chat": {...}}.  The game of a stream is the ID in its path.

A seek (POST /api/board/seek) is answered with keep-alives until the client
closes it (its "client-closed" event logged at the next keep-alive); POST
/api/challenge/ai answers 201 with the transcript's "ai_game" (a game of
"games").

POST /api/challenge/NAME (not "ai") is a challenge: with keepAliveStream
it is held open as a stream whose first line is the challenge
({"id": the transcript's "challenge_ids"[name in lower case], or
"outgoing"}, its status, challenger, destUser, timeControl) and which ends
with {"done": WORD} when the test says so; without it, the challenge is
answered at once.

OAuth (authorization code with PKCE, as the browser sees it): GET /oauth
checks its parameters (response_type=code, a client_id,
code_challenge_method=S256, a 43-character code_challenge, scope
board:play, a state, a redirect_uri on http://127.0.0.1:PORT/) and
answers 302 to redirect_uri?code=CODE&state=STATE (the transcript's
"oauth": {"deny": true} sends error=access_denied instead, "wrong_state":
true another state); POST /api/token (form: grant_type=authorization_code,
code, code_verifier, redirect_uri, client_id) gives "oauth_token" once per
code, when base64url(SHA-256(code_verifier)) is the code's challenge and
redirect_uri and client_id are the same; else 400 invalid_grant. The
oauth_token is accepted as the token from then on.

Test control (not Lichess): POST /_test/step/ID with a JSON list of STEPs
runs them on the game at once; POST /_test/event with a JSON object sends
it as a line to every open event stream (a gameStart, a challenge); POST
/_test/challenge/ID/WORD ends the held challenge ID with {"done": WORD};
POST /_test/oauth with a JSON object sets the transcript's "oauth"; POST
/_test/public/ID with a JSON list of lines sends them on every open
public stream of game ID (GET /api/stream/game/ID, scripted under
"streams" like any other; a line with a final "status" ends the stream).
"""

import argparse
import base64
import hashlib
import json
import queue
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

T0 = time.monotonic()


def now_ms():
    return int((time.monotonic() - T0) * 1000)


class World:
    def __init__(self, transcript, log_path):
        self.t = transcript
        self.lock = threading.Condition()
        self.log = open(log_path, "a", buffering=1)
        self.requests = []
        self.games = {}
        for gid, g in transcript.get("games", {}).items():
            st = {"type": "gameState", "moves": "", "wtime": 300000, "btime": 300000,
                  "winc": 0, "binc": 0, "status": "started"}
            st.update(g.get("state", {}))
            self.games[gid] = {"spec": g, "state": st, "subs": [], "clock_at": time.monotonic()}
        self.connections = {}
        self.event_subs = []
        self.challenge_subs = {}
        self.public_subs = {}
        self.codes = {}
        self.n_codes = 0
        self.tokens = set([transcript["token"]] if transcript.get("token") else [])
        self.refuse = [dict(r) for r in transcript.get("refuse", [])]

    def record(self, obj):
        obj["t_ms"] = now_ms()
        with self.lock:
            self.requests.append(obj)
            self.log.write(json.dumps(obj) + "\n")
            self.lock.notify_all()

    def wait_request(self, what, since, deadline):
        method, path = what.split(" ", 1)
        with self.lock:
            while True:
                for r in self.requests[since:]:
                    if r.get("method") == method and r.get("path") == path:
                        return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)

    # ---- games ----
    def state_line(self, gid):
        g = self.games[gid]
        st = dict(g["state"])
        # The running clock charged up to now, as Lichess reports it.
        n = len(st["moves"].split())
        if st["status"] == "started" and n >= 2 and not g["spec"].get("frozen_clock"):
            side = "wtime" if n % 2 == 0 else "btime"
            used = int((time.monotonic() - g["clock_at"]) * 1000)
            st[side] = max(0, st[side] - used)
        for k in ("wdraw", "bdraw", "wtakeback", "btakeback"):
            if not st.get(k):
                st.pop(k, None)
        return st

    def full_line(self, gid):
        g = self.games[gid]
        full = {"type": "gameFull", "id": gid, "variant": {"key": "standard", "name": "Standard", "short": "Std"},
                "speed": "rapid", "perf": {"name": "Rapid"}, "rated": False, "createdAt": 1700000000000,
                "initialFen": "startpos", "clock": {"initial": 300000, "increment": 0}}
        full.update(g["spec"].get("full", {}))
        full["state"] = self.state_line(gid)
        return full

    def charge(self, gid):
        g = self.games[gid]
        st = g["state"]
        n = len(st["moves"].split())
        if st["status"] == "started" and n >= 2 and not g["spec"].get("frozen_clock"):
            side = "wtime" if n % 2 == 0 else "btime"
            used = int((time.monotonic() - g["clock_at"]) * 1000)
            st[side] = max(0, st[side] - used)
            inc = "winc" if side == "wtime" else "binc"
            st[side] += st.get(inc, 0)
        g["clock_at"] = time.monotonic()

    def change(self, gid, ch):
        g = self.games[gid]
        st = g["state"]
        if "move" in ch:
            self.charge(gid)
            st["moves"] = (st["moves"] + " " + ch["move"]).strip()
            for k in ("wdraw", "bdraw", "wtakeback", "btakeback"):
                st.pop(k, None)
        if "takeback" in ch:
            mv = st["moves"].split()
            st["moves"] = " ".join(mv[:len(mv) - int(ch["takeback"])])
            st.pop("wtakeback", None)
            st.pop("btakeback", None)
            g["clock_at"] = time.monotonic()
        for k, v in ch.items():
            if k not in ("move", "takeback"):
                if v is None:
                    st.pop(k, None)
                else:
                    st[k] = v
        self.broadcast(gid, self.state_line(gid))

    def broadcast(self, gid, obj):
        for q in list(self.games[gid]["subs"]):
            q.put(obj)

    def run_steps(self, gid, steps):
        for s in steps:
            if "sleep_ms" in s:
                time.sleep(s["sleep_ms"] / 1000)
                continue
            with self.lock:
                self.run_step(gid, s)

    def run_step(self, gid, s):
        if True:
            if "state" in s:
                self.change(gid, s["state"])
            elif "line" in s:
                self.broadcast(gid, s["line"])
            elif "gone" in s:
                line = {"type": "opponentGone"}
                line.update(s["gone"])
                self.broadcast(gid, line)
            elif "chat" in s:
                line = {"type": "chatLine", "room": "player"}
                line.update(s["chat"])
                self.broadcast(gid, line)

    def react(self, gid, steps):
        if steps:
            threading.Thread(target=self.run_steps, args=(gid, steps), daemon=True).start()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-lichess"

    def log_message(self, fmt, *args):
        pass

    @property
    def world(self):
        return self.server.world

    def send_json(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_one(self, method):
        u = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        auth = self.headers.get("Authorization", "")
        w = self.world
        index = len(w.requests)
        w.record({"method": method, "path": u.path, "query": u.query, "body": body, "auth": auth,
                  "ua": self.headers.get("User-Agent", "")})
        if u.path == "/_test/event":
            with w.lock:
                for q in list(w.event_subs):
                    q.put(json.loads(body))
            return self.send_json(200, {"ok": True})
        if u.path == "/oauth" and method == "GET":
            return self.oauth_authorize(parse_qs(u.query))
        if u.path == "/api/token" and method == "POST" and not auth:
            return self.oauth_token(parse_qs(body))
        if u.path.startswith("/_test/public/"):
            gid = u.path.rsplit("/", 1)[1]
            with w.lock:
                for q in list(w.public_subs.get(gid, [])):
                    for line in json.loads(body or "[]"):
                        q.put(line)
            return self.send_json(200, {"ok": True})
        if u.path == "/_test/oauth":
            w.t["oauth"] = json.loads(body or "{}")
            return self.send_json(200, {"ok": True})
        if u.path.startswith("/_test/challenge/"):
            _, _, _, cid, word = u.path.split("/")
            with w.lock:
                q = w.challenge_subs.get(cid)
            if q is None:
                return self.send_json(404, {"error": "no such held challenge"})
            q.put({"done": word})
            return self.send_json(200, {"ok": True})
        if u.path.startswith("/_test/step/"):
            gid = u.path.rsplit("/", 1)[1]
            w.run_steps(gid, json.loads(body or "[]"))
            return self.send_json(200, {"ok": True})
        for r in w.refuse:
            if r.get("times", 1) > 0 and r["method"] == method and r["path"] == u.path:
                r["times"] = r.get("times", 1) - 1
                return self.send_json(r["status"], r.get("body", {"error": "refused"}))
        public = method == "GET" and u.path.startswith("/api/stream/game/")
        if w.tokens and not public and not any(auth == "Bearer " + t for t in list(w.tokens)):
            return self.send_json(401, {"error": "No such token"})
        key = method + " " + u.path
        parts = u.path.strip("/").split("/")
        if method == "POST" and len(parts) == 3 and parts[:2] == ["api", "challenge"] and parts[2] != "ai":
            return self.challenge(parts[2], parse_qs(body), index)
        if key in w.t.get("streams", {}) or u.path.startswith("/api/board/game/stream/") \
                or u.path == "/api/stream/event" or u.path == "/api/board/seek":
            return self.stream(key, u.path, index)
        return self.api_command(method, u.path, parse_qs(u.query), body)

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")

    def do_DELETE(self):
        self.handle_one("DELETE")

    # ---- commands ----
    def api_command(self, method, path, query, body):
        w = self.world
        parts = path.strip("/").split("/")
        user = w.t.get("user", "alice")
        if path == "/api/account":
            return self.send_json(200, {"id": user.lower(), "username": user})
        if path == "/api/token/test":
            return self.send_json(200, {body: {"userId": user.lower(), "scopes": "board:play", "expires": None}})
        if path == "/api/token" and method == "DELETE":
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/api/account/playing":
            playing = []
            with w.lock:
                for gid, g in w.games.items():
                    if g["state"]["status"] in ("created", "started") and g["spec"].get("listed", True):
                        playing.append({"gameId": gid, "fullId": gid + "abcd", "color": g["spec"].get("me", "white"),
                                        "isMyTurn": True, "opponent": {"username": "bob"}})
            return self.send_json(200, {"nowPlaying": playing})
        if len(parts) >= 5 and parts[:3] == ["api", "board", "game"] and method == "POST":
            gid = parts[3]
            if gid not in w.games:
                return self.send_json(404, {"error": "No such game"})
            return self.game_command(gid, parts[4:], query, body)
        if path == "/api/challenge/ai" and method == "POST":
            gid = w.t.get("ai_game")
            if not gid:
                return self.send_json(400, {"error": "No AI here"})
            return self.send_json(201, {"id": gid, "variant": {"key": "standard"}, "speed": "rapid",
                                        "rated": False, "status": {"name": "started"}})
        if path.startswith("/api/challenge/"):
            return self.send_json(200, {"ok": True})
        if path.startswith("/api/games/user/") and method == "GET":
            # A user's games as PGN: the transcript's "export_pgn" (a list
            # of lines) for the token's user, 404 for anyone else.
            if parts[3].lower() != user.lower():
                return self.send_json(404, {"error": "Not found"})
            body = "\n".join(w.t.get("export_pgn", [])).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-chess-pgn")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        return self.send_json(404, {"error": "Not found"})

    def game_command(self, gid, rest, query, body=""):
        w = self.world
        g = w.games[gid]
        spec = g["spec"]
        me = spec.get("me", "white")
        c = me[0]
        o = "b" if c == "w" else "w"
        with w.lock:
            st = g["state"]
            over = st["status"] not in ("created", "started")
            n = len(st["moves"].split())
            my_turn = (n % 2 == 0) == (me == "white")
        what = rest[0]
        if what == "chat":
            # The player room's line comes back on the game's streams.
            form = parse_qs(body)
            self.send_json(200, {"ok": True})
            with w.lock:
                w.broadcast(gid, {"type": "chatLine", "username": w.t.get("user", "alice"),
                                  "text": form.get("text", [""])[0], "room": form.get("room", ["player"])[0]})
            return
        if over:
            return self.send_json(400, {"error": "Game over"})
        if what == "move":
            uci = rest[1] if len(rest) > 1 else ""
            if not my_turn:
                return self.send_json(400, {"error": "Not your turn, or game already over"})
            self.send_json(200, {"ok": True})
            change = {"move": uci}
            if query.get("offeringDraw", ["false"])[0] == "true":
                change[c + "draw"] = True
            with w.lock:
                w.change(gid, change)
            w.react(gid, spec.get("on_move", {}).get(uci, []))
            return
        self.send_json(200, {"ok": True})
        with w.lock:
            if what == "resign":
                w.change(gid, {"status": "resign", "winner": "black" if me == "white" else "white"})
            elif what == "abort":
                w.change(gid, {"status": "aborted"})
            elif what == "claim-victory":
                w.change(gid, {"status": "timeout", "winner": me})
            elif what == "draw":
                if rest[1] == "yes" and st.get(o + "draw"):
                    w.change(gid, {"status": "draw", o + "draw": None})
                elif rest[1] == "yes":
                    w.change(gid, {c + "draw": True})
                    w.react(gid, spec.get("on_draw", []))
                else:
                    w.change(gid, {o + "draw": None, c + "draw": None})
            elif what == "takeback":
                if rest[1] == "yes" and st.get(o + "takeback"):
                    w.change(gid, {"takeback": 1 if my_turn else 2})
                elif rest[1] == "yes":
                    w.change(gid, {c + "takeback": True})
                    w.react(gid, spec.get("on_takeback", []))
                else:
                    w.change(gid, {o + "takeback": None})

    def oauth_authorize(self, q):
        w = self.world
        one = {k: v[0] for k, v in q.items()}
        problems = []
        if one.get("response_type") != "code":
            problems.append("response_type")
        if not one.get("client_id"):
            problems.append("client_id")
        if one.get("code_challenge_method") != "S256":
            problems.append("code_challenge_method")
        if len(one.get("code_challenge", "")) != 43:
            problems.append("code_challenge")
        if "board:play" not in one.get("scope", "").split(" "):
            problems.append("scope")
        if not one.get("state"):
            problems.append("state")
        redirect = one.get("redirect_uri", "")
        if not redirect.startswith("http://127.0.0.1:"):
            problems.append("redirect_uri")
        if problems:
            return self.send_json(400, {"error": "invalid_request", "error_description": " ".join(problems)})
        spec = w.t.get("oauth", {})
        state = one["state"] + ("x" if spec.get("wrong_state") else "")
        if spec.get("deny"):
            loc = "%s?error=access_denied&error_description=user+cancelled&state=%s" % (redirect, state)
        else:
            with w.lock:
                w.n_codes += 1
                code = "code%d" % w.n_codes
                w.codes[code] = {"challenge": one["code_challenge"], "redirect_uri": redirect,
                                 "client_id": one["client_id"]}
            loc = "%s?code=%s&state=%s" % (redirect, code, state)
        self.send_response(302)
        self.send_header("Location", loc)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def oauth_token(self, form):
        w = self.world
        one = {k: v[0] for k, v in form.items()}
        with w.lock:
            c = w.codes.pop(one.get("code", ""), None)
        verifier = one.get("code_verifier", "")
        s256 = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        bad = (c is None or one.get("grant_type") != "authorization_code" or not 43 <= len(verifier) <= 128
               or s256 != c["challenge"] or one.get("redirect_uri") != c["redirect_uri"]
               or one.get("client_id") != c["client_id"])
        if bad:
            return self.send_json(400, {"error": "invalid_grant", "error_description": "bad code or verifier"})
        tok = w.t["oauth_token"]
        with w.lock:
            w.tokens.add(tok)
        return self.send_json(200, {"token_type": "Bearer", "access_token": tok, "expires_in": 31536000})

    def challenge(self, name, form, index):
        w = self.world
        user = w.t.get("user", "alice")
        cid = w.t.get("challenge_ids", {}).get(name.lower(), "outgoing")
        limit = int(form.get("clock.limit", ["600"])[0])
        inc = int(form.get("clock.increment", ["0"])[0])
        ch = {"id": cid, "url": "https://lichess.org/" + cid, "status": "created",
              "challenger": {"id": user.lower(), "name": user, "rating": 1500},
              "destUser": {"id": name.lower(), "name": name, "rating": 1500},
              "variant": {"key": "standard", "name": "Standard", "short": "Std"},
              "rated": form.get("rated", ["false"])[0] == "true", "speed": "rapid",
              "timeControl": {"type": "clock", "limit": limit, "increment": inc,
                              "show": "%d+%d" % (limit // 60, inc)},
              "color": form.get("color", ["random"])[0], "perf": {"name": "Rapid"}}
        if form.get("keepAliveStream", ["false"])[0] != "true":
            return self.send_json(200, ch)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        q = queue.Queue()
        with w.lock:
            w.challenge_subs[cid] = q
        path = "/api/challenge/" + name
        try:
            data = (json.dumps(ch) + "\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
            ka = w.t.get("keepalive_ms", 7000) / 1000
            while True:
                try:
                    obj = q.get(timeout=ka)
                except queue.Empty:
                    self.wfile.write(b"1\r\n\n\r\n")
                    self.wfile.flush()
                    continue
                data = (json.dumps(obj) + "\n").encode()
                self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data))
                self.wfile.flush()
                w.record({"event": "server-closed", "path": path})
                return
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            w.record({"event": "client-closed", "path": path})
            self.close_connection = True
        finally:
            with w.lock:
                if w.challenge_subs.get(cid) is q:
                    del w.challenge_subs[cid]

    # ---- streams ----
    def stream(self, key, path, index):
        w = self.world
        conns = w.t.get("streams", {}).get(key)
        with w.lock:
            n = w.connections.get(key, 0)
            w.connections[key] = n + 1
        gid = path.rsplit("/", 1)[1] if path.startswith("/api/board/game/stream/") else None
        if conns:
            conn = conns[min(n, len(conns) - 1)]
        elif gid:
            conn = {"steps": [{"full": True}]}
        elif path == "/api/stream/event":
            conn = {"steps": w.t.get("events", [])}
        else:
            conn = {"steps": []}
        if gid and gid not in w.games and conn.get("status", 200) == 200:
            return self.send_json(404, {"error": "No such game"})
        status = conn.get("status", 200)
        if status != 200:
            return self.send_json(status, conn.get("body", {"error": "refused"}))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        q = queue.Queue()
        if gid:
            with w.lock:
                w.games[gid]["subs"].append(q)
        elif path == "/api/stream/event":
            with w.lock:
                w.event_subs.append(q)
        pub = path.rsplit("/", 1)[1] if path.startswith("/api/stream/game/") else None
        if pub:
            with w.lock:
                w.public_subs.setdefault(pub, []).append(q)
        chunk = [0]

        def write(data):
            b = data.encode()
            size = chunk[0] or len(b)
            for i in range(0, len(b), size):
                part = b[i:i + size]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.flush()

        def line(obj):
            write(json.dumps(obj) + "\n")
            w.record({"event": "sent", "path": path, "type": obj.get("type", ""),
                      "moves": obj.get("moves", obj.get("state", {}).get("moves"))})

        try:
            for s in conn.get("steps", []):
                if "full" in s:
                    with w.lock:
                        full = w.full_line(gid)
                    line(full)
                elif "line" in s:
                    line(s["line"])
                elif "raw" in s:
                    write(s["raw"])
                elif "keepalive" in s:
                    for _ in range(s["keepalive"]):
                        write("\n")
                elif "sleep_ms" in s:
                    time.sleep(s["sleep_ms"] / 1000)
                elif "chunk" in s:
                    chunk[0] = s["chunk"]
                elif "close" in s:
                    w.record({"event": "server-closed", "path": path})
                    self.close_connection = True
                    return
                elif "wait" in s:
                    w.wait_request(s["wait"], index, time.monotonic() + 60)
                elif gid and any(k in s for k in ("state", "gone", "chat")):
                    with w.lock:
                        w.run_steps(gid, [s])
            if not conn.get("follow", True):
                self.wfile.write(b"0\r\n\r\n")
                w.record({"event": "server-closed", "path": path})
                return
            ka = w.t.get("keepalive_ms", 7000) / 1000
            while True:
                try:
                    obj = q.get(timeout=ka)
                except queue.Empty:
                    write("\n")
                    continue
                line(obj)
                st = obj.get("status") if obj.get("type") == "gameState" else None
                if pub and isinstance(obj.get("status"), dict):
                    st = obj["status"].get("name")
                if st and st not in ("created", "started"):
                    self.wfile.write(b"0\r\n\r\n")
                    w.record({"event": "server-closed", "path": path})
                    return
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            w.record({"event": "client-closed", "path": path})
            self.close_connection = True
        finally:
            with w.lock:
                if gid and q in w.games[gid]["subs"]:
                    w.games[gid]["subs"].remove(q)
                if q in w.event_subs:
                    w.event_subs.remove(q)
                if pub and q in w.public_subs.get(pub, []):
                    w.public_subs[pub].remove(q)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--transcript", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--port", type=int, default=0)
    a = ap.parse_args()
    with open(a.transcript) as f:
        transcript = json.load(f)
    srv = Server(("127.0.0.1", a.port), Handler)
    srv.world = World(transcript, a.log)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    import os
    os.rename(tmp, a.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
