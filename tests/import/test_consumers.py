#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An imported result works wherever a bhost result does: bhost report
(console and its own exports), bhost compare against another import and
against itself, bhost history over a folder of imports and over the
store, bhost import --store (then store info, export and runs), and bhost
run --baseline with an imported baseline (refused for the other system's
fingerprint unless --force, as for any baseline; compared with it)."""
import json
import os

import imp_common as ic
from imp_common import rt

CONFIG = """schema: 1
name: impcons
defaults: {warmup: 0, sample_time: 1ms, samples: 3, runs: 6, seed: 3}
suites:
  - plugin: selftest
    include: [spin]
    params: {work: [200]}
"""


def main():
    d = rt.tmpdir()
    try:
        real = os.path.join(d, "real.json")
        cfg = ic.config_runs(d, "impcons", CONFIG, real)
        gb = os.path.join(d, "real.gbench.json")
        rt.run(["report", real, "--gbench", gb], check_rc=0)
        res = os.path.join(d, "imp")
        files = []
        for _ in range(2):
            p = rt.run(["import", "gbench", gb, "--into", res], check_rc=0)
            files.append(p.stdout.split(" into ")[1].strip())
        assert files[0] != files[1] and all(os.path.dirname(f) == os.path.join(res, "impcons")
                                            for f in files), files

        # report and compare read it
        p = rt.run(["report", files[0]], check_rc=0)
        assert "selftest/spin[work=200]" in p.stdout, p.stdout
        rt.run(["report", files[0], "--gbench", os.path.join(d, "again.gbench.json")],
               check_rc=0)
        same = json.loads(rt.run(["compare", files[0], files[1], "--json"], check_rc=0).stdout)
        (c,) = same["cases"]
        assert c["verdict"] in ("no change", "inconclusive") and c["metrics"][0]["change"] == 0, c

        # history over the folder of imports
        h = json.loads(rt.run(["history", res, "--json"], check_rc=0).stdout)
        text = json.dumps(h)
        assert "selftest/spin[work=200]" in text, text[:500]

        # the store: import straight into it, then read it back
        db = os.path.join(d, "s.db")
        p = rt.run(["import", "gbench", gb, "--store", db], check_rc=0)
        assert "store: " in p.stdout and " run 1" in p.stdout, p.stdout
        info = json.loads(rt.run(["store", "info", "--store", db, "--json"], check_rc=0).stdout)
        assert "1" in json.dumps(info), info
        exp = os.path.join(d, "exported.json")
        rt.run(["store", "export", "1", "--store", db, "--out", exp], check_rc=0)
        with open(exp) as f:
            edoc = json.load(f)
        assert edoc["run"]["imported"]["format"] == "gbench", edoc["run"]
        rt.run(["compare", exp, files[0]], check_rc=0)
        runs = rt.run(["store", "runs", "--store", db], check_rc=0)
        assert "impcons" in runs.stdout, runs.stdout
        hs = rt.run(["history", "--store", db, "--json"], check_rc=0)
        assert "selftest/spin[work=200]" in hs.stdout

        # run --baseline: another system's fingerprint is refused without --force
        p = rt.run(["run", cfg, "--baseline", files[0], "--out", os.path.join(d, "b1.json"),
                    "--results-dir", os.path.join(d, "res"), "--quiet", "--no-store"])
        assert p.returncode != 0, p.stdout
        out = os.path.join(d, "b2.json")
        rt.run(["run", cfg, "--baseline", files[0], "--force", "--out", out, "--results-dir",
                os.path.join(d, "res"), "--quiet", "--no-store"], check_rc=0)
        with open(out) as f:
            bdoc = json.load(f)
        v = bdoc["cases"][0]["verdict"]
        assert v and v["baseline_id"] == "selftest/spin[work=200]", v
        assert bdoc["comparison"]["baseline"], bdoc["comparison"]
        print("ok")
    finally:
        rt.cleanup(d)


if __name__ == "__main__":
    main()
