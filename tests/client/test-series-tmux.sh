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

for tool in tmux curl; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed"
		exit 77
	fi
done
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
export LC_ALL=C.UTF-8
tmp=$(mktemp -d)
sock="tchess-series-$$"
failures=0
screen=""
server_pid=""

cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# start_server ADDR: runs tchessd, sets server_pid and port. A restart on
# the same port may find it still held for a moment: try again until the
# deadline.
start_server() {
	local deadline=$((SECONDS + 20))
	while :; do
		: >"$tmp/out"
		"$TCHESSD" --listen "$1" --db "$tmp/db" >"$tmp/out" 2>>"$tmp/log" &
		server_pid=$!
		until grep -q "listening on" "$tmp/out" || ! kill -0 "$server_pid" 2>/dev/null; do
			[ $SECONDS -ge $deadline ] && break
			tmux -L "$sock" wait-for -S never 2>/dev/null || true
		done
		grep -q "listening on" "$tmp/out" && break
		wait "$server_pid" 2>/dev/null
		if [ $SECONDS -ge $deadline ]; then
			echo "not ok - tchessd did not start"; tail -5 "$tmp/log"; exit 1
		fi
	done
	port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/out")
}

start_server 127.0.0.1:0
url="http://127.0.0.1:$port"

mkdir -p "$tmp/white" "$tmp/black"
for who in white black; do
	if ! XDG_CONFIG_HOME="$tmp/$who" "$TCHESS" register "${who}_p" --server "$url" >/dev/null; then
		echo "not ok - register $who"; exit 1
	fi
done

# run NAME CONFIG ARGS...: a detached 80x24 session running tchess ARGS.
run() {
	local name=$1 cfg=$2; shift 2
	tmux -L "$sock" -f /dev/null new-session -d -s "$name" -x 80 -y 24 -c "$tmp" \
		env -i PATH="$PATH" HOME="$tmp" LANG=C.UTF-8 TERM=xterm-256color \
		XDG_CONFIG_HOME="$tmp/$cfg" XDG_STATE_HOME="$tmp/state-$cfg" \
		TCHESS_THEME_DIR="${TCHESS_THEME_DIR:-}" \
		sh -c '"$0" "$@"; echo "tchess-exit-$?"; sleep 60' "$TCHESS" "$@"
}

capture() { screen=$(tmux -L "$sock" capture-pane -p -t "$1" 2>/dev/null); }

# wait_for SESSION TEXT [SECONDS]: polls the screen until TEXT shows.
wait_for() {
	local deadline=$((SECONDS + ${3:-10}))
	while :; do
		capture "$1"
		case "$screen" in *"$2"*) return 0 ;; esac
		[ $SECONDS -ge $deadline ] && return 1
		tmux -L "$sock" wait-for -S never 2>/dev/null
	done
}

check() { # check NAME SESSION TEXT [SECONDS]
	if wait_for "$2" "$3" "${4:-10}"; then
		echo "ok - $1"
	else
		echo "not ok - $1: '$3' not on the $2 screen:"
		printf '%s\n' "$screen" | sed 's/^/    |/'
		failures=$((failures + 1))
	fi
}

keys() { local s=$1; shift; tmux -L "$sock" send-keys -t "$s" "$@"; }
posted() { grep -c "POST /v1/games/.*/$1 " "$tmp/log"; }

# new_game N [PLAY OPTIONS]: White (session wN) opens a seek, Black (bN)
# joins; sets id.
new_game() {
	local before
	before=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games --server "$url" | awk 'NR > 1 && $2 == "open" { print $1 }')
	local n=$1; shift
	run "w$n" white play --vs open --color white --tc 5+3 --server "$url" "$@"
	check "game $n: white waits" "w$n" "waiting for an opponent" 20
	id=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games --server "$url" |
		awk -v old="$before" 'NR > 1 && $2 == "open" && index(old, $1) == 0 { print $1; exit }')
	if [ -z "$id" ]; then echo "not ok - game $n: no open game listed"; exit 1; fi
	run "b$n" black join "$id" --server "$url"
	check "game $n: white to move" "w$n" "your move" 20
	check "game $n: black sees White to move" "b$n" "White to move" 20
}

# absent SESSION TEXT: TEXT is not on the screen now.
absent() {
	capture "$2"
	# The game's id on the status line is random hex ("0d592be4" holds
	# "e4"): the last line is left out.
	screen=$(printf '%s\n' "$screen" | sed '$d')
	case "$screen" in
	*"$3"*)
		echo "not ok - $1: '$3' is on the $2 screen:"
		printf '%s\n' "$screen" | sed 's/^/    |/'
		failures=$((failures + 1)) ;;
	*) echo "ok - $1" ;;
	esac
}

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
keys b1 R
check "resign asks first" b1 "resign this game? (y/n)"
keys b1 y
check "white's screen: resigned" w1 "1-0 resignation" 10
check "a rematch is offered on the game-over screen" w1 "r rematch"
keys w1 r
check "white's offer stands" w1 "you offered a rematch — W withdraw" 10
check "black sees the offer" b1 "White offers a rematch — r accept, D decline" 10
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

if [ $failures -gt 0 ]; then
	echo "$failures failure(s); server log:"
	tail -20 "$tmp/log"
	exit 1
fi
echo "all undo and series checks passed"
