#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes large import inputs in the shapes the tools write:

    gen_large.py gbench N REPS OUT     Google Benchmark JSON: N benchmarks,
                                       REPS repetitions each plus their
                                       mean/median/stddev/cv aggregates
    gen_large.py pyperf N RUNS VALUES OUT
                                       pyperf JSON: N benchmarks of RUNS
                                       worker runs (plus a calibration run)
                                       of VALUES values and one warmup

Values are drawn from a seeded generator. Used by test_counts.py and
tools/bench-import.sh (which can also use a real libbenchmark program,
tools/import/gb_many.cc)."""
import json
import random
import statistics
import sys


def gbench(n, reps, out):
    rnd = random.Random(1)
    ctx = {"date": "2026-11-27T10:00:00+00:00", "host_name": "genhost", "executable": "./gen",
           "num_cpus": 8, "mhz_per_cpu": 3000, "cpu_scaling_enabled": False,
           "caches": [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 1},
                      {"type": "Unified", "level": 2, "size": 1048576, "num_sharing": 1}],
           "load_avg": [0.1, 0.2, 0.3], "library_build_type": "release"}
    bms = []
    for i in range(n):
        name = "BM_gen/%d" % i
        base = 10.0 + i
        times = []
        for r in range(reps):
            t = base * (1 + rnd.gauss(0, 0.02))
            times.append(t)
            bms.append({"name": name, "family_index": i, "per_family_instance_index": 0,
                        "run_name": name, "run_type": "iteration", "repetitions": reps,
                        "repetition_index": r, "threads": 1,
                        "iterations": rnd.randint(1000, 100000), "real_time": t,
                        "cpu_time": t * 0.99, "time_unit": "ns"})
        m = statistics.mean(times)
        sd = statistics.stdev(times) if reps > 1 else 0.0
        for agg, v, unit in (("mean", m, "time"), ("median", statistics.median(times), "time"),
                             ("stddev", sd, "time"), ("cv", sd / m, "percentage")):
            bms.append({"name": name + "_" + agg, "family_index": i,
                        "per_family_instance_index": 0, "run_name": name,
                        "run_type": "aggregate", "repetitions": reps, "threads": 1,
                        "aggregate_name": agg, "aggregate_unit": unit, "iterations": reps,
                        "real_time": v, "cpu_time": v, "time_unit": "ns"})
    with open(out, "w") as f:
        json.dump({"context": ctx, "benchmarks": bms}, f, indent=2)


def pyperf(n, runs, values, out):
    rnd = random.Random(2)
    benches = []
    for i in range(n):
        base = 1e-6 * (1 + i / 100)
        rs = [{"metadata": {"calibrate_loops": 64}, "warmups": [[1, base], [64, base]]}]
        for _ in range(runs):
            rs.append({"metadata": {"date": "2026-11-27 10:00:00.000000", "duration": 0.5},
                       "warmups": [[64, base * 1.1]],
                       "values": [base * (1 + rnd.gauss(0, 0.01)) for _ in range(values)]})
        benches.append({"metadata": {"loops": 64, "name": "bench_%d" % i}, "runs": rs})
    with open(out, "w") as f:
        json.dump({"benchmarks": benches, "metadata": {"hostname": "genhost", "cpu_count": 8,
                   "unit": "second"}, "version": "1.0"}, f, separators=(",", ":"))


def main(argv):
    if len(argv) == 5 and argv[1] == "gbench":
        gbench(int(argv[2]), int(argv[3]), argv[4])
    elif len(argv) == 6 and argv[1] == "pyperf":
        pyperf(int(argv[2]), int(argv[3]), int(argv[4]), argv[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
