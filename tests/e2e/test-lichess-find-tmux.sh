#!/usr/bin/env bash
# End-to-end test of finding a Lichess game with the real tchess against
# the scripted Lichess (tests/lichess/fake-lichess.py,
# tests/e2e/lichess/find.json) on loopback, asserted on the screen (80x24
# tmux) and in the scripted server's request log:
#   1. tchess lichess games lists the ongoing games (GET /api/account/playing);
#   2. tchess lichess ai starts a game against the AI (POST /api/challenge/ai
#      with the level and clock as a form) and opens it on the play screen;
#   3. a seek Lichess's Board API would refuse (blitz) is refused here,
#      without a request; one Lichess refuses (400) says Lichess's words;
#   4. a seek cancelled with Ctrl-C: the event stream opened first, the
#      seek held open, then its connection closed (the server sees it go);
#   5. a seek that finds a game: the gameStart of a game that was on
#      already (sent when the event stream opens) is passed over, the new
#      one is opened on the play screen;
#   6. a challenge declined, and one accepted and played;
#   7. the user's finished games imported into the local history
#      (GET /api/games/user/Alice, PGN), one file a game, a second import
#      adding none, and tchess review ID replaying one; another user's
#      404 said.
# No test contacts lichess.org. Every wait polls with a deadline.
# Skips (exit 77) without tmux, python3 or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3 curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-find

start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/find.json"
lichess_login alice

# 1. The ongoing games.
out=$(XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess games)
[ "$out" = "play0001  white vs bob  -  * your move" ] && ok "games: the ongoing game is listed" || fail "games: '$out'"

# 2. A game against the AI.
start_session ai alice lichess ai --level 3 --tc 5+0 --color white
check "ai: the game opens" ai "Lichess game aigame01: you play White" 20
check "ai: against the AI" ai "engine level 3"
lichess_log_wait '"POST"' '"/api/challenge/ai"' 'level=3&clock.limit=300&clock.increment=0&color=white' &&
	ok "ai: POST /api/challenge/ai with the level and clock" || fail "ai: no such POST"
keys ai d 4 Enter
check "ai: the AI answers" ai "1. d4       Nf6"

# 3. Seeks refused: here (blitz), and by Lichess.
before=$(wc -l <"$tmp/lichess.log")
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess seek --tc 3+2 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "seeks only rapid or slower games: at least 8 minutes estimated (estimated 260 s" "$tmp/err" &&
	ok "seek: blitz is refused here, with the reason" || fail "seek 3+2: rc $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/lichess.log")" = "$before" ] && ok "seek: without a request" || fail "seek 3+2 asked Lichess"
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess seek --tc 10+0 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "Lichess refused the seek: time: Invalid value" "$tmp/err" &&
	ok "seek: Lichess's refusal in its words" || fail "seek refused: rc $rc: $(cat "$tmp/err")"

# 4. A seek cancelled.
start_session sc alice lichess seek --tc 10+0
check "seek: seeking" sc "seeking a 10+0 casual game on $lichess_url... (Ctrl-C cancels)" 20
lichess_log_wait '"POST"' '"/api/board/seek"' 'rated=false&time=10&increment=0&color=random' '"auth": "Bearer' &&
	ok "seek: POST /api/board/seek with the clock as a form" || fail "seek: no POST"
n_events=$(lichess_requests GET /api/stream/event)
[ "$n_events" -ge 2 ] && ok "seek: the event stream is open too" || fail "seek: event streams: $n_events"
keys sc C-c
check "seek: Ctrl-C cancels it" sc "seek cancelled"
check "seek: and tchess exits 0" sc "tchess-exit-0"
lichess_log_wait '"event": "client-closed"' '"/api/board/seek"' && ok "seek: its connection was closed (the cancel)" ||
	fail "seek: the server never saw the seek's connection close"

# 5. A seek that finds a game.
start_session sf alice lichess seek --tc 10+5 --color black
check "seek: seeking again" sf "seeking a 10+5 casual game" 20
lichess_log_wait '"POST"' '"/api/board/seek"' 'time=10&increment=5&color=black' || fail "seek: no second POST"
curl -s -X POST "$lichess_url/_test/event" -d '{"type": "gameStart", "game": {"gameId": "seek0001",
	"fullId": "seek0001wxyz", "color": "black", "isMyTurn": true, "opponent": {"username": "Carol"}}}' >/dev/null
check "seek: the new game opens, not the one on already" sf "Lichess game seek0001: you play Black" 20
check "seek: its clock" sf "10+5  Lichess rapid casual"
[ "$(lichess_requests GET /api/board/game/stream/play0001)" = 0 ] && ok "seek: play0001 was never opened" ||
	fail "seek: the ongoing game was taken for the seek's"

# 6. Challenges answered: declined, and accepted (then played).
out=$(XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess decline chal0002)
[ "$out" = "challenge chal0002 declined" ] && [ "$(lichess_requests POST /api/challenge/chal0002/decline)" = 1 ] &&
	ok "challenge: declined with POST .../decline" || fail "decline: '$out'"
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess accept 'chal;0001' 2>"$tmp/err"
[ $? = 2 ] && grep -q "is not a Lichess challenge id" "$tmp/err" && ok "challenge: a bad id is refused" ||
	fail "accept bad id: $(cat "$tmp/err")"
start_session ch alice lichess accept chal0001
check "challenge: accepted, its game opens" ch "Lichess game chal0001: you play Black" 20
[ "$(lichess_requests POST /api/challenge/chal0001/accept)" = 1 ] && ok "challenge: with POST .../accept" ||
	fail "accept: $(lichess_requests POST /api/challenge/chal0001/accept) POSTs"

# 7. Finished games into the local history.
out=$(XDG_CONFIG_HOME="$tmp/alice" XDG_DATA_HOME="$tmp/data" "$TCHESS" lichess import --max 5)
games="$tmp/data/tchess/games"
[ -f "$games/lichess-fin00001.pgn" ] && [ -f "$games/lichess-fin00002.pgn" ] &&
	[ "$(ls "$games" | wc -l)" = 2 ] && ok "import: one file a game, by its id" || fail "import: $(ls "$games")"
case "$out" in *"imported 2 finished Lichess games of Alice into $games (1 without a Lichess id passed over)"*)
	ok "import: says what it did" ;; *) fail "import: '$out'" ;; esac
lichess_log_wait '"GET"' '"/api/games/user/Alice"' 'max=5&finished=true&ongoing=false' &&
	ok "import: GET /api/games/user/Alice with max and finished" || fail "import: no such GET"
grep -q '^\[Black "Bob"\]' "$games/lichess-fin00001.pgn" && ! grep -q 'Dave' "$games/lichess-fin00001.pgn" &&
	ok "import: each file holds its own game only" || fail "import: $(cat "$games/lichess-fin00001.pgn")"
out=$(XDG_CONFIG_HOME="$tmp/alice" XDG_DATA_HOME="$tmp/data" "$TCHESS" lichess import --max 5)
case "$out" in *"imported 0 finished Lichess games of Alice"*"(2 already there)"*) ok "import: again adds none" ;;
	*) fail "import again: '$out'" ;; esac
out=$(XDG_DATA_HOME="$tmp/data" "$TCHESS" review --plain fin00001)
case "$out" in *"7 Qxf7# h5f7"*"end 1-0 checkmate"*) ok "review ID: the imported game replays to mate" ;;
	*) fail "review fin00001: '$out'" ;; esac
XDG_CONFIG_HOME="$tmp/alice" XDG_DATA_HOME="$tmp/data" "$TCHESS" lichess import Nobody_here >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && grep -q "Lichess refused: Not found" "$tmp/err" && ok "import: an unknown user is said" ||
	fail "import Nobody_here: $(cat "$tmp/err")"

lichess_check_agent
e2e_finish "lichess find: ok"
