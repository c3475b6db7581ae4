#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The launch overhead of multi-rank cases (docs/multi-rank.md section 6):
# the collectives plugin's allreduce of 8 B, run as 10 fresh runs each on
# 1 rank (a plain worker), 2 ranks under mpirun on this host, and 4 ranks
# on two "nodes" through mpirun's remote path (tools/mpi/local-agent.sh),
# in one bhost invocation whose runs are shuffled together. Prints, per
# case, the median and range over runs of the whole run's wall time (the
# worker's start to its exit: launch, MPI start-up, the samples, teardown)
# and of ranks.launch_s (the launcher's start until every rank reached
# bhost), and the 2-rank minus 1-rank difference of the medians.
#   tools/measure-ranks.sh [BUILD_DIR]      (default build)
# Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'node-a slots=2\nnode-b slots=2\n' > "$tmp/hosts.txt"
cat > "$tmp/launch.yaml" <<YAML
schema: 1
name: launch-overhead
defaults: {warmup: 0s, sample_time: 1ms, samples: 3, runs: 10, timeout: 60s}
suites:
  - plugin: collectives
    name: local
    include: [allreduce]
    params: {ranks: [1, 2], bytes: [8]}
  - plugin: collectives
    name: two-nodes
    include: [allreduce]
    launcher:
      kind: mpirun
      hostfile: hosts.txt
      ranks_per_node: 2
      args: [--mca, plm_rsh_agent, $PWD/tools/mpi/local-agent.sh, --mca, btl, "self,tcp"]
    params: {ranks: [4], bytes: [8]}
YAML
"$build/host/cli/bhost" run "$tmp/launch.yaml" --out "$tmp/r.json" --quiet --no-store || echo "bhost run exited with $? (the cases say why)"
python3 - "$tmp/r.json" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
med = {}
for c in d["cases"]:
    wall = [r["wall_ns"] / 1e9 for r in c["runs"] if r["status"] == "ok"]
    launch = [m for m in c["metrics"].get("ranks.launch_s", {}).get("values", [])]
    med[c["params"]["ranks"]] = statistics.median(wall) if wall else float("nan")
    print("%-45s %-8s runs %2d  wall %.3f s [%.3f, %.3f]%s" % (
        c["id"], c["status"], len(wall), med[c["params"]["ranks"]],
        min(wall or [0]), max(wall or [0]),
        "  launch %.3f s [%.3f, %.3f]" % (statistics.median(launch), min(launch), max(launch))
        if launch else ""))
if 1 in med and 2 in med:
    print("2 ranks - 1 rank, median wall per run: %.3f s" % (med[2] - med[1]))
PY
