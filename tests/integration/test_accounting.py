# SPDX-License-Identifier: MIT
"""The work every in-tree plugin declares (issue 21 items 2 and 3).

Runs one small case per plugin (runs 1, samples 1, tiny sizes) with the
real bhost and checks runs[0].flops_per_iter, bytes_per_iter,
items_per_iter, the case's work_profile and its ceiling flag against a
hand count written out below with its arithmetic (plugin-api/README.md
section 6: bytes are bytes moved, FLOPs operations of the case's own
arithmetic type). Environment: BHOST_EXE, BHOST_PLUGIN_PATH.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

# tiny-gpt2 (plugins/inference/engine/ie_config.c): 2 layers, d 64, 4
# heads of 16, ffn 256, vocab 97, f32 weights.
D, FF, VOCAB, LAYERS, HEADS, HD = 64, 256, 97, 2, 4, 16
QKV = (HEADS + 2 * HEADS) * HD                       # 192 rows
MATMUL = QKV * D + HEADS * HD * D + 2 * FF * D       # 49152 weights per layer
# per layer: qkv, o, up, down matrices (4 B each) + the vectors: two
# layernorms (4 x 64), biases qkv 192, o 64, up 256, down 64 = 832 floats
LAYER_BYTES = 4 * MATMUL + 4 * (6 * D + QKV + FF)    # 196608 + 3328
# one pass reads every layer, the LM head (tied embedding, 97 x 64), one
# position row and the final layernorm
STEP_BYTES = LAYERS * LAYER_BYTES + 4 * VOCAB * D + 4 * D + 2 * 4 * D  # 425472
PROMPT = 4
# 2 per weight per token, 4 * heads * head_dim per attended (query, key)
# pair (causal: 1 + 2 + 3 + 4 = 10 pairs), the LM head on the last token
PREFILL_FLOPS = (LAYERS * (2 * PROMPT * MATMUL + 4 * HEADS * HD * 10)
                 + 2 * VOCAB * D)                    # 803968

CORPUS = "hello world\nhello world\n"

# (plugin, benchmark, params, flops, bytes, items, profile, ceiling);
# profile is (working_set_bytes, access, compute, threads). None: absent.
CASES = [
    # memcpy 4096: 4096 read + 4096 written = 8192 bytes, the same 8192
    # touched; one thread, no arithmetic
    ("selftest", "memcpy", {"bytes": 4096},
     None, 8192, None, (8192, "read-write", "none", 1), False),
    # triad n=1024 f64: 3 arrays x 1024 x 8 = 24576 bytes; 2 FLOP x 1024
    ("tensor", "stream.triad", {"elements": 1024, "threads": 1},
     2048, 24576, 1024, (24576, "read-write", "f64", 1), False),
    # reduce.sum over 256 f32: 256 x 4 read + one 4-byte result = 1028
    # bytes, 256 adds; a read stream whose working set is the 1024 bytes
    # streamed (the single result stays in a register)
    ("tensor", "reduce.sum", {"shape": "256", "threads": 1},
     256, 1028, 256, (1024, "read", "f32", 1), False),
    # matmul.int8 4x4x4: 2 x 64 = 128 int8 operations (the int8 class,
    # never f32); A 16 + B 16 int8 + C 4 x 16 int32 = 96 bytes
    ("tensor", "matmul.int8", {"m": 4, "n": 4, "k": 4, "threads": 1},
     128, 96, 16, (96, "read-write", "int8", 1), False),
    # roof.compute n=16: a compute ceiling: 2 x 16^3 = 8192 FLOP, no bytes
    # (a ceiling with bytes would be a bandwidth); working set 3 x 16^2 x 4
    ("tensor", "roof.compute", {"n": 16, "threads": 1},
     8192, None, None, (3072, "read-write", "f32", 1), True),
    # sgd over 1024 params: g read 4 + p read 4 + p written 4 = 12 B/param
    # = 12288 bytes; p and g allocated: 2 x 4 x 1024 = 8192
    ("optimizer", "step", {"optimizer": "sgd", "params": 1024, "threads": 1},
     None, 12288, 1024, (8192, "read-write", "f32", 1), False),
    # optimizer roof.bandwidth n=1024: triad, 24 x 1024 bytes, 2 x 1024 FLOP
    ("optimizer", "roof.bandwidth", {"elements": 1024, "threads": 1},
     2048, 24576, None, (24576, "read-write", "f64", 1), True),
    # two lines "hello world": 11 + 11 = 22 bytes read (the line breaks are
    # never handed over); gpt2 splits each into "hello", " world": 4
    # tokens; working set 22 + 4 x 4 = 38
    ("tokenizer", "encode", {"vocab": "gpt2", "corpus": "@CORPUS@"},
     None, 22, 4, (38, "read", "none", 1), False),
    # memory.grow of 16 pages with guard pages and no touch: mprotect only,
    # 0 bytes moved, items = 16 pages
    ("wasm-sim", "mem.grow", {"pages": 16, "memcheck": "guard", "touch": False},
     None, 0, 16, (0, "write", "none", 1), False),
    # the explicit build zero-fills 16 x 65536 = 1048576 bytes per grow
    ("wasm-sim", "mem.grow", {"pages": 16, "memcheck": "explicit", "touch": False},
     None, 1048576, 16, (1048576, "write", "none", 1), False),
    # dot n=1024 f32: 2 x 1024 reads x 4 = 8192 bytes, 2048 FLOP, a read
    ("wasm-sim", "kernel.dot", {"n": 1024, "mode": "native"},
     2048, 8192, 1, (8192, "read", "f32", 1), False),
    # tiny-gpt2 prefill of 4 tokens: the hand count above
    ("inference", "prefill", {"model": "tiny-gpt2", "prompt": PROMPT, "batch": 1,
                              "threads": 1},
     PREFILL_FLOPS, STEP_BYTES, PROMPT, (STEP_BYTES, "read", "f32", 1), False),
    # copy.d2d 4096 on the CPU device: 4096 read + 4096 written; a ceiling
    ("accel", "copy.d2d", {"bytes": 4096},
     None, 8192, 1, (8192, "read-write", "none", 0), True),
    # launch.latency: items only; a ceiling without bytes or FLOPs (the
    # device's per-call latency floor)
    ("accel", "launch.latency", {"mode": "sync"},
     None, None, 1, (0, "unknown", "none", 0), True),
]

DEVICE = {"inference", "accel"}
# plugins whose case may be skipped here: wasm-sim is a build option, the
# tokenizer needs tools/tokenizer/fetch.sh's vocabularies
OPTIONAL = {"tokenizer", "wasm-sim"}


def yaml_value(v):
    """A parameter value as YAML flow text."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def config(corpus):
    """The suite config: one suite per case."""
    out = ["schema: 1", "name: accounting",
           "defaults: {warmup: 0ms, sample_time: 1ms, samples: 1, runs: 1, seed: 7,"
           " timeout: 60s}",
           "backends:", "  cpu: {required: true}", "suites:"]
    for i, (plugin, bench, params, *_rest) in enumerate(CASES):
        p = ", ".join("%s: [%s]" % (k, yaml_value(corpus if v == "@CORPUS@" else v))
                      for k, v in params.items())
        out += ["  - plugin: %s" % plugin, "    name: c%d" % i,
                "    include: [%s]" % json.dumps(bench), "    params: {%s}" % p]
        if plugin in DEVICE:
            out.append("    backends: [cpu]")
    return "\n".join(out) + "\n"


def find(doc, plugin, bench, params):
    """The case of plugin/bench whose params include params."""
    for c in doc["cases"]:
        if c["plugin"] != plugin or c["benchmark"] != bench:
            continue
        if all(str(c["params"].get(k)).lower() == str(v).lower() or v == "@CORPUS@"
               for k, v in params.items()):
            return c
    return None


def check_case(doc, case, errors):
    """Appends to errors every way the case differs from its hand count."""
    plugin, bench, params, flops, nbytes, items, profile, ceiling = case
    c = find(doc, plugin, bench, params)
    name = "%s/%s %s" % (plugin, bench, params)
    if c is None:
        errors.append("%s: no such case in the result" % name)
        return
    if c["status"] == "skipped" and plugin in OPTIONAL:
        print("SKIP %s: %s" % (name, c.get("message")))
        return
    if c["status"] != "ok":
        errors.append("%s: status %s (%s)" % (name, c["status"], c.get("message")))
        return
    run = c["runs"][0]
    for key, want in (("flops_per_iter", flops), ("bytes_per_iter", nbytes),
                      ("items_per_iter", items)):
        got = run.get(key)
        if want is None and got not in (None, 0):
            errors.append("%s: %s = %s, none expected" % (name, key, got))
        elif want is not None and got != want:
            errors.append("%s: %s = %s, hand count %s" % (name, key, got, want))
    wp = c.get("work_profile")
    want_wp = dict(zip(("working_set_bytes", "access", "compute", "threads"), profile))
    if wp != want_wp:
        errors.append("%s: work_profile %s, hand count %s" % (name, wp, want_wp))
    if bool(c.get("ceiling")) != ceiling:
        errors.append("%s: ceiling %s, expected %s" % (name, c.get("ceiling"), ceiling))


def main():
    exe = os.environ.get("BHOST_EXE")
    if not exe:
        print("BHOST_EXE is not set")
        return 1
    with tempfile.TemporaryDirectory(prefix="bh-acc-") as tmp:
        corpus = os.path.join(tmp, "corpus.txt")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write(CORPUS)
        cfg = os.path.join(tmp, "accounting.yaml")
        with open(cfg, "w", encoding="utf-8") as f:
            f.write(config(corpus))
        res = os.path.join(tmp, "results")
        p = subprocess.run([exe, "run", cfg, "--results-dir", res, "--no-store", "--quiet"],
                           capture_output=True, text=True, timeout=300, check=False)
        files = glob.glob(os.path.join(res, "accounting", "*.json"))
        if len(files) != 1:
            print("bhost run wrote %d results (exit %d)\n%s%s"
                  % (len(files), p.returncode, p.stdout, p.stderr))
            return 1
        with open(files[0], encoding="utf-8") as f:
            doc = json.load(f)
    errors = []
    for case in CASES:
        check_case(doc, case, errors)
    for e in errors:
        print("FAIL", e)
    print("%d cases, %d mismatches" % (len(CASES), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
