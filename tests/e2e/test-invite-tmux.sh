#!/usr/bin/env bash
# End-to-end test of an invite game: White opens it in an 80x24 tmux
# session, the invite line shows whole on White's screen (the short id and
# a ten-character code), and Black types what that line says, in capitals
# with a blank for the dash as one reads a code aloud; a cut code and a
# wrong one are refused as wrong before any screen opens.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init invite

start_server 127.0.0.1:0
for who in white black; do register_player "$who" "${who}_p"; done

start_session w white play --vs invite --color white --tc 5+3 --server "$url"
check "the invite line shows" w "invite: tchess join" 20
line=$(printf '%s\n' "$screen" | grep -o 'tchess join [0-9a-f]\{8\}:[0-9a-hjkmnp-tv-z]\{5\}-[0-9a-hjkmnp-tv-z]\{5\}' | head -1)
if [ -n "$line" ]; then
	ok "the whole invite fits at 80 columns: $line"
else
	fail "no whole invite line on the screen"; show_screen
	e2e_finish ""
fi
target=${line#tchess join }
id=${target%%:*}
code=${target#*:}

# A code cut short, and a wrong one: refused, and said to be wrong.
for bad in "$id:${code:0:7}" "$id:zzzzz-zzzzz"; do
	out=$(XDG_CONFIG_HOME="$tmp/black" "$TCHESS" join "$bad" --server "$url" 2>&1 </dev/null); rc=$?
	case "$rc:$out" in
	1:*"wrong invite code"*) ok "'$bad' is refused as a wrong code" ;;
	*) fail "'$bad': status $rc, '$out'" ;;
	esac
done
out=$(XDG_CONFIG_HOME="$tmp/black" "$TCHESS" join "$id" --server "$url" 2>&1 </dev/null); rc=$?
case "$rc:$out" in
1:*"needs its invite code"*) ok "no code: the game needs its code" ;;
*) fail "no code: status $rc, '$out'" ;;
esac

# Black types the code as read aloud: capitals, a blank for the dash.
spoken=$(printf '%s' "$code" | tr 'a-z-' 'A-Z ')
start_session b black join "$id:$spoken" --server "$url"
check "black joined by the typed invite" b "White to move" 20
check "white's game starts" w "your move" 20

e2e_finish "all invite checks passed"
