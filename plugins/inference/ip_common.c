// SPDX-License-Identifier: MIT
/*
 * ip_common.c -- what the inference benchmarks share: parameter reading,
 * the engine context on the case's backend device with host-accounted
 * memory, model and state construction, latency records, the model /
 * extrapolation metrics and the reference check behind verify()
 * (parameters through plugins/common's typed readers).
 */
#include "ip.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bh_inf_models[] = {
    "gpt2",      "gpt2-medium", "llama-7b",  "llama-13b",  "bert-base",
    "bert-large", "tiny-gpt2",  "tiny-llama", "tiny-bert", NULL,
};
const char *const bh_inf_wtypes[] = {"f32", "bf16", "int8", NULL};
const char *const bh_inf_matvec[] = {"backend", "host", NULL};
const char *const bh_inf_sampling[] = {"greedy", "top_k", "top_p", NULL};

bhost_status bh_inf_engine_fail(ip_base *b, int code, const char *what)
{
    bhost_status st = code == IE_ENOMEM    ? BHOST_E_NOMEM
                      : code == IE_EDEV    ? BHOST_E_DEVICE
                      : code == IE_EUNSUP  ? BHOST_E_UNSUPPORTED
                      : code == IE_EVERIFY ? BHOST_E_VERIFY
                                           : BHOST_E_INVALID;

    return bh_plugin_fail(b->h, st, "%s: %s: %s", b->bench, what, b->ctx.err);
}

bhost_status bh_inf_base_create(ip_base *b, const char *bench, bhost_host *h,
                                const bhost_backend *be, bhost_dev *dev)
{
    char model[32], wtype[16], mv[16];
    int64_t layers, threads, batch;
    bhost_status st;

    memset(b, 0, sizeof(*b));
    b->h = h;
    b->be = be;
    b->dev = dev;
    b->bench = bench;
    if (be == NULL || dev == NULL)
        return bh_plugin_fail(h, BHOST_E_INVALID, "%s: needs a backend device",
                              bench);
    st = bh_plugin_str(h, IP_PREFIX, "model", model, sizeof(model));
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "layers", 0, 256, &layers);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "weights", b->weights, sizeof(b->weights));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "wtype", wtype, sizeof(wtype));
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "matvec", mv, sizeof(mv));
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "threads", 0, 256, &threads);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "batch", 1, 64, &batch);
    if (st != BHOST_OK)
        return st;
    if (ie_preset(model, &b->cfg) != IE_OK)
        return bh_plugin_fail(h, BHOST_E_INVALID, "%s: unknown model '%s'", bench, model);
    if (layers > 0)
        b->cfg.n_layers = (int)layers;
    b->wtype = strcmp(wtype, "bf16") == 0   ? IE_W_BF16
               : strcmp(wtype, "int8") == 0 ? IE_W_I8
                                            : IE_W_F32;
    b->matvec = strcmp(mv, "host") == 0 ? IE_MATVEC_HOST : IE_MATVEC_BACKEND;
    b->threads = threads == 0 ? (int)bh_plugin_cpu_threads() : (int)threads;
    b->batch = (int)batch;
    b->seed = bh_inf_api->seed(h);
    return BHOST_OK;
}

/* Engine host allocations through the host API (accounted). */
static void *host_alloc(void *user, size_t bytes)
{
    ip_base *b = user;

    return bh_inf_api->alloc(b->h, bytes, 64);
}

/* Frees what host_alloc returned. */
static void host_free(void *user, void *p)
{
    ip_base *b = user;

    bh_inf_api->free(b->h, p);
}

/* The host clock. */
static uint64_t host_now(void *user)
{
    ip_base *b = user;

    return bh_inf_api->now_ns(b->h);
}

bhost_status bh_inf_ctx_setup(ip_base *b, bhost_stream *stream)
{
    int rc;

    if (!b->ctx_ready) {
        ie_host_ops ops = {b, host_alloc, host_free, host_now};

        rc = ie_ctx_init(&b->ctx, &ops, b->be, b->dev, stream, b->threads);
        if (rc != IE_OK) {
            ie_ctx_fini(&b->ctx);
            return bh_inf_engine_fail(b, rc, "engine");
        }
        b->ctx_ready = 1;
        b->ctx.matvec = b->matvec;
    }
    b->ctx.stream = stream;
    return BHOST_OK;
}

bhost_status bh_inf_base_setup(ip_base *b, bhost_stream *stream, int slots,
                               int max_ctx, int max_rows)
{
    bhost_status st = bh_inf_ctx_setup(b, stream);

    if (st != BHOST_OK)
        return st;
    if (b->m == NULL) {
        ie_source src = {b->weights, b->seed, 0};

        b->m = ie_model_create(&b->ctx, &b->cfg, b->wtype, &src);
        if (b->m == NULL)
            return bh_inf_engine_fail(b, IE_EINVAL, "model");
        b->cfg = *ie_model_config(b->m); /* a file may refine eps, RoPE */
    }
    b->ctx.stream = stream;
    if (b->s == NULL) {
        if (max_ctx > b->cfg.max_pos)
            return bh_plugin_fail(b->h, BHOST_E_INVALID,
                                  "%s: %d tokens of context exceed %s's %d "
                                  "positions",
                                  b->bench, max_ctx, b->cfg.name, b->cfg.max_pos);
        b->s = ie_state_create(b->m, slots, max_ctx, max_rows);
        if (b->s == NULL)
            return bh_inf_engine_fail(b, IE_ENOMEM, "state");
    }
    return BHOST_OK;
}

void bh_inf_base_destroy(ip_base *b)
{
    ie_state_destroy(b->s);
    ie_model_destroy(b->m);
    if (b->ctx_ready)
        ie_ctx_fini(&b->ctx);
    b->s = NULL;
    b->m = NULL;
    b->ctx_ready = 0;
}

void bh_inf_tokens(const ip_base *b, uint64_t stream, int32_t *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (int32_t)(ie_mix64(b->seed ^ (stream * UINT64_C(0x9E37)) ^
                                    ((uint64_t)i << 20)) %
                           (uint64_t)b->cfg.vocab);
}

int32_t bh_inf_argmax(const ip_base *b, int i)
{
    const float *x = ie_logits(b->s, i);
    int32_t best = 0;

    for (int k = 1; k < b->cfg.vocab; k++)
        if (x[k] > x[best])
            best = k;
    return best;
}

void *bh_inf_alloc(ip_base *b, size_t bytes)
{
    return bh_inf_api->alloc(b->h, bytes ? bytes : 1, 64);
}

void bh_inf_free(ip_base *b, void *p)
{
    if (p != NULL)
        bh_inf_api->free(b->h, p);
}

uint64_t bh_inf_now(const ip_base *b)
{
    return bh_inf_api->now_ns(b->h);
}

void bh_inf_metric(const ip_base *b, const char *name, const char *unit,
                   int higher, double value)
{
    if (value == value)
        bh_plugin_metric(b->h, name, unit, higher ? BHOST_HIGHER_IS_BETTER : BHOST_LOWER_IS_BETTER,
                         value);
}

void bh_inf_info(const ip_base *b, const char *name, const char *unit, double value)
{
    if (value == value)
        bh_plugin_metric_info(b->h, name, unit, value);
}

bhost_status bh_inf_lat_init(ip_base *b, ip_lat *l)
{
    memset(l, 0, sizeof(*l));
    l->v = bh_inf_alloc(b, IP_LAT_CAP * sizeof(double));
    return l->v ? BHOST_OK : bh_plugin_fail(b->h, BHOST_E_NOMEM, "out of memory");
}

void bh_inf_lat_add(ip_lat *l, double ms)
{
    l->v[l->pos] = ms;
    l->pos = (l->pos + 1) % IP_LAT_CAP;
    if (l->n < IP_LAT_CAP)
        l->n++;
}

void bh_inf_lat_free(ip_base *b, ip_lat *l)
{
    bh_inf_free(b, l->v);
    l->v = NULL;
}

void bh_inf_lat_report(ip_base *b, const ip_lat *l, const char *prefix)
{
    static const double qs[] = {50, 90, 95, 99};
    static const char *const names[] = {"p50", "p90", "p95", "p99"};
    double *tmp;
    char name[64];

    if (l->n == 0 || (tmp = bh_inf_alloc(b, (size_t)l->n * sizeof(double))) == NULL)
        return;
    for (int i = 0; i < 4; i++) {
        memcpy(tmp, l->v, (size_t)l->n * sizeof(double));
        snprintf(name, sizeof(name), "%s_%s_ms", prefix, names[i]);
        bh_inf_metric(b, name, "ms", 0, ie_percentile(tmp, l->n, qs[i]));
    }
    bh_inf_free(b, tmp);
}

ie_stats bh_inf_stats_since(const ip_base *b, const ie_stats *before)
{
    ie_stats d = b->ctx.stats;

    d.gemm_ns -= before->gemm_ns;
    d.gemm_calls -= before->gemm_calls;
    d.layer_ns -= before->layer_ns;
    d.layer_runs -= before->layer_runs;
    d.total_ns -= before->total_ns;
    d.forwards -= before->forwards;
    return d;
}

void bh_inf_report_model(ip_base *b, const ie_stats *d, double unit_ms,
                         double tokens, const char *what)
{
    const ie_config *c = &b->cfg;
    double model = (double)ie_model_bytes(b->m);
    double layer = (double)ie_model_layer_bytes(b->m);
    double layer_ms, rest_ms, full_ms, per_fwd;
    char name[64];

    bh_inf_info(b, "model_bytes", "B", model);
    bh_inf_info(b, "kv_cache_bytes", "B", (double)ie_state_kv_bytes(b->s));
    bh_inf_info(b, "layers_run", "", c->n_layers);
    bh_inf_info(b, "layers_full", "", c->n_layers_full);
    bh_inf_info(b, "threads", "", b->threads);
    if (d->forwards == 0 || d->layer_runs == 0 || unit_ms <= 0)
        return;
    /* one unit is unit_ms; per forward: layers + the rest */
    per_fwd = (double)d->total_ns / 1e6 / (double)d->forwards;
    layer_ms = (double)d->layer_ns / 1e6 / (double)d->layer_runs;
    rest_ms = per_fwd - layer_ms * c->n_layers;
    bh_inf_metric(b, "layer_ms", "ms", 0, layer_ms);
    bh_inf_info(b, "gemm_fraction", "", d->total_ns ? (double)d->gemm_ns / (double)d->total_ns : 0);
    if (c->n_layers >= c->n_layers_full)
        return;
    /* scale the unit time by (rest + L_full layers) / (rest + L layers) */
    full_ms = unit_ms * (rest_ms + layer_ms * c->n_layers_full) /
              (rest_ms + layer_ms * c->n_layers);
    snprintf(name, sizeof(name), "extrap_%s_ms", what);
    bh_inf_metric(b, name, "ms", 0, full_ms);
    snprintf(name, sizeof(name), "extrap_%s_tokens_per_s", what);
    bh_inf_metric(b, name, "1/s", 1, tokens / (full_ms / 1e3));
    bh_inf_info(b, "extrap_model_bytes", "B", model + layer * (c->n_layers_full - c->n_layers));
    bh_inf_info(b, "extrap_kv_cache_bytes", "B",
                (double)ie_state_kv_bytes(b->s) * c->n_layers_full / c->n_layers);
}

bhost_status bh_inf_verify_position(ip_base *b, int slot, int pos,
                                    const float *out, double tol)
{
    ie_check res;
    int rc = ie_ref_check(b->s, slot, pos, out,
                          b->seed ^ UINT64_C(0x5EC0), &res);

    if (rc != IE_OK)
        return bh_inf_engine_fail(b, rc, "verify");
    /* Held against the tolerance this check applies (section 6.2). */
    bh_plugin_metric_error(b->h, "verify_out_rel_err", "", res.out_err, tol);
    bh_plugin_metric_error(b->h, "verify_kv_rel_err", "", res.kv_err, tol);
    if (!(res.out_err <= tol) || !(res.kv_err <= tol))
        return bh_plugin_fail(b->h, BHOST_E_VERIFY,
                              "%s: slot %d position %d: %s differ from the "
                              "double-precision reference by %.3g (K/V rows "
                              "%.3g; tolerance %.1g, max |diff| / max |ref|)",
                              b->bench, slot, pos,
                              b->cfg.arch == IE_ARCH_BERT ? "hidden states"
                                                          : "logits",
                              res.out_err, res.kv_err, tol);
    return BHOST_OK;
}

/* See ip.h. */
void bh_inf_work_profile(const ip_base *b, bhost_access access, double working_set_bytes,
                         bhost_work_profile *out)
{
    out->access = access;
    out->compute = b->wtype == IE_W_BF16 ? BHOST_COMPUTE_BF16
                   : b->wtype == IE_W_I8 ? BHOST_COMPUTE_INT8
                                         : BHOST_COMPUTE_F32;
    out->threads = (uint32_t)b->threads;
    out->working_set_bytes = working_set_bytes > 0 ? (uint64_t)working_set_bytes : 0;
}
