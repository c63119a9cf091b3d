#!/usr/bin/env bash
# End-to-end test of "tchess review": runs the real binary in a detached
# tmux session of 80x24, sends keys, and reads the screen with
# capture-pane. Every wait polls the screen until the expected text shows
# or 5 seconds pass; nothing sleeps and hopes. Skips (exit 77) without
# tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESS_TEST_DATA:?}"
e2e_init review
wait_seconds=5
# A copy under the short scratch path: messages that quote the path must
# fit on one screen line wherever the checkout lives.
cp "$TCHESS_TEST_DATA/review/two-games.pgn" "$tmp/two-games.pgn"
pgn="$tmp/two-games.pgn"
runs=0

# start ENV... -- ARGS: a fresh 80x24 session "t" running tchess review
# ARGS with the extra environment ENV.
start() {
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	# A fresh tmux server per run: reusing a socket races with its shutdown.
	tmux -L "$sock" kill-server >/dev/null 2>&1
	runs=$((runs + 1))
	sock="tchess-review-$$-$runs"
	tmux -L "$sock" -f /dev/null new-session -d -s t -x 80 -y 24 \
		env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 TERM=xterm-256color \
		XDG_CONFIG_HOME=/nonexistent TCHESS_THEME_DIR="${TCHESS_THEME_DIR:-}" "${envs[@]}" \
		sh -c '"$0" review "$@"; echo "tchess-exit-$?"; sleep 60' "$TCHESS" "$@"
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

expect_line() { # expect_line NAME ROW TEXT: screen row ROW (1-based) holds TEXT
	case "$(line "$2")" in
	*"$3"*) echo "ok - $1" ;;
	*)
		echo "not ok - $1: row $2 lacks '$3'"
		printf '%s\n' "$screen" | sed 's/^/    |/'
		failures=$((failures + 1)) ;;
	esac
}

# Board geometry at 80x24: 5x2 squares, rank label in column 0, the piece
# of board column c (0-7) in screen column 4 + 5c, board row r (0-7) on
# screen row 2 + 2r (1-based).
sq_row() { echo $((2 + 2 * $1)); }
sq_col() { echo $((4 + 5 * $1)); }

# 1. A two-game file opens on the game list.
start -- "$pgn"
check "game list shows the first game" t "Alpha, Anna"
check "game list shows the second game" t "Gamma"
check "list status" t "2 games"

# 2. Enter opens game 1; three steps forward show the position after 2.Nf3.
keys t Enter
check "game opens at the start" t "ply 0/13, start position"
check "opening comment" t "A short game for the review tests."
keys t Right Right Right
# The default theme draws both sides solid (colour tells them apart):
# the glyph names the piece, the colour the side.
check "three steps" t "ply 3/13, after 2.Nf3"
expect_cell "white knight on f3" "$(sq_row 5)" "$(sq_col 5)" "♞"
expect_cell "g1 is empty" "$(sq_row 7)" "$(sq_col 6)" " "
expect_cell "white pawn on e4" "$(sq_row 4)" "$(sq_col 4)" "♟"
expect_cell "black pawn on e5" "$(sq_row 3)" "$(sq_col 4)" "♟"
expect_cell "rank 8 at the top" "$(sq_row 0)" 0 "8"
expect_cell "file a at the left" 17 "$(sq_col 0)" "a"
check "comment of the current move" t "Attacking e5."
check "clock of the current move" t "clock 4:55"
check "current move marked in the list" t "2.>Nf3"
check "black's clock in the tags" t "4:58"

# 3. Flip: ranks 1..8 top to bottom, files h..a.
keys t f
check "status says Black's view" t "(Black's view)"
expect_cell "rank 1 at the top" "$(sq_row 0)" 0 "1"
expect_cell "rank 8 at the bottom" "$(sq_row 7)" 0 "8"
expect_cell "file h at the left" 17 "$(sq_col 0)" "h"
expect_cell "file a at the right" 17 "$(sq_col 7)" "a"
# Seen from Black, f3 is board column 2, board row 2.
expect_cell "knight on f3 seen from Black" "$(sq_row 2)" "$(sq_col 2)" "♞"
keys t f
check "flip back" t "game 1/2   "

# 4. Jump to ply 12 with ':' and see tenths on the clock.
keys t : 1 2 Enter
check "jump to ply 12" t "ply 12/13, after 6...Kxf7"
check "tenths under ten seconds" t "clock 0:09.4"
check "comment at ply 12" t "Under ten seconds."
keys t End
check "last position" t "Black to move, check"
keys t Home
check "first position" t "ply 0/13"

# 5. Help, and back to the list with Esc.
keys t '?'
check "help" t "tchess review: keys"
# The box is as wide as its longest line: nothing cut at its edge.
check "the help's longest line whole" t "this help (any key closes it)"
keys t x
keys t Escape
check "back at the list" t "2 games"

# 6. Too small, then big again.
tmux -L "$sock" resize-window -t t -x 40 -y 10 2>/dev/null
check "too small message" t "Terminal too small: 40x10"
check "too small message wrapped, not cut at 40 columns" t "needs at least 52x12"
check "too small message says how to quit" t "press q to quit"
tmux -L "$sock" resize-window -t t -x 80 -y 24 2>/dev/null
check "list again after growing" t "Alpha, Anna"

# 7. q quits with status 0.
keys t q
check "quits cleanly" t "tchess-exit-0"

# 8. NO_COLOR and --ascii: letters, markers for check and the last move.
start NO_COLOR=1 -- --ascii --game 2 "$pgn"
check "second game directly" t "ply 0/1, start position"
keys t l
check "mate" t "White to move, checkmate"
expect_cell "queen on h4 (ASCII)" "$(sq_row 4)" "$(sq_col 7)" "q"
expect_cell "check marker left of the king" "$(sq_row 7)" $(($(sq_col 4) - 1)) "!"
expect_cell "king on e1 (ASCII)" "$(sq_row 7)" "$(sq_col 4)" "K"
expect_cell "last-move marker at d8" "$(sq_row 0)" $(($(sq_col 3) - 1)) "("
keys t q
check "quits" t "tchess-exit-0"

# 9. Black's view from the start, and a named theme.
start -- --flip --theme high-contrast --game 1 "$pgn"
check "starts flipped" t "(Black's view)"
expect_cell "white king on e1 seen from Black" "$(sq_row 0)" "$(sq_col 3)" "♚"
keys t q
check "quits" t "tchess-exit-0"

# 10. Errors: a missing file, a bad game number, an unknown theme.
start -- /nonexistent.pgn
check "missing file" t "No such file or directory"
check "missing file status" t "tchess-exit-1"
start -- --game 3 "$pgn"
check "bad game number" t "has 2 games, ther"
start -- --theme no-such "$pgn"
check "unknown theme" t "theme 'no-such' not found"

# 11. The header of an annotated game: each name beside its pieces (Black's
# on top, White's at the bottom; f swaps them), with the Elo ratings, the
# game's ECO and Opening tags and its TimeControl.
cp "$TCHESS_TEST_DATA/review/annotated.pgn" "$tmp/annotated.pgn"
start -- "$tmp/annotated.pgn"
check "annotated game opens" t "ply 0/17, start position"
expect_line "Black's name and Elo on the top row" 1 "Black Player (1987)"
expect_line "White's name and Elo on the second row" 2 "White Player (2105)"
expect_line "ECO and Opening tags" 4 "C57 Two Knights: Fried Liver"
expect_line "time control as players read it" 4 " 5+3"
absent "not the tag's seconds" t "300+3"
keys t f
check "flipped" t "(Black's view)"
expect_line "flipped: White's name on top" 1 "White Player (2105)"
expect_line "flipped: Black's name below" 2 "Black Player (1987)"
keys t q
check "quits" t "tchess-exit-0"

# 12. A game without opening tags names the shown position's opening from
# the ECO table, the last one known at or before the ply.
start -- --game 1 "$pgn"
check "game 1" t "ply 0/13"
keys t : 7 Enter
check "at ply 7" t "ply 7/13"
expect_line "opening of the position" 4 "C57"
keys t q
check "quits" t "tchess-exit-0"

# 13. The PGN's own annotations and side lines: move marks glued to the
# SAN, the side lines as a tree under the moves they replace, entered with
# v, swapped with n and left with u / Esc.
start -- "$tmp/annotated.pgn"
check "annotated game" t "ply 0/17"
check "move mark ?! beside its move" t "Nxd5?!*"
check "move mark ?? beside its move" t "Nb4??*"
check "the side line under the move it replaces" t "5...Na5* 6.Bb5+ c6"
keys t q
cp "$TCHESS_TEST_DATA/review/variations.pgn" "$tmp/variations.pgn"
start -- "$tmp/variations.pgn"
check "side-line game" t "ply 0/6"
expect_line "nested side line, indented deeper" 8 "     2.c3 d5"
keys t Right v
check "into the side line" t "side line 1/2 of 1...e5!"
check "its opening comment" t "The Sicilian."
check "its move current in the tree" t ">1...c5 2.Nf3"
check "the line's plies" t "ply 2/4, after 1...c5"
keys t n
check "the next alternative" t ">1...e6* 2.d4"
check "a NAG as glyph and meaning" t "N novelty"
keys t u
check "back on the main line" t "ply 1/6, after 1.e4"
absent "no side line named" t "side line 1/"
keys t Right Right v
check "no side line there" t "no side line at the next move"
keys t Left Left v Right Left v
check "two deep" t "side line 1/1 of 2.Nf3 (depth 2)"
keys t Escape Escape
check "out of both with Esc" t "ply 1/6"
keys t q
check "quits" t "tchess-exit-0"

# 13b. Explore: a move of one's own from the shown position (m, SAN,
# Enter) starts a line of the player's in place of the game's next move;
# an illegal one is refused with the reason; u leaves; s saves the game
# with the line in it as one more side line of the move it replaces.
start XDG_DATA_HOME="$tmp/data" -- "$tmp/variations.pgn"
check "explore game" t "ply 0/6"
keys t Right m d 5 Enter
check "the player's line" t "your line, in place of 1...e5!"
check "its position" t "ply 2/2, after 1...d5"
keys t m N f 6 Enter
check "the move refused" t "Nf6:"
check "nothing changed" t "ply 2/2, after 1...d5"
keys t m e 4 d 5 Enter
check "a UCI move" t "ply 3/3, after 2.exd5"
check "the player's line in the move list, under the move it replaces" t "1...d5>2.exd5"
keys t u
check "left" t "ply 1/6, after 1.e4"
keys t s
check "saved, the path said" t "saved with your line to $tmp/data/tchess/games/var"
if tr '\n' ' ' <"$tmp/data/tchess/games/variations-1.pgn" | grep -q "(1\.\.\. d5 2\. exd5) 2\. Nf3"; then
	ok "the saved file has the line after the file's own side lines"
else
	fail "the saved file has the line:"; cat "$tmp/data/tchess/games/variations-1.pgn"
fi
keys t q

# 13c. A tablebase verdict where the tables cover the position (the shared
# data's 3-4 piece Gaviota and Syzygy tables): the result, the distance
# to mate and the best move.
if [ -n "${TCHESS_SHARED_DATA:-}" ] && [ -d "$TCHESS_SHARED_DATA/tablebases/syzygy-3-4" ]; then
	cp "$TCHESS_TEST_DATA/review/endgame.pgn" "$tmp/endgame.pgn"
	start -- --tablebases "gaviota:$TCHESS_SHARED_DATA/tablebases/gaviota-3-4,syzygy:$TCHESS_SHARED_DATA/tablebases/syzygy-3-4" "$tmp/endgame.pgn"
	check "tablebase verdict" t "tablebase: White wins, mate in 1"
	check "its best move, a mate" t "DTZ 1; best Q"
	keys t q
	start -- --tablebases /nonexistent "$tmp/endgame.pgn"
	check "a bad folder refused" t "--tablebases: /nonexistent holds no Gaviota"
else
	echo "ok - tablebase checks skipped: no shared tablebases"
fi

# 14. The evaluation graph and bar from the file's [%eval] comments alone:
# the shown position's evaluation, the graph's braille under the board,
# the judged moves dotted on its marker row (three blunders and an
# inaccuracy), the bar beside the board; in ASCII '#' and '@'.
cp "$TCHESS_TEST_DATA/review/blunder.pgn" "$tmp/blunder.pgn"
start -- "$tmp/blunder.pgn"
check "blunder game" t "ply 0/14"
keys t : 9 Enter
check "the position's evaluation" t "eval -6.00"
expect_line "the graph's lower half: Black winning" 22 "⣿⣿⣿"
expect_line "three blunders and an inaccuracy dotted" 23 "·  ●     ●    ●"
expect_cell "the bar: Black's share at the top" 1 43 "░"
expect_cell "the bar: White's share at the bottom" 16 43 "█"
keys t f
check "flipped" t "(Black's view)"
expect_cell "flipped bar: White's share at the top" 1 43 "█"
keys t q
start NO_COLOR=1 -- --ascii "$tmp/blunder.pgn"
check "ASCII blunder game" t "ply 0/14"
keys t End
check "at the end" t "ply 14/14"
expect_line "ASCII graph" 22 "######"
expect_line "ASCII dots" 23 ".  @     @    @"
keys t q
start -- --game 1 "$pgn"
check "a game without evaluations says so" t "no evaluations in this game"
keys t q
check "quits" t "tchess-exit-0"

# 15. Engine analysis (stockfish at a fixed depth; skipped without it): a
# turns it on, the pass's progress shows until it is done, the shown
# position gets its best lines and 5. Nxf7 is called a blunder with the
# engine's move; reopening the game answers from the cache at once.
if [ -x /usr/games/stockfish ]; then
	start XDG_CACHE_HOME="$tmp/cache" -- --depth 8 "$tmp/blunder.pgn"
	check "engine game" t "ply 0/14"
	keys t : 9 Enter a
	check "the pass done" t "depth 8" 60
	check "the blunder named, the engine's move given" t "Blunder. " 20
	check "its move was best" t " was best."
	check "the best lines of the position (Black to move)" t "5...Q" 20
	keys t a
	check "engine off: the file's evaluation again" t "eval -6.00"
	absent "engine off: no lines" t "was best."
	keys t q
	start XDG_CACHE_HOME="$tmp/cache" -- --depth 8 "$tmp/blunder.pgn"
	check "engine game again" t "ply 0/14"
	keys t a
	# Answered from the cache (that no search runs is client-review-analyse's check).
	check "the pass from the cache" t "depth 8" 20
	keys t q
	start -- --engine /nonexistent/engine "$tmp/blunder.pgn"
	check "a missing engine" t "ply 0/14"
	keys t a
	check "says so" t "no engine analysis: engine /nonexistent/engine"
	keys t q
	check "quits" t "tchess-exit-0"

	# 15b. The engine starts off the screen's loop: an engine whose UCI
	# handshake waits for a line on a FIFO this test writes (then it is
	# stockfish). While it is held the screen says so and the keys still
	# step through the game; released, the evaluation shows. An engine that
	# fails its handshake is said once, and analysis goes off.
	mkfifo "$tmp/hold"
	cat >"$tmp/held-engine" <<EOS
#!/bin/sh
read -r _
read -r _ <"$tmp/hold"
echo uciok
exec /usr/games/stockfish
EOS
	cat >"$tmp/failing-engine" <<EOS
#!/bin/sh
read -r _
read -r _ <"$tmp/hold"
exit 3
EOS
	chmod +x "$tmp/held-engine" "$tmp/failing-engine"
	# The hold must not meet the start deadline on a busy machine.
	mkdir -p "$tmp/slow-start/tchess"
	printf 'engine_start_timeout = 600\n' >"$tmp/slow-start/tchess/config"
	# release: one line for each engine that opens the FIFO (the pass's
	# and the shown position's), until killed; each write waits for a
	# reader, so nothing spins. A write that finds the reader gone
	# (it read its line and closed) is an EPIPE to go past, not a
	# SIGPIPE that would end the loop before the next engine's turn.
	release() {
		(trap '' PIPE; while :; do echo go >"$tmp/hold" 2>/dev/null; done) &
		release_pid=$!
	}
	start XDG_CONFIG_HOME="$tmp/slow-start" XDG_CACHE_HOME="$tmp/cache-held" -- --engine "$tmp/held-engine" --depth 6 "$tmp/blunder.pgn"
	check "held engine: the game" t "ply 0/14"
	keys t a
	check "held engine: starting said" t "starting the engine…"
	keys t Right Right
	check "held engine: the keys still step" t "ply 2/14"
	keys t Left
	check "held engine: and back" t "ply 1/14"
	keys t : 9 Enter
	check "held engine: a jump too" t "ply 9/14"
	check "held engine: still starting" t "starting the engine…"
	release
	check "released: the pass done" t "depth 6" 30
	check "released: the position's best lines (Black to move)" t "5...Q" 20
	check "released: the blunder judged" t "Blunder. "
	absent "released: no longer starting" t "starting the engine"
	kill "$release_pid" 2>/dev/null; wait "$release_pid" 2>/dev/null
	keys t q
	check "held engine: quits" t "tchess-exit-0"
	start XDG_CONFIG_HOME="$tmp/slow-start" -- --engine "$tmp/failing-engine" "$tmp/blunder.pgn"
	check "failing engine: the game" t "ply 0/14"
	keys t a
	check "failing engine: starting" t "starting the engine…"
	release
	check "failing engine: said" t "no engine analysis: engine $tmp/failing-engine"
	kill "$release_pid" 2>/dev/null; wait "$release_pid" 2>/dev/null
	keys t Right
	check "failing engine: keys go on" t "ply 1/14"
	absent "failing engine: said once" t "no engine analysis"
	absent "failing engine: analysis off" t "starting the engine"
	keys t q
	check "failing engine: quits" t "tchess-exit-0"
else
	echo "ok - engine checks skipped: no /usr/games/stockfish"
fi

# 16. A game played on past where our rules end it (a fivefold at ply 16,
# then 9. e4 e5): every move is shown, and from ply 16 on the comment pane
# says where the rules ended it.
cp "$TCHESS_TEST_DATA/review/played-on.pgn" "$tmp/played-on.pgn"
start -- "$tmp/played-on.pgn"
check "played-on list: 18 plies, all of them" t "1-0     18"
keys t Enter
check "all its moves" t "ply 0/18"
keys t : 1 5 Enter
check "before the rules' end" t "ply 15/18"
absent "nothing said before it" t "our rules end"
keys t Right
check "at the rules' end" t "our rules end the game here"
keys t End
check "the moves after it" t "ply 18/18"
check "played on, said so" t "played on after our rules ended"
keys t q
check "quits" t "tchess-exit-0"

# 17. A move after mate in a malformed file: the game opens with its
# moves up to the mate, the status line says why the rest is not shown,
# the comment pane says it again at the last move, and the game after it
# is in the list.
printf '[White "Fool"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 Qxe1 0-1\n\n1. d4 d5 *\n' >"$tmp/after-mate.pgn"
start -- "$tmp/after-mate.pgn"
check "after-mate list: both games" t "2 games"
keys t Enter
check "opens up to the mate" t "ply 0/4"
check "says why" t "game 1 is shown up to ply 4: 3. Kf2: a move after checkmate"
keys t End
check "at its last move" t "not read: 3. Kf2: a move after"
keys t Escape j Enter
check "the next game" t "ply 0/2"
keys t q
check "quits" t "tchess-exit-0"

e2e_finish "all checks passed"
