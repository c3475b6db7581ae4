// SPDX-License-Identifier: MIT
/*
 * bench_roof.c -- roof.compute: the compute roof of the machine as
 * OpenBLAS sgemm of n x n matrices on all threads (called directly, not
 * through a backend), reported as the metric roof.flops_per_s.
 *
 * Counting: 2 n^3 FLOP per iteration, no bytes: it is a compute ceiling
 * (BHOST_BENCH_CEILING), and a ceiling that declares bytes is taken as a
 * bandwidth (plugin-api/README.md section 6.1); sgemm's 3 n^2 * 4 bytes
 * are not what limits it. Work profile: f32 on its threads, read-write
 * over the three matrices (3 n^2 * 4 bytes). It still reports
 * roof.flops_per_s for readers older than ceilings.
 */
#include "tp.h"

#include <float.h>
#include <string.h>

#if defined(BH_TENSOR_HAVE_BLAS)
#include <cblas.h>
#endif

typedef struct roof_inst {
    bh_tensor_base base; /* no pool: OpenBLAS runs its own threads */
    size_t n;
    float *a, *b, *c;
    bh_tensor_rates rates;
} roof_inst;

static const bhost_param_desc roof_params[] = {
    BH_PARAM_I64("n", "Matrix order (n x n x n sgemm)", "2048", 16, 16384),
    BH_TENSOR_PARAM_THREADS,
};

/* Reads n and threads (nothing left allocated on failure);
 * BHOST_E_UNSUPPORTED when built without OpenBLAS. [instance] */
static bhost_status BHOST_ABI roof_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    roof_inst *r;
    int64_t n;
    bhost_status st;

    (void)be;
    (void)dev;
#if !defined(BH_TENSOR_HAVE_BLAS)
    return bh_tensor_fail(h, BHOST_E_UNSUPPORTED,
                          "roof.compute: built without OpenBLAS");
#endif
    r = bh_tensor_alloc(h, sizeof(*r));
    if (r == NULL)
        return BHOST_E_NOMEM;
    memset(r, 0, sizeof(*r));
    r->base.h = h;
    st = bh_tensor_threads(h, &r->base.threads);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "n", 16, 16384, &n);
    if (st != BHOST_OK) {
        bh_tensor_free(h, r);
        return st;
    }
    *inst = r;
    r->n = (size_t)n;
    r->base.flops = 2.0 * (double)n * (double)n * (double)n;
    r->base.ws = 3.0 * (double)n * (double)n * 4.0;
    r->base.access = BHOST_ACCESS_READ_WRITE;
    r->base.compute = BHOST_COMPUTE_F32;
#if defined(BH_TENSOR_HAVE_BLAS)
    openblas_set_num_threads((int)r->base.threads);
#endif
    return BHOST_OK;
}

/* Random A and B in [-1, 1), C zero. [instance] */
static bhost_status BHOST_ABI roof_setup(void *inst, bhost_stream *s)
{
    roof_inst *r = inst;
    size_t nn = r->n * r->n;
    bhost_status st;

    (void)s;
    if (r->a == NULL)
        r->a = bh_tensor_alloc(r->base.h, nn * 4);
    if (r->b == NULL)
        r->b = bh_tensor_alloc(r->base.h, nn * 4);
    if (r->c == NULL)
        r->c = bh_tensor_alloc(r->base.h, nn * 4);
    if (r->a == NULL || r->b == NULL || r->c == NULL)
        return BHOST_E_NOMEM;
    st = bh_tensor_random(&r->base, r->a, TK_F32, nn, -1, 1, 1);
    if (st == BHOST_OK)
        st = bh_tensor_random(&r->base, r->b, TK_F32, nn, -1, 1, 2);
    memset(r->c, 0, nn * 4);
    return st;
}

/* iterations of C = A B, each call's rate recorded. [instance] */
static bhost_status BHOST_ABI roof_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    roof_inst *r = inst;
    uint64_t t0 = bh_tensor_api->now_ns(r->base.h);

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
#if defined(BH_TENSOR_HAVE_BLAS)
        int n = (int)r->n;

        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                    r->a, n, r->b, n, 0.0f, r->c, n);
#endif
        bhost_clobber_memory();
    }
    bh_rates_add(&r->rates, r->base.flops, iterations,
                 bh_tensor_api->now_ns(r->base.h) - t0);
    return BHOST_OK;
}

/* Freivalds' check of C, then the roof metric. [instance] */
static bhost_status BHOST_ABI roof_verify(void *inst)
{
    roof_inst *r = inst;
    bh_tensor_gemm_view g = {r->a, r->b, r->c, TK_F32, TK_F32, r->n, r->n,
                             r->n, r->n, r->n, r->n, 0, 0, FLT_EPSILON / 2,
                             bh_tensor_api->seed(r->base.h)};
    bhost_status st;

    if (r->c == NULL)
        return bh_tensor_fail(r->base.h, BHOST_E_VERIFY, "roof.compute: verify before setup");
    st = bh_tensor_check_gemm(r->base.h, &g);
    if (st == BHOST_OK)
        bh_plugin_metric(r->base.h, "roof.flops_per_s", "FLOP/s", BHOST_HIGHER_IS_BETTER,
                         bh_rates_median(&r->rates));
    return st;
}

/* Frees the matrices. [instance] */
static void BHOST_ABI roof_destroy(void *inst)
{
    roof_inst *r = inst;
    bhost_host *h = r->base.h;

    bh_tensor_free(h, r->a);
    bh_tensor_free(h, r->b);
    bh_tensor_free(h, r->c);
    bh_tensor_free(h, r);
}

const bhost_bench_desc bh_tensor_roof_compute = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_CEILING,
    .id = "roof.compute",
    .summary = "Compute roof: OpenBLAS sgemm n^3 on all threads; metric "
               "roof.flops_per_s",
    .params = roof_params,
    .param_count = 2,
    .create = roof_create,
    .setup = roof_setup,
    .run = roof_run,
    .verify = roof_verify,
    .destroy = roof_destroy,
    .flops_per_iter = bh_tensor_flops,
    .work_profile = bh_tensor_profile,
};
