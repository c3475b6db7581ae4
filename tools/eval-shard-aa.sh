#!/usr/bin/env bash
# A/A check of sharding: does a run split into N shards and merged get the
# same verdicts against a baseline as the same config run whole? Per trial:
#   1. baseline:  bhost run CONFIG (also the duration history the shards
#                 balance by)
#   2. whole:     bhost run CONFIG --baseline BASE --fail-on-regression
#   3. sharded:   bhost run CONFIG --shard i/N --baseline BASE
#                 --fail-on-regression (i = 1..N), then bhost merge
#      (2 and 3 swap order every other trial, so drift favours neither)
#   4. the run-time gates compared: each case's final verdict per metric
#      (after the confirmation reruns of suspects) in the whole result and
#      in the merged one, and the exit codes of `bhost run` and `bhost
#      merge` (0, 1 a failed case, 5 a critical regression).
# With --offline (the old check), 2 and 3 run without --baseline and the
# verdicts are those of `bhost compare BASE WHOLE` and `bhost compare BASE
# MERGED` (no confirmation reruns).
# Prints per trial the verdict counts of both arms, every case/metric whose
# verdict differs (with the first verdict and the confirmation's), then
# "verdicts equal: K of T trials" and the false alarms of each arm.
# Nothing changed between the runs: any regressed or improved verdict is a
# false alarm of that arm. Exit 0 when every trial was equal, 1 when not,
# 2 on an error.
#
#   tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--first K]
#                                 [--offline] [--build DIR] [--keep DIR]
#                                 [-- extra bhost run arguments]
#
# --first K numbers the trials from K (to split trials over several calls:
# the order of the arms alternates with the trial number).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
shards=4
trials=1
first=1
offline=0
keep=
config=
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --offline) offline=1; shift ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "eval-shard-aa: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) config=$1; shift ;;
  esac
done
[ -n "$config" ] || { echo "usage: tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--first K] [--offline] [--build DIR] [--keep DIR] [-- ARGS]" >&2; exit 2; }
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

gate=()
run() { # out-file, args...; the exit code goes to $out.rc
  local out=$1; shift
  local t0=$SECONDS rc=0
  "$bhost" run "$config" --quiet --no-store --results-dir "$dir/results-$t" "${extra[@]}" \
    "$@" --out "$out" 2>"$out.log" || rc=$?
  case $rc in
    0|1|5) ;;
    *) echo "eval-shard-aa: run $out exited $rc (see $out.log)" >&2; exit 2 ;;
  esac
  echo "$rc" > "$out.rc"
  echo "  $(basename "$out" .json): $((SECONDS - t0)) s, exit $rc"
}
whole() { run "$dir/t$t-whole.json" "${gate[@]}"; }
sharded() {
  local files=() rc=0
  for i in $(seq 1 "$shards"); do
    run "$dir/t$t-shard-$i.json" --shard "$i/$shards" "${gate[@]}"
    files+=("$dir/t$t-shard-$i.json")
  done
  "$bhost" merge "$dir/t$t-merged.json" "${files[@]}" --quiet || rc=$?
  case $rc in
    0|1|5) ;;
    *) echo "eval-shard-aa: bhost merge exited $rc" >&2; exit 2 ;;
  esac
  echo "$rc" > "$dir/t$t-merged.json.rc"
}

equal=0
for t in $(seq "$first" $((first + trials - 1))); do
  echo "trial $t"
  run "$dir/t$t-base.json"
  name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["config"]["name"])' \
         "$dir/t$t-base.json")
  mkdir -p "$dir/results-$t/$name"
  cp "$dir/t$t-base.json" "$dir/results-$t/$name/"  # the history shards balance by
  if [ "$offline" -eq 0 ]; then gate=(--baseline "$dir/t$t-base.json" --fail-on-regression); fi
  if [ $((t % 2)) -eq 1 ]; then whole; sharded; else sharded; whole; fi
  if [ "$offline" -eq 1 ]; then
    for cand in whole merged; do
      rc=0
      "$bhost" compare "$dir/t$t-base.json" "$dir/t$t-$cand.json" --config "$config" --json \
        > "$dir/t$t-cmp-$cand.json" || rc=$?
      if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then echo "eval-shard-aa: compare exited $rc" >&2; exit 2; fi
    done
  fi
  if python3 - "$dir" "$t" "$offline" <<'PY'
import collections, json, sys

d, t, offline = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
path = lambda name: "%s/t%s-%s.json" % (d, t, name)

def verdicts(arm):
    """(case id, metric) -> metric verdict object of the arm."""
    out = {}
    if offline:
        for c in json.load(open(path("cmp-" + arm)))["cases"]:
            for it in c["metrics"]:
                out[(c["id"], it["metric"])] = it
    else:
        for c in json.load(open(path(arm)))["cases"]:
            for it in (c.get("verdict") or {}).get("metrics", []):
                out[(c["id"], it["metric"])] = it
    return out

def show(it):
    """'regressed (+3.1%)', or 'improved, first regressed (+3.1%), rerun -0.2%'."""
    if not it:
        return "none"
    s = it["verdict"] + (" " + it["severity"] if it.get("severity") else "")
    conf = it.get("confirmation") or {}
    if it.get("initial_verdict") and conf:
        s += ", first %s (%+.1f%%)" % (it["initial_verdict"], 100 * (it.get("change") or 0))
        s += ", rerun %s" % ("%+.1f%%" % (100 * conf["change"]) if conf.get("change") is not None
                             else conf.get("error", "?"))
    else:
        s += " (%+.1f%%)" % (100 * (it.get("change") or 0))
    return s

w, m = verdicts("whole"), verdicts("merged")
run = json.load(open(path("merged")))["run"]
print("  shards (%s): %s" % (
    json.load(open(path("shard-1")))["run"]["shard"]["balanced_by"],
    ", ".join("%d cases %.1f s" % (s["cases"], s["duration_s"]) for s in run["merged"]["shards"])))
alarms = {}
for name, v in (("whole", w), ("merged", m)):
    print("  %-6s vs base: %s" % (name, dict(sorted(collections.Counter(
        it["verdict"] for it in v.values()).items()))))
    alarms[name] = sum(it["verdict"] in ("regressed", "improved") for it in v.values())
diff = [k for k in sorted(set(w) | set(m))
        if (w.get(k) or {}).get("verdict") != (m.get(k) or {}).get("verdict")]
for k in diff:
    print("    differs: %s [%s]: whole %s; merged %s" % (k[0], k[1], show(w.get(k)),
                                                       show(m.get(k))))
gates = ""
if not offline:
    rw, rm = (open(path(a) + ".rc").read().strip() for a in ("whole", "merged"))
    gates = ", gates %s (whole exit %s, merge exit %s)" % (
        "equal" if rw == rm else "DIFFER", rw, rm)
    if rw != rm:
        diff.append("gate")
print("  verdicts equal: %s (%d of %d)%s" % ("yes" if not diff else "no",
      len(set(w) | set(m)) - len([k for k in diff if k != "gate"]), len(set(w) | set(m)), gates))
print("  false alarms (regressed or improved): whole %d, merged %d" % (alarms["whole"],
                                                                        alarms["merged"]))
with open("%s/alarms.txt" % d, "a") as f:
    f.write("%s %d %d\n" % (t, alarms["whole"], alarms["merged"]))
sys.exit(1 if diff else 0)
PY
  then equal=$((equal + 1)); fi
done
echo "verdicts equal: $equal of $trials trials ($([ "$offline" -eq 1 ] && echo "offline bhost compare" || echo "run-time gates, confirmation on"))"
awk -v f="$first" -v l=$((first + trials - 1)) '$1 >= f && $1 <= l { w += $2; m += $3 }
  END { printf "false alarms over these trials: whole %d, merged %d\n", w, m }' "$dir/alarms.txt"
[ "$equal" -eq "$trials" ]
