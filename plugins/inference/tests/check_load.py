#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the inference plugin's model-loading benchmark through the real host.

Usage: check_load.py --bhost BHOST

A config of `load` cases on the tiny presets (safetensors and GGUF, f32,
f16 and bf16 files, mmap and read(), cold and warm, f32 and int8 engine
weights) plus two bad weight files; checks the result document:
  - every dummy-file case is ok, its error.file_vs_source within its limit
    (the rounding of the file's and the engine's types), its throughput in
    bytes per second equal to file_bytes over the median time;
  - a cold case reports cold_resident_fraction below 0.5 (the page cache
    was really dropped), a storage_read_bytes_per_s ceiling and a
    storage_fraction; a warm case a cached_read_bytes_per_s;
  - a missing file and a malformed one fail their case with one line
    naming the file, and bhost exits non-zero.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIG = """schema: 1
name: load-check
defaults: {{warmup: 0ms, sample_time: 1ms, samples: 3, runs: 1, timeout: 120s, seed: 3}}
backends:
  cpu: {{required: true}}
suites:
  - plugin: inference
    name: load
    include: [load]
    params:
      model: [tiny-gpt2, tiny-llama]
      format: [safetensors, gguf]
      io: [mmap, read]
      cache: [cold, warm]
  - plugin: inference
    name: load-types
    include: [load]
    params: {{model: [tiny-bert], dtype: [f32, f16], wtype: [f32, int8]}}
  - plugin: inference
    name: load-bad
    include: [load]
    params: {{model: [tiny-gpt2], weights: [{missing}, {garbage}]}}
"""


def metric(case, name):
    vals = case.get('metrics', {}).get(name, {}).get('values', [])
    return vals[0] if vals else None


def check_ok(c, errors):
    cid, p = c['id'], c['params']
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], c.get('message', '')))
        return
    err = c['metrics'].get('error.file_vs_source', {})
    if not err.get('values') or err['values'][0] > err.get('limit', -1):
        errors.append('%s: error.file_vs_source %s' % (cid, err))
    size = metric(c, 'file_bytes')
    rate = c['throughput'].get('bytes_per_s')
    median = c['summary']['run_median_median']  # ns per iteration
    if not size or not rate or abs(rate - size / (median * 1e-9)) > 1e-6 * rate:
        errors.append('%s: %s B/s for %s bytes at %s ns' % (cid, rate, size, median))
    if p['cache'] == 'cold':
        res = metric(c, 'cold_resident_fraction')
        if res is None or res > 0.5:
            errors.append('%s: cold_resident_fraction %s' % (cid, res))
        if not metric(c, 'storage_read_bytes_per_s') or metric(c, 'storage_fraction') is None:
            errors.append('%s: no storage ceiling or fraction' % cid)
    elif not metric(c, 'cached_read_bytes_per_s'):
        errors.append('%s: no cached_read_bytes_per_s' % cid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        missing, garbage = os.path.join(d, 'missing.safetensors'), os.path.join(d, 'g.gguf')
        with open(garbage, 'wb') as f:
            f.write(b'GGUF\x03\x00\x00\x00' + b'\xff' * 64)
        cfg = os.path.join(d, 'load.yaml')
        with open(cfg, 'w') as f:
            f.write(CONFIG.format(missing=missing, garbage=garbage))
        out = os.path.join(d, 'r.json')
        env = dict(os.environ, TMPDIR=d)
        p = subprocess.run([args.bhost, 'run', cfg, '--out', out, '--no-store', '--quiet'],
                           capture_output=True, text=True, env=env)
        errors = []
        if p.returncode == 0:
            errors.append('bhost exited 0 although two weight files are bad')
        doc = json.load(open(out))
        bad = {missing: 'missing.safetensors: cannot open', garbage: 'g.gguf: gguf'}
        for c in doc['cases']:
            w = c['params'].get('weights', 'dummy')
            if w == 'dummy':
                check_ok(c, errors)
            elif c['status'] != 'failed' or bad[w] not in c.get('message', '') \
                    or '\n' in c.get('message', ''):
                errors.append('%s: %s: %r lacks %r' % (c['id'], c['status'],
                                                       c.get('message'), bad[w]))
        if len(doc['cases']) != 22:
            errors.append('%d cases, expected 22' % len(doc['cases']))
        left = [f for f in os.listdir(d) if f.startswith('bhost-load-')]
        if left:
            errors.append('fresh files left behind: %s' % left)
        for e in errors:
            print('FAIL:', e, file=sys.stderr)
        print('%d cases checked, %d errors' % (len(doc['cases']), len(errors)))
        return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
