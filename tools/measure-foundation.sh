#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the foundation figures: host overhead against Google Benchmark's
# empty loop, run-to-run spread of spin medians, worker start cost and the
# wall time of `bhost list`. All in one session, reported as ratios.
#   tools/measure-foundation.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bhost=$build/host/cli/bhost
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median_of() { python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print([c for c in d['cases'] if c['id']==sys.argv[2]][0]['summary']['median'])" "$@"; }

cat > "$tmp/noop.yaml" <<'YAML'
schema: 1
name: overhead
defaults: {warmup: 100ms, sample_time: 10ms, samples: 20, runs: 5, seed: 1}
suites:
  - plugin: selftest
    include: [noop, spin]
    params: {work: [1000]}
YAML
cat > "$tmp/empty.yaml" <<'YAML'
schema: 1
suites: []
YAML
cat > "$tmp/one.yaml" <<'YAML'
schema: 1
suites:
  - plugin: selftest
    include: [noop]
YAML

echo "== host overhead: noop under bhost vs Google Benchmark's empty loop"
"$bhost" run "$tmp/noop.yaml" --out "$tmp/noop.json" --quiet 2>/dev/null || true
bh=$(median_of "$tmp/noop.json" selftest/noop)
gb=$("$build/tools/anchors/gb_empty" --benchmark_filter=BM_empty --benchmark_repetitions=10 \
       --benchmark_format=json 2>/dev/null |
     python3 -c "import json,sys;d=json.load(sys.stdin);print([b for b in d['benchmarks'] if b['name'].endswith('_median')][0]['real_time'])")
python3 -c "import sys;b,g=map(float,sys.argv[1:]);print(f'bhost noop {b:.3f} ns/iter, Google Benchmark empty {g:.3f} ns/iter, ratio {b/g:.2f}')" "$bh" "$gb"

echo "== run-to-run spread: spin[work=1000] median over 10 bhost runs"
meds=()
for i in $(seq 1 10); do
  "$bhost" run "$tmp/noop.yaml" --filter 'selftest/spin*' --out "$tmp/spin$i.json" --quiet 2>/dev/null || true
  meds+=("$(median_of "$tmp/spin$i.json" 'selftest/spin[work=1000]')")
done
python3 -c "
import statistics,sys
m=[float(x) for x in sys.argv[1:]]
print(f'medians (ns/iter): {\" \".join(f\"{x:.1f}\" for x in m)}')
print(f'CV of medians: {100*statistics.stdev(m)/statistics.mean(m):.2f}%')" "${meds[@]}"

echo "== worker start cost and bhost list"
python3 - "$bhost" "$tmp" <<'PY'
import subprocess, sys, time, statistics
bhost, tmp = sys.argv[1], sys.argv[2]
def t(args, n=20):
    xs = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        xs.append(time.perf_counter() - t0)
    return statistics.median(xs)
empty = t([bhost, "validate", f"{tmp}/empty.yaml"])
one = t([bhost, "validate", f"{tmp}/one.yaml"])
lst = t([bhost, "list"], 10)
print(f"validate, no plugin: {empty*1e3:.2f} ms; one plugin: {one*1e3:.2f} ms")
print(f"one describe worker (spawn, exec, load, describe, reap): {(one-empty)*1e3:.2f} ms")
print(f"bhost list (all in-tree plugins): {lst*1e3:.2f} ms")
PY
