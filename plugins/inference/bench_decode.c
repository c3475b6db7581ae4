// SPDX-License-Identifier: MIT
/*
 * bench_decode.c -- decode: one iteration is one decode step of `batch`
 * sequences (one new token each) over a KV cache that setup() prefilled
 * with `context` tokens. Tokens are generated greedily from the previous
 * step's logits; after `window` steps the sequences rewind to `context`
 * (the cache rows are overwritten), so every step attends to between
 * context+1 and context+window keys.
 *
 * Work per iteration: bytes = the weight bytes one step reads (every layer
 * matrix and vector, the LM head, one embedding row; the KV cache read is
 * reported separately as kv_read_bytes_per_step), FLOPs = 2 x matmul
 * weights x batch + attention, items = batch tokens.
 *
 * verify(): the last step's logits of the first (and last) sequence
 * against a double-precision forward of that position through every
 * layer that takes the engine's cached K/V of the earlier positions as
 * given (ie_ref_check), tolerance 1e-3 of the largest |logit|.
 */
#include "ip.h"

#include <string.h>

typedef struct decode {
    ip_base b;
    int context, window;
    int *slots;
    int32_t *next;
    ip_lat lat;
    double flops, bytes;
    int steps_done;
} decode;

static const bhost_param_desc decode_params[] = {
    IP_COMMON_PARAMS("gpt2"),
    IP_PARAM(BHOST_PARAM_I64, "context", "Tokens in the cache before decoding",
             "128", 1, 65536),
    IP_PARAM(BHOST_PARAM_I64, "window", "Steps before the sequences rewind",
             "128", 1, 65536),
};

/* Reads parameters. [instance] */
static bhost_status BHOST_ABI decode_create(bhost_host *h,
                                            const bhost_backend *be,
                                            bhost_dev *dev, void **inst)
{
    decode *d = bh_inf_api->alloc(h, sizeof(*d), 64);
    int64_t context, window;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d)); /* setup() relies on zeroed fields */
    st = bh_inf_base_create(&d->b, "decode", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "context", 1, 65536, &context);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "window", 1, 65536, &window);
    if (st == BHOST_OK && d->b.cfg.arch == IE_ARCH_BERT)
        st = bh_plugin_fail(h, BHOST_E_SKIP, "decode: %s is an encoder",
                            d->b.cfg.name);
    if (st != BHOST_OK) {
        bh_inf_api->free(h, d);
        return st;
    }
    d->context = (int)context;
    d->window = (int)window;
    *inst = d;
    return BHOST_OK;
}

/* Times `steps` decode steps at batch n; returns ms per step. */
static double time_steps(decode *d, int n, int steps, bhost_status *st)
{
    ip_base *b = &d->b;
    uint64_t t0 = bh_inf_now(b);
    int rc = IE_OK;

    for (int k = 0; rc == IE_OK && k < steps; k++) {
        for (int i = 0; i < n; i++)
            d->next[i] = bh_inf_argmax(b, i);
        rc = ie_forward(b->s, d->slots, n, d->next, 1);
    }
    if (rc != IE_OK)
        *st = bh_inf_engine_fail(b, rc, "decode");
    for (int i = 0; rc == IE_OK && i < n; i++)
        ie_state_truncate(b->s, d->slots[i], d->context);
    return (double)(bh_inf_now(b) - t0) / 1e6 / steps;
}

/* Prefills every sequence and, for batch > 1, times up to 8 steps at
 * batch 1 and at batch (batch_scaling_efficiency = t1 / tB). [instance] */
static bhost_status BHOST_ABI decode_setup(void *inst, bhost_stream *s)
{
    decode *d = inst;
    ip_base *b = &d->b;
    int B = b->batch, C = d->context;
    int32_t *tok;
    bhost_status st;
    int rc;

    st = bh_inf_base_setup(b, s, B, C + d->window, B * C);
    if (st != BHOST_OK)
        return st;
    if (d->slots == NULL) {
        d->slots = bh_inf_alloc(b, (size_t)B * sizeof(int));
        d->next = bh_inf_alloc(b, (size_t)B * sizeof(int32_t));
        if (d->slots == NULL || d->next == NULL || bh_inf_lat_init(b, &d->lat))
            return bh_plugin_fail(b->h, BHOST_E_NOMEM, "decode: out of memory");
    }
    tok = bh_inf_alloc(b, (size_t)B * (size_t)C * sizeof(int32_t));
    if (tok == NULL)
        return bh_plugin_fail(b->h, BHOST_E_NOMEM, "decode: out of memory");
    for (int i = 0; i < B; i++) {
        d->slots[i] = i;
        ie_state_truncate(b->s, i, 0);
        bh_inf_tokens(b, (uint64_t)i, tok + (size_t)i * C, C);
    }
    rc = ie_forward(b->s, d->slots, B, tok, C);
    bh_inf_free(b, tok);
    if (rc != IE_OK)
        return bh_inf_engine_fail(b, rc, "prefill");
    if (B > 1) {
        int n = d->window < 8 ? d->window : 8;
        double t1 = time_steps(d, 1, n, &st), tb = 0;

        if (st == BHOST_OK)
            tb = time_steps(d, B, n, &st);
        if (st != BHOST_OK)
            return st;
        bh_inf_metric(b, "batch_scaling_efficiency", "", 1, t1 / tb);
        bh_inf_metric(b, "batch_speedup", "", 1, B * t1 / tb);
    }
    d->bytes = (double)ie_model_step_bytes(b->m);
    d->flops = ie_flops(&b->cfg, B, B * (C + 0.5 * d->window + 1.0), B);
    bh_inf_info(b, "kv_read_bytes_per_step", "B",
                (double)B * (C + 0.5 * d->window) * 2.0 * b->cfg.n_kv_heads * b->cfg.head_dim *
                    4.0 * b->cfg.n_layers);
    return BHOST_OK;
}

/* iterations decode steps (greedy), rewinding after `window`. [instance] */
static bhost_status BHOST_ABI decode_run(void *inst, bhost_stream *s,
                                         uint64_t iterations)
{
    decode *d = inst;
    ip_base *b = &d->b;
    ie_stats before = b->ctx.stats, delta;
    uint64_t t0 = bh_inf_now(b), t1;
    double total_ms;

    b->ctx.stream = s;
    for (uint64_t it = 0; it < iterations; it++) {
        uint64_t a = bh_inf_now(b);
        int rc;

        for (int i = 0; i < b->batch; i++)
            d->next[i] = bh_inf_argmax(b, i);
        if (ie_state_len(b->s, 0) >= d->context + d->window)
            for (int i = 0; i < b->batch; i++)
                ie_state_truncate(b->s, i, d->context);
        rc = ie_forward(b->s, d->slots, b->batch, d->next, 1);
        if (rc != IE_OK)
            return bh_inf_engine_fail(b, rc, "decode");
        bh_inf_lat_add(&d->lat, (double)(bh_inf_now(b) - a) / 1e6);
    }
    t1 = bh_inf_now(b);
    total_ms = (double)(t1 - t0) / 1e6;
    delta = bh_inf_stats_since(b, &before);
    bh_inf_metric(b, "decode_tokens_per_s", "1/s", 1,
                  (double)b->batch * (double)iterations / (total_ms / 1e3));
    bh_inf_metric(b, "tpot_ms", "ms", 0, total_ms / (double)iterations);
    bh_inf_lat_report(b, &d->lat, "token_latency");
    bh_inf_report_model(b, &delta, total_ms / (double)iterations, b->batch,
                        "tpot");
    bh_inf_info(b, "weight_bytes_per_step", "B", d->bytes);
    return BHOST_OK;
}

/* The last step's logits against the reference. [instance] */
static bhost_status BHOST_ABI decode_verify(void *inst)
{
    decode *d = inst;
    ip_base *b = &d->b;
    int last = b->batch - 1;
    bhost_status st;

    if (b->s == NULL)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY, "decode: nothing ran");
    st = bh_inf_verify_position(b, 0, ie_state_len(b->s, 0) - 1,
                                ie_logits(b->s, 0), 1e-3);
    if (st == BHOST_OK && last > 0)
        st = bh_inf_verify_position(b, last, ie_state_len(b->s, last) - 1,
                                    ie_logits(b->s, last), 1e-3);
    return st;
}

/* Frees everything the instance holds, joining the engine threads.
 * [instance] */
static void BHOST_ABI decode_destroy(void *inst)
{
    decode *d = inst;
    bhost_host *h = d->b.h;

    bh_inf_lat_free(&d->b, &d->lat);
    bh_inf_free(&d->b, d->slots);
    bh_inf_free(&d->b, d->next);
    bh_inf_base_destroy(&d->b);
    bh_inf_api->free(h, d);
}

/* FLOPs of one step (set by setup). [instance] */
static double BHOST_ABI decode_flops(void *inst)
{
    return ((decode *)inst)->flops;
}

/* Weight bytes one step reads (set by setup). [instance] */
static double BHOST_ABI decode_bytes(void *inst)
{
    return ((decode *)inst)->bytes;
}

/* A step reads every weight once: a read stream over the weights, of the
 * weights' type, on the engine's threads (set by setup). [instance] */
static bhost_status BHOST_ABI decode_profile(void *inst, bhost_work_profile *out)
{
    const decode *d = inst;

    bh_inf_work_profile(&d->b, BHOST_ACCESS_READ, d->bytes, out);
    return BHOST_OK;
}

/* Tokens per step: the batch. [instance] */
static double BHOST_ABI decode_items(void *inst)
{
    return ((decode *)inst)->b.batch;
}

const bhost_bench_desc bh_inf_decode = {
    sizeof(bhost_bench_desc),
    BHOST_BENCH_NEEDS_DEVICE,
    "decode",
    "Decode steps (batch x 1 token) over a prefilled KV cache; weight "
    "bytes per step vs the memory roof",
    decode_params,
    sizeof(decode_params) / sizeof(decode_params[0]),
    0,
    BHOST_CAP_KERNEL_GEMM,
    decode_create,
    decode_setup,
    decode_run,
    decode_verify,
    decode_destroy,
    decode_flops,
    decode_bytes,
    decode_items,
    decode_profile,
};
