#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Long fuzzing campaign over the targets of tests/fuzz/run.sh, one process
# at a time at nice 19, in chunks, until every target has GOAL executions
# or the deadline passes.
#
#   tests/fuzz/long.sh [--deadline WHEN] [--chunk SECS] [--goal N] [TARGET...]
#       WHEN: anything `date -d` reads ("16:00 UTC", "2 hours"); default none
#       SECS: seconds per chunk (120); N: executions per target (10000000)
#       TARGET: as in run.sh (host, tokenizer, inference groups); default all
#   tests/fuzz/long.sh --status        totals, exec/s and time left per target
#   FUZZ_BUILD_DIR=DIR                 build folder (build-fuzz)
#
# Each chunk fuzzes the target with the fewest executions so far (among
# those below GOAL and not stopped) from its growing corpus
# ($build/fuzz-corpus/<target>/, as run.sh) and appends one line
# "target execs secs rc" to the ledger $build/long/ledger.txt (secs: time
# it ran, pauses excluded; rc: the fuzzer's exit status, 72 when long.sh
# stopped it). Lines starting with '#' are notes.
#
# A crash, leak, timeout or out-of-memory (rc other than 0 and 72) stops
# that target: its input stays in $build/fuzz-artifacts/, the log is kept as
# $build/long/<target>-<time>.log and a note names both. A timeout in a
# chunk that was paused is checked first by rerunning its input: when that
# passes, it was the pause, and the target goes on. After fixing a crash,
# append "<target> 0 0 0" to the ledger to resume that target.
#
# While /tmp/bhost-quiet exists (someone measures), the running fuzzer is
# stopped (SIGSTOP) and continued when the file is gone; checked each second.
# Only one long.sh runs per build folder ($build/long/lock).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/fuzz/common.sh

quiet=${FUZZ_QUIET_FILE:-/tmp/bhost-quiet}  # another file for tests of the pause
deadline=0
chunk=120
goal=10000000
status_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --deadline) deadline=$(date -d "$2" +%s); shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --goal) goal=$2; shift 2 ;;
    --status) status_only=1; shift ;;
    -*) echo "long.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
fuzz_expand_targets "$@"
mkdir -p "$build/long"
ledger=$build/long/ledger.txt
touch "$ledger"

# Prints "execs secs rc" of target t: the sums over its ledger lines and
# the rc of its last one.
totals() {
  awk -v t="$1" '$1 == t && NF == 4 { e += $2; s += $3; rc = $4 }
                 END { printf "%d %d %d\n", e, s, rc }' "$ledger"
}

# Prints one line per target: executions, seconds, exec/s, the seconds
# still needed for GOAL at that rate, and whether it is stopped.
print_status() {
  local t e s rc
  printf '%-22s %12s %8s %8s %10s\n' target execs secs exec/s to-goal
  for t in "${targets[@]}"; do
    read -r e s rc < <(totals "$t")
    awk -v t="$t" -v e="$e" -v s="$s" -v rc="$rc" -v g="$goal" 'BEGIN {
      r = s > 0 ? e / s : 0
      left = e >= g ? "done" : (r > 0 ? sprintf("%ds", (g - e) / r) : "?")
      if (rc != 0 && rc != 72) left = left " STOPPED(rc " rc ")"
      printf "%-22s %12d %8d %8d %10s\n", t, e, s, r, left }'
  done
}

if [ "$status_only" = 1 ]; then
  print_status
  exit 0
fi

exec 9>"$build/long/lock"
if ! flock -n 9; then
  echo "long.sh: another long.sh runs on $build" >&2
  exit 1
fi
stopping=0
# Waits while $quiet exists (or until long.sh is stopped).
wait_quiet() {
  while [ -e "$quiet" ] && [ "$stopping" = 0 ]; do
    sleep 1
  done
}

renice -n 19 $$ >/dev/null
wait_quiet
fuzz_build "${targets[@]}"
ledger=$build/long/ledger.txt

# The target to fuzz next: the fewest executions among those below goal and
# not stopped; nothing when none is left.
next_target() {
  local t e s rc best="" best_e=0
  for t in "${targets[@]}"; do
    read -r e s rc < <(totals "$t")
    if [ "$e" -ge "$goal" ] || { [ "$rc" != 0 ] && [ "$rc" != 72 ]; }; then
      continue
    fi
    if [ -z "$best" ] || [ "$e" -lt "$best_e" ]; then
      best=$t
      best_e=$e
    fi
  done
  echo "$best"
}

child=0
# Forwards a stop of long.sh to the running fuzzer (which then prints its
# statistics and exits 72) and ends after this chunk.
on_stop() {
  stopping=1
  if [ "$child" != 0 ]; then
    kill -CONT "$child" 2>/dev/null || true
    kill -INT "$child" 2>/dev/null || true
  fi
}
trap on_stop INT TERM HUP

# Runs target t for secs seconds of running time, pausing it while $quiet
# exists (libFuzzer's own limit counts wall time: it is only a backstop
# here, so a pause does not cut the chunk short). Sets rc, ran (seconds
# not paused) and paused (1 when it was paused).
run_chunk() {
  local t=$1 secs=$2 log=$3 start now stopped_at=0 stopped_for=0 ended=0
  fuzz_corpus_dirs "$t"
  fuzz_args "$t" $((secs + 3600))
  start=$(date +%s)
  (cd "$build/long" && exec nice -n 19 "$build/tests/fuzz/fuzz_${t//-/_}" \
     "${args[@]}" "${dirs[@]}") >"$log" 2>&1 &
  child=$!
  paused=0
  while kill -0 "$child" 2>/dev/null; do
    now=$(date +%s)
    if [ -e "$quiet" ] && [ "$stopped_at" = 0 ] && [ "$stopping" = 0 ]; then
      kill -STOP "$child" 2>/dev/null || true
      stopped_at=$now
      paused=1
    elif { [ ! -e "$quiet" ] || [ "$stopping" = 1 ]; } && [ "$stopped_at" != 0 ]; then
      kill -CONT "$child" 2>/dev/null || true
      stopped_for=$((stopped_for + now - stopped_at))
      stopped_at=0
    elif [ "$stopped_at" = 0 ] && [ "$ended" = 0 ] &&
         { [ $((now - start - stopped_for)) -ge "$secs" ] ||
           { [ "$deadline" != 0 ] && [ "$now" -ge "$deadline" ]; }; }; then
      kill -INT "$child" 2>/dev/null || true  # prints its stats, exits 72
      ended=1
    fi
    sleep 1
  done
  if wait "$child"; then rc=0; else rc=$?; fi
  [ "$ended" = 1 ] && [ "$rc" = 72 ] && rc=0
  child=0
  now=$(date +%s)
  [ "$stopped_at" != 0 ] && stopped_for=$((stopped_for + now - stopped_at))
  ran=$((now - start - stopped_for))
}

# True when the log of a paused chunk reports a timeout whose input passes
# when run again: the pause, not the input, took the time.
spurious_timeout() {
  local t=$1 log=$2 input
  grep -q 'ERROR: libFuzzer: timeout' "$log" || return 1
  input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
  [ -n "$input" ] && [ -f "$input" ] || return 1
  wait_quiet
  if nice -n 19 "$build/tests/fuzz/fuzz_${t//-/_}" -timeout=20 -rss_limit_mb=4096 \
       "$input" >"$log.recheck" 2>&1; then
    rm -f "$input" "$log.recheck"
    return 0
  fi
  return 1
}

until=none
[ "$deadline" = 0 ] || until=$(date -u -d "@$deadline" +%FT%TZ)
echo "# long.sh start $(date -u +%FT%TZ) goal $goal chunk ${chunk}s deadline $until" >>"$ledger"
while [ "$stopping" = 0 ]; do
  t=$(next_target)
  if [ -z "$t" ]; then
    echo "# long.sh done $(date -u +%FT%TZ): every target reached $goal or stopped" >>"$ledger"
    break
  fi
  secs=$chunk
  if [ "$deadline" != 0 ]; then
    left=$((deadline - $(date +%s)))
    if [ "$left" -lt 10 ]; then
      echo "# long.sh deadline $(date -u +%FT%TZ)" >>"$ledger"
      break
    fi
    [ "$left" -lt "$secs" ] && secs=$left
  fi
  wait_quiet
  [ "$stopping" = 0 ] || break
  log=$build/long/$t.log
  run_chunk "$t" "$secs" "$log"
  execs=$(fuzz_execs "$log")
  if [ "$rc" != 0 ] && [ "$rc" != 72 ] && [ "$paused" = 1 ] &&
     spurious_timeout "$t" "$log"; then
    echo "# $t: timeout after a pause did not reproduce; going on" >>"$ledger"
    rc=72
  fi
  echo "$t $execs $ran $rc" >>"$ledger"
  if [ "$rc" != 0 ] && [ "$rc" != 72 ]; then
    keep=$build/long/$t-$(date -u +%Y%m%dT%H%M%S).log
    cp "$log" "$keep"
    echo "# $t STOPPED rc $rc: $(grep -m1 -E 'ERROR|SUMMARY|runtime error' "$log" || true);" \
         "input: $(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1);" \
         "log: $keep" >>"$ledger"
  fi
done
print_status
