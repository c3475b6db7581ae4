#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages bhost needs (when missing), then configures
# and builds it in ./build. Safe to run again: it only does what is missing.
#   tools/setup.sh            install + build (release-like debugoptimized)
#   BUILD_DIR=b tools/setup.sh   another build directory
#   MESON_ARGS="-Db_sanitize=address,undefined" tools/setup.sh
#   EXTRA_PACKAGES="clang valgrind" tools/setup.sh   more Debian packages
set -euo pipefail

cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

packages=(
  build-essential meson ninja-build pkg-config python3 binutils
  libyaml-dev libcjson-dev libhwloc-dev libcmocka-dev libopenblas-dev
  libopenmpi-dev openmpi-bin
  # host/store (SQLite, libpq), host/notify (libcurl); tests/store starts a
  # real PostgreSQL server and reads stores with the sqlite3 and psql CLIs
  libsqlite3-dev sqlite3 libpq-dev libcurl4-openssl-dev postgresql
  # tests/report: the tools that read bhost's exports
  chromium libbenchmark-tools python3-scipy python3-junitparser libxml2-utils
  # plugins/tokenizer: utf8proc, and its exactness test (spm_encode, node,
  # the Debian-packaged corpus text; tools/tokenizer/build_corpus.py)
  libutf8proc-dev sentencepiece nodejs gettext unicode-data bible-kjv
  jargon-text fortunes-min fortunes-zh fortunes-ru fortunes-de fortunes-es
  debian-reference-en debian-reference-zh-cn debian-reference-ja debian-faq
  # plugins/wasm-sim: clang to wasm32, wasm-ld, wasm2c and its runtime source
  clang-14 lld-14 wabt
)
# npm: Debian's package, unless a nodejs that ships its own npm is installed
command -v npm >/dev/null || packages+=(npm)
# shellcheck disable=SC2206
packages+=(${EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson setup "$build_dir" ${MESON_ARGS:-}
fi
ninja -C "$build_dir"
