#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost report on synthetic results: CSV, BMF and Google Benchmark JSON
carry the result's numbers (read back and compared), the Markdown summary
puts regressions first, then improvements, then the collapsed table, the
JUnit XML counts what it should, and --baseline computes verdicts with the
regression engine."""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402


def check_markdown(doc, path):
    with open(path) as f:
        md = f.read()
    reg = md.find("### Regressions (")
    imp = md.find("### Improvements (")
    det = md.find("<details><summary>All %d cases</summary>" % len(doc["cases"]))
    assert 0 < reg < imp < det, (reg, imp, det)
    assert md.rstrip().endswith("</details>")
    # the full table: one row per case
    table = md[det:]
    assert len(re.findall(r"^\| ", table, re.M)) == len(doc["cases"]) + 1
    # regressions critical first, every regressed case in its section
    # (severity is the column before the verdict's reason)
    regs = md[reg:imp]
    sev = [ln.rsplit("|", 3)[-3].strip() for ln in regs.splitlines()
           if ln.startswith("| ") and not ln.startswith("| case")]
    order = {"critical": 0, "warning": 1, "minor": 2}
    assert sev == sorted(sev, key=lambda s: order[s]), sev
    n_reg = sum(1 for c in doc["cases"]
                if isinstance(c.get("verdict"), dict) and c["verdict"]["verdict"] == "regressed")
    n_imp = sum(1 for c in doc["cases"]
                if isinstance(c.get("verdict"), dict) and c["verdict"]["verdict"] == "improved")
    assert "### Regressions (%d)" % n_reg in md
    assert "### Improvements (%d)" % n_imp in md
    assert len(sev) == n_reg
    assert "<script>" not in md
    return n_reg, n_imp


def check_junit(doc, path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    (suite,) = list(root)
    cases = suite.findall("testcase")
    assert len(cases) == len(doc["cases"])
    want = {"failure": 0, "error": 0, "skipped": 0}
    for c, tc in zip(doc["cases"], cases):
        assert tc.get("name") == c["id"]
        assert tc.get("classname") == "%s/%s" % (c["plugin"], c["benchmark"])
        st = c["status"]
        v = c.get("verdict") if isinstance(c.get("verdict"), dict) else {}
        kind = None
        if st in ("skipped", "unsupported"):
            kind = "skipped"
        elif st in ("failed", "invalid"):
            kind = "failure"
        elif st != "ok":
            kind = "error"
        elif v.get("verdict") == "regressed" and v.get("severity") == "critical":
            kind = "failure"
        got = [e.tag for e in tc if e.tag in want]
        assert got == ([kind] if kind else []), (c["id"], got, kind)
        if kind:
            want[kind] += 1
            el = tc.find(kind)
            if kind != "skipped":
                assert el.get("type") == ("regression" if st == "ok" else st)
            if st != "ok" and c.get("message"):
                # characters XML cannot carry arrive as U+FFFD, the rest intact
                msg = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f]", "\ufffd", c["message"])
                assert msg in el.get("message"), (el.get("message"), msg)
    assert suite.get("tests") == str(len(doc["cases"]))
    assert suite.get("failures") == str(want["failure"])
    assert suite.get("errors") == str(want["error"])
    assert suite.get("skipped") == str(want["skipped"])
    return want


def main():
    d = rt.tmpdir()
    try:
        syn = os.path.join(d, "syn.json")
        rt.gen("--cases", "60", "--verdicts", "--roofline", "--failures", "--out", syn)
        outs = {f: os.path.join(d, "out." + f) for f in
                ("csv", "bmf", "gbench", "markdown", "junit", "json")}
        args = ["report", syn]
        for f, p in outs.items():
            args += ["--" + f, p]
        rt.run(args, check_rc=0)
        with open(syn) as f:
            doc = json.load(f)
        print("csv rows:", rt.check_csv(doc, outs["csv"]))
        print("bmf benchmarks:", rt.check_bmf(doc, outs["bmf"]))
        print("gbench entries:", rt.check_gbench(doc, outs["gbench"]))
        print("markdown regressions, improvements:", check_markdown(doc, outs["markdown"]))
        print("junit:", check_junit(doc, outs["junit"]))
        with open(outs["json"]) as f:
            assert json.load(f) == doc  # --json writes the document back unchanged

        # the same file twice gives the same bytes
        again = os.path.join(d, "again.csv")
        rt.run(["report", syn, "--csv", again], check_rc=0)
        with open(outs["csv"], "rb") as a, open(again, "rb") as b:
            assert a.read() == b.read()

        # --baseline: the regression engine decides; every 4th case 40% slower
        base = os.path.join(d, "base.json")
        cand = os.path.join(d, "cand.json")
        rt.gen("--cases", "24", "--seed", "5", "--out", base)
        rt.gen("--cases", "24", "--seed", "6", "--slow-every", "4", "--slow-factor", "1.4",
               "--out", cand)
        md = os.path.join(d, "cmp.md")
        out = os.path.join(d, "cmp.json")
        rt.run(["report", cand, "--baseline", base, "--markdown", md, "--json", out,
                "--junit", os.path.join(d, "cmp.xml")], check_rc=0)
        with open(out) as f:
            cmp_doc = json.load(f)
        assert cmp_doc["comparison"]["baseline"] == base
        slow = {c["id"] for i, c in enumerate(cmp_doc["cases"]) if i % 4 == 0}
        regressed = {c["id"] for c in cmp_doc["cases"]
                     if c["verdict"] and c["verdict"]["verdict"] == "regressed"}
        assert regressed == slow, (sorted(regressed), sorted(slow))
        n_reg, _ = check_markdown(cmp_doc, md)
        assert n_reg == len(slow)
        check_junit(cmp_doc, os.path.join(d, "cmp.xml"))
        print("baseline comparison: %d regressions found, as injected" % n_reg)
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
