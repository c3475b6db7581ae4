#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs benchmarks of one plugin through the real host and checks statuses.

Usage: run_case.py --bhost BHOST --plugin-dir DIR --plugin NAME
                   [--backend NAME] --expect BENCH=STATUS[:TEXT] ...

Writes a small config (1 run x 3 short samples) naming PLUGIN on plugin_path
DIR, runs `BHOST run CONFIG --out RESULT --quiet`, and checks that each
expected benchmark ended with STATUS, that its message contains TEXT when
given, that an ok case has samples in every run, and that the exit status
is 0 when every expected status is ok/skipped/unsupported and 1 otherwise.
Prints one line per mismatch and exits 1 if there is any.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PASSING = {'ok', 'skipped', 'unsupported'}


def parse_expect(text):
    """'bench=status[:text]' -> (bench, status, text or None)."""
    bench, _, rest = text.partition('=')
    status, _, needle = rest.partition(':')
    if not bench or not status:
        raise SystemExit('run_case: --expect wants BENCH=STATUS[:TEXT], got '
                         + text)
    return bench, status, needle or None


def write_config(path, args, benches):
    """Writes the config running only the expected benchmarks."""
    lines = [
        'schema: 1',
        'name: abi_run_case',
        'plugin_path: [%s]' % json.dumps(os.path.abspath(args.plugin_dir)),
        'defaults: {warmup: 1ms, sample_time: 1ms, samples: 3, runs: 1, '
        'timeout: 30s, seed: 7}',
    ]
    if args.backend:
        lines.append('backends: {%s: {required: true}}' % args.backend)
    lines += [
        'suites:',
        '  - plugin: %s' % args.plugin,
        '    include: [%s]' % ', '.join(json.dumps(b) for b in benches),
    ]
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def case_message(case):
    """The case's message, or the first run message."""
    if case.get('message'):
        return case['message']
    for run in case.get('runs') or []:
        if run.get('message'):
            return run['message']
    return ''


def check_case(case, status, needle):
    """Returns a list of problems with one case."""
    problems = []
    cid = case.get('id', '?')
    if case.get('status') != status:
        problems.append('%s: status %s, expected %s (message: %s)' %
                        (cid, case.get('status'), status, case_message(case)))
    if needle and needle not in case_message(case):
        problems.append('%s: message %r lacks %r' %
                        (cid, case_message(case), needle))
    if status == 'ok':
        runs = case.get('runs') or []
        if not runs or any(not r.get('samples') for r in runs):
            problems.append('%s: ok but a run has no samples' % cid)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--bhost', required=True)
    ap.add_argument('--plugin-dir', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--backend')
    ap.add_argument('--expect', action='append', required=True)
    args = ap.parse_args()
    expects = [parse_expect(e) for e in args.expect]
    with tempfile.TemporaryDirectory(prefix='bhost-abi-') as tmp:
        cfg = os.path.join(tmp, 'case.yaml')
        out = os.path.join(tmp, 'result.json')
        write_config(cfg, args, [b for b, _, _ in expects])
        proc = subprocess.run([args.bhost, 'run', cfg, '--out', out,
                               '--quiet'], capture_output=True, text=True,
                              check=False)
        if not os.path.exists(out):
            print('run_case: no result file; bhost exited %d: %s' %
                  (proc.returncode, proc.stderr.strip()))
            return 1
        with open(out, encoding='utf-8') as f:
            doc = json.load(f)
    problems = []
    for bench, status, needle in expects:
        cases = [c for c in doc.get('cases', [])
                 if c.get('benchmark') == bench]
        if not cases:
            problems.append('%s: no case in the result' % bench)
        for case in cases:
            problems += check_case(case, status, needle)
    want_rc = 0 if all(s in PASSING for _, s, _ in expects) else 1
    if proc.returncode != want_rc:
        problems.append('bhost run exited %d, expected %d: %s' %
                        (proc.returncode, want_rc, proc.stderr.strip()))
    for p in problems:
        print('FAIL ' + p)
    if not problems:
        print('ok   %d case(s) of %s as expected' % (len(expects),
                                                     args.plugin))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
