#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `bhost check-plugin` on one plugin and checks its report.

Usage: check_plugin_test.py --bhost BHOST PLUGIN [--backend NAME]
           [--timeout SECS] --exit N [--all-pass] [--fail ID[:TEXT]]...
           [--warn ID[:TEXT]]... [--pass ID]... [--text]

Runs the real binary with --json and checks: the exit status is N; the
document's counts match its check lines; every --fail/--warn/--pass ID has
a line with that result (whose reason contains TEXT when given); with
--all-pass every line is PASS; without it, no FAIL line is unexpected
(each FAIL must be named by a --fail). With --text it also runs the text
report and checks that it has exactly one line per check plus the header
and summary, each starting with PASS, FAIL or WARN. Exits 1 on any
mismatch, printing why.
"""
import argparse
import json
import subprocess
import sys


def split_spec(spec):
    """'id:text' -> (id, text or None); ids never contain ':'."""
    cid, _, text = spec.partition(':')
    return cid, text or None


def run(args, extra):
    cmd = [args.bhost, 'check-plugin', args.plugin] + extra
    if args.backend:
        cmd += ['--backend', args.backend]
    if args.timeout:
        cmd += ['--timeout', str(args.timeout)]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def check_json(args, problems):
    """Checks the --json report; returns its check list."""
    proc = run(args, ['--json'])
    if proc.returncode != args.exit:
        problems.append('exit status %d, expected %d; stderr: %s' %
                        (proc.returncode, args.exit, proc.stderr.strip()))
    try:
        doc = json.loads(proc.stdout)
    except ValueError as err:
        problems.append('--json output is not JSON: %s' % err)
        return []
    checks = doc.get('checks', [])
    counts = {r: sum(1 for c in checks if c['result'] == r)
              for r in ('PASS', 'FAIL', 'WARN')}
    if (counts['PASS'], counts['FAIL'], counts['WARN']) != (
            doc.get('passed'), doc.get('failed'), doc.get('warnings')):
        problems.append('counts %s disagree with the lines' % counts)
    if doc.get('ok') != (counts['FAIL'] == 0):
        problems.append('"ok" is %s with %d FAIL lines' %
                        (doc.get('ok'), counts['FAIL']))
    for result, specs in (('FAIL', args.fail), ('WARN', args.warn),
                          ('PASS', args.passes)):
        for spec in specs:
            cid, text = split_spec(spec)
            hits = [c for c in checks if c['id'] == cid and
                    c['result'] == result and
                    (text is None or text in c['reason'])]
            if not hits:
                got = [(c['result'], c['reason']) for c in checks
                       if c['id'] == cid]
                problems.append('no %s line %s%s; got %s' %
                                (result, cid,
                                 ' containing %r' % text if text else '',
                                 got or 'no line with that id'))
    named = {split_spec(s)[0] for s in args.fail}
    for c in checks:
        if args.all_pass and c['result'] != 'PASS':
            problems.append('not PASS: %s %s: %s' %
                            (c['result'], c['id'], c['reason']))
        elif c['result'] == 'FAIL' and c['id'] not in named:
            problems.append('unexpected FAIL %s: %s' % (c['id'], c['reason']))
    return checks


def check_text(args, checks, problems):
    """Checks the text report's shape against the JSON one."""
    proc = run(args, [])
    lines = proc.stdout.splitlines()
    if proc.returncode != args.exit:
        problems.append('text mode exit status %d, expected %d' %
                        (proc.returncode, args.exit))
    if len(lines) != len(checks) + 2:
        problems.append('text report has %d lines for %d checks (expected '
                        'one per check plus header and summary)' %
                        (len(lines), len(checks)))
        return
    if not lines[0].startswith('checking '):
        problems.append('text report header: %r' % lines[0])
    for line in lines[1:-1]:
        if line.split(' ', 1)[0] not in ('PASS', 'FAIL', 'WARN'):
            problems.append('text line without a result: %r' % line)
    if '%d checks' % len(checks) not in lines[-1]:
        problems.append('summary line: %r' % lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--bhost', required=True)
    ap.add_argument('plugin')
    ap.add_argument('--backend')
    ap.add_argument('--timeout', type=int)
    ap.add_argument('--exit', type=int, required=True)
    ap.add_argument('--all-pass', action='store_true')
    ap.add_argument('--fail', action='append', default=[])
    ap.add_argument('--warn', action='append', default=[])
    ap.add_argument('--pass', dest='passes', action='append', default=[])
    ap.add_argument('--text', action='store_true')
    args = ap.parse_args()
    problems = []
    checks = check_json(args, problems)
    if args.text and checks:
        check_text(args, checks, problems)
    for p in problems:
        print('FAIL ' + p)
    if not problems:
        print('ok   %s: %d checks as expected' % (args.plugin, len(checks)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
