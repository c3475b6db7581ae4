#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Takes the scientific plugin's convolution figures on a quiet machine:
# im2col + OpenBLAS and oneDNN on the ResNet-50 and MobileNet layers of
# `conv` (NCHW and NHWC, one image and eight, one thread and every CPU),
# the plugin's direct loops on two of them for scale, each held against
# the f32 multiply-add peak (plugin roof, case peak, type f32) measured in
# the same run on 1 thread and on every CPU. Prints one table: GFLOP/s,
# the compute ceiling the case was held against, and its fraction of the
# attainable rate; the result stays in OUT. Further arguments go to bhost
# run (e.g. --runs 1 for a quick check). About six minutes on 2 cores.
#   tools/measure-conv.sh [BUILD_DIR] [OUT.json] [bhost run options]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-conv-figures.json}
shift $(($# < 2 ? $# : 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/conv-figures.yaml" <<'YAML'
schema: 1
name: conv-figures
defaults: {warmup: 100ms, sample_time: 20ms, samples: 10, runs: 5, seed: 20261127}
backends:
  cpu: {required: false}
suites:
  - plugin: roof
    name: ceilings-peak
    include: [peak]
    params: {type: [f32], threads: [1, 0]}
  - plugin: scientific
    name: conv
    include: [conv]
    params:
      impl: [im2col, onednn]
      layer: [resnet50-conv1, resnet50-3x3, resnet50-1x1, resnet50-3x3s2, mobilenetv1-dw112,
              mobilenetv1-pw56, mobilenetv2-dw56, mobilenetv2-pw56]
      layout: [nchw, nhwc]
      batch: [1, 8]
      threads: [1, 0]
  - plugin: scientific
    name: conv-direct
    include: [conv]
    params: {impl: [direct], layer: [resnet50-3x3, mobilenetv2-dw56], layout: [nchw, nhwc],
             threads: [0]}
YAML

"$build/host/cli/bhost" run "$tmp/conv-figures.yaml" --out "$out" --no-store --quiet "$@"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc['cases']:
    if c['benchmark'] == 'peak' and c['status'] == 'ok':
        print('ceiling %-40s %8.1f GFLOP/s' % (c['id'], c['throughput']['flop_per_s'] / 1e9))
print('\n%-19s %-6s %-4s %5s %3s %9s  %-12s %8s' % ('layer', 'impl', 'lay', 'batch', 'thr',
                                                   'GFLOP/s', 'ceiling', 'fraction'))
for c in doc['cases']:
    if c['benchmark'] != 'conv':
        continue
    p = c['params']
    head = '%-19s %-6s %-4s %5d %3d' % (p['layer'], p['impl'], p['layout'], p.get('batch', 1),
                                         p['threads'])
    if c['status'] != 'ok':
        print(head, c['status'], c.get('message', ''))
        continue
    r = c.get('roofline', {})
    print('%s %9.2f  %-12s %8.3f' % (head, c['throughput']['flop_per_s'] / 1e9,
                                     r.get('compute_ceiling', '-'), r.get('fraction', float('nan'))))
PY
