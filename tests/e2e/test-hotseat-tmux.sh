#!/usr/bin/env bash
# Issue 14 item 7, two players at one terminal (hotseat) on a real tchessd:
#
# 1. tchess play --hotseat: fool's mate typed for both sides; the board
#    turns to each player (the top rank label changes from 8 to 1 and
#    back); the end reads "Black won: 0-1 checkmate" and s saves the PGN,
#    whose players are the player and the guest account.
# 2. --board fixed keeps White at the bottom after Black's turn comes; t
#    switches to turning, and the board turns to Black at once.
# 3. From the home screen, 7 ("Play a friend here") opens a hotseat game
#    with the time control chosen on its row (t); left, it is opened
#    again from "Your games" and plays on as a hotseat (both sides move).
# 4. After the mate, r starts the rematch: a new hotseat game with the
#    colours swapped (the guest's account is White); left with q, tchess
#    join ID takes it back as a hotseat: Black's and White's moves both
#    play, each with its seat's token.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init hotseat

# A disconnect grace of 3 s: the seat that does not poll (the guest's)
# must still count as here while the other player thinks.
printf 'disconnect_grace_ms = 3000\n' >"$tmp/tchessd.conf"
start_server 127.0.0.1:0 --config "$tmp/tchessd.conf"
register_player friend host_p

# top_rank SESSION: the rank label at the top of the board (the first
# character of the board's first row, screen row 2).
top_rank() { capture "$1"; printf '%s\n' "$screen" | sed -n 2p | cut -c1; }

# wait_top SESSION RANK: polls until the top rank label is RANK.
wait_top() {
	local deadline=$((SECONDS + wait_seconds))
	while [ "$(top_rank "$1")" != "$2" ]; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}

# 1. Fool's mate, both sides at the keyboard.
start_session h friend play --hotseat --tc 5+0 --server "$url"
check "the hotseat game starts with White to move" h "White to move" 20
check "the game says the board turns" h "the board turns to each player"
if wait_top h 8; then ok "White's turn: rank 8 at the top"; else fail "top rank $(top_rank h), not 8"; show_screen; fi
absent "nobody is 'you' at a hotseat" h "(you)"
# White thinks for longer than the grace: the guest's reads of the game
# (GET /v1/games/ID, three of them, 2 s apart) keep Black's seat here.
gid=$(printf '%s\n' "$screen" | sed -n 's/^game \([0-9a-f]*\) .*/\1/p' | tail -1)
deadline=$((SECONDS + 20))
while [ "$(grep -c "GET /v1/games/$gid[0-9a-f]* 200" "$tmp/log")" -lt 3 ] && [ $SECONDS -lt $deadline ]; do poll_pause; done
if [ "$(grep -c "GET /v1/games/$gid[0-9a-f]* 200" "$tmp/log")" -ge 3 ] && ! grep -q "is gone" "$tmp/log"; then
	ok "the second seat reads the game while White thinks, and is never counted gone"
else
	fail "presence of the second seat: $(grep -c "GET /v1/games/$gid" "$tmp/log") reads; $(grep "is gone" "$tmp/log")"
fi
keys h f 3 Enter
check "f3 is played" h "1. f3"
check "then Black to move" h "Black to move"
if wait_top h 1; then ok "Black's turn: the board turned, rank 1 at the top"; else fail "top rank $(top_rank h), not 1"; show_screen; fi
keys h e 5 Enter
check "e5 is played as Black's" h "e5"
if wait_top h 8; then ok "White's turn again: rank 8 at the top"; else fail "top rank $(top_rank h), not 8"; show_screen; fi
keys h g 4 Enter
check "g4 is played" h "2. g4"
# The server's answer turns the board: Black's move is typed only then.
if wait_top h 1; then ok "Black's turn again: rank 1 at the top"; else fail "top rank $(top_rank h), not 1"; show_screen; fi
keys h Q h 4 Enter
check "Qh4 mates" h "Qh4#"
check "the end says who won, by side" h "Black won: 0-1 checkmate"
keys h s
check "s saves the PGN" h "saved the game to" 10
pgn=$(ls "$tmp"/.local/share/tchess/games/tchess-*.pgn 2>/dev/null | head -1)
if [ -n "$pgn" ] && grep -q '^\[Result "0-1"\]' "$pgn" && grep -q '^\[White "host_p"\]' "$pgn" &&
	grep -q '^\[Black "host_p-guest"\]' "$pgn" && grep -q 'Qh4#' "$pgn"; then
	ok "the PGN: host_p (White) v host_p-guest, 0-1, Qh4#"
else
	fail "the saved PGN: $pgn"; [ -n "$pgn" ] && cat "$pgn"
fi
check "the end offers a rematch" h "r rematch"
keys h q
check "q leaves after the game" h "tchess-exit-0"
check "the result is printed" h "0-1"

# 2. A fixed board, then t turns it to each player.
start_session f friend play --hotseat --board fixed --tc 5+0 --server "$url"
check "the fixed game starts" f "White to move" 20
keys f e 4 Enter
check "e4 is played" f "Black to move"
if wait_top f 8; then ok "--board fixed: Black's turn, rank 8 still at the top"; else fail "top rank $(top_rank f)"; show_screen; fi
keys f t
check "t says the board now turns" f "the board turns to each player (t keeps it still)"
if wait_top f 1; then ok "t: the board turns to Black at once"; else fail "top rank $(top_rank f), not 1"; show_screen; fi
gidf=$(printf '%s\n' "$screen" | sed -n 's/^game \([0-9a-f]*\) .*/\1/p' | tail -1)
keys f m q
check "leave asks, saying the clocks stop" f "leave the game? it is adjourned: the clocks stop"
keys f y
check "leaving says the game stays open" f "left hotseat game"
# Both players left at once: adjourned by the two seats' consent, so it
# outlasts the grace (before: each seat counted gone after it, and fide
# ended the game unscored). The server's log says when the seats are gone.
fullf=$(sed -n "s/.*game \($gidf[0-9a-f]*\): event [0-9]* game-adjourned.*/\1/p" "$tmp/log" | tail -1)
deadline=$((SECONDS + 20))
until { grep -q "game $fullf: white is gone" "$tmp/log" && grep -q "game $fullf: black is gone" "$tmp/log"; } ||
	[ $SECONDS -ge $deadline ]; do poll_pause; done
snap=$(curl -s "$url/v1/games/$fullf")
case "$snap" in
*'"status":"adjourned"'*) ok "left with q: adjourned ($fullf), and still so past the grace" ;;
*) fail "the hotseat game left with q ($gidf, '$fullf'): $(printf '%s' "$snap" | grep -o '"status":"[a-z]*"')"; tail -5 "$tmp/log" ;;
esac

# 3. From the home screen.
start_session m friend
check "the home screen lists the hotseat action" m "Play a friend here"
keys m 7
check "7 opens a hotseat game" m "White to move" 20
check "with the row's time control (5+3)" m "5+3"
keys m d 4 Enter
check "d4 is played from home's hotseat game" m "Black to move"
if wait_top m 1; then ok "the board turns to Black"; else fail "top rank $(top_rank m)"; show_screen; fi
gid3=$(printf '%s\n' "$screen" | sed -n 's/^game \([0-9a-f]*\) .*/\1/p' | tail -1)
keys m m q
check "home: leaving asks" m "leave the game?"
keys m y
check "home: back on the home screen" m "Your games" 10
check "home: the game is listed" m "  ${gid3:0:8}  "
# Up to the first action, down the nine and to the game's row.
for _ in $(seq 12); do keys m k; done
row=$(printf '%s\n' "$screen" | grep -E '^  [0-9a-f]{8}  ' | grep -n "^  ${gid3:0:8}  " | cut -d: -f1)
down=$((8 + ${row:-1}))
for _ in $(seq "$down"); do keys m j; done
keys m Enter
check "home: the hotseat game opens again" m "game ${gid3:0:8}" 20
check "home: it was adjourned when left" m "adjourned — P resumes"
keys m P
check "home: P resumes it" m "the game is resumed"
check "home: Black to move" m "Black to move"
if wait_top m 1; then ok "home: turned to Black, a hotseat again"; else fail "top rank $(top_rank m)"; show_screen; fi
absent "home: nobody is 'you'" m "(you)"
keys m d 5 Enter
check "home: Black's d5 is played" m "1. d4       d5"
if wait_top m 8; then ok "home: White to move, the board turned back"; else fail "top rank $(top_rank m)"; show_screen; fi
keys m c 4 Enter
check "home: White's c4 is played" m "2. c4"

# 4. The rematch: a new hotseat game, colours swapped (the guest is White
# now), then left with q and taken back with tchess join -- within the
# ruleset's disconnect grace (15 s), as any game left: tchessd again on
# the same database and port, without the 3 s grace.
kill_server
start_server "127.0.0.1:$port"
start_session r friend play --hotseat --tc 5+0 --server "$url"
check "again: a hotseat game" r "White to move" 20
gid=$(printf '%s\n' "$screen" | sed -n 's/^game \([0-9a-f]*\) .*/\1/p' | tail -1)
keys r f 3 Enter
if wait_top r 1; then ok "again: f3, Black's turn"; else fail "top rank $(top_rank r)"; show_screen; fi
keys r e 5 Enter
if wait_top r 8; then ok "again: e5, White's turn"; else fail "top rank $(top_rank r)"; show_screen; fi
keys r g 4 Enter
if wait_top r 1; then ok "again: g4, Black's turn"; else fail "top rank $(top_rank r)"; show_screen; fi
keys r Q h 4 Enter
check "again: Qh4 mates" r "Black won: 0-1 checkmate"
check "the end offers a rematch" r "r rematch"
keys r r
check "r starts the rematch: White to move in a new game" r "White to move" 20
gid2=$(printf '%s\n' "$screen" | sed -n 's/^game \([0-9a-f]*\) .*/\1/p' | tail -1)
[ -n "$gid2" ] && [ "$gid2" != "$gid" ] && ok "the rematch is a new game ($gid2)" || fail "rematch game id '$gid2' (first $gid)"
# The whole id (the status line shows 8 digits), from tchessd's log.
full2=$(sed -n "s/.*rematch accepted: game \($gid2[0-9a-f]*\).*/\1/p" "$tmp/log" | tail -1)
snap=$(curl -s "$url/v1/games/$full2")
white=$(printf '%s' "$snap" | grep -o '"white":{[^}]*}')
black=$(printf '%s' "$snap" | grep -o '"black":{[^}]*}')
case "$white/$black" in
*'"name":"host_p-guest"'*/*'"name":"host_p"'*) ok "the rematch's White is the guest, Black the player" ;;
*) fail "the rematch's seats: $white $black" ;;
esac
if wait_top r 8; then ok "the rematch: White's turn, rank 8 at the top"; else fail "top rank $(top_rank r)"; show_screen; fi
keys r e 4 Enter
check "e4 is played in the rematch (by the guest's seat)" r "1. e4"
if wait_top r 1; then ok "the rematch: then Black's turn"; else fail "top rank $(top_rank r)"; show_screen; fi
keys r m q
check "leaving the rematch asks" r "leave the game?"
keys r y
check "leaving says how to come back" r "to come back"
start_session j friend join "$gid2" --server "$url"
check "q prints that the game stays open" r "left hotseat game"
check "join: the game left is adjourned" j "adjourned — P resumes" 20
keys j P
check "join: P resumes it" j "the game is resumed"
check "join: Black to move" j "Black to move" 20
if wait_top j 1; then ok "join: the board turns to Black, as at a hotseat"; else fail "top rank $(top_rank j)"; show_screen; fi
absent "join: still nobody is 'you'" j "(you)"
keys j e 5 Enter
check "join: Black's e5 is played (the player's own seat)" j "1. e4       e5"
if wait_top j 8; then ok "join: then White's turn"; else fail "top rank $(top_rank j)"; show_screen; fi
keys j N f 3 Enter
check "join: White's Nf3 is played too (the guest's seat)" j "2. Nf3"
keys j m q
keys j y
check "join: left again" j "left hotseat game"

e2e_finish "hotseat: fool's mate, rematch, join again, the turning board, a fixed board, from home and back"
