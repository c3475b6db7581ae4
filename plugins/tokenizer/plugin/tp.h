// SPDX-License-Identifier: MIT
/*
 * tp.h -- internal interface of the tokenizer plugin: a thin adapter from
 * libbhtok to the bhost ABI. tp_corpus.c resolves vocabularies and corpora,
 * tp_bench.c holds the benchmarks, tokenizer_plugin.c the entry point.
 */
#ifndef BH_TP_H
#define BH_TP_H

#include <bhost/plugin.h>

#include "bhtok.h"

#if defined(__GNUC__) || defined(__clang__)
#define TP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TP_PRINTF(fmt, args)
#endif

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_tp_api;

extern const bhost_bench_desc bh_tp_encode, bh_tp_decode, bh_tp_batch,
    bh_tp_load, bh_tp_latency, bh_tp_normalize;

/* set_error(h, formatted) and returns st. [any-thread] */
bhost_status bh_tp_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
    TP_PRINTF(3, 4);

/* A text split into lines (pointers into text, which owns the bytes). */
typedef struct tp_corpus {
    char *text;
    size_t n;
    const char **lines;
    size_t *lens;
    size_t nlines;
} tp_corpus;

/* Resolves vocab name (gpt2, r50k, p50k, cl100k, o200k, bert, hf-bert,
 * hf-gpt2, albert, spm-unigram, spm-bpe) in vocab_dir (empty: the fetch
 * cache) into a format and up to two paths (static storage per call site is
 * not used: out buffers are the caller's). BHOST_E_SKIP with a message when
 * the files are missing. */
bhost_status bh_tp_vocab(bhost_host *h, const char *name, const char *vocab_dir,
                         const char **format, char paths[2][1024],
                         size_t *npaths);

/* Loads corpus spec: "builtin" (generated English-like text, ~1 MB, from
 * seed), "builtin-nospace" (a 1 MB line without spaces), "builtin-cjk" (a
 * 1 MB CJK run), "en" / "mixed" (the fetched corpora) or a file path. limit
 * > 0 truncates at a line boundary. Frees with bh_tp_corpus_free(). */
bhost_status bh_tp_corpus_load(bhost_host *h, const char *spec, uint64_t seed,
                               size_t limit, tp_corpus *c);
void bh_tp_corpus_free(tp_corpus *c);

/* FNV-1a over ids, folded per line. */
uint64_t bh_tp_digest(uint64_t d, const int32_t *ids, size_t n);

#endif /* BH_TP_H */
