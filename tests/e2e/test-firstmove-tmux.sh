#!/usr/bin/env bash
# End-to-end test of the first-move rule and the premove queue on the
# play screen, with a real tchessd on loopback and two players in 80x24
# tmux sessions.
#
# 1. A game (the server's own first-move limit, 8 s, given in its config):
#    both screens count it down, the mover's "first move within N s", the
#    other's "White's first move: N s left", the number falling; the
#    start message says the clocks run. Nobody moves: the game is aborted
#    when the count reaches 0, as the screen said.
# 2. A game with "tchess play" defaults: the header says "premoves 3";
#    Black queues three premoves during White's turn and each is played
#    the instant White moves.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init firstmove

printf 'first_move_timeout_ms = 8000\n' >"$tmp/tchessd.conf"
start_server 127.0.0.1:0 --config "$tmp/tchessd.conf"
for who in white black; do register_player "$who" "${who}_p"; done

# count SESSION PATTERN: the number of seconds in PATTERN's match (a sed
# expression with one \(group\)) on the session's screen, or "".
count() { capture "$1"; printf '%s\n' "$screen" | sed -n "s/.*$2.*/\\1/p" | head -1; }

# check_re NAME SESSION REGEX: a line of SESSION's screen matches the
# extended REGEX before the deadline.
check_re() {
	local deadline=$((SECONDS + wait_seconds))
	while :; do
		capture "$2"
		if printf '%s\n' "$screen" | grep -Eq -- "$3"; then ok "$1"; return; fi
		[ $SECONDS -ge $deadline ] && break
		poll_pause
	done
	fail "$1: /$3/ not on the $2 screen:"; show_screen
}

# 1. The countdown, then the abort.
new_game 1
check "the start message says the clocks run" w1 "clocks run, first move within 8 s"
check "white is told its first-move limit" w1 "first move within"
check "black sees White's countdown" b1 "White's first move:"
first=$(count w1 'first move within \([0-9]*\) s')
deadline=$((SECONDS + 10))
later=$first
while [ -n "$first" ] && [ "${later:-0}" -ge "$first" ] && [ $SECONDS -lt $deadline ]; do
	poll_pause
	later=$(count w1 'first move within \([0-9]*\) s')
done
if [ -n "$first" ] && [ -n "$later" ] && [ "$later" -lt "$first" ]; then
	ok "the countdown falls ($first s, then $later s)"
else
	fail "the countdown did not fall: '$first' then '$later'"; show_screen
fi
check "the game is aborted when it runs out" w1 "did not make a first move in time" 15
absent "no countdown once the game is over" w1 "first move within"

# 2. Three premoves queued, all played: on the same database, the server
# restarted with the ruleset's 30 s first-move limit, so a slow machine
# does not abort the game under the test's feet.
kill_server
start_server "127.0.0.1:$port"
new_game 2
check "the header shows the premove queue's depth" b2 "premoves 3"
# The board is 42 columns wide at 80x24: the turn line wraps, every word
# shown (it was cut at "...are prem").
check "the turn line wraps at a word" b2 "premoves)"
keys b2 / e 5 Enter
check "first premove queued" b2 "premove 1 queued"
keys b2 / N f 6 Enter
check "second premove queued" b2 "premove 2 queued"
keys b2 / N c 6 Enter
check "third premove queued" b2 "premove 3 queued"
keys w2 / d 4 Enter
check_re "premove 1 played at once" w2 "1\\. d4 +e5"
check "white to move again" w2 "your move"
keys w2 / N f 3 Enter
check_re "premove 2 played at once" w2 "2\\. Nf3 +Nf6"
check "white to move after the second" w2 "your move"
keys w2 / N c 3 Enter
check_re "premove 3 played at once" w2 "3\\. Nc3 +Nc6"
check_re "black sees all three played" b2 "3\\. Nc3 +Nc6"

e2e_finish "all first-move and premove checks passed"
