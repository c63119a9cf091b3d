# shellcheck shell=bash
# Shared harness of the tmux end-to-end tests (test-*-tmux.sh), sourced by
# each of them: the real tchess runs in detached 80x24 tmux sessions on a
# private tmux socket, the tests type into them with send-keys and read
# them back with capture-pane; the network tests run a real tchessd from
# the build tree on a loopback port with a database in the scratch folder.
#
# Every wait polls (the screen, or tchessd's output) with a deadline, one
# tmux round trip between two looks: nothing sleeps and hopes. A check that
# fails prints the screen it saw and counts in $failures; e2e_finish turns
# the count into the exit status.
#
# Globals a test reads: $tmp (scratch folder), $sock (tmux socket name),
# $screen (the last capture), $failures, and once tchessd runs $server_pid,
# $port and $url. $wait_seconds is the default deadline of wait_for/check.
#
# A script finds this file beside itself, wherever meson runs it from:
#   . "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

# e2e_require TOOL...: skips the test (exit 77, meson's "skipped") unless
# every TOOL is installed.
e2e_require() {
	local tool
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "SKIP: $tool is not installed"
			exit 77
		fi
	done
}

# e2e_init NAME: the scratch folder (under /tmp, a short path, so messages
# that quote a path there fit on one screen line), the tmux socket name and
# the EXIT trap that tears everything down.
e2e_init() {
	export LC_ALL=C.UTF-8
	tmp=$(mktemp -d "/tmp/tchess-$1.XXXXXX")
	sock="tchess-$1-$$"
	failures=0
	screen=""
	server_pid=""
	lichess_pid=""
	wait_seconds=10
	trap e2e_cleanup EXIT
}

e2e_cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	[ -n "$lichess_pid" ] && kill "$lichess_pid" 2>/dev/null && wait "$lichess_pid" 2>/dev/null
	rm -rf "$tmp"
}

# start_lichess TRANSCRIPT: the scripted Lichess ($FAKE_LICHESS, Python 3)
# on a loopback port, replaying TRANSCRIPT (tests/lichess/fake-lichess.py
# says how) and logging every request to $tmp/lichess.log; sets
# lichess_pid and lichess_url. A failure to start ends the test.
start_lichess() {
	local deadline=$((SECONDS + 20))
	: >"$tmp/lichess.log"
	python3 "$FAKE_LICHESS" --transcript "$1" --log "$tmp/lichess.log" --port-file "$tmp/lichess.port" \
		2>>"$tmp/lichess.err" &
	lichess_pid=$!
	until [ -s "$tmp/lichess.port" ]; do
		if [ $SECONDS -ge $deadline ] || ! kill -0 "$lichess_pid" 2>/dev/null; then
			echo "not ok - fake-lichess.py did not start"; cat "$tmp/lichess.err"; exit 1
		fi
		poll_pause
	done
	lichess_url="http://127.0.0.1:$(cat "$tmp/lichess.port")"
}

# lichess_config DIR: a configuration in $tmp/DIR whose lichess_url is
# the scripted Lichess.
lichess_config() {
	mkdir -p "$tmp/$1/tchess"
	printf 'lichess_url = %s\n' "$lichess_url" >"$tmp/$1/tchess/config"
}

# lichess_login DIR: tchess lichess login with the scripted Lichess's
# token (lip_AliceToken_0123456789) in $tmp/DIR; a failure ends the test.
lichess_login() {
	lichess_config "$1"
	printf 'lip_AliceToken_0123456789\n' | XDG_CONFIG_HOME="$tmp/$1" "$TCHESS" lichess login >/dev/null ||
		{ echo "not ok - tchess lichess login"; exit 1; }
}

# lichess_log_wait WORDS...: waits (10 s at most) until a line of the
# scripted Lichess's request log holds every word.
lichess_log_wait() {
	local deadline=$((SECONDS + 10)) line w all
	while :; do
		while IFS= read -r line; do
			all=1
			for w in "$@"; do case "$line" in *"$w"*) ;; *) all=0 ;; esac; done
			[ $all = 1 ] && return 0
		done <"$tmp/lichess.log"
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}

# lichess_requests METHOD PATH [WORD]: how many requests METHOD PATH the
# scripted Lichess has logged (with WORD somewhere in the record).
lichess_requests() {
	python3 - "$tmp/lichess.log" "$1" "$2" "${3:-}" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("method") == sys.argv[2] and r.get("path") == sys.argv[3] and sys.argv[4] in line:
        n += 1
print(n)
PY
}

# lichess_check_agent: every request tchess made to the scripted Lichess
# (all but the tests' own /_test/ controls and the "browser"'s GET /oauth,
# sent with curl) carried
# "User-Agent: tchess/VERSION", VERSION as tchess --version prints it; at
# least one request was made. A check (ok/fail).
lichess_check_agent() {
	local want out
	want="tchess/$("$TCHESS" --version | sed 's/^tchess //')"
	out=$(python3 - "$tmp/lichess.log" "$want" <<'PY'
import json, sys
n = bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "method" not in r or r["path"].startswith("/_test/") or r["path"] == "/oauth":
        continue
    n += 1
    if r.get("ua") != sys.argv[2]:
        bad += 1
        print("%s %s: User-Agent %r" % (r["method"], r["path"], r.get("ua")))
print("%d requests, %d without it" % (n, bad))
PY
)
	case "$out" in
	"0 requests"*) fail "user-agent: no request was made" ;;
	*", 0 without it") ok "user-agent: every one of ${out%% *} requests says $want" ;;
	*) fail "user-agent: $out" ;;
	esac
}

# poll_pause: one no-op round trip to the tmux server, the pause between
# two looks of every wait (no sleep, and no busy loop either).
poll_pause() {
	tmux -L "$sock" wait-for -S never 2>/dev/null || true
}

# start_server ADDR [TCHESSD OPTIONS...]: runs tchessd on ADDR with the
# database $tmp/db (its output in $tmp/out, its log appended to $tmp/log);
# sets server_pid, port and url. A restart on the same port may find it
# still held for a moment: try again until the 20 s deadline, then fail the
# whole test.
start_server() {
	local addr=$1 deadline=$((SECONDS + 20))
	shift
	while :; do
		: >"$tmp/out"
		"$TCHESSD" --listen "$addr" --db "$tmp/db" "$@" >"$tmp/out" 2>>"$tmp/log" &
		server_pid=$!
		until grep -q "listening on" "$tmp/out" || ! kill -0 "$server_pid" 2>/dev/null; do
			[ $SECONDS -ge $deadline ] && break
			poll_pause
		done
		grep -q "listening on" "$tmp/out" && break
		wait "$server_pid" 2>/dev/null
		if [ $SECONDS -ge $deadline ]; then
			echo "not ok - tchessd did not start"; tail -5 "$tmp/log"; exit 1
		fi
	done
	port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/out")
	url="http://127.0.0.1:$port"
}

# kill_server: SIGKILL to tchessd (a crash, nothing flushed), reaped.
kill_server() {
	kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null
	server_pid=""
}

# register_player DIR NAME: "tchess register NAME" against $url with its
# configuration (and so its token) in $tmp/DIR; a failure ends the test.
register_player() {
	mkdir -p "$tmp/$1"
	if ! XDG_CONFIG_HOME="$tmp/$1" "$TCHESS" register "$2" --server "$url" >/dev/null; then
		echo "not ok - register $1"; exit 1
	fi
}

# start_session NAME DIR ARGS...: a detached 80x24 session NAME running
# "tchess ARGS" with its configuration in $tmp/DIR and nothing of the
# caller's environment but the words of $e2e_env (VAR=value ..., no
# blanks in a value). When tchess exits the session prints
# "tchess-exit-STATUS" and stays, so the status can be read off the screen;
# the shell around it ignores SIGINT, so that a Ctrl-C typed to tchess
# leaves it there to say so (tchess sets its own handler where it takes one).
start_session() {
	local name=$1 cfg=$2; shift 2
	tmux -L "$sock" -f /dev/null new-session -d -s "$name" -x 80 -y 24 -c "$tmp" \
		env -i PATH="$PATH" HOME="$tmp" LANG=C.UTF-8 TERM=xterm-256color \
		XDG_CONFIG_HOME="$tmp/$cfg" XDG_STATE_HOME="$tmp/state-$cfg" \
		TCHESS_THEME_DIR="${TCHESS_THEME_DIR:-}" ${e2e_env:-} \
		sh -c 'trap "" INT; "$0" "$@"; echo "tchess-exit-$?"; sleep 60' "$TCHESS" "$@"
}

# capture SESSION: the session's screen into $screen.
capture() { screen=$(tmux -L "$sock" capture-pane -p -t "$1" 2>/dev/null); }

# keys SESSION KEYS...: types KEYS (tmux send-keys syntax) into SESSION.
keys() { local s=$1; shift; tmux -L "$sock" send-keys -t "$s" "$@"; }

# show_screen: the last capture, indented, under a failure message.
show_screen() { printf '%s\n' "$screen" | sed 's/^/    |/'; }

ok() { echo "ok - $1"; }
fail() { echo "not ok - $1"; failures=$((failures + 1)); }

# wait_for SESSION TEXT [SECONDS]: polls the screen until TEXT shows;
# returns 1 at the deadline ($wait_seconds by default: sanitizer builds on
# a busy machine start slowly).
wait_for() {
	local deadline=$((SECONDS + ${3:-$wait_seconds}))
	while :; do
		capture "$1"
		case "$screen" in *"$2"*) return 0 ;; esac
		[ $SECONDS -ge $deadline ] && return 1
		poll_pause
	done
}

# check NAME SESSION TEXT [SECONDS]: TEXT must show on SESSION's screen
# before the deadline.
check() {
	if wait_for "$2" "$3" "${4:-$wait_seconds}"; then
		ok "$1"
	else
		fail "$1: '$3' not on the $2 screen:"
		show_screen
	fi
}

# absent NAME SESSION TEXT: TEXT is not on SESSION's screen now.
absent() {
	capture "$2"
	# The game's id on the status line is random hex ("0d592be4" holds
	# "e4"): the last line is left out.
	screen=$(printf '%s\n' "$screen" | sed '$d')
	case "$screen" in
	*"$3"*)
		fail "$1: '$3' is on the $2 screen:"
		show_screen ;;
	*) ok "$1" ;;
	esac
}

# posted WHAT: how many POST /v1/games/ID/WHAT requests tchessd has logged.
posted() { grep -c "POST /v1/games/.*/$1 " "$tmp/log"; }

# new_game N [PLAY OPTIONS...]: White (config "white", session wN) opens a
# 5+3 seek with the options, Black (config "black", session bN) joins it;
# sets id. Both must have registered.
new_game() {
	local before n=$1
	shift
	before=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games --server "$url" | awk 'NR > 1 && $2 == "open" { print $1 }')
	start_session "w$n" white play --vs open --color white --tc 5+3 --server "$url" "$@"
	check "game $n: white waits" "w$n" "waiting for an opponent" 20
	id=$(XDG_CONFIG_HOME="$tmp/white" "$TCHESS" games --server "$url" |
		awk -v old="$before" 'NR > 1 && $2 == "open" && index(old, $1) == 0 { print $1; exit }')
	if [ -z "$id" ]; then echo "not ok - game $n: no open game listed"; exit 1; fi
	start_session "b$n" black join "$id" --server "$url"
	check "game $n: white to move" "w$n" "your move" 20
	check "game $n: black sees White to move" "b$n" "White to move" 20
}

# left_countdown SESSION MIN MAX: the "opponent left — claim victory in
# N s" countdown on SESSION's status line starts at MIN..MAX seconds and
# moves within 5 s (each an ok or a fail).
left_seconds() {
	capture "$1"
	printf '%s\n' "$screen" | sed -n 's/.*opponent left — claim victory in \([0-9]*\) s.*/\1/p' | tail -1
}
left_countdown() {
	local first now deadline
	first=$(left_seconds "$1")
	if [ -n "$first" ] && [ "$first" -le "$3" ] && [ "$first" -ge "$2" ]; then
		ok "the countdown starts from the server's grace ($first s)"
	else
		fail "the countdown shows '$first', not $2-$3 s:"
		show_screen
	fi
	deadline=$((SECONDS + 5))
	now=$first
	while [ "$now" = "$first" ] && [ $SECONDS -lt $deadline ]; do
		poll_pause
		now=$(left_seconds "$1")
	done
	if [ -n "$now" ] && [ -n "$first" ] && [ "$now" -lt "$first" ]; then
		ok "the countdown moves: $first s, then $now s"
	else
		fail "the countdown did not move from '$first' (now '$now'):"
		show_screen
	fi
}

# e2e_finish MESSAGE: exits 1 with the count (and tchessd's last log lines,
# if it ran) when a check failed, else prints MESSAGE.
e2e_finish() {
	if [ "$failures" -gt 0 ]; then
		if [ -e "$tmp/log" ]; then
			echo "$failures failure(s); server log:"
			tail -20 "$tmp/log"
		else
			echo "$failures failure(s)"
		fi
		exit 1
	fi
	echo "$1"
}
