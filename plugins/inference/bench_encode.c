// SPDX-License-Identifier: MIT
/*
 * bench_encode.c -- encode: one iteration runs a BERT-style encoder over
 * `batch` sequences of `seq` tokens (bidirectional attention) to their
 * final hidden states.
 *
 * Work per iteration: FLOPs = 2 x matmul weights x batch x seq + full
 * attention (seq^2 pairs per sequence); bytes = the weights once; items =
 * batch x seq tokens. Work profile: a read stream over the weights (the
 * counted bytes), their type's compute class, the engine's threads.
 *
 * verify(): the final hidden state of one position (chosen from the seed)
 * of the first sequence against a double-precision forward of that
 * position through every layer, taking the engine's K/V rows of the other
 * positions as given (ie_ref_check), tolerance 1e-3 of its largest value.
 */
#include "ip.h"

#include <string.h>

typedef struct encode {
    ip_base b;
    int seq;
    int *slots;
    int32_t *tok;
    ip_lat lat;
    double flops, bytes;
} encode;

static const bhost_param_desc encode_params[] = {
    IP_COMMON_PARAMS("bert-base"),
    IP_PARAM(BHOST_PARAM_I64, "seq", "Tokens per sequence", "128", 1, 65536),
};

/* Reads parameters. [instance] */
static bhost_status BHOST_ABI enc_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **inst)
{
    encode *e = bh_inf_api->alloc(h, sizeof(*e), 64);
    int64_t seq = 0;
    bhost_status st;

    if (e == NULL)
        return BHOST_E_NOMEM;
    memset(e, 0, sizeof(*e));
    st = bh_inf_base_create(&e->b, "encode", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "seq", 1, 65536, &seq);
    if (st == BHOST_OK && e->b.cfg.arch != IE_ARCH_BERT)
        st = bh_plugin_fail(h, BHOST_E_SKIP, "encode: %s is a decoder",
                            e->b.cfg.name);
    if (st != BHOST_OK) {
        bh_inf_api->free(h, e);
        return st;
    }
    e->seq = (int)seq;
    *inst = e;
    return BHOST_OK;
}

/* Model, state, seeded sequences. [instance] */
static bhost_status BHOST_ABI enc_setup(void *inst, bhost_stream *s)
{
    encode *e = inst;
    ip_base *b = &e->b;
    int B = b->batch, T = e->seq;
    bhost_status st = bh_inf_base_setup(b, s, B, T, B * T);

    if (st != BHOST_OK)
        return st;
    if (e->slots == NULL) {
        e->slots = bh_inf_alloc(b, (size_t)B * sizeof(int));
        e->tok = bh_inf_alloc(b, (size_t)B * (size_t)T * sizeof(int32_t));
        if (!e->slots || !e->tok || bh_inf_lat_init(b, &e->lat))
            return bh_plugin_fail(b->h, BHOST_E_NOMEM, "encode: out of memory");
    }
    for (int i = 0; i < B; i++) {
        e->slots[i] = i;
        bh_inf_tokens(b, (uint64_t)i, e->tok + (size_t)i * T, T);
    }
    e->flops = ie_flops(&b->cfg, (double)B * T, (double)B * T * T, 0);
    e->bytes = (double)ie_model_step_bytes(b->m);
    return BHOST_OK;
}

/* iterations encoder passes. [instance] */
static bhost_status BHOST_ABI enc_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    encode *e = inst;
    ip_base *b = &e->b;
    ie_stats before = b->ctx.stats, d;
    uint64_t t0 = bh_inf_now(b);
    double ms, tokens = (double)b->batch * e->seq;

    b->ctx.stream = s;
    for (uint64_t it = 0; it < iterations; it++) {
        uint64_t a = bh_inf_now(b);
        int rc = ie_encode(b->s, e->slots, b->batch, e->tok, e->seq);

        if (rc != IE_OK)
            return bh_inf_engine_fail(b, rc, "encode");
        bh_inf_lat_add(&e->lat, (double)(bh_inf_now(b) - a) / 1e6);
    }
    ms = (double)(bh_inf_now(b) - t0) / 1e6 / (double)iterations;
    d = bh_inf_stats_since(b, &before);
    bh_inf_metric(b, "encode_tokens_per_s", "1/s", 1, tokens / (ms / 1e3));
    bh_inf_metric(b, "latency_ms", "ms", 0, ms);
    bh_inf_lat_report(b, &e->lat, "latency");
    bh_inf_report_model(b, &d, ms, tokens, "encode");
    return BHOST_OK;
}

/* One position's hidden state against the reference. [instance] */
static bhost_status BHOST_ABI enc_verify(void *inst)
{
    encode *e = inst;
    ip_base *b = &e->b;
    int pos = (int)(ie_mix64(b->seed) % (uint64_t)e->seq);

    if (b->s == NULL || ie_state_len(b->s, 0) != e->seq)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY, "encode: nothing ran");
    return bh_inf_verify_position(b, 0, pos, ie_hidden(b->s, pos), 1e-3);
}

/* Frees everything the instance holds. [instance] */
static void BHOST_ABI enc_destroy(void *inst)
{
    encode *e = inst;
    bhost_host *h = e->b.h;

    bh_inf_lat_free(&e->b, &e->lat);
    bh_inf_free(&e->b, e->slots);
    bh_inf_free(&e->b, e->tok);
    bh_inf_base_destroy(&e->b);
    bh_inf_api->free(h, e);
}

/* FLOPs of one pass (set by setup). [instance] */
static double BHOST_ABI enc_flops(void *inst)
{
    return ((encode *)inst)->flops;
}

/* Weight bytes of one pass (set by setup). [instance] */
static double BHOST_ABI enc_bytes(void *inst)
{
    return ((encode *)inst)->bytes;
}

/* See the work note at the top (set by setup). [instance] */
static bhost_status BHOST_ABI enc_profile(void *inst, bhost_work_profile *out)
{
    const encode *e = inst;

    bh_inf_work_profile(&e->b, BHOST_ACCESS_READ, e->bytes, out);
    return BHOST_OK;
}

/* Tokens per pass. [instance] */
static double BHOST_ABI enc_items(void *inst)
{
    encode *e = inst;

    return (double)e->b.batch * e->seq;
}

const bhost_bench_desc bh_inf_encode = {
    sizeof(bhost_bench_desc),
    BHOST_BENCH_NEEDS_DEVICE,
    "encode",
    "Encoder (BERT) forward over batch x seq tokens to final hidden states",
    encode_params,
    sizeof(encode_params) / sizeof(encode_params[0]),
    0,
    BHOST_CAP_KERNEL_GEMM,
    enc_create,
    enc_setup,
    enc_run,
    enc_verify,
    enc_destroy,
    enc_flops,
    enc_bytes,
    enc_items,
    enc_profile,
};
