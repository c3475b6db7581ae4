#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a backends config through the real host and checks that the
backend-neutral cases agree with the host reference on every backend.

Usage: check_run.py --bhost BHOST --config CFG [--require BACKEND ...]
                    [--require-if BACKEND=GLOB ...]

--require-if requires BACKEND when GLOB matches an installed file (an ICD
such as lavapipe's or PoCL's), so that CI runs it for real.

Checks, on the result document:
  - no case is failed, invalid, crashed, timeout or oom;
  - every case of a --require'd backend is ok (or unsupported: a feature
    the backend lacks, e.g. build.kernels on cpu);
  - every reported verify.err_to_tol is <= 1 (verify() already makes a
    case invalid above 1; this guards the metric itself);
  - a backend that is not available is skipped with its reason;
  - "backend_comparison" groups each operation across the backends that
    ran it.
Prints the agreement per operation and backend (worst err/tol).
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    ap.add_argument('--require', action='append', default=[])
    ap.add_argument('--require-if', action='append', default=[])
    a = ap.parse_args()
    for spec in a.require_if:
        backend, _, pattern = spec.partition('=')
        if glob.glob(pattern):
            a.require.append(backend)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        p = subprocess.run([a.bhost, 'run', a.config, '--out', out, '--quiet'],
                           capture_output=True, text=True, timeout=600)
        if not os.path.exists(out):
            print('no result (rc %d): %s' % (p.returncode, p.stderr[-3000:]))
            return 1
        with open(out) as f:
            doc = json.load(f)
    errors = []
    ran = {}
    for c in doc['cases']:
        b = backend_of(c)
        st = c['status']
        if st in BAD:
            errors.append('%s: %s: %s' % (c['id'], st, c.get('message', '')))
        if b in a.require and st not in ('ok', 'unsupported'):
            errors.append('%s: %s on a required backend: %s' %
                          (c['id'], st, c.get('message', '')))
        if st == 'skipped' and not c.get('message'):
            errors.append('%s: skipped without a reason' % c['id'])
        m = c.get('metrics', {}).get('verify.err_to_tol')
        if m:
            worst = max(m['values'])
            op = c['id'].rsplit('@', 1)[0]
            ran.setdefault(op, {})[b] = worst
            if not worst <= 1.0:
                errors.append('%s: err/tol %g > 1' % (c['id'], worst))
    groups = {g['op']: g for g in doc.get('backend_comparison', [])}
    for op, per in sorted(ran.items()):
        if op not in groups:
            errors.append('%s: missing from backend_comparison' % op)
        print('%-60s %s' % (op, '  '.join('%s %.3g' % kv
                                           for kv in sorted(per.items()))))
        for b in a.require:
            if b not in per:
                errors.append('%s: no agreement figure from %s' % (op, b))
    for e in errors:
        print(e)
    print('%d cases, %d problems' % (len(doc['cases']), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
