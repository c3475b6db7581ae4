#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds bhost for aarch64 (arm64) on Debian 12 amd64 and checks it
# under qemu-user: installs what is missing (gcc-aarch64-linux-gnu, the arm64
# multiarch libraries, qemu-user-static; apt-get, with sudo when not root),
# registers qemu-aarch64 with binfmt_misc (bhost spawns its workers and the
# tests spawn bhost, so arm64 programs must run by exec), configures
# build-arm64 with tools/cross/aarch64-linux-gnu.ini, builds the host, the
# plugin SDK and the CPU-side plugins, runs the unit tests of the host and
# of the CPU plugins under qemu, and runs configs/smoke.yaml with the
# cross-built bhost (results in a temporary folder).
#
# Under qemu timings mean nothing, correctness does: the tests that need
# native tools, a device, or process control that qemu-user lacks are left
# to the native build (the list is below, with suites).
#   tools/cross/arm64.sh             install + build + tests + smoke
#   BUILD_DIR=b tools/cross/arm64.sh another build directory
#   ARM64_SUITES="unit tensor" tools/cross/arm64.sh   other test suites
#   ARM64_NO_SMOKE=1 tools/cross/arm64.sh             tests only
#   ARM64_EXTRA_PACKAGES="libfoo-dev:arm64" tools/cross/arm64.sh   more packages
# Exit status: 0 all passed; 77 skipped (a package that cannot be installed,
# no binfmt_misc; one line says which); else the failing step's status.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir=${BUILD_DIR:-build-arm64}
cross_file=tools/cross/aarch64-linux-gnu.ini
jobs=${ARM64_JOBS:-2}

# Suites run under qemu, and the tests of them left out (SUITE/NAME):
#  tokenizer/exact   node and spm_encode over a large corpus (native tools)
#  store/store-postgres, store/store-notify   a PostgreSQL server; libcurl
#                    (both back ends are off in this build)
#  sdk/install       rebuilds the project with the native meson and runs it
#  wasm/wsim_core    its memory.grow test reserves 8 GiB and grows it with
#                    mprotect, which qemu-user refuses (ENOMEM)
# Not run at all: integration and reliability (qemu-user 7.2 has no
# PR_SET_CHILD_SUBREAPER, and they time and count worker processes), report
# and ci (the native tools that read bhost's exports), backends (devices).
read -r -a suites <<<"${ARM64_SUITES:-unit tensor optimizer inference tokenizer store abi sdk wasm}"
skip_tests=(tokenizer/exact store/store-postgres store/store-notify sdk/install wasm/wsim_core)

skip() {
    echo "arm64: skipped: $*" >&2
    exit 77
}

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || skip "not root and no sudo to install packages"
    sudo_cmd=(sudo)
fi
apt_get() {
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# ---- packages -----------------------------------------------------------
build_packages=(
    gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
    meson ninja-build pkg-config python3
    # plugins/wasm-sim: clang to wasm32, wasm-ld and wasm2c run on this machine
    clang-14 lld-14 wabt
)
arm64_packages=(
    libc6:arm64 libc6-dev:arm64 libstdc++6:arm64 libyaml-dev:arm64 libcjson-dev:arm64 libhwloc-dev:arm64
    libcmocka-dev:arm64 libopenblas-dev:arm64 libsqlite3-dev:arm64
    libutf8proc-dev:arm64
)
# shellcheck disable=SC2206
arm64_packages+=(${ARM64_EXTRA_PACKAGES:-})

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "arm64: dpkg --add-architecture arm64"
    "${sudo_cmd[@]}" dpkg --add-architecture arm64 ||
        skip "dpkg --add-architecture arm64 failed"
fi
missing=()
for p in "${build_packages[@]}" "${arm64_packages[@]}"; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "arm64: installing ${missing[*]}"
    apt_get update -qq || skip "apt-get update failed"
    for p in "${missing[@]}"; do
        apt_get install -s -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
            skip "package $p cannot be installed"
    done
    apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        skip "packages ${missing[*]} could not be installed together"
fi

# ---- binfmt_misc: arm64 programs run by exec ------------------------------
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/qemu-aarch64" ]; then
    [ -e "$binfmt/register" ] ||
        "${sudo_cmd[@]}" mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null || true
    conf=/usr/lib/binfmt.d/qemu-aarch64.conf
    [ -e "$binfmt/register" ] || skip "binfmt_misc is not available (mount -t binfmt_misc)"
    [ -r "$conf" ] || skip "$conf missing (qemu-user-static)"
    "${sudo_cmd[@]}" sh -c "cat '$conf' > '$binfmt/register'" 2>/dev/null ||
        skip "could not register qemu-aarch64 with binfmt_misc"
fi
grep -qx enabled "$binfmt/qemu-aarch64" || skip "binfmt_misc entry qemu-aarch64 is disabled"
grep -qx enabled "$binfmt/status" || skip "binfmt_misc is disabled"

# ---- configure and build ----------------------------------------------------
if [ ! -f "$build_dir/build.ninja" ]; then
    # Devices and services have no arm64 libraries here: their plugins and
    # the optional store and alert back ends are off.
    meson setup "$build_dir" --cross-file "$cross_file" \
        -Dcuda=disabled -Dhip=disabled -Dvulkan=disabled -Dopencl=disabled \
        -Dlevel_zero=disabled -Dlibpq=disabled -Dlibcurl=disabled
fi
ninja -C "$build_dir" -j "$jobs"

bhost=$build_dir/host/cli/bhost
aarch64-linux-gnu-readelf -h "$bhost" | grep -q "Machine: *AArch64" || {
    echo "arm64: $bhost is not an aarch64 program" >&2
    exit 1
}

# ---- tests under qemu -------------------------------------------------------
# Meson runs each cross-built test through the cross file's exe_wrapper.
select_tests='
import json, sys
suites, skip = set(sys.argv[1].split()), set(sys.argv[2].split())
for t in json.load(sys.stdin):
    suite = sorted(s.split(":")[-1] for s in t["suite"])
    if set(suite) & suites and suite[0] + "/" + t["name"] not in skip:
        print(t["name"])
'
# (A name that two suites share runs in both: unit/history also selects
# integration/history, abi/exports report/exports; both pass under qemu.)
mapfile -t tests < <(meson introspect --tests "$build_dir" |
    python3 -c "$select_tests" "${suites[*]}" "${skip_tests[*]}")
[ ${#tests[@]} -gt 0 ] || { echo "arm64: no tests in suites ${suites[*]}" >&2; exit 1; }
echo "arm64: ${#tests[@]} tests under qemu: ${tests[*]}"
meson test -C "$build_dir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
    --timeout-multiplier "${ARM64_TIMEOUT_MULTIPLIER:-1}" "${tests[@]}"

# ---- smoke run under qemu ---------------------------------------------------
[ -z "${ARM64_NO_SMOKE:-}" ] || exit 0
out=$(mktemp -d "${TMPDIR:-/tmp}/bhost-arm64.XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "arm64: bhost run configs/smoke.yaml (results in $out)"
rc=0
"$bhost" run configs/smoke.yaml --results-dir "$out" --out "$out/smoke.json" \
    --no-store --quiet || rc=$?
[ -f "$out/smoke.json" ] || { echo "arm64: smoke: no result (exit $rc)" >&2; exit 1; }
# Every case must be ok: a skipped one means a plugin or backend that the
# smoke config names was not built for arm64.
python3 - "$out/smoke.json" <<'EOF' || rc=1
import collections, json, sys
cases = json.load(open(sys.argv[1]))["cases"]
counts = collections.Counter(c["status"] for c in cases)
print("arm64: smoke:", ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
for c in cases:
    if c["status"] != "ok":
        print(f"arm64:   {c['id']}: {c['status']}: {c.get('message', '')}")
sys.exit(0 if set(counts) <= {"ok"} else 1)
EOF
exit "$rc"
