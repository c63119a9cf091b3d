#!/usr/bin/env bash
# End-to-end test of issue 14 item 8, the opponent left: a real tchessd
# (its test clock on) on a loopback port, White and Black in 80x24 tmux
# sessions playing a chessgamble game (the ruleset whose disconnect gives
# the present player the win):
#   1. Black quits (m q y): White's status line says "opponent left —
#      claim victory in N s" at once (tchess told the server it leaves),
#      and N counts down: the text changes while White watches.
#   2. V before the instant claims nothing and says how long is left.
#   3. The server's clock moves past the grace (POST /v1/test/clock):
#      Black is recorded gone, and White's line reads "opponent left —
#      press V to claim victory"; V, y: White wins.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init left

printf 'test_clock = on\n' >"$tmp/test-clock.conf"
start_server 127.0.0.1:0 --config "$tmp/test-clock.conf"
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1 --ruleset chessgamble

# Both first moves, so no first-move limit runs; White is to move.
keys w1 / e4 Enter
check "black sees the first move" b1 "your move" 20
keys b1 / e5 Enter
check "white's turn again" w1 "your move" 20
absent "nobody has left yet" w1 "opponent left"

# 1. Black quits.
keys b1 m q
check "leaving asks first" b1 "leave the game?"
keys b1 y
check "black's tchess exits" b1 "tchess-exit-0"
check "white hears at once" w1 "opponent left — claim victory in" 5

left_countdown w1 10 15

# 2. Too early: nothing is claimed.
keys w1 V
check "V waits for the instant" w1 "your opponent left: you may claim victory in"

# 3. Past the grace on the server's clock: the claim.
if curl -sf -X POST -d '{"advance_ms":16000}' "$url/v1/test/clock" >/dev/null; then
	ok "the server's clock moved past the grace"
else
	fail "POST /v1/test/clock refused"
fi
check "the claim is offered" w1 "opponent left — press V to claim victory" 10
keys w1 V
check "V asks first" w1 "claim the win? (y/n)"
keys w1 y
check "white wins" w1 "You won" 10
keys w1 q
check "white's tchess exits" w1 "tchess-exit-0"

e2e_finish "opponent-left tmux e2e: ok"
