#!/usr/bin/env bash
# End-to-end test of tchess lichess login and logout against the scripted
# Lichess (tests/lichess/fake-lichess.py) on loopback, named by lichess_url
# in the config file: the token typed at the prompt is not echoed, is
# checked with GET /api/account and kept with the account's 30-character
# name (longer than a tchessd name) in a file of mode 0600; a token Lichess
# refuses, one with a character no token has, and no token at all are
# each said and keep nothing, and the token is never printed; logout
# revokes it (DELETE /api/token with it) and removes the file; a second
# logout says there is nothing to do. No test contacts lichess.org.
#
# Every wait polls the screen with a deadline; nothing sleeps and hopes.
# Skips (exit 77) without tmux or python3.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-login

token=lip_AliceToken_0123456789
name=Alice_has_a_thirty_char_name_x
start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/login.json"
lichess_config alice
file="$tmp/alice/tchess/lichess-token"

# 1. Typed at the prompt: not shown, checked, kept.
start_session login alice lichess login
check "the prompt says where tokens are made" login "$lichess_url/account/oauth/token/create?scopes[]=board:play"
check "and that the token is not shown" login "Paste it here (it is not shown):"
keys login "$token" Enter
check "logged in as the account's whole name" login "logged in on $lichess_url as $name; token kep"
check "tchess exits 0" login "tchess-exit-0"
absent "the typed token is not on the screen" login "AliceToken"
[ "$(stat -c %a "$file")" = 600 ] && ok "the token file is the owner's only" || fail "mode $(stat -c %a "$file")"
grep -qx "token = $token" "$file" && ok "the token is kept whole" || fail "token file: $(sed 's/token = .*/token = (hidden)/' "$file")"
grep -qx "name = $name" "$file" && ok "the 30-character name is kept whole" || fail "name in the file: $(grep '^name' "$file")"
grep -qx "server = $lichess_url" "$file" && ok "with the Lichess it is for" || fail "server in the file: $(grep '^server' "$file")"
[ "$(lichess_requests GET /api/account "Bearer $token")" = 1 ] && ok "checked once with GET /api/account" ||
	fail "GET /api/account with the token: $(lichess_requests GET /api/account)"

# 2. Refusals keep nothing and never print the token.
lichess_config bob
before=$(wc -l <"$tmp/lichess.log")
printf 'lip_WrongToken\n' | XDG_CONFIG_HOME="$tmp/bob" "$TCHESS" lichess login >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "$lichess_url refused the token (No such token): check that it was pasted whole" "$tmp/err" &&
	ok "a refused token is said (exit 1)" || fail "refused token: rc $rc: $(cat "$tmp/err")"
grep -q WrongToken "$tmp/out" "$tmp/err" && fail "the refused token was printed" || ok "the refused token is not printed"
[ ! -e "$tmp/bob/tchess/lichess-token" ] && ok "and nothing is kept" || fail "a refused token was kept"
[ "$(lichess_requests GET /api/account "Bearer lip_WrongToken")" = 1 ] && ok "the refused token was asked about once" ||
	fail "GET /api/account with the wrong token: $(lichess_requests GET /api/account "Bearer lip_WrongToken")"

before=$(wc -l <"$tmp/lichess.log")
printf 'lip_has-a-dash\n' | XDG_CONFIG_HOME="$tmp/bob" "$TCHESS" lichess login >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "a Lichess token is letters, digits and '_'; character 8 of what was given is not" "$tmp/err" &&
	ok "a character no token has is said" || fail "bad character: rc $rc: $(cat "$tmp/err")"
grep -q "has-a-dash" "$tmp/err" && fail "the bad token was printed" || ok "and the text is not printed"
[ "$(wc -l <"$tmp/lichess.log")" = "$before" ] && ok "without asking Lichess" || fail "a malformed token was sent"
XDG_CONFIG_HOME="$tmp/bob" "$TCHESS" lichess login </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "no token given" "$tmp/err" && ok "no token at all is said" || fail "empty input: rc $rc: $(cat "$tmp/err")"
[ ! -e "$tmp/bob/tchess/lichess-token" ] && ok "still nothing kept" || fail "a token file appeared"

mkdir -p "$tmp/carol/tchess"
printf 'lichess_url = lichess.org\n' >"$tmp/carol/tchess/config"
printf '%s\n' "$token" | XDG_CONFIG_HOME="$tmp/carol" "$TCHESS" lichess login >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "line 1: lichess_url is an http:// or https:// URL, not 'lichess.org'" "$tmp/err" &&
	ok "a bad lichess_url is said" || fail "bad lichess_url: rc $rc: $(cat "$tmp/err")"

# 3. Logout revokes the token, then forgets it.
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess logout >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q "logged out of $lichess_url: the token of $name is revoked" "$tmp/out" &&
	ok "logout says the token is revoked" || fail "logout: rc $rc: $(cat "$tmp/out" "$tmp/err")"
[ "$(lichess_requests DELETE /api/token "Bearer $token")" = 1 ] && ok "with DELETE /api/token" ||
	fail "DELETE /api/token: $(lichess_requests DELETE /api/token)"
[ ! -e "$file" ] && ok "the token file is gone" || fail "the token file stays"
grep -q "$token" "$tmp/out" "$tmp/err" && fail "logout printed the token" || ok "logout does not print the token"
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess logout >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "not logged in" "$tmp/err" && ok "a second logout has nothing to do" ||
	fail "second logout: rc $rc: $(cat "$tmp/err")"
XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess >/dev/null 2>&1
[ $? = 2 ] && ok "tchess lichess alone is a usage error" || fail "tchess lichess: not a usage error"

lichess_check_agent
e2e_finish "lichess login/logout: ok"
