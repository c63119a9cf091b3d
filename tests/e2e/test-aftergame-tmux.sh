#!/usr/bin/env bash
# Issue 14 item 6, after a game: the end said plainly ("You won", "You
# lost") on a real tchessd; the PGN saved to the games folder
# ($XDG_DATA_HOME/tchess/games, here ~/.local/share/tchess/games), not the
# current folder; and after a game against the engine, r starts a new one
# against it with the colours swapped, on the same screen.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without tmux;
# the engine part without stockfish.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init aftergame

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done

# 1. Black resigns: each side is told plainly how it went.
new_game 1
keys b1 m r
check "resign asks first" b1 "resign this game? (y/n)"
keys b1 y
check "the winner reads 'You won'" w1 "You won: 1-0 resignation" 10
check "the loser reads 'You lost'" b1 "You lost: 1-0 resignation" 10
# The notes key is j on the end screen, as in the game and in the help.
check "the end screen names j for the notes" w1 "j notes"
absent "no second notes key on the end screen" w1 "n notes"
keys w1 j
check "j opens the notes after the game" w1 "Esc closes"
keys w1 Escape

# 2. s saves the PGN in the games folder, made on the first save.
keys w1 s
check "the PGN is saved" w1 "saved the game to" 10
pgn="$tmp/.local/share/tchess/games/tchess-${id:0:12}.pgn"
if [ -f "$pgn" ] && grep -q '^\[Result "1-0"\]' "$pgn"; then
	ok "the PGN is in ~/.local/share/tchess/games"
else
	fail "no $pgn"; ls -R "$tmp/.local" 2>&1 | head
fi
if ls "$tmp"/tchess-*.pgn >/dev/null 2>&1; then fail "a PGN was written to the current folder"; else ok "nothing in the current folder"; fi
keys w1 q
keys b1 q
check "white quits" w1 "tchess-exit-0"

# 3. Against the engine: lost by resignation, then r plays it again with
# the colours swapped.
if [ -x /usr/games/stockfish ] || command -v stockfish >/dev/null 2>&1; then
	start_session e white play --vs engine:1 --color white --tc 5+3 --server "$url"
	check "the engine game starts" e "your move" 20
	keys e m r
	check "resign asks" e "resign this game? (y/n)"
	keys e y
	check "You lost to the engine" e "You lost: 0-1 resignation" 10
	check "the end screen offers r" e "r rematch"
	# Beside the 80x24 board the end pane's keys (n too, here) take two
	# rows, each whole: they were cut to "j no".
	check "the end pane's game keys, whole at 80x24" e "r rematch   n new game   s save PGN"
	check "the end pane's other keys, whole" e "j notes   q quit"
	keys e r
	# "a new game against the engine: you play Black", and then, once
	# its events are in, "the game has started: you play Black".
	check "r starts a new game against the engine, we play Black" e "you play Black" 20
	check "the engine moves first as White" e "1. " 20
	check "and it is our move" e "your move" 20
	capture e
	row1=$(printf '%s\n' "$screen" | sed -n 2p)
	case "$row1" in "1 "*) ok "the board turned to Black" ;;
	*) fail "the board did not turn: '$row1'"; show_screen ;; esac
	keys e m q
	check "leaving asks" e "leave the game?"
	keys e y
	check "tchess exits" e "tchess-exit-0"
else
	echo "ok - # SKIP part 3: stockfish is not installed"
fi

e2e_finish "all after-game checks passed"
