#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz (clang with
# -fsanitize=fuzzer,address,undefined; the host modules and the plugins'
# core libraries instrumented for coverage) and runs each for a bounded
# time.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default: 20 s, every target
#   FUZZ_JOBS=N tests/fuzz/run.sh 600 config    N parallel fuzzing processes
#   FUZZ_BUILD_DIR=DIR                          build folder (build-fuzz)
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
#   host, tokenizer, inference stand for their group.
#
# Each run starts from the committed corpus tests/fuzz/corpus/<target>/,
# generated seeds (tokenizer, inference) and what earlier runs found
# (build-fuzz/fuzz-corpus/<target>/, which receives the new inputs). A
# crash leaves its input in build-fuzz/fuzz-artifacts/ and makes the script
# exit non-zero. Prints "fuzz <target>: N executions in S s (rc R)".
set -euo pipefail
cd "$(dirname "$0")/../.."

host_targets=(config result ipc job)
tok_targets=(tokenizer-tiktoken tokenizer-gpt2 tokenizer-hfjson
             tokenizer-vocabtxt tokenizer-spm tokenizer-encode)
inf_targets=(inference-safetensors inference-gguf)

secs=${1:-20}
shift || true
targets=()
for a in "${@:-host tokenizer inference}"; do
  for t in $a; do
    case $t in
      host) targets+=("${host_targets[@]}") ;;
      tokenizer) targets+=("${tok_targets[@]}") ;;
      inference) targets+=("${inf_targets[@]}") ;;
      *) targets+=("$t") ;;
    esac
  done
done
build=${FUZZ_BUILD_DIR:-build-fuzz}

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dcuda=disabled -Dhip=disabled \
    -Dlevel_zero=disabled >/dev/null
fi
ninja_targets=()
for t in "${targets[@]}"; do
  ninja_targets+=("tests/fuzz/fuzz_${t//-/_}")
done
case " ${targets[*]}" in
  *" inference-"*) ninja_targets+=(tests/fuzz/fuzz_inference_gen_seeds) ;;
esac
if ! out=$(ninja -C "$build" ${FUZZ_NINJA_JOBS:+-j "$FUZZ_NINJA_JOBS"} \
             "${ninja_targets[@]}" 2>&1); then
  echo "$out" >&2
  exit 1
fi
root=$(pwd)
build=$(cd "$build" && pwd)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# Writes the generated seeds of target t into $build/fuzz-seeds/t/.
make_seeds() {
  local t=$1 dir=$build/fuzz-seeds/$1
  local cache=${BHOST_TOKENIZER_CACHE:-$HOME/.cache/bhost/tokenizer}
  mkdir -p "$dir"
  case $t in
    tokenizer-tiktoken) printf 'QQ== 0\nQg== 1\nIGE= 2\n' >"$dir/a"
      [ -f "$cache/vocab/r50k_base.tiktoken" ] &&
        head -c 4000 "$cache/vocab/r50k_base.tiktoken" >"$dir/r50k" ;;
    tokenizer-vocabtxt) printf '[PAD]\n[UNK]\n[CLS]\nhello\n##s\n' >"$dir/a"
      [ -f "$cache/vocab/bert-base-uncased-vocab.txt" ] &&
        head -c 4000 "$cache/vocab/bert-base-uncased-vocab.txt" >"$dir/bert" ;;
    tokenizer-gpt2) printf '{"a": 0, "b": 1, "ab": 2}\0#version: 0.2\na b\n' >"$dir/a" ;;
    tokenizer-hfjson) printf '%s' '{"model":{"type":"WordPiece","vocab":{"[UNK]":0,"a":1}},"normalizer":{"type":"BertNormalizer"},"pre_tokenizer":{"type":"BertPreTokenizer"}}' >"$dir/a" ;;
    tokenizer-spm)
      [ -f "$cache/vocab/spm-bpe-8k.model" ] && cp "$cache/vocab/spm-bpe-8k.model" "$dir/bpe"
      [ -f "$cache/vocab/spm-unigram-8k.model" ] &&
        head -c 60000 "$cache/vocab/spm-unigram-8k.model" >"$dir/uni-trunc" ;;
    tokenizer-encode) printf 'Hello, world! \xe4\xb8\xad \xff' >"$dir/a"
      [ -f "$cache/corpus/lines.txt" ] && head -c 3000 "$cache/corpus/lines.txt" >"$dir/lines" ;;
    inference-safetensors|inference-gguf)
      mkdir -p "$build/fuzz-seeds/inference-safetensors" "$build/fuzz-seeds/inference-gguf"
      "$build/tests/fuzz/fuzz_inference_gen_seeds" \
        "$build/fuzz-seeds/inference-safetensors" "$build/fuzz-seeds/inference-gguf" ;;
  esac
  true
}

# The longest input of target t.
max_len() {
  case $1 in
    job) echo 4096 ;;                # jobs are a few hundred bytes
    ipc|config|tokenizer-encode) echo 16384 ;;
    tokenizer-spm) echo 200000 ;;    # a small SentencePiece model: ~100 KiB
    *) echo 65536 ;;                 # a result of a few dozen cases, a model
  esac
}

status=0
for t in "${targets[@]}"; do
  corpus=$build/fuzz-corpus/$t
  log=$build/fuzz-logs/$t.log
  dirs=("$corpus")
  make_seeds "$t"
  [ -d "$build/fuzz-seeds/$t" ] && dirs+=("$build/fuzz-seeds/$t")
  [ -d "$root/tests/fuzz/corpus/$t" ] && dirs+=("$root/tests/fuzz/corpus/$t")
  mkdir -p "$corpus" "$build/fuzz-artifacts" "$(dirname "$log")"
  rm -f "$log" "$build"/fuzz-logs/fuzz-*.log
  args=(-max_total_time="$secs" -print_final_stats=1 -max_len="$(max_len "$t")"
        -timeout=20 -rss_limit_mb=4096 -artifact_prefix="$build/fuzz-artifacts/$t-")
  if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
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
  # one process: stat::number_of_executed_units; -fork: the last "#N" line
  execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}')
  if [ "$execs" = 0 ]; then
    execs=$(grep -ho '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
  fi
  echo "fuzz $t: ${execs:-0} executions in ${secs}s (rc $rc)"
  if [ "$rc" -ne 0 ]; then
    status=1
    tail -n 60 "$log" >&2
  fi
done
exit $status
