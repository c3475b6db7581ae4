#!/bin/sh
# SPDX-License-Identifier: MIT
# README.md's Layout section names every folder of the repository: each
# top-level folder, and each folder under host/, plugins/, tests/ and
# tools/ (git-tracked ones). Exit 77 (skipped) outside a git checkout.
#   layout.sh SOURCE_ROOT
set -eu
cd "$1"
git rev-parse --git-dir >/dev/null 2>&1 || { echo "layout: not a git checkout"; exit 77; }
section=$(sed -n '/^## Layout$/,/^## /p' README.md)
[ -n "$section" ] || { echo "layout: README.md has no '## Layout' section"; exit 1; }
missing=0
for d in $(git ls-files | grep / | sed 's|/.*||' | sort -u) \
         $(git ls-files host plugins tests tools | awk -F/ 'NF > 2 {print $1 "/" $2}' | sort -u); do
  name=${d#*/}
  case $d in .*) continue ;; esac
  if ! printf '%s\n' "$section" | grep -qw -- "$name"; then
    echo "layout: README.md's Layout section does not name $d/"
    missing=$((missing + 1))
  fi
done
[ "$missing" -eq 0 ] || exit 1
echo "layout: every folder is named"
