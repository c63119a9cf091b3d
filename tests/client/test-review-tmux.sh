#!/usr/bin/env bash
# End-to-end test of "tchess review": runs the real binary in a detached
# tmux session of 80x24, sends keys, and reads the screen with
# capture-pane. Every wait polls the screen until the expected text shows
# or 5 seconds pass; nothing sleeps and hopes. Skips (exit 77) without
# tmux.
set -u

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux is not installed"
	exit 77
fi
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESS_TEST_DATA:?}"
export LC_ALL=C.UTF-8
# A copy under a short path: messages that quote the path must fit on one
# screen line wherever the checkout lives.
scratch=$(mktemp -d /tmp/tchess-review.XXXXXX)
cp "$TCHESS_TEST_DATA/review/two-games.pgn" "$scratch/two-games.pgn"
pgn="$scratch/two-games.pgn"
sock="tchess-test-$$-0"
runs=0
failures=0
screen=""

cleanup() { tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$scratch"; }
trap cleanup EXIT

# start ENV... -- ARGS: a fresh 80x24 session running tchess review ARGS.
start() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	# A fresh server per run: reusing a socket races with its shutdown.
	tmux -L "$sock" kill-server >/dev/null 2>&1
	runs=$((runs + 1))
	sock="tchess-test-$$-$runs"
	tmux -L "$sock" -f /dev/null new-session -d -s t -x 80 -y 24 \
		env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 TERM=xterm-256color \
		XDG_CONFIG_HOME=/nonexistent TCHESS_THEME_DIR="${TCHESS_THEME_DIR:-}" "${envs[@]}" \
		sh -c '"$0" review "$@"; echo "tchess-exit-$?"; sleep 60' "$TCHESS" "$@"
}

capture() { screen=$(tmux -L "$sock" capture-pane -p -t t 2>/dev/null); }

# wait_for TEXT: polls the screen until TEXT is on it, up to 5 s.
wait_for() {
	local deadline=$((SECONDS + 5))
	while :; do
		capture
		case "$screen" in *"$1"*) return 0 ;; esac
		[ $SECONDS -ge $deadline ] && break
		tmux -L "$sock" wait-for -S never 2>/dev/null # no-op round trip to the server
	done
	return 1
}

keys() { tmux -L "$sock" send-keys -t t "$@"; }

check() { # check NAME TEXT: TEXT must appear on screen
	if wait_for "$2"; then
		echo "ok - $1"
	else
		echo "not ok - $1: '$2' not on screen:"
		printf '%s\n' "$screen" | sed 's/^/    |/'
		failures=$((failures + 1))
	fi
}

# line N of the last capture (1-based)
line() { printf '%s\n' "$screen" | sed -n "${1}p"; }

# cell ROW COL: the character at screen row ROW (1-based), column COL (0-based)
cell() { local l; l=$(line "$1"); printf '%s' "${l:$2:1}"; }

expect_cell() { # expect_cell NAME ROW COL CHAR
	local got; got=$(cell "$2" "$3")
	if [ "$got" = "$4" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1: row $2 col $3 is '$got', want '$4'"
		printf '%s\n' "$screen" | sed 's/^/    |/'
		failures=$((failures + 1))
	fi
}

# Board geometry at 80x24: 5x2 squares, rank label in column 0, the piece
# of board column c (0-7) in screen column 4 + 5c, board row r (0-7) on
# screen row 2 + 2r (1-based).
sq_row() { echo $((2 + 2 * $1)); }
sq_col() { echo $((4 + 5 * $1)); }

# 1. A two-game file opens on the game list.
start -- "$pgn"
check "game list shows the first game" "Alpha, Anna"
check "game list shows the second game" "Gamma"
check "list status" "2 games"

# 2. Enter opens game 1; three steps forward show the position after 2.Nf3.
keys Enter
check "game opens at the start" "ply 0/13, start position"
check "opening comment" "A short game for the review tests."
keys Right Right Right
check "three steps" "ply 3/13, after 2.Nf3"
expect_cell "white knight on f3" "$(sq_row 5)" "$(sq_col 5)" "♘"
expect_cell "g1 is empty" "$(sq_row 7)" "$(sq_col 6)" " "
expect_cell "white pawn on e4" "$(sq_row 4)" "$(sq_col 4)" "♙"
expect_cell "black pawn on e5" "$(sq_row 3)" "$(sq_col 4)" "♟"
expect_cell "rank 8 at the top" "$(sq_row 0)" 0 "8"
expect_cell "file a at the left" 17 "$(sq_col 0)" "a"
check "comment of the current move" "Attacking e5."
check "clock of the current move" "clock 4:55"
check "current move marked in the list" "2.>Nf3"
check "black's clock in the tags" "4:58"

# 3. Flip: ranks 1..8 top to bottom, files h..a.
keys f
check "status says Black's view" "(Black's view)"
expect_cell "rank 1 at the top" "$(sq_row 0)" 0 "1"
expect_cell "rank 8 at the bottom" "$(sq_row 7)" 0 "8"
expect_cell "file h at the left" 17 "$(sq_col 0)" "h"
expect_cell "file a at the right" 17 "$(sq_col 7)" "a"
# Seen from Black, f3 is board column 2, board row 2.
expect_cell "knight on f3 seen from Black" "$(sq_row 2)" "$(sq_col 2)" "♘"
keys f
check "flip back" "game 1/2   "

# 4. Jump to ply 12 with ':' and see tenths on the clock.
keys : 1 2 Enter
check "jump to ply 12" "ply 12/13, after 6...Kxf7"
check "tenths under ten seconds" "clock 0:09.4"
check "comment at ply 12" "Under ten seconds."
keys End
check "last position" "Black to move, check"
keys Home
check "first position" "ply 0/13"

# 5. Help, and back to the list with Esc.
keys '?'
check "help" "tchess review: keys"
keys x
keys Escape
check "back at the list" "2 games"

# 6. Too small, then big again.
tmux -L "$sock" resize-window -t t -x 40 -y 10 2>/dev/null
check "too small message" "Terminal too small: 40x10"
tmux -L "$sock" resize-window -t t -x 80 -y 24 2>/dev/null
check "list again after growing" "Alpha, Anna"

# 7. q quits with status 0.
keys q
check "quits cleanly" "tchess-exit-0"

# 8. NO_COLOR and --ascii: letters, markers for check and the last move.
start NO_COLOR=1 -- --ascii --game 2 "$pgn"
check "second game directly" "ply 0/1, start position"
keys l
check "mate" "White to move, checkmate"
expect_cell "queen on h4 (ASCII)" "$(sq_row 4)" "$(sq_col 7)" "q"
expect_cell "check marker left of the king" "$(sq_row 7)" $(($(sq_col 4) - 1)) "!"
expect_cell "king on e1 (ASCII)" "$(sq_row 7)" "$(sq_col 4)" "K"
expect_cell "last-move marker at d8" "$(sq_row 0)" $(($(sq_col 3) - 1)) "("
keys q
check "quits" "tchess-exit-0"

# 9. Black's view from the start, and a named theme.
start -- --flip --theme high-contrast --game 1 "$pgn"
check "starts flipped" "(Black's view)"
expect_cell "white king on e1 seen from Black" "$(sq_row 0)" "$(sq_col 3)" "♔"
keys q
check "quits" "tchess-exit-0"

# 10. Errors: a missing file, a bad game number, an unknown theme.
start -- /nonexistent.pgn
check "missing file" "No such file or directory"
check "missing file status" "tchess-exit-1"
start -- --game 3 "$pgn"
check "bad game number" "has 2 games, ther"
start -- --theme no-such "$pgn"
check "unknown theme" "theme 'no-such' not found"

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
