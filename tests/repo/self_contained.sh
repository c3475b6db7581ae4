#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a tracked file points outside the repository: at the team
# workspace's shared/ folder (its DESIGN.md or reference notes) instead of
# the design documents in docs/. Prints every offending line as
# FILE:LINE:TEXT.
#
#   tests/repo/self_contained.sh [SOURCE_ROOT]     (default: .)
#
# Exit status: 0 none found; 1 some found; 77 (skip) when SOURCE_ROOT is
# not a git checkout (a release tarball has no tracked-file list).
set -u

root=${1:-.}
cd "$root" || exit 2
# The patterns are assembled here so that this file names no outside path
# itself (and is checked like every other).
ws=shared
p1="../$ws"
p2="$ws/DESIGN"
p3="stats-""anchors"
p4="$ws/reference"

if ! command -v git >/dev/null 2>&1 ||
    ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "self-contained: SKIP: $root is not a git checkout"
    exit 77
fi

files=$(mktemp) || exit 2
hits=$(mktemp) || exit 2
trap 'rm -f "$files" "$hits"' EXIT HUP INT TERM
git -c core.quotepath=off ls-files >"$files" || exit 2

n=0
while IFS= read -r f; do
    [ -f "$f" ] || continue # deleted in the work tree, not yet committed
    if grep -n -F -e "$p1" -e "$p2" -e "$p3" -e "$p4" -- "$f" >"$hits" 2>/dev/null; then
        sed "s|^|$f:|" "$hits"
        n=$((n + 1))
    fi
done <"$files"

if [ "$n" -gt 0 ]; then
    echo "self-contained: $n tracked file(s) point outside the repository;" \
        "cite docs/ (docs/README.md) instead"
    exit 1
fi
echo "self-contained: no tracked file points outside the repository"
exit 0
