#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads
bhost's Google Benchmark JSON: two exports, a baseline and a candidate with
every 3rd case 50% slower, compared; the tool's JSON dump must carry our
run medians as its real_time values, report the injected slowdown for the
slowed cases and run its U test on the 10 repetitions. Skipped (exit 77)
when compare.py or its Python dependencies (scipy) are missing."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402

CANDIDATES = ["/usr/share/benchmark/compare.py", "/usr/share/benchmark/tools/compare.py"]


def find_compare():
    for c in CANDIDATES:
        if os.path.exists(c):
            return c
    p = subprocess.run(["dpkg", "-L", "libbenchmark-tools"], capture_output=True, text=True)
    for ln in p.stdout.splitlines():
        if ln.endswith("/compare.py"):
            return ln
    return None


def main():
    script = find_compare()
    if not script:
        print("SKIP: Google Benchmark's compare.py not found (Debian package "
              "libbenchmark-tools)")
        sys.exit(rt.SKIP)
    py = rt.python_with("scipy")
    if not py:
        print("SKIP: compare.py needs scipy (Debian package python3-scipy)")
        sys.exit(rt.SKIP)
    d = rt.tmpdir()
    try:
        base, cand = os.path.join(d, "base.json"), os.path.join(d, "cand.json")
        rt.gen("--cases", "18", "--failures", "--seed", "3", "--out", base)
        rt.gen("--cases", "18", "--failures", "--seed", "4", "--slow-every", "3",
               "--slow-factor", "1.5", "--out", cand)
        gb = {}
        for name, path in (("base", base), ("cand", cand)):
            gb[name] = os.path.join(d, name + ".gbench.json")
            rt.run(["report", path, "--gbench", gb[name]], check_rc=0)
            with open(path) as f:
                rt.check_gbench(json.load(f), gb[name])
        dump = os.path.join(d, "diff.json")
        p = subprocess.run([py, script, "--no-color", "-d", dump, "benchmarks", gb["base"],
                            gb["cand"]], capture_output=True, text=True,
                           cwd=os.path.dirname(script))
        assert p.returncode == 0, "compare.py failed:\n%s\n%s" % (p.stdout, p.stderr)
        print("\n".join(p.stdout.splitlines()[:12]))
        with open(dump) as f:
            diff = json.load(f)
        with open(base) as f:
            bdoc = json.load(f)
        with open(cand) as f:
            cdoc = json.load(f)
        by = {b["name"]: b for b in diff}
        checked = 0
        for i, (bc, cc) in enumerate(zip(bdoc["cases"], cdoc["cases"])):
            if bc["status"] != "ok":
                continue
            entry = by[bc["id"]]
            bruns, cruns = rt.ok_runs(bc), rt.ok_runs(cc)
            assert len(entry["measurements"]) == min(len(bruns), len(cruns))
            for m, (bm, _, _), (cm, _, _) in zip(entry["measurements"], bruns, cruns):
                rt.close(m["real_time"], bm, bc["id"] + " baseline real_time")
                rt.close(m["real_time_other"], cm, bc["id"] + " candidate real_time")
            # the U test ran on the repetitions
            assert entry["utest"] and entry["utest"]["nr_of_repetitions"] == len(bruns)
            # the median aggregate's change: about +50% for the slowed cases
            agg = by[bc["id"] + "_median"]["measurements"][0]["time"]
            if i % 3 == 0:
                assert 0.35 < agg < 0.65, (bc["id"], agg)
                assert entry["utest"]["time_pvalue"] < 0.01, entry["utest"]
            else:
                assert abs(agg) < 0.2, (bc["id"], agg)
            checked += 1
        assert checked >= 10
        print("compare.py read %d cases; slowdowns found where injected" % checked)
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
