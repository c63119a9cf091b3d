#!/usr/bin/env bash
# tchess review --plain on tests/data/review-plain.pgn: every status and
# claim the dump can report, an unreadable game in the middle of the file,
# the plies before its error, an empty Result tag, variations and NAGs,
# ECO codes and the opening, and the exit status.
# Expected lines were worked out by hand.
set -u
tchess=$1
data=$2
out=$("$tchess" review --plain "$data/review-plain.pgn")
rc=$?
fail=0
expect() {
	if ! grep -qxF -- "$1" <<<"$out"; then
		echo "missing line: $1"
		fail=1
	fi
}
expect "game 1"
expect "1 f3 f2f3 rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1 eco=A00"
expect "opening A00 Gedult's opening"
expect "4 Qh4# d8h4 rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
expect "end 0-1 checkmate"
expect "8 Ng8 f6g8 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"
expect "end * ongoing claimable=threefold"
expect "1 Qb6 c5b6 k7/8/1Q6/8/8/8/8/2K5 b - - 1 1"
expect "end 1/2-1/2 stalemate"
expect "1 Rd1 e1d1 8/8/8/8/8/8/k7/2KR4 b - - 100 80"
expect "end * ongoing claimable=fifty"
expect "1 Kxc2 c1c2 8/8/8/8/8/8/k1K5/8 b - - 0 1"
expect "end 1/2-1/2 insufficient-material"
expect "game 6"
expect "game 7"
expect "1 e4 e2e4 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 eco=B00"
expect "16 Ng8 f6g8 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9"
expect "end 1/2-1/2 fivefold"
if ! grep -qE '^error [0-9]+:[0-9]+ .*Ke3' <<<"$out"; then
	echo "missing error line for game 6"
	fail=1
fi
# The legal plies before the bad move come before its error line.
game6=$(sed -n '/^game 6$/,/^game 7$/p' <<<"$out")
want6="game 6
1 e4 e2e4 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 eco=B00
2 e5 e7e5 rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 eco=C20
opening C20 King's pawn game"
if [ "$(head -4 <<<"$game6")" != "$want6" ] || ! sed -n 5p <<<"$game6" | grep -q '^error '; then
	echo "game 6: want its two legal plies, then the error"
	fail=1
fi
# An empty Result tag still gives four fields: "end * ongoing".
expect "game 9"
if ! sed -n '/^game 9$/,$p' <<<"$out" | grep -qxF "end * ongoing"; then
	echo "game 9: want 'end * ongoing'"
	fail=1
fi
# Variations and NAGs: each variation after the move it replaces, between
# "( PLY" and ")", nested alike; a bad move in one is a warning.
game10=$(sed -n '/^game 10$/,$p' <<<"$out")
want10="game 10
1 e4 e2e4 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 nags=\$1 eco=B00
2 e5 e7e5 rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 eco=C20
( 2
2 c5 c7c5 rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 eval=cp:30 clock=0:01:00 eco=B20
3 Nf3 g1f3 rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 eco=B27
( 3
3 c3 c2c3 rnbqkbnr/pp1ppppp/8/2p5/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2 eco=B22
)
4 d6 d7d6 rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3 eco=B50
)
( 2
2 e6 e7e6 rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 eco=C00
)
3 Nf3 g1f3 rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 nags=\$4 eco=C40
opening C40 King's knight opening
warning line 57, column 4: in a variation, 2. Qxh7: Qxh7: no queen of White's can move to h7; the rest of that variation is skipped
end * ongoing"
if [ "$game10" != "$want10" ]; then
	echo "game 10: variations and NAGs"
	diff <(echo "$want10") <(echo "$game10")
	fail=1
fi
[ "$(grep -c '^game ' <<<"$out")" = 10 ] || { echo "want 10 games"; fail=1; }
[ "$rc" = 1 ] || { echo "exit status $rc, want 1 (one game failed)"; fail=1; }
# A file that plays on past where our rules end the game is shown whole:
# the line "ended PLY STATUS" after the ply the rules end it at, the moves
# after it, and the rules' verdict on the end line (a fivefold; a start
# where the only move leaves two bare kings, dead before ply 1); a move
# after mate cannot be read, but the mate is marked.
played=$("$tchess" review --plain "$data/review/played-on.pgn")
prc=$?
g1=$(sed -n '/^game 1$/,/^game 2$/p' <<<"$played")
want1="16 Ng8 f6g8 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9
ended 16 fivefold
17 e4 e2e4 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 9 eco=B00
18 e5 e7e5 rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 10 eco=C20
opening C20 King's pawn game
end 1-0 fivefold
game 2"
if [ "$(sed -n '17,$p' <<<"$g1")" != "$want1" ]; then
	echo "played-on game 1: want every move, 'ended 16 fivefold' after ply 16"
	diff <(echo "$want1") <(sed -n '17,$p' <<<"$g1")
	fail=1
fi
g2=$(sed -n '/^game 2$/,/^game 3$/p' <<<"$played")
if ! grep -qxF "ended 4 checkmate" <<<"$g2" || ! grep -q '^error .*a3' <<<"$g2"; then
	echo "played-on game 2: want 'ended 4 checkmate' and the error at 3. a3"
	fail=1
fi
g3=$(sed -n '/^game 3$/,$p' <<<"$played")
want3="game 3
ended 0 dead-position
1 Kxc2 c1c2 8/8/8/8/8/8/k1K5/8 b - - 0 1
2 Ka1 a2a1 8/8/8/8/8/8/2K5/k7 w - - 1 2
3 Kb3 c2b3 8/8/8/8/8/1K6/8/k7 b - - 2 2
end 1/2-1/2 dead-position"
if [ "$g3" != "$want3" ]; then
	echo "played-on game 3: want 'ended 0 dead-position', then every move"
	diff <(echo "$want3") <(echo "$g3")
	fail=1
fi
[ "$prc" = 1 ] || { echo "played-on: exit status $prc, want 1 (game 2 has a move after mate)"; fail=1; }
if [ $fail -ne 0 ]; then
	echo "--- output:"
	echo "$out"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "1 passed, 0 failed"
