#!/usr/bin/env bash
# End-to-end test of issue 14 item 11, text that fits 80x24: a real
# tchessd on a loopback port, White and Black in 80x24 tmux sessions
# playing a yourpot game (offers, adjournment and discards have their
# longest texts there). The longest messages of the play screen are read
# off the screen whole, each on one line (the message line, the status
# line, the pane beside the board), and the material never runs into the
# clock:
#   1. "the game has started: you play White; clocks run, first move
#      within 30 s" (the message line); at 120x40, beside the large
#      pieces, the countdown's shorter wordings whole ("first move in N s
#      or aborted", "White's first move: N s left").
#   2. After 1.e4 d5 2.exd5: White's row reads "+1", a blank, then the
#      clock; Black to move reads "(moves you make now are premoves)" on
#      White's side pane in whole words.
#   3. Black claims a draw (m c): "no draw to claim: position seen 1 of
#      3 times, fifty-move count 0 of 100 plies".
#   4. Black asks to adjourn: White's status line "Black asks to adjourn
#      — + accept, - decline"; accepted: "adjourned — P asks to resume".
#   5. White's V there: "nothing to claim: a discard is a refusal to
#      resume: P asks to resume first".
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init fit

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1 --ruleset yourpot

# whole NAME SESSION TEXT [ROW]: TEXT shows whole on one line of the
# screen (ROW from the bottom: 1 the status line, 2 the message line;
# any line when not given).
whole() {
	local line
	if ! wait_for "$2" "$3" 10; then
		fail "$1: '$3' is not whole on one line of $2:"
		show_screen
		return
	fi
	if [ -n "${4:-}" ]; then
		line=$(printf '%s\n' "$screen" | tail -n "$4" | head -1)
		case "$line" in
		*"$3"*) ;;
		*) fail "$1: '$3' is not on row $4 of $2 ('$line'):"; show_screen; return ;;
		esac
	fi
	ok "$1"
}

whole "the start message, whole" w1 "the game has started: you play White; clocks run, first move within 30 s" 2

# At 120x40 the large pieces leave the pane 29 columns: the countdown
# takes its shorter wording there, whole, on both screens.
for s in w1 b1; do tmux -L "$sock" resize-window -t "$s" -x 120 -y 40; done
whole "the mover's countdown, whole at 120x40" w1 "first move in 2"
whole "the mover's countdown names the abort" w1 " s or aborted"
whole "the other's countdown, whole at 120x40" b1 " s left"
for s in w1 b1; do tmux -L "$sock" resize-window -t "$s" -x 80 -y 24; done
whole "the long wording again at 80x24" w1 "first move within 2"

keys w1 / e4 Enter
check "black's move" b1 "your move" 20
keys b1 / d5 Enter
check "white's move" w1 "your move" 20
keys w1 / exd5 Enter
check "black to move" b1 "your move" 20
capture w1
row=$(printf '%s\n' "$screen" | grep "white_p")
if printf '%s\n' "$row" | grep -q '+1 [> !][0-9]*:[0-9][0-9] *$'; then
	ok "material and clock apart: '$(printf '%s' "$row" | grep -o '+1 .*$')'"
else
	fail "the material runs into the clock: '$row'"
	show_screen
fi
capture w1
if printf '%s\n' "$screen" | grep -q "premoves)" && ! printf '%s\n' "$screen" | grep -q "prem *$"; then
	ok "the premove hint wraps in whole words"
else
	fail "the premove hint is cut:"
	show_screen
fi

keys b1 m c
whole "the draw claim's refusal, whole" b1 "no draw to claim: position seen 1 of 3 times, fifty-move count 0 of 100 plies" 2

keys b1 P
whole "the adjourn request on the status line, whole" w1 "Black asks to adjourn — + accept, - decline" 1
keys w1 +
whole "adjourned, on the status line" w1 "adjourned — P asks to resume" 1
keys w1 V
whole "V's refusal, whole" w1 "nothing to claim: a discard is a refusal to resume: P asks to resume first" 2

for s in w1 b1; do
	keys "$s" m q
	wait_for "$s" "leave the game?" 3 && keys "$s" y
	check "tchess exits ($s)" "$s" "tchess-exit-0" 10
done

e2e_finish "fit tmux e2e: ok"
