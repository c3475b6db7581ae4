#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost import refuses what it cannot read, for every format: text that
is not JSON (with its line), a truncated file, a file of another format
or tool, a unit that is not a time, a missing file. Each: exit 4, one
line on stderr naming the file and what was expected, nothing written.
An unknown format or no file is a usage error (exit 2)."""
import glob
import os

import imp_common as ic
from imp_common import rt

FORMATS = ["gbench", "pyperf", "hyperfine", "criterion", "asv"]
VALID = {
    "gbench": ic.data("gbench_reps.json"),
    "pyperf": ic.data("pyperf.json"),
    "hyperfine": ic.data("hyperfine.json"),
    "criterion": ic.data("criterion", "fib", "20", "new", "sample.json"),
    "asv": ic.data("asv", "results", "asvbox", "01234567-virtualenv-py3.11.json"),
}


def refused(d, fmt, path, *want):
    out = os.path.join(d, "res")
    p = rt.run(["import", fmt, path, "--into", out], check_rc=4)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, (fmt, path, p.stderr)
    assert lines[0].startswith("bhost: import: " + path), lines[0]
    for w in want:
        assert w in lines[0], (w, lines[0])
    assert not glob.glob(os.path.join(out, "*", "*.json")), "a file was written"
    return lines[0]


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    d = rt.tmpdir()
    try:
        garbage = write(d, "garbage.json", '{\n  "benchmarks": [\n    {"name": x}\n  ]\n}\n')
        empty = write(d, "empty.json", "")
        for fmt in FORMATS:
            # not JSON: the line of the error
            refused(d, fmt, garbage, garbage + ":3: not valid JSON (expected")
            refused(d, fmt, empty, "ends early")
            # truncated: the first half of a real file
            with open(VALID[fmt]) as f:
                text = f.read()
            half = write(d, fmt + "-half.json", text[: len(text) // 2])
            refused(d, fmt, half, "ends early, a truncated file?")
            # another format's file
            other = VALID[FORMATS[(FORMATS.index(fmt) + 1) % len(FORMATS)]]
            refused(d, fmt, other, "expected")
            refused(d, fmt, write(d, "array.json", "[1, 2]"), "expected")
            refused(d, fmt, os.path.join(d, "missing.json"))
        # not a regular file: refused without blocking
        fifo = os.path.join(d, "fifo.json")
        os.mkfifo(fifo)
        refused(d, "gbench", fifo, "not a regular file")
        refused(d, "pyperf", d, "not a regular file")
        # units that are not times are named
        line = refused(d, "gbench", write(d, "unit.json", '{"benchmarks": [{"name": "BM_a", '
                       '"run_type": "iteration", "iterations": 10, "real_time": 1.5, '
                       '"time_unit": "furlong"}]}'), "furlong", "cannot be mapped to seconds")
        assert "benchmarks[0].time_unit" in line, line
        refused(d, "pyperf", write(d, "bytes.json", '{"version": "1.0", "metadata": {"unit": '
                '"byte"}, "benchmarks": [{"metadata": {"name": "m"}, "runs": [{"values": [1]}]}]}'),
                "unit 'byte' cannot be mapped to seconds")
        # values a result cannot hold
        refused(d, "gbench", write(d, "iters.json", '{"benchmarks": [{"name": "BM_a", '
                '"iterations": 0.5, "real_time": 1}]}'), "iterations: expected a whole number")
        refused(d, "criterion", write(d, "crit.json", '{"iters": [1, 2], "times": [1]}'),
                "same non-zero length")
        refused(d, "hyperfine", write(d, "hf.json", '{"results": [{"command": "x", "times": '
                '[-1]}]}'), "times[0]: expected a number of seconds")
        refused(d, "asv", write(d, "asv1.json", '{"version": 1, "results": {}}'), "version 2")
        # usage errors
        rt.run(["import", "nosuch", VALID["gbench"]], check_rc=2)
        rt.run(["import", "gbench"], check_rc=2)
        rt.run(["import", "gbench", VALID["gbench"], "--into", d, "--store", d + "/s.db"],
               check_rc=2)
        print("ok")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
