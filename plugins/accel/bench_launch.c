// SPDX-License-Identifier: MIT
/*
 * bench_launch.c -- launch.latency: one tiny kernel (axpy over a single
 * f32 element, y += 1 * x with x = 1) per iteration, timed with the host
 * clock (manual timing). mode async: enqueue every launch, then one
 * stream_sync (the cost of a launch in a full queue); mode sync: launch
 * and stream_sync each time (the round trip a dependent launch sees).
 * Counting: items = launches; no bytes or FLOPs (the element is not
 * traffic worth a ceiling). A ceiling (BHOST_BENCH_CEILING) without bytes
 * or FLOPs: its median time per launch is the device's per-call latency
 * floor. Work profile: no stream, no compute class. verify() checks
 * y == min(T, 2^24) exactly after T launches (f32 saturates at 2^24):
 * every launch ran.
 */
#include "accel.h"

#include <string.h>

typedef struct launch_inst {
    bh_accel_base base;
    const bhost_kernel_axpy *k;
    int sync;
    uint64_t total;
    bhost_buf *x, *y;
} launch_inst;

static const char *const modes[] = {"async", "sync", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_STR("mode", "async: sync once per sample; sync: after "
                         "every launch",
                 "async", modes),
};

/* Reads mode, finds the axpy kernel. [instance] */
static bhost_status BHOST_ABI launch_create(bhost_host *h,
                                            const bhost_backend *be,
                                            bhost_dev *dev, void **out)
{
    launch_inst *l = bh_accel_alloc(h, sizeof(*l));
    char mode[8] = "async";
    bhost_status st;

    if (l == NULL)
        return BHOST_E_NOMEM;
    memset(l, 0, sizeof(*l));
    st = bh_accel_base_init(&l->base, h, be, dev, "launch.latency");
    if (st == BHOST_OK)
        st = bh_plugin_str(h, ACCEL_PREFIX, "mode", mode, sizeof(mode));
    if (st == BHOST_OK)
        l->k = bh_accel_kernel(&l->base, BHOST_KERNEL_AXPY, &st);
    if (st != BHOST_OK) {
        bh_accel_free(h, l);
        return st;
    }
    l->sync = strcmp(mode, "sync") == 0;
    l->base.items = 1;
    *out = l;
    return BHOST_OK;
}

/* x = 1, y = 0 on the device. [instance] */
static bhost_status BHOST_ABI launch_setup(void *inst, bhost_stream *s)
{
    launch_inst *l = inst;
    const bhost_backend *be = l->base.be;
    float one = 1.0f, zero = 0.0f;
    bhost_status st = BHOST_OK;

    if (l->x == NULL) {
        st = be->alloc(l->base.dev, sizeof(float), BHOST_MEM_DEVICE, &l->x);
        if (st == BHOST_OK)
            st = be->alloc(l->base.dev, sizeof(float), BHOST_MEM_DEVICE, &l->y);
    }
    if (st == BHOST_OK)
        st = be->copy_h2d(l->base.dev, s, l->x, 0, &one, sizeof(one));
    if (st == BHOST_OK)
        st = be->copy_h2d(l->base.dev, s, l->y, 0, &zero, sizeof(zero));
    if (st == BHOST_OK)
        st = be->stream_sync(l->base.dev, s);
    l->total = 0;
    return st;
}

/* iterations launches; wall time. [instance] */
static bhost_status BHOST_ABI launch_run(void *inst, bhost_stream *s,
                                         uint64_t iterations)
{
    launch_inst *l = inst;
    const bhost_backend *be = l->base.be;
    bhost_axpy_args a;
    uint64_t t0 = bh_accel_api->now_ns(l->base.h);
    bhost_status st = BHOST_OK;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = 1;
    a.alpha = 1.0;
    a.x = l->x;
    a.y = l->y;
    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++) {
        st = l->k->run(l->base.dev, s, &a);
        if (st == BHOST_OK && l->sync)
            st = be->stream_sync(l->base.dev, s);
        l->total += st == BHOST_OK;
    }
    if (st == BHOST_OK && !l->sync)
        st = be->stream_sync(l->base.dev, s);
    return st == BHOST_OK ? bh_accel_manual(l->base.h, t0) : st;
}

/* y must equal the launch count (saturating at 2^24 in f32). */
static bhost_status BHOST_ABI launch_verify(void *inst)
{
    launch_inst *l = inst;
    const bhost_backend *be = l->base.be;
    float y = -1.0f;
    double want = l->total < (UINT64_C(1) << 24) ? (double)l->total : 0x1p24;
    bhost_status st = be->device_sync(l->base.dev);

    if (st == BHOST_OK)
        st = be->copy_d2h(l->base.dev, NULL, &y, l->y, 0, sizeof(y));
    if (st == BHOST_OK)
        st = be->stream_sync(l->base.dev, NULL);
    if (st == BHOST_OK && (double)y != want)
        st = bh_accel_fail(l->base.h, BHOST_E_VERIFY,
                           "launch.latency: y = %.9g after %llu launches of "
                           "y += x (x = 1): some launches did not run",
                           (double)y, (unsigned long long)l->total);
    return st;
}

static void BHOST_ABI launch_destroy(void *inst)
{
    launch_inst *l = inst;

    if (l->x != NULL)
        l->base.be->free(l->base.dev, l->x);
    if (l->y != NULL)
        l->base.be->free(l->base.dev, l->y);
    bh_accel_free(l->base.h, l);
}

const bhost_bench_desc bh_accel_launch = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING | BHOST_BENCH_CEILING,
    .id = "launch.latency",
    .summary = "Kernel launch latency: a one-element kernel per iteration, "
               "queued (async) or synced each time (sync)",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .required_caps = BHOST_CAP_KERNEL_AXPY,
    .create = launch_create,
    .setup = launch_setup,
    .run = launch_run,
    .verify = launch_verify,
    .destroy = launch_destroy,
    .items_per_iter = bh_accel_items,
    .work_profile = bh_accel_profile,
};
