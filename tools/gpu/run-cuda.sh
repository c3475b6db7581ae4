#!/usr/bin/env bash
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

log "machine"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv | tee "$out/nvidia-smi.csv"
else
  echo "nvidia-smi not found: is the NVIDIA driver installed?" >&2
fi
ls /dev/nvidia* >/dev/null 2>&1 || echo "warning: no /dev/nvidia* device node" >&2
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
bhost=$build_dir/host/cli/bhost
cuda_so=$build_dir/plugins/backend-cuda/backend-cuda.so
export POCL_CACHE_DIR=$PWD/$build_dir/pocl-cache
export BHOST_OPENCL_CACHE_DIR=$PWD/$build_dir/opencl-cache

log "1. bhost info"
"$bhost" info > "$out/info.json" 2>&1 || true
grep -A40 -i '"cuda"' "$out/info.json" | head -60 || true

log "2. check-plugin backend-cuda.so (a device is required)"
python3 plugins/accel/tests/check_backend.py --bhost "$bhost" \
  --plugin "$cuda_so" --device-if '/dev/nvidia[0-9]*' | tee "$out/check-cuda.txt"
"$bhost" check-plugin "$cuda_so" > "$out/check-cuda-full.txt" 2>&1 || true

log "3. accel and selftest on --backend cuda"
"$bhost" check-plugin "$build_dir/plugins/accel/accel.so" --backend cuda \
  | tee "$out/check-accel-cuda.txt" | tail -15
"$bhost" check-plugin "$build_dir/plugins/selftest/selftest.so" --backend cuda \
  | tail -5

log "4. meson test --suite backends"
meson test -C "$build_dir" --suite backends --print-errorlogs | tee "$out/meson-test.txt" | tail -15

log "5. CI backends config, cuda required"
python3 plugins/accel/tests/check_run.py --bhost "$bhost" \
  --config plugins/accel/tests/backends-ci.yaml --require cpu --require cuda \
  | tee "$out/agreement.txt"

if [ "$quick" = 1 ]; then
  echo "quick: done; results in $out"
  exit 0
fi

log "6. configs/backends.yaml"
"$bhost" run configs/backends.yaml --out "$out/backends.json" | tee "$out/backends.txt" \
  | sed -n '/Backends side by side/,$p'
log "6b. configs/backends.yaml with BHOST_CUDA_L2_FLUSH=1 (cold L2 per sample)"
BHOST_CUDA_L2_FLUSH=1 "$bhost" run configs/backends.yaml --filter '*@cuda*' \
  --out "$out/backends-l2flush.json" > "$out/backends-l2flush.txt" 2>&1 || true
tail -5 "$out/backends-l2flush.txt"
grep -h "throttled\|below" "$out"/backends*.txt || echo "no throttled samples reported"
echo "done; results in $out"
