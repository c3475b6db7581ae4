#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
# MERGED` (no confirmation reruns). With --control, 3 is a second whole
# run instead of the shards: the same comparison between two whole runs
# shows how much of the difference is the machine drifting between the
# runs rather than sharding.
# Prints per trial the verdict counts of both arms, every case/metric whose
# verdict differs (with the first verdict and the confirmation's), whether
# the gates are equal (the same regressed cases and severities, the same
# improved cases, the same exit code), and for the merged run the rule
# check: its first verdicts against `bhost compare BASE MERGED` on the same
# samples (the whole run's rule; differences come from the shards' BH
# families alone). Then "verdicts equal: K of T trials", "gates equal"
# and the false alarms of each arm. Nothing changed between the runs: any
# regressed or improved verdict is a false alarm of that arm. Exit 0 when
# every trial's verdicts were equal, 1 when not, 2 on an error.
#
#   tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--first K]
#                                 [--offline | --control] [--build DIR]
#                                 [--history K | --no-drift]
#                                 [--keep DIR] [-- extra bhost run arguments]
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
control=0
history=0
drift=1
keep=
config=
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --offline) offline=1; shift ;;
    --control) control=1; shift ;;
    --history) history=$2; shift 2 ;;
    --no-drift) drift=0; shift ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "eval-shard-aa: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) config=$1; shift ;;
  esac
done
[ -n "$config" ] || { echo "usage: tools/eval-shard-aa.sh CONFIG [--shards N] [--trials T] [--first K] [--offline | --control] [--history K | --no-drift] [--build DIR] [--keep DIR] [-- ARGS]" >&2; exit 2; }
[ $((offline + control)) -lt 2 ] || { echo "eval-shard-aa: --offline and --control exclude each other" >&2; exit 2; }
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

store=(--store "$dir/aa.db")
[ "$drift" -eq 1 ] || store=(--no-store --store "$dir/no-such-store.db")
gate=()
run() { # out-file, args...; the exit code goes to $out.rc
  local out=$1; shift
  local t0=$SECONDS rc=0
  "$bhost" run "$config" --quiet "${store[@]}" --results-dir "$dir/results-$t" "${extra[@]}" \
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
  if [ "$control" -eq 1 ]; then  # the control arm: a second whole run
    run "$dir/t$t-merged.json" "${gate[@]}"
    return
  fi
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

t=history
for h in $(seq 1 "$history"); do
  [ "$h" -eq 1 ] && echo "history: $history plain runs into $dir/aa.db"
  run "$dir/history-$h.json"
done
equal=0
gates_equal=0
for t in $(seq "$first" $((first + trials - 1))); do
  echo "trial $t"
  run "$dir/t$t-base.json"
  name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["config"]["name"])' \
         "$dir/t$t-base.json")
  mkdir -p "$dir/results-$t/$name"
  cp "$dir/t$t-base.json" "$dir/results-$t/$name/"  # the history shards balance by
  if [ "$offline" -eq 0 ]; then gate=(--baseline "$dir/t$t-base.json" --fail-on-regression); fi
  if [ $((t % 2)) -eq 1 ]; then whole; sharded; else sharded; whole; fi
  # offline: the verdicts; else the rule check of the merged run
  for cand in whole merged; do
    [ "$offline" -eq 1 ] || [ "$cand" = merged ] || continue
    rc=0
    "$bhost" compare "$dir/t$t-base.json" "$dir/t$t-$cand.json" --config "$config" --json \
      --store "${store[-1]}" > "$dir/t$t-cmp-$cand.json" || rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then echo "eval-shard-aa: compare exited $rc" >&2; exit 2; fi
  done
  rc=0
  python3 - "$dir" "$t" "$offline" "$control" <<'PY' || rc=$?
import collections, json, sys

d, t, offline, control = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"
path = lambda name: "%s/t%s-%s.json" % (d, t, name)
arm_b = "whole2" if control else "merged"

def items(doc):
    """(case id, metric) -> metric verdict object of a result or comparison document."""
    out = {}
    for c in doc["cases"]:
        v = c.get("verdict")  # a result's verdict object; a comparison's case is flat
        for it in (v if isinstance(v, dict) else c).get("metrics", []):
            out[(c["id"], it["metric"])] = it
    return out

def verdicts(arm):
    return items(json.load(open(path(("cmp-" if offline else "") + arm))))

def show(it):
    """'regressed minor, first regressed (+3.1%), rerun +2.0%' or 'no change (+0.2%)'."""
    if not it:
        return "none"
    s = it["verdict"] + (" " + it["severity"] if it.get("severity") else "")
    conf = it.get("confirmation") or {}
    if conf:
        s += ", first %s (%+.1f%%)" % (it["initial_verdict"], 100 * (it.get("change") or 0))
        s += ", rerun %s" % ("%+.1f%%" % (100 * conf["change"]) if conf.get("change") is not None
                             else conf.get("error", "?"))
    else:
        s += " (%+.1f%%)" % (100 * (it.get("change") or 0))
    return s

def actionable(v):
    """What a gate reports: regressed (with severity) and improved comparisons."""
    return {k: (it["verdict"], it.get("severity")) for k, it in v.items()
            if it["verdict"] in ("regressed", "improved")}

w, m = verdicts("whole"), verdicts("merged")
if not control:
    run = json.load(open(path("merged")))["run"]
    print("  shards (%s): %s" % (
        json.load(open(path("shard-1")))["run"]["shard"]["balanced_by"],
        ", ".join("%d cases %.1f s" % (s["cases"], s["duration_s"])
                  for s in run["merged"]["shards"])))
alarms = {}
rule_off, rule_all = 0, 0
for name, v in (("whole", w), (arm_b, m)):
    print("  %-6s vs base: %s" % (name, dict(sorted(collections.Counter(
        it["verdict"] for it in v.values()).items()))))
    alarms[name] = len(actionable(v))
keys = sorted(set(w) | set(m))
diff = [k for k in keys if (w.get(k) or {}).get("verdict") != (m.get(k) or {}).get("verdict")]
for k in diff:
    print("    differs: %s [%s]: whole %s; %s %s" % (k[0], k[1], show(w.get(k)), arm_b,
                                                    show(m.get(k))))
gate_same = actionable(w) == actionable(m)
codes = ""
if not offline:
    rw, rm = (open(path(a) + ".rc").read().strip() for a in ("whole", "merged"))
    codes = ", exit %s vs %s" % (rw, rm)
    gate_same &= rw == rm
print("  verdicts equal: %s (%d of %d); gates equal: %s%s" % (
    "yes" if not diff else "no", len(keys) - len(diff), len(keys), "yes" if gate_same else "NO",
    codes))
if not offline and not control:
    # the rule check: the shards' first verdicts against the whole run's rule
    rule = items(json.load(open(path("cmp-merged"))))
    first = lambda it: it.get("initial_verdict") or it["verdict"]
    off = [k for k in sorted(set(m) | set(rule))
           if first(m.get(k) or {"verdict": None}) != (rule.get(k) or {}).get("verdict")]
    for k in off:
        print("    rule: %s [%s]: shard first %s, whole-run rule %s (q %s vs %s)" % (
            k[0], k[1], first(m[k]) if k in m else None, (rule.get(k) or {}).get("verdict"),
            (m.get(k) or {}).get("q"), (rule.get(k) or {}).get("q")))
    rule_off, rule_all = len(off), len(set(m) | set(rule))
    print("  rule check: %d of %d first verdicts of the shards differ from the whole-run rule "
          "on the same samples" % (rule_off, rule_all))
print("  false alarms (regressed or improved): whole %d, %s %d" % (alarms["whole"], arm_b,
                                                                    alarms[arm_b]))
with open("%s/alarms.txt" % d, "a") as f:
    f.write("%s %d %d %d %d %d\n" % (t, alarms["whole"], alarms[arm_b], int(gate_same), rule_off,
                                     rule_all))
sys.exit(10 + (0 if not diff else 1) + (0 if gate_same else 2))
PY
  case $rc in
    10) equal=$((equal + 1)); gates_equal=$((gates_equal + 1)) ;;
    11) gates_equal=$((gates_equal + 1)) ;;
    12) equal=$((equal + 1)) ;;
    13) ;;
    *) echo "eval-shard-aa: the comparison of trial $t failed" >&2; exit 2 ;;
  esac
done
what="run-time gates, confirmation on"
[ "$offline" -eq 1 ] && what="offline bhost compare"
[ "$control" -eq 1 ] && what="$what; control: a second whole run instead of the shards"
echo "verdicts equal: $equal of $trials trials; gates equal: $gates_equal of $trials ($what)"
awk -v f="$first" -v l=$((first + trials - 1)) '$1 >= f && $1 <= l { w += $2; m += $3; o += $5; a += $6 }
  END { printf "false alarms (regressed or improved) over these trials: whole %d, other arm %d\n", w, m
        if (a) printf "rule check: %d of %d first verdicts of the shards differ from the whole-run rule\n", o, a }' \
  "$dir/alarms.txt"
[ "$equal" -eq "$trials" ]
