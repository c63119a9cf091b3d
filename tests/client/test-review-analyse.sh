#!/usr/bin/env bash
# tchess review --plain --analyse with Debian's stockfish at a fixed depth
# (one thread, so the same answer every run): the known blunders of
# tests/data/review/blunder.pgn are classed as blunders, every main-line
# move has the engine's evaluation and best move in UCI, the accuracy
# line favours the side that did not blunder, and a second run answers
# from the cache without one search. Skips (77) without stockfish.
set -u
tchess=$1
data=$2
sf=/usr/games/stockfish
if [ ! -x "$sf" ]; then
	echo "SKIP: $sf is not installed"
	exit 77
fi
tmp=$(mktemp -d /tmp/tchess-analyse.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The engine through a wrapper that logs what it is told.
cat >"$tmp/engine" <<EOS
#!/bin/sh
tee -a "$tmp/told" | exec $sf
EOS
chmod +x "$tmp/engine"
fail=0
run() { XDG_CACHE_HOME="$tmp/cache" "$tchess" review --plain --analyse=10 --engine "$tmp/engine" "$data/review/blunder.pgn"; }
out=$(run)
rc=$?
[ $rc -eq 0 ] || { echo "exit status $rc"; fail=1; }
ply() { grep -E "^$1 " <<<"$out"; }
# 5. Nxf7?? and 7. Be2?? (a mate let in from about -6).
ply 9 | grep -q ' class=blunder' || { echo "5. Nxf7 not a blunder: $(ply 9)"; fail=1; }
ply 13 | grep -q ' class=blunder' || { echo "7. Be2 not a blunder: $(ply 13)"; fail=1; }
# Every move but the mating one has an evaluation, and each a best move.
for p in $(seq 1 13); do
	ply "$p" | grep -qE ' engine=(cp|mate):-?[0-9]+ best=[a-h][1-8][a-h][1-8][qrbn]?( |$)' ||
		{ echo "ply $p lacks engine= best=: $(ply "$p")"; fail=1; }
done
ply 14 | grep -q ' best=d4f3' || { echo "the mate's best move: $(ply 14)"; fail=1; }
ply 13 | grep -q ' engine=mate:-1 ' || { echo "after 7. Be2 Black mates in one: $(ply 13)"; fail=1; }
# The opening moves are not judged.
for p in 1 2 3 4; do
	ply "$p" | grep -q ' class=' && { echo "ply $p judged: $(ply "$p")"; fail=1; }
done
acc=$(grep '^accuracy ' <<<"$out")
read -r _ _ w _ b <<<"$acc"
if [ -z "$acc" ] || [ "$w" -ge "$b" ]; then echo "accuracy: '$acc'"; fail=1; fi
grep -qxF "end 0-1 checkmate" <<<"$out" || { echo "no end line"; fail=1; }
# Reopening: the cache answers, the engine is asked for nothing.
searches=$(grep -c '^go ' "$tmp/told")
[ "$searches" -eq 14 ] || { echo "want 14 searches (15 positions, the last a mate), got $searches"; fail=1; }
again=$(run)
[ "$again" = "$out" ] || { echo "the cached run differs"; diff <(echo "$out") <(echo "$again"); fail=1; }
[ "$(grep -c '^go ' "$tmp/told")" -eq "$searches" ] || { echo "the second run searched"; fail=1; }
# The engine and depth from the config file, when the command line names
# neither: the wrapper is started and told to search to depth 4; --depth
# on the command line wins over the file.
mkdir -p "$tmp/cfg/tchess"
printf 'engine = %s\nengine_depth = 4\n' "$tmp/engine" >"$tmp/cfg/tchess/config"
: >"$tmp/told"
XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache2" "$tchess" review --plain --analyse "$data/review/blunder.pgn" \
	>"$tmp/cfg-out" || { echo "config engine run failed"; fail=1; }
grep -q ' engine=' "$tmp/cfg-out" || { echo "config engine: no engine= fields"; fail=1; }
[ "$(grep -c '^go depth 4$' "$tmp/told")" -eq 14 ] ||
	{ echo "config engine_depth 4: want 14 'go depth 4', told: $(grep '^go' "$tmp/told" | sort | uniq -c)"; fail=1; }
: >"$tmp/told"
XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache3" "$tchess" review --plain --analyse --depth 5 \
	"$data/review/blunder.pgn" >/dev/null || { echo "--depth over the config failed"; fail=1; }
[ "$(grep -c '^go depth 5$' "$tmp/told")" -eq 14 ] || { echo "--depth 5 did not win over the config"; fail=1; }
printf 'engine_depth = 99\n' >"$tmp/cfg/tchess/config"
XDG_CONFIG_HOME="$tmp/cfg" "$tchess" review --plain "$data/review/blunder.pgn" >/dev/null 2>"$tmp/cfg-err" &&
	{ echo "a bad engine_depth accepted"; fail=1; }
grep -q "engine_depth is a depth from 1 to 60" "$tmp/cfg-err" || { echo "bad engine_depth: $(cat "$tmp/cfg-err")"; fail=1; }
# Bad depth and --analyse without --plain are refused.
"$tchess" review --plain --analyse=0 "$data/review/blunder.pgn" >/dev/null 2>&1 && { echo "depth 0 accepted"; fail=1; }
"$tchess" review --analyse "$data/review/blunder.pgn" >/dev/null 2>&1 && { echo "--analyse without --plain"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
