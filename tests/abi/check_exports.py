#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails unless every plugin given exports exactly one dynamic symbol.

Usage: check_exports.py [--symbol NAME] PLUGIN.so...

Each file must define exactly NAME (default bhost_entry_v1) in its dynamic
symbol table, as a data object, and nothing else. Prints one line per
offending file and exits 1 if any file fails, 0 otherwise.
"""
import argparse
import shutil
import subprocess
import sys


def defined_dynamic_symbols(path, nm):
    """Returns [(type letter, name)] of the defined dynamic symbols of path."""
    out = subprocess.run([nm, '-D', '--defined-only', path],
                         check=True, capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            symbols.append((fields[1], fields[2]))
        elif len(fields) == 2:
            symbols.append((fields[0], fields[1]))
    return symbols


def check(path, symbol, nm):
    """Returns None if path exports exactly symbol as data, else why not."""
    try:
        symbols = defined_dynamic_symbols(path, nm)
    except subprocess.CalledProcessError as err:
        return 'nm failed: ' + err.stderr.strip()
    names = sorted(name for _, name in symbols)
    if names != [symbol]:
        return 'exports %s, expected exactly [%s]' % (names or 'nothing',
                                                       symbol)
    kind = symbols[0][0]
    if kind not in ('D', 'R', 'B'):
        return '%s has nm type %s, expected a data object' % (symbol, kind)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--symbol', default='bhost_entry_v1')
    parser.add_argument('plugins', nargs='+')
    args = parser.parse_args()
    nm = shutil.which('nm')
    if nm is None:
        print('check_exports: nm not found in PATH', file=sys.stderr)
        return 1
    failed = 0
    for path in args.plugins:
        why = check(path, args.symbol, nm)
        if why is None:
            print('ok   %s' % path)
        else:
            print('FAIL %s: %s' % (path, why))
            failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
