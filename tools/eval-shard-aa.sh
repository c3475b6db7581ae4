#!/usr/bin/env bash
# A/A check of sharding: does a run split into N shards and merged give the
# same verdicts against a baseline as the same config run whole? Per trial:
#   1. baseline:  bhost run CONFIG (also the duration history the shards
#                 balance by)
#   2. whole:     bhost run CONFIG
#   3. sharded:   bhost run CONFIG --shard i/N (i = 1..N), bhost merge
#      (2 and 3 swap order every other trial, so drift favours neither)
#   4. bhost compare BASE WHOLE and bhost compare BASE MERGED (the config's
#      regression: thresholds), verdicts compared per case and metric.
# Prints per trial the verdict counts of both comparisons and every
# case/metric whose verdict differs, then "verdicts equal: K of T trials".
# Nothing changed between the runs: any regressed/improved verdict is a
# false alarm of that arm, and on a busy machine both arms have some.
# Exit 0 when every trial was equal, 1 when not, 2 on an error.
#
#   tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--build DIR]
#                                 [--keep DIR] [-- extra bhost run arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
shards=4
trials=1
keep=
config=
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "eval-shard-aa: unknown option $1" >&2; exit 2 ;;
    *) config=$1; shift ;;
  esac
done
[ -n "$config" ] || { echo "usage: tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--build DIR] [--keep DIR] [-- ARGS]" >&2; exit 2; }
bhost="$build/host/cli/bhost"
[ -x "$bhost" ] || { echo "eval-shard-aa: $bhost not built" >&2; exit 2; }
if [ -n "$keep" ]; then dir=$keep; mkdir -p "$dir"; else dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi

# One revision for every run: a commit landing in the work tree meanwhile
# would make bhost merge refuse the shards (they record run.git.commit).
if [ -z "${BHOST_GIT_COMMIT:-}" ] && commit=$(git rev-parse HEAD 2>/dev/null); then
  export BHOST_GIT_COMMIT=$commit
  BHOST_GIT_BRANCH=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || true)
  export BHOST_GIT_BRANCH
fi

run() { # out-file, args...
  local out=$1; shift
  local t0=$SECONDS rc=0
  "$bhost" run "$config" --quiet --results-dir "$dir/results-$t" "${extra[@]}" "$@" \
    --out "$out" 2>"$out.log" || rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then echo "eval-shard-aa: run $out exited $rc" >&2; exit 2; fi
  echo "  $(basename "$out" .json): $((SECONDS - t0)) s"
}
whole() { run "$dir/t$t-whole.json"; }
sharded() {
  local files=()
  for i in $(seq 1 "$shards"); do
    run "$dir/t$t-shard-$i.json" --shard "$i/$shards"
    files+=("$dir/t$t-shard-$i.json")
  done
  "$bhost" merge "$dir/t$t-merged.json" "${files[@]}" --quiet
}

equal=0
for t in $(seq 1 "$trials"); do
  echo "trial $t"
  run "$dir/t$t-base.json"
  name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["config"]["name"])' \
         "$dir/t$t-base.json")
  mkdir -p "$dir/results-$t/$name"
  cp "$dir/t$t-base.json" "$dir/results-$t/$name/"  # the history shards balance by
  if [ $((t % 2)) -eq 1 ]; then whole; sharded; else sharded; whole; fi
  for cand in whole merged; do
    rc=0
    "$bhost" compare "$dir/t$t-base.json" "$dir/t$t-$cand.json" --config "$config" --json \
      > "$dir/t$t-cmp-$cand.json" || rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then echo "eval-shard-aa: compare exited $rc" >&2; exit 2; fi
  done
  if python3 - "$dir/t$t-cmp-whole.json" "$dir/t$t-cmp-merged.json" "$dir/t$t-merged.json" <<'PY'
import collections, json, sys

def verdicts(path):
    out = {}
    for c in json.load(open(path))["cases"]:
        for it in c["metrics"]:
            out[(c["id"], it["metric"])] = it
    return out

w, m = verdicts(sys.argv[1]), verdicts(sys.argv[2])
run = json.load(open(sys.argv[3]))["run"]
print("  shards (%s): %s" % (
    json.load(open(sys.argv[3].replace("merged", "shard-1")))["run"]["shard"]["balanced_by"],
    ", ".join("%d cases %.1f s" % (s["cases"], s["duration_s"]) for s in run["merged"]["shards"])))
for name, v in (("whole ", w), ("merged", m)):
    print("  %s vs base: %s" % (name, dict(sorted(collections.Counter(
        it["verdict"] for it in v.values()).items()))))
diff = [k for k in sorted(set(w) | set(m))
        if (w.get(k) or {}).get("verdict") != (m.get(k) or {}).get("verdict")]
for k in diff:
    a, b = w.get(k) or {}, m.get(k) or {}
    print("    differs: %s [%s]: whole %s (%+.1f%%), merged %s (%+.1f%%)" % (
        k[0], k[1], a.get("verdict"), 100 * (a.get("change") or 0), b.get("verdict"),
        100 * (b.get("change") or 0)))
print("  verdicts equal: %s (%d of %d)" % ("yes" if not diff else "no",
                                           len(set(w) | set(m)) - len(diff), len(set(w) | set(m))))
sys.exit(1 if diff else 0)
PY
  then equal=$((equal + 1)); fi
done
echo "verdicts equal: $equal of $trials trials"
[ "$equal" -eq "$trials" ]
