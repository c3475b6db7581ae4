#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The round trip of issue 26: two real runs of selftest cases, a baseline
and a candidate whose first case is the baseline's runs made 40% slower
and second the baseline's runs made 30% faster (their verdicts follow
from the factor, not from the machine; the third case is the second run's,
as measured), exported with bhost report --gbench, imported back with
bhost import gbench: bhost compare gives each case the same time and
spread verdicts, severities and changes on the imported pair as on the
originals."""
import copy
import json
import os

import imp_common as ic
from imp_common import rt

CONFIG = """schema: 1
name: imprt
defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 8, seed: 7}
suites:
  - plugin: selftest
    include: [spin, noop]
    params: {work: [200, 2000]}
"""


def scaled(cand, base, factors):
    """cand with the runs of case i replaced by base's with their samples
    scaled by factors[i] (cases not in factors as they are)."""
    out = copy.deepcopy(cand)
    for i, f in factors.items():
        runs = copy.deepcopy(base["cases"][i]["runs"])
        for r in runs:
            r["samples"] = [[it, ns * f] for it, ns in r["samples"]]
        out["cases"][i]["runs"] = runs
    return out


def time_verdicts(cmp):
    """{(case id, metric): (verdict, severity, change)} of the time and
    time_spread items (the memory items need the runs' memory, which a
    Google Benchmark file does not carry)."""
    out = {}
    for c in cmp["cases"]:
        for m in c["metrics"]:
            if m["metric"] in ("time", "time_spread"):
                out[(c["id"], m["metric"])] = (m["verdict"], m["severity"], m["change"])
    return out


def main():
    d = rt.tmpdir()
    try:
        base, cand0 = os.path.join(d, "base.json"), os.path.join(d, "cand0.json")
        ic.config_runs(d, "imprt", CONFIG, base, cand0)
        with open(cand0) as f:
            cdoc = json.load(f)
        with open(base) as f:
            bdoc = json.load(f)
        assert len(cdoc["cases"]) >= 3 and all(c["status"] == "ok" for c in cdoc["cases"])
        cand = os.path.join(d, "cand.json")
        with open(cand, "w") as f:
            json.dump(scaled(cdoc, bdoc, {0: 1.4, 1: 0.7}), f)

        imported = {}
        for name, path in (("base", base), ("cand", cand)):
            gb = os.path.join(d, name + ".gbench.json")
            rt.run(["report", path, "--gbench", gb], check_rc=0)
            p = rt.run(["import", "gbench", gb, "--into", os.path.join(d, "imp")], check_rc=0)
            imported[name] = p.stdout.split(" into ")[1].strip()
            with open(imported[name]) as f:
                idoc = json.load(f)
            assert idoc["run"]["config"]["name"] == "imprt"  # from the export's context
        orig = json.loads(rt.run(["compare", base, cand, "--json"]).stdout)
        back = json.loads(rt.run(["compare", imported["base"], imported["cand"],
                                  "--json"]).stdout)
        vo, vb = time_verdicts(orig), time_verdicts(back)
        assert sorted(vo) == sorted(vb), (sorted(vo), sorted(vb))
        for cid in vo:
            assert vo[cid][:2] == vb[cid][:2], (cid, vo[cid], vb[cid])
            assert abs(vo[cid][2] - vb[cid][2]) < 1e-9, (cid, vo[cid], vb[cid])
        assert len(vb) == 2 * len(cdoc["cases"]), sorted(vb)
        assert vo[(cdoc["cases"][0]["id"], "time")][0] == "regressed", vo
        assert vo[(cdoc["cases"][1]["id"], "time")][0] == "improved", vo
        assert back["tests"] == sum(1 for k in vb if k[1] == "time"), back["tests"]
        print("same verdicts:", {"%s %s" % k: v[0] for k, v in sorted(vb.items())})
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
