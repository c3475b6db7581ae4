#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the tokenizer's loaders and encoders: the tokenizer targets of
# tests/fuzz/run.sh (see there), each for SECONDS (default 60).
#   tests/fuzz/tokenizer/run.sh [SECONDS] [TARGET...]   e.g. 600 spm encode
set -euo pipefail
here=$(dirname "$0")
secs=${1:-60}
shift || true
targets=()
for t in "${@:-tiktoken gpt2 hfjson vocabtxt spm encode}"; do
  for n in $t; do targets+=("tokenizer-$n"); done
done
exec "$here/../run.sh" "$secs" "${targets[@]}"
