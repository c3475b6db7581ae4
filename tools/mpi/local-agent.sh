#!/bin/sh
# SPDX-License-Identifier: MIT
# A stand-in for ssh as Open MPI's remote launch agent
# (--mca plm_rsh_agent PATH): it runs the remote command on this machine,
# so that a hostfile naming several host aliases exercises mpirun's real
# multi-node path (one orted per "node", the daemons' wire-up, the rank
# mapping) on one machine. The alias becomes BHOST_NODE_NAME, which a
# rank reports as its host. ssh's options are skipped as ssh would read
# them; the command is run by sh, as ssh's remote shell would. Each alias
# gets a TMPDIR of its own, as a node has its own /tmp: Open MPI's daemons
# make their session folders there, and two daemons of one job creating
# the same folder at once fail with "File exists". MPI traffic between
# the aliases needs `--mca btl self,tcp`: Open MPI's shared-memory
# transport (vader) crashed in an allreduce between ranks of two aliases
# on one machine (tools/measure-ranks.sh passes it).
while [ $# -gt 0 ]; do
  case "$1" in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;  # options that take a value
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "local-agent: usage: local-agent [ssh options] HOST COMMAND..." >&2; exit 255; }
BHOST_NODE_NAME=$1
export BHOST_NODE_NAME
TMPDIR="${TMPDIR:-/tmp}/bhost-node-$(id -u)-$BHOST_NODE_NAME"
export TMPDIR
mkdir -p -m 700 "$TMPDIR"
shift
exec /bin/sh -c "$*"
