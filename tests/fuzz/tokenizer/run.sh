#!/usr/bin/env bash
# Builds the tokenizer libFuzzer targets with clang
# (-fsanitize=fuzzer,address,undefined) and runs each for a while.
#   tests/fuzz/tokenizer/run.sh [SECONDS_PER_TARGET] [BUILD_DIR]
# Seeds come from small real files when the tools/tokenizer/fetch.sh cache
# exists; crashes land in tests/fuzz/findings/ (ignored by git). Prints the
# executions per target; exits non-zero when a target found a crash.
set -euo pipefail
cd "$(dirname "$0")/../../.."
secs=${1:-60}
out=${2:-build-tok/fuzz}
mkdir -p "$out" tests/fuzz/findings
lib=(plugins/tokenizer/lib/*.c)
cflags=(-std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined
        -fno-sanitize-recover=undefined -ffp-contract=off
        -Iplugins/tokenizer/lib -I/usr/include/cjson)
targets=(tiktoken gpt2 hfjson vocabtxt spm encode)
for t in "${targets[@]}"; do
    clang "${cflags[@]}" "tests/fuzz/tokenizer/fuzz_$t.c" "${lib[@]}" \
        -lutf8proc -lcjson -lpthread -lm -o "$out/fuzz_$t"
done

# seed corpora: small real inputs and their truncations
cache=${BHOST_TOKENIZER_CACHE:-$HOME/.cache/bhost/tokenizer}
for t in "${targets[@]}"; do mkdir -p "$out/seed_$t"; done
printf 'QQ== 0\nQg== 1\nIGE= 2\n' >"$out/seed_tiktoken/a"
printf '[PAD]\n[UNK]\n[CLS]\nhello\n##s\n' >"$out/seed_vocabtxt/a"
printf '{"a": 0, "b": 1, "ab": 2}\0#version: 0.2\na b\n' >"$out/seed_gpt2/a"
printf '{"model":{"type":"WordPiece","vocab":{"[UNK]":0,"a":1}},"normalizer":{"type":"BertNormalizer"},"pre_tokenizer":{"type":"BertPreTokenizer"}}' >"$out/seed_hfjson/a"
printf 'Hello, world! \xe4\xb8\xad \xff' >"$out/seed_encode/a"
if [ -d "$cache/vocab" ]; then
    head -c 4000 "$cache/vocab/r50k_base.tiktoken" >"$out/seed_tiktoken/r50k"
    head -c 4000 "$cache/vocab/bert-base-uncased-vocab.txt" >"$out/seed_vocabtxt/bert"
    cp "$cache/vocab/spm-bpe-8k.model" "$out/seed_spm/bpe"
    head -c 60000 "$cache/vocab/spm-unigram-8k.model" >"$out/seed_spm/uni-trunc"
    head -c 3000 "$cache/corpus/lines.txt" >"$out/seed_encode/lines"
fi

failed=0
for t in "${targets[@]}"; do
    log="$out/fuzz_$t.log"
    if ! "$out/fuzz_$t" -max_total_time="$secs" -max_len=200000 -rss_limit_mb=2048 \
            -artifact_prefix=tests/fuzz/findings/"$t"- "$out/seed_$t" >"$log" 2>&1; then
        failed=1
        echo "fuzz_$t: FOUND A CRASH (see $log and tests/fuzz/findings/)"
    fi
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
    [ -n "$execs" ] || execs=$(grep -Eo '#[0-9]+' "$log" | tail -1 | tr -d '#')
    echo "fuzz_$t: ${execs:-?} executions in ${secs}s"
done
exit $failed
