#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost report's command line: bad or malformed input gives one line
naming the file and exit 4; a report that cannot be written, exit 4; usage
errors, exit 2; without an output option, the console table; '-' writes to
stdout."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402


def one_line_error(p, name, code=4):
    assert p.returncode == code, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert name in lines[0], (name, lines[0])
    assert lines[0].startswith("bhost: "), lines[0]
    assert p.stdout == "", p.stdout


def main():
    d = rt.tmpdir()
    try:
        good = os.path.join(d, "good.json")
        rt.gen("--cases", "12", "--failures", "--verdicts", "--out", good)
        out = os.path.join(d, "o.md")

        missing = os.path.join(d, "missing.json")
        one_line_error(rt.run(["report", missing, "--markdown", out]), missing)
        cases = {
            "notjson.json": "{\"schema\": \"bhost.result/1\", \"run\": {},\n  oops",
            "empty.json": "",
            "schema.json": json.dumps({"schema": "other/1", "run": {}, "cases": []}),
            "norun.json": json.dumps({"schema": "bhost.result/1", "cases": []}),
            "badcase.json": json.dumps({"schema": "bhost.result/1", "run": {},
                                        "cases": [{"id": 3, "status": "ok"}]}),
            "dup.json": json.dumps({"schema": "bhost.result/1", "run": {},
                                    "cases": [{"id": "a", "status": "ok"},
                                              {"id": "a", "status": "ok"}]}),
            "deep.json": "[" * 100000 + "]" * 100000,
        }
        for name, text in cases.items():
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            one_line_error(rt.run(["report", path, "--html", out]), path)
            assert not os.path.exists(out)
        p = rt.run(["report", os.path.join(d, "notjson.json")])
        assert ":2: not valid JSON" in p.stderr, p.stderr
        # a directory is not a result file
        one_line_error(rt.run(["report", d, "--csv", out]), d)
        # a malformed baseline
        one_line_error(rt.run(["report", good, "--baseline", os.path.join(d, "dup.json"),
                               "--markdown", out]), os.path.join(d, "dup.json"))
        # a history folder that does not exist
        nohist = os.path.join(d, "nohist")
        one_line_error(rt.run(["report", good, "--history", nohist, "--html", out]), nohist)
        # an output that cannot be written
        bad_out = os.path.join(d, "no", "such", "dir", "r.xml")
        p = rt.run(["report", good, "--junit", bad_out])
        one_line_error(p, bad_out)

        # usage errors
        for args in (["report"], ["report", good, good], ["report", good, "--nope"],
                     ["report", good, "--config", "x.yaml"], ["report", good, "--html"]):
            p = rt.run(args)
            assert p.returncode == 2, (args, p.returncode, p.stderr)
            assert len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert rt.run(["report", "--help"], check_rc=0).stdout.startswith(
            "usage: bhost report")

        # default: the console table; '-' writes a format to stdout
        p = rt.run(["report", good], check_rc=0)
        assert p.stdout.startswith("case ") and "12 cases:" in p.stdout, p.stdout
        assert "verdict" in p.stdout.splitlines()[0]
        p = rt.run(["report", good, "--verbose"], check_rc=0)
        assert "plugin log (last lines):" in p.stdout
        p = rt.run(["report", good, "--bmf", "-"], check_rc=0)
        assert len(json.loads(p.stdout)) > 0
        print("bhost report: errors, usage and console output as documented")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
