// SPDX-License-Identifier: MIT
/*
 * bench_roof.c -- roof.bandwidth: the STREAM triad a = b + s c (f64, all
 * threads, arrays well beyond the last-level cache) measured in the same
 * run as the optimizer cases, reported as the metric
 * roof.bandwidth_bytes_per_s from which the host computes every case's
 * fraction of the bandwidth roof.
 *
 * Counting (STREAM's convention): 24 B per element (read b and c, write
 * a; the write-allocate read of a is not counted), 2 FLOP per element.
 * A ceiling (BHOST_BENCH_CEILING): its work profile (read-write, f64, its
 * threads, the three arrays) places it at its working set's level; the
 * metric stays for readers older than ceilings.
 */
#include "op.h"

#include <stdlib.h>
#include <string.h>

#define B0 2.0
#define C0 0.5
#define S 3.0

typedef struct roof_inst {
    bhost_host *h;
    unsigned threads;
    int reserved;
    opt_pool *pool;
    size_t n;
    double *a, *b, *c;
    bh_optim_rates rates;
} roof_inst;

static const bhost_param_desc roof_params[] = {
    BH_OPTIM_P(BHOST_PARAM_I64, "elements", "Doubles per array (3 arrays); "
               "keep each array >= 4x the last-level cache", "20971520", 1024,
               1 << 30, NULL),
    BH_OPTIM_P(BHOST_PARAM_I64, "threads", "Worker threads; 0 = all", "0", 0,
               256, NULL),
    BH_OPTIM_P(BHOST_PARAM_STR, "isa", "auto, portable, avx2 or avx512",
               "auto", 1, 0, bh_optim_isa_choices),
};

/* Reads elements, threads and isa. [instance] */
static bhost_status BHOST_ABI roof_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    roof_inst *r = calloc(1, sizeof(*r));
    int64_t n;
    bhost_status st;

    (void)be;
    (void)dev;
    if (r == NULL)
        return bh_optim_fail(h, BHOST_E_NOMEM, "out of memory");
    r->h = h;
    st = bh_optim_threads_isa(h, &r->threads);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, BH_OPTIM_PREFIX, "elements", 1024, 1 << 30, &n);
    if (st != BHOST_OK) {
        free(r);
        return st;
    }
    r->n = (size_t)n;
    *inst = r;
    return BHOST_OK;
}

typedef struct init_ctx {
    roof_inst *r;
} init_ctx;

/* First touch of each thread's share, from the thread that streams it. */
static void init_task(void *arg, unsigned tid, unsigned nthreads)
{
    roof_inst *r = ((init_ctx *)arg)->r;
    size_t b, e;

    bh_split(r->n, 8, tid, nthreads, &b, &e);
    for (size_t i = b; i < e; i++) {
        r->a[i] = 0;
        r->b[i] = B0;
        r->c[i] = C0;
    }
}

/* Starts the pool and allocates the arrays. [instance] */
static bhost_status BHOST_ABI roof_setup(void *inst, bhost_stream *s)
{
    roof_inst *r = inst;
    init_ctx x = {r};

    (void)s;
    if (r->a != NULL)
        return BHOST_OK;
    if (r->threads > 1 && (r->pool = opt_pool_create(r->threads)) == NULL)
        return bh_optim_fail(r->h, BHOST_E_NOMEM, "cannot start threads");
    r->a = bh_optim_alloc(r->h, r->n * sizeof(double));
    r->b = bh_optim_alloc(r->h, r->n * sizeof(double));
    r->c = bh_optim_alloc(r->h, r->n * sizeof(double));
    if (r->a == NULL || r->b == NULL || r->c == NULL)
        return BHOST_E_NOMEM;
    opt_pool_run(r->pool, r->n, init_task, &x);
    return BHOST_OK;
}

/* iterations triads; each call's rate is recorded. [instance] */
static bhost_status BHOST_ABI roof_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    roof_inst *r = inst;
    uint64_t t0 = bh_optim_api->now_ns(r->h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        opt_triad(r->a, r->b, r->c, S, r->n, r->pool);
        bhost_clobber_memory();
    }
    bh_rates_add(&r->rates, 24.0 * (double)r->n, iterations, bh_optim_api->now_ns(r->h) - t0);
    return BHOST_OK;
}

/* a must hold b + s c everywhere; then the roof metric. [instance] */
static bhost_status BHOST_ABI roof_verify(void *inst)
{
    roof_inst *r = inst;

    if (r->a == NULL)
        return bh_optim_fail(r->h, BHOST_E_VERIFY, "verify before setup");
    for (size_t i = 0; i < r->n; i++)
        if (r->a[i] != B0 + S * C0)
            return bh_optim_fail(r->h, BHOST_E_VERIFY, "triad a[%zu] = %g, want %g",
                                 i, r->a[i], B0 + S * C0);
    bh_plugin_metric(r->h, "roof.bandwidth_bytes_per_s", "B/s", BHOST_HIGHER_IS_BETTER,
                     bh_rates_median(&r->rates));
    return BHOST_OK;
}

/* Joins the pool and frees the arrays. [instance] */
static void BHOST_ABI roof_destroy(void *inst)
{
    roof_inst *r = inst;

    opt_pool_destroy(r->pool);
    bh_optim_free(r->h, r->a);
    bh_optim_free(r->h, r->b);
    bh_optim_free(r->h, r->c);
    free(r);
}

/* 24 bytes per element (STREAM's count). */
static double BHOST_ABI roof_bytes(void *inst)
{
    return 24.0 * (double)((roof_inst *)inst)->n;
}

/* 2 FLOP per element. */
static double BHOST_ABI roof_flops(void *inst)
{
    return 2.0 * (double)((roof_inst *)inst)->n;
}

/* Read-write over the three arrays, f64, the pool's threads. [instance] */
static bhost_status BHOST_ABI roof_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F64,
                             ((roof_inst *)inst)->threads, roof_bytes(inst));
}

const bhost_bench_desc bh_optim_roof = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_CEILING,
    .id = "roof.bandwidth",
    .summary = "Bandwidth roof: STREAM triad on all threads; metric "
               "roof.bandwidth_bytes_per_s",
    .params = roof_params,
    .param_count = 3,
    .create = roof_create,
    .setup = roof_setup,
    .run = roof_run,
    .verify = roof_verify,
    .destroy = roof_destroy,
    .flops_per_iter = roof_flops,
    .bytes_per_iter = roof_bytes,
    .work_profile = roof_profile,
};
