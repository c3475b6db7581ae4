#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost ab on two builds of fx_ab.so (tests/ab/fx_ab.c).

The b build does four times the work in spin (not a subtler 25%: on a
busy shared machine a run disturbed by other processes was seen slowed
3.7-fold while its pair's other run was not, and the test must not depend
on a quiet machine; tools/eval-ab.sh measures small slowdowns on a quiet
one), crashes in crash and has one more
benchmark (extra). Checked: A against B decides spin regressed (critical)
on paired data and fails the gate with --fail-on-regression, crash is
crashed on B's side only while spin is still decided, extra is listed as
only in B; A against A decides no regression; a missing folder is a usage
error (2) and a folder without fx_ab.so a config error (3), each one line;
bhost help ab prints the help; a result under --results-dir is no point of
bhost history. No timing is asserted: the verdicts follow
from four times the work (far beyond the config's 10% floor) and from two runs
of one file.
"""
import json
import os
import subprocess
import sys
import tempfile

BHOST = os.environ["BHOST_EXE"]
A = os.environ["AB_A_DIR"]
B = os.environ["AB_B_DIR"]
CONFIG = os.environ["AB_CONFIG"]


def ab(*args, cwd):
    """Runs bhost ab CONFIG ARGS; (exit code, stdout, stderr)."""
    p = subprocess.run([BHOST, "ab", CONFIG, *args], cwd=cwd, capture_output=True, text=True,
                       timeout=240)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, out=""):
    if not cond:
        print("FAIL:", what)
        if out:
            print(out)
        sys.exit(1)


def case(doc, cid, cases=None):
    for c in doc["cases"] if cases is None else cases:
        if c["id"] == cid:
            return c
    raise KeyError(cid)


def time_metric(c):
    for m in c["verdict"]["metrics"]:
        if m["metric"] == "time":
            return m
    raise KeyError("time")


def test_a_against_b(tmp):
    out = os.path.join(tmp, "ab.json")
    rc, so, se = ab("--a", A, "--b", B, "--out", out, "--fail-on-regression", cwd=tmp)
    # crash failed on B's side: exit 1 takes precedence over 5, as in run
    check(rc == 1, f"A/B with a crash on B exits 1 (got {rc})", so + se)
    doc = json.load(open(out))
    check(doc["schema"] == "bhost.result/1", "a bhost.result/1 document")
    spin = case(doc, "fx_ab/spin[work=20000]")
    m = time_metric(spin)
    conf = m["confirmation"]
    check(conf["paired"] and conf["pairs"] == 10, "spin decided on 10 pairs", json.dumps(conf))
    check(m["verdict"] == "regressed" and m["severity"] == "critical",
          "spin regressed (critical)", json.dumps(m))
    check(conf["change_lo"] > 0.10, "spin's paired interval lies above the floor",
          json.dumps(conf))
    check(len(conf["baseline_values"]) == 10 and len(conf["candidate_values"]) == 10,
          "the pairs' values are kept")
    a_spin = case(doc, "fx_ab/spin[work=20000]", doc["ab"]["a"]["cases"])
    check(len(a_spin["runs"]) == 10 and len(spin["runs"]) == 10, "10 runs a side")
    check(doc["ab"]["a"]["plugins_dir"] == os.path.realpath(A), "A's folder recorded")
    check(doc["ab"]["b"]["plugins_dir"] == os.path.realpath(B), "B's folder recorded")
    crash_b = case(doc, "fx_ab/crash[work=20000]")
    crash_a = case(doc, "fx_ab/crash[work=20000]", doc["ab"]["a"]["cases"])
    # crashed; failed under AddressSanitizer, whose handler turns SIGSEGV into exit 1
    check(crash_b["status"] in ("crashed", "failed") and crash_a["status"] == "ok",
          "crash fails on B only", f"{crash_b['status']} {crash_a['status']}")
    check(doc["ab"]["only_b"] == ["fx_ab/extra[work=20000]"] and doc["ab"]["only_a"] == [],
          "extra is only in B", json.dumps(doc["ab"]["only_b"]))
    check(doc["comparison"]["regressed"]["critical"] >= 1, "the summary counts it")
    md = open(out[:-len(".json")] + ".md").read()
    check("fx\\_ab/spin" in md and "regressed" in md.lower(),
          "the config's output: Markdown report names the regression", md[:2000])
    check(doc["run"]["git"].keys() >= {"commit", "branch", "dirty"}, "run.git recorded")
    for word in ("A median", "B median", "paired change", "fx_ab/spin[work=20000]",
                 "regressed (critical)", "B " + crash_b["status"], "only in B"):
        check(word in so, f"the table shows '{word}'", so)
    # without the crashing case, the regression alone fails the gate
    rc, so, se = ab("--a", A, "--b", B, "-f", "spin", "--out", out, "--fail-on-regression",
                    "--runs", "12", "-q", cwd=tmp)
    check(rc == 5, f"a critical regression exits 5 (got {rc})", so + se)


def test_a_against_a(tmp):
    out = os.path.join(tmp, "aa.json")
    rc, so, se = ab("--a", A, "--b", A, "--out", out, "--fail-on-regression", "--json",
                    cwd=tmp)
    check(rc == 0, f"A/A exits 0 (got {rc})", so + se)
    doc = json.loads(so)
    for c in doc["cases"]:
        check(c["status"] == "ok", f"{c['id']} ok in A/A")
        m = time_metric(c)
        check(m["verdict"] != "regressed", f"{c['id']} not regressed in A/A", json.dumps(m))
        check(m["confirmation"]["paired"], f"{c['id']} decided paired")
    check(doc["ab"]["only_a"] == [] and doc["ab"]["only_b"] == [], "the same cases")


def test_default_path_and_history(tmp):
    """Without --out the result goes to <results-dir>/<config>/ab/, and
    bhost history leaves it out: neither build is the config's history."""
    res = os.path.join(tmp, "res")
    rc, so, se = ab("--a", A, "--b", A, "-f", "spin", "--runs", "6", "--results-dir", res, "-q",
                    cwd=tmp)
    check(rc == 0, f"A/A into --results-dir exits 0 (got {rc})", so + se)
    files = sorted(os.listdir(os.path.join(res, "ab_test", "ab")))
    check(len(files) == 2 and files[0].endswith(".json") and files[1].endswith(".md"),
          "one result and its Markdown report under ab_test/ab/", repr(files))
    p = subprocess.run([BHOST, "history", res, "--json"], capture_output=True, text=True)
    check("fx_ab/spin" not in p.stdout, "bhost history has no series of the ab result",
          p.stdout + p.stderr)


def test_errors(tmp):
    rc, so, se = ab("--a", os.path.join(tmp, "nowhere"), "--b", B, cwd=tmp)
    check(rc == 2 and se.count("\n") == 1 and "--a" in se and "nowhere" in se,
          f"a missing folder: exit 2 and one line (got {rc})", se)
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    rc, so, se = ab("--a", A, "--b", empty, cwd=tmp)
    check(rc == 3 and se.count("\n") == 1 and "fx_ab.so" in se and "--b" in se,
          f"a folder without the plugin: exit 3 and one line (got {rc})", se)
    rc, so, se = ab("--a", A, cwd=tmp)
    check(rc == 2 and "--b" in se, f"no --b: exit 2 (got {rc})", se)
    p = subprocess.run([BHOST, "help", "ab"], capture_output=True, text=True)
    check(p.returncode == 0 and "--a DIR" in p.stdout and "A B B A" in p.stdout, "bhost help ab")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_errors(tmp)
        test_a_against_b(tmp)
        test_a_against_a(tmp)
        test_default_path_and_history(tmp)
    print("ok")


if __name__ == "__main__":
    main()
