// SPDX-License-Identifier: MIT
/*
 * bench_reduce.c -- kernel.reduce: result = sum, min or max of x[0..n)
 * through the backend's bhost.kernel.reduce/1, x uniform in [-1, 1) from
 * the case seed. Counting: FLOP n (one add or comparison per element),
 * bytes (n + 1) x sizeof(dtype); profile read, f32 or f64, the counted
 * bytes.
 *
 * verify() reads the result of the last run and compares it with a
 * double-precision host reference: min and max exactly; the sum within
 * (ceil(sqrt(n)) + 2 ceil(log2 n) + 8) u sum|x|, the worst-case bound of
 * any blocked summation whose serial runs are at most sqrt(n) long
 * followed by tree or blocked combining (GPU grid-stride + workgroup
 * trees, the CPU backend's lanes). The agreement is reported as
 * verify.max_abs_err and verify.err_to_tol.
 */
#include "accel.h"

#include <math.h>
#include <string.h>

typedef struct red_inst {
    bh_accel_base base;
    const bhost_kernel_reduce *k;
    bhost_dtype type;
    bhost_reduce_op op;
    uint64_t n, es;
    double unit;
    bhost_buf *x, *r;
    void *hx;
    double got[1]; /* room for one F64 result */
} red_inst;

static const char *const ops[] = {"sum", "min", "max", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_I64("n", "Elements", "1048576", 1, 2147483647.0),
    BH_PARAM_STR("op", "Reduction", "sum", ops),
    BH_PARAM_STR("dtype", "Element type", "f32", bh_accel_dtypes),
};

/* Reads n, op and dtype; finds the kernel. [instance] */
static bhost_status BHOST_ABI red_create(bhost_host *h,
                                         const bhost_backend *be,
                                         bhost_dev *dev, void **out)
{
    red_inst *r = bh_accel_alloc(h, sizeof(*r));
    int64_t n = 0;
    char op[8] = "sum";
    bhost_status st;

    if (r == NULL)
        return BHOST_E_NOMEM;
    memset(r, 0, sizeof(*r));
    st = bh_accel_base_init(&r->base, h, be, dev, "kernel.reduce");
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "n", 1, INT32_MAX, &n);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, ACCEL_PREFIX, "op", op, sizeof(op));
    if (st == BHOST_OK)
        st = bh_accel_dtype(h, &r->type, &r->es, &r->unit);
    if (st == BHOST_OK)
        r->k = bh_accel_kernel(&r->base, BHOST_KERNEL_REDUCE, &st);
    if (st != BHOST_OK) {
        bh_accel_free(h, r);
        return st;
    }
    r->op = strcmp(op, "min") == 0   ? BHOST_REDUCE_MIN
            : strcmp(op, "max") == 0 ? BHOST_REDUCE_MAX
                                     : BHOST_REDUCE_SUM;
    r->n = (uint64_t)n;
    r->base.flops = (double)n;
    r->base.bytes = (double)(n + 1) * (double)r->es;
    r->base.items = (double)n;
    r->base.access = BHOST_ACCESS_READ;
    r->base.compute = bh_accel_compute(r->es);
    *out = r;
    return BHOST_OK;
}

/* Device x and result, seeded input, upload. [instance] */
static bhost_status BHOST_ABI red_setup(void *inst, bhost_stream *s)
{
    red_inst *r = inst;
    const bhost_backend *be = r->base.be;
    bhost_status st = BHOST_OK;

    if (r->hx == NULL) {
        r->hx = bh_accel_alloc(r->base.h, r->n * r->es);
        if (r->hx == NULL)
            return BHOST_E_NOMEM;
        st = be->alloc(r->base.dev, r->n * r->es, BHOST_MEM_DEVICE, &r->x);
        if (st == BHOST_OK)
            st = be->alloc(r->base.dev, r->es, BHOST_MEM_DEVICE, &r->r);
        if (st != BHOST_OK)
            return st;
    }
    bh_accel_random(r->base.h, r->hx, r->type, r->n, -1, 1, 3);
    st = be->copy_h2d(r->base.dev, s, r->x, 0, r->hx, r->n * r->es);
    if (st == BHOST_OK)
        st = be->stream_sync(r->base.dev, s);
    return st;
}

/* iterations reductions on s. [instance] */
static bhost_status BHOST_ABI red_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    red_inst *r = inst;
    bhost_reduce_args g;

    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.type = r->type;
    g.op = r->op;
    g.n = r->n;
    g.x = r->x;
    g.result = r->r;
    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st = r->k->run(r->base.dev, s, &g);

        if (st != BHOST_OK)
            return st;
    }
    return BHOST_OK;
}

/* The result of the last run against the double host reference. */
static bhost_status BHOST_ABI red_verify(void *inst)
{
    red_inst *r = inst;
    const bhost_backend *be = r->base.be;
    double ref = 0, mag = 0, tol = 1e-300;
    bh_accel_err e;
    bhost_status st = be->device_sync(r->base.dev);

    if (st == BHOST_OK)
        st = be->copy_d2h(r->base.dev, NULL, r->got, r->r, 0, r->es);
    if (st == BHOST_OK)
        st = be->stream_sync(r->base.dev, NULL);
    if (st != BHOST_OK)
        return st;
    ref = bh_accel_get(r->hx, r->type, 0);
    if (r->op == BHOST_REDUCE_SUM)
        ref = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        double v = bh_accel_get(r->hx, r->type, i);

        if (r->op == BHOST_REDUCE_SUM) {
            ref += v;
            mag += fabs(v);
        } else if (r->op == BHOST_REDUCE_MIN ? v < ref : v > ref) {
            ref = v;
        }
    }
    if (r->op == BHOST_REDUCE_SUM)
        tol = (ceil(sqrt((double)r->n)) + 2 * ceil(log2((double)r->n)) + 8) *
                  r->unit * mag +
              1e-300;
    memset(&e, 0, sizeof(e));
    bh_accel_err_add(&e, 0, bh_accel_get(r->got, r->type, 0), ref, tol);
    return bh_accel_err_report(r->base.h, &e, "kernel.reduce");
}

static void BHOST_ABI red_destroy(void *inst)
{
    red_inst *r = inst;

    if (r->x != NULL)
        r->base.be->free(r->base.dev, r->x);
    if (r->r != NULL)
        r->base.be->free(r->base.dev, r->r);
    bh_accel_free(r->base.h, r->hx);
    bh_accel_free(r->base.h, r);
}

const bhost_bench_desc bh_accel_reduce = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "kernel.reduce",
    .summary = "sum/min/max of x through the backend's reduce kernel, "
               "verified against a double host reference",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .required_caps = BHOST_CAP_KERNEL_REDUCE,
    .create = red_create,
    .setup = red_setup,
    .run = red_run,
    .verify = red_verify,
    .destroy = red_destroy,
    .flops_per_iter = bh_accel_flops,
    .bytes_per_iter = bh_accel_bytes,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
