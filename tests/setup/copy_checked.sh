#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/tokenizer/copy_checked.sh: a vocabulary whose sha256 is not the
# pinned one is refused with the file, the expected and the actual hash,
# and a good cached copy is kept; a good one reaches the cache; a damaged
# cached copy is replaced from a good source.
#   copy_checked.sh SOURCE_ROOT
set -euo pipefail
cc=$1/tools/tokenizer/copy_checked.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

printf 'good vocabulary\n' >"$t/good"
printf 'tampered vocabulary\n' >"$t/bad"
want=$(sha256sum "$t/good" | cut -d' ' -f1)
bad=$(sha256sum "$t/bad" | cut -d' ' -f1)

# a bad source and nothing cached: refused, exit 1, nothing in the cache
if "$cc" "$t/bad" "$t/cache" "$want" 2>"$t/err"; then fail "bad source accepted"; fi
grep -q "$t/bad: sha256 $bad, expected $want: refused" "$t/err" || fail "message: $(cat "$t/err")"
[ ! -e "$t/cache" ] || fail "a bad copy reached the cache"
[ -z "$(find "$t" -name 'cache.tmp.*')" ] || fail "a temporary file was left"

# a good source: copied
"$cc" "$t/good" "$t/cache" "$want" 2>"$t/err" || fail "good source refused: $(cat "$t/err")"
cmp -s "$t/good" "$t/cache" || fail "cache differs from the source"

# a bad source with a good copy cached: refused, the good copy kept, exit 0
"$cc" "$t/bad" "$t/cache" "$want" 2>"$t/err" || fail "exit status with a good cached copy"
grep -q "expected $want: refused; keeping the cached $t/cache" "$t/err" || fail "message: $(cat "$t/err")"
cmp -s "$t/good" "$t/cache" || fail "the good cached copy was replaced"

# a damaged cached copy and a good source: replaced
printf 'bit rot\n' >"$t/cache"
"$cc" "$t/good" "$t/cache" "$want" 2>"$t/err" || fail "damaged cache not repaired"
grep -q "damaged, replaced" "$t/err" || fail "message: $(cat "$t/err")"
cmp -s "$t/good" "$t/cache" || fail "cache not repaired"

# a damaged cached copy and a bad source: refused, exit 1
printf 'bit rot\n' >"$t/cache"
if "$cc" "$t/bad" "$t/cache" "$want" 2>"$t/err"; then fail "bad source accepted over a damaged cache"; fi

# usage
if "$cc" "$t/good" 2>/dev/null; then fail "usage error not reported"; fi
echo "copy_checked: 6 checks passed"
