#!/usr/bin/env bash
# Issue 14 item 10, the board at a glance, read off the screen of
# "tchess review" (offline: no server needed):
#
# 1. Solid glyphs coloured by side by default: White's king is drawn ♚
#    (the filled glyph) on the board, never the outline ♔; a theme with
#    "pieces = outline" keeps the outline.
# 2. In 8 colours (TERM=xterm) the squares are magenta and red, never the
#    yellow that white pieces vanished on: read from the cells' colours
#    (capture-pane -e).
# 3. At 120x40 the squares grow to 11x4 and hold multi-cell piece art:
#    the rank labels are 4 rows apart, the file labels 11 columns apart,
#    and the king's art (its cross, ╋) is on the board; back at 80x24,
#    the glyph board again.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESS_TEST_DATA:?}"
e2e_init board
cp "$TCHESS_TEST_DATA/review/annotated.pgn" "$tmp/g.pgn"
mkdir -p "$tmp/cfg"

# board_cols SESSION: the board's columns (the first 42 of the rows above
# the status line) of the last capture of SESSION.
board_cols() { capture "$1"; printf '%s\n' "$screen" | head -17 | cut -c1-42; }

# 1. Solid by default, outline on request.
start_session s cfg review "$tmp/g.pgn"
check "the review opens" s "ply 0/"
board=$(board_cols s)
case "$board" in
*"♔"*) fail "an outline king on the default board"; show_screen ;;
*"♚"*"♚"*) ok "both kings are solid glyphs (♚) on the default board" ;;
*) fail "no solid kings on the board"; show_screen ;;
esac
keys s q
printf 'name = outline-test\npieces = outline\n' >"$tmp/outline.theme"
start_session o cfg review --theme "$tmp/outline.theme" "$tmp/g.pgn"
check "the review opens with the outline theme" o "ply 0/"
board=$(board_cols o)
case "$board" in
*"♔"*"♚"*|*"♚"*"♔"*) ok "pieces = outline: White's king is the outline ♔, Black's ♚" ;;
*) fail "no outline king with pieces = outline"; show_screen ;;
esac
keys o q

# 2. 8 colours: which backgrounds the board's cells have.
e2e_env="TERM=xterm" start_session e cfg review "$tmp/g.pgn"
check "the review opens in 8 colours" e "ply 0/"
cells=$(tmux -L "$sock" capture-pane -p -e -t e | head -17)
if printf '%s' "$cells" | grep -q $'\e\\[[0-9;]*45m' && printf '%s' "$cells" | grep -q $'\e\\[[0-9;]*41m'; then
	ok "8 colours: magenta and red squares"
else
	fail "8 colours: no magenta/red squares"; printf '%s\n' "$cells" | head -3 | cat -v
fi
if printf '%s' "$cells" | grep -q $'\e\\[[0-9;]*43m'; then
	fail "8 colours: a yellow square on the board"
else
	ok "8 colours: no yellow square for white pieces to vanish on"
fi
keys e q

# 3. Large pieces on a large terminal.
start_session b cfg review "$tmp/g.pgn"
check "the review opens at 80x24" b "ply 0/"
tmux -L "$sock" resize-window -t b -x 120 -y 40 2>/dev/null
# big_board: reads the last capture's rank 8 and 7 rows and the file
# labels' columns (the labels are drawn last: wait for all of them).
big_board() {
	r8=$(printf '%s\n' "$screen" | grep -n '^8 ' | head -1 | cut -d: -f1)
	r7=$(printf '%s\n' "$screen" | grep -n '^7 ' | head -1 | cut -d: -f1)
	files=$(printf '%s\n' "$screen" | grep -E '^ +a +b +c +d +e +f +g +h' | head -1)
	a=$(printf '%s' "$files" | awk '{ print index($0, "a") }')
	bcol=$(printf '%s' "$files" | awk '{ print index($0, "b") }')
	[ -n "$r8" ] && [ -n "$r7" ] && [ -n "$files" ] && [ $((r7 - r8)) -eq 4 ] && [ $((bcol - a)) -eq 11 ]
}
deadline=$((SECONDS + wait_seconds))
while :; do
	capture b
	big_board && break
	[ $SECONDS -ge $deadline ] && break
	poll_pause
done
if [ -n "$r8" ] && [ -n "$r7" ] && [ $((r7 - r8)) -eq 4 ]; then
	ok "120x40: the ranks are 4 rows apart (squares 4 rows high)"
else
	fail "120x40: rank 8 on row '$r8', rank 7 on row '$r7'"; show_screen
fi
if [ -n "$files" ] && [ $((bcol - a)) -eq 11 ]; then
	ok "120x40: the files are 11 columns apart"
else
	fail "120x40: file labels '$files'"; show_screen
fi
case "$screen" in
*"╋"*"╋"*) ok "120x40: the kings are drawn as art (their crosses)" ;;
*) fail "120x40: no piece art"; show_screen ;;
esac
tmux -L "$sock" resize-window -t b -x 80 -y 24 2>/dev/null
check "back at 80x24: glyphs again" b "♚"
absent "back at 80x24: no art" b "╋"
keys b q

e2e_finish "board: solid glyphs, outline on request, 8-colour squares, piece art at 120x40"
