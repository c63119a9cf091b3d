#!/usr/bin/env bash
# End-to-end test of Lichess games on the play screen: the real tchess
# (tchess lichess play GAME) in 80x24 tmux sessions against the scripted
# Lichess (tests/lichess/fake-lichess.py, tests/e2e/lichess/play.json) on
# loopback, each game asserted on the screen and in the scripted server's
# request log:
#   1. a full game to mate (four moves POSTed in order, 1-0 checkmate);
#   2. a premove sent the moment the opponent's move arrives (its POST
#      after that gameState, the latency logged), and a premove made
#      illegal by the reply dropped with the reason;
#   3. a take-back: the opponent's proposal accepted with A shrinks the
#      move list; u proposes one of mine;
#   4. the chat both ways, then a draw offered with = and accepted by the
#      opponent;
#   5. the opponent gone: the countdown, then G claims the win;
#   6. a stream that stalls: the watchdog reopens it and the move made
#      meanwhile is read;
#   7. a 429 on the stream: said on the screen, waited out, then read;
#   8. the alerts (issue 14 item 10): move_alert = bell rings the
#      terminal bell (tmux's window_bell_flag) for the opponent's move
#      and not for the gameFull's moves or my own; move_alert = flash
#      writes the flash (ESC [?5h, read from the pane's output through
#      pipe-pane) for it; the low-time bell rings as my clock runs under
#      low_time_ms.
# The watchdog and the 429's minute are shortened for the test
# (TCHESS_LICHESS_IDLE_MS, TCHESS_LICHESS_RATE_LIMIT_MS). No test contacts
# lichess.org. Every wait polls the screen or the log with a deadline.
# Skips (exit 77) without tmux, python3 or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3 curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-play

start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/play.json"
lichess_login alice
e2e_env="TCHESS_LATENCY_LOG=$tmp/latency.log TCHESS_LICHESS_IDLE_MS=1500 TCHESS_LICHESS_RATE_LIMIT_MS=1500"

# step GAME JSON: the scripted opponent's steps, at once.
step() { curl -s -X POST "$lichess_url/_test/step/$1" -d "$2" >/dev/null; }
# moves_posted GAME: the moves POSTed for GAME, in order, blank-separated.
moves_posted() {
	python3 - "$tmp/lichess.log" "/api/board/game/$1/move/" <<'PY'
import json, sys
print(" ".join(r["path"][len(sys.argv[2]):] for r in map(json.loads, open(sys.argv[1]))
               if r.get("method") == "POST" and r.get("path", "").startswith(sys.argv[2])))
PY
}

# 1. A full game to mate.
start_session m alice lichess play mate0001
check "mate: the game arrives" m "Lichess game mate0001: you play White" 20
check "mate: the header says Lichess" m "5+0  Lichess rapid casual"
keys m e 4 Enter
check "mate: Black's answer arrives" m "1. e4       e5"
keys m B c 4 Enter
check "mate: 2...Nc6" m "2. Bc4      Nc6"
keys m Q h 5 Enter
check "mate: 3...Nf6" m "3. Qh5      Nf6"
keys m Q x f 7 Enter
check "mate: 1-0 checkmate on the screen" m "1-0 checkmate"
check "mate: in Lichess's words" m "White wins: checkmate"
[ "$(moves_posted mate0001)" = "e2e4 f1c4 d1h5 h5f7" ] && ok "mate: the four moves were POSTed in order" ||
	fail "mate: moves posted: '$(moves_posted mate0001)'"
[ "$(lichess_requests GET /api/board/game/stream/mate0001 "Bearer lip_AliceToken_0123456789")" = 1 ] &&
	ok "mate: one game stream, with the token" || fail "mate: stream requests: $(lichess_requests GET /api/board/game/stream/mate0001)"
keys m q
check "mate: tchess prints the result" m "Lichess game mate0001: 1-0 checkmate"

# 2. Premoves: played as the reply arrives; dropped when it makes them
# illegal.
start_session p alice lichess play prem0001
check "premove: the game arrives" p "you play White" 20
keys p e 4 Enter
check "premove: Black to move" p "Black to move"
keys p N f 3 Enter
check "premove: queued" p "premove 1 queued: Nf3"
[ "$(moves_posted prem0001)" = "e2e4" ] && ok "premove: nothing sent while it is Black's move" ||
	fail "premove: posted early: '$(moves_posted prem0001)'"
step prem0001 '[{"state": {"move": "e7e5"}}]'
check "premove: played when e5 arrives" p "premove played: Nf3"
check "premove: on the move list" p "2. Nf3"
[ "$(moves_posted prem0001)" = "e2e4 g1f3" ] && ok "premove: POSTed as g1f3" ||
	fail "premove: posted '$(moves_posted prem0001)'"
# The POST came after the gameState that carried e5.
python3 - "$tmp/lichess.log" <<'PY' && ok "premove: its POST follows the gameState with e5" || fail "premove: order in the log"
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
sent = next(i for i, r in enumerate(rs) if r.get("event") == "sent" and r.get("moves") == "e2e4 e7e5")
post = next(i for i, r in enumerate(rs) if r.get("path") == "/api/board/game/prem0001/move/g1f3")
sys.exit(0 if post > sent else 1)
PY
grep -q '^premove us [0-9]*$' "$tmp/latency.log" && ok "premove: its latency is logged" || fail "premove: no latency line"
keys p d 4 Enter
check "premove: d4 queued" p "premove 1 queued: d4"
step prem0001 '[{"state": {"move": "f8b4"}}]'
check "premove: Bb4 pins d2, d4 is dropped with the reason" p "premove d2d4 discarded: the pawn on d2 is pinned"
[ "$(moves_posted prem0001)" = "e2e4 g1f3" ] && ok "premove: the dropped one is not sent" ||
	fail "premove: posted '$(moves_posted prem0001)'"
keys p m q
check "premove: leaving asks first" p "(y/n)"
keys p y
check "premove: left, with how to come back" p "tchess lichess play prem0001 to come back"

# 3. Take-backs.
start_session t alice lichess play back0001
check "takeback: the game arrives" t "2. Nf3      Nc6" 20
step back0001 '[{"state": {"btakeback": true}}]'
check "takeback: Black's proposal is shown" t "Black proposes a take-back"
check "takeback: with the keys" t "+ accept, - decline"
keys t +
check "takeback: Nc6 is taken back" t "1 move taken back"
absent "takeback: the move list lost Nc6" t "Nc6"
lichess_log_wait '"POST"' '/api/board/game/back0001/takeback/yes' && ok "takeback: accepted with POST takeback/yes" ||
	fail "takeback: no POST takeback/yes"
check "takeback: Black to move again" t "Black to move"
keys t u
check "takeback: u proposes one" t "you proposed a take-back" 
[ "$(lichess_requests POST /api/board/game/back0001/takeback/yes)" = 2 ] && ok "takeback: u POSTs takeback/yes" ||
	fail "takeback: takeback/yes requests: $(lichess_requests POST /api/board/game/back0001/takeback/yes)"

# 4. A draw offered and accepted.
start_session d alice lichess play draw0001
check "draw: the game arrives" d "1. d4       d5" 20
# The chat first: the line written in the notes pane comes back from the
# player room (Lichess echoes it), and the opponent's is shown.
keys d j
check "chat: the pane is Lichess's chat" d "chat (Lichess's player room"
keys d "good luck" Enter
lichess_log_wait '"POST"' '/api/board/game/draw0001/chat' 'room=player&text=good%20luck' &&
	ok "chat: POSTed to the player room as a form" || fail "chat: no POST chat"
[ "$(lichess_requests POST /api/board/game/draw0001/chat)" = 1 ] && ok "chat: once" ||
	fail "chat: $(lichess_requests POST /api/board/game/draw0001/chat) POSTs"
check "chat: it comes back" d "Alice: good luck"
step draw0001 '[{"chat": {"username": "Bob", "text": "you too"}}]'
check "chat: the opponent's line" d "Bob: you too"
keys d Escape
keys d =
lichess_log_wait '"POST"' '/api/board/game/draw0001/draw/yes' && ok "draw: = POSTs draw/yes" || fail "draw: no POST draw/yes"
check "draw: accepted, the game is drawn" d "1/2-1/2"

# 5. The opponent gone: the countdown, then the claim.
start_session g alice lichess play gone0001
check "gone: the game arrives, Black to play" g "you play Black" 20
step gone0001 '[{"gone": {"gone": true, "claimWinInSeconds": 2}}]'
check "gone: the countdown" g "opponent left — claim victory in"
check "gone: then the claim" g "opponent left — press V to claim victory" 15
keys g V
check "gone: V asks first" g "claim the win? (y/n)"
keys g y
lichess_log_wait '"POST"' '/api/board/game/gone0001/claim-victory' && ok "gone: POST claim-victory" ||
	fail "gone: no POST claim-victory"
check "gone: Black wins" g "0-1"

# 6. A stalled stream reopened by the watchdog.
start_session s alice lichess play stal0001
check "stall: the game arrives" s "1. d4" 20
check "stall: the watchdog reconnects" s "nothing from Lichess for 1 s: reconnecting" 10
check "stall: the move made meanwhile is read" s "1. d4       Nf6" 15
[ "$(lichess_requests GET /api/board/game/stream/stal0001)" = 2 ] && ok "stall: the stream was opened twice" ||
	fail "stall: stream requests: $(lichess_requests GET /api/board/game/stream/stal0001)"

# 7. A 429 waited out.
start_session r alice lichess play rate0001
check "429: said on the screen" r "Lichess asks to wait (429 too many requests)" 20
check "429: then the game is read" r "1. Nf3" 15
python3 - "$tmp/lichess.log" <<'PY' && ok "429: the second request waited the (shortened) minute" || fail "429: not waited"
import json, sys
t = [r["t_ms"] for r in map(json.loads, open(sys.argv[1])) if r.get("path") == "/api/board/game/stream/rate0001"
     and r.get("method") == "GET"]
sys.exit(0 if len(t) == 2 and t[1] - t[0] >= 1500 else 1)
PY

# 8. The alerts.
# bell_flag SESSION: tmux's bell flag of SESSION's window (set by a bell
# in a detached session, never cleared while nobody attaches).
bell_flag() { tmux -L "$sock" display-message -p -t "$1" '#{window_bell_flag}'; }
# bell_wait SESSION: waits (10 s at most) for SESSION's bell flag.
bell_wait() {
	local deadline=$((SECONDS + 10))
	until [ "$(bell_flag "$1")" = 1 ]; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}
lichess_login alert
printf 'move_alert = bell\n' >>"$tmp/alert/tchess/config"
start_session b alert lichess play bell0001
check "bell: the game arrives" b "you play White" 20
[ "$(bell_flag b)" = 0 ] && ok "bell: none for the gameFull" || fail "bell: rung for the gameFull"
keys b e 4 Enter
check "bell: my move is on the list" b "1. e4"
check "bell: Black to move" b "Black to move"
[ "$(bell_flag b)" = 0 ] && ok "bell: none for my own move" || fail "bell: rung for my own move"
step bell0001 '[{"state": {"move": "e7e5"}}]'
check "bell: the opponent's move arrives" b "1. e4       e5"
bell_wait b && ok "bell: the opponent's move rings the bell" || fail "bell: no bell for the opponent's move"

lichess_login flash
printf 'move_alert = flash\n' >>"$tmp/flash/tchess/config"
start_session f flash lichess play flsh0001
tmux -L "$sock" pipe-pane -O -t f "cat >>'$tmp/flash.out'"
check "flash: the game arrives" f "you play White" 20
keys f e 4 Enter
check "flash: Black to move" f "Black to move"
flashes() { grep -c $'\e\\[?5h' "$tmp/flash.out"; }
[ "$(flashes)" = 0 ] && ok "flash: none before the opponent moves" || fail "flash: $(flashes) before the opponent moved"
step flsh0001 '[{"state": {"move": "c7c5"}}]'
check "flash: the opponent's move arrives" f "1. e4       c5"
deadline=$((SECONDS + 10))
until [ "$(flashes)" -ge 1 ] || [ $SECONDS -ge $deadline ]; do poll_pause; done
[ "$(flashes)" -ge 1 ] && ok "flash: the opponent's move flashes the screen (ESC [?5h)" ||
	fail "flash: no flash in the pane's output"
[ "$(bell_flag f)" = 0 ] && ok "flash: and rings no bell" || fail "flash: a bell instead"

lichess_login lowtime
printf 'bell = yes\nlow_time_ms = 20000\n' >>"$tmp/lowtime/tchess/config"
start_session w lowtime lichess play lowt0001
check "low time: the game arrives, my clock at 0:21" w "you play White" 20
bell_wait w && ok "low time: the bell as my clock runs under 20 s" || fail "low time: no bell"
check "low time: the clock is under 20 s" w "0:19"

lichess_check_agent
e2e_finish "lichess play: ok"
