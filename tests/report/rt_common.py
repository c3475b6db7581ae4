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
            r = by[(cid, "time")]
            close(fnum(r["value"]), s["median"], cid + " time")
            close(fnum(r["lower"]), s["median_ci_lo"], cid + " time lower")
            close(fnum(r["upper"]), s["median_ci_hi"], cid + " time upper")
            close(fnum(r["n"]), s["n"], cid + " n")
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
        close(b["latency"]["value"], s["median"], c["id"] + " latency")
        close(b["latency"].get("lower_value"), s["median_ci_lo"], c["id"] + " latency lower")
        close(b["latency"].get("upper_value"), s["median_ci_hi"], c["id"] + " latency upper")
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
