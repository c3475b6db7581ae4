#!/bin/bash
# SPDX-License-Identifier: MIT
# Evaluates the change-point detector of `bhost history`
# (docs/statistics.md section 12.4) and times `bhost history` on synthetic
# result files.
#
#   tools/eval-history.sh                 # everything, ~1-2 minutes
#   BHOST=build/host/cli/bhost BHOST_EVAL=build/tools/eval/bhost-eval \
#       TRIALS=2000 SEED=7 tools/eval-history.sh
#   tools/eval-history.sh --no-timing     # skip the 1,000-file timing
#
# Part 1 injects +-2/5/10% steps at random positions into seeded lognormal
# nightly series (CV 1-3%) and reports the detection rate, the detection
# delay (points after the step until a prefix of the series shows it), the
# localization error and false alarms per 100 points on flat series
# (`bhost-eval history`, deterministic for a given seed). Target: a 10%
# step found within 5 points in >= 90% of the series.
# Part 2 writes 1,000 result files (tools/gen-history-results.py) into a
# temporary folder and times `bhost history` on one case and on all.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
BHOST=${BHOST:-$here/build/host/cli/bhost}
BHOST_EVAL=${BHOST_EVAL:-$here/build/tools/eval/bhost-eval}
TRIALS=${TRIALS:-1000}
SEED=${SEED:-1}
FILES=${FILES:-1000}
timing=1
[ "${1:-}" = "--no-timing" ] && timing=0

for exe in "$BHOST" "$BHOST_EVAL"; do
    if [ ! -x "$exe" ]; then
        echo "eval-history: $exe is not built (set BHOST and BHOST_EVAL)" >&2
        exit 2
    fi
done
ev() { "$BHOST_EVAL" history --seed "$SEED" --trials "$TRIALS" "$@"; }

echo "## 1a. default detector, one lognormal value per night"
ev
echo
echo "## 1b. Welch instead of Student t"
ev --test welch | tail -n +3
echo
echo "## 1c. magnitude floor 2% instead of 1%"
ev --min-change 2 | tail -n +3
echo
echo "## 1d. 5 runs per night (run CV 2%, 5%), t test per point vs per run,"
echo "##     without and with a 1% night-to-night offset"
for night in 0 1; do
    for unit in point run; do
        echo "# night CV $night%, t test per $unit"
        ev --model runs --runs 5 --night-cv "$night" --unit "$unit" --cv 2,5 | tail -n +4
    done
done

[ "$timing" = 1 ] || exit 0
echo
echo "## 2. timing on $FILES synthetic result files (20 cases x 10 runs x 10 samples)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bhost-history-eval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
res=$tmp/results
python3 "$here/tools/gen-history-results.py" --out "$res" --files "$FILES"
echo "files: $(find "$res" -name '*.json' | wc -l), $(du -sh "$res" | cut -f1)"
TIMEFORMAT='wall %3R s, user %3U s, sys %3S s'
echo "# one case (--bench synthetic/case00)"
time "$BHOST" history "$res" --bench 'synthetic/case00' > "$tmp/one.txt"
grep -E '^  (change|newest)' "$tmp/one.txt"
echo "# all 20 cases, JSON"
time "$BHOST" history "$res" --json > "$tmp/all.json"
echo "change points in the JSON: $(grep -c '"points_before"' "$tmp/all.json")"
echo "# all 20 cases, whole series as one window (--window 0)"
time "$BHOST" history "$res" --window 0 > "$tmp/w0.txt"
grep -E '^  change' "$tmp/w0.txt"
tail -n 1 "$tmp/w0.txt"
