#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On the GPU machine (as root), before BHOST_PREBUILT=1 run-cuda.sh: unpacks
# .gpu-carry/libs.tar.xz (made by tools/gpu/pack.sh) to /opt/bhost-libs and
# lists it, and the folders holding the CUDA runtime and cuBLAS, after the
# system's own library folders, so that a library the machine has wins.
# Makes /work/main point at this checkout when the build's absolute paths
# need it.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p /opt/bhost-libs
tar -C /opt/bhost-libs --strip-components=1 -xJf .gpu-carry/libs.tar.xz
{
  for lib in libcudart.so.13 libcublas.so.13 libcudart.so.12 libcublas.so.12 \
      libcufft.so.12 libcusparse.so.12 libcufft.so.11 libcusparse.so.11 libnvidia-ml.so.1; do
    find / -xdev -name "$lib" -not -path '/proc/*' 2>/dev/null | head -1 | xargs -r dirname
  done
  echo /opt/bhost-libs
} | awk '!seen[$0]++' > /etc/ld.so.conf.d/zz-bhost.conf
ldconfig
echo "library folders added:"; cat /etc/ld.so.conf.d/zz-bhost.conf
src=$(python3 -c 'import json;print(json.load(open("build-gpu/meson-info/meson-info.json"))["directories"]["source"])')
if [ "$src" != "$PWD" ] && [ ! -e "$src" ]; then
  mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"
  echo "linked $src -> $PWD"
fi
