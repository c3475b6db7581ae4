#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs memory-ci.yaml through the real host and checks the result document.

Usage: check_run.py --bhost BHOST --config CFG

Checks:
  - every allocator case is ok, except: an allocator whose library is not
    installed is skipped naming its Debian package; jemalloc is
    unsupported naming GLIBC_TUNABLES when the environment chose glibc's
    default static TLS reserve (512 bytes; bhost reserves 16 KiB for its
    workers otherwise); the pool on a trace is skipped (one size only);
  - the case pointing at a missing library file is skipped naming
    libmimalloc2.0;
  - the loaded allocators report allocator.version > 0;
  - frag.replay reports frag.ratio > 0, peak live bytes and checked bytes;
  - touch.first is ok (thp: or unsupported naming transparent huge pages)
    and reports touch.huge_fraction;
  - accel's device and pinned alloc.latency on the CPU backend are ok.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'common', 'tests'))
from bhost_run import print_cases, run_config  # noqa: E402

LIBS = {'jemalloc': ('libjemalloc.so.2', 'libjemalloc2'),
        'mimalloc': ('libmimalloc.so.2', 'libmimalloc2.0'),
        'tcmalloc': ('libtcmalloc.so.4', 'libgoogle-perftools4')}
LIBDIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu',
           '/usr/lib', '/lib/x86_64-linux-gnu']


def installed(soname):
    return any(os.path.exists(os.path.join(d, soname)) for d in LIBDIRS)


def values(case, name):
    return case.get('metrics', {}).get(name, {}).get('values', [])


def expected_skip(c):
    """The reason text a not-ok allocator case must carry, or None."""
    params, bench = c.get('params', {}), c.get('benchmark', '')
    alloc = params.get('allocator')
    if params.get('library'):
        return 'libmimalloc2.0'
    if bench == 'frag.replay' and alloc == 'pool':
        return 'one size'
    if alloc in LIBS and not installed(LIBS[alloc][0]):
        return LIBS[alloc][1]
    if alloc == 'jemalloc' and 'optional_static_tls=512' in \
            os.environ.get('GLIBC_TUNABLES', ''):
        return 'GLIBC_TUNABLES'
    return None


def check_memory_case(c, errors):
    cid, st, msg = c['id'], c['status'], c.get('message', '')
    bench, params = c['benchmark'], c.get('params', {})
    why = expected_skip(c) if bench != 'touch.first' else None
    if bench == 'touch.first' and params.get('page') == 'thp' and \
            st == 'unsupported' and 'transparent huge pages' in msg:
        return
    if why is not None:
        if st not in ('skipped', 'unsupported') or why not in msg:
            errors.append('%s: expected not run naming %s, got %s: %s'
                          % (cid, why, st, msg))
        return
    if st != 'ok':
        errors.append('%s: %s: %s' % (cid, st, msg))
        return
    if bench.startswith('alloc.') and params['allocator'] in LIBS and \
            min(values(c, 'allocator.version') or [0]) <= 0:
        errors.append('%s: no allocator.version' % cid)
    if bench == 'frag.replay':
        for m in ('frag.ratio', 'frag.peak_live', 'verify.bytes_checked'):
            if not values(c, m) or min(values(c, m)) <= 0:
                errors.append('%s: %s is %s' % (cid, m, values(c, m)))
    if bench == 'touch.first' and not values(c, 'touch.huge_fraction'):
        errors.append('%s: no touch.huge_fraction' % cid)


def check_case(c, errors):
    if c['plugin'] == 'memory':
        check_memory_case(c, errors)
    elif c['status'] != 'ok':
        errors.append('%s: %s: %s' % (c['id'], c['status'], c.get('message', '')))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--config', required=True)
    a = ap.parse_args()
    doc = run_config(a.bhost, a.config)
    if doc is None:
        return 1
    errors = []
    for c in doc['cases']:
        check_case(c, errors)
    return print_cases(doc, errors,
                       ('allocator.version', 'frag.ratio', 'touch.huge_fraction'))


if __name__ == '__main__':
    sys.exit(main())
