#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The HTML report in headless Chromium: it loads without a single console
message (the page's Content-Security-Policy allows its one script by hash
and forbids every other script and network fetch, so any slip shows up as
a console error), the rendered DOM holds every section and the charts (SVG
elements counted), and a screenshot renders. Inputs: a synthetic result
with verdicts, the run's ceilings (roofline), devices side by side and
failures, with a history folder; and the same without history or verdicts
(sections say why they are empty).

A probe script, run in a copy of the page, then checks in the browser's
own layout: after a click on each navigation link its section's heading is
below the sticky bar and on screen; no two texts of a chart overlap and no
two row labels of a chart read the same, on a nightly-size report (200
cases); the summary filters (the verdict filter by a reading of
inconclusive too) and sorting do what they say.

The summary table is checked against the document as the console reads
it: each median is the median of the run medians computed here from the
document's samples, with its 95% interval from their order statistics ("-"
under 6 runs), CV marked noisy exactly where the high_cv flag is, the
roofline cell names its ceiling, and the verdict reads in the console's
words with its reason under it; the distribution chart labels print the
same median and interval. Skipped (exit 77) when chromium is not
installed."""
import html as html_lib
from html.parser import HTMLParser
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402

SECTIONS = ["summary", "changes", "distributions", "roofline", "backends", "history", "system"]


class SummaryRows(HTMLParser):
    """The rows of the summary table: per row its attributes and per cell
    its attributes, its whole text and the texts of its "why" lines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cell, self.why, self.inside = [], None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "summary-table":
            self.inside = True
        elif self.inside and tag == "tr" and "data-status" in a:
            self.rows.append({"attrs": a, "cells": []})
        elif self.inside and tag == "td" and self.rows:
            self.cell = {"attrs": a, "text": "", "why": []}
            self.rows[-1]["cells"].append(self.cell)
        elif self.cell is not None and tag == "div" and "why" in a.get("class", ""):
            self.why = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "td":
            self.cell = None
        elif tag == "div" and self.why is not None:
            self.cell["why"].append(self.why)
            self.why = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.why is not None:
            self.why += data


def check_summary(src, doc):
    """The summary table and the distribution labels of report src say of
    each case of doc what the console says; returns the counts of rows
    checked: "too_few" (verdicts that read too few runs to judge), "noisy",
    "ci" (with an interval) and "no_ci" (without)."""
    parser = SummaryRows()
    parser.feed(src)
    rows = parser.rows
    assert len(rows) == len(doc["cases"]), (len(rows), len(doc["cases"]))
    assert "<th data-sort=\"n\">95% CI</th>" in src and "99% CI" not in src
    assert 'id="summary-legend">median: the median of the run medians' in src
    comp = doc.get("comparison") or {}
    alpha = comp["fdr"] / comp["family"] if comp.get("family") else None
    got = {"too_few": 0, "noisy": 0, "ci": 0, "no_ci": 0}
    ceilings = {k["name"] for k in (doc.get("roofs") or {}).get("ceilings") or []}
    for c, r in zip(doc["cases"], rows):
        cells = r["cells"]
        assert cells[0]["text"] == c["id"], (cells[0]["text"], c["id"])
        med, lo, hi, n = rt.run_median(c)
        if c.get("summary"):
            # the median of the run medians, not the all-sample median
            assert float(cells[2]["attrs"]["data-v"]) == float("%.9g" % med), (c["id"], med)
            assert cells[2]["text"] == rt.fmt_time(med), (cells[2]["text"], med)
            assert cells[3]["text"] == rt.ci_text(lo, hi), (c["id"], cells[3]["text"], lo, hi)
            assert (lo is None) == (n < 6), (c["id"], n)
            noisy = "high_cv" in (c["summary"].get("flags") or [])
            assert (cells[4]["why"] == ["noisy"]) == noisy, (c["id"], cells[4])
            got["noisy"] += noisy
            got["ci" if lo is not None else "no_ci"] += 1
            # the distribution chart's label at the right says the same
            if lo is not None:
                label = "%s  95%% CI %s</text>" % (rt.fmt_time(med), rt.ci_text(lo, hi))
            else:
                label = "%s  (%d runs: no 95%% CI)</text>" % (rt.fmt_time(med), n)
            assert label in src, label
        else:
            assert cells[2]["text"] == "-" and cells[3]["text"] == "-", c["id"]
        roof = c.get("roofline")
        if roof and ceilings:
            name = roof["memory_ceiling"] if roof["bound"] != "compute" else \
                roof["compute_ceiling"]
            assert cells[6]["why"][0] == "of " + name, (c["id"], cells[6]["why"], name)
            assert ("above its ceiling" in cells[6]["why"]) == bool(roof.get("above_ceiling"))
        v = c.get("verdict")
        label = rt.verdict_label(c)
        assert r["attrs"]["data-verdict"] == (label or ""), (c["id"], r["attrs"])
        if v:
            words = rt.verdict_words(c, alpha)
            tc = rt.time_change(c)
            assert cells[-1]["text"] == words + tc["reason"], (cells[-1]["text"], words)
            assert cells[-1]["why"] == [tc["reason"]], cells[-1]["why"]
            assert "inconclusive" not in words or label == "inconclusive"
            got["too_few"] += label == "too few runs to judge"
    # the verdict filter offers the readings the document has
    opts = re.search(r'<select id="f-verdict">(.*?)</select>', src)
    if any(c.get("verdict") for c in doc["cases"]):
        offered = re.findall(r"<option>([^<]*)</option>", opts.group(1))
        assert set(offered) == {rt.verdict_label(c) for c in doc["cases"]
                                if c.get("verdict")}, offered
    return got


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def load(exe, html, d, shot=None):
    """(DOM text, console lines) of html in headless Chromium."""
    args = [exe, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
            "--user-data-dir=" + os.path.join(d, "profile"), "--enable-logging=stderr",
            "--v=0", "--window-size=1400,2000"]
    if shot:
        args.append("--screenshot=" + shot)
    else:
        args.append("--dump-dom")
    p = subprocess.run(args + ["file://" + html], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    console = [ln for ln in p.stderr.splitlines() if ":CONSOLE" in ln]
    return p.stdout, console


# Runs in a copy of the report (without its CSP), after the report's own
# script: writes what it found as JSON into <body data-probe>.
PROBE = r"""
(function(){
var out={nav:[],collisions:[],dup_labels:[],texts:0};
var nav=document.querySelector('nav'),links=document.querySelectorAll('nav a');
for(var i=0;i<links.length;i++){
  var a=links[i];a.click();
  var sec=document.getElementById(a.getAttribute('href').slice(1));
  var h=sec.querySelector('h2').getBoundingClientRect();
  out.nav.push({id:sec.id,top:h.top,bottom:h.bottom,bar:nav.getBoundingClientRect().bottom,
                view:window.innerHeight,y:window.scrollY});
}
var svgs=document.querySelectorAll('svg');
for(var s=0;s<svgs.length;s++){
  var ts=svgs[s].querySelectorAll('text'),boxes=[],seen={};
  for(var k=0;k<ts.length;k++){
    var r=ts[k].getBoundingClientRect();
    if(r.width>0)boxes.push([r.left,r.top,r.right,r.bottom,ts[k].textContent]);
    if(ts[k].getAttribute('class')==='c'){
      var t=ts[k].textContent;
      if(seen[t])out.dup_labels.push((svgs[s].getAttribute('aria-label')||'')+': '+t);
      seen[t]=1;
    }
  }
  out.texts+=boxes.length;
  for(var x=0;x<boxes.length;x++)for(var y=x+1;y<boxes.length;y++){
    var A=boxes[x],B=boxes[y];
    if(A[0]<B[2]-0.5&&B[0]<A[2]-0.5&&A[1]<B[3]-0.5&&B[1]<A[3]-0.5)
      out.collisions.push((svgs[s].getAttribute('aria-label')||'')+': '+A[4]+' / '+B[4]);
  }
}
function shown(){var n=0,rs=document.querySelectorAll('#summary-table tbody tr');
  for(var i=0;i<rs.length;i++)if(!rs[i].hidden)n++;return n;}
function set(id,v){var e=document.getElementById(id);if(!e)return false;e.value=v;
  e.dispatchEvent(new Event('input'));return true;}
out.rows=shown();
out.status_set=set('f-status','skipped');out.skipped=shown();set('f-status','');
out.verdict_set=set('f-verdict','improved');out.improved=shown();set('f-verdict','');
out.too_few_set=set('f-verdict','too few runs to judge');out.too_few=shown();set('f-verdict','');
set('f-text','tokenizer');out.text=shown();set('f-text','');
out.count=document.getElementById('summary-count').textContent;
var th=document.querySelectorAll('#summary-table thead th')[2];th.click();
var cells=document.querySelectorAll('#summary-table tbody tr td:nth-child(3)'),v=[];
for(var i=0;i<cells.length;i++){var d=cells[i].getAttribute('data-v');if(d)v.push(+d);}
out.sorted=v.length>10&&v.every(function(x,i){return i==0||v[i-1]<=x;});
out.sorted_n=v.length;
document.body.setAttribute('data-probe',JSON.stringify(out));
})();
"""


def probe(exe, html, d):
    """The probe's findings (a dict) on a copy of html."""
    with open(html) as f:
        src = f.read()
    src = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", src)
    src = src.replace("</body>", "<script>" + PROBE + "</script>\n</body>")
    copy = os.path.join(d, "probe.html")
    with open(copy, "w") as f:
        f.write(src)
    dom, console = load(exe, copy, d)
    assert not console, "console messages:\n" + "\n".join(console)
    m = re.search(r'data-probe="([^"]*)"', dom)
    assert m, "the probe did not run"
    return json.loads(html_lib.unescape(m.group(1)))


def check_probe(exe, html, d, doc):
    """The layout checks on the report html of result doc, and its summary
    against the document (check_summary)."""
    with open(html) as f:
        counts = check_summary(f.read(), doc)
    assert counts["noisy"] > 0 and counts["ci"] > 0, counts
    too_few = counts["too_few"]
    got = probe(exe, html, d)
    for n in got["nav"]:
        assert n["top"] >= n["bar"] - 0.5 and n["bottom"] <= n["view"], n
    assert got["texts"] > 100, got["texts"]
    assert not got["collisions"], "%d overlapping texts: %s" % (
        len(got["collisions"]), got["collisions"][:10])
    assert not got["dup_labels"], got["dup_labels"][:10]
    cases = doc["cases"]
    assert got["rows"] == len(cases)
    assert got["status_set"] and got["skipped"] == sum(c["status"] == "skipped" for c in cases)
    if any(c.get("verdict") for c in cases):
        assert got["verdict_set"]
        assert got["improved"] == sum((c.get("verdict") or {}).get("verdict") == "improved"
                                      for c in cases)
        # an inconclusive verdict is filtered by its reading
        assert too_few > 0 and got["too_few_set"] and got["too_few"] == too_few, (
            got["too_few"], too_few)
    assert got["text"] == sum("tokenizer" in c["id"] for c in cases)
    assert got["count"] == "%d of %d cases shown" % (len(cases), len(cases)), got["count"]
    assert got["sorted"], got["sorted_n"]
    return got


def main():
    exe = chromium()
    if not exe:
        print("SKIP: chromium not installed (Debian package chromium)")
        sys.exit(rt.SKIP)
    d = rt.tmpdir()
    try:
        syn = os.path.join(d, "syn.json")
        hist = os.path.join(d, "hist")
        html = os.path.join(d, "report.html")
        rt.gen("--cases", "40", "--verdicts", "--ceilings", "--failures", "--out", syn)
        rt.gen("--cases", "40", "--history-dir", hist, "--nights", "10")
        rt.run(["report", syn, "--html", html, "--history", hist], check_rc=0)
        with open(html) as f:
            src = f.read()
        # self-contained: nothing that could fetch, one inline script allowed by its hash
        for bad in ("<link", "src=", "@import", "@font-face", "<script "):
            assert bad not in src, bad
        assert not re.search(r"url\((?!#)", src)  # only references within the page
        assert src.count("<script>") == 1 and "script-src 'sha256-" in src
        dom, console = load(exe, html, d)
        assert not console, "console messages:\n" + "\n".join(console)
        for s in SECTIONS:
            assert '<section id="%s">' % s in dom, s
        svgs = dom.count("<svg")
        groups = len(re.findall(r"<h3>[^<]*</h3>\n<div class=\"scroll\"><svg", dom))
        cards = dom.count('<div class="card">')
        # changes + one per distribution group + roofline chart and bars + history
        assert groups >= 4, groups
        assert cards >= 30, cards
        assert svgs >= 1 + groups + 2 + cards, (svgs, groups, cards)
        assert dom.count("<circle") > 100
        assert "<script>alert" not in dom and "&lt;script&gt;alert" in dom
        assert 'class="n best"' in dom  # devices side by side
        print("report with history: %d svg elements, %d distribution groups, %d trend "
              "charts, no console messages" % (svgs, groups, cards))

        # the roofline: every ceiling a labelled line, the flagged case named
        assert dom.count('clip-path="url(#roof-plot)"') == 1
        assert "above its ceiling: check the bytes/FLOP accounting or the ceiling" in dom
        assert 'class="pt above"' in dom and "latency-bound" in dom
        with open(syn) as f:
            sdoc = json.load(f)
        for k in sdoc["roofs"]["ceilings"]:
            if k["kind"] != "latency":
                assert ">%s</text>" % k["name"] in dom, k["name"]
        assert "no finite interval" in dom  # inconclusive rows without a lower bound
        assert "+1000%" not in dom and "-1000%" not in dom
        check_probe(exe, html, d, sdoc)
        print("navigation, labels, filters and sorting checked in the layout")

        # nightly size: 200 cases, with the roofs of older documents too
        for flag in ("--ceilings", "--roofline"):
            big = os.path.join(d, "big.json")
            bhtml = os.path.join(d, "big.html")
            rt.gen("--cases", "200", "--verdicts", flag, "--failures", "--out", big)
            rt.run(["report", big, "--html", bhtml, "--history", hist], check_rc=0)
            with open(big) as f:
                got = check_probe(exe, bhtml, d, json.load(f))
            print("200 cases (%s): %d texts, none overlapping, labels distinct" % (
                flag, got["texts"]))

        shot = os.path.join(d, "report.png")
        _, console = load(exe, html, d, shot=shot)
        assert not console, console
        with open(shot, "rb") as f:
            png = f.read()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000, len(png)

        # a bare result: no verdicts, no roofline, no history
        plain = os.path.join(d, "plain.json")
        phtml = os.path.join(d, "plain.html")
        rt.gen("--cases", "6", "--runs", "3", "--out", plain)
        rt.run(["report", plain, "--html", phtml], check_rc=0)
        with open(plain) as f, open(phtml) as g:
            counts = check_summary(g.read(), json.load(f))
        assert counts["no_ci"] == 6 and counts["ci"] == 0, counts
        dom, console = load(exe, phtml, d)
        assert not console, console
        assert "No comparison with a baseline" in dom
        assert "No roofline" in dom and "No history" in dom
        assert dom.count("<svg") >= 3
        print("bare report loads without console messages; 3 runs a case: no 95% CI")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
