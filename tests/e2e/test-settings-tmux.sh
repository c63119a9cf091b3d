#!/usr/bin/env bash
# Issue 14 item 5, the settings screen: opened from the home screen (8),
# each change written to the config file at once and read back by the
# next tchess, the theme applied to the terminal at once, and the pieces
# chosen there drawn by a game opened from home (a hotseat game, on a
# real tchessd).
#
# Every wait polls the screen or the file with a deadline. Skips (exit
# 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init settings

start_server 127.0.0.1:0
register_player p set_p
cfg="$tmp/p/tchess/config"

# file_has LINE: waits (10 s at most) for LINE in the config file.
file_has() {
	local deadline=$((SECONDS + 10))
	until grep -qx "$1" "$cfg" 2>/dev/null; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}

start_session h p
check "the home screen lists the settings" h "8  Settings"
keys h 8
check "8 opens the settings" h "Settings"
check "the theme row shows the one in use" h "Theme                < default >"
check "the pieces row: solid glyphs by default" h "Pieces               < solid glyphs >"
check "the opponent's move alert is off" h "Opponent's move      < off >"
keys h Right
check "Right: the next theme, saved" h "saved: theme = high-contrast"
if file_has "theme = high-contrast"; then ok "the config file says theme = high-contrast"; else fail "config: $(cat "$cfg" 2>&1)"; fi
keys h Down Right
check "pieces: outline glyphs, saved" h "saved: pieces = outline"
if file_has "pieces = outline" && file_has "ascii = no"; then ok "the config file says pieces = outline, ascii = no"; else fail "config: $(cat "$cfg")"; fi
keys h Down Right
check "the alert: bell, saved" h "saved: move_alert = bell"
if file_has "move_alert = bell"; then ok "the config file says move_alert = bell"; else fail "config: $(cat "$cfg")"; fi
keys h q
check "q goes back home" h "Play a friend here"
keys h q
check "tchess exits" h "tchess-exit-0"

# The next tchess reads it all back.
start_session h2 p
check "home again" h2 "8  Settings"
keys h2 8
check "the theme read back" h2 "< high-contrast >"
check "the pieces read back" h2 "< outline glyphs >"
check "the alert read back" h2 "< bell >"
keys h2 q
# A game opened from home draws the chosen outline glyphs: White's king ♔.
keys h2 7
check "a hotseat game opens" h2 "White to move" 20
capture h2
board=$(printf '%s\n' "$screen" | head -17 | cut -c1-42)
case "$board" in
*"♔"*) ok "the game draws White's king as the outline glyph" ;;
*) fail "no outline king on the board"; show_screen ;;
esac

e2e_finish "settings: saved at once, read back, applied to the next game"
