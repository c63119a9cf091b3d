#!/usr/bin/env bash
# Issue 14 item 4, "letters are stolen": on a real tchessd, two players
# type moves straight at the board, in the case people type them, and no
# letter a move starts with runs a command. White plays f4 (f used to
# flip the board), nf3 (n used to open the notes), E2E3, be2 and castles
# by dropping the king on its own rook; Black plays nf6, g6, bg7 and E8G8.
# Tab on the ambiguous prefix "n" lists the knight moves. The actions are
# in the menu (m) and on keys no move starts with.
#
# Every wait polls the screen with a deadline. Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init letters

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1

# White's f4, typed at the board: a move, not a flip.
keys w1 f 4 Enter
check "f4 typed at the board is played" b1 "1. f4" 10
capture w1
row1=$(printf '%s\n' "$screen" | sed -n 2p)
case "$row1" in "8 "*) ok "the board was not flipped by f" ;;
*) fail "white's board flipped: '$row1'"; show_screen ;; esac

# Black's nf6 in lowercase: the knight, not the notes.
check "black's move" b1 "your move" 10
keys b1 n f 6 Enter
check "nf6 is read as Nf6" w1 "Nf6" 10
absent "the notes did not open" b1 "notes (only you see"

# Tab on the ambiguous "n": the knight moves listed, the prompt kept.
check "white's move" w1 "your move" 10
keys w1 n Tab
check "Tab lists the candidates" w1 "Nf3"
check "among them Nc3" w1 "Nc3"
check "the prompt keeps the prefix" w1 "move: N_"
keys w1 f 3 Enter
check "Nf3 played" b1 "2. Nf3" 10

check "black's move 2" b1 "your move" 10
keys b1 g 6 Enter
check "g6 arrives" w1 "g6" 10
keys w1 E 2 E 3 Enter
check "E2E3 is read as e3" b1 "3. e3" 10
keys b1 b g 7 Enter
check "bg7 is read as Bg7" w1 "Bg7" 10
keys w1 b e 2 Enter
check "be2 is read as Be2" b1 "4. Be2" 10
keys b1 E 8 G 8 Enter
check "E8G8 castles" w1 "O-O" 10

# White castles by dropping the king on its own rook: the cursor starts
# on the king, Enter picks it up, three squares right is h1.
check "white's move 5" w1 "your move" 10
keys w1 Enter
keys w1 Enter
keys w1 Right Right Right
keys w1 Enter
check "the king dropped on the rook castles" b1 "5. O-O" 10

# The actions: the menu on m, Esc closes it; + and - answer offers.
keys b1 =
check "= offers a draw" w1 "Black offers a draw — + accept, - decline" 10
keys w1 -
check "- declines it" b1 "White declined your draw offer" 10
keys w1 m
check "m opens the action menu" w1 "actions: press a key"
check "resign is in it" w1 "r   resign (asks first)"
keys w1 Escape
check "Esc closes it: the move list is back" w1 "5. O-O" 10
absent "the menu is gone" w1 "actions: press a key"
keys w1 '?'
check "the help says letters are moves" w1 "a letter a move starts with types the move"
keys w1 '?'
keys w1 m q
check "leaving is in the menu" w1 "leave the game?"
keys w1 y
check "white leaves" w1 "tchess-exit-0"

e2e_finish "all letter checks passed"
