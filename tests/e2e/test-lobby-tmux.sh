#!/usr/bin/env bash
# End-to-end test of the home screen's lobby (issue 14 item 5) with a real
# tchessd, in tmux sessions:
#
# 1. Bob's home screen is open before anything exists; Alice opens a 3+2
#    yourpot seek as White (tchess play), Carol and Dave start a 10+5 game
#    between them: Bob's screen lists them by itself (its periodic
#    refresh), under "Open seeks" (alice_p, 3+2, yourpot, "you play
#    Black", an age) and "Live games" (carol_p vs dave_p, 10+5, move 1),
#    every word whole at 80x24; at 120x40 the rows carry the ids too,
#    under the columns' names.
# 2. Enter on the seek takes the seat: both games start.
# 3. Bob's seek form (2): the time control and colour changed, Enter opens
#    the seek, which the public list shows; q on the waiting screen
#    withdraws it (gone from the list at once); the form's values were
#    saved to the config file and a new home screen shows them; a seek
#    made with them, Esc withdraws it too.
# 4. Erin's seek from tchess play, its client frozen (SIGSTOP): the
#    server's seek lapse (seek_grace_ms) takes it off Bob's list.
# 5. Her next one, its client killed (kill -9): it lapses too, the
#    hang-up seen within a second.
#
# Every wait polls the screen or the server with a deadline.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init lobby

# A short grace, so the killed client's seek lapses within the test.
printf 'seek_grace_ms = 3000\n' >"$tmp/tchessd.conf"
start_server 127.0.0.1:0 --config "$tmp/tchessd.conf"
for who in alice bob carol dave erin; do register_player "$who" "${who}_p"; done

# list_has ID STATUS: GET /v1/games lists game ID (a prefix) with STATUS.
list_has() {
	curl -s "$url/v1/games" | grep -q "\"id\":\"$1[0-9a-f]*\",\"status\":\"$2\""
}
# wait_list ID STATUS [SECONDS]: polls list_has until the deadline.
wait_list() {
	local deadline=$((SECONDS + ${3:-10}))
	until list_has "$1" "$2"; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}
# gone_from_list ID [SECONDS]: polls until game ID is not open in the list.
gone_from_list() {
	local deadline=$((SECONDS + ${2:-10}))
	while list_has "$1" open; do
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}
# open_ids CONFIG: the open games tchess games lists for that player.
open_ids() { XDG_CONFIG_HOME="$tmp/$1" "$TCHESS" games --server "$url" | awk 'NR > 1 && $2 == "open" { print $1 }'; }

# 1. The lists, filled in while the screen shows.
start_session b bob
check "bob's home screen" b "Open seeks: none now" 20
check "no live game yet" b "Live games: none now"
start_session a alice play --vs open --color white --tc 3+2 --ruleset yourpot --server "$url"
check "alice waits" a "waiting for an opponent" 20
start_session c carol play --vs open --color white --tc 10+5 --server "$url"
check "carol waits" c "waiting for an opponent" 20
cid=$(open_ids carol | head -1)
start_session d dave join "$cid" --server "$url"
check "carol's game starts" c "your move" 20
check "the seek shows on bob's screen by itself" b "Open seeks (1): Enter takes the seat" 30
check "the live game too" b "Live games (1): Enter watches" 30
seek_row=$(printf '%s\n' "$screen" | grep 'alice_p')
case "$seek_row" in
*"alice_p"*"3+2"*"yourpot"*"you play Black"*[0-9][sm]*) ok "the seek's row: player, time control, ruleset, colour, age" ;;
*) fail "the seek's row: '$seek_row'"; show_screen ;;
esac
live_row=$(printf '%s\n' "$screen" | grep 'carol_p vs dave_p')
case "$live_row" in
*"carol_p vs dave_p"*"10+5"*"fide"*"move 1"*) ok "the live game's row: players, time control, move" ;;
*) fail "the live game's row: '$live_row'"; show_screen ;;
esac
out=$(XDG_CONFIG_HOME="$tmp/bob" "$TCHESS" games --server "$url")
case "$out" in
*"${cid}  playing   1       carol_p vs dave_p  10+5 fide  White to move"*) ok "tchess games names another's game's players, move, time control and whose move" ;;
*) fail "tchess games: '$out'" ;;
esac
# Nothing runs past the 80 columns, nothing is cut: the rows end on a
# whole word of theirs.
long=$(printf '%s\n' "$screen" | awk 'length($0) > 80' | head -1)
if [ -z "$long" ]; then ok "every line fits in 80 columns"; else fail "a line is wider than 80: $long"; fi
case "$seek_row" in *"..."*) fail "the seek's row was cut: $seek_row" ;; *) ok "the seek's row is whole at 80 columns" ;; esac
tmux -L "$sock" resize-window -t b -x 120 -y 40
aid=$(open_ids alice | head -1)
check "at 120x40 the seek's row names its game" b "${aid:0:8}" 10
check "and the columns are named" b "  player   time  rules    colour" 10
tmux -L "$sock" resize-window -t b -x 80 -y 24
check "back at 80x24" b "Open seeks (1)" 10

# 2. Enter on the seek: down the rows until the status line offers it.
for _ in $(seq 1 30); do
	capture b
	case "$(printf '%s\n' "$screen" | tail -1)" in *"Enter takes the seat"*) break ;; esac
	keys b j
done
case "$(printf '%s\n' "$screen" | tail -1)" in
*"Enter takes the seat"*) ok "the seek's row can be selected" ;;
*) fail "no seek row selected"; show_screen ;;
esac
keys b Enter
check "Enter takes the seat" b "the game has started: you play Black" 20
check "alice's game starts" a "the game has started: you play White" 20
keys b m q
check "leaving asks" b "leave the game?"
keys b y
check "bob is home again" b "Seek an opponent" 10

# 3. The form.
keys b 2
check "2 opens the seek form" b "Seek an opponent: a game anyone may join" 10
check "with its time control" b "Time control   5+3"
keys b Right
check "Right changes the time control" b "Time control   10+5"
keys b j j
check "the colour's row" b "Your colour    drawn by the server"
keys b Right
check "Right: White" b "Your colour    White"
keys b Enter
check "Enter opens the seek" b "waiting for an opponent" 20
bid=$(open_ids bob | head -1)
if [ -n "$bid" ] && wait_list "$bid" open; then ok "the seek is listed ($bid)"; else fail "bob's seek not listed"; fi
if curl -s "$url/v1/games" | grep -q "\"id\":\"$bid\".*\"tc\":\"10+5\""; then ok "with the form's time control"; else fail "the seek's time control"; fi
keys b q
check "q leaves the waiting screen" b "Seek an opponent" 10
if gone_from_list "$bid" 5; then ok "q withdrew the seek at once"; else fail "the seek is still open after q"; fi
if grep -q '^seek_tc = 10+5' "$tmp/bob/tchess/config" && grep -q '^seek_color = white' "$tmp/bob/tchess/config"; then
	ok "the form's values are saved to the config file"
else
	fail "config file: $(cat "$tmp/bob/tchess/config" 2>/dev/null)"
fi
keys b q
check "bob quits" b "tchess-exit-0" 10
tmux -L "$sock" kill-session -t b
start_session b bob
check "a new home screen shows the saved values" b "10+5 fide, you play White" 20
keys b 2
check "the form opens with them" b "Time control   10+5" 10
keys b Enter
check "the second seek waits" b "waiting for an opponent" 20
bid=$(open_ids bob | head -1)
keys b Escape
check "Esc leaves the waiting screen" b "Seek an opponent" 10
if [ -n "$bid" ] && gone_from_list "$bid" 5; then ok "Esc withdrew the seek"; else fail "the seek is still open after Esc"; fi

# 4. A client that disappears (frozen: its connection stays, its poll
#    comes back unanswered by it): the seek lapses after the grace and
#    leaves the list.
start_session e erin play --vs open --color black --tc 1+0 --server "$url"
check "erin waits" e "waiting for an opponent" 20
eid=$(open_ids erin | head -1)
check "erin's seek on bob's list" b "erin_p" 30
# The session's shell runs tchess as its child.
epid=$(pgrep -P "$(tmux -L "$sock" list-panes -t e -F '#{pane_pid}')" || true)
if [ -n "$eid" ] && [ -n "$epid" ]; then kill -STOP "$epid"; ok "erin's client stopped ($epid)"; else fail "no erin client"; fi
if gone_from_list "$eid" 45; then ok "the abandoned seek lapses"; else fail "the abandoned seek is still open"; fi
[ -n "$epid" ] && kill -9 "$epid"
deadline=$((SECONDS + 30))
while :; do
	capture b
	case "$screen" in *"erin_p"*) ;; *) break ;; esac
	[ $SECONDS -ge $deadline ] && break
	poll_pause
done
case "$screen" in *"erin_p"*) fail "erin's seek still on bob's screen"; show_screen ;; *) ok "and leaves bob's screen by itself" ;; esac

# 5. A client killed (kill -9): the server sees its poll hang up, and the
#    seek lapses after the grace.
start_session f erin play --vs open --color white --tc 2+1 --server "$url"
check "erin waits again" f "waiting for an opponent" 20
fid=$(open_ids erin | head -1)
check "that seek on bob's list" b "2+1" 30
fpid=$(pgrep -P "$(tmux -L "$sock" list-panes -t f -F '#{pane_pid}')" || true)
if [ -n "$fid" ] && [ -n "$fpid" ]; then kill -9 "$fpid"; ok "erin's client killed ($fpid)"; else fail "no erin client"; fi
if gone_from_list "$fid" 15; then ok "the killed client's seek lapses"; else fail "the killed client's seek is still open"; fi

e2e_finish "all lobby checks passed"
