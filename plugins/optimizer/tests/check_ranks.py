#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs ranks-ci.yaml through the real host and checks the multi-rank cases.

Usage: check_ranks.py --bhost BHOST --config CFG

Checks, for every case of zero.mpi and dp.step on 1, 2 and 4 ranks:
  - the status is ok (every rank verified its step; the host compared
    the ranks' parameter digests);
  - mpi.ranks is the case's ranks;
  - comm.expected_bytes is the ZeRO paper's volume for the case: 2 Psi
    (stage 3: 3 Psi) x (n-1)/n x the element's bytes (4 f32, 2 bf16);
  - comm.bytes_per_step is at least that and at most the partition's
    padding above it (dp.step: equal), comm.bytes_ratio is their ratio,
    and comm.volume_error = |ratio - 1| is reported;
  - a run with ranks 1 sends nothing.
Exits 77 (skipped) when the host does not run multi-rank cases yet.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'common', 'tests'))
from bhost_run import MPI_ENV, host_refuses, print_cases, run_config  # noqa: E402

SKIP = 77


def run(bhost, config):
    if host_refuses(bhost, 'zero.mpi'):
        print('skipped: this host refuses multi-rank benchmarks')
        sys.exit(SKIP)
    doc = run_config(bhost, config, env=MPI_ENV)
    if doc is None:
        sys.exit(1)
    return doc


def first(case, name):
    v = case.get('metrics', {}).get(name, {}).get('values', [])
    return v[0] if v else None


def padding(params, ranks):
    """Elements the ZeRO partition adds: shards of ceil(Psi/n) rounded up
    to 16 (rank/zr_step.c, opt_zero_plan_make)."""
    shard = -(-params // ranks)
    shard = -(-shard // 16) * 16
    return shard * ranks - params


def check_case(c, errors):
    cid, p = c['id'], c.get('params', {})
    if c['status'] != 'ok':
        errors.append('%s: %s: %s' % (cid, c['status'], c.get('message', '')))
        return
    n, psi = int(p['ranks']), int(p['params'])
    es = 2 if p.get('dtype') == 'bf16' else 4
    zero = c['benchmark'] == 'zero.mpi'
    times = 3 if zero and int(p['stage']) == 3 else 2
    want = times * psi * (n - 1) / n * es
    pad = padding(psi, n) / psi if zero else 0.0
    got = {k: first(c, k) for k in ('mpi.ranks', 'comm.expected_bytes',
                                     'comm.bytes_per_step', 'comm.bytes_ratio',
                                     'comm.volume_error')}
    if None in got.values():
        errors.append('%s: missing metrics %s' % (cid, got))
        return
    if got['mpi.ranks'] != n:
        errors.append('%s: mpi.ranks %s' % (cid, got['mpi.ranks']))
    if abs(got['comm.expected_bytes'] - want) > 1e-6 * max(want, 1):
        errors.append('%s: expected_bytes %s, formula %s'
                      % (cid, got['comm.expected_bytes'], want))
    sent, ratio = got['comm.bytes_per_step'], got['comm.bytes_ratio']
    if sent < want * (1 - 1e-9) or sent > want * (1 + pad) + 1e-6:
        errors.append('%s: %s B per step, formula %s (padding %g)'
                      % (cid, sent, want, pad))
    if want > 0 and abs(ratio - sent / want) > 1e-9:
        errors.append('%s: ratio %s, bytes say %s' % (cid, ratio, sent / want))
    if n == 1 and sent != 0:
        errors.append('%s: one rank sent %s B' % (cid, sent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    args = ap.parse_args()
    doc = run(args.bhost, args.config)
    errors = []
    cases = [c for c in doc['cases']
             if c['benchmark'] in ('zero.mpi', 'dp.step')]
    for c in cases:
        check_case(c, errors)
    if len(cases) != 26:
        errors.append('%d multi-rank cases, expected 26' % len(cases))
    return print_cases(doc, errors, {'comm.bytes_ratio', 'comm.bytes_per_step'})


if __name__ == '__main__':
    sys.exit(main())
