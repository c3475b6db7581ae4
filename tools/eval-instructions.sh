#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Evaluates measure: instructions (README "Counting instructions",
# docs/statistics.md section 11.7) on this machine, end to end through
# bhost run and bhost compare:
#   (a) the spread of selftest spin's counts over N separate invocations:
#       the CV of instructions, l1_misses and ll_misses per iteration
#   (b) injected slowdowns of 1% and 2% (spin's slowdown_pct) on 20 spin
#       sizes, each slowed invocation compared with a separate baseline
#       invocation (as a CI gate against a stored baseline), and A/A: a
#       second unchanged invocation compared with the baseline
#   (c) the wall time of the smoke config's spin case with and without
#       --measure instructions
#
#   tools/eval-instructions.sh [--build DIR] [--invocations N] [--keep DIR]
#
# --invocations: for (a), default 10. Expect about 8 minutes on a 2-core
# machine (each counted run starts a worker under valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
invocations=10
keep=
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --invocations) invocations=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "eval-instructions.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
bhost=$build/host/cli/bhost
for exe in "$bhost"; do
    [ -x "$exe" ] || { echo "eval-instructions.sh: $exe not found (build first, or --build DIR)" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "eval-instructions.sh: valgrind is not on PATH" >&2; exit 2; }
if [ -n "$keep" ]; then
    tmp=$keep
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi
now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{printf "%.1f", $2 - $1}'; }
bh_run() { # config out seed [args]; a result kept from an earlier --keep run is reused
    local cfg=$1 out=$2 seed=$3
    shift 3
    [ -z "$keep" ] || [ ! -s "$out" ] || return 0
    "$bhost" run "$cfg" --out "$out" --seed "$seed" --no-store --quiet "$@" >/dev/null 2>&1 || {
        echo "eval-instructions.sh: bhost run $cfg failed" >&2; exit 1; }
}
spin_config() { # name works slowdown_pct runs
    cat <<YAML
schema: 1
name: $1
defaults: {measure: instructions, samples: 3, iterations: 20, runs: $4}
suites:
  - plugin: selftest
    include: [spin]
    params: {work: [$2], slowdown_pct: [$3]}
YAML
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $(valgrind --version)"
echo "######## (a) spread of the counts: spin[work=2000], $invocations invocations of 3 runs"
spin_config evalcount 2000 0 3 > "$tmp/cv.yaml"
for i in $(seq 1 "$invocations"); do
    bh_run "$tmp/cv.yaml" "$tmp/cv-$i.json" "$i"
done
python3 - "$tmp"/cv-*.json <<'PY'
import json, statistics, sys
vals = {"instructions": [], "l1_misses": [], "ll_misses": []}
within = {k: 0.0 for k in vals}
for path in sys.argv[1:]:
    case = json.load(open(path))["cases"][0]
    for name in vals:
        runs = [m["value"] for r in case["runs"] for m in r["metrics"] if m["name"] == name]
        vals[name].append(statistics.median(runs))
        if len(set(runs)) > 1:
            within[name] = max(within[name], statistics.stdev(runs) / statistics.mean(runs))
for name, v in vals.items():
    mean = statistics.mean(v)
    cv = statistics.stdev(v) / mean if mean else 0.0
    print("%-12s per iteration: mean %.6g, min %.6g, max %.6g, CV over %d invocations %.3g%%, "
          "largest CV within one %.3g%%" % (name, mean, min(v), max(v), len(v), 100 * cv,
                                            100 * within[name]))
PY
echo

works=$(seq -s, 1000 500 10500)
echo "######## (b) injected slowdowns: spin at 20 sizes ($works), 10 runs a case, separate invocations"
for pct in 0 1 2; do spin_config evalcount "$works" "$pct" 10 > "$tmp/slow$pct.yaml"; done
bh_run "$tmp/slow0.yaml" "$tmp/base.json" 101
bh_run "$tmp/slow0.yaml" "$tmp/aa.json" 102
bh_run "$tmp/slow1.yaml" "$tmp/s1.json" 103
bh_run "$tmp/slow2.yaml" "$tmp/s2.json" 104
for cand in aa s1 s2; do
    "$bhost" compare "$tmp/base.json" "$tmp/$cand.json" --ignore-param slowdown_pct \
        --out "$tmp/$cand.cmp.json" --quiet >/dev/null 2>&1 ||
        { rc=$?; [ $rc -eq 5 ] || { echo "eval-instructions.sh: bhost compare failed ($rc)" >&2; exit 1; }; }
done
python3 - "$tmp"/aa.cmp.json "$tmp"/s1.cmp.json "$tmp"/s2.cmp.json <<'PY'
import json, sys
for path, what in zip(sys.argv[1:], ("A/A", "1% slowdown", "2% slowdown")):
    doc = json.load(open(path))
    cases = doc["cases"]
    ins = [m for c in cases for m in c["metrics"] if m["metric"] == "instructions"]
    reg = sum(1 for c in cases if c["verdict"] == "regressed")
    ch = [m["change"] for m in ins]
    kinds = {}
    for c in cases:
        for m in c["metrics"]:
            kinds.setdefault(m["metric"], {}).setdefault(m["verdict"], 0)
            kinds[m["metric"]][m["verdict"]] += 1
    print("%-12s %d of %d cases regressed; instructions change %+.3f%% to %+.3f%%, largest p %.2g;"
          " metrics compared: %s" % (what + ":", reg, len(cases), 100 * min(ch), 100 * max(ch),
                                     max(m["p"] for m in ins),
                                     json.dumps(kinds, sort_keys=True)))
PY
python3 - "$tmp/base.json" <<'PY'
import json, statistics, sys
w = [r["wall_ns"] / 1e9 for c in json.load(open(sys.argv[1]))["cases"] for r in c["runs"]]
print("(the baseline invocation: %d counted runs, worker wall time median %.2f s, total %.0f s)"
      % (len(w), statistics.median(w), sum(w)))
PY
echo

echo "######## (c) wall time of the smoke config's spin case, timed and counted"
for mode in time instructions; do
    t0=$(now)
    bh_run configs/smoke.yaml "$tmp/smoke-$mode.json" 42 --filter 'selftest/spin*' --measure "$mode"
    echo "$mode: $(elapsed "$t0" "$(now)") s for bhost run (10 runs)"
    python3 - "$tmp/smoke-$mode.json" <<'PY'
import json, statistics, sys
case = json.load(open(sys.argv[1]))["cases"][0]
w = [r["wall_ns"] / 1e9 for r in case["runs"]]
print("  %s: %s, worker wall time per run: median %.3f s, total %.2f s" % (
    case["id"], case["status"], statistics.median(w), sum(w)))
PY
done
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
