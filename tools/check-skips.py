#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that a run skipped only what this machine's hardware cannot run.

    tools/check-skips.py RESULT.json...

A case may be skipped only because a backend found no device here
("skip_cause": "no-device", set by bhost when a backend plugin loaded and
described itself with zero devices); it may be unsupported when a device
lacks a capability. Any other skip -- a plugin that was not built, a
vocabulary or model file that is missing, a plugin's own skip -- means the
set-up left something out, and fails the check with one line per reason.

Exit status: 0 every skip is an absent device; 1 some are not; 2 a file
that cannot be read as a bhost result.
"""
import json
import sys


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    bad = {}
    counts = {"ok": 0, "no-device": 0, "unsupported": 0}
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            cases = doc["cases"]
            if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
                raise TypeError("'cases' is not an array of objects")
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("check-skips: %s: not a bhost result (%s)" % (path, e), file=sys.stderr)
            return 2
        for c in cases:
            status = c.get("status")
            if status == "unsupported":
                counts["unsupported"] += 1
            elif status == "skipped" and c.get("skip_cause") == "no-device":
                counts["no-device"] += 1
            elif status == "skipped":
                key = (c.get("skip_cause") or "unknown", c.get("message", ""))
                bad.setdefault(key, []).append(c.get("id", "?"))
            else:
                counts["ok"] += 1
    for (cause, msg), ids in bad.items():
        print("check-skips: %d skipped (%s), e.g. %s: %s" % (len(ids), cause, ids[0], msg),
              file=sys.stderr)
    n_bad = sum(len(v) for v in bad.values())
    print("check-skips: %d run or failed, %d skipped for an absent device, %d unsupported, "
          "%d skipped for anything else" % (counts["ok"], counts["no-device"],
                                            counts["unsupported"], n_bad))
    return 1 if n_bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
