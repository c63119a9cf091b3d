#!/usr/bin/env bash
# Issue 14 item 5, the home screen's choices: the engine game's level,
# colour and time control changed on its row (+ - c t) and the game asked
# for with them from a real tchessd (and its stockfish); a PGN file
# reviewed from home (6), and a file that cannot be read said on the home
# screen.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without
# tmux; the engine part without stockfish.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init homeplay

start_server 127.0.0.1:0
register_player white white_p
start_session h white
check "the home screen" h "Play the engine" 20
check "the engine row names its settings and keys" h "level 3, 5+3, your colour drawn   (+ - c t)"
check "the status line says how to change them" h "+/- level  c colour  t time control"

# 1. Level 5, Black, 10+5.
keys h + +
check "+ raises the level" h "level 5, 5+3"
keys h c c
check "c chooses the colour" h "level 5, 5+3, you play Black"
keys h t t
check "t the time control" h "level 5, 15+10, you play Black"
keys h -
check "- lowers the level" h "level 4, 15+10, you play Black"
if [ -x /usr/games/stockfish ] || command -v stockfish >/dev/null 2>&1; then
	keys h Enter
	check "the game has the engine's level" h "engine level 4" 20
	check "and the time control" h "15+10"
	check "the engine moves first: we are Black" h "1. " 20
	capture h
	row1=$(printf '%s\n' "$screen" | sed -n 2p)
	case "$row1" in "1 "*) ok "the board is Black's" ;; *) fail "not Black's board: '$row1'"; show_screen ;; esac
	keys h m q
	check "leaving asks" h "leave the game?"
	keys h y
	check "back home" h "Play the engine" 10
else
	echo "ok - # SKIP the engine game: stockfish is not installed"
fi

# 2. A PGN file reviewed from home, and back.
cat >"$tmp/short.pgn" <<'PGN'
[Event "home review"]
[White "Anna"]
[Black "Boris"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
PGN
keys h 6
check "6 asks for the file" h "file: _"
keys h -l "$tmp/short.pgn"
keys h Enter
check "the review opens the file's game" h "game 1/1   <-/-> step" 10
keys h End
check "its last move" h "Qh4#" 10
keys h q
check "q comes back to the home screen" h "Play the engine" 10
keys h 6
keys h -l "$tmp/none.pgn"
keys h Enter
check "a file that cannot be read is said at home" h "cannot read $tmp/none.pgn: No such file or directory" 10
keys h q
check "tchess quits" h "tchess-exit-0"

e2e_finish "all home-choice checks passed"
