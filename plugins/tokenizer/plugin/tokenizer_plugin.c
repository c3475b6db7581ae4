// SPDX-License-Identifier: MIT
/*
 * tokenizer_plugin.c -- entry point and benchmark list of tokenizer.so, a
 * thin adapter over libbhtok (plugins/tokenizer/lib).
 */
#include "tp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_tp_api;

static const bhost_bench_desc *const benches[] = {
    &bh_tp_encode, &bh_tp_decode,  &bh_tp_batch,
    &bh_tp_load,   &bh_tp_latency, &bh_tp_normalize,
};
#define BENCH_COUNT ((uint32_t)(sizeof(benches) / sizeof(benches[0])))

/* See tp.h. */
bhost_status bh_tp_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    bh_tp_api->set_error(h, msg);
    return st;
}

/* Keeps api; refuses a host table older than 1.0. [main] */
static bhost_status BHOST_ABI tp_init(const bhost_host_api *api)
{
    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        api->set_error(NULL, "tokenizer: host API table older than 1.0");
        return BHOST_E_VERSION;
    }
    bh_tp_api = api;
    return BHOST_OK;
}

/* Forgets the host API; instances own everything else. [main] */
static void BHOST_ABI tp_deinit(void)
{
    bh_tp_api = NULL;
}

/* Number of benchmarks. [any-thread] */
static uint32_t BHOST_ABI factory_count(void)
{
    return BENCH_COUNT;
}

/* Descriptor index, static; NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI factory_get(uint32_t index)
{
    return index < BENCH_COUNT ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {
    sizeof(bhost_bench_factory), 0, factory_count, factory_get,
};

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
static const void *BHOST_ABI tp_get_interface(const char *id)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BENCHMARKS) == 0)
        return &factory;
    return NULL;
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.tokenizer",
    "tokenizer",
    BH_PLUGIN_VERSION,
    "Tokenizers: GPT-2/tiktoken BPE, BERT WordPiece, SentencePiece",
    tp_init,
    tp_deinit,
    tp_get_interface,
};
