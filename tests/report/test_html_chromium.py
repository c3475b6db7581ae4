#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The HTML report in headless Chromium: it loads without a single console
message (the page's Content-Security-Policy forbids scripts and every
network fetch, so any slip shows up as a console error), the rendered DOM
holds every section and the charts (SVG elements counted), and a
screenshot renders. Inputs: a synthetic result with verdicts, rooflines,
devices side by side and failures, with a history folder; and the same
without history or verdicts (sections say why they are empty). Skipped
(exit 77) when chromium is not installed."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402

SECTIONS = ["summary", "changes", "distributions", "roofline", "backends", "history", "system"]


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
        rt.gen("--cases", "40", "--verdicts", "--roofline", "--failures", "--out", syn)
        rt.gen("--cases", "40", "--history-dir", hist, "--nights", "10")
        rt.run(["report", syn, "--html", html, "--history", hist], check_rc=0)
        with open(html) as f:
            src = f.read()
        # self-contained: nothing that could fetch
        for bad in ("<script", "<link", "src=", "url(", "@import", "@font-face"):
            assert bad not in src, bad
        dom, console = load(exe, html, d)
        assert not console, "console messages:\n" + "\n".join(console)
        for s in SECTIONS:
            assert '<section id="%s">' % s in dom, s
        svgs = dom.count("<svg")
        groups = len(re.findall(r"<h3>[^<]*</h3>\n<svg", dom))
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

        shot = os.path.join(d, "report.png")
        _, console = load(exe, html, d, shot=shot)
        assert not console, console
        with open(shot, "rb") as f:
            png = f.read()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000, len(png)

        # a bare result: no verdicts, no roofline, no history
        plain = os.path.join(d, "plain.json")
        phtml = os.path.join(d, "plain.html")
        rt.gen("--cases", "6", "--out", plain)
        rt.run(["report", plain, "--html", phtml], check_rc=0)
        dom, console = load(exe, phtml, d)
        assert not console, console
        assert "No comparison with a baseline" in dom
        assert "No roofline" in dom and "No history" in dom
        assert dom.count("<svg") >= 3
        print("bare report loads without console messages")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
