#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Exact counts through an import (issue 26's target): a Google Benchmark
file of 1,000 benchmarks x 5 repetitions and a pyperf file of 200
benchmarks x 20 runs x 3 values; every repetition is a run, every value a
sample, none lost or added, each with its iterations and time."""
import json
import os
import subprocess
import sys

import imp_common as ic
from imp_common import rt


def gen(*args):
    subprocess.run([sys.executable, os.path.join(ic.HERE, "gen_large.py")] + list(args),
                   check=True)


def main():
    d = rt.tmpdir()
    try:
        gb = os.path.join(d, "gb.json")
        gen("gbench", "1000", "5", gb)
        with open(gb) as f:
            src = json.load(f)
        _, doc = ic.import_into(d, "gbench", [gb])
        reps = [b for b in src["benchmarks"] if b["run_type"] == "iteration"]
        assert len(doc["cases"]) == 1000
        assert sum(len(c["runs"]) for c in doc["cases"]) == len(reps) == 5000
        flat = [(r["samples"][0], c["id"]) for c in doc["cases"] for r in c["runs"]]
        assert len(flat) == 5000
        for ((it, ns), cid), b in zip(flat, reps):
            assert cid == b["run_name"] and it == b["iterations"]
            assert ic.close(ns / it, b["real_time"])
        print("gbench: 1000 cases, 5000 runs, 5000 samples")

        pp = os.path.join(d, "pp.json")
        gen("pyperf", "200", "20", "3", pp)
        with open(pp) as f:
            src = json.load(f)
        _, doc = ic.import_into(d, "pyperf", [pp])
        assert len(doc["cases"]) == 200
        n = 0
        for c, b in zip(doc["cases"], src["benchmarks"]):
            timed = [r for r in b["runs"] if r.get("values")]
            assert len(c["runs"]) == len(timed) == 20
            for r, s in zip(c["runs"], timed):
                assert len(r["samples"]) == len(s["values"]) == 3
                for (it, ns), v in zip(r["samples"], s["values"]):
                    assert it == 64 and ic.close(ns / it, v * 1e9)
                    n += 1
            assert c["summary"]["n"] == 60 and c["summary"]["runs"] == 20
        assert n == 12000
        print("pyperf: 200 cases, 4000 runs, 12000 samples")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
