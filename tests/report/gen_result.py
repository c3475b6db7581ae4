#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes synthetic "bhost.result/1" documents for the report tests and the
report size/time measurements.

The documents have the shape `bhost run` writes (run metadata, system,
per case: settings, runs with raw [iterations, ns] samples, summary,
throughput, memory, metrics, verdict) plus what other modules add: verdict
objects and a top-level "comparison" (--verdicts), roofline objects and
"roofs": the two roofs of older documents (--roofline) or the run's
ceilings, L1 to DRAM bandwidths, per-type peaks and a device's, with each
case placed against its own, one latency-bound and one above its ceiling
(--ceilings). Cases mix plugins and benchmarks, devices (the same op on
@cpu:0, @cuda:0, @vulkan:0), every status, extra metrics (tokens/s), and
text that reports must escape (<script>, quotes, commas, newlines,
non-ASCII, a control character). Deterministic for a given seed.

    gen_result.py --cases 500 --verdicts --out /tmp/r500.json
    gen_result.py --history-dir /tmp/hist --nights 12 --cases 8
"""
import argparse
import datetime
import json
import math
import os
import random

STATUSES = ["failed", "crashed", "timeout", "oom", "invalid", "skipped", "unsupported"]
HOSTILE = 'a <script>alert("x")</script>, "quoted", comma, & amp\nnew line \u00fc\u6f22 \u0001ctl'


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile7(s, p):
    h = (len(s) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def case_spec(i):
    """(plugin, benchmark, params, backend) of case i."""
    kind = i % 10
    if kind < 4:
        n = 64 << ((i // 30) % 7)  # cases i, i+10, i+20: one op on three devices
        op = ["matmul", "ew.add", "reduce.sum", "softmax"][kind]
        backend = ["cpu", "cuda", "vulkan"][(i // 10) % 3]
        params = {"n": n, "dtype": "f32"}
        if i >= 210:  # n repeats every 210 cases
            params["set"] = i // 210
        return "tensor", op, params, backend
    if kind < 6:
        return "selftest", ["memcpy", "spin"][kind - 4], {"bytes": 4096 << (i % 5), "i": i}, None
    if kind < 8:
        return "inference", "decode", {"model": "tiny-%d" % (i % 3), "batch": 1 + i % 4, "i": i}, None
    return "tokenizer", "encode", {"vocab": "bpe,32k", "text": "t%d" % i}, None


def case_id(plugin, bench, params, backend):
    p = ",".join("%s=%s" % (k, v) for k, v in params.items())
    s = "%s/%s[%s]" % (plugin, bench, p)
    if backend:
        s += "@%s:0" % backend
    return s


def make_case(rng, i, scale, runs, samples, status=None):
    plugin, bench, params, backend = case_spec(i)
    cid = case_id(plugin, bench, params, backend)
    if backend == "cuda":
        level_mult = 0.25
    elif backend == "vulkan":
        level_mult = 0.6
    else:
        level_mult = 1.0
    level = (50.0 + 37.0 * (i % 13)) * (10 ** (i % 4)) * level_mult * scale
    cv = 0.01 + 0.03 * ((i * 7) % 5)
    c = {"id": cid, "plugin": plugin, "benchmark": bench, "params": params}
    if backend:
        c["backend"] = backend
        c["device"] = 0
    c["status"] = status or "ok"
    if status:
        c["message"] = "%s: %s" % (status, HOSTILE)
    c["settings"] = {"warmup_ns": 20000000, "sample_time_ns": 2000000, "samples": samples,
                     "runs": runs, "timeout_ns": 30000000000, "max_time_ns": 120000000000,
                     "pin": "none"}
    rdocs = []
    allv = []
    run_meds = []
    bytes_per_iter = 8.0 * params.get("n", 1024)
    flops = 2.0 * params.get("n", 0) ** 2 if plugin == "tensor" else 0
    if status in (None, "ok"):
        iters = max(1, int(2e6 / level))
        for r in range(runs):
            rl = level * math.exp(cv * 0.5 * rng.gauss(0, 1))
            smp = []
            vals = []
            for _ in range(samples):
                v = rl * math.exp(cv * rng.gauss(0, 1))
                ns = float(round(v * iters))
                smp.append([iters, ns])
                vals.append(ns / iters)
            allv += vals
            run_meds.append(median(vals))
            run = {"index": r, "status": "ok", "samples": smp, "timing": "host",
                   "iters_per_sample": iters, "warmup_samples": 3, "bytes_per_iter": bytes_per_iter,
                   "wall_ns": 120000000 + r, "worker_maxrss_kb": 6000}
            if flops:
                run["flops_per_iter"] = flops
            rdocs.append(run)
    elif status not in ("skipped", "unsupported"):
        rdocs.append({"index": 0, "status": status, "message": HOSTILE, "samples": [],
                      "wall_ns": 5000000, "worker_maxrss_kb": 5000,
                      "log": "line 1\nline 2 <b>bold</b>\nlast line"})
    c["runs"] = rdocs
    if allv:
        s = sorted(allv)
        n = len(s)
        mean = sum(s) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in s) / (n - 1))
        med = median(s)
        c["summary"] = {
            "unit": "ns/iter", "n": n, "runs": runs, "min": s[0], "max": s[-1], "mean": mean,
            "sd": sd, "cv": sd / mean, "median": med,
            "mad": median([abs(v - med) for v in s]), "q1": quantile7(s, 0.25),
            "q3": quantile7(s, 0.75), "p5": quantile7(s, 0.05), "p95": quantile7(s, 0.95),
            "p99": quantile7(s, 0.99), "median_ci_lo": quantile7(s, 0.4),
            "median_ci_hi": quantile7(s, 0.6), "median_ci_level": 0.99,
            "within_run_cv": cv, "between_run_cv": cv / 2, "run_median_median": median(run_meds),
            "mde": 0.02, "tukey": {"low_severe": 0, "low_mild": 0, "high_mild": 1,
                                   "high_severe": 0},
            "flags": ["high_cv"] if cv > 0.1 else []}
        sec = med * 1e-9
        tp = {"bytes_per_s": bytes_per_iter / sec}
        if flops:
            tp["flop_per_s"] = flops / sec
        c["throughput"] = tp
    else:
        c["summary"] = None
    c["memory"] = {"peak_rss_kb": 6000 if allv else 0, "alloc_count": 3, "alloc_bytes": 4096,
                   "alloc_peak_bytes": 4096}
    c["metrics"] = {}
    if plugin == "inference" and allv:
        c["metrics"]["tokens_per_s"] = {
            "unit": "tokens/s", "direction": "higher",
            "values": [1e9 / m * (1 + 0.01 * k) for k, m in enumerate(run_meds)]}
        c["metrics"]["accuracy"] = {"unit": "", "direction": "higher",
                                    "values": [0.75 + 0.001 * k for k in range(runs)]}
        c["metrics"]["threads"] = {"unit": "", "direction": "lower", "kind": "informational",
                                   "values": [2] * runs}
    c["verdict"] = None
    return c


VERDICTS = [("regressed", "critical", 0.35), ("regressed", "warning", 0.05),
            ("regressed", "minor", 0.015), ("improved", None, -0.12),
            ("inconclusive", None, 0.01), ("no change", None, 0.0),
            ("within noise", None, 0.004), ("improved", None, -0.6)]


# The reasons bh_regress_classify gives an inconclusive verdict, one per
# reading (host/regress/verdict.h, docs/statistics.md section 11.6).
REASON_TOO_FEW = ("too few runs: at this number of runs the test cannot reach its "
                  "significance level")
REASON_UNDETECTED = ("not significant, and the interval rules out a change as large as the "
                     "minimum detectable effect")
REASON_UNDECIDED = ("not significant, and too few runs to rule out a change beyond the noise "
                    "floor")


def verdict_for(i, c):
    """The verdict of case i: VERDICTS in turn; an inconclusive one reads,
    in turn, too few runs to judge (3 a side, no interval), no change
    detected (its interval within +-mde) and undecided (no lower bound)."""
    v, sev, ch = VERDICTS[i % len(VERDICTS)]
    med = c["summary"]["median"]
    lo, hi = ch - 0.01 - abs(ch) * 0.1, ch + 0.01 + abs(ch) * 0.1
    n, mde, reason = 10, 0.02, "synthetic"
    if v == "inconclusive":
        reading = (i // len(VERDICTS)) % 3
        if reading == 0:
            n, lo, hi, reason = 3, None, None, REASON_TOO_FEW
        elif reading == 1:
            mde, reason = 0.05, REASON_UNDETECTED
        else:
            lo, reason = None, REASON_UNDECIDED
    m = {"metric": "time", "unit": "ns/iter", "direction": "lower", "verdict": v,
         "severity": sev, "initial_verdict": v, "initial_severity": sev, "change": ch,
         "change_lo": lo, "change_hi": hi, "confidence": 0.95,
         "p": 0.001 * (1 + i % 7), "q": 0.002 * (1 + i % 7), "test": "mwu-exact",
         "scale": "log", "spread": 0.01, "mde": mde, "runs_needed": None,
         "reason": reason, "baseline": {"n": n, "median": med / (1 + ch)},
         "candidate": {"n": n, "median": med},
         "thresholds": {"noise_floor": 0.01, "warning": 0.03, "critical": 0.1},
         "suspect": v == "regressed", "confirmation": None}
    metrics = [m]
    if "tokens_per_s" in c["metrics"]:
        metrics.append(dict(m, metric="tokens_per_s", unit="tokens/s", direction="higher",
                            verdict="no change", severity=None, change=-0.002,
                            change_lo=-0.01, change_hi=0.008, reason="synthetic"))
    return {"verdict": v, "severity": sev, "baseline_id": c["id"], "metrics": metrics}


def ceiling(name, kind, value, case, threads=2, at=None, **kw):
    c = {"name": name, "kind": kind}
    c.update(kw)
    c["threads"] = threads
    if at:
        c["at"] = at
    c["value"] = value
    c["unit"] = {"bandwidth": "B/s", "compute": "FLOP/s", "latency": "ns"}[kind]
    c["case"] = case
    return c


def add_ceilings(doc):
    """roofs.ceilings as the host writes them and each case's roofline
    against the ceilings of its level, arithmetic type and device: every
    ceiling just above the best case held against it, except two cases
    above their ceiling (1.4x: one with bytes alone, one with FLOP and
    bytes) and one latency-bound."""
    cases = [c for c in doc["cases"] if c.get("throughput")]
    levels = ["L1", "L2", "DRAM"]

    def picks(c):
        at = "@%s:0" % c["backend"] if c.get("backend") in ("cuda",) else ""
        n = c["params"].get("n", c["params"].get("bytes", 1 << 20))
        level = levels[0] if n <= 128 else levels[1] if n <= 1024 else levels[2]
        access = "read" if c["benchmark"] in ("reduce.sum", "decode") else "read-write"
        mem = ("%s %s x2" % (level, access)) if not at else "DRAM read-write " + at
        comp = None
        if "flop_per_s" in c["throughput"]:
            comp = ("int8 x2" if c["benchmark"] == "matmul" and n >= 4096 else "f32 x2")
            if at:
                comp = "f32 " + at
        return level, mem, comp

    best = {}
    for c in cases:
        level, mem, comp = picks(c)
        tp = c["throughput"]
        best[mem] = max(best.get(mem, 0), tp["bytes_per_s"])
        if comp:
            best[comp] = max(best.get(comp, 0), tp["flop_per_s"])
    ceilings = []
    for name, v in sorted(best.items()):
        parts = name.split(" ")
        at = parts[-1] if parts[-1].startswith("@") else None
        if parts[0] in ("L1", "L2", "L3", "DRAM"):
            ceilings.append(ceiling(name, "bandwidth", 1.1 * v, "roof/bw[%s]" % name,
                                    at=at, level=parts[0], access=parts[1]))
        else:
            ceilings.append(ceiling(name, "compute", 1.1 * v, "roof/peak[%s]" % name,
                                    at=at, compute=parts[0]))
    ceilings.append(ceiling("L3 read x2", "bandwidth", 1.3 * best.get("L2 read x2", 3e10) + 1e9,
                            "roof/bw[level=l3]", level="L3", access="read"))
    ceilings.append(ceiling("bf16 x1", "compute", 2.5e11, "roof/peak[type=bf16]",
                            threads=1, compute="bf16"))
    ceilings.append(ceiling("call latency @cuda:0", "latency", 4500.0,
                            "accel/launch.latency@cuda:0", threads=1, at="@cuda:0"))
    by = {k["name"]: k for k in ceilings}
    doc["roofs"] = {"ceilings": ceilings}
    for k in ceilings:
        if k["name"] == "DRAM read-write x2":
            doc["roofs"]["bandwidth_bytes_per_s"] = k["value"]
            doc["roofs"]["bandwidth_case"] = k["case"]
        if k["name"] == "f32 x2":
            doc["roofs"]["flops_per_s"] = k["value"]
            doc["roofs"]["flops_case"] = k["case"]
    above = set()
    latency = None
    for c in cases:
        level, mem, comp = picks(c)
        tp = c["throughput"]
        r = {"level": level}
        bw = by[mem]["value"]
        if comp:
            peak = by[comp]["value"]
            ai = tp["flop_per_s"] / tp["bytes_per_s"]
            att = min(peak, ai * bw)
            r.update({"memory_ceiling": mem, "compute_ceiling": comp,
                      "intensity_flop_per_byte": ai, "attainable": att, "unit": "FLOP/s",
                      "bound": "memory" if ai * bw < peak else "compute",
                      "fraction": tp["flop_per_s"] / att})
        else:
            r.update({"memory_ceiling": mem, "attainable": bw, "unit": "B/s",
                      "bound": "memory", "fraction": tp["bytes_per_s"] / bw})
        # one case of each kind (bytes alone, FLOP and bytes) 1.4x its ceiling
        kind = "flop" if comp else "bytes"
        if kind not in above and c["plugin"] in ("selftest", "tensor") and not c.get("backend") \
                in ("cuda",):
            above.add(kind)
            for key in tp:
                tp[key] *= 1.4 / r["fraction"]
            r["fraction"] = 1.4
        if latency is None and r["fraction"] < 0.3 and c["plugin"] == "tokenizer":
            latency = c
            r["bound"] = "latency"
            r["latency_floor_ns"] = 2.0 * c["summary"]["median"]
        if r["fraction"] > 1.05:
            r["above_ceiling"] = True
            r["warning"] = "above its ceiling: check the bytes/FLOP accounting or the ceiling"
        c["roofline"] = r


def make_doc(args, started, scale=1.0, step_case=None, step=1.0):
    rng = random.Random(args.seed)
    cases = []
    counts = {}
    for i in range(args.cases):
        status = None
        if args.failures and i % 6 == 5:
            status = STATUSES[(i // 6) % len(STATUSES)]
        s = scale * (step if i == step_case else 1.0)
        if args.slow_every and i % args.slow_every == 0:
            s *= args.slow_factor
        cases.append(make_case(rng, i, s, args.runs, args.samples, status))
    if args.verdicts:
        for i, c in enumerate(cases):
            if c["summary"] is not None:
                c["verdict"] = verdict_for(i, c)
                counts[c["verdict"]["verdict"]] = counts.get(c["verdict"]["verdict"], 0) + 1
    doc = {
        "run": {"config": {"path": "configs/%s.yaml" % args.config, "name": args.config,
                           "hash": "ab" * 32},
                "command_line": ["run", "configs/%s.yaml" % args.config, "--note", HOSTILE],
                "host_version": "0.1.0", "abi_major": 1, "abi_minor": 0, "seed": "0x2a",
                "started_at": started, "finished_at": started, "duration_s": 12.5,
                "complete": True,
                "plugins": [{"requested": "tensor", "status": "ok", "name": "tensor",
                             "version": "0.1.0", "sha256": "cd" * 32}]},
        "schema": "bhost.result/1",
        "system": {"hostname": "gen<host>", "os": {"release": "6.1"},
                   "cpu": {"model": "Synthetic CPU", "logical_cores": 8, "physical_cores": 4,
                           "numa_nodes": 1},
                   "caches": [{"level": 1, "type": "data", "size_bytes": 32768, "count": 4},
                              {"level": 2, "type": "unified", "size_bytes": 1048576,
                               "count": 4}],
                   "frequency": {"governor": "performance", "max_khz": 3000000},
                   "load_average": [0.5, 0.4, 0.3], "compiler": "gcc 12.2.0",
                   "fingerprint_hash": "ef" * 32},
        "cases": cases,
    }
    if args.roofline:
        # roofs just above the best case, so fractions stay below 100%
        bw = 1.1 * max((c.get("throughput") or {}).get("bytes_per_s", 1.0) for c in cases)
        peak = 1.1 * max((c.get("throughput") or {}).get("flop_per_s", 1.0) for c in cases)
        doc["roofs"] = {"bandwidth_bytes_per_s": bw, "bandwidth_case": cases[0]["id"],
                        "flops_per_s": peak, "flops_case": cases[0]["id"]}
        for c in cases:
            tp = c.get("throughput") or {}
            if "flop_per_s" in tp:
                ai = tp["flop_per_s"] / tp["bytes_per_s"]
                att = min(peak, ai * bw)
                c["roofline"] = {"intensity_flop_per_byte": ai, "attainable": att,
                                 "unit": "FLOP/s", "bound": "memory" if ai * bw < peak else "compute",
                                 "fraction": tp["flop_per_s"] / att}
            elif "bytes_per_s" in tp and c["plugin"] == "selftest":
                c["roofline"] = {"attainable": bw, "unit": "B/s", "bound": "memory",
                                 "fraction": tp["bytes_per_s"] / bw}
    if args.ceilings:
        add_ceilings(doc)
    if args.verdicts:
        doc["comparison"] = {"baseline": "baseline <main>.json", "candidate": None,
                             "method": "mwu", "fdr": 0.05, "confidence": 0.95,
                             "tests": sum(counts.values()), "family": sum(counts.values()),
                             "counts": counts,
                             "regressed": {"minor": 0, "warning": 0, "critical": 0},
                             "missing": [], "forced": False, "system_diff": None,
                             "config_diff": None}
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", default="synthetic")
    ap.add_argument("--verdicts", action="store_true")
    ap.add_argument("--roofline", action="store_true")
    ap.add_argument("--ceilings", action="store_true")
    ap.add_argument("--failures", action="store_true")
    ap.add_argument("--slow-every", type=int, default=0,
                    help="make every K-th case slower (a regression to find)")
    ap.add_argument("--slow-factor", type=float, default=1.3)
    ap.add_argument("--out")
    ap.add_argument("--history-dir")
    ap.add_argument("--nights", type=int, default=12)
    args = ap.parse_args()
    t0 = datetime.datetime(2026, 11, 1, 2, 0, 0)
    if args.history_dir:
        os.makedirs(args.history_dir, exist_ok=True)
        for k in range(args.nights):
            args.seed += 1
            when = (t0 + datetime.timedelta(days=k)).strftime("%Y-%m-%dT%H:%M:%SZ")
            doc = make_doc(args, when, step_case=0, step=1.25 if k >= args.nights * 2 // 3 else 1.0)
            name = os.path.join(args.history_dir, "%s-night%02d.json" % (when[:10], k))
            with open(name, "w") as f:
                json.dump(doc, f, indent=1)
    if args.out:
        doc = make_doc(args, t0.strftime("%Y-%m-%dT%H:%M:%SZ"))
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
