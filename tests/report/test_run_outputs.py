#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost run with a config whose output: section names every format: the
real run (selftest and fx_faults: ok, crashed, invalid, skipped and
unsupported cases) writes each format next to the JSON result with the
same base name, and each carries the result's numbers. Also the console:
no progress line when stderr is not a terminal, a live one (run i/n,
elapsed, time left) when it is; --quiet prints no table; --verbose adds the
per-case details and the plugin log of failed runs; colors only on a
terminal and never with NO_COLOR."""
import json
import os
import pty
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402

CONFIG = os.path.join(rt.HERE, "configs", "report.yaml")
EXTS = [".md", ".html", ".xml", ".csv", ".gbench.json", ".bmf.json"]


def run_on_pty(args, env, stdout_tty):
    """Runs bhost with stderr (and stdout when stdout_tty) on a
    pseudo-terminal; returns (stdout text, terminal text)."""
    master, slave = pty.openpty()
    e = dict(os.environ)
    e.update(env)
    p = subprocess.Popen([rt.bhost_exe()] + args, stdout=slave if stdout_tty else
                         subprocess.PIPE, stderr=slave, env=e)
    os.close(slave)
    term = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        term += chunk
    out = p.stdout.read() if p.stdout else b""
    p.wait()
    os.close(master)
    return out.decode(errors="replace"), term.decode(errors="replace")


def main():
    d = rt.tmpdir()
    try:
        res = os.path.join(d, "r.json")
        p = rt.run(["run", CONFIG, "--out", res])
        assert p.returncode == 1, (p.returncode, p.stderr)  # a case crashed
        for ext in EXTS:
            path = os.path.join(d, "r" + ext)
            assert os.path.getsize(path) > 0, path
            assert ("report: " + path) in p.stdout, p.stdout
        left = sorted(os.listdir(d))
        assert left == sorted(["r.json"] + ["r" + e for e in EXTS]), left  # no temp files
        # piped stderr: no progress line, no terminal control
        assert "\r" not in p.stderr and "\x1b" not in p.stderr, repr(p.stderr)
        assert "\x1b" not in p.stdout
        with open(res) as f:
            doc = json.load(f)
        st = sorted(c["status"] for c in doc["cases"])
        for s in ("ok", "crashed", "invalid", "skipped", "unsupported"):
            assert s in st, st
        print("csv rows:", rt.check_csv(doc, os.path.join(d, "r.csv")))
        print("bmf benchmarks:", rt.check_bmf(doc, os.path.join(d, "r.bmf.json")))
        print("gbench entries:", rt.check_gbench(doc, os.path.join(d, "r.gbench.json")))
        with open(os.path.join(d, "r.xml")) as f:
            xml = f.read()
        assert '<error type="crashed"' in xml and '<failure type="invalid"' in xml
        assert xml.count("<skipped") == st.count("skipped") + st.count("unsupported")
        # the table is grouped by plugin and benchmark
        assert "\nfx_faults/ok " in p.stdout and "selftest/spin[work=200] " in p.stdout

        # bhost report converts the same file to the same bytes
        conv = os.path.join(d, "conv.md")
        rt.run(["report", res, "--markdown", conv], check_rc=0)
        with open(conv) as f, open(os.path.join(d, "r.md")) as g:
            assert f.read() == g.read()

        # --quiet: no table on stdout
        q = rt.run(["run", CONFIG, "--out", os.path.join(d, "q.json"), "--quiet"])
        assert q.returncode == 1
        assert q.stdout == "", q.stdout
        assert "result: " in q.stderr

        # --verbose: run details and the log of the crashed run
        v = rt.run(["run", CONFIG, "--out", os.path.join(d, "v.json"), "--verbose",
                    "--filter", "fx_faults/*"])
        assert "  settings: 1 runs x 3 samples" in v.stdout, v.stdout
        assert "    run 0: crashed" in v.stdout
        assert "    run 0: ok, 3 samples" in v.stdout

        # a terminal: the live progress line, then the table in color
        out, term = run_on_pty(["run", CONFIG, "--out", os.path.join(d, "t.json"),
                                "--filter", "selftest/*"], {"NO_COLOR": "", "TERM": "xterm"},
                               stdout_tty=True)
        assert "\r\x1b[K[1/" in term and " elapsed, ~" in term and " left  " in term, term
        assert "\x1b[32mok" in term, term
        # NO_COLOR: progress still shown, no colors in the table
        out, term = run_on_pty(["run", CONFIG, "--out", os.path.join(d, "t2.json"),
                                "--filter", "selftest/*"], {"NO_COLOR": "1", "TERM": "xterm"},
                               stdout_tty=True)
        assert " elapsed, ~" in term
        assert "\x1b[32m" not in term and "\x1b[1m" not in term, term
        # --quiet on a terminal: no progress line
        out, term = run_on_pty(["run", CONFIG, "--out", os.path.join(d, "t3.json"), "--quiet",
                                "--filter", "selftest/*"], {"NO_COLOR": "1"}, stdout_tty=False)
        assert "elapsed" not in term and "\r" not in term.replace("\r\n", "\n"), repr(term)
        print("progress line, --quiet, --verbose and colors behave")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
