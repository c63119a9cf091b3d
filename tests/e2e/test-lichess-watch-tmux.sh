#!/usr/bin/env bash
# End-to-end test of spectating a Lichess game (tchess watch on its URL,
# or --lichess and its id) with the real tchess against the scripted
# Lichess (tests/lichess/fake-lichess.py, tests/e2e/lichess/watch.json)
# on loopback: the public stream (GET /api/stream/game/ID, no token) gives
# the game's description (players, clock, the position now), a position
# already shown (clocks only), then each move as a position with the move
# that made it (pushed by the test), then the description with the result,
# and the stream ends. Checked on the screen (80x24 tmux) and in the
# request log: the players and clock, the moves from the position the
# stream started at, the result, the one stream without Authorization
# when no token is kept, and a bad id refused without a request.
# No test contacts lichess.org. Every wait polls with a deadline.
# Skips (exit 77) without tmux, python3 or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3 curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-watch

start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/watch.json"
lichess_config guest
public() { curl -s -X POST "$lichess_url/_test/public/watc0001" -d "$1" >/dev/null; }

# 1. Its URL, no token kept.
start_session w guest watch "$lichess_url/watc0001/black"
check "watch: the game opens" w "Carol" 20
check "watch: both players" w "Dave"
check "watch: as a spectator" w "watching watc0001"
check "watch: the clock" w "5+3"
lichess_log_wait '"GET"' '"/api/stream/game/watc0001"' '"auth": ""' &&
	ok "watch: the public stream, without a token" || fail "watch: no public stream request"
public '[{"fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b", "lm": "g1f3", "wc": 295, "bc": 300},
	{"fen": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w", "lm": "b8c6", "wc": 295, "bc": 290}]'
check "watch: the moves as they come" w "2. Nf3      Nc6"
check "watch: Black's clock from the line" w "4:50"
public '[{"fen": "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b", "lm": "f1c4", "wc": 290, "bc": 290},
	{"id": "watc0001", "variant": {"key": "standard"}, "speed": "blitz", "rated": true,
	 "fen": "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b", "status": {"id": 31, "name": "resign"},
	 "winner": "white", "players": {"white": {"user": {"name": "Carol"}}, "black": {"user": {"name": "Dave"}}}}]'
check "watch: the result" w "1-0"
check "watch: in words" w "White wins: Black resigned"
lichess_log_wait '"event": "server-closed"' '"/api/stream/game/watc0001"' && ok "watch: the stream ended with the game" ||
	fail "watch: the stream did not end"
[ "$(lichess_requests GET /api/stream/game/watc0001)" = 1 ] && ok "watch: one stream, not reopened after the end" ||
	fail "watch: streams: $(lichess_requests GET /api/stream/game/watc0001)"
keys w q
check "watch: tchess says how it ended" w "Lichess game watc0001: 1-0" 10

# 2. Bad ids.
before=$(wc -l <"$tmp/lichess.log")
XDG_CONFIG_HOME="$tmp/guest" "$TCHESS" watch --lichess 'wat;0001' 2>"$tmp/err"
[ $? = 2 ] && grep -q "is not a Lichess game (its 8-letter id or its URL)" "$tmp/err" && ok "watch: a bad id is refused" ||
	fail "watch bad id: $(cat "$tmp/err")"
XDG_CONFIG_HOME="$tmp/guest" "$TCHESS" watch https://lichess.org/ 2>"$tmp/err"
[ $? = 2 ] && ok "watch: a URL without a game is refused" || fail "watch URL: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/lichess.log")" = "$before" ] && ok "watch: without a request" || fail "watch: a bad id asked Lichess"

lichess_check_agent
e2e_finish "lichess watch: ok"
