# SPDX-License-Identifier: MIT
"""The CI commands on the real bhost binary: run --shard / --backend, merge
(and each refusal), git metadata in results, ci-matrix, and the workflow's
use of the matrix fields. Run by meson (suite 'ci'); BHOST_EXE names the
binary. Nothing here asserts a timing."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CI_VARS = ["BHOST_GIT_COMMIT", "BHOST_GIT_BRANCH", "BHOST_GIT_DIRTY", "GITHUB_SHA",
           "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "GITHUB_REF_TYPE", "CI_COMMIT_SHA",
           "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
           "BUILDKITE_COMMIT", "BUILDKITE_BRANCH", "CIRCLE_SHA1", "CIRCLE_BRANCH",
           "GIT_COMMIT", "GIT_BRANCH", "GIT_LOCAL_BRANCH", "GIT_DIR", "GIT_WORK_TREE"]

CONFIG = """schema: 1
name: {name}
defaults:
  warmup: 0
  sample_time: 1ms
  samples: 2
  runs: 1
  timeout: 30s
  seed: 42
backends:
  cpu: {{required: false}}
suites:
  - plugin: selftest
    include: [noop, spin, memcpy]
    params:
      work: [10, 20, 30]
      bytes: [4096, 8192]
  - plugin: selftest
    include: [device_copy]
    backends: [cpu]
    params:
      bytes: [4096]
ratios:
  - {{name: spin, case: "selftest/spin[work=30]", reference: "selftest/spin[work=10]"}}
  - {{name: spin-noop, case: "selftest/spin[work=20]", reference: "selftest/noop"}}
  - {{name: memcpy, case: "selftest/memcpy[bytes=8192]", reference: "selftest/memcpy[bytes=4096]"}}
  - {{name: copy, case: "selftest/device_copy[bytes=4096]@cpu:0", reference: "selftest/noop"}}
scaling:
  - {{axis: work, mode: weak, min_efficiency: 0.5}}
"""

SRC = os.environ.get("BHOST_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))


def bhost(args, cwd=None, env=None, check=None):
    """Runs bhost; returns the CompletedProcess (text)."""
    e = {k: v for k, v in os.environ.items() if k not in CI_VARS}
    e["NO_COLOR"] = "1"
    e.setdefault("BHOST_GIT_DIRTY", "0")  # no git spawned unless a test wants it
    if env:
        e.update(env)
    e = {k: v for k, v in e.items() if v is not None}
    p = subprocess.run([os.environ["BHOST_EXE"]] + list(args), cwd=cwd, env=e,
                       capture_output=True, text=True, timeout=300)
    if check is not None and p.returncode != check:
        raise AssertionError("bhost %s: exit %d, expected %d\n%s%s" % (
            " ".join(args), p.returncode, check, p.stdout, p.stderr))
    return p


def load(path):
    with open(path) as f:
        return json.load(f)


def ids(doc):
    return [c["id"] for c in doc["cases"]]


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def edited_copy(src, path, edit):
    """Writes the JSON of src, changed by edit(doc), to path; returns path."""
    d = load(src)
    edit(d)
    with open(path, "w") as f:
        json.dump(d, f)
    return path


class CiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bhost-ci-cli-")
        cls.cfg = os.path.join(cls.tmp, "shardy.yaml")
        with open(cls.cfg, "w") as f:
            f.write(CONFIG.format(name="shardy"))
        cls.other = os.path.join(cls.tmp, "other.yaml")
        with open(cls.other, "w") as f:
            f.write(CONFIG.format(name="other"))
        cls.results = os.path.join(cls.tmp, "results")
        cls.whole = os.path.join(cls.tmp, "whole.json")
        bhost(["run", cls.cfg, "--quiet", "--out", cls.whole, "--results-dir", cls.results],
              check=0)
        cls.shards = []
        for i in range(1, 4):
            out = os.path.join(cls.tmp, "s%d.json" % i)
            bhost(["run", cls.cfg, "--quiet", "--shard", "%d/3" % i, "--out", out,
                   "--results-dir", cls.results], check=0)
            cls.shards.append(out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def out(self, name):
        return os.path.join(self.tmp, name)

    # ---- sharding -------------------------------------------------------

    def test_shards_cover_each_case_once(self):
        whole = ids(load(self.whole))
        self.assertEqual(len(whole), 7)
        got = []
        partitions = set()
        for i, path in enumerate(self.shards, 1):
            d = load(path)
            sh = d["run"]["shard"]
            self.assertEqual((sh["index"], sh["count"], sh["cases_total"]), (i, 3, 7))
            self.assertEqual([whole[p] for p in sh["positions"]], ids(d))
            self.assertEqual(sh["balanced_by"], "case count")  # --out: nothing recorded
            partitions.add(sh["partition"])
            got += ids(d)
            self.assertIn(len(ids(d)), (2, 3))
        self.assertEqual(sorted(got), sorted(whole))
        self.assertEqual(len(got), len(set(got)))
        self.assertEqual(len(partitions), 1)

    def test_shard_is_deterministic(self):
        again = self.out("s2-again.json")
        bhost(["run", self.cfg, "--quiet", "--shard", "2/3", "--out", again,
               "--results-dir", self.results], check=0)
        self.assertEqual(ids(load(again)), ids(load(self.shards[1])))
        self.assertEqual(load(again)["run"]["shard"]["partition"],
                         load(self.shards[1])["run"]["shard"]["partition"])

    def test_shard_balanced_by_recorded_durations(self):
        res = self.out("results-hist")
        bhost(["run", self.cfg, "--quiet", "--results-dir", res], check=0)
        parts = []
        for i in (1, 2):
            p = self.out("h%d.json" % i)
            bhost(["run", self.cfg, "--quiet", "--shard", "%d/2" % i, "--out", p,
                   "--results-dir", res], check=0)
            sh = load(p)["run"]["shard"]
            self.assertEqual(sh["balanced_by"], "durations")
            self.assertEqual(sh["history_files"], 1)
            self.assertEqual(sh["cases_with_history"], 7)
            self.assertGreater(sh["estimated_total_s"], 0)
            parts.append(p)
        # a shard result written into the folder does not change the split
        bhost(["run", self.cfg, "--quiet", "--shard", "1/2", "--results-dir", res], check=0)
        p = self.out("h1-again.json")
        bhost(["run", self.cfg, "--quiet", "--shard", "1/2", "--out", p, "--results-dir", res],
              check=0)
        self.assertEqual(ids(load(p)), ids(load(parts[0])))
        merged = self.out("h-merged.json")
        bhost(["merge", merged] + parts, check=0)
        self.assertEqual(sorted(ids(load(merged))), sorted(ids(load(self.whole))))

    def test_bad_shard_option(self):
        for bad in ("0/3", "4/3", "x", "1/0", "2"):
            p = bhost(["run", self.cfg, "--shard", bad, "--quiet"])
            self.assertEqual(p.returncode, 2, bad)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1)
            self.assertIn("expected I/N", p.stderr)

    def test_backend_selection(self):
        cpu = self.out("cpu.json")
        none = self.out("none.json")
        bhost(["run", self.cfg, "--quiet", "--backend", "cpu", "--out", cpu], check=0)
        bhost(["run", self.cfg, "--quiet", "--backend", "none", "--out", none], check=0)
        self.assertEqual(ids(load(cpu)), [i for i in ids(load(self.whole)) if "@cpu:" in i])
        self.assertEqual(ids(load(none)), [i for i in ids(load(self.whole)) if "@" not in i])
        self.assertEqual(len(ids(load(cpu))), 1)

    # ---- merging --------------------------------------------------------

    def test_merge_joins_in_plan_order(self):
        merged = self.out("merged.json")
        p = bhost(["merge", merged, self.shards[2], self.shards[0], self.shards[1]], check=0)
        self.assertIn("merged 3 shards (7 cases)", p.stdout)
        m = load(merged)
        self.assertEqual(ids(m), ids(load(self.whole)))
        self.assertNotIn("shard", m["run"])
        self.assertEqual([s["index"] for s in m["run"]["merged"]["shards"]], [3, 1, 2])
        self.assertTrue(m["run"]["complete"])
        self.assertEqual(m["run"]["git"], load(self.shards[0])["run"]["git"])
        # the merged run compares with the unsharded one like any run
        c = bhost(["compare", self.whole, merged, "--json"])
        self.assertIn(c.returncode, (0, 5), c.stderr)
        cmp = json.loads(c.stdout)
        self.assertEqual(cmp["missing"], [])
        self.assertEqual(cmp["counts"]["new"], 0)
        # a merged run is whole: it cannot be merged again as a shard
        p = bhost(["merge", self.out("again.json"), merged])
        self.assertEqual(p.returncode, 4)
        self.assertIn("not a shard result", p.stderr)

    def test_merged_ratios_are_computed_over_every_shard(self):
        """A ratio whose two cases ran in different shards is unavailable
        in each shard and computed in the merged run; one whose cases ran
        in one shard is that shard's, to the last digit (same samples,
        same seed)."""
        merged = self.out("ratios-merged.json")
        bhost(["merge", merged] + self.shards, check=0)
        m, parts = load(merged), [load(p) for p in self.shards]
        whole = load(self.whole)["ratios"]
        self.assertEqual([r["name"] for r in m["ratios"]], [r["name"] for r in whole])
        cases = {c["id"]: c for c in m["cases"]}
        for i, r in enumerate(m["ratios"]):
            self.assertEqual(r["status"], "ok", r)
            self.assertEqual((r["case"], r["reference"]),
                             (whole[i]["case"], whole[i]["reference"]))
            self.assertIn(r["case"], cases)
            self.assertIn(r["reference"], cases)
            self.assertAlmostEqual(r["ratio"], r["case_median_ns"] / r["reference_median_ns"],
                                   delta=1e-9 * r["ratio"])
            for side, key in (("case", "case_median_ns"), ("reference", "reference_median_ns")):
                runs = [median([ns / it for it, ns in run["samples"]])
                        for run in cases[r[side]]["runs"]]
                self.assertAlmostEqual(r[key], median(runs), delta=1e-9 * r[key], msg=side)
            together = [p["ratios"][i] for p in parts if p["ratios"][i]["status"] == "ok"]
            if together:
                self.assertEqual(r, together[0])
            else:  # split between shards: each shard lacked a side
                self.assertTrue(all(p["ratios"][i]["status"] == "unavailable" for p in parts))
                self.assertTrue(all("in this run" in p["ratios"][i]["reason"] for p in parts))

    def test_merged_scaling_joins_every_shards_points(self):
        """Each scaling curve of the merged run has the points of every
        shard (a shard's curve holds only the cases it ran), its figures
        computed against the smallest point; a curve one shard ran whole is
        that shard's, to the last digit (the seed depends on the curve
        alone)."""
        merged = self.out("scaling-merged.json")
        bhost(["merge", merged] + self.shards, check=0)
        m, parts = load(merged), [load(p) for p in self.shards]
        whole = load(self.whole)["scaling"]
        self.assertEqual([(c["name"], c["axis"], [p["case"] for p in c["points"]])
                          for c in m["scaling"]],
                         [(c["name"], c["axis"], [p["case"] for p in c["points"]])
                          for c in whole])
        cases = {c["id"]: c for c in m["cases"]}
        for c in m["scaling"]:
            self.assertEqual(c["status"], "ok", c)
            base = c["points"][0]
            self.assertEqual(c["base"], base["value"])
            for p in c["points"]:
                self.assertEqual(p["status"], "ok", p)
                runs = [median([ns / it for it, ns in run["samples"]])
                        for run in cases[p["case"]]["runs"]]
                self.assertAlmostEqual(p["median_ns"], median(runs), delta=1e-9 * p["median_ns"])
                # weak: efficiency = T(p0) / T(p)
                self.assertAlmostEqual(p["efficiency"], base["median_ns"] / p["median_ns"],
                                       delta=1e-9 * p["efficiency"])
            held = [s for doc in parts for s in doc.get("scaling", [])
                    if s["name"] == c["name"] and len(s["points"]) == len(c["points"])]
            if held:
                self.assertEqual(c, held[0])
            else:  # split: every shard's curve of it lacks a point
                self.assertTrue(all(len(s["points"]) < len(c["points"])
                                    for doc in parts for s in doc.get("scaling", [])
                                    if s["name"] == c["name"]))

    def refused(self, args, code, text):
        out = self.out("refused.json")
        if os.path.exists(out):
            os.remove(out)
        p = bhost(["merge", out] + args)
        self.assertEqual(p.returncode, code, p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn(text, p.stderr)
        self.assertFalse(os.path.exists(out))

    def edited(self, src, name, edit):
        return edited_copy(src, self.out(name), edit)

    def test_merge_refuses_missing_and_duplicate_shards(self):
        self.refused([self.shards[0], self.shards[2]], 2, "missing shard 2 of 3")
        self.refused([self.shards[0], self.shards[1], self.shards[1]], 2, "are both shard 2/3")

    def test_merge_refuses_other_seed_config_fingerprint(self):
        seed = self.out("seed2.json")
        bhost(["run", self.cfg, "--quiet", "--shard", "2/3", "--seed", "7", "--out", seed],
              check=0)
        self.refused([self.shards[0], seed, self.shards[2]], 2, "shards of different seeds")
        other = self.out("other2.json")
        bhost(["run", self.other, "--quiet", "--shard", "2/3", "--out", other], check=0)
        self.refused([self.shards[0], other, self.shards[2]], 2, "shards of different configs")

        def cpu_model(d):
            d["system"]["cpu"]["model"] = "Another CPU"
        fp = self.edited(self.shards[1], "fp.json", cpu_model)
        self.refused([self.shards[0], fp, self.shards[2]], 2,
                     "shards of different system fingerprints")

        def commit(d):
            d["run"]["git"]["commit"] = "0" * 40
        if load(self.shards[0])["run"]["git"]["commit"]:
            gc = self.edited(self.shards[1], "commit.json", commit)
            self.refused([self.shards[0], gc, self.shards[2]], 2, "shards of different git commits")

    def test_merge_refuses_overlap_and_other_partition(self):
        four = self.out("four2.json")
        bhost(["run", self.cfg, "--quiet", "--shard", "2/4", "--out", four], check=0)
        self.refused([self.shards[0], four, self.shards[2]], 2, "shards of different splits")

        def steal(d):  # shard 2 claims shard 1's first case as well
            first = load(self.shards[0])
            d["cases"].insert(0, first["cases"][0])
            d["run"]["shard"]["positions"].insert(0, first["run"]["shard"]["positions"][0])
        over = self.edited(self.shards[1], "overlap.json", steal)
        self.refused([self.shards[0], over, self.shards[2]], 2, "overlapping shards")

        def repartition(d):
            d["run"]["shard"]["partition"] = "f" * 64
        rp = self.edited(self.shards[1], "repart.json", repartition)
        self.refused([self.shards[0], rp, self.shards[2]], 2, "shards of different partitions")

    def test_merge_refuses_malformed_files(self):
        bad = self.out("bad.json")
        with open(bad, "w") as f:
            f.write("{\"schema\": \"bhost.result/1\"")
        self.refused([self.shards[0], bad, self.shards[2]], 4, "bad.json")
        self.refused([self.shards[0], self.out("nope.json"), self.shards[2]], 4, "nope.json")
        self.refused([self.whole], 4, "not a shard result")
        p = bhost(["merge", self.out("x.json")])
        self.assertEqual(p.returncode, 2)

    def test_shard_against_full_baseline_reports_no_missing(self):
        base = self.out("base-results")
        bhost(["run", self.cfg, "--quiet", "--results-dir", base, "--save-baseline", "main"],
              check=0)
        out = self.out("gated.json")
        p = bhost(["run", self.cfg, "--quiet", "--shard", "1/3", "--baseline", "main",
                   "--results-dir", base, "--no-confirm", "--out", out])
        self.assertIn(p.returncode, (0, 5), p.stderr)
        d = load(out)
        self.assertEqual(d["comparison"]["missing"], [])
        self.assertEqual(d["comparison"]["counts"]["missing"], 0)
        for c in d["cases"]:
            self.assertIsNotNone(c["verdict"])

    # ---- git metadata ---------------------------------------------------

    def test_git_metadata_from_env(self):
        out = self.out("env.json")
        bhost(["run", self.cfg, "--quiet", "--filter", "selftest/noop*", "--out", out],
              env={"GITHUB_SHA": "ab" * 20, "GITHUB_REF_NAME": "main",
                   "GITHUB_REF_TYPE": "branch", "BHOST_GIT_DIRTY": "1"}, check=0)
        g = load(out)["run"]["git"]
        self.assertEqual((g["commit"], g["branch"], g["dirty"], g["source"]),
                         ("ab" * 20, "main", True, "GITHUB_SHA"))

    def test_git_metadata_from_a_repository(self):
        git = shutil.which("git")
        if not git:
            self.skipTest("git is not installed")
        repo = self.out("repo")
        os.makedirs(repo)
        genv = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e",
                    GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1",
                    HOME=repo)
        for k in CI_VARS:
            genv.pop(k, None)
        for args in (["init", "-q", "-b", "topic"], ["add", "."],
                     ["commit", "-q", "-m", "x"]):
            if args[0] == "add":
                with open(os.path.join(repo, "f.txt"), "w") as f:
                    f.write("one\n")
            subprocess.run([git] + args, cwd=repo, env=genv, check=True)
        head = subprocess.run([git, "rev-parse", "HEAD"], cwd=repo, env=genv, check=True,
                              capture_output=True, text=True).stdout.strip()
        out = self.out("repo.json")
        bhost(["run", self.cfg, "--quiet", "--filter", "selftest/noop*", "--out", out],
              cwd=repo, env={"BHOST_GIT_DIRTY": None, "HOME": repo}, check=0)
        self.assertEqual(load(out)["run"]["git"],
                         {"commit": head, "branch": "topic", "dirty": False, "source": "git"})
        with open(os.path.join(repo, "f.txt"), "w") as f:
            f.write("two\n")
        bhost(["run", self.cfg, "--quiet", "--filter", "selftest/noop*", "--out", out],
              cwd=repo, env={"BHOST_GIT_DIRTY": None, "HOME": repo}, check=0)
        self.assertTrue(load(out)["run"]["git"]["dirty"])

    # ---- the job matrix and the workflow ---------------------------------

    def test_ci_matrix_of_the_repository_configs(self):
        p = bhost(["ci-matrix", os.path.join(SRC, "configs")], check=0)
        jobs = json.loads(p.stdout)["include"]
        names = [j["config_name"] for j in jobs]
        self.assertIn("smoke", names)
        self.assertIn("nightly", names)
        self.assertEqual(len(set(j["id"] for j in jobs)), len(jobs))
        for j in jobs:
            self.assertTrue(os.path.isfile(j["config"]), j["config"])
        with open(os.path.join(SRC, ".github", "workflows", "bhost.yml")) as f:
            wf = f.read()
        used = set(re.findall(r"(?<![.\w])matrix\.([a-z_]+)", wf))
        self.assertTrue(used)
        for j in jobs:
            self.assertLessEqual(used, set(j), "the workflow reads fields the matrix lacks")
        p = bhost(["ci-matrix", os.path.join(SRC, "configs"), "--filter", "smoke",
                   "--shards", "2", "--runner", "cpu=self-hosted,bench"], check=0)
        jobs = json.loads(p.stdout)["include"]
        self.assertEqual([j["args"] for j in jobs], ["--shard 1/2", "--shard 2/2"])
        self.assertEqual(jobs[0]["runs_on"], ["self-hosted", "bench"])

    def test_ci_matrix_errors(self):
        p = bhost(["ci-matrix", os.path.join(SRC, "configs"), "--filter", "no-such-config"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("matches no config", p.stderr)
        bad = self.out("badconfigs")
        os.makedirs(bad, exist_ok=True)
        with open(os.path.join(bad, "x.yaml"), "w") as f:
            f.write("schema: 1\nname: x\nsuites: 3\n")
        p = bhost(["ci-matrix", bad])
        self.assertEqual(p.returncode, 3)
        self.assertRegex(p.stderr, r"x\.yaml:3:\d+: ")
        p = bhost(["ci-matrix", self.out("no-such-dir")])
        self.assertEqual(p.returncode, 2)
        p = bhost(["ci-matrix", self.cfg, self.other], check=0)
        self.assertEqual([j["name"] for j in json.loads(p.stdout)["include"]],
                         ["shardy", "other"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
