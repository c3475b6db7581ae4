// SPDX-License-Identifier: MIT
/*
 * bench_prefill.c -- prefill: one iteration processes a `prompt`-token
 * prompt for each of `batch` sequences from an empty cache (writing the
 * KV cache) and picks each sequence's first output token greedily from
 * its last position's logits: the time to first token.
 *
 * Work per iteration: FLOPs = 2 x matmul weights x batch x prompt +
 * causal attention (4 x heads x head_dim per (query, key) pair) + the LM
 * head on the last position of each sequence; bytes = the weights once;
 * items = batch x prompt tokens. Work profile: a read stream over the
 * weights (the counted bytes), their type's compute class, the engine's
 * threads.
 *
 * verify(): the last position's logits of the first sequence against a
 * double-precision forward of that position through every layer taking
 * the engine's cached K/V of the earlier positions as given, plus layer
 * 0's K/V of two other positions recomputed from their tokens
 * (ie_ref_check), tolerance 1e-3 of the largest |logit|.
 */
#include "ip.h"

#include <string.h>

typedef struct prefill {
    ip_base b;
    int prompt;
    int *slots;
    int32_t *tok, *first;
    ip_lat lat;
    double flops, bytes;
} prefill;

static const bhost_param_desc prefill_params[] = {
    IP_COMMON_PARAMS("gpt2"),
    IP_PARAM(BHOST_PARAM_I64, "prompt", "Prompt tokens per sequence", "512",
             1, 65536),
};

/* Reads parameters. [instance] */
static bhost_status BHOST_ABI prefill_create(bhost_host *h,
                                             const bhost_backend *be,
                                             bhost_dev *dev, void **inst)
{
    prefill *p = bh_inf_api->alloc(h, sizeof(*p), 64);
    int64_t prompt;
    bhost_status st;

    if (p == NULL)
        return BHOST_E_NOMEM;
    memset(p, 0, sizeof(*p)); /* setup() relies on zeroed fields */
    st = bh_inf_base_create(&p->b, "prefill", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "prompt", 1, 65536, &prompt);
    if (st == BHOST_OK && p->b.cfg.arch == IE_ARCH_BERT)
        st = bh_plugin_fail(h, BHOST_E_SKIP,
                            "prefill: %s is an encoder (see encode)",
                            p->b.cfg.name);
    if (st != BHOST_OK) {
        bh_inf_api->free(h, p);
        return st;
    }
    p->prompt = (int)prompt;
    p->slots = NULL;
    p->tok = p->first = NULL;
    p->lat.v = NULL;
    *inst = p;
    return BHOST_OK;
}

/* Builds the model and state, seeded prompts. [instance] */
static bhost_status BHOST_ABI prefill_setup(void *inst, bhost_stream *s)
{
    prefill *p = inst;
    ip_base *b = &p->b;
    int B = b->batch, T = p->prompt;
    bhost_status st = bh_inf_base_setup(b, s, B, T, B * T);

    if (st != BHOST_OK)
        return st;
    if (p->slots == NULL) {
        p->slots = bh_inf_alloc(b, (size_t)B * sizeof(int));
        p->first = bh_inf_alloc(b, (size_t)B * sizeof(int32_t));
        p->tok = bh_inf_alloc(b, (size_t)B * (size_t)T * sizeof(int32_t));
        if (!p->slots || !p->first || !p->tok || bh_inf_lat_init(b, &p->lat))
            return bh_plugin_fail(b->h, BHOST_E_NOMEM, "prefill: out of memory");
    }
    for (int i = 0; i < B; i++) {
        p->slots[i] = i;
        bh_inf_tokens(b, (uint64_t)i, p->tok + (size_t)i * T, T);
    }
    p->flops = ie_flops(&b->cfg, (double)B * T, B * 0.5 * T * (T + 1.0), B);
    p->bytes = (double)ie_model_step_bytes(b->m);
    return BHOST_OK;
}

/* iterations prefills from an empty cache, each with its first token.
 * [instance] */
static bhost_status BHOST_ABI prefill_run(void *inst, bhost_stream *s,
                                          uint64_t iterations)
{
    prefill *p = inst;
    ip_base *b = &p->b;
    ie_stats before = b->ctx.stats, d;
    uint64_t t0 = bh_inf_now(b);
    double ms;

    b->ctx.stream = s;
    for (uint64_t it = 0; it < iterations; it++) {
        uint64_t a = bh_inf_now(b);
        int rc;

        for (int i = 0; i < b->batch; i++)
            ie_state_truncate(b->s, i, 0);
        rc = ie_forward(b->s, p->slots, b->batch, p->tok, p->prompt);
        if (rc != IE_OK)
            return bh_inf_engine_fail(b, rc, "prefill");
        for (int i = 0; i < b->batch; i++)
            p->first[i] = bh_inf_argmax(b, i);
        bh_inf_lat_add(&p->lat, (double)(bh_inf_now(b) - a) / 1e6);
    }
    ms = (double)(bh_inf_now(b) - t0) / 1e6 / (double)iterations;
    d = bh_inf_stats_since(b, &before);
    bh_inf_metric(b, "prefill_tokens_per_s", "1/s", 1,
                  (double)b->batch * p->prompt / (ms / 1e3));
    bh_inf_metric(b, "ttft_ms", "ms", 0, ms);
    bh_inf_lat_report(b, &p->lat, "ttft");
    bh_inf_metric(b, "prefill_gflops_per_s", "GFLOP/s", 1,
                  p->flops / (ms / 1e3) / 1e9);
    bh_inf_report_model(b, &d, ms, (double)b->batch * p->prompt, "prefill");
    return BHOST_OK;
}

/* The first sequence's last logits against the reference. [instance] */
static bhost_status BHOST_ABI prefill_verify(void *inst)
{
    prefill *p = inst;

    if (p->b.s == NULL || ie_state_len(p->b.s, 0) != p->prompt)
        return bh_plugin_fail(p->b.h, BHOST_E_VERIFY, "prefill: nothing ran");
    return bh_inf_verify_position(&p->b, 0, p->prompt - 1, ie_logits(p->b.s, 0),
                                  1e-3);
}

/* Frees everything the instance holds. [instance] */
static void BHOST_ABI prefill_destroy(void *inst)
{
    prefill *p = inst;
    bhost_host *h = p->b.h;

    bh_inf_lat_free(&p->b, &p->lat);
    bh_inf_free(&p->b, p->slots);
    bh_inf_free(&p->b, p->first);
    bh_inf_free(&p->b, p->tok);
    bh_inf_base_destroy(&p->b);
    bh_inf_api->free(h, p);
}

/* FLOPs of one prefill (set by setup). [instance] */
static double BHOST_ABI prefill_flops(void *inst)
{
    return ((prefill *)inst)->flops;
}

/* Weight bytes of one prefill (set by setup). [instance] */
static double BHOST_ABI prefill_bytes(void *inst)
{
    return ((prefill *)inst)->bytes;
}

/* See the work note at the top (set by setup). [instance] */
static bhost_status BHOST_ABI prefill_profile(void *inst, bhost_work_profile *out)
{
    const prefill *p = inst;

    bh_inf_work_profile(&p->b, BHOST_ACCESS_READ, p->bytes, out);
    return BHOST_OK;
}

/* Prompt tokens per prefill. [instance] */
static double BHOST_ABI prefill_items(void *inst)
{
    prefill *p = inst;

    return (double)p->b.batch * p->prompt;
}

const bhost_bench_desc bh_inf_prefill = {
    sizeof(bhost_bench_desc),
    BHOST_BENCH_NEEDS_DEVICE,
    "prefill",
    "Prompt prefill (batch x prompt tokens) to the first token; FLOPs vs "
    "the compute roof",
    prefill_params,
    sizeof(prefill_params) / sizeof(prefill_params[0]),
    0,
    BHOST_CAP_KERNEL_GEMM,
    prefill_create,
    prefill_setup,
    prefill_run,
    prefill_verify,
    prefill_destroy,
    prefill_flops,
    prefill_bytes,
    prefill_items,
    prefill_profile,
};
