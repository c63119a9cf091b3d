#!/usr/bin/env bash
# End-to-end test of the game actions on the play screen: a real tchessd
# from the build tree on a loopback port, two players each running tchess
# in an 80x24 tmux session, one short game per action, read off the
# screens:
#   1. White offers a draw (=), Black sees the offer in the status line and
#      accepts (A): both screens end "1/2-1/2 agreement".
#   2. White claims threefold (C) at the start: refused at once, locally,
#      with the reason, and no claim request reaches the server; after a
#      knight shuffle the same key ends the game "1/2-1/2 threefold".
#   3. White aborts (X, confirmed) before the first move: "* aborted".
#   4. The connection drops: the server is killed with SIGKILL, White
#      moves during the drop (the move waits in the client), the server
#      comes back on the same port and database, the move is re-sent with
#      the same ply and played exactly once (the server's snapshot says
#      so); then Black resigns (R, confirmed): "1-0 resignation".
#   5. An aborted game is erased under a spectator's eyes: the server comes
#      back with a 2 s aborted_retention_ms, White aborts a watched game,
#      and once it is erased the poll's 410 is told plainly on every
#      screen ("this game was aborted and erased", "game gone") instead
#      of a frozen board; q still leaves, and says why on the terminal.
#
# Every wait polls the screen (or the log) with a deadline; nothing sleeps
# and hopes. Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init actions

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done

# 1. A draw offered by White and accepted by Black.
new_game 1
keys w1 =
check "white is told the offer stands" w1 "you offered a draw" 10
check "black sees the offer in the status line" b1 "White offers a draw — + accept, - decline" 10
keys b1 +
check "white's screen ends in agreement" w1 "1/2-1/2 agreement" 10
check "black's screen ends in agreement" b1 "1/2-1/2 agreement" 10
check "the reason is given, White's offer is 'your' offer" w1 "Black accepted your draw offer"
check "black reads it as 'you accepted'" b1 "you accepted White's draw offer"
check "PGN save offered" b1 "s save PGN"
keys w1 q
keys b1 q
check "white quits after the game" w1 "tchess-exit-0"

# 2. Threefold: refused locally, then claimed after a knight shuffle.
new_game 2
claims=$(posted claim)
keys w2 m c
check "threefold refused at once, with the reason" w2 \
	"no draw to claim: position seen 1 of 3 times, fifty-move count 0 of 100 plies"
if [ "$(posted claim)" -eq "$claims" ]; then
	echo "ok - the refused claim sent no request"
else
	echo "not ok - a claim request reached the server"; failures=$((failures + 1))
fi
n=0
for mv in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8; do
	if [ $((n % 2)) -eq 0 ]; then s=w2; o=b2; else s=b2; o=w2; fi
	check "ply $n: $mv to play" "$s" "your move" 10
	keys "$s" / $mv Enter
	n=$((n + 1))
	# The opponent's turn comes when the move arrived.
	[ $n -lt 8 ] && check "ply $n: move arrived" "$o" "your move" 10
done
check "white's move after the shuffle" w2 "your move" 10
keys w2 m c
check "white's threefold claim ends the game" w2 "1/2-1/2 threefold" 10
check "black sees the threefold" b2 "1/2-1/2 threefold" 10
check "the claimant is named" b2 "claimed by White"
keys w2 q
keys b2 q

# 3. Abort before the first move, with confirmation.
new_game 3
keys w3 X
check "abort asks first" w3 "abort this game? it ends unscored (y/n)"
keys w3 y
check "white's game is aborted" w3 "* aborted" 10
check "black's game is aborted" b3 "* aborted" 10
check "who aborted" b3 "aborted by White"
keys w3 q
keys b3 q

# 4. The connection drops while White moves; then Black resigns.
new_game 4
keys w4 / e4 Enter
check "e4 reaches black" b4 "your move" 10
keys b4 / e5 Enter
check "e5 reaches white" w4 "your move" 10
moves=$(posted moves)
kill_server
keys w4 / Nf3 Enter
check "white shows reconnecting" w4 "reconnecting" 10
check "the move waits on white's board" w4 "Nf3" 5
start_server "127.0.0.1:$port"
check "black sees the move after the restart" b4 "Nf3" 20
check "black to move" b4 "your move" 10
snap=$(curl -s "$url/v1/games/$id")
ply=$(printf '%s' "$snap" | grep -o '"ply":[0-9]*,"turn"' | grep -o '[0-9]*')
nf3=$(printf '%s' "$snap" | grep -o '"uci":"g1f3"' | wc -l)
nmoves=$(printf '%s' "$snap" | grep -o '"uci":"[a-h1-8]*"' | wc -l)
if [ "$ply" = 3 ] && [ "$nf3" -eq 1 ] && [ "$nmoves" -eq 3 ]; then
	echo "ok - the move sent during the drop was played exactly once (ply 3, moves $nmoves)"
else
	echo "not ok - snapshot after the drop: ply '$ply', g1f3 $nf3 times, $nmoves moves"
	failures=$((failures + 1))
fi
echo "# move requests that reached the server: $(( $(posted moves) - moves ))"
# Resign is in the action menu (R is a rook's move).
keys b4 m
check "the action menu opens" b4 "actions: press a key"
keys b4 r
check "resign asks first" b4 "resign this game? (y/n)"
keys b4 n
keys b4 m r
keys b4 y
check "black's screen: resigned" b4 "1-0 resignation" 10
check "white's screen: resigned" w4 "1-0 resignation" 10
check "the reason is given" w4 "Black resigned"
check "the resigner reads 'you resigned'" b4 "you resigned"

# 5. An aborted game erased while watched.
kill_server
printf 'aborted_retention_ms = 2000\n' >"$tmp/short-retention.conf"
start_server "127.0.0.1:$port" --config "$tmp/short-retention.conf"
new_game 5
mkdir -p "$tmp/watch"
start_session s5 watch watch "$id" --server "$url"
check "the spectator follows game 5" s5 "spectating: White to move" 20
keys w5 X
check "abort asks first" w5 "abort this game? it ends unscored (y/n)"
keys w5 y
check "white's game is aborted" w5 "* aborted" 10
check "the spectator is told the game is erased" s5 "this game was aborted and erased" 20
check "and that nothing more will come" s5 "nothing more will come"
check "the status line says the game is gone" s5 "game gone"
check "black is told too" b5 "this game was aborted and erased" 10
check "white is told too" w5 "game gone" 10
keys s5 x
check "a key that would ask the server says why instead" s5 "this game was aborted and erased: q quits"
keys s5 q
check "q leaves the watch at once" s5 "tchess-exit-1"
check "and says why on the terminal" s5 "(the server keeps an aborted game only a short while"
keys w5 q
check "white leaves without being asked" w5 "tchess-exit-1"

e2e_finish "all action checks passed"
