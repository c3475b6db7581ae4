#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs wasm-ci.yaml through the real host and checks the result document.

Usage: check_run.py --bhost BHOST --config CFG

Checks:
  - the oob cases fail (status "failed", not crashed) with wabt's
    out-of-bounds trap message; every other case is ok or skipped with a
    reason (native has no guard build; webgpu needs a vulkan device, and
    runs when lavapipe's ICD is installed);
  - every kernel case reports ratio_to_native and verify.err_to_tol <= 1;
    wasm-cpu is bit-identical to native for every kernel, wasm-simd for
    axpy, sgemm and qmatmul;
  - mobile.thermal: the throttle timeline hash is the same in every run
    (separate worker processes), and phone-big at f32 throttles;
  - mem.ceiling: growth past the ceiling refused, the end traps;
  - mobile.adapt reports its choice.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

LVP_ICD = '/usr/share/vulkan/icd.d/lvp_icd*.json'


def values(case, name):
    return case.get('metrics', {}).get(name, {}).get('values', [])


def check_case(c, errors):
    cid, st, msg = c['id'], c['status'], c.get('message', '')
    bench, params = c.get('benchmark', ''), c.get('params', {})
    if params.get('oob'):
        if st != 'failed' or 'Out-of-bounds access' not in msg:
            errors.append('%s: expected a failed trap, got %s: %s'
                          % (cid, st, msg))
        return
    if st == 'skipped':
        if not msg:
            errors.append('%s: skipped without a reason' % cid)
        elif bench.startswith('webgpu.') and glob.glob(LVP_ICD):
            errors.append('%s: skipped although lavapipe is installed: %s'
                          % (cid, msg))
        return
    if st != 'ok':
        errors.append('%s: %s: %s' % (cid, st, msg))
        return
    if bench.startswith(('kernel.', 'webgpu.')):
        if not values(c, 'ratio_to_native'):
            errors.append('%s: no ratio_to_native' % cid)
        worst = values(c, 'verify.err_to_tol')
        if not worst or max(worst) > 1.0:
            errors.append('%s: err/tol %s' % (cid, worst))
        exact = values(c, 'verify.bit_exact')
        mode = params.get('mode')
        must = mode == 'wasm-cpu' or (mode == 'wasm-simd' and bench in (
            'kernel.axpy', 'kernel.sgemm', 'kernel.qmatmul'))
        if must and (not exact or min(exact) != 1):
            errors.append('%s: not bit-identical to native' % cid)
    if bench == 'mobile.thermal':
        hashes = values(c, 'thermal.timeline_hash')
        if len(hashes) < 2 or len(set(hashes)) != 1:
            errors.append('%s: timeline differs across runs: %s'
                          % (cid, hashes))
        if params.get('profile') == 'phone-big' and \
                values(c, 'thermal.throttled') != [1] * len(hashes):
            errors.append('%s: phone-big did not throttle' % cid)
    if bench == 'mem.ceiling':
        for m in ('ceiling.grow_refused', 'ceiling.trap_past_end'):
            if not values(c, m) or min(values(c, m)) != 1:
                errors.append('%s: %s is %s' % (cid, m, values(c, m)))
    if bench == 'mobile.adapt' and not values(c, 'adapt.level'):
        errors.append('%s: no adapt.level' % cid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        p = subprocess.run([a.bhost, 'run', a.config, '--out', out, '--quiet'],
                           capture_output=True, text=True, timeout=580)
        if not os.path.exists(out):
            print('no result (rc %d): %s' % (p.returncode, p.stderr[-3000:]))
            return 1
        with open(out, encoding='utf-8') as f:
            doc = json.load(f)
    errors = []
    for c in doc['cases']:
        check_case(c, errors)
        print('%-90s %-8s %s' % (c['id'], c['status'],
                                 ' '.join('%s=%.4g' % (k, v['values'][0])
                                          for k, v in sorted(
                                              c.get('metrics', {}).items())
                                          if k in ('ratio_to_native',
                                                   'thermal.timeline_hash')
                                          and v['values'])))
    for e in errors:
        print(e)
    print('%d cases, %d problems' % (len(doc['cases']), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
