#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost import on each format: real Google Benchmark files (libbenchmark,
tools/import/gb_many.cc) with repetitions, aggregates only and another
time unit; a real hyperfine --export-json file with parameters and failing
exit codes; pyperf, Criterion.rs and asv files in the shapes those tools
write (data/). Every sample of the source is in the document, with its
iterations and its time in ns; summaries where the source has only
those; the source's context as the system record; run.imported."""
import json
import os

import imp_common as ic
from imp_common import rt


def load(name):
    with open(ic.data(name)) as f:
        return json.load(f)


def check_imported(doc, fmt, files):
    assert doc["schema"] == "bhost.result/1"
    assert doc["run"]["imported"] == {"format": fmt, "files": files}, doc["run"]["imported"]
    assert doc["run"]["command_line"][:3] == ["bhost", "import", fmt]
    assert len(doc["system"]["fingerprint_hash"]) == 64


def gbench(d):
    src = load("gbench_reps.json")
    path, doc = ic.import_into(d, "gbench", [ic.data("gbench_reps.json")])
    check_imported(doc, "gbench", [ic.data("gbench_reps.json")])
    assert doc["run"]["config"]["name"] == "gbench"
    assert doc["run"]["started_at"] == src["context"]["date"].replace("+00:00", "Z")
    sysrec = doc["system"]
    assert sysrec["hostname"] == src["context"]["host_name"]
    assert sysrec["cpu"]["logical_cores"] == src["context"]["num_cpus"]
    assert len(sysrec["caches"]) == len(src["context"]["caches"])
    assert sysrec["source_context"] == src["context"]
    reps = [b for b in src["benchmarks"] if b["run_type"] == "iteration"]
    got = ic.samples(doc)
    assert sorted(got) == sorted({b["run_name"] for b in reps})
    for name, runs in got.items():
        mine = [b for b in reps if b["run_name"] == name]
        assert len(runs) == len(mine) and all(len(r) == 1 for r in runs)
        for (it, ns), b in zip([r[0] for r in runs], mine):
            assert it == b["iterations"] and ic.close(ns / it, b["real_time"]), (it, ns, b)
        c = [c for c in doc["cases"] if c["id"] == name][0]
        assert c["plugin"] == "gbench" and c["benchmark"] == "BM_sum"
        assert c["params"] == {"arg0": int(name.split("/")[1])}
        assert c["summary"]["n"] == len(mine) and c["summary"]["runs"] == len(mine)
        assert len(c["metrics"]["cpu_time"]["values"]) == len(mine)
        assert c["metrics"]["cpu_time"]["kind"] == "informational"
        assert c["runs"][0]["items_per_iter"] > 0

    # aggregates only: summaries, no runs
    src = load("gbench_aggregates.json")
    _, doc = ic.import_into(d, "gbench", [ic.data("gbench_aggregates.json")])
    assert len(doc["cases"]) == 2
    for c in doc["cases"]:
        agg = {b["aggregate_name"]: b["real_time"] for b in src["benchmarks"]
               if b["run_name"] == c["id"]}
        s = c["summary"]
        assert c["runs"] == [] and c["status"] == "ok"
        assert ic.close(s["mean"], agg["mean"]) and ic.close(s["median"], agg["median"])
        assert ic.close(s["sd"], agg["stddev"]) and ic.close(s["cv"], agg["cv"])
        assert s["n"] == 4 and s["unit"] == "ns/iter"

    # --config names the config (and the folder), --quiet prints nothing
    res = os.path.join(d, "named")
    p = rt.run(["import", "gbench", ic.data("gbench_ms.json"), "--config", "mylib", "--into",
                res, "--quiet"], check_rc=0)
    assert p.stdout == "" and p.stderr == "", (p.stdout, p.stderr)
    (named,) = os.listdir(os.path.join(res, "mylib"))
    with open(os.path.join(res, "mylib", named)) as f:
        assert json.load(f)["run"]["config"]["name"] == "mylib"
    host = load("gbench_ms.json")["context"]["host_name"]
    assert named.endswith("-%s.json" % host), named  # <timestamp>-<host>.json

    # milliseconds become nanoseconds
    src = load("gbench_ms.json")
    _, doc = ic.import_into(d, "gbench", [ic.data("gbench_ms.json")])
    for c, b in zip(doc["cases"], src["benchmarks"]):
        assert b["time_unit"] == "ms"
        it, ns = c["runs"][0]["samples"][0]
        assert ic.close(ns / it, b["real_time"] * 1e6)


def pyperf(d):
    src = load("pyperf.json")
    _, doc = ic.import_into(d, "pyperf", [ic.data("pyperf.json")])
    check_imported(doc, "pyperf", [ic.data("pyperf.json")])
    assert doc["system"]["hostname"] == "pyhost"
    assert doc["system"]["cpu"]["model"] == src["metadata"]["cpu_model_name"]
    got = ic.samples(doc)
    for b in src["benchmarks"]:
        runs = got["pyperf/" + b["metadata"]["name"]]
        timed = [r for r in b["runs"] if r.get("values")]  # calibration runs left out
        assert len(runs) == len(timed)
        for mine, r in zip(runs, timed):
            loops = r["metadata"].get("loops", b["metadata"].get("loops", 1))
            loops *= b["metadata"].get("inner_loops", 1)
            assert len(mine) == len(r["values"])  # warmups left out
            for (it, ns), v in zip(mine, r["values"]):
                assert it == loops and ic.close(ns / it, v * 1e9), (it, ns, v)


def hyperfine(d):
    src = load("hyperfine.json")
    _, doc = ic.import_into(d, "hyperfine", [ic.data("hyperfine.json")])
    check_imported(doc, "hyperfine", [ic.data("hyperfine.json")])
    assert len(doc["cases"]) == len(src["results"])
    for c, r in zip(doc["cases"], src["results"]):
        assert c["params"] == r.get("parameters", {})
        for x, t in zip(c["runs"], r["times"]):
            assert len(x["samples"]) == 1 and x["samples"][0][0] == 1
            assert ic.close(x["samples"][0][1], t * 1e9)
        assert len(c["runs"]) == len(r["times"])
        failing = any(r["exit_codes"])
        assert c["status"] == ("failed" if failing else "ok"), c["status"]
        if failing:
            assert c["message"] == "exit code %d" % r["exit_codes"][0]
        assert c["metrics"]["user_s"]["values"] == [r["user"]]
    ids = [c["id"] for c in doc["cases"]]
    assert len(set(ids)) == len(ids) and "hyperfine/false[n=1]" in ids, ids


def criterion(d):
    files = [ic.data("criterion", "fib", n, "new", f) for n in ("20", "21")
             for f in ("sample.json", "estimates.json")]
    _, doc = ic.import_into(d, "criterion", files)
    check_imported(doc, "criterion", files)
    assert [c["id"] for c in doc["cases"]] == ["criterion/fib/20", "criterion/fib/21"]
    for c, n in zip(doc["cases"], ("20", "21")):
        s = load(os.path.join("criterion", "fib", n, "new", "sample.json"))
        (run,) = c["runs"]
        for (it, ns), i, t in zip(run["samples"], s["iters"], s["times"]):
            assert it == i and ic.close(ns, t)
        assert len(run["samples"]) == len(s["iters"])
        assert c["summary"]["n"] == len(s["iters"])  # from the samples
    # estimates alone: the summary
    est = ic.data("criterion", "fib", "20", "new", "estimates.json")
    _, doc = ic.import_into(d, "criterion", [est])
    (c,) = doc["cases"]
    e = load(os.path.join("criterion", "fib", "20", "new", "estimates.json"))
    assert c["runs"] == [] and c["summary"]["median"] == e["median"]["point_estimate"]
    assert c["summary"]["median_ci_lo"] == e["median"]["confidence_interval"]["lower_bound"]
    assert c["summary"]["sd"] == e["std_dev"]["point_estimate"]


def asv(d):
    f = ic.data("asv", "results", "asvbox", "01234567-virtualenv-py3.11.json")
    src = load(os.path.join("asv", "results", "asvbox", "01234567-virtualenv-py3.11.json"))
    p = rt.run(["import", "asv", f, "--into", os.path.join(d, "asv")], check_rc=0)
    assert "skipped 2 benchmarks that are not time_ benchmarks" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    path = p.stdout.split(" into ")[1].strip()
    with open(path) as fh:
        doc = json.load(fh)
    check_imported(doc, "asv", [f])
    assert doc["run"]["git"]["commit"] == src["commit_hash"]
    assert doc["system"]["hostname"] == "asvbox"
    by = {c["id"]: c for c in doc["cases"]}
    assert sorted(by) == sorted([
        "asv/benchmarks.TimeSuite.time_range", "asv/benchmarks.TimeSuite.time_broken",
        "asv/benchmarks.ParamSuite.time_sort[n=100,dtype=int]",
        "asv/benchmarks.ParamSuite.time_sort[n=100,dtype=float]",
        "asv/benchmarks.ParamSuite.time_sort[n=1000,dtype=int]",
        "asv/benchmarks.ParamSuite.time_sort[n=1000,dtype=float]"]), sorted(by)
    rng = by["asv/benchmarks.TimeSuite.time_range"]
    row = src["results"]["benchmarks.TimeSuite.time_range"]
    assert len(rng["runs"][0]["samples"]) == len(row[11][0])
    for (it, ns), v in zip(rng["runs"][0]["samples"], row[11][0]):
        assert it == row[9][0] and ic.close(ns / it, v * 1e9)
    srt = by["asv/benchmarks.ParamSuite.time_sort[n=1000,dtype=int]"]
    assert srt["params"] == {"n": "1000", "dtype": "int"}
    assert srt["runs"] == [] and ic.close(srt["summary"]["median"], 3.2e-05 * 1e9)
    assert srt["summary"]["median_ci_level"] == 0.99
    assert by["asv/benchmarks.TimeSuite.time_broken"]["status"] == "failed"


def main():
    d = rt.tmpdir()
    try:
        for t in (gbench, pyperf, hyperfine, criterion, asv):
            t(d)
            print("ok", t.__name__)
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
