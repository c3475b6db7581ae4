# SPDX-License-Identifier: MIT
"""Helpers of the import tests (tests/import/test_*.py): importing a file
into a fresh folder and reading the document back, and the sample counts
of a document. Running bhost is tests/report/rt_common.py's."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
sys.path.insert(0, os.path.join(HERE, "..", "report"))
import rt_common as rt  # noqa: E402,F401


def data(*parts):
    return os.path.join(DATA, *parts)


def import_into(d, fmt, files, *extra, rc=0):
    """bhost import FMT FILES --into d/res; the written document (path, doc)
    when rc is 0, else the CompletedProcess."""
    res = os.path.join(d, "res")
    before = set(glob.glob(os.path.join(res, "*", "*.json")))
    p = rt.run(["import", fmt] + list(files) + ["--into", res] + list(extra), check_rc=rc)
    if rc != 0:
        return p
    new = sorted(set(glob.glob(os.path.join(res, "*", "*.json"))) - before)
    assert len(new) == 1, (new, p.stdout)
    assert ("into " + new[0]) in p.stdout, p.stdout
    with open(new[0]) as f:
        return new[0], json.load(f)


def samples(doc):
    """{case id: [[samples of run 0], [samples of run 1], ...]}."""
    return {c["id"]: [r["samples"] for r in c["runs"]] for c in doc["cases"]}


def config_runs(d, name, text, *outs):
    """Writes config text to d/name.yaml and runs it once per path in outs
    (--out path, no store); returns the config's path."""
    cfg = os.path.join(d, name + ".yaml")
    with open(cfg, "w") as f:
        f.write(text)
    for out in outs:
        rt.run(["run", cfg, "--out", out, "--results-dir", os.path.join(d, "res"), "--quiet",
                "--no-store"], check_rc=0)
    return cfg


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
