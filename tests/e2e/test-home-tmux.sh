#!/usr/bin/env bash
# End-to-end test of the home screen that plain `tchess` opens, in 80x24
# tmux sessions:
#
# 1. With no server configured (the embedded one): the actions and "Your
#    games: none yet"; 1 starts a game against the engine, leaving it
#    comes back to the home screen, which lists it (vs engine, the move
#    number, whose move); Enter on it takes the game back.
# 2. Two players of a real tchessd (colours drawn): one invites from the home screen
#    (3), Black joins from its home screen (4) by typing the invite line
#    White's screen shows; both games start.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux, and part 1 without Stockfish.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init home

engine=""
for e in /usr/games/stockfish /usr/bin/stockfish /usr/local/bin/stockfish; do [ -x "$e" ] && engine=$e; done

# 1. The embedded server.
if [ -n "$engine" ]; then
	mkdir -p "$tmp/solo"
	start_session h solo
	check "plain tchess opens the home screen" h "Play the engine" 20
	check "no games yet" h "Your games: none yet"
	keys h 1
	check "1 starts a game against the engine" h "your move" 20
	# The colour is drawn: the engine has moved when we are Black.
	capture h
	case "$screen" in *"1. "*) knight="N c 6"; san=Nc6 ;; *) knight="N c 3"; san=Nc3 ;; esac
	keys h / $knight Enter
	check "$san played" h "$san"
	check "the engine answers" h "your move" 20
	keys h m q
	check "leaving asks" h "leave the game?"
	keys h y
	check "back on the home screen" h "Your games" 10
	check "the game is listed with its opponent" h "vs engine"
	check "and whose move" h "* your move"
	id=$(printf '%s\n' "$screen" | sed -n 's/^  \([0-9a-f]\{8\}\)  .* vs engine .* move [0-9]* .*/\1/p' | head -1)
	if [ -n "$id" ]; then ok "the row names the game ($id) and its move number"; else fail "no game row"; show_screen; fi
	# The selection goes down the nine actions to the game.
	keys h j j j j j j j j j Enter
	check "Enter takes the game back" h "game $id |" 20
	check "with its moves" h "$san"
	keys h m q
	check "leaving again asks" h "leave the game?"
	keys h y
	check "home again" h "Play the engine" 10
	keys h q
	check "q quits tchess" h "tchess-exit-0"
else
	echo "ok - # SKIP part 1: stockfish is not installed"
fi

# 2. An invite made and typed on two home screens.
start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
start_session w white
check "white's home screen (the token file's server)" w "Invite a friend" 20
keys w 3
check "3 opens the invite form" w "Create the invite"
keys w Enter
check "the invite shows" w "invite: tchess join" 20
line=$(printf '%s\n' "$screen" | grep -o 'tchess join [0-9a-f]\{8\}:[0-9a-hjkmnp-tv-z]\{5\}-[0-9a-hjkmnp-tv-z]\{5\}' | head -1)
if [ -n "$line" ]; then ok "the invite line: $line"; else fail "no invite line"; show_screen; fi
start_session b black
check "black's home screen" b "Join a game" 20
keys b 4
check "4 opens the join prompt" b "join: _"
keys b -l "$line"
keys b Enter
check "black joined from the home screen" b "the game has started: you play" 20
check "white's game starts" w "the game has started: you play" 20
keys b m q
check "black leaving asks" b "leave the game?"
keys b y
check "black is back home, the game listed" b "vs white_p" 10

e2e_finish "all home-screen checks passed"
