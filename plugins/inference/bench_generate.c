// SPDX-License-Identifier: MIT
/*
 * bench_generate.c -- generate: one iteration is one end-to-end request
 * per sequence: prefill a `prompt`-token prompt, then `gen` output tokens
 * (the first from the prefill's logits, the others from decode steps)
 * with greedy, top-k or top-p sampling seeded from the run's seed.
 * Reports time to first token, time per output token, per-token latency
 * percentiles (the gaps between consecutive tokens) and the request
 * latency.
 *
 * Work per iteration: items = batch x gen generated tokens; bytes = the
 * weights once per forward pass (gen passes); FLOPs = the prefill plus
 * every decode step. Work profile: a read stream over the weights, whose
 * bytes (one pass's, bytes / gen) are the working set: every pass reads
 * the same weights again; their type's compute class, the engine's
 * threads.
 *
 * verify(): (1) every iteration generated exactly the same tokens (the
 * samplers restart from the same seed each request), (2) the last step's
 * logits of the first sequence against the double-precision reference of
 * that position (ie_ref_check), tolerance 1e-3.
 */
#include "ip.h"

#include <string.h>

typedef struct generate {
    ip_base b;
    int prompt, gen, mode, top_k;
    double top_p, temp;
    int *slots;
    int32_t *tok, *next, *out, *first_out;
    int have_first, nondet_at;
    ie_sampler *sp;
    void *scratch;
    ip_lat lat;
    double flops, bytes;
} generate;

static const bhost_param_desc generate_params[] = {
    IP_COMMON_PARAMS("gpt2"),
    IP_PARAM(BHOST_PARAM_I64, "prompt", "Prompt tokens per request", "32", 1,
             65536),
    IP_PARAM(BHOST_PARAM_I64, "gen", "Generated tokens per request", "8", 1,
             65536),
    IP_PARAM_STR("sampling", "greedy, top_k or top_p (seeded)", "top_p",
                 bh_inf_sampling),
    IP_PARAM(BHOST_PARAM_I64, "top_k", "top_k: candidates (also a cap for top_p; 0 = none)",
             "40", 0, 1 << 24),
    IP_PARAM(BHOST_PARAM_F64, "top_p", "top_p: probability mass kept", "0.95",
             1e-9, 1),
    IP_PARAM(BHOST_PARAM_F64, "temperature", "Sampling temperature", "0.8",
             1e-3, 100),
};

/* Reads parameters. [instance] */
static bhost_status BHOST_ABI gen_create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **inst)
{
    generate *g = bh_inf_api->alloc(h, sizeof(*g), 64);
    int64_t prompt = 0, gen = 0, top_k = 0;
    char mode[16];
    bhost_status st;

    if (g == NULL)
        return BHOST_E_NOMEM;
    memset(g, 0, sizeof(*g));
    st = bh_inf_base_create(&g->b, "generate", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "prompt", 1, 65536, &prompt);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "gen", 1, 65536, &gen);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "sampling", mode, sizeof(mode));
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "top_k", 0, 1 << 24, &top_k);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, IP_PREFIX, "top_p", 1e-9, 1, &g->top_p);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, IP_PREFIX, "temperature", 1e-3, 100, &g->temp);
    if (st == BHOST_OK && g->b.cfg.arch == IE_ARCH_BERT)
        st = bh_plugin_fail(h, BHOST_E_SKIP, "generate: %s is an encoder",
                            g->b.cfg.name);
    if (st != BHOST_OK) {
        bh_inf_api->free(h, g);
        return st;
    }
    g->prompt = (int)prompt;
    g->gen = (int)gen;
    g->top_k = (int)top_k;
    g->mode = strcmp(mode, "top_k") == 0   ? IE_SAMPLE_TOPK
              : strcmp(mode, "top_p") == 0 ? IE_SAMPLE_TOPP
                                           : IE_SAMPLE_GREEDY;
    *inst = g;
    return BHOST_OK;
}

/* Model, state, prompts, samplers. [instance] */
static bhost_status BHOST_ABI gen_setup(void *inst, bhost_stream *s)
{
    generate *g = inst;
    ip_base *b = &g->b;
    int B = b->batch, P = g->prompt;
    bhost_status st = bh_inf_base_setup(b, s, B, P + g->gen, B * P);
    double keys = B * 0.5 * P * (P + 1.0);

    if (st != BHOST_OK)
        return st;
    if (g->slots == NULL) {
        g->slots = bh_inf_alloc(b, (size_t)B * sizeof(int));
        g->tok = bh_inf_alloc(b, (size_t)B * (size_t)P * sizeof(int32_t));
        g->next = bh_inf_alloc(b, (size_t)B * sizeof(int32_t));
        g->out = bh_inf_alloc(b, (size_t)B * (size_t)g->gen * sizeof(int32_t));
        g->first_out = bh_inf_alloc(b, (size_t)B * (size_t)g->gen * sizeof(int32_t));
        g->sp = bh_inf_alloc(b, (size_t)B * sizeof(ie_sampler));
        g->scratch = bh_inf_alloc(b, ie_sampler_scratch_bytes(b->cfg.vocab));
        if (!g->slots || !g->tok || !g->next || !g->out || !g->first_out ||
            !g->sp || !g->scratch || bh_inf_lat_init(b, &g->lat))
            return bh_plugin_fail(b->h, BHOST_E_NOMEM, "generate: out of memory");
    }
    for (int i = 0; i < B; i++) {
        g->slots[i] = i;
        bh_inf_tokens(b, (uint64_t)i, g->tok + (size_t)i * P, P);
    }
    for (int j = 1; j < g->gen; j++)
        keys += (double)B * (P + j);
    g->flops = ie_flops(&b->cfg, (double)B * (P + g->gen - 1), keys,
                        (double)B * g->gen);
    g->bytes = (double)ie_model_step_bytes(b->m) * g->gen;
    return BHOST_OK;
}

/* Samples the next token of every sequence into g->next and out[:, k]. */
static void sample_all(generate *g, int k)
{
    for (int i = 0; i < g->b.batch; i++) {
        g->next[i] = ie_sample(&g->sp[i], ie_logits(g->b.s, i), g->b.cfg.vocab,
                               g->scratch);
        g->out[(size_t)i * g->gen + k] = g->next[i];
    }
}

/* One request per sequence; *ttft and *e2e in ms. */
static bhost_status request(generate *g, double *ttft, double *e2e)
{
    ip_base *b = &g->b;
    uint64_t t0 = bh_inf_now(b), prev;
    int rc;

    for (int i = 0; i < b->batch; i++) {
        ie_state_truncate(b->s, i, 0);
        ie_sampler_init(&g->sp[i], g->mode, g->top_k, (float)g->top_p,
                        (float)g->temp, b->seed ^ (0xC0FFEEu + (uint64_t)i));
    }
    rc = ie_forward(b->s, g->slots, b->batch, g->tok, g->prompt);
    if (rc != IE_OK)
        return bh_inf_engine_fail(b, rc, "prefill");
    sample_all(g, 0);
    prev = bh_inf_now(b);
    *ttft = (double)(prev - t0) / 1e6;
    for (int k = 1; k < g->gen; k++) {
        uint64_t now;

        rc = ie_forward(b->s, g->slots, b->batch, g->next, 1);
        if (rc != IE_OK)
            return bh_inf_engine_fail(b, rc, "decode");
        sample_all(g, k);
        now = bh_inf_now(b);
        bh_inf_lat_add(&g->lat, (double)(now - prev) / 1e6);
        prev = now;
    }
    *e2e = (double)(prev - t0) / 1e6;
    return BHOST_OK;
}

/* iterations requests. [instance] */
static bhost_status BHOST_ABI gen_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    generate *g = inst;
    ip_base *b = &g->b;
    ie_stats before = b->ctx.stats, d;
    double ttft = 0, e2e = 0, sum_ttft = 0, sum_e2e = 0, n = (double)iterations;
    size_t words = (size_t)b->batch * (size_t)g->gen;

    b->ctx.stream = s;
    for (uint64_t it = 0; it < iterations; it++) {
        bhost_status st = request(g, &ttft, &e2e);

        if (st != BHOST_OK)
            return st;
        sum_ttft += ttft;
        sum_e2e += e2e;
        if (!g->have_first) {
            memcpy(g->first_out, g->out, words * sizeof(int32_t));
            g->have_first = 1;
        } else if (g->nondet_at == 0) {
            for (size_t k = 0; k < words; k++)
                if (g->out[k] != g->first_out[k]) {
                    g->nondet_at = (int)k + 1;
                    break;
                }
        }
    }
    d = bh_inf_stats_since(b, &before);
    ttft = sum_ttft / n;
    e2e = sum_e2e / n;
    bh_inf_metric(b, "ttft_ms", "ms", 0, ttft);
    bh_inf_metric(b, "e2e_ms", "ms", 0, e2e);
    if (g->gen > 1) {
        bh_inf_metric(b, "tpot_ms", "ms", 0, (e2e - ttft) / (g->gen - 1));
        bh_inf_metric(b, "decode_tokens_per_s", "1/s", 1,
                      (double)b->batch * (g->gen - 1) / ((e2e - ttft) / 1e3));
    }
    bh_inf_metric(b, "prefill_tokens_per_s", "1/s", 1,
                  (double)b->batch * g->prompt / (ttft / 1e3));
    bh_inf_metric(b, "tokens_per_s", "1/s", 1,
                  (double)b->batch * g->gen / (e2e / 1e3));
    bh_inf_lat_report(b, &g->lat, "token_latency");
    bh_inf_report_model(b, &d, e2e, (double)b->batch * g->gen, "e2e");
    return BHOST_OK;
}

/* Determinism across iterations, then the reference check. [instance] */
static bhost_status BHOST_ABI gen_verify(void *inst)
{
    generate *g = inst;
    ip_base *b = &g->b;

    if (!g->have_first)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY, "generate: nothing ran");
    if (g->nondet_at != 0)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY,
                              "generate: token %d of sequence %d differed "
                              "between requests with the same seed",
                              (g->nondet_at - 1) % g->gen,
                              (g->nondet_at - 1) / g->gen);
    bh_inf_info(b, "deterministic", "", 1);
    return bh_inf_verify_position(b, 0, ie_state_len(b->s, 0) - 1,
                                  ie_logits(b->s, 0), 1e-3);
}

/* Frees everything the instance holds. [instance] */
static void BHOST_ABI gen_destroy(void *inst)
{
    generate *g = inst;
    bhost_host *h = g->b.h;
    ip_base *b = &g->b;

    bh_inf_lat_free(b, &g->lat);
    bh_inf_free(b, g->slots);
    bh_inf_free(b, g->tok);
    bh_inf_free(b, g->next);
    bh_inf_free(b, g->out);
    bh_inf_free(b, g->first_out);
    bh_inf_free(b, g->sp);
    bh_inf_free(b, g->scratch);
    bh_inf_base_destroy(b);
    bh_inf_api->free(h, g);
}

/* FLOPs of one request (set by setup). [instance] */
static double BHOST_ABI gen_flops(void *inst)
{
    return ((generate *)inst)->flops;
}

/* Weight bytes of one request (set by setup). [instance] */
static double BHOST_ABI gen_bytes(void *inst)
{
    return ((generate *)inst)->bytes;
}

/* See the work note at the top (set by setup). [instance] */
static bhost_status BHOST_ABI gen_profile(void *inst, bhost_work_profile *out)
{
    const generate *g = inst;

    bh_inf_work_profile(&g->b, BHOST_ACCESS_READ, g->gen > 0 ? g->bytes / g->gen : 0, out);
    return BHOST_OK;
}

/* Generated tokens per request. [instance] */
static double BHOST_ABI gen_items(void *inst)
{
    generate *g = inst;

    return (double)g->b.batch * g->gen;
}

const bhost_bench_desc bh_inf_generate = {
    sizeof(bhost_bench_desc),
    BHOST_BENCH_NEEDS_DEVICE,
    "generate",
    "End-to-end requests: prefill + sampled generation; TTFT, TPOT, "
    "per-token latency percentiles",
    generate_params,
    sizeof(generate_params) / sizeof(generate_params[0]),
    0,
    BHOST_CAP_KERNEL_GEMM,
    gen_create,
    gen_setup,
    gen_run,
    gen_verify,
    gen_destroy,
    gen_flops,
    gen_bytes,
    gen_items,
    gen_profile,
};
