#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GitHub Actions workflow passes actionlint and the workflow schema
# (tools/lint-workflow.sh), and the same check rejects broken copies of it
# (so a pass means something). Exit 77 when the validators cannot be
# installed.
set -uo pipefail
root=$1
wf="$root/.github/workflows/bhost.yml"
lint="$root/tools/lint-workflow.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bash "$lint" "$wf"
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -ne 0 ] && { echo "FAIL: $wf does not pass"; exit 1; }

# A misspelt event: the schema and actionlint both reject it.
sed 's/^  pull_request:$/  pull_reqest:/' "$wf" > "$tmp/event.yml"
# A step output that no step makes: only actionlint sees it.
sed 's/steps\.run\.outputs\.rc/steps.runn.outputs.rc/' "$wf" > "$tmp/step.yml"
# An unknown job key: the schema sees it.
sed 's/^    timeout-minutes: 120$/    timeout-minutess: 120/' "$wf" > "$tmp/key.yml"
fails=0
for broken in event step key; do
  if cmp -s "$wf" "$tmp/$broken.yml"; then
    echo "FAIL: the '$broken' mutation did not change the workflow"
    fails=$((fails + 1))
  elif bash "$lint" "$tmp/$broken.yml" > "$tmp/$broken.log" 2>&1; then
    echo "FAIL: a workflow with a broken $broken passed"
    fails=$((fails + 1))
  else
    echo "ok: broken $broken rejected: $(grep -m1 -E 'yml:[0-9]+|rejects' "$tmp/$broken.log")"
  fi
done
[ $fails -eq 0 ] && echo "4 passed, 0 failed" || echo "$((4 - fails)) passed, $fails failed"
exit $((fails > 0))
