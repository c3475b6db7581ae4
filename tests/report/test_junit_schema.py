#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bhost's JUnit XML against the JUnit schema CI servers use (Jenkins
junit-10.xsd, tests/report/junit-10.xsd) with xmllint, and read by
python3-junitparser when it is installed. Inputs: a synthetic result with
every status, verdicts and text that must be escaped, and the same with
--baseline verdicts computed by the regression engine. Skipped (exit 77)
when xmllint (libxml2-utils) is missing."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_common as rt  # noqa: E402

XSD = os.path.join(rt.HERE, "junit-10.xsd")

JUNITPARSER = r"""
import json, sys
from junitparser import JUnitXml, Failure, Error, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
out = {"tests": 0, "failure": 0, "error": 0, "skipped": 0, "names": []}
for suite in xml:
    for case in suite:
        out["tests"] += 1
        out["names"].append([case.classname, case.name])
        for r in case.result:
            if isinstance(r, Failure): out["failure"] += 1
            elif isinstance(r, Error): out["error"] += 1
            elif isinstance(r, Skipped): out["skipped"] += 1
print(json.dumps(out))
"""


def main():
    if not shutil.which("xmllint"):
        print("SKIP: xmllint not installed (Debian package libxml2-utils)")
        sys.exit(rt.SKIP)
    d = rt.tmpdir()
    try:
        syn = os.path.join(d, "syn.json")
        xml = os.path.join(d, "syn.xml")
        rt.gen("--cases", "44", "--verdicts", "--failures", "--out", syn)
        rt.run(["report", syn, "--junit", xml], check_rc=0)
        p = subprocess.run(["xmllint", "--noout", "--schema", XSD, xml], capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        print(p.stderr.strip())
        # the check has teeth: a document breaking the schema is refused
        bad = os.path.join(d, "bad.xml")
        with open(xml) as f, open(bad, "w") as g:
            g.write(f.read().replace("<testcase ", "<testcase bogus=\"1\" ", 1))
        p = subprocess.run(["xmllint", "--noout", "--schema", XSD, bad], capture_output=True,
                           text=True)
        assert p.returncode != 0, "xmllint accepted an invalid document"

        py = rt.python_with("junitparser")
        if not py:
            print("note: python3-junitparser not installed; parsed with xmllint only")
            return
        with open(syn) as f:
            doc = json.load(f)
        p = subprocess.run([py, "-c", JUNITPARSER, xml], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        got = json.loads(p.stdout)
        st = [c["status"] for c in doc["cases"]]
        crit = sum(1 for c in doc["cases"] if isinstance(c.get("verdict"), dict) and
                   c["verdict"]["verdict"] == "regressed" and
                   c["verdict"]["severity"] == "critical")
        assert got["tests"] == len(doc["cases"]), got
        assert got["failure"] == crit + st.count("failed") + st.count("invalid"), got
        assert got["error"] == st.count("crashed") + st.count("timeout") + st.count("oom"), got
        assert got["skipped"] == st.count("skipped") + st.count("unsupported"), got
        assert got["names"] == [["%s/%s" % (c["plugin"], c["benchmark"]), c["id"]]
                                for c in doc["cases"]]
        print("junitparser: %d tests, %d failures, %d errors, %d skipped" % (
            got["tests"], got["failure"], got["error"], got["skipped"]))
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
