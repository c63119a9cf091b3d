#!/usr/bin/env bash
# End-to-end test of tchess lichess login with OAuth (authorization code
# with PKCE, S256, on a loopback redirect) against the scripted Lichess
# (tests/lichess/fake-lichess.py, tests/e2e/lichess/oauth.json) playing the
# authorization server on loopback. The browser is curl: $BROWSER (a
# script here) follows the authorization URL to Lichess's 302 and on to
# tchess's loopback listener, or, with no browser, the test reads the URL
# tchess prints and curls it itself. The scripted server gives the token
# only for a code whose verifier hashes (SHA-256, base64url) to the
# challenge sent, with the same redirect_uri and client_id, so a login
# that succeeds proves the PKCE pair. Checked:
#   1. login --oauth with a browser: logged in, the OAuth token kept 0600,
#      the browser told it can close the tab; the requests' parameters;
#   2. Enter alone at the token prompt takes the same way;
#   3. no browser: the address is printed, and curl at it logs in;
#   4. the user says no in the browser: said, nothing kept, no token asked;
#   5. an answer with another state: refused, no token asked for its code;
#   6. a pasted personal token still logs in.
# No test contacts lichess.org. Every wait polls with a deadline.
# Skips (exit 77) without tmux, python3 or curl.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tmux-lib.sh"

e2e_require tmux python3 curl
: "${TCHESS:?TCHESS must name the tchess binary}"
: "${FAKE_LICHESS:?FAKE_LICHESS must name tests/lichess/fake-lichess.py}"
e2e_init lichess-oauth

start_lichess "$(dirname "${BASH_SOURCE[0]}")/lichess/oauth.json"
lichess_config alice
file="$tmp/alice/tchess/lichess-token"
oauth_token=lio_OAuthAlice_9876543210

# The "browser": follows the redirects, keeps the last page and its status.
cat >"$tmp/browser" <<EOS
#!/bin/sh
curl -s -L -o "$tmp/browser.page" -w '%{http_code}' "\$1" >"$tmp/browser.code"
EOS
chmod +x "$tmp/browser"
e2e_env="BROWSER=$tmp/browser"

# 1. With a browser.
start_session o1 alice lichess login --oauth
check "oauth: the browser is opened" o1 "Log in on Lichess in the browser (opened for you):" 20
check "oauth: logged in with the OAuth token" o1 "logged in on $lichess_url as Alice; token kept" 20
check "oauth: exit 0" o1 "tchess-exit-0"
grep -qx "token = $oauth_token" "$file" && ok "oauth: the OAuth token is kept" || fail "oauth: token file: $(grep -c token "$file")"
[ "$(stat -c %a "$file")" = 600 ] && ok "oauth: mode 0600" || fail "oauth: mode $(stat -c %a "$file")"
grep -q "you can close this tab" "$tmp/browser.page" && [ "$(cat "$tmp/browser.code")" = 200 ] &&
	ok "oauth: the browser is told it can close the tab" || fail "oauth: browser page: $(cat "$tmp/browser.page")"
lichess_log_wait '"GET"' '"/oauth"' 'response_type=code&client_id=tchess&redirect_uri=http%3A%2F%2F127.0.0.1%3A' \
	'%2Fcallback&code_challenge_method=S256&code_challenge=' '&scope=board%3Aplay&state=' &&
	ok "oauth: GET /oauth with S256, the loopback redirect, the scope and a state" || fail "oauth: no such GET /oauth"
lichess_log_wait '"POST"' '"/api/token"' 'grant_type=authorization_code&code=code1&code_verifier=' '"auth": ""' &&
	ok "oauth: the code and the verifier traded with POST /api/token" || fail "oauth: no such POST /api/token"
[ "$(lichess_requests GET /api/account "Bearer $oauth_token")" = 1 ] && ok "oauth: the token checked with GET /api/account" ||
	fail "oauth: GET /api/account: $(lichess_requests GET /api/account)"
python3 - "$tmp/lichess.log" <<'PY' && ok "oauth: a 64-character verifier, a 32-character state" || fail "oauth: verifier or state"
import json, sys, urllib.parse
q = b = None
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("path") == "/oauth":
        q = urllib.parse.parse_qs(r["query"])
    if r.get("path") == "/api/token" and r.get("method") == "POST":
        b = urllib.parse.parse_qs(r["body"])
sys.exit(0 if len(b["code_verifier"][0]) == 64 and len(q["state"][0]) == 32 else 1)
PY

# 2. Enter alone at the prompt.
rm -f "$file"
start_session o2 alice lichess login
check "prompt: offers the browser" o2 "(or press Enter alone to log in through the browser instead)"
keys o2 Enter
check "prompt: Enter alone logs in through the browser" o2 "logged in on $lichess_url as Alice" 20
lichess_log_wait '"POST"' '"/api/token"' 'code=code2' && ok "prompt: with a second code" || fail "prompt: no code2"

# 3. No browser: the address printed, curl at it.
rm -f "$file"
env -u BROWSER -u DISPLAY -u WAYLAND_DISPLAY XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess login --oauth \
	>"$tmp/o3.out" 2>"$tmp/o3.err" &
o3=$!
deadline=$((SECONDS + 20))
until grep -q "^  $lichess_url/oauth?" "$tmp/o3.err" || [ $SECONDS -ge $deadline ]; do poll_pause; done
grep -q "Open this address in a browser to log in on Lichess:" "$tmp/o3.err" && ok "no browser: the address is printed" || fail "no browser: $(cat "$tmp/o3.err")"
auth_url=$(sed -n "s|^  \($lichess_url/oauth?.*\)|\1|p" "$tmp/o3.err")
page=$(curl -s -L "$auth_url")
wait $o3
rc=$?
[ $rc = 0 ] && grep -q "logged in on $lichess_url as Alice" "$tmp/o3.out" && ok "no browser: curl at it logs in" ||
	fail "no browser: rc $rc: $(cat "$tmp/o3.err")"
case "$page" in *"close this tab"*) ok "no browser: the page says so" ;; *) fail "no browser: page '$page'" ;; esac

# 4. Denied in the browser.
rm -f "$file"
curl -s -X POST "$lichess_url/_test/oauth" -d '{"deny": true}' >/dev/null
n_tokens=$(lichess_requests POST /api/token)
start_session o4 alice lichess login --oauth
check "denied: said in Lichess's words" o4 "tchess lichess login: Lichess says access_denied: user cancelled" 20
check "denied: exit 1" o4 "tchess-exit-1"
[ ! -e "$file" ] && ok "denied: nothing kept" || fail "denied: a token file appeared"
[ "$(lichess_requests POST /api/token)" = "$n_tokens" ] && ok "denied: no token asked for" || fail "denied: POST /api/token"
grep -q "did not log in" "$tmp/browser.page" && [ "$(cat "$tmp/browser.code")" = 400 ] &&
	ok "denied: the browser is told" || fail "denied: browser page $(cat "$tmp/browser.code")"

# 5. Another state.
curl -s -X POST "$lichess_url/_test/oauth" -d '{"wrong_state": true}' >/dev/null
start_session o5 alice lichess login --oauth
check "state: an answer with another state is refused" o5 "the answer's state is not this login's: not logging in" 20
check "state: exit 1" o5 "tchess-exit-1"
[ "$(lichess_requests POST /api/token)" = "$n_tokens" ] && ok "state: its code is not traded" || fail "state: POST /api/token"
[ ! -e "$file" ] && ok "state: nothing kept" || fail "state: a token file appeared"

# 6. A personal token still works.
curl -s -X POST "$lichess_url/_test/oauth" -d '{}' >/dev/null
printf 'lip_AliceToken_0123456789\n' | XDG_CONFIG_HOME="$tmp/alice" "$TCHESS" lichess login >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -qx "token = lip_AliceToken_0123456789" "$file" && ok "paste: a personal token still logs in" ||
	fail "paste: $(cat "$tmp/err")"

lichess_check_agent
e2e_finish "lichess oauth: ok"
