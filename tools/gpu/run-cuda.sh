#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the CUDA backend for real on a machine with an NVIDIA GPU: builds
# bhost with -Dcuda=enabled (release: no device-debug code), then
#   1. bhost info (the CUDA device, driver and runtime versions);
#   2. check-plugin of backend-cuda.so, requiring a device (every device
#      check must PASS: copies, bounds, map, streams, events, kernels);
#   3. check-plugin of accel.so and selftest.so on --backend cuda;
#   4. meson test --suite backends (cuda must then find its device);
#   5. the CI backends config with cuda required (ok statuses and
#      err/tol <= 1 against the host reference on cpu and cuda);
#   6. configs/backends.yaml, once plain and once with the L2 flushed
#      before every sample (BHOST_CUDA_L2_FLUSH=1), side by side.
# Results and logs go to $OUT (set by the device runner) or results/gpu/.
#
#   tools/gpu/run-cuda.sh              everything
#   tools/gpu/run-cuda.sh --quick      steps 1-5 only (about 2 minutes)
#   BUILD_DIR=b tools/gpu/run-cuda.sh  another build directory
#   BHOST_PREBUILT=1 tools/gpu/run-cuda.sh   use the build made elsewhere by
#       tools/gpu/pack.sh (after tools/gpu/unpack.sh): no compiler, meson or
#       ninja needed here; the tests run from build-gpu/tests.json
#   BHOST_STEP6_TIMEOUT=s   seconds for each run of step 6 (default 240)
#
# Needs what tools/setup.sh installs plus the CUDA toolkit (nvcc, headers,
# libcudart, libcublas: CUDA 12.0 or newer) and an NVIDIA driver. Nothing
# is downloaded here: a machine without network must have them already.
set -euo pipefail
cd "$(dirname "$0")/../.."

build_dir=${BUILD_DIR:-build-gpu}
out=${OUT:-results/gpu}
quick=0
[ "${1:-}" = "--quick" ] && quick=1
mkdir -p "$out"
log() { printf '\n== %s\n' "$*"; }
failed=()
# A failed step is reported and the later steps still run; the script's
# status says whether any failed.
step_failed() { failed+=("$1"); echo "!! step $1 FAILED"; }

log "machine"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv | tee "$out/nvidia-smi.csv"
else
  echo "nvidia-smi not found: is the NVIDIA driver installed?" >&2
fi
ls /dev/nvidia* >/dev/null 2>&1 || echo "warning: no /dev/nvidia* device node" >&2
prebuilt=${BHOST_PREBUILT:-0}
step6_timeout=${BHOST_STEP6_TIMEOUT:-240}
if [ "$prebuilt" = 1 ]; then
  [ -f "$build_dir/tests.json" ] ||
    { echo "BHOST_PREBUILT=1: no $build_dir/tests.json (run tools/gpu/pack.sh first)" >&2; exit 2; }
else
  for tool in meson ninja python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing: $tool" >&2; exit 2; }
  done
  command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] ||
    { echo "missing: nvcc (install the CUDA toolkit or set CUDA_HOME)" >&2; exit 2; }

  log "build ($build_dir)"
  if [ ! -f "$build_dir/build.ninja" ]; then
    meson setup "$build_dir" -Dcuda=enabled -Dbuildtype=release
  fi
  ninja -C "$build_dir"
fi
bhost=$build_dir/host/cli/bhost
cuda_so=$build_dir/plugins/backend-cuda/backend-cuda.so
export POCL_CACHE_DIR=$PWD/$build_dir/pocl-cache
export BHOST_OPENCL_CACHE_DIR=$PWD/$build_dir/opencl-cache

log "1. bhost info"
"$bhost" info --json > "$out/info.json" 2>&1 || true
grep -A40 -i '"cuda"' "$out/info.json" | head -60 || true

log "2. check-plugin backend-cuda.so (a device is required)"
python3 plugins/accel/tests/check_backend.py --bhost "$bhost" \
  --plugin "$cuda_so" --device-if '/dev/nvidia[0-9]*' | tee "$out/check-cuda.txt" ||
  step_failed 2
"$bhost" check-plugin "$cuda_so" > "$out/check-cuda-full.txt" 2>&1 || true

log "3. accel and selftest on --backend cuda"
"$bhost" check-plugin "$build_dir/plugins/accel/accel.so" --backend cuda \
  > "$out/check-accel-cuda.txt" 2>&1 || step_failed 3a
tail -15 "$out/check-accel-cuda.txt"
"$bhost" check-plugin "$build_dir/plugins/selftest/selftest.so" --backend cuda \
  > "$out/check-selftest-cuda.txt" 2>&1 || step_failed 3b
tail -5 "$out/check-selftest-cuda.txt"

log "4. the backends test suite"
if [ "$prebuilt" = 1 ]; then
  python3 tools/gpu/run-tests.py "$build_dir" --suite backends | tee "$out/meson-test.txt" ||
    step_failed 4
else
  meson test -C "$build_dir" --suite backends --print-errorlogs > "$out/meson-test.txt" 2>&1 ||
    step_failed 4
  tail -15 "$out/meson-test.txt"
fi

log "5. CI backends config, cuda required"
python3 plugins/accel/tests/check_run.py --bhost "$bhost" \
  --config plugins/accel/tests/backends-ci.yaml --require cpu --require cuda \
  | tee "$out/agreement.txt" || step_failed 5

if [ "$quick" = 1 ]; then
  echo "quick: done; results in $out; failed steps: ${failed[*]:-none}"
  [ ${#failed[@]} -eq 0 ]
  exit
fi

log "6. configs/backends.yaml"
timeout "$step6_timeout" "$bhost" run configs/backends.yaml --out "$out/backends.json" \
  > "$out/backends.txt" 2>&1 || echo "step 6 ended with status $?"
sed -n '/Backends side by side/,$p' "$out/backends.txt"
log "6b. configs/backends.yaml with BHOST_CUDA_L2_FLUSH=1, one iteration a sample (cold L2 each)"
# The flush precedes each sample, so a sample must be one iteration for
# every timed iteration to start cold: a 1 us sample_time stops the
# calibration at one; more samples make up for their shortness.
cold_cfg=$(mktemp --suffix=.yaml)
sed -e 's/^  sample_time: .*/  sample_time: 1us/' -e 's/^  samples: .*/  samples: 50/' \
  configs/backends.yaml > "$cold_cfg"
BHOST_CUDA_L2_FLUSH=1 timeout "$step6_timeout" "$bhost" run "$cold_cfg" --filter '*@cuda*' \
  --out "$out/backends-l2flush.json" > "$out/backends-l2flush.txt" 2>&1 || true
tail -5 "$out/backends-l2flush.txt"
grep -h "throttled\|below" "$out"/backends*.txt || echo "no throttled samples reported"
echo "done; results in $out; failed steps: ${failed[*]:-none}"
[ ${#failed[@]} -eq 0 ]
