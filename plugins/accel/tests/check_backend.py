#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Conformance of one hardware backend through `bhost check-plugin --json`.

Usage: check_backend.py --bhost BHOST --plugin backend-X.so
           [--device-if GLOB ...] [--no-device-reason TEXT]

Fails on any FAIL line. When device_count finds a device, every device
check (open, copies, bounds, map, streams, events, the three kernels)
must PASS. When it finds none, the reason must be there (and contain
TEXT when given), unless a --device-if GLOB matches an installed file
(an ICD such as lavapipe's or PoCL's): then a device is required, so
that CI runs the backend for real instead of passing on "no device".
"""
import argparse
import glob
import json
import subprocess
import sys

DEVICE_CHECKS = ['backend.open', 'backend.alloc', 'backend.copy_h2d_d2h',
                 'backend.copy_d2d', 'backend.copy_bounds', 'backend.map',
                 'backend.stream', 'backend.events', 'backend.kernel.gemm',
                 'backend.kernel.axpy', 'backend.kernel.reduce',
                 'backend.close']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--device-if', action='append', default=[])
    ap.add_argument('--no-device-reason', default='')
    a = ap.parse_args()
    p = subprocess.run([a.bhost, 'check-plugin', a.plugin, '--json'],
                       capture_output=True, text=True, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        print('check-plugin gave no JSON (rc %d): %s' % (p.returncode,
                                                         p.stderr[-2000:]))
        return 1
    checks = {c['id']: c for c in doc['checks']}
    bad = [c for c in doc['checks'] if c['result'] == 'FAIL']
    for c in bad:
        print('FAIL %s: %s' % (c['id'], c['reason']))
    count = checks.get('backend.device_count')
    if count is None:
        print('no backend.device_count check: not a backend?')
        return 1
    if count['result'] == 'PASS':
        missing = [i for i in DEVICE_CHECKS
                   if checks.get(i, {}).get('result') != 'PASS']
        for i in missing:
            print('device check %s: %s' % (i, checks.get(i, {'reason': 'absent'})
                                            .get('result', 'absent')))
        print('%s: %s; %d checks, %d failed' % (a.plugin, count['reason'],
                                                len(checks), len(bad)))
        return 1 if bad or missing else 0
    installed = [f for g in a.device_if for f in glob.glob(g)]
    print('%s: no device: %s' % (a.plugin, count['reason']))
    if installed:
        print('but %s is installed: this backend must find a device' %
              installed[0])
        return 1
    if a.no_device_reason not in count['reason']:
        print('the reason does not mention %r' % a.no_device_reason)
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
