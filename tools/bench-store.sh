#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the results store against the targets of issue 13: ingest of
# FILES result files of CASES cases each into SQLite (target: 10,000 x 100
# in under a minute), and the history query of one case over all of them
# (target: 1,000 runs in under 100 ms).
#
#   tools/bench-store.sh [FILES [CASES]]     (default 10000 100)
#   BUILD_DIR=build-store WORK=/tmp/bench tools/bench-store.sh 1000 100
#
# The files come from tools/gen-results (written with bhost's own writer)
# with the smoke config's result on this machine as the template; they
# are generated once into $WORK/gen and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
cases=${2:-100}
build=${BUILD_DIR:-build}
work=${WORK:-/tmp/bhost-bench-store}
bhost="$build/host/cli/bhost"
gen="$build/tools/gen-results/gen-results"
mkdir -p "$work"

if [ ! -f "$work/template.json" ]; then
  "$bhost" run configs/smoke.yaml --out "$work/template.json" --no-store --quiet
fi
have=$(find "$work/gen" -name '*.json' 2>/dev/null | wc -l)
if [ "$have" -ne "$files" ]; then
  rm -rf "$work/gen"
  echo "generating $files files of $cases cases in $work/gen ..."
  t0=$(date +%s)
  "$gen" --template "$work/template.json" --out "$work/gen" --files "$files" --cases "$cases"
  echo "  generated in $(($(date +%s) - t0)) s, $(du -sh "$work/gen" | cut -f1)"
fi

rm -f "$work/bench.db" "$work/bench.db-wal" "$work/bench.db-shm"
sync
echo "ingest:"
"$bhost" store ingest "$work/gen" --store "$work/bench.db"
"$bhost" store info --store "$work/bench.db"
echo "  store size: $(du -sh "$work/bench.db" | cut -f1)"

case_id=$(sqlite3 "$work/bench.db" "SELECT case_id FROM series ORDER BY id LIMIT 1")
echo "history of one case ($case_id):"
for i in 1 2 3; do
  t0=$(date +%s%N)
  "$bhost" history --store "$work/bench.db" "$case_id" >/dev/null
  t1=$(date +%s%N)
  echo "  bhost history --store (whole command): $(( (t1 - t0) / 1000000 )) ms"
done
"$bhost" history --store "$work/bench.db" "$case_id" --last 1000 | head -3
sid=$(sqlite3 "$work/bench.db" "SELECT id FROM series ORDER BY id LIMIT 1")
echo "the history query alone (sqlite3 CLI), newest 1000 runs and all runs of the series:"
for limit in 1000 -1; do
  printf '.timer on\nSELECT COUNT(*) FROM (SELECT r.id, r.started_at, c.value, c.run_medians FROM cases c JOIN runs r ON r.id = c.run_id WHERE c.series_id = %s AND c.value IS NOT NULL ORDER BY r.started_at DESC, r.id DESC LIMIT %s);\n' \
    "$sid" "$limit" | sqlite3 "$work/bench.db"
done
