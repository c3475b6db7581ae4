# SPDX-License-Identifier: MIT
"""The drift floor on the real bhost binary: a gated run widens each
comparison's noise floor to the run-to-run drift the results store has
recorded for its case on this machine fingerprint (host/regress/drift.h).

The history is planted: copies of a real baseline result whose samples are
scaled by known factors (ns per iteration scales exactly, so the stored
values and their drift are known), stored before the baseline's start.
Copies started after the baseline, or measured on another fingerprint, must
be ignored. A 4x slowdown (selftest spin, slowdown_pct 300) stays a
critical regression under the widened floor. Nothing here asserts a
timing. Run by meson (suite 'ci'); BHOST_EXE names the binary."""
import datetime
import json
import math
import os
import shutil
import statistics
import tempfile
import unittest

from test_ci_cli import bhost, load

CONFIG = """schema: 1
name: drifty
defaults: {{warmup: 20ms, sample_time: 2ms, samples: 5, runs: 6, timeout: 30s, seed: 7}}
{regression}suites:
  - plugin: selftest
    include: [spin]
    params: {{work: [2000]{slow}}}
  - plugin: selftest
    include: [memcpy]
    params: {{bytes: [4096]}}
"""

SPIN = "selftest/spin[work=2000]"
FACTORS = [1.00, 1.08, 0.95, 1.06, 0.97, 1.07, 1.00]  # oldest first
FDR = 0.05


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def robust_sd(values):
    """drift.h's estimate: 1.4826 median |successive ln differences| / sqrt 2."""
    d = [abs(math.log(b) - math.log(a)) for a, b in zip(values, values[1:])]
    return 1.482602218505602 * statistics.median(d) / math.sqrt(2)


class DriftFloorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bhost-drift-")
        cls.store = cls.out("drift.db")
        cls.base = cls.out("base.json")
        cls.run_cfg(cls.write_cfg("base.yaml", ""), ["--out", cls.base], store=False)
        base = load(cls.base)
        t0 = datetime.datetime.strptime(base["run"]["started_at"], "%Y-%m-%dT%H:%M:%SZ")
        hist = cls.out("history")
        os.makedirs(hist)
        n = len(FACTORS)
        for i, f in enumerate(FACTORS):  # before the baseline: counted
            cls.planted(base, os.path.join(hist, "h%d.json" % i), f,
                        t0 - datetime.timedelta(minutes=n - i))
        # after the baseline, and on another machine: ignored
        cls.planted(base, os.path.join(hist, "later.json"), 3.0,
                    t0 + datetime.timedelta(minutes=1))
        cls.planted(base, os.path.join(hist, "elsewhere.json"), 5.0,
                    t0 - datetime.timedelta(minutes=n + 1), fingerprint="0" * 64)
        bhost(["store", "ingest", hist, "--store", cls.store], check=0)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def out(cls, name):
        return os.path.join(cls.tmp, name)

    @classmethod
    def write_cfg(cls, name, regression, slow=""):
        path = cls.out(name)
        with open(path, "w") as f:
            f.write(CONFIG.format(regression=regression, slow=slow))
        return path

    @classmethod
    def run_cfg(cls, cfg, args, store=True):
        return bhost(["run", cfg, "--quiet", "--no-store", "--results-dir", cls.out("results")]
                     + (["--store", cls.store] if store else []) + args, check=0)

    @classmethod
    def planted(cls, base, path, factor, started, fingerprint=None):
        """A copy of base with every sample's ns scaled by factor, started at
        `started` (a new run key), written to path."""
        d = dict(base)
        d["run"] = dict(base["run"], started_at=stamp(started))
        if fingerprint:
            d["system"] = dict(base["system"], fingerprint_hash=fingerprint)
        d["cases"] = []
        for c in base["cases"]:
            c = dict(c, runs=[dict(r, samples=[[s[0], round(s[1] * factor)]
                                               for s in r["samples"]])
                              for r in c["runs"]])
            d["cases"].append(c)
        with open(path, "w") as f:
            json.dump(d, f)

    def gated(self, name, regression=""):
        """The slow candidate gated against the baseline: its verdicts by
        (case id of the baseline, metric)."""
        cfg = self.write_cfg(name + ".yaml", regression, slow=", slowdown_pct: [300]")
        res = self.out(name + ".json")
        self.run_cfg(cfg, ["--baseline", self.base, "--ignore-param", "slowdown_pct",
                           "--out", res])
        doc = load(res)
        out = {}
        for c in doc["cases"]:
            for it in c["verdict"]["metrics"]:
                out[(c["id"].replace(",slowdown_pct=300", ""), it["metric"])] = it
        return out

    def test_floor_from_recorded_drift(self):
        v = self.gated("widened")
        spin = v[(SPIN, "time")]
        d = spin["drift"]
        self.assertEqual(d["runs"], len(FACTORS))  # not the later or foreign copies
        want_sd = robust_sd(list(reversed(FACTORS)))
        self.assertAlmostEqual(d["sd"], want_sd, delta=1e-3 * want_sd)
        m = sum(1 for it in v.values() if it.get("p") is not None)
        z = statistics.NormalDist().inv_cdf(1 - FDR / m / 2)
        self.assertAlmostEqual(d["floor"], math.expm1(z * math.sqrt(2) * d["sd"]), places=9)
        self.assertEqual(d["configured_floor"], 0.01)
        self.assertGreater(d["floor"], 0.10)
        self.assertEqual(spin["thresholds"]["noise_floor"], d["floor"])
        # a real 4x slowdown stays a critical regression beyond the wider floor
        self.assertEqual(spin["verdict"], "regressed")
        self.assertEqual(spin["severity"], "critical")

    def test_window_and_min_runs(self):
        v = self.gated("window", "regression: {drift_window: 4, drift_min_runs: 3}\n")
        d = v[(SPIN, "time")]["drift"]
        self.assertEqual(d["runs"], 4)
        self.assertAlmostEqual(d["sd"], robust_sd(list(reversed(FACTORS))[:4]),
                               delta=1e-3 * d["sd"] + 1e-12)
        v = self.gated("few", "regression: {drift_min_runs: 8}\n")
        self.assertIsNone(v[(SPIN, "time")]["drift"])
        self.assertEqual(v[(SPIN, "time")]["thresholds"]["noise_floor"], 0.01)

    def test_off(self):
        v = self.gated("off", "regression: {drift_window: 0}\n")
        self.assertTrue(all(it["drift"] is None for it in v.values()))
        self.assertEqual(v[(SPIN, "time")]["verdict"], "regressed")

    def test_compare_reads_the_store(self):
        self.gated("cmp")
        args = ["compare", self.base, self.out("cmp.json"), "--ignore-param", "slowdown_pct",
                "--json"]
        doc = json.loads(bhost(args + ["--store", self.store], check=0).stdout)
        spin = [it for c in doc["cases"] if c["id"].startswith("selftest/spin")
                for it in c["metrics"] if it["metric"] == "time"][0]
        self.assertEqual(spin["drift"]["runs"], len(FACTORS))
        self.assertEqual(spin["verdict"], "regressed")
        # a store that does not exist: no drift floor, and no store created
        missing = self.out("missing.db")
        doc = json.loads(bhost(args + ["--store", missing], check=0).stdout)
        self.assertTrue(all(it["drift"] is None for c in doc["cases"] for it in c["metrics"]))
        self.assertFalse(os.path.exists(missing))

    def test_gate_records_settings(self):
        self.gated("record", "regression: {drift_window: 7}\n")
        gate = load(self.out("record.json"))["comparison"]["gate"]
        self.assertEqual(gate["regression"]["drift_window"], 7)
        self.assertEqual(gate["regression"]["drift_min_runs"], 5)


if __name__ == "__main__":
    unittest.main()
