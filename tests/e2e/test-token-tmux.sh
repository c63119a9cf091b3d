#!/usr/bin/env bash
# End-to-end test of a token replaced elsewhere: a real tchessd from the
# build tree on a loopback port; White plays in an 80x24 tmux session while
# a copy of White's configuration (a second machine, or a token that
# leaked) runs "tchess token rotate". The playing client's next poll is
# refused (401): its screen must say that the server does not know the
# account and how to find out more, and let the player quit; "tchess token"
# then tells each configuration whether the server knows its token, and
# the rotated one can take the seat back.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init token

# Parked polls come back within 1.5 s, so the next one meets the new token.
printf 'poll_timeout_ms = 1500\ndisconnect_grace_ms = 600000\n' >"$tmp/tchessd.conf"
start_server 127.0.0.1:0 --config "$tmp/tchessd.conf"
for who in white black; do register_player "$who" "${who}_p"; done
new_game 1
cp -r "$tmp/white" "$tmp/white2"

out=$(XDG_CONFIG_HOME="$tmp/white2" "$TCHESS" token --server "$url")
case "$out" in
"white_p (player "*") on $url; token kept in $tmp/white2/tchess/token") ok "tchess token names the player" ;;
*) fail "tchess token: $out" ;;
esac
old=$(sed -n 's/^token = //p' "$tmp/white2/tchess/token")
out=$(XDG_CONFIG_HOME="$tmp/white2" "$TCHESS" token rotate --server "$url")
case "$out" in
"new token for white_p "*"the old one no longer works") ok "tchess token rotate" ;;
*) fail "tchess token rotate: $out" ;;
esac
new=$(sed -n 's/^token = //p' "$tmp/white2/tchess/token")
[ -n "$new" ] && [ "$new" != "$old" ] && ok "the new token is kept" || fail "token file: '$old' -> '$new'"
[ "$(stat -c %a "$tmp/white2/tchess/token")" = 600 ] && ok "still readable by the owner only" ||
	fail "token file mode $(stat -c %a "$tmp/white2/tchess/token")"

check "the playing client is told" w1 "this server does not know your account" 15
check "with a hint" w1 "tchess token"
check "the status line says so" w1 "account unknown"
keys w1 q
# Leaving, tchess says why the game could not go on, with status 1.
check "and the player can quit" w1 "tchess-exit-1"
check "the reason stays on the terminal" w1 "this server does not know your ac"

if XDG_CONFIG_HOME="$tmp/white" "$TCHESS" token --server "$url" 2>"$tmp/err" >/dev/null; then
	fail "tchess token with the old token succeeded"
else
	grep -q "does not know the token" "$tmp/err" && ok "tchess token: the old token is unknown" ||
		fail "tchess token with the old token: $(cat "$tmp/err")"
fi
XDG_CONFIG_HOME="$tmp/white" "$TCHESS" token bogus --server "$url" 2>/dev/null
[ $? -eq 2 ] && ok "a wrong word is a usage error" || fail "tchess token bogus: not a usage error"

start_session w2 white2 join "$id" --server "$url"
check "the new token takes the seat back" w2 "your move" 20
keys w2 / e4 Enter
check "and plays" b1 "1. e4"

e2e_finish "token: a token replaced elsewhere is refused, said and recovered"
