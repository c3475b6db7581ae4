#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bhost-tokenize refuses what it cannot use (issue 20, row 14): a tiktoken
# rank file of another encoding or cut at a line boundary (exit 1, one line
# naming the file and both rank counts), a vocabulary file too many, a
# missing one, and a -t value that is not a thread count (exit 2, one line).
# The rank checks need the real vocabularies (tools/tokenizer/fetch.sh);
# without them only the usage checks run, and the test skips (exit 77).
#
#   plugins/tokenizer/tests/cli_test.sh PATH/TO/bhost-tokenize
set -u
bt=$1
vocab=${BHOST_TOKENIZER_CACHE:-$HOME/.cache/bhost/tokenizer}/vocab
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# expect CODE TEXT CMD...: CMD (stdin "hi") exits CODE with exactly one
# line on stderr, which contains TEXT.
expect() {
    local code=$1 text=$2 got lines
    shift 2
    echo hi | "$@" >"$work/out" 2>"$work/err"
    got=$?
    lines=$(wc -l <"$work/err")
    if [ "$got" != "$code" ] || [ "$lines" != 1 ] || ! grep -qF -- "$text" "$work/err"; then
        echo "FAIL: $* -> exit $got, $lines stderr lines, expected exit $code and '$text':"
        cat "$work/err"
        failed=1
    else
        echo "ok: $*"
    fi
}

# usage errors: no vocabulary is read
touch "$work/a" "$work/b"
expect 2 "-t: expected a number of threads from 0 to 1024, got 'abc'" \
    "$bt" -t abc -f cl100k "$work/a"
expect 2 "-t: expected a number of threads from 0 to 1024, got '-1'" \
    "$bt" -t -1 -f cl100k "$work/a"
expect 2 "-t: expected a number of threads from 0 to 1024, got '4x'" \
    "$bt" -t 4x -f cl100k "$work/a"
expect 2 "-f cl100k takes 1 vocabulary file, got 2 (extra: '$work/b')" \
    "$bt" -f cl100k "$work/a" "$work/b"
expect 2 "-f gpt2 takes 2 vocabulary files, got 1" "$bt" -f gpt2 "$work/a"

if [ ! -f "$vocab/cl100k_base.tiktoken" ] || [ ! -f "$vocab/r50k_base.tiktoken" ]; then
    echo "skipped: no vocabularies in $vocab (tools/tokenizer/fetch.sh)"
    [ "$failed" = 0 ] && exit 77
    exit 1
fi
expect 1 "$vocab/r50k_base.tiktoken: 50256 ranks (largest 50255), but the cl100k rank file has 100256 (largest 100255): a rank file of another encoding, or a cut one" \
    "$bt" -f cl100k "$vocab/r50k_base.tiktoken"
expect 1 "$vocab/cl100k_base.tiktoken: 100256 ranks (largest 100255), but the r50k rank file has 50256 (largest 50255)" \
    "$bt" -f r50k "$vocab/cl100k_base.tiktoken"
head -n 100000 "$vocab/cl100k_base.tiktoken" >"$work/cut.tiktoken"
expect 1 "$work/cut.tiktoken: 100000 ranks (largest 99999), but the cl100k rank file has 100256" \
    "$bt" -f cl100k "$work/cut.tiktoken"
# the whole file still works, with threads too
for t in 0 2; do
    if [ "$(echo 'hello world' | "$bt" -t "$t" -f cl100k "$vocab/cl100k_base.tiktoken")" != "15339 1917" ]; then
        echo "FAIL: cl100k 'hello world' with -t $t is not '15339 1917'"
        failed=1
    fi
done
# every published rank file passes its own check (p50k's ranks skip 50256)
for e in r50k p50k o200k; do
    if [ -f "$vocab/${e}_base.tiktoken" ] && ! echo hello | "$bt" -f "$e" "$vocab/${e}_base.tiktoken" >/dev/null; then
        echo "FAIL: the published $e rank file is refused"
        failed=1
    fi
done
exit $failed
