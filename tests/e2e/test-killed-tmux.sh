#!/usr/bin/env bash
# End-to-end test of issue 14 item 8 for the opponent who says nothing: a
# real tchessd (real time, the presets' 15 s grace) on a loopback port,
# White and Black in 80x24 tmux sessions playing a chessgamble game (the
# ruleset whose disconnect gives the present player the win):
#   1. Black's tchess is killed with kill -9 (a lost terminal, a laptop
#      shut): it sends no leave, only the kernel closes its sockets.
#   2. White's status line says "opponent left — claim victory in N s"
#      soon after (tchessd notices the closed poll within a second, then
#      the 5 s quiet), not after the poll's 25 s timeout, and N counts
#      down from the grace.
#   3. At the instant, White's line reads "opponent left — press V to claim
#      victory"; V, y: White wins.
# Each step prints how long after the kill it came. The deadlines are
# $TCHESS_KILLED_WAIT seconds (12 by default) for the message and that plus
# 12 for the claim; a larger value times an older tchessd.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux, curl or ps.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl ps
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init killed
told_wait=${TCHESS_KILLED_WAIT:-12}

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1 --ruleset chessgamble

# Both first moves, so no first-move limit runs; White is to move.
keys w1 / e4 Enter
check "black sees the first move" b1 "your move" 20
keys b1 / e5 Enter
check "white's turn again" w1 "your move" 20
absent "nobody has left yet" w1 "opponent left"

# since: seconds (one decimal) from the kill to now.
since() {
	local now=${EPOCHREALTIME/./}
	local d=$((now - killed_us))
	printf '%d.%d' $((d / 1000000)) $((d % 1000000 / 100000))
}

# 1. Black's tchess, the child of the session's shell, killed.
shell=$(tmux -L "$sock" list-panes -t b1 -F '#{pane_pid}')
victim=$(ps -o pid= --ppid "$shell" | tr -d ' ')
if [ -z "$victim" ]; then
	fail "no tchess under black's session shell $shell"
	e2e_finish ""
fi
kill -9 "$victim"
killed_us=${EPOCHREALTIME/./}
check "black's tchess is killed (its shell says exit 137)" b1 "exit-137"

# 2. White is told, with the countdown.
if wait_for w1 "opponent left — claim victory in" "$told_wait"; then
	ok "white reads 'opponent left — claim victory in N s' $(since) s after the kill"
else
	fail "white was not told within ${told_wait} s of the kill:"
	show_screen
fi
left_countdown w1 5 15

# 3. The claim, with the key the line names.
if wait_for w1 "opponent left — press V to claim victory" $((told_wait + 12)); then
	ok "white reads 'press V to claim victory' $(since) s after the kill"
else
	fail "the claim was not offered within $((told_wait + 12)) s of the kill:"
	show_screen
fi
keys w1 V
check "V asks first" w1 "claim the win? (y/n)"
keys w1 y
check "white wins" w1 "You won" 10
keys w1 q
check "white's tchess exits" w1 "tchess-exit-0"

e2e_finish "killed-opponent tmux e2e: ok"
