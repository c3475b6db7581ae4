# SPDX-License-Identifier: MIT
# Helpers of the --notify tests (sourced by test_*.sh after
# ../store/lib.sh): skipping without libcurl, loopback servers, and one
# baseline and one 4x slower candidate result to compare.

if [ "${HAVE_LIBCURL:-1}" != 1 ]; then
  echo "SKIP: this bhost was built without libcurl"
  exit 77
fi

# serve NAME SCRIPT ARGS...: starts the python3 server SCRIPT, which
# writes its port to $T/NAME.port; the port in $port. Stopped on exit.
serve() {
  local name=$1 pid
  shift
  python3 "$@" &
  pid=$!
  cleanup_hooks+=("kill $pid 2>/dev/null; wait $pid 2>/dev/null")
  for _ in $(seq 100); do [ -s "$T/$name.port" ] && break; sleep 0.1; done
  [ -s "$T/$name.port" ] || fail "the $name server did not start"
  port=$(cat "$T/$name.port")
}

# closed_port: a loopback port nothing listens on.
closed_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# bhn ARGS...: bh, with stdout and stderr kept in $T/transcript so that a
# test can check at the end that no secret was ever printed.
bhn() {
  bh "$@"
  printf '%s\n%s\n' "$out" "$err" >>"$T/transcript"
}

# make_results: $T/base.json and $T/slow.json (spin 10x slower: one
# critical regression; noop unchanged) with the configs they ran. The pair
# is measured again (up to 3 times) when a load spike on this shared
# machine hid the critical regression; $plain_code is compare's exit code
# with --fail-on-regression and no --notify (5).
make_results() {
  export RUNS=6 REGRESSION="{noise_floor: 50%, warning: 60%, critical: 100%}"
  write_config "$T/base.yaml"
  write_config "$T/slow.yaml" 900
  for _ in 1 2 3; do
    bh run "$T/base.yaml" --out "$T/base.json" --quiet --no-store
    [ "$code" -eq 0 ] || fail "baseline run: exit $code: $err"
    bh run "$T/slow.yaml" --out "$T/slow.json" --quiet --no-store
    [ "$code" -eq 0 ] || fail "slow run: exit $code: $err"
    regressed --fail-on-regression
    plain_code=$code
    [ "$plain_code" -eq 5 ] && break
  done
}

# regressed ARGS...: bhn compare of the slow result against the baseline.
regressed() {
  bhn compare "$T/base.json" "$T/slow.json" --ignore-param slowdown_pct --config "$T/slow.yaml" \
    --quiet "$@"
}

# improved ARGS...: the other way round: spin got 4x faster, nothing
# regressed.
improved() {
  bhn compare "$T/slow.json" "$T/base.json" --ignore-param slowdown_pct --config "$T/slow.yaml" \
    --quiet "$@"
}

# warnings: how many lines of $err are --notify warnings.
warnings() { printf '%s\n' "$err" | grep -c 'warning: --notify' || true; }

SPIN='selftest/spin[work=2000,slowdown_pct=900]'
