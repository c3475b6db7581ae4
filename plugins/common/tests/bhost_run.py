#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a config through the real host for a plugin's check script.

    from bhost_run import run_config, print_cases
    doc = run_config(bhost, config)     # the result document, or None

run_config runs `bhost run CONFIG --out FILE --quiet` in a temporary
folder (env: the environment of bhost, default this one's) and returns the
parsed result (None after printing the exit status and the tail of stderr
when no result was written). print_cases prints one line per case (id,
status, the chosen metrics' first values), then the problems and their
count, and returns the exit status for main(). host_refuses says whether
`bhost list` marks a benchmark refused by this host (a multi-rank one
before the host side of ABI 1.2); MPI_ENV is this environment plus Open
MPI's permission to run as root, for multi-rank configs.
"""
import json
import os
import subprocess
import tempfile


MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1',
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')


def run_config(bhost, config, timeout=580, env=None):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        p = subprocess.run([bhost, 'run', config, '--out', out, '--quiet'],
                           capture_output=True, text=True, timeout=timeout,
                           env=env)
        if not os.path.exists(out):
            print('no result (rc %d): %s' % (p.returncode, p.stderr[-3000:]))
            return None
        with open(out, encoding='utf-8') as f:
            return json.load(f)


def print_cases(doc, errors, shown):
    for c in doc['cases']:
        print('%-100s %-11s %s' % (c['id'], c['status'], ' '.join(
            '%s=%.4g' % (k, v['values'][0])
            for k, v in sorted(c.get('metrics', {}).items())
            if k in shown and v['values'])))
    for e in errors:
        print(e)
    print('%d cases, %d problems' % (len(doc['cases']), len(errors)))
    return 1 if errors else 0


def host_refuses(bhost, bench):
    p = subprocess.run([bhost, 'list'], capture_output=True, text=True,
                       timeout=60, check=False)
    return any(bench in line and 'refused' in line
               for line in p.stdout.splitlines())
