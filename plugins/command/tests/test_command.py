# SPDX-License-Identifier: MIT
"""The command plugin through the real bhost (suite command).

Each check writes a small config of command suites, runs `bhost run` on
it and reads the result document back: argv and shell runs verified by
their stdout checksum; a wrong checksum is invalid; a missing program and
a non-zero exit are failed with the reason, the status and stderr's first
lines; a hanging command is ended by the host's timeout with no process
left running; stdin, env, cwd, ${VAR} expansion, prepare and cleanup are
honoured; ratios: give a ratio inside its interval, or say why not, in
the JSON, the console and the HTML report; bad
command: maps are one line with file and line, exit 3.
Environment: BHOST_EXE.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

BHOST = os.environ["BHOST_EXE"]
DEFAULTS = "defaults: {warmup: 0ms, sample_time: 0, samples: 2, runs: 1, timeout: 20s, seed: 3}"


def fnv64(data):
    """FNV-1a 64 of bytes, as "fnv64:<hex>"."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv64:%016x" % h


def run(tmp, name, body, defaults=DEFAULTS, check=True):
    """Runs config body (its suites: and more); the result document, or
    (exit code, stderr) when check is False."""
    path = os.path.join(tmp, name + ".yaml")
    with open(path, "w") as f:
        f.write("schema: 1\nname: %s\n%s\n%s" % (name, defaults, body))
    out = os.path.join(tmp, name + ".json")
    p = subprocess.run([BHOST, "run", path, "--out", out], capture_output=True, text=True,
                       timeout=300)
    if not check:
        return p.returncode, p.stderr, path
    if not os.path.exists(out):
        sys.exit("FAIL %s: no result (exit %d): %s" % (name, p.returncode, p.stderr[-2000:]))
    with open(out) as f:
        return json.load(f)


def case(doc, name):
    """The case named name (its name parameter)."""
    for c in doc["cases"]:
        if c["params"].get("name") == name:
            return c
    sys.exit("FAIL: no case %s" % name)


def expect(cond, what, c=None):
    """Fails the test with what (and the case's status and message)."""
    if not cond:
        extra = "" if c is None else " (status %s: %s)" % (c["status"], c.get("message"))
        sys.exit("FAIL: " + what + extra)


def metric_names(c):
    return {m["name"] for m in c["runs"][0].get("metrics", [])}


def check_ok_runs(tmp):
    """argv and shell verified by checksum; metrics reported."""
    doc = run(tmp, "okruns", """suites:
  - plugin: command
    name: argv-printf
    command: {argv: [printf, "a b\\\\n"], verify: {status: 0, checksum: "%s"}}
  - plugin: command
    name: shell-printf
    command: {shell: "printf 'x'; exit 4", verify: {status: 4, checksum: "%s"}}
""" % (fnv64(b"a b\n"), fnv64(b"x")))
    for name in ("argv-printf", "shell-printf"):
        c = case(doc, name)
        expect(c["status"] == "ok", name + " is ok", c)
        expect({"cmd.user_ns", "cmd.sys_ns", "cmd.peak_rss_kb"} <= metric_names(c),
               name + " reports user, system time and peak RSS", c)
        expect(c["runs"][0]["samples"], name + " has samples", c)
        expect(c["id"] == "command/run[name=%s]" % name, name + " id shows only its name", c)
    expect("cmd.shell_correction_ns" in metric_names(case(doc, "shell-printf")),
           "a shell command reports its correction")


def check_failures(tmp):
    """Wrong checksum invalid; missing program and exit 3 failed."""
    plain = os.path.join(tmp, "plain.txt")
    with open(plain, "w") as f:
        f.write("not a program\n")
    os.chmod(plain, 0o644)
    doc = run(tmp, "failures", """suites:
  - plugin: command
    name: wrong-sum
    command: {argv: [printf, abc], verify: {checksum: "fnv64:0123456789abcdef"}}
  - plugin: command
    name: missing
    command: {argv: [bhost-no-such-program-here, x]}
  - plugin: command
    name: not-exec
    command: {argv: [%s]}
  - plugin: command
    name: bad-cwd
    command: {argv: ["true"], cwd: /nonexistent-bhost-dir}
  - plugin: command
    name: exit3
    command: {shell: "echo first >&2; echo second >&2; echo third >&2; echo fourth >&2; exit 3"}
""" % plain)
    c = case(doc, "wrong-sum")
    expect(c["status"] == "invalid" and fnv64(b"abc") in c.get("message", ""),
           "a wrong checksum is invalid and names the actual one", c)
    c = case(doc, "missing")
    expect(c["status"] == "failed" and "bhost-no-such-program-here" in c["message"]
           and "not found" in c["message"], "a missing program is failed, named", c)
    c = case(doc, "not-exec")
    expect(c["status"] == "failed" and "Permission denied" in c["message"],
           "a file that is not executable is failed", c)
    c = case(doc, "bad-cwd")
    expect(c["status"] == "failed" and "cwd '/nonexistent-bhost-dir'" in c["message"],
           "a missing cwd is failed, named", c)
    c = case(doc, "exit3")
    m = c.get("message", "")
    expect(c["status"] == "failed" and "exit status 3" in m and "first | second | third" in m
           and "| fourth" not in m, "exit 3 is failed with the status and stderr's first lines", c)


def state_of(pid):
    """The /proc state letter of pid, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def check_timeout(tmp):
    """A hanging command: timeout, and its process does not outlive it."""
    pidfile = os.path.join(tmp, "hang.pid")
    doc = run(tmp, "hang", """suites:
  - plugin: command
    name: hang
    command: {shell: "echo $$ > %s; exec sleep 120"}
""" % pidfile, defaults=DEFAULTS.replace("timeout: 20s", "timeout: 2s"))
    c = case(doc, "hang")
    expect(c["status"] == "timeout", "a hanging command times out", c)
    pid = int(open(pidfile).read())
    for _ in range(50):
        if state_of(pid) in (None, "Z", "X"):
            break
        time.sleep(0.1)
    expect(state_of(pid) in (None, "Z", "X"),
           "the command's process is killed with the worker's group (state %s)" % state_of(pid))


def check_inputs(tmp):
    """stdin, env, cwd, ${VAR} expansion, prepare and cleanup."""
    work = os.path.join(tmp, "work")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(tmp, "in.txt"), "wb") as f:
        f.write(b"line one\nline two\n")
    os.environ["CMDTEST_DIR"] = tmp
    want = b"line one\nline two\n" + b"bar baz\n" + os.path.realpath(work).encode() + b"\n"
    doc = run(tmp, "inputs", """suites:
  - plugin: command
    name: inputs
    command:
      argv: [/bin/sh, -c, 'cat; printf "%%s\\n" "$FOO"; pwd -P']
      stdin: "${CMDTEST_DIR}/in.txt"
      env: {FOO: "bar ${CMDTEST_UNSET:-baz}"}
      cwd: "${CMDTEST_DIR}/work"
      verify: {checksum: "%s"}
  - plugin: command
    name: prepared
    command:
      argv: [test, -f, marker]
      cwd: %s
      prepare: "touch marker"
      cleanup: "rm marker"
  - plugin: command
    name: env-bin
    command:
      argv: [/usr/bin/env]
      env: {BHOST_CMD_TEST: "1"}
      requires: {sh: "a shell", "${CMDTEST_DIR}/in.txt": "the test's input"}
  - plugin: command
    name: needs-tool
    command:
      argv: [bhost-no-such-tool]
      requires: {bhost-no-such-tool: "Debian package bhost-tool"}
""" % (fnv64(want), work))
    for name in ("inputs", "prepared", "env-bin"):
        c = case(doc, name)
        expect(c["status"] == "ok", name + " is ok", c)
    c = case(doc, "needs-tool")
    expect(c["status"] == "skipped"
           and "needs bhost-no-such-tool (Debian package bhost-tool)" in c.get("message", ""),
           "a missing requirement skips the case, naming what provides it", c)
    expect(not os.path.exists(os.path.join(work, "marker")), "cleanup ran after the last run")


def check_ratios(tmp):
    """A ratio inside its interval; an unavailable one says why."""
    doc = run(tmp, "ratios", """suites:
  - plugin: command
    name: short
    command: {argv: ["true"]}
  - plugin: command
    name: long
    command: {argv: [sh, -c, "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"]}
  - plugin: command
    name: gone
    command: {argv: [bhost-no-such-reference]}
ratios:
  - {name: short over long, case: short, reference: long}
  - {case: "command/run[name=short]", reference: gone}
""", defaults=DEFAULTS.replace("runs: 1", "runs: 3"))
    ok, bad = doc["ratios"]
    expect(ok["status"] == "ok" and ok["ci_lo"] <= ok["ratio"] <= ok["ci_hi"]
           and ok["ratio"] > 0 and ok["level"] == 0.95, "a ratio within its interval: %s" % ok)
    expect(ok["case"] == "command/run[name=short]" and ok["reference"] == "command/run[name=long]",
           "the ratio names both case ids: %s" % ok)
    expect(bad["status"] == "unavailable" and "not found" in bad["reason"]
           and "bhost-no-such-reference" in bad["reason"], "an unavailable ratio says why: %s" % bad)
    html = os.path.join(tmp, "ratios.html")
    p = subprocess.run([BHOST, "report", os.path.join(tmp, "ratios.json"), "--html", html],
                       capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, "bhost report --html: %s" % p.stderr)
    with open(html) as f:
        page = f.read()
    expect('<section id="ratios">' in page and "short over long" in page
           and "%.3f&times;" % ok["ratio"] in page and "bhost-no-such-reference" in page,
           "the HTML report has the Ratios section with both rows")
    p = subprocess.run([BHOST, "report", os.path.join(tmp, "ratios.json")], capture_output=True,
                       text=True, timeout=60)
    expect("short over long" in p.stdout and "%.3fx" % ok["ratio"] in p.stdout
           and "unavailable: command/run[name=gone] failed" in p.stdout,
           "the console report prints both ratios: %s" % p.stdout[-1500:])


def check_bad_configs(tmp):
    """Bad command: maps: one line with file and line, exit 3."""
    bad = {
        "argv-not-list": ("command: {argv: \"ls -l\"}", "expected a non-empty list"),
        "argv-and-shell": ("command: {argv: [ls], shell: ls}", "exactly one of argv"),
        "neither": ("command: {cwd: /tmp}", "exactly one of argv"),
        "bad-sum": ("command: {argv: [ls], verify: {checksum: abc}}", "expected fnv64:"),
        "bad-status": ("command: {argv: [ls], verify: {status: 300}}", "[0, 255]"),
        "unknown-key": ("command: {argv: [ls], stdout: x}", "stdout"),
        "requires-list": ("command: {argv: [ls], requires: [ls]}", "requires"),
    }
    for name, (cmd, text) in bad.items():
        code, err, path = run(tmp, "bad-" + name, """suites:
  - plugin: command
    name: x
    %s
""" % cmd, check=False)
        lines = err.strip().splitlines()
        expect(code == 3, "%s: exit 3, got %d: %s" % (name, code, err))
        expect(len(lines) == 1 and (path + ":7:") in lines[0] and text in lines[0],
               "%s: one line with file and line naming %r: %s" % (name, text, err))


def check_per_run(tmp):
    """per_run: a run counts as per_run units, and the host's calibration
    still settles at one run per call: a command that logs each of its
    runs runs a handful of times, not per_run times more."""
    log = os.path.join(tmp, "runs.log")
    doc = run(tmp, "perrun", """suites:
  - plugin: command
    name: units
    command: {argv: [sh, -c, "echo x >> %s; sleep 0.01"], per_run: 1000000,
              verify: {status: 0}}
""" % log)
    c = case(doc, "units")
    expect(c["status"] == "ok", "a per_run command is ok", c)
    with open(log) as f:
        runs = len(f.readlines())
    samples = c["runs"][0]["samples"]
    expect(len(samples) == 2, "two samples", c)
    # calibration: iterations 1, 10, ..., until a call reaches 1 ms, each
    # one run of >= 10 ms; then the 2 samples: far below a thousand runs
    expect(runs <= 16, "the command ran %d times for 2 samples" % runs, c)
    for iters, ns in samples:
        expect(iters >= 1 and ns / iters < 1e6,
               "a sample is the time of one unit (%d iterations, %d ns)" % (iters, ns), c)


def main():
    with tempfile.TemporaryDirectory(prefix="bhost-cmd-") as tmp:
        for check in (check_ok_runs, check_failures, check_timeout, check_inputs, check_ratios,
                      check_bad_configs, check_per_run):
            check(tmp)
            print("ok", check.__name__)


if __name__ == "__main__":
    main()
