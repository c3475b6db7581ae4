#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes N synthetic "bhost.result/1" files, one per night, for timing and
trying `bhost history` (tools/eval-history.sh).

Each file has the shape `bhost run` writes (run metadata, a small system
object, per case: settings, runs with raw [iters, ns] samples, summary),
with lognormal noise (seeded) around a per-case level. Case 0 gets a +10%
step at 70% of the nights, case 1 a -5% step at 40%, the rest are flat.

    tools/gen-history-results.py --out /tmp/hist --files 1000
"""
import argparse
import datetime
import json
import math
import os
import random


def case_doc(rng, cid, level, cv, runs, samples):
    sigma = math.sqrt(math.log1p(cv * cv))
    iters = max(1, int(1e6 / level))
    rdocs, allv = [], []
    for r in range(runs):
        run_level = level * math.exp(sigma * 0.5 * rng.gauss(0, 1))
        smp = []
        for _ in range(samples):
            v = run_level * math.exp(sigma * rng.gauss(0, 1))
            smp.append([iters, round(v * iters)])
            allv.append(v)
        rdocs.append({"index": r, "status": "ok", "samples": smp, "timing": "host",
                      "iters_per_sample": iters, "warmup_samples": 3,
                      "timer_resolution_ns": 20, "timer_overhead_ns": 26.6,
                      "budget_exhausted": False, "peak_rss_kb": 5556})
    allv.sort()
    n = len(allv)
    mean = sum(allv) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in allv) / (n - 1))
    summary = {"unit": "ns/iter", "n": n, "runs": runs, "min": allv[0], "max": allv[-1],
               "mean": mean, "sd": sd, "cv": sd / mean, "median": allv[n // 2],
               "q1": allv[n // 4], "q3": allv[3 * n // 4]}
    return {"id": cid, "plugin": "synthetic", "benchmark": cid.split("/")[1],
            "params": {}, "status": "ok",
            "settings": {"samples": samples, "runs": runs}, "runs": rdocs,
            "summary": summary, "throughput": {}, "memory": {}, "metrics": [],
            "verdict": None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="results root (files go to OUT/CONFIG/)")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--cv", type=float, default=0.02, help="per-sample CV (fraction)")
    ap.add_argument("--config", default="nightly")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    d = os.path.join(a.out, a.config)
    os.makedirs(d, exist_ok=True)
    start = datetime.datetime(2024, 1, 1, 2, 0, 0)
    levels = [10.0 * (1.7 ** (i % 12)) for i in range(a.cases)]
    for f in range(a.files):
        when = start + datetime.timedelta(days=f)
        cases = []
        for i in range(a.cases):
            level = levels[i]
            if i == 0 and f >= int(0.7 * a.files):
                level *= 1.10
            if i == 1 and f >= int(0.4 * a.files):
                level *= 0.95
            cases.append(case_doc(rng, "synthetic/case%02d" % i, level, a.cv, a.runs,
                                  a.samples))
        doc = {"schema": "bhost.result/1",
               "run": {"config": {"path": "configs/%s.yaml" % a.config, "name": a.config,
                                  "hash": "0" * 64},
                       "command_line": ["run", "configs/%s.yaml" % a.config],
                       "host_version": "0.1.0", "seed": "0x2a",
                       "started_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "finished_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "duration_s": 60.0, "complete": True, "plugins": []},
               "system": {"cpu": {"model": "synthetic"}},
               "cases": cases}
        name = when.strftime("%Y%m%dT%H%M%SZ") + "-synthetic.json"
        with open(os.path.join(d, name), "w") as fh:
            json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()
