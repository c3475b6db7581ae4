// SPDX-License-Identifier: MIT
/*
 * bench_gemm.c -- kernel.gemm: C = op(A) op(B) (alpha 1, beta 0),
 * column-major, through the backend's bhost.kernel.gemm/1; A and B
 * uniform in [-1, 1) from the case seed. Counting: FLOP 2mnk, bytes
 * (mk + kn + mn) x sizeof(dtype) (each matrix once); profile read-write,
 * f32 or f64, the counted bytes. A ceiling: the device's gemm peak of its
 * dtype, which the device's other f32/f64 cases are held against.
 *
 * verify() reads C of the last run and compares every element (every
 * element of up to 16 seeded columns when m n k > 2^27) with a
 * double-precision host product, within (k + 2) u sum_l |a_il| |b_lj|:
 * the worst-case error bound of a k-term dot product in any order (u of
 * the dtype). Unlike tensor/matmul's Freivalds test this gives the
 * element-wise agreement, reported as verify.max_abs_err and
 * verify.err_to_tol.
 */
#include "accel.h"

#include <math.h>
#include <string.h>

typedef struct gemm_inst {
    bh_accel_base base;
    const bhost_kernel_gemm *k;
    bhost_dtype type;
    uint64_t m, n, kk, es;
    uint32_t ta, tb;
    double unit;
    bhost_buf *a, *b, *c;
    void *ha, *hb, *hc;
} gemm_inst;

static const char *const trans[] = {"nn", "nt", "tn", "tt", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_I64("m", "Rows of C", "256", 1, 65536),
    BH_PARAM_I64("n", "Columns of C", "256", 1, 65536),
    BH_PARAM_I64("k", "Inner dimension", "256", 1, 65536),
    BH_PARAM_STR("trans", "op(A), op(B): n = as stored, t = transposed",
                 "nn", trans),
    BH_PARAM_STR("dtype", "Element type", "f32", bh_accel_dtypes),
};

/* Reads the shape and dtype; finds the kernel. [instance] */
static bhost_status BHOST_ABI gemm_create(bhost_host *h,
                                          const bhost_backend *be,
                                          bhost_dev *dev, void **out)
{
    gemm_inst *g = bh_accel_alloc(h, sizeof(*g));
    int64_t m = 0, n = 0, k = 0;
    char tr[4] = "nn";
    bhost_status st;

    if (g == NULL)
        return BHOST_E_NOMEM;
    memset(g, 0, sizeof(*g));
    st = bh_accel_base_init(&g->base, h, be, dev, "kernel.gemm");
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "m", 1, 65536, &m);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "n", 1, 65536, &n);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "k", 1, 65536, &k);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, ACCEL_PREFIX, "trans", tr, sizeof(tr));
    if (st == BHOST_OK)
        st = bh_accel_dtype(h, &g->type, &g->es, &g->unit);
    if (st == BHOST_OK && (double)m * (double)k + (double)k * (double)n +
                                  (double)m * (double)n > 0x1p31)
        st = bh_accel_fail(h, BHOST_E_INVALID,
                           "kernel.gemm: more than 2^31 elements in all");
    if (st == BHOST_OK)
        g->k = bh_accel_kernel(&g->base, BHOST_KERNEL_GEMM, &st);
    if (st != BHOST_OK) {
        bh_accel_free(h, g);
        return st;
    }
    g->m = (uint64_t)m;
    g->n = (uint64_t)n;
    g->kk = (uint64_t)k;
    g->ta = tr[0] == 't';
    g->tb = tr[1] == 't';
    g->base.flops = 2.0 * (double)m * (double)n * (double)k;
    g->base.bytes = ((double)m * (double)k + (double)k * (double)n +
                     (double)m * (double)n) * (double)g->es;
    g->base.items = 1;
    g->base.access = BHOST_ACCESS_READ_WRITE;
    g->base.compute = bh_accel_compute(g->es);
    *out = g;
    return BHOST_OK;
}

/* Device A, B, C; seeded A and B; C zero. [instance] */
static bhost_status BHOST_ABI gemm_setup(void *inst, bhost_stream *s)
{
    gemm_inst *g = inst;
    const bhost_backend *be = g->base.be;
    uint64_t sa = g->m * g->kk * g->es, sb = g->kk * g->n * g->es;
    uint64_t sc = g->m * g->n * g->es;
    bhost_status st = BHOST_OK;

    if (g->ha == NULL) {
        g->ha = bh_accel_alloc(g->base.h, sa);
        g->hb = bh_accel_alloc(g->base.h, sb);
        g->hc = bh_accel_alloc(g->base.h, sc);
        if (g->ha == NULL || g->hb == NULL || g->hc == NULL)
            return BHOST_E_NOMEM;
        st = be->alloc(g->base.dev, sa, BHOST_MEM_DEVICE, &g->a);
        if (st == BHOST_OK)
            st = be->alloc(g->base.dev, sb, BHOST_MEM_DEVICE, &g->b);
        if (st == BHOST_OK)
            st = be->alloc(g->base.dev, sc, BHOST_MEM_DEVICE, &g->c);
        if (st != BHOST_OK)
            return st;
    }
    bh_accel_random(g->base.h, g->ha, g->type, g->m * g->kk, -1, 1, 4);
    bh_accel_random(g->base.h, g->hb, g->type, g->kk * g->n, -1, 1, 5);
    memset(g->hc, 0, (size_t)sc);
    st = be->copy_h2d(g->base.dev, s, g->a, 0, g->ha, sa);
    if (st == BHOST_OK)
        st = be->copy_h2d(g->base.dev, s, g->b, 0, g->hb, sb);
    if (st == BHOST_OK)
        st = be->copy_h2d(g->base.dev, s, g->c, 0, g->hc, sc);
    if (st == BHOST_OK)
        st = be->stream_sync(g->base.dev, s);
    return st;
}

/* iterations products on s. [instance] */
static bhost_status BHOST_ABI gemm_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    gemm_inst *g = inst;
    bhost_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.a_type = a.b_type = a.c_type = a.compute_type = g->type;
    a.trans_a = g->ta;
    a.trans_b = g->tb;
    a.m = g->m;
    a.n = g->n;
    a.k = g->kk;
    a.lda = g->ta ? g->kk : g->m;
    a.ldb = g->tb ? g->n : g->kk;
    a.ldc = g->m;
    a.alpha = 1.0;
    a.beta = 0.0;
    a.a = g->a;
    a.b = g->b;
    a.c = g->c;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st = g->k->run(g->base.dev, s, &a);

        if (st != BHOST_OK)
            return st;
    }
    return BHOST_OK;
}

/* Element (i, l) of op(A) and (l, j) of op(B) as double. */
static double at_a(const gemm_inst *g, uint64_t i, uint64_t l)
{
    return bh_accel_get(g->ha, g->type,
                        g->ta ? l + i * g->kk : i + l * g->m);
}

static double at_b(const gemm_inst *g, uint64_t l, uint64_t j)
{
    return bh_accel_get(g->hb, g->type,
                        g->tb ? j + l * g->n : l + j * g->kk);
}

/* Column j of C against the double reference. */
static void check_column(const gemm_inst *g, uint64_t j, bh_accel_err *e)
{
    for (uint64_t i = 0; i < g->m; i++) {
        double ref = 0, mag = 0;

        for (uint64_t l = 0; l < g->kk; l++) {
            double p = at_a(g, i, l) * at_b(g, l, j);

            ref += p;
            mag += fabs(p);
        }
        bh_accel_err_add(e, i + j * g->m,
                         bh_accel_get(g->hc, g->type, i + j * g->m), ref,
                         ((double)g->kk + 2) * g->unit * mag + 1e-300);
    }
}

/* C of the last run against the host product. */
static bhost_status BHOST_ABI gemm_verify(void *inst)
{
    gemm_inst *g = inst;
    const bhost_backend *be = g->base.be;
    bh_accel_err e;
    bhost_status st = be->device_sync(g->base.dev);

    if (st == BHOST_OK)
        st = be->copy_d2h(g->base.dev, NULL, g->hc, g->c, 0,
                          g->m * g->n * g->es);
    if (st == BHOST_OK)
        st = be->stream_sync(g->base.dev, NULL);
    if (st != BHOST_OK)
        return st;
    memset(&e, 0, sizeof(e));
    if ((double)g->m * (double)g->n * (double)g->kk <= 0x1p27) {
        for (uint64_t j = 0; j < g->n; j++)
            check_column(g, j, &e);
    } else {
        uint64_t s = bh_accel_api->seed(g->base.h) | 1;

        for (int c = 0; c < 16; c++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            check_column(g, s % g->n, &e);
        }
    }
    return bh_accel_err_report(g->base.h, &e, "kernel.gemm");
}

static void BHOST_ABI gemm_destroy(void *inst)
{
    gemm_inst *g = inst;
    const bhost_backend *be = g->base.be;

    if (g->a != NULL)
        be->free(g->base.dev, g->a);
    if (g->b != NULL)
        be->free(g->base.dev, g->b);
    if (g->c != NULL)
        be->free(g->base.dev, g->c);
    bh_accel_free(g->base.h, g->ha);
    bh_accel_free(g->base.h, g->hb);
    bh_accel_free(g->base.h, g->hc);
    bh_accel_free(g->base.h, g);
}

const bhost_bench_desc bh_accel_gemm = {
    .struct_size = sizeof(bhost_bench_desc),
    /* the device's gemm peak of its dtype: a compute ceiling */
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_CEILING,
    .id = "kernel.gemm",
    .summary = "C = op(A) op(B) through the backend's gemm kernel, every "
               "element verified against a double host product",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .required_caps = BHOST_CAP_KERNEL_GEMM,
    .create = gemm_create,
    .setup = gemm_setup,
    .run = gemm_run,
    .verify = gemm_verify,
    .destroy = gemm_destroy,
    .flops_per_iter = bh_accel_flops,
    .bytes_per_iter = bh_accel_bytes,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
