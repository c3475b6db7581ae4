#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the scientific plugin's sparse cases through the real host, and its
conv, pool and norm cases by tests/check_layers.py (see there).

Usage: check_run.py --bhost BHOST [--fft] [--rnn] [--dnnl]

Writes Matrix Market files (a valid general matrix with a duplicate entry,
a symmetric one, a truncated one, one with a bad entry line, one larger
than max_entries) and a config of generated and file cases, runs it, and
checks the result document:
  - every generated case (banded, powerlaw, random; SpMV and SpMM; 1 and 2
    threads) is ok with error.to_bound <= 1, and its FLOP and bytes per
    nonzero (throughput over items) and bytes_per_nnz metric agree with
    the matrix's size and nnz;
  - the valid files are ok, with nnz counted from the file (duplicates
    summed, the symmetric one mirrored);
  - each bad file fails the case with one line naming the file and line
    and what was expected, and bhost exits non-zero while the other cases
    still run;
  - with --fft (the plugin was built with FFTW): FFTW and radix-2 cases in
    1-3 D, complex and real, f64 and f32 are ok with error.to_norm within
    its limit and FLOP per point 5 log2 N (2.5 for real input); the
    radix-2 at an awkward size is skipped with the reason;
  - LSTM and GRU cells and sequences, own (with --rnn: built with
    OpenBLAS) and oneDNN (with --dnnl), are ok with error.to_bound <= 1
    and FLOP and bytes per cell step as counted in bench_rnn.c; without
    the flag, those cases are skipped naming libopenblas-dev or
    libdnnl-dev;
  - autotune: the gemm and fftw kernels are ok and verified, with the
    space size, points tried (only the default at budget 0), a chosen
    point of the space and tuned no slower than default (the best of the
    points timed); fftw skipped naming libfftw3-dev when not built.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import check_layers

CONFIG = """schema: 1
name: sci-check
defaults: {{warmup: 0ms, sample_time: 1ms, samples: 3, runs: 1, timeout: 60s,
            seed: 7}}
suites:
  - plugin: scientific
    name: generated
    include: [sparse.spmv, sparse.spmm]
    params:
      matrix: [banded, powerlaw, random]
      rows: [3000]
      density: [0.002]
      threads: [1, 2]
  - plugin: scientific
    name: files
    include: [sparse.spmv]
    params:
      matrix: [file]
      path: [{good}, {sym}, {trunc}, {bad}, {big}]
      max_entries: [40]
"""

FFT_SUITES = """  - plugin: scientific
    name: fft
    include: [fft]
    params:
      impl: [fftw, radix2]
      shape: ["64", "16x32", "8x4x16"]
      precision: [f64, f32]
  - plugin: scientific
    name: fft-other
    include: [fft]
    params: {impl: [fftw], kind: [r2c], shape: ["1000", "30x20"], plan: [estimate, measure]}
  - plugin: scientific
    name: fft-awkward
    include: [fft]
    params: {impl: [radix2], shape: ["1000"]}
"""

RNN_SUITES = """  - plugin: scientific
    name: rnn
    include: [rnn.lstm, rnn.gru]
    params: {impl: [own, onednn], batch: [1, 3], hidden: [16], steps: [1, 3], threads: [1, 2]}
  - plugin: scientific
    name: rnn-input
    include: [rnn.lstm, rnn.gru]
    params: {impl: [own, onednn], batch: [2], hidden: [24], input: [10], steps: [2]}
"""

AUTOTUNE_SUITES = """  - plugin: scientific
    name: autotune
    include: [autotune]
    params:
      kernel: [gemm]
      size: [40, 150]
      budget: [0, 0.3]
  - plugin: scientific
    name: autotune-fftw
    include: [autotune]
    params: {kernel: [fftw], size: [1000, 8192], budget: [0, 0.5]}
"""

GEMM_SPACE = {'chosen.mc': {32, 64, 128, 256}, 'chosen.nc': {256, 1024, 4096},
              'chosen.kc': {64, 128, 256, 512}, 'chosen.mr': {4, 6, 8}, 'chosen.nr': {8, 16}}


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)
    return path


def make_files(d):
    rng = random.Random(3)
    entries = sorted({(rng.randrange(1, 21), rng.randrange(1, 17)) for _ in range(25)})
    lines = ['%d %d %.6g' % (i, j, rng.uniform(-1, 1)) for i, j in entries]
    lines.append('%d %d 0.5' % entries[0])  # a duplicate: summed into one entry
    good = write(os.path.join(d, 'good.mtx'),
                 '%%%%MatrixMarket matrix coordinate real general\n%% test\n20 16 %d\n%s\n'
                 % (len(lines), '\n'.join(lines)))
    sym = write(os.path.join(d, 'sym.mtx'),
                '%%MatrixMarket matrix coordinate real symmetric\n5 5 4\n1 1 2\n2 1 1\n'
                '5 3 -1\n4 4 3\n')
    trunc = write(os.path.join(d, 'trunc.mtx'),
                  '%%MatrixMarket matrix coordinate real general\n4 4 3\n1 1 1\n2 2 2\n')
    bad = write(os.path.join(d, 'bad.mtx'),
                '%%MatrixMarket matrix coordinate real general\n4 4 2\n1 1 1\n2 x 2\n')
    big = write(os.path.join(d, 'big.mtx'),
                '%%MatrixMarket matrix coordinate real general\n100 100 41\n')
    expect = {good: ('ok', len(entries)), sym: ('ok', 6),
              trunc: ('failed', 'trunc.mtx:4: expected 3 entries, found 2'),
              bad: ('failed', 'bad.mtx:4: expected an entry "ROW COL VALUE"'),
              big: ('failed', 'big.mtx:2: 41 entries is too large')}
    return good, sym, trunc, bad, big, expect


def metric(case, name):
    vals = case.get('metrics', {}).get(name, {}).get('values', [])
    return vals[0] if vals else None


def check_generated(c, errors):
    cid = c['id']
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], c.get('message', '')))
        return
    err, nnz, bpn = metric(c, 'error.to_bound'), metric(c, 'nnz'), metric(c, 'bytes_per_nnz')
    if err is None or not 0 <= err <= 1:
        errors.append('%s: error.to_bound %s' % (cid, err))
    if not nnz or nnz < 3000:
        errors.append('%s: nnz %s (at least one per row)' % (cid, nnz))
        return
    # rates per item (a nonzero): FLOP per nonzero 2k, bytes per nonzero
    k = c['params'].get('k', 1) if c['benchmark'] == 'sparse.spmm' else 1
    tp = c['throughput']
    flop_per_nnz, bytes_per_nnz = tp['flop_per_s'] / tp['items_per_s'], \
        tp['bytes_per_s'] / tp['items_per_s']
    if abs(flop_per_nnz - 2 * k) > 1e-9 * k:
        errors.append('%s: %s FLOP per nonzero, expected 2 k = %d' % (cid, flop_per_nnz, 2 * k))
    want = (12 * nnz + 8 * 3001 + 8 * k * 6000) / nnz
    if abs(bytes_per_nnz - want) > 1e-9 * want or abs(bpn - want) > 1e-9 * want:
        errors.append('%s: %s bytes per nonzero (metric %s), expected %s'
                      % (cid, bytes_per_nnz, bpn, want))


def check_fft(c, errors):
    cid, p = c['id'], c['params']
    if p['impl'] == 'radix2' and p['shape'] == '1000':
        if c['status'] != 'skipped' or 'power-of-two' not in c.get('message', ''):
            errors.append('%s: %s, expected skipped for power-of-two: %s'
                          % (cid, c['status'], c.get('message', '')))
        return
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], c.get('message', '')))
        return
    m = c['metrics'].get('error.to_norm', {})
    if not m.get('values') or m.get('limit') is None or max(m['values']) > m['limit']:
        errors.append('%s: error.to_norm %s' % (cid, m))
    n = 1
    for d in p['shape'].split('x'):
        n *= int(d)
    tp = c['throughput']
    want = (2.5 if p.get('kind') == 'r2c' else 5.0) * math.log2(n)
    if abs(tp['flop_per_s'] / tp['items_per_s'] - want) > 1e-9 * want:
        errors.append('%s: %s FLOP per point, expected %s'
                      % (cid, tp['flop_per_s'] / tp['items_per_s'], want))


def check_error_bound(c, errors):
    m = c['metrics'].get('error.to_bound', {})
    if not m.get('values') or m.get('limit') != 1 or max(m['values']) > 1:
        errors.append('%s: error.to_bound %s' % (c['id'], m))


def verified(c, errors, built, package):
    """Whether c ran ok and verified, when its library was built; else
    whether it was skipped naming the package. Errors go to errors."""
    if not built:
        if c['status'] != 'skipped' or package not in c.get('message', ''):
            errors.append('%s: %s, expected skipped naming %s' % (c['id'], c['status'], package))
        return False
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (c['id'], c['status'], c.get('message', '')))
        return False
    check_error_bound(c, errors)
    return True


def check_rnn(c, errors, own, dnnl):
    cid, p = c['id'], c['params']
    onednn = p['impl'] == 'onednn'
    if not verified(c, errors, dnnl if onednn else own,
                    'libdnnl-dev' if onednn else 'libopenblas-dev'):
        return
    lstm = c['benchmark'] == 'rnn.lstm'
    g, e = (4, 13) if lstm else (3, 11)
    b, h, t = p['batch'], p['hidden'], p['steps']
    i = p.get('input') or h
    tp = c['throughput']
    flop = (2 * (i + h) * g * h * b + e * b * h) / b
    byts = 4 * (i * g * h + g * h + t * h * g * h + t * b * i + t * b * h +
                (3 if lstm else 1) * b * h) / (t * b)
    for what, got, want in (('FLOP', tp['flop_per_s'] / tp['items_per_s'], flop),
                            ('bytes', tp['bytes_per_s'] / tp['items_per_s'], byts)):
        if abs(got - want) > 1e-9 * want:
            errors.append('%s: %s %s per cell step, expected %s' % (cid, got, what, want))


def check_autotune(c, errors, fft):
    cid, p = c['id'], c['params']
    if not verified(c, errors, fft or p['kernel'] != 'fftw', 'libfftw3-dev'):
        return
    space, tried = metric(c, 'search.space'), metric(c, 'search.tried')
    gemm = p['kernel'] == 'gemm'
    if space != (192 if gemm else 4) or not tried or not 1 <= tried <= space or \
            (p['budget'] == 0 and tried != 1):
        errors.append('%s: search.space %s, search.tried %s' % (cid, space, tried))
    tuned, default = metric(c, 'tuned.seconds'), metric(c, 'default.seconds')
    if not tuned or not default or tuned > default or \
            abs(metric(c, 'speedup_vs_default') - default / tuned) > 1e-9 * default / tuned:
        errors.append('%s: tuned %s default %s' % (cid, tuned, default))
    if metric(c, 'search.seconds') is None:
        errors.append('%s: no search.seconds' % cid)
    chosen = {k: metric(c, k) for k in GEMM_SPACE} if gemm else \
        {'chosen.level': metric(c, 'chosen.level')}
    for k, v in chosen.items():
        if v not in GEMM_SPACE.get(k, {0, 1, 2, 3}) or (p['budget'] == 0 and k == 'chosen.level'
                                                         and v != 0):
            errors.append('%s: %s = %s' % (cid, k, v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--fft', action='store_true')
    ap.add_argument('--rnn', action='store_true')
    ap.add_argument('--dnnl', action='store_true')
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        good, sym, trunc, bad, big, expect = make_files(d)
        cfg = write(os.path.join(d, 'sci.yaml'),
                    CONFIG.format(good=good, sym=sym, trunc=trunc, bad=bad, big=big) +
                    (FFT_SUITES if args.fft else '') + RNN_SUITES + AUTOTUNE_SUITES)
        out = os.path.join(d, 'r.json')
        p = subprocess.run([args.bhost, 'run', cfg, '--out', out, '--no-store', '--quiet'],
                           capture_output=True, text=True)
        if p.returncode == 0:
            print('FAIL: bhost exited 0 although three files are bad', file=sys.stderr)
            return 1
        doc = json.load(open(out))
        errors, seen = [], set()
        for c in doc['cases']:
            path = c['params'].get('path')
            if c['benchmark'] == 'fft':
                check_fft(c, errors)
                continue
            if c['benchmark'].startswith('rnn.'):
                check_rnn(c, errors, args.rnn, args.dnnl)
                continue
            if c['benchmark'] == 'autotune':
                check_autotune(c, errors, args.fft)
                continue
            if c['params'].get('matrix') != 'file':
                check_generated(c, errors)
                continue
            seen.add(path)
            status, what = expect[path]
            msg = c.get('message', '')
            if os.environ.get('SCI_CHECK_VERBOSE'):
                print(c['id'], c['status'], msg)
            if c['status'] != status:
                errors.append('%s: %s, expected %s: %s' % (c['id'], c['status'], status, msg))
            elif status == 'ok' and metric(c, 'nnz') != what:
                errors.append('%s: nnz %s, expected %s' % (c['id'], metric(c, 'nnz'), what))
            elif status != 'ok' and (what not in msg or '\n' in msg):
                errors.append('%s: message %r lacks %r' % (c['id'], msg, what))
        if seen != set(expect):
            errors.append('file cases missing: %s' % sorted(set(expect) - seen))
        generated = [c for c in doc['cases'] if c['benchmark'].startswith('sparse.')
                     and c['params'].get('matrix') != 'file']
        ffts = [c for c in doc['cases'] if c['benchmark'] == 'fft']
        if len(ffts) != (17 if args.fft else 0):
            errors.append('%d fft cases, expected %d' % (len(ffts), 17 if args.fft else 0))
        rnns = [c for c in doc['cases'] if c['benchmark'].startswith('rnn.')]
        if len(rnns) != 36:
            errors.append('%d rnn cases, expected 36' % len(rnns))
        tunes = [c for c in doc['cases'] if c['benchmark'] == 'autotune']
        if len(tunes) != 8:
            errors.append('%d autotune cases, expected 8' % len(tunes))
        if len(generated) != 12:
            errors.append('%d generated cases, expected 12' % len(generated))
        errors += check_layers.run(args.bhost)
        for e in errors:
            print('FAIL:', e, file=sys.stderr)
        print('%d cases checked, %d errors' % (len(doc['cases']), len(errors)))
        return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
