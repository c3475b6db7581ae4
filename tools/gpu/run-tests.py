#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a meson build's tests from its tests.json (meson introspect --tests,
written by tools/gpu/pack.sh) on a machine without meson, or with a meson
that cannot read that build folder.

    run-tests.py BUILD_DIR [--suite NAME]

Each test runs in its workdir (the build folder when none), with its
environment added to ours and its timeout; a missing interpreter in cmd[0]
is replaced by this one, and a test whose program is not installed here
(spirv-val, say) is skipped. Prints one line per test, then a tally; exits 1
when any test failed (exit status other than 0 or 77, the skip status)."""
import argparse
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("--suite", default=None)
    a = ap.parse_args()
    build = os.path.abspath(a.build_dir)
    with open(os.path.join(build, "tests.json")) as f:
        tests = json.load(f)
    tally = {"OK": 0, "SKIP": 0, "FAIL": 0, "TIMEOUT": 0}
    for t in tests:
        suites = [s.split(":")[-1] for s in t["suite"]]
        if a.suite and a.suite not in suites:
            continue
        cmd = list(t["cmd"])
        if not os.path.exists(cmd[0]) and cmd[0].endswith("python3"):
            cmd[0] = sys.executable
        env = dict(os.environ)
        env.update(t.get("env") or {})
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=t.get("workdir") or build, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=t.get("timeout") or 30)
            rc = p.returncode
            out = p.stdout.decode(errors="replace")
            verdict = "OK" if rc == 0 else "SKIP" if rc == 77 else "FAIL"
            if t.get("should_fail"):
                verdict = "OK" if rc not in (0, 77) else "FAIL"
        except subprocess.TimeoutExpired as e:
            verdict, rc = "TIMEOUT", None
            out = (e.stdout or b"").decode(errors="replace")
        except FileNotFoundError:
            verdict, rc, out = "SKIP", None, ""
            print(f"        {t['name']}: {cmd[0]} is not installed here")
        tally[verdict] += 1
        print(f"{verdict:7} {t['name']:40} {time.monotonic() - start:6.1f}s rc={rc}")
        if verdict in ("FAIL", "TIMEOUT"):
            print("\n".join("    | " + l for l in out.splitlines()[-30:]))
        sys.stdout.flush()
    print(" ".join(f"{k}: {v}" for k, v in tally.items()))
    return 1 if tally["FAIL"] or tally["TIMEOUT"] else 0


if __name__ == "__main__":
    sys.exit(main())
