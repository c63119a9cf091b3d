#!/usr/bin/env bash
# End-to-end test of issue 14 item 11's reconnect: a real tchessd on a
# loopback port, White and Black in 80x24 tmux sessions playing 5+3.
# tchessd's rule (tchess-protocol(7), clock-resumed): after a restart the
# clocks resume from the last event's instant, and nobody is charged for
# the time from then to the restart. So a client that loses its server
# shows the clocks as that last event left them, standing, and the same
# clock after the restart:
#   1. White is to move and thinks a few seconds (White's clock runs
#      down on both screens).
#   2. tchessd is killed (-9): both screens say reconnecting and show
#      White's clock as at Black's last move, and it stands (three
#      seconds of looks).
#   3. tchessd comes back on the same port: both screens are online, and
#      White's clock is the standing one less at most the time since the
#      server came back (it resumes the clock at its first request after
#      the restart; a second more for the whole seconds shown): never more
#      than it stood at, and not what it would be had the outage been
#      charged.
#   4. No stale message: "the game has started" is gone, nor is anything
#      said before the outage still shown; the game goes on (a move).
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init reconnect

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1
check "white is told the game started" w1 "the game has started"

# clock_s SESSION: White's clock on SESSION's screen, in whole seconds
# (m:ss, or s.t under 10 s), from the line naming white_p.
clock_s() {
	local t
	capture "$1"
	t=$(printf '%s\n' "$screen" | grep "white_p" | grep -o '[0-9]*:[0-9][0-9] *$\|[0-9]*\.[0-9] *$' | head -1 | tr -d ' ')
	case "$t" in
	*:*) echo $(( ${t%%:*} * 60 + 10#${t##*:} )) ;;
	*.*) echo "${t%%.*}" ;;
	*) echo "" ;;
	esac
}

# wait_clock_below SESSION S SECONDS: White's clock on SESSION reads
# under S within SECONDS.
wait_clock_below() {
	local deadline=$((SECONDS + $3)) c
	while :; do
		c=$(clock_s "$1")
		[ -n "$c" ] && [ "$c" -lt "$2" ] && return 0
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}

keys w1 / e4 Enter
check "black sees the first move" b1 "your move" 20
keys b1 / e5 Enter
check "white's turn again" w1 "your move" 20
# The clock as Black's move left it: White's (5:00 plus 3 s increment).
at_move=$(clock_s w1)
echo "# white's clock at black's move: $at_move s"

# 1. White thinks: the clock runs down at least 3 s on both screens.
for s in w1 b1; do
	if wait_clock_below "$s" $((at_move - 2)) 10; then
		ok "white's clock runs on $s ($(clock_s "$s") s)"
	else
		fail "white's clock did not run on $s:"
		show_screen
	fi
done
ran_to=$(clock_s w1)

# 2. The server dies: the clocks stand as the last event left them.
kill_server
for s in w1 b1; do check "$s shows reconnecting" "$s" "reconnecting" 10; done
for s in w1 b1; do
	c=$(clock_s "$s")
	if [ -n "$c" ] && [ "$c" -ge $((at_move - 1)) ] && [ "$c" -le "$at_move" ]; then
		ok "while the server is down $s shows white's clock as at the last move ($c s, was $at_move s)"
	else
		fail "while the server is down $s shows '$c' s, not $at_move s (it ran to $ran_to s):"
		show_screen
	fi
done
stood=$(clock_s w1)
still=1
start=$SECONDS
while [ $((SECONDS - start)) -lt 3 ]; do
	for s in w1 b1; do
		c=$(clock_s "$s")
		if [ "$c" != "$stood" ]; then
			still=0
			fail "the clock moved on $s while the server was down ($stood s, then $c s):"
			show_screen
			break 2
		fi
	done
	poll_pause
done
[ "$still" = 1 ] && ok "white's clock stood at $stood s on both screens for 3 s of outage"

# ms_now: the wall clock in ms.
ms_now() { local t=$EPOCHREALTIME; echo $(( ${t%.*} * 1000 + 10#${t#*.} / 1000 )); }

# 3. Back: the clock the server resumes is the one shown.
outage_from=$(ms_now)
start_server "127.0.0.1:$port"
back_at=$(ms_now)
echo "# the outage lasted $(( (back_at - outage_from) / 1000 )) s or more"
for s in w1 b1; do
	check "$s is online again" "$s" "online" 20
	c=$(clock_s "$s")
	since=$(( ($(ms_now) - back_at + 999) / 1000 + 1 ))
	if [ -n "$c" ] && [ "$c" -le "$stood" ] && [ "$c" -ge $((stood - since)) ]; then
		ok "after the reconnect $s shows white's clock at $c s (stood at $stood s, server back $since s at most)"
	else
		fail "after the reconnect $s shows '$c' s; it stood at $stood s, the server back for $since s:"
		show_screen
	fi
done

# 4. Nothing stale, and the game goes on.
for s in w1 b1; do absent "no stale start message on $s" "$s" "the game has started"; done
keys w1 / Nf3 Enter
check "black sees White's move after the restart" b1 "your move" 20
for s in w1 b1; do
	keys "$s" m q
	check "leaving asks first ($s)" "$s" "leave the game?"
	keys "$s" y
	check "tchess exits ($s)" "$s" "tchess-exit-0"
done

e2e_finish "reconnect tmux e2e: ok"
