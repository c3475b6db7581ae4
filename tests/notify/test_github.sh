#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --notify github:comment and github:issue against a fake GitHub REST API
# on loopback (github_api.py): the REST shape (paths, methods, the Bearer
# token, the Accept and API-version headers, JSON bodies), one
# pull-request comment found again on a later page and updated rather than
# duplicated, the pull request from GITHUB_REF, the event file or the
# target, one issue per critical regression commented on rather than
# opened twice; and failures (HTTP 500, 401, nothing listening, no answer
# within the 10 s timeout, no token, no pull request) as one warning line
# each with the exit code unchanged and the token never printed.
source "$(dirname "$0")/../store/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

TOKEN=ghs_n0tAr3alT0kenButS3cret
serve api "$(dirname "$0")/github_api.py" "$T/api.log" "$T/api.json" "$T/api.port" \
  --token "$TOKEN" --seed-comments 120 --lifetime 280
api="http://127.0.0.1:$port"
: >"$T/api.log"
export GITHUB_API_URL="$api/" GITHUB_REPOSITORY=acme/widgets GITHUB_REF=refs/pull/42/merge \
  GITHUB_TOKEN=$TOKEN
unset GH_TOKEN GITHUB_EVENT_PATH
reqs() { wc -l <"$T/api.log"; }
# check PYTHON: runs the assertions with log = the requests since mark
# (a list of dicts), state = the server's state, spin = the case.
mark=0
check() {
  python3 - "$T/api.log" "$T/api.json" "$mark" "$SPIN" "$TOKEN" <<EOF2 || fail "$(tail -n 5 "$T/api.log")"
import json, sys
log = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[3]):]
state = json.load(open(sys.argv[2]))
spin, token = sys.argv[4].replace("_", "\x5c_"), sys.argv[5]  # as Markdown escapes it
for r in log:
    assert r["authorization"] == "Bearer " + token, r["authorization"]
    assert r["accept"] == "application/vnd.github+json", r["accept"]
    assert r["api_version"] == "2022-11-28", r["api_version"]
    assert r["user_agent"], r
    if r["method"] != "GET":
        assert r["content_type"] == "application/json", r["content_type"]
def calls():
    return [(r["method"], r["path"]) for r in log]
def body(i):
    return json.loads(log[i]["body"])
$1
EOF2
  mark=$(reqs)
}

make_results
assert_eq "the comparison alone exits 5 with --fail-on-regression" 5 "$plain_code"

# 1. The first comment: both pages of the pull request's 120 comments are
# searched for the marker, then it is posted.
regressed --notify github:comment
assert_eq "exit 0 with a comment posted" 0 "$code"
assert_has "says it posted" "$out" "notify: pull-request comment posted on github:comment acme/widgets#42"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues/42/comments")] * 2 + \
    [("POST", "/repos/acme/widgets/issues/42/comments")], calls()
assert [r["query"] for r in log[:2]] == [{"per_page": "100", "page": "1"},
                                         {"per_page": "100", "page": "2"}], log[:2]
b = body(2)["body"]
assert b.startswith("<!-- bhost:storetest -->\n"), b[:80]
assert spin in b and "regress" in b.lower(), b
mine = [c for c in state["comments"]["acme/widgets#42"] if "bhost:storetest" in c["body"]]
assert len(state["comments"]["acme/widgets#42"]) == 121 and len(mine) == 1, state
'
ok "GET both pages of comments, POST one Markdown comment with the marker and the regression"

# 2. The second run updates that comment.
regressed --notify github:comment
assert_has "says it updated" "$out" "notify: pull-request comment updated on github:comment acme/widgets#42"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues/42/comments")] * 2 + \
    [("PATCH", "/repos/acme/widgets/issues/comments/4000000000")], calls()
cs = state["comments"]["acme/widgets#42"]
assert len(cs) == 121 and cs[-1]["edits"] == 1, cs[-1]
'
ok "the second run PATCHes the same comment: still one"

# 3. After a fix the same comment shows the improvement and no regression.
improved --notify github:comment --notify github:issue
assert_eq "exit 0" 0 "$code"
assert_has "comment updated" "$out" "notify: pull-request comment updated on github:comment acme/widgets#42"
assert_has "no issue without a critical regression" "$out" "notify: no critical regression, no issue"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues/42/comments")] * 2 + \
    [("PATCH", "/repos/acme/widgets/issues/comments/4000000000")], calls()
b = body(2)["body"]
assert b.startswith("<!-- bhost:storetest -->"), b[:80]
assert "improv" in b.lower(), b
'
ok "the improvement replaces the regression in the one comment; the issue API is not called"

# 4. The pull request from the event file, then from the target itself.
echo '{"action": "synchronize", "number": 7, "pull_request": {"number": 7}}' >"$T/event.json"
GITHUB_REF=refs/heads/main GITHUB_EVENT_PATH="$T/event.json" regressed --notify github:comment
assert_has "the event's pull request" "$out" "comment posted on github:comment acme/widgets#7"
regressed --notify github:comment:acme/gadgets#5
assert_has "the target's pull request" "$out" "comment posted on github:comment acme/gadgets#5"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues/7/comments")] * 2 + \
    [("POST", "/repos/acme/widgets/issues/7/comments")] + \
    [("GET", "/repos/acme/gadgets/issues/5/comments")] * 2 + \
    [("POST", "/repos/acme/gadgets/issues/5/comments")], calls()
'
ok "GITHUB_EVENT_PATH and github:comment:OWNER/REPO#N pick the pull request"

# 5. A critical regression opens one issue; the next one comments on it.
regressed --notify github:issue
assert_has "issue opened" "$out" "notify: issue opened on github:issue acme/widgets"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues"), ("POST", "/repos/acme/widgets/issues")], calls()
assert log[0]["query"] == {"labels": "bhost-regression", "state": "open", "per_page": "100",
                           "page": "1"}, log[0]["query"]
b = body(1)
assert b["labels"] == ["bhost-regression"], b
assert "critical regression in storetest" in b["title"], b["title"]
assert b["body"].startswith("<!-- bhost:storetest -->") and spin in b["body"], b["body"]
'
ok "GET open issues labelled bhost-regression, POST one issue with title, label and table"
bhn run "$T/slow.yaml" --results-dir "$T/res" --baseline "$T/base.json" --ignore-param slowdown_pct \
  --no-confirm --no-store --quiet --notify github:issue --notify github:comment
assert_eq "bhost run exits 0" 0 "$code"
assert_has "run comments on the issue" "$err" "notify: commented on the open issue #101 of github:issue acme/widgets"
assert_has "run updates the comment" "$err" "notify: pull-request comment updated on github:comment acme/widgets#42"
check '
assert calls() == [("GET", "/repos/acme/widgets/issues"),
                   ("POST", "/repos/acme/widgets/issues/101/comments")] + \
    [("GET", "/repos/acme/widgets/issues/42/comments")] * 2 + \
    [("PATCH", "/repos/acme/widgets/issues/comments/4000000000")], calls()
issues = [i for i in state["issues"] if "pull_request" not in i]
assert len(issues) == 1 and len(issues[0]["comments"]) == 1, issues
assert state["issues"][0]["comments"] == [], "the labelled pull request got a comment"
assert spin in body(1)["body"], body(1)
'
ok "bhost run: a comment on the open issue, not a second issue; the labelled pull request is left alone"

# 6. Failures: one warning line per target, the exit code unchanged.
n=$(reqs)
GITHUB_API_URL="$api/fail500" regressed --fail-on-regression --notify github:comment \
  --notify github:issue
assert_eq "HTTP 500: exit code unchanged" "$plain_code" "$code"
assert_eq "HTTP 500: one warning per target" 2 "$(warnings)"
w="warning: --notify: the comment not sent: github:comment acme/widgets#42:"
assert_has "HTTP 500 named" "$err" \
  "$w GET /repos/acme/widgets/issues/42/comments: the server answered HTTP 500 (Server Error)"
GITHUB_TOKEN=ghs_wrongButAlsoSecret regressed --notify github:comment
assert_eq "HTTP 401: exit 0" 0 "$code"
assert_eq "HTTP 401: one warning" 1 "$(warnings)"
assert_has "HTTP 401 named" "$err" "HTTP 401 (Bad credentials)"
GITHUB_API_URL="http://127.0.0.1:$(closed_port)" regressed --notify github:issue
assert_eq "nothing listening: exit 0" 0 "$code"
assert_eq "nothing listening: one warning" 1 "$(warnings)"
assert_has "nothing listening named" "$err" "warning: --notify: the issue not sent: github:issue acme/widgets: "
GITHUB_API_URL="$api/stall" regressed --fail-on-regression --notify github:comment
assert_eq "a server that does not answer: exit code unchanged" "$plain_code" "$code"
assert_eq "a server that does not answer: one warning" 1 "$(warnings)"
assert_has "the timeout named" "$err" "github:comment acme/widgets#42: Operation timed out after"
mark=$(reqs)
env -u GITHUB_TOKEN "$BHOST_EXE" compare "$T/base.json" "$T/slow.json" --ignore-param slowdown_pct \
  --config "$T/slow.yaml" --quiet --fail-on-regression --notify github:comment >"$T/.out" 2>"$T/.err" \
  && code=0 || code=$?
err=$(cat "$T/.err")
assert_eq "no token: exit code unchanged" "$plain_code" "$code"
assert_eq "no token: one warning" "bhost: $w no token: set GITHUB_TOKEN" "$err"
GITHUB_REF=refs/heads/main regressed --notify github:comment
assert_eq "no pull request: one warning" 1 "$(warnings)"
assert_has "no pull request named" "$err" "no pull request: not a pull_request event"
assert_eq "neither sent a request" "$mark" "$(reqs)"
for bad in github:comment:nope github:issue:acme/widgets#3 github:comment:a/b#x github:pr; do
  bhn compare "$T/base.json" "$T/slow.json" --notify "$bad"
  assert_eq "--notify $bad is a usage error" 2 "$code"
done
if grep -q -e "$TOKEN" -e ghs_wrongButAlsoSecret "$T/transcript"; then fail "a token was printed"; fi
ok "no token was ever printed"
