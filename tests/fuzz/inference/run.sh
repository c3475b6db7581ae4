#!/usr/bin/env bash
# Builds the libFuzzer targets of the inference plugin's weight-file
# loaders with clang (-fsanitize=fuzzer,address,undefined) straight from
# the sources into build-fuzz-inference/, writes a seed corpus of valid
# micro-model files (every architecture, safetensors and GGUF, F32/F16/
# BF16), and runs each target for a bounded time.
#
#   tests/fuzz/inference/run.sh [SECONDS] [TARGET...]   default: 60 s, both
#   FUZZ_JOBS=N tests/fuzz/inference/run.sh 600 gguf    N parallel processes
#
# Targets: safetensors (ie_st_parse + model mapping), gguf (ie_gguf_parse +
# model mapping). A crash leaves its input in build-fuzz-inference/artifacts/
# and makes the script exit non-zero. Prints "fuzz inference-<target>: N
# executions in S s (rc R)".
set -euo pipefail
cd "$(dirname "$0")/../../.."

secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(safetensors gguf)
out=${FUZZ_INF_DIR:-build-fuzz-inference}
jobs=${FUZZ_JOBS:-1}

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
eng=plugins/inference/engine
srcs=(
  "$eng/ie_config.c" "$eng/ie_dev.c" "$eng/ie_file.c" "$eng/ie_gguf.c"
  "$eng/ie_kern.c" "$eng/ie_kern_portable.c" "$eng/ie_load.c"
  "$eng/ie_model.c" "$eng/ie_pool.c" "$eng/ie_st.c" "$eng/ie_weight.c"
  plugins/inference/tests/tt_backend.c tests/fuzz/inference/fuzz_common.c
)
cflags=(-std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter
        -I"$eng" -Iplugins/inference/tests -Iplugin-api/include)
libs=(-lcjson -lm -lpthread)
mkdir -p "$out"
out=$(cd "$out" && pwd)
clang "${cflags[@]}" -fsanitize=address,undefined -o "$out/gen_seeds" \
  tests/fuzz/inference/gen_seeds.c plugins/inference/tests/tt_files.c \
  "${srcs[@]}" "${libs[@]}"
mkdir -p "$out/seeds/safetensors" "$out/seeds/gguf"
"$out/gen_seeds" "$out/seeds/safetensors" "$out/seeds/gguf"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in "${targets[@]}"; do
  clang "${cflags[@]}" -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -o "$out/fuzz_$t" \
    "tests/fuzz/inference/fuzz_$t.c" "${srcs[@]}" "${libs[@]}"
  corpus="$out/corpus/$t"
  log="$out/logs/$t.log"
  mkdir -p "$corpus" "$out/artifacts" "$out/logs"
  args=(-max_total_time="$secs" -print_final_stats=1 -max_len=65536
        -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$out/artifacts/$t-")
  if [ "$jobs" -gt 1 ]; then
    args+=(-fork="$jobs" -ignore_crashes=0)
  fi
  if (cd "$out/logs" && "$out/fuzz_$t" "${args[@]}" "$corpus" \
        "$out/seeds/$t") >"$log" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}' || true)
  if [ "${execs:-0}" = 0 ]; then
    execs=$(grep -ho '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
  fi
  echo "fuzz inference-$t: ${execs:-0} executions in ${secs}s (rc $rc)"
  if [ "$rc" -ne 0 ]; then
    status=1
    tail -n 60 "$log" >&2
  fi
done
exit $status
