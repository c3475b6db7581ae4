#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Throughput anchors measured side by side with `bhost run
# configs/tokenizer.yaml`: the npm reference tokenizers (tiktoken WASM,
# js-tiktoken, Hugging Face tokenizers native, one thread) and Debian's
# spm_encode on the same corpus, in MB/s.
#   tools/tokenizer/anchors.sh [CORPUS] [LIMIT_BYTES]
# CORPUS defaults to the fetched corpus-en.txt (~9 MB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$("$here/fetch.sh")
corpus=${1:-$cache/corpus/corpus-en.txt}
limit=${2:-}
echo "anchors on $corpus ($(wc -c <"$corpus") bytes${limit:+, first $limit})"
RAYON_NUM_THREADS=1 node "$here/anchors.js" "$cache/npm" "$cache/vocab" "$corpus" $limit
input=$corpus
if [ -n "$limit" ]; then
    input=$(mktemp)
    trap 'rm -f "$input"' EXIT
    head -c "$limit" "$corpus" >"$input"
fi
bytes=$(wc -c <"$input")
for m in albert-30k-clean spm-unigram-8k spm-bpe-8k; do
    t0=$(date +%s.%N)
    spm_encode --model="$cache/vocab/$m.model" --output_format=id <"$input" >/dev/null
    t1=$(date +%s.%N)
    python3 -c "import sys; b,t=float(sys.argv[1]),float(sys.argv[2])-float(sys.argv[3]); print('%-28s %8.2f MB/s' % ('spm_encode ' + sys.argv[4], b/1e6/t))" \
        "$bytes" "$t1" "$t0" "$m"
done
