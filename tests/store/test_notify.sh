#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --notify against a real HTTP server on loopback (webhook.py): one
# Slack-compatible post naming exactly the regressed case when a run or a
# comparison regressed, none when nothing regressed, a one-line warning
# (and an unchanged exit code) when the post fails.
source "$(dirname "$0")/lib.sh"
if [ "${HAVE_LIBCURL:-1}" != 1 ]; then
  echo "SKIP: this bhost was built without libcurl"
  exit 77
fi

log="$T/hook.log"
: >"$log"
python3 "$(dirname "$0")/webhook.py" "$log" "$T/port" --lifetime 600 &
hook_pid=$!
cleanup_hooks+=("kill $hook_pid 2>/dev/null; wait $hook_pid 2>/dev/null")
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
[ -s "$T/port" ] || fail "the webhook server did not start"
hook="http://127.0.0.1:$(cat "$T/port")/hook"
posts() { wc -l <"$log"; }

# A 4x slowdown of spin is critical; noop is untouched. The wide noise
# floor keeps an A/A run from ever counting as regressed.
export RUNS=6 REGRESSION="{noise_floor: 50%, warning: 60%, critical: 100%}"
write_config "$T/base.yaml"
write_config "$T/slow.yaml" 300
bh run "$T/base.yaml" --results-dir "$T/res" --save-baseline main --out "$T/base.json" --quiet \
  --no-store
assert_eq "baseline run exits 0" 0 "$code"

bh run "$T/slow.yaml" --results-dir "$T/res" --baseline main --ignore-param slowdown_pct \
  --no-confirm --notify "$hook" --out "$T/slow.json" --no-store
assert_eq "regressed run exits 0 (no --fail-on-regression)" 0 "$code"
assert_has "says it posted" "$out" "notify: 1 regression posted to http://127.0.0.1:"
assert_eq "one post" 1 "$(posts)"
python3 - "$log" <<'PY' || fail "the post is not what was expected: $(cat "$log")"
import json, sys
req = json.loads(open(sys.argv[1]).readline())
assert req["path"] == "/hook", req["path"]
assert req["content_type"] == "application/json", req["content_type"]
p = json.loads(req["body"])
assert isinstance(p["text"], str) and "1 regression in storetest" in p["text"], p["text"]
assert isinstance(p["blocks"], list) and p["blocks"][0]["type"] == "header", p["blocks"]
assert any("selftest/spin[work=2000,slowdown_pct=300]" in b.get("text", {}).get("text", "")
           for b in p["blocks"]), p["blocks"]
assert p["attachments"][0]["color"], p["attachments"]
m = p["bhost"]
assert m["schema"] == "bhost.alert/1"
assert m["config"] == "storetest"
assert [r["case"] for r in m["regressions"]] == ["selftest/spin[work=2000,slowdown_pct=300]"], m
r = m["regressions"][0]
assert r["metric"] == "time" and r["severity"] == "critical", r
assert r["baseline_case"] == "selftest/spin[work=2000]", r
assert r["change"] > 1.0 and r["change_lo"] > 1.0, r
assert r["candidate_median"] > 2 * r["baseline_median"], r
assert m["severities"] == {"critical": 1, "warning": 0, "minor": 0}, m["severities"]
PY
ok "the post is Slack-compatible and names exactly the regressed case"

bh run "$T/base.yaml" --results-dir "$T/res" --baseline main --no-confirm --notify "$hook" \
  --out "$T/aa.json" --no-store
assert_eq "A/A run exits 0" 0 "$code"
assert_has "says nothing was sent" "$out" "notify: nothing regressed, nothing sent"
assert_eq "no post without a regression" 1 "$(posts)"

bh compare "$T/base.json" "$T/slow.json" --ignore-param slowdown_pct --config "$T/slow.yaml" \
  --notify "$hook" --quiet
assert_eq "compare exits 0" 0 "$code"
assert_eq "compare posts once on a regression" 2 "$(posts)"
assert_eq "compare's post names the same case" "selftest/spin[work=2000,slowdown_pct=300]" \
  "$(tail -1 "$log" | python3 -c 'import json,sys; print(",".join(r["case"] for r in json.loads(json.load(sys.stdin)["body"])["bhost"]["regressions"]))')"
bh compare "$T/base.json" "$T/base.json" --config "$T/base.yaml" --notify "$hook" --quiet
assert_eq "compare of a result with itself: no post" 2 "$(posts)"

# failures are warnings
bh compare "$T/base.json" "$T/slow.json" --ignore-param slowdown_pct --config "$T/slow.yaml" \
  --notify "${hook%/hook}/fail" --quiet
assert_eq "an HTTP 500 leaves the exit code alone" 0 "$code"
assert_eq "one warning line naming the status" 1 \
  "$(printf '%s\n' "$err" | grep -c 'warning: --notify: 1 regression not posted: .*HTTP 500')"
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bh run "$T/slow.yaml" --results-dir "$T/res" --baseline main --ignore-param slowdown_pct \
  --no-confirm --notify "http://127.0.0.1:$closed/x" --out "$T/slow2.json" --no-store --quiet
assert_eq "an unreachable webhook leaves the exit code alone" 0 "$code"
assert_eq "one warning line" 1 "$(printf '%s\n' "$err" | grep -c 'warning: --notify')"
assert_eq "the result is written anyway" 1 "$(ls "$T/slow2.json" | wc -l)"
bh run "$T/slow.yaml" --results-dir "$T/res" --notify "$hook" --quiet --no-store
assert_eq "--notify without --baseline is a usage error" 2 "$code"
