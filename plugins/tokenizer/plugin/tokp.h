// SPDX-License-Identifier: MIT
/*
 * tokp.h -- internal interface of the tokenizer plugin: a thin adapter from
 * libbhtok to the bhost ABI. tokp_corpus.c resolves vocabularies and corpora,
 * tokp_bench.c holds the benchmarks, tokenizer_plugin.c the entry point.
 */
#ifndef BH_TOKP_H
#define BH_TOKP_H

#include <bhost/plugin.h>

#include "bh_plugin.h"
#include "bh_rng.h"
#include "bhtok.h"

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_tokp_api;

extern const bhost_bench_desc bh_tokp_encode, bh_tokp_decode, bh_tokp_batch,
    bh_tokp_load, bh_tokp_latency, bh_tokp_normalize;

/* A text split into lines (pointers into text, which owns the bytes). */
typedef struct tokp_corpus {
    char *text;
    size_t n;
    const char **lines;
    size_t *lens;
    size_t nlines;
} tokp_corpus;

/* Resolves vocab name (gpt2, r50k, p50k, cl100k, o200k, bert, hf-bert,
 * hf-gpt2, albert, spm-unigram, spm-bpe) in vocab_dir (empty: the fetch
 * cache) into a format and up to two paths (static storage per call site is
 * not used: out buffers are the caller's). BHOST_E_SKIP with a message when
 * the files are missing. */
bhost_status bh_tokp_vocab(bhost_host *h, const char *name, const char *vocab_dir,
                           const char **format, char paths[2][1024],
                           size_t *npaths);

/* Loads corpus spec: "builtin" (generated English-like text, ~1 MB, from
 * seed), "builtin-nospace" (a 1 MB line without spaces), "builtin-cjk" (a
 * 1 MB CJK run), "en" / "mixed" (the fetched corpora) or a file path. limit
 * > 0 truncates at a line boundary. Frees with bh_tokp_corpus_free(). */
bhost_status bh_tokp_corpus_load(bhost_host *h, const char *spec, uint64_t seed,
                                 size_t limit, tokp_corpus *c);
void bh_tokp_corpus_free(tokp_corpus *c);

/* FNV-1a over ids, folded per line. */
uint64_t bh_tokp_digest(uint64_t d, const int32_t *ids, size_t n);

#endif /* BH_TOKP_H */
