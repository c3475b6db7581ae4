// SPDX-License-Identifier: MIT
/*
 * bench_axpy.c -- kernel.axpy: y = alpha x + y through the backend's
 * bhost.kernel.axpy/1, alpha = 2^-12, x and y0 uniform in [-1, 1) from
 * the case seed. Counting: FLOP 2n, bytes 3n x sizeof(dtype); profile
 * read-write, f32 or f64, the counted bytes.
 *
 * verify(), in two steps:
 *  1. the state after all T timed iterations: |y - (y0 + T alpha x)| <=
 *     2 u T (|y0| + T |alpha x|) per element (the worst-case bound of T
 *     rounded updates): catches kernels that did nothing or wrote garbage;
 *  2. one clean application (y reset to y0, one run, read back) against
 *     the double-precision host reference within 2 u (|alpha x| + |y0|)
 *     (product and sum each rounded once; an FMA rounds once). Its
 *     agreement is reported as verify.max_abs_err and verify.err_to_tol.
 */
#include "accel.h"

#include <math.h>
#include <string.h>

#define ALPHA 0x1p-12

typedef struct axpy_inst {
    bh_accel_base base;
    const bhost_kernel_axpy *k;
    bhost_dtype type;
    uint64_t n, es, total; /* total: iterations run since setup */
    double unit;
    bhost_buf *x, *y;
    void *hx, *hy0, *hy;
} axpy_inst;

static const bhost_param_desc params[] = {
    BH_PARAM_I64("n", "Elements", "1048576", 1, 2147483647.0),
    BH_PARAM_STR("dtype", "Element type", "f32", bh_accel_dtypes),
};

static void BHOST_ABI axpy_destroy(void *inst);

/* Reads n and dtype and finds the kernel. [instance] */
static bhost_status BHOST_ABI axpy_create(bhost_host *h,
                                          const bhost_backend *be,
                                          bhost_dev *dev, void **out)
{
    axpy_inst *a = bh_accel_alloc(h, sizeof(*a));
    int64_t n = 0;
    bhost_status st;

    if (a == NULL)
        return BHOST_E_NOMEM;
    memset(a, 0, sizeof(*a));
    st = bh_accel_base_init(&a->base, h, be, dev, "kernel.axpy");
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "n", 1, INT32_MAX, &n);
    if (st == BHOST_OK)
        st = bh_accel_dtype(h, &a->type, &a->es, &a->unit);
    if (st == BHOST_OK)
        a->k = bh_accel_kernel(&a->base, BHOST_KERNEL_AXPY, &st);
    if (st != BHOST_OK) {
        bh_accel_free(h, a);
        return st;
    }
    a->n = (uint64_t)n;
    a->base.flops = 2.0 * (double)n;
    a->base.bytes = 3.0 * (double)n * (double)a->es;
    a->base.items = (double)n;
    a->base.access = BHOST_ACCESS_READ_WRITE;
    a->base.compute = bh_accel_compute(a->es);
    *out = a;
    return BHOST_OK;
}

/* Device x and y, host copies, uploads. [instance] */
static bhost_status BHOST_ABI axpy_setup(void *inst, bhost_stream *s)
{
    axpy_inst *a = inst;
    const bhost_backend *be = a->base.be;
    uint64_t bytes = a->n * a->es;
    bhost_status st = BHOST_OK;

    if (a->hx == NULL) {
        a->hx = bh_accel_alloc(a->base.h, bytes);
        a->hy0 = bh_accel_alloc(a->base.h, bytes);
        a->hy = bh_accel_alloc(a->base.h, bytes);
        if (a->hx == NULL || a->hy0 == NULL || a->hy == NULL)
            return BHOST_E_NOMEM;
        st = be->alloc(a->base.dev, bytes, BHOST_MEM_DEVICE, &a->x);
        if (st == BHOST_OK)
            st = be->alloc(a->base.dev, bytes, BHOST_MEM_DEVICE, &a->y);
        if (st != BHOST_OK)
            return st;
    }
    bh_accel_random(a->base.h, a->hx, a->type, a->n, -1, 1, 1);
    bh_accel_random(a->base.h, a->hy0, a->type, a->n, -1, 1, 2);
    st = be->copy_h2d(a->base.dev, s, a->x, 0, a->hx, bytes);
    if (st == BHOST_OK)
        st = be->copy_h2d(a->base.dev, s, a->y, 0, a->hy0, bytes);
    if (st == BHOST_OK)
        st = be->stream_sync(a->base.dev, s);
    a->total = 0;
    return st;
}

/* One axpy call with this instance's buffers. */
static bhost_status call(axpy_inst *a, bhost_stream *s)
{
    bhost_axpy_args g;

    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.type = a->type;
    g.n = a->n;
    g.alpha = ALPHA;
    g.x = a->x;
    g.y = a->y;
    return a->k->run(a->base.dev, s, &g);
}

/* iterations updates of y on s. [instance] */
static bhost_status BHOST_ABI axpy_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    axpy_inst *a = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st = call(a, s);

        if (st != BHOST_OK)
            return st;
        a->total++;
    }
    return BHOST_OK;
}

/* Reads y back into a->hy. */
static bhost_status read_y(axpy_inst *a)
{
    bhost_status st = a->base.be->device_sync(a->base.dev);

    if (st == BHOST_OK)
        st = a->base.be->copy_d2h(a->base.dev, NULL, a->hy, a->y, 0,
                                  a->n * a->es);
    if (st == BHOST_OK)
        st = a->base.be->stream_sync(a->base.dev, NULL);
    return st;
}

/* Step 1 (accumulated state) then step 2 (one clean application). */
static bhost_status BHOST_ABI axpy_verify(void *inst)
{
    axpy_inst *a = inst;
    const bhost_backend *be = a->base.be;
    bh_accel_err acc, clean;
    double t = (double)a->total, u = a->unit;
    bhost_status st = read_y(a);

    memset(&acc, 0, sizeof(acc));
    memset(&clean, 0, sizeof(clean));
    for (uint64_t i = 0; st == BHOST_OK && i < a->n; i++) {
        double x = bh_accel_get(a->hx, a->type, i);
        double y0 = bh_accel_get(a->hy0, a->type, i);

        bh_accel_err_add(&acc, i, bh_accel_get(a->hy, a->type, i),
                         y0 + t * ALPHA * x,
                         2 * u * t * (fabs(y0) + t * fabs(ALPHA * x)) + 1e-300);
    }
    if (st == BHOST_OK && !(acc.max_ratio <= 1.0))
        return bh_accel_fail(a->base.h, BHOST_E_VERIFY,
                             "kernel.axpy: after %.0f iterations element %llu "
                             "is %.9g, expected %.9g +- %.3g", t,
                             (unsigned long long)acc.worst, acc.worst_got,
                             acc.worst_ref, acc.worst_tol);
    if (st == BHOST_OK)
        st = be->copy_h2d(a->base.dev, NULL, a->y, 0, a->hy0, a->n * a->es);
    if (st == BHOST_OK)
        st = call(a, NULL);
    if (st == BHOST_OK)
        st = read_y(a);
    for (uint64_t i = 0; st == BHOST_OK && i < a->n; i++) {
        double ax = ALPHA * bh_accel_get(a->hx, a->type, i);
        double y0 = bh_accel_get(a->hy0, a->type, i);

        bh_accel_err_add(&clean, i, bh_accel_get(a->hy, a->type, i), ax + y0,
                         2 * u * (fabs(ax) + fabs(y0)) + 1e-300);
    }
    return st == BHOST_OK ? bh_accel_err_report(a->base.h, &clean, "kernel.axpy")
                          : st;
}

static void BHOST_ABI axpy_destroy(void *inst)
{
    axpy_inst *a = inst;

    if (a->x != NULL)
        a->base.be->free(a->base.dev, a->x);
    if (a->y != NULL)
        a->base.be->free(a->base.dev, a->y);
    bh_accel_free(a->base.h, a->hx);
    bh_accel_free(a->base.h, a->hy0);
    bh_accel_free(a->base.h, a->hy);
    bh_accel_free(a->base.h, a);
}

const bhost_bench_desc bh_accel_axpy = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "kernel.axpy",
    .summary = "y = alpha x + y through the backend's axpy kernel, verified "
               "against a double host reference",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .required_caps = BHOST_CAP_KERNEL_AXPY,
    .create = axpy_create,
    .setup = axpy_setup,
    .run = axpy_run,
    .verify = axpy_verify,
    .destroy = axpy_destroy,
    .flops_per_iter = bh_accel_flops,
    .bytes_per_iter = bh_accel_bytes,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
