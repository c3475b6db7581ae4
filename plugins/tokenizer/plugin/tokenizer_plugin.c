// SPDX-License-Identifier: MIT
/*
 * tokenizer_plugin.c -- entry point and benchmark list of tokenizer.so, a
 * thin adapter over libbhtok (plugins/tokenizer/lib).
 */
#include "tokp.h"

const bhost_host_api *bh_tokp_api;

static const bhost_bench_desc *const benches[] = {
    &bh_tokp_encode, &bh_tokp_decode,  &bh_tokp_batch,
    &bh_tokp_load,   &bh_tokp_latency, &bh_tokp_normalize,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_tokp_api, "org.bhost.tokenizer", "tokenizer", BH_PLUGIN_VERSION,
                "Tokenizers: GPT-2/tiktoken BPE, BERT WordPiece, SentencePiece",
                bh_plugin_no_setup)
