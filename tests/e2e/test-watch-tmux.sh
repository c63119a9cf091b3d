#!/usr/bin/env bash
# End-to-end test of a client far behind: a real tchessd from the build
# tree, a game of 90 plies played through the HTTP API (each move picked
# from "tchess perft --divide 1" of the position the server answered, so
# the game is the same every run), then "tchess watch" opened on it in an
# 80x24 tmux session. Its first poll is far behind, so tchessd answers with
# the game's snapshot (a resync; tchess-protocol(7)); the screen must show
# the whole move list and whose move it is, and the moves played after it
# must reach it as events.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init watch

# The players are curl: no long-poll keeps their seats present.
printf 'rate_token_per_s = 0\nengine_processes = 0\ndisconnect_grace_ms = 600000\n' >"$tmp/tchessd.conf"
start_server 127.0.0.1:0 --config "$tmp/tchessd.conf" --log-level debug
for who in white black; do register_player "$who" "${who}_p"; done
mkdir -p "$tmp/watch"
token_w=$(sed -n "s/^token = //p" "$tmp/white/tchess/token")
token_b=$(sed -n "s/^token = //p" "$tmp/black/tchess/token")

# api TOKEN METHOD PATH [BODY]: the answer's body. The players speak from
# 127.0.0.2, the spectator from 127.0.0.1 (section 3 limits only it).
api() {
	curl -s --interface 127.0.0.2 -X "$2" -H "Authorization: Bearer $1" ${4:+-d "$4"} "$url$3"
}

id=$(api "$token_w" POST /v1/games '{"tc":"30+0","color":"white"}' | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
[ -n "$id" ] && ok "game created" || { fail "no game id"; exit 1; }
api "$token_b" POST "/v1/games/$id/join" '{}' >/dev/null
# Both seats present: the clocks start.
api "$token_w" GET "/v1/games/$id/events?after=0" >/dev/null
api "$token_b" GET "/v1/games/$id/events?after=0" >/dev/null

# play PLY: the move picked for PLY in the current position ($fen), sent
# by the side to move; sets $fen and $san from the answer's move event.
fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
play() {
	local ply=$1 token=$token_w moves n uci answer
	[ $((ply % 2)) -eq 1 ] && token=$token_b
	moves=$("$TCHESS" perft --divide 1 "$fen" | sed -n 's/^\([a-h][1-8][a-h][1-8][nbrq]*\): 1$/\1/p')
	n=$(printf '%s\n' "$moves" | wc -l)
	uci=$(printf '%s\n' "$moves" | sed -n "$(((ply * 7 + 3) % n + 1))p")
	answer=$(api "$token" POST "/v1/games/$id/moves" "{\"ply\":$ply,\"move\":\"$uci\"}")
	fen=$(printf '%s' "$answer" | sed -n 's/.*"type":"move"[^}]*"fen":"\([^"]*\)".*/\1/p')
	san=$(printf '%s' "$answer" | sed -n 's/.*"type":"move"[^}]*"san":"\([^"]*\)".*/\1/p')
	[ -n "$fen" ] || { fail "move $uci at ply $ply: $answer"; exit 1; }
}
for ply in $(seq 0 89); do play "$ply"; done
ok "90 plies played through the API (last: $san)"
last=$san

# The spectator starts far behind: one resync answer brings it level.
start_session s watch watch "$id" --server "$url"
check "spectator sees the game" s "spectating: White to move" 20
check "the last move of the snapshot is listed" s "45. "
check "with its SAN" s "$last"
grep -q "resync from 0 to" "$tmp/log" && ok "tchessd answered with a snapshot" ||
	fail "no resync in tchessd's log"

# Moves after the snapshot arrive as events.
play 90
check "a move after the snapshot reaches the spectator" s "46. $san"
check "black to move" s "spectating: Black to move"

# 3. The server comes back with a tight limit on the spectator's address
# (2 requests at once, 1 a second): moves in quick succession make its
# polls answer 429; it waits as told (Retry-After) and catches up.
kill_server
check "the spectator notices" s "reconnecting" 15
printf 'rate_token_per_s = 0\nengine_processes = 0\ndisconnect_grace_ms = 600000\n' >"$tmp/tight.conf"
printf 'rate_ip_per_s = 1\nrate_ip_burst = 2\nrate_exempt = 127.0.0.2\n' >>"$tmp/tight.conf"
start_server "127.0.0.1:$port" --config "$tmp/tight.conf" --log-level debug
check "the spectator is back" s "online" 20
for ply in $(seq 91 98); do play "$ply"; done
check "the spectator catches up after being told to wait" s "50. $san" 30
check "spectator still sees whose move" s "spectating: Black to move"
if grep -q "/events 429 " "$tmp/log"; then ok "its polls were answered 429 on the way"; else fail "no 429 in the log"; fi
absent "no give-up message" s "cannot follow"

keys s q
check "watch exits" s "tchess-exit-0"
e2e_finish "watch from far behind: all checks passed"
