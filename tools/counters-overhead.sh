#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The overhead of the counters and energy meters around the samples
# (docs/measurement.md): selftest/noop timed with --counters on and off,
# PAIRS invocations a side interleaved (on, off, on, off, ...), each of
# RUNS runs; prints each side's median of run medians (ns/iter) and the
# ratio on/off. Take the figure on a quiet machine.
#
#   tools/counters-overhead.sh              BUILD_DIR=build, PAIRS=3, RUNS=10
#   BUILD_DIR=build-x PAIRS=5 tools/counters-overhead.sh
#   CASE=selftest/spin tools/counters-overhead.sh    another case
#
# Exit status: 0, or 1 when a run failed.
set -euo pipefail

cd "$(dirname "$0")/.."
bhost=${BUILD_DIR:-build}/host/cli/bhost
pairs=${PAIRS:-3}
runs=${RUNS:-10}
case_id=${CASE:-selftest/noop}
out=$(mktemp -d "${TMPDIR:-/tmp}/bhost-ctr-overhead.XXXXXX")
trap 'rm -rf "$out"' EXIT

for ((i = 0; i < pairs; i++)); do
  for side in on off; do
    "$bhost" run "$case_id" --runs "$runs" --counters "$side" --no-store --quiet \
      --out "$out/$side-$i.json"
  done
done

python3 - "$out" "$pairs" <<'PY'
import json, statistics, sys

out, pairs = sys.argv[1], int(sys.argv[2])
def run_medians(side):
    meds = []
    for i in range(pairs):
        doc = json.load(open(f"{out}/{side}-{i}.json"))
        for run in doc["cases"][0]["runs"]:
            if run["status"] == "ok" and run["samples"]:
                meds.append(statistics.median(ns / it for it, ns in run["samples"]))
    return meds
on, off = run_medians("on"), run_medians("off")
m_on, m_off = statistics.median(on), statistics.median(off)
print(f"counters on:  {m_on:.4f} ns/iter (median of {len(on)} run medians)")
print(f"counters off: {m_off:.4f} ns/iter (median of {len(off)} run medians)")
print(f"ratio on/off: {m_on / m_off:.4f}")
PY
