#!/usr/bin/env bash
# End-to-end test of the clocks on the play screen under a US delay: a
# real tchessd (its test clock on) on a loopback port, White and Black in
# 80x24 tmux sessions playing 5+d3600 (an hour's delay, so the delay
# cannot run out under the test however slow the machine):
#   1. For at least three seconds after the game starts, every look at
#      both screens shows both clocks at 5:00: the client reads the clock
#      through the fold at the estimated server time, as the server does,
#      instead of counting the reading down (which showed 4:59, 4:58...).
#   2. The server's clock moves past the delay (POST /v1/test/clock) and
#      White moves: the delay is over, so White is charged for the rest of
#      the turn and both screens show White's clock under 5:00 while
#      Black's, in its own delay, stands at 5:00.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init clock

printf 'test_clock = on\n' >"$tmp/test-clock.conf"
start_server 127.0.0.1:0 --config "$tmp/test-clock.conf"
for who in white black; do register_player "$who" "${who}_p"; done

start_session w white play --vs open --color white --tc 5+d3600 --server "$url"
check "white waits for an opponent" w "waiting for an opponent" 20
id=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games --server "$url" | awk 'NR > 1 && $2 == "open" { print $1; exit }')
if [ -z "$id" ]; then echo "not ok - no open game listed"; exit 1; fi
start_session b black join "$id" --server "$url"
check "white's turn on white's screen" w "your move" 20
check "black sees White to move" b "White to move" 20

# clocks_at SESSION TEXT: both clocks (the side column, each line's end)
# read TEXT.
clocks_at() {
	capture "$1"
	[ "$(printf '%s\n' "$screen" | grep -c "$2 *\$")" -ge 2 ]
}

# The first moves: a first move is not timed; from White's second move on
# White's clock runs, in its delay.
keys w / e4 Enter
check "black sees the first move" b "your move" 20
keys b / e5 Enter
check "white's second move is timed" w "your move" 20

# 1. The delay stands still: every look for three whole seconds.
still=1
looks=0
start=$SECONDS
while [ $((SECONDS - start)) -le 3 ]; do
	for s in w b; do
		if ! clocks_at "$s" "5:00"; then
			still=0
			fail "during the delay the $s screen's clocks left 5:00:"
			show_screen
			break 2
		fi
	done
	looks=$((looks + 1))
	poll_pause
done
[ "$still" = 1 ] && ok "both clocks stood at 5:00 on both screens for 3 s ($looks looks)"

# 2. Past the delay: White is charged for what the turn used beyond it.
if curl -sf -X POST -d '{"advance_ms":3605000}' "$url/v1/test/clock" >/dev/null; then
	ok "the server's clock moved past the delay"
else
	fail "POST /v1/test/clock refused"
fi
keys w / Nf3 Enter
check "black sees the move" b "your move" 20
for s in w b; do
	check "white's clock was charged past the delay ($s)" "$s" "4:5" 10
	if printf '%s\n' "$screen" | grep -q "black_p.*5:00 *\$"; then
		ok "black's clock stands at 5:00 in its own delay ($s)"
	else
		fail "black's clock left 5:00 during its delay ($s):"
		show_screen
	fi
done
for s in w b; do
	keys "$s" m q
	check "leaving a running game asks first ($s)" "$s" "leave the game?"
	keys "$s" y
	check "tchess exits ($s)" "$s" "tchess-exit-0"
done

e2e_finish "clock tmux e2e: ok"
