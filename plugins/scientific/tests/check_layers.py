#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the scientific plugin's conv, pool and norm cases through the real
host (called by check_run.py; also runnable alone).

Usage: check_layers.py --bhost BHOST

Small cases of every implementation, layout and kind, 1 and 2 threads,
including a grouped strided convolution, a depthwise one, a named
MobileNet layer whose outputs are checked by seeded sample, padded
pooling and an adaptive pooling oneDNN cannot express. Each case must be
ok with error.to_bound <= 1 (limit 1; BatchNorm training also
stats.error.to_bound, its batch statistics), outputs checked, its threads
metric equal to the parameter, and FLOP and bytes per image as counted in
bench_conv.c, bench_pool.c and bench_norm.c; or skipped with the expected
reason: oneDNN's group normalisation and its adaptive pooling at an
out that does not divide the size, and any case of a library not built,
which must name its Debian package.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIG = """schema: 1
name: sci-layers
defaults: {warmup: 0ms, sample_time: 1ms, samples: 3, runs: 1, timeout: 60s, seed: 11}
suites:
  - plugin: scientific
    name: conv
    include: [conv]
    params:
      impl: [direct, im2col, onednn]
      layer: [custom]
      shape: ["6,10,9,8,3,3,2,1,2", "8,8,8,8,3,3,1,1,8"]
      batch: [2]
      layout: [nchw, nhwc]
      threads: [1, 2]
  - plugin: scientific
    name: conv-named
    include: [conv]
    params: {impl: [direct, im2col, onednn], layer: [mobilenetv2-dw56s2], layout: [nhwc]}
  - plugin: scientific
    name: pool
    include: [pool]
    params:
      impl: [own, onednn]
      kind: [max, avg, adaptive]
      channels: [5]
      size: [9]
      batch: [2]
      out: [3, 4]
      layout: [nchw, nhwc]
      threads: [2]
  - plugin: scientific
    name: norm
    include: [norm]
    params:
      impl: [own, onednn]
      kind: [bn-infer, bn-train, groupnorm]
      channels: [6]
      size: [7]
      batch: [3]
      groups: [3]
      layout: [nchw, nhwc]
      threads: [1, 2]
"""

PACKAGES = {'im2col': 'libopenblas-dev', 'onednn': 'libdnnl-dev'}
EXPECTED_CASES = 24 + 3 + 24 + 24


def metric(case, name):
    vals = case.get('metrics', {}).get(name, {}).get('values', [])
    return vals[0] if vals else None


def conv_counts(p):
    """FLOP and bytes per image of a conv case."""
    if p['layer'] == 'custom':
        c, h, w, k, r, s, st, pad, g = (int(v) for v in p['shape'].split(','))
    else:  # mobilenetv2-dw56s2
        c, h, w, k, r, s, st, pad, g = 144, 56, 56, 144, 3, 3, 2, 1, 144
    n = p.get('batch', 1)
    oh, ow = (h + 2 * pad - r) // st + 1, (w + 2 * pad - s) // st + 1
    flop = 2 * n * k * (c // g) * r * s * oh * ow
    byts = 4 * (n * c * h * w + k * (c // g) * r * s + n * k * oh * ow)
    return flop / n, byts / n


def windows(size, out, r, st, pad, adaptive):
    """Sum of the window lengths along one axis."""
    total = 0
    for o in range(out):
        if adaptive:
            lo, hi = o * size // out, -(-(o + 1) * size // out)
        else:
            lo, hi = max(o * st - pad, 0), min(o * st - pad + r, size)
        total += hi - lo
    return total


def pool_counts(p):
    c, size, n = p['channels'], p['size'], p['batch']
    adaptive = p['kind'] == 'adaptive'
    r, st, pad = (1, 1, 0) if adaptive else (p.get('window', 3), p.get('stride', 2),
                                               p.get('pad', 1))
    out = p['out'] if adaptive else (size + 2 * pad - r) // st + 1
    flop = n * c * windows(size, out, r, st, pad, adaptive) ** 2 + \
        (0 if p['kind'] == 'max' else n * c * out * out)
    return flop / n, 4 * (n * c * size * size + n * c * out * out) / n


def norm_counts(p):
    elems = p['batch'] * p['channels'] * p['size'] ** 2
    flop = (2 if p['kind'] == 'bn-infer' else 6) * elems
    byts = 4 * (2 * elems + (2 if p['kind'] == 'groupnorm' else 4) * p['channels'])
    return flop / p['batch'], byts / p['batch']


def expected_skip(c):
    """The reason a case must be skipped for, or None."""
    p = c['params']
    if c['benchmark'] == 'norm' and p['impl'] == 'onednn' and p['kind'] == 'groupnorm':
        return 'no group normalisation'
    if c['benchmark'] == 'pool' and p['impl'] == 'onednn' and p['kind'] == 'adaptive' \
            and p['size'] % p['out']:
        return 'no adaptive pooling'
    return None


def check_case(c, errors):
    cid, p = c['id'], c['params']
    msg = c.get('message', '')
    why = expected_skip(c)
    if c['status'] == 'skipped' and PACKAGES.get(p['impl'], '@') in msg:
        return 'library'  # not built: skipped naming the package
    if why:
        if c['status'] != 'skipped' or why not in msg:
            errors.append('%s: %s, expected skipped for %r: %s' % (cid, c['status'], why, msg))
        return 'skip'
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], msg))
        return 'bad'
    names = ['error.to_bound'] + (['stats.error.to_bound'] if p.get('kind') == 'bn-train' else [])
    for name in names:
        m = c['metrics'].get(name, {})
        if not m.get('values') or m.get('limit') != 1 or max(m['values']) > 1:
            errors.append('%s: %s %s' % (cid, name, m))
    if not metric(c, 'verify.checked') or metric(c, 'threads') != p.get('threads', 1):
        errors.append('%s: verify.checked %s threads %s' % (cid, metric(c, 'verify.checked'),
                                                           metric(c, 'threads')))
    counts = {'conv': conv_counts, 'pool': pool_counts, 'norm': norm_counts}[c['benchmark']]
    tp = c['throughput']
    for what, got, want in zip(('FLOP', 'bytes'), (tp['flop_per_s'] / tp['items_per_s'],
                                                   tp['bytes_per_s'] / tp['items_per_s']),
                               counts(p)):
        if abs(got - want) > 1e-9 * want:
            errors.append('%s: %s %s per image, expected %s' % (cid, got, what, want))
    return 'ok'


def run(bhost):
    """Runs the cases; returns the list of errors."""
    with tempfile.TemporaryDirectory() as d:
        cfg, out = os.path.join(d, 'layers.yaml'), os.path.join(d, 'r.json')
        with open(cfg, 'w') as f:
            f.write(CONFIG)
        subprocess.run([bhost, 'run', cfg, '--out', out, '--no-store', '--quiet'],
                       capture_output=True, text=True)
        if not os.path.exists(out):
            return ['layers: bhost wrote no result']
        with open(out) as f:
            doc = json.load(f)
    errors, kinds = [], {}
    cases = [c for c in doc['cases'] if c['benchmark'] in ('conv', 'pool', 'norm')]
    for c in cases:
        k = check_case(c, errors)
        kinds[k] = kinds.get(k, 0) + 1
        if os.environ.get('SCI_CHECK_VERBOSE'):
            print(c['id'], c['status'], c.get('message', ''))
    if len(cases) != EXPECTED_CASES:
        errors.append('%d layer cases, expected %d' % (len(cases), EXPECTED_CASES))
    if kinds.get('skip') != 2 + 4:
        errors.append('%s oneDNN cases skipped for a missing primitive, expected 6'
                      % kinds.get('skip'))
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    errors = run(ap.parse_args().bhost)
    for e in errors:
        print('FAIL:', e, file=sys.stderr)
    print('layer cases: %d errors' % len(errors))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
