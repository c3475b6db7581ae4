# SPDX-License-Identifier: MIT
"""Sharded gating on the real bhost binary: shards run with --baseline gate
with confirmation like a whole run, and bhost merge keeps their verdicts
(the merged verdicts are the union of the shards'), joins their summaries,
exits as the whole run would (5 on a confirmed critical regression) and
refuses shards gated against different baselines or settings. The planted
regression is the selftest spin case with slowdown_pct 300 (4x the work),
where the outcome is certain; nothing here asserts a timing. Run by meson
(suite 'ci'); BHOST_EXE names the binary."""
import os
import shutil
import tempfile
import unittest

from test_ci_cli import bhost, edited_copy, ids, load

CONFIG = """schema: 1
name: gated
defaults: {{warmup: 20ms, sample_time: 2ms, samples: 5, runs: 6, timeout: 30s, seed: 7}}
suites:
  - plugin: selftest
    include: [spin]
    params: {{work: [2000]{slow}}}
  - plugin: selftest
    include: [noop, memcpy]
    params: {{bytes: [4096, 8192]}}
"""

SPIN = "selftest/spin[work=2000,slowdown_pct=300]"


def verdicts(doc):
    """case id -> its verdict object (cases without one left out)."""
    return {c["id"]: c["verdict"] for c in doc["cases"] if c.get("verdict")}


class ShardGateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bhost-shard-gate-")
        cls.base_cfg = cls.out("base.yaml")
        cls.slow_cfg = cls.out("slow.yaml")
        with open(cls.base_cfg, "w") as f:
            f.write(CONFIG.format(slow=""))
        with open(cls.slow_cfg, "w") as f:
            f.write(CONFIG.format(slow=", slowdown_pct: [300]"))
        cls.base = cls.out("base.json")
        cls.bh_run([cls.base_cfg, "--out", cls.base], 0)
        # A/A shards without noop: the baseline's noop is missing in both
        cls.aa = [cls.shard(cls.base_cfg, i, 2, "aa", "--filter", "selftest/[sm]*")
                  for i in (1, 2)]
        # the planted regression: spin 4x slower, in whichever shard holds it
        cls.slow = [cls.shard(cls.slow_cfg, i, 2, "slow", "--ignore-param", "slowdown_pct")
                    for i in (1, 2)]
        cls.spin_shard = [i for i, p in enumerate(cls.slow) if SPIN in ids(load(p))][0]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def out(cls, name):
        return os.path.join(cls.tmp, name)

    @classmethod
    def bh_run(cls, args, code):
        return bhost(["run"] + args + ["--quiet", "--no-store", "--results-dir",
                                       cls.out("results")], check=code)

    @classmethod
    def shard(cls, cfg, i, n, tag, *args):
        """Shard i/n of cfg gated against the baseline; its result file."""
        path = cls.out("%s-%d.json" % (tag, i))
        p = bhost(["run", cfg, "--quiet", "--no-store", "--results-dir", cls.out("results"),
                   "--shard", "%d/%d" % (i, n), "--baseline", cls.base, "--out", path]
                  + list(args))
        if p.returncode not in (0, 5):
            raise AssertionError("shard %d/%d of %s: exit %d\n%s" % (i, n, cfg, p.returncode,
                                                                     p.stderr))
        return path

    def merge(self, name, files, code, *args):
        out = self.out(name)
        p = bhost(["merge", out] + list(files) + list(args), check=code)
        return load(out), p

    def refused(self, files, text):
        out = self.out("refused.json")
        p = bhost(["merge", out] + list(files))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn(text, p.stderr)
        self.assertFalse(os.path.exists(out))

    # ---- the merged gate is the shards' ---------------------------------

    def test_merged_verdicts_are_the_union_of_the_shards(self):
        m, _ = self.merge("aa.json", reversed(self.aa), 0)
        shards = [load(p) for p in self.aa]
        union = {}
        for s in shards:
            union.update(verdicts(s))
        self.assertEqual(verdicts(m), union)  # every verdict object, confirmation included
        self.assertEqual(len(union), len(m["cases"]))
        cmp, parts = m["comparison"], [s["comparison"] for s in shards]
        for key in ("tests", "suspects", "confirm_tests"):
            self.assertEqual(cmp[key], sum(p[key] for p in parts), key)
        for kind in cmp["counts"]:
            if kind != "missing":
                self.assertEqual(cmp["counts"][kind], sum(p["counts"][kind] for p in parts))
        # noop, filtered out of the run, is missing once (every shard lists it)
        self.assertEqual([p["missing"] for p in parts], [["selftest/noop"]] * 2)
        self.assertEqual(cmp["missing"], ["selftest/noop"])
        self.assertEqual(cmp["counts"]["missing"], 1)
        self.assertEqual(cmp["gate"], parts[0]["gate"])
        self.assertEqual(cmp["gate"]["baseline_sha256"], parts[1]["gate"]["baseline_sha256"])
        # each shard gated in the whole run's family: its tests and the other's
        self.assertEqual({f["file"]: f["tests"] for f in cmp["families"]},
                         {f: p["tests"] for f, p in zip(self.aa, parts)})
        self.assertEqual(cmp["family"], cmp["tests"])
        for p in parts:
            self.assertEqual(p["family"], cmp["tests"])

    def test_merged_summary_has_the_whole_runs_fields(self):
        whole = self.out("aa-whole.json")
        p = self.bh_run([self.base_cfg, "--baseline", self.base, "--filter", "selftest/[sm]*",
                      "--out", whole], None)
        self.assertIn(p.returncode, (0, 5), p.stderr)
        w = load(whole)["comparison"]
        m, _ = self.merge("aa2.json", self.aa, 0)
        cmp = m["comparison"]
        self.assertLessEqual(set(w), set(cmp))
        self.assertEqual(cmp["missing"], w["missing"])
        self.assertEqual((cmp["tests"], cmp["family"]), (w["tests"], w["family"]))
        self.assertEqual({k: v for k, v in cmp["gate"].items() if k != "fail_on_regression"},
                         {k: v for k, v in w["gate"].items() if k != "fail_on_regression"})

    def test_planted_regression_is_regressed_in_the_merged_run(self):
        s = load(self.slow[self.spin_shard])
        self.assertEqual(s["cases"][ids(s).index(SPIN)]["verdict"]["verdict"], "regressed")
        m, p = self.merge("slow.json", self.slow, 0)  # no gate was asked for
        v = verdicts(m)[SPIN]
        self.assertEqual((v["verdict"], v["severity"]), ("regressed", "critical"))
        conf = v["metrics"][0]["confirmation"]
        self.assertTrue(conf["confirmed"], conf)  # the shard's confirmation reruns
        self.assertEqual(v, verdicts(s)[SPIN])
        self.assertGreaterEqual(m["comparison"]["regressed"]["critical"], 1)
        self.assertIn("compared with %s" % self.base, p.stdout)
        # the Markdown summary reports it like a whole run's
        md = self.out("slow.md")
        bhost(["report", self.out("slow.json"), "--markdown", md], check=0)
        with open(md) as f:
            text = f.read()
        self.assertRegex(text, r"[1-9]\d* regressed \([1-9]\d* critical\)")
        self.assertIn(SPIN.replace("_", "\\_"), text.split("### Improvements")[0])

    def test_merge_gates_on_a_critical_regression(self):
        self.merge("gate1.json", self.slow, 5, "--fail-on-regression")
        # a shard run with --fail-on-regression exits 5, and so does the merge
        i = self.spin_shard + 1
        gated = self.out("slow-gated-%d.json" % i)
        bhost(["run", self.slow_cfg, "--quiet", "--no-store", "--results-dir",
               self.out("results"), "--shard", "%d/2" % i, "--baseline", self.base,
               "--ignore-param", "slowdown_pct", "--fail-on-regression", "--out", gated], check=5)
        files = list(self.slow)
        files[self.spin_shard] = gated
        m, _ = self.merge("gate2.json", files, 5)
        self.assertTrue(m["comparison"]["gate"]["fail_on_regression"])

    # ---- refusals -------------------------------------------------------

    def test_merge_refuses_shards_of_different_baselines(self):
        base2 = self.out("base2.json")
        self.bh_run([self.base_cfg, "--out", base2], 0)
        other = self.out("aa-other-2.json")
        p = bhost(["run", self.base_cfg, "--quiet", "--no-store", "--results-dir",
                   self.out("results"), "--shard", "2/2", "--baseline", base2,
                   "--filter", "selftest/[sm]*", "--out", other])
        self.assertIn(p.returncode, (0, 5), p.stderr)
        self.refused([self.aa[0], other], "shards gated against different baselines")

    def test_merge_refuses_shards_gated_differently(self):
        def critical(d):  # (one config file gives one regression: section)
            d["comparison"]["gate"]["regression"]["critical"] = 0.5
        self.refused([self.aa[0], edited_copy(self.aa[1], self.out("crit.json"), critical)],
                     "has regression.critical 0.1, ")

        noconf = self.out("aa-noconf-2.json")
        p = bhost(["run", self.base_cfg, "--quiet", "--no-store", "--results-dir",
                   self.out("results"), "--shard", "2/2", "--baseline", self.base,
                   "--filter", "selftest/[sm]*", "--no-confirm", "--out", noconf])
        self.assertIn(p.returncode, (0, 5), p.stderr)
        self.refused([self.aa[0], noconf], "has confirmation \"unpaired\"")

        def ungated(d):
            del d["comparison"]
        self.refused([self.aa[0], edited_copy(self.aa[1], self.out("nobase.json"), ungated)],
                     "was compared with a baseline")


if __name__ == "__main__":
    unittest.main(verbosity=2)
