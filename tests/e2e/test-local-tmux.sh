#!/usr/bin/env bash
# End-to-end test of the embedded server, the one tchessd a user's tchess
# commands share when no server is configured: a game against the engine
# started with "tchess play" is left, then exported, listed and rejoined
# by later commands, which start the server again on the same database;
# while one tchess uses the server another shares it (one tchessd, one
# record), and the last to leave stops it.
#
# Every wait polls the screen, the process table or a file with a
# deadline; nothing sleeps and hopes. Skips (exit 77) without tmux or
# without Stockfish (the engine seat).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
engine=""
for e in /usr/games/stockfish /usr/bin/stockfish /usr/local/bin/stockfish; do [ -x "$e" ] && engine=$e; done
if [ -z "$engine" ]; then echo "SKIP: stockfish is not installed"; exit 77; fi
e2e_init local

state="$tmp/state-solo/tchess"
mkdir -p "$tmp/solo"
# solo ARGS...: tchess as the user of the "solo" sessions, outside tmux.
solo() {
	env -i PATH="$PATH" HOME="$tmp" LANG=C.UTF-8 XDG_CONFIG_HOME="$tmp/solo" \
		XDG_STATE_HOME="$tmp/state-solo" TCHESS_TCHESSD="$TCHESSD" "$TCHESS" "$@" </dev/null
}
# servers: the pids of the tchessds serving the solo user's database.
servers() { pgrep -f -- "--db $state/tchess.db" | tr '\n' ' '; }
# wait_stopped NAME: no tchessd serves the database, before a deadline.
wait_stopped() {
	local deadline=$((SECONDS + 10))
	while [ -n "$(servers)" ] && [ $SECONDS -lt $deadline ]; do poll_pause; done
	if [ -z "$(servers)" ] && [ ! -e "$state/server" ]; then
		ok "$1"
	else
		fail "$1: still running: $(servers)"
	fi
}

# 1. A game against the engine on the embedded server; White moves, the
# engine answers.
start_session p solo play --vs engine:1 --color white --tc 10+0
check "the engine game opens" p "your move" 20
keys p / e 4 Enter
check "e4 is played" p "1. e4"
check "the engine answers" p "your move" 20
pids=$(servers)
case "$pids" in
*" "?*) fail "one tchessd: $pids" ;;
?*) ok "one embedded tchessd ($pids)" ;;
*) fail "no embedded tchessd" ;;
esac
if grep -q "^url = http://127.0.0.1:[0-9]*$" "$state/server" 2>/dev/null; then
	ok "the server's address is recorded beside the database"
else
	fail "no record in $state/server"
fi

# 2. While the game screen runs, "tchess games" shares its server.
out=$(solo games)
case "$out" in
*"* your move"*) ok "tchess games (no --server) lists the local game, your move" ;;
*) fail "tchess games: '$out'" ;;
esac
if [ "$(servers)" = "$pids" ]; then ok "tchess games used the running server"; else fail "servers now: $(servers)"; fi

# 3. Leave the game: the client says how to come back and, the last user
# gone, stops the server.
keys p m q
check "leave asks first" p "leave the game?"
keys p y
check "the client says how to come back" p "to come back"
check "tchess exits 0" p "tchess-exit-0"
id=$(printf '%s\n' "$screen" | sed -n 's/.*left game \([0-9a-f]*\) .*/\1/p' | head -1)
if [ -n "$id" ]; then ok "left game $id"; else fail "no game id on the screen"; show_screen; fi
wait_stopped "the last client stopped the embedded server"

# 4. After the client quit: export, list and rejoin, each starting the
# server again on the same database.
pgn=$(solo export "${id:0:8}")
case "$pgn" in
*"1. e4 "*) ok "tchess export (no --server) writes the local game's PGN" ;;
*) fail "tchess export: '$pgn'" ;;
esac
wait_stopped "tchess export stopped the server it started"
out=$(solo games)
case "$out" in
*"$id"*"playing   2       white vs engine"*"10+0"*"* your move"*) ok "tchess games lists the game after the client quit: move number, colour, opponent, time control, whose move" ;;
*) fail "tchess games after quitting: '$out'" ;;
esac
start_session r solo join "${id:0:8}"
check "tchess join takes the local game back" r "your move" 20
check "the rejoined board has the moves" r "1. e4"
keys r / d 4 Enter
check "a move in the rejoined game" r "2. d4"
keys r m q
check "leave the rejoined game" r "leave the game?"
keys r y
check "tchess join exits 0" r "tchess-exit-0"
wait_stopped "the server stopped after the rejoined game"

# 5. A wrong local id says so and starts nothing that stays.
out=$(solo export 00000000 2>&1); rc=$?
if [ $rc -eq 1 ] && [ -n "$out" ]; then ok "an unknown id is refused: $out"; else fail "unknown id: $rc '$out'"; fi
wait_stopped "nothing left running after a refusal"

e2e_finish "all local-server checks passed"
