#!/usr/bin/env bash
# End-to-end test of network play: a real tchessd from the build tree on a
# loopback port with a temporary database, two players registered, White
# and Black each running "tchess play"/"tchess join" in their own 80x24
# tmux session, a third session watching. They play the fool's mate by
# typing moves; Black's mating move is a premove the server plays the
# instant White moves. On the way: an illegal move is refused without a
# request (the server's per-request log does not grow), the spectator is
# told it cannot move, and the server is killed with SIGKILL mid-game and
# restarted on the same port and database while the clients wait.
#
# Every wait polls the screen (or the log) with a deadline; nothing sleeps
# and hopes. Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init play

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
mkdir -p "$tmp/watch"
mode=$(stat -c %a "$tmp/white/tchess/token")
if [ "$mode" = 600 ]; then echo "ok - token file is mode 600"; else echo "not ok - token mode $mode"; failures=$((failures + 1)); fi

# 1. White opens a seek; the id comes from "tchess games".
start_session w white play --vs open --color white --tc 5+3
check "white waits for an opponent" w "waiting for an opponent" 20
id=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games | awk 'NR > 1 && $2 == "open" { print $1; exit }')
if [ -n "$id" ]; then echo "ok - tchess games lists the open game"; else echo "not ok - no open game listed"; exit 1; fi

# 2. Black joins; a spectator watches.
start_session b black join "$id"
check "white's turn on white's screen" w "your move" 20
check "black sees White to move" b "White to move" 20
# The spectator types the id as the screens show it: its first 8
# characters (the status line's "game 208fe1f1").
check "white's status line shows the short id" w "game ${id:0:8} |"
start_session s watch watch "${id:0:8}" --server "$url"
check "spectator sees the game" s "spectating: White to move" 20
# An unknown or ambiguous prefix is an error before any screen opens.
out=$(XDG_CONFIG_HOME="$tmp/watch" "$TCHESS" watch zz9 --server "$url" 2>&1 </dev/null); rc=$?
if [ $rc -eq 1 ] && [ "$out" = "tchess watch: no game with an id starting 'zz9' (tchess games lists them)" ]; then
	echo "ok - an unknown prefix is refused before the screen"
else
	echo "not ok - unknown prefix: status $rc, '$out'"; failures=$((failures + 1))
fi
# (An ambiguous prefix needs two ids that share it: test-view.c.)
out=$(XDG_CONFIG_HOME="$tmp/watch" "$TCHESS" watch "" --server "$url" 2>&1 </dev/null); rc=$?
if [ $rc -eq 2 ]; then echo "ok - an empty id is refused"; else echo "not ok - empty id: $rc '$out'"; failures=$((failures + 1)); fi
capture b
row1=$(printf '%s\n' "$screen" | sed -n 2p)
case "$row1" in "1 "*) echo "ok - black's board is flipped (rank 1 on top)" ;;
*) echo "not ok - black's board not flipped: '$row1'"; failures=$((failures + 1)) ;; esac

# 3. An illegal move is refused at once, with the reason, and no request.
before=$(posted moves)
keys w / e 5 Enter
check "illegal move refused with a reason" w "illegal:"
keys w / f 3 Enter
check "f3 reaches the spectator" s "1. f3"
after=$(posted moves)
if [ "$after" -eq $((before + 1)) ]; then
	echo "ok - only the legal move was sent ($before -> $after move requests)"
else
	echo "not ok - move requests went from $before to $after"; failures=$((failures + 1))
fi

# 4. The spectator cannot move.
keys s /
check "spectator told it is spectating" s "spectating: you cannot move"

# 5. Black answers with Tab completion (e → e5 among e6/e5: type e5).
check "black's move" b "your move"
keys b / e 5 Enter
check "e5 on white's screen" w "e5"
check "white to move again" w "your move"

# 6. The server dies mid-game and comes back on the same port and database.
kill_server
check "white shows reconnecting" w "reconnecting" 10
check "black shows reconnecting" b "reconnecting" 10
start_server "127.0.0.1:$port"
check "white back online" w "online" 15
check "black back online" b "online" 15

# 7. Black premoves Qh4 during White's turn; White's g4 lets the server
# play it at once: mate.
keys b / d 8 h 4 Enter
check "premove shown as queued, in SAN" b "premove 1 queued: Qh4"
check "the info pane lists it in SAN" b "premove: Qh4   x clears"
keys w / g 4 Enter
check "white sees the mate" w "0-1 checkmate" 10
check "black sees the mate" b "0-1 checkmate" 10
check "black was told the premove was played" b "Qh4#"
check "spectator sees the mate" s "0-1 checkmate" 10
check "spectator's move list" s "g4"

# 8. Export and quit.
if XDG_CONFIG_HOME="$tmp/white" "$TCHESS" export "${id:0:8}" | grep -q "Qh4#"; then
	echo "ok - tchess export writes the PGN (given the short id)"
else
	echo "not ok - tchess export"; failures=$((failures + 1))
fi
keys w s
check "PGN saved from the game-over screen" w "saved the game to"
keys w q
check "white quits" w "tchess-exit-0"

# 9. With no server configured, tchess play runs its own tchessd; closing
# the terminal (SIGHUP to the client) takes that server along.
mkdir -p "$tmp/solo"
start_session e solo play --vs open
check "the embedded server's game waits" e "waiting for an opponent" 20
embedded=$(pgrep -f -- "--db $tmp/state-solo/" | head -1)
if [ -n "$embedded" ]; then ok "tchess play started its own tchessd"; else fail "no embedded tchessd"; fi
tmux -L "$sock" kill-session -t e
deadline=$((SECONDS + 10))
while [ -n "$embedded" ] && kill -0 "$embedded" 2>/dev/null && [ $SECONDS -lt $deadline ]; do poll_pause; done
if [ -n "$embedded" ] && ! kill -0 "$embedded" 2>/dev/null; then
	ok "the embedded tchessd stopped with its client"
else
	fail "the embedded tchessd outlived its client"
	[ -n "$embedded" ] && kill "$embedded"
fi

e2e_finish "all play checks passed"
