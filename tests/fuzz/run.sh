#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets of tests/fuzz in build-fuzz (clang with
# -fsanitize=fuzzer,address,undefined; the host modules and the plugins'
# core libraries instrumented for coverage) and runs each for a bounded
# time.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default: 20 s, every target
#   FUZZ_JOBS=N tests/fuzz/run.sh 600 config    N parallel fuzzing processes
#   FUZZ_PARALLEL=N tests/fuzz/run.sh 10        N targets at a time (CI: nproc)
#   FUZZ_BUILD_DIR=DIR                          build folder (build-fuzz)
#   tests/fuzz/long.sh                          long campaign (see there)
#
# Targets:
#   config result ipc job      the YAML config loader, the strict result
#                              reader, the worker pipe protocol decoder with
#                              outcome classification, the worker job parser
#   tokenizer-tiktoken tokenizer-gpt2 tokenizer-hfjson tokenizer-vocabtxt
#   tokenizer-spm              the tokenizer's vocabulary/model loaders (a
#                              loaded model then encodes and decodes)
#   tokenizer-encode           the encoders: decode(encode(x)) == x
#   inference-safetensors inference-gguf
#                              the inference engine's weight-file loaders
#                              and model mapping
#   scientific-mm              the scientific plugin's Matrix Market reader
#                              (CSR building and SpMV over what it accepts)
#   import-gbench import-pyperf import-hyperfine import-criterion import-asv
#                              bhost import's readers of other tools'
#                              results (an accepted document must pass the
#                              strict result reader)
#   host, tokenizer, inference, scientific, import stand for their group.
#
# Each run starts from the committed corpus tests/fuzz/corpus/<target>/,
# generated seeds (tokenizer, inference) and what earlier runs found
# (build-fuzz/fuzz-corpus/<target>/, which receives the new inputs). A
# crash leaves its input in build-fuzz/fuzz-artifacts/ and makes the script
# exit non-zero. Prints "fuzz <target>: N executions in S s (rc R)".
set -euo pipefail
cd "$(dirname "$0")/../.."

. tests/fuzz/common.sh

secs=${1:-20}
shift || true
fuzz_expand_targets "$@"
fuzz_build "${targets[@]}"

# Fuzzes target $1 for $secs s; prints its line, and its log's tail on
# failure. Exit status: the fuzzer's.
fuzz_one() {
  local t=$1 log=$build/fuzz-logs/$1.log rc
  fuzz_corpus_dirs "$t"
  fuzz_args "$t" "$secs"
  mkdir -p "$(dirname "$log")"
  rm -f "$log"
  if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
    rm -f "$build"/fuzz-logs/fuzz-*.log
    # -fork keeps going after a crash; -ignore_crashes=0 stops at the first
    args+=(-fork="$FUZZ_JOBS" -ignore_crashes=0)
  fi
  # -fork writes per-job logs into the working directory: keep them there
  if (cd "$build/fuzz-logs" && "$build/tests/fuzz/fuzz_${t//-/_}" "${args[@]}" \
        "${dirs[@]}") >"$log" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  echo "fuzz $t: $(fuzz_execs "$log") executions in ${secs}s (rc $rc)"
  [ "$rc" -eq 0 ] || tail -n 60 "$log" >&2
  return "$rc"
}

# FUZZ_PARALLEL targets at a time (each its own process, corpus, log and
# artifacts); one at a time when FUZZ_JOBS forks several jobs per target,
# whose per-job logs share the log folder.
parallel=${FUZZ_PARALLEL:-1}
[ "${FUZZ_JOBS:-1}" -le 1 ] || parallel=1
status=0
pids=()
for t in "${targets[@]}"; do
  if [ "${#pids[@]}" -ge "$parallel" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
  fuzz_one "$t" &
  pids+=("$!")
done
for p in "${pids[@]}"; do
  wait "$p" || status=1
done
exit $status
