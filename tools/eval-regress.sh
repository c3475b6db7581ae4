#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Evaluates bhost's comparison engine (docs/statistics.md section 12):
#   (a) Monte Carlo null calibration of MWU exact / asymptotic, Welch,
#       Wilcoxon and Benjamini-Hochberg (seeded, synthetic lognormal runs
#       with run-level offsets)               bhost-eval regress sim
#   (b) A/A: a synthetic 300-case suite (same tool) and real pairs of
#       `bhost run` of the spin benchmark compared with `bhost compare`
#   (c) injected slowdowns of 2, 5 and 10% through spin's slowdown_pct,
#       end to end through `bhost run` and `bhost compare`, in two designs:
#       separate invocations (a stored baseline against a later run: what a
#       CI gate against `--baseline main` sees, machine drift included) and
#       one session (baseline and slowed variants in one `bhost run`, runs
#       interleaved, compared with --baseline-filter/--candidate-filter)
# and prints false-alarm rates, power and the wall time per case.
#
#   tools/eval-regress.sh [--build DIR] [--trials N] [--aa-pairs N]
#                         [--sim-trials N] [--seed N] [--keep DIR]
#                         [--runs N|auto] [--works LIST] [--parts LIST]
#
# --trials: slowdown trials per level (default 10); --aa-pairs: real A/A
# pairs (default 20); --sim-trials: Monte Carlo trials per null cell (the
# suite-level parts use a tenth; default 4000). --runs: runs per case of
# the real parts (default: bhost's, the config does not set them; auto:
# adaptive runs, docs/statistics.md section 8.3, with the runs made and
# why they stopped tallied); --works: spin's work values ("500, 2000,
# 8000"); --parts: which parts, comma-separated, of sim, aa, separate,
# session (default all). Expect about 3 minutes with the defaults on a
# 2-core machine. The real parts measure this machine: run it on a quiet
# one and read the A/A rates before trusting the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
trials=10
aa_pairs=20
sim_trials=4000
seed=20261122
keep=
runs=
works="500, 2000, 8000"
parts=sim,aa,separate,session
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --aa-pairs) aa_pairs=$2; shift 2 ;;
    --sim-trials) sim_trials=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --works) works=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "eval-regress.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $runs in
    ""|auto) ;;
    *[!0-9]*) echo "eval-regress.sh: --runs '$runs': expected a count or auto" >&2; exit 2 ;;
esac
part() { case ",$parts," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
n_works=$(echo "$works" | tr ',' '\n' | grep -c .)
bhost=$build/host/cli/bhost
bheval=$build/tools/eval/bhost-eval
for exe in "$bhost" "$bheval"; do
    [ -x "$exe" ] || { echo "eval-regress.sh: $exe not found (build first, or --build DIR)" >&2; exit 2; }
done
if [ -n "$keep" ]; then
    tmp=$keep
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{printf "%.2f", $2 - $1}'; }

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo "runs per case: ${runs:-the built-in default}; spin work: $works"
if part sim; then
echo "######## (a)+(b synthetic)+(c synthetic): Monte Carlo"
t0=$(now)
"$bheval" regress sim --trials "$sim_trials" --cases 300 --seed "$seed"
echo "(Monte Carlo took $(elapsed "$t0" "$(now)") s)"
echo
fi

# The real benchmark: spin at the --works sizes, default runs (or --runs)
# and samples; short warm-up and 2 ms samples keep a run cheap.
spin_config() { # name slowdown_pct
    cat <<YAML
schema: 1
name: $1
defaults: {warmup: 20ms, sample_time: 2ms${runs:+, runs: $runs}}
suites:
  - plugin: selftest
    include: [spin]
    params: {work: [$works], slowdown_pct: [$2]}
YAML
}
spin_config evalspin 0 > "$tmp/aa.yaml"
for pct in 0 2 5 10; do spin_config evalspin "$pct" > "$tmp/slow$pct.yaml"; done
for pct in 2 5 10; do spin_config evalspin "0, $pct" > "$tmp/ab$pct.yaml"; done

run_secs=0
run_cases=0
bh_run() { # config out seed [cases]
    local t
    t=$(now)
    "$bhost" run "$1" --out "$2" --seed "$3" --quiet >/dev/null 2>&1 || {
        echo "eval-regress.sh: bhost run $1 failed" >&2; exit 1; }
    run_secs=$(echo "$run_secs $t $(now)" | awk '{printf "%.3f", $1 + $3 - $2}')
    run_cases=$((run_cases + ${4:-$n_works}))
}
cmp_secs=0
cmp_n=0
bh_compare() { # base cand out [args]
    local t base=$1 cand=$2 out=$3
    shift 3
    t=$(now)
    "$bhost" compare "$base" "$cand" --out "$out" --quiet "$@" >/dev/null || {
        rc=$?; [ $rc -eq 5 ] || { echo "eval-regress.sh: bhost compare failed ($rc)" >&2; exit 1; }; }
    cmp_secs=$(echo "$cmp_secs $t $(now)" | awk '{printf "%.3f", $1 + $3 - $2}')
    cmp_n=$((cmp_n + 1))
}

if part aa; then
echo "######## (b real) A/A: $aa_pairs pairs of bhost run (spin x$n_works sizes), bhost compare"
for i in $(seq 1 "$aa_pairs"); do
    bh_run "$tmp/aa.yaml" "$tmp/aa-$i-a.json" $((seed + 2 * i))
    bh_run "$tmp/aa.yaml" "$tmp/aa-$i-b.json" $((seed + 2 * i + 1))
    bh_compare "$tmp/aa-$i-a.json" "$tmp/aa-$i-b.json" "$tmp/aa-$i.cmp.json"
done
"$bheval" regress tally --expect aa "$tmp"/aa-*.cmp.json
echo "(targets: P(any critical) <= 0.05 over a 300-case suite; per-case warning rate <= 0.01)"
echo
fi

if part separate; then
echo "######## (c real, separate invocations) injected slowdowns: $trials trials x {2,5,10}% (spin x$n_works sizes)"
for t in $(seq 1 "$trials"); do
    # The baseline and the three candidates in a rotating order, so slow
    # drift of the machine does not always favour one level.
    order=(0 2 5 10)
    rot=$((t % 4))
    order=("${order[@]:$rot}" "${order[@]:0:$rot}")
    for pct in "${order[@]}"; do
        bh_run "$tmp/slow$pct.yaml" "$tmp/t$t-$pct.json" $((seed + 100 * t + pct))
    done
    for pct in 2 5 10; do
        bh_compare "$tmp/t$t-0.json" "$tmp/t$t-$pct.json" "$tmp/t$t-$pct.cmp.json" \
            --ignore-param slowdown_pct
    done
done
for pct in 2 5 10; do
    printf "%3s%% slowdown, per case: " "$pct"
    "$bheval" regress tally --expect regressed "$tmp"/t*-"$pct".cmp.json
done
echo "(targets: 5% detected in >= 95% of trials, 2% in >= 80%, 10% always)"
echo
fi

if part session; then
echo "######## (c real, one session) injected slowdowns: $trials trials x {2,5,10}%, baseline and slowed variants interleaved in one bhost run"
for t in $(seq 1 "$trials"); do
    for pct in 2 5 10; do
        bh_run "$tmp/ab$pct.yaml" "$tmp/ab$t-$pct.json" $((seed + 1000 * t + pct)) $((2 * n_works))
        bh_compare "$tmp/ab$t-$pct.json" "$tmp/ab$t-$pct.json" "$tmp/ab$t-$pct.cmp.json" \
            --ignore-param slowdown_pct --baseline-filter '*slowdown_pct=0]' \
            --candidate-filter "*slowdown_pct=$pct]"
    done
done
for pct in 2 5 10; do
    printf "%3s%% slowdown, per case: " "$pct"
    "$bheval" regress tally --expect regressed "$tmp"/ab*-"$pct".cmp.json
done
echo "(same targets)"
echo
fi

if [ "$runs" = auto ]; then
    echo "######## runs: auto: runs made per case and why they stopped (every result of the real parts)"
    python3 - "$tmp" <<'PY'
import glob, json, os, sys
from collections import Counter
runs, why = [], Counter()
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    if f.endswith(".cmp.json"):
        continue
    for c in json.load(open(f)).get("cases", []):
        ra = c.get("runs_auto")
        if ra:
            runs.append(len(c.get("runs", [])))
            why[ra.get("stopped")] += 1
if runs:
    runs.sort()
    print("case runs: %d; runs per case: mean %.1f, median %d, min %d, max %d" % (
        len(runs), sum(runs) / len(runs), runs[len(runs) // 2], runs[0], runs[-1]))
    print("stopped: " + ", ".join("%s %d" % kv for kv in sorted(why.items(), key=str)))
PY
    echo
fi

echo "######## cost (load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
awk -v s="$run_secs" -v n="$run_cases" -v c="$cmp_secs" -v m="$cmp_n" 'BEGIN {
    printf "bhost run: %.3f s wall per case (%d case runs)\n", s / n, n
    printf "bhost compare: %.3f s per comparison (%d comparisons)\n", c / m, m }'
