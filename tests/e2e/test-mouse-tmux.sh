#!/usr/bin/env bash
# End-to-end test of the mouse (issue 14 item 5), with a real tchessd, in
# 80x24 tmux sessions. tmux passes to the program what the terminal would
# send, so a click is typed as the SGR mouse report an xterm sends
# (ESC [ < 0 ; X ; Y M for the press, ... m for the release, 1-based)
# once the program asked for mouse reports, which tmux says
# (#{mouse_any_flag}):
#
# 1. Bob's home screen asks for mouse reports; a click on the row of
#    Alice's seek selects it, a second click takes its seat.
# 2. On Alice's board a click on her e-pawn, then on e4, plays e4; on
#    Bob's, a press on the e7 pawn and its release on e5 (a drag) plays
#    e5.
# 3. With "mouse = off" in Carol's config, her home screen asks for no
#    mouse reports and a click selects nothing.
#
# Every wait polls the screen with a deadline.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init mouse

start_server 127.0.0.1:0
for who in alice bob carol; do register_player "$who" "${who}_p"; done

# press SESSION X Y / release SESSION X Y: the button-1 report at column
# X, line Y of the screen (0-based, as capture-pane numbers them).
press() { keys "$1" -l "$(printf '\033[<0;%d;%dM' $(($2 + 1)) $(($3 + 1)))"; }
release() { keys "$1" -l "$(printf '\033[<0;%d;%dm' $(($2 + 1)) $(($3 + 1)))"; }
click() { press "$@"; release "$@"; }
# mouse_flag SESSION: 1 when the program in it asked for mouse reports.
mouse_flag() { tmux -L "$sock" display-message -p -t "$1" '#{mouse_any_flag}'; }
# line_of TEXT: the 0-based line of the last capture that holds TEXT.
line_of() { printf '%s\n' "$screen" | grep -n -F -- "$1" | head -1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }
# square SQ: sets x and y to a cell inside square SQ (e.g. e2) on the last
# capture: the column of its file's letter on the files line, the line of
# its rank's digit at the left edge.
square() {
	local file=${1:0:1} rank=${1:1:1} files
	files=$(printf '%s\n' "$screen" | grep -n -E '^ +a +b +c +d +e +f +g +h *$|^ +h +g +f +e +d +c +b +a *$' | head -1)
	x=$(printf '%s\n' "${files#*:}" | awk -v f="$file" '{ print index($0, f) - 1 }')
	y=$(printf '%s\n' "$screen" | grep -n -E "^$rank( |$)" | head -1 | cut -d: -f1 | awk '{ print $1 - 1 }')
}

# 1. The home screen.
start_session a alice play --vs open --color white --tc 5+3 --server "$url"
check "alice waits" a "waiting for an opponent" 20
start_session b bob
check "bob's home screen lists the seek" b "Open seeks (1)" 30
if [ "$(mouse_flag b)" = 1 ]; then ok "the home screen asks for mouse reports"; else fail "no mouse reports asked for"; fi
y=$(line_of alice_p)
click b 10 "$y"
if wait_for b "Enter takes the seat  Up/Down select" 5; then
	ok "a click selects the seek's row"
else
	fail "the click selected nothing"; show_screen
fi
click b 10 "$y"
check "a second click takes the seat" b "the game has started: you play Black" 20
check "alice's game starts" a "the game has started: you play White" 20

# 2. The board.
if [ "$(mouse_flag a)" = 1 ]; then ok "the play screen asks for mouse reports"; else fail "no mouse on the board"; fi
capture a
square e2
click a "$x" "$y"
square e4
click a "$x" "$y"
check "click, click: e4 played" a "1. e4" 10
check "bob sees it" b "1. e4" 10
capture b
square e7
press b "$x" "$y"
square e5
release b "$x" "$y"
# moves_show SESSION NAME: the move list says "1. e4  e5" before the
# deadline (its columns are the list's).
moves_show() {
	local deadline=$((SECONDS + 10))
	while :; do
		capture "$1"
		if printf '%s\n' "$screen" | grep -q -E '1\. e4 +e5'; then ok "$2"; return; fi
		[ $SECONDS -ge $deadline ] && break
		poll_pause
	done
	fail "$2: no 1. e4 e5 on the $1 screen"; show_screen
}
moves_show b "a drag: e5 played"
moves_show a "alice sees it"

# 3. mouse = off.
mkdir -p "$tmp/carol/tchess"
printf 'mouse = off\n' >>"$tmp/carol/tchess/config"
start_session c carol
check "carol's home screen" c "Play the engine" 20
if [ "$(mouse_flag c)" = 0 ]; then ok "mouse = off: no mouse reports asked for"; else fail "mouse = off still asks for reports"; fi

e2e_finish "all mouse checks passed"
