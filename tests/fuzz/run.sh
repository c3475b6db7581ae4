#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz (clang with
# -fsanitize=fuzzer,address,undefined) and runs each for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default: 20 s, every target
#   FUZZ_JOBS=N tests/fuzz/run.sh 600 config    N parallel fuzzing processes
#
# Targets: config (YAML config loader), result (strict result reader), ipc
# (worker pipe protocol decoder + outcome classification), job (worker job
# parser). Each run starts from the committed seeds in
# tests/fuzz/corpus/<target>/ plus what earlier runs found
# (build-fuzz/fuzz-corpus/<target>/); a crash leaves its input in
# build-fuzz/fuzz-artifacts/ and makes the script exit non-zero. The
# executions of each target are printed as "fuzz <target>: N executions".
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config result ipc job)
build=${FUZZ_BUILD_DIR:-build-fuzz}
jobs=${FUZZ_JOBS:-1}

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
fi
# shellcheck disable=SC2046
if ! out=$(ninja -C "$build" $(printf 'tests/fuzz/fuzz_%s ' "${targets[@]}") 2>&1); then
  echo "$out" >&2
  exit 1
fi
root=$(pwd)
build=$(cd "$build" && pwd)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts"
  log="$build/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  rm -f "$log" "$build"/fuzz-logs/fuzz-*.log
  case $t in
    job) max_len=4096 ;;      # jobs are a few hundred bytes
    ipc|config) max_len=16384 ;;
    *) max_len=65536 ;;       # a result of a few dozen cases
  esac
  args=(-max_total_time="$secs" -print_final_stats=1 -max_len="$max_len"
        -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$artifacts/$t-")
  if [ "$jobs" -gt 1 ]; then
    # -fork keeps going after a crash; -ignore_crashes=0 stops at the first
    args+=(-fork="$jobs" -ignore_crashes=0)
  fi
  # -fork writes per-job logs into the working directory: keep them there
  if (cd "$build/fuzz-logs" && "$build/tests/fuzz/fuzz_$t" "${args[@]}" \
        "$corpus" "$root/tests/fuzz/corpus/$t") >"$log" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  # one process: stat::number_of_executed_units; -fork: the last "#N" line
  execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}')
  if [ "$execs" = 0 ]; then
    execs=$(grep -ho '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  echo "fuzz $t: ${execs:-0} executions in ${secs}s (rc $rc)"
  if [ "$rc" -ne 0 ]; then
    status=1
    tail -n 60 "$log" >&2
  fi
done
exit $status
