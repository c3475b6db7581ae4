// SPDX-License-Identifier: MIT
/*
 * bench_multi.c -- multi.axpy: multi-device scaling. The case's device and
 * every other device of the backend (opened here) each run one f32 axpy
 * of n elements per iteration, enqueued on all before any is synced; host
 * clock (manual timing). Skipped with one device. Counting: FLOP 2n and
 * bytes 12n per device; profile read-write f32 over the counted bytes. verify() times R iterations on the case's device
 * alone and on all devices, reports multi.devices and
 * multi.scaling_efficiency = (all-device rate) / (devices x one-device
 * rate), then checks every device's y once against the host reference
 * after a clean application.
 */
#include "accel.h"

#include <math.h>
#include <string.h>

#define MAX_DEVS 16u
#define ALPHA 0x1p-12

typedef struct multi_inst {
    bh_accel_base base;
    const bhost_kernel_axpy *k[MAX_DEVS];
    bhost_dev *dev[MAX_DEVS]; /* [0] is the case's device */
    bhost_buf *x[MAX_DEVS], *y[MAX_DEVS];
    uint32_t ndev;
    uint32_t own; /* index of the case's device */
    uint64_t n;
    float *hx, *hy0, *hy;
} multi_inst;

static const bhost_param_desc params[] = {
    BH_PARAM_I64("n", "f32 elements per device", "4194304", 1,
                 2147483647.0),
};

static void BHOST_ABI multi_destroy(void *inst);

/* Counts the devices (skipped below two) and opens the others. */
static bhost_status open_all(multi_inst *m, uint32_t count)
{
    const bhost_backend *be = m->base.be;
    bhost_status st = BHOST_OK;

    for (uint32_t i = 0; i < count && m->ndev < MAX_DEVS && st == BHOST_OK;
         i++) {
        if (i == m->own)
            continue;
        st = be->open(i, m->base.h, &m->dev[m->ndev]);
        if (st == BHOST_OK) {
            m->k[m->ndev] = be->get_kernel(m->dev[m->ndev], BHOST_KERNEL_AXPY);
            m->ndev++;
            if (m->k[m->ndev - 1] == NULL)
                st = bh_accel_fail(m->base.h, BHOST_E_UNSUPPORTED,
                                   "multi.axpy: device %u has no axpy kernel",
                                   i);
        }
    }
    return st;
}

/* Reads n; opens every other device of the backend. [instance] */
static bhost_status BHOST_ABI multi_create(bhost_host *h,
                                           const bhost_backend *be,
                                           bhost_dev *dev, void **out)
{
    multi_inst *m = bh_accel_alloc(h, sizeof(*m));
    const bhost_ext_device_index *ext;
    int64_t n = 0;
    uint32_t count = 0;
    bhost_status st;

    if (m == NULL)
        return BHOST_E_NOMEM;
    memset(m, 0, sizeof(*m));
    st = bh_accel_base_init(&m->base, h, be, dev, "multi.axpy");
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, ACCEL_PREFIX, "n", 1, INT32_MAX, &n);
    if (st == BHOST_OK)
        m->k[0] = bh_accel_kernel(&m->base, BHOST_KERNEL_AXPY, &st);
    if (st == BHOST_OK && (be->device_count(&count) != BHOST_OK || count < 2))
        st = bh_accel_fail(h, BHOST_E_SKIP,
                           "multi.axpy: backend '%s' has %u device(s); "
                           "scaling needs two or more", be->id, count);
    if (st == BHOST_OK) {
        ext = be->get_kernel(dev, BHOST_EXT_DEVICE_INDEX);
        m->own = ext != NULL && ext->index != NULL ? ext->index(dev) : 0;
        m->dev[0] = dev;
        m->ndev = 1;
        m->n = (uint64_t)n;
        st = open_all(m, count);
    }
    if (st != BHOST_OK) {
        multi_destroy(m);
        return st;
    }
    m->base.flops = 2.0 * (double)n * m->ndev;
    m->base.bytes = 12.0 * (double)n * m->ndev;
    m->base.items = (double)n * m->ndev;
    m->base.access = BHOST_ACCESS_READ_WRITE;
    m->base.compute = BHOST_COMPUTE_F32;
    *out = m;
    return BHOST_OK;
}

/* x and y0 on every device. [instance] */
static bhost_status BHOST_ABI multi_setup(void *inst, bhost_stream *s)
{
    multi_inst *m = inst;
    const bhost_backend *be = m->base.be;
    uint64_t bytes = m->n * sizeof(float);
    bhost_status st = BHOST_OK;

    if (m->hx == NULL) {
        m->hx = bh_accel_alloc(m->base.h, bytes);
        m->hy0 = bh_accel_alloc(m->base.h, bytes);
        m->hy = bh_accel_alloc(m->base.h, bytes);
        if (m->hx == NULL || m->hy0 == NULL || m->hy == NULL)
            return BHOST_E_NOMEM;
        bh_accel_random(m->base.h, m->hx, BHOST_DTYPE_F32, m->n, -1, 1, 6);
        bh_accel_random(m->base.h, m->hy0, BHOST_DTYPE_F32, m->n, -1, 1, 7);
    }
    for (uint32_t d = 0; d < m->ndev && st == BHOST_OK; d++) {
        bhost_stream *ds = d == 0 ? s : NULL;

        if (m->x[d] == NULL)
            st = be->alloc(m->dev[d], bytes, BHOST_MEM_DEVICE, &m->x[d]);
        if (st == BHOST_OK && m->y[d] == NULL)
            st = be->alloc(m->dev[d], bytes, BHOST_MEM_DEVICE, &m->y[d]);
        if (st == BHOST_OK)
            st = be->copy_h2d(m->dev[d], ds, m->x[d], 0, m->hx, bytes);
        if (st == BHOST_OK)
            st = be->copy_h2d(m->dev[d], ds, m->y[d], 0, m->hy0, bytes);
        if (st == BHOST_OK)
            st = be->stream_sync(m->dev[d], ds);
    }
    return st;
}

/* iterations rounds over the first ndev devices, then a sync of each. */
static bhost_status rounds(multi_inst *m, bhost_stream *s, uint32_t ndev,
                           uint64_t iterations)
{
    bhost_axpy_args a;
    bhost_status st = BHOST_OK;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = m->n;
    a.alpha = ALPHA;
    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++)
        for (uint32_t d = 0; d < ndev && st == BHOST_OK; d++) {
            a.x = m->x[d];
            a.y = m->y[d];
            st = m->k[d]->run(m->dev[d], d == 0 ? s : NULL, &a);
        }
    for (uint32_t d = 0; d < ndev && st == BHOST_OK; d++)
        st = m->base.be->stream_sync(m->dev[d], d == 0 ? s : NULL);
    return st;
}

/* iterations rounds on every device; wall time. [instance] */
static bhost_status BHOST_ABI multi_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    multi_inst *m = inst;
    uint64_t t0 = bh_accel_api->now_ns(m->base.h);
    bhost_status st = rounds(m, s, m->ndev, iterations);

    return st == BHOST_OK ? bh_accel_manual(m->base.h, t0) : st;
}

/* Scaling metrics, then one clean application checked on every device. */
static bhost_status BHOST_ABI multi_verify(void *inst)
{
    multi_inst *m = inst;
    const bhost_backend *be = m->base.be;
    uint64_t bytes = m->n * sizeof(float), t0, t1, t2;
    bh_accel_err e;
    bhost_status st;

    t0 = bh_accel_api->now_ns(m->base.h);
    st = rounds(m, NULL, 1, 8);
    t1 = bh_accel_api->now_ns(m->base.h);
    if (st == BHOST_OK)
        st = rounds(m, NULL, m->ndev, 8);
    t2 = bh_accel_api->now_ns(m->base.h);
    if (st == BHOST_OK && t2 > t1 && t1 > t0) {
        bh_plugin_metric_info(m->base.h, "multi.devices", "", m->ndev);
        bh_plugin_metric(m->base.h, "multi.scaling_efficiency", "", BHOST_HIGHER_IS_BETTER,
                         (double)(t1 - t0) / (double)(t2 - t1)); /* same work per device */
    }
    memset(&e, 0, sizeof(e));
    for (uint32_t d = 0; d < m->ndev && st == BHOST_OK; d++) {
        st = be->copy_h2d(m->dev[d], NULL, m->y[d], 0, m->hy0, bytes);
        if (st == BHOST_OK) {
            bhost_axpy_args a;

            memset(&a, 0, sizeof(a));
            a.struct_size = sizeof(a);
            a.type = BHOST_DTYPE_F32;
            a.n = m->n;
            a.alpha = ALPHA;
            a.x = m->x[d];
            a.y = m->y[d];
            st = m->k[d]->run(m->dev[d], NULL, &a);
        }
        if (st == BHOST_OK)
            st = be->copy_d2h(m->dev[d], NULL, m->hy, m->y[d], 0, bytes);
        if (st == BHOST_OK)
            st = be->stream_sync(m->dev[d], NULL);
        for (uint64_t i = 0; st == BHOST_OK && i < m->n; i++) {
            double ax = ALPHA * m->hx[i], y0 = m->hy0[i];

            bh_accel_err_add(&e, i, m->hy[i], ax + y0,
                             2 * 0x1p-24 * (fabs(ax) + fabs(y0)) + 1e-300);
        }
    }
    return st == BHOST_OK ? bh_accel_err_report(m->base.h, &e, "multi.axpy")
                          : st;
}

static void BHOST_ABI multi_destroy(void *inst)
{
    multi_inst *m = inst;
    const bhost_backend *be = m->base.be;

    for (uint32_t d = 0; be != NULL && d < m->ndev; d++) {
        if (m->x[d] != NULL)
            be->free(m->dev[d], m->x[d]);
        if (m->y[d] != NULL)
            be->free(m->dev[d], m->y[d]);
        if (d > 0)
            be->close(m->dev[d]);
    }
    bh_accel_free(m->base.h, m->hx);
    bh_accel_free(m->base.h, m->hy0);
    bh_accel_free(m->base.h, m->hy);
    bh_accel_free(m->base.h, m);
}

const bhost_bench_desc bh_accel_multi = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "multi.axpy",
    .summary = "Multi-device scaling: axpy on every device of the backend at "
               "once (skipped with one device)",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .required_caps = BHOST_CAP_KERNEL_AXPY,
    .create = multi_create,
    .setup = multi_setup,
    .run = multi_run,
    .verify = multi_verify,
    .destroy = multi_destroy,
    .flops_per_iter = bh_accel_flops,
    .bytes_per_iter = bh_accel_bytes,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
