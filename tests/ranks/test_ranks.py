#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Multi-rank cases through the real bhost (see meson.build beside this
file). Every assertion is about what the host recorded: statuses, the
ranks record, the samples against each rank's own times, the messages
that name the failing rank, and that no rank outlives its case."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BHOST = os.environ["BHOST_EXE"]
FIXTURES = os.environ["FIXTURE_DIR"]
AGENT = os.environ["LOCAL_AGENT"]
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


DEFAULTS = "{warmup: 10ms, sample_time: 2ms, samples: 5, runs: 2, timeout: 12s}"


def run(tmp, name, body, code=0, defaults=DEFAULTS):
    """Writes config name.yaml, runs it, returns (result doc or None, stderr)."""
    cfg = os.path.join(tmp, name + ".yaml")
    with open(cfg, "w") as f:
        f.write("schema: 1\nname: %s\nplugin_path: [%s]\n" % (name, FIXTURES))
        f.write("defaults: %s\n" % defaults)
        f.write(body)
    out = os.path.join(tmp, name + ".json")
    p = subprocess.run([BHOST, "run", cfg, "--out", out], capture_output=True, text=True,
                       timeout=240)
    check(p.returncode == code, "%s: exit %d, expected %d: %s" % (name, p.returncode, code,
                                                                   p.stderr[-600:]))
    doc = json.load(open(out)) if os.path.exists(out) else None
    return doc, p.stderr


def cases(doc):
    return {c["id"]: c for c in (doc or {}).get("cases", [])}


def alive(pids):
    """The pids of pids that are still ranks (a bhost-worker __rank)."""
    left = []
    for pid in pids:
        try:
            cmd = open("/proc/%d/cmdline" % pid, "rb").read()
        except OSError:
            continue
        if b"__rank" in cmd:
            left.append(pid)
    return left


def rank_pids(doc):
    """Every rank's pid the runs of doc recorded."""
    return [q["pid"] for c in (doc or {}).get("cases", []) for r in c.get("runs", [])
            for q in (r.get("ranks") or {}).get("per_rank", []) if q.get("pid")]


def per_ns(samples):
    v = sorted(ns / it for it, ns in samples)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def check_ok_launch(c, ranks, launcher, nodes):
    cid = c["id"]
    check(c["status"] == "ok", "%s: %s %s" % (cid, c["status"], c.get("message")))
    for r in c.get("runs", []):
        rec = r.get("ranks") if ranks > 1 else None
        if ranks == 1:
            check("ranks" not in r, "%s: a one-rank case runs as a plain worker" % cid)
            continue
        check(rec and rec["count"] == ranks and rec["launcher"] == launcher and
              rec["nodes"] == nodes, "%s: ranks record %s" % (cid, rec))
        per = rec["per_rank"] if rec else []
        check([q["rank"] for q in per] == list(range(ranks)), "%s: per_rank order" % cid)
        check(all(q["status"] == "ok" for q in per), "%s: per-rank statuses" % cid)
        # every sample is the maximum over ranks, so its median is at
        # least every rank's own median
        med = per_ns(r["samples"])
        for q in per:
            check(med >= q["median_ns"] * (1 - 1e-9),
                  "%s: sample median %.1f below rank %d's own %.1f" %
                  (cid, med, q["rank"], q["median_ns"]))
        info = c["metrics"].get("spin.rank_info", {}).get("values", [])
        check(info and all(v == ranks * 1000 + nodes for v in info),
              "%s: the plugin saw size/nodes %s" % (cid, info))


def test_local(tmp):
    doc, _ = run(tmp, "local", "launcher: {kind: local}\nsuites:\n"
                 "  - plugin: fx_ranks\n    params: {ranks: [1, 2, 4], skew: [0, 3]}\n")
    cs = cases(doc)
    check(len(cs) == 6, "local: 6 cases, got %d" % len(cs))
    for cid, c in cs.items():
        n = int(cid.split("ranks=")[1].split(",")[0])
        check_ok_launch(c, n, "local", 1)
    # with skew, rank 3 does 10x the work of rank 0: the imbalance shows
    c = cs.get("fx_ranks/spin[ranks=4,skew=3]")
    if c:
        per = c["runs"][0]["ranks"]["per_rank"]
        check(per[3]["median_ns"] > per[0]["median_ns"], "local: rank 3 does more work")


def test_mpirun(tmp):
    doc, _ = run(tmp, "mpirun", "suites:\n  - plugin: fx_ranks\n"
                 "    params: {ranks: [2, 4]}\n")
    for cid, c in cases(doc).items():
        check_ok_launch(c, int(cid.split("ranks=")[1].rstrip("]")), "mpirun", 1)


def cpu_set(text):
    """The CPUs of a list like "0-3,8"."""
    out = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def test_binding(tmp):
    """bind: none leaves every rank the CPUs bhost had; bind: core gives
    each rank CPUs of its own; the ranks record says which binding was
    asked for (auto, the default, is mpirun's own choice)."""
    allowed = os.sched_getaffinity(0)
    # two ranks bound to cores need two CPUs (mpirun refuses otherwise)
    for bind in ("none", "core", None) if len(allowed) >= 2 else ("none", None):
        name = "bind-%s" % (bind or "auto")
        launcher = "launcher: {kind: mpirun%s}\n" % (", bind: %s" % bind if bind else "")
        doc, _ = run(tmp, name, launcher + "suites:\n  - plugin: fx_ranks\n"
                     "    params: {ranks: [2]}\n")
        for cid, c in cases(doc).items():
            check_ok_launch(c, 2, "mpirun", 1)
            for r in c.get("runs", []):
                rec = r.get("ranks") or {}
                check(rec.get("bind") == (bind or "auto"),
                      "%s: %s: ranks.bind %r" % (name, cid, rec.get("bind")))
                sets = [cpu_set(q.get("cpus", "")) for q in rec.get("per_rank", [])]
                check(len(sets) == 2 and all(sets), "%s: %s: per-rank cpus %s" % (name, cid, sets))
                if len(sets) != 2:
                    continue
                if bind == "none":
                    check(all(x == allowed for x in sets),
                          "%s: ranks' cpus %s, bhost's %s" % (name, sets, allowed))
                elif bind == "core":
                    check(sets[0] <= allowed and sets[1] <= allowed and
                          not (sets[0] & sets[1]) and len(sets[0]) < len(allowed),
                          "%s: ranks bound to cores %s within %s" % (name, sets, allowed))


def test_two_nodes(tmp):
    with open(os.path.join(tmp, "hosts.txt"), "w") as f:
        f.write("# two aliases of this machine, reached through the local agent\n"
                "node-a slots=2\nnode-b slots=2\n")
    doc, _ = run(tmp, "two-nodes", "launcher:\n  kind: mpirun\n  hostfile: hosts.txt\n"
                 "  ranks_per_node: 2\n  args: [--mca, plm_rsh_agent, %s]\n" % AGENT +
                 "suites:\n  - plugin: fx_ranks\n    params: {ranks: [4]}\n")
    for c in cases(doc).values():
        check_ok_launch(c, 4, "mpirun", 2)
        hosts = [q["host"] for q in c["runs"][0]["ranks"]["per_rank"]]
        check(hosts == ["node-a", "node-a", "node-b", "node-b"], "two nodes: hosts %s" % hosts)


FAULTS = {  # fault: (status, words the message must hold)
    "crash": ("crashed", "rank 1"),
    "hang": ("timeout", "rank 1"),
    "exit": ("crashed", "rank 1"),
    "verify": ("invalid", "rank 1"),
    "digest": ("invalid", "rank 1's digest"),
    "extra": ("failed", "exchange"),
}


def test_faults(tmp, kind):
    doc, _ = run(tmp, "faults-" + kind, "launcher: {kind: %s}\n" % kind +
                 "suites:\n  - plugin: fx_ranks\n"
                 "    params: {ranks: [2], fault: [%s]}\n" % ", ".join(FAULTS), code=1,
                 defaults="{warmup: 10ms, sample_time: 2ms, samples: 3, runs: 1, timeout: 8s}")
    cs = cases(doc)
    for fault, (status, words) in FAULTS.items():
        c = cs.get("fx_ranks/spin[ranks=2,fault=%s]" % fault)
        if not c:
            check(False, "%s: no case for fault %s" % (kind, fault))
            continue
        msg = c["runs"][0].get("message", "")
        check(c["status"] == status, "%s/%s: status %s, expected %s (%s)" %
              (kind, fault, c["status"], status, msg))
        check(words in msg, "%s/%s: message %r lacks %r" % (kind, fault, msg, words))
    pids = rank_pids(doc)
    check(len(pids) == 2 * len(FAULTS), "%s: %d rank pids recorded" % (kind, len(pids)))
    left = alive(pids)
    check(not left, "%s: ranks still alive after their cases: %s" % (kind, left))


def test_launcher_problems(tmp):
    with open(os.path.join(tmp, "bad-hosts.txt"), "w") as f:
        f.write("localhost slots=2\nno-such-host.invalid slots=2\n")
    doc, err = run(tmp, "problems", "suites:\n"
                   "  - plugin: fx_ranks\n    params: {ranks: [1]}\n"
                   "  - plugin: fx_ranks\n    name: unreachable\n"
                   "    launcher: {kind: mpirun, hostfile: bad-hosts.txt, probe_timeout: 20s}\n"
                   "    params: {ranks: [4]}\n"
                   "  - plugin: fx_ranks\n    name: missing\n"
                   "    launcher: {kind: srun, program: srun-that-is-not-installed}\n"
                   "    params: {ranks: [2]}\n")
    cs = list((doc or {}).get("cases", []))
    st = [c["status"] for c in cs]
    check(st == ["ok", "skipped", "skipped"], "problems: statuses %s" % st)
    if len(cs) == 3:
        check("no-such-host" in cs[1].get("message", ""),
              "problems: the unreachable host is named: %s" % cs[1].get("message"))
        check("srun-that-is-not-installed not found" in cs[2].get("message", ""),
              "problems: the missing launcher is named: %s" % cs[2].get("message"))
    warn = [l for l in err.splitlines() if l.startswith("bhost: warning: ")]
    check(len(warn) == 2, "problems: one warning line per launcher, got %s" % warn)


def test_config_errors(tmp):
    bad = {
        "kind": ("launcher: {kind: pbs}\n", "expected mpirun, srun or local"),
        "per-node": ("launcher: {ranks_per_node: 0}\n", "ranks_per_node"),
        "local-hosts": ("launcher: {kind: local, hosts: [a]}\n", "kind local"),
        "key": ("launcher: {hostfiel: x}\n", "hostfile"),
    }
    for name, (body, words) in bad.items():
        cfg = os.path.join(tmp, "bad-%s.yaml" % name)
        with open(cfg, "w") as f:
            f.write("schema: 1\nplugin_path: [%s]\n%ssuites: []\n" % (FIXTURES, body))
        p = subprocess.run([BHOST, "validate", cfg], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 3 and len(lines) == 1 and words in lines[0] and
              ("bad-%s.yaml:" % name) in lines[0],
              "config %s: exit %d, %r" % (name, p.returncode, p.stderr))


def main():
    tmp = tempfile.mkdtemp(prefix="bhost-ranks-")
    have_mpi = shutil.which("mpirun") is not None
    try:
        test_config_errors(tmp)
        test_local(tmp)
        test_faults(tmp, "local")
        if have_mpi:
            test_mpirun(tmp)
            test_binding(tmp)
            test_two_nodes(tmp)
            test_faults(tmp, "mpirun")
            test_launcher_problems(tmp)
        else:
            print("mpirun not on PATH (Debian package openmpi-bin): its parts skipped")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
