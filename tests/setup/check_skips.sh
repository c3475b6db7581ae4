#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/check-skips.py against real runs: a backend with no device passes;
# a backend plugin that was not built, and a plugin's own skip for a missing
# vocabulary, fail the check with their reasons.
#   check_skips.sh SOURCE_ROOT BHOST
set -euo pipefail
src=$1 bhost=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$t/cfg.yaml" <<'YAML'
schema: 1
name: check_skips
defaults: {runs: 1, samples: 1, warmup: 0ms, sample_time: 1ms}
backends:
  cpu: {required: false}
  not-built-here: {required: false}
suites:
  - plugin: selftest
    include: [noop, device_copy]
    params: {bytes: [4096]}
YAML
"$bhost" run "$t/cfg.yaml" --out "$t/a.json" --no-store --quiet
if python3 "$src/tools/check-skips.py" "$t/a.json" 2>"$t/err"; then fail "a backend that is not built passed"; fi
grep -q "skipped (not-built), e.g. selftest/device_copy\[bytes=4096\]@not-built-here: backend 'not-built-here' unavailable: plugin 'backend-not-built-here' not found" "$t/err" ||
    fail "message: $(cat "$t/err")"

cat >"$t/tok.yaml" <<'YAML'
schema: 1
name: check_skips_tok
defaults: {runs: 1, samples: 1, warmup: 0ms, sample_time: 1ms}
suites:
  - plugin: tokenizer
    include: [encode]
    params: {vocab: [gpt2]}
YAML
BHOST_TOKENIZER_CACHE=$t/empty "$bhost" run "$t/tok.yaml" --out "$t/b.json" --no-store --quiet
if python3 "$src/tools/check-skips.py" "$t/b.json" 2>"$t/err"; then fail "a missing vocabulary passed"; fi
grep -q "skipped (plugin), e.g. tokenizer/encode\[vocab=gpt2\]: .*gpt2-encoder.json missing" "$t/err" ||
    fail "message: $(cat "$t/err")"

# a result whose only skips are backends without a device passes
python3 - "$t/a.json" "$t/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    if c["status"] == "skipped":
        c["skip_cause"] = "no-device"
json.dump(d, open(sys.argv[2], "w"))
PY
python3 "$src/tools/check-skips.py" "$t/c.json" >"$t/out" || fail "absent devices failed the check"
grep -q "1 skipped for an absent device, 0 unsupported, 0 skipped for anything else" "$t/out" ||
    fail "summary: $(cat "$t/out")"
echo '{"cases": 3}' >"$t/bad.json"
set +e
python3 "$src/tools/check-skips.py" "$t/bad.json" 2>/dev/null
[ $? -eq 2 ] || fail "a malformed result did not exit 2"
echo "check_skips: 4 checks passed"
