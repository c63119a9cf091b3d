#!/usr/bin/env bash
# End-to-end test of the tournament and correspondence client: a real
# tchessd (test clock on) from the build tree, three players registered
# with "tchess register". One creates a 3-player correspondence round robin
# with a stake and all three register with the CLI; the tournament screen
# in an 80x24 tmux session shows the three, the stake and the pot, the
# player's credits, and their games; a game opens from it into the play
# screen, which shows the correspondence deadline; "tchess games" marks the
# player's move and the deadline. The games end by resignation through the
# API (curl), and the standings on screen are the server's. Vacations: a
# booking for today is refused with the server's reason, tomorrow's is
# accepted, listed and cancelled.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux, curl or python3.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux curl python3
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${TCHESSD:?TCHESSD must name the tchessd binary}"
e2e_init tourney

printf 'test_clock = on\n' >"$tmp/conf"
start_server 127.0.0.1:0 --config "$tmp/conf"

tc() { XDG_CONFIG_HOME="$tmp/$1" "$TCHESS" "${@:2}" --server "$url"; }
token() { sed -n 's/^token[ =]*//p' "$tmp/$1/tchess/token" | tr -d ' "'; }
api() { # api WHO METHOD PATH [BODY]
	curl -s -X "$2" -H "Authorization: Bearer $(token "$1")" "$url$3" ${4:+-d "$4"}
}
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

for who in ann bob cat; do register_player "$who" "$who"; done
if [ -z "$(token ann)" ]; then
	echo "not ok - cannot read the token file:"; cat "$tmp/ann/tchess/token"; exit 1
fi

# 1. Create from the CLI; bad arguments are refused before any request.
if tc ann tournament create --players 2 --tc corr:10d/10 2>"$tmp/err"; then
	fail "2 players accepted"
else
	grep -q "from 3 to 32" "$tmp/err" && ok "--players 2 refused" || fail "--players 2: $(cat "$tmp/err")"
fi
tid=$(tc ann tournament create --players 3 --tc corr:10d/10 --stake 10 | head -1)
case "$tid" in [0-9a-f]*) ok "tournament $tid created" ;; *) echo "not ok - create: '$tid'"; exit 1 ;; esac

# 2. The list screen shows it, open, 0/3.
start_session l ann tournaments --server "$url"
check "list shows the tournament" l "${tid:0:8}  round robin         0/3"
check "list shows the credits" l "credits 1000"
keys l q
check "list quits" l "tchess-exit-0"

# 3. Registration through the CLI; the stake is debited.
out=$(tc ann tournament register "$tid")
case "$out" in *"1 of 3 registered, open; your credits: 990"*) ok "ann registered, 990 credits" ;;
*) fail "ann register: $out" ;; esac
if tc ann tournament register "$tid" 2>"$tmp/err"; then fail "registered twice"; else
	ok "second registration refused: $(cat "$tmp/err")"; fi
tc ann tournament withdraw "$tid" >/dev/null && tc ann tournament register "$tid" >/dev/null &&
	ok "withdraw and register again" || fail "withdraw"
tc bob tournament register "$tid" >/dev/null || fail "bob register"
out=$(tc cat tournament register "$tid")
case "$out" in *"3 of 3 registered, running"*) ok "the third registration starts it" ;; *) fail "cat: $out" ;; esac

# 4. The tournament screen: all three, stake and pot, the player's games.
start_session t ann tournament "$tid" --server "$url"
check "tournament screen heading" t "#${tid:0:8} round robin, 3/3 players, corr:10d/10, chessgamble, running"
check "stake and pot" t "stake 10 credits, pot 30, prizes 100%: 1st 100%"
check "credits on the screen" t "your credits: 990"
for who in ann bob cat; do check "$who in the standings" t "1-3    $who"; done
check "crosstable header" t "#  Player            1  2  3"
check "your games" t "Your games"
capture t
mine=$(printf '%s\n' "$screen" | grep -c '^[> ]\* R')
[ "$mine" -eq 2 ] && ok "two games of ann listed" || fail "ann's games: $mine"
keys t a
check "all games" t "Games (Enter opens; a: your games)"
capture t
all=$(printf '%s\n' "$screen" | grep -c '^[> ][* ] R[0-9 ]* B')
[ "$all" -eq 3 ] && ok "all three games listed" || fail "all games: $all"
keys t a

# 5. tchess games marks ann's move and shows the deadlines.
games=$(tc ann games)
echo "$games" | grep -q "\* your move  due 20..-..-.. ..:.. UTC (in 9d 23h)" && ok "games: your move and deadline" ||
	fail "tchess games: $games"
echo "$games" | grep -q "(yours)  due" && ok "games: the other game, not her move" || fail "tchess games (yours): $games"

# 6. Open ann's game as White from the tournament screen: the play screen
# with the deadline.
white_game=$(api ann GET "/v1/tournaments/$tid/games?mine=1" | json "[g['id'] for g in d['games'] if g['white'] == d['you']['player']][0]")
line=$(printf '%s\n' "$screen" | grep -n "${white_game:0:8}" | head -1)
keys t Home
# Select the white game: move down until its line is selected.
for i in 1 2 3; do
	capture t
	printf '%s\n' "$screen" | grep -q "^>.*${white_game:0:8}" && break
	keys t j
done
keys t Enter
check "play screen opens" t "your move" 15
check "deadline in the play screen" t "in 9d 23h" 15
check "deadline date in UTC" t "UTC"
keys t / e 4 Enter
check "the move is played" t "1. e4" 10
keys t m q
check "quitting a running game asks first" t "y/n" 10
keys t y
check "back on the tournament screen" t "Your games" 10

# 7. Resignations through the API end the games; the standings on the
# screen are the server's.
games_json=$(api ann GET "/v1/tournaments/$tid/games")
for g in $(echo "$games_json" | json "' '.join(x['id'] + ':' + str(x['white']) for x in d['games'])"); do
	id=${g%%:*}; white=${g##*:}
	# White resigns every game: ann (1) loses as White, wins as Black.
	for who in ann bob cat; do
		me=$(api "$who" GET /v1/me | json "d['player']")
		[ "$me" = "$white" ] && api "$who" POST "/v1/games/$id/resign" '{}' >/dev/null
	done
done
keys t u
check "finished on the screen" t "chessgamble, finished" 10
standings=$(api ann GET "/v1/tournaments/$tid/standings" | json "'\n'.join('%s %s %s %s %s' % (s['place'], s['name'], s['points'], s['sb'], s['prize'] if s['prize'] is not None else '') for s in d['standings'])")
capture t
while read -r place name pts sb prize; do
	[ "${pts%.0}" = "$pts" ] || pts=${pts%.0}
	[ "${sb%.0}" = "$sb" ] || sb=${sb%.0}
	row=$(printf '%s\n' "$screen" | grep -E "^$place +$name +$pts +$sb ")
	if [ -n "$row" ] && { [ -z "$prize" ] || echo "$row" | grep -q " $prize\$"; }; then
		ok "standings row: $place $name $pts $sb $prize"
	else
		fail "standings row $place $name $pts $sb $prize not on screen"
		printf '%s\n' "$screen" | sed 's/^/    |/'
	fi
done <<<"$standings"
check "credits after the prizes" t "your credits: $(api ann GET /v1/me | json "d['credits']")"
keys t q
check "tournament screen quits" t "tchess-exit-0"

# 8. Vacations: today refused with the server's reason, tomorrow booked,
# listed, cancelled.
now=$(curl -s "$url/v1/health" | json "d['now_ms']")
today=$(python3 -c "import datetime; print(datetime.datetime.utcfromtimestamp($now/1000).strftime('%Y-%m-%d'))")
tomorrow=$(python3 -c "import datetime; print((datetime.datetime.utcfromtimestamp($now/1000) + datetime.timedelta(days=1)).strftime('%Y-%m-%d'))")
if tc bob vacation book "$today" 2 2>"$tmp/err"; then fail "booking for today accepted"; else
	grep -q "refused: " "$tmp/err" && ok "today refused: $(cat "$tmp/err")" || fail "today: $(cat "$tmp/err")"; fi
if tc bob vacation book 2026-02-30 1 2>"$tmp/err"; then fail "Feb 30 accepted"; else
	grep -q "is not a date" "$tmp/err" && ok "a bad date refused locally" || fail "bad date: $(cat "$tmp/err")"; fi
out=$(tc bob vacation book "$tomorrow" 2)
case "$out" in "booked #"*"$tomorrow    2 days"*cancellable) ok "tomorrow booked: $out" ;; *) fail "tomorrow: $out" ;; esac
vid=$(echo "$out" | sed -n 's/^booked #\([0-9]*\).*/\1/p')
tc bob vacation list | grep -q "^#$vid .*$tomorrow" && ok "vacation listed" || fail "vacation list"
tc bob vacation list | grep -q "days allowed" && ok "allowance listed" || fail "allowance"
tc bob vacation cancel "$vid" | grep -q "cancelled vacation #$vid" && ok "cancelled" || fail "cancel"
if tc bob vacation cancel "$vid" 2>"$tmp/err"; then fail "cancelled twice"; else
	grep -q "refused" "$tmp/err" && ok "second cancel refused" || fail "second cancel: $(cat "$tmp/err")"; fi

e2e_finish "all tournament checks passed"
