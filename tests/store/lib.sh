# SPDX-License-Identifier: MIT
# Helpers shared by the results-store tests (sourced by test_*.sh).
# Needs BHOST_EXE and GEN_RESULTS (set by meson); makes a temporary folder
# $T that is removed on exit.
set -euo pipefail

: "${BHOST_EXE:?set by meson}"
: "${GEN_RESULTS:?set by meson}"
export NO_COLOR=1
unset BHOST_STORE

T=$(mktemp -d "${TMPDIR:-/tmp}/bh_store_test.XXXXXX")
chmod 755 "$T"
n_ok=0
cleanup_hooks=()
on_exit() {
  local rc=$?
  for h in "${cleanup_hooks[@]}"; do eval "$h" || true; done
  rm -rf "$T"
  if [ "$rc" -eq 0 ]; then echo "$n_ok passed, 0 failed"; fi
  exit "$rc"
}
trap on_exit EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { n_ok=$((n_ok + 1)); echo "ok $n_ok - $*"; }

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
  [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
  ok "$1"
}

# assert_has WHAT TEXT NEEDLE
assert_has() {
  case "$2" in *"$3"*) ok "$1" ;; *) fail "$1: '$3' not in: $2" ;; esac
}

# bh ARGS...: runs bhost; its stdout in $out, stderr in $err, status in $code.
bh() {
  set +e
  "$BHOST_EXE" "$@" >"$T/.out" 2>"$T/.err"
  code=$?
  set -e
  out=$(cat "$T/.out")
  err=$(cat "$T/.err")
}

# sql DB QUERY: one value from an SQLite store.
sql() { sqlite3 -batch -noheader "$1" "$2"; }

# jq-like access without jq: py EXPR FILE evaluates EXPR with d = the JSON.
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$2"; }

# same_document A B: true when result documents A and B hold the same run,
# system and cases (ids, status, params, settings, throughput, memory,
# metrics, runs with their raw samples, summary); says what differs.
same_document() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["run"] == b["run"], "run"
assert a["system"] == b["system"], "system"
assert [c["id"] for c in a["cases"]] == [c["id"] for c in b["cases"]], "ids"
for x, y in zip(a["cases"], b["cases"]):
    for k in ("status", "params", "settings", "throughput", "memory", "metrics"):
        assert x.get(k) == y.get(k), (x["id"], k)
    assert [r["samples"] for r in x["runs"]] == [r["samples"] for r in y["runs"]], x["id"]
    assert x["runs"] == y["runs"], (x["id"], "runs")
    for k, v in x["summary"].items():
        assert y["summary"][k] == v, (x["id"], k)
EOF
}

# A quick config named storetest: spin (with a slowdown parameter when $2
# is given) and noop, 3 runs of 5 samples.
write_config() {
  local file=$1 slow=${2:-}
  {
    echo "schema: 1"
    echo "name: storetest"
    echo "defaults: {warmup: 5ms, sample_time: 1ms, samples: 5, runs: ${RUNS:-3}, seed: 11}"
    if [ -n "${REGRESSION:-}" ]; then echo "regression: $REGRESSION"; fi
    echo "suites:"
    echo "  - plugin: selftest"
    echo "    include: [spin]"
    if [ -n "$slow" ]; then
      echo "    params: {work: [2000], slowdown_pct: [$slow]}"
    else
      echo "    params: {work: [2000]}"
    fi
    echo "  - plugin: selftest"
    echo "    include: [noop]"
  } >"$file"
}

# make_template: a real result of this machine (fingerprint included) in
# $T/template.json, the generator's template.
make_template() {
  write_config "$T/store.yaml"
  bh run "$T/store.yaml" --out "$T/template.json" --no-store --quiet
  [ "$code" -eq 0 ] || fail "template run: exit $code: $err"
}

# concurrent_writers STORE: 8 `bhost store ingest` of overlapping shares of
# the 30 files in $T/gen/storetest (the even ones all of $T/gen, the odd
# ones 15 files each, wrapping) and 3 `bhost run` of $T/store.yaml into
# STORE at once; fails unless every one exits 0. Prints how many new runs
# the ingests reported between them.
concurrent_writers() {
  local store=$1 files pids=() args i k p
  files=("$T"/gen/storetest/*.json)
  for i in 0 1 2 3 4 5 6 7; do
    if [ $((i % 2)) -eq 0 ]; then
      args=("$T/gen")
    else
      args=()
      for k in $(seq 0 14); do args+=("${files[$(((i * 4 + k) % 30))]}"); done
    fi
    "$BHOST_EXE" store ingest --store "$store" "${args[@]}" >"$T/ing$i.out" 2>&1 &
    pids+=($!)
  done
  for i in 0 1 2; do
    "$BHOST_EXE" run "$T/store.yaml" --results-dir "$T/cres" --store "$store" --quiet \
      >"$T/run$i.out" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || fail "a concurrent writer failed: $(cat "$T"/ing*.out "$T"/run*.out)"
  done
  python3 -c "
import re, sys
print(sum(int(re.search(r'(\d+) new run', open(sys.argv[1] + '/ing%d.out' % i).read()).group(1))
          for i in range(8)))" "$T"
}
