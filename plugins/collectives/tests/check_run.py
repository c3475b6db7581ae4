#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs collectives-ci.yaml through the real host and checks every case.

Usage: check_run.py --bhost BHOST --config CFG

For every case: the status is ok (every rank checked what it received;
the host compared the shared outputs' digests); the run has its samples
(as many as configured, each [iterations >= 1, ns > 0]); algbw and busbw
are reported, busbw = algbw x nccl-tests' factor for the case's ranks,
busbw.factor is that factor and size is nccl-tests' S (recomputed here
from bytes, dtype and ranks); bytes_per_iter is S; p2p.latency reports
latency.one_way. allgather of 8 B on 2 ranks is skipped (its chunk
rounds down to no element) and memory: device is ok where a GPU and
NCCL or RCCL are, else unsupported naming what is missing (what CUDA and
ROCm each lack when there is no GPU). Exits 77 (skipped)
when the host does not run multi-rank cases yet.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77
ELT = {'f32': 4, 'f64': 8, 'i32': 4}
SPLIT = ('allgather', 'reduce_scatter', 'alltoall')


def host_refuses(bhost):
    """`bhost list` marks benchmarks a host refuses (before the host side
    of ABI 1.2's multi-rank cases)."""
    p = subprocess.run([bhost, 'list'], capture_output=True, text=True,
                       timeout=60, check=False)
    return any('allreduce' in line and 'refused' in line
               for line in p.stdout.splitlines())


def run(bhost, config):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1',
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        p = subprocess.run([bhost, 'run', config, '--out', out, '--quiet'],
                           capture_output=True, text=True, timeout=580,
                           env=env, check=False)
        if not os.path.exists(out):
            print('no result (rc %d): %s' % (p.returncode, p.stderr[-3000:]))
            sys.exit(1)
        with open(out, encoding='utf-8') as f:
            return json.load(f)


def size_and_factor(bench, p):
    """nccl-tests' S and busbw factor of a case."""
    n, nbytes = int(p['ranks']), int(p['bytes'])
    if bench.startswith('p2p.'):
        window = int(p.get('window', 64)) if bench == 'p2p.bandwidth' else 1
        return nbytes * window, 1.0
    elt = ELT[p['dtype']]
    count = nbytes // elt
    if bench in SPLIT:
        chunk = (count // n) & ~(16 // elt - 1)
        return chunk * n * elt, (n - 1) / n
    if bench == 'allreduce':
        return count * elt, 2 * (n - 1) / n
    return count * elt, 1.0


def metric(case, name):
    v = case.get('metrics', {}).get(name, {}).get('values', [])
    return v[0] if v else None


def check_samples(c, errors):
    want = c['settings']['samples']
    for r in c['runs']:
        s = r.get('samples', [])
        if len(s) != want or any(it < 1 or ns <= 0 for it, ns in s):
            errors.append('%s: run %d: samples %s (expected %d)'
                          % (c['id'], r['index'], s, want))


def refused(c, errors):
    """The cases that must be refused with their reason; True for those."""
    msg = c.get('message', '')
    if c['params'].get('memory') == 'device' and c['status'] != 'ok':
        if c['status'] != 'unsupported' or 'memory: device' not in msg:
            errors.append('%s: %s: %s' % (c['id'], c['status'], msg))
        elif 'no GPU on this node' in msg and not ('CUDA: ' in msg and 'ROCm: ' in msg):
            errors.append('%s: the reason names not both CUDA and ROCm: %s' % (c['id'], msg))
        return True
    if c['benchmark'] == 'allgather' and int(c['params']['bytes']) == 8:
        if c['status'] != 'skipped' or 'no f32 element per rank' not in msg:
            errors.append('%s: %s: %s' % (c['id'], c['status'], msg))
        return True
    return False


def check_case(c, errors):
    cid, p, bench = c['id'], c['params'], c['benchmark']
    if refused(c, errors):
        return
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], c.get('message', '')))
        return
    check_samples(c, errors)
    size, factor = size_and_factor(bench, p)
    got = {k: metric(c, k) for k in ('algbw', 'busbw', 'busbw.factor', 'size')}
    if None in got.values():
        errors.append('%s: missing metrics %s' % (cid, got))
        return
    if got['algbw'] <= 0 or abs(got['busbw'] - got['algbw'] * factor) > \
            1e-9 * got['algbw']:
        errors.append('%s: algbw %s busbw %s factor %s'
                      % (cid, got['algbw'], got['busbw'], factor))
    if abs(got['busbw.factor'] - factor) > 1e-12 or got['size'] != size:
        errors.append('%s: factor %s size %s, expected %s %s'
                      % (cid, got['busbw.factor'], got['size'], factor, size))
    if any(r.get('bytes_per_iter') != size for r in c['runs']):
        errors.append('%s: bytes_per_iter is not S = %d' % (cid, size))
    if bench == 'p2p.latency' and not (metric(c, 'latency.one_way') or 0) > 0:
        errors.append('%s: no latency.one_way' % cid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    args = ap.parse_args()
    if host_refuses(args.bhost):
        print('skipped: this host refuses multi-rank benchmarks')
        return SKIP
    doc = run(args.bhost, args.config)
    cases = [c for c in doc['cases'] if c['plugin'] == 'collectives']
    errors = []
    for c in cases:
        check_case(c, errors)
        print('%-70s %-8s busbw=%s' % (c['id'], c['status'], metric(c, 'busbw')))
    if len(cases) != 21:
        errors.append('%d cases, expected 21' % len(cases))
    for e in errors:
        print(e)
    print('%d cases, %d problems' % (len(cases), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
