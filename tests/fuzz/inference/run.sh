#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the inference engine's weight-file loaders (safetensors, GGUF):
# the inference targets of tests/fuzz/run.sh (see there), each for SECONDS
# (default 60), from seeds gen_seeds.c writes (a valid micro model of every
# architecture in both formats).
#   tests/fuzz/inference/run.sh [SECONDS] [TARGET...]   e.g. 600 gguf
set -euo pipefail
here=$(dirname "$0")
secs=${1:-60}
shift || true
targets=()
for t in "${@:-safetensors gguf}"; do
  for n in $t; do targets+=("inference-$n"); done
done
exec "$here/../run.sh" "$secs" "${targets[@]}"
