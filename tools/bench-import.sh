#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures bhost import (issue 26's target): a real 1,000-benchmark Google
# Benchmark file (tools/import/gb_many.cc built against libbenchmark-dev,
# 3 repetitions each, with aggregates) and a pyperf file of 1,000
# benchmarks x 20 runs x 3 values (tests/import/gen_large.py, pyperf's
# shape); each imported REPEAT times, the median wall time printed, and
# the imported sample counts checked against the sources'. Take figures on
# a quiet machine.
#
#   tools/bench-import.sh [BHOST] [REPEAT]   default: build/host/cli/bhost, 5
set -euo pipefail
cd "$(dirname "$0")/.."
bhost=${1:-build/host/cli/bhost}
repeat=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -o "$work/gb_many" tools/import/gb_many.cc -lbenchmark -lpthread
GB_MANY=1000 "$work/gb_many" --benchmark_repetitions=3 --benchmark_min_time=0.001 \
  --benchmark_out="$work/gbench.json" --benchmark_out_format=json >/dev/null 2>&1
python3 tests/import/gen_large.py pyperf 1000 20 3 "$work/pyperf.json"

# The median of REPEAT wall times of one import, in seconds; the last
# import's document path in $work/last.
time_import() {
  local fmt=$1 file=$2 t0 t1 times=()
  for _ in $(seq "$repeat"); do
    t0=$(date +%s.%N)
    "$bhost" import "$fmt" "$file" --into "$work/res-$fmt" --quiet
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
  done
  ls -t "$work/res-$fmt"/*/*.json | head -1 >"$work/last"
  printf '%s\n' "${times[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

# Source and imported sample counts: "cases runs samples / cases runs samples".
counts() {
  python3 - "$1" "$2" "$(cat "$work/last")" <<'PY'
import json, sys
fmt, src, doc = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
if fmt == "gbench":
    reps = [b for b in src["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    s = (len({b["run_name"] for b in reps}), len(reps), len(reps))
else:
    runs = [r for b in src["benchmarks"] for r in b["runs"] if r.get("values")]
    s = (len(src["benchmarks"]), len(runs), sum(len(r["values"]) for r in runs))
d = (len(doc["cases"]), sum(len(c["runs"]) for c in doc["cases"]),
     sum(len(r["samples"]) for c in doc["cases"] for r in c["runs"]))
print("source %d cases %d runs %d samples; imported %d cases %d runs %d samples: %s" %
      (s + d + ("exact" if s == d else "MISMATCH",)))
sys.exit(0 if s == d else 1)
PY
}

for fmt in gbench pyperf; do
  file=$work/$fmt.json
  t=$(time_import "$fmt" "$file")
  printf '%-7s %8.1f KiB  median %s s over %s imports; ' "$fmt" \
    "$(echo "$(stat -c %s "$file") / 1024" | bc -l)" "$t" "$repeat"
  counts "$fmt" "$file"
done
