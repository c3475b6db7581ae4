#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the scientific plugin's device cases through the real host and
checks their outcome per backend.

Usage: check_device.py --bhost BHOST --config CFG [--require-if B=GLOB ...]

A backend named by --require-if whose GLOB matches an installed file (the
lavapipe or PoCL ICD) must run every case ok with a verify.err_to_tol
metric at most 1 (the case's verify() compared it with the CPU result).
Every case is either ok, unsupported with a reason naming the missing
bhost.kernel.* table (cpu, and any backend that lacks the operation or
the dtype), or skipped with a reason (a backend with no device); nothing
is failed, invalid, crashed, timeout or oom.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

BAD = {'failed', 'invalid', 'crashed', 'timeout', 'oom'}


def backend_of(case):
    return case['id'].rsplit('@', 1)[1].split(':')[0]


def check_case(c, required):
    """The problems of one case (a list of strings)."""
    b, st, msg = backend_of(c), c['status'], c.get('message', '')
    if st in BAD:
        return ['%s: %s: %s' % (c['id'], st, msg)]
    if b in required and st != 'ok':
        return ['%s: %s on a required backend: %s' % (c['id'], st, msg)]
    if st in ('skipped', 'unsupported') and not msg:
        return ['%s: %s without a reason' % (c['id'], st)]
    if b == 'cpu' and not (st == 'unsupported' and 'bhost.kernel.' in msg):
        return ['%s: expected unsupported naming the kernel on cpu, got %s: %s'
                % (c['id'], st, msg)]
    if st == 'ok':
        m = c.get('metrics', {}).get('verify.err_to_tol')
        if not m:
            return ['%s: ok without verify.err_to_tol' % c['id']]
        if not max(m['values']) <= 1.0:
            return ['%s: err/tol %g > 1' % (c['id'], max(m['values']))]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    ap.add_argument('--require-if', action='append', default=[])
    a = ap.parse_args()
    required = [spec.partition('=')[0] for spec in a.require_if
                if glob.glob(spec.partition('=')[2])]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        p = subprocess.run([a.bhost, 'run', a.config, '--out', out, '--quiet'],
                           capture_output=True, text=True, timeout=600)
        if not os.path.exists(out):
            print('no result (rc %d): %s' % (p.returncode, p.stderr[-3000:]))
            return 1
        with open(out) as f:
            doc = json.load(f)
    errors, ok = [], {}
    for c in doc['cases']:
        errors += check_case(c, required)
        if c['status'] == 'ok':
            ok[backend_of(c)] = ok.get(backend_of(c), 0) + 1
        print('%-90s %s %s' % (c['id'], c['status'], c.get('message', '')[:80]))
    for b in required:
        if not ok.get(b):
            errors.append('%s: required but no case ran ok' % b)
    for e in errors:
        print(e)
    print('%d cases, ok per backend %s, %d problems' % (len(doc['cases']), ok, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
