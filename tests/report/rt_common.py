# SPDX-License-Identifier: MIT
"""Helpers shared by the report integration tests (tests/report/test_*.py):
running bhost and the synthetic-result generator, and the checks that an
export carries the numbers of the result document it came from.

Numbers are compared with a relative tolerance of 1e-15: bhost prints
doubles with up to 17 significant digits (the shortest form that reads back
exactly), so values copied from the result compare equal and values it
computes (run medians, rates, aggregates) agree to the last bit or two.
"""
import csv
import io
import json
import math
from fractions import Fraction
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REL = 1e-15
SKIP = 77  # meson: the test was skipped


def bhost_exe():
    exe = os.environ.get("BHOST_EXE")
    if not exe:
        sys.exit("BHOST_EXE is not set (run through meson test)")
    return exe


def run(args, env=None, check_rc=None, **kw):
    """Runs bhost with args; returns the CompletedProcess (text)."""
    e = dict(os.environ)
    e.setdefault("NO_COLOR", "1")
    if env:
        e.update(env)
    p = subprocess.run([bhost_exe()] + list(args), capture_output=True, text=True, env=e,
                       **kw)
    if check_rc is not None and p.returncode != check_rc:
        raise AssertionError("bhost %s: exit %d, expected %d\nstdout:\n%s\nstderr:\n%s" % (
            " ".join(args), p.returncode, check_rc, p.stdout, p.stderr))
    return p


def gen(*args):
    """Runs gen_result.py with args."""
    subprocess.run([sys.executable, os.path.join(HERE, "gen_result.py")] + list(args),
                   check=True)


def tmpdir():
    d = tempfile.mkdtemp(prefix="bh_report_")
    return d


def cleanup(d):
    shutil.rmtree(d, ignore_errors=True)


def close(a, b, what):
    """a equals b to REL (both None: a value absent on both sides)."""
    if a is None and b is None:
        return
    if a is None or b is None or not math.isclose(a, b, rel_tol=REL, abs_tol=0.0):
        raise AssertionError("%s: %r != %r" % (what, a, b))


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def ok_runs(case):
    """(run median ns/iter, iterations) of each ok run with samples, as bhost
    computes them."""
    out = []
    for r in case.get("runs") or []:
        if r.get("status") != "ok":
            continue
        vals = [ns / it for it, ns in r.get("samples") or [] if it >= 1 and ns >= 0]
        if vals:
            m = median(vals)
            if m > 0:
                out.append((m, sum(it for it, ns in r["samples"] if it >= 1 and ns >= 0), r))
    return out


def median_ci(vals, level=Fraction(95, 100)):
    """(lo, hi) of the distribution-free interval of the median of vals
    from their order statistics (docs/statistics.md section 10.5), in
    exact arithmetic; None for a bound no rank reaches."""
    s = sorted(vals)
    n = len(s)
    half = (1 - level) / 2

    def cdf(k):
        return Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n)

    kr = max((k for k in range(n) if cdf(k) <= half), default=-1)
    ks = min((k for k in range(n) if cdf(k) >= 1 - half), default=n)
    return (s[kr] if kr >= 0 else None, s[ks] if ks < n else None)


def run_median(case):
    """(median of the run medians, lo, hi of its 95% interval, runs) of a
    case, from its samples: the median every report prints."""
    meds = [m for m, _, _ in ok_runs(case)]
    if not meds:
        return None, None, None, 0
    lo, hi = median_ci(meds)
    return median(meds), lo, hi, len(meds)


def fmt_time(ns):
    """A time as the reports print it: three significant digits in ps, ns,
    us, ms or s ("112 ns", "1.64 us"); "-" for None."""
    if ns is None or not math.isfinite(ns):
        return "-"
    units = ["ps", "ns", "us", "ms", "s"]
    v, k = ns * 1e3, 0
    while k < 4 and abs(v) >= 999.5:
        v, k = v / 1e3, k + 1
    a = abs(v)
    digits = 0 if a >= 99.95 else 1 if a >= 9.995 else 2
    return "%.*f %s" % (digits, v, units[k])


def ci_text(lo, hi):
    """The interval as the reports print it, "-" when a bound is missing."""
    return "-" if lo is None or hi is None else "[%s, %s]" % (fmt_time(lo), fmt_time(hi))


REASON_TOO_FEW = ("too few runs: at this number of runs the test cannot reach its "
                  "significance level")
REASON_UNDETECTED = ("not significant, and the interval rules out a change as large as the "
                     "minimum detectable effect")


def runs_to_reach(alpha):
    """The smallest n per side (unpaired) at which the exact rank test can
    reach alpha: 2 / C(2n, n) <= alpha (docs/statistics.md section 11.6)."""
    n = 2
    while Fraction(2, math.comb(2 * n, n)) > Fraction(alpha):
        n += 1
    return n


def verdict_label(case):
    """What the verdict filter calls a case's verdict: its reading for an
    inconclusive one, else the verdict word; None without one."""
    v = case.get("verdict")
    if not isinstance(v, dict):
        return None
    tc = time_change(case) or {}
    if v["verdict"] == "inconclusive" and tc.get("reason") == REASON_TOO_FEW:
        return "too few runs to judge"
    if v["verdict"] == "inconclusive" and tc.get("reason") == REASON_UNDETECTED:
        return "no change detected"
    return v["verdict"]


def verdict_words(case, alpha):
    """The verdict of a case in the console's words, for a case whose
    headline is its time metric (docs/statistics.md section 11.6)."""
    v = case["verdict"]
    tc = time_change(case)
    label = verdict_label(case)
    if label == "too few runs to judge":
        n = min(tc["baseline"]["n"], tc["candidate"]["n"])
        return "too few runs to judge (%d a side, %d needed)" % (n, runs_to_reach(alpha))
    if label == "no change detected":
        return "no change detected (MDE %.1f%%)" % (100 * tc["mde"])
    words = v["verdict"] + (" (%s)" % v["severity"] if v.get("severity") else "")
    return words + " %+.1f%%" % (100 * tc["change"])


def time_change(case):
    """The time metric's verdict entry of a case, or None."""
    v = case.get("verdict")
    if not isinstance(v, dict):
        return None
    for m in v.get("metrics") or []:
        if m.get("metric") == "time":
            return m
    return None


def fnum(s):
    return float(s) if s != "" else None


def check_csv(doc, path):
    """Every case and metric of doc is a CSV row with the same numbers."""
    with open(path, newline="") as f:
        raw = f.read()
    if "\r\n" not in raw:
        raise AssertionError("CSV lines must end in CRLF (RFC 4180)")
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    by = {}
    for r in rows:
        by.setdefault((r["id"], r["metric"]), r)
    for c in doc["cases"]:
        cid = c["id"]
        if not any(k[0] == cid for k in by):
            raise AssertionError("CSV has no row for %s" % cid)
        for r in rows:
            if r["id"] == cid:
                assert r["status"] == c["status"], (cid, r["status"])
                assert r["message"] == c.get("message", ""), (cid, r["message"])
                assert r["plugin"] == c["plugin"]
                assert json.loads(r["params"] or "{}") == c.get("params", {}), cid
        s = c.get("summary")
        if s:
            # the median every report prints: of the run medians, its 95% CI
            med, lo, hi, runs = run_median(c)
            r = by[(cid, "time")]
            close(fnum(r["value"]), med, cid + " time")
            close(fnum(r["lower"]), lo, cid + " time lower")
            close(fnum(r["upper"]), hi, cid + " time upper")
            close(fnum(r["n"]), runs, cid + " n")
            tc = time_change(c)
            if tc:
                assert r["verdict"] == tc["verdict"], cid
                close(fnum(r["change"]), tc["change"], cid + " change")
                if tc.get("change_hi") is not None:
                    close(fnum(r["change_hi"]), tc["change_hi"], cid + " change_hi")
        for k, v in (c.get("throughput") or {}).items():
            close(fnum(by[(cid, k)]["value"]), v, cid + " " + k)
        for name, m in (c.get("metrics") or {}).items():
            vals = [x for x in m["values"] if isinstance(x, (int, float))]
            r = by[(cid, name)]
            if vals:
                close(fnum(r["value"]), median(vals), cid + " " + name)
                close(fnum(r["lower"]), min(vals), cid + " " + name + " lower")
                close(fnum(r["upper"]), max(vals), cid + " " + name + " upper")
        if "roofline" in c:
            close(fnum(by[(cid, "roofline_fraction")]["value"]), c["roofline"]["fraction"],
                  cid + " roofline")
    return len(rows)


def check_bmf(doc, path):
    """Every case with a summary is a BMF benchmark with the same numbers."""
    with open(path) as f:
        bmf = json.load(f)
    n = 0
    for c in doc["cases"]:
        s = c.get("summary")
        if not s:
            assert c["id"] not in bmf, c["id"]
            continue
        b = bmf[c["id"]]
        n += 1
        med, lo, hi, _ = run_median(c)
        close(b["latency"]["value"], med, c["id"] + " latency")
        close(b["latency"].get("lower_value"), lo, c["id"] + " latency lower")
        close(b["latency"].get("upper_value"), hi, c["id"] + " latency upper")
        tp = c.get("throughput") or {}
        for key, measure in (("items_per_s", "throughput"), ("flop_per_s", "flop_per_s"),
                             ("bytes_per_s", "bytes_per_s")):
            if key in tp:
                close(b[measure]["value"], tp[key], c["id"] + " " + measure)
        for name, m in (c.get("metrics") or {}).items():
            vals = [x for x in m["values"] if isinstance(x, (int, float))]
            if m.get("kind", "performance") != "performance":
                # informational values and errors held against a limit are
                # not tracked as measures
                assert name not in b, (c["id"], name)
                continue
            if vals:
                close(b[name]["value"], median(vals), c["id"] + " " + name)
                close(b[name]["lower_value"], min(vals), c["id"] + " " + name + " lower")
                close(b[name]["upper_value"], max(vals), c["id"] + " " + name + " upper")
        if "roofline" in c:
            close(b["roofline_fraction"]["value"], c["roofline"]["fraction"], c["id"])
    assert len(bmf) == n, (len(bmf), n)
    return n


def check_gbench(doc, path):
    """Each ok run is a Google Benchmark repetition with the run's median
    time, each case has its aggregates, each failed case an error entry."""
    with open(path) as f:
        gb = json.load(f)
    ctx = gb["context"]
    for k in ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
              "cpu_scaling_enabled", "caches", "load_avg", "library_build_type"):
        assert k in ctx, k
    by = {}
    for b in gb["benchmarks"]:
        for k in ("name", "run_name", "run_type", "repetitions", "iterations", "real_time",
                  "cpu_time", "time_unit"):
            assert k in b, (b.get("name"), k)
        by.setdefault(b["name"], []).append(b)
    for c in doc["cases"]:
        runs = ok_runs(c)
        its = by[c["id"]]
        if c["status"] != "ok" or not runs:
            assert len(its) == 1 and its[0]["error_occurred"] is True, c["id"]
            assert its[0]["error_message"].startswith(c["status"]), its[0]["error_message"]
            continue
        assert [b["repetition_index"] for b in its] == list(range(len(runs))), c["id"]
        for b, (m, iters, r) in zip(its, runs):
            assert b["run_type"] == "iteration" and b["run_name"] == c["id"]
            assert b["repetitions"] == len(runs) and b["time_unit"] == "ns"
            close(b["real_time"], m, c["id"] + " real_time")
            close(b["cpu_time"], m, c["id"] + " cpu_time")
            close(b["iterations"], iters, c["id"] + " iterations")
            if r.get("bytes_per_iter", 0) > 0:
                close(b["bytes_per_second"], r["bytes_per_iter"] / (m * 1e-9), c["id"])
        meds = sorted(m for m, _, _ in runs)
        mean = sum(meds) / len(meds)
        sd = math.sqrt(sum((x - mean) ** 2 for x in meds) / (len(meds) - 1)) if len(meds) > 1 \
            else 0.0
        want = {"mean": mean, "median": median(meds), "stddev": sd,
                "cv": sd / mean if mean > 0 else 0.0}
        for agg, v in want.items():
            (b,) = by[c["id"] + "_" + agg]
            assert b["run_type"] == "aggregate" and b["aggregate_name"] == agg
            assert b["run_name"] == c["id"]
            if v == 0:
                assert b["real_time"] == 0
            else:
                close(b["real_time"], v, "%s %s" % (c["id"], agg))
    return len(gb["benchmarks"])


def python_with(module):
    """A Python interpreter that can import module (this one, or Debian's),
    or None."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import " + module], capture_output=True).returncode == 0:
            return exe
    return None
