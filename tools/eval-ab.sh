#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What bhost ab's paired design buys, measured: one plugin (tests/ab/fx_ab.c,
# spin) built with its work scaled by 100% (A) and by 100+S% (B, an injected
# slowdown of S%), and a config of N spin cases (different work sizes).
# Per trial and per S in the slowdown list (0 is the A/A check):
#   ab:       bhost ab CONFIG --a A --b B --runs R (R pairs: 2R runs a case)
#   separate: bhost run CONFIG with A's plugin, then with B's (R runs each,
#             the same 2R runs a case), and bhost compare A.json B.json
# Counted per arm: the cases whose time verdict is regressed (any severity).
# With S = 0 every regressed case is a false regression; with S > 0 the
# regressed cases are the detections. The two arms of a trial run one after
# the other, their order alternating with the trial number, on the same
# machine state as far as possible. Take the figures on a quiet machine.
# Prints one line per (trial, S, arm) and a table of the rates at the end:
#   S   arm       regressed/cases   rate
#
#   tools/eval-ab.sh [--cases N] [--trials T] [--slowdowns "0 2 5"]
#                    [--runs R] [--build DIR] [--keep DIR]
#
# Defaults: 20 cases, 5 trials, slowdowns 0 2 5, 12 runs (pairs), build/.
# Exit 0, or 2 on an error (a bhost run that failed to write its result).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
cases=20
trials=5
slowdowns="0 2 5"
runs=12
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --slowdowns) slowdowns=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '3,24p' "$0"; exit 0 ;;
    *) echo "eval-ab.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bhost=$build/host/cli/bhost
[ -x "$bhost" ] || { echo "eval-ab.sh: $bhost not built" >&2; exit 2; }
work=$(mktemp -d /tmp/eval-ab.XXXXXX)
[ -n "$keep" ] && work=$keep && mkdir -p "$work"
[ -z "$keep" ] && trap 'rm -rf "$work"' EXIT

# The builds: p<percent>/fx_ab.so.
for s in $slowdowns; do
  pct=$((100 + s))
  mkdir -p "$work/p$pct"
  cc -O2 -shared -fPIC -fvisibility=hidden -Iplugin-api/include \
     -DFX_AB_WORK_PERCENT=$pct tests/ab/fx_ab.c -o "$work/p$pct/fx_ab.so"
done
mkdir -p "$work/p100"
[ -f "$work/p100/fx_ab.so" ] || cc -O2 -shared -fPIC -fvisibility=hidden \
  -Iplugin-api/include -DFX_AB_WORK_PERCENT=100 tests/ab/fx_ab.c -o "$work/p100/fx_ab.so"

# N spin cases, 2000 to ~40000 steps an iteration.
sizes=$(python3 -c "print(', '.join(str(2000 + 1900 * i) for i in range($cases)))")
cat > "$work/eval.yaml" <<YAML
schema: 1
name: eval_ab
defaults: {warmup: 10ms, sample_time: 5ms, samples: 10, runs: $runs, timeout: 60s}
suites:
  - plugin: fx_ab
    include: [spin]
    params: {work: [$sizes]}
YAML

# regressed FILE ab|compare: the number of cases whose time is regressed.
regressed() {
  python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
n = 0
for c in doc["cases"]:
    ms = (c.get("verdict") or {}).get("metrics", []) if sys.argv[2] == "ab" else c.get("metrics", [])
    n += any(m.get("metric") == "time" and m.get("verdict") == "regressed" for m in ms)
print(n)
PY
}

# arm_ab T S and arm_separate T S print "regressed" of their arm.
arm_ab() {
  local out=$work/ab-$1-$2.json rc=0
  "$bhost" ab "$work/eval.yaml" --a "$work/p100" --b "$work/p$((100 + $2))" \
    --runs "$runs" --seed "$1" --out "$out" -q 2>/dev/null || rc=$?
  [ -f "$out" ] || { echo "eval-ab.sh: bhost ab exited $rc without a result" >&2; exit 2; }
  regressed "$out" ab
}
arm_separate() {
  local a=$work/sep-a-$1-$2.json b=$work/sep-b-$1-$2.json c=$work/sep-c-$1-$2.json
  BHOST_PLUGIN_PATH=$work/p100 "$bhost" run "$work/eval.yaml" --seed "$1" --out "$a" -q \
    2>/dev/null || true
  BHOST_PLUGIN_PATH=$work/p$((100 + $2)) "$bhost" run "$work/eval.yaml" --seed "$1" \
    --out "$b" -q 2>/dev/null || true
  [ -f "$a" ] && [ -f "$b" ] || { echo "eval-ab.sh: bhost run wrote no result" >&2; exit 2; }
  "$bhost" compare "$a" "$b" --json > "$c" || true
  regressed "$c" compare
}

declare -A total
for t in $(seq 1 "$trials"); do
  for s in $slowdowns; do
    if [ $((t % 2)) -eq 1 ]; then
      r_ab=$(arm_ab "$t" "$s"); r_sep=$(arm_separate "$t" "$s")
    else
      r_sep=$(arm_separate "$t" "$s"); r_ab=$(arm_ab "$t" "$s")
    fi
    echo "trial $t slowdown $s%: ab $r_ab/$cases regressed, separate $r_sep/$cases regressed"
    total[ab-$s]=$(( ${total[ab-$s]:-0} + r_ab ))
    total[sep-$s]=$(( ${total[sep-$s]:-0} + r_sep ))
  done
done
echo
printf '%-10s %-9s %-18s %s\n' slowdown arm regressed/cases rate
for s in $slowdowns; do
  for arm in ab sep; do
    n=$((cases * trials))
    printf '%-10s %-9s %-18s %s\n' "$s%" "$([ $arm = ab ] && echo ab || echo separate)" \
      "${total[$arm-$s]}/$n" "$(python3 -c "print(f'{${total[$arm-$s]} / $n:.3f}')")"
  done
done
echo "(slowdown 0%: the rate of false regressions; otherwise the rate of detection;"
echo " $runs pairs per case for ab, $runs runs a side for separate)"
