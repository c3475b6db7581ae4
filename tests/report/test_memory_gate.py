# SPDX-License-Identifier: MIT
"""Memory and variance in the gate through the real bhost (issue 22 item 5,
docs/statistics.md section 11.8): two real runs of selftest spin, compared
as they are (A/A), with a candidate whose runs' peak RSS and host-API
allocations grew (memory regressions), and with a candidate whose run
medians spread six times as wide (noisier: a
warning by default, a gate failure with regression.noisier: fail); the
verdicts in bhost compare's lines and JSON, and in the JUnit, Markdown and
CSV reports of bhost report --baseline. The candidates are the real
documents with their per-run figures changed by known factors, so every
expected verdict follows from the factor, not from the machine's timing.
"""
import copy
import csv
import io
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

import rt_common as rt

CONFIG = """schema: 1
name: memgate
defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 10, seed: 7}
suites:
  - plugin: selftest
    include: [spin]
    params: {work: [2000]}
"""


def items(doc, metric):
    """The compared items of metric over the cases of a comparison document."""
    out = []
    for c in doc["cases"]:
        out += [m for m in c["metrics"] if m["metric"] == metric]
    return out


def compare(base, cand, *extra, rc=0):
    p = rt.run(["compare", base, cand, "--json"] + list(extra), check_rc=rc)
    return json.loads(p.stdout)


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


# Where each of the 10 runs' median sits, in units of the spread.
Z = [-1.5, -1, -0.5, -0.25, 0, 0.1, 0.3, 0.6, 1, 1.4]


def with_spread(doc, s):
    """doc with the samples of its runs set so that run i's median is
    M (1 + s Z[i]) (M: the first run's median): a between-run spread that
    does not depend on how loaded the machine was."""
    out = copy.deepcopy(doc)
    for c in out["cases"]:
        big = rt.median([ns / it for it, ns in c["runs"][0]["samples"]])
        for r, z in zip(c["runs"], Z):
            r["samples"] = [[it, it * big * (1 + s * z)] for it, ns in r["samples"]]
    return out


def sd_ln(v):
    lv = [math.log(x) for x in v]
    m = sum(lv) / len(lv)
    return math.sqrt(sum((x - m) ** 2 for x in lv) / (len(lv) - 1))


def main():
    d = rt.tmpdir()
    try:
        cfg = os.path.join(d, "memgate.yaml")
        with open(cfg, "w") as f:
            f.write(CONFIG)
        a1, a2 = os.path.join(d, "a1.json"), os.path.join(d, "a2.json")
        for out in (a1, a2):
            rt.run(["run", cfg, "--out", out, "--results-dir", os.path.join(d, "res"),
                    "--quiet"], check_rc=0)
        base = json.load(open(a1))
        run0 = base["cases"][0]["runs"][0]
        assert run0["peak_rss_kb"] > 0 and run0["alloc"]["count"] >= 1, run0

        # A/A: the same document, and two invocations: memory never
        # regresses (RSS moves by a few percent between invocations, inside
        # its 10% floor; allocations repeat exactly), the spread is not
        # called noisier unless the candidate's really is beyond 2x
        same = compare(a1, a1)
        assert same["counts"]["regressed"] == 0 and same["counts"]["noisier"] == 0, same
        for m in ("peak_rss_kb", "alloc_bytes", "alloc_count", "time_spread"):
            assert [i["verdict"] for i in items(same, m)] == ["no change"], (m, same)
        aa = compare(a1, a2)
        for m in ("peak_rss_kb", "alloc_bytes", "alloc_count"):
            for i in items(aa, m):
                assert i["verdict"] in ("no change", "within noise"), (m, i)
        for i in items(aa, "time_spread"):
            assert i["verdict"] == "no change" or i["change"] + 1 > 2.0, i
        assert aa["spread_tests"] == 1 and aa["noisier_fails"] is False

        # memory regressions: RSS +25% (beyond its 10% floor: critical, as
        # the floor is also its critical threshold), bytes x1.5 and one more
        # allocation in every run
        cand = copy.deepcopy(base)
        for r in cand["cases"][0]["runs"]:
            r["peak_rss_kb"] *= 1.25
            r["alloc"]["bytes"] = r["alloc"]["bytes"] * 3 // 2
            r["alloc"]["count"] += 1
        mem = os.path.join(d, "mem.json")
        write(mem, cand)
        got = compare(a1, mem, rc=0)
        rss = items(got, "peak_rss_kb")[0]
        assert rss["verdict"] == "regressed" and rss["severity"] == "critical", rss
        assert abs(rss["change"] - 0.25) < 1e-9 and rss["thresholds"]["noise_floor"] == 0.1
        assert rss["unit"] == "KiB" and rss["direction"] == "lower"
        byt = items(got, "alloc_bytes")[0]
        assert byt["verdict"] == "regressed" and byt["thresholds"]["noise_floor"] == 0.001, byt
        cnt = items(got, "alloc_count")[0]
        assert cnt["verdict"] == "regressed", cnt
        p = rt.run(["compare", a1, mem, "--fail-on-regression"], check_rc=5)
        assert "peak_rss_kb: " in p.stdout and "regressed (critical)" in p.stdout, p.stdout

        # noisier: run medians spread six times as wide (1% -> 6%)
        quiet, noisy = os.path.join(d, "quiet.json"), os.path.join(d, "noisy.json")
        write(quiet, with_spread(base, 0.01))
        write(noisy, with_spread(base, 0.06))
        a1 = quiet
        want = sd_ln([1 + 0.06 * z for z in Z]) / sd_ln([1 + 0.01 * z for z in Z])
        got = compare(a1, noisy, "--fail-on-regression")
        sp = items(got, "time_spread")[0]
        assert sp["verdict"] == "noisier" and sp["fails_gate"] is False, sp
        assert abs(sp["change"] + 1 - want) < 1e-9 and sp["ratio"] == 2, (sp, want)
        assert sp["test"] == "brown-forsythe-ratio" and sp["q"] <= 0.05, sp
        assert got["counts"]["noisier"] == 1 and got["noisier_fails"] is False
        p = rt.run(["compare", a1, noisy], check_rc=0)
        assert "  spread: " in p.stdout and " noisier (a warning" in p.stdout, p.stdout
        assert ", 1 noisier (warnings); 0 memory and 1 spread test in families of their own" \
            in p.stdout, p.stdout

        # regression.noisier: fail: the gate fails, and the reports say so
        strict = os.path.join(d, "strict.yaml")
        with open(strict, "w") as f:
            f.write(CONFIG + "regression: {noisier: fail}\n")
        got = compare(a1, noisy, "--config", strict, "--fail-on-regression", rc=5)
        assert items(got, "time_spread")[0]["fails_gate"] is True and got["noisier_fails"]
        junit, md, csvf, js = (os.path.join(d, n) for n in ("j.xml", "r.md", "r.csv", "r.json"))
        rt.run(["report", noisy, "--baseline", a1, "--config", strict, "--junit", junit,
                "--markdown", md, "--csv", csvf, "--json", js], check_rc=0)
        case = json.load(open(js))["cases"][0]
        assert case["verdict"]["verdict"] == "noisier", case["verdict"]
        fails = ET.parse(junit).getroot().findall(".//failure")
        assert len(fails) == 1 and fails[0].get("type") == "noisier", ET.tostring(
            ET.parse(junit).getroot())
        assert "regression.noisier: fail" in fails[0].get("message")
        text = open(md).read()
        assert "### Noisier between runs (1)" in text, text
        assert "noisier (spread x%.2f)" % want in text, text
        rows = list(csv.DictReader(io.StringIO(open(csvf, newline="").read())))
        row = [r for r in rows if r["metric"] == "time_spread"]
        assert len(row) == 1 and row[0]["verdict"] == "noisier", rows
        # without the switch: a warning, JUnit passes
        rt.run(["report", noisy, "--baseline", a1, "--junit", junit], check_rc=0)
        assert not ET.parse(junit).getroot().findall(".//failure")
    finally:
        rt.cleanup(d)
    print("ok")


if __name__ == "__main__":
    main()
