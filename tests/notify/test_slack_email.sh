#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --notify slack:URL against a webhook receiver on loopback (Slack's text
# and Block Kit blocks, nothing else) and --notify email:ADDRESS against a
# local SMTP sink (smtp_sink.py: the envelope, the headers, a plain-text
# body naming the regressed case); nothing is sent when nothing regressed;
# failures (HTTP 500, a refused recipient, nothing listening, a password
# with no STARTTLS, no server set) are one warning line each with the exit
# code unchanged, and neither the webhook's path nor the password is
# printed.
source "$(dirname "$0")/../store/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

serve hook "$(dirname "$0")/../store/webhook.py" "$T/hook.log" "$T/hook.port" --lifetime 280
: >"$T/hook.log"
hook="http://127.0.0.1:$port"
serve smtp "$(dirname "$0")/smtp_sink.py" "$T/mail.log" "$T/smtp.port" --lifetime 280
: >"$T/mail.log"
export BHOST_SMTP_URL="smtp://127.0.0.1:$port" BHOST_SMTP_FROM=bench@example.org
unset BHOST_SMTP_USER BHOST_SMTP_PASSWORD
lines() { wc -l <"$1"; }

make_results
assert_eq "the comparison alone exits 5 with --fail-on-regression" 5 "$plain_code"

# Slack
regressed --notify "slack:$hook/services/T0/B0/SlackS3cret"
assert_eq "exit 0" 0 "$code"
assert_has "says it posted" "$out" "notify: 1 regression posted to slack $hook/..."
python3 - "$T/hook.log" "$SPIN" <<'PY' || fail "not a Slack message: $(cat "$T/hook.log")"
import json, sys
req = json.loads(open(sys.argv[1]).readline())
assert req["path"] == "/services/T0/B0/SlackS3cret", req["path"]
assert req["content_type"] == "application/json", req["content_type"]
p = json.loads(req["body"])
assert sorted(p) == ["blocks", "text"], sorted(p)
assert "1 regression in storetest" in p["text"], p["text"]
assert p["blocks"][0] == {"type": "header", "text": {"type": "plain_text", "text": p["text"]}}
assert all(b["type"] in ("header", "section") and b["text"]["type"] in ("plain_text", "mrkdwn")
           for b in p["blocks"]), p["blocks"]
assert any(sys.argv[2] in b["text"]["text"] and "critical" in b["text"]["text"]
           for b in p["blocks"]), p["blocks"]
PY
ok "Slack gets text and blocks naming the critical regression, nothing else"
improved --notify "slack:$hook/services/T0/B0/SlackS3cret"
assert_has "nothing regressed" "$out" "notify: nothing regressed, nothing sent to slack $hook/..."
assert_eq "no second post" 1 "$(lines "$T/hook.log")"
regressed --fail-on-regression --notify "slack:$hook/fail/services/SlackS3cret"
assert_eq "HTTP 500: exit code unchanged" "$plain_code" "$code"
assert_eq "HTTP 500: one warning" \
  "bhost: warning: --notify: slack: 1 regression not posted: $hook/...: the server answered HTTP 500" \
  "$err"

# Mail
regressed --notify email:dev@example.org,lead@example.org
assert_eq "exit 0" 0 "$code"
assert_has "says it mailed" "$out" "notify: 1 regression mailed to dev@example.org,lead@example.org"
python3 - "$T/mail.log" "$SPIN" <<'PY' || fail "not the mail expected: $(cat "$T/mail.log")"
import email, email.policy, email.utils, json, sys
m = json.loads(open(sys.argv[1]).readline())
assert m["mail_from"] == "bench@example.org", m["mail_from"]
assert m["rcpt_to"] == ["dev@example.org", "lead@example.org"], m["rcpt_to"]
assert m["commands"][0] == "EHLO", m["commands"]
assert "\r\n" in m["data"] and "\n" not in m["data"].replace("\r\n", ""), "bare LF in the message"
msg = email.message_from_string(m["data"], policy=email.policy.default)
assert msg["From"] == "bench@example.org", msg["From"]
assert msg["To"] == "dev@example.org, lead@example.org", msg["To"]
assert "1 regression in storetest" in msg["Subject"], msg["Subject"]
assert email.utils.parsedate_to_datetime(msg["Date"]) is not None, msg["Date"]
assert msg["Message-ID"].endswith("@example.org>"), msg["Message-ID"]
assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
body = msg.get_content()
assert "critical: " + sys.argv[2] + " time +" in body, body
assert "result: " in body, body
PY
ok "the envelope, From, To, Subject, Date and a plain-text body naming the regression"
improved --notify email:dev@example.org
assert_has "nothing regressed" "$out" "notify: nothing regressed, no mail to dev@example.org"
regressed --fail-on-regression --notify email:reject@example.org
assert_eq "a refused recipient: exit code unchanged" "$plain_code" "$code"
assert_eq "a refused recipient: one warning" 1 "$(warnings)"
assert_has "a refused recipient named" "$err" \
  "warning: --notify: 1 regression not mailed: email reject@example.org via smtp://127.0.0.1:"
BHOST_SMTP_URL="smtp://127.0.0.1:$(closed_port)" regressed --notify email:dev@example.org
assert_eq "nothing listening: exit 0" 0 "$code"
assert_eq "nothing listening: one warning" 1 "$(warnings)"
BHOST_SMTP_USER=bench BHOST_SMTP_PASSWORD=MailS3cret regressed --notify email:dev@example.org
assert_eq "a password without STARTTLS: exit 0" 0 "$code"
assert_eq "a password without STARTTLS: one warning, not sent in clear" 1 "$(warnings)"
env -u BHOST_SMTP_URL "$BHOST_EXE" compare "$T/base.json" "$T/slow.json" --ignore-param slowdown_pct \
  --config "$T/slow.yaml" --quiet --notify email:dev@example.org >"$T/.out" 2>"$T/.err" \
  && code=0 || code=$?
assert_eq "no server: exit 0" 0 "$code"
assert_has "no server named" "$(cat "$T/.err")" "set BHOST_SMTP_URL to smtp://HOST[:PORT]"
assert_eq "one mail in all" 1 "$(lines "$T/mail.log")"

# Several targets at once, and bad values
regressed --notify email:dev@example.org --notify "slack:$hook/services/T0/B0/SlackS3cret" \
  --notify "$hook/hook"
assert_eq "three targets: three lines" 3 "$(printf '%s\n' "$out" | grep -c '^notify: 1 regression')"
for bad in email:nobody email: slack:ftp://x "ftp://host/SlackS3cret" teams:x; do
  bhn compare "$T/base.json" "$T/slow.json" --notify "$bad"
  assert_eq "--notify $bad is a usage error" 2 "$code"
done
if grep -q -e SlackS3cret -e MailS3cret "$T/transcript"; then fail "a secret was printed"; fi
ok "neither the webhook's path nor the password was ever printed"
