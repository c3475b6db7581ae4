#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prepares a run of tools/gpu/run-cuda.sh on a GPU machine that has an
# NVIDIA driver and the CUDA runtime but neither bhost's build tools nor its
# Debian libraries (libyaml, cJSON, OpenBLAS, SQLite...). Here, on a machine
# set up by tools/setup.sh with the CUDA toolkit:
#   1. builds build-gpu (release, -Dcuda=enabled);
#   2. writes build-gpu/tests.json (meson introspect --tests), so that the
#      tests run there without meson (tools/gpu/run-tests.py);
#   3. packs every shared library the build links, other than glibc's and
#      the CUDA libraries (loaded from the GPU machine's own), into
#      .gpu-carry/libs.tar.xz.
# There, tools/gpu/unpack.sh installs the libraries behind the system's own
# (a library the machine has is used first) and run-cuda.sh runs with
# BHOST_PREBUILT=1. Carry build-gpu and .gpu-carry (about 35 MB together).
set -euo pipefail
cd "$(dirname "$0")/../.."

build_dir=build-gpu
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" -Dcuda=enabled -Dbuildtype=release
fi
ninja -C "$build_dir"
meson introspect --tests "$build_dir" > "$build_dir/tests.json"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" .gpu-carry
find "$build_dir" -type f \( -name '*.so' -o -perm -u+x \) ! -name '*.o' -print0 |
  while IFS= read -r -d '' f; do
    file -b "$f" | grep -q '^ELF' && ldd "$f" 2>/dev/null || true
  done |
  awk '/=>/ && $3 ~ /^\// {print $1, $3}' | sort -u |
  grep -v -E '^(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux[^ ]*|libcuda|libcudart|libcublas[^ ]*)\.so' |
  while read -r soname path; do
    cp -L "$path" "$stage/lib/$soname"
  done
tar -C "$stage" -cJf .gpu-carry/libs.tar.xz lib
echo "packed $(ls "$stage/lib" | wc -l) libraries: $(du -h .gpu-carry/libs.tar.xz | cut -f1); build: $(du -sh "$build_dir" | cut -f1)"
