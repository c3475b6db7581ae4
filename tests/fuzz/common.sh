# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# common.sh -- sourced by tests/fuzz/run.sh and tests/fuzz/long.sh: the
# fuzz targets, their build in $build (clang, -fsanitize=fuzzer,address,
# undefined), their seeds, input limits, corpus folders and libFuzzer
# options. Expects to run in the repository root; sets root and build.

host_targets=(config result ipc job)
tok_targets=(tokenizer-tiktoken tokenizer-gpt2 tokenizer-hfjson
             tokenizer-vocabtxt tokenizer-spm tokenizer-encode)
inf_targets=(inference-safetensors inference-gguf)
sci_targets=(scientific-mm)
imp_targets=(import-gbench import-pyperf import-hyperfine import-criterion import-asv)

# Sets targets=() to the targets named by the words of "$@" (group names
# host, tokenizer, inference, scientific, import expand; nothing means
# every target).
fuzz_expand_targets() {
  targets=()
  local a t
  for a in "${@:-host tokenizer inference scientific import}"; do
    for t in $a; do
      case $t in
        host) targets+=("${host_targets[@]}") ;;
        tokenizer) targets+=("${tok_targets[@]}") ;;
        inference) targets+=("${inf_targets[@]}") ;;
        scientific) targets+=("${sci_targets[@]}") ;;
        import) targets+=("${imp_targets[@]}") ;;
        *) targets+=("$t") ;;
      esac
    done
  done
}

# Configures $build when needed and builds the fuzzers of "$@" (target
# names); makes build absolute. Returns non-zero with the build log on
# stderr when that fails.
fuzz_build() {
  if ! command -v clang >/dev/null; then
    echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
    return 1
  fi
  if [ ! -f "$build/build.ninja" ]; then
    CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Dtests=disabled \
      -Db_sanitize=address,undefined -Db_lundef=false \
      -Dc_args=-fsanitize=fuzzer-no-link -Dcuda=disabled -Dhip=disabled \
      -Dlevel_zero=disabled >/dev/null
  fi
  local t out ninja_targets=()
  for t in "$@"; do
    ninja_targets+=("tests/fuzz/fuzz_${t//-/_}")
  done
  case " $*" in
    *" inference-"*) ninja_targets+=(tests/fuzz/fuzz_inference_gen_seeds) ;;
  esac
  if ! out=$(ninja -C "$build" ${FUZZ_NINJA_JOBS:+-j "$FUZZ_NINJA_JOBS"} \
               "${ninja_targets[@]}" 2>&1); then
    echo "$out" >&2
    return 1
  fi
  build=$(cd "$build" && pwd)
}

# Writes the generated seeds of target t into $build/fuzz-seeds/t/.
make_seeds() {
  local t=$1 dir=$build/fuzz-seeds/$1
  local cache=${BHOST_TOKENIZER_CACHE:-$HOME/.cache/bhost/tokenizer}
  rm -rf "$dir"
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
    # tokenizer-spm: small valid models (tokenizer/shrink_spm.py of the
    # cached BPE and unigram models) are in its committed corpus
    tokenizer-encode) printf 'Hello, world! \xe4\xb8\xad \xff' >"$dir/a"
      [ -f "$cache/corpus/lines.txt" ] && head -c 1000 "$cache/corpus/lines.txt" >"$dir/lines" ;;
    inference-safetensors|inference-gguf)
      mkdir -p "$build/fuzz-seeds/inference-safetensors" "$build/fuzz-seeds/inference-gguf"
      "$build/tests/fuzz/fuzz_inference_gen_seeds" \
        "$build/fuzz-seeds/inference-safetensors" "$build/fuzz-seeds/inference-gguf" ;;
  esac
  true
}

# The longest input of target t. Each input costs time in proportion to
# its size (the tokenizer loaders also encode and decode with what they
# loaded), and every path is reached by inputs far below these: larger
# limits only slow a target down.
max_len() {
  case $1 in
    job) echo 4096 ;;                # jobs are a few hundred bytes
    tokenizer-encode) echo 1024 ;;   # = FUZZ_TEXT_MAX; pieces > SMALL_PIECE
    ipc|config|tokenizer-*|scientific-mm) echo 16384 ;;  # spm seeds < 8 KiB
    *) echo 65536 ;;                 # a result of a few dozen cases, a model
  esac
}

# Sets dirs=() to the corpus folders of target t, the one that receives new
# inputs first, after writing t's generated seeds.
fuzz_corpus_dirs() {
  local t=$1
  dirs=("$build/fuzz-corpus/$t")
  make_seeds "$t"
  [ -d "$build/fuzz-seeds/$t" ] && dirs+=("$build/fuzz-seeds/$t")
  [ -d "$root/tests/fuzz/corpus/$t" ] && dirs+=("$root/tests/fuzz/corpus/$t")
  mkdir -p "$build/fuzz-corpus/$t" "$build/fuzz-artifacts"
}

# Sets args=() to the libFuzzer options of target t for secs seconds.
fuzz_args() {
  # shellcheck disable=SC2034  # read by the caller
  args=(-max_total_time="$2" -print_final_stats=1 -max_len="$(max_len "$1")"
        -timeout=20 -rss_limit_mb=4096 -artifact_prefix="$build/fuzz-artifacts/$1-")
}

# The executions a libFuzzer log reports: stat::number_of_executed_units of
# each process, else the last "#N" status line (-fork, or a hard kill).
fuzz_execs() {
  local n
  n=$(grep -h 'stat::number_of_executed_units' "$1" | awk '{s+=$2} END {print s+0}')
  if [ "$n" = 0 ]; then
    n=$(grep -ho '^#[0-9]*' "$1" | tail -1 | tr -d '#' || true)
  fi
  echo "${n:-0}"
}

root=$(pwd)
build=${FUZZ_BUILD_DIR:-build-fuzz}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
