#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A one-node Slurm cluster on this machine, private to one state folder, so
# that `srun` (and bhost's `launcher: {kind: srun}`) runs for real without a
# site cluster: munged with a fresh key, slurmctld and slurmd (as root), a
# slurm.conf of its own; nothing under /etc is read or written.
#
#   tools/slurm/local-cluster.sh start [--owner PID]
#                                         configure, start, wait until the
#                                         node is idle (60 s at most; on a
#                                         failure the daemons are stopped
#                                         and the logs kept); with --owner,
#                                         stop by itself once PID has ended
#   tools/slurm/local-cluster.sh status   the daemons and `sinfo`
#   tools/slurm/local-cluster.sh env      the export line for SLURM_CONF
#   tools/slurm/local-cluster.sh stop     cancel its jobs, stop the daemons,
#                                         remove the state folder
#
#   BHOST_SLURM_DIR   the state folder (default ${TMPDIR:-/tmp}/bhost-slurm);
#                     the folders above it must be searchable by all
#                     (munged checks its socket's path)
#   BHOST_SLURM_CPUS  CPUs the node offers instead of the machine's (e.g. 4
#                     on 2 cores, for 4 ranks: oversubscribed, never timed)
#
# After `start`, point the Slurm commands at the cluster with
#   export SLURM_CONF=$BHOST_SLURM_DIR/slurm.conf   (printed by start/env)
# Needs root and Debian's slurmd, slurmctld, slurm-client and munge
# (tools/setup.sh installs them). Ports are free ones picked at start.
# Exit status: 0 done; 1 failed (one line saying what, the daemon's log
# tail after it); 2 bad usage; 3 not installed or not root.
set -euo pipefail

dir=${BHOST_SLURM_DIR:-${TMPDIR:-/tmp}/bhost-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf
daemons=(slurmd slurmctld munged) # stop order; started in reverse

die() { echo "local-cluster: $*" >&2; exit 1; }

# Refuses (exit 3) when a program is missing or we are not root.
require() {
  local p
  for p in munged mungekey slurmctld slurmd srun sinfo scontrol squeue scancel; do
    command -v "$p" >/dev/null || {
      echo "local-cluster: $p is not installed (Debian: slurmd slurmctld slurm-client munge; tools/setup.sh installs them)" >&2
      exit 3
    }
  done
  [ "$(id -u)" -eq 0 ] || { echo "local-cluster: slurmd must run as root (uid $(id -u))" >&2; exit 3; }
}

pid_of() { cat "$dir/$1.pid" 2>/dev/null || true; }
alive() { local p; p=$(pid_of "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

# Prints a TCP port nothing listens on now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Writes slurm.conf for one node named localhost with this machine's CPUs
# and memory as slurmd -C reports them (or BHOST_SLURM_CPUS CPUs).
write_conf() {
  local hw overrides=""
  hw=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]* //')
  if [ -n "${BHOST_SLURM_CPUS:-}" ]; then
    [[ $BHOST_SLURM_CPUS =~ ^[1-9][0-9]*$ ]] || die "BHOST_SLURM_CPUS: expected a CPU count, got '$BHOST_SLURM_CPUS'"
    [[ $hw =~ RealMemory=[0-9]+ ]] || die "slurmd -C reported no RealMemory: $hw"
    hw="CPUs=$BHOST_SLURM_CPUS ${BASH_REMATCH[0]}"
    overrides=SlurmdParameters=config_overrides
  fi
  cat >"$conf" <<EOF
# bhost's local one-node cluster (tools/slurm/local-cluster.sh)
ClusterName=bhostlocal
SlurmctldHost=localhost
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
$overrides
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
}

# Starts munged with a fresh key in the state folder.
start_munge() {
  mungekey --create --keyfile="$dir/munge.key" --force
  chmod 0400 "$dir/munge.key"
  munged --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munged.seed" </dev/null >>"$dir/start.log" 2>&1 ||
    { tail -n 5 "$dir/munged.log" "$dir/start.log" >&2 2>/dev/null; die "munged did not start"; }
}

# Waits (60 s at most) until sinfo shows the node idle; fails naming the
# daemon that exited or the state the node was in, with the logs' tails.
wait_idle() {
  local state="" d why=""
  for _ in $(seq 1 120); do
    state=$(sinfo -h -n localhost -o %t 2>/dev/null || true)
    [ "$state" = idle ] && return 0
    for d in slurmctld slurmd; do # gone after writing its pid file
      [ ! -s "$dir/$d.pid" ] || alive "$d" || why="$d exited"
    done
    [ -z "$why" ] || break
    sleep 0.5
  done
  tail -n 8 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
  [ -n "$why" ] || why="the node is not idle after 60 s (state '${state:-no answer}')"
  die "$why; logs in $dir"
}

cmd_start() { # [--owner PID]
  local owner=""
  case ${1:-} in
    "") ;;
    --owner) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "start --owner: expected a process id, got '${2:-}'"
             owner=$2 ;;
    *) echo "local-cluster: start: unknown option '$1' (expected --owner PID)" >&2; exit 2 ;;
  esac
  require
  if alive slurmctld || alive slurmd || alive munged; then
    die "already running in $dir (stop it first)"
  fi
  rm -rf "$dir"
  mkdir -p "$dir/ctld" "$dir/spool"
  chmod 0755 "$dir" # munged wants its socket's folder searchable by all
  write_conf
  trap 'stop_daemons' EXIT # a failed start leaves only its logs behind
  start_munge
  slurmctld -f "$conf" </dev/null >>"$dir/start.log" 2>&1 || die "slurmctld did not start (see $dir/slurmctld.log)"
  slurmd -f "$conf" -N localhost </dev/null >>"$dir/start.log" 2>&1 || die "slurmd did not start (see $dir/slurmd.log)"
  wait_idle
  trap - EXIT
  [ -z "$owner" ] || watch_owner "$owner"
  echo "local-cluster: up in $dir; export SLURM_CONF=$conf"
}

# Stops the cluster once process $1 has ended, from a process of its own
# session, so that a caller killed with SIGKILL (a test runner's timeout)
# leaves no daemons behind.
watch_owner() {
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec "$2" stop' \
    watch "$1" "$(readlink -f "$0")" </dev/null >/dev/null 2>&1 &
}

cmd_status() {
  local d rc=0
  for d in munged slurmctld slurmd; do
    if alive "$d"; then echo "$d: running (pid $(pid_of "$d"))"; else echo "$d: not running"; rc=1; fi
  done
  [ "$rc" -ne 0 ] || sinfo
  return "$rc"
}

# Sends TERM to each daemon from its pid file, KILL after 10 s.
stop_daemons() {
  local d p
  for d in "${daemons[@]}"; do
    alive "$d" || continue
    p=$(pid_of "$d")
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$p" 2>/dev/null; then kill -KILL "$p" 2>/dev/null || true; fi
  done
}

cmd_stop() {
  [ -d "$dir" ] || return 0
  local jobs
  if alive slurmctld; then
    # Jobs first: a step's slurmstepd outlives slurmd otherwise.
    mapfile -t jobs < <(squeue -h -o %i 2>/dev/null || true)
    [ ${#jobs[@]} -eq 0 ] || scancel --quiet --full "${jobs[@]}" 2>/dev/null || true
    for _ in $(seq 1 40); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.25; done
  fi
  stop_daemons
  rm -rf "$dir"
}

case ${1:-} in
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env (see the comment at its top)" >&2; exit 2 ;;
esac
