#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Takes the memory plugin's headline figures on a quiet machine: the
# allocate + free latency of every allocator at 64 B and 1 MiB (one
# thread and two; the seeds' target is under 10 us) and the fragmentation
# ratio and time per replay of the gpt2 decode trace (context 128, 4
# steps). Prints one table; the result stays in OUT.
# Further arguments go to bhost run (e.g. --runs 1 for a quick check).
#   tools/measure-memory.sh [BUILD_DIR] [OUT.json] [bhost run options]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-memory-figures.json}
shift $(($# < 2 ? $# : 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/memory-figures.yaml" <<'YAML'
schema: 1
name: memory-figures
defaults: {warmup: 100ms, sample_time: 10ms, samples: 10, runs: 10, seed: 20261127}
suites:
  - plugin: memory
    name: latency
    include: [alloc.latency]
    params:
      allocator: [glibc, jemalloc, mimalloc, tcmalloc, pool, arena]
      size: [64, 1048576]
      threads: [1, 2]
  - plugin: memory
    name: decode
    include: [frag.replay]
    params: {allocator: [glibc, jemalloc, mimalloc, tcmalloc, arena], trace: [decode]}
YAML

"$build/host/cli/bhost" run "$tmp/memory-figures.yaml" --out "$out" --no-store --quiet "$@"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
lat, frag = {}, {}
for c in doc['cases']:
    p = c['params']
    a = p['allocator']
    if c['status'] != 'ok':
        (lat if c['benchmark'] == 'alloc.latency' else frag).setdefault(a, {})['note'] = c['status']
        continue
    med = c['summary']['median']
    if c['benchmark'] == 'alloc.latency':
        lat.setdefault(a, {})[(p['size'], p['threads'])] = med
    else:
        frag.setdefault(a, {}).update(ratio=c['metrics']['frag.ratio']['values'], us=med / 1e3)
print('%-9s %14s %14s %14s %14s   (ns per allocate + free, median)'
      % ('allocator', '64 B x1', '64 B x2', '1 MiB x1', '1 MiB x2'))
for a, v in lat.items():
    cells = [v.get(k) for k in ((64, 1), (64, 2), (1048576, 1), (1048576, 2))]
    print('%-9s %s %s' % (a, ' '.join('%14.1f' % x if x else '%14s' % '-' for x in cells),
                          v.get('note', '')))
print('\n%-9s %10s %14s   (gpt2 decode trace, context 128, 4 steps)'
      % ('allocator', 'frag.ratio', 'us per replay'))
for a, v in frag.items():
    r = v.get('ratio')
    print('%-9s %10s %14s %s' % (a, '%.3f' % (sorted(r)[len(r) // 2]) if r else '-',
                                 '%.1f' % v['us'] if 'us' in v else '-', v.get('note', '')))
PY
