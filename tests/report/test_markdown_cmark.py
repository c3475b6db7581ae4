#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Markdown summary through cmark-gfm, the CommonMark renderer with
GitHub's extensions that GitHub's job summaries and comments are built on
(Debian package cmark-gfm): every table renders as a table with as many
cells in each row as in its header, every case id and reason reads back as
its own text (no stray backslash, nothing taken as markup or raw HTML), the
config path is a code span with no escape inside (`ux_slow.yaml`, not
`ux\\_slow.yaml`), and the collapsed sections are <details>. The table of
all cases says what the console says: the median of the run medians
(computed here from the document's samples) with its 95% interval ("-"
under 6 runs), CV marked noisy where the high_cv flag is, and the verdict
in the console's words with its reason; the change tables give each
verdict's reason. Inputs:
synthetic results with verdicts, the run's ceilings (one case above its
ceiling), failures with hostile text, and a config named ux_slow. Skipped
(exit 77) when cmark-gfm is not installed."""
import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402


class Tables(HTMLParser):
    """The tables of a page (rows of cell texts, the header row first), the
    text of <code> elements and the text outside them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.codes, self.text = [], [], []
        self.cell = self.code = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "code":
            self.code = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None
        elif tag == "code" and self.code is not None:
            self.codes.append("".join(self.code))
            self.code = None

    def handle_data(self, data):
        for sink in (self.cell, self.code):
            if sink is not None:
                sink.append(data)
        self.text.append(data)


def render(exe, md):
    p = subprocess.run([exe, "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink",
                        "--to", "html"], input=md, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


def check(exe, d, name, gen_args):
    doc_path = os.path.join(d, name + ".json")
    md_path = os.path.join(d, name + ".md")
    rt.gen(*gen_args, "--out", doc_path)
    rt.run(["report", doc_path, "--markdown", md_path], check_rc=0)
    with open(md_path) as f:
        md = f.read()
    out = render(exe, md)
    page = Tables()
    page.feed(out)
    text = "".join(page.text)
    # every pipe table became a table, each row as wide as its header
    headers = sum(1 for ln in md.splitlines() if ln.startswith("|---") or ln.startswith("|--"))
    assert len(page.tables) == headers, (len(page.tables), headers)
    for t in page.tables:
        assert len(t) >= 2
        for row in t:
            assert len(row) == len(t[0]), (t[0], row)
    # the config path: a code span, verbatim
    assert "configs/ux_slow.yaml" in page.codes, page.codes
    assert "\\" not in "".join(page.codes)
    # ids and reasons read back as their own text
    with open(doc_path) as f:
        doc = json.load(f)
    cells = {c for t in page.tables for row in t for c in row}
    for c in doc["cases"]:
        assert c["id"] in cells, c["id"]
        if c.get("message"):
            want = " ".join(c["message"].split("\n"))
            assert any(want in x for x in cells), want
    assert "<script>" not in out and "\\_" not in text and "\\|" not in text
    assert out.count("<details>") == md.count("<details>") >= 1
    check_figures(page, doc)
    return page, text


def check_figures(page, doc):
    """The table of all cases and the change tables against doc."""
    (full,) = [t for t in page.tables if t[0][:4] == ["case", "status", "median", "95% CI"]]
    assert full[0] == ["case", "status", "median", "95% CI", "CV", "throughput", "verdict"]
    rows = {r[0]: r for r in full[1:]}
    comp = doc.get("comparison") or {}
    alpha = comp["fdr"] / comp["family"] if comp.get("family") else None
    seen = {"noisy": 0, "ci": 0, "no_ci": 0, "too_few": 0, "undetected": 0}
    for c in doc["cases"]:
        r = rows[c["id"]]
        med, lo, hi, n = rt.run_median(c)
        if not c.get("summary"):
            assert r[2] == "-" and r[3] == "-", r
            continue
        # the median of the run medians, not the all-sample median
        assert r[2] == rt.fmt_time(med), (r, med)
        assert r[3] == rt.ci_text(lo, hi), (r, lo, hi)
        assert (lo is None) == (n < 6), (c["id"], n)
        seen["ci" if lo is not None else "no_ci"] += 1
        noisy = "high_cv" in (c["summary"].get("flags") or [])
        assert r[4].endswith(" noisy") == noisy, r
        seen["noisy"] += noisy
        if c.get("verdict"):
            tc = rt.time_change(c)
            assert r[6] == "%swhy: %s" % (rt.verdict_words(c, alpha), tc["reason"]), r[6]
            label = rt.verdict_label(c)
            seen["too_few"] += label == "too few runs to judge"
            seen["undetected"] += label == "no change detected"
        else:
            assert r[6] == "", r
    # the change tables: each verdict's reason in its own column
    by_id = {c["id"]: c for c in doc["cases"]}
    for t in page.tables:
        if t[0][:3] == ["case", "metric", "change"]:
            assert t[0][-1] == "why", t[0]
            for r in t[1:]:
                assert r[-1] == rt.time_change(by_id[r[0]])["reason"], r
    return seen


def main():
    exe = shutil.which("cmark-gfm")
    if not exe:
        print("SKIP: cmark-gfm not installed (Debian package cmark-gfm)")
        sys.exit(rt.SKIP)
    d = rt.tmpdir()
    try:
        page, text = check(exe, d, "full", ["--cases", "60", "--verdicts", "--ceilings",
                                           "--failures", "--config", "ux_slow"])
        with open(os.path.join(d, "full.json")) as f:
            seen = check_figures(page, json.load(f))
        assert seen["noisy"] and seen["ci"] and seen["too_few"] and seen["undetected"], seen
        print("all-cases table: medians of run medians, 95%% intervals and verdict words "
              "checked (%s)" % seen)
        assert "above its ceiling: check the bytes/FLOP accounting or the ceiling" in text
        roof = [t for t in page.tables if t[0][:3] == ["case", "level", "ceiling"]]
        assert len(roof) == 2 and any(r[-1] == "above its ceiling" for r in roof[0][1:])
        print("%d tables, ids, reasons and the code span render as written" % len(page.tables))
        page, _ = check(exe, d, "plain", ["--cases", "6", "--runs", "3", "--config", "ux_slow"])
        with open(os.path.join(d, "plain.json")) as f:
            seen = check_figures(page, json.load(f))
        assert seen["no_ci"] == 6 and seen["ci"] == 0, seen
        print("a result without verdicts or roofline renders too")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
