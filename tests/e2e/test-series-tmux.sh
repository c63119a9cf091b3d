#!/usr/bin/env bash
# End-to-end test of undo games and rematch series on the play screen: a
# real tchessd from the build tree on a loopback port, two players each
# running tchess in an 80x24 tmux session, read off the screens:
#   1. An undo game (tchess play --undo): White plays e4, which shows on
#      both boards as provisional; takes it back (u); plays d4 and presses
#      done (d). Black's screen then shows only the final move: d4 in the
#      move list, no e4 anywhere, and Black to move.
#   2. Black resigns; White offers a rematch (r), Black accepts (r): both
#      screens switch to the series' next game with colours swapped (the
#      first game's White now plays Black, on a turned board) and show the
#      series score, each player's own points first.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init series

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done

# 1. The undo game.
new_game 1 --undo
check "white is told to press done" w1 "undo game: move, then press d when done"
keys w1 / e4 Enter
check "white's e4 is provisional" w1 "e4 is provisional: d when done, u takes it back"
check "the status line asks for done" w1 "undo game: press d when done, u takes back"
check "black sees the provisional move" b1 "White tries e4 (not done yet)"
check "black's move list marks it provisional" b1 "(e4)"
check "black still waits for White" b1 "White to move"
takebacks=$(posted takeback)
keys w1 u
check "white's move is taken back" w1 "taken back: make another move"
check "black sees the take-back" b1 "White took a move back"
absent "black's move list no longer shows e4" b1 "(e4)"
keys w1 / d4 Enter
check "white's d4 is provisional" w1 "d4 is provisional"
keys w1 d
check "white's turn is done" w1 "you pressed done: d4"
check "black's move now" b1 "your move"
check "black is told what was played" b1 "White pressed done: d4"
check "black's move list holds d4" b1 "1. d4"
absent "black's screen shows no e4" b1 "e4"
if [ "$(posted takeback)" -eq $((takebacks + 1)) ] && [ "$(posted done)" -ge 1 ]; then
	echo "ok - one takeback and a done reached the server"
else
	echo "not ok - takeback/done requests: $(posted takeback) takeback, $(posted done) done"
	failures=$((failures + 1))
fi
snap=$(curl -s "$url/v1/games/$id")
case "$snap" in
*'"moves":[{"ply":0'*'"uci":"d2d4"'*) echo "ok - the server's game holds d4" ;;
*) echo "not ok - snapshot after done: $snap"; failures=$((failures + 1)) ;;
esac

# 2. Black resigns; a rematch with colours swapped and the series score.
keys b1 m r
check "resign asks first" b1 "resign this game? (y/n)"
keys b1 y
check "white's screen: resigned" w1 "1-0 resignation" 10
check "a rematch is offered on the game-over screen" w1 "r rematch"
keys w1 r
check "white's offer stands" w1 "you offered a rematch — W withdraw" 10
check "black sees the offer" b1 "White offers a rematch — r accept, - decline" 10
keys b1 r
check "white's screen follows the next game" w1 "game 2 of the series has started: you play Black" 20
check "black's screen follows the next game" b1 "game 2 of the series has started: you play White" 20
check "the first game's White waits as Black" w1 "White to move"
check "the first game's Black moves first" b1 "your move"
check "white's series score, own points first" w1 "series game 2: you 1–0 black_p"
check "black's series score, own points first" b1 "series game 2: you 0–1 white_p"
# The board turned: the first game's White now sees the files from h to a.
capture w1
if printf '%s\n' "$screen" | grep -q 'h.*g.*f.*e.*d.*c.*b.*a *$' ; then
	echo "ok - white's board is turned for Black"
else
	echo "not ok - white's board is not turned:"; printf '%s\n' "$screen" | sed 's/^/    |/'
	failures=$((failures + 1))
fi
capture b1
if printf '%s\n' "$screen" | grep -q 'a.*b.*c.*d.*e.*f.*g.*h' ; then
	echo "ok - black's board is turned for White"
else
	echo "not ok - black's board is not turned:"; printf '%s\n' "$screen" | sed 's/^/    |/'
	failures=$((failures + 1))
fi
new=$(curl -s "$url/v1/games/$id" | grep -o '"next":"[0-9a-f]*"' | cut -d'"' -f4)
case "$new" in
"") echo "not ok - the first game names no next game"; failures=$((failures + 1)) ;;
*) check "white's status line names the new game" w1 "game ${new:0:8}" ;;
esac
# The series goes on: the second game is an undo game too (the same options).
keys b1 / e4 Enter
check "the new game keeps the undo option" b1 "e4 is provisional"
keys b1 d
check "the new game's first move reaches the other screen" w1 "your move"

e2e_finish "all undo and series checks passed"
