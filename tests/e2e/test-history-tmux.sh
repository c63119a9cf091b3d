#!/usr/bin/env bash
# Issue 14 item 5, the player's finished games on the home screen: two
# players of a real tchessd meet from their home screens (an invite),
# play a fool's mate, and go back home, where "Recent games" lists the
# game from each side ("lost" for White, "won" for Black, the opponent,
# 5+3, 2 moves, "today HH:MM", checkmate). Enter opens it in the review
# screen (its PGN fetched and kept in the games folder), q comes back
# home, and e exports it to the games folder. At 80x24 (TERM=xterm,
# NO_COLOR=1 for Black) and at 120x40; tchess games --finished lists it.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init history

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
start_session w white
e2e_env="TERM=xterm NO_COLOR=1" start_session b black
check "white's home screen" w "Invite a friend" 20
check "no finished game yet" w "Recent games: none yet" 20
keys w 3
check "3 opens the invite form" w "Create the invite"
keys w Enter
check "the invite shows" w "invite: tchess join" 20
line=$(printf '%s\n' "$screen" | grep -o 'tchess join [0-9a-f]\{8\}:[0-9a-hjkmnp-tv-z]\{5\}-[0-9a-hjkmnp-tv-z]\{5\}' | head -1)
[ -n "$line" ] || { fail "no invite line"; show_screen; }
id=$(printf '%s\n' "$line" | sed 's/tchess join \([0-9a-f]*\):.*/\1/')
check "black's home screen" b "Join a game" 20
keys b 4
check "4 opens the join prompt" b "join: _"
keys b -l "$line"
keys b Enter
check "white's game starts" w "the game has started: you play" 20
check "black's game starts" b "the game has started: you play" 20
capture w
case "$screen" in *"you play White"*) W=w; B=b; wname=white_p; bname=black_p ;;
*) W=b; B=w; wname=black_p; bname=white_p ;; esac
# Fool's mate: White loses.
keys $W f 3 Enter
check "f3" $B "f3" 10
keys $B e 5 Enter
check "e5" $W "e5" 10
keys $W g 4 Enter
check "g4" $B "g4" 10
keys $B Q h 4 Enter
check "White is mated" $W "You lost: 0-1 checkmate" 10
check "Black mated" $B "You won: 0-1 checkmate" 10
keys $W q
keys $B q
check "White is home" $W "Recent games" 10
check "the game under Recent games, lost" $W "lost  vs $bname" 10
check "Black is home" $B "won   vs $wname" 10
capture $W
row=$(printf '%s\n' "$screen" | grep "lost  vs $bname")
case "$row" in *"5+3"*"2 moves"*"today "[0-9][0-9]:[0-9][0-9]*checkmate*) ok "the row: $row" ;;
*) fail "the row lacks time control, moves, date or how it ended: '$row'"; show_screen ;; esac
# Nothing cut at 80 columns.
if printf '%s\n' "$screen" | awk 'length > 80 { bad = 1 } END { exit !bad }'; then fail "a line over 80 columns"; fi
absent "the finished game is not among the ongoing" $W "move 3"

# Enter on it: the review screen, with the moves; q goes home.
games="$tmp/.local/share/tchess/games"
pgn_of() { ls "$games"/tchess-"$id"*.pgn 2>/dev/null | head -1; }
rm -f "$games"/tchess-*.pgn
keys $W j j j j j j j j j
check "the status line names the keys" $W "Enter review  e export"
keys $W Enter
check "Enter opens the game in review" $W "Qh4#" 20
if [ -n "$(pgn_of)" ]; then ok "its PGN kept in the games folder"; else fail "no PGN in $games"; fi
keys $W q
check "q returns home" $W "Recent games" 10

# e exports it (fetched again: the file is gone).
rm -f "$games"/tchess-*.pgn
keys $B j j j j j j j j j e
check "e exports the PGN" $B "saved the game to" 10
pgn=$(pgn_of)
if [ -n "$pgn" ] && grep -q '^\[Result "0-1"\]' "$pgn"; then ok "the PGN in the games folder"; else fail "no PGN of 0-1 in $games"; fi
keys $B e
check "a second e names the file" $B "the PGN is in" 10

# tchess games --finished: the same game, from each side.
for who in white black; do
	out=$(XDG_CONFIG_HOME="$tmp/$who" HOME="$tmp" "$TCHESS" games --finished --server "$url" 2>&1)
	if [ "${who}_p" = "$wname" ]; then want=lost other=$bname; else want=won other=$wname; fi
	row=$(printf '%s\n' "$out" | grep "^$id")
	case "$row" in *" $want "*" $other "*"5+3"*" 2 "*"0-1 checkmate"*) ok "tchess games --finished ($who): $row" ;;
	*) fail "tchess games --finished ($who): '$out'" ;; esac
done

# At 120x40: more rows fit; the row is whole.
tmux -L "$sock" resize-window -t $W -x 120 -y 40
check "120x40 home" $W "lost  vs $bname" 10
keys $W q
keys $B q
check "white quits" w "tchess-exit-0" 10
check "black quits" b "tchess-exit-0" 10

e2e_finish "all history checks passed"
