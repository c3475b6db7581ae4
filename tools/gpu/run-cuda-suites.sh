#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On a GPU machine after tools/gpu/unpack.sh (or with a local build):
# runs tools/gpu/cuda-suites.yaml (inference through cuBLAS, cuSPARSE,
# cuFFT and cuDNN kernels, NVML energy) and prints each case's status,
# median and the energy/clock metrics. Results go to $OUT or results/gpu.
#   BUILD_DIR=build-gpu tools/gpu/run-cuda-suites.sh [--filter PATTERN]
set -uo pipefail
cd "$(dirname "$0")/../.."
build_dir=${BUILD_DIR:-build-gpu}
out=${OUT:-results/gpu}
mkdir -p "$out"
# cuDNN may live in a Python wheel (nvidia-cudnn-cu13) rather than the
# toolkit: point the backend at the first libcudnn.so.9 found.
if [ -z "${BHOST_CUDNN_LIB:-}" ]; then
  cudnn=$(find / -xdev -name 'libcudnn.so.9' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$cudnn" ] && export BHOST_CUDNN_LIB=$cudnn
fi
echo "cuDNN: ${BHOST_CUDNN_LIB:-not found}"
timeout "${BHOST_SUITES_TIMEOUT:-420}" "$build_dir/host/cli/bhost" run tools/gpu/cuda-suites.yaml \
  --out "$out/cuda-suites.json" "$@" > "$out/cuda-suites.txt" 2>&1
rc=$?
tail -60 "$out/cuda-suites.txt"
python3 - "$out/cuda-suites.json" <<'PY' | tee "$out/cuda-suites-summary.txt"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for c in d.get("cases", []):
    s = c.get("summary") or {}
    keep = {}
    for k, m in (c.get("metrics") or {}).items():
        if k.startswith(("energy", "cuda.", "tokens", "gflop", "err", "roof")) and m.get("values"):
            keep[k] = round(statistics.median(m["values"]), 4)
    thr = c.get("throughput") or {}
    print(c.get("status"), c.get("id"), s.get("median"), s.get("unit"),
          "ci", s.get("median_ci_lo"), s.get("median_ci_hi"),
          json.dumps(thr)[:200], keep, (c.get("message") or "")[:200])
    en = c.get("energy") or {}
    if en.get("status") != "ok":
        print("   energy:", en.get("status"), (en.get("reason") or "")[:160])
PY
echo "bhost run exit status: $rc"
