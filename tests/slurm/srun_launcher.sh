#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# launcher: {kind: srun} for real: starts the local one-node Slurm cluster
# (tools/slurm/local-cluster.sh), runs 2-rank cases through `bhost run`
# (fx_ranks' spin, the host's own exchange; and, when MPI was found,
# collectives' allreduce, whose ranks get rank and size from slurmstepd's
# PMIx), checks that every case is ok, that each run records the srun
# launcher and 2 ok ranks, and that Slurm ran a 2-task bhost-worker job;
# then a rank that crashes, hangs or exits early: the case's status names
# it and no rank or Slurm job is left. Stops the cluster on every exit. Skipped (77) only when Slurm is not
# installed or we are not root.
#   srun_launcher.sh SOURCE_ROOT BHOST WITH_MPI(yes|no)
set -euo pipefail
src=$1 bhost=$2 with_mpi=$3
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || { echo "skipped: slurmd must run as root (uid $(id -u))"; exit 77; }
for p in slurmd slurmctld srun sinfo scontrol munged mungekey; do
  command -v "$p" >/dev/null ||
    { echo "skipped: $p is not installed (Debian: slurmd slurmctld slurm-client munge; tools/setup.sh)"; exit 77; }
done

t=$(mktemp -d)
chmod 0755 "$t" # munged wants every folder above its socket searchable by all
export BHOST_SLURM_DIR=$t/cluster
cleanup() {
  "$src/tools/slurm/local-cluster.sh" stop || echo "warning: the local cluster did not stop cleanly" >&2
  rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# --owner: the cluster stops itself even if this script is killed (meson's
# timeout sends SIGKILL half a second after SIGTERM).
"$src/tools/slurm/local-cluster.sh" start --owner $$ || fail "the local Slurm cluster did not start (above)"
export SLURM_CONF=$BHOST_SLURM_DIR/slurm.conf

cat >"$t/cfg.yaml" <<'YAML'
schema: 1
name: ranks_slurm
defaults: {runs: 1, samples: 2, warmup: 0ms, sample_time: 1ms, timeout: 120s}
launcher: {kind: srun, probe_timeout: 60s}
suites:
  - plugin: fx_ranks
    include: [spin]
    params: {ranks: [2]}
YAML
expect=1
if [ "$with_mpi" = yes ]; then
  # Under -Db_sanitize=address, LeakSanitizer would fail the MPI ranks'
  # exit on what Open MPI and PMIx never free (as the collectives' own
  # mpirun tests say); the host and fx_ranks' ranks stay leak-checked.
  cat >>"$t/cfg.yaml" <<YAML
  - plugin: collectives
    include: [allreduce]
    params: {ranks: [2], bytes: [4KiB]}
    launcher:
      kind: srun
      probe_timeout: 60s
      env: {ASAN_OPTIONS: "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"}
YAML
  expect=2
fi
rc=0
"$bhost" run "$t/cfg.yaml" --out "$t/r.json" --no-store || rc=$?
[ -f "$t/r.json" ] || fail "bhost run exited $rc and wrote no result"
python3 - "$t/r.json" "$expect" <<'PY' || fail "the result is not ok cases on 2 ranks launched by srun (above)"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == int(sys.argv[2]), f"{len(cases)} cases, expected {sys.argv[2]}"
for c in cases:
    assert c["status"] == "ok", f"{c['id']}: {c['status']}: {c.get('message')}"
    assert c["runs"], f"{c['id']}: no runs"
    for r in c["runs"]:
        rk = r.get("ranks") or {}
        assert rk.get("launcher") == "srun", f"{c['id']}: launcher {rk.get('launcher')!r}"
        assert rk.get("count") == 2, f"{c['id']}: {rk.get('count')!r} ranks"
        got = [(p["rank"], p["status"]) for p in rk.get("per_rank", [])]
        assert got == [(0, "ok"), (1, "ok")], f"{c['id']}: per_rank {got}"
    print(f"{c['id']}: ok, 2 ranks through srun")
PY
[ "$rc" -eq 0 ] || fail "bhost run exited $rc"
# Slurm's own account: a completed 2-task job step of bhost-worker per case.
jobs=$(scontrol show job -o) || fail "scontrol show job failed"
n=$(grep 'JobState=COMPLETED' <<<"$jobs" | grep ' NumTasks=2 ' | grep -c 'Command=[^ ]*bhost-worker') || true
[ "$n" -ge "$expect" ] || fail "Slurm ran $n completed 2-task bhost-worker jobs, expected $expect: $jobs"

# A rank that crashes, hangs or exits early under srun: the case's status
# names rank 1, and afterwards no rank process and no Slurm job is left.
cat >"$t/faults.yaml" <<'YAML'
schema: 1
name: ranks_slurm_faults
defaults: {warmup: 10ms, sample_time: 2ms, samples: 3, runs: 1, timeout: 12s}
launcher: {kind: srun, probe_timeout: 60s}
suites:
  - plugin: fx_ranks
    include: [spin]
    params: {ranks: [2], fault: [crash, hang, exit]}
YAML
rc=0
"$bhost" run "$t/faults.yaml" --out "$t/f.json" --no-store || rc=$?
[ "$rc" -eq 1 ] || fail "bhost run of the faulty ranks exited $rc, expected 1"
python3 - "$t/f.json" <<'PY' || fail "the faulty ranks' statuses (above)"
import json, os, sys
want = {"crash": "crashed", "hang": "timeout", "exit": "crashed"}
pids = []
for c in json.load(open(sys.argv[1]))["cases"]:
    fault = c["id"].split("fault=")[1].rstrip("]")
    r = c["runs"][0]
    msg = r.get("message", "")
    assert c["status"] == want[fault], f"{c['id']}: {c['status']}, expected {want[fault]}: {msg}"
    assert "rank 1" in msg, f"{c['id']}: message {msg!r} does not name rank 1"
    assert (r.get("ranks") or {}).get("launcher") == "srun", f"{c['id']}: not launched by srun"
    pids += [p["pid"] for p in r["ranks"]["per_rank"] if p.get("pid")]
    want.pop(fault)
assert not want, f"no case for {sorted(want)}"
left = []
for p in pids:
    try:
        os.kill(p, 0)
        left.append(p)
    except ProcessLookupError:
        pass
assert not left, f"rank processes still alive: {left}"
print(f"faults: crash, hang and exit on rank 1 named; {len(pids)} rank processes all gone")
PY
# A killed step's job may stay COMPLETING for a few seconds: 30 s at most.
for _ in $(seq 1 60); do
  jobs=$(squeue -h -o '%i %T') || fail "squeue failed"
  [ -n "$jobs" ] || break
  sleep 0.5
done
[ -z "$jobs" ] || fail "Slurm jobs left 30 s after the faulty ranks' cases: $jobs"
echo "srun_launcher: $expect case(s) ok on 2 ranks, $n 2-task Slurm job(s); faults ended every rank"
