#!/usr/bin/env bash
# End-to-end test of the home screen on Lichess (tchess --lichess) and of
# the one flag that puts play on Lichess (tchess play --lichess), with the
# real tchess against the scripted Lichess (tests/lichess/fake-lichess.py,
# tests/e2e/lichess/home.json) on loopback, asserted on the screen (80x24
# tmux) and in the scripted server's request log:
#   1. the home screen lists the ongoing games (GET /api/account/playing)
#      and holds the event stream open; a game is opened from the list
#      and left back to the home screen, then opened with the mouse (a
#      click selects its row, a second click opens it);
#   2. a seek from the home screen (POST /api/board/seek, held open) is
#      cancelled with Esc (the server sees its connection close); a second
#      one passes over the gameStart of a game that was on already and
#      opens the new one; a blitz seek is refused here, without a request;
#   3. the Lichess AI from the home screen (POST /api/challenge/ai);
#   4. tchess play --lichess seeks, tchess play --lichess --vs engine:2
#      plays the AI, a tchessd-only option is refused;
#   5. a challenge by name (POST /api/challenge/Bob with keepAliveStream,
#      held open): declined, then accepted and its game opened; a name that
#      is no Lichess name is refused without a request;
#   6. challenges to the user from the event stream are listed (the user's
#      own is not), one declined (POST .../decline, gone from the list),
#      one accepted (POST .../accept) and its game opened.
# No test contacts lichess.org. Every wait polls with a deadline.
# Skips (exit 77) without tmux, python3 or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3 curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-home

start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/home.json"
lichess_login alice

# lichess_event JSON: a line on every open event stream.
lichess_event() { curl -s -X POST "$lichess_url/_test/event" -d "$1" >/dev/null; }
# wait_requests N METHOD PATH: waits (10 s at most) until N such requests
# were logged.
wait_requests() {
	local deadline=$((SECONDS + 10))
	until [ "$(lichess_requests "$2" "$3")" = "$1" ]; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}
# leave SESSION: leaves the game on the play screen, back to the home screen.
leave() { keys "$1" m q; wait_for "$1" "leave the game?" 5 && keys "$1" y; }

# 1. The home screen, its games, the event stream.
start_session h alice --lichess
check "home: the Lichess actions" h "1  Seek on Lichess" 20
check "home: the challenge action" h "3  Challenge a player"
check "home: the ongoing game listed" h "play0001  white vs bob"
check "home: no challenges yet" h "Challenges to you: none now"
lichess_log_wait '"GET"' '"/api/stream/event"' '"auth": "Bearer lip_AliceToken' &&
	ok "home: the event stream is open, with the token" || fail "home: no event stream"
keys h Down Down Down Down Enter
check "home: the game opens from the list" h "Lichess game play0001: you play White" 20
check "home: its moves" h "1. e4       e5"
leave h
check "home: back on the home screen" h "1  Seek on Lichess" 10
# The mouse, as on tchessd's home screen: a click (the SGR report an xterm
# sends, 1-based) selects the game's row, a second click on it opens it.
click() { keys "$1" -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($2 + 1)) $(($3 + 1)) $(($2 + 1)) $(($3 + 1)))"; }
[ "$(tmux -L "$sock" display-message -p -t h '#{mouse_any_flag}')" = 1 ] &&
	ok "mouse: the Lichess home asks for mouse reports" || fail "mouse: no mouse reports asked for"
keys h Up Up Up Up
check "mouse: the cursor back on the first action" h "> 1  Seek on Lichess" 5
capture h
y=$(printf '%s\n' "$screen" | grep -n -F "play0001  white vs bob" | head -1 | cut -d: -f1)
click h 10 $((y - 1))
check "mouse: a click selects the game's row" h "> play0001  white vs bob" 5
click h 10 $((y - 1))
check "mouse: a second click opens it" h "Lichess game play0001: you play White" 20
leave h
check "mouse: back on the home screen" h "1  Seek on Lichess" 10

# 2. Seeks: cancelled, then matched; blitz refused here.
streams=$(lichess_requests GET /api/board/game/stream/play0001)
keys h 1
check "seek: seeking" h "seeking 10+0... Esc cancels the seek"
lichess_log_wait '"POST"' '"/api/board/seek"' 'rated=false&time=10&increment=0&color=random' &&
	ok "seek: POST /api/board/seek with the clock as a form" || fail "seek: no POST"
keys h Escape
check "seek: Esc cancels it" h "seek cancelled"
lichess_log_wait '"event": "client-closed"' '"/api/board/seek"' && ok "seek: its connection was closed (the cancel)" ||
	fail "seek: the server never saw the seek's connection close"
keys h 1
check "seek: seeking again" h "seeking 10+0"
wait_requests 2 POST /api/board/seek && ok "seek: a second POST" || fail "seek: no second POST"
lichess_event '{"type": "gameStart", "game": {"gameId": "play0001", "color": "white", "isMyTurn": true}}'
lichess_event '{"type": "gameStart", "game": {"gameId": "seek0001", "fullId": "seek0001wxyz", "color": "black",
	"isMyTurn": true, "opponent": {"username": "Carol"}}}'
check "seek: the new game opens, not the one on already" h "Lichess game seek0001: you play Black" 20
[ "$(lichess_requests GET /api/board/game/stream/play0001)" = "$streams" ] && ok "seek: play0001 was not opened again" ||
	fail "seek: play0001 streams: $(lichess_requests GET /api/board/game/stream/play0001), $streams before"
leave h
check "seek: back home" h "1  Seek on Lichess" 10
# t on the AI's row reaches blitz (5+3), which the Board API seeks refuse.
keys h Down t t t t t
check "seek: the AI's row at 5+3" h "level 1, 5+3"
keys h 1
check "seek: blitz is refused here" h "seeks only rapid or slower games (not 5+3)"
[ "$(lichess_requests POST /api/board/seek)" = 2 ] && ok "seek: without a request" || fail "seek: blitz asked Lichess"

# 3. The Lichess AI, at 5+3.
keys h 2
check "ai: the game opens" h "Lichess game aigame01: you play White" 20
lichess_log_wait '"POST"' '"/api/challenge/ai"' 'level=1&clock.limit=300&clock.increment=3&color=random' &&
	ok "ai: POST /api/challenge/ai with the level and clock" || fail "ai: no such POST"
leave h
check "ai: back home" h "2  Play the Lichess AI" 10

# 5. A challenge by name: a bad name, declined, accepted.
keys h 3
check "challenge: the prompt" h "challenge: _"
keys h "b;ob" Enter
check "challenge: a name that is none is refused" h "a Lichess user name is 2 to 30 letters"
[ "$(lichess_requests POST '/api/challenge/b;ob')" = 0 ] && ok "challenge: without a request" || fail "challenge: b;ob asked"
keys h 3 B o b Enter
check "challenge: waiting for the answer" h "waiting for Bob to answer... Esc cancels"
lichess_log_wait '"POST"' '"/api/challenge/Bob"' 'rated=false&clock.limit=300&clock.increment=3&color=random&keepAliveStream=true' &&
	ok "challenge: POST /api/challenge/Bob, held open" || fail "challenge: no POST"
check "challenge: its id from the first line" h "challenge chalbob1 sent to Bob"
curl -s -X POST "$lichess_url/_test/challenge/chalbob1/declined" >/dev/null
check "challenge: declined, said" h "Bob declined the challenge"
keys h 3 B o b Enter
check "challenge: sent again" h "challenge chalbob1 sent to Bob" 10
curl -s -X POST "$lichess_url/_test/challenge/chalbob1/accepted" >/dev/null
lichess_event '{"type": "gameStart", "game": {"gameId": "chalbob1", "color": "white", "isMyTurn": true,
	"opponent": {"username": "Bob"}}}'
check "challenge: accepted, its game opens" h "Lichess game chalbob1: you play White" 20
leave h
check "challenge: back home" h "3  Challenge a player" 10

# 6. Challenges to the user.
chal() {
	lichess_event "{\"type\": \"challenge\", \"challenge\": {\"id\": \"$1\", \"status\": \"created\",
		\"challenger\": {\"id\": \"$2\", \"name\": \"$3\", \"rating\": 1600},
		\"destUser\": {\"id\": \"$4\", \"name\": \"x\"}, \"variant\": {\"key\": \"standard\"}, \"rated\": $5,
		\"speed\": \"rapid\", \"timeControl\": {\"type\": \"clock\", \"limit\": 900, \"increment\": 10, \"show\": \"15+10\"},
		\"color\": \"random\"}}"
}
chal chal0001 dave Dave alice false
chal chal0002 erin Erin alice true
chal chalmine alice Alice bob false
check "incoming: Dave's challenge listed" h "chal0001  Dave                     15+10      casual"
check "incoming: Erin's, rated" h "chal0002  Erin                     15+10      rated"
capture h
case "$screen" in *chalmine*) fail "incoming: the user's own challenge is listed" ;; *) ok "incoming: the user's own is not" ;; esac
keys h Down Down Down Down Down Down
check "incoming: the keys" h "Enter accepts  d declines"
keys h d
check "incoming: declined" h "Erin's challenge declined"
[ "$(lichess_requests POST /api/challenge/chal0002/decline)" = 1 ] && ok "incoming: POST .../decline" ||
	fail "incoming: declines: $(lichess_requests POST /api/challenge/chal0002/decline)"
capture h
case "$screen" in *chal0002*) fail "incoming: Erin's still listed"; show_screen ;; *) ok "incoming: Erin's is gone" ;; esac
keys h Up Down Enter
check "incoming: accepted, its game opens" h "Lichess game chal0001: you play Black" 20
[ "$(lichess_requests POST /api/challenge/chal0001/accept)" = 1 ] && ok "incoming: POST .../accept" ||
	fail "incoming: accepts: $(lichess_requests POST /api/challenge/chal0001/accept)"
leave h
check "incoming: back home, the list empty" h "Challenges to you: none now" 10
keys h q
check "home: q quits" h "tchess-exit-0"

# 4. The one flag: tchess play --lichess.
start_session ps alice play --lichess --tc 10+5
check "play --lichess: seeks" ps "seeking a 10+5 casual game on $lichess_url" 20
keys ps C-c
check "play --lichess: cancelled" ps "seek cancelled"
start_session pa alice play --server lichess --vs engine:2 --tc 5+0
check "play --server lichess --vs engine:2: the AI" pa "Lichess game aigame01" 20
lichess_log_wait '"POST"' '"/api/challenge/ai"' 'level=2&clock.limit=300' && ok "play --lichess: level 2, 5+0" ||
	fail "play --lichess: no AI POST with level 2"
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" play --lichess --undo 2>"$tmp/err"
[ $? = 2 ] && grep -q "is tchessd's, not Lichess's" "$tmp/err" && ok "play --lichess: --undo refused" ||
	fail "play --lichess --undo: $(cat "$tmp/err")"

lichess_check_agent
e2e_finish "lichess home: ok"
